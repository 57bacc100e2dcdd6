// SPDX-License-Identifier: MIT
// The block compiler (jit.h): x86-64 code for a block, following hx_run_block (block.h) and
// the inline executor paths it uses (exec_step.h) step by step. The generated function keeps
// the executor state in callee-saved registers: rbx = x, r12 = x->cpu, r13 = x->ev,
// r14 = code_gen when the block started, r15 = x->mem, rbp = the least cost of a packet.
// Between packets it keeps what hx_packet_begin would reset clear (x->pmask, x->full, x->nst,
// x->mem_slow, x->branch_idx: each entry clears them, and the rare packets that set them clear
// them again), and it defers what nothing reads in a block (the packet and instruction
// counts, cpu.pc) to where something may: struct gen.
#define _DEFAULT_SOURCE   // MAP_ANONYMOUS
#include "jit.h"

#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "stencil.h"
#include "x86_emit.h"

#if defined(__x86_64__) && defined(__linux__)
#include <sys/mman.h>
#define HX_JIT_HOST 1
#else
#define HX_JIT_HOST 0
#endif

struct hx_jit {
    uint8_t *base;
    size_t used, size;
    bool stencils;   // copy the semantics' stencils (stencil.h); else call the functions
};

struct hx_jit *hx_jit_new(bool stencils, size_t size)
{
#if HX_JIT_HOST
    struct hx_jit *j = calloc(1, sizeof(*j));
    if (!j)
        return NULL;
    // near this program's code if the host agrees, so that calls of the semantic functions
    // take a 32-bit displacement (x86_call); anywhere else works too
    uintptr_t near = ((uintptr_t)&hx_jit_new & ~(uintptr_t)0xFFFFF) - ((uintptr_t)256 << 20);
    void *m = mmap((void *)near, size, PROT_READ | PROT_WRITE | PROT_EXEC,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        free(j);
        return NULL;
    }
    j->base = m;
    j->size = size;
    j->stencils = stencils;
    return j;
#else
    (void)stencils;
    (void)size;
    return NULL;
#endif
}

void hx_jit_free(struct hx_jit *j)
{
    if (!j)
        return;
#if HX_JIT_HOST
    munmap(j->base, j->size);
#endif
    free(j);
}

void hx_jit_reset(struct hx_jit *j)
{
    j->used = 0;
}

const uint8_t *hx_jit_cursor(const struct hx_jit *j)
{
    return j->base + j->used;
}

// ---- what the generated code calls (the interpreter's inline code, out of line)

// The rare end of an `alu` packet (hx_block_alu_rare). flags: bit 0 jumps, bit 1 last.
// Returns 1 if it committed the packet, 0 if the usual commit follows.
static int jit_alu_full(struct hx_exec *x, const struct hx_block_pkt *p, int flags)
{
    return hx_block_alu_rare(x, p, flags & 1, flags & 2);
}

static void jit_fault(struct hx_exec *x)
{
    hx_clear_full(x);
}

static void jit_commit_full(struct hx_exec *x, const struct hexsim_packet_timing *pt,
                            int endloop)
{
    hx_commit_full(x, pt, (uint8_t)endloop);
}

static void jit_commit_stores(struct hx_exec *x)
{
    hx_commit_stores(x);
}

static void jit_commit_regs(struct hx_exec *x)
{
    hx_commit_regs(x);
}

static uint64_t jit_timing_extra(struct hx_exec *x, const struct hexsim_packet_timing *pt)
{
    return hexsim_timing_extra(&x->cpu->tm, timing_params(x), pt, x->branch_idx);
}

// The HVX part of the timing model (hexsim_timing_hvx): the issue pcycle after the vector
// registers' stall.
static uint64_t jit_timing_hvx(struct hx_exec *x, const struct hexsim_packet_timing *pt,
                               uint64_t issue)
{
    return hexsim_timing_hvx(&x->cpu->tm, timing_params(x), pt, issue);
}

// The control registers a packet wrote (hx_commit_full's part for them), cleared again.
static void jit_commit_ctrl(struct hx_exec *x)
{
    struct hexsim_cpu *c = x->cpu;
    for (uint32_t m = x->cmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        c->c[r] = x->new_c[r];
    }
    x->cmask = 0;
}

static void jit_commit_preds(struct hx_exec *x)
{
    struct hexsim_cpu *c = x->cpu;
    for (unsigned m = x->pmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        c->p[r] = x->new_p[r];
    }
}

// ---- code generation

#define OFF(type, field) ((int32_t)offsetof(type, field))
#define XO(field) OFF(struct hx_exec, field)
#define CO(field) OFF(struct hexsim_cpu, field)
#define SIZE(type, field) sizeof(((type *)0)->field)

// The generated code reads and writes these fields with these sizes.
_Static_assert(SIZE(struct hx_exec, pc) == 4 && SIZE(struct hx_exec, npc) == 4, "pc");
_Static_assert(SIZE(struct hx_exec, pmask) == 1 && SIZE(struct hx_exec, full) == 1 &&
               SIZE(struct hx_exec, new_p[0]) == 1 && SIZE(struct hexsim_cpu, p[0]) == 1,
               "flags");
_Static_assert(SIZE(struct hx_exec, branch_idx) == 4 && SIZE(struct hx_exec, tcost) == 4, "br");
_Static_assert(SIZE(struct hexsim_event_info, kind) == 4, "kind");
_Static_assert(SIZE(struct hexsim_cpu, packets) == 8 && SIZE(struct hexsim_cpu, pcycles) == 8,
               "counts");
_Static_assert(SIZE(struct hexsim_cpu, pc) == 4 && SIZE(struct hexsim_cpu, c[0]) == 4, "regs");
_Static_assert(SIZE(struct hexsim_timing_state, pending) == 4 &&
               SIZE(struct hexsim_timing_state, interleave) == 4 &&
               SIZE(struct hexsim_timing_stats, insns) == 8 &&
               SIZE(struct hexsim_timing_stats, hvx_insns) == 8 &&
               SIZE(struct hexsim_timing_stats, hvx_packets) == 8, "timing");
_Static_assert(SIZE(struct hexsim_mem, code_gen) == 8, "code_gen");
_Static_assert(SIZE(struct hexsim_timing_stats, stall[0]) == 8 &&
               SIZE(struct hexsim_timing_stats, taken) == 8 &&
               SIZE(struct hexsim_timing_stats, mispredicts) == 8 &&
               SIZE(struct hexsim_timing_params, branch_taken) == 4, "branch costs");
_Static_assert(SIZE(struct hexsim_timing_state, ready[0]) == 8 &&
               SIZE(struct hexsim_timing_state, cause[0]) == 1 &&
               SIZE(struct hexsim_timing_state, max_ready) == 8 &&
               SIZE(struct hexsim_timing_params, lat_load) == 4, "ready");

enum { RX = X86_RBX, RC = X86_R12, REV = X86_R13, RGEN = X86_R14, RMEM = X86_R15,
       RCOST = X86_RBP };

// The stack frame below the six saved registers: two 8-byte scratch slots at rsp, then one
// 4-byte slot per general register for the values a packet's in-place writes may have to
// put back (UNDO_SLOTS). The code runs with rsp as a function finds it on entry, 8 below a
// multiple of 16 (8 return + 48 pushed + 160), so that stencils can be jumped into; calls
// move it down by 8 around them.
enum { UNDO_SLOTS = 16, FRAME = 160 };
_Static_assert(UNDO_SLOTS + 4 * 32 <= FRAME && (8 + 48 + FRAME) % 16 == 8, "frame");

static void arg_ptr(struct x86_buf *b, int reg, const void *p)
{
    x86_mov_r64_imm64(b, reg, (uint64_t)(uintptr_t)p);
}

// call fn(a0, a1, a2, a3) with the arguments already in rdi, rsi, rdx, rcx
static void call(struct x86_buf *b, const void *fn)
{
    x86_lea(b, X86_RSP, X86_RSP, -8);
    x86_call(b, fn);
    x86_lea(b, X86_RSP, X86_RSP, 8);
}

