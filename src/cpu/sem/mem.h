// SPDX-License-Identifier: MIT
// Helpers for the load, store, memop and new-value store (addressing modes) instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_MEM_H
#define HEXSIM_CPU_SEM_MEM_H

#include "sem.h"

#endif
