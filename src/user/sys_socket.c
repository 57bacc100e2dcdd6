// SPDX-License-Identifier: MIT
// Sockets for user mode on host sockets: socket, socketpair, bind, listen, accept/accept4,
// connect, getsockname/getpeername, sendto/recvfrom, sendmsg/recvmsg/sendmmsg/recvmmsg,
// setsockopt/getsockopt, shutdown (AF_UNIX, AF_INET, AF_INET6, AF_NETLINK's route family).
// Facts: Linux 6.1 include/uapi/asm-generic/socket.h (SOL_SOCKET option numbers, the same
// table the host uses; SO_RCVTIMEO/SO_SNDTIMEO_OLD take the 32-bit struct timeval of two
// longs, _NEW the 64-bit __kernel_sock_timeval), include/linux/socket.h (struct msghdr
// and struct cmsghdr of a 32-bit ABI: seven words; a cmsg header of three words aligned to 4,
// against the host's 16 aligned to 8; SCM_RIGHTS carries descriptors), net/socket.c
// (move_addr_to_user: the address is cut to the caller's length, the full length is
// returned; at most sizeof(struct sockaddr_storage) in). Socket addresses have the same
// bytes on both sides (a 16-bit family, then big-endian ports and addresses, a path); a
// relative AF_UNIX path is taken from the guest's current directory. A call that would
// block waits as read does (hx_io_yield): other threads run meanwhile.
#define _GNU_SOURCE   // struct ucred, MSG_CMSG_CLOEXEC, accept4
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "sys.h"
#include "sys_net.h"

#define G_SOCK_NONBLOCK 04000u       // asm-generic O_NONBLOCK
#define G_SOCK_CLOEXEC 02000000u     // asm-generic O_CLOEXEC
#define G_MSG_DONTWAIT 0x40u
#define G_MSG_NOSIGNAL 0x4000u
#define G_MSG_WAITFORONE 0x10000u
#define G_MSG_CMSG_CLOEXEC 0x40000000u
#define G_SOL_SOCKET 1
#define G_SCM_RIGHTS 1
#define G_SO_RCVTIMEO_OLD 20
#define G_SO_SNDTIMEO_OLD 21
#define MSG_SPANS 1024               // host iovecs of one message
#define CMSG_MAX 4096                // control bytes of one message

static int64_t sock_fd(struct hexsim_user *u, uint32_t fd)
{
    int h = hx_host_fd(u, fd);
    return h < 0 ? -EBADF : h;
}

static int host_type_flags(uint32_t type)
{
    return (type & G_SOCK_NONBLOCK ? SOCK_NONBLOCK : 0) | (type & G_SOCK_CLOEXEC ? SOCK_CLOEXEC : 0);
}

static int check_family(uint32_t family, uint32_t proto)
{
    if (family == AF_UNIX || family == AF_INET || family == AF_INET6)
        return 0;
    if (family == AF_NETLINK && proto == 0)   // NETLINK_ROUTE (getifaddrs, if_nameindex)
        return 0;
    return -EAFNOSUPPORT;
}

int64_t sys_socket(struct hexsim_user *u, uint32_t family, uint32_t type, uint32_t proto)
{
    int e = check_family(family, proto);
    if (e)
        return e;
    if (type & ~(0xfu | G_SOCK_NONBLOCK | G_SOCK_CLOEXEC))
        return -EINVAL;
    int h = socket((int)family, (int)(type & 0xf) | host_type_flags(type), (int)proto);
    return h < 0 ? -errno : hx_new_guest_fd(u, h, 0);
}

int64_t sys_socketpair(struct hexsim_user *u, uint32_t family, uint32_t type, uint32_t proto,
                       uint32_t sv)
{
    if (family != AF_UNIX)
        return family == AF_INET || family == AF_INET6 ? -EOPNOTSUPP : -EAFNOSUPPORT;
    if (type & ~(0xfu | G_SOCK_NONBLOCK | G_SOCK_CLOEXEC))
        return -EINVAL;
    int h[2];
    if (socketpair(AF_UNIX, (int)(type & 0xf) | host_type_flags(type), (int)proto, h))
        return -errno;
    int32_t g0 = hx_new_guest_fd(u, h[0], 0);
    if (g0 < 0) {
        close(h[1]);
        return g0;
    }
    int32_t g1 = hx_new_guest_fd(u, h[1], 0);
    if (g1 < 0) {
        u->guest_fd_map[g0] = -1;
        close(h[0]);
        return g1;
    }
    if (hx_put32(u, sv, (uint32_t)g0) || hx_put32(u, sv + 4, (uint32_t)g1)) {
        u->guest_fd_map[g0] = u->guest_fd_map[g1] = -1;
        close(h[0]);
        close(h[1]);
        return -EFAULT;
    }
    return 0;
}

