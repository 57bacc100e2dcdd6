// SPDX-License-Identifier: MIT
// Check suite of the 9P2000.L server (src/devices/p9/, include/hexsim/p9.h) and the
// --share parser (src/devices/comet/virtio_9p_opts.c): messages built by hand as Linux's
// 9p client lays them out (net/9p/client.c), answered by hexsim_p9_handle on a scratch
// directory, the replies parsed and the host directory checked. Covers the session
// (Tversion first, msize), walks (.., partial walks, bad names), files (create, write,
// read, truncate, getattr, readdir, fsync, locks), the name space (mkdir, symlink,
// readlink, rename with open fids following, unlink, remove, link, mknod refusals),
// every escape attempt (.. at the top, names with '/', absolute and relative symbolic
// links out, a symbolic link as a directory on the way, opening a link), read-only
// shares, ownership (owner changes ignored, set-user-ID dropped) and malformed messages
// (short, over-long sizes, strings past the end or holding NUL, unknown types, tiny
// reply buffers).
#define _GNU_SOURCE
#include "../check_main.h"
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hexsim/p9.h"

enum {
    T_STATFS = 8, T_LOPEN = 12, T_LCREATE = 14, T_SYMLINK = 16, T_MKNOD = 18, T_RENAME = 20,
    T_READLINK = 22, T_GETATTR = 24, T_SETATTR = 26, T_XATTRWALK = 30, T_READDIR = 40,
    T_FSYNC = 50, T_LOCK = 52, T_GETLOCK = 54, T_LINK = 70, T_MKDIR = 72, T_RENAMEAT = 74,
    T_UNLINKAT = 76, T_VERSION = 100, T_ATTACH = 104, T_FLUSH = 108, T_WALK = 110,
    T_READ = 116, T_WRITE = 118, T_CLUNK = 120, T_REMOVE = 122,
};
#define R_LERROR 7
#define NOFID 0xffffffffu

struct msg {
    uint8_t b[8192];
    size_t n;
};

static struct hexsim_p9 srv;
static char top[64], outside[64];
static uint8_t reply[HEXSIM_P9_MSIZE_MAX];
static size_t rlen;

// k bytes of v, little-endian (zeros past its 8 bytes)
static void put(struct msg *m, uint64_t v, unsigned k)
{
    for (unsigned i = 0; i < k; i++)
        m->b[m->n++] = i < 8 ? (uint8_t)(v >> (8 * i)) : 0;
}

static void str(struct msg *m, const char *s)
{
    size_t k = strlen(s);
    put(m, k, 2);
    memcpy(m->b + m->n, s, k);
    m->n += k;
}

static void begin(struct msg *m, uint8_t type)
{
    m->n = 0;
    put(m, 0, 4);
    put(m, type, 1);
    put(m, 1, 2);                      // tag
}

static uint64_t get(size_t off, unsigned k)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < k; i++)
        v |= (uint64_t)reply[off + i] << (8 * i);
    return v;
}

// Sends m; returns 0 on an R-message of type+1, else the Rlerror errno.
static int send_msg(struct msg *m)
{
    uint8_t type = m->b[4];
    for (unsigned i = 0; i < 4; i++)
        m->b[i] = (uint8_t)(m->n >> (8 * i));
    rlen = hexsim_p9_handle(&srv, m->b, m->n, reply, sizeof reply);
    ck_assert_uint_ge(rlen, 7);
    ck_assert_uint_eq(get(0, 4), rlen);
    ck_assert_uint_eq(get(5, 2), 1);
    if (reply[4] == R_LERROR)
        return (int)get(7, 4);
    ck_assert_uint_eq(reply[4], type + 1);
    return 0;
}

static int walk(uint32_t fid, uint32_t newfid, int n, const char *const *names)
{
    struct msg m;
    begin(&m, T_WALK);
    put(&m, fid, 4);
    put(&m, newfid, 4);
    put(&m, (uint64_t)n, 2);
    for (int i = 0; i < n; i++)
        str(&m, names[i]);
    return send_msg(&m);
}

