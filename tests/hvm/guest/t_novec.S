// SPDX-License-Identifier: MIT
// HVM test kernel without an event vector: an unmapped MMIO read (logged once, reads 0),
// then trap0(#5) with no vector: hexsim must stop with a clear report (exit status 3).
    .text
    .globl _start
_start:
    r1 = ##0x90000000
    r0 = memw(r1+#0)
    r0 = memw(r1+#4)
    trap0(#5)
1:  jump 1b
