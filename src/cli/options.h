// SPDX-License-Identifier: MIT
// The command line of hexsim: the parsed options (struct cli_options), the row type of the
// option table (options_table.c, the one description of every option), and the parser and
// printers that read the table: options.c parses and validates argv, help.c prints
// `--help [TOPIC]`, docgen.c the man page and the bash completion.
#ifndef HEXSIM_CLI_OPTIONS_H
#define HEXSIM_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "debug/session.h"
#include "hexsim/machine.h"
#include "hexsim/sdl_console.h"
#include "cpu/timing.h"
#include "user/user.h"

#define HEXSIM_MAX_SNAPSHOTS 64
#define CLI_MAX_OUTPUTS 8

struct cli_options {
    const char *help_topic;     // --help [TOPIC]: NULL none, "" the overview
    bool version;
    bool timing_info;   // --timing-info: print the timing model's parameters and exit
    struct hexsim_timing_params tparams;   // defaults with the --timing-param changes
    const char *kernel; // positional KERNEL, NULL if none
    const char *initrd; // --initrd FILE, NULL if none
    bool user;          // --user: Linux user mode
    int user_argi;      // --user: index in argv of PROG (its arguments follow), 0 if none
    struct hexsim_user_opts uopts;
    bool debug;         // --debug, --break, -x or --gdb: run under the debugger
    struct hexsim_dbg_options dbg;
    struct hexsim_machine_opts mopts;
    const char *net;    // --net SPEC, NULL: none
    struct hexsim_drive_opts drives[HEXSIM_VIRTIO_BLK_MAX];   // --drive (mopts.drives)
    struct hexsim_share_opts shares[HEXSIM_VIRTIO_9P_MAX];    // --share (mopts.shares)
    const char *script; // --script FILE, NULL: none
    bool console_sdl;   // --console sdl[,...]: the SDL console window
    uint64_t snap_at[HEXSIM_MAX_SNAPSHOTS];  // --snapshot-at N[,N...], ascending
    unsigned nsnap;
    const char *snapshot_out;    // --snapshot-out FILE (with %N for several)
    const char *restore;         // --restore FILE
    const char *record;          // --record FILE
    const char *replay;          // --replay FILE
    struct hexsim_sdl_console_opts sdl;
    int clock;                   // --clock: -1 not given, 0 virtual, 1 wall
    bool rtc_given;              // --rtc-base (mopts.rtc_base; HEXSIM_RTC_NOW: now)
    bool default_kernel;         // no KERNEL: the project's (said once it is loaded)
    // options that write files, in the order given: checked before the run (cli_check_outputs)
    const struct cli_option *out_opt[CLI_MAX_OUTPUTS];
    const char *out_path[CLI_MAX_OUTPUTS];
    unsigned nout;
    const char *sys_opt;         // the first system-mode-only option given (for --user)
    const char *user_opt;        // the first user-mode-only option given (for system mode)
};

// Modes an option belongs to (struct cli_option.modes).
enum { CLI_SYSTEM = 1, CLI_USER = 2, CLI_BOTH = CLI_SYSTEM | CLI_USER };

// Help topics (struct cli_option.topics, a mask of 1 << topic).
enum cli_topic {
    CLI_T_GENERAL, CLI_T_SYSTEM, CLI_T_USER, CLI_T_DEBUG, CLI_T_TIMING, CLI_T_SNAPSHOT,
    CLI_T_NETWORK, CLI_T_CONSOLE, CLI_NTOPICS
};
#define CLI_TOPIC(t) (1u << (t))

// What an option's argument is; the parser checks it against the row's limits.
enum cli_kind {
    CLI_FLAG,       // no argument
    CLI_UINT,       // a decimal number from min to max
    CLI_SIZE,       // SIZE[K|M|G], from min to max, a multiple of align (when not 0)
    CLI_SECONDS,    // a number above 0 (decimals allowed)
    CLI_CHOICE,     // one of the |-separated words of choices
    CLI_TEXT,       // any text, at most max bytes when max is not 0
    CLI_INFILE,     // a file hexsim reads
    CLI_OUTFILE,    // a file hexsim writes: checked before the run starts
    CLI_CUSTOM,     // the setter checks it (its message names what is wanted)
};

