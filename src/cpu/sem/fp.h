// SPDX-License-Identifier: MIT
// Helpers for the floating-point (XTYPE FP) instruction semantics (src/cpu/isa/xtype_fp.isa).
// Facts: Hexagon V6x Programmer's Reference Manual (XTYPE/FP); behaviour at the edges (NaN
// results, flags, conversion saturation, the reciprocal / square-root seeds) as qemu-hexagon
// 7.2 shows it. Each helper reads the rounding mode from USR bits 23:22 (the pre-packet value)
// and ORs the IEEE flags it raises into USR bits 1..5 via hx_fpflags.
//
// Two paths, one answer. The exact path (src/cpu/sem/fp.c, the *_soft functions) does all
// arithmetic in integers. The frequent helpers below first try a fast path, inline so that
// the block compiler's stencils hold it: on an x86-64 host the host's SSE arithmetic, used
// only where it gives the Hexagon result bit for bit: USR rounds to nearest, the host's MXCSR
// is its default (to nearest, no flush-to-zero or denormals-are-zero, exceptions masked;
// checked as each run starts, so a program that embeds hexsim may change it), no operand is a NaN (Hexagon
// returns the default NaN, all ones) and the result is neither tiny nor an overflow (Hexagon
// detects tininess before rounding, x86 after). Host exception flags are never read: the
// inexact flag comes from an exact error term (Fast2Sum, a 128-bit mantissa product, or a
// conversion back). Integer shortcuts (compares, min/max, the v67 multiply's last step) need
// no host FPU. Everything else goes to the exact path. tests/unit/test_fp_fast.c checks each
// fast path against its exact path.
#ifndef HEXSIM_CPU_SEM_FP_H
#define HEXSIM_CPU_SEM_FP_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "../sem.h"

// the fast paths are inlined into every row (and stencil) that uses them
#define HX_FP_INLINE static inline __attribute__((always_inline))

#if defined(__x86_64__) && defined(__SSE2__)
#include <emmintrin.h>
#define HX_FP_HOST 1
#else
#define HX_FP_HOST 0
#endif

// operand / result kinds of the convert_* rows
enum hx_fpkind { HX_FK_SF, HX_FK_DF, HX_FK_W, HX_FK_UW, HX_FK_D, HX_FK_UD };
// compare conditions of sfcmp.* / dfcmp.*
enum hx_fpcmp { HX_FC_EQ, HX_FC_GT, HX_FC_GE, HX_FC_UO };

// ---- the exact paths (fp.c)
// Rd = convert_<from>2<to>(Rs): integer results saturate with the invalid flag; :chop rounds
// toward zero, the others use USR's rounding mode
uint64_t hx_fp_convert_soft(struct hx_exec *x, enum hx_fpkind from, enum hx_fpkind to,
                            uint64_t v, bool chop);
uint32_t hx_sfadd_soft(struct hx_exec *x, uint32_t a, uint32_t b);
uint32_t hx_sfmpy_soft(struct hx_exec *x, uint32_t a, uint32_t b);
// Rx += a*b (negate: Rx -= a*b), one rounding
uint32_t hx_sffma_soft(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, bool negate);
// :lib forms: nearest-even, no flags, overflow to the largest finite, inf-inf gives 0
uint32_t hx_sffma_lib_soft(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b,
                           bool negate);
// acc + a*b, one rounding to nearest even, no flags, no USR (the HVX IEEE rows: sem/hvx_fp.h);
// a NaN result is the scalar default NaN
uint32_t hx_sffma_rne(uint32_t acc, uint32_t a, uint32_t b);
uint32_t hx_sfminmax_soft(struct hx_exec *x, uint32_t a, uint32_t b, bool max);
uint8_t hx_sfcmp_soft(struct hx_exec *x, uint32_t a, uint32_t b, enum hx_fpcmp c);
uint64_t hx_dfadd_soft(struct hx_exec *x, uint64_t a, uint64_t b);
uint64_t hx_dfminmax_soft(struct hx_exec *x, uint64_t a, uint64_t b, bool max);
uint8_t hx_dfcmp_soft(struct hx_exec *x, uint64_t a, uint64_t b, enum hx_fpcmp c);
// high 21x21-bit mantissa product added to the accumulated partial products, rounded
uint64_t hx_dfmpyhh_soft(struct hx_exec *x, uint64_t acc, uint64_t a, uint64_t b);
uint64_t hx_dfmpyfix_denormal(struct hx_exec *x, uint64_t a, uint64_t b);

