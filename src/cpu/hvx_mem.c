// SPDX-License-Identifier: MIT
// HVX vector memory accesses and the commit of the staged HVX state (sem/hvx.h). Facts: HVX
// Programmer's Reference Manual, "Vector memory": vmem ignores the low 7 address bits (the
// access is the aligned 128-byte block); vmemu reads or writes 128 bytes at any address, so
// two aligned blocks when it is unaligned; a byte-enabled store (if (Qv4) vmem) writes only
// the bytes whose predicate bit is set; loads see memory as it was before the packet (and
// a scalar store staged earlier in it, as scalar loads do); stores are written at the
// commit, after the packet's scalar stores, and a packet that faults writes nothing.
//
// VTCM ("HVX local memory: VTCM", "Vector gather", "Vector scatter"): vgather copies
// elements (halfwords, words) from a region rt..rt+mu to the vtmp register, which the
// packet's `vmem(...) = vtmp.new` store writes to memory; vscatter writes (or adds, wrapping)
// the elements of a vector to the region. Element i is at byte offset off[i]; rt is
// aligned down and mu's low bits set to the element size; bytes past the region's end are
// dropped (an offset "must be positive": a negative word offset is far past the end), as
// are bytes whose predicate bit is clear; a gather's dropped bytes are not written by its
// store (the memory keeps them); a scatter-accumulate's element address is aligned down.
// Writes to one place are made in element order (the PRM leaves the order open). The PRM
// requires the region to be in VTCM, which "needs normal virtual to physical translation
// just like other memory" and whose size and place are implementation-defined: hexsim has
// no TCM, so any guest memory serves as VTCM (as in qemu-hexagon), with the permission and
// translation checks and faults of ordinary loads and stores, element by element. The region
// "cannot cross a page boundary" (PRM, "Vector gather", "Vector scatter"), a rule about the
// page that maps VTCM, and the PRM gives no consequence. System mode: the page is the one the
// guest's translation maps the region's base with (4 KiB to 16 MiB: xlat->page_last; the boot
// map is one mapping of RAM), and hexsim refuses a region that crosses it as a misaligned
// access of the region's base (the packet writes nothing; the misaligned-access exception).
// User mode has no VTCM and its 4 KiB pages are not the ones the rule means: there is no
// region rule, as in qemu-hexagon (whose own gather/scatter test relies on it), and a region
// in ordinary memory may cross any number of pages; each element still faults as a load or
// store would (an unmapped page: SIGSEGV). hexsim has no warning switch to report programs
// that rely on this.
#include <string.h>

#include "exec_step.h"
#include "hexsim/mem.h"
#include "sem/hvx.h"

void hx_vld(struct hx_exec *x, uint32_t ea, hx_vec *out)
{
    ea &= ~(uint32_t)(HX_VBYTES - 1);
    // the block is in one page: where the loads' TLB has that page (nothing in the packet
    // forces the slow path, hx_ld; no debugger log), one copy reads what the loads would
    if (__builtin_expect(!x->mem_slow && !x->trace, 1)) {
        const struct hexsim_mem_tlb *e =
            &x->rtlb[(ea >> HEXSIM_PAGE_SHIFT) & (HEXSIM_MEM_TLB_SIZE - 1)];
        if (__builtin_expect(e->tag == hexsim_mem_tlb_key(ea, 8), 1)) {
            memcpy(out->ub, e->data + (ea & (HEXSIM_PAGE_SIZE - 1)), HX_VBYTES);
            return;
        }
    }
    struct hexsim_exec_trace *t = x->trace;   // (the debugger's log: one 128-byte load)
    x->trace = NULL;
    for (unsigned i = 0; i < HX_VBYTES / 8; i++)
        out->ud[i] = hx_ld(x, ea + 8 * i, 8);
    x->trace = t;
    if (t)
        hx_trace_load(t, ea, HX_VBYTES);
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

// System mode: whether the region rt..rt+mu crosses the end of the guest page that maps rt;
// if so, the instruction faults. User mode (and a translation without page sizes): no rule.
static bool region_refused(struct hx_exec *x, uint32_t rt, uint32_t mu, int kind)
{
    if (!x->xlat || !x->xlat->page_last ||
        (uint64_t)rt + mu <= x->xlat->page_last(x->xlat->ctx, rt))
        return false;
    hx_mem_fault(x, kind, rt, HEXSIM_MEM_PAGE_CROSS);
    return true;
}

void hx_vgather(struct hx_exec *x, uint32_t rt, uint32_t mu, unsigned size,
                const uint32_t *off, const hx_qreg *q)
{
    rt &= ~(uint32_t)(size - 1);
    mu |= size - 1;
    memset(&x->vgath, 0, sizeof x->vgath);
    memset(&x->vgath_en, 0, sizeof x->vgath_en);
    if (region_refused(x, rt, mu, HX_EV_FAULT_READ))
        return;
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        for (unsigned k = 0; k < size; k++) {
            unsigned lane = i * size + k;
            uint64_t o = (uint64_t)off[i] + k;
            if (o > mu || (q && !hx_qbit(q, lane)))
                continue;
            x->vgath.ub[lane] = (uint8_t)hx_ld(x, rt + (uint32_t)o, 1);
            hx_qset(&x->vgath_en, lane, 1);
        }
    }
}

