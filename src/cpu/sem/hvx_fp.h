// SPDX-License-Identifier: MIT
// Lane helpers for the V68+ HVX IEEE floating-point rows (src/cpu/isa/hvx_fp.isa, `hvxieee`,
// the IEEE-typed min/max/compares and the V73 bfloat rows): IEEE 754 binary16 (hf), binary32
// (sf) and bfloat16 (bf: the upper half of a binary32) lanes. Facts: HVX PRM, "HVX floating
// point": sf/hf are IEEE 754 single and half precision, arithmetic rounds to nearest even.
// The edge behaviour the PRM leaves open follows Qualcomm's reference C for these
// instructions (the HVX IEEE library of quic/qemu, target/hexagon kvx_ieee.c/.h) and the
// HVX IEEE semantics Qualcomm later upstreamed to QEMU (target/hexagon/mmvec/hvx_ieee_fp.c,
// ext.idef), the only source for the V73 vconv rows, the float compares and vmax/vmin;
// qemu-hexagon 7.2 has none of them, so none is confirmed by an oracle here:
// - no flush to zero: subnormal inputs and results are exact / gradual;
// - a NaN operand (any operand, also an accumulator) or a NaN result (inf-inf, 0*inf) gives
//   the default NaN 0x7fff (hf, bf) / 0x7fffffff (sf) (FP16_DEF_NAN, FP32_DEF_NAN there);
// - conversions to integers (vcvt) round to nearest even and saturate; NaN gives the
//   largest value (also for a negative NaN), negative values give 0 in unsigned ones;
//   the V73 vconv rows chop (round toward zero), saturate, and NaN gives the extreme of
//   its sign (hvx_ieee_fp.c conv_w_sf, conv_h_hf);
// - sf to bf rounds to nearest even (sf_to_bf), a NaN gives 0x7fff;
// - the accumulating vmpy round once (fused: QEMU's float32_muladd/float16_muladd; the
//   reference C sums in binary64 first), vdmpy rounds its sum, the accumulating vdmpy then
//   rounds the sum with the accumulator again (QEMU's fp_vdmpy, float32_add);
// - vcmp.gt orders QNaN > SNaN > +Inf > numbers > -Inf > -SNaN > -QNaN as hvx_ieee_fp.c
//   states it (its code also calls a negative NaN greater than one of its own kind: not
//   followed, NaNs of one sign and kind compare equal here).
// The host's binary32 arithmetic (C float, FLT_EVAL_METHOD 0, the default MXCSR as
// sem/fp.h requires) is IEEE round-to-nearest-even with gradual underflow. Half-precision
// sums, differences and products are computed in binary32 and rounded once more to binary16,
// which is exact-rounding safe (24 >= 2*11+2); hf and bf products are exact in binary32,
// so an sf result of one operation on them is rounded once.
#ifndef HEXSIM_CPU_SEM_HVX_FP_H
#define HEXSIM_CPU_SEM_HVX_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sem/fp.h"

#define HX_HF_DNAN 0x7fffu
#define HX_SF_DNAN 0x7fffffffu
#define HX_BF_DNAN 0x7fffu

static inline bool hx_hf_nan(uint16_t h) { return (h & 0x7fffu) > 0x7c00u; }
static inline bool hx_sf_nan(uint32_t v) { return (v & 0x7fffffffu) > 0x7f800000u; }

static inline float hx_sf_f(uint32_t v)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}
static inline uint32_t hx_f_sf(float f)
{
    uint32_t v;
    if (f != f)
        return HX_SF_DNAN;
    memcpy(&v, &f, sizeof v);
    return v;
}

// binary16 -> binary32 (exact; a NaN keeps its sign and payload, quieted)
static inline float hx_hf_f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 31, m = h & 0x3ffu, v;
    if (e == 31)
        v = s | 0x7f800000u | (m << 13) | (m ? 0x400000u : 0);
    else if (e)
        v = s | ((e + 112) << 23) | (m << 13);
    else if (!m)
        v = s;
    else {   // subnormal: m * 2^-24
        float f = (float)m * (1.0f / 16777216.0f);
        return s ? -f : f;
    }
    return hx_sf_f(v);
}

