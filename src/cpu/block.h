// SPDX-License-Identifier: MIT
// Blocks: straight runs of packets (user mode), copied out of the decoder's output with their
// instructions in execution order, so that a run loop looks up one block instead of one
// packet at a time and walks a flat list of instructions. Each packet still runs and commits
// on its own, exactly as hx_exec_step would run it (exec_step.h): `alu` packets on the short
// path, the others with the staged commit; the same writes, the same timing model, the same
// count. A block only saves the lookups and the indirection. Packets with loads and stores
// may write registers in place here (where the decoder stages them), the written registers
// put back if the packet faults (block.c: can_write_in_block), so a faulting packet still
// commits nothing. A table made to compile has its blocks compiled to host code (jit.h),
// which does the same and may go on into the next compiled block.
//
// Any well-formed packet without supervisor or guest instructions may be in a block. A block
// ends after a packet that may branch (jumps, calls, returns, traps, a hardware loop end), at
// the size limit, or before a packet that cannot be in one. Running it stops early after a
// packet that raised an event (a fault: that packet committed nothing; a trap), that left
// the straight line anyway, or that wrote memory holding cached code (the rest of the block
// may be stale).
//
// The code cache: blocks are found by their full address in a hash table (open addressing,
// growing), so blocks at any addresses coexist: none is ever evicted by another. Blocks and
// their packets live in a data arena, their host code in the compiler's code arena; when
// either is full, hx_block_flush drops every block at once (the table's generation), and so
// does the user-mode owner whenever guest code memory may have changed (system mode keeps
// a block until its page is written: struct hx_block's wgen). A block runs interpreted
// until it has run HX_BLOCK_HOT times (the table's `hot`), then it is compiled: compiling a block costs about as
// much as interpreting it some tens of times (measured on tools/bench/progs/b15_bigcode.py,
// large code that runs a few dozen times), so cold code is interpreted. Compiled blocks go on into each other (jit.h): through patched direct jumps to
// the successors each block has seen (links: a compare and a jump each, patched by
// hx_block_link), else through the jump cache (jc[]: a small direct-mapped table of
// compiled blocks by address that compiled code reads, for returns and indirect jumps); a
// miss returns to the run loop, which finds the block, fills the jump cache and links. In
// user mode a block goes to the jump cache only once its links are all taken (a block
// with its successors linked to it, the common case, takes no look-up: its first runs
// compiled return to the run loop to be linked).
#ifndef HEXSIM_CPU_BLOCK_H
#define HEXSIM_CPU_BLOCK_H

#include "exec_step.h"
#include "jit.h"

#define HX_BLOCK_MAX_PKTS 16
#define HX_BLOCK_MAX_OPS 40
#define HX_BLOCK_HOT 64
#define HX_BLOCK_JC_BITS 12
#define HX_BLOCK_LINKS 2
#define HX_BLOCK_REDIRECTS 8
// The default code cache: bytes of host code, and as many again for the blocks themselves
// (allocated as they fill). 64 MiB: 1 MiB of hot code (tools/bench/progs/b15_bigcode.py)
// needs more than 16 MiB of blocks, and in system mode the kernel's blocks come on top.
#define HX_BLOCK_CACHE_DEFAULT (64u << 20)
#define HX_BLOCK_CACHE_MIN (64u << 10)

// What a packet of a block keeps of its decoded form.
struct hx_block_pkt {
    struct hexsim_packet_timing tm;
    uint32_t addr, npc;       // its address and the next packet's
    uint8_t nops;             // its instructions in op[] (execution order)
    uint8_t endloop;          // decode.h
    uint8_t alu;              // enum hexsim_alu_kind (HX_ALU_NONE: the staged path)
    bool direct;              // decode.h
    bool store_direct;        // decode.h
    uint32_t wregs;           // the general registers its instructions name as written
    uint8_t wpreds;           // the predicates they name as written
    bool writes_mem;          // it may write memory (stores, memops, dczeroa, ...)
    bool uses_pc;             // an instruction may read x->pc or x->npc (decode.h)
    bool cof;                 // an instruction may branch (flags jump, call, return)
    bool undo;                // written in place although it may fault (block.c:
                              // can_write_in_block): undo_regs are put back if it does
    uint32_t undo_regs;
};

