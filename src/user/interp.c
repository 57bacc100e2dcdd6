// SPDX-License-Identifier: MIT
// Dynamically linked programs in user mode: the guest root (-L DIR, QEMU_LD_PREFIX) and the
// program interpreter (PT_INTERP). A guest path is looked up inside the root as if the root
// were "/": every symbolic link is followed here, one component at a time, an absolute target
// starting again at the root and ".." stopping at it, so neither a link nor ".." reaches a
// file outside the root (what chroot(2) or openat2's RESOLVE_IN_ROOT give). The interpreter
// is loaded, like Linux's fs/binfmt_elf.c load_elf_interp, as a whole ET_DYN image at a base
// address of its own; the run starts at its entry, and the auxiliary vector tells it the
// program's (AT_PHDR, AT_ENTRY) and its own base (AT_BASE).
// The lookup checks each component with lstat: a component that another host process turns
// into a link after the check is not seen (the interpreter is opened with O_NOFOLLOW). The
// root confines the loader and the libraries it opens by absolute path; it is no sandbox:
// relative paths and the current directory are the host's, as under qemu-user -L.
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "user.h"

#define MAX_LINKS 40   // Linux's limit of symbolic links followed in one lookup

// Appends "/" and the n bytes at s to cur (a path below the root, "" for the root itself).
static int push(char *cur, size_t cap, const char *s, size_t n)
{
    size_t k = strlen(cur);
    if (k + 1 + n + 1 > cap)
        return -ENAMETOOLONG;
    cur[k] = '/';
    memcpy(cur + k + 1, s, n);
    cur[k + 1 + n] = 0;
    return 0;
}

int hexsim_user_root_path(const char *root, const char *path, char *out, size_t n)
{
    // todo: the components still to look up; cur: the part looked up, each component a
    // directory (or, at the end, a file) that is no symbolic link
    char todo[8192], cur[4096], full[8192], link[4096];
    if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
        return -ENAMETOOLONG;
    cur[0] = 0;
    unsigned links = 0;
    size_t pos = 0;
    for (;;) {
        while (todo[pos] == '/')
            pos++;
        if (!todo[pos])
            break;
        size_t len = strcspn(todo + pos, "/");
        const char *c = todo + pos;
        pos += len;
        if (len == 1 && c[0] == '.')
            continue;
        if (len == 2 && c[0] == '.' && c[1] == '.') {   // up, but never above the root
            char *slash = strrchr(cur, '/');
            if (slash)
                *slash = 0;
            continue;
        }
        size_t before = strlen(cur);
        int e = push(cur, sizeof(cur), c, len);
        if (e)
            return e;
        if (snprintf(full, sizeof(full), "%s%s", root, cur) >= (int)sizeof(full))
            return -ENAMETOOLONG;
        struct stat st;
        if (lstat(full, &st))
            return -errno;
        if (S_ISLNK(st.st_mode)) {
            if (++links > MAX_LINKS)
                return -ELOOP;
            ssize_t k = readlink(full, link, sizeof(link) - 1);
            if (k < 0)
                return -errno;
            link[k] = 0;
            cur[before] = 0;           // the link's directory, or the root for "/..."
            if (link[0] == '/')
                cur[0] = 0;
            // the target, then what was left after the link (from its "/", if any)
            char rest[8192];
            if (snprintf(rest, sizeof(rest), "%s%s", link, todo + pos) >= (int)sizeof(rest))
                return -ENAMETOOLONG;
            memcpy(todo, rest, strlen(rest) + 1);
            pos = 0;
            continue;
        }
        size_t at = pos;
        while (todo[pos] == '/')
            pos++;
        if ((todo[pos] || pos > at) && !S_ISDIR(st.st_mode))   // (also "file/")
            return -ENOTDIR;
    }
    if (snprintf(out, n, "%s%s", root, cur[0] ? cur : "/") >= (int)n)
        return -ENAMETOOLONG;
    return 0;
}

int hexsim_user_load_interp(struct hexsim_user *u, char *err, size_t errlen)
{
    const char *root = u->opts.ld_prefix;
    if (!root || !*root) {
        snprintf(err, errlen, "%s needs the dynamic loader %s; give the guest root with -L DIR "
                 "or QEMU_LD_PREFIX", u->path, u->interp);
        return HEXSIM_USER_NO_INTERP;
    }
    char path[4096];
    int e = hexsim_user_root_path(root, u->interp, path, sizeof(path));
    struct stat st;
    if (!e && (stat(path, &st) || !S_ISREG(st.st_mode)))
        e = -ENOENT;
    if (e) {
        snprintf(err, errlen, "%s needs the dynamic loader %s, which is not in the guest root "
                 "%s (-L DIR or QEMU_LD_PREFIX): %s", u->path, u->interp, root, strerror(-e));
        return HEXSIM_USER_NO_INTERP;
    }
    return hexsim_user_load_elf_interp(u, path, err, errlen);
}

// The guest's library directories (musl's default search path, ldso/dynlink.c) and the
// loader's path file: under a guest root these are looked up in the root only.
static bool root_only(const char *p)
{
    static const char *const dirs[] = { "/lib", "/usr/lib", "/usr/local/lib" };
    for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        size_t k = strlen(dirs[i]);
        if (strncmp(p, dirs[i], k) == 0 && (p[k] == '/' || p[k] == 0))
            return true;
    }
    return strncmp(p, "/etc/ld-musl-", 13) == 0;
}

int hexsim_user_root_redirect(const struct hexsim_user *u, char *p, size_t n)
{
    const char *root = u->opts.ld_prefix;
    char host[4096];
    if (!root || !*root || p[0] != '/')
        return 0;
    int e = hexsim_user_root_path(root, p, host, sizeof(host));
    if (!e && strlen(host) >= n)
        e = -ENAMETOOLONG;
    if (!e)
        memcpy(p, host, strlen(host) + 1);
    return e && root_only(p) ? e : 0;
}
