// SPDX-License-Identifier: MIT
// A debugging session over any target, as the hexsim command line starts it: initial
// breakpoints, command scripts, an interactive or piped command loop, or the gdb stub.
// The line editor is passed in (the hexsim program gives GNU readline), so this file stays
// free of terminal state.
#ifndef HEXSIM_DEBUG_SESSION_H
#define HEXSIM_DEBUG_SESSION_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "target.h"

#define HEXSIM_DBG_MAX_OPT 16

struct hexsim_dbg_options {
    bool stop_at_start;                    // --debug: stop before the first packet
    const char *breaks[HEXSIM_DBG_MAX_OPT]; // --break SYM|ADDR
    unsigned nbreaks;
    const char *scripts[HEXSIM_DBG_MAX_OPT]; // -x FILE
    unsigned nscripts;
    const char *gdb;                       // --gdb [HOST:]PORT, or NULL
};

struct hexsim_dbg_line_editor {
    // Returns a malloc'd line without its newline, or NULL at end of input.
    char *(*read_line)(void *ctx, const char *prompt);
    void *ctx;
    // Called with the session's CLI before the first line is read (completion setup).
    void (*attach)(void *ctx, struct hexsim_dbg_cli *cli);
    // Optional (NULL): called before the debugger writes a stop report; it ends the
    // program's unfinished output line (a guest's prompt), so the report starts a line.
    void (*line_start)(void *ctx);
};

// Runs the session. When it ends with the program still alive, and the session asked for
// it (detach, or no command loop), the program runs on to its end. Returns true when the
// program has ended (*status: its exit status), false when the session quit before
// (*status HEXSIM_DBG_BAD_BREAK: a --break location did not resolve, nothing ran).
#define HEXSIM_DBG_BAD_BREAK 2
// *status when a --gdb client killed the program (lldb's kill; the session returns false):
// 128 + SIGKILL, as for a program ended by that signal.
#define HEXSIM_DBG_KILLED 137
bool hexsim_dbg_session(const struct hexsim_dbg_target *t, const struct hexsim_dbg_options *o,
                        const struct hexsim_dbg_line_editor *ed, FILE *out, FILE *log,
                        int *status);

#endif
