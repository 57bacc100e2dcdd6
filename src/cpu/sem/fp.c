// SPDX-License-Identifier: MIT
// Floating-point helpers for the XTYPE FP semantics (declared in sem/fp.h).
// Facts: Hexagon V6x Programmer's Reference Manual (XTYPE/FP: IEEE-754 single and double
// precision, USR:FPRND rounding, sticky USR flags, default NaN all ones); edge behaviour
// checked against qemu-hexagon 7.2: tininess is detected before rounding, float-to-integer
// conversions of NaN give -1 (signed) or all ones (unsigned), negative inputs (-0 included)
// to unsigned conversions give 0 with invalid, max/min are IEEE 754-2019 maximumNumber/
// minimumNumber.
//
// Everything is exact integer arithmetic: a finite value is mant * 2**exp with an unsigned
// 128-bit mant; round_pack() rounds such a value into a format. This is the exact path of
// every helper; the common cases of the frequent ones take a host fast path inline (fp.h),
// which falls back to the *_soft functions here (tests/unit/test_fp_fast.c checks that both
// give the same bits and flags).
#include "sem/fp.h"

#include "cpu.h"

typedef unsigned __int128 u128;

struct fmt {
    unsigned ebits, mbits; // exponent and fraction field widths
    int32_t bias;
    uint32_t emax;         // all-ones exponent field (Inf/NaN)
};
static const struct fmt SF = { 8, 23, 127, 255 };
static const struct fmt DF = { 11, 52, 1023, 2047 };

enum { CL_ZERO, CL_FIN, CL_INF, CL_QNAN, CL_SNAN };

struct val {
    int cls;
    unsigned sign;
    bool denorm;
    int32_t exp;   // finite: value = mant * 2**exp
    uint64_t mant;
};

enum { RM_NEAR = 0, RM_ZERO = 1, RM_DOWN = 2, RM_UP = 3 };

#define F_INV HX_USR_FPINVF
#define F_DBZ HX_USR_FPDBZF
#define F_OVF HX_USR_FPOVFF
#define F_UNF HX_USR_FPUNFF
#define F_INX HX_USR_FPINPF

static int rmode(const struct hx_exec *x)
{
    return (int)((hx_usr(x) & HX_USR_FPRND_MASK) >> HX_USR_FPRND_SHIFT);
}

static unsigned width(const struct fmt *f) { return f->ebits + f->mbits + 1; }
static uint32_t exp_field(const struct fmt *f, uint64_t v)
{
    return (uint32_t)(v >> f->mbits) & f->emax;
}
static unsigned sign_of(const struct fmt *f, uint64_t v)
{
    return (unsigned)(v >> (width(f) - 1)) & 1;
}

static struct val unpack(const struct fmt *f, uint64_t v)
{
    struct val r;
    uint32_t e = exp_field(f, v);
    uint64_t m = v & ((1ull << f->mbits) - 1);
    r.sign = sign_of(f, v);
    r.denorm = false;
    r.exp = 0;
    r.mant = m;
    if (e == f->emax) {
        r.cls = m == 0 ? CL_INF : (m >> (f->mbits - 1) & 1) ? CL_QNAN : CL_SNAN;
    } else if (e == 0) {
        r.cls = m == 0 ? CL_ZERO : CL_FIN;
        r.denorm = m != 0;
        r.exp = 1 - f->bias - (int32_t)f->mbits;
    } else {
        r.cls = CL_FIN;
        r.mant = m | 1ull << f->mbits;
        r.exp = (int32_t)e - f->bias - (int32_t)f->mbits;
    }
    return r;
}

static bool is_nan(const struct val *v) { return v->cls == CL_QNAN || v->cls == CL_SNAN; }
static uint64_t pk(const struct fmt *f, unsigned sign, uint64_t e, uint64_t m)
{
    return (uint64_t)sign << (width(f) - 1) | e << f->mbits | m;
}
static uint64_t dnan(const struct fmt *f) { return pk(f, 1, f->emax, (1ull << f->mbits) - 1); }
static uint64_t zero(const struct fmt *f, unsigned sign) { return pk(f, sign, 0, 0); }
static uint64_t inf(const struct fmt *f, unsigned sign) { return pk(f, sign, f->emax, 0); }
static uint64_t maxfin(const struct fmt *f, unsigned sign)
{
    return pk(f, sign, f->emax - 1, (1ull << f->mbits) - 1);
}

static int msb128(u128 v)
{
    uint64_t hi = (uint64_t)(v >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)v);
}

// v >> sh for sh >= 0; *cmp gets the shifted-out part against one half ulp (-1 below, 0 equal,
// 1 above) and *inexact whether it is non-zero
static u128 shr_round_info(u128 v, int64_t sh, int *cmp, bool *inexact)
{
    if (sh <= 0) {
        *cmp = -1;
        *inexact = false;
        return v;
    }
    if (sh > 128) {
        *cmp = -1;
        *inexact = v != 0;
        return 0;
    }
    u128 half = (u128)1 << (sh - 1);
    u128 rem = sh == 128 ? v : v & (((u128)1 << sh) - 1);
    *inexact = rem != 0;
    *cmp = rem < half ? -1 : rem == half ? 0 : 1;
    return sh == 128 ? 0 : v >> sh;
}

