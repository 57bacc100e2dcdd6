// SPDX-License-Identifier: MIT
// The snapshot container (snap_file.c): named sections, each zlib-compressed with its CRC32.
#ifndef HEXSIM_SNAP_FILE_H
#define HEXSIM_SNAP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SNAP_NAME_MAX 16
#define SNAP_MAX_SECTIONS 64
#define SNAP_MAX_SECTION (1ull << 31)   // bytes of one section, uncompressed

struct snap_section {
    char name[SNAP_NAME_MAX];   // NUL-terminated
    uint8_t *data;
    size_t len;
};

struct snap_image {
    struct snap_section sec[SNAP_MAX_SECTIONS];
    unsigned n;
};

// Adds a copy of data as section name; 0, or -1 (too many sections, out of memory).
int snap_add(struct snap_image *im, const char *name, const void *data, size_t len);
// Writes the image to path (through a temporary file renamed at the end, so a failed
// write leaves no half file); 0, or -1 with a message.
int snap_write(const struct snap_image *im, const char *path, char *msg, size_t msglen);
// The end of a save: writes im to path when ok (every section was added), else reports
// that memory ran out; frees im either way. 0, or -1 with a message.
int snap_finish(struct snap_image *im, bool ok, const char *path, char *msg, size_t msglen);
// Reads path and checks magic, format version, header checksum, the section table and
// every section's checksum and length before decompressing; 0, or -1 with a message.
int snap_read(struct snap_image *im, const char *path, char *msg, size_t msglen);
const struct snap_section *snap_get(const struct snap_image *im, const char *name);
// The section name of im, present with exactly len bytes (len 0: any length); else NULL
// and a message naming the file (path) and the section.
const struct snap_section *snap_need(const struct snap_image *im, const char *path,
                                     const char *name, size_t len, char *msg, size_t msglen);
// True when the 4 KiB page p is all zero (such pages are not saved).
bool snap_page_zero(const uint8_t *p);

// What a snapshot holds: the first u32 of its "config" section. A system-mode machine
// (snap_machine.c) and a user-mode process (snap_user.c) cannot be restored as each other.
enum { SNAP_KIND_SYSTEM = 1, SNAP_KIND_USER = 2 };
// Copies im's config section (exactly len bytes, of kind `kind`) to out; 0, or -1 with a
// message that names the snapshot's kind and how to restore it when it is the other one.
int snap_config(const struct snap_image *im, const char *path, uint32_t kind, void *out,
                size_t len, char *msg, size_t msglen);
void snap_free(struct snap_image *im);

#endif
