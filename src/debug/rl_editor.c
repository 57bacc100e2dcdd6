// SPDX-License-Identifier: MIT
// GNU readline line editor: see rl_editor.h. Readline's completion hooks take no user
// pointer, so this file keeps the one pointer to the session's CLI that they need
// (`completion_cli`, set by attach). It lives in the hexsim program, outside hexsim_core,
// whose no-writable-globals rule it would otherwise break; readline itself is global anyway
// (one terminal per process).
#include "rl_editor.h"

#include <stdlib.h>
#include <string.h>
// readline.h uses FILE and size_t without including their headers
#include <stdio.h>
#include <readline/history.h>
#include <readline/readline.h>

static struct hexsim_dbg_cli *completion_cli;

static char *complete_word(const char *text, int state)
{
    // readline calls with state 0 first, then 1, 2, ... until NULL; where the search got
    // to is kept in the CLI (complete_pos)
    struct hexsim_dbg_cli *c = completion_cli;
    if (!c)
        return NULL;
    unsigned *pos = c->complete_pos;
    if (!state)
        pos[0] = pos[1] = pos[2] = 0;
    size_t n = strlen(text);
    size_t start = (size_t)rl_point >= n ? (size_t)rl_point - n : 0;
    bool first_word = strspn(rl_line_buffer, " \t") >= start;
    if (first_word) {
        const char *name;
        while ((name = hexsim_dbg_cli_command(pos[0]++)) != NULL)
            if (strncmp(name, text, n) == 0)
                return strdup(name);
        return NULL;
    }
    if (text[0] == '$') {
        unsigned count;
        const struct hexsim_dbg_reg_desc *r = c->d->t.ops->regs(c->d->t.ctx, &count);
        while (pos[1] < count) {
            const char *name = r[pos[1]++].name;
            if (strncmp(name, text + 1, n - 1) == 0) {
                char *m = malloc(strlen(name) + 2);
                if (m) {
                    m[0] = '$';
                    strcpy(m + 1, name);
                }
                return m;
            }
        }
        return NULL;
    }
    const char *t = text[0] == '*' || text[0] == '&' ? text + 1 : text;
    size_t tn = strlen(t);
    const struct hexsim_symtab *syms = hexsim_dbg_symtab(c->d);
    while (syms && pos[2] < syms->n) {
        const char *name = syms->sym[pos[2]++].name;
        if (strncmp(name, t, tn) == 0) {
            char *m = malloc(strlen(name) + 2);
            if (m)
                sprintf(m, "%.*s%s", (int)(t - text), text, name);
            return m;
        }
    }
    return NULL;
}

static char **complete(const char *text, int start, int end)
{
    (void)start, (void)end;
    rl_attempted_completion_over = 1;   // no file-name completion
    return rl_completion_matches(text, complete_word);
}

static char *rl_read(void *ctx, const char *prompt)
{
    (void)ctx;
    char *line = readline(prompt);
    if (line && *line)
        add_history(line);
    return line;
}

static void rl_attach(void *ctx, struct hexsim_dbg_cli *cli)
{
    (void)ctx;
    completion_cli = cli;
    rl_readline_name = "hexsim";
    rl_attempted_completion_function = complete;
    rl_basic_word_break_characters = " \t\n,()+-/=";
}

void hexsim_rl_editor(struct hexsim_dbg_line_editor *ed)
{
    ed->read_line = rl_read;
    ed->ctx = NULL;
    ed->attach = rl_attach;
    ed->line_start = NULL;
}
