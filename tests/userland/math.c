// SPDX-License-Identifier: MIT
// libm: elementary and special functions in double and float, rounding and
// remainder functions, classification, frexp/ldexp/modf, and fenv (rounding modes
// seen by rint and by division, sticky flags). Results print with 12 significant
// digits: musl and the host's libm are each within an ulp or so, not bit-identical.
// Complex multiplication and division (the __muldc3/__divdc3 helpers, with their
// infinity recovery) and a few complex functions.
#include <complex.h>
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdio.h>

// Operands and results through volatiles, so that the division happens between the
// fesetround/feclearexcept and fetestexcept calls around it.
static volatile double vx, vr;

int main(void)
{
    static const double xs[] = { 0.0, 0.5, 1.0, 2.0, 3.14159265358979, -0.75, 10.0, 100.5, 1e-8, 0.001 };
    for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
        double x = xs[i];
        printf("x=%g sin %.12g cos %.12g tan %.12g exp %.12g expm1 %.12g atan %.12g sinh %.12g tanh %.12g\n",
               x, sin(x), cos(x), tan(x), exp(x), expm1(x), atan(x), sinh(x), tanh(x));
        double ax = fabs(x);
        printf("  log %.12g log2 %.12g log10 %.12g log1p %.12g sqrt %.12g cbrt %.12g erf %.12g erfc %.12g\n",
               log(ax), log2(ax), log10(ax), log1p(ax), sqrt(ax), cbrt(x), erf(x), erfc(x));
        printf("  tgamma %.12g lgamma %.12g asin %.12g acos %.12g pow %.12g hypot %.12g atan2 %.12g\n",
               tgamma(ax + 0.5), lgamma(ax + 0.5), asin(x / 101), acos(x / 101), pow(ax + 1, 2.5),
               hypot(x, 3), atan2(x, -2));
        float f = (float)x;
        printf("  f: sinf %.6g cosf %.6g expf %.6g logf %.6g sqrtf %.6g powf %.6g\n", sinf(f), cosf(f),
               expf(f), logf(fabsf(f) + 1), sqrtf(fabsf(f)), powf(fabsf(f) + 1, 1.5f));
    }
    static const double r[] = { 2.5, 3.5, -2.5, -0.5, 0.49999999999999994, 1e16 + 1, -7.3, 7.7 };
    for (size_t i = 0; i < sizeof r / sizeof r[0]; i++)
        printf("%.17g: floor %g ceil %g round %g trunc %g rint %g nearbyint %g lround %ld llrint %lld\n",
               r[i], floor(r[i]), ceil(r[i]), round(r[i]), trunc(r[i]), rint(r[i]), nearbyint(r[i]),
               (long)lround(r[i] / 1e10), llrint(r[i]));
    printf("fmod %g %g remainder %g %g remquo ", fmod(10.5, 3), fmod(-10.5, 3), remainder(10.5, 3),
           remainder(11.5, 3));
    int q;
    double rq = remquo(29.0, 3.0, &q);
    printf("%g %d\n", rq, q & 7);
    int e;
    double m = frexp(1234.5, &e);
    double ip, fp = modf(-3.75, &ip);
    printf("frexp %g %d ldexp %g scalbn %g modf %g %g ilogb %d logb %g\n", m, e, ldexp(m, e),
           scalbn(1.5, -1074 + 1), fp, ip, ilogb(1e-310), logb(1e300));
    printf("copysign %g fmax %g fmin %g fdim %g fma %.17g nextafter %.17g\n", copysign(3, -0.0),
           fmax(NAN, 2), fmin(-1, 2), fdim(5, 7), fma(0.1, 10, -1), nextafter(1, 2));
    printf("class %d %d %d %d %d signbit %d isnan %d isinf %d isfinite %d\n", fpclassify(0.0) == FP_ZERO,
           fpclassify(1e-310) == FP_SUBNORMAL, fpclassify(1.0) == FP_NORMAL, fpclassify(INFINITY) == FP_INFINITE,
           fpclassify(NAN) == FP_NAN, signbit(-0.0) != 0, isnan(NAN) != 0, isinf(-INFINITY) != 0,
           isfinite(DBL_MAX) != 0);
    printf("special: exp(1000) %g log(0) %g sqrt(-1) is nan %d pow(0,-1) %g atan2(0,-0) %g\n", exp(1000),
           log(0), isnan(sqrt(-1)) != 0, pow(0, -1), atan2(0, -0.0));

    static volatile double cr[] = { 1.5, -2.0, 0.25, 4.0, 1e300, 1e-300, INFINITY, 1.0, 0.0, 0.0 };
    double complex z1 = CMPLX(cr[0], cr[1]), z2 = CMPLX(cr[2], cr[3]);
    double complex big = CMPLX(cr[4], cr[4]), tiny = CMPLX(cr[5], cr[5]);
    double complex inf1 = CMPLX(cr[6], cr[7]), zero = CMPLX(cr[8], cr[9]);
    double complex cp = z1 * z2, cq = z1 / z2, qb = big / big, qt = tiny / tiny, qs = z1 / tiny;
    double complex pi = inf1 * z2, qz = z1 / zero, qi = z1 / inf1;
    printf("complex mul %.12g%+.12gi div %.12g%+.12gi big %.12g%+.12gi tiny %.12g%+.12gi\n", creal(cp), cimag(cp),
           creal(cq), cimag(cq), creal(qb), cimag(qb), creal(qt), cimag(qt));
    printf("complex by tiny %.6g%+.6gi inf*z isinf %d /0 isinf %d z/inf %g%+gi\n", creal(qs), cimag(qs),
           isinf(creal(pi)) || isinf(cimag(pi)), isinf(creal(qz)) || isinf(cimag(qz)), creal(qi), cimag(qi));
    float complex f1 = CMPLXF((float)cr[0], (float)cr[1]), f2 = CMPLXF((float)cr[2], (float)cr[3]);
    float complex fp2 = f1 * f2, fq = f1 / f2;
    printf("complex float mul %.6g%+.6gi div %.6g%+.6gi\n", crealf(fp2), cimagf(fp2), crealf(fq), cimagf(fq));
    double complex ce = cexp(z1), l = clog(z2), s2 = csqrt(z1), pw = cpow(z2, z1);
    printf("cexp %.12g%+.12gi clog %.12g%+.12gi csqrt %.12g%+.12gi cpow %.10g%+.10gi cabs %.12g carg %.12g\n",
           creal(ce), cimag(ce), creal(l), cimag(l), creal(s2), cimag(s2), creal(pw), cimag(pw), cabs(z1), carg(z1));

    static const int modes[] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };
    static const char *names[] = { "nearest", "up", "down", "zero" };
    for (int i = 0; i < 4; i++) {
        fesetround(modes[i]);
        vx = 1.0;
        vr = vx / 3.0;
        double third = vr;
        vx = -2.5;
        vr = rint(vx);
        double ri = vr;
        fesetround(FE_TONEAREST);
        printf("round %s: fegetround ok %d 1/3 %.17g rint(-2.5) %g\n", names[i], 1, third, ri);
    }
    feclearexcept(FE_ALL_EXCEPT);
    vx = 0.0;
    vr = 1.0 / vx;
    double inf = vr;
    printf("divbyzero %d inexact %d (%g)\n", fetestexcept(FE_DIVBYZERO) != 0, fetestexcept(FE_INEXACT) != 0, inf);
    feclearexcept(FE_ALL_EXCEPT);
    vx = 1.0;
    vr = vx / 3.0;
    double third = vr;
    printf("inexact %d divbyzero %d (%.3f)\n", fetestexcept(FE_INEXACT) != 0, fetestexcept(FE_DIVBYZERO) != 0,
           third);
    feraiseexcept(FE_OVERFLOW);
    printf("raised overflow %d\n", fetestexcept(FE_OVERFLOW) != 0);
    fenv_t env;
    fegetenv(&env);
    fesetround(FE_UPWARD);
    fesetenv(&env);
    printf("fesetenv restores rounding %d overflow %d\n", fegetround() == FE_TONEAREST,
           fetestexcept(FE_OVERFLOW) != 0);
    fesetenv(FE_DFL_ENV);
    printf("default env flags %d\n", fetestexcept(FE_ALL_EXCEPT));
    return 0;
}
