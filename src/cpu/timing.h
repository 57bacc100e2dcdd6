// SPDX-License-Identifier: MIT
// Cycle-approximate timing model of one Hexagon V6x hardware thread (timing.c has the model
// and its parameter table with the source of every number). The executor calls it once per
// committed packet; it turns the packet's timing summary (computed from the ISA table's
// timing classes when the packet is decoded) and what the packet did (branch taken, memory
// accesses) into pcycles, and keeps the per-thread statistics that --stats prints.
#ifndef HEXSIM_CPU_TIMING_H
#define HEXSIM_CPU_TIMING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum hexsim_timing_mode {
    HEXSIM_TIMING_SIMPLE = 0,  // pipeline model, every memory access hits (the default)
    HEXSIM_TIMING_CACHE = 1,   // plus L1 instruction/data and unified L2 caches
};

// Why a packet took more than its issue cycle.
enum hexsim_stall_cause {
    HX_STALL_LOAD,        // a source register a load in a recent packet writes
    HX_STALL_MPY,         // ... a multiply writes
    HX_STALL_FP,          // ... a floating-point instruction writes
    HX_STALL_BRANCH,      // a taken direct jump or call (fetch redirect)
    HX_STALL_MISPREDICT,  // a conditional branch whose :t/:nt hint was wrong
    HX_STALL_INDIRECT,    // a taken jump or call through a register, or a return
    HX_STALL_LLSC,        // load-locked / store-conditional
    HX_STALL_SYNC,        // barrier, syncht, isync
    HX_STALL_CACHEOP,     // cache maintenance and prefetch instructions
    HX_STALL_TRAP,        // trap0, trap1, pause
    HX_STALL_ICACHE,      // instruction fetch missing L1I (cache mode)
    HX_STALL_DCACHE,      // data access missing L1D (cache mode)
    HX_STALL_L2,          // an L1 miss also missing L2 (cache mode)
    HX_STALL_DEVICE,      // uncached device (MMIO) access
    // HVX (hvx_* parameters): a vector register an earlier packet's HVX instruction writes,
    // by that instruction's kind (an early source waits one packet more, timing.c)
    HX_STALL_HVX_LOAD,    // ... a vector load writes (load-to-use)
    HX_STALL_HVX_ALU,     // ... a vector ALU instruction writes
    HX_STALL_HVX_MPY,     // ... a vector multiply writes
    HX_STALL_HVX_PERM,    // ... a permute or shift instruction writes
    HX_STALL_HVX_XFER,    // a general register an HVX-to-scalar transfer (vextract) writes
    HX_STALL_HVX_HIST,    // histogram instructions (vhist, vwhist: four packets)
    HX_STALL_HVX_GATHER,  // gathers and scatters (vgather, vscatter)
    HX_STALL_NCAUSES
};

// The model's numbers (timing.c: hexsim_timing_default_params, with sources).
struct hexsim_timing_params {
    unsigned lat_load, lat_mpy, lat_fp;             // result latency in pcycles (ALU: 1)
    unsigned branch_taken, mispredict, indirect;    // extra pcycles
    unsigned llsc, sync, cacheop, trap, device;
    // caches (cache mode)
    unsigned l1i_size, l1i_ways, l1d_size, l1d_ways, l2_size, l2_ways, line;
    unsigned l1_miss, l2_miss;                      // extra pcycles: L2 hit, memory
    unsigned core_threads;    // system mode: vCPUs per core, taking turns (1: a core each)
    // HVX: result latencies of vector ALU, multiply, permute/shift and load instructions,
    // the extra wait of an early source, the HVX-to-scalar transfer's result latency, the
    // fixed extra pcycles of histograms and of each gathered/scattered vector of offsets
    unsigned hvx_lat_alu, hvx_lat_mpy, hvx_lat_perm, hvx_lat_load, hvx_early;
    unsigned hvx_xfer, hvx_hist, hvx_gather, hvx_scatter;
};

extern const struct hexsim_timing_params hexsim_timing_default_params;

// Statistics of one thread (kept in struct hexsim_cpu, so snapshots carry them).
struct hexsim_timing_stats {
    uint64_t insns;                       // instructions committed (constant extenders not counted)
    uint64_t stall[HX_STALL_NCAUSES];     // pcycles lost, by cause
    uint64_t taken, mispredicts;          // branches taken; wrong hints
    uint64_t access[3], miss[3];          // L1I, L1D, L2 (cache mode)
    uint64_t device;                      // device accesses
    uint64_t hvx_packets, hvx_insns;      // packets with HVX instructions; HVX instructions
};

