// SPDX-License-Identifier: MIT
// Check suite for the option tables (src/cli/options_table.c, src/objdump/options_table.c)
// and the parser that reads them (src/cli/options.c): every row is well formed (so that
// adding an option is one row that the parser, --help, the man page and the completion can
// all use), names are unique, and the parser applies a row's limits, reports the limits the
// help states, and stores values through the row's setter.
#include <check.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../check_main.h"
#include "cli/exit_status.h"
#include "cli/options.h"
#include "objdump/options.h"

static void check_rows(const struct cli_option *table, bool hexsim)
{
    for (const struct cli_option *o = table; o->help; o++) {
        const char *name = o->name ? o->name : o->short_name;
        ck_assert_msg(name != NULL, "a row without a name");
        ck_assert_msg(!o->name || (strncmp(o->name, "--", 2) == 0 && o->name[2]),
                      "%s: a long name starts with --", name);
        ck_assert_msg(!o->short_name || (o->short_name[0] == '-' && o->short_name[1] &&
                                         !o->short_name[2]), "%s: a short name is -X", name);
        ck_assert_msg(islower((unsigned char)o->help[0]) || !isalpha((unsigned char)o->help[0]),
                      "%s: the one-line help starts in lower case", name);
        ck_assert_msg(o->help[strlen(o->help) - 1] != '.', "%s: no full stop in the one-line "
                      "help", name);
        ck_assert_msg(strlen(o->help) <= 80, "%s: the one-line help is one line", name);
        ck_assert_msg(!o->more || o->more[strlen(o->more) - 1] == '.',
                      "%s: the long help is sentences", name);
        ck_assert_msg((o->arg == NULL) == (o->kind == CLI_FLAG),
                      "%s: an argument iff the kind is not CLI_FLAG", name);
        ck_assert_msg(o->kind != CLI_CHOICE || o->choices, "%s: a choice needs its words", name);
        ck_assert_msg(!o->optional_arg || o->kind == CLI_CHOICE,
                      "%s: an optional argument is a choice (--opt WORD)", name);
        ck_assert_msg((o->kind != CLI_UINT && o->kind != CLI_SIZE) || (o->min <= o->max &&
                      o->max), "%s: a range", name);
        for (const struct cli_option *p = table; p < o; p++) {
            ck_assert_msg(!o->name || !p->name || strcmp(o->name, p->name),
                          "%s: twice in the table", name);
            ck_assert_msg(!o->short_name || !p->short_name ||
                          strcmp(o->short_name, p->short_name), "%s: twice", name);
        }
        if (hexsim) {
            ck_assert_msg(o->set != NULL, "%s: no setter", name);
            ck_assert_msg(o->modes == CLI_SYSTEM || o->modes == CLI_USER ||
                          o->modes == CLI_BOTH, "%s: a mode", name);
            ck_assert_msg(o->topics && o->topics < CLI_TOPIC(CLI_NTOPICS), "%s: a topic", name);
        }
    }
}

START_TEST(test_rows)
{
    check_rows(cli_option_table, true);
    check_rows(od_option_table, false);
    for (int t = 0; t < CLI_NTOPICS; t++) {
        ck_assert_ptr_nonnull(cli_topics[t].name);
        ck_assert_int_eq(cli_topic_find(cli_topics[t].name), t);
    }
    ck_assert_int_eq(cli_topic_find("nosuch"), -1);
}
END_TEST

START_TEST(test_exit_list)
{
    const char *want[] = { "0", "1", "2", "3", "4", "124", "137" };
    unsigned n = 0;
    for (const struct hexsim_exit_info *e = hexsim_exit_list; e->code; e++)
        if (n < sizeof want / sizeof want[0] && strcmp(e->code, want[n]) == 0)
            n++;
    ck_assert_uint_eq(n, sizeof want / sizeof want[0]);
}
END_TEST

// Parses argv (NULL-terminated, without argv[0]) into *o with stderr closed off; the status.
static int parse(struct cli_options *o, const char **args)
{
    char *argv[32] = { "hexsim" };
    int argc = 1;
    while (*args && argc < 31)
        argv[argc++] = (char *)*args++;
    cli_options_init(o);
    fflush(stderr);
    FILE *saved = freopen("/dev/null", "w", stderr);
    ck_assert_ptr_nonnull(saved);
    return cli_parse(argc, argv, o);
}

