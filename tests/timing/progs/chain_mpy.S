// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): a hardware loop of 100 packets, each multiplying the
// previous packet's result: every packet after the first waits for the multiply latency.
    .text
    .globl _start
_start:
    { r1 = #3; loop0(1f, #100) }
    .p2align 4
1:  { r1 = mpyi(r1, r1) }:endloop0
    { r0 = #0; r6 = #93 }
    trap0(#1)
