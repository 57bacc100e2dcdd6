// SPDX-License-Identifier: MIT
// Check suite for the guest's boot date and console size words (src/loader/boot_env.c):
// --rtc-base dates against the host C library's own UTC conversion (gmtime_r, the oracle)
// for every 97th day from 1970 to 2200 at varying times of day, the other spellings, values
// refused, and the words /init reads.
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "hexsim/boot_env.h"

START_TEST(test_dates_match_gmtime)
{
    unsigned n = 0;
    for (int64_t t = 0; t < INT64_C(7258118400); t += 97 * 86400 + 3727, n++) {
        time_t tt = (time_t)t;
        struct tm tm;
        ck_assert_ptr_nonnull(gmtime_r(&tt, &tm));
        char text[40];
        strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
        int64_t got = -1;
        ck_assert_msg(hexsim_rtc_parse(text, &got) == 0, "%s refused", text);
        ck_assert_msg(got == t, "%s: %lld, gmtime says %lld", text, (long long)got,
                      (long long)t);
    }
    ck_assert_uint_gt(n, 800);
}
END_TEST

START_TEST(test_other_spellings)
{
    int64_t v;
    ck_assert_int_eq(hexsim_rtc_parse("now", &v), 0);
    ck_assert(v == HEXSIM_RTC_NOW);
    ck_assert_int_eq(hexsim_rtc_parse("1704067200", &v), 0);
    ck_assert(v == HEXSIM_RTC_FIXED);
    ck_assert_int_eq(hexsim_rtc_parse("2024-01-01", &v), 0);
    ck_assert(v == HEXSIM_RTC_FIXED);
    ck_assert_int_eq(hexsim_rtc_parse("2024-02-29 12:00:01", &v), 0);
    ck_assert(v == HEXSIM_RTC_FIXED + 59 * 86400 + 12 * 3600 + 1);
    ck_assert_int_eq(hexsim_rtc_parse("0", &v), 0);
    ck_assert(v == 0);
}
END_TEST

START_TEST(test_refused)
{
    static const char *const bad[] = { "", "yesterday", "2023-02-29", "1969-12-31",
                                       "2024-13-01", "2024-00-10", "2024-01-32",
                                       "2024-01-01T24:00:00", "2024-01-01T10:60:00",
                                       "2024-01-01T10:00", "2024-01-01Z", "12x", "-5",
                                       "2024-01-01T00:00:00+01:00" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int64_t v = 42;
        ck_assert_msg(hexsim_rtc_parse(bad[i], &v) == -1, "'%s' accepted", bad[i]);
        ck_assert(v == 42);
    }
}
END_TEST

START_TEST(test_init_words)
{
    char buf[80];
    size_t n = hexsim_boot_init_words(HEXSIM_RTC_FIXED, 0, 0, buf, sizeof buf);
    ck_assert_str_eq(buf, "init.date=1704067200");
    ck_assert_uint_eq(n, 20);
    hexsim_boot_init_words(86400, 40, 132, buf, sizeof buf);
    ck_assert_str_eq(buf, "init.date=86400 init.tty=40x132");
    n = hexsim_boot_init_words(86400, 40, 132, buf, 12);   // cut, still terminated
    ck_assert_uint_eq(n, 11);
    ck_assert_str_eq(buf, "init.date=8");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("boot_env");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, test_dates_match_gmtime);
    tcase_add_test(tc, test_other_spellings);
    tcase_add_test(tc, test_refused);
    tcase_add_test(tc, test_init_words);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
