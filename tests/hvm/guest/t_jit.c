// SPDX-License-Identifier: MIT
// HVM test kernel: blocks in system mode (src/hvm/run_jit.c; hvm_test.py runs it with
// --jit-threshold 1, every block compiled at once, with the default and with --no-jit).
// Checks: a load that faults in the middle of a block (the packet before it commits, the
// faulting packet commits nothing, not even its in-place register writes; ELR, BADVA and
// cause name it); code remapped (one virtual page mapped to another physical page after
// vmclrmap, and back); code rewritten through another virtual address of its physical page;
// a block that rewrites its own next packet (the new one runs); code in one page jumping to
// code in the next (compiled blocks go on across the page boundary) when the code there is
// rewritten from the page before (only that page's blocks go stale: hvm_test.py checks that
// the code cache is never flushed) and when the next page is remapped to other code.
#include "hvm.h"

#define R (1u << 9)
#define W (1u << 10)
#define X (1u << 11)
#define WB (7u << 6)
#define RPROT 0x22

static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static u32 page_a[1024] __attribute__((aligned(4096)));
static u32 page_b[1024] __attribute__((aligned(4096)));
static volatile u32 ev_count, ev_cause, ev_badva, ev_elr;

// u64 blk_fault(u32 start, u32 addr): r2 = start + 1 (r3 = 0x55), then a load from addr
// with r2 += 10, then r2 += 100; returns r3:r2. The handler resumes at blk_fault_resume.
u64 blk_fault(u32 start, u32 addr);
extern char blk_fault_at[], blk_fault_resume[];
__asm__(".text\n.p2align 4\n.globl blk_fault\nblk_fault:\n"
        "{ r2 = add(r0,#1); r3 = #0x55 }\n"
        ".globl blk_fault_at\nblk_fault_at:\n"
        "{ r3 = memw(r1+#0); r2 = add(r2,#10) }\n"
        "{ r2 = add(r2,#100) }\n"
        ".globl blk_fault_resume\nblk_fault_resume:\n"
        "{ r1:0 = combine(r3,r2); jumpr r31 }\n");

// u32 smc_self(u32 *slot, u32 word): stores word at slot (its own next packet, r0 = #1)
// and runs on into it.
u32 smc_self(u32 *slot, u32 word);
extern u32 smc_self_slot[];
__asm__(".text\n.p2align 4\n.globl smc_self\nsmc_self:\n"
        "{ memw(r0+#0) = r1 }\n"
        ".globl smc_self_slot\nsmc_self_slot:\n"
        "{ r0 = #1 }\n"
        "{ jumpr r31 }\n");

// xp_caller (u32 xp_caller(u32 n), at the start of a page): r0 += 1, then a jump to xp_callee
// at the start of the next page: r0 += 1, return (n + 2 as built). xp_write_call (u32
// xp_write_call(u32 *slot, u32 word), in xp_caller's page): writes word at slot, then r0 = 0
// and a jump to xp_callee.
u32 xp_caller(u32 n);
u32 xp_write_call(u32 *slot, u32 word);
extern u32 xp_callee[];
__asm__(".text\n.p2align 12\n.globl xp_caller\nxp_caller:\n"
        "{ r0 = add(r0,#1) }\n"
        "{ jump xp_callee }\n"
        ".globl xp_write_call\nxp_write_call:\n"
        "{ memw(r0+#0) = r1 }\n"
        "{ r0 = #0 }\n"
        "{ jump xp_callee }\n"
        ".p2align 12\n.globl xp_callee\nxp_callee:\n"
        "{ r0 = add(r0,#1) }\n"
        "{ jumpr r31 }\n"
        ".p2align 4\n");

#define SET_R0(n) (0x7800c000u | (u32)(n) << 5)   // { r0 = #n } alone in its packet
#define ADD_R0_1 0xb000c020u                       // { r0 = add(r0,#1) }
#define JUMPR_R31 0x529fc000u                      // { jumpr r31 }

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot;
    ev_count++;
    ev_elr = rec[0];
    ev_cause = GSR_CAUSE(rec[1]);
    ev_badva = rec[3];
    rec[0] = (u32)blk_fault_resume;
}

static void code(u32 *page, u32 n)
{
    page[0] = SET_R0(n);
    page[1] = JUMPR_R31;
}

static u32 call(u32 va)
{
    return ((u32(*)(void))(void *)va)();
}

static u32 call1(u32 va, u32 arg)
{
    return ((u32(*)(u32))(void *)va)(arg);
}

