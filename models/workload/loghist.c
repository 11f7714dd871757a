/* A weighted log-scale histogram for latency percentiles in fixed memory.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "loghist.h"

#include <math.h>
#include <stdlib.h>

#include "error.h"

int dc_loghist_init(dc_loghist *h)
{
    h->w = calloc(DC_LOGHIST_BINS, sizeof *h->w);
    h->under = h->over = h->total_w = h->sum_wx = 0.0;
    return h->w ? DC_OK : DC_ENOMEM;
}

void dc_loghist_free(dc_loghist *h)
{
    free(h->w);
    h->w = NULL;
}

/* frexp gives x = m 2^e with m in [0.5, 1): the bin is (e, m) on a linear
 * grid of the mantissa. */
static long bin_of(double x)
{
    int e;
    double m = frexp(x, &e);
    long b = (long)(e - 1 - DC_LOGHIST_MIN_EXP) * DC_LOGHIST_SUB + (long)((m * 2.0 - 1.0) * DC_LOGHIST_SUB);
    return b;
}

static double bin_low(long b)
{
    long e = b / DC_LOGHIST_SUB + DC_LOGHIST_MIN_EXP;
    double f = 1.0 + (double)(b % DC_LOGHIST_SUB) / DC_LOGHIST_SUB;
    return ldexp(f, (int)e);
}

void dc_loghist_add(dc_loghist *h, double x, double weight)
{
    h->total_w += weight;
    h->sum_wx += weight * x;
    if (!(x >= ldexp(1.0, DC_LOGHIST_MIN_EXP))) {
        h->under += weight;
        return;
    }
    long b = bin_of(x);
    if (b >= DC_LOGHIST_BINS) {
        h->over += weight;
        return;
    }
    h->w[b] += weight;
}

double dc_loghist_quantile(const dc_loghist *h, double q)
{
    if (!(h->total_w > 0.0))
        return NAN;
    double target = q * h->total_w;
    if (target <= h->under)
        return 0.0;
    double acc = h->under;
    for (long b = 0; b < DC_LOGHIST_BINS; b++) {
        if (h->w[b] <= 0.0)
            continue;
        if (acc + h->w[b] >= target) {
            double lo = bin_low(b), hi = bin_low(b + 1);
            double f = (target - acc) / h->w[b];
            return lo + f * (hi - lo);
        }
        acc += h->w[b];
    }
    return ldexp(1.0, DC_LOGHIST_MAX_EXP);
}

double dc_loghist_mean(const dc_loghist *h)
{
    return h->total_w > 0.0 ? h->sum_wx / h->total_w : NAN;
}
