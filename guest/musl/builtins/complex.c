// SPDX-License-Identifier: MIT
// Complex multiplication and division helpers clang-16 calls for _Complex double and
// float * and / (__muldc3, __mulsc3, __divdc3, __divsc3; musl's cpow uses them).
// The textbook formulas, then the recovery of infinities and NaNs that C11 Annex G
// (G.5.1) asks for: a product or quotient with an infinite operand is infinite, one
// with a zero divisor infinite, even when the formulas give NaN + i NaN. The float
// versions compute in double. No library calls: the classification is done on the
// bits, so the helpers link without libm.
#include <stdint.h>

static int isnan_d(double x)
{
    union { double d; uint64_t u; } v = { .d = x };
    return (v.u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

static int isinf_d(double x)
{
    union { double d; uint64_t u; } v = { .d = x };
    return (v.u & 0x7fffffffffffffffull) == 0x7ff0000000000000ull;
}

static int isfinite_d(double x) { return !isnan_d(x) && !isinf_d(x); }

static double copysign_d(double mag, double sgn)
{
    union { double d; uint64_t u; } m = { .d = mag }, s = { .d = sgn };
    m.u = (m.u & 0x7fffffffffffffffull) | (s.u & 0x8000000000000000ull);
    return m.d;
}

static double fabs_d(double x) { return copysign_d(x, 1.0); }

// 1 or 0 with x's sign, for the "box" of an infinite operand.
static double box(double x, int inf) { return copysign_d(inf ? 1.0 : 0.0, x); }

#define INF __builtin_inf()

static void mul(double a, double b, double c, double d, double *re, double *im)
{
    double ac = a * c, bd = b * d, ad = a * d, bc = b * c;
    double x = ac - bd, y = ad + bc;
    if (isnan_d(x) && isnan_d(y)) {
        int recalc = 0;
        if (isinf_d(a) || isinf_d(b)) {
            a = box(a, isinf_d(a));
            b = box(b, isinf_d(b));
            if (isnan_d(c)) c = copysign_d(0.0, c);
            if (isnan_d(d)) d = copysign_d(0.0, d);
            recalc = 1;
        }
        if (isinf_d(c) || isinf_d(d)) {
            c = box(c, isinf_d(c));
            d = box(d, isinf_d(d));
            if (isnan_d(a)) a = copysign_d(0.0, a);
            if (isnan_d(b)) b = copysign_d(0.0, b);
            recalc = 1;
        }
        if (!recalc && (isinf_d(ac) || isinf_d(bd) || isinf_d(ad) || isinf_d(bc))) {
            if (isnan_d(a)) a = copysign_d(0.0, a);
            if (isnan_d(b)) b = copysign_d(0.0, b);
            if (isnan_d(c)) c = copysign_d(0.0, c);
            if (isnan_d(d)) d = copysign_d(0.0, d);
            recalc = 1;
        }
        if (recalc) {
            x = INF * (a * c - b * d);
            y = INF * (a * d + b * c);
        }
    }
    *re = x;
    *im = y;
}

// x * 2^k for |k| up to 2100, in two steps so that neither factor overflows.
static double scale2(double x, int k)
{
    int k1 = k / 2, k2 = k - k1;
    union { double d; uint64_t u; } s1 = { .u = (uint64_t)(1023 + k1) << 52 },
                                    s2 = { .u = (uint64_t)(1023 + k2) << 52 };
    return x * s1.d * s2.d;
}

static void divide(double a, double b, double c, double d, double *re, double *im)
{
    // Scale the divisor by a power of two to magnitude about 1 (its larger part's
    // binary exponent) so that c*c + d*d neither overflows nor underflows, and the
    // quotient back by the same power afterwards.
    double m = fabs_d(c) > fabs_d(d) ? fabs_d(c) : fabs_d(d);
    int ilogbw = 0;
    if (isfinite_d(m) && m != 0) {
        union { double d; uint64_t u; } v = { .d = m };
        int e = (int)((v.u >> 52) & 0x7ff);
        if (e == 0) { // subnormal
            v.d = m * 0x1p54;
            e = (int)((v.u >> 52) & 0x7ff) - 54;
        }
        ilogbw = e - 1023;
        c = scale2(c, -ilogbw);
        d = scale2(d, -ilogbw);
    }
    double den = c * c + d * d;
    double x = (a * c + b * d) / den, y = (b * c - a * d) / den;
    if (ilogbw) {
        x = scale2(x, -ilogbw);
        y = scale2(y, -ilogbw);
    }
    if (isnan_d(x) && isnan_d(y)) {
        if (den == 0.0 && (!isnan_d(a) || !isnan_d(b))) {
            x = copysign_d(INF, c) * a;
            y = copysign_d(INF, c) * b;
        } else if ((isinf_d(a) || isinf_d(b)) && isfinite_d(c) && isfinite_d(d)) {
            a = box(a, isinf_d(a));
            b = box(b, isinf_d(b));
            x = INF * (a * c + b * d);
            y = INF * (b * c - a * d);
        } else if (isinf_d(m) && isfinite_d(a) && isfinite_d(b)) {
            c = box(c, isinf_d(c));
            d = box(d, isinf_d(d));
            x = 0.0 * (a * c + b * d);
            y = 0.0 * (b * c - a * d);
        }
    }
    *re = x;
    *im = y;
}

// The entry points: op in double, the float versions narrowing its result.
typedef void complex_op(double a, double b, double c, double d, double *re, double *im);

static double _Complex in_double(complex_op *op, double a, double b, double c, double d)
{
    double _Complex z;
    op(a, b, c, d, &__real__ z, &__imag__ z);
    return z;
}

static float _Complex in_float(complex_op *op, float a, float b, float c, float d)
{
    double x, y;
    op(a, b, c, d, &x, &y);
    float _Complex z;
    __real__ z = (float)x;
    __imag__ z = (float)y;
    return z;
}

double _Complex __muldc3(double a, double b, double c, double d)
{
    return in_double(mul, a, b, c, d);
}

float _Complex __mulsc3(float a, float b, float c, float d)
{
    return in_float(mul, a, b, c, d);
}

double _Complex __divdc3(double a, double b, double c, double d)
{
    return in_double(divide, a, b, c, d);
}

float _Complex __divsc3(float a, float b, float c, float d)
{
    return in_float(divide, a, b, c, d);
}
