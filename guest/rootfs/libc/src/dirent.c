// SPDX-License-Identifier: MIT
// Directory streams over getdents64.
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"

struct _DIR {
    int fd;
    int pos, len;
    char buf[2048];
    struct dirent ent;
};

DIR *fdopendir(int fd)
{
    DIR *d = malloc(sizeof *d);
    if (!d)
        return 0;
    d->fd = fd;
    d->pos = d->len = 0;
    return d;
}

DIR *opendir(const char *path)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    DIR *d = fdopendir(fd);
    if (!d)
        close(fd);
    return d;
}

struct dirent *readdir(DIR *d)
{
    if (d->pos >= d->len) {
        long r = __ret(__sc3(SYS_getdents64, d->fd, d->buf, sizeof d->buf));
        if (r <= 0)
            return 0;
        d->len = (int)r;
        d->pos = 0;
    }
    char *p = d->buf + d->pos;
    unsigned short reclen;
    memcpy(&reclen, p + 16, 2);
    memcpy(&d->ent.d_ino, p, 8);
    memcpy(&d->ent.d_off, p + 8, 8);
    d->ent.d_reclen = reclen;
    d->ent.d_type = (unsigned char)p[18];
    strlcpy(d->ent.d_name, p + 19, sizeof d->ent.d_name);
    d->pos += reclen;
    return &d->ent;
}

int closedir(DIR *d)
{
    int r = close(d->fd);
    free(d);
    return r;
}

int dirfd(DIR *d) { return d->fd; }