// The exact path by number (the fast paths' way out in the block compiler's stencils): op is
// an enum hx_fpop with its parameter (negate, max, the compare, the conversion) << 8; Rx or
// Rxx (sffma*, dfmpyhh) in c.
enum hx_fpop {
    HX_FPOP_SFADD, HX_FPOP_SFMPY, HX_FPOP_SFFMA, HX_FPOP_SFFMA_LIB, HX_FPOP_DFADD,
    HX_FPOP_DFMPYHH, HX_FPOP_DFMPYFIX, HX_FPOP_SFMINMAX, HX_FPOP_DFMINMAX, HX_FPOP_SFCMP,
    HX_FPOP_DFCMP, HX_FPOP_CONVERT,
};
uint64_t hx_fp_exact(struct hx_exec *x, uint32_t op, uint64_t a, uint64_t b, uint64_t c);
#ifdef HX_STENCIL
// In the stencils the exact path is called through a wrapper that keeps every general
// register (stencil_slow.c, as the slow memory paths are), so that the fast path needs no
// registers saved and the compiled code no bookkeeping for a call; the value comes back in
// x->slow_val. It may raise flags (x->full: the mark).
__attribute__((preserve_most)) void hx_fp_exact_keep(struct hx_exec *x, uint32_t op,
                                                     uint64_t a, uint64_t b, uint64_t c);
#define HX_FP_EXACT(x, op, a, b, c, call) \
    __extension__({ HX_MARK(full); hx_fp_exact_keep(x, op, a, b, c); (x)->slow_val; })
#else
#define HX_FP_EXACT(x, op, a, b, c, call) (call)
#endif

// ---- helpers with no fast path
// Rx += a*b scaled by 2**Pu (Pu sign-extended from 8 bits)
uint32_t hx_sffma_sc(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, uint8_t pu);
uint8_t hx_sfclass(uint32_t a, uint32_t cls);
uint32_t hx_sfrecipa(struct hx_exec *x, uint32_t n, uint32_t d, uint8_t *pe);
uint32_t hx_sffixupn(struct hx_exec *x, uint32_t n, uint32_t d);
uint32_t hx_sffixupd(struct hx_exec *x, uint32_t n, uint32_t d);
uint32_t hx_sfinvsqrta(struct hx_exec *x, uint32_t r, uint8_t *pe);
uint32_t hx_sffixupr(struct hx_exec *x, uint32_t r);
uint8_t hx_dfclass(uint64_t a, uint32_t cls);

// ---- fast paths
#define HX_SF_MAG 0x7fffffffu
#define HX_SF_INF 0x7f800000u
#define HX_DF_MAG 0x7fffffffffffffffull
#define HX_DF_INF 0x7ff0000000000000ull

// Whether the host computes as Hexagon does: MXCSR (bits 6-15: DAZ, the exception masks,
// rounding control, FTZ) at its default 0x1f80 (to nearest, no flush to zero, all masked;
// the flags, bits 0-5, do not matter). Read once as a run starts (hx_exec_begin: x->fp_host,
// which the fast paths test): nothing in hexsim changes it, and reading it is slow on some
// hosts (stmxcsr: about 30 ns on an AMD EPYC virtual machine).
HX_FP_INLINE bool hx_fp_host_check(void)
{
#if HX_FP_HOST
    return (_mm_getcsr() & 0xffc0u) == 0x1f80u;
#else
    return false;
#endif
}

#if HX_FP_HOST
HX_FP_INLINE float hx_fp_f(uint32_t v) { float f; memcpy(&f, &v, 4); return f; }
HX_FP_INLINE uint32_t hx_fp_fbits(float f) { uint32_t v; memcpy(&v, &f, 4); return v; }
HX_FP_INLINE double hx_fp_d(uint64_t v) { double d; memcpy(&d, &v, 8); return d; }
HX_FP_INLINE uint64_t hx_fp_dbits(double d) { uint64_t v; memcpy(&v, &d, 8); return v; }

