// SPDX-License-Identifier: MIT
// Packet decoder (PRM section 10: instruction encoding). Facts used here:
//  - parse bits 15:14: 11 ends the packet, 01 and 10 continue it, 10 in word 0 marks the end
//    of hardware loop 0 and in word 1 the end of loop 1, 00 makes the word a duplex, which
//    also ends the packet; a packet holds at most four words (10.5, 10.6);
//  - duplex: ICLASS = bits 31:29 and bit 13, high sub-instruction in bits 28:16 (slot 1),
//    low in bits 12:0 (slot 0); a constant extender before a duplex extends the high one (10.3);
//  - immext supplies the upper 26 bits of the next instruction's extendable operand, whose
//    own field then gives the low 6 bits, unscaled (10.9);
//  - a new-value operand Nt[2:1] counts back over the packet's earlier instructions,
//    skipping constant extenders, to the producer; Nt[2:1] = 0 and Nt[0] = 1 are reserved
//    (10.11).
// Every table lookup goes through hexsim_isa_table; there is no other instruction list.
#include "decode.h"

#include "cpu.h"

#include <ctype.h>
#include <stdlib.h>

#include <string.h>

#include "check.h"
#include "regnames.h"

// Decoding a word needs the instructions before it (extenders, new-value producers). A
// run-on packet can be arbitrarily long, so keep a window of recent instructions.
#define WINDOW 16

struct decoder {
    struct hexsim_insn win[WINDOW];
    unsigned count;   // instructions decoded so far
    unsigned arch;    // core (hexsim/arch.h): instructions it lacks do not decode
};

static struct hexsim_insn *recent(struct decoder *d, unsigned back)
{
    return back == 0 || back > d->count || back >= WINDOW ? NULL
                                                         : &d->win[(d->count - back) % WINDOW];
}

// HVX rows decode only on a core with HVX, its IEEE floating-point and qfloat rows only
// with those features too (hexsim/arch.h).
static bool hvx_ok(uint32_t flags, unsigned arch)
{
    if (!(flags & HX_F_HVX))
        return true;
    return (arch & HEXSIM_ARCH_HVX) && (!(flags & HX_F_HVXIEEE) || (arch & HEXSIM_ARCH_HVX_IEEE)) &&
           (!(flags & HX_F_HVXQF) || (arch & HEXSIM_ARCH_HVX_QF));
}

// After a constant extender the extended-only encodings are tried first (they reuse the
// encodings of GP-relative forms, for example); without one they do not exist.
static int match_bucket(const struct hexsim_isa_bucket *b, uint32_t bits, bool extended, unsigned arch)
{
    unsigned version = hexsim_arch_version(arch);
    for (int pass = extended ? 0 : 1; pass < 2; pass++) {
        for (unsigned i = 0; i < b->count; i++) {
            const struct hexsim_insn_desc *desc = &hexsim_isa_table[b->tags[i]];
            bool must = (desc->flags & HX_F_MUSTEXT) != 0;
            if ((bits & desc->mask) == desc->match && must == (pass == 0) &&
                desc->arch <= version && (!desc->until || version <= desc->until) &&
                !(desc->flags & ((arch & HEXSIM_ARCH_TINY) ? HX_F_CABAC : HX_F_AUDIO)) &&
                hvx_ok(desc->flags, arch))
                return b->tags[i];
        }
    }
    return -1;
}

int hexsim_match_word(uint32_t word, bool extended, unsigned arch)
{
    return match_bucket(&hexsim_isa_iclass[word >> 28], word, extended, arch);
}

int hexsim_match_sub(uint32_t bits13, int group, unsigned arch)
{
    if (group < 0 || group >= HX_SUBGROUPS)
        return -1;
    return match_bucket(&hexsim_isa_subgroup[group], bits13 & 0x1fff, true, arch);
}

