// SPDX-License-Identifier: MIT
// Packet executor (PRM section 3.3 "Packets", 10.11 new-value operands, 7 hardware loops):
// runs one decoded packet against a vCPU's state and guest memory. Every instruction reads
// the state as it was before the packet; register, predicate, control-register and memory
// writes are staged and committed together at the end, stores in slot order. A packet that
// faults commits nothing. Traps are reported to the caller after the packet has committed.
#ifndef HEXSIM_CPU_EXEC_H
#define HEXSIM_CPU_EXEC_H

#include <stddef.h>
#include <stdint.h>

#include "cpu.h"
#include "decode.h"

struct hexsim_mem;

enum hexsim_event {
    HX_EV_NONE = 0,
    HX_EV_TRAP0,          // trap0(#imm): packet committed, PC is the next packet
    HX_EV_TRAP1,          // trap1(#imm)
    HX_EV_FAULT_READ,     // load or fetch fault at ev_addr (ev_detail: enum hexsim_mem_fault)
    HX_EV_FAULT_WRITE,    // store fault at ev_addr
    HX_EV_FAULT_FETCH,    // instruction fetch fault at ev_addr
    HX_EV_INVALID,        // the words do not decode as a legal packet (ev_detail: status;
                          // ev_imm: the packet-formation rule broken, check.h)
    HX_EV_PRIVILEGED,     // a supervisor or guest instruction in user mode (ev_tag)
    HX_EV_UNIMPLEMENTED,  // an instruction without semantics yet (ev_tag)
};

struct hexsim_event_info {
    int kind;             // enum hexsim_event
    uint32_t addr;        // faulting data address
    int detail;
    int tag;              // instruction concerned, -1 if none
    uint32_t imm;         // trap immediate; HX_EV_INVALID: the rule broken (0: none)
};

// Optional write log for debuggers (hexsim_exec_env.trace). When the pointer is non-NULL
// the executor records, for one packet, which registers each instruction staged, the values
// the packet commits, its stores and its loads. When it is NULL the cost is one predictable
// branch per instruction and per load; nothing else changes.
#define HX_TRACE_MAX_LOADS 8
struct hexsim_exec_trace {
    unsigned ninsns;              // instructions that ran, in execution order
    struct {
        uint8_t index;            // in pkt->insn
        uint8_t pmask;            // predicates this instruction wrote
        uint8_t st_first, st_end; // its stores: st[st_first..st_end)
        uint8_t qmask;            // HVX vector predicates it wrote
        bool vst;                 // it made the packet's vector store
        uint32_t rmask, cmask;    // general and control registers it wrote
        uint32_t vmask;           // HVX vector registers it wrote
    } insn[HX_PACKET_MAX_INSNS];
    bool committed;               // false: the packet faulted, nothing below was applied
    uint32_t new_r[32], new_c[32];
    uint8_t new_p[4];
    unsigned nst;                 // stores in commit order (size 32: dczeroa's line)
    struct { uint32_t addr; uint8_t size; uint64_t val; } st[2];
    unsigned nld;                 // loads (the first HX_TRACE_MAX_LOADS; a vector load is
                                  // one of 128 bytes, a vmemu load two)
    struct { uint32_t addr; uint8_t size; } ld[HX_TRACE_MAX_LOADS];
    // The packet's HVX vector store (vst_len 0: none, or no byte enabled): the bytes it
    // wrote lie in [vst_addr, vst_addr + vst_len), from its first to its last enabled byte.
    uint32_t vst_addr, vst_len;
    // internal: what earlier instructions of the packet staged
    uint32_t cum_r, cum_c, cum_v;
    uint8_t cum_p, cum_st, cum_q;
    bool cum_vst;
    // The HVX registers the packet commits (only those in some insn[].vmask / qmask are
    // set). Last, so that the executor clears only what comes before (HX_TRACE_CLEAR).
    hx_vec new_v[32];
    hx_qreg new_q[4];
};
#define HX_TRACE_CLEAR offsetof(struct hexsim_exec_trace, new_v)

// System mode's memory path (NULL in user mode: guest addresses are hexsim_mem addresses).
// Every load, store and probe first looks its 4 KiB virtual page up in the soft TLB; a hit
// gives the host page directly. A miss calls translate(), which walks the guest page tables,
// checks the access against the mode, and either refills the TLB (RAM) or reports that the
// physical address is MMIO; MMIO accesses go to mmio_read/mmio_write. Stores are checked
// (translated) while the packet executes and written at commit, so a faulting packet
// commits nothing and MMIO side effects happen once.
#define HEXSIM_TLB_SIZE 256

struct hexsim_tlb_entry {
    uint32_t vpage;              // virtual address >> 12, ~0u invalid
    uint8_t prot;                // HEXSIM_PROT_* allowed in the mode the TLB serves
    struct hexsim_page *page;    // host RAM page (never MMIO)
};

struct hexsim_tlb {
    struct hexsim_tlb_entry e[HEXSIM_TLB_SIZE];
};

struct hexsim_xlat_result {
    struct hexsim_page *page;    // RAM page, or NULL: MMIO at pa
    uint32_t pa;
};

struct hexsim_xlat {
    struct hexsim_tlb *tlb;      // consulted inline first; translate() refills it
    void *ctx;
    // Translates ea for one access (HEXSIM_PROT_R, _W or _X). Returns 0 or an enum
    // hexsim_mem_fault (UNMAPPED: no translation, PROT: not permitted, PRIV: supervisor
    // page from user mode).
    int (*translate)(void *ctx, uint32_t ea, unsigned access, struct hexsim_xlat_result *r);
    uint64_t (*mmio_read)(void *ctx, uint32_t pa, unsigned size);
    void (*mmio_write)(void *ctx, uint32_t pa, unsigned size, uint64_t val);
    // The last virtual address of the page the guest's translation maps ea with (its size:
    // 4 KiB to 16 MiB), or ea | 0xfff when nothing maps ea (the vgather/vscatter region
    // rule, hvx_mem.c).
    uint32_t (*page_last)(void *ctx, uint32_t ea);
};

struct hexsim_exec_env {
    struct hexsim_cpu *cpu;
    struct hexsim_mem *mem;   // user mode: the address space; system mode: physical RAM
    unsigned arch;        // core version (68 = V68)
    int user_mode;        // nonzero: privileged and guest instructions fault
    int guest_mode;       // nonzero: privileged (monitor) instructions fault
    const struct hexsim_xlat *xlat;  // system mode memory path, NULL in user mode
    struct hexsim_exec_trace *trace;   // NULL unless a debugger asks (see above)
    const struct hexsim_timing_params *timing;   // NULL: hexsim_timing_default_params
    struct hexsim_caches *caches;      // cache mode: this thread's caches; NULL: simple mode
    // System mode: the fast paths' TLBs (mem.h: struct hexsim_mem_tlb) by virtual address for
    // the vCPU's mode, filled by hx_ld_slow and hx_st_slow from translations; their owner
    // empties them wherever the soft TLB is emptied, and drops a page from every wtlb when
    // it becomes code. NULL: mem's (user mode), or in system mode none (every access
    // translates).
    struct hexsim_mem_tlb *rtlb, *wtlb;
};

// Executes pkt (decoded at cpu->pc). Returns the event (HX_EV_NONE: committed normally).
int hexsim_exec_packet(const struct hexsim_exec_env *env, const struct hexsim_packet *pkt,
                       struct hexsim_event_info *ev);

#endif
