// SPDX-License-Identifier: MIT
// File applets: cat chmod cp ln ls mkdir mknod mv rm rmdir touch pwd.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "box.h"

int cat_main(int argc, char **argv)
{
    int rc = 0;
    if (argc < 2)
        return copy_fd(0, 1) ? 1 : 0;
    for (int i = 1; i < argc; i++) {
        int fd = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY) : 0;
        if (fd < 0) {
            warn_errno(argv[i]);
            rc = 1;
            continue;
        }
        if (copy_fd(fd, 1)) {
            warn_errno(argv[i]);
            rc = 1;
        }
        if (fd)
            close(fd);
    }
    return rc;
}

int chmod_main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: chmod OCTAL-MODE FILE...\n");
        return 1;
    }
    mode_t m = (mode_t)strtoul(argv[1], 0, 8);
    int rc = 0;
    for (int i = 2; i < argc; i++)
        if (chmod(argv[i], m) < 0) {
            warn_errno(argv[i]);
            rc = 1;
        }
    return rc;
}

static const char *base_name(const char *p)
{
    size_t n = strlen(p);
    while (n > 1 && p[n - 1] == '/')
        n--;
    const char *s = p + n;
    while (s > p && s[-1] != '/')
        s--;
    return s;
}

// If dst is a directory, the target is dst/basename(src).
static char *target_path(const char *src, const char *dst)
{
    struct stat st;
    char *r;
    if (stat(dst, &st) == 0 && S_ISDIR(st.st_mode)) {
        const char *b = base_name(src);
        size_t bl = strcspn(b, "/");
        asprintf(&r, "%s/%.*s", dst, (int)bl, b);
    } else {
        r = strdup(dst);
    }
    return r;
}

static int copy_path(const char *src, const char *dst, int recursive)
{
    struct stat st;
    if (lstat(src, &st) < 0) {
        warn_errno(src);
        return 1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (!recursive) {
            fprintf(stderr, "%s: %s: is a directory (use -r)\n", applet, src);
            return 1;
        }
        if (mkdir(dst, st.st_mode & 07777) < 0 && errno != EEXIST) {
            warn_errno(dst);
            return 1;
        }
        DIR *d = opendir(src);
        if (!d) {
            warn_errno(src);
            return 1;
        }
        int rc = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *s, *t;
            asprintf(&s, "%s/%s", src, e->d_name);
            asprintf(&t, "%s/%s", dst, e->d_name);
            rc |= copy_path(s, t, 1);
            free(s);
            free(t);
        }
        closedir(d);
        return rc;
    }
    if (S_ISLNK(st.st_mode)) {
        char buf[PATH_MAX];
        ssize_t n = readlink(src, buf, sizeof buf - 1);
        if (n < 0) {
            warn_errno(src);
            return 1;
        }
        buf[n] = 0;
        unlink(dst);
        if (symlink(buf, dst) < 0) {
            warn_errno(dst);
            return 1;
        }
        return 0;
    }
    int in = open(src, O_RDONLY);
    if (in < 0) {
        warn_errno(src);
        return 1;
    }
    int out = open(dst, O_WRONLY | O_CREAT | O_TRUNC, st.st_mode & 0777);
    if (out < 0) {
        warn_errno(dst);
        close(in);
        return 1;
    }
    int rc = copy_fd(in, out) ? 1 : 0;
    if (rc)
        warn_errno(dst);
    close(in);
    close(out);
    return rc;
}

int cp_main(int argc, char **argv)
{
    int recursive = 0, c;
    while ((c = getopt(argc, argv, "rRfa")) != -1)
        if (c == 'r' || c == 'R' || c == 'a')
            recursive = 1;
        else if (c == '?')
            return 1;
    if (argc - optind < 2) {
        fprintf(stderr, "usage: cp [-r] SRC... DEST\n");
        return 1;
    }
    int rc = 0;
    const char *dst = argv[argc - 1];
    for (int i = optind; i < argc - 1; i++) {
        char *t = target_path(argv[i], dst);
        rc |= copy_path(argv[i], t, recursive);
        free(t);
    }
    return rc;
}

static int remove_path(const char *p, int recursive, int force)
{
    struct stat st;
    if (lstat(p, &st) < 0) {
        if (force && errno == ENOENT)
            return 0;
        warn_errno(p);
        return 1;
    }
    if (S_ISDIR(st.st_mode)) {
        if (!recursive) {
            fprintf(stderr, "%s: %s: is a directory\n", applet, p);
            return 1;
        }
        DIR *d = opendir(p);
        if (!d) {
            warn_errno(p);
            return 1;
        }
        int rc = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *s;
            asprintf(&s, "%s/%s", p, e->d_name);
            rc |= remove_path(s, 1, force);
            free(s);
        }
        closedir(d);
        if (rmdir(p) < 0) {
            warn_errno(p);
            return 1;
        }
        return rc;
    }
    if (unlink(p) < 0) {
        warn_errno(p);
        return 1;
    }
    return 0;
}

