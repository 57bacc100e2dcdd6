// SPDX-License-Identifier: MIT
// The exit statuses of hexsim: one list (exit_status.c) that the code returns, `--help` and
// the man page print. The values of system mode come from include/hexsim/machine.h, those of
// the debugger from src/debug/session.h; exit_status.c checks that they agree.
#ifndef HEXSIM_CLI_EXIT_STATUS_H
#define HEXSIM_CLI_EXIT_STATUS_H

#include <stdio.h>

enum hexsim_exit {
    HEXSIM_EXIT_OK = 0,
    HEXSIM_EXIT_FILE = 1,         // a file named on the command line: unreadable, unwritable
    HEXSIM_EXIT_USAGE = 2,        // bad command line, or a host feature that is missing
    HEXSIM_EXIT_GUEST_ERROR = 3,  // system mode: the guest cannot go on
    HEXSIM_EXIT_GUEST_FAIL = 4,   // system mode: the guest reported a failure
    HEXSIM_EXIT_LIMIT = 124,      // --max-packets or --max-seconds
    HEXSIM_EXIT_NO_INTERP = 127,  // --user: a dynamic PROG whose loader is not found
    HEXSIM_EXIT_KILLED = 137,     // --gdb: the client killed the program
};

struct hexsim_exit_info {
    const char *code;             // "0", "1", ... or "--user" for the program's own
    const char *text;             // what it means (plain text, wrapped by the printers)
};

// The list, in order, ending with { NULL, NULL }.
extern const struct hexsim_exit_info hexsim_exit_list[];

#endif
