// SPDX-License-Identifier: MIT
// The C view of hexsim's ISA table. The rows themselves live in src/cpu/isa/*.isa and are
// turned into `hexsim_isa_table` by tools/gen_isa.py at build time; decoder, disassembler and
// (later) executor and timing model all read this one table.
#ifndef HEXSIM_CPU_ISA_H
#define HEXSIM_CPU_ISA_H

#include <stdint.h>

#include "hexsim/arch.h"
#include "isa_tags.h"

enum hexsim_operand_kind {
    HX_OPK_IMM,
    HX_OPK_R,    // Rd32: r0..r31
    HX_OPK_RR,   // Rdd32: even/odd pair r1:0..r31:30
    HX_OPK_R16,  // Rd16: duplex 4-bit register, r0-r7 and r16-r23
    HX_OPK_RR8,  // Rdd8: duplex 3-bit pair, r1:0..r7:6 and r17:16..r23:22
    HX_OPK_R8,   // Rd8: r0..r7
    HX_OPK_P,    // Pd4: p0..p3
    HX_OPK_C,    // Cd32: control register
    HX_OPK_CC,   // Cdd32: control register pair
    HX_OPK_M,    // Mu2: m0, m1
    HX_OPK_N,    // Nt8: new-value operand, resolved to its producer in the packet
    HX_OPK_G,    // Gd32: guest register
    HX_OPK_GG,   // Gdd32: guest register pair
    HX_OPK_S,    // Sd128: system register
    HX_OPK_SS,   // Sdd64: system register pair
    HX_OPK_V,    // Vd32: HVX vector register v0..v31
    HX_OPK_VV,   // Vdd32: HVX vector pair; even field n: v(n+1):n, odd n: v(n-1):n (low vn)
    HX_OPK_Q,    // Qd4: HVX vector predicate q0..q3
    HX_OPK_OV,   // Os8: HVX new-value operand, resolved to its producer's vector register
};

enum hexsim_class {
    HX_CLASS_EXT, HX_CLASS_ALU32, HX_CLASS_XTYPE, HX_CLASS_LD, HX_CLASS_ST, HX_CLASS_MEMOP,
    HX_CLASS_CR, HX_CLASS_J, HX_CLASS_JR, HX_CLASS_NV, HX_CLASS_SYSTEM,
    HX_CLASS_SUBA, HX_CLASS_SUBL1, HX_CLASS_SUBL2, HX_CLASS_SUBS1, HX_CLASS_SUBS2,
    HX_CLASS_CVI, HX_CLASS_CVI_LD, HX_CLASS_CVI_ST,   // HVX: compute, vector loads, stores
};

enum hexsim_timing_class {
    HX_TC_EXT, HX_TC_ALU32, HX_TC_ALU64, HX_TC_MPY, HX_TC_FP, HX_TC_LD, HX_TC_ST, HX_TC_MEMOP,
    HX_TC_JUMP, HX_TC_CALL, HX_TC_LOOP, HX_TC_CR, HX_TC_SYS,
    HX_TC_LL, HX_TC_SC,        // load-locked, store-conditional
    HX_TC_SYNC,                // barrier, syncht, isync, release
    HX_TC_CACHEOP,             // cache maintenance and prefetch
    // HVX instruction types (src/cpu/isa/README.md, "HVX"): the HVX units they use
    HX_TC_CVI_VA, HX_TC_CVI_VA_DV, HX_TC_CVI_VX, HX_TC_CVI_VX_LATE, HX_TC_CVI_VX_DV,
    HX_TC_CVI_VP, HX_TC_CVI_VP_VS, HX_TC_CVI_VS, HX_TC_CVI_VM_LD, HX_TC_CVI_VM_CUR_LD,
    HX_TC_CVI_VM_TMP_LD, HX_TC_CVI_VM_VP_LDU, HX_TC_CVI_VM_ST, HX_TC_CVI_VM_NEW_ST,
    HX_TC_CVI_VM_STU, HX_TC_CVI_HIST, HX_TC_CVI_GATHER, HX_TC_CVI_GATHER_DV,
    HX_TC_CVI_SCATTER, HX_TC_CVI_SCATTER_DV,
    HX_TC_CVI_EXTRACT,         // vextract: HVX-to-scalar transfer (slot 0, all HVX units)
    HX_TC_CVI_VS_VX,           // xlane or shift in llvm-mc-16's model (vrmpy with Rtt: multiply)
    HX_TC_CVI_TMP,             // no HVX unit (the V69 .tmp vassign/vcombine)
};