static bool round_up(int rm, unsigned sign, int cmp, bool inexact, bool odd)
{
    switch (rm) {
    case RM_NEAR: return cmp > 0 || (cmp == 0 && odd);
    case RM_DOWN: return inexact && sign;
    case RM_UP: return inexact && !sign;
    default: return false;
    }
}

// round sign * mant * 2**exp (mant != 0) to format f with mode rm
static uint64_t round_pack(const struct fmt *f, unsigned sign, int64_t exp, u128 mant, int rm,
                           uint32_t *fl)
{
    int p = msb128(mant);
    int64_t e = exp + p + f->bias; // biased exponent of the normalised value
    int64_t sh = p - (int64_t)f->mbits;
    bool tiny = e < 1;
    if (tiny) {
        sh += 1 - e;
        e = 1;
    }
    int cmp;
    bool inexact;
    u128 kept;
    if (sh >= 0) {
        kept = shr_round_info(mant, sh, &cmp, &inexact);
    } else {
        kept = mant << -sh;
        cmp = -1;
        inexact = false;
    }
    if (round_up(rm, sign, cmp, inexact, (unsigned)kept & 1))
        kept++;
    if (kept >> (f->mbits + 1)) {
        kept >>= 1;
        e++;
    }
    if (inexact) {
        *fl |= F_INX;
        if (tiny)
            *fl |= F_UNF;
    }
    if (e >= (int64_t)f->emax) {
        *fl |= F_OVF | F_INX;
        bool to_inf = rm == RM_NEAR || (rm == RM_UP && !sign) || (rm == RM_DOWN && sign);
        return to_inf ? inf(f, sign) : maxfin(f, sign);
    }
    uint64_t k = (uint64_t)kept;
    uint64_t ef = (k >> f->mbits & 1) ? (uint64_t)e : 0;
    return pk(f, sign, ef, k & ((1ull << f->mbits) - 1));
}

// exact sum of two non-zero terms; the result mant may carry a jammed sticky bit in bit 0
// (both inputs are below 2**107, so there are at least 18 guard bits above it)
static u128 add_terms(unsigned s1, u128 m1, int64_t e1, unsigned s2, u128 m2, int64_t e2,
                      unsigned *sign, int64_t *exp)
{
    int p1 = msb128(m1), p2 = msb128(m2);
    m1 <<= 125 - p1;
    e1 -= 125 - p1;
    m2 <<= 125 - p2;
    e2 -= 125 - p2;
    if (e2 > e1 || (e2 == e1 && m2 > m1)) {
        u128 tm = m1; m1 = m2; m2 = tm;
        int64_t te = e1; e1 = e2; e2 = te;
        unsigned ts = s1; s1 = s2; s2 = ts;
    }
    int64_t d = e1 - e2;
    if (d >= 126) {
        m2 = 1;
    } else if (d > 0) {
        bool lost = (m2 & (((u128)1 << d) - 1)) != 0;
        m2 = m2 >> d | (u128)lost;
    }
    *sign = s1;
    *exp = e1;
    return s1 == s2 ? m1 + m2 : m1 - m2;
}

// the sign of an exact zero sum of two zeros / of cancelling terms
static unsigned zero_sum_sign(unsigned s1, unsigned s2, int rm)
{
    return s1 == s2 ? s1 : rm == RM_DOWN;
}

static uint64_t fp_add(const struct fmt *f, uint64_t av, uint64_t bv, int rm, uint32_t *fl)
{
    struct val a = unpack(f, av), b = unpack(f, bv);
    if (is_nan(&a) || is_nan(&b)) {
        if (a.cls == CL_SNAN || b.cls == CL_SNAN)
            *fl |= F_INV;
        return dnan(f);
    }
    if (a.cls == CL_INF) {
        if (b.cls == CL_INF && a.sign != b.sign) {
            *fl |= F_INV;
            return dnan(f);
        }
        return av;
    }
    if (b.cls == CL_INF)
        return bv;
    if (a.cls == CL_ZERO && b.cls == CL_ZERO)
        return zero(f, zero_sum_sign(a.sign, b.sign, rm));
    if (a.cls == CL_ZERO)
        return bv;
    if (b.cls == CL_ZERO)
        return av;
    unsigned sign;
    int64_t exp;
    u128 m = add_terms(a.sign, a.mant, a.exp, b.sign, b.mant, b.exp, &sign, &exp);
    if (m == 0)
        return zero(f, rm == RM_DOWN);
    return round_pack(f, sign, exp, m, rm, fl);
}

