// SPDX-License-Identifier: MIT
// The timing model's sections of a snapshot, system or user mode (snap_timing.c).
#ifndef HEXSIM_SNAP_TIMING_H
#define HEXSIM_SNAP_TIMING_H

#include <stddef.h>

#include "hexsim/machine.h"
#include "snap_file.h"

struct hexsim_user;

// What a snapshot keeps of the model: the mode, the parameters and the caches (in section
// order: L2, then each vCPU's L1I and L1D; none in simple mode).
struct snap_timing_view {
    uint32_t mode;                          // enum hexsim_timing_mode
    const struct hexsim_timing_params *p;
    unsigned ncache;
    struct hexsim_cache *cache[1 + 2 * HEXSIM_MAX_VCPUS];
};
void snap_timing_of_machine(struct snap_timing_view *v, const struct hexsim_machine *m);
// (u's caches must be made already in cache mode: hexsim_user_make_caches.)
void snap_timing_of_user(struct snap_timing_view *v, const struct hexsim_user *u);

int snap_timing_save(struct snap_image *im, const struct snap_timing_view *v);
// How many sections snap_timing_save writes.
unsigned snap_timing_sections(const struct snap_timing_view *v);
// 0 when im's timing sections fit v (same mode and parameters, same cache sizes); else -1
// with a message.
int snap_timing_check(const struct snap_image *im, const struct snap_timing_view *v,
                      const char *path, char *msg, size_t msglen);
// Copies the saved cache tags into v's caches (after a successful check).
void snap_timing_apply(const struct snap_image *im, const struct snap_timing_view *v);

#endif
