// SPDX-License-Identifier: MIT
// The debugger's view of a simulated machine: a small table of operations that a target
// (Linux user mode today, system mode later) implements over its own state. The debugger
// core, the command-line front end and the gdb stub use nothing else, so they work the same
// on every target. src/debug/README.md says what a target must provide.
// Register numbers are the ones lldb and LLVM use for Hexagon (lldb's ABISysV_hexagon and the
// gdb remote target description): R0-R31 are 0-31 (SP = 29, FP = 30, LR = 31), control
// register Cn is 32+n (SA0 32, LC0 33, SA1 34, LC1 35, P3:0 36, M0 38, M1 39, USR 40, PC 41,
// UGP 42, GP 43, CS0 44, CS1 45, UPCYCLELO/HI 46/47, FRAMELIMIT 48, FRAMEKEY 49, PKTCOUNTLO/HI
// 50/51, UTIMERLO/HI 62/63). System-mode registers (SGP0 64, ... G0-G3 80-83) follow lldb's
// numbering too; a target lists the registers it has. lldb knows no HVX registers (its
// ABISysV_hexagon stops at G3); hexsim numbers them after it: V0-V31 88-119 (1024 bits),
// Q0-Q3 120-123 (128 bits), and gives their DWARF numbers (LLVM's: V0-V31 99-130, Q0-Q3
// 131-134) in the gdb target description.
#ifndef HEXSIM_DEBUG_TARGET_H
#define HEXSIM_DEBUG_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/decode.h"
#include "cpu/exec.h"

struct hexsim_symtab;

#define HEXSIM_DBG_REG_SP 29
#define HEXSIM_DBG_REG_FP 30
#define HEXSIM_DBG_REG_LR 31
#define HEXSIM_DBG_REG_C0 32
#define HEXSIM_DBG_REG_P3_0 36
#define HEXSIM_DBG_REG_USR 40
#define HEXSIM_DBG_REG_PC 41
#define HEXSIM_DBG_REG_V0 88
#define HEXSIM_DBG_REG_Q0 120
#define HEXSIM_DBG_REG_MAX_BYTES 128   // the widest register (a vector)

struct hexsim_dbg_reg_desc {
    const char *name;       // lower case, as the assembler spells it ("r0", "usr", "p3:0")
    const char *alt;        // another name or NULL ("sp" for r29)
    uint16_t num;           // register number (see above)
    uint16_t bits;          // 32; 1024 and 128 for the HVX registers (read_wide)
    uint8_t group;          // enum hexsim_dbg_reg_group
};

enum hexsim_dbg_reg_group { HEXSIM_DBG_GRP_GENERAL, HEXSIM_DBG_GRP_CONTROL, HEXSIM_DBG_GRP_SYSTEM,
                            HEXSIM_DBG_GRP_VECTOR };

// Why execution stopped.
enum hexsim_dbg_stop_kind {
    HEXSIM_DBG_STOP_NONE = 0,
    HEXSIM_DBG_STOP_STEP,       // the requested packets ran
    HEXSIM_DBG_STOP_BREAK,      // PC reached a breakpoint (the packet there has not run)
    HEXSIM_DBG_STOP_WATCH,      // a packet accessed a watched range (the packet has committed)
    HEXSIM_DBG_STOP_FAULT,      // a packet faulted and committed nothing; PC is that packet.
                                // Running on delivers the signal (the process ends)
    HEXSIM_DBG_STOP_EXIT,       // the program (machine) ended: exit_status
    HEXSIM_DBG_STOP_INTERRUPT,  // the poll callback asked to stop
    HEXSIM_DBG_STOP_LIMIT,      // max_packets ran out
};

