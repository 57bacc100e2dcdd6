// SPDX-License-Identifier: MIT
// The 9P2000.L server's name-space requests (src/devices/p9/p9_int.h): Tmkdir, Tsymlink,
// Treadlink, Trenameat, Trename, Tunlinkat, Tremove, Tlink and Tmknod. Each acts on one
// name (a single component, checked) in a directory opened through the confined
// p9_openat, with the *at system calls, which never follow a symbolic link in that last
// name. A symbolic link is stored as the guest gives it (the host side never follows
// one). Read-only shares: EROFS. Tmknod makes regular files and FIFOs only (no device
// nodes on the host). Modes lose set-user-ID and set-group-ID on files.
// Facts: Linux 6.1 net/9p/client.c (Tmkdir dfid name mode gid → qid; Tsymlink fid name
// symtgt gid → qid; Treadlink fid → target; Trenameat olddirfid oldname newdirfid newname;
// Trename fid dfid name; Tunlinkat dirfid name flags (P9_DOTL_AT_REMOVEDIR 0x200); Tremove
// fid (the fid is clunked whatever the result); Tlink dfid fid name; Tmknod dfid name mode
// major minor gid → qid).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "p9_int.h"

#define AT_REMOVEDIR_9P 0x200u

// The directory of fid `dfid` (O_PATH) and a checked name in it, read from in.
static int dir_and_name(struct hexsim_p9 *s, uint32_t dfid, const char *name, char *path)
{
    struct hexsim_p9_fid *d = p9_fid_get(s, dfid);
    if (!d)
        return -EBADF;
    if (!p9_name_ok(name))
        return -EINVAL;
    if (s->readonly)
        return -EROFS;
    int err = p9_join(d->path, name, path);
    if (err)
        return -err;
    return p9_openat(s, d->path, O_PATH | O_DIRECTORY, 0);
}

// Answers the qid of what was just made at path.
static int made(struct hexsim_p9 *s, const char *path, struct p9_out *out)
{
    struct stat st;
    int err = p9_lstat(s, path, &st);
    if (!err)
        p9_putqid(out, &st);
    return err;
}

int p9_mkdir(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX];
    uint32_t dfid = p9_get32(in);
    p9_getstr(in, name, sizeof name);
    uint32_t mode = p9_get32(in);
    p9_get32(in);
    if (in->bad)
        return EINVAL;
    int dfd = dir_and_name(s, dfid, name, path);
    if (dfd < 0)
        return -dfd;
    int err = mkdirat(dfd, name, mode & 01777) ? errno : 0;
    close(dfd);
    return err ? err : made(s, path, out);
}

int p9_symlink(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX], target[P9_PATH_MAX];
    uint32_t dfid = p9_get32(in);
    p9_getstr(in, name, sizeof name);
    p9_getstr(in, target, sizeof target);
    p9_get32(in);
    if (in->bad || !target[0])
        return EINVAL;
    int dfd = dir_and_name(s, dfid, name, path);
    if (dfd < 0)
        return -dfd;
    int err = symlinkat(target, dfd, name) ? errno : 0;
    close(dfd);
    return err ? err : made(s, path, out);
}

int p9_readlink(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    int fd = p9_openat(s, f->path, O_PATH, 0);
    if (fd < 0)
        return -fd;
    char target[P9_PATH_MAX];
    ssize_t n = readlinkat(fd, "", target, sizeof target - 1);
    int err = n < 0 ? errno : 0;
    close(fd);
    if (err)
        return err == ENOENT ? EINVAL : err;   // not a symbolic link
    target[n] = '\0';
    p9_putstr(out, target);
    return 0;
}

