// SPDX-License-Identifier: MIT
// HVM test kernel: the guest MMU (vmnewmap, vmclrmap) and general exceptions. The first
// 16 MiB are mapped VA = PA with 4 MiB L1 entries; VA 0x40000000 uses an L2 table of 4K
// pages (RW, read-only, absent, no-execute), VA 0x80000000 a 16 MiB read-only page and
// VA 0x41000000 a 64K-page table. Checks: translated reads, a page fault with BADVA
// (RPROT), a write-protect fault (WPROT), an execute fault (XPROT), a misaligned load
// (RMAL), an invalid packet (INVI), and that vmclrmap makes a changed PTE take effect.
#include "hvm.h"

#define R (1u << 9)
#define W (1u << 10)
#define X (1u << 11)
#define WB (7u << 6)

static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static u32 l2_64k[64] __attribute__((aligned(256)));
static volatile u32 ev_count, ev_cause, ev_badva, ev_elr, ev_event;

void hvm_event(u32 slot, u32 *rec)
{
    ev_count++;
    ev_event = slot;
    ev_elr = rec[0];
    ev_cause = GSR_CAUSE(rec[1]);
    ev_badva = rec[3];
    u32 ret = *(volatile u32 *)0x00000000;      // return address a bad fetch goes back to
    __asm__ volatile("" : "+r"(ret));
    if (slot == 2 && (ev_cause == 0x11 || ev_cause == 0x15))
        rec[0] = ret;
    else
        rec[0] += 4;                            // skip the one-word faulting packet
}

static void expect_fault(u32 n, u32 cause, u32 badva)
{
    CHECK_EQ(ev_count, n);
    CHECK_EQ(ev_event, 2);
    CHECK_EQ(ev_cause, cause);
    CHECK_EQ(ev_badva, badva);
}

int main(void)
{
    for (u32 i = 0; i < 1024; i++)
        l1[i] = 7;                                        // no translation
    for (u32 i = 0; i < 4; i++)                           // 16 MiB VA = PA in 4 MiB pages
        l1[i] = (i << 22) | R | W | X | WB | 5;
    l1[0x40000000 >> 22] = (u32)l2 | 0;                   // 4K pages
    l1[0x41000000 >> 22] = (u32)l2_64k | 2;               // 64K pages
    for (u32 i = 0; i < 4; i++)                           // 16 MiB page, 4 slots
        l1[(0x80000000 >> 22) + i] = 0x00000000 | R | WB | 6;
    l2[0] = 0x00800000 | R | W | WB;
    l2[1] = 0x00801000 | R | WB;
    l2[2] = 0;                                            // absent
    l2[3] = 0x00803000 | R | W | WB;                      // no X
    l2_64k[1] = 0x00810000 | R | W | WB;
    *(volatile u32 *)0x00800010 = 0x12345678;
    *(volatile u32 *)0x00801020 = 0x9abcdef0;
    *(volatile u32 *)0x00818004 = 0x0badcafe;
    *(volatile u32 *)0x00803000 = 0x7f00c000;             // "nop" word (never runs)
    CHECK_EQ(vmnewmap(l1), 0);
    CHECK_EQ(load(0x40000010), 0x12345678);
    CHECK_EQ(load(0x40001020), 0x9abcdef0);
    CHECK_EQ(load(0x41018004), 0x0badcafe);               // 64K page: 0x41010000 + 0x8004
    CHECK_EQ(load(0x80801020), 0x9abcdef0);               // 16 MiB page maps PA 0
    CHECK_EQ(ev_count, 0);
    // page fault: no translation
    CHECK_EQ(load(0x40002008), 0xdead);
    expect_fault(1, 0x22, 0x40002008);
    // write-protect fault: the write did not happen
    store(0x40001020, 1);
    expect_fault(2, 0x23, 0x40001020);
    CHECK_EQ(load(0x40001020), 0x9abcdef0);
    store(0x80000100, 1);                                 // 16 MiB page is read-only
    expect_fault(3, 0x23, 0x80000100);
    // misaligned load
    load(0x40000002);
    expect_fault(4, 0x20, 0x40000002);
    // execute from a page without X: the handler returns to the caller through r31
    // (saved at physical 0 below)
    {
        register u32 tgt __asm__("r2") = 0x40003000;
        __asm__ volatile("r3 = add(pc, #16)\n"
                         "memw(r4=##0) = r3\n"
                         "callr r2\n"
                         : : "r"(tgt) : "r3", "r4", "r31", "memory");
    }
    expect_fault(5, 0x11, 0x40003000);
    // invalid packet: an all-zero word in our own text is not an instruction... use a
    // word with the parse bits of a packet end and an unused ICLASS 0 encoding
    static u32 bad[2] __attribute__((aligned(8))) = { 0x0000c000, 0 };
    {
        register u32 tgt __asm__("r2") = (u32)bad;
        __asm__ volatile("r3 = add(pc, #16)\n"
                         "memw(r4=##0) = r3\n"
                         "callr r2\n"
                         : : "r"(tgt) : "r3", "r4", "r31", "memory");
    }
    CHECK_EQ(ev_cause, 0x15);
    // vmclrmap: make the read-only page writable; the soft TLB must forget the old entry
    l2[1] |= W;
    CHECK_EQ(vmclrmap(0x40001000, 0x1000), 0);
    u32 before = ev_count;
    store(0x40001020, 0x55);
    CHECK_EQ(ev_count, before);
    CHECK_EQ(*(volatile u32 *)0x00801020, 0x55);
    finish("mmu");
    return 0;
}
