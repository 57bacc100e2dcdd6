// SPDX-License-Identifier: MIT
// Helpers for the XTYPE shift, bit-field and permute instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual, sections "XTYPE/SHIFT", "XTYPE/BIT",
// "XTYPE/PERM" and the behaviour notation of section 1.5. Register shift amounts are the
// low 7 bits of Rt taken as a signed number; a negative amount shifts the other way. The
// shift itself is always done on a 64-bit value (32-bit sources sign- or zero-extended
// first), so amounts up to 64 are meaningful and have to be handled explicitly in C.
// This header is included by sem_lib.h after its saturation helpers.
#ifndef HEXSIM_CPU_SEM_SHIFT_H
#define HEXSIM_CPU_SEM_SHIFT_H

#include <stdbool.h>
#include <stdint.h>

#include "sem.h"

// ---- shifts of a 64-bit value by any non-negative amount
static inline uint64_t hx_shl64(uint64_t v, unsigned n) { return n >= 64 ? 0 : v << n; }
static inline uint64_t hx_lsr64(uint64_t v, unsigned n) { return n >= 64 ? 0 : v >> n; }
static inline uint64_t hx_asr64(uint64_t v, unsigned n)
{
    // arithmetic: the sign bit fills the vacated positions
    uint64_t fill = (v >> 63) ? ~0ull : 0;
    if (n >= 64)
        return fill;
    if (n == 0)
        return v;
    return (v >> n) | (fill << (64 - n));
}
static inline uint32_t hx_asr32(uint32_t v, unsigned n)
{
    return (uint32_t)hx_asr64((uint64_t)(int64_t)(int32_t)v, n);
}
static inline uint32_t hx_rol32(uint32_t v, unsigned n)
{
    n &= 31;
    return n ? (v << n) | (v >> (32 - n)) : v;
}
static inline uint64_t hx_rol64(uint64_t v, unsigned n)
{
    n &= 63;
    return n ? (v << n) | (v >> (64 - n)) : v;
}

// The shift amount of a register shift: Rt[6:0] as a signed number, -64..63.
static inline int hx_shamt(uint32_t rt) { return (int)hx_sext(rt, 7); }

// Bidirectional shift of a 64-bit value (already sign- or zero-extended from its lane):
// `left` > 0 shifts left, < 0 shifts right, arithmetically when `arith`.
static inline uint64_t hx_shift(uint64_t v, int left, bool arith)
{
    if (left >= 0)
        return hx_shl64(v, (unsigned)left);
    return arith ? hx_asr64(v, (unsigned)-left) : hx_lsr64(v, (unsigned)-left);
}
// The four register shifts on a 64-bit value (32-bit sources: extend first).
static inline uint64_t hx_asr_r(int64_t v, int sh) { return hx_shift((uint64_t)v, -sh, true); }
static inline uint64_t hx_asl_r(int64_t v, int sh) { return hx_shift((uint64_t)v, sh, true); }
static inline uint64_t hx_lsr_r(uint64_t v, int sh) { return hx_shift(v, -sh, false); }
static inline uint64_t hx_lsl_r(uint64_t v, int sh) { return hx_shift(v, sh, false); }

// Lane-wise shift of the 16- or 32-bit lanes of v (each lane extended to 64 bits first).
static inline uint64_t hx_vshift(uint64_t v, unsigned bits, int left, bool arith)
{
    uint64_t r = 0, m = (1ull << bits) - 1;
    for (unsigned i = 0; i < 64; i += bits) {
        uint64_t lane = (v >> i) & m;
        if (arith)
            lane = (uint64_t)hx_sext(lane, bits);
        r |= (hx_shift(lane, left, arith) & m) << i;
    }
    return r;
}

// sat32(v * 2^n) for n >= 0, setting USR:OVF when it saturates (asl ...:sat)
static inline uint32_t hx_asl_sat32(struct hx_exec *x, int32_t v, unsigned n)
{
    if (v == 0)
        return 0;
    if (n >= 32)
        return (uint32_t)hx_sat32(x, v < 0 ? INT64_MIN : INT64_MAX);
    return (uint32_t)hx_sat32(x, (int64_t)((uint64_t)(int64_t)v << n));
}
// Rd = asl(Rs,Rt):sat / asr(Rs,Rt):sat
static inline uint32_t hx_asl_r_sat(struct hx_exec *x, uint32_t rs, int sh)
{
    if (sh < 0)
        return hx_asr32(rs, (unsigned)-sh);
    return hx_asl_sat32(x, (int32_t)rs, (unsigned)sh);
}

// ---- bit fields
// sign / zero extension from n bits, 0 when n is 0 (PRM sxt/zxt)
static inline uint64_t hx_sxtn(uint64_t v, unsigned n) { return n ? (uint64_t)hx_sext(v, n) : 0; }
static inline uint64_t hx_zxtn(uint64_t v, unsigned n) { return n ? hx_zext(v, n) : 0; }
// a mask of the low n bits, n 0..64
static inline uint64_t hx_lowmask(unsigned n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }
// dst with bits off..off+w-1 replaced by the low w bits of v (bits past 63 dropped)
static inline uint64_t hx_deposit(uint64_t dst, unsigned off, unsigned w, uint64_t v)
{
    uint64_t m = hx_shl64(hx_lowmask(w), off);
    return (dst & ~m) | (hx_shl64(v, off) & m);
}
// Rtt of the register insert/extract forms: width Rtt.w[1][5:0], offset sxt7(Rtt.w[0])
static inline unsigned hx_fwidth(uint64_t rtt) { return (unsigned)(rtt >> 32) & 63; }
static inline int hx_foffset(uint64_t rtt) { return (int)hx_sext(rtt, 7); }

