// SPDX-License-Identifier: MIT
// Signals of a user-mode process: actions (rt_sigaction with SA_SIGINFO, SA_ONSTACK,
// SA_RESTART, SA_NODEFER, SA_RESETHAND; Hexagon has no SA_RESTORER, so the kernel's struct
// is handler, flags, mask), per-thread masks and pending sets, process-directed signals,
// sigaltstack, rt_sigsuspend, rt_sigtimedwait, kill/tkill/tgkill, faults turned into
// SIGSEGV/SIGBUS/SIGILL/SIGTRAP for a handler, default actions (end with 128+N; ignore;
// the stop signals are ignored: user mode has no job control), and delivery exactly as
// arch/hexagon/kernel/signal.c does it: struct rt_sigframe { u32 tramp[2]; siginfo (128
// bytes); struct ucontext (flags, link, stack_t, sigcontext = user_regs_struct of 48 words,
// sigmask) } 8-aligned below the stack pointer (or at the top of the alternate stack), the
// two magic trampoline words in tramp, r0 = signal, r1 = &info, r2 = &uc, r31 = the vdso's
// trampoline `r6 = #139; trap0(#1)`, and rt_sigreturn reading the frame at r29. A system
// call a signal interrupts returns -EINTR, or with SA_RESTART (calls that restart) is made
// again: PC back to the trap, r0 as it was (signal.c handle_signal).
#include <stdio.h>
#include <string.h>

#include "cpu/exec.h"
#include "sys.h"

#define SA_SIGINFO 4u
#define SA_ONSTACK 0x08000000u
#define SA_RESTART 0x10000000u
#define SA_NODEFER 0x40000000u
#define SA_RESETHAND 0x80000000u
#define SIG_DFL_ 0u
#define SIG_IGN_ 1u
#define SS_ONSTACK 1u
#define SS_DISABLE 2u
#define MINSIGSTKSZ 2048u
#define SI_USER 0
#define SI_KERNEL 0x80
#define SI_TKILL (-6)
#define FRAME_SIZE 360u
#define FRAME_INFO 8u
#define FRAME_UC 136u
#define FRAME_MCTX 160u
#define FRAME_MASK 352u

#define BIT(sig) (1ull << ((sig) - 1))
#define UNBLOCKABLE (BIT(9) | BIT(19))   // SIGKILL, SIGSTOP

static const char *const sig_names[HX_NSIG + 1] = {
    [1] = "SIGHUP", [2] = "SIGINT", [3] = "SIGQUIT", [4] = "SIGILL", [5] = "SIGTRAP",
    [6] = "SIGABRT", [7] = "SIGBUS", [8] = "SIGFPE", [9] = "SIGKILL", [10] = "SIGUSR1",
    [11] = "SIGSEGV", [12] = "SIGUSR2", [13] = "SIGPIPE", [14] = "SIGALRM", [15] = "SIGTERM",
    [16] = "SIGSTKFLT", [17] = "SIGCHLD", [18] = "SIGCONT", [19] = "SIGSTOP", [20] = "SIGTSTP",
    [21] = "SIGTTIN", [22] = "SIGTTOU", [23] = "SIGURG", [24] = "SIGXCPU", [25] = "SIGXFSZ",
    [26] = "SIGVTALRM", [27] = "SIGPROF", [28] = "SIGWINCH", [29] = "SIGIO", [30] = "SIGPWR",
    [31] = "SIGSYS",
};

const char *hx_signal_name(int sig)
{
    return sig > 0 && sig <= HX_NSIG ? sig_names[sig] : NULL;
}

// The default action ignores the signal (SIGCHLD, SIGCONT, SIGURG, SIGWINCH, and the stop
// signals, which user mode cannot act on).
static bool default_ignores(int sig)
{
    return sig == 17 || sig == 18 || sig == 23 || sig == 28 || (sig >= 19 && sig <= 22);
}

static bool ignored(struct hexsim_user_os *os, int sig)
{
    uint32_t h = os->act[sig].handler;
    return h == SIG_IGN_ || (h == SIG_DFL_ && default_ignores(sig));
}

