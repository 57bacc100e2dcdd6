// SPDX-License-Identifier: MIT
// Helpers for the XTYPE multiply instruction semantics (src/cpu/isa/xtype_mpy.isa).
// Facts: Hexagon V6x Programmer's Reference Manual, section 11.10.5 (XTYPE/MPY) and
// 11.10.3 (XTYPE/COMPLEX). Products of 16-bit lanes are exact 32-bit values; the optional
// :<<1 doubles them, :rnd adds 0x8000 (1 << 15 for the 32x16 forms, before the >>16),
// :sat saturates the (accumulated) result to 32 bits and sets USR:OVF when it clips.
// Accumulation without :sat wraps. Everything is computed in 64 bits (wrapping additions
// in uint64_t), then saturated or truncated to the lane.
// Included from sem_lib.h, after the shared helpers it uses.
#ifndef HEXSIM_CPU_SEM_MPY_H
#define HEXSIM_CPU_SEM_MPY_H

#include <stdbool.h>
#include <stdint.h>

#include "sem.h"

// option flags of the helpers below
#define HX_M_S1 1u     // :<<1
#define HX_M_RND 2u    // :rnd
#define HX_M_SAT 4u    // :sat
#define HX_M_U 8u      // unsigned operands (mpyu) / unsigned second operand (su forms)
#define HX_M_NEG 16u   // subtract from the accumulator (-=)
#define HX_M_CONJ 32u  // second complex operand conjugated (Rt32*)
#define HX_M_ODD 64u   // odd halfwords (vmpywoh, vrmpywoh)

// wrapping 64-bit addition / subtraction of signed values
static inline int64_t hx_m_add(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t hx_m_sub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t hx_m_acc(int64_t a, int64_t p, unsigned f)
{
    return (f & HX_M_NEG) ? hx_m_sub(a, p) : hx_m_add(a, p);
}
// optional saturation to 32 bits
static inline int64_t hx_m_sat(struct hx_exec *x, int64_t v, unsigned f)
{
    return (f & HX_M_SAT) ? hx_sat32(x, v) : v;
}
// signed 16x16 product of halfword lane i of a and lane j of b
static inline int64_t hx_hp(uint64_t a, unsigned i, uint64_t b, unsigned j)
{
    return (int64_t)((int32_t)hx_h(a, i) * (int32_t)hx_h(b, j));
}
// word lane i of v replaced by the low 32 bits of w
static inline uint64_t hx_m_setw(uint64_t v, unsigned i, int64_t w)
{
    unsigned s = 32 * i;
    return (v & ~(0xffffffffull << s)) | ((uint64_t)(uint32_t)w << s);
}
static inline uint64_t hx_m_words(int64_t w0, int64_t w1)
{
    return (uint64_t)(uint32_t)w1 << 32 | (uint32_t)w0;
}
// halfword 1 of v (bits 31:16), used by the round-and-pack forms
static inline uint32_t hx_m_hi16(int64_t v) { return (uint32_t)((uint64_t)v >> 16) & 0xffff; }

// ---- 16x16 scalar multiplies: [acc +/-] (Rs.h[hs] * Rt.h[ht]) [<<1] [+0x8000], [sat]
static inline int64_t hx_mpy16(struct hx_exec *x, int64_t acc, uint32_t s, uint32_t t,
                               unsigned hs, unsigned ht, unsigned f)
{
    int64_t p = (f & HX_M_U) ? (int64_t)((uint32_t)hx_uh(s, hs) * (uint32_t)hx_uh(t, ht))
                             : hx_hp(s, hs, t, ht);
    if (f & HX_M_S1)
        p *= 2;
    if (f & HX_M_RND)
        p += 0x8000;
    return hx_m_sat(x, hx_m_acc(acc, p, f), f);
}

// ---- 32x32 products
static inline int64_t hx_mpy32ss(uint32_t s, uint32_t t) { return (int64_t)(int32_t)s * (int32_t)t; }
static inline uint64_t hx_mpy32uu(uint32_t s, uint32_t t) { return (uint64_t)s * t; }
static inline int64_t hx_mpy32su(uint32_t s, uint32_t t) { return (int64_t)(int32_t)s * (int64_t)t; }

// ---- vmpyh / vmpyeh / vmpyhsu: two word lanes, lane i = [acc.w[i] +] Rs.h[i*step] *
// Rt.h[i*step] [<<1], [sat]; HX_M_U makes the Rt lanes unsigned
static inline uint64_t hx_vmpyh(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t,
                                unsigned step, unsigned f)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned k = i * step;
        int64_t p = (f & HX_M_U) ? (int64_t)hx_h(s, k) * hx_uh(t, k) : hx_hp(s, k, t, k);
        if (f & HX_M_S1)
            p *= 2;
        r = hx_m_setw(r, i, hx_m_sat(x, hx_m_add(hx_w(acc, i), p), f));
    }
    return r;
}
// vmpyh:rnd:sat: Rd.h[i] = sat32((Rs.h[i] * Rt.h[i]) [<<1] + 0x8000).h[1]
static inline uint32_t hx_vmpyh_pack(struct hx_exec *x, uint32_t s, uint32_t t, unsigned f)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 2; i++) {
        int64_t p = hx_hp(s, i, t, i) * ((f & HX_M_S1) ? 2 : 1);
        r |= hx_m_hi16(hx_sat32(x, p + 0x8000)) << (16 * i);
    }
    return r;
}

