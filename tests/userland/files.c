// SPDX-License-Identifier: MIT
// Files and directories through the system calls musl wraps: open/creat/O_EXCL/
// O_APPEND/O_TRUNC, read/write/pread/pwrite (64-bit offsets in register pairs),
// lseek, ftruncate, fsync, stat/fstat/lstat/fstatat fields, access, chmod/umask,
// rename, link, symlink/readlink, unlink, mkdir/rmdir, opendir/readdir (sorted),
// getcwd/chdir/fchdir, dup/dup2/fcntl, pipe, and the errors of bad requests.
// argv[1] is a scratch directory; nothing printed depends on its name.
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int cmp(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void list(const char *what)
{
    DIR *d = opendir(".");
    if (!d) {
        printf("opendir failed %d\n", errno);
        return;
    }
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 64) {
        char type = e->d_type == DT_DIR ? 'd' : e->d_type == DT_LNK ? 'l' : e->d_type == DT_REG ? 'f' : '?';
        char *s = malloc(strlen(e->d_name) + 3);
        sprintf(s, "%s:%c", e->d_name, type);
        names[n++] = s;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp);
    printf("%s:", what);
    for (int i = 0; i < n; i++) {
        printf(" %s", names[i]);
        free(names[i]);
    }
    printf("\n");
}

// One call per line, in order: the result and, when it failed, errno's name.
static const char *ename(int e)
{
    switch (e) {
    case ENOENT: return "ENOENT";
    case EEXIST: return "EEXIST";
    case ENOTEMPTY: return "ENOTEMPTY";
    case EBADF: return "EBADF";
    case EISDIR: return "EISDIR";
    case EPERM: return "EPERM";
    case EACCES: return "EACCES";
    case ENOTDIR: return "ENOTDIR";
    case EINVAL: return "EINVAL";
    default: return "other";
    }
}
#define DO(what, expr) do { \
        errno = 0; \
        long long v_ = (long long)(expr); \
        int e_ = errno; \
        if (v_ < 0) \
            printf("%s: %lld %s\n", what, v_, ename(e_)); \
        else \
            printf("%s: %lld\n", what, v_); \
    } while (0)

