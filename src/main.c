// SPDX-License-Identifier: MIT
// The hexsim command line. User mode (`--user PROG [ARGS...]`) runs a static Hexagon Linux
// program; system mode (`KERNEL [--initrd FILE] ...`) boots a kernel ELF under the HVM on
// the Comet board model (include/hexsim/machine.h).
// Options are parsed by hand into a local struct so that no state outlives main (getopt
// would keep its own globals).
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <unistd.h>

#include "debug/rl_editor.h"
#include "debug/session.h"
#include "hexsim/arch.h"
#include "hexsim/boot_env.h"
#include "hexsim/host.h"
#include "hexsim/machine.h"
#include "hexsim/sdl_console.h"
#include "hexsim/snapshot.h"
#include "hexsim/version.h"
#include "hvm/dbg_target.h"
#include "user/dbg_target.h"
#include "user/user.h"

// Exit statuses; the usage text lists them, so keep the two in step.
enum {
    HEXSIM_EXIT_OK = 0,
    HEXSIM_EXIT_FILE = 1,  // a file named on the command line cannot be read or loaded
    HEXSIM_EXIT_USAGE = 2, // bad command line, or a mode that is not implemented yet
};

#define HEXSIM_MAX_SNAPSHOTS 64

struct cli_options {
    bool help;
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
    bool rtc_given;              // --rtc-base (opts->mopts.rtc_base; HEXSIM_RTC_NOW: now)
    bool default_kernel;         // no KERNEL: the project's (said once it is loaded)
};

// Parses the value of --console: stdio, or sdl[,scale=1|2][,size=COLSxROWS][,solid].
static bool parse_console(const char *v, struct cli_options *opts)
{
    if (strcmp(v, "stdio") == 0) {
        opts->console_sdl = false;
        return true;
    }
    if (strncmp(v, "sdl", 3) != 0 || (v[3] != '\0' && v[3] != ','))
        return false;
    opts->console_sdl = true;
    for (const char *p = v + 3; *p == ',';) {
        p++;
        char *end;
        if (strncmp(p, "scale=", 6) == 0 && (p[6] == '1' || p[6] == '2')) {
            opts->sdl.scale = (unsigned)(p[6] - '0');
            end = (char *)p + 7;
        } else if (strncmp(p, "size=", 5) == 0) {
            unsigned long c = strtoul(p + 5, &end, 10), r = 0;
            if (end != p + 5 && *end == 'x') {
                const char *q = end + 1;
                r = strtoul(q, &end, 10);
                if (end == q)
                    r = 0;
            }
            if (c < 20 || c > 256 || r < 5 || r > 128)
                return false;
            opts->sdl.cols = (unsigned)c;
            opts->sdl.rows = (unsigned)r;
        } else if (strncmp(p, "solid", 5) == 0) {
            opts->sdl.solid_cursor = true;
            end = (char *)p + 5;
        } else {
            return false;
        }
        if (*end != '\0' && *end != ',')
            return false;
        p = end;
    }
    return true;
}

// Parses SIZE[K|M|G] (bytes without a suffix); returns 0 on error.
static uint64_t parse_size(const char *v)
{
    char *end;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 0);
    if (*v == '\0' || *v == '-' || errno || end == v)
        return 0;
    switch (*end) {
    case 'k': case 'K': n <<= 10; end++; break;
    case 'm': case 'M': n <<= 20; end++; break;
    case 'g': case 'G': n <<= 30; end++; break;
    default: break;
    }
    return *end ? 0 : n;
}

// Parses --snapshot-at's N[,N...] (ascending) into opts; false on error.
static bool parse_points(const char *v, struct cli_options *opts)
{
    opts->nsnap = 0;
    for (const char *p = v;; p++) {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(p, &end, 10);
        if (*p < '0' || *p > '9' || errno || n == 0 || (*end && *end != ',') ||
            opts->nsnap == HEXSIM_MAX_SNAPSHOTS ||
            (opts->nsnap && n <= opts->snap_at[opts->nsnap - 1]))
            return false;
        opts->snap_at[opts->nsnap++] = n;
        if (!*end)
            return true;
        p = end;
    }
}

// The snapshot file for the point at packet n: pattern with its first %N replaced by n.
static void snapshot_path(char *buf, size_t len, const char *pattern, uint64_t n)
{
    const char *k = strstr(pattern, "%N");
    if (!k)
        snprintf(buf, len, "%s", pattern);
    else
        snprintf(buf, len, "%.*s%llu%s", (int)(k - pattern), pattern, (unsigned long long)n,
                 k + 2);
}

#define USAGE_LINES \
    "Usage: hexsim [OPTIONS] [KERNEL [--initrd FILE]]  (system mode)\n" \
    "       hexsim [OPTIONS] --user PROG [ARGS...]  (Linux user mode)\n" \
    "       hexsim [OPTIONS] [--user] --restore FILE  (continue a snapshot)\n"

// After a command-line mistake: the usage lines and where the rest is, so that the message
// stays in sight.
static void print_brief_usage(FILE *out)
{
    fputs(USAGE_LINES "Run 'hexsim --help' for the options.\n", out);
}

