// SPDX-License-Identifier: MIT
// Check suite for the HVX part of the timing model (src/cpu/timing.c) on decoded packets:
// which vector operands are early sources (multiply, shift and permute inputs, not their
// accumulators; the registers a permute works on in place; unaligned store data), that a
// .cur load's vector is no read of an older result, the stall an early and a normal source
// wait and its cause, vextract's scalar latency, the fixed costs of histograms, gathers and
// scatters (which the micro-programs of tests/timing cannot run: those rows have no
// semantics yet) and the block bound (random blocks against the model). Instruction words from llvm-mc-16 (-mhvx, V68).
#include "../check_main.h"
#include <check.h>
#include <string.h>

#include "cpu/decode.h"
#include "cpu/timing.h"
#include "hexsim/arch.h"

#define ARCH (68u | HEXSIM_ARCH_HVX)
#define V(n) (1ull << (n))

// { vtmp.h = vgather(r1,m0,v2.h).h } (hexsim's decoder refuses the usual packet with
// `vmem(r3+#0) = vtmp.new`: vtmp is no operand a new-value store can find)
static const uint32_t GATHER[] = { 0x2f01c102u };
// { vtmp.h = vgather(r1,m0,v3:2.w).h }
static const uint32_t GATHER_DV[] = { 0x2f01c202u };
// { vscatter(r1,m0,v2.h).h = v3 }
static const uint32_t SCATTER[] = { 0x2f21c223u };
// { vscatter(r1,m0,v3:2.w).h = v4 }
static const uint32_t SCATTER_DV[] = { 0x2f21c244u };
// { v0.tmp = vmem(r0+#0); vhist }
static const uint32_t HIST[] = { 0x1e006080u, 0x2800c040u };
// { vshuff(v1,v0,r2) }
static const uint32_t VSHUFF[] = { 0x19e2e120u };
// { v1:0.h |= vlut16(v2.b,v3.h,r4) }
static const uint32_t VLUT16_OR[] = { 0x1b1ce2e0u };
// { v0.w += vasl(v1.w,r2) }
static const uint32_t VASL_ACC[] = { 0x1962e140u };
// { v0.h = vmpyi(v1.h,v2.h) }
static const uint32_t VMPYI[] = { 0x1c22c180u };
// { v0.w = vadd(v1.w,v2.w) }
static const uint32_t VADD[] = { 0x1c42c100u };
// { r2 = vextract(v0,r3) }
static const uint32_t VEXTRACT[] = { 0x9203c022u };
// { vmemu(r0+#0) = v5 }
static const uint32_t VMEMU_ST[] = { 0x2820c0e5u };
// { v0.cur = vmem(r0+#0); v1.h = vmpyi(v0.h,v2.h) }
static const uint32_t CUR_MPY[] = { 0x1c224081u, 0x2800c020u };
// { if (p0) v0.cur = vmem(r0+#0); v1.h = vmpyi(v0.h,v2.h) } (Pv is the first operand)
static const uint32_t PCUR_MPY[] = { 0x1c224081u, 0x2880c080u };
// { if (p0) v3.tmp = vmem(r0+#0); v1.h = vmpyi(v3.h,v2.h) }
static const uint32_t PTMP_MPY[] = { 0x1c224381u, 0x2880c0c3u };

static struct hexsim_packet_timing tm_of(const uint32_t *w, size_t n)
{
    struct hexsim_packet pkt;
    ck_assert_int_eq(hexsim_decode_packet(w, n, 0x10000u, ARCH, &pkt), HX_DECODE_OK);
    return pkt.tm;
}
#define TM(w) tm_of(w, sizeof(w) / sizeof(w[0]))

