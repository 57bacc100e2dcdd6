// SPDX-License-Identifier: MIT
// Event descriptors for user mode: epoll (epoll_create1, epoll_ctl, epoll_pwait,
// epoll_pwait2) and eventfd2 and inotify (inotify_init1, _add_watch, _rm_watch) on the
// host's; timerfd (timerfd_create, _settime, _gettime, 32- and 64-bit itimerspec) on the
// simulated clock, as the process's other timers, and signalfd4 on hexsim's signals: each is
// a host eventfd the process makes tick (a timerfd's count is its expirations, written when
// the clock reaches them; a signalfd's is 1 exactly while a signal of its mask is pending),
// so reads, poll and epoll of them work as of any host descriptor and stay deterministic.
// Facts: Linux 6.1 fs/eventpoll.c and include/uapi/linux/eventpoll.h (struct epoll_event is
// packed only on x86-64: on Hexagon the 64-bit data is at offset 8 of 16 bytes), fs/timerfd.c
// (a read gives the expirations since the last one, settime restarts the count, gettime
// the time left and interval), fs/signalfd.c and include/uapi/linux/signalfd.h (128-byte
// struct signalfd_siginfo), fs/eventfd.c, fs/notify/inotify (struct inotify_event has the
// same bytes on both sides); flag values from include/uapi/asm-generic/fcntl.h.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "sys.h"
#include "sys_event.h"

#define G_NONBLOCK 04000u
#define G_CLOEXEC 02000000u
#define G_EFD_SEMAPHORE 1u
#define G_TFD_TIMER_ABSTIME 1u
#define G_TFD_TIMER_CANCEL_ON_SET 2u
#define EP_MAX_EVENTS 1024          // events one epoll_pwait gives back (more wait for the next)

static int host_flags(uint32_t f)
{
    return (f & G_NONBLOCK ? O_NONBLOCK : 0) | (f & G_CLOEXEC ? O_CLOEXEC : 0);
}

// ---- eventfd, epoll

int64_t sys_eventfd2(struct hexsim_user *u, uint32_t init, uint32_t flags)
{
    if (flags & ~(G_EFD_SEMAPHORE | G_NONBLOCK | G_CLOEXEC))
        return -EINVAL;
    int h = eventfd(init, host_flags(flags) | (flags & G_EFD_SEMAPHORE ? EFD_SEMAPHORE : 0));
    return h < 0 ? -errno : hx_new_guest_fd(u, h, 0);
}

int64_t sys_epoll_create1(struct hexsim_user *u, uint32_t flags)
{
    if (flags & ~G_CLOEXEC)
        return -EINVAL;
    int h = epoll_create1(flags & G_CLOEXEC ? EPOLL_CLOEXEC : 0);
    return h < 0 ? -errno : hx_new_guest_fd(u, h, 0);
}

int64_t sys_epoll_ctl(struct hexsim_user *u, uint32_t epfd, uint32_t op, uint32_t fd,
                      uint32_t event)
{
    int he = hx_host_fd(u, epfd), h = hx_host_fd(u, fd);
    if (he < 0 || h < 0)
        return -EBADF;
    struct epoll_event ev = {0};
    if (op != EPOLL_CTL_DEL) {   // { u32 events; (pad); u64 data }
        uint32_t e;
        uint64_t d;
        if (hx_get32(u, event, &e) || hx_get64(u, event + 8, &d))
            return -EFAULT;
        ev.events = e;
        ev.data.u64 = d;
    }
    return epoll_ctl(he, (int)op, h, &ev) ? -errno : 0;
}