static void print_usage(FILE *out)
{
    fputs(USAGE_LINES
          "\n"
          "hexsim is a simulator of the Qualcomm Hexagon DSP and its Comet board.\n"
          "\n"
          "Options:\n"
          "  -h, --help           print this help and exit\n"
          "  -V, --version        print the version and exit\n"
          "      --user PROG ...  run the static Hexagon Linux program PROG with ARGS;\n"
          "                       hexsim options may stand before PROG, everything\n"
          "                       after PROG goes to the program. A guest fork is a host\n"
          "                       fork of hexsim (virtual pids 1, 2, ...); execve runs\n"
          "                       Hexagon programs and #! scripts only. In a child process\n"
          "                       --stats-json and --profile FILE write FILE.PID\n"
          "      --mcpu vNN       core version for decoding, v5 ... v73 (v67t, v71t: with\n"
          "                       the audio extension; default: from the ELF header;\n"
          "                       system mode: at least v67, the version of the userland)\n"
          "      --max-packets N  stop after N packets (exit status 124; a run continued\n"
          "                       from a snapshot counts from the start of the saved run)\n"
          "      --max-seconds N  stop after N seconds of host time (exit status 124)\n"
          "      --host-time      clock system calls read the host clock (default: time\n"
          "                       derived from the simulated pcycle count, reproducible)\n"
          "      --strace         log the program's system calls, signals and exit on\n"
          "                       stderr as strace does (decoded arguments, errno names)\n"
          "      --no-jit         interpret straight runs of packets (user mode), or each\n"
          "                       packet on its own (system mode), instead of compiling\n"
          "                       them to host code (x86-64 Linux hosts compile by\n"
          "                       default; results are the same)\n"
          "      --no-stencils    compiled code calls each instruction's semantic\n"
          "                       function instead of holding a copy of its machine code\n"
          "                       (to tell a suspected block-compiler bug; results are the\n"
          "                       same)\n"
          "      --code-cache SIZE  compiled code kept before the cache is\n"
          "                       flushed, e.g. 64M (the default, in both modes;\n"
          "                       as much again for the blocks; at least 64K, at most 1G)\n"
          "      --jit-threshold N  compile a block once it has run N times\n"
          "                       (default 64; 1 compiles every block, as tests do)\n"
          "      --stats          print a table on stderr at exit: packets, instructions,\n"
          "                       pcycles, stalls by cause, branches, caches (cache mode),\n"
          "                       device accesses, system calls, threads, thread switches\n"
          "                       and signals handled (user mode), interrupts\n"
          "                       and HVM calls by kind (system mode), host time, packets/s\n"
          "      --stats-json FILE  write the same values to FILE as one JSON object\n"
          "      --timing=simple|cache  the timing model that drives the pcycle clock (see\n"
          "                       --timing-info): simple (default; the pipeline: latencies,\n"
          "                       branch and hint penalties, fixed costs, thread turns) or\n"
          "                       cache (also L1I, L1D and L2 caches; slower to simulate)\n"
          "      --timing-param NAME=VALUE  change one model parameter (repeatable)\n"
          "      --timing-info    print the model's parameters with their sources and exit\n"
          "      --profile FILE   write per-function pcycles (ELF symbols), sorted, to FILE\n"
          "                       folded call stacks to FILE.folded and their flame\n"
          "                       graph to FILE.svg\n"
          "\n"
          "Snapshots (user and system mode; format: src/snap/snap_file.c):\n"
          "      --snapshot-at N[,N...] --snapshot-out FILE\n"
          "                       after N packets write the whole process (--user: vCPU,\n"
          "                       memory, brk/mmap, descriptors) or machine (vCPUs, HVM,\n"
          "                       devices, RAM) to FILE, then go on; with several N, FILE\n"
          "                       must hold %N, replaced by each N. A process with a host\n"
          "                       file open other than stdin/stdout/stderr, or one with\n"
          "                       child processes, is refused (only the first is saved)\n"
          "      --restore FILE   continue the process or machine saved in FILE: with\n"
          "                       --user, its program and arguments come from FILE (give\n"
          "                       no PROG); in system mode instead of KERNEL, with --mem\n"
          "                       and --smp from it. Standard input and output, the\n"
          "                       console input and the network are this run's own. With\n"
          "                       --debug the debugger starts at the restored state (system\n"
          "                       mode: a KERNEL given then only supplies its symbols)\n"
          "\n"
          "Debugger (user and system mode; see src/debug/README.md):\n"
          "      --debug          stop before the first packet and read debugger commands\n"
          "                       (GNU readline on a terminal, else lines from stdin)\n"
          "      --break LOC      breakpoint at LOC (SYM, SYM+OFF or ADDR), then run to it\n"
          "  -x FILE              run the debugger commands in FILE first (implies --debug)\n"
          "      --gdb [HOST:]PORT  serve the GDB remote protocol (gdb, lldb-16) on\n"
          "                       HOST:PORT (default host 127.0.0.1; port 0: any free port)\n"
          "The debugger's commands savevm FILE and loadvm FILE write and load snapshots\n"
          "(--snapshot-at does not combine with the debugger; --restore does).\n"
          "\n"
          "System mode runs the kernel ELF KERNEL under the Hexagon Virtual Machine on the\n"
          "Comet board model (RAM from physical 0, RTOS timer, SIRC, UART3 console,\n"
          "SMSC911x Ethernet; console and angel output where --console says). Without\n"
          "KERNEL it boots the project's kernel, $HEXSIM_CACHE/linux/build/vmlinux\n"
          "(default cache ~/.cache/hexsim; guest/linux/build.sh builds it), with --initrd\n"
          "defaulting to the build's rootfs.cpio:\n"
          "      --initrd FILE    initial RAM disk, placed page-aligned above the kernel and\n"
          "                       announced as initrd=0xADDR,SIZE on the command line\n"
          "      --append CMDLINE kernel command line; console=ttyMSM2,115200n8 and mem=SIZE\n"
          "                       are added unless it has console= or mem= (at most 511\n"
          "                       bytes in all)\n"
          "      --mem SIZE       guest RAM, e.g. 256M (default 256M, 32M to 768M)\n"
          "      --smp N          number of vCPUs (default 1, at most 8; the project's kernel\n"
          "                       brings up one CPU per vCPU, at most 6)\n"
          "      --rng-seed N|host  seed of the entropy device (a virtio-rng on\n"
          "                       virtio-mmio, which seeds the kernel's RNG at boot);\n"
          "                       default 0, so runs are reproducible; host: a random seed\n"
          "      --rtc-base now|SECONDS|YYYY-MM-DDTHH:MM:SS\n"
          "                       the date (UTC) the guest's clock starts at (/init sets\n"
          "                       it); default: the host's time with the wall clock\n"
          "                       (--clock), else 2024-01-01T00:00:00, so runs repeat\n"
          "      --trace-hvm      log every trap1 call and event on stderr\n"
          "      --trace-mmio     report accesses to undefined device registers (once each)\n"
          "      --trace-mmio=all also log every device register access on stderr\n"
          "      --net SPEC       Ethernet backend: none (default); pcap=FILE (record the\n"
          "                       frames the guest sends); user[,hostfwd=tcp::HPORT-:GPORT]\n"
          "                       (libslirp: the guest gets 10.0.2.15 by DHCP, 10.0.2.2 is\n"
          "                       the host's 127.0.0.1, DNS 10.0.2.3; hostfwd forwards\n"
          "                       127.0.0.1:HPORT on the host to the guest's GPORT)\n"

          "      --record FILE    write every console input byte with the pcycle the\n"
          "                       guest took it at to FILE (text: PCYCLE BYTE lines)\n"
          "      --replay FILE    take the console input from such a FILE, each byte at\n"
          "                       its pcycle, so the run repeats the recorded one exactly\n"
          "      --script FILE    type FILE's lines on the console one at a time, each when\n"
          "                       the guest waits for input after writing (its prompt);\n"
          "                       then input continues from stdin (or the SDL window)\n"
          "      --clock wall|virtual  how guest time passes while every vCPU waits:\n"
          "                       wall follows the host's clock (a guest 'sleep 1' takes\n"
          "                       about a second, an idle guest costs no host CPU); virtual\n"
          "                       skips idle time at once, so the run, its output and its\n"
          "                       packet counts depend only on its input. Default: wall\n"
          "                       when stdin is a terminal, with --console sdl and with\n"
          "                       --net user; else (pipes, files, --script, --replay)\n"
          "                       virtual. Under either, the guest's clock advances by\n"
          "                       the timing model while the guest computes\n"
          "      --console stdio  the serial console and angel output on the terminal\n"
          "                       (default; see below)\n"
          "      --console sdl[,scale=2][,size=COLSxROWS][,solid]\n"
          "                       show them in an SDL2 window, a terminal of 80x25 (or\n"
          "                       COLSxROWS, 20x5 to 256x128) characters of 8x16 pixels\n"
          "                       (scale=2: 16x32) with a blinking (solid: steady) cursor;\n"
          "                       its keyboard is the console's input and closing it quits.\n"
          "                       Test hooks: HEXSIM_SDL_TYPE=TEXT types TEXT into the\n"
          "                       window from the start, HEXSIM_SDL_DUMP=FILE writes the\n"
          "                       final screen to FILE as text. SDL_VIDEODRIVER=offscreen\n"
          "                       runs without a display. Without a display (and that),\n"
          "                       or in a build without SDL2, hexsim says so and exits\n"
          "                       with status 2\n"
          "With --console stdio the serial console (UART3) and angel output use the\n"
          "terminal: on a tty in raw mode, where Ctrl-A x quits, Ctrl-A h helps,\n"
          "Ctrl-A s writes a snapshot of the machine now (to --snapshot-out FILE, else\n"
          "hexsim-N.snap; N the packet count; --restore shows the line it was taken at)\n"
          "and Ctrl-A d stops the guest in the debugger (with --debug, -x or --break;\n"
          "Ctrl-C goes to the guest); a pipe or file on stdin is passed to the guest as is,\n"
          "and its end reaches the guest as a terminal's end of file: Ctrl-D, typed at\n"
          "the guest's prompt (output not ending in a newline), so a shell exits and the\n"
          "project's init powers off. If the guest is at a prompt again after 3 of them,\n"
          "hexsim stops with exit status 3.\n"
          "\n"
          "Exit status:\n"
          "  0    help or version printed; system mode: every vCPU stopped (vmstop)\n"
          "  1    a file named on the command line cannot be read or loaded (a damaged,\n"
          "       cut or foreign snapshot, or one of the other mode, included)\n"
          "  2    usage error; --console sdl without SDL2 in the build or without a display\n"
          "  3    system mode: an event the guest cannot handle, an instruction hexsim\n"
          "       does not implement yet, or every vCPU waiting with nothing to wake it\n"
          "       (the console input over, the guest still at its prompt: see above)\n"
          "  4    system mode: the guest reported a failure (angel SYS_EXIT with an error\n"
          "       reason; the Comet kernel does this on a panic)\n"
          "  124  a --max-packets or --max-seconds limit stopped the run\n"
          "  137  --gdb: the debugger killed the program (lldb's kill; 128+SIGKILL)\n"
          "  --user: the program's exit status, or 128+N when it is ended by signal N\n"
          "  (a fault: SIGSEGV 139, SIGBUS 135, SIGILL 132, SIGTRAP 133)\n",
          out);
}