static uint64_t fp_mul(const struct fmt *f, uint64_t av, uint64_t bv, int rm, uint32_t *fl)
{
    struct val a = unpack(f, av), b = unpack(f, bv);
    unsigned sign = a.sign ^ b.sign;
    if (is_nan(&a) || is_nan(&b)) {
        if (a.cls == CL_SNAN || b.cls == CL_SNAN)
            *fl |= F_INV;
        return dnan(f);
    }
    if ((a.cls == CL_INF && b.cls == CL_ZERO) || (a.cls == CL_ZERO && b.cls == CL_INF)) {
        *fl |= F_INV;
        return dnan(f);
    }
    if (a.cls == CL_INF || b.cls == CL_INF)
        return inf(f, sign);
    if (a.cls == CL_ZERO || b.cls == CL_ZERO)
        return zero(f, sign);
    return round_pack(f, sign, (int64_t)a.exp + b.exp, (u128)a.mant * b.mant, rm, fl);
}

// ---- single-precision fused multiply-add
static bool sf_finite(const struct val *v) { return v->cls == CL_ZERO || v->cls == CL_FIN; }
static bool sf_inf_prod(const struct val *a, const struct val *b)
{
    return (a->cls == CL_INF && (b->cls == CL_INF || b->cls == CL_FIN)) ||
           (b->cls == CL_INF && a->cls == CL_FIN);
}
static bool sf_zero_prod(const struct val *a, const struct val *b)
{
    return (a->cls == CL_ZERO && sf_finite(b)) || (b->cls == CL_ZERO && sf_finite(a));
}

// round((a*b + c) * 2**scale) once. With a non-zero scale, a zero product still goes through
// the scaled sum, and (scale > 0) a denormal c counts only as a sticky bit of its sign.
static uint32_t sf_fma(uint32_t av, uint32_t bv, uint32_t cv, int scale, int rm, uint32_t *fl)
{
    struct val a = unpack(&SF, av), b = unpack(&SF, bv), c = unpack(&SF, cv);
    unsigned ps = a.sign ^ b.sign;
    if (a.cls >= CL_INF || b.cls >= CL_INF || c.cls >= CL_INF) {
        if (sf_inf_prod(&a, &b) && c.cls == CL_INF && ps != c.sign) {
            *fl |= F_INV;
            return (uint32_t)dnan(&SF);
        }
        if ((a.cls == CL_INF && b.cls == CL_ZERO) || (a.cls == CL_ZERO && b.cls == CL_INF)) {
            *fl |= F_INV;
            return (uint32_t)dnan(&SF);
        }
        if (is_nan(&a) || is_nan(&b) || is_nan(&c)) {
            if (a.cls == CL_SNAN || b.cls == CL_SNAN || c.cls == CL_SNAN)
                *fl |= F_INV;
            return (uint32_t)dnan(&SF);
        }
        if (c.cls == CL_INF)
            return (uint32_t)inf(&SF, c.sign);
        return (uint32_t)inf(&SF, ps);
    }
    bool pzero = a.cls == CL_ZERO || b.cls == CL_ZERO;
    if (pzero && scale == 0) {
        if (c.cls == CL_ZERO)
            return (uint32_t)zero(&SF, zero_sum_sign(ps, c.sign, rm));
        return cv;
    }
    u128 cm = c.mant;
    int64_t ce = c.exp;
    bool cnz = c.cls != CL_ZERO;
    if (scale > 0 && c.denorm) {
        cm = 1;          // an infinitesimal of c's sign
        ce = -100000;
    }
    u128 m;
    int64_t e;
    unsigned sign;
    if (pzero && !cnz) {
        m = 0;
        e = 0;
        sign = 0;
    } else if (pzero) {
        m = cm;
        e = ce;
        sign = c.sign;
    } else if (!cnz) {
        m = (u128)a.mant * b.mant;
        e = (int64_t)a.exp + b.exp;
        sign = ps;
    } else {
        m = add_terms(ps, (u128)a.mant * b.mant, (int64_t)a.exp + b.exp, c.sign, cm, ce, &sign, &e);
    }
    if (m == 0)
        return (uint32_t)zero(&SF, rm == RM_DOWN);
    return (uint32_t)round_pack(&SF, sign, e + scale, m, rm, fl);
}

// ---- the exact paths of the helpers fp.h takes a host fast path for (fp.h: each falls back
// to these where the host cannot give the Hexagon result)
uint32_t hx_sfadd_soft(struct hx_exec *x, uint32_t a, uint32_t b)
{
    uint32_t fl = 0;
    uint32_t r = (uint32_t)fp_add(&SF, a, b, rmode(x), &fl);
    hx_fpflags(x, fl);
    return r;
}

uint32_t hx_sfmpy_soft(struct hx_exec *x, uint32_t a, uint32_t b)
{
    uint32_t fl = 0;
    uint32_t r = (uint32_t)fp_mul(&SF, a, b, rmode(x), &fl);
    hx_fpflags(x, fl);
    return r;
}

uint64_t hx_dfadd_soft(struct hx_exec *x, uint64_t a, uint64_t b)
{
    uint32_t fl = 0;
    uint64_t r = fp_add(&DF, a, b, rmode(x), &fl);
    hx_fpflags(x, fl);
    return r;
}

uint32_t hx_sffma_soft(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, bool negate)
{
    uint32_t fl = 0;
    uint32_t r = sf_fma(negate ? a ^ 0x80000000u : a, b, acc, 0, rmode(x), &fl);
    hx_fpflags(x, fl);
    return r;
}

