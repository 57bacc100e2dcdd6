// SPDX-License-Identifier: MIT
// setjmp/longjmp and sigsetjmp/siglongjmp: returns through several frames, the value
// (0 becomes 1), callee-saved state and volatile locals afterwards, jumps out of
// recursion, and the signal mask restored by siglongjmp when saved, kept when not.
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static jmp_buf jb;
static sigjmp_buf sjb;

static int depth(int n, int jump_at)
{
    volatile char pad[64];
    pad[n % 64] = (char)n;
    if (n == jump_at)
        longjmp(jb, n * 10);
    return depth(n + 1, jump_at) + pad[n % 64];
}

static void thrower(int v) { longjmp(jb, v); }

static int blocked(int sig)
{
    sigset_t s;
    sigprocmask(SIG_BLOCK, NULL, &s);
    return sigismember(&s, sig);
}

int main(void)
{
    volatile int counter = 0;
    int r = setjmp(jb);
    counter++;
    printf("setjmp returned %d (counter %d)\n", r, counter);
    if (r == 0)
        thrower(0);
    if (r == 1)
        thrower(42);
    // Registers the ABI preserves survive: many live values across the call.
    volatile long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    if ((r = setjmp(jb)) == 0)
        depth(0, 100);
    printf("deep return %d sum %ld\n", r, a + b + c + d + e + f + g + h);
    for (int i = 0; i < 3; i++) {
        if ((r = setjmp(jb)) == 0)
            depth(0, i * 7 + 1);
        printf("depth jump %d\n", r);
    }

    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGUSR1);
    sigprocmask(SIG_BLOCK, &s, NULL);
    if ((r = sigsetjmp(sjb, 1)) == 0) {
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        printf("before siglongjmp blocked %d\n", blocked(SIGUSR1));
        siglongjmp(sjb, 5);
    }
    printf("siglongjmp %d restored mask: blocked %d\n", r, blocked(SIGUSR1));
    if ((r = sigsetjmp(sjb, 0)) == 0) {
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        siglongjmp(sjb, 6);
    }
    printf("siglongjmp %d mask kept: blocked %d\n", r, blocked(SIGUSR1));
    return 0;
}