struct hx_block {
    uint32_t addr;            // the first packet's address
    uint8_t npk;              // packets
    uint8_t nops;             // instructions
    bool closed;              // the last packet may branch: nothing may follow it
    uint8_t nlinks;           // links patched (HX_BLOCK_LINKS at most)
    uint32_t runs;            // interpreted runs so far
    hx_jit_fn jit;            // the block compiled (jit.h), or NULL: interpreted
    const void *jit_chain;    // where compiled blocks go on into it (jit.h)
    const void *jit_far;      // system mode: where compiled blocks of other pages go on into
                              // it (jit.h: its translation checked first)
    uint8_t *link[HX_BLOCK_LINKS];   // its links in the host code (jit.h), NULL: none
    uint8_t *link_gate;       // where its host code returns to be linked while
                              // a link is free (jit.h: hx_jit_open_gate), or NULL
    struct hx_block_pkt *pk;  // npk packets
    struct hexsim_insn *op;   // nops instructions
    // system mode (src/hvm/run_jit.c): the RAM page its packets were read from (and its
    // physical page number), the next page if its last packet reaches into it (NULL: none;
    // compiled blocks going on into it check that page's translation: jit.h), the pages'
    // wgen when they were read (mem.h: the block is stale once a page's differs), the most
    // pcycles that pass before its last packet starts, the thread's turns aside, and the
    // stale compiled block it replaces at its address in its page (NULL: none; that one's
    // stale the one before, and so on), whose entries lead to it once it is compiled (the
    // last HX_BLOCK_REDIRECTS of them: hx_block_compile), so that links to them go on
    const struct hexsim_page *page, *page2;
    uint32_t wgen, wgen2;
    uint32_t ppage;
    uint32_t cycles;
    struct hx_block *stale;
};

// One slot of the hash table: the block at key - 1, if gen is the table's.
struct hx_block_slot {
    uint32_t key;
    uint32_t gen;
    struct hx_block *b;
};

// One entry of the jump cache: the compiled block at key - 1 (0: none), where to go on;
// system mode: tag is its physical page number (struct hx_block: ppage), wgen its wgen,
// and far where blocks of other virtual pages go on (struct hx_block: jit_far).
struct hx_block_jc {
    uint32_t key;
    uint32_t tag;
    uint32_t wgen;
    uint32_t pad;
    const void *chain;
    const void *far;
};

struct hx_block_table {
    uint32_t gen;             // slots of other generations are free
    uint32_t nslots;          // a power of two
    uint32_t used;            // slots of this generation
    struct hx_block_slot *slot;
    uint8_t *data;            // the blocks' arena: data_used of data_size bytes
    size_t data_used, data_size;
    struct hx_jit *jit;       // where blocks are compiled (NULL: they are interpreted)
    bool sys;                 // system mode (src/hvm/run_jit.c): compiled blocks go on into
                              // blocks of their own page (same virtual page, same physical
                              // page) at jit_chain, into those of other pages at jit_far (the
                              // vCPU's translation checked there), only while x->until
                              // allows, and not into a stale block (its page's wgen: jit.h)
    uint32_t hot;             // a block is compiled after this many runs (HX_BLOCK_HOT)
    struct hexsim_timing_params tp;   // compiled blocks have these folded in (the defaults
                                      // until hx_block_set_timing says otherwise)
    struct hx_block *exit_from;       // the compiled block that left for one it is not
                                      // linked to (set by compiled code), or NULL
    uint64_t built, compiled, flushes;   // blocks sealed, blocks compiled, flushes (--stats)
    // called after each block is compiled with its address and its host code (--perf-map),
    // or NULL
    void (*on_compiled)(void *ctx, uint32_t addr, const void *code, size_t size);
    void *on_compiled_ctx;
    struct hx_block build;    // the block being built, and its packets and instructions
    struct hx_block_pkt build_pk[HX_BLOCK_MAX_PKTS];
    struct hexsim_insn build_op[HX_BLOCK_MAX_OPS];
    struct hx_block_jc jc[1u << HX_BLOCK_JC_BITS];
};