// binary64 (so also binary32) -> binary16, round to nearest even (overflow to infinity,
// gradual underflow); a NaN gives the default NaN
static inline uint16_t hx_f_hf(double f)
{
    uint64_t v;
    memcpy(&v, &f, sizeof v);
    uint16_t s = (uint16_t)((v >> 48) & 0x8000u);
    uint64_t e = (v >> 52) & 0x7ff, m = v & 0xfffffffffffffull;
    if (e == 0x7ff)
        return m ? HX_HF_DNAN : (uint16_t)(s | 0x7c00u);
    int64_t he = (int64_t)e - 1008;   // the half's biased exponent
    uint64_t mant;
    unsigned shift;
    if (he >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (he >= 1) {
        mant = (uint64_t)he << 52 | m;   // exponent and mantissa, shifted down together
        shift = 42;
    } else {
        if (he < -10)
            return s;   // below half the smallest subnormal (rounds to zero)
        mant = m | 0x10000000000000ull;  // implicit bit; the result is a subnormal
        shift = (unsigned)(43 - he);
    }
    uint64_t r = mant >> shift, rem = mant & ((1ull << shift) - 1), half = 1ull << (shift - 1);
    if (rem > half || (rem == half && (r & 1)))
        r++;   // may carry into the exponent (up to infinity): the encoding stays right
    return (uint16_t)(s | r);
}

static inline uint16_t hx_hf_add(uint16_t a, uint16_t b) { return hx_f_hf(hx_hf_f(a) + hx_hf_f(b)); }
static inline uint16_t hx_hf_sub(uint16_t a, uint16_t b) { return hx_f_hf(hx_hf_f(a) - hx_hf_f(b)); }
static inline uint16_t hx_hf_mpy(uint16_t a, uint16_t b) { return hx_f_hf(hx_hf_f(a) * hx_hf_f(b)); }
static inline uint32_t hx_sf_add(uint32_t a, uint32_t b) { return hx_f_sf(hx_sf_f(a) + hx_sf_f(b)); }
static inline uint32_t hx_sf_sub(uint32_t a, uint32_t b) { return hx_f_sf(hx_sf_f(a) - hx_sf_f(b)); }
static inline uint32_t hx_sf_mpy(uint32_t a, uint32_t b) { return hx_f_sf(hx_sf_f(a) * hx_sf_f(b)); }

// hf and bf widened to sf (exact; a NaN gives the default NaN)
static inline uint32_t hx_hf_sf(uint16_t h) { return hx_f_sf(hx_hf_f(h)); }
static inline float hx_bf_f(uint16_t b) { return hx_sf_f((uint32_t)b << 16); }

// vdmpy: a0*b0 + a1*b1 of hf lanes: both products are exact in binary32, the sum is rounded
// once (a NaN operand or result gives the default NaN)
static inline uint32_t hx_hf_dmpy(uint16_t a0, uint16_t b0, uint16_t a1, uint16_t b1)
{
    return hx_f_sf(hx_hf_f(a0) * hx_hf_f(b0) + hx_hf_f(a1) * hx_hf_f(b1));
}

// sf -> bf, round to nearest even on the bits (overflow carries into infinity)
static inline uint16_t hx_sf_bf(uint32_t v)
{
    if (hx_sf_nan(v))
        return HX_BF_DNAN;
    return (uint16_t)((v + 0x7fffu + ((v >> 16) & 1)) >> 16);
}

// Vx.hf += Vu.hf*Vv.hf, one rounding: the product is exact in binary64 and the sum's one
// binary64 rounding cannot move it across a binary16 rounding boundary (the operands' bits
// all lie within 2^-48 .. 2^33 and a product has at most 22 significant bits)
static inline uint16_t hx_hf_fma(uint16_t acc, uint16_t a, uint16_t b)
{
    if (hx_hf_nan(acc) || hx_hf_nan(a) || hx_hf_nan(b))
        return HX_HF_DNAN;
    return hx_f_hf((double)hx_hf_f(a) * (double)hx_hf_f(b) + (double)hx_hf_f(acc));
}
// Vxx.sf += widened products, one rounding (sem/fp.c's exact fused multiply-add)
static inline uint32_t hx_sf_fma(uint32_t acc, uint32_t a, uint32_t b)
{
    if (hx_sf_nan(acc) || hx_sf_nan(a) || hx_sf_nan(b))
        return HX_SF_DNAN;
    uint32_t r = hx_sffma_rne(acc, a, b);
    return hx_sf_nan(r) ? HX_SF_DNAN : r;
}

// vfmax/vfmin (and the bf vmax/vmin): a NaN operand gives the default NaN, -0 < +0; the
// result is the chosen operand's bits (kvx_ieee.c fp_max_sf, fp_min_sf)
static inline uint32_t hx_sf_fminmax(uint32_t a, uint32_t b, bool max)
{
    if (hx_sf_nan(a) || hx_sf_nan(b))
        return HX_SF_DNAN;
    if (((a | b) & 0x7fffffffu) == 0)
        return max ? a & b : a | b;   // +0 and -0
    return (hx_sf_f(a) > hx_sf_f(b)) == max ? a : b;
}
static inline uint16_t hx_hf_fminmax(uint16_t a, uint16_t b, bool max)
{
    if (hx_hf_nan(a) || hx_hf_nan(b))
        return HX_HF_DNAN;
    if (((a | b) & 0x7fffu) == 0)
        return (uint16_t)(max ? a & b : a | b);
    return (hx_hf_f(a) > hx_hf_f(b)) == max ? a : b;
}
static inline uint16_t hx_bf_fminmax(uint16_t a, uint16_t b, bool max)
{
    return (uint16_t)(hx_sf_fminmax((uint32_t)a << 16, (uint32_t)b << 16, max) >> 16);
}
// vmax/vmin of sf/hf (V68, the qfloat group): a NaN is an operand like any other, +NaN above
// +Inf and -NaN below -Inf, the NaN operand is returned as it is (hvx_ieee_fp.c qf_max_sf,
// qf_min_sf: the first operand wins between two NaNs that both qualify)
static inline uint32_t hx_sf_minmax(uint32_t a, uint32_t b, bool max)
{
    bool an = hx_sf_nan(a), bn = hx_sf_nan(b), as = a >> 31, bs = b >> 31;
    if ((an && !as) || (bn && bs))
        return max ? a : b;
    if ((bn && !bs) || (an && as))
        return max ? b : a;
    return hx_sf_fminmax(a, b, max);
}
static inline uint16_t hx_hf_minmax(uint16_t a, uint16_t b, bool max)
{
    bool an = hx_hf_nan(a), bn = hx_hf_nan(b), as = a >> 15, bs = b >> 15;
    if ((an && !as) || (bn && bs))
        return max ? a : b;
    if ((bn && !bs) || (an && as))
        return max ? b : a;
    return hx_hf_fminmax(a, b, max);
}

// vcmp.gt of floats (hvx_ieee_fp.c cmpgt_sf): IEEE greater-than (+0 == -0) between numbers;
// with a NaN, the order QNaN > SNaN > +Inf > numbers > -Inf > -SNaN > -QNaN, NaNs of one
// sign and kind equal. `bits` is 16 (hf) or 32 (sf; bf compares as its sf).
static inline int64_t hx_fkey(uint32_t v, unsigned bits)
{
    uint32_t sign = 1u << (bits - 1), inf = bits == 16 ? 0x7c00u : 0x7f800000u;
    uint32_t quiet = bits == 16 ? 0x200u : 0x400000u, mag = v & (sign - 1);
    int64_t k = mag <= inf ? mag : (int64_t)inf + ((mag & quiet) ? 2 : 1);
    return (v & sign) ? -k : k;
}
static inline bool hx_fgt(uint32_t a, uint32_t b, unsigned bits)
{
    return hx_fkey(a, bits) > hx_fkey(b, bits);
}

// hf -> integer, round to nearest even (or toward zero: chop), saturated to lo..hi; a NaN
// gives nanv. |hf| < 2^16, so an int32_t holds every rounded value.
static inline int32_t hx_hf_int(uint16_t h, int32_t lo, int32_t hi, int32_t nanv, bool chop)
{
    if (hx_hf_nan(h))
        return nanv;
    uint32_t e = (h >> 10) & 31, m = h & 0x3ffu;
    int32_t r;
    if (e == 31)
        r = INT32_MAX;   // infinity saturates
    else {
        if (e)
            m |= 0x400u;
        else
            e = 1;
        int sh = (int)e - 25;   // value = m * 2^sh
        if (sh >= 0)
            r = (int32_t)(m << sh);
        else {
            uint32_t q = m >> -sh, rem = m & ((1u << -sh) - 1), half = 1u << (-sh - 1);
            if (!chop && (rem > half || (rem == half && (q & 1))))
                q++;
            r = (int32_t)q;
        }
    }
    if (h & 0x8000u)
        r = -r;
    return r < lo ? lo : r > hi ? hi : r;
}
// sf -> int32, toward zero, saturated; a NaN gives the extreme of its sign (vconv_w_sf)
static inline int32_t hx_sf_w_chop(uint32_t v)
{
    if (hx_sf_nan(v))
        return (v >> 31) ? INT32_MIN : INT32_MAX;
    uint32_t e = (v >> 23) & 0xff, m = (v & 0x7fffffu) | 0x800000u;
    int64_t r;
    if (e >= 158)
        r = (int64_t)1 << 31;   // |v| >= 2^31 (or infinity): saturates
    else if (e < 127)
        r = 0;
    else
        r = e >= 150 ? (int64_t)m << (e - 150) : (int64_t)(m >> (150 - e));
    if (v >> 31)
        r = -r;
    return r < INT32_MIN ? INT32_MIN : r > INT32_MAX ? INT32_MAX : (int32_t)r;
}

#endif
