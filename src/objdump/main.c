// SPDX-License-Identifier: MIT
// hexsim-objdump: command line of the Hexagon disassembler that lists ELF files the way
// `llvm-objdump-16 -d` does, so the two can be compared line by line (tests/isa). It parses
// the options, opens each input with the ELF reader and prints it with print.c, whose text
// comes from the simulator's own decoder (hexsim_disasm_packet).
// As llvm-objdump does, it stops at the first input that cannot be read, after the listings of
// the inputs before it; addresses are parsed the way llvm-objdump parses them (0x/0X hex,
// 0b/0B binary, 0o or a leading 0 octal, otherwise decimal; 64 bits).
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elf_reader.h"
#include "hexsim/arch.h"
#include "hexsim/disasm.h"
#include "hexsim/version.h"
#include "print.h"

#define PROG "hexsim-objdump"

static void usage(FILE *out)
{
    fprintf(out,
            "Usage: " PROG " -d [options] FILE...\n"
            "Disassemble the executable sections of Hexagon ELF files; the listing matches\n"
            "that of llvm-objdump -d. Without FILE, a.out is read.\n"
            "\n"
            "Options:\n"
            "  -d, --disassemble        disassemble all executable sections (required)\n"
            "  --no-show-raw-insn       do not print the instruction bytes and words\n"
            "  --show-raw-insn          print them (default)\n"
            "  --start-address=ADDR     list from ADDR on (inclusive)\n"
            "  --stop-address=ADDR      list up to ADDR (exclusive)\n"
            "  --mcpu=CPU               decode the instructions of CPU (hexagonv5 ... hexagonv73,\n"
            "                           hexagonv67t and hexagonv71t with the audio extension);\n"
            "                           the default is hexagonv60, as for llvm-objdump\n"
            "  --mattr=FEATURES         also decode these features, as llvm-objdump's --mattr:\n"
            "                           +hvx (HVX of the CPU's version, 128-byte vectors),\n"
            "                           +hvx-ieee-fp, +hvx-qfloat (its floating point)\n"
            "  -h, --help               show this help and exit\n"
            "  --version                show the version and exit\n"
            "\n"
            "ADDR is decimal, 0x-prefixed hexadecimal, 0b binary or 0o/0-prefixed octal.\n");
}

static int error_exit(const char *fmt, const char *arg)
{
    fprintf(stderr, PROG ": error: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    return 1;
}

static int digit_value(char ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'z')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'Z')
        return ch - 'A' + 10;
    return 99;
}

// Parses an address as llvm-objdump does (see the file comment). Returns false for anything
// else: empty, signs, spaces, stray characters, no digits after a prefix, or over 64 bits.
static bool parse_address(const char *s, uint64_t *out)
{
    unsigned radix = 10;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        radix = 16;
        s += 2;
    } else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
        radix = 2;
        s += 2;
    } else if (s[0] == '0' && s[1] == 'o') {
        radix = 8;
        s += 2;
    } else if (s[0] == '0' && s[1] != '\0') {
        radix = 8;
        s += 1;
    }
    if (*s == '\0')
        return false;
    uint64_t v = 0;
    for (; *s; s++) {
        unsigned d = (unsigned)digit_value(*s);
        if (d >= radix)
            return false;
        if (v > (UINT64_MAX - d) / radix)
            return false;
        v = v * radix + d;
    }
    *out = v;
    return true;
}

// Matches "--name=VALUE" or "--name VALUE"; sets *value and advances *i past a separate value.
static bool option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
    size_t len = strlen(name);
    const char *a = argv[*i];
    if (strncmp(a, name, len) != 0)
        return false;
    if (a[len] == '=') {
        *value = a + len + 1;
        return true;
    }
    if (a[len] == '\0' && *i + 1 < argc) {
        *value = argv[++*i];
        return true;
    }
    return false;
}

struct cli {
    struct od_options opt;
    bool disassemble;
    const char **files;   // argc entries, owned by main
    int nfiles;
};