// How a table's blocks run: interpreted (hx_run_block), or compiled to host code where the
// host allows (jit.h) with the semantics' stencils copied in, or compiled calling the
// semantic functions.
enum hx_block_mode { HX_BLOCKS_INTERPRET, HX_BLOCKS_COMPILE, HX_BLOCKS_COMPILE_CALLS };

// A new, empty table with a code cache of cache_bytes (0: HX_BLOCK_CACHE_DEFAULT; at least
// HX_BLOCK_CACHE_MIN), or NULL (out of memory). hx_block_table_free(NULL) does nothing.
struct hx_block_table *hx_block_table_new(enum hx_block_mode mode, size_t cache_bytes);
void hx_block_table_free(struct hx_block_table *t);

// Drops every block (and their host code).
void hx_block_flush(struct hx_block_table *t);

// The timing parameters the blocks will run with: if they are not those the table's compiled
// blocks assume, every block goes. Parameters too large to be immediates in host code
// (above 2^30) make the table interpret its blocks from then on.
void hx_block_set_timing(struct hx_block_table *t, const struct hexsim_timing_params *tp);

static inline uint32_t hx_block_hash(uint32_t addr)
{
    return ((addr >> 2) * 0x9E3779B1u) >> 8;
}

// The jump cache's entry for addr (compiled code computes the same index: jit.c).
static inline struct hx_block_jc *hx_block_jc_at(struct hx_block_table *t, uint32_t addr)
{
    return &t->jc[((addr >> 2) ^ (addr >> (2 + HX_BLOCK_JC_BITS))) &
                  ((1u << HX_BLOCK_JC_BITS) - 1)];
}

// The block starting at addr, or NULL.
static inline struct hx_block *hx_block_find(struct hx_block_table *t, uint32_t addr)
{
    const uint32_t mask = t->nslots - 1;
    for (uint32_t i = hx_block_hash(addr);; i++) {
        const struct hx_block_slot *s = &t->slot[i & mask];
        if (s->gen != t->gen)   // free: a block at addr would be here or before (block.c)
            return NULL;
        if (s->key == addr + 1)
            return s->b;
    }
}

// Counts an interpreted run of b: true when b is to be compiled now (hx_block_compile).
static inline bool hx_block_hot(struct hx_block_table *t, struct hx_block *b)
{
    return t->jit && ++b->runs >= t->hot;
}

// Compiles b. If the code cache is full, every block goes instead (b too: the caller looks
// up again).
void hx_block_compile(struct hx_block_table *t, struct hx_block *b);

// After compiled code returned with no event: if a compiled block left for a block it is
// not linked to (t->exit_from), links it to the block at pc if that one is compiled, and
// puts that one into the jump cache.
void hx_block_link(struct hx_block_table *t, uint32_t pc);

// Whether pkt may be in a block: well formed, no supervisor or guest instructions, at least
// one instruction to run.
bool hx_block_can_hold(const struct hexsim_packet *pkt);

// Building: hx_block_start starts the table's block under construction at addr;
// hx_block_append adds pkt (the packet at hx_block_next(b)) if it may be in a block and
// fits, and says whether it did; hx_block_open says whether another packet may follow;
// hx_block_seal puts a block of at least one packet into the cache (flushing it first if
// it is full) and returns it there (NULL: the block was empty).
struct hx_block *hx_block_start(struct hx_block_table *t, uint32_t addr);
bool hx_block_append(struct hx_block *b, const struct hexsim_packet *pkt);
bool hx_block_open(const struct hx_block *b);
uint32_t hx_block_next(const struct hx_block *b);
struct hx_block *hx_block_seal(struct hx_block_table *t, struct hx_block *b);

// The end of an `alu` packet of a block when it is not the usual one: what hx_alu_full
// leaves to hx_commit_full, or (the last packet only) a loop end with LPCFG set, which
// hx_exec_step never gives hx_step_alu. True if it committed the packet; false if the usual
// commit follows (sticky USR bits folded in).
static inline __attribute__((always_inline)) bool
hx_block_alu_rare(struct hx_exec *x, const struct hx_block_pkt *p, const bool jumps,
                  const bool last)
{
    if (hx_alu_full(x) ||
        (last && __builtin_expect(p->endloop && (x->cpu->c[HX_USR] & HX_USR_LPCFG_MASK), 0))) {
        hx_alu_commit_full(x, &p->tm, p->endloop, jumps);
        return true;
    }
    return false;
}

