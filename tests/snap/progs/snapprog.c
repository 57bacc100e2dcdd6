// SPDX-License-Identifier: MIT
// Guest program for tests/snap/user_snap_test.py: the process state a user-mode snapshot
// carries besides registers and memory contents: brk growth, mmap and munmap (the address
// space), getrandom's generator, the pcycle clock (clock_gettime, nanosleep), and output
// written in pieces over the whole run. With the argument "file" it keeps a host file (its
// own ELF) open while it runs, which a snapshot must refuse. Exits with status 3.
#include "../../user/progs/urt.h"

int main(int argc, char **argv, char **envp)
{
    (void)envp;
    long fd = -1;
    if (argc > 1 && starts(argv[1], "file"))
        fd = sys(56, -100, (long)argv[0], 0, 0, 0, 0);
    u32 h = 0;
    long b0 = sys(214, 0, 0, 0, 0, 0, 0);
    char *heap = (char *)b0;
    for (int round = 0; round < 8; round++) {
        long size = 6000L * (round + 1);
        if (sys(214, b0 + size, 0, 0, 0, 0, 0) != b0 + size)
            return 1;
        char *m = (char *)sys(222, 0, 16384, 3, 0x22, -1, 0);
        unsigned char rnd[8];
        sys(278, (long)rnd, 8, 0, 0, 0, 0);
        for (long i = 0; i < size; i++)
            heap[i] = (char)(i * 7 + round + rnd[i & 7]);
        for (int i = 0; i < 16384; i++)
            m[i] = heap[(i * 3) & 4095];
        for (int i = 0; i < 16384; i++)
            h = h * 31 + (unsigned char)m[i];
        u32 ts[2];
        sys(113, 1, (long)ts, 0, 0, 0, 0);      // clock_gettime(CLOCK_MONOTONIC)
        h ^= ts[1];
        u32 req[2] = { 0, 1000000 };
        sys(101, (long)req, 0, 0, 0, 0, 0);     // nanosleep 1 ms: the clock jumps
        put_str("round ");
        put_dec(round);
        put_str(" h=");
        put_dec((long)(h & 0x7fffffff));
        put_str("\n");
        if (round & 1)
            sys(215, (long)m, 16384, 0, 0, 0, 0);
    }
    if (fd >= 0)
        sys(57, fd, 0, 0, 0, 0, 0);
    return 3;
}
