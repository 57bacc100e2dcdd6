// SPDX-License-Identifier: MIT
// The guest's date and console size at boot (include/hexsim/boot_env.h). The Comet board
// has no battery-backed clock the kernel reads, so the project's /init
// (guest/rootfs/init/init.c) sets CLOCK_REALTIME from "init.date=SECONDS" plus the time
// since boot, and the console's window size (TIOCSWINSZ, what `stty rows R cols C` does)
// from "init.tty=ROWSxCOLS"; the kernel hands words after `--` on its command line to
// init as arguments (Documentation/admin-guide/kernel-parameters.rst). Dates are UTC,
// converted with the proleptic Gregorian calendar (days from civil date: the usual
// era-of-400-years arithmetic), so nothing depends on the host's time zone.
#include "hexsim/boot_env.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// Days from 1970-01-01 to y-m-d (Gregorian).
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);                        // [0, 399]
    unsigned mp = m > 2 ? m - 3 : m + 9;                             // March = 0
    unsigned doy = (153 * mp + 2) / 5 + d - 1;                       // [0, 365]
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;           // [0, 146096]
    return era * 146097 + (int64_t)doe - 719468;
}

static bool leap(int64_t y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int hexsim_rtc_parse(const char *v, int64_t *secs)
{
    if (strcmp(v, "now") == 0) {
        *secs = HEXSIM_RTC_NOW;
        return 0;
    }
    char *end;
    if (v[0] >= '0' && v[0] <= '9' && !strchr(v, '-')) {
        unsigned long long n = strtoull(v, &end, 10);
        if (*end || n > (unsigned long long)INT64_MAX / 2)
            return -1;
        *secs = (int64_t)n;
        return 0;
    }
    unsigned y, mo, d, h = 0, mi = 0, s = 0;
    int n = 0;
    if (sscanf(v, "%4u-%2u-%2u%n", &y, &mo, &d, &n) != 3)
        return -1;
    if (v[n] == 'T' || v[n] == ' ') {
        int k = 0;
        if (sscanf(v + n + 1, "%2u:%2u:%2u%n", &h, &mi, &s, &k) != 3)
            return -1;
        n += 1 + k;
    }
    static const unsigned mdays[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    if (v[n] || y < 1970 || mo < 1 || mo > 12 || d < 1 ||
        d > mdays[mo - 1] + (mo == 2 && leap(y)) || h > 23 || mi > 59 || s > 59)
        return -1;
    *secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s;
    return 0;
}

size_t hexsim_boot_init_words(int64_t rtc_base, unsigned rows, unsigned cols, char *buf,
                              size_t cap)
{
    int n = snprintf(buf, cap, "init.date=%lld", (long long)rtc_base);
    if (n >= 0 && (size_t)n < cap && rows && cols)
        n += snprintf(buf + n, cap - (size_t)n, " init.tty=%ux%u", rows, cols);
    return n < 0 ? 0 : (size_t)n < cap ? (size_t)n : cap ? cap - 1 : 0;
}
