// SPDX-License-Identifier: MIT
// DWARF for the debugger, read with elfutils' libdw: line tables (address to file:line and
// back), functions (name, range, the end of the prologue), variables (globals, and the
// locals and parameters in scope at a PC, with their locations) and their types, turned
// into the debugger's C types (types.h). An image without DWARF has no hexsim_dwarf.
#ifndef HEXSIM_DEBUG_DWARF_H
#define HEXSIM_DEBUG_DWARF_H

#include <stdbool.h>
#include <stdint.h>

#include "types.h"

struct hexsim_dwarf;

// NULL when the file cannot be read or has no debugging information.
struct hexsim_dwarf *hexsim_dwarf_open(const char *path);
void hexsim_dwarf_close(struct hexsim_dwarf *dw);

// The source line of addr (file as the line table names it, joined with the compilation
// directory). 0, or -1 when no line covers it.
int hexsim_dwarf_addr_line(struct hexsim_dwarf *dw, uint32_t addr, const char **file,
                           unsigned *line);
// The statement row holding addr: [*start, *end) (start: the last is_stmt row at or below
// addr; end: the next row's address).
int hexsim_dwarf_line_range(struct hexsim_dwarf *dw, uint32_t addr, uint32_t *start,
                            uint32_t *end);
// The code of FILE:LINE (FILE: a path or its last components): the lowest address of the
// first line at or after `line` that has code, in the file whose name matches. Fills the
// full file name and the line found. 0, or -1 (no such file, or no code at or after line).
int hexsim_dwarf_line_addr(struct hexsim_dwarf *dw, const char *file, unsigned line,
                           uint32_t *addr, const char **file_out, unsigned *line_out);

struct hexsim_dwarf_func {
    const char *name;
    uint32_t low, high;         // [low, high)
    uint32_t body;              // the first address after the prologue (low if unknown)
    const char *file;           // where it is declared
    unsigned line;
    const char *inlined;        // func_at: the innermost function inlined at addr, or NULL
};
// The function whose code contains addr, or the one named `name`. 0 or -1.
int hexsim_dwarf_func_at(struct hexsim_dwarf *dw, uint32_t addr, struct hexsim_dwarf_func *f);
int hexsim_dwarf_func_named(struct hexsim_dwarf *dw, const char *name,
                            struct hexsim_dwarf_func *f);

// The entry addresses of every inlined instance of the function `name` (DWARF's
// DW_TAG_inlined_subroutine entries whose abstract origin has that name), at most max into
// addrs; returns how many were found. The out-of-line copy (hexsim_dwarf_func_named) is not
// one of them.
unsigned hexsim_dwarf_inlined(struct hexsim_dwarf *dw, const char *name, uint32_t *addrs,
                              unsigned max);

enum hexsim_dwarf_loc { HEXSIM_DW_MEM, HEXSIM_DW_REG, HEXSIM_DW_VALUE, HEXSIM_DW_OPTIMIZED,
                        HEXSIM_DW_FUNC };

struct hexsim_dwarf_var {
    const struct hexsim_dtype *type;
    int loc;                    // enum hexsim_dwarf_loc
    uint64_t val;               // MEM: address; REG: r0-r31; VALUE: the value; FUNC: address
    bool local;                 // a local or parameter (else a global or static)
};

// Reads general register r (0-31) of the frame; 0, or -1 when the frame does not have it.
typedef int (*hexsim_dwarf_reg_fn)(void *ctx, unsigned r, uint32_t *val);

// The variable (or function) `name` as code at pc sees it: locals and parameters of the
// scopes around pc first, then the globals. Types are made in `a`. 0, or -1 (no such name).
int hexsim_dwarf_var(struct hexsim_dwarf *dw, struct hexsim_dtypes *a, const char *name,
                     uint32_t pc, hexsim_dwarf_reg_fn reg, void *ctx,
                     struct hexsim_dwarf_var *out);
// A type by name: a typedef or base type ("u32", "int"), or "struct S", "union U", "enum E".
const struct hexsim_dtype *hexsim_dwarf_type(struct hexsim_dwarf *dw, struct hexsim_dtypes *a,
                                             const char *name);
// Calls fn for each local variable and parameter in scope at pc, innermost first (info
// locals, info args): args selects parameters (true) or the other locals (false).
void hexsim_dwarf_locals(struct hexsim_dwarf *dw, uint32_t pc, bool args,
                         void (*fn)(void *ctx, const char *name), void *ctx);

#endif
