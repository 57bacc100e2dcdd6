// SPDX-License-Identifier: MIT
// Guest program for tests/user (os_test.py): threads made with raw clone (CLONE_VM|THREAD|
// SETTLS|PARENT_SETTID|CHILD_CLEARTID), a futex mutex they share, joins through the
// clear-and-wake at thread exit, TLS in UGP, futex errors and timeouts, requeue, gettid,
// tgkill to a thread with a handler, and exit of one thread against exit_group. What it
// prints does not depend on the order the threads run in, so qemu-hexagon (host threads)
// and hexsim (its own turns) agree.
#define URT_CLONE
#include "urt.h"

#define NT 4
#define ITER 3000
#define CLONE_FLAGS (0x100 | 0x200 | 0x400 | 0x800 | 0x10000 | 0x40000 | 0x80000 | 0x100000 | 0x200000)

static int futex(volatile int *a, int op, int val, const long long *ts, volatile int *a2, int v3)
{
    return (int)sys(422, (long)a, op, val, (long)ts, (long)a2, v3);
}
static long gettid(void) { return sys(178, 0, 0, 0, 0, 0, 0); }
static unsigned get_ugp(void) { unsigned v; __asm__ volatile("%0 = ugp" : "=r"(v)); return v; }
static void nsleep(long ns) { long long ts[2] = { 0, ns }; sys(407, 1, 0, (long)ts, 0, 0, 0); }

