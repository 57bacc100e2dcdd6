// SPDX-License-Identifier: MIT
// Helpers for the floating-point (XTYPE FP) instruction semantics (src/cpu/isa/xtype_fp.isa).
// Facts: Hexagon V6x Programmer's Reference Manual (XTYPE/FP); behaviour at the edges (NaN
// results, flags, conversion saturation, the reciprocal / square-root seeds) as qemu-hexagon
// 7.2 shows it. All arithmetic is done in integers (src/cpu/sem/fp.c): no host floating-point
// state is read or changed. Each helper reads the rounding mode from USR bits 23:22 (the
// pre-packet value) and ORs the IEEE flags it raises into USR bits 1..5 via hx_fpflags.
#ifndef HEXSIM_CPU_SEM_FP_H
#define HEXSIM_CPU_SEM_FP_H

#include <stdbool.h>
#include <stdint.h>

#include "../sem.h"

// operand / result kinds of the convert_* rows
enum hx_fpkind { HX_FK_SF, HX_FK_DF, HX_FK_W, HX_FK_UW, HX_FK_D, HX_FK_UD };
// compare conditions of sfcmp.* / dfcmp.*
enum hx_fpcmp { HX_FC_EQ, HX_FC_GT, HX_FC_GE, HX_FC_UO };

// Rd = convert_<from>2<to>(Rs): integer results saturate with the invalid flag; :chop rounds
// toward zero, the others use USR's rounding mode
uint64_t hx_fp_convert(struct hx_exec *x, enum hx_fpkind from, enum hx_fpkind to, uint64_t v,
                       bool chop);

uint32_t hx_sfadd(struct hx_exec *x, uint32_t a, uint32_t b);
uint32_t hx_sfmpy(struct hx_exec *x, uint32_t a, uint32_t b);
// Rx += a*b (negate: Rx -= a*b), one rounding
uint32_t hx_sffma(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, bool negate);
// Rx += a*b scaled by 2**Pu (Pu sign-extended from 8 bits)
uint32_t hx_sffma_sc(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, uint8_t pu);
// :lib forms: nearest-even, no flags, overflow to the largest finite, inf-inf gives 0
uint32_t hx_sffma_lib(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, bool negate);
uint32_t hx_sfminmax(struct hx_exec *x, uint32_t a, uint32_t b, bool max);
uint8_t hx_sfcmp(struct hx_exec *x, uint32_t a, uint32_t b, enum hx_fpcmp c);
uint8_t hx_sfclass(uint32_t a, uint32_t cls);
uint32_t hx_sfrecipa(struct hx_exec *x, uint32_t n, uint32_t d, uint8_t *pe);
uint32_t hx_sffixupn(struct hx_exec *x, uint32_t n, uint32_t d);
uint32_t hx_sffixupd(struct hx_exec *x, uint32_t n, uint32_t d);
uint32_t hx_sfinvsqrta(struct hx_exec *x, uint32_t r, uint8_t *pe);
uint32_t hx_sffixupr(struct hx_exec *x, uint32_t r);

uint64_t hx_dfadd(struct hx_exec *x, uint64_t a, uint64_t b);
uint64_t hx_dfminmax(struct hx_exec *x, uint64_t a, uint64_t b, bool max);
uint8_t hx_dfcmp(struct hx_exec *x, uint64_t a, uint64_t b, enum hx_fpcmp c);
uint8_t hx_dfclass(uint64_t a, uint32_t cls);
uint64_t hx_dfmpyfix_denormal(struct hx_exec *x, uint64_t a, uint64_t b);
// dfmpyfix: a as it is unless a or b is denormal (tested inline, so that the usual case
// stays in the block compiler's stencil; fp.c does the rest)
static inline uint64_t hx_dfmpyfix(struct hx_exec *x, uint64_t a, uint64_t b)
{
    const uint64_t e = 0x7ff0000000000000ull, m = 0x000fffffffffffffull;
    if (__builtin_expect((!(a & e) && (a & m)) || (!(b & e) && (b & m)), 0))
        return hx_dfmpyfix_denormal(x, a, b);
    return a;
}
uint64_t hx_dfmpyhh(struct hx_exec *x, uint64_t acc, uint64_t a, uint64_t b);

// dfmpyll: low words' product, high word kept (shifted left 1), the low word ORed in as sticky
static inline uint64_t hx_dfmpyll(uint64_t a, uint64_t b)
{
    uint64_t prod = (uint64_t)(uint32_t)a * (uint32_t)b;
    return (prod >> 32) << 1 | ((uint32_t)prod != 0);
}
// dfmpylh: low word of a times the 21-bit high mantissa (with hidden bit) of b, shifted left 1
static inline uint64_t hx_dfmpylh(uint64_t acc, uint64_t a, uint64_t b)
{
    uint64_t hi = 0x00100000u | ((uint32_t)(b >> 32) & 0xfffffu);
    return acc + (((uint64_t)(uint32_t)a * hi) << 1);
}

#endif
