// SPDX-License-Identifier: MIT
// Packet-formation rules (PRM section 3.3 "Packets", 10.9-10.11, and the resource rules of
// chapter 3), as the reference assembler and disassembler (llvm-mc-16/llvm-objdump-16, whose
// packet checker and slot shuffler state them) enforce them. Per-instruction facts come from
// the ISA table (slots per core version, flags: src/cpu/isa/README.md); the packet rules are:
//  - register writes: a register other than a predicate is written by one instruction, or
//    only by instructions that are all conditional, none on the same predicate and sense as
//    another, and, when two of them use one predicate with opposite senses, by those two only;
//    several writes of a predicate are ANDed; the end of a hardware loop writes its loop
//    registers (SA0/LC0, SA1/LC1); P3:0 (C4) is not written
//    beside a predicate-register write; USR is not written beside an instruction that sets
//    USR status bits implicitly;
//  - a predicate written "late" (loop set-ups with P3, :carry, decbin, ...) is written by
//    nothing else in the packet (not even another late writer) and is not read as .new; a
//    .new predicate is read only when an instruction writes it in time, and never in a packet
//    that writes P3:0;
//  - a new-value operand's producer is unpredicated, or predicated on the consumer's
//    predicate with its sense; a new-value jump takes no predicated or floating-point producer;
//  - a solo instruction is alone; a solo-AX one is only with ALU32 and non-floating-point
//    XTYPE instructions (and duplex A-group sub-instructions);
//  - branches: at most two, none in a packet that ends a hardware loop; a "cofonly" branch is
//    the only one, a "cofsecond" branch the only one or the second; of two branches the first
//    takes a higher slot than the second;
//  - slots: at most four (a duplex takes slots 1 and 0, a constant extender none), each
//    instruction in a slot it may issue in on the core version, after the packet's slot
//    restrictions: beside a slot1alu instruction only ALU32 ones take slot 1, beside a
//    noslot1st one no store takes slot 1; a load that is the packet's only memory access
//    takes slot 0; a single store takes slot 0 unless the packet has loads and another
//    instruction that only slot 0 can hold (then slot 1), two stores take slots 1 and 0 in
//    packet order (unless one of them only has slot 0); a memop is the only store; at most
//    one load and one store that only slot 0 can hold; no memory access (a new-value jump
//    counts as one) beside a duplex;
//  - HVX (HVX PRM, "VLIW packing rules", as llvm-mc-16's packet checker states them): at most
//    one vector load (.cur, .tmp and gathers included) and one vector store (new-value stores,
//    scatters and scatter releases included); an unaligned vector load or store (vmemu) takes
//    slot 0 and leaves slot 1 empty; the four HVX units (xlane/permute, shift, multiply 0 and
//    1) are shared out among the packet's vector instructions, each taking the units its HVX
//    type (the timing class of its row) names: one of its units, or for a double-vector type
//    two neighbouring ones (xlane and shift, or both multiplies), or all four (histograms); a
//    .tmp load, a new-value store, a scatter release and the .tmp forms of vassign/vcombine
//    take none; at most one instruction with a .tmp destination (a .tmp load, vassign or
//    vcombine, a gather's vtmp), which is no register write; the register a .tmp load loads
//    is not accumulated into (`Vx32 += ...`, `Vx32 |= ...`) in its packet.
#include "check.h"

#include <string.h>

#include "decode.h"
#include "hvx.h"
#include "regnames.h"

