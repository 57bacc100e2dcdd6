// SPDX-License-Identifier: MIT
// The 9P server's fids and its confinement to the share (src/devices/p9/p9_int.h): a fid
// is a path relative to the share, kept free of `..` (a walk to `..` drops a name, and
// stops at the share's top), plus a host descriptor once opened. Every host path is
// resolved by openat2(2) relative to the share's directory descriptor with
// RESOLVE_BENEATH (no escape by `..`, by an absolute path or through a race with a
// rename), RESOLVE_NO_SYMLINKS (no symbolic link is followed on the host side at all: the
// guest's 9p client resolves them itself, with Treadlink) and RESOLVE_NO_MAGICLINKS.
// Facts: openat2(2) and linux/openat2.h (Linux 5.6); a fid's lifetime as 9P2000 walk(5),
// clunk(5) and remove(5) give it.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "p9_int.h"

struct hexsim_p9_fid *p9_fid_get(struct hexsim_p9 *s, uint32_t id)
{
    for (unsigned i = 0; i < s->nfids; i++)
        if (s->fids[i].id == id)
            return &s->fids[i];
    return NULL;
}

struct hexsim_p9_fid *p9_fid_new(struct hexsim_p9 *s, uint32_t id, const char *path, int *err)
{
    if (id == P9_NOFID || p9_fid_get(s, id)) {
        *err = EBADF;
        return NULL;
    }
    if (s->nfids >= HEXSIM_P9_FID_MAX) {
        *err = EMFILE;
        return NULL;
    }
    if (s->nfids == s->capfids) {
        unsigned cap = s->capfids ? 2 * s->capfids : 16;
        struct hexsim_p9_fid *f = realloc(s->fids, cap * sizeof(*f));
        if (!f) {
            *err = ENOMEM;
            return NULL;
        }
        s->fids = f;
        s->capfids = cap;
    }
    char *p = strdup(path);
    if (!p) {
        *err = ENOMEM;
        return NULL;
    }
    struct hexsim_p9_fid *f = &s->fids[s->nfids++];
    *f = (struct hexsim_p9_fid){ id, -1, p };
    return f;
}

void p9_fid_free(struct hexsim_p9 *s, struct hexsim_p9_fid *f)
{
    if (f->fd >= 0) {
        close(f->fd);
        s->nopen--;
    }
    free(f->path);
    *f = s->fids[--s->nfids];          // the last one takes its place
}

int p9_fid_set_path(struct hexsim_p9_fid *f, const char *path)
{
    char *p = strdup(path);
    if (!p)
        return ENOMEM;
    free(f->path);
    f->path = p;
    return 0;
}

void p9_fid_renamed(struct hexsim_p9 *s, const char *from, const char *to)
{
    size_t n = strlen(from);
    for (unsigned i = 0; i < s->nfids; i++) {
        const char *p = s->fids[i].path;
        if (strncmp(p, from, n) != 0 || (p[n] != '\0' && p[n] != '/'))
            continue;
        char buf[P9_PATH_MAX];
        if ((size_t)snprintf(buf, sizeof buf, "%s%s", to, p + n) < sizeof buf)
            p9_fid_set_path(&s->fids[i], buf);   // else the fid keeps a name that fails
    }
}

bool p9_name_ok(const char *name)
{
    return name[0] && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 && !strchr(name, '/');
}

int p9_join(const char *dir, const char *name, char *out)
{
    int n = strcmp(dir, ".") == 0 ? snprintf(out, P9_PATH_MAX, "%s", name)
                                  : snprintf(out, P9_PATH_MAX, "%s/%s", dir, name);
    return n < 0 || n >= P9_PATH_MAX ? ENAMETOOLONG : 0;
}

void p9_split(const char *path, char *parent, char *name)
{
    const char *slash = strrchr(path, '/');
    if (!slash) {
        strcpy(parent, ".");
        strcpy(name, path);
        return;
    }
    memcpy(parent, path, (size_t)(slash - path));
    parent[slash - path] = '\0';
    strcpy(name, slash + 1);
}

int p9_openat(struct hexsim_p9 *s, const char *path, int flags, unsigned mode)
{
    struct open_how how = {
        .flags = (uint64_t)(flags | O_NOFOLLOW | O_CLOEXEC),
        .mode = (flags & O_CREAT) ? mode : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
    };
    long fd = syscall(SYS_openat2, s->root, path, &how, sizeof how);
    return fd < 0 ? -errno : (int)fd;
}

int p9_lstat(struct hexsim_p9 *s, const char *path, struct stat *st)
{
    int fd = p9_openat(s, path, O_PATH, 0);
    if (fd < 0)
        return -fd;
    int rc = fstat(fd, st) ? errno : 0;
    close(fd);
    return rc;
}

int p9_parent_fd(struct hexsim_p9 *s, const char *path, char *name)
{
    char parent[P9_PATH_MAX];
    if (strcmp(path, ".") == 0)
        return -EBUSY;                 // the share's top has no name to act on
    p9_split(path, parent, name);
    return p9_openat(s, parent, O_PATH | O_DIRECTORY, 0);
}
