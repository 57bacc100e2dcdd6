// SPDX-License-Identifier: MIT
// POSIX threads over their life: many short-lived threads created and joined, detached
// threads that finish on their own, signals sent to one thread (pthread_kill) and caught
// there, sigwait in a thread with the signal blocked everywhere else, timed waits that
// time out (pthread_cond_timedwait, sem_timedwait, pthread_mutex_timedlock) and that are
// woken in time, thread-local storage seen fresh in every thread, and a thread that ends
// the whole process with exit() while the main thread still waits in pthread_join
// (atexit handlers run once). What it prints does not depend on the order the threads
// run in, so the host, qemu-hexagon, hexsim --user and the booted guest agree.
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static __thread int tls_counter;
static __thread pthread_t tls_self;

static void die(const char *what, int err)
{
    printf("FAIL: %s: %s\n", what, strerror(err));
    fflush(stdout);
    _exit(1);
}

// --- many short-lived threads ---------------------------------------------------------

static void *short_lived(void *arg)
{
    long id = (long)arg;
    tls_counter += (int)id; // fresh TLS: starts at 0 in every thread
    tls_self = pthread_self();
    if (!pthread_equal(tls_self, pthread_self()))
        return (void *)-1L;
    return (void *)(long)(tls_counter * 2);
}

static void many_threads(void)
{
    enum { ROUNDS = 25, WIDTH = 8 };
    long sum = 0;
    for (int r = 0; r < ROUNDS; r++) {
        pthread_t t[WIDTH];
        for (long i = 0; i < WIDTH; i++) {
            int e = pthread_create(&t[i], NULL, short_lived, (void *)(r * WIDTH + i));
            if (e)
                die("pthread_create", e);
        }
        for (int i = 0; i < WIDTH; i++) {
            void *ret;
            int e = pthread_join(t[i], &ret);
            if (e)
                die("pthread_join", e);
            sum += (long)ret;
        }
    }
    long n = ROUNDS * WIDTH;
    printf("short-lived threads: %ld joined, sum of results %ld (expected %ld)\n", n, sum,
           n * (n - 1));
}

// --- detached threads -----------------------------------------------------------------

static sem_t detached_done;
static pthread_mutex_t detached_lock = PTHREAD_MUTEX_INITIALIZER;
static int detached_total;

static void *detached(void *arg)
{
    pthread_mutex_lock(&detached_lock);
    detached_total += (int)(long)arg;
    pthread_mutex_unlock(&detached_lock);
    sem_post(&detached_done);
    return NULL;
}

static void detached_threads(void)
{
    enum { N = 16 };
    sem_init(&detached_done, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (long i = 1; i <= N; i++) {
        pthread_t t;
        int e = pthread_create(&t, &attr, detached, (void *)i);
        if (e)
            die("pthread_create detached", e);
    }
    // the other way to detach: after creation
    pthread_t late;
    int e = pthread_create(&late, NULL, detached, (void *)100L);
    if (e)
        die("pthread_create", e);
    pthread_detach(late);
    for (int i = 0; i < N + 1; i++)
        while (sem_wait(&detached_done) != 0 && errno == EINTR)
            ;
    pthread_attr_destroy(&attr);
    printf("detached threads: %d finished, total %d\n", N + 1, detached_total);
}

// --- signals directed at one thread ---------------------------------------------------

static volatile sig_atomic_t usr1_count;
static pthread_t usr1_target;
static volatile sig_atomic_t usr1_wrong_thread;

static void on_usr1(int sig)
{
    (void)sig;
    if (!pthread_equal(pthread_self(), usr1_target))
        usr1_wrong_thread = 1;
    usr1_count++;
}

static sem_t target_ready, target_go;

static void *signal_target(void *arg)
{
    (void)arg;
    sem_post(&target_ready);
    while (sem_wait(&target_go) != 0 && errno == EINTR)
        ;
    return (void *)(long)usr1_count;
}

static void *sigwaiter(void *arg)
{
    sigset_t *set = arg;
    int sig = 0, got = 0;
    for (int i = 0; i < 3; i++) {
        int e = sigwait(set, &sig);
        if (e)
            die("sigwait", e);
        if (sig == SIGUSR2)
            got++;
    }
    return (void *)(long)got;
}

static void thread_signals(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
    sem_init(&target_ready, 0, 0);
    sem_init(&target_go, 0, 0);

    // The target is created while SIGUSR1 is unblocked (it inherits that mask); main
    // then blocks it, so only the target can take what pthread_kill sends it.
    pthread_t t;
    int e = pthread_create(&t, NULL, signal_target, NULL);
    if (e)
        die("pthread_create target", e);
    usr1_target = t;
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    pthread_sigmask(SIG_BLOCK, &usr1, NULL);
    while (sem_wait(&target_ready) != 0 && errno == EINTR)
        ;
    for (int i = 0; i < 5; i++) {
        e = pthread_kill(t, SIGUSR1);
        if (e)
            die("pthread_kill", e);
    }
    // Signals of one kind pending at once merge: count "at least once", and wait
    // until the handler has run before letting the target finish.
    struct timespec ts = { 0, 1000000 };
    for (int spins = 0; usr1_count == 0 && spins < 5000; spins++)
        nanosleep(&ts, NULL);
    sem_post(&target_go);
    void *ret;
    pthread_join(t, &ret);
    printf("pthread_kill: handler ran in the target thread %s, %s\n",
           usr1_wrong_thread ? "NO (another thread)" : "yes",
           (long)ret >= 1 ? "at least once" : "never");
    pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);

    // sigwait: SIGUSR2 blocked in every thread, taken by the one that waits for it.
    sigset_t usr2;
    sigemptyset(&usr2);
    sigaddset(&usr2, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &usr2, NULL);
    pthread_t w;
    e = pthread_create(&w, NULL, sigwaiter, &usr2);
    if (e)
        die("pthread_create sigwaiter", e);
    for (int i = 0; i < 3; i++) {
        pthread_kill(w, SIGUSR2);
        // the next one only after this one was taken: a pending signal is not queued twice
        for (int spins = 0; spins < 50; spins++)
            nanosleep(&ts, NULL);
    }
    pthread_join(w, &ret);
    printf("sigwait in a thread: %ld of 3 SIGUSR2 taken\n", (long)ret);
    pthread_sigmask(SIG_UNBLOCK, &usr2, NULL);
}

