// SPDX-License-Identifier: MIT
// Guest program for tests/user (jit_equiv.py): packets whose stores are staged (block.h:
// not store_direct, so the commit writes them: hx_commit_stores): two stores
// in one packet of every size pair, 1, 2, 4 and 8 bytes, one of them predicated off every
// other time, two stores to the same word (the later slot wins), and a store followed by a
// load of the same packet. After 300 rounds it prints a checksum of the buffer and the
// loads, in hex, and the program's expected output with it: qemu-hexagon 7.2 prints it too.
// Expected output: 51c4a6e5
    .text
    .globl _start
_start:
    r10 = ##buf
    r11 = #0                 // round
    r13 = #0                 // checksum
round:
    r2 = add(r11, #0x35)
    r3 = mpyi(r11, #0x95)
    r3 = add(r3, #-0x5a5b)
    r5:4 = combine(r3, r2)
    p0 = tstbit(r11, #0)
    { memh(r10+#2) = r2
      memw(r10+#4) = r3 }
    { memd(r10+#8) = r5:4
      memb(r10+#3) = r3 }
    { if (p0) memh(r10+#16) = r3
      memw(r10+#20) = r2 }
    { if (!p0) memd(r10+#24) = r5:4
      memb(r10+#17) = r2 }
    { memw(r10+#32) = r2
      memb(r10+#33) = r3 }
    { memb(r10+#40) = r3
      memh(r10+#42) = r2 }
    { memw(r10+#36) = r3
      r6 = memw(r10+#4) }
    r13 = add(r13, r6)
    r7 = #0
    r8 = r10
sum:
    r6 = memw(r8++#4)
    r13 = rol(r13, #5)
    r13 = xor(r13, r6)
    r7 = add(r7, #1)
    p1 = cmp.gt(r7, #11)
    if (!p1) jump sum
    r11 = add(r11, #1)
    p1 = cmp.gt(r11, #299)
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
buf: .space 48
out: .space 16
