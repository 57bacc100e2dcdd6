/* h5_matmul: 16-bit matrix products (96x96 times 96x128), repeated: a plain C i-k-j loop
 * that clang vectorizes (halfword multiplies widened to word accumulators), and one with
 * intrinsics (vmpyhv_acc: a row of A splat by vsplat, times a row of B, into word pairs).
 * Expected output: h5_matmul sum=0x8568b2d1 check=ok */
#include "hvx_rt.h"
#define M 96
#define K 96
#define NC 128
static short A[M][K] __attribute__((aligned(128)));
static short B[K][NC] __attribute__((aligned(128)));
static int C[M][NC] __attribute__((aligned(128)));
static int D[M][NC] __attribute__((aligned(128)));

static void matmul_plain(void)
{
    for (int i = 0; i < M; i++) {
        for (int j = 0; j < NC; j++)
            C[i][j] = 0;
        for (int k = 0; k < K; k++) {
            int aik = A[i][k];
            for (int j = 0; j < NC; j++)   /* vectorized by clang */
                C[i][j] += aik * B[k][j];
        }
    }
}
/* D[i][j] for j in 0..127 as words: vmpyhv gives the products of even lanes in the pair's
 * low vector and of odd lanes in its high one; the order is put back at the end (vshuff) */
static void matmul_hvx(void)
{
    for (int i = 0; i < M; i++) {
        HVX_VectorPair acc = Q6_W_vcombine_VV(Q6_V_vzero(), Q6_V_vzero());
        for (int k = 0; k < K; k++) {
            HVX_Vector ak = Q6_Vh_vsplat_R(A[i][k]);
            acc = Q6_Ww_vmpyacc_WwVhVh(acc, ak, *(HVX_Vector *)B[k]);
        }
        HVX_VectorPair w = Q6_W_vshuff_VVR(Q6_V_hi_W(acc), Q6_V_lo_W(acc), -4);
        ((HVX_Vector *)D[i])[0] = Q6_V_lo_W(w);
        ((HVX_Vector *)D[i])[1] = Q6_V_hi_W(w);
        /* columns 64..127: the same with B's second vector */
        acc = Q6_W_vcombine_VV(Q6_V_vzero(), Q6_V_vzero());
        for (int k = 0; k < K; k++) {
            HVX_Vector ak = Q6_Vh_vsplat_R(A[i][k]);
            acc = Q6_Ww_vmpyacc_WwVhVh(acc, ak, *(HVX_Vector *)(B[k] + 64));
        }
        w = Q6_W_vshuff_VVR(Q6_V_hi_W(acc), Q6_V_lo_W(acc), -4);
        ((HVX_Vector *)D[i])[2] = Q6_V_lo_W(w);
        ((HVX_Vector *)D[i])[3] = Q6_V_hi_W(w);
    }
}

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            A[i][k] = (short)(rng() % 2001) - 1000;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < NC; j++)
            B[k][j] = (short)(rng() % 2001) - 1000;
    u32 sum = 2166136261u;
    int ok = 1;
    for (int it = 0; it < 96; it++) {
        matmul_plain();
        matmul_hvx();
        if (it == 0)
            for (int i = 0; i < 3; i++)
                SCALAR for (int j = 0; j < NC; j++) {
                    int s = 0;
                    SCALAR for (int k = 0; k < K; k++)
                        s += A[i][k] * B[k][j];
                    ok &= C[i][j] == s && D[i][j] == s;
                }
        for (int i = 0; i < M; i++) {
            for (int j = 0; j < NC; j++)
                ok &= C[i][j] == D[i][j];
            sum = fnv(sum, C[i], sizeof(C[i]));
        }
        A[it][it] += 7;
        B[it][it * 3 % NC] -= 11;
    }
    return report("h5_matmul", sum, ok);
}
