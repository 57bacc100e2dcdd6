// SPDX-License-Identifier: MIT
// One simulated system: a Hexagon core's vCPUs under the HVM, guest physical RAM, the Comet
// board's MMIO map with its devices, the pcycle clock and the run options. Everything a run
// touches hangs off this struct, so several machines can live in one process (DESIGN.md:
// no globals). Facts: DESIGN.md "Comet board", "Linux 6.1 guest facts".
#ifndef HEXSIM_MACHINE_H
#define HEXSIM_MACHINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "hexsim/comet.h"
#include "hexsim/dev.h"
#include "hexsim/hvm.h"
#include "hexsim/mem.h"
#include "cpu/timing.h"

#define HEXSIM_RAM_BASE 0x00000000u
#define HEXSIM_RAM_TOP 0x30000000u            // EBI1_CS_N1_TOP
#define HEXSIM_RAM_DEFAULT (256u << 20)
#define HEXSIM_PAGE_OFFSET 0xC0000000u        // Linux kernel virtual base
// The oldest core version system mode decodes for (without --mcpu): user programs built
// for V67 (guest/rootfs: what clang-16 -mv67 and qemu-hexagon 7.2 share) must run.
#define HEXSIM_SYS_MIN_ARCH 67
#define HEXSIM_PCYCLE_HZ 600000000ull         // nominal pcycle clock (setup_arch)
#define HEXSIM_SLEEP_CLK_HZ 32000ull          // RTOS timer clock

#define HEXSIM_PROFILE_SYMS 16   // --profile-symbols options at most

struct hexsim_machine_opts {
    uint64_t ram_size;        // bytes (0: default)
    unsigned smp;             // vCPUs (0: 1)
    unsigned arch;            // core version for decoding (0: from the ELF header)
    uint64_t max_packets;     // 0: no limit
    double max_seconds;       // 0: no limit (host time: a safety stop only)
    bool trace_hvm;           // log trap1 calls and events on err
    const char *append;       // kernel command line from --append
    const char *initrd;       // initrd file, NULL none
    bool trace_mmio;          // log accesses to undefined device registers (once each)
    bool trace_mmio_all;      // log every device register access
    bool stats;               // at the end: the --stats table on err
    const char *stats_json;   // the same as JSON into this file (NULL: none)
    int timing;               // enum hexsim_timing_mode (src/cpu/timing.h)
    const struct hexsim_timing_params *timing_params;   // NULL: the defaults
    const char *profile;      // --profile FILE (NULL: none)
    // --profile-symbols: guest programs (each text PROG[,PROG...]) naming user code
    const char *profile_syms[HEXSIM_PROFILE_SYMS];
    unsigned nprofile_syms;
    uint64_t profile_from, profile_to;   // --profile-range: packets [from, to) (to 0: end)
    uint64_t uart_char_pcycles;          // UART character time (0: default)
    uint64_t rng_seed;                   // the entropy device's seed (--rng-seed)
    const struct hexsim_drive_opts *drives;   // --drive (virtio block devices), in order
    unsigned ndrives;                    // at most HEXSIM_VIRTIO_BLK_MAX
    const struct hexsim_share_opts *shares;   // --share (virtio 9P devices), in order
    unsigned nshares;                    // at most HEXSIM_VIRTIO_9P_MAX
    // What /init learns from the kernel command line (src/loader/boot_env.c): the date the
    // guest's clock starts at (seconds since 1970, UTC; 0: HEXSIM_RTC_FIXED) and the
    // console's size (0: not a terminal, init leaves it unset).
    int64_t rtc_base;
    unsigned con_rows, con_cols;
    // Host backends (NULL: defaults). serial carries UART3 (default: output to the
    // console, no input); console carries angel output (default: stdout); net is the
    // Ethernet backend (default: none). idle is called when every vCPU waits: it waits at
    // most timeout_ns of host time for console or network input (0: only looks) and
    // returns 1 when some may be there (the machine then wakes its ports), 0 when the time
    // ran out, -1 when no input can ever come (after waiting as long).
    struct hexsim_chardev *serial;
    struct hexsim_console *console;
    struct hexsim_netdev *net;
    int (*idle)(void *ctx, uint64_t timeout_ns);
    void *idle_ctx;
    // --clock: false (virtual), while every vCPU waits the clock jumps to the next device
    // event at once, so a run depends only on its input; true (wall), it follows the
    // host's clock then (interactive use; src/hvm/run.c).
    bool wall_clock;
    // Blocks (src/hvm/run_jit.c): no_jit interprets packet by packet; no_stencils compiles
    // calls of the semantic functions; code_cache (0: default) and jit_threshold (0: default)
    // as in user mode.
    bool no_jit, no_stencils;
    size_t code_cache;
    unsigned jit_threshold;
    bool perf_map;            // --perf-map: /tmp/perf-PID.map names compiled blocks for perf
                              // (src/core/perf_map.h; symbols from the kernel's ELF file)
};

