// SPDX-License-Identifier: MIT
// Check suite for the threads, signals and timers of Linux user mode (src/user/thread.c,
// signal.c, timer.c) driven through hexsim_user_syscall without guest code: the signal
// frame's layout as arch/hexagon/kernel/signal.c builds it (trampoline words, siginfo,
// ucontext with the 48-word sigcontext and the mask) and rt_sigreturn restoring from it, a
// frame that cannot be written or read (SIGSEGV ends the process), a futex timeout moving
// the simulated clock by exactly its length, a wait nothing can end, and MADV_DONTNEED.
#include "../check_main.h"
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "user/user.h"
#include "user_test_lib.h"

#define STACK 0x00200000u
#define HANDLER 0x00012340u

static struct hexsim_user *new_user(void)
{
    struct hexsim_user *u = test_user_new();
    ck_assert_int_eq(hexsim_mem_map(&u->mem, STACK - 0x10000, 0x10000,
                                    HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    return u;
}

static uint32_t sys(struct hexsim_user *u, uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2,
                    uint32_t a3)
{
    return test_user_syscall(u, nr, (const uint32_t[]){ a0, a1, a2, a3 }, 4);
}

static uint32_t rd(struct hexsim_user *u, uint32_t addr)
{
    uint32_t v = 0;
    ck_assert_int_eq(hexsim_mem_copy_out(&u->mem, addr, &v, 4, HEXSIM_PROT_R, NULL), 0);
    return v;
}

static void wr(struct hexsim_user *u, uint32_t addr, uint32_t v)
{
    ck_assert_int_eq(hexsim_mem_copy_in(&u->mem, addr, &v, 4, false, NULL), 0);
}

// rt_sigaction(sig, {HANDLER, flags, mask 0}) with the struct on the stack
static void set_handler(struct hexsim_user *u, int sig, uint32_t flags)
{
    uint32_t act = STACK - 0x8000;
    wr(u, act, HANDLER);
    wr(u, act + 4, flags);
    wr(u, act + 8, 0);
    wr(u, act + 12, 0);
    ck_assert_uint_eq(sys(u, 134, (uint32_t)sig, act, 0, 8), 0);
}

START_TEST(test_frame_layout)
{
    struct hexsim_user *u = new_user();
    set_handler(u, 10, 4);   // SIGUSR1, SA_SIGINFO
    for (int i = 0; i < 32; i++)
        u->cpu.r[i] = 0x1000u + (uint32_t)i;
    u->cpu.r[29] = STACK - 0x100 + 4;   // frame: 360 bytes below, 8-aligned
    u->cpu.c[HX_UGP] = 0xabcd0000u;
    u->cpu.c[HX_USR] = 0x00400000u;
    u->cpu.p[0] = 0xff;
    u->cpu.pc = 0x00020000u;   // after the trap
    u->cpu.r[0] = 1;           // kill(1, SIGUSR1)
    u->cpu.r[1] = 10;
    u->cpu.r[6] = 129;
    hexsim_user_syscall(u);
    const uint32_t frame = (STACK - 0x100 + 4 - 360) & ~7u;
    ck_assert_uint_eq(u->cpu.pc, HANDLER);
    ck_assert_uint_eq(u->cpu.r[29], frame);
    ck_assert_uint_eq(u->cpu.r[0], 10);
    ck_assert_uint_eq(u->cpu.r[1], frame + 8);
    ck_assert_uint_eq(u->cpu.r[2], frame + 136);
    ck_assert_uint_eq(rd(u, u->cpu.r[31]), 0x7800d166u);      // the vdso's trampoline
    ck_assert_uint_eq(rd(u, u->cpu.r[31] + 4), 0x5400c004u);
    ck_assert_uint_eq(rd(u, frame), 0x7800d166u);             // the frame's magic words
    ck_assert_uint_eq(rd(u, frame + 4), 0x5400c004u);
    ck_assert_uint_eq(rd(u, frame + 8), 10);                  // si_signo
    ck_assert_uint_eq(rd(u, frame + 16), 0);                  // si_code SI_USER
    ck_assert_uint_eq(rd(u, frame + 148), 2);                 // uc_stack.ss_flags SS_DISABLE
    const uint32_t mc = frame + 160;                          // sigcontext
    ck_assert_uint_eq(rd(u, mc + 0), 0);                      // r0: kill's result
    ck_assert_uint_eq(rd(u, mc + 4 * 20), 0x1014u);
    ck_assert_uint_eq(rd(u, mc + 4 * 29), STACK - 0x100 + 4);
    ck_assert_uint_eq(rd(u, mc + 4 * 38), 0x00400000u);       // usr
    ck_assert_uint_eq(rd(u, mc + 4 * 39), 0xffu);             // p3_0
    ck_assert_uint_eq(rd(u, mc + 4 * 41), 0xabcd0000u);       // ugp
    ck_assert_uint_eq(rd(u, mc + 4 * 42), 0x00020000u);       // pc
    ck_assert_uint_eq(rd(u, frame + 352), 0);                 // uc_sigmask: the old mask
    // in the handler: SIGUSR1 is blocked; the handler changes r20 in the frame and returns
    sys(u, 135, 0, 0, STACK - 0x7000, 8);
    ck_assert_uint_eq(rd(u, STACK - 0x7000), 1u << 9);
    wr(u, mc + 4 * 20, 77);
    u->cpu.r[29] = frame;
    u->cpu.r[6] = 139;   // rt_sigreturn
    hexsim_user_syscall(u);
    ck_assert(!u->exited);
    ck_assert_uint_eq(u->cpu.pc, 0x00020000u);
    ck_assert_uint_eq(u->cpu.r[20], 77);
    ck_assert_uint_eq(u->cpu.r[0], 0);
    ck_assert_uint_eq(u->cpu.r[29], STACK - 0x100 + 4);
    ck_assert_uint_eq(u->cpu.c[HX_UGP], 0xabcd0000u);
    ck_assert_uint_eq(u->cpu.p[0], 0xff);
    sys(u, 135, 0, 0, STACK - 0x7000, 8);
    ck_assert_uint_eq(rd(u, STACK - 0x7000), 0);   // the mask is back
    test_user_free(u);
}
END_TEST

START_TEST(test_frame_unwritable)
{
    struct hexsim_user *u = new_user();
    set_handler(u, 10, 0);
    u->cpu.r[29] = 0x00001000u;   // nothing mapped below
    sys(u, 129, 1, 10, 0, 0);
    ck_assert(u->exited);
    ck_assert_int_eq(u->exit_status, 128 + 11);
    test_user_free(u);
}
END_TEST

START_TEST(test_sigreturn_without_frame)
{
    struct hexsim_user *u = new_user();
    u->cpu.r[29] = 0x00001000u;
    sys(u, 139, 0, 0, 0, 0);
    ck_assert(u->exited);
    ck_assert_int_eq(u->exit_status, 128 + 11);
    test_user_free(u);
}
END_TEST

START_TEST(test_futex_timeout_clock)
{
    struct hexsim_user *u = new_user();
    const uint32_t word = STACK - 0x5000, ts = STACK - 0x4000;
    wr(u, word, 7);
    wr(u, ts, 0);            // 64-bit timespec: 0 s, 2.5 ms
    wr(u, ts + 4, 0);
    wr(u, ts + 8, 2500000);
    wr(u, ts + 12, 0);
    u->cpu.pcycles = 1000;
    ck_assert_int_eq((int32_t)sys(u, 422, word, 128, 7, ts), -ETIMEDOUT);
    ck_assert_uint_eq(u->cpu.pcycles, 1000 + 1500000);   // 2.5 ms at 600 MHz
    ck_assert_int_eq((int32_t)sys(u, 422, word, 128, 8, ts), -EAGAIN);
    ck_assert(!u->exited);
    sys(u, 422, word, 128, 7, 0);   // no timeout, no other thread: nothing can end it
    ck_assert(u->exited);
    ck_assert_int_eq(u->exit_status, 124);
    test_user_free(u);
}
END_TEST

START_TEST(test_madvise_dontneed)
{
    struct hexsim_user *u = new_user();
    const uint32_t page = STACK - 0x3000;
    wr(u, page + 8, 0x55);
    ck_assert_uint_eq(sys(u, 233, page, 4096, 4, 0), 0);
    ck_assert_uint_eq(rd(u, page + 8), 0);
    ck_assert_int_eq((int32_t)sys(u, 233, 0x7000000u, 4096, 4, 0), -ENOMEM);
    test_user_free(u);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("user_os");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_frame_layout);
    tcase_add_test(tc, test_frame_unwritable);
    tcase_add_test(tc, test_sigreturn_without_frame);
    tcase_add_test(tc, test_futex_timeout_clock);
    tcase_add_test(tc, test_madvise_dontneed);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return hexsim_check_run(suite());
}
