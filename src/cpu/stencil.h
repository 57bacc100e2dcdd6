// SPDX-License-Identifier: MIT
// Stencils: the semantic functions of the ISA table once more as x86-64 machine code the
// block compiler (jit.c) copies into a compiled block instead of calling the function.
// tools/isa_sem.py writes them as C (isa_stencil_src.c: the same semantic lines, operands from
// holes, every way out a tail call of hx_hole_next), the host's clang compiles them and
// tools/stencils.py turns the object code into tables (isa_stencil.c). An instruction whose
// stencil the compiler could not make self-contained has none (size 0): it is called.
#ifndef HEXSIM_CPU_STENCIL_H
#define HEXSIM_CPU_STENCIL_H

#include <stdint.h>

#include "isa_tags.h"

enum hx_stencil_rel_kind {
    HX_REL_OP = 0,     // 4 bytes: operand `arg` of the instruction (hexsim_insn.op) + addend
    HX_REL_NEXT = 1,   // rel32 to the end of the copy (S + A - P)
    HX_REL_SYM = 2,    // rel32 to hexsim_stencil_syms[arg] (S + A - P)
    HX_REL_IDX = 3,    // 4 bytes: the instruction's index in its packet (hexsim_insn.idx) + addend
    HX_REL_INSN = 4,   // 8 bytes: the instruction's address (struct hexsim_insn *) + addend
    HX_REL_ROFF = 5,   // 4 bytes: 4 * the number of the general register operand arg & 15
                       // names, formed as kind arg >> 4 says (hexsim_stencil_regnum) + addend
    HX_REL_DATA = 6,   // rel32 to hexsim_stencil_data[arg] (S + A - P): constants the code reads
    HX_REL_RBIT = 7,   // 4 bytes: the write-mask bits (x->rmask) of the general register (pair)
                       // operand arg & 15 names, formed as kind arg >> 4 says
                       // (hexsim_stencil_regbits) + addend
};

// The number of the general register an operand field names, by kind (tools/isa_sem.py
// REG_KIND: 0 as encoded, 1 a subinstruction's register, 2 a pair, 3 a subinstruction's pair).
unsigned hexsim_stencil_regnum(unsigned kind, uint32_t op);
// Its bits in the write mask x->rmask (sem.h hx_wr, hx_wrr): one, or two for a pair.
uint32_t hexsim_stencil_regbits(unsigned kind, uint32_t op);

// It calls a function other than the slow memory paths (which set x->cur_in themselves and
// touch neither x->full nor the predicates): that may read x->cur_in, set x->full, write
// predicates.
#define HX_STENCIL_CALLS 1u
#define HX_STENCIL_FULL 2u   // it may set x->full (sem.h: HX_MARK)
#define HX_STENCIL_PRED 4u   // it may write a predicate

struct hx_stencil_rel {
    uint16_t off;      // in the code
    uint8_t kind;      // enum hx_stencil_rel_kind
    uint8_t arg;
    int32_t addend;
};

struct hx_stencil {
    const uint8_t *code;   // NULL: no stencil
    const struct hx_stencil_rel *rel;
    uint16_t size;
    uint8_t nrel;
    uint8_t flags;         // HX_STENCIL_*
};

// By tag: the semantic function's stencil, and that of its in-place variant
// (hexsim_isa_sem_direct).
extern const struct hx_stencil hexsim_isa_stencil[HX_NUM_TAGS];
extern const struct hx_stencil hexsim_isa_stencil_direct[HX_NUM_TAGS];
// The program's functions the stencils call (HX_REL_SYM), and the constants they read
// (HX_REL_DATA: the .rodata sections of the stencils' object, 64-byte aligned).
extern void (*const hexsim_stencil_syms[])(void);
extern const uint8_t *const hexsim_stencil_data[];

#endif
