// SPDX-License-Identifier: MIT
// Event descriptors: eventfd (counting and semaphore), epoll over an eventfd, a pipe and a
// timerfd (epoll_wait blocking until the timer fires), timerfd_gettime/settime (interval,
// disarm, TFD_TIMER_ABSTIME), poll and select of a timerfd, signalfd (a blocked signal
// read as a record, readable through epoll), inotify of a directory, memfd_create, and
// the errors of bad calls. Times are printed only where they do not depend on the
// machine's speed.
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s (errno %d)\n", __LINE__, #c, errno); exit(1); } } while (0)

static void eventfds(void)
{
    int e = eventfd(3, EFD_CLOEXEC);
    CHECK(e >= 0);
    uint64_t v = 4;
    CHECK(write(e, &v, 8) == 8);
    CHECK(read(e, &v, 8) == 8);
    printf("eventfd count %llu\n", (unsigned long long)v);
    int s = eventfd(2, EFD_SEMAPHORE | EFD_NONBLOCK);
    CHECK(s >= 0);
    CHECK(read(s, &v, 8) == 8);
    printf("semaphore read %llu\n", (unsigned long long)v);
    CHECK(read(s, &v, 8) == 8);
    printf("empty semaphore: %s\n", read(s, &v, 8) < 0 && errno == EAGAIN ? "EAGAIN" : "other");
    printf("short read: %s\n", read(e, &v, 4) < 0 && errno == EINVAL ? "EINVAL" : "other");
    close(e);
    close(s);
}

static void epolls(void)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    CHECK(ep >= 0);
    int e = eventfd(0, 0), p[2];
    CHECK(e >= 0 && pipe(p) == 0);
    struct epoll_event ev = { .events = EPOLLIN, .data.u64 = 0x1122334455667788ull };
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, e, &ev) == 0);
    ev.data.u64 = 7;
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev) == 0);
    printf("add twice: %s\n", epoll_ctl(ep, EPOLL_CTL_ADD, e, &ev) < 0 && errno == EEXIST
                                  ? "EEXIST" : "other");
    struct epoll_event out[4];
    printf("nothing ready: %d\n", epoll_wait(ep, out, 4, 0));
    uint64_t one = 1;
    CHECK(write(e, &one, 8) == 8);
    CHECK(write(p[1], "x", 1) == 1);
    int n = epoll_wait(ep, out, 4, -1);
    uint64_t seen = 0;
    for (int i = 0; i < n; i++)
        seen += out[i].data.u64 + out[i].events;
    printf("ready %d, data and events sum %#llx\n", n, (unsigned long long)seen);
    CHECK(epoll_ctl(ep, EPOLL_CTL_DEL, p[0], NULL) == 0);
    n = epoll_wait(ep, out, 4, 0);
    printf("after del: %d, data %#llx\n", n, n > 0 ? (unsigned long long)out[0].data.u64 : 0ull);

    // a timerfd joins: epoll_wait sleeps until it fires
    CHECK(read(e, &one, 8) == 8);
    int t = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
    CHECK(t >= 0);
    ev.events = EPOLLIN;
    ev.data.fd = t;
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, t, &ev) == 0);
    struct itimerspec its = { { 0, 20000000 }, { 0, 50000000 } }, cur;
    CHECK(timerfd_settime(t, 0, &its, NULL) == 0);
    CHECK(timerfd_gettime(t, &cur) == 0);
    printf("timer: interval %ld ns, value in (0, 50 ms] %d\n", cur.it_interval.tv_nsec,
           cur.it_value.tv_sec == 0 && cur.it_value.tv_nsec > 0 &&
           cur.it_value.tv_nsec <= 50000000);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    n = epoll_wait(ep, out, 4, -1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    printf("epoll woke: %d event(s), timer's %d, after >= 40 ms %d\n", n,
           n == 1 && out[0].data.fd == t, ms >= 40);
    uint64_t exp;
    CHECK(read(t, &exp, 8) == 8);
    printf("expirations >= 1: %d\n", exp >= 1);
    // a blocking read waits for the next period
    CHECK(read(t, &exp, 8) == 8);
    printf("next period read: %d\n", exp >= 1);
    // poll and select see it too
    struct pollfd pf = { t, POLLIN, 0 };
    n = poll(&pf, 1, -1);
    printf("poll: %d revents %#x\n", n, pf.revents);
    CHECK(read(t, &exp, 8) == 8);
    fd_set rs;
    FD_ZERO(&rs);
    FD_SET(t, &rs);
    n = select(t + 1, &rs, NULL, NULL, NULL);
    printf("select: %d set %d\n", n, FD_ISSET(t, &rs) != 0);
    // disarm: nothing more comes
    memset(&its, 0, sizeof(its));
    CHECK(timerfd_settime(t, 0, &its, &cur) == 0);
    printf("old interval %ld ns\n", cur.it_interval.tv_nsec);
    CHECK(timerfd_gettime(t, &cur) == 0);
    printf("disarmed: %ld %ld\n", (long)cur.it_value.tv_sec, cur.it_value.tv_nsec);
    printf("wait after disarm: %d\n", epoll_wait(ep, out, 4, 30));
    // an absolute time in the past fires at once
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    its.it_value = now;
    CHECK(timerfd_settime(t, TFD_TIMER_ABSTIME, &its, NULL) == 0);
    CHECK(read(t, &exp, 8) == 8);
    printf("absolute past: %llu\n", (unsigned long long)exp);
    printf("bad clock: %s\n", timerfd_create(99, 0) < 0 && errno == EINVAL ? "EINVAL" : "other");
    printf("not a timerfd: %s\n", timerfd_gettime(e, &cur) < 0 && errno == EINVAL
                                      ? "EINVAL" : "other");
    close(t);
    close(e);
    close(p[0]);
    close(p[1]);
    close(ep);
}