struct hexsim_dbg_stop {
    int kind;                   // enum hexsim_dbg_stop_kind
    unsigned thread;            // the thread that stopped
    uint32_t pc;
    int index;                  // BREAK: index in run.bp; WATCH: index in run.wp
    uint32_t addr;              // WATCH: the data address accessed; FAULT: faulting address
    bool write;                 // WATCH: a store
    int exit_status;            // EXIT: process exit status (128+N: killed by signal N)
    int signal;                 // FAULT, EXIT by signal: the POSIX signal number
    uint64_t packets;           // packets run by this step/run call
    char msg[256];              // FAULT: the simulator's report (one line)
};

// What one packet did (filled by step): the packet, the executor's write log, the event.
struct hexsim_dbg_step_info {
    uint32_t pc;                // the packet's address
    bool decoded;               // pkt is valid (false: fetch fault)
    struct hexsim_packet pkt;
    struct hexsim_exec_trace trace;
    struct hexsim_event_info ev;
};

enum hexsim_dbg_watch_kind { HEXSIM_DBG_WATCH_WRITE = 1, HEXSIM_DBG_WATCH_READ = 2,
                             HEXSIM_DBG_WATCH_ACCESS = 3 };

struct hexsim_dbg_watch {
    uint32_t addr, len;
    uint8_t kind;               // enum hexsim_dbg_watch_kind bits
};

// Whether the packet whose write log is t accessed a byte of the watched range w (a scalar
// or vector store for WRITE, a load for READ). *addr: the access's address (a vector
// store: the first watched byte it wrote), *write: a store.
static inline bool hexsim_dbg_trace_hit(const struct hexsim_exec_trace *t,
                                        const struct hexsim_dbg_watch *w, uint32_t *addr,
                                        bool *write)
{
#define HEXSIM_DBG_OVERLAP(a, n) ((uint32_t)((a) - w->addr) < w->len || \
                                  (uint32_t)(w->addr - (a)) < (uint32_t)(n))
    if (w->kind & HEXSIM_DBG_WATCH_WRITE) {
        for (unsigned k = 0; k < t->nst && k < 2; k++)
            if (HEXSIM_DBG_OVERLAP(t->st[k].addr, t->st[k].size)) {
                *addr = t->st[k].addr;
                *write = true;
                return true;
            }
        if (t->vst_len && HEXSIM_DBG_OVERLAP(t->vst_addr, t->vst_len)) {
            *addr = t->vst_addr - w->addr < w->len ? t->vst_addr : w->addr;
            *write = true;
            return true;
        }
    }
    if (w->kind & HEXSIM_DBG_WATCH_READ)
        for (unsigned k = 0; k < t->nld && k < HX_TRACE_MAX_LOADS; k++)
            if (HEXSIM_DBG_OVERLAP(t->ld[k].addr, t->ld[k].size)) {
                *addr = t->ld[k].addr;
                *write = false;
                return true;
            }
    return false;
#undef HEXSIM_DBG_OVERLAP
}

// The first watchpoint of `wp` (n of them) the packet whose log is t hit: its index (stop's
// addr and write filled), or -1.
static inline int hexsim_dbg_watch_hit(const struct hexsim_dbg_watch *wp, unsigned n,
                                       const struct hexsim_exec_trace *t,
                                       struct hexsim_dbg_stop *stop)
{
    for (unsigned i = 0; i < n; i++)
        if (hexsim_dbg_trace_hit(t, &wp[i], &stop->addr, &stop->write))
            return (int)i;
    return -1;
}

// A stop condition for run.
struct hexsim_dbg_run {
    const uint32_t *bp;         // stop before a packet at one of these addresses runs ...
    unsigned nbp;
    bool step_over_bp;          // ... except the first packet (resuming from a breakpoint)
    const struct hexsim_dbg_watch *wp;
    unsigned nwp;
    uint64_t max_packets;       // 0: no limit
    // Called every HEXSIM_DBG_POLL_PACKETS packets; returning true stops (INTERRUPT).
    bool (*poll)(void *poll_ctx);
    void *poll_ctx;
};
#define HEXSIM_DBG_POLL_PACKETS 65536

