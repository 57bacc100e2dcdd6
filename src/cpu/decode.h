// SPDX-License-Identifier: MIT
// Packet decoder: splits guest words into a packet (parse bits, PRM section 10.5), matches
// each word against the ISA table, splits duplexes (10.3), applies constant extenders
// (10.9) and resolves new-value operands to their producers (10.11).
#ifndef HEXSIM_CPU_DECODE_H
#define HEXSIM_CPU_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "timing.h"

struct hx_exec;
struct hexsim_insn;
// An instruction's semantic function (generated into isa_sem.c; NULL: not written yet).
typedef void (*hexsim_sem_fn)(struct hx_exec *, const struct hexsim_insn *);
extern const hexsim_sem_fn hexsim_isa_sem[HX_NUM_TAGS];
// The same writing general registers in place without the write mask: what the decoder
// puts in hexsim_insn.fn of a `direct` packet (NULL: the row has no such variant).
extern const hexsim_sem_fn hexsim_isa_sem_direct[HX_NUM_TAGS];
// The two halves of a compound compare-jump (`p0 = cmp.eq(Rs,Rt); if (p0.new) jump`; NULL for
// other rows): the compare, which writes the predicate, and the jump, which reads the value
// the predicate takes in the packet. The decoder runs them apart when another instruction of
// the packet writes the same predicate (decode.c: split_cmpjumps).
extern const hexsim_sem_fn hexsim_isa_sem_cmp[HX_NUM_TAGS];
extern const hexsim_sem_fn hexsim_isa_sem_jump[HX_NUM_TAGS];
// Whether an instruction's semantics may read the packet's address (x->pc, x->npc): the
// compiled blocks (jit.c) set them only for packets that need them.
extern const uint8_t hexsim_isa_sem_uses_pc[HX_NUM_TAGS];
// What the decoder puts in hexsim_insn.fn for an instruction without semantics: it raises
// HX_EV_UNIMPLEMENTED (exec.c).
void hexsim_sem_unimplemented(struct hx_exec *x, const struct hexsim_insn *in);

#define HX_PACKET_MAX_WORDS 4
#define HX_PACKET_MAX_INSNS 8
// The register number of an HVX new-value operand whose producer is a vgather: the store
// `vmem(...) = vtmp.new` (HVX PRM "Vector gather": vtmp is no vector register). Below 64:
// the stencils assume register numbers are (tools/isa_sem.py, HX_REG).
#define HX_VTMP 32u
// Added to the register number of an HVX new-value operand whose producer is a `.tmp`
// instruction (decode.c, vector_new_value): the value is the packet's temporary (sem/hvx.h,
// hx_vnew). Below 128, as the stencils assume (tools/isa_sem.py, HX_REG).
#define HX_VNEW_TMP 64u

enum hexsim_decode_status {
    HX_DECODE_OK = 0,
    HX_DECODE_TRUNCATED,     // the words ran out before the end of the packet
    HX_DECODE_TOO_LONG,      // more than four words
    HX_DECODE_UNKNOWN,       // a word matches no instruction
    HX_DECODE_BAD_REGISTER,  // a register field names no register
    HX_DECODE_BAD_EXTENDER,  // immext before an instruction that cannot be extended
    HX_DECODE_BAD_NEWVALUE,  // new-value operand without a valid producer
    HX_DECODE_BAD_ENDLOOP,   // loop-end parse bits outside words 0 and 1
    HX_DECODE_ILLEGAL,       // the packet breaks a packet-formation rule
};

struct hexsim_insn {
    uint16_t tag;             // enum hexsim_tag
    uint8_t word;             // word index within the packet
    uint8_t part;             // 0: whole word; 1: duplex high (slot 1); 2: duplex low (slot 0)
    bool extended;            // the extendable operand took its upper bits from an immext
    uint8_t idx;              // its index in the packet's insn[] (packet order)
    // Operand values in table order: register fields as encoded (new-value operands: the
    // producer's register number), immediates fully formed (sign-extended, scaled or
    // extended; PC-relative ones as offsets from the packet address).
    uint32_t op[HX_MAX_OPERANDS];
    uint32_t unextended;      // the extendable operand's value as if no immext preceded it
    uint8_t producer;         // new-value consumers: index in the packet of the producer
    hexsim_sem_fn fn;         // hexsim_isa_sem[tag] (hexsim_sem_unimplemented if none;
                              // in a direct packet hexsim_isa_sem_direct[tag] if there is
                              // one; a split compare-jump's halves: hexsim_isa_sem_cmp and
                              // _jump), set once by the decoder
};