// epoll_pwait (timeout in ms, -1: none) and epoll_pwait2 (tsp: a 64-bit timespec, 0: none)
int64_t sys_epoll_pwait(struct hexsim_user *u, uint32_t epfd, uint32_t events, uint32_t max,
                        int32_t ms, uint32_t tsp, uint32_t sigmask, uint32_t size)
{
    int he = hx_host_fd(u, epfd);
    if (he < 0)
        return -EBADF;
    if ((int32_t)max <= 0 || max > 0x7fffffffu / 16)
        return -EINVAL;
    if (sigmask && size != 8)
        return -EINVAL;
    uint64_t ns = ms < 0 ? UINT64_MAX : (uint64_t)ms * 1000000u;
    if (tsp) {
        int e = hx_read_timespec(u, tsp, true, &ns);
        if (e)
            return e;
    }
    struct pollfd p[2] = { { he, POLLIN, 0 }, { -1, 0, 0 } };
    if (ns) {
        int64_t y = hx_wait_host(u, p, 1, &ns);
        if (y)
            return y;
    }
    int64_t r = hx_poll_wait(u, p, 1, ns, sigmask);
    if (r <= 0 || r == HX_SYS_NORET)
        return r;
    struct epoll_event ev[64];
    int n = epoll_wait(he, ev, (int)(max < 64 ? max : 64), 0);
    if (n < 0)
        return -errno;
    for (int i = 0; i < n; i++) {
        uint8_t b[16] = {0};
        hx_le32(b, ev[i].events);
        hx_le64(b + 8, ev[i].data.u64);
        if (hx_put(u, events + 16 * (uint32_t)i, b, 16))
            return -EFAULT;
    }
    return n;
}

// ---- inotify

int64_t sys_inotify_init1(struct hexsim_user *u, uint32_t flags)
{
    if (flags & ~(G_NONBLOCK | G_CLOEXEC))
        return -EINVAL;
    int h = inotify_init1((flags & G_NONBLOCK ? IN_NONBLOCK : 0) |
                          (flags & G_CLOEXEC ? IN_CLOEXEC : 0));
    return h < 0 ? -errno : hx_new_guest_fd(u, h, 0);
}

int64_t sys_inotify_add_watch(struct hexsim_user *u, uint32_t fd, uint32_t path, uint32_t mask)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    char p[4096], q[4200];
    int hd;
    int e = hx_resolve_at(u, (uint32_t)HX_AT_FDCWD, path, p, sizeof(p), &hd);
    if (e)
        return e;
    const char *at = p;
    if (p[0] != '/' && hd >= 0) {   // relative to the guest's directory
        snprintf(q, sizeof(q), "/proc/self/fd/%d/%s", hd, p);
        at = q;
    }
    int w = inotify_add_watch(h, at, mask);
    return w < 0 ? -errno : w;
}

int64_t sys_inotify_rm_watch(struct hexsim_user *u, uint32_t fd, uint32_t wd)
{
    int h = hx_host_fd(u, fd);
    if (h < 0)
        return -EBADF;
    return inotify_rm_watch(h, (int)wd) ? -errno : 0;
}

// ---- timerfd and signalfd: host eventfds the process makes tick

static struct hx_evfd *evfd_of(struct hexsim_user *u, int h, bool timer)
{
    for (unsigned i = 0; u->evfd && h > 2 && i < HX_MAX_EVFDS; i++)
        if (u->evfd[i].h == h && u->evfd[i].timer == timer)
            return &u->evfd[i];
    return NULL;
}

static int64_t new_evfd(struct hexsim_user *u, struct hx_evfd *tmpl, uint32_t flags)
{
    if (!hx_os(u))
        return -ENOMEM;
    if (!u->evfd && !(u->evfd = calloc(HX_MAX_EVFDS, sizeof(*u->evfd))))
        return -ENOMEM;
    struct hx_evfd *m = NULL;
    for (unsigned i = 0; i < HX_MAX_EVFDS && !m; i++)
        if (!u->evfd[i].h)
            m = &u->evfd[i];
    if (!m)
        return -EMFILE;
    int h = eventfd(0, host_flags(flags));
    if (h < 0)
        return -errno;
    int32_t g = hx_new_guest_fd(u, h, 0);
    if (g < 0)
        return g;
    *m = *tmpl;
    m->h = h;
    return g;
}

