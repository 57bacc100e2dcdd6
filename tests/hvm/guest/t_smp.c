// SPDX-License-Identifier: MIT
// HVM test kernel (--smp 2): vmstart starts vCPU 1 on its own stack with the caller's
// vectors and map, vmvpid tells the vCPUs apart, a second vmstart finds no free vCPU
// (-1), an interrupt with affinity to vCPU 1 (locally enabled there, disabled on vCPU 0)
// posted by vCPU 0 wakes vCPU 1 from vmwait (an IPI), and vmstop ends each vCPU.
#include "hvm.h"

extern char stack1_top[];
static volatile u32 cpu1_id = 99, cpu1_woke, cpu1_irq, cpu1_done;

void hvm_event(u32 slot, u32 *rec)
{
    if (slot == 7 && vmvpid() == 1) {
        cpu1_irq = GSR_CAUSE(rec[1]);
        vmintop(GLOBEN, GSR_CAUSE(rec[1]), 0);
    }
}

static void secondary(void)
{
    cpu1_id = (u32)vmvpid();
    vmintop(LOCEN, 20, 0);
    while (!cpu1_irq) {          // Linux's idle: wait with interrupts off, then take it
        vmwait();
        vmsetie(1);
        vmsetie(0);
    }
    cpu1_woke = 1;
    cpu1_done = 1;
    vmstop();
}

int main(void)
{
    CHECK_EQ(vmstart(secondary, stack1_top), 1);
    CHECK_EQ(vmstart(secondary, stack1_top), -1);     // both vCPUs busy
    while (cpu1_id == 99)
        vmyield();
    CHECK_EQ(cpu1_id, 1);
    vmintop(LOCEN, 20, 0);
    CHECK_EQ(vmintop(AFFINITY, 20, 1), 0);            // off here, on at vCPU 1
    CHECK_EQ(vmintop(STATUS, 20, 0) & 2, 0);
    vmsetie(1);
    CHECK_EQ(vmintop(POST, 20, 0), 0);
    while (!cpu1_done)
        vmyield();
    CHECK_EQ(cpu1_irq, 20);
    CHECK_EQ(cpu1_woke, 1);
    finish("smp");
    return 0;
}
