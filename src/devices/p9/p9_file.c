// SPDX-License-Identifier: MIT
// The 9P2000.L server's file requests (src/devices/p9/p9_int.h): Tlopen, Tlcreate, Tread,
// Twrite, Treaddir, Tgetattr, Tsetattr, Tfsync, Tlock and Tgetlock, on host descriptors
// opened through the confined p9_openat. Only regular files and directories are opened
// (a device node, FIFO or socket in the share is refused with EACCES); a read-only share
// answers every write, truncation, creation, mode or time change with EROFS; owner changes
// are ignored (host files keep the host user's ownership); set-user-ID and set-group-ID
// bits are never set on the host.
// Facts: Linux 6.1 include/net/9p/9p.h (P9_DOTL_* open flags: WRONLY 1, RDWR 2, CREATE
// 0100, EXCL 0200, TRUNC 01000, APPEND 02000, DSYNC 010000, DIRECTORY 0200000, SYNC
// 04000000; P9_GETATTR_BASIC 0x7ff; P9_ATTR_MODE 1, UID 2, GID 4, SIZE 8, ATIME 0x10,
// MTIME 0x20, CTIME 0x40, ATIME_SET 0x80, MTIME_SET 0x100; P9_LOCK_SUCCESS 0, BLOCKED 1,
// ERROR 2) and net/9p/client.c (the layouts: Tlopen fid flags → qid iounit; Tlcreate
// fid name flags mode gid → qid iounit; Tread fid offset[8] count[4] → count data; Twrite
// fid offset count data → count; Treaddir fid offset count → count, entries qid offset[8]
// type[1] name[s]; Tgetattr fid mask[8] → valid[8] qid mode uid gid nlink[8] rdev[8]
// size[8] blksize[8] blocks[8] then atime, mtime, ctime, btime (sec[8] nsec[8] each),
// gen[8], data_version[8]; Tsetattr fid valid mode uid gid size[8] atime sec/nsec mtime
// sec/nsec; Tfsync fid datasync[4]; Tlock fid type[1] flags[4] start[8] length[8]
// proc_id[4] client_id[s] → status[1]; Tgetlock fid type start length proc_id client_id
// → the same fields). getdents64(2) for directories (d_off is the next offset).
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include "p9_int.h"

#define D_WRONLY 1u
#define D_RDWR 2u
#define D_CREATE 0100u
#define D_EXCL 0200u
#define D_TRUNC 01000u
#define D_APPEND 02000u
#define D_DSYNC 010000u
#define D_DIRECTORY 0200000u
#define D_SYNC 04000000u
#define IOHDR 11u                      // size type tag count: an Rread's or Rreaddir's head

static struct hexsim_p9_fid *fid_arg(struct hexsim_p9 *s, struct p9_in *in)
{
    return p9_fid_get(s, p9_get32(in));
}

// The host's open flags for the guest's P9_DOTL ones; -EINVAL or -EROFS.
static int host_flags(const struct hexsim_p9 *s, uint32_t d)
{
    int acc = (int)(d & 3);
    if (acc == 3)
        return -EINVAL;
    if (s->readonly && (acc != O_RDONLY || (d & (D_TRUNC | D_CREATE | D_APPEND))))
        return -EROFS;
    int f = acc | O_NONBLOCK;
    f |= d & D_TRUNC ? O_TRUNC : 0;
    f |= d & D_APPEND ? O_APPEND : 0;
    f |= d & D_EXCL ? O_EXCL : 0;
    f |= d & D_DSYNC ? O_DSYNC : 0;
    f |= d & D_SYNC ? O_SYNC : 0;
    f |= d & D_DIRECTORY ? O_DIRECTORY : 0;
    return f;
}

// Gives f the open descriptor fd and answers qid iounit.
static int opened(struct hexsim_p9 *s, struct hexsim_p9_fid *f, int fd, struct p9_out *out)
{
    struct stat st;
    if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode))) {
        int err = S_ISREG(st.st_mode) || S_ISDIR(st.st_mode) ? errno : EACCES;
        close(fd);
        return err;
    }
    f->fd = fd;
    s->nopen++;
    p9_putqid(out, &st);
    p9_put32(out, 0);                  // iounit: the client picks from msize
    return 0;
}

