// SPDX-License-Identifier: MIT
// Blocks: straight runs of `alu` packets (decode.h: ALU32/XTYPE instructions writing the
// registers in place, no memory, nothing that can fault), copied out of the decoder's output
// with their instructions in execution order, so that a run loop looks up one block instead
// of one packet at a time and walks a flat list of instructions. Each packet still runs and
// commits on its own, exactly as hx_step_alu would run it (exec_step.h): the same writes, the
// same timing model, the same count; a block only saves the lookups and the indirection.
// A block ends after a packet that may branch (jumps, the end of a hardware loop 0) or
// before the first packet that is not `alu`.
//
// The table is direct-mapped by address; hx_block_flush drops every block at once (a
// generation count), which the owner does whenever guest code memory may have changed.
#ifndef HEXSIM_CPU_BLOCK_H
#define HEXSIM_CPU_BLOCK_H

#include "exec_step.h"

#define HX_BLOCK_MAX_PKTS 8
#define HX_BLOCK_MAX_OPS 24
#define HX_BLOCK_TABLE_SIZE 2048

// What a packet of a block keeps of its decoded form.
struct hx_block_pkt {
    struct hexsim_packet_timing tm;
    uint32_t addr, npc;       // its address and the next packet's
    uint8_t nops;             // its instructions in op[] (execution order)
    uint8_t endloop;          // decode.h (0 or 1 here)
};

struct hx_block {
    uint32_t key;             // the first packet's address + 1; 0: empty
    uint8_t npk;              // packets
    uint8_t nops;             // instructions
    bool jumps;               // the last packet is HX_ALU_JUMPS
    bool endloop;             // the last packet ends loop 0 (the caller checks LPCFG)
    uint64_t gen;             // the table's generation when built
    struct hx_block_pkt pk[HX_BLOCK_MAX_PKTS];
    int8_t cur[HX_BLOCK_MAX_OPS];               // each instruction's index in its packet
    struct hexsim_insn op[HX_BLOCK_MAX_OPS];
};

struct hx_block_table {
    uint64_t gen;
    struct hx_block b[HX_BLOCK_TABLE_SIZE];
};

// A new, empty table, or NULL (out of memory); hx_block_table_free(NULL) does nothing.
struct hx_block_table *hx_block_table_new(void);
void hx_block_table_free(struct hx_block_table *t);

static inline void hx_block_flush(struct hx_block_table *t)
{
    t->gen++;
}

static inline struct hx_block *hx_block_slot(struct hx_block_table *t, uint32_t addr)
{
    return &t->b[(addr >> 2) & (HX_BLOCK_TABLE_SIZE - 1)];
}

// The block starting at addr, or NULL.
static inline struct hx_block *hx_block_find(struct hx_block_table *t, uint32_t addr)
{
    struct hx_block *b = hx_block_slot(t, addr);
    return b->key == addr + 1 && b->gen == t->gen ? b : NULL;
}

// Building: hx_block_start empties addr's slot; hx_block_append adds pkt (the packet at
// hx_block_next(b)) if it is `alu` and fits, and says whether it did; hx_block_open says
// whether another packet may follow; hx_block_seal makes a block of at least one packet
// findable.
struct hx_block *hx_block_start(struct hx_block_table *t, uint32_t addr);
bool hx_block_append(struct hx_block *b, const struct hexsim_packet *pkt);
bool hx_block_open(const struct hx_block *b);
uint32_t hx_block_next(const struct hx_block *b);
void hx_block_seal(struct hx_block_table *t, struct hx_block *b, uint32_t addr);

// Runs and commits the block's packets (cpu.pc is its address; the caller checked that the
// packet count may grow by b->npk, that LPCFG is 0 if b->endloop, and that no packet needs
// hx_exec_step_special). No event can happen; cpu.pc is left at the next packet.
static inline __attribute__((always_inline)) void hx_run_block(struct hx_exec *x,
                                                                const struct hx_block *b)
{
    x->wr = x->cpu->r;
    x->ev->kind = HX_EV_NONE;
    const struct hexsim_insn *op = b->op;
    const struct hx_block_pkt *p = b->pk;
    const struct hx_block_pkt *last = p + (b->npk - 1);
    for (; p < last; p++) {       // the packets before the last: no branch, no loop end
        hx_alu_begin(x, p->addr, p->npc, false);
        const struct hexsim_insn *end = op + p->nops;
        do
            op->fn(x, op);
        while (++op < end);
        if (hx_alu_full(x)) {
            x->nst = 0;
            x->tcost = 0;
            x->branch_idx = -1;
            hx_commit_full(x, &p->tm, p->endloop);
            return;
        }
        hx_alu_commit(x, &p->tm, 0, false);
    }
    const struct hexsim_insn *end = op + p->nops;
    if (b->jumps) {
        hx_alu_begin(x, p->addr, p->npc, true);
        do {
            x->cur = b->cur[op - b->op];   // hx_jump: the first branch in packet order wins
            op->fn(x, op);
        } while (++op < end);
    } else {
        hx_alu_begin(x, p->addr, p->npc, false);
        do
            op->fn(x, op);
        while (++op < end);
    }
    if (hx_alu_full(x)) {
        x->nst = 0;
        x->tcost = 0;
        if (!b->jumps)
            x->branch_idx = -1;
        hx_commit_full(x, &p->tm, p->endloop);
        return;
    }
    if (b->jumps)
        hx_alu_commit(x, &p->tm, p->endloop, true);
    else
        hx_alu_commit(x, &p->tm, p->endloop, false);
}

#endif
