// SPDX-License-Identifier: MIT
// The debugger target for system mode (src/debug/target.h over struct hexsim_machine): one
// thread per vCPU (ids 1..nvcpu), R0-R31/C0-C31 plus the HVM's guest registers G0-G3 and
// HTID (and the HVX registers on a core with HVX), memory by guest virtual address through the vCPU's page tables (walked without
// touching its soft TLB) or by physical address (RAM only: device registers are refused,
// since reading one has side effects), the vmlinux symbols, and "info tlb/irq/devices/hvm".
// Running installs a per-packet hook in the run loop (struct hexsim_machine_hook) only for
// the duration of the step/run call. Events the guest handles (exceptions through its
// vectors, interrupts) are not stops; a run that ends the machine with an error is a FAULT
// stop, and the next step/run reports the EXIT.
#ifndef HEXSIM_HVM_DBG_TARGET_H
#define HEXSIM_HVM_DBG_TARGET_H

#include "debug/cpu_regs.h"
#include "debug/symtab.h"
#include "debug/target.h"
#include "hexsim/machine.h"

struct hexsim_sys_dbg {
    struct hexsim_machine *m;
    struct hexsim_symtab syms;
    struct hexsim_machine_hook hook;
    struct hexsim_dbg_reg_desc regs[HEXSIM_DBG_CPU_NREGS + 5 + HEXSIM_DBG_HVX_NREGS];
    unsigned nregs;
    // the step/run call in progress
    const struct hexsim_dbg_run *cond;       // run: the stop condition (NULL: step)
    struct hexsim_dbg_stop *stop;
    struct hexsim_dbg_step_info *info;       // step: what the packet did
    struct hexsim_vcpu *step_vcpu;           // step: the vCPU that runs one packet
    bool step_done;
    uint8_t skip_bp;                         // vCPUs (bits) whose next packet ignores bp[]
    struct hexsim_exec_trace trace;          // run with watchpoints: the packet's accesses
    bool interrupt;                          // Ctrl-A d: stop the run at the next packet
    bool ended;                              // the machine has stopped; status below
    bool fault_reported;                     // an error end was reported as FAULT already
    int status;
};

// Sets up d over the loaded machine m (symbols from the kernel ELF at path) and fills *t.
void hexsim_sys_dbg_init(struct hexsim_sys_dbg *d, struct hexsim_machine *m, const char *path,
                         struct hexsim_dbg_target *t);
void hexsim_sys_dbg_free(struct hexsim_sys_dbg *d);
// The console's Ctrl-A d while a step/run is under way: the run stops (INTERRUPT) before
// the next packet. Does nothing when no debugger run is in progress.
void hexsim_sys_dbg_interrupt(struct hexsim_machine *m);
// "info WHAT" for the debugger (dbg_info.c): tlb, irq, devices, hvm; 0, or -1 for another.
int hexsim_sys_dbg_info(struct hexsim_machine *m, const char *what, FILE *out);

#endif
