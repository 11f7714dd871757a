/* A non-homogeneous Poisson process with daily and weekly patterns and growth, sampled exactly.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "nhpp.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"

int dc_nhpp_init(dc_nhpp *p, double base_per_s)
{
    memset(p, 0, sizeof *p);
    p->base_per_s = base_per_s;
    p->from_s = malloc(sizeof *p->from_s);
    p->factor = malloc(sizeof *p->factor);
    if (!p->from_s || !p->factor) {
        dc_nhpp_free(p);
        return DC_ENOMEM;
    }
    p->from_s[0] = 0.0;
    p->factor[0] = 1.0;
    p->n_daily = 1;
    for (int d = 0; d < 7; d++)
        p->weekly[d] = 1.0;
    return DC_OK;
}

int dc_nhpp_set_daily(dc_nhpp *p, const double *from_s, const double *factor, size_t n)
{
    double *f = malloc(n * sizeof *f), *c = malloc(n * sizeof *c);
    if (!f || !c) {
        free(f);
        free(c);
        return DC_ENOMEM;
    }
    memcpy(f, from_s, n * sizeof *f);
    memcpy(c, factor, n * sizeof *c);
    free(p->from_s);
    free(p->factor);
    p->from_s = f;
    p->factor = c;
    p->n_daily = n;
    return DC_OK;
}

void dc_nhpp_set_growth(dc_nhpp *p, double growth_per_year)
{
    p->k_per_s = log1p(growth_per_year) / DC_NHPP_YEAR_S;
}

void dc_nhpp_free(dc_nhpp *p)
{
    free(p->from_s);
    free(p->factor);
    p->from_s = p->factor = NULL;
    p->n_daily = 0;
}

/* The piece holding t: its constant c (rate = c e^(k t)) and its end. */
static void piece(const dc_nhpp *p, double t, double *c, double *end)
{
    double day = floor(t / DC_NHPP_DAY_S);
    double tod = t - day * DC_NHPP_DAY_S;
    if (tod < 0.0) /* rounding just below a midnight */
        tod = 0.0;
    size_t i = p->n_daily; /* the last entry starting at or before tod */
    while (i > 0 && p->from_s[i - 1] > tod)
        i--;
    double f = i > 0 ? p->factor[i - 1] : p->factor[p->n_daily - 1];
    double next = i < p->n_daily ? p->from_s[i] : DC_NHPP_DAY_S;
    long wd = (long)fmod(day, 7.0);
    if (wd < 0)
        wd += 7;
    *c = p->base_per_s * f * p->weekly[wd];
    *end = day * DC_NHPP_DAY_S + next;
    if (!(*end > t)) /* t sat on a boundary that rounding put behind it */
        *end = nextafter(t, INFINITY);
}

double dc_nhpp_rate(const dc_nhpp *p, double t_s)
{
    double c, end;
    piece(p, t_s, &c, &end);
    return c * exp(p->k_per_s * t_s);
}

/* Integral of c e^(k t) over [a, b]. */
static double seg_integral(double c, double k, double a, double b)
{
    if (k == 0.0)
        return c * (b - a);
    return c * exp(k * a) * expm1(k * (b - a)) / k;
}

double dc_nhpp_integral(const dc_nhpp *p, double a_s, double b_s)
{
    double sum = 0.0, t = a_s;
    while (t < b_s) {
        double c, end;
        piece(p, t, &c, &end);
        double e = end < b_s ? end : b_s;
        if (c > 0.0)
            sum += seg_integral(c, p->k_per_s, t, e);
        t = e;
    }
    return sum;
}

double dc_nhpp_next(const dc_nhpp *p, double t_s, double e, double limit_s)
{
    double t = t_s, k = p->k_per_s;
    while (t < limit_s) {
        double c, end;
        piece(p, t, &c, &end);
        if (c > 0.0) {
            double m = seg_integral(c, k, t, end);
            if (e < m) {
                double x = k == 0.0 ? e / c : log1p(k * e * exp(-k * t) / c) / k;
                double at = t + x;
                if (at > end) /* rounding at the piece's end */
                    at = end;
                return at <= limit_s ? at : INFINITY;
            }
            e -= m;
        }
        t = end;
    }
    return INFINITY;
}
