// SPDX-License-Identifier: MIT
// Linux system calls for user mode (asm-generic numbers, include/uapi/asm-generic/unistd.h,
// 32-bit ABI: mmap is mmap2 with a page offset, fstat is fstat64, lseek is _llseek): trap0(#1)
// with the number in r6, arguments in r0-r5, result (or -errno) in r0. Structure layouts from
// include/uapi/asm-generic (stat.h stat64, termbits.h termios, utsname, timespec).
// Guest buffers are reached only through the checked memory accessors; a bad guest pointer
// gives -EFAULT as the kernel would. Time is derived from the pcycle clock (reproducible)
// unless --host-time; sleeping advances that clock instead of waiting. The other groups of
// calls are in sys_fs.c, sys_misc.c, thread.c, signal.c and timer.c (sys.h).
#define _DEFAULT_SOURCE      // preadv, pwritev
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "sys.h"
#include "sys_fs.h"
#include "sys_event.h"
#include "sys_net.h"

#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000   // Linux value; glibc declares it only with _GNU_SOURCE
#endif

// The system calls hexsim implements: number (asm-generic unistd.h; the name is
// sysnames.c's), how --strace shows the result and the arguments (strace.c), and the call.
// The dispatch switch and the --strace lookup are both generated from it. Kinds: the first letter is the
// result's (d decimal, x hex, o octal), then one per register: d/f int or descriptor, u
// unsigned, x hex, p pointer, D directory descriptor (AT_FDCWD), s path, y path written by
// the call, w buffer of the next argument's length, r buffer the call filled (the result's
// length), v/V iovec array written/filled, O open flags with the access mode (then m, the
// mode, only with O_CREAT/O_TMPFILE), E O_* flags, m octal mode, P PROT_*, M MAP_*, e page
// offset, A AT_*, Q access mode, S signal, a sigaction, g sigset, h sigprocmask how,
// k clock, t/T timespec (32/64-bit seconds), n/N one the call wrote, K stat64 it wrote, q two
// descriptors it wrote, L 64-bit pair (low word first) H (high first), _ padding register,
// W whence, i ioctl request, c fcntl command and its argument, X argv (a string array),
// Z envp (its address and length), j wait status written, J wait options; sockets: I AF_*,
// Y SOCK_* type and flags, B address in (the next argument its length), b address written
// (the next its length's address), l a length written, U MSG_*, R SHUT_*, o/2 msghdr
// sent/received; events: 3/4/5/6/7 EFD_/TFD_/EPOLL_/SFD_/IN_ flags, # epoll_ctl op,
// $ epoll_event, ! epoll_events written, % IN_* mask, & TFD_TIMER_*, (/[ itimerspec
// (32/64-bit) in, )/] written; whole calls: F/G futex (32/64-bit timeout), C clone,
// z setsockopt, 1 getsockopt.
#define HEXSIM_SYSCALLS(X) \
    X(17, "dyu", sys_getcwd(u, r[0], r[1])) \
    X(19, "du3", sys_eventfd2(u, r[0], r[1])) \
    X(20, "d5", sys_epoll_create1(u, r[0])) \
    X(21, "df#f$", sys_epoll_ctl(u, r[0], r[1], r[2], r[3])) \
    X(22, "df!ddgu", sys_epoll_pwait(u, r[0], r[1], r[2], (int32_t)r[3], 0, r[4], r[5])) \
    X(23, "df", sys_dup(u, r[0])) \
    X(24, "dffE", sys_dup3(u, r[0], r[1], r[2])) \
    X(25, "dfc", sys_fcntl64(u, r[0], r[1], r[2])) \
    X(26, "d7", sys_inotify_init1(u, r[0])) \
    X(27, "dfs%", sys_inotify_add_watch(u, r[0], r[1], r[2])) \
    X(28, "dfd", sys_inotify_rm_watch(u, r[0], r[1])) \
    X(29, "dfip", sys_ioctl(u, r[0], r[1], r[2])) \
    X(32, "dfd", sys_flock(u, r[0], r[1])) \
    X(34, "dDsm", sys_mkdirat(u, r[0], r[1], r[2])) \
    X(35, "dDsA", sys_unlinkat(u, r[0], r[1], r[2])) \
    X(36, "dsDs", sys_symlinkat(u, r[0], r[1], r[2])) \
    X(37, "dDsDsA", sys_linkat(u, r[0], r[1], r[2], r[3], r[4])) \
    X(38, "dDsDs", sys_renameat2(u, r[0], r[1], r[2], r[3], 0)) \
    X(43, "dsup", sys_statfs64(u, r[0], r[1], r[2])) \
    X(44, "dfup", sys_fstatfs64(u, r[0], r[1], r[2])) \
    X(45, "ds_L", sys_truncate64(u, r[0], r[2], r[3])) \
    X(46, "df_L", sys_ftruncate64(u, r[0], r[2], r[3])) \
    X(47, "dfdLL", sys_fallocate(u, r[0], r[1], r[2], r[3], r[4], r[5])) \
    X(48, "dDsQ", sys_faccessat2(u, r[0], r[1], r[2], 0)) \
    X(49, "ds", sys_chdir(u, r[0])) \
    X(50, "df", sys_fchdir(u, r[0])) \
    X(52, "dfm", sys_fchmod(u, r[0], r[1])) \
    X(53, "dDsm", sys_fchmodat(u, r[0], r[1], r[2])) \
    X(54, "dDsddA", sys_fchownat(u, r[0], r[1], r[2], r[3], r[4])) \
    X(55, "dfdd", sys_fchown(u, r[0], r[1], r[2])) \
    X(56, "dDsOm", sys_openat(u, r[0], r[1], r[2], r[3])) \
    X(57, "df", sys_close(u, r[0])) \
    X(59, "dqE", sys_pipe2(u, r[0], r[1])) \
    X(61, "dfpu", sys_getdents64(u, r[0], r[1], r[2])) \
    X(62, "dfHpW", sys_llseek(u, r[0], r[1], r[2], r[3], r[4])) \
    X(63, "dfru", (y = hx_signalfd_read(u, hx_host_fd(u, r[0]), r[1], r[2])) != -1 ? y \
                  : (y = hx_io_yield(u, r[0], false)) ? y : sys_rw(u, r[0], r[1], r[2], false)) \
    X(64, "dfwu", (y = hx_io_yield(u, r[0], true)) ? y \
                   : hx_sigpipe(u, sys_rw(u, r[0], r[1], r[2], true))) \
    X(65, "dfVu", (y = hx_io_yield(u, r[0], false)) ? y \
                   : sys_rwv(u, false, r[0], r[1], r[2])) \
    X(66, "dfvu", (y = hx_io_yield(u, r[0], true)) ? y \
                    : hx_sigpipe(u, sys_rwv(u, true, r[0], r[1], r[2]))) \
    X(67, "dfru_L", sys_pread64(u, false, r[0], r[1], r[2], r[4], r[5])) \
    X(68, "dfwu_L", hx_sigpipe(u, sys_pread64(u, true, r[0], r[1], r[2], r[4], r[5]))) \
    X(71, "dffpu", hx_sigpipe(u, sys_sendfile64(u, r[0], r[1], r[2], r[3]))) \
    X(72, "ddppptp", sys_pselect6(u, r[0], r[1], r[2], r[3], r[4], r[5], false)) \
    X(73, "dpdtpu", sys_ppoll(u, r[0], r[1], r[2], r[3], false)) \
    X(74, "dfgu6", sys_signalfd4(u, r[0], r[1], r[2], r[3])) \
    X(78, "dDsru", sys_readlinkat(u, r[0], r[1], r[2], r[3])) \
    X(79, "dDsKA", sys_fstatat(u, r[0], r[1], r[2], r[3])) \
    X(80, "dfK", sys_fstat(u, r[0], r[1])) \
    X(81, "d", 0) \
    X(82, "df", sys_fsync(u, r[0], false)) \
    X(83, "df", sys_fsync(u, r[0], true)) \
    X(85, "dk4", sys_timerfd_create(u, r[0], r[1])) \
    X(86, "df&()", sys_timerfd_settime(u, r[0], r[1], r[2], r[3], false)) \
    X(87, "df)", sys_timerfd_gettime(u, r[0], r[1], false)) \
    X(88, "dDspA", sys_utimensat(u, r[0], r[1], r[2], r[3], false)) \
    X(93, "dd", sys_exit_thread(u, r[0])) \
    X(94, "dd", sys_exit_group(u, r[0])) \
    X(95, "dddpJp", sys_waitid(u, r[0], r[1], r[2], r[3], r[4])) \
    X(96, "dp", sys_set_tid_address(u, r[0])) \
    X(98, "dF", sys_futex(u, r[0], r[1], r[2], r[3], r[4], r[5], false)) \
    X(99, "dpu", 0)               /* kept by nobody: no robust futexes */ \
    X(101, "dtp", sys_clock_nanosleep(u, 1, 0, r[0], r[1], false)) \
    X(102, "ddp", sys_getitimer(u, r[0], r[1])) \
    X(103, "ddpp", sys_setitimer(u, r[0], r[1], r[2])) \
    X(107, "dkpp", sys_timer_create(u, r[0], r[1], r[2])) \
    X(108, "ddp", sys_timer_gettime(u, r[0], r[1], false)) \
    X(109, "dd", sys_timer_getoverrun(u, r[0])) \
    X(110, "dddpp", sys_timer_settime(u, r[0], r[1], r[2], r[3], false)) \
    X(111, "dd", sys_timer_delete(u, r[0])) \
    X(113, "dkn", sys_clock_gettime(u, r[0], r[1], false)) \
    X(114, "dkn", sys_clock_getres(u, r[0], r[1], false)) \
    X(115, "dkdtp", sys_clock_nanosleep(u, r[0], r[1], r[2], r[3], false)) \
    X(92, "dx", r[0] == 0xffffffffu || r[0] == 0 ? 0 : -EINVAL) \
    X(112, "dkt", -EPERM) \
    X(120, "dd", sys_sched_param(u, r[0], 0)) \
    X(121, "ddp", sys_sched_param(u, r[0], r[1])) \
    X(122, "ddup", 0) \
    X(123, "ddup", sys_sched_getaffinity(u, r[0], r[1], r[2])) \
    X(124, "d", sys_sched_yield(u)) \
    X(125, "dd", sys_sched_priority(r[0], true)) \
    X(126, "dd", sys_sched_priority(r[0], false)) \
    X(129, "ddS", sys_kill(u, r[0], r[1])) \
    X(130, "ddS", sys_tgkill(u, ~0u, r[0], r[1])) \
    X(131, "dddS", sys_tgkill(u, r[0], r[1], r[2])) \
    X(132, "dpp", sys_sigaltstack(u, r[0], r[1])) \
    X(133, "dgu", sys_rt_sigsuspend(u, r[0], r[1])) \
    X(134, "dSaau", sys_rt_sigaction(u, r[0], r[1], r[2], r[3])) \
    X(135, "dhggu", sys_rt_sigprocmask(u, r[0], r[1], r[2], r[3])) \
    X(136, "dgu", sys_rt_sigpending(u, r[0], r[1])) \
    X(137, "dgptu", sys_rt_sigtimedwait(u, r[0], r[1], r[2], r[3], false)) \
    X(138, "ddSp", sys_rt_sigqueueinfo(u, r[0], ~0u, r[1], r[2])) \
    X(139, "d", sys_rt_sigreturn(u)) \
    X(140, "dddd", sys_setpriority(u, r[0], r[1], r[2])) \
    X(141, "ddd", sys_getpriority(u, r[0], r[1])) \
    X(144, "dd", r[0] ? -EPERM : 0) \
    X(146, "dd", r[0] ? -EPERM : 0) \
    X(148, "dppp", sys_getresid(u, r[0], r[1], r[2])) \
    X(150, "dppp", sys_getresid(u, r[0], r[1], r[2])) \
    X(153, "dp", sys_times(u, r[0])) \
    X(154, "ddd", sys_setpgid(u, r[0], r[1])) \
    X(155, "dd", sys_getpgid(u, r[0], false)) \
    X(156, "dd", sys_getpgid(u, r[0], true)) \
    X(157, "d", sys_setsid(u)) \
    X(158, "ddp", 0) \
    X(160, "dp", sys_uname(u, r[0])) \
    X(163, "ddp", sys_getrlimit(u, r[0], r[1])) \
    X(164, "ddp", sys_setrlimit(u, r[0], r[1])) \
    X(165, "ddp", sys_getrusage(u, r[0], r[1])) \
    X(166, "om", sys_umask(u, r[0])) \
    X(167, "ddx", sys_prctl(u, r[0], r[1])) \
    X(168, "dpp", sys_getcpu(u, r[0], r[1])) \
    X(169, "dpp", sys_gettimeofday(u, r[0], r[1])) \
    X(170, "dpp", -EPERM) \
    X(172, "d", hx_getpid(u)) \
    X(173, "d", sys_getppid(u)) \
    X(174, "d", 0) \
    X(175, "d", 0) \
    X(176, "d", 0) \
    X(177, "d", 0) \
    X(178, "d", sys_gettid(u)) \
    X(179, "dp", sys_sysinfo(u, r[0])) \
    X(198, "dIYd", sys_socket(u, r[0], r[1], r[2])) \
    X(199, "dIYdq", sys_socketpair(u, r[0], r[1], r[2], r[3])) \
    X(200, "dfBu", sys_bind(u, r[0], r[1], r[2], false)) \
    X(201, "dfd", sys_listen(u, r[0], r[1])) \
    X(202, "dfbl", sys_accept4(u, r[0], r[1], r[2], 0)) \
    X(203, "dfBu", sys_bind(u, r[0], r[1], r[2], true)) \
    X(204, "dfbl", sys_sockname(u, r[0], r[1], r[2], false)) \
    X(205, "dfbl", sys_sockname(u, r[0], r[1], r[2], true)) \
    X(206, "dfwuUBu", sys_sendto(u, r[0], r[1], r[2], r[3], r[4], r[5])) \
    X(207, "dfruUbl", sys_recvfrom(u, r[0], r[1], r[2], r[3], r[4], r[5])) \
    X(208, "dfz", sys_setsockopt(u, r[0], r[1], r[2], r[3], r[4])) \
    X(209, "df1", sys_getsockopt(u, r[0], r[1], r[2], r[3], r[4])) \
    X(210, "dfR", sys_shutdown(u, r[0], r[1])) \
    X(211, "dfoU", sys_msg(u, r[0], r[1], r[2], false)) \
    X(212, "df2U", sys_msg(u, r[0], r[1], r[2], true)) \
    X(214, "xp", sys_brk(u, r[0])) \
    X(215, "dpu", sys_munmap(u, r[0], r[1])) \
    X(216, "xpuudp", sys_mremap(u, r[0], r[1], r[2], r[3], r[4])) \
    X(220, "dC", sys_clone(u, r[0], r[1], r[2], r[3], r[4])) \
    X(221, "dsXZ", sys_execve(u, (uint32_t)HX_AT_FDCWD, r[0], r[1], r[2], 0)) \
    X(222, "xpuPMfe", sys_mmap2(u, r[0], r[1], r[2], r[3], r[4], r[5])) \
    X(223, "dfLLd", sys_fadvise(u, r[0])) \
    X(226, "dpuP", sys_mprotect(u, r[0], r[1], r[2])) \
    X(227, "dpud", r[0] & (HEXSIM_PAGE_SIZE - 1) ? -EINVAL : 0) /* private copies */ \
    X(228, "dpu", 0) \
    X(229, "dpu", 0) \
    X(230, "dd", 0) \
    X(231, "d", 0) \
    X(233, "dpud", sys_madvise(u, r[0], r[1], r[2])) \
    X(240, "dddSp", sys_rt_sigqueueinfo(u, r[0], r[1], r[2], r[3])) \
    X(242, "dfblY", sys_accept4(u, r[0], r[1], r[2], r[3])) \
    X(243, "dfpuUt", sys_recvmmsg(u, r[0], r[1], r[2], r[3], r[4], false)) \
    X(260, "ddjJp", sys_wait4(u, r[0], r[1], r[2], r[3])) \
    X(261, "dddpp", sys_prlimit64(u, r[0], r[1], r[2], r[3])) \
    X(269, "dfpuU", sys_sendmmsg(u, r[0], r[1], r[2], r[3])) \
    X(276, "dDsDsd", sys_renameat2(u, r[0], r[1], r[2], r[3], r[4])) \
    X(278, "drud", sys_getrandom(u, r[0], r[1])) \
    X(281, "dDsXZA", sys_execve(u, r[0], r[1], r[2], r[3], r[4])) \
    X(279, "dsd", sys_memfd_create(u, r[0], r[1])) \
    X(283, "ddd", sys_membarrier(u, r[0], r[1])) \
    X(291, "dDsAxp", sys_statx(u, r[0], r[1], r[2], r[3], r[4])) \
    X(403, "dkN", sys_clock_gettime(u, r[0], r[1], true)) \
    X(404, "dkT", -EPERM) \
    X(406, "dkN", sys_clock_getres(u, r[0], r[1], true)) \
    X(407, "dkdTp", \
      sys_clock_nanosleep(u, r[0], r[1], r[2], r[3], true)) \
    X(408, "ddp", sys_timer_gettime(u, r[0], r[1], true)) \
    X(409, "dddpp", sys_timer_settime(u, r[0], r[1], r[2], r[3], true)) \
    X(410, "df]", sys_timerfd_gettime(u, r[0], r[1], true)) \
    X(411, "df&[]", sys_timerfd_settime(u, r[0], r[1], r[2], r[3], true)) \
    X(412, "dDspA", sys_utimensat(u, r[0], r[1], r[2], r[3], true)) \
    X(413, "ddpppTp", \
      sys_pselect6(u, r[0], r[1], r[2], r[3], r[4], r[5], true)) \
    X(414, "dpdTpu", sys_ppoll(u, r[0], r[1], r[2], r[3], true)) \
    X(417, "dfpuUT", sys_recvmmsg(u, r[0], r[1], r[2], r[3], r[4], true)) \
    X(421, "dgpTu", \
      sys_rt_sigtimedwait(u, r[0], r[1], r[2], r[3], true)) \
    X(422, "dG", sys_futex(u, r[0], r[1], r[2], r[3], r[4], r[5], true)) \
    X(436, "duud", sys_close_range(u, r[0], r[1], r[2])) \
    X(439, "dDsQA", sys_faccessat2(u, r[0], r[1], r[2], r[3])) \
    X(441, "df!dTgu", sys_epoll_pwait(u, r[0], r[1], r[2], -1, r[3], r[4], r[5]))

