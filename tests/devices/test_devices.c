// SPDX-License-Identifier: MIT
// Check suites of the Comet devices' register behaviour (src/devices/comet/): SIRC
// enable/type/polarity/status/clear/soft and its cascade output, the clock control's UART3
// gate, the RTOS timer (match, clear-on-match pulses, match 0), the legacy MSM UART (clock gate, TX drain timing, SR/ISR/MISR bits, watermarks,
// RX with stale timeout, overrun, command register; reset RX puts the FIFO's characters
// back on the line) and the SMSC911x (ID, byte test,
// soft reset, MAC CSR and MII access, EEPROM-loaded MAC address, TX->loopback->RX frame
// path with statuses and FIFO levels, SW_INT and the active-low pin, bounds, a burst of
// frames larger than the RX FIFO taken as room frees up, none dropped), the UART's
// quiet receiver and its wake, and the virtio entropy device (set-up as Linux does it,
// buffers filled from the seed's stream, a bad buffer). Devices are driven directly
// through their ops, with a local clock.
#include "../check_main.h"
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/comet.h"
#include "hexsim/mem.h"

struct line { int level, changes; };

static void line_set(void *ctx, unsigned n, int level)
{
    struct line *l = ctx;
    (void)n;
    if (l->level != level)
        l->changes++;
    l->level = level;
}

static uint64_t rd(struct hexsim_dev *d, uint32_t off) { return d->ops->read(d, off, 4); }
static void wr(struct hexsim_dev *d, uint32_t off, uint32_t v) { d->ops->write(d, off, 4, v); }

// Advances a timed device to time t.
// Gives an initialised device the test's clock and interrupt line, and resets it.
static void attach(struct hexsim_dev *d, uint64_t *now, struct line *irq)
{
    d->now = now;
    d->irq = (struct hexsim_irq){ line_set, irq, 0 };
    d->ops->reset(d);
}

static void run_to(struct hexsim_dev *d, uint64_t *now, uint64_t t)
{
    for (;;) {
        uint64_t e = d->ops->next_event(d);
        if (e > t)
            break;
        *now = e;
        d->ops->advance(d);
    }
    *now = t;
}

// ---- SIRC
START_TEST(sirc_level_edge_polarity)
{
    struct hexsim_dev d;
    struct hexsim_sirc s;
    struct line l1[2] = { 0 };
    uint64_t now = 0;
    hexsim_sirc_init(&d, &s);
    d.now = &now;
    s.out[0] = (struct hexsim_irq){ line_set, &l1[0], 23 };
    s.out[1] = (struct hexsim_irq){ line_set, &l1[1], 24 };
    d.ops->reset(&d);
    ck_assert_uint_eq(rd(&d, 0x10), 0);                 // active high at reset
    ck_assert_uint_eq(rd(&d, 0x20), 0);                 // nothing wired: nothing pending
    // level, active high, on group 1 bit 18 (UART3)
    hexsim_sirc_set_line(&s, 32 + 18, 1);
    ck_assert_uint_eq(rd(&d, 0x420), 1u << 18);
    ck_assert_uint_eq(rd(&d, 0x414), 0);
    ck_assert_int_eq(l1[1].level, 0);
    wr(&d, 0x408, 1u << 18);                            // ENABLE_SET
    ck_assert_uint_eq(rd(&d, 0x400), 1u << 18);
    ck_assert_uint_eq(rd(&d, 0x414), 1u << 18);
    ck_assert_int_eq(l1[1].level, 1);
    ck_assert_int_eq(l1[0].level, 0);
    wr(&d, 0x418, 1u << 18);                            // clearing a level has no effect
    ck_assert_int_eq(l1[1].level, 1);
    hexsim_sirc_set_line(&s, 32 + 18, 0);
    ck_assert_int_eq(l1[1].level, 0);
    ck_assert_uint_eq(rd(&d, 0x414), 0);
    wr(&d, 0x404, 1u << 18);                            // ENABLE_CLEAR
    ck_assert_uint_eq(rd(&d, 0x400), 0);
    ck_assert_uint_eq(rd(&d, 0x404), 0);                // write-only reads 0
    // active low level on group 0 bit 19 (the Ethernet pin idles high)
    hexsim_sirc_set_line(&s, 19, 1);
    ck_assert_uint_eq(rd(&d, 0x20), 1u << 19);          // high = active while polarity 0
    wr(&d, 0x10, 1u << 19);
    ck_assert_uint_eq(rd(&d, 0x20), 0);
    wr(&d, 0x08, 1u << 19);
    ck_assert_int_eq(l1[0].level, 0);
    hexsim_sirc_set_line(&s, 19, 0);                    // asserted (low)
    ck_assert_int_eq(l1[0].level, 1);
    ck_assert_uint_eq(rd(&d, 0x14), 1u << 19);
    hexsim_sirc_set_line(&s, 19, 1);
    ck_assert_int_eq(l1[0].level, 0);
    // edge type: latched on the active edge, cleared by INT_CLEAR
    wr(&d, 0x0C, 1u << 19);
    hexsim_sirc_set_line(&s, 19, 0);
    hexsim_sirc_set_line(&s, 19, 1);
    ck_assert_uint_eq(rd(&d, 0x14), 1u << 19);
    ck_assert_int_eq(l1[0].level, 1);
    wr(&d, 0x18, 1u << 19);
    ck_assert_uint_eq(rd(&d, 0x14), 0);
    ck_assert_int_eq(l1[0].level, 0);
    // soft interrupt
    wr(&d, 0x08, 1u << 5);
    wr(&d, 0x1C, 1u << 5);
    ck_assert_uint_eq(rd(&d, 0x1C), 1u << 5);
    ck_assert_uint_eq(rd(&d, 0x14), 1u << 5);
    ck_assert_int_eq(l1[0].level, 1);
    wr(&d, 0x1C, 0);
    ck_assert_int_eq(l1[0].level, 0);
    // undefined offsets read 0
    ck_assert_uint_eq(rd(&d, 0x24), 0);
    ck_assert_uint_eq(rd(&d, 0x800), 0);
}
END_TEST

