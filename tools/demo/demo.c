// SPDX-License-Identifier: MIT
// A tiny freestanding Hexagon guest program used by tools/run.sh to show the parts of
// hexsim that exist: it is compiled with clang-16 for hexagon-unknown-linux-musl (v68)
// to an object file, which hexsim-objdump then disassembles. The functions are chosen
// to produce typical packets: a counted loop (hardware loop), loads and stores, a
// compare-and-branch, a call, and a 64-bit multiply-accumulate.
#include <stdint.h>

// Sums n words; the compiler turns the loop into loop0/endloop0.
int32_t demo_sum(const int32_t *v, int32_t n)
{
    int32_t s = 0;

    for (int32_t i = 0; i < n; i++)
        s += v[i];
    return s;
}

// Iterative Fibonacci, with a conditional early return.
uint32_t demo_fib(uint32_t n)
{
    uint32_t a = 0, b = 1;

    if (n < 2)
        return n;
    while (--n != 0) {
        uint32_t t = a + b;
        a = b;
        b = t;
    }
    return b;
}

// Dot product with 64-bit accumulation (multiply-accumulate into a register pair).
int64_t demo_dot(const int32_t *x, const int32_t *y, int32_t n)
{
    int64_t acc = 0;

    for (int32_t i = 0; i < n; i++)
        acc += (int64_t)x[i] * y[i];
    return acc;
}

// Reverses a byte buffer in place; a call from a second function keeps a frame.
static void demo_reverse(uint8_t *p, uint32_t len)
{
    for (uint32_t i = 0, j = len - 1; i < j; i++, j--) {
        uint8_t t = p[i];
        p[i] = p[j];
        p[j] = t;
    }
}

uint32_t demo_checksum(uint8_t *p, uint32_t len)
{
    uint32_t h = 2166136261u; // FNV-1a offset basis

    if (len > 1)
        demo_reverse(p, len);
    for (uint32_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}