// ---- file descriptors: guest numbers map to host descriptors hexsim opened for it

// The lowest free guest descriptor from `lowest` on for host descriptor hfd (closed when
// there is none: -EMFILE).
int32_t hx_new_guest_fd(struct hexsim_user *u, int hfd, uint32_t lowest)
{
    for (uint32_t i = lowest; i < HX_MAX_FDS; i++)
        if (u->guest_fd_map[i] < 0) {
            u->guest_fd_map[i] = hfd;
            return (int32_t)i;
        }
    close(hfd);
    return -EMFILE;
}

int hx_copy_str(struct hexsim_user *u, uint32_t addr, char *buf, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (hexsim_mem_copy_out(&u->mem, addr + (uint32_t)i, &buf[i], 1, HEXSIM_PROT_R, NULL))
            return -EFAULT;
        if (!buf[i])
            return 0;
    }
    return -ENAMETOOLONG;
}

// read and write: one guest buffer, straight into or out of guest memory (guest_io.c)
static int32_t sys_rw(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len,
                      bool wr)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    const uint32_t seg[1][2] = { { buf, len < 0x7ffff000u ? len : 0x7ffff000u } };
    return (int32_t)hx_guest_io(u, h, wr, seg, 1, -1);
}

static int32_t sys_rwv(struct hexsim_user *u, bool wr, uint32_t fd, uint32_t iov, uint32_t cnt)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    return (int32_t)hx_guest_io_vec(u, h, wr, iov, cnt, -1);
}

