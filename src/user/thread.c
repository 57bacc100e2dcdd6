// SPDX-License-Identifier: MIT
// Threads of a user-mode process on the one vCPU of struct hexsim_user, without host threads:
// clone (CLONE_VM|CLONE_THREAD threads; without CLONE_THREAD a new process: process.c): the
// new thread starts after the trap with the parent's registers, r0 = 0, its own stack,
// UGP = tls with CLONE_SETTLS as
// arch/hexagon/kernel/process.c copy_thread does), set_tid_address and the clear-and-wake at
// thread exit (kernel/fork.c mm_release), exit of one thread against exit_group, futex (wait,
// wake, bitsets, requeue; timeouts on the simulated clock, kernel/futex), nanosleep and
// sched_yield. The running thread's registers are in u->cpu; the others' in their struct
// hx_thread. A thread runs HX_OS_QUANTUM packets, then the next runnable one in creation
// order (hexsim_user_os_tick); a thread that waits gives the vCPU to the next at once, and
// when none can run the clock jumps to the next timed event (a timeout or timer).
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sys.h"

static void init_thread(struct hx_thread *t, int32_t tid)
{
    memset(t, 0, sizeof(*t));
    t->tid = tid;
    t->wait = HX_RUNNING;
    t->wake_at = HX_NO_TIME;
    t->ss_flags = 2;   // SS_DISABLE
}

struct hexsim_user_os *hx_os(struct hexsim_user *u)
{
    if (u->os)
        return u->os;
    struct hexsim_user_os *os = calloc(1, sizeof(*os));
    if (!os)
        return NULL;
    os->t = malloc(sizeof(*os->t));
    if (!os->t) {
        free(os);
        return NULL;
    }
    init_thread(&os->t[0], 1);   // the process is pid 1 (as in a container); its thread too
    os->n = 1;
    os->threads_made = 1;
    os->next_tid = 2;
    os->cwd_fd = -1;
    os->umask = 022;
    for (unsigned i = 0; i < 3; i++)
        os->itimer[i].next = HX_NO_TIME;
    u->os = os;
    return os;
}

void hexsim_user_os_free_state(struct hexsim_user_os *os)
{
    if (!os)
        return;
    if (os->cwd_fd >= 0)
        close(os->cwd_fd);
    free(os->t);
    free(os);
}

void hexsim_user_os_free(struct hexsim_user *u)
{
    hexsim_user_os_free_state(u->os);
    u->os = NULL;
    free(u->evfd);   // (their host descriptors are the guest's, closed with those)
    u->evfd = NULL;
    free(u->host_wait);
    u->host_wait = NULL;
}

void hexsim_user_os_stats(const struct hexsim_user *u, uint64_t *threads, uint64_t *switches,
                          uint64_t *handled)
{
    const struct hexsim_user_os *os = u->os;
    *threads = os ? os->threads_made : 1;
    *switches = os ? os->switches : 0;
    *handled = os ? os->handled : 0;
}

int hx_thread_index(struct hexsim_user_os *os, int32_t tid)
{
    for (unsigned i = 0; i < os->n; i++)
        if (os->t[i].tid == tid && os->t[i].wait != HX_DEAD)
            return (int)i;
    return -1;
}

static void save_regs(struct hexsim_cpu *c, struct hx_regs *r)
{
    memcpy(r->r, c->r, sizeof(r->r));
    memcpy(r->c, c->c, sizeof(r->c));
    memcpy(r->p, c->p, sizeof(r->p));
    r->pc = c->pc;
}

static void load_regs(struct hexsim_cpu *c, const struct hx_regs *r)
{
    memcpy(c->r, r->r, sizeof(r->r));
    memcpy(c->c, r->c, sizeof(r->c));
    memcpy(c->p, r->p, sizeof(r->p));
    c->pc = r->pc;
    c->reserved = false;   // a thread switch loses the LL/SC reservation
}