START_TEST(test_early_sources)
{
    struct hexsim_packet_timing t = TM(VMPYI);
    ck_assert(t.hvx);
    ck_assert_uint_eq(t.vrd_early, V(1) | V(2));
    ck_assert_uint_eq(t.vrd, 0);
    ck_assert_uint_eq(t.vw[HX_HVX_MPY], V(0));
    t = TM(VADD);   // an ALU instruction's inputs are normal sources
    ck_assert_uint_eq(t.vrd, V(1) | V(2));
    ck_assert_uint_eq(t.vrd_early, 0);
    ck_assert_uint_eq(t.vw[HX_HVX_ALU], V(0));
    t = TM(VASL_ACC);   // the accumulator is not early, the shifted register is
    ck_assert_uint_eq(t.vrd, V(0));
    ck_assert_uint_eq(t.vrd_early, V(1));
    ck_assert_uint_eq(t.vw[HX_HVX_PERM], V(0));
    t = TM(VLUT16_OR);
    ck_assert_uint_eq(t.vrd, V(0) | V(1));
    ck_assert_uint_eq(t.vrd_early, V(2) | V(3));
    t = TM(VSHUFF);   // in place: what it permutes
    ck_assert_uint_eq(t.vrd_early, V(0) | V(1));
    ck_assert_uint_eq(t.vrd, 0);
    ck_assert_uint_eq(t.vw[HX_HVX_PERM], V(0) | V(1));
    t = TM(VMEMU_ST);   // unaligned store data
    ck_assert_uint_eq(t.vrd_early, V(5));
    t = TM(CUR_MPY);   // v0 comes from the packet's own load
    ck_assert_uint_eq(t.vrd_early, V(2));
    ck_assert_uint_eq(t.vw[HX_HVX_LOAD], V(0));
    ck_assert_uint_eq(t.vw[HX_HVX_MPY], V(1));
    t = TM(PCUR_MPY);
    ck_assert_uint_eq(t.vrd_early, V(2));
    ck_assert_uint_eq(t.vw[HX_HVX_LOAD], V(0));
    t = TM(PTMP_MPY);   // a .tmp load writes no register
    ck_assert_uint_eq(t.vrd_early, V(2));
    ck_assert_uint_eq(t.vw[HX_HVX_LOAD], 0);
    t = TM(VEXTRACT);
    ck_assert_uint_eq(t.vrd, V(0));
    ck_assert_uint_eq(t.w_xfer, 1u << 2);
    ck_assert(t.w_any);
}
END_TEST

// A packet issuing at `issue` through the model as hx_timing_commit runs it (no memory, no
// branch): its issue pcycle.
static uint64_t step(struct hexsim_timing_state *s, const struct hexsim_timing_params *p,
                     const struct hexsim_packet_timing *t, uint64_t issue)
{
    if (t->rd & s->pending)
        issue = hexsim_timing_data_stall(s, t->rd, issue);
    if (t->hvx)
        issue = hexsim_timing_hvx(s, p, t, issue);
    hexsim_timing_writes(s, p, t, issue);
    return issue;
}

START_TEST(test_stalls)
{
    struct hexsim_timing_params p = hexsim_timing_default_params;
    p.hvx_lat_alu = 2;
    p.hvx_lat_mpy = 3;
    p.hvx_early = 2;
    struct hexsim_timing_state s;
    memset(&s, 0, sizeof(s));
    const struct hexsim_packet_timing add = TM(VADD), mpy = TM(VMPYI), ext = TM(VEXTRACT);
    // v0 = vadd at 10; vextract reads v0 normally: 12; its r2 is ready hvx_xfer later
    ck_assert_uint_eq(step(&s, &p, &add, 10), 10);
    ck_assert_uint_eq(step(&s, &p, &ext, 11), 12);
    ck_assert_uint_eq(s.st.stall[HX_STALL_HVX_ALU], 1);
    ck_assert_uint_eq(s.ready[2], 12 + p.hvx_xfer);
    ck_assert_uint_eq(s.cause[2], HX_STALL_HVX_XFER);
    // v0 = vmpyi(v1, v2) at 20 (nothing pending for it); then vmpyi reading v1 early after
    // v1 = vadd at 30 waits to 30 + 2 + 2
    ck_assert_uint_eq(step(&s, &p, &mpy, 20), 20);
    struct hexsim_packet_timing add1 = add;
    add1.vw[HX_HVX_ALU] = V(1);
    ck_assert_uint_eq(step(&s, &p, &add1, 30), 30);
    ck_assert_uint_eq(step(&s, &p, &mpy, 31), 34);
    ck_assert_uint_eq(s.st.stall[HX_STALL_HVX_ALU], 1 + 3);
    // a vadd reading v0 (the multiply's, at 34 + 3) normally
    struct hexsim_packet_timing rd0 = add;
    rd0.vrd = V(0);
    rd0.vw[HX_HVX_ALU] = V(3);
    ck_assert_uint_eq(step(&s, &p, &rd0, 35), 37);
    ck_assert_uint_eq(s.st.stall[HX_STALL_HVX_MPY], 2);
    // long after: nothing waits, everything is forgotten
    ck_assert_uint_eq(step(&s, &p, &mpy, 1000), 1000);
    ck_assert_uint_eq(s.st.stall[HX_STALL_HVX_ALU] + s.st.stall[HX_STALL_HVX_MPY], 6);
    ck_assert_uint_ge(s.max_ready, 1000 + p.hvx_lat_mpy + p.hvx_early);
}
END_TEST

