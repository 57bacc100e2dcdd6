// SPDX-License-Identifier: MIT
// `hexsim --help [TOPIC]`: printed from the option table, the topics (options_table.c) and
// the exit statuses (exit_status.c). Without a topic: the usage, each option in one line
// under its first topic, the exit statuses; with one: that topic's options in full (their
// one-line help, the rest of their text, default and range); `all`: every topic in full.
#include <string.h>

#include "cli/exit_status.h"
#include "cli/options.h"

#define WIDTH 80        // the text ends before this column
#define HELP_COL 25     // where the one-line help starts in the overview

// Prints text from column col (the cursor is there), wrapped at WIDTH, later lines indented
// by indent; "\n\n" in text starts a new paragraph. Ends the line.
static void wrap(FILE *out, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        if (p[0] == '\n') {
            fputc('\n', out);
            if (p[1] == '\n') {
                fputc('\n', out);
                p++;
            }
            p++;
            fprintf(out, "%*s", indent, "");
            col = indent;
            continue;
        }
        size_t n = strcspn(p, " \n");
        if (col > indent && col + 1 + (int)n >= WIDTH) {
            fprintf(out, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', out);
            col++;
        }
        fwrite(p, 1, n, out);
        col += (int)n;
        p += n;
        while (*p == ' ')
            p++;
    }
    fputc('\n', out);
}

static void print_usage_lines(FILE *out)
{
    for (unsigned i = 0; cli_usage_lines[i]; i++)
        fprintf(out, "%s%s\n", i ? "       " : "Usage: ", cli_usage_lines[i]);
}

static void print_exit_statuses(FILE *out)
{
    fputs("Exit status:\n", out);
    for (const struct hexsim_exit_info *e = hexsim_exit_list; e->code; e++) {
        int col = fprintf(out, "  %-5s", e->code);
        if (col > 7) {
            fputc(' ', out);
            col++;
        }
        wrap(out, e->text, col, 7);
    }
}

// One line (or two) for an option: its synopsis and its one-line help.
static void print_option_line(FILE *out, const struct cli_option *opt)
{
    char syn[160];
    cli_option_synopsis(opt, syn, sizeof syn);
    int col = fprintf(out, "  %s%s", opt->name && !opt->short_name ? "    " : "", syn);
    if (col + 2 > HELP_COL) {
        fputc('\n', out);
        col = 0;
    }
    fprintf(out, "%*s", HELP_COL - col, "");
    wrap(out, opt->help, HELP_COL, HELP_COL);
}

void cli_print_paragraph(FILE *out, const char *text)
{
    wrap(out, text, 0, 0);
}

void cli_print_options(FILE *out, const struct cli_option *table)
{
    for (const struct cli_option *opt = table; opt->help; opt++)
        print_option_line(out, opt);
}

// The options listed under topic t in the overview.
static void print_brief_topic(FILE *out, int t)
{
    fprintf(out, "%s:\n", cli_topics[t].title);
    for (const struct cli_option *opt = cli_option_table; opt->help; opt++)
        if (cli_option_first_topic(opt) == t)
            print_option_line(out, opt);
}

// An option in full: its synopsis, then the help as a sentence, the rest and the facts.
static void print_full_option(FILE *out, const struct cli_option *opt)
{
    char syn[160], text[2400];
    cli_option_synopsis(opt, syn, sizeof syn);
    cli_option_text(opt, text, sizeof text);
    fprintf(out, "  %s\n%*s", syn, 8, "");
    wrap(out, text, 8, 8);
}

static void print_full_topic(FILE *out, int t)
{
    const struct cli_topic_info *ti = &cli_topics[t];
    fprintf(out, "%s:\n", ti->title);
    if (ti->intro) {
        wrap(out, ti->intro, 0, 0);
        fputc('\n', out);
    }
    for (const struct cli_option *opt = cli_option_table; opt->help; opt++)
        if (opt->topics & CLI_TOPIC(t))
            print_full_option(out, opt);
    if (ti->outro) {
        fputc('\n', out);
        wrap(out, ti->outro, 0, 0);
    }
}

int cli_topic_find(const char *name)
{
    for (int t = 0; t < CLI_NTOPICS; t++)
        if (strcmp(cli_topics[t].name, name) == 0)
            return t;
    return -1;
}

bool cli_print_help(FILE *out, const char *topic)
{
    bool all = strcmp(topic, "all") == 0;
    int t = cli_topic_find(topic);
    if (*topic && !all && t < 0)
        return false;
    if (t >= 0) {
        print_full_topic(out, t);
        return true;
    }
    print_usage_lines(out);
    fprintf(out, "\n%s\n\n", cli_description);
    if (!all) {
        char line[400];
        int k = snprintf(line, sizeof line, "Options (hexsim --help TOPIC shows a topic in "
                         "full; TOPIC is");
        for (int i = 0; i < CLI_NTOPICS; i++)
            k += snprintf(line + k, sizeof line - (size_t)k, " %s,", cli_topics[i].name);
        snprintf(line + k, sizeof line - (size_t)k, " or all):");
        wrap(out, line, 0, 0);
    }
    for (int i = 0; i < CLI_NTOPICS; i++) {
        if (i)
            fputc('\n', out);
        if (all)
            print_full_topic(out, i);
        else
            print_brief_topic(out, i);
    }
    fputc('\n', out);
    print_exit_statuses(out);
    return true;
}