// Parses the command line into *c. Returns -1 to go on, else the exit status.
static int parse_args(int argc, char **argv, struct cli *c)
{
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value;
        if (only_files || a[0] != '-' || a[1] == '\0') {
            c->files[c->nfiles++] = a;
        } else if (strcmp(a, "--") == 0) {
            only_files = true;
        } else if (strcmp(a, "-d") == 0 || strcmp(a, "--disassemble") == 0) {
            c->disassemble = true;
        } else if (strcmp(a, "--no-show-raw-insn") == 0) {
            c->opt.show_raw_insn = false;
        } else if (strcmp(a, "--show-raw-insn") == 0) {
            c->opt.show_raw_insn = true;
        } else if (option_value(argc, argv, &i, "--start-address", &value)) {
            if (!parse_address(value, &c->opt.start_address))
                return error_exit("--start-address: expected a non-negative integer, "
                                  "but got '%s'", value);
        } else if (option_value(argc, argv, &i, "--stop-address", &value)) {
            if (!parse_address(value, &c->opt.stop_address))
                return error_exit("--stop-address: expected a non-negative integer, "
                                  "but got '%s'", value);
        } else if (option_value(argc, argv, &i, "--mcpu", &value)) {
            unsigned features = c->opt.arch & ~0xffu & ~HEXSIM_ARCH_TINY;
            c->opt.arch = hexsim_arch_parse(value);
            if (c->opt.arch == 0)
                return error_exit("unknown or unsupported CPU '%s' (hexagonv5, hexagonv55, "
                                  "hexagonv60 ... hexagonv73, hexagonv67t, hexagonv71t)", value);
            c->opt.arch |= features;
        } else if (option_value(argc, argv, &i, "--mattr", &value)) {
            const char *bad = value;
            unsigned a = hexsim_arch_features(c->opt.arch, value, &bad);
            if (!a)
                return error_exit("unknown or unsupported feature in '%s' (+hvx, +hvxvNN, "
                                  "+hvx-ieee-fp, +hvx-qfloat, +hvx-length128b)", bad);
            c->opt.arch = a;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(a, "--version") == 0) {
            printf(PROG " (hexsim) %s\n", hexsim_version());
            return 0;
        } else {
            fprintf(stderr, PROG ": error: unknown option '%s'\n", a);
            usage(stderr);
            return 1;
        }
    }
    if (!c->disassemble) {
        fprintf(stderr, PROG ": error: no action given (only -d is supported)\n");
        usage(stderr);
        return 1;
    }
    if (c->opt.start_address >= c->opt.stop_address)
        return error_exit("%s", "start address should be less than stop address");
    if (c->nfiles == 0)
        c->files[c->nfiles++] = "a.out";
    return -1;
}

// Lists every input in order; stops at the first one that cannot be read.
static int list_files(const struct cli *c)
{
    static char outbuf[1 << 16];
    setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
    int rc = 0;
    for (int i = 0; i < c->nfiles && rc == 0; i++) {
        struct od_file f;
        char err[256];
        if (!od_file_open(&f, c->files[i], err, sizeof(err))) {
            fflush(stdout);
            fprintf(stderr, PROG ": error: '%s': %s\n", c->files[i], err);
            rc = 1;
            break;
        }
        if (!od_print_file(stdout, &f, &c->opt)) {
            fflush(stdout);
            fprintf(stderr, PROG ": error: '%s': out of memory\n", c->files[i]);
            rc = 1;
        }
        od_file_close(&f);
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, PROG ": error: writing the listing: %s\n", strerror(errno));
        rc = 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    struct cli c = {
        .opt = { .show_raw_insn = true, .start_address = 0, .stop_address = UINT64_MAX,
                 .arch = HEXSIM_DISASM_DEFAULT_ARCH },
        .files = calloc((size_t)argc + 1, sizeof(*c.files)),
    };
    if (!c.files)
        return error_exit("%s", "out of memory");
    int rc = parse_args(argc, argv, &c);
    if (rc < 0)
        rc = list_files(&c);
    free(c.files);
    return rc;
}
