// SPDX-License-Identifier: MIT
// Processes of Linux user mode (process.c, exec.c): a guest fork is a host fork of hexsim
// (the child process simulates the guest's child from the trap on, with copies of the
// memory, registers and host descriptors), so processes run in parallel as the host runs
// them. Pids are virtual: the first process is 1, the ones after it are numbered in the
// order they are made from a counter all of the run's processes share (one MAP_SHARED
// table, made at the first fork), which also maps each live process to its host pid, its
// parent, process group and session, and holds the wait status it ended with (so a parent
// sees an exit status and a death by a guest signal apart, whatever host exit code carried
// them). After the first fork the host signals a guest may receive are blocked and read
// from a signalfd at each scheduling turn and wherever the process would wait: SIGCHLD
// from the host (a child hexsim ended) becomes the guest's SIGCHLD with the child's
// virtual pid and status; a guest kill() of another process is a host sigqueue of a
// carrier signal whose value names the guest signal and the sender (SIGKILL is the host's
// SIGKILL). Facts: Linux 6.1 kernel/fork.c, kernel/exit.c (wait4, waitid, do_notify_parent),
// kernel/sys.c (setpgid, setsid, getppid), kernel/signal.c (kill_something_info).
#ifndef HEXSIM_USER_PROC_H
#define HEXSIM_USER_PROC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

// clone flags (Linux include/uapi/linux/sched.h)
#define HX_CLONE_VM 0x100u
#define HX_CLONE_VFORK 0x4000u
#define HX_CLONE_THREAD 0x10000u
#define HX_CLONE_SETTLS 0x80000u
#define HX_CLONE_PARENT_SETTID 0x100000u
#define HX_CLONE_CHILD_CLEARTID 0x200000u
#define HX_CLONE_DETACHED 0x400000u
#define HX_CLONE_CHILD_SETTID 0x1000000u

#define HX_PROC_SLOTS 1024       // processes alive (or not yet waited for) at once
#define HX_PID_MAX 4194304       // pids and tids are not reused: fork gives -EAGAIN beyond

struct hx_proc_slot {
    _Atomic int32_t hpid;        // host pid (0: free slot)
    int32_t vpid, ppid;          // virtual pid, parent's virtual pid
    int32_t exit_signal;         // what the parent gets when it ends (clone's CSIGNAL)
    _Atomic int32_t pgid, sid;
    _Atomic int32_t status;      // guest wait status once ended (-1: running)
};

struct hx_proc_shared {
    _Atomic int32_t next_pid;    // the next pid or tid
    struct hx_proc_slot s[HX_PROC_SLOTS];
};

struct hx_child {
    int32_t vpid, hpid;
    int slot;
};

struct hexsim_user_proc {
    struct hx_proc_shared *sh;   // shared by every process of the run (MAP_SHARED)
    int slot;                    // this process's slot in sh
    int sigfd;                   // host signals for the guest (-1: not yet: one process)
    int32_t parent_hpid;         // host pid of the parent (0: the first process)
    struct hx_child *child;      // children not yet waited for
    unsigned nchild, cap;
    bool forked;                 // this process was made by fork
    int vfork_fd;                // CLONE_VFORK: closed at execve or exit (-1: none)
    char stats_json[4096], profile[4096];   // this process's --stats-json/--profile files
};

struct hexsim_user;

// The process table (made on first use: the first fork, setsid, setpgid): NULL when out of
// memory.
struct hexsim_user_proc *hx_proc(struct hexsim_user *u);
int32_t hx_getpid(const struct hexsim_user *u);
// A new pid or tid (threads and processes share the numbers, as in Linux); -1: none left.
int32_t hx_new_id(struct hexsim_user *u);
// clone without CLONE_THREAD: fork (vfork: the parent waits until the child calls execve
// or ends).
int64_t hx_fork(struct hexsim_user *u, uint32_t flags, uint32_t sp, uint32_t ptid,
                uint32_t ctid, uint32_t tls);
// Reads the host signals that arrived for the guest and raises them in the process;
// timeout_ms: 0 looks, -1 waits for one. No signal table: nothing.
void hx_proc_signals(struct hexsim_user *u, int timeout_ms);
// The process ends with this guest wait status (its slot says so to the parent).
void hx_proc_end(struct hexsim_user *u);
// execve: the vfork parent goes on.
void hx_proc_release_vfork(struct hexsim_user *u);
void hx_proc_free(struct hexsim_user *u);

#endif
