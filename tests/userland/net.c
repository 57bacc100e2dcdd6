// SPDX-License-Identifier: MIT
// Sockets: an AF_UNIX stream socketpair (with a descriptor passed by SCM_RIGHTS), an AF_UNIX
// datagram pair, UDP over the loopback, a TCP echo between two processes (fork), socket
// and between two threads (accept and recv waiting while the other thread runs), socket
// options (SO_TYPE, SO_REUSEADDR, SO_RCVTIMEO, SO_LINGER), getsockname/getpeername,
// shutdown, sendmmsg/recvmmsg (MSG_WAITFORONE, a zero timeout), the errors of bad calls, and getaddrinfo of localhost. Ports the host picks are
// not printed, only whether they agree.
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s (errno %d)\n", __LINE__, #c, errno); exit(1); } } while (0)

static void unix_stream(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) == 0);
    CHECK(write(sv[0], "ping", 4) == 4);
    char b[16] = {0};
    CHECK(read(sv[1], b, sizeof(b)) == 4);
    printf("unix stream: %s\n", b);

    // a pipe's read end passed over the socket with SCM_RIGHTS
    int p[2];
    CHECK(pipe(p) == 0);
    union { struct cmsghdr h; char b[CMSG_SPACE(sizeof(int))]; } c;
    memset(&c, 0, sizeof(c));
    struct iovec iov = { "fd", 2 };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = c.b,
                        .msg_controllen = sizeof(c.b) };
    struct cmsghdr *h = CMSG_FIRSTHDR(&m);
    h->cmsg_level = SOL_SOCKET;
    h->cmsg_type = SCM_RIGHTS;
    h->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(h), &p[0], sizeof(int));
    CHECK(sendmsg(sv[0], &m, 0) == 2);
    close(p[0]);

    memset(&c, 0, sizeof(c));
    char r[8] = {0};
    struct iovec riov = { r, sizeof(r) };
    struct msghdr rm = { .msg_iov = &riov, .msg_iovlen = 1, .msg_control = c.b,
                         .msg_controllen = sizeof(c.b) };
    CHECK(recvmsg(sv[1], &rm, MSG_CMSG_CLOEXEC) == 2);
    h = CMSG_FIRSTHDR(&rm);
    CHECK(h && h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_RIGHTS);
    int got;
    memcpy(&got, CMSG_DATA(h), sizeof(int));
    printf("scm_rights: data %s, cmsg_len right %d, truncated %d\n", r,
           h->cmsg_len == CMSG_LEN(sizeof(int)), (rm.msg_flags & (MSG_CTRUNC | MSG_TRUNC)) != 0);
    CHECK(write(p[1], "through", 7) == 7);
    close(p[1]);
    memset(b, 0, sizeof(b));
    CHECK(read(got, b, sizeof(b)) == 7);
    printf("passed descriptor reads: %s\n", b);
    close(got);

    CHECK(shutdown(sv[0], SHUT_WR) == 0);
    printf("after shutdown: read %zd\n", read(sv[1], b, sizeof(b)));
    close(sv[0]);
    close(sv[1]);
}

static void unix_dgram(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
    CHECK(send(sv[0], "one", 3, 0) == 3);
    CHECK(send(sv[0], "three", 5, 0) == 5);
    char b[16] = {0};
    CHECK(recv(sv[1], b, 2, 0) == 2);   // a datagram cut short: the rest is lost
    printf("dgram 1: %.2s\n", b);
    struct iovec iov = { b, sizeof(b) };
    struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
    memset(b, 0, sizeof(b));
    CHECK(recvmsg(sv[1], &m, 0) == 5);
    printf("dgram 2: %s\n", b);
    CHECK(recv(sv[1], b, sizeof(b), MSG_DONTWAIT) == -1);
    printf("empty: %s\n", errno == EAGAIN ? "EAGAIN" : "other");
    close(sv[0]);
    close(sv[1]);
}