// True when the scheduler has to look at the process every quantum: another thread, a
// timer that fires on the clock, or host signals that may come from other processes.
static bool needs_turns(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    return os && (os->n > 1 || hx_timers_armed(os) || hx_timerfds_armed(u) ||
                  (u->proc && u->proc->sigfd >= 0));
}

uint64_t hexsim_user_os_stop(struct hexsim_user *u)
{
    return needs_turns(u) ? u->os->next_switch : UINT64_MAX;
}

void hx_want_turns(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (os->next_switch <= u->cpu.packets || os->next_switch > u->cpu.packets + HX_OS_QUANTUM)
        os->next_switch = u->cpu.packets + HX_OS_QUANTUM;
    u->os_resched = true;
}

// Thread tid's entry in the table of timed waits for host descriptors (made when
// make is set; NULL: none, or no memory: then the timeout is the host's).
static struct hx_host_wait *host_wait_of(struct hexsim_user *u, int32_t tid, bool make)
{
    if (!u->host_wait && make)
        u->host_wait = calloc(HX_MAX_THREADS, sizeof(*u->host_wait));
    struct hx_host_wait *free_slot = NULL;
    for (unsigned i = 0; u->host_wait && i < HX_MAX_THREADS; i++) {
        if (u->host_wait[i].tid == tid)
            return &u->host_wait[i];
        if (!u->host_wait[i].tid && !free_slot)
            free_slot = &u->host_wait[i];
    }
    if (!make || !free_slot)
        return NULL;
    *free_slot = (struct hx_host_wait){ tid, 0, HX_NO_TIME };
    return free_slot;
}

void hx_wake(struct hexsim_user *u, unsigned i, int32_t r)
{
    struct hexsim_user_os *os = u->os;
    struct hx_thread *t = &os->t[i];
    struct hx_host_wait *w = host_wait_of(u, t->tid, false);
    if (w)
        w->tid = 0;   // a wait for host descriptors ends (-EINTR): its timeout with it
    t->wait = HX_RUNNING;
    t->wake_at = HX_NO_TIME;
    if (i == os->cur)
        u->cpu.r[0] = (uint32_t)r;
    else
        t->regs.r[0] = (uint32_t)r;
    if (u->opts.strace)
        hx_strace_resumed(u, i, r);
}

void hx_wait(struct hexsim_user *u, int what, uint64_t wake_at, bool interruptible,
             bool restart)
{
    struct hx_thread *t = &u->os->t[u->os->cur];
    t->wait = what;
    t->wake_at = wake_at;
    t->interruptible = interruptible;
    t->restart = restart;
}

// Drops ended threads from the table (keeping the order and the running one's index).
static void reap(struct hexsim_user_os *os)
{
    unsigned j = 0;
    for (unsigned i = 0; i < os->n; i++) {
        if (os->t[i].wait == HX_DEAD)
            continue;
        if (i == os->cur)
            os->cur = j;
        if (i != j)
            os->t[j] = os->t[i];
        j++;
    }
    os->n = j;
}

static void switch_to(struct hexsim_user *u, unsigned i)
{
    struct hexsim_user_os *os = u->os;
    if (i == os->cur)
        return;
    if (os->t[os->cur].wait != HX_DEAD)
        save_regs(&u->cpu, &os->t[os->cur].regs);
    load_regs(&u->cpu, &os->t[i].regs);
    os->cur = i;
    os->switches++;
}

// Wakes the threads whose timed wait has ended.
static void wake_timed(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    for (unsigned i = 0; i < os->n; i++) {
        struct hx_thread *t = &os->t[i];
        if (t->wait == HX_WAIT_RETRY && u->cpu.pcycles >= t->wake_at) {
            t->wait = HX_RUNNING;   // the call is made again (its r0 is still the argument)
            t->wake_at = HX_NO_TIME;
            if (i == os->cur)
                u->cpu.pc -= 4;
            else
                t->regs.pc -= 4;
        } else if (t->wait > HX_RUNNING && t->wake_at != HX_NO_TIME &&
                   u->cpu.pcycles >= t->wake_at) {
            hx_wake(u, i, t->wait == HX_WAIT_SLEEP ? 0 : t->wait == HX_WAIT_SIGNAL ? -EAGAIN
                                                                        : -ETIMEDOUT);
        }
    }
}

