// SPDX-License-Identifier: MIT
// MSM UART in legacy (non-DM) mode, as Linux 6.1 drivers/tty/serial/msm_serial.c drives it
// with is_uartdm = 0 (register offsets and bits from that driver; addresses and IRQs from
// seed 006: UART3 0xA9C00000 on SIRC1 bit 18, UART1/UART2 0xA9A00000/0xA9B00000).
//
// Registers (32-bit): MR1 0x00 (auto-RFR level, CTS/RFR control), MR2 0x04 (bits per
// char, stop bits, parity), CSR 0x08 write / SR 0x08 read, TF 0x0C write / RF 0x0C read,
// CR 0x10 write / MISR 0x10 read, IMR 0x14 write / ISR 0x14 read, IPR 0x18 (stale
// timeout: bits 0-4 low part, bits 7-17 high part, in character times), TFWR 0x1C,
// RFWR 0x20, HCR 0x24, M/N/D/MND 0x28-0x34, IRDA 0x38, MISR_MODE/RESET/EXPORT/VAL
// 0x40-0x4C (signature test registers: stored or read 0), TEST_CTRL 0x50.
// SR: RXRDY 0 (RX FIFO not empty), RXFULL 1, TXRDY 2 (TX FIFO not full), TXEMT 3 (TX
// FIFO and shifter empty), OVERRUN 4 (a character arrived with the RX FIFO full; cleared
// by CR reset-error). ISR/IMR bits: TXLEV 0 (TX FIFO at or below TFWR), RXSTALE 3 (the
// stale timeout ran out with characters in the RX FIFO; cleared by the reset-stale
// command or by emptying the FIFO, which is how the legacy driver ends it), RXLEV 4 (RX
// FIFO above RFWR). RXHUNT, break change, delta/current CTS read 0: no modem lines, the
// line never breaks (so CURRENT_CTS, which msm_serial unmasks but never handles, cannot
// storm). MISR = ISR & IMR; the interrupt output is high while MISR is non-zero (the
// driver asks for IRQF_TRIGGER_HIGH). CR: bits 0-3 RX enable/disable, TX enable/disable;
// channel command bits 4-7 (plus bit 11 as bit 4 of it): reset RX (flush, disable), reset
// TX (flush, disable), reset error, reset break change, start/stop break (TX pauses),
// reset CTS, reset stale, mode reset, set/reset RFR; general commands in bits 8-10
// (protection enable, stale event enable/disable, force stale, reset TX ready) belong to
// UARTDM and are accepted without effect. FIFOs hold msm_serial's fifosize (64) each.
// Two departures: reset TX empties the TX FIFO for the guest as the hardware does, but the
// characters it held still reach the host (msm_serial resets TX when a tty opens, which
// would cut the last console lines before it); and reset RX empties the RX FIFO, but the
// characters it held go back to the line, to be received again (msm_serial resets RX on
// every termios change, so input typed ahead, from a pipe or a script, would lose up to a
// FIFO's worth whenever a shell switches its terminal mode).
//
// Time: one character takes char_time pcycles on the line (default 1/10 of 115200 baud
// 8N1 at 600 MHz, so boot logs do not crawl; it is a model parameter, not derived from CSR
// and the M/N/D divider, which only hold their values). While TX is enabled and clocked
// the FIFO drains one character per char_time to the host backend; while RX is enabled
// and clocked the host side is sampled once per char_time and a waiting byte enters the
// RX FIFO (none is read while the FIFO is full: host input is never dropped). A backend
// that announces its input (struct hexsim_chardev idle_wakes) lets the receiver go quiet
// when a sample finds nothing: the samples stop being events until the machine wakes the
// port (hexsim_msm_uart_wake: input may have come, or, less often, a vCPU runs), which
// resumes them at a point of the same char_time grid, so neither an idle nor a computing
// guest is interrupted every character time, and the pcycle a byte is taken at stays on
// the grid (a recording replays). All of
// it runs on the pcycle clock. Without its clock (the clock controller's UART3 branch) the
// UART keeps its registers but nothing moves: no TX, no RX, no timeouts.
#include <string.h>

#include "hexsim/comet.h"

