// SPDX-License-Identifier: MIT
// Machine life cycle: allocates guest RAM (the Comet map: RAM from physical 0 up to at most
// EBI1_CS_N1_TOP 0x30000000), the vCPUs, the interrupt controller, the MMIO bus with the
// board's devices and the host backends. The board map (seed 006 comet_iomap.h, board.c;
// DESIGN.md "Comet board"): RTOS timer 0xAB000000 on L1 3; SIRC 0xAB010000 (group 0 on
// L1 23, group 1 on L1 24); clock control 0xA8600000, whose UART3 branch clocks UART3;
// MSM UART1/2/3 at 0xA9A00000/0xA9B00000/0xA9C00000 on SIRC1 bits 14/16/18 (UART1 and
// UART2 have no host side and run on a clock hexsim keeps on: their branch registers are
// not in the seed); SMSC911x Ethernet 0x84000000 on SIRC0 bit 19 (active low); and, not a
// Comet part, virtio devices (include/hexsim/virtio.h): the entropy device at 0xAB100000 on
// SIRC0 bit 20 (virtio_rng.c) and one block device per --drive image at 0xAB100200,
// 0xAB100400, ... on SIRC0 bits 21, 22, ... (virtio_blk.c). Nothing is global: several
// machines can run in one process.
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "hexsim/machine.h"
#include "run_jit.h"

static void serial_to_console(void *ctx, const void *buf, size_t n)
{
    struct hexsim_machine *m = ctx;
    if (m->console.write)
        m->console.write(m->console.ctx, buf, n);
}

static const uint8_t default_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };

static void board(struct hexsim_machine *m, const struct hexsim_machine_opts *o)
{
    hexsim_sirc_init(&m->sirc_dev, &m->sirc);
    m->sirc.out[0] = (struct hexsim_irq){ hexsim_intc_set_line, &m->intc, HEXSIM_SIRC0_L1 };
    m->sirc.out[1] = (struct hexsim_irq){ hexsim_intc_set_line, &m->intc, HEXSIM_SIRC1_L1 };
    hexsim_bus_add(&m->bus, &m->sirc_dev);

    hexsim_clk_ctl_init(&m->clk_dev, &m->clk);
    hexsim_bus_add(&m->bus, &m->clk_dev);

    m->serial_default = (struct hexsim_chardev){ .write = serial_to_console, .ctx = m };
    static const uint32_t base[3] = { HEXSIM_MSM_UART1_BASE, HEXSIM_MSM_UART2_BASE,
                                      HEXSIM_MSM_UART3_BASE };
    static const unsigned irq[3] = { HEXSIM_MSM_UART1_SIRC, HEXSIM_MSM_UART2_SIRC,
                                     HEXSIM_MSM_UART3_SIRC };
    for (unsigned i = 0; i < 3; i++) {
        struct hexsim_chardev *be = i < 2 ? NULL : o->serial ? o->serial : &m->serial_default;
        hexsim_msm_uart_init(&m->uart_dev[i], &m->uart[i], base[i], o->uart_char_pcycles, be);
        m->uart_dev[i].irq = (struct hexsim_irq){ hexsim_sirc_set_line, &m->sirc, irq[i] };
        hexsim_bus_add(&m->bus, &m->uart_dev[i]);
        hexsim_sirc_set_line(&m->sirc, irq[i], 0);
        if (i < 2)
            hexsim_msm_uart_set_clock(&m->uart_dev[i], 0, 1);
    }
    m->clk.out[HEXSIM_CLK_UART3] = (struct hexsim_irq){ hexsim_msm_uart_set_clock,
                                                        &m->uart_dev[2], 0 };

    m->net_none = (struct hexsim_netdev){ 0 };
    hexsim_smsc911x_init(&m->eth_dev, &m->eth, default_mac, o->net ? o->net : &m->net_none);
    m->eth_dev.irq = (struct hexsim_irq){ hexsim_sirc_set_line, &m->sirc,
                                          HEXSIM_SMSC911X_SIRC };
    hexsim_bus_add(&m->bus, &m->eth_dev);

    hexsim_virtio_rng_init(&m->rng_dev, &m->rng, &m->ram, o->rng_seed);
    m->rng_dev.irq = (struct hexsim_irq){ hexsim_sirc_set_line, &m->sirc,
                                          HEXSIM_VIRTIO_RNG_SIRC };
    hexsim_bus_add(&m->bus, &m->rng_dev);

    for (unsigned i = 0; i < m->nblk; i++) {
        m->blk_dev[i].irq = (struct hexsim_irq){ hexsim_sirc_set_line, &m->sirc,
                                                 HEXSIM_VIRTIO_SLOT_SIRC(1 + i) };
        hexsim_bus_add(&m->bus, &m->blk_dev[i]);
    }
    for (unsigned i = 0; i < m->n9p; i++) {
        m->p9_dev[i].irq = (struct hexsim_irq){ hexsim_sirc_set_line, &m->sirc,
                                                HEXSIM_VIRTIO_SLOT_SIRC(1 + m->nblk + i) };
        hexsim_bus_add(&m->bus, &m->p9_dev[i]);
    }
    hexsim_bus_reset(&m->bus);         // every device drives its lines to the reset level
}

