// SPDX-License-Identifier: MIT
// Integer division helpers for Hexagon, which has no divide instruction: clang-16
// calls __hexagon_{div,udiv,mod,umod}{si,di}3 for 32- and 64-bit / and %. Restoring
// shift-and-subtract division, starting at the divisor's leading bit lined up with
// the dividend's (cl0 on both), so a quotient of k bits takes k+1 steps; 64-bit
// operands that fit in 32 bits take the 32-bit path. Division by zero (undefined in
// C) gives an all-ones quotient and the dividend as remainder. Signed results follow
// C: the quotient truncates toward zero, the remainder has the dividend's sign.
// Tested against the host's arithmetic by tests/userland/builtins.c.
#include <stdint.h>

// NAME(n, d, rem): n / d and n % d in type T (MAX its largest value, CLZ its cl0).
#define UDIVMOD(NAME, T, MAX, CLZ)                                        \
    static T NAME(T n, T d, T *rem)                                       \
    {                                                                     \
        if (d == 0) {                                                     \
            *rem = n;                                                     \
            return MAX;                                                   \
        }                                                                 \
        if (n < d) {                                                      \
            *rem = n;                                                     \
            return 0;                                                     \
        }                                                                 \
        int shift = CLZ(d) - CLZ(n);                                      \
        T dd = d << shift, q = 0;                                         \
        for (int i = 0; i <= shift; i++) {                                \
            q <<= 1;                                                      \
            if (n >= dd) {                                                \
                n -= dd;                                                  \
                q |= 1;                                                   \
            }                                                             \
            dd >>= 1;                                                     \
        }                                                                 \
        *rem = n;                                                         \
        return q;                                                         \
    }

UDIVMOD(udivmod32, uint32_t, UINT32_MAX, __builtin_clz)
UDIVMOD(udivmod64_wide, uint64_t, UINT64_MAX, __builtin_clzll)

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *rem)
{
    if ((n >> 32) == 0 && (d >> 32) == 0) {
        uint32_t r;
        uint32_t q = udivmod32((uint32_t)n, (uint32_t)d, &r);
        *rem = r;
        return d == 0 ? UINT64_MAX : q;
    }
    return udivmod64_wide(n, d, rem);
}

static uint32_t abs32(int32_t x) { return x < 0 ? -(uint32_t)x : (uint32_t)x; }
static uint64_t abs64(int64_t x) { return x < 0 ? -(uint64_t)x : (uint64_t)x; }

// The four entry points of one width: S is clang's suffix (si, di), W the bits (32, 64).
#define DIV_HELPERS(S, W)                                                 \
    uint##W##_t __hexagon_udiv##S##3(uint##W##_t n, uint##W##_t d)        \
    {                                                                     \
        uint##W##_t r;                                                    \
        return udivmod##W(n, d, &r);                                      \
    }                                                                     \
    uint##W##_t __hexagon_umod##S##3(uint##W##_t n, uint##W##_t d)        \
    {                                                                     \
        uint##W##_t r;                                                    \
        udivmod##W(n, d, &r);                                             \
        return r;                                                         \
    }                                                                     \
    int##W##_t __hexagon_div##S##3(int##W##_t n, int##W##_t d)            \
    {                                                                     \
        uint##W##_t r, q = udivmod##W(abs##W(n), abs##W(d), &r);          \
        return (int##W##_t)((n < 0) != (d < 0) ? -q : q);                 \
    }                                                                     \
    int##W##_t __hexagon_mod##S##3(int##W##_t n, int##W##_t d)            \
    {                                                                     \
        uint##W##_t r;                                                    \
        udivmod##W(abs##W(n), abs##W(d), &r);                             \
        return (int##W##_t)(n < 0 ? -r : r);                              \
    }

DIV_HELPERS(si, 32)
DIV_HELPERS(di, 64)