// sendmmsg and recvmmsg over an AF_UNIX datagram pair: three datagrams sent in one call,
// taken two and then one (MSG_WAITFORONE ends the call when no more has arrived), then a
// zero timeout ending the call after one message, and the errors of a bad timeout.
static void mmsg(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) == 0);
    char *words[3] = { "alpha", "be", "gamma!" };
    struct iovec siov[3];
    struct mmsghdr sm[3];
    memset(sm, 0, sizeof(sm));
    for (int i = 0; i < 3; i++) {
        siov[i] = (struct iovec){ words[i], strlen(words[i]) };
        sm[i].msg_hdr.msg_iov = &siov[i];
        sm[i].msg_hdr.msg_iovlen = 1;
    }
    CHECK(sendmmsg(sv[0], sm, 3, 0) == 3);
    printf("sendmmsg lengths: %u %u %u\n", sm[0].msg_len, sm[1].msg_len, sm[2].msg_len);
    char b[4][16];
    struct iovec riov[4];
    struct mmsghdr rm[4];
    memset(b, 0, sizeof(b));
    memset(rm, 0, sizeof(rm));
    for (int i = 0; i < 4; i++) {
        riov[i] = (struct iovec){ b[i], sizeof(b[i]) };
        rm[i].msg_hdr.msg_iov = &riov[i];
        rm[i].msg_hdr.msg_iovlen = 1;
    }
    CHECK(recvmmsg(sv[1], rm, 2, 0, NULL) == 2);
    printf("recvmmsg 2: %s/%u %s/%u\n", b[0], rm[0].msg_len, b[1], rm[1].msg_len);
    CHECK(recvmmsg(sv[1], rm + 2, 2, MSG_WAITFORONE, NULL) == 1);
    printf("recvmmsg waitforone: %s/%u\n", b[2], rm[2].msg_len);
    CHECK(recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, NULL) == -1);
    printf("recvmmsg empty: %s\n", errno == EAGAIN ? "EAGAIN" : "other");
    // a zero timeout ends the call after the first message; a bad one is refused before
    // anything is received (both with MSG_DONTWAIT, so that a run that ignores the
    // timeout, as qemu-hexagon does, ends too)
    CHECK(sendmmsg(sv[0], sm, 3, 0) == 3);
    struct timespec zero = { 0, 0 }, bad = { 0, 1000000000 };
    int got = recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, &zero);
    printf("recvmmsg zero timeout: %d, first %u\n", got, rm[0].msg_len);
    while (recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, NULL) > 0)
        ;
    CHECK(send(sv[0], "x", 1, 0) == 1);
    got = recvmmsg(sv[1], rm, 4, MSG_DONTWAIT, &bad);
    printf("recvmmsg bad timeout: %s\n",
           got >= 0 ? "received" : errno == EINVAL ? "EINVAL" : "other");
    close(sv[0]);
    close(sv[1]);
}

static void udp(void)
{
    int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, 0);
    CHECK(a >= 0 && b >= 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    CHECK(bind(a, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    socklen_t len = sizeof(sa);
    CHECK(getsockname(a, (struct sockaddr *)&sa, &len) == 0);
    printf("udp bound: family %d, len %u, port set %d, addr %s\n", sa.sin_family, (unsigned)len,
           sa.sin_port != 0, inet_ntoa(sa.sin_addr));
    CHECK(sendto(b, "datagram", 8, 0, (struct sockaddr *)&sa, sizeof(sa)) == 8);
    struct sockaddr_in from;
    socklen_t flen = sizeof(from);
    char buf[32] = {0};
    CHECK(recvfrom(a, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen) == 8);
    struct sockaddr_in bs;
    socklen_t blen = sizeof(bs);
    CHECK(getsockname(b, (struct sockaddr *)&bs, &blen) == 0);
    printf("udp got %s from %s, sender port matches %d\n", buf, inet_ntoa(from.sin_addr),
           from.sin_port == bs.sin_port);
    // a short address buffer: cut, with the full length returned
    flen = 4;
    CHECK(sendto(b, "x", 1, 0, (struct sockaddr *)&sa, sizeof(sa)) == 1);
    memset(&from, 0, sizeof(from));
    CHECK(recvfrom(a, buf, sizeof(buf), 0, (struct sockaddr *)&from, &flen) == 1);
    printf("short address: len %u, address left alone %d\n", (unsigned)flen,
           from.sin_addr.s_addr == 0);
    CHECK(sendto(b, "x", 1, 0, (struct sockaddr *)&sa, 200) == -1);
    printf("long address: %s\n", errno == EINVAL ? "EINVAL" : "other");
    close(a);
    close(b);
}

static void options(void)
{
    int s = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(s >= 0);
    int v = 1, t = 0;
    socklen_t len = sizeof(t);
    CHECK(setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &v, sizeof(v)) == 0);
    CHECK(getsockopt(s, SOL_SOCKET, SO_REUSEADDR, &t, &len) == 0);
    printf("SO_REUSEADDR %d len %u\n", t != 0, (unsigned)len);
    CHECK(getsockopt(s, SOL_SOCKET, SO_TYPE, &t, &len) == 0);
    printf("SO_TYPE %d\n", t);
    CHECK(setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &v, sizeof(v)) == 0);
    CHECK(getsockopt(s, IPPROTO_TCP, TCP_NODELAY, &t, &len) == 0);
    printf("TCP_NODELAY %d\n", t != 0);
    struct timeval tv = { 2, 500000 }, tv2 = { 0, 0 };
    len = sizeof(tv2);
    CHECK(setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) == 0);
    CHECK(getsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv2, &len) == 0);
    printf("SO_RCVTIMEO %lld.%06ld len right %d\n", (long long)tv2.tv_sec, (long)tv2.tv_usec,
           len == sizeof(tv2));
    struct linger lg = { 1, 5 }, lg2 = { 0, 0 };
    len = sizeof(lg2);
    CHECK(setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) == 0);
    CHECK(getsockopt(s, SOL_SOCKET, SO_LINGER, &lg2, &len) == 0);
    printf("SO_LINGER %d %d\n", lg2.l_onoff, lg2.l_linger);
    printf("bad level: %d\n", setsockopt(s, 9999, 1, &v, sizeof(v)) == -1);
    close(s);
    printf("bad family: %s\n", socket(12345, SOCK_STREAM, 0) < 0 && errno == EAFNOSUPPORT
                                   ? "EAFNOSUPPORT" : "other");
    printf("not a socket: %s\n", listen(1, 1) < 0 && errno == ENOTSOCK ? "ENOTSOCK" : "other");
}

