// SPDX-License-Identifier: MIT
// Linux system calls for user mode (asm-generic numbers, include/uapi/asm-generic/unistd.h,
// 32-bit ABI: mmap is mmap2 with a page offset, fstat is fstat64, lseek is _llseek): trap0(#1)
// with the number in r6, arguments in r0-r5, result (or -errno) in r0. Structure layouts from
// include/uapi/asm-generic (stat.h stat64, termbits.h termios, utsname, timespec).
// Guest buffers are reached only through the checked memory accessors; a bad guest pointer
// gives -EFAULT as the kernel would. Time is derived from the pcycle clock (reproducible)
// unless --host-time; sleeping advances that clock instead of waiting.
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "user.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000   // Linux value; glibc declares it only with _GNU_SOURCE
#endif

// The system calls hexsim implements: number (asm-generic unistd.h), name as strace prints
// it, and the call. The dispatch switch and the name lookup are both generated from it.
#define HEXSIM_SYSCALLS(X) \
    X(29, "ioctl", sys_ioctl(u, r[0], r[1], r[2])) \
    X(56, "openat", sys_openat(u, r[0], r[1], r[2], r[3])) \
    X(57, "close", sys_close(u, r[0])) \
    X(62, "_llseek", sys_llseek(u, r[0], r[1], r[2], r[3], r[4])) \
    X(63, "read", sys_read(u, r[0], r[1], r[2])) \
    X(64, "write", sys_write(u, r[0], r[1], r[2])) \
    X(65, "readv", sys_rwv(u, false, r[0], r[1], r[2])) \
    X(66, "writev", sys_rwv(u, true, r[0], r[1], r[2])) \
    X(79, "fstatat64", sys_fstatat(u, r[0], r[1], r[2], r[3])) \
    X(80, "fstat64", sys_fstat(u, r[0], r[1])) \
    X(93, "exit", sys_exit(u, r[0])) \
    X(94, "exit_group", sys_exit(u, r[0])) \
    X(96, "set_tid_address", 1)                /* the only process: pid 1 */ \
    X(101, "nanosleep", sys_clock_nanosleep(u, 1, 0, r[0], false)) \
    X(113, "clock_gettime", sys_clock_gettime(u, r[0], r[1], false)) \
    X(115, "clock_nanosleep", sys_clock_nanosleep(u, r[0], r[1], r[2], false)) \
    X(160, "uname", sys_uname(u, r[0])) \
    X(169, "gettimeofday", sys_gettimeofday(u, r[0], r[1])) \
    X(172, "getpid", 1)                        /* as in a container */ \
    X(173, "getppid", 0) \
    X(174, "getuid", 0) \
    X(175, "geteuid", 0) \
    X(176, "getgid", 0) \
    X(177, "getegid", 0) \
    X(178, "gettid", 1) \
    X(214, "brk", sys_brk(u, r[0])) \
    X(215, "munmap", sys_munmap(u, r[0], r[1])) \
    X(222, "mmap2", sys_mmap2(u, r[0], r[1], r[2], r[3], r[4], r[5])) \
    X(226, "mprotect", sys_mprotect(u, r[0], r[1], r[2])) \
    X(278, "getrandom", sys_getrandom(u, r[0], r[1])) \
    X(403, "clock_gettime64", sys_clock_gettime(u, r[0], r[1], true)) \
    X(407, "clock_nanosleep_time64", sys_clock_nanosleep(u, r[0], r[1], r[2], true))


#define PCYCLE_HZ 600000000ull        // Hexagon Linux's pcycle rate (setup_arch: 600 MHz)
#define EPOCH_SECONDS 1767225600ull   // virtual wall clock starts at 2026-01-01 00:00:00 UTC
#define GUEST_AT_FDCWD (-100)
#define MAX_FDS 64

struct io_buf {
    uint8_t data[8192];
};

// ---- file descriptors: guest numbers map to host descriptors hexsim opened for it

static int host_fd(struct hexsim_user *u, uint32_t fd)
{
    return fd < MAX_FDS ? u->guest_fd_map[fd] : -1;
}

