// SPDX-License-Identifier: MIT
// The packet executor's per-packet path (exec.h, exec.c), inline so that a run loop can keep
// one struct hx_exec for a whole run: hx_exec_begin sets what stays (the vCPU, memory, the
// environment), hx_exec_step runs one packet and commits it (PRM 3.3: every instruction reads
// the state before the packet; writes are staged and committed together, stores in slot
// order; a packet that faults commits nothing). hexsim_exec_packet is begin + step.
#ifndef HEXSIM_CPU_EXEC_STEP_H
#define HEXSIM_CPU_EXEC_STEP_H

#include <string.h>

#include "sem.h"

void hx_exec_begin(struct hx_exec *x, const struct hexsim_exec_env *env,
                   struct hexsim_event_info *ev);
int hx_exec_step_special(struct hx_exec *x, const struct hexsim_packet *pkt);
// pt, endloop: the packet's timing summary and loop ends (decode.h)
void hx_commit_full(struct hx_exec *x, const struct hexsim_packet_timing *pt, uint8_t endloop);
void hx_commit_store(struct hx_exec *x, unsigned k);
int hx_run_traced(struct hx_exec *x, const struct hexsim_packet *pkt);
// Memory paths shared with the HVX accesses (hvx_mem.c): the check of an access (system
// mode: *r says where it goes), recording a fault, the cost of a device access.
int hx_check_access(struct hx_exec *x, uint32_t ea, unsigned size, unsigned access,
                    struct hexsim_xlat_result *r);
void hx_mem_fault(struct hx_exec *x, int kind, uint32_t ea, int f);
void hx_device_cost(struct hx_exec *x);
// The debugger's write log (exec.h) of a load of size bytes at ea.
void hx_trace_load(struct hexsim_exec_trace *t, uint32_t ea, unsigned size);
// Commits the staged HVX state (sem.h; hx_commit_full calls it).
void hx_hvx_commit(struct hx_exec *x);

// What only a packet that sets x->full writes (control and guest registers, sticky USR bits,
// a released reservation) is zero between packets: hx_exec_begin, hx_commit_full and a
// faulting packet clear it, so that hx_exec_step need not.
static inline void hx_clear_full(struct hx_exec *x)
{
    x->cmask = x->gmask = 0;
    x->usr_sticky = 0;
    x->release_reservation = false;
    if (x->hvx | (x->vfwd_mask != 0)) {   // (HVX state staged: sem.h)
        x->hvx = 0;
        x->vmask = 0;
        x->qmask = 0;
        x->vfwd_mask = 0;
        x->vfwd_last = -1;
        x->vst.used = false;
        x->vsc.n = 0;
    }
}

// The timing parameters in use.
static inline const struct hexsim_timing_params *timing_params(const struct hx_exec *x)
{
    return x->tp;
}

// The HVX counts of a committed packet (compiled code: jit.c gen_commit_tail).
static inline void hx_count_hvx(struct hexsim_timing_state *t, const struct hexsim_packet_timing *pt)
{
    if (__builtin_expect(pt->hvx_insns != 0, 0)) {
        t->st.hvx_packets++;
        t->st.hvx_insns += pt->hvx_insns;
    }
}

// The timing model's account of a committed packet (timing.h): it issues when the thread's
// clock says, later if a source register's result is not ready, and takes one pcycle plus
// its memory accesses' and branches' extra cycles, at least the thread's turn.
static inline __attribute__((always_inline)) void hx_timing_commit(struct hx_exec *x,
                                                                const struct hexsim_packet_timing *pt)
{
    struct hexsim_cpu *c = x->cpu;
    struct hexsim_timing_state *t = &c->tm;
    uint64_t issue = c->pcycles;
    if (__builtin_expect(pt->rd & t->pending, 0))
        issue = hexsim_timing_data_stall(t, pt->rd, issue);
    if (__builtin_expect(pt->hvx, 0))
        issue = hexsim_timing_hvx(t, timing_params(x), pt, issue);
    unsigned cost = 1 + x->tcost;
    if (__builtin_expect(pt->slow, 0))
        cost += hexsim_timing_extra(t, timing_params(x), pt, x->branch_idx);
    if (cost < t->interleave)
        cost = t->interleave;
    if (pt->w_any)
        hexsim_timing_writes(t, timing_params(x), pt, issue);
    t->st.insns += pt->ninsns;
    hx_count_hvx(t, pt);
    c->pcycles = issue + cost;
}

// Commits the staged stores in order: inline for RAM (a page: user mode, or system mode's
// translated RAM) in simple timing, else through hx_commit_store (a device, cache mode,
// dczeroa's line).
static inline void hx_commit_stores(struct hx_exec *x)
{
    for (unsigned k = 0; k < x->nst; k++) {
        if (__builtin_expect(x->st[k].page && !x->caches && x->st[k].size != 32, 1))
            hexsim_page_store(x->mem, x->st[k].page, x->st[k].addr & (HEXSIM_PAGE_SIZE - 1),
                              x->st[k].size, x->st[k].val);
        else
            hx_commit_store(x, k);
    }
}

