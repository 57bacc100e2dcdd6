// SPDX-License-Identifier: MIT
// Helpers for the load, store, memop and new-value store (addressing modes) instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_MEM_H
#define HEXSIM_CPU_SEM_MEM_H

#include "sem.h"

// ---- stores, memops, new-value (st.isa, memop.isa, nv.isa)
// The st_ addressing helpers below duplicate what the loads family needs too; once sem-ld is
// merged, replace them by its equivalents (st_circ_add = hx_circ_add, st_mreg_i = hx_circ_i
// unscaled, st_brev_ea = the address hx_ea_brev returns).

// M0/M1 fields (PRM 2.2.4, 5.8 circular addressing): Length bits 16:0, K bits 27:24,
// I (signed 11 bits) split as I[10:7] in bits 31:28 and I[6:0] in bits 23:17.
static inline int32_t st_mreg_i(uint32_t m)
{
    uint32_t i = ((m >> 28) & 0xfu) << 7 | ((m >> 17) & 0x7fu);
    return (int32_t)((i ^ 0x400u) - 0x400u);
}

// Circular post-increment of Rx by inc (already scaled) with modifier register Mu (number
// mu_n: 0 = M0, 1 = M1). The buffer starts at CS0/CS1 and is Length bytes long; a K field
// other than zero (or Length < 4) selects the V3 power-of-two buffer of 2^(K+2) bytes that
// holds Rx.
static inline uint32_t st_circ_add(const struct hx_exec *x, uint32_t rx, int32_t inc,
                                   unsigned mu_n)
{
    uint32_t m = hx_cr(x, HX_M0 + mu_n);
    uint32_t k = (m >> 24) & 0xfu, len = m & 0x1ffffu;
    uint32_t p = rx + (uint32_t)inc, start, end;
    if (k == 0 && len >= 4) {
        start = hx_cr(x, HX_CS0 + mu_n);
        end = start + len;
    } else {
        uint32_t mask = (1u << (k + 2)) - 1;
        start = rx & ~mask;
        end = start | len;
    }
    if (p >= end)
        p -= len;
    else if (p < start)
        p += len;
    return p;
}

// Rx++I:circ(Mu): the increment is M's I field scaled by the access size (1 << shift)
static inline uint32_t st_circ_add_i(const struct hx_exec *x, uint32_t rx, unsigned mu_n,
                                     unsigned shift)
{
    uint32_t m = hx_cr(x, HX_M0 + mu_n);
    return st_circ_add(x, rx, (int32_t)((uint32_t)st_mreg_i(m) << shift), mu_n);
}

// Bit-reversed addressing: the low 16 bits of Rx reversed, the upper 16 kept
static inline uint32_t st_brev_ea(uint32_t rx)
{
    uint32_t lo = rx & 0xffffu, r = 0;
    for (unsigned i = 0; i < 16; i++)
        r |= ((lo >> i) & 1u) << (15 - i);
    return (rx & 0xffff0000u) | r;
}

// allocframe (PRM 8.5, 8.3.2 stack smashing protection): memd(Rx-8) = LR:FP with LR XORed
// with FRAMEKEY; FP = Rx-8; returns the new Rx = Rx-8-size. The FRAMELIMIT check raises
// a stack-overflow exception in system mode only and is not modelled here.
static inline uint32_t st_allocframe(struct hx_exec *x, uint32_t rx, uint32_t size)
{
    uint32_t ea = rx - 8u;
    uint64_t frame = (uint64_t)hx_r(x, 31) << 32 | hx_r(x, 30);
    frame ^= (uint64_t)hx_cr(x, HX_FRAMEKEY) << 32;
    hx_st(x, ea, 8, frame);
    hx_wr(x, 30, ea);
    return ea - size;
}

// memops (PRM 5.9): load a byte/half/word, combine with v, store it back (truncated)
enum st_memop { ST_MEMOP_ADD, ST_MEMOP_SUB, ST_MEMOP_AND, ST_MEMOP_OR };
static inline void st_memop(struct hx_exec *x, uint32_t ea, unsigned size, enum st_memop op,
                            uint32_t v)
{
    uint32_t m = (uint32_t)hx_ld(x, ea, size);
    switch (op) {
    case ST_MEMOP_ADD: m += v; break;
    case ST_MEMOP_SUB: m -= v; break;
    case ST_MEMOP_AND: m &= v; break;
    case ST_MEMOP_OR: m |= v; break;
    }
    hx_st(x, ea, size, m);
}

#endif
