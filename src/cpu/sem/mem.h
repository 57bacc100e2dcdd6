// SPDX-License-Identifier: MIT
// Helpers for the load, store, memop and new-value store (addressing modes) instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_MEM_H
#define HEXSIM_CPU_SEM_MEM_H

#include "sem.h"

// ---- loads and addressing modes (ld.isa)
//
// Addressing-mode helpers shared by loads and stores. Each hx_ea_* returns the effective
// address of the access and, for the post-modify modes, updates *Rx (the instruction's Rx
// variable, written back by the generated code; the packet's other readers still see the
// pre-packet value). Use them with the operand variables the generator declares:
//
//     Rd = hx_ld_w(x, hx_ea_pi(&Rx, Ii));                 // memw(Rx++#Ii)
//     Rd = hx_ld_w(x, hx_ea_pr(&Rx, Mu));                 // memw(Rx++Mu)
//     Rd = hx_ld_w(x, hx_ea_brev(&Rx, Mu));               // memw(Rx++Mu:brev)
//     Rd = hx_ld_w(x, hx_ea_circ(x, &Rx, Ii, MuN));       // memw(Rx++#Ii:circ(Mu))
//     Rd = hx_ld_w(x, hx_ea_circ_i(x, &Rx, MuN, 2));      // memw(Rx++I:circ(Mu)), 2 = log2(size)
//
// PRM 2.2.4 "Modifier registers" and 5.8 "Addressing modes" (circular and bit-reversed).

// Post-increment by an immediate (already scaled) or by a modifier register's value.
static inline uint32_t hx_ea_pi(uint32_t *Rx, int32_t inc)
{
    uint32_t ea = *Rx;
    *Rx = ea + (uint32_t)inc;
    return ea;
}
static inline uint32_t hx_ea_pr(uint32_t *Rx, uint32_t Mu)
{
    uint32_t ea = *Rx;
    *Rx = ea + Mu;
    return ea;
}

// Circular addressing. The modifier register Mn (n = MuN, 0 or 1) holds
//   Length = Mn[16:0]   the buffer length in bytes,
//   K      = Mn[27:24]  (0 for CS-based buffers),
//   I      = Mn[31:28]:Mn[23:17], an 11-bit signed increment in units of the access size
//                       (used by the Rx++I:circ(Mu) forms),
// and CSn holds the buffer's start address. The access uses Rx as it is; Rx then moves by
// the increment and wraps: past the end it goes back by Length, below the start it goes
// forward by Length (unsigned address comparisons).
// With K = 0 and Length >= 4 the buffer is [CSn, CSn + Length). Otherwise (K != 0, the
// pre-V4 form, or a degenerate Length) the buffer starts at Rx with its low K+2 bits
// cleared and ends at that start ORed with Length; this is how qemu-hexagon models it.
static inline uint32_t hx_circ_add(const struct hx_exec *x, uint32_t Rx, int32_t inc, unsigned MuN)
{
    uint32_t m = hx_cr(x, HX_M0 + (MuN & 1));
    uint32_t length = m & 0x1ffffu;
    unsigned k = (m >> 24) & 0xfu;
    uint32_t start, end;
    if (k == 0 && length >= 4) {
        start = hx_cr(x, HX_CS0 + (MuN & 1));
        end = start + length;
    } else {
        uint32_t mask = (1u << (k + 2)) - 1;
        start = Rx & ~mask;
        end = start | length;
    }
    uint32_t next = Rx + (uint32_t)inc;
    if (next >= end)
        next -= length;
    else if (next < start)
        next += length;
    return next;
}
// The I field of a modifier register value, sign-extended and scaled by 1 << shift.
static inline int32_t hx_circ_i(uint32_t Mu, unsigned shift)
{
    uint32_t i = ((Mu >> 17) & 0x7fu) | ((Mu >> 28) & 0xfu) << 7;
    uint32_t v = (i ^ 0x400u) - 0x400u;   // sign-extend 11 bits (mod 2^32)
    return (int32_t)(v << shift);
}
// Rx++#inc:circ(Mu): inc is the (scaled) immediate.
static inline uint32_t hx_ea_circ(const struct hx_exec *x, uint32_t *Rx, int32_t inc, unsigned MuN)
{
    uint32_t ea = *Rx;
    *Rx = hx_circ_add(x, ea, inc, MuN);
    return ea;
}
// Rx++I:circ(Mu): the increment is Mu's I field times the access size (1 << shift).
static inline uint32_t hx_ea_circ_i(const struct hx_exec *x, uint32_t *Rx, unsigned MuN, unsigned shift)
{
    uint32_t m = hx_cr(x, HX_M0 + (MuN & 1));
    return hx_ea_circ(x, Rx, hx_circ_i(m, shift), MuN);
}