int rm_main(int argc, char **argv)
{
    int recursive = 0, force = 0, c;
    while ((c = getopt(argc, argv, "rRf")) != -1)
        if (c == 'f')
            force = 1;
        else if (c == '?')
            return 1;
        else
            recursive = 1;
    if (optind >= argc && !force) {
        fprintf(stderr, "usage: rm [-rf] FILE...\n");
        return 1;
    }
    int rc = 0;
    for (int i = optind; i < argc; i++)
        rc |= remove_path(argv[i], recursive, force);
    return rc;
}

int rmdir_main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++)
        if (rmdir(argv[i]) < 0) {
            warn_errno(argv[i]);
            rc = 1;
        }
    return rc;
}

int mv_main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: mv SRC... DEST\n");
        return 1;
    }
    int rc = 0;
    for (int i = 1; i < argc - 1; i++) {
        char *t = target_path(argv[i], argv[argc - 1]);
        if (rename(argv[i], t) < 0) {
            if (errno == EXDEV && !copy_path(argv[i], t, 1)) {
                remove_path(argv[i], 1, 1);
            } else {
                warn_errno(argv[i]);
                rc = 1;
            }
        }
        free(t);
    }
    return rc;
}

int mkdir_main(int argc, char **argv)
{
    int parents = 0, c;
    mode_t mode = 0777;
    while ((c = getopt(argc, argv, "pm:")) != -1)
        if (c == 'p')
            parents = 1;
        else if (c == 'm')
            mode = (mode_t)strtoul(optarg, 0, 8);
        else
            return 1;
    int rc = 0;
    for (int i = optind; i < argc; i++) {
        if (parents) {
            char *p = strdup(argv[i]);
            for (char *s = p + 1; *s; s++)
                if (*s == '/') {
                    *s = 0;
                    mkdir(p, 0777);
                    *s = '/';
                }
            if (mkdir(p, mode) < 0 && errno != EEXIST) {
                warn_errno(argv[i]);
                rc = 1;
            }
            free(p);
        } else if (mkdir(argv[i], mode) < 0) {
            warn_errno(argv[i]);
            rc = 1;
        }
    }
    return rc;
}

int mknod_main(int argc, char **argv)
{
    if (argc < 3 || (argv[2][0] != 'p' && argc < 5)) {
        fprintf(stderr, "usage: mknod NAME c|b|p [MAJOR MINOR]\n");
        return 1;
    }
    mode_t t = argv[2][0] == 'c' ? S_IFCHR : argv[2][0] == 'b' ? S_IFBLK : S_IFIFO;
    dev_t dev = 0;
    if (argc >= 5) {
        unsigned ma = (unsigned)atoi(argv[3]), mi = (unsigned)atoi(argv[4]);
        dev = (mi & 0xff) | ((ma & 0xfff) << 8) | ((mi & ~0xffu) << 12);
    }
    if (mknod(argv[1], t | 0666, dev) < 0) {
        warn_errno(argv[1]);
        return 1;
    }
    return 0;
}

int ln_main(int argc, char **argv)
{
    int sym = 0, force = 0, c;
    while ((c = getopt(argc, argv, "sf")) != -1)
        if (c == 's')
            sym = 1;
        else if (c == 'f')
            force = 1;
        else
            return 1;
    if (argc - optind != 2) {
        fprintf(stderr, "usage: ln [-sf] TARGET LINK\n");
        return 1;
    }
    char *t = target_path(argv[optind], argv[optind + 1]);
    if (force)
        unlink(t);
    int r = sym ? symlink(argv[optind], t) : link(argv[optind], t);
    if (r < 0)
        warn_errno(t);
    free(t);
    return r < 0;
}

int touch_main(int argc, char **argv)
{
    int rc = 0;
    for (int i = 1; i < argc; i++) {
        int fd = open(argv[i], O_WRONLY | O_CREAT, 0666);
        if (fd < 0) {
            warn_errno(argv[i]);
            rc = 1;
        } else {
            close(fd);
        }
    }
    return rc;
}

int pwd_main(int argc, char **argv)
{
    char buf[PATH_MAX];
    if (!getcwd(buf, sizeof buf)) {
        warn_errno("getcwd");
        return 1;
    }
    puts(buf);
    return 0;
}

// ---- ls

struct entry {
    char *name;
    struct stat st;
    int ok;
};

