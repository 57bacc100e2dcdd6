// SPDX-License-Identifier: MIT
// The debugger's command interpreter: gdb-style commands over the debugger core, one line at
// a time, output on the debugger's stream. Knows nothing of terminals: the readline front
// end (hexsim program) and scripts (-x FILE, a pipe) feed it lines.
#ifndef HEXSIM_DEBUG_CLI_H
#define HEXSIM_DEBUG_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "debugger.h"

struct hexsim_dbg_cli {
    struct hexsim_debugger *d;
    char last[256];        // the previous command, repeated by an empty line when interactive
    bool interactive;
    bool quit;
    unsigned complete_pos[3];   // a front end's completion progress (commands, registers, symbols)
    char list_file[512];        // list: the file and the next line to show (0: around the
    unsigned list_line;         // selected frame's line)
};

void hexsim_dbg_cli_init(struct hexsim_dbg_cli *c, struct hexsim_debugger *d, bool interactive);
// Executes one command line. Returns true when the session should end (quit).
bool hexsim_dbg_cli_exec(struct hexsim_dbg_cli *c, const char *line);
// Executes every line of f; with echo, each is printed after the prompt first, so that a
// transcript reads like a session. Returns true when a command ended the session.
bool hexsim_dbg_cli_source(struct hexsim_dbg_cli *c, FILE *f, bool echo);
// Command names, for completion (NULL after the last).
const char *hexsim_dbg_cli_command(unsigned i);

#define HEXSIM_DBG_PROMPT "(hexsim) "

#endif