static int32_t new_guest_fd(struct hexsim_user *u, int hfd)
{
    for (int i = 0; i < MAX_FDS; i++)
        if (u->guest_fd_map[i] < 0) {
            u->guest_fd_map[i] = hfd;
            return i;
        }
    close(hfd);
    return -EMFILE;
}

static int copy_str(struct hexsim_user *u, uint32_t addr, char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (hexsim_mem_copy_out(&u->mem, addr + (uint32_t)i, &buf[i], 1, HEXSIM_PROT_R, NULL))
            return -EFAULT;
        if (!buf[i])
            return 0;
    }
    return -ENAMETOOLONG;
}

static int put_guest(struct hexsim_user *u, uint32_t addr, const void *p, size_t n)
{
    return hexsim_mem_copy_in(&u->mem, addr, p, n, false, NULL) ? -EFAULT : 0;
}

static void le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static void le64(uint8_t *b, uint64_t v)
{
    le32(b, (uint32_t)v);
    le32(b + 4, (uint32_t)(v >> 32));
}

static int32_t sys_read(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    struct io_buf tmp;
    uint32_t n = len < sizeof(tmp.data) ? len : (uint32_t)sizeof(tmp.data);
    if (n && hexsim_mem_check(&u->mem, buf, 1, HEXSIM_PROT_W))
        return -EFAULT;
    ssize_t r = read(h, tmp.data, n);
    if (r < 0)
        return -errno;
    return put_guest(u, buf, tmp.data, (size_t)r) ? -EFAULT : (int32_t)r;
}

static int32_t sys_write(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    struct io_buf tmp;
    uint32_t done = 0;
    while (done < len) {
        uint32_t chunk = len - done < sizeof(tmp.data) ? len - done : (uint32_t)sizeof(tmp.data);
        if (hexsim_mem_copy_out(&u->mem, buf + done, tmp.data, chunk, HEXSIM_PROT_R, NULL))
            return done ? (int32_t)done : -EFAULT;
        ssize_t w = write(h, tmp.data, chunk);
        if (w < 0)
            return done ? (int32_t)done : -errno;
        done += (uint32_t)w;
        if ((uint32_t)w < chunk)
            break;
    }
    return (int32_t)done;
}

static int32_t sys_rwv(struct hexsim_user *u, bool wr, uint32_t fd, uint32_t iov, uint32_t cnt)
{
    if (cnt > 1024)
        return -EINVAL;
    int32_t total = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        uint32_t v[2];
        if (hexsim_mem_copy_out(&u->mem, iov + 8 * i, v, 8, HEXSIM_PROT_R, NULL))
            return total ? total : -EFAULT;
        int32_t r = wr ? sys_write(u, fd, v[0], v[1]) : sys_read(u, fd, v[0], v[1]);
        if (r < 0)
            return total ? total : r;
        total += r;
        if ((uint32_t)r < v[1])
            break;
    }
    return total;
}

static int open_flags(uint32_t g)
{
    // asm-generic fcntl.h values (octal), translated bit by bit to the host's
    static const struct { uint32_t g; int h; } map[] = {
        { 0100, O_CREAT }, { 0200, O_EXCL }, { 0400, O_NOCTTY }, { 01000, O_TRUNC },
        { 02000, O_APPEND }, { 04000, O_NONBLOCK }, { 0200000, O_DIRECTORY },
        { 0400000, O_NOFOLLOW }, { 02000000, O_CLOEXEC },
    };
    int h = (int)(g & 3);
    for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
        if (g & map[i].g)
            h |= map[i].h;
    return h;
}

// Reads the guest path at `path` into p and gives the host directory descriptor it is
// relative to (*hd: AT_FDCWD, or the host side of guest dirfd); 0 or -errno.
static int resolve_at(struct hexsim_user *u, uint32_t dirfd, uint32_t path, char *p, size_t n,
                      int *hd)
{
    int e = copy_str(u, path, p, n);
    if (e)
        return e;
    if (u->opts.no_host_paths)
        return -EACCES;
    *hd = (int32_t)dirfd == GUEST_AT_FDCWD ? AT_FDCWD : host_fd(u, dirfd);
    if (*hd == -1 && p[0] != '/')
        return -EBADF;
    return 0;
}