// Bit-reversed addressing: the address is Rx with its low 16 bits in reversed order
// (bits 31:16 unchanged); Rx then advances by Mu.
static inline uint32_t hx_brev16(uint32_t v)
{
    uint32_t r = 0;
    for (unsigned i = 0; i < 16; i++)
        r |= ((v >> i) & 1u) << (15 - i);
    return r;
}
static inline uint32_t hx_ea_brev(uint32_t *Rx, uint32_t Mu)
{
    uint32_t ea = *Rx;
    *Rx = ea + Mu;
    return (ea & 0xffff0000u) | hx_brev16(ea);
}

// Loads. Memory is read as it was before the packet, except that a store earlier in the
// packet (a slot-1 store before a slot-0 load, PRM 5.5 "Slot 1 store with slot 0 load",
// V65 and later; qemu-hexagon does the same) is seen by the load where the two overlap.
// The stores staged when a load runs are exactly those earlier in execution order: the only
// store that runs before its packet's slot order (memw_locked/memd_locked store, a predicate
// writer) cannot share a packet with a load. hx_ld raises alignment and permission faults.
// (The forwarding from stores earlier in the packet is done by hx_ld itself, src/cpu/exec.c.)
static inline uint64_t hx_ldu(struct hx_exec *x, uint32_t ea, unsigned size)
{
    return hx_ld(x, ea, size);
}
static inline uint32_t hx_ld_b(struct hx_exec *x, uint32_t ea)
{
    return (uint32_t)(int32_t)(int8_t)hx_ldu(x, ea, 1);
}
static inline uint32_t hx_ld_ub(struct hx_exec *x, uint32_t ea) { return (uint32_t)hx_ldu(x, ea, 1); }
static inline uint32_t hx_ld_h(struct hx_exec *x, uint32_t ea)
{
    return (uint32_t)(int32_t)(int16_t)hx_ldu(x, ea, 2);
}
static inline uint32_t hx_ld_uh(struct hx_exec *x, uint32_t ea) { return (uint32_t)hx_ldu(x, ea, 2); }
static inline uint32_t hx_ld_w(struct hx_exec *x, uint32_t ea) { return (uint32_t)hx_ldu(x, ea, 4); }
static inline uint64_t hx_ld_d(struct hx_exec *x, uint32_t ea) { return hx_ldu(x, ea, 8); }
// memw_locked / memd_locked: a load that also sets the reservation.
static inline uint64_t hx_ld_lock(struct hx_exec *x, uint32_t ea, unsigned size)
{
    return hx_ld_locked(x, ea, size);
}

// Ryy = memb_fifo(...) / memh_fifo(...): the pair shifts right by one element and the loaded
// byte/halfword enters at the top (PRM "Load and shift").
static inline uint64_t hx_ld_fifo_b(struct hx_exec *x, uint32_t ea, uint64_t Ryy)
{
    return Ryy >> 8 | hx_ldu(x, ea, 1) << 56;
}
static inline uint64_t hx_ld_fifo_h(struct hx_exec *x, uint32_t ea, uint64_t Ryy)
{
    return Ryy >> 16 | hx_ldu(x, ea, 2) << 48;
}

// membh / memubh: n bytes (2 or 4) unpacked into n halfwords, sign- or zero-extended.
static inline uint64_t hx_ld_unpack(struct hx_exec *x, uint32_t ea, unsigned n, int sign)
{
    uint64_t v = hx_ldu(x, ea, n), r = 0;
    for (unsigned i = 0; i < n; i++) {
        uint64_t b = (v >> (8 * i)) & 0xffu;
        if (sign && (b & 0x80u))
            b |= 0xff00u;
        r |= b << (16 * i);
    }
    return r;
}

// deallocframe: r31:30 (LR:FP) = memd(FP) with the upper word XORed with FRAMEKEY
// (PRM 8.3 "Stack frames", frame key); SP = FP + 8. Returns the unscrambled pair; SP is
// written here.
static inline uint64_t hx_dealloc(struct hx_exec *x, uint32_t fp)
{
    uint64_t v = hx_ldu(x, fp, 8);
    v ^= (uint64_t)hx_cr(x, HX_FRAMEKEY) << 32;
    hx_wr(x, 29, fp + 8);
    return v;
}
// dealloc_return: deallocframe, then jump to the loaded LR.
static inline uint64_t hx_dealloc_return(struct hx_exec *x, uint32_t fp)
{
    uint64_t v = hx_dealloc(x, fp);
    hx_jump(x, (uint32_t)(v >> 32));
    return v;
}

// ---- end of loads and addressing modes

// ---- stores, memops, new-value (st.isa, memop.isa, nv.isa)
// The addressing modes use the hx_ea_* helpers above.

// allocframe (PRM 8.5, 8.3.2 stack smashing protection): memd(Rx-8) = LR:FP with LR XORed
// with FRAMEKEY; FP = Rx-8; returns the new Rx = Rx-8-size. The FRAMELIMIT check (an
// exception when the new stack pointer is below FRAMELIMIT) is not modelled: there is no
// event for it yet (qemu-hexagon does not model it either).
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
