// SPDX-License-Identifier: MIT
// Fuzz target: the Comet board's devices as the guest reaches them (hexsim_phys_read and
// hexsim_phys_write on a machine from hexsim_machine_new: SIRC, clock control, UART1-3,
// SMSC911x, RTOS timer, and the holes between them), with time passing (device events run
// as the run loop runs them) and host input arriving: bytes for UART3 and Ethernet frames
// for the SMSC911x, both cut from the input itself.
// Input: records of 8 bytes (a trailing partial record is dropped):
//   byte 0   bits 0-1 operation: 0 read, 1 write, 2 let time pass, 3 host input
//            bits 2-3 access size 1 << n (1, 2, 4, 8 bytes); bit 4: misalign by 1
//   byte 1   region (modulo the table below)
//   byte 2-3 offset in the region (little-endian, modulo the region's size + 64, so the
//            edges and just beyond are reached)
//   byte 4-7 value (write), pcycles (time, at most 2^24 per record), or the length of the
//            input to queue (input: bit 0 of byte 1 picks UART bytes or one frame; the bytes
//            are the records that follow, as many as the length says, at most 1600)
// Checks: no crash or sanitizer report; device events come in increasing time and at most
// 100000 in one step (a device that keeps asking for "now" would hang the run loop);
// every frame the SMSC911x sends fits an Ethernet frame; FIFO counters stay in range.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_machine.h"
#include "hexsim/machine.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

static const struct { uint32_t base, size; } regions[] = {
    { HEXSIM_SIRC_BASE, 0x800 },
    { HEXSIM_CLK_CTL_BASE, 0x1000 },
    { HEXSIM_MSM_UART1_BASE, 0x1000 },
    { HEXSIM_MSM_UART2_BASE, 0x1000 },
    { HEXSIM_MSM_UART3_BASE, 0x1000 },
    { HEXSIM_SMSC911X_BASE, 0x1000 },
    { HEXSIM_RTOS_TIMER_BASE, 0x100 },
    { 0xA0000000u, 0x1000 },          // no device: a hole in the map
    { 0x2FFFF000u, 0x1000 },          // the last RAM page of a 16 MiB machine is far below
};

struct host_side {
    const uint8_t *uart;              // bytes UART3 may read
    size_t uart_n;
    const uint8_t *frame;             // the next frame the network has for the guest
    size_t frame_n;
    unsigned sent;
};

static int h_read(void *ctx, uint8_t *buf, size_t n)
{
    struct host_side *h = ctx;
    if (!h->uart_n)
        return 0;
    if (n > h->uart_n)
        n = h->uart_n;
    memcpy(buf, h->uart, n);
    h->uart += n;
    h->uart_n -= n;
    return (int)n;
}

static void h_write(void *ctx, const void *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    CHECK(n <= 4096);
}

static void h_send(void *ctx, const uint8_t *frame, size_t len)
{
    struct host_side *h = ctx;
    CHECK(len <= HEXSIM_ETH_MAX_FRAME + 4);
    volatile uint8_t sum = 0;
    for (size_t i = 0; i < len; i++)
        sum ^= frame[i];                // every byte must be readable (ASan)
    h->sent++;
}

static size_t h_recv(void *ctx, uint8_t *frame, size_t cap)
{
    struct host_side *h = ctx;
    if (!h->frame)
        return 0;
    size_t n = h->frame_n < cap ? h->frame_n : cap;
    memcpy(frame, h->frame, n);
    h->frame = NULL;
    return n;
}

static void run_events(struct hexsim_machine *m)
{
    for (unsigned i = 0;; i++) {
        uint64_t e = hexsim_bus_next_event(&m->bus);
        if (e > m->now)
            return;
        CHECK(i < 100000);
        hexsim_bus_advance(&m->bus);
    }
}

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct host_side h = { 0 };
    struct hexsim_chardev chr = { .read = h_read, .write = h_write, .ctx = &h };
    struct hexsim_netdev net = { .send = h_send, .recv = h_recv, .ctx = &h };
    struct hexsim_console con;
    struct hexsim_machine_opts o = { .serial = &chr, .net = &net };
    FILE *devnull;
    struct hexsim_machine *m = fuzz_machine_new(&o, &con, &devnull);
    const size_t nregions = sizeof(regions) / sizeof(regions[0]);
    for (size_t i = 0; i + 8 <= size; i += 8) {
        const uint8_t *r = data + i;
        unsigned op = r[0] & 3, sz = 1u << (r[0] >> 2 & 3);
        uint32_t span = regions[r[1] % nregions].size + 64;
        uint32_t pa = regions[r[1] % nregions].base + (uint32_t)(r[2] | r[3] << 8) % span;
        pa = (pa & ~(sz - 1)) + (r[0] & 16 ? 1 : 0);
        uint32_t v = le32(r + 4);
        switch (op) {
        case 0:
            (void)hexsim_phys_read(m, pa, sz);
            break;
        case 1:
            hexsim_phys_write(m, pa, sz, (uint64_t)v << 32 | v);
            break;
        case 2:
            m->now += v & 0xFFFFFF;
            run_events(m);
            break;
        default: {
            size_t n = v % 1601, rest = size - (i + 8);
            if (n > rest)
                n = rest;
            if (r[1] & 1) {
                h.frame = data + i + 8;
                h.frame_n = n;
            } else {
                h.uart = data + i + 8;
                h.uart_n = n;
            }
            break;
        }
        }
        for (unsigned u = 0; u < 3; u++) {
            CHECK(m->uart[u].tx_n <= HEXSIM_MSM_UART_FIFO);
            CHECK(m->uart[u].rx_n <= HEXSIM_MSM_UART_FIFO);
        }
        CHECK(m->eth.rxd_n <= HEXSIM_SMSC_RX_FIFO);
        CHECK(m->eth.txf_n <= HEXSIM_SMSC_TX_FIFO);
    }
    m->now += 1u << 24;
    run_events(m);
    fuzz_machine_free(m, devnull);
    return 0;
}
