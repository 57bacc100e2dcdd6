// SPDX-License-Identifier: MIT
// The debugger target for Linux user mode (src/debug/target.h over struct hexsim_user): one
// thread (id 1), the process's virtual memory (no physical view), the program's ELF symbols,
// and no system information providers. A fault stops the program at the faulting packet;
// running on delivers the signal: to the program's handler if it has one, else it ends the
// process.
#ifndef HEXSIM_USER_DBG_TARGET_H
#define HEXSIM_USER_DBG_TARGET_H

#include "debug/symtab.h"
#include "debug/target.h"
#include "user.h"

struct hexsim_user_dbg {
    struct hexsim_user *u;
    struct hexsim_user_exec x;
    struct hexsim_symtab syms;
    bool faulted;                // stopped at a fault; the signal is delivered on resume
    int fault_status;            // 128 + signal
    struct hexsim_event_info fault_ev;   // the fault, for the handler
    bool dead;                   // the process has ended
    int exit_status;
    int exit_signal;             // the signal that ended it, 0 for exit()
};

// Sets up d over the loaded process u and fills *t. Returns 0, or -1 (out of memory).
int hexsim_user_dbg_init(struct hexsim_user_dbg *d, struct hexsim_user *u,
                         struct hexsim_dbg_target *t);
// The same for looking only (registers, memory, symbols: the fault report): no run-loop
// state is made, and step/run end at once without running anything.
void hexsim_user_dbg_view(struct hexsim_user_dbg *d, struct hexsim_user *u,
                          struct hexsim_dbg_target *t);
void hexsim_user_dbg_free(struct hexsim_user_dbg *d);
// The process exit status once it has ended (else the status it would end with now).
int hexsim_user_dbg_status(const struct hexsim_user_dbg *d);

#endif