// TCP echo: the parent listens, a child process connects, sends, and prints the echo.
static void tcp_echo(void)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(l >= 0);
    int one = 1;
    CHECK(setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) == 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    CHECK(bind(l, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    CHECK(listen(l, 4) == 0);
    socklen_t len = sizeof(sa);
    CHECK(getsockname(l, (struct sockaddr *)&sa, &len) == 0);
    fflush(stdout);
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int c = socket(AF_INET, SOCK_STREAM, 0);
        CHECK(c >= 0);
        CHECK(connect(c, (struct sockaddr *)&sa, sizeof(sa)) == 0);
        const char *msg = "hello over tcp";
        CHECK(send(c, msg, strlen(msg), 0) == (ssize_t)strlen(msg));
        CHECK(shutdown(c, SHUT_WR) == 0);
        char b[64] = {0};
        size_t n = 0;
        ssize_t r;
        while ((r = recv(c, b + n, sizeof(b) - 1 - n, 0)) > 0)
            n += (size_t)r;
        printf("child got echo: %s\n", b);
        close(c);
        exit(0);
    }
    struct sockaddr_in peer;
    socklen_t plen = sizeof(peer);
    int a = accept4(l, (struct sockaddr *)&peer, &plen, SOCK_CLOEXEC);
    CHECK(a >= 0);
    struct sockaddr_in p2;
    socklen_t p2len = sizeof(p2);
    CHECK(getpeername(a, (struct sockaddr *)&p2, &p2len) == 0);
    printf("accepted from %s, peer matches %d\n", inet_ntoa(peer.sin_addr),
           p2.sin_port == peer.sin_port);
    char b[64];
    size_t n = 0;
    ssize_t r;
    while ((r = read(a, b + n, sizeof(b) - n)) > 0)
        n += (size_t)r;
    for (size_t i = 0; i < n; i++)
        if (b[i] >= 'a' && b[i] <= 'z')
            b[i] = (char)(b[i] - 'a' + 'A');
    CHECK(write(a, b, n) == (ssize_t)n);
    close(a);
    int st;
    CHECK(waitpid(pid, &st, 0) == pid);
    printf("child exit %d\n", WEXITSTATUS(st));
    close(l);
}

// The same between two threads of one process: the main thread waits in accept and
// recv while the other connects and sends (hexsim runs both on one vCPU: a call that
// would block gives the other thread its turn).
static void *client(void *arg)
{
    const struct sockaddr_in *sa = arg;
    int c = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(c >= 0);
    CHECK(connect(c, (const struct sockaddr *)sa, sizeof(*sa)) == 0);
    CHECK(send(c, "from a thread", 13, 0) == 13);
    char b[16] = {0};
    CHECK(recv(c, b, 2, MSG_WAITALL) == 2);
    printf("thread got reply: %s\n", b);
    close(c);
    return NULL;
}

