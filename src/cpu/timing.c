// SPDX-License-Identifier: MIT
// The timing model (timing.h): an in-order VLIW thread that issues one packet per pcycle
// (PRM 1.1 "Instruction sequencer": packets of one to four instructions issue in each
// cycle; all instructions of a packet execute together, PRM 3.3), with
//   - results that become readable `lat_*` pcycles after their packet issued; a packet
//     that reads one earlier waits (interlock) until it is ready. ALU32/ALU64/CR results
//     and post-increment address updates have latency 1: the next packet can use them;
//   - a penalty for taken changes of flow, larger when the :t/:nt hint (PRM 8.4.3
//     "Speculative jumps") was wrong or the target comes from a register; hardware loops
//     branch back without cost (PRM 7.2: "zero-overhead");
//   - fixed costs for LL/SC, barriers, cache maintenance and traps (the ISA table's timing
//     classes ll, sc, sync, cacheop and the trap attribute), and for device accesses;
//   - hardware threads that take turns (interleaved multithreading, PRM 1.1 and 3.x: each
//     thread issues at most one packet per turn): with k threads running, a thread issues
//     at most every k pcycles, which hides latencies and penalties of up to k pcycles. In
//     system mode the vCPUs are grouped core_threads to a core (src/hvm/run.c); the default
//     1 gives every vCPU a core of its own, so N busy vCPUs do N times the work of one in
//     the same guest time;
//   - optionally (cache mode) L1 instruction and data caches and a unified L2 (PRM 5.10
//     "Cache memory": separate L1 I and D caches, unified L2), LRU, 32-byte lines (the line
//     dczeroa clears, PRM 5.10).
//   - HVX (the V65 HVX Programmer's Reference Manual, 4.6 "Instruction latency"): vector
//     packets are pipelined; every result but a histogram's or an extract's is produced a
//     fixed time after its packet starts, so the next packet can read it (hvx_lat_*: 1), but
//     early sources are read sooner: the inputs of multiplies, of shifts and bit counts and
//     of permutes (not their accumulators), and unaligned store data. An early source
//     written by the packet before waits one packet more (hvx_early; the PRM's example:
//     "V1 = VMPY(V0,R0) // STALL due to V0" right after V0 is written). LLVM's Hexagon
//     scheduling model (HexagonDepIICHVX.td) agrees on which operands are early: it reads
//     them two stages before the others. Registers that a .cur or .tmp load of the same
//     packet loads are read from that load. vextract, the HVX-to-scalar transfer, returns
//     its general register late (the V60 HVX Instruction Quick Reference: about 15 more
//     cycles); a histogram takes four packets (HVX PRM 5.1 "vhist"); gathers and scatters pay a
//     fixed cost per vector of offsets (model: VTCM accesses, no published figure).
//     Resource limits (two multiply units, shift, permute, load, store) bind within a
//     packet only, which the assembler enforces (HVX PRM 4.1 "VLIW packing rules"): no cost.
// Qualcomm does not publish per-core latencies or cache geometries; where no source gives a
// number, the value is hexsim's choice, marked "model" in the table below, and can be
// changed with --timing-param NAME=VALUE.
#include "timing.h"

#include <stdlib.h>
#include <string.h>

#include "decode.h"
#include "hvx.h"
#include "isa.h"

const struct hexsim_timing_params hexsim_timing_default_params = {
    .lat_load = 2, .lat_mpy = 2, .lat_fp = 3,
    .branch_taken = 1, .mispredict = 3, .indirect = 2,
    .llsc = 4, .sync = 8, .cacheop = 4, .trap = 10, .device = 20,
    .l1i_size = 16384, .l1i_ways = 4, .l1d_size = 32768, .l1d_ways = 4,
    .l2_size = 262144, .l2_ways = 8, .line = 32,
    .l1_miss = 10, .l2_miss = 60,
    .core_threads = 1,
    .hvx_lat_alu = 1, .hvx_lat_mpy = 1, .hvx_lat_perm = 1, .hvx_lat_load = 1, .hvx_early = 1,
    .hvx_xfer = 15, .hvx_hist = 3, .hvx_gather = 4,
};

