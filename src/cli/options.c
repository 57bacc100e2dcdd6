// SPDX-License-Identifier: MIT
// The parser of hexsim's command line: reads argv against the option table
// (options_table.c), checks each argument by its kind and the row's limits (so the error
// states the same limits as `--help`), stores it through the row's setter, then checks the
// combinations of options. Parsed by hand into a struct so that no state outlives main
// (getopt would keep its own globals).
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/exit_status.h"
#include "cli/options.h"

void cli_options_init(struct cli_options *o)
{
    memset(o, 0, sizeof(*o));
    o->clock = -1;
    o->tparams = hexsim_timing_default_params;
    o->uopts.timing_params = &o->tparams;
    o->mopts.timing_params = &o->tparams;
}

void cli_print_brief_usage(FILE *out)
{
    for (unsigned i = 0; cli_usage_lines[i]; i++)
        fprintf(out, "%s%s\n", i ? "       " : "Usage: ", cli_usage_lines[i]);
    fputs("Run 'hexsim --help' for the options.\n", out);
}

int cli_usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "hexsim: %s '%s'\n\n", what, arg);
    cli_print_brief_usage(stderr);
    return HEXSIM_EXIT_USAGE;
}

// Reports msg (a whole sentence) with the usage lines after a usage error.
static int report(int status, const char *msg)
{
    fprintf(stderr, "hexsim: %s\n", msg);
    if (status == HEXSIM_EXIT_USAGE) {
        fputc('\n', stderr);
        cli_print_brief_usage(stderr);
    }
    return status;
}

void cli_format_size(uint64_t n, char *buf, size_t len)
{
    static const char units[] = "KMG";
    int u = -1;
    while (u < 2 && n && (n & 1023) == 0) {
        n >>= 10;
        u++;
    }
    if (u < 0)
        snprintf(buf, len, "%llu", (unsigned long long)n);
    else
        snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
}

// SIZE[K|M|G] (bytes without a suffix; decimal, 0x hex or 0 octal); 0 on error.
static uint64_t parse_size(const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 0);
    if (*v == '\0' || *v == '-' || errno || end == v)
        return 0;
    unsigned shift = 0;
    switch (*end) {
    case 'k': case 'K': shift = 10; end++; break;
    case 'm': case 'M': shift = 20; end++; break;
    case 'g': case 'G': shift = 30; end++; break;
    default: break;
    }
    if (*end || n > (UINT64_MAX >> shift))
        return 0;
    return (uint64_t)n << shift;
}

// The index of word in the |-separated list, or -1.
static int choice_index(const char *list, const char *word)
{
    size_t n = strlen(word);
    int i = 0;
    for (const char *p = list; p; i++) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0)
            return i;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

// "a or b", "a, b or c" from "a|b|c".
static void choice_words(const char *list, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (const char *p = list; p && k < len;) {
        const char *bar = strchr(p, '|');
        int n = bar ? (int)(bar - p) : (int)strlen(p);
        const char *sep = p == list ? "" : bar ? ", " : " or ";
        k += (size_t)snprintf(buf + k, len - k, "%s%.*s", sep, n, p);
        p = bar ? bar + 1 : NULL;
    }
}

void cli_option_synopsis(const struct cli_option *opt, char *buf, size_t len)
{
    const char *name = opt->name ? opt->name : opt->short_name;
    int k = 0;
    if (opt->short_name && opt->name)
        k = snprintf(buf, len, "%s, ", opt->short_name);
    if (!opt->arg)
        snprintf(buf + k, len - (size_t)k, "%s", name);
    else if (opt->optional_arg)
        snprintf(buf + k, len - (size_t)k, "%s[=%s]", name, opt->arg);
    else
        snprintf(buf + k, len - (size_t)k, "%s %s", name, opt->arg);
}

