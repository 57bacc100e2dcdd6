// SPDX-License-Identifier: MIT
// Linux user mode: runs a static Hexagon Linux ELF executable on one vCPU with the Linux
// process environment (initial stack with argc/argv/envp/auxv, brk, mmap) and the Linux
// system calls of the asm-generic ABI that Hexagon uses (trap0(#1), number in r6, arguments
// in r0-r5, result in r0). Facts: Linux 6.1 arch/hexagon (start_thread, trap0 handling),
// include/uapi/asm-generic/unistd.h, fs/binfmt_elf.c (stack layout, auxv).
#ifndef HEXSIM_USER_USER_H
#define HEXSIM_USER_USER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpu/cpu.h"
#include "cpu/exec.h"
#include "hexsim/mem.h"

#define HEXSIM_USER_STACK_TOP 0xc0000000u   // Hexagon Linux TASK_SIZE (PAGE_OFFSET)
#define HEXSIM_USER_STACK_SIZE (8u << 20)
#define HEXSIM_USER_MMAP_BASE 0x40000000u

struct hexsim_user_opts {
    uint64_t max_packets;     // 0: no limit
    double max_seconds;       // 0: no limit (host time: only a safety stop)
    bool host_time;           // clock_gettime etc. from the host clock instead of pcycles
    bool strace;              // log system calls to stderr
    bool stats;               // print packets, instructions and host time at exit
    unsigned arch;            // core version, 0: from the ELF header
    bool no_host_paths;       // openat/fstatat fail with EACCES: the guest reaches only the
                              // host files behind the descriptors it was given (fuzzing)
    int timing;               // enum hexsim_timing_mode (src/cpu/timing.h)
    const struct hexsim_timing_params *timing_params;   // NULL: the defaults
    const char *stats_json;   // --stats-json FILE: the --stats values as JSON (NULL: none)
    const char *profile;      // --profile FILE: per-function pcycles (NULL: none)
    bool no_jit;              // --no-jit: interpret blocks instead of compiling them
    bool no_stencils;         // --no-stencils: compiled blocks call the semantic functions
    size_t code_cache;        // --code-cache: bytes of compiled code (0: the default)
    unsigned jit_threshold;   // --jit-threshold: runs before a block is compiled (0: default)
    bool perf_map;            // --perf-map: /tmp/perf-PID.map names compiled blocks for perf
    const char *ld_prefix;    // -L DIR / QEMU_LD_PREFIX: the guest root, where a dynamic
                              //   program's interpreter and the guest's absolute paths are
                              //   looked up first (interp.c); NULL: none
};

struct hexsim_user_os;
struct hexsim_user_proc;
struct hexsim_perf_map;

struct hexsim_user {
    struct hexsim_mem mem;
    struct hexsim_cpu cpu;
    struct hexsim_user_opts opts;
    unsigned arch;
    uint32_t entry;
    uint32_t phdr_addr, phnum;     // for AT_PHDR / AT_PHNUM
    uint32_t brk_start, brk_cur;
    uint32_t mmap_next;
    uint32_t execfn;               // guest address of the program name (AT_EXECFN)
    char interp[256];              // the program's PT_INTERP ("" static)
    uint32_t interp_base;          // where its interpreter is loaded (AT_BASE; 0: none)
    uint32_t interp_entry;         // the interpreter's entry: the run starts there
    bool exited;
    int exit_status;
    int term_sig;                  // the signal that ended the process (0: it exited)
    int guest_fd_map[64];          // guest fd -> host fd, -1 closed
    uint64_t warned_syscalls[8];   // one warning per unknown syscall number (< 512)
    struct hexsim_user_strace_held {   // --strace (strace.c): the line of a call that waits;
        char text[1024];           //   lines of waits a call ended, written after its own
        char after[2048];
        char pre[1024];            //   execve's arguments, decoded before the image goes
        size_t after_n;
        int32_t tid;
        bool on, in_call;
    } strace_held;
    uint64_t rng;                  // getrandom state (reproducible)
    uint64_t syscalls;             // system calls made (--stats)
    uint64_t pause_at;             // hexsim_user_run returns HEXSIM_USER_PAUSED once cpu.packets
                                   //   reaches this (0: never): --snapshot-at
    // cache mode: the process's caches, made by the first hexsim_user_exec_init and kept
    // across runs (a paused run goes on with them; snapshots save their tags)
    struct hexsim_caches caches;
    struct hexsim_cache l2;
    bool caches_made;
    struct hexsim_user_os *os;     // threads, signals, timers (src/user/os.h); made on first
                                   //   use, NULL while the process has used none of them
    struct hx_evfd *evfd;          // timerfds and signalfds (HX_MAX_EVFDS, sys_event.c):
                                   //   NULL while the process has made none
    struct hx_host_wait *host_wait;  // timed waits for host descriptors (HX_MAX_THREADS,
                                   //   thread.c): NULL while there has been none
    bool os_resched;               // a system call changed when the scheduler must look next
    struct hexsim_user_proc *proc; // other processes (src/user/proc.h): made at the first
                                   //   fork, NULL while the process has made none
    uint64_t image;                // execve count: the run loop remakes its state when it moves
    bool warned_fork;
    FILE *err;                     // diagnostics (stderr)
    char path[512];
};

