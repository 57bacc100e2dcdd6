// SPDX-License-Identifier: MIT
// HVM conformance, events (HVM specification VM_Spec.adoc Rev A, chapters 5, 6, 7): event
// numbers and vector offsets, the event record (GELR, GSR with UM, IE, reserved bits and
// cause, GOSP, GBADVA), the interrupt-enable and mode changes at an event and at vmrte, the
// R29/GOSP swap, trap0 and general-exception causes from guest and user mode, lost
// records of nested events, and interrupts as events. Each CASE names the section it checks.
// The runner also links the vector table at address 0 (section 5.5: any base).
#include "hvm.h"

struct ev {
    u32 slot, elr, gsr, osp, badva, sp, ie;
};
static volatile u32 n_ev;
static struct ev evs[16];
static volatile u32 fixup;           // 0: skip the one-word packet; else resume there
static volatile u32 nest;            // trap0 #2 inside the handler of trap0 #1
static volatile u32 nested_g0;
static volatile u32 n_privi;
static u32 user_stack[256] __attribute__((aligned(8)));
static u32 l1[1024] __attribute__((aligned(4096)));
static u32 l2[1024] __attribute__((aligned(4096)));

void hvm_event(u32 slot, u32 *rec)
{
    struct ev *e = &evs[n_ev & 15];
    u32 sp;
    __asm__ volatile("%0 = r29" : "=r"(sp));
    e->slot = slot;
    e->elr = rec[0];
    e->gsr = rec[1];
    e->osp = rec[2];
    e->badva = rec[3];
    e->sp = sp;
    e->ie = (u32)vmgetie();
    n_ev++;
    if (slot == 5 && GSR_CAUSE(rec[1]) == 1 && nest) {
        nest = 0;
        __asm__ volatile("trap0(#2)" ::: "memory");
        u32 g[4];
        vmgetregs(g);
        nested_g0 = g[0];
    }
    if (slot == 5 && GSR_CAUSE(rec[1]) == 0x55) {      // the user program is done
        rec[0] = (u32)user_return;
        rec[1] = 0;
        return;
    }
    if (slot == 2 && GSR_CAUSE(rec[1]) == 0x1b && (rec[1] & GSR_UM))
        n_privi++;
    if (slot == 2) {                                  // general exception: skip or resume
        rec[0] = fixup ? fixup : rec[0] + 4;
        fixup = 0;
    }
}

static struct ev *last(void) { return &evs[(n_ev - 1) & 15]; }

// user-mode programs (entered with enter_user; each ends with trap0(#0x55))
static volatile u32 u_step;
static void user_trap(void)
{
    u_step = 1;
    __asm__ volatile("{ trap0(#0x21) }" ::: "memory");
    u_step = 2;
    __asm__ volatile("{ trap0(#0x55) }" ::: "memory");
}
static void user_priv(void)
{
    // vmgetie, vmsetregs, a guest register: three one-word packets in a row
    __asm__ volatile("{ trap1(#4) }\n{ trap1(#21) }\n{ r0 = g0 }" ::: "r0", "memory");
    // then every other virtual instruction of the summary table
    __asm__ volatile("{ trap1(#0) }\n{ trap1(#1) }\n{ trap1(#2) }\n{ trap1(#3) }\n"
                     "{ trap1(#5) }\n{ trap1(#10) }\n{ trap1(#11) }\n{ trap1(#13) }\n"
                     "{ trap1(#14) }\n{ trap1(#15) }\n{ trap1(#16) }\n{ trap1(#17) }\n"
                     "{ trap1(#18) }\n{ trap1(#19) }\n{ trap1(#20) }\n{ trap1(#22) }\n"
                     ::: "r0", "r1", "r2", "r3", "memory");
    __asm__ volatile("{ trap0(#0x55) }" ::: "memory");
}
static void user_access(void)
{
    (void)load(0x40000000);         // no U: load user access violation
    store(0x40000000, 1);           // no U: store user access violation
    (void)load(0x40001000);         // U but no R: load protection
    store(0x40001000, 1);           // U but no W: store protection
    __asm__ volatile("{ trap0(#0x55) }" ::: "memory");
}
static void user_fetch(void)
{
    register u32 t __asm__("r2") = 0x40002000;      // X but no U
    __asm__ volatile("r3 = add(pc, #16)\n memw(r4=##fixup) = r3\n callr r2\n"
                     : : "r"(t) : "r3", "r4", "r31", "memory");
    __asm__ volatile("{ trap0(#0x55) }" ::: "memory");
}