struct param_row {
    const char *name;
    size_t off;
    const char *what;
    const char *source;
};

#define ROW(f, what, src) { #f, offsetof(struct hexsim_timing_params, f), what, src }
static const struct param_row rows[] = {
    ROW(lat_load, "load result latency (pcycles after issue)", "model: 1 stall if used next"),
    ROW(lat_mpy, "multiply result latency", "model: 1 stall if used next"),
    ROW(lat_fp, "floating-point result latency", "model: 2 stalls if used next"),
    ROW(branch_taken, "taken direct jump/call, hint right", "model: fetch redirect"),
    ROW(mispredict, "conditional branch, :t/:nt hint wrong", "model; PRM 8.4.3 hints"),
    ROW(indirect, "taken jump/call/return via register", "model: target known late"),
    ROW(llsc, "memw_locked/memd_locked (ll, sc)", "model"),
    ROW(sync, "barrier, syncht, isync (sync)", "model: pipeline drain"),
    ROW(cacheop, "dccleaninva, icinva, dczeroa... (cacheop)", "model"),
    ROW(trap, "trap0, trap1, pause (trap attribute)", "model: exception entry"),
    ROW(device, "device (uncached MMIO) access", "model"),
    ROW(l1i_size, "L1 instruction cache bytes (cache mode)", "model; PRM 5.10: L1 I"),
    ROW(l1i_ways, "L1 instruction cache ways", "model"),
    ROW(l1d_size, "L1 data cache bytes", "model; PRM 5.10: L1 D"),
    ROW(l1d_ways, "L1 data cache ways", "model"),
    ROW(l2_size, "unified L2 cache bytes", "model; PRM 5.10: unified L2"),
    ROW(l2_ways, "L2 ways", "model"),
    ROW(line, "cache line bytes (all levels)", "PRM 5.10: dczeroa's 32-byte line"),
    ROW(l1_miss, "extra pcycles, L1 miss hitting L2", "model"),
    ROW(l2_miss, "extra pcycles more, L2 miss (memory)", "model"),
    ROW(core_threads, "system mode: vCPUs per core (taking turns)", "model: 1, a core each"),
    ROW(hvx_lat_alu, "HVX ALU result latency (cvi_va, cvi_va_dv)",
        "V65 HVX PRM 4.6: fixed result time, next packet"),
    ROW(hvx_lat_mpy, "HVX multiply result latency (cvi_vx*)",
        "V65 HVX PRM 4.6: 'VSUB(V2,V1) NO STALL on V1'"),
    ROW(hvx_lat_perm, "HVX permute/shift result latency (vp, vs)",
        "V65 HVX PRM 4.6: 'VADD(V0,V4) NO STALL on V4'"),
    ROW(hvx_lat_load, "HVX vector load-to-use latency (vmem, vmemu)",
        "V65 HVX PRM 4.6 fixed result time; LLVM V6x: as ALU"),
    ROW(hvx_early, "extra wait of an early HVX source",
        "V65 HVX PRM 4.6: one packet between (mpy/shift/perm)"),
    ROW(hvx_xfer, "vextract (HVX to scalar) result latency",
        "V60 HVX Quick Reference: extract ~+15"),
    ROW(hvx_hist, "extra pcycles of vhist/vwhist",
        "V65 HVX PRM 5.1 vhist: four packets to complete"),
    ROW(hvx_gather, "extra pcycles per vgather/vscatter vector",
        "model (VTCM access; no published figure)"),
};

static unsigned *field(struct hexsim_timing_params *p, const struct param_row *r)
{
    return (unsigned *)((char *)p + r->off);
}

void hexsim_timing_print_params(FILE *out, const struct hexsim_timing_params *p)
{
    fprintf(out, "%-13s %8s  %-44s %s\n", "parameter", "value", "meaning", "source");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        fprintf(out, "%-13s %8u  %-44s %s\n", rows[i].name,
                *field((struct hexsim_timing_params *)p, &rows[i]), rows[i].what, rows[i].source);
    fprintf(out, "ALU32, ALU64, CR and address-update results: latency 1 (usable by the next "
            "packet); one packet issues per pcycle per thread; hardware loops: no cost\n");
}

