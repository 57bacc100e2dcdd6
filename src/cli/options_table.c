// SPDX-License-Identifier: MIT
// The options of hexsim, each described once. The parser (options.c), `--help [TOPIC]`
// (help.c), the man page hexsim(1) and the bash completion (docgen.c, at build time) are all
// made from this table, so they cannot disagree. The texts are the hexsim behaviour the rest
// of src/ implements (user mode: src/user, system mode: src/hvm and src/devices, the
// debugger: src/debug, snapshots: src/snap, timing: src/cpu/timing.c).
//
// Adding an option is one row in cli_option_table below (keep the rows grouped by topic):
//   name, short_name, arg (NULL: a flag), modes (CLI_SYSTEM/CLI_USER/CLI_BOTH: an option of
//   one mode given in the other is refused), topics (CLI_TOPIC(CLI_T_...) | ...; the first
//   one is where `--help` lists it), kind (what the argument is: the parser checks it, with
//   min/max/align or choices, and words the error from them), def (the default as shown),
//   help (one line, lower case, no full stop), more (the rest for `--help TOPIC` and the man
//   page: sentences), why (a reason for the limits, shown in the error), and set (a
//   function below that stores the checked value in struct cli_options; the argument is
//   already checked unless the kind is CLI_CUSTOM). A new field of struct cli_options goes
//   into options.h. Options that write files are CLI_OUTFILE: the parser checks that they
//   can be written before the run starts.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "cli/exit_status.h"
#include "cli/options.h"
#include "hexsim/arch.h"
#include "hexsim/boot_env.h"

// ---- setters (in table order)

// The core versions --mcpu takes (hexsim_arch_parse, src/cpu/arch.c), for its error.
#define ARCHS "v5, v55, v60 ... v73, v67t, v71t"

// A setter that only stores the checked value: STORE(name, statement on o and v).
#define STORE(fn, statement)                                                             \
    static int fn(struct cli_options *o, const struct cli_option *opt,                     \
                  const struct cli_value *v, char *msg, size_t len)                        \
    {                                                                                      \
        (void)opt, (void)v, (void)msg, (void)len;                                          \
        statement;                                                                         \
        return 0;                                                                          \
    }

STORE(set_help, o->help_topic = v->text ? v->text : "")
STORE(set_version, o->version = true)

static int set_mcpu(struct cli_options *o, const struct cli_option *opt,
                    const struct cli_value *v, char *msg, size_t len)
{
    unsigned a = hexsim_arch_parse(v->text);
    if (!a) {
        snprintf(msg, len, "%s: unknown core version (" ARCHS "): '%s'", opt->name, v->text);
        return HEXSIM_EXIT_USAGE;
    }
    o->uopts.arch = o->mopts.arch = a;
    return 0;
}

STORE(set_max_packets, o->uopts.max_packets = o->mopts.max_packets = v->n)
STORE(set_max_seconds, o->uopts.max_seconds = o->mopts.max_seconds = v->d)
STORE(set_no_jit, o->uopts.no_jit = o->mopts.no_jit = true)
STORE(set_no_stencils, o->uopts.no_stencils = o->mopts.no_stencils = true)
STORE(set_code_cache, o->uopts.code_cache = o->mopts.code_cache = (size_t)v->n)
STORE(set_jit_threshold, o->uopts.jit_threshold = o->mopts.jit_threshold = (unsigned)v->n)
STORE(set_perf_map, o->uopts.perf_map = o->mopts.perf_map = true)
STORE(set_user, o->user = true)
STORE(set_host_time, o->uopts.host_time = true)
STORE(set_strace, o->uopts.strace = true)
STORE(set_ld_prefix, o->uopts.ld_prefix = v->text)
STORE(set_stats, o->uopts.stats = o->mopts.stats = true)
STORE(set_stats_json, o->uopts.stats_json = o->mopts.stats_json = v->text)
STORE(set_profile, o->uopts.profile = o->mopts.profile = v->text)
static int set_profile_symbols(struct cli_options *o, const struct cli_option *opt,
                               const struct cli_value *v, char *msg, size_t len)
{
    if (o->mopts.nprofile_syms >= HEXSIM_PROFILE_SYMS) {
        snprintf(msg, len, "too many %s (at most %d)", opt->name, HEXSIM_PROFILE_SYMS);
        return HEXSIM_EXIT_USAGE;
    }
    o->mopts.profile_syms[o->mopts.nprofile_syms++] = v->text;
    return 0;
}