enum {
    R_MR1 = 0x00, R_MR2 = 0x04, R_SR_CSR = 0x08, R_RF_TF = 0x0C, R_MISR_CR = 0x10,
    R_ISR_IMR = 0x14, R_IPR = 0x18, R_TFWR = 0x1C, R_RFWR = 0x20, R_HCR = 0x24,
    R_MREG = 0x28, R_NREG = 0x2C, R_DREG = 0x30, R_MNDREG = 0x34, R_IRDA = 0x38,
    R_MISR_MODE = 0x40, R_MISR_RESET = 0x44, R_MISR_EXPORT = 0x48, R_MISR_VAL = 0x4C,
    R_TEST_CTRL = 0x50,
};

#define SR_RXRDY 0x01u
#define SR_RXFULL 0x02u
#define SR_TXRDY 0x04u
#define SR_TXEMT 0x08u
#define SR_OVERRUN 0x10u

#define INT_TXLEV 0x01u
#define INT_RXSTALE HEXSIM_MSM_UART_INT_RXSTALE
#define INT_RXLEV HEXSIM_MSM_UART_INT_RXLEV
#define IMR_MASK 0x7Fu

#define CR_RX_EN 0x1u
#define CR_RX_DIS 0x2u
#define CR_TX_EN 0x4u
#define CR_TX_DIS 0x8u

enum {
    CMD_RESET_RX = 1, CMD_RESET_TX = 2, CMD_RESET_ERR = 3, CMD_RESET_BREAK_INT = 4,
    CMD_START_BREAK = 5, CMD_STOP_BREAK = 6, CMD_RESET_CTS = 7, CMD_RESET_STALE = 8,
};

#define NEVER HEXSIM_TIME_NEVER
#define FIFO HEXSIM_MSM_UART_FIFO

static uint32_t isr(const struct hexsim_msm_uart *u)
{
    uint32_t v = 0;
    if (u->tx_n <= u->tfwr)
        v |= INT_TXLEV;
    if (u->stale && u->rx_n)
        v |= INT_RXSTALE;
    if (u->rx_n > u->rfwr)
        v |= INT_RXLEV;
    return v;
}

static uint32_t sr(const struct hexsim_msm_uart *u)
{
    uint32_t v = 0;
    if (u->rx_n)
        v |= SR_RXRDY;
    if (u->rx_n == FIFO)
        v |= SR_RXFULL;
    if (u->tx_n < FIFO)
        v |= SR_TXRDY;
    if (u->tx_n == 0)
        v |= SR_TXEMT;
    if (u->overrun)
        v |= SR_OVERRUN;
    return v;
}

static uint64_t stale_chars(const struct hexsim_msm_uart *u)
{
    return ((u->ipr >> 7) & 0x7FFu) << 5 | (u->ipr & 0x1Fu);
}

static bool rx_live(const struct hexsim_msm_uart *u)
{
    return u->rx_on && u->clock && u->be && u->be->read && !u->in_eof;
}

// Recomputes the event times that depend on enables and the clock, and the IRQ output.
static void update(struct hexsim_dev *d)
{
    struct hexsim_msm_uart *u = d->state;
    uint64_t now = *d->now;
    if (u->tx_n && u->tx_on && u->clock && !u->brk) {
        if (u->tx_done == NEVER)
            u->tx_done = now + u->char_time;
    } else {
        u->tx_done = NEVER;
    }
    if (rx_live(u)) {
        if (u->rx_poll == NEVER)
            u->rx_poll = now + u->char_time;
    } else {
        u->rx_poll = NEVER;
        u->rx_quiet = false;
    }
    int lvl = (isr(u) & u->imr) != 0;
    if (lvl != u->line) {
        u->line = lvl;
        hexsim_irq_set(&d->irq, lvl);
    }
}

static void rx_push(struct hexsim_msm_uart *u, uint8_t c, uint64_t when)
{
    if (u->rx_n == FIFO) {
        u->overrun = true;
        return;
    }
    u->rx[(u->rx_head + u->rx_n) % FIFO] = c;
    u->rx_n++;
    uint64_t n = stale_chars(u);
    u->stale_at = n ? when + n * u->char_time : NEVER;
}

