// SPDX-License-Identifier: MIT
// Helpers for the jump, call, hardware-loop, CR and system instruction semantics (src/cpu/isa/*.isa),
// and for the ALU32, predicate and duplex rows of the same family.
// Facts: Hexagon V6x Programmer's Reference Manual (sections 7 "Program flow", 8 "Software
// stack", 6 "Conditional execution" and the instruction pages of chapter 11).
#ifndef HEXSIM_CPU_SEM_FLOW_H
#define HEXSIM_CPU_SEM_FLOW_H

#include "sem.h"

// ---- halfword lanes of a 32-bit register: pack two 16-bit results (low, high)
static inline uint32_t hx_fl_pack2h(int64_t lo, int64_t hi)
{
    return (uint32_t)(uint16_t)lo | (uint32_t)(uint16_t)hi << 16;
}

// ---- predicates
// C4_fastcorner9: true when the 16-bit ring Ps:Pt holds at least 9 consecutive set bits
// (the ring wraps from bit 15 to bit 0).
static inline int hx_fl_fastcorner9(uint8_t ps, uint8_t pt)
{
    uint32_t v = (uint32_t)ps << 8 | pt;
    v |= v << 16;                  // two copies: runs that wrap around are seen whole
    uint32_t run = v;
    for (int i = 1; i < 9; i++)
        run &= v >> i;             // bit k set: bits k..k+i all set
    return (run & 0xffffu) != 0;
}

// Rdd = mask(Pt) / vmux: byte i from bit i of a predicate
static inline uint64_t hx_fl_pmask(uint8_t p)
{
    uint64_t m = 0;
    for (unsigned i = 0; i < 8; i++)
        if (p >> i & 1)
            m |= 0xffull << (8 * i);
    return m;
}

// ---- compare-and-jump (J4_*_tp0_jump_*): the compare writes p0/p1 (ANDed with any other
// write of it in the packet, PRM 6.1.3), and the jump tests bit 0 of the value the packet
// gives the predicate. Alone as the writer of its predicate it does both at once; when
// another instruction writes it too, the decoder runs the two halves apart (decode.c:
// split_cmpjumps): the compare with the other writers, the jump after all of them.
static inline void hx_fl_cmpjump_cmp(struct hx_exec *x, unsigned p, int cond, int sense,
                                     uint32_t target)
{
    (void)sense;
    (void)target;
    hx_wp(x, p, hx_pb(cond));
}
static inline void hx_fl_cmpjump_jump(struct hx_exec *x, unsigned p, int cond, int sense,
                                      uint32_t target)
{
    (void)cond;
    if ((hx_pnew(x, p) & 1) == (unsigned)sense)
        hx_jump(x, target);
}
static inline void hx_fl_cmpjump(struct hx_exec *x, unsigned p, int cond, int sense,
                                 uint32_t target)
{
    hx_fl_cmpjump_cmp(x, p, cond, sense, target);
    hx_fl_cmpjump_jump(x, p, cond, sense, target);
}

// ---- control registers: the value a control register has in this packet so far
static inline uint32_t hx_fl_cr_staged(const struct hx_exec *x, unsigned n)
{
    return (x->cmask >> n & 1) ? x->new_c[n] : hx_cr(x, n);
}

// ---- hardware loops (PRM 7.2): loopN(start, count) sets SAn/LCn; loop0 also sets
// USR:LPCFG (0 for loop0, N for spNloop0, which also clears P3).
static inline void hx_fl_loop(struct hx_exec *x, unsigned n, uint32_t sa, uint32_t lc)
{
    hx_wcr(x, n ? HX_SA1 : HX_SA0, sa);
    hx_wcr(x, n ? HX_LC1 : HX_LC0, lc);
}
static inline void hx_fl_lpcfg(struct hx_exec *x, unsigned cfg)
{
    uint32_t usr = hx_fl_cr_staged(x, HX_USR);
    hx_wcr(x, HX_USR, (usr & ~HX_USR_LPCFG_MASK) | (cfg << HX_USR_LPCFG_SHIFT));
}
static inline void hx_fl_loop0(struct hx_exec *x, uint32_t sa, uint32_t lc, unsigned cfg)
{
    hx_fl_loop(x, 0, sa, lc);
    hx_fl_lpcfg(x, cfg);
    if (cfg)
        hx_wp(x, 3, 0);
}

// ---- stack frames (PRM 8.3-8.5): the saved LR is XORed with FRAMEKEY (c17) in the upper
// word of the LR:FP pair. FRAMELIMIT (c16) checking in allocframe is not modelled in user
// mode (it raises a stack-limit exception in the PRM).
static inline uint64_t hx_fl_frame_key(const struct hx_exec *x)
{
    return (uint64_t)hx_cr(x, HX_FRAMEKEY) << 32;
}
// deallocframe / dealloc_return: load LR:FP from [FP], set SP = FP + 8; returns the
// unscrambled LR (the return target).
static inline uint32_t hx_fl_deallocframe(struct hx_exec *x)
{
    uint32_t ea = hx_r(x, 30);
    uint64_t f = hx_ld(x, ea, 8) ^ hx_fl_frame_key(x);
    hx_wr(x, 30, (uint32_t)f);
    hx_wr(x, 31, (uint32_t)(f >> 32));
    hx_wr(x, 29, ea + 8);
    return (uint32_t)(f >> 32);
}
// allocframe(#size): push LR:FP (LR scrambled) at SP-8, FP = SP-8, SP = SP-8-size.
static inline void hx_fl_allocframe(struct hx_exec *x, uint32_t sp, uint32_t size,
                                    unsigned spreg)
{
    uint32_t ea = sp - 8;
    uint64_t f = ((uint64_t)hx_r(x, 31) << 32 | hx_r(x, 30)) ^ hx_fl_frame_key(x);
    hx_st(x, ea, 8, f);
    hx_wr(x, 30, ea);
    hx_wr(x, spreg, ea - size);
}

// ---- dczeroa(Rs) (PRM 5.10 "Cache memory"): zero the 32-byte line holding Rs; it is a
// store for protection and alignment, staged like one (hx_st size 32).
static inline void hx_fl_dczeroa(struct hx_exec *x, uint32_t rs)
{
    hx_st(x, rs & ~31u, 32, 0);
}

#endif
