// SPDX-License-Identifier: MIT
// Guest memory: sparse page table and the checked accessors declared in hexsim/mem.h.
// Two levels of 1024 entries cover the 32-bit space; pages are allocated when mapped. A map
// of many fresh pages at once (guest RAM, a large mmap) takes their data from one anonymous
// host mapping (a block): the host gives it zero pages on first touch, so untouched guest
// RAM costs no host memory and no time; unmapping such a page gives its memory back to the
// host (madvise), keeping the range reserved until the block is freed.
#define _DEFAULT_SOURCE      // MAP_ANONYMOUS, MAP_NORESERVE
#include "hexsim/mem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void hexsim_mem_init(struct hexsim_mem *m)
{
    memset(m, 0, sizeof(*m));
}

void hexsim_mem_free(struct hexsim_mem *m)
{
    for (unsigned i = 0; i < 1024; i++) {
        if (!m->l1[i])
            continue;
        for (unsigned j = 0; j < 1024; j++)
            if (!m->l1[i][j].in_block)
                free(m->l1[i][j].data);
        free(m->l1[i]);
    }
    for (size_t i = 0; i < m->nblocks; i++)
        munmap(m->blocks[i].base, m->blocks[i].npages * HEXSIM_PAGE_SIZE);
    free(m->blocks);
    memset(m, 0, sizeof(*m));
}

static struct hexsim_page *page_of(const struct hexsim_mem *m, uint32_t addr)
{
    return hexsim_mem_page(m, addr);
}

void hexsim_mem_tlb_flush(struct hexsim_mem *m)
{
    memset(m->rtlb, 0, sizeof(m->rtlb));
    memset(m->wtlb, 0, sizeof(m->wtlb));
}

void hexsim_mem_tlb_fill(struct hexsim_mem *m, uint32_t addr, bool write)
{
    struct hexsim_page *p = page_of(m, addr);
    if (!p || !(p->prot & (write ? HEXSIM_PROT_W : HEXSIM_PROT_R)) || (write && p->code))
        return;
    struct hexsim_mem_tlb *e = &(write ? m->wtlb : m->rtlb)[(addr >> HEXSIM_PAGE_SHIFT) &
                                                             (HEXSIM_MEM_TLB_SIZE - 1)];
    e->tag = hexsim_mem_tlb_key(addr & ~(HEXSIM_PAGE_SIZE - 1), 1);
    e->data = p->data;
    e->page = p;
}

#define BLOCK_MIN_PAGES 16

