// SPDX-License-Identifier: MIT
// HVX kernels written with clang's intrinsics (hvx_hexagon_protos.h, 128-byte vectors):
// element-wise sums and differences of bytes, halfwords and words, bitwise logic, a
// threshold (compare into a vector predicate, vmux), predicate logic, splats, and copies
// through aligned and unaligned vector loads and stores. Built for Hexagon with -mhvx the
// kernels use HVX; built for the host (no __HVX__) the same source runs scalar versions of
// them, whose output is the reference (tests/userland/userland_test.py).
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 1024   // elements of bytes per array (8 vectors)

static uint8_t a[N] __attribute__((aligned(128)));
static uint8_t b[N] __attribute__((aligned(128)));
static uint8_t out[N] __attribute__((aligned(128)));
static uint8_t copy[N + 256] __attribute__((aligned(128)));

static uint32_t seed = 12345;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static uint32_t checksum(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

#ifdef __HVX__
#include <hexagon_types.h>
#include <hvx_hexagon_protos.h>

static void add_b(void)
{
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        *(HVX_Vector *)(out + i) = Q6_Vb_vadd_VbVb(va, vb);
    }
}
static void sub_h(void)
{
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        *(HVX_Vector *)(out + i) = Q6_Vh_vsub_VhVh(va, vb);
    }
}
static void add_w(void)
{
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        *(HVX_Vector *)(out + i) = Q6_Vw_vadd_VwVw(va, vb);
    }
}
static void logic(void)
{
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        HVX_Vector x = Q6_V_vxor_VV(Q6_V_vand_VV(va, vb), Q6_V_vnot_V(Q6_V_vor_VV(va, vb)));
        *(HVX_Vector *)(out + i) = x;
    }
}
// out[i] = a[i] > b[i] (signed halfwords) ? a[i] : splat(7)
static void threshold(void)
{
    HVX_Vector seven = Q6_Vh_vsplat_R(7);
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        HVX_VectorPred q = Q6_Q_vcmp_gt_VhVh(va, vb);
        *(HVX_Vector *)(out + i) = Q6_V_vmux_QVV(q, va, seven);
    }
}
// bytes equal in a and b, or a's byte above 0x80 (unsigned), but not both
static void predlogic(void)
{
    HVX_Vector k = Q6_Vb_vsplat_R(0x80);
    for (int i = 0; i < N; i += 128) {
        HVX_Vector va = *(HVX_Vector *)(a + i), vb = *(HVX_Vector *)(b + i);
        HVX_VectorPred q = Q6_Q_xor_QQ(Q6_Q_vcmp_eq_VbVb(va, vb), Q6_Q_vcmp_gt_VubVub(va, k));
        *(HVX_Vector *)(out + i) = Q6_V_vmux_QVV(q, Q6_Vb_vsplat_R(1), Q6_Vb_vsplat_R(0));
    }
}
// copies a to copy + off through unaligned vector stores
static void copy_u(int off)
{
    for (int i = 0; i < N; i += 128)
        *(HVX_UVector *)(copy + off + i) = *(HVX_Vector *)(a + i);
}
#else
static void add_b(void)
{
    for (int i = 0; i < N; i++)
        out[i] = (uint8_t)(a[i] + b[i]);
}
static void sub_h(void)
{
    for (int i = 0; i < N; i += 2) {
        uint16_t x = (uint16_t)(a[i] | a[i + 1] << 8), y = (uint16_t)(b[i] | b[i + 1] << 8);
        uint16_t d = (uint16_t)(x - y);
        out[i] = (uint8_t)d;
        out[i + 1] = (uint8_t)(d >> 8);
    }
}
static void add_w(void)
{
    for (int i = 0; i < N; i += 4) {
        uint32_t x, y, s;
        memcpy(&x, a + i, 4);
        memcpy(&y, b + i, 4);
        s = x + y;
        memcpy(out + i, &s, 4);
    }
}
static void logic(void)
{
    for (int i = 0; i < N; i++)
        out[i] = (uint8_t)((a[i] & b[i]) ^ ~(a[i] | b[i]));
}
static void threshold(void)
{
    for (int i = 0; i < N; i += 2) {
        int16_t x = (int16_t)(a[i] | a[i + 1] << 8), y = (int16_t)(b[i] | b[i + 1] << 8);
        int16_t r = x > y ? x : 7;
        out[i] = (uint8_t)r;
        out[i + 1] = (uint8_t)((uint16_t)r >> 8);
    }
}
static void predlogic(void)
{
    for (int i = 0; i < N; i++)
        out[i] = (uint8_t)((a[i] == b[i]) ^ (a[i] > 0x80));
}
static void copy_u(int off)
{
    memcpy(copy + off, a, N);
}
#endif

int main(void)
{
    for (int round = 0; round < 4; round++) {
        for (int i = 0; i < N; i++) {
            a[i] = (uint8_t)rnd();
            b[i] = (uint8_t)(round == 3 && i % 3 == 0 ? a[i] : rnd());
        }
        add_b();
        printf("round %d add_b %08x\n", round, (unsigned)checksum(out, N));
        sub_h();
        printf("round %d sub_h %08x\n", round, (unsigned)checksum(out, N));
        add_w();
        printf("round %d add_w %08x\n", round, (unsigned)checksum(out, N));
        logic();
        printf("round %d logic %08x\n", round, (unsigned)checksum(out, N));
        threshold();
        printf("round %d threshold %08x\n", round, (unsigned)checksum(out, N));
        predlogic();
        printf("round %d predlogic %08x\n", round, (unsigned)checksum(out, N));
        memset(copy, 0xee, sizeof copy);
        copy_u(round * 37 + 1);
        printf("round %d copy_u %08x\n", round, (unsigned)checksum(copy, sizeof copy));
    }
    printf("ok\n");
    return 0;
}