// Loads PROG into a fresh process image. Returns 0, or -1 with a message in err;
// HEXSIM_USER_NO_INTERP (a message naming it) when PROG is dynamically linked and its
// interpreter cannot be had: no guest root given (opts.ld_prefix), or not in it.
#define HEXSIM_USER_NO_INTERP (-3)
int hexsim_user_load(struct hexsim_user *u, const char *path, int argc, char **argv,
                     char **envp, char *err, size_t errlen);
// Runs until the program exits or faults; returns the process exit status (128+signal for
// a fault, 124 when a --max-* limit stopped it), or HEXSIM_USER_PAUSED at u->pause_at
// (calling it again goes on).
#define HEXSIM_USER_PAUSED (-2)
int hexsim_user_run(struct hexsim_user *u);
void hexsim_user_free(struct hexsim_user *u);
struct hexsim_user_exec;
// The same with run-loop state made earlier by hexsim_user_exec_init for u (kept by the
// caller: a harness running many short processes).
int hexsim_user_run_with(struct hexsim_user *u, struct hexsim_user_exec *x);

// The run loop one packet at a time, for debuggers (hexsim_user_run does not use a
// debugger and pays nothing for one). hexsim_user_step runs the packet at PC and handles a
// system call; it returns one of these, and for _FAULT fills *ev (the packet committed
// nothing, except a trap0/trap1 that is not a system call: ev->addr is its address then).
// *pkt is the decoded packet (NULL after a fetch fault).
enum { HEXSIM_USER_STEP_OK, HEXSIM_USER_STEP_EXIT, HEXSIM_USER_STEP_FAULT };
struct hexsim_user_pcache;
struct hexsim_profile;
struct hexsim_user_exec {
    struct hexsim_user_pcache *pcache;   // decoded packets
    struct hexsim_exec_env env;          // env.trace: set it to get the executor's write log
    struct hexsim_packet tmp;
    uint64_t image;                      // the process image it was made for (u->image)
    struct hexsim_perf_map *perf_map;    // --perf-map (core/perf_map.h), or NULL
};
int hexsim_user_exec_init(struct hexsim_user *u, struct hexsim_user_exec *x);
// Cache mode: makes u's caches if not made yet (0, or -1 out of memory); else nothing.
int hexsim_user_make_caches(struct hexsim_user *u);
void hexsim_user_exec_free(struct hexsim_user_exec *x);
int hexsim_user_step(struct hexsim_user *u, struct hexsim_user_exec *x,
                     struct hexsim_event_info *ev, const struct hexsim_packet **pkt);
// Reports an event that ends the process on u->err; returns 128 + the signal.
int hexsim_user_fault(struct hexsim_user *u, const struct hexsim_event_info *ev);
// Its parts: the one-line report (and the packet) only, which the debugger shows at a fault
// stop, returning the exit status; and the context after it (fault_report.c): the function
// and source line, a short backtrace, a hint when the address is just below the stack.
int hexsim_user_fault_line(struct hexsim_user *u, const struct hexsim_event_info *ev);
void hexsim_user_fault_context(struct hexsim_user *u, const struct hexsim_event_info *ev);

