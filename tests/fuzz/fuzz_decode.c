// SPDX-License-Identifier: MIT
// Fuzz target: the packet decoder, packet checker (run by the decoder) and disassembler on
// random words. The input is little-endian 32-bit words (a trailing partial word is dropped;
// the first byte also picks the packet address); every packet start the way a disassembler
// walks the words is decoded at three core versions (below), and the results
// are checked for internal consistency: counts within bounds, indexes inside the packet,
// the disassembler agreeing with the decoder, every text NUL-terminated. Violations abort.
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cpu/decode.h"
#include "cpu/isa.h"
#include "hexsim/disasm.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static const unsigned archs[] = { 5, 55, 60, 62, 65, 66, 67, 68 };

static void check_packet(const struct hexsim_packet *p, size_t n, unsigned arch,
                         const uint32_t *words, uint32_t addr)
{
    CHECK(p->status <= HX_DECODE_ILLEGAL);
    CHECK(p->addr == addr);
    CHECK(p->nwords >= 1);
    if (p->status == HX_DECODE_TRUNCATED)
        CHECK(p->nwords == n);
    else
        CHECK(p->nwords <= n);
    if (p->status != HX_DECODE_OK)
        return;
    CHECK(p->nwords <= HX_PACKET_MAX_WORDS);
    CHECK(p->ninsns >= 1 && p->ninsns <= HX_PACKET_MAX_INSNS);
    // nexec may exceed ninsns: the jump halves of split compare-jumps sit behind the packet's
    // instructions in insn[] (decode.h: order)
    CHECK(p->nexec <= HX_PACKET_MAX_INSNS);
    CHECK((p->endloop & ~3u) == 0);
    uint32_t seen = 0;
    for (unsigned k = 0; k < p->nexec; k++) {
        unsigned x = p->order[k];
        CHECK(x < HX_PACKET_MAX_INSNS);
        CHECK(!(seen >> x & 1));
        seen |= 1u << x;
        if (x >= p->ninsns) {   // a jump half: a copy of one of the packet's compare-jumps
            const struct hexsim_insn *j = &p->insn[x];
            bool found = false;
            for (unsigned i = 0; i < p->ninsns; i++)
                found |= p->insn[i].tag == j->tag && p->insn[i].word == j->word &&
                         p->insn[i].part == j->part;
            CHECK(found);
        }
    }
    for (unsigned i = 0; i < p->nwords; i++)
        CHECK(p->words[i] == words[i]);
    for (unsigned i = 0; i < p->ninsns; i++) {
        const struct hexsim_insn *in = &p->insn[i];
        CHECK(in->tag < HX_NUM_TAGS);
        CHECK(in->word < p->nwords && in->part <= 2);
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        CHECK(d->arch <= hexsim_arch_version(arch));
        CHECK(!(d->flags & HX_F_HVX) || (arch & HEXSIM_ARCH_HVX));
        CHECK(d->nops <= HX_MAX_OPERANDS);
        if (in->part == 0)   // the word matches its table entry
            CHECK((words[in->word] & d->mask) == d->match);
        for (unsigned k = 0; k < d->nops; k++)
            if (d->ops[k].kind == HX_OPK_N || d->ops[k].kind == HX_OPK_OV)   // a new-value
                // consumer: its producer precedes it
                CHECK(in->producer < i);
    }
    CHECK((p->priv & ~((1u << p->ninsns) - 1)) == 0);
}

static void check_disasm(const struct hexsim_disasm_packet *d, const struct hexsim_packet *p)
{
    CHECK(d->nwords == p->nwords);
    // a packet writing PC through a transfer decodes (the write is ignored) but is shown as
    // <unknown>, as llvm-objdump-16 shows it (decode.h: writes_pc)
    CHECK(d->valid == (p->status == HX_DECODE_OK && !p->writes_pc));
    CHECK(d->endloop != NULL);
    for (unsigned i = 0; i < 4; i++)
        CHECK(memchr(d->text[i], 0, sizeof d->text[i]) != NULL);
    if (d->valid)
        for (unsigned i = 0; i < p->nwords; i++)
            CHECK(d->text[i][0] != 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / 4;
    if (n == 0 || n > 32)
        return 0;
    uint32_t words[32];
    memcpy(words, data, 4 * n);
    uint32_t base = (uint32_t)data[0] << 24 | 0x1000;   // some packets sit near 2^32
    // Three core versions per input: V68 with HVX, the disassembler's default (V60) and one
    // the first byte picks, so every version is reached without paying for all eight.
    const unsigned use[3] = { 68 | HEXSIM_ARCH_HVX_ALL, HEXSIM_DISASM_DEFAULT_ARCH,
                              archs[data[0] & 7] };
    for (unsigned a = 0; a < 3; a++) {
        for (size_t w = 0; w < n;) {
            struct hexsim_packet p;
            uint32_t addr = base + 4 * (uint32_t)w;
            int st = hexsim_decode_packet(words + w, n - w, addr, use[a], &p);
            CHECK(st == p.status);
            check_packet(&p, n - w, use[a], words + w, addr);
            struct hexsim_disasm_packet d;
            unsigned nw = a == 1 ? hexsim_disasm_packet(words + w, n - w, addr, &d)
                                 : hexsim_disasm_packet_arch(words + w, n - w, addr, use[a], &d);
            CHECK(nw == d.nwords);
            check_disasm(&d, &p);
            w += p.nwords;
        }
    }
    // Single-word lookups (tests and tools use them): the last word, as a whole word and as
    // the sub-instruction group its top bits pick.
    uint32_t last = words[n - 1];
    int t = hexsim_match_word(last, n > 1, use[2]);
    CHECK(t >= -1 && t < HX_NUM_TAGS);
    t = hexsim_match_sub(last, (int)(last >> 29) - 1, use[2]);
    CHECK(t >= -1 && t < HX_NUM_TAGS);
    return 0;
}
