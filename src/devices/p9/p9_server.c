// SPDX-License-Identifier: MIT
// The 9P2000.L server's session and dispatch (include/hexsim/p9.h): opening the share,
// the message header, Tversion, Tattach, Twalk, Tclunk, Tflush, Tstatfs, the extended
// attributes (not offered: EOPNOTSUPP) and Rlerror; the file and name-space requests are
// in p9_file.c and p9_dir.c.
// Facts: Linux 6.1 include/net/9p/9p.h (message numbers: Tlerror 6 ... Tunlinkat 76,
// Tversion 100 ... Tremove 122; R = T + 1; P9_NOTAG 0xffff, P9_NOFID ~0, P9_MAXWELEM 16)
// and net/9p/client.c (the layouts: Tversion msize[4] version[s]; Tattach fid[4] afid[4]
// uname[s] aname[s] n_uname[4]; Twalk fid[4] newfid[4] nwname[2] wname[s]...; Rwalk
// nwqid[2] qid...; Rstatfs type[4] bsize[4] blocks[8] bfree[8] bavail[8] files[8]
// ffree[8] fsid[8] namelen[4]; Rlerror ecode[4], a Linux errno). A walk that fails at
// its first name is an error; a later failure returns the qids so far and leaves newfid
// unmade (9P2000 walk(5)).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "p9_int.h"

enum {
    T_STATFS = 8, T_LOPEN = 12, T_LCREATE = 14, T_SYMLINK = 16, T_MKNOD = 18, T_RENAME = 20,
    T_READLINK = 22, T_GETATTR = 24, T_SETATTR = 26, T_XATTRWALK = 30, T_XATTRCREATE = 32,
    T_READDIR = 40, T_FSYNC = 50, T_LOCK = 52, T_GETLOCK = 54, T_LINK = 70, T_MKDIR = 72,
    T_RENAMEAT = 74, T_UNLINKAT = 76, T_VERSION = 100, T_ATTACH = 104, T_FLUSH = 108,
    T_WALK = 110, T_READ = 116, T_WRITE = 118, T_CLUNK = 120, T_REMOVE = 122,
};
#define R_LERROR 7
#define MAXWELEM 16

int hexsim_p9_open(struct hexsim_p9 *s, const char *dir, bool readonly, char *msg,
                   size_t msglen)
{
    memset(s, 0, sizeof(*s));
    s->root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (s->root < 0) {
        snprintf(msg, msglen, "--share %s: %s", dir, strerror(errno));
        return -1;
    }
    s->readonly = readonly;
    return 0;
}

void hexsim_p9_reset(struct hexsim_p9 *s)
{
    while (s->nfids)
        p9_fid_free(s, &s->fids[0]);
    s->msize = 0;
}

void hexsim_p9_close(struct hexsim_p9 *s)
{
    hexsim_p9_reset(s);
    free(s->fids);
    s->fids = NULL;
    s->capfids = 0;
    if (s->root >= 0)
        close(s->root);
    s->root = -1;
}

static int version(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    char ver[32];
    uint32_t msize = p9_get32(in);
    p9_getstr(in, ver, sizeof ver);
    if (in->bad || msize < 4096)
        return EINVAL;
    hexsim_p9_reset(s);                // a new session: every fid is gone
    s->msize = msize < HEXSIM_P9_MSIZE_MAX ? msize : HEXSIM_P9_MSIZE_MAX;
    p9_put32(out, s->msize);
    p9_putstr(out, strcmp(ver, "9P2000.L") == 0 ? "9P2000.L" : "unknown");
    if (strcmp(ver, "9P2000.L") != 0)
        s->msize = 0;
    return 0;
}

static int attach(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    char uname[P9_NAME_MAX + 1], aname[P9_PATH_MAX];
    uint32_t fid = p9_get32(in), afid = p9_get32(in);
    p9_getstr(in, uname, sizeof uname);
    p9_getstr(in, aname, sizeof aname);      // ignored: the share's top, always
    p9_get32(in);                            // n_uname: ignored (one host user)
    if (in->bad)
        return EINVAL;
    if (afid != P9_NOFID)
        return EINVAL;                       // no authentication
    struct stat st;
    if (fstat(s->root, &st))
        return errno;
    int err;
    if (!p9_fid_new(s, fid, ".", &err))
        return err;
    p9_putqid(out, &st);
    return 0;
}

// One step of a walk from path: ".." drops a name (not above the top), "." stays.
static int walk_step(const char *path, const char *name, char *next)
{
    if (strcmp(name, "..") == 0) {
        char parent[P9_PATH_MAX], last[P9_PATH_MAX];
        p9_split(path, parent, last);
        strcpy(next, parent);
        return 0;
    }
    if (strcmp(name, ".") == 0) {
        strcpy(next, path);
        return 0;
    }
    return p9_name_ok(name) ? p9_join(path, name, next) : ENOENT;
}