static int walk1(uint32_t fid, uint32_t newfid, const char *name)
{
    return walk(fid, newfid, 1, &name);
}

static int fid_op(uint8_t type, uint32_t fid, uint64_t extra, unsigned k)
{
    struct msg m;
    begin(&m, type);
    put(&m, fid, 4);
    if (k)
        put(&m, extra, k);
    return send_msg(&m);
}

static int lcreate(uint32_t fid, const char *name, uint32_t flags, uint32_t mode)
{
    struct msg m;
    begin(&m, T_LCREATE);
    put(&m, fid, 4);
    str(&m, name);
    put(&m, flags, 4);
    put(&m, mode, 4);
    put(&m, 0, 4);
    return send_msg(&m);
}

static int write_at(uint32_t fid, uint64_t off, const char *data)
{
    struct msg m;
    begin(&m, T_WRITE);
    put(&m, fid, 4);
    put(&m, off, 8);
    put(&m, strlen(data), 4);
    memcpy(m.b + m.n, data, strlen(data));
    m.n += strlen(data);
    return send_msg(&m);
}

static int dir_name(uint8_t type, uint32_t dfid, const char *name, uint32_t a, uint32_t b)
{
    struct msg m;
    begin(&m, type);
    put(&m, dfid, 4);
    str(&m, name);
    put(&m, a, 4);
    put(&m, b, 4);
    return send_msg(&m);
}

static int mknod_fifo(const char *name)
{
    struct msg m;
    begin(&m, T_MKNOD);
    put(&m, 0, 4);
    str(&m, name);
    put(&m, S_IFIFO | 0644, 4);
    put(&m, 0, 12);                    // major, minor, gid
    return send_msg(&m);
}

static void session(bool readonly)
{
    char msg[256];
    ck_assert_int_eq(hexsim_p9_open(&srv, top, readonly, msg, sizeof msg), 0);
    struct msg m;
    begin(&m, T_VERSION);
    put(&m, 65536, 4);
    str(&m, "9P2000.L");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(get(7, 4), 65536);
    begin(&m, T_ATTACH);
    put(&m, 0, 4);
    put(&m, NOFID, 4);
    str(&m, "root");
    str(&m, "/etc");                   // aname: ignored, always the share's top
    put(&m, 0, 4);
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(reply[7], 0x80);
}

static void setup(void)
{
    strcpy(top, "/tmp/hexsim_p9_XXXXXX");
    strcpy(outside, "/tmp/hexsim_p9o_XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(top));
    ck_assert_ptr_nonnull(mkdtemp(outside));
    char p[256];
    snprintf(p, sizeof p, "%s/secret", outside);
    FILE *f = fopen(p, "w");
    fputs("secret\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/sub", top);
    mkdir(p, 0755);
    snprintf(p, sizeof p, "%s/hello", top);
    f = fopen(p, "w");
    fputs("hello world\n", f);
    fclose(f);
    snprintf(p, sizeof p, "%s/abs", top);
    ck_assert_int_eq(symlink(outside, p), 0);
    snprintf(p, sizeof p, "%s/sub/rel", top);
    char rel[128];
    snprintf(rel, sizeof rel, "../..%s", outside + 4);   // ../../hexsim_p9o_...
    ck_assert_int_eq(symlink(rel, p), 0);
}

static void teardown(void)
{
    hexsim_p9_close(&srv);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s %s", top, outside);
    ck_assert_int_eq(system(cmd), 0);
}

static char *host_read(const char *name)
{
    static char buf[256];
    char p[256];
    snprintf(p, sizeof p, "%s/%s", top, name);
    int fd = open(p, O_RDONLY);
    if (fd < 0)
        return NULL;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n < 0 ? 0 : n] = '\0';
    return buf;
}

