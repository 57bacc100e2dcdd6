// SPDX-License-Identifier: MIT
// The interface the instruction semantics (src/cpu/isa/*.isa, compiled by tools/gen_isa.py
// into isa_sem.c) use to reach the machine: reads of pre-packet state, staged writes,
// memory accesses and control flow, for one packet in flight. See src/cpu/isa/README.md
// for how a row's semantic lines use these.
#ifndef HEXSIM_CPU_SEM_H
#define HEXSIM_CPU_SEM_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "cpu.h"
#include "decode.h"
#include "exec.h"
#include "hexsim/mem.h"

#define HX_MAX_STORES 2

struct hx_exec {
    struct hexsim_cpu *cpu;
    struct hexsim_mem *mem;
    const struct hexsim_mem_tlb *rtlb, *wtlb;   // the loads' and stores' fast paths (mem.h): mem's,
                                          // or in system mode the vCPU's for its mode (exec.h)
    const struct hexsim_xlat *xlat;   // system mode memory path (exec.h), NULL in user mode
    uint32_t pc;              // this packet's address
    uint32_t npc;             // the next packet's address
    const struct hexsim_insn *cur_in;   // the instruction executing (NULL: none yet)
    bool mem_slow;            // loads must take hx_ld_slow: system mode, a debugger's write
                              // log, or a store staged earlier in the packet (forwarding)
    bool mem_slow_base;       // mem_slow at the start of each packet (system mode, log, caches)
    bool special;             // every packet takes hx_exec_step_special (log, caches)
    bool store_now_base;      // stores may write at once: user mode, simple timing, no log
    bool store_now;           // ... and this packet is decoded as store_direct, and nothing in
                              // it has faulted yet (set_event clears it)
    uint32_t new_r[32], rmask;
    uint32_t *wr;             // where general-register writes go: new_r, or the registers
                              // themselves for a packet decoded as `direct`
    uint32_t new_c[32], cmask;
    uint8_t new_p[4], pmask;
    uint32_t new_g[32], gmask;    // guest control registers (system mode)
    uint32_t usr_sticky;      // USR bits to OR in at commit (OVF, floating-point flags)
    bool full;                // the commit has more than general registers, predicates and
                              // stores: control or guest registers, USR bits, a reservation
    int branch_idx;           // instruction that took the branch, -1 none
    uint32_t branch_target;
    unsigned nst;
    struct {
        uint32_t addr;            // virtual address (store forwarding compares these)
        uint8_t size;
        uint64_t val;
        struct hexsim_page *page; // the RAM page (system mode: NULL for MMIO at pa)
        uint32_t pa;
    } st[HX_MAX_STORES];
    bool release_reservation; // a store-conditional ran
    struct hexsim_event_info *ev;
    struct hexsim_exec_trace *trace;   // optional debugger log (exec.h), usually NULL
    const struct hexsim_exec_env *env;       // the caller's environment
    const struct hexsim_timing_params *tp;   // the timing parameters in use
    struct hexsim_caches *caches;     // cache mode: the thread's caches (else NULL)
    unsigned tcost;           // extra pcycles of memory accesses so far (caches, devices)
    uint64_t slow_val;        // a load's value from hx_ld_slow_keep (HX_STENCIL below)
    uint64_t stop;            // compiled blocks (jit.h) go on into the next block only while
                              // cpu.packets stays at most this (0: never)
    uint64_t until;           // system mode: compiled blocks go on into the next block only if
                              // its pcycle bound (struct hx_block: cycles) stays below this
    bool no_mmio;             // system-mode blocks (src/hvm/run_jit.c): a device access is
                              // not made but recorded as a fault, so that the packet commits
                              // nothing and the run loop runs it again on its own
    bool fp_host;             // the host's floating point computes as Hexagon's where the
                              // fast paths use it (sem/fp.h hx_fp_host_check, at each entry)
    // ---- HVX (sem/hvx.h): vector and vector-predicate writes staged for the commit, the
    // vector a .cur or .tmp load gave (read by the packet's other instructions), the one
    // vector store a packet may make. Every HVX write sets x->full and x->hvx, so that
    // hx_commit_full commits them; hx_clear_full clears them (exec_step.h).
    uint8_t hvx;              // nonzero: something below is staged
    int8_t vfwd_last;         // the register a .cur/.tmp load gave last (the histograms'
                              // input: sem/hvx_hist.h), -1: none
    uint8_t qmask;            // staged vector predicates (bit n: qn)
    uint32_t vmask;           // staged vector registers (bit n: vn)
    uint32_t vfwd_mask;       // registers whose value for this packet's readers is in vfwd:
                              // .cur/.tmp loads, the V69 .tmp assignments (bit n: vn)
    struct hx_vstore {
        bool used;
        uint32_t addr;        // first byte (a vmemu store's may be unaligned)
        hx_qreg en;           // byte enables: bit i for addr + i
        hx_vec data;          // byte i goes to addr + i
    } vst;
    // vgather/vscatter (hvx_mem.c): what a gather loaded (the vtmp register, which only
    // the packet's `vmem(...) = vtmp.new` store reads) and which of its bytes it loaded (the
    // store writes those only); a scatter's writes, made at the commit in order
    struct hx_vscatter {
        uint8_t n;            // entries (0: none)
        bool add;             // scatter-accumulate: each entry adds to memory
        uint8_t size;         // bytes of each entry: 1 (a scatter, byte by byte), 2 or 4
        uint32_t addr[HX_VBYTES];
        uint32_t val[HX_VBYTES];
    } vsc;
    hx_qreg vgath_en;
    hx_vec vgath;
    hx_qreg new_q[4];
    hx_vec vfwd[32];
    hx_vec new_v[32];
};

