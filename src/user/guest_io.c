// SPDX-License-Identifier: MIT
// Host reads and writes straight into and out of guest memory (read, write, readv, writev,
// pread64, pwrite64, and the mmap of a file): the guest's buffers become host iovecs
// (hexsim_mem_spans), so a transfer is one host call of the length the guest asked for, as
// on Linux, not a copy through a bounce buffer in small pieces (a short read the guest must
// repeat, a host write per 8 KiB; issue 33). Linux's rules (fs/read_write.c): a transfer
// stops at the first buffer byte it cannot reach (-EFAULT when that is the first byte), a
// vector's total is at most MAX_RW_COUNT and a negative length is -EINVAL.
#define _DEFAULT_SOURCE      // preadv, pwritev
#include <errno.h>
#include <sys/uio.h>
#include <unistd.h>

#include "sys.h"

#define IO_SPANS 1024                    // host iovecs per call (the host's IOV_MAX)
#define MAX_RW_COUNT 0x7ffff000u         // INT_MAX & PAGE_MASK

// Moves the cursor (*si, *so) through seg[] by r bytes; with m, the bytes passed were
// written by the host (code decoded from them is stale).
static void advance(struct hexsim_mem *m, const uint32_t (*seg)[2], size_t n, size_t *si,
                    uint32_t *so, size_t r)
{
    while (*si < n) {
        uint32_t left = seg[*si][1] - *so;
        uint32_t t = r < left ? (uint32_t)r : left;
        if (m && t)
            hexsim_mem_spans_written(m, seg[*si][0] + *so, t);
        *so += t;
        r -= t;
        if (*so < seg[*si][1])
            break;
        (*si)++;
        *so = 0;
    }
}

int64_t hx_guest_io(struct hexsim_user *u, int h, bool wr, const uint32_t (*seg)[2], size_t n,
                    int64_t off)
{
    struct iovec iov[IO_SPANS];
    size_t si = 0;
    uint32_t so = 0;
    uint64_t total = 0;
    for (;;) {
        // the host spans from the cursor on, as many as one call takes
        size_t k = 0, want = 0, ci = si;
        uint32_t co = so;
        bool stop = false;   // a byte that cannot be reached, or the last buffer, was met
        int fault = HEXSIM_MEM_OK;
        while (ci < n && k < IO_SPANS) {
            uint32_t len = seg[ci][1] - co;
            size_t got, m = 0;
            if (len)
                m = hexsim_mem_spans(&u->mem, seg[ci][0] + co, len,
                                     wr ? HEXSIM_PROT_R : HEXSIM_PROT_W, iov + k, IO_SPANS - k,
                                     &got, &fault);
            else
                got = 0;
            k += m;
            want += got;
            if (got < len) {
                stop = k < IO_SPANS;
                break;
            }
            ci++;
            co = 0;
        }
        if (ci == n)
            stop = true;
        if (!want) {
            if (total)
                break;
            if (fault)
                return -EFAULT;
            char none;   // nothing to move: the host still says whether h allows the call
            ssize_t r = off >= 0 ? (wr ? pwrite(h, &none, 0, (off_t)off)
                                       : pread(h, &none, 0, (off_t)off))
                                 : (wr ? write(h, &none, 0) : read(h, &none, 0));
            return r < 0 ? -errno : 0;
        }
        ssize_t r = off >= 0 ? (wr ? pwritev(h, iov, (int)k, (off_t)(off + (int64_t)total))
                                   : preadv(h, iov, (int)k, (off_t)(off + (int64_t)total)))
                             : (wr ? writev(h, iov, (int)k) : readv(h, iov, (int)k));
        if (r < 0)
            return total ? (int64_t)total : -errno;
        advance(wr ? NULL : &u->mem, seg, n, &si, &so, (size_t)r);
        total += (uint64_t)r;
        // a read is one host call (another could wait for more input); a write goes on
        // while the host took all and there is more the spans did not cover
        if (!wr || (size_t)r < want || stop)
            break;
    }
    return (int64_t)total;
}

int hx_read_iovec(struct hexsim_user *u, uint32_t iov, uint32_t cnt, uint32_t (*seg)[2])
{
    if (cnt > 1024)   // UIO_MAXIOV
        return -EINVAL;
    uint64_t sum = 0;
    for (uint32_t i = 0; i < cnt; i++) {
        if (hx_get32(u, iov + 8 * i, &seg[i][0]) || hx_get32(u, iov + 8 * i + 4, &seg[i][1]))
            return -EFAULT;
        if (seg[i][1] > 0x7fffffffu)
            return -EINVAL;
        // the total is cut at MAX_RW_COUNT (rw_copy_check_uvector)
        if (sum + seg[i][1] > MAX_RW_COUNT)
            seg[i][1] = (uint32_t)(MAX_RW_COUNT - sum);
        sum += seg[i][1];
    }
    return 0;
}

int64_t hx_guest_io_vec(struct hexsim_user *u, int h, bool wr, uint32_t iov, uint32_t cnt,
                        int64_t off)
{
    uint32_t seg[1024][2];
    int e = hx_read_iovec(u, iov, cnt, seg);
    return e ? e : hx_guest_io(u, h, wr, (const uint32_t (*)[2])seg, cnt, off);
}