// USR rounds to nearest and the host computes as Hexagon does
HX_FP_INLINE bool hx_fp_near(const struct hx_exec *x)
{
    return !(hx_usr(x) & HX_USR_FPRND_MASK) && x->fp_host;
}
// A double's exponent field: below 897 (2**-126) it is tiny as a float.
HX_FP_INLINE uint32_t hx_fp_dexp(uint64_t v) { return (uint32_t)(v >> 52) & 0x7ff; }
#endif

// sfadd (sfsub: b's sign flipped). A sum that rounds is at least 2**-126 * 2**-23 * 2**24 in
// magnitude (sums of smaller numbers are exact), so never tiny; with |a| >= |b| Fast2Sum's
// b - (s - a) is the exact rounding error.
HX_FP_INLINE uint32_t hx_sfadd(struct hx_exec *x, uint32_t a, uint32_t b)
{
#if HX_FP_HOST
    if (__builtin_expect(hx_fp_near(x), 1)) {
        if ((a & HX_SF_MAG) < (b & HX_SF_MAG)) {
            uint32_t t = a;
            a = b;
            b = t;
        }
        if ((a & HX_SF_MAG) < HX_SF_INF) {   // neither is Inf or NaN
            float fa = hx_fp_f(a), fb = hx_fp_f(b), s = fa + fb;
            uint32_t r = hx_fp_fbits(s);
            if (__builtin_expect((r & HX_SF_MAG) < HX_SF_INF, 1)) {   // no overflow
                if (fb - (s - fa) != 0.0f)
                    hx_fpflags(x, HX_USR_FPINPF);
                return r;
            }
        }
    }
#endif
    return (uint32_t)HX_FP_EXACT(x, HX_FPOP_SFADD, a, b, 0, hx_sfadd_soft(x, a, b));
}

// sfmpy: the product of two floats is exact in a double; one rounding to float. Tiny (below
// 2**-126 before rounding) and zero products, and overflow, are left to the exact path except
// for an exact zero (a zero operand), which is the host's.
HX_FP_INLINE uint32_t hx_sfmpy(struct hx_exec *x, uint32_t a, uint32_t b)
{
#if HX_FP_HOST
    if (__builtin_expect(hx_fp_near(x), 1) && (a & HX_SF_MAG) < HX_SF_INF &&
        (b & HX_SF_MAG) < HX_SF_INF) {
        double p = (double)hx_fp_f(a) * (double)hx_fp_f(b);
        float f = (float)p;
        uint32_t r = hx_fp_fbits(f);
        uint64_t pb = hx_fp_dbits(p);
        if (!(pb & HX_DF_MAG))
            return r;   // a zero operand: an exact signed zero
        if (__builtin_expect(hx_fp_dexp(pb) >= 897 && (r & HX_SF_MAG) < HX_SF_INF, 1)) {
            if ((double)f != p)
                hx_fpflags(x, HX_USR_FPINPF);
            return r;
        }
    }
#endif
    return (uint32_t)HX_FP_EXACT(x, HX_FPOP_SFMPY, a, b, 0, hx_sfmpy_soft(x, a, b));
}

