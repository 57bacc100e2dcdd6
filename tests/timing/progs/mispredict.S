// SPDX-License-Identifier: MIT
// Timing micro-program (tests/timing): a software loop of 100 iterations whose exit test is
// hinted taken (:t) but falls through 99 times (mispredicted), with a taken jump back.
    .text
    .globl _start
_start:
    { r1 = #100 }
1:  { r1 = add(r1, #-1) }
    { p0 = cmp.eq(r1, #0); if (p0.new) jump:t 2f }
    { jump 1b }
2:  { r0 = #0; r6 = #93 }
    trap0(#1)