// ---- vdmpy: word lane i = sat(acc.w[i] + (Rss.h[2i]*Rtt.h[2i] + Rss.h[2i+1]*Rtt.h[2i+1])[<<1])
static inline int64_t hx_vdmpy_lane(uint64_t s, uint64_t t, unsigned i, unsigned f)
{
    int64_t m = (f & HX_M_S1) ? 2 : 1;
    return hx_hp(s, 2 * i, t, 2 * i) * m + hx_hp(s, 2 * i + 1, t, 2 * i + 1) * m;
}
static inline uint64_t hx_vdmpy(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t,
                                unsigned f)
{
    return hx_m_words(hx_sat32(x, hx_w(acc, 0) + hx_vdmpy_lane(s, t, 0, f)),
                      hx_sat32(x, hx_w(acc, 1) + hx_vdmpy_lane(s, t, 1, f)));
}
// vdmpy:rnd:sat: Rd.h[i] = sat32(lane i + 0x8000).h[1]
static inline uint32_t hx_vdmpy_pack(struct hx_exec *x, uint64_t s, uint64_t t, unsigned f)
{
    return hx_m_hi16(hx_sat32(x, hx_vdmpy_lane(s, t, 0, f) + 0x8000)) |
           hx_m_hi16(hx_sat32(x, hx_vdmpy_lane(s, t, 1, f) + 0x8000)) << 16;
}

// ---- cmpy (16-bit complex, real in h[0], imaginary in h[1]), products [<<1]:
//   imaginary (word 1) = Rs.h1*Rt.h0 + Rs.h0*Rt.h1   (conjugate: -)
//   real      (word 0) = Rs.h0*Rt.h0 - Rs.h1*Rt.h1   (conjugate: +)
static inline int64_t hx_cmpy_im(uint32_t s, uint32_t t, unsigned f)
{
    int64_t m = (f & HX_M_S1) ? 2 : 1;
    int64_t a = hx_hp(s, 1, t, 0) * m, b = hx_hp(s, 0, t, 1) * m;
    return (f & HX_M_CONJ) ? a - b : a + b;
}
static inline int64_t hx_cmpy_re(uint32_t s, uint32_t t, unsigned f)
{
    int64_t m = (f & HX_M_S1) ? 2 : 1;
    int64_t a = hx_hp(s, 0, t, 0) * m, b = hx_hp(s, 1, t, 1) * m;
    return (f & HX_M_CONJ) ? a + b : a - b;
}
// Rdd = cmpy(...):sat, Rxx +=/-= cmpy(...):sat
static inline uint64_t hx_cmpy(struct hx_exec *x, uint64_t acc, uint32_t s, uint32_t t,
                               unsigned f)
{
    return hx_m_words(hx_sat32(x, hx_m_acc(hx_w(acc, 0), hx_cmpy_re(s, t, f), f)),
                      hx_sat32(x, hx_m_acc(hx_w(acc, 1), hx_cmpy_im(s, t, f), f)));
}
// Rd = cmpy(...):rnd:sat: each part sat32(part + 0x8000).h[1]; real in h[0]
static inline uint32_t hx_cmpy_pack(struct hx_exec *x, uint32_t s, uint32_t t, unsigned f)
{
    return hx_m_hi16(hx_sat32(x, hx_cmpy_re(s, t, f) + 0x8000)) |
           hx_m_hi16(hx_sat32(x, hx_cmpy_im(s, t, f) + 0x8000)) << 16;
}

