// SPDX-License-Identifier: MIT
// Processes of Linux user mode (proc.h has the design): the shared process table, fork and
// vfork (clone without CLONE_THREAD), wait4 and waitid, getppid, process groups and
// sessions (setpgid, getpgid, setsid, getsid), kill() of other processes and groups, and
// the host signals that reach the guest once there are several processes. Facts: Linux 6.1
// kernel/fork.c (copy_process: the child's pending signals and timers are not inherited,
// CLONE_PARENT_SETTID/CHILD_SETTID/CHILD_CLEARTID/SETTLS), kernel/exit.c (wait_consider_task,
// the wait status: exit code << 8, or the signal; waitid's siginfo; WNOHANG gives 0),
// kernel/sys.c (setpgid's EPERM/ESRCH rules, setsid), kernel/signal.c
// (kill_something_info: 0 the caller's group, -1 all but init and the caller, -N group N),
// include/uapi/asm-generic/siginfo.h (CLD_EXITED 1, CLD_KILLED 2; _sigchld: pid, uid,
// status). Host and guest signal numbers agree for 1-31 (x86-64 and asm-generic).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc.h"
#include "sys.h"

#define G_CLD_EXITED 1   // asm-generic siginfo.h (the host's are the same)
#define G_CLD_KILLED 2

// the host signal that carries a guest kill() to another process: its value is the guest
// signal | the sender's pid << 8
static int carrier(void)
{
    return SIGRTMIN + 2;
}

static struct hx_proc_slot *my_slot(const struct hexsim_user *u)
{
    return &u->proc->sh->s[u->proc->slot];
}

