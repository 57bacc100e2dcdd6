// SPDX-License-Identifier: MIT
// time.h and clocks: the calendar functions on fixed instants (gmtime, timegm,
// mktime and localtime with TZ=UTC, strftime, asctime, difftime), 64-bit time_t past
// 2038, strptime with zone offsets (%z into tm_gmtoff, %Z), and the running clocks: time, gettimeofday, clock_gettime (REALTIME,
// MONOTONIC, PROCESS_CPUTIME_ID), clock_getres, clock, nanosleep and clock_nanosleep,
// checked for consistency (monotonic, sleeps last at least as long as asked) rather
// than printed, as their values differ from run to run.
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

static int64_t ns(struct timespec t) { return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec; }

int main(void)
{
    static const long long instants[] = { 0, 951782400, 1234567890, 2147483647, 2147483648LL,
                                          4102444800LL, -1, -86400LL * 365 * 70, 32503680000LL };
    for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
        time_t t = (time_t)instants[i];
        struct tm tm;
        gmtime_r(&t, &tm);
        char buf[128];
        strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %b %j %U %w %y", &tm); // (not %Z: "GMT" in glibc, "UTC" in musl)
        struct tm lt;
        localtime_r(&t, &lt);
        time_t back = timegm(&tm);
        struct tm copy = lt;
        time_t back2 = mktime(&copy);
        printf("%lld: %s | yday %d wday %d | timegm %lld mktime %lld | local hour %d\n", instants[i], buf,
               tm.tm_yday, tm.tm_wday, (long long)back, (long long)back2, lt.tm_hour);
    }
    printf("sizeof(time_t) %zu\n", sizeof(time_t));
    struct tm norm = { .tm_year = 124, .tm_mon = 1, .tm_mday = 30, .tm_hour = 25, .tm_min = 61 };
    time_t nt = timegm(&norm);
    printf("normalised %04d-%02d-%02d %02d:%02d (%lld)\n", norm.tm_year + 1900, norm.tm_mon + 1,
           norm.tm_mday, norm.tm_hour, norm.tm_min, (long long)nt);
    struct tm a = { .tm_year = 100, .tm_mday = 1 };
    printf("asctime %s", asctime(&a));
    printf("difftime %.1f\n", difftime((time_t)1000, (time_t)250));

    // strptime's %z (what BusyBox's date -d uses): "Z", +hh, +hhmm, +hh:mm; bad offsets fail
    static const char *const zoned[] = {
        "1999-01-02 03:04:05Z", "1999-01-02 03:04:05 +0600", "1999-01-02 03:04:05 -0600",
        "2021-03-28 00:59:59 +05:30", "2021-03-28 00:59:59 -09", "2021-03-28 00:59:59 +0000 x",
        "2021-03-28 00:59:59 +0660", "2021-03-28 00:59:59 0600", "2021-03-28 00:59:59 +6",
        "2021-03-28 00:59:59 +060", "2021-03-28 00:59:59 +06:3", "2021-03-28 00:59:59 -",
    };
    for (size_t i = 0; i < sizeof zoned / sizeof zoned[0]; i++) {
        struct tm tm;
        memset(&tm, 0, sizeof tm);
        const char *rest = strptime(zoned[i], "%Y-%m-%d %T %z", &tm);
        if (!rest) {
            printf("strptime \"%s\": no match\n", zoned[i]);
            continue;
        }
        long off = tm.tm_gmtoff;
        tm.tm_sec -= (int)off;
        printf("strptime \"%s\": gmtoff %ld utc %lld rest \"%s\"\n", zoned[i], off,
               (long long)timegm(&tm), rest);
    }
    struct tm zt;
    memset(&zt, 0, sizeof zt);
    const char *zrest = strptime("12:34 CEST 2024", "%H:%M %Z", &zt);
    printf("strptime %%Z: %d:%d rest \"%s\"\n", zt.tm_hour, zt.tm_min, zrest ? zrest : "(none)");

    time_t now = time(NULL);
    struct timeval tv;
    gettimeofday(&tv, NULL);
    struct timespec rt, m1, m2, cpu, res;
    clock_gettime(CLOCK_REALTIME, &rt);
    clock_gettime(CLOCK_MONOTONIC, &m1);
    printf("realtime after 2020: %d %d %d\n", now > 1577836800, tv.tv_sec > 1577836800, rt.tv_sec > 1577836800);
    printf("usec in range %d nsec in range %d\n", tv.tv_usec >= 0 && tv.tv_usec < 1000000,
           rt.tv_nsec >= 0 && rt.tv_nsec < 1000000000);
    printf("getres monotonic %d\n", clock_getres(CLOCK_MONOTONIC, &res) == 0 && ns(res) > 0 && ns(res) <= 10000000);
    struct timespec req = { 0, 20 * 1000 * 1000 };
    int r = nanosleep(&req, NULL);
    clock_gettime(CLOCK_MONOTONIC, &m2);
    printf("nanosleep %d slept enough %d\n", r, ns(m2) - ns(m1) >= 20 * 1000 * 1000);
    struct timespec until = m2;
    until.tv_nsec += 10 * 1000 * 1000;
    if (until.tv_nsec >= 1000000000) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000;
    }
    r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
    struct timespec m3;
    clock_gettime(CLOCK_MONOTONIC, &m3);
    printf("clock_nanosleep abs %d reached %d\n", r, ns(m3) >= ns(until));
    volatile unsigned long spin = 0;
    for (int i = 0; i < 2000000; i++)
        spin += (unsigned)i;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    printf("cpu time positive %d clock() positive %d\n", ns(cpu) > 0, clock() > 0);
    int mono_ok = 1;
    struct timespec prev = m3, cur;
    for (int i = 0; i < 1000; i++) {
        clock_gettime(CLOCK_MONOTONIC, &cur);
        if (ns(cur) < ns(prev))
            mono_ok = 0;
        prev = cur;
    }
    printf("monotonic %d\n", mono_ok);
    return 0;
}
