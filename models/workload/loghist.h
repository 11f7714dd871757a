/* A weighted histogram of positive values on a log scale, for percentiles in fixed memory.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A weighted histogram of positive values (latencies) on a log scale, for
 * percentiles over millions of values in fixed memory.
 *
 * Bins: each power of two from 2^-24 (6e-8) to 2^24 (1.7e7) is cut into
 * DC_LOGHIST_SUB equal parts of the mantissa, so a bin is at most 1/SUB
 * wide relative to its lower edge (0.4% with SUB = 256) and a percentile
 * read back (linear within its bin) is within that of the exact one.
 * Values below the range (and zeros) count in an underflow bin read as 0;
 * values above it in an overflow bin read as the top of the range.
 * Weights let the aggregate mode add a sample that stands for many
 * requests. */
#ifndef DC_LOGHIST_H
#define DC_LOGHIST_H

#include <stddef.h>

#define DC_LOGHIST_SUB 256
#define DC_LOGHIST_MIN_EXP (-24)
#define DC_LOGHIST_MAX_EXP 24
#define DC_LOGHIST_BINS ((DC_LOGHIST_MAX_EXP - DC_LOGHIST_MIN_EXP) * DC_LOGHIST_SUB)

typedef struct dc_loghist {
    double *w;       /* DC_LOGHIST_BINS */
    double under, over;
    double total_w;  /* sum of weights */
    double sum_wx;   /* sum of weight x value (for the mean) */
} dc_loghist;

int dc_loghist_init(dc_loghist *h);
void dc_loghist_free(dc_loghist *h);
void dc_loghist_add(dc_loghist *h, double x, double weight);
/* The q-quantile (0 <= q <= 1); NAN when empty. */
double dc_loghist_quantile(const dc_loghist *h, double q);
/* The weighted mean of the values added (exact, not binned); NAN when empty. */
double dc_loghist_mean(const dc_loghist *h);

#endif
