// SPDX-License-Identifier: MIT
// Snapshots of a system-mode machine (hexsim/snapshot.h) in the container of snap_file.c.
// Sections:
//   config   kind (system), RAM size, vCPUs, core version, packets run (read by
//            hexsim_snapshot_probe)
//   machine  the clock (now), vmsettime offset, packet count, loader results (entry, kernel
//            end, initrd, command line), once-only warnings
//   vcpus    per vCPU: struct hexsim_cpu (registers, pcycles, LL/SC reservation) and the HVM
//            state (run state, user mode, IE, event vector base and whether it is set, MMU
//            on, page table base)
//   intc     the vmintop controller: pending, global enables, line levels, local enables
//   timing   the timing mode and parameters; caches: cache mode's tags (snap_timing.c)
//   dN.NAME  device N of the bus, as its save op writes it (SIRC, clock control, UARTs with
//            their FIFOs and timers, SMSC911x with FIFOs, MAC and PHY, RTOS timer, virtio
//            devices; a machine with a writable --drive is refused, see below)
//   ram      every RAM page that is not all zero: u32 page number, 4096 bytes
// Not saved, because it is rebuilt or belongs to the host: soft TLBs and decoded packets
// (flushed on restore), host backends (terminal, script, network: the restored run brings
// its own), warnings about unclaimed MMIO pages, the "first waited for input" report (the
// restored run reports its own). The same hexsim build must read what it wrote: a section
// whose size differs from this build's structures is refused.
#include "hexsim/snapshot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/machine.h"
#include "snap_file.h"
#include "snap_timing.h"

struct snap_config {
    uint32_t kind;            // SNAP_KIND_SYSTEM
    uint32_t nvcpu, arch, pad;
    uint64_t ram_size;
    uint64_t packets;
};

struct snap_mach {
    uint64_t now, packets, prompt_pcycles;
    int64_t time_offset;
    uint32_t entry, kernel_end, initrd_addr, initrd_size;
    uint32_t warned_trap1[2];
    uint8_t attention, user_seen, warned_angel, vcpu_lost;
    char cmdline[sizeof(((struct hexsim_machine *)0)->cmdline)];
};

struct snap_vcpu {
    struct hexsim_cpu cpu;
    uint32_t state, evb, ptbase;
    uint8_t user, ie, mmu_on, yield, vec_set, pad[3];
};

struct snap_intc {
    uint32_t pending, genable, level;
    uint32_t locen[HEXSIM_MAX_VCPUS];
};

static void dev_name(char *out, unsigned i, const struct hexsim_dev *d)
{
    snprintf(out, SNAP_NAME_MAX, "d%u.%s", i, d->ops->name);
}

