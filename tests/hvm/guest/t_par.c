// SPDX-License-Identifier: MIT
// HVM test kernel (--smp 2): parallel work in guest time. vCPU 0 times a loop of ALU work alone (its
// vmgettime clock), then starts vCPU 1 with the same loop and times both together. The loop
// calls vmsetie every iteration, which ends a time slice early in the run loop (interrupt
// state changed) without stopping the vCPU. With every vCPU a core of its own (the timing
// model's default, core_threads 1) both finish in about the time of one: "parallel"; with
// --timing-param core_threads=2 they take turns on one core and need about twice as long:
// "shared" (hvm_test.py checks which one the case expects).
#include "hvm.h"

extern char stack1_top[];
static volatile u32 sink, done1;
static volatile u64 end1;

static void work(void)
{
    u32 x = 0;
    for (u32 i = 0; i < 1000; i++) {
        for (u32 j = 0; j < 30; j++)
            x = ((x << 1) ^ (x >> 3)) + j;
        vmsetie(0);
    }
    sink = x;
}

static void secondary(void)
{
    work();
    end1 = vmgettime();
    done1 = 1;
    vmstop();
}

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot;
    (void)rec;
}

int main(void)
{
    u64 t0 = vmgettime();
    work();
    u64 alone = vmgettime() - t0;
    t0 = vmgettime();
    CHECK_EQ(vmstart(secondary, stack1_top), 1);
    work();
    u64 end0 = vmgettime();
    while (!done1)
        vmyield();
    u64 both = (end0 > end1 ? end0 : end1) - t0;
    puts_("one vCPU: ");
    puthex((u32)alone);
    puts_(" pcycles, two: ");
    puthex((u32)both);
    puts_(both * 4 < alone * 5 ? " pcycles: parallel\n" : both * 4 > alone * 7 ?
          " pcycles: shared\n" : " pcycles: neither\n");
    finish("par");
    return 0;
}
