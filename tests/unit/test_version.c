// SPDX-License-Identifier: MIT
// Check suite for hexsim_version(): the string is present, has the MAJOR.MINOR.PATCH
// shape, and equals the CMake project version (passed in as HEXSIM_EXPECTED_VERSION).
#include <check.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "hexsim/version.h"

#ifndef HEXSIM_EXPECTED_VERSION
#error "the build must define HEXSIM_EXPECTED_VERSION (the CMake project version)"
#endif

START_TEST(test_version_not_empty)
{
    const char *v = hexsim_version();

    ck_assert_ptr_nonnull(v);
    ck_assert_uint_gt(strlen(v), 0);
}
END_TEST

START_TEST(test_version_shape)
{
    const char *p = hexsim_version();
    int dots = 0;

    // Three runs of digits separated by single dots.
    for (int part = 0; part < 3; part++) {
        ck_assert_msg(isdigit((unsigned char)*p), "version '%s': digit expected", hexsim_version());
        while (isdigit((unsigned char)*p))
            p++;
        if (part < 2) {
            ck_assert_msg(*p == '.', "version '%s': '.' expected", hexsim_version());
            p++;
            dots++;
        }
    }
    ck_assert_int_eq(dots, 2);
    ck_assert_msg(*p == '\0', "version '%s': trailing characters", hexsim_version());
}
END_TEST

START_TEST(test_version_matches_project)
{
    ck_assert_str_eq(hexsim_version(), HEXSIM_EXPECTED_VERSION);
}
END_TEST

static Suite *version_suite(void)
{
    Suite *s = suite_create("version");
    TCase *tc = tcase_create("core");

    tcase_add_test(tc, test_version_not_empty);
    tcase_add_test(tc, test_version_shape);
    tcase_add_test(tc, test_version_matches_project);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(version_suite());
    int failed;

    srunner_run_all(sr, CK_NORMAL);
    failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
