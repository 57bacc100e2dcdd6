// SPDX-License-Identifier: MIT
// The debugger's start-up in either mode (modes.h): the target of the process or machine
// (src/user/dbg_target.c, src/hvm/dbg_target.c), the line editor (readline; in system mode
// the terminal is cooked while a command line is read and raw while the guest runs), and
// the exit status of a session that did not see the program end.
#include <stdlib.h>

#include "cli/exit_status.h"
#include "cli/modes.h"
#include "debug/rl_editor.h"
#include "hvm/dbg_target.h"
#include "user/dbg_target.h"

// The end of a debugger session that did not see the program end: the status main returns,
// and the message for a --gdb client's kill (after the program's last output).
static int session_end_status(const struct cli_options *opts, int status)
{
    if (opts->dbg.gdb && status == HEXSIM_DBG_KILLED) {
        fflush(stdout);
        fprintf(stderr, "hexsim: the gdb client killed the program (exit status %d)\n", status);
    }
    return (opts->dbg.gdb && status) || status == HEXSIM_DBG_BAD_BREAK ? status : 0;
}

int cli_debug_user(const struct cli_options *opts, struct hexsim_user *u)
{
    struct hexsim_user_dbg *ud = calloc(1, sizeof(*ud));
    struct hexsim_dbg_target t;
    if (!ud || hexsim_user_dbg_init(ud, u, &t)) {
        free(ud);
        fputs("hexsim: out of memory\n", stderr);
        return HEXSIM_EXIT_FILE;
    }
    struct hexsim_dbg_line_editor ed;
    hexsim_rl_editor(&ed);
    setvbuf(stdout, NULL, _IOLBF, 0);   // debugger lines and guest output in order
    int status = 0;
    bool ended = hexsim_dbg_session(&t, &opts->dbg, &ed, stdout, stderr, &status);
    fflush(stdout);
    if (!ended)
        status = session_end_status(opts, status);
    fflush(stderr);
    hexsim_user_dbg_free(ud);
    free(ud);
    return status;
}

// The line editor of system mode: readline with the terminal cooked while a command line is
// read, raw again (the guest's console) while the guest runs.
struct system_editor {
    struct hexsim_dbg_line_editor inner;
    struct hexsim_terminal *term;       // NULL with the SDL window
};

static char *system_read_line(void *ctx, const char *prompt)
{
    struct system_editor *e = ctx;
    if (e->term && e->term->quit_requested)
        return NULL;                    // Ctrl-A x: the session ends with the machine
    if (e->term)
        hexsim_terminal_cooked(e->term);
    char *line = e->inner.read_line(e->inner.ctx, prompt);
    if (e->term)
        hexsim_terminal_raw(e->term);
    return line;
}

static void system_line_start(void *ctx)
{
    struct system_editor *e = ctx;
    if (e->term)
        hexsim_terminal_end_line(e->term);
}

static void system_attach(void *ctx, struct hexsim_dbg_cli *cli)
{
    struct system_editor *e = ctx;
    if (e->inner.attach)
        e->inner.attach(e->inner.ctx, cli);
}

static void debug_key(void *ctx)
{
    hexsim_sys_dbg_interrupt(ctx);
}

// System mode: the symbols come from KERNEL.
int cli_debug_system(const struct cli_options *opts, struct hexsim_machine *m,
                        struct hexsim_terminal *term)
{
    struct hexsim_sys_dbg *sd = calloc(1, sizeof(*sd));
    if (!sd) {
        fputs("hexsim: out of memory\n", stderr);
        return HEXSIM_EXIT_FILE;
    }
    struct hexsim_dbg_target t;
    hexsim_sys_dbg_init(sd, m, opts->kernel, &t);
    struct system_editor se = { .term = term };
    hexsim_rl_editor(&se.inner);
    struct hexsim_dbg_line_editor ed = { system_read_line, &se, system_attach,
                                         system_line_start };
    if (term)
        term->debug = debug_key;    // Ctrl-A d (its context is the machine, as Ctrl-A x's)
    int status = 0;
    bool ended = hexsim_dbg_session(&t, &opts->dbg, &ed, stdout, stderr, &status);
    if (!m->halted) {
        // quit or killed in the debugger: what the guest wrote reaches the host, as at a halt
        for (unsigned i = 0; i < sizeof(m->uart) / sizeof(m->uart[0]); i++)
            hexsim_msm_uart_flush(&m->uart[i]);
        if (m->console.flush)
            m->console.flush(m->console.ctx);
    }
    system_line_start(&se);   // hexsim's last words start a line, not after a prompt
    if (!ended)
        status = session_end_status(opts, status);
    fflush(stderr);
    hexsim_sys_dbg_free(sd);
    free(sd);
    return status;
}