// NaN operands make the accumulator the default NaN first (invalid for each signalling one)
static uint32_t sf_nan_check(uint32_t acc, const uint32_t *ops, unsigned n, uint32_t *fl)
{
    for (unsigned i = 0; i < n; i++) {
        struct val v = unpack(&SF, ops[i]);
        if (is_nan(&v)) {
            if (v.cls == CL_SNAN)
                *fl |= F_INV;
            acc = (uint32_t)dnan(&SF);
        }
    }
    return acc;
}

uint32_t hx_sffma_sc(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b, uint8_t pu)
{
    uint32_t fl = 0;
    const uint32_t ops[3] = { acc, a, b };
    acc = sf_nan_check(acc, ops, 3, &fl);
    uint32_t tmp = sf_fma(a, b, acc, (int8_t)pu, rmode(x), &fl);
    struct val va = unpack(&SF, a), vb = unpack(&SF, b), vc = unpack(&SF, acc);
    if (!(vc.cls == CL_ZERO && sf_zero_prod(&va, &vb)))
        acc = tmp;
    hx_fpflags(x, fl);
    return acc;
}

uint32_t hx_sffma_rne(uint32_t acc, uint32_t a, uint32_t b)
{
    uint32_t fl = 0;
    return sf_fma(a, b, acc, 0, RM_NEAR, &fl);
}

uint32_t hx_sffma_lib_soft(struct hx_exec *x, uint32_t acc, uint32_t a, uint32_t b,
                           bool negate)
{
    (void)x; // always nearest-even; raises no flags
    uint32_t fl = 0;
    struct val va = unpack(&SF, a), vb = unpack(&SF, b), vc = unpack(&SF, acc);
    bool opposite = ((a ^ b ^ acc) >> 31 != 0) != negate;
    bool infminusinf = vc.cls == CL_INF && sf_inf_prod(&va, &vb) && opposite;
    bool infinp = va.cls == CL_INF || vb.cls == CL_INF || vc.cls == CL_INF;
    const uint32_t ops[3] = { acc, a, b };
    acc = sf_nan_check(acc, ops, 3, &fl);
    uint32_t tmp = sf_fma(negate ? a ^ 0x80000000u : a, b, acc, 0, RM_NEAR, &fl);
    vc = unpack(&SF, acc);
    if (!(vc.cls == CL_ZERO && sf_zero_prod(&va, &vb)))
        acc = tmp;
    if ((acc & 0x7fffffffu) == 0x7f800000u && !infinp)
        acc -= 1; // overflow gives the largest finite value
    if (infminusinf)
        acc = 0;
    return acc;
}

// ---- max / min (IEEE 754-2019 maximumNumber / minimumNumber; -0 < +0)
static uint64_t fp_minmax(const struct fmt *f, uint64_t av, uint64_t bv, bool max, uint32_t *fl)
{
    struct val a = unpack(f, av), b = unpack(f, bv);
    bool an = is_nan(&a), bn = is_nan(&b);
    if (an || bn) {
        if (a.cls == CL_SNAN || b.cls == CL_SNAN)
            *fl |= F_INV;
        if (an && bn)
            return dnan(f);
        return an ? bv : av;
    }
    // order the bit patterns as numbers: sign-magnitude to a monotonic key
    unsigned w = width(f);
    uint64_t sbit = 1ull << (w - 1), mask = sbit | (sbit - 1);
    uint64_t ka = (av & sbit) ? ~av & mask : av | sbit;
    uint64_t kb = (bv & sbit) ? ~bv & mask : bv | sbit;
    bool a_less = ka < kb;
    return (a_less == max) ? bv : av;
}

// ---- compares (quiet: invalid only for signalling NaNs)
static uint8_t fp_cmp(const struct fmt *f, uint64_t av, uint64_t bv, enum hx_fpcmp c,
                      uint32_t *fl)
{
    struct val a = unpack(f, av), b = unpack(f, bv);
    if (is_nan(&a) || is_nan(&b)) {
        if (a.cls == CL_SNAN || b.cls == CL_SNAN)
            *fl |= F_INV;
        return c == HX_FC_UO ? 0xff : 0;
    }
    if (c == HX_FC_UO)
        return 0;
    uint64_t sbit = 1ull << (width(f) - 1);
    bool eq = av == bv || (a.cls == CL_ZERO && b.cls == CL_ZERO);
    bool gt;
    if (eq)
        gt = false;
    else if ((av & sbit) != (bv & sbit))
        gt = !(av & sbit);
    else
        gt = (av & sbit) ? av < bv : av > bv;
    switch (c) {
    case HX_FC_EQ: return eq ? 0xff : 0;
    case HX_FC_GT: return gt ? 0xff : 0;
    default: return (gt || eq) ? 0xff : 0;
    }
}

static uint8_t fp_class(const struct fmt *f, uint64_t v, uint32_t cls)
{
    struct val a = unpack(f, v);
    bool r = ((cls & 1) && a.cls == CL_ZERO) || ((cls & 2) && a.cls == CL_FIN && !a.denorm) ||
             ((cls & 4) && a.denorm) || ((cls & 8) && a.cls == CL_INF) ||
             ((cls & 16) && is_nan(&a));
    return r ? 0xff : 0;
}

