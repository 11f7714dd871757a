/* A bad scenario run as the dcsim program: exit status 2, a message naming what is wrong, no output.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "badinput.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CUnit/Basic.h>

#include "runner.h"

bool dc_test_bad_run(const char *dir, const char *what, const char *cfg, const char *const *extra,
                     const char *const *frags, size_t n_frags)
{
    char cfg_path[512], trace[512];
    snprintf(cfg_path, sizeof cfg_path, "%s/bad.cfg", dir);
    snprintf(trace, sizeof trace, "%s/bad.h5", dir);
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(cfg_path, cfg, strlen(cfg)), 0);
    const char *args[64] = {"run", cfg_path, "-o", trace};
    size_t n = 4;
    for (size_t i = 0; extra && extra[i] && n < 63; i++)
        args[n++] = extra[i];
    args[n] = NULL;
    dc_runner_result r = dc_runner_dcsim(args, NULL);
    struct stat st;
    bool left = stat(trace, &st) == 0;
    bool ok = r.status == 2 && r.out[0] == '\0' && strncmp(r.err, "dcsim", 5) == 0 && !left;
    for (size_t k = 0; k < n_frags; k++)
        if (frags[k] && !strstr(r.err, frags[k])) {
            fprintf(stderr, "\n  bad input '%s': '%s' not in the message", what, frags[k]);
            ok = false;
        }
    if (!ok)
        fprintf(stderr, "\n  bad input '%s': status %d%s%s, stderr: %s", what, r.status,
                r.out[0] ? ", output on stdout" : "", left ? ", a trace left behind" : "", r.err);
    CU_ASSERT(ok);
    dc_runner_free(&r);
    unlink(trace);
    unlink(cfg_path);
    return ok;
}