static uint8_t rx_pop(struct hexsim_msm_uart *u)
{
    if (!u->rx_n)
        return 0;
    uint8_t c = u->rx[u->rx_head];
    u->rx_head = (u->rx_head + 1) % FIFO;
    if (--u->rx_n == 0)
        u->stale = false;
    return c;
}

// Takes the oldest character out of the TX FIFO and gives it to the host.
static void tx_send_one(struct hexsim_msm_uart *u)
{
    uint8_t c = u->tx[u->tx_head];
    u->tx_head = (u->tx_head + 1) % FIFO;
    u->tx_n--;
    if (c == '\n')
        u->line_n = 0;
    else if (u->line_n < sizeof(u->line_out))
        u->line_out[u->line_n++] = c;
    if (u->tx_shown)
        u->tx_shown--;             // hexsim_msm_uart_show sent it already
    else if (u->be && u->be->write)
        u->be->write(u->be->ctx, &c, 1);
}

void hexsim_msm_uart_show(struct hexsim_msm_uart *u)
{
    for (; u->tx_shown < u->tx_n; u->tx_shown++)
        if (u->be && u->be->write)
            u->be->write(u->be->ctx, &u->tx[(u->tx_head + u->tx_shown) % FIFO], 1);
}

// Sends what the TX FIFO holds to the host at once and leaves it empty.
static void tx_flush_to_host(struct hexsim_msm_uart *u)
{
    while (u->tx_n)
        tx_send_one(u);
    u->tx_head = 0;
    u->tx_done = NEVER;
}

static uint64_t uart_next(const struct hexsim_dev *d)
{
    const struct hexsim_msm_uart *u = d->state;
    if (!u->clock)
        return NEVER;
    uint64_t t = u->tx_done;
    if (u->rx_poll < t && (!u->rx_quiet || u->rx_held_n))
        t = u->rx_poll;
    if (u->stale_at < t)
        t = u->stale_at;
    return t;
}

static void uart_advance(struct hexsim_dev *d)
{
    struct hexsim_msm_uart *u = d->state;
    uint64_t now = *d->now;
    if (!u->clock)
        return;
    for (unsigned i = 0; u->tx_done <= now && i <= FIFO; i++) {
        tx_send_one(u);
        u->tx_done = u->tx_n ? u->tx_done + u->char_time : NEVER;
    }
    for (unsigned i = 0; u->rx_poll <= now && (!u->rx_quiet || u->rx_held_n) && i <= FIFO;
         i++) {
        uint64_t when = u->rx_poll;
        if (u->rx_n < FIFO && rx_live(u) && u->rx_held_n) {
            rx_push(u, u->rx_held[0], when);
            memmove(u->rx_held, u->rx_held + 1, --u->rx_held_n);
        } else if (u->rx_n < FIFO && rx_live(u)) {
            uint8_t c;
            int n = u->be->read(u->be->ctx, &c, 1);
            if (n < 0)
                u->in_eof = true;
            else if (n > 0)
                rx_push(u, c, when);
            else if (u->be->idle_wakes)
                u->rx_quiet = true;     // nothing until the machine says otherwise
        }
        if (!rx_live(u)) {
            u->rx_poll = NEVER;
            break;
        }
        u->rx_poll = when + u->char_time;
        if (u->rx_n == FIFO && u->rx_poll <= now)
            u->rx_poll = now + u->char_time;   // full: sample again a character later
    }
    if (u->stale_at <= now) {
        u->stale_at = NEVER;
        if (u->rx_n)
            u->stale = true;
    }
    update(d);
}

void hexsim_msm_uart_flush(struct hexsim_msm_uart *u)
{
    tx_flush_to_host(u);
}

void hexsim_msm_uart_repeat_line(struct hexsim_msm_uart *u)
{
    if (u->be && u->be->write && u->line_n)
        u->be->write(u->be->ctx, u->line_out, u->line_n);
}

void hexsim_msm_uart_wake(struct hexsim_dev *d, uint64_t from)
{
    struct hexsim_msm_uart *u = d->state;
    const uint64_t now = *d->now, ct = u->char_time;
    if (from < now)
        from = now;
    if (u->rx_quiet) {
        u->rx_quiet = false;
        if (u->rx_poll != NEVER && u->rx_poll < from)   // the first point of the grid from then
            u->rx_poll += (from - u->rx_poll + ct - 1) / ct * ct;
    } else if (u->rx_poll != NEVER && u->rx_poll > from && u->rx_poll - from > ct) {
        // woken for a later point before (a running vCPU's), now for an earlier one
        u->rx_poll -= (u->rx_poll - from) / ct * ct;
    }
}

