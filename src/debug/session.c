// SPDX-License-Identifier: MIT
// Debugging session: see session.h. Commands come from -x scripts first, then from the line
// editor when the input is a terminal, else from standard input (echoed after the prompt so
// that a piped transcript reads like a session). Ctrl-C while the program runs stops it:
// SIGINT is blocked while a command executes and the run loop polls for it (sigpending), so
// no signal handler and no global flag are needed.
#include "session.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gdbstub.h"

static bool sigint_pending(void *ctx)
{
    (void)ctx;
    sigset_t p, s;
    if (sigpending(&p) || !sigismember(&p, SIGINT))
        return false;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    struct timespec zero = { 0, 0 };
    sigtimedwait(&s, NULL, &zero);   // consume it
    return true;
}

static bool exec_guarded(struct hexsim_dbg_cli *cli, const char *line)
{
    sigset_t s, old;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigprocmask(SIG_BLOCK, &s, &old);
    bool quit = hexsim_dbg_cli_exec(cli, line);
    sigint_pending(NULL);
    sigprocmask(SIG_SETMASK, &old, NULL);
    return quit;
}

static void run_to_end(struct hexsim_debugger *d)
{
    struct hexsim_dbg_stop stop;
    hexsim_dbg_delete(d, -1);
    d->nbp = d->nwp = 0;
    while (!d->ended) {
        hexsim_dbg_continue(d, &stop);
        if (stop.kind == HEXSIM_DBG_STOP_FAULT)
            fprintf(stderr, "%s", stop.msg);
    }
}

bool hexsim_dbg_session(const struct hexsim_dbg_target *t, const struct hexsim_dbg_options *o,
                        const struct hexsim_dbg_line_editor *ed, FILE *out, FILE *log,
                        int *status)
{
    struct hexsim_debugger *d = malloc(sizeof(*d));
    struct hexsim_dbg_cli cli;
    bool run_on = false;
    if (!d) {
        fprintf(log, "hexsim: out of memory\n");
        *status = 1;
        return false;
    }
    hexsim_dbg_init(d, t, out);
    if (ed && ed->line_start) {
        d->line_start = ed->line_start;
        d->line_start_ctx = ed->ctx;
    }
    bool interactive = isatty(STDIN_FILENO) && ed && ed->read_line;
    hexsim_dbg_cli_init(&cli, d, interactive);
    if (!o->gdb)
        hexsim_dbg_mark_start(d);   // for `run` after the program ran (user mode only)
    for (unsigned i = 0; i < o->nbreaks; i++) {
        char line[300];
        snprintf(line, sizeof(line), "break %s", o->breaks[i]);
        unsigned had = d->nbp;
        hexsim_dbg_cli_exec(&cli, line);
        if (d->nbp == had) {            // the command said why
            fprintf(log, "hexsim: --break %s: no such location; nothing was run\n",
                    o->breaks[i]);
            *status = HEXSIM_DBG_BAD_BREAK;
            hexsim_dbg_free(d);
            free(d);
            return false;
        }
    }
    if (o->gdb) {
        int r = hexsim_gdb_serve(d, o->gdb, log);
        run_on = r == HEXSIM_GDB_DETACHED;
        if (r < 0 || r == HEXSIM_GDB_KILLED) {
            *status = r < 0 ? 1 : HEXSIM_DBG_KILLED;
            hexsim_dbg_free(d);
            free(d);
            return false;
        }
    } else {
        bool quit = false;
        if (!o->stop_at_start) {
            d->poll = sigint_pending;
            quit = exec_guarded(&cli, "continue");
        }
        d->poll = sigint_pending;
        for (unsigned i = 0; i < o->nscripts && !quit; i++) {
            FILE *f = fopen(o->scripts[i], "r");
            if (!f) {
                fprintf(out, "Error: cannot read %s\n", o->scripts[i]);
                continue;
            }
            quit = hexsim_dbg_cli_source(&cli, f, true);
            fclose(f);
        }
        if (!quit && interactive) {
            if (ed->attach)
                ed->attach(ed->ctx, &cli);
            char *line;
            while (!quit && (line = ed->read_line(ed->ctx, HEXSIM_DBG_PROMPT)) != NULL) {
                quit = exec_guarded(&cli, line);
                free(line);
            }
        } else if (!quit) {
            char *line = NULL;
            size_t cap = 0;
            ssize_t n;
            while (!quit && (n = getline(&line, &cap, stdin)) >= 0) {
                if (n && line[n - 1] == '\n')
                    line[n - 1] = '\0';
                fprintf(out, HEXSIM_DBG_PROMPT "%s\n", line);
                quit = hexsim_dbg_cli_exec(&cli, line);
            }
            free(line);
        }
    }
    if (run_on && !d->ended)
        run_to_end(d);
    bool ended = d->ended;
    *status = d->exit_status;
    hexsim_dbg_free(d);
    free(d);
    return ended;
}