static int32_t sys_openat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t flags,
                          uint32_t mode)
{
    char p[4096];
    int hd;
    int e = resolve_at(u, dirfd, path, p, sizeof(p), &hd);
    if (e)
        return e;
    int h = openat(hd, p, open_flags(flags), (mode_t)(mode & 07777));
    if (h < 0)
        return -errno;
    return new_guest_fd(u, h);
}

static int32_t sys_close(struct hexsim_user *u, uint32_t fd)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    u->guest_fd_map[fd] = -1;
    if (h <= 2)   // the guest closing its stdio must not close hexsim's
        return 0;
    return close(h) ? -errno : 0;
}

static int32_t sys_llseek(struct hexsim_user *u, uint32_t fd, uint32_t hi, uint32_t lo,
                          uint32_t result, uint32_t whence)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    if (whence > 2)
        return -EINVAL;
    off_t r = lseek(h, (off_t)((uint64_t)hi << 32 | lo), (int)whence);
    if (r < 0)
        return -errno;
    uint8_t b[8];
    le64(b, (uint64_t)r);
    return put_guest(u, result, b, 8);
}

static int32_t put_stat(struct hexsim_user *u, uint32_t addr, const struct stat *st)
{
    uint8_t b[104] = {0};   // asm-generic struct stat64
    le64(b + 0, (uint64_t)st->st_dev);
    le64(b + 8, (uint64_t)st->st_ino);
    le32(b + 16, (uint32_t)st->st_mode);
    le32(b + 20, (uint32_t)st->st_nlink);
    le32(b + 24, (uint32_t)st->st_uid);
    le32(b + 28, (uint32_t)st->st_gid);
    le64(b + 32, (uint64_t)st->st_rdev);
    le64(b + 48, (uint64_t)st->st_size);
    le32(b + 56, (uint32_t)st->st_blksize);
    le64(b + 64, (uint64_t)st->st_blocks);
    le32(b + 72, (uint32_t)st->st_atim.tv_sec);
    le32(b + 76, (uint32_t)st->st_atim.tv_nsec);
    le32(b + 80, (uint32_t)st->st_mtim.tv_sec);
    le32(b + 84, (uint32_t)st->st_mtim.tv_nsec);
    le32(b + 88, (uint32_t)st->st_ctim.tv_sec);
    le32(b + 92, (uint32_t)st->st_ctim.tv_nsec);
    return put_guest(u, addr, b, sizeof(b));
}

static int32_t sys_fstat(struct hexsim_user *u, uint32_t fd, uint32_t addr)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    struct stat st;
    if (fstat(h, &st))
        return -errno;
    return put_stat(u, addr, &st);
}

static int32_t sys_fstatat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t addr,
                           uint32_t flags)
{
    char p[4096];
    int hd;
    int e = resolve_at(u, dirfd, path, p, sizeof(p), &hd);
    if (e)
        return e;
    int hf = (flags & 0x100 ? AT_SYMLINK_NOFOLLOW : 0) | (flags & 0x1000 ? AT_EMPTY_PATH : 0);
    struct stat st;
    if (fstatat(hd, p, &st, hf))
        return -errno;
    return put_stat(u, addr, &st);
}