int hexsim_snapshot_save(struct hexsim_machine *m, const char *path, char *msg, size_t msglen)
{
    // A writable disk's contents are not in the snapshot and go on changing after it, so
    // restoring would pair this RAM (the guest's page cache, its file system's state) with
    // another disk: refused. A read-only disk cannot change; its device state is saved and
    // the restore needs the same --drive options.
    for (unsigned i = 0; i < m->nblk; i++) {
        if (!m->blk_img[i].readonly) {
            snprintf(msg, msglen, "snapshot refused: --drive file=%s is writable, and a "
                     "snapshot does not hold the disk (restoring it would not match the "
                     "image); snapshots work with readonly=on drives only", m->blk_img[i].path);
            return -1;
        }
    }
    // A shared directory's server holds host state (open files, names the guest walked to)
    // that a snapshot cannot carry, and the directory goes on changing.
    if (m->n9p) {
        snprintf(msg, msglen, "snapshot refused: --share %s: the 9P server's open files "
                 "and the directory are not in a snapshot; snapshots work without --share",
                 m->opts.shares[0].dir);
        return -1;
    }
    struct snap_image im = { 0 };
    int ok = 1;
    struct snap_config cfg = { SNAP_KIND_SYSTEM, m->nvcpu, m->arch, 0, m->ram_size, m->packets };
    ok &= snap_add(&im, "config", &cfg, sizeof(cfg)) == 0;
    struct snap_mach mach;
    memset(&mach, 0, sizeof(mach));
    mach.now = m->now;
    mach.packets = m->packets;
    mach.prompt_pcycles = m->prompt_pcycles;
    mach.time_offset = m->time_offset;
    mach.entry = m->entry;
    mach.kernel_end = m->kernel_end;
    mach.initrd_addr = m->initrd_addr;
    mach.initrd_size = m->initrd_size;
    memcpy(mach.warned_trap1, m->warned_trap1, sizeof(mach.warned_trap1));
    mach.attention = m->attention;
    mach.user_seen = m->user_seen;
    mach.warned_angel = m->warned_angel;
    mach.vcpu_lost = m->vcpu_lost;
    memcpy(mach.cmdline, m->cmdline, sizeof(mach.cmdline));
    ok &= snap_add(&im, "machine", &mach, sizeof(mach)) == 0;
    struct snap_vcpu vc[HEXSIM_MAX_VCPUS];
    memset(vc, 0, sizeof(vc));
    for (unsigned i = 0; i < m->nvcpu; i++) {
        const struct hexsim_vcpu *v = &m->vcpu[i];
        vc[i].cpu = v->cpu;
        vc[i].state = (uint32_t)v->state;
        vc[i].evb = v->evb;
        vc[i].ptbase = v->ptbase;
        vc[i].user = v->user;
        vc[i].ie = v->ie;
        vc[i].mmu_on = v->mmu_on;
        vc[i].yield = v->yield;
        vc[i].vec_set = v->vec_set;
    }
    ok &= snap_add(&im, "vcpus", vc, m->nvcpu * sizeof(vc[0])) == 0;
    struct snap_intc ic;
    memset(&ic, 0, sizeof(ic));
    ic.pending = m->intc.pending;
    ic.genable = m->intc.genable;
    ic.level = m->intc.level;
    memcpy(ic.locen, m->intc.locen, sizeof(ic.locen));
    ok &= snap_add(&im, "intc", &ic, sizeof(ic)) == 0;
    struct snap_timing_view tv;
    snap_timing_of_machine(&tv, m);
    ok &= snap_timing_save(&im, &tv) == 0;
    for (unsigned i = 0; ok && i < m->bus.ndev; i++) {
        struct hexsim_dev *d = m->bus.dev[i];
        size_t n = d->ops->save ? d->ops->save(d, NULL, 0) : 0;
        uint8_t *b = malloc(n ? n : 1);
        char name[SNAP_NAME_MAX];
        dev_name(name, i, d);
        ok &= b && (n == 0 || d->ops->save(d, b, n) == n) && snap_add(&im, name, b, n) == 0;
        free(b);
    }
    // The non-zero pages are counted first and copied into one buffer of their size: a
    // buffer grown page by page costs a copy of everything so far per page (under
    // AddressSanitizer, whose realloc always moves, a 256 MiB guest's snapshot took minutes).
    size_t npages = 0, pages = m->ram_size / HEXSIM_PAGE_SIZE;
    uint32_t *used = ok ? malloc((pages ? pages : 1) * sizeof(*used)) : NULL;
    for (size_t i = 0; used && i < pages; i++) {
        const struct hexsim_page *p = hexsim_mem_page(&m->ram, m->ram_base +
                                                      (uint32_t)(i * HEXSIM_PAGE_SIZE));
        if (p && !snap_page_zero(p->data))
            used[npages++] = (uint32_t)i;
    }
    uint8_t *ram = used ? malloc(npages * (4 + HEXSIM_PAGE_SIZE) + 1) : NULL;
    for (size_t k = 0; ram && k < npages; k++) {
        const struct hexsim_page *p = hexsim_mem_page(&m->ram, m->ram_base +
                                                      used[k] * HEXSIM_PAGE_SIZE);
        uint8_t *rec = ram + k * (4 + HEXSIM_PAGE_SIZE);
        memcpy(rec, &used[k], 4);
        memcpy(rec + 4, p->data, HEXSIM_PAGE_SIZE);
    }
    free(used);
    ok &= ram && snap_add(&im, "ram", ram, npages * (4 + HEXSIM_PAGE_SIZE)) == 0;
    free(ram);
    return snap_finish(&im, ok, path, msg, msglen);
}

static int config_of(const struct snap_image *im, const char *path, struct snap_config *cfg,
                     char *msg, size_t msglen)
{
    if (snap_config(im, path, SNAP_KIND_SYSTEM, cfg, sizeof(*cfg), msg, msglen))
        return -1;
    if (cfg->nvcpu < 1 || cfg->nvcpu > HEXSIM_MAX_VCPUS || cfg->ram_size == 0) {
        snprintf(msg, msglen, "snapshot %s: section config: impossible machine", path);
        return -1;
    }
    return 0;
}

int hexsim_snapshot_probe(const char *path, struct hexsim_snapshot_config *out, char *msg,
                          size_t msglen)
{
    struct snap_image im;
    if (snap_read(&im, path, msg, msglen))
        return -1;
    struct snap_config cfg;
    int rc = config_of(&im, path, &cfg, msg, msglen);
    if (rc == 0)
        *out = (struct hexsim_snapshot_config){ cfg.ram_size, cfg.nvcpu, cfg.arch, cfg.packets };
    snap_free(&im);
    return rc;
}

