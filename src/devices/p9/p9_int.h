// SPDX-License-Identifier: MIT
// Inside the 9P2000.L server (include/hexsim/p9.h): the wire format (p9_wire.c:
// little-endian integers, strings as a 16-bit length and bytes, qids of 13 bytes), the
// fids and the confined host paths (p9_fid.c), and the request handlers (p9_server.c:
// session and dispatch; p9_file.c: open, read, write, attributes; p9_dir.c: the name
// space). A handler returns 0 after writing its reply's body, or a positive Linux errno
// for an Rlerror.
#ifndef HEXSIM_P9_INT_H
#define HEXSIM_P9_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "hexsim/p9.h"

#define P9_NAME_MAX 255
#define P9_PATH_MAX 4096
#define P9_NOFID 0xffffffffu
#define P9_HDR 7u                      // size[4] type[1] tag[2]

// A T-message's body, read front to back; any read past the end marks it bad.
struct p9_in {
    const uint8_t *p;
    size_t n, off;
    bool bad;
};

// An R-message's body being written; writing past cap marks it full.
struct p9_out {
    uint8_t *p;
    size_t cap, off;
    bool full;
};

uint8_t p9_get8(struct p9_in *in);
uint16_t p9_get16(struct p9_in *in);
uint32_t p9_get32(struct p9_in *in);
uint64_t p9_get64(struct p9_in *in);
// A string into buf (cap bytes with its NUL); marks the message bad when it does not fit
// or holds a NUL byte.
void p9_getstr(struct p9_in *in, char *buf, size_t cap);
void p9_put8(struct p9_out *o, uint8_t v);
void p9_put16(struct p9_out *o, uint16_t v);
void p9_put32(struct p9_out *o, uint32_t v);
void p9_put64(struct p9_out *o, uint64_t v);
void p9_putstr(struct p9_out *o, const char *s);
// Room for n bytes at the write position (NULL when full); p9_commit(o, n) keeps them.
uint8_t *p9_room(struct p9_out *o, size_t n);
void p9_commit(struct p9_out *o, size_t n);
// The qid of st: type (directory 0x80, symbolic link 0x02, else 0), version 0, path the
// inode number (with the device in the top bits).
void p9_putqid(struct p9_out *o, const struct stat *st);

// fids (p9_fid.c)
struct hexsim_p9_fid *p9_fid_get(struct hexsim_p9 *s, uint32_t id);
// A new fid for path (copied): NULL with *err EBADF (id in use or NOFID), EMFILE, ENOMEM.
struct hexsim_p9_fid *p9_fid_new(struct hexsim_p9 *s, uint32_t id, const char *path, int *err);
void p9_fid_free(struct hexsim_p9 *s, struct hexsim_p9_fid *f);
int p9_fid_set_path(struct hexsim_p9_fid *f, const char *path);
// After a rename of `from` to `to`: every fid at or under `from` follows.
void p9_fid_renamed(struct hexsim_p9 *s, const char *from, const char *to);

// Confined paths (p9_fid.c). A name is one component: not empty, not . or .., no '/'.
bool p9_name_ok(const char *name);
// dir + "/" + name into out (P9_PATH_MAX): 0 or ENAMETOOLONG; dir "." gives name.
int p9_join(const char *dir, const char *name, char *out);
// The parent of a path ("." for a top-level name and for "." itself) and its last name.
void p9_split(const char *path, char *parent, char *name);
// openat2(share, path, flags | O_NOFOLLOW | O_CLOEXEC, mode) with RESOLVE_BENEATH |
// RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS: a descriptor, or -errno.
int p9_openat(struct hexsim_p9 *s, const char *path, int flags, unsigned mode);
// lstat of a confined path (through an O_PATH descriptor): 0 or errno.
int p9_lstat(struct hexsim_p9 *s, const char *path, struct stat *st);
// The parent directory of path as an O_PATH descriptor (>= 0) and its last name in
// name, for the *at calls; -errno.
int p9_parent_fd(struct hexsim_p9 *s, const char *path, char *name);

// Request handlers: in is the body after the tag, out the reply body.
typedef int p9_handler(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out);
p9_handler p9_lopen, p9_lcreate, p9_read, p9_write, p9_readdir, p9_getattr, p9_setattr,
    p9_fsync, p9_lock, p9_getlock;
p9_handler p9_mkdir, p9_symlink, p9_readlink, p9_renameat, p9_rename, p9_unlinkat,
    p9_remove, p9_link, p9_mknod;

#endif
