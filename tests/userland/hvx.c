// SPDX-License-Identifier: MIT
// HVX kernels written with clang's intrinsics (hvx_hexagon_protos.h, 128-byte vectors):
// element-wise sums and differences of bytes, halfwords and words, bitwise logic, a
// threshold (compare into a vector predicate, vmux), predicate logic, splats, copies
// through aligned and unaligned vector loads and stores, a table lookup with vgather, a
// permutation and a histogram with vscatter (plain and accumulating: the table and the
// histogram are in ordinary memory, which hexsim and qemu-hexagon let serve as VTCM, each
// aligned to its size so that it is in one page, as the PRM asks of the region), and a
// byte histogram with vhist (inline assembly: its input is the packet's .tmp load). Built for
// Hexagon with -mhvx (V65) the kernels use HVX; built for the host (no __HVX__) the same
// source runs scalar versions of them, whose output is the reference
// (tests/userland/userland_test.py).
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define N 1024   // elements of bytes per array (8 vectors)

static uint8_t a[N] __attribute__((aligned(128)));
static uint8_t b[N] __attribute__((aligned(128)));
static uint8_t out[N] __attribute__((aligned(128)));
static uint8_t copy[N + 256] __attribute__((aligned(128)));
static uint16_t table[512] __attribute__((aligned(1024)));    // vgather's region
static uint16_t hist[2048] __attribute__((aligned(4096)));    // vscatter's; vhist's (v0-v31)

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
// out.h[i] = table[a.h[i] & 511] (vgather, byte offsets)
static void lookup(void)
{
    HVX_Vector mask = Q6_Vh_vsplat_R(511);
    for (int i = 0; i < N; i += 128) {
        HVX_Vector x = Q6_V_vand_VV(*(HVX_Vector *)(a + i), mask);
        Q6_vgather_ARMVh((HVX_Vector *)(out + i), (int)(uintptr_t)table, sizeof table - 1,
                         Q6_Vh_vadd_VhVh(x, x));
    }
}
// hist.h[(37 k + r) & 63 + 64 v] = a.h[k] of vector v (a permutation, vscatter); then
// hist.h[a.h[k] & 255] += b.h[k] (vscatter-accumulate, the same place more than once)
static void scatter(int r)
{
    uint16_t perm[64] __attribute__((aligned(128)));
    for (int k = 0; k < 64; k++)
        perm[k] = (uint16_t)(((37 * k + r) & 63) * 2);
    HVX_Vector offs = *(HVX_Vector *)perm;
    for (int v = 0; v < N / 128; v++)
        Q6_vscatter_RMVhV((int)(uintptr_t)(hist + 64 * v), 127, offs, *(HVX_Vector *)(a + 128 * v));
    HVX_Vector mask = Q6_Vh_vsplat_R(255);
    for (int i = 0; i < N; i += 128) {
        HVX_Vector x = Q6_V_vand_VV(*(HVX_Vector *)(a + i), mask);
        Q6_vscatteracc_RMVhV((int)(uintptr_t)hist, sizeof hist - 1, Q6_Vh_vadd_VhVh(x, x),
                             *(HVX_Vector *)(b + i));
    }
}
// hist = the vhist histogram of the bytes of a: v0-v31 hold 8 slices of 256 16-bit bins
#define HX_ALLV "v0","v1","v2","v3","v4","v5","v6","v7","v8","v9","v10","v11","v12","v13", \
    "v14","v15","v16","v17","v18","v19","v20","v21","v22","v23","v24","v25","v26","v27", \
    "v28","v29","v30","v31"
#define HX_V8(op, a, b, c, d, e, f, g, h) op(a) op(b) op(c) op(d) op(e) op(f) op(g) op(h)
#define HX_ZERO(n) "v" #n " = vxor(v" #n ",v" #n ")\n"
#define HX_STORE(n) "vmem(%[o]++#1) = v" #n "\n"
#define HX_ALL(op) HX_V8(op, 0, 1, 2, 3, 4, 5, 6, 7) HX_V8(op, 8, 9, 10, 11, 12, 13, 14, 15) \
    HX_V8(op, 16, 17, 18, 19, 20, 21, 22, 23) HX_V8(op, 24, 25, 26, 27, 28, 29, 30, 31)
static void vhist(void)
{
    const uint8_t *p = a;
    uint16_t *o = hist;
    __asm__ volatile(HX_ALL(HX_ZERO)
                     "loop0(1f, #%[n])\n"
                     "1: { v0.tmp = vmem(%[p]++#1); vhist }:endloop0\n"
                     HX_ALL(HX_STORE)
                     : [p] "+r"(p), [o] "+r"(o)
                     : [n] "i"(N / 128)
                     : "memory", "lc0", "sa0", HX_ALLV);
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
static uint16_t h16(const uint8_t *p, int k)
{
    return (uint16_t)(p[2 * k] | p[2 * k + 1] << 8);
}
static void put16(uint8_t *p, int k, uint16_t v)
{
    p[2 * k] = (uint8_t)v;
    p[2 * k + 1] = (uint8_t)(v >> 8);
}
static void lookup(void)
{
    for (int k = 0; k < N / 2; k++)
        put16(out, k, table[h16(a, k) & 511]);
}
static void scatter(int r)
{
    for (int v = 0; v < N / 128; v++)
        for (int k = 0; k < 64; k++)
            hist[64 * v + ((37 * k + r) & 63)] = h16(a + 128 * v, k);
    for (int k = 0; k < N / 2; k++)
        hist[h16(a, k) & 255] = (uint16_t)(hist[h16(a, k) & 255] + h16(b, k));
}
static void vhist(void)
{
    memset(hist, 0, sizeof hist);
    for (int i = 0; i < N; i++) {
        int k = i % 128, v = a[i] >> 3;
        hist[64 * v + 8 * (k / 16) + (a[i] & 7)]++;
    }
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
        for (int k = 0; k < 512; k++)
            table[k] = (uint16_t)(rnd() >> 4);
        lookup();
        printf("round %d lookup %08x\n", round, (unsigned)checksum(out, N));
        memset(hist, 0, sizeof hist);
        scatter(round);
        printf("round %d scatter %08x\n", round, (unsigned)checksum((uint8_t *)hist, sizeof hist));
        vhist();
        printf("round %d vhist %08x\n", round, (unsigned)checksum((uint8_t *)hist, sizeof hist));
    }
    printf("ok\n");
    return 0;
}
