// SPDX-License-Identifier: MIT
// Guest MMU: the HVM walks the guest's two-level page tables (HVM specification section 9.4;
// vm_mmu.h, seed 002). The L1 table has one word per 4 MiB of virtual space (1020 used: the
// top 16 MiB are the VMM's, sections 2.2.1 and 3.3.1, and fault as protection violations);
// bits 2:0 give the page size. Sizes 4 MiB and 16 MiB are translated by the L1 word itself;
// smaller sizes (4K..1M) make it a PDE pointing at an L2 table of 4M/size PTEs. A PTE (or
// large-page L1 word) carries U bit 5, R 9, W 10, X 11 and the cache attribute in bits 8:6
// (not modelled); its low bits are the guest's software bits. Size 7 means no translation.
// A mapping with none of R/W/X is treated as absent. Before its first vmnewmap a vCPU uses
// the boot map (section 4.5): RAM, the logical segment the program is loaded into, at
// VA = PA, read/write/execute, guest mode only (the spec names no user access;
// hexagonMVM's initial table has no U bit either, but maps all 4 GiB, devices included,
// where the spec maps only the segment the program is loaded into). A translation to a logical page that is
// neither RAM nor a device is a protection violation (section 9.2); an L2 table outside RAM
// is an invalid page table found at run time, a machine check (sections 7.5, App. A
// VMNEWMAP). Faults come back as enum hexsim_mem_fault; the HVM turns them into
// general-exception causes (*PROT, *USER). Successful RAM translations fill the vCPU's soft
// TLB for its current mode (one TLB per mode, so user-mode permission never leaks).
#include <string.h>

#include "hexsim/machine.h"

static const uint32_t pte_pgmask[7] = {
    0xfffff000u, 0xffffc000u, 0xffff0000u, 0xfffc0000u, 0xfff00000u, 0xffc00000u, 0xff000000u,
};
static const uint32_t pde_ptmask[5] = {
    0xfffff000u, 0xfffffc00u, 0xffffff00u, 0xffffffc0u, 0xfffffff0u,
};

static int read_word(struct hexsim_mem *ram, uint32_t pa, uint32_t *w)
{
    uint64_t v;
    if (hexsim_mem_read(ram, pa, 4, HEXSIM_PROT_R, &v))
        return -1;
    *w = (uint32_t)v;
    return 0;
}

// The walk; *mask gets the page's address mask (its size)
static int walk(struct hexsim_mem *ram, uint32_t ptbase, uint32_t va, bool user, uint32_t *pa,
                unsigned *prot, uint32_t *mask)
{
    uint32_t l1;
    if (va >= HEXSIM_HVM_RESERVED_VA)
        return HEXSIM_MEM_PROT;
    if (read_word(ram, ptbase + (va >> 22) * 4, &l1))
        return HEXSIM_HVM_BAD_TABLE;
    unsigned size = l1 & HVM_PDE_SIZE_MASK;
    uint32_t pte;
    if (size == HVM_PDE_INVALID) {
        return HEXSIM_MEM_UNMAPPED;
    } else if (size >= 5) {
        pte = l1;
    } else {
        uint32_t l2 = l1 & pde_ptmask[size];
        uint32_t idx = (va & 0x003fffffu) >> (12 + 2 * size);
        if (read_word(ram, l2 + idx * 4, &pte))
            return HEXSIM_HVM_BAD_TABLE;
    }
    unsigned p = ((pte & HVM_PTE_R) ? HEXSIM_PROT_R : 0) | ((pte & HVM_PTE_W) ? HEXSIM_PROT_W : 0) |
                 ((pte & HVM_PTE_X) ? HEXSIM_PROT_X : 0);
    if (!p)
        return HEXSIM_MEM_UNMAPPED;
    if (user && !(pte & HVM_PTE_U))
        return HEXSIM_MEM_PRIV;
    *mask = pte_pgmask[size];
    *pa = (pte & *mask) | (va & ~*mask);
    *prot = p;
    return HEXSIM_MEM_OK;
}

int hexsim_hvm_walk(struct hexsim_mem *ram, uint32_t ptbase, uint32_t va, bool user,
                    uint32_t *pa, unsigned *prot)
{
    uint32_t mask;
    return walk(ram, ptbase, va, user, pa, prot, &mask);
}

