// SPDX-License-Identifier: MIT
// Guest memory: a sparse 32-bit address space of 4 KiB pages, each with read/write/execute
// permissions. Every guest access (instruction fetch, load, store, loader and syscall copies)
// goes through these checked accessors; none can touch host memory outside a mapped page.
// User mode maps pages as Linux would (ELF segments, stack, brk, mmap); system mode will put
// the guest MMU and the board's MMIO map in front of it.
#ifndef HEXSIM_MEM_H
#define HEXSIM_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>

#define HEXSIM_PAGE_SHIFT 12
#define HEXSIM_PAGE_SIZE (1u << HEXSIM_PAGE_SHIFT)

enum hexsim_prot { HEXSIM_PROT_R = 1, HEXSIM_PROT_W = 2, HEXSIM_PROT_X = 4 };

enum hexsim_mem_fault {
    HEXSIM_MEM_OK = 0,
    HEXSIM_MEM_UNMAPPED,   // no page at the address
    HEXSIM_MEM_PROT,       // page present, access not permitted
    HEXSIM_MEM_MISALIGNED, // address not a multiple of the access size
    HEXSIM_MEM_NOMEM,      // host allocation failed (map only)
    HEXSIM_MEM_PRIV,       // system mode: a supervisor page accessed from user mode
    HEXSIM_MEM_PAGE_CROSS, // a vgather/vscatter region crossing a page (taken as misaligned)
};

struct hexsim_page {
    uint8_t *data;   // HEXSIM_PAGE_SIZE bytes
    uint8_t prot;    // enum hexsim_prot bits
    bool code;       // decoded packets were cached from this page
    bool in_block;   // data lies in one of hexsim_mem's blocks (not freed on its own)
    uint32_t wgen;   // bumped when the page is written while it is code (hexsim_page_written):
                     // what was decoded from it under another value is stale (system mode
                     // keeps its decoded code per page by this; user mode by code_gen)
};

// A direct-mapped cache of recently used pages for the executor's user-mode fast paths
// (src/cpu/sem.h; filled only by the executor without address translation, i.e. in user
// mode): rtlb holds readable pages, wtlb writable pages holding no cached code.
// An entry's tag is hexsim_mem_tlb_key of an aligned access to its page; a zero tag (what
// hexsim_mem_init and a zeroed struct give) matches no access. Every change of a mapping or
// a protection empties both; a page becoming code leaves wtlb.
#define HEXSIM_MEM_TLB_SIZE 256
struct hexsim_mem_tlb {
    uint32_t tag;
    uint8_t *data;             // the page's bytes
    struct hexsim_page *page;
};

// The tag an access of size bytes (a power of two) at addr must find: its page address with
// the bits of a misalignment kept, so that a misaligned access never matches.
static inline uint32_t hexsim_mem_tlb_key(uint32_t addr, unsigned size)
{
    return (addr & (0xfffff000u | (size - 1))) ^ 0xfffu;
}

struct hexsim_mem {
    struct hexsim_page *l1[1024];   // second-level tables of 1024 pages, allocated on demand
    struct hexsim_mem_tlb rtlb[HEXSIM_MEM_TLB_SIZE], wtlb[HEXSIM_MEM_TLB_SIZE];
    uint64_t code_gen;              // bumped when a page with cached code is written (or
                                    // unmapped, or changes protection)
    size_t mapped_pages;
    size_t max_pages;               // 0: no limit; else hexsim_mem_map gives NOMEM beyond it
    struct hexsim_mem_block { void *base; size_t npages; } *blocks;  // host mappings
    size_t nblocks;                 // holding many pages' data (see src/mem/mem.c)
};

void hexsim_mem_init(struct hexsim_mem *m);
void hexsim_mem_free(struct hexsim_mem *m);

// Maps [addr, addr+len) (page-rounded) zero-filled with `prot`; pages already mapped keep
// their contents and take the new protection. Returns 0 or HEXSIM_MEM_NOMEM (host memory, or
// m->max_pages reached: pages mapped before that stay mapped).
int hexsim_mem_map(struct hexsim_mem *m, uint32_t addr, uint64_t len, unsigned prot);
void hexsim_mem_unmap(struct hexsim_mem *m, uint32_t addr, uint64_t len);
// Changes protection; returns HEXSIM_MEM_UNMAPPED when a page in the range is not mapped.
int hexsim_mem_protect(struct hexsim_mem *m, uint32_t addr, uint64_t len, unsigned prot);
bool hexsim_mem_is_mapped(const struct hexsim_mem *m, uint32_t addr);

// One aligned access of 1, 2, 4 or 8 bytes (little-endian), checked against `need` (one of
// the HEXSIM_PROT bits). Returns enum hexsim_mem_fault. Inline: the executor's hot path.
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "hexsim's guest memory accessors assume a little-endian host"
#endif

static inline struct hexsim_page *hexsim_mem_page(const struct hexsim_mem *m, uint32_t addr)
{
    struct hexsim_page *t = m->l1[addr >> 22];
    if (!t)
        return NULL;
    struct hexsim_page *p = &t[(addr >> HEXSIM_PAGE_SHIFT) & 1023];
    return p->data ? p : NULL;
}

// A write into page p, which is code: it is no longer (until code is decoded from it again),
// and what was decoded from it is stale: its wgen and m's code_gen move on.
static inline void hexsim_page_written(struct hexsim_mem *m, struct hexsim_page *p)
{
    p->code = false;
    p->wgen++;
    m->code_gen++;
}

