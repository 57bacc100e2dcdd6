// SPDX-License-Identifier: MIT
// A small allocator: power-of-two size classes (16 B .. 64 KiB, header included) carved from
// the brk heap, one free list per class, no coalescing; larger blocks are mmap2'd on their
// own and munmap'd on free. Every block carries an 8-byte header so payloads are 8-aligned.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "libc.h"

#define MIN_SHIFT 4
#define MAX_SHIFT 16
#define BIG 0xffffffffu

struct hdr {
    uint32_t cls;    // size-class shift, or BIG
    uint32_t size;   // block size including the header (for BIG: the mapping length)
};
struct freeblk {
    struct hdr h;
    struct freeblk *next;
};

static struct freeblk *bins[MAX_SHIFT + 1];
static char *heap_cur, *heap_end;

static void *heap_grow(size_t n)
{
    if ((size_t)(heap_end - heap_cur) < n) {
        size_t want = (n + 0xffff) & ~(size_t)0xffff;
        if (!heap_end) {
            char *b = (char *)__sc1(SYS_brk, 0);
            b = (char *)(((uintptr_t)b + 7) & ~(uintptr_t)7);
            heap_cur = heap_end = b;
        }
        char *ne = (char *)__sc1(SYS_brk, heap_end + want);
        if (ne != heap_end + want) {
            // brk refused: take a fresh mapping (the old tail is abandoned).
            void *m = mmap(0, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED)
                return 0;
            heap_cur = m;
            heap_end = heap_cur + want;
        } else {
            heap_end = ne;
        }
    }
    void *p = heap_cur;
    heap_cur += n;
    return p;
}

void *malloc(size_t n)
{
    if (n > 0x7fff0000u) {
        errno = ENOMEM;
        return 0;
    }
    size_t total = n + sizeof(struct hdr);
    if (total > (1u << MAX_SHIFT)) {
        size_t len = (total + 4095) & ~(size_t)4095;
        struct hdr *h = mmap(0, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (h == MAP_FAILED) {
            errno = ENOMEM;
            return 0;
        }
        h->cls = BIG;
        h->size = (uint32_t)len;
        return h + 1;
    }
    unsigned shift = MIN_SHIFT;
    while ((1u << shift) < total)
        shift++;
    struct freeblk *f = bins[shift];
    if (f) {
        bins[shift] = f->next;
        return &f->h + 1;
    }
    struct hdr *h = heap_grow(1u << shift);
    if (!h) {
        errno = ENOMEM;
        return 0;
    }
    h->cls = shift;
    h->size = 1u << shift;
    return h + 1;
}

void free(void *p)
{
    if (!p)
        return;
    struct hdr *h = (struct hdr *)p - 1;
    if (h->cls == BIG) {
        munmap(h, h->size);
        return;
    }
    struct freeblk *f = (struct freeblk *)h;
    f->next = bins[h->cls];
    bins[h->cls] = f;
}

void *calloc(size_t n, size_t m)
{
    if (m && n > 0x7fffffffu / m) {
        errno = ENOMEM;
        return 0;
    }
    void *p = malloc(n * m);
    if (p)
        memset(p, 0, n * m);
    return p;
}

void *realloc(void *p, size_t n)
{
    if (!p)
        return malloc(n);
    if (!n) {
        free(p);
        return 0;
    }
    struct hdr *h = (struct hdr *)p - 1;
    size_t cap = h->size - sizeof(struct hdr);
    if (n <= cap)
        return p;
    void *q = malloc(n);
    if (!q)
        return 0;
    memcpy(q, p, cap);
    free(p);
    return q;
}
