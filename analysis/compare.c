/* Summaries of several traces side by side with relative differences (dcsim compare).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "compare.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double dc_compare_reldiff(double first, double other)
{
    if (!isfinite(first) || !isfinite(other))
        return NAN;
    if (first == 0.0)
        return other == 0.0 ? 0.0 : NAN;
    return (other - first) / fabs(first);
}

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

int dc_compare_table(const dc_summary *const *runs, const char *const *names, size_t n,
                     dc_table *out, dc_error *err)
{
    if (!runs || !names || n == 0 || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_compare_table: bad arguments");
    if (dc_table_add_column(out, "key", DC_COL_TEXT) != DC_OK ||
        dc_table_add_column(out, "unit", DC_COL_TEXT) != DC_OK)
        return nomem(err);
    for (size_t j = 0; j < n; j++)
        if (dc_table_add_column(out, names[j], DC_COL_REAL) != DC_OK)
            return nomem(err);
    for (size_t j = 1; j < n; j++) {
        size_t len = strlen(names[j]) + 5;
        char *col = malloc(len);
        if (!col)
            return nomem(err);
        snprintf(col, len, "rel_%s", names[j]);
        int rc = dc_table_add_column(out, col, DC_COL_REAL);
        free(col);
        if (rc != DC_OK)
            return nomem(err);
    }
    for (size_t j = 0; j < n; j++) {
        for (size_t i = 0; i < dc_summary_count(runs[j]); i++) {
            const char *key = dc_summary_key(runs[j], i);
            /* Rows already made by an earlier run hold this key. */
            bool seen = false;
            for (size_t p = 0; p < j && !seen; p++) {
                double v;
                seen = dc_summary_get(runs[p], key, &v);
            }
            if (seen)
                continue;
            size_t row;
            if (dc_table_add_row(out, &row) != DC_OK || dc_table_set_text(out, row, 0, key) != DC_OK ||
                dc_table_set_text(out, row, 1, dc_summary_unit(runs[j], i)) != DC_OK)
                return nomem(err);
            double first = NAN;
            for (size_t q = 0; q < n; q++) {
                double v = NAN;
                if (!dc_summary_get(runs[q], key, &v))
                    v = NAN;
                dc_table_set_real(out, row, 2 + q, v);
                if (q == 0)
                    first = v;
                else
                    dc_table_set_real(out, row, 2 + n + q - 1, dc_compare_reldiff(first, v));
            }
        }
    }
    return DC_OK;
}
