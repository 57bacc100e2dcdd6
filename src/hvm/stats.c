// SPDX-License-Identifier: MIT
// --stats and --stats-json in system mode: the timing model's counters summed over the
// vCPUs (src/cpu/timing.h), the machine's packet count and pcycle clock, trap1 calls by
// name (hexagon_vm.h numbering), events by kind and interrupts by number, angel calls, and
// host time and blocks (src/core/stats.c prints and writes them).
#include "core/stats.h"
#include "hexsim/machine.h"
#include "run_jit.h"

static const char *const event_keys[8] = {
    [HVM_EV_RESET] = "reset", [HVM_EV_MACHCHECK] = "machine_check",
    [HVM_EV_GENEX] = "general_exception", [HVM_EV_TRAP0] = "trap0", [HVM_EV_INTR] = "interrupt",
};

void hexsim_machine_report_stats(struct hexsim_machine *m, double seconds)
{
    struct hexsim_stats s = { 0 };
    struct hexsim_timing_stats t = { 0 };
    for (unsigned i = 0; i < m->nvcpu; i++)
        hexsim_timing_stats_add(&t, &m->vcpu[i].cpu.tm.st);
    hexsim_stats_add(&s, "vcpus", "vCPUs", m->nvcpu);
    hexsim_stats_add_timing(&s, m->packets, m->now, &t, m->caches_on);
    char key[40], label[48];
    for (unsigned n = 0; n < HEXSIM_HVM_COUNTED_CALLS; n++) {
        const char *name = hexsim_hvm_call_name(n);
        if (!name || !m->counts.calls[n])
            continue;
        snprintf(key, sizeof key, "hvm_%s", name);
        snprintf(label, sizeof label, "HVM calls: %s", name);
        hexsim_stats_add(&s, key, label, m->counts.calls[n]);
    }
    for (unsigned e = 0; e < 8; e++) {
        if (!event_keys[e] || !m->counts.events[e])
            continue;
        snprintf(key, sizeof key, "event_%s", event_keys[e]);
        snprintf(label, sizeof label, "HVM events: %s", event_keys[e]);
        hexsim_stats_add(&s, key, label, m->counts.events[e]);
    }
    for (unsigned n = 0; n < HEXSIM_HVM_NINTS; n++) {
        if (!m->counts.interrupts[n])
            continue;
        snprintf(key, sizeof key, "interrupt_%u", n);
        snprintf(label, sizeof label, "interrupts taken: %u", n);
        hexsim_stats_add(&s, key, label, m->counts.interrupts[n]);
    }
    hexsim_stats_add(&s, "angel_calls", "angel calls", m->counts.angel);
    hexsim_stats_add_host(&s, m->packets, seconds);
    if (m->inputs) {
        hexsim_stats_add(&s, "host_inputs", "console inputs released (host)", m->inputs);
        hexsim_stats_add_real(&s, "host_cpu_first_input", "host CPU s at the first input",
                              m->input_cpu_first);
        hexsim_stats_add_real(&s, "host_cpu_last_input", "host CPU s at the last input",
                              m->input_cpu_last);
    }
    // how the host ran it (they depend on --no-jit and the code cache, not on the guest)
    uint64_t built, compiled, flushes;
    hexsim_sysjit_stats(m, &built, &compiled, &flushes);
    hexsim_stats_add(&s, "host_blocks_built", "blocks built (host)", built);
    hexsim_stats_add(&s, "host_blocks_compiled", "blocks compiled (host)", compiled);
    hexsim_stats_add(&s, "host_code_cache_flushes", "code cache flushes (host)", flushes);
    if (m->opts.stats)
        hexsim_stats_print(m->err, &s);
    char msg[600];
    if (m->opts.stats_json && hexsim_stats_write_json(m->opts.stats_json, &s, msg, sizeof msg))
        fprintf(m->err, "hexsim: --stats-json: %s\n", msg);
}