// tableidx{b,h,w,d}: extract `w` bits at offset `off` (signed) of rs, insert them at bit k of rx
static inline uint32_t hx_tableidx(uint32_t rx, uint32_t rs, unsigned w, int off, unsigned k)
{
    uint64_t field = hx_zxtn(hx_lsr_r(rs, off), w);
    return (uint32_t)hx_deposit(rx, k, w, field);
}

// ---- counts
static inline unsigned hx_clz32(uint32_t v) { return v ? (unsigned)__builtin_clz(v) : 32; }
static inline unsigned hx_clz64(uint64_t v) { return v ? (unsigned)__builtin_clzll(v) : 64; }
static inline unsigned hx_ctz32(uint32_t v) { return v ? (unsigned)__builtin_ctz(v) : 32; }
static inline unsigned hx_ctz64(uint64_t v) { return v ? (unsigned)__builtin_ctzll(v) : 64; }
static inline unsigned hx_popcount64(uint64_t v) { return (unsigned)__builtin_popcountll(v); }
// leading sign bits: max(cl0, cl1)
static inline unsigned hx_clb32(uint32_t v)
{
    unsigned a = hx_clz32(v), b = hx_clz32(~v);
    return a > b ? a : b;
}
static inline unsigned hx_clb64(uint64_t v)
{
    unsigned a = hx_clz64(v), b = hx_clz64(~v);
    return a > b ? a : b;
}
static inline uint32_t hx_brev32(uint32_t v)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 32; i++)
        r |= ((v >> i) & 1u) << (31 - i);
    return r;
}
static inline uint64_t hx_brev64(uint64_t v)
{
    return (uint64_t)hx_brev32((uint32_t)v) << 32 | hx_brev32((uint32_t)(v >> 32));
}

// interleave: result bit 2i is bit i of the low word, bit 2i+1 bit i of the high word
static inline uint64_t hx_interleave(uint64_t v)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++) {
        r |= ((v >> i) & 1) << (2 * i);
        r |= ((v >> (32 + i)) & 1) << (2 * i + 1);
    }
    return r;
}
// deinterleave: even bits to the low word, odd bits to the high word
static inline uint64_t hx_deinterleave(uint64_t v)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 32; i++) {
        r |= ((v >> (2 * i)) & 1) << i;
        r |= ((v >> (2 * i + 1)) & 1) << (32 + i);
    }
    return r;
}

// ---- lanes: put a value into a lane of a 64-bit result
static inline uint64_t hx_seth(uint64_t d, unsigned i, uint64_t v)
{
    return (d & ~(0xffffull << (16 * i))) | ((v & 0xffff) << (16 * i));
}
static inline uint64_t hx_setb(uint64_t d, unsigned i, uint64_t v)
{
    return (d & ~(0xffull << (8 * i))) | ((v & 0xff) << (8 * i));
}
static inline uint64_t hx_setw(uint64_t d, unsigned i, uint64_t v)
{
    return (d & ~(0xffffffffull << (32 * i))) | ((v & 0xffffffff) << (32 * i));
}
// halfwords 0 and 2 (the low halves of the two words) packed into one word
static inline uint32_t hx_pack_lo_halves(uint64_t v)
{
    return (uint32_t)(v & 0xffff) | (uint32_t)((v >> 32) & 0xffff) << 16;
}

// ---- complex rotations
// vcrotate: rotate the complex halfword pair (re = half 2k, im = half 2k+1) by c (0: *1,
// 1: *-j, 2: *j, 3: *-1), negations saturated
static inline uint32_t hx_crot_h(struct hx_exec *x, uint32_t v, unsigned c)
{
    int32_t re = hx_h(v, 0), im = hx_h(v, 1);
    int32_t nre, nim;
    switch (c & 3) {
    case 0: nre = re; nim = im; break;
    case 1: nre = im; nim = hx_sath(x, -(int64_t)re); break;
    case 2: nre = hx_sath(x, -(int64_t)im); nim = re; break;
    default: nre = hx_sath(x, -(int64_t)re); nim = hx_sath(x, -(int64_t)im); break;
    }
    return ((uint32_t)nre & 0xffff) | ((uint32_t)nim & 0xffff) << 16;
}
// vrcrotate: sum of the four complex byte pairs of rss, each rotated by two bits of ctl;
// returns the real sum in the low word and the imaginary sum in the high word
static inline uint64_t hx_vrcrotate(uint64_t rss, unsigned ctl)
{
    int32_t sr = 0, si = 0;
    for (unsigned i = 0; i < 4; i++, ctl >>= 2) {
        int32_t re = hx_b(rss, 2 * i), im = hx_b(rss, 2 * i + 1);
        switch (ctl & 3) {
        case 0: sr += re; si += im; break;
        case 1: sr += im; si -= re; break;
        case 2: sr -= im; si += re; break;
        default: sr -= re; si -= im; break;
        }
    }
    return (uint64_t)(uint32_t)sr | (uint64_t)(uint32_t)si << 32;
}

