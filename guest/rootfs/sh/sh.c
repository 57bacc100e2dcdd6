// SPDX-License-Identifier: MIT
// /bin/sh for the hexsim root file system: a small POSIX-flavoured shell.
//  - input: an interactive line editor on a terminal (cursor keys, backspace, Ctrl-A/E/U/K,
//    Ctrl-C cancels the line, Ctrl-D on an empty line exits, history with up/down), or lines
//    read byte by byte from a pipe or file (so children see the rest of stdin), `sh FILE`,
//    or `sh -c CMD`;
//  - grammar: lists with ; & && ||, pipelines with | and !, simple commands with
//    assignments, redirections < > >> 2> 2>> N>&M, comments;
//  - words: '...', "...", backslash, $VAR ${VAR} $? $$ $# $0-$9, $((arithmetic)); unquoted
//    expansions are split on blanks;
//  - builtins: cd pwd export unset exit echo true false : exec history set wait;
//  - external commands by PATH. A test hook: if HEXSH_EXEC_WRAPPER is set, programs are run
//    as "$HEXSH_EXEC_WRAPPER /full/path args" (qemu-hexagon cannot exec guest binaries itself).
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define MAX_WORDS 256
#define MAX_REDIRS 16
#define MAX_CMDS 32
#define HIST_MAX 64
#define LINE_MAX_LEN 4096

// ---------------------------------------------------------------- shell variables

struct var {
    char *name, *value;
    int exported;
};
static struct var *vars;
static int nvars, cap_vars;
static int last_status;
static int interactive;
static char **pos_args;   // $0 .. $9 (script name and its arguments)
static int npos;
static volatile sig_atomic_t got_sigint;

static struct var *find_var(const char *name, size_t n)
{
    for (int i = 0; i < nvars; i++)
        if (strlen(vars[i].name) == n && !strncmp(vars[i].name, name, n))
            return &vars[i];
    return 0;
}

static void set_var(const char *name, const char *value, int exported)
{
    struct var *v = find_var(name, strlen(name));
    if (!v) {
        if (nvars == cap_vars) {
            cap_vars = cap_vars ? cap_vars * 2 : 32;
            vars = realloc(vars, sizeof *vars * (size_t)cap_vars);
        }
        v = &vars[nvars++];
        v->name = strdup(name);
        v->value = 0;
        v->exported = 0;
    }
    if (value) {
        free(v->value);
        v->value = strdup(value);
    }
    if (exported)
        v->exported = 1;
}

static void unset_var(const char *name)
{
    struct var *v = find_var(name, strlen(name));
    if (!v)
        return;
    free(v->name);
    free(v->value);
    *v = vars[--nvars];
}

static const char *get_var(const char *name, size_t n)
{
    struct var *v = find_var(name, n);
    return v && v->value ? v->value : 0;
}

// The environment for a child: exported variables plus the command's own assignments.
static char **build_env(char **assigns, int nassign)
{
    char **env = malloc(sizeof(char *) * (size_t)(nvars + nassign + 1));
    int k = 0;
    for (int i = 0; i < nvars; i++) {
        if (!vars[i].exported || !vars[i].value)
            continue;
        int overridden = 0;
        for (int j = 0; j < nassign; j++) {
            size_t n = strcspn(assigns[j], "=");
            if (n == strlen(vars[i].name) && !strncmp(assigns[j], vars[i].name, n))
                overridden = 1;
        }
        if (overridden)
            continue;
        size_t n = strlen(vars[i].name) + strlen(vars[i].value) + 2;
        env[k] = malloc(n);
        snprintf(env[k], n, "%s=%s", vars[i].name, vars[i].value);
        k++;
    }
    for (int j = 0; j < nassign; j++)
        env[k++] = assigns[j];
    env[k] = 0;
    return env;
}

// ---------------------------------------------------------------- dynamic strings

struct str {
    char *s;
    unsigned char *split;   // per character: 1 if it came from an unquoted expansion
    size_t n, cap;
};

static void str_addc(struct str *b, char c, int splittable)
{
    if (b->n + 2 > b->cap) {
        b->cap = b->cap ? b->cap * 2 : 64;
        b->s = realloc(b->s, b->cap);
        b->split = realloc(b->split, b->cap);
    }
    b->split[b->n] = (unsigned char)splittable;
    b->s[b->n++] = c;
    b->s[b->n] = 0;
}

static void str_adds(struct str *b, const char *s, int splittable)
{
    while (*s)
        str_addc(b, *s++, splittable);
}

static void str_free(struct str *b)
{
    free(b->s);
    free(b->split);
    memset(b, 0, sizeof *b);
}

// ---------------------------------------------------------------- arithmetic

static int is_name_start(char c) { return c == '_' || ((c | 32) >= 'a' && (c | 32) <= 'z'); }
static int is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

struct arith {
    const char *p;
    int err;
};

static long long arith_expr(struct arith *a);

static void arith_ws(struct arith *a)
{
    while (*a->p == ' ' || *a->p == '\t' || *a->p == '\n')
        a->p++;
}

static int arith_op(struct arith *a, const char *op)
{
    arith_ws(a);
    size_t n = strlen(op);
    if (strncmp(a->p, op, n))
        return 0;
    // Do not take "<" from "<<", "&" from "&&", "|" from "||", "=" alone, etc.
    if (n == 1 && (a->p[1] == op[0] && strchr("<>&|", op[0])))
        return 0;
    if (n == 1 && a->p[1] == '=' && strchr("<>!=", op[0]))
        return 0;
    a->p += n;
    return 1;
}