int hx_sockaddr_in(struct hexsim_user *u, uint32_t addr, uint32_t len,
                   struct sockaddr_storage *ss, socklen_t *hl)
{
    if (len > sizeof(*ss))
        return -EINVAL;
    memset(ss, 0, sizeof(*ss));
    if (len && hx_get(u, addr, ss, len))
        return -EFAULT;
    *hl = (socklen_t)len;
    if (ss->ss_family != AF_UNIX || len <= offsetof(struct sockaddr_un, sun_path))
        return 0;
    struct sockaddr_un *sun = (struct sockaddr_un *)ss;
    if (sun->sun_path[0] == 0)   // the abstract namespace: no file
        return 0;
    if (u->opts.no_host_paths)
        return -EACCES;
    int cwd = u->os ? u->os->cwd_fd : -1;
    if (sun->sun_path[0] == '/' || cwd < 0)
        return 0;
    // relative to the guest's directory (chdir keeps a host descriptor): through /proc
    char p[sizeof(sun->sun_path) + 1];
    size_t n = len - offsetof(struct sockaddr_un, sun_path);
    memcpy(p, sun->sun_path, n);
    p[n] = 0;
    int k = snprintf(sun->sun_path, sizeof(sun->sun_path), "/proc/self/fd/%d/%s", cwd, p);
    if (k < 0 || (size_t)k >= sizeof(sun->sun_path))
        return -ENAMETOOLONG;
    *hl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + (size_t)k + 1);
    return 0;
}

int hx_sockaddr_out(struct hexsim_user *u, uint32_t addr, uint32_t lenp,
                    const struct sockaddr_storage *ss, socklen_t hl)
{
    if (!addr)
        return 0;
    uint32_t len;
    if (hx_get32(u, lenp, &len))
        return -EFAULT;
    if ((int32_t)len < 0)
        return -EINVAL;
    uint32_t n = len < hl ? len : (uint32_t)hl;
    if ((n && hx_put(u, addr, ss, n)) || hx_put32(u, lenp, (uint32_t)hl))
        return -EFAULT;
    return 0;
}

int64_t sys_bind(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t len, bool conn)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    struct sockaddr_storage ss;
    socklen_t hl;
    int e = hx_sockaddr_in(u, addr, len, &ss, &hl);
    if (e)
        return e;
    int r = conn ? connect((int)h, (struct sockaddr *)&ss, hl) : bind((int)h, (struct sockaddr *)&ss, hl);
    return r ? -errno : 0;
}

int64_t sys_listen(struct hexsim_user *u, uint32_t fd, uint32_t backlog)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    return listen((int)h, (int)backlog) ? -errno : 0;
}

int64_t sys_accept4(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t lenp,
                    uint32_t flags)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    if (flags & ~(G_SOCK_NONBLOCK | G_SOCK_CLOEXEC))
        return -EINVAL;
    int64_t y = hx_io_yield(u, fd, false);
    if (y)
        return y;
    struct sockaddr_storage ss;
    socklen_t hl = sizeof(ss);
    int n = accept4((int)h, (struct sockaddr *)&ss, &hl, host_type_flags(flags));
    if (n < 0)
        return -errno;
    int e = hx_sockaddr_out(u, addr, lenp, &ss, hl);
    if (e) {
        close(n);
        return e;
    }
    return hx_new_guest_fd(u, n, 0);
}

int64_t sys_sockname(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t lenp,
                     bool peer)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    struct sockaddr_storage ss;
    socklen_t hl = sizeof(ss);
    int r = peer ? getpeername((int)h, (struct sockaddr *)&ss, &hl)
                 : getsockname((int)h, (struct sockaddr *)&ss, &hl);
    if (r)
        return -errno;
    return hx_sockaddr_out(u, addr, lenp, &ss, hl);
}

int64_t sys_shutdown(struct hexsim_user *u, uint32_t fd, uint32_t how)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    return shutdown((int)h, (int)how) ? -errno : 0;
}

// ---- messages

