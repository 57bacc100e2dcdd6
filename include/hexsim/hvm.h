// SPDX-License-Identifier: MIT
// The Hexagon Virtual Machine (HVM) as hexsim provides it to a guest kernel: virtual CPUs
// in guest or user mode, the trap1 virtual instructions, events delivered through the
// guest's vector table, the guest MMU (two-level page tables walked by the VM, cached in a
// soft TLB) and the interrupt controller behind vmintop. Facts: the HVM specification
// (VM_Spec.adoc, 80-V9418-14 Rev A, version 0x700; section numbers below are its own),
// seeds 002 (hexagon_vm.h, vm_mmu.h, vm_entry.S, vm_vectors.S), 004 (vmstart), DESIGN.md
// "HVM ABI".
#ifndef HEXSIM_HVM_H
#define HEXSIM_HVM_H

#include <stdbool.h>
#include <stdint.h>

#include "cpu/cpu.h"
#include "cpu/exec.h"
#include "hexsim/mem.h"

#define HEXSIM_MAX_VCPUS 8
#define HEXSIM_HVM_NINTS 32          // L1 interrupts (HEXAGON_CPUINTS)
#define HEXSIM_HVM_COUNTED_CALLS 24  // trap1 numbers counted by name (vmversion..vmgetregs)
// vmversion's answer: the specification whose calls hexsim implements (App. B: 0x700). H2
// reports 0x800 and adds vmtimerop, vmpmuctrl and vmgetinfo, which no published text specifies.
#define HEXSIM_HVM_VERSION 0x700
// The VMM's own top 16 MiB of every address space (sections 2.2.1, 3.3.1): any access is a
// protection violation.
#define HEXSIM_HVM_RESERVED_VA 0xff000000u

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
// vmintop STATUS answer (App. A VMINTOP: "0 if pending, 1 if local enable, 2: global
// enable", bit numbers; H2's shint/cpuint and hexagonMVM read it the same way)
#define HVMI_STATUS_PENDING 1u
#define HVMI_STATUS_LOCAL 2u         // enabled on the calling vCPU
#define HVMI_STATUS_GLOBAL 4u        // enabled globally

// vmcache operations (App. A VMCACHE); any other number is reserved (a no-op answering -1)
enum hexsim_vmcache {
    HVMC_ICKILL, HVMC_DCKILL, HVMC_L2KILL, HVMC_DCCLEANINVA, HVMC_ICINVA, HVMC_IDSYNC,
    HVMC_NOPS,
};

// Event vector slots (GEVB + 4 * slot) and the event number written to GSR
enum { HVM_EV_RESET = 0, HVM_EV_MACHCHECK = 1, HVM_EV_GENEX = 2, HVM_EV_TRAP0 = 5,
       HVM_EV_INTR = 7 };

// GSR fields (section 5.3.2); bits 29:16 are reserved and written as zero
#define HVM_GSR_UM (1u << 31)
#define HVM_GSR_IE (1u << 30)
#define HVM_GSR_CAUSE 0xffffu

// Machine check causes (section 7.5)
enum { HVM_MC_BAD_PT = 0x03 };   // invalid logical page mapping in a page table, at run time

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
    uint32_t evb;                   // guest event vector base (GEVB)
    bool vec_set;                   // vmsetvec has given one (0 is a valid base)
    bool mmu_on;                    // a page table was given (vmnewmap); before: the boot map
    uint32_t ptbase;                // physical address of the L1 table
    struct hexsim_tlb tlb[2];       // soft TLBs: [0] guest mode, [1] user mode
    // the executor's fast paths' TLBs (exec.h: rtlb, wtlb), per mode as tlb[]: emptied with
    // it; a page that becomes code leaves every wtlb (hexsim_code_page)
    struct hexsim_mem_tlb rtlb[2][HEXSIM_MEM_TLB_SIZE], wtlb[2][HEXSIM_MEM_TLB_SIZE];
    struct hexsim_xlat xlat;        // the executor's memory path for this vCPU
    struct hexsim_exec_env env;
    bool yield;                     // end this vCPU's time slice (vmyield, vmwait)
};

