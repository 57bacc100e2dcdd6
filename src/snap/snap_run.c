// SPDX-License-Identifier: MIT
// --snapshot-at and Ctrl-A s (snap_run.h): the run loop that pauses at each snapshot point,
// writes the snapshot through the runner's save function (snap_user.c for a process,
// snap_machine.c for a machine) and goes on.
#include "snap/snap_run.h"

#include <string.h>
#include <time.h>

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void hexsim_snapshot_path(char *buf, size_t len, const char *pattern, uint64_t n)
{
    const char *k = strstr(pattern, "%N");
    if (!k)
        snprintf(buf, len, "%s", pattern);
    else
        snprintf(buf, len, "%.*s%llu%s", (int)(k - pattern), pattern, (unsigned long long)n,
                 k + 2);
}

// Writes the snapshot of the run's present state to path; 0, or -1 after saying why.
static int save_snapshot(const struct hexsim_snap_runner *r, const char *path)
{
    char msg[768];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (r->save(r->ctx, path, msg, sizeof(msg))) {
        fprintf(r->err, "hexsim: %s\n", msg);
        return -1;
    }
    fprintf(r->err, "hexsim: snapshot at packet %llu written to %s in %.3f s\n",
            (unsigned long long)*r->packets, path, seconds_since(&t0));
    return 0;
}

// Runs until the run ends or reaches its pause point, writing a snapshot whenever Ctrl-A s
// asks for one (to out, else hexsim-N.snap, N the packet count).
static int run_serving_keys(const struct hexsim_snap_runner *r, const char *out)
{
    for (;;) {
        int status = r->run(r->ctx);
        if (status != r->paused || !r->pause_now || !*r->pause_now)
            return status;
        *r->pause_now = false;
        char path[4096];
        hexsim_snapshot_path(path, sizeof(path), out ? out : "hexsim-%N.snap", *r->packets);
        save_snapshot(r, path);        // a failure is reported; the run goes on
    }
}

int hexsim_snap_run(const struct hexsim_snap_runner *r, const uint64_t *points,
                    unsigned npoints, const char *out)
{
    for (unsigned i = 0; i < npoints; i++) {
        uint64_t at = points[i];
        if (at <= *r->packets) {
            fprintf(r->err, "hexsim: --snapshot-at %llu: the %s is already at packet %llu\n",
                    (unsigned long long)at, r->what, (unsigned long long)*r->packets);
            return 2;
        }
        char path[4096];
        hexsim_snapshot_path(path, sizeof(path), out, at);
        *r->pause_at = at;
        int status = run_serving_keys(r, out);
        *r->pause_at = 0;
        if (status != r->paused) {
            fprintf(r->err, "hexsim: the run ended before packet %llu: no snapshot written "
                    "to %s\n", (unsigned long long)at, path);
            return status ? status : 1;
        }
        if (save_snapshot(r, path))
            return 1;
    }
    return run_serving_keys(r, out);
}
