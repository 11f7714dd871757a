/* dcsim report --jobs: the trace's /jobs table as a person reads it, one line per job, a total and the pools' lending.
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

static double fig(const dc_summary *sum, const char *pool, const char *what)
{
    char key[160];
    double v = NAN;
    snprintf(key, sizeof key, "pool.%s.%s", pool, what);
    dc_summary_get(sum, key, &v);
    return v;
}

/* With virtual clusters lending (pool.NAME.lent_gpu_h in the summary), a
 * line per pool: its own, lent and borrowed GPU-hours and its reclaims. */
static int pools_block(dc_trace_file *tf, dc_error *err)
{
    dc_summary *sum = dc_summary_create();
    if (!sum)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    int rc = dc_trace_read_summary(tf, sum, err);
    bool header = false;
    for (size_t i = 0; rc == DC_OK && i < dc_summary_count(sum); i++) {
        const char *k = dc_summary_key(sum, i), *tail = ".lent_gpu_h";
        size_t n = strlen(k), nt = strlen(tail);
        if (strncmp(k, "pool.", 5) != 0 || n <= 5 + nt || strcmp(k + n - nt, tail) != 0)
            continue;
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(n - 5 - nt), k + 5);
        if (!header) {
            printf("\nvirtual clusters (GPU-h: own: its nodes held by its own jobs and services; lent: its nodes held "
                   "by other pools' jobs; borrowed: other pools' nodes held by its jobs)\n\n");
            printf("%-24s %6s %6s %8s %11s %11s %11s %8s %8s %9s\n", "pool", "nodes", "jobs", "wait_h", "own", "lent",
                   "borrowed", "borrows", "reclaims", "reclaimed");
            header = true;
        }
        printf("%-24.24s %6.0f %6.0f %8.2f %11.1f %11.1f %11.1f %8.0f %8.0f %9.0f\n", name, fig(sum, name, "nodes"),
               fig(sum, name, "jobs"), fig(sum, name, "wait_mean_h"), fig(sum, name, "own_gpu_h"),
               dc_summary_value(sum, i), fig(sum, name, "borrowed_gpu_h"), fig(sum, name, "borrow_starts"),
               fig(sum, name, "lend_reclaims"), fig(sum, name, "reclaimed"));
    }
    dc_summary_destroy(sum);
    return rc;
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
    return pools_block(tf, err);
}