// ---- vcmpyr / vcmpyi: two complex lanes (halfwords 2i, 2i+1), word i =
// sat([acc.w[i] +] (real or imaginary part) [<<1])
static inline uint64_t hx_vcmpy(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t,
                                int imag, unsigned f)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned a = 2 * i, b = 2 * i + 1;
        int64_t v = imag ? hx_hp(s, b, t, a) + hx_hp(s, a, t, b)
                         : hx_hp(s, a, t, a) - hx_hp(s, b, t, b);
        if (f & HX_M_S1)
            v *= 2;
        r = hx_m_setw(r, i, hx_sat32(x, hx_w(acc, i) + v));
    }
    return r;
}

// ---- vrcmpyr / vrcmpyi: sum over both complex lanes of the real or imaginary part (64 bits)
static inline int64_t hx_vrcmpy(uint64_t s, uint64_t t, int imag, unsigned f)
{
    int64_t v = 0;
    for (unsigned i = 0; i < 2; i++) {
        unsigned a = 2 * i, b = 2 * i + 1;
        if (imag)
            v += (f & HX_M_CONJ) ? hx_hp(s, b, t, a) - hx_hp(s, a, t, b)
                                 : hx_hp(s, b, t, a) + hx_hp(s, a, t, b);
        else
            v += (f & HX_M_CONJ) ? hx_hp(s, a, t, a) + hx_hp(s, b, t, b)
                                 : hx_hp(s, a, t, a) - hx_hp(s, b, t, b);
    }
    return v;
}

// ---- vrcmpys:<<1:sat:raw:hi/lo: the scalar is word 1 (hi) or word 0 (lo) of Rtt;
//   word 1 = sat(acc.w1 + (Rss.h1*T.h0 + Rss.h3*T.h1)<<1)
//   word 0 = sat(acc.w0 + (Rss.h0*T.h0 + Rss.h2*T.h1)<<1)
static inline int64_t hx_vrcmpys_lane(uint64_t s, uint32_t tw, unsigned i)
{
    return 2 * hx_hp(s, i, tw, 0) + 2 * hx_hp(s, i + 2, tw, 1);
}
static inline uint64_t hx_vrcmpys(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t, int hi)
{
    uint32_t tw = hx_uw(t, hi ? 1 : 0);
    return hx_m_words(hx_sat32(x, hx_w(acc, 0) + hx_vrcmpys_lane(s, tw, 0)),
                      hx_sat32(x, hx_w(acc, 1) + hx_vrcmpys_lane(s, tw, 1)));
}
static inline uint32_t hx_vrcmpys_pack(struct hx_exec *x, uint64_t s, uint64_t t, int hi)
{
    uint32_t tw = hx_uw(t, hi ? 1 : 0);
    return hx_m_hi16(hx_sat32(x, hx_vrcmpys_lane(s, tw, 0) + 0x8000)) |
           hx_m_hi16(hx_sat32(x, hx_vrcmpys_lane(s, tw, 1) + 0x8000)) << 16;
}