int main(void)
{
    u32 rec[4], base = n_ev;
    CASE("5.5 Event vector registration", "trap0 enters at GEVB + 5 * 4 (event 5)") {
        __asm__ volatile("trap0(#3)" ::: "memory");
        CHECK_EQ(n_ev, base + 1);
        CHECK_EQ(last()->slot, 5);
    }
    CASE("7.4 Trap exceptions", "GSR.Cause holds the 8-bit trap0 number") {
        __asm__ volatile("trap0(#255)" ::: "memory");
        CHECK_EQ(GSR_CAUSE(last()->gsr), 255);
    }
    CASE("7.1/7.4 Exceptions", "trap0's GELR is the packet after the trap") {
        u32 after;
        __asm__ volatile("trap0(#4)\n %0 = pc" : "=r"(after) : : "memory");
        CHECK_EQ(last()->elr, after);
    }
    CASE("5.3.2 GSR", "guest-mode event: UM 0, IE 0 saved, reserved bits 29:16 zero") {
        __asm__ volatile("trap0(#6)" ::: "memory");
        CHECK_EQ(last()->gsr & GSR_UM, 0);
        CHECK_EQ(last()->gsr & GSR_IE, 0);
        CHECK_EQ(GSR_RESERVED(last()->gsr), 0);
    }
    CASE("5.2/6.6 Event model, Interrupt enable", "an event saves IE=1 in GSR.IE and "
         "disables interrupts; vmrte restores IE from GSR") {
        vmsetie(1);
        __asm__ volatile("trap0(#7)" ::: "memory");
        CHECK(last()->gsr & GSR_IE);
        CHECK_EQ(last()->ie, 0);
        CHECK_EQ(vmgetie(), 1);
        vmsetie(0);
    }
    CASE("5.3.3 GOSP", "a guest-mode event does not swap R29 and GOSP") {
        vmsetregs(0, 0, 0x12345670, 0);
        u32 sp;
        __asm__ volatile("%0 = r29\n trap0(#8)" : "=r"(sp) : : "memory");
        CHECK_EQ(last()->osp, 0x12345670);
        CHECK(last()->sp < sp && last()->sp > sp - 1024);
    }
    CASE("5.3.4 GBADVA", "a trap0 leaves GBADVA alone") {
        vmsetregs(0, 0, 0, 0xabcdef00);
        __asm__ volatile("trap0(#9)" ::: "memory");
        CHECK_EQ(last()->badva, 0xabcdef00);
    }
    CASE("5.2 Event model", "an event inside a handler overwrites the event record") {
        nest = 1;
        u32 n0 = n_ev;
        __asm__ volatile("trap0(#1)" ::: "memory");
        CHECK_EQ(n_ev, n0 + 2);
        CHECK(nested_g0 != evs[n0 & 15].elr);       // the outer GELR is gone
        CHECK_EQ(GSR_CAUSE(evs[(n0 + 1) & 15].gsr), 2);
    }
    CASE("7.3 General exceptions", "invalid packet: event 2, cause 0x15, GELR at the packet") {
        static u32 bad[2] __attribute__((aligned(8))) = { 0, 0 };   // a duplex of two loads to r0
        register u32 t __asm__("r2") = (u32)bad;
        __asm__ volatile("r3 = add(pc, #16)\n memw(r4=##fixup) = r3\n callr r2\n"
                         : : "r"(t) : "r3", "r4", "r31", "memory");
        CHECK_EQ(last()->slot, 2);
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x15);
        CHECK_EQ(last()->elr, (u32)bad);
    }
    CASE("7.3 General exceptions", "misaligned load 0x20 and store 0x21 with GBADVA, GELR "
         "at the packet") {
        u32 pc0;
        __asm__ volatile("%0 = pc" : "=r"(pc0));
        (void)load(0x00200002);
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x20);
        CHECK_EQ(last()->badva, 0x00200002);
        CHECK(last()->elr > pc0 && last()->elr < pc0 + 128);
        store(0x00200001, 1);
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x21);
        CHECK_EQ(last()->badva, 0x00200001);
    }
    CASE("7.3 General exceptions", "misaligned PC: cause 0x1C") {
        register u32 t __asm__("r2") = 0x00100002;
        __asm__ volatile("r3 = add(pc, #16)\n memw(r4=##fixup) = r3\n callr r2\n"
                         : : "r"(t) : "r3", "r4", "r31", "memory");
        CHECK_EQ(last()->slot, 2);
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x1c);
    }
    CASE("6.1/5.4 Interrupts", "an interrupt is event 7 with its number in GSR.Cause, GELR "
         "at the interrupted packet, IE cleared") {
        vmintop(LOCEN, 12, 0);
        vmintop(POST, 12, 0);
        u32 n0 = n_ev;
        vmsetie(1);
        u32 after;
        __asm__ volatile("%0 = pc" : "=r"(after));
        vmsetie(0);
        CHECK_EQ(n_ev, n0 + 1);
        CHECK_EQ(last()->slot, 7);
        CHECK_EQ(GSR_CAUSE(last()->gsr), 12);
        CHECK(last()->gsr & GSR_IE);
        CHECK_EQ(last()->ie, 0);
        CHECK(last()->elr <= after && last()->elr > after - 32);
        CHECK_EQ(vmintop(STATUS, 12, 0), 2);        // taken: not pending, globally disabled
        vmintop(GLOBEN, 12, 0);
        vmintop(LOCDIS, 12, 0);
    }
    CASE("5.4/7.1 Event types", "interrupts are maskable (IE 0), exceptions are not") {
        vmintop(LOCEN, 13, 0);
        vmintop(POST, 13, 0);
        u32 n0 = n_ev;
        __asm__ volatile("nop\n nop\n nop" ::: "memory");
        CHECK_EQ(n_ev, n0);
        __asm__ volatile("trap0(#10)" ::: "memory");
        CHECK_EQ(n_ev, n0 + 1);
        CHECK_EQ(last()->slot, 5);
        vmintop(CLEAR, 13, 0);
        vmintop(LOCDIS, 13, 0);
    }

    // A map for user mode: 64 MiB VA = PA with U; at 0x40000000 4K pages: no U (RW),
    // U without R/W (X only), X without U
    map_low(l1, PTE_U);
    l1[0x40000000 >> 22] = (u32)l2 | 0;
    l2[0] = 0x00800000 | PTE_R | PTE_W | PTE_C(7);
    l2[1] = 0x00801000 | PTE_X | PTE_U | PTE_C(7);
    l2[2] = 0x00802000 | PTE_R | PTE_X | PTE_C(7);
    CHECK_EQ(vmnewmap(l1), 0);
    u32 *usp = &user_stack[256];

    CASE("5.8 Programmers note / 5.6 vmrte", "vmsetregs(GSR.UM) + vmrte enters user mode at "
         "GELR on the GOSP stack; trap0 from user mode: UM 1, GOSP = user SP, R29 = guest SP") {
        u32 n0 = n_ev, gsp;
        __asm__ volatile("%0 = r29" : "=r"(gsp));
        enter_user(user_trap, usp);
        CHECK_EQ(u_step, 2);
        CHECK_EQ(n_ev, n0 + 2);
        struct ev *e = &evs[n0 & 15];
        CHECK_EQ(e->slot, 5);
        CHECK_EQ(GSR_CAUSE(e->gsr), 0x21);
        CHECK(e->gsr & GSR_UM);
        CHECK(e->osp <= (u32)usp && e->osp > (u32)usp - 256);
        CHECK(e->sp < gsp && e->sp > gsp - 2048);   // the handler runs on the guest stack
    }
    CASE("A.2 Instruction properties / 7.3", "virtual instructions and guest registers in "
         "user mode: privilege violation 0x1B at the packet") {
        u32 n0 = n_ev;
        n_privi = 0;
        enter_user(user_priv, usp);
        CHECK_EQ(n_ev, n0 + 20);
        CHECK_EQ(n_privi, 19);
        for (u32 i = 0; i < 3; i++) {
            CHECK_EQ(evs[(n0 + i) & 15].slot, 2);
            CHECK_EQ(GSR_CAUSE(evs[(n0 + i) & 15].gsr), 0x1b);
            CHECK(evs[(n0 + i) & 15].gsr & GSR_UM);
        }
        CHECK_EQ(evs[(n0 + 1) & 15].elr, evs[n0 & 15].elr + 4);
    }
    CASE("5.4 Event types (note)", "a packet with two faulting loads: the slot 1 load's "
         "exception is taken (GBADVA its address)") {
        register u32 a __asm__("r1") = 0x00200001;
        register u32 b __asm__("r3") = 0x00200002;
        __asm__ volatile("{ r0 = memw(r1+#0); r2 = memw(r3+#0) }"
                         : : "r"(a), "r"(b) : "r0", "r2", "memory");
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x20);
        CHECK_EQ(last()->badva, 0x00200001);
    }
    CASE("7.3/9.4.2 General exceptions", "user access to a page without U: 0x24 load, 0x25 "
         "store; missing R or W: 0x22, 0x23; GBADVA the address") {
        u32 n0 = n_ev;
        enter_user(user_access, usp);
        CHECK_EQ(n_ev, n0 + 5);
        static const u32 want[4] = { 0x24, 0x25, 0x22, 0x23 };
        static const u32 va[4] = { 0x40000000, 0x40000000, 0x40001000, 0x40001000 };
        for (u32 i = 0; i < 4; i++) {
            CHECK_EQ(GSR_CAUSE(evs[(n0 + i) & 15].gsr), want[i]);
            CHECK_EQ(evs[(n0 + i) & 15].badva, va[i]);
        }
    }
    CASE("7.3 General exceptions", "user fetch from a page without U: 0x14") {
        u32 n0 = n_ev;
        enter_user(user_fetch, usp);
        CHECK_EQ(n_ev, n0 + 2);
        CHECK_EQ(GSR_CAUSE(evs[n0 & 15].gsr), 0x14);
        CHECK_EQ(evs[n0 & 15].elr, 0x40002000);
    }
    CASE("7.3 General exceptions", "guest fetch from a page without X: 0x11") {
        register u32 t __asm__("r2") = 0x40000000;
        __asm__ volatile("r3 = add(pc, #16)\n memw(r4=##fixup) = r3\n callr r2\n"
                         : : "r"(t) : "r3", "r4", "r31", "memory");
        CHECK_EQ(GSR_CAUSE(last()->gsr), 0x11);
        CHECK_EQ(last()->elr, 0x40000000);
    }
    CASE("5.6 Event handler return", "vmrte with GSR.UM 0 and IE 0 continues in guest mode "
         "at GELR with R29 and GOSP as they were (no swap), interrupts off") {
        u32 sp0, sp1, g2;
        vmsetie(1);
        __asm__ volatile("%0 = r29\n r0 = ##1f\n r1 = #0\n r2 = ##0x12345678\n r3 = #0\n"
                         "trap1(#21)\n trap1(#1)\n r0 = #0\n memw(r0+#0) = r0\n"
                         "1: %1 = r29\n %2 = g2"
                         : "=&r"(sp0), "=&r"(sp1), "=&r"(g2) : : "r0", "r1", "r2", "r3",
                           "memory");
        CHECK_EQ(sp1, sp0);
        CHECK_EQ(g2, 0x12345678);
        CHECK_EQ(vmgetie(), 0);
    }
    finish("spec_events");
    return 0;
}
