// SPDX-License-Identifier: MIT
// What the Check suites that drive Linux user mode without guest code share
// (test_user_os.c, test_user_robust.c): a fresh process (empty memory, no ELF, guest
// descriptors closed, diagnostics to /dev/null), its release, and a system call made the
// way the trap makes it (arguments in r0-r5, the number in r6, the result in r0).
#ifndef HEXSIM_TESTS_USER_TEST_LIB_H
#define HEXSIM_TESTS_USER_TEST_LIB_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/user.h"

static inline struct hexsim_user *test_user_new(void)
{
    struct hexsim_user *u = calloc(1, sizeof *u);
    ck_assert_ptr_nonnull(u);
    hexsim_mem_init(&u->mem);
    u->err = fopen("/dev/null", "w");
    u->arch = 68;
    u->mmap_next = HEXSIM_USER_MMAP_BASE;
    for (unsigned i = 0; i < 64; i++)
        u->guest_fd_map[i] = -1;
    return u;
}

static inline void test_user_free(struct hexsim_user *u)
{
    fclose(u->err);
    hexsim_user_free(u);
    free(u);
}

// System call nr with the n arguments a (r0 up; the registers after them keep their values).
static inline uint32_t test_user_syscall(struct hexsim_user *u, uint32_t nr, const uint32_t *a,
                                         unsigned n)
{
    memcpy(u->cpu.r, a, n * sizeof *a);
    u->cpu.r[6] = nr;
    hexsim_user_syscall(u);
    return u->cpu.r[0];
}

#endif
