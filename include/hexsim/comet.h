// SPDX-License-Identifier: MIT
// The Comet board's devices beyond the RTOS timer (DESIGN.md "Comet board", seed 006
// comet_iomap.h and board.c): the SIRC second-level interrupt controller (two groups of 32
// lines cascading into L1 interrupts 23 and 24), the legacy (non-DM) MSM UARTs, the
// SMSC LAN9118-family Ethernet controller and the clock controller. Each device is a
// struct with its state plus an init function that fills a struct hexsim_dev for the bus;
// the board (src/hvm/machine.c) wires their lines. Devices know nothing of each other:
// a clock branch reaches a UART as a struct hexsim_irq-style line.
#ifndef HEXSIM_COMET_H
#define HEXSIM_COMET_H

#include <stdbool.h>
#include <stdint.h>

#include "hexsim/dev.h"
#include "hexsim/virtio.h"

struct hexsim_mem;

// ---- SIRC (src/devices/comet/sirc.c)
#define HEXSIM_SIRC_BASE 0xAB010000u
#define HEXSIM_SIRC_GROUPS 2
#define HEXSIM_SIRC0_L1 23
#define HEXSIM_SIRC1_L1 24

struct hexsim_sirc_group {
    uint32_t enable, type, polarity, soft;
    uint32_t input;           // raw input levels (electrical, before polarity)
    uint32_t wired;           // inputs a device drives (the others are never active)
    uint32_t latched;         // edge-type interrupts caught and not yet cleared
    int out;                  // level driven to the L1 controller
};

struct hexsim_sirc {
    struct hexsim_sirc_group g[HEXSIM_SIRC_GROUPS];
    struct hexsim_irq out[HEXSIM_SIRC_GROUPS];   // to L1 23 and 24
};

void hexsim_sirc_init(struct hexsim_dev *d, struct hexsim_sirc *s);
// Input line callback (struct hexsim_irq set): line = group * 32 + bit, level electrical.
void hexsim_sirc_set_line(void *sirc, unsigned line, int level);

// ---- Clock control (src/devices/comet/clk_ctl.c)
#define HEXSIM_CLK_CTL_BASE 0xA8600000u
#define HEXSIM_CLK_UART3_NS 0xC0u               // UART3 NS register
#define HEXSIM_CLK_UART3_BRANCH_ENA 0x00020000u
#define HEXSIM_CLK_NREGS 1024                   // the 4 KiB page, as 32-bit registers

enum { HEXSIM_CLK_UART3, HEXSIM_CLK_NOUT };

struct hexsim_clk_ctl {
    uint32_t reg[HEXSIM_CLK_NREGS];
    int level[HEXSIM_CLK_NOUT];
    struct hexsim_irq out[HEXSIM_CLK_NOUT];      // clock gates: 1 running, 0 stopped
};

void hexsim_clk_ctl_init(struct hexsim_dev *d, struct hexsim_clk_ctl *c);

// ---- MSM UART, legacy mode (src/devices/comet/msm_uart.c)
#define HEXSIM_MSM_UART1_BASE 0xA9A00000u
#define HEXSIM_MSM_UART2_BASE 0xA9B00000u
#define HEXSIM_MSM_UART3_BASE 0xA9C00000u
#define HEXSIM_MSM_UART1_SIRC (32 + 14)         // SIRC line numbers (group 1)
#define HEXSIM_MSM_UART2_SIRC (32 + 16)
#define HEXSIM_MSM_UART3_SIRC (32 + 18)
#define HEXSIM_MSM_UART_FIFO 64                 // msm_serial's fifosize
// Default character time: 1/10 of 115200 baud 8N1 at 600 MHz (see msm_uart.c).
#define HEXSIM_MSM_UART_CHAR_PCYCLES 5208u

struct hexsim_msm_uart {
    uint32_t mr1, mr2, csr, imr, ipr, tfwr, rfwr, hcr, mreg, nreg, dreg, mndreg, irda;
    uint32_t misr_mode, test_ctrl;
    uint8_t tx[HEXSIM_MSM_UART_FIFO], rx[HEXSIM_MSM_UART_FIFO];
    uint32_t tx_head, tx_n, rx_head, rx_n;
    uint32_t tx_shown;        // the first tx_shown TX FIFO characters reached the host early
    uint8_t rx_held[2 * HEXSIM_MSM_UART_FIFO];   // taken back from the FIFO by reset RX
    uint32_t rx_held_n;
    uint8_t line_out[128];    // the output line being written (since the last newline)
    uint32_t line_n;
    bool rx_on, tx_on, overrun, stale, brk, clock, in_eof;
    bool rx_quiet;            // a sample found no input: samples wait for a wake
    uint64_t tx_done;         // time the character at the FIFO head is sent (NEVER: idle)
    uint64_t rx_poll;         // next time the line is sampled for input (NEVER: off)
    uint64_t stale_at;        // time the stale timeout expires (NEVER: not armed)
    uint64_t char_time;       // pcycles per character
    int line;                 // interrupt output level
    struct hexsim_chardev *be;   // host side; NULL: output dropped, no input
};

