// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing, HVX): a loop of 100 (vector add; unaligned store of the
// sum): unaligned store data is an early source, so the store waits hvx_lat_alu + hvx_early
// after the add; the next add reads the sum as a normal source (ready by then).
    .text
    .globl _start
_start:
    { r0 = ##buf+1; loop0(1f, #100) }
    .p2align 4
1:  { v0.w = vadd(v0.w, v1.w) }
    { vmemu(r0 + #0) = v0 }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
    .data
    .p2align 7
buf: .space 256