// HVX registers the model tracks: v0-v31, then q0-q3.
#define HX_TIMING_NVREGS 36
#define HX_TIMING_QREG(n) (32u + (n))

// Per-thread model state (in struct hexsim_cpu).
struct hexsim_timing_state {
    uint64_t ready[32];     // pcycle from which register n's pending result can be read
    uint8_t cause[32];      // enum hexsim_stall_cause of that pending result
    uint32_t pending;       // bit n: ready[n] may still lie in the future
    uint64_t max_ready;     // at least every pending ready[n]: from then on none is pending
    uint32_t interleave;    // hardware threads taking turns on the core (0 or 1: one)
    struct hexsim_timing_stats st;
    // HVX registers (index n < 32: vn; 32 + n: qn): when a normal source can read the
    // pending result (an early source: hvx_early later), and its stall cause
    uint64_t vready[HX_TIMING_NVREGS];
    uint8_t vcause[HX_TIMING_NVREGS];
    uint64_t vpending;      // bit n: vready[n] may still lie in the future
    uint64_t vmax_ready;    // at least every pending vready[n]
};

// What the timing model needs of a packet, summarised when it is decoded.
struct hexsim_packet_timing {
    uint32_t rd;            // general registers the packet reads from earlier packets
    uint32_t w_load, w_mpy, w_fp;   // registers written with a load / multiply / fp latency
    uint32_t w_xfer;                // ... by an HVX-to-scalar transfer (vextract)
    // HVX registers (bit n as in vready) read from earlier packets as normal or as early
    // sources (multiply, shift and permute inputs, unaligned store data: timing.c), and
    // written, by result kind (enum hexsim_hvx_kind)
    uint64_t vrd, vrd_early;
    uint64_t vw[4];
    uint8_t hint_t, hint_nt;        // instructions (bit i: insn[i]) that are conditional
                                    // branches hinted taken / not taken
    uint8_t indirect;       // instructions that branch through a register (or return)
    uint8_t extra;          // fixed extra pcycles (LL/SC, barriers, cache maintenance, traps)
    uint8_t extra_cause;    // enum hexsim_stall_cause of `extra`
    uint8_t ninsns;         // instructions, constant extenders not counted
    uint8_t hvx_insns;      // of them HVX instructions (--stats, --profile)
    bool slow;              // anything beyond rd/writes: branches or extra cycles
    bool w_any;             // w_load | w_mpy | w_fp | w_xfer is not 0
    bool hvx;               // vrd, vrd_early or vw is not 0: hexsim_timing_hvx
};

// The kinds of HVX results (struct hexsim_packet_timing's vw).
enum hexsim_hvx_kind { HX_HVX_ALU, HX_HVX_MPY, HX_HVX_PERM, HX_HVX_LOAD };

struct hexsim_packet;
struct hexsim_cpu;
struct hexsim_caches;

// Fills pkt->tm from the ISA table (called by the decoder for a well-formed packet).
void hexsim_timing_annotate(struct hexsim_packet *pkt);

// The issue pcycle of a packet reading `regs` that are pending in t (data stalls counted).
static inline uint64_t hexsim_timing_data_stall(struct hexsim_timing_state *t, uint32_t regs,
                                                 uint64_t issue)
{
    if (issue >= t->max_ready) {   // everything pending is long ready: forget it all
        t->pending = 0;
        return issue;
    }
    uint64_t ready = issue;
    int cause = -1;
    for (uint32_t m = regs & t->pending; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        if (t->ready[r] <= issue) {
            t->pending &= ~(1u << r);   // long ready: forget it
            continue;
        }
        if (t->ready[r] > ready) {
            ready = t->ready[r];
            cause = t->cause[r];
        }
    }
    if (cause >= 0)
        t->st.stall[cause] += ready - issue;
    return ready;
}
// The HVX part of a packet with pt->hvx set, issuing at `issue` (after the general-register
// stall): waits for the vector registers it reads (stalls counted), records the ones it
// writes; returns the issue pcycle.
uint64_t hexsim_timing_hvx(struct hexsim_timing_state *t, const struct hexsim_timing_params *p,
                           const struct hexsim_packet_timing *pt, uint64_t issue);