void hexsim_vcpu_flush_tlb(struct hexsim_vcpu *v)
{
    for (unsigned t = 0; t < 2; t++)
        for (unsigned i = 0; i < HEXSIM_TLB_SIZE; i++)
            v->tlb[t].e[i].vpage = ~0u;
    memset(v->rtlb, 0, sizeof(v->rtlb));
    memset(v->wtlb, 0, sizeof(v->wtlb));
}

void hexsim_code_page_slow(struct hexsim_machine *m, struct hexsim_page *pg)
{
    pg->code = true;
    for (unsigned i = 0; i < m->nvcpu; i++)
        for (unsigned t = 0; t < 2; t++)
            for (unsigned k = 0; k < HEXSIM_MEM_TLB_SIZE; k++)
                if (m->vcpu[i].wtlb[t][k].page == pg)
                    m->vcpu[i].wtlb[t][k].tag = 0;
}

static struct hexsim_page *ram_page(struct hexsim_machine *m, uint32_t pa)
{
    if (pa - m->ram_base >= m->ram_size)
        return NULL;
    struct hexsim_page *t = m->ram.l1[pa >> 22];
    if (!t)
        return NULL;
    struct hexsim_page *p = &t[(pa >> 12) & 1023];
    return p->data ? p : NULL;
}

int hexsim_hvm_translate(struct hexsim_vcpu *v, uint32_t va, bool user, uint32_t *pa,
                         unsigned *prot)
{
    struct hexsim_machine *m = v->m;
    if (va >= HEXSIM_HVM_RESERVED_VA)
        return HEXSIM_MEM_PROT;
    if (!v->mmu_on) {
        if (va - m->ram_base >= m->ram_size)
            return HEXSIM_MEM_PROT;
        if (user)
            return HEXSIM_MEM_PRIV;
        *pa = va;
        *prot = HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X;
        return HEXSIM_MEM_OK;
    }
    int f = hexsim_hvm_walk(&m->ram, v->ptbase, va, user, pa, prot);
    if (f)
        return f;
    if (*pa - m->ram_base >= m->ram_size && !hexsim_bus_find(&m->bus, *pa))
        return HEXSIM_MEM_PROT;
    return HEXSIM_MEM_OK;
}

int hexsim_hvm_guest_mapping(struct hexsim_vcpu *v, uint32_t va, unsigned *prot,
                             uint32_t *last)
{
    struct hexsim_machine *m = v->m;
    if (va >= HEXSIM_HVM_RESERVED_VA)
        return HEXSIM_MEM_PROT;
    if (!v->mmu_on) {
        if (va - m->ram_base >= m->ram_size)
            return HEXSIM_MEM_PROT;
        *prot = HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X;
        *last = m->ram_base + m->ram_size - 1;
        return HEXSIM_MEM_OK;
    }
    uint32_t pa, mask;
    int f = walk(&m->ram, v->ptbase, va, false, &pa, prot, &mask);
    if (!f)
        *last = va | ~mask;
    return f;
}

static int vcpu_translate(void *ctx, uint32_t ea, unsigned access, struct hexsim_xlat_result *r)
{
    struct hexsim_vcpu *v = ctx;
    struct hexsim_machine *m = v->m;
    uint32_t pa = ea;
    unsigned prot = 0;
    int f = hexsim_hvm_translate(v, ea, v->user, &pa, &prot);
    if (f)
        return f;
    if (!(prot & access))
        return HEXSIM_MEM_PROT;
    struct hexsim_page *pg = ram_page(m, pa);
    r->page = pg;
    r->pa = pa;
    if (pg) {
        struct hexsim_tlb_entry *e = &v->xlat.tlb->e[(ea >> 12) & (HEXSIM_TLB_SIZE - 1)];
        e->vpage = ea >> 12;
        e->prot = (uint8_t)prot;
        e->page = pg;
    }
    return HEXSIM_MEM_OK;
}

static uint64_t vcpu_mmio_read(void *ctx, uint32_t pa, unsigned size)
{
    struct hexsim_vcpu *v = ctx;
    struct hexsim_machine *m = v->m;
    if (v->cpu.pcycles > m->now)
        m->now = v->cpu.pcycles;
    return hexsim_bus_read(&m->bus, pa, size);
}