// One zero-filled block for n pages' data, recorded for hexsim_mem_free; NULL when n is
// small (per-page allocations are fine then), the host's pages are not 4 KiB, or the host
// refuses.
static uint8_t *new_block(struct hexsim_mem *m, size_t n)
{
    if (n < BLOCK_MIN_PAGES || sysconf(_SC_PAGESIZE) != HEXSIM_PAGE_SIZE)
        return NULL;
    struct hexsim_mem_block *nb = realloc(m->blocks, (m->nblocks + 1) * sizeof(*nb));
    if (!nb)
        return NULL;
    m->blocks = nb;
    void *b = mmap(NULL, n * HEXSIM_PAGE_SIZE, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (b == MAP_FAILED)
        return NULL;
    m->blocks[m->nblocks++] = (struct hexsim_mem_block){ b, n };
    return b;
}

int hexsim_mem_map(struct hexsim_mem *m, uint32_t addr, uint64_t len, unsigned prot)
{
    uint64_t start = addr & ~(uint64_t)(HEXSIM_PAGE_SIZE - 1);
    uint64_t end = (uint64_t)addr + len;
    size_t fresh = 0;
    for (uint64_t a = start; a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        struct hexsim_page **t = &m->l1[a >> 22];
        if (!*t) {
            *t = calloc(1024, sizeof(**t));
            if (!*t)
                return HEXSIM_MEM_NOMEM;
        }
        fresh += !(*t)[(a >> 12) & 1023].data;
    }
    if (m->max_pages && m->mapped_pages + fresh > m->max_pages)
        fresh = 0;   // not all will fit: map page by page up to the limit
    uint8_t *block = new_block(m, fresh);
    hexsim_mem_tlb_flush(m);
    for (uint64_t a = start; a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        struct hexsim_page *p = &m->l1[a >> 22][(a >> 12) & 1023];
        if (!p->data) {
            if (m->max_pages && m->mapped_pages >= m->max_pages)
                return HEXSIM_MEM_NOMEM;
            if (block) {
                p->data = block;
                p->in_block = true;
                block += HEXSIM_PAGE_SIZE;
            } else {
                p->data = calloc(1, HEXSIM_PAGE_SIZE);
                if (!p->data)
                    return HEXSIM_MEM_NOMEM;
            }
            m->mapped_pages++;
        }
        p->prot = (uint8_t)prot;
    }
    return HEXSIM_MEM_OK;
}

void hexsim_mem_unmap(struct hexsim_mem *m, uint32_t addr, uint64_t len)
{
    uint64_t start = addr & ~(uint64_t)(HEXSIM_PAGE_SIZE - 1);
    uint64_t end = (uint64_t)addr + len;
    hexsim_mem_tlb_flush(m);
    for (uint64_t a = start; a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        struct hexsim_page *p = page_of(m, (uint32_t)a);
        if (!p)
            continue;
        if (p->code)
            m->code_gen++;
        // A block page goes back to the host but its address range stays the block's (an
        // munmap here would let the host reuse the range for another mapping, which the
        // block's munmap at hexsim_mem_free would then destroy); a later map of the page
        // takes fresh storage, so the range is never used again.
        if (p->in_block)
            madvise(p->data, HEXSIM_PAGE_SIZE, MADV_DONTNEED);
        else
            free(p->data);
        memset(p, 0, sizeof(*p));
        m->mapped_pages--;
    }
}

int hexsim_mem_protect(struct hexsim_mem *m, uint32_t addr, uint64_t len, unsigned prot)
{
    uint64_t start = addr & ~(uint64_t)(HEXSIM_PAGE_SIZE - 1);
    uint64_t end = (uint64_t)addr + len;
    for (uint64_t a = start; a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE)
        if (!page_of(m, (uint32_t)a))
            return HEXSIM_MEM_UNMAPPED;
    hexsim_mem_tlb_flush(m);
    for (uint64_t a = start; a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        struct hexsim_page *p = page_of(m, (uint32_t)a);
        if (p->code)
            m->code_gen++;
        p->prot = (uint8_t)prot;
    }
    return HEXSIM_MEM_OK;
}

bool hexsim_mem_is_mapped(const struct hexsim_mem *m, uint32_t addr)
{
    return page_of(m, addr) != NULL;
}

static int access_page(struct hexsim_mem *m, uint32_t addr, unsigned size, unsigned need,
                       struct hexsim_page **pp)
{
    int f = hexsim_mem_check(m, addr, size, need);
    if (!f)
        *pp = hexsim_mem_page(m, addr);
    return f;
}

int hexsim_mem_copy_in(struct hexsim_mem *m, uint32_t addr, const void *src, size_t n,
                       bool force, uint32_t *fault_addr)
{
    const uint8_t *s = src;
    uint64_t a = addr;
    while (n) {
        struct hexsim_page *p = a <= 0xffffffffu ? page_of(m, (uint32_t)a) : NULL;
        int f = !p ? HEXSIM_MEM_UNMAPPED
                   : (!force && !(p->prot & HEXSIM_PROT_W)) ? HEXSIM_MEM_PROT : HEXSIM_MEM_OK;
        if (f) {
            if (fault_addr)
                *fault_addr = (uint32_t)a;
            return f;
        }
        size_t off = (size_t)(a & (HEXSIM_PAGE_SIZE - 1));
        size_t chunk = HEXSIM_PAGE_SIZE - off < n ? HEXSIM_PAGE_SIZE - off : n;
        if (p->code)
            hexsim_page_written(m, p);
        memcpy(p->data + off, s, chunk);
        s += chunk;
        a += chunk;
        n -= chunk;
    }
    return HEXSIM_MEM_OK;
}

int hexsim_mem_copy_out(struct hexsim_mem *m, uint32_t addr, void *dst, size_t n,
                        unsigned need, uint32_t *fault_addr)
{
    uint8_t *d = dst;
    uint64_t a = addr;
    while (n) {
        struct hexsim_page *p = a <= 0xffffffffu ? page_of(m, (uint32_t)a) : NULL;
        int f = !p ? HEXSIM_MEM_UNMAPPED : !(p->prot & need) ? HEXSIM_MEM_PROT : HEXSIM_MEM_OK;
        if (f) {
            if (fault_addr)
                *fault_addr = (uint32_t)a;
            return f;
        }
        size_t off = (size_t)(a & (HEXSIM_PAGE_SIZE - 1));
        size_t chunk = HEXSIM_PAGE_SIZE - off < n ? HEXSIM_PAGE_SIZE - off : n;
        memcpy(d, p->data + off, chunk);
        d += chunk;
        a += chunk;
        n -= chunk;
    }
    return HEXSIM_MEM_OK;
}

size_t hexsim_mem_spans(struct hexsim_mem *m, uint32_t addr, size_t n, unsigned need,
                        struct iovec *iov, size_t max, size_t *got, int *fault)
{
    size_t k = 0, done = 0;
    uint64_t a = addr;
    *fault = HEXSIM_MEM_OK;
    while (done < n) {
        struct hexsim_page *p = a <= 0xffffffffu ? page_of(m, (uint32_t)a) : NULL;
        int f = !p ? HEXSIM_MEM_UNMAPPED
                   : need && !(p->prot & need) ? HEXSIM_MEM_PROT : HEXSIM_MEM_OK;
        if (f) {
            if (!k)
                *fault = f;
            break;
        }
        size_t off = (size_t)(a & (HEXSIM_PAGE_SIZE - 1));
        size_t chunk = HEXSIM_PAGE_SIZE - off < n - done ? HEXSIM_PAGE_SIZE - off : n - done;
        uint8_t *d = p->data + off;
        if (k && (uint8_t *)iov[k - 1].iov_base + iov[k - 1].iov_len == d)
            iov[k - 1].iov_len += chunk;
        else if (k == max)
            break;
        else
            iov[k++] = (struct iovec){ d, chunk };
        done += chunk;
        a += chunk;
    }
    *got = done;
    return k;
}

void hexsim_mem_spans_written(struct hexsim_mem *m, uint32_t addr, size_t n)
{
    uint64_t a = addr & ~(uint64_t)(HEXSIM_PAGE_SIZE - 1), end = (uint64_t)addr + n;
    for (; n && a < end && a <= 0xffffffffu; a += HEXSIM_PAGE_SIZE) {
        struct hexsim_page *p = page_of(m, (uint32_t)a);
        if (p && p->code)
            hexsim_page_written(m, p);
    }
}

size_t hexsim_mem_fetch(struct hexsim_mem *m, uint32_t addr, uint32_t *words, size_t n,
                        int *fault)
{
    size_t i;
    *fault = HEXSIM_MEM_OK;
    for (i = 0; i < n; i++) {
        uint32_t a = addr + 4 * (uint32_t)i;
        struct hexsim_page *p;
        int f = access_page(m, a, 4, HEXSIM_PROT_X, &p);
        if (f || (i > 0 && a < addr)) {
            *fault = f ? f : HEXSIM_MEM_UNMAPPED;
            break;
        }
        if (!p->code) {   // stores to it must now take the path that sees code
            p->code = true;
            struct hexsim_mem_tlb *e = &m->wtlb[(a >> HEXSIM_PAGE_SHIFT) &
                                                (HEXSIM_MEM_TLB_SIZE - 1)];
            if (e->page == p)
                e->tag = 0;
        }
        const uint8_t *b = p->data + (a & (HEXSIM_PAGE_SIZE - 1));
        words[i] = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                   (uint32_t)b[3] << 24;
    }
    return i;
}

const char *hexsim_mem_fault_str(int fault)
{
    switch (fault) {
    case HEXSIM_MEM_OK: return "no fault";
    case HEXSIM_MEM_UNMAPPED: return "unmapped address";
    case HEXSIM_MEM_PROT: return "access not permitted";
    case HEXSIM_MEM_MISALIGNED: return "misaligned address";
    case HEXSIM_MEM_NOMEM: return "out of host memory";
    case HEXSIM_MEM_PRIV: return "supervisor page accessed from user mode";
    case HEXSIM_MEM_PAGE_CROSS: return "gather/scatter region crosses a page boundary";
    }
    return "unknown fault";
}