enum hexsim_insn_flag {
    HX_F_LOAD = 1u << 0,
    HX_F_STORE = 1u << 1,
    HX_F_MEMOP = 1u << 2,
    HX_F_NEWVALUE = 1u << 3,   // consumes a .new register (new-value store or jump)
    HX_F_JUMP = 1u << 4,
    HX_F_CALL = 1u << 5,
    HX_F_HWLOOP = 1u << 6,
    HX_F_RETURN = 1u << 7,
    HX_F_PRIV = 1u << 8,       // monitor mode only
    HX_F_GUEST = 1u << 9,      // guest mode or above
    HX_F_TRAP = 1u << 10,
    HX_F_PRED = 1u << 11,      // predicated
    HX_F_PFALSE = 1u << 12,    // predicated on a false predicate
    HX_F_PNEW = 1u << 13,      // predicated on a .new predicate
    HX_F_MUSTEXT = 1u << 14,   // encoding only exists after a constant extender
    // Packet-formation facts (the checker's; src/cpu/isa/README.md):
    HX_F_SOLO = 1u << 15,      // must be alone in its packet
    HX_F_SOLOAX = 1u << 16,    // only with ALU32 and non-floating-point XTYPE instructions
    HX_F_SLOT1ALU = 1u << 17,  // only ALU32 instructions may take slot 1 beside it
    HX_F_NOSLOT1ST = 1u << 18, // no store may take slot 1 beside it
    HX_F_LATEPRED = 1u << 19,  // writes its predicate too late for .new readers in the packet
    HX_F_COFONLY = 1u << 20,   // the packet's only branch
    HX_F_COFSECOND = 1u << 21, // the only branch, or the second of two
    HX_F_NOFPU = 1u << 22,     // timing class fp but not a floating-point-unit instruction
    HX_F_USR = 1u << 23,       // sets USR status bits (overflow, floating-point flags) implicitly
    HX_F_AUDIO = 1u << 24,     // audio extension: decodes only on the "t" cores (V67t, V71t)
    HX_F_CABAC = 1u << 25,     // CABAC decoder: decodes on any core but the "t" cores
    HX_F_HVX = 1u << 26,       // HVX: decodes only on a core with HVX (HEXSIM_ARCH_HVX)
    HX_F_HVXIEEE = 1u << 27,   // HVX IEEE floating point (HEXSIM_ARCH_HVX_IEEE)
    HX_F_HVXQF = 1u << 28,     // HVX qfloat (HEXSIM_ARCH_HVX_QF)
    HX_F_VTMP = 1u << 29,      // its vector destination is a temporary the packet's other
                               // instructions read, no register (`.tmp`; from the syntax)
};

#define HX_MAX_OPERANDS 6
#define HX_SUBGROUPS 5   // A, L1, L2, S1, S2

struct hexsim_operand_desc {
    const char *name;     // as in the syntax: "Rd32", "Ii"
    uint8_t kind;         // enum hexsim_operand_kind
    uint8_t nbits;        // field width in the encoding
    uint8_t is_signed;
    uint8_t scale;        // immediate is shifted left by this many bits
    uint8_t extendable;   // a preceding immext supplies its upper 26 bits
    uint8_t pcrel;        // relative to the packet address
    uint8_t written;      // register operand the instruction writes (d, e, x, y fields)
    uint8_t pnew;         // predicate operand read as .new
    uint8_t nruns;
    struct { uint8_t shift, len; } runs[4];  // field pieces, most significant first
};

struct hexsim_insn_desc {
    const char *tag;
    uint32_t mask, match;     // (word & mask) == match; 13-bit for sub-instructions
    const char *syntax;       // literal text; bytes 1..HX_MAX_OPERANDS name operand 0..5
    uint8_t cls;              // enum hexsim_class
    uint8_t slots;            // bit n set: may issue in slot n (0 for sub-instructions)
    uint8_t timing;           // enum hexsim_timing_class
    uint32_t flags;           // enum hexsim_insn_flag
    uint8_t nops;
    int8_t ext_op;            // index of the extendable operand, or -1
    int8_t nv_def;            // operand a new-value consumer can read as .new, or -1
    struct hexsim_operand_desc ops[HX_MAX_OPERANDS];
    uint8_t lit_pdefs;        // predicates the syntax names literally: written ("p0 = ..."; also
                              //   the implicit defs=pN of the row),
    uint8_t lit_pnew;         //   read as .new ("p0.new"),
    uint8_t lit_pread;        //   read as a condition ("if (p0)"); bit n = pn
    uint8_t arch;             // first core version with the instruction (62 = V62), 0: all
    uint8_t until;            // last core version with this form, 0: still current
    uint32_t implicit_defs;   // general registers written without an operand (bit n = rn)
    uint32_t implicit_cdefs;  // control registers written without an operand (bit n = cn)
    uint8_t slots_new;        // slots from core version slots_arch on (equal to slots if none)
    uint8_t slots_arch;
};

// The slots an instruction may issue in on core arch (hexsim/arch.h: 68 = V68).
static inline unsigned hexsim_insn_slots(const struct hexsim_insn_desc *d, unsigned arch)
{
    return d->slots_arch && hexsim_arch_version(arch) >= d->slots_arch ? d->slots_new : d->slots;
}

struct hexsim_isa_bucket {
    const uint16_t *tags;
    uint16_t count;
};

extern const struct hexsim_insn_desc hexsim_isa_table[HX_NUM_TAGS];
extern const struct hexsim_isa_bucket hexsim_isa_iclass[16];
extern const struct hexsim_isa_bucket hexsim_isa_subgroup[HX_SUBGROUPS];
extern const int8_t hexsim_isa_duplex[16][2];   // duplex ICLASS -> {high group, low group}

#endif
