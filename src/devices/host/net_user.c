// SPDX-License-Identifier: MIT
// "--net user": user-mode networking through libslirp (Debian libslirp-dev, API of
// <slirp/libslirp.h> 4.x). The guest sees a private IPv4 network 10.0.2.0/24 with a
// router and DHCP server at 10.0.2.2 (which is also the host's loopback: a connection
// to 10.0.2.2:PORT reaches 127.0.0.1:PORT), a DNS forwarder at 10.0.2.3, and gets
// 10.0.2.15 by DHCP. Outbound TCP and UDP become host sockets. "hostfwd=tcp::HPORT-:GPORT"
// (several allowed, '+'-separated or as separate ",hostfwd=" options) forwards connections
// to 127.0.0.1:HPORT on the host (loopback only) to the guest's GPORT.
//
// Frames slirp sends to the guest wait in a bounded queue until the Ethernet model asks
// for them (its receive poll); when the queue is full the frame is dropped, as a real NIC
// with a full FIFO drops, and TCP retransmits. slirp's host sockets are polled without
// blocking whenever the device looks for a frame and the queue is empty, and with a
// timeout from the idle hook (hexsim_net_wait, to the nanosecond) when every vCPU waits,
// which returns as soon as frames for the guest are queued. Timers run on the
// host's monotonic clock: the peers are real host sockets.
#define _GNU_SOURCE
#include "net_backend.h"

#include <arpa/inet.h>
#include <errno.h>
#include <sys/types.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <slirp/libslirp.h>

#define QUEUE_FRAMES 128
#define MAX_FDS 256

struct user_timer {
    SlirpTimerCb cb;
    void *cb_opaque;
    int64_t expire_ms;       // -1: not armed
    struct user_timer *next;
};

struct user_net {
    Slirp *slirp;
    uint8_t q[QUEUE_FRAMES][HEXSIM_ETH_MAX_FRAME];
    uint16_t qlen[QUEUE_FRAMES];
    unsigned qhead, qn;
    unsigned long dropped;
    struct user_timer *timers;
    struct pollfd fds[MAX_FDS + 1];
    unsigned nfds;
    bool fds_overflow;
    FILE *err;
};

static int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int64_t clock_cb(void *opaque)
{
    (void)opaque;
    return now_ns();
}

static ssize_t send_cb(const void *buf, size_t len, void *opaque)
{
    struct user_net *u = opaque;
    if (len > HEXSIM_ETH_MAX_FRAME)
        return (ssize_t)len;      // larger than any Ethernet frame: dropped
    if (u->qn == QUEUE_FRAMES) {
        u->dropped++;
        return (ssize_t)len;
    }
    unsigned i = (u->qhead + u->qn) % QUEUE_FRAMES;
    memcpy(u->q[i], buf, len);
    u->qlen[i] = (uint16_t)len;
    u->qn++;
    return (ssize_t)len;
}

static void guest_error_cb(const char *msg, void *opaque)
{
    struct user_net *u = opaque;
    fprintf(u->err, "hexsim: --net user: %s\n", msg);
}

static void *timer_new_cb(SlirpTimerCb cb, void *cb_opaque, void *opaque)
{
    struct user_net *u = opaque;
    struct user_timer *t = calloc(1, sizeof(*t));
    if (!t) {
        fprintf(u->err, "hexsim: --net user: out of memory\n");
        exit(3);
    }
    *t = (struct user_timer){ cb, cb_opaque, -1, u->timers };
    u->timers = t;
    return t;
}

static void timer_free_cb(void *timer, void *opaque)
{
    struct user_net *u = opaque;
    for (struct user_timer **pp = &u->timers; *pp; pp = &(*pp)->next) {
        if (*pp == timer) {
            *pp = (*pp)->next;
            free(timer);
            return;
        }
    }
}

static void timer_mod_cb(void *timer, int64_t expire_ms, void *opaque)
{
    (void)opaque;
    struct user_timer *t = timer;
    t->expire_ms = expire_ms;
}

static void fd_cb(int fd, void *opaque)
{
    (void)fd;
    (void)opaque;
}

static void notify_cb(void *opaque)
{
    (void)opaque;
}

static const SlirpCb callbacks = {
    .send_packet = send_cb,
    .guest_error = guest_error_cb,
    .clock_get_ns = clock_cb,
    .timer_new = timer_new_cb,
    .timer_free = timer_free_cb,
    .timer_mod = timer_mod_cb,
    .register_poll_fd = fd_cb,
    .unregister_poll_fd = fd_cb,
    .notify = notify_cb,
};

