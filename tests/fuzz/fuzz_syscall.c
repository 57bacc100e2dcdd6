// SPDX-License-Identifier: MIT
// Fuzz target: the user-mode system call layer. A fresh sandboxed process (fuzz_user.h) with
// a data area, a read-only page, an unmapped gap and a stack gets a sequence of system calls
// with random numbers and arguments, straight through hexsim_user_syscall as trap0(#1)
// would. The whole input is also copied to the start of the data area, so argument
// pointers there reach bytes the fuzzer controls (iovecs, timespecs, paths).
//
// Input: byte 0 flags (bit 0: strace to /dev/null), then records of 29 bytes (at most 32):
//   byte 0     number: < 0xe0 one of the implemented calls (table below), else a raw
//              number from the last argument word (unknown calls, warnings)
//   bytes 1-4  two bits per argument: 0 raw, 1 pointer DATA_BASE + (v & 0xffff),
//              2 small value v & 7 (descriptors), 3 pointer near the top of the stack
//   bytes 5-28 six argument words (little-endian)
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_user.h"

#define CHECK(c) do { if (!(c)) abort(); } while (0)

#define DATA_BASE 0x00020000u
#define DATA_SIZE 0x00010000u
#define RODATA_BASE 0x00030000u
#define STACK_BASE 0xbfff0000u
#define STACK_SIZE 0x00010000u
#define REC 29
#define MAX_CALLS 32

static const uint16_t calls[] = {
    29, 56, 57, 62, 63, 64, 65, 66, 79, 80, 93, 94, 96, 101, 113, 115, 160, 169, 172, 173,
    174, 175, 176, 177, 178, 214, 215, 222, 226, 278, 403, 407,
    // descriptors, paths (refused in the sandbox), data, information, threads, signals,
    // timers (left out: pipe2, since a read of an empty pipe blocks the host as it would
    // block Linux; fallocate, which would take the host's disk space)
    17, 23, 24, 25, 32, 34, 35, 36, 37, 38, 43, 44, 45, 46, 48, 49, 50, 52, 53, 54, 55,
    61, 67, 68, 71, 72, 73, 78, 81, 82, 83, 88, 95, 99, 102, 103, 107, 108, 109, 110, 111,
    114, 122, 123, 124, 129, 130, 131, 132, 133, 134, 135, 136, 137, 139, 144, 146, 148,
    150, 153, 154, 155, 156, 157, 158, 163, 164, 165, 166, 167, 168, 179, 216, 220, 223,
    233, 260, 261, 276, 283, 291, 406, 408, 409, 412, 413, 414, 421, 422, 439,
    98,
};

static uint32_t le32(const uint8_t *b)
{
    return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static struct hexsim_user u;   // harness state; fully reset below
    fuzz_user_init(&u, FUZZ_MAX_PAGES);
    u.opts.strace = data[0] & 1;
    CHECK(!hexsim_mem_map(&u.mem, DATA_BASE, DATA_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W));
    CHECK(!hexsim_mem_map(&u.mem, RODATA_BASE, HEXSIM_PAGE_SIZE, HEXSIM_PROT_R));
    CHECK(!hexsim_mem_map(&u.mem, STACK_BASE, STACK_SIZE, HEXSIM_PROT_R | HEXSIM_PROT_W));
    u.brk_start = u.brk_cur = 0x00100000u;
    hexsim_mem_copy_in(&u.mem, DATA_BASE, data, size < DATA_SIZE ? size : DATA_SIZE, true, NULL);

    const uint8_t *rec = data + 1;
    size_t left = size - 1;
    for (unsigned n = 0; n < MAX_CALLS && left >= REC && !u.exited; n++, rec += REC, left -= REC) {
        uint32_t kinds = le32(rec + 1);
        for (unsigned i = 0; i < 6; i++) {
            uint32_t v = le32(rec + 5 + 4 * i);
            switch (kinds >> (2 * i) & 3) {
            case 1: v = DATA_BASE + (v & 0xffff); break;
            case 2: v &= 7; break;
            case 3: v = STACK_BASE + STACK_SIZE - 0x100 + (v & 0xff); break;
            default: break;
            }
            u.cpu.r[i] = v;
        }
        u.cpu.r[6] = rec[0] < 0xe0 ? calls[rec[0] % (sizeof calls / sizeof calls[0])]
                                   : le32(rec + 5 + 20);
        hexsim_user_syscall(&u);
        CHECK(u.brk_cur >= u.brk_start);
    }
    fuzz_user_free(&u);
    return 0;
}