int p9_lopen(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint32_t flags = p9_get32(in);
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    if (f->fd >= 0)
        return EINVAL;
    if (s->nopen >= HEXSIM_P9_OPEN_MAX)
        return EMFILE;
    int hf = host_flags(s, flags & ~(D_CREATE | D_EXCL));
    if (hf < 0)
        return -hf;
    struct stat st;
    int err = p9_lstat(s, f->path, &st);
    if (err)
        return err;
    if (S_ISLNK(st.st_mode))
        return ELOOP;
    if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return EACCES;                 // no host devices, FIFOs or sockets
    int fd = p9_openat(s, f->path, hf, 0);
    return fd < 0 ? -fd : opened(s, f, fd, out);
}

int p9_lcreate(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX];
    p9_getstr(in, name, sizeof name);
    uint32_t flags = p9_get32(in), mode = p9_get32(in);
    p9_get32(in);                      // gid: the host user's
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    if (f->fd >= 0)
        return EINVAL;
    if (s->readonly)
        return EROFS;
    if (!p9_name_ok(name))
        return EINVAL;
    if (s->nopen >= HEXSIM_P9_OPEN_MAX)
        return EMFILE;
    int hf = host_flags(s, flags & ~D_DIRECTORY);
    if (hf < 0)
        return -hf;
    int err = p9_join(f->path, name, path);
    if (err)
        return err;
    int fd = p9_openat(s, path, hf | O_CREAT, mode & 0777);
    if (fd < 0)
        return -fd;
    if ((err = p9_fid_set_path(f, path)) != 0) {
        close(fd);
        return err;
    }
    return opened(s, f, fd, out);
}

int p9_read(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint64_t off = p9_get64(in);
    uint32_t count = p9_get32(in);
    if (in->bad)
        return EINVAL;
    if (!f || f->fd < 0)
        return EBADF;
    if (count > s->msize - IOHDR)
        count = s->msize - IOHDR;
    size_t room = out->cap - out->off;
    if (room < 4 || off > INT64_MAX)
        return room < 4 ? ERANGE : EINVAL;
    if (count > room - 4)
        count = (uint32_t)(room - 4);
    uint8_t *p = p9_room(out, 4 + (size_t)count);
    ssize_t n = pread(f->fd, p + 4, count, (off_t)off);
    if (n < 0)
        return errno;
    p9_put32(out, (uint32_t)n);
    p9_commit(out, (size_t)n);
    s->bytes_read += (uint64_t)n;
    return 0;
}

int p9_write(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint64_t off = p9_get64(in);
    uint32_t count = p9_get32(in);
    if (in->bad || count > in->n - in->off || off > INT64_MAX)
        return EINVAL;
    if (!f || f->fd < 0)
        return EBADF;
    if (s->readonly)
        return EROFS;
    ssize_t n = pwrite(f->fd, in->p + in->off, count, (off_t)off);
    if (n < 0)
        return errno;
    p9_put32(out, (uint32_t)n);
    s->bytes_written += (uint64_t)n;
    return 0;
}

