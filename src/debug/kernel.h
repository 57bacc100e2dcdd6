// SPDX-License-Identifier: MIT
// Linux-aware debugging of the Hexagon guest kernel (system mode): the HVM event boundary in
// backtraces (the interrupted context from the pt_regs the kernel's event entry saved), the
// current task at a stop, the task list, the kernel log buffer and a process's memory by its
// page tables. Everything is read through the debugger's memory accessors and the
// kernel's symbols; structure layouts come from the kernel's DWARF (a vmlinux built with
// guest/linux/build.sh --debug-info), with a clear message when it has none.
#ifndef HEXSIM_DEBUG_KERNEL_H
#define HEXSIM_DEBUG_KERNEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct hexsim_debugger;
struct hexsim_dbg_frame;

// When frame `f` (a caller's frame, its SP the one its callee was called with) returns into
// the kernel's event entry (event_dispatch, which calls the C handler with SP at the
// pt_regs it saved), fills *next with the interrupted context (PC, FP and SP from pt_regs,
// next->regs the pt_regs address) and *lr with its LR. false otherwise.
bool hexsim_kernel_event_frame(struct hexsim_debugger *d, const struct hexsim_dbg_frame *f,
                               struct hexsim_dbg_frame *next, uint32_t *lr);
// Register r (debugger numbering: R0-R31, PC) of an interrupted context saved at regs.
// 0, or -1.
int hexsim_kernel_saved_reg(struct hexsim_debugger *d, uint32_t regs, unsigned r,
                            uint32_t *val);
// The line bt prints before the interrupted context's frame: which event (from the handler
// frame `handler` called: system call N, interrupt, exception), from user or kernel mode.
void hexsim_kernel_print_boundary(struct hexsim_debugger *d, const struct hexsim_dbg_frame *f,
                                  const struct hexsim_dbg_frame *handler, FILE *out);
// "[task NAME, pid N]" for the current thread's task (the pid with DWARF); nothing when the
// target does not know the task.
void hexsim_kernel_print_task(struct hexsim_debugger *d, FILE *out);

// The commands (layouts from the kernel's DWARF; without it a message says how to get it):
// ps, the tasks on init_task's list ("> " the current thread's task, kernel threads in
// brackets); vtop, va in process pid's (pid < 0: the current task's) address space by its page tables (mm->pgd, walked as
// the machine's MMU walks them) to a physical address; dmesg, the kernel log buffer.
void hexsim_kernel_ps(struct hexsim_debugger *d, FILE *out);
void hexsim_kernel_vtop(struct hexsim_debugger *d, int pid, uint32_t va, FILE *out);
void hexsim_kernel_dmesg(struct hexsim_debugger *d, FILE *out);

#endif
