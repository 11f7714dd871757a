/* What a sweep answers per grid point: statistics, risk against thresholds, sensitivity to inputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* What a sweep answers, per grid point, from its results table (stats.h
 * gives the formulas):
 *  - statistics (n, mean, sd, 95% CI, P5, P50, P90, P95, P99) of every column;
 *  - the probability of missing the deadline: the share of replications
 *    with deadline.missed = 1 (models/cost/cost.h: the job did not finish within
 *    deadline.days, or not at all), with its Wilson 95% interval; without a
 *    deadline, the share of replications whose job did not finish
 *    (job.completed = 0) within the horizon;
 *  - value at risk of the risk figure (by default cost.total_usd) at a
 *    stated level: VaR = its level-quantile over the replications, and CVaR,
 *    the mean of the replications at or beyond it;
 *  - sensitivity: for each uncertain input (inputs sharing a stream count as
 *    one) and each chosen figure, Spearman's rank correlation over the
 *    replications and the standardised rank regression coefficient, with the
 *    regression's R^2.  The input that matters most for a figure is the one
 *    with the largest |rho|. */
#ifndef DC_SWEEP_REPORT_H
#define DC_SWEEP_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"
#include "sweep.h"

typedef struct dc_sweep_point_report {
    dc_stats *stats;            /* [n_cols] */
    size_t miss_k, miss_n;      /* replications that missed, that count */
    double miss_p, miss_lo, miss_hi;
    double var, cvar;           /* of the risk column; NaN without one */
    double *rho, *srrc;         /* [n_metrics x n_inputs] */
    double *r2;                 /* [n_metrics] */
} dc_sweep_point_report;

typedef struct dc_sweep_report {
    size_t points, reps, n_cols;
    bool has_deadline;          /* deadline.missed present; else job.completed */
    bool has_miss;              /* either was found */
    long risk_col;              /* -1: none */
    double var_level;
    size_t n_metrics;
    long *metric_cols;
    size_t n_inputs;            /* distinct streams */
    char **input_names;         /* stream name, or the key's path */
    size_t *input_keys;         /* how many keys share the stream */
    long *input_cols;           /* the input.KEY column of its first key */
    dc_sweep_point_report *pt;  /* [points] */
} dc_sweep_report;

/* metrics: column names (the figures the printed table shows and the
 * sensitivity ranks); risk: the column of the VaR (NULL: cost.total_usd if
 * present).  An unknown name is DC_EINPUT naming it. */
int dc_sweep_report_build(const dc_sweep *sw, const dc_sweep_table *t, const char *const *metrics,
                          size_t n_metrics, const char *risk, double var_level, dc_sweep_report **out,
                          dc_error *err);
void dc_sweep_report_destroy(dc_sweep_report *r);

#endif
