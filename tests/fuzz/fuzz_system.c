// SPDX-License-Identifier: MIT
// Fuzz target: random guest code in system mode. The input's code runs from physical 0 on a
// fresh Comet machine (16 MiB RAM, hexsim_machine_new) through the system run loop
// hexsim_machine_run: guest mode under the HVM, so trap1 HVM calls (vmsetvec, vmnewmap with
// page tables the code builds, vmintop, vmcache, vmstart of more vCPUs, vmwait, ...) get
// guest-chosen arguments, events go through the guest's vectors, and the devices are
// reachable through page tables the code builds (the boot map covers RAM only). At most
// MAX_PACKETS packets. Each input runs twice: packet by packet (--no-jit) and with every
// block compiled at once (--jit-threshold 1: src/hvm/run_jit.c).
// Checks: no crash or sanitizer report; the run ends with one of the documented exit
// statuses; the packet count stays within the limit; both runs end alike: exit status,
// packets, clock, each vCPU's run state, registers, counters and pcycles, and RAM, unless a
// vCPU took page tables (vmnewmap): random code may then rewrite live entries without
// vmclrmap, which the HVM leaves undefined (soft TLB contents, which differ between the
// two runs, decide what it sees).
//
// Input layout (missing bytes read as zero):
//   0      flags: bits 0-1 vCPUs - 1 (1-4), bits 4-6 core version (5, 55, 60, 62, 65, 66,
//          67, 68)
//   1-32   R0-R7 of vCPU 0
//   33-    the code, copied to physical 0 (at most CODE_MAX bytes)
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_machine.h"
#include "hexsim/machine.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

#define CODE_MAX 0x4000u
#define MAX_PACKETS 4000

static const unsigned archs[8] = { 5, 55, 60, 62, 65, 66, 67, 68 };

static int no_input(void *ctx, uint8_t *buf, size_t n)
{
    (void)ctx;
    (void)buf;
    (void)n;
    return -1;
}

// One run of the input; *devnull for fuzz_machine_free.
static struct hexsim_machine *run(const uint8_t *data, size_t size, bool jit, FILE **devnull,
                                  int *status)
{
    uint8_t hdr[33] = { 0 };
    memcpy(hdr, data, size < sizeof(hdr) ? size : sizeof(hdr));
    struct hexsim_chardev chr = { .read = no_input, .write = fuzz_discard };
    struct hexsim_console con;
    struct hexsim_machine_opts o = { .smp = (hdr[0] & 3u) + 1, .arch = archs[hdr[0] >> 4 & 7],
                                     .max_packets = MAX_PACKETS, .serial = &chr,
                                     .no_jit = !jit, .jit_threshold = 1 };
    struct hexsim_machine *m = fuzz_machine_new(&o, &con, devnull);
    size_t code = size > sizeof(hdr) ? size - sizeof(hdr) : 0;
    if (code > CODE_MAX)
        code = CODE_MAX;
    for (size_t i = 0; i < code; i++)
        hexsim_phys_write(m, (uint32_t)i, 1, data[sizeof(hdr) + i]);
    m->arch = o.arch;
    m->entry = 0;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        m->vcpu[i].env.arch = m->arch;
        m->vcpu[i].cpu.pc = 0;
    }
    for (unsigned r = 0; r < 8; r++)
        m->vcpu[0].cpu.r[r] = (uint32_t)hdr[1 + 4 * r] | (uint32_t)hdr[2 + 4 * r] << 8 |
                              (uint32_t)hdr[3 + 4 * r] << 16 | (uint32_t)hdr[4 + 4 * r] << 24;
    m->vcpu[0].state = HEXSIM_VCPU_RUN;
    int st = hexsim_machine_run(m);
    CHECK(st == HEXSIM_SYS_EXIT_OK || st == HEXSIM_SYS_EXIT_ERROR ||
          st == HEXSIM_SYS_EXIT_GUEST_FAIL || st == HEXSIM_SYS_EXIT_LIMIT);
    CHECK(m->packets <= MAX_PACKETS);
    *status = st;
    return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FILE *null_a, *null_b;
    int st_a, st_b;
    struct hexsim_machine *a = run(data, size, false, &null_a, &st_a);
    struct hexsim_machine *b = run(data, size, true, &null_b, &st_b);
    bool tables = false;
    for (unsigned i = 0; i < a->nvcpu; i++)
        tables |= a->vcpu[i].mmu_on || b->vcpu[i].mmu_on;
    if (tables)
        goto done;
    CHECK(st_a == st_b && a->packets == b->packets && a->now == b->now);
    for (unsigned i = 0; i < a->nvcpu; i++) {
        const struct hexsim_vcpu *va = &a->vcpu[i], *vb = &b->vcpu[i];
        CHECK(va->state == vb->state && va->user == vb->user && va->ie == vb->ie);
        const struct hexsim_cpu *ca = &va->cpu, *cb = &vb->cpu;
        CHECK(!memcmp(ca->r, cb->r, sizeof(ca->r)) && !memcmp(ca->p, cb->p, sizeof(ca->p)) &&
              !memcmp(ca->c, cb->c, sizeof(ca->c)) && !memcmp(ca->g, cb->g, sizeof(ca->g)));
        CHECK(ca->pc == cb->pc && ca->packets == cb->packets && ca->pcycles == cb->pcycles);
    }
    for (unsigned t = 0; t < 1024; t++) {   // the RAM pages either run made
        const struct hexsim_page *pa = a->ram.l1[t], *pb = b->ram.l1[t];
        CHECK(!pa == !pb);
        for (unsigned k = 0; pa && k < 1024; k++) {
            CHECK(!pa[k].data == !pb[k].data);
            CHECK(!pa[k].data || !memcmp(pa[k].data, pb[k].data, HEXSIM_PAGE_SIZE));
        }
    }
done:
    fuzz_machine_free(a, null_a);
    fuzz_machine_free(b, null_b);
    return 0;
}
