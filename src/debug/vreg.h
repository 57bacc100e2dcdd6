// SPDX-License-Identifier: MIT
// The HVX registers in the debugger: V0-V31 (128 bytes) and Q0-Q3 (16 bytes, one bit per
// byte lane of a vector), read and written whole through the target's read_wide/write_wide,
// seen as lanes (gdb-style views: .b/.ub signed/unsigned bytes, .h/.uh halfwords, .w/.uw
// words; lane i of .h is bytes 2i and 2i+1, cpu/hvx.h), printed as gdb prints arrays (runs of
// 10 or more equal lanes as "<repeats N times>"). Used by print and set ($v3.w[5]), info
// vector, and the stepi write log. Facts: HVX Programmer's Reference Manual, "Registers".
#ifndef HEXSIM_DEBUG_VREG_H
#define HEXSIM_DEBUG_VREG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "target.h"

struct hexsim_debugger;

// A reference "v3", "v3.w" or "v3.w[5]" (no '$'; an index is a number).
struct hexsim_dbg_vref {
    unsigned num;           // register number (target.h)
    unsigned bytes;         // its size: 128 (V) or 16 (Q)
    char name[8];           // "v3"
    unsigned lane;          // lane size in bytes, 0: no view named
    bool is_signed;         // .b .h .w (not .ub .uh .uw)
    bool indexed;           // [i] given
    unsigned index;
};

// Parses a reference at s (after the '$'); *end: the first character after it. Returns 0,
// 1 when s does not name a vector register of the target, or -1 with a message in err (a
// bad view or index).
int hexsim_dbg_vref_parse(struct hexsim_debugger *d, const char *s, const char **end,
                          struct hexsim_dbg_vref *r, char *err, size_t errlen);
// The register's bytes (r->bytes of them). 0 or -1.
int hexsim_dbg_vreg_read(struct hexsim_debugger *d, unsigned num, void *buf);
int hexsim_dbg_vreg_write(struct hexsim_debugger *d, unsigned num, const void *buf);
// Lane i of `lane` bytes in buf, zero- or sign-extended.
uint64_t hexsim_dbg_vlane(const uint8_t *buf, unsigned lane, unsigned i, bool is_signed);
// Prints the lanes of buf (bytes long) as "{1, 2, 0 <repeats 30 times>}"; fmt: 0 (decimal),
// 'x' (gdb's /x: 0x7), 'z' (hex with every digit: 0x00000007).
void hexsim_dbg_vlanes_print(const uint8_t *buf, unsigned bytes, unsigned lane, bool is_signed,
                             char fmt, FILE *out);
// Prints a whole register or a view as print does ("{b = {...}, h = {...}, w = {...}}" for a
// V register, "0x..." for a Q register, "{...}" for a view). fmt: 0 or 'x'.
void hexsim_dbg_vref_print(struct hexsim_debugger *d, const struct hexsim_dbg_vref *r,
                           const uint8_t *buf, char fmt, FILE *out);
// info vector [REG[.VIEW]...]: every register (words in hex, Q as hex), or the ones named in
// byte, halfword and word lanes and in hex.
void hexsim_dbg_info_vector(struct hexsim_debugger *d, const char *args, FILE *out);

#endif
