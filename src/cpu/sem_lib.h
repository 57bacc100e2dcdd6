// SPDX-License-Identifier: MIT
// Helpers shared by the instruction semantics (included by the generated isa_sem.c only):
// bit-field extraction, sign extension and saturation with the sticky USR:OVF bit, as the
// PRM's pseudo-code functions (section 1.5 "Instruction behaviour notation") define them.
// Helpers of one instruction family live in src/cpu/sem/*.h, included here.
#ifndef HEXSIM_CPU_SEM_LIB_H
#define HEXSIM_CPU_SEM_LIB_H

#include <stdint.h>

#include "sem.h"

// sign-extend the low `bits` bits of v
static inline int64_t hx_sext(uint64_t v, unsigned bits)
{
    if (bits >= 64)
        return (int64_t)v;
    uint64_t m = 1ull << (bits - 1);
    v &= (1ull << bits) - 1;
    return (int64_t)((v ^ m) - m);
}
static inline uint64_t hx_zext(uint64_t v, unsigned bits)
{
    return bits >= 64 ? v : v & ((1ull << bits) - 1);
}
// halfword / byte / word lanes
static inline int16_t hx_h(uint64_t v, unsigned i) { return (int16_t)(v >> (16 * i)); }
static inline uint16_t hx_uh(uint64_t v, unsigned i) { return (uint16_t)(v >> (16 * i)); }
static inline int8_t hx_b(uint64_t v, unsigned i) { return (int8_t)(v >> (8 * i)); }
static inline uint8_t hx_ub(uint64_t v, unsigned i) { return (uint8_t)(v >> (8 * i)); }
static inline int32_t hx_w(uint64_t v, unsigned i) { return (int32_t)(v >> (32 * i)); }
static inline uint32_t hx_uw(uint64_t v, unsigned i) { return (uint32_t)(v >> (32 * i)); }

// saturation to n-bit signed / unsigned, setting USR:OVF when the value changes
static inline int64_t hx_satn(struct hx_exec *x, int64_t v, unsigned n)
{
    int64_t hi = (int64_t)((1ull << (n - 1)) - 1), lo = -hi - 1;
    if (v > hi) { hx_ovf(x); return hi; }
    if (v < lo) { hx_ovf(x); return lo; }
    return v;
}
static inline uint64_t hx_satun(struct hx_exec *x, int64_t v, unsigned n)
{
    int64_t hi = (int64_t)((1ull << n) - 1);
    if (v > hi) { hx_ovf(x); return (uint64_t)hi; }
    if (v < 0) { hx_ovf(x); return 0; }
    return (uint64_t)v;
}
static inline int32_t hx_sat32(struct hx_exec *x, int64_t v) { return (int32_t)hx_satn(x, v, 32); }
static inline int16_t hx_sath(struct hx_exec *x, int64_t v) { return (int16_t)hx_satn(x, v, 16); }
static inline uint16_t hx_satuh(struct hx_exec *x, int64_t v) { return (uint16_t)hx_satun(x, v, 16); }
static inline int8_t hx_satb(struct hx_exec *x, int64_t v) { return (int8_t)hx_satn(x, v, 8); }
static inline uint8_t hx_satub(struct hx_exec *x, int64_t v) { return (uint8_t)hx_satun(x, v, 8); }

// 64-bit signed saturation of a 128-bit intermediate
static inline int64_t hx_sat64(struct hx_exec *x, __int128 v)
{
    if (v > INT64_MAX) { hx_ovf(x); return INT64_MAX; }
    if (v < INT64_MIN) { hx_ovf(x); return INT64_MIN; }
    return (int64_t)v;
}

// predicate from a boolean
static inline uint8_t hx_pb(int cond) { return cond ? 0xff : 0x00; }

#include "sem/families.h"

#endif
