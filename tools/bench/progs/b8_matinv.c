/* b8_matinv: double-precision Gauss-Jordan inversion with partial pivoting of a 20x20
 * matrix, then the product A * inv(A) checked against the identity, repeated over a
 * series of matrices; and single-precision LU-free Jacobi iterations on a diagonally
 * dominant system (add, multiply, compare, conversions; reciprocals by Newton steps).
 * Expected output: inv=0x48e21066 err=0x11f95549 jac=0x3d2568db */
#include "fmath.h"
#define N 20
static double a[N][N], m[N][N], inv[N][N];
static float fa[48][48], fb[48], fx[48], fy[48];
static u32 seed = 12345;
static u32 rnd(void) { seed = seed * 1103515245u + 12345u; return seed >> 8; }
static double dabs(double v) { return v < 0.0 ? -v : v; }
static void invert(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) { m[i][j] = a[i][j]; inv[i][j] = i == j ? 1.0 : 0.0; }
    for (int c = 0; c < N; c++) {
        int p = c;
        for (int r = c + 1; r < N; r++)
            if (dabs(m[r][c]) > dabs(m[p][c])) p = r;
        for (int j = 0; j < N; j++) {
            double t = m[c][j]; m[c][j] = m[p][j]; m[p][j] = t;
            t = inv[c][j]; inv[c][j] = inv[p][j]; inv[p][j] = t;
        }
        double r = drecip(m[c][c]);
        for (int j = 0; j < N; j++) { m[c][j] = m[c][j] * r; inv[c][j] = inv[c][j] * r; }
        for (int i = 0; i < N; i++) {
            if (i == c) continue;
            double f = m[i][c];
            for (int j = 0; j < N; j++) {
                m[i][j] = m[i][j] - f * m[c][j];
                inv[i][j] = inv[i][j] - f * inv[c][j];
            }
        }
    }
}
int main(void)
{
    u64 h = 0;
    double err = 0.0;
    for (int rep = 0; rep < 120; rep++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                a[i][j] = (double)(int)(rnd() % 2001 - 1000) * 0.001 + (i == j ? 4.0 : 0.0);
        invert();
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                double s = 0.0;
                for (int k = 0; k < N; k++) s = s + a[i][k] * inv[k][j];
                s = s - (i == j ? 1.0 : 0.0);
                err = err + dabs(s);
                h = (h * 0x100000001b3ull) ^ dbits(inv[i][j]);
            }
    }
    for (int i = 0; i < 48; i++) {
        float d = 0.0f;
        for (int j = 0; j < 48; j++) {
            fa[i][j] = (float)(int)(rnd() % 200 - 100) * 0.01f;
            d = d + (fa[i][j] < 0.0f ? -fa[i][j] : fa[i][j]);
        }
        fa[i][i] = d + 1.0f;
        fb[i] = (float)(int)(rnd() % 1000) * 0.1f;
        fx[i] = 0.0f;
    }
    for (int it = 0; it < 400; it++) {
        for (int i = 0; i < 48; i++) {
            float s = fb[i];
            for (int j = 0; j < 48; j++)
                if (j != i) s = s - fa[i][j] * fx[j];
            fy[i] = s * frecip(fa[i][i]);
        }
        for (int i = 0; i < 48; i++) fx[i] = fy[i];
    }
    u32 jh = 0;
    for (int i = 0; i < 48; i++) jh = (jh * 31u) ^ fbits(fx[i]);
    put_str("inv="); put_hex(fold64(h)); put_str(" err="); put_hex(fold64(dbits(err)));
    put_str(" jac="); put_hex(jh); put_str("\n");
    return 0;
}
