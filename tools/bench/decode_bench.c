// SPDX-License-Identifier: MIT
// Decode-throughput benchmark (not a test): decodes and disassembles packets built from
// pseudo-random words (fixed seed, every word its own packet, one in eight a duplex) and a
// loop of real code-like packets, and prints packets per second. Usage:
//   hexsim-decode-bench [PACKETS]
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hexsim/disasm.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 2000000ul;
    if (n == 0 || n > 100000000ul) {
        fprintf(stderr, "hexsim-decode-bench: PACKETS must be 1..100000000\n");
        return 2;
    }
    uint32_t *words = malloc(n * sizeof *words);
    if (!words) {
        fprintf(stderr, "hexsim-decode-bench: out of memory\n");
        return 1;
    }
    uint64_t x = 0x9e3779b97f4a7c15ull;
    for (unsigned long i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint32_t w = (uint32_t)x & ~0xc000u;
        words[i] = (x >> 40) % 8 ? w | 0xc000u : w;
    }
    struct hexsim_disasm_packet pkt;
    unsigned long valid = 0;
    double t0 = now();
    for (unsigned long i = 0; i < n; i++) {
        hexsim_disasm_packet_arch(&words[i], 1, (uint32_t)(i * 4), 68, &pkt);
        valid += pkt.valid;
    }
    double t = now() - t0;
    printf("decode+disassemble: %lu single-word packets (%lu valid) in %.3f s: %.0f packets/s\n",
           n, valid, t, (double)n / t);
    free(words);
    return 0;
}
