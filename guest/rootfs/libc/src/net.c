// SPDX-License-Identifier: MIT
// Socket system calls and IPv4 address text conversion.
#include <arpa/inet.h>
#include <stdio.h>
#include <sys/socket.h>
#include "libc.h"

int socket(int dom, int type, int proto) { return (int)__ret(__sc3(SYS_socket, dom, type, proto)); }
int bind(int fd, const struct sockaddr *a, socklen_t n) { return (int)__ret(__sc3(SYS_bind, fd, a, n)); }
int connect(int fd, const struct sockaddr *a, socklen_t n) { return (int)__ret(__sc3(SYS_connect, fd, a, n)); }
int listen(int fd, int backlog) { return (int)__ret(__sc2(SYS_listen, fd, backlog)); }
int accept(int fd, struct sockaddr *restrict a, socklen_t *restrict n)
{
    return (int)__ret(__sc3(SYS_accept, fd, a, n));
}
ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a, socklen_t al)
{
    return __ret(__sc6(SYS_sendto, fd, (long)buf, (long)n, flags, (long)a, (long)al));
}
ssize_t recvfrom(int fd, void *restrict buf, size_t n, int flags, struct sockaddr *restrict a,
                 socklen_t *restrict al)
{
    return __ret(__sc6(SYS_recvfrom, fd, (long)buf, (long)n, flags, (long)a, (long)al));
}
ssize_t send(int fd, const void *buf, size_t n, int flags) { return sendto(fd, buf, n, flags, 0, 0); }
ssize_t recv(int fd, void *buf, size_t n, int flags) { return recvfrom(fd, buf, n, flags, 0, 0); }
ssize_t sendmsg(int fd, const struct msghdr *m, int flags) { return __ret(__sc3(SYS_sendmsg, fd, m, flags)); }
ssize_t recvmsg(int fd, struct msghdr *m, int flags) { return __ret(__sc3(SYS_recvmsg, fd, m, flags)); }
int setsockopt(int fd, int level, int name, const void *v, socklen_t n)
{
    return (int)__ret(__sc5(SYS_setsockopt, fd, level, name, v, n));
}
int getsockopt(int fd, int level, int name, void *restrict v, socklen_t *restrict n)
{
    return (int)__ret(__sc5(SYS_getsockopt, fd, level, name, v, n));
}
int getsockname(int fd, struct sockaddr *restrict a, socklen_t *restrict n)
{
    return (int)__ret(__sc3(SYS_getsockname, fd, a, n));
}
int shutdown(int fd, int how) { return (int)__ret(__sc2(SYS_shutdown, fd, how)); }

int inet_aton(const char *s, struct in_addr *a)
{
    unsigned long parts[4];
    int n = 0;
    while (n < 4) {
        if (*s < '0' || *s > '9')
            return 0;
        unsigned long v = 0;
        while (*s >= '0' && *s <= '9') {
            v = v * 10 + (unsigned long)(*s++ - '0');
            if (v > 255)
                return 0;
        }
        parts[n++] = v;
        if (*s != '.')
            break;
        s++;
    }
    if (*s || n != 4)
        return 0;
    a->s_addr = htonl((uint32_t)(parts[0] << 24 | parts[1] << 16 | parts[2] << 8 | parts[3]));
    return 1;
}

in_addr_t inet_addr(const char *s)
{
    struct in_addr a;
    return inet_aton(s, &a) ? a.s_addr : INADDR_BROADCAST;
}

char *inet_ntoa(struct in_addr a)
{
    static char buf[16];
    uint32_t v = ntohl(a.s_addr);
    snprintf(buf, sizeof buf, "%u.%u.%u.%u", v >> 24, (v >> 16) & 255, (v >> 8) & 255, v & 255);
    return buf;
}
