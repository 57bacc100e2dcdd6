// SPDX-License-Identifier: MIT
// Packet-formation rules (PRM section 3.3 "Packets" and 10: resource, slot, register-write
// and new-value constraints) applied to a decoded packet.
#ifndef HEXSIM_CPU_CHECK_H
#define HEXSIM_CPU_CHECK_H

#include <stdbool.h>

struct hexsim_packet;

// 0 when the decoded packet may legally execute as one packet on core version arch (68 =
// V68; some instructions' slots depend on it), else the first rule it breaks (check.c).
int hexsim_check_packet(const struct hexsim_packet *pkt, unsigned arch);
// The rule's text for reports ("HVX: more than one vector load ...").
const char *hexsim_packet_rule_str(int rule);

#endif