// The rare ways out of a packet (a fault, the full commit, sticky USR bits) are stubs after
// the block's code, so that the usual way runs straight through without a taken jump.
enum stub_kind { STUB_FAULT, STUB_STAGED, STUB_ALU };

struct stub {
    enum stub_kind kind;
    const struct hx_block_pkt *p;
    bool last, pc_now, jumps, may_pred;
    unsigned pk, ic;         // the counts not yet added where the main code jumps here
    size_t in[6];            // jumps to the full commit (STUB_FAULT: to the stub)
    unsigned nin;
    size_t sticky;           // jump to the sticky-bits fold (0: none)
    const uint8_t *usual;    // where the fold goes back to
    const uint8_t *commit;   // STUB_ALU: the usual commit, after jit_alu_full declined
    const uint8_t *done;     // where the full commit goes back to
};

// A jump to the block's exit, with the packets and instructions counted in the code before
// it but not yet added to the counters (struct gen).
struct exit {
    size_t at;
    unsigned pk, in;
    uint32_t pc;   // cpu.pc is due to be this (0: it is set)
};

// One compile. The packets and instructions the code commits are added to cpu.packets and
// the instruction count not packet by packet but where something may read them: before a
// call that may (a semantic function, a stencil calling other code: PKTCOUNT), at each exit
// and before going on into the next block; pk and in are those counted since (known here,
// at compile time, for each place in the code).
struct gen {
    struct x86_buf *b;
    const struct hx_jit *j;
    const struct hx_block_table *t;   // its timing parameters are constants here
    unsigned pk, in;
    uint32_t pc;   // cpu.pc is due to be this (0: it is set): a packet before the block's last
                   // leaves it to the exits (nothing else reads it in a block)
    int store_now;   // x->store_now as the code before leaves it (-1: not known)
    struct exit exits[4 * HX_BLOCK_MAX_PKTS + 8];
    unsigned nexit;
    struct stub stub[2 * HX_BLOCK_MAX_PKTS];
    unsigned nstub;
    // the timing model's ready times as far as this block's code sets them: the packet (its
    // index + 1, 0: none yet) that last set register n's and with which latency
    // (gen_ready_regs)
    unsigned npk;
    unsigned set_by[32], lat[32];
};

// Adds pk packets and `in` instructions to the counters (subtracts them: negative).
static void gen_count(struct x86_buf *b, int pk, int in)
{
    if (pk)
        x86_add_mem_imm(b, 8, RC, CO(packets), pk);
    if (in)
        x86_add_mem_imm(b, 8, RC, CO(tm) + OFF(struct hexsim_timing_state, st.insns), in);
}

// The counts so far into the counters.
static void gen_flush_counts(struct gen *g)
{
    gen_count(g->b, (int)g->pk, (int)g->in);
    g->pk = g->in = 0;
}

// No store staged: what compiled code keeps between packets (gen_staged), and loads on
// their usual way (x->mem_slow as hx_packet_begin sets it: mem_slow_base).
static void gen_no_stores(struct x86_buf *b)
{
    _Static_assert(SIZE(struct hx_exec, mem_slow) == 1 && SIZE(struct hx_exec, mem_slow_base) == 1,
                   "mem_slow");
    x86_store_imm(b, 4, RX, XO(nst), 0);
    x86_movzx8(b, X86_RAX, RX, XO(mem_slow_base));
    x86_store(b, 1, RX, XO(mem_slow), X86_RAX);
}

// A jump to the exit from here (`at`: its displacement), with the counts as they stand.
static void add_exit(struct gen *g, size_t at)
{
    g->exits[g->nexit++] = (struct exit){ at, g->pk, g->in, g->pc };
}

// The stencil of instruction in (stencil.h), if the block compiler copies stencils and the
// instruction runs its table function (not hexsim_sem_unimplemented); else NULL.
static const struct hx_stencil *stencil_of(const struct hx_jit *j, const struct hexsim_insn *in)
{
    if (!j->stencils)
        return NULL;
    const struct hx_stencil *s = NULL;
    if (in->fn == hexsim_isa_sem[in->tag])
        s = &hexsim_isa_stencil[in->tag];
    else if (in->fn == hexsim_isa_sem_direct[in->tag])
        s = &hexsim_isa_stencil_direct[in->tag];
    return s && s->code ? s : NULL;
}

// Whether an instruction of packet p (its n instructions at op) may do what stencil flag
// `what` says (HX_STENCIL_FULL: set x->full; HX_STENCIL_PRED: write a predicate), as the
// marks in its semantics tell (an instruction without a stencil, or calling other code, may).
// Compiled code keeps x->full and x->pmask clear between packets (each entry clears them,
// the packets that may set them clear them again), so that only those packets test them.
static bool packet_may(const struct hx_jit *j, const struct hexsim_insn *op, unsigned n,
                       unsigned what)
{
    for (unsigned k = 0; k < n; k++) {
        const struct hx_stencil *s = stencil_of(j, &op[k]);
        if (!s || (s->flags & (HX_STENCIL_CALLS | what)))
            return true;
    }
    return false;
}

// Where a call or constant of a stencil (HX_REL_SYM, HX_REL_DATA) goes.
static intptr_t stencil_target(const struct hx_stencil_rel *r)
{
    return r->kind == HX_REL_SYM ? (intptr_t)hexsim_stencil_syms[r->arg]
                                 : (intptr_t)hexsim_stencil_data[r->arg];
}

// Whether every call and constant of stencil s copied to about `at` is in reach of a rel32
// (the arena is normally near the program: hx_jit_new; the margin covers the block's size).
static bool stencil_reaches(const struct hx_stencil *s, const uint8_t *at)
{
    for (unsigned i = 0; i < s->nrel; i++) {
        if (s->rel[i].kind != HX_REL_SYM && s->rel[i].kind != HX_REL_DATA)
            continue;
        int64_t d = (int64_t)(stencil_target(&s->rel[i]) - (intptr_t)at);
        if (d < INT32_MIN + (1 << 24) || d > INT32_MAX - (1 << 24))
            return false;
    }
    return true;
}

// Instruction in's semantics: its stencil copied and patched (the operands, its index and
// address, the way on to the end of the copy, the calls into this program), or a call of its
// function. `cur_in`: x->cur_in must name it for whatever reads it (a branch, a fault's
// event); stencils know their instruction, so only those calling other code need it.
static void gen_insn(struct gen *g, const struct hexsim_insn *in, bool cur_in)
{
    struct x86_buf *b = g->b;
    const struct hx_stencil *s = stencil_of(g->j, in);
    if (s && !stencil_reaches(s, b->p))
        s = NULL;
    if (!s || (s->flags & HX_STENCIL_CALLS)) {   // other code runs
        gen_flush_counts(g);   // it may read them (PKTCOUNT)
        if (cur_in) {
            arg_ptr(b, X86_RAX, in);
            x86_store(b, 8, RX, XO(cur_in), X86_RAX);
        }
    }
    x86_mov_r64_r64(b, X86_RDI, RX);
    if (!s) {
        arg_ptr(b, X86_RSI, in);
        call(b, (const void *)in->fn);
        return;
    }
    uint8_t *at = x86_copy(b, s->code, s->size);
    if (!at)
        return;   // full: the compile fails
    for (unsigned i = 0; i < s->nrel; i++) {
        const struct hx_stencil_rel *r = &s->rel[i];
        uint8_t *p = at + r->off;
        uint64_t v;
        switch (r->kind) {
        case HX_REL_OP:
            v = in->op[r->arg] + (uint32_t)r->addend;
            break;
        case HX_REL_ROFF:
            v = 4u * hexsim_stencil_regnum(r->arg >> 4, in->op[r->arg & 15]) +
                (uint32_t)r->addend;
            break;
        case HX_REL_RBIT:
            v = hexsim_stencil_regbits(r->arg >> 4, in->op[r->arg & 15]) + (uint32_t)r->addend;
            break;
        case HX_REL_IDX:
            v = in->idx + (uint32_t)r->addend;
            break;
        case HX_REL_INSN:
            v = (uint64_t)(uintptr_t)in + (uint64_t)(int64_t)r->addend;
            memcpy(p, &v, 8);
            continue;
        case HX_REL_NEXT:
            v = (uint64_t)((at + s->size) - p + r->addend);
            break;
        default:   // HX_REL_SYM, HX_REL_DATA, within reach (stencil_reaches)
            v = (uint64_t)(stencil_target(r) - (intptr_t)p + r->addend);
            break;
        }
        uint32_t w = (uint32_t)v;
        memcpy(p, &w, 4);
    }
}