static bool pow2(unsigned v) { return v && !(v & (v - 1)); }

// What is wrong with a set of parameters, or NULL.
static const char *params_wrong(const struct hexsim_timing_params *q)
{
    if (q->lat_load == 0 || q->lat_mpy == 0 || q->lat_fp == 0 || q->lat_load > 64 ||
        q->lat_mpy > 64 || q->lat_fp > 64 || q->hvx_xfer == 0 || q->hvx_xfer > 64)
        return "latencies must be 1-64";
    if (q->hvx_lat_alu == 0 || q->hvx_lat_mpy == 0 || q->hvx_lat_perm == 0 ||
        q->hvx_lat_load == 0 || q->hvx_lat_alu > 64 || q->hvx_lat_mpy > 64 ||
        q->hvx_lat_perm > 64 || q->hvx_lat_load > 64 || q->hvx_early > 64)
        return "HVX latencies must be 1-64 (hvx_early 0-64)";
    if (!pow2(q->line) || q->line < 4 || q->line > 4096)
        return "line must be a power of 2 from 4 to 4096";
    if (!q->l1i_ways || !q->l1d_ways || !q->l2_ways || q->l1i_ways > 64 || q->l1d_ways > 64 ||
        q->l2_ways > 64)
        return "ways must be 1-64";
    if (!pow2(q->l1i_size / q->line / q->l1i_ways) || !pow2(q->l1d_size / q->line / q->l1d_ways) ||
        !pow2(q->l2_size / q->line / q->l2_ways) || q->l1i_size % (q->line * q->l1i_ways) ||
        q->l1d_size % (q->line * q->l1d_ways) || q->l2_size % (q->line * q->l2_ways))
        return "each cache size must be line x ways x a power of 2 sets";
    if (q->core_threads == 0 || q->core_threads > 64)
        return "core_threads must be 1-64";
    return NULL;
}

int hexsim_timing_set_param(struct hexsim_timing_params *p, const char *a, char *msg,
                            size_t msglen)
{
    const char *eq = strchr(a, '=');
    size_t n = eq ? (size_t)(eq - a) : 0;
    for (size_t i = 0; eq && i < sizeof rows / sizeof rows[0]; i++) {
        if (strlen(rows[i].name) != n || strncmp(rows[i].name, a, n) != 0)
            continue;
        char *end;
        unsigned long v = strtoul(eq + 1, &end, 0);
        if (!eq[1] || *end || v > 1u << 30 || eq[1] == '-') {
            snprintf(msg, msglen, "--timing-param %s: not a number from 0 to 2^30", a);
            return -1;
        }
        struct hexsim_timing_params q = *p;
        *field(&q, &rows[i]) = (unsigned)v;
        const char *why = params_wrong(&q);
        if (why) {
            snprintf(msg, msglen, "--timing-param %s: %s", a, why);
            return -1;
        }
        *p = q;
        return 0;
    }
    snprintf(msg, msglen, "--timing-param %s: expected NAME=VALUE with NAME one of the "
             "parameters --timing-info lists", a);
    return -1;
}

static const char *const cause_names[HX_STALL_NCAUSES] = {
    [HX_STALL_LOAD] = "load-use", [HX_STALL_MPY] = "multiply result", [HX_STALL_FP] = "fp result",
    [HX_STALL_BRANCH] = "taken branch", [HX_STALL_MISPREDICT] = "mispredicted hint",
    [HX_STALL_INDIRECT] = "indirect branch", [HX_STALL_LLSC] = "LL/SC",
    [HX_STALL_SYNC] = "barrier/sync", [HX_STALL_CACHEOP] = "cache maintenance",
    [HX_STALL_TRAP] = "trap", [HX_STALL_ICACHE] = "L1I miss", [HX_STALL_DCACHE] = "L1D miss",
    [HX_STALL_L2] = "L2 miss", [HX_STALL_DEVICE] = "device access",
    [HX_STALL_HVX_LOAD] = "HVX load-to-use", [HX_STALL_HVX_ALU] = "HVX ALU result",
    [HX_STALL_HVX_MPY] = "HVX multiply result", [HX_STALL_HVX_PERM] = "HVX permute/shift result",
    [HX_STALL_HVX_XFER] = "HVX-to-scalar transfer", [HX_STALL_HVX_HIST] = "HVX histogram",
    [HX_STALL_HVX_GATHER] = "HVX gather/scatter",
};