// In the block compiler's stencils (stencil.h) the code that sets x->full or writes a
// predicate leaves a mark (an entry in section .hxmark.full or .hxmark.pred naming the place),
// so that tools/stencils.py knows which stencils may do so and the compiled code checks for
// it only after those.
#ifdef HX_STENCIL
#define HX_MARK(kind) \
    __asm__ volatile("1:\n\t.pushsection .hxmark." #kind ",\"a\"\n\t.quad 1b\n\t.popsection")
#else
#define HX_MARK(kind) ((void)0)
#endif

// ---- general registers
static inline uint32_t hx_r(const struct hx_exec *x, unsigned n) { return x->cpu->r[n]; }
static inline uint64_t hx_rr(const struct hx_exec *x, unsigned n)
{
    uint64_t v;   // r[n] low, r[n + 1] high: one little-endian load
    memcpy(&v, &x->cpu->r[n & 30], sizeof(v));
    return v;
}
static inline void hx_wr(struct hx_exec *x, unsigned n, uint32_t v)
{
    x->wr[n] = v;
    x->rmask |= 1u << n;
}
static inline void hx_wrr(struct hx_exec *x, unsigned n, uint64_t v)
{
    n &= 30;
    memcpy(&x->wr[n], &v, sizeof(v));
    x->rmask |= 3u << n;
}
// The same for a packet decoded `direct` (decode.h): the writes go to the register file
// (where x->wr points then) and nothing reads the write mask (the debugger's log runs the
// staging functions instead).
static inline void hx_wr_direct(struct hx_exec *x, unsigned n, uint32_t v)
{
    x->cpu->r[n] = v;
}
static inline void hx_wrr_direct(struct hx_exec *x, unsigned n, uint64_t v)
{
    n &= 30;
    memcpy(&x->cpu->r[n], &v, sizeof(v));
}
// The value register n takes in this packet (new-value operands, PRM 10.11).
static inline uint32_t hx_nv(const struct hx_exec *x, unsigned n)
{
    return (x->rmask >> n & 1) ? x->new_r[n] : x->cpu->r[n];
}

// ---- predicates: several writes of one predicate in a packet are ANDed (PRM 6.1.3)
static inline uint8_t hx_p(const struct hx_exec *x, unsigned n) { return x->cpu->p[n]; }
static inline uint8_t hx_pnew(const struct hx_exec *x, unsigned n)
{
    return (x->pmask >> n & 1) ? x->new_p[n] : x->cpu->p[n];
}
static inline void hx_wp(struct hx_exec *x, unsigned n, uint8_t v)
{
    x->new_p[n] = (x->pmask >> n & 1) ? (uint8_t)(x->new_p[n] & v) : v;
    x->pmask |= (uint8_t)(1u << n);
    HX_MARK(pred);
}

// ---- control registers (PC, P3:0, UPCYCLE, PKTCOUNT, UTIMER are computed)
uint32_t hx_cr(const struct hx_exec *x, unsigned n);
void hx_wcr(struct hx_exec *x, unsigned n, uint32_t v);
static inline uint64_t hx_crr(const struct hx_exec *x, unsigned n)
{
    return (uint64_t)hx_cr(x, n + 1) << 32 | hx_cr(x, n);
}
static inline void hx_wcrr(struct hx_exec *x, unsigned n, uint64_t v)
{
    hx_wcr(x, n, (uint32_t)v);
    hx_wcr(x, n + 1, (uint32_t)(v >> 32));
}
static inline void hx_ovf(struct hx_exec *x)
{
    x->usr_sticky |= HX_USR_OVF;
    x->full = true;
    HX_MARK(full);
}
static inline void hx_fpflags(struct hx_exec *x, uint32_t f)
{
    if (f) {   // no flag: nothing to commit
        x->usr_sticky |= f;
        x->full = true;
        HX_MARK(full);
    }
}
static inline uint32_t hx_usr(const struct hx_exec *x) { return x->cpu->c[HX_USR]; }

// ---- guest control registers G0-G31 (guest-mode instructions; the HVM keeps its event
// registers GELR, GSR, GOSP, GBADVA in G0-G3)
static inline uint32_t hx_g(const struct hx_exec *x, unsigned n) { return x->cpu->g[n & 31]; }
static inline uint64_t hx_gg(const struct hx_exec *x, unsigned n)
{
    return (uint64_t)hx_g(x, n + 1) << 32 | hx_g(x, n);
}
static inline void hx_wg(struct hx_exec *x, unsigned n, uint32_t v)
{
    x->new_g[n & 31] = v;
    x->gmask |= 1u << (n & 31);
    x->full = true;
    HX_MARK(full);
}
static inline void hx_wgg(struct hx_exec *x, unsigned n, uint64_t v)
{
    hx_wg(x, n, (uint32_t)v);
    hx_wg(x, n + 1, (uint32_t)(v >> 32));
}

// ---- memory: loads read memory as it was before the packet; stores are staged and
// committed in order at the end. A fault records the event; the packet is discarded.
// size 1, 2, 4 or 8; hx_st also takes size 32 (value ignored): dczeroa's zeroed line.
uint64_t hx_ld_slow(struct hx_exec *x, uint32_t ea, unsigned size);
void hx_st_slow(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val);
#ifdef HX_STENCIL
// In the block compiler's stencils (stencil.h) the slow paths are called through wrappers
// that keep every general register (stencil_slow.c), so that a stencil's fast path needs no
// registers saved. A stencil knows its instruction from holes (tools/isa_sem.py): its index
// in the packet (for branches) and, for the slow paths, which may record a fault naming it,
// its address, so that the compiled code need not keep x->cur_in up to date.
// (The load leaves its value in x->slow_val: clang 16 does not keep rax free for a value
// returned under preserve_most.)
__attribute__((preserve_most)) void hx_ld_slow_keep(struct hx_exec *x, uint32_t ea,
                                                    unsigned size);
__attribute__((preserve_most)) void hx_st_slow_keep(struct hx_exec *x, uint32_t ea,
                                                    unsigned size, uint64_t val);
#define HX_HOLE_IDX() __extension__({ uint32_t v_; \
    __asm__("movl $hx_hole_idx, %0" : "=r"(v_)); v_; })