// One `alu` packet of a block (hx_step_alu's work, without the packet): ops are its
// instructions; x->wr is the register file. Inline with `jumps` and `last` constant: only
// the last packet of a block may branch or end a loop.
static inline __attribute__((always_inline)) void
hx_block_alu(struct hx_exec *x, const struct hx_block_pkt *p, const struct hexsim_insn *op,
             const bool jumps, const bool last)
{
    const struct hexsim_insn *end = op + p->nops;
    hx_alu_begin(x, p->addr, p->npc, jumps);
    do {
        if (jumps)
            x->cur_in = op;   // hx_jump: the first branch in packet order wins
        op->fn(x, op);
    } while (++op < end);
    if (hx_block_alu_rare(x, p, jumps, last))
        return;
    hx_alu_commit(x, &p->tm, last ? p->endloop : 0, jumps);
}

// One packet of a block on the staged path (hx_exec_step's work, without the packet).
// Returns true if the block must stop: an event (*x->ev; x->pc is the packet's address), a
// store into cached code (code_gen is what it was when the block started), a branch.
static inline __attribute__((always_inline)) bool
hx_block_staged(struct hx_exec *x, const struct hx_block_pkt *p, const struct hexsim_insn *in,
                uint64_t code_gen)
{
    struct hexsim_event_info *ev = x->ev;
    const struct hexsim_insn *end = in + p->nops;
    uint32_t old[32];
    for (uint32_t m = p->undo_regs; m; m &= m - 1)
        old[__builtin_ctz(m)] = x->cpu->r[__builtin_ctz(m)];
    hx_packet_begin(x, p->addr, p->npc, p->direct, p->store_direct);
    do {
        x->cur_in = in;
        in->fn(x, in);
    } while (++in < end);
    if (__builtin_expect(ev->kind >= HX_EV_FAULT_READ, 0)) {
        for (uint32_t m = p->undo_regs; m; m &= m - 1)   // a faulting packet commits nothing
            x->cpu->r[__builtin_ctz(m)] = old[__builtin_ctz(m)];
        hx_clear_full(x);
        return true;
    }
    hx_commit_packet(x, &p->tm, p->endloop);
    x->wr = x->cpu->r;   // for the `alu` packets
    return __builtin_expect((ev->kind != HX_EV_NONE) | (x->mem->code_gen != code_gen) |
                            (x->cpu->pc != p->npc), 0);
}

// Runs and commits the block's packets (cpu.pc is its address; the caller checked that the
// packet count may grow by b->npk and that the executor is not `special`). Returns the event
// that stopped it (HX_EV_NONE: none) with *x->ev as hx_exec_step leaves it and x->pc the
// address of the packet that raised it; cpu.pc is left at the next packet to run. A compiled
// block may run further blocks after it while cpu.packets stays at most x->stop (jit.h).
static inline __attribute__((always_inline)) int hx_run_block(struct hx_exec *x,
                                                               const struct hx_block *b)
{
    if (b->jit)
        return b->jit(x);
    const uint64_t code_gen = x->mem->code_gen;
    const struct hexsim_insn *op = b->op;
    const struct hx_block_pkt *p = b->pk;
    const struct hx_block_pkt *last = p + (b->npk - 1);
    x->ev->kind = HX_EV_NONE;
    x->wr = x->cpu->r;
    for (; p < last; op += p->nops, p++) {   // before the last: no branch, no loop end
        if (__builtin_expect(p->alu != HX_ALU_NONE, 1))
            hx_block_alu(x, p, op, false, false);
        else if (hx_block_staged(x, p, op, code_gen))
            return x->ev->kind;
    }
    if (p->alu == HX_ALU_PLAIN)
        hx_block_alu(x, p, op, false, true);
    else if (p->alu == HX_ALU_JUMPS)
        hx_block_alu(x, p, op, true, true);
    else
        hx_block_staged(x, p, op, code_gen);
    return x->ev->kind;
}

#endif
