// SPDX-License-Identifier: MIT
// Internal interface of the user-mode system calls (syscall.c dispatches; sys_fs.c,
// sys_misc.c, thread.c, signal.c and timer.c implement groups of calls): guest memory
// helpers, descriptor lookup, the clock, and each group's calls. A call returns the value
// for r0 (or -errno), or HX_SYS_NORET when it set the registers itself (rt_sigreturn) or the
// thread now waits (the wake-up writes r0) or has ended.
#ifndef HEXSIM_USER_SYS_H
#define HEXSIM_USER_SYS_H

#include <errno.h>
#include <poll.h>
#include <stdint.h>

#include "os.h"
#include "proc.h"
#include "user.h"

#define HX_SYS_NORET INT64_MIN
#define HX_PCYCLE_HZ 600000000ull       // Hexagon Linux's pcycle rate (setup_arch: 600 MHz)
#define HX_EPOCH_SECONDS 1767225600ull  // virtual wall clock starts at 2026-01-01 00:00:00 UTC
#define HX_AT_FDCWD (-100)
#define HX_MAX_FDS 64

static inline int hx_put(struct hexsim_user *u, uint32_t addr, const void *p, size_t n)
{
    return hexsim_mem_copy_in(&u->mem, addr, p, n, false, NULL) ? -EFAULT : 0;
}

static inline int hx_get(struct hexsim_user *u, uint32_t addr, void *p, size_t n)
{
    return hexsim_mem_copy_out(&u->mem, addr, p, n, HEXSIM_PROT_R, NULL) ? -EFAULT : 0;
}

static inline int hx_put32(struct hexsim_user *u, uint32_t addr, uint32_t v)
{
    uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    return hx_put(u, addr, b, 4);
}

static inline int hx_get32(struct hexsim_user *u, uint32_t addr, uint32_t *v)
{
    uint8_t b[4];
    if (hx_get(u, addr, b, 4))
        return -EFAULT;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    return 0;
}

static inline int hx_get64(struct hexsim_user *u, uint32_t addr, uint64_t *v)
{
    uint32_t lo, hi;
    if (hx_get32(u, addr, &lo) || hx_get32(u, addr + 4, &hi))
        return -EFAULT;
    *v = (uint64_t)hi << 32 | lo;
    return 0;
}