struct hexsim_user_proc *hx_proc(struct hexsim_user *u)
{
    if (u->proc)
        return u->proc;
    struct hexsim_user_os *os = hx_os(u);
    struct hexsim_user_proc *p = os ? calloc(1, sizeof(*p)) : NULL;
    if (!p)
        return NULL;
    p->sh = mmap(NULL, sizeof(*p->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
                 0);
    if (p->sh == MAP_FAILED) {
        free(p);
        return NULL;
    }
    // the numbers the process's threads took so far stay taken
    atomic_store(&p->sh->next_pid, os->next_tid > 2 ? os->next_tid : 2);
    struct hx_proc_slot *s = &p->sh->s[0];
    s->vpid = 1;   // the first process is pid 1 (as in a container), its own group and session
    s->ppid = 0;
    atomic_store(&s->pgid, 1);
    atomic_store(&s->sid, 1);
    atomic_store(&s->status, -1);
    atomic_store(&s->hpid, (int32_t)getpid());
    p->slot = 0;
    p->sigfd = -1;
    p->vfork_fd = -1;
    u->proc = p;
    return p;
}

int32_t hx_getpid(const struct hexsim_user *u)
{
    return u->proc ? my_slot(u)->vpid : 1;
}

int32_t hx_new_id(struct hexsim_user *u)
{
    if (!u->proc)
        return u->os->next_tid++;
    int32_t id = atomic_fetch_add(&u->proc->sh->next_pid, 1);
    return id < HX_PID_MAX ? id : -1;
}

// The slot of live (or not yet waited for) process pid; NULL: none.
static struct hx_proc_slot *find_slot(struct hexsim_user_proc *p, int32_t pid)
{
    for (unsigned i = 0; i < HX_PROC_SLOTS; i++) {
        struct hx_proc_slot *s = &p->sh->s[i];
        if (atomic_load(&s->hpid) > 0 && s->vpid == pid)
            return s;
    }
    return NULL;
}

// A free slot, taken (hpid -1 until the fork says which host process it is); -1: none. A
// slot whose host process is gone (an orphan the host reaped) is free again.
static int alloc_slot(struct hexsim_user_proc *p)
{
    for (int pass = 0; pass < 2; pass++)
        for (unsigned i = 0; i < HX_PROC_SLOTS; i++) {
            struct hx_proc_slot *s = &p->sh->s[i];
            int32_t h = atomic_load(&s->hpid);
            if (pass == 1 && h > 0 && kill(h, 0) && errno == ESRCH)
                atomic_compare_exchange_strong(&s->hpid, &h, 0), h = 0;
            int32_t zero = 0;
            if (h == 0 && atomic_compare_exchange_strong(&s->hpid, &zero, -1))
                return (int)i;
        }
    return -1;
}

// ---- host signals for the guest

static void host_signal_set(sigset_t *set)
{
    static const int sigs[] = { SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGTERM,
                                SIGCHLD, SIGWINCH };
    sigemptyset(set);
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        sigaddset(set, sigs[i]);
    sigaddset(set, carrier());
}

// From now on the host signals of host_signal_set come to the guest (hx_proc_signals).
static int signals_on(struct hexsim_user_proc *p)
{
    sigset_t set;
    host_signal_set(&set);
    if (sigprocmask(SIG_BLOCK, &set, NULL))
        return -errno;
    p->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
    return p->sigfd < 0 ? -errno : 0;
}

// The guest wait status child c ended with, from its slot, else from the host's report
// (code CLD_*, status: exit code or signal; a host SIGKILL leaves no guest record).
static int32_t guest_status(struct hexsim_user_proc *p, const struct hx_child *c, int code,
                            int status)
{
    int32_t s = atomic_load(&p->sh->s[c->slot].status);
    if (s >= 0)
        return s;
    return code == G_CLD_EXITED ? (status & 0xff) << 8 : status & 0x7f;
}

// Has child c ended? (*ws: its guest status). The host process stays a zombie (WNOWAIT).
static bool child_ended(struct hexsim_user_proc *p, const struct hx_child *c, int32_t *ws)
{
    siginfo_t si;
    memset(&si, 0, sizeof(si));
    if (waitid(P_PID, (id_t)c->hpid, &si, WEXITED | WNOHANG | WNOWAIT) || si.si_pid != c->hpid)
        return false;
    *ws = guest_status(p, c, si.si_code, si.si_status);
    return true;
}

static struct hx_siginfo chld_info(int32_t vpid, int32_t ws)
{
    return (struct hx_siginfo){ ws & 0x7f ? G_CLD_KILLED : G_CLD_EXITED,
                                { (uint32_t)vpid, 0, (uint32_t)(ws & 0x7f ? ws & 0x7f
                                                                          : (ws >> 8) & 0xff) } };
}

static int32_t vpid_of_host(struct hexsim_user_proc *p, int32_t hpid)
{
    for (unsigned i = 0; i < HX_PROC_SLOTS; i++)
        if (atomic_load(&p->sh->s[i].hpid) == hpid)
            return p->sh->s[i].vpid;
    return 0;
}

// Takes ended child ci from the host and from the process table.
static void forget(struct hexsim_user *u, unsigned ci)
{
    struct hexsim_user_proc *p = u->proc;
    struct hx_child c = p->child[ci];
    int32_t h = c.hpid < 0 ? -c.hpid : c.hpid;
    while (waitpid(h, NULL, 0) < 0 && errno == EINTR)
        ;
    atomic_store(&p->sh->s[c.slot].hpid, 0);
    p->child[ci] = p->child[--p->nchild];
}

// SIGCHLD ignored or SA_NOCLDWAIT: nobody waits for an ended child (kernel/signal.c
// do_notify_parent)
static bool autoreap(const struct hexsim_user *u)
{
    const struct hx_sigaction *a = &u->os->act[17];
    return a->handler == 1 || (a->flags & 2);   // SIG_IGN, SA_NOCLDWAIT
}

void hx_proc_signals(struct hexsim_user *u, int timeout_ms)
{
    struct hexsim_user_proc *p = u->proc;
    if (!p || p->sigfd < 0)
        return;
    if (timeout_ms) {
        struct pollfd pf = { p->sigfd, POLLIN, 0 };
        while (poll(&pf, 1, timeout_ms) < 0 && errno == EINTR)
            ;
    }
    struct signalfd_siginfo si;
    while (read(p->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
        int sig = (int)si.ssi_signo;
        if (sig == carrier()) {
            int g = si.ssi_int & 0xff;
            struct hx_siginfo info = { 0, { (uint32_t)si.ssi_int >> 8, 0, 0 } };   // SI_USER
            if (g >= 1 && g <= HX_NSIG)
                hx_signal(u, -1, g, &info);
        } else if (sig == SIGCHLD) {
            // each child that ended since the last look: its exit signal (they coalesce as
            // the kernel's do for a signal already pending); with autoreap it goes at once
            const struct hx_sigaction *a = &u->os->act[17];
            for (unsigned i = 0; i < p->nchild;) {
                struct hx_child *c = &p->child[i];
                struct hx_proc_slot *s = &p->sh->s[c->slot];
                int32_t ws;
                if (c->hpid < 0 || !child_ended(p, c, &ws)) {
                    i++;
                    continue;
                }
                if (s->exit_signal && a->handler != 1) {
                    struct hx_siginfo info = chld_info(c->vpid, ws);
                    hx_signal(u, -1, s->exit_signal, &info);
                }
                if (autoreap(u)) {
                    forget(u, i);   // (the last child moves to i)
                    continue;
                }
                c->hpid = -c->hpid;   // notified (still to be waited for)
                i++;
            }
        } else if (sig >= 1 && sig <= HX_NSIG) {
            struct hx_siginfo info = { 0, { (uint32_t)vpid_of_host(p, (int32_t)si.ssi_pid), 0,
                                            0 } };
            hx_signal(u, -1, sig, &info);
        }
    }
}

// ---- fork

static const char *per_pid(char *buf, size_t n, const char *file, int32_t pid)
{
    if (!file)
        return NULL;
    snprintf(buf, n, "%s.%d", file, pid);
    return buf;
}

// The child side of a fork: this host process is the new guest process. Runs it to its end
// and ends (nothing of the parent's caller, a debugger or the snapshot loop, runs here).
static void __attribute__((noreturn)) child_run(struct hexsim_user *u, int32_t vpid, int slot,
                                                uint32_t flags, uint32_t sp, uint32_t ctid,
                                                uint32_t tls, int vfork_fd)
{
    struct hexsim_user_proc *p = u->proc;
    struct hexsim_user_os *os = u->os;
    atomic_store(&p->sh->s[slot].hpid, (int32_t)getpid());
    if (p->vfork_fd >= 0)
        close(p->vfork_fd);   // (a vfork child forking: that handshake is its parent's)
    p->vfork_fd = vfork_fd;
    p->slot = slot;
    p->forked = true;
    p->parent_hpid = (int32_t)getppid();
    p->nchild = 0;
    // the forking thread alone goes on, as the new process's main thread; pending signals
    // and timers are not inherited
    os->t[0] = os->t[os->cur];
    os->n = 1;
    os->cur = 0;
    struct hx_thread *t = &os->t[0];
    t->tid = vpid;
    t->pending = 0;
    t->clear_tid = flags & HX_CLONE_CHILD_CLEARTID ? ctid : 0;
    os->pending = 0;
    for (unsigned i = 0; i < 3; i++)
        os->itimer[i].next = HX_NO_TIME;
    memset(os->timers, 0, sizeof(os->timers));
    os->threads_made = 1;
    os->switches = os->handled = 0;
    os->leader_exited = false;
    u->cpu.r[0] = 0;
    if (sp)
        u->cpu.r[29] = sp;
    if (flags & HX_CLONE_SETTLS)
        u->cpu.c[HX_UGP] = tls;
    if (flags & HX_CLONE_CHILD_SETTID)
        hx_put32(u, ctid, (uint32_t)vpid);
    memset(&u->strace_held, 0, sizeof(u->strace_held));
    u->pause_at = 0;   // snapshots are of the first process only
    u->opts.stats_json = per_pid(p->stats_json, sizeof(p->stats_json), u->opts.stats_json, vpid);
    u->opts.profile = per_pid(p->profile, sizeof(p->profile), u->opts.profile, vpid);
    int status = hexsim_user_run(u);
    hx_proc_end(u);
    fflush(NULL);
    _exit(u->term_sig ? 128 + u->term_sig : status & 0xff);
}

int64_t hx_fork(struct hexsim_user *u, uint32_t flags, uint32_t sp, uint32_t ptid,
                uint32_t ctid, uint32_t tls)
{
    const uint32_t known = 0xffu | HX_CLONE_VM | HX_CLONE_VFORK | HX_CLONE_SETTLS |
                           HX_CLONE_PARENT_SETTID | HX_CLONE_CHILD_CLEARTID |
                           HX_CLONE_CHILD_SETTID | HX_CLONE_DETACHED;
    if ((flags & ~known) || ((flags & HX_CLONE_VM) && !(flags & HX_CLONE_VFORK))) {
        if (!u->warned_fork)
            fprintf(u->err, "hexsim: warning: clone flags %#x (a new process sharing memory "
                    "or other state with its parent) are not supported (returns -ENOSYS)\n",
                    flags);
        u->warned_fork = true;
        return -ENOSYS;
    }
    if (u->opts.no_host_paths)
        return -ENOSYS;   // the fuzzing sandbox makes no host processes
    if ((flags & 0xff) > HX_NSIG)
        return -EINVAL;
    struct hexsim_user_proc *p = hx_proc(u);
    if (!p)
        return -ENOMEM;
    if (p->sigfd < 0) {
        int e = signals_on(p);
        if (e)
            return e;
    }
    if (p->nchild == p->cap) {
        unsigned cap = p->cap ? 2 * p->cap : 8;
        struct hx_child *c = realloc(p->child, cap * sizeof(*c));
        if (!c)
            return -ENOMEM;
        p->child = c;
        p->cap = cap;
    }
    int32_t vpid = hx_new_id(u);
    int slot = vpid < 0 ? -1 : alloc_slot(p);
    if (slot < 0)
        return -EAGAIN;
    struct hx_proc_slot *s = &p->sh->s[slot], *me = my_slot(u);
    s->vpid = vpid;
    s->ppid = me->vpid;
    s->exit_signal = (int32_t)(flags & 0xff);
    atomic_store(&s->pgid, atomic_load(&me->pgid));
    atomic_store(&s->sid, atomic_load(&me->sid));
    atomic_store(&s->status, -1);
    int vp[2] = { -1, -1 };
    if ((flags & HX_CLONE_VFORK) && pipe2(vp, O_CLOEXEC)) {
        atomic_store(&s->hpid, 0);
        return -EAGAIN;
    }
    fflush(NULL);   // nothing buffered is written twice
    pid_t h = fork();
    if (h < 0) {
        int e = errno;
        atomic_store(&s->hpid, 0);
        if (vp[0] >= 0) {
            close(vp[0]);
            close(vp[1]);
        }
        return e == ENOMEM ? -ENOMEM : -EAGAIN;
    }
    if (h == 0) {
        if (vp[0] >= 0)
            close(vp[0]);
        child_run(u, vpid, slot, flags, sp, ctid, tls, vp[1]);
    }
    atomic_store(&s->hpid, (int32_t)h);
    p->child[p->nchild++] = (struct hx_child){ vpid, (int32_t)h, slot };
    if (flags & HX_CLONE_PARENT_SETTID)
        hx_put32(u, ptid, (uint32_t)vpid);
    if (vp[0] >= 0) {   // vfork: until the child calls execve or ends
        close(vp[1]);
        char b;
        while (read(vp[0], &b, 1) < 0 && errno == EINTR)
            ;
        close(vp[0]);
    }
    return vpid;
}

void hx_proc_release_vfork(struct hexsim_user *u)
{
    if (u->proc && u->proc->vfork_fd >= 0) {
        close(u->proc->vfork_fd);
        u->proc->vfork_fd = -1;
    }
}

void hx_proc_end(struct hexsim_user *u)
{
    struct hexsim_user_proc *p = u->proc;
    if (!p)
        return;
    struct hx_proc_slot *s = my_slot(u);
    atomic_store(&s->status, u->term_sig ? u->term_sig : (u->exit_status & 0xff) << 8);
    hx_proc_release_vfork(u);
    if (!p->forked || getppid() != p->parent_hpid)
        atomic_store(&s->hpid, 0);   // nobody will wait for it
}

void hx_proc_free(struct hexsim_user *u)
{
    struct hexsim_user_proc *p = u->proc;
    if (!p)
        return;
    hx_proc_end(u);
    if (p->sigfd >= 0)
        close(p->sigfd);
    munmap(p->sh, sizeof(*p->sh));
    free(p->child);
    free(p);
    u->proc = NULL;
}

// ---- wait4, waitid

#define WNOHANG_ 1u
#define WUNTRACED_ 2u
#define WEXITED_ 4u
#define WCONTINUED_ 8u
#define WNOWAIT_ 0x01000000u
#define W_KERNEL_ 0xe0000000u   // __WNOTHREAD, __WALL, __WCLONE

// Does child c match wait4's pid (-1 any, 0 the caller's group, <-1 group -pid, >0 that)?
static bool matches(struct hexsim_user *u, const struct hx_child *c, int32_t pid)
{
    if (pid == -1)
        return true;
    if (pid > 0)
        return c->vpid == pid;
    int32_t g = pid == 0 ? atomic_load(&my_slot(u)->pgid) : -pid;
    return atomic_load(&u->proc->sh->s[c->slot].pgid) == g;
}

// An ended child that matches: its index and guest status (1), none yet (0), or -ECHILD.
static int find_ended(struct hexsim_user *u, int32_t pid, unsigned *ci, int32_t *ws)
{
    struct hexsim_user_proc *p = u->proc;
    bool any = false;
    for (unsigned i = 0; p && i < p->nchild; i++) {
        struct hx_child c = p->child[i];
        c.hpid = c.hpid < 0 ? -c.hpid : c.hpid;
        if (!matches(u, &c, pid))
            continue;
        if (child_ended(p, &c, ws)) {
            if (autoreap(u)) {   // never reported: gone (the last child moves to i)
                forget(u, i--);
                continue;
            }
            *ci = i;
            return 1;
        }
        any = true;
    }
    return any ? 0 : -ECHILD;
}

// Waits for ended child ci (guest status ws) and forgets it. Its exit signal, if the host's
// SIGCHLD has not been read yet, is raised now: the child did end before the wait.
static void reap(struct hexsim_user *u, unsigned ci, int32_t ws)
{
    struct hexsim_user_proc *p = u->proc;
    struct hx_child c = p->child[ci];
    int32_t sig = p->sh->s[c.slot].exit_signal;
    if (c.hpid > 0 && sig) {
        struct hx_siginfo info = chld_info(c.vpid, ws);
        hx_signal(u, -1, sig, &info);
    }
    forget(u, ci);
}

// Nothing has ended yet and the caller waits: another thread runs (the call is made again
// at this one's turn), or the host signals are awaited; a signal for the guest interrupts.
// Returns 0 (look again) or the call's result.
static int64_t wait_more(struct hexsim_user *u)
{
    if (hx_yield_retry(u))
        return HX_SYS_NORET;
    hx_proc_signals(u, -1);
    return hx_signal_ready(u) ? hx_interrupted(u) : 0;
}

int64_t sys_wait4(struct hexsim_user *u, uint32_t pid, uint32_t status, uint32_t options,
                  uint32_t rusage)
{
    if (options & ~(WNOHANG_ | WUNTRACED_ | WCONTINUED_ | W_KERNEL_))
        return -EINVAL;
    if ((int32_t)pid == INT32_MIN)
        return -ESRCH;
    for (;;) {
        unsigned ci;
        int32_t ws;
        int r = find_ended(u, (int32_t)pid, &ci, &ws);
        if (r < 0)
            return r;
        if (r) {
            int32_t vpid = u->proc->child[ci].vpid;
            if ((status && hx_put32(u, status, (uint32_t)ws)) ||
                (rusage && hx_put(u, rusage, (uint8_t[72]){ 0 }, 72)))
                return -EFAULT;
            reap(u, ci, ws);
            return vpid;
        }
        if (options & WNOHANG_)
            return 0;
        int64_t w = wait_more(u);
        if (w)
            return w;
    }
}

int64_t sys_waitid(struct hexsim_user *u, uint32_t which, uint32_t id, uint32_t infop,
                   uint32_t options, uint32_t rusage)
{
    if ((options & ~(WNOHANG_ | WUNTRACED_ | WEXITED_ | WCONTINUED_ | WNOWAIT_ | W_KERNEL_)) ||
        !(options & (WUNTRACED_ | WEXITED_ | WCONTINUED_)))
        return -EINVAL;
    int32_t pid;
    switch (which) {
    case 0: pid = -1; break;                                  // P_ALL
    case 1: if ((int32_t)id <= 0) return -EINVAL; pid = (int32_t)id; break;   // P_PID
    case 2: if ((int32_t)id < 0) return -EINVAL; pid = -(int32_t)id; break;    // P_PGID
    default: return -EINVAL;
    }
    for (;;) {
        unsigned ci = 0;
        int32_t ws = 0;
        // (children only end: they never stop or continue, so only WEXITED finds one)
        int r = options & WEXITED_ ? find_ended(u, pid, &ci, &ws)
                                   : find_ended(u, pid, &ci, &ws) < 0 ? -ECHILD : 0;
        if (r < 0)
            return r;
        if (r || (options & WNOHANG_)) {
            uint8_t b[24] = { 0 };   // si_signo, si_errno, si_code, pid, uid, status
            if (r) {
                struct hx_siginfo in = chld_info(u->proc->child[ci].vpid, ws);
                hx_le32(b, 17);
                hx_le32(b + 8, (uint32_t)in.code);
                hx_le32(b + 12, in.w[0]);
                hx_le32(b + 20, in.w[2]);
            }
            if ((infop && hx_put(u, infop, b, sizeof(b))) ||
                (rusage && hx_put(u, rusage, (uint8_t[72]){ 0 }, 72)))
                return -EFAULT;
            if (r && !(options & WNOWAIT_))
                reap(u, ci, ws);
            return 0;
        }
        int64_t w = wait_more(u);
        if (w)
            return w;
    }
}

// ---- identity, groups, sessions

int64_t sys_getppid(struct hexsim_user *u)
{
    struct hexsim_user_proc *p = u->proc;
    if (!p || !p->forked)
        return 0;
    // an orphan belongs to init, pid 1 (the first process, as in a container)
    return getppid() == p->parent_hpid ? my_slot(u)->ppid : 1;
}

int64_t sys_getpgid(struct hexsim_user *u, uint32_t pid, bool sid)
{
    if (!u->proc)
        return pid == 0 || pid == 1 ? 1 : -ESRCH;
    struct hx_proc_slot *s = pid == 0 ? my_slot(u) : find_slot(u->proc, (int32_t)pid);
    if (!s)
        return -ESRCH;
    return sid ? atomic_load(&s->sid) : atomic_load(&s->pgid);
}

static bool group_exists(struct hexsim_user_proc *p, int32_t pgid, int32_t sid)
{
    for (unsigned i = 0; i < HX_PROC_SLOTS; i++) {
        struct hx_proc_slot *s = &p->sh->s[i];
        if (atomic_load(&s->hpid) > 0 && atomic_load(&s->status) < 0 &&
            atomic_load(&s->pgid) == pgid && (sid < 0 || atomic_load(&s->sid) == sid))
            return true;
    }
    return false;
}

int64_t sys_setpgid(struct hexsim_user *u, uint32_t pid, uint32_t pgid)
{
    if ((int32_t)pgid < 0)
        return -EINVAL;
    if (!u->proc) {   // alone: pid 1, leader of its group and session
        if (pid != 0 && pid != 1)
            return -ESRCH;
        return pgid == 0 || pgid == 1 ? 0 : -EPERM;
    }
    struct hexsim_user_proc *p = u->proc;
    int32_t me = hx_getpid(u), target = pid ? (int32_t)pid : me;
    struct hx_proc_slot *s = NULL;
    if (target == me) {
        s = my_slot(u);
    } else {
        for (unsigned i = 0; i < p->nchild && !s; i++)
            if (p->child[i].vpid == target)
                s = &p->sh->s[p->child[i].slot];
        if (!s)
            return -ESRCH;
        if (atomic_load(&s->sid) != atomic_load(&my_slot(u)->sid))
            return -EPERM;
    }
    int32_t g = pgid ? (int32_t)pgid : target;
    if (atomic_load(&s->sid) == target)
        return -EPERM;   // a session leader keeps its group
    if (g != target && !group_exists(p, g, atomic_load(&s->sid)))
        return -EPERM;
    atomic_store(&s->pgid, g);
    return 0;
}

int64_t sys_setsid(struct hexsim_user *u)
{
    if (!u->proc)
        return -EPERM;   // pid 1 leads its group already
    int32_t me = hx_getpid(u);
    if (group_exists(u->proc, me, -1))
        return -EPERM;
    struct hx_proc_slot *s = my_slot(u);
    atomic_store(&s->pgid, me);
    atomic_store(&s->sid, me);
    return me;
}

// ---- kill

static int send(struct hexsim_user *u, struct hx_proc_slot *s, int sig)
{
    int32_t h = atomic_load(&s->hpid);
    if (s->vpid == hx_getpid(u)) {
        struct hx_siginfo info = { 0, { (uint32_t)s->vpid, 0, 0 } };   // SI_USER
        if (sig)
            hx_signal(u, -1, sig, &info);
        return 0;
    }
    if (!sig || h <= 0 || atomic_load(&s->status) >= 0)
        return 0;   // (an ended process not yet waited for takes no signal)
    if (sig == 9)
        return kill(h, SIGKILL) ? -errno : 0;
    union sigval v = { .sival_int = sig | hx_getpid(u) << 8 };
    return sigqueue(h, carrier(), v) ? -errno : 0;
}

int64_t hx_proc_kill(struct hexsim_user *u, int32_t pid, int sig)
{
    struct hexsim_user_proc *p = u->proc;
    if (pid > 0) {
        struct hx_proc_slot *s = find_slot(p, pid);
        return s ? send(u, s, sig) : -ESRCH;
    }
    int32_t me = hx_getpid(u), g = pid == 0 ? atomic_load(&my_slot(u)->pgid) : -pid;
    bool found = false;
    for (unsigned i = 0; i < HX_PROC_SLOTS; i++) {
        struct hx_proc_slot *s = &p->sh->s[i];
        if (atomic_load(&s->hpid) <= 0)
            continue;
        if (pid == -1 ? s->vpid > 1 && s->vpid != me : atomic_load(&s->pgid) == g) {
            found = true;
            send(u, s, sig);
        }
    }
    return found ? 0 : -ESRCH;
}
