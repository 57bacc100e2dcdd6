// SPDX-License-Identifier: MIT
// Building blocks of packets (block.h) from the decoder's packets.
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "isa.h"

#define SLOTS_MIN 4096u

struct hx_block_table *hx_block_table_new(enum hx_block_mode mode, size_t cache_bytes)
{
    if (!cache_bytes)
        cache_bytes = HX_BLOCK_CACHE_DEFAULT;
    if (cache_bytes < HX_BLOCK_CACHE_MIN)
        cache_bytes = HX_BLOCK_CACHE_MIN;
    struct hx_block_table *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->gen = 1;   // a slot never used (gen 0) is free
    t->nslots = SLOTS_MIN;
    t->slot = calloc(t->nslots, sizeof(*t->slot));
    t->data_size = cache_bytes;
    t->data = malloc(t->data_size);   // touched as it fills
    t->jit = mode == HX_BLOCKS_INTERPRET ? NULL
                                         : hx_jit_new(mode == HX_BLOCKS_COMPILE, cache_bytes);
    t->tp = hexsim_timing_default_params;
    t->hot = HX_BLOCK_HOT;
    if (!t->slot || !t->data) {
        hx_block_table_free(t);
        return NULL;
    }
    return t;
}

void hx_block_flush(struct hx_block_table *t)
{
    if (++t->gen == 0) {   // wrapped: no slot may look current
        memset(t->slot, 0, t->nslots * sizeof(*t->slot));
        t->gen = 1;
    }
    t->used = 0;
    t->data_used = 0;
    t->exit_from = NULL;
    memset(t->jc, 0, sizeof(t->jc));
    t->flushes++;
    if (t->jit)
        hx_jit_reset(t->jit);
}

void hx_block_set_timing(struct hx_block_table *t, const struct hexsim_timing_params *tp)
{
    if (!memcmp(&t->tp, tp, sizeof(*tp)))
        return;
    t->tp = *tp;
    hx_block_flush(t);
    const unsigned big = 1u << 30;
    if (tp->lat_load > big || tp->lat_mpy > big || tp->lat_fp > big ||
        tp->branch_taken > big || tp->mispredict > big || tp->indirect > big) {
        hx_jit_free(t->jit);
        t->jit = NULL;
    }
}

void hx_block_table_free(struct hx_block_table *t)
{
    if (!t)
        return;
    hx_jit_free(t->jit);
    free(t->slot);
    free(t->data);
    free(t);
}

struct hx_block *hx_block_start(struct hx_block_table *t, uint32_t addr)
{
    struct hx_block *b = &t->build;
    memset(b, 0, sizeof(*b));
    b->addr = addr;
    b->pk = t->build_pk;
    b->op = t->build_op;
    b->pk[0].npc = addr;
    return b;
}

uint32_t hx_block_next(const struct hx_block *b)
{
    return b->npk ? b->pk[b->npk - 1].npc : b->pk[0].npc;
}

bool hx_block_open(const struct hx_block *b)
{
    return b->npk < HX_BLOCK_MAX_PKTS && !b->closed;
}

bool hx_block_can_hold(const struct hexsim_packet *pkt)
{
    return pkt->status == HX_DECODE_OK && pkt->plain && pkt->nexec > 0;
}

// The packet's instruction flags, ORed.
static uint32_t packet_flags(const struct hexsim_packet *pkt)
{
    uint32_t f = 0;
    for (unsigned i = 0; i < pkt->ninsns; i++)
        f |= hexsim_isa_table[pkt->insn[i].tag].flags;
    return f;
}

