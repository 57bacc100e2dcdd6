// SPDX-License-Identifier: MIT
// POSIX threads: create and join with return values, a mutex-protected counter, a
// condition-variable queue between producers and consumers, thread-local storage
// (__thread variables and pthread keys with destructors), pthread_once, a barrier,
// a read-write lock, a detached thread that reports through a semaphore, and
// pthread_self/pthread_equal, and cancellation of a thread blocked in a condition wait
// and of one sleeping (cancellation points, cleanup handlers, PTHREAD_CANCELED).
// Output is totals only, the same whatever the schedule.
#include <pthread.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4
#define ITERS 5000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;
static __thread int tls_value = 7;
static __thread char tls_buf[32];
static pthread_key_t key;
static int destructor_calls;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static pthread_barrier_t barrier;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int shared_table[THREADS];

static void destructor(void *p)
{
    pthread_mutex_lock(&lock);
    destructor_calls++;
    pthread_mutex_unlock(&lock);
    free(p);
}

static void init_once(void) { once_runs++; }

static void *worker(void *arg)
{
    int id = (int)(intptr_t)arg;
    pthread_once(&once, init_once);
    int tls_ok = tls_value == 7;
    tls_value = id * 100;
    snprintf(tls_buf, sizeof tls_buf, "thread %d", id);
    int *mine = malloc(sizeof *mine);
    *mine = id;
    pthread_setspecific(key, mine);
    for (int i = 0; i < ITERS; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
        if (i % 1000 == 0)
            sched_yield();
    }
    pthread_rwlock_wrlock(&rw);
    shared_table[id] = id + 1;
    pthread_rwlock_unlock(&rw);
    pthread_barrier_wait(&barrier);
    pthread_rwlock_rdlock(&rw);
    int seen = 0;
    for (int i = 0; i < THREADS; i++)
        seen += shared_table[i] != 0;
    pthread_rwlock_unlock(&rw);
    char expect[32];
    snprintf(expect, sizeof expect, "thread %d", id);
    int ok = tls_ok && tls_value == id * 100 && *(int *)pthread_getspecific(key) == id &&
             seen == THREADS;
    for (int i = 0; expect[i]; i++)
        ok &= tls_buf[i] == expect[i];
    return (void *)(intptr_t)(ok ? id + 1000 : -1);
}

#define QSIZE 8
static int queue[QSIZE], qhead, qtail, qcount, produced_done;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER, not_full = PTHREAD_COND_INITIALIZER;
static long consumed_sum;
static int consumed_n;

static void *producer(void *arg)
{
    int base = (int)(intptr_t)arg;
    for (int i = 1; i <= 500; i++) {
        pthread_mutex_lock(&lock);
        while (qcount == QSIZE)
            pthread_cond_wait(&not_full, &lock);
        queue[qtail] = base + i;
        qtail = (qtail + 1) % QSIZE;
        qcount++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *consumer(void *arg)
{
    (void)arg;
    for (;;) {
        pthread_mutex_lock(&lock);
        while (qcount == 0 && !produced_done)
            pthread_cond_wait(&not_empty, &lock);
        if (qcount == 0 && produced_done) {
            pthread_mutex_unlock(&lock);
            return NULL;
        }
        consumed_sum += queue[qhead];
        consumed_n++;
        qhead = (qhead + 1) % QSIZE;
        qcount--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&lock);
    }
}

static sem_t detached_done;
static volatile int detached_ran;

static void *detached(void *arg)
{
    detached_ran = (int)(intptr_t)arg;
    sem_post(&detached_done);
    return NULL;
}

static volatile int cleanups;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static pthread_mutex_t never_lock = PTHREAD_MUTEX_INITIALIZER;
static sem_t started;

static void cleanup(void *arg)
{
    cleanups += (int)(intptr_t)arg;
    if ((intptr_t)arg == 1)
        pthread_mutex_unlock(&never_lock);
}

static void *cancel_waiter(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&never_lock);
    pthread_cleanup_push(cleanup, (void *)(intptr_t)1);
    sem_post(&started);
    for (;;)
        pthread_cond_wait(&never, &never_lock);
    pthread_cleanup_pop(0);
    return NULL;
}

static void *cancel_sleeper(void *arg)
{
    (void)arg;
    pthread_cleanup_push(cleanup, (void *)(intptr_t)10);
    sem_post(&started);
    for (;;)
        sleep(1);
    pthread_cleanup_pop(0);
    return NULL;
}

int main(void)
{
    pthread_key_create(&key, destructor);
    pthread_barrier_init(&barrier, NULL, THREADS);
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i) != 0) {
            printf("pthread_create failed\n");
            return 1;
        }
    int good = 0;
    for (int i = 0; i < THREADS; i++) {
        void *ret;
        pthread_join(t[i], &ret);
        good += (intptr_t)ret == i + 1000;
    }
    printf("workers ok %d counter %ld once %d destructors %d main tls %d\n", good, counter, once_runs,
           destructor_calls, tls_value);

    pthread_t p[2], c[3];
    for (int i = 0; i < 2; i++)
        pthread_create(&p[i], NULL, producer, (void *)(intptr_t)(i * 10000));
    for (int i = 0; i < 3; i++)
        pthread_create(&c[i], NULL, consumer, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(p[i], NULL);
    pthread_mutex_lock(&lock);
    produced_done = 1;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&lock);
    for (int i = 0; i < 3; i++)
        pthread_join(c[i], NULL);
    printf("queue consumed %d sum %ld\n", consumed_n, consumed_sum);

    sem_init(&detached_done, 0, 0);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 64 * 1024);
    pthread_t d;
    int r = pthread_create(&d, &attr, detached, (void *)(intptr_t)99);
    sem_wait(&detached_done);
    printf("detached create %d ran %d\n", r, detached_ran);
    printf("self equal %d\n", pthread_equal(pthread_self(), pthread_self()));
    pthread_mutex_t m;
    pthread_mutexattr_t ma;
    pthread_mutexattr_init(&ma);
    pthread_mutexattr_settype(&ma, PTHREAD_MUTEX_RECURSIVE);
    pthread_mutex_init(&m, &ma);
    int a = pthread_mutex_lock(&m), b = pthread_mutex_lock(&m), tl = pthread_mutex_trylock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    pthread_mutex_unlock(&m);
    printf("recursive %d %d %d\n", a, b, tl);

    sem_init(&started, 0, 0);
    pthread_t cw, cs;
    pthread_create(&cw, NULL, cancel_waiter, NULL);
    pthread_create(&cs, NULL, cancel_sleeper, NULL);
    sem_wait(&started);
    sem_wait(&started);
    int c1 = pthread_cancel(cw), c2 = pthread_cancel(cs);
    void *r1, *r2;
    pthread_join(cw, &r1);
    pthread_join(cs, &r2);
    printf("cancel %d %d canceled %d %d cleanups %d\n", c1, c2, r1 == PTHREAD_CANCELED,
           r2 == PTHREAD_CANCELED, cleanups);
    return 0;
}
