// SPDX-License-Identifier: MIT
// Number parsing, environment, exit/atexit, qsort, rand.
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "libc.h"

static unsigned long long parse_u(const char *s, char **end, int base, int *neg, int *ok)
{
    const char *p = s;
    while (isspace((unsigned char)*p))
        p++;
    *neg = 0;
    if (*p == '-' || *p == '+')
        *neg = *p++ == '-';
    if ((base == 0 || base == 16) && p[0] == '0' && (p[1] | 32) == 'x' && isxdigit((unsigned char)p[2])) {
        p += 2;
        base = 16;
    } else if (base == 0) {
        base = *p == '0' ? 8 : 10;
    }
    unsigned long long v = 0;
    const char *start = p;
    *ok = 1;
    for (;; p++) {
        int c = (unsigned char)*p, d;
        if (isdigit(c)) d = c - '0';
        else if (isalpha(c)) d = (c | 32) - 'a' + 10;
        else break;
        if (d >= base)
            break;
        unsigned long long nv = v * (unsigned)base + (unsigned)d;
        if ((nv - (unsigned)d) / (unsigned)base != v)
            *ok = 0;
        v = nv;
    }
    if (end)
        *end = (char *)(p == start ? s : p);
    return v;
}

unsigned long long strtoull(const char *restrict s, char **restrict end, int base)
{
    int neg, ok;
    unsigned long long v = parse_u(s, end, base, &neg, &ok);
    if (!ok) {
        errno = ERANGE;
        return ~0ull;
    }
    return neg ? -v : v;
}

long long strtoll(const char *restrict s, char **restrict end, int base)
{
    int neg, ok;
    unsigned long long v = parse_u(s, end, base, &neg, &ok);
    if (!ok || v > (neg ? 0x8000000000000000ull : 0x7fffffffffffffffull)) {
        errno = ERANGE;
        return neg ? (-0x7fffffffffffffffll - 1) : 0x7fffffffffffffffll;
    }
    return neg ? (long long)-v : (long long)v;
}

unsigned long strtoul(const char *restrict s, char **restrict end, int base)
{
    int neg, ok;
    unsigned long long v = parse_u(s, end, base, &neg, &ok);
    if (!ok || v > 0xffffffffull) {
        errno = ERANGE;
        return 0xfffffffful;
    }
    return (unsigned long)(neg ? -v : v);
}

long strtol(const char *restrict s, char **restrict end, int base)
{
    long long v = strtoll(s, end, base);
    if (v > 0x7fffffffll) {
        errno = ERANGE;
        return 0x7fffffffl;
    }
    if (v < -0x80000000ll) {
        errno = ERANGE;
        return -0x7fffffffl - 1;
    }
    return (long)v;
}

int atoi(const char *s) { return (int)strtol(s, 0, 10); }
long atol(const char *s) { return strtol(s, 0, 10); }
long long atoll(const char *s) { return strtoll(s, 0, 10); }
int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }
long long llabs(long long v) { return v < 0 ? -v : v; }

// ---- environment: environ starts as the kernel's array; the first change copies it.
static int env_owned;

char *getenv(const char *name)
{
    size_t n = strlen(name);
    if (!environ)
        return 0;
    for (char **e = environ; *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return 0;
}

static int env_count(void)
{
    int n = 0;
    while (environ && environ[n])
        n++;
    return n;
}

static int env_own(int extra)
{
    int n = env_count();
    char **ne = malloc(sizeof(char *) * (size_t)(n + extra + 1));
    if (!ne)
        return -1;
    for (int i = 0; i < n; i++)
        ne[i] = environ[i];
    ne[n] = 0;
    if (env_owned)
        free(environ);
    environ = ne;
    env_owned = 1;
    return 0;
}

int putenv(char *s)
{
    char *eq = strchr(s, '=');
    size_t n = eq ? (size_t)(eq - s) : strlen(s);
    int cnt = env_count();
    for (int i = 0; i < cnt; i++)
        if (!strncmp(environ[i], s, n) && environ[i][n] == '=') {
            environ[i] = s;
            return 0;
        }
    if (env_own(1))
        return -1;
    environ[cnt] = s;
    environ[cnt + 1] = 0;
    return 0;
}

int setenv(const char *name, const char *val, int overwrite)
{
    if (!name || !*name || strchr(name, '=')) {
        errno = EINVAL;
        return -1;
    }
    if (!overwrite && getenv(name))
        return 0;
    size_t n = strlen(name), v = strlen(val);
    char *s = malloc(n + v + 2);
    if (!s)
        return -1;
    memcpy(s, name, n);
    s[n] = '=';
    memcpy(s + n + 1, val, v + 1);
    return putenv(s);
}

int unsetenv(const char *name)
{
    size_t n = strlen(name);
    if (!environ)
        return 0;
    int j = 0;
    for (int i = 0; environ[i]; i++)
        if (!(strncmp(environ[i], name, n) == 0 && environ[i][n] == '='))
            environ[j++] = environ[i];
    environ[j] = 0;
    return 0;
}

// ---- exit
static void (*atexit_fns[16])(void);
static int atexit_n;

int atexit(void (*fn)(void))
{
    if (atexit_n == 16)
        return -1;
    atexit_fns[atexit_n++] = fn;
    return 0;
}

_Noreturn void exit(int code)
{
    while (atexit_n)
        atexit_fns[--atexit_n]();
    __stdio_flush_all();
    _exit(code);
}

_Noreturn void _Exit(int code) { _exit(code); }

_Noreturn void abort(void)
{
    raise(SIGABRT);
    _exit(127);
}

void __assert_fail(const char *expr, const char *file, int line)
{
    fprintf(stderr, "assertion failed: %s (%s:%d)\n", expr, file, line);
    abort();
}

// ---- qsort (insertion sort for small runs inside a simple quicksort)
static void swap_bytes(char *a, char *b, size_t n)
{
    while (n--) {
        char t = *a;
        *a++ = *b;
        *b++ = t;
    }
}

void qsort(void *base, size_t n, size_t sz, int (*cmp)(const void *, const void *))
{
    char *b = base;
    while (n > 8) {
        swap_bytes(b, b + (n / 2) * sz, sz);   // pivot to the front
        size_t i = 1, j = n - 1;
        for (;;) {
            while (i <= j && cmp(b + i * sz, b) < 0)
                i++;
            while (j >= i && cmp(b + j * sz, b) > 0)
                j--;
            if (i >= j)
                break;
            swap_bytes(b + i * sz, b + j * sz, sz);
            i++;
            j--;
        }
        swap_bytes(b, b + j * sz, sz);
        // Recurse into the smaller part, loop on the larger.
        if (j < n - j - 1) {
            qsort(b, j, sz, cmp);
            b += (j + 1) * sz;
            n -= j + 1;
        } else {
            qsort(b + (j + 1) * sz, n - j - 1, sz, cmp);
            n = j;
        }
    }
    for (size_t i = 1; i < n; i++)
        for (size_t k = i; k > 0 && cmp(b + (k - 1) * sz, b + k * sz) > 0; k--)
            swap_bytes(b + (k - 1) * sz, b + k * sz, sz);
}

static unsigned long long rand_state = 1;
void srand(unsigned seed) { rand_state = seed; }
int rand(void)
{
    rand_state = rand_state * 6364136223846793005ull + 1442695040888963407ull;
    return (int)(rand_state >> 33);
}
