// SPDX-License-Identifier: MIT
// The timing model's sections of a system-mode snapshot (snap_timing.c).
#ifndef HEXSIM_SNAP_TIMING_H
#define HEXSIM_SNAP_TIMING_H

#include <stddef.h>

#include "snap_file.h"

struct hexsim_machine;

int snap_timing_save(struct snap_image *im, const struct hexsim_machine *m);
// How many sections snap_timing_save writes for m.
unsigned snap_timing_sections(const struct hexsim_machine *m);
// 0 when im's timing sections fit m (same mode and parameters); else -1 with a message.
int snap_timing_check(const struct snap_image *im, const struct hexsim_machine *m,
                      const char *path, char *msg, size_t msglen);
// Applies them (after the vCPUs): cache tags, and makes restored model state safe.
void snap_timing_apply(const struct snap_image *im, struct hexsim_machine *m);

#endif
