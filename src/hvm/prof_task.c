// SPDX-License-Identifier: MIT
// --profile in system mode: which guest task each packet runs for (prof_task.h), read from
// the Linux guest's own data, so that user code is counted per task and named by the
// task's program (--profile-symbols). Facts from the Linux 6.x Hexagon port: kernel code
// keeps the current thread_info in r19 (arch/hexagon/Makefile: -ffixed-r19, THREADINFO_REG;
// vm_entry.S sets it on every event from user mode, so while user registers are restored
// it briefly holds user values), thread_info sits at the base of the kernel stack (aligned
// to THREAD_SIZE, at least a 4 KiB page) and begins with its task_struct pointer
// (asm/thread_info.h); a task's name is the char comm[16] in task_struct, whose offset
// hexsim finds by looking for the boot task's name "swapper" in init_task (vmlinux's
// symbol). User code runs for the task of the last thread_info kernel code had; its name
// is read again each time the vCPU enters user mode (an exec renames the task). A kernel
// without an init_task symbol, or other guests: every packet is task 0 ("[unknown]").
// The debugger's stop reports name the current task through hexsim_hvm_current_task.
#include "prof_task.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/profile.h"
#include "cpu/decode.h"
#include "debug/symtab.h"
#include "hexsim/machine.h"

#define KERNEL_BASE 0xc0000000u   // PAGE_OFFSET of the Hexagon port
#define COMM_LEN 16
#define INIT_TASK_SCAN 8192       // bytes of init_task searched for comm
#define THREAD_SIZE 4096u         // the kernel stack (asm/thread_info.h: THREAD_SHIFT 12)

// Reads n bytes at kernel virtual address va as v's kernel sees them; 0, or -1.
static int read_kernel(struct hexsim_vcpu *v, uint32_t va, void *buf, uint32_t n)
{
    struct hexsim_machine *m = v->m;
    uint8_t *out = buf;
    while (n) {
        uint32_t pa;
        unsigned prot;
        if (va < KERNEL_BASE || hexsim_hvm_translate(v, va, false, &pa, &prot) ||
            pa - m->ram_base >= m->ram_size)
            return -1;
        struct hexsim_page *pg = hexsim_mem_page(&m->ram, pa);
        if (!pg)
            return -1;
        uint32_t off = pa & (HEXSIM_PAGE_SIZE - 1), chunk = HEXSIM_PAGE_SIZE - off;
        chunk = chunk < n ? chunk : n;
        memcpy(out, pg->data + off, chunk);
        out += chunk;
        va += chunk;
        n -= chunk;
    }
    return 0;
}

// comm's offset in task_struct, 0 while unknown (tried again later: the kernel's map may
// not be up yet).
static uint32_t comm_offset(struct hexsim_vcpu *v)
{
    struct hexsim_prof_tasks *pt = &v->m->prof_tasks;
    if (pt->comm_off || pt->no_init_task)
        return pt->comm_off;
    if (!pt->init_task) {
        struct hexsim_symtab st = { 0 };
        const struct hexsim_sym *s = NULL;
        if (v->m->kernel_path[0] && hexsim_symtab_load(&st, v->m->kernel_path) == 0)
            s = hexsim_symtab_find(&st, "init_task");
        pt->init_task = s ? s->addr : 0;
        pt->no_init_task = !s;
        hexsim_symtab_free(&st);
        if (!s)
            return 0;
    }
    static const char name[] = "swapper";
    char buf[INIT_TASK_SCAN];
    if (read_kernel(v, pt->init_task, buf, sizeof buf))
        return 0;
    for (uint32_t k = 4; k + sizeof name <= sizeof buf; k += 4)   // comm is word aligned
        if (memcmp(buf + k, name, sizeof name - 1) == 0) {
            pt->comm_off = k;
            break;
        }
    pt->no_init_task = !pt->comm_off;
    return pt->comm_off;
}

