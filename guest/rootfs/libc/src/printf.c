// SPDX-License-Identifier: MIT
// The printf family. One formatter (__vformat) writes through a sink callback; the FILE,
// descriptor, and string variants differ only in their sink. Conversions: d i u o x X c s p %
// and f e g (simple binary-to-decimal through double arithmetic; exact enough for display),
// flags - + space 0 #, width and precision (also *), lengths hh h l ll z j t L.
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*sink_fn)(void *ctx, const char *s, size_t n);

struct spec {
    int left, plus, space, zero, alt;
    int width, prec;
};

static void pad(sink_fn out, void *ctx, char c, int n)
{
    char buf[16];
    memset(buf, c, sizeof buf);
    while (n > 0) {
        int k = n > 16 ? 16 : n;
        out(ctx, buf, (size_t)k);
        n -= k;
    }
}

// Emit prefix (sign, 0x) + zero fill + body with width handling; returns chars written.
static int emit(sink_fn out, void *ctx, const struct spec *sp, const char *prefix, int zeros,
                const char *body, int blen)
{
    int plen = (int)strlen(prefix);
    int total = plen + zeros + blen;
    int fill = sp->width > total ? sp->width - total : 0;
    if (!sp->left && !sp->zero)
        pad(out, ctx, ' ', fill);
    out(ctx, prefix, (size_t)plen);
    if (!sp->left && sp->zero)
        pad(out, ctx, '0', fill);
    pad(out, ctx, '0', zeros);
    out(ctx, body, (size_t)blen);
    if (sp->left)
        pad(out, ctx, ' ', fill);
    return total + fill;
}

static int fmt_int(sink_fn out, void *ctx, struct spec *sp, uint64_t v, int neg, int base,
                   int upper)
{
    char buf[24];
    int i = sizeof buf;
    const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    while (v) {
        buf[--i] = digits[v % (unsigned)base];
        v /= (unsigned)base;
    }
    int blen = (int)sizeof buf - i;
    const char *prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    if (sp->alt && base == 16 && blen)
        prefix = upper ? "0X" : "0x";
    int zeros = 0;
    if (sp->prec >= 0) {
        sp->zero = 0;
        if (sp->prec > blen)
            zeros = sp->prec - blen;
    } else if (blen == 0) {
        zeros = 1;
    }
    if (sp->alt && base == 8 && zeros == 0 && (blen == 0 || buf[i] != '0'))
        zeros = 1;
    return emit(out, ctx, sp, prefix, zeros, buf + i, blen);
}

static const double pow10tab[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9,
                                   1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17 };

// Fixed-point digits of x >= 0 (< 1e18) with prec fraction digits into buf; returns length.
static int fixed_digits(char *buf, double x, int prec, int alt)
{
    if (prec > 17)
        prec = 17;
    uint64_t ip = (uint64_t)x;
    double frac = x - (double)ip;
    uint64_t scale = (uint64_t)pow10tab[prec];
    uint64_t fp = (uint64_t)(frac * (double)scale + 0.5);
    if (fp >= scale) {
        fp -= scale;
        ip++;
    }
    char tmp[24];
    int n = 0, t = 0;
    do {
        tmp[t++] = (char)('0' + ip % 10);
        ip /= 10;
    } while (ip);
    while (t)
        buf[n++] = tmp[--t];
    if (prec || alt)
        buf[n++] = '.';
    for (int i = prec - 1; i >= 0; i--) {
        buf[n + i] = (char)('0' + fp % 10);
        fp /= 10;
    }
    return n + prec;
}

