// SPDX-License-Identifier: MIT
// HVM test kernel without an event vector: trap0(#5) before any vmsetvec terminates the
// vCPU (HVM spec 5.2); with no vCPU left hexsim stops with a clear report (exit status 3).
    .text
    .globl _start
_start:
    trap0(#5)
1:  jump 1b
