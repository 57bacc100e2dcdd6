// SPDX-License-Identifier: MIT
// Per-family semantic helper headers; each family's file says where its facts come from.
#ifndef HEXSIM_CPU_SEM_FAMILIES_H
#define HEXSIM_CPU_SEM_FAMILIES_H

#endif