// --- timed waits ----------------------------------------------------------------------

static struct timespec in_ms(long ms)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000L;
    if (ts.tv_nsec >= 1000000000L) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000L;
    }
    return ts;
}

static double elapsed_ms(const struct timespec *a, const struct timespec *b)
{
    return (b->tv_sec - a->tv_sec) * 1e3 + (b->tv_nsec - a->tv_nsec) / 1e6;
}

static pthread_mutex_t cv_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int cv_flag;
static sem_t wake_sem;

static void *waker(void *arg)
{
    (void)arg;
    struct timespec ts = { 0, 20000000 };
    nanosleep(&ts, NULL);
    pthread_mutex_lock(&cv_lock);
    cv_flag = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&cv_lock);
    sem_post(&wake_sem);
    return NULL;
}

static void *holder(void *arg)
{
    pthread_mutex_t *m = arg;
    pthread_mutex_lock(m);
    sem_post(&wake_sem);
    struct timespec ts = { 0, 300000000 };
    nanosleep(&ts, NULL);
    pthread_mutex_unlock(m);
    return NULL;
}

static void timed_waits(void)
{
    struct timespec t0, t1, dl;
    // a condition wait nobody signals: times out, not early
    pthread_mutex_lock(&cv_lock);
    clock_gettime(CLOCK_REALTIME, &t0);
    dl = in_ms(50);
    int e;
    do
        e = pthread_cond_timedwait(&cv, &cv_lock, &dl);
    while (e == 0);
    clock_gettime(CLOCK_REALTIME, &t1);
    pthread_mutex_unlock(&cv_lock);
    printf("cond_timedwait unsignalled: %s after >= 50 ms: %s\n", e == ETIMEDOUT ? "ETIMEDOUT" : strerror(e),
           elapsed_ms(&t0, &t1) >= 49.0 ? "yes" : "no");

    // one that is signalled well before its deadline
    sem_init(&wake_sem, 0, 0);
    pthread_t t;
    pthread_mutex_lock(&cv_lock);
    pthread_create(&t, NULL, waker, NULL);
    dl = in_ms(10000);
    e = 0;
    while (!cv_flag && e == 0)
        e = pthread_cond_timedwait(&cv, &cv_lock, &dl);
    pthread_mutex_unlock(&cv_lock);
    pthread_join(t, NULL);
    printf("cond_timedwait signalled: %s, flag %d\n", e == 0 ? "woken" : strerror(e), cv_flag);
    while (sem_wait(&wake_sem) != 0 && errno == EINTR)
        ;

    // a semaphore nobody posts
    sem_t s;
    sem_init(&s, 0, 0);
    clock_gettime(CLOCK_REALTIME, &t0);
    dl = in_ms(30);
    int r;
    do
        r = sem_timedwait(&s, &dl);
    while (r != 0 && errno == EINTR);
    clock_gettime(CLOCK_REALTIME, &t1);
    printf("sem_timedwait unposted: %s after >= 30 ms: %s\n",
           r != 0 && errno == ETIMEDOUT ? "ETIMEDOUT" : "something else",
           elapsed_ms(&t0, &t1) >= 29.0 ? "yes" : "no");

    // a mutex another thread holds for 300 ms: timedlock of 40 ms fails, of 10 s succeeds
    pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
    pthread_create(&t, NULL, holder, &m);
    while (sem_wait(&wake_sem) != 0 && errno == EINTR)
        ;
    dl = in_ms(40);
    e = pthread_mutex_timedlock(&m, &dl);
    printf("mutex_timedlock while held: %s\n", e == ETIMEDOUT ? "ETIMEDOUT" : strerror(e));
    dl = in_ms(10000);
    e = pthread_mutex_timedlock(&m, &dl);
    printf("mutex_timedlock after release: %s\n", e == 0 ? "taken" : strerror(e));
    if (e == 0)
        pthread_mutex_unlock(&m);
    pthread_join(t, NULL);
}

// --- a thread calls exit() ------------------------------------------------------------

static void at_exit(void)
{
    printf("atexit handler ran in the exiting thread: %s\n",
           tls_counter == 4242 ? "yes" : "no");
    fflush(stdout);
}

static void *exiter(void *arg)
{
    (void)arg;
    tls_counter = 4242;
    exit(3);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    tls_counter = 1;
    many_threads();
    detached_threads();
    thread_signals();
    timed_waits();
    printf("main thread's TLS kept: %d\n", tls_counter);
    atexit(at_exit);
    pthread_t t;
    int e = pthread_create(&t, NULL, exiter, NULL);
    if (e)
        die("pthread_create exiter", e);
    pthread_join(t, NULL); // never returns: the thread's exit(3) ends the process
    printf("FAIL: pthread_join of a thread that called exit returned\n");
    return 1;
}
