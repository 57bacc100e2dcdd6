// SPDX-License-Identifier: MIT
// Guest program for tests/user: takes the fault named by the first letter of argv[1]
// (m: misaligned load, u: unmapped store, i: invalid instruction word, t: trap0(#0x22),
// l: endless loop for --max-packets). Each must end the run as Linux would signal it.
    .text
    .globl _start
_start:
    r0 = memw(r29+#8)        // argv[1]
    r0 = memub(r0+#0)
    p0 = cmp.eq(r0, #0x6d)   // 'm'
    if (p0) jump misaligned
    p0 = cmp.eq(r0, #0x75)   // 'u'
    if (p0) jump unmapped
    p0 = cmp.eq(r0, #0x69)   // 'i'
    if (p0) jump invalid
    p0 = cmp.eq(r0, #0x74)   // 't'
    if (p0) jump trap
loop:
    jump loop
misaligned:
    r1 = ##buf+2
    r2 = memw(r1+#0)
    jump loop
unmapped:
    r1 = ##0x10
    memw(r1+#0) = r1
    jump loop
invalid:
    .word 0xffffffff
    jump loop
trap:
    trap0(#0x22)
    jump loop
    .data
    .p2align 3
buf: .word 0, 0
