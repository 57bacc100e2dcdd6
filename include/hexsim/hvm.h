// SPDX-License-Identifier: MIT
// The Hexagon Virtual Machine (HVM) as hexsim provides it to a guest kernel: virtual CPUs
// in guest or user mode, the trap1 virtual instructions, events delivered through the
// guest's vector table, the guest MMU (two-level page tables walked by the VM, cached in a
// soft TLB) and the interrupt controller behind vmintop. Facts: seeds 002 (hexagon_vm.h,
// vm_mmu.h, vm_entry.S, vm_vectors.S), 004 (vmstart), DESIGN.md "HVM ABI".
#ifndef HEXSIM_HVM_H
#define HEXSIM_HVM_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "cpu/exec.h"

#define HEXSIM_MAX_VCPUS 8
#define HEXSIM_HVM_NINTS 32          // L1 interrupts (HEXAGON_CPUINTS)
#define HEXSIM_HVM_COUNTED_CALLS 24  // trap1 numbers counted by name (vmversion..vmgetregs)
#define HEXSIM_HVM_VERSION 0x800     // answered by vmversion

// trap1 numbers
enum {
    HVM_VMVERSION = 0, HVM_VMRTE = 1, HVM_VMSETVEC = 2, HVM_VMSETIE = 3, HVM_VMGETIE = 4,
    HVM_VMINTOP = 5, HVM_VMCLRMAP = 10, HVM_VMNEWMAP = 11, HVM_VMCACHE = 13,
    HVM_VMGETTIME = 14, HVM_VMSETTIME = 15, HVM_VMWAIT = 16, HVM_VMYIELD = 17,
    HVM_VMSTART = 18, HVM_VMSTOP = 19, HVM_VMVPID = 20, HVM_VMSETREGS = 21,
    HVM_VMGETREGS = 22,
};

enum hexsim_vmintop {
    HVMI_NOP, HVMI_GLOBEN, HVMI_GLOBDIS, HVMI_LOCEN, HVMI_LOCDIS, HVMI_AFFINITY, HVMI_GET,
    HVMI_PEEK, HVMI_STATUS, HVMI_POST, HVMI_CLEAR,
};
// vmintop status bits (hexsim's encoding of the answer)
#define HVMI_STATUS_GLOBAL 1u        // enabled globally
#define HVMI_STATUS_PENDING 2u
#define HVMI_STATUS_LOCAL 4u         // enabled on the calling vCPU

enum hexsim_vmcache {
    HVMC_ICKILL, HVMC_DCKILL, HVMC_L2KILL, HVMC_DCCLEANINVA, HVMC_ICINVA, HVMC_IDSYNC,
    HVMC_FETCH_CFG,
};

// Event vector slots (GEVB + 4 * slot) and the event number written to GSR
enum { HVM_EV_RESET = 0, HVM_EV_MACHCHECK = 1, HVM_EV_GENEX = 2, HVM_EV_TRAP0 = 5,
       HVM_EV_INTR = 7 };

// GSR (EST) fields
#define HVM_GSR_UM (1u << 31)
#define HVM_GSR_IE (1u << 30)
#define HVM_GSR_EVENT_SHIFT 16

// General exception causes
enum {
    HVM_GE_BUS = 0x01, HVM_GE_XPROT = 0x11, HVM_GE_XUSER = 0x14, HVM_GE_INVI = 0x15,
    HVM_GE_PRIVI = 0x1B, HVM_GE_XMAL = 0x1C, HVM_GE_RMAL = 0x20, HVM_GE_WMAL = 0x21,
    HVM_GE_RPROT = 0x22, HVM_GE_WPROT = 0x23, HVM_GE_RUSER = 0x24, HVM_GE_WUSER = 0x25,
    HVM_GE_CACHE = 0x28,
};

// Guest registers G0-G3 hold the event record
enum { HVM_G_ELR = 0, HVM_G_GSR = 1, HVM_G_OSP = 2, HVM_G_BADVA = 3 };