// Checks an aligned access of `size` bytes (1..32, a power of two) for `need` permission.
static inline int hexsim_mem_check(struct hexsim_mem *m, uint32_t addr, unsigned size,
                                   unsigned need)
{
    if (addr & (size - 1))
        return HEXSIM_MEM_MISALIGNED;
    struct hexsim_page *p = hexsim_mem_page(m, addr);
    if (!p)
        return HEXSIM_MEM_UNMAPPED;
    return (p->prot & need) ? HEXSIM_MEM_OK : HEXSIM_MEM_PROT;
}

static inline int hexsim_mem_read(struct hexsim_mem *m, uint32_t addr, unsigned size,
                                  unsigned need, uint64_t *val)
{
    int f = hexsim_mem_check(m, addr, size, need);
    if (f)
        return f;
    uint64_t v = 0;
    memcpy(&v, hexsim_mem_page(m, addr)->data + (addr & (HEXSIM_PAGE_SIZE - 1)), size & 15);
    *val = v;
    return HEXSIM_MEM_OK;
}

static inline int hexsim_mem_write(struct hexsim_mem *m, uint32_t addr, unsigned size,
                                   uint64_t val)
{
    int f = hexsim_mem_check(m, addr, size, HEXSIM_PROT_W);
    if (f)
        return f;
    struct hexsim_page *p = hexsim_mem_page(m, addr);
    if (p->code)   // cached decoded packets of this page become stale
        hexsim_page_written(m, p);
    memcpy(p->data + (addr & (HEXSIM_PAGE_SIZE - 1)), &val, size & 15);
    return HEXSIM_MEM_OK;
}

// Byte copies between guest and host buffers, for loaders and syscalls. `need` is checked
// on every page; with `force` permissions are ignored (the loader writing read-only text).
// On failure *fault_addr is the first guest address that could not be reached.
int hexsim_mem_copy_in(struct hexsim_mem *m, uint32_t addr, const void *src, size_t n,
                       bool force, uint32_t *fault_addr);
int hexsim_mem_copy_out(struct hexsim_mem *m, uint32_t addr, void *dst, size_t n,
                        unsigned need, uint32_t *fault_addr);

// Host spans of the guest bytes [addr, addr+n), for a system call's host readv/writev into
// or out of guest memory (no copy through a buffer): adjacent pages whose data lie back to
// back share one span; the spans stop at the first page that is unmapped or lacks `need`,
// or after `max` spans (need 0: any protection, for a loader). Returns the number of spans (0: the byte at addr cannot be reached,
// *fault says why) and sets *got to the bytes they cover (at most n).
size_t hexsim_mem_spans(struct hexsim_mem *m, uint32_t addr, size_t n, unsigned need,
                        struct iovec *iov, size_t max, size_t *got, int *fault);
// After the host wrote n bytes at addr through hexsim_mem_spans: what was decoded from code
// pages among them is stale (as after hexsim_mem_copy_in).
void hexsim_mem_spans_written(struct hexsim_mem *m, uint32_t addr, size_t n);

// Instruction fetch of up to `n` words at addr (4-byte aligned, execute permission), stopping
// at the first unreachable word. Returns the number of words read; marks the pages as code.
size_t hexsim_mem_fetch(struct hexsim_mem *m, uint32_t addr, uint32_t *words, size_t n,
                        int *fault);

const char *hexsim_mem_fault_str(int fault);

// Direct access to one page found earlier (the system-mode soft TLB): `off` is the offset
// in the page, the access aligned and inside it. A store drops decoded code of the page.
static inline uint64_t hexsim_page_load(const struct hexsim_page *p, uint32_t off, unsigned size)
{
    const uint8_t *b = p->data + off;
    switch (size) {
    case 1: return *b;
    case 2: { uint16_t v; memcpy(&v, b, 2); return v; }
    case 4: { uint32_t v; memcpy(&v, b, 4); return v; }
    case 8: { uint64_t v; memcpy(&v, b, 8); return v; }
    default: {
        uint64_t v = 0;
        for (unsigned i = 0; i < size && i < 8; i++)
            v |= (uint64_t)b[i] << (8 * i);
        return v;
    }
    }
}

static inline void hexsim_bytes_store(uint8_t *b, unsigned size, uint64_t val)
{
    switch (size) {
    case 1: *b = (uint8_t)val; break;
    case 2: { uint16_t v = (uint16_t)val; memcpy(b, &v, 2); break; }
    case 4: { uint32_t v = (uint32_t)val; memcpy(b, &v, 4); break; }
    case 8: memcpy(b, &val, 8); break;
    default:
        for (unsigned i = 0; i < size && i < 8; i++)
            b[i] = (uint8_t)(val >> (8 * i));
        break;
    }
}
static inline void hexsim_page_store(struct hexsim_mem *m, struct hexsim_page *p, uint32_t off,
                                     unsigned size, uint64_t val)
{
    if (p->code)
        hexsim_page_written(m, p);
    hexsim_bytes_store(p->data + off, size, val);
}
// The TLB (above): hexsim_mem_tlb_fill enters the page at addr (mapped) if it allows the
// access (write: writable and holding no cached code); hexsim_mem_tlb_flush empties it.
void hexsim_mem_tlb_fill(struct hexsim_mem *m, uint32_t addr, bool write);
void hexsim_mem_tlb_flush(struct hexsim_mem *m);

#endif