uint32_t hx_sfminmax_soft(struct hx_exec *x, uint32_t a, uint32_t b, bool max)
{
    uint32_t fl = 0;
    uint32_t r = (uint32_t)fp_minmax(&SF, a, b, max, &fl);
    hx_fpflags(x, fl);
    return r;
}
uint64_t hx_dfminmax_soft(struct hx_exec *x, uint64_t a, uint64_t b, bool max)
{
    uint32_t fl = 0;
    uint64_t r = fp_minmax(&DF, a, b, max, &fl);
    hx_fpflags(x, fl);
    return r;
}
uint8_t hx_sfcmp_soft(struct hx_exec *x, uint32_t a, uint32_t b, enum hx_fpcmp c)
{
    uint32_t fl = 0;
    uint8_t r = fp_cmp(&SF, a, b, c, &fl);
    hx_fpflags(x, fl);
    return r;
}
uint8_t hx_dfcmp_soft(struct hx_exec *x, uint64_t a, uint64_t b, enum hx_fpcmp c)
{
    uint32_t fl = 0;
    uint8_t r = fp_cmp(&DF, a, b, c, &fl);
    hx_fpflags(x, fl);
    return r;
}
uint8_t hx_sfclass(uint32_t a, uint32_t cls) { return fp_class(&SF, a, cls); }
uint8_t hx_dfclass(uint64_t a, uint32_t cls) { return fp_class(&DF, a, cls); }

// ---- double-precision multiply pieces (v67)
// exponent field, with denormals counted as 1 (the PRM's fGETEXP): -1 for zero, Inf, NaN
static int32_t getexp(const struct fmt *f, uint64_t v)
{
    struct val a = unpack(f, v);
    if (a.cls != CL_FIN)
        return -1;
    return a.denorm ? 1 : (int32_t)((v >> f->mbits) & f->emax);
}

static bool denormal(const struct fmt *f, uint64_t v)
{
    return exp_field(f, v) == 0 && (v & ((1ull << f->mbits) - 1)) != 0;
}

uint64_t hx_dfmpyfix_denormal(struct hx_exec *x, uint64_t a, uint64_t b)
{
    if (!denormal(&DF, a) && !denormal(&DF, b))
        return a;   // (fp.h tests this first)
    uint32_t fl = 0;
    struct val va = unpack(&DF, a), vb = unpack(&DF, b);
    uint64_t r = a;
    if (va.denorm && vb.cls == CL_FIN && !vb.denorm && getexp(&DF, b) >= 512)
        r = fp_mul(&DF, a, 0x4330000000000000ull, rmode(x), &fl); // * 2**52
    else if (vb.denorm && va.cls == CL_FIN && !va.denorm && getexp(&DF, a) >= 512)
        r = fp_mul(&DF, a, 0x3cb0000000000000ull, rmode(x), &fl); // * 2**-52
    hx_fpflags(x, fl);
    return r;
}

// high 21x21-bit mantissa product added to the accumulated partial products (Rxx holds them
// shifted left 1 with a sticky bit 0), then rounded to double
uint64_t hx_dfmpyhh_soft(struct hx_exec *x, uint64_t acc, uint64_t a, uint64_t b)
{
    uint32_t fl = 0;
    int rm = rmode(x);
    struct val va = unpack(&DF, a), vb = unpack(&DF, b);
    uint64_t r;
    if (va.cls != CL_FIN || vb.cls != CL_FIN) {
        r = fp_mul(&DF, a, b, rm, &fl);
    } else {
        uint64_t prod = (va.mant >> 32) * (vb.mant >> 32);
        u128 m = (u128)(acc >> 1) + ((u128)prod << 32);
        int64_t e = (int64_t)getexp(&DF, a) + getexp(&DF, b) - 1023 - 20 - 1023 - 52;
        unsigned sticky = (unsigned)acc & 1;
        if (va.denorm || vb.denorm) {
            sticky = 1; // crushed to an inexact tiny value
            e = -4096 - 1023 - 52;
        }
        m = m << 2 | sticky;
        e -= 2;
        if (m == 0)
            r = zero(&DF, rm == RM_DOWN);
        else
            r = round_pack(&DF, va.sign ^ vb.sign, e, m, rm, &fl);
    }
    hx_fpflags(x, fl);
    return r;
}

