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

static bool registers_ok(const struct hexsim_packet *pkt)
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
    if (w.bad || w.vtmp > 1)
        return false;
    for (unsigned r = 0; r < NREGS; r++)
        if (!writers_ok(w.s[r], w.count[r]))
            return false;
    bool p3_0 = w.count[REG_C + C_P3_0] != 0;
    if ((p3_0 && w.pexplicit) || (w.usr_implicit && w.count[REG_C + C_USR]) ||
        (w.plate & w.pdef) || w.plate2)
        return false;
    // .new predicate readers
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        unsigned need = d->lit_pnew & ~d->lit_pdefs;
        for (unsigned k = 0; k < d->nops; k++)
            if (d->ops[k].pnew)
                need |= 1u << pkt->insn[i].op[k];
        if (need && (p3_0 || (need & ~w.pdef) || (need & w.plate)))
            return false;
    }
    return true;
}

// An instruction that accumulates into its Vx32 operand: `Vx32.w += ...`, `Vx32 |= ...`,
// `if (Qv4) Vx32.b += ...` (llvm-mc-16 does not count the `-=` forms).
static bool accumulates(const struct hexsim_insn_desc *d)
{
    return strstr(d->syntax, "+=") || strstr(d->syntax, "|=");
}

// The register a .tmp load loads is not accumulated into by another instruction of its packet.
static bool tmp_loads_ok(const struct hexsim_packet *pkt)
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
    return !(tmp & acc);
}

static bool new_values_valid(const struct hexsim_packet *pkt)
{
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (!(d->flags & HX_F_NEWVALUE))
            continue;
        // The decoder found the producer (PRM 10.11); here only its predication matters.
        if (insn->producer >= i)
            return false;
        const struct hexsim_insn *p = &pkt->insn[insn->producer];
        const struct hexsim_insn_desc *pd = &hexsim_isa_table[p->tag];
        struct sense ps = insn_sense(pd, p), cs = insn_sense(d, insn);
        if (d->flags & HX_F_JUMP) {   // new-value jump: no predicated producer
            if (ps.preg >= 0 || is_float(pd))
                return false;
        } else if (ps.preg >= 0 && (ps.preg != cs.preg || ps.when_true != cs.when_true)) {
            return false;
        }
    }
    return true;
}

// Solo instructions, solo-AX instructions and the branch rules.
static bool grouping_ok(const struct hexsim_packet *pkt)
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
            return false;
        nbranch++;
    }
    if ((solo && entries > 1) || nbranch > 2)
        return false;
    unsigned j = 0;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (soloax >= 0 && (int)i != soloax && d->cls != HX_CLASS_EXT && d->cls != HX_CLASS_ALU32 &&
            d->cls != HX_CLASS_SUBA && !(d->cls == HX_CLASS_XTYPE && !is_float(d)))
            return false;
        if (!is_branch(d))
            continue;
        if (nbranch > 1 && ((d->flags & HX_F_COFONLY) || ((d->flags & HX_F_COFSECOND) && j == 0)))
            return false;
        j++;
    }
    return true;
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

