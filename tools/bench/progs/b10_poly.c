/* b10_poly: polynomial roots: Durand-Kerner iterations in complex double precision on a
 * series of degree-12 polynomials with random coefficients, Newton's method with Horner
 * evaluation on real single-precision polynomials, and the roots' residuals.
 * Expected output: dk=0x9a25518a res=0x3d604869 newton=0xd1bd55cd */
#include "fmath.h"
#define DEG 12
static double cr[DEG + 1], zr[DEG], zi[DEG];
static u32 seed = 4242;
static u32 rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
/* p(z) for the monic polynomial with coefficients cr (cr[DEG] = 1): Horner, complex */
static void peval(double xr, double xi, double *pr, double *pi)
{
    double ar = 1.0, ai = 0.0;
    for (int k = DEG - 1; k >= 0; k--) {
        double tr = ar * xr - ai * xi, ti = ar * xi + ai * xr;
        ar = tr + cr[k]; ai = ti;
    }
    *pr = ar; *pi = ai;
}
int main(void)
{
    u64 h = 0;
    double res = 0.0;
    for (int poly = 0; poly < 40; poly++) {
        for (int k = 0; k < DEG; k++) cr[k] = (double)(int)(rnd() % 2001 - 1000) * 0.001;
        cr[DEG] = 1.0;
        double br = 0.4, bi = 0.9;   /* starting points: powers of 0.4+0.9i */
        zr[0] = 1.0; zi[0] = 0.0;
        for (int k = 1; k < DEG; k++) {
            zr[k] = zr[k - 1] * br - zi[k - 1] * bi;
            zi[k] = zr[k - 1] * bi + zi[k - 1] * br;
        }
        for (int it = 0; it < 150; it++)
            for (int k = 0; k < DEG; k++) {
                double pr, pi, dr = 1.0, di = 0.0;
                peval(zr[k], zi[k], &pr, &pi);
                for (int j = 0; j < DEG; j++) {
                    if (j == k) continue;
                    double er = zr[k] - zr[j], ei = zi[k] - zi[j];
                    double tr = dr * er - di * ei, ti = dr * ei + di * er;
                    dr = tr; di = ti;
                }
                double n = dr * dr + di * di;
                if (n < 1e-300) continue;
                double inv = drecip(n);
                double qr = (pr * dr + pi * di) * inv, qi = (pi * dr - pr * di) * inv;
                zr[k] = zr[k] - qr; zi[k] = zi[k] - qi;
            }
        for (int k = 0; k < DEG; k++) {
            double pr, pi;
            peval(zr[k], zi[k], &pr, &pi);
            res = res + (pr < 0 ? -pr : pr) + (pi < 0 ? -pi : pi);
            h = (h * 0x100000001b3ull) ^ dbits(zr[k]) ^ (dbits(zi[k]) << 1);
        }
    }
    u32 nh = 0;
    float c[8];
    for (int poly = 0; poly < 3000; poly++) {
        for (int k = 0; k < 7; k++) c[k] = (float)(int)(rnd() % 200 - 100) * 0.01f;
        c[7] = 1.0f;
        c[0] = c[0] - 2.0f;   /* p(0) < 0 < p(large): a positive root */
        float x = 2.0f;
        for (int it = 0; it < 30; it++) {
            float p = c[7], d = 0.0f;
            for (int k = 6; k >= 0; k--) { d = d * x + p; p = p * x + c[k]; }
            if (d == 0.0f) break;
            x = x - p * frecip(d);
        }
        nh = (nh * 33u) ^ fbits(x);
    }
    put_str("dk="); put_hex(fold64(h)); put_str(" res="); put_hex(fold64(dbits(res)));
    put_str(" newton="); put_hex(nh); put_str("\n");
    return 0;
}