static uint32_t extract(const struct hexsim_operand_desc *o, uint32_t bits)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < o->nruns; i++)
        v = (v << o->runs[i].len) | ((bits >> o->runs[i].shift) & ((1u << o->runs[i].len) - 1));
    return v;
}

static uint32_t immext_value(const struct hexsim_insn *ext)
{
    return ext->op[0];
}

// Fills in operands of insn (tag already set) from the encoding bits.
static int decode_operands(struct hexsim_insn *insn, uint32_t bits, const struct hexsim_insn *ext,
                           unsigned arch)
{
    const struct hexsim_insn_desc *desc = &hexsim_isa_table[insn->tag];
    for (unsigned i = 0; i < desc->nops; i++) {
        const struct hexsim_operand_desc *o = &desc->ops[i];
        uint32_t raw = extract(o, bits);
        if (o->kind != HX_OPK_IMM) {
            if (o->kind != HX_OPK_N && o->kind != HX_OPK_OV && hexsim_reg_name(o->kind, raw, NULL, 0))
                return HX_DECODE_BAD_REGISTER;
            // the reversed vector pairs (odd fields) exist from V67 on, as llvm-objdump-16
            // decodes them
            if (o->kind == HX_OPK_VV && (raw & 1) && hexsim_arch_version(arch) < 67)
                return HX_DECODE_BAD_REGISTER;
            insn->op[i] = raw;
            continue;
        }
        uint32_t v = raw;
        if (o->is_signed && o->nbits < 32 && (raw >> (o->nbits - 1)) & 1)
            v |= ~0u << o->nbits;
        insn->op[i] = v << o->scale;
        if ((int)i == desc->ext_op) {
            insn->unextended = insn->op[i];
            if (ext) {
                insn->op[i] = immext_value(ext) | (raw & 0x3f);
                insn->extended = true;
            }
        }
    }
    return HX_DECODE_OK;
}

static int new_value_operand(const struct hexsim_insn_desc *desc)
{
    for (unsigned i = 0; i < desc->nops; i++)
        if (desc->ops[i].kind == HX_OPK_N || desc->ops[i].kind == HX_OPK_OV)
            return (int)i;
    return -1;
}

// The vector register an HVX new-value operand (Os8) names. Its bits 2:1 count back over the
// packet's HVX instructions to the producer (resolve_new_value); bit 0 picks one of the two
// registers a producer may write. Source: LLVM's Hexagon disassembler
// (Disassembler/HexagonDisassembler.cpp, getSingleInstruction) with its instruction
// definitions (HexagonDepInstrInfo.td); the PRMs do not spell this out:
// - vdeal/vshuff(Vy,Vx,Rt) write two registers (hasNewValue2: opNewValue is Vy,
//   opNewValue2 Vx): bit 0 set names Vy, clear names Vx;
// - a pair: bit 0 set names its high register, the one written first (v1 of v1:0, v0 of the
//   reversed v0:1), clear the low one (LLVM pull request 75873, "Flip subreg bit for reverse
//   pairs hvx .new": llvm-mc-16 and llvm-objdump-16 predate it and take bit 0 as the odd
//   register of a reversed pair);
// - one register (bit 0 is reserved): that register; a vgather: HX_VTMP (vtmp only);
// - of a `.tmp` producer (HX_F_VTMP: a .tmp load, the V69 .tmp vassign/vcombine) the
//   register is marked HX_VNEW_TMP: the store takes the temporary, not what another
//   instruction of the packet may write to that register.
// -1: the producer writes no vector register.
static int vector_new_value(const struct hexsim_insn *producer, uint32_t field)
{
    const struct hexsim_insn_desc *pd = &hexsim_isa_table[producer->tag];
    if (pd->timing == HX_TC_CVI_GATHER || pd->timing == HX_TC_CVI_GATHER_DV)
        return (int)HX_VTMP;   // (a gather writes vtmp only)
    int first = -1, second = -1;
    for (unsigned i = 0; i < pd->nops; i++) {
        const struct hexsim_operand_desc *o = &pd->ops[i];
        if (!o->written)
            continue;
        if (o->kind == HX_OPK_VV) {
            uint32_t n = producer->op[i];
            first = (int)hx_vpair_hi(n);
            second = (int)hx_vpair_lo(n);
            break;
        }
        if (o->kind != HX_OPK_V)
            continue;
        if (first < 0)
            first = (int)producer->op[i];
        else
            second = (int)producer->op[i];
    }
    if (first < 0)
        return -1;
    int reg = (second >= 0 && !(field & 1)) ? second : first;
    return (pd->flags & HX_F_VTMP) ? reg | (int)HX_VNEW_TMP : reg;
}

