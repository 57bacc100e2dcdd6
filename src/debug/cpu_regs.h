// SPDX-License-Identifier: MIT
// The user-visible registers of one Hexagon thread (struct hexsim_cpu) as debugger register
// numbers (target.h): a descriptor table and by-number access that every target built on
// struct hexsim_cpu shares. Facts: PRM section 2 (R0-R31, C0-C31 and their aliases).
#ifndef HEXSIM_DEBUG_CPU_REGS_H
#define HEXSIM_DEBUG_CPU_REGS_H

#include "cpu/cpu.h"
#include "target.h"

#define HEXSIM_DBG_CPU_NREGS 64   // R0-R31, C0-C31
#define HEXSIM_DBG_HVX_NREGS 36   // V0-V31, Q0-Q3 (after them in hexsim_dbg_cpu_regs' table)

// The table: R0-R31, C0-C31, then the HVX registers (*count: all of them).
const struct hexsim_dbg_reg_desc *hexsim_dbg_cpu_regs(unsigned *count);
// Register `num` (0-63) of c. Return 0, or -1 for a number the CPU does not have.
int hexsim_dbg_cpu_read(const struct hexsim_cpu *c, unsigned num, uint64_t *val);
int hexsim_dbg_cpu_write(struct hexsim_cpu *c, unsigned num, uint64_t val);
// HVX register `num` (V0-V31: 128 bytes, Q0-Q3: 16) of c. Return 0, or -1 for another number.
int hexsim_dbg_cpu_read_wide(const struct hexsim_cpu *c, unsigned num, void *buf);
int hexsim_dbg_cpu_write_wide(struct hexsim_cpu *c, unsigned num, const void *buf);

#endif
