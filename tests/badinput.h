/* A bad scenario run as the dcsim program: exit status 2, a message naming what is wrong, no output.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The check every suite makes of its bad-input cases through the program
 * (DESIGN: bad input gets a clear message naming file, line and key, exit
 * status 2, and leaves no file behind):
 *   cfg text written to DIR/bad.cfg; `dcsim run DIR/bad.cfg -o DIR/bad.h5
 *   EXTRA...` run (tests/runner.h); then exit status 2, nothing on standard
 *   output, standard error starting "dcsim" and holding every fragment, and
 *   no DIR/bad.h5.  Each failed check is a CUnit failure, printed with
 *   `what` and the program's message. */
#ifndef DC_TEST_BADINPUT_H
#define DC_TEST_BADINPUT_H

#include <stdbool.h>
#include <stddef.h>

/* frags: n_frags message fragments (NULL entries are skipped); extra: more
 * arguments after the trace option (NULL-terminated, or NULL).  True when
 * every check held. */
bool dc_test_bad_run(const char *dir, const char *what, const char *cfg, const char *const *extra,
                     const char *const *frags, size_t n_frags);

#endif