const char *hexsim_stall_cause_name(int cause)
{
    return cause >= 0 && cause < HX_STALL_NCAUSES ? cause_names[cause] : "?";
}

void hexsim_timing_stats_add(struct hexsim_timing_stats *a, const struct hexsim_timing_stats *b)
{
    a->insns += b->insns;
    for (int i = 0; i < HX_STALL_NCAUSES; i++)
        a->stall[i] += b->stall[i];
    a->hvx_packets += b->hvx_packets;
    a->hvx_insns += b->hvx_insns;
    a->taken += b->taken;
    a->mispredicts += b->mispredicts;
    for (int i = 0; i < 3; i++) {
        a->access[i] += b->access[i];
        a->miss[i] += b->miss[i];
    }
    a->device += b->device;
}

// ---- decode-time summary

// The hint of a conditional branch's syntax: 't', 'n' (":nt") or 0.
static char hint_of(const char *syntax)
{
    for (const char *s = strchr(syntax, ':'); s; s = strchr(s + 1, ':')) {
        const char *h = s[1] == 'n' ? s + 2 : s + 1;
        if (h[0] == 't' && !((h[1] >= 'a' && h[1] <= 'z') || (h[1] >= 'A' && h[1] <= 'Z')))
            return s[1] == 'n' ? 'n' : 't';
    }
    return 0;
}

static bool has_pcrel(const struct hexsim_insn_desc *d)
{
    for (unsigned i = 0; i < d->nops; i++)
        if (d->ops[i].pcrel)
            return true;
    return false;
}

static void add_extra(struct hexsim_packet_timing *t, unsigned cost, int cause)
{
    unsigned v = t->extra + cost;
    t->extra = (uint8_t)(v > 255 ? 255 : v);
    t->extra_cause = (uint8_t)cause;
}

// ---- HVX operands

// The HVX result kind of a timing class, or -1 (no vector result with a latency).
static int hvx_kind(unsigned tc)
{
    switch (tc) {
    case HX_TC_CVI_VA: case HX_TC_CVI_VA_DV: case HX_TC_CVI_TMP: return HX_HVX_ALU;
    case HX_TC_CVI_VX: case HX_TC_CVI_VX_DV: case HX_TC_CVI_VX_LATE: case HX_TC_CVI_VS_VX:
        return HX_HVX_MPY;
    case HX_TC_CVI_VP: case HX_TC_CVI_VP_VS: case HX_TC_CVI_VS: return HX_HVX_PERM;
    case HX_TC_CVI_VM_LD: case HX_TC_CVI_VM_CUR_LD: case HX_TC_CVI_VM_VP_LDU: return HX_HVX_LOAD;
    default: return -1;
    }
}

// Whether the vector inputs of a class are early sources (V65 HVX PRM 4.6): multiplies
// (not the late-source cvi_vx_late), shifts and bit counts, permutes, unaligned stores.
static bool hvx_early_class(unsigned tc)
{
    return tc == HX_TC_CVI_VX || tc == HX_TC_CVI_VX_DV || tc == HX_TC_CVI_VS_VX ||
           tc == HX_TC_CVI_VP || tc == HX_TC_CVI_VP_VS || tc == HX_TC_CVI_VS ||
           tc == HX_TC_CVI_VM_STU;
}

// The HVX registers (bit n: vn, 32 + n: qn) a vector operand names.
static uint64_t hvx_operand_regs(const struct hexsim_operand_desc *o, uint32_t raw)
{
    switch (o->kind) {
    case HX_OPK_V: return 1ull << (raw & 31);
    case HX_OPK_VV: return 1ull << hx_vpair_lo(raw) | 1ull << hx_vpair_hi(raw);
    case HX_OPK_Q: return 1ull << HX_TIMING_QREG(raw & 3);
    default: return 0;
    }
}

