// SPDX-License-Identifier: MIT
// Lane helpers of the HVX ALU group (src/cpu/isa/hvx_alu.isa): saturating add/subtract of
// any lane type (mixed ones too: vaddububb_sat adds a signed byte to an unsigned one),
// averages (vavg: (u + v) >> 1, :rnd adds 1 first; vnavg: (u - v) >> 1, computed wide so no
// intermediate wraps), min/max, the packing saturations (vsat: the lanes of Vv go to the
// even, narrower lanes, those of Vu to the odd ones) and the even/odd shuffles. Facts:
// Hexagon V6x/V73 HVX Programmer's Reference Manual, "HVX ALU" (per-instruction behaviour);
// checked against qemu-hexagon 7.2 by tests/isa/hvx_exec.py.
#ifndef HEXSIM_CPU_SEM_HVX_ALU_H
#define HEXSIM_CPU_SEM_HVX_ALU_H

#include <stdint.h>

#include "hvx.h"
#include "hvx_mpy.h"

// element i of d (`size` bytes) set to r saturated to the signed (s) or unsigned range
static inline void hx_vsetsat(hx_vec *d, unsigned size, int s, unsigned i, int64_t r)
{
    unsigned bits = 8 * size;
    int64_t lo = s ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t hi = s ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    hx_vset(d, size, i, r < lo ? lo : r > hi ? hi : r);
}

// d = sat(u +/- v) lane by lane; su, sv, sd: the signedness of u's, v's and d's lanes
static inline void hx_vaddsat(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned size,
                              int su, int sv, int sd, int sub)
{
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        int64_t a = hx_vel(u, size, su, i), b = hx_vel(v, size, sv, i);
        hx_vsetsat(d, size, sd, i, sub ? a - b : a + b);
    }
}
static inline void hx_vaddsat_dv(hx_vpair *d, const hx_vpair *u, const hx_vpair *v,
                                 unsigned size, int s, int sub)
{
    for (unsigned k = 0; k < 2; k++)
        hx_vaddsat(&d->v[k], &u->v[k], &v->v[k], size, s, s, s, sub);
}

// vavg (neg 0: (u + v + rnd) >> 1) and vnavg (neg 1: (u - v) >> 1)
static inline void hx_vavg(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned size, int s,
                           int neg, int rnd)
{
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        int64_t a = hx_vel(u, size, s, i), b = hx_vel(v, size, s, i);
        hx_vset(d, size, i, ((neg ? a - b : a + b) + rnd) >> 1);
    }
}

// vmax (max 1) and vmin (max 0)
static inline void hx_vminmax(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned size,
                              int s, int max)
{
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        int64_t a = hx_vel(u, size, s, i), b = hx_vel(v, size, s, i);
        hx_vset(d, size, i, (a > b) == (max != 0) ? a : b);
    }
}

// vabs: |u| modulo the lane width, or saturated (sat)
static inline void hx_vabs(hx_vec *d, const hx_vec *u, unsigned size, int sat)
{
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        int64_t a = hx_vel(u, size, 1, i);
        if (sat)
            hx_vsetsat(d, size, 1, i, a < 0 ? -a : a);
        else
            hx_vset(d, size, i, a < 0 ? -a : a);
    }
}

// vsat: lane i of u and v (`size` bytes, signed su) saturated to half their width (signed
// sd), v's to narrow lane 2i, u's to 2i + 1
static inline void hx_vsatpack(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned size,
                               int su, int sd)
{
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        hx_vsetsat(d, size / 2, sd, 2 * i, hx_vel(v, size, su, i));
        hx_vsetsat(d, size / 2, sd, 2 * i + 1, hx_vel(u, size, su, i));
    }
}

// vshuffe (odd 0) / vshuffo (odd 1): narrow lanes (`size` bytes) 2i of d from v's lane
// 2i + odd, 2i + 1 from u's
static inline void hx_vshuffeo(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned size,
                               int odd)
{
    for (unsigned i = 0; i < HX_VBYTES / size / 2; i++) {
        hx_vset(d, size, 2 * i, hx_vel(v, size, 0, 2 * i + (odd != 0)));
        hx_vset(d, size, 2 * i + 1, hx_vel(u, size, 0, 2 * i + (odd != 0)));
    }
}

// vsxt/vzxt: lane 2i of u widened (signed s) into lane i of d's low register, 2i + 1 into the
// high one
static inline void hx_vxt(hx_vpair *d, const hx_vec *u, unsigned size, int s)
{
    for (unsigned i = 0; i < HX_VBYTES / size / 2; i++)
        for (unsigned k = 0; k < 2; k++)
            hx_vset(&d->v[k], 2 * size, i, hx_vel(u, size, s, 2 * i + k));
}

#endif
