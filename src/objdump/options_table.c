// SPDX-License-Identifier: MIT
// The options of hexsim-objdump, each described once: main.c parses by this table (the row's
// index, enum od_option), `--help` and the man page hexsim-objdump(1) (src/cli/docgen.c) are
// printed from it. The options and their meaning are those of llvm-objdump-16 -d, which the
// listing matches. Adding an option: a row here, its enum od_option entry in options.h (same
// order), and its case in main.c's parse_args.
#include "objdump/options.h"

const struct cli_option od_option_table[] = {
    [OD_DISASSEMBLE] = { .name = "--disassemble", .short_name = "-d",
        .help = "disassemble all executable sections (required)" },
    [OD_NO_SHOW_RAW_INSN] = { .name = "--no-show-raw-insn",
        .help = "do not print the instruction bytes and words" },
    [OD_SHOW_RAW_INSN] = { .name = "--show-raw-insn", .def = "on",
        .help = "print the instruction bytes and words" },
    [OD_START_ADDRESS] = { .name = "--start-address", .arg = "ADDR", .kind = CLI_CUSTOM,
        .help = "list from ADDR on (inclusive)",
        .more = "ADDR is decimal, 0x-prefixed hexadecimal, 0b binary or 0o/0-prefixed octal "
                "(64 bits), as llvm-objdump reads it." },
    [OD_STOP_ADDRESS] = { .name = "--stop-address", .arg = "ADDR", .kind = CLI_CUSTOM,
        .help = "list up to ADDR (exclusive)", .more = "ADDR as for --start-address." },
    [OD_MCPU] = { .name = "--mcpu", .arg = "CPU", .kind = CLI_CUSTOM,
        .choices = "hexagonv5|hexagonv55|hexagonv60|hexagonv62|hexagonv65|hexagonv66|"
                   "hexagonv67|hexagonv67t|hexagonv68|hexagonv69|hexagonv71|hexagonv71t|"
                   "hexagonv73",
        .def = "hexagonv60, as for llvm-objdump",
        .help = "decode the instructions of CPU (hexagonv5 ... hexagonv73)",
        .more = "hexagonv67t and hexagonv71t are the cores with the audio extension." },
    [OD_MATTR] = { .name = "--mattr", .arg = "FEATURES", .kind = CLI_CUSTOM,
        .choices = "+hvx|+hvx-ieee-fp|+hvx-qfloat|+hvx-length128b",
        .help = "also decode these features, as llvm-objdump's --mattr",
        .more = "+hvx (HVX of the CPU's version, 128-byte vectors), +hvx-ieee-fp, "
                "+hvx-qfloat (its floating point); +hvxvNN and +hvx-length128b as "
                "llvm-objdump takes them." },
    [OD_HELP] = { .name = "--help", .short_name = "-h", .help = "show this help and exit" },
    [OD_VERSION] = { .name = "--version", .help = "show the version and exit" },
    { .help = NULL },   // the end
};

const char *const od_usage_lines[] = { "hexsim-objdump -d [OPTIONS] FILE...", NULL };

const char od_description[] =
    "Disassemble the executable sections of Hexagon ELF files; the listing matches that of "
    "llvm-objdump -d. Without FILE, a.out is read.";

const struct hexsim_exit_info od_exit_list[] = {
    { "0", "every FILE listed, or help or version printed" },
    { "1", "a usage error, a FILE that cannot be read or is not a Hexagon ELF file (the "
           "listings of the files before it are printed), or the listing cannot be written" },
    { NULL, NULL },
};
