// SPDX-License-Identifier: MIT
// Helpers for the ALU32, XTYPE ALU and predicate instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_ALU_H
#define HEXSIM_CPU_SEM_ALU_H

#include <stdbool.h>
#include <stdint.h>

#include "sem.h"

// ---- XTYPE ALU (src/cpu/isa/xtype_alu.isa); PRM section 11.10.1

// lane i of a 64-bit value as a signed or unsigned integer of `bits` bits
static inline int64_t hx_xa_lane(uint64_t v, unsigned bits, unsigned i, bool sgn)
{
    uint64_t e = v >> (bits * i);
    return sgn ? hx_sext(e, bits) : (int64_t)hx_zext(e, bits);
}

// v with lane i (`bits` wide) replaced by the low bits of e
static inline uint64_t hx_xa_ins(uint64_t v, unsigned bits, unsigned i, uint64_t e)
{
    uint64_t m = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    unsigned s = bits * i;
    return (v & ~(m << s)) | (e & m) << s;
}

// predicate of a lane-wise comparison: each lane of `bits` bits gives bits/8 predicate bits
static inline uint8_t hx_xa_pmask(unsigned bits, unsigned i)
{
    unsigned n = bits / 8;
    return (uint8_t)(((1u << n) - 1) << (n * i));
}

// 2^(n-1), the rounding constant of a right shift by n (0 for n == 0)
static inline int64_t hx_xa_half(unsigned n)
{
    return n ? (int64_t)1 << (n - 1) : 0;
}

// convergent rounding of the bit below bit 1 (PRM: "crnd" of a two-lane average): a value
// whose two low bits are 11 rounds up, everything else is truncated by the following >>1
static inline int64_t hx_xa_crnd(int64_t v)
{
    return ((uint64_t)v & 3) == 3 ? v + 1 : v;
}

// cround(Rs, n): Rs >> n with convergent (round-half-to-even) rounding, in 64 bits
static inline uint32_t hx_xa_cround(uint32_t rs, unsigned n)
{
    int64_t v = (int32_t)rs;
    if (n == 0)
        return rs;
    uint64_t below = (uint64_t)v & (((uint64_t)1 << (n - 1)) - 1);
    if (below == 0)   // exactly representable or a tie: add half only when the kept LSB is 1
        v += (int64_t)(((uint64_t)v >> n & 1) << (n - 1));
    else
        v += hx_xa_half(n);
    return (uint32_t)(v >> n);
}

// cround(Rss, n) (V67t audio, A7_croundd): the 64-bit form of cround, n = 0..63; the
// rounding addition is done in 128 bits, so nothing wraps
static inline uint64_t hx_xa_croundd(uint64_t rss, unsigned n)
{
    if (n == 0)
        return rss;
    __int128 v = (int64_t)rss;
    if ((rss & (((uint64_t)1 << (n - 1)) - 1)) == 0)   // exact or a tie: to even
        v += (__int128)(rss >> n & 1) << (n - 1);
    else
        v += (__int128)1 << (n - 1);
    return (uint64_t)(int64_t)(v >> n);
}

// clip(Rs, #u5) (V67t audio): Rs limited to [-2^u, 2^u - 1]; no USR flag
static inline uint32_t hx_xa_clip(uint32_t rs, unsigned u)
{
    int64_t v = (int32_t)rs, hi = ((int64_t)1 << u) - 1, lo = -((int64_t)1 << u);
    return (uint32_t)(v > hi ? hi : v < lo ? lo : v);
}

// round(Rs, n) / round(Rs, n):sat: add 2^(n-1) in 64 bits, (saturate to 32 bits,) shift
static inline uint32_t hx_xa_round(struct hx_exec *x, uint32_t rs, unsigned n, bool sat)
{
    int64_t v = (int64_t)(int32_t)rs + hx_xa_half(n);
    if (sat)
        v = hx_sat32(x, v);
    return (uint32_t)(v >> n);
}

// vrmax*/vrmin*: Rxx = (addr, best) over the lanes of Rss, starting from Rxx
static inline uint64_t hx_xa_vrminmax(uint64_t xx, uint64_t ss, uint32_t u, unsigned bits,
                                      bool sgn, bool max)
{
    int64_t best = hx_xa_lane(xx, bits, 0, sgn);
    uint32_t addr = (uint32_t)(xx >> 32);
    unsigned shift = bits == 16 ? 1 : 2;
    for (unsigned i = 0; i < 64 / bits; i++) {
        int64_t e = hx_xa_lane(ss, bits, i, sgn);
        if (max ? best < e : best > e) {
            best = e;
            addr = u | i << shift;
        }
    }
    return (uint64_t)addr << 32 | (uint32_t)best;
}

// lane-wise min/max of two vectors of `bits`-bit lanes
static inline uint64_t hx_xa_vminmax(uint64_t tt, uint64_t ss, unsigned bits, bool sgn, bool max)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 64 / bits; i++) {
        int64_t a = hx_xa_lane(tt, bits, i, sgn), b = hx_xa_lane(ss, bits, i, sgn);
        r = hx_xa_ins(r, bits, i, (uint64_t)((a > b) == max ? a : b));
    }
    return r;
}

// 64-bit add with carry in and out (add(Rss,Rtt,Px):carry; sub uses ~Rtt)
static inline uint64_t hx_xa_addc(uint64_t a, uint64_t b, uint8_t *p)
{
    uint64_t cin = *p & 1;
    uint64_t s = a + b;
    bool c = s < a;
    uint64_t r = s + cin;
    c = c || r < s;
    *p = hx_pb(c);
    return r;
}

// tlbmatch(Rss, Rt): the TLB entry in Rss (hi word: valid bit 31, VPN/ASID; lo word: page
// size as the count of trailing zeros, at most 6) matches the VA/ASID in Rt
static inline bool hx_xa_tlbmatch(uint64_t ss, uint32_t rt)
{
    uint32_t lo = (uint32_t)ss, hi = (uint32_t)(ss >> 32);
    unsigned size = lo ? (unsigned)__builtin_ctz(lo) : 32;
    if (size > 6)
        size = 6;
    uint32_t mask = 0x07ffffffu & (0xffffffffu << (2 * size));
    return (hi >> 31) && (hi & mask) == (rt & mask);
}

#endif