void cli_option_facts(const struct cli_option *opt, char *buf, size_t len)
{
    char a[32], b[32];
    int k = 0;
    buf[0] = '\0';
    if (opt->def)
        k += snprintf(buf + k, len - (size_t)k, "Default: %s.", opt->def);
    if (opt->kind == CLI_SIZE) {
        cli_format_size(opt->min, a, sizeof a);
        cli_format_size(opt->max, b, sizeof b);
        k += snprintf(buf + k, len - (size_t)k, "%sFrom %s to %s%s.", k ? " " : "", a, b,
                      opt->align ? " (whole pages)" : "");
    } else if (opt->kind == CLI_UINT && opt->max != UINT64_MAX) {
        k += snprintf(buf + k, len - (size_t)k, "%sFrom %llu to %llu.", k ? " " : "",
                      (unsigned long long)opt->min, (unsigned long long)opt->max);
    } else if (opt->kind == CLI_TEXT && opt->max) {
        k += snprintf(buf + k, len - (size_t)k, "%sAt most %llu bytes.", k ? " " : "",
                      (unsigned long long)opt->max);
    }
    if (opt->why && k)
        k += snprintf(buf + k, len - (size_t)k, " (%s.)", opt->why);
    // the mode, where the topic does not say it
    if (opt->modes == CLI_SYSTEM && !(opt->topics & CLI_TOPIC(CLI_T_SYSTEM)))
        snprintf(buf + k, len - (size_t)k, "%sSystem mode only.", k ? " " : "");
    else if (opt->modes == CLI_USER && !(opt->topics & CLI_TOPIC(CLI_T_USER)))
        snprintf(buf + k, len - (size_t)k, "%sUser mode only.", k ? " " : "");
}

void cli_option_text(const struct cli_option *opt, char *buf, size_t len)
{
    char facts[600];
    cli_option_facts(opt, facts, sizeof facts);
    int k = snprintf(buf, len, "%c%s.", toupper((unsigned char)opt->help[0]), opt->help + 1);
    if (opt->more && k < (int)len)
        k += snprintf(buf + k, len - (size_t)k, " %s", opt->more);
    if (facts[0] && k < (int)len)
        snprintf(buf + k, len - (size_t)k, " %s", facts);
}

int cli_option_first_topic(const struct cli_option *opt)
{
    for (int t = 0; t < CLI_NTOPICS; t++)
        if (opt->topics & CLI_TOPIC(t))
            return t;
    return CLI_T_GENERAL;
}

// Checks v->text against the row's kind and limits, filling v; 0, or writes msg and returns
// HEXSIM_EXIT_USAGE.
static int check_value(const struct cli_option *opt, struct cli_value *v, char *msg,
                       size_t len)
{
    const char *t = v->text;
    const char *name = opt->name ? opt->name : opt->short_name;
    char why[200] = "", a[32], b[32];
    if (opt->why)
        snprintf(why, sizeof why, " (%s)", opt->why);
    char *end;
    errno = 0;
    switch (opt->kind) {
    case CLI_UINT: {
        unsigned long long n = strtoull(t, &end, 10);
        if (*t >= '0' && *t <= '9' && !*end && !errno && n >= opt->min && n <= opt->max) {
            v->n = n;
            return 0;
        }
        if (opt->max == UINT64_MAX)
            snprintf(msg, len, "%s needs a positive number%s, got '%s'", name, why, t);
        else
            snprintf(msg, len, "%s needs a number from %llu to %llu%s, got '%s'", name,
                     (unsigned long long)opt->min, (unsigned long long)opt->max, why, t);
        return HEXSIM_EXIT_USAGE;
    }
    case CLI_SIZE: {
        uint64_t n = parse_size(t);
        if (n && n >= opt->min && n <= opt->max && (!opt->align || n % opt->align == 0)) {
            v->n = n;
            return 0;
        }
        cli_format_size(opt->min, a, sizeof a);
        cli_format_size(opt->max, b, sizeof b);
        snprintf(msg, len, "%s needs a size from %s to %s%s%s, got '%s'", name, a, b,
                 opt->align ? " in whole pages" : "", why, t);
        return HEXSIM_EXIT_USAGE;
    }
    case CLI_SECONDS: {
        double d = strtod(t, &end);
        if (*t && !*end && !errno && d > 0 && isfinite(d)) {
            v->d = d;
            return 0;
        }
        snprintf(msg, len, "%s needs a positive number, got '%s'", name, t);
        return HEXSIM_EXIT_USAGE;
    }
    case CLI_CHOICE: {
        int i = choice_index(opt->choices, t);
        if (i >= 0) {
            v->choice = (unsigned)i;
            return 0;
        }
        char words[200];
        choice_words(opt->choices, words, sizeof words);
        snprintf(msg, len, "%s takes %s, got '%s'", name, words, t);
        return HEXSIM_EXIT_USAGE;
    }
    case CLI_TEXT:
        if (opt->max && strlen(t) > opt->max) {
            snprintf(msg, len, "%s takes at most %llu bytes%s; got %zu", name,
                     (unsigned long long)opt->max, why, strlen(t));
            return HEXSIM_EXIT_USAGE;
        }
        return 0;
    case CLI_INFILE:
    case CLI_OUTFILE:
        if (!*t) {
            snprintf(msg, len, "%s needs a FILE name, got ''", name);
            return HEXSIM_EXIT_USAGE;
        }
        return 0;
    case CLI_FLAG:
    case CLI_CUSTOM:
        return 0;
    }
    return 0;
}