// An HVX instruction's vector reads (normal and early) and writes. An accumulator (an x or
// y operand beside other vector inputs) is a normal source; the x/y operands of an
// instruction without other vector inputs (vshuff, vdeal in place) are what it permutes.
static void hvx_annotate(struct hexsim_packet_timing *t, const struct hexsim_insn_desc *d,
                         const struct hexsim_insn *in)
{
    const bool early = hvx_early_class(d->timing);
    bool others = false;
    for (unsigned k = 0; k < d->nops; k++) {
        const struct hexsim_operand_desc *o = &d->ops[k];
        char role = o->name[1];
        if ((o->kind == HX_OPK_V || o->kind == HX_OPK_VV) && !o->written && role != 'x' &&
            role != 'y')
            others = true;
    }
    int kind = hvx_kind(d->timing);
    for (unsigned k = 0; k < d->nops; k++) {
        const struct hexsim_operand_desc *o = &d->ops[k];
        uint64_t m = hvx_operand_regs(o, in->op[k]);
        if (!m)
            continue;
        char role = o->name[1];
        bool rmw = role == 'x' || role == 'y';
        if (!o->written || rmw) {
            if (early && o->kind != HX_OPK_Q && (!rmw || !others))
                t->vrd_early |= m;
            else
                t->vrd |= m;
        }
        // (a .tmp load writes no register)
        if (o->written && kind >= 0 && d->timing != HX_TC_CVI_VM_TMP_LD)
            t->vw[kind] |= m;
    }
}

// Register operands give the reads and writes (new-value operands read this packet's
// producer, not an older packet: they are not reads here). Fixed costs are kept as a count
// and a cause and priced with the parameters in use at run time.
void hexsim_timing_annotate(struct hexsim_packet *pkt)
{
    struct hexsim_packet_timing *t = &pkt->tm;
    memset(t, 0, sizeof(*t));
    uint64_t vcur = 0;
    for (unsigned i = 0; i < pkt->ninsns; i++) {
        const struct hexsim_insn *in = &pkt->insn[i];
        const struct hexsim_insn_desc *d = &hexsim_isa_table[in->tag];
        if (in->tag == HX_A4_ext)
            continue;
        t->ninsns++;
        if (d->flags & HX_F_HVX)
            t->hvx_insns++;
        uint32_t w_lat = 0;
        bool load = d->timing == HX_TC_LD || d->timing == HX_TC_LL;
        for (unsigned k = 0; k < d->nops; k++) {
            const struct hexsim_operand_desc *o = &d->ops[k];
            uint32_t m = hexsim_operand_regs(o, in->op[k]);
            if (!m)
                continue;
            char role = o->name[1];
            bool rmw = role == 'x' || role == 'y';
            if (!o->written || rmw)
                t->rd |= m;
            if (o->written) {
                if (!(load && role == 'x'))   // a post-increment's address update: ALU
                    w_lat |= m;
            }
        }
        w_lat |= d->implicit_defs;
        if (d->flags & HX_F_HVX)
            hvx_annotate(t, d, in);
        if (d->timing == HX_TC_CVI_VM_CUR_LD || d->timing == HX_TC_CVI_VM_TMP_LD)
            for (unsigned k = 0; k < d->nops; k++)   // (a predicated one names Pv first)
                if (d->ops[k].written && d->ops[k].kind == HX_OPK_V)
                    vcur |= hvx_operand_regs(&d->ops[k], in->op[k]);
        if (d->timing == HX_TC_CVI_EXTRACT)
            t->w_xfer |= w_lat;
        else if (load)
            t->w_load |= w_lat;
        else if (d->timing == HX_TC_MPY)
            t->w_mpy |= w_lat;
        else if (d->timing == HX_TC_FP && !(d->flags & HX_F_NOFPU))
            t->w_fp |= w_lat;
        char h = hint_of(d->syntax);
        if (h == 't')
            t->hint_t |= (uint8_t)(1u << i);
        else if (h == 'n')
            t->hint_nt |= (uint8_t)(1u << i);
        if ((d->flags & (HX_F_JUMP | HX_F_CALL | HX_F_RETURN)) && !has_pcrel(d))
            t->indirect |= (uint8_t)(1u << i);
        if (d->flags & (HX_F_JUMP | HX_F_CALL | HX_F_RETURN))
            t->slow = true;
        if (d->timing == HX_TC_LL || d->timing == HX_TC_SC)
            add_extra(t, 1, HX_STALL_LLSC);
        else if (d->timing == HX_TC_SYNC)
            add_extra(t, 1, HX_STALL_SYNC);
        else if (d->timing == HX_TC_CACHEOP)
            add_extra(t, 1, HX_STALL_CACHEOP);
        else if (d->timing == HX_TC_CVI_HIST)
            add_extra(t, 1, HX_STALL_HVX_HIST);
        else if (d->timing == HX_TC_CVI_GATHER || d->timing == HX_TC_CVI_SCATTER)
            add_extra(t, 1, HX_STALL_HVX_GATHER);
        else if (d->timing == HX_TC_CVI_GATHER_DV || d->timing == HX_TC_CVI_SCATTER_DV)
            add_extra(t, 2, HX_STALL_HVX_GATHER);   // two vectors of offsets
        if (d->flags & HX_F_TRAP)
            add_extra(t, 1, HX_STALL_TRAP);
    }
    // what a .cur or .tmp load of this packet loads is read from it, not from older packets
    t->vrd &= ~vcur;
    t->vrd_early &= ~vcur;
    if (t->extra || t->hint_t || t->hint_nt || t->indirect)
        t->slow = true;
    t->w_any = (t->w_load | t->w_mpy | t->w_fp | t->w_xfer) != 0;
    t->hvx = (t->vrd | t->vrd_early | t->vw[0] | t->vw[1] | t->vw[2] | t->vw[3]) != 0;
}

