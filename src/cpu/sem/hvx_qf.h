// SPDX-License-Identifier: MIT
// Lane helpers for the V68 HVX qfloat rows (src/cpu/isa/hvx_fp.isa, `hvxqf`: vadd/vsub/vmpy
// into qf16/qf32, vconv from qf16/qf32 to IEEE hf/sf). Facts: Hexagon V68/V69/V73 HVX
// Programmer's Reference Manual, "HVX floating point" (qf16/qf32 are the unit's internal
// formats, results are normalised and rounded, memory holds IEEE values and a program
// converts with vconv), and the reference model's definition of the format and its
// rounding (Qualcomm's qfloat model as published with QEMU's Hexagon target; facts only):
//   qf32: bits 31:8 a signed mantissa m (24 bits), bits 7:0 a biased exponent e;
//         value = (2m+1) * 2^(e-127-23)  (an implied lowest mantissa bit of 1);
//   qf16: bits 15:5 m (11 bits), bits 4:0 e; value = (2m+1) * 2^(e-15-10).
// Negation is the one's complement of m (exact). There is no infinity, NaN or zero: the
// all-zeros word is the smallest positive value, and an exact zero result is written as 0.
// Each operation computes its exact result V (sum or product) and rounds it relative to an
// exponent x (the product's: the sum of the operand exponents; the sum's: the larger
// operand's normalised exponent, at least the other's): with X = V * 2^(F-x) (F = 23, 10)
//   - |V| >= 2^(x+1) (but V != -2^(x+1)): "overflow of the significand", X is halved
//     and x incremented, and likewise when x is one below the minimum exponent;
//   - X is rounded to the nearest odd integer (a tie, X even, to 4k+1); where neither
//     adjustment applies and x is below the maximum, X may also round to 4k+2, written
//     as 2k+1 with x+1 (boundaries: r <= 1.5 -> 4k+1, r <= 2.5 -> 4k+2, else 4k+3,
//     r = X - 4k in [0,4));
//   - exponents above the maximum saturate (m the largest of its sign, e all ones),
//     below the minimum underflow (m = 0 or -1, e = 0).
// Conversion to IEEE rounds the exact value to nearest even with gradual underflow;
// overflow gives infinity. IEEE hf/sf operands are read as the reference does: sign and
// magnitude, subnormals with the minimum exponent, and no special case for Inf/NaN (an
// exponent field of all ones is an ordinary exponent) -- not confirmed by an oracle.
// Not settled by the PRM text (documented choices): signed rounding for every row (an
// earlier reference rounded the magnitude of IEEE-operand products and negated after),
// IEEE overflow on conversion (the earlier one wrote exponent-255/31 patterns), and the
// pair lane order of the widening rows (even lanes in the low register, as vmpy_sf_hf).
#ifndef HEXSIM_CPU_SEM_HVX_QF_H
#define HEXSIM_CPU_SEM_HVX_QF_H

#include <stdint.h>

// an operand: value m * 2^(exp - frac); exp is the reference model's operand exponent
typedef struct hx_qfn {
    int64_t m;
    int exp, frac;
} hx_qfn;

static inline hx_qfn hx_qf32_in(uint32_t w)
{
    int32_t m = (int32_t)w >> 8;
    return (hx_qfn){2 * (int64_t)m + 1, (int)(w & 0xff) - 127, 23};
}
static inline hx_qfn hx_qf16_in(uint16_t h)
{
    int32_t m = (int16_t)h >> 5;
    return (hx_qfn){2 * (int64_t)m + 1, (int)(h & 0x1f) - 15, 10};
}
static inline hx_qfn hx_sf_in(uint32_t w)
{
    int be = (w >> 23) & 0xff;
    int64_t m = (w & 0x7fffff) | (be ? 0x800000 : 0);
    return (hx_qfn){(w >> 31) ? -m : m, be ? be - 127 : -126, 23};
}
static inline hx_qfn hx_hf_in(uint16_t h)
{
    int be = (h >> 10) & 0x1f;
    int64_t m = (h & 0x3ff) | (be ? 0x400 : 0);
    return (hx_qfn){(h >> 15) ? -m : m, be ? be - 15 : -14, 10};
}

static inline int hx_qf_bits(uint64_t v)
{
    int n = 0;
    while (v) {
        n++;
        v >>= 1;
    }
    return n;
}

// the operand's normalised exponent: exp + floor(log2 |m * 2^-frac|); -(frac+1) for zero
static inline int hx_qf_top(hx_qfn a)
{
    uint64_t mag = a.m < 0 ? (uint64_t)-a.m : (uint64_t)a.m;
    return a.exp + (mag ? hx_qf_bits(mag) - 1 - a.frac : -(a.frac + 1));
}

// floor(m * 2^s); *sticky set when bits are dropped (callers keep the result below 2^40)
static inline int64_t hx_qf_shift(int64_t m, int s, int *sticky)
{
    if (!m)
        return 0;
    if (s >= 0)
        return m * ((int64_t)1 << s);
    if (s <= -62) {
        *sticky = 1;
        return m < 0 ? -1 : 0;
    }
    int64_t d = (int64_t)1 << -s, q = m / d, r = m % d;
    if (r < 0) {
        q--;
        r += d;
    }
    if (r)
        *sticky = 1;
    return q;
}

#define HX_QF_G 4   // guard bits below X's units: enough to place 1.5 and 2.5 exactly

// whether the remainder r (floor, G guard bits; sticky: the value is above it) is at most
// halves/2
static inline int hx_qf_le(int64_t r, int sticky, int halves)
{
    int64_t t = (int64_t)halves << (HX_QF_G - 1);
    return r < t || (r == t && !sticky);
}