// Reports a command-line mistake followed by the usage lines, both on stderr.
static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "hexsim: %s '%s'\n\n", what, arg);
    print_brief_usage(stderr);
    return HEXSIM_EXIT_USAGE;
}

// Options of system mode only: refused with --user rather than ignored.
static const char *system_option(const char *arg)
{
    static const char *const names[] = { "--initrd", "--append", "--mem", "--smp", "--net",
                                         "--script", "--console", "--trace-hvm", "--trace-mmio",
                                         "--clock", "--rng-seed", "--record", "--replay",
                                         "--rtc-base" };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        size_t n = strlen(names[i]);
        if (strncmp(arg, names[i], n) == 0 && (arg[n] == '\0' || arg[n] == '='))
            return names[i];
    }
    return NULL;
}

// True when v is [HOST:]PORT with PORT 0-65535.
static bool valid_gdb_address(const char *v)
{
    const char *c = strrchr(v, ':');
    const char *p = c ? c + 1 : v;
    char *end;
    errno = 0;
    unsigned long port = strtoul(p, &end, 10);
    return *p >= '0' && *p <= '9' && !*end && !errno && port <= 65535 && (!c || c > v);
}

// Fills *opts from argv. Returns HEXSIM_EXIT_OK, or the exit status after reporting.
static int parse_args(int argc, char **argv, struct cli_options *opts)
{
    bool options_done = false;
    bool user = false;
    const char *sys_opt = NULL;        // the first system-mode option given

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && !(user && arg[0] != '-') && !sys_opt)
            sys_opt = system_option(arg);

        if (user && (options_done || arg[0] != '-' || arg[1] == '\0')) {
            opts->user_argi = i;   // PROG: it and everything after belong to the program
            break;
        } else if (strcmp(arg, "--user") == 0 && !options_done) {
            user = true;
            opts->user = true;
        } else if ((strcmp(arg, "--max-packets") == 0 || strcmp(arg, "--max-seconds") == 0 ||
                    strcmp(arg, "--mcpu") == 0) && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            char *end;
            errno = 0;
            if (arg[2] == 'm' && arg[3] == 'c') {
                unsigned a = hexsim_arch_parse(v);
                if (!a)
                    return usage_error("unknown core version (v5, v55, v60 ... v73, v67t, "
                                       "v71t):", v);
                opts->uopts.arch = a;
                opts->mopts.arch = a;
            } else if (arg[6] == 'p') {
                unsigned long long n = strtoull(v, &end, 10);
                if (*v == '\0' || *end || errno || n == 0 || v[0] == '-')
                    return usage_error("--max-packets needs a positive number, got", v);
                opts->uopts.max_packets = n;
                opts->mopts.max_packets = n;
            } else {
                double d = strtod(v, &end);
                if (*v == '\0' || *end || errno || !(d > 0))
                    return usage_error("--max-seconds needs a positive number, got", v);
                opts->uopts.max_seconds = d;
                opts->mopts.max_seconds = d;
            }
        } else if ((strcmp(arg, "--break") == 0 || strcmp(arg, "-x") == 0 ||
                    strcmp(arg, "--gdb") == 0) && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            struct hexsim_dbg_options *d = &opts->dbg;
            if (arg[1] == 'x' || arg[2] == 'b') {
                const char **list = arg[1] == 'x' ? d->scripts : d->breaks;
                unsigned *n = arg[1] == 'x' ? &d->nscripts : &d->nbreaks;
                if (*n >= HEXSIM_DBG_MAX_OPT)
                    return usage_error("too many", arg);
                list[(*n)++] = v;
                if (arg[1] == 'x')
                    d->stop_at_start = true;
            } else {
                if (!valid_gdb_address(v))
                    return usage_error("--gdb needs [HOST:]PORT with PORT from 0 to 65535 (0: "
                                       "any free port), got", v);
                d->gdb = v;
            }
            opts->debug = true;
        } else if (strcmp(arg, "--debug") == 0 && !options_done) {
            opts->debug = true;
            opts->dbg.stop_at_start = true;
        } else if (strcmp(arg, "--host-time") == 0 && !options_done) {
            opts->uopts.host_time = true;
        } else if (strcmp(arg, "--strace") == 0 && !options_done) {
            opts->uopts.strace = true;
        } else if (strcmp(arg, "--no-jit") == 0 && !options_done) {
            opts->uopts.no_jit = opts->mopts.no_jit = true;
        } else if (strcmp(arg, "--no-stencils") == 0 && !options_done) {
            opts->uopts.no_stencils = opts->mopts.no_stencils = true;
        } else if (strcmp(arg, "--code-cache") == 0 && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            uint64_t n = parse_size(argv[++i]);
            if (n < (64u << 10) || n > (1u << 30))
                return usage_error("--code-cache needs a size from 64K to 1G, got", argv[i]);
            opts->uopts.code_cache = opts->mopts.code_cache = (size_t)n;
        } else if (strcmp(arg, "--jit-threshold") == 0 && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            char *end;
            const char *v = argv[++i];
            unsigned long n = strtoul(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || n < 1 || n > 1000000)
                return usage_error("--jit-threshold needs a number from 1 to 1000000, got", v);
            opts->uopts.jit_threshold = opts->mopts.jit_threshold = (unsigned)n;
        } else if (strcmp(arg, "--stats") == 0 && !options_done) {
            opts->uopts.stats = true;
            opts->mopts.stats = true;
        } else if ((strcmp(arg, "--stats-json") == 0 || strcmp(arg, "--profile") == 0 ||
                    strcmp(arg, "--timing-param") == 0 || strcmp(arg, "--timing") == 0) &&
                   !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            if (arg[2] == 's') {
                opts->uopts.stats_json = opts->mopts.stats_json = v;
            } else if (arg[2] == 'p') {
                opts->uopts.profile = opts->mopts.profile = v;
            } else if (strcmp(arg, "--timing") == 0) {
                if (strcmp(v, "simple") != 0 && strcmp(v, "cache") != 0)
                    return usage_error("--timing takes simple or cache, got", v);
                opts->uopts.timing = opts->mopts.timing =
                    v[0] == 's' ? HEXSIM_TIMING_SIMPLE : HEXSIM_TIMING_CACHE;
            } else {
                char msg[300];
                if (hexsim_timing_set_param(&opts->tparams, v, msg, sizeof msg)) {
                    fprintf(stderr, "hexsim: %s\n\n", msg);   // (it names the argument)
                    print_brief_usage(stderr);
                    return HEXSIM_EXIT_USAGE;
                }
            }
        } else if (strncmp(arg, "--timing=", 9) == 0 && !options_done) {
            if (strcmp(arg + 9, "simple") != 0 && strcmp(arg + 9, "cache") != 0)
                return usage_error("--timing takes simple or cache, got", arg + 9);
            opts->uopts.timing = opts->mopts.timing =
                arg[9] == 's' ? HEXSIM_TIMING_SIMPLE : HEXSIM_TIMING_CACHE;
        } else if (strcmp(arg, "--timing-info") == 0 && !options_done) {
            opts->timing_info = true;
        } else if (strcmp(arg, "--trace-hvm") == 0 && !options_done) {
            opts->mopts.trace_hvm = true;
        } else if (strcmp(arg, "--trace-mmio") == 0 && !options_done) {
            opts->mopts.trace_mmio = true;
        } else if (strcmp(arg, "--trace-mmio=all") == 0 && !options_done) {
            opts->mopts.trace_mmio_all = true;
        } else if ((strcmp(arg, "--clock") == 0 || strncmp(arg, "--clock=", 8) == 0) &&
                   !options_done) {
            const char *v = arg[7] == '=' ? arg + 8 : NULL;
            if (!v && i + 1 >= argc)
                return usage_error("missing value after", arg);
            if (!v)
                v = argv[++i];
            if (strcmp(v, "wall") != 0 && strcmp(v, "virtual") != 0)
                return usage_error("--clock takes wall or virtual, got", v);
            opts->clock = v[0] == 'w';
        } else if ((strcmp(arg, "--rtc-base") == 0 || strncmp(arg, "--rtc-base=", 11) == 0) &&
                   !options_done) {
            const char *v = arg[10] == '=' ? arg + 11 : i + 1 < argc ? argv[++i] : NULL;
            if (!v)
                return usage_error("missing value after", arg);
            if (hexsim_rtc_parse(v, &opts->mopts.rtc_base))
                return usage_error("--rtc-base takes now, seconds since 1970 or "
                                   "YYYY-MM-DDTHH:MM:SS (UTC), got", v);
            opts->rtc_given = true;
        } else if (strcmp(arg, "--rng-seed") == 0 && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            if (strcmp(v, "host") == 0) {
                if (getrandom(&opts->mopts.rng_seed, sizeof(opts->mopts.rng_seed), 0) !=
                    (ssize_t)sizeof(opts->mopts.rng_seed)) {
                    fprintf(stderr, "hexsim: --rng-seed host: getrandom: %s\n", strerror(errno));
                    return HEXSIM_EXIT_FILE;
                }
            } else {
                char *end;
                errno = 0;
                opts->mopts.rng_seed = strtoull(v, &end, 0);
                if (*v == '\0' || *v == '-' || *end || errno)
                    return usage_error("--rng-seed takes a number (decimal or 0x hex) or host, "
                                       "got", v);
            }
        } else if (strcmp(arg, "--net") == 0 && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            opts->net = argv[++i];
        } else if (strncmp(arg, "--net=", 6) == 0 && !options_done) {
            opts->net = arg + 6;
        } else if ((strcmp(arg, "--record") == 0 || strcmp(arg, "--replay") == 0) &&
                   !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing FILE after", arg);
            if (arg[4] == 'c')
                opts->record = argv[++i];
            else
                opts->replay = argv[++i];
        } else if ((strcmp(arg, "--snapshot-at") == 0 || strcmp(arg, "--snapshot-out") == 0 ||
                    strcmp(arg, "--restore") == 0) && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            if (arg[2] == 'r') {
                opts->restore = v;
            } else if (arg[11] == 'o') {
                opts->snapshot_out = v;
            } else if (!parse_points(v, opts)) {
                return usage_error("--snapshot-at needs positive packet counts N[,N...] in "
                                   "ascending order (at most 64), got", v);
            }
        } else if (strcmp(arg, "--script") == 0 && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            opts->script = argv[++i];
        } else if (strncmp(arg, "--script=", 9) == 0 && !options_done) {
            opts->script = arg + 9;
        } else if ((strcmp(arg, "--console") == 0 || strncmp(arg, "--console=", 10) == 0) &&
                   !options_done) {
            const char *v = arg[9] == '=' ? arg + 10 : NULL;
            if (!v && i + 1 >= argc)
                return usage_error("missing value after", arg);
            if (!v)
                v = argv[++i];
            if (!parse_console(v, opts))
                return usage_error("--console needs stdio or sdl[,scale=1|2][,size=COLSxROWS]"
                                   "[,solid], got", v);
        } else if ((strcmp(arg, "--append") == 0 || strcmp(arg, "--mem") == 0 ||
                    strcmp(arg, "--smp") == 0) && !options_done) {
            if (i + 1 >= argc)
                return usage_error("missing value after", arg);
            const char *v = argv[++i];
            if (arg[2] == 'a') {
                opts->mopts.append = v;
            } else if (arg[2] == 'm') {
                uint64_t n = parse_size(v);
                if (!n)
                    return usage_error("--mem needs a size such as 256M, got", v);
                if (n < (32u << 20))    // the machine takes 16M; Linux then panics
                    return usage_error("--mem: Linux 6.1 panics at boot with less than 32 MiB; "
                                       "give 32M to 768M, got", v);
                opts->mopts.ram_size = n;
            } else {
                char *end;
                unsigned long n = strtoul(v, &end, 10);
                if (*v == '\0' || *end || n < 1 || n > HEXSIM_MAX_VCPUS)
                    return usage_error("--smp needs a number from 1 to 8, got", v);
                opts->mopts.smp = (unsigned)n;
            }
        } else if (options_done || arg[0] != '-' || arg[1] == '\0') {
            if (opts->kernel != NULL)
                return usage_error("unexpected extra argument", arg);
            opts->kernel = arg;
        } else if (strcmp(arg, "--") == 0) {
            options_done = true;
        } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            opts->help = true;
        } else if (strcmp(arg, "-V") == 0 || strcmp(arg, "--version") == 0) {
            opts->version = true;
        } else if (strcmp(arg, "--initrd") == 0) {
            if (i + 1 >= argc)
                return usage_error("missing FILE after", arg);
            opts->initrd = argv[++i];
        } else if (strncmp(arg, "--initrd=", 9) == 0) {
            opts->initrd = arg + 9;
        } else if (strncmp(arg, "--append=", 9) == 0) {
            opts->mopts.append = arg + 9;
        } else {
            return usage_error("unknown option", arg);
        }
    }
    if (user && !opts->user_argi && !opts->restore)
        return usage_error("missing PROG after", "--user");
    if (user && sys_opt)
        return usage_error("--user runs one Linux program; this option is for system mode "
                           "(a KERNEL):", sys_opt);
    if (user && opts->user_argi && opts->restore)
        return usage_error("--user --restore FILE continues the process saved in FILE (its "
                           "program and arguments come from it); unexpected PROG",
                           argv[opts->user_argi]);
    // (in system mode --snapshot-out alone names the snapshots Ctrl-A s writes)
    if ((opts->nsnap && !opts->snapshot_out) || (opts->snapshot_out && !opts->nsnap && user))
        return usage_error("--snapshot-at N and --snapshot-out FILE go together; missing",
                           opts->nsnap ? "--snapshot-out" : "--snapshot-at");
    if (opts->nsnap > 1 && !strstr(opts->snapshot_out, "%N"))
        return usage_error("with several --snapshot-at points --snapshot-out needs %N (the "
                           "packet count) in its name, got", opts->snapshot_out);
    if (opts->record && opts->replay)
        return usage_error("--record and --replay exclude each other; got both, and",
                           opts->replay);
    if (opts->replay && opts->script)
        return usage_error("--replay gives all the console input; not with --script",
                           opts->script);
    if ((opts->record || opts->replay) && opts->user)
        return usage_error("--record and --replay are for system mode; not with", "--user");
    if (opts->nsnap && opts->debug)
        return usage_error("--snapshot-at does not work under the debugger (its savevm FILE "
                           "command does that); got", "--snapshot-at");
    // with --debug, KERNEL only gives the debugger its symbols
    if (opts->restore && ((opts->kernel && !opts->debug) || opts->initrd ||
                          opts->mopts.append))
        return usage_error("--restore continues a machine from its snapshot; it takes no "
                           "KERNEL (except for the debugger's symbols), --initrd or --append:",
                           opts->kernel && !opts->debug ? opts->kernel :
                           opts->initrd ? "--initrd" : "--append");
    return HEXSIM_EXIT_OK;
}