int p9_readdir(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint64_t off = p9_get64(in);
    uint32_t count = p9_get32(in);
    if (in->bad || off > INT64_MAX)
        return EINVAL;
    if (!f || f->fd < 0)
        return EBADF;
    struct stat dir;
    if (fstat(f->fd, &dir))
        return errno;
    if (!S_ISDIR(dir.st_mode))
        return ENOTDIR;
    if (count > s->msize - IOHDR)
        count = s->msize - IOHDR;
    if (lseek(f->fd, (off_t)off, SEEK_SET) < 0)
        return errno;
    uint8_t buf[16384];                // what does not fit comes with the next request
    long got = syscall(SYS_getdents64, f->fd, buf, sizeof buf);
    if (got < 0)
        return errno;
    uint8_t *countp = p9_room(out, 4);
    p9_commit(out, 4);
    uint32_t used = 0;
    for (long at = 0; at + 19 < got;) {
        uint64_t ino;
        int64_t next;
        uint16_t reclen;
        memcpy(&ino, buf + at, 8);
        memcpy(&next, buf + at + 8, 8);
        memcpy(&reclen, buf + at + 16, 2);
        uint8_t type = buf[at + 18];
        const char *name = (const char *)buf + at + 19;
        size_t len = strnlen(name, (size_t)(got - at - 19));
        size_t need = 13 + 8 + 1 + 2 + len;
        if (reclen < 20 || used + need > count || !p9_room(out, need))
            break;
        struct stat st = { .st_ino = (ino_t)ino, .st_dev = dir.st_dev,
                           .st_mode = type == DT_DIR ? S_IFDIR : type == DT_LNK ? S_IFLNK
                                                                                 : S_IFREG };
        p9_putqid(out, &st);
        p9_put64(out, (uint64_t)next);
        p9_put8(out, type);
        p9_putstr(out, name);
        used += (uint32_t)need;
        at += reclen;
    }
    if (countp)
        memcpy(countp, (uint8_t[4]){ (uint8_t)used, (uint8_t)(used >> 8),
                                     (uint8_t)(used >> 16), (uint8_t)(used >> 24) }, 4);
    out->full = false;                 // what did not fit comes with the next request
    return 0;
}

static void put_time(struct p9_out *out, const struct timespec *t)
{
    p9_put64(out, (uint64_t)t->tv_sec);
    p9_put64(out, (uint64_t)t->tv_nsec);
}

int p9_getattr(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = fid_arg(s, in);
    p9_get64(in);                      // request mask: the basic set is always given
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    struct stat st;
    int err = f->fd >= 0 ? (fstat(f->fd, &st) ? errno : 0) : p9_lstat(s, f->path, &st);
    if (err)
        return err;
    p9_put64(out, 0x7ff);              // P9_GETATTR_BASIC
    p9_putqid(out, &st);
    p9_put32(out, st.st_mode);
    p9_put32(out, st.st_uid);
    p9_put32(out, st.st_gid);
    p9_put64(out, st.st_nlink);
    p9_put64(out, st.st_rdev);
    p9_put64(out, (uint64_t)st.st_size);
    p9_put64(out, (uint64_t)st.st_blksize);
    p9_put64(out, (uint64_t)st.st_blocks);
    put_time(out, &st.st_atim);
    put_time(out, &st.st_mtim);
    put_time(out, &st.st_ctim);
    put_time(out, &(struct timespec){ 0, 0 });   // btime, gen, data_version: none
    p9_put64(out, 0);
    p9_put64(out, 0);
    return 0;
}

// chmod of a confined path: through its O_PATH descriptor (/proc/self/fd/N names exactly
// that inode), so nothing between the lookup and the change can redirect it. A symbolic
// link's mode cannot change (as on Linux): left alone.
static int set_mode(struct hexsim_p9 *s, const char *path, uint32_t mode)
{
    int fd = p9_openat(s, path, O_PATH, 0);
    if (fd < 0)
        return -fd;
    struct stat st;
    int err = fstat(fd, &st) ? errno : 0;
    if (!err && !S_ISLNK(st.st_mode)) {
        char proc[40];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        err = chmod(proc, mode & 07777 & ~(mode_t)(S_ISUID | S_ISGID)) ? errno : 0;
    }
    close(fd);
    return err;
}

static int set_size(struct hexsim_p9 *s, struct hexsim_p9_fid *f, uint64_t size)
{
    if (size > INT64_MAX)
        return EINVAL;
    int fd = p9_openat(s, f->path, O_WRONLY | O_NONBLOCK, 0);
    if (fd < 0)                        // an open file whose name is gone: its descriptor
        return f->fd >= 0 && ftruncate(f->fd, (off_t)size) == 0 ? 0 : -fd;
    struct stat st;
    int err = fstat(fd, &st) ? errno : !S_ISREG(st.st_mode) ? EINVAL : 0;
    if (!err && ftruncate(fd, (off_t)size))
        err = errno;
    close(fd);
    return err;
}

