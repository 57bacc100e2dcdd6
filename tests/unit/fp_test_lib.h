// SPDX-License-Identifier: MIT
// What the floating-point check suites (test_fp.c, test_fp_fast.c) share: a repeatable
// random sequence and the bits of a float.
#ifndef HEXSIM_TESTS_FP_TEST_LIB_H
#define HEXSIM_TESTS_FP_TEST_LIB_H

#include <stdint.h>
#include <string.h>

// xorshift64: a fixed sequence, so a failure repeats
static inline uint64_t next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

static inline float f_of(uint32_t v)
{
    float f;
    memcpy(&f, &v, sizeof f);
    return f;
}

static inline uint32_t bits_of(float f)
{
    uint32_t v;
    memcpy(&v, &f, sizeof v);
    return v;
}

#endif
