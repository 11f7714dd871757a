/* Probability laws for times (failure, repair, restart...), from GSL.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Probability laws for times (failure, repair, restart...), from GSL.
 *
 *   exponential(mean)          f(t) = e^(-t/mean) / mean
 *   weibull(scale, shape)      F(t) = 1 - exp(-(t/scale)^shape),
 *                              mean = scale * Gamma(1 + 1/shape)
 *   lognormal(mu, sigma)       ln t ~ N(mu, sigma^2), median = e^mu,
 *                              mean = e^(mu + sigma^2/2)
 *   gamma(shape k, scale th)   mean = k th
 *   constant(value)
 *
 * In a scenario a law is a group of keys in hours (the unit people quote
 * MTBFs and repair times in), converted here to seconds:
 *   law = "exponential" | "weibull" | "lognormal" | "gamma" | "constant"
 *   mean_h       the mean (all laws; for weibull it fixes the scale given shape;
 *                for lognormal it fixes mu given sigma; for gamma the scale)
 *   median_h     lognormal only, instead of mean_h (mu = ln median)
 *   scale_h      weibull only, instead of mean_h
 *   shape        weibull and gamma
 *   sigma        lognormal
 * A failure law may give mtbf_h (same as mean_h) or afr (annualised failure
 * rate, failures per unit-year: mean_h = 8766 / afr) instead of mean_h. */
#ifndef DC_DIST_H
#define DC_DIST_H

#include <gsl/gsl_rng.h>
#include <libconfig.h>

#include "error.h"
#include "scenario.h"

typedef enum dc_dist_kind {
    DC_DIST_CONSTANT,
    DC_DIST_EXPONENTIAL,
    DC_DIST_WEIBULL,
    DC_DIST_LOGNORMAL,
    DC_DIST_GAMMA,
} dc_dist_kind;

typedef struct dc_dist {
    dc_dist_kind kind;
    double a; /* constant: value; exponential: mean; weibull: scale; lognormal: mu; gamma: shape */
    double b; /* weibull: shape; lognormal: sigma; gamma: scale */
} dc_dist;

#define DC_HOURS_PER_YEAR 8766.0

double dc_dist_sample(const dc_dist *d, gsl_rng *rng);
double dc_dist_mean(const dc_dist *d);
const char *dc_dist_kind_name(dc_dist_kind kind);

/* Reads a law from the keys of group (see above); times come out in seconds.
 * Errors name the group's file, line and key. */
int dc_dist_from_setting(const dc_scenario *sc, const config_setting_t *group,
                         dc_dist *out, dc_error *err);

#endif
