// SPDX-License-Identifier: MIT
// Machine snapshots (src/snap/): the complete state of a system-mode machine in one file,
// and the same machine continued from it. File format: src/snap/snap_file.c. (User-mode
// process snapshots: hexsim_user_snapshot_save/restore in src/user/user.h.)
#ifndef HEXSIM_SNAPSHOT_H
#define HEXSIM_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct hexsim_machine;

// What a snapshot says about the machine it needs (read before the machine is made).
struct hexsim_snapshot_config {
    uint64_t ram_size;
    unsigned nvcpu, arch;
    uint64_t packets;        // packets run when it was taken
};

// Writes m's state to path; 0, or -1 with a message.
int hexsim_snapshot_save(struct hexsim_machine *m, const char *path, char *msg, size_t msglen);
// Reads and checks the whole file (header, section table, every checksum and length) and
// gives its machine configuration; 0, or -1 with a message naming the file and the reason.
int hexsim_snapshot_probe(const char *path, struct hexsim_snapshot_config *cfg, char *msg,
                          size_t msglen);
// True when path reads as a snapshot of a user-mode process (--user); false otherwise
// (a machine, or a file that is not a snapshot: the restore says why).
bool hexsim_snapshot_is_user(const char *path);
// Loads path into m, a fresh machine made with the probed configuration (nothing loaded or
// run on it yet). Everything is checked before anything is applied; 0, or -1 with a message
// and m unchanged.
int hexsim_snapshot_restore(struct hexsim_machine *m, const char *path, char *msg,
                            size_t msglen);
// The same into a machine that has run (the debugger's loadvm): it must have the snapshot's
// RAM size and vCPUs; RAM the snapshot has as zero is cleared, and a stopped machine runs
// again. 0, or -1 with a message and m unchanged.
int hexsim_snapshot_reload(struct hexsim_machine *m, const char *path, char *msg,
                           size_t msglen);

#endif
