/* Per-grid-point statistics, risk and sensitivity of a sweep's results.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Per-grid-point statistics, risk and sensitivity (see sweep_report.h). */
#include "sweep_report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "uncertain.h"

void dc_sweep_report_destroy(dc_sweep_report *r)
{
    if (!r)
        return;
    for (size_t g = 0; r->pt && g < r->points; g++) {
        free(r->pt[g].stats);
        free(r->pt[g].rho);
        free(r->pt[g].srrc);
        free(r->pt[g].r2);
    }
    free(r->pt);
    for (size_t i = 0; i < r->n_inputs; i++)
        free(r->input_names[i]);
    free(r->input_names);
    free(r->input_keys);
    free(r->input_cols);
    free(r->metric_cols);
    free(r);
}

/* The distinct streams of grid point 0's uncertain inputs. */
static int find_inputs(const dc_sweep *sw, const dc_sweep_table *t, dc_sweep_report *r)
{
    const dc_scenario *sc = dc_sweep_scenario(sw, 0);
    size_t n = dc_scenario_uncertain_count(sc);
    r->input_names = calloc(n ? n : 1, sizeof *r->input_names);
    r->input_keys = calloc(n ? n : 1, sizeof *r->input_keys);
    r->input_cols = calloc(n ? n : 1, sizeof *r->input_cols);
    if (!r->input_names || !r->input_keys || !r->input_cols)
        return DC_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const dc_uncertain *u = dc_scenario_uncertain(sc, i);
        size_t k = 0;
        while (k < r->n_inputs && strcmp(r->input_names[k], u->stream + strlen("uncertain.")) != 0)
            k++;
        if (k < r->n_inputs) {
            r->input_keys[k]++;
            continue;
        }
        char col[DC_UNCERTAIN_PATH_MAX + 16];
        snprintf(col, sizeof col, "input.%s", u->path);
        r->input_cols[k] = dc_sweep_table_column(t, col);
        if (!(r->input_names[k] = strdup(u->stream + strlen("uncertain."))))
            return DC_ENOMEM;
        r->input_keys[k] = 1;
        r->n_inputs++;
    }
    return DC_OK;
}

int dc_sweep_report_build(const dc_sweep *sw, const dc_sweep_table *t, const char *const *metrics,
                          size_t n_metrics, const char *risk, double var_level, dc_sweep_report **out,
                          dc_error *err)
{
    dc_sweep_report *r = calloc(1, sizeof *r);
    if (!r)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    r->points = dc_sweep_points(sw);
    r->reps = dc_sweep_reps(sw);
    r->n_cols = t->n_cols;
    r->var_level = var_level;
    int rc = DC_OK;
    r->metric_cols = calloc(n_metrics ? n_metrics : 1, sizeof *r->metric_cols);
    r->pt = calloc(r->points, sizeof *r->pt);
    if (!r->metric_cols || !r->pt || find_inputs(sw, t, r) != DC_OK) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t m = 0; m < n_metrics; m++) {
        r->metric_cols[m] = dc_sweep_table_column(t, metrics[m]);
        if (r->metric_cols[m] < 0) {
            rc = dc_error_set(err, DC_EINPUT, "--metrics: the runs have no figure named '%s'", metrics[m]);
            goto fail;
        }
    }
    r->n_metrics = n_metrics;
    r->risk_col = dc_sweep_table_column(t, risk ? risk : "cost.total_usd");
    if (risk && r->risk_col < 0) {
        rc = dc_error_set(err, DC_EINPUT, "--risk: the runs have no figure named '%s'", risk);
        goto fail;
    }
    long miss = dc_sweep_table_column(t, "deadline.missed");
    long completed = dc_sweep_table_column(t, "job.completed");
    r->has_deadline = miss >= 0;
    r->has_miss = miss >= 0 || completed >= 0;

    size_t reps = r->reps, nc = t->n_cols, ni = r->n_inputs;
    double *xin = malloc((reps * (ni ? ni : 1)) * sizeof *xin);
    if (!xin) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t g = 0; g < r->points && rc == DC_OK; g++) {
        dc_sweep_point_report *p = &r->pt[g];
        const double *base = t->values + g * reps * nc;
        p->stats = calloc(nc ? nc : 1, sizeof *p->stats);
        size_t cells = n_metrics * ni;
        p->rho = calloc(cells ? cells : 1, sizeof *p->rho);
        p->srrc = calloc(cells ? cells : 1, sizeof *p->srrc);
        p->r2 = calloc(n_metrics ? n_metrics : 1, sizeof *p->r2);
        if (!p->stats || !p->rho || !p->srrc || !p->r2) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        for (size_t j = 0; j < nc && rc == DC_OK; j++)
            if (dc_stats_compute(base + j, reps, nc, &p->stats[j]) != DC_OK)
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        p->miss_p = p->miss_lo = p->miss_hi = p->var = p->cvar = NAN;
        if (r->has_miss) {
            for (size_t i = 0; i < reps; i++) {
                double v = r->has_deadline ? base[i * nc + (size_t)miss] : base[i * nc + (size_t)completed];
                if (isnan(v))
                    continue;
                p->miss_n++;
                if (r->has_deadline ? v > 0.5 : v < 0.5)
                    p->miss_k++;
            }
            dc_stats_proportion(p->miss_k, p->miss_n, 0.95, &p->miss_p, &p->miss_lo, &p->miss_hi);
        }
        if (r->risk_col >= 0 &&
            dc_stats_var(base + r->risk_col, reps, nc, var_level, &p->var, &p->cvar) != DC_OK)
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        for (size_t i = 0; i < reps; i++)
            for (size_t k = 0; k < ni; k++)
                xin[i * ni + k] = r->input_cols[k] >= 0 ? base[i * nc + (size_t)r->input_cols[k]] : NAN;
        for (size_t m = 0; m < n_metrics && rc == DC_OK; m++) {
            const double *y = base + r->metric_cols[m];
            for (size_t k = 0; k < ni; k++)
                p->rho[m * ni + k] = dc_stats_spearman(xin + k, ni, y, nc, reps);
            p->r2[m] = NAN;
            if (ni > 0 && dc_stats_rank_regression(xin, ni, ni, y, nc, reps, p->srrc + m * ni, &p->r2[m]) != DC_OK)
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        }
    }
    free(xin);
    if (rc != DC_OK)
        goto fail;
    *out = r;
    return DC_OK;
fail:
    dc_sweep_report_destroy(r);
    return rc;
}
