// SPDX-License-Identifier: MIT
// Guest program for tests/user: takes the fault named by the first letter of argv[1]
// (m: misaligned load, u: unmapped store, i: invalid instruction word, t: trap0(#0x22),
// l: endless loop for --max-packets; HVX, built with -mhvx: g/s: a vgather/vscatter whose
// region crosses a page boundary, G: one whose region is a whole page, then exit(0)). Each
// fault must end the run as Linux would signal it.
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
    p0 = cmp.eq(r0, #0x67)   // 'g'
    if (p0) jump gather_cross
    p0 = cmp.eq(r0, #0x73)   // 's'
    if (p0) jump scatter_cross
    p0 = cmp.eq(r0, #0x47)   // 'G'
    if (p0) jump gather_page
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
gather_cross:                // region page+4032 .. page+4159: crosses page+4096
    r1 = ##page+4032
    jump gather
gather_page:                 // region page .. page+4095: one page
    r1 = ##page
    r0 = #4095
    m0 = r0
    jump gather1
gather:
    r0 = #127
    m0 = r0
gather1:
    v0 = vsplat(r0)
    r2 = ##vout
    { vtmp.h = vgather(r1,m0,v0.h).h
      vmem(r2+#0) = vtmp.new }
    r0 = #0
    r6 = #93                 // exit(0)
    trap0(#1)
    jump loop
scatter_cross:               // region page+4064 .. page+4191
    r1 = ##page+4064
    r0 = #127
    m0 = r0
    v0 = vsplat(r0)
    vscatter(r1,m0,v0.h).h = v0
    r0 = #0
    r6 = #93
    trap0(#1)
    jump loop
    .data
    .p2align 3
buf: .word 0, 0
    .p2align 7
vout: .space 128
    .p2align 12
page: .space 8192
