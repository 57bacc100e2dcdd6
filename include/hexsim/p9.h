// SPDX-License-Identifier: MIT
// A 9P2000.L file server for one host directory (src/devices/p9/), the host side of
// --share (the virtio-9p device, src/devices/comet/virtio_9p.c, carries its messages).
// It answers one T-message at a time with one R-message; it knows nothing of virtio.
//
// Security (issue 47): every host path is resolved by openat2 relative to the share's
// directory descriptor with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS (nothing the guest names
// can lead outside the directory, whatever `..`, symbolic links or a race with a rename
// on the host do; the guest's client follows symbolic links itself, through readlink);
// names in requests are single components; a read-only share answers every request that
// would change something with EROFS; created files and directories belong to the user
// running hexsim (requests to change an owner are ignored), without set-user-ID or
// set-group-ID bits.
//
// Facts: the 9P2000.L protocol as Linux 6.1's net/9p speaks it (include/net/9p/9p.h:
// message types, qid types, the P9_DOTL_* open flags, P9_GETATTR_* and P9_ATTR_* masks;
// the message layouts in net/9p/client.c); the 9P2000 manual pages (intro(5), walk(5),
// clunk(5)) for fids and walks.
#ifndef HEXSIM_P9_H
#define HEXSIM_P9_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HEXSIM_P9_MSIZE_MAX (512u << 10)     // largest message either way
#define HEXSIM_P9_OPEN_MAX 512               // fids with an open host descriptor
#define HEXSIM_P9_FID_MAX 65536              // fids in all

struct hexsim_p9_fid {
    uint32_t id;
    int fd;                            // open file or directory (Tlopen/Tlcreate), or -1
    char *path;                        // relative to the share: "." or "a/b" (no ..)
};

struct hexsim_p9 {
    int root;                          // the share's directory (O_RDONLY | O_DIRECTORY)
    bool readonly;
    uint32_t msize;                    // negotiated by Tversion (0: none yet)
    struct hexsim_p9_fid *fids;        // unordered
    unsigned nfids, capfids, nopen;
    // counters
    uint64_t requests, errors, bytes_read, bytes_written;
};

// Opens the share: DIR must be a directory. 0, or -1 with a message naming it.
int hexsim_p9_open(struct hexsim_p9 *s, const char *dir, bool readonly, char *msg,
                   size_t msglen);
void hexsim_p9_close(struct hexsim_p9 *s);
// Forgets every fid (closing their descriptors) and the negotiated msize.
void hexsim_p9_reset(struct hexsim_p9 *s);
// Answers the T-message req[0..len) with an R-message in out[0..cap): returns its length
// (an Rlerror for anything malformed or refused), or 0 when cap cannot hold even that.
size_t hexsim_p9_handle(struct hexsim_p9 *s, const uint8_t *req, size_t len, uint8_t *out,
                        size_t cap);

// --share DIR[,tag=NAME][,readonly=on|off]
#define HEXSIM_P9_TAG_MAX 31
struct hexsim_share_opts {
    char dir[4096];
    char tag[HEXSIM_P9_TAG_MAX + 1];   // default "hexsim0", "hexsim1", ... by position
    bool readonly;
};

// Parses a --share value (the n-th, for the default tag) into *o; 0, or -1 with a message.
int hexsim_share_parse(const char *spec, unsigned n, struct hexsim_share_opts *o, char *msg,
                       size_t msglen);

#endif