// --profile-range START:END, packet counts with START < END.
static int set_profile_range(struct cli_options *o, const struct cli_option *opt,
                             const struct cli_value *v, char *msg, size_t len)
{
    char *end, *end2 = NULL;
    errno = 0;
    unsigned long long a = strtoull(v->text, &end, 10), b = 0;
    if (*end == ':' && end[1] >= '0' && end[1] <= '9')
        b = strtoull(end + 1, &end2, 10);
    if (v->text[0] < '0' || v->text[0] > '9' || errno || !end2 || *end2 || a >= b) {
        snprintf(msg, len, "%s needs START:END, packet counts with START < END, got '%s'",
                 opt->name, v->text);
        return HEXSIM_EXIT_USAGE;
    }
    o->mopts.profile_from = a;
    o->mopts.profile_to = b;
    return 0;
}

STORE(set_timing, o->uopts.timing = o->mopts.timing =
                      v->choice ? HEXSIM_TIMING_CACHE : HEXSIM_TIMING_SIMPLE)

static int set_timing_param(struct cli_options *o, const struct cli_option *opt,
                            const struct cli_value *v, char *msg, size_t len)
{
    (void)opt;
    // (the message names the argument)
    return hexsim_timing_set_param(&o->tparams, v->text, msg, len) ? HEXSIM_EXIT_USAGE : 0;
}

STORE(set_timing_info, o->timing_info = true)

// --snapshot-at's N[,N...]: positive, ascending, at most HEXSIM_MAX_SNAPSHOTS.
static int set_snapshot_at(struct cli_options *o, const struct cli_option *opt,
                           const struct cli_value *v, char *msg, size_t len)
{
    o->nsnap = 0;
    for (const char *p = v->text;; p++) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(p, &end, 10);
        if (*p < '0' || *p > '9' || errno || n == 0 || (*end && *end != ',') ||
            o->nsnap == HEXSIM_MAX_SNAPSHOTS || (o->nsnap && n <= o->snap_at[o->nsnap - 1])) {
            snprintf(msg, len, "%s needs positive packet counts N[,N...] in ascending order "
                     "(at most %d), got '%s'", opt->name, HEXSIM_MAX_SNAPSHOTS, v->text);
            return HEXSIM_EXIT_USAGE;
        }
        o->snap_at[o->nsnap++] = n;
        if (!*end)
            return 0;
        p = end;
    }
}

STORE(set_snapshot_out, o->snapshot_out = v->text)
STORE(set_restore, o->restore = v->text)
STORE(set_record, o->record = v->text)
STORE(set_replay, o->replay = v->text)
STORE(set_debug, o->debug = o->dbg.stop_at_start = true)

static int add_debug_item(const char **list, unsigned *n, const struct cli_option *opt,
                          const char *v, char *msg, size_t len)
{
    if (*n >= HEXSIM_DBG_MAX_OPT) {
        snprintf(msg, len, "too many %s (at most %d)", opt->name, HEXSIM_DBG_MAX_OPT);
        return HEXSIM_EXIT_USAGE;
    }
    list[(*n)++] = v;
    return 0;
}

static int set_break(struct cli_options *o, const struct cli_option *opt,
                     const struct cli_value *v, char *msg, size_t len)
{
    o->debug = true;
    return add_debug_item(o->dbg.breaks, &o->dbg.nbreaks, opt, v->text, msg, len);
}

static int set_commands(struct cli_options *o, const struct cli_option *opt,
                        const struct cli_value *v, char *msg, size_t len)
{
    o->debug = true;
    o->dbg.stop_at_start = true;
    return add_debug_item(o->dbg.scripts, &o->dbg.nscripts, opt, v->text, msg, len);
}

// --gdb [HOST:]PORT with PORT 0-65535.
static int set_gdb(struct cli_options *o, const struct cli_option *opt,
                   const struct cli_value *v, char *msg, size_t len)
{
    const char *c = strrchr(v->text, ':');
    const char *p = c ? c + 1 : v->text;
    char *end;
    errno = 0;
    unsigned long port = strtoul(p, &end, 10);
    if (!(*p >= '0' && *p <= '9' && !*end && !errno && port <= 65535 && (!c || c > v->text))) {
        snprintf(msg, len, "%s needs [HOST:]PORT with PORT from 0 to 65535 (0: any free "
                 "port), got '%s'", opt->name, v->text);
        return HEXSIM_EXIT_USAGE;
    }
    o->dbg.gdb = v->text;
    o->debug = true;
    return 0;
}

STORE(set_initrd, o->initrd = v->text)
STORE(set_append, o->mopts.append = v->text)
STORE(set_mem, o->mopts.ram_size = v->n)
STORE(set_smp, o->mopts.smp = (unsigned)v->n)

static int set_rtc_base(struct cli_options *o, const struct cli_option *opt,
                        const struct cli_value *v, char *msg, size_t len)
{
    if (hexsim_rtc_parse(v->text, &o->mopts.rtc_base)) {
        snprintf(msg, len, "%s takes now, seconds since 1970 or YYYY-MM-DDTHH:MM:SS (UTC), "
                 "got '%s'", opt->name, v->text);
        return HEXSIM_EXIT_USAGE;
    }
    o->rtc_given = true;
    return 0;
}

