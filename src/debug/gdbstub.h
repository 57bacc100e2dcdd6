// SPDX-License-Identifier: MIT
// GDB remote serial protocol stub over the debugger core, for gdb and lldb (lldb-16 speaks
// Hexagon): registers in lldb's Hexagon numbering with a qXfer:features target description,
// memory read/write, Z0/Z1 breakpoints, Z2/Z3/Z4 watchpoints, step, continue, Ctrl-C,
// threads (vCPUs), kill and detach.
#ifndef HEXSIM_DEBUG_GDBSTUB_H
#define HEXSIM_DEBUG_GDBSTUB_H

#include <stdio.h>

#include "debugger.h"

// Listens on [HOST:]PORT (default host 127.0.0.1; port 0 picks a free one), announces the
// address on `log`, serves one connection until the client detaches, kills or hangs up.
// Returns 0 when the client detached (the caller lets the program run on), 1 when it killed
// the program or hung up, -1 when the socket could not be set up (message on log).
int hexsim_gdb_serve(struct hexsim_debugger *d, const char *hostport, FILE *log);

#endif
