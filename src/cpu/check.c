// SPDX-License-Identifier: MIT
// Packet-formation rules (PRM section 3.3 "Packets", 10.9-10.11, and the resource rules of
// chapter 3), as llvm-objdump-16 enforces them when it accepts a packet:
//  - a register other than a predicate is written by at most one instruction, unless the
//    writers are predicated on the same predicate with opposite senses; several writes of
//    a predicate register are allowed (they are ANDed); PC is never written explicitly;
//  - a .new predicate is read only when an instruction in the packet writes it;
//  - a new-value operand's producer is unpredicated, or predicated exactly as the consumer;
//    a new-value jump takes no floating-point or predicated producer;
//  - at most four slots are used (a duplex takes two, a constant extender none), every
//    instruction gets a slot it may issue in, at most two memory accesses, and a memop or
//    new-value store is the only store;
//  - at most two branches, and of two the first is conditional; a call writes r31;
//  - a packet that ends a hardware loop holds no branch and no loop set-up.
#include "check.h"

#include <string.h>

#include "decode.h"
#include "regnames.h"

// Register numbering for the write map: r0-r31, p0-p3, control registers c0-c31.
enum { REG_R = 0, REG_P = 32, REG_C = 36, NREGS = 68 };

struct sense {
    int8_t preg;     // predicate the write is conditional on, -1 if unconditional
    bool when_true;
};

struct writes {
    unsigned count[NREGS];
    struct sense first[NREGS];
    bool pwritten[4];
    bool bad;
};

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
    if (reg >= REG_P && reg < REG_C) {
        w->pwritten[reg - REG_P] = true;
        return;
    }
    if (w->count[reg]++ == 0) {
        w->first[reg] = s;
        return;
    }
    // A second write is legal only when both are conditional on one predicate, with
    // opposite senses, and it is the only other write.
    struct sense f = w->first[reg];
    if (w->count[reg] > 2 || f.preg < 0 || s.preg < 0 || f.preg != s.preg || f.when_true == s.when_true)
        w->bad = true;
}

static void note_ctrl(struct writes *w, unsigned c, struct sense s)
{
    if (c == 9)
        w->bad = true;   // PC is read-only
    else if (c == 4)
        for (unsigned p = 0; p < 4; p++)
            note_write(w, REG_P + p, s);
    else
        note_write(w, REG_C + c, s);
}

static void note_operand_writes(struct writes *w, const struct hexsim_insn_desc *d,
                                const struct hexsim_insn *insn, struct sense s)
{
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
            note_write(w, REG_P + v, s);
            break;
        case HX_OPK_C:
            note_ctrl(w, v, s);
            break;
        case HX_OPK_CC:
            note_ctrl(w, v, s);
            note_ctrl(w, v + 1, s);
            break;
        default:
            break;
        }
    }
    for (unsigned p = 0; p < 4; p++)
        if (d->lit_pdefs & (1u << p))
            note_write(w, REG_P + p, s);
    for (unsigned r = 0; r < 32; r++)
        if (d->implicit_defs & (1u << r))
            note_write(w, REG_R + r, s);
    if (d->flags & HX_F_CALL)
        note_write(w, REG_R + 31, s);   // the link register
}

static bool new_predicates_defined(const struct hexsim_packet *pkt, const struct writes *w)
{
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        unsigned need = d->lit_pnew & ~d->lit_pdefs;
        for (unsigned k = 0; k < d->nops; k++)
            if (d->ops[k].pnew)
                need |= 1u << pkt->insn[i].op[k];
        for (unsigned p = 0; p < 4; p++)
            if ((need & (1u << p)) && !w->pwritten[p])
                return false;
    }
    return true;
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
            if (ps.preg >= 0 || pd->timing == HX_TC_FP)
                return false;
        } else if (ps.preg >= 0 && (ps.preg != cs.preg || ps.when_true != cs.when_true)) {
            return false;
        }
    }
    return true;
}

// Slot assignment: each instruction takes one of its allowed slots (duplex halves: high
// slot 1, low slot 0; extenders none). Small enough for exhaustive search.
static bool assign(const uint8_t *masks, unsigned n, unsigned i, unsigned used)
{
    if (i == n)
        return true;
    for (unsigned s = 0; s < 4; s++)
        if ((masks[i] & (1u << s)) && !(used & (1u << s)) && assign(masks, n, i + 1, used | (1u << s)))
            return true;
    return false;
}

static bool resources_ok(const struct hexsim_packet *pkt)
{
    uint8_t masks[HX_PACKET_MAX_INSNS];
    unsigned n = 0, mem = 0, branches = 0, stores = 0;
    bool first_branch_conditional = false, alone_store = false;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *insn = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[insn->tag];
        if (insn->tag == HX_A4_ext)
            continue;
        if (d->flags & (HX_F_LOAD | HX_F_STORE))
            mem++;
        if (d->flags & HX_F_STORE) {
            stores++;
            // a memop or a new-value store is the packet's only store
            if (d->flags & (HX_F_MEMOP | HX_F_NEWVALUE))
                alone_store = true;
        }
        if ((d->flags & (HX_F_JUMP | HX_F_CALL)) && branches++ == 0)
            first_branch_conditional = (d->flags & HX_F_PRED) != 0;
        masks[n++] = insn->part == 1 ? 0x2 : insn->part == 2 ? 0x1 : d->slots;
    }
    // Two branches only as "if (p) jump a; jump b": the first one conditional.
    if (n > 4 || mem > 2 || branches > 2 || (branches == 2 && !first_branch_conditional) ||
        (alone_store && stores > 1))
        return false;
    return assign(masks, n, 0, 0);
}

bool hexsim_check_packet(const struct hexsim_packet *pkt)
{
    struct writes w;
    memset(&w, 0, sizeof w);
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        note_operand_writes(&w, d, &pkt->insn[i], insn_sense(d, &pkt->insn[i]));
        if (pkt->endloop && (d->flags & (HX_F_JUMP | HX_F_CALL | HX_F_HWLOOP)))
            return false;
    }
    return !w.bad && new_predicates_defined(pkt, &w) && new_values_valid(pkt) && resources_ok(pkt);
}
