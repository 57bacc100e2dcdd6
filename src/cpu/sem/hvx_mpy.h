// SPDX-License-Identifier: MIT
// Lane helpers of the HVX multiply group (src/cpu/isa/hvx_mpy.isa): widening multiplies and
// add/subtract (each lane j of the inputs gives lane j/2 of the pair's register j&1), the
// dual ("dv") sliding-window dot products of vdmpy/vtmpy, and the #u1 windows of
// vrmpy/vrsad. Facts: Hexagon V6x/V73 HVX Programmer's Reference Manual, "HVX multiply"
// (per-instruction behaviour); checked against qemu-hexagon 7.2 by tests/isa/hvx_exec.py.
// A scalar operand Rt used lane by lane is splatted first (hx_vsplatw): the manual's
// Rt.b[j % 4] / Rt.h[j % 2] is then lane j of the splat, the same as a vector operand's.
#ifndef HEXSIM_CPU_SEM_HVX_MPY_H
#define HEXSIM_CPU_SEM_HVX_MPY_H

#include <stdint.h>

#include "hvx.h"

// element i of v, `size` bytes (1, 2, 4), signed (s) or not
static inline int64_t hx_vel(const hx_vec *v, unsigned size, int s, unsigned i)
{
    switch (size) {
    case 1: return s ? v->b[i] : v->ub[i];
    case 2: return s ? v->h[i] : v->uh[i];
    default: return s ? (int64_t)v->w[i] : (int64_t)v->uw[i];
    }
}
// sets element i of v (`size` bytes) to val modulo 2^(8*size)
static inline void hx_vset(hx_vec *v, unsigned size, unsigned i, int64_t val)
{
    switch (size) {
    case 1: v->ub[i] = (uint8_t)val; break;
    case 2: v->uh[i] = (uint16_t)val; break;
    default: v->uw[i] = (uint32_t)val; break;
    }
}
// a vector with the 32-bit r in every word
static inline hx_vec hx_vsplatw(uint32_t r)
{
    hx_vec v;
    for (unsigned i = 0; i < HX_VBYTES / 4; i++)
        v.uw[i] = r;
    return v;
}

enum { HX_VW_MUL, HX_VW_ADD, HX_VW_SUB };
// Widening lane operation: lane j of u and v (`size` bytes; us, vs: signed) multiplied, added
// or subtracted (op), into lane j/2 (2*size bytes) of d->v[j & 1], added to it if acc (modulo
// the lane width).
static inline void hx_vwiden(hx_vpair *d, const hx_vec *u, int us, const hx_vec *v, int vs,
                             unsigned size, int op, int acc)
{
    // (register by register, so that each inner loop writes consecutive lanes: the host
    // compiler vectorizes it)
    for (unsigned k = 0; k < 2; k++) {
        hx_vec *o = &d->v[k];
        for (unsigned i = 0; i < HX_VBYTES / size / 2; i++) {
            int64_t a = hx_vel(u, size, us, 2 * i + k), b = hx_vel(v, size, vs, 2 * i + k);
            int64_t r = op == HX_VW_MUL ? a * b : op == HX_VW_ADD ? a + b : a - b;
            if (acc)
                r += hx_vel(o, 2 * size, 0, i);
            hx_vset(o, 2 * size, i, r);
        }
    }
}

// The dual windows of vdmpy(Vuu,Rt) and vtmpy(Vuu,Rt): output lane i (2*size bytes) sees the
// input stream s = u0[2i], u0[2i+1], u1[2i], u1[2i+1] (lanes of `size` bytes, us: signed);
// d->v[k] lane i = s[k] * r.b[2i] + s[k+1] * r.b[2i+1] (+ s[k+2] if tap3), r the splatted
// scalar (signed bytes), added to d if acc.
static inline void hx_vdmpy_dv(hx_vpair *d, const hx_vpair *uu, int us, unsigned size,
                               uint32_t rt, int tap3, int acc)
{
    hx_vec r = hx_vsplatw(rt);
    for (unsigned i = 0; i < HX_VBYTES / (2 * size); i++) {
        int64_t s[4] = {hx_vel(&uu->v[0], size, us, 2 * i), hx_vel(&uu->v[0], size, us, 2 * i + 1),
                        hx_vel(&uu->v[1], size, us, 2 * i), hx_vel(&uu->v[1], size, us, 2 * i + 1)};
        for (unsigned k = 0; k < 2; k++) {
            int64_t v = s[k] * r.b[2 * i] + s[k + 1] * r.b[2 * i + 1] + (tap3 ? s[k + 2] : 0);
            if (acc)
                v += hx_vel(&d->v[k], 2 * size, 0, i);
            hx_vset(&d->v[k], 2 * size, i, v);
        }
    }
}

