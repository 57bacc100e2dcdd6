// SPDX-License-Identifier: MIT
// A small sscanf: %d %i %u %x %o (with h, l, ll), %s, %c, %[...] is not supported, %% and
// literal matching; whitespace in the format skips any amount of input whitespace.
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

int sscanf(const char *restrict s, const char *restrict fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = 0;
    const char *p = s;
    while (*fmt) {
        if (isspace((unsigned char)*fmt)) {
            while (isspace((unsigned char)*p))
                p++;
            fmt++;
            continue;
        }
        if (*fmt != '%' || fmt[1] == '%') {
            if (*fmt == '%')
                fmt++;
            if (*p != *fmt)
                break;
            p++;
            fmt++;
            continue;
        }
        fmt++;
        int skip = 0, width = 0, len = 0;
        if (*fmt == '*') {
            skip = 1;
            fmt++;
        }
        while (isdigit((unsigned char)*fmt))
            width = width * 10 + (*fmt++ - '0');
        while (*fmt == 'l' || *fmt == 'h') {
            len += *fmt == 'l' ? 1 : -1;
            fmt++;
        }
        char c = *fmt++;
        if (c != 'c')
            while (isspace((unsigned char)*p))
                p++;
        if (!*p)
            break;
        if (c == 's' || c == 'c') {
            char *d = skip ? 0 : va_arg(ap, char *);
            int max = width ? width : c == 'c' ? 1 : 0x7fffffff, k = 0;
            while (*p && k < max && (c == 'c' || !isspace((unsigned char)*p))) {
                if (d)
                    d[k] = *p;
                k++;
                p++;
            }
            if (d && c == 's')
                d[k] = 0;
        } else {
            int base = c == 'x' ? 16 : c == 'o' ? 8 : c == 'i' ? 0 : 10;
            char *end;
            unsigned long long v = c == 'u' || c == 'x' || c == 'o' ? strtoull(p, &end, base)
                                   : (unsigned long long)strtoll(p, &end, base);
            if (end == p)
                break;
            p = end;
            if (!skip) {
                void *d = va_arg(ap, void *);
                if (len >= 2) *(unsigned long long *)d = v;
                else if (len == 1) *(unsigned long *)d = (unsigned long)v;
                else if (len == -1) *(unsigned short *)d = (unsigned short)v;
                else if (len <= -2) *(unsigned char *)d = (unsigned char)v;
                else *(unsigned *)d = (unsigned)v;
            }
        }
        if (!skip)
            n++;
    }
    va_end(ap);
    return n;
}