static long long arith_primary(struct arith *a)
{
    arith_ws(a);
    if (arith_op(a, "(")) {
        long long v = arith_expr(a);
        if (!arith_op(a, ")"))
            a->err = 1;
        return v;
    }
    if (arith_op(a, "-"))
        return -arith_primary(a);
    if (arith_op(a, "+"))
        return arith_primary(a);
    if (arith_op(a, "!"))
        return !arith_primary(a);
    if (arith_op(a, "~"))
        return ~arith_primary(a);
    if (*a->p >= '0' && *a->p <= '9') {
        char *end;
        long long v = strtoll(a->p, &end, 0);
        a->p = end;
        return v;
    }
    if (is_name_start(*a->p)) {
        const char *s = a->p;
        while (is_name_char(*a->p))
            a->p++;
        const char *v = get_var(s, (size_t)(a->p - s));
        return v ? strtoll(v, 0, 0) : 0;
    }
    a->err = 1;
    return 0;
}

static long long arith_binary(struct arith *a, int level)
{
    static const char *const ops[][6] = {
        { "||" }, { "&&" }, { "|" }, { "^" }, { "&" }, { "==", "!=" },
        { "<=", ">=", "<", ">" }, { "<<", ">>" }, { "+", "-" }, { "*", "/", "%" },
    };
    if (level == 10)
        return arith_primary(a);
    long long v = arith_binary(a, level + 1);
    for (;;) {
        const char *op = 0;
        for (int i = 0; i < 6 && ops[level][i]; i++)
            if (arith_op(a, ops[level][i])) {
                op = ops[level][i];
                break;
            }
        if (!op)
            return v;
        long long r = arith_binary(a, level + 1);
        if (!strcmp(op, "||")) v = v || r;
        else if (!strcmp(op, "&&")) v = v && r;
        else if (!strcmp(op, "|")) v |= r;
        else if (!strcmp(op, "^")) v ^= r;
        else if (!strcmp(op, "&")) v &= r;
        else if (!strcmp(op, "==")) v = v == r;
        else if (!strcmp(op, "!=")) v = v != r;
        else if (!strcmp(op, "<=")) v = v <= r;
        else if (!strcmp(op, ">=")) v = v >= r;
        else if (!strcmp(op, "<")) v = v < r;
        else if (!strcmp(op, ">")) v = v > r;
        else if (!strcmp(op, "<<")) v = (long long)((unsigned long long)v << (r & 63));
        else if (!strcmp(op, ">>")) v >>= (r & 63);
        else if (!strcmp(op, "+")) v += r;
        else if (!strcmp(op, "-")) v -= r;
        else if (!strcmp(op, "*")) v *= r;
        else if (r == 0) {
            a->err = 2;
            return 0;
        } else if (!strcmp(op, "/")) v /= r;
        else v %= r;
    }
}

static long long arith_expr(struct arith *a)
{
    long long c = arith_binary(a, 0);
    if (arith_op(a, "?")) {
        long long x = arith_expr(a);
        if (!arith_op(a, ":"))
            a->err = 1;
        long long y = arith_expr(a);
        return c ? x : y;
    }
    return c;
}

// ---------------------------------------------------------------- expansion

static void expand_into(struct str *out, const char *w, int in_dq);

// Length of a $(( ... )) or ${...} construct starting at p ("$((" or "${"), or 0.
static size_t match_close(const char *p)
{
    if (p[1] == '{') {
        const char *e = strchr(p, '}');
        return e ? (size_t)(e - p + 1) : 0;
    }
    int depth = 0;
    for (const char *q = p + 1; *q; q++) {
        if (*q == '(')
            depth++;
        else if (*q == ')' && --depth == 0)
            return (size_t)(q - p + 1);
    }
    return 0;
}

static void run_line(const char *line);

// $(cmd) and `cmd`: runs cmd in a child shell and appends its output minus trailing newlines.
static void command_subst(struct str *out, const char *cmd, int split)
{
    int fds[2];
    fflush(0);
    if (pipe2(fds, O_CLOEXEC) < 0)
        return;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        close(fds[1]);
        signal(SIGINT, SIG_DFL);
        interactive = 0;
        run_line(cmd);
        fflush(0);
        _exit(last_status);
    }
    close(fds[1]);
    struct str b = { 0 };
    char buf[512];
    for (;;) {
        ssize_t r = read(fds[0], buf, sizeof buf);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        for (ssize_t i = 0; i < r; i++)
            str_addc(&b, buf[i], split);
    }
    close(fds[0]);
    int st;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (pid > 0)
        last_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    while (b.n && b.s[b.n - 1] == '\n')
        b.n--;
    for (size_t i = 0; i < b.n; i++)
        str_addc(out, b.s[i], split);
    str_free(&b);
}