#if HX_FP_HOST
// a*b + c (a, b, c finite floats) rounded once to float, or false: the product is exact in a
// double, the sum is rounded to odd in double precision (Fast2Sum's error tells the way: an
// inexact sum with an even last bit moves one step toward the exact value), and rounding that
// to float to nearest is rounding the exact value (53 >= 24 + 2 bits). *inexact: whether it
// rounded. tiny_ok: a tiny or zero result is fine (no flags wanted); else false for those
// (except an exact zero). false on overflow.
HX_FP_INLINE bool hx_fp_sfma(uint32_t a, uint32_t b, uint32_t c, bool tiny_ok, uint32_t *r,
                              bool *inexact)
{
    double p = (double)hx_fp_f(a) * (double)hx_fp_f(b), d = (double)hx_fp_f(c), s, err;
    if ((hx_fp_dbits(p) & HX_DF_MAG) >= (hx_fp_dbits(d) & HX_DF_MAG)) {
        s = p + d;
        err = d - (s - p);
    } else {
        s = d + p;
        err = p - (s - d);
    }
    uint64_t sb = hx_fp_dbits(s);
    if (err != 0.0 && !(sb & 1))
        sb += ((err > 0.0) == !(sb >> 63)) ? 1 : (uint64_t)-1;
    double so = hx_fp_d(sb);
    float f = (float)so;
    *r = hx_fp_fbits(f);
    if ((*r & HX_SF_MAG) >= HX_SF_INF)
        return false;
    *inexact = err != 0.0 || (double)f != so;
    if (!tiny_ok && hx_fp_dexp(sb) < 897)
        return !(sb & HX_DF_MAG) && err == 0.0;   // only an exact zero (signs as IEEE's)
    return true;
}
#endif

// sffma / sffms: Rx += a*b (negate: Rx -= a*b), one rounding
HX_FP_INLINE uint32_t hx_sffma(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b,
                                bool negate)
{
#if HX_FP_HOST
    uint32_t na = negate ? a ^ 0x80000000u : a, r;
    bool inexact;
    if (__builtin_expect(hx_fp_near(x), 1) && (na & HX_SF_MAG) < HX_SF_INF &&
        (b & HX_SF_MAG) < HX_SF_INF && (acc & HX_SF_MAG) < HX_SF_INF &&
        __builtin_expect(hx_fp_sfma(na, b, acc, false, &r, &inexact), 1)) {
        if (inexact)
            hx_fpflags(x, HX_USR_FPINPF);
        return r;
    }
#endif
    return (uint32_t)HX_FP_EXACT(x, HX_FPOP_SFFMA | (uint32_t)negate << 8, a, b, acc,
                                 hx_sffma_soft(x, acc, a, b, negate));
}

// the :lib forms: always to nearest, no flags; a zero product added to a zero Rx leaves Rx
// as it is, overflow gives the largest finite value (both to the exact path)
HX_FP_INLINE uint32_t hx_sffma_lib(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b,
                                    bool negate)
{
#if HX_FP_HOST
    uint32_t na = negate ? a ^ 0x80000000u : a, r;
    bool inexact;
    if (__builtin_expect(x->fp_host, 1) && (na & HX_SF_MAG) - 1 < HX_SF_INF - 1 &&
        (b & HX_SF_MAG) - 1 < HX_SF_INF - 1 && (acc & HX_SF_MAG) < HX_SF_INF &&
        __builtin_expect(hx_fp_sfma(na, b, acc, true, &r, &inexact), 1))
        return r;   // (a and b finite and not zero)
#endif
    return (uint32_t)HX_FP_EXACT(x, HX_FPOP_SFFMA_LIB | (uint32_t)negate << 8, a, b, acc,
                                 hx_sffma_lib_soft(x, acc, a, b, negate));
}

// dfadd (dfsub: b's sign flipped): as sfadd
HX_FP_INLINE uint64_t hx_dfadd(struct hx_exec *x, uint64_t a, uint64_t b)
{
#if HX_FP_HOST
    if (__builtin_expect(hx_fp_near(x), 1)) {
        if ((a & HX_DF_MAG) < (b & HX_DF_MAG)) {
            uint64_t t = a;
            a = b;
            b = t;
        }
        if ((a & HX_DF_MAG) < HX_DF_INF) {
            double da = hx_fp_d(a), db = hx_fp_d(b), s = da + db;
            uint64_t r = hx_fp_dbits(s);
            if (__builtin_expect((r & HX_DF_MAG) < HX_DF_INF, 1)) {
                if (db - (s - da) != 0.0)
                    hx_fpflags(x, HX_USR_FPINPF);
                return r;
            }
        }
    }
#endif
    return HX_FP_EXACT(x, HX_FPOP_DFADD, a, b, 0, hx_dfadd_soft(x, a, b));
}

// ---- the v67 double-precision multiply: compilers emit a * b as two dfmpyfix, dfmpyll, two
// dfmpylh and dfmpyhh (llvm's Hexagon target)

