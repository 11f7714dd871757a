/* Distribution-valued scenario keys: parsing, quantiles and draws.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Distribution-valued scenario keys (see uncertain.h).
 *
 * Decisions where the header is silent:
 *  - A parameter that a law does not take is an error ("mode" in a normal),
 *    as is a lognormal given median with sd, or mean with sigma.
 *  - sd = 0 (normal, lognormal) and min = max (uniform) are allowed: the
 *    input is then a constant, which lets a sweep switch an uncertainty off
 *    with --set.
 *  - An exclusive bound of the key's range (mfu > 0) is met by moving a
 *    quantile that lands exactly on it to the next representable number.
 *  - Empirical weights need not sum to 1 (they are normalised) but must be
 *    non-negative with a positive sum; the values are sorted, so the
 *    quantile function is the usual left-continuous inverse of the step CDF. */
#include "uncertain.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "rng.h"

const char dc_uncertain_keys[] =
    "dist, mean, sd, median, sigma, min, max, mode, scale, shape, loc, values, weights, stream";

static const char *const known_keys[] = {"dist",  "mean", "sd",    "median", "sigma",  "min",     "max",
                                         "mode",  "scale", "shape", "loc",    "values", "weights", "stream",
                                         NULL};

bool dc_uncertain_is_key(const char *name)
{
    for (size_t k = 0; name && known_keys[k]; k++)
        if (strcmp(name, known_keys[k]) == 0)
            return true;
    return false;
}

static const char *const kind_names[] = {
    [DC_UNC_NORMAL] = "normal",         [DC_UNC_LOGNORMAL] = "lognormal", [DC_UNC_UNIFORM] = "uniform",
    [DC_UNC_TRIANGULAR] = "triangular", [DC_UNC_WEIBULL] = "weibull",     [DC_UNC_EMPIRICAL] = "empirical",
};
#define N_KINDS (sizeof kind_names / sizeof kind_names[0])
#define KIND_CHOICES "normal|lognormal|uniform|triangular|weibull|empirical"

/* The parameters each law takes besides dist and stream. */
static const char *const kind_keys[] = {
    [DC_UNC_NORMAL] = "mean sd min max",
    [DC_UNC_LOGNORMAL] = "median sigma mean sd min max",
    [DC_UNC_UNIFORM] = "min max",
    [DC_UNC_TRIANGULAR] = "min mode max",
    [DC_UNC_WEIBULL] = "scale shape loc min max",
    [DC_UNC_EMPIRICAL] = "values weights",
};

/* The least probability an unbounded law must put in the key's range. */
#define MIN_MASS 1e-6

static bool word_in(const char *words, const char *w)
{
    size_t n = strlen(w);
    for (const char *p = words; *p;) {
        size_t len = strcspn(p, " ");
        if (len == n && strncmp(p, w, n) == 0)
            return true;
        p += len;
        while (*p == ' ')
            p++;
    }
    return false;
}

static bool is_number(const config_setting_t *s)
{
    int t = config_setting_type(s);
    if (t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64)
        return true;
    return t == CONFIG_TYPE_FLOAT && isfinite(config_setting_get_float(s));
}

int dc_uncertain_check_names(const dc_scenario *sc, const config_setting_t *g, dc_error *err)
{
    int n = config_setting_length(g);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(m);
        bool ok = false;
        for (size_t k = 0; name && known_keys[k]; k++)
            ok = ok || strcmp(name, known_keys[k]) == 0;
        if (!ok)
            return dc_scenario_error_at(sc, m, err, "unknown key in a distribution (a distribution takes %s)",
                                        dc_uncertain_keys);
    }
    return DC_OK;
}

