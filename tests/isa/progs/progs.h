// SPDX-License-Identifier: MIT
// Entry points of the freestanding guest programs used by the disassembly tests; start.c
// calls them all so that a linked ELF contains every program.
#ifndef HEXSIM_TEST_PROGS_H
#define HEXSIM_TEST_PROGS_H

int loops_main(void);
int sw_main(void);
int m64_main(void);
int fp_main(void);
int st_main(void);
int bits_main(void);

#endif