// asm-generic fcntl.h values (octal), translated bit by bit to the host's and back
static const struct { uint32_t g; int h; } open_flag_map[] = {
    { 0100, O_CREAT }, { 0200, O_EXCL }, { 0400, O_NOCTTY }, { 01000, O_TRUNC },
    { 02000, O_APPEND }, { 04000, O_NONBLOCK }, { 0200000, O_DIRECTORY },
    { 0400000, O_NOFOLLOW }, { 02000000, O_CLOEXEC }, { 010000, O_DSYNC },
    { 04010000, O_SYNC },
};

int hx_open_flags(uint32_t g)
{
    int h = (int)(g & 3);
    for (size_t i = 0; i < sizeof(open_flag_map) / sizeof(open_flag_map[0]); i++)
        if ((g & open_flag_map[i].g) == open_flag_map[i].g)
            h |= open_flag_map[i].h;
    return h;
}

uint32_t hx_guest_open_flags(int h)
{
    uint32_t g = (uint32_t)h & 3;
    for (size_t i = 0; i < sizeof(open_flag_map) / sizeof(open_flag_map[0]); i++)
        if ((h & open_flag_map[i].h) == open_flag_map[i].h)
            g |= open_flag_map[i].g;
    return g | 0100000;   // O_LARGEFILE: what a 32-bit kernel reports for musl's descriptors
}