static unsigned fixed_cost(const struct hexsim_timing_params *p, int cause)
{
    switch (cause) {
    case HX_STALL_LLSC: return p->llsc;
    case HX_STALL_SYNC: return p->sync;
    case HX_STALL_CACHEOP: return p->cacheop;
    case HX_STALL_TRAP: return p->trap;
    case HX_STALL_HVX_HIST: return p->hvx_hist;
    case HX_STALL_HVX_GATHER: return p->hvx_gather;
    default: return 0;
    }
}

unsigned hexsim_timing_extra(struct hexsim_timing_state *t, const struct hexsim_timing_params *p,
                             const struct hexsim_packet_timing *pt, int branch_idx)
{
    unsigned extra = 0;
    if (pt->extra) {
        // each fixed-cost instruction of the packet counts once; packets rarely hold two
        extra = pt->extra * fixed_cost(p, pt->extra_cause);
        t->st.stall[pt->extra_cause] += extra;
    }
    unsigned b = 0;
    int cause = HX_STALL_BRANCH;
    if (branch_idx >= 0) {
        unsigned bit = 1u << branch_idx;
        t->st.taken++;
        if (pt->indirect & bit) {
            b = p->indirect;
            cause = HX_STALL_INDIRECT;
        } else if (pt->hint_nt & bit) {
            b = p->mispredict;
            cause = HX_STALL_MISPREDICT;
            t->st.mispredicts++;
        } else {
            b = p->branch_taken;
        }
    } else if (pt->hint_t) {        // hinted taken, fell through
        b = p->mispredict;
        cause = HX_STALL_MISPREDICT;
        t->st.mispredicts++;
    }
    t->st.stall[cause] += b;
    return extra + b;
}

