// SPDX-License-Identifier: MIT
// Signals: sigaction handlers with SA_SIGINFO (si_signo, si_code for raise, kill and
// a fault), the mask (blocked signals stay pending, arrive on unblock, sigpending,
// the handler's own signal blocked inside it, sa_mask), SA_RESETHAND, sigaltstack
// with SA_ONSTACK, an interval timer (setitimer) and alarm waking sigsuspend/pause,
// a store to an unmapped address delivered as SIGSEGV with si_addr and left with
// siglongjmp, and at the end a default action: SIGTERM ends the process (status
// 128+15).
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t hits[65];
static volatile int last_code, last_signo, inside_blocked, other_blocked;
static volatile uintptr_t fault_addr;
static char *altstack;
static volatile int on_alt;
static sigjmp_buf recover;

static int is_blocked(int sig)
{
    sigset_t s;
    sigprocmask(SIG_BLOCK, NULL, &s);
    return sigismember(&s, sig);
}

static void info_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    hits[sig]++;
    last_signo = si->si_signo;
    last_code = si->si_code;
    inside_blocked = is_blocked(sig);
    other_blocked = is_blocked(SIGUSR2);
}

static void plain_handler(int sig)
{
    hits[sig]++;
    char here;
    on_alt = &here >= altstack && &here < altstack + SIGSTKSZ;
}

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    hits[sig]++;
    last_code = si->si_code;
    fault_addr = (uintptr_t)si->si_addr;
    siglongjmp(recover, 1);
}

static const char *code_name(int c)
{
    switch (c) {
    case SI_USER: return "SI_USER";
    case SI_TKILL: return "SI_TKILL";
    case SI_KERNEL: return "SI_KERNEL";
    case SEGV_MAPERR: return "SEGV_MAPERR";
    case SEGV_ACCERR: return "SEGV_ACCERR";
    default: return "other";
    }
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = info_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGUSR2);
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    printf("raise: hits %d signo %d code %s blocked inside %d sa_mask applied %d after %d\n",
           hits[SIGUSR1], last_signo, code_name(last_code), inside_blocked, other_blocked,
           is_blocked(SIGUSR1));
    kill(getpid(), SIGUSR1);
    printf("kill: hits %d code %s\n", hits[SIGUSR1], code_name(last_code));

    sigset_t block, pend;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigprocmask(SIG_BLOCK, &block, NULL);
    raise(SIGUSR1);
    raise(SIGUSR1);
    sigpending(&pend);
    printf("blocked: hits %d pending %d\n", hits[SIGUSR1], sigismember(&pend, SIGUSR1));
    sigprocmask(SIG_UNBLOCK, &block, NULL);
    printf("unblocked: hits %d (standard signals do not queue)\n", hits[SIGUSR1]);

    struct sigaction old;
    sigaction(SIGUSR1, NULL, &old);
    printf("query: siginfo %d same handler %d\n", (old.sa_flags & SA_SIGINFO) != 0,
           old.sa_sigaction == info_handler);

    // SA_RESETHAND: the second delivery takes the default action, which for SIGCHLD is
    // to ignore it.
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = plain_handler;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGCHLD, &sa, NULL);
    raise(SIGCHLD);
    raise(SIGCHLD);
    sigaction(SIGCHLD, NULL, &old);
    printf("resethand: hits %d now default %d\n", hits[SIGCHLD], old.sa_handler == SIG_DFL);

    altstack = malloc(SIGSTKSZ);
    stack_t ss = { .ss_sp = altstack, .ss_size = SIGSTKSZ, .ss_flags = 0 };
    printf("sigaltstack %d\n", sigaltstack(&ss, NULL));
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = plain_handler;
    sa.sa_flags = SA_ONSTACK;
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    printf("onstack: hits %d on alternate stack %d\n", hits[SIGUSR2], on_alt);
    sa.sa_flags = 0;
    sigaction(SIGUSR2, &sa, NULL);
    raise(SIGUSR2);
    printf("not onstack: hits %d on alternate stack %d\n", hits[SIGUSR2], on_alt);

    memset(&sa, 0, sizeof sa);
    sa.sa_handler = plain_handler;
    sigaction(SIGALRM, &sa, NULL);
    sigprocmask(SIG_BLOCK, (sigset_t[]){ { { 0 } } }, NULL);
    struct itimerval it = { .it_value = { 0, 30000 }, .it_interval = { 0, 20000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    sigset_t empty;
    sigemptyset(&empty);
    while (hits[SIGALRM] < 3)
        if (sigsuspend(&empty) != -1 || errno != EINTR) {
            printf("sigsuspend failed\n");
            break;
        }
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    printf("itimer: %d expiries seen\n", hits[SIGALRM] >= 3);
    alarm(1);
    if (pause() != -1 || errno != EINTR)
        printf("pause failed\n");
    printf("alarm: hits %d\n", hits[SIGALRM] >= 4);

    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = segv_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGSEGV, &sa, NULL);
    volatile int *bad = (volatile int *)(uintptr_t)16;
    if (sigsetjmp(recover, 1) == 0) {
        *bad = 1;
        printf("store did not fault\n");
    }
    printf("segv: hits %d code %s addr %#lx\n", hits[SIGSEGV], code_name(last_code), (unsigned long)fault_addr);

    fflush(stdout);
    signal(SIGTERM, SIG_DFL);
    raise(SIGTERM);
    printf("still alive after SIGTERM\n");
    return 0;
}