// Moves oname of the directory ofd (path opath) to nname in ndfid's directory; closes
// ofd. The fids at or under the old path follow.
static int rename_from(struct hexsim_p9 *s, int ofd, const char *oname, const char *opath,
                       uint32_t ndfid, const char *nname)
{
    char npath[P9_PATH_MAX];
    int nfd = dir_and_name(s, ndfid, nname, npath);
    int err = nfd < 0 ? -nfd : renameat(ofd, oname, nfd, nname) ? errno : 0;
    close(ofd);
    if (nfd >= 0)
        close(nfd);
    if (!err)
        p9_fid_renamed(s, opath, npath);
    return err;
}

int p9_renameat(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    char oname[P9_NAME_MAX + 1], nname[P9_NAME_MAX + 1], opath[P9_PATH_MAX];
    uint32_t odfid = p9_get32(in);
    p9_getstr(in, oname, sizeof oname);
    uint32_t ndfid = p9_get32(in);
    p9_getstr(in, nname, sizeof nname);
    if (in->bad)
        return EINVAL;
    int ofd = dir_and_name(s, odfid, oname, opath);
    return ofd < 0 ? -ofd : rename_from(s, ofd, oname, opath, ndfid, nname);
}

// Trename: the fid's own name moves into dfid's directory as name; the fid follows.
int p9_rename(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    char nname[P9_NAME_MAX + 1], oname[P9_PATH_MAX], opath[P9_PATH_MAX];
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    uint32_t ndfid = p9_get32(in);
    p9_getstr(in, nname, sizeof nname);
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    if (s->readonly)
        return EROFS;
    strcpy(opath, f->path);
    int ofd = p9_parent_fd(s, opath, oname);
    return ofd < 0 ? -ofd : rename_from(s, ofd, oname, opath, ndfid, nname);
}

int p9_unlinkat(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX];
    uint32_t dfid = p9_get32(in);
    p9_getstr(in, name, sizeof name);
    uint32_t flags = p9_get32(in);
    if (in->bad || (flags & ~AT_REMOVEDIR_9P))
        return EINVAL;
    int dfd = dir_and_name(s, dfid, name, path);
    if (dfd < 0)
        return -dfd;
    int err = unlinkat(dfd, name, flags ? AT_REMOVEDIR : 0) ? errno : 0;
    close(dfd);
    return err;
}

int p9_remove(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    int err = 0;
    char name[P9_PATH_MAX];
    struct stat st;
    if (s->readonly)
        err = EROFS;
    else if ((err = p9_lstat(s, f->path, &st)) == 0) {
        int dfd = p9_parent_fd(s, f->path, name);
        if (dfd < 0)
            err = -dfd;
        else if (unlinkat(dfd, name, S_ISDIR(st.st_mode) ? AT_REMOVEDIR : 0))
            err = errno;
        if (dfd >= 0)
            close(dfd);
    }
    p9_fid_free(s, f);
    return err;
}

int p9_link(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX], oname[P9_PATH_MAX];
    uint32_t dfid = p9_get32(in);
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    p9_getstr(in, name, sizeof name);
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    int nfd = dir_and_name(s, dfid, name, path);
    if (nfd < 0)
        return -nfd;
    int ofd = p9_parent_fd(s, f->path, oname);
    int err = ofd < 0 ? -ofd : linkat(ofd, oname, nfd, name, 0) ? errno : 0;
    if (ofd >= 0)
        close(ofd);
    close(nfd);
    return err;
}

int p9_mknod(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    char name[P9_NAME_MAX + 1], path[P9_PATH_MAX];
    uint32_t dfid = p9_get32(in);
    p9_getstr(in, name, sizeof name);
    uint32_t mode = p9_get32(in);
    p9_get32(in);                      // major, minor, gid
    p9_get32(in);
    p9_get32(in);
    if (in->bad)
        return EINVAL;
    if (!S_ISREG(mode) && !S_ISFIFO(mode))
        return EPERM;                  // no device nodes or sockets on the host
    int dfd = dir_and_name(s, dfid, name, path);
    if (dfd < 0)
        return -dfd;
    int err = mknodat(dfd, name, (mode & S_IFMT) | (mode & 0777), 0) ? errno : 0;
    close(dfd);
    return err ? err : made(s, path, out);
}
