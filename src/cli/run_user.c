// SPDX-License-Identifier: MIT
// Start-up of Linux user mode (`hexsim --user PROG [ARGS...]`, or `--restore FILE` of a
// process): loads the static Hexagon program (src/user) or restores the process
// (src/snap/snap_user.c), runs it, with --snapshot-at points or under the debugger, and
// returns its exit status.
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "cli/exit_status.h"
#include "cli/modes.h"
#include "snap/snap_run.h"

double cli_seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

static int user_run(void *u)
{
    return hexsim_user_run(u);
}

static int user_save(void *u, const char *path, char *msg, size_t msglen)
{
    return hexsim_user_snapshot_save(u, path, msg, msglen);
}

int cli_run_user(const struct cli_options *opts, int gargc, char **gargv)
{
    extern char **environ;
    struct hexsim_user *u = calloc(1, sizeof(*u));
    if (!u) {
        fputs("hexsim: out of memory\n", stderr);
        return HEXSIM_EXIT_FILE;
    }
    u->opts = opts->uopts;
    if (!u->opts.ld_prefix && getenv("QEMU_LD_PREFIX") && *getenv("QEMU_LD_PREFIX"))
        u->opts.ld_prefix = getenv("QEMU_LD_PREFIX");   // as qemu-user reads it
    struct stat rst;
    if (u->opts.ld_prefix && (stat(u->opts.ld_prefix, &rst) || !S_ISDIR(rst.st_mode))) {
        fprintf(stderr, "hexsim: the guest root %s (-L DIR or QEMU_LD_PREFIX) is not a "
                "directory\n", u->opts.ld_prefix);
        free(u);
        return HEXSIM_EXIT_FILE;
    }
    u->err = stderr;
    // a write to a pipe nobody reads gives -EPIPE and the guest its own SIGPIPE (signal.c),
    // not the end of hexsim
    signal(SIGPIPE, SIG_IGN);
    char err[768];
    int status;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = opts->restore ? hexsim_user_snapshot_restore(u, opts->restore, false, err,
                                                          sizeof(err))
                           : hexsim_user_load(u, gargv[0], gargc, gargv, environ, err,
                                              sizeof(err));
    if (rc) {
        fprintf(stderr, "hexsim: %s\n", err);
        status = rc == HEXSIM_USER_NO_INTERP ? HEXSIM_EXIT_NO_INTERP : HEXSIM_EXIT_FILE;
    } else {
        if (opts->restore)
            fprintf(stderr, "hexsim: restored %s (%s) at packet %llu in %.3f s\n",
                    opts->restore, u->path, (unsigned long long)u->cpu.packets,
                    cli_seconds_since(&t0));
        struct hexsim_snap_runner r = { u, user_run, HEXSIM_USER_PAUSED, &u->cpu.packets,
                                        &u->pause_at, user_save, "process", NULL, stderr };
        status = opts->debug ? cli_debug_user(opts, u)
                             : hexsim_snap_run(&r, opts->snap_at, opts->nsnap,
                                               opts->snapshot_out);
    }
    fflush(stdout);
    hexsim_user_free(u);
    free(u);
    return status;
}