// Reads the guest path at `path` into p and gives the host directory descriptor it is
// relative to (*hd: AT_FDCWD, or the host side of guest dirfd); 0 or -errno.
// AT_FDCWD is the guest's current directory (chdir), at first hexsim's. With a guest root
// (-L DIR) an absolute path that names a file inside it is taken from there (interp.c).
int hx_resolve_at(struct hexsim_user *u, uint32_t dirfd, uint32_t path, char *p, size_t n,
                  int *hd)
{
    int e = hx_copy_str(u, path, p, n);
    if (e)
        return e;
    if (u->opts.no_host_paths)
        return -EACCES;
    if ((e = hexsim_user_root_redirect(u, p, n)))
        return e;
    int cwd = u->os && u->os->cwd_fd >= 0 ? u->os->cwd_fd : AT_FDCWD;
    *hd = (int32_t)dirfd == HX_AT_FDCWD ? cwd : hx_host_fd(u, dirfd);
    if (*hd == -1 && p[0] != '/')
        return -EBADF;
    return 0;
}

static int32_t sys_openat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t flags,
                          uint32_t mode)
{
    char p[4096];
    int hd;
    int e = hx_resolve_at(u, dirfd, path, p, sizeof(p), &hd);
    if (e)
        return e;
    uint32_t um = u->os ? u->os->umask : 022;
    int h = openat(hd, p, hx_open_flags(flags), (mode_t)(mode & 07777 & ~um));
    if (h < 0)
        return -errno;
    return hx_new_guest_fd(u, h, 0);
}