// dfmpyfix: a as it is unless a or b is denormal
HX_FP_INLINE uint64_t hx_dfmpyfix(struct hx_exec *x, uint64_t a, uint64_t b)
{
    const uint64_t e = HX_DF_INF, m = 0x000fffffffffffffull;
    if (__builtin_expect((!(a & e) && (a & m)) || (!(b & e) && (b & m)), 0))
        return HX_FP_EXACT(x, HX_FPOP_DFMPYFIX, a, b, 0, hx_dfmpyfix_denormal(x, a, b));
    return a;
}

// dfmpyll: low words' product, high word kept (shifted left 1), the low word ORed in as sticky
HX_FP_INLINE uint64_t hx_dfmpyll(uint64_t a, uint64_t b)
{
    uint64_t prod = (uint64_t)(uint32_t)a * (uint32_t)b;
    return (prod >> 32) << 1 | ((uint32_t)prod != 0);
}
// dfmpylh: low word of a times the 21-bit high mantissa (with hidden bit) of b, shifted left 1
HX_FP_INLINE uint64_t hx_dfmpylh(uint64_t acc, uint64_t a, uint64_t b)
{
    uint64_t hi = 0x00100000u | ((uint32_t)(b >> 32) & 0xfffffu);
    return acc + (((uint64_t)(uint32_t)a * hi) << 1);
}

// dfmpyhh: Rxx += the high mantissas' product, rounded to double. With normal a and b,
// rounding to nearest, in integers: S = (acc >> 1) + (ha * hb << 32), below 2**75 and at least
// 2**72, is the product's mantissa (acc bit 0 a sticky bit below it); value S * 2**(ea + eb -
// 2118). A zero operand (and the other finite) gives a signed zero whatever acc holds. Tiny
// or overflowing results, other modes, denormals, Inf and NaN go to the exact path.
HX_FP_INLINE uint64_t hx_dfmpyhh(struct hx_exec *x, uint64_t acc, uint64_t a, uint64_t b)
{
    uint32_t ea = (uint32_t)(a >> 52) & 0x7ff, eb = (uint32_t)(b >> 52) & 0x7ff;
    if (__builtin_expect(!(hx_usr(x) & HX_USR_FPRND_MASK), 1)) {
        if (__builtin_expect(ea - 1 < 2046 && eb - 1 < 2046, 1)) {
            uint64_t ha = (a >> 32 & 0xfffff) | 0x100000, hb = (b >> 32 & 0xfffff) | 0x100000;
            unsigned __int128 s = (unsigned __int128)(acc >> 1) +
                                  ((unsigned __int128)(ha * hb) << 32);
            unsigned top = (unsigned)(s >> 64);   // in [2**8, 2**11)
            int sh = 63 - __builtin_clzll(top) + 64 - 52;   // bits below the 53 kept: 20..22
            uint64_t kept = (uint64_t)(s >> sh), rem = (uint64_t)s & ((1ull << sh) - 1);
            uint64_t half = 1ull << (sh - 1);
            int32_t e = (int32_t)(ea + eb) - 1023 + (sh - 20);   // the result's exponent field
            bool sticky = acc & 1;
            if (__builtin_expect(e >= 1, 1)) {   // not tiny before rounding
                kept += rem > half || (rem == half && (sticky || (kept & 1)));
                if (kept >> 53) {
                    kept >>= 1;
                    e++;
                }
                if (__builtin_expect(e <= 2046, 1)) {
                    if (rem || sticky)
                        hx_fpflags(x, HX_USR_FPINPF);
                    return ((a ^ b) & ~HX_DF_MAG) | (uint64_t)e << 52 | (kept & 0xfffffffffffffull);
                }
            }
        } else if ((!(a & HX_DF_MAG) && eb != 0x7ff) || (!(b & HX_DF_MAG) && ea != 0x7ff)) {
            return (a ^ b) & ~HX_DF_MAG;   // zero times finite
        }
    }
    return HX_FP_EXACT(x, HX_FPOP_DFMPYHH, a, b, acc, hx_dfmpyhh_soft(x, acc, a, b));
}

