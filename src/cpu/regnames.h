// SPDX-License-Identifier: MIT
// Register names as the Hexagon assembler spells them (PRM section 2 "Registers";
// spellings as llvm-objdump-16 prints them).
#ifndef HEXSIM_CPU_REGNAMES_H
#define HEXSIM_CPU_REGNAMES_H

#include <stddef.h>

// Writes the name of register field value `v` of operand kind `kind` (enum
// hexsim_operand_kind) into buf (NULL: only checks). Returns 0, or -1 when the encoding names
// no register (or buf is too small).
int hexsim_reg_name(unsigned kind, unsigned v, char *buf, size_t len);

// Architectural register number (r0..r31) that a duplex 4-bit field names (PRM 10.3: r0-r7
// and r16-r23). Inline: duplex semantics map their fields with it on every execution.
static inline unsigned hexsim_subreg(unsigned v)
{
    return (v & 7) | ((v & 8) << 1);
}

#endif