// ---- clock control
START_TEST(clk_uart3_gate)
{
    struct hexsim_dev d;
    struct hexsim_clk_ctl c;
    struct line g = { 0 };
    uint64_t now = 0;
    hexsim_clk_ctl_init(&d, &c);
    d.now = &now;
    c.out[HEXSIM_CLK_UART3] = (struct hexsim_irq){ line_set, &g, 0 };
    d.ops->reset(&d);
    ck_assert_int_eq(g.level, 0);
    wr(&d, 0xC0, 0x00020000u);
    ck_assert_int_eq(g.level, 1);
    ck_assert_uint_eq(rd(&d, 0xC0), 0x00020000u);
    wr(&d, 0xC0, 0x00011000u);                          // root on, branch off
    ck_assert_int_eq(g.level, 0);
    wr(&d, 0x100, 0x1234);                              // other registers hold values
    ck_assert_uint_eq(rd(&d, 0x100), 0x1234);
}
END_TEST

// ---- RTOS timer
START_TEST(rtos_match_and_clear_on_match)
{
    struct hexsim_dev d;
    struct hexsim_rtos_timer t;
    struct line l = { 0 };
    uint64_t now = 0;
    const uint64_t P = 10;                    // pcycles per sleep-clock tick
    hexsim_rtos_timer_init(&d, &t, P);
    attach(&d, &now, &l);
    wr(&d, 0x0, 5);                           // match 5, one-shot
    wr(&d, 0x8, 1);
    ck_assert_uint_eq(d.ops->next_event(&d), 5 * P);
    run_to(&d, &now, 5 * P - 1);
    ck_assert_int_eq(l.level, 0);
    ck_assert_uint_eq(rd(&d, 0x4), 4);
    run_to(&d, &now, 5 * P);
    ck_assert_int_eq(l.level, 1);             // stays high until a new match
    ck_assert_uint_eq(d.ops->next_event(&d), HEXSIM_TIME_NEVER);
    wr(&d, 0x0, 8);
    ck_assert_int_eq(l.level, 0);
    ck_assert_uint_eq(d.ops->next_event(&d), 8 * P);
    // clear-on-match: a pulse every match ticks
    wr(&d, 0x8, 0);
    wr(&d, 0xC, 1);
    wr(&d, 0xC, 0);
    wr(&d, 0x0, 3);
    int before = l.changes;
    wr(&d, 0x8, 3);
    run_to(&d, &now, now + 9 * P);
    ck_assert_int_eq(l.changes - before, 6);  // three pulses, each up and down
    // match 0 with clear-on-match: one pulse per tick, never an endless run at one instant
    wr(&d, 0x0, 0);
    uint64_t start = now;
    before = l.changes;
    unsigned events = 0;
    for (uint64_t e; (e = d.ops->next_event(&d)) <= start + 4 * P && events < 100; events++) {
        now = e;
        d.ops->advance(&d);
    }
    ck_assert_uint_le(events, 5);
    ck_assert_int_ge(l.changes - before, 8);
}
END_TEST

// ---- MSM UART
struct script {
    const char *in;
    size_t pos;
    char out[256];
    size_t nout;
};

static int s_read(void *ctx, uint8_t *b, size_t n)
{
    struct script *s = ctx;
    (void)n;
    if (!s->in[s->pos])
        return -1;
    b[0] = (uint8_t)s->in[s->pos++];
    return 1;
}

static void s_write(void *ctx, const void *b, size_t n)
{
    struct script *s = ctx;
    for (size_t i = 0; i < n && s->nout < sizeof(s->out) - 1; i++)
        s->out[s->nout++] = ((const char *)b)[i];
}

#define CT 100u

// A UART at UART3's address on the backend be, its interrupt on irq, at time 0.
struct uart_rig {
    struct hexsim_dev d;
    struct hexsim_msm_uart u;
    struct line irq;
    struct script sc;
    struct hexsim_chardev be;
    uint64_t now;
};

static void uart_attach(struct uart_rig *r)
{
    r->irq = (struct line){ 0 };
    r->now = 0;
    hexsim_msm_uart_init(&r->d, &r->u, HEXSIM_MSM_UART3_BASE, CT, &r->be);
    attach(&r->d, &r->now, &r->irq);
}