// Replaces a new-value operand's field by the register its producer writes.
static int resolve_new_value(struct decoder *d, struct hexsim_insn *insn)
{
    const struct hexsim_insn_desc *desc = &hexsim_isa_table[insn->tag];
    int n = new_value_operand(desc);
    if (n < 0)
        return HX_DECODE_OK;
    uint32_t field = insn->op[n];
    bool vector = desc->ops[n].kind == HX_OPK_OV;
    if ((field & 6) == 0 || ((field & 1) && !vector))
        return HX_DECODE_BAD_NEWVALUE;
    unsigned lookback = (field >> 1) & 3;
    const struct hexsim_insn *producer = NULL;
    unsigned back;
    for (back = 1;; back++) {
        producer = recent(d, back);
        if (!producer)
            return HX_DECODE_BAD_NEWVALUE;
        // (an HVX new-value operand counts HVX instructions only, as llvm-objdump-16 does)
        if (producer->tag == HX_A4_ext ||
            (vector && !(hexsim_isa_table[producer->tag].flags & HX_F_HVX)))
            lookback++;
        if (back == lookback)
            break;
    }
    if (producer->part != 0)
        return HX_DECODE_BAD_NEWVALUE;   // a duplex produces no new value
    if (vector) {
        int reg = vector_new_value(producer, field);
        if (reg < 0)
            return HX_DECODE_BAD_NEWVALUE;
        insn->producer = (uint8_t)((d->count - back) & 0xff);
        insn->op[n] = (uint32_t)reg;
        return HX_DECODE_OK;
    }
    const struct hexsim_insn_desc *pd = &hexsim_isa_table[producer->tag];
    if (pd->nv_def < 0)
        return HX_DECODE_BAD_NEWVALUE;
    insn->producer = (uint8_t)((d->count - back) & 0xff);
    uint32_t reg = producer->op[pd->nv_def];
    insn->op[n] = pd->ops[pd->nv_def].kind == HX_OPK_R16 ? hexsim_subreg(reg) : reg;
    return HX_DECODE_OK;
}

static struct hexsim_insn *push(struct decoder *d)
{
    struct hexsim_insn *insn = &d->win[d->count % WINDOW];
    memset(insn, 0, sizeof *insn);
    d->count++;
    return insn;
}

static int decode_duplex(struct decoder *d, uint32_t word, unsigned w, const struct hexsim_insn *ext)
{
    unsigned iclass = ((word >> 28) & 0xe) | ((word >> 13) & 1);
    int hi_group = hexsim_isa_duplex[iclass][0], lo_group = hexsim_isa_duplex[iclass][1];
    if (hi_group < 0)
        return HX_DECODE_UNKNOWN;
    int lo = hexsim_match_sub(word, lo_group, d->arch);
    if (lo < 0)
        return HX_DECODE_UNKNOWN;
    struct hexsim_insn low = { .tag = (uint16_t)lo, .word = (uint8_t)w, .part = 2 };
    int st = decode_operands(&low, word & 0x1fff, NULL, d->arch);
    if (st)
        return st;
    int hi = hexsim_match_sub(word >> 16, hi_group, d->arch);
    if (hi < 0)
        return HX_DECODE_UNKNOWN;
    struct hexsim_insn high = { .tag = (uint16_t)hi, .word = (uint8_t)w, .part = 1 };
    st = decode_operands(&high, (word >> 16) & 0x1fff, ext, d->arch);
    if (st)
        return st;
    if (ext && hexsim_isa_table[hi].ext_op < 0)
        return HX_DECODE_BAD_EXTENDER;
    *push(d) = high;
    *push(d) = low;
    return HX_DECODE_OK;
}