int hx_map_vdso(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (os->vdso)
        return 0;
    // arch/hexagon/kernel/vdso.c: one page, read and execute, the trampoline at its start,
    // placed by get_unmapped_area below the stack
    uint32_t at = HEXSIM_USER_STACK_TOP - HEXSIM_USER_STACK_SIZE - HEXSIM_PAGE_SIZE;
    const uint32_t tramp[2] = { 0x7800d166, 0x5400c004 };   // r6 = #139; trap0(#1)
    if (hexsim_mem_is_mapped(&u->mem, at)) {
        // mapped before a snapshot was taken (the page was saved, this address was not)
        uint32_t w[2];
        if (hexsim_mem_copy_out(&u->mem, at, w, sizeof(w), HEXSIM_PROT_X, NULL) ||
            w[0] != tramp[0] || w[1] != tramp[1])
            return -ENOMEM;
        os->vdso = at;
        return 0;
    }
    if (hexsim_mem_map(&u->mem, at, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_X))
        return -ENOMEM;
    hexsim_mem_copy_in(&u->mem, at, tramp, sizeof(tramp), true, NULL);
    os->vdso = at;
    return 0;
}

// Wakes thread i from an interruptible wait for signal sig: the call returns -EINTR, or is
// made again when it restarts and the handler has SA_RESTART.
static void interrupt(struct hexsim_user *u, unsigned i, int sig)
{
    struct hexsim_user_os *os = u->os;
    struct hx_thread *t = &os->t[i];
    const struct hx_sigaction *a = &os->act[sig];
    bool handler = a->handler != SIG_DFL_ && a->handler != SIG_IGN_;
    if (t->wait == HX_WAIT_SLEEP && t->rem_addr && t->wake_at != HX_NO_TIME) {
        uint64_t left = t->wake_at > u->cpu.pcycles ? t->wake_at - u->cpu.pcycles : 0;
        hx_write_timespec(u, t->rem_addr, t->rem_t64, hx_pcycles_to_ns(left));
    }
    if (handler && t->restart && (a->flags & SA_RESTART)) {
        t->wait = HX_RUNNING;
        t->wake_at = HX_NO_TIME;
        if (i == os->cur)
            u->cpu.pc -= 4;
        else
            t->regs.pc -= 4;
        return;
    }
    hx_wake(u, i, -EINTR);
}

void hx_signal(struct hexsim_user *u, int i, int sig, const struct hx_siginfo *info)
{
    struct hexsim_user_os *os = u->os;
    if (i < 0) {
        // process-directed: the running thread unless it blocks sig, else the first that
        // does not; with none, it waits on the process until one unblocks it
        if (os->t[os->cur].wait != HX_DEAD && !(os->t[os->cur].mask & BIT(sig)))
            i = (int)os->cur;
        for (unsigned k = 0; i < 0 && k < os->n; k++)
            if (os->t[k].wait != HX_DEAD && !(os->t[k].mask & BIT(sig)))
                i = (int)k;
        if (i < 0) {
            if (!ignored(os, sig)) {
                os->pending |= BIT(sig);
                os->info[sig - 1] = *info;
            }
            return;
        }
    }
    struct hx_thread *t = &os->t[i];
    if (ignored(os, sig) && !(t->mask & BIT(sig)))
        return;
    t->pending |= BIT(sig);
    t->info[sig - 1] = *info;
    if (t->wait == HX_WAIT_SIGNAL && (t->sigwait & BIT(sig))) {
        // rt_sigtimedwait waits for it: the call is made again and takes it
        t->wait = HX_RUNNING;
        t->wake_at = HX_NO_TIME;
        if ((unsigned)i == os->cur)
            u->cpu.pc -= 4;
        else
            t->regs.pc -= 4;
    } else if (t->wait > HX_RUNNING && t->interruptible && !(t->mask & BIT(sig))) {
        interrupt(u, (unsigned)i, sig);
    }
}

