// SPDX-License-Identifier: MIT
// Lane helpers for the V68 HVX IEEE floating-point rows (src/cpu/isa/hvx_fp.isa, `hvxieee`):
// IEEE 754 binary16 (hf) and binary32 (sf) lanes. Facts: HVX PRM, "HVX floating point": the
// sf/hf types are IEEE 754 single and half precision, arithmetic rounds to nearest even.
// The host's binary32 arithmetic (C float, FLT_EVAL_METHOD 0) is IEEE round-to-nearest-even
// with gradual underflow; half-precision sums, differences and products are computed in
// binary32 and rounded once more to binary16, which is exact-rounding safe (24 >= 2*11+2).
// A NaN result is written as the default NaN (all ones, as the scalar core writes it:
// sem/fp.c), so that the host's NaN payload rules never show (determinism); the NaN
// encoding of the HVX unit is not confirmed by an oracle (qemu-hexagon 7.2 has no V68 HVX).
#ifndef HEXSIM_CPU_SEM_HVX_FP_H
#define HEXSIM_CPU_SEM_HVX_FP_H

#include <stdint.h>
#include <string.h>

#define HX_HF_DNAN 0xffffu
#define HX_SF_DNAN 0xffffffffu

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

// binary32 -> binary16, round to nearest even (overflow to infinity, gradual underflow);
// a NaN gives the default NaN
static inline uint16_t hx_f_hf(float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    uint16_t s = (uint16_t)((v >> 16) & 0x8000u);
    uint32_t e = (v >> 23) & 0xff, m = v & 0x7fffffu;
    if (e == 0xff)
        return m ? HX_HF_DNAN : (uint16_t)(s | 0x7c00u);
    int32_t he = (int32_t)e - 112;   // the half's biased exponent
    uint32_t mant, shift;
    if (he >= 31)
        return (uint16_t)(s | 0x7c00u);
    if (he >= 1) {
        mant = (uint32_t)he << 23 | m;   // exponent and mantissa, shifted down together
        shift = 13;
    } else {
        if (he < -10)
            return s;   // below half the smallest subnormal (rounds to zero)
        mant = m | 0x800000u;            // implicit bit; the result is a subnormal
        shift = (uint32_t)(14 - he);
    }
    uint32_t r = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
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

#endif
