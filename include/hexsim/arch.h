// SPDX-License-Identifier: MIT
// Hexagon core versions as hexsim names them: the version number (5, 55, 60 ... 73) with
// feature bits above it. The one feature bit marks the "t" (tiny) cores, V67t and V71t: they
// have the audio extension (the M7_ and A7_ instructions, rows marked `audio`), which no
// other core decodes, and lack the CABAC decoder (decbin, rows marked `cabac`), as
// llvm-objdump-16 decodes them. Facts: ELF e_flags
// EF_HEXAGON_MACH (LLVM 16's ELF.h values: V5 0x04, V55 0x05, V60..V73 0x60..0x73, written
// as hex digits that read as the version; V67t 0x8067, V71t 0x8071, bit 15 marking the
// tiny cores), and the CPU names llvm-mc-16/llvm-objdump-16 accept (hexagonv5 ... hexagonv73,
// hexagonv67t, hexagonv71t).
#ifndef HEXSIM_ARCH_H
#define HEXSIM_ARCH_H

#include <stdint.h>

#define HEXSIM_ARCH_TINY 0x100u   // feature bit: a "t" core (audio extension, no CABAC)
// HVX (the vector extension, 128-byte vectors) of the core's version, as llvm-mc-16 and
// llvm-objdump-16 decode with -mattr=+hvx (user mode: always; system mode: always); its IEEE
// floating-point and qfloat instructions (V68 on) are features of their own there
// (+hvx-ieee-fp, +hvx-qfloat), and here.
#define HEXSIM_ARCH_HVX 0x200u
#define HEXSIM_ARCH_HVX_IEEE 0x400u
#define HEXSIM_ARCH_HVX_QF 0x800u
#define HEXSIM_ARCH_HVX_ALL (HEXSIM_ARCH_HVX | HEXSIM_ARCH_HVX_IEEE | HEXSIM_ARCH_HVX_QF)

// The version number of a core (68 for V68, 67 for V67t).
static inline unsigned hexsim_arch_version(unsigned arch) { return arch & 0xffu; }

// Parses "hexagonv73" / "v73" / "73" and the tiny cores "hexagonv67t" / "v71t"; returns 0
// for anything else or a core the ISA table does not describe.
unsigned hexsim_arch_parse(const char *name);

// The core an ELF file's e_flags name (bit 15: a tiny core), or
// 0 when they name no core.
unsigned hexsim_arch_from_eflags(uint32_t e_flags);

// Applies a feature list as llvm-mc-16 and llvm-objdump-16 take it (-mattr: "+hvx,+hvx-ieee-fp",
// "-NAME" turning one off; hvx, hvxvNN, hvx-ieee-fp, hvx-qfloat, hvx-length128b) to core
// arch. Returns the core, or 0 for a feature hexsim does not know (*bad: where it starts).
unsigned hexsim_arch_features(unsigned arch, const char *list, const char **bad);

#endif
