// SPDX-License-Identifier: MIT
// Packet disassembler: turns the 32-bit words of one Hexagon packet into text in the
// syntax llvm-objdump-16 prints (LLVM's Hexagon assembler syntax), one text per word.
// Driven entirely by the ISA table (src/cpu/isa/*.isa) through the decoder.
#ifndef HEXSIM_DISASM_H
#define HEXSIM_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEXSIM_DISASM_TEXT 192

struct hexsim_disasm_packet {
    // Words the packet occupies. When the packet is invalid (valid == false) this is the
    // number of words a disassembler skips before trying the next packet, as llvm-objdump does.
    unsigned nwords;
    bool valid;
    // Per word: text without leading tab or braces. A duplex word holds both
    // sub-instructions as "high; low" (high = bits 28:16 first).
    char text[4][HEXSIM_DISASM_TEXT];
    // Per word: the branch/call target, when the word's instruction has a PC-relative operand.
    bool has_target[4];
    uint32_t target[4];
    // "", ":endloop0", ":endloop1" or ":endloop01": printed after the closing brace.
    const char *endloop;
};

// Core version whose instructions a disassembler accepts when none is asked for: the one
// llvm-objdump-16 uses by default for Hexagon.
#define HEXSIM_DISASM_DEFAULT_ARCH 60

// Disassemble the packet that starts at words[0] (n words readable from there, n >= 1),
// located at guest address addr, accepting the instructions of core version `arch`.
// Always fills *out; returns out->nwords.
unsigned hexsim_disasm_packet_arch(const uint32_t *words, size_t n, uint32_t addr, unsigned arch,
                                   struct hexsim_disasm_packet *out);

// Same, for HEXSIM_DISASM_DEFAULT_ARCH.
unsigned hexsim_disasm_packet(const uint32_t *words, size_t n, uint32_t addr,
                              struct hexsim_disasm_packet *out);

#endif