static int add_poll_cb(int fd, int events, void *opaque)
{
    struct user_net *u = opaque;
    if (u->nfds >= MAX_FDS) {
        u->fds_overflow = true;
        return -1;
    }
    short ev = 0;
    if (events & SLIRP_POLL_IN)
        ev |= POLLIN;
    if (events & SLIRP_POLL_OUT)
        ev |= POLLOUT;
    if (events & SLIRP_POLL_PRI)
        ev |= POLLPRI;
    u->fds[u->nfds] = (struct pollfd){ .fd = fd, .events = ev };
    return (int)u->nfds++;
}

static int get_revents_cb(int idx, void *opaque)
{
    struct user_net *u = opaque;
    if (idx < 0 || (unsigned)idx >= u->nfds)
        return 0;
    short r = u->fds[idx].revents;
    int ev = 0;
    if (r & POLLIN)
        ev |= SLIRP_POLL_IN;
    if (r & POLLOUT)
        ev |= SLIRP_POLL_OUT;
    if (r & POLLPRI)
        ev |= SLIRP_POLL_PRI;
    if (r & POLLERR)
        ev |= SLIRP_POLL_ERR;
    if (r & POLLHUP)
        ev |= SLIRP_POLL_HUP;
    return ev;
}

static void run_timers(struct user_net *u)
{
    int64_t ms = now_ns() / 1000000;
    // a callback may re-arm or free timers: restart the scan after each one that fires
    for (bool fired = true; fired;) {
        fired = false;
        for (struct user_timer *t = u->timers; t; t = t->next) {
            if (t->expire_ms >= 0 && t->expire_ms <= ms) {
                t->expire_ms = -1;
                t->cb(t->cb_opaque);
                fired = true;
                break;
            }
        }
    }
}

// One round of slirp's socket work: waits at most timeout_ns (0: just looks) for slirp's
// sockets or wake_fd (-1: none). Returns HEXSIM_NET_WAKE_FD when wake_fd became readable,
// HEXSIM_NET_FRAMES when frames for the guest are queued.
static int user_poll(struct user_net *u, int wake_fd, uint64_t timeout_ns)
{
    if (u->qn)
        return HEXSIM_NET_FRAMES;
    // slirp lowers a timeout given in milliseconds to what its own work needs
    uint64_t ms = (timeout_ns + 999999) / 1000000;
    uint32_t tmo = ms > UINT32_MAX ? UINT32_MAX : (uint32_t)ms;
    u->nfds = 0;
    u->fds_overflow = false;
    slirp_pollfds_fill(u->slirp, &tmo, add_poll_cb, u);
    if ((uint64_t)tmo * 1000000 < timeout_ns)
        timeout_ns = (uint64_t)tmo * 1000000;
    int64_t t_now = now_ns();
    for (const struct user_timer *t = u->timers; t; t = t->next) {
        if (t->expire_ms >= 0) {
            int64_t left = t->expire_ms * 1000000 - t_now;
            if (left < 0)
                left = 0;
            if ((uint64_t)left < timeout_ns)
                timeout_ns = (uint64_t)left;
        }
    }
    unsigned n = u->nfds;
    if (wake_fd >= 0)
        u->fds[n++] = (struct pollfd){ .fd = wake_fd, .events = POLLIN };
    struct timespec ts = { (time_t)(timeout_ns / 1000000000u), (long)(timeout_ns % 1000000000u) };
    int r = ppoll(u->fds, n, &ts, NULL);
    slirp_pollfds_poll(u->slirp, r < 0, get_revents_cb, u);
    run_timers(u);
    int got = u->qn ? HEXSIM_NET_FRAMES : 0;
    if (wake_fd >= 0 && r > 0 && (u->fds[n - 1].revents & (POLLIN | POLLHUP)))
        got |= HEXSIM_NET_WAKE_FD;
    return got;
}

static void user_send(void *ctx, const uint8_t *frame, size_t len)
{
    struct user_net *u = ctx;
    slirp_input(u->slirp, frame, (int)len);
}

static size_t user_recv(void *ctx, uint8_t *frame, size_t cap)
{
    struct user_net *u = ctx;
    if (!u->qn)
        user_poll(u, -1, 0);
    if (!u->qn)
        return 0;
    size_t len = u->qlen[u->qhead];
    if (len > cap)
        len = cap;
    memcpy(frame, u->q[u->qhead], len);
    u->qhead = (u->qhead + 1) % QUEUE_FRAMES;
    u->qn--;
    return len;
}

static int user_wait(void *ctx, int wake_fd, uint64_t timeout_ns)
{
    return user_poll(ctx, wake_fd, timeout_ns);
}

static void user_close(void *ctx)
{
    struct user_net *u = ctx;
    slirp_cleanup(u->slirp);
    while (u->timers) {
        struct user_timer *t = u->timers;
        u->timers = t->next;
        free(t);
    }
    free(u);
}