// Records a write of the scatter (checked now: a packet that faults writes nothing).
static void scatter_entry(struct hx_exec *x, uint32_t a, uint32_t val)
{
    struct hexsim_xlat_result r;
    unsigned size = x->vsc.size;
    int f = hx_check_access(x, a, size, HEXSIM_PROT_W | (x->vsc.add ? HEXSIM_PROT_R : 0), &r);
    if (f) {
        hx_mem_fault(x, HX_EV_FAULT_WRITE, a, f);
        return;
    }
    x->vsc.addr[x->vsc.n] = a;
    x->vsc.val[x->vsc.n] = val;
    x->vsc.n++;
}

void hx_vscatter(struct hx_exec *x, uint32_t rt, uint32_t mu, unsigned size,
                 const uint32_t *off, const hx_vec *w, const hx_qreg *q, bool add)
{
    if (x->ev->kind >= HX_EV_FAULT_READ)
        return;
    rt &= ~(uint32_t)(size - 1);
    mu |= size - 1;
    x->vsc.n = 0;
    if (region_refused(x, rt, mu, HX_EV_FAULT_WRITE))
        return;
    x->vsc.add = add;
    x->vsc.size = (uint8_t)(add ? size : 1);
    for (unsigned i = 0; i < HX_VBYTES / size; i++) {
        if (add) {
            uint32_t o = off[i] & ~(uint32_t)(size - 1);
            if (o <= mu)
                scatter_entry(x, rt + o, size == 2 ? w->uh[i] : w->uw[i]);
            continue;
        }
        for (unsigned k = 0; k < size; k++) {
            unsigned lane = i * size + k;
            uint64_t o = (uint64_t)off[i] + k;
            if (o <= mu && !(q && !hx_qbit(q, lane)))
                scatter_entry(x, rt + (uint32_t)o, w->ub[lane]);
        }
    }
    if (x->vsc.n)
        hx_hvx_staged(x);
}

// Reads `size` bytes at a for a scatter-accumulate at the commit (checked when staged).
static uint32_t commit_read(struct hx_exec *x, uint32_t a, unsigned size)
{
    uint32_t v = 0;
    for (unsigned k = 0; k < size; k++) {
        uint32_t b = 0, ak = a + k;
        if (!x->xlat) {
            struct hexsim_page *p = hexsim_mem_page(x->mem, ak);
            if (p)
                b = (uint32_t)hexsim_page_load(p, ak & (HEXSIM_PAGE_SIZE - 1), 1);
        } else {
            struct hexsim_xlat_result r = { NULL, 0 };
            if (!hx_check_access(x, ak, 1, HEXSIM_PROT_R, &r))
                b = r.page ? (uint32_t)hexsim_page_load(r.page, ak & (HEXSIM_PAGE_SIZE - 1), 1)
                           : (uint32_t)x->xlat->mmio_read(x->xlat->ctx, r.pa, 1);
        }
        v |= (b & 0xff) << (8 * k);
    }
    return v;
}