static int decode_normal(struct decoder *d, uint32_t word, unsigned w, const struct hexsim_insn *ext)
{
    int tag = hexsim_match_word(word, ext != NULL, d->arch);
    if (tag < 0)
        return HX_DECODE_UNKNOWN;
    struct hexsim_insn insn = { .tag = (uint16_t)tag, .word = (uint8_t)w };
    int st = decode_operands(&insn, word, ext, d->arch);
    if (st)
        return st;
    st = resolve_new_value(d, &insn);
    if (st)
        return st;
    if (ext && hexsim_isa_table[tag].ext_op < 0)
        return HX_DECODE_BAD_EXTENDER;
    *push(d) = insn;
    return HX_DECODE_OK;
}

uint32_t hexsim_operand_regs(const struct hexsim_operand_desc *o, uint32_t raw)
{
    switch (o->kind) {
    case HX_OPK_R: return 1u << (raw & 31);
    case HX_OPK_RR: return 3u << (raw & 30);
    case HX_OPK_R16: return 1u << (hexsim_subreg(raw) & 31);
    case HX_OPK_RR8: return 3u << ((raw & 3u) * 2 + ((raw & 4u) ? 16u : 0u));
    case HX_OPK_R8: return 1u << (raw & 7);
    default: return 0;
    }
}

uint32_t hexsim_literal_regs(const char *syntax)
{
    // operands are bytes 1..6 in the syntax (isa.h), so an 'r' and digits after something
    // that is not a letter, digit or '_' is a register named literally ("jumpr r31",
    // "memw(r29+#Ii)", "r31:30")
    uint32_t m = 0;
    for (const char *s = syntax; *s; s++) {
        if (*s != 'r' || !isdigit((unsigned char)s[1]) ||
            (s > syntax && (isalnum((unsigned char)s[-1]) || s[-1] == '_')))
            continue;
        char *end;
        unsigned long n = strtoul(s + 1, &end, 10);
        if (n < 32)
            m |= 1u << n;
        if (*end == ':' && isdigit((unsigned char)end[1])) {
            n = strtoul(end + 1, &end, 10);
            if (n < 32)
                m |= 1u << n;
        }
        s = end - 1;
    }
    return m;
}

void hexsim_insn_regs(const struct hexsim_insn *in, uint32_t *rd, uint32_t *wr)
{
    const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
    *rd = hexsim_literal_regs(d->syntax);   // "add(r29,#Ii)" reads r29
    *wr = 0;
    for (unsigned i = 0; i < d->nops; i++) {
        const struct hexsim_operand_desc *o = &d->ops[i];
        uint32_t m = hexsim_operand_regs(o, in->op[i]);
        if (!o->written || o->name[1] == 'x' || o->name[1] == 'y')
            *rd |= m;
        if (o->written)
            *wr |= m;
    }
}

