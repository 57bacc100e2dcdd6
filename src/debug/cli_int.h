// SPDX-License-Identifier: MIT
// Shared between the command interpreter's files (cli.c: the table, run control,
// breakpoints, registers; cli_mem.c: x, set, disassemble; cli_src.c: the commands about
// source, frames and typed values). Not for other modules.
#ifndef HEXSIM_DEBUG_CLI_INT_H
#define HEXSIM_DEBUG_CLI_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "vreg.h"

const char *hexsim_cli_skip_ws(const char *s);
// Evaluates expr for a number (hexsim_dbg_eval); prints the error and returns false.
bool hexsim_cli_eval(struct hexsim_dbg_cli *c, const char *expr, uint64_t *v);
// The same for a guest address: the value's low 32 bits (a register is an int, so
// $r1 = 0xc09a9ed0 would otherwise be 0xffffffffc09a9ed0).
bool hexsim_cli_eval_addr(struct hexsim_dbg_cli *c, const char *expr, uint32_t *addr);
// A code location: "*EXPR" (that address), "FILE:LINE" (DWARF), "FUNC" (with DWARF: after
// its prologue, as gdb places breakpoints; else its address), or an expression. With DWARF
// fills *file and *line for the message (else *file = NULL). Prints the error; false.
bool hexsim_cli_code_location(struct hexsim_dbg_cli *c, const char *args, uint32_t *addr,
                              const char **file, unsigned *line);
// After a stop: the `display` expressions.
void hexsim_cli_show_displays(struct hexsim_dbg_cli *c);
// A stop's report, then the displays (cli.c).
void hexsim_cli_report(struct hexsim_dbg_cli *c, const struct hexsim_dbg_stop *stop);

// breakpoint conditions and run (cli_bp.c)
// "LOC if EXPR": LOC into loc; returns EXPR, or NULL when there is no `if`.
const char *hexsim_cli_split_if(const char *args, char *loc, size_t len);
// Where the function `name` was inlined (DWARF), at most max addresses; 0 for anything that
// is not a plain name, or without DWARF. The locations `break NAME` adds.
unsigned hexsim_cli_inlined(struct hexsim_dbg_cli *c, const char *name, uint32_t *addrs,
                            unsigned max);
// Whether `name` has code of its own (an out-of-line copy in DWARF, or an ELF symbol).
bool hexsim_cli_has_code(struct hexsim_dbg_cli *c, const char *name);
// Sets breakpoint id's condition; false (with a message) when it is too long.
bool hexsim_cli_set_condition(struct hexsim_dbg_cli *c, int id, const char *expr);
// info breakpoints: the lines under a breakpoint (its condition, its ignore count).
void hexsim_cli_bp_details(struct hexsim_dbg_cli *c, const struct hexsim_dbg_bp *b);
bool hexsim_cli_cmd_condition(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_ignore(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_run(struct hexsim_dbg_cli *c, const char *a, const char *m);

// commands (cli.c's table)
bool hexsim_cli_cmd_x(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_set(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_disassemble(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_print(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_ptype(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_whatis(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_display(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_undisplay(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_list(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_bt(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_up(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_down(struct hexsim_dbg_cli *c, const char *a, const char *m);
bool hexsim_cli_cmd_frame(struct hexsim_dbg_cli *c, const char *a, const char *m);
// info pages: frame, line [LOC], locals, args, display
void hexsim_cli_info_frame(struct hexsim_dbg_cli *c);
void hexsim_cli_info_line(struct hexsim_dbg_cli *c, const char *args);
void hexsim_cli_info_vars(struct hexsim_dbg_cli *c, bool args);
void hexsim_cli_info_display(struct hexsim_dbg_cli *c);

#endif
