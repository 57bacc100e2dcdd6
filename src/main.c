// SPDX-License-Identifier: MIT
// The hexsim command line. At this stage it prints help and version only: system mode
// (boot a Hexagon Linux kernel and initrd on the Comet board model) and user mode (run
// a Hexagon Linux program directly) are not implemented, and the program says so
// rather than pretending to run anything. Options are parsed by hand into a local
// struct so that no state outlives main (getopt would keep its own globals).
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/version.h"

// Exit statuses; the usage text lists them, so keep the two in step.
enum {
    HEXSIM_EXIT_OK = 0,
    HEXSIM_EXIT_FILE = 1,  // a file named on the command line cannot be read
    HEXSIM_EXIT_USAGE = 2, // bad command line, or a mode that is not implemented yet
};

struct cli_options {
    bool help;
    bool version;
    const char *kernel; // positional KERNEL, NULL if none
    const char *initrd; // --initrd FILE, NULL if none
};

static void print_usage(FILE *out)
{
    fputs("Usage: hexsim [OPTIONS] [KERNEL]\n"
          "\n"
          "hexsim is a Qualcomm Hexagon DSP full-system simulator under construction.\n"
          "At this stage it can only print this help and its version.\n"
          "\n"
          "Options:\n"
          "  -h, --help         print this help and exit\n"
          "  -V, --version      print the version and exit\n"
          "      --initrd FILE  initial RAM disk for system mode (not implemented yet)\n"
          "\n"
          "Not implemented yet:\n"
          "  system mode   hexsim vmlinux --initrd rootfs.cpio\n"
          "                boot a Hexagon Linux kernel on the Comet board model\n"
          "  user mode     run a Hexagon Linux user program directly\n"
          "\n"
          "Given a KERNEL, hexsim checks that KERNEL (and the --initrd FILE) can be\n"
          "read, then reports that system mode is not implemented.\n"
          "\n"
          "Exit status:\n"
          "  0  help or version printed\n"
          "  1  a file named on the command line cannot be read\n"
          "  2  usage error, or a mode that is not implemented yet\n",
          out);
}

// Reports a command-line mistake followed by the usage text, both on stderr.
static int usage_error(const char *what, const char *arg)
{
    fprintf(stderr, "hexsim: %s '%s'\n\n", what, arg);
    print_usage(stderr);
    return HEXSIM_EXIT_USAGE;
}

// Fills *opts from argv. Returns HEXSIM_EXIT_OK, or the exit status after reporting.
static int parse_args(int argc, char **argv, struct cli_options *opts)
{
    bool options_done = false;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];

        if (options_done || arg[0] != '-' || arg[1] == '\0') {
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
        } else {
            return usage_error("unknown option", arg);
        }
    }
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

int main(int argc, char **argv)
{
    struct cli_options opts = {0};
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
    if (opts.kernel == NULL) {
        if (opts.initrd != NULL)
            return usage_error("--initrd needs a KERNEL; got only", opts.initrd);
        fputs("hexsim: no KERNEL given\n\n", stderr);
        print_usage(stderr);
        return HEXSIM_EXIT_USAGE;
    }

    if (!check_readable("kernel", opts.kernel))
        return HEXSIM_EXIT_FILE;
    if (opts.initrd != NULL && !check_readable("initrd", opts.initrd))
        return HEXSIM_EXIT_FILE;

    fputs("hexsim: system mode is not implemented yet (see README.md)\n", stderr);
    return HEXSIM_EXIT_USAGE;
}