static void put_regs(uint8_t *b, const struct hexsim_cpu *c, uint32_t badva)
{
    for (int i = 0; i < 32; i++)
        hx_le32(b + 4 * i, c->r[i]);
    static const uint8_t cregs[] = { HX_SA0, HX_LC0, HX_SA1, HX_LC1, HX_M0, HX_M1, HX_USR };
    for (unsigned i = 0; i < sizeof(cregs); i++)
        hx_le32(b + 4 * (32 + i), c->c[cregs[i]]);
    hx_le32(b + 4 * 39, (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
                        (uint32_t)c->p[3] << 24);
    hx_le32(b + 4 * 40, c->c[HX_GP]);
    hx_le32(b + 4 * 41, c->c[HX_UGP]);
    hx_le32(b + 4 * 42, c->pc);
    hx_le32(b + 4 * 43, 0);   // cause
    hx_le32(b + 4 * 44, badva);
    hx_le32(b + 4 * 45, c->c[HX_CS0]);
    hx_le32(b + 4 * 46, c->c[HX_CS1]);
}

static uint32_t rd32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void get_regs(const uint8_t *b, struct hexsim_cpu *c)
{
    for (int i = 0; i < 32; i++)
        c->r[i] = rd32(b + 4 * i);
    static const uint8_t cregs[] = { HX_SA0, HX_LC0, HX_SA1, HX_LC1, HX_M0, HX_M1, HX_USR };
    for (unsigned i = 0; i < sizeof(cregs); i++)
        c->c[cregs[i]] = rd32(b + 4 * (32 + i));
    uint32_t p = rd32(b + 4 * 39);
    for (int i = 0; i < 4; i++)
        c->p[i] = (uint8_t)(p >> (8 * i));
    c->c[HX_GP] = rd32(b + 4 * 40);
    c->c[HX_UGP] = rd32(b + 4 * 41);
    c->pc = rd32(b + 4 * 42);
    c->c[HX_CS0] = rd32(b + 4 * 45);
    c->c[HX_CS1] = rd32(b + 4 * 46);
}

static uint32_t sas_flags(const struct hx_thread *t, uint32_t sp)
{
    if (t->ss_flags & SS_DISABLE)
        return SS_DISABLE;
    return sp > t->ss_sp && sp - t->ss_sp <= t->ss_size ? SS_ONSTACK : 0;
}

// Builds the signal frame for sig on the running thread and enters the handler; false when
// the frame cannot be written.
static bool setup_frame(struct hexsim_user *u, int sig, const struct hx_siginfo *info,
                        uint64_t saved_mask)
{
    struct hexsim_user_os *os = u->os;
    struct hx_thread *t = &os->t[os->cur];
    const struct hx_sigaction *a = &os->act[sig];
    struct hexsim_cpu *c = &u->cpu;
    uint32_t sp = c->r[29];
    if ((a->flags & SA_ONSTACK) && sas_flags(t, sp) == 0)
        sp = t->ss_sp + t->ss_size;
    uint32_t frame = (sp - FRAME_SIZE) & ~7u;
    uint8_t b[FRAME_SIZE];
    memset(b, 0, sizeof(b));
    hx_le32(b, 0x7800d166);   // the magic words libgcc's unwinder looks for
    hx_le32(b + 4, 0x5400c004);
    hx_le32(b + FRAME_INFO, (uint32_t)sig);
    hx_le32(b + FRAME_INFO + 8, (uint32_t)info->code);
    for (int i = 0; i < 3; i++)
        hx_le32(b + FRAME_INFO + 12 + 4 * i, info->w[i]);
    hx_le32(b + FRAME_UC + 8, t->ss_sp);
    hx_le32(b + FRAME_UC + 12, sas_flags(t, c->r[29]));
    hx_le32(b + FRAME_UC + 16, t->ss_size);
    bool fault = sig == 11 || sig == 7;
    put_regs(b + FRAME_MCTX, c, fault ? info->w[0] : 0);
    hx_le64(b + FRAME_MASK, saved_mask);
    if (hx_put(u, frame, b, sizeof(b)))
        return false;
    c->r[0] = (uint32_t)sig;
    c->r[1] = frame + FRAME_INFO;
    c->r[2] = frame + FRAME_UC;
    c->r[31] = os->vdso;
    c->r[29] = frame;
    c->pc = a->handler;
    return true;
}

static void terminate(struct hexsim_user *u, int sig, const char *why)
{
    fprintf(u->err, "hexsim: process ended by signal %d (%s)%s\n", sig,
            sig_names[sig] ? sig_names[sig] : "real-time", why);
    u->exited = true;
    u->exit_status = 128 + sig;
    u->term_sig = sig;
    if (u->opts.strace)
        hx_strace_killed(u, sig);
}

// Takes pending signal sig (the thread's own first, else the process's) and returns its info.
static struct hx_siginfo take_pending(struct hexsim_user_os *os, struct hx_thread *t, int sig)
{
    if (t->pending & BIT(sig)) {
        t->pending &= ~BIT(sig);
        return t->info[sig - 1];
    }
    os->pending &= ~BIT(sig);
    return os->info[sig - 1];
}

struct hx_siginfo hx_take_signal(struct hexsim_user_os *os, struct hx_thread *t, int sig)
{
    return take_pending(os, t, sig);
}

void hx_deliver_signals(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (!os || u->exited)
        return;
    struct hx_thread *t = &os->t[os->cur];
    for (int round = 0; round <= HX_NSIG && t->wait == HX_RUNNING; round++) {
        uint64_t ready = (t->pending | os->pending) & ~t->mask;
        if (!ready)
            break;
        // synchronous ones (faults) first, then the lowest number
        const uint64_t sync = BIT(4) | BIT(5) | BIT(7) | BIT(8) | BIT(11);
        uint64_t pick = ready & sync ? ready & sync : ready;
        int sig = __builtin_ctzll(pick) + 1;
        struct hx_siginfo info = take_pending(os, t, sig);
        struct hx_sigaction *a = &os->act[sig];
        if (a->handler == SIG_IGN_ || (a->handler == SIG_DFL_ && default_ignores(sig)))
            continue;
        if (u->opts.strace)
            hx_strace_signal(u, sig, &info);
        if (a->handler == SIG_DFL_) {
            terminate(u, sig, "");
            return;
        }
        uint64_t saved = t->has_saved_mask ? t->saved_mask : t->mask;
        t->has_saved_mask = false;
        if (!setup_frame(u, sig, &info, saved)) {
            terminate(u, 11, ": the signal frame could not be written");
            return;
        }
        t->mask = (saved | a->mask | (a->flags & SA_NODEFER ? 0 : BIT(sig))) & ~UNBLOCKABLE;
        os->handled++;
        if (a->flags & SA_RESETHAND) {
            a->handler = SIG_DFL_;
            a->flags &= ~SA_SIGINFO;
        }
    }
    if (t->has_saved_mask && t->wait == HX_RUNNING) {
        t->mask = t->saved_mask;   // rt_sigsuspend ended without a handler
        t->has_saved_mask = false;
    }
}

int hx_signal_ready(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (!os)
        return 0;
    struct hx_thread *t = &os->t[os->cur];
    uint64_t ready = (t->pending | os->pending) & ~t->mask;
    for (int sig = 1; sig <= HX_NSIG; sig++)
        if ((ready & BIT(sig)) && !ignored(os, sig))
            return sig;
    return 0;
}

int64_t hx_interrupted(struct hexsim_user *u)
{
    const struct hx_sigaction *a = &u->os->act[hx_signal_ready(u)];
    if (a->handler != SIG_DFL_ && a->handler != SIG_IGN_ && (a->flags & SA_RESTART)) {
        u->cpu.pc -= 4;   // -ERESTARTSYS: made again once the handler has run
        return HX_SYS_NORET;
    }
    return -EINTR;
}

int64_t hx_sigpipe(struct hexsim_user *u, int64_t r)
{
    if (r == -EPIPE && hx_os(u)) {   // pipe_write: send_sig(SIGPIPE, current, 0)
        struct hx_siginfo info = { SI_USER, { 1, 0, 0 } };
        hx_signal(u, (int)u->os->cur, 13, &info);
    }
    return r;
}

int hx_fault_siginfo(const struct hexsim_event_info *ev, struct hx_siginfo *info)
{
    *info = (struct hx_siginfo){ SI_KERNEL, { 0, 0, 0 } };
    switch (ev->kind) {
    case HX_EV_FAULT_READ:
    case HX_EV_FAULT_WRITE:
    case HX_EV_FAULT_FETCH:
        if (ev->detail == HEXSIM_MEM_MISALIGNED || ev->detail == HEXSIM_MEM_PAGE_CROSS)
            return 7;   // force_sig(SIGBUS): SI_KERNEL, no address (traps.c)
        info->code = ev->detail == HEXSIM_MEM_PROT ? 2 : 1;   // SEGV_ACCERR, SEGV_MAPERR
        info->w[0] = ev->addr;                                 // with the address (vm_fault.c)
        return 11;
    case HX_EV_INVALID:
    case HX_EV_PRIVILEGED:
    case HX_EV_UNIMPLEMENTED:
    case HX_EV_TRAP1:
        return 4;
    default:
        return 0;
    }
}

bool hexsim_user_fault_signal(struct hexsim_user *u, const struct hexsim_event_info *ev)
{
    struct hexsim_user_os *os = u->os;
    if (!os)
        return false;
    struct hx_siginfo info;
    int sig = hx_fault_siginfo(ev, &info);
    if (!sig)
        return false;
    struct hx_thread *t = &os->t[os->cur];
    const struct hx_sigaction *a = &os->act[sig];
    // force_sig: a blocked or ignored fault signal ends the process
    if (a->handler == SIG_DFL_ || a->handler == SIG_IGN_ || (t->mask & BIT(sig)))
        return false;
    t->pending |= BIT(sig);
    t->info[sig - 1] = info;
    hx_deliver_signals(u);
    return !u->exited;
}

// ---- system calls

// The signal state for a call passing a signal set of size bytes (it must be 8, the
// kernel's sigset_t); NULL with *err -ENOMEM (no state) or -EINVAL (another size).
static struct hexsim_user_os *sigset_call(struct hexsim_user *u, uint32_t size, int64_t *err)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        *err = -ENOMEM;
    else if (size != 8)
        *err = -EINVAL;
    else
        return os;
    return NULL;
}

