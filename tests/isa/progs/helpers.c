// SPDX-License-Identifier: MIT
// Compiler support routines the linked test ELF needs and that a freestanding link lacks
// (clang-16 calls them for float division and for some block copies). Written only to link
// and to be disassembled: the division is a few Newton steps, not correctly rounded.
typedef __SIZE_TYPE__ size_t;

float __hexagon_divsf3(float a, float b)
{
    union { float f; unsigned u; } r = { .f = b };
    r.u = 0x7ef311c3u - r.u;           // rough 1/b from the exponent bits
    for (int i = 0; i < 4; i++)
        r.f = r.f * (2.0f - b * r.f);
    return a * r.f;
}

void *__hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void *dst, const void *src, size_t n)
{
    volatile unsigned char *d = dst;   // volatile: keep the compiler from calling memcpy here
    const unsigned char *s = src;
    while (n--)
        *d++ = *s++;
    return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
    return __hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(dst, src, n);
}

void *memset(void *dst, int c, size_t n)
{
    volatile unsigned char *d = dst;
    while (n--)
        *d++ = (unsigned char)c;
    return dst;
}