// The rules a packet can break, as an invalid packet's report names them
// (hexsim_packet_rule_str); each check below returns the first one the packet breaks.
#define PACKET_RULES(X)                                                                        \
    X(RULE_WRITES, "a register is written by two instructions (only conditional writes on "    \
                   "different predicates or senses may share one)")                            \
    X(RULE_P3_0, "P3:0 is written beside a write of a predicate register")                     \
    X(RULE_USR, "USR is written beside an instruction that sets USR status bits")              \
    X(RULE_LATE_PRED, "a predicate written late (loop set-up, :carry, decbin...) is written "  \
                      "by another instruction too")                                           \
    X(RULE_PRED_NEW, "a .new predicate is read without an instruction writing it in time")     \
    X(RULE_NEW_VALUE, "a new-value operand's producer is predicated otherwise than its "       \
                      "consumer (or a new-value jump's is predicated or floating point)")     \
    X(RULE_SOLO, "an instruction that must be alone in its packet is not")                     \
    X(RULE_SOLO_AX, "a solo-AX instruction is beside an instruction other than ALU32 and "     \
                    "fixed-point XTYPE")                                                      \
    X(RULE_BRANCHES, "more than two branches, a branch in a packet that ends a hardware "      \
                     "loop, or a branch that must be the only or the second one is not")      \
    X(RULE_SLOT_COUNT, "more than four instructions")                                          \
    X(RULE_SLOT0_MEM, "two loads or two stores that only slot 0 can hold")                     \
    X(RULE_DUPLEX_MEM, "a memory access beside a duplex")                                      \
    X(RULE_MEMOP, "a memop beside another store")                                              \
    X(RULE_SLOTS, "the instructions cannot each take a slot they may issue in")                \
    X(RULE_HVX_TMP, "HVX: more than one .tmp destination (a .tmp load, vassign or vcombine "  \
                    ".tmp, a gather's vtmp)")                                                  \
    X(RULE_HVX_TMP_ACC, "HVX: the register a .tmp load loads is accumulated into in its "      \
                        "packet")                                                              \
    X(RULE_HVX_VLOADS, "HVX: more than one vector load (.cur, .tmp and gathers included)")     \
    X(RULE_HVX_VSTORES, "HVX: more than one vector store (new-value stores, scatters and "     \
                        "scatter releases included)")                                          \
    X(RULE_HVX_VMEMU, "HVX: an unaligned vector load or store (vmemu) takes slot 0 and "       \
                      "leaves slot 1 empty")                                                   \
    X(RULE_HVX_UNITS, "HVX: the vector instructions need more of the four HVX units (xlane, "  \
                      "shift, two multiplies) than there are")

#define RULE_ENUM(name, text) name,
#define RULE_TEXT(name, text) [name] = text,
enum { RULE_OK = 0, PACKET_RULES(RULE_ENUM) RULE_COUNT };

const char *hexsim_packet_rule_str(int rule)
{
    static const char *const text[] = { [RULE_OK] = "no rule broken", PACKET_RULES(RULE_TEXT) };
    return rule >= 0 && rule < RULE_COUNT ? text[rule] : "unknown packet-formation rule";
}

// Register numbering for the write map: r0-r31, p0-p3, control registers c0-c31, HVX
// vector registers v0-v31 and predicates q0-q3.
enum { REG_R = 0, REG_P = 32, REG_C = 36, REG_V = 68, REG_Q = 100, NREGS = 104 };
enum { C_SA0 = 0, C_LC0 = 1, C_SA1 = 2, C_LC1 = 3, C_P3_0 = 4, C_USR = 8 };
#define MAX_WRITERS 8

struct sense {
    int8_t preg;     // predicate the write is conditional on, -1 if unconditional
    bool when_true;
};

struct writes {
    uint8_t count[NREGS];
    struct sense s[NREGS][MAX_WRITERS];
    uint8_t pdef;        // predicates written in time for .new readers (bit n = pn)
    uint8_t plate;       // predicates written late
    uint8_t plate2;      // predicates written late more than once
    bool pexplicit;      // a predicate-register operand is written
    bool usr_implicit;   // an instruction sets USR status bits implicitly
    unsigned vtmp;       // instructions with an HVX .tmp destination (gathers: vtmp)
    bool bad;
};

static bool is_float(const struct hexsim_insn_desc *d)
{
    return d->timing == HX_TC_FP && !(d->flags & HX_F_NOFPU);
}

static bool is_branch(const struct hexsim_insn_desc *d)
{
    return (d->flags & (HX_F_JUMP | HX_F_CALL | HX_F_RETURN)) != 0;
}