int64_t sys_rt_sigaction(struct hexsim_user *u, uint32_t sig, uint32_t act, uint32_t oact,
                         uint32_t size)
{
    int64_t err;
    struct hexsim_user_os *os = sigset_call(u, size, &err);
    if (!os)
        return err;
    if (sig < 1 || sig > HX_NSIG || ((sig == 9 || sig == 19) && act))
        return -EINVAL;
    uint8_t b[16];
    struct hx_sigaction na;
    if (act) {
        if (hx_get(u, act, b, 16))
            return -EFAULT;
        na.handler = rd32(b);
        na.flags = rd32(b + 4);
        na.mask = ((uint64_t)rd32(b + 12) << 32 | rd32(b + 8)) & ~UNBLOCKABLE;
    }
    if (oact) {
        const struct hx_sigaction *o = &os->act[sig];
        hx_le32(b, o->handler);
        hx_le32(b + 4, o->flags);
        hx_le64(b + 8, o->mask);
        if (hx_put(u, oact, b, 16))
            return -EFAULT;
    }
    if (act) {
        if (na.handler != SIG_DFL_ && na.handler != SIG_IGN_ && hx_map_vdso(u))
            return -ENOMEM;
        os->act[sig] = na;
        if (ignored(os, (int)sig)) {   // pending instances are dropped (kernel: flush)
            os->pending &= ~BIT(sig);
            for (unsigned i = 0; i < os->n; i++)
                os->t[i].pending &= ~BIT(sig);
        }
    }
    return 0;
}

