// SPDX-License-Identifier: MIT
// HVM test kernel: vmintop (nop, globen, globdis, locen, locdis, affinity, get, peek,
// status, post, clear): software-posted interrupts, priority (lower number first),
// masking by local and global enables, auto-disable at delivery, error answers.
#include "hvm.h"

static volatile u32 n_irq, order[8];

void hvm_event(u32 slot, u32 *rec)
{
    if (slot != 7)
        return;
    order[n_irq & 7] = GSR_CAUSE(rec[1]);
    n_irq++;
    vmintop(GLOBEN, GSR_CAUSE(rec[1]), 0);
}

int main(void)
{
    CHECK_EQ(vmintop(NOP, 0, 0), 0);
    CHECK_EQ(vmintop(99, 0, 0), -1);
    CHECK_EQ(vmintop(POST, 40, 0), -1);
    CHECK_EQ(vmintop(AFFINITY, 5, 1), -1);           // one vCPU only
    CHECK_EQ(vmintop(AFFINITY, 5, 0), 0);            // locally enables 5 here
    CHECK_EQ(vmintop(STATUS, 5, 0), 4 | 2);          // global, local
    CHECK_EQ(vmintop(LOCDIS, 5, 0), 0);
    // post while locally disabled: pending, not deliverable
    CHECK_EQ(vmintop(POST, 5, 0), 0);
    CHECK_EQ(vmintop(PEEK, 0, 0), -1);
    CHECK_EQ(vmintop(STATUS, 5, 0), 4 | 1);          // global enable, pending
    CHECK_EQ(vmintop(LOCEN, 5, 0), 0);
    CHECK_EQ(vmintop(STATUS, 5, 0), 4 | 2 | 1);
    CHECK_EQ(vmintop(PEEK, 0, 0), 5);
    CHECK_EQ(vmintop(PEEK, 0, 0), 5);                // peek takes nothing
    CHECK_EQ(vmintop(GET, 0, 0), 5);                 // get accepts: not pending, disabled
    CHECK_EQ(vmintop(STATUS, 5, 0), 2);
    CHECK_EQ(vmintop(GET, 0, 0), -1);
    CHECK_EQ(vmintop(GLOBEN, 5, 0), 0);
    // clear withdraws a posted interrupt
    vmintop(POST, 5, 0);
    CHECK_EQ(vmintop(CLEAR, 5, 0), 0);
    CHECK_EQ(vmintop(PEEK, 0, 0), -1);
    // delivery through the vector, lowest number first
    vmintop(LOCEN, 7, 0);
    vmintop(LOCEN, 9, 0);
    vmintop(POST, 9, 0);
    vmintop(POST, 7, 0);
    CHECK_EQ(n_irq, 0);                               // interrupts still off
    vmsetie(1);
    CHECK_EQ(n_irq, 2);
    CHECK_EQ(order[0], 7);
    CHECK_EQ(order[1], 9);
    // locdis and globdis mask
    vmintop(LOCDIS, 7, 0);
    vmintop(POST, 7, 0);
    CHECK_EQ(n_irq, 2);
    vmintop(GLOBDIS, 9, 0);
    vmintop(POST, 9, 0);
    CHECK_EQ(n_irq, 2);
    vmintop(GLOBEN, 9, 0);
    CHECK_EQ(n_irq, 3);
    CHECK_EQ(order[2], 9);
    vmintop(LOCEN, 7, 0);
    CHECK_EQ(n_irq, 4);
    CHECK_EQ(order[3], 7);
    finish("intop");
    return 0;
}