#define HX_HOLE_INSN() __extension__({ const struct hexsim_insn *v_; \
    __asm__("movabsq $hx_hole_insn, %0" : "=r"(v_)); v_; })
#define HX_LD_SLOW(x, ea, size) \
    ((x)->cur_in = HX_HOLE_INSN(), hx_ld_slow_keep(x, ea, size), (x)->slow_val)
#define HX_ST_SLOW(x, ea, size, val) \
    ((x)->cur_in = HX_HOLE_INSN(), hx_st_slow_keep(x, ea, size, val))
#define HX_CUR_IDX(x) ((int)HX_HOLE_IDX())
#else
#define HX_CUR_IDX(x) ((int)(x)->cur_in->idx)
#define HX_LD_SLOW hx_ld_slow
#define HX_ST_SLOW hx_st_slow
#endif
// Fast path: RAM through the TLB (x->rtlb: mem.h) with nothing staged to forward; everything
// else (TLB misses, faults, devices) goes to hx_ld_slow.
static inline uint64_t hx_ld(struct hx_exec *x, uint32_t ea, unsigned size)
{
    if (__builtin_expect(!x->mem_slow, 1)) {
        const struct hexsim_mem_tlb *e =
            &x->rtlb[(ea >> HEXSIM_PAGE_SHIFT) & (HEXSIM_MEM_TLB_SIZE - 1)];
        if (__builtin_expect(e->tag == hexsim_mem_tlb_key(ea, size), 1)) {
            const uint8_t *b = e->data + (ea & (HEXSIM_PAGE_SIZE - 1));
            switch (size) {
            case 1: return *b;
            case 2: { uint16_t v; memcpy(&v, b, 2); return v; }
            case 4: { uint32_t v; memcpy(&v, b, 4); return v; }
            case 8: { uint64_t v; memcpy(&v, b, 8); return v; }
            default: break;
            }
        }
    }
    return HX_LD_SLOW(x, ea, size);
}
// Fast path: a store to a writable RAM page holding no cached code, found in the TLB
// (x->wtlb: mem.h), while there is room to stage it; everything else (TLB misses, faults,
// devices) goes to hx_st_slow. Staged stores are committed at the end of the
// packet in order (exec.c) and make later loads of the packet forward.
static inline void hx_st(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val)
{
    const struct hexsim_mem_tlb *e = &x->wtlb[(ea >> HEXSIM_PAGE_SHIFT) &
                                              (HEXSIM_MEM_TLB_SIZE - 1)];
    if (__builtin_expect(e->tag == hexsim_mem_tlb_key(ea, size), 1)) {
        if (x->store_now) {   // (a fault earlier in the packet cleared it: exec.c)
            hexsim_bytes_store(e->data + (ea & (HEXSIM_PAGE_SIZE - 1)), size, val);
            return;
        }
        if (__builtin_expect(x->nst < HX_MAX_STORES, 1)) {
            unsigned k = x->nst++;
            x->st[k].addr = ea;
            x->st[k].size = (uint8_t)size;
            x->st[k].val = val;
            x->st[k].page = e->page;
            x->mem_slow = true;
            return;
        }
    }
    HX_ST_SLOW(x, ea, size, val);
}
uint64_t hx_ld_locked(struct hx_exec *x, uint32_t ea, unsigned size);
uint8_t hx_st_cond(struct hx_exec *x, uint32_t ea, unsigned size, uint64_t val);
// Checks an access that moves no data (dcfetch, dczeroa, cache maintenance); returns false
// after recording a fault.
bool hx_probe(struct hx_exec *x, uint32_t ea, unsigned size, bool write);

// ---- control flow: the first branch taken in packet order wins (PRM 8.7 dual jumps)
static inline void hx_jump(struct hx_exec *x, uint32_t target)
{
    if (x->branch_idx < 0 || HX_CUR_IDX(x) < x->branch_idx) {
        x->branch_idx = HX_CUR_IDX(x);
        x->branch_target = target;
    }
}
static inline void hx_call(struct hx_exec *x, uint32_t target)
{
    if (x->branch_idx < 0 || HX_CUR_IDX(x) < x->branch_idx) {
        hx_jump(x, target);
        hx_wr(x, 31, x->npc);
    }
}
void hx_trap(struct hx_exec *x, int kind, uint32_t imm);

#endif