// ---- CABAC decode (decbin). The tables are the H.264 arithmetic decoding engine's
// (ITU-T H.264 section 9.3.3.2: rangeTabLPS, transIdxMPS, transIdxLPS).
static const uint8_t hx_cabac_lps_range[64][4] = {
    {128, 176, 208, 240}, {128, 167, 197, 227}, {128, 158, 187, 216}, {123, 150, 178, 205},
    {116, 142, 169, 195}, {111, 135, 160, 185}, {105, 128, 152, 175}, {100, 122, 144, 166},
    {95, 116, 137, 158},  {90, 110, 130, 150},  {85, 104, 123, 142},  {81, 99, 117, 135},
    {77, 94, 111, 128},   {73, 89, 105, 122},   {69, 85, 100, 116},   {66, 80, 95, 110},
    {62, 76, 90, 104},    {59, 72, 86, 99},     {56, 69, 81, 94},     {53, 65, 77, 89},
    {51, 62, 73, 85},     {48, 59, 69, 80},     {46, 56, 66, 76},     {43, 53, 63, 72},
    {41, 50, 59, 69},     {39, 48, 56, 65},     {37, 45, 54, 62},     {35, 43, 51, 59},
    {33, 41, 48, 56},     {32, 39, 46, 53},     {30, 37, 43, 50},     {29, 35, 41, 48},
    {27, 33, 39, 45},     {26, 31, 37, 43},     {24, 30, 35, 41},     {23, 28, 33, 39},
    {22, 27, 32, 37},     {21, 26, 30, 35},     {20, 24, 29, 33},     {19, 23, 27, 31},
    {18, 22, 26, 30},     {17, 21, 25, 28},     {16, 20, 23, 27},     {15, 19, 22, 25},
    {14, 18, 21, 24},     {14, 17, 20, 23},     {13, 16, 19, 22},     {12, 15, 18, 21},
    {12, 14, 17, 20},     {11, 14, 16, 19},     {11, 13, 15, 18},     {10, 12, 15, 17},
    {10, 12, 14, 16},     {9, 11, 13, 15},      {9, 11, 12, 14},      {8, 10, 12, 14},
    {8, 9, 11, 13},       {7, 9, 11, 12},       {7, 9, 10, 12},       {7, 8, 10, 11},
    {6, 8, 9, 11},        {6, 7, 9, 10},        {6, 7, 8, 9},         {2, 2, 2, 2},
};
static const uint8_t hx_cabac_next_lps[64] = {
    0,  0,  1,  2,  2,  4,  4,  5,  6,  7,  8,  9,  9,  11, 11, 12,
    13, 13, 15, 15, 16, 16, 18, 18, 19, 19, 21, 21, 22, 22, 23, 24,
    24, 25, 26, 26, 27, 27, 28, 29, 29, 30, 30, 30, 31, 32, 32, 33,
    33, 33, 34, 34, 35, 35, 35, 36, 36, 36, 37, 37, 37, 38, 38, 63,
};
// transIdxMPS: the next state, saturating at 62 (63 stays 63)
static inline unsigned hx_cabac_next_mps(unsigned s) { return s >= 62 ? (s == 63 ? 63 : 62) : s + 1; }

// Rdd = decbin(Rss,Rtt): Rss = {offset (w1), range (w0)}; Rtt.w1[5:0] state, Rtt.w1[8]
// valMPS, Rtt.w0[4:0] bit position. Writes the decoded bin to P0 (0 or 1).
static inline uint64_t hx_decbin(struct hx_exec *x, uint64_t rss, uint64_t rtt)
{
    uint32_t state = (uint32_t)(rtt >> 32) & 63;
    uint32_t mps = (uint32_t)(rtt >> 40) & 1;
    uint32_t bitpos = (uint32_t)rtt & 31;
    uint32_t range = (uint32_t)rss << bitpos;
    uint32_t offset = (uint32_t)(rss >> 32) << bitpos;
    uint32_t lps = (uint32_t)hx_cabac_lps_range[state][(range >> 29) & 3] << 23;
    uint32_t rmps = (range & 0xff800000u) - lps;
    uint32_t lo, st, bit, r;
    if (offset < rmps) {
        st = hx_cabac_next_mps(state);
        bit = mps;
        r = rmps;
        lo = offset;
        hx_wp(x, 0, (uint8_t)mps);
    } else {
        st = hx_cabac_next_lps[state];
        bit = state ? mps : 1 - mps;
        r = lps;
        lo = offset - rmps;
        hx_wp(x, 0, (uint8_t)(mps ^ 1));
    }
    uint32_t w0 = st | bit << 8 | ((r >> 23) & 0x1ff) << 23;
    return (uint64_t)lo << 32 | w0;
}

#endif
