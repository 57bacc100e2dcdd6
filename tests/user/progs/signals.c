// SPDX-License-Identifier: MIT
// Guest program for tests/user (os_test.py): signals and timers through raw system calls,
// single-threaded so qemu-hexagon gives the same output: rt_sigaction (SA_SIGINFO,
// SA_RESETHAND, SA_NODEFER, SA_ONSTACK, SA_RESTART), the signal frame (siginfo, the
// ucontext's mask and registers: a handler changes r20 in the saved context and rt_sigreturn
// puts it back), masks and pending signals, rt_sigsuspend, rt_sigtimedwait, sigaltstack,
// kill/tkill, faults handed to a handler (SEGV_MAPERR / SEGV_ACCERR with si_addr; the
// handler maps the page and the store is made again), setitimer, POSIX timers, EINTR and
// SA_RESTART for a futex wait, nanosleep interrupted with the time left. Argument "t":
// raise SIGTERM with the default action (exit status 143); "i": ignored, goes on; "d": wait
// on a futex nobody wakes (hexsim ends the process, which would hang on Linux); "b" and
// "l": a misaligned load and an invalid instruction go to a SIGBUS and a SIGILL handler,
// which print the signal and si_code and exit (Linux's si_code for both: SI_KERNEL); "p":
// writes to a pipe without a reader, SIGPIPE ignored (-EPIPE), then default (ends, 141).
#include "urt.h"

#define SIGUSR1 10
#define SIGUSR2 12
#define SIGSEGV 11
#define SIGALRM 14
#define SIGTERM 15
#define SA_SIGINFO 4
#define SA_ONSTACK 0x08000000
#define SA_RESTART 0x10000000
#define SA_NODEFER 0x40000000
#define SA_RESETHAND 0x80000000u
#define BIT(s) (1ull << ((s) - 1))

typedef unsigned long long u64;
struct ksigaction { void (*h)(int, void *, void *); unsigned flags; u64 mask; };
struct siginfo { int signo, err, code; unsigned w[29]; };

static long getpid_(void) { return sys(172, 0, 0, 0, 0, 0, 0); }
static long gettid_(void) { return sys(178, 0, 0, 0, 0, 0, 0); }
static long kill_(int sig) { return sys(129, getpid_(), sig, 0, 0, 0, 0); }
static long tkill_(int sig) { return sys(130, gettid_(), sig, 0, 0, 0, 0); }
static long sigaction_(int sig, void (*h)(int, void *, void *), unsigned flags, u64 mask,
                       struct ksigaction *old)
{
    struct ksigaction a = { h, flags, mask };
    return sys(134, sig, (long)&a, (long)old, 8, 0, 0);
}
static long sigmask_(int how, u64 set, u64 *old)
{
    return sys(135, how, (long)&set, (long)old, 8, 0, 0);
}
static u64 getmask(void) { u64 m = 0; sys(135, 0, 0, (long)&m, 8, 0, 0); return m; }
static void line(const char *what, long v) { put_str(what); put_str(": "); put_dec(v); put_str("\n"); }

static volatile int hits, last_sig, last_code, nest, max_nest, calls;
static volatile unsigned last_w0;
static volatile u64 uc_mask;
static volatile long info_pid_ok;

static void h_info(int sig, void *infop, void *ucp)
{
    struct siginfo *si = infop;
    hits++;
    last_sig = sig;
    last_code = si->code;
    last_w0 = si->w[0];
    info_pid_ok = si->signo == sig && (long)si->w[0] == getpid_();
    // asm-generic ucontext: flags, link, stack_t (12 bytes), sigcontext (8-aligned, 48 words),
    // then the mask: offset 24 + 192
    uc_mask = *(u64 *)((char *)ucp + 216);
}

static void h_nest(int sig, void *i, void *u)
{
    (void)i; (void)u;
    nest++;
    if (nest > max_nest)
        max_nest = nest;
    if (++calls < 3)
        tkill_(sig);   // with SA_NODEFER it runs again at once, nested; else after
    nest--;
}

static volatile char *altstack;
static volatile int on_alt;
static void h_alt(int sig, void *i, void *u)
{
    (void)sig; (void)i; (void)u;
    char here;
    on_alt = &here > altstack && &here < altstack + 16384;
}