static int read_set(struct hexsim_user *u, uint32_t addr, uint64_t *set)
{
    return hx_get64(u, addr, set) ? -EFAULT : 0;
}

int64_t sys_rt_sigprocmask(struct hexsim_user *u, uint32_t how, uint32_t set, uint32_t oset,
                           uint32_t size)
{
    int64_t err;
    struct hexsim_user_os *os = sigset_call(u, size, &err);
    if (!os)
        return err;
    struct hx_thread *t = &os->t[os->cur];
    uint64_t old = t->mask, s = 0;
    if (set) {
        if (how > 2)
            return -EINVAL;
        if (read_set(u, set, &s))
            return -EFAULT;
    }
    if (oset) {
        uint8_t b[8];
        hx_le64(b, old);
        if (hx_put(u, oset, b, 8))
            return -EFAULT;
    }
    if (set)
        t->mask = (how == 0 ? old | s : how == 1 ? old & ~s : s) & ~UNBLOCKABLE;
    return 0;
}

int64_t sys_rt_sigpending(struct hexsim_user *u, uint32_t set, uint32_t size)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (size > 8)
        return -EINVAL;
    struct hx_thread *t = &os->t[os->cur];
    uint8_t b[8];
    hx_le64(b, (t->pending | os->pending) & t->mask);
    return hx_put(u, set, b, size);
}