uint64_t hexsim_timing_hvx(struct hexsim_timing_state *t, const struct hexsim_timing_params *p,
                           const struct hexsim_packet_timing *pt, uint64_t issue)
{
    const uint64_t rd = (pt->vrd | pt->vrd_early) & t->vpending;
    if (rd && issue >= t->vmax_ready + p->hvx_early) {
        t->vpending = 0;   // everything pending is long ready: forget it all
    } else if (rd) {
        uint64_t ready = issue;
        int cause = -1;
        for (uint64_t m = rd; m; m &= m - 1) {
            unsigned r = (unsigned)__builtin_ctzll(m);
            if (t->vready[r] + p->hvx_early <= issue) {
                t->vpending &= ~(1ull << r);   // long ready even for an early source
                continue;
            }
            uint64_t at = t->vready[r] + ((pt->vrd_early >> r & 1) ? p->hvx_early : 0);
            if (at > ready) {
                ready = at;
                cause = t->vcause[r];
            }
        }
        if (cause >= 0)
            t->st.stall[cause] += ready - issue;
        issue = ready;
    }
    static const uint8_t causes[4] = {
        [HX_HVX_ALU] = HX_STALL_HVX_ALU, [HX_HVX_MPY] = HX_STALL_HVX_MPY,
        [HX_HVX_PERM] = HX_STALL_HVX_PERM, [HX_HVX_LOAD] = HX_STALL_HVX_LOAD,
    };
    const unsigned lat[4] = {
        [HX_HVX_ALU] = p->hvx_lat_alu, [HX_HVX_MPY] = p->hvx_lat_mpy,
        [HX_HVX_PERM] = p->hvx_lat_perm, [HX_HVX_LOAD] = p->hvx_lat_load,
    };
    for (unsigned k = 0; k < 4; k++) {
        if (!pt->vw[k])
            continue;
        uint64_t at = issue + lat[k];
        for (uint64_t m = pt->vw[k]; m; m &= m - 1) {
            unsigned r = (unsigned)__builtin_ctzll(m);
            t->vready[r] = at;
            t->vcause[r] = causes[k];
        }
        t->vpending |= pt->vw[k];
        if (at > t->vmax_ready)
            t->vmax_ready = at;
        // max_ready covers the vector results too (the system-mode block bound reads it)
        if (at + p->hvx_early > t->max_ready)
            t->max_ready = at + p->hvx_early;
    }
    return issue;
}

uint64_t hexsim_timing_packet_bound(const struct hexsim_timing_params *p,
                                    const struct hexsim_packet_timing *pt,
                                    const struct hexsim_packet_timing *results)
{
    const struct { bool any; unsigned lat; } lats[] = {
        { results->w_load != 0, p->lat_load }, { results->w_mpy != 0, p->lat_mpy },
        { results->w_fp != 0, p->lat_fp }, { results->w_xfer != 0, p->hvx_xfer },
        { results->vw[HX_HVX_ALU] != 0, p->hvx_lat_alu + p->hvx_early },
        { results->vw[HX_HVX_MPY] != 0, p->hvx_lat_mpy + p->hvx_early },
        { results->vw[HX_HVX_PERM] != 0, p->hvx_lat_perm + p->hvx_early },
        { results->vw[HX_HVX_LOAD] != 0, p->hvx_lat_load + p->hvx_early },
    };
    uint64_t lat = 0;
    for (size_t i = 0; i < sizeof lats / sizeof lats[0]; i++)
        if (lats[i].any && lats[i].lat > lat)
            lat = lats[i].lat;
    uint64_t c = 1 + lat;
    if (pt->slow) {
        const unsigned brs[] = { p->branch_taken, p->mispredict, p->indirect };
        const unsigned fixed[] = { p->llsc, p->sync, p->cacheop, p->trap, p->hvx_hist,
                                   p->hvx_gather };
        uint64_t br = 0, f = 0;
        for (size_t i = 0; i < sizeof brs / sizeof brs[0]; i++)
            if (brs[i] > br)
                br = brs[i];
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            if (fixed[i] > f)
                f = fixed[i];
        c += br + pt->extra * f;
    }
    return c;
}

void hexsim_timing_add_results(struct hexsim_packet_timing *results,
                               const struct hexsim_packet_timing *pt)
{
    results->w_load |= pt->w_load;
    results->w_mpy |= pt->w_mpy;
    results->w_fp |= pt->w_fp;
    results->w_xfer |= pt->w_xfer;
    for (unsigned k = 0; k < 4; k++)
        results->vw[k] |= pt->vw[k];
}

