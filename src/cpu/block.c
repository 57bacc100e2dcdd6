// SPDX-License-Identifier: MIT
// Building blocks of `alu` packets (block.h) from the decoder's packets.
#include <stdlib.h>

#include "block.h"

struct hx_block_table *hx_block_table_new(void)
{
    struct hx_block_table *t = calloc(1, sizeof(*t));
    if (t)
        t->gen = 1;   // an empty slot (gen 0) never matches
    return t;
}

void hx_block_table_free(struct hx_block_table *t)
{
    free(t);
}

struct hx_block *hx_block_start(struct hx_block_table *t, uint32_t addr)
{
    struct hx_block *b = hx_block_slot(t, addr);
    b->key = 0;
    b->npk = b->nops = 0;
    b->jumps = b->endloop = false;
    b->pk[0].npc = addr;
    return b;
}

uint32_t hx_block_next(const struct hx_block *b)
{
    return b->npk ? b->pk[b->npk - 1].npc : b->pk[0].npc;
}

bool hx_block_open(const struct hx_block *b)
{
    return b->npk < HX_BLOCK_MAX_PKTS && !b->jumps && !b->endloop;
}

bool hx_block_append(struct hx_block *b, const struct hexsim_packet *pkt)
{
    if (!pkt->alu || !hx_block_open(b) || pkt->addr != hx_block_next(b) ||
        b->nops + pkt->nexec > HX_BLOCK_MAX_OPS)
        return false;
    struct hx_block_pkt *p = &b->pk[b->npk++];
    p->tm = pkt->tm;
    p->addr = pkt->addr;
    p->npc = pkt->addr + 4u * pkt->nwords;
    p->nops = pkt->nexec;
    p->endloop = pkt->endloop;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        unsigned i = pkt->order[k];
        b->cur[b->nops] = (int8_t)i;
        b->op[b->nops++] = pkt->insn[i];
    }
    b->jumps = pkt->alu == HX_ALU_JUMPS;
    b->endloop = pkt->endloop != 0;
    return true;
}

void hx_block_seal(struct hx_block_table *t, struct hx_block *b, uint32_t addr)
{
    if (b->npk) {
        b->key = addr + 1;
        b->gen = t->gen;
    }
}
