/* h3_memcpy: copies of 192 KiB buffers, repeated: aligned vector loads and stores, an
 * unaligned source (vmemu loads), an unaligned destination (vmemu stores), a plain C byte
 * loop that clang vectorizes, a fill with vsplat, and an XOR fold of the result.
 * Expected output: h3_memcpy sum=0x1fefc0a4 check=ok */
#include "hvx_rt.h"
#define N (192 * 1024)
static unsigned char src[N + 256] __attribute__((aligned(128)));
static unsigned char dst[N + 256] __attribute__((aligned(128)));

static void copy_aligned(unsigned char *d, const unsigned char *s, u32 n)
{
    for (u32 i = 0; i < n; i += VB)
        *(HVX_Vector *)(d + i) = *(const HVX_Vector *)(s + i);
}
static void copy_src_unaligned(unsigned char *d, const unsigned char *s, u32 n)
{
    for (u32 i = 0; i < n; i += VB)
        *(HVX_Vector *)(d + i) = *(const HVX_UVector *)(s + i);
}
static void copy_dst_unaligned(unsigned char *d, const unsigned char *s, u32 n)
{
    for (u32 i = 0; i < n; i += VB)
        *(HVX_UVector *)(d + i) = *(const HVX_Vector *)(s + i);
}
static void copy_plain(unsigned char *restrict d, const unsigned char *restrict s, u32 n)
{
    for (u32 i = 0; i < n; i++)   /* vectorized by clang */
        d[i] = (unsigned char)(s[i] + 1);
}
static void fill(unsigned char *d, u32 n, unsigned char v)
{
    HVX_Vector x = Q6_Vb_vsplat_R(v);
    for (u32 i = 0; i < n; i += VB)
        *(HVX_Vector *)(d + i) = x;
}
static u32 fold(const unsigned char *p, u32 n)
{
    HVX_Vector x = Q6_V_vzero();
    for (u32 i = 0; i < n; i += VB)
        x = Q6_V_vxor_VV(x, Q6_Vw_vadd_VwVw(*(const HVX_Vector *)(p + i), x));
    union { HVX_Vector v; u32 w[32]; } u = { x };
    return fnv(2166136261u, u.w, sizeof(u.w));
}

int main(void)
{
    for (u32 i = 0; i < N + 256; i++)
        src[i] = (unsigned char)rng();
    u32 sum = 2166136261u;
    int ok = 1;
    for (int it = 0; it < 90; it++) {
        u32 off = (u32)it * 7 % 127 + 1;
        copy_aligned(dst, src, N);
        if (it == 0)
            SCALAR for (u32 i = 0; i < N; i++)
                ok &= dst[i] == src[i];
        copy_src_unaligned(dst, src + off, N);
        if (it == 0)
            SCALAR for (u32 i = 0; i < N; i++)
                ok &= dst[i] == src[i + off];
        copy_dst_unaligned(dst + off, src, N);
        if (it == 0)
            SCALAR for (u32 i = 0; i < N; i++)
                ok &= dst[i + off] == src[i];
        sum ^= fold(dst + 128, N);
        copy_plain(src, dst + off, N);
        fill(dst, N, (unsigned char)it);
        sum = sum * 31 + fold(src, N);
    }
    return report("h3_memcpy", sum, ok);
}
