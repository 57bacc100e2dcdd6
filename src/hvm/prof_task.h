// SPDX-License-Identifier: MIT
// --profile in system mode (prof_task.c): what the run loop (run.c) calls for each packet.
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

// Writes m->profile (hexsim_profile_write) with the kernel's symbols and the programs of
// --profile-symbols. 0, or -1 with a message.
int hexsim_hvm_profile_write(struct hexsim_machine *m, char *msg, size_t msglen);

#endif
