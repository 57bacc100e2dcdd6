// SPDX-License-Identifier: MIT
// stdio: printf of integers, strings, floats and doubles (fixed, exponent, shortest,
// widths, precisions, flags, infinities), snprintf truncation, sscanf and strtod
// round trips, and FILE I/O on a scratch file (fopen modes, fwrite/fread, fseek/ftell,
// fgets, ungetc, fprintf/fscanf, setvbuf, tmpfile). argv[1] is a scratch directory.
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void numbers(void)
{
    printf("[%d] [%5d] [%-5d] [%05d] [%+d] [% d] [%x] [%#X] [%o] [%#o] [%u]\n",
           42, 42, 42, 42, 42, 42, 255, 255, 8, 8, 4000000000u);
    printf("[%lld] [%llu] [%" PRId64 "] [%" PRIx64 "] [%hhd] [%hd] [%zu] [%td]\n",
           -9000000000000000000ll, 18000000000000000000ull, INT64_MIN, UINT64_MAX,
           (signed char)200, (short)70000, (size_t)123, (ptrdiff_t)-5);
    printf("[%s] [%10s] [%-10s] [%.2s] [%c] [%%] [%5.1s]\n", "abc", "abc", "abc", "abc", 'z', "xyz");
    static const double d[] = {
        0.0, -0.0, 1.0, -1.5, 0.1, 1.0 / 3.0, 2.0 / 3.0, 123456789.125, 1e-5, 1e-300,
        5e-324, 2.2250738585072014e-308, DBL_MAX, 1e22, 1e23, 9007199254740993.0,
        0.5, 1.5, 2.5, 1e15 + 0.3, 3.14159265358979323846, M_E * 1e100,
    };
    for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
        printf("%.17g | %f | %.3e | %g | %12.4f | %-12.2e| %+.0f | %#.0e | %.20f\n",
               d[i], d[i], d[i], d[i], d[i], d[i], d[i], d[i], d[i]);
    printf("%f %e %g %F %E %G\n", INFINITY, -INFINITY, INFINITY, INFINITY, -INFINITY, INFINITY);
    printf("%.0f %.0f %.0f %.0f %.1f %.2f\n", 0.5, 1.5, 2.5, 3.5, 0.25, 1.005);
    float f = 1.1f, g = 16777217.0f, h = 1e-40f;
    printf("floats %.9g %.9g %.9g %f %e\n", f, g, h, f * 3, (double)FLT_MAX);
    printf("%*d|%-*d|%.*f\n", 6, 7, 6, 7, 3, 2.0 / 7.0);
    printf("%s\n", strerror(ENOENT));
}

static void strings(void)
{
    char buf[16];
    volatile size_t cap = sizeof buf; // (a constant would draw a truncation warning)
    int n = snprintf(buf, cap, "%s-%d-%.3f", "truncated-output", 12345, 3.14159);
    printf("snprintf %d [%s]\n", n, buf);
    n = snprintf(NULL, 0, "%0100d", 1);
    printf("snprintf size %d\n", n);
    int a, b;
    char word[32];
    double x;
    n = sscanf("  17 0x1f  hello 2.5e3 rest", "%d %i %31s %lf", &a, &b, word, &x);
    printf("sscanf %d %d %d %s %g\n", n, a, b, word, x);
    static const char *strs[] = {
        "0.1", "1e308", "1e309", "4.9e-324", "2.4703282292062327e-324", "-0", "0x1.8p3",
        "123456789012345678901234567890", "1.7976931348623157e308", "nan", "-inf", "12abc",
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++) {
        char *end;
        errno = 0;
        double v = strtod(strs[i], &end);
        if (isnan(v))
            printf("strtod %s -> nan end=%td\n", strs[i], end - strs[i]);
        else
            // (glibc also sets ERANGE for subnormal results; C leaves that open)
            printf("strtod %s -> %.17g erange=%d end=%td\n", strs[i], v,
                   (v == 0 || isinf(v)) && errno == ERANGE, end - strs[i]);
    }
    // Round trip: shortest repr %.17g of random doubles parses back exactly.
    uint64_t s = 88172645463325252ull;
    int bad = 0;
    for (int i = 0; i < 2000; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        double v;
        memcpy(&v, &s, 8);
        if (!isfinite(v))
            continue;
        char t[64];
        snprintf(t, sizeof t, "%.17g", v);
        double w = strtod(t, NULL);
        if (memcmp(&v, &w, 8) != 0)
            bad++;
    }
    printf("round trip mismatches %d\n", bad);
}

static void files(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/stdio.txt", dir);
    FILE *fp = fopen(path, "w");
    if (!fp) {
        perror("fopen");
        exit(1);
    }
    setvbuf(fp, NULL, _IOFBF, 64);
    for (int i = 0; i < 100; i++)
        fprintf(fp, "line %d %.2f\n", i, i / 7.0);
    fclose(fp);
    fp = fopen(path, "r");
    char line[64];
    int count = 0;
    long sum = 0;
    while (fgets(line, sizeof line, fp)) {
        int k;
        double v;
        if (sscanf(line, "line %d %lf", &k, &v) == 2)
            sum += k;
        count++;
    }
    printf("lines %d sum %ld eof %d\n", count, sum, feof(fp) != 0);
    fseek(fp, 5, SEEK_SET);
    int c = fgetc(fp);
    ungetc('X', fp);
    int c2 = fgetc(fp);
    printf("fgetc %c ungetc %c tell %ld\n", c, c2, ftell(fp));
    fseek(fp, -10, SEEK_END);
    printf("tail [%s]", fgets(line, sizeof line, fp));
    fclose(fp);
    fp = fopen(path, "a+");
    fputs("appended\n", fp);
    rewind(fp);
    size_t got = fread(line, 1, 10, fp);
    printf("fread %zu [%.10s]\n", got, line);
    fclose(fp);
    fp = fopen(path, "rb+");
    fseek(fp, 0, SEEK_END);
    printf("size %ld\n", ftell(fp));
    fclose(fp);
    unsigned char bin[256], back[256];
    for (int i = 0; i < 256; i++)
        bin[i] = (unsigned char)(i * 7);
    FILE *t = tmpfile();
    if (t) {
        fwrite(bin, 1, sizeof bin, t);
        rewind(t);
        size_t n = fread(back, 1, sizeof back, t);
        printf("tmpfile %zu %d\n", n, memcmp(bin, back, 256) == 0);
        fclose(t);
    } else {
        printf("tmpfile failed\n");
    }
    FILE *missing = fopen("/nonexistent/x", "r");
    printf("missing %d errno %d\n", missing == NULL, errno);
    remove(path);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: stdio SCRATCH_DIR\n");
        return 2;
    }
    numbers();
    strings();
    files(argv[1]);
    fflush(stdout);
    fprintf(stderr, "stderr works\n");
    return 0;
}
