// SPDX-License-Identifier: MIT
// Terminal backend: the guest's serial console (UART3) and the angel console on the
// host's standard input and output. On a tty, input is put in raw mode (no line editing,
// no echo, no signals from ^C: they belong to the guest), output keeps ONLCR so angel
// text with bare newlines stays readable; hexsim_terminal_close puts the tty back, and the
// program (src/cli/run_system.c) calls hexsim_terminal_restore from its exit and signal
// handlers, so the terminal is restored on every way out. When stdin is not a tty (a pipe
// or a file, for scripts), bytes pass through unchanged. Input is read without blocking;
// the run loop calls hexsim_terminal_idle when every vCPU waits, which waits for input at
// most the host time the machine gives it (how much depends on --clock; src/hvm/run.c) and
// says whether some came, so the UART need not look for input while there is none.
// End of input (a pipe or file that ends, a tty hung up) reaches the guest as a terminal's
// end of file does: the EOF character (Ctrl-D, VEOF), typed when the guest waits for
// console input after writing a line that does not end in a newline (its prompt), as a
// person at the prompt would type it. A shell exits on it (and the project's init then
// powers off). When the guest is still at a prompt after HEXSIM_TERMINAL_EOF_TRIES of
// them, the run ends with a message (exit status 3: nothing can wake the guest).
// The escape key is Ctrl-A (as QEMU's): Ctrl-A x quits, Ctrl-A h prints help, Ctrl-A d
// stops the guest in the debugger (--debug), Ctrl-A s writes a snapshot of the machine as
// it is (src/cli/run_system.c), Ctrl-A Ctrl-A sends one Ctrl-A to the guest.
#define _GNU_SOURCE
#include "hexsim/host.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ESC_KEY 0x01
#define EOF_KEY 0x04            // VEOF: what Ctrl-D sends
#define IDLE_CAP_NS 50000000ull // an idle wait returns at least this often

static void out_bytes(struct hexsim_terminal *t, const void *buf, size_t n)
{
    if (n) {
        t->wrote_since_input = true;
        t->last_out = ((const uint8_t *)buf)[n - 1];
    }
    fwrite(buf, 1, n, t->out);
    if (t->tty || memchr(buf, '\n', n))
        fflush(t->out);
}

void hexsim_terminal_end_line(struct hexsim_terminal *t)
{
    if (t->last_out && t->last_out != '\n')
        out_bytes(t, "\n", 1);
    fflush(t->out);
}

// Messages and the console share a screen when both streams are terminals: then a message
// starts on a line of its own (after the guest's prompt, say) and leaves the console at the
// start of a line. Otherwise (output to a file or a pipe) the console's bytes stay the
// guest's alone.
static bool same_screen(const struct hexsim_terminal *t)
{
    return isatty(fileno(t->out)) && isatty(fileno(t->err));
}

void hexsim_terminal_fresh_line(struct hexsim_terminal *t)
{
    fflush(t->out);
    if (same_screen(t) && t->last_out && t->last_out != '\n') {
        fputs(t->raw ? "\r\n" : "\n", t->err);
        t->last_out = '\n';   // what follows (a message ending in a newline) starts a line
    }
    fflush(t->err);
}

static void term_fresh_line(void *ctx)
{
    hexsim_terminal_fresh_line(ctx);
}

static void msg(struct hexsim_terminal *t, const char *s)
{
    hexsim_terminal_fresh_line(t);
    fputs(s, t->err);
    fputs(t->raw ? "\r\n" : "\n", t->err);
    fflush(t->err);
    if (same_screen(t))
        t->last_out = '\n';
}

// One byte from the input, or 0 none now, or -1 at the end.
static int get_byte(struct hexsim_terminal *t, uint8_t *c)
{
    if (t->eof)
        return -1;
    if (!t->regular) {
        struct pollfd p = { .fd = t->in_fd, .events = POLLIN };
        if (poll(&p, 1, 0) <= 0)
            return 0;
    }
    ssize_t n = read(t->in_fd, c, 1);
    if (n == 1)
        return 1;
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    t->eof = true;
    return -1;
}

static int term_read(void *ctx, uint8_t *buf, size_t n)
{
    struct hexsim_terminal *t = ctx;
    size_t got = 0;
    if (t->eof_pending && n) {
        t->eof_pending = false;
        t->wrote_since_input = false;
        buf[0] = EOF_KEY;
        return 1;
    }
    while (got < n) {
        uint8_t c;
        int r = get_byte(t, &c);
        if (r < 0)
            r = 0;       // the end of input is told as Ctrl-D (see term_wants_input)
        if (r == 0) {
            if (got)
                break;
            return 0;
        }
        t->wrote_since_input = false;
        if (!t->esc) {
            if (c == ESC_KEY && t->escape) {
                t->esc = true;
                continue;
            }
            buf[got++] = c;
            continue;
        }
        t->esc = false;
        switch (c) {
        case 'x':
        case 'X':
            msg(t, "hexsim: Ctrl-A x: quitting");
            t->quit_requested = true;
            if (t->quit)
                t->quit(t->quit_ctx);
            return got ? (int)got : 0;
        case 'd':
        case 'D':
            if (t->debug)
                t->debug(t->quit_ctx);
            else
                msg(t, "hexsim: Ctrl-A d: no debugger (start hexsim with --debug)");
            break;
        case 's':
        case 'S':
            if (t->snapshot)
                t->snapshot(t->quit_ctx);
            else
                msg(t, "hexsim: Ctrl-A s: no snapshots here (under the debugger: savevm FILE)");
            break;
        case 'h':
        case 'H':
        case '?':
            msg(t, "hexsim escape keys: Ctrl-A x quit, Ctrl-A d stop in the debugger, "
                   "Ctrl-A s snapshot now, Ctrl-A h this help, Ctrl-A Ctrl-A send Ctrl-A");
            break;
        case ESC_KEY:
            buf[got++] = c;
            break;
        default:
            break;              // unknown escapes are ignored
        }
    }
    return (int)got;
}