uint64_t hx_fp_exact(struct hx_exec *x, uint32_t op, uint64_t a, uint64_t b, uint64_t c)
{
    const uint32_t p = op >> 8;
    switch ((enum hx_fpop)(op & 0xff)) {
    case HX_FPOP_SFADD: return hx_sfadd_soft(x, (uint32_t)a, (uint32_t)b);
    case HX_FPOP_SFMPY: return hx_sfmpy_soft(x, (uint32_t)a, (uint32_t)b);
    case HX_FPOP_SFFMA: return hx_sffma_soft(x, (uint32_t)c, (uint32_t)a, (uint32_t)b, p);
    case HX_FPOP_SFFMA_LIB:
        return hx_sffma_lib_soft(x, (uint32_t)c, (uint32_t)a, (uint32_t)b, p);
    case HX_FPOP_DFADD: return hx_dfadd_soft(x, a, b);
    case HX_FPOP_DFMPYHH: return hx_dfmpyhh_soft(x, c, a, b);
    case HX_FPOP_DFMPYFIX: return hx_dfmpyfix_denormal(x, a, b);
    case HX_FPOP_SFMINMAX: return hx_sfminmax_soft(x, (uint32_t)a, (uint32_t)b, p);
    case HX_FPOP_DFMINMAX: return hx_dfminmax_soft(x, a, b, p);
    case HX_FPOP_SFCMP: return hx_sfcmp_soft(x, (uint32_t)a, (uint32_t)b, (enum hx_fpcmp)p);
    case HX_FPOP_DFCMP: return hx_dfcmp_soft(x, a, b, (enum hx_fpcmp)p);
    case HX_FPOP_CONVERT:
        return hx_fp_convert_soft(x, (enum hx_fpkind)(p >> 4), (enum hx_fpkind)(p >> 1 & 7), a,
                                  p & 1);
    }
    return 0;
}

// ---- conversions
static const struct fmt *fmt_of(enum hx_fpkind k) { return k == HX_FK_SF ? &SF : &DF; }
static bool is_float(enum hx_fpkind k) { return k == HX_FK_SF || k == HX_FK_DF; }

static uint64_t to_int(const struct fmt *f, uint64_t v, enum hx_fpkind to, int rm, uint32_t *fl)
{
    bool is_signed = to == HX_FK_W || to == HX_FK_D;
    unsigned bits = (to == HX_FK_W || to == HX_FK_UW) ? 32 : 64;
    uint64_t umax = bits == 64 ? ~0ull : 0xffffffffull;
    uint64_t smax = umax >> 1, smin_mag = smax + 1;
    struct val a = unpack(f, v);
    if (is_nan(&a)) {
        *fl |= F_INV;
        return umax; // -1 signed, all ones unsigned
    }
    // -0 converts like +0: 0, no flag (the hardware; later QEMU does the same, qemu-hexagon
    // 7.2 raises invalid: tests/isa/qemu_deviations.txt [convert-negative-zero])
    if (a.cls == CL_ZERO)
        return 0;
    if (!is_signed && a.sign) {   // the sign is checked before rounding
        *fl |= F_INV;
        return 0;
    }
    if (a.cls == CL_INF) {
        *fl |= F_INV;
        if (!is_signed)
            return umax;
        return a.sign ? smin_mag : smax;
    }
    bool big = false, inexact = false;
    uint64_t r = 0;
    if (a.exp >= 0) {
        if (63 - __builtin_clzll(a.mant) + a.exp >= 64)
            big = true;
        else
            r = a.mant << a.exp;
    } else {
        int cmp;
        r = (uint64_t)shr_round_info(a.mant, -(int64_t)a.exp, &cmp, &inexact);
        if (round_up(rm, a.sign, cmp, inexact, r & 1))
            r++;
    }
    if (a.sign) {
        if (big || r > smin_mag) {
            *fl |= F_INV;
            return smin_mag;
        }
        if (inexact)
            *fl |= F_INX;
        return (0 - r) & umax;
    }
    uint64_t lim = is_signed ? smax : umax;
    if (big || r > lim) {
        *fl |= F_INV;
        return lim;
    }
    if (inexact)
        *fl |= F_INX;
    return r;
}

uint64_t hx_fp_convert_soft(struct hx_exec *x, enum hx_fpkind from, enum hx_fpkind to,
                            uint64_t v, bool chop)
{
    uint32_t fl = 0;
    int rm = chop ? RM_ZERO : rmode(x);
    uint64_t r;
    if (is_float(from) && !is_float(to)) {
        r = to_int(fmt_of(from), v, to, rm, &fl);
    } else if (is_float(from)) {
        const struct fmt *ff = fmt_of(from), *tf = fmt_of(to);
        struct val a = unpack(ff, v);
        if (is_nan(&a)) {
            if (a.cls == CL_SNAN)
                fl |= F_INV;
            r = dnan(tf);
        } else if (a.cls == CL_INF) {
            r = inf(tf, a.sign);
        } else if (a.cls == CL_ZERO) {
            r = zero(tf, a.sign);
        } else {
            r = round_pack(tf, a.sign, a.exp, a.mant, rm, &fl);
        }
    } else {
        const struct fmt *tf = fmt_of(to);
        unsigned sign = 0;
        uint64_t mag;
        if (from == HX_FK_W || from == HX_FK_UW) {
            mag = (uint32_t)v;
            if (from == HX_FK_W && (int32_t)(uint32_t)v < 0) {
                sign = 1;
                mag = (uint32_t)(0 - (uint32_t)v);
            }
        } else {
            mag = v;
            if (from == HX_FK_D && (int64_t)v < 0) {
                sign = 1;
                mag = 0 - v;
            }
        }
        r = mag == 0 ? 0 : round_pack(tf, sign, 0, mag, rm, &fl);
    }
    hx_fpflags(x, fl);
    return r;
}

