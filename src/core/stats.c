// SPDX-License-Identifier: MIT
// Run statistics: see stats.h.
#include "stats.h"

#include <errno.h>
#include <string.h>
#include <time.h>

static void add(struct hexsim_stats *s, const char *key, const char *label, double v, bool integer)
{
    if (s->n >= HEXSIM_STATS_MAX)
        return;
    struct hexsim_stat_row *r = &s->row[s->n++];
    snprintf(r->key, sizeof r->key, "%s", key);
    snprintf(r->label, sizeof r->label, "%s", label);
    r->value = v;
    r->integer = integer;
}

void hexsim_stats_add(struct hexsim_stats *s, const char *key, const char *label, uint64_t v)
{
    add(s, key, label, (double)v, true);
}

void hexsim_stats_add_real(struct hexsim_stats *s, const char *key, const char *label, double v)
{
    add(s, key, label, v, false);
}

// "load-use" -> "load_use"
static void keyify(char *out, size_t n, const char *prefix, const char *name)
{
    snprintf(out, n, "%s%s", prefix, name);
    for (char *p = out; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            *p = *p >= 'A' && *p <= 'Z' ? (char)(*p - 'A' + 'a') : '_';
}

void hexsim_stats_add_timing(struct hexsim_stats *s, uint64_t packets,
                             uint64_t pcycles, const struct hexsim_timing_stats *t, bool caches)
{
    hexsim_stats_add(s, "packets", "packets", packets);
    hexsim_stats_add(s, "instructions", "instructions", t->insns);
    hexsim_stats_add(s, "pcycles", "pcycles", pcycles);
    hexsim_stats_add_real(s, "packets_per_pcycle", "packets per pcycle",
                          pcycles ? (double)packets / (double)pcycles : 0.0);
    hexsim_stats_add_real(s, "instructions_per_packet", "instructions per packet",
                          packets ? (double)t->insns / (double)packets : 0.0);
    for (int c = 0; c < HX_STALL_NCAUSES; c++) {
        if (!caches && (c == HX_STALL_ICACHE || c == HX_STALL_DCACHE || c == HX_STALL_L2))
            continue;
        char key[40], label[48];
        keyify(key, sizeof key, "stall_", hexsim_stall_cause_name(c));
        snprintf(label, sizeof label, "stall pcycles: %s", hexsim_stall_cause_name(c));
        hexsim_stats_add(s, key, label, t->stall[c]);
    }
    hexsim_stats_add(s, "hvx_packets", "HVX packets", t->hvx_packets);
    hexsim_stats_add(s, "hvx_instructions", "HVX instructions", t->hvx_insns);
    hexsim_stats_add(s, "branches_taken", "branches taken", t->taken);
    hexsim_stats_add(s, "mispredicted_hints", "mispredicted hints", t->mispredicts);
    if (caches) {
        static const char *const lvl[3] = { "l1i", "l1d", "l2" };
        for (int i = 0; i < 3; i++) {
            char key[40], label[48];
            snprintf(key, sizeof key, "%s_hits", lvl[i]);
            snprintf(label, sizeof label, "%s hits", lvl[i]);
            hexsim_stats_add(s, key, label, t->access[i] - t->miss[i]);
            snprintf(key, sizeof key, "%s_misses", lvl[i]);
            snprintf(label, sizeof label, "%s misses", lvl[i]);
            hexsim_stats_add(s, key, label, t->miss[i]);
        }
    }
    hexsim_stats_add(s, "device_accesses", "device accesses", t->device);
}

void hexsim_stats_add_host(struct hexsim_stats *s, uint64_t packets, double wall)
{
    struct timespec cpu;
    double cpu_s = clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu) == 0
                   ? (double)cpu.tv_sec + cpu.tv_nsec * 1e-9 : 0.0;
    hexsim_stats_add_real(s, "host_seconds", "host seconds (wall)", wall);
    hexsim_stats_add_real(s, "host_cpu_seconds", "host seconds (CPU)", cpu_s);
    hexsim_stats_add(s, "packets_per_second", "packets per host CPU second",
                     cpu_s > 0 ? (uint64_t)((double)packets / cpu_s) : 0);
}

void hexsim_stats_print(FILE *out, const struct hexsim_stats *s)
{
    fprintf(out, "hexsim: stats\n");
    for (unsigned i = 0; i < s->n; i++) {
        const struct hexsim_stat_row *r = &s->row[i];
        if (r->integer)
            fprintf(out, "  %-40s %20.0f\n", r->label, r->value);
        else
            fprintf(out, "  %-40s %20.3f\n", r->label, r->value);
    }
}

int hexsim_stats_write_json(const char *path, const struct hexsim_stats *s, char *msg,
                            size_t msglen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(msg, msglen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fprintf(f, "{");
    for (unsigned i = 0; i < s->n; i++) {
        const struct hexsim_stat_row *r = &s->row[i];
        if (r->integer)
            fprintf(f, "%s\n  \"%s\": %.0f", i ? "," : "", r->key, r->value);
        else
            fprintf(f, "%s\n  \"%s\": %.6g", i ? "," : "", r->key, r->value);
    }
    fprintf(f, "\n}\n");
    if (fclose(f) != 0) {
        snprintf(msg, msglen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
