/* SPDX-License-Identifier: MIT
 * Benchmark (musl, bench.py USERLAND): number formatting and parsing in the C library.
 * Makes N doubles spread over many magnitudes (a fixed linear congruential sequence),
 * prints each with snprintf %.17g, %e and %f, parses the %.17g text back with strtod
 * (which must give the same bits), and integers with %d/%x and strtol; prints a checksum
 * of all the text and the sums. Usage: m2_numfmt [N] (default 200000) */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 10) : 200000;
    unsigned long long x = 88172645463325252ull;
    unsigned sum = 0;
    double total = 0;
    long long itotal = 0;
    char buf[128];
    for (long i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        double m = (double)(x >> 11) / 9007199254740992.0;      /* [0, 1) */
        int e = (int)((x >> 3) % 40) - 20;
        double v = ldexp(m, e * 3) * ((x & 4) ? -1 : 1);
        int k = snprintf(buf, sizeof buf, "%.17g", v);
        double back = strtod(buf, NULL);
        if (memcmp(&back, &v, sizeof v)) {
            printf("round trip failed: %s\n", buf);
            return 1;
        }
        k += snprintf(buf + k, sizeof buf - k, " %e", v);
        k += snprintf(buf + k, sizeof buf - k, " %.3f", fmod(v, 1e6));
        int iv = (int)(x >> 40);
        k += snprintf(buf + k, sizeof buf - k, " %d %x", iv, (unsigned)iv);
        itotal += strtol(strrchr(buf, ' ') + 1, NULL, 16);
        for (int j = 0; j < k; j++)
            sum = sum * 31 + (unsigned char)buf[j];
        total += back;
    }
    printf("%ld numbers, text checksum %08x, sum %.17g, integers %lld\n", n, sum, total, itotal);
    return 0;
}