// x = floor(V * 2^(F - e + G)), sticky: V above that; returns the qf32 (F 23) or qf16 (F 10)
// encoding of V rounded relative to exponent e
static inline uint32_t hx_qf_round(int64_t x, int sticky, int e, int F)
{
    const int emax = F == 23 ? 128 : 16, emin = F == 23 ? -127 : -15, bias = F == 23 ? 127 : 15;
    const int ebits = F == 23 ? 8 : 5;
    const uint32_t mask = (1u << F) - 1;
    if (x == 0 && !sticky)
        return 0;   // an exact zero
    int neg = x < 0, half = 0, adj;
    int64_t two = (int64_t)1 << (F + 1 + HX_QF_G);
    int ovf = neg ? x < -two : x >= two;
    uint32_t sig;
    if (e >= emax + 1 || (ovf && e == emax)) {
        sig = neg ? 0 : mask;
        e = emax + bias;
    } else if (e <= emin - 2) {
        sig = neg ? mask : 0;
        e = emin + bias;
    } else {
        adj = e == emin - 1 || (ovf && e < emax);
        int mid = !adj && e >= emin && e < emax;
        if (adj)
            x = hx_qf_shift(x, -1, &sticky);
        int unused = 0;
        int64_t k = hx_qf_shift(x, -(HX_QF_G + 2), &unused);
        int64_t r = x - k * ((int64_t)4 << HX_QF_G);   // in [0, 4 << G)
        int64_t n;
        if (mid)
            n = 4 * k + (hx_qf_le(r, sticky, 3) ? 1 : hx_qf_le(r, sticky, 5) ? 2 : 3);
        else
            n = 4 * k + (hx_qf_le(r, sticky, 4) ? 1 : 3);
        half = (n & 3) == 2;
        uint64_t mag = n < 0 ? (uint64_t)-n : (uint64_t)n;
        sig = (uint32_t)(mag >> (half ? 2 : 1)) & mask;
        if (neg)
            sig = ~sig & mask;
        e += bias + adj + half;
    }
    return ((((uint32_t)neg << F) | sig) << ebits) | ((uint32_t)e & ((1u << ebits) - 1));
}

// a + b (sub: a - b) into qf32 (F 23) or qf16 (F 10)
static inline uint32_t hx_qf_add(hx_qfn a, hx_qfn b, int sub, int F)
{
    int e = a.exp > b.exp ? hx_qf_top(a) : hx_qf_top(b);
    int other = a.exp > b.exp ? b.exp : a.exp;
    if (e < other)
        e = other;
    int sticky = 0;
    int64_t x = hx_qf_shift(a.m, a.exp - a.frac + F - e + HX_QF_G, &sticky) +
                hx_qf_shift(sub ? -b.m : b.m, b.exp - b.frac + F - e + HX_QF_G, &sticky);
    return hx_qf_round(x, sticky, e, F);
}

// a * b into qf32 (F 23) or qf16 (F 10)
static inline uint32_t hx_qf_mpy(hx_qfn a, hx_qfn b, int F)
{
    int sticky = 0;
    int64_t x = hx_qf_shift(a.m * b.m, F + HX_QF_G - a.frac - b.frac, &sticky);
    return hx_qf_round(x, sticky, a.exp + b.exp, F);
}

// m * 2^e2 rounded to nearest even into IEEE binary32 (mbits 23, bias 127) or binary16
// (10, 15): gradual underflow, overflow to infinity
static inline uint32_t hx_qf_ieee(int64_t m, int e2, int mbits, int bias)
{
    uint32_t s = m < 0 ? 1u << (mbits == 23 ? 31 : 15) : 0;
    uint64_t mag = m < 0 ? (uint64_t)-m : (uint64_t)m;
    int emaxf = mbits == 23 ? 255 : 31;
    if (!mag)
        return s;
    int len = hx_qf_bits(mag);
    int shift = len - 1 - mbits, sub = 1 - bias - mbits - e2;
    if (shift < sub)
        shift = sub;
    uint64_t q;
    if (shift <= 0)
        q = mag << -shift;
    else if (shift > 63)
        q = 0;
    else {
        uint64_t rem = mag & ((UINT64_C(1) << shift) - 1), halfw = UINT64_C(1) << (shift - 1);
        q = mag >> shift;
        if (rem > halfw || (rem == halfw && (q & 1)))
            q++;
    }
    int qe = e2 + shift;   // value = q * 2^qe
    if (q >> (mbits + 1)) {
        q >>= 1;   // a carry out of rounding (q was 2^(mbits+1))
        qe++;
    }
    if (!(q >> mbits))
        return s | (uint32_t)q;   // subnormal (or zero)
    int field = qe + mbits + bias;
    if (field >= emaxf)
        return s | ((uint32_t)emaxf << mbits);
    return s | ((uint32_t)field << mbits) | ((uint32_t)q & ((1u << mbits) - 1));
}

static inline uint32_t hx_qf32_to_sf(uint32_t w)
{
    hx_qfn a = hx_qf32_in(w);
    return hx_qf_ieee(a.m, a.exp - a.frac, 23, 127);
}
static inline uint16_t hx_qf32_to_hf(uint32_t w)
{
    hx_qfn a = hx_qf32_in(w);
    return (uint16_t)hx_qf_ieee(a.m, a.exp - a.frac, 10, 15);
}
static inline uint16_t hx_qf16_to_hf(uint16_t h)
{
    hx_qfn a = hx_qf16_in(h);
    return (uint16_t)hx_qf_ieee(a.m, a.exp - a.frac, 10, 15);
}

#endif