// x->pc and x->npc of packet p.
static void gen_pc(struct x86_buf *b, const struct hx_block_pkt *p)
{
    x86_store_imm(b, 4, RX, XO(pc), (int32_t)p->addr);
    x86_store_imm(b, 4, RX, XO(npc), (int32_t)p->npc);
}

// The instructions of an `alu` packet: hx_alu_begin (x->pc and x->npc only if an instruction
// reads them; the rare commit sets them), then each semantic function.
static void gen_alu_run(struct gen *g, const struct hx_block_pkt *p,
                        const struct hexsim_insn *op, bool jumps)
{
    struct x86_buf *b = g->b;
    if (p->uses_pc || jumps)
        gen_pc(b, p);
    // x->pmask and x->full are clear already (packet_may); x->tcost stays 0 (jit.h)
    if (jumps)
        x86_store_imm(b, 4, RX, XO(branch_idx), -1);
    for (unsigned k = 0; k < p->nops; k++)
        gen_insn(g, &op[k], jumps);
}

// hexsim_timing_data_stall for a packet reading regs, issue in rax (and left there, moved to
// the latest ready time of a pending register with the stall counted by its cause): nothing
// if none is pending; all forgotten if all are long ready; else each register in turn.
static void gen_data_stall(struct x86_buf *b, uint32_t regs)
{
    const int32_t tm = CO(tm);
    const int32_t pending = tm + OFF(struct hexsim_timing_state, pending);
    x86_test_mem_imm32(b, RC, pending, regs);
    size_t none = x86_jcc(b, X86_CC_E);
    x86_cmp_r64_mem(b, X86_RAX, RC, tm + OFF(struct hexsim_timing_state, max_ready));
    size_t wait = x86_jcc(b, X86_CC_B);
    x86_store_imm(b, 4, RC, pending, 0);
    size_t done = x86_jmp(b);
    x86_patch(b, wait);
    x86_mov_r64_r64(b, X86_RDX, X86_RAX);   // the latest ready time so far
    for (uint32_t m = regs; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        x86_test_mem_imm32(b, RC, pending, 1u << r);
        size_t next = x86_jcc(b, X86_CC_E);
        x86_load(b, 8, X86_RSI, RC, tm + OFF(struct hexsim_timing_state, ready) + 8 * r);
        x86_cmp_r64_r64(b, X86_RSI, X86_RAX);
        size_t later = x86_jcc(b, X86_CC_A);
        x86_and_mem_imm32(b, RC, pending, ~(1u << r));   // long ready: forget it
        size_t next2 = x86_jmp(b);
        x86_patch(b, later);
        x86_cmp_r64_r64(b, X86_RSI, X86_RDX);
        size_t next3 = x86_jcc(b, X86_CC_BE);
        x86_mov_r64_r64(b, X86_RDX, X86_RSI);
        x86_movzx8(b, X86_R8, RC, tm + OFF(struct hexsim_timing_state, cause) + r);
        x86_patch(b, next);
        x86_patch(b, next2);
        x86_patch(b, next3);
    }
    x86_cmp_r64_r64(b, X86_RDX, X86_RAX);
    size_t no_stall = x86_jcc(b, X86_CC_BE);
    x86_mov_r64_r64(b, X86_RSI, X86_RDX);
    x86_sub_r64_r64(b, X86_RSI, X86_RAX);
    x86_imul_r64_imm(b, X86_R8, X86_R8, 8);
    x86_add_r64_r64(b, X86_R8, RC);
    x86_add_mem_r64(b, X86_R8, tm + OFF(struct hexsim_timing_state, st.stall), X86_RSI);
    x86_mov_r64_r64(b, X86_RAX, X86_RDX);
    x86_patch(b, no_stall);
    x86_patch(b, none);
    x86_patch(b, done);
}

// hexsim_timing_set_ready(t, regs, issue + lat, cause), issue in rax (kept).
static void gen_set_ready(struct x86_buf *b, uint32_t regs, unsigned lat, int cause)
{
    const int32_t tm = CO(tm);
    x86_lea(b, X86_RDX, X86_RAX, (int32_t)lat);
    for (uint32_t m = regs; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        x86_store(b, 8, RC, tm + OFF(struct hexsim_timing_state, ready) + 8 * r, X86_RDX);
        x86_store_imm(b, 1, RC, tm + OFF(struct hexsim_timing_state, cause) + r, cause);
    }
    x86_or_mem_imm32(b, RC, tm + OFF(struct hexsim_timing_state, pending), regs);
    x86_cmp_r64_mem(b, X86_RDX, RC, tm + OFF(struct hexsim_timing_state, max_ready));
    size_t keep = x86_jcc(b, X86_CC_BE);
    x86_store(b, 8, RC, tm + OFF(struct hexsim_timing_state, max_ready), X86_RDX);
    x86_patch(b, keep);
}

// The predicates (hx_commit_regs' second half): those the packet's instructions name as
// written (wpreds) inline, and (in case an instruction wrote another) the call if the mask
// says so.
static void gen_commit_preds_now(struct x86_buf *b, unsigned wpreds)
{
    const unsigned others = ~wpreds & 15u;
    if (others == 15u) {   // none named: only the call, if an instruction wrote one after all
        x86_test_mem_imm8(b, RX, XO(pmask), 15u);
    } else {
        x86_movzx8(b, X86_RDX, RX, XO(pmask));
        for (unsigned m = wpreds & 15u; m; m &= m - 1) {
            int n = __builtin_ctz(m);
            x86_test_r32_imm(b, X86_RDX, 1u << n);
            size_t skip = x86_jcc(b, X86_CC_E);
            x86_movzx8(b, X86_RAX, RX, XO(new_p) + n);
            x86_store(b, 1, RC, CO(p) + n, X86_RAX);
            x86_patch(b, skip);
        }
        if (others)
            x86_test_r32_imm(b, X86_RDX, others);
    }
    if (others) {
        size_t none = x86_jcc(b, X86_CC_E);
        x86_mov_r64_r64(b, X86_RDI, RX);
        call(b, (const void *)jit_commit_preds);
        x86_patch(b, none);
    }
}

// The predicates (hx_commit_regs' second half), if an instruction may have written one (`may`:
// packet_may), and x->pmask clear again.
static void gen_commit_preds(struct x86_buf *b, unsigned wpreds, bool may)
{
    if (!(wpreds & 15u) && !may)
        return;   // nothing can have written one
    gen_commit_preds_now(b, wpreds);
    x86_store_imm(b, 1, RX, XO(pmask), 0);   // clear again for the next packet (packet_may)
}

// hx_commit_regs' first half for a staged packet: the registers its instructions name
// inline, and (in case an instruction wrote another) the call if the mask says so.
static void gen_commit_regs(struct x86_buf *b, uint32_t wregs)
{
    for (uint32_t m = wregs; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        x86_test_mem_imm32(b, RX, XO(rmask), 1u << r);
        size_t skip = x86_jcc(b, X86_CC_E);
        x86_load(b, 4, X86_RAX, RX, XO(new_r) + 4 * r);
        x86_store(b, 4, RC, CO(r) + 4 * r, X86_RAX);
        x86_patch(b, skip);
    }
    if (~wregs) {
        x86_test_mem_imm32(b, RX, XO(rmask), ~wregs);
        size_t none = x86_jcc(b, X86_CC_E);
        x86_mov_r64_r64(b, X86_RDI, RX);
        call(b, (const void *)jit_commit_regs);
        x86_patch(b, none);
    }
}

