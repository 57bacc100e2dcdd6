// SPDX-License-Identifier: MIT
// Basic system types for the hexsim rootfs libc (Hexagon Linux, 32-bit, 64-bit off_t/time_t).
#ifndef _SYS_TYPES_H
#define _SYS_TYPES_H
#include <stddef.h>
#include <stdint.h>
typedef long ssize_t;
typedef long long off_t;
typedef long long time_t;
typedef long long suseconds_t;
typedef int pid_t;
typedef unsigned int uid_t;
typedef unsigned int gid_t;
typedef unsigned int mode_t;
typedef unsigned int nlink_t;
typedef unsigned long long dev_t;
typedef unsigned long long ino_t;
typedef long long blkcnt_t;
typedef long blksize_t;
typedef int clockid_t;
typedef unsigned int socklen_t;
typedef unsigned short sa_family_t;
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#endif
