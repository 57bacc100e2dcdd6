// SPDX-License-Identifier: MIT
// HVM conformance, memory (HVM specification VM_Spec.adoc Rev A, chapters 2.2.1, 3.3.1, 4,
// 7.3, 7.5, 8, 9 and App. A VMNEWMAP, VMCLRMAP, VMCACHE): the boot map (RAM at VA = PA,
// nothing else), the reserved top 16 MiB, page sizes and permissions, LPN bits below the
// page size ignored, PTEs to logical pages with neither RAM nor a device, an L2 table
// outside RAM (machine check), vmnewmap's translation types and refusals, vmclrmap, and
// vmcache's store-permission check of its range. The runner gives 64 MiB of RAM.
#include "hvm.h"

#define RAM_END 0x04000000u
#define UART3 0xA9C00000u

static volatile u32 n_ev, ev_slot, ev_cause, ev_elr, ev_badva;
static volatile u32 fixup;
static volatile u32 mc_fix;          // on a machine check: the L1 slot to repair
static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));
static u32 l2b[1024] __attribute__((aligned(4096)));
static u32 l1b[1024] __attribute__((aligned(4096)));

void hvm_event(u32 slot, u32 *rec)
{
    n_ev++;
    ev_slot = slot;
    ev_elr = rec[0];
    ev_cause = GSR_CAUSE(rec[1]);
    ev_badva = rec[3];
    if (slot == 1 && mc_fix) {            // machine check: repair the table and retry
        l1[mc_fix] = (u32)l2b | 0;
        mc_fix = 0;
        vmclrmap(0, 0xffff0000u);
        return;
    }
    rec[0] = fixup ? fixup : rec[0] + 4;  // skip the one-word faulting packet
    fixup = 0;
}

static void exec_at(u32 a)
{
    register u32 t __asm__("r2") = a;
    __asm__ volatile("r3 = add(pc, #16)\n memw(r4=##fixup) = r3\n callr r2\n"
                     : : "r"(t) : "r3", "r4", "r31", "memory");
}

static void expect(u32 n0, u32 slot, u32 cause, u32 badva)
{
    CHECK_EQ(n_ev, n0 + 1);
    CHECK_EQ(ev_slot, slot);
    CHECK_EQ(ev_cause, cause);
    CHECK_EQ(ev_badva, badva);
}

static u32 jumpr_r31 = 0x529fc000;     // "jumpr r31": a one-packet function