// The guest buffers seg[0..n) as host iovecs (need: the protection the host's access
// needs): bytes covered (the transfer stops at the first unreachable byte), -EFAULT when
// that is the first.
static int64_t msg_spans(struct hexsim_user *u, const uint32_t (*seg)[2], uint32_t n,
                         unsigned need, struct iovec *iov, size_t *k)
{
    uint64_t total = 0;
    *k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!seg[i][1])
            continue;
        size_t got = 0;
        int fault = HEXSIM_MEM_OK;
        size_t m = *k < MSG_SPANS ? hexsim_mem_spans(&u->mem, seg[i][0], seg[i][1], need,
                                                     iov + *k, MSG_SPANS - *k, &got, &fault)
                                  : 0;
        *k += m;
        total += got;
        if (got < seg[i][1]) {
            if (!total)
                return -EFAULT;
            break;
        }
    }
    return (int64_t)total;
}

// After a receive of r bytes into seg[]: the code decoded from them is stale.
static void msg_written(struct hexsim_user *u, const uint32_t (*seg)[2], uint32_t n, size_t r)
{
    for (uint32_t i = 0; i < n && r; i++) {
        size_t t = r < seg[i][1] ? r : seg[i][1];
        if (t)
            hexsim_mem_spans_written(&u->mem, seg[i][0], t);
        r -= t;
    }
}

// Guest control messages (32-bit cmsghdr, 4-byte aligned) into host ones; SCM_RIGHTS
// descriptors become the host's. Bytes of host control data, or -errno.
static int64_t cmsg_in(struct hexsim_user *u, uint32_t ctl, uint32_t len, uint8_t *hbuf,
                       size_t hcap)
{
    if (len > CMSG_MAX)
        return -ENOBUFS;
    uint8_t g[CMSG_MAX];
    if (len && hx_get(u, ctl, g, len))
        return -EFAULT;
    size_t ho = 0;
    for (uint32_t go = 0; go + 12 <= len;) {
        uint32_t clen, level, type;
        memcpy(&clen, g + go, 4);
        memcpy(&level, g + go + 4, 4);
        memcpy(&type, g + go + 8, 4);
        if (clen < 12 || clen > len - go)
            return -EINVAL;
        uint32_t dlen = clen - 12;
        struct cmsghdr *c = (struct cmsghdr *)(hbuf + ho);
        if (ho + CMSG_SPACE(dlen) > hcap)
            return -ENOBUFS;
        memset(c, 0, CMSG_SPACE(dlen));
        c->cmsg_len = CMSG_LEN(dlen);
        c->cmsg_level = (int)level;
        c->cmsg_type = (int)type;
        if (level == G_SOL_SOCKET && type == G_SCM_RIGHTS) {
            int *fds = (int *)CMSG_DATA(c);
            for (uint32_t i = 0; i < dlen / 4; i++) {
                uint32_t gfd;
                memcpy(&gfd, g + go + 12 + 4 * i, 4);
                int h = hx_host_fd(u, gfd);
                if (h < 0)
                    return -EBADF;
                fds[i] = h;
            }
        } else {
            memcpy(CMSG_DATA(c), g + go + 12, dlen);
        }
        ho += CMSG_SPACE(dlen);
        go += (clen + 3) & ~3u;
    }
    return (int64_t)ho;
}

// Host control messages into the guest's (SCM_RIGHTS: new guest descriptors); the bytes
// written, *trunc when they did not all fit (MSG_CTRUNC; descriptors that do not fit are
// closed).
static int64_t cmsg_out(struct hexsim_user *u, struct msghdr *hm, uint32_t ctl, uint32_t cap,
                        bool *trunc)
{
    uint8_t g[CMSG_MAX] = {0};
    uint32_t go = 0;
    *trunc = false;
    if (cap > CMSG_MAX)
        cap = CMSG_MAX;
    for (struct cmsghdr *c = hm->msg_controllen ? CMSG_FIRSTHDR(hm) : NULL; c;
         c = CMSG_NXTHDR(hm, c)) {
        uint32_t dlen = (uint32_t)(c->cmsg_len - CMSG_LEN(0));
        bool rights = c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS;
        uint32_t fit = go + 12 <= cap ? cap - go - 12 : 0;
        if (go + 12 > cap || (dlen > fit && !rights)) {
            *trunc = true;
            if (rights)
                for (uint32_t i = 0; i < dlen / 4; i++)
                    close(((int *)CMSG_DATA(c))[i]);
            continue;
        }
        uint32_t take = dlen <= fit ? dlen : fit / 4 * 4;
        if (rights) {
            int *fds = (int *)CMSG_DATA(c);
            for (uint32_t i = 0; i < dlen / 4; i++) {
                int32_t gfd = i < take / 4 ? hx_new_guest_fd(u, fds[i], 0) : -1;
                if (i >= take / 4)
                    close(fds[i]);
                if (gfd < 0 && i < take / 4) {
                    take = 4 * i;   // no guest descriptor left: cut here
                    *trunc = true;
                }
                if (gfd >= 0)
                    memcpy(g + go + 12 + 4 * i, &gfd, 4);
            }
            if (take < dlen)
                *trunc = true;
        } else {
            memcpy(g + go + 12, CMSG_DATA(c), take);
        }
        uint32_t clen = 12 + take, lvl = (uint32_t)c->cmsg_level, typ = (uint32_t)c->cmsg_type;
        memcpy(g + go, &clen, 4);
        memcpy(g + go + 4, &lvl, 4);
        memcpy(g + go + 8, &typ, 4);
        go += (clen + 3) & ~3u;
        if (go > cap)
            go = cap;
    }
    if (go && hx_put(u, ctl, g, go))
        return -EFAULT;
    return go;
}

