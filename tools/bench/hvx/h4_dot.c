/* h4_dot: dot products, repeated: 16-bit vectors with widening multiply-accumulates into
 * word pairs (vmpyhv_acc, intrinsics), 8-bit unsigned by signed with vrmpy accumulates, and
 * a plain C 16-bit dot product that clang vectorizes.
 * Expected output: h4_dot sum=0x3b49e2f0 check=ok */
#include "hvx_rt.h"
#define N (32 * 1024)
static short a[N] __attribute__((aligned(128)));
static short b[N] __attribute__((aligned(128)));
static unsigned char ub[N] __attribute__((aligned(128)));
static signed char sb[N] __attribute__((aligned(128)));

static u32 wsum(HVX_Vector v)
{
    union { HVX_Vector v; u32 w[32]; } u = { v };
    u32 s = 0;
    for (int i = 0; i < 32; i++)
        s += u.w[i];
    return s;
}
static int dot16(void)
{
    HVX_VectorPair acc = Q6_W_vcombine_VV(Q6_V_vzero(), Q6_V_vzero());
    for (int i = 0; i < N; i += 64)
        acc = Q6_Ww_vmpyacc_WwVhVh(acc, *(HVX_Vector *)(a + i), *(HVX_Vector *)(b + i));
    return (int)(wsum(Q6_V_lo_W(acc)) + wsum(Q6_V_hi_W(acc)));
}
static int dot8(void)
{
    HVX_Vector acc = Q6_V_vzero();
    for (int i = 0; i < N; i += VB)
        acc = Q6_Vw_vrmpyacc_VwVubVb(acc, *(HVX_Vector *)(ub + i), *(HVX_Vector *)(sb + i));
    return (int)wsum(acc);
}
static int dot_plain(const short *restrict x, const short *restrict y)
{
    int s = 0;
    for (int i = 0; i < N; i++)   /* vectorized by clang */
        s += x[i] * y[i];
    return s;
}

int main(void)
{
    for (int i = 0; i < N; i++) {
        a[i] = (short)rng();
        b[i] = (short)rng();
        ub[i] = (unsigned char)rng();
        sb[i] = (signed char)rng();
    }
    u32 sum = 2166136261u;
    int ok = 1;
    for (int it = 0; it < 1400; it++) {
        int d16 = dot16(), d8 = dot8(), dp = dot_plain(a, b);
        if (it == 0) {
            int r16 = 0, r8 = 0;
            SCALAR for (int i = 0; i < N; i++) {
                r16 += a[i] * b[i];
                r8 += ub[i] * sb[i];
            }
            ok = r16 == d16 && r8 == d8 && dp == d16;
        }
        int r[3] = { d16, d8, dp };
        sum = fnv(sum, r, sizeof(r));
        a[it * 37 % N] ^= (short)d16;
        sb[it * 53 % N] += (signed char)d8;
    }
    return report("h4_dot", sum, ok);
}
