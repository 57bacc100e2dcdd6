// SPDX-License-Identifier: MIT
// 64-bit time_t everywhere (clock_gettime64 and friends).
#ifndef _TIME_H
#define _TIME_H
#include <sys/types.h>
struct timespec { time_t tv_sec; long tv_nsec; long __pad; };
struct tm {
    int tm_sec, tm_min, tm_hour, tm_mday, tm_mon, tm_year, tm_wday, tm_yday, tm_isdst;
};
#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_BOOTTIME 7
time_t time(time_t *t);
int clock_gettime(clockid_t clk, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
struct tm *gmtime_r(const time_t *restrict t, struct tm *restrict tm);
struct tm *gmtime(const time_t *t);
struct tm *localtime_r(const time_t *restrict t, struct tm *restrict tm);
struct tm *localtime(const time_t *t);
size_t strftime(char *restrict s, size_t n, const char *restrict fmt, const struct tm *restrict tm);
#endif