// Expands one $-construct at *pp (pointing at '$'); advances *pp.
static void expand_dollar(struct str *out, const char **pp, int quoted)
{
    const char *p = *pp;
    char num[24];
    int split = !quoted;
    if (p[1] == '(' && p[2] == '(') {
        size_t n = match_close(p);
        if (!n) {
            str_addc(out, '$', 0);
            *pp = p + 1;
            return;
        }
        // Expand variables inside first, then evaluate.
        char *inner = strndup(p + 3, n - 5);
        struct str e = { 0 };
        expand_into(&e, inner, 1);
        struct arith a = { e.s ? e.s : "", 0 };
        long long v = arith_expr(&a);
        arith_ws(&a);
        if (a.err || *a.p) {
            fprintf(stderr, "sh: arithmetic %s: %s\n", a.err == 2 ? "division by zero" : "syntax error",
                    inner);
            v = 0;
            last_status = 1;
        }
        snprintf(num, sizeof num, "%lld", v);
        str_adds(out, num, split);
        str_free(&e);
        free(inner);
        *pp = p + n;
        return;
    }
    if (p[1] == '(') {
        size_t n = match_close(p);
        if (!n) {
            str_addc(out, '$', 0);
            *pp = p + 1;
            return;
        }
        char *inner = strndup(p + 2, n - 3);
        command_subst(out, inner, split);
        free(inner);
        *pp = p + n;
        return;
    }
    const char *name;
    size_t len;
    const char *after;
    if (p[1] == '{') {
        size_t n = match_close(p);
        if (!n) {
            str_addc(out, '$', 0);
            *pp = p + 1;
            return;
        }
        name = p + 2;
        len = n - 3;
        after = p + n;
    } else if (p[1] == '?' || p[1] == '$' || p[1] == '#' || (p[1] >= '0' && p[1] <= '9')) {
        name = p + 1;
        len = 1;
        after = p + 2;
    } else if (p[1] == '_' || ((p[1] | 32) >= 'a' && (p[1] | 32) <= 'z')) {
        name = p + 1;
        len = 0;
        while (name[len] == '_' || ((name[len] | 32) >= 'a' && (name[len] | 32) <= 'z') ||
               (name[len] >= '0' && name[len] <= '9'))
            len++;
        after = name + len;
    } else {
        str_addc(out, '$', 0);
        *pp = p + 1;
        return;
    }
    const char *val = 0;
    if (len == 1 && *name == '?') {
        snprintf(num, sizeof num, "%d", last_status);
        val = num;
    } else if (len == 1 && *name == '$') {
        snprintf(num, sizeof num, "%d", getpid());
        val = num;
    } else if (len == 1 && *name == '#') {
        snprintf(num, sizeof num, "%d", npos > 0 ? npos - 1 : 0);
        val = num;
    } else if (len == 1 && *name >= '0' && *name <= '9') {
        int i = *name - '0';
        val = i < npos ? pos_args[i] : "";
    } else {
        val = get_var(name, len);
    }
    if (val)
        str_adds(out, val, split);
    *pp = after;
}

// Appends the expansion of raw word w. in_dq: treat as inside double quotes (no quote removal
// of single quotes; used for arithmetic bodies).
static void expand_into(struct str *out, const char *w, int in_dq)
{
    int dq = in_dq;
    for (const char *p = w; *p;) {
        if (!dq && *p == '\'') {
            const char *e = strchr(p + 1, '\'');
            if (!e)
                e = p + strlen(p);
            for (const char *q = p + 1; q < e; q++)
                str_addc(out, *q, 0);
            p = *e ? e + 1 : e;
        } else if (*p == '"' && !in_dq) {
            dq = !dq;
            p++;
        } else if (*p == '\\' && p[1]) {
            if (!dq || strchr("$`\"\\\n", p[1])) {
                if (p[1] != '\n')
                    str_addc(out, p[1], 0);
                p += 2;
            } else {
                str_addc(out, *p++, 0);
            }
        } else if (*p == '$') {
            expand_dollar(out, &p, dq);
        } else if (*p == '`' && strchr(p + 1, '`')) {
            const char *e = strchr(p + 1, '`');
            char *inner = strndup(p + 1, (size_t)(e - p - 1));
            command_subst(out, inner, !dq);
            free(inner);
            p = e + 1;
        } else {
            str_addc(out, *p++, 0);
        }
    }
}

// Expands a raw word into zero or more fields appended to argv: unquoted expansion results
// are split on blanks; a word with quotes always yields at least one (possibly empty) field.
static void expand_word(const char *w, char **argv, int *argc, int max)
{
    struct str e = { 0 }, f = { 0 };
    expand_into(&e, w, 0);
    int fields = 0, have = 0;
    for (size_t i = 0; i < e.n; i++) {
        char c = e.s[i];
        if (e.split[i] && (c == ' ' || c == '\t' || c == '\n')) {
            if (have && *argc < max) {
                argv[(*argc)++] = strdup(f.s);
                fields++;
                f.n = 0;
                f.s[0] = 0;
            }
            have = 0;
            continue;
        }
        str_addc(&f, c, 0);
        have = 1;
    }
    if (*argc < max && (have || (fields == 0 && strpbrk(w, "'\""))))
        argv[(*argc)++] = strdup(have ? f.s : "");
    str_free(&e);
    str_free(&f);
}

static char *expand_single(const char *w)
{
    char *argv[8];
    int argc = 0;
    expand_word(w, argv, &argc, 8);
    if (argc == 0)
        return strdup("");
    for (int i = 1; i < argc; i++)
        free(argv[i]);
    return argv[0];
}

// ---------------------------------------------------------------- lexer and parser

enum tok { T_WORD, T_PIPE, T_AND, T_OR, T_SEMI, T_AMP, T_LT, T_GT, T_GTGT, T_DUP, T_BANG, T_END };

struct token {
    enum tok t;
    int fd;       // for redirections: the descriptor (default 0 or 1)
    char *word;   // T_WORD text (raw) or for T_DUP the target descriptor text
};

struct redir {
    enum tok t;
    int fd;
    char *word;
};

struct cmd {
    char *words[MAX_WORDS];
    int nwords;
    struct redir redirs[MAX_REDIRS];
    int nredirs;
};

struct pipeline {
    struct cmd cmds[MAX_CMDS];
    int ncmds;
    int negate;
};