static void term_write(void *ctx, const void *buf, size_t n)
{
    out_bytes(ctx, buf, n);
}

// The guest waits for console input: at the end of the input, type the end-of-file
// character at a prompt (output since the last input byte, not ending in a newline).
static bool term_wants_input(void *ctx)
{
    struct hexsim_terminal *t = ctx;
    if (!t->eof || t->eof_pending || !t->wrote_since_input || t->last_out == '\n' ||
        t->quit_requested)
        return false;
    if (t->eof_sent == HEXSIM_TERMINAL_EOF_TRIES) {
        char m[200];
        snprintf(m, sizeof m, "hexsim: the console input has ended and the guest still waits "
                 "for input after %d end-of-file characters (Ctrl-D): stopping",
                 HEXSIM_TERMINAL_EOF_TRIES);
        msg(t, m);
        t->quit_requested = t->input_ended = true;
        if (t->quit)
            t->quit(t->quit_ctx);
        return false;
    }
    t->eof_sent++;
    t->eof_pending = true;
    return true;
}

static void term_flush(void *ctx)
{
    struct hexsim_terminal *t = ctx;
    fflush(t->out);
}

static void set_raw(struct hexsim_terminal *t, int when)
{
    struct termios raw = t->saved;
    raw.c_iflag &= ~(unsigned)(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON);
    raw.c_lflag &= ~(unsigned)(ECHO | ECHONL | ICANON | ISIG | IEXTEN);
    raw.c_cflag &= ~(unsigned)(CSIZE | PARENB);
    raw.c_cflag |= CS8;
    raw.c_oflag |= OPOST | ONLCR;
    raw.c_cc[VMIN] = 1;
    raw.c_cc[VTIME] = 0;
    if (tcsetattr(t->in_fd, when, &raw) == 0)
        t->raw = true;
}

// The debugger's switches keep what was typed ahead (TCSADRAIN, not TCSAFLUSH).
void hexsim_terminal_raw(struct hexsim_terminal *t)
{
    if (t->have_saved)
        set_raw(t, TCSADRAIN);
}

void hexsim_terminal_cooked(struct hexsim_terminal *t)
{
    if (t->have_saved)
        tcsetattr(t->in_fd, TCSADRAIN, &t->saved);
}

int hexsim_terminal_open(struct hexsim_terminal *t, int in_fd, FILE *out, FILE *err,
                         bool escape)
{
    memset(t, 0, sizeof(*t));
    t->in_fd = in_fd;
    t->out = out;
    t->err = err;
    t->escape = escape;
    struct stat st;
    if (in_fd < 0 || fstat(in_fd, &st) != 0) {
        t->eof = true;
    } else {
        t->regular = S_ISREG(st.st_mode);
        t->tty = isatty(in_fd) != 0;
    }
    if (t->tty && tcgetattr(in_fd, &t->saved) == 0) {
        t->have_saved = true;
        set_raw(t, TCSAFLUSH);
    }
    t->chr.read = term_read;
    t->chr.write = term_write;
    t->chr.wants_input = term_wants_input;
    t->chr.idle_wakes = true;
    t->chr.ctx = t;
    t->con.write = term_write;
    t->con.flush = term_flush;
    t->con.fresh_line = term_fresh_line;
    t->con.ctx = t;
    return 0;
}

void hexsim_terminal_restore(const struct hexsim_terminal *t)
{
    if (t->raw)
        tcsetattr(t->in_fd, TCSAFLUSH, &t->saved);   // async-signal-safe
}

int hexsim_terminal_size(const struct hexsim_terminal *t, unsigned *rows, unsigned *cols)
{
    struct winsize ws;
    if (!t->tty || (ioctl(fileno(t->out), TIOCGWINSZ, &ws) != 0 &&
                    ioctl(t->in_fd, TIOCGWINSZ, &ws) != 0) || !ws.ws_row || !ws.ws_col)
        return -1;
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

void hexsim_terminal_close(struct hexsim_terminal *t)
{
    fflush(t->out);
    hexsim_terminal_restore(t);
    t->raw = false;
}

int hexsim_terminal_wait_fd(const struct hexsim_terminal *t)
{
    return t->eof || t->regular || t->quit_requested ? -1 : t->in_fd;
}

int hexsim_terminal_idle(void *ctx, uint64_t timeout_ns)
{
    struct hexsim_terminal *t = ctx;
    fflush(t->out);
    if (t->eof_pending)
        return 1;
    if (timeout_ns > IDLE_CAP_NS)
        timeout_ns = IDLE_CAP_NS;
    struct timespec ts = { (time_t)(timeout_ns / 1000000000ull),
                           (long)(timeout_ns % 1000000000ull) };
    int fd = hexsim_terminal_wait_fd(t);
    if (fd < 0) {
        // a regular file has its input at once (the UART reads it when it samples)
        if (timeout_ns)
            nanosleep(&ts, NULL);
        return t->regular && !t->eof && !t->quit_requested ? 1 : -1;
    }
    struct pollfd p = { .fd = fd, .events = POLLIN };
    return ppoll(&p, 1, &ts, NULL) > 0;
}
