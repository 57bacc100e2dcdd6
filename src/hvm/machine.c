// SPDX-License-Identifier: MIT
// Machine life cycle: allocates guest RAM (the Comet map: RAM from physical 0 up to at most
// EBI1_CS_N1_TOP 0x30000000), the vCPUs, the interrupt controller, the MMIO bus with the
// board's devices (today the RTOS timer at 0xAB000000 on L1 interrupt 3; the Comet devices
// issue adds SIRC, UART and Ethernet here) and the console backend. Nothing is global:
// several machines can run in one process.
#include <stdlib.h>
#include <string.h>

#include "hexsim/machine.h"

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
    m->intc.attention = &m->attention;
    hexsim_intc_reset(&m->intc);
    hexsim_bus_init(&m->bus, &m->now, m->err);
    hexsim_rtos_timer_init(&m->rtos_dev, &m->rtos, HEXSIM_PCYCLE_HZ / HEXSIM_SLEEP_CLK_HZ);
    m->rtos_dev.irq = (struct hexsim_irq){ hexsim_intc_set_line, &m->intc,
                                           HEXSIM_RTOS_TIMER_IRQ };
    hexsim_bus_add(&m->bus, &m->rtos_dev);
    hexsim_console_stdio(&m->console, stdout);
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
    hexsim_mem_free(&m->ram);
    free(m->pcache);
    free(m);
}

void hexsim_machine_halt(struct hexsim_machine *m, int status)
{
    m->halted = true;
    m->exit_status = status;
    m->attention = true;
}
