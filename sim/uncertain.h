/* Uncertain inputs: a numeric scenario value given as a distribution.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Uncertain inputs: a numeric scenario value given as a distribution.
 *
 * Wherever the schema expects a number (integer or float), a scenario may
 * give instead a group that describes a distribution, for a Monte Carlo
 * sweep (dcsim sweep) to sample once per replication:
 *
 *   key = { dist = "normal"; mean = 0.08; sd = 0.02; };
 *
 *   dist         parameters                 law
 *   "normal"     mean, sd (sd >= 0)         N(mean, sd^2)
 *   "lognormal"  median, sigma              ln X ~ N(ln median, sigma^2)
 *                or mean, sd (of X)         sigma^2 = ln(1 + sd^2/mean^2),
 *                                           mu = ln mean - sigma^2/2
 *   "uniform"    min, max                   U(min, max)
 *   "triangular" min, mode, max             F(x) = (x-min)^2/((max-min)(mode-min)) below mode
 *   "weibull"    scale, shape [, loc = 0]   F(x) = 1 - exp(-((x-loc)/scale)^shape)
 *   "empirical"  values = [...]             each value with equal probability,
 *                [, weights = [...]]        or with the given weights
 * and, for any of them:
 *   min, max     (normal, lognormal, weibull) truncation bounds;
 *   stream       a name: inputs with the same stream use the same uniform
 *                draw and so move together (comonotonic), e.g. one
 *                failure-rate factor shared by every failure class.
 *
 * Sampling is by inversion, one uniform number u per stream and
 * replication:  X = Q(u),  Q(p) = F^-1(F(lo) + p (F(hi) - F(lo))),  the
 * quantile function of the law truncated to [lo, hi] = the key's schema
 * range intersected with [min, max].  So a normal price never goes below the
 * key's minimum, the median of an input is Q(1/2), and a tornado takes
 * Q(0.1) and Q(0.9).  Bounded laws (uniform, triangular, empirical) must lie
 * inside the key's range; an unbounded law must put at least 1e-6 of its
 * probability there.  Integer keys take the nearest integer in range.
 *
 * The uniform draw of stream NAME for a replication's seed is
 *   u = ((h >> 11) + 1/2) 2^-53,  h = dc_rng_seed_for(seed, "uncertain.NAME")
 * (rng.h): a stream of one number per replication, independent of every
 * other stream and of the models' streams, the same at every grid point of a
 * sweep (common random numbers).  NAME is the stream key, else the key's
 * path ("failures.[2].mtbf_h"). */
#ifndef DC_UNCERTAIN_H
#define DC_UNCERTAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libconfig.h>

#include "error.h"
#include "scenario.h"

typedef enum dc_uncertain_kind {
    DC_UNC_NORMAL,
    DC_UNC_LOGNORMAL,
    DC_UNC_UNIFORM,
    DC_UNC_TRIANGULAR,
    DC_UNC_WEIBULL,
    DC_UNC_EMPIRICAL,
} dc_uncertain_kind;

#define DC_UNCERTAIN_PATH_MAX 256

struct dc_uncertain {
    char path[DC_UNCERTAIN_PATH_MAX];   /* "cost.capex.gpu_usd", "failures.[0].mtbf_h" */
    char stream[DC_UNCERTAIN_PATH_MAX + 16]; /* "uncertain.NAME" */
    dc_uncertain_kind kind;
    double a, b, c;        /* normal: mean, sd; lognormal: mu, sigma; uniform: min, max;
                            * triangular: min, mode, max; weibull: scale, shape, loc */
    double *values, *cum;  /* empirical: sorted values, cumulative probabilities */
    size_t n_values;
    double lo, hi;         /* truncation: the key's range and min/max */
    double p_lo, p_hi;     /* F(lo), F(hi) */
    bool integer;
    const char *unit;      /* the key's unit (from its schema row) */
    config_setting_t *setting; /* where the value lives in the scenario */
};

/* Reads the distribution group g of a key with schema row; checks every
 * parameter (errors name file, line and key as usual).  On success *out owns
 * memory freed by dc_uncertain_free. */
int dc_uncertain_parse(const dc_scenario *sc, const config_setting_t *g, const dc_param *row,
                       dc_uncertain *out, dc_error *err);
void dc_uncertain_free(dc_uncertain *u);

/* The checks of the keys inside a distribution group, by validation phase:
 * names (unknown key) and types.  Parameter values: dc_uncertain_parse. */
int dc_uncertain_check_names(const dc_scenario *sc, const config_setting_t *g, dc_error *err);
int dc_uncertain_check_types(const dc_scenario *sc, const config_setting_t *g, dc_error *err);

/* Q(p) for p in [0, 1], rounded for integer keys; always within [lo, hi]. */
double dc_uncertain_quantile(const dc_uncertain *u, double p);

/* The uniform draw in (0, 1) of stream (a full name, "uncertain.NAME") for seed. */
double dc_uncertain_draw(uint64_t seed, const char *stream);

/* "normal(mean 0.08, sd 0.02) in [0, 1]" */
void dc_uncertain_describe(const dc_uncertain *u, char *buf, size_t size);

/* "dist, mean, sd, ..." : the keys a distribution group may hold. */
extern const char dc_uncertain_keys[];
/* Whether name is one of them. */
bool dc_uncertain_is_key(const char *name);

#endif