static void vcpu_mmio_write(void *ctx, uint32_t pa, unsigned size, uint64_t val)
{
    struct hexsim_vcpu *v = ctx;
    struct hexsim_machine *m = v->m;
    if (v->cpu.pcycles > m->now)
        m->now = v->cpu.pcycles;
    hexsim_bus_write(&m->bus, pa, size, val);
    m->attention = true;     // a device may now raise a line or schedule an event
}

static uint32_t vcpu_page_last(void *ctx, uint32_t ea)
{
    unsigned prot;
    uint32_t last;
    return hexsim_hvm_guest_mapping(ctx, ea, &prot, &last) ? ea | 0xfffu : last;
}

void hexsim_vcpu_init_xlat(struct hexsim_vcpu *v)
{
    v->xlat.tlb = &v->tlb[v->user ? 1 : 0];
    v->xlat.ctx = v;
    v->xlat.translate = vcpu_translate;
    v->xlat.mmio_read = vcpu_mmio_read;
    v->xlat.mmio_write = vcpu_mmio_write;
    v->xlat.page_last = vcpu_page_last;
    hexsim_vcpu_flush_tlb(v);
    v->env.cpu = &v->cpu;
    v->env.mem = &v->m->ram;
    v->env.arch = v->m->arch;
    v->env.xlat = &v->xlat;
    v->env.timing = &v->m->tparams;
    v->env.caches = v->m->caches_on ? &v->m->caches[v->id] : NULL;
    hexsim_vcpu_set_user(v, v->user);
}

void hexsim_vcpu_set_user(struct hexsim_vcpu *v, bool user)
{
    v->user = user;
    v->xlat.tlb = &v->tlb[user ? 1 : 0];
    v->env.user_mode = user;
    v->env.guest_mode = !user;
    v->env.rtlb = v->rtlb[user ? 1 : 0];
    v->env.wtlb = v->wtlb[user ? 1 : 0];
}

// A size other than 1, 2, 4 or 8, or an address not aligned to it (the CPU never makes
// one; the debugger and the fuzzers may), is done byte by byte, little-endian, so no RAM
// access runs past its page and devices only ever see aligned accesses.
static bool odd_access(uint32_t pa, unsigned size)
{
    return size == 0 || size > 8 || (size & (size - 1)) || (pa & (size - 1));
}

uint64_t hexsim_phys_read(struct hexsim_machine *m, uint32_t pa, unsigned size)
{
    if (odd_access(pa, size)) {
        uint64_t v = 0;
        for (unsigned i = 0; i < size && i < 8; i++)
            v |= hexsim_phys_read(m, pa + i, 1) << (8 * i);
        return v;
    }
    struct hexsim_page *p = ram_page(m, pa);
    if (p)
        return hexsim_page_load(p, pa & (HEXSIM_PAGE_SIZE - 1), size);
    return hexsim_bus_read(&m->bus, pa, size);
}

void hexsim_phys_write(struct hexsim_machine *m, uint32_t pa, unsigned size, uint64_t val)
{
    if (odd_access(pa, size)) {
        for (unsigned i = 0; i < size && i < 8; i++)
            hexsim_phys_write(m, pa + i, 1, val >> (8 * i) & 0xFF);
        return;
    }
    struct hexsim_page *p = ram_page(m, pa);
    if (p)
        hexsim_page_store(&m->ram, p, pa & (HEXSIM_PAGE_SIZE - 1), size, val);
    else
        hexsim_bus_write(&m->bus, pa, size, val);
}

int hexsim_virt_copy_out(struct hexsim_vcpu *v, uint32_t va, void *dst, size_t n)
{
    uint8_t *d = dst;
    for (size_t i = 0; i < n; i++) {
        struct hexsim_xlat_result r;
        if (vcpu_translate(v, va + (uint32_t)i, HEXSIM_PROT_R, &r) || !r.page)
            return -1;
        d[i] = r.page->data[(va + i) & (HEXSIM_PAGE_SIZE - 1)];
    }
    return 0;
}
