// SPDX-License-Identifier: MIT
// Start-up of system mode (`hexsim [KERNEL]`, or `--restore FILE` of a machine): opens the
// host backends (network, terminal or SDL window, --script, --record/--replay), builds the
// Comet machine (include/hexsim/machine.h), loads the kernel or restores the snapshot,
// runs it (with --snapshot-at points, or under the debugger), and closes everything again.
// The terminal is restored on the way out, also when a signal ends hexsim.
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/exit_status.h"
#include "cli/modes.h"
#include "hexsim/boot_env.h"
#include "hexsim/sdl_console.h"
#include "hexsim/snapshot.h"
#include "snap/snap_run.h"

static int machine_run(void *m)
{
    return hexsim_machine_run(m);
}

// The terminal the signal and exit handlers restore. Process-wide state belongs to the
// program, not to the library (which holds no writable globals).
static struct hexsim_terminal *active_terminal;

static int machine_save(void *m, const char *path, char *msg, size_t msglen)
{
    if (active_terminal)   // Ctrl-A s at the guest's prompt: the message starts a line
        hexsim_terminal_fresh_line(active_terminal);
    return hexsim_snapshot_save(m, path, msg, msglen);
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
            (unsigned long long)m->packets, cli_seconds_since(&t0));
    hexsim_msm_uart_repeat_line(&m->uart[2]);   // the prompt it was at, on this screen
    return 0;
}


int cli_run_system(struct cli_options *opts)
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
        int rc = opts->restore ? restore_machine(m, opts->restore, msg, sizeof(msg))
                               : hexsim_machine_load(m, opts->kernel, msg, sizeof(msg));
        if (rc) {
            fprintf(stderr, "hexsim: %s\n", msg);
            status = rc == HEXSIM_LOAD_CMDLINE ? HEXSIM_EXIT_USAGE : HEXSIM_EXIT_FILE;
        } else {
            if (opts->default_kernel)
                fprintf(stderr, "hexsim: booting %s --initrd %s\n", opts->kernel, opts->initrd);
            struct hexsim_snap_runner r = { m, machine_run, HEXSIM_SYS_PAUSED, &m->packets,
                                            &m->pause_at, machine_save, "machine",
                                            &m->pause_now, stderr };
            status = opts->debug ? cli_debug_system(opts, m, sdl ? NULL : &term)
                                 : hexsim_snap_run(&r, opts->snap_at, opts->nsnap,
                                                   opts->snapshot_out);
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
            status = HEXSIM_EXIT_GUEST_ERROR;   // stopped: input over, the guest waiting
    }
    hexsim_net_close(&net);
    return status;
}
