// SPDX-License-Identifier: MIT
// Run statistics (--stats, --stats-json): a list of named values that user and system mode
// fill at the end of a run, printed as an aligned table or written as one JSON object.
#ifndef HEXSIM_CORE_STATS_H
#define HEXSIM_CORE_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/timing.h"

#define HEXSIM_STATS_MAX 96

struct hexsim_stats {
    unsigned n;
    struct hexsim_stat_row {
        char key[40];      // JSON key: lower case, underscores
        char label[48];    // table label
        double value;
        bool integer;
    } row[HEXSIM_STATS_MAX];
};

void hexsim_stats_add(struct hexsim_stats *s, const char *key, const char *label, uint64_t v);
void hexsim_stats_add_real(struct hexsim_stats *s, const char *key, const char *label, double v);
// The timing model's rows: packets, instructions, pcycles, packets per pcycle, stalls by
// cause, branches, caches (cache mode), device accesses.
void hexsim_stats_add_timing(struct hexsim_stats *s, uint64_t packets,
                             uint64_t pcycles, const struct hexsim_timing_stats *t, bool caches);
// Host time and speed rows.
void hexsim_stats_add_host(struct hexsim_stats *s, uint64_t packets, double wall_seconds);
void hexsim_stats_print(FILE *out, const struct hexsim_stats *s);
// Writes the JSON object to path; 0, or -1 with a message naming the file.
int hexsim_stats_write_json(const char *path, const struct hexsim_stats *s, char *msg,
                            size_t msglen);

#endif
