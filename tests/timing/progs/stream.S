// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): two passes of loads, one per 32-byte line, over a
// 64 KiB array (2048 lines): in cache mode every load misses L1D (32 KiB); the first pass
// also misses L2, the second hits it (256 KiB). No other data accesses.
    .text
    .globl _start
_start:
    { r2 = #2; r3 = #32; r5 = ##2048 }
    { m0 = r3 }
3:  { r1 = ##buf; loop0(1f, r5) }
    .p2align 4
1:  { r4 = memw(r1++m0) }:endloop0
    { r2 = add(r2, #-1) }
    { p0 = cmp.eq(r2, #0); if (!p0.new) jump:t 3b }
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .bss
    .p2align 12
buf: .space 65536
