// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): a hardware loop of 100 dependent loads (a pointer
// that points to itself): every load after the first waits for the previous one's result.
    .text
    .globl _start
_start:
    { r1 = ##self; loop0(1f, #100) }
    .p2align 4
1:  { r1 = memw(r1 + #0) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .data
    .p2align 2
self: .word self