START_TEST(version_first)
{
    char msg[256];
    ck_assert_int_eq(hexsim_p9_open(&srv, top, false, msg, sizeof msg), 0);
    struct msg m;
    begin(&m, T_ATTACH);
    put(&m, 0, 4);
    put(&m, NOFID, 4);
    str(&m, "");
    str(&m, "");
    put(&m, 0, 4);
    ck_assert_int_eq(send_msg(&m), EPROTO);
    begin(&m, T_VERSION);
    put(&m, 1u << 30, 4);
    str(&m, "9P2000.L");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(get(7, 4), HEXSIM_P9_MSIZE_MAX);   // capped
    begin(&m, T_VERSION);
    put(&m, 8192, 4);
    str(&m, "9P2000.u");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(get(11, 2), 7);
    ck_assert_int_eq(memcmp(reply + 13, "unknown", 7), 0);
    ck_assert_int_eq(fid_op(T_CLUNK, 0, 0, 0), EPROTO);  // no session after "unknown"
    begin(&m, T_VERSION);
    put(&m, 100, 4);                   // below any real msize
    str(&m, "9P2000.L");
    ck_assert_int_eq(send_msg(&m), EINVAL);
}
END_TEST

START_TEST(walks)
{
    session(false);
    const char *up[] = { "..", "..", "sub", ".." };
    ck_assert_int_eq(walk(0, 1, 4, up), 0);      // .. at the top stays at the top
    ck_assert_uint_eq(get(7, 2), 4);
    ck_assert_int_eq(fid_op(T_GETATTR, 1, 0x7ff, 8), 0);
    struct stat st;
    ck_assert_int_eq(stat(top, &st), 0);
    ck_assert_uint_eq(get(15 + 13, 4), st.st_mode);
    ck_assert_int_eq(walk1(0, 1, "hello"), EBADF);   // fid 1 in use
    ck_assert_int_eq(walk1(0, 2, "missing"), ENOENT);
    const char *partial[] = { "sub", "missing" };
    ck_assert_int_eq(walk(0, 2, 2, partial), 0);
    ck_assert_uint_eq(get(7, 2), 1);                  // one qid, fid 2 not made
    ck_assert_int_eq(fid_op(T_CLUNK, 2, 0, 0), EBADF);
    ck_assert_int_eq(walk1(0, 2, "sub/rel"), ENOENT); // one name at a time
    ck_assert_int_eq(walk1(0, 2, ""), ENOENT);
    ck_assert_int_eq(walk(0, 0, 0, NULL), 0);         // a clone onto itself
    ck_assert_int_eq(walk(0, 3, 0, NULL), 0);         // a clone
    ck_assert_int_eq(fid_op(T_CLUNK, 3, 0, 0), 0);
    ck_assert_int_eq(fid_op(T_CLUNK, 3, 0, 0), EBADF);
    const char *through[] = { "hello", "x" };
    ck_assert_int_eq(walk(0, 4, 2, through), 0);      // a file has no names under it
    ck_assert_uint_eq(get(7, 2), 1);
}
END_TEST