// The most pcycles a packet of summary pt can take beyond the thread's turn, a data stall
// included, and its branch and fixed costs; no memory costs (the system-mode block
// compiler's bound, src/hvm/run_jit.c). The results it may wait for (or whose wait it may
// hand on to the next packet) were issued before it, at most the longest latency earlier
// (an early source's wait included), and are among `results` (its write masks: the packets
// of the block up to it, hexsim_timing_add_results; the results pending before the block
// are ready when it starts, timing_state's max_ready).
uint64_t hexsim_timing_packet_bound(const struct hexsim_timing_params *p,
                                    const struct hexsim_packet_timing *pt,
                                    const struct hexsim_packet_timing *results);
// Adds pt's results (its write masks) to `results`.
void hexsim_timing_add_results(struct hexsim_packet_timing *results,
                               const struct hexsim_packet_timing *pt);
// Extra pcycles of a packet with pt->slow set (pt: its summary); branch_idx: the instruction
// that took the packet's branch, -1 none.
unsigned hexsim_timing_extra(struct hexsim_timing_state *t, const struct hexsim_timing_params *p,
                             const struct hexsim_packet_timing *pt, int branch_idx);
// Records the packet's results with a latency (issued at `issue`); inline, it runs for
// most packets.
static inline void hexsim_timing_set_ready(struct hexsim_timing_state *t, uint32_t regs,
                                           uint64_t at, int cause)
{
    for (uint32_t m = regs; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        t->ready[r] = at;
        t->cause[r] = (uint8_t)cause;
    }
    t->pending |= regs;
    if (at > t->max_ready)
        t->max_ready = at;
}

static inline void hexsim_timing_writes(struct hexsim_timing_state *t,
                                        const struct hexsim_timing_params *p,
                                        const struct hexsim_packet_timing *pt, uint64_t issue)
{
    if (pt->w_load)
        hexsim_timing_set_ready(t, pt->w_load, issue + p->lat_load, HX_STALL_LOAD);
    if (pt->w_mpy)
        hexsim_timing_set_ready(t, pt->w_mpy, issue + p->lat_mpy, HX_STALL_MPY);
    if (pt->w_fp)
        hexsim_timing_set_ready(t, pt->w_fp, issue + p->lat_fp, HX_STALL_FP);
    if (pt->w_xfer)
        hexsim_timing_set_ready(t, pt->w_xfer, issue + p->hvx_xfer, HX_STALL_HVX_XFER);
}
// Sets one parameter from "NAME=VALUE" (--timing-param); 0, or -1 with a message.
int hexsim_timing_set_param(struct hexsim_timing_params *p, const char *assignment, char *msg,
                            size_t msglen);

// ---- caches (cache mode). Set-associative, LRU, write-allocate, indexed and tagged by the
// address the access used (virtual; ASIDs are not modelled). L1I and L1D per thread; L2
// shared by the threads of a machine.
struct hexsim_cache {
    unsigned sets, ways, line_shift;
    uint32_t *tag;          // sets * ways: line address + 1 (0: invalid), most recent first
};

struct hexsim_caches {
    struct hexsim_cache l1i, l1d;
    struct hexsim_cache *l2;
    const struct hexsim_timing_params *p;
};

// Makes a thread's caches (l2: shared, made with hexsim_cache_init). 0, or -1 out of memory.
int hexsim_cache_init(struct hexsim_cache *c, unsigned size, unsigned ways, unsigned line);
void hexsim_cache_free(struct hexsim_cache *c);
int hexsim_caches_init(struct hexsim_caches *cs, struct hexsim_cache *l2,
                       const struct hexsim_timing_params *p);
void hexsim_caches_free(struct hexsim_caches *cs);
// Extra pcycles of an access of size bytes at addr (instr: a fetch), counted in st.
unsigned hexsim_cache_access(struct hexsim_caches *cs, struct hexsim_timing_stats *st,
                             uint32_t addr, unsigned size, bool instr);

// Makes state read from a snapshot safe: stall causes in range, max_ready covering the
// pending registers.
void hexsim_timing_state_check(struct hexsim_timing_state *t);

// ---- reports
const char *hexsim_stall_cause_name(int cause);
// The parameter table (--timing-info).
void hexsim_timing_print_params(FILE *out, const struct hexsim_timing_params *p);
// Adds b into a.
void hexsim_timing_stats_add(struct hexsim_timing_stats *a, const struct hexsim_timing_stats *b);

#endif
