// SPDX-License-Identifier: MIT
// The main of every Check suite: runs the suite and turns its failures into the exit status.
#ifndef HEXSIM_TESTS_CHECK_MAIN_H
#define HEXSIM_TESTS_CHECK_MAIN_H

#include <check.h>
#include <stdlib.h>

static inline int hexsim_check_run(Suite *s)
{
    SRunner *r = srunner_create(s);
    srunner_run_all(r, CK_NORMAL);
    int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