static int32_t sys_close(struct hexsim_user *u, uint32_t fd)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    u->guest_fd_map[fd] = -1;
    if (h <= 2)   // the guest closing its stdio must not close hexsim's
        return 0;
    hx_evfd_closed(u, h);
    return close(h) ? -errno : 0;
}

static int32_t sys_llseek(struct hexsim_user *u, uint32_t fd, uint32_t hi, uint32_t lo,
                          uint32_t result, uint32_t whence)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    if (whence > 2)
        return -EINVAL;
    off_t r = lseek(h, (off_t)((uint64_t)hi << 32 | lo), (int)whence);
    if (r < 0)
        return -errno;
    uint8_t b[8];
    hx_le64(b, (uint64_t)r);
    return hx_put(u, result, b, 8);
}

static int32_t put_stat(struct hexsim_user *u, uint32_t addr, const struct stat *st)
{
    uint8_t b[104] = {0};   // asm-generic struct stat64
    hx_le64(b + 0, (uint64_t)st->st_dev);
    hx_le64(b + 8, (uint64_t)st->st_ino);
    hx_le32(b + 16, (uint32_t)st->st_mode);
    hx_le32(b + 20, (uint32_t)st->st_nlink);
    hx_le32(b + 24, (uint32_t)st->st_uid);
    hx_le32(b + 28, (uint32_t)st->st_gid);
    hx_le64(b + 32, (uint64_t)st->st_rdev);
    hx_le64(b + 48, (uint64_t)st->st_size);
    hx_le32(b + 56, (uint32_t)st->st_blksize);
    hx_le64(b + 64, (uint64_t)st->st_blocks);
    hx_le32(b + 72, (uint32_t)st->st_atim.tv_sec);
    hx_le32(b + 76, (uint32_t)st->st_atim.tv_nsec);
    hx_le32(b + 80, (uint32_t)st->st_mtim.tv_sec);
    hx_le32(b + 84, (uint32_t)st->st_mtim.tv_nsec);
    hx_le32(b + 88, (uint32_t)st->st_ctim.tv_sec);
    hx_le32(b + 92, (uint32_t)st->st_ctim.tv_nsec);
    return hx_put(u, addr, b, sizeof(b));
}

