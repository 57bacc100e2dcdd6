// SPDX-License-Identifier: MIT
// Check suite for the floating-point fast paths (src/cpu/sem/fp.h): every helper that has one
// gives the same result bits and the same USR flags as its exact path (src/cpu/sem/fp.c,
// hx_*_soft), over random operands and edge values (zeros of both signs, denormals, the
// smallest normal, the largest finite, infinities, quiet and signalling NaNs, values near the
// tininess and overflow boundaries of products, sums that cancel, integers near the limits of
// each conversion) in each of the four USR rounding modes, and with the host's MXCSR in
// other states (rounding mode, flush-to-zero, denormals-are-zero), where the fast paths must
// step aside; and that the exact paths by number (hx_fp_exact, the stencils' way out) are the
// exact paths. Facts: PRM XTYPE/FP (USR:FPRND, the sticky flags).
#include "../check_main.h"
#include <check.h>
#include <fenv.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) && defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include "cpu/sem/fp.h"
#include "fp_test_lib.h"

// An operand of a format with ebits exponent and mbits fraction bits: an edge value, any bit
// pattern, or a number with an exponent near the bias, near `near_e` (an exponent field the
// caller picks: alignment, cancellation, products at the ends of the range), near either end,
// sometimes with a short mantissa (exact results).
static uint64_t operand(uint64_t *s, int near_e, unsigned ebits, unsigned mbits)
{
    uint64_t r = next(s), m = next(s);
    const int emax = (1 << ebits) - 1, bias = emax >> 1;
    const uint64_t sign = (r & 1) << (ebits + mbits), fmask = (1ull << mbits) - 1;
    uint64_t mant = m & fmask;
    if ((r >> 40 & 3) == 0)
        mant &= 0xffull << (mbits - 8);
    int e;
    switch (r >> 42 & 15) {
    case 0: return m & ((2ull << (ebits + mbits)) - 1);
    case 1: {   // an edge value
        const uint64_t edge[] = { 0, 1, fmask, 1ull << mbits, (1ull << mbits) | 1,
                                  ((uint64_t)emax << mbits) - 1, (uint64_t)emax << mbits,
                                  (uint64_t)emax << mbits | 1,
                                  (uint64_t)emax << mbits | 1ull << (mbits - 1),
                                  (uint64_t)bias << mbits, 1ull << (mbits - 1) };
        return sign | edge[(r >> 46) % (sizeof edge / sizeof edge[0])];
    }
    case 2: case 3: case 4: e = bias + (int)(r >> 46 & 7) - 3; break;
    case 5: case 6: case 7: case 8: e = near_e + (int)(r >> 46 & 63) - 31; break;
    case 9: e = near_e + (int)(r >> 46 & 3) - 1; break;
    case 10: e = (int)(r >> 46 & 31); break;
    case 11: e = emax - (int)(r >> 46 & 31); break;
    default: e = (int)(r >> 46) & emax; break;
    }
    if (e < 0)
        e = 0;
    if (e > emax)
        e = emax;
    return sign | (uint64_t)e << mbits | mant;
}

static int efield(uint64_t v, unsigned ebits, unsigned mbits)
{
    return (int)(v >> mbits) & ((1 << ebits) - 1);
}

struct outcome {
    uint64_t r;
    uint32_t fl;
    bool full;
};

// an executor state with USR's rounding mode set (and a flag already raised, which must stay)
static void rig(struct hexsim_cpu *cpu, struct hx_exec *x, int mode)
{
    memset(cpu, 0, sizeof *cpu);
    cpu->c[HX_USR] = (uint32_t)mode << HX_USR_FPRND_SHIFT;
    memset(x, 0, sizeof *x);
    x->cpu = cpu;
    x->fp_host = hx_fp_host_check();   // as hx_exec_begin does
}

// The operations under test: op(x, v) with up to three operands v[0..2]; `fast` the helper
// the semantics call, `soft` its exact path.
struct op {
    const char *name;
    unsigned width;                      // operand width for the report
    uint64_t (*fast)(struct hx_exec *, const uint64_t *);
    uint64_t (*soft)(struct hx_exec *, const uint64_t *);
};

