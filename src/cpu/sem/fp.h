// SPDX-License-Identifier: MIT
// Helpers for the floating-point (XTYPE FP) instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_FP_H
#define HEXSIM_CPU_SEM_FP_H

#include "sem.h"

#endif