// ---- conversions (the rows pass constant kinds: each inlines to its own case)
// The fast cases: integer to double where exact (no host state involved); otherwise, with
// the host computing as Hexagon does, finite values in range: to float by the host's
// conversion (the inexact flag from converting back; tiny results to the exact path), to an
// integer by cvtsd2si (to nearest, MXCSR) or cvttsd2si (:chop), inexact if the integer is not
// the value. Out-of-range values (saturation, the invalid flag), NaN and negative values to
// unsigned go to the exact path.
#define HX_FP_CONVERT_EXACT()                                                               \
    HX_FP_EXACT(x, HX_FPOP_CONVERT | ((uint32_t)from << 4 | (uint32_t)to << 1 | chop) << 8, \
                v, 0, 0, hx_fp_convert_soft(x, from, to, v, chop))
HX_FP_INLINE uint64_t hx_fp_convert(struct hx_exec *x, enum hx_fpkind from, enum hx_fpkind to,
                                     uint64_t v, bool chop)
{
#if HX_FP_HOST
    if (to == HX_FK_DF && (from == HX_FK_W || from == HX_FK_UW))
        return hx_fp_dbits(from == HX_FK_W ? (double)(int32_t)(uint32_t)v
                                           : (double)(uint32_t)v);
    if (to == HX_FK_DF && from == HX_FK_D && v + (1ull << 53) <= 1ull << 54)
        return hx_fp_dbits((double)(int64_t)v);   // |v| <= 2**53: exact
    if (to == HX_FK_DF && from == HX_FK_UD && v <= 1ull << 53)
        return hx_fp_dbits((double)(int64_t)v);
    if (!chop && !hx_fp_near(x))
        return HX_FP_CONVERT_EXACT();
    if (chop && !x->fp_host)
        return HX_FP_CONVERT_EXACT();
    if (from != HX_FK_SF && from != HX_FK_DF) {   // integer to float
        int64_t i = from == HX_FK_W ? (int64_t)(int32_t)(uint32_t)v
                  : from == HX_FK_UW ? (int64_t)(uint32_t)v : (int64_t)v;
        if ((from == HX_FK_D && (uint64_t)i + (1ull << 62) >= 1ull << 63) ||
            (from == HX_FK_UD && v >= 1ull << 62))
            return HX_FP_CONVERT_EXACT();   // |v| >= 2**62
        if (to == HX_FK_DF) {
            double d = (double)i;
            if ((int64_t)d != i)
                hx_fpflags(x, HX_USR_FPINPF);
            return hx_fp_dbits(d);
        }
        float f = (float)i;
        if ((int64_t)f != i)
            hx_fpflags(x, HX_USR_FPINPF);
        return hx_fp_fbits(f);
    }
    if (from == HX_FK_SF && to == HX_FK_DF) {
        if (((uint32_t)v & HX_SF_MAG) > HX_SF_INF)
            return HX_FP_CONVERT_EXACT();   // NaN
        return hx_fp_dbits((double)hx_fp_f((uint32_t)v));      // exact
    }
    if (from == HX_FK_DF && to == HX_FK_SF) {
        uint32_t e = hx_fp_dexp(v);
        if ((v & HX_DF_MAG) && (e < 897 || e == 0x7ff))
            return HX_FP_CONVERT_EXACT();   // tiny, Inf, NaN
        float f = (float)hx_fp_d(v);
        uint32_t r = hx_fp_fbits(f);
        if ((r & HX_SF_MAG) >= HX_SF_INF)
            return HX_FP_CONVERT_EXACT();   // overflow
        if ((double)f != hx_fp_d(v))
            hx_fpflags(x, HX_USR_FPINPF);
        return r;
    }
    // float to integer
    uint64_t dv = from == HX_FK_SF ? hx_fp_dbits((double)hx_fp_f((uint32_t)v)) : v;
    if (!(dv & HX_DF_MAG))
        return 0;   // either zero
    uint32_t lim = to == HX_FK_W ? 1023 + 30 : to == HX_FK_UW ? 1023 + 31 : 1023 + 62;
    if (hx_fp_dexp(dv) >= lim || ((to == HX_FK_UW || to == HX_FK_UD) && (dv >> 63)))
        return HX_FP_CONVERT_EXACT();   // large, Inf, NaN, or negative
    double d = hx_fp_d(dv);
    int64_t i = chop ? _mm_cvttsd_si64(_mm_set_sd(d)) : _mm_cvtsd_si64(_mm_set_sd(d));
    if ((double)i != d)
        hx_fpflags(x, HX_USR_FPINPF);
    return (to == HX_FK_W || to == HX_FK_UW) ? (uint32_t)i : (uint64_t)i;
#else
    return HX_FP_CONVERT_EXACT();
#endif
}
#undef HX_FP_CONVERT_EXACT

