// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): a hardware loop of 100 vector multiplies, each
// multiplying the previous packet's result: a multiply's inputs are early sources, so every
// packet after the first waits hvx_lat_mpy + hvx_early pcycles for the one before.
    .text
    .globl _start
_start:
    { r1 = #3; loop0(1f, #100) }
    .p2align 4
1:  { v0.h = vmpyi(v0.h, v1.h) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