// hexsim_timing_writes, issue in rax (kept).
static void gen_writes(struct x86_buf *b, const struct hexsim_timing_params *tp,
                       const struct hexsim_packet_timing *pt)
{
    if (pt->w_load)
        gen_set_ready(b, pt->w_load, tp->lat_load, HX_STALL_LOAD);
    if (pt->w_mpy)
        gen_set_ready(b, pt->w_mpy, tp->lat_mpy, HX_STALL_MPY);
    if (pt->w_fp)
        gen_set_ready(b, pt->w_fp, tp->lat_fp, HX_STALL_FP);
    if (pt->w_xfer)
        gen_set_ready(b, pt->w_xfer, tp->hvx_xfer, HX_STALL_HVX_XFER);
}

// The end of a loop-0 body that took no branch (hx_alu_commit, hx_commit_packet): LC0 > 1
// counts down and goes back to SA0.
static void gen_loop0_end(struct x86_buf *b)
{
    x86_load(b, 4, X86_RAX, RC, CO(c[HX_LC0]));
    x86_cmp_r32_imm(b, X86_RAX, 1);
    size_t done = x86_jcc(b, X86_CC_BE);
    x86_dec_r32(b, X86_RAX);
    x86_store(b, 4, RC, CO(c[HX_LC0]), X86_RAX);
    x86_load(b, 4, X86_RAX, RC, CO(c[HX_SA0]));
    x86_store(b, 4, RC, CO(pc), X86_RAX);
    x86_patch(b, done);
}

// One way of hexsim_timing_extra for a packet without fixed costs, its branch taken (`taken`)
// or not, and the rest of the packet's commit on that way: `cost` pcycles for `cause`
// (`mispredict`: a wrong hint, counted too), the packet's cost (one pcycle plus that, at
// least the thread's turn) added to the issue pcycle in rax and the clock set, the next PC
// (the branch's target, or the next packet or the loop start).
static void gen_branch_way(struct x86_buf *b, const struct hx_block_pkt *p, bool taken,
                           unsigned cost, int cause, bool mispredict)
{
    const int32_t st = CO(tm) + OFF(struct hexsim_timing_state, st);
    if (mispredict)
        x86_add_mem_imm(b, 8, RC, st + OFF(struct hexsim_timing_stats, mispredicts), 1);
    if (cost) {
        x86_add_mem_imm(b, 8, RC, st + OFF(struct hexsim_timing_stats, stall) + 8 * cause,
                        (int32_t)cost);
        x86_mov_r32_imm32(b, X86_RCX, 1 + cost);
        x86_cmp_r32_r32(b, X86_RCX, RCOST);   // at least the thread's turn
        size_t big = x86_jcc(b, X86_CC_AE);
        x86_mov_r64_r64(b, X86_RCX, RCOST);
        x86_patch(b, big);
        x86_add_r64_r64(b, X86_RAX, X86_RCX);
    } else {
        x86_add_r64_r64(b, X86_RAX, RCOST);   // one pcycle or the thread's turn (rbp >= 1)
    }
    x86_store(b, 8, RC, CO(pcycles), X86_RAX);
    if (taken) {
        x86_load(b, 4, X86_RCX, RX, XO(branch_target));
        x86_store(b, 4, RC, CO(pc), X86_RCX);
    } else {
        x86_store_imm(b, 4, RC, CO(pc), (int32_t)p->npc);
        if (p->endloop == 1)
            gen_loop0_end(b);
    }
}

// hexsim_timing_extra and the rest of the commit (gen_branch_way) for a packet without fixed
// costs: the branch taken (which instruction, from x->branch_idx) or a taken hint that fell
// through, each way on its own (issue in rax).
static void gen_branch_commit(struct x86_buf *b, const struct hexsim_timing_params *tp,
                              const struct hx_block_pkt *p)
{
    const struct hexsim_packet_timing *pt = &p->tm;
    const int32_t st = CO(tm) + OFF(struct hexsim_timing_state, st);
    size_t ends[3];
    unsigned nend = 0;
    x86_load(b, 4, X86_RDX, RX, XO(branch_idx));
    x86_test_r32_r32(b, X86_RDX, X86_RDX);
    size_t none = x86_jcc(b, X86_CC_S);
    x86_add_mem_imm(b, 8, RC, st + OFF(struct hexsim_timing_stats, taken), 1);
    size_t ind[HX_PACKET_MAX_INSNS], nt[HX_PACKET_MAX_INSNS];
    unsigned nind = 0, nnt = 0;
    for (unsigned i = 0; i < HX_PACKET_MAX_INSNS; i++) {
        if (pt->indirect & (1u << i)) {
            x86_cmp_r32_imm(b, X86_RDX, (int32_t)i);
            ind[nind++] = x86_jcc(b, X86_CC_E);
        } else if (pt->hint_nt & (1u << i)) {
            x86_cmp_r32_imm(b, X86_RDX, (int32_t)i);
            nt[nnt++] = x86_jcc(b, X86_CC_E);
        }
    }
    gen_branch_way(b, p, true, tp->branch_taken, HX_STALL_BRANCH, false);
    ends[nend++] = x86_jmp(b);
    if (nind) {
        for (unsigned i = 0; i < nind; i++)
            x86_patch(b, ind[i]);
        gen_branch_way(b, p, true, tp->indirect, HX_STALL_INDIRECT, false);
        ends[nend++] = x86_jmp(b);
    }
    if (nnt) {
        for (unsigned i = 0; i < nnt; i++)
            x86_patch(b, nt[i]);
        gen_branch_way(b, p, true, tp->mispredict, HX_STALL_MISPREDICT, true);
        ends[nend++] = x86_jmp(b);
    }
    x86_patch(b, none);
    if (pt->hint_t)   // hinted taken, fell through
        gen_branch_way(b, p, false, tp->mispredict, HX_STALL_MISPREDICT, true);
    else
        gen_branch_way(b, p, false, 0, HX_STALL_BRANCH, false);
    for (unsigned i = 0; i < nend; i++)
        x86_patch(b, ends[i]);
}

// The registers of `regs` whose results may not be ready when the packet now compiled issues
// (gen_data_stall need look only at these): all but those the block's packet i set with a
// latency of at most this packet's distance from it (each packet takes at least one pcycle,
// so this one issues at least that many pcycles after packet i; a register's ready time is
// the last set's: hexsim_timing_set_ready).
static uint32_t gen_ready_regs(const struct gen *g, uint32_t regs)
{
    uint32_t left = regs;
    for (uint32_t m = regs; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        if (g->set_by[r] && g->lat[r] <= g->npk + 1 - g->set_by[r])
            left &= ~(1u << r);
    }
    return left;
}

// Notes the ready times packet pt sets (hexsim_timing_writes, in its order) for
// gen_ready_regs.
static void gen_note_writes(struct gen *g, const struct hexsim_timing_params *tp,
                            const struct hexsim_packet_timing *pt)
{
    const uint32_t mask[4] = { pt->w_load, pt->w_mpy, pt->w_fp, pt->w_xfer };
    const unsigned lat[4] = { tp->lat_load, tp->lat_mpy, tp->lat_fp, tp->hvx_xfer };
    for (unsigned k = 0; k < 4; k++) {
        for (uint32_t m = mask[k]; m; m &= m - 1) {
            int r = __builtin_ctz(m);
            g->set_by[r] = g->npk + 1;
            g->lat[r] = lat[k];
        }
    }
}

