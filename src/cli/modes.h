// SPDX-License-Identifier: MIT
// The start-up of each way hexsim runs, called by main (src/main.c) once the command line is
// parsed: Linux user mode (run_user.c), system mode (run_system.c) and either under the
// debugger (run_debug.c).
#ifndef HEXSIM_CLI_MODES_H
#define HEXSIM_CLI_MODES_H

#include <time.h>

#include "cli/options.h"
#include "hexsim/host.h"

// Linux user mode: loads PROG (gargv[0]) or restores --restore FILE, runs it; its status.
int cli_run_user(const struct cli_options *o, int gargc, char **gargv);
// System mode: builds the machine, loads KERNEL (and the initrd) or restores, runs it.
int cli_run_system(struct cli_options *o);

// Under the debugger: the program's or machine's exit status if it ended, else 0 (or the
// status a --gdb client's kill gives).
int cli_debug_user(const struct cli_options *o, struct hexsim_user *u);
// term: the terminal of the console, NULL with the SDL window.
int cli_debug_system(const struct cli_options *o, struct hexsim_machine *m,
                     struct hexsim_terminal *term);

// Seconds of host time since *t0 (CLOCK_MONOTONIC).
double cli_seconds_since(const struct timespec *t0);

#endif