// The rig on a script backend reading in.
static void uart_rig(struct uart_rig *r, const char *in)
{
    r->sc = (struct script){ .in = in };
    r->be = (struct hexsim_chardev){ .read = s_read, .write = s_write, .ctx = &r->sc };
    uart_attach(r);
}

START_TEST(uart_tx)
{
    struct uart_rig r;
    uart_rig(&r, "");
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0xC, 0xC);      // TXRDY | TXEMT
    wr(&r.d, 0x10, 0x20);                               // reset TX
    wr(&r.d, 0x10, 0x04);                               // TX enable
    // no clock: nothing leaves
    wr(&r.d, 0x0C, 'A');
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x8, 0);         // not empty
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER);
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), CT);
    run_to(&r.d, &r.now, CT - 1);
    ck_assert_uint_eq(r.sc.nout, 0);
    run_to(&r.d, &r.now, CT);
    ck_assert_uint_eq(r.sc.nout, 1);
    ck_assert_int_eq(r.sc.out[0], 'A');
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0xC, 0xC);
    // fill the FIFO: TXRDY drops at 64, a 65th character is dropped
    for (int i = 0; i < 65; i++)
        wr(&r.d, 0x0C, 'a' + i % 26);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x4, 0);
    // TXLEV interrupt at the watermark
    wr(&r.d, 0x1C, 10);
    wr(&r.d, 0x14, 0x01);
    ck_assert_uint_eq(rd(&r.d, 0x14) & 1, 0);
    ck_assert_int_eq(r.irq.level, 0);
    run_to(&r.d, &r.now, r.now + 54 * CT);
    ck_assert_uint_eq(rd(&r.d, 0x14) & 1, 1);           // 10 left
    ck_assert_uint_eq(rd(&r.d, 0x10), 1);               // MISR
    ck_assert_int_eq(r.irq.level, 1);
    wr(&r.d, 0x14, 0);
    ck_assert_int_eq(r.irq.level, 0);
    run_to(&r.d, &r.now, r.now + 20 * CT);
    ck_assert_uint_eq(r.sc.nout, 65);
    // clock stop freezes TX
    wr(&r.d, 0x0C, 'Z');
    hexsim_msm_uart_set_clock(&r.d, 0, 0);
    run_to(&r.d, &r.now, r.now + 10 * CT);
    ck_assert_uint_eq(r.sc.nout, 65);
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    run_to(&r.d, &r.now, r.now + CT);
    ck_assert_uint_eq(r.sc.nout, 66);
    // TX disable holds characters; reset TX empties the FIFO, the host still gets them
    wr(&r.d, 0x10, 0x08);
    wr(&r.d, 0x0C, 'Q');
    run_to(&r.d, &r.now, r.now + 5 * CT);
    ck_assert_uint_eq(r.sc.nout, 66);
    wr(&r.d, 0x10, 0x20);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x8, 0x8);
    ck_assert_uint_eq(r.sc.nout, 67);
    ck_assert_int_eq(r.sc.out[66], 'Q');
    // registers read back; undefined ones read 0
    wr(&r.d, 0x04, 0x34);
    ck_assert_uint_eq(rd(&r.d, 0x04), 0x34);
    wr(&r.d, 0x18, 0x21);
    ck_assert_uint_eq(rd(&r.d, 0x18), 0x21);
    ck_assert_uint_eq(rd(&r.d, 0x3C), 0);
    ck_assert_uint_eq(rd(&r.d, 0x100), 0);
}
END_TEST

// hexsim_msm_uart_show: the FIFO's characters reach the host at once, each only once, and
// the guest's view (FIFO level, TXEMT, when the line is idle again) does not change.
START_TEST(uart_tx_show)
{
    struct uart_rig r;
    uart_rig(&r, "");
    wr(&r.d, 0x10, 0x04);                               // TX enable
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    wr(&r.d, 0x0C, 'a');
    wr(&r.d, 0x0C, 'b');
    hexsim_msm_uart_show(&r.u);
    ck_assert_uint_eq(r.sc.nout, 2);
    ck_assert_int_eq(memcmp(r.sc.out, "ab", 2), 0);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x8, 0);         // still not empty for the guest
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), CT);
    wr(&r.d, 0x0C, 'c');
    run_to(&r.d, &r.now, CT);
    ck_assert_uint_eq(r.sc.nout, 2);                    // 'a' left the FIFO: shown already
    hexsim_msm_uart_show(&r.u);
    hexsim_msm_uart_show(&r.u);                         // twice: nothing more
    ck_assert_uint_eq(r.sc.nout, 3);
    run_to(&r.d, &r.now, 3 * CT);
    ck_assert_uint_eq(r.sc.nout, 3);
    ck_assert_int_eq(memcmp(r.sc.out, "abc", 3), 0);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x8, 0x8);       // empty at the same time as without
    wr(&r.d, 0x0C, 'd');
    run_to(&r.d, &r.now, 4 * CT);
    ck_assert_uint_eq(r.sc.nout, 4);                    // not shown: sent as before
    ck_assert_int_eq(r.sc.out[3], 'd');
}
END_TEST