// Waits (as read and write do) unless MSG_DONTWAIT, then gives the buffers seg[0..n) as
// host iovecs: their bytes, -errno or HX_SYS_NORET (the thread waits).
static int64_t ready_spans(struct hexsim_user *u, uint32_t fd, uint32_t flags, bool wr,
                           const uint32_t (*seg)[2], uint32_t n, struct iovec *iov, size_t *k)
{
    if (!(flags & G_MSG_DONTWAIT)) {
        int64_t y = hx_io_yield(u, fd, wr);
        if (y)
            return y;
    }
    return msg_spans(u, seg, n, wr ? HEXSIM_PROT_R : HEXSIM_PROT_W, iov, k);
}

// A guest message: struct msghdr of a 32-bit ABI (seven words)
struct gmsg {
    uint32_t name, namelen, iov, iovlen, control, controllen, flags;
};

static int get_msghdr(struct hexsim_user *u, uint32_t addr, struct gmsg *m)
{
    uint32_t w[7];
    for (int i = 0; i < 7; i++)
        if (hx_get32(u, addr + 4 * (uint32_t)i, &w[i]))
            return -EFAULT;
    *m = (struct gmsg){ w[0], w[1], w[2], w[3], w[4], w[5], w[6] };
    return 0;
}

static int host_msg_flags(uint32_t f)
{
    // the MSG_* values are asm-generic's on both sides; CMSG_CLOEXEC is handled apart
    return (int)(f & ~G_MSG_CMSG_CLOEXEC);
}

// Sends the buffers seg[0..m->iovlen) with m's address and control data (m->iov unused).
static int64_t do_send(struct hexsim_user *u, uint32_t fd, const struct gmsg *m,
                       const uint32_t (*seg)[2], uint32_t flags)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    struct sockaddr_storage ss;
    socklen_t hl = 0;
    int e;
    if (m->name && (e = hx_sockaddr_in(u, m->name, m->namelen, &ss, &hl)))
        return e;
    _Alignas(struct cmsghdr) uint8_t cbuf[2 * CMSG_MAX];
    int64_t cl = m->control ? cmsg_in(u, m->control, m->controllen, cbuf, sizeof(cbuf)) : 0;
    if (cl < 0)
        return cl;
    struct iovec iov[MSG_SPANS];
    size_t k;
    int64_t want = ready_spans(u, fd, flags, true, seg, m->iovlen, iov, &k);
    if (want < 0 || want == HX_SYS_NORET)
        return want;
    struct msghdr hm = { .msg_name = m->name ? &ss : NULL, .msg_namelen = hl, .msg_iov = iov,
                         .msg_iovlen = k, .msg_control = cl ? cbuf : NULL,
                         .msg_controllen = (size_t)cl };
    ssize_t r = sendmsg((int)h, &hm, host_msg_flags(flags) | MSG_NOSIGNAL);
    if (r < 0 && errno == EPIPE && !(flags & G_MSG_NOSIGNAL))
        return hx_sigpipe(u, -EPIPE);
    return r < 0 ? -errno : r;
}