// Returns 1 if the line is incomplete (open quote or trailing operator/backslash).
static int lex_raw(const char *line, struct token *toks, int max, int *ntok)
{
    int n = 0;
    const char *p = line;
    *ntok = 0;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')
            p++;
        if (*p == '#')
            while (*p && *p != '\n')
                p++;
        if (!*p)
            break;
        if (n >= max - 1)
            break;
        struct token *t = &toks[n];
        t->fd = -1;
        t->word = 0;
        if (*p == '|' && p[1] == '|') { t->t = T_OR; p += 2; n++; continue; }
        if (*p == '|') { t->t = T_PIPE; p++; n++; continue; }
        if (*p == '&' && p[1] == '&') { t->t = T_AND; p += 2; n++; continue; }
        if (*p == '&') { t->t = T_AMP; p++; n++; continue; }
        if (*p == ';') { t->t = T_SEMI; p++; n++; continue; }
        if (*p == '!' && (p[1] == ' ' || p[1] == '\t')) { t->t = T_BANG; p++; n++; continue; }
        int fd = -1;
        if (*p >= '0' && *p <= '9' && (p[1] == '<' || p[1] == '>')) {
            fd = *p - '0';
            p++;
        }
        if (*p == '<' || *p == '>') {
            if (*p == '<') {
                t->t = T_LT;
                t->fd = fd < 0 ? 0 : fd;
                p++;
            } else if (p[1] == '>') {
                t->t = T_GTGT;
                t->fd = fd < 0 ? 1 : fd;
                p += 2;
            } else if (p[1] == '&') {
                t->t = T_DUP;
                t->fd = fd < 0 ? 1 : fd;
                p += 2;
            } else {
                t->t = T_GT;
                t->fd = fd < 0 ? 1 : fd;
                p++;
            }
            *ntok = ++n;
            continue;
        }
        // A word: up to an unquoted blank or operator.
        const char *s = p;
        while (*p && !strchr(" \t\r\n|&;<>", *p)) {
            if (*p == '\'') {
                const char *e = strchr(p + 1, '\'');
                if (!e)
                    return 1;
                p = e + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1])
                        p++;
                    p++;
                }
                if (!*p)
                    return 1;
                p++;
            } else if (*p == '\\') {
                if (!p[1] || (p[1] == '\n' && !p[2]))
                    return 1;
                p += 2;
            } else if (*p == '`') {
                const char *e = strchr(p + 1, '`');
                if (!e)
                    return 1;
                p = e + 1;
            } else if (*p == '$' && (p[1] == '(' || p[1] == '{')) {
                size_t m = match_close(p);
                if (!m)
                    return 1;
                p += m;
            } else {
                p++;
            }
        }
        t->t = T_WORD;
        t->word = strndup(s, (size_t)(p - s));
        *ntok = ++n;
    }
    toks[n].t = T_END;
    toks[n].word = 0;
    *ntok = n;
    if (n > 0 && (toks[n - 1].t == T_PIPE || toks[n - 1].t == T_AND || toks[n - 1].t == T_OR))
        return 1;
    return 0;
}

static void free_tokens(struct token *toks, int n);

// Tokenizes line; returns 1 (and no tokens) if it is incomplete: an open quote, a trailing
// backslash or a trailing | && ||.
static int lex(const char *line, struct token *toks, int max, int *ntok)
{
    int r = lex_raw(line, toks, max, ntok);
    if (r) {
        free_tokens(toks, *ntok);
        *ntok = 0;
    }
    return r;
}

// ---------------------------------------------------------------- builtins

static void builtin_echo(char **argv, int argc)
{
    int i = 1, nl = 1, esc = 0;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *f = argv[i] + 1;
        if (strspn(f, "neE") != strlen(f))
            break;
        for (; *f; f++) {
            if (*f == 'n') nl = 0;
            else if (*f == 'e') esc = 1;
            else esc = 0;
        }
    }
    for (int first = 1; i < argc; i++, first = 0) {
        if (!first)
            putchar(' ');
        for (const char *s = argv[i]; *s; s++) {
            if (esc && *s == '\\' && s[1]) {
                s++;
                switch (*s) {
                case 'n': putchar('\n'); break;
                case 't': putchar('\t'); break;
                case 'r': putchar('\r'); break;
                case '\\': putchar('\\'); break;
                case 'a': putchar('\a'); break;
                case 'c': fflush(stdout); return;
                case 'e': putchar(27); break;
                case '0': {
                    int v = 0;
                    for (int k = 0; k < 3 && s[1] >= '0' && s[1] <= '7'; k++)
                        v = v * 8 + (*++s - '0');
                    putchar(v);
                    break;
                }
                default: putchar('\\'); putchar(*s); break;
                }
            } else {
                putchar(*s);
            }
        }
    }
    if (nl)
        putchar('\n');
    fflush(stdout);
}

static char *history[HIST_MAX];
static int nhist;

static void add_history(const char *line)
{
    if (!*line || (nhist && !strcmp(history[nhist - 1], line)))
        return;
    if (nhist == HIST_MAX) {
        free(history[0]);
        memmove(history, history + 1, sizeof(char *) * (HIST_MAX - 1));
        nhist--;
    }
    history[nhist++] = strdup(line);
}

static void restore_terminal(void);

