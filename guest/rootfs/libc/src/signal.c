// SPDX-License-Identifier: MIT
// Signals through rt_sigaction / rt_sigprocmask (8-byte kernel sigset).
#include <signal.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"

int sigaction(int sig, const struct sigaction *restrict act, struct sigaction *restrict old)
{
    return (int)__ret(__sc4(SYS_rt_sigaction, sig, act, old, 8));
}

sighandler_t signal(int sig, sighandler_t h)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = SA_RESTART;
    if (sigaction(sig, &sa, &old) < 0)
        return SIG_ERR;
    return old.sa_handler;
}

int sigemptyset(sigset_t *s) { s->sig[0] = s->sig[1] = 0; return 0; }
int sigfillset(sigset_t *s) { s->sig[0] = s->sig[1] = ~0ul; return 0; }
int sigaddset(sigset_t *s, int sig)
{
    if (sig < 1 || sig > 64) { errno = EINVAL; return -1; }
    s->sig[(sig - 1) / 32] |= 1ul << ((sig - 1) % 32);
    return 0;
}
int sigdelset(sigset_t *s, int sig)
{
    if (sig < 1 || sig > 64) { errno = EINVAL; return -1; }
    s->sig[(sig - 1) / 32] &= ~(1ul << ((sig - 1) % 32));
    return 0;
}
int sigismember(const sigset_t *s, int sig)
{
    if (sig < 1 || sig > 64) return 0;
    return (s->sig[(sig - 1) / 32] >> ((sig - 1) % 32)) & 1;
}
int sigprocmask(int how, const sigset_t *restrict set, sigset_t *restrict old)
{
    return (int)__ret(__sc4(SYS_rt_sigprocmask, how, set, old, 8));
}
int kill(pid_t pid, int sig) { return (int)__ret(__sc2(SYS_kill, pid, sig)); }
int raise(int sig) { return kill(getpid(), sig); }
