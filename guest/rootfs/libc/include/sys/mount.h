// SPDX-License-Identifier: MIT
#ifndef _SYS_MOUNT_H
#define _SYS_MOUNT_H
#define MS_RDONLY 1
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_NOEXEC 8
#define MS_SYNCHRONOUS 16
#define MS_REMOUNT 32
#define MS_NOATIME 1024
#define MS_BIND 4096
#define MS_MOVE 8192
#define MNT_FORCE 1
#define MNT_DETACH 2
int mount(const char *src, const char *target, const char *type, unsigned long flags, const void *data);
int umount(const char *target);
int umount2(const char *target, int flags);
#endif
