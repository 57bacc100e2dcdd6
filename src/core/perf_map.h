// SPDX-License-Identifier: MIT
// --perf-map: a map of the host code of compiled blocks for Linux perf, which names code
// it finds in no file ("[JIT] tid ...") from /tmp/perf-PID.map (the format of perf's
// tools/perf/Documentation/jit-interface.txt: one "START SIZE NAME" line per piece of code,
// START and SIZE in hex without 0x, NAME the rest of the line). Each compiled block is named
// by the guest function it is in (the ELF symbols of the guest program or kernel, as
// --profile names them) and its guest address: "FUNC+0xOFF [0xADDR]", "[0xADDR]" without
// a symbol. The file is made on the first block of each host process (a forked child writes
// its own), emptied then, and written one line per block as it is compiled. Code addresses
// are reused after a flush of the code cache: perf then sees the newer name for the address
// (or both; the map says nothing of time).
#ifndef HEXSIM_CORE_PERF_MAP_H
#define HEXSIM_CORE_PERF_MAP_H

#include <stddef.h>
#include <stdint.h>

struct hexsim_perf_map;

// A map naming blocks from the ELF file elf (NULL or unreadable: addresses only); dir is
// where the map goes (NULL: /tmp, where perf looks). NULL: out of memory.
struct hexsim_perf_map *hexsim_perf_map_new(const char *elf, const char *dir);
void hexsim_perf_map_free(struct hexsim_perf_map *pm);
// The block at guest address addr was compiled to size bytes at code (the signature of
// struct hx_block_table's on_compiled, ctx the map). A map that cannot be written says so
// once on stderr and writes nothing more.
void hexsim_perf_map_block(void *ctx, uint32_t addr, const void *code, size_t size);

#endif
