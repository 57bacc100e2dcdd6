// SPDX-License-Identifier: MIT
// HVX architectural state (Hexagon V6x/V73 HVX Programmer's Reference Manual, "Registers"),
// in the 128-byte vector mode: 32 vector registers of 1024 bits (v0-v31; pairs v1:0 ...
// v31:30, and the reversed pairs v0:1 ... v30:31 that odd register fields name), and 4
// vector predicates of 128 bits (q0-q3), one bit per byte lane. The lane views of a vector
// are the host's little-endian layout of the guest's bytes (lane i of .h is bytes 2i, 2i+1).
#ifndef HEXSIM_CPU_HVX_H
#define HEXSIM_CPU_HVX_H

#include <stdint.h>

#define HX_VBYTES 128   // vector length in bytes (128-byte mode)

typedef union hx_vec {
    uint8_t ub[HX_VBYTES];
    int8_t b[HX_VBYTES];
    uint16_t uh[HX_VBYTES / 2];
    int16_t h[HX_VBYTES / 2];
    uint32_t uw[HX_VBYTES / 4];
    int32_t w[HX_VBYTES / 4];
    uint64_t ud[HX_VBYTES / 8];
    float sf[HX_VBYTES / 4];
} hx_vec;

// A vector pair: v[0] the low register (the pair's field names it), v[1] the high one.
typedef struct hx_vpair {
    hx_vec v[2];
} hx_vpair;

// A vector predicate: bit i (byte i / 8, bit i % 8) stands for byte lane i.
typedef union hx_qreg {
    uint8_t b[HX_VBYTES / 8];
    uint64_t d[HX_VBYTES / 64];
} hx_qreg;

struct hexsim_hvx {
    hx_vec v[32];
    hx_qreg q[4];
};

// The registers a pair field names: even n: low vn, high vn+1; odd n (a reversed pair,
// printed v(n-1):n): low vn, high vn-1.
static inline unsigned hx_vpair_lo(unsigned n) { return n & 31; }
static inline unsigned hx_vpair_hi(unsigned n) { return (n & 1) ? (n - 1) & 31 : (n + 1) & 31; }

#endif