static int fmt_float(sink_fn out, void *ctx, struct spec *sp, double x, char conv)
{
    char buf[64];
    int neg = __builtin_signbit(x) != 0;
    if (neg)
        x = -x;
    const char *prefix = neg ? "-" : sp->plus ? "+" : sp->space ? " " : "";
    int upper = conv >= 'A' && conv <= 'Z';
    if (x != x || x > 1.7976931348623157e308) {
        sp->zero = 0;
        return emit(out, ctx, sp, prefix, 0, x != x ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf"), 3);
    }
    int prec = sp->prec < 0 ? 6 : sp->prec;
    char c = (char)(conv | 32);
    int e10 = 0;
    double m = x;
    if (m != 0) {
        while (m >= 10) { m /= 10; e10++; }
        while (m < 1) { m *= 10; e10--; }
    }
    if (c == 'g') {
        if (prec == 0)
            prec = 1;
        if (e10 >= -4 && e10 < prec && x < 1e17) {
            c = 'f';
            prec = prec - 1 - e10;
        } else {
            c = 'e';
            prec = prec - 1;
        }
        if (prec > 17)
            prec = 17;
    }
    int n;
    if (c == 'f' && x < 1e17) {
        n = fixed_digits(buf, x, prec, sp->alt);
    } else {
        n = fixed_digits(buf, m, prec > 16 ? 16 : prec, sp->alt);
        if (buf[0] == '1' && buf[1] == '0') {   // rounding carried into a new digit: 9.99 -> 10.0
            n = fixed_digits(buf, m / 10, prec > 16 ? 16 : prec, sp->alt);
            e10++;
        }
        c = 'e';
    }
    if ((conv | 32) == 'g' && !sp->alt && memchr(buf, '.', (size_t)n)) {
        while (buf[n - 1] == '0')
            n--;
        if (buf[n - 1] == '.')
            n--;
    }
    if (c == 'e') {
        buf[n++] = upper ? 'E' : 'e';
        buf[n++] = e10 < 0 ? '-' : '+';
        int ae = e10 < 0 ? -e10 : e10;
        if (ae >= 100)
            buf[n++] = (char)('0' + ae / 100);
        buf[n++] = (char)('0' + ae / 10 % 10);
        buf[n++] = (char)('0' + ae % 10);
    }
    return emit(out, ctx, sp, prefix, 0, buf, n);
}

int __vformat(sink_fn out, void *ctx, const char *fmt, va_list ap)
{
    int count = 0;
    while (*fmt) {
        if (*fmt != '%') {
            const char *s = fmt;
            while (*fmt && *fmt != '%')
                fmt++;
            out(ctx, s, (size_t)(fmt - s));
            count += (int)(fmt - s);
            continue;
        }
        fmt++;
        struct spec sp = { 0, 0, 0, 0, 0, 0, -1 };
        for (;; fmt++) {
            if (*fmt == '-') sp.left = 1;
            else if (*fmt == '+') sp.plus = 1;
            else if (*fmt == ' ') sp.space = 1;
            else if (*fmt == '0') sp.zero = 1;
            else if (*fmt == '#') sp.alt = 1;
            else break;
        }
        if (*fmt == '*') {
            sp.width = va_arg(ap, int);
            if (sp.width < 0) {
                sp.left = 1;
                sp.width = -sp.width;
            }
            fmt++;
        } else {
            while (*fmt >= '0' && *fmt <= '9')
                sp.width = sp.width * 10 + (*fmt++ - '0');
        }
        if (*fmt == '.') {
            fmt++;
            sp.prec = 0;
            if (*fmt == '*') {
                sp.prec = va_arg(ap, int);
                if (sp.prec < 0)
                    sp.prec = -1;
                fmt++;
            } else {
                while (*fmt >= '0' && *fmt <= '9')
                    sp.prec = sp.prec * 10 + (*fmt++ - '0');
            }
        }
        if (sp.left)
            sp.zero = 0;
        int len = 0;   // 0 int, 1 long, 2 long long, -1 short, -2 char
        for (;; fmt++) {
            if (*fmt == 'l') len++;
            else if (*fmt == 'h') len--;
            else if (*fmt == 'z' || *fmt == 't') len = 1;
            else if (*fmt == 'j' || *fmt == 'L' || *fmt == 'q') len = 2;
            else break;
        }
        char conv = *fmt;
        if (!conv)
            break;
        fmt++;
        switch (conv) {
        case 'd':
        case 'i': {
            long long v = len >= 2 ? va_arg(ap, long long) : len == 1 ? va_arg(ap, long) : va_arg(ap, int);
            if (len == -1) v = (short)v;
            if (len <= -2) v = (signed char)v;
            uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
            count += fmt_int(out, ctx, &sp, u, v < 0, 10, 0);
            break;
        }
        case 'u': case 'x': case 'X': case 'o': {
            unsigned long long v = len >= 2 ? va_arg(ap, unsigned long long)
                                 : len == 1 ? va_arg(ap, unsigned long) : va_arg(ap, unsigned);
            if (len == -1) v = (unsigned short)v;
            if (len <= -2) v = (unsigned char)v;
            sp.plus = sp.space = 0;
            count += fmt_int(out, ctx, &sp, v, 0, conv == 'u' ? 10 : conv == 'o' ? 8 : 16, conv == 'X');
            break;
        }
        case 'p': {
            uintptr_t v = (uintptr_t)va_arg(ap, void *);
            sp.alt = 1;
            count += fmt_int(out, ctx, &sp, v, 0, 16, 0);
            break;
        }
        case 'c': {
            char c = (char)va_arg(ap, int);
            sp.zero = 0;
            count += emit(out, ctx, &sp, "", 0, &c, 1);
            break;
        }
        case 's': {
            const char *s = va_arg(ap, const char *);
            if (!s)
                s = "(null)";
            int n = sp.prec >= 0 ? (int)strnlen(s, (size_t)sp.prec) : (int)strlen(s);
            sp.zero = 0;
            count += emit(out, ctx, &sp, "", 0, s, n);
            break;
        }
        case 'f': case 'F': case 'e': case 'E': case 'g': case 'G':
            count += fmt_float(out, ctx, &sp, va_arg(ap, double), conv);
            break;
        case 'n':
            *va_arg(ap, int *) = count;
            break;
        default:
            out(ctx, &conv, 1);
            count++;
            break;
        }
    }
    return count;
}

struct strsink { char *buf; size_t cap, len; };

static void str_out(void *ctx, const char *s, size_t n)
{
    struct strsink *ss = ctx;
    if (ss->len + 1 < ss->cap) {
        size_t room = ss->cap - 1 - ss->len;
        memcpy(ss->buf + ss->len, s, n < room ? n : room);
    }
    ss->len += n;
}

int vsnprintf(char *restrict s, size_t n, const char *restrict fmt, va_list ap)
{
    struct strsink ss = { s, n, 0 };
    int r = __vformat(str_out, &ss, fmt, ap);
    if (n)
        s[ss.len < n ? ss.len : n - 1] = 0;
    return r;
}

int vsprintf(char *restrict s, const char *restrict fmt, va_list ap)
{
    return vsnprintf(s, 0x7fffffff, fmt, ap);
}

int snprintf(char *restrict s, size_t n, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(s, n, fmt, ap);
    va_end(ap);
    return r;
}

int sprintf(char *restrict s, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vsnprintf(s, 0x7fffffff, fmt, ap);
    va_end(ap);
    return r;
}

int vasprintf(char **s, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(0, 0, fmt, ap2);
    va_end(ap2);
    *s = malloc((size_t)n + 1);
    if (!*s)
        return -1;
    return vsnprintf(*s, (size_t)n + 1, fmt, ap);
}

int asprintf(char **s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vasprintf(s, fmt, ap);
    va_end(ap);
    return r;
}

struct fdsink { int fd; char buf[256]; size_t len; };

static void fd_out(void *ctx, const char *s, size_t n)
{
    struct fdsink *fs = ctx;
    while (n) {
        if (fs->len == sizeof fs->buf) {
            write(fs->fd, fs->buf, fs->len);
            fs->len = 0;
        }
        size_t k = sizeof fs->buf - fs->len;
        if (k > n)
            k = n;
        memcpy(fs->buf + fs->len, s, k);
        fs->len += k;
        s += k;
        n -= k;
    }
}

int vdprintf(int fd, const char *restrict fmt, va_list ap)
{
    struct fdsink fs;
    fs.fd = fd;
    fs.len = 0;
    int r = __vformat(fd_out, &fs, fmt, ap);
    if (fs.len)
        write(fd, fs.buf, fs.len);
    return r;
}

int dprintf(int fd, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vdprintf(fd, fmt, ap);
    va_end(ap);
    return r;
}

static void file_out(void *ctx, const char *s, size_t n) { fwrite(s, 1, n, ctx); }

int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap)
{
    return __vformat(file_out, f, fmt, ap);
}

int fprintf(FILE *restrict f, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(f, fmt, ap);
    va_end(ap);
    return r;
}

int vprintf(const char *restrict fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int printf(const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return r;
}
