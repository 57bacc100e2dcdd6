// SPDX-License-Identifier: MIT
// What the guest's /init learns at boot (src/loader/boot_env.c): the wall-clock date and
// the console's size, passed as words after `--` on the kernel command line.
#ifndef HEXSIM_BOOT_ENV_H
#define HEXSIM_BOOT_ENV_H

#include <stddef.h>
#include <stdint.h>

// The date of a deterministic run (virtual clock, no --rtc-base): 2024-01-01T00:00:00 UTC.
#define HEXSIM_RTC_FIXED INT64_C(1704067200)
// --rtc-base now: hexsim_rtc_parse's answer, the host's time taken when the machine starts.
#define HEXSIM_RTC_NOW INT64_MIN

// --rtc-base VALUE: "now", seconds since 1970 (UTC), or YYYY-MM-DDTHH:MM:SS (UTC; also
// with a space, or a date alone). 0 with *secs, or -1 (not one of those, or before 1970).
int hexsim_rtc_parse(const char *v, int64_t *secs);

// Writes the words for /init ("init.date=SECONDS", "init.tty=ROWSxCOLS" when rows and cols
// are known) into buf, separated by spaces. Returns the length written.
size_t hexsim_boot_init_words(int64_t rtc_base, unsigned rows, unsigned cols, char *buf,
                              size_t cap);

#endif