// Whether a packet the decoder stages because of its loads or stores may write registers in
// place in a block, its writes undone if it faults (hx_block_pkt.undo): as decode.c's
// can_write_direct asks, no instruction reads (other than as .new) a register an earlier one
// wrote, nothing writes registers but through its operands, and every instruction writing
// general registers has an in-place variant; loads, stores and jumps are allowed, memops,
// calls, returns, loop set-ups, traps, load-locked and store-conditional are not.
static bool can_write_in_block(const struct hexsim_packet *pkt)
{
    const uint32_t bad = HX_F_MEMOP | HX_F_CALL | HX_F_HWLOOP | HX_F_RETURN | HX_F_PRIV |
                         HX_F_GUEST | HX_F_TRAP;
    uint32_t written = 0;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        if (in->fn == hexsim_sem_unimplemented || (d->flags & bad) || d->implicit_defs ||
            d->implicit_cdefs || d->timing == HX_TC_LL || d->timing == HX_TC_SC)
            return false;
        switch (d->cls) {
        case HX_CLASS_ALU32: case HX_CLASS_XTYPE: case HX_CLASS_SUBA: case HX_CLASS_LD:
        case HX_CLASS_ST: case HX_CLASS_SUBL1: case HX_CLASS_SUBL2: case HX_CLASS_SUBS1:
        case HX_CLASS_SUBS2: case HX_CLASS_J: case HX_CLASS_JR: case HX_CLASS_NV:
            break;
        default:
            return false;
        }
        uint32_t rd, wr;
        hexsim_insn_regs(in, &rd, &wr);
        if ((rd & written) || (wr && !hexsim_isa_sem_direct[in->tag]))
            return false;
        written |= wr;
    }
    return true;
}

bool hx_block_append(struct hx_block *b, const struct hexsim_packet *pkt)
{
    if (!hx_block_can_hold(pkt) || !hx_block_open(b) || pkt->addr != hx_block_next(b) ||
        b->nops + pkt->nexec > HX_BLOCK_MAX_OPS)
        return false;
    uint32_t f = packet_flags(pkt);
    struct hx_block_pkt *p = &b->pk[b->npk++];
    p->tm = pkt->tm;
    p->addr = pkt->addr;
    p->npc = pkt->addr + 4u * pkt->nwords;
    p->nops = pkt->nexec;
    p->endloop = pkt->endloop;
    p->alu = pkt->alu;
    p->direct = pkt->direct;
    p->store_direct = pkt->store_direct;
    p->undo = false;
    p->undo_regs = 0;
    if (!pkt->direct && can_write_in_block(pkt)) {
        p->direct = true;
        p->undo = true;   // set below to the registers written
    }
    p->wregs = 0;
    p->wpreds = 0;
    p->writes_mem = false;
    p->uses_pc = false;
    p->cof = false;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        // only loads and computations are known to leave memory alone
        bool reads_only = d->cls == HX_CLASS_ALU32 || d->cls == HX_CLASS_XTYPE ||
                          d->cls == HX_CLASS_SUBA || d->cls == HX_CLASS_LD ||
                          d->cls == HX_CLASS_SUBL1 || d->cls == HX_CLASS_SUBL2;
        p->writes_mem |= !reads_only || (d->flags & (HX_F_STORE | HX_F_MEMOP));
        p->uses_pc |= hexsim_isa_sem_uses_pc[in->tag] != 0;
        p->cof |= (d->flags & (HX_F_JUMP | HX_F_CALL | HX_F_RETURN)) != 0;
        uint32_t rd, wr;
        hexsim_insn_regs(in, &rd, &wr);
        p->wregs |= wr | d->implicit_defs;
        p->wpreds |= (uint8_t)hexsim_insn_preds_written(in);
        struct hexsim_insn *o = &b->op[b->nops++];
        *o = *in;
        if (p->undo && hexsim_isa_sem_direct[in->tag])
            o->fn = hexsim_isa_sem_direct[in->tag];
    }
    if (p->undo)
        p->undo_regs = p->wregs;
    b->closed = pkt->endloop != 0 ||
                (f & (HX_F_JUMP | HX_F_CALL | HX_F_RETURN | HX_F_TRAP)) != 0;
    return true;
}

// Where b goes in the slots: its own slot or the first free one on its way (so a block is
// always found before a free slot: slots become free only all at once, in a flush).
static struct hx_block_slot *slot_for(struct hx_block_table *t, uint32_t addr)
{
    const uint32_t mask = t->nslots - 1;
    for (uint32_t i = hx_block_hash(addr);; i++) {
        struct hx_block_slot *s = &t->slot[i & mask];
        if (s->gen != t->gen || s->key == addr + 1)
            return s;
    }
}

