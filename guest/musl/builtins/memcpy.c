// SPDX-License-Identifier: MIT
// __hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(dst, src, n): what clang-16
// calls for a copy it knows is at least 32 bytes and a multiple of 8 long and likely
// (not certainly) 8-byte aligned, such as a large struct assignment. Aligned copies
// move doublewords; others go through memcpy. Compiled with -fno-builtin, so the
// loop does not become a memcpy call.
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *restrict dst, const void *restrict src, size_t n);

void *__hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void *dst, const void *src,
                                                             size_t n)
{
    if ((((uintptr_t)dst | (uintptr_t)src | n) & 7) != 0)
        return memcpy(dst, src, n);
    uint64_t *d = dst;
    const uint64_t *s = src;
    for (size_t i = 0; i < n / 8; i++)
        d[i] = s[i];
    return dst;
}