int main(int argc, char **argv)
{
    if (argc < 2 || chdir(argv[1]) != 0) {
        fprintf(stderr, "usage: files SCRATCH_DIR\n");
        return 2;
    }
    umask(022);
    char buf[64] = { 0 };
    struct stat st, ls;
    int fd = open("a.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    DO("open", fd >= 0);
    DO("write", write(fd, "hello, file world\n", 18));
    DO("open excl", open("a.txt", O_CREAT | O_EXCL | O_WRONLY, 0644));
    DO("pwrite", pwrite(fd, "HELLO", 5, 0));
    DO("lseek end", lseek(fd, 0, SEEK_END));
    DO("ftruncate", ftruncate(fd, 100000));
    DO("lseek end", lseek(fd, 0, SEEK_END));
    DO("pwrite far", pwrite(fd, "tail", 4, 99996));
    DO("fsync", fsync(fd));
    DO("close", close(fd));
    fd = open("a.txt", O_RDONLY);
    DO("read", read(fd, buf, 18));
    printf("  [%.18s]", buf);
    memset(buf, 0, sizeof buf);
    DO("pread", pread(fd, buf, 10, 99994));
    printf("  [%s]\n", buf + 2);
    DO("fstat", fstat(fd, &st));
    printf("  size %lld reg %d mode %o nlink %d blocks>0 %d\n", (long long)st.st_size, S_ISREG(st.st_mode),
           st.st_mode & 07777, (int)st.st_nlink, st.st_blocks > 0);
    close(fd);
    fd = open("a.txt", O_WRONLY | O_APPEND);
    DO("append", write(fd, "++", 2));
    close(fd);
    DO("stat", stat("a.txt", &st));
    printf("  size %lld\n", (long long)st.st_size);
    DO("mkdir", mkdir("sub", 0755));
    DO("mkdir again", mkdir("sub", 0755));
    DO("rename", rename("a.txt", "sub/b.txt"));
    DO("link", link("sub/b.txt", "c.txt"));
    DO("symlink", symlink("sub/b.txt", "s.lnk"));
    char target[64] = { 0 };
    DO("readlink", readlink("s.lnk", target, sizeof target - 1));
    printf("  [%s]\n", target);
    DO("lstat", lstat("s.lnk", &ls));
    DO("stat", stat("s.lnk", &st));
    printf("  link %d reg %d size %lld nlink %d\n", S_ISLNK(ls.st_mode), S_ISREG(st.st_mode),
           (long long)st.st_size, (int)st.st_nlink);
    int dfd = open("sub", O_RDONLY | O_DIRECTORY);
    DO("open dir", dfd >= 0);
    DO("fstatat", fstatat(dfd, "b.txt", &st, 0));
    printf("  size %lld\n", (long long)st.st_size);
    int fd3 = openat(dfd, "b.txt", O_RDONLY);
    DO("openat", fd3 >= 0);
    close(fd3);
    DO("chmod", chmod("c.txt", 0400));
    DO("access R", access("c.txt", R_OK));
    DO("access X", access("c.txt", X_OK));
    DO("access missing", access("nope", F_OK));
    DO("stat", stat("c.txt", &st));
    printf("  mode %o\n", st.st_mode & 0777);
    int fd2 = open("new", O_CREAT | O_WRONLY, 0777);
    DO("fstat new", fstat(fd2, &st));
    printf("  umask applied %o\n", st.st_mode & 0777);
    close(fd2);
    list("entries");
    char cwd[4096], cwd2[4096];
    DO("getcwd", getcwd(cwd, sizeof cwd) != NULL);
    DO("chdir sub", chdir("sub"));
    DO("access b.txt", access("b.txt", F_OK));
    DO("fchdir", fchdir(dfd));
    DO("chdir ..", chdir(".."));
    DO("getcwd", getcwd(cwd2, sizeof cwd2) != NULL);
    printf("  same %d\n", strcmp(cwd, cwd2) == 0);
    close(dfd);
    fd = open("c.txt", O_RDONLY);
    int d1 = dup(fd);
    DO("dup", d1 > fd);
    DO("dup2", dup2(fd, 50));
    DO("getfd", fcntl(50, F_GETFD));
    DO("setfd", fcntl(50, F_SETFD, FD_CLOEXEC));
    DO("getfd", fcntl(50, F_GETFD));
    DO("getfl rdonly", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDONLY);
    DO("lseek", lseek(fd, 6, SEEK_SET));
    DO("shared offset", lseek(d1, 0, SEEK_CUR));
    close(fd);
    close(d1);
    close(50);
    int p[2];
    DO("pipe", pipe(p));
    DO("pipe write", write(p[1], "through the pipe", 16));
    close(p[1]);
    memset(buf, 0, sizeof buf);
    DO("pipe read", read(p[0], buf, sizeof buf));
    printf("  [%s]\n", buf);
    DO("pipe eof", read(p[0], buf, 1));
    close(p[0]);
    DO("open missing", open("missing", O_RDONLY));
    DO("rmdir nonempty", rmdir("sub") < 0 && (errno == ENOTEMPTY || errno == EEXIST) ? -1 : 0);
    DO("read bad fd", read(99, buf, 1));
    DO("unlink dir", unlink("sub") < 0 && (errno == EISDIR || errno == EPERM) ? -1 : 0);
    DO("mkdir in file", mkdir("c.txt/x", 0755));
    DO("unlink", unlink("sub/b.txt"));
    DO("unlink", unlink("c.txt"));
    DO("unlink", unlink("s.lnk"));
    DO("unlink", unlink("new"));
    DO("rmdir", rmdir("sub"));
    DO("access gone", access("sub", F_OK));
    list("after");
    return 0;
}