// Receives into seg[0..m->iovlen); the address goes to m->name (its length to lenp, or to
// the msghdr at msg), the control data and flags to the msghdr at msg (0: recvfrom).
static int64_t do_recv(struct hexsim_user *u, uint32_t fd, const struct gmsg *m,
                       const uint32_t (*seg)[2], uint32_t flags, uint32_t msg, uint32_t lenp)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    struct iovec iov[MSG_SPANS];
    size_t k;
    int64_t want = ready_spans(u, fd, flags, false, seg, m->iovlen, iov, &k);
    if (want < 0 || want == HX_SYS_NORET)
        return want;
    struct sockaddr_storage ss;
    _Alignas(struct cmsghdr) uint8_t cbuf[2 * CMSG_MAX];
    uint32_t ccap = m->control ? (m->controllen < CMSG_MAX ? m->controllen : CMSG_MAX) : 0;
    // room for the host's wider headers and their alignment
    struct msghdr hm = { .msg_name = &ss, .msg_namelen = sizeof(ss), .msg_iov = iov,
                         .msg_iovlen = k, .msg_control = ccap ? cbuf : NULL,
                         .msg_controllen = ccap ? 2 * ccap : 0 };
    int hflags = host_msg_flags(flags) | (flags & G_MSG_CMSG_CLOEXEC ? MSG_CMSG_CLOEXEC : 0);
    ssize_t r = recvmsg((int)h, &hm, hflags);
    if (r < 0)
        return -errno;
    msg_written(u, seg, m->iovlen, (size_t)r < (size_t)want ? (size_t)r : (size_t)want);
    int e;
    if (!msg) {   // recvfrom
        if (m->name && lenp && (e = hx_sockaddr_out(u, m->name, lenp, &ss, hm.msg_namelen)))
            return e;
        return r;
    }
    uint32_t gflags = (uint32_t)hm.msg_flags;
    if (m->name) {
        uint32_t n = m->namelen < hm.msg_namelen ? m->namelen : (uint32_t)hm.msg_namelen;
        if ((n && hx_put(u, m->name, &ss, n)) || hx_put32(u, msg + 4, (uint32_t)hm.msg_namelen))
            return -EFAULT;
    }
    uint32_t clen = 0;
    if (ccap) {
        bool trunc;
        int64_t c = cmsg_out(u, &hm, m->control, m->controllen, &trunc);
        if (c < 0)
            return c;
        clen = (uint32_t)c;
        if (trunc)
            gflags |= MSG_CTRUNC;
    }
    if (hx_put32(u, msg + 20, clen) || hx_put32(u, msg + 24, gflags))
        return -EFAULT;
    return r;
}

int64_t sys_sendto(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len,
                   uint32_t flags, uint32_t addr, uint32_t alen)
{
    const uint32_t seg[1][2] = { { buf, len < 0x7ffff000u ? len : 0x7ffff000u } };
    const struct gmsg m = { .name = addr, .namelen = alen, .iovlen = 1 };
    return do_send(u, fd, &m, seg, flags);
}

int64_t sys_recvfrom(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len,
                     uint32_t flags, uint32_t addr, uint32_t lenp)
{
    const uint32_t seg[1][2] = { { buf, len < 0x7ffff000u ? len : 0x7ffff000u } };
    const struct gmsg m = { .name = addr, .iovlen = 1 };
    return do_recv(u, fd, &m, seg, flags, 0, lenp);
}

// sendmsg and recvmsg
int64_t sys_msg(struct hexsim_user *u, uint32_t fd, uint32_t msg, uint32_t flags, bool recv)
{
    struct gmsg m;
    uint32_t seg[1024][2];
    int e = get_msghdr(u, msg, &m);
    if (!e)
        e = hx_read_iovec(u, m.iov, m.iovlen, seg);
    if (e)
        return e == -EINVAL && m.iovlen > 1024 ? -EMSGSIZE : e;
    return recv ? do_recv(u, fd, &m, (const uint32_t (*)[2])seg, flags, msg, 0)
                : do_send(u, fd, &m, (const uint32_t (*)[2])seg, flags);
}