START_TEST(uart_rx)
{
    struct uart_rig r;
    uart_rig(&r, "hello");
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER); // RX off: not sampled
    wr(&r.d, 0x18, 0x21);                               // stale after 1 character time
    wr(&r.d, 0x20, 3);                                  // RXLEV above 3
    wr(&r.d, 0x10, 0x01);                               // RX enable
    wr(&r.d, 0x14, 0x18);                               // RXLEV | RXSTALE
    run_to(&r.d, &r.now, 2 * CT);                       // 'h', 'e'
    ck_assert_uint_eq(rd(&r.d, 0x08) & 1, 1);
    ck_assert_int_eq(r.irq.level, 0);
    run_to(&r.d, &r.now, 4 * CT);                       // 4 characters: above 3
    ck_assert_uint_eq(rd(&r.d, 0x14) & 0x10, 0x10);
    ck_assert_int_eq(r.irq.level, 1);
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'h');
    ck_assert_int_eq(r.irq.level, 0);
    run_to(&r.d, &r.now, 7 * CT);                       // 'o' at 5, stale at 6
    ck_assert_uint_eq(rd(&r.d, 0x14) & 0x08, 0x08);
    ck_assert_int_eq(r.irq.level, 1);
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'e');
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'l');
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'l');
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'o');
    ck_assert_uint_eq(rd(&r.d, 0x08) & 1, 0);           // empty: stale gone
    ck_assert_int_eq(r.irq.level, 0);
    ck_assert_uint_eq(rd(&r.d, 0x0C), 0);               // empty FIFO reads 0
    run_to(&r.d, &r.now, 20 * CT);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER); // input ended
}
END_TEST

// A backend that announces its input (idle_wakes): 'in' is what the host has now.
struct quiet_in { const char *in; size_t pos; unsigned reads; };

static int q_read(void *ctx, uint8_t *b, size_t n)
{
    struct quiet_in *q = ctx;
    (void)n;
    q->reads++;
    if (!q->in[q->pos])
        return 0;
    b[0] = (uint8_t)q->in[q->pos++];
    return 1;
}

START_TEST(uart_rx_quiet_until_woken)
{
    struct quiet_in q = { .in = "" };
    struct uart_rig r;
    r.be = (struct hexsim_chardev){ .read = q_read, .ctx = &q, .idle_wakes = true };
    uart_attach(&r);
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    wr(&r.d, 0x10, 0x01);                               // RX enable
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), CT);
    run_to(&r.d, &r.now, CT);                           // one sample, nothing there
    ck_assert_uint_eq(q.reads, 1);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER); // quiet: no events
    run_to(&r.d, &r.now, 1000 * CT + 30);
    ck_assert_uint_eq(q.reads, 1);
    // input comes; the wake resumes the samples at the next point of the same grid
    q.in = "k";
    hexsim_msm_uart_wake(&r.d, r.now);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), 1001 * CT);
    run_to(&r.d, &r.now, 1001 * CT);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 1, 1);             // RXRDY
    ck_assert_uint_eq(rd(&r.d, 0x0C), 'k');
    run_to(&r.d, &r.now, 1002 * CT);                        // the next sample finds nothing
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER);
    // a wake for later (a running vCPU's) samples at the first point of the grid from then,
    // not at every one before it; a wake for now after it brings the sample forward again
    hexsim_msm_uart_wake(&r.d, 1100 * CT + 1);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), 1101 * CT);
    hexsim_msm_uart_wake(&r.d, 1200 * CT);                // (later still: no change)
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), 1101 * CT);
    run_to(&r.d, &r.now, 1050 * CT + 7);
    ck_assert_uint_eq(q.reads, 3);                      // no sample in between
    hexsim_msm_uart_wake(&r.d, r.now);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), 1051 * CT);
    run_to(&r.d, &r.now, 1051 * CT);
    ck_assert_uint_eq(q.reads, 4);
    ck_assert_uint_eq(r.d.ops->next_event(&r.d), HEXSIM_TIME_NEVER);
    // a backend that does not announce (--replay) is sampled every character time
    r.be.idle_wakes = false;
    hexsim_msm_uart_wake(&r.d, r.now);
    unsigned r0 = q.reads;
    run_to(&r.d, &r.now, 1061 * CT);
    ck_assert_uint_eq(q.reads - r0, 10);
}
END_TEST

START_TEST(uart_rx_full_and_reset)
{
    char big[101];
    memset(big, 'x', 100);
    big[100] = 0;
    struct uart_rig r;
    uart_rig(&r, big);
    hexsim_msm_uart_set_clock(&r.d, 0, 1);
    wr(&r.d, 0x10, 0x01);
    run_to(&r.d, &r.now, 200 * CT);
    ck_assert_uint_eq(rd(&r.d, 0x08) & 3, 3);           // RXRDY | RXFULL
    ck_assert_uint_eq(r.sc.pos, 64);                    // host input waits, never lost
    ck_assert_uint_eq(rd(&r.d, 0x08) & 0x10, 0);        // no overrun from host input
    wr(&r.d, 0x10, 0x10);                               // reset RX: flush and disable
    ck_assert_uint_eq(rd(&r.d, 0x08) & 3, 0);
    run_to(&r.d, &r.now, 300 * CT);
    ck_assert_uint_eq(r.sc.pos, 64);
    // the flushed characters went back to the line: received again once RX is on, before
    // the host's next ones, so all 100 arrive (msm_serial resets RX at each termios change)
    wr(&r.d, 0x10, 0x01);
    unsigned got = 0;
    for (int i = 0; i < 400 && got < 100; i++) {
        run_to(&r.d, &r.now, r.now + CT);
        while (rd(&r.d, 0x08) & 1) {
            ck_assert_uint_eq(rd(&r.d, 0x0C), 'x');
            got++;
        }
    }
    ck_assert_uint_eq(got, 100);
    ck_assert_uint_eq(r.sc.pos, 100);
}
END_TEST