// dst[r] = src[r] for each bit r set in mask (a register file's staged writes).
#define HX_COMMIT_MASKED(dst, src, mask)                   \
    do {                                                   \
        for (uint32_t m_ = (mask); m_; m_ &= m_ - 1) {     \
            unsigned r_ = (unsigned)__builtin_ctz(m_);     \
            (dst)[r_] = (src)[r_];                         \
        }                                                  \
    } while (0)

// Commits the staged general registers (unless written in place) and predicates.
static inline void hx_commit_regs(struct hx_exec *x)
{
    struct hexsim_cpu *c = x->cpu;
    HX_COMMIT_MASKED(c->r, x->new_r, x->wr == c->r ? 0 : x->rmask);
    HX_COMMIT_MASKED(c->p, x->new_p, x->pmask);
}

// Commits a packet whose instructions ran without a fault (pt, endloop: its timing summary
// and loop ends, decode.h): stores, registers, predicates, the count, the timing model, the
// next PC. The end of a loop-0 body without LPCFG, no branch taken and no control registers
// written is committed here too (what hx_commit_full's end_loops does in that case).
static inline __attribute__((always_inline)) void hx_commit_packet(struct hx_exec *x,
                                                                    const struct hexsim_packet_timing *pt,
                                                                    uint8_t endloop)
{
    struct hexsim_cpu *c = x->cpu;
    bool loop0 = false;
    if (__builtin_expect(endloop != 0, 0)) {
        if (x->full || endloop != 1 || x->branch_idx >= 0 ||
            (c->c[HX_USR] & HX_USR_LPCFG_MASK)) {
            hx_commit_full(x, pt, endloop);
            return;
        }
        loop0 = true;
    } else if (__builtin_expect(x->full, 0)) {
        hx_commit_full(x, pt, endloop);
        return;
    }
    if (x->nst)
        hx_commit_stores(x);
    hx_commit_regs(x);
    c->packets++;
    hx_timing_commit(x, pt);
    c->pc = x->branch_idx >= 0 ? x->branch_target : x->npc;
    if (__builtin_expect(loop0, 0) && c->c[HX_LC0] > 1) {
        c->c[HX_LC0]--;
        c->pc = c->c[HX_SA0];
    }
}

// Runs the packet's instructions (with the debugger's log if one is asked for) and commits.
static inline __attribute__((always_inline)) int hx_run_commit(struct hx_exec *x, const struct hexsim_packet *pkt)
{
    struct hexsim_event_info *ev = x->ev;
    if (__builtin_expect(x->trace != NULL, 0)) {
        if (hx_run_traced(x, pkt) >= HX_EV_FAULT_READ) {
            hx_clear_full(x);
            return ev->kind;
        }
    } else {
        // faults are checked once, after the last instruction: the first one is kept, and
        // instructions after it touch nothing but the staged state (exec.c: faulted)
        const unsigned n = pkt->nexec;
        for (unsigned k = 0; k < n; k++) {
            const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
            x->cur_in = in;
            in->fn(x, in);
        }
        if (__builtin_expect(ev->kind >= HX_EV_FAULT_READ, 0)) {
            hx_clear_full(x);
            return ev->kind;
        }
    }
    hx_commit_packet(x, &pkt->tm, pkt->endloop);
    return ev->kind;
}

// What every packet but an `alu` one starts with: its address and the next one's, nothing
// staged, no branch, no event; direct and store_direct as decoded (decode.h).
static inline __attribute__((always_inline)) void hx_packet_begin(struct hx_exec *x, uint32_t pc,
                                                                   uint32_t npc, bool direct,
                                                                   bool store_direct)
{
    x->pc = pc;
    x->npc = npc;
    x->rmask = 0;   // cmask, gmask, usr_sticky, release_reservation: see hx_clear_full
    x->pmask = 0;
    x->full = false;
    x->branch_idx = -1;
    x->nst = 0;
    x->tcost = 0;
    x->mem_slow = x->mem_slow_base;
    x->store_now = x->store_now_base & store_direct;
    x->wr = direct ? x->cpu->r : x->new_r;
    x->ev->kind = HX_EV_NONE;   // the other fields are set with the kind (exec.c: set_event)
}

// What an `alu` packet (decode.h) needs before it runs its instructions (in order, with
// x->cur_in set for jumps): in-place writes, no predicates, no branch yet.
static inline __attribute__((always_inline)) void hx_alu_begin(struct hx_exec *x, uint32_t pc,
                                                                uint32_t npc, const bool jumps)
{
    x->pc = pc;
    x->npc = npc;
    x->pmask = 0;
    x->full = false;
    if (jumps) {
        x->branch_idx = -1;
        x->tcost = 0;
    }
}

// After an `alu` packet's instructions: folds sticky USR bits in; true if the packet wrote
// what only hx_commit_full commits (not expected of these instructions), which the caller
// then does with x->nst, x->tcost and (without `jumps`) x->branch_idx cleared.
static inline __attribute__((always_inline)) bool hx_alu_full(struct hx_exec *x)
{
    if (__builtin_expect(x->full, 0)) {
        if (x->cmask | x->gmask | x->release_reservation | x->hvx)
            return true;
        x->cpu->c[HX_USR] |= x->usr_sticky;   // overflow, floating-point flags
        x->usr_sticky = 0;
    }
    return false;
}