// a futex mutex: 0 free, 1 taken, 2 taken with waiters
static volatile int lock;
static void mutex_lock(void)
{
    int c = 0;
    if (__atomic_compare_exchange_n(&lock, &c, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    if (c != 2)
        c = __atomic_exchange_n(&lock, 2, __ATOMIC_ACQUIRE);
    while (c != 0) {
        futex(&lock, 128, 2, 0, 0, 0);
        c = __atomic_exchange_n(&lock, 2, __ATOMIC_ACQUIRE);
    }
}
static void mutex_unlock(void)
{
    if (__atomic_exchange_n(&lock, 0, __ATOMIC_RELEASE) == 2)
        futex(&lock, 129, 1, 0, 0, 0);
}

static volatile long counter;
static int tid_slot[NT];        // PARENT_SETTID writes, CHILD_CLEARTID clears at exit
static unsigned tls_block[NT][4];
static int tls_ok[NT];
static long tids[NT];
static char stacks[NT + 4][8192] __attribute__((aligned(8)));

static int worker(long i)
{
    tls_ok[i] = get_ugp() == (unsigned)tls_block[i];
    tids[i] = gettid();
    for (int k = 0; k < ITER; k++) {
        mutex_lock();
        long v = counter;
        if ((k & 63) == 0)
            sys(124, 0, 0, 0, 0, 0, 0);   // sched_yield while holding the lock
        counter = v + 1;
        mutex_unlock();
    }
    return 0;
}

static void *stack_for(int s, int (*fn)(long), long arg)
{
    long *top = (long *)(stacks[s] + sizeof(stacks[s])) - 2;
    top[0] = (long)fn;
    top[1] = arg;
    return top;
}

static void join(volatile int *slot)
{
    int v;
    while ((v = *slot) != 0)
        futex(slot, 0, v, 0, 0, 0);
}

// requeue: two waiters on f1 move to f2, then are woken there
static volatile int f1, f2, ready, woke;
static int waiter(long i)
{
    (void)i;
    __atomic_fetch_add(&ready, 1, __ATOMIC_SEQ_CST);
    futex(&f1, 128, 0, 0, 0, 0);   // f1 never changes: a wake after the requeue to f2 ends it
    __atomic_fetch_add(&woke, 1, __ATOMIC_SEQ_CST);
    return 0;
}

// tgkill to a thread waiting on a futex: its handler runs in that thread
static volatile long handler_tid;
static volatile int parked, park_result;
static void on_usr1(int sig) { (void)sig; handler_tid = gettid(); }
static int parker(long i)
{
    (void)i;
    parked = 1;
    int r;
    do
        r = futex(&f2, 0, f2, 0, 0, 0);   // woken by the signal: -EINTR (no SA_RESTART)
    while (handler_tid == 0);
    park_result = r == -4 || r == -11 || r == 0;
    return 0;
}

// a pipe between threads: the writer fills it (and waits while it is full), main reads
static int pipefd[2];
static int pipe_writer(long n)
{
    static char chunk[4096];
    for (long i = 0; i < n; i++) {
        for (int k = 0; k < 4096; k++)
            chunk[k] = (char)(i + k);
        for (long done = 0; done < 4096;)
            done += sys(64, pipefd[1], (long)chunk + done, 4096 - done, 0, 0, 0);
    }
    sys(57, pipefd[1], 0, 0, 0, 0, 0);
    return 0;
}

// a thread that calls exit_group while the main thread waits
static int ender(long i)
{
    nsleep(1000000);
    put_str("exit_group from a thread\n");
    sys(94, (long)i, 0, 0, 0, 0, 0);
    return 0;
}

int main(int argc, char **argv, char **envp)
{
    (void)envp;
    long main_tid = gettid();
    put_str("main tid = pid: "); put_dec(main_tid == sys(172, 0, 0, 0, 0, 0, 0)); put_str("\n");
    for (int i = 0; i < NT; i++) {
        long r = uclone(CLONE_FLAGS, stack_for(i, worker, i), &tid_slot[i], &tid_slot[i],
                        tls_block[i]);
        if (r <= 0) { put_str("clone failed\n"); return 1; }
    }
    for (int i = 0; i < NT; i++)
        join(&tid_slot[i]);
    put_str("counter="); put_dec(counter); put_str("\n");
    int tls_all = 1, distinct = 1;
    for (int i = 0; i < NT; i++) {
        tls_all &= tls_ok[i];
        for (int j = 0; j < i; j++)
            distinct &= tids[i] != tids[j];
        distinct &= tids[i] != main_tid;
    }
    put_str("tls="); put_dec(tls_all); put_str(" distinct tids="); put_dec(distinct); put_str("\n");

    volatile int w = 5;
    put_str("futex wrong value: "); put_dec(futex(&w, 128, 4, 0, 0, 0)); put_str("\n");
    put_str("futex bad op: "); put_dec(futex(&w, 128 | 77, 4, 0, 0, 0)); put_str("\n");
    put_str("futex unaligned: "); put_dec(futex((volatile int *)((char *)&w + 1), 128, 4, 0, 0, 0)); put_str("\n");
    put_str("futex wake nobody: "); put_dec(futex(&w, 129, 1, 0, 0, 0)); put_str("\n");
    long long t0[2], t1[2], to[2] = { 0, 20000000 };
    sys(403, 1, (long)t0, 0, 0, 0, 0);
    int r = futex(&w, 128, 5, to, 0, 0);
    sys(403, 1, (long)t1, 0, 0, 0, 0);
    long long el = (t1[0] - t0[0]) * 1000000000ll + (t1[1] - t0[1]);
    put_str("futex timeout: "); put_dec(r); put_str(" waited>=20ms: "); put_dec(el >= 20000000); put_str("\n");
    // absolute timeout with WAIT_BITSET (CLOCK_MONOTONIC): already past
    r = futex(&w, 128 | 9, 5, t0, 0, -1);
    put_str("futex bitset past deadline: "); put_dec(r); put_str("\n");
    put_str("futex bitset 0: "); put_dec(futex(&w, 128 | 9, 5, 0, 0, 0)); put_str("\n");

    int ws[2];
    for (int i = 0; i < 2; i++)
        uclone(CLONE_FLAGS, stack_for(NT + i, waiter, i), &ws[i], &ws[i], 0);
    int requeued = 0, woken = 0;
    for (int tries = 0; tries < 2000 && woke < 2; tries++) {
        nsleep(100000);
        if (ready < 2)
            continue;
        int q = futex(&f1, 128 | 4, 0, (const long long *)2, &f2, 0);   // CMP_REQUEUE: val3 0
        if (q > 0)
            requeued += q;
        woken += futex(&f2, 128 | 1, 2, 0, 0, 0);
        (void)woken;
    }
    join(&ws[0]);
    join(&ws[1]);
    put_str("requeue: waiters woken="); put_dec(woke); put_str(" requeued="); put_dec(requeued); put_str("\n");
    put_str("cmp_requeue mismatch: "); put_dec(futex(&f1, 128 | 4, 0, (const long long *)1, &f2, 9)); put_str("\n");

    long act[4] = { (long)on_usr1, 0, 0, 0 };
    sys(134, 10, (long)act, 0, 8, 0, 0);
    int pk;
    long ptid = uclone(CLONE_FLAGS, stack_for(NT + 2, parker, 0), &pk, &pk, 0);
    while (!parked)
        nsleep(100000);
    nsleep(1000000);
    put_str("tgkill: "); put_dec(sys(131, sys(172, 0, 0, 0, 0, 0, 0), ptid, 10, 0, 0, 0)); put_str("\n");
    join(&pk);
    put_str("handler ran in the target thread: "); put_dec(handler_tid == ptid); put_str("\n");
    put_str("parker saw its wait end: "); put_dec(park_result); put_str("\n");
    put_str("tgkill to an ended thread: "); put_dec(sys(131, sys(172, 0, 0, 0, 0, 0, 0), ptid, 10, 0, 0, 0)); put_str("\n");
    put_str("tkill bad signal: "); put_dec(sys(130, main_tid, 99, 0, 0, 0, 0)); put_str("\n");

    sys(59, (long)pipefd, 0, 0, 0, 0, 0);
    int pw;
    uclone(CLONE_FLAGS, stack_for(NT + 3, pipe_writer, 40), &pw, &pw, 0);
    long total = 0, sum = 0, n;
    static char rbuf[3000];
    while ((n = sys(63, pipefd[0], (long)rbuf, sizeof rbuf, 0, 0, 0)) > 0) {
        for (long k = 0; k < n; k++)
            sum += (unsigned char)rbuf[k];
        total += n;
    }
    join(&pw);
    sys(57, pipefd[0], 0, 0, 0, 0, 0);
    put_str("pipe between threads: "); put_dec(total); put_str(" bytes, sum "); put_dec(sum); put_str("\n");

    if (argc > 1 && argv[1][0] == 'g') {
        int e;
        uclone(CLONE_FLAGS, stack_for(NT + 3, ender, 42), &e, &e, 0);
        for (;;)
            futex(&f1, 128, 0, 0, 0, 0);   // never woken: the thread's exit_group ends all
    }
    return 3;
}
