// SPDX-License-Identifier: MIT
// String and memory functions (compiled with -fno-builtin so loops stay loops).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void *memcpy(void *restrict d, const void *restrict s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if ((((uintptr_t)dp | (uintptr_t)sp) & 3) == 0) {
        for (; n >= 16; n -= 16, dp += 16, sp += 16) {
            uint32_t a = ((const uint32_t *)sp)[0], b = ((const uint32_t *)sp)[1];
            uint32_t c = ((const uint32_t *)sp)[2], e = ((const uint32_t *)sp)[3];
            ((uint32_t *)dp)[0] = a;
            ((uint32_t *)dp)[1] = b;
            ((uint32_t *)dp)[2] = c;
            ((uint32_t *)dp)[3] = e;
        }
        for (; n >= 4; n -= 4, dp += 4, sp += 4)
            *(uint32_t *)dp = *(const uint32_t *)sp;
    }
    while (n--)
        *dp++ = *sp++;
    return d;
}

void *memmove(void *d, const void *s, size_t n)
{
    unsigned char *dp = d;
    const unsigned char *sp = s;
    if (dp == sp || n == 0)
        return d;
    if (dp < sp || dp >= sp + n)
        return memcpy(d, s, n);
    while (n--)
        dp[n] = sp[n];
    return d;
}

void *memset(void *d, int c, size_t n)
{
    unsigned char *dp = d;
    while (n && ((uintptr_t)dp & 3)) {
        *dp++ = (unsigned char)c;
        n--;
    }
    uint32_t w = (unsigned char)c * 0x01010101u;
    for (; n >= 4; n -= 4, dp += 4)
        *(uint32_t *)dp = w;
    while (n--)
        *dp++ = (unsigned char)c;
    return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
    const unsigned char *x = a, *y = b;
    for (; n; n--, x++, y++)
        if (*x != *y)
            return *x - *y;
    return 0;
}

void *memchr(const void *s, int c, size_t n)
{
    const unsigned char *p = s;
    for (; n; n--, p++)
        if (*p == (unsigned char)c)
            return (void *)p;
    return 0;
}

void *memmem(const void *h, size_t hn, const void *n, size_t nn)
{
    const char *hp = h;
    if (nn == 0)
        return (void *)h;
    for (; hn >= nn; hn--, hp++)
        if (*hp == *(const char *)n && !memcmp(hp, n, nn))
            return (void *)hp;
    return 0;
}

size_t strlen(const char *s)
{
    const char *p = s;
    while (*p)
        p++;
    return (size_t)(p - s);
}

size_t strnlen(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i])
        i++;
    return i;
}

int strcmp(const char *a, const char *b)
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        if (*a != *b)
            return (unsigned char)*a - (unsigned char)*b;
        if (!*a)
            return 0;
    }
    return 0;
}

static int lower(int c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int strcasecmp(const char *a, const char *b)
{
    while (*a && lower((unsigned char)*a) == lower((unsigned char)*b))
        a++, b++;
    return lower((unsigned char)*a) - lower((unsigned char)*b);
}

int strncasecmp(const char *a, const char *b, size_t n)
{
    for (; n; n--, a++, b++) {
        int x = lower((unsigned char)*a), y = lower((unsigned char)*b);
        if (x != y)
            return x - y;
        if (!x)
            return 0;
    }
    return 0;
}

char *strcpy(char *restrict d, const char *restrict s)
{
    char *r = d;
    while ((*d++ = *s++))
        ;
    return r;
}

char *stpcpy(char *restrict d, const char *restrict s)
{
    while ((*d = *s++))
        d++;
    return d;
}

char *strncpy(char *restrict d, const char *restrict s, size_t n)
{
    size_t i = 0;
    for (; i < n && s[i]; i++)
        d[i] = s[i];
    for (; i < n; i++)
        d[i] = 0;
    return d;
}

size_t strlcpy(char *d, const char *s, size_t n)
{
    size_t l = strlen(s);
    if (n) {
        size_t c = l < n - 1 ? l : n - 1;
        memcpy(d, s, c);
        d[c] = 0;
    }
    return l;
}

char *strcat(char *restrict d, const char *restrict s)
{
    strcpy(d + strlen(d), s);
    return d;
}

char *strncat(char *restrict d, const char *restrict s, size_t n)
{
    char *p = d + strlen(d);
    while (n-- && *s)
        *p++ = *s++;
    *p = 0;
    return d;
}

char *strchr(const char *s, int c)
{
    for (;; s++) {
        if (*s == (char)c)
            return (char *)s;
        if (!*s)
            return 0;
    }
}

char *strrchr(const char *s, int c)
{
    const char *r = 0;
    for (;; s++) {
        if (*s == (char)c)
            r = s;
        if (!*s)
            return (char *)r;
    }
}

char *strstr(const char *h, const char *n)
{
    size_t nl = strlen(n);
    if (!nl)
        return (char *)h;
    for (; *h; h++)
        if (*h == *n && !strncmp(h, n, nl))
            return (char *)h;
    return 0;
}

char *strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = malloc(n);
    return p ? memcpy(p, s, n) : 0;
}

char *strndup(const char *s, size_t n)
{
    size_t l = strnlen(s, n);
    char *p = malloc(l + 1);
    if (!p)
        return 0;
    memcpy(p, s, l);
    p[l] = 0;
    return p;
}

size_t strspn(const char *s, const char *acc)
{
    size_t i = 0;
    while (s[i] && strchr(acc, s[i]))
        i++;
    return i;
}

size_t strcspn(const char *s, const char *rej)
{
    size_t i = 0;
    while (s[i] && !strchr(rej, s[i]))
        i++;
    return i;
}

char *strpbrk(const char *s, const char *acc)
{
    s += strcspn(s, acc);
    return *s ? (char *)s : 0;
}

char *strtok_r(char *restrict s, const char *restrict sep, char **restrict save)
{
    if (!s)
        s = *save;
    if (!s)
        return 0;
    s += strspn(s, sep);
    if (!*s) {
        *save = 0;
        return 0;
    }
    char *e = s + strcspn(s, sep);
    if (*e)
        *e++ = 0;
    else
        e = 0;
    *save = e;
    return s;
}

char *strtok(char *restrict s, const char *restrict sep)
{
    static char *save;
    return strtok_r(s, sep, &save);
}

char *strsep(char **sp, const char *sep)
{
    char *s = *sp;
    if (!s)
        return 0;
    char *e = s + strcspn(s, sep);
    if (*e)
        *e++ = 0;
    else
        e = 0;
    *sp = e;
    return s;
}

// clang-16 calls this for large aligned struct copies (length a multiple of 8, at least 32).
void *__hexagon_memcpy_likely_aligned_min32bytes_mult8bytes(void *d, const void *s, size_t n)
{
    return memcpy(d, s, n);
}
