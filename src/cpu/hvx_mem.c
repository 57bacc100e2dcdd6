// SPDX-License-Identifier: MIT
// HVX vector memory accesses and the commit of the staged HVX state (sem/hvx.h). Facts: HVX
// Programmer's Reference Manual, "Vector memory": vmem ignores the low 7 address bits (the
// access is the aligned 128-byte block); vmemu reads or writes 128 bytes at any address, so
// two aligned blocks when it is unaligned; a byte-enabled store (if (Qv4) vmem) writes only
// the bytes whose predicate bit is set; loads see memory as it was before the packet (and
// a scalar store staged earlier in it, as scalar loads do); stores are written at the
// commit, after the packet's scalar stores, and a packet that faults writes nothing.
#include <string.h>

#include "exec_step.h"
#include "hexsim/mem.h"
#include "sem/hvx.h"

void hx_vld(struct hx_exec *x, uint32_t ea, hx_vec *out)
{
    ea &= ~(uint32_t)(HX_VBYTES - 1);
    // the block is in one page: where the loads' TLB has that page (and nothing in the
    // packet forces the slow path: hx_ld), one copy reads what the 8-byte loads would
    if (__builtin_expect(!x->mem_slow, 1)) {
        const struct hexsim_mem_tlb *e =
            &x->rtlb[(ea >> HEXSIM_PAGE_SHIFT) & (HEXSIM_MEM_TLB_SIZE - 1)];
        if (__builtin_expect(e->tag == hexsim_mem_tlb_key(ea, 8), 1)) {
            memcpy(out->ub, e->data + (ea & (HEXSIM_PAGE_SIZE - 1)), HX_VBYTES);
            return;
        }
    }
    for (unsigned i = 0; i < HX_VBYTES / 8; i++)
        out->ud[i] = hx_ld(x, ea + 8 * i, 8);
}

void hx_vldu(struct hx_exec *x, uint32_t ea, hx_vec *out)
{
    unsigned off = ea & (HX_VBYTES - 1);
    if (!off) {
        hx_vld(x, ea, out);
        return;
    }
    hx_vec lo, hi;
    hx_vld(x, ea, &lo);
    hx_vld(x, ea + HX_VBYTES, &hi);
    memcpy(out->ub, lo.ub + off, HX_VBYTES - off);
    memcpy(out->ub + HX_VBYTES - off, hi.ub, off);
}

// Checks that the aligned block at `block` may be written (recording a fault if not).
static bool block_writable(struct hx_exec *x, uint32_t block)
{
    struct hexsim_xlat_result r;
    int f = hx_check_access(x, block, HX_VBYTES, HEXSIM_PROT_W, &r);
    if (f) {
        hx_mem_fault(x, HX_EV_FAULT_WRITE, block, f);
        return false;
    }
    return true;
}

// Stages the store of v at ea (en: byte enables, NULL: all); ea may be unaligned.
static void stage(struct hx_exec *x, uint32_t ea, const hx_vec *v, const hx_qreg *en)
{
    if (x->ev->kind >= HX_EV_FAULT_READ)
        return;
    uint32_t block = ea & ~(uint32_t)(HX_VBYTES - 1);
    if (!block_writable(x, block) ||
        ((ea & (HX_VBYTES - 1)) && !block_writable(x, block + HX_VBYTES)))
        return;
    x->vst.used = true;
    x->vst.addr = ea;
    x->vst.data = *v;
    if (en)
        x->vst.en = *en;
    else
        memset(&x->vst.en, 0xff, sizeof(x->vst.en));
    hx_hvx_staged(x);
}

void hx_vst(struct hx_exec *x, uint32_t ea, const hx_vec *v, const hx_qreg *en)
{
    stage(x, ea & ~(uint32_t)(HX_VBYTES - 1), v, en);
}

void hx_vstu(struct hx_exec *x, uint32_t ea, const hx_vec *v, const hx_qreg *en)
{
    stage(x, ea, v, en);
}

// Writes a byte of the staged store (enabled) to guest memory in system mode: RAM through its
// page, a device through the MMIO callback. The blocks were checked when staged.
static void commit_byte(struct hx_exec *x, uint32_t a, uint8_t byte)
{
    struct hexsim_xlat_result r = { NULL, 0 };
    if (hx_check_access(x, a, 1, HEXSIM_PROT_W, &r))
        return;
    if (r.page)
        hexsim_page_store(x->mem, r.page, a & (HEXSIM_PAGE_SIZE - 1), 1, byte);
    else
        x->xlat->mmio_write(x->xlat->ctx, r.pa, 1, byte);
}

static void commit_store(struct hx_exec *x)
{
    const struct hx_vstore *s = &x->vst;
    if (x->caches)
        x->tcost += hexsim_cache_access(x->caches, &x->cpu->tm.st, s->addr, 8, false);
    if (!x->xlat) {   // user mode: RAM pages, looked up once for the bytes each one holds
        for (unsigned i = 0; i < HX_VBYTES;) {
            uint32_t a = s->addr + i;
            unsigned n = HEXSIM_PAGE_SIZE - (a & (HEXSIM_PAGE_SIZE - 1));
            unsigned end = n < HX_VBYTES - i ? i + n : HX_VBYTES;
            struct hexsim_page *p = hexsim_mem_page(x->mem, a);
            for (; p && i < end; i++) {
                uint32_t off = (s->addr + i) & (HEXSIM_PAGE_SIZE - 1);
                // eight enabled bytes at a doubleword of the store: one store
                if (!(i & 7) && i + 8 <= end && s->en.b[i >> 3] == 0xff) {
                    uint64_t v;
                    memcpy(&v, s->data.ub + i, 8);
                    hexsim_page_store(x->mem, p, off, 8, v);
                    i += 7;
                } else if (hx_qbit(&s->en, i)) {
                    hexsim_page_store(x->mem, p, off, 1, s->data.ub[i]);
                }
            }
            i = end;
        }
        return;
    }
    for (unsigned i = 0; i < HX_VBYTES; i++)
        if (hx_qbit(&s->en, i))
            commit_byte(x, s->addr + i, s->data.ub[i]);
}

void hx_hvx_commit(struct hx_exec *x)
{
    struct hexsim_hvx *h = &x->cpu->hvx;
    if (x->vst.used)
        commit_store(x);
    for (uint32_t m = x->vmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        h->v[r] = x->new_v[r];
    }
    for (unsigned m = x->qmask; m; m &= m - 1) {
        unsigned r = (unsigned)__builtin_ctz(m);
        h->q[r] = x->new_q[r];
    }
}