START_TEST(test_fixed_costs)
{
    const struct hexsim_timing_params *p = &hexsim_timing_default_params;
    static const struct { const uint32_t *w; size_t n; int cause; unsigned count; } cases[] = {
        { GATHER, 1, HX_STALL_HVX_GATHER, 1 }, { GATHER_DV, 1, HX_STALL_HVX_GATHER, 2 },
        { SCATTER, 1, HX_STALL_HVX_GATHER, 1 }, { SCATTER_DV, 1, HX_STALL_HVX_GATHER, 2 },
        { HIST, 2, HX_STALL_HVX_HIST, 1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct hexsim_packet_timing t = tm_of(cases[i].w, cases[i].n);
        ck_assert(t.slow);
        ck_assert_uint_eq(t.extra_cause, (unsigned)cases[i].cause);
        ck_assert_uint_eq(t.extra, cases[i].count);
        struct hexsim_timing_state s;
        memset(&s, 0, sizeof(s));
        unsigned per = cases[i].cause == HX_STALL_HVX_HIST ? p->hvx_hist : p->hvx_gather;
        ck_assert_uint_eq(hexsim_timing_extra(&s, p, &t, -1), cases[i].count * per);
        ck_assert_uint_eq(s.st.stall[cases[i].cause], cases[i].count * per);
        // the block bound covers it, and the longest wait for a result before it
        const struct hexsim_packet_timing xfer = { .w_xfer = 1 };
        ck_assert_uint_ge(hexsim_timing_packet_bound(p, &t, &xfer),
                          1 + cases[i].count * per + p->hvx_xfer);
    }
    ck_assert_str_eq(hexsim_stall_cause_name(HX_STALL_HVX_LOAD), "HVX load-to-use");
}
END_TEST

static uint32_t next_bits(uint32_t *seed, unsigned bits)
{
    *seed = *seed * 1103515245u + 12345u;
    return (*seed >> 16) & ((1u << bits) - 1);
}

// A random packet summary: general and vector registers (0..7) read and written, by kind
static struct hexsim_packet_timing random_tm(uint32_t *seed)
{
    struct hexsim_packet_timing t;
    memset(&t, 0, sizeof(t));
    t.rd = next_bits(seed, 8);
    t.rd &= next_bits(seed, 8);
    uint32_t *w[4] = { &t.w_load, &t.w_mpy, &t.w_fp, &t.w_xfer };
    const unsigned kind = next_bits(seed, 2);
    *w[kind] = 1u << next_bits(seed, 3);
    if (next_bits(seed, 1))
        t.vrd = next_bits(seed, 8) & 0x55u;
    if (next_bits(seed, 1))
        t.vrd_early = next_bits(seed, 8) & 0xaau;
    if (next_bits(seed, 1)) {
        const unsigned k = next_bits(seed, 2);
        t.vw[k] = 1ull << next_bits(seed, 3);
    }
    t.w_any = true;
    t.hvx = (t.vrd | t.vrd_early | t.vw[0] | t.vw[1] | t.vw[2] | t.vw[3]) != 0;
    return t;
}

// The system-mode block bound (run_jit.c): from the later of the clock and max_ready, the
// last of a block's packets issues at most the bounds of the ones before it (each counting
// the results of the block up to it) and the thread's turn for each later; a packet after
// no result of the block waits for nothing.
START_TEST(test_block_bound)
{
    struct hexsim_timing_params p = hexsim_timing_default_params;
    p.lat_fp = 5;
    p.hvx_lat_mpy = 4;
    p.hvx_early = 2;
    const struct hexsim_packet_timing none = { 0 }, plain = { .rd = 3 };
    ck_assert_uint_eq(hexsim_timing_packet_bound(&p, &plain, &none), 1);
    const struct hexsim_packet_timing load = { .w_load = 1 }, mpy = { .vw[HX_HVX_MPY] = 1 };
    ck_assert_uint_eq(hexsim_timing_packet_bound(&p, &plain, &load), 1 + p.lat_load);
    ck_assert_uint_eq(hexsim_timing_packet_bound(&p, &plain, &mpy), 1 + 4 + 2);
    uint32_t seed = 1;
    for (unsigned run = 0; run < 2000; run++) {
        struct hexsim_timing_state s;
        memset(&s, 0, sizeof(s));
        const unsigned turn = 1 + run % 3;
        uint64_t clock = 100;
        for (unsigned k = 0; k < run % 5; k++) {   // results pending before the block
            struct hexsim_packet_timing t = random_tm(&seed);
            clock = step(&s, &p, &t, clock) + turn;
        }
        const uint64_t at = clock > s.max_ready ? clock : s.max_ready;
        struct hexsim_packet_timing results = { 0 };
        uint64_t bound = 0, issue = 0;
        const unsigned n = 1 + run % 16;
        for (unsigned i = 0; i < n; i++) {
            struct hexsim_packet_timing t = random_tm(&seed);
            issue = step(&s, &p, &t, clock);
            clock = issue + turn;
            if (i + 1 < n) {
                hexsim_timing_add_results(&results, &t);
                bound += hexsim_timing_packet_bound(&p, &t, &results);
            }
        }
        ck_assert_uint_le(issue, at + bound + (uint64_t)(n - 1) * turn);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("timing_hvx");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_early_sources);
    tcase_add_test(tc, test_stalls);
    tcase_add_test(tc, test_fixed_costs);
    tcase_add_test(tc, test_block_bound);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
