// SPDX-License-Identifier: MIT
// The event descriptor calls (sys_event.c): epoll, eventfd, inotify, timerfd, signalfd.
#ifndef HEXSIM_USER_SYS_EVENT_H
#define HEXSIM_USER_SYS_EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct hexsim_user;

int64_t sys_eventfd2(struct hexsim_user *u, uint32_t init, uint32_t flags);
int64_t sys_epoll_create1(struct hexsim_user *u, uint32_t flags);
int64_t sys_epoll_ctl(struct hexsim_user *u, uint32_t epfd, uint32_t op, uint32_t fd,
                      uint32_t event);
// epoll_pwait (ms; -1 no limit) and epoll_pwait2 (tsp, 64-bit timespec; 0 no limit)
int64_t sys_epoll_pwait(struct hexsim_user *u, uint32_t epfd, uint32_t events, uint32_t max,
                        int32_t ms, uint32_t tsp, uint32_t sigmask, uint32_t size);
int64_t sys_inotify_init1(struct hexsim_user *u, uint32_t flags);
int64_t sys_inotify_add_watch(struct hexsim_user *u, uint32_t fd, uint32_t path, uint32_t mask);
int64_t sys_inotify_rm_watch(struct hexsim_user *u, uint32_t fd, uint32_t wd);
int64_t sys_timerfd_create(struct hexsim_user *u, uint32_t clk, uint32_t flags);
int64_t sys_timerfd_settime(struct hexsim_user *u, uint32_t fd, uint32_t flags, uint32_t nv,
                            uint32_t ov, bool t64);
int64_t sys_timerfd_gettime(struct hexsim_user *u, uint32_t fd, uint32_t cv, bool t64);
int64_t sys_signalfd4(struct hexsim_user *u, uint32_t fd, uint32_t set, uint32_t size,
                      uint32_t flags);

#endif