// ---- SMSC911x
struct wire {
    uint8_t sent[2][1600];
    size_t len[2];
    int nsent;
    const uint8_t *in;
    size_t in_len;
};

static void w_send(void *ctx, const uint8_t *f, size_t n)
{
    struct wire *w = ctx;
    if (w->nsent < 2 && n <= 1600) {
        memcpy(w->sent[w->nsent], f, n);
        w->len[w->nsent] = n;
    }
    w->nsent++;
}

static size_t w_recv(void *ctx, uint8_t *f, size_t cap)
{
    struct wire *w = ctx;
    size_t n = w->in_len;
    if (!w->in)
        return 0;
    if (n > cap)
        n = cap;
    memcpy(f, w->in, n);
    w->in = NULL;
    return n;
}

static uint32_t mac_rd(struct hexsim_dev *d, unsigned a)
{
    wr(d, 0xA4, 0xC0000000u | a);
    ck_assert_uint_eq(rd(d, 0xA4) & 0x80000000u, 0);
    return (uint32_t)rd(d, 0xA8);
}

static void mac_wr(struct hexsim_dev *d, unsigned a, uint32_t v)
{
    wr(d, 0xA8, v);
    wr(d, 0xA4, 0x80000000u | a);
}

static uint32_t mii_rd(struct hexsim_dev *d, unsigned phy, unsigned reg)
{
    mac_wr(d, 6, phy << 11 | reg << 6);     // as Linux 6.1 writes it: MIIBZY not set
    ck_assert_uint_eq(mac_rd(d, 6) & 1, 0);
    return mac_rd(d, 7);
}

