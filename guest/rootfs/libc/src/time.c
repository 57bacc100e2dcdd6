// SPDX-License-Identifier: MIT
// Clocks and sleeping (64-bit time calls, falling back to the 32-bit ones), UTC calendar.
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include "libc.h"

struct ts32 { long sec, nsec; };

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    long long k[2];
    long r = __sc2(SYS_clock_gettime64, clk, k);
    if (r == -ENOSYS) {
        struct ts32 t;
        r = __sc2(SYS_clock_gettime, clk, &t);
        k[0] = t.sec;
        k[1] = t.nsec;
    }
    if (__ret(r) < 0)
        return -1;
    ts->tv_sec = k[0];
    ts->tv_nsec = (long)k[1];
    ts->__pad = 0;
    return 0;
}

time_t time(time_t *t)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
        return -1;
    if (t)
        *t = ts.tv_sec;
    return ts.tv_sec;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) < 0)
        return -1;
    tv->tv_sec = ts.tv_sec;
    tv->tv_usec = ts.tv_nsec / 1000;
    return 0;
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
    long long k[2] = { req->tv_sec, req->tv_nsec }, kr[2] = { 0, 0 };
    long r = __sc4(SYS_clock_nanosleep_time64, CLOCK_REALTIME, 0, k, kr);
    if (r == -ENOSYS) {
        struct ts32 t = { (long)req->tv_sec, req->tv_nsec }, tr = { 0, 0 };
        r = __sc2(SYS_nanosleep, &t, &tr);
        kr[0] = tr.sec;
        kr[1] = tr.nsec;
    }
    if (rem) {
        rem->tv_sec = kr[0];
        rem->tv_nsec = (long)kr[1];
        rem->__pad = 0;
    }
    return (int)__ret(r);
}

unsigned sleep(unsigned s)
{
    struct timespec ts = { s, 0, 0 }, rem;
    if (nanosleep(&ts, &rem) < 0)
        return (unsigned)rem.tv_sec;
    return 0;
}

int usleep(unsigned us)
{
    struct timespec ts = { us / 1000000, (long)(us % 1000000) * 1000, 0 };
    return nanosleep(&ts, 0);
}

int poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
    long long k[2] = { timeout_ms / 1000, (long long)(timeout_ms % 1000) * 1000000 };
    void *tp = timeout_ms < 0 ? 0 : k;
    long r = __sc5(SYS_ppoll_time64, fds, n, tp, 0, 8);
    if (r == -ENOSYS) {
        struct ts32 t = { timeout_ms / 1000, (timeout_ms % 1000) * 1000000 };
        r = __sc5(SYS_ppoll, fds, n, timeout_ms < 0 ? 0 : &t, 0, 8);
    }
    return (int)__ret(r);
}

struct tm *gmtime_r(const time_t *restrict t, struct tm *restrict tm)
{
    long long s = *t;
    long long days = s / 86400;
    long long rem = s % 86400;
    if (rem < 0) {
        rem += 86400;
        days--;
    }
    tm->tm_hour = (int)(rem / 3600);
    tm->tm_min = (int)(rem / 60 % 60);
    tm->tm_sec = (int)(rem % 60);
    tm->tm_wday = (int)((days % 7 + 11) % 7);   // 1970-01-01 was a Thursday
    // Civil date from days since the epoch (proleptic Gregorian, eras of 400 years).
    long long z = days + 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long y = yoe + era * 400;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    long long d = doy - (153 * mp + 2) / 5 + 1;
    long long m = mp < 10 ? mp + 3 : mp - 9;
    if (m <= 2)
        y++;
    tm->tm_year = (int)(y - 1900);
    tm->tm_mon = (int)(m - 1);
    tm->tm_mday = (int)d;
    static const short cum[] = { 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334 };
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    tm->tm_yday = cum[m - 1] + (int)d - 1 + (leap && m > 2);
    tm->tm_isdst = 0;
    return tm;
}

struct tm *gmtime(const time_t *t)
{
    static struct tm tm;
    return gmtime_r(t, &tm);
}
struct tm *localtime_r(const time_t *restrict t, struct tm *restrict tm) { return gmtime_r(t, tm); }
struct tm *localtime(const time_t *t) { return gmtime(t); }

static const char *const wdays[] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };

size_t strftime(char *restrict s, size_t n, const char *restrict fmt, const struct tm *restrict tm)
{
    size_t o = 0;
    char tmp[32];
    for (; *fmt && o + 1 < n; fmt++) {
        if (*fmt != '%') {
            s[o++] = *fmt;
            continue;
        }
        fmt++;
        const char *p = tmp;
        switch (*fmt) {
        case 'Y': snprintf(tmp, sizeof tmp, "%d", tm->tm_year + 1900); break;
        case 'm': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mon + 1); break;
        case 'd': snprintf(tmp, sizeof tmp, "%02d", tm->tm_mday); break;
        case 'e': snprintf(tmp, sizeof tmp, "%2d", tm->tm_mday); break;
        case 'H': snprintf(tmp, sizeof tmp, "%02d", tm->tm_hour); break;
        case 'M': snprintf(tmp, sizeof tmp, "%02d", tm->tm_min); break;
        case 'S': snprintf(tmp, sizeof tmp, "%02d", tm->tm_sec); break;
        case 'a': p = wdays[tm->tm_wday % 7]; break;
        case 'b': p = months[tm->tm_mon % 12]; break;
        case 'Z': p = "UTC"; break;
        case '%': p = "%"; break;
        default: tmp[0] = '%'; tmp[1] = *fmt; tmp[2] = 0; break;
        }
        while (*p && o + 1 < n)
            s[o++] = *p++;
        if (!*fmt)
            break;
    }
    if (n)
        s[o] = 0;
    return o;
}
