// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): _start calls f twice; f runs a 100-packet hardware
// loop and returns (jumpr r31). --profile must give f its 2 x 102 packets, and the folded
// stacks _start;f.
    .text
    .globl _start
_start:
    { call f }
    { call f }
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .globl f
    .type f, @function
f:
    { loop0(1f, #100) }
    .p2align 4
1:  { r1 = add(r1, #1) }:endloop0
    { jumpr r31 }
    .size f, . - f
