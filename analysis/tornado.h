/* Tornado: one-at-a-time sensitivity of a sweep's figures to its uncertain inputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Tornado: one-at-a-time sensitivity of a sweep's figures to its uncertain
 * inputs.
 *
 * For each grid point g and each input k (inputs sharing a stream count as
 * one), the figures are averaged over n replications (seeds S..S+n-1, the
 * sweep's first n) in 2K + 1 settings: every input at its median (the base),
 * and input k at its quantile p_lo (then p_hi) with the others at their
 * medians.  The same seeds in every setting (common random numbers) make the
 * differences those of the inputs, not of the failure draws.  The swing of
 * input k is |mean at p_hi - mean at p_lo|; sorted by swing, the inputs form
 * the tornado diagram, the widest bar the input that matters most.  It
 * complements the rank correlations (sweep_report.h), which measure each
 * input's effect over the whole joint distribution rather than one at a time. */
#ifndef DC_TORNADO_H
#define DC_TORNADO_H

#include <stddef.h>

#include "sweep.h"

typedef struct dc_tornado {
    size_t points, n_inputs, n_metrics, reps;
    double p_lo, p_hi;
    char **inputs;   /* stream names (the key's path when not shared) */
    char **metrics;
    double *base;    /* [g][m] */
    double *lo, *hi; /* [g][k][m] */
} dc_tornado;

/* Runs the 2K + 1 settings at every grid point (reps seeds each) on
 * `threads` threads and averages each figure over its finite values. */
int dc_tornado_run(dc_sweep *sw, const char *const *metrics, size_t n_metrics, size_t reps, double p_lo,
                   double p_hi, size_t threads, dc_tornado **out, dc_error *err);
void dc_tornado_destroy(dc_tornado *t);

/* Swing of input k for metric m at grid point g. */
double dc_tornado_swing(const dc_tornado *t, size_t g, size_t k, size_t m);

#endif
