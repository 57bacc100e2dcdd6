/* h2_hist: a 16-bin histogram of the high nibbles of 256 KiB of bytes, repeated: per bin a
 * byte compare into a vector predicate and a predicated byte add (vcmp.eq, condacc),
 * counts widened to halfwords and words before they overflow (vzb, vaddubh, vadduhw-style
 * adds), then summed across lanes with vrmpy (intrinsics).
 * Expected output: h2_hist sum=0x55da0775 check=ok */
#include "hvx_rt.h"
#define N (256 * 1024)
static unsigned char data[N] __attribute__((aligned(128)));
static u32 counts[16];

static u32 lanes_sum(HVX_Vector bytes)
{
    /* sum of the 128 unsigned bytes: vrmpy by ones gives 32 word sums, then a reduction */
    HVX_Vector w = Q6_Vuw_vrmpy_VubRub(bytes, 0x01010101);
    u32 s = 0;
    union { HVX_Vector v; u32 w[32]; } u = { w };
    for (int i = 0; i < 32; i++)
        s += u.w[i];
    return s;
}

static void hist(void)
{
    HVX_Vector mask = Q6_Vb_vsplat_R(0xf0);
    for (int b = 0; b < 16; b++)
        counts[b] = 0;
    for (int base = 0; base < N; base += 255 * VB) {   /* byte counts cannot overflow */
        int end = base + 255 * VB < N ? base + 255 * VB : N;
        HVX_Vector acc[16];
        for (int b = 0; b < 16; b++)
            acc[b] = Q6_V_vzero();
        for (int i = base; i < end; i += VB) {
            HVX_Vector v = Q6_V_vand_VV(*(HVX_Vector *)(data + i), mask);
            HVX_Vector one = Q6_Vb_vsplat_R(1);
            for (int b = 0; b < 16; b++) {
                HVX_VectorPred q = Q6_Q_vcmp_eq_VbVb(v, Q6_Vb_vsplat_R(b << 4));
                acc[b] = Q6_Vb_condacc_QVbVb(q, acc[b], one);
            }
        }
        for (int b = 0; b < 16; b++)
            counts[b] += lanes_sum(acc[b]);
    }
}

int main(void)
{
    u32 sum = 2166136261u;
    int ok = 1;
    for (int i = 0; i < N; i++)
        data[i] = (unsigned char)(rng() % 251);
    for (int it = 0; it < 56; it++) {
        hist();
        if (it == 0) {
            u32 ref[16] = {0}, total = 0;
            SCALAR for (int i = 0; i < N; i++)
                ref[data[i] >> 4]++;
            for (int b = 0; b < 16; b++) {
                ok &= ref[b] == counts[b];
                total += counts[b];
            }
            ok &= total == N;
        }
        sum = fnv(sum, counts, sizeof(counts));
        for (int i = it; i < N; i += 97)
            data[i] = (unsigned char)(data[i] * 5 + it);
    }
    return report("h2_hist", sum, ok);
}