static void signalfds(void)
{
    sigset_t m;
    sigemptyset(&m);
    sigaddset(&m, SIGUSR1);
    sigaddset(&m, SIGUSR2);
    CHECK(sigprocmask(SIG_BLOCK, &m, NULL) == 0);
    int s = signalfd(-1, &m, SFD_NONBLOCK | SFD_CLOEXEC);
    CHECK(s >= 0);
    struct signalfd_siginfo si;
    printf("signalfd empty: %s\n", read(s, &si, sizeof(si)) < 0 && errno == EAGAIN
                                       ? "EAGAIN" : "other");
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 42 }, out;
    CHECK(epoll_ctl(ep, EPOLL_CTL_ADD, s, &ev) == 0);
    printf("epoll before: %d\n", epoll_wait(ep, &out, 1, 0));
    CHECK(kill(getpid(), SIGUSR2) == 0);
    CHECK(raise(SIGUSR1) == 0);
    int n = epoll_wait(ep, &out, 1, -1);
    printf("epoll after: %d data %u\n", n, out.data.u32);
    struct signalfd_siginfo two[2];
    ssize_t r = read(s, two, sizeof(two));
    printf("read %zd: signo %u code %d pid-is-mine %d, signo %u\n", r, two[0].ssi_signo,
           two[0].ssi_code, two[0].ssi_pid == (uint32_t)getpid(),
           r == 2 * (ssize_t)sizeof(si) ? two[1].ssi_signo : 0);
    printf("epoll drained: %d\n", epoll_wait(ep, &out, 1, 0));
    union sigval sv = { .sival_int = 77 };
    CHECK(sigqueue(getpid(), SIGUSR1, sv) == 0);
    CHECK(read(s, &si, sizeof(si)) == sizeof(si));
    printf("sigqueue: signo %u code %d int %d\n", si.ssi_signo, si.ssi_code, si.ssi_int);
    close(ep);
    close(s);
}

static void inotifys(const char *dir)
{
    int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    CHECK(in >= 0);
    int w = inotify_add_watch(in, dir, IN_CREATE | IN_DELETE);
    CHECK(w >= 0);
    char path[512];
    snprintf(path, sizeof(path), "%s/new-file", dir);
    int f = open(path, O_CREAT | O_WRONLY, 0644);
    CHECK(f >= 0);
    close(f);
    CHECK(unlink(path) == 0);
    _Alignas(struct inotify_event) char buf[1024];
    ssize_t n = read(in, buf, sizeof(buf));
    for (char *p = buf; n > 0 && p < buf + n;) {
        struct inotify_event *ie = (struct inotify_event *)p;
        printf("inotify: wd ok %d mask %#x name %s\n", ie->wd == w, ie->mask,
               ie->len ? ie->name : "");
        p += sizeof(*ie) + ie->len;
    }
    CHECK(inotify_rm_watch(in, w) == 0);
    printf("rm twice: %s\n", inotify_rm_watch(in, w) < 0 && errno == EINVAL ? "EINVAL" : "other");
    close(in);
}

static void memfds(void)
{
    int m = memfd_create("scratch", MFD_CLOEXEC);
    CHECK(m >= 0);
    CHECK(write(m, "memory file", 11) == 11);
    struct stat st;
    CHECK(fstat(m, &st) == 0);
    char b[16] = {0};
    CHECK(pread(m, b, sizeof(b), 7) == 4);
    printf("memfd: size %lld, tail %s\n", (long long)st.st_size, b);
    char *map = mmap(NULL, 11, PROT_READ, MAP_PRIVATE, m, 0);
    CHECK(map != MAP_FAILED);
    printf("memfd mapped: %.6s\n", map);
    munmap(map, 11);
    close(m);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    eventfds();
    epolls();
    signalfds();
    if (argc > 1)
        inotifys(argv[1]);
    memfds();
    printf("ok\n");
    return 0;
}