// r20 through a signal: the handler rewrites r20 in the frame's saved registers
static void h_r20(int sig, void *i, void *ucp)
{
    (void)sig; (void)i;
    ((unsigned *)((char *)ucp + 24))[20] = 77;
}
long r20_after_signal(long sig);
__asm__(".globl r20_after_signal\nr20_after_signal:\n"
        "  allocframe(#8)\n"
        "  memd(r29+#0) = r21:20\n"
        "  r21 = r0\n  r20 = #5\n"
        "  r6 = #178\n  trap0(#1)\n"      // gettid
        "  r1 = r21\n  r6 = #130\n  trap0(#1)\n"   // tkill(tid, sig)
        "  r0 = r20\n"
        "  r21:20 = memd(r29+#0)\n"
        "  dealloc_return\n");

// faults: the handler maps the page the store missed, then the store is made again
static volatile unsigned fault_addr, fault_code;
static void h_segv(int sig, void *infop, void *u)
{
    (void)sig; (void)u;
    struct siginfo *si = infop;
    fault_addr = si->w[0];
    fault_code = (unsigned)si->code;
    unsigned page = fault_addr & ~4095u;
    if (si->code == 1)
        sys(222, page, 4096, 3, 0x32, -1, 0);   // MAP_FIXED|PRIVATE|ANON, RW
    else
        sys(226, page, 4096, 3, 0, 0, 0);       // mprotect RW
}

static void h_report(int sig, void *infop, void *u)
{
    (void)u;
    line("signal", sig);
    line("si_code", ((struct siginfo *)infop)->code);
    sys(94, 9, 0, 0, 0, 0, 0);
}

static volatile int alarms;
static void h_alarm(int sig, void *i, void *u) { (void)sig; (void)i; (void)u; alarms++; }

static volatile int fword;
static void h_set_fword(int sig, void *i, void *u) { (void)sig; (void)i; (void)u; fword = 1; }

static volatile int timer_hits, timer_code, timer_value;
static void h_timer(int sig, void *infop, void *u)
{
    (void)sig; (void)u;
    struct siginfo *si = infop;
    timer_hits++;
    timer_code = si->code;
    timer_value = (int)si->w[2];
}

static void set_itimer(long first_us, long every_us)
{
    long v[4] = { every_us / 1000000, every_us % 1000000, first_us / 1000000, first_us % 1000000 };
    sys(103, 0, (long)v, 0, 0, 0, 0);
}

