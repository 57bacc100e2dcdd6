// SPDX-License-Identifier: MIT
// The hexsim program: parses the command line (src/cli/options.c, from the option table in
// src/cli/options_table.c), answers --help, --version and --timing-info, picks the mode and
// the default kernel, checks the files named, and starts user mode (`--user PROG [ARGS...]`,
// src/cli/run_user.c) or system mode (`[KERNEL] ...`, src/cli/run_system.c).
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/data_paths.h"
#include "cli/exit_status.h"
#include "cli/modes.h"
#include "cli/options.h"
#include "hexsim/snapshot.h"
#include "hexsim/version.h"

// Flushes stdout and turns a failed write (full disk, closed pipe) into an error.
static int finish_stdout(void)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "hexsim: error writing to standard output\n");
        return HEXSIM_EXIT_FILE;
    }
    return HEXSIM_EXIT_OK;
}

// Returns true if path can be opened and read (a directory cannot). On failure names the
// file and the reason on stderr.
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

// Without KERNEL: the project's kernel (guest/linux/build.sh) and, unless --initrd names
// one, the root file system of this build or of the install (src/cli/data_paths.c).
static int default_kernel(struct cli_options *o, char *kernel, size_t klen, char *rootfs,
                          size_t rlen)
{
    char tried[4096];
    if (cli_find_kernel(kernel, klen, tried, sizeof tried)) {
        fprintf(stderr, "hexsim: no KERNEL given, and the project's kernel is not built (no "
                "%s; guest/linux/build.sh or tools/run.sh builds it)\n\n", tried);
        cli_print_brief_usage(stderr);
        return HEXSIM_EXIT_USAGE;
    }
    o->kernel = kernel;
    if (o->initrd == NULL) {
        cli_find_rootfs(rootfs, rlen);
        o->initrd = rootfs;
    }
    o->default_kernel = true;
    return HEXSIM_EXIT_OK;
}

int main(int argc, char **argv)
{
    struct cli_options opts;
    cli_options_init(&opts);
    // Started by binfmt_misc through a link named hexsim-binfmt (tools/hexsim-binfmt
    // registers it without the P flag): argv is [the link, PROG, ARGS...], run as
    // `hexsim --user PROG ARGS...` (a guest root from QEMU_LD_PREFIX).
    const char *base = strrchr(argv[0], '/');
    int status = HEXSIM_EXIT_OK;
    if (argc >= 2 && strcmp(base ? base + 1 : argv[0], "hexsim-binfmt") == 0) {
        opts.user = true;
        opts.user_argi = 1;
    } else {
        status = cli_parse(argc, argv, &opts);
    }
    if (status != HEXSIM_EXIT_OK)
        return status;

    if (opts.help_topic) {
        if (!cli_print_help(stdout, opts.help_topic))
            return cli_usage_error("unknown help topic", opts.help_topic);
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
            return cli_usage_error("the snapshot is of a user-mode process; it takes no "
                                   "KERNEL, --mem or --smp:", opts.restore);
        opts.user = true;              // the file says which mode it is
        if (opts.sys_opt)
            return cli_usage_error("the snapshot is of a user-mode process; this option is "
                                   "for system mode:", opts.sys_opt);
    }
    if (!opts.user && opts.user_opt)
        return cli_usage_error("this option is for Linux user mode (--user PROG), not for "
                               "system mode:", opts.user_opt);
    if (opts.user && opts.kernel != NULL)
        return cli_usage_error("--user runs one program; unexpected KERNEL", opts.kernel);
    char kernel[4096], rootfs[4096];
    if (!opts.user && opts.kernel == NULL && !opts.restore &&
        (status = default_kernel(&opts, kernel, sizeof kernel, rootfs, sizeof rootfs)))
        return status;
    if (!opts.user && !opts.restore) {
        if (!check_readable("kernel", opts.kernel))
            return HEXSIM_EXIT_FILE;
        if (opts.initrd != NULL && !check_readable("initrd", opts.initrd))
            return HEXSIM_EXIT_FILE;
    }
    if ((status = cli_check_outputs(&opts)))
        return status;
    if (opts.user)
        return cli_run_user(&opts, argc - opts.user_argi, argv + opts.user_argi);
    return cli_run_system(&opts);
}