// The windows of vrmpy(Vuu,Rt,#u1) and vrsad(Vuu,Rt,#u1): word i sees the byte stream
// s = u0.ub[4i..4i+3], u1.ub[4i..4i+3]; d->v[k].w[i] = sum over j < 4 of s[2k+u+j] op Rt.b[j]
// where op multiplies (Rt's bytes signed if rs) or, for sad, takes |s - Rt.ub[j]|; added to d
// if acc (modulo 2^32).
static inline void hx_vrmpy_win(hx_vpair *d, const hx_vpair *uu, uint32_t rt, int rs, unsigned u,
                                int sad, int acc)
{
    for (unsigned i = 0; i < HX_VBYTES / 4; i++) {
        int32_t s[8];
        for (unsigned j = 0; j < 4; j++) {
            s[j] = uu->v[0].ub[4 * i + j];
            s[4 + j] = uu->v[1].ub[4 * i + j];
        }
        for (unsigned k = 0; k < 2; k++) {
            int32_t sum = 0;
            for (unsigned j = 0; j < 4; j++) {
                int32_t a = s[2 * k + (u & 1) + j];
                int32_t b = rs ? (int8_t)(rt >> (8 * j)) : (uint8_t)(rt >> (8 * j));
                sum += sad ? (a > b ? a - b : b - a) : a * b;
            }
            d->v[k].uw[i] = (acc ? d->v[k].uw[i] : 0) + (uint32_t)sum;
        }
    }
}

// v6mpy (V68): per word lane i, sums of products of unsigned bytes of Vuu with 10-bit signed
// coefficients of Vvv (coefficient j of register r: byte j of Vvv.v[r].uw[i] with bits
// 2j+1:2j of its byte 3 above it). Of the words a = Vuu.v[0].uw[i], b = Vuu.v[1].uw[i], the
// three bytes X and Y the product sums use depend on the direction (h, v) and on #u2 bit 1;
// #u2 bit 0 says which output register gets the single sum and which the double one:
//   even: d1 = Y.c1 + X.c0, d0 = X.c1;  odd: d1 = Y.c0, d0 = Y.c1 + X.c0
// (PRM V68 "v6mpy"; the byte choices below are the PRM table regrouped: tests/isa checks the
// table's literal form in tests/isa/hvx_models.py).
static inline int32_t hx_v6coef(uint32_t w, unsigned j)
{
    int32_t c = (int32_t)((((w >> (24 + 2 * j)) & 3) << 8) | ((w >> (8 * j)) & 0xff));
    return c >= 512 ? c - 1024 : c;
}
static inline void hx_v6mpy(hx_vpair *d, const hx_vpair *uu, const hx_vpair *vv, unsigned u,
                            int horiz, int acc)
{
    // byte numbers of X and Y: 0-3 the low register's word, 4-7 the high one's
    static const uint8_t sel[2][2][2][3] = {
        {{{1, 4, 5}, {3, 6, 7}}, {{0, 1, 4}, {2, 3, 6}}},    // v: u/2 = 0, 1
        {{{6, 4, 2}, {7, 5, 3}}, {{4, 2, 0}, {5, 3, 1}}},    // h
    };
    for (unsigned i = 0; i < HX_VBYTES / 4; i++) {
        int32_t c[2][3], x = 0, y = 0, x1 = 0, y1 = 0;
        for (unsigned r = 0; r < 2; r++)
            for (unsigned j = 0; j < 3; j++)
                c[r][j] = hx_v6coef(vv->v[r].uw[i], j);
        const uint8_t *xs = sel[horiz][(u >> 1) & 1][0], *ys = sel[horiz][(u >> 1) & 1][1];
        for (unsigned j = 0; j < 3; j++) {
            int32_t bx = uu->v[xs[j] >> 2].ub[4 * i + (xs[j] & 3)];
            int32_t by = uu->v[ys[j] >> 2].ub[4 * i + (ys[j] & 3)];
            x += bx * c[0][j];    // X.c0
            x1 += bx * c[1][j];   // X.c1
            y += by * c[0][j];    // Y.c0
            y1 += by * c[1][j];   // Y.c1
        }
        int32_t d1 = (u & 1) ? y : y1 + x, d0 = (u & 1) ? y1 + x : x1;
        d->v[1].uw[i] = (acc ? d->v[1].uw[i] : 0) + (uint32_t)d1;
        d->v[0].uw[i] = (acc ? d->v[0].uw[i] : 0) + (uint32_t)d0;
    }
}

#endif
