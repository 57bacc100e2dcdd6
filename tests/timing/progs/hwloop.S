// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): a hardware loop of 100 independent one-packet
// iterations: the loop-back branch costs nothing (zero-overhead loop).
    .text
    .globl _start
_start:
    { r1 = #0; loop0(1f, #100) }
    .p2align 4
1:  { r1 = add(r1, #1) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
