// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): 100 packets of (.cur load; multiply of the loaded
// vector): the multiply reads the vector of its own packet's load, so nothing waits even
// though the previous packet's load wrote the same register.
    .text
    .globl _start
_start:
    { r0 = ##buf; loop0(1f, #100) }
    .p2align 4
1:  { v0.cur = vmem(r0 + #0); v1.h = vmpyi(v0.h, v2.h) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .data
    .p2align 7
buf: .space 256
