// SPDX-License-Identifier: MIT
// Guest program for tests/user (os_test.py): file, directory and process system calls with
// their results and errno values, in a scratch directory given as argv[1] (made empty by the
// test): mkdirat, openat with O_CREAT, pwrite64/pread64, ftruncate64, fstat, renameat(2),
// linkat, symlinkat, readlinkat, faccessat, fchmodat, utimensat, statx, statfs64,
// getdents64, unlinkat, chdir/fchdir/getcwd, dup/dup3/fcntl, pipe2, ppoll, pselect6,
// sendfile64, umask, mremap, madvise, and the information calls (only whether they work:
// their values are the host's under qemu); transfers larger than a page in one call (read,
// write, pread64, pwrite64, readv of a file; readv of a pipe returning what is there;
// sendfile64 moving the file position) and a read into a page code ran from.
#include "urt.h"

#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_RDWR 2
#define O_CREAT 0100
#define O_EXCL 0200
#define O_TRUNC 01000
#define O_NONBLOCK 04000
#define O_DIRECTORY 0200000
#define O_CLOEXEC 02000000

static void line(const char *what, long v) { put_str(what); put_str(": "); put_dec(v); put_str("\n"); }
static long openat_(int dir, const char *p, int fl, int mode) { return sys(56, dir, (long)p, fl, mode, 0, 0); }
static long close_(long fd) { return sys(57, fd, 0, 0, 0, 0, 0); }
static long write_(long fd, const void *b, long n) { return sys(64, fd, (long)b, n, 0, 0, 0); }
static long read_(long fd, void *b, long n) { return sys(63, fd, (long)b, n, 0, 0, 0); }
static long lseek_(long fd, long off, int whence)
{
    long long res = -1;
    long r = sys(62, fd, 0, off, (long)&res, whence, 0);
    return r ? r : (long)res;
}
static int ret7(void) { return 7; }
static int ret9(void) { return 9; }
static int streq(const char *a, const char *b) { while (*a && *a == *b) { a++; b++; } return *a == *b; }
static unsigned mode_of(const char *p)
{
    unsigned char st[104];
    if (sys(79, AT_FDCWD, (long)p, (long)st, 0, 0, 0))
        return 0;
    return (unsigned)(st[16] | st[17] << 8 | st[18] << 16 | st[19] << 24);
}
static long size_of_fd(long fd)
{
    unsigned char st[104];
    sys(80, fd, (long)st, 0, 0, 0, 0);
    return st[48] | st[49] << 8 | st[50] << 16;
}