static int walk(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    uint32_t fid = p9_get32(in), newfid = p9_get32(in);
    unsigned n = p9_get16(in);
    if (in->bad || n > MAXWELEM)
        return EINVAL;
    struct hexsim_p9_fid *f = p9_fid_get(s, fid);
    if (!f)
        return EBADF;
    if (newfid != fid && p9_fid_get(s, newfid))
        return EBADF;
    char path[P9_PATH_MAX], next[P9_PATH_MAX], name[P9_NAME_MAX + 1];
    strcpy(path, f->path);
    uint8_t *count = p9_room(out, 2);
    p9_commit(out, 2);
    unsigned done = 0;
    int err = 0;
    bool in_dir = true;                // the fid's own path: its lookups say if not
    for (unsigned i = 0; i < n; i++) {
        p9_getstr(in, name, sizeof name);
        if (in->bad)
            return EINVAL;
        if (err)
            continue;                  // the rest is read only to check the message
        struct stat st;
        err = in_dir ? walk_step(path, name, next) : ENOTDIR;   // names are under directories
        if (!err)
            err = p9_lstat(s, next, &st);
        if (err)
            continue;
        p9_putqid(out, &st);
        strcpy(path, next);
        in_dir = S_ISDIR(st.st_mode);
        done++;
    }
    if (err && done == 0)
        return err;
    if (count) {
        count[0] = (uint8_t)done;
        count[1] = 0;
    }
    if (done < n)
        return 0;                      // a partial walk: newfid is not made
    if (newfid == fid)
        return p9_fid_set_path(f, path);
    return p9_fid_new(s, newfid, path, &err) ? 0 : err;
}

static int clunk(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)out;
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    p9_fid_free(s, f);
    return 0;
}

// Requests finish before the next is read: there is never one to flush.
static int flush(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)s;
    (void)out;
    p9_get16(in);
    return in->bad ? EINVAL : 0;
}

static int statfs_(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    struct hexsim_p9_fid *f = p9_fid_get(s, p9_get32(in));
    if (in->bad)
        return EINVAL;
    if (!f)
        return EBADF;
    struct statfs sf;
    if (fstatfs(s->root, &sf))
        return errno;
    p9_put32(out, (uint32_t)sf.f_type);
    p9_put32(out, (uint32_t)sf.f_bsize);
    p9_put64(out, sf.f_blocks);
    p9_put64(out, sf.f_bfree);
    p9_put64(out, sf.f_bavail);
    p9_put64(out, sf.f_files);
    p9_put64(out, sf.f_ffree);
    uint64_t fsid;
    memcpy(&fsid, &sf.f_fsid, sizeof fsid);
    p9_put64(out, fsid);
    p9_put32(out, (uint32_t)sf.f_namelen);
    return 0;
}

static int no_xattr(struct hexsim_p9 *s, struct p9_in *in, struct p9_out *out)
{
    (void)s;
    (void)in;
    (void)out;
    return EOPNOTSUPP;
}

static p9_handler *handler(uint8_t type)
{
    switch (type) {
    case T_STATFS: return statfs_;
    case T_LOPEN: return p9_lopen;
    case T_LCREATE: return p9_lcreate;
    case T_SYMLINK: return p9_symlink;
    case T_MKNOD: return p9_mknod;
    case T_RENAME: return p9_rename;
    case T_READLINK: return p9_readlink;
    case T_GETATTR: return p9_getattr;
    case T_SETATTR: return p9_setattr;
    case T_XATTRWALK: case T_XATTRCREATE: return no_xattr;
    case T_READDIR: return p9_readdir;
    case T_FSYNC: return p9_fsync;
    case T_LOCK: return p9_lock;
    case T_GETLOCK: return p9_getlock;
    case T_LINK: return p9_link;
    case T_MKDIR: return p9_mkdir;
    case T_RENAMEAT: return p9_renameat;
    case T_UNLINKAT: return p9_unlinkat;
    case T_ATTACH: return attach;
    case T_FLUSH: return flush;
    case T_WALK: return walk;
    case T_READ: return p9_read;
    case T_WRITE: return p9_write;
    case T_CLUNK: return clunk;
    case T_REMOVE: return p9_remove;
    default: return NULL;
    }
}

static void put_header(uint8_t *out, uint32_t size, uint8_t type, uint16_t tag)
{
    for (unsigned i = 0; i < 4; i++)
        out[i] = (uint8_t)(size >> (8 * i));
    out[4] = type;
    out[5] = (uint8_t)tag;
    out[6] = (uint8_t)(tag >> 8);
}

size_t hexsim_p9_handle(struct hexsim_p9 *s, const uint8_t *req, size_t len, uint8_t *out,
                        size_t cap)
{
    if (cap < P9_HDR + 4)
        return 0;
    s->requests++;
    struct p9_in in = { req, len, 0, false };
    uint32_t size = p9_get32(&in);
    uint8_t type = p9_get8(&in);
    uint16_t tag = p9_get16(&in);
    int err;
    struct p9_out o = { out + P9_HDR, cap - P9_HDR, 0, false };
    if (in.bad || size < P9_HDR || size > len) {
        err = EINVAL;
    } else {
        in.n = size;                   // the message's own size bounds its body
        p9_handler *h = handler(type);
        if (type == T_VERSION)
            err = version(s, &in, &o);
        else if (!h)
            err = EOPNOTSUPP;
        else if (s->msize == 0)
            err = EPROTO;              // no session yet: Tversion comes first
        else
            err = h(s, &in, &o);
        if (!err && o.full)
            err = ERANGE;              // the reply does not fit the guest's buffers
    }
    if (err) {
        s->errors++;
        put_header(out, P9_HDR + 4, R_LERROR, tag);
        for (unsigned i = 0; i < 4; i++)
            out[P9_HDR + i] = (uint8_t)((uint32_t)err >> (8 * i));
        return P9_HDR + 4;
    }
    put_header(out, (uint32_t)(P9_HDR + o.off), (uint8_t)(type + 1), tag);
    return P9_HDR + o.off;
}
