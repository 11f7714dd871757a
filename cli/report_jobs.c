/* dcsim report --jobs: the trace's /jobs table as a person reads it, one line per job and a total.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "table.h"
#include "trace_read.h"

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
    long c_job = dc_table_column_index(t, "job"), c_name = dc_table_column_index(t, "name"),
         c_class = dc_table_column_index(t, "class");
    long c_nodes = dc_table_column_index(t, "nodes"), c_racks = dc_table_column_index(t, "racks"),
         c_pods = dc_table_column_index(t, "pods");
    long c_submit = dc_table_column_index(t, "submit_h"), c_start = dc_table_column_index(t, "start_h"),
         c_end = dc_table_column_index(t, "end_h");
    long c_wait = dc_table_column_index(t, "wait_h"), c_state = dc_table_column_index(t, "state"),
         c_total = dc_table_column_index(t, "gpu_hours.total");
    long c_useful = dc_table_column_index(t, "gpu_hours.useful"), c_comm = dc_table_column_index(t, "comm_share");
    long c_step = dc_table_column_index(t, "mean_step_s"), c_intr = dc_table_column_index(t, "interruptions");
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
        double tot = dc_table_number(t, r, c_total), use = dc_table_number(t, r, c_useful);
        printf("%6.0f %-24.24s %-12.12s %6.0f %5.0f %4.0f %9.2f %9.2f %9.2f %8.2f %-13.13s %11.1f %6.3f %6.3f %8.3f "
               "%5.0f\n",
               dc_table_number(t, r, c_job), txt(t, r, c_name), txt(t, r, c_class), dc_table_number(t, r, c_nodes),
               dc_table_number(t, r, c_racks), dc_table_number(t, r, c_pods), dc_table_number(t, r, c_submit),
               dc_table_number(t, r, c_start), dc_table_number(t, r, c_end), dc_table_number(t, r, c_wait),
               txt(t, r, c_state), tot, tot > 0 ? use / tot : NAN, dc_table_number(t, r, c_comm),
               dc_table_number(t, r, c_step), dc_table_number(t, r, c_intr));
        total += tot;
        useful += use;
        if (!isnan(dc_table_number(t, r, c_start))) {
            started++;
            wait += dc_table_number(t, r, c_wait);
        }
    }
    printf("\nall jobs: %.1f GPU-h held, %.1f useful (%.3f); %zu of %zu started, mean wait %.2f h\n", total, useful,
           total > 0 ? useful / total : NAN, started, n, started ? wait / (double)started : NAN);
    dc_table_destroy(t);
    return DC_OK;
}
