// SPDX-License-Identifier: MIT
// Blocks in system mode: the run loop (run.c) runs straight runs of packets as one block
// (cpu/block.h), compiled to host code once hot (cpu/jit.h), with the same state, packet
// counts and pcycles the packet-by-packet loop gives; `--no-jit` keeps that loop alone.
//
// A block starts in one 1 KiB line of guest code (its last packet may reach into the next
// line, or page) and is kept by its virtual address in one table for the machine
// (cpu/block.h; every vCPU and both modes use it). It records the RAM page (pages) its
// packets were read from, and it runs only where the vCPU, in its current mode and with its
// current page tables, translates the block's address for execution to that page (and the
// next one to that one: through the soft TLB, which vmnewmap and vmclrmap empty): so a
// block serves every address space and mode in which its code is the same, and a remapped
// address gets a new block. Compiled blocks go on into each other (jit.h): within a page
// where the translation is the one checked on entry, into another page after checking it
// in the soft TLB.
// Blocks hold no supervisor or guest instructions (hx_block_can_hold), so what they do does
// not depend on the mode; their loads and stores translate each access in the current mode
// (exec.c: hx_ld_slow, hx_st_slow) and fault as the interpreter's do. A store into a page
// holding decoded code bumps the page's wgen and code_gen (mem.h): the block that made it
// stops after that packet, and the blocks read from that page are stale (each records the
// wgen it was read under, checked where it is entered); the others stay. A block built at
// the address of a stale one takes its place, and compiled blocks of other pages linked to
// the stale one are led on to it (hx_jit_redirect).
//
// What the loop does between packets is kept out of blocks, so that nothing a block does can
// need it: a block holds no trap (trap0 and trap1 packets run on their own), a device access
// is not made in a block but ends it before the packet (sem.h: no_mmio), and so does any
// fault (the packet committed nothing). The loop then runs that packet as always, with the
// same result (the same state: a fault again, with ELR, BADVA and cause as ever). And a block
// runs only when the loop would run all its packets in this slice: the packet budget allows
// them all, and the pcycle clock cannot reach the slice's end (the next device event) before
// its last packet starts, by a bound on each packet's cost (struct hx_block: cycles; a packet
// waits only for results of the packets before it in the block, of their latencies: the
// results pending before the block are ready by where the bound starts). Near a slice's end
// packets run one by one, so slices are made long (run.c).
#include <stdlib.h>
#include <string.h>

#include "core/perf_map.h"
#include "cpu/block.h"
#include "cpu/decode.h"
#include "cpu/isa.h"
#include "hexsim/machine.h"
#include "run_jit.h"

#define NOBLOCK_SIZE 256
// A block ends before a packet starting in the next LINE-byte line of its first packet's: so
// a run of packets entered in its middle (where a slice ended, or an event returned to)
// has blocks of its own only up to that line, and from there the blocks every entry uses
#define LINE 1024u

struct hexsim_sysblocks {
    struct hx_block_table *t;
    struct hexsim_perf_map *perf_map;   // --perf-map, or NULL
    uint64_t full;   // a bound on the pcycles of a block of plain packets of the most
                     // packets, the thread's turns aside (no block is built where one
                     // like it could not run before the slice ends)
    // addresses where no block can start (a trap, a packet that cannot be in one), by page,
    // as long as the page is not written (wgen) and the table is not flushed (flushes): a
    // direct-mapped cache
    struct noblock {
        uint32_t va, wgen;
        const void *page;
        uint64_t flushes;
    } noblock[NOBLOCK_SIZE];
};

