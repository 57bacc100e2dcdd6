// SPDX-License-Identifier: MIT
// --profile: where the pcycles go. The run loops report every committed packet (its
// address, the pcycles it took, and whether it called or returned); at the end the profile
// is written as a table of functions (ELF symbols) sorted by their own pcycles (then, if
// any HVX packets ran, their HVX packets and instructions by function), and as
// folded call stacks ("f;g;h pcycles" lines, the input of flame graph tools) built from
// the calls and returns the packets made, and drawn as a flame graph (FILE.svg). Calls
// deeper than HEXSIM_PROFILE_DEPTH per thread are folded as callees of the frame at that
// depth (each function's own pcycles stay exact) and their returns still match them.
#ifndef HEXSIM_CORE_PROFILE_H
#define HEXSIM_CORE_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#define HEXSIM_PROFILE_THREADS 8
#define HEXSIM_PROFILE_DEPTH 128

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
// Writes the table to path, the folded stacks to path.folded and their flame graph to
// path.svg, naming functions from the
// ELF file elf (NULL or unreadable: addresses). 0, or -1 with a message.
int hexsim_profile_write(const struct hexsim_profile *p, const char *path, const char *elf,
                         char *msg, size_t msglen);

#endif