// Runs a builtin if argv[0] is one; returns 1 if it was, with the status in *status.
static int run_builtin(char **argv, int argc, int *status)
{
    const char *c = argv[0];
    *status = 0;
    if (!strcmp(c, "cd")) {
        const char *dir = argc > 1 ? argv[1] : get_var("HOME", 4);
        if (!dir)
            dir = "/";
        if (argc > 1 && !strcmp(dir, "-"))
            dir = get_var("OLDPWD", 6) ? get_var("OLDPWD", 6) : ".";
        char old[PATH_MAX];
        if (!getcwd(old, sizeof old))
            strcpy(old, "");
        if (chdir(dir) < 0) {
            fprintf(stderr, "cd: %s: %s\n", dir, strerror(errno));
            *status = 1;
        } else {
            char cwd[PATH_MAX];
            set_var("OLDPWD", old, 0);
            if (getcwd(cwd, sizeof cwd))
                set_var("PWD", cwd, 0);
        }
    } else if (!strcmp(c, "pwd")) {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd))
            printf("%s\n", cwd);
        else
            *status = 1;
        fflush(stdout);
    } else if (!strcmp(c, "export")) {
        if (argc == 1)
            for (int i = 0; i < nvars; i++)
                if (vars[i].exported)
                    printf("export %s='%s'\n", vars[i].name, vars[i].value ? vars[i].value : "");
        for (int i = 1; i < argc; i++) {
            char *eq = strchr(argv[i], '=');
            if (eq) {
                *eq = 0;
                set_var(argv[i], eq + 1, 1);
                *eq = '=';
            } else {
                set_var(argv[i], 0, 1);
            }
        }
        fflush(stdout);
    } else if (!strcmp(c, "unset")) {
        for (int i = 1; i < argc; i++)
            unset_var(argv[i]);
    } else if (!strcmp(c, "set")) {
        for (int i = 0; i < nvars; i++)
            if (vars[i].value)
                printf("%s='%s'\n", vars[i].name, vars[i].value);
        fflush(stdout);
    } else if (!strcmp(c, "exit")) {
        int code = argc > 1 ? atoi(argv[1]) : last_status;
        restore_terminal();
        fflush(0);
        exit(code & 255);
    } else if (!strcmp(c, "echo")) {
        builtin_echo(argv, argc);
    } else if (!strcmp(c, "true") || !strcmp(c, ":")) {
        *status = 0;
    } else if (!strcmp(c, "false")) {
        *status = 1;
    } else if (!strcmp(c, "history")) {
        for (int i = 0; i < nhist; i++)
            printf("%5d  %s\n", i + 1, history[i]);
        fflush(stdout);
    } else if (!strcmp(c, "wait")) {
        int st;
        while (wait(&st) > 0 || errno == EINTR)
            ;
    } else {
        return 0;
    }
    return 1;
}

static int is_builtin(const char *c)
{
    static const char *const names[] = { "cd", "pwd", "export", "unset", "set", "exit", "echo",
                                         "true", "false", ":", "history", "wait", "exec", 0 };
    for (int i = 0; names[i]; i++)
        if (!strcmp(c, names[i]))
            return 1;
    return 0;
}

// ---------------------------------------------------------------- execution

// Finds cmd on PATH; returns a malloc'd path or NULL.
static char *path_lookup(const char *cmd)
{
    struct stat st;
    if (strchr(cmd, '/'))
        return strdup(cmd);
    const char *path = get_var("PATH", 4);
    if (!path)
        path = "/bin:/sbin:/usr/bin:/usr/sbin";
    char buf[PATH_MAX];
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, sizeof buf, "%.*s/%s", (int)n, n ? path : ".", cmd);
        if (stat(buf, &st) == 0 && S_ISREG(st.st_mode) && access(buf, X_OK) == 0)
            return strdup(buf);
        path += n;
        if (*path == ':')
            path++;
    }
    return 0;
}

// Applies redirections in the current process; returns 0 or -1 (message printed). If save is
// given, the original descriptors are saved there (for builtins run in the shell itself).
static int apply_redirs(struct cmd *c, int *save, int *nsave)
{
    for (int i = 0; i < c->nredirs; i++) {
        struct redir *r = &c->redirs[i];
        char *target = expand_single(r->word);
        int fd;
        if (r->t == T_DUP) {
            if (!strcmp(target, "-")) {
                fd = -2;
            } else {
                fd = atoi(target);
                if (fcntl(fd, F_GETFD) < 0) {
                    fprintf(stderr, "sh: %s: bad file descriptor\n", target);
                    free(target);
                    return -1;
                }
            }
        } else {
            int flags = r->t == T_LT ? O_RDONLY
                      : r->t == T_GT ? O_WRONLY | O_CREAT | O_TRUNC
                                     : O_WRONLY | O_CREAT | O_APPEND;
            fd = open(target, flags, 0666);
            if (fd < 0) {
                fprintf(stderr, "sh: %s: %s\n", target, strerror(errno));
                free(target);
                return -1;
            }
        }
        free(target);
        if (save && *nsave < MAX_REDIRS * 2) {
            save[(*nsave)++] = r->fd;
            save[(*nsave)++] = fcntl(r->fd, F_DUPFD_CLOEXEC, 10);
        }
        if (fd == -2) {
            close(r->fd);
        } else if (fd != r->fd) {
            dup2(fd, r->fd);
            if (r->t != T_DUP)
                close(fd);
        }
    }
    return 0;
}

static void restore_redirs(int *save, int nsave)
{
    for (int i = nsave - 2; i >= 0; i -= 2) {
        if (save[i + 1] >= 0) {
            dup2(save[i + 1], save[i]);
            close(save[i + 1]);
        } else {
            close(save[i]);
        }
    }
}

static int is_assignment(const char *w)
{
    if (!(*w == '_' || ((*w | 32) >= 'a' && (*w | 32) <= 'z')))
        return 0;
    while (*w == '_' || ((*w | 32) >= 'a' && (*w | 32) <= 'z') || (*w >= '0' && *w <= '9'))
        w++;
    return *w == '=';
}

static _Noreturn void exec_external(char **argv, char **env)
{
    char *path = path_lookup(argv[0]);
    if (!path) {
        fprintf(stderr, "sh: %s: not found\n", argv[0]);
        _exit(127);
    }
    const char *wrap = get_var("HEXSH_EXEC_WRAPPER", 18);
    if (wrap && *wrap) {
        int n = 0;
        while (argv[n])
            n++;
        char **wargv = malloc(sizeof(char *) * (size_t)(n + 3));
        wargv[0] = (char *)wrap;
        wargv[1] = path;
        for (int i = 1; i <= n; i++)
            wargv[i + 1] = argv[i];
        execve(wrap, wargv, env);
    } else {
        execve(path, argv, env);
    }
    int e = errno;
    fprintf(stderr, "sh: %s: %s\n", argv[0], strerror(e));
    _exit(e == ENOENT ? 127 : 126);
}

