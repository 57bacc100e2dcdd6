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

#include "cfi.h"
#include "dwarf.h"
#include "symtab.h"
#include "target.h"
#include "types.h"

#define HEXSIM_DBG_MAX_BP 64
#define HEXSIM_DBG_MAX_WP 16
#define HEXSIM_DBG_MAX_DISPLAY 16
#define HEXSIM_DBG_MAX_FRAMES 256

struct hexsim_dbg_bp {
    int id;
    uint32_t addr;
    bool enabled, temp;
    bool remote;                // set by the gdb stub (Z0), not listed by the CLI
    unsigned hits;              // times reached with its condition true (ignored ones too)
    unsigned ignore;            // that many more hits do not stop (gdb's ignore count)
    char loc[64];               // as the user wrote it
    char cond[128];             // stop only if this expression is true ("": always)
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

// A frame of the call chain: the PC it is at (frame 0) or returns to, its FP and the SP
// it had before it called (its CFA minus 8 for frames past 0). A frame interrupted by an
// event of the guest kernel (kernel.h: a system call, interrupt or exception, from user or
// kernel mode) has regs, the address of the pt_regs its registers were saved in, and pc the
// interrupted PC (0: an ordinary frame).
struct hexsim_dbg_frame {
    uint32_t pc, fp, sp;
    uint32_t regs;
};

struct hexsim_dbg_display {
    int id;
    char fmt;                   // 0 or a print format letter
    char expr[120];
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
    void (*line_start)(void *ctx);       // before a stop report: end the program's line (or NULL)
    void *line_start_ctx;
    bool ended;                          // the program has ended (EXIT seen)
    int exit_status;
    unsigned values;                     // print history counter ($1, $2, ...)
    unsigned frame;                      // the selected frame (up/down/frame; 0 after a stop)
    struct hexsim_dtypes types;          // C types of expressions and DWARF
    struct hexsim_dwarf *dw;             // the image's DWARF (NULL: none)
    bool dw_tried;
    struct hexsim_cfi *cfi;              // the image's call frame information (NULL: none)
    bool cfi_tried;
    struct hexsim_dbg_display disp[HEXSIM_DBG_MAX_DISPLAY];
    unsigned ndisp;
    int next_disp;
    bool stop_temp;                      // the breakpoint of the last stop was temporary
    int step_report;                     // how the next STEP stop is reported (below)
    bool started;                        // a packet has run since the start (run restarts)
    char *start_snap;                    // the start as a snapshot (run restarts), or NULL:
    int start_fd;                        // an unlinked file, reopened as /proc/self/fd/N
    char cond_err[200];                  // why the last stop's condition could not be tested
    struct hexsim_symtab extra_syms;     // add-symbol-file: more ELF symbols (a guest
                                         // program's, in system mode), for addresses the
                                         // image's symbols do not cover
};

// After a step by line: gdb's report, the source line alone (same function and frame), or
// the frame and the source line (another function); NONE: the location as for stepi.
enum { HEXSIM_DBG_REPORT_NONE, HEXSIM_DBG_REPORT_LINE, HEXSIM_DBG_REPORT_FRAME };

void hexsim_dbg_init(struct hexsim_debugger *d, const struct hexsim_dbg_target *t, FILE *out);
void hexsim_dbg_free(struct hexsim_debugger *d);
// Closes the packet trace file (trace off).
void hexsim_dbg_trace_close(struct hexsim_debugger *d);

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
// The symbol at addr: the image's, else one of add-symbol-file's (NULL: none near).
const struct hexsim_sym *hexsim_dbg_sym_at(struct hexsim_debugger *d, uint32_t addr);
// add-symbol-file: the ELF symbols of path name addresses the image's do not (a user
// program's code in system mode). 0, or -1 when the file cannot be read.
int hexsim_dbg_add_symbols(struct hexsim_debugger *d, const char *path);
// "<main+16>" (or "" when no symbol is near) into buf.
const char *hexsim_dbg_symbolize(struct hexsim_debugger *d, uint32_t addr, char *buf, size_t len);
// The image's DWARF, opened on first use (NULL: the image has none).
struct hexsim_dwarf *hexsim_dbg_dwarf(struct hexsim_debugger *d);
// The source line of addr: 0, or -1 without DWARF for it.
int hexsim_dbg_line(struct hexsim_debugger *d, uint32_t addr, const char **file,
                    unsigned *line);

// ---- expressions (expr.c; typed values in value.h): C expressions over numbers,
// $registers, variables (DWARF: locals of the selected frame, globals), ELF symbols, casts,
// * & [] . -> and C's operators. This call gives a number for commands that want an address
// or a count (x, break, watch, set, disassemble): there a symbol without debug information
// is its address, an array or function its address, and *EXPR of a plain number a 32-bit
// load. Returns 0, or -1 with a message in err.
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
// Another location of breakpoint id (a function inlined in several places): 0, or -1
// (no such breakpoint, or the table is full). Locations share the id, condition, ignore
// count and hits; delete/enable/disable act on all of them.
int hexsim_dbg_break_add_loc(struct hexsim_debugger *d, int id, uint32_t addr);
// Copies b's condition, ignore count, hits and enabled state to its other locations.
void hexsim_dbg_break_sync(struct hexsim_debugger *d, const struct hexsim_dbg_bp *b);
// The breakpoint with this id (not a watchpoint), or NULL.
struct hexsim_dbg_bp *hexsim_dbg_break_find(struct hexsim_debugger *d, int id);
// Removes remote breakpoints or watchpoints at addr (gdb z packets). Returns 0 or -1.
int hexsim_dbg_remote_remove(struct hexsim_debugger *d, bool watch, uint32_t addr);

// ---- snapshots (the target's save/load ops): savevm writes the machine or process to
// path; loadvm replaces it with the one in path (same configuration; checked first, so a
// refused file changes nothing) and the program counts as running again. Breakpoints and
// watchpoints stay. 0, or -1 with a message.
int hexsim_dbg_savevm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen);
int hexsim_dbg_loadvm(struct hexsim_debugger *d, const char *path, char *msg, size_t msglen);