int hexsim_sysjit_init(struct hexsim_machine *m)
{
    const struct hexsim_machine_opts *o = &m->opts;
    if (m->sysblocks || o->no_jit || o->timing == HEXSIM_TIMING_CACHE)
        return 0;   // (cache mode runs every packet on the special path: exec.c)
    struct hexsim_sysblocks *sb = calloc(1, sizeof(*sb));
    if (!sb)
        return -1;
    sb->t = hx_block_table_new(o->no_stencils ? HX_BLOCKS_COMPILE_CALLS : HX_BLOCKS_COMPILE,
                               o->code_cache ? o->code_cache : HX_BLOCK_CACHE_DEFAULT);
    if (!sb->t) {
        free(sb);
        return -1;
    }
    if (o->jit_threshold)
        sb->t->hot = o->jit_threshold;
    sb->t->sys = true;
    if (o->perf_map && sb->t->jit) {   // kernel blocks named from vmlinux; others by address
        sb->perf_map = hexsim_perf_map_new(m->kernel_path[0] ? m->kernel_path : NULL, NULL);
        if (!sb->perf_map) {
            hx_block_table_free(sb->t);
            free(sb);
            return -1;
        }
        sb->t->on_compiled = hexsim_perf_map_block;
        sb->t->on_compiled_ctx = sb->perf_map;
    }
    hx_block_set_timing(sb->t, &m->tparams);
    const struct hexsim_packet_timing plain = { 0 }, any = {
        .w_load = ~0u, .w_mpy = ~0u, .w_fp = ~0u, .w_xfer = ~0u,
        .vw = { ~0ull, ~0ull, ~0ull, ~0ull },
    };
    sb->full = HX_BLOCK_MAX_PKTS * hexsim_timing_packet_bound(&m->tparams, &plain, &any);
    m->sysblocks = sb;
    return 0;
}

void hexsim_sysjit_free(struct hexsim_machine *m)
{
    if (!m->sysblocks)
        return;
    hx_block_table_free(m->sysblocks->t);
    hexsim_perf_map_free(m->sysblocks->perf_map);
    free(m->sysblocks);
    m->sysblocks = NULL;
}

void hexsim_sysjit_stats(const struct hexsim_machine *m, uint64_t *built, uint64_t *compiled,
                         uint64_t *flushes)
{
    const struct hx_block_table *t = m->sysblocks ? m->sysblocks->t : NULL;
    *built = t ? t->built : 0;
    *compiled = t ? t->compiled : 0;
    *flushes = t ? t->flushes : 0;
}

// The RAM page v executes va from (the soft TLB, else the walk), or NULL: a fault, or a
// device, which the interpreter reports.
static struct hexsim_page *exec_page(struct hexsim_vcpu *v, uint32_t va)
{
    const struct hexsim_tlb_entry *e = &v->xlat.tlb->e[(va >> 12) & (HEXSIM_TLB_SIZE - 1)];
    if (e->vpage == va >> 12 && (e->prot & HEXSIM_PROT_X))
        return e->page;
    struct hexsim_xlat_result r;
    if (v->xlat.translate(v->xlat.ctx, va, HEXSIM_PROT_X, &r))
        return NULL;
    return r.page;
}

static bool has_trap(const struct hexsim_packet *pkt)
{
    for (unsigned i = 0; i < pkt->ninsns; i++)
        if (hexsim_isa_table[pkt->insn[i].tag].flags & HX_F_TRAP)
            return true;
    return false;
}

// Builds the block at va from page pg: its packets while they start in pg, may be in a block
// and hold no trap (the last one may reach into the next page). NULL if the first cannot be
// in one.
static struct hx_block *build(struct hexsim_vcpu *v, uint32_t va, struct hexsim_page *pg)
{
    struct hexsim_machine *m = v->m;
    struct hx_block_table *t = m->sysblocks->t;
    struct hexsim_xlat_result r;
    if (v->xlat.translate(v->xlat.ctx, va, HEXSIM_PROT_X, &r) || r.page != pg)
        return NULL;   // (cannot be: exec_page found pg)
    struct hx_block *b = hx_block_start(t, va);
    uint64_t cycles = 0, last = 0;
    struct hexsim_packet_timing results = { 0 };   // what the block's packets write so far
    for (;;) {
        uint32_t a = hx_block_next(b);
        if ((a ^ va) / LINE)
            break;   // the next line (so the next page too)
        uint32_t words[HX_PACKET_MAX_WORDS];
        size_t n = 0;
        for (; n < HX_PACKET_MAX_WORDS && ((a + 4 * n) & 0xfff) >= (a & 0xfff); n++)
            words[n] = (uint32_t)hexsim_page_load(pg, (a + 4 * (uint32_t)n) & 0xfff, 4);
        struct hexsim_page *pg2 = NULL;   // the next page, if the words reach into it
        if (n < HX_PACKET_MAX_WORDS && (pg2 = exec_page(v, (va | 0xfffu) + 1)))
            for (uint32_t k = 0; n < HX_PACKET_MAX_WORDS; n++, k++)
                words[n] = (uint32_t)hexsim_page_load(pg2, 4 * k, 4);
        struct hexsim_packet pkt;
        hexsim_decode_packet(words, n, a, m->arch, &pkt);
        if (pkt.status != HX_DECODE_OK || has_trap(&pkt) || !hx_block_append(b, &pkt))
            break;
        if (((a + 4u * pkt.nwords - 1) ^ va) >> 12) {
            b->page2 = pg2;   // (the last packet: the next one is in that page)
            hexsim_code_page(m, pg2);   // a store into the page makes the block stale (wgen)
            b->wgen2 = pg2->wgen;
        }
        cycles += last;   // the packets before the last one
        hexsim_timing_add_results(&results, &pkt.tm);
        last = hexsim_timing_packet_bound(&t->tp, &pkt.tm, &results);
        if (!hx_block_open(b) || cycles + last > (1u << 30))
            break;   // (a bound that large comes only from timing parameters that large)
    }
    if (!b->npk)
        return NULL;
    hexsim_code_page(m, pg);   // a store into the page makes the block stale (wgen)
    b->page = pg;
    b->wgen = pg->wgen;
    b->ppage = r.pa >> 12;
    b->cycles = (uint32_t)cycles;
    return hx_block_seal(t, b);
}

