/* Probability laws for times (exponential, Weibull, lognormal, gamma, constant) from GSL.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "dist.h"

#include <math.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "cfgget.h"

static const char *const kind_names[] = {
    [DC_DIST_CONSTANT] = "constant",
    [DC_DIST_EXPONENTIAL] = "exponential",
    [DC_DIST_WEIBULL] = "weibull",
    [DC_DIST_LOGNORMAL] = "lognormal",
    [DC_DIST_GAMMA] = "gamma",
};

const char *dc_dist_kind_name(dc_dist_kind kind)
{
    return kind_names[kind];
}

double dc_dist_sample(const dc_dist *d, gsl_rng *rng)
{
    switch (d->kind) {
    case DC_DIST_CONSTANT:
        return d->a;
    case DC_DIST_EXPONENTIAL:
        return gsl_ran_exponential(rng, d->a);
    case DC_DIST_WEIBULL:
        return gsl_ran_weibull(rng, d->a, d->b);
    case DC_DIST_LOGNORMAL:
        return gsl_ran_lognormal(rng, d->a, d->b);
    case DC_DIST_GAMMA:
        return gsl_ran_gamma(rng, d->a, d->b);
    }
    return NAN;
}

double dc_dist_mean(const dc_dist *d)
{
    switch (d->kind) {
    case DC_DIST_CONSTANT:
    case DC_DIST_EXPONENTIAL:
        return d->a;
    case DC_DIST_WEIBULL:
        return d->a * gsl_sf_gamma(1.0 + 1.0 / d->b);
    case DC_DIST_LOGNORMAL:
        return exp(d->a + 0.5 * d->b * d->b);
    case DC_DIST_GAMMA:
        return d->a * d->b;
    }
    return NAN;
}

/* Looks up an optional float key of a law group; *found tells whether it was there. */
static double law_key(const config_setting_t *group, const char *key, int *found)
{
    const config_setting_t *s = dc_cfg_member(group, key);
    *found = s != NULL;
    return s ? config_setting_get_float(s) : NAN;
}

int dc_dist_from_setting(const dc_scenario *sc, const config_setting_t *group,
                         dc_dist *out, dc_error *err)
{
    const char *law = "exponential";
    dc_cfg_lookup_string(group, "law", &law);
    int has_mean, has_mtbf, has_afr, has_median, has_scale, has_shape, has_sigma;
    double mean_h = law_key(group, "mean_h", &has_mean);
    double mtbf_h = law_key(group, "mtbf_h", &has_mtbf);
    double afr = law_key(group, "afr", &has_afr);
    double median_h = law_key(group, "median_h", &has_median);
    double scale_h = law_key(group, "scale_h", &has_scale);
    double shape = law_key(group, "shape", &has_shape);
    double sigma = law_key(group, "sigma", &has_sigma);

    int n_mean = has_mean + has_mtbf + has_afr;
    if (n_mean > 1)
        return dc_scenario_error_at(sc, group, err,
                                    "give only one of mean_h, mtbf_h and afr");
    if (has_mtbf)
        mean_h = mtbf_h, has_mean = 1;
    if (has_afr)
        mean_h = DC_HOURS_PER_YEAR / afr, has_mean = 1;

    dc_dist d = {0};
    if (strcmp(law, "constant") == 0 || strcmp(law, "exponential") == 0) {
        if (!has_mean)
            return dc_scenario_error_at(sc, group, err, "law '%s' needs mean_h%s", law,
                                        strcmp(law, "exponential") == 0 ? " (or mtbf_h or afr)" : "");
        if (has_median || has_scale || has_shape || has_sigma)
            return dc_scenario_error_at(sc, group, err,
                                        "law '%s' takes only a mean (mean_h, mtbf_h or afr)", law);
        d.kind = law[0] == 'c' ? DC_DIST_CONSTANT : DC_DIST_EXPONENTIAL;
        d.a = mean_h * 3600.0;
    } else if (strcmp(law, "weibull") == 0) {
        if (!has_shape)
            return dc_scenario_error_at(sc, group, err, "law 'weibull' needs shape");
        if (has_mean == has_scale)
            return dc_scenario_error_at(sc, group, err,
                                        "law 'weibull' needs exactly one of scale_h and a mean (mean_h, mtbf_h or afr)");
        if (has_median || has_sigma)
            return dc_scenario_error_at(sc, group, err, "law 'weibull' takes shape and scale_h or a mean only");
        d.kind = DC_DIST_WEIBULL;
        d.b = shape;
        d.a = has_scale ? scale_h * 3600.0 : mean_h * 3600.0 / gsl_sf_gamma(1.0 + 1.0 / shape);
    } else if (strcmp(law, "lognormal") == 0) {
        if (!has_sigma)
            return dc_scenario_error_at(sc, group, err, "law 'lognormal' needs sigma");
        if (has_mean == has_median)
            return dc_scenario_error_at(sc, group, err,
                                        "law 'lognormal' needs exactly one of median_h and a mean (mean_h, mtbf_h or afr)");
        if (has_scale || has_shape)
            return dc_scenario_error_at(sc, group, err, "law 'lognormal' takes sigma and median_h or a mean only");
        d.kind = DC_DIST_LOGNORMAL;
        d.b = sigma;
        d.a = has_median ? log(median_h * 3600.0) : log(mean_h * 3600.0) - 0.5 * sigma * sigma;
    } else if (strcmp(law, "gamma") == 0) {
        if (!has_shape || !has_mean)
            return dc_scenario_error_at(sc, group, err, "law 'gamma' needs shape and a mean (mean_h, mtbf_h or afr)");
        if (has_scale || has_median || has_sigma)
            return dc_scenario_error_at(sc, group, err, "law 'gamma' takes shape and a mean only");
        d.kind = DC_DIST_GAMMA;
        d.a = shape;
        d.b = mean_h * 3600.0 / shape;
    } else {
        return dc_scenario_error_at(sc, group, err, "unknown law '%s'", law);
    }
    if (!(isfinite(d.a) && isfinite(d.b)) || !(dc_dist_mean(&d) > 0.0) || !isfinite(dc_dist_mean(&d)))
        return dc_scenario_error_at(sc, group, err, "law '%s' has no finite positive mean with these parameters", law);
    *out = d;
    return DC_OK;
}
