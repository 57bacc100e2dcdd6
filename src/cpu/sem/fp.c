// SPDX-License-Identifier: MIT
// Floating-point helpers for the XTYPE FP semantics (declared in sem/fp.h).
// Facts: Hexagon V6x Programmer's Reference Manual, section 11.10.? (XTYPE/FP).
#include "sem/fp.h"
