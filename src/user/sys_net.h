// SPDX-License-Identifier: MIT
// The socket calls (sys_socket.c) and its socket address helpers.
#ifndef HEXSIM_USER_SYS_NET_H
#define HEXSIM_USER_SYS_NET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

struct hexsim_user;

// sys_socket.c
// A guest socket address (addr, len) for the host (a relative AF_UNIX path becomes one
// from the guest's current directory): 0 or -errno.
int hx_sockaddr_in(struct hexsim_user *u, uint32_t addr, uint32_t len,
                   struct sockaddr_storage *ss, socklen_t *hl);
// A host address to the guest's (addr, *lenp): cut to *lenp, *lenp set to hl.
int hx_sockaddr_out(struct hexsim_user *u, uint32_t addr, uint32_t lenp,
                    const struct sockaddr_storage *ss, socklen_t hl);
int64_t sys_socket(struct hexsim_user *u, uint32_t family, uint32_t type, uint32_t proto);
int64_t sys_socketpair(struct hexsim_user *u, uint32_t family, uint32_t type, uint32_t proto,
                       uint32_t sv);
int64_t sys_bind(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t len, bool conn);
int64_t sys_listen(struct hexsim_user *u, uint32_t fd, uint32_t backlog);
int64_t sys_accept4(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t lenp,
                    uint32_t flags);
int64_t sys_sockname(struct hexsim_user *u, uint32_t fd, uint32_t addr, uint32_t lenp,
                     bool peer);
int64_t sys_shutdown(struct hexsim_user *u, uint32_t fd, uint32_t how);
int64_t sys_sendto(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len,
                   uint32_t flags, uint32_t addr, uint32_t alen);
int64_t sys_recvfrom(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len,
                     uint32_t flags, uint32_t addr, uint32_t lenp);
int64_t sys_msg(struct hexsim_user *u, uint32_t fd, uint32_t msg, uint32_t flags, bool recv);
int64_t sys_sendmmsg(struct hexsim_user *u, uint32_t fd, uint32_t vec, uint32_t n,
                     uint32_t flags);
int64_t sys_recvmmsg(struct hexsim_user *u, uint32_t fd, uint32_t vec, uint32_t n,
                     uint32_t flags, uint32_t timeout, bool t64);
int64_t sys_setsockopt(struct hexsim_user *u, uint32_t fd, uint32_t level, uint32_t name,
                       uint32_t val, uint32_t len);
int64_t sys_getsockopt(struct hexsim_user *u, uint32_t fd, uint32_t level, uint32_t name,
                       uint32_t val, uint32_t lenp);

#endif
