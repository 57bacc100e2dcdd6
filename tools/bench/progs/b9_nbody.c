/* b9_nbody: double-precision n-body simulation (softened gravity, leapfrog steps; inverse
 * square roots by Newton steps) and the system's energy, then a single-precision particle
 * swarm of the same shape with fused multiply-adds (sfmpy accumulate; the host build uses
 * fmaf, so both round once).
 * Expected output: pos=0xe438c7f6 e=0x868c2425 f=0xd86221db */
#include "fmath.h"
#define NB 24
static double x[NB], y[NB], z[NB], vx[NB], vy[NB], vz[NB], ms[NB];
static float fx[64], fy[64], fvx[64], fvy[64];
static u32 seed = 777;
static u32 rnd(void) { seed = seed * 1664525u + 1013904223u; return seed >> 9; }
static double energy(void)
{
    double e = 0.0;
    for (int i = 0; i < NB; i++) {
        double v2 = vx[i] * vx[i];
        v2 = v2 + vy[i] * vy[i];
        v2 = v2 + vz[i] * vz[i];
        e = e + 0.5 * ms[i] * v2;
        for (int j = i + 1; j < NB; j++) {
            double dx = x[i] - x[j], dy = y[i] - y[j], dz = z[i] - z[j];
            double r2 = dx * dx;
            r2 = r2 + dy * dy;
            r2 = r2 + dz * dz;
            e = e - ms[i] * ms[j] * drsqrt(r2 + 0.01);
        }
    }
    return e;
}
int main(void)
{
    for (int i = 0; i < NB; i++) {
        x[i] = (double)(rnd() % 2000) * 0.01 - 10.0;
        y[i] = (double)(rnd() % 2000) * 0.01 - 10.0;
        z[i] = (double)(rnd() % 2000) * 0.01 - 10.0;
        vx[i] = vy[i] = vz[i] = 0.0;
        ms[i] = 0.5 + (double)(rnd() % 100) * 0.01;
    }
    double e0 = energy();
    const double dt = 0.001;
    for (int s = 0; s < 160; s++) {
        for (int i = 0; i < NB; i++) {
            double ax = 0.0, ay = 0.0, az = 0.0;
            for (int j = 0; j < NB; j++) {
                if (j == i) continue;
                double dx = x[j] - x[i], dy = y[j] - y[i], dz = z[j] - z[i];
                double r2 = dx * dx;
                r2 = r2 + dy * dy;
                r2 = r2 + dz * dz;
                r2 = r2 + 0.01;
                double ir = drsqrt(r2);
                double f = ms[j] * ir * ir * ir;
                ax = ax + f * dx; ay = ay + f * dy; az = az + f * dz;
            }
            vx[i] = vx[i] + dt * ax; vy[i] = vy[i] + dt * ay; vz[i] = vz[i] + dt * az;
        }
        for (int i = 0; i < NB; i++) {
            x[i] = x[i] + dt * vx[i]; y[i] = y[i] + dt * vy[i]; z[i] = z[i] + dt * vz[i];
        }
    }
    double e1 = energy();
    u64 h = dbits(e0 - e1);
    for (int i = 0; i < NB; i++) h = (h * 0x9e3779b97f4a7c15ull) ^ dbits(x[i]) ^ dbits(z[i]);
    for (int i = 0; i < 64; i++) {
        fx[i] = (float)(rnd() % 1000) * 0.01f; fy[i] = (float)(rnd() % 1000) * 0.01f;
        fvx[i] = fvy[i] = 0.0f;
    }
    for (int s = 0; s < 60; s++)
        for (int i = 0; i < 64; i++) {
            float ax = 0.0f, ay = 0.0f;
            for (int j = 0; j < 64; j++) {
                float dx = fx[j] - fx[i], dy = fy[j] - fy[i];
                float r2 = __builtin_fmaf(dx, dx, __builtin_fmaf(dy, dy, 0.05f));
                float ir = frsqrt(r2);
                float k = ir * ir * ir;
                ax = __builtin_fmaf(k, dx, ax);
                ay = __builtin_fmaf(k, dy, ay);
            }
            fvx[i] = __builtin_fmaf(0.0005f, ax, fvx[i]);
            fvy[i] = __builtin_fmaf(0.0005f, ay, fvy[i]);
            fx[i] = fx[i] + fvx[i];
            fy[i] = fy[i] + fvy[i];
        }
    u32 fh = 0;
    for (int i = 0; i < 64; i++) fh = (fh * 31u) ^ fbits(fx[i]) ^ fbits(fy[i]);
    put_str("pos="); put_hex(fold64(h)); put_str(" e="); put_hex(fold64(dbits(e1)));
    put_str(" f="); put_hex(fh); put_str("\n");
    return 0;
}