// Gives the vCPU to the first runnable thread after the running one (the running one last);
// when none can run, moves the clock to the next timed event and tries again. A process
// whose threads all wait for nothing that can come ends, with a message.
static void schedule(struct hexsim_user *u, bool rotate)
{
    struct hexsim_user_os *os = u->os;
    for (;;) {
        if (u->exited)
            return;
        unsigned n = os->n;
        for (unsigned k = rotate ? 1 : 0; k <= n; k++) {
            unsigned i = (os->cur + k) % n;
            if (os->t[i].wait == HX_RUNNING) {
                switch_to(u, i);
                reap(os);
                os->next_switch = u->cpu.packets + HX_OS_QUANTUM;
                return;
            }
        }
        uint64_t next = hx_timers_run(u);
        for (unsigned i = 0; i < n; i++)
            if (os->t[i].wait > HX_RUNNING && os->t[i].wake_at < next)
                next = os->t[i].wake_at;
        if (next == HX_NO_TIME && u->proc && u->proc->sigfd >= 0) {
            // another process may still send one: wait for the host's signals
            hx_proc_signals(u, -1);
            rotate = false;
            continue;
        }
        if (next == HX_NO_TIME) {
            fprintf(u->err, "hexsim: every thread of the process waits (futex, signal or "
                    "sleep) and nothing can wake one: ending it (exit status 124)\n");
            u->exited = true;
            u->exit_status = 124;
            return;
        }
        if (next > u->cpu.pcycles)
            u->cpu.pcycles = next;
        hx_timers_run(u);
        wake_timed(u);
        rotate = false;
    }
}

void hx_after_syscall(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (!os || u->exited)
        return;
    if (os->t[os->cur].wait != HX_RUNNING)
        schedule(u, true);
    hx_deliver_signals(u);
}

void hexsim_user_os_tick(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (!os || u->exited)
        return;
    hx_proc_signals(u, 0);
    hx_timers_run(u);
    wake_timed(u);
    schedule(u, true);
    hx_deliver_signals(u);
}

bool hx_yield_retry(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    bool other = false;
    for (unsigned i = 0; os && i < os->n && !other; i++)
        other = i != os->cur && os->t[i].wait == HX_RUNNING;
    if (!other)
        return false;
    u->cpu.pc -= 4;   // the call is made again at this thread's next turn
    schedule(u, true);
    return true;
}

int64_t hx_wait_host(struct hexsim_user *u, struct pollfd *p, unsigned n, uint64_t *ns)
{
    struct hexsim_user_os *os = u->os;
    if (!os)
        return 0;
    int32_t tid = os->t[os->cur].tid;
    // a timeout runs on the simulated clock from the call's first try
    struct hx_host_wait *w = host_wait_of(u, tid, ns && *ns != UINT64_MAX);
    if (w && (w->pc != u->cpu.pc || w->deadline == HX_NO_TIME)) {
        w->pc = u->cpu.pc;
        w->deadline = u->cpu.pcycles + hx_ns_to_pcycles(*ns);
    }
    uint64_t deadline = w ? w->deadline : HX_NO_TIME;
    hx_signalfd_sync(u);
    if (poll(p, n, 0) != 0)
        goto go;    // ready (or an error the call reports)
    if (u->cpu.pcycles >= deadline) {
        *ns = 0;    // timed out: the call looks once more and returns
        goto go;
    }
    for (unsigned i = 0; i < os->n; i++)
        if (i != os->cur && os->t[i].wait == HX_RUNNING) {
            u->cpu.pc -= 4; // the call is made again at this thread's next turn
            schedule(u, true);
            return HX_SYS_NORET;
        }
    // the next timed event (a timer, timerfd, another thread's timeout, the call's own)
    uint64_t next = hx_timers_run(u);
    for (unsigned i = 0; i < os->n; i++)
        if (i != os->cur && os->t[i].wait > HX_RUNNING && os->t[i].wake_at < next)
            next = os->t[i].wake_at;
    if (deadline < next)
        next = deadline;
    hx_signalfd_sync(u);
    if (poll(p, n, 0) != 0 || next == HX_NO_TIME)
        goto go;    // ready, or nothing else can happen first: the host waits
    hx_wait(u, HX_WAIT_RETRY, next, true, true);
    return HX_SYS_NORET;
go:
    if (w) {
        if (*ns)   // (only other processes' doings can end it now: the host waits the rest)
            *ns = hx_pcycles_to_ns(deadline - u->cpu.pcycles);
        w->tid = 0;
    }
    return 0;
}

