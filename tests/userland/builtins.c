// SPDX-License-Identifier: MIT
// The compiler helpers against the host's arithmetic: on Hexagon every / and % below
// is a call of __hexagon_{div,udiv,mod,umod}{si,di}3 or __hexagon_div{sf,df}3, and
// sqrtf one of __hexagon_sqrtf (guest/musl/builtins); on the host they are the
// machine's own division and square root. Edge cases
// are printed one by one, then a hash of a few hundred thousand pseudo-random
// operations; floating point in all four rounding modes, with the exception flags.
// NaN results print as "nan" (payloads are the hardware's business), the rest as bits.
#include <fenv.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t hash = 1469598103934665603ull;
static void mix(uint64_t v)
{
    for (int i = 0; i < 8; i++) {
        hash ^= (v >> (8 * i)) & 0xff;
        hash *= 1099511628211ull;
    }
}

// Operands pass through volatiles so that nothing is folded at compile time.
static volatile int32_t vs32a, vs32b;
static volatile uint32_t vu32a, vu32b;
static volatile int64_t vs64a, vs64b;
static volatile uint64_t vu64a, vu64b;
static volatile double vda, vdb, vdr;
static volatile float vfa, vfb, vfr;

// Unsigned and signed / and % of one width W (FMT: its printf conversion; INT_MIN / -1,
// undefined, is left out).
#define INT_CASE(W, FMT)                                                                   \
    static void int##W##_case(uint##W##_t a, uint##W##_t b, int print)                     \
    {                                                                                      \
        if (b == 0)                                                                        \
            return;                                                                        \
        vu##W##a = a;                                                                      \
        vu##W##b = b;                                                                      \
        uint##W##_t uq = vu##W##a / vu##W##b, ur = vu##W##a % vu##W##b;                    \
        uint##W##_t sq = 0, sr = 0;                                                        \
        if (!((int##W##_t)a == INT##W##_MIN && (int##W##_t)b == -1)) {                     \
            vs##W##a = (int##W##_t)a;                                                      \
            vs##W##b = (int##W##_t)b;                                                      \
            sq = (uint##W##_t)(vs##W##a / vs##W##b);                                       \
            sr = (uint##W##_t)(vs##W##a % vs##W##b);                                       \
        }                                                                                  \
        if (print)                                                                         \
            printf(#W " %" FMT " %" FMT ": u %" FMT " %" FMT " s %" FMT " %" FMT "\n", a, b, \
                   uq, ur, sq, sr);                                                        \
        mix(uq);                                                                           \
        mix(ur);                                                                           \
        mix(sq);                                                                           \
        mix(sr);                                                                           \
    }

INT_CASE(32, "08" PRIx32)
INT_CASE(64, "016" PRIx64)

static const int modes[] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
static const char mode_names[] = "nzdu";
static const int flags[] = { FE_INVALID, FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INEXACT };

static int flag_bits(void)
{
    int f = fetestexcept(FE_ALL_EXCEPT), out = 0;
    for (int i = 0; i < 5; i++)
        if (f & flags[i])
            out |= 1 << i;
    return out;
}

// A value's bits as another type of the same size (memcpy: no conversion).
#define PUN(NAME, TO, FROM)                                                                \
    static TO NAME(FROM x)                                                                 \
    {                                                                                      \
        TO y;                                                                              \
        memcpy(&y, &x, sizeof y);                                                          \
        return y;                                                                          \
    }

PUN(dbits, uint64_t, double)
PUN(bitsd, double, uint64_t)
PUN(fbits, uint32_t, float)
PUN(bitsf, float, uint32_t)

// The floating-point operations under test: the operands' bits a and b (b unused by
// SF_SQRT) through the volatiles, the exception flags cleared, the operation; the result's
// bits.
enum fp_op { DF_DIV, SF_DIV, SF_SQRT };

static uint64_t fp_run(enum fp_op op, uint64_t a, uint64_t b)
{
    vda = bitsd(a);
    vdb = bitsd(b);
    vfa = bitsf((uint32_t)a);
    vfb = bitsf((uint32_t)b);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case DF_DIV: vdr = vda / vdb; return dbits(vdr);
    case SF_DIV: vfr = vfa / vfb; return fbits(vfr);
    default: vfr = sqrtf(vfa); return fbits(vfr);
    }
}

// Each operation's name in the output, its width in bits and its number of operands.
static const struct {
    const char *name;
    int bits, operands;
} fp_ops[] = {
    [DF_DIV] = { "df", 64, 2 }, [SF_DIV] = { "sf", 32, 2 }, [SF_SQRT] = { "sqrtf", 32, 1 },
};

// op on a and b in each rounding mode: the result (a NaN prints as "nan" and hashes as the
// default NaN) and the flags hash, and print after "name mode operands:".
static void fp_case(enum fp_op op, uint64_t a, uint64_t b, int print)
{
    const int bits = fp_ops[op].bits, w = bits / 4;
    for (int m = 0; m < 4; m++) {
        fesetround(modes[m]);
        uint64_t rb = fp_run(op, a, b);
        int f = flag_bits();
        fesetround(FE_TONEAREST);
        int nan = bits == 64 ? isnan(bitsd(rb)) : isnan(bitsf((uint32_t)rb));
        if (nan)
            rb = bits == 64 ? 0x7ff8000000000000ull : 0x7fc00000u;
        if (print) {
            printf("%s %c %0*" PRIx64, fp_ops[op].name, mode_names[m], w, a);
            if (fp_ops[op].operands == 2)
                printf(" %0*" PRIx64, w, b);
            if (nan)
                printf(": nan f%02x\n", f);
            else
                printf(": %0*" PRIx64 " f%02x\n", w, rb, f);
        }
        mix(rb);
        mix((uint64_t)f);
    }
}

int main(void)
{
    static const uint32_t e32[] = {
        0, 1, 2, 3, 5, 7, 10, 0xff, 0x100, 0xffff, 0x10000, 0x12345678, 0x7ffffffe,
        0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe, 0xffffffff, 0xc0000000, 0x40000000,
    };
    static const uint64_t e64[] = {
        0, 1, 2, 3, 7, 10, 0xffffffff, 0x100000000ull, 0x100000001ull, 0x123456789abcdefull,
        0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull,
        0xfffffffffffffffeull, 0xffffffffffffffffull, 0xffffffff00000000ull, 0x80000000ull,
        0x7fffffff, 0xfffffffffffull, 0x1000000000000000ull,
    };
    static const uint64_t ed[] = {
        0, 0x8000000000000000ull,                          // +-0
        1, 0x800fffffffffffffull, 0x000fffffffffffffull,    // subnormals
        0x0010000000000000ull, 0x8010000000000000ull,      // +-DBL_MIN
        0x7fefffffffffffffull, 0xffefffffffffffffull,      // +-DBL_MAX
        0x3ff0000000000000ull, 0xbff0000000000000ull,      // +-1
        0x4008000000000000ull, 0x3fb999999999999aull,      // 3, 0.1
        0x7ff0000000000000ull, 0xfff0000000000000ull,      // +-inf
        0x7ff8000000000000ull, 0x7ff4000000000000ull,      // qNaN, sNaN
        0x0000000000000003ull, 0x3fe0000000000001ull, 0x4340000000000001ull,
        0x0020000000000001ull, 0x7fe0000000000000ull, 0x3cb0000000000000ull,
    };
    static const uint32_t ef[] = {
        0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f800000,
        0xbf800000, 0x40400000, 0x3dcccccd, 0x7f800000, 0xff800000, 0x7fc00000, 0x7fa00000,
        3, 0x3f000001, 0x4b000001, 0x01000001, 0x7f000000, 0x33800000,
    };
    const int n32 = sizeof e32 / sizeof e32[0], n64 = sizeof e64 / sizeof e64[0];
    const int nd = sizeof ed / sizeof ed[0], nf = sizeof ef / sizeof ef[0];

    for (int i = 0; i < n32; i++)
        for (int j = 0; j < n32; j++)
            int32_case(e32[i], e32[j], 1);
    for (int i = 0; i < 100000; i++) {
        uint32_t a = (uint32_t)next(), b = (uint32_t)next();
        int sa = (int)(next() % 33), sb = (int)(next() % 33);
        int32_case(sa == 32 ? a : a >> sa, sb == 32 ? b : b >> sb, 0);
    }
    printf("int32 hash %016" PRIx64 "\n", hash);

    for (int i = 0; i < n64; i++)
        for (int j = 0; j < n64; j++)
            int64_case(e64[i], e64[j], 1);
    for (int i = 0; i < 100000; i++) {
        uint64_t a = next(), b = next();
        int sa = (int)(next() % 65), sb = (int)(next() % 65);
        int64_case(sa == 64 ? a : a >> sa, sb == 64 ? b : b >> sb, 0);
    }
    printf("int64 hash %016" PRIx64 "\n", hash);

    for (int i = 0; i < nd; i++)
        for (int j = 0; j < nd; j++)
            fp_case(DF_DIV, ed[i], ed[j], 1);
    for (int i = 0; i < 20000; i++) {
        uint64_t a = next(), b = next();
        // Exponents near each other, far apart, and anywhere: quotients that are
        // ordinary, overflow, underflow to subnormals and to zero.
        switch (i % 3) {
        case 0:
            b = (b & 0x800fffffffffffffull) | (a & 0x7ff0000000000000ull);
            break;
        case 1:
            b = (b & 0x800fffffffffffffull) | ((uint64_t)(0x3ff + (int)(next() % 1200)) << 52);
            if (((b >> 52) & 0x7ff) >= 0x7ff)
                b &= ~(1ull << 62);
            break;
        }
        fp_case(DF_DIV, a, b, 0);
    }
    printf("double hash %016" PRIx64 "\n", hash);

    for (int i = 0; i < nf; i++)
        for (int j = 0; j < nf; j++)
            fp_case(SF_DIV, ef[i], ef[j], 1);
    for (int i = 0; i < 20000; i++) {
        uint32_t a = (uint32_t)next(), b = (uint32_t)next();
        if (i % 2 == 0)
            b = (b & 0x807fffffu) | (a & 0x7f800000u);
        fp_case(SF_DIV, a, b, 0);
    }
    printf("float hash %016" PRIx64 "\n", hash);

    for (int i = 0; i < nf; i++)
        fp_case(SF_SQRT, ef[i], 0, 1);
    static const uint32_t sq[] = { 0x40800000, 0x40000000, 0x3e800000, 0x00000004, 0x7f7ffffe,
                                   0x3f800001, 0x3f7fffff, 0x4b7fffff, 0x00000001, 0x00400000 };
    for (size_t i = 0; i < sizeof sq / sizeof sq[0]; i++)
        fp_case(SF_SQRT, sq[i], 0, 1);
    for (int i = 0; i < 30000; i++)
        fp_case(SF_SQRT, (uint32_t)next() & (i % 4 ? 0x7fffffffu : 0xffffffffu), 0, 0);
    printf("sqrtf hash %016" PRIx64 "\n", hash);
    return 0;
}
