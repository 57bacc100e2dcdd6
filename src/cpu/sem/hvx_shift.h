// SPDX-License-Identifier: MIT
// Helpers of the HVX shift group (src/cpu/isa/hvx_shift.isa): lane shifts by a signed
// per-lane amount, the narrowing shifts with rounding and saturation, leading-bit counts.
// Facts: Hexagon V6x/V73 HVX Programmer's Reference Manual (pseudo-code of vasl, vasr, vlsr,
// vround, vnormamt, vcl0, vaddclb); compared with qemu-hexagon 7.2 by tests/isa/hvx_exec.py,
// the V69 vasr with a vector of amounts with tests/isa/hvx_known_values.txt. Unlike the
// scalar normamt, vnormamt has no case for 0 (15/31, as for -1), as qemu-hexagon 7.2 has it.
#ifndef HEXSIM_CPU_SEM_HVX_SHIFT_H
#define HEXSIM_CPU_SEM_HVX_SHIFT_H

#include <stdint.h>

// v shifted left by sh when sh >= 0, else right (arithmetically: v is signed, extended by
// the caller as the lane type says) by -sh; sh in -64..63.
static inline int64_t hx_vshl(int64_t v, int sh)
{
    if (sh >= 0)
        return sh >= 64 ? 0 : (int64_t)((uint64_t)v << sh);
    return sh <= -64 ? (v < 0 ? -1 : 0) : v >> -sh;
}

// the low `bits` bits of a lane as a signed shift amount (vasl/vasr/vlsr by a vector: 5 bits
// for halfwords, 6 for words)
static inline int hx_vshamt(uint32_t v, unsigned bits)
{
    uint32_t m = 1u << (bits - 1);
    return (int)((v & ((m << 1) - 1)) ^ m) - (int)m;
}

// (v + rounding constant) >> sh: the narrowing shifts' :rnd adds 1 << (sh - 1) (nothing for
// a shift of 0), in 64 bits
static inline int64_t hx_vasr_rnd(int64_t v, unsigned sh, int rnd)
{
    if (rnd && sh)
        v += (int64_t)1 << (sh - 1);
    return v >> sh;
}

// v clamped to lo..hi (the saturation of the 64-bit intermediates)
static inline int64_t hx_vclamp(int64_t v, int64_t lo, int64_t hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

// leading zeros of a 16/32-bit lane; leading bits equal to the sign bit (vclb: 16/32 for 0
// and -1)
static inline unsigned hx_vcl0(uint32_t v, unsigned bits)
{
    unsigned n = 0;
    for (int b = (int)bits - 1; b >= 0 && !((v >> b) & 1); b--)
        n++;
    return n;
}
static inline unsigned hx_vclb(uint32_t v, unsigned bits)
{
    uint32_t m = bits == 32 ? 0xffffffffu : (1u << bits) - 1;
    v &= m;
    return (v >> (bits - 1)) & 1 ? hx_vcl0(~v & m, bits) : hx_vcl0(v, bits);
}

#endif