// Whether the packet's general-register writes can go straight to the registers instead of
// being staged: every instruction is a plain ALU32/XTYPE computation with semantics or a
// jump (no memory, calls, returns, hardware loops, traps, .new operands or implicit writes:
// nothing can fault or read a value of this packet), and in execution order no instruction
// reads a register an earlier one writes. (Each semantic function reads its operands before
// it writes.) *jumps: whether there is a jump.
static bool can_write_direct(const struct hexsim_packet *pkt, bool *jumps)
{
    const uint32_t bad = HX_F_LOAD | HX_F_STORE | HX_F_MEMOP | HX_F_NEWVALUE | HX_F_CALL |
                         HX_F_HWLOOP | HX_F_RETURN | HX_F_PRIV | HX_F_GUEST | HX_F_TRAP;
    uint32_t written = 0;
    *jumps = false;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        bool jump = (d->flags & HX_F_JUMP) && (d->cls == HX_CLASS_J || d->cls == HX_CLASS_JR);
        *jumps |= jump;
        if (in->fn == hexsim_sem_unimplemented || (d->flags & bad) || d->implicit_defs ||
            d->implicit_cdefs ||
            (!jump && d->cls != HX_CLASS_ALU32 && d->cls != HX_CLASS_XTYPE &&
             d->cls != HX_CLASS_SUBA))
            return false;
        uint32_t rd, wr;
        hexsim_insn_regs(in, &rd, &wr);
        if (rd & written)
            return false;
        written |= wr;
    }
    return true;
}

// Whether the packet's store may write memory when it executes instead of at the commit
// (exec.h): its first store or memop in execution order is a plain store, and no
// instruction after it can fault or touch memory, so the packet commits once the store has
// been allowed (the executor still checks that nothing before it faulted), and no later load
// of the packet could have seen the difference.
static bool can_store_direct(const struct hexsim_packet *pkt)
{
    const uint32_t mem = HX_F_LOAD | HX_F_STORE | HX_F_MEMOP;
    const uint32_t bad = mem | HX_F_PRIV | HX_F_GUEST | HX_F_TRAP;
    bool seen = false;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        if (in->fn == hexsim_sem_unimplemented)
            return false;
        if (!seen) {
            if (!(d->flags & (HX_F_STORE | HX_F_MEMOP)))
                continue;
            if ((d->flags & (HX_F_MEMOP | HX_F_PRIV | HX_F_GUEST)) || d->timing != HX_TC_ST)
                return false;
            seen = true;
            continue;
        }
        if ((d->flags & bad) || d->cls == HX_CLASS_SYSTEM ||
            (d->timing != HX_TC_ALU32 && d->timing != HX_TC_ALU64 && d->timing != HX_TC_MPY &&
             d->timing != HX_TC_FP && d->timing != HX_TC_JUMP && d->timing != HX_TC_CALL &&
             d->timing != HX_TC_LOOP && d->timing != HX_TC_CR))
            return false;
    }
    return seen;
}

unsigned hexsim_insn_preds_written(const struct hexsim_insn *in)
{
    const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
    unsigned m = d->lit_pdefs;
    for (unsigned i = 0; i < d->nops; i++) {
        const struct hexsim_operand_desc *o = &d->ops[i];
        if (!o->written)
            continue;
        if (o->kind == HX_OPK_P)
            m |= 1u << (in->op[i] & 3);
        // P3:0 is control register 4: `c4 = Rs`, `c5:4 = Rss` write all four
        else if ((o->kind == HX_OPK_C && in->op[i] == HX_P3_0) ||
                 (o->kind == HX_OPK_CC && (in->op[i] & ~1u) == HX_P3_0))
            m |= 15u;
    }
    return m;
}

// Whether an instruction of the packet writes PC (control register 9, alone or in C9:8).
static bool writes_pc(const struct hexsim_packet *pkt)
{
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn_desc *d = &hexsim_isa_table[pkt->insn[i].tag];
        for (unsigned k = 0; k < d->nops; k++) {
            const struct hexsim_operand_desc *o = &d->ops[k];
            uint32_t v = pkt->insn[i].op[k];
            if (o->written && ((o->kind == HX_OPK_C && v == HX_PC) ||
                               (o->kind == HX_OPK_CC && (v & ~1u) == (HX_PC & ~1u))))
                return true;
        }
    }
    return false;
}