// Returns true if path can be opened and read (a directory cannot). On failure
// names the file and the reason on stderr.
static bool check_readable(const char *role, const char *path)
{
    FILE *f = fopen(path, "rb");
    int err = 0;

    if (f == NULL) {
        err = errno;
    } else {
        if (getc(f) == EOF && ferror(f))
            err = errno ? errno : EIO;
        fclose(f);
    }
    if (err != 0) {
        fprintf(stderr, "hexsim: cannot read %s '%s': %s\n", role, path, strerror(err));
        return false;
    }
    return true;
}

// Flushes stdout and turns a failed write (full disk, closed pipe) into an error.
static int finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hexsim: error writing to standard output\n");
        return HEXSIM_EXIT_FILE;
    }
    return HEXSIM_EXIT_OK;
}

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

// User mode under the debugger: returns the program's exit status if it ended, else 0.
static int debug_user(const struct cli_options *opts, struct hexsim_user *u)
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

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

// --snapshot-at: runs to each point in turn (run() returns `paused` there), writes the
// snapshot and goes on; the same for a process and a machine.
struct snap_runner {
    void *ctx;
    int (*run)(void *ctx);
    int paused;                                  // what run() returns at a pause
    uint64_t *packets, *pause_at;                // the run's packet count and pause point
    int (*save)(void *ctx, const char *path, char *msg, size_t msglen);
    const char *what;                            // "process", "machine"
    bool *pause_now;                             // Ctrl-A s asked for one now (NULL: never)
};