static void command(struct hexsim_msm_uart *u, uint32_t v)
{
    unsigned cmd = ((v >> 4) & 0xFu) | ((v >> 7) & 0x10u);
    switch (cmd) {
    case CMD_RESET_RX:
        // back to the line, in front of what it still holds (see the top of the file)
        memmove(u->rx_held + u->rx_n, u->rx_held, u->rx_held_n);
        for (uint32_t i = 0; i < u->rx_n; i++)
            u->rx_held[i] = u->rx[(u->rx_head + i) % FIFO];
        u->rx_held_n += u->rx_n;
        u->rx_head = u->rx_n = 0;
        u->rx_on = false;
        u->stale = false;
        u->stale_at = NEVER;
        break;
    case CMD_RESET_TX:
        tx_flush_to_host(u);   // the hardware loses them; hexsim's console keeps them
        u->tx_on = false;
        break;
    case CMD_RESET_ERR:
        u->overrun = false;
        break;
    case CMD_START_BREAK:
        u->brk = true;
        break;
    case CMD_STOP_BREAK:
        u->brk = false;
        break;
    case CMD_RESET_STALE:
        u->stale = false;
        break;
    default:
        break;     // null, break/CTS interrupt resets, mode reset, RFR, UARTDM commands
    }
    if (v & CR_RX_EN)
        u->rx_on = true;
    if (v & CR_RX_DIS)
        u->rx_on = false;
    if (v & CR_TX_EN)
        u->tx_on = true;
    if (v & CR_TX_DIS)
        u->tx_on = false;
}