// sendmmsg and recvmmsg: up to n messages of the mmsghdr array at vec (a msghdr and the
// message's length: 32 bytes), each as sendmsg/recvmsg takes it, its length into msg_len.
// The messages done before an error or a wait count and end the call (net/socket.c
// __sys_sendmmsg, do_recvmmsg; Linux keeps a receive error for the next call on the
// socket, here the next call meets it again): a thread that waits restarts its call from
// the first message, so it cannot wait halfway. MSG_WAITFORONE (recvmmsg): only the first
// may wait. one: end after the first message (recvmmsg's timeout run out).
static int64_t do_mmsg(struct hexsim_user *u, uint32_t fd, uint32_t vec, uint32_t n,
                       uint32_t flags, bool recv, bool one)
{
    if (n > 1024)   // UIO_MAXIOV
        n = 1024;
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint32_t f = flags;
        if (recv) {
            f &= ~G_MSG_WAITFORONE;
            if (i && (flags & G_MSG_WAITFORONE))
                f |= G_MSG_DONTWAIT;
        }
        int64_t r = sys_msg(u, fd, vec + 32 * i, f, recv);
        if (r < 0 || r == HX_SYS_NORET)
            return i ? (int64_t)i : r;
        if (hx_put32(u, vec + 32 * i + 28, (uint32_t)r))
            return i ? (int64_t)i : -EFAULT;
        if (one)
            return 1;
    }
    return i;
}

int64_t sys_sendmmsg(struct hexsim_user *u, uint32_t fd, uint32_t vec, uint32_t n,
                     uint32_t flags)
{
    return do_mmsg(u, fd, vec, n, flags, false, false);
}

// recvmmsg (and recvmmsg_time64: t64). The timeout is read and checked (EFAULT, EINVAL)
// and, as in Linux, looked at only after a message has arrived: no simulated time passes
// inside one call, so a zero timeout ends the call after the first message and any other
// changes nothing.
int64_t sys_recvmmsg(struct hexsim_user *u, uint32_t fd, uint32_t vec, uint32_t n,
                     uint32_t flags, uint32_t timeout, bool t64)
{
    uint64_t tmo = UINT64_MAX;
    if (timeout) {
        int e = hx_read_timespec(u, timeout, t64, &tmo);
        if (e)
            return e;
    }
    return do_mmsg(u, fd, vec, n, flags, true, tmo == 0);
}

// ---- options

int64_t sys_setsockopt(struct hexsim_user *u, uint32_t fd, uint32_t level, uint32_t name,
                       uint32_t val, uint32_t len)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    if ((int32_t)len < 0)
        return -EINVAL;
    uint8_t b[256];
    if (len > sizeof(b))
        return -EINVAL;
    if (len && hx_get(u, val, b, len))
        return -EFAULT;
    if (level == G_SOL_SOCKET && (name == G_SO_RCVTIMEO_OLD || name == G_SO_SNDTIMEO_OLD)) {
        // the 32-bit struct timeval: two 32-bit longs
        if (len < 8)
            return -EINVAL;
        int32_t s, us;
        memcpy(&s, b, 4);
        memcpy(&us, b + 4, 4);
        struct timeval tv = { s, us };
        return setsockopt((int)h, SOL_SOCKET, name == G_SO_RCVTIMEO_OLD ? SO_RCVTIMEO : SO_SNDTIMEO,
                          &tv, sizeof(tv)) ? -errno : 0;
    }
    return setsockopt((int)h, (int)level, (int)name, b, len) ? -errno : 0;
}

int64_t sys_getsockopt(struct hexsim_user *u, uint32_t fd, uint32_t level, uint32_t name,
                       uint32_t val, uint32_t lenp)
{
    int64_t h = sock_fd(u, fd);
    if (h < 0)
        return h;
    uint32_t len;
    if (hx_get32(u, lenp, &len))
        return -EFAULT;
    if ((int32_t)len < 0)
        return -EINVAL;
    uint8_t b[256];
    socklen_t hl = len < sizeof(b) ? len : (socklen_t)sizeof(b);
    if (level == G_SOL_SOCKET && (name == G_SO_RCVTIMEO_OLD || name == G_SO_SNDTIMEO_OLD)) {
        struct timeval tv;
        socklen_t tl = sizeof(tv);
        if (getsockopt((int)h, SOL_SOCKET, name == G_SO_RCVTIMEO_OLD ? SO_RCVTIMEO : SO_SNDTIMEO,
                       &tv, &tl))
            return -errno;
        int32_t w[2] = { (int32_t)tv.tv_sec, (int32_t)tv.tv_usec };
        memcpy(b, w, 8);
        hl = len < 8 ? len : 8;
    } else if (getsockopt((int)h, (int)level, (int)name, b, &hl)) {
        return -errno;
    }
    if ((hl && hx_put(u, val, b, hl)) || hx_put32(u, lenp, (uint32_t)hl))
        return -EFAULT;
    return 0;
}
