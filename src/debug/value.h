// SPDX-License-Identifier: MIT
// Typed values of debugger expressions (expr.c makes them, value.c prints them as gdb does):
// a C type and where the value is: guest memory (an lvalue), a register of the selected
// frame, or computed. Scalars are at most 64 bits; aggregates are read from memory as they
// are printed.
#ifndef HEXSIM_DEBUG_VALUE_H
#define HEXSIM_DEBUG_VALUE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "types.h"

struct hexsim_debugger;

enum hexsim_dval_where { HEXSIM_V_VALUE, HEXSIM_V_MEM, HEXSIM_V_REG, HEXSIM_V_OPTIMIZED };

struct hexsim_dval {
    const struct hexsim_dtype *type;
    int where;                  // enum hexsim_dval_where
    uint32_t addr;              // MEM
    unsigned reg;               // REG: r0-r31 of the selected frame
    uint64_t bits;              // VALUE: the value (zero- or sign-extended to 64 bits)
    const char *name;           // a symbol without debug information: its name
};

// Parses and evaluates expr with types (print, display, ptype). 0, or -1 with a message.
int hexsim_dbg_eval_value(struct hexsim_debugger *d, const char *expr, struct hexsim_dval *v,
                          char *err, size_t errlen);
// `expr` names a type ("int", "struct s *", "u32"): *t is it. 0, or -1 (not a type).
int hexsim_dbg_parse_type(struct hexsim_debugger *d, const char *expr,
                          const struct hexsim_dtype **t);
// A scalar's value, extended to 64 bits by its type's signedness. 0, or -1 with a message.
int hexsim_dval_scalar(struct hexsim_debugger *d, const struct hexsim_dval *v, uint64_t *out,
                       char *err, size_t errlen);
// Prints v as `print` does (fmt: 0 natural, or x d u o t c a); top: with the type prefix
// gdb gives pointers and functions.
void hexsim_dval_print(struct hexsim_debugger *d, const struct hexsim_dval *v, char fmt,
                       FILE *out);

#endif
