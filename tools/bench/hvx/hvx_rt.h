/* SPDX-License-Identifier: MIT
 * Helpers of the HVX benchmark programs (tools/bench/hvx, 128-byte vectors, built with
 * clang-16 -mhvx -mhvx-length=128b; bench.py): the freestanding runtime of the scalar set
 * (../progs/rt.h), a seeded generator, an FNV-1a checksum, and the line each program prints:
 * its checksum and whether its scalar check (a reference computed by plain C loops marked
 * SCALAR, not vectorized, on part of the data) agreed. */
#ifndef BENCH_HVX_RT_H
#define BENCH_HVX_RT_H
#include "rt.h"
#include <hexagon_types.h>
#include <hvx_hexagon_protos.h>

#define VB 128   /* vector bytes */
/* scalar reference loops: `SCALAR for (...)` is not vectorized */
#define SCALAR _Pragma("clang loop vectorize(disable) interleave(disable)")

static u32 rng_state = 2463534242u;
static u32 rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 17;
    rng_state ^= rng_state << 5;
    return rng_state;
}
static u32 fnv(u32 h, const void *p, u32 n)
{
    const unsigned char *b = p;
    for (u32 i = 0; i < n; i++)
        h = (h ^ b[i]) * 16777619u;
    return h;
}
static int report(const char *name, u32 sum, int ok)
{
    put_str(name);
    put_str(" sum=");
    put_hex(sum);
    put_str(ok ? " check=ok\n" : " check=FAILED\n");
    return ok ? 0 : 1;
}
#endif