// An argument after the parser's checks.
struct cli_value {
    const char *text;           // as given
    uint64_t n;                 // CLI_UINT, CLI_SIZE
    double d;                   // CLI_SECONDS
    unsigned choice;            // CLI_CHOICE: index of the word
};

struct cli_option {
    const char *name;           // "--mem"
    const char *short_name;     // "-x", or NULL
    const char *arg;            // "SIZE" (also in the help), NULL for a flag
    bool optional_arg;          // the argument is given only as --name=ARG (else a flag)
    unsigned modes;             // CLI_SYSTEM, CLI_USER, CLI_BOTH
    unsigned topics;            // CLI_TOPIC(...) | ...; the first is where --help lists it
    enum cli_kind kind;
    uint64_t min, max, align;   // UINT, SIZE: range and step; TEXT: max is the longest
    const char *choices;        // CHOICE: "simple|cache"; else completion words, or NULL
    const char *def;            // the default, as documented; NULL: none
    const char *help;           // one line for `--help`
    const char *more;           // the rest, for `--help TOPIC` and the man page (or NULL)
    const char *why;            // why the limits are so (in the error message), or NULL
    // Stores the checked value; returns 0, or an exit status after writing msg (a full
    // sentence naming the option and the value). NULL: nothing to store.
    int (*set)(struct cli_options *o, const struct cli_option *opt, const struct cli_value *v,
               char *msg, size_t msglen);
};

// The table (options_table.c).
extern const struct cli_option cli_option_table[];   // ends with a row whose help is NULL

struct cli_topic_info {
    const char *name;           // "system" (for --help TOPIC)
    const char *title;          // section heading
    const char *intro;          // paragraph(s) before the options (or NULL)
    const char *outro;          // paragraph(s) after them (or NULL)
};
extern const struct cli_topic_info cli_topics[CLI_NTOPICS];
// The usage lines and the one-paragraph description (options_table.c).
extern const char *const cli_usage_lines[];
extern const char cli_description[];

// Sets the defaults of *o.
void cli_options_init(struct cli_options *o);
// Fills *o from argv. Returns HEXSIM_EXIT_OK, or the exit status after reporting on stderr.
int cli_parse(int argc, char **argv, struct cli_options *o);
// Checks that the files the run will write can be written; HEXSIM_EXIT_OK or after reporting
// HEXSIM_EXIT_FILE.
int cli_check_outputs(const struct cli_options *o);
// Reports a command-line mistake "hexsim: WHAT 'ARG'" and the usage lines; returns
// HEXSIM_EXIT_USAGE.
int cli_usage_error(const char *what, const char *arg);
// The usage lines and the pointer to --help (after a mistake).
void cli_print_brief_usage(FILE *out);
// `--help` (topic ""), `--help TOPIC`, `--help all`; returns false for an unknown topic.
bool cli_print_help(FILE *out, const char *topic);
// text wrapped to the terminal width of the help (paragraphs at "\n\n").
void cli_print_paragraph(FILE *out, const char *text);
// One line (or two) per option of table (which ends with a row whose help is NULL).
void cli_print_options(FILE *out, const struct cli_option *table);
// The topic named name, or -1.
int cli_topic_find(const char *name);
// "--name ARG" / "--name[=ARG]" / "-x, --name ARG" into buf.
void cli_option_synopsis(const struct cli_option *opt, char *buf, size_t len);
// The parts of the long help that come from the fields (default, range): "Default: 256M.
// From 32M to 768M." into buf ("" when none).
void cli_option_facts(const struct cli_option *opt, char *buf, size_t len);
// The whole text of an option: its help as a sentence, the rest, the facts.
void cli_option_text(const struct cli_option *opt, char *buf, size_t len);
// The topic --help lists an option under (its first).
int cli_option_first_topic(const struct cli_option *opt);
// A size as the parser reads it: 256M, 64K, 1G, or bytes.
void cli_format_size(uint64_t n, char *buf, size_t len);

#endif