// Writes byte i of the staged store (enabled) to guest memory: RAM through its page, a
// device through the MMIO callback (system mode). The blocks were checked when staged.
static void commit_byte(struct hx_exec *x, uint32_t a, uint8_t byte)
{
    if (!x->xlat) {
        struct hexsim_page *p = hexsim_mem_page(x->mem, a);
        if (p)
            hexsim_page_store(x->mem, p, a & (HEXSIM_PAGE_SIZE - 1), 1, byte);
        return;
    }
    struct hexsim_xlat_result r = { NULL, 0 };
    if (hx_check_access(x, a, 1, HEXSIM_PROT_W, &r))
        return;
    if (r.page)
        hexsim_page_store(x->mem, r.page, a & (HEXSIM_PAGE_SIZE - 1), 1, byte);
    else
        x->xlat->mmio_write(x->xlat->ctx, r.pa, 1, byte);
}

// The page that the staged store's bytes at a (to the end of a's page) go to: user mode, a
// RAM page (NULL: none); system mode, the translation's RAM page, NULL for a device (whose
// bytes commit_byte writes one at a time). The blocks were checked when staged, so one
// translation per page serves all its bytes (not one per byte).
static struct hexsim_page *store_page(struct hx_exec *x, uint32_t a, bool *skip)
{
    *skip = false;
    if (!x->xlat) {
        struct hexsim_page *p = hexsim_mem_page(x->mem, a);
        *skip = !p;
        return p;
    }
    struct hexsim_xlat_result r = { NULL, 0 };
    if (hx_check_access(x, a, 1, HEXSIM_PROT_W, &r))
        *skip = true;
    return r.page;
}

static void commit_store(struct hx_exec *x)
{
    const struct hx_vstore *s = &x->vst;
    if (x->caches)
        x->tcost += hexsim_cache_access(x->caches, &x->cpu->tm.st, s->addr, 8, false);
    for (unsigned i = 0; i < HX_VBYTES;) {   // the bytes in each page, its page looked up once
        uint32_t a = s->addr + i;
        unsigned n = HEXSIM_PAGE_SIZE - (a & (HEXSIM_PAGE_SIZE - 1));
        unsigned end = n < HX_VBYTES - i ? i + n : HX_VBYTES;
        bool skip;
        struct hexsim_page *p = store_page(x, a, &skip);
        for (; !skip && i < end; i++) {
            uint32_t off = (s->addr + i) & (HEXSIM_PAGE_SIZE - 1);
            if (!p) {   // a device
                if (hx_qbit(&s->en, i))
                    commit_byte(x, s->addr + i, s->data.ub[i]);
            } else if (!(i & 7) && i + 8 <= end && s->en.b[i >> 3] == 0xff) {
                // eight enabled bytes at a doubleword of the store: one store
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
}

static void commit_scatter(struct hx_exec *x)
{
    const struct hx_vscatter *s = &x->vsc;
    if (x->caches)
        x->tcost += hexsim_cache_access(x->caches, &x->cpu->tm.st, s->addr[0], 8, false);
    for (unsigned i = 0; i < s->n; i++) {
        uint32_t v = s->val[i];
        if (s->add)
            v += commit_read(x, s->addr[i], s->size);
        for (unsigned k = 0; k < s->size; k++)
            commit_byte(x, s->addr[i] + k, (uint8_t)(v >> (8 * k)));
    }
}

void hx_hvx_commit(struct hx_exec *x)
{
    struct hexsim_hvx *h = &x->cpu->hvx;
    if (x->vst.used)
        commit_store(x);
    if (x->vsc.n)
        commit_scatter(x);
    HX_COMMIT_MASKED(h->v, x->new_v, x->vmask);
    HX_COMMIT_MASKED(h->q, x->new_q, x->qmask);
}
