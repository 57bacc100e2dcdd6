/* b4_div64: 64-bit arithmetic and software division: an LCG in 64 bits, 64-bit multiplies,
 * shifts and compares, and 64- and 32-bit divisions and remainders (Hexagon has no divide
 * instruction: the compiler calls rt.h's __hexagon_udivdi3 and friends).
 * Expected output: q=0x9b187984 r=0xbb0caa6d */
#include "rt.h"
int main(void)
{
    u64 s = 0x9e3779b97f4a7c15ull, qs = 0, rs = 0;
    for (int i = 0; i < 100000; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        u64 d = (s >> 40) | 1;
        u64 n = s ^ (s << 7);
        qs += n / d;
        rs ^= n % d;
        long long sn = (long long)(n >> 3) - (long long)(s >> 2);
        long long sd = (long long)((s >> 33) & 0xffff) - 0x8000;
        if (sd == 0) sd = 7;
        qs ^= (u64)(sn / sd);
        u32 a = (u32)(s >> 16), b = (u32)(s >> 48) | 3u;
        rs += a / b + a % b;
    }
    put_str("q="); put_hex((u32)(qs ^ (qs >> 32))); put_str(" r="); put_hex((u32)(rs ^ (rs >> 32)));
    put_str("\n");
    return 0;
}
