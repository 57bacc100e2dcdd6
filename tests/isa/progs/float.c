// SPDX-License-Identifier: MIT
// Guest program for the disassembly tests: float and double arithmetic, compares, conversions
// to and from integers, fused multiply-add patterns and a Newton iteration.
#include "progs.h"

float f_poly(float x) { return ((3.0f * x + 2.0f) * x - 1.5f) * x + 0.25f; }
double d_poly(double x) { return ((3.0 * x + 2.0) * x - 1.5) * x + 0.25; }
int f_to_i(float x) { return (int)x; }
double i_to_d(int x) { return (double)x; }
float d_to_f(double x) { return (float)x; }
int f_cmp(float a, float b) { return (a < b) + 2 * (a == b) + 4 * (a >= b); }
int d_cmp(double a, double b) { return (a < b) + 2 * (a == b) + 4 * (a > b); }

float f_sqrt(float v)
{
    float x = v > 1.0f ? v : 1.0f;
    for (int i = 0; i < 8; i++)
        x = 0.5f * (x + v / x);
    return x;
}

double d_dot(const double *a, const double *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += a[i] * b[i];
    return s;
}

int fp_main(void)
{
    double a[4] = { 1.5, -2.25, 3.0, 0.125 }, b[4] = { 2.0, 4.0, -1.0, 8.0 };
    float r = f_poly(1.25f) + f_sqrt(2.0f) + d_to_f(d_dot(a, b, 4));
    return f_to_i(r * 100.0f) + (int)i_to_d(-3) + f_cmp(1.0f, 2.0f) + d_cmp(d_poly(0.5), 1.0);
}
