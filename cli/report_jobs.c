/* dcsim report --jobs: the trace's /jobs table as a person reads it, one line per job and a total.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "trace_read.h"

static long col_of(const dc_table *t, const char *name)
{
    for (size_t c = 0; c < dc_table_columns(t); c++)
        if (strcmp(dc_table_column_name(t, c), name) == 0)
            return (long)c;
    return -1;
}

static double num(const dc_table *t, size_t r, long c)
{
    if (c < 0)
        return NAN;
    return dc_table_column_type(t, (size_t)c) == DC_COL_INT ? (double)dc_table_int(t, r, (size_t)c)
                                                            : dc_table_real(t, r, (size_t)c);
}

static const char *txt(const dc_table *t, size_t r, long c)
{
    return c < 0 ? "" : dc_table_text(t, r, (size_t)c);
}

int dc_report_jobs(dc_trace_file *tf, const char *path, dc_error *err)
{
    bool has = false;
    int rc = dc_trace_has_dataset(tf, "/jobs", &has, err);
    if (rc != DC_OK)
        return rc;
    if (!has)
        return dc_error_set(err, DC_EINPUT,
                            "trace '%s' has no /jobs table (written by an older dcsim, or a run without jobs)", path);
    dc_table *t = dc_table_create();
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    rc = dc_trace_read_table(tf, "/jobs", t, err);
    if (rc != DC_OK) {
        dc_table_destroy(t);
        return rc;
    }
    long c_job = col_of(t, "job"), c_name = col_of(t, "name"), c_class = col_of(t, "class");
    long c_nodes = col_of(t, "nodes"), c_racks = col_of(t, "racks"), c_pods = col_of(t, "pods");
    long c_submit = col_of(t, "submit_h"), c_start = col_of(t, "start_h"), c_end = col_of(t, "end_h");
    long c_wait = col_of(t, "wait_h"), c_state = col_of(t, "state"), c_total = col_of(t, "gpu_hours.total");
    long c_useful = col_of(t, "gpu_hours.useful"), c_comm = col_of(t, "comm_share");
    long c_step = col_of(t, "mean_step_s"), c_intr = col_of(t, "interruptions");
    size_t n = dc_table_rows(t);
    printf("%zu jobs in %s (GPU-h: held; useful: its share of them; comm: exposed communication's share of the "
           "running GPU-hours; step_s: mean step)\n\n",
           n, path);
    printf("%6s %-24s %-12s %6s %5s %4s %9s %9s %9s %8s %-13s %11s %6s %6s %8s %5s\n", "job", "name", "class",
           "nodes", "racks", "pods", "submit_h", "start_h", "end_h", "wait_h", "state", "GPU-h", "useful", "comm",
           "step_s", "intr");
    double total = 0, useful = 0, wait = 0;
    size_t started = 0;
    for (size_t r = 0; r < n; r++) {
        double tot = num(t, r, c_total), use = num(t, r, c_useful);
        printf("%6.0f %-24.24s %-12.12s %6.0f %5.0f %4.0f %9.2f %9.2f %9.2f %8.2f %-13.13s %11.1f %6.3f %6.3f %8.3f "
               "%5.0f\n",
               num(t, r, c_job), txt(t, r, c_name), txt(t, r, c_class), num(t, r, c_nodes), num(t, r, c_racks),
               num(t, r, c_pods), num(t, r, c_submit), num(t, r, c_start), num(t, r, c_end), num(t, r, c_wait),
               txt(t, r, c_state), tot, tot > 0 ? use / tot : NAN, num(t, r, c_comm), num(t, r, c_step),
               num(t, r, c_intr));
        total += tot;
        useful += use;
        if (!isnan(num(t, r, c_start))) {
            started++;
            wait += num(t, r, c_wait);
        }
    }
    printf("\nall jobs: %.1f GPU-h held, %.1f useful (%.3f); %zu of %zu started, mean wait %.2f h\n", total, useful,
           total > 0 ? useful / total : NAN, started, n, started ? wait / (double)started : NAN);
    dc_table_destroy(t);
    return DC_OK;
}