// What hx_commit_packet and hx_alu_commit with jumps do after the registers: the count (kept
// here, struct gen), hx_timing_commit (issue in rax and [rsp], the cost in [rsp + 8]), the
// next PC (cpu.pc left due before the block's last packet, struct gen) and a loop-0 end
// without a branch.
static void gen_commit_tail(struct gen *g, const struct hx_block_pkt *p, bool last)
{
    struct x86_buf *b = g->b;
    const struct hexsim_timing_params *tp = &g->t->tp;
    g->pk++;   // the counts (struct gen)
    g->in += p->tm.ninsns;
    if (p->tm.hvx_insns) {   // hx_count_hvx, at once (rare: not kept in struct gen)
        x86_add_mem_imm(b, 8, RC, CO(tm) + OFF(struct hexsim_timing_state, st.hvx_packets), 1);
        x86_add_mem_imm(b, 8, RC, CO(tm) + OFF(struct hexsim_timing_state, st.hvx_insns),
                        p->tm.hvx_insns);
    }
    const struct hexsim_packet_timing *pt = &p->tm;
    x86_load(b, 8, X86_RAX, RC, CO(pcycles));
    const uint32_t rd = gen_ready_regs(g, pt->rd);
    if (rd)
        gen_data_stall(b, rd);
    gen_note_writes(g, tp, pt);
    g->npk++;
    if (pt->hvx) {   // the vector registers: a call (an HVX packet does far more work)
        x86_mov_r64_r64(b, X86_RDX, X86_RAX);
        x86_mov_r64_r64(b, X86_RDI, RX);
        arg_ptr(b, X86_RSI, pt);
        call(b, (const void *)jit_timing_hvx);
    }
    if (!pt->slow) {   // no branch, no fixed cost: the least cost, the next packet
        gen_writes(b, tp, pt);
        x86_add_r64_r64(b, X86_RAX, RCOST);
        x86_store(b, 8, RC, CO(pcycles), X86_RAX);
        g->pc = last || p->endloop ? 0 : p->npc;
        if (!g->pc)
            x86_store_imm(b, 4, RC, CO(pc), (int32_t)p->npc);
        if (p->endloop == 1)
            gen_loop0_end(b);
        return;
    }
    g->pc = 0;   // set below
    if (!pt->extra) {   // a branch or a hint: each way on its own (x->tcost is 0: jit.h)
        gen_writes(b, tp, pt);
        gen_branch_commit(b, tp, p);
        return;
    }
    // fixed costs (rare): hexsim_timing_extra
    x86_store(b, 8, X86_RSP, 0, X86_RAX);
    x86_mov_r64_r64(b, X86_RDI, RX);
    arg_ptr(b, X86_RSI, pt);
    call(b, (const void *)jit_timing_extra);
    x86_lea(b, X86_RCX, X86_RAX, 1);   // and one pcycle (x->tcost is 0: jit.h)
    x86_store(b, 8, X86_RSP, 8, X86_RCX);
    x86_load(b, 8, X86_RAX, X86_RSP, 0);
    gen_writes(b, tp, pt);
    x86_load(b, 8, X86_RCX, X86_RSP, 8);
    x86_cmp_r32_r32(b, X86_RCX, RCOST);   // at least the thread's turn
    size_t big = x86_jcc(b, X86_CC_AE);
    x86_mov_r64_r64(b, X86_RCX, RCOST);
    x86_patch(b, big);
    x86_add_r64_r64(b, X86_RAX, X86_RCX);
    x86_store(b, 8, RC, CO(pcycles), X86_RAX);
    // the next PC: the branch taken, or the next packet (or the loop start)
    x86_cmp_mem_imm(b, 4, RX, XO(branch_idx), 0);
    size_t fall = x86_jcc(b, X86_CC_L);   // -1: no branch
    x86_load(b, 4, X86_RCX, RX, XO(branch_target));
    x86_store(b, 4, RC, CO(pc), X86_RCX);
    size_t done = x86_jmp(b);
    x86_patch(b, fall);
    x86_store_imm(b, 4, RC, CO(pc), (int32_t)p->npc);
    if (p->endloop == 1)
        gen_loop0_end(b);
    x86_patch(b, done);
}

// A packet that set x->full: if it wrote nothing but sticky USR bits and (`ctrl`: a packet
// ending no loop, whose commit needs no loop registers as they were before it) control
// registers, with no guest registers, no released reservation and no HVX state, those go in
// now and the usual commit follows (what hx_alu_full does, and what hx_commit_full amounts
// to then); else to the full commit (rare[0..n), n returned).
static unsigned gen_fold_sticky(struct x86_buf *b, size_t rare[4], bool ctrl)
{
    _Static_assert(SIZE(struct hx_exec, cmask) == 4 && SIZE(struct hx_exec, gmask) == 4 &&
                   SIZE(struct hx_exec, usr_sticky) == 4 &&
                   SIZE(struct hx_exec, release_reservation) == 1 &&
                   SIZE(struct hx_exec, hvx) == 1, "full");
    unsigned n = 0;
    if (!ctrl) {
        x86_cmp_mem_imm(b, 4, RX, XO(cmask), 0);
        rare[n++] = x86_jcc(b, X86_CC_NE);
    }
    x86_cmp_mem_imm(b, 4, RX, XO(gmask), 0);
    rare[n++] = x86_jcc(b, X86_CC_NE);
    x86_cmp_mem_imm(b, 1, RX, XO(release_reservation), 0);
    rare[n++] = x86_jcc(b, X86_CC_NE);
    x86_cmp_mem_imm(b, 1, RX, XO(hvx), 0);
    rare[n++] = x86_jcc(b, X86_CC_NE);
    if (ctrl) {   // hx_commit_full's order: the control registers, then the sticky bits
        x86_cmp_mem_imm(b, 4, RX, XO(cmask), 0);
        size_t none = x86_jcc(b, X86_CC_E);
        x86_mov_r64_r64(b, X86_RDI, RX);
        call(b, (const void *)jit_commit_ctrl);
        x86_patch(b, none);
    }
    x86_load(b, 4, X86_RAX, RX, XO(usr_sticky));
    x86_or_mem_r32(b, RC, CO(c[HX_USR]), X86_RAX);
    x86_store_imm(b, 4, RX, XO(usr_sticky), 0);
    return n;
}

static struct stub *new_stub(struct gen *g, enum stub_kind kind, const struct hx_block_pkt *p,
                             bool last)
{
    struct stub *st = &g->stub[g->nstub++];
    memset(st, 0, sizeof(*st));
    st->kind = kind;
    st->p = p;
    st->last = last;
    st->pc_now = p->uses_pc || last;
    return st;
}

// One `alu` packet (hx_block_alu).
static void gen_alu(struct gen *g, const struct hx_block_pkt *p, const struct hexsim_insn *op,
                    bool jumps, bool last)
{
    struct x86_buf *b = g->b;
    struct stub *st = new_stub(g, STUB_ALU, p, last);
    st->jumps = jumps;
    st->may_pred = packet_may(g->j, op, p->nops, HX_STENCIL_PRED);
    gen_alu_run(g, p, op, jumps);
    st->pk = g->pk;   // the counts where it jumps to the stub
    st->ic = g->in;
    if (packet_may(g->j, op, p->nops, HX_STENCIL_FULL)) {
        x86_cmp_mem_imm(b, 1, RX, XO(full), 0);
        st->sticky = x86_jcc(b, X86_CC_NE);
    }
    st->usual = b->p;
    if (last && p->endloop) {
        x86_test_mem_imm32(b, RC, CO(c[HX_USR]), HX_USR_LPCFG_MASK);
        st->in[st->nin++] = x86_jcc(b, X86_CC_NE);
    }
    st->commit = b->p;   // hx_alu_commit (a plain packet is not `slow`: the tail's short way)
    gen_commit_preds(b, p->wpreds, st->may_pred);
    gen_commit_tail(g, p, last);
    st->done = b->p;
}

