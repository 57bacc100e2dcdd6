// SPDX-License-Identifier: MIT
// Helpers for the jump, call, hardware-loop, CR and system instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_FLOW_H
#define HEXSIM_CPU_SEM_FLOW_H

#include "sem.h"

#endif
