// SPDX-License-Identifier: MIT
// Per-family semantic helper headers; each family's file says where its facts come from.
#ifndef HEXSIM_CPU_SEM_FAMILIES_H
#define HEXSIM_CPU_SEM_FAMILIES_H

#include "sem/alu.h"
#include "sem/shift.h"
#include "sem/mpy.h"
#include "sem/fp.h"
#include "sem/mem.h"
#include "sem/flow.h"
#include "sem/hvx.h"
#include "sem/hvx_perm.h"
#include "sem/hvx_shift.h"
#include "sem/hvx_mpy.h"
#include "sem/hvx_fp.h"
#include "sem/hvx_alu.h"
#include "sem/hvx_hist.h"

#endif
