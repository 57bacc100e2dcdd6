// SPDX-License-Identifier: MIT
// HVX state access for the semantics (src/cpu/isa/hvx_*.isa; conventions in
// src/cpu/isa/README.md, "HVX"): reads of the vector registers and predicates as they were
// before the packet (or, for the register a .cur/.tmp load of this packet wrote, that load's
// vector: HVX PRM "Vector load: .cur and .tmp"), staged writes committed at the end of the
// packet, the vector new-value operand, and vector loads and stores (aligned vmem: the
// address rounded down to 128 bytes; unaligned vmemu). Lane helpers for the vector rows.
#ifndef HEXSIM_CPU_SEM_HVX_H
#define HEXSIM_CPU_SEM_HVX_H

#include <string.h>

#include "sem.h"

static inline void hx_hvx_staged(struct hx_exec *x)
{
    x->hvx = 1;
    x->full = true;
    HX_MARK(full);
}

// ---- vector registers
static inline const hx_vec *hx_vr(const struct hx_exec *x, unsigned n)
{
    n &= 31;
    return (x->vfwd_mask >> n & 1) ? &x->vfwd[n] : &x->cpu->hvx.v[n];
}
static inline void hx_vrr(const struct hx_exec *x, unsigned n, hx_vpair *out)
{
    out->v[0] = *hx_vr(x, hx_vpair_lo(n));
    out->v[1] = *hx_vr(x, hx_vpair_hi(n));
}
static inline void hx_wv(struct hx_exec *x, unsigned n, const hx_vec *v)
{
    n &= 31;
    x->new_v[n] = *v;
    x->vmask |= 1u << n;
    hx_hvx_staged(x);
}
static inline void hx_wvv(struct hx_exec *x, unsigned n, const hx_vpair *v)
{
    hx_wv(x, hx_vpair_lo(n), &v->v[0]);
    hx_wv(x, hx_vpair_hi(n), &v->v[1]);
}
// The value a new-value store's operand names (PRM: Os8.new): what the packet writes to
// register n (its producer ran before it), else its value; n HX_VTMP (the decoder's number
// for a gather producer, decode.h): the gathered vector, of which the store writes only the
// bytes the gather loaded (hx_vnew_en: the byte enables, NULL: every byte); n with
// HX_VNEW_TMP (a .tmp producer): the temporary it gave register n & 31 (hx_vtmp).
static inline const hx_vec *hx_vnew(const struct hx_exec *x, unsigned n)
{
    if (n == HX_VTMP)
        return &x->vgath;
    if (n & HX_VNEW_TMP)
        return &x->vfwd[n & 31];
    n &= 31;
    return (x->vmask >> n & 1) ? &x->new_v[n] : hx_vr(x, n);
}
static inline const hx_qreg *hx_vnew_en(const struct hx_exec *x, unsigned n)
{
    return n == HX_VTMP ? &x->vgath_en : NULL;
}
// A .cur load: the loaded vector is written to vn and read by the packet's other
// instructions as vn; a .tmp load, or the V69 `Vd.tmp = Vu` and `Vdd.tmp = vcombine(Vu,Vv)`:
// only read by them, vn keeps its value (the decoder runs these first: decode.c).
static inline void hx_vfwd(struct hx_exec *x, unsigned n, const hx_vec *v)
{
    n &= 31;
    x->vfwd[n] = *v;
    x->vfwd_mask |= 1u << n;
    x->vfwd_last = (int8_t)n;
}
static inline void hx_vcur(struct hx_exec *x, unsigned n, const hx_vec *v)
{
    hx_vfwd(x, n, v);
    hx_wv(x, n, v);
}
static inline void hx_vtmp(struct hx_exec *x, unsigned n, const hx_vec *v)
{
    hx_vfwd(x, n, v);
    hx_hvx_staged(x);
}
static inline void hx_vvtmp(struct hx_exec *x, unsigned n, const hx_vpair *v)
{
    hx_vtmp(x, hx_vpair_lo(n), &v->v[0]);
    hx_vtmp(x, hx_vpair_hi(n), &v->v[1]);
}

// ---- vector predicates
static inline const hx_qreg *hx_qr(const struct hx_exec *x, unsigned n)
{
    return &x->cpu->hvx.q[n & 3];
}
static inline void hx_wq(struct hx_exec *x, unsigned n, const hx_qreg *q)
{
    n &= 3;
    x->new_q[n] = *q;
    x->qmask |= (uint8_t)(1u << n);
    hx_hvx_staged(x);
}
// bit i of a predicate (byte lane i), and setting it
static inline unsigned hx_qbit(const hx_qreg *q, unsigned i)
{
    return (q->b[(i >> 3) & 15] >> (i & 7)) & 1;
}
static inline void hx_qset(hx_qreg *q, unsigned i, unsigned v)
{
    uint8_t m = (uint8_t)(1u << (i & 7));
    q->b[(i >> 3) & 15] = (uint8_t)(v ? q->b[(i >> 3) & 15] | m : q->b[(i >> 3) & 15] & ~m);
}
// A lane of `size` bytes (1, 2, 4) at lane index i is true in a predicate written by a
// compare of that lane size when its first byte's bit is set (the compare sets all of them).
static inline void hx_qset_lane(hx_qreg *q, unsigned i, unsigned size, unsigned v)
{
    for (unsigned k = 0; k < size; k++)
        hx_qset(q, i * size + k, v);
}