static int set_times(struct hexsim_p9 *s, const char *path, const struct timespec ts[2])
{
    if (strcmp(path, ".") == 0)
        return futimens(s->root, ts) ? errno : 0;
    char name[P9_PATH_MAX];
    int dfd = p9_parent_fd(s, path, name);
    if (dfd < 0)
        return -dfd;
    int err = utimensat(dfd, name, ts, AT_SYMLINK_NOFOLLOW) ? errno : 0;
    close(dfd);
    return err;
}

int p9_setattr(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint32_t valid = p9_get32(in), mode = p9_get32(in);
    p9_get32(in);                      // uid, gid: ignored, the host user keeps them
    p9_get32(in);
    uint64_t size = p9_get64(in);
    struct timespec ts[2];
    for (unsigned i = 0; i < 2; i++) {
        ts[i].tv_sec = (time_t)p9_get64(in);
        ts[i].tv_nsec = (long)p9_get64(in);
    }
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    if (s->readonly && (valid & 0x13f & ~0x40u))
        return EROFS;                  // anything but a bare ctime update
    int err = 0;
    if (valid & 0x1)
        err = set_mode(s, f->path, mode);
    if (!err && (valid & 0x8))
        err = set_size(s, f, size);
    if (!err && (valid & 0x30)) {
        for (unsigned i = 0; i < 2; i++) {
            if (!(valid & (0x10u << i)))
                ts[i].tv_nsec = UTIME_OMIT;
            else if (!(valid & (0x80u << i)))
                ts[i].tv_nsec = UTIME_NOW;
            else if (ts[i].tv_nsec < 0 || ts[i].tv_nsec > 999999999)
                return EINVAL;
        }
        err = set_times(s, f->path, ts);
    }
    return err;
}

int p9_fsync(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    struct hexsim_p9_fid *f = fid_arg(s, in);
    uint32_t datasync = p9_get32(in);
    if (in->bad)
        return EINVAL;
    if (!f || f->fd < 0)
        return EBADF;
    return (datasync ? fdatasync(f->fd) : fsync(f->fd)) ? errno : 0;
}

// Byte-range locks as open-file-description locks on the fid's descriptor, never waiting
// (a blocked request answers BLOCKED and the guest's client tries again).
static int lock_args(struct hexsim_p9 *s, struct p9_in *in, bool with_flags,
                     struct hexsim_p9_fid **f, struct flock *fl, char *client)
{
    *f = fid_arg(s, in);
    uint8_t type = p9_get8(in);
    if (with_flags)
        p9_get32(in);
    uint64_t start = p9_get64(in), len = p9_get64(in);
    p9_get32(in);
    p9_getstr(in, client, P9_NAME_MAX + 1);
    if (in->bad || type > 2 || start > INT64_MAX || len > INT64_MAX)
        return EINVAL;
    if (!*f || (*f)->fd < 0)
        return EBADF;
    *fl = (struct flock){ .l_type = type == 0 ? F_RDLCK : type == 1 ? F_WRLCK : F_UNLCK,
                          .l_whence = SEEK_SET, .l_start = (off_t)start, .l_len = (off_t)len };
    return 0;
}

int p9_lock(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f;
    struct flock fl;
    char client[P9_NAME_MAX + 1];
    int err = lock_args(s, in, true, &f, &fl, client);
    if (err)
        return err;
    uint8_t status = 0;
    if (fcntl(f->fd, F_OFD_SETLK, &fl))
        status = errno == EAGAIN || errno == EACCES ? 1 : 2;
    p9_put8(out, status);
    return 0;
}

int p9_getlock(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f;
    struct flock fl;
    char client[P9_NAME_MAX + 1];
    int err = lock_args(s, in, false, &f, &fl, client);
    if (err)
        return err;
    if (fcntl(f->fd, F_OFD_GETLK, &fl))
        return errno;
    p9_put8(out, fl.l_type == F_RDLCK ? 0 : fl.l_type == F_WRLCK ? 1 : 2);
    p9_put64(out, (uint64_t)fl.l_start);
    p9_put64(out, (uint64_t)fl.l_len);
    p9_put32(out, 0);
    p9_putstr(out, client);
    return 0;
}
