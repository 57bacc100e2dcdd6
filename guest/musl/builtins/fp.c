// SPDX-License-Identifier: MIT
// Floating-point division and square-root helpers for Hexagon: clang-16 calls
// __hexagon_divdf3 for double /, __hexagon_divsf3 for float / and __hexagon_sqrtf for
// sqrtf (the core has reciprocal-approximation steps but no divide or square root;
// double sqrt is musl's own sqrt). IEEE 754
// binary64 division done on the integer significands: a 55-bit quotient (53 bits,
// guard and round) plus a sticky bit from the remainder, rounded in the mode USR.FPRND
// selects (nearest-even, toward zero, down, up), with gradual underflow. The sticky
// exception flags in USR are raised as the hardware's own floating-point instructions
// raise them: invalid (0/0, inf/inf, a signalling NaN), divide-by-zero, overflow,
// underflow (tiny after rounding, and inexact) and inexact. A NaN result is the
// core's default NaN, all ones, as its floating-point instructions give.
// __hexagon_divsf3 divides the operands converted to double and rounds that once more:
// binary64 has more than twice binary32's precision plus two bits, so the double
// rounding gives the correctly rounded float in every mode.
// Tested against the host's arithmetic by tests/userland/builtins.c.
#include <stdint.h>

enum {
    FL_INVALID = 0x02, FL_DIVBYZERO = 0x04, FL_OVERFLOW = 0x08, FL_UNDERFLOW = 0x10,
    FL_INEXACT = 0x20,
};
enum { RND_NEAREST, RND_ZERO, RND_DOWN, RND_UP };

static inline uint32_t usr_read(void)
{
    uint32_t usr;
    __asm__ __volatile__("%0 = usr" : "=r"(usr));
    return usr;
}

static inline void usr_raise(uint32_t flags)
{
    if (flags) {
        uint32_t usr = usr_read() | flags;
        __asm__ __volatile__("usr = %0" : : "r"(usr) : "memory");
    }
}

static inline double from_bits(uint64_t u)
{
    union { uint64_t u; double d; } v = { .u = u };
    return v.d;
}

static inline uint64_t to_bits(double d)
{
    union { uint64_t u; double d; } v = { .d = d };
    return v.u;
}

#define EXP_MASK 0x7ffull
#define FRAC_MASK ((1ull << 52) - 1)
#define DEFAULT_NAN (~0ull)
#define INF_BITS (EXP_MASK << 52)

static int is_snan(uint64_t u)
{
    return ((u >> 52) & EXP_MASK) == EXP_MASK && (u & FRAC_MASK) && !(u & (1ull << 51));
}

// Whether to add one unit in the last place: lost are the bits shifted out below it,
// half the weight of the first of them, lsb the last kept bit.
static int round_up(int mode, int negative, uint64_t lost, uint64_t half, int sticky, int lsb)
{
    int inexact = lost != 0 || sticky;
    switch (mode) {
    case RND_NEAREST:
        return lost > half || (lost == half && (sticky || lsb));
    case RND_ZERO:
        return 0;
    case RND_DOWN:
        return negative && inexact;
    default:
        return !negative && inexact;
    }
}

// Normalises a nonzero finite significand to have bit 52 set; returns the exponent.
static int normalise(uint64_t *m, int e)
{
    if (e == 0) {
        int shift = __builtin_clzll(*m) - 11;
        *m <<= shift;
        return 1 - shift;
    }
    *m |= 1ull << 52;
    return e;
}

