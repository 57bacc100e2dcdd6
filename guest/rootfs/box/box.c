// SPDX-License-Identifier: MIT
// Multi-call binary: runs the applet named by argv[0]'s last component (or by argv[1] when
// called as "box"); "box --list" prints the applet names.
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "box.h"

const char *applet = "box";

static const struct { const char *name; int (*fn)(int, char **); } applets[] = {
#define APPLET(name, fn) { #name, fn },
#include "applets.def"
#undef APPLET
};

void warn_errno(const char *what) { fprintf(stderr, "%s: %s: %s\n", applet, what, strerror(errno)); }

int read_file(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t got = fread(buf, 1, n - 1, f);
    buf[got] = 0;
    fclose(f);
    return (int)got;
}

int write_all(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

int copy_fd(int in, int out)
{
    static char buf[8192];
    for (;;) {
        ssize_t r = read(in, buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            return -1;
        if (r == 0)
            return 0;
        if (write_all(out, buf, (size_t)r))
            return -1;
    }
}

int main(int argc, char **argv)
{
    const char *name = argc > 0 ? argv[0] : "box";
    const char *slash = strrchr(name, '/');
    if (slash)
        name = slash + 1;
    if (!strcmp(name, "box")) {
        if (argc < 2 || !strcmp(argv[1], "--help")) {
            fprintf(stderr, "usage: box APPLET [ARGS] (box --list for the applets)\n");
            return 1;
        }
        if (!strcmp(argv[1], "--list")) {
            for (size_t i = 0; i < sizeof applets / sizeof applets[0]; i++)
                printf("%s\n", applets[i].name);
            return 0;
        }
        argv++;
        argc--;
        name = argv[0];
        slash = strrchr(name, '/');
        if (slash)
            name = slash + 1;
    }
    for (size_t i = 0; i < sizeof applets / sizeof applets[0]; i++)
        if (!strcmp(applets[i].name, name)) {
            applet = applets[i].name;
            return applets[i].fn(argc, argv);
        }
    fprintf(stderr, "box: %s: applet not found\n", name);
    return 127;
}