void hexsim_timing_state_check(struct hexsim_timing_state *t)
{
    t->max_ready = 0;
    for (unsigned r = 0; r < 32; r++) {
        if (t->cause[r] >= HX_STALL_NCAUSES)
            t->cause[r] = HX_STALL_LOAD;
        if ((t->pending >> r & 1) && t->ready[r] > t->max_ready)
            t->max_ready = t->ready[r];
    }
    // vector results: their early sources may wait up to 64 pcycles more (params_wrong)
    t->vpending &= (1ull << HX_TIMING_NVREGS) - 1;
    t->vmax_ready = 0;
    for (unsigned r = 0; r < HX_TIMING_NVREGS; r++) {
        if (t->vcause[r] >= HX_STALL_NCAUSES)
            t->vcause[r] = HX_STALL_HVX_ALU;
        if ((t->vpending >> r & 1) && t->vready[r] > t->vmax_ready)
            t->vmax_ready = t->vready[r];
    }
    if (t->vpending && t->vmax_ready + 64 > t->max_ready)
        t->max_ready = t->vmax_ready + 64;
}

// ---- caches

int hexsim_cache_init(struct hexsim_cache *c, unsigned size, unsigned ways, unsigned line)
{
    memset(c, 0, sizeof(*c));
    c->ways = ways;
    c->sets = size / line / ways;
    c->line_shift = (unsigned)__builtin_ctz(line);
    c->tag = calloc((size_t)c->sets * ways, sizeof(*c->tag));
    return c->tag ? 0 : -1;
}

void hexsim_cache_free(struct hexsim_cache *c)
{
    free(c->tag);
    c->tag = NULL;
}

int hexsim_caches_init(struct hexsim_caches *cs, struct hexsim_cache *l2,
                       const struct hexsim_timing_params *p)
{
    cs->l2 = l2;
    cs->p = p;
    if (hexsim_cache_init(&cs->l1i, p->l1i_size, p->l1i_ways, p->line))
        return -1;
    if (hexsim_cache_init(&cs->l1d, p->l1d_size, p->l1d_ways, p->line)) {
        hexsim_cache_free(&cs->l1i);
        return -1;
    }
    return 0;
}

void hexsim_caches_free(struct hexsim_caches *cs)
{
    hexsim_cache_free(&cs->l1i);
    hexsim_cache_free(&cs->l1d);
}

// Looks the line up, making it the most recent; a miss allocates it (LRU victim). True: hit.
static bool lookup(struct hexsim_cache *c, uint32_t line)
{
    uint32_t *set = &c->tag[(size_t)(line & (c->sets - 1)) * c->ways];
    uint32_t key = line + 1;
    unsigned i = 0;
    while (i < c->ways && set[i] != key)
        i++;
    bool hit = i < c->ways;
    if (!hit)
        i = c->ways - 1;
    memmove(&set[1], &set[0], i * sizeof(*set));
    set[0] = key;
    return hit;
}

unsigned hexsim_cache_access(struct hexsim_caches *cs, struct hexsim_timing_stats *st,
                             uint32_t addr, unsigned size, bool instr)
{
    struct hexsim_cache *l1 = instr ? &cs->l1i : &cs->l1d;
    unsigned lvl = instr ? 0 : 1;
    unsigned extra = 0;
    uint32_t first = addr >> l1->line_shift;
    uint32_t last = (addr + (size ? size - 1 : 0)) >> l1->line_shift;
    for (uint32_t line = first;; line++) {
        st->access[lvl]++;
        if (!lookup(l1, line)) {
            st->miss[lvl]++;
            st->access[2]++;
            extra += cs->p->l1_miss;
            st->stall[instr ? HX_STALL_ICACHE : HX_STALL_DCACHE] += cs->p->l1_miss;
            if (cs->l2 && !lookup(cs->l2, line)) {
                st->miss[2]++;
                extra += cs->p->l2_miss;
                st->stall[HX_STALL_L2] += cs->p->l2_miss;
            }
        }
        if (line == last)
            break;
    }
    return extra;
}