static int32_t sys_fstat(struct hexsim_user *u, uint32_t fd, uint32_t addr)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    struct stat st;
    if (fstat(h, &st))
        return -errno;
    return put_stat(u, addr, &st);
}

static int32_t sys_fstatat(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t addr,
                           uint32_t flags)
{
    char p[4096];
    int hd;
    int e = hx_resolve_at(u, dirfd, path, p, sizeof(p), &hd);
    if (e)
        return e;
    int hf = (flags & 0x100 ? AT_SYMLINK_NOFOLLOW : 0) | (flags & 0x1000 ? AT_EMPTY_PATH : 0);
    struct stat st;
    if (fstatat(hd, p, &st, hf))
        return -errno;
    return put_stat(u, addr, &st);
}

static int32_t sys_ioctl(struct hexsim_user *u, uint32_t fd, uint32_t req, uint32_t arg)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    if (req == 0x5401) {   // TCGETS: asm-generic struct termios (4 flags, c_line, c_cc[19])
        struct termios t;
        if (tcgetattr(h, &t))
            return -errno;
        uint8_t b[36] = {0};
        hx_le32(b + 0, (uint32_t)t.c_iflag);
        hx_le32(b + 4, (uint32_t)t.c_oflag);
        hx_le32(b + 8, (uint32_t)t.c_cflag);
        hx_le32(b + 12, (uint32_t)t.c_lflag);
        b[16] = (uint8_t)t.c_line;
        for (int i = 0; i < 19 && i < NCCS; i++)
            b[17 + i] = t.c_cc[i];
        return hx_put(u, arg, b, sizeof(b));
    }
    if (req == 0x5413) {   // TIOCGWINSZ
        struct winsize ws;
        if (ioctl(h, TIOCGWINSZ, &ws))
            return -errno;
        uint8_t b[8];
        uint16_t v[4] = { ws.ws_row, ws.ws_col, ws.ws_xpixel, ws.ws_ypixel };
        for (int i = 0; i < 4; i++) {
            b[2 * i] = (uint8_t)v[i];
            b[2 * i + 1] = (uint8_t)(v[i] >> 8);
        }
        return hx_put(u, arg, b, sizeof(b));
    }
    return -ENOTTY;
}

// ---- memory