// Page tables (vm_mmu.h)
#define HVM_PDE_SIZE_MASK 7u
#define HVM_PDE_INVALID 7u
#define HVM_PTE_U (1u << 5)
#define HVM_PTE_R (1u << 9)
#define HVM_PTE_W (1u << 10)
#define HVM_PTE_X (1u << 11)

enum hexsim_vcpu_state { HEXSIM_VCPU_OFF, HEXSIM_VCPU_RUN, HEXSIM_VCPU_WAIT };

struct hexsim_machine;

struct hexsim_vcpu {
    struct hexsim_cpu cpu;          // G0-G3 in cpu.g are GELR, GSR, GOSP, GBADVA
    struct hexsim_machine *m;
    unsigned id;
    int state;                      // enum hexsim_vcpu_state
    bool user;                      // user mode (else guest mode)
    bool ie;                        // interrupts enabled (vmsetie)
    uint32_t evb;                   // guest event vector base, 0 none
    bool mmu_on;                    // a page table was given (vmnewmap); before: VA = PA
    uint32_t ptbase;                // physical address of the L1 table
    struct hexsim_tlb tlb[2];       // soft TLBs: [0] guest mode, [1] user mode
    struct hexsim_xlat xlat;        // the executor's memory path for this vCPU
    struct hexsim_exec_env env;
    bool yield;                     // end this vCPU's time slice (vmyield, vmwait)
};

// The interrupt controller behind vmintop: per interrupt a latched pending bit, a global
// enable (cleared when the interrupt is delivered or taken with vmintop get, set again by
// globen), an affinity (-1: any vCPU), and per vCPU a local enable mask. Device lines latch
// pending on a rising edge, and again at globen while the line is still high.
struct hexsim_intc {
    uint32_t pending, genable, level;
    int8_t affinity[HEXSIM_HVM_NINTS];
    uint32_t locen[HEXSIM_MAX_VCPUS];
    bool *attention;                // set when something may have become deliverable
};

void hexsim_intc_reset(struct hexsim_intc *ic);
void hexsim_intc_set_line(void *ic, unsigned line, int level);   // hexsim_irq callback
// Interrupts vcpu may take now (pending, enabled globally and locally, affinity).
uint32_t hexsim_intc_deliverable(const struct hexsim_intc *ic, unsigned vcpu);
// Accepts interrupt n (clears pending, disables it globally).
void hexsim_intc_accept(struct hexsim_intc *ic, unsigned n);
// vmintop: op with arguments a1, a2 for vcpu; returns the value for r0.
int32_t hexsim_intc_op(struct hexsim_intc *ic, unsigned vcpu, unsigned nvcpus, uint32_t op,
                       uint32_t a1, uint32_t a2);

// Guest MMU walk (src/hvm/mmu.c): translates va for one access in the mode given, reading
// the tables from physical memory. Returns 0 and *pa and *prot (HEXSIM_PROT_* the mapping
// allows in that mode), or an enum hexsim_mem_fault.
struct hexsim_mem;
int hexsim_hvm_walk(struct hexsim_mem *ram, uint32_t ptbase, uint32_t va, bool user,
                    uint32_t *pa, unsigned *prot);
void hexsim_vcpu_flush_tlb(struct hexsim_vcpu *v);
void hexsim_vcpu_init_xlat(struct hexsim_vcpu *v);
void hexsim_vcpu_set_user(struct hexsim_vcpu *v, bool user);

// Events and trap1 (src/hvm/hvm.c). An event returns false if the guest has no vector.
bool hexsim_hvm_event(struct hexsim_vcpu *v, unsigned ev, uint32_t cause, uint32_t elr,
                      uint32_t badva);
void hexsim_hvm_trap1(struct hexsim_vcpu *v, uint32_t num, uint32_t pc);
const char *hexsim_hvm_call_name(uint32_t num);
// Angel calls through trap0(#0) in guest mode (src/hvm/angel.c).
void hexsim_hvm_angel(struct hexsim_vcpu *v);

#endif