struct hexsim_pcache;
struct hexsim_sysblocks;

// The debugger's hook into the run loop (src/hvm/dbg_target.c): NULL in a normal run (one
// predictable branch per packet). before() is called with v->cpu.pc at the packet about to
// run: HEXSIM_DBG_HOOK_RUN runs it, HEXSIM_DBG_HOOK_STOP makes hexsim_machine_run return
// HEXSIM_MACHINE_STOPPED before it, HEXSIM_DBG_HOOK_SKIP ends v's time slice without it.
// after() is called once the packet (or its fetch fault) has been handled, with the
// executor event (HX_EV_*; -1 for a fetch fault); returning true stops the run after it.
enum { HEXSIM_DBG_HOOK_RUN, HEXSIM_DBG_HOOK_STOP, HEXSIM_DBG_HOOK_SKIP };
struct hexsim_machine_hook {
    int (*before)(void *ctx, struct hexsim_vcpu *v);
    bool (*after)(void *ctx, struct hexsim_vcpu *v, uint32_t pc, int event);
    void *ctx;
};
#define HEXSIM_MACHINE_STOPPED (-1)   // hexsim_machine_run: a hook stopped it; call again

struct hexsim_machine {
    struct hexsim_machine_opts opts;
    struct hexsim_mem ram;            // guest physical memory (RAM only)
    uint32_t ram_base, ram_size;
    unsigned nvcpu;
    struct hexsim_vcpu vcpu[HEXSIM_MAX_VCPUS];
    struct hexsim_intc intc;
    struct hexsim_bus bus;
    struct hexsim_dev rtos_dev;
    struct hexsim_rtos_timer rtos;
    struct hexsim_dev sirc_dev, clk_dev, uart_dev[3], eth_dev;
    struct hexsim_sirc sirc;
    struct hexsim_clk_ctl clk;
    struct hexsim_msm_uart uart[3];      // UART1, UART2, UART3 (the console)
    struct hexsim_smsc911x eth;
    struct hexsim_dev rng_dev;
    struct hexsim_virtio_rng rng;        // entropy source (virtio_rng.c)
    unsigned nblk;                       // block devices (virtio_blk.c): --drive images
    struct hexsim_blk_image blk_img[HEXSIM_VIRTIO_BLK_MAX];
    struct hexsim_dev blk_dev[HEXSIM_VIRTIO_BLK_MAX];
    struct hexsim_virtio_blk blk[HEXSIM_VIRTIO_BLK_MAX];
    unsigned n9p;                        // shared directories (virtio_9p.c): --share
    struct hexsim_dev p9_dev[HEXSIM_VIRTIO_9P_MAX];
    struct hexsim_virtio_9p p9[HEXSIM_VIRTIO_9P_MAX];
    struct hexsim_chardev serial_default; // UART3 output to the console
    struct hexsim_netdev net_none;
    struct hexsim_console console;
    struct hexsim_pcache *pcache;     // decoded packets by physical address
    struct hexsim_sysblocks *sysblocks;   // blocks (src/hvm/run_jit.c), NULL: none
    unsigned arch;
    uint64_t now;                     // machine pcycle clock
    int64_t time_offset;              // vmsettime
    uint64_t packets;                 // packets executed, all vCPUs
    bool attention;                   // interrupt or device state changed: re-check
    bool halted;
    bool vcpu_lost;                   // a vCPU was terminated by an event before vmsetvec
    const struct hexsim_machine_hook *hook;   // debugger (NULL: none)
    bool hook_stop;                   // a hook asked hexsim_machine_run to return
    bool user_seen;                   // some vCPU has entered guest user mode
    uint32_t vcpus_seen;              // bit i: vCPU i has been on (not HEXSIM_VCPU_OFF)
    bool prompt_seen;                 // the guest has waited for console input (see run.c)
    double prompt_seconds;            // host time from the start of the run to then
    uint64_t prompt_pcycles, prompt_packets;
    unsigned inputs;                  // console input released at the guest's waits (--script
    double input_cpu_first, input_cpu_last;   // lines...) and the host CPU time (s) at the
                                      //   first and the last: a command's cost, boot excluded
    struct timespec run_t0;           // host time of the first hexsim_machine_run
    bool run_started;
    bool wall_anchored;               // --clock wall: pcycle wall_guest0 was host time
    uint64_t wall_host0, wall_guest0; //   wall_host0 (ns); the idle clock follows from there
    uint64_t pause_at;                // hexsim_machine_run returns HEXSIM_SYS_PAUSED once this
    bool paused;                      //   many packets have run (0: never); the state is then
                                      //   complete between two rounds (for snapshots)
    bool pause_now;                   // the same at the next round (Ctrl-A s)
    int exit_status;
    FILE *err;                        // diagnostics (stderr)
    // loader results
    uint32_t entry;                   // physical entry PC
    uint32_t kernel_end;              // first physical address above the loaded image
    uint32_t initrd_addr, initrd_size;
    char cmdline[4096];               // at most HEXSIM_CMDLINE_MAX bytes with its NUL
    uint32_t warned_trap1[2];         // unknown trap1 numbers 0..63 reported once
    bool warned_angel;
    // timing model (src/cpu/timing.h): parameters, cache mode's caches (L2 shared)
    struct hexsim_timing_params tparams;
    bool caches_on;
    struct hexsim_cache l2;
    struct hexsim_caches caches[HEXSIM_MAX_VCPUS];
    struct hexsim_profile *profile;   // --profile (NULL: none)
    char kernel_path[1024];           // the loaded ELF (--profile's symbols), "" none
    // --profile's view of the guest's tasks (src/hvm/prof_task.c): comm's offset in the
    // kernel's task_struct (0: not found yet), each vCPU's last thread_info seen in
    // kernel mode and its task (profile index), and whether it is now in user mode.
    struct hexsim_prof_tasks {
        uint32_t comm_off, init_task;
        bool no_init_task;
        uint32_t kti[HEXSIM_MAX_VCPUS];
        unsigned ktask[HEXSIM_MAX_VCPUS], utask[HEXSIM_MAX_VCPUS];
        bool in_user[HEXSIM_MAX_VCPUS];
    } prof_tasks;
    // --stats counters: trap1 calls by number, events by kind, interrupts by number
    struct hexsim_hvm_counts {
        uint64_t calls[HEXSIM_HVM_COUNTED_CALLS];
        uint64_t events[8];
        uint64_t interrupts[HEXSIM_HVM_NINTS];
        uint64_t angel;
    } counts;
};

