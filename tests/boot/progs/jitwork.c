// SPDX-License-Identifier: MIT
// Guest workloads for the system-mode block equivalence test (tests/boot/jit_equiv_test.py),
// built with tools/hexagon-cc and run from the guest shell. Each mode prints what it did, so
// that a wrong result shows in the console output as well as in the packet counts:
//   cpu N      a compute loop (hashes, a sort, divisions) of N rounds, its checksum
//   fork       fork, exec of this program (`child 7`), wait: the child's exit status
//   child N    exits with status N after a little work
//   fault      a store to address 16: the kernel kills it (SIGSEGV)
//   signal     SIGUSR1 raised at itself and a SIGSEGV handler that leaves by siglongjmp
//   timer      an interval timer (ITIMER_REAL, 2 ms) interrupting a compute loop 25 times
//   smc        code written into an executable mapping, run 300 times, rewritten, run again
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

static uint32_t mix(uint32_t h, uint32_t v)
{
    h ^= v;
    h *= 0x9E3779B1u;
    return h ^ (h >> 15);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t compute(unsigned rounds)
{
    static uint32_t buf[256];
    uint32_t h = 12345;
    for (unsigned r = 0; r < rounds; r++) {
        for (unsigned i = 0; i < 256; i++)
            buf[i] = mix(h, i * r);
        if (r % 16 == 0)
            qsort(buf, 256, sizeof(buf[0]), cmp_u32);
        for (unsigned i = 0; i < 256; i += 7)
            h = mix(h, buf[i] / (1 + (buf[(i + 1) & 255] & 0xff)));
    }
    return h;
}

static volatile sig_atomic_t ticks, usr1;
static sigjmp_buf env;

static void on_alarm(int sig)
{
    (void)sig;
    ticks++;
}

static void on_usr1(int sig)
{
    (void)sig;
    usr1++;
}

static void on_segv(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)ctx;
    siglongjmp(env, (int)(uintptr_t)si->si_addr);
}

static int timer_mode(void)
{
    signal(SIGALRM, on_alarm);
    struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    uint32_t h = 0;
    unsigned rounds = 0;
    while (ticks < 25) {
        h = mix(h, compute(1));
        rounds++;
    }
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
    printf("timer: 25 ticks, %s rounds\n", rounds > 0 ? "some" : "no");
    return 0;
}

static int signal_mode(void)
{
    signal(SIGUSR1, on_usr1);
    for (int i = 0; i < 3; i++)
        raise(SIGUSR1);
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = on_segv;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);
    int caught = sigsetjmp(env, 1);
    if (!caught)
        *(volatile int *)(uintptr_t)0x40 = 1;   // faults: the handler jumps back
    printf("signal: usr1 %d, segv at 0x%x\n", (int)usr1, caught);
    return 0;
}

// { r0 = #1; jumpr r31 } (llvm-mc-16 -mattr=-duplex: 78004020 529fc000); r0 = #N is
// 0x78004000 | N << 5.
static int smc_mode(void)
{
    uint32_t *code = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) {
        printf("smc: mmap failed\n");
        return 1;
    }
    unsigned sum = 0;
    for (unsigned v = 1; v <= 3; v++) {
        code[0] = 0x78004000u | v << 5;
        code[1] = 0x529fc000u;
        int (*fn)(void) = (int (*)(void))(void *)code;
        for (int i = 0; i < 300; i++)
            sum += (unsigned)fn();
    }
    printf("smc: %u (expected 1800)\n", sum);
    return sum != 1800;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "cpu")) {
        unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 100;
        printf("cpu %u: %08x\n", n, (unsigned)compute(n));
        return 0;
    }
    if (!strcmp(mode, "child")) {
        printf("child: %08x\n", (unsigned)compute(8));
        return argc > 2 ? atoi(argv[2]) : 0;
    }
    if (!strcmp(mode, "fork")) {
        fflush(stdout);
        pid_t pid = fork();
        if (pid == 0) {
            execl("/bin/jitwork", "jitwork", "child", "7", (char *)NULL);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        printf("fork: child exited %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        return 0;
    }
    if (!strcmp(mode, "fault")) {
        printf("fault: storing to 0x10\n");
        fflush(stdout);
        *(volatile int *)(uintptr_t)0x10 = 1;
        printf("fault: still alive\n");
        return 1;
    }
    if (!strcmp(mode, "signal"))
        return signal_mode();
    if (!strcmp(mode, "timer"))
        return timer_mode();
    if (!strcmp(mode, "smc"))
        return smc_mode();
    printf("usage: jitwork cpu N|fork|fault|signal|timer|smc\n");
    return 2;
}
