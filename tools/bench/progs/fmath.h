/* Division-free floating-point helpers for the benchmark programs: Hexagon has no divide
 * or square-root instruction (clang calls runtime helpers these freestanding programs do
 * not have), so reciprocals and reciprocal square roots come from an exponent-trick first
 * guess and Newton steps. With FP_CONTRACT OFF the host build computes the same bits. */
#ifndef BENCH_FMATH_H
#define BENCH_FMATH_H
#include "rt.h"
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif
static inline u32 fbits(float f) { union { float f; u32 u; } c; c.f = f; return c.u; }
static inline u64 dbits(double d) { union { double d; u64 u; } c; c.d = d; return c.u; }
static inline u32 fold64(u64 v) { return (u32)(v ^ (v >> 32)); }
/* 1/a for a normal, non-zero a (either sign) */
static inline float frecip(float a)
{
    float s = a < 0.0f ? -1.0f : 1.0f;
    a = a * s;
    union { float f; u32 u; } c; c.f = a; c.u = 0x7ef311c7u - c.u;
    float y = c.f;
    for (int i = 0; i < 4; i++) { float e = a * y; e = 2.0f - e; y = y * e; }
    return y * s;
}
static inline double drecip(double a)
{
    double s = a < 0.0 ? -1.0 : 1.0;
    a = a * s;
    union { double d; u64 u; } c; c.d = a; c.u = 0x7fde5f73aabb2290ull - c.u;
    double y = c.d;
    for (int i = 0; i < 6; i++) { double e = a * y; e = 2.0 - e; y = y * e; }
    return y * s;
}
/* 1/sqrt(a) for a normal a > 0 */
static inline double drsqrt(double a)
{
    union { double d; u64 u; } c; c.d = a; c.u = 0x5fe6eb50c7b537a9ull - (c.u >> 1);
    double y = c.d, h = 0.5 * a;
    for (int i = 0; i < 5; i++) { double e = h * y; e = e * y; e = 1.5 - e; y = y * e; }
    return y;
}
static inline float frsqrt(float a)
{
    union { float f; u32 u; } c; c.f = a; c.u = 0x5f3759dfu - (c.u >> 1);
    float y = c.f, h = 0.5f * a;
    for (int i = 0; i < 3; i++) { float e = h * y; e = e * y; e = 1.5f - e; y = y * e; }
    return y;
}
#endif