static struct sense insn_sense(const struct hexsim_insn_desc *d, const struct hexsim_insn *insn)
{
    struct sense s = { -1, true };
    if (!(d->flags & HX_F_PRED))
        return s;
    s.when_true = !(d->flags & HX_F_PFALSE);
    for (unsigned i = 0; i < d->nops; i++)
        if (d->ops[i].kind == HX_OPK_P && !d->ops[i].written)
            s.preg = (int8_t)insn->op[i];
    if (s.preg < 0 && d->lit_pread)
        s.preg = (int8_t)(__builtin_ctz(d->lit_pread));
    return s;
}

static void note_write(struct writes *w, unsigned reg, struct sense s)
{
    if (w->count[reg] >= MAX_WRITERS) {
        w->bad = true;
        return;
    }
    w->s[reg][w->count[reg]++] = s;
}

static void note_pred(struct writes *w, const struct hexsim_insn_desc *d, unsigned p)
{
    if (d->flags & HX_F_LATEPRED) {
        w->plate2 |= (uint8_t)(w->plate & (1u << p));
        w->plate |= (uint8_t)(1u << p);
    }
    else
        w->pdef |= (uint8_t)(1u << p);
}

// (A write of PC, which the assembler refuses, is not a packet-formation error: the write
// has no effect. decode.h: writes_pc.)
static void note_ctrl(struct writes *w, unsigned c, struct sense s)
{
    if (c == C_P3_0)
        w->pdef |= 0xf;
    note_write(w, REG_C + c, s);
}

static void note_operand_writes(struct writes *w, const struct hexsim_insn_desc *d,
                                const struct hexsim_insn *insn, struct sense s)
{
    uint32_t vwritten = 0;   // vector registers this instruction wrote already (vshuff(Vy,Vx,Rt)
                             // may name one register twice)
    bool tmp = d->timing == HX_TC_CVI_VM_TMP_LD || d->timing == HX_TC_CVI_TMP;
    w->vtmp += tmp || d->timing == HX_TC_CVI_GATHER || d->timing == HX_TC_CVI_GATHER_DV;
    for (unsigned i = 0; i < d->nops; i++) {
        const struct hexsim_operand_desc *o = &d->ops[i];
        uint32_t v = insn->op[i];
        if (!o->written)
            continue;
        switch (o->kind) {
        case HX_OPK_R:
        case HX_OPK_R8:
            note_write(w, REG_R + v, s);
            break;
        case HX_OPK_R16:
            note_write(w, REG_R + hexsim_subreg(v), s);
            break;
        case HX_OPK_RR:
            note_write(w, REG_R + (v & ~1u), s);
            note_write(w, REG_R + (v | 1u), s);
            break;
        case HX_OPK_RR8: {
            unsigned lo = (v & 3) * 2 + ((v & 4) ? 16 : 0);
            note_write(w, REG_R + lo, s);
            note_write(w, REG_R + lo + 1, s);
            break;
        }
        case HX_OPK_P:
            note_pred(w, d, v);
            w->pexplicit = true;
            break;
        case HX_OPK_C:
            note_ctrl(w, v, s);
            break;
        case HX_OPK_CC:
            note_ctrl(w, v, s);
            note_ctrl(w, v + 1, s);
            break;
        case HX_OPK_V:   // (a .tmp destination is no register write)
            if (!tmp && !(vwritten >> (v & 31) & 1))
                note_write(w, REG_V + (v & 31), s);
            vwritten |= 1u << (v & 31);
            break;
        case HX_OPK_VV:
            if (tmp)
                break;
            note_write(w, REG_V + hx_vpair_lo(v), s);
            note_write(w, REG_V + hx_vpair_hi(v), s);
            break;
        case HX_OPK_Q:
            note_write(w, REG_Q + (v & 3), s);
            break;
        default:
            break;
        }
    }
    for (unsigned p = 0; p < 4; p++)
        if (d->lit_pdefs & (1u << p))
            note_pred(w, d, p);
    for (unsigned r = 0; r < 32; r++)
        if (d->implicit_defs & (1u << r))
            note_write(w, REG_R + r, s);
    for (unsigned c = 0; c < 32; c++)
        if (d->implicit_cdefs & (1u << c))
            note_ctrl(w, c, s);
    if (d->flags & HX_F_CALL)
        note_write(w, REG_R + 31, s);   // the link register
    if (d->flags & HX_F_USR)
        w->usr_implicit = true;
}

