// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): a loop of 100 (vector load; multiply of the
// loaded vector): the multiply reads it as an early source, hvx_lat_load + hvx_early pcycles
// after the load (the stall counted as HVX load-to-use).
    .text
    .globl _start
_start:
    { r0 = ##buf; loop0(1f, #100) }
    .p2align 4
1:  { v0 = vmem(r0 + #0) }
    { v1.h = vmpyi(v0.h, v2.h) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .data
    .p2align 7
buf: .space 256