// ---- compares and max / min of numbers (no NaN) in integers: a sign-magnitude pattern made
// monotonic (-0 just below +0; compares treat the two zeros as equal)
HX_FP_INLINE uint64_t hx_fp_key(uint64_t v, unsigned width)
{
    uint64_t sbit = 1ull << (width - 1), all = sbit | (sbit - 1);
    return (v & sbit) ? ~v & all : v | sbit;
}
HX_FP_INLINE uint8_t hx_fp_cmp(uint64_t a, uint64_t b, unsigned width, enum hx_fpcmp c)
{
    uint64_t mag = (1ull << (width - 1)) - 1;
    bool eq = a == b || !((a | b) & mag);
    bool gt = !eq && hx_fp_key(a, width) > hx_fp_key(b, width);
    switch (c) {
    case HX_FC_EQ: return eq ? 0xff : 0;
    case HX_FC_GT: return gt ? 0xff : 0;
    case HX_FC_GE: return (eq || gt) ? 0xff : 0;
    default: return 0;
    }
}

HX_FP_INLINE uint8_t hx_sfcmp(struct hx_exec *x, uint32_t a, uint32_t b, enum hx_fpcmp c)
{
    if (__builtin_expect((a & HX_SF_MAG) <= HX_SF_INF && (b & HX_SF_MAG) <= HX_SF_INF, 1))
        return hx_fp_cmp(a, b, 32, c);
    return (uint8_t)HX_FP_EXACT(x, HX_FPOP_SFCMP | (uint32_t)c << 8, a, b, 0,
                                hx_sfcmp_soft(x, a, b, c));
}
HX_FP_INLINE uint8_t hx_dfcmp(struct hx_exec *x, uint64_t a, uint64_t b, enum hx_fpcmp c)
{
    if (__builtin_expect((a & HX_DF_MAG) <= HX_DF_INF && (b & HX_DF_MAG) <= HX_DF_INF, 1))
        return hx_fp_cmp(a, b, 64, c);
    return (uint8_t)HX_FP_EXACT(x, HX_FPOP_DFCMP | (uint32_t)c << 8, a, b, 0,
                                hx_dfcmp_soft(x, a, b, c));
}

HX_FP_INLINE uint32_t hx_sfminmax(struct hx_exec *x, uint32_t a, uint32_t b, bool max)
{
    if (__builtin_expect((a & HX_SF_MAG) <= HX_SF_INF && (b & HX_SF_MAG) <= HX_SF_INF, 1))
        return (hx_fp_key(a, 32) < hx_fp_key(b, 32)) == max ? b : a;
    return (uint32_t)HX_FP_EXACT(x, HX_FPOP_SFMINMAX | (uint32_t)max << 8, a, b, 0,
                                 hx_sfminmax_soft(x, a, b, max));
}
HX_FP_INLINE uint64_t hx_dfminmax(struct hx_exec *x, uint64_t a, uint64_t b, bool max)
{
    if (__builtin_expect((a & HX_DF_MAG) <= HX_DF_INF && (b & HX_DF_MAG) <= HX_DF_INF, 1))
        return (hx_fp_key(a, 64) < hx_fp_key(b, 64)) == max ? b : a;
    return HX_FP_EXACT(x, HX_FPOP_DFMINMAX | (uint32_t)max << 8, a, b, 0,
                       hx_dfminmax_soft(x, a, b, max));
}

#endif
