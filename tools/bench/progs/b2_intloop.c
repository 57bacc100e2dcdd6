/* b2_intloop: integer loops: xorshift32 stream mixed with multiply-accumulate, popcount and
 * Collatz step counts (32-bit arithmetic, shifts, multiplies, short inner loops).
 * Expected output: mix=0x20534e32 collatz=0x00c82ef9 */
#include "rt.h"
int main(void)
{
    u32 s = 2463534242u, acc = 0, pop = 0;
    for (int i = 0; i < 6000000; i++) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        acc = (acc ^ s ^ (s >> 11)) * 0x01000193u;
        u32 v = s & 0xffffu;
        v = v - ((v >> 1) & 0x5555u);
        v = (v & 0x3333u) + ((v >> 2) & 0x3333u);
        pop += (v + (v >> 4)) & 0x0f0fu;
    }
    u32 steps = 0;
    for (u32 n = 1; n < 120000; n++) {
        u32 x = n;
        while (x != 1) { x = (x & 1) ? 3 * x + 1 : x >> 1; steps++; }
    }
    put_str("mix="); put_hex(acc ^ pop); put_str(" collatz="); put_hex(steps); put_str("\n");
    return 0;
}
