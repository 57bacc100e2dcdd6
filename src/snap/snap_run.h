// SPDX-License-Identifier: MIT
// Runs with snapshots taken along the way (--snapshot-at N[,N...] --snapshot-out FILE, and
// Ctrl-A s in system mode), the same for a user-mode process and a system-mode machine: the
// run pauses at each point (its pause_at), the snapshot is written, the run goes on.
#ifndef HEXSIM_SNAP_RUN_H
#define HEXSIM_SNAP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hexsim_snap_runner {
    void *ctx;
    int (*run)(void *ctx);
    int paused;                                  // what run() returns at a pause
    uint64_t *packets, *pause_at;                // the run's packet count and pause point
    int (*save)(void *ctx, const char *path, char *msg, size_t msglen);
    const char *what;                            // "process", "machine"
    bool *pause_now;                             // Ctrl-A s asked for one now (NULL: never)
    FILE *err;                                   // where the run's messages go
};

// The snapshot file for the point at packet n: pattern with its first %N replaced by n.
void hexsim_snapshot_path(char *buf, size_t len, const char *pattern, uint64_t n);

// Runs to each of the npoints points (ascending) writing a snapshot to out (a pattern for
// hexsim_snapshot_path) at each, then to the end; Ctrl-A s snapshots go to out as well,
// else to hexsim-N.snap. Returns the run's exit status, 2 for a point the run has already
// passed, 1 when a snapshot cannot be written or the run ends before a point (unless it
// ended with a status of its own).
int hexsim_snap_run(const struct hexsim_snap_runner *r, const uint64_t *points,
                    unsigned npoints, const char *out);

#endif
