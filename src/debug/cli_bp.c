// SPDX-License-Identifier: MIT
// Debugger commands about breakpoint conditions and starting over (cli_int.h), in gdb's
// wording (GDB manual, "Break Conditions" and "Starting your Program"): `break LOC if
// EXPR` (the split of the arguments), `condition N [EXPR]`, `ignore N COUNT`, the lines
// `info breakpoints` adds for them, and `run`, which continues a program that has not run
// yet and starts one that has run (or ended) again from its entry through the snapshot
// the session took at the start (debugger.h hexsim_dbg_restart); and the locations of a
// function inlined in several places (DWARF's inlined-subroutine entries), which `break
// NAME` puts one breakpoint on.
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "cli_int.h"

#define skip_ws hexsim_cli_skip_ws

const char *hexsim_cli_split_if(const char *args, char *loc, size_t len)
{
    args = skip_ws(args);
    for (const char *p = args; *p; p++) {
        if ((p == args || isspace((unsigned char)p[-1])) && p[0] == 'i' && p[1] == 'f' &&
            (!p[2] || isspace((unsigned char)p[2]))) {
            size_t n = (size_t)(p - args);
            while (n && isspace((unsigned char)args[n - 1]))
                n--;
            snprintf(loc, len, "%.*s", (int)n, args);
            return skip_ws(p + 2);
        }
    }
    snprintf(loc, len, "%s", args);
    return NULL;
}

// A breakpoint number at the start of *a (advanced past it); NULL with gdb's message.
static struct hexsim_dbg_bp *bp_arg(struct hexsim_dbg_cli *c, const char **a, const char *cmd)
{
    const char *s = skip_ws(*a);
    char *end;
    long id = strtol(s, &end, 10);
    if (end == s || (*end && !isspace((unsigned char)*end))) {
        fprintf(c->d->out, "Error: usage: %s N %s\n", cmd,
                strcmp(cmd, "ignore") == 0 ? "COUNT" : "[EXPR]");
        return NULL;
    }
    struct hexsim_dbg_bp *b = hexsim_dbg_break_find(c->d, (int)id);
    if (!b || b->remote) {
        bool watch = false;
        for (unsigned i = 0; i < c->d->nwp; i++)
            watch |= c->d->wp[i].id == id;
        if (watch)
            fprintf(c->d->out, "Error: %s applies to breakpoints; %ld is a watchpoint\n", cmd,
                    id);
        else
            fprintf(c->d->out, "No breakpoint number %ld.\n", id);
        return NULL;
    }
    *a = skip_ws(end);
    return b;
}

bool hexsim_cli_set_condition(struct hexsim_dbg_cli *c, int id, const char *expr)
{
    struct hexsim_dbg_bp *b = hexsim_dbg_break_find(c->d, id);
    if (!b)
        return false;
    if (strlen(expr) >= sizeof(b->cond)) {
        fprintf(c->d->out, "Error: a condition has at most %zu characters\n",
                sizeof(b->cond) - 1);
        return false;
    }
    snprintf(b->cond, sizeof(b->cond), "%s", expr);
    hexsim_dbg_break_sync(c->d, b);
    return true;
}

bool hexsim_cli_cmd_condition(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    struct hexsim_dbg_bp *b = bp_arg(c, &a, "condition");
    if (!b)
        return false;
    if (!*a) {
        b->cond[0] = '\0';
        hexsim_dbg_break_sync(c->d, b);
        fprintf(c->d->out, "Breakpoint %d now unconditional.\n", b->id);
        return false;
    }
    hexsim_cli_set_condition(c, b->id, a);
    return false;
}

bool hexsim_cli_cmd_ignore(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)m;
    if (!*skip_ws(a)) {
        fprintf(c->d->out, "Argument required (a breakpoint number).\n");
        return false;
    }
    struct hexsim_dbg_bp *b = bp_arg(c, &a, "ignore");
    if (!b)
        return false;
    if (!*a) {
        fprintf(c->d->out, "Second argument (specified ignore-count) is missing.\n");
        return false;
    }
    uint64_t n;
    if (!hexsim_cli_eval(c, a, &n))
        return false;
    b->ignore = (int64_t)n <= 0 ? 0 : n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
    hexsim_dbg_break_sync(c->d, b);
    if (b->ignore == 0)
        fprintf(c->d->out, "Will stop next time breakpoint %d is reached.\n", b->id);
    else if (b->ignore == 1)
        fprintf(c->d->out, "Will ignore next crossing of breakpoint %d.\n", b->id);
    else
        fprintf(c->d->out, "Will ignore next %u crossings of breakpoint %d.\n", b->ignore,
                b->id);
    return false;
}

void hexsim_cli_bp_details(struct hexsim_dbg_cli *c, const struct hexsim_dbg_bp *b)
{
    if (b->cond[0])
        fprintf(c->d->out, "\tstop only if %s\n", b->cond);
    if (b->ignore)
        fprintf(c->d->out, "\tignore next %u hits\n", b->ignore);
}

bool hexsim_cli_cmd_run(struct hexsim_dbg_cli *c, const char *a, const char *m)
{
    (void)a, (void)m;
    struct hexsim_debugger *d = c->d;
    if (d->started || d->ended) {
        char msg[300];
        if (!d->start_snap) {   // system mode: a machine's RAM is not kept for this
            fprintf(d->out, "Error: the %s target cannot start again from the beginning "
                    "(continue goes on; savevm/loadvm keep and restore a state)\n",
                    d->t.ops->name);
            return false;
        }
        if (!d->ended)   // gdb asks; a script or a pipe gets its answer, yes
            fprintf(d->out, "The program being debugged has been started already.\n"
                    "Start it from the beginning? (y or n) [answered Y; %s]\n",
                    c->interactive ? "run does not ask in hexsim" : "input not from terminal");
        if (hexsim_dbg_restart(d, msg, sizeof(msg))) {
            fprintf(d->out, "Error: %s\n", msg);
            return false;
        }
        const struct hexsim_symtab *st = hexsim_dbg_symtab(d);
        fprintf(d->out, "Starting program: %s\n", st && st->path ? st->path : d->t.ops->name);
    } else {
        fprintf(d->out, "Continuing.\n");   // loaded and at its entry: run starts it
    }
    struct hexsim_dbg_stop stop;
    hexsim_dbg_continue(d, &stop);
    hexsim_cli_report(c, &stop);
    return false;
}

unsigned hexsim_cli_inlined(struct hexsim_dbg_cli *c, const char *name, uint32_t *addrs,
                            unsigned max)
{
    struct hexsim_dwarf *dw = hexsim_dbg_dwarf(c->d);
    if (!dw || !(isalpha((unsigned char)*name) || *name == '_'))
        return 0;
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_')
            return 0;
    return hexsim_dwarf_inlined(dw, name, addrs, max);
}

bool hexsim_cli_has_code(struct hexsim_dbg_cli *c, const char *name)
{
    struct hexsim_dwarf_func f;
    return hexsim_dwarf_func_named(hexsim_dbg_dwarf(c->d), name, &f) == 0 ||
           hexsim_symtab_find(hexsim_dbg_symtab(c->d), name) != NULL;
}
