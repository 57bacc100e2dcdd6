// SPDX-License-Identifier: MIT
// HVM conformance, the trap1 calls one vCPU makes (HVM specification VM_Spec.adoc Rev A,
// App. A and its summary table, App. B, chapters 4, 6, 8, 10): each call's inputs, its
// outputs, the registers it must leave alone (r0-r5 are loaded with known values around
// the trap1 and compared), its side effects and its error answers. vmstart, vmstop, vmwait
// with an interrupt from another vCPU and affinity are in t_spec_vcpu.c. Runs with one vCPU
// and with three (the others stay off: nothing here may depend on their number).
#include "hvm.h"

static u32 in[6] __attribute__((aligned(8)));
static u32 out[6] __attribute__((aligned(8)));
static volatile u32 n_ev, ev_slot, ev_cause;

void hvm_event(u32 slot, u32 *rec)
{
    n_ev++;
    ev_slot = slot;
    ev_cause = GSR_CAUSE(rec[1]);
}

static void set_in(u32 r0, u32 r1, u32 r2, u32 r3)
{
    in[0] = r0;
    in[1] = r1;
    in[2] = r2;
    in[3] = r3;
    in[4] = 0x44444444;
    in[5] = 0x55555555;
}

// registers from..5 as they went in
static int kept_from(u32 from)
{
    int ok = 1;
    for (u32 i = from; i < 6; i++)
        ok &= out[i] == in[i];
    return ok;
}

