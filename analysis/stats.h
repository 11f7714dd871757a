/* Statistics of Monte Carlo replications (GSL): the formulas and their interface.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Statistics of Monte Carlo replications (GSL).
 *
 * For the n finite values x_1..x_n of a figure (NaN marks a figure a run did
 * not have, such as the completion time of an unfinished job):
 *   mean          xbar = sum x / n                        (gsl_stats_mean)
 *   sd            s = sqrt(sum (x - xbar)^2 / (n - 1))    (gsl_stats_sd)
 *   95% CI        xbar -/+ t(0.975, n-1) s / sqrt(n)      (Student t; gsl_cdf_tdist_Pinv)
 *   percentiles   P5, P50, P90, P95, P99: linear interpolation between
 *                 order statistics, Q(p) = x_(i) + (h - i)(x_(i+1) - x_(i)),
 *                 h = (n - 1) p (Hyndman & Fan type 7, R's default;
 *                 gsl_stats_quantile_from_sorted_data)
 *   value at risk VaR_a = Q(a): the cost that is exceeded with probability
 *                 1 - a; conditional VaR (expected shortfall) CVaR_a = mean of
 *                 the values >= VaR_a
 *   probability   k events in n trials: p = k/n with the Wilson score
 *                 interval (Wilson 1927), which keeps its coverage near p = 0
 *                 and 1 where the normal approximation fails
 *   sensitivity   Spearman rank correlation rho of an input with an output
 *                 (gsl_stats_spearman), and standardised rank regression
 *                 coefficients (SRRC: the least-squares fit of the output's
 *                 ranks on all inputs' ranks, each standardised; its R^2 says
 *                 how much of the output's rank variance the inputs explain
 *                 together, Saltelli et al. 2004, "Sensitivity analysis in
 *                 practice", sec. 1.2.4)
 * With n = 1 the sd and the interval are NaN; with n = 0 everything is. */
#ifndef DC_STATS_H
#define DC_STATS_H

#include <stddef.h>

#include "error.h"

typedef struct dc_stats {
    size_t n;      /* values given */
    size_t n_nan;  /* of which NaN (left out of everything below) */
    double mean, sd, ci_lo, ci_hi;
    double min, max;
    double p5, p50, p90, p95, p99;
} dc_stats;

/* x[i * stride] for i < n.  DC_ENOMEM or DC_OK. */
int dc_stats_compute(const double *x, size_t n, size_t stride, dc_stats *out);

/* Q(p) of values sorted in increasing order (type 7 above). */
double dc_stats_quantile_sorted(const double *sorted, size_t n, double p);

/* VaR_level and CVaR_level of the finite values of x[i * stride]; NaN when none. */
int dc_stats_var(const double *x, size_t n, size_t stride, double level, double *var, double *cvar);

/* Wilson score interval of k successes in n trials at two-sided level (0.95). */
void dc_stats_proportion(size_t k, size_t n, double level, double *p, double *lo, double *hi);

/* Spearman's rho of (x[i*sx], y[i*sy]) over the pairs where both are finite;
 * NaN when fewer than 3 or one of them is constant. */
double dc_stats_spearman(const double *x, size_t sx, const double *y, size_t sy, size_t n);

/* Standardised rank regression of y on the k columns x[i*sx + j]: srrc[j]
 * and *r2.  Constant columns get srrc 0 and are left out of the fit; rows
 * with a NaN are skipped.  NaN results when fewer rows than columns + 2. */
int dc_stats_rank_regression(const double *x, size_t sx, size_t k, const double *y, size_t sy, size_t n,
                             double *srrc, double *r2);

#endif
