// SPDX-License-Identifier: MIT
#ifndef _UNISTD_H
#define _UNISTD_H
#include <sys/types.h>
#define STDIN_FILENO 0
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#define F_OK 0
#define X_OK 1
#define W_OK 2
#define R_OK 4
#ifndef SEEK_SET
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif
ssize_t read(int fd, void *buf, size_t n);
ssize_t write(int fd, const void *buf, size_t n);
ssize_t pread(int fd, void *buf, size_t n, off_t off);
ssize_t pwrite(int fd, const void *buf, size_t n, off_t off);
int close(int fd);
off_t lseek(int fd, off_t off, int whence);
int dup(int fd);
int dup2(int fd, int fd2);
int dup3(int fd, int fd2, int flags);
int pipe(int fds[2]);
int pipe2(int fds[2], int flags);
pid_t fork(void);
int execve(const char *path, char *const argv[], char *const envp[]);
int execv(const char *path, char *const argv[]);
int execvp(const char *file, char *const argv[]);
_Noreturn void _exit(int code);
pid_t getpid(void);
pid_t getppid(void);
pid_t gettid(void);
uid_t getuid(void);
uid_t geteuid(void);
gid_t getgid(void);
gid_t getegid(void);
pid_t setsid(void);
int setpgid(pid_t pid, pid_t pgid);
pid_t getpgid(pid_t pid);
pid_t getpgrp(void);
pid_t tcgetpgrp(int fd);
int tcsetpgrp(int fd, pid_t pg);
int chdir(const char *path);
int fchdir(int fd);
char *getcwd(char *buf, size_t n);
int rmdir(const char *path);
int unlink(const char *path);
int link(const char *from, const char *to);
int symlink(const char *target, const char *path);
ssize_t readlink(const char *restrict path, char *restrict buf, size_t n);
int access(const char *path, int mode);
int chroot(const char *path);
int isatty(int fd);
int sethostname(const char *name, size_t n);
int gethostname(char *name, size_t n);
unsigned sleep(unsigned s);
int usleep(unsigned us);
void sync(void);
int fsync(int fd);
int ftruncate(int fd, off_t len);
int brk(void *p);
void *sbrk(long inc);
long sysconf(int name);
#define _SC_PAGESIZE 30
#define _SC_CLK_TCK 2
int getopt(int argc, char *const argv[], const char *opts);
extern char *optarg;
extern int optind, opterr, optopt;
#endif
