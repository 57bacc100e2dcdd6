// SPDX-License-Identifier: MIT
// System call wrappers: files, processes, memory, identity, mounts, power.
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>
#include "libc.h"

long syscall(long nr, ...)
{
    va_list ap;
    va_start(ap, nr);
    long a = va_arg(ap, long), b = va_arg(ap, long), c = va_arg(ap, long);
    long d = va_arg(ap, long), e = va_arg(ap, long), f = va_arg(ap, long);
    va_end(ap);
    return __ret(__sc6(nr, a, b, c, d, e, f));
}

ssize_t read(int fd, void *buf, size_t n) { return __ret(__sc3(SYS_read, fd, buf, n)); }
ssize_t write(int fd, const void *buf, size_t n) { return __ret(__sc3(SYS_write, fd, buf, n)); }
int close(int fd) { return (int)__ret(__sc1(SYS_close, fd)); }

int openat(int dirfd, const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    return (int)__ret(__sc4(SYS_openat, dirfd, path, flags | O_LARGEFILE, mode));
}

int open(const char *path, int flags, ...)
{
    va_list ap;
    va_start(ap, flags);
    mode_t mode = (flags & O_CREAT) ? va_arg(ap, mode_t) : 0;
    va_end(ap);
    return (int)__ret(__sc4(SYS_openat, AT_FDCWD, path, flags | O_LARGEFILE, mode));
}

int creat(const char *path, mode_t mode) { return open(path, O_WRONLY | O_CREAT | O_TRUNC, mode); }

int fcntl(int fd, int cmd, ...)
{
    va_list ap;
    va_start(ap, cmd);
    long arg = va_arg(ap, long);
    va_end(ap);
    return (int)__ret(__sc3(SYS_fcntl64, fd, cmd, arg));
}

int ioctl(int fd, unsigned long req, ...)
{
    va_list ap;
    va_start(ap, req);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return (int)__ret(__sc3(SYS_ioctl, fd, req, arg));
}

off_t lseek(int fd, off_t off, int whence)
{
    long long result;
    long r = __sc5(SYS__llseek, fd, (long)(off >> 32), (long)off, &result, whence);
    return __ret(r) < 0 ? -1 : result;
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    return __ret(__sc6(SYS_pread64, fd, (long)buf, (long)n, 0, (long)off, (long)(off >> 32)));
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    return __ret(__sc6(SYS_pwrite64, fd, (long)buf, (long)n, 0, (long)off, (long)(off >> 32)));
}

int ftruncate(int fd, off_t len)
{
    return (int)__ret(__sc4(SYS_ftruncate64, fd, 0, (long)len, (long)(len >> 32)));
}

int dup(int fd) { return (int)__ret(__sc1(SYS_dup, fd)); }
int dup3(int fd, int fd2, int flags) { return (int)__ret(__sc3(SYS_dup3, fd, fd2, flags)); }
int dup2(int fd, int fd2)
{
    if (fd == fd2)
        return fcntl(fd, F_GETFD) < 0 ? -1 : fd;
    return dup3(fd, fd2, 0);
}
int pipe2(int fds[2], int flags) { return (int)__ret(__sc2(SYS_pipe2, fds, flags)); }
int pipe(int fds[2]) { return pipe2(fds, 0); }