// The row of arg ("--name", "--name=VALUE" or a short name); *eq the value after '=', or NULL.
static const struct cli_option *find_option(const char *arg, const char **eq)
{
    *eq = NULL;
    const char *e = arg[1] == '-' ? strchr(arg, '=') : NULL;
    size_t n = e ? (size_t)(e - arg) : strlen(arg);
    for (const struct cli_option *opt = cli_option_table; opt->help; opt++) {
        if (opt->short_name && strcmp(arg, opt->short_name) == 0)
            return opt;
        if (opt->name && strncmp(arg, opt->name, n) == 0 && opt->name[n] == '\0') {
            *eq = e ? e + 1 : NULL;
            return opt;
        }
    }
    return NULL;
}

// One option at argv[*i] (its value may take argv[*i + 1]); 0 or the exit status.
static int parse_option(int argc, char **argv, int *i, struct cli_options *o)
{
    const char *arg = argv[*i];
    const char *eq;
    const struct cli_option *opt = find_option(arg, &eq);
    char msg[600];
    if (!opt)
        return cli_usage_error("unknown option", arg);
    // (a row with only a short name, such as -L, is named by it)
    if (opt->modes == CLI_SYSTEM && !o->sys_opt)
        o->sys_opt = opt->name ? opt->name : opt->short_name;
    if (opt->modes == CLI_USER && !o->user_opt)
        o->user_opt = opt->name ? opt->name : opt->short_name;
    struct cli_value v = { 0 };
    if (!opt->arg) {
        if (eq)
            return cli_usage_error("this option takes no value:", arg);
    } else if (eq) {
        v.text = eq;
    } else if (opt->optional_arg) {
        // `--help TOPIC`: the next argument is the value when it is one of the words
        if (*i + 1 < argc && choice_index(opt->choices, argv[*i + 1]) >= 0)
            v.text = argv[++*i];
    } else if (*i + 1 >= argc) {
        return cli_usage_error("missing value after", arg);
    } else {
        v.text = argv[++*i];
    }
    int rc = v.text ? check_value(opt, &v, msg, sizeof msg) : 0;
    if (rc)
        return report(rc, msg);
    if (opt->kind == CLI_OUTFILE) {
        if (o->nout == CLI_MAX_OUTPUTS)
            return cli_usage_error("too many files to write; at most 8, got", v.text);
        o->out_opt[o->nout] = opt;
        o->out_path[o->nout++] = v.text;
    }
    if (opt->set && (rc = opt->set(o, opt, &v, msg, sizeof msg)))
        return report(rc, msg);
    return 0;
}

