// SPDX-License-Identifier: MIT
// --profile: where the pcycles go. The run loops report every committed packet (its
// address, the pcycles it took, and whether it called or returned); at the end the profile
// is written as a table of functions (ELF symbols) sorted by their own pcycles (then, if
// any HVX packets ran, their HVX packets and instructions by function), and as
// folded call stacks ("f;g;h pcycles" lines, the input of flame graph tools) built from
// the calls and returns the packets made, and drawn as a flame graph (FILE.svg). Calls
// deeper than HEXSIM_PROFILE_DEPTH per thread are folded as callees of the frame at that
// depth (each function's own pcycles stay exact) and their returns still match them.
// In system mode the caller also says which guest task runs (hexsim_profile_set_task), so
// guest user code is named by its own program's symbols and summed per task.
#ifndef HEXSIM_CORE_PROFILE_H
#define HEXSIM_CORE_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEXSIM_PROFILE_THREADS 8
#define HEXSIM_PROFILE_DEPTH 128
#define HEXSIM_PROFILE_TASKS 64       // guest task names told apart (system mode)
#define HEXSIM_PROFILE_MAX_PROGS 16   // --profile-symbols programs

struct hexsim_packet;
struct hexsim_profile;

enum { HEXSIM_PROFILE_FLOW_NONE, HEXSIM_PROFILE_FLOW_CALL, HEXSIM_PROFILE_FLOW_RETURN };

struct hexsim_profile *hexsim_profile_new(void);
void hexsim_profile_free(struct hexsim_profile *p);
// Whether pkt (committed, the thread now at next_pc) called, returned or neither.
int hexsim_profile_flow(const struct hexsim_packet *pkt, uint32_t next_pc);
// Accounts one packet of thread (vCPU) t at pc that took `pcycles` and had hvx_insns HVX
// instructions; flow and the thread's next PC (a call's target).
void hexsim_profile_packet(struct hexsim_profile *p, unsigned t, uint32_t pc, uint64_t pcycles,
                           unsigned hvx_insns, int flow, uint32_t next_pc);
// System mode: the index (1 ... HEXSIM_PROFILE_TASKS - 1) of the guest task called name
// (its comm, at most 15 characters), 0 when there are too many names.
unsigned hexsim_profile_task(struct hexsim_profile *p, const char *name);
// System mode, before each packet: thread t runs for task (0: unknown) in user mode or not.
// User-mode packets are counted by (task, address) and their call stacks start at the
// task's frame "[name]" (after a task switch again from there: the profile cannot see
// the call stack the task had; task 0's under "[unknown]", named by the kernel's ELF as
// a bare-metal guest's are); kernel packets by address under "[kernel]".
void hexsim_profile_set_task(struct hexsim_profile *p, unsigned t, unsigned task, bool user);
// Writes the table to path, the folded stacks to path.folded and their flame graph to
// path.svg and speedscope's JSON path.speedscope.json, naming functions from the ELF file elf (NULL or unreadable: addresses), and
// the user code of a guest task from the program in progs (nprogs of them) whose base
// name is the task's name; when guest tasks were seen also each one's pcycles to
// path.tasks.
// 0, or -1 with a message.
int hexsim_profile_write(const struct hexsim_profile *p, const char *path, const char *elf,
                         const char *const *progs, unsigned nprogs, char *msg, size_t msglen);

#endif
