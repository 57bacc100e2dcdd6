// SPDX-License-Identifier: MIT
#ifndef _SYS_SOCKET_H
#define _SYS_SOCKET_H
#include <sys/types.h>
#define AF_UNSPEC 0
#define AF_UNIX 1
#define AF_INET 2
#define AF_NETLINK 16
#define AF_PACKET 17
#define PF_INET AF_INET
#define PF_NETLINK AF_NETLINK
#define PF_PACKET AF_PACKET
#define SOCK_STREAM 1
#define SOCK_DGRAM 2
#define SOCK_RAW 3
#define SOCK_CLOEXEC 02000000
#define SOL_SOCKET 1
#define SO_REUSEADDR 2
#define SO_BROADCAST 6
#define SO_RCVTIMEO 20
#define SO_SNDTIMEO 21
#define SO_BINDTODEVICE 25
#define MSG_DONTWAIT 0x40
struct sockaddr { sa_family_t sa_family; char sa_data[14]; };
struct iovec { void *iov_base; size_t iov_len; };
struct msghdr {
    void *msg_name; socklen_t msg_namelen; struct iovec *msg_iov; size_t msg_iovlen;
    void *msg_control; size_t msg_controllen; int msg_flags;
};
int socket(int dom, int type, int proto);
int bind(int fd, const struct sockaddr *a, socklen_t n);
int connect(int fd, const struct sockaddr *a, socklen_t n);
int listen(int fd, int backlog);
int accept(int fd, struct sockaddr *restrict a, socklen_t *restrict n);
ssize_t send(int fd, const void *buf, size_t n, int flags);
ssize_t recv(int fd, void *buf, size_t n, int flags);
ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a, socklen_t al);
ssize_t recvfrom(int fd, void *restrict buf, size_t n, int flags, struct sockaddr *restrict a, socklen_t *restrict al);
ssize_t sendmsg(int fd, const struct msghdr *m, int flags);
ssize_t recvmsg(int fd, struct msghdr *m, int flags);
int setsockopt(int fd, int level, int name, const void *v, socklen_t n);
int getsockopt(int fd, int level, int name, void *restrict v, socklen_t *restrict n);
int getsockname(int fd, struct sockaddr *restrict a, socklen_t *restrict n);
int shutdown(int fd, int how);
#endif