// The combinations of options that cannot work; 0 or the exit status after reporting.
static int check_combinations(char **argv, struct cli_options *o)
{
    bool user = o->user;
    if (user && !o->user_argi && !o->restore)
        return cli_usage_error("missing PROG after", "--user");
    if (user && o->sys_opt)
        return cli_usage_error("--user runs one Linux program; this option is for system mode "
                               "(a KERNEL):", o->sys_opt);
    if (user && o->user_argi && o->restore)
        return cli_usage_error("--user --restore FILE continues the process saved in FILE (its "
                               "program and arguments come from it); unexpected PROG",
                               argv[o->user_argi]);
    // (in system mode --snapshot-out alone names the snapshots Ctrl-A s writes)
    if ((o->nsnap && !o->snapshot_out) || (o->snapshot_out && !o->nsnap && user))
        return cli_usage_error("--snapshot-at N and --snapshot-out FILE go together; missing",
                               o->nsnap ? "--snapshot-out" : "--snapshot-at");
    if (o->nsnap > 1 && !strstr(o->snapshot_out, "%N"))
        return cli_usage_error("with several --snapshot-at points --snapshot-out needs %N (the "
                               "packet count) in its name, got", o->snapshot_out);
    if (o->record && o->replay)
        return cli_usage_error("--record and --replay exclude each other; got both, and",
                               o->replay);
    if (o->replay && o->script)
        return cli_usage_error("--replay gives all the console input; not with --script",
                               o->script);
    if (o->nsnap && o->debug)
        return cli_usage_error("--snapshot-at does not work under the debugger (its savevm "
                               "FILE command does that); got", "--snapshot-at");
    // with --debug, KERNEL only gives the debugger its symbols
    if (o->restore && ((o->kernel && !o->debug) || o->initrd || o->mopts.append))
        return cli_usage_error("--restore continues a machine from its snapshot; it takes no "
                               "KERNEL (except for the debugger's symbols), --initrd or "
                               "--append:",
                               o->kernel && !o->debug ? o->kernel :
                               o->initrd ? "--initrd" : "--append");
    return HEXSIM_EXIT_OK;
}

int cli_parse(int argc, char **argv, struct cli_options *o)
{
    bool options_done = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        bool operand = options_done || arg[0] != '-' || arg[1] == '\0';
        if (o->user && operand) {
            o->user_argi = i;   // PROG: it and everything after belong to the program
            break;
        }
        if (operand) {
            if (o->kernel != NULL)
                return cli_usage_error("unexpected extra argument", arg);
            o->kernel = arg;
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else {
            int rc = parse_option(argc, argv, &i, o);
            if (rc)
                return rc;
        }
    }
    return check_combinations(argv, o);
}

// Whether path can be written: an existing file must be writable and not a directory; a
// new one is created and removed again. 0, or an errno value.
static int writable(const char *path)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return EISDIR;
        return access(path, W_OK) ? errno : 0;
    }
    if (errno != ENOENT)
        return errno;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd < 0)
        return errno;
    close(fd);
    unlink(path);
    return 0;
}

int cli_check_outputs(const struct cli_options *o)
{
    for (unsigned i = 0; i < o->nout; i++) {
        const char *path = o->out_path[i];
        char buf[4096];
        const char *k = strstr(path, "%N");
        if (k) {   // a snapshot pattern: the first file it names
            snprintf(buf, sizeof buf, "%.*s%llu%s", (int)(k - path), path,
                     (unsigned long long)(o->nsnap ? o->snap_at[0] : 1), k + 2);
            path = buf;
        }
        int err = writable(path);
        if (err) {
            fprintf(stderr, "hexsim: %s: cannot write '%s': %s\n", o->out_opt[i]->name, path,
                    strerror(err));
            return HEXSIM_EXIT_FILE;
        }
    }
    return HEXSIM_EXIT_OK;
}