bool hexsim_snapshot_is_user(const char *path)
{
    struct snap_image im;
    char msg[8];
    if (snap_read(&im, path, msg, sizeof msg))
        return false;
    const struct snap_section *s = snap_get(&im, "config");
    uint32_t k = 0;
    if (s && s->len >= 4)
        memcpy(&k, s->data, 4);
    snap_free(&im);
    return k == SNAP_KIND_USER;
}

// Clears the RAM pages that are not in the snapshot's ram section (reload: the machine's
// RAM has been written since it was made). Returns -1 when out of memory (nothing changed).
static int clear_unsaved(struct hexsim_machine *m, const struct snap_section *sr, size_t rec)
{
    size_t pages = m->ram_size / HEXSIM_PAGE_SIZE;
    uint8_t *saved = calloc(pages / 8 + 1, 1);
    if (!saved)
        return -1;
    for (size_t off = 0; off < sr->len; off += rec) {
        uint32_t pn;
        memcpy(&pn, sr->data + off, 4);
        saved[pn / 8] |= (uint8_t)(1u << (pn % 8));
    }
    for (size_t i = 0; i < pages; i++) {
        if (saved[i / 8] >> (i % 8) & 1)
            continue;
        struct hexsim_page *p = hexsim_mem_page(&m->ram, m->ram_base +
                                                (uint32_t)(i * HEXSIM_PAGE_SIZE));
        if (p && !snap_page_zero(p->data)) {
            if (p->code)   // what was decoded from it is stale
                hexsim_page_written(&m->ram, p);
            memset(p->data, 0, HEXSIM_PAGE_SIZE);
        }
    }
    free(saved);
    return 0;
}

