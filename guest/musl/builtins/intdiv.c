// SPDX-License-Identifier: MIT
// Integer division helpers for Hexagon, which has no divide instruction: clang-16
// calls __hexagon_{div,udiv,mod,umod}{si,di}3 for 32- and 64-bit / and %. Restoring
// shift-and-subtract division, starting at the divisor's leading bit lined up with
// the dividend's (cl0 on both), so a quotient of k bits takes k+1 steps; 64-bit
// operands that fit in 32 bits take the 32-bit path. Division by zero (undefined in
// C) gives an all-ones quotient and the dividend as remainder. Signed results follow
// C: the quotient truncates toward zero, the remainder has the dividend's sign.
// Tested against the host's arithmetic by tests/userland/builtins.c.
#include <stdint.h>

static uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem)
{
    if (d == 0) {
        *rem = n;
        return UINT32_MAX;
    }
    if (n < d) {
        *rem = n;
        return 0;
    }
    int shift = __builtin_clz(d) - __builtin_clz(n);
    uint32_t dd = d << shift, q = 0;
    for (int i = 0; i <= shift; i++) {
        q <<= 1;
        if (n >= dd) {
            n -= dd;
            q |= 1;
        }
        dd >>= 1;
    }
    *rem = n;
    return q;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    if ((n >> 32) == 0 && (d >> 32) == 0) {
        uint32_t r;
        uint32_t q = udivmod32((uint32_t)n, (uint32_t)d, &r);
        *rem = r;
        return d == 0 ? UINT64_MAX : q;
    }
    if (d == 0) {
        *rem = n;
        return UINT64_MAX;
    }
    if (n < d) {
        *rem = n;
        return 0;
    }
    int shift = __builtin_clzll(d) - __builtin_clzll(n);
    uint64_t dd = d << shift, q = 0;
    for (int i = 0; i <= shift; i++) {
        q <<= 1;
        if (n >= dd) {
            n -= dd;
            q |= 1;
        }
        dd >>= 1;
    }
    *rem = n;
    return q;
}

static uint32_t abs32(int32_t x) { return x < 0 ? -(uint32_t)x : (uint32_t)x; }
static uint64_t abs64(int64_t x) { return x < 0 ? -(uint64_t)x : (uint64_t)x; }

uint32_t __hexagon_udivsi3(uint32_t n, uint32_t d)
{
    uint32_t r;
    return udivmod32(n, d, &r);
}

uint32_t __hexagon_umodsi3(uint32_t n, uint32_t d)
{
    uint32_t r;
    udivmod32(n, d, &r);
    return r;
}

int32_t __hexagon_divsi3(int32_t n, int32_t d)
{
    uint32_t r, q = udivmod32(abs32(n), abs32(d), &r);
    return (int32_t)((n < 0) != (d < 0) ? -q : q);
}

int32_t __hexagon_modsi3(int32_t n, int32_t d)
{
    uint32_t r;
    udivmod32(abs32(n), abs32(d), &r);
    return (int32_t)(n < 0 ? -r : r);
}

uint64_t __hexagon_udivdi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    return udivmod64(n, d, &r);
}

uint64_t __hexagon_umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}

int64_t __hexagon_divdi3(int64_t n, int64_t d)
{
    uint64_t r, q = udivmod64(abs64(n), abs64(d), &r);
    return (int64_t)((n < 0) != (d < 0) ? -q : q);
}

int64_t __hexagon_moddi3(int64_t n, int64_t d)
{
    uint64_t r;
    udivmod64(abs64(n), abs64(d), &r);
    return (int64_t)(n < 0 ? -r : r);
}