int main(int argc, char **argv, char **envp)
{
    (void)envp;
    if (argc > 1 && argv[1][0] == 't') {
        tkill_(SIGTERM);
        put_str("not reached\n");
        return 0;
    }
    if (argc > 1 && (argv[1][0] == 'b' || argv[1][0] == 'l')) {
        sigaction_(7, h_report, SA_SIGINFO, 0, 0);
        sigaction_(4, h_report, SA_SIGINFO, 0, 0);
        if (argv[1][0] == 'b') {
            static int words[2];
            long v, a = (long)words + 2;
            __asm__ volatile("%0 = memw(%1+#0)" : "=r"(v) : "r"(a) : "memory");
            line("misaligned", v);
        } else {
            __asm__ volatile(".word 0xffffffff");
        }
        return 1;
    }
    if (argc > 1 && argv[1][0] == 'p') {   // a pipe nobody reads: SIGPIPE, default action
        int fds[2];
        sys(59, (long)fds, 0, 0, 0, 0, 0);
        sys(57, fds[0], 0, 0, 0, 0, 0);
        sigaction_(13, (void (*)(int, void *, void *))1, 0, 0, 0);
        line("write, SIGPIPE ignored", sys(64, fds[1], (long)"x", 1, 0, 0, 0));
        sigaction_(13, 0, 0, 0, 0);
        sys(64, fds[1], (long)"x", 1, 0, 0, 0);
        put_str("not reached\n");
        return 0;
    }
    if (argc > 1 && argv[1][0] == 'd') {
        static volatile int never;
        sys(422, (long)&never, 128, 0, 0, 0, 0);
        return 0;
    }
    if (argc > 1 && argv[1][0] == 'i') {
        sigaction_(SIGTERM, (void (*)(int, void *, void *))1, 0, 0, 0);
        line("ignored SIGTERM, kill", kill_(SIGTERM));
        return 5;
    }
    line("sigaction bad size", sys(134, SIGUSR1, 0, 0, 4, 0, 0));
    line("sigaction SIGKILL", sigaction_(9, h_info, SA_SIGINFO, 0, 0));
    line("sigaction 65", sigaction_(65, h_info, SA_SIGINFO, 0, 0));

    // kill: SI_USER with the sender's pid; the frame's mask is the one before the handler
    sigaction_(SIGUSR1, h_info, SA_SIGINFO, BIT(SIGUSR2), 0);
    sigmask_(0, BIT(3), 0);   // block SIGQUIT, to see it in the frame
    line("kill", kill_(SIGUSR1));
    line("handler ran", hits);
    line("signo", last_sig);
    line("si_code (SI_USER)", last_code);
    line("si_pid is the sender", info_pid_ok);
    line("uc_sigmask is the mask before", uc_mask == BIT(3));
    line("mask after the handler", getmask() == BIT(3));
    sigmask_(2, 0, 0);
    tkill_(SIGUSR1);
    line("tkill si_code (SI_TKILL)", last_code);

    // blocked: pending until unblocked, then delivered before sigprocmask returns
    hits = 0;
    sigmask_(0, BIT(SIGUSR1), 0);
    kill_(SIGUSR1);
    u64 pend = 0;
    sys(136, (long)&pend, 8, 0, 0, 0, 0);
    line("blocked: handler ran", hits);
    line("pending has SIGUSR1", pend == BIT(SIGUSR1));
    sigmask_(1, BIT(SIGUSR1), 0);
    line("unblocked: handler ran", hits);
    sys(136, (long)&pend, 8, 0, 0, 0, 0);
    line("pending after", (long)pend);
    line("sigprocmask bad how", sys(135, 7, (long)&pend, 0, 8, 0, 0));

    // SA_RESETHAND: once, then the default action again
    struct ksigaction old;
    sigaction_(SIGUSR2, h_info, SA_SIGINFO | SA_RESETHAND, 0, 0);
    kill_(SIGUSR2);
    sigaction_(SIGUSR2, 0, 0, 0, &old);
    line("SA_RESETHAND: handler now SIG_DFL", old.h == 0);

    // SA_NODEFER: the handler's own signal nests
    sigaction_(SIGUSR2, h_nest, SA_NODEFER, 0, 0);
    tkill_(SIGUSR2);
    line("SA_NODEFER nesting depth", max_nest);
    max_nest = 0;
    calls = 0;
    sigaction_(SIGUSR2, h_nest, 0, 0, 0);
    tkill_(SIGUSR2);
    line("without SA_NODEFER depth", max_nest);
    line("calls", calls);

    // sigaltstack and SA_ONSTACK
    altstack = (char *)sys(222, 0, 16384, 3, 0x22, -1, 0);
    long ss[3] = { (long)altstack, 0, 16384 };
    line("sigaltstack", sys(132, (long)ss, 0, 0, 0, 0, 0));
    long small[3] = { (long)altstack, 0, 1000 };
    line("sigaltstack too small", sys(132, (long)small, 0, 0, 0, 0, 0));
    sigaction_(SIGUSR2, h_alt, SA_ONSTACK, 0, 0);
    tkill_(SIGUSR2);
    line("handler on the alternate stack", on_alt);
    sigaction_(SIGUSR2, h_alt, 0, 0, 0);
    tkill_(SIGUSR2);
    line("without SA_ONSTACK", on_alt);
    long oss[3];
    sys(132, 0, (long)oss, 0, 0, 0, 0);
    line("sigaltstack query size", oss[2]);

    // the saved registers: rt_sigreturn restores them, changed by the handler
    sigaction_(SIGUSR2, h_r20, SA_SIGINFO, 0, 0);
    line("r20 after the handler", r20_after_signal(SIGUSR2));

    // faults to a handler: an unmapped page, then a read-only one
    sigaction_(SIGSEGV, h_segv, SA_SIGINFO, 0, 0);
    volatile unsigned *p = (volatile unsigned *)0x50000010u;
    *p = 7;
    line("SEGV_MAPERR handled, store done", *p == 7 && fault_addr == 0x50000010u);
    line("si_code", fault_code);
    volatile unsigned *ro = (volatile unsigned *)sys(222, 0, 4096, 1, 0x22, -1, 0);
    ro[3] = 9;
    line("SEGV_ACCERR handled, store done", ro[3] == 9 && fault_addr == (unsigned)&ro[3]);
    line("si_code", fault_code);

    // sigsuspend: a pending blocked signal runs inside it; the mask comes back after
    hits = 0;
    sigmask_(0, BIT(SIGUSR1), 0);
    kill_(SIGUSR1);
    u64 none = 0;
    line("rt_sigsuspend", sys(133, (long)&none, 8, 0, 0, 0, 0));
    line("handler ran in it", hits);
    line("mask restored", getmask() == (BIT(SIGUSR1) | 0));

    // rt_sigtimedwait takes a blocked pending signal without its handler
    hits = 0;
    tkill_(SIGUSR1);
    struct siginfo si;
    u64 want = BIT(SIGUSR1);
    line("rt_sigtimedwait", sys(421, (long)&want, (long)&si, 0, 8, 0, 0));
    line("its si_code", si.code);
    line("handler did not run", hits);
    long long zero[2] = { 0, 1000000 };
    line("rt_sigtimedwait timeout", sys(421, (long)&want, 0, (long)zero, 8, 0, 0));
    sigmask_(2, 0, 0);

    // setitimer: SIGALRM interrupts a wait for signals (ppoll with nothing: pause)
    sigaction_(SIGALRM, h_alarm, 0, 0, 0);
    set_itimer(10000, 0);
    line("pause (ppoll) interrupted", sys(414, 0, 0, 0, 0, 0, 0));
    line("alarms", alarms);
    long itv[4];
    sys(102, 0, (long)itv, 0, 0, 0, 0);
    line("getitimer after it fired", itv[2] + itv[3]);
    set_itimer(1000000, 0);
    sys(102, 0, (long)itv, 0, 0, 0, 0);
    line("getitimer armed (<= 1 s, > 0.9 s)", itv[2] == 0 && itv[3] > 900000);
    set_itimer(0, 0);

    // nanosleep interrupted by the timer: -EINTR and the time left
    set_itimer(20000, 0);
    long long req[2] = { 2, 0 }, rem[2] = { -1, -1 };
    line("nanosleep interrupted", sys(407, 1, 0, (long)req, (long)rem, 0, 0));
    line("time left > 1.9 s", rem[0] == 1 && rem[1] > 900000000);

    // a futex wait: -EINTR without SA_RESTART; with it the call is made again (and the
    // handler changed the word: -EAGAIN)
    sigaction_(SIGALRM, h_set_fword, 0, 0, 0);
    set_itimer(5000, 0);
    line("futex wait, no SA_RESTART", sys(422, (long)&fword, 128, 0, 0, 0, 0));
    fword = 0;
    sigaction_(SIGALRM, h_set_fword, SA_RESTART, 0, 0);
    set_itimer(5000, 0);
    line("futex wait, SA_RESTART", sys(422, (long)&fword, 128, 0, 0, 0, 0));

    // POSIX timer: periodic, 3 expirations caught with sigsuspend
    sigaction_(SIGUSR2, h_timer, SA_SIGINFO, 0, 0);
    long sev[4] = { 1234, SIGUSR2, 0, 0 };
    int tid = -1;
    line("timer_create", sys(107, 1, (long)sev, (long)&tid, 0, 0, 0));
    line("timer id valid", tid >= 0);
    long long its[4] = { 0, 3000000, 0, 3000000 };
    line("timer_settime64", sys(409, tid, 0, (long)its, 0, 0, 0));
    sigmask_(0, BIT(SIGUSR2), 0);
    for (int i = 0; i < 3; i++)
        sys(133, (long)&none, 8, 0, 0, 0, 0);
    sigmask_(2, 0, 0);
    line("timer signals", timer_hits);
    line("si_code (SI_TIMER)", timer_code);
    line("si_value", timer_value);
    long long cur[4];
    line("timer_gettime64", sys(408, tid, (long)cur, 0, 0, 0, 0));
    line("interval kept", cur[1] == 3000000);
    line("timer_delete", sys(111, tid, 0, 0, 0, 0, 0));
    line("timer_delete again", sys(111, tid, 0, 0, 0, 0, 0));

    // rt_sigqueueinfo: the sender's code and value reach the handler
    sigaction_(SIGUSR1, h_timer, SA_SIGINFO, 0, 0);
    static struct siginfo qi;
    qi.signo = SIGUSR1;
    qi.code = -1;
    qi.w[0] = (unsigned)getpid_();
    qi.w[2] = 4321;
    line("rt_sigqueueinfo", sys(138, getpid_(), SIGUSR1, (long)&qi, 0, 0, 0));
    line("its si_code (SI_QUEUE)", timer_code);
    line("its value", timer_value);
    qi.code = 0;
    line("rt_sigqueueinfo with SI_USER", sys(138, getpid_(), SIGUSR1, (long)&qi, 0, 0, 0));

    // kill with signal 0 checks the process
    line("kill 0", kill_(0));
    line("kill other pid", sys(129, 12345, 0, 0, 0, 0, 0));
    return 0;
}