// ---- reciprocal and reciprocal square root seeds (8-bit tables of the hardware)
// recip_table[i] = round(256 * (128/(128+i) + 128/(129+i)) - 256), the last entry 0:
// the mantissa of 2/(1+m) for the 7 leading mantissa bits i of the divisor
static const uint8_t recip_table[128] = {
    0xfe, 0xfa, 0xf6, 0xf2, 0xef, 0xeb, 0xe7, 0xe4, 0xe0, 0xdd, 0xd9, 0xd6,
    0xd2, 0xcf, 0xcc, 0xc9, 0xc6, 0xc2, 0xbf, 0xbc, 0xb9, 0xb6, 0xb3, 0xb1,
    0xae, 0xab, 0xa8, 0xa5, 0xa3, 0xa0, 0x9d, 0x9b, 0x98, 0x96, 0x93, 0x91,
    0x8e, 0x8c, 0x8a, 0x87, 0x85, 0x83, 0x80, 0x7e, 0x7c, 0x7a, 0x78, 0x75,
    0x73, 0x71, 0x6f, 0x6d, 0x6b, 0x69, 0x67, 0x65, 0x63, 0x61, 0x5f, 0x5e,
    0x5c, 0x5a, 0x58, 0x56, 0x54, 0x53, 0x51, 0x4f, 0x4e, 0x4c, 0x4a, 0x49,
    0x47, 0x45, 0x44, 0x42, 0x40, 0x3f, 0x3d, 0x3c, 0x3a, 0x39, 0x37, 0x36,
    0x34, 0x33, 0x32, 0x30, 0x2f, 0x2d, 0x2c, 0x2b, 0x29, 0x28, 0x27, 0x25,
    0x24, 0x23, 0x21, 0x20, 0x1f, 0x1e, 0x1c, 0x1b, 0x1a, 0x19, 0x17, 0x16,
    0x15, 0x14, 0x13, 0x12, 0x11, 0x0f, 0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09,
    0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x00,
};
// invsqrt_table[i] = round(256 * (2/sqrt(x) - 1)), x = (1 + (m + 1/2)/64) * (e ? 1 : 2) for
// i = e:m (exponent lsb e, 6 leading mantissa bits m)
static const uint8_t invsqrt_table[128] = {
    0x69, 0x66, 0x63, 0x61, 0x5e, 0x5b, 0x59, 0x57, 0x54, 0x52, 0x50, 0x4d,
    0x4b, 0x49, 0x47, 0x45, 0x43, 0x41, 0x3f, 0x3d, 0x3b, 0x39, 0x37, 0x36,
    0x34, 0x32, 0x30, 0x2f, 0x2d, 0x2c, 0x2a, 0x28, 0x27, 0x25, 0x24, 0x22,
    0x21, 0x1f, 0x1e, 0x1d, 0x1b, 0x1a, 0x19, 0x17, 0x16, 0x15, 0x14, 0x12,
    0x11, 0x10, 0x0f, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, 0x07, 0x06, 0x05,
    0x04, 0x03, 0x02, 0x01, 0xfe, 0xfa, 0xf6, 0xf3, 0xef, 0xeb, 0xe8, 0xe4,
    0xe1, 0xde, 0xdb, 0xd7, 0xd4, 0xd1, 0xce, 0xcb, 0xc9, 0xc6, 0xc3, 0xc0,
    0xbe, 0xbb, 0xb8, 0xb6, 0xb3, 0xb1, 0xaf, 0xac, 0xaa, 0xa8, 0xa5, 0xa3,
    0xa1, 0x9f, 0x9d, 0x9b, 0x99, 0x97, 0x95, 0x93, 0x91, 0x8f, 0x8d, 0x8b,
    0x89, 0x87, 0x86, 0x84, 0x82, 0x80, 0x7f, 0x7d, 0x7b, 0x7a, 0x78, 0x77,
    0x75, 0x74, 0x72, 0x71, 0x6f, 0x6e, 0x6c, 0x6b,
};

#define SF_ONE 0x3f800000u

static uint32_t sf_pow2(int k) { return (uint32_t)(127 + k) << 23; }