// PRM 6.1.3: the writes of one predicate in a packet are ANDed, and a compound compare-jump
// (`p0 = cmp.eq(Rs,Rt); if (p0.new) jump`) jumps on the value the packet gives p0, which the
// compares after it in the packet take part in. When another instruction writes its predicate
// the decoder splits it in two (qemu-hexagon does the same): its compare half runs with the
// predicate writers (first in the execution order), its jump half, a copy of the instruction
// behind the packet's own in insn[] (same index, for the first-branch-wins rule), runs after
// all of them. Returns the number of jump halves added at insn[n...].
static unsigned split_cmpjumps(struct hexsim_packet *pkt, unsigned n)
{
    unsigned written[HX_PACKET_MAX_INSNS], nsplit = 0;
    for (unsigned i = 0; i < n; i++)
        written[i] = hexsim_insn_preds_written(&pkt->insn[i]);
    for (unsigned i = 0; i < n; i++) {
        unsigned tag = pkt->insn[i].tag;
        if (!hexsim_isa_sem_cmp[tag])
            continue;
        unsigned others = 0;
        for (unsigned k = 0; k < n; k++)
            if (k != i)
                others |= written[k];
        // room: a word holds at most two instructions, a compare-jump's word one
        if (!(others & written[i]) || n + nsplit >= HX_PACKET_MAX_INSNS)
            continue;
        pkt->insn[i].fn = hexsim_isa_sem_cmp[tag];
        struct hexsim_insn *j = &pkt->insn[n + nsplit++];
        *j = pkt->insn[i];
        j->fn = hexsim_isa_sem_jump[tag];
    }
    return nsplit;
}

// An HVX instruction whose vector the packet's other instructions read: .cur and .tmp
// loads, the V69 `.tmp` assignments (HVX PRM).
static bool hvx_forwarding_load(const struct hexsim_insn_desc *d)
{
    return d->timing == HX_TC_CVI_VM_CUR_LD || (d->flags & HX_F_VTMP);
}