// ---- restarting (gdb's run after the start): hexsim_dbg_mark_start saves the target as it
// is now (the program loaded, nothing run yet) to a temporary snapshot, when the target can
// restart (ops->restartable) and save; hexsim_dbg_restart loads it back: the program starts
// again from its entry, breakpoints and watchpoints stay. The file is unlinked at once (its
// descriptor keeps it until hexsim_dbg_free), so nothing is left behind.
// 0, or -1 with a message.
int hexsim_dbg_mark_start(struct hexsim_debugger *d);
int hexsim_dbg_restart(struct hexsim_debugger *d, char *msg, size_t msglen);

// ---- run control. Each fills *stop; a breakpoint or watchpoint that stopped execution has
// its hit counted (a temporary breakpoint is deleted). A breakpoint with a condition stops
// only where the condition (evaluated in the stopping thread's innermost frame) is true, and
// one with an ignore count only once the count has run down, as gdb's; a condition that
// cannot be evaluated stops, with the reason in d->cond_err. With d->trace set, every
// packet run is written to it.
void hexsim_dbg_continue(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// One packet; *info says what it did (may be NULL).
void hexsim_dbg_stepi(struct hexsim_debugger *d, struct hexsim_dbg_step_info *info,
                      struct hexsim_dbg_stop *stop);
// One packet, running a call it makes to its return.
void hexsim_dbg_next(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// By source line, as gdb's step (how HEXSIM_DBG_LINE_STEP: into calls of functions with
// line information, stopping after their prologue), next (LINE_NEXT: over calls) and until
// (LINE_UNTIL: as next, but a jump back within the function does not end it). Sets
// d->step_report for the stop report. -1 (nothing run) when PC has no line information:
// the caller steps by packet instead.
enum { HEXSIM_DBG_LINE_STEP, HEXSIM_DBG_LINE_NEXT, HEXSIM_DBG_LINE_UNTIL };
int hexsim_dbg_step_line(struct hexsim_debugger *d, int how, struct hexsim_dbg_stop *stop);
// Runs until the selected frame returns to its caller. -1 (nothing run) when it is the
// outermost frame.
int hexsim_dbg_finish(struct hexsim_debugger *d, struct hexsim_dbg_stop *stop);
// Runs until PC reaches addr in this frame or a caller, or this frame returns (gdb's until
// LOC and advance LOC); without addr, as next by source line (else by packet) that does not
// stop at a backward jump: leaves loops.
void hexsim_dbg_until(struct hexsim_debugger *d, bool has_addr, uint32_t addr,
                      struct hexsim_dbg_stop *stop);

// ---- frames: the chain through FP/LR (allocframe pushes FP and LR: [FP] = caller FP,
// [FP+4] = return address), and on past the guest kernel's event entry into the context an
// event interrupted (kernel.h). Fills up to max frames (frame 0 is PC); returns the count.
unsigned hexsim_dbg_frames(struct hexsim_debugger *d, struct hexsim_dbg_frame *f, unsigned max);
// Selects frame n (up/down/frame). 0, or -1 when there is no such frame.
int hexsim_dbg_select_frame(struct hexsim_debugger *d, unsigned n);
// The selected frame: its PC, and the address to look its function and line up by (PC-1
// for a caller's frame, whose PC is a return address that may be past the call's function).
uint32_t hexsim_dbg_frame_pc(struct hexsim_debugger *d, uint32_t *lookup);
// General register r of the selected frame. Frame 0: all. A caller's frame: SP and FP from
// the frame chain, and with call frame information (cfi.h) the registers its callees saved
// or kept: r16-r27 and r31 (LR) as the function had them, r0-r15 and r28 only where the
// CFI says where they are. 0, or -1 when the frame does not know it.
int hexsim_dbg_frame_reg(struct hexsim_debugger *d, unsigned r, uint32_t *val);
// Where frame n saved its caller's register r (the CFI's rule at the frame's PC): 0 with
// the address, or -1 (not saved in memory, or no CFI).
int hexsim_dbg_frame_saved_at(struct hexsim_debugger *d, unsigned n, unsigned r,
                              uint32_t *addr);
// The image's call frame information, read on first use (NULL: none).
struct hexsim_cfi *hexsim_dbg_cfi(struct hexsim_debugger *d);
// Frame n as gdb describes it: "add3 (a=10, b=10, c=20) at dbgprog.c:22" with DWARF
// ("0x... in " first for a caller's frame or a PC inside a line), else "0x... <add3+4>"; a
// caller's function is the one holding its return address minus 1.
void hexsim_dbg_describe_frame(struct hexsim_debugger *d, unsigned n, FILE *out);
// The source text of file:line as "22\t    return a;\n"; false (nothing printed) when the
// file cannot be read or is shorter.
bool hexsim_dbg_print_source_line(struct hexsim_debugger *d, const char *file, unsigned line,
                                  FILE *out);

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
