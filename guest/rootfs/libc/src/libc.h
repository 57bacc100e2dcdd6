// SPDX-License-Identifier: MIT
// Internal: the system call instruction (trap0(#1), number in r6, arguments in r0-r5, result
// or -errno in r0) and the errno convention of the wrappers.
#ifndef LIBC_INTERNAL_H
#define LIBC_INTERNAL_H
#include <errno.h>
#include <sys/syscall.h>

static inline long __sc6(long nr, long a, long b, long c, long d, long e, long f)
{
    register long r0 __asm__("r0") = a;
    register long r1 __asm__("r1") = b;
    register long r2 __asm__("r2") = c;
    register long r3 __asm__("r3") = d;
    register long r4 __asm__("r4") = e;
    register long r5 __asm__("r5") = f;
    register long r6 __asm__("r6") = nr;
    __asm__ volatile("trap0(#1)"
                     : "+r"(r0)
                     : "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5), "r"(r6)
                     : "memory");
    return r0;
}
#define __sc0(n) __sc6(n, 0, 0, 0, 0, 0, 0)
#define __sc1(n, a) __sc6(n, (long)(a), 0, 0, 0, 0, 0)
#define __sc2(n, a, b) __sc6(n, (long)(a), (long)(b), 0, 0, 0, 0)
#define __sc3(n, a, b, c) __sc6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define __sc4(n, a, b, c, d) __sc6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define __sc5(n, a, b, c, d, e) __sc6(n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

// Kernel results in [-4095, -1] are errors: set errno and return -1.
static inline long __ret(long r)
{
    if ((unsigned long)r > -4096ul) {
        errno = (int)-r;
        return -1;
    }
    return r;
}

void __stdio_flush_all(void);
#endif
