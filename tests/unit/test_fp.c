// SPDX-License-Identifier: MIT
// Check suite for the single-precision add and multiply and the double-precision add and
// multiply (the v67 sequence) helpers
// (src/cpu/sem/fp.h: host fast paths where they give the Hexagon result, the exact
// soft-float path of fp.c for the rest) against the host's IEEE 754 binary32
// and binary64 arithmetic in each of the four rounding modes (PRM XTYPE/FP: IEEE-754
// results, USR:FPRND modes, sticky flags), and that the host's own rounding mode does not
// change hexsim's results. Known, intended differences
// from the host: a NaN result is Hexagon's default NaN (all ones), and tininess is detected
// before rounding (so the underflow flag is compared except where the rounded result is the
// smallest normal number).
#include "../check_main.h"
#include <check.h>
#include <fenv.h>
#include <stdint.h>
#include <string.h>

#include "cpu/sem/fp.h"
#include "fp_test_lib.h"

static const int host_mode[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

// An operand of a format with ebits exponent and mbits fraction bits: mostly normal numbers
// with exponents near the bias, near the other operand's (for cancellation and alignment), or
// near the ends of the range; sometimes any bit pattern (zeros, denormals, infinities, NaNs)
// or a short mantissa (exact results).
static uint64_t operand(uint64_t *s, uint64_t other, unsigned ebits, unsigned mbits)
{
    uint64_t r = next(s), m = next(s);
    const int emax = (1 << ebits) - 1, bias = emax >> 1;
    uint64_t sign = (r & 1) << (ebits + mbits);
    uint64_t mant = m & ((1ull << mbits) - 1);
    if ((r >> 40 & 3) == 0)
        mant &= 0xffull << (mbits - 8);
    int e, other_e = (int)(other >> mbits) & emax;
    switch (r >> 42 & 7) {
    case 0: return m & ((sign << 1) - 1);
    case 1: case 2: e = bias + (int)(r >> 45 & 7) - 3; break;
    case 3: case 4: e = other_e + (int)(r >> 45 & 127) - 63; break;
    case 5: e = 1 + (int)(r >> 45 & 31); break;
    case 6: e = emax - 1 - (int)(r >> 45 & 31); break;
    default: e = (int)(r >> 45) & emax; break;
    }
    if (e < 0)
        e = 0;
    if (e > emax)
        e = emax;
    return sign | (uint64_t)e << mbits | mant;
}

// the hexsim side: an executor state with USR's rounding mode set
static void rig(struct hexsim_cpu *cpu, struct hx_exec *x, int mode)
{
    memset(cpu, 0, sizeof *cpu);
    cpu->c[HX_USR] = (uint32_t)mode << HX_USR_FPRND_SHIFT;
    memset(x, 0, sizeof *x);
    x->cpu = cpu;
    x->fp_host = hx_fp_host_check();   // as hx_exec_begin does
}

// host exception flags as USR flag bits
static uint32_t host_flags(int ex)
{
    return ((ex & FE_INVALID) ? HX_USR_FPINVF : 0) | ((ex & FE_OVERFLOW) ? HX_USR_FPOVFF : 0) |
           ((ex & FE_UNDERFLOW) ? HX_USR_FPUNFF : 0) | ((ex & FE_INEXACT) ? HX_USR_FPINPF : 0);
}

struct outcome {
    uint64_t r;
    uint32_t fl;
};

// hexsim's result h against the host's o for op(a, b) in a format with ebits exponent and
// mbits fraction bits
static void verdict(const char *op, unsigned ebits, unsigned mbits, int mode, uint64_t a,
                    uint64_t b, struct outcome h, struct outcome o)
{
    const uint64_t all = ~0ull >> (63 - ebits - mbits), mag = all >> 1;
    const int digits = (int)(ebits + mbits + 1) / 4;
    uint32_t mask = HX_USR_FPINVF | HX_USR_FPOVFF | HX_USR_FPUNFF | HX_USR_FPINPF;
    if ((o.r & mag) == 1ull << mbits)
        mask &= ~HX_USR_FPUNFF;   // tiny before rounding, normal after
    unsigned long long ua = a, ub = b, uh = h.r, uo = o.r;
    const uint64_t inf = mag & ~((1ull << mbits) - 1);   // all-ones exponent, zero fraction
    if ((o.r & mag) > inf)                                  // the host's result is a NaN
        ck_assert_msg(h.r == all, "%s mode %d %0*llx %0*llx: %0*llx, want the default NaN", op,
                      mode, digits, ua, digits, ub, digits, uh);
    else
        ck_assert_msg(h.r == o.r, "%s mode %d %0*llx %0*llx: %0*llx, host %0*llx", op, mode,
                      digits, ua, digits, ub, digits, uh, digits, uo);
    ck_assert_msg((h.fl & mask) == (o.fl & mask), "%s mode %d %0*llx %0*llx: flags %x, host %x",
                  op, mode, digits, ua, digits, ub, h.fl & mask, o.fl & mask);
}

static struct outcome hexsim_op(bool mul, int mode, uint32_t a, uint32_t b)
{
    struct hexsim_cpu cpu;
    struct hx_exec x;
    rig(&cpu, &x, mode);
    uint32_t r = mul ? hx_sfmpy(&x, a, b) : hx_sfadd(&x, a, b);
    return (struct outcome){ r, x.usr_sticky };
}

static struct outcome host_op(bool mul, int mode, uint32_t a, uint32_t b)
{
    volatile float fa = f_of(a), fb = f_of(b);
    fesetround(host_mode[mode]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile float fr = mul ? fa * fb : fa + fb;
    int ex = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    return (struct outcome){ bits_of(fr), host_flags(ex) };
}

static void compare(bool mul, int mode, uint32_t a, uint32_t b)
{
    verdict(mul ? "sfmpy" : "sfadd", 8, 23, mode, a, b, hexsim_op(mul, mode, a, b),
            host_op(mul, mode, a, b));
}

static void sweep(bool mul)
{
    uint64_t s = mul ? 0x9e3779b97f4a7c15ull : 0x2545f4914f6cdd1dull;
    for (int i = 0; i < 100000; i++) {
        uint32_t a = (uint32_t)operand(&s, 127u << 23, 8, 23);
        uint32_t b = (uint32_t)operand(&s, a, 8, 23);
        for (int mode = 0; mode < 4; mode++)
            compare(mul, mode, a, b);
    }
}

// ---- double precision add
// the host's a + b (a * b: mul) in mode, with its flags
static struct outcome host_df(bool mul, int mode, uint64_t a, uint64_t b)
{
    volatile double fa, fb;
    memcpy((void *)&fa, &a, 8);
    memcpy((void *)&fb, &b, 8);
    fesetround(host_mode[mode]);
    feclearexcept(FE_ALL_EXCEPT);
    volatile double fr = mul ? fa * fb : fa + fb;
    int ex = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    struct outcome o = { 0, host_flags(ex) };
    memcpy(&o.r, (const void *)&fr, 8);
    return o;
}

static void df_compare(int mode, uint64_t a, uint64_t b)
{
    struct hexsim_cpu cpu;
    struct hx_exec x;
    rig(&cpu, &x, mode);
    struct outcome h = { hx_dfadd(&x, a, b), 0 };
    h.fl = x.usr_sticky;
    verdict("dfadd", 11, 52, mode, a, b, h, host_df(false, mode, a, b));
}

// 100000 random operand pairs (b's exponent near a's, or near other_b's if that is not 0) in
// each mode
static void df_sweep(void (*compare)(int, uint64_t, uint64_t), uint64_t seed, uint64_t other_b)
{
    uint64_t s = seed;
    for (int i = 0; i < 100000; i++) {
        uint64_t a = operand(&s, 1023ull << 52, 11, 52);
        uint64_t b = operand(&s, other_b ? other_b : a, 11, 52);
        for (int mode = 0; mode < 4; mode++)
            compare(mode, a, b);
    }
}

// every pair of these (normal, denormal, zero, infinite, NaN, large and small) in each mode
static void df_edges(void (*compare)(int, uint64_t, uint64_t))
{
    static const uint64_t v[] = {
        0x3ff0000000000000, 0xbff0000000000000, 0x3fefffffffffffff, 0x4330000000000001,
        0x3ca0000000000000, 0x3c90000000000001, 0x7fefffffffffffff, 0xffefffffffffffff,
        0x0010000000000000, 0x8010000000000000, 0x0010000000000001, 0x0000000000000001,
        0x800fffffffffffff, 0x0008000000000000, 0x6000000000000000, 0x2000000000000000,
        0x7ff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 0, 0x8000000000000000,
    };
    const size_t n = sizeof v / sizeof v[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (int mode = 0; mode < 4; mode++)
                compare(mode, v[i], v[j]);
}

START_TEST(test_dfadd_matches_host)
{
    df_sweep(df_compare, 0x853c49e6748fea9bull, 0);
    df_edges(df_compare);
}
END_TEST

// ---- double precision multiply: the v67 sequence compilers emit for a * b (llvm's Hexagon
// target: two dfmpyfix, dfmpyll, two dfmpylh, dfmpyhh) gives the IEEE product
static void dfmpy_compare(int mode, uint64_t a, uint64_t b)
{
    struct hexsim_cpu cpu;
    struct hx_exec x;
    rig(&cpu, &x, mode);
    uint64_t fa = hx_dfmpyfix(&x, a, b), fb = hx_dfmpyfix(&x, b, a);
    uint64_t acc = hx_dfmpyll(fb, fa);
    acc = hx_dfmpylh(acc, fb, fa);
    acc = hx_dfmpylh(acc, fa, fb);
    struct outcome h = { hx_dfmpyhh(&x, acc, fb, fa), 0 };
    h.fl = x.usr_sticky;
    verdict("dfmpy", 11, 52, mode, a, b, h, host_df(true, mode, a, b));
}

START_TEST(test_dfmpy_matches_host)
{
    df_sweep(dfmpy_compare, 0x6a09e667f3bcc908ull, 2046ull << 52);   // products near both ends
    df_edges(dfmpy_compare);   // dfmpyfix's denormal cases (its inline test, fp.h) among them
}
END_TEST

START_TEST(test_sfadd_matches_host) { sweep(false); }
END_TEST

START_TEST(test_sfmpy_matches_host) { sweep(true); }
END_TEST

// Cases at the fast path's edges, in every mode: exact cancellation (the zero's sign),
// carries into a new exponent, the far end of alignment, products just below overflow and
// just above underflow.
START_TEST(test_sf_edges)
{
    static const uint32_t v[] = {
        0x3f800000, 0xbf800000, 0x3f7fffff, 0xbf7fffff, 0x4b000001, 0x33800000, 0x33000001,
        0x2f800000, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x80800000, 0x00800001, 0x1f800000,
        0x5f800000, 0x5f7fffff, 0x20000000, 0x3fffffff, 0x00000001, 0x7f800000, 0x7fc00000,
        0x7f800001, 0x00000000, 0x80000000, 0x3f800001, 0x0c000000,
    };
    const size_t n = sizeof v / sizeof v[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++)
            for (int mode = 0; mode < 4; mode++) {
                compare(false, mode, v[i], v[j]);
                compare(true, mode, v[i], v[j]);
            }
}
END_TEST

// A program that embeds hexsim may change the host's rounding mode: the results follow
// USR:FPRND alone.
START_TEST(test_host_mode_ignored)
{
    uint64_t s = 0x1b873593cc9e2d51ull;
    for (int i = 0; i < 20000; i++) {
        uint32_t a = (uint32_t)operand(&s, 127u << 23, 8, 23);
        uint32_t b = (uint32_t)operand(&s, a, 8, 23);
        for (int mul = 0; mul < 2; mul++) {
            struct outcome want = hexsim_op(mul, 0, a, b);
            for (int hm = 1; hm < 4; hm++) {
                fesetround(host_mode[hm]);
                struct outcome got = hexsim_op(mul, 0, a, b);
                fesetround(FE_TONEAREST);
                ck_assert_msg(got.r == want.r && got.fl == want.fl,
                              "%s %08x %08x with host mode %d: %08x/%x, not %08x/%x",
                              mul ? "sfmpy" : "sfadd", a, b, hm, (unsigned)got.r,
                              (unsigned)got.fl, (unsigned)want.r, (unsigned)want.fl);
            }
        }
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fp");
    TCase *tc = tcase_create("fp");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_sfadd_matches_host);
    tcase_add_test(tc, test_sfmpy_matches_host);
    tcase_add_test(tc, test_sf_edges);
    tcase_add_test(tc, test_dfadd_matches_host);
    tcase_add_test(tc, test_dfmpy_matches_host);
    tcase_add_test(tc, test_host_mode_ignored);
    suite_add_tcase(s, tc);
    return hexsim_check_run(s);
}
