// SPDX-License-Identifier: MIT
// Helpers for the ALU32, XTYPE ALU and predicate instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_ALU_H
#define HEXSIM_CPU_SEM_ALU_H

#include "sem.h"

#endif