// The interrupt controller behind vmintop (section 6.2): per interrupt a latched pending bit
// and a global enable (cleared when the interrupt is delivered or taken with vmintop get,
// set again by globen), and per vCPU a local enable mask (affinity is local enables: on for
// the target vCPU, off for the others). Device lines latch pending on a rising edge, and
// again at globen while the line is still high.
struct hexsim_intc {
    uint32_t pending, genable, level;
    uint32_t locen[HEXSIM_MAX_VCPUS];
    bool *attention;                // set when something may have become deliverable
};

void hexsim_intc_reset(struct hexsim_intc *ic);
void hexsim_intc_set_line(void *ic, unsigned line, int level);   // hexsim_irq callback
// Interrupts vcpu may take now (pending, enabled globally and locally).
uint32_t hexsim_intc_deliverable(const struct hexsim_intc *ic, unsigned vcpu);
// Accepts interrupt n (clears pending, disables it globally).
void hexsim_intc_accept(struct hexsim_intc *ic, unsigned n);
// vmintop: op with arguments a1, a2 for vcpu; returns the value for r0.
int32_t hexsim_intc_op(struct hexsim_intc *ic, unsigned vcpu, unsigned nvcpus, uint32_t op,
                       uint32_t a1, uint32_t a2);

// Guest MMU walk (src/hvm/mmu.c): translates va for one access in the mode given, reading
// the tables from physical memory. Returns 0 and *pa and *prot (HEXSIM_PROT_* the mapping
// allows in that mode), an enum hexsim_mem_fault, or HEXSIM_HVM_BAD_TABLE when an L2 table
// is not in RAM (a machine check, section 7.5).
#define HEXSIM_HVM_BAD_TABLE 16
struct hexsim_mem;
int hexsim_hvm_walk(struct hexsim_mem *ram, uint32_t ptbase, uint32_t va, bool user,
                    uint32_t *pa, unsigned *prot);
// The whole translation of va for v in the given mode, as accesses see it: the reserved top
// 16 MiB, the boot map before vmnewmap (section 4.5: RAM at VA = PA, read, write, execute,
// guest mode only) or the guest's page tables, and the logical page's existence (RAM or a
// device; else a protection violation, section 9.2). Same answers as hexsim_hvm_walk.
int hexsim_hvm_translate(struct hexsim_vcpu *v, uint32_t va, bool user, uint32_t *pa,
                         unsigned *prot);
// The guest-mode mapping of va (boot map or page table, no check of what it points at): 0
// with its permissions and its last virtual address, or a fault as above (vmcache's range
// check: one look per page, whatever its size).
int hexsim_hvm_guest_mapping(struct hexsim_vcpu *v, uint32_t va, unsigned *prot,
                             uint32_t *last);
void hexsim_vcpu_flush_tlb(struct hexsim_vcpu *v);
void hexsim_vcpu_init_xlat(struct hexsim_vcpu *v);
void hexsim_vcpu_set_user(struct hexsim_vcpu *v, bool user);
// A RAM page code is decoded from (run.c, run_jit.c): marked, so that a store into it bumps
// code_gen (mem.h), and taken out of every vCPU's wtlb, so that stores to it take the slow
// path, which sees that.
struct hexsim_machine;
void hexsim_code_page_slow(struct hexsim_machine *m, struct hexsim_page *pg);
static inline void hexsim_code_page(struct hexsim_machine *m, struct hexsim_page *pg)
{
    if (!pg->code)
        hexsim_code_page_slow(m, pg);
}

// Events and trap1 (src/hvm/hvm.c). An event before vmsetvec terminates the vCPU (section
// 5.2) with a report on err; it then returns false.
bool hexsim_hvm_event(struct hexsim_vcpu *v, unsigned ev, uint32_t cause, uint32_t elr,
                      uint32_t badva);
void hexsim_hvm_trap1(struct hexsim_vcpu *v, uint32_t num, uint32_t pc);
const char *hexsim_hvm_call_name(uint32_t num);
// Angel calls through trap0(#0) in guest mode (src/hvm/angel.c).
void hexsim_hvm_angel(struct hexsim_vcpu *v);

#endif