static int32_t sys_ioctl(struct hexsim_user *u, uint32_t fd, uint32_t req, uint32_t arg)
{
    int h = host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    if (req == 0x5401) {   // TCGETS: asm-generic struct termios (4 flags, c_line, c_cc[19])
        struct termios t;
        if (tcgetattr(h, &t))
            return -errno;
        uint8_t b[36] = {0};
        le32(b + 0, (uint32_t)t.c_iflag);
        le32(b + 4, (uint32_t)t.c_oflag);
        le32(b + 8, (uint32_t)t.c_cflag);
        le32(b + 12, (uint32_t)t.c_lflag);
        b[16] = (uint8_t)t.c_line;
        for (int i = 0; i < 19 && i < NCCS; i++)
            b[17 + i] = t.c_cc[i];
        return put_guest(u, arg, b, sizeof(b));
    }
    if (req == 0x5413) {   // TIOCGWINSZ
        struct winsize ws;
        if (ioctl(h, TIOCGWINSZ, &ws))
            return -errno;
        uint8_t b[8];
        uint16_t v[4] = { ws.ws_row, ws.ws_col, ws.ws_xpixel, ws.ws_ypixel };
        for (int i = 0; i < 4; i++) {
            b[2 * i] = (uint8_t)v[i];
            b[2 * i + 1] = (uint8_t)(v[i] >> 8);
        }
        return put_guest(u, arg, b, sizeof(b));
    }
    return -ENOTTY;
}

// ---- memory

