// SPDX-License-Identifier: MIT
// Helpers for the XTYPE shift, bit-field and permute instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_SHIFT_H
#define HEXSIM_CPU_SEM_SHIFT_H

#include "sem.h"

#endif
