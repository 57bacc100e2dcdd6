// SPDX-License-Identifier: MIT
// System-mode test kernel for the virtio block device (src/devices/comet/virtio_blk.c on
// virtio_mmio.c) through the machine's bus: --drive 0 in virtio-mmio slot 1 (0xAB100200,
// SIRC0 bit 21 into L1 23; include/hexsim/virtio.h), brought up as Linux's virtio_mmio and
// virtio_blk do it, requests completed by interrupt: a write of sector 5 (hvm_test.py
// then finds it in the image file), a read of sector 3 (the harness fills sector i with
// the byte i), a flush, a read past the end (IOERR), the write read back, GET_ID; then
// --drive 1 (readonly=on, 16 sectors) in slot 2 (0xAB100400, SIRC0 bit 22): a read, a
// write refused, a read past its end.
#include "hvm.h"

// register accesses one packet each (a load packed with the store before it reads first)
#define R(off) load(blk + (off))
#define W(off, v) store(blk + (off), (u32)(v))
static u32 blk = 0xAB100200u;                   // the device being driven: slot 1 or 2
#define SIRC0 ((volatile u32 *)0xAB010000u)
#define BIT21 (1u << 21)
#define BIT22 (1u << 22)
#define QN 8u

enum { S_ENABLE = 0, S_ENABLE_SET = 2, S_TYPE = 3, S_POLARITY = 4, S_STATUS = 5 };

struct desc { u64 addr; u32 len; unsigned short flags, next; };
static struct desc dt[QN] __attribute__((aligned(4096)));
static volatile unsigned short avail[2 + QN] __attribute__((aligned(4096)));
static volatile u32 used[1 + 2 * QN] __attribute__((aligned(4096)));
static struct { u32 type, ioprio; u64 sector; } hdr __attribute__((aligned(16)));
static unsigned char data[512] __attribute__((aligned(64)));
static volatile unsigned char status;
static volatile u32 n_irq;
static unsigned short avail_idx;

void hvm_event(u32 slot, u32 *rec)
{
    if (slot != 7)
        return;
    CHECK_EQ(GSR_CAUSE(rec[1]), 23);
    u32 lines = SIRC0[S_STATUS];
    CHECK_EQ(lines & (BIT21 | BIT22), blk == 0xAB100200u ? BIT21 : BIT22);
    u32 st = R(0x060);                          // InterruptStatus
    W(0x064, st);                               // InterruptACK: the line goes down
    if (st & 1)
        n_irq++;
    vmintop(GLOBEN, 23, 0);
}

// One request: header, data (len bytes, device-writable when in), status; returns status.
static u32 request(u32 type, u32 sector, u32 len, int in)
{
    hdr.type = type;
    hdr.sector = sector;
    status = 0xee;
    u32 n = 0;
    dt[n] = (struct desc){ (u32)&hdr, 16, 1, 1 };
    n++;
    if (len) {
        dt[n] = (struct desc){ (u32)data, len, (unsigned short)(1 | (in ? 2 : 0)), 2 };
        n++;
    }
    dt[n] = (struct desc){ (u32)&status, 1, 2, 0 };
    dt[n - 1].next = (unsigned short)n;
    u32 before = n_irq;
    avail[2 + avail_idx % QN] = 0;
    avail_idx++;
    avail[1] = avail_idx;
    W(0x050, 0);                                // QueueNotify
    while (n_irq == before)
        vmwait();
    CHECK_EQ(used[0] >> 16, avail_idx);         // used idx
    return status;
}

// Brings the device at blk up as virtio_mmio and virtio_blk do (queue of QN entries).
static void bring_up(u32 sectors, u32 ro)
{
    CHECK_EQ(R(0), 0x74726976u);                // "virt"
    CHECK_EQ(R(4), 2);
    CHECK_EQ(R(8), 2);                          // block device
    CHECK_EQ(R(0x100), sectors);                // capacity (sectors), low word
    CHECK_EQ(R(0x104), 0);
    W(0x070, 1 | 2);                            // ACKNOWLEDGE | DRIVER
    W(0x014, 1);
    CHECK_EQ(R(0x010) & 1, 1);                  // VIRTIO_F_VERSION_1
    W(0x014, 0);
    CHECK_EQ(R(0x010) & (1u << 9), 1u << 9);    // FLUSH
    W(0x024, 0);
    W(0x020, 1u << 9);
    W(0x024, 1);
    W(0x020, 1);
    W(0x070, 1 | 2 | 8);                        // FEATURES_OK
    CHECK_EQ(R(0x070) & 8, 8);
    W(0x030, 0);
    CHECK_EQ(R(0x034), 256);
    CHECK_EQ(R(0x044), 0);
    W(0x038, QN);
    W(0x080, (u32)dt);
    W(0x084, 0);
    W(0x090, (u32)avail);
    W(0x094, 0);
    W(0x0a0, (u32)used);
    W(0x0a4, 0);
    W(0x044, 1);
    W(0x070, 1 | 2 | 8 | 4);                    // DRIVER_OK
    avail_idx = 0;
}

int main(void)
{
    CHECK_EQ(map_board(), 0);
    bring_up(64, 0);
    // SIRC0 bit 21: level, active high, enabled; L1 23
    SIRC0[S_TYPE] = SIRC0[S_TYPE] & ~BIT21;
    SIRC0[S_POLARITY] = SIRC0[S_POLARITY] & ~BIT21;
    SIRC0[S_TYPE] = SIRC0[S_TYPE] & ~BIT22;
    SIRC0[S_POLARITY] = SIRC0[S_POLARITY] & ~BIT22;
    SIRC0[S_ENABLE_SET] = BIT21 | BIT22;
    vmintop(LOCEN, 23, 0);
    CHECK_EQ(SIRC0[S_ENABLE] & (BIT21 | BIT22), BIT21 | BIT22);
    vmsetie(1);
    for (u32 i = 0; i < 512; i++)
        data[i] = (unsigned char)(i * 7 + 1);
    CHECK_EQ(request(1, 5, 512, 0), 0);         // OUT sector 5
    CHECK_EQ(request(0, 3, 512, 1), 0);         // IN sector 3
    CHECK_EQ(data[0], 3);
    CHECK_EQ(data[511], 3);
    CHECK_EQ(request(4, 0, 0, 0), 0);           // FLUSH
    CHECK_EQ(request(0, 64, 512, 1), 1);        // past the end: IOERR
    CHECK_EQ(request(0, 5, 512, 1), 0);         // the write, read back
    CHECK_EQ(data[0], 1);
    CHECK_EQ(data[511], (unsigned char)(511 * 7 + 1));
    CHECK_EQ(request(8, 0, 20, 1), 0);          // GET_ID
    CHECK_EQ(data[0], 'h');
    CHECK_EQ(data[11], '0');                    // "hexsim-disk0"
    CHECK_EQ(n_irq, 6);
    // the second drive (readonly=on, 16 sectors): slot 2, SIRC0 bit 22; writes refused
    vmsetie(0);
    blk = 0xAB100400u;
    bring_up(16, 1);
    vmsetie(1);
    CHECK_EQ(request(0, 2, 512, 1), 0);
    CHECK_EQ(data[0], 2);
    CHECK_EQ(request(1, 2, 512, 0), 1);         // OUT on a read-only drive: IOERR
    CHECK_EQ(request(0, 16, 512, 1), 1);        // past its end
    CHECK_EQ(n_irq, 9);
    finish("virtio_blk");
    return 0;
}
