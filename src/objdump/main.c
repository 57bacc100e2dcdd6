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
#include "objdump/options.h"
#include "print.h"

#define PROG "hexsim-objdump"

// The help, from the option table (options_table.c).
static void usage(FILE *out)
{
    fprintf(out, "Usage: %s\n", od_usage_lines[0]);
    cli_print_paragraph(out, od_description);
    fputs("\nOptions:\n", out);
    cli_print_options(out, od_option_table);
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

// The row of argument a ("--name", "--name=VALUE", a short name); *value the value after
// '=' or, for an option with an argument, the next argument (*i then moves past it; NULL
// when there is none). -1 when no row matches.
static int find_option(int argc, char **argv, int *i, const char **value)
{
    const char *a = argv[*i];
    const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
    size_t n = eq ? (size_t)(eq - a) : strlen(a);
    *value = NULL;
    for (int k = 0; od_option_table[k].help; k++) {
        const struct cli_option *o = &od_option_table[k];
        bool is_short = !eq && o->short_name && strcmp(a, o->short_name) == 0;
        if (!is_short && (strncmp(a, o->name, n) != 0 || o->name[n] != '\0'))
            continue;
        if (!o->arg)
            return eq ? -1 : k;
        if (eq)
            *value = eq + 1;
        else if (*i + 1 < argc)
            *value = argv[++*i];
        return k;
    }
    return -1;
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
        } else {
            int k = find_option(argc, argv, &i, &value);
            if (k >= 0 && od_option_table[k].arg && !value)
                return error_exit("missing value after '%s'", a);
            switch (k) {
            case OD_DISASSEMBLE:
                c->disassemble = true;
                break;
            case OD_NO_SHOW_RAW_INSN:
                c->opt.show_raw_insn = false;
                break;
            case OD_SHOW_RAW_INSN:
                c->opt.show_raw_insn = true;
                break;
            case OD_START_ADDRESS:
            case OD_STOP_ADDRESS:
                if (!parse_address(value, k == OD_START_ADDRESS ? &c->opt.start_address
                                                                : &c->opt.stop_address))
                    return error_exit(k == OD_START_ADDRESS
                                      ? "--start-address: expected a non-negative integer, "
                                        "but got '%s'"
                                      : "--stop-address: expected a non-negative integer, "
                                        "but got '%s'", value);
                break;
            case OD_MCPU: {
                unsigned features = c->opt.arch & ~0xffu & ~HEXSIM_ARCH_TINY;
                c->opt.arch = hexsim_arch_parse(value);
                if (c->opt.arch == 0)
                    return error_exit("unknown or unsupported CPU '%s' (hexagonv5, hexagonv55, "
                                      "hexagonv60 ... hexagonv73, hexagonv67t, hexagonv71t)",
                                      value);
                c->opt.arch |= features;
                break;
            }
            case OD_MATTR: {
                const char *bad = value;
                unsigned arch = hexsim_arch_features(c->opt.arch, value, &bad);
                if (!arch)
                    return error_exit("unknown or unsupported feature in '%s' (+hvx, +hvxvNN, "
                                      "+hvx-ieee-fp, +hvx-qfloat, +hvx-length128b)", bad);
                c->opt.arch = arch;
                break;
            }
            case OD_HELP:
                usage(stdout);
                return 0;
            case OD_VERSION:
                printf(PROG " (hexsim) %s\n", hexsim_version());
                return 0;
            default:
                fprintf(stderr, PROG ": error: unknown option '%s'\n", a);
                usage(stderr);
                return 1;
            }
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
