// SPDX-License-Identifier: MIT
// HVM test kernel: user mode. vmrte with GSR.UM enters user mode on the GOSP stack; trap0
// from user mode is event 5 with the trap number as cause, GSR.UM set and the user stack in
// GOSP (the HVM swapped R29); trap1 and guest-register instructions in user mode are
// general exceptions PRIVI; a user load from a page without U is RUSER with BADVA.
#include "hvm.h"

#define R (1u << 9)
#define W (1u << 10)
#define X (1u << 11)
#define U (1u << 5)

static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static volatile u32 n_ruser, n_ev, last_slot, last_gsr, last_osp, last_badva, step;
static u32 user_stack[256] __attribute__((aligned(8)));

void hvm_event(u32 slot, u32 *rec)
{
    n_ev++;
    last_slot = slot;
    last_gsr = rec[1];
    last_osp = rec[2];
    last_badva = rec[3];
    if (slot == 2 && GSR_CAUSE(rec[1]) == 0x24)
        n_ruser++;
    if (slot == 5 && GSR_CAUSE(rec[1]) == 1) {
        rec[0] = (u32)user_return;       // the user program is done: back to the kernel
        rec[1] = 0;
    } else {
        rec[0] += 4;                     // skip the faulting one-word packet
    }
}

static void user_prog(void)
{
    step = 1;
    __asm__ volatile("{ trap1(#4) }" ::: "r0", "memory");          // PRIVI
    step = 2;
    __asm__ volatile("{ r0 = g0 }" ::: "r0", "memory");            // PRIVI
    step = 3;
    {
        register u32 a __asm__("r1") = 0x40000000;
        __asm__ volatile("{ r0 = memw(r1+#0) }" : : "r"(a) : "r0", "memory");  // RUSER
    }
    step = 4;
    __asm__ volatile("r0 = #0x1234\n{ trap0(#1) }" ::: "r0", "memory");
    for (;;)
        ;
}

int main(void)
{
    for (u32 i = 0; i < 1024; i++)
        l1[i] = 7;
    for (u32 i = 0; i < 4; i++)
        l1[i] = (i << 22) | R | W | X | U | 5;             // user-accessible identity
    l1[0x40000000 >> 22] = (u32)l2;
    l2[0] = 0x00800000 | R | W;                            // supervisor only
    CHECK_EQ(vmnewmap(l1), 0);
    u32 *usp = &user_stack[256];
    enter_user(user_prog, usp);
    CHECK_EQ(step, 4);
    CHECK_EQ(n_ruser, 1);
    CHECK_EQ(n_ev, 4);
    CHECK_EQ(last_slot, 5);
    CHECK_EQ(GSR_RESERVED(last_gsr), 0);
    CHECK_EQ(GSR_CAUSE(last_gsr), 1);
    CHECK(last_gsr & GSR_UM);
    CHECK((last_osp & ~0xffu) == (((u32)usp - 8) & ~0xffu) || last_osp <= (u32)usp);
    CHECK(last_osp > (u32)user_stack);
    // back in guest mode: guest registers work again
    u32 g0;
    __asm__ volatile("%0 = g0" : "=r"(g0));
    CHECK_EQ(g0, (u32)user_return);
    CHECK_EQ(last_badva, 0x40000000);   // from the RUSER fault (trap0 leaves BADVA alone)
    finish("user");
    return 0;
}