int64_t hx_io_yield(struct hexsim_user *u, uint32_t fd, bool wr)
{
    struct hexsim_user_os *os = u->os;
    int h = hx_host_fd(u, fd);
    if (!os || h < 0)
        return 0;
    int fl = fcntl(h, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        return 0;       // the host call does not wait (-EAGAIN)
    struct pollfd p[2] = { { h, wr ? POLLOUT : POLLIN, 0 }, { -1, POLLIN, 0 } };
    int64_t y = hx_wait_host(u, p, 1, NULL);
    if (y)
        return y;
    if (!u->proc || u->proc->sigfd < 0)
        return 0;       // the host call waits
    // other processes may signal this one meanwhile: wait for the descriptor or a signal
    p[1].fd = u->proc->sigfd;
    for (;;) {
        if (poll(p, 2, -1) < 0 && errno != EINTR)
            return 0;
        if (p[0].revents)
            return 0;
        hx_proc_signals(u, 0);
        if (hx_signal_ready(u))
            return hx_interrupted(u);
    }
}

// ---- system calls

int64_t sys_clone(struct hexsim_user *u, uint32_t flags, uint32_t sp, uint32_t ptid,
                  uint32_t ctid, uint32_t tls)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (!(flags & HX_CLONE_THREAD))
        return hx_fork(u, flags, sp, ptid, ctid, tls);   // a new process (process.c)
    if (!(flags & HX_CLONE_VM) || (flags & HX_CLONE_VFORK))
        return -EINVAL;
    if (os->n >= HX_MAX_THREADS)
        return -EAGAIN;
    struct hx_thread *nt = realloc(os->t, (os->n + 1) * sizeof(*nt));
    if (!nt)
        return -ENOMEM;
    os->t = nt;
    int32_t tid = hx_new_id(u);
    if (tid < 0)
        return -EAGAIN;
    if ((flags & HX_CLONE_PARENT_SETTID) && hx_put32(u, ptid, (uint32_t)tid))
        return -EFAULT;
    struct hx_thread *parent = &os->t[os->cur], *c = &os->t[os->n];
    init_thread(c, tid);
    c->mask = parent->mask;
    save_regs(&u->cpu, &c->regs);
    c->regs.r[0] = 0;
    if (sp)
        c->regs.r[29] = sp;
    if (flags & HX_CLONE_SETTLS)
        c->regs.c[HX_UGP] = tls;
    if (flags & HX_CLONE_CHILD_CLEARTID)
        c->clear_tid = ctid;
    if ((flags & HX_CLONE_CHILD_SETTID) && hx_put32(u, ctid, (uint32_t)tid))
        return -EFAULT;
    os->n++;
    os->threads_made++;
    hx_want_turns(u);
    return tid;
}

int64_t sys_set_tid_address(struct hexsim_user *u, uint32_t addr)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    os->t[os->cur].clear_tid = addr;
    return os->t[os->cur].tid;
}

int64_t sys_gettid(struct hexsim_user *u)
{
    return u->os ? u->os->t[u->os->cur].tid : 1;
}

static int futex_wake(struct hexsim_user *u, uint32_t addr, uint32_t n, uint32_t bitset);