enum hexsim_alu_kind {
    HX_ALU_NONE = 0,
    HX_ALU_PLAIN,     // no branch either
    HX_ALU_JUMPS,     // with jumps (timing: the general hx_timing_commit)
};

struct hexsim_packet {
    uint32_t addr;
    uint8_t nwords;           // words consumed (on failure: words to skip)
    uint8_t ninsns;
    uint8_t endloop;          // bit 0: ends loop 0; bit 1: ends loop 1
    uint8_t status;           // enum hexsim_decode_status
    uint8_t rule;             // HX_DECODE_ILLEGAL: the rule broken (check.h), else 0
    uint8_t bad_word;         // word index that made the packet invalid
    uint32_t words[HX_PACKET_MAX_WORDS];
    // insn[0..ninsns): the packet's instructions; behind them the jump halves of split
    // compare-jumps (see order), which only the executor sees.
    struct hexsim_insn insn[HX_PACKET_MAX_INSNS];
    // Execution order (indexes into insn): instructions that write predicates first, so that
    // .new predicate readers anywhere in the packet see the value the packet gives them
    // (PRM 6.1.3: several writes are ANDed; 6.1.4), then the jump halves of compare-jumps
    // split because another instruction writes their predicate too (decode.c:
    // split_cmpjumps: the compare half runs with the writers), then HVX .cur and .tmp loads
    // (the packet's other instructions read their vector), then the rest in packet order.
    // New-value producers always precede their consumers in the encoding. Constant extenders
    // do nothing when executed and are left out. nexec <= HX_PACKET_MAX_INSNS: a word holds
    // at most two instructions, a compare-jump's word one and its jump half.
    uint8_t order[HX_PACKET_MAX_INSNS];
    uint8_t nexec;
    uint8_t priv;             // bit i: insn[i] is a supervisor (monitor mode) instruction
    uint8_t guest;            // bit i: insn[i] needs guest mode or above
    bool direct;              // the executor may write general registers in place (see
                              // decode.c: no instruction reads what an earlier one wrote,
                              // nothing can fault, no .new values, no memory; jumps only)
    uint8_t alu;              // enum hexsim_alu_kind: direct and plain, no fixed extra
                              // cycles, at most a loop-0 end: the executor's shortest paths
                              // (exec_step.h)
    bool store_direct;        // its one store may write memory at once (exec.h; see
                              // decode.c: nothing after it in execution order can fault)
    bool writes_pc;           // a transfer names PC (`pc = Rs`, `c9:8 = Rss`): the assembler
                              // and disassembler (llvm-mc-16, llvm-objdump-16) refuse it as
                              // writing a read-only register, so hexsim-objdump prints
                              // <unknown>; it executes with the PC write ignored (exec.c)
    bool plain;               // decoded OK, no supervisor or guest instructions (the
                              // executor's fast path; false: it checks status and mode)
    struct hexsim_packet_timing tm;   // the timing model's summary (timing.h)
};

// Decodes the packet at words[0..n) located at addr for core version `arch` (68 = V68;
// newer instructions are unknown). Always fills *pkt; returns pkt->status.
int hexsim_decode_packet(const uint32_t *words, size_t n, uint32_t addr, unsigned arch,
                         struct hexsim_packet *pkt);

// Finds the table entry for one non-duplex word (parse bits ignored; `extended`: a
// constant extender precedes it) or sub-instruction (13 bits, group 0..4 = A, L1, L2, S1,
// S2), among instructions core version `arch` has. Returns the tag or -1.
int hexsim_match_word(uint32_t word, bool extended, unsigned arch);
int hexsim_match_sub(uint32_t bits13, int group, unsigned arch);

const char *hexsim_decode_status_str(int status);

// The general registers an instruction's syntax names literally (not as operands: "jumpr
// r31", "memw(r29+#Ii)"), as a mask; they are read.
uint32_t hexsim_literal_regs(const char *syntax);

// The general registers an instruction reads (operands read or read-modify-written, and
// those its syntax names literally; .new operands are not reads) and writes through its
// operands (implicit_defs are not included), as masks.
void hexsim_insn_regs(const struct hexsim_insn *in, uint32_t *rd, uint32_t *wr);

// The predicates an instruction writes (operands and those its syntax names), as a mask.
unsigned hexsim_insn_preds_written(const struct hexsim_insn *in);

// The general registers a register operand with field value raw names, as a mask (two
// bits for pairs; 0 for operands that are not general registers).
uint32_t hexsim_operand_regs(const struct hexsim_operand_desc *o, uint32_t raw);

#endif