int64_t sys_rt_sigsuspend(struct hexsim_user *u, uint32_t set, uint32_t size)
{
    int64_t err;
    struct hexsim_user_os *os = sigset_call(u, size, &err);
    if (!os)
        return err;
    uint64_t s;
    if (read_set(u, set, &s))
        return -EFAULT;
    struct hx_thread *t = &os->t[os->cur];
    t->saved_mask = t->mask;
    t->has_saved_mask = true;
    t->mask = s & ~UNBLOCKABLE;
    t->sigwait = 0;
    if ((t->pending | os->pending) & ~t->mask)
        return -EINTR;   // a signal is already there: it runs with the saved mask after
    hx_wait(u, HX_WAIT_SIGNAL, HX_NO_TIME, true, false);
    return HX_SYS_NORET;
}

int64_t sys_rt_sigtimedwait(struct hexsim_user *u, uint32_t set, uint32_t info,
                            uint32_t timeout, uint32_t size, bool t64)
{
    int64_t err;
    struct hexsim_user_os *os = sigset_call(u, size, &err);
    if (!os)
        return err;
    uint64_t s;
    if (read_set(u, set, &s))
        return -EFAULT;
    s &= ~UNBLOCKABLE;
    struct hx_thread *t = &os->t[os->cur];
    uint64_t ready = (t->pending | os->pending) & s;
    if (ready) {
        int sig = __builtin_ctzll(ready) + 1;
        struct hx_siginfo in = take_pending(os, t, sig);
        if (info) {
            uint8_t b[128] = {0};
            hx_le32(b, (uint32_t)sig);
            hx_le32(b + 8, (uint32_t)in.code);
            for (int i = 0; i < 3; i++)
                hx_le32(b + 12 + 4 * i, in.w[i]);
            if (hx_put(u, info, b, sizeof(b)))
                return -EFAULT;
        }
        return sig;
    }
    uint64_t at = HX_NO_TIME;
    if (timeout) {
        uint64_t ns;
        int e = hx_read_timespec(u, timeout, t64, &ns);
        if (e)
            return e;
        if (ns == 0)
            return -EAGAIN;
        at = u->cpu.pcycles + hx_ns_to_pcycles(ns);
    }
    // a signal of the set makes the call again, which takes it (hx_signal); another one
    // that is not blocked interrupts it
    t->sigwait = s;
    hx_wait(u, HX_WAIT_SIGNAL, at, true, false);
    return HX_SYS_NORET;
}

int64_t sys_sigaltstack(struct hexsim_user *u, uint32_t ss, uint32_t oss)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    struct hx_thread *t = &os->t[os->cur];
    uint32_t sp = u->cpu.r[29];
    if (oss) {
        uint8_t b[12];
        hx_le32(b, t->ss_sp);
        hx_le32(b + 4, sas_flags(t, sp));
        hx_le32(b + 8, t->ss_size);
        if (hx_put(u, oss, b, 12))
            return -EFAULT;
    }
    if (ss) {
        uint8_t b[12];
        if (hx_get(u, ss, b, 12))
            return -EFAULT;
        uint32_t nsp = rd32(b), flags = rd32(b + 4), size = rd32(b + 8);
        if (sas_flags(t, sp) == SS_ONSTACK)
            return -EPERM;
        if (flags & ~(SS_DISABLE | SS_ONSTACK | 0x80000000u))   // (SS_AUTODISARM)
            return -EINVAL;
        if (flags & SS_DISABLE) {
            t->ss_sp = t->ss_size = 0;
            t->ss_flags = SS_DISABLE;
        } else {
            if (size < MINSIGSTKSZ)
                return -ENOMEM;
            t->ss_sp = nsp;
            t->ss_size = size;
            t->ss_flags = 0;
        }
    }
    return 0;
}