static struct outcome run(uint64_t (*f)(struct hx_exec *, const uint64_t *), int mode,
                          const uint64_t *v)
{
    struct hexsim_cpu cpu;
    struct hx_exec x;
    rig(&cpu, &x, mode);
    uint64_t r = f(&x, v);
    return (struct outcome){ r, x.usr_sticky, x.full };
}

static unsigned long checked;

static void same(const struct op *o, int mode, const uint64_t *v, const char *host)
{
    struct outcome a = run(o->fast, mode, v), b = run(o->soft, mode, v);
    int d = (int)o->width / 4;
    if (a.r != b.r || a.fl != b.fl || a.full != b.full)   // (no ck_assert per case: Check logs each)
        ck_abort_msg("%s mode %d%s (%0*llx, %0*llx, %0*llx): fast %llx flags %x, exact %llx "
                  "flags %x", o->name, mode, host, d, (unsigned long long)v[0], d,
                  (unsigned long long)v[1], d, (unsigned long long)v[2],
                  (unsigned long long)a.r, a.fl, (unsigned long long)b.r, b.fl);
    checked++;
}

#define OP2(name, fastf, softf, T, ...)                                                     \
    static uint64_t name##_fast(struct hx_exec *x, const uint64_t *v)                      \
    {                                                                                       \
        return fastf(x, (T)v[0], (T)v[1], ##__VA_ARGS__);                                   \
    }                                                                                       \
    static uint64_t name##_soft(struct hx_exec *x, const uint64_t *v)                      \
    {                                                                                       \
        return softf(x, (T)v[0], (T)v[1], ##__VA_ARGS__);                                   \
    }

OP2(sfadd, hx_sfadd, hx_sfadd_soft, uint32_t)
OP2(sfmpy, hx_sfmpy, hx_sfmpy_soft, uint32_t)
OP2(dfadd, hx_dfadd, hx_dfadd_soft, uint64_t)
OP2(sfmax, hx_sfminmax, hx_sfminmax_soft, uint32_t, true)
OP2(sfmin, hx_sfminmax, hx_sfminmax_soft, uint32_t, false)
OP2(dfmax, hx_dfminmax, hx_dfminmax_soft, uint64_t, true)
OP2(dfmin, hx_dfminmax, hx_dfminmax_soft, uint64_t, false)
OP2(sfcmpeq, hx_sfcmp, hx_sfcmp_soft, uint32_t, HX_FC_EQ)
OP2(sfcmpgt, hx_sfcmp, hx_sfcmp_soft, uint32_t, HX_FC_GT)
OP2(sfcmpge, hx_sfcmp, hx_sfcmp_soft, uint32_t, HX_FC_GE)
OP2(sfcmpuo, hx_sfcmp, hx_sfcmp_soft, uint32_t, HX_FC_UO)
OP2(dfcmpeq, hx_dfcmp, hx_dfcmp_soft, uint64_t, HX_FC_EQ)
OP2(dfcmpgt, hx_dfcmp, hx_dfcmp_soft, uint64_t, HX_FC_GT)
OP2(dfcmpge, hx_dfcmp, hx_dfcmp_soft, uint64_t, HX_FC_GE)
OP2(dfcmpuo, hx_dfcmp, hx_dfcmp_soft, uint64_t, HX_FC_UO)

#define OPFMA(name, fastf, softf, neg)                                                      \
    static uint64_t name##_fast(struct hx_exec *x, const uint64_t *v)                      \
    {                                                                                       \
        return fastf(x, (uint32_t)v[2], (uint32_t)v[0], (uint32_t)v[1], neg);               \
    }                                                                                       \
    static uint64_t name##_soft(struct hx_exec *x, const uint64_t *v)                      \
    {                                                                                       \
        return softf(x, (uint32_t)v[2], (uint32_t)v[0], (uint32_t)v[1], neg);               \
    }
OPFMA(sffma, hx_sffma, hx_sffma_soft, false)
OPFMA(sffms, hx_sffma, hx_sffma_soft, true)
OPFMA(sffma_lib, hx_sffma_lib, hx_sffma_lib_soft, false)
OPFMA(sffms_lib, hx_sffma_lib, hx_sffma_lib_soft, true)

// dfmpyhh with an arbitrary Rxx (v[2])
static uint64_t dfmpyhh_fast(struct hx_exec *x, const uint64_t *v)
{
    return hx_dfmpyhh(x, v[2], v[0], v[1]);
}
static uint64_t dfmpyhh_soft(struct hx_exec *x, const uint64_t *v)
{
    return hx_dfmpyhh_soft(x, v[2], v[0], v[1]);
}
// the whole v67 sequence for v[0] * v[1] as compilers emit it (fp.h), its last step fast or
// exact
static uint64_t dfmpy_seq(struct hx_exec *x, const uint64_t *v, bool fast)
{
    uint64_t fa = hx_dfmpyfix(x, v[0], v[1]), fb = hx_dfmpyfix(x, v[1], v[0]);
    uint64_t acc = hx_dfmpylh(hx_dfmpylh(hx_dfmpyll(fb, fa), fb, fa), fa, fb);
    return fast ? hx_dfmpyhh(x, acc, fb, fa) : hx_dfmpyhh_soft(x, acc, fb, fa);
}
static uint64_t dfmpy_fast(struct hx_exec *x, const uint64_t *v) { return dfmpy_seq(x, v, true); }
static uint64_t dfmpy_soft(struct hx_exec *x, const uint64_t *v) { return dfmpy_seq(x, v, false); }

// dfmpyhh's accumulator: anything, or low bits that put the product's rounding point exactly
// half way (the 20, 21 or 22 bits dfmpyhh drops, above the sticky bit 0), sticky or not
static uint64_t accumulator(uint64_t *s)
{
    uint64_t r = next(s);
    if (r & 1)
        return next(s) >> (r >> 1 & 63);
    unsigned sh = 20 + (unsigned)(r >> 1 & 3) % 3;
    return ((next(s) << sh | 1ull << (sh - 1)) << 1 | (r >> 3 & 1)) & ~(1ull << 63);
}

static const struct op sf_ops[] = {
    { "sfadd", 32, sfadd_fast, sfadd_soft },       { "sfmpy", 32, sfmpy_fast, sfmpy_soft },
    { "sfmax", 32, sfmax_fast, sfmax_soft },       { "sfmin", 32, sfmin_fast, sfmin_soft },
    { "sfcmp.eq", 32, sfcmpeq_fast, sfcmpeq_soft }, { "sfcmp.gt", 32, sfcmpgt_fast, sfcmpgt_soft },
    { "sfcmp.ge", 32, sfcmpge_fast, sfcmpge_soft }, { "sfcmp.uo", 32, sfcmpuo_fast, sfcmpuo_soft },
};
static const struct op fma_ops[] = {
    { "sffma", 32, sffma_fast, sffma_soft },
    { "sffms", 32, sffms_fast, sffms_soft },
    { "sffma:lib", 32, sffma_lib_fast, sffma_lib_soft },
    { "sffms:lib", 32, sffms_lib_fast, sffms_lib_soft },
};
static const struct op df_ops[] = {
    { "dfadd", 64, dfadd_fast, dfadd_soft },       { "dfmpy", 64, dfmpy_fast, dfmpy_soft },
    { "dfmpyhh", 64, dfmpyhh_fast, dfmpyhh_soft }, { "dfmax", 64, dfmax_fast, dfmax_soft },
    { "dfmin", 64, dfmin_fast, dfmin_soft },
    { "dfcmp.eq", 64, dfcmpeq_fast, dfcmpeq_soft }, { "dfcmp.gt", 64, dfcmpgt_fast, dfcmpgt_soft },
    { "dfcmp.ge", 64, dfcmpge_fast, dfcmpge_soft }, { "dfcmp.uo", 64, dfcmpuo_fast, dfcmpuo_soft },
};

// ---- conversions: every row's (from, to, chop)
struct conv {
    enum hx_fpkind from, to;
    bool chop;
};
static const struct conv convs[] = {
    { HX_FK_D, HX_FK_DF, false },  { HX_FK_D, HX_FK_SF, false },   { HX_FK_DF, HX_FK_D, false },
    { HX_FK_DF, HX_FK_D, true },   { HX_FK_DF, HX_FK_SF, false },  { HX_FK_DF, HX_FK_UD, false },
    { HX_FK_DF, HX_FK_UD, true },  { HX_FK_DF, HX_FK_UW, false },  { HX_FK_DF, HX_FK_UW, true },
    { HX_FK_DF, HX_FK_W, false },  { HX_FK_DF, HX_FK_W, true },    { HX_FK_SF, HX_FK_D, false },
    { HX_FK_SF, HX_FK_D, true },   { HX_FK_SF, HX_FK_DF, false },  { HX_FK_SF, HX_FK_UD, false },
    { HX_FK_SF, HX_FK_UD, true },  { HX_FK_SF, HX_FK_UW, false },  { HX_FK_SF, HX_FK_UW, true },
    { HX_FK_SF, HX_FK_W, false },  { HX_FK_SF, HX_FK_W, true },    { HX_FK_UD, HX_FK_DF, false },
    { HX_FK_UD, HX_FK_SF, false }, { HX_FK_UW, HX_FK_DF, false },  { HX_FK_UW, HX_FK_SF, false },
    { HX_FK_W, HX_FK_DF, false },  { HX_FK_W, HX_FK_SF, false },
};
static const char *const kind_name[] = { "sf", "df", "w", "uw", "d", "ud" };

// The rows pass constant kinds, so the fast path inlines to one case per row: do the same
// here (a switch over the table's index with constant arguments in each case).
#define CONV_CASE(i)                                                                        \
    case i:                                                                                 \
        return fast ? hx_fp_convert(x, convs[i].from, convs[i].to, v, convs[i].chop)        \
                    : hx_fp_convert_soft(x, convs[i].from, convs[i].to, v, convs[i].chop);
static uint64_t convert(struct hx_exec *x, unsigned i, uint64_t v, bool fast)
{
    switch (i) {
    CONV_CASE(0) CONV_CASE(1) CONV_CASE(2) CONV_CASE(3) CONV_CASE(4) CONV_CASE(5)
    CONV_CASE(6) CONV_CASE(7) CONV_CASE(8) CONV_CASE(9) CONV_CASE(10) CONV_CASE(11)
    CONV_CASE(12) CONV_CASE(13) CONV_CASE(14) CONV_CASE(15) CONV_CASE(16) CONV_CASE(17)
    CONV_CASE(18) CONV_CASE(19) CONV_CASE(20) CONV_CASE(21) CONV_CASE(22) CONV_CASE(23)
    CONV_CASE(24) CONV_CASE(25)
    default: return 0;
    }
}
_Static_assert(sizeof convs / sizeof convs[0] == 26, "CONV_CASE list");

static uint64_t conv_operand(uint64_t *s, enum hx_fpkind k)
{
    uint64_t r = next(s), m = next(s);
    unsigned sh = (unsigned)(r >> 8) & 63;
    switch (k) {
    case HX_FK_SF: return operand(s, 127 + (int)(r >> 16 & 63) - 8, 8, 23);
    case HX_FK_DF: return operand(s, 1023 + (int)(r >> 16 & 127) - 32, 11, 52);
    case HX_FK_W: case HX_FK_UW:
        return (r & 1) ? (uint32_t)(m >> (sh & 31)) : (uint32_t)((1ull << (sh & 31)) + (r >> 20 & 7) - 4);
    default:
        return (r & 1) ? m >> sh : (1ull << sh) + (r >> 20 & 7) - 4;
    }
}

static void conv_same(unsigned i, int mode, uint64_t v, const char *host)
{
    struct hexsim_cpu c1, c2;
    struct hx_exec x1, x2;
    rig(&c1, &x1, mode);
    rig(&c2, &x2, mode);
    uint64_t a = convert(&x1, i, v, true), b = convert(&x2, i, v, false);
    if (a != b || x1.usr_sticky != x2.usr_sticky || x1.full != x2.full)
        ck_abort_msg("convert_%s2%s%s mode %d%s (%llx): fast %llx flags %x, exact %llx flags %x",
                  kind_name[convs[i].from], kind_name[convs[i].to], convs[i].chop ? ":chop" : "",
                  mode, host, (unsigned long long)v, (unsigned long long)a, x1.usr_sticky,
                  (unsigned long long)b, x2.usr_sticky);
    checked++;
}

// ---- the sweeps (n random cases of each operation, in each USR mode)
static void sweep(unsigned n, const char *host)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (unsigned k = 0; k < n; k++) {
        uint64_t v[3];
        for (size_t o = 0; o < sizeof sf_ops / sizeof sf_ops[0]; o++) {
            v[0] = operand(&s, 127, 8, 23);
            int e = efield(v[0], 8, 23);
            // b near a (sums), or near 127 - (e - 127) +- the range ends (products)
            v[1] = operand(&s, (next(&s) & 1) ? e : 254 - e + (int)(next(&s) % 300) - 150, 8, 23);
            v[2] = 0;
            for (int mode = 0; mode < 4; mode++)
                same(&sf_ops[o], mode, v, host);
        }
        for (size_t o = 0; o < sizeof fma_ops / sizeof fma_ops[0]; o++) {
            v[0] = operand(&s, 127, 8, 23);
            v[1] = operand(&s, 127 + (int)(next(&s) % 280) - 140, 8, 23);
            // the addend near the product's exponent (cancellation), or anywhere
            int pe = efield(v[0], 8, 23) + efield(v[1], 8, 23) - 127;
            v[2] = operand(&s, pe, 8, 23);
            if ((next(&s) & 7) == 0) {   // an exact cancellation
                double p = (double)f_of((uint32_t)v[0]) * f_of((uint32_t)v[1]);
                v[2] = bits_of((float)-p);
            }
            for (int mode = 0; mode < 4; mode++)
                same(&fma_ops[o], mode, v, host);
        }
        for (size_t o = 0; o < sizeof df_ops / sizeof df_ops[0]; o++) {
            v[0] = operand(&s, 1023, 11, 52);
            int e = efield(v[0], 11, 52);
            v[1] = operand(&s, (next(&s) & 1) ? e : 2046 - e + (int)(next(&s) % 2200) - 1100,
                           11, 52);
            v[2] = accumulator(&s);
            for (int mode = 0; mode < 4; mode++)
                same(&df_ops[o], mode, v, host);
        }
        for (unsigned i = 0; i < sizeof convs / sizeof convs[0]; i++) {
            uint64_t w = conv_operand(&s, convs[i].from);
            for (int mode = 0; mode < 4; mode++)
                conv_same(i, mode, w, host);
        }
    }
}

// every pair (triple for the fused forms) of edge values in every mode
static void edges(const char *host)
{
    static const uint32_t sv[] = {
        0x00000000, 0x80000000, 0x00000001, 0x807fffff, 0x00800000, 0x80800001, 0x3f800000,
        0xbf800001, 0x3f7fffff, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
        0x7f800001, 0xffffffff, 0x1f800000, 0x5f800000, 0x20000000, 0x1fffffff, 0x33800000,
        0x4b000001, 0x4f000000, 0xcf000000, 0x4f800000, 0x5f000000, 0xdf000000, 0x3f000000,
        0xbf000000, 0x3fc00000, 0x40200000, 0xbfc00000,
    };
    static const uint64_t dv[] = {
        0, 0x8000000000000000, 1, 0x800fffffffffffff, 0x0010000000000000, 0x8010000000000001,
        0x3ff0000000000000, 0xbff0000000000001, 0x3fefffffffffffff, 0x7fefffffffffffff,
        0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
        0x7ff0000000000001, 0xffffffffffffffff, 0x1ff0000000000000, 0x5ff0000000000000,
        0x2000000000000000, 0x1fffffffffffffff, 0x41e0000000000000, 0xc1e0000000000000,
        0x41f0000000000000, 0x43e0000000000000, 0xc3e0000000000000, 0x43f0000000000000,
        0x3fe0000000000000, 0xbfe0000000000000, 0x3ff8000000000000, 0x4004000000000000,
        0x41dfffffffc00000, 0x381fffffe0000000, 0x36a0000000000000, 0x47efffffe0000000,
        0x41dfffffffe00000, 0xc1e0000000100000, 0x41effffffff00000, 0x43dfffffffffffff,
        0xc3dfffffffffffff, 0x43cfffffffffffff, 0x41d0000000000000, 0xc1d0000000200000,
    };
    const size_t ns = sizeof sv / sizeof sv[0], nd = sizeof dv / sizeof dv[0];
    uint64_t v[3] = { 0, 0, 0 };
    for (int mode = 0; mode < 4; mode++) {
        for (size_t i = 0; i < ns; i++)
            for (size_t j = 0; j < ns; j++) {
                v[0] = sv[i];
                v[1] = sv[j];
                v[2] = 0;
                for (size_t o = 0; o < sizeof sf_ops / sizeof sf_ops[0]; o++)
                    same(&sf_ops[o], mode, v, host);
                for (size_t k = 0; k < ns; k++) {
                    v[2] = sv[k];
                    for (size_t o = 0; o < sizeof fma_ops / sizeof fma_ops[0]; o++)
                        same(&fma_ops[o], mode, v, host);
                }
            }
        for (size_t i = 0; i < nd; i++)
            for (size_t j = 0; j < nd; j++) {
                v[0] = dv[i];
                v[1] = dv[j];
                v[2] = dv[(i + j) % nd];
                for (size_t o = 0; o < sizeof df_ops / sizeof df_ops[0]; o++)
                    same(&df_ops[o], mode, v, host);
            }
        static const uint64_t iv[] = {
            0, 1, 0xffffffff, 0x7fffffff, 0x80000000, 0x80000001, 0xffffff, 0x1000001,
            0xffffffffffffffff, 0x7fffffffffffffff, 0x8000000000000000, 0x20000000000001,
            0x3fffffffffffffff, 0x4000000000000000, 0xc000000000000000, 0xbfffffffffffffff,
            0xffdfffffffffffff, 0x20000000000000, 0xffe0000000000000,
        };
        for (unsigned i = 0; i < sizeof convs / sizeof convs[0]; i++) {
            enum hx_fpkind f = convs[i].from;
            const uint64_t *tab = f == HX_FK_SF ? (const uint64_t *)0 : f == HX_FK_DF ? dv : iv;
            size_t n = f == HX_FK_SF ? ns : f == HX_FK_DF ? nd : sizeof iv / sizeof iv[0];
            for (size_t k = 0; k < n; k++)
                conv_same(i, mode, tab ? tab[k] : sv[k], host);
        }
    }
}

START_TEST(test_fast_matches_exact)
{
    checked = 0;
    edges("");
    sweep(20000, "");
    ck_assert_uint_gt(checked, 1000000);
}
END_TEST

// hx_fp_exact, the exact paths by number (the stencils' way out, through stencil_slow.c),
// is each exact path: every op with its parameters on random operands.
START_TEST(test_exact_by_number)
{
    uint64_t s = 0x2545f4914f6cdd1dull;
    for (int k = 0; k < 20000; k++) {
        uint64_t a = next(&s), b = next(&s), c = next(&s);
        uint32_t a32 = (uint32_t)operand(&s, 127, 8, 23), b32 = (uint32_t)operand(&s, 127, 8, 23);
        uint32_t c32 = (uint32_t)operand(&s, 127, 8, 23);
        uint64_t ad = operand(&s, 1023, 11, 52), bd = operand(&s, 1023, 11, 52);
        int mode = (int)(next(&s) & 3);
        struct hexsim_cpu c1, c2;
        struct hx_exec x1, x2;
        uint64_t want[32], got[32];
        unsigned n = 0;
#define BOTH(op, pa, pb, pc, call)                                                          \
        do {                                                                                \
            rig(&c1, &x1, mode);                                                            \
            rig(&c2, &x2, mode);                                                            \
            got[n] = hx_fp_exact(&x1, op, pa, pb, pc) | (uint64_t)x1.usr_sticky << 56;       \
            struct hx_exec *x = &x2;                                                        \
            want[n] = (call);                                                               \
            want[n] |= (uint64_t)x2.usr_sticky << 56;                                       \
            n++;                                                                            \
        } while (0)
        BOTH(HX_FPOP_SFADD, a32, b32, 0, hx_sfadd_soft(x, a32, b32));
        BOTH(HX_FPOP_SFMPY, a32, b32, 0, hx_sfmpy_soft(x, a32, b32));
        BOTH(HX_FPOP_SFFMA, a32, b32, c32, hx_sffma_soft(x, c32, a32, b32, false));
        BOTH(HX_FPOP_SFFMA | 1 << 8, a32, b32, c32, hx_sffma_soft(x, c32, a32, b32, true));
        BOTH(HX_FPOP_SFFMA_LIB, a32, b32, c32, hx_sffma_lib_soft(x, c32, a32, b32, false));
        BOTH(HX_FPOP_SFFMA_LIB | 1 << 8, a32, b32, c32, hx_sffma_lib_soft(x, c32, a32, b32, true));
        BOTH(HX_FPOP_DFADD, ad, bd, 0, hx_dfadd_soft(x, ad, bd));
        BOTH(HX_FPOP_DFMPYHH, ad, bd, c, hx_dfmpyhh_soft(x, c, ad, bd));
        BOTH(HX_FPOP_DFMPYFIX, ad, bd, 0, hx_dfmpyfix_denormal(x, ad, bd));
        BOTH(HX_FPOP_SFMINMAX, a32, b32, 0, hx_sfminmax_soft(x, a32, b32, false));
        BOTH(HX_FPOP_SFMINMAX | 1 << 8, a32, b32, 0, hx_sfminmax_soft(x, a32, b32, true));
        BOTH(HX_FPOP_DFMINMAX, ad, bd, 0, hx_dfminmax_soft(x, ad, bd, false));
        BOTH(HX_FPOP_DFMINMAX | 1 << 8, ad, bd, 0, hx_dfminmax_soft(x, ad, bd, true));
        for (unsigned cond = 0; cond < 4; cond++) {
            BOTH(HX_FPOP_SFCMP | cond << 8, a32, b32, 0,
                 hx_sfcmp_soft(x, a32, b32, (enum hx_fpcmp)cond));
            BOTH(HX_FPOP_DFCMP | cond << 8, ad, bd, 0,
                 hx_dfcmp_soft(x, ad, bd, (enum hx_fpcmp)cond));
        }
        for (unsigned i = 0; i < n; i++)
            if (got[i] != want[i])
                ck_abort_msg("hx_fp_exact case %u (%llx %llx %llx): %llx, want %llx", i,
                             (unsigned long long)a, (unsigned long long)b,
                             (unsigned long long)c, (unsigned long long)got[i],
                             (unsigned long long)want[i]);
        for (unsigned i = 0; i < sizeof convs / sizeof convs[0]; i++) {
            const struct conv *cv = &convs[i];
            uint64_t v = conv_operand(&s, cv->from);
            rig(&c1, &x1, mode);
            rig(&c2, &x2, mode);
            uint32_t op = HX_FPOP_CONVERT |
                          ((uint32_t)cv->from << 4 | (uint32_t)cv->to << 1 | cv->chop) << 8;
            uint64_t g = hx_fp_exact(&x1, op, v, 0, 0);
            uint64_t w = hx_fp_convert_soft(&x2, cv->from, cv->to, v, cv->chop);
            if (g != w || x1.usr_sticky != x2.usr_sticky)
                ck_abort_msg("hx_fp_exact convert %u (%llx): %llx, want %llx", i,
                             (unsigned long long)v, (unsigned long long)g, (unsigned long long)w);
        }
    }
}
END_TEST

// The host's MXCSR in another state: its rounding mode (fesetround), and on x86-64 flush to
// zero and denormals are zero: hx_fp_host_check (run by hx_exec_begin as each run starts,
// here by rig) must see it, and the fast paths step aside.
START_TEST(test_host_state_ignored)
{
    static const int modes[] = { FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        fesetround(modes[m]);
        edges(" (host rounding changed)");
        sweep(1000, " (host rounding changed)");
        fesetround(FE_TONEAREST);
    }
#if defined(__x86_64__) && defined(__SSE2__)
    static const unsigned bits[] = { 0x8000u, 0x0040u };   // FTZ, DAZ
    for (size_t m = 0; m < 2; m++) {
        unsigned old = _mm_getcsr();
        _mm_setcsr(old | bits[m]);
        edges(m ? " (host DAZ)" : " (host FTZ)");
        sweep(1000, m ? " (host DAZ)" : " (host FTZ)");
        _mm_setcsr(old);
    }
#endif
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fp_fast");
    TCase *tc = tcase_create("fp_fast");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_fast_matches_exact);
    tcase_add_test(tc, test_exact_by_number);
    tcase_add_test(tc, test_host_state_ignored);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