// The terminal the signal and exit handlers restore. Process-wide state belongs to the
// program, not to the library (which holds no writable globals).
static struct hexsim_terminal *active_terminal;

// Writes the snapshot of the run's present state to path; 0, or -1 after saying why.
static int save_snapshot(const struct snap_runner *r, const char *path)
{
    char msg[768];
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (active_terminal)   // Ctrl-A s at the guest's prompt: the message starts a line
        hexsim_terminal_fresh_line(active_terminal);
    if (r->save(r->ctx, path, msg, sizeof(msg))) {
        fprintf(stderr, "hexsim: %s\n", msg);
        return -1;
    }
    fprintf(stderr, "hexsim: snapshot at packet %llu written to %s in %.3f s\n",
            (unsigned long long)*r->packets, path, seconds_since(&t0));
    return 0;
}

// Runs until the run ends or reaches its pause point, writing a snapshot whenever Ctrl-A s
// asks for one (to --snapshot-out FILE, else hexsim-N.snap, N the packet count).
static int run_serving_keys(const struct cli_options *opts, const struct snap_runner *r)
{
    for (;;) {
        int status = r->run(r->ctx);
        if (status != r->paused || !r->pause_now || !*r->pause_now)
            return status;
        *r->pause_now = false;
        char path[4096];
        snapshot_path(path, sizeof(path), opts->snapshot_out ? opts->snapshot_out
                      : "hexsim-%N.snap", *r->packets);
        save_snapshot(r, path);        // a failure is reported; the run goes on
    }
}