START_TEST(test_parse_values)
{
    struct cli_options o;
    const char *ok[] = { "--mem", "0x2000000", "--smp=8", "--timing", "cache", "--clock=virtual",
                         "--code-cache", "64K", "--max-seconds", "0.5", "--trace-mmio=all",
                         "k", NULL };
    ck_assert_int_eq(parse(&o, ok), HEXSIM_EXIT_OK);
    ck_assert_uint_eq(o.mopts.ram_size, 32u << 20);
    ck_assert_uint_eq(o.mopts.smp, 8);
    ck_assert_int_eq(o.mopts.timing, HEXSIM_TIMING_CACHE);
    ck_assert_int_eq(o.clock, 0);
    ck_assert_uint_eq(o.mopts.code_cache, 64u << 10);
    ck_assert(o.mopts.max_seconds == 0.5);
    ck_assert(o.mopts.trace_mmio_all && !o.mopts.trace_mmio);
    ck_assert_str_eq(o.kernel, "k");

    const char *help[] = { "--help", "timing", NULL };
    ck_assert_int_eq(parse(&o, help), HEXSIM_EXIT_OK);
    ck_assert_str_eq(o.help_topic, "timing");
    const char *help_kernel[] = { "--help", "vmlinux", NULL };   // not a topic: the KERNEL
    ck_assert_int_eq(parse(&o, help_kernel), HEXSIM_EXIT_OK);
    ck_assert_str_eq(o.help_topic, "");
    ck_assert_str_eq(o.kernel, "vmlinux");

    const char *user[] = { "--stats", "--user", "prog", "--mem", "1", NULL };
    ck_assert_int_eq(parse(&o, user), HEXSIM_EXIT_OK);
    ck_assert_int_eq(o.user_argi, 3);
    ck_assert_uint_eq(o.mopts.ram_size, 0);      // the program's own argument

    // --console sdl's words; font= takes the rest of the value, commas too
    const char *sdl[] = { "--console", "sdl,scale=2,size=100x30,solid,font=/a,b.psf", "k",
                          NULL };
    ck_assert_int_eq(parse(&o, sdl), HEXSIM_EXIT_OK);
    ck_assert(o.console_sdl && o.sdl.solid_cursor);
    ck_assert_uint_eq(o.sdl.scale, 2);
    ck_assert_uint_eq(o.sdl.cols, 100);
    ck_assert_uint_eq(o.sdl.rows, 30);
    ck_assert_str_eq(o.sdl.font, "/a,b.psf");
    const char *sdl_plain[] = { "--console", "sdl", "k", NULL };
    ck_assert_int_eq(parse(&o, sdl_plain), HEXSIM_EXIT_OK);
    ck_assert_ptr_null(o.sdl.font);
}
END_TEST

// The range ends of each CLI_UINT and CLI_SIZE row pass, one beyond them fails.
START_TEST(test_parse_limits)
{
    for (const struct cli_option *r = cli_option_table; r->help; r++) {
        if (r->kind != CLI_UINT && r->kind != CLI_SIZE)
            continue;
        uint64_t edge[4] = { r->min, r->max, r->min - 1, r->max + (r->align ? r->align : 1) };
        for (int i = 0; i < 4; i++) {
            if ((i == 3 && r->max == UINT64_MAX) || (i == 2 && r->min == 0))
                continue;
            char v[32];
            snprintf(v, sizeof v, "%llu", (unsigned long long)edge[i]);
            bool user = r->modes == CLI_USER;
            const char *args[] = { r->name, v, user ? "--user" : "k", user ? "p" : NULL,
                                   NULL };
            struct cli_options o;
            ck_assert_msg(parse(&o, args) == (i < 2 ? HEXSIM_EXIT_OK : HEXSIM_EXIT_USAGE),
                          "%s %s", r->name, v);
        }
    }
}
END_TEST

START_TEST(test_parse_errors)
{
    const char *bad[][6] = {
        { "--bogus", NULL }, { "--mem", NULL }, { "--no-jit=1", NULL },
        { "--timing", "fast", NULL }, { "--help=nosuch", NULL }, { "--gdb", "70000", NULL },
        { "--snapshot-at", "9,5", "--snapshot-out", "x%N", "k", NULL },
        { "--mem", "64M", "--user", "p", NULL }, { "--record", "a", "--replay", "b", NULL },
        { "k1", "k2", NULL }, { "--user", NULL }, { "--mem", "33554433", NULL },
        { "--console", "sdl,font=", "k", NULL }, { "--console", "sdl,fonts=x", "k", NULL },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct cli_options o;
        ck_assert_msg(parse(&o, bad[i]) == HEXSIM_EXIT_USAGE, "case %zu (%s)", i, bad[i][0]);
    }
}
END_TEST

START_TEST(test_facts)
{
    char buf[600];
    for (const struct cli_option *r = cli_option_table; r->help; r++) {
        if (!r->name || strcmp(r->name, "--mem") != 0)
            continue;
        cli_option_facts(r, buf, sizeof buf);
        ck_assert_msg(strstr(buf, "Default: 256M.") && strstr(buf, "From 32M to 768M"), "%s",
                      buf);
        return;
    }
    ck_abort_msg("no --mem row");
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli_table");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_rows);
    tcase_add_test(tc, test_exit_list);
    tcase_add_test(tc, test_parse_values);
    tcase_add_test(tc, test_parse_limits);
    tcase_add_test(tc, test_parse_errors);
    tcase_add_test(tc, test_facts);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return hexsim_check_run(cli_suite());
}
