// SPDX-License-Identifier: MIT
// Host backends of the Comet devices (src/devices/host/): the terminal that carries the
// serial console and the angel console, and the network backends behind the Ethernet
// device. The program (src/cli/run_system.c) creates them and hands them to the machine through its
// options; the machine never touches host resources on its own.
#ifndef HEXSIM_HOST_H
#define HEXSIM_HOST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <termios.h>

#include "hexsim/dev.h"

// ---- terminal (terminal.c)
struct hexsim_terminal {
    int in_fd;
    FILE *out, *err;
    bool tty, raw, regular, eof, escape, esc, quit_requested, have_saved;
    bool wrote_since_input;           // output since the last input byte went in
    uint8_t last_out;                 // the last output byte
    bool eof_pending;                 // a Ctrl-D for the end of input waits to be read
    int eof_sent;                     // Ctrl-Ds typed for the end of input so far
    bool input_ended;                 // the run was stopped: input over, guest waiting
    struct termios saved;
    void (*quit)(void *ctx);          // Ctrl-A x
    void (*debug)(void *ctx);         // Ctrl-A d (NULL: not available)
    void (*snapshot)(void *ctx);      // Ctrl-A s (NULL: not available)
    void *quit_ctx;
    struct hexsim_chardev chr;        // for the UART
    struct hexsim_console con;        // for angel output
};

// Opens the terminal on in_fd (raw mode when it is a tty) and out; err gets messages.
// escape: interpret Ctrl-A sequences. Returns 0.
int hexsim_terminal_open(struct hexsim_terminal *t, int in_fd, FILE *out, FILE *err,
                         bool escape);
// The debugger's line editor: the tty cooked (as it was) while a command is read, raw
// again for the guest; input typed ahead is kept.
void hexsim_terminal_cooked(struct hexsim_terminal *t);
void hexsim_terminal_raw(struct hexsim_terminal *t);
// Puts the tty back as it was (async-signal-safe; idempotent).
void hexsim_terminal_restore(const struct hexsim_terminal *t);
// Ends the console's output line when the guest has written one that does not end in a
// newline (its prompt), so that what hexsim writes next starts a line.
void hexsim_terminal_end_line(struct hexsim_terminal *t);
// Before a message on err: when err and the console's output are the same terminal and the
// console's last byte was not a newline (the guest's prompt), a newline on err first, so the
// message starts a line (the console's own stream is left alone).
void hexsim_terminal_fresh_line(struct hexsim_terminal *t);
void hexsim_terminal_close(struct hexsim_terminal *t);
// The terminal's size in characters (TIOCGWINSZ on the output, else the input): 0, or -1
// when it is not a terminal or does not say.
int hexsim_terminal_size(const struct hexsim_terminal *t, unsigned *rows, unsigned *cols);
// Ctrl-Ds typed at the prompt after the end of the input before the run is stopped.
#define HEXSIM_TERMINAL_EOF_TRIES 3
// Idle hook (struct hexsim_machine_opts idle): flushes the output and waits for input at
// most timeout_ns (and at most 50 ms). Returns 1 when input may be there, 0 when the
// time ran out, -1 when no more input can come (after waiting as long).
int hexsim_terminal_idle(void *ctx, uint64_t timeout_ns);
// The descriptor an idle wait should watch for console input, or -1 (end of input, a
// regular file, or quitting).
int hexsim_terminal_wait_fd(const struct hexsim_terminal *t);

// ---- console record and replay (record.c)
// --record FILE: every byte the serial port takes from its input, with the pcycle it was
// taken at, goes to FILE. --replay FILE: the port gets those bytes at those pcycles and
// nothing else, so the run repeats bit for bit whatever the host does. inner carries the
// output (and, when recording, the input); now is the machine's clock (set before the run).
struct hexsim_record {
    struct hexsim_chardev chr;        // for the UART
    struct hexsim_chardev *inner;
    const uint64_t *now;
    FILE *out;                        // recording
    struct { uint64_t at; int byte; } *ev;   // replaying: byte -1 is the end of input
    size_t n, pos;
    bool replaying, late_warned;
    FILE *err;
};
// Opens FILE for writing (replay false) or reads it whole (true); 0, or -1 with a message.
int hexsim_record_open(struct hexsim_record *r, const char *path, bool replay,
                       struct hexsim_chardev *inner, FILE *err, char *msg, size_t msglen);
// Writes what is left and closes; returns -1 if the record could not be written.
int hexsim_record_close(struct hexsim_record *r);

// ---- console script (script.c)
struct hexsim_script {
    struct hexsim_chardev chr;        // for the UART: the script, then inner
    struct hexsim_chardev *inner;     // the terminal
    uint8_t *data;
    size_t len, pos, released;        // bytes read so far <= bytes let through <= len
    bool output_since;                // the guest wrote something since the last line
    bool echoing;                     // the last line's echo has not reached its newline
};

// Reads the script FILE (at most 1 MiB); its lines go to the guest one at a time, each
// when the guest waits for input after writing. inner (may be set later, before the run)
// carries the output and the input after the script. Returns 0, or -1 with a message.
int hexsim_script_open(struct hexsim_script *s, const char *path,
                       struct hexsim_chardev *inner, char *msg, size_t msglen);
// Sets inner after hexsim_script_open (before the run).
void hexsim_script_set_inner(struct hexsim_script *s, struct hexsim_chardev *inner);
void hexsim_script_close(struct hexsim_script *s);

// ---- network (net.c)
// Opens the backend described by spec: "none", "pcap=FILE" (frames the guest sends are
// recorded; nothing is received), "user[,hostfwd=tcp::HOSTPORT-:GUESTPORT...]" (libslirp
// user-mode networking, when built with it). Returns 0, or -1 with a message.
// err receives the backend's run-time messages.
int hexsim_net_open(struct hexsim_netdev *n, const char *spec, FILE *err, char *msg,
                    size_t msglen);
// Whether this hexsim was built with libslirp ("user" available).
bool hexsim_net_user_available(void);
void hexsim_net_close(struct hexsim_netdev *n);
// True when the backend has host sockets to serve (--net user): the idle hook must then
// wait in hexsim_net_wait instead of only on the terminal.
bool hexsim_net_has_wait(const struct hexsim_netdev *n);
// Serves the backend's sockets and timers for at most timeout_ns, returning early when
// wake_fd (-1: none) becomes readable or frames for the guest are queued (the
// HEXSIM_NET_WAKE_FD and HEXSIM_NET_FRAMES bits; 0 when the time ran out).
int hexsim_net_wait(struct hexsim_netdev *n, int wake_fd, uint64_t timeout_ns);

#endif