// Several writers of one register: all conditional, no two on the same predicate and sense,
// and a complementary pair only as the only two writers.
static bool writers_ok(const struct sense *s, unsigned n)
{
    if (n <= 1)
        return true;
    bool complementary = false;
    for (unsigned i = 0; i < n; i++) {
        if (s[i].preg < 0)
            return false;
        for (unsigned j = i + 1; j < n; j++) {
            if (s[i].preg != s[j].preg)
                continue;
            if (s[i].when_true == s[j].when_true)
                return false;
            complementary = true;
        }
    }
    return !complementary || n == 2;
}

static int registers_rule(const struct hexsim_packet *pkt)
{
    struct writes w;
    memset(&w, 0, sizeof w);
    const struct sense always = { -1, true };
    if (pkt->endloop & 1) {
        note_write(&w, REG_C + C_SA0, always);
        note_write(&w, REG_C + C_LC0, always);
    }
    if (pkt->endloop & 2) {
        note_write(&w, REG_C + C_SA1, always);
        note_write(&w, REG_C + C_LC1, always);
    }
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        note_operand_writes(&w, d, &pkt->insn[i], insn_sense(d, &pkt->insn[i]));
    }
    if (w.vtmp > 1)
        return RULE_HVX_TMP;
    if (w.bad)
        return RULE_WRITES;
    for (unsigned r = 0; r < NREGS; r++)
        if (!writers_ok(w.s[r], w.count[r]))
            return RULE_WRITES;
    bool p3_0 = w.count[REG_C + C_P3_0] != 0;
    if (p3_0 && w.pexplicit)
        return RULE_P3_0;
    if (w.usr_implicit && w.count[REG_C + C_USR])
        return RULE_USR;
    if ((w.plate & w.pdef) || w.plate2)
        return RULE_LATE_PRED;
    // .new predicate readers
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        unsigned need = d->lit_pnew & ~d->lit_pdefs;
        for (unsigned k = 0; k < d->nops; k++)
            if (d->ops[k].pnew)
                need |= 1u << pkt->insn[i].op[k];
        if (need && (p3_0 || (need & ~w.pdef) || (need & w.plate)))
            return RULE_PRED_NEW;
    }
    return RULE_OK;
}

// An instruction that accumulates into its Vx32 operand: `Vx32.w += ...`, `Vx32 |= ...`,
// `if (Qv4) Vx32.b += ...` (llvm-mc-16 does not count the `-=` forms).
static bool accumulates(const struct hexsim_insn_desc *d)
{
    return strstr(d->syntax, "+=") || strstr(d->syntax, "|=");
}

// The register a .tmp load loads is not accumulated into by another instruction of its packet.
static int tmp_loads_rule(const struct hexsim_packet *pkt)
{
    uint32_t tmp = 0, acc = 0;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        bool is_tmp = d->timing == HX_TC_CVI_VM_TMP_LD, is_acc = accumulates(d);
        if (!is_tmp && !is_acc)
            continue;
        for (unsigned k = 0; k < d->nops; k++) {
            const struct hexsim_operand_desc *o = &d->ops[k];
            if (o->kind == HX_OPK_V && o->written && (is_tmp || o->name[1] == 'x'))
                *(is_tmp ? &tmp : &acc) |= 1u << (pkt->insn[i].op[k] & 31);
        }
    }
    return tmp & acc ? RULE_HVX_TMP_ACC : RULE_OK;
}

static int new_values_rule(const struct hexsim_packet *pkt)
{
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (!(d->flags & HX_F_NEWVALUE))
            continue;
        // The decoder found the producer (PRM 10.11); here only its predication matters.
        if (insn->producer >= i)
            return RULE_NEW_VALUE;
        const struct hexsim_insn *p = &pkt->insn[insn->producer];
        const struct hexsim_insn_desc *pd = &hexsim_isa_table[p->tag];
        struct sense ps = insn_sense(pd, p), cs = insn_sense(d, insn);
        if (d->flags & HX_F_JUMP) {   // new-value jump: no predicated producer
            if (ps.preg >= 0 || is_float(pd))
                return RULE_NEW_VALUE;
        } else if (ps.preg >= 0 && (ps.preg != cs.preg || ps.when_true != cs.when_true)) {
            return RULE_NEW_VALUE;
        }
    }
    return RULE_OK;
}

