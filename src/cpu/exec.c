// SPDX-License-Identifier: MIT
// Packet executor: see exec.h. Facts: PRM section 3.3 (packet semantics: reads see the old
// state, writes commit at the end), 6.1.3 (several writes of a predicate are ANDed), 7.2
// (hardware loops: endloop0/endloop1 parse bits, LC/SA, USR:LPCFG and P3 for spNloop0),
// 5.5/5.6 (two stores in a packet: slot 1 then slot 0, i.e. packet order; a slot-0 load
// sees a slot-1 store).
#include "exec.h"

#include <string.h>

#include "hexsim/mem.h"
#include "isa.h"
#include "exec_step.h"
#include "sem.h"
#include "sem/fp.h"

uint32_t hx_cr(const struct hx_exec *x, unsigned n)
{
    const struct hexsim_cpu *c = x->cpu;
    switch (n) {
    case HX_P3_0:
        return (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 |
               (uint32_t)c->p[3] << 24;
    case HX_PC:
        return x->pc;
    case HX_UPCYCLELO: return (uint32_t)c->pcycles;
    case HX_UPCYCLEHI: return (uint32_t)(c->pcycles >> 32);
    case HX_PKTCOUNTLO: return (uint32_t)c->packets;
    case HX_PKTCOUNTHI: return (uint32_t)(c->packets >> 32);
    case HX_UTIMERLO: return (uint32_t)c->pcycles;
    case HX_UTIMERHI: return (uint32_t)(c->pcycles >> 32);
    default:
        return c->c[n & 31];
    }
}

// The bits of each control register that a transfer (`Cd = Rs`, `Cdd = Rss`) does not write:
// they keep their value, which for reserved bits is zero. PRM 2.2: PC (2.2.1), UPCYCLE,
// PKTCOUNT and UTIMER are read-only, so writing them has no effect (the assembler refuses
// `pc = Rs`; the hardware, and later QEMU, ignore the write: decode.h, writes_pc); USR (2.2.3)
// keeps bits 7:6, 21:20, 24 and 31:30 at zero, GP (2.2.8) bits 5:0 (later QEMU's write masks
// read the same: USR 0x3ecfff3f, GP 0xffffffc0). P3:0 holds the predicates (hx_wcr).
static const uint32_t cr_fixed[32] = {
    [HX_USR] = ~0x3ecfff3fu,
    [HX_GP] = 0x3fu,
    [HX_PC] = ~0u,
    [HX_UPCYCLELO] = ~0u, [HX_UPCYCLEHI] = ~0u,
    [HX_PKTCOUNTLO] = ~0u, [HX_PKTCOUNTHI] = ~0u,
    [HX_UTIMERLO] = ~0u, [HX_UTIMERHI] = ~0u,
};

void hx_wcr(struct hx_exec *x, unsigned n, uint32_t v)
{
    n &= 31;
    if (n == HX_P3_0) {
        for (unsigned i = 0; i < 4; i++)
            hx_wp(x, i, (uint8_t)(v >> (8 * i)));
        return;
    }
    const uint32_t fixed = cr_fixed[n];
    if (fixed == ~0u)
        return;
    x->new_c[n] = (v & ~fixed) | (x->cpu->c[n] & fixed);
    x->cmask |= 1u << n;
    x->full = true;
}

// Records an event with every field of *x->ev (the executor clears only `kind` per packet).
// A fault also stops stores writing at once (hx_st).
static void set_event(struct hx_exec *x, int kind, uint32_t addr, int detail, int tag,
                      uint32_t imm)
{
    *x->ev = (struct hexsim_event_info){ .kind = kind, .addr = addr, .detail = detail,
                                         .tag = tag, .imm = imm };
    if (kind >= HX_EV_FAULT_READ)
        x->store_now = false;   // the packet commits nothing: a later store must not write
}

// The instruction executing (for the event's tag).
static int cur_tag(const struct hx_exec *x)
{
    return x->cur_in ? x->cur_in->tag : -1;
}

void hx_mem_fault(struct hx_exec *x, int kind, uint32_t ea, int f)
{
    if (x->ev->kind >= HX_EV_FAULT_READ)   // the first fault is the one reported
        return;
    set_event(x, kind, ea, f, cur_tag(x), 0);
}

// A load sees memory as it was before the packet, except where it overlaps a store staged
// earlier in the packet (a slot-1 store before a slot-0 load, PRM 5.5, V65 and later;
// qemu-hexagon agrees): those bytes come from the store.
static uint64_t forward_stores(const struct hx_exec *x, uint32_t ea, unsigned size, uint64_t v)
{
    for (unsigned k = 0; k < x->nst; k++) {
        uint32_t sa = x->st[k].addr;
        unsigned ss = x->st[k].size;
        for (unsigned b = 0; b < size; b++) {
            uint32_t off = ea + b - sa;   // byte b of the load within the store, mod 2^32
            if (off < ss) {
                uint64_t byte = ss > 8 ? 0 : (x->st[k].val >> (8 * off)) & 0xffu;
                v = (v & ~(0xffull << (8 * b))) | byte << (8 * b);
            }
        }
    }
    return v;
}

// ---- debugger write log (exec.h: struct hexsim_exec_trace); only runs when env->trace is set
void hx_trace_load(struct hexsim_exec_trace *t, uint32_t ea, unsigned size)
{
    if (t->nld < HX_TRACE_MAX_LOADS) {
        t->ld[t->nld].addr = ea;
        t->ld[t->nld].size = (uint8_t)size;
    }
    t->nld++;
}

// What instruction `index` staged is what the packet's masks gained while it ran (a second
// write of a predicate, which is ANDed, is credited to the first writer).
static void trace_insn(const struct hx_exec *x, unsigned index)
{
    struct hexsim_exec_trace *t = x->trace;
    if (t->ninsns >= HX_PACKET_MAX_INSNS)
        return;
    unsigned i = t->ninsns++;
    t->insn[i].index = (uint8_t)index;
    t->insn[i].rmask = x->rmask & ~t->cum_r;
    t->insn[i].cmask = x->cmask & ~t->cum_c;
    t->insn[i].pmask = (uint8_t)(x->pmask & ~t->cum_p);
    t->insn[i].st_first = t->cum_st;
    t->insn[i].st_end = (uint8_t)x->nst;
    t->insn[i].vmask = x->vmask & ~t->cum_v;
    t->insn[i].qmask = (uint8_t)(x->qmask & ~t->cum_q);
    t->insn[i].vst = x->vst.used && !t->cum_vst;
    t->cum_r = x->rmask;
    t->cum_c = x->cmask;
    t->cum_p = x->pmask;
    t->cum_st = (uint8_t)x->nst;
    t->cum_v = x->vmask;
    t->cum_q = x->qmask;
    t->cum_vst = x->vst.used;
}

static void trace_commit(const struct hx_exec *x)
{
    struct hexsim_exec_trace *t = x->trace;
    t->committed = true;
    memcpy(t->new_r, x->new_r, sizeof(t->new_r));
    memcpy(t->new_c, x->new_c, sizeof(t->new_c));
    memcpy(t->new_p, x->new_p, sizeof(t->new_p));
    t->nst = x->nst;
    for (unsigned k = 0; k < x->nst && k < 2; k++) {
        t->st[k].addr = x->st[k].addr;
        t->st[k].size = x->st[k].size;
        t->st[k].val = x->st[k].val;
    }
    HX_COMMIT_MASKED(t->new_v, x->new_v, x->vmask);
    HX_COMMIT_MASKED(t->new_q, x->new_q, x->qmask);
    if (x->vst.used) {   // the span of the enabled bytes
        int first = -1, last = -1;
        for (int i = 0; i < HX_VBYTES; i++)
            if (x->vst.en.b[i >> 3] >> (i & 7) & 1) {
                if (first < 0)
                    first = i;
                last = i;
            }
        if (first >= 0) {
            t->vst_addr = x->vst.addr + (uint32_t)first;
            t->vst_len = (uint32_t)(last - first + 1);
        }
    }
}

// An uncached device access (timing model).
void hx_device_cost(struct hx_exec *x)
{
    struct hexsim_timing_stats *st = &x->cpu->tm.st;
    unsigned d = timing_params(x)->device;
    st->device++;
    st->stall[HX_STALL_DEVICE] += d;
    x->tcost += d;
}

// System mode: translates ea for one access through the soft TLB, falling back to the
// HVM's page-table walk. Returns 0 and fills *r, or an enum hexsim_mem_fault.
static int sys_translate(const struct hx_exec *x, uint32_t ea, unsigned size, unsigned access,
                         struct hexsim_xlat_result *r)
{
    if (ea & (size - 1))
        return HEXSIM_MEM_MISALIGNED;
    const struct hexsim_xlat *t = x->xlat;
    const struct hexsim_tlb_entry *e = &t->tlb->e[(ea >> 12) & (HEXSIM_TLB_SIZE - 1)];
    if (e->vpage == ea >> 12 && (e->prot & access)) {
        r->page = e->page;
        r->pa = 0;
        return HEXSIM_MEM_OK;
    }
    return t->translate(t->ctx, ea, access, r);
}

// System mode: enters the RAM page of a translation that allowed a load (rtlb) or a store
// (wtlb: unless the page holds cached code, whose stores must bump code_gen) into the fast
// paths' TLB of the vCPU's mode (exec.h), if it has one.
static void sys_tlb_fill(const struct hx_exec *x, uint32_t ea, struct hexsim_page *pg, bool write)
{
    struct hexsim_mem_tlb *t = write ? x->env->wtlb : x->env->rtlb;
    if (!t || (write && pg->code))
        return;
    struct hexsim_mem_tlb *e = &t[(ea >> HEXSIM_PAGE_SHIFT) & (HEXSIM_MEM_TLB_SIZE - 1)];
    e->tag = hexsim_mem_tlb_key(ea & ~(HEXSIM_PAGE_SIZE - 1), 1);
    e->data = pg->data;
    e->page = pg;
}

// Checks that an access would succeed; on success *r says where it goes (system mode).
int hx_check_access(struct hx_exec *x, uint32_t ea, unsigned size, unsigned access,
                        struct hexsim_xlat_result *r)
{
    if (!x->xlat)
        return hexsim_mem_check(x->mem, ea, size, access);
    return sys_translate(x, ea, size, access, r);
}

// True once an instruction of the packet has faulted. The fast loop (exec_step.h) checks
// for faults once per packet, so later instructions of a faulting packet still run; the
// paths with effects beyond the staged state (translation, devices, caches, reservations)
// do nothing for them.
static bool faulted(const struct hx_exec *x)
{
    return x->ev->kind >= HX_EV_FAULT_READ;
}

uint64_t hx_ld_slow(struct hx_exec *x, uint32_t ea, unsigned size)
{
    if (faulted(x))
        return 0;
    uint64_t v = 0;
    int f;
    if (!x->xlat) {
        f = hexsim_mem_read(x->mem, ea, size, HEXSIM_PROT_R, &v);
        if (!f)
            hexsim_mem_tlb_fill(x->mem, ea, false);   // the next access takes the fast path
    } else {
        struct hexsim_xlat_result r;
        f = sys_translate(x, ea, size, HEXSIM_PROT_R, &r);
        if (!f && r.page) {
            v = hexsim_page_load(r.page, ea & (HEXSIM_PAGE_SIZE - 1), size);
            sys_tlb_fill(x, ea, r.page, false);
        } else if (!f && x->no_mmio) {
            f = HEXSIM_MEM_UNMAPPED;   // (sem.h: no_mmio; the run loop runs the packet again)
        } else if (!f) {
            v = x->xlat->mmio_read(x->xlat->ctx, r.pa, size);
            hx_device_cost(x);
            goto done;
        }
    }
    if (!f && x->caches)
        x->tcost += hexsim_cache_access(x->caches, &x->cpu->tm.st, ea, size, false);
done:
    if (f)
        hx_mem_fault(x, HX_EV_FAULT_READ, ea, f);
    if (x->trace)
        hx_trace_load(x->trace, ea, size);
    return x->nst ? forward_stores(x, ea, size, v) : v;
}

// Queues a translated store for the commit (r: where it goes).
static void stage_store(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val,
                        const struct hexsim_xlat_result *r)
{
    if (x->nst < HX_MAX_STORES) {
        x->st[x->nst].addr = ea;
        x->st[x->nst].size = (uint8_t)size;
        x->st[x->nst].val = val;
        x->st[x->nst].page = r->page;
        x->st[x->nst].pa = r->pa;
        x->nst++;
        x->mem_slow = true;   // later loads of the packet forward from it
    }
}

void hx_st_slow(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val)
{
    if (faulted(x))
        return;
    struct hexsim_xlat_result r = { NULL, 0 };
    int f;
    if (!x->xlat) {
        f = hexsim_mem_check(x->mem, ea, size, HEXSIM_PROT_W);
        if (!f) {
            r.page = hexsim_mem_page(x->mem, ea);
            hexsim_mem_tlb_fill(x->mem, ea, true);   // the next store takes the fast path
        }
    } else {
        f = sys_translate(x, ea, size, HEXSIM_PROT_W, &r);
        if (!f && !r.page && x->no_mmio)
            f = HEXSIM_MEM_UNMAPPED;   // (sem.h: no_mmio; the run loop runs the packet again)
        if (!f && r.page)
            sys_tlb_fill(x, ea, r.page, true);
    }
    if (f) {
        hx_mem_fault(x, HX_EV_FAULT_WRITE, ea, f);
        return;
    }
    stage_store(x, ea, size, val, &r);
}

// Load-locked sets a reservation of the loaded address, width and value. Store-conditional
// succeeds only for the same address and width while memory still holds that value (what
// qemu-hexagon does: its SC is a compare-and-exchange against the loaded value), so a store
// in between that changes the word, or a memd_locked store after a memw_locked load, fails.
uint64_t hx_ld_locked(struct hx_exec *x, uint32_t ea, unsigned size)
{
    uint64_t v = hx_ld(x, ea, size);
    if (faulted(x))
        return 0;
    x->cpu->reserved = true;   // harmless if the packet faults: a fault clears it below
    x->cpu->reserve_addr = ea;
    x->cpu->reserve_size = (uint8_t)size;
    x->cpu->reserve_val = size == 8 ? v : (uint32_t)v;
    return v;
}

// The address is translated once, for writing; the value check reads RAM through that
// translation (so a write-only page works and no read fault can arise), and a
// store-conditional to a device fails without reading the device.
uint8_t hx_st_cond(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val)
{
    if (faulted(x))
        return 0;
    x->release_reservation = true;
    x->full = true;
    struct hexsim_xlat_result r = { NULL, 0 };
    int f = hx_check_access(x, ea, size, HEXSIM_PROT_W, &r);
    if (f) {
        hx_mem_fault(x, HX_EV_FAULT_WRITE, ea, f);
        return 0;
    }
    if (!x->xlat)
        r.page = hexsim_mem_page(x->mem, ea);
    const struct hexsim_cpu *c = x->cpu;
    if (!c->reserved || c->reserve_addr != ea || c->reserve_size != size || !r.page)
        return 0;
    uint64_t now = hexsim_page_load(r.page, ea & (HEXSIM_PAGE_SIZE - 1), size);
    if (x->nst)
        now = forward_stores(x, ea, size, now);
    if ((size == 8 ? now : (uint32_t)now) != c->reserve_val)
        return 0;
    stage_store(x, ea, size, val, &r);
    return 0xff;
}

bool hx_probe(struct hx_exec *x, uint32_t ea, unsigned size, bool write)
{
    if (faulted(x))
        return false;
    struct hexsim_xlat_result r;
    int f = hx_check_access(x, ea, size, write ? HEXSIM_PROT_W : HEXSIM_PROT_R, &r);
    if (f) {
        hx_mem_fault(x, write ? HX_EV_FAULT_WRITE : HX_EV_FAULT_READ, ea, f);
        return false;
    }
    return true;
}

// Commits one staged store in system mode: RAM through its page, else the MMIO callback.
static void sys_commit_store(struct hx_exec *x, unsigned k)
{
    unsigned size = x->st[k].size;
    unsigned n = size == 32 ? 4 : 1;   // dczeroa: four zero doublewords
    for (unsigned i = 0; i < n; i++) {
        unsigned sz = size == 32 ? 8 : size;
        uint64_t v = size == 32 ? 0 : x->st[k].val;
        uint32_t off = 8 * i;
        if (x->st[k].page)
            hexsim_page_store(x->mem, x->st[k].page,
                              ((x->st[k].addr & (HEXSIM_PAGE_SIZE - 1)) + off), sz, v);
        else
            x->xlat->mmio_write(x->xlat->ctx, x->st[k].pa + off, sz, v);
    }
    if (!x->st[k].page)
        hx_device_cost(x);
}

void hexsim_sem_unimplemented(struct hx_exec *x, const struct hexsim_insn *in)
{
    if (x->ev->kind < HX_EV_FAULT_READ)
        set_event(x, HX_EV_UNIMPLEMENTED, 0, 0, in->tag, 0);
}

void hx_trap(struct hx_exec *x, int kind, uint32_t imm)
{
    if (x->ev->kind != HX_EV_NONE)
        return;
    set_event(x, kind, 0, 0, -1, imm);
}

// End of a hardware loop body (PRM 7.2): decisions use the loop registers and USR:LPCFG as
// they were before the packet; the loop-back branch and the LC decrement override writes the
// packet made. When LPCFG counts down to 0 (spNloop0 pipelining), P3 becomes true, ANDed
// with a value the packet wrote to P3 (6.1.3).
struct loop_regs {
    uint32_t sa0, lc0, sa1, lc1, usr;
};

static void end_loops(unsigned which, const struct loop_regs *o, struct hexsim_cpu *c,
                      bool p3_written)
{
    if (which & 1) {
        uint32_t lpcfg = (o->usr & HX_USR_LPCFG_MASK) >> HX_USR_LPCFG_SHIFT;
        if (lpcfg) {
            if (lpcfg == 1 && !p3_written)   // 0xff AND the written value is that value
                c->p[3] = 0xff;
            c->c[HX_USR] = (c->c[HX_USR] & ~HX_USR_LPCFG_MASK) | (lpcfg - 1) << HX_USR_LPCFG_SHIFT;
        }
        if (o->lc0 > 1) {
            c->c[HX_LC0] = o->lc0 - 1;
            c->pc = o->sa0;
            return;
        }
    }
    if ((which & 2) && o->lc1 > 1) {
        c->c[HX_LC1] = o->lc1 - 1;
        c->pc = o->sa1;
    }
}

// Commits staged store k in any mode: RAM through the page found when the store executed
// (user mode: always RAM), MMIO through the callback; cache mode counts the access.
void hx_commit_store(struct hx_exec *x, unsigned k)
{
    if (x->caches && x->st[k].page)
        x->tcost += hexsim_cache_access(x->caches, &x->cpu->tm.st, x->st[k].addr,
                                        x->st[k].size, false);
    if (x->xlat) {
        sys_commit_store(x, k);
    } else if (x->st[k].size == 32) {   // dczeroa: the 32-byte line becomes zero
        for (uint32_t o = 0; o < 32; o += 8)
            hexsim_page_store(x->mem, x->st[k].page,
                              (x->st[k].addr & (HEXSIM_PAGE_SIZE - 1)) + o, 8, 0);
    } else {
        hexsim_page_store(x->mem, x->st[k].page, x->st[k].addr & (HEXSIM_PAGE_SIZE - 1),
                          x->st[k].size, x->st[k].val);
    }
}

// The commit of a packet that writes control or guest registers, sets sticky USR bits,
// releases a reservation or ends a hardware loop (and of its stores).
void hx_commit_full(struct hx_exec *x, const struct hexsim_packet_timing *pt, uint8_t endloop)
{
    struct hexsim_cpu *c = x->cpu;
    struct loop_regs old = { c->c[HX_SA0], c->c[HX_LC0], c->c[HX_SA1], c->c[HX_LC1],
                             c->c[HX_USR] };
    hx_commit_stores(x);
    if (x->release_reservation)
        c->reserved = false;
    hx_commit_regs(x);
    HX_COMMIT_MASKED(c->c, x->new_c, x->cmask);
    HX_COMMIT_MASKED(c->g, x->new_g, x->gmask);
    c->c[HX_USR] |= x->usr_sticky;
    if (x->hvx)
        hx_hvx_commit(x);
    hx_clear_full(x);
    c->packets++;
    hx_timing_commit(x, pt);
    if (x->branch_idx >= 0) {
        c->pc = x->branch_target;
    } else {
        c->pc = x->npc;
        if (endloop)
            end_loops(endloop, &old, c, x->pmask & 8);
    }
}

// Runs the packet's instructions with the debugger's write log (cleared by
// hx_exec_step_special, the only way here).
int hx_run_traced(struct hx_exec *x, const struct hexsim_packet *pkt)
{
    struct hexsim_event_info *ev = x->ev;
    for (unsigned k = 0; k < pkt->nexec; k++) {
        unsigned i = pkt->order[k];
        const struct hexsim_insn *in = &pkt->insn[i];
        x->cur_in = in;
        // the staging function even in a direct packet: the log reads the write mask
        hexsim_sem_fn fn = in->fn == hexsim_isa_sem_direct[in->tag] ? hexsim_isa_sem[in->tag]
                                                                     : in->fn;
        fn(x, in);
        trace_insn(x, i);
        if (ev->kind >= HX_EV_FAULT_READ)
            return ev->kind;
    }
    trace_commit(x);
    return HX_EV_NONE;
}

void hx_exec_begin(struct hx_exec *x, const struct hexsim_exec_env *env,
                   struct hexsim_event_info *ev)
{
    x->cpu = env->cpu;
    x->mem = env->mem;
    x->xlat = env->xlat;
    x->env = env;
    x->tp = env->timing ? env->timing : &hexsim_timing_default_params;
    x->ev = ev;
    x->cur_in = NULL;
    x->stop = 0;
    x->no_mmio = false;
    x->trace = env->trace;
    x->caches = env->caches;
    // the fast paths' TLBs: mem's in user mode; in system mode the vCPU's, else none
    static const struct hexsim_mem_tlb no_tlb[HEXSIM_MEM_TLB_SIZE];   // (zero tags: no match)
    x->rtlb = env->rtlb ? env->rtlb : x->xlat ? no_tlb : x->mem->rtlb;
    x->wtlb = env->wtlb ? env->wtlb : x->xlat ? no_tlb : x->mem->wtlb;
    x->mem_slow_base = (x->xlat && !env->rtlb) || x->trace || x->caches;
    x->special = x->trace || x->caches;
    // (system mode too: a store hits its TLB only for RAM, writable in the mode, holding no
    // decoded code, as user mode's for a page holding none)
    x->store_now_base = !x->trace && !x->caches;
    x->fp_host = hx_fp_host_check();
    x->hvx = 1;   // (so that hx_clear_full clears the HVX staging too)
    x->vfwd_mask = 0;
    x->vfwd_last = -1;
    hx_clear_full(x);
}

// The packets hx_exec_step leaves to this: invalid, privileged or guest instructions, a
// debugger's write log, cache mode.
int hx_exec_step_special(struct hx_exec *x, const struct hexsim_packet *pkt)
{
    const struct hexsim_exec_env *env = x->env;
    struct hexsim_event_info *ev = x->ev;
    if (x->trace) {
        memset(x->trace, 0, HX_TRACE_CLEAR);
        x->wr = x->new_r;   // the log wants every write staged
    }
    x->cur_in = NULL;
    if (pkt->status != HX_DECODE_OK) {
        set_event(x, HX_EV_INVALID, 0, pkt->status, -1, pkt->rule);
        return ev->kind;
    }
    // user mode: supervisor and guest instructions fault; guest mode: supervisor ones
    if (pkt->priv | pkt->guest) {
        unsigned deny = env->user_mode ? (unsigned)(pkt->priv | pkt->guest)
                        : env->guest_mode ? pkt->priv : 0u;
        if (deny) {
            set_event(x, HX_EV_PRIVILEGED, 0, 0, pkt->insn[__builtin_ctz(deny)].tag, 0);
            return ev->kind;
        }
    }
    if (x->caches)   // the fetch (cache mode)
        x->tcost = hexsim_cache_access(x->caches, &x->cpu->tm.st, pkt->addr,
                                       4u * pkt->nwords, true);
    return hx_run_commit(x, pkt);
}

int hexsim_exec_packet(const struct hexsim_exec_env *env, const struct hexsim_packet *pkt,
                       struct hexsim_event_info *ev)
{
    struct hx_exec x;
    hx_exec_begin(&x, env, ev);
    return hx_exec_step(&x, pkt);
}