// The full commit of an `alu` packet (hx_alu_full said so, or it ends loop 0 with LPCFG
// set): nothing is staged but what its instructions wrote, so the stores, the memory cost
// and (without `jumps`) the branch are cleared first.
static inline __attribute__((always_inline)) void hx_alu_commit_full(struct hx_exec *x,
                                                                      const struct hexsim_packet_timing *pt,
                                                                      uint8_t endloop, const bool jumps)
{
    x->nst = 0;
    x->tcost = 0;
    if (!jumps)
        x->branch_idx = -1;
    hx_commit_full(x, pt, endloop);
}

// Commits an `alu` packet (pt: its timing summary, endloop: decode.h; the caller checked
// that LPCFG is 0 if it ends loop 0): predicates, the count, the timing model, the next PC.
// Inline with `jumps` constant, so each kind gets its own copy.
static inline __attribute__((always_inline)) void hx_alu_commit(struct hx_exec *x,
                                                                 const struct hexsim_packet_timing *pt,
                                                                 uint8_t endloop, const bool jumps)
{
    struct hexsim_cpu *c = x->cpu;
    HX_COMMIT_MASKED(c->p, x->new_p, x->pmask);
    c->packets++;
    if (jumps) {
        hx_timing_commit(x, pt);
        if (x->branch_idx >= 0) {
            c->pc = x->branch_target;
            return;
        }
    } else {
        // hx_timing_commit with no memory cost, no branch or fixed extra cycles and no HVX
        // instruction (an `alu` packet has none: decode.c)
        struct hexsim_timing_state *t = &c->tm;
        uint64_t issue = c->pcycles;
        if (__builtin_expect(pt->rd & t->pending, 0))
            issue = hexsim_timing_data_stall(t, pt->rd, issue);
        unsigned cost = t->interleave > 1 ? t->interleave : 1;
        if (pt->w_any)
            hexsim_timing_writes(t, timing_params(x), pt, issue);
        t->st.insns += pt->ninsns;
        hx_count_hvx(t, pt);
        c->pcycles = issue + cost;
    }
    c->pc = x->npc;
    // a loop-0 end: hx_commit_full's end_loops
    if (endloop && c->c[HX_LC0] > 1) {
        c->c[HX_LC0]--;
        c->pc = c->c[HX_SA0];
    }
}

// A packet decoded as `alu` (decode.h): ALU and XTYPE instructions writing the registers in
// place, and with `jumps` (HX_ALU_JUMPS) jumps too; nothing that can fault or touch memory.
// It needs only what such instructions use: in-place writes, predicates, sticky USR bits,
// a branch. Inline with `jumps` constant, so each kind gets its own copy.
static inline __attribute__((always_inline)) int hx_step_alu(struct hx_exec *x,
                                                              const struct hexsim_packet *pkt,
                                                              const bool jumps)
{
    // no instruction here can raise an event, so x->cur_in (which names the instruction of
    // an event) is only set for jumps; the kind is still cleared, as after every packet
    hx_alu_begin(x, pkt->addr, pkt->addr + 4u * pkt->nwords, jumps);
    x->wr = x->cpu->r;
    x->ev->kind = HX_EV_NONE;
    const unsigned n = pkt->nexec;   // at least 1 (decode.c)
    unsigned k = 0;
    do {
        const struct hexsim_insn *in = &pkt->insn[pkt->order[k]];
        if (jumps)
            x->cur_in = in;   // hx_jump: the first branch in packet order wins
        in->fn(x, in);
    } while (++k < n);
    if (hx_alu_full(x)) {
        hx_alu_commit_full(x, &pkt->tm, pkt->endloop, jumps);
        return HX_EV_NONE;
    }
    hx_alu_commit(x, &pkt->tm, pkt->endloop, jumps);
    return HX_EV_NONE;
}

// Executes pkt (decoded at cpu->pc) with the environment hx_exec_begin gave. Returns the
// event (HX_EV_NONE: committed normally); *x->ev says more.
static inline __attribute__((always_inline)) int hx_exec_step(struct hx_exec *x, const struct hexsim_packet *pkt)
{
    if (__builtin_expect(pkt->alu && !x->special, 1) &&
        !(pkt->endloop && (x->cpu->c[HX_USR] & HX_USR_LPCFG_MASK)))
        return pkt->alu == HX_ALU_PLAIN ? hx_step_alu(x, pkt, false)
                                        : hx_step_alu(x, pkt, true);
    hx_packet_begin(x, pkt->addr, pkt->addr + 4u * pkt->nwords, pkt->direct, pkt->store_direct);
    if (__builtin_expect(!pkt->plain | x->special, 0))
        return hx_exec_step_special(x, pkt);
    return hx_run_commit(x, pkt);
}

#endif