void hexsim_msm_uart_init(struct hexsim_dev *d, struct hexsim_msm_uart *u, uint32_t base,
                          uint64_t char_pcycles, struct hexsim_chardev *be);
// Clock gate input (struct hexsim_irq set; line ignored): the UART works only while 1.
// ISR/IMR bits the machine looks at (the rest: msm_uart.c)
#define HEXSIM_MSM_UART_INT_RXSTALE 0x08u
#define HEXSIM_MSM_UART_INT_RXLEV 0x10u
// Sends the characters waiting in the TX FIFO to the host now (the run is ending).
void hexsim_msm_uart_flush(struct hexsim_msm_uart *u);
// Sends the characters waiting in the TX FIFO to the host now without sending them (the
// guest sees the FIFO as before): another output to the same host terminal (the angel boot
// console) then comes after what the guest wrote to the UART before it.
void hexsim_msm_uart_show(struct hexsim_msm_uart *u);
// Sends the line the guest was writing (from its last newline on) to the host again: after
// a restore, the screen shows the prompt the snapshot was taken at.
void hexsim_msm_uart_repeat_line(struct hexsim_msm_uart *u);
// Input may have come by pcycle `from` (now, or later: the machine wakes the port for a
// running vCPU now and then, not at every round): a quiet receiver samples again from the
// first point of its grid at or after `from`, and so does one woken for a later point.
void hexsim_msm_uart_wake(struct hexsim_dev *d, uint64_t from);
void hexsim_msm_uart_set_clock(void *uart, unsigned line, int level);

// ---- SMSC LAN9118 family Ethernet (src/devices/comet/smsc911x.c)
#define HEXSIM_SMSC911X_BASE 0x84000000u
#define HEXSIM_SMSC911X_SIRC 19                 // SIRC group 0, active low
#define HEXSIM_SMSC_TX_FIFO 4608                // bytes of the TX data FIFO (TX_FIF_SZ 5)
#define HEXSIM_SMSC_RX_FIFO 10560               // bytes of the RX data FIFO
#define HEXSIM_SMSC_STS_FIFO 32                 // status words kept per direction
#define HEXSIM_SMSC_EEPROM 128

struct hexsim_smsc911x {
    // direct registers
    uint32_t irq_cfg, int_sts, int_en, fifo_int, rx_cfg, tx_cfg, hw_cfg, pmt_ctrl;
    uint32_t gpio_cfg, gpt_cfg, afc_cfg, e2p_cmd, e2p_data, word_swap, rx_drop;
    uint32_t mac_csr_cmd, mac_csr_data;
    // MAC CSRs (indirect)
    uint32_t mac_cr, addrh, addrl, hashh, hashl, mii_acc, mii_data, flow, vlan1, vlan2;
    uint32_t wucsr;
    // internal PHY registers 0..31
    uint16_t phy[32];
    // RX: data FIFO of whole frames (words as read), status FIFO
    uint8_t rxd[HEXSIM_SMSC_RX_FIFO];
    uint32_t rxd_head, rxd_n;          // bytes
    uint32_t rxs[HEXSIM_SMSC_STS_FIFO], rxs_head, rxs_n;
    uint32_t rx_sizes[HEXSIM_SMSC_STS_FIFO];   // FIFO bytes of each queued frame
    uint32_t rx_left;                  // bytes of the current frame still to be read
    // TX: the frame being assembled from the data FIFO, status FIFO
    uint8_t txf[HEXSIM_SMSC_TX_FIFO];
    uint32_t txf_n;                    // bytes of the frame collected so far
    uint32_t tx_cmd_a, tx_cmd_b;
    int tx_state;                      // 0: expect command A, 1: command B, 2: data
    uint32_t tx_words;                 // data words still expected for this buffer
    uint32_t tx_skip;                  // leading offset bytes of this buffer
    uint32_t tx_buf_bytes;             // payload bytes of this buffer
    uint32_t txs[HEXSIM_SMSC_STS_FIFO], txs_head, txs_n;
    uint32_t gpt_count;
    uint64_t gpt_t0, rx_poll;
    uint8_t eeprom[HEXSIM_SMSC_EEPROM];
    bool eeprom_we;
    bool rx_quiet;                     // a poll found no frame: polls wait for a wake
    uint64_t poll_period;
    uint8_t frame[HEXSIM_ETH_MAX_FRAME + 4];
    int line;                          // pin level driven (electrical)
    struct hexsim_netdev *be;
    uint64_t tx_frames, rx_frames, rx_dropped;
};

// ---- virtio devices (entropy source, block devices): include/hexsim/virtio.h

void hexsim_smsc911x_init(struct hexsim_dev *d, struct hexsim_smsc911x *e,
                          const uint8_t mac[6], struct hexsim_netdev *be);
// The host may have frames (or a vCPU runs): a quiet receiver polls again.
void hexsim_smsc911x_wake(struct hexsim_dev *d);

#endif