static uint32_t sys_brk(struct hexsim_user *u, uint32_t want)
{
    if (want < u->brk_start || want >= HEXSIM_USER_MMAP_BASE)
        return u->brk_cur;
    uint32_t old_end = (u->brk_cur + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    uint32_t new_end = (want + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    for (uint32_t a = old_end; a < new_end; a += HEXSIM_PAGE_SIZE)
        if (hexsim_mem_is_mapped(&u->mem, a))
            return u->brk_cur;   // would run into a mapping
    if (new_end > old_end &&
        hexsim_mem_map(&u->mem, old_end, new_end - old_end, HEXSIM_PROT_R | HEXSIM_PROT_W))
        return u->brk_cur;
    if (new_end < old_end)
        hexsim_mem_unmap(&u->mem, new_end, old_end - new_end);
    u->brk_cur = want;
    return want;
}

// True when no page of [addr, addr+len) is mapped; else *next is the page after the first
// mapped one, where a search for free space can go on (no start before it can succeed).
static bool range_free(struct hexsim_user *u, uint32_t addr, uint32_t len, uint64_t *next)
{
    for (uint64_t a = addr; a < (uint64_t)addr + len; a += HEXSIM_PAGE_SIZE)
        if (a >= HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE ||
            hexsim_mem_is_mapped(&u->mem, (uint32_t)a)) {
            *next = a + HEXSIM_PAGE_SIZE;
            return false;
        }
    return true;
}

static unsigned guest_prot(uint32_t p)
{
    return (p & 1 ? HEXSIM_PROT_R : 0) | (p & 2 ? HEXSIM_PROT_W : 0) | (p & 4 ? HEXSIM_PROT_X : 0);
}

static int32_t sys_mmap2(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t prot,
                         uint32_t flags, uint32_t fd, uint32_t pgoff)
{
    enum { MAP_FIXED_ = 0x10, MAP_ANON_ = 0x20 };
    if (len == 0 || len > 0x80000000u || (addr & (HEXSIM_PAGE_SIZE - 1)))
        return -EINVAL;
    uint32_t size = (len + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    int h = -1;
    if (!(flags & MAP_ANON_)) {
        h = host_fd(u, fd);
        if (h < 0)
            return -EBADF;
    }
    uint32_t at;
    if (flags & MAP_FIXED_) {
        if ((uint64_t)addr + size > HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE)
            return -ENOMEM;
        at = addr;
        hexsim_mem_unmap(&u->mem, at, size);
    } else {
        at = 0;
        uint64_t start = addr && addr >= u->brk_cur ? addr : u->mmap_next;
        for (uint64_t a = start; a + size <= HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE;)
            if (range_free(u, (uint32_t)a, size, &a)) {
                at = (uint32_t)a;
                break;
            }
        if (!at)
            return -ENOMEM;
        if (at + size > u->mmap_next)
            u->mmap_next = at + size;
    }
    if (hexsim_mem_map(&u->mem, at, size, guest_prot(prot)))
        return -ENOMEM;
    if (h >= 0) {   // private copy of the file's bytes (MAP_SHARED writes are not written back)
        struct io_buf tmp;
        uint64_t off = (uint64_t)pgoff * HEXSIM_PAGE_SIZE;
        for (uint32_t done = 0; done < len;) {
            size_t n = len - done < sizeof(tmp.data) ? len - done : sizeof(tmp.data);
            ssize_t r = pread(h, tmp.data, n, (off_t)(off + done));
            if (r <= 0)
                break;
            hexsim_mem_copy_in(&u->mem, at + done, tmp.data, (size_t)r, true, NULL);
            done += (uint32_t)r;
        }
    }
    return (int32_t)at;
}

static int32_t sys_munmap(struct hexsim_user *u, uint32_t addr, uint32_t len)
{
    if ((addr & (HEXSIM_PAGE_SIZE - 1)) || len == 0)
        return -EINVAL;
    if ((uint64_t)addr + len > HEXSIM_USER_STACK_TOP)
        return -EINVAL;
    hexsim_mem_unmap(&u->mem, addr, len);
    return 0;
}

static int32_t sys_mprotect(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t prot)
{
    if (addr & (HEXSIM_PAGE_SIZE - 1))
        return -EINVAL;
    return hexsim_mem_protect(&u->mem, addr, len, guest_prot(prot)) ? -ENOMEM : 0;
}

// ---- time

static uint64_t now_ns(struct hexsim_user *u, uint32_t clk)
{
    if (u->opts.host_time) {
        struct timespec ts;
        clock_gettime(clk == 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    uint64_t c = u->cpu.pcycles;
    uint64_t ns = c / PCYCLE_HZ * 1000000000ull + c % PCYCLE_HZ * 1000000000ull / PCYCLE_HZ;
    return clk == 0 ? ns + EPOCH_SECONDS * 1000000000ull : ns;
}

static int32_t sys_clock_gettime(struct hexsim_user *u, uint32_t clk, uint32_t addr, bool t64)
{
    if (clk > 11)
        return -EINVAL;
    uint64_t ns = now_ns(u, clk);
    uint8_t b[16] = {0};
    if (t64) {
        le64(b, ns / 1000000000ull);
        le32(b + 8, (uint32_t)(ns % 1000000000ull));
        return put_guest(u, addr, b, 16);
    }
    le32(b, (uint32_t)(ns / 1000000000ull));
    le32(b + 4, (uint32_t)(ns % 1000000000ull));
    return put_guest(u, addr, b, 8);
}

static int32_t sys_gettimeofday(struct hexsim_user *u, uint32_t tv, uint32_t tz)
{
    uint64_t ns = now_ns(u, 0);
    uint8_t b[8];
    if (tv) {
        le32(b, (uint32_t)(ns / 1000000000ull));
        le32(b + 4, (uint32_t)(ns % 1000000000ull / 1000));
        if (put_guest(u, tv, b, 8))
            return -EFAULT;
    }
    if (tz) {
        memset(b, 0, 8);
        if (put_guest(u, tz, b, 8))
            return -EFAULT;
    }
    return 0;
}

static int32_t sleep_for(struct hexsim_user *u, uint64_t ns)
{
    if (u->opts.host_time) {
        struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
        while (nanosleep(&ts, &ts) && errno == EINTR)
            ;
    } else {
        u->cpu.pcycles += ns / 1000000000ull * PCYCLE_HZ + ns % 1000000000ull * PCYCLE_HZ / 1000000000ull;
    }
    return 0;
}

static int read_timespec(struct hexsim_user *u, uint32_t addr, bool t64, uint64_t *ns)
{
    uint8_t b[16];
    if (hexsim_mem_copy_out(&u->mem, addr, b, t64 ? 16 : 8, HEXSIM_PROT_R, NULL))
        return -EFAULT;
    int64_t sec;
    uint32_t nsec;
    if (t64) {
        uint64_t s = 0;
        for (int i = 7; i >= 0; i--)
            s = s << 8 | b[i];
        sec = (int64_t)s;
        nsec = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    } else {
        sec = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        nsec = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    }
    if (sec < 0 || nsec >= 1000000000u)
        return -EINVAL;
    *ns = (uint64_t)sec * 1000000000ull + nsec;
    return 0;
}

static int32_t sys_clock_nanosleep(struct hexsim_user *u, uint32_t clk, uint32_t flags,
                                   uint32_t req, bool t64)
{
    uint64_t ns;
    int e = read_timespec(u, req, t64, &ns);
    if (e)
        return e;
    if (flags & 1) {   // TIMER_ABSTIME
        uint64_t now = now_ns(u, clk);
        ns = ns > now ? ns - now : 0;
    }
    return sleep_for(u, ns);
}

// ---- identity

static int32_t sys_uname(struct hexsim_user *u, uint32_t addr)
{
    char b[6 * 65] = {0};
    static const char *const f[6] = { "Linux", "hexsim", "6.1.0", "#1 hexsim", "hexagon", "(none)" };
    for (int i = 0; i < 6; i++)
        strncpy(b + 65 * i, f[i], 64);
    return put_guest(u, addr, b, sizeof(b));
}

static int32_t sys_getrandom(struct hexsim_user *u, uint32_t addr, uint32_t len)
{
    uint8_t tmp[256];
    uint32_t n = len < sizeof(tmp) ? len : (uint32_t)sizeof(tmp);
    for (uint32_t i = 0; i < n; i++) {
        // xorshift64*: reproducible unless host time (and host randomness) is asked for
        uint64_t s = u->rng ? u->rng : 0x9e3779b97f4a7c15ull;
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        u->rng = s;
        tmp[i] = (uint8_t)((s * 0x2545f4914f6cdd1dull) >> 56);
    }
    if (u->opts.host_time) {
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd >= 0) {
            if (read(fd, tmp, n) < 0)
                n = 0;
            close(fd);
        }
    }
    return put_guest(u, addr, tmp, n) ? -EFAULT : (int32_t)n;
}

static const char *syscall_name(uint32_t nr)
{
    switch (nr) {
#define NAME_CASE(num, name, call) case num: return name;
    HEXSIM_SYSCALLS(NAME_CASE)
#undef NAME_CASE
    }
    return NULL;
}

// exit and exit_group: the program ends with the low 8 bits of the status.
static int64_t sys_exit(struct hexsim_user *u, uint32_t status)
{
    u->exited = true;
    u->exit_status = (int)(status & 0xff);
    return 0;
}

static void warn_once(struct hexsim_user *u, uint32_t nr)
{
    if (nr < 512) {
        if (u->warned_syscalls[nr / 64] >> (nr % 64) & 1)
            return;
        u->warned_syscalls[nr / 64] |= 1ull << (nr % 64);
    }
    fprintf(u->err, "hexsim: warning: system call %u is not implemented (returns -ENOSYS)\n", nr);
}

void hexsim_user_syscall(struct hexsim_user *u)
{
    uint32_t *r = u->cpu.r;
    uint32_t nr = r[6];
    int64_t ret;
    u->syscalls++;
    switch (nr) {
#define CALL_CASE(num, name, call) case num: ret = (call); break;
    HEXSIM_SYSCALLS(CALL_CASE)
#undef CALL_CASE
    default:
        warn_once(u, nr);
        ret = -ENOSYS;
        break;
    }
    if (u->exited) {
        if (u->opts.strace)
            fprintf(u->err, "hexsim: strace: %s(%d)\n", syscall_name(nr), (int32_t)r[0]);
        return;
    }
    if (u->opts.strace) {
        const char *n = syscall_name(nr);
        char num[24];
        snprintf(num, sizeof(num), "syscall_%u", nr);
        fprintf(u->err, "hexsim: strace: %s(0x%x, 0x%x, 0x%x, 0x%x, 0x%x, 0x%x) = %lld\n",
                n ? n : num, r[0], r[1], r[2], r[3], r[4], r[5], (long long)ret);
    }
    r[0] = (uint32_t)ret;
}