static void tcp_threads(void)
{
    int l = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(l >= 0);
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    CHECK(bind(l, (struct sockaddr *)&sa, sizeof(sa)) == 0);
    CHECK(listen(l, 1) == 0);
    socklen_t len = sizeof(sa);
    CHECK(getsockname(l, (struct sockaddr *)&sa, &len) == 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, client, &sa) == 0);
    int a = accept(l, NULL, NULL);
    CHECK(a >= 0);
    char b[32] = {0};
    CHECK(recv(a, b, 13, MSG_WAITALL) == 13);
    printf("main thread got: %s\n", b);
    CHECK(send(a, "ok", 2, 0) == 2);
    CHECK(pthread_join(t, NULL) == 0);
    close(a);
    close(l);
}

// A poll with a timeout on a socket nothing arrives at, while another thread runs until
// the poll has ended: the timeout must still end it.
static volatile int spin_stop;

static void *spinner(void *arg)
{
    (void)arg;
    while (!spin_stop)
        ;
    return NULL;
}

static void poll_timeout_threads(void)
{
    int sv[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, spinner, NULL) == 0);
    struct pollfd p = { sv[0], POLLIN, 0 };
    int r = poll(&p, 1, 50);
    spin_stop = 1;
    CHECK(pthread_join(t, NULL) == 0);
    printf("poll with a spinning thread: %d\n", r);
    close(sv[0]);
    close(sv[1]);
}

static void inet6(void)
{
    int s = socket(AF_INET6, SOCK_DGRAM, 0);
    struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_LOOPBACK_INIT };
    if (s < 0 || bind(s, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
        printf("inet6: no ::1 here\n");
        if (s >= 0)
            close(s);
        return;
    }
    socklen_t len = sizeof(sa);
    CHECK(getsockname(s, (struct sockaddr *)&sa, &len) == 0);
    CHECK(sendto(s, "six", 3, 0, (struct sockaddr *)&sa, len) == 3);
    char b[8] = {0};
    CHECK(recv(s, b, sizeof(b), 0) == 3);
    char a[64];
    printf("inet6: %s from myself at %s, len %u\n", b,
           inet_ntop(AF_INET6, &sa.sin6_addr, a, sizeof(a)), (unsigned)len);
    close(s);
}

static void resolve(void)
{
    struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res;
    int e = getaddrinfo("localhost", "8080", &hints, &res);
    if (e) {   // (the messages differ between C libraries)
        printf("getaddrinfo localhost: failed\n");
        return;
    }
    int n4 = 0;
    for (struct addrinfo *p = res; p; p = p->ai_next)
        if (p->ai_family == AF_INET) {
            struct sockaddr_in *in = (struct sockaddr_in *)p->ai_addr;
            printf("localhost: %s port %d\n", inet_ntoa(in->sin_addr), ntohs(in->sin_port));
            n4++;
        }
    printf("localhost: %d IPv4 results\n", n4);
    freeaddrinfo(res);
    e = getaddrinfo("127.0.0.1", NULL, &(struct addrinfo){ .ai_flags = AI_NUMERICHOST }, &res);
    printf("numeric: %s\n", e ? "failed" : "ok");
    if (!e)
        freeaddrinfo(res);
    // a service by name, from /etc/services
    e = getaddrinfo("127.0.0.1", "http", &(struct addrinfo){ .ai_socktype = SOCK_STREAM }, &res);
    printf("service http: %d\n", e ? -1 : ntohs(((struct sockaddr_in *)res->ai_addr)->sin_port));
    if (!e)
        freeaddrinfo(res);
    char host[64], serv[32];
    struct sockaddr_in lo = { .sin_family = AF_INET, .sin_port = htons(80),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    e = getnameinfo((struct sockaddr *)&lo, sizeof(lo), host, sizeof(host), serv, sizeof(serv),
                    NI_NUMERICHOST);
    printf("getnameinfo: %s %s\n", e ? "failed" : host, e ? "" : serv);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    unix_stream();
    unix_dgram();
    mmsg();
    udp();
    options();
    tcp_echo();
    tcp_threads();
    poll_timeout_threads();
    inet6();
    resolve();
    printf("ok\n");
    return 0;
}
