// SPDX-License-Identifier: MIT
// HVM test kernel: code written at run time, in a packet whose two words straddle a page
// boundary (regression, issue 13 audit: the decoded-packet cache used to key such a packet
// on its first page but mark only the second as code, so rewriting the first word kept
// running the stale decode). Encodings from llvm-mc-16 -mattr=-duplex:
// { r0 = #1; jumpr r31 } = 78004020 529fc000, { r0 = #2; ... } = 78004040 529fc000.
#include "hvm.h"

static u32 code[2048] __attribute__((aligned(4096)));

void hvm_event(u32 slot, u32 *rec)
{
    (void)slot;
    (void)rec;
    CHECK_EQ(1, 0);   // no event is expected
    finish("smc");
}

static u32 run(void)
{
    u32 (*fn)(void) = (u32 (*)(void))(void *)&code[1023];
    return fn();
}

int main(void)
{
    code[1023] = 0x78004020;   // last word of the first page: r0 = #1
    code[1024] = 0x529fc000;   // first word of the next page: jumpr r31 (ends the packet)
    CHECK_EQ(run(), 1);
    CHECK_EQ(run(), 1);
    code[1023] = 0x78004040;   // r0 = #2
    CHECK_EQ(run(), 2);
    code[1024] = 0x529fc000;   // a store into the second page only
    code[1023] = 0x78004060;   // r0 = #3
    CHECK_EQ(run(), 3);
    finish("smc");
    return 0;
}
