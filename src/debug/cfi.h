// SPDX-License-Identifier: MIT
// Call frame information (DWARF 5 section 6.4: CIEs, FDEs and the DW_CFA_* instructions)
// from an ELF image's .debug_frame and .eh_frame, read by the debugger to unwind the
// registers a function saved for its caller. libdw's reader (dwarf_cfi_addrframe) needs an
// elfutils backend for the machine, which 0.188 does not have for Hexagon, so the sections
// are parsed here. Hexagon's DWARF register numbers 0-31 are R0-R31 (LLVM's
// HexagonRegisterInfo.td).
#ifndef HEXSIM_DEBUG_CFI_H
#define HEXSIM_DEBUG_CFI_H

#include <stdbool.h>
#include <stdint.h>

#define HEXSIM_CFI_REGS 32

enum hexsim_cfi_rule {
    HEXSIM_CFI_UNSPECIFIED = 0, // no rule: the ABI's (callee-saved: same value)
    HEXSIM_CFI_UNDEFINED,       // not recoverable
    HEXSIM_CFI_SAME,            // the caller's value is this frame's
    HEXSIM_CFI_OFFSET,          // saved at CFA + off
    HEXSIM_CFI_VAL_OFFSET,      // the value CFA + off
    HEXSIM_CFI_REGISTER,        // in register off
};

// The unwinding rules at one address.
struct hexsim_cfi_row {
    unsigned cfa_reg;           // CFA = cfa_reg + cfa_off
    int32_t cfa_off;
    unsigned ra_reg;            // the return address column
    struct {
        uint8_t rule;           // enum hexsim_cfi_rule
        int32_t off;
    } reg[HEXSIM_CFI_REGS];
};

struct hexsim_cfi;

// NULL when the file cannot be read or has no usable frame information.
struct hexsim_cfi *hexsim_cfi_open(const char *path);
void hexsim_cfi_close(struct hexsim_cfi *c);
// The row for pc: 0, or -1 (no FDE covers pc, or its instructions are ones this reader
// does not evaluate: a CFA given by a DWARF expression).
int hexsim_cfi_row(const struct hexsim_cfi *c, uint32_t pc, struct hexsim_cfi_row *row);

#endif