int main(void)
{
    for (u32 i = 0; i < 1024; i++)
        l1[i] = 7;
    for (u32 i = 0; i < 4; i++)                           // 16 MiB VA = PA
        l1[i] = (i << 22) | R | W | X | WB | 5;
    l1[0x40000000 >> 22] = (u32)l2 | 0;                   // 4K pages
    for (u32 i = 0; i < 1024; i++)
        l2[i] = 0;                                        // absent
    l2[0] = 0x00800000 | R | W | WB;                      // data
    l2[1] = (u32)page_a | R | W | X | WB;                 // code: A, later B
    l2[2] = (u32)page_a | R | W | WB;                     // A again, for writing
    l2[8] = (u32)xp_caller | R | X | WB;                  // xp_caller's page, and the next
    l2[9] = (u32)xp_callee | R | X | WB;                  // (later page_b)
    *(volatile u32 *)0x00800000 = 0x1234;
    CHECK_EQ(vmnewmap(l1), 0);

    // a fault in the middle of a block, after it ran (and was compiled)
    for (u32 i = 0; i < 100; i++)
        CHECK_EQ(blk_fault(i, 0x40000000), (u64)0x1234 << 32 | (i + 111));
    CHECK_EQ(ev_count, 0);
    CHECK_EQ(blk_fault(7, 0x40003008), (u64)0x55 << 32 | 8);
    CHECK_EQ(ev_count, 1);
    CHECK_EQ(ev_elr, (u32)blk_fault_at);
    CHECK_EQ(ev_badva, 0x40003008);
    CHECK_EQ(ev_cause, RPROT);
    CHECK_EQ(blk_fault(1, 0x40000000), (u64)0x1234 << 32 | 112);   // and on as before

    // code remapped: VA 0x40001000 runs A, then B, then A
    code(page_a, 1);
    code(page_b, 2);
    for (u32 i = 0; i < 100; i++)
        CHECK_EQ(call(0x40001000), 1);
    l2[1] = (u32)page_b | R | W | X | WB;
    CHECK_EQ(vmclrmap(0x40001000, 0x1000), 0);
    for (u32 i = 0; i < 100; i++)
        CHECK_EQ(call(0x40001000), 2);
    l2[1] = (u32)page_a | R | W | X | WB;
    CHECK_EQ(vmclrmap(0x40001000, 0x1000), 0);
    CHECK_EQ(call(0x40001000), 1);

    // code rewritten through another virtual address of its page (VA 0x40002000)
    *(volatile u32 *)0x40002000 = SET_R0(3);
    CHECK_EQ(call(0x40001000), 3);
    CHECK_EQ(call((u32)page_a), 3);                        // and at its own address
    *(volatile u32 *)0x40002000 = SET_R0(4);
    CHECK_EQ(call((u32)page_a), 4);

    // a block rewriting its own next packet
    CHECK_EQ(smc_self_slot[0], SET_R0(1));
    for (u32 i = 0; i < 50; i++)
        CHECK_EQ(smc_self(smc_self_slot, SET_R0(1)), 1);
    CHECK_EQ(smc_self(smc_self_slot, SET_R0(5)), 5);
    CHECK_EQ(smc_self(smc_self_slot, SET_R0(6)), 6);

    // across a page boundary: the next page's code rewritten from the page before it
    CHECK_EQ((u32)xp_callee - (u32)xp_caller, 0x1000);
    for (u32 i = 0; i < 100; i++)
        CHECK_EQ(xp_caller(i), i + 2);
    CHECK_EQ(xp_write_call(xp_callee, SET_R0(7)), 7);
    for (u32 i = 0; i < 50; i++)
        CHECK_EQ(xp_caller(i), 7);
    CHECK_EQ(xp_write_call(xp_callee, SET_R0(8)), 8);
    CHECK_EQ(xp_caller(1), 8);
    CHECK_EQ(xp_write_call(xp_callee, ADD_R0_1), 1);
    for (u32 i = 0; i < 50; i++)
        CHECK_EQ(xp_caller(i), i + 2);

    // ... and the next page remapped: VA 0x40008000 runs xp_caller, 0x40009000 xp_callee,
    // then page_b's code, then xp_callee again
    for (u32 i = 0; i < 100; i++)
        CHECK_EQ(call1(0x40008000, i), i + 2);
    code(page_b, 9);
    l2[9] = (u32)page_b | R | X | WB;
    CHECK_EQ(vmclrmap(0x40009000, 0x1000), 0);
    for (u32 i = 0; i < 50; i++)
        CHECK_EQ(call1(0x40008000, i), 9);
    l2[9] = (u32)xp_callee | R | X | WB;
    CHECK_EQ(vmclrmap(0x40009000, 0x1000), 0);
    for (u32 i = 0; i < 50; i++)
        CHECK_EQ(call1(0x40008000, i), i + 2);
    CHECK_EQ(ev_count, 1);
    finish("jit");
    return 0;
}
