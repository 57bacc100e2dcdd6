// SPDX-License-Identifier: MIT
// HVM conformance (HVM specification VM_Spec.adoc Rev A, section 5.2 note): an event taken
// before the vCPU has event vectors terminates that vCPU, not the virtual machine. Runs
// with two vCPUs and no crt.S (no vmsetvec): vCPU 0 starts vCPU 1, which executes trap0;
// vCPU 1 is terminated, its resources are free again (a second vmstart gets number 1),
// and vCPU 0 goes on to report. hexsim then ends with status 3 (a vCPU was lost).
#include "hvm.h"

static volatile u32 after_trap;
extern u32 stk1_top[];

__asm__(".text\n.globl _start\n_start:\n"
        "  r29 = ##stk0_top\n"
        "  call main\n"
        "  trap1(#19)\n"
        ".bss\n.p2align 3\n.space 4096\nstk0_top:\n.space 4096\n.globl stk1_top\nstk1_top:\n"
        ".text\n");

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot;
    (void)rec;
}

static void doomed(void)
{
    __asm__ volatile("trap0(#9)" ::: "memory");
    after_trap = 1;                                  // never runs
    vmstop();
}

static void quiet(void)
{
    vmstop();
}

int main(void)
{
    CASE("5.2 Event model (note)", "an event before vmsetvec terminates that vCPU; the "
         "others go on and its number can be started again") {
        CHECK_EQ(vmstart(doomed, stk1_top), 1);
        u32 i = 0;
        for (; i < 1000 && vmstart(quiet, stk1_top) != 1; i++)
            vmyield();
        CHECK(i < 1000);
        CHECK_EQ(after_trap, 0);
    }
    finish("spec_novec");
    return 0;
}