// Solo instructions, solo-AX instructions and the branch rules.
static int grouping_rule(const struct hexsim_packet *pkt)
{
    unsigned entries = 0, nbranch = 0;
    int soloax = -1;
    bool solo = false;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        entries += insn->part != 2;   // a duplex is one entry
        solo |= (d->flags & HX_F_SOLO) != 0;
        if (d->flags & HX_F_SOLOAX)
            soloax = (int)i;
        if (!is_branch(d))
            continue;
        if (pkt->endloop)
            return RULE_BRANCHES;
        nbranch++;
    }
    if (solo && entries > 1)
        return RULE_SOLO;
    if (nbranch > 2)
        return RULE_BRANCHES;
    unsigned j = 0;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (soloax >= 0 && (int)i != soloax && d->cls != HX_CLASS_EXT && d->cls != HX_CLASS_ALU32 &&
            d->cls != HX_CLASS_SUBA && !(d->cls == HX_CLASS_XTYPE && !is_float(d)))
            return RULE_SOLO_AX;
        if (!is_branch(d))
            continue;
        if (nbranch > 1 && ((d->flags & HX_F_COFONLY) || ((d->flags & HX_F_COFSECOND) && j == 0)))
            return RULE_BRANCHES;
        j++;
    }
    return RULE_OK;
}

// HVX units (bit 0 xlane/permute, 1 shift, 2 multiply 0, 3 multiply 1) of an HVX
// instruction: it takes `lanes` neighbouring units starting at one of the bits of the returned
// mask (0: none).
enum { U_XLANE = 1, U_SHIFT = 2, U_MPY0 = 4, U_MPY1 = 8, U_ANY = 0xf };

static unsigned hvx_units(const struct hexsim_insn_desc *d, unsigned *lanes)
{
    *lanes = 1;
    switch (d->timing) {
    case HX_TC_CVI_VA:
    case HX_TC_CVI_VM_LD:
    case HX_TC_CVI_VM_CUR_LD:
    case HX_TC_CVI_GATHER:
    case HX_TC_CVI_SCATTER:
        return U_ANY;
    case HX_TC_CVI_VM_ST: {
        // a store of a vector takes a unit; a scatter release, which stores none, takes none
        for (unsigned i = 0; i < d->nops; i++)
            if (d->ops[i].kind == HX_OPK_V)
                return U_ANY;
        return 0;
    }
    case HX_TC_CVI_VA_DV:
    case HX_TC_CVI_GATHER_DV:
    case HX_TC_CVI_SCATTER_DV:
        *lanes = 2;
        return U_XLANE | U_MPY0;   // xlane and shift, or both multiplies
    case HX_TC_CVI_VX:
    case HX_TC_CVI_VX_LATE:
        return U_MPY0 | U_MPY1;
    case HX_TC_CVI_VX_DV:
        *lanes = 2;
        return U_MPY0;
    case HX_TC_CVI_VP:
    case HX_TC_CVI_VM_VP_LDU:
    case HX_TC_CVI_VM_STU:
        return U_XLANE;
    case HX_TC_CVI_VP_VS:
        *lanes = 2;
        return U_XLANE;
    case HX_TC_CVI_VS:
        return U_SHIFT;
    case HX_TC_CVI_VS_VX:
        return U_XLANE | U_SHIFT;
    case HX_TC_CVI_HIST:
        *lanes = 4;
        return U_XLANE;
    default:   // .tmp loads, new-value stores, the .tmp vassign/vcombine, vextract (alone in
               // its packet), scalar rows
        return 0;
    }
}