int dc_uncertain_check_types(const dc_scenario *sc, const config_setting_t *g, dc_error *err)
{
    if (!config_setting_get_member(g, "dist"))
        return dc_scenario_error_at(sc, g, err,
                                    "expected a number or a distribution { dist = \"normal\"; ... } (got a group "
                                    "without dist; dist is one of " KIND_CHOICES ")");
    int n = config_setting_length(g);
    for (int i = 0; i < n; i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(m);
        if (strcmp(name, "dist") == 0 || strcmp(name, "stream") == 0) {
            if (config_setting_type(m) != CONFIG_TYPE_STRING)
                return dc_scenario_error_at(sc, m, err, "expected a string");
            if (strcmp(name, "stream") == 0) {
                const char *v = config_setting_get_string(m);
                bool ok = v[0] != '\0' && strlen(v) < 64;
                for (const char *p = v; *p; p++)
                    ok = ok && ((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '.');
                if (!ok)
                    return dc_scenario_error_at(sc, m, err,
                                                "expected a stream name of 1 to 63 characters a-z, 0-9, _ and . "
                                                "(got \"%s\")", v);
            }
        } else if (strcmp(name, "values") == 0 || strcmp(name, "weights") == 0) {
            if (config_setting_type(m) != CONFIG_TYPE_ARRAY || config_setting_length(m) == 0)
                return dc_scenario_error_at(sc, m, err, "expected a non-empty array of numbers [ 1.0, 2.0, ... ]");
            for (int k = 0; k < config_setting_length(m); k++)
                if (!is_number(config_setting_get_elem(m, (unsigned)k)))
                    return dc_scenario_error_at(sc, m, err, "expected finite numbers (element %d is not)", k);
        } else if (!is_number(m)) {
            return dc_scenario_error_at(sc, m, err, "expected a finite number");
        }
    }
    return DC_OK;
}

/* ---- the laws ---------------------------------------------------------------- */

/* F(x) of the untruncated law. */
static double cdf(const dc_uncertain *u, double x)
{
    switch (u->kind) {
    case DC_UNC_NORMAL:
        if (u->b == 0.0)
            return x < u->a ? 0.0 : 1.0;
        return gsl_cdf_gaussian_P(x - u->a, u->b);
    case DC_UNC_LOGNORMAL:
        if (x <= 0.0)
            return 0.0;
        if (u->b == 0.0)
            return log(x) < u->a ? 0.0 : 1.0;
        return gsl_cdf_gaussian_P(log(x) - u->a, u->b);
    case DC_UNC_WEIBULL:
        if (x <= u->c)
            return 0.0;
        return -expm1(-pow((x - u->c) / u->a, u->b));
    default:
        return NAN; /* bounded laws are not truncated */
    }
}

/* F^-1(q) of the untruncated law, q in [0, 1]. */
static double inverse(const dc_uncertain *u, double q)
{
    switch (u->kind) {
    case DC_UNC_NORMAL:
        if (u->b == 0.0)
            return u->a;
        return u->a + gsl_cdf_gaussian_Pinv(q, u->b);
    case DC_UNC_LOGNORMAL:
        if (u->b == 0.0)
            return exp(u->a);
        return exp(u->a + gsl_cdf_gaussian_Pinv(q, u->b));
    case DC_UNC_UNIFORM:
        return u->a + q * (u->b - u->a);
    case DC_UNC_TRIANGULAR: {
        double lo = u->a, mode = u->b, hi = u->c;
        double fc = (mode - lo) / (hi - lo);
        if (q < fc)
            return lo + sqrt(q * (hi - lo) * (mode - lo));
        return hi - sqrt((1.0 - q) * (hi - lo) * (hi - mode));
    }
    case DC_UNC_WEIBULL:
        return u->c + u->a * pow(-log1p(-q), 1.0 / u->b);
    case DC_UNC_EMPIRICAL:
        for (size_t i = 0; i < u->n_values; i++)
            if (u->cum[i] >= q)
                return u->values[i];
        return u->values[u->n_values - 1];
    }
    return NAN;
}

double dc_uncertain_quantile(const dc_uncertain *u, double p)
{
    if (p < 0.0)
        p = 0.0;
    if (p > 1.0)
        p = 1.0;
    double x = inverse(u, u->p_lo + p * (u->p_hi - u->p_lo));
    if (!(x >= u->lo)) /* also NaN */
        x = u->lo;
    if (x > u->hi)
        x = u->hi;
    if (u->integer) {
        double lo = ceil(u->lo), hi = floor(u->hi);
        x = round(x);
        if (x < lo)
            x = lo;
        if (x > hi)
            x = hi;
    }
    return x;
}

double dc_uncertain_draw(uint64_t seed, const char *stream)
{
    uint64_t h = dc_rng_seed_for(seed, stream);
    return ((double)(h >> 11) + 0.5) * 0x1p-53;
}

void dc_uncertain_free(dc_uncertain *u)
{
    if (!u)
        return;
    free(u->values);
    free(u->cum);
    u->values = u->cum = NULL;
    u->n_values = 0;
}

void dc_uncertain_describe(const dc_uncertain *u, char *buf, size_t size)
{
    int n = 0;
    switch (u->kind) {
    case DC_UNC_NORMAL:
        n = snprintf(buf, size, "normal(mean %g, sd %g)", u->a, u->b);
        break;
    case DC_UNC_LOGNORMAL:
        n = snprintf(buf, size, "lognormal(median %g, sigma %g)", exp(u->a), u->b);
        break;
    case DC_UNC_UNIFORM:
        n = snprintf(buf, size, "uniform(%g, %g)", u->a, u->b);
        break;
    case DC_UNC_TRIANGULAR:
        n = snprintf(buf, size, "triangular(%g, %g, %g)", u->a, u->b, u->c);
        break;
    case DC_UNC_WEIBULL:
        n = u->c != 0.0 ? snprintf(buf, size, "weibull(scale %g, shape %g, loc %g)", u->a, u->b, u->c)
                        : snprintf(buf, size, "weibull(scale %g, shape %g)", u->a, u->b);
        break;
    case DC_UNC_EMPIRICAL:
        n = snprintf(buf, size, "empirical(%zu values from %g to %g)", u->n_values, u->values[0],
                     u->values[u->n_values - 1]);
        break;
    }
    if (n < 0 || (size_t)n >= size)
        return;
    bool truncated = (u->kind == DC_UNC_NORMAL || u->kind == DC_UNC_LOGNORMAL || u->kind == DC_UNC_WEIBULL) &&
                     (u->p_lo > 1e-9 || u->p_hi < 1.0 - 1e-9);
    if (truncated)
        n += snprintf(buf + n, size - (size_t)n, " in [%g, %g]", u->lo, u->hi);
    const char *own = u->stream + strlen("uncertain.");
    if ((size_t)n < size && strcmp(own, u->path) != 0)
        snprintf(buf + n, size - (size_t)n, ", stream %s", own);
}

/* ---- parsing ------------------------------------------------------------------ */

static bool get_num(const config_setting_t *g, const char *key, double *x, const config_setting_t **where)
{
    const config_setting_t *m = config_setting_get_member(g, key);
    if (where)
        *where = m;
    if (!m)
        return false;
    *x = config_setting_get_float(m);
    return true;
}

/* The key's range from its schema row (the rules of scenario.c). */
static void key_range(const dc_param *row, double *lo, double *hi, bool *lo_excl, bool *hi_excl)
{
    *lo = isfinite(row->min) ? row->min : -INFINITY;
    *hi = isfinite(row->max) && row->max > row->min ? row->max : INFINITY;
    *lo_excl = isfinite(*lo) && (row->flags & DC_PARAM_MIN_EXCLUSIVE);
    *hi_excl = isfinite(*hi) && (row->flags & DC_PARAM_MAX_EXCLUSIVE);
}

static bool below(double x, double lo, bool excl)
{
    return excl ? !(x > lo) : !(x >= lo);
}

static bool above(double x, double hi, bool excl)
{
    return excl ? !(x < hi) : !(x <= hi);
}

static void range_text(double lo, double hi, bool lo_excl, bool hi_excl, char *buf, size_t size)
{
    snprintf(buf, size, "%c%g, %g%c", lo_excl ? '(' : '[', lo, hi, hi_excl ? ')' : ']');
}

typedef struct pair {
    double v, w;
} pair;

static int cmp_pair(const void *a, const void *b)
{
    double x = ((const pair *)a)->v, y = ((const pair *)b)->v;
    return x < y ? -1 : x > y ? 1 : 0;
}

static int parse_empirical(const dc_scenario *sc, const config_setting_t *g, dc_uncertain *u, double klo,
                           double khi, bool lo_excl, bool hi_excl, dc_error *err)
{
    const config_setting_t *vals = config_setting_get_member(g, "values");
    const config_setting_t *wts = config_setting_get_member(g, "weights");
    if (!vals)
        return dc_scenario_error_at(sc, g, err, "an empirical distribution needs values = [ ... ]");
    size_t n = (size_t)config_setting_length(vals);
    if (wts && (size_t)config_setting_length(wts) != n)
        return dc_scenario_error_at(sc, wts, err, "expected as many weights as values (%zu, got %d)", n,
                                    config_setting_length(wts));
    pair *p = malloc(n * sizeof *p);
    u->values = malloc(n * sizeof *u->values);
    u->cum = malloc(n * sizeof *u->cum);
    if (!p || !u->values || !u->cum) {
        free(p);
        dc_uncertain_free(u);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    double total = 0.0;
    int rc = DC_OK;
    char range[96];
    for (size_t i = 0; i < n && rc == DC_OK; i++) {
        p[i].v = config_setting_get_float_elem(vals, (int)i);
        p[i].w = wts ? config_setting_get_float_elem(wts, (int)i) : 1.0;
        if (below(p[i].v, klo, lo_excl) || above(p[i].v, khi, hi_excl)) {
            range_text(klo, khi, lo_excl, hi_excl, range, sizeof range);
            rc = dc_scenario_error_at(sc, vals, err, "value %g is outside the key's range %s", p[i].v, range);
        } else if (p[i].w < 0.0) {
            rc = dc_scenario_error_at(sc, wts, err, "weights must be at least 0 (got %g)", p[i].w);
        }
        total += p[i].w;
    }
    if (rc == DC_OK && !(total > 0.0))
        rc = dc_scenario_error_at(sc, wts, err, "the weights must have a positive sum");
    if (rc != DC_OK) {
        free(p);
        dc_uncertain_free(u);
        return rc;
    }
    qsort(p, n, sizeof *p, cmp_pair);
    double c = 0.0;
    for (size_t i = 0; i < n; i++) {
        c += p[i].w;
        u->values[i] = p[i].v;
        u->cum[i] = c / total;
    }
    u->cum[n - 1] = 1.0;
    u->n_values = n;
    u->lo = p[0].v;
    u->hi = p[n - 1].v;
    free(p);
    return DC_OK;
}

int dc_uncertain_parse(const dc_scenario *sc, const config_setting_t *g, const dc_param *row,
                       dc_uncertain *out, dc_error *err)
{
    int rc = dc_uncertain_check_names(sc, g, err);
    if (rc == DC_OK)
        rc = dc_uncertain_check_types(sc, g, err);
    if (rc != DC_OK)
        return rc;
    dc_uncertain u;
    memset(&u, 0, sizeof u);
    dc_scenario_setting_path(g, u.path, sizeof u.path);
    u.integer = row->type == DC_PARAM_INT;
    u.unit = row->unit ? row->unit : "";

    const config_setting_t *dist = config_setting_get_member(g, "dist");
    const char *kind = config_setting_get_string(dist);
    size_t k = 0;
    while (k < N_KINDS && strcmp(kind, kind_names[k]) != 0)
        k++;
    if (k == N_KINDS)
        return dc_scenario_error_at(sc, dist, err, "must be one of " KIND_CHOICES " (got \"%s\")", kind);
    u.kind = (dc_uncertain_kind)k;
    for (int i = 0; i < config_setting_length(g); i++) {
        const config_setting_t *m = config_setting_get_elem(g, (unsigned)i);
        const char *name = config_setting_name(m);
        if (strcmp(name, "dist") != 0 && strcmp(name, "stream") != 0 && !word_in(kind_keys[k], name))
            return dc_scenario_error_at(sc, m, err, "a %s distribution does not take %s (it takes %s)", kind, name,
                                        kind_keys[k]);
    }
    const char *stream = NULL;
    config_setting_lookup_string(g, "stream", &stream);
    snprintf(u.stream, sizeof u.stream, "uncertain.%s", stream ? stream : u.path);

    double klo, khi;
    bool lo_excl, hi_excl;
    key_range(row, &klo, &khi, &lo_excl, &hi_excl);
    char range[96];
    range_text(klo, khi, lo_excl, hi_excl, range, sizeof range);

    const config_setting_t *w_mean, *w_sd, *w_median, *w_sigma, *w_min, *w_max, *w_mode, *w_scale, *w_shape, *w_loc;
    double mean = 0, sd = 0, median = 0, sigma = 0, mn = -INFINITY, mx = INFINITY, mode = 0, scale = 0, shape = 0,
           loc = 0;
    bool has_mean = get_num(g, "mean", &mean, &w_mean), has_sd = get_num(g, "sd", &sd, &w_sd);
    bool has_median = get_num(g, "median", &median, &w_median);
    bool has_sigma = get_num(g, "sigma", &sigma, &w_sigma);
    bool has_min = get_num(g, "min", &mn, &w_min), has_max = get_num(g, "max", &mx, &w_max);
    bool has_mode = get_num(g, "mode", &mode, &w_mode);
    bool has_scale = get_num(g, "scale", &scale, &w_scale), has_shape = get_num(g, "shape", &shape, &w_shape);
    get_num(g, "loc", &loc, &w_loc);

    if (has_sd && sd < 0.0)
        return dc_scenario_error_at(sc, w_sd, err, "must be at least 0 (got %g)", sd);
    if (has_sigma && sigma < 0.0)
        return dc_scenario_error_at(sc, w_sigma, err, "must be at least 0 (got %g)", sigma);
    if (has_min && has_max && mn > mx)
        return dc_scenario_error_at(sc, w_max, err, "must be at least min (%g; got %g)", mn, mx);

    switch (u.kind) {
    case DC_UNC_NORMAL:
        if (!has_mean || !has_sd)
            return dc_scenario_error_at(sc, g, err, "a normal distribution needs mean and sd");
        u.a = mean;
        u.b = sd;
        break;
    case DC_UNC_LOGNORMAL:
        if (has_median && has_sigma && !has_mean && !has_sd) {
            if (!(median > 0.0))
                return dc_scenario_error_at(sc, w_median, err, "must be greater than 0 (got %g)", median);
            u.a = log(median);
            u.b = sigma;
        } else if (has_mean && has_sd && !has_median && !has_sigma) {
            if (!(mean > 0.0))
                return dc_scenario_error_at(sc, w_mean, err, "must be greater than 0 (got %g)", mean);
            u.b = sqrt(log1p(sd * sd / (mean * mean)));
            u.a = log(mean) - 0.5 * u.b * u.b;
        } else {
            return dc_scenario_error_at(sc, g, err,
                                        "a lognormal distribution needs median and sigma (of ln X), or mean and sd "
                                        "(of X)");
        }
        break;
    case DC_UNC_UNIFORM:
    case DC_UNC_TRIANGULAR:
        if (!has_min || !has_max || (u.kind == DC_UNC_TRIANGULAR && !has_mode))
            return dc_scenario_error_at(sc, g, err, "a %s distribution needs %s", kind,
                                        u.kind == DC_UNC_UNIFORM ? "min and max" : "min, mode and max");
        if (below(mn, klo, lo_excl) && !(lo_excl && mn == klo))
            return dc_scenario_error_at(sc, w_min, err, "%g is outside the key's range %s", mn, range);
        if (above(mx, khi, hi_excl) && !(hi_excl && mx == khi))
            return dc_scenario_error_at(sc, w_max, err, "%g is outside the key's range %s", mx, range);
        if (u.kind == DC_UNC_TRIANGULAR) {
            if (!(mn < mx))
                return dc_scenario_error_at(sc, w_max, err, "must be greater than min (%g; got %g)", mn, mx);
            if (mode < mn || mode > mx)
                return dc_scenario_error_at(sc, w_mode, err, "must lie between min and max (%g and %g; got %g)", mn,
                                            mx, mode);
        }
        u.a = mn;
        u.b = u.kind == DC_UNC_UNIFORM ? mx : mode;
        u.c = mx;
        u.lo = mn;
        u.hi = mx;
        break;
    case DC_UNC_WEIBULL:
        if (!has_scale || !has_shape)
            return dc_scenario_error_at(sc, g, err, "a weibull distribution needs scale and shape");
        if (!(scale > 0.0))
            return dc_scenario_error_at(sc, w_scale, err, "must be greater than 0 (got %g)", scale);
        if (!(shape > 0.0))
            return dc_scenario_error_at(sc, w_shape, err, "must be greater than 0 (got %g)", shape);
        u.a = scale;
        u.b = shape;
        u.c = loc;
        break;
    case DC_UNC_EMPIRICAL:
        rc = parse_empirical(sc, g, &u, klo, khi, lo_excl, hi_excl, err);
        if (rc != DC_OK)
            return rc;
        break;
    }

    if (u.kind == DC_UNC_NORMAL || u.kind == DC_UNC_LOGNORMAL || u.kind == DC_UNC_WEIBULL) {
        u.lo = mn > klo ? mn : klo;
        u.hi = mx < khi ? mx : khi;
        if (u.lo > u.hi)
            return dc_scenario_error_at(sc, has_min ? w_min : w_max, err,
                                        "the bounds [%g, %g] do not meet the key's range %s", mn, mx, range);
        u.p_lo = cdf(&u, u.lo);
        u.p_hi = cdf(&u, u.hi);
        bool degenerate = (u.kind != DC_UNC_WEIBULL && u.b == 0.0);
        if (degenerate) {
            double x = u.kind == DC_UNC_NORMAL ? u.a : exp(u.a);
            if (below(x, klo, lo_excl) || above(x, khi, hi_excl) || x < mn || x > mx)
                return dc_scenario_error_at(sc, g, err, "the distribution's only value %g is outside %s", x, range);
            u.p_lo = 0.0;
            u.p_hi = 1.0;
        } else if (!(u.p_hi - u.p_lo >= MIN_MASS)) {
            char lim[96];
            range_text(u.lo, u.hi, false, false, lim, sizeof lim);
            return dc_scenario_error_at(sc, g, err,
                                        "the distribution puts almost no probability (%.3g) in %s, the key's "
                                        "range and the distribution's min and max",
                                        u.p_hi - u.p_lo, lim);
        }
    } else {
        u.p_lo = 0.0;
        u.p_hi = 1.0;
    }
    /* Exclusive bounds: the truncation interval is closed; the quantile is
     * moved off an excluded end. */
    if (lo_excl && u.lo <= klo)
        u.lo = nextafter(klo, INFINITY);
    if (hi_excl && u.hi >= khi)
        u.hi = nextafter(khi, -INFINITY);
    if (u.integer && ceil(u.lo) > floor(u.hi)) {
        dc_uncertain_free(&u);
        return dc_scenario_error_at(sc, g, err, "no integer lies in [%g, %g]", u.lo, u.hi);
    }
    *out = u;
    return DC_OK;
}