static int restore(struct hexsim_machine *m, const char *path, bool reload, char *msg,
                   size_t msglen)
{
    struct snap_image im;
    if (snap_read(&im, path, msg, msglen))
        return -1;
    int rc = -1;
    struct snap_config cfg;
    if (config_of(&im, path, &cfg, msg, msglen))
        goto out;
    if (cfg.ram_size != m->ram_size || cfg.nvcpu != m->nvcpu) {
        snprintf(msg, msglen, "snapshot %s: taken on a machine with %llu MiB of RAM and %u "
                 "vCPUs, this one has %u MiB and %u", path,
                 (unsigned long long)(cfg.ram_size >> 20), cfg.nvcpu, m->ram_size >> 20,
                 m->nvcpu);
        goto out;
    }
    // Check every section first; only then change the machine.
    const struct snap_section *sm = snap_need(&im, path, "machine", sizeof(struct snap_mach),
                                              msg, msglen);
    const struct snap_section *sv = sm ? snap_need(&im, path, "vcpus", m->nvcpu *
                                                   sizeof(struct snap_vcpu), msg, msglen) : NULL;
    const struct snap_section *si = sv ? snap_need(&im, path, "intc", sizeof(struct snap_intc),
                                                   msg, msglen) : NULL;
    const struct snap_section *sr = si ? snap_need(&im, path, "ram", 0, msg, msglen) : NULL;
    if (!sr)
        goto out;
    const size_t rec = 4 + HEXSIM_PAGE_SIZE;
    if (sr->len % rec) {
        snprintf(msg, msglen, "snapshot %s: section ram: not whole pages", path);
        goto out;
    }
    for (size_t off = 0; off < sr->len; off += rec) {
        uint32_t pn;
        memcpy(&pn, sr->data + off, 4);
        if ((uint64_t)pn * HEXSIM_PAGE_SIZE >= m->ram_size) {
            snprintf(msg, msglen, "snapshot %s: section ram: page 0x%x outside RAM", path, pn);
            goto out;
        }
    }
    unsigned disks = 0;                 // the machine's --drive disks must be the snapshot's
    for (unsigned i = 0; i < im.n; i++)
        disks += strstr(im.sec[i].name, ".virtio_blk") != NULL;
    if (disks != m->nblk) {
        snprintf(msg, msglen, "snapshot %s: taken with %u virtio_blk disk(s), this machine has "
                 "%u: give the same --drive options (readonly=on) as the snapshotted run",
                 path, disks, m->nblk);
        goto out;
    }
    const struct snap_section *sd[HEXSIM_BUS_MAX_DEVS];
    for (unsigned i = 0; i < m->bus.ndev; i++) {
        struct hexsim_dev *d = m->bus.dev[i];
        char name[SNAP_NAME_MAX];
        dev_name(name, i, d);
        size_t n = d->ops->save ? d->ops->save(d, NULL, 0) : 0;
        sd[i] = snap_get(&im, name);
        if (!sd[i] || sd[i]->len != n) {
            snprintf(msg, msglen, "snapshot %s: section %s: %s", path, name,
                     sd[i] ? "another size than this hexsim's device state" : "missing");
            goto out;
        }
    }
    struct snap_timing_view tv;
    snap_timing_of_machine(&tv, m);
    if (snap_timing_check(&im, &tv, path, msg, msglen))
        goto out;
    unsigned nsec = 5 + m->bus.ndev + snap_timing_sections(&tv);
    if (im.n != nsec) {
        snprintf(msg, msglen, "snapshot %s: %u sections, expected %u (another machine?)", path,
                 im.n, nsec);
        goto out;
    }
    if (reload && clear_unsaved(m, sr, rec)) {
        snprintf(msg, msglen, "snapshot %s: out of memory", path);
        goto out;
    }
    // Apply.
    m->halted = false;                  // reload: a machine that had stopped runs again
    m->exit_status = 0;
    struct snap_mach mach;
    memcpy(&mach, sm->data, sizeof(mach));
    m->now = mach.now;
    m->packets = mach.packets;
    m->prompt_pcycles = mach.prompt_pcycles;
    m->time_offset = mach.time_offset;
    m->entry = mach.entry;
    m->kernel_end = mach.kernel_end;
    m->initrd_addr = mach.initrd_addr;
    m->initrd_size = mach.initrd_size;
    memcpy(m->warned_trap1, mach.warned_trap1, sizeof(m->warned_trap1));
    m->attention = true;
    m->user_seen = mach.user_seen;
    m->warned_angel = mach.warned_angel;
    m->vcpu_lost = mach.vcpu_lost;
    memcpy(m->cmdline, mach.cmdline, sizeof(m->cmdline));
    m->cmdline[sizeof(m->cmdline) - 1] = 0;
    m->arch = cfg.arch;
    for (unsigned i = 0; i < m->nvcpu; i++) {
        struct snap_vcpu vc;
        memcpy(&vc, sv->data + i * sizeof(vc), sizeof(vc));
        struct hexsim_vcpu *v = &m->vcpu[i];
        v->cpu = vc.cpu;
        HEXSIM_RESTORE_BOOL(&v->cpu, sv->data + i * sizeof(vc) + offsetof(struct snap_vcpu, cpu),
                            struct hexsim_cpu, reserved);
        v->state = vc.state <= HEXSIM_VCPU_WAIT ? (int)vc.state : HEXSIM_VCPU_OFF;
        v->evb = vc.evb;
        v->ptbase = vc.ptbase;
        hexsim_vcpu_set_user(v, vc.user);   // (its TLBs and the executor's mode too)
        v->ie = vc.ie;
        v->mmu_on = vc.mmu_on;
        v->yield = vc.yield;
        v->vec_set = vc.vec_set;
        v->env.arch = m->arch;
        hexsim_vcpu_flush_tlb(v);
    }
    struct snap_intc ic;
    memcpy(&ic, si->data, sizeof(ic));
    m->intc.pending = ic.pending;
    m->intc.genable = ic.genable;
    m->intc.level = ic.level;
    memcpy(m->intc.locen, ic.locen, sizeof(ic.locen));
    for (unsigned i = 0; i < m->bus.ndev; i++) {
        struct hexsim_dev *d = m->bus.dev[i];
        if (d->ops->restore && d->ops->restore(d, sd[i]->data, sd[i]->len)) {
            snprintf(msg, msglen, "snapshot %s: device %s refused its state", path,
                     d->ops->name);
            goto out;        // sizes were checked: a device refusing is a bug
        }
    }
    for (size_t off = 0; off < sr->len; off += rec) {
        uint32_t pn;
        memcpy(&pn, sr->data + off, 4);
        struct hexsim_page *p = hexsim_mem_page(&m->ram, m->ram_base + pn * HEXSIM_PAGE_SIZE);
        if (p && p->code)   // what was decoded from it is stale
            hexsim_page_written(&m->ram, p);
        if (p)
            memcpy(p->data, sr->data + off + 4, HEXSIM_PAGE_SIZE);
    }
    snap_timing_apply(&im, &tv);
    for (unsigned i = 0; i < m->nvcpu; i++)
        hexsim_timing_state_check(&m->vcpu[i].cpu.tm);
    rc = 0;
out:
    snap_free(&im);
    return rc;
}

int hexsim_snapshot_restore(struct hexsim_machine *m, const char *path, char *msg,
                            size_t msglen)
{
    return restore(m, path, false, msg, msglen);
}

int hexsim_snapshot_reload(struct hexsim_machine *m, const char *path, char *msg,
                           size_t msglen)
{
    return restore(m, path, true, msg, msglen);
}
