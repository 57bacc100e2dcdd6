// SPDX-License-Identifier: MIT
// The debugger core: breakpoints, watchpoints, run control (continue, step, next, finish,
// until), expressions, symbolization and frame walking over a struct hexsim_dbg_target. It
// has no user interface: the command interpreter (cli.c), the readline front end and the gdb
// remote stub (gdbstub.c) are thin layers over these calls, and tests can call them directly.
#ifndef HEXSIM_DEBUG_DEBUGGER_H
#define HEXSIM_DEBUG_DEBUGGER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "symtab.h"
#include "target.h"

#define HEXSIM_DBG_MAX_BP 64
#define HEXSIM_DBG_MAX_WP 16

struct hexsim_dbg_bp {
    int id;
    uint32_t addr;
    bool enabled, temp;
    bool remote;                // set by the gdb stub (Z0), not listed by the CLI
    unsigned hits;
    char loc[64];               // as the user wrote it
};

struct hexsim_dbg_wp {
    int id;
    struct hexsim_dbg_watch w;
    bool enabled, remote;
    unsigned hits;
    uint64_t old;               // value when set or last hit (len <= 8)
    uint64_t prev;              // the value before the last hit
    char expr[64];
};

struct hexsim_debugger {
    struct hexsim_dbg_target t;
    unsigned thread;                     // current thread (1-based)
    struct hexsim_dbg_bp bp[HEXSIM_DBG_MAX_BP];
    unsigned nbp;
    struct hexsim_dbg_wp wp[HEXSIM_DBG_MAX_WP];
    unsigned nwp;
    int next_id;                         // breakpoints and watchpoints share numbers
    FILE *out;                           // command output
    FILE *trace;                         // packet trace (trace on FILE), or NULL
    bool (*poll)(void *ctx);             // asked now and then while running: stop?
    void *poll_ctx;
    bool ended;                          // the program has ended (EXIT seen)
    int exit_status;
    unsigned values;                     // print history counter ($1, $2, ...)
};

void hexsim_dbg_init(struct hexsim_debugger *d, const struct hexsim_dbg_target *t, FILE *out);
void hexsim_dbg_free(struct hexsim_debugger *d);

// ---- registers, memory, symbols
// Finds a register by name ("r0", "sp", "pc", "c9", "usr", "p3_0"); p0-p3 are reported as
// num 1000+N (a byte of P3:0). Returns 0 or -1.
int hexsim_dbg_reg_lookup(const struct hexsim_debugger *d, const char *name, unsigned *num);
int hexsim_dbg_reg_read(struct hexsim_debugger *d, unsigned num, uint64_t *val);
int hexsim_dbg_reg_write(struct hexsim_debugger *d, unsigned num, uint64_t val);
uint32_t hexsim_dbg_pc(struct hexsim_debugger *d);
// Reads a little-endian value of 1, 2, 4 or 8 bytes; returns 0 or -1 (unreachable).
int hexsim_dbg_read_uint(struct hexsim_debugger *d, uint64_t addr, unsigned size, unsigned flags,
                         uint64_t *val);
int hexsim_dbg_write_uint(struct hexsim_debugger *d, uint64_t addr, unsigned size,
                          unsigned flags, uint64_t val);
const struct hexsim_symtab *hexsim_dbg_symtab(struct hexsim_debugger *d);
// "<main+16>" (or "" when no symbol is near) into buf.
const char *hexsim_dbg_symbolize(struct hexsim_debugger *d, uint32_t addr, char *buf, size_t len);

// ---- expressions: C-like integer expressions over numbers, $registers, symbols (their
// address), *EXPR (32-bit load), unary - ~ !, * / % + - << >> < <= > >= == != & ^ | && ||.
// Returns 0, or -1 with a message in err.
int hexsim_dbg_eval(struct hexsim_debugger *d, const char *expr, uint64_t *val, char *err,
                    size_t errlen);

// ---- breakpoints and watchpoints: return the new id, or -1 when the table is full.
int hexsim_dbg_break_add(struct hexsim_debugger *d, uint32_t addr, bool temp, bool remote,
                         const char *loc);
int hexsim_dbg_watch_add(struct hexsim_debugger *d, uint32_t addr, uint32_t len, unsigned kind,
                         bool remote, const char *expr);
// Deletes / enables / disables by id (-1: all that are not remote). Return 0 or -1 (no such id).
int hexsim_dbg_delete(struct hexsim_debugger *d, int id);
int hexsim_dbg_enable(struct hexsim_debugger *d, int id, bool on);
// Removes remote breakpoints or watchpoints at addr (gdb z packets). Returns 0 or -1.
int hexsim_dbg_remote_remove(struct hexsim_debugger *d, bool watch, uint32_t addr);

// ---- snapshots (the target's save/load ops): savevm writes the machine or process to
// path; loadvm replaces it with the one in path (same configuration; checked first, so a
// refused file changes nothing) and the program counts as running again. Breakpoints and
// watchpoints stay. 0, or -1 with a message.
int hexsim_dbg_savevm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen);
int hexsim_dbg_loadvm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen);

// ---- run control. Each fills *stop; a breakpoint or watchpoint that stopped execution has
// its hit counted (a temporary breakpoint is deleted). With d->trace set, every packet run is
// written to it.
void hexsim_dbg_continue(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// One packet; *info says what it did (may be NULL).
void hexsim_dbg_stepi(struct hexsim_debugger *d, struct hexsim_dbg_step_info *info,
                      struct hexsim_dbg_stop *stop);
// One packet, running a call it makes to its return.
void hexsim_dbg_next(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// Runs until the current function returns to its caller; *ret is the return address.
void hexsim_dbg_finish(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// Runs until PC reaches addr in this frame or a caller (or, without addr, like next, but
// does not stop at a backward jump: leaves loops).
void hexsim_dbg_until(struct hexsim_debugger *d, bool has_addr, uint32_t addr,
                      struct hexsim_dbg_stop *stop);

// ---- frames: the chain through FP/LR (allocframe pushes FP and LR: [FP] = caller FP,
// [FP+4] = return address). Fills up to max PCs (frame 0 is PC); returns the count.
unsigned hexsim_dbg_backtrace(struct hexsim_debugger *d, uint32_t *pcs, unsigned max);

// ---- output helpers shared by the front ends
// One packet at addr as "{ insn; insn }:endloop0" with branch targets symbolized. Returns
// the packet's size in bytes (4 for an unreadable or invalid word).
unsigned hexsim_dbg_format_packet(struct hexsim_debugger *d, uint32_t addr, char *buf,
                                  size_t len);
// "=> 0x00020010 <main+16>: { ... }" line for PC.
void hexsim_dbg_print_location(struct hexsim_debugger *d, FILE *out);
// The instructions of a stepped packet and the values each committed (stepi).
void hexsim_dbg_print_step(struct hexsim_debugger *d, const struct hexsim_dbg_step_info *info,
                           FILE *out);
// "Breakpoint 1, ...", "Program exited with code 0." ... for a stop.
void hexsim_dbg_print_stop(struct hexsim_debugger *d, const struct hexsim_dbg_stop *stop,
                           FILE *out);
const char *hexsim_dbg_signal_name(int sig);

#endif