static int run_snapshots(const struct cli_options *opts, const struct snap_runner *r)
{
    for (unsigned i = 0; i < opts->nsnap; i++) {
        uint64_t at = opts->snap_at[i];
        if (at <= *r->packets) {
            fprintf(stderr, "hexsim: --snapshot-at %llu: the %s is already at packet %llu\n",
                    (unsigned long long)at, r->what, (unsigned long long)*r->packets);
            return HEXSIM_EXIT_USAGE;
        }
        char path[4096];
        snapshot_path(path, sizeof(path), opts->snapshot_out, at);
        *r->pause_at = at;
        int status = run_serving_keys(opts, r);
        *r->pause_at = 0;
        if (status != r->paused) {
            fprintf(stderr, "hexsim: the run ended before packet %llu: no snapshot written to "
                    "%s\n", (unsigned long long)at, path);
            return status ? status : HEXSIM_EXIT_FILE;
        }
        if (save_snapshot(r, path))
            return HEXSIM_EXIT_FILE;
    }
    return run_serving_keys(opts, r);
}

static int user_run(void *u)
{
    return hexsim_user_run(u);
}

static int user_save(void *u, const char *path, char *msg, size_t msglen)
{
    return hexsim_user_snapshot_save(u, path, msg, msglen);
}

static int machine_run(void *m)
{
    return hexsim_machine_run(m);
}

static int machine_save(void *m, const char *path, char *msg, size_t msglen)
{
    return hexsim_snapshot_save(m, path, msg, msglen);
}

// Linux user mode: load PROG (or restore the process of --restore FILE), run it, return its
// exit status.
static int run_user(const struct cli_options *opts, int gargc, char **gargv)
{
    extern char **environ;
    struct hexsim_user *u = calloc(1, sizeof(*u));
    if (!u) {
        fputs("hexsim: out of memory\n", stderr);
        return HEXSIM_EXIT_FILE;
    }
    u->opts = opts->uopts;
    u->err = stderr;
    // a write to a pipe nobody reads gives -EPIPE and the guest its own SIGPIPE (signal.c),
    // not the end of hexsim
    signal(SIGPIPE, SIG_IGN);
    char err[768];
    int status;
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (opts->restore ? hexsim_user_snapshot_restore(u, opts->restore, false, err, sizeof(err))
                      : hexsim_user_load(u, gargv[0], gargc, gargv, environ, err,
                                         sizeof(err))) {
        fprintf(stderr, "hexsim: %s\n", err);
        status = HEXSIM_EXIT_FILE;
    } else {
        if (opts->restore)
            fprintf(stderr, "hexsim: restored %s (%s) at packet %llu in %.3f s\n",
                    opts->restore, u->path, (unsigned long long)u->cpu.packets, seconds_since(&t0));
        struct snap_runner r = { u, user_run, HEXSIM_USER_PAUSED, &u->cpu.packets, &u->pause_at,
                                 user_save, "process", NULL };
        status = opts->debug ? debug_user(opts, u) : run_snapshots(opts, &r);
    }
    fflush(stdout);
    hexsim_user_free(u);
    free(u);
    return status;
}

static void restore_terminal(void)
{
    if (active_terminal)
        hexsim_terminal_restore(active_terminal);
}