int fstatat(int dirfd, const char *restrict path, struct stat *restrict st, int flags)
{
    return (int)__ret(__sc4(SYS_fstatat64, dirfd, path, st, flags));
}
int stat(const char *restrict path, struct stat *restrict st) { return fstatat(AT_FDCWD, path, st, 0); }
int lstat(const char *restrict path, struct stat *restrict st)
{
    return fstatat(AT_FDCWD, path, st, AT_SYMLINK_NOFOLLOW);
}
int fstat(int fd, struct stat *st) { return (int)__ret(__sc2(SYS_fstat64, fd, st)); }
int mkdir(const char *path, mode_t mode) { return (int)__ret(__sc3(SYS_mkdirat, AT_FDCWD, path, mode)); }
int mknod(const char *path, mode_t mode, dev_t dev)
{
    return (int)__ret(__sc4(SYS_mknodat, AT_FDCWD, path, mode, (unsigned)dev));
}
int chmod(const char *path, mode_t mode) { return (int)__ret(__sc3(SYS_fchmodat, AT_FDCWD, path, mode)); }
int fchmod(int fd, mode_t mode) { return (int)__ret(__sc2(SYS_fchmod, fd, mode)); }
mode_t umask(mode_t mask) { return (mode_t)__sc1(SYS_umask, mask); }
int rmdir(const char *path) { return (int)__ret(__sc3(SYS_unlinkat, AT_FDCWD, path, AT_REMOVEDIR)); }
int unlink(const char *path) { return (int)__ret(__sc3(SYS_unlinkat, AT_FDCWD, path, 0)); }
int remove(const char *path)
{
    int r = unlink(path);
    if (r < 0 && errno == EISDIR)
        r = rmdir(path);
    return r;
}
int rename(const char *from, const char *to)
{
    return (int)__ret(__sc4(SYS_renameat, AT_FDCWD, from, AT_FDCWD, to));
}
int link(const char *from, const char *to)
{
    return (int)__ret(__sc5(SYS_linkat, AT_FDCWD, from, AT_FDCWD, to, 0));
}
int symlink(const char *target, const char *path)
{
    return (int)__ret(__sc3(SYS_symlinkat, target, AT_FDCWD, path));
}
ssize_t readlink(const char *restrict path, char *restrict buf, size_t n)
{
    return __ret(__sc4(SYS_readlinkat, AT_FDCWD, path, buf, n));
}
int access(const char *path, int mode) { return (int)__ret(__sc3(SYS_faccessat, AT_FDCWD, path, mode)); }
int chdir(const char *path) { return (int)__ret(__sc1(SYS_chdir, path)); }
int fchdir(int fd) { return (int)__ret(__sc1(SYS_fchdir, fd)); }
int chroot(const char *path) { return (int)__ret(__sc1(SYS_chroot, path)); }
char *getcwd(char *buf, size_t n)
{
    char tmp[PATH_MAX];
    if (!buf) {
        buf = tmp;
        n = sizeof tmp;
    }
    if (__ret(__sc2(SYS_getcwd, buf, n)) < 0)
        return 0;
    return buf == tmp ? strdup(tmp) : buf;
}
void sync(void) { __sc0(SYS_sync); }
int fsync(int fd) { return (int)__ret(__sc1(SYS_fsync, fd)); }

int isatty(int fd)
{
    struct termios t;
    return __sc3(SYS_ioctl, fd, TCGETS, &t) == 0;
}
int tcgetattr(int fd, struct termios *t) { return ioctl(fd, TCGETS, t); }
int tcsetattr(int fd, int act, const struct termios *t)
{
    return ioctl(fd, act == TCSANOW ? TCSETS : act == TCSADRAIN ? TCSETSW : TCSETSF, (void *)t);
}
void cfmakeraw(struct termios *t)
{
    t->c_iflag &= ~(tcflag_t)(IGNBRK | BRKINT | INLCR | IGNCR | ICRNL | IXON | ISTRIP);
    t->c_oflag &= ~(tcflag_t)OPOST;
    t->c_lflag &= ~(tcflag_t)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    t->c_cflag = (t->c_cflag & ~(tcflag_t)(CSIZE | PARENB)) | CS8;
    t->c_cc[VMIN] = 1;
    t->c_cc[VTIME] = 0;
}
pid_t tcgetpgrp(int fd)
{
    int pg;
    return ioctl(fd, TIOCGPGRP, &pg) < 0 ? -1 : pg;
}
int tcsetpgrp(int fd, pid_t pg) { return ioctl(fd, TIOCSPGRP, &pg); }