// ---- 32x16 products: word w times halfword h (signed, or unsigned with HX_M_U)
static inline int64_t hx_mpy3216(uint32_t w, uint16_t h, unsigned f)
{
    return (int64_t)(int32_t)w * ((f & HX_M_U) ? (int64_t)h : (int64_t)(int16_t)h);
}
// sat(acc + (((w * h) [<<1] [+0x8000]) >> 16))
static inline int64_t hx_mpy3216_hi(struct hx_exec *x, int64_t acc, uint32_t w, uint16_t h,
                                    unsigned f)
{
    int64_t p = hx_mpy3216(w, h, f) * ((f & HX_M_S1) ? 2 : 1);
    if (f & HX_M_RND)
        p += 0x8000;
    return hx_sat32(x, acc + (p >> 16));
}
// vmpyweh / vmpywoh / vmpyweuh / vmpywouh: word i = Rss.w[i] * Rtt.h[2i (+1 odd)]
static inline uint64_t hx_vmpyw(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t,
                                unsigned f)
{
    unsigned o = (f & HX_M_ODD) ? 1 : 0;
    return hx_m_words(hx_mpy3216_hi(x, hx_w(acc, 0), hx_uw(s, 0), hx_uh(t, o), f),
                      hx_mpy3216_hi(x, hx_w(acc, 1), hx_uw(s, 1), hx_uh(t, 2 + o), f));
}
// vrmpyweh / vrmpywoh: Rss.w1*Rtt.h[2(+1)] [<<1] + Rss.w0*Rtt.h[0(+1)] [<<1], 64 bits
static inline int64_t hx_vrmpyw(uint64_t s, uint64_t t, unsigned f)
{
    unsigned o = (f & HX_M_ODD) ? 1 : 0;
    int64_t m = (f & HX_M_S1) ? 2 : 1;
    return hx_mpy3216(hx_uw(s, 1), hx_uh(t, 2 + o), 0) * m +
           hx_mpy3216(hx_uw(s, 0), hx_uh(t, o), 0) * m;
}
// cmpyrwh / cmpyiwh (Rss: complex of two words, Rt: complex of two halfwords):
// sat((a +/- b + 0x4000) >> 15)
static inline uint32_t hx_cmpywh(struct hx_exec *x, uint64_t s, uint32_t t, int imag,
                                 unsigned f)
{
    int64_t v;
    if (imag)
        v = (f & HX_M_CONJ) ? hx_mpy3216(hx_uw(s, 1), hx_uh(t, 0), 0) -
                                  hx_mpy3216(hx_uw(s, 0), hx_uh(t, 1), 0)
                            : hx_mpy3216(hx_uw(s, 0), hx_uh(t, 1), 0) +
                                  hx_mpy3216(hx_uw(s, 1), hx_uh(t, 0), 0);
    else
        v = (f & HX_M_CONJ) ? hx_mpy3216(hx_uw(s, 0), hx_uh(t, 0), 0) +
                                  hx_mpy3216(hx_uw(s, 1), hx_uh(t, 1), 0)
                            : hx_mpy3216(hx_uw(s, 0), hx_uh(t, 0), 0) -
                                  hx_mpy3216(hx_uw(s, 1), hx_uh(t, 1), 0);
    return (uint32_t)hx_sat32(x, (v + 0x4000) >> 15);
}

// ---- byte multiplies; Rss/Rs bytes signed with HX_M_U clear ("bsu"), unsigned when set
// ("bu"); the Rt bytes are always unsigned
static inline int32_t hx_bp(uint64_t s, uint64_t t, unsigned i, unsigned f)
{
    int32_t a = (f & HX_M_U) ? (int32_t)hx_ub(s, i) : (int32_t)hx_b(s, i);
    return a * (int32_t)hx_ub(t, i);
}
// vrmpybu / vrmpybsu: word i = acc.w[i] + sum of the products of bytes 4i..4i+3 (wraps)
static inline uint64_t hx_vrmpyb(uint64_t acc, uint64_t s, uint64_t t, unsigned f)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 2; i++) {
        uint32_t v = (uint32_t)hx_w(acc, i);
        for (unsigned k = 4 * i; k < 4 * i + 4; k++)
            v += (uint32_t)hx_bp(s, t, k, f);
        r = hx_m_setw(r, i, (int32_t)v);
    }
    return r;
}
// vmpybu / vmpybsu: halfword i = acc.h[i] + Rs.b[i] * Rt.ub[i] (wraps to 16 bits)
static inline uint64_t hx_vmpyb(uint64_t acc, uint32_t s, uint32_t t, unsigned f)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 4; i++)
        r |= (uint64_t)(uint16_t)(hx_uh(acc, i) + (uint32_t)hx_bp(s, t, i, f)) << (16 * i);
    return r;
}
// vdmpybsu:sat: halfword i = sat16(acc.h[i] + Rss.b[2i]*Rtt.ub[2i] + Rss.b[2i+1]*Rtt.ub[2i+1])
static inline uint64_t hx_vdmpybsu(struct hx_exec *x, uint64_t acc, uint64_t s, uint64_t t)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < 4; i++) {
        int64_t v = (int64_t)hx_h(acc, i) + hx_bp(s, t, 2 * i, 0) + hx_bp(s, t, 2 * i + 1, 0);
        r |= (uint64_t)(uint16_t)hx_sath(x, v) << (16 * i);
    }
    return r;
}