// Says why hexsim ends on a signal (async-signal-safe: write only), then ends by it.
static void fatal_signal(int sig)
{
    restore_terminal();
    static const char *const names[] = { [SIGINT] = "SIGINT", [SIGTERM] = "SIGTERM",
                                          [SIGHUP] = "SIGHUP", [SIGQUIT] = "SIGQUIT" };
    const char *name = sig > 0 && sig < (int)(sizeof(names) / sizeof(names[0])) ? names[sig]
                                                                                 : NULL;
    const char *m = name ? "\nhexsim: stopped by " : "\nhexsim: internal error: signal ";
    ssize_t w = write(2, m, strlen(m));
    if (name) {
        w = write(2, name, strlen(name));
    } else {
        char num[4] = { (char)('0' + sig / 10 % 10), (char)('0' + sig % 10), 0, 0 };
        w = write(2, num, 2);
    }
    w = write(2, "\n", 1);
    (void)w;
    signal(sig, SIG_DFL);
    raise(sig);
}

// What the idle hook of system mode serves: the terminal, and the network backend's host
// sockets when it has any (--net user), so replies arrive while the guest waits for them.
struct system_host {
    struct hexsim_terminal *term;       // NULL with the SDL window
    struct hexsim_sdl_console *sdl;     // NULL with the terminal
    struct hexsim_netdev *net;
};

#define NET_IDLE_NS 50000000ull        // a wait in the network backend, at most
#define SDL_NET_IDLE_NS 5000000ull     // the same beside the window (it is not watched then)

static int system_idle(void *ctx, uint64_t timeout_ns)
{
    struct system_host *h = ctx;
    if (!hexsim_net_has_wait(h->net))
        return h->sdl ? hexsim_sdl_console_idle(h->sdl, timeout_ns)
                      : hexsim_terminal_idle(h->term, timeout_ns);
    // the network's sockets are served while waiting, and can always bring input
    int r = h->sdl ? hexsim_sdl_console_idle(h->sdl, 0)
                   : hexsim_terminal_idle(h->term, 0);      // (flushes the output)
    if (r > 0)
        return 1;
    uint64_t cap = h->sdl ? SDL_NET_IDLE_NS : NET_IDLE_NS;
    return hexsim_net_wait(h->net, h->sdl ? -1 : hexsim_terminal_wait_fd(h->term),
                           timeout_ns < cap ? timeout_ns : cap) != 0;
}

static void quit_machine(void *ctx)
{
    hexsim_machine_halt(ctx, HEXSIM_SYS_EXIT_OK);
}

// Ctrl-A s: the run pauses at the end of this round and run_serving_keys saves it.
static void snapshot_key(void *ctx)
{
    struct hexsim_machine *m = ctx;
    m->pause_now = true;
}