// Sets the eventfd's count to v (it is read to zero first).
static void evfd_set(int h, uint64_t v)
{
    struct pollfd p = { h, POLLIN, 0 };
    uint64_t old;
    if (poll(&p, 1, 0) > 0 && read(h, &old, 8) != 8)
        return;
    if (v && write(h, &v, 8) != 8)
        return;
}

void hx_evfd_closed(struct hexsim_user *u, int h)
{
    for (unsigned i = 0; u->evfd && h > 2 && i < HX_MAX_EVFDS; i++)
        if (u->evfd[i].h == h)
            memset(&u->evfd[i], 0, sizeof(u->evfd[i]));
}

bool hx_timerfds_armed(const struct hexsim_user *u)
{
    for (unsigned i = 0; u->evfd && i < HX_MAX_EVFDS; i++)
        if (u->evfd[i].h && u->evfd[i].timer && u->evfd[i].next != HX_NO_TIME)
            return true;
    return false;
}

uint64_t hx_timerfds_run(struct hexsim_user *u)
{
    uint64_t now = u->cpu.pcycles, next = HX_NO_TIME;
    for (unsigned i = 0; u->evfd && i < HX_MAX_EVFDS; i++) {
        struct hx_evfd *m = &u->evfd[i];
        if (!m->h || !m->timer || m->next == HX_NO_TIME)
            continue;
        uint64_t periods = hx_timer_due(&m->next, m->interval, now);
        if (periods && write(m->h, &periods, 8) != 8)
            m->next = HX_NO_TIME;   // (the count would overflow: the kernel's limit)
        if (m->next < next)
            next = m->next;
    }
    return next;
}

int64_t sys_timerfd_create(struct hexsim_user *u, uint32_t clk, uint32_t flags)
{
    // CLOCK_REALTIME, _MONOTONIC, _BOOTTIME, _REALTIME_ALARM, _BOOTTIME_ALARM
    if (!(clk == 0 || clk == 1 || clk == 7 || clk == 8 || clk == 9))
        return -EINVAL;
    if (flags & ~(G_NONBLOCK | G_CLOEXEC))
        return -EINVAL;
    struct hx_evfd m = { .timer = true, .clock = clk, .next = HX_NO_TIME };
    return new_evfd(u, &m, flags);
}

int64_t sys_timerfd_settime(struct hexsim_user *u, uint32_t fd, uint32_t flags, uint32_t nv,
                            uint32_t ov, bool t64)
{
    if (hx_host_fd(u, fd) < 0)
        return -EBADF;
    struct hx_evfd *m = evfd_of(u, hx_host_fd(u, fd), true);
    if (!m)
        return -EINVAL;
    if (flags & ~(G_TFD_TIMER_ABSTIME | G_TFD_TIMER_CANCEL_ON_SET))
        return -EINVAL;
    uint64_t iv, val;
    uint32_t sz = t64 ? 16 : 8;
    int e = hx_read_timespec(u, nv, t64, &iv);
    if (!e)
        e = hx_read_timespec(u, nv + sz, t64, &val);
    if (e)
        return e;
    if (ov && hx_put_itimerspec(u, ov, m->next, m->interval, t64))
        return -EFAULT;
    if (val && (flags & G_TFD_TIMER_ABSTIME)) {
        uint64_t now = hx_now_ns(u, m->clock);
        val = val > now ? val - now : 1;
    }
    m->interval = hx_ns_to_pcycles(iv);
    m->next = val ? u->cpu.pcycles + hx_ns_to_pcycles(val ? val : 1) : HX_NO_TIME;
    if (m->next == u->cpu.pcycles && val)
        m->next++;
    evfd_set(m->h, 0);   // the expirations counted so far are gone
    if (val)
        hx_want_turns(u);
    return 0;
}

int64_t sys_timerfd_gettime(struct hexsim_user *u, uint32_t fd, uint32_t cv, bool t64)
{
    if (hx_host_fd(u, fd) < 0)
        return -EBADF;
    struct hx_evfd *m = evfd_of(u, hx_host_fd(u, fd), true);
    return m ? hx_put_itimerspec(u, cv, m->next, m->interval, t64) : -EINVAL;
}

