// SPDX-License-Identifier: MIT
// Helpers for the XTYPE multiply instruction semantics (src/cpu/isa/*.isa).
// Facts: Hexagon V6x Programmer's Reference Manual.
#ifndef HEXSIM_CPU_SEM_MPY_H
#define HEXSIM_CPU_SEM_MPY_H

#include "sem.h"

#endif
