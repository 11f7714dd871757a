/* The exporter of the figure of a sizing search: P50/P90 of days and TCO against the job's GPUs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Kind "size" (plots/size.gp): the runs grouped by job.gpus; per group the
 * type-7 P50 and P90 (stats.h) of job.completion_days, a run whose job did
 * not finish (job.completed = 0) counting as infinitely late (a quantile
 * that reaches one is left out: censored), and of cost.tco_usd over the
 * runs that have it; the share of the runs that finished within
 * deadline.days.  dcsim size draws it from every replication of every size
 * it searched, with size.confidence and size.answer_gpus; it draws any runs
 * with those figures too (dcsim plot --kind size --scan FILE --vary job.nodes=...). */
#include <math.h>
#include <stdlib.h>

#include "plot.h"
#include "plot_export.h"
#include "stats.h"

typedef struct size_ctx {
    double deadline;
    size_t censored;
    bool has_cost;
    int rc;
} size_ctx;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Quantile p of n sorted values, INFINITY where it reaches an infinite one. */
static double censored_quantile(const double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double h = (double)(n - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= n)
        return v[n - 1];
    double f = h - (double)i;
    if (isinf(v[i]) || (f > 0.0 && isinf(v[i + 1])))
        return INFINITY;
    return v[i] + f * (v[i + 1] - v[i]);
}

static void size_row(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m)
{
    size_ctx *c = ctx;
    double *days = malloc((m ? m : 1) * sizeof *days), *tco = malloc((m ? m : 1) * sizeof *tco);
    if (!days || !tco) {
        c->rc = DC_ENOMEM;
        free(days);
        free(tco);
        return;
    }
    size_t nt = 0, in_time = 0;
    for (size_t k = 0; k < m; k++) {
        const dc_summary *s = runs[idx[k]].summary;
        double d = dc_plot_get(s, "job.completion_days"), done = dc_plot_get(s, "job.completed");
        days[k] = done > 0.0 && isfinite(d) ? d : INFINITY;
        in_time += days[k] <= c->deadline;
        double t = dc_plot_get(s, "cost.tco_usd");
        if (isfinite(t))
            tco[nt++] = t;
    }
    qsort(days, m, sizeof *days, cmp);
    qsort(tco, nt, sizeof *tco, cmp);
    double q[2] = {censored_quantile(days, m, 0.5), censored_quantile(days, m, 0.9)};
    for (size_t j = 0; j < 2; j++)
        if (isinf(q[j])) {
            q[j] = NAN;
            c->censored++;
        }
    c->has_cost = c->has_cost || nt > 0;
    dc_plot_put(f, x);
    fputc(',', f);
    dc_plot_put(f, q[0]);
    fputc(',', f);
    dc_plot_put(f, q[1]);
    fputc(',', f);
    dc_plot_put(f, nt ? dc_stats_quantile_sorted(tco, nt, 0.5) : NAN);
    fputc(',', f);
    dc_plot_put(f, nt ? dc_stats_quantile_sorted(tco, nt, 0.9) : NAN);
    fputc(',', f);
    dc_plot_put(f, isfinite(c->deadline) ? (double)in_time / (double)m : NAN);
    fprintf(f, ",%zu\n", m);
    free(days);
    free(tco);
}

int dc_plot_export_size(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d, dc_error *err)
{
    (void)k;
    size_ctx c = {.deadline = n ? dc_plot_get(runs[0].summary, "deadline.days") : NAN, .rc = DC_OK};
    int rc = dc_plot_export_by_x(d, "size.csv", "# gpus,days_p50,days_p90,tco_p50_usd,tco_p90_usd,share_in_time,runs\n",
                                 runs, n, "job.gpus", size_row, &c, err);
    if (rc == DC_OK && c.rc != DC_OK)
        rc = dc_error_set(err, c.rc, "out of memory");
    if (rc != DC_OK)
        return rc;
    dc_plot_var_number(d, "deadline", c.deadline);
    dc_plot_var_number(d, "confidence", n ? dc_plot_get(runs[0].summary, "size.confidence") : NAN);
    dc_plot_var_number(d, "answer", n ? dc_plot_get(runs[0].summary, "size.answer_gpus") : NAN);
    dc_plot_var_number(d, "censored", (double)c.censored);
    dc_plot_var_number(d, "has_cost", c.has_cost ? 1.0 : 0.0);
    return DC_OK;
}
