// SPDX-License-Identifier: MIT
// Linux system calls for user mode (asm-generic numbers, include/uapi/asm-generic/unistd.h,
// 32-bit ABI): trap0(#1) with the number in r6, arguments r0-r5, result (or -errno) in r0.
// Guest buffers are reached only through the checked memory accessors; a bad guest pointer
// gives -EFAULT as the kernel would.
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "user.h"

enum { NR_write = 64, NR_exit = 93, NR_exit_group = 94, NR_brk = 214 };

static int32_t sys_write(struct hexsim_user *u, uint32_t fd, uint32_t buf, uint32_t len)
{
    if (fd >= 64 || u->guest_fd_map[fd] < 0)
        return -EBADF;
    uint8_t tmp[4096];
    uint32_t done = 0;
    while (done < len) {
        uint32_t chunk = len - done < sizeof(tmp) ? len - done : (uint32_t)sizeof(tmp);
        if (hexsim_mem_copy_out(&u->mem, buf + done, tmp, chunk, HEXSIM_PROT_R, NULL))
            return done ? (int32_t)done : -EFAULT;
        ssize_t w = write(u->guest_fd_map[fd], tmp, chunk);
        if (w < 0)
            return done ? (int32_t)done : -errno;
        done += (uint32_t)w;
        if ((uint32_t)w < chunk)
            break;
    }
    return (int32_t)done;
}

static uint32_t sys_brk(struct hexsim_user *u, uint32_t want)
{
    if (want < u->brk_start || want >= HEXSIM_USER_MMAP_BASE)
        return u->brk_cur;
    uint32_t old_end = (u->brk_cur + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    uint32_t new_end = (want + HEXSIM_PAGE_SIZE - 1) & ~(HEXSIM_PAGE_SIZE - 1);
    if (new_end > old_end &&
        hexsim_mem_map(&u->mem, old_end, new_end - old_end, HEXSIM_PROT_R | HEXSIM_PROT_W))
        return u->brk_cur;
    if (new_end < old_end)
        hexsim_mem_unmap(&u->mem, new_end, old_end - new_end);
    u->brk_cur = want;
    return want;
}

static void warn_once(struct hexsim_user *u, uint32_t nr)
{
    if (nr < 512) {
        if (u->warned_syscalls[nr / 64] >> (nr % 64) & 1)
            return;
        u->warned_syscalls[nr / 64] |= 1ull << (nr % 64);
    }
    fprintf(u->err, "hexsim: warning: system call %u is not implemented (returns -ENOSYS)\n", nr);
}

void hexsim_user_syscall(struct hexsim_user *u)
{
    uint32_t *r = u->cpu.r;
    uint32_t nr = r[6];
    int64_t ret;
    switch (nr) {
    case NR_write:
        ret = sys_write(u, r[0], r[1], r[2]);
        break;
    case NR_exit:
    case NR_exit_group:
        u->exited = true;
        u->exit_status = (int)(r[0] & 0xff);
        return;
    case NR_brk:
        ret = sys_brk(u, r[0]);
        break;
    default:
        warn_once(u, nr);
        ret = -ENOSYS;
        break;
    }
    r[0] = (uint32_t)ret;
}