struct expanded {
    char *argv[MAX_WORDS + 1];
    int argc;
    char *assigns[MAX_WORDS];
    int nassign;
};

static void expand_cmd(struct cmd *c, struct expanded *x)
{
    x->argc = x->nassign = 0;
    int i = 0;
    for (; i < c->nwords && is_assignment(c->words[i]); i++) {
        char *eq = strchr(c->words[i], '=');
        char *val = expand_single(eq + 1);
        size_t n = (size_t)(eq - c->words[i]);
        char *a = malloc(n + strlen(val) + 2);
        memcpy(a, c->words[i], n + 1);
        strcpy(a + n + 1, val);
        free(val);
        x->assigns[x->nassign++] = a;
    }
    for (; i < c->nwords; i++)
        expand_word(c->words[i], x->argv, &x->argc, MAX_WORDS);
    x->argv[x->argc] = 0;
}

static void free_expanded(struct expanded *x)
{
    for (int i = 0; i < x->argc; i++)
        free(x->argv[i]);
    for (int i = 0; i < x->nassign; i++)
        free(x->assigns[i]);
}

static int status_of(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        if (sig != SIGINT && sig != SIGPIPE)
            fprintf(stderr, "%s\n", strsignal(sig));
        return 128 + sig;
    }
    return 1;
}

static void child_signals(void)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGPIPE, SIG_DFL);
}

static int run_pipeline(struct pipeline *pl, int background)
{
    // A single builtin (or bare assignment) runs in the shell itself.
    if (pl->ncmds == 1 && !background) {
        struct cmd *c = &pl->cmds[0];
        struct expanded x;
        expand_cmd(c, &x);
        if (x.argc == 0) {
            for (int i = 0; i < x.nassign; i++) {
                char *eq = strchr(x.assigns[i], '=');
                *eq = 0;
                set_var(x.assigns[i], eq + 1, 0);
                *eq = '=';
            }
            int save[MAX_REDIRS * 2], nsave = 0;
            int st = apply_redirs(c, save, &nsave) < 0 ? 1 : 0;
            restore_redirs(save, nsave);
            free_expanded(&x);
            return st;
        }
        if (!strcmp(x.argv[0], "exec")) {
            if (apply_redirs(c, 0, 0) < 0) {
                free_expanded(&x);
                return 1;
            }
            if (x.argc > 1) {
                char **env = build_env(x.assigns, x.nassign);
                child_signals();
                exec_external(x.argv + 1, env);
            }
            free_expanded(&x);
            return 0;
        }
        if (is_builtin(x.argv[0])) {
            int save[MAX_REDIRS * 2], nsave = 0, st;
            if (apply_redirs(c, save, &nsave) < 0) {
                st = 1;
            } else {
                run_builtin(x.argv, x.argc, &st);
                fflush(stdout);
            }
            restore_redirs(save, nsave);
            free_expanded(&x);
            return st;
        }
        free_expanded(&x);
    }

    pid_t pids[MAX_CMDS];
    int prev_read = -1;
    fflush(0);
    for (int i = 0; i < pl->ncmds; i++) {
        int fds[2] = { -1, -1 };
        if (i + 1 < pl->ncmds && pipe2(fds, O_CLOEXEC) < 0) {
            perror("sh: pipe");
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            perror("sh: fork");
            pids[i] = -1;
            break;
        }
        if (pid == 0) {
            child_signals();
            if (prev_read >= 0) {
                dup2(prev_read, 0);
                close(prev_read);
            } else if (background) {
                int nul = open("/dev/null", O_RDONLY);
                if (nul >= 0) {
                    dup2(nul, 0);
                    close(nul);
                }
            }
            if (fds[1] >= 0) {
                dup2(fds[1], 1);
                close(fds[1]);
                close(fds[0]);
            }
            struct cmd *c = &pl->cmds[i];
            struct expanded x;
            expand_cmd(c, &x);
            if (apply_redirs(c, 0, 0) < 0)
                _exit(1);
            if (x.argc == 0)
                _exit(0);
            int st;
            if (run_builtin(x.argv, x.argc, &st)) {
                fflush(0);
                _exit(st);
            }
            exec_external(x.argv, build_env(x.assigns, x.nassign));
        }
        pids[i] = pid;
        if (prev_read >= 0)
            close(prev_read);
        if (fds[1] >= 0)
            close(fds[1]);
        prev_read = fds[0];
    }
    if (prev_read >= 0)
        close(prev_read);
    if (background) {
        printf("[%d]\n", pids[pl->ncmds - 1]);
        fflush(stdout);
        return 0;
    }
    int status = 0;
    for (int i = 0; i < pl->ncmds; i++) {
        if (pids[i] <= 0)
            continue;
        int st;
        pid_t r;
        while ((r = waitpid(pids[i], &st, 0)) < 0 && errno == EINTR)
            ;
        if (r == pids[i] && i == pl->ncmds - 1)
            status = status_of(st);
    }
    if (got_sigint && interactive) {
        got_sigint = 0;
        if (status == 128 + SIGINT)
            putchar('\n');
    }
    return status;
}

static void free_tokens(struct token *toks, int n)
{
    for (int i = 0; i < n; i++)
        free(toks[i].word);
}

