// SPDX-License-Identifier: MIT
// Listing output of hexsim-objdump: prints the disassembly of every executable section of
// one ELF file in the layout of `llvm-objdump-16 -d`, using hexsim_disasm_packet() for the
// instruction text.
#ifndef HEXSIM_OBJDUMP_PRINT_H
#define HEXSIM_OBJDUMP_PRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elf_reader.h"

struct od_options {
    bool show_raw_insn;      // the bytes and word columns (--no-show-raw-insn clears it)
    uint64_t start_address;  // --start-address, inclusive; 0 by default
    uint64_t stop_address;   // --stop-address, exclusive; UINT64_MAX by default
    unsigned arch;           // --mcpu core version (60 = hexagonv60, llvm-objdump's default)
};

// Prints the file header line and the listing of f to out. Returns false when out of memory.
bool od_print_file(FILE *out, const struct od_file *f, const struct od_options *opt);

#endif
