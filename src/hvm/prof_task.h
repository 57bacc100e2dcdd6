// SPDX-License-Identifier: MIT
// --profile in system mode (prof_task.c): what the run loop (run.c) calls for each packet,
// and the current guest task for the debugger.
#ifndef HEXSIM_HVM_PROF_TASK_H
#define HEXSIM_HVM_PROF_TASK_H

#include <stddef.h>
#include <stdint.h>

struct hexsim_machine;
struct hexsim_vcpu;
struct hexsim_packet;

// Tells m->profile which guest task v runs for and, when packet number m->packets - 1 is
// inside --profile-range, accounts pkt (committed, pcycles taken, v now at its next PC).
void hexsim_hvm_profile_packet(struct hexsim_vcpu *v, const struct hexsim_packet *pkt,
                               uint64_t pcycles);

// The guest kernel's current task on v as it is stopped now (the debugger's stop report):
// the task_struct's address and its name (comm) into comm[len]. 0, or -1 when unknown (no
// init_task symbol, a guest other than Linux, the kernel's map not up yet).
int hexsim_hvm_current_task(struct hexsim_vcpu *v, uint32_t *task, char *comm, size_t len);

// Writes m->profile (hexsim_profile_write) with the kernel's symbols and the programs of
// --profile-symbols. 0, or -1 with a message.
int hexsim_hvm_profile_write(struct hexsim_machine *m, char *msg, size_t msglen);

#endif
