// SPDX-License-Identifier: MIT
// Code rewritten while compiled blocks go on into it (tests/user/jit_equiv.py): a function in
// an RWX page, { r0 = #N; jumpr r31 } (one duplex word), called from a loop often enough that
// the loop's blocks and the function are compiled and linked to each other; every round a
// store gives it another N, and the calls that follow must see the new value (compiled code,
// links and the jump cache must all go with the old code). Then two such functions on the
// same page called in turn, one rewritten each round. Prints "smc=SUM,SUM2" (245000,185200
// when right) and exits with 0, or 1 if a call saw stale code.
#include "urt.h"

int main(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)argv;
    (void)envp;
    volatile unsigned *code = (volatile unsigned *)sys(222, 0, 4096, 7, 0x22, -1, 0);
    long sum = 0, sum2 = 0;
    int bad = 0;
    for (unsigned round = 0; round < 50; round++) {
        code[0] = 0x48003fc0u | (round << 20);   // { r0 = #round; jumpr r31 }
        for (int i = 0; i < 200; i++) {
            int v = ((int (*)(void))code)();
            bad |= v != (int)round;
            sum += v;
        }
    }
    for (unsigned round = 0; round < 24; round++) {
        code[16] = 0x48003fc0u | ((round * 5 % 64) << 20);
        for (int i = 0; i < 100; i++) {
            int v = ((int (*)(void))(code + 16))() + ((int (*)(void))code)();
            bad |= v != (int)(round * 5 % 64 + 49);
            sum2 += v;
        }
    }
    put_str("smc=");
    put_dec(sum);
    put_str(",");
    put_dec(sum2);
    put_str("\n");
    return bad;
}