// ---- processes
pid_t fork(void)
{
    __stdio_flush_all();
    return (pid_t)__ret(__sc5(SYS_clone, SIGCHLD, 0, 0, 0, 0));
}
int execve(const char *path, char *const argv[], char *const envp[])
{
    return (int)__ret(__sc3(SYS_execve, path, argv, envp));
}
int execv(const char *path, char *const argv[]) { return execve(path, argv, environ); }
int execvp(const char *file, char *const argv[])
{
    if (strchr(file, '/'))
        return execve(file, argv, environ);
    const char *path = getenv("PATH");
    if (!path)
        path = "/bin:/sbin:/usr/bin:/usr/sbin";
    char buf[PATH_MAX];
    int saw_eacces = 0;
    while (*path) {
        const char *e = strchr(path, ':');
        size_t n = e ? (size_t)(e - path) : strlen(path);
        if (n + strlen(file) + 2 <= sizeof buf) {
            memcpy(buf, path, n);
            buf[n] = '/';
            strcpy(buf + n + 1, file);
            execve(buf, argv, environ);
            if (errno == EACCES)
                saw_eacces = 1;
            else if (errno != ENOENT && errno != ENOTDIR)
                return -1;
        }
        path += n;
        if (*path == ':')
            path++;
    }
    errno = saw_eacces ? EACCES : ENOENT;
    return -1;
}
_Noreturn void _exit(int code)
{
    for (;;)
        __sc1(SYS_exit_group, code);
}
pid_t wait4(pid_t pid, int *status, int options, void *rusage)
{
    return (pid_t)__ret(__sc4(SYS_wait4, pid, status, options, rusage));
}
pid_t waitpid(pid_t pid, int *status, int options) { return wait4(pid, status, options, 0); }
pid_t wait(int *status) { return wait4(-1, status, 0, 0); }
pid_t getpid(void) { return (pid_t)__sc0(SYS_getpid); }
pid_t getppid(void) { return (pid_t)__sc0(SYS_getppid); }
pid_t gettid(void) { return (pid_t)__sc0(SYS_gettid); }
uid_t getuid(void) { return (uid_t)__sc0(SYS_getuid); }
uid_t geteuid(void) { return (uid_t)__sc0(SYS_geteuid); }
gid_t getgid(void) { return (gid_t)__sc0(SYS_getgid); }
gid_t getegid(void) { return (gid_t)__sc0(SYS_getegid); }
pid_t setsid(void) { return (pid_t)__ret(__sc0(SYS_setsid)); }
int setpgid(pid_t pid, pid_t pgid) { return (int)__ret(__sc2(SYS_setpgid, pid, pgid)); }
pid_t getpgid(pid_t pid) { return (pid_t)__ret(__sc1(SYS_getpgid, pid)); }
pid_t getpgrp(void) { return getpgid(0); }

// ---- memory
void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
    if (off & 4095) {
        errno = EINVAL;
        return MAP_FAILED;
    }
    long r = __sc6(SYS_mmap2, (long)addr, (long)len, prot, flags, fd, (long)(off >> 12));
    return __ret(r) == -1 ? MAP_FAILED : (void *)r;
}
int munmap(void *addr, size_t len) { return (int)__ret(__sc2(SYS_munmap, addr, len)); }
int mprotect(void *addr, size_t len, int prot) { return (int)__ret(__sc3(SYS_mprotect, addr, len, prot)); }

static char *cur_brk;
int brk(void *p)
{
    char *r = (char *)__sc1(SYS_brk, p);
    cur_brk = r;
    if (r != p) {
        errno = ENOMEM;
        return -1;
    }
    return 0;
}
void *sbrk(long inc)
{
    if (!cur_brk)
        cur_brk = (char *)__sc1(SYS_brk, 0);
    char *old = cur_brk;
    if (inc && brk(old + inc) < 0)
        return (void *)-1;
    return old;
}

long sysconf(int name)
{
    if (name == _SC_PAGESIZE)
        return 4096;
    if (name == _SC_CLK_TCK)
        return 100;
    errno = EINVAL;
    return -1;
}

// ---- system
int uname(struct utsname *u) { return (int)__ret(__sc1(SYS_uname, u)); }
int sethostname(const char *name, size_t n) { return (int)__ret(__sc2(SYS_sethostname, name, n)); }
int gethostname(char *name, size_t n)
{
    struct utsname u;
    if (uname(&u) < 0)
        return -1;
    strlcpy(name, u.nodename, n);
    return 0;
}
int sysinfo(struct sysinfo *info) { return (int)__ret(__sc1(SYS_sysinfo, info)); }
int mount(const char *src, const char *target, const char *type, unsigned long flags, const void *data)
{
    return (int)__ret(__sc5(SYS_mount, src, target, type, flags, data));
}
int umount2(const char *target, int flags) { return (int)__ret(__sc2(SYS_umount2, target, flags)); }
int umount(const char *target) { return umount2(target, 0); }
int reboot(int cmd) { return (int)__ret(__sc4(SYS_reboot, 0xfee1dead, 672274793, cmd, 0)); }
int klogctl(int type, char *buf, int len) { return (int)__ret(__sc3(SYS_syslog, type, buf, len)); }