int64_t sys_exit_thread(struct hexsim_user *u, uint32_t status)
{
    struct hexsim_user_os *os = u->os;
    if (!os || os->n == 1) {
        // the last thread: the process ends with the main thread's status if it ended first
        // (what wait reports: the group leader's exit code)
        return sys_exit_group(u, os && os->leader_exited ? (uint32_t)os->exit_status_leader
                                                         : status);
    }
    struct hx_thread *t = &os->t[os->cur];
    if (t->clear_tid && !hx_put32(u, t->clear_tid, 0))
        futex_wake(u, t->clear_tid, 1, ~0u);
    if (t->tid == hx_getpid(u)) {
        os->leader_exited = true;
        os->exit_status_leader = (int)(status & 0xff);
    }
    t->wait = HX_DEAD;
    hx_want_turns(u);
    return HX_SYS_NORET;
}

int64_t sys_exit_group(struct hexsim_user *u, uint32_t status)
{
    u->exited = true;
    u->exit_status = (int)(status & 0xff);
    return HX_SYS_NORET;
}

// ---- futex

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define FUTEX_REQUEUE 3
#define FUTEX_CMP_REQUEUE 4
#define FUTEX_WAIT_BITSET 9
#define FUTEX_WAKE_BITSET 10
#define FUTEX_PRIVATE 128
#define FUTEX_CLOCK_REALTIME 256

// The waiter on addr matching bitset that has waited longest (-1: none).
static int oldest_waiter(struct hexsim_user_os *os, uint32_t addr, uint32_t bitset)
{
    int best = -1;
    for (unsigned i = 0; i < os->n; i++) {
        struct hx_thread *t = &os->t[i];
        if (t->wait == HX_WAIT_FUTEX && t->futex_addr == addr && (t->futex_bitset & bitset) &&
            (best < 0 || t->wait_seq < os->t[best].wait_seq))
            best = (int)i;
    }
    return best;
}

static int futex_wake(struct hexsim_user *u, uint32_t addr, uint32_t n, uint32_t bitset)
{
    int woken = 0;
    while ((uint32_t)woken < n) {
        int i = oldest_waiter(u->os, addr, bitset);
        if (i < 0)
            break;
        hx_wake(u, (unsigned)i, 0);
        woken++;
    }
    return woken;
}

// A timeout in pcycles from now for a relative (FUTEX_WAIT) or absolute (WAIT_BITSET) time.
static int futex_deadline(struct hexsim_user *u, uint32_t timeout, bool abs, uint32_t clk,
                          bool t64, uint64_t *at)
{
    *at = HX_NO_TIME;
    if (!timeout)
        return 0;
    uint64_t ns;
    int e = hx_read_timespec(u, timeout, t64, &ns);
    if (e)
        return e;
    if (abs) {
        uint64_t now = hx_now_ns(u, clk);
        ns = ns > now ? ns - now : 0;
    }
    *at = u->cpu.pcycles + hx_ns_to_pcycles(ns);
    return 0;
}

