// SPDX-License-Identifier: MIT
// Helpers of the HVX histogram rows (src/cpu/isa/hvx_misc.isa: vhist, vwhist128, vwhist256).
// Facts: Hexagon V6x/V73 HVX Programmer's Reference Manual, "Histogram" and "Weighted
// histogram": the input is the vector the packet's .tmp load loaded (it never reaches the
// register file); the 32 vector registers hold the bins, as 8 slices of 128 bits (slice s
// counts input bytes 16s..16s+15). vhist: byte value b adds 1 to halfword 8s + (b & 7) of
// v(b >> 3). vwhist256: the even byte b of halfword i (slice i / 8) adds the odd byte (the
// weight) to halfword 8s + (b & 7) of v(b >> 3) (:sat: saturated to 0xffff); vwhist128:
// to word 4s + ((b >> 1) & 3), and with #u1 only when b & 1 equals it. A Q-predicated form
// counts the byte (vhist) or halfword (Q bit 2i) whose predicate bit is set. Bins wrap.
// The bins are read as they were before the packet; with no .tmp load in the packet (which
// llvm-mc-16 accepts) there is no input and nothing changes.
#ifndef HEXSIM_CPU_SEM_HVX_HIST_H
#define HEXSIM_CPU_SEM_HVX_HIST_H

#include "hvx.h"

enum { HX_HIST_B, HX_HIST_W256, HX_HIST_W256_SAT, HX_HIST_W128 };

// kind: one of the above; q: the predicate (NULL: every lane); sel: vwhist128(#u1)'s bit
// (-1: none).
static inline void hx_vhist(struct hx_exec *x, int kind, const hx_qreg *q, int sel)
{
    if (x->vfwd_last < 0)
        return;
    const hx_vec *in = &x->vfwd[x->vfwd_last];
    hx_vec bins[32];
    uint32_t touched = 0;
    if (kind == HX_HIST_B) {
        for (unsigned k = 0; k < HX_VBYTES; k++) {
            unsigned b = in->ub[k], r = b >> 3;
            if (q && !hx_qbit(q, k))
                continue;
            if (!(touched >> r & 1))
                bins[r] = x->cpu->hvx.v[r];
            touched |= 1u << r;
            bins[r].uh[(k / 16) * 8 + (b & 7)]++;
        }
    } else {
        for (unsigned i = 0; i < HX_VBYTES / 2; i++) {
            unsigned b = in->ub[2 * i], w = in->ub[2 * i + 1], r = b >> 3;
            if ((q && !hx_qbit(q, 2 * i)) || (sel >= 0 && (b & 1) != (unsigned)sel))
                continue;
            if (!(touched >> r & 1))
                bins[r] = x->cpu->hvx.v[r];
            touched |= 1u << r;
            if (kind == HX_HIST_W128) {
                bins[r].uw[(i / 8) * 4 + ((b >> 1) & 3)] += w;
            } else {
                uint16_t *bin = &bins[r].uh[(i / 8) * 8 + (b & 7)];
                unsigned sum = *bin + w;
                *bin = (uint16_t)(kind == HX_HIST_W256_SAT && sum > 0xffff ? 0xffff : sum);
            }
        }
    }
    for (uint32_t m = touched; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        hx_wv(x, r, &bins[r]);
    }
}

#endif