static bool resources_ok(const struct hexsim_packet *pkt, unsigned arch)
{
    uint8_t masks[HX_PACKET_MAX_INSNS];
    const struct hexsim_insn_desc *desc[HX_PACKET_MAX_INSNS];
    bool part[HX_PACKET_MAX_INSNS];
    unsigned n = 0, loads = 0, stores = 0, memops = 0, memory = 0, load0 = 0, store0 = 0;
    unsigned branch[2], nbranch = 0;
    uint8_t units[HX_PACKET_MAX_INSNS], lanes[HX_PACKET_MAX_INSNS];
    unsigned nhvx = 0, vloads = 0, vstores = 0;
    bool duplex = false, slot1alu = false, noslot1st = false, noslot1 = false;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (d->cls == HX_CLASS_EXT)
            continue;
        if (n == 4)
            return false;
        desc[n] = d;
        part[n] = insn->part != 0;
        if (is_branch(d) && nbranch < 2)
            branch[nbranch++] = n;
        if (insn->part) {   // duplex halves: high one slot 1, low one slot 0
            masks[n++] = insn->part == 1 ? 0x2 : 0x1;
            duplex = true;
            continue;
        }
        unsigned m = hexsim_insn_slots(d, arch);
        masks[n++] = (uint8_t)m;
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
                masks[n - 1] &= 0x1;   // vmemu: slot 0, and slot 1 stays empty
                noslot1 = true;
                load0 += d->timing == HX_TC_CVI_VM_VP_LDU;
                store0 += d->timing == HX_TC_CVI_VM_STU;
            }
        }
        slot1alu |= (d->flags & HX_F_SLOT1ALU) != 0;
        noslot1st |= (d->flags & HX_F_NOSLOT1ST) != 0;
        bool nv_jump = d->cls == HX_CLASS_NV && (d->flags & HX_F_JUMP);
        if ((d->flags & (HX_F_LOAD | HX_F_STORE)) || nv_jump)   // a new-value jump counts
            memory++;
        if (d->flags & HX_F_LOAD) {
            loads++;
            load0 += !hvx && !(d->flags & HX_F_MEMOP) && m == 0x1;
        }
        if (d->flags & HX_F_STORE) {
            stores++;
            store0 += !hvx && !(d->flags & HX_F_MEMOP) && m == 0x1;
        }
        memops += (d->flags & HX_F_MEMOP) != 0;
    }
    if (load0 > 1 || store0 > 1 || (duplex && memory) || vloads > 1 || vstores > 1 ||
        !hvx_assign(units, lanes, nhvx, 0, 0))
        return false;
    for (unsigned i = 0; i < n; i++) {
        if (noslot1)
            masks[i] &= (uint8_t)~0x2;
        if (part[i])
            continue;
        if (slot1alu && desc[i]->cls != HX_CLASS_ALU32)
            masks[i] &= (uint8_t)~0x2;
        if (noslot1st && (desc[i]->flags & HX_F_STORE))
            masks[i] &= (uint8_t)~0x2;
    }
    // Where loads and stores go (in packet order).
    unsigned next = 0x2;   // the slot the next pinned store takes
    for (unsigned i = 0; i < n; i++) {
        const struct hexsim_insn_desc *d = desc[i];
        if (part[i])
            continue;
        if (!masks[i])
            return false;
        if (d->flags & HX_F_HVX)
            continue;
        if ((d->flags & HX_F_LOAD) && loads == 1 && memory == 1 && memops == 0)
            masks[i] &= 0x1;
        if (!(d->flags & HX_F_STORE))
            continue;
        if (memops && stores > 1)
            return false;
        if (store0)
            continue;
        bool other_slot0_only = false;
        for (unsigned k = 0; k < n; k++)
            if (masks[k] == 0x1 && desc[k] != d)
                other_slot0_only = true;
        if (stores == 1 && (loads == 0 || !other_slot0_only)) {
            masks[i] &= 0x1;
        } else {
            if (!next)
                return false;
            masks[i] &= (uint8_t)next;
            next >>= 1;
        }
    }
    if (nbranch < 2)
        return assign(masks, n, 0, 0);
    // Two branches: the first in a higher slot than the second.
    static const uint8_t pairs[6][2] = {
        { 8, 4 }, { 8, 2 }, { 8, 1 }, { 4, 2 }, { 4, 1 }, { 2, 1 },
    };
    uint8_t m0 = masks[branch[0]], m1 = masks[branch[1]];
    for (unsigned k = 0; k < 6; k++) {
        if (!(pairs[k][0] & m0) || !(pairs[k][1] & m1))
            continue;
        masks[branch[0]] = pairs[k][0];
        masks[branch[1]] = pairs[k][1];
        if (assign(masks, n, 0, 0))
            return true;
    }
    return false;
}

bool hexsim_check_packet(const struct hexsim_packet *pkt, unsigned arch)
{
    return registers_ok(pkt) && tmp_loads_ok(pkt) && new_values_valid(pkt) && grouping_ok(pkt) &&
           resources_ok(pkt, arch);
}