int64_t sys_futex(struct hexsim_user *u, uint32_t addr, uint32_t op, uint32_t val,
                  uint32_t timeout, uint32_t addr2, uint32_t val3, bool t64)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    uint32_t cmd = op & ~(uint32_t)(FUTEX_PRIVATE | FUTEX_CLOCK_REALTIME);
    if ((op & FUTEX_CLOCK_REALTIME) && cmd != FUTEX_WAIT_BITSET && cmd != FUTEX_WAIT)
        return -ENOSYS;
    if (addr & 3)
        return -EINVAL;
    uint32_t cur;
    switch (cmd) {
    case FUTEX_WAIT:
    case FUTEX_WAIT_BITSET: {
        uint32_t bitset = cmd == FUTEX_WAIT ? ~0u : val3;
        if (!bitset)
            return -EINVAL;
        uint64_t at;
        int e = futex_deadline(u, timeout, cmd == FUTEX_WAIT_BITSET,
                               op & FUTEX_CLOCK_REALTIME ? 0 : 1, t64, &at);
        if (e)
            return e;
        if (hx_get32(u, addr, &cur))
            return -EFAULT;
        if (cur != val)
            return -EAGAIN;
        struct hx_thread *t = &os->t[os->cur];
        t->futex_addr = addr;
        t->futex_bitset = bitset;
        t->wait_seq = os->wait_seq++;
        // without a timeout a handler with SA_RESTART makes the call again (-ERESTARTSYS);
        // with one it returns -EINTR (restart_block)
        hx_wait(u, HX_WAIT_FUTEX, at, true, at == HX_NO_TIME);
        return HX_SYS_NORET;
    }
    case FUTEX_WAKE:
    case FUTEX_WAKE_BITSET:
        if (cmd == FUTEX_WAKE_BITSET && !val3)
            return -EINVAL;
        return futex_wake(u, addr, val, cmd == FUTEX_WAKE ? ~0u : val3);
    case FUTEX_REQUEUE:
    case FUTEX_CMP_REQUEUE: {
        if (addr2 & 3)
            return -EINVAL;
        if (cmd == FUTEX_CMP_REQUEUE) {
            if (hx_get32(u, addr, &cur))
                return -EFAULT;
            if (cur != val3)
                return -EAGAIN;
        }
        int n = futex_wake(u, addr, val, ~0u);
        uint32_t moved = 0, limit = timeout;   // val2 comes in the timeout argument
        for (int i; moved < limit && (i = oldest_waiter(os, addr, ~0u)) >= 0; moved++)
            os->t[i].futex_addr = addr2;
        return n + (int64_t)moved;
    }
    default:
        return -ENOSYS;
    }
}

int64_t sys_sched_yield(struct hexsim_user *u)
{
    if (u->os && u->os->n > 1) {
        u->cpu.r[0] = 0;
        schedule(u, true);
        return HX_SYS_NORET;
    }
    return 0;
}

static uint64_t host_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

// --host-time sleep of a process that other processes may signal: a signal it takes ends
// the sleep (-EINTR, the time left in rem)
static int64_t host_sleep_signals(struct hexsim_user *u, uint64_t ns, uint32_t rem, bool t64)
{
    uint64_t end = host_ns() + ns;
    for (uint64_t now; (now = host_ns()) < end;) {
        uint64_t ms = (end - now + 999999) / 1000000;
        struct pollfd pf = { u->proc->sigfd, POLLIN, 0 };
        if (poll(&pf, 1, ms > 0x7fffffff ? 0x7fffffff : (int)ms) <= 0)
            continue;
        hx_proc_signals(u, 0);
        if (hx_signal_ready(u)) {
            now = host_ns();
            if (rem)
                hx_write_timespec(u, rem, t64, end > now ? end - now : 0);
            return -EINTR;
        }
    }
    return 0;
}

int64_t sys_clock_nanosleep(struct hexsim_user *u, uint32_t clk, uint32_t flags, uint32_t req,
                            uint32_t rem, bool t64)
{
    uint64_t ns;
    if (clk > 11 || clk == 3)   // (CLOCK_THREAD_CPUTIME_ID cannot be slept on)
        return -EINVAL;
    int e = hx_read_timespec(u, req, t64, &ns);
    if (e)
        return e;
    if (flags & 1) {   // TIMER_ABSTIME
        uint64_t now = hx_now_ns(u, clk);
        ns = ns > now ? ns - now : 0;
        rem = 0;       // an absolute sleep reports no time left
    }
    if (u->opts.host_time && (!u->os || (u->os->n == 1 && !hx_timers_armed(u->os)))) {
        // one thread, no timer: a host sleep
        if (u->proc && u->proc->sigfd >= 0)
            return host_sleep_signals(u, ns, rem, t64);
        struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
        while (nanosleep(&ts, &ts) && errno == EINTR)
            ;
        return 0;
    }
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    struct hx_thread *t = &os->t[os->cur];
    t->rem_addr = rem;
    t->rem_t64 = t64;
    hx_wait(u, HX_WAIT_SLEEP, u->cpu.pcycles + hx_ns_to_pcycles(ns), true, false);
    return HX_SYS_NORET;
}