int main(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc < 2)
        return 2;
    line("umask", sys(166, 022, 0, 0, 0, 0, 0));
    line("umask back", sys(166, 022, 0, 0, 0, 0, 0));
    line("chdir", sys(49, (long)argv[1], 0, 0, 0, 0, 0));
    char cwd[512];
    long n = sys(17, (long)cwd, sizeof cwd, 0, 0, 0, 0);
    line("getcwd is the scratch directory", n > 0 && streq(cwd, argv[1]));
    line("getcwd too small", sys(17, (long)cwd, 2, 0, 0, 0, 0));
    line("mkdirat", sys(34, AT_FDCWD, (long)"d", 0755, 0, 0, 0));
    line("mkdirat again", sys(34, AT_FDCWD, (long)"d", 0755, 0, 0, 0));
    line("mode of d", mode_of("d") & 07777);
    long fd = openat_(AT_FDCWD, "d/f", O_RDWR | O_CREAT | O_EXCL, 0644);
    line("openat O_CREAT", fd >= 3);
    line("openat O_EXCL again", openat_(AT_FDCWD, "d/f", O_RDWR | O_CREAT | O_EXCL, 0644));
    line("write", write_(fd, "hello world\n", 12));
    line("pwrite64", sys(68, fd, (long)"HELLO", 5, 0, 0, 0));
    char buf[64] = {0};
    line("pread64 at 6", sys(67, fd, (long)buf, 5, 0, 6, 0));
    put_str(buf); put_str("\n");
    line("pread64 at 0", sys(67, fd, (long)buf, 5, 0, 0, 0));
    put_str(buf); put_str("\n");
    line("pread64 negative offset", sys(67, fd, (long)buf, 5, 0, -1, -1));
    line("ftruncate64", sys(46, fd, 0, 100, 0, 0, 0));
    line("size", size_of_fd(fd));
    line("ftruncate64 bad fd", sys(46, 50, 0, 100, 0, 0, 0));
    line("fchmod", sys(52, fd, 0600, 0, 0, 0, 0));
    line("mode of d/f", mode_of("d/f") & 07777);
    line("fchmodat", sys(53, AT_FDCWD, (long)"d/f", 0640, 0, 0, 0));
    line("mode of d/f", mode_of("d/f") & 07777);

    // descriptors
    long d2 = sys(23, fd, 0, 0, 0, 0, 0);
    line("dup", d2 > fd);
    line("dup3 to 20", sys(24, fd, 20, O_CLOEXEC, 0, 0, 0));
    line("F_GETFD of 20", sys(25, 20, 1, 0, 0, 0, 0));
    line("F_SETFD", sys(25, 20, 2, 0, 0, 0, 0));
    line("F_GETFD", sys(25, 20, 1, 0, 0, 0, 0));
    line("F_GETFL access mode", sys(25, fd, 3, 0, 0, 0, 0) & 3);
    line("F_SETFL O_NONBLOCK", sys(25, fd, 4, O_NONBLOCK, 0, 0, 0));
    line("F_GETFL has O_NONBLOCK", (sys(25, fd, 3, 0, 0, 0, 0) & O_NONBLOCK) != 0);
    line("F_DUPFD from 30", sys(25, fd, 0, 30, 0, 0, 0));
    line("F_DUPFD_CLOEXEC from 30", sys(25, fd, 1030, 30, 0, 0, 0));
    line("fcntl bad command", sys(25, fd, 999, 0, 0, 0, 0));
    line("dup3 same fd", sys(24, fd, fd, 0, 0, 0, 0));
    line("dup3 bad flags", sys(24, fd, 21, 1, 0, 0, 0));
    line("dup bad fd", sys(23, 55, 0, 0, 0, 0, 0));
    line("close 20", close_(20));
    line("close 30", close_(30));
    line("close 31", close_(31));
    line("close dup", close_(d2));

    // paths
    line("linkat", sys(37, AT_FDCWD, (long)"d/f", AT_FDCWD, (long)"d/g", 0, 0));
    line("symlinkat", sys(36, (long)"f", AT_FDCWD, (long)"d/s", 0, 0, 0));
    n = sys(78, AT_FDCWD, (long)"d/s", (long)buf, sizeof buf, 0, 0);
    buf[n > 0 ? n : 0] = 0;
    line("readlinkat", n); put_str(buf); put_str("\n");
    line("readlinkat not a link", sys(78, AT_FDCWD, (long)"d/f", (long)buf, sizeof buf, 0, 0));
    line("faccessat R_OK", sys(48, AT_FDCWD, (long)"d/f", 4, 0, 0, 0));
    line("faccessat missing", sys(48, AT_FDCWD, (long)"d/nothing", 0, 0, 0, 0));
    line("renameat", sys(38, AT_FDCWD, (long)"d/g", AT_FDCWD, (long)"d/h", 0, 0));
    line("renameat2 NOREPLACE onto a file", sys(276, AT_FDCWD, (long)"d/h", AT_FDCWD, (long)"d/f", 1, 0));
    long long times[4] = { 1000000000, 0, 1500000000, 500 };
    line("utimensat_time64", sys(412, AT_FDCWD, (long)"d/f", (long)times, 0, 0, 0));
    unsigned char stx[256];
    line("statx", sys(291, AT_FDCWD, (long)"d/f", 0, 0xfff, (long)stx, 0));
    line("statx size", stx[40] | stx[41] << 8);
    line("statx mtime", (long)(*(long long *)(stx + 112) == 1500000000));
    line("statx nlink", *(unsigned *)(stx + 16));
    line("statx empty path on fd", sys(291, fd, (long)"", 0x1000, 0xfff, (long)stx, 0));
    unsigned char sfs[84];
    line("statfs64", sys(43, (long)".", 84, (long)sfs, 0, 0, 0));
    line("fstatfs64", sys(44, fd, 84, (long)sfs, 0, 0, 0));

    // directory listing
    long dfd = openat_(AT_FDCWD, "d", O_RDONLY | O_DIRECTORY, 0);
    char dents[1024];
    int names = 0, seen_f = 0, seen_h = 0, seen_s = 0;
    while ((n = sys(61, dfd, (long)dents, sizeof dents, 0, 0, 0)) > 0)
        for (long off = 0; off < n;) {
            unsigned short reclen = (unsigned short)(dents[off + 16] | dents[off + 17] << 8);
            const char *name = dents + off + 19;
            names++;
            seen_f |= streq(name, "f");
            seen_h |= streq(name, "h");
            seen_s |= streq(name, "s") && dents[off + 18] == 10;   // DT_LNK
            off += reclen;
        }
    line("getdents64 end", n);
    line("entries", names);
    line("f h s(link) listed", seen_f + seen_h + seen_s);
    line("getdents64 on a file", sys(61, fd, (long)dents, sizeof dents, 0, 0, 0));
    line("fchdir", sys(50, dfd, 0, 0, 0, 0, 0));
    long rel = openat_(AT_FDCWD, "f", O_RDONLY, 0);
    line("relative open after fchdir", rel >= 3);
    close_(rel);
    line("chdir ..", sys(49, (long)"..", 0, 0, 0, 0, 0));
    line("fchdir on a file", sys(50, fd, 0, 0, 0, 0, 0));
    close_(dfd);

    // pipes, poll, select, sendfile
    int p[2];
    line("pipe2", sys(59, (long)p, O_CLOEXEC, 0, 0, 0, 0));
    line("pipe2 bad flags", sys(59, (long)p, 1, 0, 0, 0, 0));
    struct { int fd; short ev, rev; } pf[2] = { { p[0], 1, 0 }, { p[1], 4, 0 } };
    long long zero[2] = { 0, 0 };
    line("ppoll empty pipe", sys(414, (long)pf, 2, (long)zero, 0, 8, 0));
    line("read end not ready", pf[0].rev);
    line("write end ready", pf[1].rev);
    write_(p[1], "xyz", 3);
    line("ppoll after write", sys(414, (long)pf, 1, (long)zero, 0, 8, 0));
    line("revents POLLIN", pf[0].rev);
    unsigned rset[2] = { 1u << p[0], 0 };
    line("pselect6_time64", sys(413, p[0] + 1, (long)rset, 0, 0, (long)zero, 0));
    line("read set kept", rset[0] == 1u << p[0]);
    line("read pipe", read_(p[0], buf, sizeof buf));
    long long off = 6;
    line("sendfile64", sys(71, p[1], fd, (long)&off, 5, 0, 0));
    line("offset moved", (long)off);
    n = read_(p[0], buf, sizeof buf);
    buf[n] = 0;
    line("read sent", n); put_str(buf); put_str("\n");
    line("ppoll bad fd", sys(414, (long)&(struct { int fd; short ev, rev; }){ 45, 1, 0 }, 1, (long)zero, 0, 8, 0));
    close_(p[0]);
    close_(p[1]);
    close_(fd);

    // large transfers: one call moves all the guest asked for (a regular file)
    enum { BIG = 100000 };
    unsigned char *bb = (unsigned char *)sys(222, 0, 2 * BIG, 3, 0x22, -1, 0);
    for (long i = 0; i < BIG; i++)
        bb[i] = (unsigned char)(i * 7 + (i >> 9));
    long bf = openat_(AT_FDCWD, "big", O_RDWR | O_CREAT | O_TRUNC, 0644);
    line("write 100000", write_(bf, bb, BIG));
    line("pwrite64 100000 at 100000", sys(68, bf, (long)bb, BIG, 0, BIG, 0));
    for (long i = 0; i < BIG; i++)
        bb[i] = 0;
    line("pread64 100000", sys(67, bf, (long)bb, BIG, 0, 0, 0));
    long same = 1;
    for (long i = 0; i < BIG; i++)
        same &= bb[i] == (unsigned char)(i * 7 + (i >> 9));
    line("pread64 data", same);
    line("lseek 0", lseek_(bf, 0, 0));
    line("read 120000", read_(bf, bb, 120000));
    line("read data", bb[119999] == (unsigned char)(19999 * 7 + (19999 >> 9)));
    struct { void *b; long n; } iov[2] = { { bb, 30000 }, { bb + 30000, 70000 } };
    line("readv to the end", sys(65, bf, (long)iov, 2, 0, 0, 0));
    line("readv at the end", sys(65, bf, (long)iov, 2, 0, 0, 0));
    iov[0].n = -1;
    line("readv negative length", sys(65, bf, (long)iov, 2, 0, 0, 0));
    iov[0].n = 0;
    line("writev of nothing", sys(66, bf, (long)iov, 1, 0, 0, 0));
    int q[2];
    sys(59, (long)q, 0, 0, 0, 0, 0);
    write_(q[1], "0123456789", 10);
    iov[0].n = 10;
    iov[1].n = 20;
    line("readv of a pipe: what is there", sys(65, q[0], (long)iov, 2, 0, 0, 0));
    line("lseek 1000", lseek_(bf, 1000, 0));
    line("sendfile64 no offset", sys(71, q[1], bf, 0, 5000, 0, 0));
    line("position moved", lseek_(bf, 0, 1));
    line("read it back", read_(q[0], bb, 8192));
    line("sent data", bb[4999] == (unsigned char)(5999 * 7 + (5999 >> 9)));
    close_(q[0]);
    close_(q[1]);
    // a read into a page code ran from: the new code runs
    unsigned char *code = (unsigned char *)sys(222, 0, 4096, 7, 0x22, -1, 0);
    for (int i = 0; i < 16; i++)
        code[i] = ((const unsigned char *)ret7)[i];
    int (*fn)(void) = (int (*)(void))code;
    line("code before", fn());
    lseek_(bf, 0, 0);
    write_(bf, (const void *)ret9, 16);
    lseek_(bf, 0, 0);
    line("read into code", read_(bf, code, 16));
    line("code after", fn());
    close_(bf);
    line("unlinkat big", sys(35, AT_FDCWD, (long)"big", 0, 0, 0, 0));

    // removal and its errors
    line("unlinkat missing", sys(35, AT_FDCWD, (long)"d/nothing", 0, 0, 0, 0));
    line("rmdir not empty", sys(35, AT_FDCWD, (long)"d", 0x200, 0, 0, 0));
    line("unlinkat a directory", sys(35, AT_FDCWD, (long)"d", 0, 0, 0, 0));
    line("unlinkat f", sys(35, AT_FDCWD, (long)"d/f", 0, 0, 0, 0));
    line("unlinkat h", sys(35, AT_FDCWD, (long)"d/h", 0, 0, 0, 0));
    line("unlinkat s", sys(35, AT_FDCWD, (long)"d/s", 0, 0, 0, 0));
    line("rmdir", sys(35, AT_FDCWD, (long)"d", 0x200, 0, 0, 0));

    // memory
    char *m = (char *)sys(222, 0, 8192, 3, 0x22, -1, 0);
    m[0] = 'a'; m[8191] = 'b';
    char *m2 = (char *)sys(216, (long)m, 8192, 65536, 1, 0, 0);
    line("mremap grow keeps data", m2 != (char *)-1 && m2[0] == 'a' && m2[8191] == 'b');
    m2[65535] = 'c';
    line("mremap shrink in place", sys(216, (long)m2, 65536, 4096, 0, 0, 0) == (long)m2);
    line("madvise unaligned", sys(233, (long)m2 + 1, 4096, 4, 0, 0, 0));

    // information calls: whether they work (the values are the host's under qemu)
    unsigned char big[512];
    line("uname", sys(160, (long)big, 0, 0, 0, 0, 0));
    line("sysinfo", sys(179, (long)big, 0, 0, 0, 0, 0));
    line("getrlimit NOFILE", sys(163, 7, (long)big, 0, 0, 0, 0));
    line("getrlimit bad", sys(163, 99, (long)big, 0, 0, 0, 0));
    line("prlimit64 STACK", sys(261, 0, 3, 0, (long)big, 0, 0));
    line("getrusage", sys(165, 0, (long)big, 0, 0, 0, 0));
    line("getrusage bad who", sys(165, 5, (long)big, 0, 0, 0, 0));
    line("times", sys(153, (long)big, 0, 0, 0, 0, 0) >= 0);
    line("sched_getaffinity", sys(123, 0, 128, (long)big, 0, 0, 0) > 0);
    line("sched_yield", sys(124, 0, 0, 0, 0, 0, 0));
    line("wait4 (no children)", sys(260, -1, 0, 0, 0, 0, 0));
    line("getpgid is getpid", sys(155, 0, 0, 0, 0, 0, 0) == sys(172, 0, 0, 0, 0, 0, 0) ||
                              sys(155, 0, 0, 0, 0, 0, 0) > 0);
    unsigned ids[3] = { 9, 9, 9 };
    line("getresuid", sys(148, (long)&ids[0], (long)&ids[1], (long)&ids[2], 0, 0, 0));
    line("membarrier query", sys(283, 0, 0, 0, 0, 0, 0) >= 0);
    line("clock_getres_time64", sys(406, 1, (long)big, 0, 0, 0, 0));
    line("getpriority", sys(141, 0, 0, 0, 0, 0, 0) > 0);
    line("sched_getscheduler", sys(120, 0, 0, 0, 0, 0, 0));
    line("sched_get_priority_max FIFO", sys(125, 1, 0, 0, 0, 0, 0));
    line("sched_get_priority_min OTHER", sys(126, 0, 0, 0, 0, 0, 0));
    line("clock_settime64", sys(404, 0, (long)zero, 0, 0, 0, 0) < 0);
    line("mlock", sys(228, (long)m2, 4096, 0, 0, 0, 0));
    line("msync", sys(227, (long)m2, 4096, 4, 0, 0, 0));

    // memfd_create and close_range
    long mf = sys(279, (long)"scratch", 1, 0, 0, 0, 0);
    line("memfd_create", mf >= 3);
    line("write memfd", write_(mf, "memfd!", 6));
    line("pread64 memfd", sys(67, mf, (long)buf, 6, 0, 0, 0));
    buf[6] = 0; put_str(buf); put_str("\n");
    line("dup3 to 40", sys(24, mf, 40, 0, 0, 0, 0));
    line("close_range 40-63", sys(436, 40, 63, 0, 0, 0, 0));
    line("40 closed", sys(25, 40, 1, 0, 0, 0, 0));
    line("close_range bad", sys(436, 9, 3, 0, 0, 0, 0));
    close_(mf);
    return 0;
}