// Linux/Hexagon copies at most COMMAND_LINE_SIZE (asm-generic/setup.h: 512) bytes of the
// command line, NUL included.
#define HEXSIM_CMDLINE_MAX 512

// Exit statuses of a system-mode run
enum {
    HEXSIM_SYS_EXIT_OK = 0,           // every vCPU stopped (vmstop)
    HEXSIM_SYS_EXIT_ERROR = 3,        // unhandled event, hexsim limitation, deadlock
    HEXSIM_SYS_EXIT_GUEST_FAIL = 4,   // the guest reported a failure (angel SYS_EXIT)
    HEXSIM_SYS_EXIT_LIMIT = 124,      // --max-packets / --max-seconds
    HEXSIM_SYS_PAUSED = -2,           // not an exit status: pause_at reached, run again
};

// Creates a machine with the Comet board map; returns NULL (message in err) on failure.
struct hexsim_machine *hexsim_machine_new(const struct hexsim_machine_opts *o, FILE *err,
                                          char *msg, size_t msglen);
void hexsim_machine_free(struct hexsim_machine *m);
// Loads a kernel ELF (and the initrd, and the command line); 0, or with a message -1 (a file
// cannot be read or loaded) or HEXSIM_LOAD_CMDLINE (the kernel command line with what the
// board adds to --append is longer than HEXSIM_CMDLINE_MAX - 1 bytes).
#define HEXSIM_LOAD_CMDLINE (-2)
int hexsim_machine_load(struct hexsim_machine *m, const char *path, char *msg, size_t msglen);
// Runs until every vCPU stopped, an unhandled event, or a limit; returns the exit status
// (or HEXSIM_SYS_PAUSED at m->pause_at, HEXSIM_MACHINE_STOPPED when m->hook stopped it;
// calling it again continues the run).
int hexsim_machine_run(struct hexsim_machine *m);
// Ends the run with status; first sends what the guest wrote last (UART FIFOs, console) to
// the host, so a message the caller prints about the stop comes after it.
void hexsim_machine_halt(struct hexsim_machine *m, int status);
// --stats / --stats-json at the end of a run (src/hvm/stats.c); seconds: host time.
void hexsim_machine_report_stats(struct hexsim_machine *m, double seconds);

// Physical memory access for the HVM and loaders (RAM or MMIO).
uint64_t hexsim_phys_read(struct hexsim_machine *m, uint32_t pa, unsigned size);
void hexsim_phys_write(struct hexsim_machine *m, uint32_t pa, unsigned size, uint64_t val);
// Reads/writes guest virtual memory through vcpu's translation (for angel calls); returns
// 0 or -1 when an address cannot be reached.
int hexsim_virt_copy_out(struct hexsim_vcpu *v, uint32_t va, void *dst, size_t n);

#endif