static uint32_t sys_brk(struct hexsim_user *u, uint32_t want)
{
    if (want < u->brk_start || want >= HEXSIM_USER_MMAP_BASE)
        return u->brk_cur;
    uint32_t old_end = (u->brk_cur + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    uint32_t new_end = (want + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    for (uint32_t a = old_end; a < new_end; a += HEXSIM_PAGE_SIZE)
        if (hexsim_mem_is_mapped(&u->mem, a))
            return u->brk_cur;   // would run into a mapping
    if (new_end > old_end &&
        hexsim_mem_map(&u->mem, old_end, new_end - old_end, HEXSIM_PROT_R | HEXSIM_PROT_W))
        return u->brk_cur;
    if (new_end < old_end)
        hexsim_mem_unmap(&u->mem, new_end, old_end - new_end);
    u->brk_cur = want;
    return want;
}

// True when no page of [addr, addr+len) is mapped; else *next is the page after the first
// mapped one, where a search for free space can go on (no start before it can succeed).
static bool range_free(struct hexsim_user *u, uint32_t addr, uint32_t len, uint64_t *next)
{
    for (uint64_t a = addr; a < (uint64_t)addr + len; a += HEXSIM_PAGE_SIZE)
        if (a >= HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE ||
            hexsim_mem_is_mapped(&u->mem, (uint32_t)a)) {
            *next = a + HEXSIM_PAGE_SIZE;
            return false;
        }
    return true;
}

static unsigned guest_prot(uint32_t p)
{
    return (p & 1 ? HEXSIM_PROT_R : 0) | (p & 2 ? HEXSIM_PROT_W : 0) | (p & 4 ? HEXSIM_PROT_X : 0);
}

static int32_t sys_mmap2(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t prot,
                         uint32_t flags, uint32_t fd, uint32_t pgoff)
{
    enum { MAP_FIXED_ = 0x10, MAP_ANON_ = 0x20 };
    if (len == 0 || len > 0x80000000u || (addr & (HEXSIM_PAGE_SIZE - 1)))
        return -EINVAL;
    uint32_t size = (len + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    int h = -1;
    if (!(flags & MAP_ANON_)) {
        h = hx_host_fd(u, fd);
        if (h < 0)
            return -EBADF;
    }
    uint32_t at;
    if (flags & MAP_FIXED_) {
        if ((uint64_t)addr + size > HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE)
            return -ENOMEM;
        at = addr;
        hexsim_mem_unmap(&u->mem, at, size);
    } else {
        at = 0;
        uint64_t start = addr && addr >= u->brk_cur ? addr : u->mmap_next;
        uint64_t skip;
        // a hint below the program, free for the whole length, is taken as Linux takes it
        // (musl's loader run as a command maps the program at its link address this way)
        if (addr >= 0x10000u && (uint64_t)addr + size <= u->brk_start &&
            range_free(u, addr, size, &skip))
            start = addr;
        for (uint64_t a = start; a + size <= HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE;)
            if (range_free(u, (uint32_t)a, size, &a)) {
                at = (uint32_t)a;
                break;
            }
        if (!at)
            return -ENOMEM;
        if (at + size > u->mmap_next)
            u->mmap_next = at + size;
    }
    if (hexsim_mem_map(&u->mem, at, size, guest_prot(prot)))
        return -ENOMEM;
    if (h >= 0) {   // private copy of the file's bytes (MAP_SHARED writes are not written back)
        uint64_t off = (uint64_t)pgoff * HEXSIM_PAGE_SIZE;
        for (uint32_t done = 0; done < len;) {   // read into the fresh pages (any protection)
            struct iovec iov[64];
            size_t got;
            int f;
            size_t k = hexsim_mem_spans(&u->mem, at + done, len - done, 0, iov, 64, &got, &f);
            ssize_t r = k ? preadv(h, iov, (int)k, (off_t)(off + done)) : -1;
            if (r <= 0)
                break;
            done += (uint32_t)r;
        }
    }
    return (int32_t)at;
}

int64_t sys_mmap_anon(struct hexsim_user *u, uint32_t len, unsigned prot)
{
    uint32_t gp = (prot & HEXSIM_PROT_R ? 1 : 0) | (prot & HEXSIM_PROT_W ? 2 : 0) |
                  (prot & HEXSIM_PROT_X ? 4 : 0);
    return sys_mmap2(u, 0, len, gp, 0x22, ~0u, 0);   // MAP_PRIVATE | MAP_ANONYMOUS
}

static int32_t sys_munmap(struct hexsim_user *u, uint32_t addr, uint32_t len)
{
    if ((addr & (HEXSIM_PAGE_SIZE - 1)) || len == 0)
        return -EINVAL;
    if ((uint64_t)addr + len > HEXSIM_USER_STACK_TOP)
        return -EINVAL;
    hexsim_mem_unmap(&u->mem, addr, len);
    return 0;
}

static int32_t sys_mprotect(struct hexsim_user *u, uint32_t addr, uint32_t len, uint32_t prot)
{
    if (addr & (HEXSIM_PAGE_SIZE - 1))
        return -EINVAL;
    return hexsim_mem_protect(&u->mem, addr, len, guest_prot(prot)) ? -ENOMEM : 0;
}

// ---- time

uint64_t hx_now_ns(struct hexsim_user *u, uint32_t clk)
{
    if (u->opts.host_time) {
        struct timespec ts;
        clock_gettime(clk == 0 ? CLOCK_REALTIME : CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    uint64_t ns = hx_pcycles_to_ns(u->cpu.pcycles);
    // CLOCK_REALTIME, _REALTIME_COARSE, _REALTIME_ALARM, _TAI: the virtual wall clock
    bool wall = clk == 0 || clk == 5 || clk == 8 || clk == 11;
    return wall ? ns + HX_EPOCH_SECONDS * 1000000000ull : ns;
}

static int32_t sys_clock_gettime(struct hexsim_user *u, uint32_t clk, uint32_t addr, bool t64)
{
    if (clk > 11)
        return -EINVAL;
    uint64_t ns = hx_now_ns(u, clk);
    uint8_t b[16] = {0};
    if (t64) {
        hx_le64(b, ns / 1000000000ull);
        hx_le32(b + 8, (uint32_t)(ns % 1000000000ull));
        return hx_put(u, addr, b, 16);
    }
    hx_le32(b, (uint32_t)(ns / 1000000000ull));
    hx_le32(b + 4, (uint32_t)(ns % 1000000000ull));
    return hx_put(u, addr, b, 8);
}

static int32_t sys_gettimeofday(struct hexsim_user *u, uint32_t tv, uint32_t tz)
{
    uint64_t ns = hx_now_ns(u, 0);
    uint8_t b[8];
    if (tv) {
        hx_le32(b, (uint32_t)(ns / 1000000000ull));
        hx_le32(b + 4, (uint32_t)(ns % 1000000000ull / 1000));
        if (hx_put(u, tv, b, 8))
            return -EFAULT;
    }
    if (tz) {
        memset(b, 0, 8);
        if (hx_put(u, tz, b, 8))
            return -EFAULT;
    }
    return 0;
}

int hx_read_timespec(struct hexsim_user *u, uint32_t addr, bool t64, uint64_t *ns)
{
    uint8_t b[16];
    if (hexsim_mem_copy_out(&u->mem, addr, b, t64 ? 16 : 8, HEXSIM_PROT_R, NULL))
        return -EFAULT;
    int64_t sec;
    uint32_t nsec;
    if (t64) {
        uint64_t s = 0;
        for (int i = 7; i >= 0; i--)
            s = s << 8 | b[i];
        sec = (int64_t)s;
        nsec = (uint32_t)b[8] | (uint32_t)b[9] << 8 | (uint32_t)b[10] << 16 | (uint32_t)b[11] << 24;
    } else {
        sec = (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24);
        nsec = (uint32_t)b[4] | (uint32_t)b[5] << 8 | (uint32_t)b[6] << 16 | (uint32_t)b[7] << 24;
    }
    if (sec < 0 || nsec >= 1000000000u)
        return -EINVAL;
    if ((uint64_t)sec > UINT64_MAX / 4000000000ull)   // far beyond any run: "never"
        sec = (int64_t)(UINT64_MAX / 4000000000ull);
    *ns = (uint64_t)sec * 1000000000ull + nsec;
    return 0;
}

int hx_write_timespec(struct hexsim_user *u, uint32_t addr, bool t64, uint64_t ns)
{
    uint8_t b[16] = {0};
    if (t64) {
        hx_le64(b, ns / 1000000000ull);
        hx_le32(b + 8, (uint32_t)(ns % 1000000000ull));
    } else {
        hx_le32(b, (uint32_t)(ns / 1000000000ull));
        hx_le32(b + 4, (uint32_t)(ns % 1000000000ull));
    }
    return hx_put(u, addr, b, t64 ? 16 : 8);
}

// ---- identity

static int32_t sys_uname(struct hexsim_user *u, uint32_t addr)
{
    char b[6 * 65] = {0};
    static const char *const f[6] = { "Linux", "hexsim", "6.1.0", "#1 hexsim", "hexagon", "(none)" };
    for (int i = 0; i < 6; i++)
        strncpy(b + 65 * i, f[i], 64);
    return hx_put(u, addr, b, sizeof(b));
}

static int32_t sys_getrandom(struct hexsim_user *u, uint32_t addr, uint32_t len)
{
    uint8_t tmp[256];
    uint32_t n = len < sizeof(tmp) ? len : (uint32_t)sizeof(tmp);
    for (uint32_t i = 0; i < n; i++) {
        // xorshift64*: reproducible unless host time (and host randomness) is asked for
        uint64_t s = u->rng ? u->rng : 0x9e3779b97f4a7c15ull;
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        u->rng = s;
        tmp[i] = (uint8_t)((s * 0x2545f4914f6cdd1dull) >> 56);
    }
    if (u->opts.host_time) {
        int fd = open("/dev/urandom", O_RDONLY);
        if (fd >= 0) {
            if (read(fd, tmp, n) < 0)
                n = 0;
            close(fd);
        }
    }
    return hx_put(u, addr, tmp, n) ? -EFAULT : (int32_t)n;
}

bool hx_syscall_info(uint32_t nr, const char **name, const char **kinds)
{
    *name = hx_syscall_name(nr);
    *kinds = NULL;
    switch (nr) {
#define INFO_CASE(num, k, call) case num: *kinds = k; break;
    HEXSIM_SYSCALLS(INFO_CASE)
#undef INFO_CASE
    }
    return *kinds && *name;
}

static void warn_once(struct hexsim_user *u, uint32_t nr)
{
    if (nr < 512) {
        if (u->warned_syscalls[nr / 64] >> (nr % 64) & 1)
            return;
        u->warned_syscalls[nr / 64] |= 1ull << (nr % 64);
    }
    const char *name = hx_syscall_name(nr);
    if (name)
        fprintf(u->err, "hexsim: warning: system call %u (%s) is not implemented (returns "
                "-ENOSYS)\n", nr, name);
    else
        fprintf(u->err, "hexsim: warning: system call %u is not implemented (returns -ENOSYS)\n",
                nr);
}

void hexsim_user_syscall(struct hexsim_user *u)
{
    uint32_t *r = u->cpu.r;
    uint32_t nr = r[6];
    struct hx_strace_entry e;   // the call as made (for --strace: r0 and the thread change)
    memcpy(e.a, r, sizeof(e.a));
    e.nr = nr;
    e.pc = u->cpu.pc;
    e.tid = u->os && u->os->n ? u->os->t[u->os->cur].tid : hx_getpid(u);
    e.several = (u->os && u->os->n > 1) || u->proc;
    int64_t ret, y;   // (y: what hx_io_yield decided)
    u->syscalls++;
    u->strace_held.in_call = u->opts.strace;
    if (u->opts.strace && (nr == 221 || nr == 281))
        hx_strace_pre(u, &e);
    switch (nr) {
#define CALL_CASE(num, kinds, call) case num: ret = (call); break;
    HEXSIM_SYSCALLS(CALL_CASE)
#undef CALL_CASE
    default:
        warn_once(u, nr);
        ret = -ENOSYS;
        break;
    }
    u->strace_held.in_call = false;
    if (u->opts.strace)
        hx_strace_call(u, &e, ret);
    if (ret != HX_SYS_NORET)
        r[0] = (uint32_t)ret;
    // another thread may take the vCPU now (this one waits or ended); signals are delivered
    hx_after_syscall(u);
}