START_TEST(escapes)
{
    session(false);
    // an absolute symbolic link out: walked to as a link, never followed
    ck_assert_int_eq(walk1(0, 1, "abs"), 0);
    ck_assert_uint_eq(reply[9], 0x02);                // qid type: symbolic link
    ck_assert_int_eq(fid_op(T_LOPEN, 1, O_RDONLY, 4), ELOOP);
    const char *via[] = { "abs", "secret" };
    ck_assert_int_eq(walk(0, 2, 2, via), 0);
    ck_assert_uint_eq(get(7, 2), 1);                  // stops at the link
    ck_assert_int_eq(fid_op(T_CLUNK, 2, 0, 0), EBADF);
    ck_assert_int_eq(fid_op(T_READLINK, 1, 0, 0), 0);
    ck_assert_int_eq(memcmp(reply + 9, outside, strlen(outside)), 0);
    // a relative one out of a subdirectory
    const char *rel[] = { "sub", "rel" };
    ck_assert_int_eq(walk(0, 3, 2, rel), 0);
    ck_assert_int_eq(fid_op(T_LOPEN, 3, O_RDONLY, 4), ELOOP);
    ck_assert_int_eq(dir_name(T_MKDIR, 3, "x", 0755, 0), ENOTDIR);   // not a directory
    // names with '/', "..", "." where one name is expected
    ck_assert_int_eq(lcreate(0, "../escape", O_WRONLY, 0644), EINVAL);
    ck_assert_int_eq(lcreate(0, "..", O_WRONLY, 0644), EINVAL);
    ck_assert_int_eq(dir_name(T_MKDIR, 0, "a/b", 0755, 0), EINVAL);
    ck_assert_int_eq(dir_name(T_MKDIR, 0, "/tmp/x", 0755, 0), EINVAL);
    // a symbolic link created by the guest pointing out is stored, never followed
    struct msg m;
    begin(&m, T_SYMLINK);
    put(&m, 0, 4);
    str(&m, "mine");
    str(&m, "/etc/passwd");
    put(&m, 0, 4);
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_int_eq(walk1(0, 4, "mine"), 0);
    ck_assert_int_eq(fid_op(T_LOPEN, 4, O_RDONLY, 4), ELOOP);
    ck_assert_int_eq(lcreate(0, "mine", O_WRONLY | O_TRUNC, 0644), ELOOP);
    // nothing outside changed or appeared
    char p[256];
    snprintf(p, sizeof p, "%s/../escape", top);
    ck_assert_int_ne(access(p, F_OK), 0);
    snprintf(p, sizeof p, "%s/secret", outside);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_size, 7);
}
END_TEST

START_TEST(files)
{
    session(false);
    ck_assert_int_eq(walk(0, 1, 0, NULL), 0);
    ck_assert_int_eq(lcreate(1, "new", O_RDWR, 06755), 0);
    ck_assert_int_eq(write_at(1, 0, "0123456789"), 0);
    ck_assert_uint_eq(get(7, 4), 10);
    ck_assert_int_eq(write_at(1, 20, "end"), 0);
    struct msg m;
    begin(&m, T_READ);
    put(&m, 1, 4);
    put(&m, 5, 8);
    put(&m, 100, 4);
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(get(7, 4), 18);
    ck_assert_int_eq(memcmp(reply + 11, "56789", 5), 0);
    ck_assert_int_eq(fid_op(T_FSYNC, 1, 0, 4), 0);
    char p[256];
    snprintf(p, sizeof p, "%s/new", top);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_size, 23);
    ck_assert_uint_eq(st.st_mode & 07000, 0);         // no set-user-ID or set-group-ID
    ck_assert_uint_eq(st.st_uid, getuid());
    // setattr: owner ignored, mode without set-user-ID, size, times
    begin(&m, T_SETATTR);
    put(&m, 1, 4);
    put(&m, 0x1 | 0x2 | 0x4 | 0x8 | 0x10 | 0x20 | 0x100, 4);
    put(&m, 04600, 4);
    put(&m, 0, 4);
    put(&m, 0, 4);
    put(&m, 4, 8);
    put(&m, 0, 8);
    put(&m, 0, 8);
    put(&m, 1000000000, 8);
    put(&m, 5, 8);
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_uint_eq(st.st_mode & 07777, 0600);
    ck_assert_int_eq(st.st_size, 4);
    ck_assert_int_eq(st.st_mtim.tv_sec, 1000000000);
    ck_assert_uint_eq(st.st_uid, getuid());
    // locks
    begin(&m, T_LOCK);
    put(&m, 1, 4);
    put(&m, 1, 1);
    put(&m, 0, 4);
    put(&m, 0, 8);
    put(&m, 0, 8);
    put(&m, 1, 4);
    str(&m, "guest");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(reply[7], 0);
    begin(&m, T_GETLOCK);
    put(&m, 1, 4);
    put(&m, 1, 1);
    put(&m, 0, 8);
    put(&m, 0, 8);
    put(&m, 1, 4);
    str(&m, "guest");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_uint_eq(reply[7], 2);                   // its own lock: no conflict
    ck_assert_int_eq(fid_op(T_LOPEN, 1, O_RDONLY, 4), EINVAL);   // already open
    // a read with no open file, an open of the existing file
    ck_assert_int_eq(walk1(0, 2, "hello"), 0);
    begin(&m, T_READ);
    put(&m, 2, 4);
    put(&m, 0, 8);
    put(&m, 5, 4);
    ck_assert_int_eq(send_msg(&m), EBADF);
    ck_assert_int_eq(fid_op(T_LOPEN, 2, O_RDONLY, 4), 0);
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_int_eq(memcmp(reply + 11, "hello", 5), 0);
    ck_assert_int_eq(lcreate(0, "hello", O_RDWR | 0200, 0644), EEXIST);   // O_EXCL
    ck_assert_int_eq(fid_op(T_STATFS, 0, 0, 0), 0);
    ck_assert_int_eq(fid_op(T_XATTRWALK, 0, 0, 0), EOPNOTSUPP);
}
END_TEST