// Parses and runs a complete line.
static void run_line(const char *line)
{
    static struct token toks[1024];
    int ntok;
    if (lex(line, toks, 1024, &ntok)) {
        fprintf(stderr, "sh: syntax error: unexpected end of input\n");
        last_status = 2;
        return;
    }
    struct pipeline *pl = malloc(sizeof *pl);
    int i = 0;
    enum tok pending = T_SEMI;   // operator before the current pipeline
    while (i < ntok) {
        memset(pl, 0, sizeof *pl);
        if (toks[i].t == T_BANG) {
            pl->negate = 1;
            i++;
        }
        struct cmd *c = &pl->cmds[0];
        pl->ncmds = 1;
        int syntax = 0;
        for (; i < ntok; i++) {
            struct token *t = &toks[i];
            if (t->t == T_WORD) {
                if (c->nwords < MAX_WORDS)
                    c->words[c->nwords++] = t->word;
            } else if (t->t == T_LT || t->t == T_GT || t->t == T_GTGT || t->t == T_DUP) {
                if (i + 1 >= ntok || toks[i + 1].t != T_WORD) {
                    syntax = 1;
                    break;
                }
                if (c->nredirs < MAX_REDIRS)
                    c->redirs[c->nredirs++] = (struct redir){ t->t, t->fd, toks[i + 1].word };
                i++;
            } else if (t->t == T_PIPE) {
                if ((c->nwords == 0 && c->nredirs == 0) || pl->ncmds == MAX_CMDS) {
                    syntax = 1;
                    break;
                }
                c = &pl->cmds[pl->ncmds++];
            } else {
                break;
            }
        }
        enum tok end = i < ntok ? toks[i].t : T_END;
        if (!syntax && c->nwords == 0 && c->nredirs == 0 && (pl->ncmds > 1 || pl->negate ||
                                                          end == T_AND || end == T_OR))
            syntax = 1;
        if (syntax || (end != T_END && end != T_SEMI && end != T_AMP && end != T_AND && end != T_OR)) {
            fprintf(stderr, "sh: syntax error\n");
            last_status = 2;
            break;
        }
        int empty = c->nwords == 0 && c->nredirs == 0 && pl->ncmds == 1;
        if (!empty) {
            // In an and-or list each operator tests the status of the last pipeline that
            // actually ran ("false && a || b" runs b).
            int run = pending == T_AND ? last_status == 0 : pending == T_OR ? last_status != 0 : 1;
            if (run) {
                int st = run_pipeline(pl, end == T_AMP);
                last_status = pl->negate ? !st : st;
            }
        }
        pending = end;
        if (i < ntok)
            i++;
    }
    free(pl);
    free_tokens(toks, ntok);
}

// ---------------------------------------------------------------- input

static struct termios saved_tio;
static int raw_on;

static void restore_terminal(void)
{
    if (raw_on) {
        tcsetattr(0, TCSANOW, &saved_tio);
        raw_on = 0;
    }
}

static void raw_mode(void)
{
    if (tcgetattr(0, &saved_tio) < 0)
        return;
    struct termios t = saved_tio;
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO | ISIG | IEXTEN);
    t.c_iflag &= ~(tcflag_t)(ICRNL | INLCR | IXON);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    if (tcsetattr(0, TCSANOW, &t) == 0)
        raw_on = 1;
}

static int read_byte(int fd)
{
    unsigned char c;
    for (;;) {
        ssize_t r = read(fd, &c, 1);
        if (r == 1)
            return c;
        if (r < 0 && errno == EINTR)
            continue;
        return -1;
    }
}

static void outs(const char *s) { write(1, s, strlen(s)); }

static void redraw(const char *prompt, const char *buf, int len, int cur)
{
    struct str o = { 0 };
    str_adds(&o, "\r", 0);
    str_adds(&o, prompt, 0);
    for (int i = 0; i < len; i++)
        str_addc(&o, buf[i], 0);
    str_adds(&o, "\x1b[K", 0);
    if (len > cur) {
        char m[16];
        snprintf(m, sizeof m, "\x1b[%dD", len - cur);
        str_adds(&o, m, 0);
    }
    write(1, o.s, o.n);
    str_free(&o);
}