// Snapshots of the whole process (src/snap/snap_user.c; the container: snap_file.c).
// Save refuses (-1, message) a process with a host file open other than stdin/stdout/
// stderr. Restore replaces u's process (u: a zeroed struct with opts and err set, or a
// process already running, for the debugger's loadvm; with same_program the snapshot must
// be of the same program and core version). Everything is checked before anything changes:
// 0, or -1 with a message and u unchanged.
int hexsim_user_snapshot_save(const struct hexsim_user *u, const char *path, char *msg,
                              size_t msglen);
int hexsim_user_snapshot_restore(struct hexsim_user *u, const char *path, bool same_program,
                                 char *msg, size_t msglen);

// Threads, signals and timers (thread.c, signal.c, timer.c): the packet count at which the
// run loop calls hexsim_user_os_tick (UINT64_MAX: never: one thread, no timer), the tick
// (timers, the next thread's turn, signals), and a fault offered to the program's handler
// (true: the handler runs next; false: the fault ends the process as before).
uint64_t hexsim_user_os_stop(struct hexsim_user *u);
void hexsim_user_os_tick(struct hexsim_user *u);
bool hexsim_user_fault_signal(struct hexsim_user *u, const struct hexsim_event_info *ev);
void hexsim_user_os_free(struct hexsim_user *u);
void hexsim_user_os_free_state(struct hexsim_user_os *os);   // one not (yet) in a process
// --stats: threads made (the first included), thread switches, signals handled.
void hexsim_user_os_stats(const struct hexsim_user *u, uint64_t *threads, uint64_t *switches,
                          uint64_t *handled);
// Snapshots of that state (os_snap.c): NULL, or why the process cannot be saved (a changed
// current directory); the header (struct hexsim_user_os) and the thread table to store (0
// bytes: there is no state); and the state rebuilt from the two as read from a file, every
// value checked (NULL with *why when they are damaged, or out of memory).
const char *hexsim_user_os_unsaved(const struct hexsim_user *u);
size_t hexsim_user_os_save(const struct hexsim_user *u, struct hexsim_user_os *hdr,
                           const void **threads);
struct hexsim_user_os *hexsim_user_os_load(const void *hdr, size_t hlen, const void *thr,
                                           size_t tlen, const char **why);

// Internal pieces (one file each)
// Loads the program (and, for a dynamic one, its interpreter: hexsim_user_load_interp).
// 0, -1 or HEXSIM_USER_NO_INTERP with a message.
int hexsim_user_load_elf(struct hexsim_user *u, const char *path, char *err, size_t errlen);
// interp.c: the host path of guest path `path` looked up inside the directory root as if it
// were "/" (symbolic links and ".." stay inside it): 0, or -errno (-ENOENT: not there).
int hexsim_user_root_path(const char *root, const char *path, char *out, size_t n);
// interp.c: with a guest root, replaces absolute guest path p (buffer of n bytes) by its
// host path inside the root when it names a file there (as qemu-user's -L), else leaves
// it to the host; but the library directories (/lib, /usr/lib, /usr/local/lib) and the
// loader's /etc/ld-musl-* files are the root's only: there 0 or -errno (-ENOENT).
int hexsim_user_root_redirect(const struct hexsim_user *u, char *p, size_t n);
// interp.c: loads u->interp from u->opts.ld_prefix (0, -1 or HEXSIM_USER_NO_INTERP).
int hexsim_user_load_interp(struct hexsim_user *u, char *err, size_t errlen);
// elf_load.c: loads the interpreter ELF at host path `path` at its own base.
int hexsim_user_load_elf_interp(struct hexsim_user *u, const char *path, char *err,
                                size_t errlen);
// The same from an ELF image in memory (`name` for messages); u->mem must be initialised.
int hexsim_user_load_elf_mem(struct hexsim_user *u, const void *image, size_t size,
                             const char *name, char *err, size_t errlen);
int hexsim_user_setup_stack(struct hexsim_user *u, int argc, char **argv, char **envp,
                            char *err, size_t errlen);
// Handles trap0(#1) on the vCPU (registers after the trapping packet committed).
void hexsim_user_syscall(struct hexsim_user *u);

#endif