// Reads the whole directory of open fid through Treaddir with small counts; returns how
// many entries and whether `want` was among them.
static int list(uint32_t fid, const char *want, bool *found)
{
    uint64_t off = 0;
    int n = 0;
    *found = false;
    for (;;) {
        struct msg m;
        begin(&m, T_READDIR);
        put(&m, fid, 4);
        put(&m, off, 8);
        put(&m, 64, 4);                // about two entries at a time
        ck_assert_int_eq(send_msg(&m), 0);
        uint32_t count = (uint32_t)get(7, 4);
        if (count == 0)
            return n;
        for (size_t at = 11; at < 11 + count;) {
            off = get(at + 13, 8);
            size_t len = get(at + 22, 2);
            if (len == strlen(want) && memcmp(reply + at + 24, want, len) == 0)
                *found = true;
            at += 24 + len;
            n++;
        }
    }
}

START_TEST(names)
{
    session(false);
    ck_assert_int_eq(dir_name(T_MKDIR, 0, "d", 0755, 0), 0);
    ck_assert_uint_eq(reply[7], 0x80);
    ck_assert_int_eq(walk1(0, 1, "d"), 0);
    ck_assert_int_eq(walk(1, 2, 0, NULL), 0);
    ck_assert_int_eq(lcreate(2, "f", O_WRONLY, 0644), 0);
    ck_assert_int_eq(write_at(2, 0, "data"), 0);
    // Trenameat of the directory: fids under it follow
    struct msg m;
    begin(&m, T_RENAMEAT);
    put(&m, 0, 4);
    str(&m, "d");
    put(&m, 0, 4);
    str(&m, "e");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_int_eq(fid_op(T_GETATTR, 1, 0x7ff, 8), 0);
    ck_assert_ptr_nonnull(host_read("e/f"));
    ck_assert_str_eq(host_read("e/f"), "data");
    // Trename of the file into the top
    ck_assert_int_eq(walk1(1, 3, "f"), 0);
    begin(&m, T_RENAME);
    put(&m, 3, 4);
    put(&m, 0, 4);
    str(&m, "g");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_str_eq(host_read("g"), "data");
    ck_assert_int_eq(fid_op(T_GETATTR, 3, 0x7ff, 8), 0);   // fid 3 followed its file
    // readdir of the top in small steps
    ck_assert_int_eq(walk(0, 4, 0, NULL), 0);
    ck_assert_int_eq(fid_op(T_LOPEN, 4, O_RDONLY, 4), 0);
    bool found;
    ck_assert_int_eq(list(4, "g", &found), 7);   // . .. sub hello abs e g
    ck_assert(found);
    // a hard link, then unlinks
    begin(&m, T_LINK);
    put(&m, 0, 4);
    put(&m, 3, 4);
    str(&m, "h");
    ck_assert_int_eq(send_msg(&m), 0);
    ck_assert_str_eq(host_read("h"), "data");
    ck_assert_int_eq(dir_name(T_UNLINKAT, 0, "e", 0, 0), EISDIR);
    ck_assert_int_eq(dir_name(T_UNLINKAT, 0, "e", 0x200, 0), 0);
    ck_assert_int_eq(fid_op(T_REMOVE, 3, 0, 0), 0);
    ck_assert_ptr_null(host_read("g"));
    ck_assert_int_eq(fid_op(T_CLUNK, 3, 0, 0), EBADF);     // Tremove clunked it
    // mknod: FIFOs and files only
    begin(&m, T_MKNOD);
    put(&m, 0, 4);
    str(&m, "dev");
    put(&m, S_IFCHR | 0666, 4);
    put(&m, 1, 4);
    put(&m, 3, 4);
    put(&m, 0, 4);
    ck_assert_int_eq(send_msg(&m), EPERM);
    ck_assert_int_eq(mknod_fifo("fifo"), 0);
    ck_assert_int_eq(walk1(0, 5, "fifo"), 0);
    ck_assert_int_eq(fid_op(T_LOPEN, 5, O_RDONLY, 4), EACCES);   // not opened on the host
}
END_TEST