// Shares out the HVX units: instruction i takes lanes[i] neighbouring units from one of the
// bits of units[i]. Small enough for exhaustive search.
static bool hvx_assign(const uint8_t *units, const uint8_t *lanes, unsigned n, unsigned i,
                       unsigned used)
{
    if (i == n)
        return true;
    for (unsigned b = 1; b <= U_MPY1; b <<= 1) {
        if (!(units[i] & b))
            continue;
        unsigned take = b * ((1u << lanes[i]) - 1);
        if (take <= U_ANY && !(take & used) && hvx_assign(units, lanes, n, i + 1, used | take))
            return true;
    }
    return false;
}

// Slot assignment: each instruction takes one of its allowed slots. Small enough for
// exhaustive search.
static bool assign(const uint8_t *masks, unsigned n, unsigned i, unsigned used)
{
    if (i == n)
        return true;
    for (unsigned s = 0; s < 4; s++)
        if ((masks[i] & (1u << s)) && !(used & (1u << s)) && assign(masks, n, i + 1, used | (1u << s)))
            return true;
    return false;
}

// The slot facts of a packet's instructions (constant extenders left out).
struct slotting {
    uint8_t masks[HX_PACKET_MAX_INSNS];   // the slots each may take
    const struct hexsim_insn_desc *desc[HX_PACKET_MAX_INSNS];
    bool part[HX_PACKET_MAX_INSNS];       // a duplex half
    unsigned n, loads, stores, memops, memory, store0;
    unsigned branch[2], nbranch;
    bool slot1alu, noslot1st;
};

// Gives each instruction a slot after the packet's slot restrictions (noslot1: a vmemu
// leaves slot 1 empty). t is a copy.
static int slots_rule(struct slotting t, bool noslot1)
{
    uint8_t *masks = t.masks;
    unsigned n = t.n;
    for (unsigned i = 0; i < n; i++) {
        if (noslot1)
            masks[i] &= (uint8_t)~0x2;
        if (t.part[i])
            continue;
        if (t.slot1alu && t.desc[i]->cls != HX_CLASS_ALU32)
            masks[i] &= (uint8_t)~0x2;
        if (t.noslot1st && (t.desc[i]->flags & HX_F_STORE))
            masks[i] &= (uint8_t)~0x2;
    }
    // Where loads and stores go (in packet order).
    unsigned next = 0x2;   // the slot the next pinned store takes
    for (unsigned i = 0; i < n; i++) {
        const struct hexsim_insn_desc *d = t.desc[i];
        if (t.part[i])
            continue;
        if (!masks[i])
            return RULE_SLOTS;
        if (d->flags & HX_F_HVX)
            continue;
        if ((d->flags & HX_F_LOAD) && t.loads == 1 && t.memory == 1 && t.memops == 0)
            masks[i] &= 0x1;
        if (!(d->flags & HX_F_STORE))
            continue;
        if (t.memops && t.stores > 1)
            return RULE_MEMOP;
        if (t.store0)
            continue;
        bool other_slot0_only = false;
        for (unsigned k = 0; k < n; k++)
            if (masks[k] == 0x1 && t.desc[k] != d)
                other_slot0_only = true;
        if (t.stores == 1 && (t.loads == 0 || !other_slot0_only)) {
            masks[i] &= 0x1;
        } else {
            if (!next)
                return RULE_SLOTS;
            masks[i] &= (uint8_t)next;
            next >>= 1;
        }
    }
    if (t.nbranch < 2)
        return assign(masks, n, 0, 0) ? RULE_OK : RULE_SLOTS;
    // Two branches: the first in a higher slot than the second.
    static const uint8_t pairs[6][2] = {
        { 8, 4 }, { 8, 2 }, { 8, 1 }, { 4, 2 }, { 4, 1 }, { 2, 1 },
    };
    uint8_t m0 = masks[t.branch[0]], m1 = masks[t.branch[1]];
    for (unsigned k = 0; k < 6; k++) {
        if (!(pairs[k][0] & m0) || !(pairs[k][1] & m1))
            continue;
        masks[t.branch[0]] = pairs[k][0];
        masks[t.branch[1]] = pairs[k][1];
        if (assign(masks, n, 0, 0))
            return RULE_OK;
    }
    return RULE_SLOTS;
}