// Interactive line editor. Returns a malloc'd line, or NULL at end of input (Ctrl-D).
static char *edit_line(const char *prompt)
{
    char buf[LINE_MAX_LEN];
    int len = 0, cur = 0, hpos = nhist;
    char *saved = 0;   // the line being typed when browsing history
    fflush(stdout);
    raw_mode();
    outs(prompt);
    for (;;) {
        int c = read_byte(0);
        if (c < 0) {
            restore_terminal();
            free(saved);
            return 0;
        }
        if (c == '\r' || c == '\n') {
            outs("\r\n");
            break;
        }
        if (c == 3) {   // Ctrl-C: abandon the line
            outs("^C\r\n");
            len = cur = 0;
            hpos = nhist;
            outs(prompt);
            last_status = 130;
            continue;
        }
        if (c == 4) {   // Ctrl-D: end of input on an empty line, else delete under cursor
            if (len == 0) {
                outs("\r\n");
                restore_terminal();
                free(saved);
                return 0;
            }
            if (cur < len) {
                memmove(buf + cur, buf + cur + 1, (size_t)(len - cur - 1));
                len--;
            }
        } else if (c == 127 || c == 8) {
            if (cur > 0) {
                memmove(buf + cur - 1, buf + cur, (size_t)(len - cur));
                cur--;
                len--;
            }
        } else if (c == 1) {
            cur = 0;
        } else if (c == 5) {
            cur = len;
        } else if (c == 21) {   // Ctrl-U: kill to the start
            memmove(buf, buf + cur, (size_t)(len - cur));
            len -= cur;
            cur = 0;
        } else if (c == 11) {   // Ctrl-K: kill to the end
            len = cur;
        } else if (c == 12) {   // Ctrl-L: clear screen
            outs("\x1b[H\x1b[2J");
        } else if (c == 27) {
            int c1 = read_byte(0);
            if (c1 != '[' && c1 != 'O')
                continue;
            int c2 = read_byte(0);
            if (c2 >= '0' && c2 <= '9') {
                int c3 = read_byte(0);
                if (c3 == '~') {
                    if (c2 == '1' || c2 == '7') cur = 0;
                    else if (c2 == '4' || c2 == '8') cur = len;
                    else if (c2 == '3' && cur < len) {
                        memmove(buf + cur, buf + cur + 1, (size_t)(len - cur - 1));
                        len--;
                    }
                }
            } else if (c2 == 'A' || c2 == 'B') {
                int np = hpos + (c2 == 'A' ? -1 : 1);
                if (np < 0 || np > nhist)
                    continue;
                if (hpos == nhist) {
                    free(saved);
                    saved = strndup(buf, (size_t)len);
                }
                hpos = np;
                const char *h = hpos == nhist ? (saved ? saved : "") : history[hpos];
                len = (int)strlen(h);
                if (len > LINE_MAX_LEN - 1)
                    len = LINE_MAX_LEN - 1;
                memcpy(buf, h, (size_t)len);
                cur = len;
            } else if (c2 == 'C') {
                if (cur < len) cur++;
            } else if (c2 == 'D') {
                if (cur > 0) cur--;
            } else if (c2 == 'H') {
                cur = 0;
            } else if (c2 == 'F') {
                cur = len;
            }
        } else if (c >= 32 && len < LINE_MAX_LEN - 1) {
            memmove(buf + cur + 1, buf + cur, (size_t)(len - cur));
            buf[cur++] = (char)c;
            len++;
            if (cur == len) {   // typing at the end: just echo
                char ch = (char)c;
                write(1, &ch, 1);
                continue;
            }
        } else if (c == '\t') {
            continue;
        }
        redraw(prompt, buf, len, cur);
    }
    restore_terminal();
    free(saved);
    return strndup(buf, (size_t)len);
}

// Non-interactive input: one byte at a time so the rest stays for child processes.
static char *read_line_fd(int fd)
{
    struct str b = { 0 };
    int c;
    while ((c = read_byte(fd)) >= 0 && c != '\n')
        str_addc(&b, (char)c, 0);
    if (c < 0 && b.n == 0) {
        str_free(&b);
        return 0;
    }
    char *r = strdup(b.s ? b.s : "");
    str_free(&b);
    return r;
}

static char *make_prompt(int cont)
{
    const char *ps = get_var(cont ? "PS2" : "PS1", 3);
    if (ps)
        return expand_single(ps);
    if (cont)
        return strdup("> ");
    struct utsname u;
    char cwd[PATH_MAX];
    if (uname(&u) < 0)
        strcpy(u.nodename, "hexagon");
    if (!getcwd(cwd, sizeof cwd))
        strcpy(cwd, "?");
    char *p;
    asprintf(&p, "root@%s:%s# ", u.nodename, cwd);
    return p;
}

static void on_sigint(int sig)
{
    (void)sig;
    got_sigint = 1;
}

static void reap_background(void)
{
    int st;
    pid_t p;
    while ((p = waitpid(-1, &st, WNOHANG)) > 0)
        if (interactive)
            fprintf(stderr, "[%d] done (%d)\n", p, status_of(st));
}

static int run_input(int fd)
{
    struct str acc = { 0 };
    for (;;) {
        char *line;
        if (interactive) {
            reap_background();
            char *prompt = make_prompt(acc.n > 0);
            line = edit_line(prompt);
            free(prompt);
        } else {
            line = read_line_fd(fd);
        }
        if (!line)
            break;
        if (acc.n)
            str_addc(&acc, '\n', 0);
        str_adds(&acc, line, 0);
        free(line);
        struct token toks[1024];
        int ntok;
        const char *text = acc.s ? acc.s : "";
        if (lex(text, toks, 1024, &ntok))
            continue;   // incomplete: read a continuation line
        free_tokens(toks, ntok);
        if (interactive)
            add_history(text);
        run_line(text);
        str_free(&acc);
    }
    if (acc.n)
        run_line(acc.s);
    str_free(&acc);
    return last_status;
}

int main(int argc, char **argv)
{
    for (char **e = environ; e && *e; e++) {
        char *eq = strchr(*e, '=');
        if (!eq)
            continue;
        *eq = 0;
        set_var(*e, eq + 1, 1);
        *eq = '=';
    }
    if (!get_var("PATH", 4))
        set_var("PATH", "/bin:/sbin:/usr/bin:/usr/sbin", 1);
    char cwd[PATH_MAX];
    if (getcwd(cwd, sizeof cwd))
        set_var("PWD", cwd, 1);
    pos_args = argv;
    npos = argc < 10 ? argc : 10;

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, 0);
    signal(SIGQUIT, SIG_IGN);

    if (argc > 2 && !strcmp(argv[1], "-c")) {
        if (argc > 3) {   // sh -c CMD NAME ARGS...: $0 is NAME
            pos_args = argv + 3;
            npos = argc - 3 < 10 ? argc - 3 : 10;
        } else {
            npos = 1;
        }
        run_line(argv[2]);
        fflush(0);
        return last_status;
    }
    int fd = 0;
    if (argc > 1 && strcmp(argv[1], "-i") && strcmp(argv[1], "-")) {
        fd = open(argv[1], O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            fprintf(stderr, "sh: %s: %s\n", argv[1], strerror(errno));
            return 127;
        }
        pos_args = argv + 1;
        npos = argc - 1 < 10 ? argc - 1 : 10;
    } else {
        interactive = isatty(0) && isatty(1);
    }
    int st = run_input(fd);
    fflush(0);
    return st;
}