START_TEST(readonly_share)
{
    session(true);
    ck_assert_int_eq(walk(0, 1, 0, NULL), 0);
    ck_assert_int_eq(lcreate(1, "new", O_WRONLY, 0644), EROFS);
    ck_assert_int_eq(dir_name(T_MKDIR, 0, "d", 0755, 0), EROFS);
    ck_assert_int_eq(dir_name(T_UNLINKAT, 0, "hello", 0, 0), EROFS);
    ck_assert_int_eq(mknod_fifo("fifo"), EROFS);
    ck_assert_int_eq(walk1(0, 2, "hello"), 0);
    ck_assert_int_eq(fid_op(T_LOPEN, 2, O_WRONLY, 4), EROFS);
    ck_assert_int_eq(fid_op(T_LOPEN, 2, O_RDONLY | O_TRUNC, 4), EROFS);
    ck_assert_int_eq(fid_op(T_LOPEN, 2, O_RDONLY, 4), 0);
    ck_assert_int_eq(write_at(2, 0, "x"), EROFS);
    struct msg m;
    begin(&m, T_SETATTR);
    put(&m, 2, 4);
    put(&m, 0x8, 4);
    put(&m, 0, 12);
    put(&m, 0, 8);
    put(&m, 0, 32);
    ck_assert_int_eq(send_msg(&m), EROFS);
    begin(&m, T_RENAMEAT);
    put(&m, 0, 4);
    str(&m, "hello");
    put(&m, 0, 4);
    str(&m, "bye");
    ck_assert_int_eq(send_msg(&m), EROFS);
    ck_assert_int_eq(fid_op(T_REMOVE, 2, 0, 0), EROFS);
    ck_assert_str_eq(host_read("hello"), "hello world\n");
}
END_TEST