// Twice the slots, when they are half used (the current ones moved over); false: no memory
// (the table stays as it is, fuller).
static bool grow(struct hx_block_table *t)
{
    struct hx_block_slot *old = t->slot;
    const uint32_t n = t->nslots;
    struct hx_block_slot *s = calloc(2 * (size_t)n, sizeof(*s));
    if (!s)
        return false;
    t->slot = s;
    t->nslots = 2 * n;
    for (uint32_t i = 0; i < n; i++)
        if (old[i].gen == t->gen)
            *slot_for(t, old[i].key - 1) = old[i];
    free(old);
    return true;
}

static size_t round16(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

struct hx_block *hx_block_seal(struct hx_block_table *t, struct hx_block *b)
{
    if (!b->npk)
        return NULL;
    const size_t pk = round16(sizeof(*b)), op = pk + round16(b->npk * sizeof(b->pk[0]));
    const size_t size = op + b->nops * sizeof(b->op[0]);
    if (t->data_size - t->data_used < size)
        hx_block_flush(t);   // the blocks' arena is full: start afresh
    if (2 * (t->used + 1) > t->nslots && !grow(t) && t->used + 1 >= t->nslots)
        hx_block_flush(t);   // no memory for more slots, and no free one left
    uint8_t *at = t->data + t->data_used;
    t->data_used += round16(size);
    struct hx_block *n = (struct hx_block *)at;
    *n = *b;
    n->pk = (struct hx_block_pkt *)(at + pk);
    n->op = (struct hexsim_insn *)(at + op);
    memcpy(n->pk, b->pk, b->npk * sizeof(b->pk[0]));
    memcpy(n->op, b->op, b->nops * sizeof(b->op[0]));
    struct hx_block_slot *s = slot_for(t, b->addr);
    t->used += s->gen != t->gen;
    *s = (struct hx_block_slot){ b->addr + 1, t->gen, n };
    t->built++;
    return n;
}

void hx_block_compile(struct hx_block_table *t, struct hx_block *b)
{
    if (!t->jit || b->jit)
        return;
    const uint8_t *code = hx_jit_cursor(t->jit);
    if (!hx_jit_compile(t->jit, t, b)) {
        hx_block_flush(t);   // the code arena is full: start afresh
        return;
    }
    t->compiled++;
    if (t->on_compiled)
        t->on_compiled(t->on_compiled_ctx, b->addr, code,
                       (size_t)(hx_jit_cursor(t->jit) - code));
    // the stale blocks it replaces (the last few: links lead to each of them) lead to it; the
    // older ones lead to the block that replaced them then, a few hops from here
    struct hx_block *s = t->sys ? b->stale : NULL;
    for (unsigned i = 0; s; s = s->stale, i++) {
        hx_jit_redirect(s, b);
        if (i + 1 == HX_BLOCK_REDIRECTS)
            s->stale = NULL;
    }
    struct hx_block_jc *e = hx_block_jc_at(t, b->addr);
    e->key = b->addr + 1;
    e->tag = b->ppage;
    e->wgen = b->wgen;
    e->chain = b->jit_chain;
    e->far = b->jit_far;
}

void hx_block_link(struct hx_block_table *t, uint32_t pc)
{
    struct hx_block *from = t->exit_from;
    t->exit_from = NULL;
    struct hx_block *to = hx_block_find(t, pc);
    if (!from || !to || !to->jit)
        return;
    // system mode: from ran, so its page is what the vCPU executes there, with its wgen; to is
    // good there if it was read from that page with that wgen; in another virtual page, its
    // jit_far checks (jit.h)
    const bool far = t->sys && ((from->addr ^ pc) >> 12);
    if (t->sys && !far && (from->page != to->page || from->wgen != to->wgen))
        return;
    struct hx_block_jc *e = hx_block_jc_at(t, pc);
    e->key = pc + 1;
    e->tag = to->ppage;
    e->wgen = to->wgen;
    e->chain = to->jit_chain;
    e->far = to->jit_far;
    if (from->nlinks < HX_BLOCK_LINKS) {
        hx_jit_link(from->link[from->nlinks++], pc, far ? to->jit_far : to->jit_chain);
        if (from->nlinks == HX_BLOCK_LINKS && from->link_gate)
            hx_jit_open_gate(from->link_gate);
    }
}