// One packet on the staged path (hx_block_staged; hx_packet_begin, hx_commit_packet and
// hx_timing_commit inline). Jumps to the block's exit go into g->exits: a fault (after
// hx_clear_full), and unless `last` the other reasons to stop.
static void gen_staged(struct gen *g, const struct hx_block_pkt *p, const struct hexsim_insn *op,
                       bool last)
{
    struct x86_buf *b = g->b;
    // hx_packet_begin. x->pc and x->npc only if an instruction reads them or the packet is
    // the last (a trap's event names x->pc); else the ways that need them set them: a fault
    // (the block's contract) and the full commit. x->tcost stays 0 (jit.h: set once).
    struct stub *fault = new_stub(g, STUB_FAULT, p, last);
    const bool pc_now = fault->pc_now;
    if (pc_now)
        gen_pc(b, p);
    // the written-register mask only where registers are staged (in a packet written in
    // place nothing reads it); x->branch_idx is -1 already unless a branch went before in
    // this block (so only in its last packet: every entry into a compiled block sets it);
    // x->pmask and x->full are clear (packet_may); no store is staged (x->nst 0, x->mem_slow
    // mem_slow_base: each entry sets them so, and so does the commit of staged stores);
    // x->store_now is written when
    // it changes (store_now_base is true where compiled code runs, and only a fault, which
    // ends the block, changes it)
    if (!p->direct)
        x86_store_imm(b, 4, RX, XO(rmask), 0);
    if (p->cof)
        x86_store_imm(b, 4, RX, XO(branch_idx), -1);
    const int store_now = p->store_direct;   // (store_now_base)
    if (g->store_now != store_now) {
        x86_store_imm(b, 1, RX, XO(store_now), store_now);
        g->store_now = store_now;
    }
    if (!p->direct) {   // else x->wr is the register file already (the block keeps it so)
        x86_lea(b, X86_RAX, RX, XO(new_r));
        x86_store(b, 8, RX, XO(wr), X86_RAX);
    }
    // the event kind is NONE already: any other ends the block
    // registers written in place although the packet may fault: kept to put back
    for (uint32_t m = p->undo_regs; m; m &= m - 1) {
        int r = __builtin_ctz(m);
        x86_load(b, 4, X86_RAX, RC, CO(r) + 4 * r);
        x86_store(b, 4, X86_RSP, UNDO_SLOTS + 4 * r, X86_RAX);
    }
    // the instructions
    for (unsigned k = 0; k < p->nops; k++)
        gen_insn(g, &op[k], true);
    fault->pk = g->pk;   // the counts where it jumps to the stubs
    fault->ic = g->in;
    // a fault: nothing is committed (the stub)
    x86_cmp_mem_imm(b, 4, REV, OFF(struct hexsim_event_info, kind), HX_EV_FAULT_READ);
    fault->in[fault->nin++] = x86_jcc(b, X86_CC_AE);
    // hx_commit_packet: the full commit when it is needed (the stub)
    struct stub *st = new_stub(g, STUB_STAGED, p, last);
    st->pk = g->pk;
    st->ic = g->in;
    st->may_pred = packet_may(g->j, op, p->nops, HX_STENCIL_PRED);
    if (p->endloop > 1) {
        st->in[st->nin++] = x86_jmp(b);
    } else {
        if (packet_may(g->j, op, p->nops, HX_STENCIL_FULL)) {
            x86_cmp_mem_imm(b, 1, RX, XO(full), 0);
            if (p->endloop)
                st->in[st->nin++] = x86_jcc(b, X86_CC_NE);
            else
                st->sticky = x86_jcc(b, X86_CC_NE);   // sticky USR bits only: folded in
        }
        if (p->endloop) {
            x86_cmp_mem_imm(b, 4, RX, XO(branch_idx), 0);
            st->in[st->nin++] = x86_jcc(b, X86_CC_GE);
            x86_test_mem_imm32(b, RC, CO(c[HX_USR]), HX_USR_LPCFG_MASK);
            st->in[st->nin++] = x86_jcc(b, X86_CC_NE);
        }
    }
    // stores, registers, predicates, the count
    st->usual = b->p;
    x86_cmp_mem_imm(b, 4, RX, XO(nst), 0);
    size_t no_st = x86_jcc(b, X86_CC_E);
    x86_mov_r64_r64(b, X86_RDI, RX);
    call(b, (const void *)jit_commit_stores);
    gen_no_stores(b);
    x86_patch(b, no_st);
    if (!p->direct)
        gen_commit_regs(b, p->wregs);
    gen_commit_preds(b, p->wpreds, st->may_pred);
    gen_commit_tail(g, p, last);
    st->done = b->p;
    // x->wr back to the register file; then the reasons to stop (a trap closes a block, so
    // only the last packet can raise one)
    if (!p->direct) {
        x86_lea(b, X86_RAX, RC, CO(r));
        x86_store(b, 8, RX, XO(wr), X86_RAX);
    }
    if (last)
        return;
    if (p->writes_mem) {
        x86_cmp_r64_mem(b, RGEN, RMEM, OFF(struct hexsim_mem, code_gen));
        add_exit(g, x86_jcc(b, X86_CC_NE));
    }
}

// The stubs, after the block's code.
static void gen_stub(struct gen *g, const struct stub *st)
{
    struct x86_buf *b = g->b;
    const struct hx_block_pkt *p = st->p;
    if (st->kind == STUB_FAULT) {
        for (unsigned i = 0; i < st->nin; i++)
            x86_patch(b, st->in[i]);
        for (uint32_t m = p->undo_regs; m; m &= m - 1) {
            int r = __builtin_ctz(m);
            x86_load(b, 4, X86_RAX, X86_RSP, UNDO_SLOTS + 4 * r);
            x86_store(b, 4, RC, CO(r) + 4 * r, X86_RAX);
        }
        if (!st->pc_now)
            gen_pc(b, p);
        gen_count(b, (int)st->pk, (int)st->ic);   // the packets before this one
        x86_store_imm(b, 4, RC, CO(pc), (int32_t)p->addr);
        x86_mov_r64_r64(b, X86_RDI, RX);
        call(b, (const void *)jit_fault);
        g->exits[g->nexit++] = (struct exit){ x86_jmp(b), 0, 0, 0 };
        return;
    }
    size_t rare[4];
    unsigned nrare = 0;
    if (st->sticky) {   // x->full: sticky USR bits only are folded in here, then on as usual
        x86_patch(b, st->sticky);
        nrare = gen_fold_sticky(b, rare, !p->endloop);
        x86_store_imm(b, 1, RX, XO(full), 0);   // (packet_may)
        x86_jmp_back(b, -1, st->usual);
    }
    for (unsigned i = 0; i < st->nin; i++)
        x86_patch(b, st->in[i]);
    for (unsigned i = 0; i < nrare; i++)
        x86_patch(b, rare[i]);
    x86_mov_r64_r64(b, X86_RDI, RX);
    if (st->kind == STUB_ALU) {
        if (!p->uses_pc && !st->jumps)
            gen_pc(b, p);   // hx_commit_full reads them
        arg_ptr(b, X86_RSI, p);
        x86_mov_r32_imm32(b, X86_RDX, (st->jumps ? 1u : 0u) | (st->last ? 2u : 0u));
        // the counts so far in for the call, out again after it (the code it goes back to
        // adds them); if it committed the packet it counted that too
        gen_count(b, (int)st->pk, (int)st->ic);
        call(b, (const void *)jit_alu_full);
        gen_count(b, -(int)st->pk, -(int)st->ic);
        x86_store_imm(b, 1, RX, XO(full), 0);   // (packet_may)
        x86_test_r32_r32(b, X86_RAX, X86_RAX);
        x86_jmp_back(b, X86_CC_E, st->commit);   // to the usual commit
        gen_count(b, -1, -(int)p->tm.ninsns);
        x86_store_imm(b, 1, RX, XO(pmask), 0);
        x86_jmp_back(b, -1, st->done);
        return;
    }
    if (!st->pc_now)
        gen_pc(b, p);
    arg_ptr(b, X86_RSI, &p->tm);
    x86_mov_r32_imm32(b, X86_RDX, p->endloop);
    // the counts so far in for the call, out again with this packet's after it (the code it
    // goes back to adds them all)
    gen_count(b, (int)st->pk, (int)st->ic);
    call(b, (const void *)jit_commit_full);
    gen_no_stores(b);
    gen_count(b, -(int)st->pk - 1, -(int)(st->ic + p->tm.ninsns));
    x86_store_imm(b, 1, RX, XO(full), 0);   // (packet_may)
    x86_store_imm(b, 1, RX, XO(pmask), 0);
    // the full commit may have gone elsewhere (the usual way goes on: no branch or loop end
    // before the last packet)
    if (!st->last) {
        x86_cmp_mem_imm(b, 4, RC, CO(pc), (int32_t)p->npc);
        g->exits[g->nexit++] =
            (struct exit){ x86_jcc(b, X86_CC_NE), st->pk + 1, st->ic + p->tm.ninsns, 0 };
    }
    x86_jmp_back(b, -1, st->done);
}

