// SPDX-License-Identifier: MIT
// The process state of Linux user mode beyond one vCPU's registers: threads (each with its
// saved registers while another runs, its signal mask and pending signals, what it waits
// for), the process's signal actions, interval and POSIX timers, the current directory and
// umask. Threads take turns on the one vCPU of struct hexsim_user (cpu), round-robin every
// HX_OS_QUANTUM packets and whenever the running one blocks, so a run is the same every time
// and with or without compiled blocks. Facts: Linux 6.1 kernel/fork.c, kernel/futex,
// kernel/signal.c, kernel/time/itimer.c and posix-timers.c; arch/hexagon/kernel/signal.c,
// process.c (copy_thread: CLONE_SETTLS sets UGP), vdso.c; include/uapi/asm-generic
// (signal.h, siginfo.h, ucontext.h, unistd.h).
#ifndef HEXSIM_USER_OS_H
#define HEXSIM_USER_OS_H

#include <stdbool.h>
#include <stdint.h>

#define HX_OS_QUANTUM 20000u     // packets a thread runs before the next one's turn
#define HX_NSIG 64
#define HX_MAX_THREADS 256
#define HX_MAX_TIMERS 32
#define HX_NO_TIME UINT64_MAX
#define HX_MAX_EVFDS 16          // timerfds and signalfds (sys_event.c)

// what a thread waits for (HX_DEAD: it has ended and leaves the table at the next switch)
// (HX_WAIT_RETRY: a call on host descriptors waits for the clock to reach the next timed
// event, then is made again)
enum hx_wait { HX_DEAD = -1, HX_RUNNING, HX_WAIT_FUTEX, HX_WAIT_SLEEP, HX_WAIT_SIGNAL,
               HX_WAIT_RETRY };

// the registers a thread keeps while another runs (the clock, counters and timing state stay
// with the vCPU: they are the process's)
struct hx_regs {
    uint32_t r[32], c[32];
    uint8_t p[4];
    uint32_t pc;
};

// one signal's siginfo fields (asm-generic siginfo.h, 32-bit): si_code, then the union's
// first three words (kill: pid, uid; fault: addr; timer: tid, overrun, value)
struct hx_siginfo {
    int32_t code;
    uint32_t w[3];
};

struct hx_thread {
    int32_t tid;
    int wait;                    // enum hx_wait
    bool interruptible;          // a signal ends the wait (-EINTR, or restart)
    bool restart;                // ... and with SA_RESTART the call is made again
    struct hx_regs regs;         // while not running
    uint32_t clear_tid;          // CLONE_CHILD_CLEARTID / set_tid_address
    uint64_t mask, pending;      // blocked and pending signals (bit sig-1)
    uint64_t saved_mask;         // rt_sigsuspend: the mask to restore after the handler
    bool has_saved_mask;
    uint64_t sigwait;            // rt_sigtimedwait: the signals it waits for
    struct hx_siginfo info[HX_NSIG];
    uint32_t ss_sp, ss_size, ss_flags;   // sigaltstack
    uint32_t futex_addr, futex_bitset;
    uint64_t wait_seq;           // order of futex waiters (FIFO wake)
    uint64_t wake_at;            // pcycles a timed wait ends at (HX_NO_TIME: none)
    uint32_t rem_addr;           // nanosleep: where the time left goes on -EINTR
    bool rem_t64;
};

struct hx_sigaction {
    uint32_t handler, flags;
    uint64_t mask;
};

struct hx_timer {
    bool used;
    uint32_t clock;
    int notify;                  // SIGEV_SIGNAL 0, SIGEV_NONE 1, SIGEV_THREAD_ID 4
    int signo;
    int32_t tid;                 // SIGEV_THREAD_ID target
    uint32_t value;              // sigev_value
    uint64_t next, interval;     // pcycles (next HX_NO_TIME: disarmed)
    uint32_t overrun;
};

// a timerfd or signalfd (struct hexsim_user's evfd table, outside this struct so that
// snapshots keep their layout): the host eventfd the guest's descriptor is (its count is
// the expirations, or 1 while a signal of the mask is pending), made to tick by the process
struct hx_evfd {
    int h;                       // host descriptor (0: free slot; never stdio)
    bool timer;                  // timerfd (else signalfd)
    uint32_t clock;              // timerfd: its clock
    uint64_t next, interval;     // timerfd: pcycles (next HX_NO_TIME: disarmed)
    uint64_t mask;               // signalfd: the signals it reads
};

// a call waiting for host descriptors with a timeout (struct hexsim_user's host_wait
// table, thread.c): the thread, where its call is, when the timeout ends (pcycles)
struct hx_host_wait {
    int32_t tid;                 // 0: free slot
    uint32_t pc;
    uint64_t deadline;
};

struct hexsim_user_os {
    struct hx_thread *t;         // live threads in creation order
    unsigned n, cur;             // how many; which one holds the vCPU
    int32_t next_tid;
    uint64_t wait_seq;
    uint64_t next_switch;        // packet count of the next turn
    struct hx_sigaction act[HX_NSIG + 1];
    uint64_t pending;            // process-directed signals no thread has taken yet
    struct hx_siginfo info[HX_NSIG];
    struct hx_timer itimer[3];   // ITIMER_REAL, _VIRTUAL, _PROF (signo fixed)
    struct hx_timer timers[HX_MAX_TIMERS];
    uint32_t vdso;               // the page holding the signal return trampoline
    int cwd_fd;                  // host directory relative paths start at (-1: hexsim's)
    uint32_t umask;
    int32_t nice;                // setpriority (the process's only one; it changes nothing)
    uint64_t threads_made, switches, handled;   // --stats: threads, thread switches,
                                                //   signals delivered to handlers
    int exit_status_leader;      // exit status of thread 1 when it ended before the others
    bool leader_exited;
};

#endif