static int restore_machine(struct hexsim_machine *m, const char *path, char *msg, size_t len)
{
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (hexsim_snapshot_restore(m, path, msg, len))
        return -1;
    fprintf(stderr, "hexsim: restored %s at packet %llu in %.3f s\n", path,
            (unsigned long long)m->packets, seconds_since(&t0));
    hexsim_msm_uart_repeat_line(&m->uart[2]);   // the prompt it was at, on this screen
    return 0;
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

// System mode under the debugger (symbols from KERNEL): returns the machine's exit status
// if it ended, else 0.
static int debug_system(const struct cli_options *opts, struct hexsim_machine *m,
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

// System mode: build the machine, load KERNEL (and the initrd), run it.
static int run_system(struct cli_options *opts)
{
    char msg[768];
    static const int sigs[] = { SIGTERM, SIGHUP, SIGQUIT, SIGINT, SIGSEGV, SIGBUS, SIGFPE,
                                SIGILL, SIGABRT };
    struct hexsim_netdev net;
    if (hexsim_net_open(&net, opts->net, stderr, msg, sizeof(msg))) {
        fprintf(stderr, "hexsim: %s\n", msg);
        return HEXSIM_EXIT_USAGE;
    }
    struct hexsim_terminal term;
    struct hexsim_script script = { 0 };
    if (opts->script && hexsim_script_open(&script, opts->script, NULL, msg, sizeof(msg))) {
        fprintf(stderr, "hexsim: %s\n", msg);
        hexsim_net_close(&net);
        return HEXSIM_EXIT_FILE;
    }
    struct hexsim_sdl_console *sdl = NULL;
    if (opts->console_sdl) {
        // the window is the console: stdin stays as it is
        opts->sdl.type = getenv("HEXSIM_SDL_TYPE");
        opts->sdl.dump = getenv("HEXSIM_SDL_DUMP");
        sdl = hexsim_sdl_console_new(&opts->sdl, stderr, msg, sizeof(msg));
        if (!sdl) {
            fprintf(stderr, "hexsim: %s\n", msg);
            hexsim_script_close(&script);
            hexsim_net_close(&net);
            return HEXSIM_EXIT_USAGE;
        }
        opts->mopts.serial = hexsim_sdl_console_chardev(sdl);
        opts->mopts.console = hexsim_sdl_console_console(sdl);
    } else {
        hexsim_terminal_open(&term, 0, stdout, stderr, true);
        active_terminal = &term;
        atexit(restore_terminal);
        opts->mopts.serial = &term.chr;
        opts->mopts.console = &term.con;
    }
    if (opts->script) {
        hexsim_script_set_inner(&script, opts->mopts.serial);
        opts->mopts.serial = &script.chr;
    }
    // --clock: the wall clock where a person is at the console (a terminal, the window)
    // or real sockets are (--net user); else the virtual clock, for a reproducible run
    opts->mopts.wall_clock = opts->clock >= 0 ? opts->clock == 1
        : (sdl || term.tty || (opts->net && strncmp(opts->net, "user", 4) == 0)) &&
          !opts->replay;
    // the guest's date and console size (src/loader/boot_env.c): the host's time only
    // where guest time follows it, the terminal's or the window's size
    if (opts->mopts.rtc_base == HEXSIM_RTC_NOW || (!opts->rtc_given && opts->mopts.wall_clock))
        opts->mopts.rtc_base = (int64_t)time(NULL);
    else if (!opts->rtc_given)
        opts->mopts.rtc_base = HEXSIM_RTC_FIXED;
    if (sdl) {
        opts->mopts.con_cols = opts->sdl.cols ? opts->sdl.cols : 80;
        opts->mopts.con_rows = opts->sdl.rows ? opts->sdl.rows : 25;
    } else if (term.tty) {
        hexsim_terminal_size(&term, &opts->mopts.con_rows, &opts->mopts.con_cols);
    }
    struct hexsim_record rec = { 0 };
    const char *rec_path = opts->record ? opts->record : opts->replay;
    if (rec_path) {
        if (hexsim_record_open(&rec, rec_path, opts->replay != NULL, opts->mopts.serial,
                               stderr, msg, sizeof(msg))) {
            fprintf(stderr, "hexsim: %s\n", msg);
            if (sdl)
                hexsim_sdl_console_free(sdl);
            else
                hexsim_terminal_close(&term);
            hexsim_script_close(&script);
            hexsim_net_close(&net);
            return HEXSIM_EXIT_FILE;
        }
        opts->mopts.serial = &rec.chr;
    }
    struct system_host host = { sdl ? NULL : &term, sdl, &net };
    opts->mopts.idle = system_idle;
    opts->mopts.idle_ctx = &host;
    for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
        signal(sigs[i], fatal_signal);
    opts->mopts.initrd = opts->initrd;
    opts->mopts.net = &net;
    struct hexsim_snapshot_config snap;
    struct hexsim_machine *m = NULL;
    int status;
    if (opts->restore) {
        if (hexsim_snapshot_probe(opts->restore, &snap, msg, sizeof(msg))) {
            fprintf(stderr, "hexsim: %s\n", msg);
            status = HEXSIM_EXIT_FILE;
            goto done;
        }
        opts->mopts.ram_size = snap.ram_size;
        opts->mopts.smp = snap.nvcpu;
        opts->mopts.arch = snap.arch;
    }
    m = hexsim_machine_new(&opts->mopts, stderr, msg, sizeof(msg));
    if (m)
        rec.now = &m->now;
    if (!m) {
        fprintf(stderr, "hexsim: %s\n", msg);
        status = HEXSIM_EXIT_USAGE;
    } else {
        if (sdl) {
            hexsim_sdl_console_set_quit(sdl, quit_machine, opts->debug ? NULL : snapshot_key,
                                        m);
        } else {
            term.quit = quit_machine;
            term.quit_ctx = m;
            if (!opts->debug)
                term.snapshot = snapshot_key;   // (the debugger has savevm)
        }
        if (opts->restore ? restore_machine(m, opts->restore, msg, sizeof(msg))
                          : hexsim_machine_load(m, opts->kernel, msg, sizeof(msg))) {
            fprintf(stderr, "hexsim: %s\n", msg);
            status = HEXSIM_EXIT_FILE;
        } else {
            if (opts->default_kernel)
                fprintf(stderr, "hexsim: booting %s --initrd %s\n", opts->kernel, opts->initrd);
            struct snap_runner r = { m, machine_run, HEXSIM_SYS_PAUSED, &m->packets,
                                     &m->pause_at, machine_save, "machine", &m->pause_now };
            status = opts->debug ? debug_system(opts, m, sdl ? NULL : &term)
                                 : run_snapshots(opts, &r);
        }
    }
done:
    fflush(stdout);
    hexsim_machine_free(m);
    if (rec_path && hexsim_record_close(&rec) && status == HEXSIM_EXIT_OK) {
        fprintf(stderr, "hexsim: --record %s: could not write the record\n", rec_path);
        status = HEXSIM_EXIT_FILE;
    }
    hexsim_script_close(&script);
    if (sdl) {
        if (hexsim_sdl_console_free(sdl) && status == HEXSIM_EXIT_OK)
            status = HEXSIM_EXIT_FILE;
    } else {
        hexsim_terminal_close(&term);
        if (term.input_ended && status == HEXSIM_EXIT_OK)
            status = HEXSIM_SYS_EXIT_ERROR;   // stopped: input over, the guest waiting
    }
    hexsim_net_close(&net);
    return status;
}

int main(int argc, char **argv)
{
    struct cli_options opts = {0};
    opts.clock = -1;
    opts.tparams = hexsim_timing_default_params;
    opts.uopts.timing_params = &opts.tparams;
    opts.mopts.timing_params = &opts.tparams;
    int status = parse_args(argc, argv, &opts);

    if (status != HEXSIM_EXIT_OK)
        return status;

    if (opts.help) {
        print_usage(stdout);
        return finish_stdout();
    }
    if (opts.version) {
        printf("hexsim %s\n", hexsim_version());
        return finish_stdout();
    }
    if (opts.timing_info) {
        printf("hexsim timing model (--timing=%s; src/cpu/timing.c)\n",
               opts.mopts.timing == HEXSIM_TIMING_CACHE ? "cache" : "simple");
        hexsim_timing_print_params(stdout, &opts.tparams);
        return finish_stdout();
    }
    if (!opts.user && opts.restore && hexsim_snapshot_is_user(opts.restore)) {
        if (opts.kernel || opts.mopts.smp || opts.mopts.ram_size)
            return usage_error("the snapshot is of a user-mode process; it takes no KERNEL, "
                               "--mem or --smp:", opts.restore);
        opts.user = true;              // the file says which mode it is
    }
    if (opts.user) {
        if (opts.kernel != NULL)
            return usage_error("--user runs one program; unexpected KERNEL", opts.kernel);
        return run_user(&opts, argc - opts.user_argi, argv + opts.user_argi);
    }
    char default_kernel[4096];
    if (opts.kernel == NULL && !opts.restore) {
        // The embedded default: the kernel guest/linux/build.sh built and, unless --initrd
        // names one, this build's rootfs.cpio.
        const char *cache = getenv("HEXSIM_CACHE");
        const char *home = getenv("HOME");
        if (cache && *cache)
            snprintf(default_kernel, sizeof(default_kernel), "%s/linux/build/vmlinux", cache);
        else
            snprintf(default_kernel, sizeof(default_kernel), "%s/.cache/hexsim/linux/build/vmlinux",
                     home ? home : "");
        if (access(default_kernel, R_OK) != 0) {
            fprintf(stderr, "hexsim: no KERNEL given, and the project's kernel is not built (no "
                    "%s; guest/linux/build.sh or tools/run.sh builds it)\n\n", default_kernel);
            print_brief_usage(stderr);
            return HEXSIM_EXIT_USAGE;
        }
        opts.kernel = default_kernel;
        if (opts.initrd == NULL)
            opts.initrd = HEXSIM_DEFAULT_ROOTFS;
        opts.default_kernel = true;
    }

    if (opts.restore)
        return run_system(&opts);
    if (!check_readable("kernel", opts.kernel))
        return HEXSIM_EXIT_FILE;
    if (opts.initrd != NULL && !check_readable("initrd", opts.initrd))
        return HEXSIM_EXIT_FILE;

    return run_system(&opts);
}