int main(void)
{
    u32 n0;
    CASE("4.5 Initial memory map", "before vmnewmap RAM is mapped at VA = PA, readable, "
         "writable and executable") {
        n0 = n_ev;
        store(RAM_END - 4, 0x5a5a5a5a);
        CHECK_EQ(load(RAM_END - 4), 0x5a5a5a5a);
        *(volatile u32 *)(RAM_END - 0x1000) = jumpr_r31;
        ((void (*)(void))(RAM_END - 0x1000))();
        CHECK_EQ(n_ev, n0);
    }
    CASE("4.5/9.2 Initial memory map", "nothing else is mapped: past RAM and a device "
         "address are protection violations (0x22 load, 0x23 store, 0x11 fetch)") {
        n0 = n_ev;
        CHECK_EQ(load(RAM_END), 0xdead);
        expect(n0, 2, 0x22, RAM_END);
        n0 = n_ev;
        store(UART3, 1);
        expect(n0, 2, 0x23, UART3);
        n0 = n_ev;
        exec_at(RAM_END + 0x1000);
        CHECK_EQ(n_ev, n0 + 1);
        CHECK_EQ(ev_cause, 0x11);
        CHECK_EQ(ev_elr, RAM_END + 0x1000);
    }
    CASE("3.3.1 Memory addressing", "guest loads, stores and fetches at 0xff000000-0xffffffff "
         "are protection violations (boot map)") {
        n0 = n_ev;
        load(0xff000000);
        expect(n0, 2, 0x22, 0xff000000);
        n0 = n_ev;
        store(0xfffffffc, 1);
        expect(n0, 2, 0x23, 0xfffffffc);
        n0 = n_ev;
        exec_at(0xfff00000);
        CHECK_EQ(ev_cause, 0x11);
    }

    // page tables: 64 MiB VA = PA in 4 MiB pages, tests at 0x40000000 (4K) and above
    map_low(l1, PTE_U);
    l1[0x40000000 >> 22] = (u32)l2 | 0;
    l2[0] = 0x00800000 | PTE_R | PTE_W | PTE_C(7);
    l2[1] = 0x00801000 | PTE_R | PTE_C(7);                         // read-only
    l2[2] = 0x00802000 | PTE_C(7);                                 // no R, W, X
    l2[3] = 0x20000000 | PTE_R | PTE_W | PTE_C(7);                 // past RAM: nothing
    l2[4] = 0x90000000 | PTE_R | PTE_W | PTE_C(4);                 // no device there
    l2[5] = UART3 | PTE_R | PTE_W | PTE_C(4);                      // UART3
    l2[6] = 0x00806000 | 7 | PTE_R | PTE_C(7);                     // L2 size bits ignored
    l1[0x44000000 >> 22] = 0x00c00000 | 0x3ff000 | PTE_R | PTE_C(7) | PDE_4M;  // LPN low bits
    l1[0x3fc] = 0x00000000 | PTE_R | PTE_W | PTE_X | PTE_C(7) | PDE_4M;      // reserved VA
    *(volatile u32 *)0x00800010 = 0x11111111;
    *(volatile u32 *)0x00806010 = 0x66666666;
    *(volatile u32 *)0x00c00020 = 0xc0c0c0c0;

    CASE("A vmnewmap", "unsupported translation types (0: linear list, 2) and a misaligned "
         "or out-of-RAM table answer a negative code and change nothing") {
        n0 = n_ev;
        CHECK((s32)TRAP1_2(11, l1, 0) < 0);
        CHECK((s32)TRAP1_2(11, l1, 2) < 0);
        CHECK((s32)TRAP1_2(11, (u32)l1 + 2, 1) < 0);
        CHECK((s32)TRAP1_2(11, 0x20000000, 1) < 0);
        CHECK((s32)TRAP1_2(11, RAM_END - 0x800, 1) < 0);
        CHECK_EQ(load(0x00800010), 0x11111111);             // still the boot map
        CHECK_EQ(n_ev, n0);
    }
    CASE("9.5/A vmnewmap", "answers 0; the next instruction runs with the new map") {
        CHECK_EQ(vmnewmap(l1), 0);
        CHECK_EQ(load(0x40000010), 0x11111111);
    }
    CASE("9.4.2 Page table entries", "R, W and X each allow only their access: store to "
         "read-only 0x23, no RWX at all is a fault (0x22), fetch without X 0x11") {
        n0 = n_ev;
        store(0x40001000, 1);
        expect(n0, 2, 0x23, 0x40001000);
        n0 = n_ev;
        load(0x40002000);
        expect(n0, 2, 0x22, 0x40002000);
        n0 = n_ev;
        exec_at(0x40000000);
        CHECK_EQ(ev_cause, 0x11);
        CHECK_EQ(ev_elr, 0x40000000);
    }
    CASE("9.4 Virtual page table entries", "an L1 entry with S = 111 is a protection "
         "violation") {
        n0 = n_ev;
        load(0x50000000);
        expect(n0, 2, 0x22, 0x50000000);
    }
    CASE("9.4.2 Page table entries", "the size field of an L2 entry is ignored; LPN bits "
         "below the page size are ignored") {
        CHECK_EQ(load(0x40006010), 0x66666666);
        CHECK_EQ(load(0x44000020), 0xc0c0c0c0);
    }
    CASE("9.2 Underlying logical memory", "a PTE to a logical page with neither RAM nor a "
         "device: protection violation on access, GBADVA the address") {
        n0 = n_ev;
        load(0x40003008);
        expect(n0, 2, 0x22, 0x40003008);
        n0 = n_ev;
        store(0x40004000, 1);
        expect(n0, 2, 0x23, 0x40004000);
        n0 = n_ev;
        load(0x40004004);
        expect(n0, 2, 0x22, 0x40004004);
    }
    CASE("9.2 Underlying logical memory", "a PTE to a device reaches it (UART3 status "
         "register reads, no event)") {
        n0 = n_ev;
        u32 sr = load(0x40005008);
        CHECK(sr != 0xdead);
        CHECK_EQ(n_ev, n0);
    }
    CASE("2.2.1/3.3.1 Memory addressing", "the top 16 MiB stay the VMM's even when the "
         "guest's L1 table maps them") {
        n0 = n_ev;
        load(0xff000010);
        expect(n0, 2, 0x22, 0xff000010);
        n0 = n_ev;
        store(0xff3ffffc, 1);
        expect(n0, 2, 0x23, 0xff3ffffc);
    }
    CASE("7.5/A vmnewmap", "an L2 table outside RAM is an invalid page table found at run "
         "time: machine check (event 1) cause 0x03, GBADVA the address; after a repair "
         "and vmrte the access completes") {
        l1[0x48000000 >> 22] = 0x20000000 | 0;                    // L2 table not in RAM
        l2b[0] = 0x00800000 | PTE_R | PTE_C(7);
        vmclrmap(0x48000000, 0x400000);
        mc_fix = 0x48000000 >> 22;
        n0 = n_ev;
        u32 v = load(0x48000010);
        CHECK_EQ(n_ev, n0 + 1);
        CHECK_EQ(ev_slot, 1);
        CHECK_EQ(ev_cause, 0x03);
        CHECK_EQ(ev_badva, 0x48000010);
        CHECK_EQ(v, 0x11111111);
    }
    CASE("9.6/A vmclrmap", "after a PTE changes, vmclrmap of its range makes the change "
         "take effect") {
        CHECK_EQ(load(0x40001000 + 0x10), 0);
        l2[1] = 0x00800000 | PTE_R | PTE_C(7);
        CHECK_EQ(vmclrmap(0x40001000, 0x1000), 0);
        CHECK_EQ(load(0x40001010), 0x11111111);
    }
    CASE("A vmcache (Exceptions)", "a range operation over a page without write permission: "
         "store protection violation at that address, GELR at the vmcache") {
        static const u32 ops[3] = { 3, 4, 5 };
        for (u32 i = 0; i < 3; i++) {
            n0 = n_ev;
            vmcache(ops[i], 0x40000f00, 0x200);
            expect(n0, 2, 0x23, 0x40001000);
        }
        u32 pc;
        __asm__ volatile("r0 = #5\n r1 = ##0x40001ffc\n r2 = #8\n %0 = pc\n trap1(#13)"
                         : "=r"(pc) : : "r0", "r1", "r2", "memory");
        CHECK_EQ(ev_elr, pc + 4);
        CHECK_EQ(ev_badva, 0x40001ffc);
        n0 = n_ev;
        CHECK_EQ(vmcache(5, 0x40000000, 0x1000), 0);           // writable: fine
        CHECK_EQ(vmcache(3, 0x40001000, 0), 0);                // empty range
        CHECK_EQ(n_ev, n0);
        l1[0xfefff000 >> 22] = 0x00000000 | PTE_R | PTE_W | PTE_C(7) | PDE_4M;
        vmclrmap(0xfec00000, 0x400000);
        vmcache(3, 0xfefff000, 0x2000);                        // into the reserved 16 MiB
        expect(n0, 2, 0x23, 0xff000000);
        n0 = n_ev;
        vmcache(4, 0x40002000, 4);                             // no RWX at all
        expect(n0, 2, 0x23, 0x40002000);
        n0 = n_ev;
        vmcache(5, 0x00000000, 0x40000000);                    // 16 4 MiB pages, then none
        expect(n0, 2, 0x23, RAM_END);
        n0 = n_ev;
        CHECK_EQ(vmcache(0, 0x40001000, 0x1000), 0);           // whole-cache ops: no range
        CHECK_EQ(n_ev, n0);
    }
    CASE("9.5 Setting new memory maps", "a second vmnewmap replaces the whole map") {
        for (u32 i = 0; i < 1024; i++)
            l1b[i] = PDE_INVALID;
        for (u32 i = 0; i < 16; i++)
            l1b[i] = (i << 22) | PTE_R | PTE_W | PTE_X | PTE_C(7) | PDE_4M;
        CHECK_EQ(vmnewmap(l1b), 0);
        n0 = n_ev;
        load(0x40000010);
        expect(n0, 2, 0x22, 0x40000010);
    }
    finish("spec_mmu");
    return 0;
}