// A link (jit.h): `cmp eax, imm32` (81 F8 imm32: the immediate is what b->link[] names),
// `jne` past it (0F 85 rel32), `jmp rel32` (E9 rel32). Unpatched, the immediate matches no
// packet address (they are 4-aligned) and the jump goes to the next instruction.
enum { LINK_NO_PC = -1, LINK_JMP_REL = 4 + 6 + 1 };

void hx_jit_link(uint8_t *link, uint32_t pc, const void *target)
{
    int32_t rel = (int32_t)((const uint8_t *)target - (link + LINK_JMP_REL + 4));
    memcpy(link + LINK_JMP_REL, &rel, 4);
    memcpy(link, &pc, 4);
}

// The gate is a `jmp rel32` (E9 rel32) to the exit; opened, it jumps to the next instruction.
void hx_jit_open_gate(uint8_t *gate)
{
    memset(gate, 0, 4);
}

// System mode: to the exit (with no event, cpu.pc unchanged) unless the vCPU's soft TLB for
// its mode (x->xlat->tlb) maps va's page to page, for execution (what run_jit.c checks).
static void gen_xlat_check(struct gen *g, uint32_t va, const struct hexsim_page *page)
{
    struct x86_buf *b = g->b;
    _Static_assert(SIZE(struct hexsim_tlb_entry, vpage) == 4 &&
                   SIZE(struct hexsim_tlb_entry, page) == 8, "tlb entry");
    const int32_t e = (int32_t)(((va >> 12) & (HEXSIM_TLB_SIZE - 1)) *
                                sizeof(struct hexsim_tlb_entry));
    x86_load(b, 8, X86_RAX, RX, XO(xlat));
    x86_load(b, 8, X86_RAX, X86_RAX, OFF(struct hexsim_xlat, tlb));
    x86_cmp_mem_imm(b, 4, X86_RAX, e + OFF(struct hexsim_tlb_entry, vpage), (int32_t)(va >> 12));
    add_exit(g, x86_jcc(b, X86_CC_NE));
    x86_test_mem_imm8(b, X86_RAX, e + OFF(struct hexsim_tlb_entry, prot), HEXSIM_PROT_X);
    add_exit(g, x86_jcc(b, X86_CC_E));
    arg_ptr(b, X86_RCX, page);
    x86_cmp_r64_mem(b, X86_RCX, X86_RAX, e + OFF(struct hexsim_tlb_entry, page));
    add_exit(g, x86_jcc(b, X86_CC_NE));
}

void hx_jit_redirect(const struct hx_block *from, const struct hx_block *to)
{
    if (!from->jit_far || !to->jit_far)
        return;
    uint8_t *p = (uint8_t *)(uintptr_t)from->jit_far;   // (the code arena is writable)
    int32_t rel = (int32_t)((const uint8_t *)to->jit_far - (p + 5));
    p[0] = 0xE9;   // jmp rel32 (the entry's first instruction is longer: hx_jit_compile)
    memcpy(p + 1, &rel, 4);
}

// Going on into the block at cpu.pc (jit.h): through a link, or the jump cache (the index
// hx_block_jc_at computes); else to the exit (exits[]) with t->exit_from set to blk.
// System mode: a block of the same virtual page through its jit_chain if it was read from
// this one's physical page when it had this one's wgen (the jump cache's tag and wgen;
// links are made so: hx_block_link), a block of another virtual page through its jit_far
// (which checks the translation and the wgen).
static void gen_chain(struct gen *g, struct hx_block_table *t, struct hx_block *blk)
{
    struct x86_buf *b = g->b;
    x86_load(b, 4, X86_RAX, RC, CO(pc));
    for (unsigned i = 0; i < HX_BLOCK_LINKS; i++) {
        x86_cmp_r32_imm(b, X86_RAX, LINK_NO_PC);
        blk->link[i] = b->p - 4;
        size_t next = x86_jcc(b, X86_CC_NE);
        size_t jmp = x86_jmp(b);
        x86_patch(b, jmp);   // unpatched: on
        x86_patch(b, next);
        if (!b->full && blk->link[i] + LINK_JMP_REL != b->start + jmp)
            b->full = true;   // (cannot happen: the layout hx_jit_link patches)
    }
    // to the run loop, which links (the gate), while a link is free
    size_t gate = x86_jmp(b);
    blk->link_gate = b->start + gate;
#define JO(field) OFF(struct hx_block_jc, field)
    _Static_assert(sizeof(struct hx_block_jc) == 32 && SIZE(struct hx_block_jc, key) == 4 &&
                   SIZE(struct hx_block_jc, tag) == 4 && SIZE(struct hx_block_jc, far) == 8 &&
                   SIZE(struct hx_block_jc, chain) == 8 && SIZE(struct hx_block_jc, wgen) == 4 &&
                   OFF(struct hx_block_jc, wgen) == OFF(struct hx_block_jc, tag) + 4,
                   "jump cache");
    x86_mov_r64_r64(b, X86_RCX, X86_RAX);
    x86_shr_r32_imm(b, X86_RCX, 2 + HX_BLOCK_JC_BITS);
    x86_mov_r64_r64(b, X86_RDX, X86_RAX);
    x86_shr_r32_imm(b, X86_RDX, 2);
    x86_xor_r32_r32(b, X86_RCX, X86_RDX);
    x86_and_r32_imm(b, X86_RCX, (1u << HX_BLOCK_JC_BITS) - 1);
    x86_imul_r64_imm(b, X86_RCX, X86_RCX, (int32_t)sizeof(struct hx_block_jc));
    arg_ptr(b, X86_RDX, t->jc);
    x86_add_r64_r64(b, X86_RDX, X86_RCX);
    x86_lea(b, X86_RCX, X86_RAX, 1);
    x86_cmp_mem_r32(b, X86_RDX, JO(key), X86_RCX);
    size_t miss = x86_jcc(b, X86_CC_NE), miss2 = 0;
    if (t->sys) {
        x86_shr_r32_imm(b, X86_RAX, 12);
        x86_cmp_r32_imm(b, X86_RAX, (int32_t)(blk->addr >> 12));
        size_t same = x86_jcc(b, X86_CC_E);
        x86_load(b, 8, X86_RAX, X86_RDX, JO(far));
        x86_jmp_reg(b, X86_RAX);
        x86_patch(b, same);
        x86_mov_r64_imm64(b, X86_RCX, blk->ppage | (uint64_t)blk->wgen << 32);   // tag, wgen
        x86_cmp_r64_mem(b, X86_RCX, X86_RDX, JO(tag));
        miss2 = x86_jcc(b, X86_CC_NE);
    }
    x86_load(b, 8, X86_RAX, X86_RDX, JO(chain));
    x86_jmp_reg(b, X86_RAX);
    x86_patch(b, miss);
    if (t->sys)
        x86_patch(b, miss2);
    x86_patch(b, gate);
    arg_ptr(b, X86_RAX, &t->exit_from);
    arg_ptr(b, X86_RCX, blk);
    x86_store(b, 8, X86_RAX, 0, X86_RCX);
    add_exit(g, x86_jmp(b));
#undef JO
}