int64_t sys_signalfd4(struct hexsim_user *u, uint32_t fd, uint32_t set, uint32_t size,
                      uint32_t flags)
{
    if (size != 8 || (flags & ~(G_NONBLOCK | G_CLOEXEC)))
        return -EINVAL;
    uint64_t mask;
    if (hx_get64(u, set, &mask))
        return -EFAULT;
    mask &= ~(1ull << 8 | 1ull << 18);   // SIGKILL, SIGSTOP
    if ((int32_t)fd != -1) {
        if (hx_host_fd(u, fd) < 0)
            return -EBADF;
        struct hx_evfd *m = evfd_of(u, hx_host_fd(u, fd), false);
        if (!m)
            return -EINVAL;
        m->mask = mask;
        hx_signalfd_sync(u);
        return (int32_t)fd;
    }
    struct hx_evfd m = { .timer = false, .mask = mask, .next = HX_NO_TIME };
    int64_t g = new_evfd(u, &m, flags);
    if (g >= 0)
        hx_signalfd_sync(u);
    return g;
}

void hx_signalfd_sync(struct hexsim_user *u)
{
    struct hexsim_user_os *os = u->os;
    if (!os)
        return;
    uint64_t pending = os->pending | os->t[os->cur].pending;
    for (unsigned i = 0; u->evfd && i < HX_MAX_EVFDS; i++) {
        struct hx_evfd *m = &u->evfd[i];
        if (m->h && !m->timer)
            evfd_set(m->h, pending & m->mask ? 1 : 0);
    }
}

int64_t hx_signalfd_read(struct hexsim_user *u, int h, uint32_t buf, uint32_t len)
{
    struct hexsim_user_os *os = u->os;
    struct hx_evfd *m = os ? evfd_of(u, h, false) : NULL;
    if (!m)
        return -1;
    if (len < 128)
        return -EINVAL;
    struct hx_thread *t = &os->t[os->cur];
    uint32_t done = 0;
    for (; done + 128 <= len; done += 128) {
        uint64_t ready = (t->pending | os->pending) & m->mask;
        if (!ready)
            break;
        int sig = __builtin_ctzll(ready) + 1;
        struct hx_siginfo in = hx_take_signal(os, t, sig);
        // struct signalfd_siginfo: signo, errno, code, pid, uid, fd, tid, band, overrun,
        // trapno, status, int, ptr (64), utime, stime, addr (64), addr_lsb, ...
        uint8_t b[128] = {0};
        hx_le32(b, (uint32_t)sig);
        hx_le32(b + 8, (uint32_t)in.code);
        if (in.code == -2) {   // SI_TIMER: timer id, overrun, value
            hx_le32(b + 24, in.w[0]);
            hx_le32(b + 32, in.w[1]);
        } else if ((sig == 11 || sig == 7 || sig == 4 || sig == 8) && in.code > 0 &&
                   in.code < 0x80) {   // a fault: its address
            hx_le64(b + 72, in.w[0]);
        } else {               // kill, sigqueue, SIGCHLD: pid, uid, then the value/status
            hx_le32(b + 12, in.w[0]);
            hx_le32(b + 16, in.w[1]);
            hx_le32(b + 40, sig == 17 ? in.w[2] : 0);
        }
        if (in.code == -1 || in.code == -2) {
            hx_le32(b + 44, in.w[2]);
            hx_le64(b + 48, in.w[2]);
        }
        if (hx_put(u, buf + done, b, 128))
            return done ? (int64_t)done : -EFAULT;
    }
    hx_signalfd_sync(u);
    if (done)
        return done;
    int fl = fcntl(h, F_GETFL);
    if (fl >= 0 && (fl & O_NONBLOCK))
        return -EAGAIN;
    // a signal of the mask makes the call again (hx_signal), which reads it
    t->sigwait = m->mask;
    hx_wait(u, HX_WAIT_SIGNAL, HX_NO_TIME, true, true);
    return HX_SYS_NORET;
}