static int check_sig(uint32_t sig)
{
    return sig > HX_NSIG ? -EINVAL : 0;
}

int64_t sys_kill(struct hexsim_user *u, uint32_t pid, uint32_t sig)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (check_sig(sig))
        return -EINVAL;
    int32_t p = (int32_t)pid;
    if (u->proc)
        return hx_proc_kill(u, p, (int)sig);   // there are other processes (process.c)
    if (p != 1 && p != 0 && p != -1)   // the process is pid 1, its group 1, alone
        return -ESRCH;
    if (sig) {
        struct hx_siginfo info = { SI_USER, { 1, 0, 0 } };
        hx_signal(u, -1, (int)sig, &info);
    }
    return 0;
}

int64_t sys_tgkill(struct hexsim_user *u, uint32_t tgid, uint32_t tid, uint32_t sig)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (check_sig(sig) || (int32_t)tid <= 0 || ((int32_t)tgid <= 0 && tgid != ~0u))
        return -EINVAL;
    int i = hx_thread_index(os, (int32_t)tid);
    if (i < 0 || (tgid != ~0u && (int32_t)tgid != hx_getpid(u)))
        return -ESRCH;
    if (sig) {
        struct hx_siginfo info = { SI_TKILL, { 1, 0, 0 } };
        hx_signal(u, i, (int)sig, &info);
    }
    return 0;
}

int64_t sys_rt_sigqueueinfo(struct hexsim_user *u, uint32_t tgid, uint32_t tid, uint32_t sig,
                            uint32_t uinfo)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    if (check_sig(sig))
        return -EINVAL;
    uint8_t b[24];
    if (hx_get(u, uinfo, b, sizeof(b)))
        return -EFAULT;
    // the sender's si_code and fields, as the caller wrote them (to itself a process may
    // send any code, kernel/signal.c do_rt_sigqueueinfo; there are no other processes)
    struct hx_siginfo info = { (int32_t)rd32(b + 8), { rd32(b + 12), rd32(b + 16), rd32(b + 20) } };
    if ((int32_t)tgid != hx_getpid(u))
        return -ESRCH;
    int i = -1;
    if (tid != ~0u) {
        i = hx_thread_index(os, (int32_t)tid);
        if (i < 0)
            return -ESRCH;
    }
    if (sig)
        hx_signal(u, i, (int)sig, &info);
    return 0;
}

int64_t sys_rt_sigreturn(struct hexsim_user *u)
{
    struct hexsim_user_os *os = hx_os(u);
    if (!os)
        return -ENOMEM;
    struct hx_thread *t = &os->t[os->cur];
    uint32_t frame = u->cpu.r[29];
    uint8_t b[FRAME_SIZE];
    if (hx_get(u, frame, b, sizeof(b))) {
        terminate(u, 11, ": rt_sigreturn found no signal frame at the stack pointer");
        return HX_SYS_NORET;
    }
    t->mask = ((uint64_t)rd32(b + FRAME_MASK + 4) << 32 | rd32(b + FRAME_MASK)) & ~UNBLOCKABLE;
    get_regs(b + FRAME_MCTX, &u->cpu);
    u->cpu.reserved = false;
    // restore_altstack: the stack_t as sigaltstack would take it (errors ignored but EFAULT)
    uint32_t sp = u->cpu.r[29];
    if (sas_flags(t, sp) != SS_ONSTACK) {
        uint32_t nsp = rd32(b + FRAME_UC + 8), flags = rd32(b + FRAME_UC + 12);
        uint32_t size = rd32(b + FRAME_UC + 16);
        if (flags & SS_DISABLE) {
            t->ss_sp = t->ss_size = 0;
            t->ss_flags = SS_DISABLE;
        } else if (size >= MINSIGSTKSZ) {
            t->ss_sp = nsp;
            t->ss_size = size;
            t->ss_flags = 0;
        }
    }
    return HX_SYS_NORET;
}
