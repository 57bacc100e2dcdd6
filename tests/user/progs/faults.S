// SPDX-License-Identifier: MIT
// Guest program for tests/user: takes the fault named by the first letter of argv[1]
// (m: misaligned load, u: unmapped store, i: invalid instruction word, t: trap0(#0x22),
// l: endless loop for --max-packets). HVX, built with -mhvx: g/s: a vgather/vscatter whose
// region crosses a 4 KiB page boundary of ordinary memory (no fault in user mode: hvx_mem.c),
// which write what they gathered, or the memory around what they scattered, to stdout and
// exit(0); G: a gather whose region is a whole page; U/S: a vgather/vscatter whose region
// reaches into a page the program unmapped (the elements there fault as a load or a store
// would). Each fault must end the run as Linux would signal it.
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
    p0 = cmp.eq(r0, #0x55)   // 'U'
    if (p0) jump gather_unmapped
    p0 = cmp.eq(r0, #0x53)   // 'S'
    if (p0) jump scatter_unmapped
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
    r0 = #127
    m0 = r0
    jump gather
gather_page:                 // region page .. page+4095: one page
    r1 = ##page
    r0 = #4095
    m0 = r0
gather:
    r2 = ##offs              // halfword offsets 0, 2, ..., 126
    v0 = vmem(r2+#0)
    r2 = ##vout
    { vtmp.h = vgather(r1,m0,v0.h).h
      vmem(r2+#0) = vtmp.new }
    r1 = ##vout
    r2 = #128
    jump write_exit
scatter_cross:               // region page+4064 .. page+4191: crosses page+4096
    r1 = ##page+4064
    r0 = #127
    m0 = r0
    r2 = ##offs
    v0 = vmem(r2+#0)
    r2 = ##vals
    v1 = vmem(r2+#0)
    vscatter(r1,m0,v0.h).h = v1
    r1 = ##page+4032
    r2 = #192
    jump write_exit
write_exit:                  // write(1, r1, r2); exit(0)
    r0 = #1
    r6 = #64
    trap0(#1)
    r0 = #0
    r6 = #93
    trap0(#1)
    jump loop
// 128 KiB of fresh memory (mmap2), its second half unmapped again (munmap; 64 KiB, the
// page of qemu-hexagon's user mode): r16 = its first byte
two_pages:
    r0 = #0
    r1 = ##131072
    r2 = #3                  // PROT_READ | PROT_WRITE
    r3 = #0x22               // MAP_PRIVATE | MAP_ANONYMOUS
    r4 = #-1
    r5 = #0
    r6 = #222                // mmap2
    trap0(#1)
    r16 = r0
    r0 = add(r16, ##65536)
    r1 = ##65536
    r6 = #215                // munmap
    trap0(#1)
    jumpr r31
gather_unmapped:             // region r16+65472 .. +65599, elements up to r16+65598
    call two_pages
    r1 = add(r16, ##65472)
    r0 = #127
    m0 = r0
    jump gather
scatter_unmapped:
    call two_pages
    r1 = add(r16, ##65504)
    r0 = #127
    m0 = r0
    r2 = ##offs
    v0 = vmem(r2+#0)
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
offs:                        // halfword offsets 0, 2, ..., 126
    .set i, 0
    .rept 64
    .hword 2 * i
    .set i, i + 1
    .endr
vals:                        // halfwords 0xa000, 0xa001, ...
    .set i, 0
    .rept 64
    .hword 0xa000 + i
    .set i, i + 1
    .endr
    .p2align 12
page:                        // halfwords 0, 1, 2, ...
    .set i, 0
    .rept 4096
    .hword i
    .set i, i + 1
    .endr
