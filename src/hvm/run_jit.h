// SPDX-License-Identifier: MIT
// Blocks in system mode (run_jit.c): what the run loop (run.c) calls.
#ifndef HEXSIM_HVM_RUN_JIT_H
#define HEXSIM_HVM_RUN_JIT_H

#include <stdbool.h>
#include <stdint.h>

struct hexsim_machine;
struct hexsim_vcpu;

// Makes the machine's block table unless --no-jit or cache mode (then m->sysblocks stays
// NULL and every packet is interpreted). Returns -1 when out of memory.
int hexsim_sysjit_init(struct hexsim_machine *m);
void hexsim_sysjit_free(struct hexsim_machine *m);
// Runs the block at v's PC if the loop would run each of its packets: at most budget
// packets, and the clock below `until` before each. Returns the packets it committed (0:
// none ran; the loop runs the packet itself). *next is set when the packet at cpu.pc must
// run on its own (it faults, or it reaches a device): the loop runs it before another block.
uint64_t hexsim_sysjit_run(struct hexsim_vcpu *v, uint64_t budget, uint64_t until, bool *next);
// Blocks built, blocks compiled, flushes (--stats).
void hexsim_sysjit_stats(const struct hexsim_machine *m, uint64_t *built, uint64_t *compiled,
                         uint64_t *flushes);

#endif