enum hexsim_dbg_mem_flags { HEXSIM_DBG_MEM_PHYS = 1 };

struct hexsim_dbg_target_ops {
    const char *name;                        // "user", "system"
    // Registers: the table of registers this target has, then access by number.
    const struct hexsim_dbg_reg_desc *(*regs)(void *t, unsigned *count);
    int (*read_reg)(void *t, unsigned thread, unsigned num, uint64_t *val);    // 0 or -1
    int (*write_reg)(void *t, unsigned thread, unsigned num, uint64_t val);
    // Registers wider than 64 bits (the HVX ones): bits/8 bytes, guest byte order. 0 or -1.
    int (*read_wide)(void *t, unsigned thread, unsigned num, void *buf);
    int (*write_wide)(void *t, unsigned thread, unsigned num, const void *buf);
    // Memory by virtual address as `thread` sees it (or physical with HEXSIM_DBG_MEM_PHYS);
    // permissions are ignored. Return the bytes transferred (short at the first
    // unreachable byte). Writes to code are seen by the next fetch.
    size_t (*read_mem)(void *t, unsigned thread, uint64_t addr, void *buf, size_t len,
                       unsigned flags);
    size_t (*write_mem)(void *t, unsigned thread, uint64_t addr, const void *buf, size_t len,
                        unsigned flags);
    // Runs one packet on `thread`; fills *info and *stop (kind STEP, FAULT or EXIT).
    void (*step)(void *t, unsigned thread, struct hexsim_dbg_step_info *info,
                 struct hexsim_dbg_stop *stop);
    // Runs all threads until a condition in *cond holds or the machine stops.
    void (*run)(void *t, const struct hexsim_dbg_run *cond, struct hexsim_dbg_stop *stop);
    // Threads (vCPUs): writes up to max ids (1-based) and returns how many there are.
    unsigned (*threads)(void *t, unsigned *ids, unsigned max);
    // Symbols of the loaded image (may be NULL).
    const struct hexsim_symtab *(*symtab)(void *t);
    // Core version for disassembly (68 = V68).
    unsigned (*arch)(void *t);
    // "info WHAT" providers: tlb, irq, devices, hvm, ... Prints to out and returns 0, or
    // returns -1 when the target has no such information. May be NULL.
    int (*info)(void *t, const char *what, FILE *out);
    // Why a thread cannot run now ("stopped: ..."), or NULL when it can. May be NULL (every
    // thread can always run).
    const char *(*thread_state)(void *t, unsigned thread);
    // The guest kernel's current task on a thread (system mode, a Linux guest): the
    // task_struct's address and its name (comm) into comm[len]. 0, or -1 when unknown.
    // May be NULL (user mode).
    int (*current_task)(void *t, unsigned thread, uint32_t *task, char *comm, size_t len);
    // Translates va through the page table whose L1 table is at physical address ptbase, as
    // the machine's MMU walks it (a process's address space by its page tables): 0 with the
    // physical address, or -1 (not mapped). May be NULL.
    int (*walk)(void *t, uint32_t ptbase, uint32_t va, uint32_t *pa);
    // Snapshots (savevm/loadvm): save writes the whole machine or process to path; load
    // replaces it with the one saved in path, which must be of the same configuration
    // (system: RAM and vCPUs; user: program and core version). Everything is checked
    // before anything changes. 0, or -1 with a message (nothing changed). May be NULL.
    int (*save)(void *t, const char *path, char *msg, size_t msglen);
    int (*load)(void *t, const char *path, char *msg, size_t msglen);
    // `run` after the start loads a snapshot taken at the start (save/load): worth it for a
    // process (a few pages), not for a whole machine's RAM.
    bool restartable;
};

struct hexsim_dbg_target {
    const struct hexsim_dbg_target_ops *ops;
    void *ctx;
};

#endif
