/* Shared helpers for the CUnit test programs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Shared helpers for the CUnit test programs. */
#ifndef DC_TESTUTIL_H
#define DC_TESTUTIL_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "runner.h"

/* Runs every registered suite verbosely (CUnit prints its "Run Summary"
 * table) and returns the process exit status: 0 only if every assertion held. */
static inline int dc_test_run_all(void)
{
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    unsigned failed = CU_get_number_of_failures() + CU_get_number_of_tests_failed();
    unsigned run = CU_get_number_of_tests_run();
    CU_cleanup_registry();
    if (run == 0) {
        fprintf(stderr, "no test ran\n");
        return 1;
    }
    return failed ? 1 : 0;
}

/* Adds a suite with its tests: DC_TEST_SUITE("name", {"t1", fn1}, {"t2", fn2}) */
typedef struct dc_test_case {
    const char *name;
    void (*fn)(void);
} dc_test_case;

static inline int dc_test_add_suite(const char *name, const dc_test_case *cases, size_t n)
{
    CU_pSuite suite = CU_add_suite(name, NULL, NULL);
    if (!suite)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!CU_add_test(suite, cases[i].name, cases[i].fn))
            return -1;
    return 0;
}
#define DC_TEST_SUITE(name, ...)                                                   \
    do {                                                                           \
        static const dc_test_case cases_[] = {__VA_ARGS__};                        \
        if (dc_test_add_suite(name, cases_, sizeof cases_ / sizeof cases_[0]) != 0) \
            return -1;                                                             \
    } while (0)

/* The whole main() of a test program whose suites register_suites() adds. */
static inline int dc_test_main(int (*register_suites)(void))
{
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    if (register_suites() != 0) {
        CU_cleanup_registry();
        return 1;
    }
    return dc_test_run_all();
}

/* dc_test_main inside a fresh scratch directory /tmp/dcsim-test-NAME-XXXXXX
 * (its path written to dir), removed with all it holds afterwards; a failure
 * to remove it fails the program. */
static inline int dc_test_main_in_tmpdir(const char *name, char *dir, size_t size, int (*register_suites)(void))
{
    snprintf(dir, size, "/tmp/dcsim-test-%s-XXXXXX", name);
    if (!mkdtemp(dir))
        return 1;
    int rc = dc_test_main(register_suites);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        rc = rc ? rc : 1;
    return rc;
}

/* Writes text to path; a failure to write ends the test. */
static inline void dc_test_write_text(const char *path, const char *text)
{
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(path, text, strlen(text)), 0);
}

/* Finds "key": in JSON text from `from` on and reads the number after it
 * into *v (NaN for null, and when it is missing).  Returns where the number
 * ends, or NULL if the key is not there or no number follows. */
static inline const char *dc_test_json_number(const char *from, const char *key, double *v)
{
    *v = NAN;
    char pat[256];
    snprintf(pat, sizeof pat, "\"%s\":", key);
    const char *p = strstr(from, pat);
    if (!p)
        return NULL;
    p += strlen(pat);
    while (*p == ' ')
        p++;
    if (strncmp(p, "null", 4) == 0) {
        *v = NAN;
        return p + 4;
    }
    char *end;
    *v = strtod(p, &end);
    return end != p ? end : NULL;
}

/* Two-sided 99% normal quantile, for Poisson/normal confidence intervals. */
#define DC_Z99 2.5758293035489004

#endif