static int resources_rule(const struct hexsim_packet *pkt, unsigned arch)
{
    struct slotting t;
    memset(&t, 0, sizeof t);
    unsigned load0 = 0;
    uint8_t units[HX_PACKET_MAX_INSNS], lanes[HX_PACKET_MAX_INSNS];
    uint8_t free_masks[HX_PACKET_MAX_INSNS];   // the masks without the vmemu restrictions
    unsigned nhvx = 0, vloads = 0, vstores = 0, vmemu_st = 0;
    bool duplex = false, noslot1 = false;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (d->cls == HX_CLASS_EXT)
            continue;
        if (t.n == 4)
            return RULE_SLOT_COUNT;
        unsigned n = t.n++;
        t.desc[n] = d;
        t.part[n] = insn->part != 0;
        if (is_branch(d) && t.nbranch < 2)
            t.branch[t.nbranch++] = n;
        if (insn->part) {   // duplex halves: high one slot 1, low one slot 0
            t.masks[n] = free_masks[n] = insn->part == 1 ? 0x2 : 0x1;
            duplex = true;
            continue;
        }
        unsigned m = hexsim_insn_slots(d, arch);
        t.masks[n] = free_masks[n] = (uint8_t)m;
        bool hvx = (d->flags & HX_F_HVX) != 0;   // (vector memory: counted, narrowed below)
        if (hvx) {
            unsigned l, u = hvx_units(d, &l);
            if (u) {
                units[nhvx] = (uint8_t)u;
                lanes[nhvx++] = (uint8_t)l;
            }
            vloads += (d->flags & HX_F_LOAD) != 0;
            vstores += (d->flags & HX_F_STORE) != 0;
            if (d->timing == HX_TC_CVI_VM_VP_LDU || d->timing == HX_TC_CVI_VM_STU) {
                t.masks[n] &= 0x1;   // vmemu: slot 0, and slot 1 stays empty
                noslot1 = true;
                load0 += d->timing == HX_TC_CVI_VM_VP_LDU;
                t.store0 += d->timing == HX_TC_CVI_VM_STU;
                vmemu_st += d->timing == HX_TC_CVI_VM_STU;
            }
        }
        t.slot1alu |= (d->flags & HX_F_SLOT1ALU) != 0;
        t.noslot1st |= (d->flags & HX_F_NOSLOT1ST) != 0;
        bool nv_jump = d->cls == HX_CLASS_NV && (d->flags & HX_F_JUMP);
        if ((d->flags & (HX_F_LOAD | HX_F_STORE)) || nv_jump)   // a new-value jump counts
            t.memory++;
        if (d->flags & HX_F_LOAD) {
            t.loads++;
            load0 += !hvx && !(d->flags & HX_F_MEMOP) && m == 0x1;
        }
        if (d->flags & HX_F_STORE) {
            t.stores++;
            t.store0 += !hvx && !(d->flags & HX_F_MEMOP) && m == 0x1;
        }
        t.memops += (d->flags & HX_F_MEMOP) != 0;
    }
    if (vloads > 1)
        return RULE_HVX_VLOADS;
    if (vstores > 1)
        return RULE_HVX_VSTORES;
    if (load0 > 1 || t.store0 > 1)
        return RULE_SLOT0_MEM;
    if (duplex && t.memory)
        return RULE_DUPLEX_MEM;
    if (!hvx_assign(units, lanes, nhvx, 0, 0))
        return RULE_HVX_UNITS;
    int rule = slots_rule(t, noslot1);
    if (rule == RULE_SLOTS && noslot1) {
        // one that could be slotted but for vmemu's slot 0 and empty slot 1 breaks that rule
        memcpy(t.masks, free_masks, sizeof t.masks);
        t.store0 -= vmemu_st;
        if (slots_rule(t, false) == RULE_OK)
            return RULE_HVX_VMEMU;
    }
    return rule;
}

int hexsim_check_packet(const struct hexsim_packet *pkt, unsigned arch)
{
    int rule = registers_rule(pkt);
    if (!rule)
        rule = tmp_loads_rule(pkt);
    if (!rule)
        rule = new_values_rule(pkt);
    if (!rule)
        rule = grouping_rule(pkt);
    if (!rule)
        rule = resources_rule(pkt, arch);
    return rule;
}
