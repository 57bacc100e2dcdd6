// SPDX-License-Identifier: MIT
// The file, directory, process-information and polling system calls (sys_fs.c,
// sys_misc.c) and the anonymous mapping helper they share (syscall.c); see those files.
#ifndef HEXSIM_USER_SYS_FS_H
#define HEXSIM_USER_SYS_FS_H

#include <stdbool.h>
#include <stdint.h>

struct hexsim_user;

// syscall.c: a private anonymous mapping of len bytes (hexsim_prot bits) where mmap2 would
// put it: its address or -errno
int64_t sys_mmap_anon(struct hexsim_user *u, uint32_t len, unsigned prot);

// sys_fs.c
int64_t sys_fcntl64(struct hexsim_user *u, uint32_t fd, uint32_t cmd, uint32_t arg);
int64_t sys_dup(struct hexsim_user *u, uint32_t fd);
int64_t sys_dup3(struct hexsim_user *u, uint32_t fd, uint32_t nfd, uint32_t flags);
int64_t sys_pipe2(struct hexsim_user *u, uint32_t addr, uint32_t flags);
int64_t sys_unlinkat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t flags);
int64_t sys_mkdirat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t mode);
int64_t sys_renameat2(struct hexsim_user *u, uint32_t ofd, uint32_t opath, uint32_t nfd,
                uint32_t npath, uint32_t flags);
int64_t sys_linkat(struct hexsim_user *u, uint32_t ofd, uint32_t opath, uint32_t nfd,
                uint32_t npath, uint32_t flags);
int64_t sys_symlinkat(struct hexsim_user *u, uint32_t target, uint32_t nfd, uint32_t npath);
int64_t sys_readlinkat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t buf,
                uint32_t size);
int64_t sys_faccessat2(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t mode,
                uint32_t flags);
int64_t sys_fchmodat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t mode);
int64_t sys_fchmod(struct hexsim_user *u, uint32_t fd, uint32_t mode);
int64_t sys_fchownat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t uid,
                uint32_t gid, uint32_t flags);
int64_t sys_fchown(struct hexsim_user *u, uint32_t fd, uint32_t uid, uint32_t gid);
int64_t sys_utimensat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t times,
                uint32_t flags, bool t64);
int64_t sys_truncate64(struct hexsim_user *u, uint32_t path, uint32_t lo, uint32_t hi);
int64_t sys_statx(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t flags,
                uint32_t mask, uint32_t buf);
int64_t sys_statfs64(struct hexsim_user *u, uint32_t path, uint32_t size, uint32_t buf);
int64_t sys_fstatfs64(struct hexsim_user *u, uint32_t fd, uint32_t size, uint32_t buf);
int64_t sys_getcwd(struct hexsim_user *u, uint32_t buf, uint32_t size);
int64_t sys_chdir(struct hexsim_user *u, uint32_t path);
int64_t sys_fchdir(struct hexsim_user *u, uint32_t gfd);
int64_t sys_getdents64(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t count);
int64_t sys_ftruncate64(struct hexsim_user *u, uint32_t fd, uint32_t lo, uint32_t hi);
int64_t sys_pread64(struct hexsim_user *u, bool wr, uint32_t fd, uint32_t buf, uint32_t len,
                uint32_t lo, uint32_t hi);
int64_t sys_sendfile64(struct hexsim_user *u, uint32_t ofd, uint32_t ifd, uint32_t offp,
                uint32_t count);
int64_t sys_fsync(struct hexsim_user *u, uint32_t fd, bool data);
int64_t sys_fadvise(struct hexsim_user *u, uint32_t fd);
int64_t sys_fallocate(struct hexsim_user *u, uint32_t fd, uint32_t mode, uint32_t olo,
                uint32_t ohi, uint32_t llo, uint32_t lhi);
int64_t sys_flock(struct hexsim_user *u, uint32_t fd, uint32_t op);

// sys_misc.c
int64_t sys_umask(struct hexsim_user *u, uint32_t mask);
int64_t sys_prlimit64(struct hexsim_user *u, uint32_t pid, uint32_t res, uint32_t nl, uint32_t ol);
int64_t sys_getrlimit(struct hexsim_user *u, uint32_t res, uint32_t addr);
int64_t sys_setrlimit(struct hexsim_user *u, uint32_t res, uint32_t addr);
int64_t sys_sysinfo(struct hexsim_user *u, uint32_t addr);
int64_t sys_getrusage(struct hexsim_user *u, uint32_t who, uint32_t addr);
int64_t sys_times(struct hexsim_user *u, uint32_t addr);
int64_t sys_clock_getres(struct hexsim_user *u, uint32_t clk, uint32_t addr, bool t64);
int64_t sys_madvise(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t advice);
int64_t sys_membarrier(struct hexsim_user *u, uint32_t cmd, uint32_t flags);
int64_t sys_sched_getaffinity(struct hexsim_user *u, uint32_t pid, uint32_t len, uint32_t addr);
int64_t sys_getcpu(struct hexsim_user *u, uint32_t cpu, uint32_t node);
int64_t sys_getresid(struct hexsim_user *u, uint32_t a, uint32_t b, uint32_t c);
int64_t sys_prctl(struct hexsim_user *u, uint32_t op, uint32_t arg);
int64_t sys_mremap(struct hexsim_user *u, uint32_t old, uint32_t olen, uint32_t nlen,
                uint32_t flags, uint32_t naddr);
int64_t sys_getpriority(struct hexsim_user *u, uint32_t which, uint32_t who);
int64_t sys_setpriority(struct hexsim_user *u, uint32_t which, uint32_t who, uint32_t nice);
int64_t sys_sched_param(struct hexsim_user *u, uint32_t pid, uint32_t param);
int64_t sys_sched_priority(uint32_t policy, bool max);
int64_t sys_memfd_create(struct hexsim_user *u, uint32_t name, uint32_t flags);
int64_t sys_close_range(struct hexsim_user *u, uint32_t first, uint32_t last, uint32_t flags);
int64_t sys_ppoll(struct hexsim_user *u, uint32_t addr, uint32_t n, uint32_t tsp,
                uint32_t sigmask, bool t64);
int64_t sys_pselect6(struct hexsim_user *u, uint32_t n, uint32_t rd, uint32_t wr, uint32_t ex,
                uint32_t tsp, uint32_t sig, bool t64);

#endif