int hexsim_decode_packet(const uint32_t *words, size_t n, uint32_t addr, unsigned arch,
                         struct hexsim_packet *pkt)
{
    struct decoder d;
    memset(pkt, 0, sizeof *pkt);
    d.count = 0;
    d.arch = arch;
    pkt->addr = addr;
    for (unsigned w = 0;; w++) {
        if (w >= n) {
            pkt->status = HX_DECODE_TRUNCATED;
            pkt->bad_word = (uint8_t)(w < 255 ? w : 255);
            return pkt->status;
        }
        uint32_t word = words[w];
        unsigned parse = (word >> 14) & 3;
        pkt->nwords = (uint8_t)(w + 1 < 255 ? w + 1 : 255);
        if (w < HX_PACKET_MAX_WORDS)
            pkt->words[w] = word;
        int st = HX_DECODE_OK;
        if (parse == 2) {
            if (w == 0)
                pkt->endloop |= 1;
            else if (w == 1)
                pkt->endloop |= 2;
            else
                st = HX_DECODE_BAD_ENDLOOP;
        }
        const struct hexsim_insn *prev = recent(&d, 1);
        const struct hexsim_insn *ext = prev && prev->tag == HX_A4_ext ? prev : NULL;
        if (st == HX_DECODE_OK)
            st = parse == 0 ? decode_duplex(&d, word, w, ext) : decode_normal(&d, word, w, ext);
        if (st) {
            pkt->status = (uint8_t)st;
            pkt->bad_word = (uint8_t)(w < 255 ? w : 255);
            return st;
        }
        if (parse == 0 || parse == 3)
            break;
    }
    if (pkt->nwords > HX_PACKET_MAX_WORDS) {
        pkt->status = HX_DECODE_TOO_LONG;
        pkt->bad_word = HX_PACKET_MAX_WORDS;
        return pkt->status;
    }
    pkt->ninsns = (uint8_t)d.count;
    for (unsigned i = 0; i < d.count; i++) {
        pkt->insn[i] = d.win[i];
        pkt->insn[i].idx = (uint8_t)i;
        pkt->insn[i].fn = hexsim_isa_sem[pkt->insn[i].tag];
        if (!pkt->insn[i].fn)
            pkt->insn[i].fn = hexsim_sem_unimplemented;
    }
    unsigned k = 0;
    pkt->priv = pkt->guest = 0;
    unsigned nsplit = split_cmpjumps(pkt, d.count);
    // the predicate writers, the split jump halves, HVX .cur/.tmp loads, the rest (decode.h:
    // order)
    for (unsigned i = 0; i < d.count; i++)
        if (pkt->insn[i].tag != HX_A4_ext && hexsim_insn_preds_written(&pkt->insn[i]))
            pkt->order[k++] = (uint8_t)i;
    for (unsigned i = 0; i < nsplit; i++)
        pkt->order[k++] = (uint8_t)(d.count + i);
    // HVX .cur and .tmp loads and .tmp assignments: the packet's other instructions read
    // what they give
    for (unsigned i = 0; i < d.count; i++)
        if (hvx_forwarding_load(&hexsim_isa_table[pkt->insn[i].tag]))
            pkt->order[k++] = (uint8_t)i;
    for (unsigned i = 0; i < d.count; i++) {
        const struct hexsim_insn_desc *desc = &hexsim_isa_table[pkt->insn[i].tag];
        if (pkt->insn[i].tag != HX_A4_ext && !hexsim_insn_preds_written(&pkt->insn[i]) &&
            !hvx_forwarding_load(desc))
            pkt->order[k++] = (uint8_t)i;
        if (desc->flags & HX_F_PRIV)
            pkt->priv |= (uint8_t)(1u << i);
        if (desc->flags & HX_F_GUEST)
            pkt->guest |= (uint8_t)(1u << i);
    }
    pkt->nexec = (uint8_t)k;
    pkt->writes_pc = writes_pc(pkt);
    int rule = hexsim_check_packet(pkt, arch);
    if (rule) {
        pkt->status = HX_DECODE_ILLEGAL;
        pkt->rule = (uint8_t)rule;
        pkt->bad_word = 0;
    }
    if (pkt->status == HX_DECODE_OK) {
        hexsim_timing_annotate(pkt);
        bool jumps;
        pkt->direct = can_write_direct(pkt, &jumps);
        for (unsigned i = 0; pkt->direct && i < d.count; i++)
            if (hexsim_isa_sem_direct[pkt->insn[i].tag])
                pkt->insn[i].fn = hexsim_isa_sem_direct[pkt->insn[i].tag];
        pkt->store_direct = can_store_direct(pkt);
        pkt->plain = !(pkt->priv | pkt->guest);
        if (pkt->direct && pkt->plain && !pkt->tm.extra && pkt->endloop <= 1 && pkt->nexec)
            pkt->alu = jumps || pkt->tm.slow ? HX_ALU_JUMPS : HX_ALU_PLAIN;
    }
    return pkt->status;
}

const char *hexsim_decode_status_str(int status)
{
    static const char *const s[] = {
        [HX_DECODE_OK] = "ok",
        [HX_DECODE_TRUNCATED] = "packet runs past the end of the code",
        [HX_DECODE_TOO_LONG] = "packet longer than four words",
        [HX_DECODE_UNKNOWN] = "unknown instruction encoding",
        [HX_DECODE_BAD_REGISTER] = "reserved register encoding",
        [HX_DECODE_BAD_EXTENDER] = "constant extender before an instruction that cannot be extended",
        [HX_DECODE_BAD_NEWVALUE] = "new-value operand without a producer",
        [HX_DECODE_BAD_ENDLOOP] = "loop-end parse bits outside the first two words",
        [HX_DECODE_ILLEGAL] = "packet breaks a packet-formation rule",
    };
    return status >= 0 && status <= HX_DECODE_ILLEGAL ? s[status] : "unknown status";
}
