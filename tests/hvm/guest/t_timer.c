// SPDX-License-Identifier: MIT
// HVM test kernel: the RTOS timer (0xAB000000: match, count, enable, clear) on L1
// interrupt 3, programmed as Linux's time.c does, and vmwait. A one-shot match of 1000
// sleep-clock ticks (18.75 M pcycles) is waited for with vmwait: the runner limits the run
// to far fewer packets, so the clock must jump instead of spinning. Then clear-on-match
// gives periodic interrupts, each re-armed with globen (the Linux eoi).
#include "hvm.h"

#define TMR ((volatile u32 *)0xAB000000u)
#define PER_TICK 18750u

static volatile u32 n_irq, last_cause, ie_in_handler;

void hvm_event(u32 slot, u32 *rec)
{
    if (slot != 7)
        return;
    n_irq++;
    last_cause = GSR_CAUSE(rec[1]);
    ie_in_handler = (u32)vmgetie();
    if (!(TMR[2] & 2))
        TMR[2] = 0;                  // one-shot: disable, as timer_interrupt() does
    vmintop(GLOBEN, 3, 0);           // eoi
}

int main(void)
{
    CHECK_EQ(map_board(), 0);
    vmintop(LOCEN, 3, 0);
    TMR[3] = 1;
    TMR[3] = 0;
    TMR[0] = 1000;
    TMR[2] = 1;
    u64 t0 = vmgettime();
    CHECK(TMR[1] < 1000);
    vmsetie(1);
    while (n_irq == 0)
        vmwait();
    u64 t1 = vmgettime();
    CHECK_EQ(n_irq, 1);
    CHECK_EQ(last_cause, 3);
    CHECK_EQ(ie_in_handler, 0);
    CHECK(t1 - t0 >= 1000ull * PER_TICK);
    CHECK(t1 - t0 < 1001ull * PER_TICK + 100000);
    CHECK_EQ(TMR[2], 0);
    // vmwait with interrupts disabled returns when the interrupt is pending (Linux's idle)
    vmsetie(0);
    TMR[3] = 1;
    TMR[3] = 0;
    TMR[0] = 20;
    TMR[2] = 1;
    CHECK_EQ(vmwait(), 3);
    CHECK_EQ(n_irq, 1);
    vmsetie(1);                       // delivered now
    CHECK_EQ(n_irq, 2);
    // periodic: clear-on-match
    TMR[3] = 1;
    TMR[3] = 0;
    TMR[0] = 10;
    TMR[2] = 3;
    while (n_irq < 5)
        vmwait();
    CHECK_EQ(n_irq, 5);
    TMR[2] = 0;
    finish("timer");
    return 0;
}