double __hexagon_divdf3(double a, double b)
{
    uint64_t ua = to_bits(a), ub = to_bits(b);
    int negative = (int)((ua ^ ub) >> 63);
    uint64_t sign = (uint64_t)negative << 63;
    int ea = (int)((ua >> 52) & EXP_MASK), eb = (int)((ub >> 52) & EXP_MASK);
    uint64_t ma = ua & FRAC_MASK, mb = ub & FRAC_MASK;

    if ((ea == EXP_MASK && ma) || (eb == EXP_MASK && mb)) {
        usr_raise(is_snan(ua) || is_snan(ub) ? FL_INVALID : 0);
        return from_bits(DEFAULT_NAN);
    }
    if (ea == EXP_MASK) {
        if (eb == EXP_MASK) {
            usr_raise(FL_INVALID);
            return from_bits(DEFAULT_NAN);
        }
        return from_bits(sign | INF_BITS);
    }
    if (eb == EXP_MASK)
        return from_bits(sign);
    if (eb == 0 && mb == 0) {
        if (ea == 0 && ma == 0) {
            usr_raise(FL_INVALID);
            return from_bits(DEFAULT_NAN);
        }
        usr_raise(FL_DIVBYZERO);
        return from_bits(sign | INF_BITS);
    }
    if (ea == 0 && ma == 0)
        return from_bits(sign);

    ea = normalise(&ma, ea);
    eb = normalise(&mb, eb);
    // The quotient's biased exponent, with ma/mb brought into [1, 2).
    int e = ea - eb + 1023;
    if (ma < mb) {
        ma <<= 1;
        e--;
    }
    // 55 quotient bits: q in [2^54, 2^55), value q * 2^(e - 1023 - 54).
    uint64_t q = 0, r = ma;
    for (int i = 0; i < 55; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1;
        }
        r <<= 1;
    }
    int sticky = r != 0;
    int mode = (int)((usr_read() >> 22) & 3);
    uint32_t flags = 0;

    // Rounded to 53 bits with an unbounded exponent: tiny (after rounding) when that
    // is still below the smallest normal.
    int tiny = 0;
    if (e < 1) {
        uint64_t m53 = q >> 2;
        int up = round_up(mode, negative, q & 3, 2, sticky, (int)(m53 & 1));
        tiny = e < 0 || (m53 + (uint64_t)up) < (1ull << 53);
    }

    int shift = e >= 1 ? 2 : 2 + (1 - e);
    uint64_t base = e >= 1 ? (uint64_t)(e - 1) << 52 : 0;
    uint64_t mant, lost, half;
    if (shift >= 64) {
        mant = 0;
        lost = 0;
        half = 1;
        sticky = 1; // q is nonzero and all of it is below half an ulp
    } else {
        mant = q >> shift;
        lost = q & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    }
    int inexact = lost != 0 || sticky;
    uint64_t bits = base + mant + (uint64_t)round_up(mode, negative, lost, half, sticky,
                                                     (int)(mant & 1));
    if (inexact)
        flags |= FL_INEXACT;
    if (tiny && inexact)
        flags |= FL_UNDERFLOW;
    if (bits >= INF_BITS) {
        flags |= FL_OVERFLOW | FL_INEXACT;
        int to_inf = mode == RND_NEAREST || (mode == RND_DOWN && negative) ||
                     (mode == RND_UP && !negative);
        bits = to_inf ? INF_BITS : INF_BITS - 1;
    }
    usr_raise(flags);
    return from_bits(sign | bits);
}

float __hexagon_divsf3(float a, float b)
{
    return (float)__hexagon_divdf3((double)a, (double)b);
}

// sqrtf: the integer square root of the significand scaled to 54 bits gives 27 result
// bits (24, guard and two more) and an exact remainder for the sticky bit; the result
// is never subnormal and never overflows, and only the rounding can be inexact.
float __hexagon_sqrtf(float x)
{
    union { float f; uint32_t u; } v = { .f = x };
    uint32_t u = v.u;
    int e = (int)((u >> 23) & 0xff);
    uint32_t m = u & 0x7fffff;
    if (e == 0xff) {
        if (m) { // NaN
            usr_raise(!(m & 0x400000) ? FL_INVALID : 0);
            v.u = 0xffffffffu;
            return v.f;
        }
        if (!(u >> 31))
            return x; // +inf
    }
    if ((u & 0x7fffffffu) == 0)
        return x; // +-0
    if (u >> 31) { // negative, including -inf
        usr_raise(FL_INVALID);
        v.u = 0xffffffffu;
        return v.f;
    }
    if (e == 0) { // subnormal: normalise
        int shift = __builtin_clz(m) - 8;
        m <<= shift;
        e = 1 - shift;
    } else {
        m |= 0x800000;
    }
    e -= 127; // x = m * 2^(e - 23), m in [2^23, 2^24)
    if (e & 1) {
        m <<= 1;
        e--;
    }
    // sqrt(x) = sqrt(m * 2^29) * 2^((e - 52) / 2); m * 2^29 < 2^54.
    uint64_t n = (uint64_t)m << 29, q = 0, r = 0;
    for (int i = 53; i >= 1; i -= 2) {
        r = (r << 2) | ((n >> (i - 1)) & 3);
        uint64_t t = (q << 2) | 1;
        q <<= 1;
        if (r >= t) {
            r -= t;
            q |= 1;
        }
    }
    // q in [2^26, 2^27): the value q * 2^((e - 52) / 2) has exponent 26 + (e - 52) / 2.
    int mode = (int)((usr_read() >> 22) & 3);
    uint32_t mant = (uint32_t)(q >> 3), lost = (uint32_t)(q & 7);
    int sticky = r != 0;
    int up = round_up(mode, 0, lost, 4, sticky, (int)(mant & 1));
    uint32_t bits = ((uint32_t)(26 + (e - 52) / 2 + 127 - 1) << 23) + mant + (uint32_t)up;
    usr_raise(lost || sticky ? FL_INEXACT : 0);
    v.u = bits;
    return v.f;
}