int main(void)
{
    CASE("4.2/6.6 Initial state", "a vCPU starts in guest mode with interrupts disabled") {
        CHECK_EQ(vmgetie(), 0);                      // a trap1 answered: guest mode
    }
    CASE("A vmversion, App. B", "answers 0x700, the version of this spec, whatever is "
         "requested; r1-r5 unchanged") {
        static const u32 req[4] = { 0x700, 0x800, 0, 0xffffffff };
        for (u32 i = 0; i < 4; i++) {
            set_in(req[i], 0x11111111, 0x22222222, 0x33333333);
            TRAP1_REGS(0, in, out);
            CHECK_EQ(out[0], 0x700);
            CHECK(kept_from(1));
        }
    }
    CASE("A summary: calls of version 0x700 only", "trap1 numbers the spec does not define "
         "(6-9, 12, 23-31: H2's 0x800 calls too) answer -1 and change nothing else") {
        set_in(0, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(6, in, out);
        CHECK_EQ(out[0], -1);
        CHECK(kept_from(1));
        TRAP1_REGS(9, in, out);
        CHECK_EQ(out[0], -1);
        TRAP1_REGS(12, in, out);
        CHECK_EQ(out[0], -1);
        TRAP1_REGS(23, in, out);
        CHECK_EQ(out[0], -1);
        TRAP1_REGS(24, in, out);
        CHECK_EQ(out[0], -1);
        TRAP1_REGS(26, in, out);
        CHECK_EQ(out[0], -1);
        TRAP1_REGS(31, in, out);
        CHECK_EQ(out[0], -1);
        CHECK(kept_from(1));
    }
    CASE("A vmsetvec", "answers 0; r1-r5 unchanged; a misaligned table is refused (-1) "
         "and the old one stays") {
        set_in((u32)vectors, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(2, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
        set_in((u32)vectors + 2, 0, 0, 0);
        TRAP1_REGS(2, in, out);
        CHECK_EQ(out[0], -1);
        u32 n0 = n_ev;
        __asm__ volatile("trap0(#3)" ::: "memory");
        CHECK_EQ(n_ev, n0 + 1);
        CHECK_EQ(ev_slot, 5);
    }
    CASE("A vmsetie", "1 or any odd value enables, 0 or any even value disables; answers the "
         "previous state; r1-r5 unchanged") {
        set_in(3, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(3, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
        CHECK_EQ(vmgetie(), 1);
        set_in(0xfffffffe, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(3, in, out);
        CHECK_EQ(out[0], 1);
        CHECK_EQ(vmgetie(), 0);
    }
    CASE("A vmgetie", "answers the state in bit 0; r1-r5 unchanged") {
        set_in(0x77, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(4, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
    }
    CASE("A vmintop", "nop answers 0, an unknown operation fails; r1-r5 unchanged") {
        set_in(NOP, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(5, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
        set_in(11, 3, 0, 0x33333333);
        TRAP1_REGS(5, in, out);
        CHECK_EQ(out[0], -1);
        CHECK(kept_from(1));
    }
    CASE("A vmintop", "operations 1-5 and 9-10 answer non-zero for an interrupt number "
         "outside 0..31, STATUS -1") {
        static const u32 ops[7] = { GLOBEN, GLOBDIS, LOCEN, LOCDIS, AFFINITY, POST, CLEAR };
        for (u32 i = 0; i < 7; i++)
            CHECK(vmintop(ops[i], 32, 0) != 0);
        CHECK(vmintop(LOCEN, 0xffffffff, 0) != 0);
        CHECK_EQ(vmintop(STATUS, 32, 0), -1);
    }
    CASE("A vmintop STATUS", "bit 0 pending, bit 1 local enable, bit 2 global enable") {
        CHECK_EQ(vmintop(STATUS, 17, 0), 4);                 // global only
        CHECK_EQ(vmintop(LOCEN, 17, 0), 0);
        CHECK_EQ(vmintop(STATUS, 17, 0), 4 | 2);
        CHECK_EQ(vmintop(GLOBDIS, 17, 0), 0);
        CHECK_EQ(vmintop(STATUS, 17, 0), 2);
        CHECK_EQ(vmintop(POST, 17, 0), 0);
        CHECK_EQ(vmintop(STATUS, 17, 0), 2 | 1);
        CHECK_EQ(vmintop(LOCDIS, 17, 0), 0);
        CHECK_EQ(vmintop(STATUS, 17, 0), 1);
        CHECK_EQ(vmintop(CLEAR, 17, 0), 0);
        CHECK_EQ(vmintop(STATUS, 17, 0), 0);
        CHECK_EQ(vmintop(GLOBEN, 17, 0), 0);
    }
    CASE("A vmintop PEEK/GET, 6.5", "PEEK answers the highest-priority pending, enabled "
         "interrupt and takes nothing; GET takes it (pending cleared, globally disabled); "
         "-1 when none") {
        CHECK_EQ(vmintop(PEEK, 0, 0), -1);
        CHECK_EQ(vmintop(GET, 0, 0), -1);
        vmintop(LOCEN, 21, 0);
        vmintop(LOCEN, 18, 0);
        vmintop(POST, 21, 0);
        vmintop(POST, 18, 0);
        vmintop(POST, 19, 0);                                // not locally enabled
        CHECK_EQ(vmintop(PEEK, 0, 0), 18);
        CHECK_EQ(vmintop(PEEK, 0, 0), 18);
        CHECK_EQ(vmintop(GET, 0, 0), 18);                    // H2's answer: the number
        CHECK_EQ(vmintop(STATUS, 18, 0), 2);
        CHECK_EQ(vmintop(GET, 0, 0), 21);
        CHECK_EQ(vmintop(GET, 0, 0), -1);
        CHECK_EQ(vmintop(STATUS, 19, 0), 4 | 1);
        vmintop(CLEAR, 19, 0);
        vmintop(GLOBEN, 18, 0);
        vmintop(GLOBEN, 21, 0);
        vmintop(LOCDIS, 18, 0);
        vmintop(LOCDIS, 21, 0);
    }
    CASE("A vmintop POST/CLEAR", "POST makes an interrupt pending, CLEAR withdraws it "
         "without taking it") {
        vmintop(LOCEN, 22, 0);
        CHECK_EQ(vmintop(POST, 22, 0), 0);
        CHECK_EQ(vmintop(PEEK, 0, 0), 22);
        CHECK_EQ(vmintop(CLEAR, 22, 0), 0);
        CHECK_EQ(vmintop(PEEK, 0, 0), -1);
        CHECK_EQ(vmintop(STATUS, 22, 0), 4 | 2);             // still enabled both ways
        vmintop(LOCDIS, 22, 0);
    }
    CASE("A vmclrmap", "answers 0; r1-r5 unchanged; a range past the end of the address "
         "space answers -1") {
        set_in(0x1000, 0x2000, 0x22222222, 0x33333333);
        TRAP1_REGS(10, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
        CHECK_EQ(vmclrmap(0, 0xffff0000u), 0);               // what Linux flushes all with
        CHECK_EQ(vmclrmap(0xfffff000u, 0x2000), -1);
    }
    CASE("A vmcache", "operations 0-5 answer 0; r1-r5 unchanged") {
        for (u32 op = 0; op <= 5; op++) {
            set_in(op, 0x00200000, 0x100, 0x33333333);
            TRAP1_REGS(13, in, out);
            CHECK_EQ(out[0], 0);
            CHECK(kept_from(1));
        }
    }
    CASE("A vmcache, 8.2", "reserved operations are no-ops answering -1 (H2's answer)") {
        static const u32 ops[3] = { 6, 7, 0xffffffff };
        for (u32 i = 0; i < 3; i++) {
            set_in(ops[i], 0xff000000, 0x1000, 0x33333333);  // the range is not looked at
            u32 n0 = n_ev;
            TRAP1_REGS(13, in, out);
            CHECK_EQ(out[0], -1);
            CHECK(kept_from(1));
            CHECK_EQ(n_ev, n0);
        }
    }
    CASE("A vmgettime, 10.2", "a 64-bit time in r1:0 that goes forward; r2-r5 unchanged") {
        set_in(0, 0, 0x22222222, 0x33333333);
        TRAP1_REGS(14, in, out);
        u64 t0 = (u64)out[1] << 32 | out[0];
        CHECK(kept_from(2));
        TRAP1_REGS(14, in, out);
        u64 t1 = (u64)out[1] << 32 | out[0];
        CHECK(t1 > t0);
    }
    CASE("A vmsettime, 10.2", "sets the time from r1:0 (the next vmgettime follows it); no "
         "register changes") {
        set_in(0x89abcdef, 0x00000123, 0x22222222, 0x33333333);
        TRAP1_REGS(15, in, out);
        CHECK(kept_from(0));
        u64 t = vmgettime();
        CHECK(t >= 0x12389abcdefull && t < 0x12389abcdefull + 100000);
    }
    CASE("A vmwait, 10.3", "with interrupts disabled and an enabled interrupt pending, "
         "vmwait resumes at the next instruction with its number in r0, not taking it; "
         "r1-r5 unchanged") {
        vmintop(LOCEN, 25, 0);
        vmintop(POST, 25, 0);
        set_in(0x10101010, 0x11111111, 0x22222222, 0x33333333);
        u32 n0 = n_ev;
        TRAP1_REGS(16, in, out);
        CHECK_EQ(out[0], 25);
        CHECK(kept_from(1));
        CHECK_EQ(n_ev, n0);
        CHECK_EQ(vmintop(STATUS, 25, 0), 4 | 2 | 1);        // still pending
        vmintop(CLEAR, 25, 0);
        vmintop(LOCDIS, 25, 0);
    }
    CASE("A vmyield, 10.3", "no register changes") {
        set_in(0x10101010, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(17, in, out);
        CHECK(kept_from(0));
    }
    CASE("A vmvpid, 10.4", "the first vCPU is 0; r1-r5 unchanged") {
        set_in(0x10101010, 0x11111111, 0x22222222, 0x33333333);
        TRAP1_REGS(20, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
    }
    CASE("A vmsetregs, 5.3", "r0-r3 become G0-G3 (GELR, GSR, GOSP, GBADVA); no register "
         "changes") {
        set_in(0x10101010, 0x40000007, 0x22222222, 0x33333333);
        TRAP1_REGS(21, in, out);
        CHECK(kept_from(0));
        u32 g0, g1, g2, g3;
        __asm__ volatile("%0 = g0\n %1 = g1\n %2 = g2\n %3 = g3"
                         : "=r"(g0), "=r"(g1), "=r"(g2), "=r"(g3));
        CHECK_EQ(g0, 0x10101010);
        CHECK_EQ(g1, 0x40000007);
        CHECK_EQ(g2, 0x22222222);
        CHECK_EQ(g3, 0x33333333);
    }
    CASE("A vmgetregs, 5.3", "r0-r3 = G0-G3; r4-r5 unchanged") {
        vmsetregs(0xa0a0a0a0, 0x80000001, 0xc0c0c0c0, 0xd0d0d0d0);
        set_in(0, 0, 0, 0);
        TRAP1_REGS(22, in, out);
        CHECK_EQ(out[0], 0xa0a0a0a0);
        CHECK_EQ(out[1], 0x80000001);
        CHECK_EQ(out[2], 0xc0c0c0c0);
        CHECK_EQ(out[3], 0xd0d0d0d0);
        CHECK(kept_from(4));
    }
    CASE("A vmnewmap", "answers 0 for page tables (type 1); r1-r5 unchanged") {
        CHECK_EQ(map_board(), 0);
        set_in((u32)board_l1, 1, 0x22222222, 0x33333333);
        TRAP1_REGS(11, in, out);
        CHECK_EQ(out[0], 0);
        CHECK(kept_from(1));
    }
    finish("spec_calls");
    return 0;
}