// The result c of a compare of lane i (`size` bytes) into the predicate's bits of the lane's
// bytes: op 0 sets them, 1 ANDs, 2 ORs, 3 XORs (Qd4 =, Qx4 &=, |=, ^= vcmp).
static inline void hx_qcmp(hx_qreg *q, unsigned i, unsigned size, unsigned op, unsigned c)
{
    for (unsigned k = i * size; k < (i + 1) * size; k++) {
        unsigned old = hx_qbit(q, k);
        hx_qset(q, k, op == 0 ? c : op == 1 ? (old & c) : op == 2 ? (old | c) : (old ^ c));
    }
}
// Whole predicates at once (the lane loops of the rows above vectorize on the host; bit by bit
// they would not): the predicate as byte masks, m->ub[i] 0xff where bit i is set, else 0
// (each predicate byte spread over eight: the multiply copies it into every byte, the AND
// keeps bit k in byte k, and adding 0x7f carries a set bit into the byte's bit 7, never out
// of the byte); and the predicate whose bit i is c[i] & 1 (the multiply gathers the low bits
// of eight bytes into the top byte, bit k from byte k).
static inline void hx_qexpand(const hx_qreg *q, hx_vec *m)
{
    for (unsigned j = 0; j < HX_VBYTES / 8; j++) {
        uint64_t t = (q->b[j] * 0x0101010101010101ull) & 0x8040201008040201ull;
        m->ud[j] = (((t + 0x7f7f7f7f7f7f7f7full) >> 7) & 0x0101010101010101ull) * 0xff;
    }
}
static inline hx_qreg hx_qpack(const uint8_t c[HX_VBYTES])
{
    hx_qreg q;
    for (unsigned j = 0; j < HX_VBYTES / 8; j++) {
        uint64_t v;
        memcpy(&v, c + 8 * j, 8);
        q.b[j] = (uint8_t)(((v & 0x0101010101010101ull) * 0x0102040810204080ull) >> 56);
    }
    return q;
}
// A row's compares at once: c[i] (0 or 1) the result of lane i of `size` bytes, into the
// predicate's bits of the lane's bytes as hx_qcmp's op says.
static inline void hx_qcmp_lanes(hx_qreg *q, const uint8_t *c, unsigned size, unsigned op)
{
    uint8_t e[HX_VBYTES];
    for (unsigned k = 0; k < HX_VBYTES; k++)
        e[k] = c[k / size];
    hx_qreg r = hx_qpack(e);
    for (unsigned k = 0; k < HX_VBYTES / 64; k++)
        q->d[k] = op == 0 ? r.d[k] : op == 1 ? (q->d[k] & r.d[k]) :
                  op == 2 ? (q->d[k] | r.d[k]) : (q->d[k] ^ r.d[k]);
}
static inline hx_qreg hx_qnot(const hx_qreg *q)
{
    hx_qreg r;
    for (unsigned k = 0; k < HX_VBYTES / 64; k++)
        r.d[k] = ~q->d[k];
    return r;
}

// ---- memory (hvx_mem.c): a fault is recorded as for scalar accesses (the packet commits
// nothing); the store is staged and written at the commit (after the scalar stores)
void hx_vld(struct hx_exec *x, uint32_t ea, hx_vec *out);    // vmem: ea & ~127
void hx_vldu(struct hx_exec *x, uint32_t ea, hx_vec *out);   // vmemu: any ea
// vmem store: ea & ~127; en NULL: every byte, else the bytes whose bit is set
void hx_vst(struct hx_exec *x, uint32_t ea, const hx_vec *v, const hx_qreg *en);
void hx_vstu(struct hx_exec *x, uint32_t ea, const hx_vec *v, const hx_qreg *en);
// vgather and vscatter (hvx_mem.c; "VTCM" there): elements of `size` bytes (2, 4), element
// i at byte offset off[i] from rt in the region rt..rt+mu; q: byte enables (NULL: all).
// A gather loads into x->vgath (vtmp); a scatter stages its writes (add: accumulates).
void hx_vgather(struct hx_exec *x, uint32_t rt, uint32_t mu, unsigned size,
                const uint32_t *off, const hx_qreg *q);
void hx_vscatter(struct hx_exec *x, uint32_t rt, uint32_t mu, unsigned size,
                 const uint32_t *off, const hx_vec *w, const hx_qreg *q, bool add);
// The element offsets of a gather or scatter: Vv.uh (64 halfword elements), Vv.uw (32
// words), or a pair Vvv.w for halfword elements (element 2j: Vvv.v[0].w[j], 2j + 1:
// Vvv.v[1].w[j]; PRM "Vector gather").
static inline void hx_voff_h(const hx_vec *v, uint32_t *off)
{
    for (unsigned i = 0; i < HX_VBYTES / 2; i++)
        off[i] = v->uh[i];
}
static inline void hx_voff_w(const hx_vec *v, uint32_t *off)
{
    for (unsigned i = 0; i < HX_VBYTES / 4; i++)
        off[i] = v->uw[i];
}
static inline void hx_voff_hw(const hx_vpair *v, uint32_t *off)
{
    for (unsigned i = 0; i < HX_VBYTES / 2; i++)
        off[i] = v->v[i & 1].uw[i >> 1];
}

// ---- lane arithmetic
static inline int8_t hx_vsatb(int32_t v) { return (int8_t)(v > 127 ? 127 : v < -128 ? -128 : v); }
static inline uint8_t hx_vsatub(int32_t v) { return (uint8_t)(v > 255 ? 255 : v < 0 ? 0 : v); }
static inline int16_t hx_vsath(int32_t v)
{
    return (int16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v);
}
static inline uint16_t hx_vsatuh(int32_t v) { return (uint16_t)(v > 65535 ? 65535 : v < 0 ? 0 : v); }
static inline int32_t hx_vsatw(int64_t v)
{
    return (int32_t)(v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : v);
}
static inline uint32_t hx_vsatuw(int64_t v)
{
    return (uint32_t)(v > (int64_t)UINT32_MAX ? UINT32_MAX : v < 0 ? 0 : v);
}

#endif
