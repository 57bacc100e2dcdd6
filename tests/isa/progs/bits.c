// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: bit manipulation (population count, leading and
// trailing zeros, rotates, byte swaps, bit fields, masks and parity), builtins included.
#include "progs.h"

struct flags { unsigned a : 3, b : 5, c : 1, d : 7, e : 16; };

int b_popcount(unsigned v) { return __builtin_popcount(v); }
int b_clz(unsigned v) { return v ? __builtin_clz(v) : 32; }
int b_ctz64(unsigned long long v) { return v ? __builtin_ctzll(v) : 64; }
unsigned b_rotl(unsigned v, int n) { return (v << (n & 31)) | (v >> ((32 - n) & 31)); }
unsigned b_bswap(unsigned v) { return __builtin_bswap32(v); }
unsigned long long b_bswap64(unsigned long long v) { return __builtin_bswap64(v); }
int b_parity(unsigned v) { return __builtin_parity(v); }
unsigned b_extract(unsigned v, int lo, int n) { return (v >> lo) & ((1u << n) - 1); }
unsigned b_insert(unsigned v, unsigned f, int lo) { return (v & ~(0xffu << lo)) | (f & 0xff) << lo; }

unsigned b_fields(struct flags *f)
{
    f->b += 3;
    f->d ^= 0x55;
    f->c = !f->c;
    return f->a + f->b + f->c + f->d + f->e;
}

unsigned b_reverse(unsigned v)
{
    unsigned r = 0;
    for (int i = 0; i < 32; i++, v >>= 1)
        r = (r << 1) | (v & 1);
    return r;
}

int bits_main(void)
{
    struct flags f = { 5, 17, 1, 99, 4242 };
    unsigned v = 0xdeadbeef;
    return b_popcount(v) + b_clz(v >> 7) + b_ctz64(0x100000000ULL) + (int)b_rotl(v, 5) +
           (int)b_bswap(v) + (int)b_bswap64(v) + b_parity(v) + (int)b_extract(v, 4, 9) +
           (int)b_insert(v, 0x12, 8) + (int)b_fields(&f) + (int)b_reverse(v);
}