static int set_rng_seed(struct cli_options *o, const struct cli_option *opt,
                        const struct cli_value *v, char *msg, size_t len)
{
    uint64_t *seed = &o->mopts.rng_seed;
    if (strcmp(v->text, "host") == 0) {
        if (getrandom(seed, sizeof(*seed), 0) != (ssize_t)sizeof(*seed)) {
            snprintf(msg, len, "%s host: getrandom: %s", opt->name, strerror(errno));
            return HEXSIM_EXIT_FILE;
        }
        return 0;
    }
    char *end;
    errno = 0;
    *seed = strtoull(v->text, &end, 0);
    if (*v->text == '\0' || *v->text == '-' || *end || errno) {
        snprintf(msg, len, "%s takes a number (decimal or 0x hex) or host, got '%s'", opt->name,
                 v->text);
        return HEXSIM_EXIT_USAGE;
    }
    return 0;
}

STORE(set_trace_hvm, o->mopts.trace_hvm = true)
STORE(set_trace_mmio, *(v->text ? &o->mopts.trace_mmio_all : &o->mopts.trace_mmio) = true)
STORE(set_clock, o->clock = v->choice == 0)   // wall|virtual

// --drive file=IMG[,...] (repeatable; the value parsed by virtio_blk_opts.c); the image
// itself is opened, checked and locked when the machine is made
static int set_drive(struct cli_options *o, const struct cli_option *opt,
                     const struct cli_value *v, char *msg, size_t len)
{
    (void)opt;
    if (o->mopts.ndrives == HEXSIM_VIRTIO_BLK_MAX) {
        snprintf(msg, len, "--drive: at most %d drives", HEXSIM_VIRTIO_BLK_MAX);
        return HEXSIM_EXIT_USAGE;
    }
    if (hexsim_drive_parse(v->text, &o->drives[o->mopts.ndrives], msg, len))
        return HEXSIM_EXIT_USAGE;
    o->mopts.drives = o->drives;
    o->mopts.ndrives++;
    return 0;
}

// --share DIR[,...] (repeatable; the value parsed by virtio_9p_opts.c); the directory is
// opened when the machine is made
static int set_share(struct cli_options *o, const struct cli_option *opt,
                     const struct cli_value *v, char *msg, size_t len)
{
    (void)opt;
    if (o->mopts.nshares == HEXSIM_VIRTIO_9P_MAX) {
        snprintf(msg, len, "--share: at most %d shared directories", HEXSIM_VIRTIO_9P_MAX);
        return HEXSIM_EXIT_USAGE;
    }
    if (hexsim_share_parse(v->text, o->mopts.nshares, &o->shares[o->mopts.nshares], msg, len))
        return HEXSIM_EXIT_USAGE;
    o->mopts.shares = o->shares;
    o->mopts.nshares++;
    return 0;
}

// --net SPEC; pcap=FILE is a file the run writes (checked before it starts)
static int set_net(struct cli_options *o, const struct cli_option *opt,
                   const struct cli_value *v, char *msg, size_t len)
{
    o->net = v->text;
    if (strncmp(v->text, "pcap=", 5) == 0) {
        if (o->nout == CLI_MAX_OUTPUTS) {
            snprintf(msg, len, "too many files to write; at most %d", CLI_MAX_OUTPUTS);
            return HEXSIM_EXIT_USAGE;
        }
        o->out_opt[o->nout] = opt;
        o->out_path[o->nout++] = v->text + 5;
    }
    return 0;
}

// --console: stdio, or sdl[,scale=1|2][,size=COLSxROWS][,solid][,font=FILE] (the window's
// limits of size, written once for the parser, the error and the help).
#define STR_(x) #x
#define STR(x) STR_(x)
#define SDL_COLS_MIN 20
#define SDL_COLS_MAX 256
#define SDL_ROWS_MIN 5
#define SDL_ROWS_MAX 128
#define SDL_SIZES STR(SDL_COLS_MIN) "x" STR(SDL_ROWS_MIN) " to " STR(SDL_COLS_MAX) "x" \
    STR(SDL_ROWS_MAX)

