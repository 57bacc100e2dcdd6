// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): 100 dependent vector shifts: the shifted register
// is an early source, so every packet after the first waits hvx_lat_perm + hvx_early.
    .text
    .globl _start
_start:
    { r1 = #1; loop0(1f, #100) }
    .p2align 4
1:  { v0.w = vasl(v0.w, r1) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