hx_jit_fn hx_jit_compile(struct hx_jit *j, struct hx_block_table *t, struct hx_block *blk)
{
#if HX_JIT_HOST
    if (j->used >= j->size)
        return NULL;
    struct x86_buf b;
    x86_init(&b, j->base + j->used, j->size - j->used);
    static const int saved[] = { X86_RBX, X86_R12, X86_R13, X86_R14, X86_R15, X86_RBP };
    for (unsigned i = 0; i < 6; i++)
        x86_push(&b, saved[i]);
    x86_add_r64_imm(&b, X86_RSP, -FRAME);   // scratch slots; the stack is 16-aligned again
    x86_mov_r64_r64(&b, RX, X86_RDI);
    x86_load(&b, 8, RC, RX, XO(cpu));
    // the least cost of a packet: one pcycle, or the thread's turn (nothing in a block
    // changes the threads taking turns)
    x86_load(&b, 4, RCOST, RC, CO(tm) + OFF(struct hexsim_timing_state, interleave));
    x86_cmp_r32_imm(&b, RCOST, 1);
    size_t more = x86_jcc(&b, X86_CC_A);
    x86_mov_r32_imm32(&b, RCOST, 1);
    x86_patch(&b, more);
    x86_load(&b, 8, REV, RX, XO(ev));
    x86_load(&b, 8, RMEM, RX, XO(mem));
    x86_store_imm(&b, 4, RX, XO(tcost), 0);   // and so it stays (jit.h)
    struct gen g;
    g.b = &b;
    g.j = j;
    g.t = t;
    g.nexit = g.nstub = 0;
    g.pk = g.in = 0;
    g.pc = 0;
    g.store_now = -1;   // unknown
    g.npk = 0;
    memset(g.set_by, 0, sizeof(g.set_by));
    // called: the state compiled code keeps between packets (jit.c's head), which blocks
    // going on into others leave so (gen_chain: no event, no store staged, code_gen as at the
    // start, x->wr the register file)
    x86_store_imm(&b, 1, RX, XO(pmask), 0);   // (packet_may)
    x86_store_imm(&b, 1, RX, XO(full), 0);
    gen_no_stores(&b);   // (gen_staged)
    x86_load(&b, 8, RGEN, RMEM, OFF(struct hexsim_mem, code_gen));
    x86_store_imm(&b, 4, REV, OFF(struct hexsim_event_info, kind), HX_EV_NONE);
    x86_lea(&b, X86_RAX, RC, CO(r));
    x86_store(&b, 8, RX, XO(wr), X86_RAX);
    // compiled blocks go on from here (gen_chain), if the packet limit allows all of this
    // block's packets (jit.h: the block called runs whatever the limit)
    size_t called = x86_jmp(&b);
    const uint8_t *far_at = NULL;
    if (t->sys) {
        // from a block of another virtual page: the vCPU's soft TLB for its mode must map
        // this block's virtual page to its page, executable (what run_jit.c checks), and the
        // block must not be stale (its page not written since it was read); from a block of
        // the same page, both hold already (jit.h) (hx_jit_redirect overwrites the first 5
        // bytes here: the first instruction is longer)
        far_at = b.p;
        gen_xlat_check(&g, blk->addr, blk->page);
        arg_ptr(&b, X86_RAX, &blk->page->wgen);
        x86_cmp_mem_imm(&b, 4, X86_RAX, 0, (int32_t)blk->wgen);
        add_exit(&g, x86_jcc(&b, X86_CC_NE));
    }
    const uint8_t *chain_at = b.p;
    if (t->sys) {
        if (blk->page2) {   // its last packet reaches into the next page: that one's too
            gen_xlat_check(&g, (blk->addr | 0xfffu) + 1, blk->page2);
            arg_ptr(&b, X86_RAX, &blk->page2->wgen);
            x86_cmp_mem_imm(&b, 4, X86_RAX, 0, (int32_t)blk->wgen2);
            add_exit(&g, x86_jcc(&b, X86_CC_NE));
        }
    }
    x86_load(&b, 8, X86_RCX, RC, CO(packets));
    x86_add_r64_imm(&b, X86_RCX, blk->npk);
    x86_cmp_r64_mem(&b, X86_RCX, RX, XO(stop));
    add_exit(&g, x86_jcc(&b, X86_CC_A));   // (the event kind is NONE: gen_chain)
    if (t->sys) {
        // and if the clock stays below x->until before its last packet (what run_jit.c
        // checks before it calls a block): from the later of now and the last pending
        // result, at most blk->cycles and the thread's turn (rbp) for each packet
        _Static_assert(SIZE(struct hx_exec, until) == 8, "until");
        const int32_t mr = CO(tm) + OFF(struct hexsim_timing_state, max_ready);
        x86_load(&b, 8, X86_RAX, RC, CO(pcycles));
        x86_cmp_r64_mem(&b, X86_RAX, RC, mr);
        size_t later = x86_jcc(&b, X86_CC_AE);
        x86_load(&b, 8, X86_RAX, RC, mr);
        x86_patch(&b, later);
        x86_add_r64_imm(&b, X86_RAX, (int32_t)blk->cycles);
        if (blk->npk > 1) {
            x86_imul_r64_imm(&b, X86_RCX, RCOST, blk->npk - 1);
            x86_add_r64_r64(&b, X86_RAX, X86_RCX);
        }
        x86_cmp_r64_mem(&b, X86_RAX, RX, XO(until));
        add_exit(&g, x86_jcc(&b, X86_CC_AE));
    }
    x86_patch(&b, called);
    x86_store_imm(&b, 4, RX, XO(branch_idx), -1);   // (gen_staged: a branch may have gone before)
    const struct hexsim_insn *op = blk->op;
    for (unsigned i = 0; i < blk->npk; i++) {
        const struct hx_block_pkt *p = &blk->pk[i];
        const bool last = i + 1 == blk->npk;
        if (p->alu != HX_ALU_NONE)
            gen_alu(&g, p, op, p->alu == HX_ALU_JUMPS, last);
        else
            gen_staged(&g, p, op, last);
        op += p->nops;
    }
    // the block ended normally (a staged last packet: no trap, no store into code): its
    // counts, then on
    gen_flush_counts(&g);
    if (blk->pk[blk->npk - 1].alu == HX_ALU_NONE) {
        x86_cmp_mem_imm(&b, 4, REV, OFF(struct hexsim_event_info, kind), HX_EV_NONE);
        add_exit(&g, x86_jcc(&b, X86_CC_NE));
        x86_cmp_r64_mem(&b, RGEN, RMEM, OFF(struct hexsim_mem, code_gen));
        add_exit(&g, x86_jcc(&b, X86_CC_NE));
    }
    gen_chain(&g, t, blk);
    for (unsigned i = 0; i < g.nstub; i++)
        gen_stub(&g, &g.stub[i]);
    // the exits: those with counts not yet added add them first
    size_t to_end[4 * HX_BLOCK_MAX_PKTS + 8];
    unsigned nend = 0;
    for (unsigned i = 0; i < g.nexit; i++) {
        const struct exit *e = &g.exits[i];
        if (!e->pk && !e->in && !e->pc)
            continue;
        x86_patch(&b, e->at);
        gen_count(&b, (int)e->pk, (int)e->in);
        if (e->pc)
            x86_store_imm(&b, 4, RC, CO(pc), (int32_t)e->pc);
        to_end[nend++] = x86_jmp(&b);
    }
    for (unsigned i = 0; i < g.nexit; i++)
        if (!g.exits[i].pk && !g.exits[i].in && !g.exits[i].pc)
            x86_patch(&b, g.exits[i].at);
    for (unsigned i = 0; i < nend; i++)
        x86_patch(&b, to_end[i]);
    x86_load(&b, 4, X86_RAX, REV, OFF(struct hexsim_event_info, kind));
    x86_add_r64_imm(&b, X86_RSP, FRAME);
    for (unsigned i = 6; i-- > 0;)
        x86_pop(&b, saved[i]);
    x86_ret(&b);
    if (b.full)
        return NULL;
    hx_jit_fn fn;
    void *code = j->base + j->used;
    memcpy(&fn, &code, sizeof(fn));   // object to function pointer: POSIX allows it
    blk->jit = fn;
    blk->jit_chain = chain_at;
    blk->jit_far = far_at;
    blk->nlinks = 0;
    j->used += (size_t)(b.p - b.start);
    j->used = (j->used + 15) & ~(size_t)15;
    return fn;
#else
    (void)j;
    (void)t;
    (void)blk;
    return NULL;
#endif
}