static bool parse_console(const char *v, struct cli_options *o)
{
    if (strcmp(v, "stdio") == 0) {
        o->console_sdl = false;
        return true;
    }
    if (strncmp(v, "sdl", 3) != 0 || (v[3] != '\0' && v[3] != ','))
        return false;
    o->console_sdl = true;
    for (const char *p = v + 3; *p == ',';) {
        p++;
        char *end;
        if (strncmp(p, "scale=", 6) == 0 && (p[6] == '1' || p[6] == '2')) {
            o->sdl.scale = (unsigned)(p[6] - '0');
            end = (char *)p + 7;
        } else if (strncmp(p, "size=", 5) == 0) {
            unsigned long c = strtoul(p + 5, &end, 10), r = 0;
            if (end != p + 5 && *end == 'x') {
                const char *q = end + 1;
                r = strtoul(q, &end, 10);
                if (end == q)
                    r = 0;
            }
            if (c < SDL_COLS_MIN || c > SDL_COLS_MAX || r < SDL_ROWS_MIN || r > SDL_ROWS_MAX)
                return false;
            o->sdl.cols = (unsigned)c;
            o->sdl.rows = (unsigned)r;
        } else if (strncmp(p, "solid", 5) == 0) {
            o->sdl.solid_cursor = true;
            end = (char *)p + 5;
        } else if (strncmp(p, "font=", 5) == 0 && p[5]) {
            o->sdl.font = p + 5;        // the rest: a file name may hold commas
            return true;
        } else {
            return false;
        }
        if (*end != '\0' && *end != ',')
            return false;
        p = end;
    }
    return true;
}

static int set_console(struct cli_options *o, const struct cli_option *opt,
                       const struct cli_value *v, char *msg, size_t len)
{
    if (!parse_console(v->text, o)) {
        snprintf(msg, len, "%s needs stdio or sdl[,scale=1|2][,size=COLSxROWS][,solid]"
                 "[,font=FILE] "
                 "(COLSxROWS from " SDL_SIZES "), got '%s'", opt->name, v->text);
        return HEXSIM_EXIT_USAGE;
    }
    return 0;
}

STORE(set_script, o->script = v->text)

#define T(t) CLI_TOPIC(CLI_T_##t)
#define TOPIC_WORDS "general|system|user|debug|timing|snapshot|network|console|all"

