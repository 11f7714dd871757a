/* A non-homogeneous Poisson process with a daily and a weekly pattern and steady growth.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A non-homogeneous Poisson process with a daily and a weekly pattern and
 * steady growth:
 *
 *     lambda(t) = base x daily(hour of day) x weekly(day of week) x e^(k t),
 *     k = ln(1 + growth per year) / (365.25 days)
 *
 * daily() is piecewise constant: factor i holds from from_s[i] to
 * from_s[i + 1] (seconds after midnight; the last one until midnight, and
 * before from_s[0] the last one still holds: the pattern wraps).  weekly()
 * is one factor per day, day 0 starting at t = 0.  Within a piece the rate
 * is c e^(k t), so the integral is closed-form,
 *     Lambda(a, b) = c (e^(k b) - e^(k a)) / k      (c (b - a) when k = 0),
 * and the next arrival after a is exact by inversion: with E ~ Exp(1),
 * t = a + ln(1 + k E e^(-k a) / c) / k when E < Lambda(a, end of piece),
 * else E -= Lambda(a, end) and the next piece.  (Lewis and Shedler 1979;
 * Ross, "Simulation", sec. 5.5.) */
#ifndef DC_NHPP_H
#define DC_NHPP_H

#include <stddef.h>

#define DC_NHPP_DAY_S 86400.0
#define DC_NHPP_YEAR_S (365.25 * 86400.0)

typedef struct dc_nhpp {
    double base_per_s;
    double *from_s;   /* increasing, in [0, 86400) */
    double *factor;
    size_t n_daily;   /* at least 1 */
    double weekly[7];
    double k_per_s;   /* growth exponent */
} dc_nhpp;

/* A constant rate base_per_s (daily and weekly factors 1, no growth);
 * DC_OK or DC_ENOMEM. */
int dc_nhpp_init(dc_nhpp *p, double base_per_s);
/* Replaces the daily pattern (from_s increasing in [0, 86400), n >= 1). */
int dc_nhpp_set_daily(dc_nhpp *p, const double *from_s, const double *factor, size_t n);
void dc_nhpp_set_growth(dc_nhpp *p, double growth_per_year);
void dc_nhpp_free(dc_nhpp *p);

double dc_nhpp_rate(const dc_nhpp *p, double t_s);
/* The expected number of arrivals in [a_s, b_s]. */
double dc_nhpp_integral(const dc_nhpp *p, double a_s, double b_s);
/* The first arrival after t_s given the Exp(1) draw e, or INFINITY if it
 * falls after limit_s. */
double dc_nhpp_next(const dc_nhpp *p, double t_s, double e, double limit_s);

#endif