static const uint8_t MAC[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

// An SMSC911x on a backend that sends to w_send and receives from recv(ctx), at time 0.
struct eth_rig {
    struct hexsim_dev d;
    struct hexsim_smsc911x *e;
    struct line pin;
    struct hexsim_netdev be;
    uint64_t now;
};

static void eth_rig(struct eth_rig *r, size_t (*recv)(void *, uint8_t *, size_t), void *ctx)
{
    r->e = calloc(1, sizeof(*r->e));
    r->pin = (struct line){ 0 };
    r->now = 0;
    r->be = (struct hexsim_netdev){ .send = w_send, .recv = recv, .ctx = ctx };
    hexsim_smsc911x_init(&r->d, r->e, MAC, &r->be);
    attach(&r->d, &r->now, &r->pin);
}

START_TEST(smsc_ident_reset_mac_phy)
{
    struct wire w = { 0 };
    struct eth_rig r;
    eth_rig(&r, w_recv, &w);
    ck_assert_int_eq(r.pin.level, 1);                   // active low, idle high
    ck_assert_uint_eq(rd(&r.d, 0x64), 0x87654321u);
    ck_assert_uint_eq(rd(&r.d, 0x50) & 0xFFFF0000u, 0x01180000u);
    ck_assert_uint_eq(rd(&r.d, 0x84) & 1, 1);           // READY
    ck_assert_uint_eq(rd(&r.d, 0xB0) & 0x100, 0x100);   // MAC address loaded
    ck_assert_uint_eq(mac_rd(&r.d, 3), 0x12005452u);
    ck_assert_uint_eq(mac_rd(&r.d, 2), 0x5634u);
    mac_wr(&r.d, 2, 0xBEEF);
    ck_assert_uint_eq(mac_rd(&r.d, 2), 0xBEEF);
    wr(&r.d, 0x74, 1);                                  // soft reset
    ck_assert_uint_eq(rd(&r.d, 0x74) & 1, 0);
    ck_assert_uint_eq(mac_rd(&r.d, 2), 0x5634u);        // reloaded from the EEPROM
    ck_assert_uint_eq(rd(&r.d, 0x80) & 0xFFFF, 4608);   // TX free with TX_FIF_SZ 5
    // PHY at address 1; nothing at 2
    ck_assert_uint_eq(mii_rd(&r.d, 1, 2), 0x0007);
    ck_assert_uint_eq(mii_rd(&r.d, 1, 3) & 0xFFF0, 0xC0D0);
    ck_assert_uint_eq(mii_rd(&r.d, 1, 1) & 0x24, 0x24); // link, aneg complete
    ck_assert_uint_eq(mii_rd(&r.d, 2, 2), 0xFFFF);
    wr(&r.d, 0x84, 0x400);                              // PHY reset completes at once
    ck_assert_uint_eq(rd(&r.d, 0x84) & 0x401, 1);
    // EEPROM read
    wr(&r.d, 0xB0, 0x80000000u | 0);
    ck_assert_uint_eq(rd(&r.d, 0xB4), 0xA5);
    ck_assert_uint_eq(rd(&r.d, 0xB0) & 0x80000000u, 0);
    // undefined registers read 0
    ck_assert_uint_eq(rd(&r.d, 0x94), 0);
    ck_assert_uint_eq(rd(&r.d, 0x1F8), 0);
    free(r.e);
}
END_TEST

// Writes one frame to the TX FIFO as smsc911x_hard_start_xmit does.
static void tx_frame(struct hexsim_dev *d, const uint8_t *f, uint32_t len, uint32_t tag)
{
    wr(d, 0x20, 0x3000u | len);
    wr(d, 0x20, tag << 16 | len);
    for (uint32_t i = 0; i < (len + 3) / 4; i++) {
        uint32_t v = 0;
        for (uint32_t b = 0; b < 4; b++)
            if (4 * i + b < len)
                v |= (uint32_t)f[4 * i + b] << (8 * b);
        wr(d, 0x24, v);
    }
}

START_TEST(smsc_loopback_and_wire)
{
    struct wire w = { 0 };
    struct eth_rig r;
    eth_rig(&r, w_recv, &w);
    uint8_t f[64];
    memset(f, 0xFF, 6);
    for (int i = 6; i < 64; i++)
        f[i] = (uint8_t)i;
    f[12] = f[13] = 0;
    // the driver's loopback self-test
    wr(&r.d, 0x70, 2);                                  // TX_ON
    wr(&r.d, 0x6C, 0);
    mac_wr(&r.d, 7, 0x4100);                            // MII write BMCR: loopback,
    mac_wr(&r.d, 6, 1 << 11 | 0 << 6 | 2);              // full duplex (MIIBZY not set)
    mac_wr(&r.d, 1, 0x0010000Cu);                       // FDPX | TXEN | RXEN
    tx_frame(&r.d, f, 64, 0);
    ck_assert_uint_eq((rd(&r.d, 0x80) >> 16) & 0xFF, 1); // one TX status
    ck_assert_uint_eq(rd(&r.d, 0x48) & 0x8000, 0);
    ck_assert_uint_eq((rd(&r.d, 0x7C) >> 16) & 0xFF, 1); // one RX status
    uint32_t st = (uint32_t)rd(&r.d, 0x40);
    ck_assert_uint_eq(st >> 16, 68);                    // + FCS
    ck_assert_uint_eq(st & 0x8000, 0);
    ck_assert_uint_eq(rd(&r.d, 0x7C) & 0xFFFF, 68);
    uint8_t got[68];
    for (int i = 0; i < 17; i++) {
        uint32_t v = (uint32_t)rd(&r.d, 0x00);
        memcpy(got + 4 * i, &v, 4);
    }
    ck_assert_mem_eq(got, f, 64);
    ck_assert_int_eq(w.nsent, 0);
    // normal operation: loopback off, frame to the wire; RX with RXDOFF 2 and an interrupt
    mac_wr(&r.d, 7, 0);
    mac_wr(&r.d, 6, 1 << 11 | 0 << 6 | 3);
    wr(&r.d, 0x54, 0x0A000100u);                        // IRQ_EN, active low, deassert 100us
    wr(&r.d, 0x5C, 0x80000000u);                        // SW_INT_EN: the IRQ self-test
    ck_assert_uint_eq(rd(&r.d, 0x58) & 0x80000000u, 0x80000000u);
    ck_assert_int_eq(r.pin.level, 0);                   // asserted low
    ck_assert_uint_eq(rd(&r.d, 0x54) & 0x1000, 0x1000);
    wr(&r.d, 0x5C, 0);
    wr(&r.d, 0x58, 0x80000000u);
    ck_assert_int_eq(r.pin.level, 1);
    tx_frame(&r.d, f, 60, 7);
    ck_assert_int_eq(w.nsent, 1);
    ck_assert_uint_eq(w.len[0], 60);
    ck_assert_mem_eq(w.sent[0], f, 60);
    ck_assert_uint_eq(rd(&r.d, 0x48) >> 16, 7);         // the packet tag
    wr(&r.d, 0x6C, 2 << 8);
    wr(&r.d, 0x68, 0xFF000000u);                        // RX status level 0
    wr(&r.d, 0x5C, 0x8);                                // RSFL
    uint8_t in[42];
    memcpy(in, MAC, 6);
    for (int i = 6; i < 42; i++)
        in[i] = (uint8_t)(0x40 + i);
    in[12] = 0x08;
    in[13] = 0x06;
    w.in = in;
    w.in_len = sizeof(in);
    run_to(&r.d, &r.now, 1000000);
    ck_assert_int_eq(r.pin.level, 0);
    st = (uint32_t)rd(&r.d, 0x40);
    ck_assert_uint_eq(st >> 16, 46);
    ck_assert_uint_eq(st & 0x20, 0x20);                 // Ethernet II
    ck_assert_int_eq(r.pin.level, 0);                   // RSFL is latched...
    wr(&r.d, 0x58, 0x8);
    ck_assert_int_eq(r.pin.level, 1);                   // ...until cleared, FIFO empty
    uint32_t v = (uint32_t)rd(&r.d, 0x00);
    ck_assert_uint_eq(v & 0xFFFF, 0);                   // two pad bytes first
    ck_assert_uint_eq(v >> 16, MAC[0] | MAC[1] << 8);
    wr(&r.d, 0x78, 0x80000000u);                        // fast forward the rest
    ck_assert_uint_eq(rd(&r.d, 0x7C), 0);
    // a frame for another address is filtered
    in[0] = 0x02;
    w.in = in;
    run_to(&r.d, &r.now, 2000000);
    ck_assert_uint_eq(rd(&r.d, 0x7C), 0);
    // bounds: a guest cannot overrun the TX frame buffer with huge command lengths
    wr(&r.d, 0x20, 0x3000u | 0x7FF);
    wr(&r.d, 0x20, 0x7FF);
    for (int i = 0; i < 0x200; i++)
        wr(&r.d, 0x20, 0xAAAAAAAAu);
    ck_assert_int_eq(w.nsent, 2);
    ck_assert_uint_eq(w.len[1] <= 2047, 1);
    free(r.e);
}
END_TEST

// A backend with `left` full-size frames for the device's address waiting.
struct burst {
    int left;
};

static size_t burst_recv(void *ctx, uint8_t *f, size_t cap)
{
    struct burst *b = ctx;
    if (!b->left || cap < 1514)
        return 0;
    b->left--;
    memcpy(f, MAC, 6);
    memset(f + 6, 0x22, 1508);
    f[12] = 0x08;
    f[13] = 0x00;
    return 1514;
}

// More frames than the RX FIFO holds arrive at once (a TCP window from the host): the
// device takes what fits and leaves the rest on the wire for later polls, dropping none
// (overrunning the FIFO made TCP wait for retransmission timeouts: 1 MB took seconds).
START_TEST(smsc_rx_burst_waits_for_room)
{
    struct burst b = { 20 };
    struct eth_rig r;
    eth_rig(&r, burst_recv, &b);
    wr(&r.d, 0x6C, 0);
    mac_wr(&r.d, 1, 0x0010000Cu);                       // FDPX | TXEN | RXEN
    unsigned got = 0;
    for (int round = 0; round < 20 && got < 20; round++) {
        run_to(&r.d, &r.now, r.now + 100000);
        unsigned n = (rd(&r.d, 0x7C) >> 16) & 0xFF;     // RX statuses used
        ck_assert_uint_ge(n, 1);
        ck_assert_uint_le(n * 1520u, HEXSIM_SMSC_RX_FIFO);
        ck_assert_uint_eq(rd(&r.d, 0xA0), 0);           // RX_DROP
        for (unsigned i = 0; i < n; i++) {              // the driver reads each frame out
            ck_assert_uint_eq((uint32_t)rd(&r.d, 0x40) >> 16, 1518);
            wr(&r.d, 0x78, 0x80000000u);
        }
        got += n;
    }
    ck_assert_uint_eq(got, 20);
    ck_assert_int_eq(b.left, 0);
    free(r.e);
}
END_TEST

// ---- virtio entropy device
#define VQ_DESC 0x1000u
#define VQ_AVAIL 0x2000u
#define VQ_USED 0x3000u
#define VQ_BUF 0x4000u

// Offers one 40-byte write-only buffer (descriptor 0) in avail slot `slot` and notifies.
static void rng_offer(struct hexsim_dev *d, struct hexsim_mem *ram, uint16_t slot)
{
    uint64_t addr = VQ_BUF;
    uint32_t len = 40;
    uint16_t flags = 2, next = 0, idx = (uint16_t)(slot + 1), head = 0;
    hexsim_mem_copy_in(ram, VQ_DESC, &addr, 8, true, NULL);
    hexsim_mem_copy_in(ram, VQ_DESC + 8, &len, 4, true, NULL);
    hexsim_mem_copy_in(ram, VQ_DESC + 12, &flags, 2, true, NULL);
    hexsim_mem_copy_in(ram, VQ_DESC + 14, &next, 2, true, NULL);
    hexsim_mem_copy_in(ram, VQ_AVAIL + 4 + 2u * (slot % 8), &head, 2, true, NULL);
    hexsim_mem_copy_in(ram, VQ_AVAIL + 2, &idx, 2, true, NULL);
    wr(d, 0x050, 0);                                    // QueueNotify
}

// Brings the device up as Linux's virtio_mmio and virtio-rng do, with an 8-entry queue.
static void rng_up(struct hexsim_dev *d, struct hexsim_virtio_rng *r, struct hexsim_mem *ram,
                   struct line *irq, uint64_t *now, uint64_t seed)
{
    hexsim_virtio_rng_init(d, r, ram, seed);
    attach(d, now, irq);
    ck_assert_uint_eq(rd(d, 0x000), 0x74726976u);       // "virt"
    ck_assert_uint_eq(rd(d, 0x004), 2);
    ck_assert_uint_eq(rd(d, 0x008), 4);                 // entropy source
    wr(d, 0x070, 1 | 2);                                // ACKNOWLEDGE | DRIVER
    wr(d, 0x014, 1);
    ck_assert_uint_eq(rd(d, 0x010), 1);                 // VIRTIO_F_VERSION_1 (bit 32)
    wr(d, 0x024, 1);
    wr(d, 0x020, 1);
    wr(d, 0x070, 1 | 2 | 8);                            // FEATURES_OK
    wr(d, 0x030, 0);
    ck_assert_uint_eq(rd(d, 0x034), HEXSIM_VIRTIO_RNG_QUEUE);
    wr(d, 0x038, 8);
    wr(d, 0x080, VQ_DESC);
    wr(d, 0x090, VQ_AVAIL);
    wr(d, 0x0a0, VQ_USED);
    wr(d, 0x044, 1);
    wr(d, 0x070, 1 | 2 | 8 | 4);                        // DRIVER_OK
}

START_TEST(virtio_rng_fills_buffers)
{
    struct hexsim_mem ram;
    hexsim_mem_init(&ram);
    ck_assert_int_eq(hexsim_mem_map(&ram, 0, 0x10000, HEXSIM_PROT_R | HEXSIM_PROT_W), 0);
    struct hexsim_dev d;
    struct hexsim_virtio_rng r;
    struct line irq = { 0 };
    uint64_t now = 0;
    uint8_t a[40], b[40], c[40], zero[40] = { 0 };
    rng_up(&d, &r, &ram, &irq, &now, 0);
    rng_offer(&d, &ram, 0);
    ck_assert_int_eq(irq.level, 1);
    ck_assert_uint_eq(rd(&d, 0x060), 1);                // used buffer notification
    uint16_t used_idx;
    uint32_t elem[2];
    hexsim_mem_copy_out(&ram, VQ_USED + 2, &used_idx, 2, HEXSIM_PROT_R, NULL);
    hexsim_mem_copy_out(&ram, VQ_USED + 4, elem, 8, HEXSIM_PROT_R, NULL);
    ck_assert_uint_eq(used_idx, 1);
    ck_assert_uint_eq(elem[0], 0);
    ck_assert_uint_eq(elem[1], 40);
    hexsim_mem_copy_out(&ram, VQ_BUF, a, 40, HEXSIM_PROT_R, NULL);
    ck_assert(memcmp(a, zero, 40) != 0);
    wr(&d, 0x064, 1);                                   // InterruptACK
    ck_assert_int_eq(irq.level, 0);
    rng_offer(&d, &ram, 1);                             // the stream goes on
    hexsim_mem_copy_out(&ram, VQ_BUF, b, 40, HEXSIM_PROT_R, NULL);
    ck_assert(memcmp(a, b, 40) != 0);
    // the same seed gives the same bytes; another seed other ones
    rng_up(&d, &r, &ram, &irq, &now, 0);
    rng_offer(&d, &ram, 0);
    hexsim_mem_copy_out(&ram, VQ_BUF, c, 40, HEXSIM_PROT_R, NULL);
    ck_assert_mem_eq(a, c, 40);
    rng_up(&d, &r, &ram, &irq, &now, 7);
    rng_offer(&d, &ram, 0);
    hexsim_mem_copy_out(&ram, VQ_BUF, c, 40, HEXSIM_PROT_R, NULL);
    ck_assert(memcmp(a, c, 40) != 0);
    // a buffer outside RAM: DEVICE_NEEDS_RESET, no crash
    rng_up(&d, &r, &ram, &irq, &now, 0);
    uint64_t far = 0x40000000u;
    hexsim_mem_copy_in(&ram, VQ_DESC, &far, 8, true, NULL);
    uint16_t idx = 1, head = 0;
    hexsim_mem_copy_in(&ram, VQ_AVAIL + 4, &head, 2, true, NULL);
    hexsim_mem_copy_in(&ram, VQ_AVAIL + 2, &idx, 2, true, NULL);
    wr(&d, 0x050, 0);
    ck_assert_uint_eq(rd(&d, 0x070) & 0x40, 0x40);
    ck_assert_uint_eq(rd(&d, 0x060) & 2, 2);
    hexsim_mem_free(&ram);
}
END_TEST

static Suite *devices_suite(void)
{
    Suite *s = suite_create("devices");
    TCase *t = tcase_create("comet");
    tcase_add_test(t, sirc_level_edge_polarity);
    tcase_add_test(t, clk_uart3_gate);
    tcase_add_test(t, rtos_match_and_clear_on_match);
    tcase_add_test(t, uart_tx);
    tcase_add_test(t, uart_tx_show);
    tcase_add_test(t, uart_rx);
    tcase_add_test(t, uart_rx_quiet_until_woken);
    tcase_add_test(t, uart_rx_full_and_reset);
    tcase_add_test(t, virtio_rng_fills_buffers);
    tcase_add_test(t, smsc_ident_reset_mac_phy);
    tcase_add_test(t, smsc_loopback_and_wire);
    tcase_add_test(t, smsc_rx_burst_waits_for_room);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    return hexsim_check_run(devices_suite());
}