// ---- polynomial (carry-less) multiplies over GF(2)
static inline uint64_t hx_clmul(uint64_t a, uint32_t b, unsigned bits)
{
    uint64_t r = 0;
    for (unsigned i = 0; i < bits; i++)
        if (b >> i & 1)
            r ^= a << i;
    return r;
}
// vpmpyh: the two 32-bit products of the halfword lanes, low halves in h[0], h[1], high
// halves in h[2], h[3]
static inline uint64_t hx_vpmpyh(uint32_t s, uint32_t t)
{
    uint32_t p0 = (uint32_t)hx_clmul(hx_uh(s, 0), hx_uh(t, 0), 16);
    uint32_t p1 = (uint32_t)hx_clmul(hx_uh(s, 1), hx_uh(t, 1), 16);
    return (uint64_t)(p0 & 0xffff) | (uint64_t)(p1 & 0xffff) << 16 |
           (uint64_t)(p0 >> 16) << 32 | (uint64_t)(p1 >> 16) << 48;
}

// ---- vector absolute differences |Rtt.lane - Rss.lane|, truncated to the lane
static inline uint64_t hx_vabsdiff(uint64_t t, uint64_t s, unsigned bits, int uns)
{
    uint64_t r = 0, m = bits == 64 ? ~0ull : (1ull << bits) - 1;
    for (unsigned i = 0; i < 64; i += bits) {
        int64_t a, b;
        if (uns) {
            a = (int64_t)((t >> i) & m);
            b = (int64_t)((s >> i) & m);
        } else {
            a = hx_sext(t >> i, bits);
            b = hx_sext(s >> i, bits);
        }
        int64_t d = a - b;
        r |= ((uint64_t)(d < 0 ? -d : d) & m) << i;
    }
    return r;
}

// ---- 32-bit complex (V67t audio extension, M7_*): real part in w[0], imaginary in w[1];
// conj: the second operand conjugated (Rtt32*).
//   cmpyrw: s0*t0 - s1*t1 (conj: s0*t0 + s1*t1)   cmpyiw: s0*t1 + s1*t0 (conj: s1*t0 - s0*t1)
// Each product is exact in 64 bits; their sum can reach 2^63, so it is returned in 128 bits.
// The Rdd/Rxx forms keep its low 64 bits (the accumulation wraps).
static inline __int128 hx_cmpyw(uint64_t s, uint64_t t, bool imag, bool conj)
{
    int64_t s0 = hx_w(s, 0), s1 = hx_w(s, 1), t0 = hx_w(t, 0), t1 = hx_w(t, 1);
    if (!imag)
        return conj ? (__int128)(s0 * t0) + s1 * t1 : (__int128)(s0 * t0) - s1 * t1;
    return conj ? (__int128)(s1 * t0) - s0 * t1 : (__int128)(s0 * t1) + s1 * t0;
}

// Rd = cmpyrw/cmpyiw(...):<<1[:rnd]:sat: (v [+ 2^30]) >> 31, saturated to 32 bits (USR:OVF)
static inline uint32_t hx_cmpyw_sat(struct hx_exec *x, __int128 v, bool rnd)
{
    if (rnd)
        v += 0x40000000;
    return (uint32_t)hx_sat32(x, (int64_t)(v >> 31));
}

#endif
