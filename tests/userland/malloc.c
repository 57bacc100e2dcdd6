// SPDX-License-Identifier: MIT
// malloc, calloc, realloc, free, posix_memalign, aligned_alloc: a pseudo-random mix
// of small, medium and large (mmap-sized) blocks, each filled with a pattern that is
// checked before it is freed or after it is moved by realloc; calloc'd memory is
// zero even when reused; alignment requests are honoured.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 512

static uint32_t seed = 12345;
static uint32_t rnd(void)
{
    seed = seed * 1103515245u + 12345u;
    return seed >> 8;
}

static size_t pick_size(void)
{
    uint32_t r = rnd() % 100;
    if (r < 70)
        return 1 + rnd() % 64;
    if (r < 95)
        return 64 + rnd() % 4096;
    return 100000 + rnd() % 300000;
}

static void fill(unsigned char *p, size_t n, unsigned tag)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(tag + i * 31);
}

static int check(const unsigned char *p, size_t n, unsigned tag)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(tag + i * 31))
            return 0;
    return 1;
}

int main(void)
{
    static unsigned char *ptr[SLOTS];
    static size_t len[SLOTS];
    static unsigned tags[SLOTS];
    int bad = 0, ops = 0, zeros_bad = 0, misaligned = 0;
    for (int round = 0; round < 20000; round++) {
        int s = (int)(rnd() % SLOTS);
        uint32_t what = rnd() % 10;
        if (!ptr[s]) {
            len[s] = pick_size();
            tags[s] = rnd();
            if (what < 3) {
                ptr[s] = calloc(len[s], 1);
                for (size_t i = 0; ptr[s] && i < len[s]; i++)
                    zeros_bad += ptr[s][i] != 0;
            } else {
                ptr[s] = malloc(len[s]);
            }
            if (!ptr[s]) {
                printf("allocation of %zu failed\n", len[s]);
                return 1;
            }
            if ((uintptr_t)ptr[s] % 8)
                misaligned++;
            fill(ptr[s], len[s], tags[s]);
        } else if (what < 4) {
            size_t n = pick_size();
            unsigned char *q = realloc(ptr[s], n);
            if (!q) {
                printf("realloc to %zu failed\n", n);
                return 1;
            }
            bad += !check(q, n < len[s] ? n : len[s], tags[s]);
            ptr[s] = q;
            len[s] = n;
            fill(q, n, tags[s]);
        } else {
            bad += !check(ptr[s], len[s], tags[s]);
            free(ptr[s]);
            ptr[s] = NULL;
        }
        ops++;
    }
    for (int s = 0; s < SLOTS; s++) {
        if (ptr[s]) {
            bad += !check(ptr[s], len[s], tags[s]);
            free(ptr[s]);
        }
    }
    printf("ops %d corrupted %d calloc-not-zero %d misaligned %d\n", ops, bad, zeros_bad, misaligned);

    for (size_t al = 8; al <= 65536; al *= 4) {
        void *p = NULL;
        int r = posix_memalign(&p, al, 1000);
        void *q = aligned_alloc(al, al * 2);
        printf("align %zu: posix_memalign %d %d aligned_alloc %d\n", al, r,
               (uintptr_t)p % al == 0, q && (uintptr_t)q % al == 0);
        free(p);
        free(q);
    }
    printf("posix_memalign(3) %d\n", posix_memalign(&(void *){0}, 3, 8));
    void *z = malloc(0);
    free(z);
    char *r = realloc(NULL, 10);
    strcpy(r, "realloc");
    r = realloc(r, 100000);
    printf("%s %d\n", r, (int)strlen(r));
    free(r);
    // A huge request fails cleanly (volatile: the compiler may otherwise drop an
    // allocation whose only use is a null test, and call it a success).
    void *volatile huge = malloc((size_t)-4096);
    free(huge);
    printf("huge %s\n", huge ? "succeeded" : "failed");
    return 0;
}
