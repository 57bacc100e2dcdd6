// SPDX-License-Identifier: MIT
// Host backends of the Comet devices (src/devices/host/): the terminal that carries the
// serial console and the angel console, and the network backends behind the Ethernet
// device. The program (src/main.c) creates them and hands them to the machine through its
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
    bool tty, raw, regular, eof, escape, esc, quit_requested;
    struct termios saved;
    void (*quit)(void *ctx);          // Ctrl-A x
    void (*debug)(void *ctx);         // Ctrl-A d (NULL: not available)
    void *quit_ctx;
    struct hexsim_chardev chr;        // for the UART
    struct hexsim_console con;        // for angel output
};

// Opens the terminal on in_fd (raw mode when it is a tty) and out; err gets messages.
// escape: interpret Ctrl-A sequences. Returns 0.
int hexsim_terminal_open(struct hexsim_terminal *t, int in_fd, FILE *out, FILE *err,
                         bool escape);
// Puts the tty back as it was (async-signal-safe; idempotent).
void hexsim_terminal_restore(const struct hexsim_terminal *t);
void hexsim_terminal_close(struct hexsim_terminal *t);
// Idle hook: waits for input at most the host time of pcycles at hz (capped at 20 ms).
void hexsim_terminal_idle(void *ctx, uint64_t pcycles, uint64_t hz);

// ---- network (net.c)
// Opens the backend described by spec: "none", "pcap=FILE" (frames the guest sends are
// recorded; nothing is received), "user[,hostfwd=tcp::HOSTPORT-:GUESTPORT...]" (libslirp
// user-mode networking, when built with it). Returns 0, or -1 with a message.
int hexsim_net_open(struct hexsim_netdev *n, const char *spec, char *msg, size_t msglen);
void hexsim_net_close(struct hexsim_netdev *n);
// Lets a user-mode backend run its timers and sockets; called from the idle hook and
// between slices (non-blocking).
void hexsim_net_poll(struct hexsim_netdev *n, int timeout_ms);

#endif