// Parses "tcp::HPORT-:GPORT" (also "udp:..."; an address before either ':' other than
// 127.0.0.1 or empty is refused: forwarded ports listen on loopback only).
static int parse_hostfwd(const char *s, size_t n, int *udp, unsigned *hport, unsigned *gport)
{
    char buf[96];
    if (n >= sizeof(buf))
        return -1;
    memcpy(buf, s, n);
    buf[n] = 0;
    char *p = buf;
    if (strncmp(p, "tcp:", 4) == 0) {
        *udp = 0;
        p += 4;
    } else if (strncmp(p, "udp:", 4) == 0) {
        *udp = 1;
        p += 4;
    } else {
        return -1;
    }
    if (strncmp(p, "127.0.0.1:", 10) == 0)
        p += 10;
    else if (*p == ':')
        p++;
    else
        return -1;
    char *end;
    unsigned long h = strtoul(p, &end, 10);
    if (end == p || *end != '-' || h == 0 || h > 65535)
        return -1;
    p = end + 1;
    if (strncmp(p, "10.0.2.15:", 10) == 0)
        p += 10;
    else if (*p == ':')
        p++;
    else
        return -1;
    unsigned long g = strtoul(p, &end, 10);
    if (end == p || *end || g == 0 || g > 65535)
        return -1;
    *hport = (unsigned)h;
    *gport = (unsigned)g;
    return 0;
}

int hexsim_net_open_user(struct hexsim_netdev *n, const char *opts, FILE *err, char *msg,
                         size_t msglen)
{
    struct user_net *u = calloc(1, sizeof(*u));
    if (!u) {
        snprintf(msg, msglen, "out of memory");
        return -1;
    }
    u->err = err;
    SlirpConfig cfg = { 0 };
    cfg.version = 1;
    cfg.in_enabled = true;
    inet_pton(AF_INET, "10.0.2.0", &cfg.vnetwork);
    inet_pton(AF_INET, "255.255.255.0", &cfg.vnetmask);
    inet_pton(AF_INET, "10.0.2.2", &cfg.vhost);
    inet_pton(AF_INET, "10.0.2.15", &cfg.vdhcp_start);
    inet_pton(AF_INET, "10.0.2.3", &cfg.vnameserver);
    cfg.vhostname = "hexagon";
    cfg.if_mtu = 1500;
    cfg.if_mru = 1500;
    u->slirp = slirp_new(&cfg, &callbacks, u);
    if (!u->slirp) {
        snprintf(msg, msglen, "--net user: libslirp could not start");
        free(u);
        return -1;
    }
    // options: ",hostfwd=RULE[+RULE...]" repeated
    const char *p = opts;
    while (p && *p) {
        if (*p != ',') {
            snprintf(msg, msglen, "--net user%s: expected ,hostfwd=tcp::HOSTPORT-:GUESTPORT",
                     opts);
            user_close(u);
            return -1;
        }
        p++;
        size_t len = strcspn(p, ",");
        if (strncmp(p, "hostfwd=", 8) != 0) {
            snprintf(msg, msglen, "--net user: unknown option '%.*s' (only hostfwd=)",
                     (int)len, p);
            user_close(u);
            return -1;
        }
        const char *r = p + 8, *end = p + len;
        while (r < end) {
            size_t rl = strcspn(r, "+,");
            if (r + rl > end)
                rl = (size_t)(end - r);
            int udp;
            unsigned hp, gp;
            if (parse_hostfwd(r, rl, &udp, &hp, &gp)) {
                snprintf(msg, msglen, "--net user: bad hostfwd rule '%.*s' (tcp::HOSTPORT-:"
                         "GUESTPORT or udp::HOSTPORT-:GUESTPORT; host side is 127.0.0.1 only)",
                         (int)rl, r);
                user_close(u);
                return -1;
            }
            struct in_addr host, guest;
            inet_pton(AF_INET, "127.0.0.1", &host);
            inet_pton(AF_INET, "10.0.2.15", &guest);
            if (slirp_add_hostfwd(u->slirp, udp, host, (int)hp, guest, (int)gp) < 0) {
                snprintf(msg, msglen, "--net user: cannot listen on 127.0.0.1:%u (%s)", hp,
                         errno ? strerror(errno) : "in use?");
                user_close(u);
                return -1;
            }
            r += rl;
            if (r < end && *r == '+')
                r++;
        }
        p = end;
    }
    n->send = user_send;
    n->recv = user_recv;
    n->wait = user_wait;
    n->close = user_close;
    n->ctx = u;
    return 0;
}