static inline void hx_le32(uint8_t *b, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static inline void hx_le64(uint8_t *b, uint64_t v)
{
    hx_le32(b, (uint32_t)v);
    hx_le32(b + 4, (uint32_t)(v >> 32));
}

static inline int hx_host_fd(struct hexsim_user *u, uint32_t fd)
{
    return fd < HX_MAX_FDS ? u->guest_fd_map[fd] : -1;
}

// guest_io.c
// One host read or write (readv/writev; preadv/pwritev at off when off >= 0) of the guest
// buffers seg[0..n) (address, length), straight into or out of guest memory; a write goes on
// until all is written or the host takes less. Bytes moved or -errno (-EFAULT: the first
// byte cannot be reached; a later unreachable one ends the transfer there).
int64_t hx_guest_io(struct hexsim_user *u, int h, bool wr, const uint32_t (*seg)[2], size_t n,
                    int64_t off);
// A guest iovec array (iov, cnt entries) into seg (room for 1024): 0, -EFAULT or -EINVAL
// (over UIO_MAXIOV entries, a negative length); the total is cut at MAX_RW_COUNT.
int hx_read_iovec(struct hexsim_user *u, uint32_t iov, uint32_t cnt, uint32_t (*seg)[2]);
// The same for a guest iovec array at iov of cnt entries (readv, writev).
int64_t hx_guest_io_vec(struct hexsim_user *u, int h, bool wr, uint32_t iov, uint32_t cnt,
                        int64_t off);

// sysnames.c: the name of call nr (asm-generic numbers, strace's names), NULL for none
const char *hx_syscall_name(uint32_t nr);
// syscall.c
// The name (NULL: no such call) and argument kinds (see HEXSIM_SYSCALLS; NULL: not
// implemented) of call nr: false unless both are known.
bool hx_syscall_info(uint32_t nr, const char **name, const char **kinds);
int hx_copy_str(struct hexsim_user *u, uint32_t addr, char *buf, size_t len);
int32_t hx_new_guest_fd(struct hexsim_user *u, int hfd, uint32_t lowest);
int hx_resolve_at(struct hexsim_user *u, uint32_t dirfd, uint32_t path, char *p, size_t n,
                  int *hd);
int hx_open_flags(uint32_t g);
uint32_t hx_guest_open_flags(int h);
uint64_t hx_now_ns(struct hexsim_user *u, uint32_t clk);
// timer.c: a struct itimerspec (32- or 64-bit seconds) of a timer due at pcycle next
// (HX_NO_TIME: disarmed) with this interval (pcycles): 0 or -EFAULT
int hx_put_itimerspec(struct hexsim_user *u, uint32_t addr, uint64_t next, uint64_t interval,
                      bool t64);
// a guest timespec (32- or 64-bit seconds) in ns: 0, -EFAULT or -EINVAL
int hx_read_timespec(struct hexsim_user *u, uint32_t addr, bool t64, uint64_t *ns);
int hx_write_timespec(struct hexsim_user *u, uint32_t addr, bool t64, uint64_t ns);
static inline uint64_t hx_ns_to_pcycles(uint64_t ns)
{
    return ns / 1000000000ull * HX_PCYCLE_HZ + ns % 1000000000ull * HX_PCYCLE_HZ / 1000000000ull;
}
static inline uint64_t hx_pcycles_to_ns(uint64_t c)
{
    return c / HX_PCYCLE_HZ * 1000000000ull + c % HX_PCYCLE_HZ * 1000000000ull / HX_PCYCLE_HZ;
}

// thread.c
struct hexsim_user_os *hx_os(struct hexsim_user *u);   // made on first use; NULL: no memory
int64_t sys_clone(struct hexsim_user *u, uint32_t flags, uint32_t sp, uint32_t ptid,
                  uint32_t ctid, uint32_t tls);
int64_t sys_set_tid_address(struct hexsim_user *u, uint32_t addr);
int64_t sys_gettid(struct hexsim_user *u);
int64_t sys_exit_thread(struct hexsim_user *u, uint32_t status);
int64_t sys_exit_group(struct hexsim_user *u, uint32_t status);
int64_t sys_futex(struct hexsim_user *u, uint32_t addr, uint32_t op, uint32_t val,
                  uint32_t timeout, uint32_t addr2, uint32_t val3, bool t64);
int64_t sys_sched_yield(struct hexsim_user *u);
int64_t sys_clock_nanosleep(struct hexsim_user *u, uint32_t clk, uint32_t flags, uint32_t req,
                            uint32_t rem, bool t64);
// The running thread waits (wake_at: pcycles or HX_NO_TIME); the call returns HX_SYS_NORET.
void hx_wait(struct hexsim_user *u, int what, uint64_t wake_at, bool interruptible,
             bool restart);
// Ends thread i's wait with result r (written to its r0).
void hx_wake(struct hexsim_user *u, unsigned i, int32_t r);
// After a system call: if the running thread waits or ended, another takes the vCPU (the
// clock moves on to the next timed event when none can run); then signals are delivered.
void hx_after_syscall(struct hexsim_user *u);
// A thread or timer appeared: the run loop's span ends so that its turns begin.
void hx_want_turns(struct hexsim_user *u);
int hx_thread_index(struct hexsim_user_os *os, int32_t tid);   // -1: none
// Before a read (or write) of guest descriptor fd that may block the host: when another
// thread could run, that one runs and the call is made again later (HX_SYS_NORET); when
// other processes may send signals, they interrupt the wait (-EINTR, or HX_SYS_NORET to
// restart after an SA_RESTART handler). 0: make the call.
int64_t hx_io_yield(struct hexsim_user *u, uint32_t fd, bool wr);
// Before a call that may wait for host descriptors p[0..n) (poll events) for up to *ns
// (NULL or UINT64_MAX: no limit; the limit runs on the simulated clock from the call's
// first try): 0 when one is ready, the time is up (*ns is then 0) or nothing else can
// happen first (the host waits, *ns the time left); HX_SYS_NORET when another thread runs
// meanwhile, or the clock moves to the next timed event (timers, timerfds, other threads'
// timeouts, the call's own), after which the call is made again.
int64_t hx_wait_host(struct hexsim_user *u, struct pollfd *p, unsigned n, uint64_t *ns);
// sys_misc.c: a host poll of fds[0..n) (room for one more) for up to ns (UINT64_MAX: no
// limit) with the guest signal mask at sigmask (0: none) in force: ready count or -errno
// (-EINTR: a signal came); with no valid descriptor a sleep on the simulated clock.
int64_t hx_poll_wait(struct hexsim_user *u, struct pollfd *fds, unsigned n, uint64_t ns,
                     uint32_t sigmask);
// A call that would wait while another thread can run: that one runs and the call is made
// again at this thread's next turn (true: return HX_SYS_NORET); false: none can run.
bool hx_yield_retry(struct hexsim_user *u);

// process.c (proc.h has the process table)
int64_t sys_wait4(struct hexsim_user *u, uint32_t pid, uint32_t status, uint32_t options,
                  uint32_t rusage);
int64_t sys_waitid(struct hexsim_user *u, uint32_t which, uint32_t id, uint32_t infop,
                   uint32_t options, uint32_t rusage);
int64_t sys_getppid(struct hexsim_user *u);
int64_t sys_getpgid(struct hexsim_user *u, uint32_t pid, bool sid);   // getpgid, getsid
int64_t sys_setpgid(struct hexsim_user *u, uint32_t pid, uint32_t pgid);
int64_t sys_setsid(struct hexsim_user *u);
// kill() once there are several processes: pid > 0 that one, 0 the caller's group, -1
// every process but 1 and the caller, < -1 group -pid
int64_t hx_proc_kill(struct hexsim_user *u, int32_t pid, int sig);

// exec.c
int64_t sys_execve(struct hexsim_user *u, uint32_t dirfd, uint32_t path, uint32_t argv,
                   uint32_t envp, uint32_t flags);

// signal.c
int64_t sys_rt_sigaction(struct hexsim_user *u, uint32_t sig, uint32_t act, uint32_t oact,
                         uint32_t size);
int64_t sys_rt_sigprocmask(struct hexsim_user *u, uint32_t how, uint32_t set, uint32_t oset,
                           uint32_t size);
int64_t sys_rt_sigpending(struct hexsim_user *u, uint32_t set, uint32_t size);
int64_t sys_rt_sigsuspend(struct hexsim_user *u, uint32_t set, uint32_t size);
int64_t sys_sigaltstack(struct hexsim_user *u, uint32_t ss, uint32_t oss);
int64_t sys_kill(struct hexsim_user *u, uint32_t pid, uint32_t sig);
int64_t sys_tgkill(struct hexsim_user *u, uint32_t tgid, uint32_t tid, uint32_t sig);
int64_t sys_rt_sigreturn(struct hexsim_user *u);
// rt_sigqueueinfo (tid ~0: to the process) and rt_tgsigqueueinfo
int64_t sys_rt_sigqueueinfo(struct hexsim_user *u, uint32_t tgid, uint32_t tid, uint32_t sig,
                            uint32_t uinfo);
int64_t sys_rt_sigtimedwait(struct hexsim_user *u, uint32_t set, uint32_t info,
                            uint32_t timeout, uint32_t size, bool t64);
// Sends sig to thread i (i < 0: to the process, which picks the thread).
void hx_signal(struct hexsim_user *u, int i, int sig, const struct hx_siginfo *info);
// A write's result r: -EPIPE also sends the running thread SIGPIPE. Returns r.
int64_t hx_sigpipe(struct hexsim_user *u, int64_t r);
// The signal the running thread would take next (pending, not blocked, not ignored; 0:
// none), and the result of a waiting call it interrupts: -EINTR, or with an SA_RESTART
// handler HX_SYS_NORET with the call to be made again after the handler.
int hx_signal_ready(struct hexsim_user *u);
int64_t hx_interrupted(struct hexsim_user *u);
// Delivers the running thread's pending unblocked signals (handler frames, default actions).
void hx_deliver_signals(struct hexsim_user *u);
// "SIGSEGV" for 11; NULL for a real-time or unknown number
const char *hx_signal_name(int sig);
// The signal and siginfo a fault event raises (0: none; SIGILL for an undecodable packet)
int hx_fault_siginfo(const struct hexsim_event_info *ev, struct hx_siginfo *info);
// Maps the vdso page holding the signal return trampoline (at load).
int hx_map_vdso(struct hexsim_user *u);

// strace.c (--strace): a call as made (by thread tid, one of several or not, at pc) and its
// result; a waiting
// call's end (hx_wake); a signal delivered (after the ignore check); the end by a signal.
struct hx_strace_entry {
    uint32_t nr, a[6], pc;
    int32_t tid;
    bool several;
};
void hx_strace_call(struct hexsim_user *u, const struct hx_strace_entry *e, int64_t ret);
// execve: its arguments decoded now, for the line written after the image is replaced
void hx_strace_pre(struct hexsim_user *u, const struct hx_strace_entry *e);
void hx_strace_resumed(struct hexsim_user *u, unsigned i, int32_t r);
void hx_strace_signal(struct hexsim_user *u, int sig, const struct hx_siginfo *info);
void hx_strace_killed(struct hexsim_user *u, int sig);
// strace_errno.c: the name (and text) of errno e, NULL for an unknown one
const char *hx_errno_name(int e, const char **text);

// sys_event.c: timerfds and signalfds on the process's clock and signals
// Fires the timerfds due now; the earliest next expiry (HX_NO_TIME: none).
uint64_t hx_timerfds_run(struct hexsim_user *u);
bool hx_timerfds_armed(const struct hexsim_user *u);
// Makes each signalfd readable exactly while a signal of its mask is pending.
void hx_signalfd_sync(struct hexsim_user *u);
// The guest closed host descriptor h: a timerfd or signalfd on it ends.
void hx_evfd_closed(struct hexsim_user *u, int h);
// read() of a signalfd (guest fd on host h): signalfd_siginfo records; -1: h is not one.
int64_t hx_signalfd_read(struct hexsim_user *u, int h, uint32_t buf, uint32_t len);
// signal.c: takes signal sig off the thread's or the process's pending set, its siginfo
struct hx_siginfo hx_take_signal(struct hexsim_user_os *os, struct hx_thread *t, int sig);

// timer.c
// A timer due at *next (pcycles; HX_NO_TIME: disarmed) with this interval, at now: the
// periods that have passed (0: not due), *next moved past them (disarmed without interval)
uint64_t hx_timer_due(uint64_t *next, uint64_t interval, uint64_t now);
int64_t sys_setitimer(struct hexsim_user *u, uint32_t which, uint32_t nv, uint32_t ov);
int64_t sys_getitimer(struct hexsim_user *u, uint32_t which, uint32_t cv);
int64_t sys_timer_create(struct hexsim_user *u, uint32_t clk, uint32_t sev, uint32_t idp);
int64_t sys_timer_settime(struct hexsim_user *u, uint32_t id, uint32_t flags, uint32_t nv,
                          uint32_t ov, bool t64);
int64_t sys_timer_gettime(struct hexsim_user *u, uint32_t id, uint32_t cv, bool t64);
int64_t sys_timer_getoverrun(struct hexsim_user *u, uint32_t id);
int64_t sys_timer_delete(struct hexsim_user *u, uint32_t id);
// Fires the timers due at the current clock; gives the earliest next expiry (HX_NO_TIME).
uint64_t hx_timers_run(struct hexsim_user *u);
bool hx_timers_armed(struct hexsim_user_os *os);

#endif
