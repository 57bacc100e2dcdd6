// SPDX-License-Identifier: MIT
// The block compiler: turns a block (block.h) into x86-64 host code that does what
// hx_run_block does for it, packet by packet, with the packet's constants (addresses, timing
// summary, shape) folded in: the per-packet bookkeeping (start, commit, timing model, count,
// next PC) inline; every instruction's semantics as a copy of its stencil (stencil.h: the
// same table-generated function the interpreter calls, compiled once more with holes for the
// operands) or, where it has none, a call of that function; everything rare (full commits,
// fixed costs, staged stores) by calls of the interpreter's own code. So the compiled block
// leaves exactly the state, counts and pcycles the interpreter leaves.
//
// Only on x86-64 Linux hosts; elsewhere (or if the host refuses executable memory)
// hx_jit_new returns NULL and blocks are interpreted. Compiled code runs where hx_run_block
// runs blocks: user mode, and system mode with device accesses refused (sem.h: no_mmio;
// every load and store translates through hx_ld_slow and hx_st_slow there); never with a
// debugger log or caches. So loads and stores take no extra pcycles (x->tcost stays 0) and
// the event kind is NONE between packets.
#ifndef HEXSIM_CPU_JIT_H
#define HEXSIM_CPU_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hx_exec;
struct hx_block;

// A compiled block: hx_run_block's contract (block.h).
typedef int (*hx_jit_fn)(struct hx_exec *x);

// An arena of host code.
struct hx_jit;

// stencils: copy the semantics' stencils (stencil.h) where there are some; false: call the
// semantic functions (the slower way, kept to check the stencils against). size: the code
// arena's bytes.
struct hx_jit *hx_jit_new(bool stencils, size_t size);
void hx_jit_free(struct hx_jit *j);
// Forgets every compiled block (the caller drops every block that uses one).
void hx_jit_reset(struct hx_jit *j);
// Where the next compiled code goes (the code of a compile is between this address before
// and after it: --perf-map).
const uint8_t *hx_jit_cursor(const struct hx_jit *j);
struct hx_block_table;
// Compiles b (a block of table t): sets b->jit, b->jit_chain (where compiled blocks of t go
// on into b) and b->link[] (its links, unpatched), and returns b->jit; NULL when the arena
// is full. When b ends normally it goes on into the next block if that one is compiled:
// through a link patched to it (hx_jit_link), or found in t's jump cache (only
// once its links are all patched: until then it returns, to be linked: b->link_gate); there,
// while cpu.packets stays at most x->stop, the next block runs. So a run of blocks returns
// only for an event, a limit, a block not compiled or not linked, or not in the jump cache
// (then it sets t->exit_from to itself: block.h), or a store into cached code.
// System mode (t->sys): b->jit_chain is entered only from blocks of b's virtual page read
// from b's physical page under b's wgen (the jump cache's tag and wgen, the links
// hx_block_link makes): the one that ran was good, so b is (a block that writes code stops:
// code_gen); b->jit_far, entered from blocks of other pages, first checks that the vCPU's
// soft TLB (x->xlat->tlb, its current mode's) maps b's virtual page to b's page for
// execution and that the page's wgen is b's. A block whose last packet reaches into the next
// page checks that page's translation and wgen at both entries. A failed check returns with
// no event and cpu.pc at b (the run loop goes on).
hx_jit_fn hx_jit_compile(struct hx_jit *j, struct hx_block_table *t, struct hx_block *b);
// Patches a link of a compiled block (b->link[i]) to go on at target (a b->jit_chain, or in
// system mode a b->jit_far) when the next packet is at pc.
void hx_jit_link(uint8_t *link, uint32_t pc, const void *target);
// Opens a compiled block's gate (b->link_gate), once its links are all patched:
// from then on a block whose links all miss goes on through the jump cache.
void hx_jit_open_gate(uint8_t *gate);
// System mode: makes the jit_far of the compiled block from (stale: links from other pages
// may still lead there) jump to that of the compiled block to.
void hx_jit_redirect(const struct hx_block *from, const struct hx_block *to);

#endif
