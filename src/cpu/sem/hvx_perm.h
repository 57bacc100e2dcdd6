// SPDX-License-Identifier: MIT
// Helpers of the HVX permute rows (src/cpu/isa/hvx_perm.isa): the shuffle/deal networks of
// vshuff/vdeal with a scalar control, the delta networks of vdelta/vrdelta, byte alignment
// (valign, vlalign, vror) and the table lookups vlut32/vlut16. Facts: Hexagon V6x/V73 HVX
// Programmer's Reference Manual, the pseudo-code of each instruction (128-byte mode:
// VWIDTH = 128 bytes); compared with qemu-hexagon 7.2 by tests/isa/hvx_exec.py.
#ifndef HEXSIM_CPU_SEM_HVX_PERM_H
#define HEXSIM_CPU_SEM_HVX_PERM_H

#include "hvx.h"

// vshuff/vdeal(Vu,Vv,Rt): the pair v[1]:v[0] starts as Vu:Vv; for each control bit `offset`
// of Rt that is set, byte k of the high vector (k without that bit) swaps with byte
// k + offset of the low one. vshuff takes the stages from offset 1 up, vdeal from 64 down.
static inline void hx_vshuffdeal(hx_vpair *p, uint32_t rt, int deal)
{
    for (unsigned s = 0; s < 7; s++) {
        unsigned offset = deal ? 64u >> s : 1u << s;
        if (!(rt & offset))
            continue;
        for (unsigned k = 0; k < HX_VBYTES; k++) {
            if (k & offset)
                continue;
            uint8_t t = p->v[1].ub[k];
            p->v[1].ub[k] = p->v[0].ub[k + offset];
            p->v[0].ub[k + offset] = t;
        }
    }
}

// vdelta (stages offset 64 down to 1) and vrdelta (1 up to 64): at each stage output byte k
// takes byte k ^ offset of the previous stage when bit `offset` of control byte k is set.
static inline void hx_vdelta(hx_vec *d, const hx_vec *u, const hx_vec *ctl, int reverse)
{
    hx_vec cur = *u;
    for (unsigned s = 0; s < 7; s++) {
        unsigned offset = reverse ? 1u << s : 64u >> s;
        for (unsigned k = 0; k < HX_VBYTES; k++)
            d->ub[k] = (ctl->ub[k] & offset) ? cur.ub[k ^ offset] : cur.ub[k];
        cur = *d;
    }
}

// valign: byte i of the result is byte i + shift of the 256-byte concatenation Vu:Vv (Vv
// the low half); shift 128 gives Vu.
static inline void hx_valign(hx_vec *d, const hx_vec *u, const hx_vec *v, unsigned shift)
{
    for (unsigned i = 0; i < HX_VBYTES; i++)
        d->ub[i] = i + shift >= HX_VBYTES ? u->ub[i + shift - HX_VBYTES] : v->ub[i + shift];
}

// vlut32: each byte of Vu indexes a 32-entry byte table in Vv; the table is the even
// (oddhalf 0) or odd bytes of Vv's halfwords, and a byte whose bits 7:5 differ from the
// segment number (matchval) gives 0, unless `nomatch` (bits 7:5 replaced by it); `acc` ORs.
static inline void hx_vlut32(hx_vec *d, const hx_vec *u, const hx_vec *v, uint32_t rt,
                             int nomatch, int acc)
{
    unsigned matchval = rt & 7, oddhalf = (rt >> 1) & 1;
    for (unsigned i = 0; i < HX_VBYTES; i++) {
        unsigned idx = u->ub[i];
        if (nomatch)
            idx = (idx & 0x1f) | (matchval << 5);
        uint8_t r = (idx & 0xe0) == (matchval << 5) ? v->ub[2 * (idx % 64) + oddhalf] : 0;
        d->ub[i] = acc ? (uint8_t)(d->ub[i] | r) : r;
    }
}

// vlut16: the even bytes of Vu's halfwords give the low vector of the pair, the odd bytes the
// high one; each indexes a 16-entry halfword table (the even or odd halfwords of Vv's words),
// bits 7:4 matched against matchval as for vlut32.
static inline void hx_vlut16(hx_vpair *d, const hx_vec *u, const hx_vec *v, uint32_t rt,
                             int nomatch, int acc)
{
    unsigned matchval = rt & 15, oddhalf = (rt >> 1) & 1;
    for (unsigned i = 0; i < HX_VBYTES / 2; i++) {
        for (unsigned h = 0; h < 2; h++) {
            unsigned idx = u->ub[2 * i + h];
            if (nomatch)
                idx = (idx & 0x0f) | (matchval << 4);
            uint16_t r = (idx & 0xf0) == (matchval << 4) ? v->uh[2 * (idx % 32) + oddhalf] : 0;
            d->v[h].uh[i] = acc ? (uint16_t)(d->v[h].uh[i] | r) : r;
        }
    }
}

// vasrinto, one word lane: Vu's word as the high half of a 64-bit value is shifted by the
// signed 7-bit amount c in the low bits of Vv (right, arithmetically, for c >= 0; left for
// c < 0) into the pair's lane hi:lo; the 32-bit window [-c, 32 - c) that the shifted word
// leaves free (clipped to the 64 bits) keeps the bits of the 64-bit value lo:lo (the low
// word twice). Described from the PRM's text; the details (7-bit amount, the window, the
// replicated low word) were measured on qemu-hexagon 7.2 (tests/isa/hvx_exec.py compares them).
static inline uint64_t hx_vmask64(int n)
{
    return n <= 0 ? 0 : n >= 64 ? ~0ull : (1ull << n) - 1;
}
static inline void hx_vasrinto(uint32_t *hi, uint32_t *lo, uint32_t u, uint32_t v)
{
    int c = (int)(v & 0x7f);
    if (c >= 64)
        c -= 128;
    int64_t t = (int64_t)((uint64_t)u << 32);
    uint64_t r = c >= 0 ? (uint64_t)(t >> c) : c <= -64 ? 0 : (uint64_t)t << -c;
    uint64_t win = hx_vmask64(32 - c) & ~hx_vmask64(-c);
    uint64_t keep = (uint64_t)*lo << 32 | *lo;
    r |= keep & win;
    *hi = (uint32_t)(r >> 32);
    *lo = (uint32_t)r;
}

#endif
