// SPDX-License-Identifier: MIT
// Guest program for tests/user (jit_equiv.py): packets in the middle of hot code that write
// control registers (a hardware loop's setup, M0, USR) and set sticky USR bits in the same
// packet, which compiled blocks commit without the full commit (jit.c gen_fold_sticky), and
// loop ends right after them. After 400 rounds it prints a checksum of the loop counts,
// the control registers and USR, in hex, and the program's expected output with it:
// qemu-hexagon 7.2 prints it too.
// Expected output: 94f9aeac
    .text
    .globl _start
_start:
    r11 = #0                 // round
    r13 = #0                 // checksum
    r14 = ##0x7fffff00
round:
    r2 = and(r11, #7)
    r2 = add(r2, #2)         // 2..9 iterations
    { loop0(inner, r2)
      r3 = add(r11, #5) }
    { m0 = r3
      r4 = add(r14, r11) }
    r5 = #0
inner:
    { r5 = add(r5, #3)
      r13 = add(r13, r5) }:endloop0
    r7 = lc0
    { r6 = m0
      r4 = add(r4, r14):sat }      // overflows: sticky USR.OVF
    { r13 = xor(r13, r6)
      r8 = usr }
    r8 = and(r8, #1)
    r13 = rol(r13, #3)
    r13 = add(r13, r7)
    r13 = add(r13, r8)
    { m1 = r13               // a control register and sticky USR.OVF in one packet
      r4 = add(r4, r14):sat
      r9 = add(r11, #1) }
    r10 = and(r5, #1)
    { usr = r10              // USR written (OVF cleared when bit 0 is 0)
      r10 = add(r9, #1) }
    r8 = usr
    r8 = and(r8, #1)         // OVF
    r6 = m1
    r6 = rol(r6, #7)
    r13 = add(r13, r8)
    r13 = xor(r13, r6)
    { loop0(inner2, #3)
      r4 = add(r4, r14):sat
      r5 = #1 }
inner2:
    { r5 = mpyi(r5, #3) }:endloop0
    r8 = usr
    r8 = and(r8, #1)         // OVF
    r13 = add(r13, r5)
    r13 = add(r13, r8)
    r11 = r9
    p1 = cmp.gt(r11, #399)
    if (!p1) jump round
    // the checksum in hex, then a newline
    r8 = ##out
    r7 = #28
hex:
    r6 = lsr(r13, r7)
    r6 = and(r6, #15)
    r9 = add(r6, #48)
    p1 = cmp.gt(r6, #9)
    if (p1) r9 = add(r6, #87)
    memb(r8++#1) = r9
    r7 = add(r7, #-4)
    p1 = cmp.gt(r7, #-1)
    if (p1) jump hex
    r9 = #10
    memb(r8+#0) = r9
    r0 = #1
    r1 = ##out
    r2 = #9
    r6 = #64                 // write
    trap0(#1)
    r0 = #0
    r6 = #93                 // exit
    trap0(#1)
    .data
    .p2align 3
out: .space 16