// the common part of sfrecipa/sffixupn/sffixupd (PRM fSF_RECIP_COMMON): special operands
// give the final quotient through n/d and the seed; otherwise n and d are scaled so the
// Newton-Raphson steps neither overflow nor underflow, and *adjust tells the scaling
static bool sf_recip_common(uint32_t *n, uint32_t *d, uint32_t *seed, uint8_t *adjust, int rm,
                            uint32_t *fl)
{
    struct val vn = unpack(&SF, *n), vd = unpack(&SF, *d);
    unsigned qs = (vn.sign ^ vd.sign) << 31;
    *adjust = 0;
    if (is_nan(&vn) || is_nan(&vd)) {
        if (vn.cls == CL_SNAN || vd.cls == CL_SNAN)
            *fl |= F_INV;
        *n = *d = *seed = (uint32_t)dnan(&SF);
    } else if ((vn.cls == CL_INF && vd.cls == CL_INF) ||
               (vn.cls == CL_ZERO && vd.cls == CL_ZERO)) {
        *fl |= F_INV;
        *n = *d = *seed = (uint32_t)dnan(&SF);
    } else if (vd.cls == CL_ZERO) {
        if (vn.cls != CL_INF)
            *fl |= F_DBZ; // finite / 0 (Inf / 0 is an exact Inf)
        *n = qs | 0x7f800000u;
        *d = *seed = SF_ONE;
    } else if (vd.cls == CL_INF || vn.cls == CL_ZERO) {
        *n = qs;
        *d = *seed = SF_ONE;
    } else if (vn.cls == CL_INF) {
        *n = qs | 0x7f800000u;
        *d = *seed = SF_ONE;
    } else {
        // the exponent fields as they are (a denormal counts 0 here)
        int32_t ne = (int32_t)(*n >> 23 & 0xff), de = (int32_t)(*d >> 23 & 0xff);
        int ks = 0, kd = 0;
        if (ne - de + 127 <= 23) {
            *adjust = 0x80; // quotient near underflow / inexact
            kd = -64;
            ks = 64;
        } else if (ne - de + 127 > 254 - 24) {
            *adjust = 0x40; // quotient near overflow
            kd = 32;
            ks = -32;
        } else if (ne <= 23 + 2) {
            kd = ks = 64;
        } else if (de <= 1) {
            kd = ks = 32;
        } else if (de > 252) {
            kd = ks = -32;
        }
        if (kd) {
            *d = (uint32_t)fp_mul(&SF, *d, sf_pow2(kd), rm, fl);
            *n = (uint32_t)fp_mul(&SF, *n, sf_pow2(ks), rm, fl);
        }
        *seed = 0;
        return true;
    }
    return false;
}

uint32_t hx_sfrecipa(struct hx_exec *x, uint32_t n, uint32_t d, uint8_t *pe)
{
    uint32_t fl = 0, seed;
    uint8_t adj;
    *pe = 0;
    if (sf_recip_common(&n, &d, &seed, &adj, rmode(x), &fl)) {
        *pe = adj;
        uint32_t mant = (uint32_t)recip_table[(d >> 16) & 0x7f] << 15 | 1;
        int32_t exp = 127 - (getexp(&SF, d) - 127) - 1;
        seed = (d & 0x80000000u) | ((uint32_t)exp & 0xff) << 23 | (mant & 0x7fffff);
    }
    hx_fpflags(x, fl);
    return seed;
}

uint32_t hx_sffixupn(struct hx_exec *x, uint32_t n, uint32_t d)
{
    uint32_t fl = 0, seed;
    uint8_t adj;
    sf_recip_common(&n, &d, &seed, &adj, rmode(x), &fl);
    hx_fpflags(x, fl);
    return n;
}

uint32_t hx_sffixupd(struct hx_exec *x, uint32_t n, uint32_t d)
{
    uint32_t fl = 0, seed;
    uint8_t adj;
    sf_recip_common(&n, &d, &seed, &adj, rmode(x), &fl);
    hx_fpflags(x, fl);
    return d;
}

// PRM fSF_INVSQRT_COMMON
static bool sf_invsqrt_common(uint32_t *r, uint32_t *seed, uint8_t *adjust, int rm,
                              uint32_t *fl)
{
    struct val v = unpack(&SF, *r);
    *adjust = 0;
    if (is_nan(&v)) {
        if (v.cls == CL_SNAN)
            *fl |= F_INV;
        *r = *seed = (uint32_t)dnan(&SF);
    } else if (v.sign && v.cls != CL_ZERO) {
        *fl |= F_INV; // negative non-zero
        *r = *seed = (uint32_t)dnan(&SF);
    } else if (v.cls == CL_INF) {
        *r = *seed = 0xff800000u;
    } else if (v.cls == CL_ZERO) {
        *seed = SF_ONE;
    } else {
        if (getexp(&SF, *r) <= 24) {
            *r = (uint32_t)fp_mul(&SF, *r, sf_pow2(64), rm, fl);
            *adjust = 0xe0;
        }
        *seed = 0;
        return true;
    }
    return false;
}

uint32_t hx_sfinvsqrta(struct hx_exec *x, uint32_t r, uint8_t *pe)
{
    uint32_t fl = 0, seed;
    uint8_t adj;
    *pe = 0;
    if (sf_invsqrt_common(&r, &seed, &adj, rmode(x), &fl)) {
        *pe = adj;
        uint32_t mant = (uint32_t)invsqrt_table[(r >> 17) & 0x7f] << 15;
        int32_t e = getexp(&SF, r) - 127;
        int32_t half = e >= 0 ? e / 2 : -((1 - e) / 2); // floor(e / 2)
        int32_t exp = 127 - half - 1;
        seed = (r & 0x80000000u) | ((uint32_t)exp & 0xff) << 23 | (mant & 0x7fffff);
    }
    hx_fpflags(x, fl);
    return seed;
}

uint32_t hx_sffixupr(struct hx_exec *x, uint32_t r)
{
    uint32_t fl = 0, seed;
    uint8_t adj;
    sf_invsqrt_common(&r, &seed, &adj, rmode(x), &fl);
    hx_fpflags(x, fl);
    return r;
}