static uint64_t uart_read(struct hexsim_dev *d, uint32_t off, unsigned size)
{
    struct hexsim_msm_uart *u = d->state;
    uint32_t v = 0;
    if (off & 3) {
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    switch (off) {
    case R_MR1: v = u->mr1; break;
    case R_MR2: v = u->mr2; break;
    case R_SR_CSR: v = sr(u); break;
    case R_RF_TF:
        v = rx_pop(u);
        update(d);
        break;
    case R_MISR_CR: v = isr(u) & u->imr; break;
    case R_ISR_IMR: v = isr(u); break;
    case R_IPR: v = u->ipr; break;
    case R_TFWR: v = u->tfwr; break;
    case R_RFWR: v = u->rfwr; break;
    case R_HCR: v = u->hcr; break;
    case R_MREG: v = u->mreg; break;
    case R_NREG: v = u->nreg; break;
    case R_DREG: v = u->dreg; break;
    case R_MNDREG: v = u->mndreg; break;
    case R_IRDA: v = u->irda; break;
    case R_MISR_MODE: v = u->misr_mode; break;
    case R_MISR_RESET: case R_MISR_EXPORT: case R_MISR_VAL: v = 0; break;
    case R_TEST_CTRL: v = u->test_ctrl; break;
    default:
        hexsim_dev_undef(d, "read", off, size, 0);
        return 0;
    }
    return v;
}

static void uart_write(struct hexsim_dev *d, uint32_t off, unsigned size, uint64_t val)
{
    struct hexsim_msm_uart *u = d->state;
    uint32_t v = (uint32_t)val;
    if (off & 3) {
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    switch (off) {
    case R_MR1: u->mr1 = v & 0x3FFFFu; break;
    case R_MR2: u->mr2 = v & 0x7Fu; break;
    case R_SR_CSR: u->csr = v & 0xFFu; break;
    case R_RF_TF:
        if (u->tx_n < FIFO) {                 // a full FIFO drops the character
            u->tx[(u->tx_head + u->tx_n) % FIFO] = (uint8_t)v;
            u->tx_n++;
        }
        break;
    case R_MISR_CR: command(u, v); break;
    case R_ISR_IMR: u->imr = v & IMR_MASK; break;
    case R_IPR: u->ipr = v & 0x3FFFFu; break;
    case R_TFWR: u->tfwr = v & 0x1FFu; break;
    case R_RFWR: u->rfwr = v & 0x1FFu; break;
    case R_HCR: u->hcr = v & 0xFFu; break;
    case R_MREG: u->mreg = v & 0xFFFFu; break;
    case R_NREG: u->nreg = v & 0xFFFFu; break;
    case R_DREG: u->dreg = v & 0xFFFFu; break;
    case R_MNDREG: u->mndreg = v & 0xFFu; break;
    case R_IRDA: u->irda = v & 0x1Fu; break;
    case R_MISR_MODE: u->misr_mode = v & 0x3u; break;
    case R_MISR_RESET: case R_MISR_EXPORT: break;
    case R_TEST_CTRL: u->test_ctrl = v; break;
    default:
        hexsim_dev_undef(d, "write", off, size, val);
        return;
    }
    update(d);
}

static void uart_reset(struct hexsim_dev *d)
{
    struct hexsim_msm_uart *u = d->state;
    struct hexsim_chardev *be = u->be;
    uint64_t ct = u->char_time;
    bool clock = u->clock;
    memset(u, 0, sizeof(*u));
    u->be = be;
    u->char_time = ct;
    u->clock = clock;
    u->tx_done = u->rx_poll = u->stale_at = NEVER;
    u->line = 1;               // force the first update to drive the line
    update(d);
}

void hexsim_msm_uart_set_clock(void *ctx, unsigned line, int level)
{
    struct hexsim_dev *d = ctx;
    struct hexsim_msm_uart *u = d->state;
    (void)line;
    if (u->clock == (level != 0))
        return;
    u->clock = level != 0;
    if (!u->clock) {
        u->tx_done = u->rx_poll = NEVER;   // frozen; restarted when the clock returns
        u->stale_at = NEVER;
    }
    update(d);
}

static size_t uart_save(const struct hexsim_dev *d, void *buf, size_t len)
{
    if (len >= sizeof(struct hexsim_msm_uart))
        memcpy(buf, d->state, sizeof(struct hexsim_msm_uart));
    return sizeof(struct hexsim_msm_uart);
}

static int uart_restore(struct hexsim_dev *d, const void *buf, size_t len)
{
    struct hexsim_msm_uart *u = d->state;
    if (len != sizeof(*u))
        return -1;
    struct hexsim_chardev *be = u->be;
    uint64_t char_time = u->char_time;
    memcpy(u, buf, len);
    u->be = be;                 // the host side is not part of the guest state
    u->char_time = char_time;   // nor is the line speed: this machine's configuration
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, rx_on);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, tx_on);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, overrun);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, stale);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, brk);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, clock);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, in_eof);
    HEXSIM_RESTORE_BOOL(u, buf, struct hexsim_msm_uart, rx_quiet);
    u->tx_head %= FIFO;
    u->rx_head %= FIFO;
    if (u->tx_n > FIFO)
        u->tx_n = FIFO;
    if (u->rx_n > FIFO)
        u->rx_n = FIFO;
    if (u->tx_shown > u->tx_n)
        u->tx_shown = u->tx_n;
    if (u->rx_held_n > 2 * FIFO)
        u->rx_held_n = 2 * FIFO;
    if (u->line_n > sizeof(u->line_out))
        u->line_n = sizeof(u->line_out);
    return 0;
}

static const struct hexsim_dev_ops uart_ops = {
    .name = "msm_uart",
    .read = uart_read,
    .write = uart_write,
    .reset = uart_reset,
    .save = uart_save,
    .restore = uart_restore,
    .next_event = uart_next,
    .advance = uart_advance,
};

void hexsim_msm_uart_init(struct hexsim_dev *d, struct hexsim_msm_uart *u, uint32_t base,
                          uint64_t char_pcycles, struct hexsim_chardev *be)
{
    memset(u, 0, sizeof(*u));
    memset(d, 0, sizeof(*d));
    u->be = be;
    u->char_time = char_pcycles ? char_pcycles : HEXSIM_MSM_UART_CHAR_PCYCLES;
    u->tx_done = u->rx_poll = u->stale_at = NEVER;
    d->ops = &uart_ops;
    d->base = base;
    d->size = 0x1000;
    d->state = u;
}