const struct cli_option cli_option_table[] = {
    // ---- general
    { .name = "--help", .short_name = "-h", .arg = "TOPIC", .optional_arg = true,
      .modes = CLI_BOTH, .topics = T(GENERAL), .kind = CLI_CHOICE, .choices = TOPIC_WORDS,
      .help = "print this help (or one TOPIC's in full) and exit",
      .more = "Without TOPIC: the usage, every option in one line and the exit statuses. "
              "With TOPIC (--help TOPIC or --help=TOPIC): the options of that topic in full; "
              "all gives every topic.",
      .set = set_help },
    { .name = "--version", .short_name = "-V", .modes = CLI_BOTH, .topics = T(GENERAL),
      .help = "print the version and exit", .set = set_version },
    { .name = "--mcpu", .arg = "vNN", .modes = CLI_BOTH, .topics = T(GENERAL),
      .kind = CLI_CUSTOM, .def = "from the ELF header",
      .help = "core version for decoding, v5 ... v73",
      .more = "v67t and v71t are the cores with the audio extension. System mode needs at "
              "least v67, the version of the userland.",
      .set = set_mcpu },
    { .name = "--max-packets", .arg = "N", .modes = CLI_BOTH, .topics = T(GENERAL),
      .kind = CLI_UINT, .min = 1, .max = UINT64_MAX,
      .help = "stop after N packets (exit status 124)",
      .more = "A run continued from a snapshot counts from the start of the saved run.",
      .set = set_max_packets },
    { .name = "--max-seconds", .arg = "N", .modes = CLI_BOTH, .topics = T(GENERAL),
      .kind = CLI_SECONDS, .help = "stop after N seconds of host time (exit status 124)",
      .set = set_max_seconds },
    { .name = "--no-jit", .modes = CLI_BOTH, .topics = T(GENERAL),
      .help = "interpret instead of compiling blocks to host code",
      .more = "User mode interprets straight runs of packets, system mode each packet on its "
              "own. x86-64 Linux hosts compile by default; the results are the same.",
      .set = set_no_jit },
    { .name = "--no-stencils", .modes = CLI_BOTH, .topics = T(GENERAL),
      .help = "compiled code calls the semantic functions",
      .more = "It holds no copy of their machine code then (to tell a suspected "
              "block-compiler bug; the results are the same).",
      .set = set_no_stencils },
    { .name = "--code-cache", .arg = "SIZE", .modes = CLI_BOTH, .topics = T(GENERAL),
      .kind = CLI_SIZE, .min = 64u << 10, .max = 1u << 30, .def = "64M",
      .help = "compiled code kept before the cache is flushed",
      .more = "In both modes; as much again is kept for the blocks.",
      .set = set_code_cache },
    { .name = "--jit-threshold", .arg = "N", .modes = CLI_BOTH, .topics = T(GENERAL),
      .kind = CLI_UINT, .min = 1, .max = 1000000, .def = "64",
      .help = "compile a block once it has run N times",
      .more = "1 compiles every block, as tests do.", .set = set_jit_threshold },
    { .name = "--perf-map", .modes = CLI_BOTH, .topics = T(GENERAL),
      .help = "write /tmp/perf-PID.map naming compiled blocks for Linux perf",
      .more = "One line per compiled block: its host code's address and size and the guest "
              "function and address it came from (\"FUNC+0xOFF [0xADDR]\", from the "
              "program's or the kernel's ELF symbols), so that `perf report` names guest "
              "code instead of [JIT]. Each forked process writes its own map.",
      .set = set_perf_map },

    // ---- user mode
    { .name = "--user", .arg = NULL, .modes = CLI_USER, .topics = T(USER),
      .help = "run the static Hexagon Linux program PROG with ARGS",
      .more = "hexsim options may stand before PROG; everything after PROG goes to the "
              "program. A guest fork is a host fork of hexsim (virtual pids 1, 2, ...); "
              "execve runs Hexagon programs and #! scripts only. In a child process "
              "--stats-json and --profile FILE write FILE.PID.",
      .set = set_user },
    { .name = "--host-time", .modes = CLI_USER, .topics = T(USER),
      .help = "clock system calls read the host clock",
      .more = "By default the time is derived from the simulated pcycle count, so runs "
              "are reproducible.",
      .set = set_host_time },
    { .short_name = "-L", .arg = "DIR", .modes = CLI_USER, .topics = T(USER),
      .kind = CLI_TEXT, .def = "$QEMU_LD_PREFIX",
      .help = "the guest root: where a dynamic PROG's loader and libraries are found",
      .more = "As qemu-user's -L (and like it, QEMU_LD_PREFIX when -L is not given). The "
              "loader named by PT_INTERP is looked up inside DIR only (links and .. stay "
              "in it); an absolute path the program opens is taken from DIR when it is "
              "there, else from the host, but /lib, /usr/lib and /usr/local/lib from DIR "
              "only. A dynamic PROG without a loader is refused with exit status 127.",
      .set = set_ld_prefix },
    { .name = "--strace", .modes = CLI_USER, .topics = T(USER),
      .help = "log the program's system calls, signals and exit on stderr",
      .more = "As strace does: decoded arguments, errno names.", .set = set_strace },

    // ---- timing and profiling
    { .name = "--stats", .modes = CLI_BOTH, .topics = T(TIMING),
      .help = "print a table of counters on stderr at exit",
      .more = "Packets, instructions, pcycles, stalls by cause, branches, caches (cache "
              "mode), device accesses, system calls, threads, thread switches and signals "
              "handled (user mode), interrupts and HVM calls by kind (system mode), host "
              "time, packets/s.",
      .set = set_stats },
    { .name = "--stats-json", .arg = "FILE", .modes = CLI_BOTH, .topics = T(TIMING),
      .kind = CLI_OUTFILE, .help = "write the --stats values to FILE as one JSON object",
      .set = set_stats_json },
    { .name = "--timing", .arg = "simple|cache", .modes = CLI_BOTH, .topics = T(TIMING),
      .kind = CLI_CHOICE, .choices = "simple|cache", .def = "simple",
      .help = "the timing model that drives the pcycle clock",
      .more = "simple: the pipeline (latencies, branch and hint penalties, fixed costs, "
              "thread turns); cache: also L1I, L1D and L2 caches (slower to simulate). "
              "See --timing-info.",
      .set = set_timing },
    { .name = "--timing-param", .arg = "NAME=VALUE", .modes = CLI_BOTH, .topics = T(TIMING),
      .kind = CLI_CUSTOM, .help = "change one model parameter (repeatable)",
      .more = "--timing-info lists the names, values and limits.", .set = set_timing_param },
    { .name = "--timing-info", .modes = CLI_BOTH, .topics = T(TIMING),
      .help = "print the model's parameters with their sources and exit",
      .set = set_timing_info },
    { .name = "--profile", .arg = "FILE", .modes = CLI_BOTH, .topics = T(TIMING),
      .kind = CLI_OUTFILE, .help = "write per-function pcycles (ELF symbols), sorted, to FILE",
      .more = "Also the folded call stacks to FILE.folded, their flame graph to FILE.svg "
              "and a speedscope profile (www.speedscope.app) to FILE.speedscope.json. In "
              "system mode with a Linux guest also each task's pcycles (user "
              "and kernel) to FILE.tasks, and guest user code is counted per task (its "
              "name, as the kernel keeps it) and shown as ADDRESS [TASK] unless "
              "--profile-symbols names it.",
      .set = set_profile },
    { .name = "--profile-symbols", .arg = "PROG[,PROG...]", .modes = CLI_SYSTEM,
      .topics = T(TIMING), .kind = CLI_TEXT,
      .help = "name guest user code in --profile by these programs' symbols (repeatable)",
      .more = "The user code of a guest task is named by the ELF program PROG (a host "
              "path) whose base name is the task's name (its comm: the name of the program "
              "it last ran, cut to 15 characters), so use unstripped copies of the guest's "
              "static programs. Programs run through links or scripts (BusyBox applets) "
              "take the link's name: give the ELF a copy or link by that name.",
      .set = set_profile_symbols },
    { .name = "--profile-range", .arg = "START:END", .modes = CLI_SYSTEM,
      .topics = T(TIMING), .kind = CLI_CUSTOM,
      .help = "profile only packets START to END-1 of the run (counted from 0)",
      .more = "The packet count is the one --max-packets and --stats use. Call stacks of "
              "the part start where the part begins.",
      .set = set_profile_range },

    // ---- snapshots, record and replay
    { .name = "--snapshot-at", .arg = "N[,N...]", .modes = CLI_BOTH, .topics = T(SNAPSHOT),
      .kind = CLI_CUSTOM, .help = "after N packets write a snapshot to --snapshot-out FILE",
      .more = "The whole process (--user: vCPU, memory, brk/mmap, descriptors) or machine "
              "(vCPUs, HVM, devices, RAM) is written, then the run goes on. With several N, "
              "FILE must hold %N, replaced by each N. A process with a host file open other "
              "than stdin/stdout/stderr, or one with child processes, is refused (only the "
              "first is saved). Not under the debugger (its savevm FILE does that).",
      .set = set_snapshot_at },
    { .name = "--snapshot-out", .arg = "FILE", .modes = CLI_BOTH, .topics = T(SNAPSHOT),
      .kind = CLI_OUTFILE, .help = "where --snapshot-at (and Ctrl-A s) write snapshots",
      .more = "%N in FILE is replaced by the packet count.", .set = set_snapshot_out },
    { .name = "--restore", .arg = "FILE", .modes = CLI_BOTH, .topics = T(SNAPSHOT),
      .kind = CLI_INFILE, .help = "continue the process or machine saved in FILE",
      .more = "With --user, its program and arguments come from FILE (give no PROG); in "
              "system mode instead of KERNEL, with --mem and --smp from it. Standard input "
              "and output, the console input and the network are this run's own. With "
              "--debug the debugger starts at the restored state (system mode: a KERNEL "
              "given then only supplies its symbols).",
      .set = set_restore },
    { .name = "--record", .arg = "FILE", .modes = CLI_SYSTEM, .topics = T(SNAPSHOT) | T(CONSOLE),
      .kind = CLI_OUTFILE, .help = "record every console input byte with its pcycle to FILE",
      .more = "Text: PCYCLE BYTE lines, the pcycle the guest took the byte at.",
      .set = set_record },
    { .name = "--replay", .arg = "FILE", .modes = CLI_SYSTEM, .topics = T(SNAPSHOT) | T(CONSOLE),
      .kind = CLI_INFILE, .help = "take the console input from a --record FILE",
      .more = "Each byte at its pcycle, so the run repeats the recorded one exactly.",
      .set = set_replay },

    // ---- debugger
    { .name = "--debug", .modes = CLI_BOTH, .topics = T(DEBUG),
      .help = "stop before the first packet and read debugger commands",
      .more = "GNU readline on a terminal, else lines from stdin.", .set = set_debug },
    { .name = "--break", .arg = "LOC", .modes = CLI_BOTH, .topics = T(DEBUG),
      .kind = CLI_TEXT, .help = "breakpoint at LOC (SYM, SYM+OFF or ADDR), then run to it",
      .more = "Repeatable (at most 16).", .set = set_break },
    { .short_name = "-x", .arg = "FILE", .modes = CLI_BOTH, .topics = T(DEBUG),
      .kind = CLI_INFILE, .help = "run the debugger commands in FILE first",
      .more = "Implies --debug. Repeatable (at most 16).", .set = set_commands },
    { .name = "--gdb", .arg = "[HOST:]PORT", .modes = CLI_BOTH, .topics = T(DEBUG),
      .kind = CLI_CUSTOM, .def = "host 127.0.0.1",
      .help = "serve the GDB remote protocol (gdb, lldb-16) on HOST:PORT",
      .more = "Port 0: any free port.", .set = set_gdb },

    // ---- system mode
    { .name = "--initrd", .arg = "FILE", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_INFILE, .def = "without KERNEL, the build's rootfs.cpio",
      .help = "initial RAM disk",
      .more = "Placed page-aligned above the kernel and announced as initrd=0xADDR,SIZE on "
              "the command line.",
      .set = set_initrd },
    { .name = "--append", .arg = "CMDLINE", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_TEXT, .max = HEXSIM_CMDLINE_MAX - 1, .help = "kernel command line",
      .more = "console=ttyMSM2,115200n8 and mem=SIZE are added unless it has console= or "
              "mem=; the limit is that of the whole command line.",
      .why = "Linux/Hexagon's COMMAND_LINE_SIZE", .set = set_append },
    { .name = "--mem", .arg = "SIZE", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_SIZE, .min = 32u << 20, .max = HEXSIM_RAM_TOP - HEXSIM_RAM_BASE,
      .align = 4096, .def = "256M", .help = "guest RAM, e.g. 256M",
      .why = "Linux 6.1 panics at boot with less than 32 MiB; the Comet map ends at 768M",
      .set = set_mem },
    { .name = "--smp", .arg = "N", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_UINT, .min = 1, .max = HEXSIM_MAX_VCPUS, .def = "1",
      .help = "number of vCPUs",
      .more = "The project's kernel brings up one CPU per vCPU, at most 6.", .set = set_smp },
    { .name = "--rng-seed", .arg = "N|host", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_CUSTOM, .choices = "host", .def = "0, so runs are reproducible",
      .help = "seed of the entropy device",
      .more = "The device is a virtio-rng on virtio-mmio, which seeds the kernel's RNG at "
              "boot; host: a random seed.",
      .set = set_rng_seed },
    { .name = "--rtc-base", .arg = "now|SECONDS|YYYY-MM-DDTHH:MM:SS", .modes = CLI_SYSTEM,
      .topics = T(SYSTEM), .kind = CLI_CUSTOM, .choices = "now",
      .def = "the host's time with the wall clock (--clock), else 2024-01-01T00:00:00",
      .help = "the date (UTC) the guest's clock starts at",
      .more = "The project's /init sets the clock from it at boot (init.date= on the kernel "
              "command line). The default with the virtual clock is a fixed date, so runs "
              "repeat.",
      .set = set_rtc_base },
    { .name = "--drive", .arg = "file=IMG[,readonly=on][,cache=writethrough]",
      .modes = CLI_SYSTEM, .topics = T(SYSTEM), .kind = CLI_CUSTOM,
      .choices = "file=|format=raw|readonly=on|cache=writeback|cache=writethrough",
      .help = "a raw disk image as a virtio block device (/dev/vda, vdb, ...; up to 4)",
      .more = "Repeatable. readonly=on refuses the guest's writes; cache=writethrough syncs "
              "the image after every write (default writeback: at the guest's flush, "
              "fdatasync). The image is locked against a second writer; an empty, "
              "partial-sector, truncated or qcow2 image is refused before boot. Boot from "
              "one with --append root=/dev/vda (docs/guide/disks.md). A snapshot of a "
              "machine with a writable drive is refused.",
      .set = set_drive },
    { .name = "--share", .arg = "DIR[,tag=NAME][,readonly=on]",
      .modes = CLI_SYSTEM, .topics = T(SYSTEM), .kind = CLI_CUSTOM,
      .help = "a host directory shared into the guest (virtio-9p, 9P2000.L; up to 2)",
      .more = "Repeatable. The guest mounts it with mount -t 9p -o trans=virtio NAME /mnt "
              "(NAME: tag=, default hexsim0 for the first --share, hexsim1 for the second). "
              "The guest cannot reach outside DIR (every path is resolved beneath it, no "
              "symbolic link is followed on the host); readonly=on refuses every change; "
              "files the guest makes belong to the user running hexsim (owner changes are "
              "ignored). A snapshot of a machine with a share is refused (README: Shared "
              "directories).",
      .set = set_share },
    { .name = "--clock", .arg = "wall|virtual", .modes = CLI_SYSTEM, .topics = T(SYSTEM),
      .kind = CLI_CHOICE, .choices = "wall|virtual",
      .def = "wall when stdin is a terminal, with --console sdl and with --net user; else "
             "(pipes, files, --script, --replay) virtual",
      .help = "how guest time passes while every vCPU waits",
      .more = "wall follows the host's clock (a guest 'sleep 1' takes about a second, an "
              "idle guest costs no host CPU); virtual skips idle time at once, so the run, "
              "its output and its packet counts depend only on its input. Under either, the "
              "guest's clock advances by the timing model while the guest computes.",
      .set = set_clock },
    { .name = "--trace-hvm", .modes = CLI_SYSTEM, .topics = T(SYSTEM) | T(DEBUG),
      .help = "log every trap1 call and event on stderr", .set = set_trace_hvm },
    { .name = "--trace-mmio", .arg = "all", .optional_arg = true, .modes = CLI_SYSTEM,
      .topics = T(SYSTEM) | T(DEBUG), .kind = CLI_CHOICE, .choices = "all",
      .help = "report accesses to undefined device registers (once each)",
      .more = "--trace-mmio=all also logs every device register access on stderr.",
      .set = set_trace_mmio },

    // ---- network
    { .name = "--net", .arg = "SPEC", .modes = CLI_SYSTEM, .topics = T(NETWORK),
      .kind = CLI_TEXT, .choices = "none|pcap=|user|user,hostfwd=tcp::", .def = "none",
      .help = "the Ethernet backend: none, pcap=FILE or user[,hostfwd=tcp::HPORT-:GPORT]",
      .more = "pcap=FILE records the frames the guest sends. user is libslirp: the guest "
              "gets 10.0.2.15 by DHCP, 10.0.2.2 is the host's 127.0.0.1, DNS 10.0.2.3; "
              "hostfwd forwards 127.0.0.1:HPORT on the host to the guest's GPORT.",
      .set = set_net },

    // ---- console
    { .name = "--console", .arg = "stdio|sdl[,scale=2][,size=COLSxROWS][,solid][,font=FILE]",
      .modes = CLI_SYSTEM, .topics = T(CONSOLE), .kind = CLI_CUSTOM,
      .choices = "stdio|sdl|sdl,scale=2|sdl,solid", .def = "stdio",
      .help = "the console and angel output: the terminal, or with --console sdl a window",
      .more = "sdl shows them in a window, a terminal of 80x25 (or COLSxROWS, " SDL_SIZES
              ") characters with a blinking (solid: steady) cursor, drawn with a Linux "
              "console font in PSF format: /usr/share/consolefonts/Uni2-VGA16.psf.gz "
              "(Debian's console-setup-linux; 8x16 pixels, scale=2: 16x32) or font=FILE, "
              "which takes the rest of the value. Its keyboard is the console's input and "
              "closing it quits. "
              "Test hooks: HEXSIM_SDL_TYPE=TEXT types TEXT into the window from the start, "
              "HEXSIM_SDL_DUMP=FILE writes the final screen to FILE as text. "
              "SDL_VIDEODRIVER=offscreen runs without a display. Without a display (and "
              "that), without the font, or in a build without SDL2 or libvterm, hexsim "
              "says so and exits with status 2.",
      .set = set_console },
    { .name = "--script", .arg = "FILE", .modes = CLI_SYSTEM, .topics = T(CONSOLE),
      .kind = CLI_INFILE, .help = "type FILE's lines on the console, one at each prompt",
      .more = "Each line when the guest waits for input after writing (its prompt); then "
              "input continues from stdin (or the SDL window).",
      .set = set_script },
    { .help = NULL },   // the end
};

