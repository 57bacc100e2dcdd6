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
// Returns HEXSIM_GDB_DETACHED when the client detached (the caller lets the program run on),
// HEXSIM_GDB_KILLED when it killed the program (packet k, answered X09 as for SIGKILL, or
// vKill), HEXSIM_GDB_HUNG_UP when it closed the connection without either, -1 when the
// socket could not be set up (message on log).
#define HEXSIM_GDB_DETACHED 0
#define HEXSIM_GDB_HUNG_UP 1
#define HEXSIM_GDB_KILLED 2
int hexsim_gdb_serve(struct hexsim_debugger *d, const char *hostport, FILE *log);

#endif
