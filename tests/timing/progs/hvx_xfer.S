// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): a loop of 100 (vector add; vextract of the sum;
// add of the extracted word): vextract reads the sum as a normal source (hvx_lat_alu after
// the vector add), and the scalar add waits hvx_xfer pcycles for the HVX-to-scalar
// transfer's general register.
    .text
    .globl _start
_start:
    { r3 = #8; loop0(1f, #100) }
    .p2align 4
1:  { v0.w = vadd(v0.w, v1.w) }
    { r2 = vextract(v0, r3) }
    { r4 = add(r2, #1) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
