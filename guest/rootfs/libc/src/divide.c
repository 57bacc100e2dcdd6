// SPDX-License-Identifier: MIT
// Integer and floating-point division helpers. Hexagon has no divide instruction; clang-16
// calls __hexagon_{div,udiv,mod,umod}{si,di}3 for integer / and %, and __hexagon_div{sf,df}3
// for float and double /. Integers: shift-and-subtract, skipping the leading zero bits.
// Doubles: long division of the 53-bit significands, round to nearest even; subnormal
// results flush to zero (enough for this userland, which barely uses floating point).
#include <stdint.h>

static uint32_t udivmod32(uint32_t n, uint32_t d, uint32_t *rem)
{
    if (d == 0) {
        if (rem)
            *rem = n;
        return 0xffffffffu;
    }
    uint32_t q = 0, r = 0;
    if (n >= d) {
        int start = 31 - __builtin_clz(n);
        for (int i = start; i >= 0; i--) {
            r = (r << 1) | ((n >> i) & 1);
            if (r >= d) {
                r -= d;
                q |= 1u << i;
            }
        }
    } else {
        r = n;
    }
    if (rem)
        *rem = r;
    return q;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    if ((n >> 32) == 0 && (d >> 32) == 0) {
        uint32_t r32;
        uint32_t q = udivmod32((uint32_t)n, (uint32_t)d, &r32);
        if (rem)
            *rem = r32;
        return d == 0 ? ~0ull : q;
    }
    if (d == 0) {
        if (rem)
            *rem = n;
        return ~0ull;
    }
    uint64_t q = 0, r = 0;
    if (n >= d) {
        int start = 63 - __builtin_clzll(n);
        for (int i = start; i >= 0; i--) {
            r = (r << 1) | ((n >> i) & 1);
            if (r >= d) {
                r -= d;
                q |= 1ull << i;
            }
        }
    } else {
        r = n;
    }
    if (rem)
        *rem = r;
    return q;
}

uint32_t __hexagon_udivsi3(uint32_t n, uint32_t d) { return udivmod32(n, d, 0); }
uint32_t __hexagon_umodsi3(uint32_t n, uint32_t d)
{
    uint32_t r;
    udivmod32(n, d, &r);
    return r;
}
int32_t __hexagon_divsi3(int32_t n, int32_t d)
{
    uint32_t un = n < 0 ? -(uint32_t)n : (uint32_t)n;
    uint32_t ud = d < 0 ? -(uint32_t)d : (uint32_t)d;
    uint32_t q = udivmod32(un, ud, 0);
    return (int32_t)((n < 0) != (d < 0) ? -q : q);
}
int32_t __hexagon_modsi3(int32_t n, int32_t d)
{
    uint32_t un = n < 0 ? -(uint32_t)n : (uint32_t)n;
    uint32_t ud = d < 0 ? -(uint32_t)d : (uint32_t)d;
    uint32_t r;
    udivmod32(un, ud, &r);
    return (int32_t)(n < 0 ? -r : r);
}
uint64_t __hexagon_udivdi3(uint64_t n, uint64_t d) { return udivmod64(n, d, 0); }
uint64_t __hexagon_umoddi3(uint64_t n, uint64_t d)
{
    uint64_t r;
    udivmod64(n, d, &r);
    return r;
}
int64_t __hexagon_divdi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
    uint64_t q = udivmod64(un, ud, 0);
    return (int64_t)((n < 0) != (d < 0) ? -q : q);
}
int64_t __hexagon_moddi3(int64_t n, int64_t d)
{
    uint64_t un = n < 0 ? -(uint64_t)n : (uint64_t)n;
    uint64_t ud = d < 0 ? -(uint64_t)d : (uint64_t)d;
    uint64_t r;
    udivmod64(un, ud, &r);
    return (int64_t)(n < 0 ? -r : r);
}

static double bits2d(uint64_t b)
{
    union { uint64_t u; double d; } v = { .u = b };
    return v.d;
}
static uint64_t d2bits(double d)
{
    union { uint64_t u; double d; } v = { .d = d };
    return v.u;
}

double __hexagon_divdf3(double a, double b)
{
    uint64_t ua = d2bits(a), ub = d2bits(b);
    uint64_t sign = (ua ^ ub) & (1ull << 63);
    int ea = (int)((ua >> 52) & 0x7ff), eb = (int)((ub >> 52) & 0x7ff);
    uint64_t ma = ua & ((1ull << 52) - 1), mb = ub & ((1ull << 52) - 1);
    const uint64_t qnan = 0x7ff8000000000000ull, inf = 0x7ff0000000000000ull;
    if (ea == 0x7ff && ma)
        return a;
    if (eb == 0x7ff && mb)
        return b;
    if (ea == 0x7ff)
        return bits2d(eb == 0x7ff ? qnan : sign | inf);
    if (eb == 0x7ff)
        return bits2d(sign);
    // Normalise subnormal inputs.
    if (ea == 0) {
        if (ma == 0)
            return bits2d(eb == 0 && mb == 0 ? qnan : sign);
        while (!(ma & (1ull << 52))) {
            ma <<= 1;
            ea--;
        }
        ea++;
    } else {
        ma |= 1ull << 52;
    }
    if (eb == 0) {
        if (mb == 0)
            return bits2d(sign | inf);
        while (!(mb & (1ull << 52))) {
            mb <<= 1;
            eb--;
        }
        eb++;
    } else {
        mb |= 1ull << 52;
    }
    int e = ea - eb + 1023;
    if (ma < mb) {
        ma <<= 1;
        e--;
    }
    // ma/mb is in [1, 2): produce 53 quotient bits plus a guard bit, then the sticky remainder.
    uint64_t q = 0, r = ma;
    for (int i = 0; i < 54; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1;
        }
        r <<= 1;
    }
    int guard = (int)(q & 1);
    q >>= 1;
    if (guard && (r != 0 || (q & 1)))
        q++;
    if (q >> 53) {
        q >>= 1;
        e++;
    }
    if (e >= 0x7ff)
        return bits2d(sign | inf);
    if (e <= 0)
        return bits2d(sign);
    return bits2d(sign | ((uint64_t)e << 52) | (q & ((1ull << 52) - 1)));
}

float __hexagon_divsf3(float a, float b) { return (float)__hexagon_divdf3((double)a, (double)b); }