static void mode_string(unsigned m, char *s)
{
    s[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b'
         : S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : '-';
    const char *rwx = "rwxrwxrwx";
    for (int i = 0; i < 9; i++)
        s[1 + i] = (m & (0400u >> i)) ? rwx[i] : '-';
    if (m & S_ISUID) s[3] = (m & 0100) ? 's' : 'S';
    if (m & S_ISGID) s[6] = (m & 010) ? 's' : 'S';
    if (m & S_ISVTX) s[9] = (m & 01) ? 't' : 'T';
    s[10] = 0;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void print_entry(const char *dir, struct entry *e, int lng, int classify)
{
    if (!lng) {
        char suffix = 0;
        if (classify && e->ok)
            suffix = S_ISDIR(e->st.st_mode) ? '/' : S_ISLNK(e->st.st_mode) ? '@'
                   : (e->st.st_mode & 0111) ? '*' : 0;
        if (suffix)
            printf("%s%c\n", e->name, suffix);
        else
            printf("%s\n", e->name);
        return;
    }
    char m[12];
    mode_string(e->st.st_mode, m);
    char when[32];
    time_t t = e->st.st_mtime;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(when, sizeof when, "%b %e %H:%M", &tm);
    if (S_ISCHR(e->st.st_mode) || S_ISBLK(e->st.st_mode)) {
        unsigned long long d = e->st.st_rdev;
        unsigned ma = (unsigned)((d >> 8) & 0xfff), mi = (unsigned)((d & 0xff) | ((d >> 12) & ~0xffu));
        printf("%s %3u %-4u %-4u %4u, %4u %s %s", m, e->st.st_nlink, e->st.st_uid, e->st.st_gid, ma,
               mi, when, e->name);
    } else {
        printf("%s %3u %-4u %-4u %10lld %s %s", m, e->st.st_nlink, e->st.st_uid, e->st.st_gid,
               e->st.st_size, when, e->name);
    }
    if (S_ISLNK(e->st.st_mode)) {
        char buf[PATH_MAX], *p;
        asprintf(&p, "%s/%s", dir, e->name);
        ssize_t n = readlink(dir ? p : e->name, buf, sizeof buf - 1);
        free(p);
        if (n >= 0) {
            buf[n] = 0;
            printf(" -> %s", buf);
        }
    }
    putchar('\n');
}

static int list_dir(const char *path, int all, int lng, int classify)
{
    DIR *d = opendir(path);
    if (!d) {
        warn_errno(path);
        return 1;
    }
    struct entry *v = 0;
    int n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.' && !all)
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 32;
            v = realloc(v, sizeof *v * (size_t)cap);
        }
        v[n].name = strdup(de->d_name);
        char *p;
        asprintf(&p, "%s/%s", path, de->d_name);
        v[n].ok = (lng || classify) ? lstat(p, &v[n].st) == 0 : 0;
        free(p);
        n++;
    }
    closedir(d);
    qsort(v, (size_t)n, sizeof *v, cmp_entry);
    if (lng) {
        long long blocks = 0;
        for (int i = 0; i < n; i++)
            blocks += v[i].ok ? v[i].st.st_blocks : 0;
        printf("total %lld\n", blocks / 2);
    }
    for (int i = 0; i < n; i++) {
        print_entry(path, &v[i], lng && v[i].ok, classify);
        free(v[i].name);
    }
    free(v);
    return 0;
}

int ls_main(int argc, char **argv)
{
    int all = 0, lng = 0, classify = 0, dironly = 0, c;
    while ((c = getopt(argc, argv, "alF1dh")) != -1) {
        if (c == 'a') all = 1;
        else if (c == 'l') lng = 1;
        else if (c == 'F') classify = 1;
        else if (c == 'd') dironly = 1;
        else if (c == '?') return 2;
    }
    int rc = 0, nargs = argc - optind;
    if (nargs == 0)
        return list_dir(".", all, lng, classify);
    // Files first, then directories (with headers when there are several arguments).
    for (int pass = 0; pass < 2; pass++)
        for (int i = optind; i < argc; i++) {
            struct entry e = { argv[i], { 0 }, 1 };
            if (lstat(argv[i], &e.st) < 0) {
                if (pass == 0) {
                    warn_errno(argv[i]);
                    rc = 2;
                }
                continue;
            }
            int isdir = S_ISDIR(e.st.st_mode) && !dironly;
            if (!isdir && S_ISLNK(e.st.st_mode) && !lng) {
                struct stat t;
                isdir = stat(argv[i], &t) == 0 && S_ISDIR(t.st_mode) && !dironly;
            }
            if (pass == 0 && !isdir)
                print_entry(0, &e, lng, classify);
            if (pass == 1 && isdir) {
                if (nargs > 1)
                    printf("%s:\n", argv[i]);
                rc |= list_dir(argv[i], all, lng, classify);
            }
        }
    return rc;
}
