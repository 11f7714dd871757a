/* Summaries of several traces side by side with relative differences: the table behind dcsim
 * compare.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Summaries side by side (dcsim compare).  The table has the columns
 *   key, unit, NAME_1 ... NAME_n, rel_NAME_2 ... rel_NAME_n
 * with one row per figure found in any run (in order of first appearance)
 * and the relative difference to the first run
 *   rel_j = (x_j - x_1) / |x_1|,   0 when x_1 = x_j = 0,
 * NaN when x_1 = 0 < |x_j|, or a value is missing or not finite.
 * A figure a run does not have is NaN in its column. */
#ifndef DC_COMPARE_H
#define DC_COMPARE_H

#include <stddef.h>

#include "error.h"
#include "summary.h"
#include "table.h"

double dc_compare_reldiff(double first, double other);

/* out: a table without columns. */
int dc_compare_table(const dc_summary *const *runs, const char *const *names, size_t n,
                     dc_table *out, dc_error *err);

#endif
