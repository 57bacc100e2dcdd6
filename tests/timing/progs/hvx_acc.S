// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): 100 multiply-accumulates into one register: an
// accumulator is a normal source (not early), so each waits hvx_lat_mpy only.
    .text
    .globl _start
_start:
    { r1 = #3; loop0(1f, #100) }
    .p2align 4
1:  { v0.w += vrmpy(v1.ub, r1.b) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