const struct cli_topic_info cli_topics[CLI_NTOPICS] = {
    [CLI_T_GENERAL] = { "general", "Options of both modes", NULL, NULL },
    [CLI_T_SYSTEM] = { "system", "System mode",
        "System mode runs the kernel ELF KERNEL under the Hexagon Virtual Machine on the "
        "Comet board model (RAM from physical 0, RTOS timer, SIRC, UART3 console, SMSC911x "
        "Ethernet; console and angel output where --console says). Without KERNEL it boots "
        "the project's kernel, $HEXSIM_CACHE/linux/build/vmlinux (default cache "
        "~/.cache/hexsim, then the install's share/hexsim; guest/linux/build.sh builds it), "
        "with --initrd defaulting to the build's rootfs.cpio.", NULL },
    [CLI_T_USER] = { "user", "Linux user mode",
        "hexsim --user PROG [ARGS...] runs one static Hexagon Linux program (musl) as a host "
        "process would, its system calls served by hexsim.", NULL },
    [CLI_T_DEBUG] = { "debug", "Debugger (user and system mode; see src/debug/README.md)",
        NULL,
        "The debugger's commands savevm FILE and loadvm FILE write and load snapshots "
        "(--snapshot-at does not combine with the debugger; --restore does)." },
    [CLI_T_TIMING] = { "timing", "Timing and profiling", NULL, NULL },
    [CLI_T_SNAPSHOT] = { "snapshot",
        "Snapshots, record and replay (format: src/snap/snap_file.c)", NULL,
        "In system mode Ctrl-A s writes a snapshot of the machine now (to --snapshot-out "
        "FILE, else hexsim-N.snap; N the packet count; --restore shows the line it was "
        "taken at)." },
    [CLI_T_NETWORK] = { "network", "Network (system mode)", NULL, NULL },
    [CLI_T_CONSOLE] = { "console", "Console (system mode)", NULL,
        "With --console stdio the serial console (UART3) and angel output use the terminal: "
        "on a tty in raw mode, where Ctrl-A x quits, Ctrl-A h helps, Ctrl-A s writes a "
        "snapshot and Ctrl-A d stops the guest in the debugger (with --debug, -x or "
        "--break; Ctrl-C goes to the guest); a pipe or file on stdin is passed to the guest "
        "as is, and its end reaches the guest as a terminal's end of file: Ctrl-D, typed at "
        "the guest's prompt (output not ending in a newline), so a shell exits and the "
        "project's init powers off. If the guest is at a prompt again after 3 of them, "
        "hexsim stops with exit status 3." },
};

const char *const cli_usage_lines[] = {
    "hexsim [OPTIONS] [KERNEL [--initrd FILE]]  (system mode)",
    "hexsim [OPTIONS] --user PROG [ARGS...]  (Linux user mode)",
    "hexsim [OPTIONS] [--user] --restore FILE  (continue a snapshot)",
    NULL,
};

const char cli_description[] =
    "hexsim is a simulator of the Qualcomm Hexagon DSP and its Comet board.";
