// SPDX-License-Identifier: MIT
// GNU readline as the debugger's line editor (session.h): history, and completion of
// command names, $registers and ELF symbols. Part of the hexsim program, not of the library.
#ifndef HEXSIM_DEBUG_RL_EDITOR_H
#define HEXSIM_DEBUG_RL_EDITOR_H

#include "session.h"

void hexsim_rl_editor(struct hexsim_dbg_line_editor *ed);

#endif