START_TEST(malformed)
{
    session(false);
    struct msg m;
    begin(&m, T_WALK);
    put(&m, 0, 4);                     // no newfid, no count
    ck_assert_int_eq(send_msg(&m), EINVAL);
    begin(&m, T_WALK);
    put(&m, 0, 4);
    put(&m, 9, 4);
    put(&m, 1, 2);
    put(&m, 200, 2);                   // a string longer than the message
    ck_assert_int_eq(send_msg(&m), EINVAL);
    begin(&m, T_MKDIR);
    put(&m, 0, 4);
    put(&m, 3, 2);
    memcpy(m.b + m.n, "a\0b", 3);      // a NUL inside a name
    m.n += 3;
    put(&m, 0755, 4);
    put(&m, 0, 4);
    ck_assert_int_eq(send_msg(&m), EINVAL);
    begin(&m, T_WALK);
    put(&m, 0, 4);
    put(&m, 9, 4);
    put(&m, 17, 2);                    // more than 16 names
    ck_assert_int_eq(send_msg(&m), EINVAL);
    begin(&m, 200);                    // unknown type
    ck_assert_int_eq(send_msg(&m), EOPNOTSUPP);
    begin(&m, T_FLUSH);
    put(&m, 1, 2);
    ck_assert_int_eq(send_msg(&m), 0);
    // a size field past the bytes given, and one below the header
    uint8_t big[11] = { 0xff, 0xff, 0, 0, T_CLUNK, 1, 0, 0, 0, 0, 0 };
    ck_assert_uint_eq(hexsim_p9_handle(&srv, big, sizeof big, reply, sizeof reply), 11);
    ck_assert_uint_eq(reply[4], R_LERROR);
    uint8_t small[7] = { 3, 0, 0, 0, T_CLUNK, 1, 0 };
    ck_assert_uint_eq(hexsim_p9_handle(&srv, small, sizeof small, reply, sizeof reply), 11);
    ck_assert_uint_eq(reply[4], R_LERROR);
    ck_assert_uint_eq(hexsim_p9_handle(&srv, small, 3, reply, sizeof reply), 11);
    // a reply buffer too small for anything, then too small for the reply
    ck_assert_uint_eq(hexsim_p9_handle(&srv, small, sizeof small, reply, 10), 0);
    begin(&m, T_GETATTR);
    put(&m, 0, 4);
    put(&m, 0x7ff, 8);
    for (unsigned i = 0; i < 4; i++)
        m.b[i] = (uint8_t)(m.n >> (8 * i));
    ck_assert_uint_eq(hexsim_p9_handle(&srv, m.b, m.n, reply, 40), 11);
    ck_assert_uint_eq(reply[4], R_LERROR);
    ck_assert_uint_eq(get(7, 4), ERANGE);
}
END_TEST

START_TEST(share_option)
{
    struct hexsim_share_opts o;
    char msg[256];
    ck_assert_int_eq(hexsim_share_parse("/tmp/x", 1, &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.dir, "/tmp/x");
    ck_assert_str_eq(o.tag, "hexsim1");
    ck_assert(!o.readonly);
    ck_assert_int_eq(hexsim_share_parse("/a,,b,tag=src,readonly=on", 0, &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.dir, "/a,b");
    ck_assert_str_eq(o.tag, "src");
    ck_assert(o.readonly);
    ck_assert_int_eq(hexsim_share_parse("tag=t,path=/d", 0, &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.dir, "/d");
    ck_assert_int_eq(hexsim_share_parse("/d=1", 0, &o, msg, sizeof msg), 0);
    ck_assert_str_eq(o.dir, "/d=1");
    const char *bad[] = { "", "tag=x", "/d,tag=", "/d,tag=a/b", "/d,readonly=maybe",
                          "/d,cache=none", "/d,tag=a,tag=b", "/d,extra",
                          "/d,tag=abcdefghijklmnopqrstuvwxyz0123456" };
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        ck_assert_msg(hexsim_share_parse(bad[i], 0, &o, msg, sizeof msg) == -1, "%s", bad[i]);
        ck_assert_int_eq(strncmp(msg, "--share ", 8), 0);
    }
    ck_assert_int_eq(hexsim_p9_open(&srv, "/nonexistent-dir", false, msg, sizeof msg), -1);
    ck_assert_ptr_nonnull(strstr(msg, "No such file"));
    srv.root = -1;
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("p9");
    TCase *tc = tcase_create("server");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, version_first);
    tcase_add_test(tc, walks);
    tcase_add_test(tc, escapes);
    tcase_add_test(tc, files);
    tcase_add_test(tc, names);
    tcase_add_test(tc, readonly_share);
    tcase_add_test(tc, malformed);
    tcase_add_test(tc, share_option);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return hexsim_check_run(suite());
}
