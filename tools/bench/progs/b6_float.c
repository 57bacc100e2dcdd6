/* b6_float: floating point: single-precision n-body style updates, a double-precision
 * series and Newton iterations for reciprocals and square roots (IEEE add, subtract,
 * multiply, compare, conversions; no division, which would need a soft-float helper). No
 * fused multiply-add (the pragma), so the host build gives the same bits.
 * Expected output: f=0x55372d97 d=0x70ca4c33 */
#include "rt.h"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
static u32 fbits(float f) { union { float f; u32 u; } c; c.f = f; return c.u; }
static u64 dbits(double d) { union { double d; u64 u; } c; c.d = d; return c.u; }
/* 1/a for a > 0: an exponent-trick first guess, then Newton steps y = y * (2 - a * y). */
static float frecip(float a)
{
    union { float f; u32 u; } c; c.f = a; c.u = 0x7ef311c7u - c.u;
    float y = c.f;
    for (int i = 0; i < 3; i++) { float e = a * y; e = 2.0f - e; y = y * e; }
    return y;
}
static double drecip(double a)
{
    union { double d; u64 u; } c; c.d = a; c.u = 0x7fde5f73aabb2290ull - c.u;
    double y = c.d;
    for (int i = 0; i < 5; i++) { double e = a * y; e = 2.0 - e; y = y * e; }
    return y;
}
#define NB 16
static float px[NB], py[NB], vx[NB], vy[NB];
int main(void)
{
    for (int i = 0; i < NB; i++) { px[i] = (float)i; py[i] = (float)(i * i % 7); vx[i] = 0.0f; vy[i] = 0.0f; }
    for (int step = 0; step < 600; step++) {
        for (int i = 0; i < NB; i++) {
            float ax = 0.0f, ay = 0.0f;
            for (int j = 0; j < NB; j++) {
                float dx = px[j] - px[i], dy = py[j] - py[i];
                float r2 = dx * dx;
                r2 = r2 + dy * dy;
                r2 = r2 + 0.01f;
                float inv = frecip(r2);
                ax = ax + dx * inv;
                ay = ay + dy * inv;
            }
            vx[i] = vx[i] + ax * 0.001f;
            vy[i] = vy[i] + ay * 0.001f;
        }
        for (int i = 0; i < NB; i++) { px[i] = px[i] + vx[i]; py[i] = py[i] + vy[i]; }
    }
    u32 fh = 0;
    for (int i = 0; i < NB; i++) fh = (fh * 31u) ^ fbits(px[i]) ^ (fbits(py[i]) << 1);
    double sum = 0.0, x = 1.0;
    for (int k = 1; k < 100000; k++) {
        double t = drecip((double)k);
        sum = sum + (k & 1 ? t : -t);
        double y = x;
        for (int it = 0; it < 3; it++) { double q = (double)k * drecip(y); q = y + q; y = 0.5 * q; }
        x = y > 1000.0 ? 1.0 : y;
        if (sum > x) sum = sum - 0.125;
    }
    u64 db = dbits(sum) ^ dbits(x);
    put_str("f="); put_hex(fh); put_str(" d="); put_hex((u32)(db ^ (db >> 32))); put_str("\n");
    return 0;
}