uint64_t hexsim_sysjit_run(struct hexsim_vcpu *v, uint64_t budget, uint64_t until, bool *next)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_sysblocks *sb = m->sysblocks;
    struct hx_block_table *t = sb->t;
    const uint32_t pc = v->cpu.pc;
    *next = false;
    if (pc & 3)
        return 0;
    struct hexsim_page *pg = exec_page(v, pc);
    if (!pg)
        return 0;
    const struct hexsim_timing_state *tm = &v->cpu.tm;
    const uint64_t at = v->cpu.pcycles > tm->max_ready ? v->cpu.pcycles : tm->max_ready;
    const uint32_t turn = tm->interleave > 1 ? tm->interleave : 1;
    struct hx_block *b = hx_block_find(t, pc);
    if (!b || b->page != pg || b->wgen != pg->wgen ||
        (b->page2 && (exec_page(v, (pc | 0xfffu) + 1) != b->page2 ||
                      b->page2->wgen != b->wgen2))) {
        // near the slice's end, packets run one by one: a block for each would not run
        if (budget < HX_BLOCK_MAX_PKTS || at + sb->full + HX_BLOCK_MAX_PKTS * turn >= until)
            return 0;
        struct noblock *no = &sb->noblock[(pc >> 2) & (NOBLOCK_SIZE - 1)];
        if (no->va == pc && no->page == pg && no->wgen == pg->wgen && no->flushes == t->flushes)
            return 0;
        // compiled blocks stale in this page: links may lead to them (hx_block_compile)
        struct hx_block *stale = NULL;
        if (b && b->page == pg)
            stale = b->jit ? b : b->stale;
        const uint64_t flushes = t->flushes;
        b = build(v, pc, pg);
        if (!b) {
            *no = (struct noblock){ pc, pg->wgen, pg, t->flushes };
            return 0;
        }
        // (unless the build flushed the table: that block and its code are gone)
        b->stale = t->flushes != flushes ? NULL : stale;
    }
    // the loop would run every packet: the budget, and the clock before the last one starts
    if (b->npk > budget)
        return 0;
    if (at + b->cycles + (uint64_t)(b->npk - 1) * turn >= until)
        return 0;
    if (!b->jit && hx_block_hot(t, b)) {
        hx_block_compile(t, b);   // (which may drop every block: then b goes too)
        b = hx_block_find(t, pc);
        if (!b || b->page != pg)
            return 0;
    }
    struct hexsim_event_info ev;
    struct hx_exec x;
    hx_exec_begin(&x, &v->env, &ev);
    x.no_mmio = true;
    const uint64_t p0 = v->cpu.packets;
    x.stop = p0 + budget;   // compiled blocks go on within the budget and the slice
    x.until = until;
    int k = hx_run_block(&x, b);
    if (k == HX_EV_NONE && t->exit_from)
        hx_block_link(t, v->cpu.pc);
    t->exit_from = NULL;
    *next = k != HX_EV_NONE;   // a fault or a device access: the packet at cpu.pc runs alone
    return v->cpu.packets - p0;
}
