// SPDX-License-Identifier: MIT
// Entry, event vectors and event handler for the HVM test kernels. The kernel starts with
// the boot map (RAM at VA = PA; map_board() in hvm.h adds the devices) at _start; each
// vector saves the registers the C code may change, fetches the event record with
// vmgetregs into a 4-word array, calls hvm_event(slot, rec), writes the (possibly changed)
// record back with vmsetregs and returns with vmrte.
    .text
    .globl _start
_start:
    r29 = ##stack_top
    r0 = ##vectors
    trap1(#2)                       // vmsetvec
    call main
    trap1(#19)                      // vmstop
1:  jump 1b

    // In a section of its own, so a test can link the table at address 0
    // (-Wl,--section-start=.vectors=0: HVM spec 5.5 allows any base)
    .section .vectors, "ax", @progbits
    .p2align 4
    .globl vectors
vectors:
    jump ev_reset
    jump ev_machcheck
    jump ev_genex
    jump ev_rsvd3
    jump ev_rsvd4
    jump ev_trap0
    jump ev_rsvd6
    jump ev_intr
    .text

.macro HANDLER name, slot
\name:
    r29 = add(r29, #-168)
    memd(r29 + #0) = r1:0
    memd(r29 + #8) = r3:2
    memd(r29 + #16) = r5:4
    memd(r29 + #24) = r7:6
    memd(r29 + #32) = r9:8
    memd(r29 + #40) = r11:10
    memd(r29 + #48) = r13:12
    memd(r29 + #56) = r15:14
    memd(r29 + #64) = r17:16
    memd(r29 + #72) = r19:18
    memd(r29 + #80) = r21:20
    memd(r29 + #88) = r23:22
    memd(r29 + #96) = r25:24
    memd(r29 + #104) = r27:26
    memd(r29 + #112) = r31:30
    r0 = p3:0
    memw(r29 + #120) = r0
    r0 = usr
    memw(r29 + #124) = r0
    r1:0 = c1:0                     // lc0:sa0
    memd(r29 + #128) = r1:0
    r1:0 = c3:2                     // lc1:sa1
    memd(r29 + #136) = r1:0
    r1:0 = c7:6                     // m1:m0
    memd(r29 + #144) = r1:0
    trap1(#22)                      // vmgetregs -> r0..r3
    memd(r29 + #152) = r1:0
    memd(r29 + #160) = r3:2
    r0 = #\slot
    r1 = add(r29, #152)
    call hvm_event
    r1:0 = memd(r29 + #152)
    r3:2 = memd(r29 + #160)
    trap1(#21)                      // vmsetregs
    r1:0 = memd(r29 + #144)
    c7:6 = r1:0
    r1:0 = memd(r29 + #136)
    c3:2 = r1:0
    r1:0 = memd(r29 + #128)
    c1:0 = r1:0
    r0 = memw(r29 + #124)
    usr = r0
    r0 = memw(r29 + #120)
    p3:0 = r0
    r31:30 = memd(r29 + #112)
    r27:26 = memd(r29 + #104)
    r25:24 = memd(r29 + #96)
    r23:22 = memd(r29 + #88)
    r21:20 = memd(r29 + #80)
    r19:18 = memd(r29 + #72)
    r17:16 = memd(r29 + #64)
    r15:14 = memd(r29 + #56)
    r13:12 = memd(r29 + #48)
    r11:10 = memd(r29 + #40)
    r9:8 = memd(r29 + #32)
    r7:6 = memd(r29 + #24)
    r5:4 = memd(r29 + #16)
    r3:2 = memd(r29 + #8)
    r1:0 = memd(r29 + #0)
    r29 = add(r29, #168)
    trap1(#1)                       // vmrte
.endm

    HANDLER ev_reset, 0
    HANDLER ev_machcheck, 1
    HANDLER ev_genex, 2
    HANDLER ev_rsvd3, 3
    HANDLER ev_rsvd4, 4
    HANDLER ev_trap0, 5
    HANDLER ev_rsvd6, 6
    HANDLER ev_intr, 7

// void enter_user(void (*fn)(void), void *usp): saves the callee-saved registers on the
// guest stack and enters fn in user mode on usp. The handler ends the excursion by setting
// ELR = user_return and GSR = 0 (guest mode), which resumes here on the same guest stack.
    .globl enter_user
enter_user:
    allocframe(#64)
    memd(r29 + #0) = r17:16
    memd(r29 + #8) = r19:18
    memd(r29 + #16) = r21:20
    memd(r29 + #24) = r23:22
    memd(r29 + #32) = r25:24
    memd(r29 + #40) = r27:26
    r2 = r1                         // GOSP: the user stack
    r1 = ##0x80000000               // GSR: user mode, interrupts off
    r3 = #0
    trap1(#21)                      // vmsetregs(elr = fn, gsr, osp, badva)
    trap1(#1)                       // vmrte: R29 <-> GOSP
    .globl user_return
user_return:
    r30 = add(r29, #64)             // FP as allocframe(#64) left it (the user program's is gone)
    r17:16 = memd(r29 + #0)
    r19:18 = memd(r29 + #8)
    r21:20 = memd(r29 + #16)
    r23:22 = memd(r29 + #24)
    r25:24 = memd(r29 + #32)
    r27:26 = memd(r29 + #40)
    dealloc_return

    .bss
    .p2align 4
    .space 16384
    .globl stack_top
stack_top:
    .space 16384
    .globl stack1_top
stack1_top:
