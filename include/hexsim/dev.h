// SPDX-License-Identifier: MIT
// Device model interface (DESIGN.md "Devices", STYLE.md): a device is a struct plus a const
// ops table {read, write, reset, save/restore, timing}, registered on a machine's bus with a
// base address, a size and an IRQ line out. Devices know nothing of each other or of the
// CPU; time reaches them as the machine's pcycle clock. The bus sends accesses that hit no
// device to one "unimplemented" handler that logs each unknown 4 KiB page once and reads
// as zero.
#ifndef HEXSIM_DEV_H
#define HEXSIM_DEV_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define HEXSIM_TIME_NEVER UINT64_MAX

// An interrupt line: set(ctx, line, level) drives it (level-style; the receiver decides
// about edges). The three-field handle of TinyEMU's IRQSignal.
struct hexsim_irq {
    void (*set)(void *ctx, unsigned line, int level);
    void *ctx;
    unsigned line;
};

static inline void hexsim_irq_set(const struct hexsim_irq *irq, int level)
{
    if (irq->set)
        irq->set(irq->ctx, irq->line, level);
}

struct hexsim_dev;

struct hexsim_dev_ops {
    const char *name;
    // off is relative to the device base; size 1, 2 or 4, aligned (the bus splits an
    // 8-byte access into two words and refuses misaligned ones)
    uint64_t (*read)(struct hexsim_dev *d, uint32_t off, unsigned size);
    void (*write)(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val);
    void (*reset)(struct hexsim_dev *d);
    // Snapshots: save writes at most len bytes and returns the size of the state (call with
    // len 0 to ask); restore returns 0 or -1 for a state of the wrong size.
    size_t (*save)(const struct hexsim_dev *d, void *buf, size_t len);
    int (*restore)(struct hexsim_dev *d, const void *buf, size_t len);
    // Timed devices: the pcycle time of the next state change (HEXSIM_TIME_NEVER none), and
    // the call the machine makes once the clock has reached it. NULL for untimed devices.
    uint64_t (*next_event)(const struct hexsim_dev *d);
    void (*advance)(struct hexsim_dev *d);
};

#define HEXSIM_DEV_UNDEF_WORDS 32     // one bit per 32-bit register of a 4 KiB page

struct hexsim_dev {
    const struct hexsim_dev_ops *ops;
    uint32_t base, size;
    struct hexsim_irq irq;
    const uint64_t *now;      // the machine's pcycle clock, set by hexsim_bus_add
    void *state;              // the device's own data
    FILE *trace;              // --trace-mmio log (set by hexsim_bus_add), NULL off
    uint32_t undef_seen[HEXSIM_DEV_UNDEF_WORDS];   // undefined registers already logged
};

// Snapshot restore helper: a bool member of a state copied in raw from buf is set again from
// its byte (any non-zero byte is true), so a damaged snapshot cannot leave an invalid bool.
#define HEXSIM_RESTORE_BOOL(dst, buf, type, field) \
    ((dst)->field = ((const unsigned char *)(buf))[offsetof(type, field)] != 0)

// A device reports an access to a register it does not define (what: "read"/"write"):
// logged once per register offset when --trace-mmio is on. The device still answers what
// the hardware would (usually 0).
void hexsim_dev_undef(struct hexsim_dev *d, const char *what, uint32_t off, unsigned size,
                      uint64_t val);

#define HEXSIM_BUS_MAX_DEVS 32
#define HEXSIM_BUS_MAX_WARN 64

struct hexsim_bus {
    struct hexsim_dev *dev[HEXSIM_BUS_MAX_DEVS];
    unsigned ndev;
    const uint64_t *now;
    FILE *log;                                // unimplemented-access reports (stderr)
    FILE *trace;                              // --trace-mmio: undefined registers (NULL off)
    FILE *trace_all;                          // --trace-mmio=all: every access (NULL off)
    uint32_t warned[HEXSIM_BUS_MAX_WARN];     // pages already reported
    unsigned nwarned;
    uint64_t unmapped_accesses;
};

void hexsim_bus_init(struct hexsim_bus *b, const uint64_t *now, FILE *log);
// Returns 0, or -1 when the range overlaps another device or the bus is full.
int hexsim_bus_add(struct hexsim_bus *b, struct hexsim_dev *d);
struct hexsim_dev *hexsim_bus_find(const struct hexsim_bus *b, uint32_t pa);
uint64_t hexsim_bus_read(struct hexsim_bus *b, uint32_t pa, unsigned size);
void hexsim_bus_write(struct hexsim_bus *b, uint32_t pa, unsigned size, uint64_t val);
void hexsim_bus_reset(struct hexsim_bus *b);
// Earliest next_event of all devices; advance() every device whose time has come.
uint64_t hexsim_bus_next_event(const struct hexsim_bus *b);
void hexsim_bus_advance(struct hexsim_bus *b);

// Console backend: where guest text output goes (angel calls, and the UART's output when
// no character backend is given).
struct hexsim_console {
    void (*write)(void *ctx, const void *buf, size_t n);
    void (*flush)(void *ctx);
    void *ctx;
    // Optional (NULL): before hexsim writes a message where the console's output shows
    // (the same terminal), ends the console's unfinished line (a guest's prompt).
    void (*fresh_line)(void *ctx);
};

// A console writing to a stdio stream (flushed at each newline).
void hexsim_console_stdio(struct hexsim_console *c, FILE *f);

// Character backend of a serial port: bytes both ways. read never blocks: it returns the
// number of bytes (at most n) available now, 0 when none are, -1 at the end of the input.
// NULL read: no input ever.
struct hexsim_chardev {
    int (*read)(void *ctx, uint8_t *buf, size_t n);
    void (*write)(void *ctx, const void *buf, size_t n);
    void *ctx;
    // Optional: the machine calls it whenever the guest waits for this port's input
    // (every vCPU idle, the port's RX interrupt enabled and its RX FIFO empty). Returns
    // true when that made input available (the machine then wakes the port).
    bool (*wants_input)(void *ctx);
    // True when, after read returned 0, new input is announced: by the machine's idle
    // hook returning 1, or by wants_input returning true (the machine then wakes the port). The
    // port need not sample the line until then. False (--replay: input due at pcycles):
    // the port samples it every character time.
    bool idle_wakes;
};

// Network backend of an Ethernet device: whole frames (destination MAC first, no FCS).
// recv never blocks: it copies the next frame the host has for the guest (at most cap
// bytes; a longer frame is cut) and returns its length, 0 when there is none.
#define HEXSIM_ETH_MAX_FRAME 1518
struct hexsim_netdev {
    void (*send)(void *ctx, const uint8_t *frame, size_t len);
    size_t (*recv)(void *ctx, uint8_t *frame, size_t cap);
    void (*close)(void *ctx);
    void *ctx;
    // Optional (host backends with sockets): serves them for at most timeout_ns, and
    // returns early with HEXSIM_NET_WAKE_FD when wake_fd (-1: none) becomes readable,
    // HEXSIM_NET_FRAMES when frames for the guest are queued (either or both; 0: neither).
    int (*wait)(void *ctx, int wake_fd, uint64_t timeout_ns);
};
enum { HEXSIM_NET_WAKE_FD = 1, HEXSIM_NET_FRAMES = 2 };

// Comet RTOS timer (0xAB000000): see src/devices/comet/rtos_timer.c.
#define HEXSIM_RTOS_TIMER_BASE 0xAB000000u
#define HEXSIM_RTOS_TIMER_IRQ 3
struct hexsim_rtos_timer {
    uint32_t match, enable, clear;
    uint32_t count0;          // count at time t0
    uint64_t t0;
    uint64_t period;          // pcycles per sleep-clock tick
    int line;                 // IRQ output level
};
void hexsim_rtos_timer_init(struct hexsim_dev *d, struct hexsim_rtos_timer *t,
                            uint64_t pcycles_per_tick);

#endif