struct hexsim_machine *hexsim_machine_new(const struct hexsim_machine_opts *o, FILE *err,
                                          char *msg, size_t msglen)
{
    uint64_t ram = o->ram_size ? o->ram_size : HEXSIM_RAM_DEFAULT;
    unsigned smp = o->smp ? o->smp : 1;
    if (ram < (16u << 20) || ram > HEXSIM_RAM_TOP - HEXSIM_RAM_BASE || (ram & 0xfff)) {
        snprintf(msg, msglen, "RAM size %llu bytes is outside the Comet map (16 MiB to "
                 "768 MiB, whole pages)", (unsigned long long)ram);
        return NULL;
    }
    if (smp > HEXSIM_MAX_VCPUS) {
        snprintf(msg, msglen, "--smp %u: at most %u vCPUs", smp, HEXSIM_MAX_VCPUS);
        return NULL;
    }
    struct hexsim_machine *m = calloc(1, sizeof(*m));
    if (!m) {
        snprintf(msg, msglen, "out of memory");
        return NULL;
    }
    m->opts = *o;
    m->err = err ? err : stderr;
    hexsim_mem_init(&m->ram);
    m->ram_base = HEXSIM_RAM_BASE;
    m->ram_size = (uint32_t)ram;
    if (hexsim_mem_map(&m->ram, m->ram_base, ram,
                       HEXSIM_PROT_R | HEXSIM_PROT_W | HEXSIM_PROT_X)) {
        snprintf(msg, msglen, "cannot allocate %llu bytes of guest RAM",
                 (unsigned long long)ram);
        hexsim_machine_free(m);
        return NULL;
    }
    m->nvcpu = smp;
    m->tparams = o->timing_params ? *o->timing_params : hexsim_timing_default_params;
    if (o->timing == HEXSIM_TIMING_CACHE) {
        m->caches_on = true;
        int bad = hexsim_cache_init(&m->l2, m->tparams.l2_size, m->tparams.l2_ways,
                                    m->tparams.line);
        for (unsigned i = 0; i < smp && !bad; i++)
            bad = hexsim_caches_init(&m->caches[i], &m->l2, &m->tparams);
        if (bad) {
            snprintf(msg, msglen, "out of memory (caches)");
            hexsim_machine_free(m);
            return NULL;
        }
    }
    m->intc.attention = &m->attention;
    hexsim_intc_reset(&m->intc);
    hexsim_bus_init(&m->bus, &m->now, m->err);
    if (o->trace_mmio || o->trace_mmio_all)
        m->bus.trace = m->err;
    if (o->trace_mmio_all)
        m->bus.trace_all = m->err;
    hexsim_rtos_timer_init(&m->rtos_dev, &m->rtos, HEXSIM_PCYCLE_HZ / HEXSIM_SLEEP_CLK_HZ);
    m->rtos_dev.irq = (struct hexsim_irq){ hexsim_intc_set_line, &m->intc,
                                           HEXSIM_RTOS_TIMER_IRQ };
    hexsim_bus_add(&m->bus, &m->rtos_dev);
    if (o->console)
        m->console = *o->console;
    else
        hexsim_console_stdio(&m->console, stdout);
    if (o->ndrives > HEXSIM_VIRTIO_BLK_MAX) {
        snprintf(msg, msglen, "--drive: at most %u drives", HEXSIM_VIRTIO_BLK_MAX);
        hexsim_machine_free(m);
        return NULL;
    }
    // the disk images are opened, checked and locked before anything runs
    for (unsigned i = 0; i < o->ndrives; i++) {
        if (hexsim_blk_image_open(&m->blk_img[i], &o->drives[i], msg, msglen)) {
            hexsim_machine_free(m);
            return NULL;
        }
        m->nblk = i + 1;
        if (hexsim_virtio_blk_init(&m->blk_dev[i], &m->blk[i], 1 + i, &m->ram,
                                   &m->blk_img[i])) {
            snprintf(msg, msglen, "out of memory (--drive)");
            hexsim_machine_free(m);
            return NULL;
        }
    }
    if (o->nshares > HEXSIM_VIRTIO_9P_MAX) {
        snprintf(msg, msglen, "--share: at most %u shared directories", HEXSIM_VIRTIO_9P_MAX);
        hexsim_machine_free(m);
        return NULL;
    }
    // shared directories: the slots after the disks
    for (unsigned i = 0; i < o->nshares; i++) {
        if (hexsim_virtio_9p_init(&m->p9_dev[i], &m->p9[i], 1 + m->nblk + i, &m->ram,
                                  &o->shares[i], msg, msglen)) {
            hexsim_machine_free(m);
            return NULL;
        }
        m->n9p = i + 1;
    }
    board(m, o);
    for (unsigned i = 0; i < smp; i++) {
        struct hexsim_vcpu *v = &m->vcpu[i];
        v->m = m;
        v->id = i;
        v->state = HEXSIM_VCPU_OFF;
        hexsim_vcpu_init_xlat(v);
    }
    return m;
}

void hexsim_machine_free(struct hexsim_machine *m)
{
    if (!m)
        return;
    for (unsigned i = 0; i < m->nblk; i++) {
        if (hexsim_blk_image_close(&m->blk_img[i]))
            fprintf(m->err, "hexsim: --drive file=%s: writing it back failed\n",
                    m->blk_img[i].path);
        hexsim_virtio_blk_free(&m->blk[i]);
    }
    for (unsigned i = 0; i < m->n9p; i++)
        hexsim_virtio_9p_free(&m->p9[i]);
    hexsim_mem_free(&m->ram);
    free(m->pcache);
    hexsim_sysjit_free(m);
    for (unsigned i = 0; i < HEXSIM_MAX_VCPUS; i++)
        hexsim_caches_free(&m->caches[i]);
    hexsim_cache_free(&m->l2);
    hexsim_profile_free(m->profile);
    free(m);
}

void hexsim_machine_halt(struct hexsim_machine *m, int status)
{
    // What the guest wrote last reaches the host before any message about the stop.
    for (unsigned i = 0; i < sizeof(m->uart) / sizeof(m->uart[0]); i++)
        hexsim_msm_uart_flush(&m->uart[i]);
    if (m->console.flush)
        m->console.flush(m->console.ctx);
    m->halted = true;
    m->exit_status = status;
    m->attention = true;
}
