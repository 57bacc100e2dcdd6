// SPDX-License-Identifier: MIT
// HVM test kernel: the simple trap1 calls and angel calls. vmversion, vmvpid, vmsetvec
// (crt.S), vmsetie/vmgetie, vmsetregs/vmgetregs, vmcache (every op, and a bad one),
// vmgettime/vmsettime, vmyield, vmclrmap, an undefined trap1 number (-1), trap0 from guest
// mode with a non-angel number (event 5), and the angel calls 0x43, 0x03, 0x04, 0x05, 0x15
// (the runner passes --append "hvm-basic").
#include "hvm.h"

static volatile u32 ev_count, ev_slot, ev_gsr, ev_elr;

void hvm_event(u32 slot, u32 *rec)
{
    ev_count++;
    ev_slot = slot;
    ev_elr = rec[0];
    ev_gsr = rec[1];
}

static int streq(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return *a == *b;
}

int main(void)
{
    CHECK_EQ(vmversion(), 0x700);
    CHECK_EQ(vmvpid(), 0);
    // interrupts start disabled; vmsetie answers the previous state
    CHECK_EQ(vmgetie(), 0);
    CHECK_EQ(vmsetie(1), 0);
    CHECK_EQ(vmgetie(), 1);
    CHECK_EQ(vmsetie(0), 1);
    CHECK_EQ(vmgetie(), 0);
    // event registers round trip
    u32 rec[4];
    vmsetregs(0x11111110, 0x22222222, 0x33333330, 0x44444444);
    vmgetregs(rec);
    CHECK_EQ(rec[0], 0x11111110);
    CHECK_EQ(rec[1], 0x22222222);
    CHECK_EQ(rec[2], 0x33333330);
    CHECK_EQ(rec[3], 0x44444444);
    // guest registers G0-G3 are the same record
    u32 g0, g3;
    __asm__ volatile("%0 = g0\n%1 = g3" : "=r"(g0), "=r"(g3));
    CHECK_EQ(g0, 0x11111110);
    CHECK_EQ(g3, 0x44444444);
    // vmcache: ickill .. idsync answer 0, reserved ops -1
    for (u32 op = 0; op <= 5; op++)
        CHECK_EQ(vmcache(op, 0x100000, 64), 0);
    CHECK_EQ(vmcache(6, 0, 0), -1);
    CHECK_EQ(vmcache(7, 0, 0), -1);
    CHECK_EQ(vmclrmap(0, 0xffff0000u), 0);
    // time is monotonic and settable
    u64 t0 = vmgettime();
    u64 t1 = vmgettime();
    CHECK(t1 > t0);
    CHECK_EQ(vmsettime(0x100000000ull), 0);
    u64 t2 = vmgettime();
    CHECK(t2 >= 0x100000000ull && t2 < 0x100010000ull);
    vmyield();
    // undefined trap1 numbers answer -1
    CHECK_EQ(TRAP1_1(9, 0), -1);
    CHECK_EQ(TRAP1_1(30, 0), -1);
    // trap0 from guest mode with a non-angel number is event 5 with the number as cause
    __asm__ volatile("trap0(#7)" ::: "memory");
    CHECK_EQ(ev_count, 1);
    CHECK_EQ(ev_slot, 5);
    CHECK_EQ(GSR_RESERVED(ev_gsr), 0);
    CHECK_EQ(GSR_CAUSE(ev_gsr), 7);
    CHECK_EQ(ev_gsr & GSR_UM, 0);
    // angel output: 0x43 char, 0x03 char by pointer, 0x04 string, 0x05 write
    angel(0x43, 'A');
    static const char b = 'B';
    angel(0x03, (u32)&b);
    angel(0x04, (u32)"CD");
    static const char msg[] = "EF\n";
    static u32 blk[3];
    blk[0] = 1;
    blk[1] = (u32)msg;
    blk[2] = 3;
    CHECK_EQ(angel(0x05, (u32)blk), 0);
    // angel command line
    static char cmd[128];
    static u32 cb[2];
    cb[0] = (u32)cmd;
    cb[1] = sizeof(cmd);
    CHECK_EQ(angel(0x15, (u32)cb), 0);
    CHECK(streq(cmd, "hvm-basic console=ttyMSM2,115200n8 mem=64M"));
    CHECK_EQ(angel(0x99, 0), -1);
    finish("basic");
    return 0;
}
