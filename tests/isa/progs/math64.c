// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: 64-bit arithmetic (multiply, shifts, compares,
// carries), 32x32->64 products and a 64-bit hash; no division, so the program links without
// compiler helpers.
#include "progs.h"

unsigned long long m64_mul(unsigned long long a, unsigned long long b) { return a * b; }
long long m64_smul(int a, int b) { return (long long)a * b; }
unsigned long long m64_shl(unsigned long long a, int n) { return a << (n & 63); }
long long m64_sar(long long a, int n) { return a >> (n & 63); }
int m64_less(long long a, long long b) { return a < b; }
unsigned long long m64_add3(unsigned long long a, unsigned long long b, unsigned long long c)
{
    return a + b - c;
}

unsigned long long m64_hash(const unsigned char *p, int n)
{
    unsigned long long h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

int m64_main(void)
{
    unsigned char buf[16];
    for (int i = 0; i < 16; i++)
        buf[i] = (unsigned char)(i * 7 + 1);
    unsigned long long h = m64_hash(buf, 16);
    h += m64_mul(h, 0x123456789ULL) + m64_shl(h, 13) + (unsigned long long)m64_sar(-12345, 3);
    h += (unsigned long long)m64_smul(-70000, 80000) + m64_add3(h, 1, 2);
    return (int)(h ^ (h >> 32)) + m64_less(-1, 1);
}