// The task whose thread_info is at ti: its task_struct and its name (printable, not
// empty). 0, or -1.
static int read_task(struct hexsim_vcpu *v, uint32_t ti, uint32_t *task, char comm[COMM_LEN])
{
    uint32_t off = comm_offset(v);
    if (!off || read_kernel(v, ti, task, 4) || read_kernel(v, *task + off, comm, COMM_LEN))
        return -1;
    comm[COMM_LEN - 1] = '\0';
    for (unsigned k = 0; comm[k]; k++)
        if (comm[k] < 0x20 || comm[k] > 0x7e)
            return -1;
    return comm[0] ? 0 : -1;
}

// The profile's index of the task whose thread_info is at ti (0: unknown).
static unsigned task_of(struct hexsim_vcpu *v, uint32_t ti)
{
    uint32_t task;
    char comm[COMM_LEN];
    return read_task(v, ti, &task, comm) ? 0 : hexsim_profile_task(v->m->profile, comm);
}

int hexsim_hvm_current_task(struct hexsim_vcpu *v, uint32_t *task, char *comm, size_t len)
{
    // kernel mode: r19, or the kernel stack's base when r19 does not hold a thread_info
    // (the few packets of an event's entry and exit); user mode: the kernel stack pointer
    // the HVM keeps in GOSP while the guest runs in user mode
    uint32_t ti = v->user ? v->cpu.g[2] & ~(THREAD_SIZE - 1) : v->cpu.r[19];
    if (!v->user && (ti < KERNEL_BASE || (ti & (THREAD_SIZE - 1))))
        ti = v->cpu.r[29] & ~(THREAD_SIZE - 1);
    char name[COMM_LEN];
    if (ti < KERNEL_BASE || read_task(v, ti, task, name))
        return -1;
    snprintf(comm, len, "%s", name);
    return 0;
}

void hexsim_hvm_profile_packet(struct hexsim_vcpu *v, const struct hexsim_packet *pkt,
                               uint64_t pcycles)
{
    struct hexsim_machine *m = v->m;
    struct hexsim_prof_tasks *pt = &m->prof_tasks;
    unsigned t = v->id % HEXSIM_MAX_VCPUS, task;
    if (v->user) {
        if (!pt->in_user[t]) {
            pt->in_user[t] = true;
            pt->utask[t] = pt->kti[t] ? task_of(v, pt->kti[t]) : 0;
        }
        task = pt->utask[t];
    } else {
        pt->in_user[t] = false;
        uint32_t ti = v->cpu.r[19];
        if (ti != pt->kti[t] && ti >= KERNEL_BASE && !(ti & 0xfffu)) {
            pt->kti[t] = ti;
            pt->ktask[t] = task_of(v, ti);
        }
        task = pt->ktask[t];
    }
    uint64_t n = m->packets - 1;
    if (n < m->opts.profile_from || (m->opts.profile_to && n >= m->opts.profile_to))
        return;
    hexsim_profile_set_task(m->profile, t, task, v->user);
    hexsim_profile_packet(m->profile, t, pkt->addr, pcycles, pkt->tm.hvx_insns,
                          hexsim_profile_flow(pkt, v->cpu.pc), v->cpu.pc);
}

int hexsim_hvm_profile_write(struct hexsim_machine *m, char *msg, size_t msglen)
{
    // each --profile-symbols text is PROG[,PROG...]: split copies of them
    const char *progs[HEXSIM_PROFILE_MAX_PROGS];
    char *copy[HEXSIM_PROFILE_SYMS] = { 0 };
    unsigned n = 0;
    for (unsigned k = 0; k < m->opts.nprofile_syms && k < HEXSIM_PROFILE_SYMS; k++) {
        if (!(copy[k] = strdup(m->opts.profile_syms[k])))
            continue;
        for (char *save = NULL, *s = strtok_r(copy[k], ",", &save);
             s && n < HEXSIM_PROFILE_MAX_PROGS; s = strtok_r(NULL, ",", &save))
            progs[n++] = s;
    }
    int rc = hexsim_profile_write(m->profile, m->opts.profile,
                                  m->kernel_path[0] ? m->kernel_path : NULL, progs, n, msg,
                                  msglen);
    for (unsigned k = 0; k < HEXSIM_PROFILE_SYMS; k++)
        free(copy[k]);
    return rc;
}
