/* The sweep driver: a grid of scenario variants times N replications, each run to its figures.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The sweep driver (see sweep.h).
 *
 * Decisions where the header is silent:
 *  - Ranges lo:hi:step give the values lo + k step (computed, not
 *    accumulated) printed with 15 significant digits, so 0.1:0.3:0.1 gives
 *    0.1, 0.2, 0.3; for an integer key they must be integers.
 *  - The seed cannot be an axis: replications are the seeds.
 *  - Every grid point is also built once (at its inputs' medians) before
 *    anything runs, so that the models' own checks (a job larger than the
 *    cluster) stop a sweep at once rather than at that grid point.
 *  - Runs record no event log (a sweep keeps only the summaries).
 *  - NaN values are stored as one canonical quiet NaN, so that a row moved
 *    between MPI ranks is bit-identical to the row computed in place. */
#include "sweep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "rowtable.h"
#include "uncertain.h"

typedef struct sweep_axis {
    char *key;
    char **values;
    double *numbers;
    size_t n;
} sweep_axis;

/* A row's figure names and units.  Rows with the same names in the same
 * order (nearly all of them) share one, so a row costs 8 bytes a figure. */
typedef struct keyset {
    size_t n;
    char **keys, **units;
} keyset;

typedef struct result_row {
    const keyset *ks; /* NULL until the row has run */
    double *values;
} result_row;

struct dc_sweep {
    size_t reps, points, rows, workers;
    uint64_t base_seed;
    sweep_axis *axes;
    size_t n_axes;
    dc_scenario ***sc; /* [worker][point] */
    dc_sweep_build_fn build;
    dc_sweep_build_cancellable_fn build_cancellable; /* NULL: none */
    result_row *results;
    keyset **keysets;
    size_t n_keysets, cap_keysets;
    const keyset **last; /* [worker]: the keyset of its last row */
    pthread_mutex_t lock; /* guards keysets */
    bool lock_ready;
    const volatile sig_atomic_t *cancel; /* nonzero: take no further row */
};

/* ---- axes ---------------------------------------------------------------------- */

static char *trimmed(const char *b, const char *e)
{
    while (b < e && isspace((unsigned char)*b))
        b++;
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    return strndup(b, (size_t)(e - b));
}

static void axis_free(sweep_axis *a)
{
    for (size_t i = 0; i < a->n; i++)
        free(a->values[i]);
    free(a->values);
    free(a->numbers);
    free(a->key);
    memset(a, 0, sizeof *a);
}

static bool parse_number(const char *t, double *x)
{
    char *end;
    errno = 0;
    *x = strtod(t, &end);
    while (isspace((unsigned char)*end))
        end++;
    return end != t && *end == '\0' && errno == 0 && isfinite(*x);
}

static int add_value(sweep_axis *a, char *v, size_t *cap)
{
    if (!v)
        return DC_ENOMEM;
    if (a->n == *cap) {
        size_t c = *cap ? 2 * *cap : 8;
        char **p = realloc(a->values, c * sizeof *p);
        if (!p) {
            free(v);
            return DC_ENOMEM;
        }
        a->values = p;
        *cap = c;
    }
    a->values[a->n++] = v;
    return DC_OK;
}

static int parse_axis(const char *spec, sweep_axis *a, dc_error *err)
{
    memset(a, 0, sizeof *a);
    const char *eq = strchr(spec, '=');
    if (!eq)
        return dc_error_set(err, DC_EINPUT, "--vary %s: expected KEY=v1,v2,... or KEY=lo:hi:step", spec);
    a->key = trimmed(spec, eq);
    if (!a->key)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    if (a->key[0] == '\0') {
        axis_free(a);
        return dc_error_set(err, DC_EINPUT, "--vary %s: expected KEY=v1,v2,... or KEY=lo:hi:step", spec);
    }
    if (strcmp(a->key, "seed") == 0) {
        axis_free(a);
        return dc_error_set(err, DC_EINPUT,
                            "--vary %s: the seed is not an axis (replications are the seeds: use --reps and --seed)",
                            spec);
    }
    const char *rest = eq + 1;
    char *all = trimmed(rest, rest + strlen(rest));
    if (!all) {
        axis_free(a);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    int rc = DC_OK;
    size_t cap = 0;
    double lo, hi, step;
    char *c1 = strchr(all, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (all[0] == '\0') {
        rc = dc_error_set(err, DC_EINPUT, "--vary %s: empty list of values", spec);
    } else if (c1 && c2 && !strchr(c2 + 1, ':') && !strchr(all, ',')) {
        *c1 = *c2 = '\0';
        if (!parse_number(all, &lo) || !parse_number(c1 + 1, &hi) || !parse_number(c2 + 1, &step)) {
            rc = dc_error_set(err, DC_EINPUT, "--vary %s: expected numbers in lo:hi:step", spec);
        } else if (step == 0.0) {
            rc = dc_error_set(err, DC_EINPUT, "--vary %s: a step of zero", spec);
        } else if ((hi - lo) / step < -1e-9) {
            rc = dc_error_set(err, DC_EINPUT, "--vary %s: the step goes away from hi (%g to %g by %g)", spec, lo,
                              hi, step);
        } else {
            double count = floor((hi - lo) / step + 1e-9) + 1.0;
            if (count > DC_SWEEP_HARD_MAX_POINTS) {
                rc = dc_error_set(err, DC_EINPUT, "--vary %s: %.0f values, more than the limit of %d", spec, count,
                                  DC_SWEEP_HARD_MAX_POINTS);
            } else {
                for (size_t k = 0; k < (size_t)count && rc == DC_OK; k++) {
                    double x = lo + (double)k * step;
                    char buf[40];
                    if (x == floor(x) && fabs(x) < 1e15)
                        snprintf(buf, sizeof buf, "%.0f", x);
                    else
                        snprintf(buf, sizeof buf, "%.15g", x);
                    rc = add_value(a, strdup(buf), &cap);
                }
            }
        }
    } else {
        const char *p = all;
        for (;;) {
            const char *comma = strchr(p, ',');
            const char *end = comma ? comma : p + strlen(p);
            char *v = trimmed(p, end);
            if (v && v[0] == '\0') {
                free(v);
                rc = dc_error_set(err, DC_EINPUT, "--vary %s: an empty value in the list", spec);
                break;
            }
            if ((rc = add_value(a, v, &cap)) != DC_OK)
                break;
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    free(all);
    if (rc == DC_OK) {
        a->numbers = malloc(a->n * sizeof *a->numbers);
        if (!a->numbers)
            rc = DC_ENOMEM;
        for (size_t i = 0; a->numbers && i < a->n; i++) {
            const char *v = a->values[i];
            if (!parse_number(v, &a->numbers[i]))
                a->numbers[i] = strcasecmp(v, "true") == 0 ? 1.0 : strcasecmp(v, "false") == 0 ? 0.0 : NAN;
        }
    }
    if (rc == DC_ENOMEM)
        dc_error_set(err, DC_ENOMEM, "out of memory");
    if (rc != DC_OK)
        axis_free(a);
    return rc;
}

/* The value index of axis a at grid point g (first axis slowest). */
static size_t point_index(const dc_sweep *sw, size_t g, size_t a)
{
    for (size_t k = sw->n_axes; k-- > a + 1;)
        g /= sw->axes[k].n;
    return g % sw->axes[a].n;
}

/* ---- grid points ----------------------------------------------------------------- */

static int load_base(const dc_sweep_spec *spec, dc_scenario **out, dc_error *err)
{
    dc_scenario *sc = NULL;
    int rc = spec->file ? dc_scenario_load_file(spec->file, &sc, err)
                        : dc_scenario_load_string(spec->text, spec->text_name, &sc, err);
    if (rc != DC_OK)
        return rc;
    dc_scenario_set_schema(sc, spec->schemas);
    for (size_t i = 0; i < spec->n_sets && rc == DC_OK; i++)
        rc = dc_scenario_set(sc, spec->sets[i], err);
    if (rc != DC_OK) {
        dc_scenario_destroy(sc);
        return rc;
    }
    *out = sc;
    return DC_OK;
}

/* "KEY=VALUE, KEY=VALUE" of grid point g. */
static void point_text(const dc_sweep *sw, size_t g, char *buf, size_t size)
{
    buf[0] = '\0';
    for (size_t a = 0; a < sw->n_axes; a++) {
        size_t len = strlen(buf);
        snprintf(buf + len, size - len, "%s%s=%s", a ? ", " : "", sw->axes[a].key,
                 sw->axes[a].values[point_index(sw, g, a)]);
    }
}

/* Rewrites "--set K=V: ..." as "--vary K=V: ..." for messages about axes,
 * and names the grid point (counted from 1, as printed) otherwise. */
static void vary_message(const dc_sweep *sw, dc_error *err, size_t g)
{
    char assignment[1024];
    point_text(sw, g, assignment, sizeof assignment);
    if (!err || err->code != DC_EINPUT)
        return;
    if (strncmp(err->msg, "--set ", 6) == 0) {
        char msg[DC_ERROR_MSG_MAX];
        snprintf(msg, sizeof msg, "--vary %s", err->msg + 6);
        snprintf(err->msg, sizeof err->msg, "%s", msg);
    } else {
        dc_error_prefix(err, "grid point %zu of %zu (%s)", g + 1, sw->points, assignment);
    }
}

static int make_point(const dc_sweep_spec *spec, const dc_sweep *sw, size_t g, dc_scenario **out, dc_error *err)
{
    dc_scenario *sc = NULL;
    int rc = load_base(spec, &sc, err);
    if (rc != DC_OK)
        return rc;
    for (size_t a = 0; a < sw->n_axes && rc == DC_OK; a++) {
        char one[512];
        snprintf(one, sizeof one, "%s=%s", sw->axes[a].key, sw->axes[a].values[point_index(sw, g, a)]);
        rc = dc_scenario_set(sc, one, err);
        if (rc != DC_OK)
            vary_message(sw, err, g);
    }
    if (rc == DC_OK) {
        rc = dc_scenario_validate(sc, err);
        if (rc != DC_OK && sw->n_axes > 0)
            vary_message(sw, err, g);
    }
    if (rc != DC_OK) {
        dc_scenario_destroy(sc);
        return rc;
    }
    *out = sc;
    return DC_OK;
}

void dc_sweep_destroy(dc_sweep *sw)
{
    if (!sw)
        return;
    for (size_t w = 0; sw->sc && w < sw->workers; w++) {
        for (size_t g = 0; sw->sc[w] && g < sw->points; g++)
            dc_scenario_destroy(sw->sc[w][g]);
        free(sw->sc[w]);
    }
    free(sw->sc);
    for (size_t a = 0; a < sw->n_axes; a++)
        axis_free(&sw->axes[a]);
    free(sw->axes);
    for (size_t i = 0; sw->results && i < sw->rows; i++)
        free(sw->results[i].values);
    free(sw->results);
    for (size_t k = 0; k < sw->n_keysets; k++) {
        for (size_t j = 0; j < sw->keysets[k]->n; j++) {
            free(sw->keysets[k]->keys[j]);
            free(sw->keysets[k]->units[j]);
        }
        free(sw->keysets[k]->keys);
        free(sw->keysets[k]->units);
        free(sw->keysets[k]);
    }
    free(sw->keysets);
    free(sw->last);
    if (sw->lock_ready)
        pthread_mutex_destroy(&sw->lock);
    free(sw);
}

int dc_sweep_create(const dc_sweep_spec *spec, size_t workers, dc_sweep **out, dc_error *err)
{
    if (!spec || !out || !spec->build || !spec->schemas || (!spec->file && !spec->text))
        return dc_error_set(err, DC_EINTERNAL, "dc_sweep_create: incomplete specification");
    if (spec->reps < 1 || spec->reps > DC_SWEEP_MAX_REPS)
        return dc_error_set(err, DC_EINPUT, "--reps: expected 1 to %d replications (got %zu)", DC_SWEEP_MAX_REPS,
                            spec->reps);
    if (workers < 1)
        workers = 1;
    dc_sweep *sw = calloc(1, sizeof *sw);
    if (!sw)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    sw->reps = spec->reps;
    sw->build = spec->build;
    sw->build_cancellable = spec->build_cancellable;
    sw->cancel = spec->cancel;
    sw->points = 1;
    int rc = DC_OK;
    dc_scenario *base = NULL;

    if (spec->n_vary > 0 && !(sw->axes = calloc(spec->n_vary, sizeof *sw->axes))) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    double points = 1.0;
    for (size_t a = 0; a < spec->n_vary; a++) {
        rc = parse_axis(spec->vary[a], &sw->axes[a], err);
        if (rc != DC_OK)
            goto fail;
        sw->n_axes++;
        for (size_t b = 0; b < a; b++)
            if (strcmp(sw->axes[b].key, sw->axes[a].key) == 0) {
                rc = dc_error_set(err, DC_EINPUT, "--vary %s: %s is varied twice", spec->vary[a], sw->axes[a].key);
                goto fail;
            }
        points *= (double)sw->axes[a].n;
    }
    if (points > DC_SWEEP_HARD_MAX_POINTS || (points > DC_SWEEP_MAX_POINTS && !spec->force)) {
        rc = points > DC_SWEEP_HARD_MAX_POINTS
                 ? dc_error_set(err, DC_EINPUT, "--vary: a grid of %.0f points is larger than the limit of %d",
                                points, DC_SWEEP_HARD_MAX_POINTS)
                 : dc_error_set(err, DC_EINPUT,
                                "--vary: a grid of %.0f points is larger than the maximum of %d (add --force to "
                                "run it anyway)",
                                points, DC_SWEEP_MAX_POINTS);
        goto fail;
    }
    sw->points = (size_t)points;
    if ((double)sw->points * (double)sw->reps > DC_SWEEP_MAX_ROWS) {
        rc = dc_error_set(err, DC_EINPUT, "%zu grid points x %zu replications is more than the limit of %d runs",
                          sw->points, sw->reps, DC_SWEEP_MAX_ROWS);
        goto fail;
    }
    sw->rows = sw->points * sw->reps;

    /* The scenario with its --set overrides alone first: its errors are
     * reported plainly, before any grid point's. */
    rc = load_base(spec, &base, err);
    if (rc == DC_OK)
        rc = dc_scenario_validate(base, err);
    if (rc != DC_OK)
        goto fail;
    if (spec->seed >= 0) {
        sw->base_seed = (uint64_t)spec->seed;
    } else {
        long long s = 1;
        config_lookup_int64(dc_scenario_config(base), "seed", &s);
        sw->base_seed = (uint64_t)s;
    }
    if (sw->base_seed + (uint64_t)sw->reps - 1 < sw->base_seed) {
        rc = dc_error_set(err, DC_EINPUT, "--seed: seeds %llu + %zu replications overflow",
                          (unsigned long long)sw->base_seed, sw->reps);
        goto fail;
    }

    sw->results = calloc(sw->rows, sizeof *sw->results);
    sw->sc = calloc(workers, sizeof *sw->sc);
    sw->last = calloc(workers, sizeof *sw->last);
    if (pthread_mutex_init(&sw->lock, NULL) == 0)
        sw->lock_ready = true;
    if (!sw->results || !sw->sc || !sw->last || !sw->lock_ready) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    sw->workers = workers;
    for (size_t w = 0; w < workers; w++) {
        if (!(sw->sc[w] = calloc(sw->points, sizeof *sw->sc[w]))) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        for (size_t g = 0; g < sw->points; g++) {
            rc = make_point(spec, sw, g, &sw->sc[w][g], err);
            if (rc != DC_OK)
                goto fail;
            if (w == 0) {
                dc_sim *sim = NULL;
                rc = sw->build_cancellable && sw->cancel
                         ? sw->build_cancellable(sw->sc[0][g], (int64_t)sw->base_seed, sw->cancel, &sim, err)
                         : sw->build(sw->sc[0][g], (int64_t)sw->base_seed, &sim, err);
                dc_sim_destroy(sim);
                if (rc != DC_OK && sw->cancel && *sw->cancel) {
                    rc = dc_error_set(err, DC_EINTERNAL, "interrupted");
                    goto fail;
                }
                if (rc != DC_OK) {
                    if (sw->n_axes > 0)
                        vary_message(sw, err, g);
                    goto fail;
                }
            }
        }
    }
    dc_scenario_destroy(base);
    *out = sw;
    return DC_OK;
fail:
    dc_scenario_destroy(base);
    dc_sweep_destroy(sw);
    return rc;
}

size_t dc_sweep_points(const dc_sweep *sw)
{
    return sw->points;
}

size_t dc_sweep_reps(const dc_sweep *sw)
{
    return sw->reps;
}

size_t dc_sweep_rows(const dc_sweep *sw)
{
    return sw->rows;
}

uint64_t dc_sweep_seed(const dc_sweep *sw, size_t rep)
{
    return sw->base_seed + (uint64_t)rep;
}

size_t dc_sweep_axes(const dc_sweep *sw)
{
    return sw->n_axes;
}

const char *dc_sweep_axis_key(const dc_sweep *sw, size_t axis)
{
    return axis < sw->n_axes ? sw->axes[axis].key : NULL;
}

const char *dc_sweep_point_value(const dc_sweep *sw, size_t g, size_t axis)
{
    return axis < sw->n_axes && g < sw->points ? sw->axes[axis].values[point_index(sw, g, axis)] : NULL;
}

double dc_sweep_point_number(const dc_sweep *sw, size_t g, size_t axis)
{
    return axis < sw->n_axes && g < sw->points ? sw->axes[axis].numbers[point_index(sw, g, axis)] : NAN;
}

const dc_scenario *dc_sweep_scenario(const dc_sweep *sw, size_t g)
{
    return g < sw->points ? sw->sc[0][g] : NULL;
}

size_t dc_sweep_workers(const dc_sweep *sw)
{
    return sw->workers;
}

const dc_scenario *dc_sweep_worker_scenario(const dc_sweep *sw, size_t w, size_t g)
{
    return w < sw->workers && g < sw->points ? sw->sc[w][g] : NULL;
}

/* ---- running ------------------------------------------------------------------------ */

static double canonical(double x)
{
    return isnan(x) ? NAN : x;
}

static bool same_keys(const keyset *ks, size_t n, const char *const *keys, const char *const *units)
{
    if (!ks || ks->n != n)
        return false;
    for (size_t j = 0; j < n; j++)
        if (strcmp(ks->keys[j], keys[j]) != 0 || strcmp(ks->units[j], units[j]) != 0)
            return false;
    return true;
}

/* The shared keyset with these names and units (created if new); NULL when
 * out of memory.  Worker w's last keyset is checked first, without the lock. */
static const keyset *intern(dc_sweep *sw, size_t w, size_t n, const char *const *keys, const char *const *units)
{
    if (same_keys(sw->last[w], n, keys, units))
        return sw->last[w];
    const keyset *found = NULL;
    pthread_mutex_lock(&sw->lock);
    for (size_t k = 0; k < sw->n_keysets && !found; k++)
        if (same_keys(sw->keysets[k], n, keys, units))
            found = sw->keysets[k];
    if (!found && sw->n_keysets == sw->cap_keysets) {
        size_t c = 2 * sw->cap_keysets + 4;
        keyset **p = realloc(sw->keysets, c * sizeof *p);
        if (p) {
            sw->keysets = p;
            sw->cap_keysets = c;
        }
    }
    if (!found && sw->n_keysets < sw->cap_keysets) {
        keyset *ks = calloc(1, sizeof *ks);
        bool ok = ks && (ks->keys = calloc(n ? n : 1, sizeof *ks->keys)) && (ks->units = calloc(n ? n : 1, sizeof *ks->units));
        for (size_t j = 0; ok && j < n; j++) {
            ks->keys[j] = strdup(keys[j]);
            ks->units[j] = strdup(units[j]);
            ok = ks->keys[j] && ks->units[j];
            ks->n = j + 1;
        }
        if (ok) {
            sw->keysets[sw->n_keysets++] = ks;
            found = ks;
        } else if (ks) {
            for (size_t j = 0; j < ks->n; j++) {
                free(ks->keys[j]);
                free(ks->units[j]);
            }
            free(ks->keys);
            free(ks->units);
            free(ks);
        }
    }
    pthread_mutex_unlock(&sw->lock);
    if (found)
        sw->last[w] = found;
    return found;
}

static char *prefixed(const char *prefix, const char *name)
{
    size_t a = strlen(prefix), b = strlen(name);
    char *s = malloc(a + b + 1);
    if (s) {
        memcpy(s, prefix, a);
        memcpy(s + a, name, b + 1);
    }
    return s;
}

int dc_sweep_run_row(dc_sweep *sw, size_t w, size_t row, dc_error *err)
{
    if (w >= sw->workers || row >= sw->rows)
        return dc_error_set(err, DC_EINTERNAL, "dc_sweep_run_row: worker %zu or row %zu out of range", w, row);
    size_t g = row / sw->reps, r = row % sw->reps;
    dc_scenario *sc = sw->sc[w][g];
    uint64_t seed = dc_sweep_seed(sw, r);
    size_t n_in = dc_scenario_uncertain_count(sc), n_own = sw->n_axes + n_in;
    double *drawn = malloc((n_in ? n_in : 1) * sizeof *drawn);
    char **own = calloc(n_own ? n_own : 1, sizeof *own);
    const char **keys = NULL, **units = NULL;
    double *v = NULL;
    dc_sim *sim = NULL;
    int rc = DC_OK;
    if (!drawn || !own) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    dc_scenario_sample(sc, seed, drawn);
    rc = sw->build_cancellable && sw->cancel ? sw->build_cancellable(sc, (int64_t)seed, sw->cancel, &sim, err)
                                             : sw->build(sc, (int64_t)seed, &sim, err);
    if (rc != DC_OK && sw->cancel && *sw->cancel) {
        rc = DC_OK; /* a signal while setting up: the row is not done, and no failure */
        goto done;
    }
    if (rc != DC_OK)
        goto context;
    /* A replication keeps its figures only: no event log, and no series
     * but those a model computes a figure from (dc_series_keep). */
    dc_eventlog_enable(dc_sim_eventlog(sim), false);
    dc_series_set_enable(dc_sim_series_set(sim), false);
    dc_rowtable_set_drop(dc_sim_tables(sim));
    /* A signal stops the runs in progress too (within an event), and a row
     * stopped short is not done: it stays NaN in a partial table. */
    dc_sim_set_cancel(sim, sw->cancel);
    rc = dc_sim_run(sim, err);
    /* the run's warnings, kept with this worker's copy of the point (once each) */
    for (size_t i = 0; i < dc_sim_warning_count(sim); i++)
        dc_scenario_warn_text(sc, dc_sim_warning(sim, i));
    if (rc != DC_OK)
        goto context;
    if (sw->cancel && *sw->cancel)
        goto done;
    const dc_summary *run = dc_sim_summary(sim);
    size_t n = n_own + dc_summary_count(run), k = 0;
    keys = malloc((n ? n : 1) * sizeof *keys);
    units = malloc((n ? n : 1) * sizeof *units);
    v = malloc((n ? n : 1) * sizeof *v);
    if (!keys || !units || !v) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t a = 0; a < sw->n_axes; a++, k++) {
        const dc_param *p = dc_scenario_schema_row(sc, sw->axes[a].key);
        keys[k] = own[k] = prefixed("param.", sw->axes[a].key);
        units[k] = p && p->unit ? p->unit : "";
        v[k] = canonical(dc_sweep_point_number(sw, g, a));
    }
    for (size_t i = 0; i < n_in; i++, k++) {
        const dc_uncertain *u = dc_scenario_uncertain(sc, i);
        keys[k] = own[k] = prefixed("input.", u->path);
        units[k] = u->unit;
        v[k] = canonical(drawn[i]);
    }
    for (size_t i = 0; i < dc_summary_count(run); i++, k++) {
        keys[k] = dc_summary_key(run, i);
        units[k] = dc_summary_unit(run, i);
        v[k] = canonical(dc_summary_value(run, i));
    }
    const keyset *ks = NULL;
    for (size_t i = 0; i < n_own && keys; i++)
        if (!own[i])
            keys = NULL;
    if (keys)
        ks = intern(sw, w, n, keys, units);
    if (!ks) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    free(sw->results[row].values);
    sw->results[row] = (result_row){ks, v};
    v = NULL;
    goto done;
context:
    dc_error_prefix(err, "grid point %zu, replication %zu (seed %llu)", g + 1, r, (unsigned long long)seed);
done:
    dc_sim_destroy(sim);
    for (size_t i = 0; own && i < n_own; i++)
        free(own[i]);
    free(own);
    free(drawn);
    free((void *)keys);
    free((void *)units);
    free(v);
    return rc;
}

typedef struct pool {
    dc_sweep *sw;
    size_t n;
    dc_sweep_task_fn fn;
    void *fn_ctx;
    atomic_size_t next, done;
    atomic_bool stop;
    pthread_mutex_t lock;
    dc_error err;
    int rc;
} pool;

typedef struct worker_arg {
    pool *p;
    size_t w;
    void (*progress)(void *ctx, size_t done, size_t total);
    void *ctx;
} worker_arg;

static void *work(void *arg)
{
    worker_arg *a = arg;
    pool *p = a->p;
    dc_error err = {0};
    while (!atomic_load(&p->stop)) {
        if (p->sw->cancel && *p->sw->cancel)
            break; /* interrupted: the rows done so far stay done */
        size_t k = atomic_fetch_add(&p->next, 1);
        if (k >= p->n)
            break;
        int rc = p->fn(p->fn_ctx, p->sw, a->w, k, &err);
        if (rc != DC_OK) {
            pthread_mutex_lock(&p->lock);
            if (p->rc == DC_OK) {
                p->rc = rc;
                p->err = err;
            }
            pthread_mutex_unlock(&p->lock);
            atomic_store(&p->stop, true);
            break;
        }
        size_t d = atomic_fetch_add(&p->done, 1) + 1;
        if (a->progress)
            a->progress(a->ctx, d, p->n);
    }
    return NULL;
}

int dc_sweep_parallel(dc_sweep *sw, size_t n, size_t threads, dc_sweep_task_fn fn, void *fn_ctx,
                      void (*progress)(void *ctx, size_t done, size_t total), void *ctx, dc_error *err)
{
    if (threads < 1)
        threads = 1;
    if (threads > sw->workers)
        threads = sw->workers;
    if (threads > n)
        threads = n ? n : 1;
    pool p = {.sw = sw, .n = n, .fn = fn, .fn_ctx = fn_ctx, .rc = DC_OK};
    atomic_init(&p.next, 0);
    atomic_init(&p.done, 0);
    atomic_init(&p.stop, false);
    if (pthread_mutex_init(&p.lock, NULL) != 0)
        return dc_error_set(err, DC_EINTERNAL, "cannot create a mutex");
    pthread_t *tid = calloc(threads, sizeof *tid);
    worker_arg *args = calloc(threads, sizeof *args);
    size_t started = 1;
    int rc = DC_OK;
    if (!tid || !args) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t t = 0; t < threads; t++)
        args[t] = (worker_arg){.p = &p, .w = t, .progress = t == 0 ? progress : NULL, .ctx = ctx};
    for (; started < threads; started++) {
        if (pthread_create(&tid[started], NULL, work, &args[started]) != 0) {
            rc = dc_error_set(err, DC_EINTERNAL, "cannot start thread %zu: %s", started, strerror(errno));
            atomic_store(&p.stop, true);
            break;
        }
    }
    if (rc == DC_OK)
        work(&args[0]);
    for (size_t t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    if (rc == DC_OK && p.rc != DC_OK) {
        rc = p.rc;
        if (err)
            *err = p.err;
    }
done:
    free(tid);
    free(args);
    pthread_mutex_destroy(&p.lock);
    return rc;
}

static int run_listed_row(void *ctx, dc_sweep *sw, size_t w, size_t k, dc_error *err)
{
    const size_t *rows = ctx;
    return dc_sweep_run_row(sw, w, rows[k], err);
}

int dc_sweep_run(dc_sweep *sw, const size_t *rows, size_t n, size_t threads,
                 void (*progress)(void *ctx, size_t done, size_t total), void *ctx, dc_error *err)
{
    return dc_sweep_parallel(sw, n, threads, run_listed_row, (void *)rows, progress, ctx, err);
}

int dc_sweep_run_at(dc_sweep *sw, size_t w, size_t g, uint64_t seed, const double *p, const char *const *names,
                    size_t n_names, double *out, dc_error *err)
{
    if (w >= sw->workers || g >= sw->points)
        return dc_error_set(err, DC_EINTERNAL, "dc_sweep_run_at: worker %zu or grid point %zu out of range", w, g);
    dc_scenario *sc = sw->sc[w][g];
    for (size_t i = 0; i < dc_scenario_uncertain_count(sc); i++)
        dc_scenario_uncertain_set(sc, i, dc_uncertain_quantile(dc_scenario_uncertain(sc, i), p[i]));
    dc_sim *sim = NULL;
    int rc = sw->build(sc, (int64_t)seed, &sim, err);
    if (rc == DC_OK) {
        dc_eventlog_enable(dc_sim_eventlog(sim), false);
        dc_series_set_enable(dc_sim_series_set(sim), false);
        dc_rowtable_set_drop(dc_sim_tables(sim));
        rc = dc_sim_run(sim, err);
    }
    if (rc != DC_OK) {
        dc_error_prefix(err, "grid point %zu (seed %llu)", g + 1, (unsigned long long)seed);
    } else {
        for (size_t m = 0; m < n_names; m++) {
            double v = NAN;
            dc_summary_get(dc_sim_summary(sim), names[m], &v);
            out[m] = canonical(v);
        }
    }
    dc_sim_destroy(sim);
    return rc;
}

bool dc_sweep_row_done(const dc_sweep *sw, size_t row)
{
    return row < sw->rows && sw->results[row].ks != NULL;
}

size_t dc_sweep_row_width(const dc_sweep *sw, size_t row)
{
    return dc_sweep_row_done(sw, row) ? sw->results[row].ks->n : 0;
}

bool dc_sweep_row_get(const dc_sweep *sw, size_t row, const char *key, double *value)
{
    if (!dc_sweep_row_done(sw, row) || !key)
        return false;
    const keyset *ks = sw->results[row].ks;
    for (size_t j = 0; j < ks->n; j++)
        if (strcmp(ks->keys[j], key) == 0) {
            *value = sw->results[row].values[j];
            return true;
        }
    return false;
}

/* ---- moving rows ------------------------------------------------------------------- */

static int append(char **buf, size_t *len, size_t *cap, const char *text, size_t n)
{
    if (*len + n + 1 > *cap) {
        size_t c = *cap ? *cap : 4096;
        while (c < *len + n + 1)
            c *= 2;
        char *p = realloc(*buf, c);
        if (!p)
            return DC_ENOMEM;
        *buf = p;
        *cap = c;
    }
    memcpy(*buf + *len, text, n);
    *len += n;
    (*buf)[*len] = '\0';
    return DC_OK;
}

int dc_sweep_row_pack(const dc_sweep *sw, size_t row, char **buf, size_t *len, size_t *cap)
{
    if (!dc_sweep_row_done(sw, row))
        return DC_EINTERNAL;
    const keyset *ks = sw->results[row].ks;
    for (size_t i = 0; i < ks->n; i++) {
        char line[512];
        int n = snprintf(line, sizeof line, "%s\t%s\t%a\n", ks->keys[i], ks->units[i], sw->results[row].values[i]);
        if (n < 0 || (size_t)n >= sizeof line)
            return DC_EINTERNAL;
        if (append(buf, len, cap, line, (size_t)n) != DC_OK)
            return DC_ENOMEM;
    }
    return DC_OK;
}

int dc_sweep_row_unpack(dc_sweep *sw, size_t row, const char *text, size_t len, dc_error *err)
{
    if (row >= sw->rows)
        return dc_error_set(err, DC_EINTERNAL, "unpacking row %zu of %zu", row, sw->rows);
    char *copy = strndup(text, len);
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    const char **keys = malloc((lines + 1) * sizeof *keys), **units = malloc((lines + 1) * sizeof *units);
    double *v = malloc((lines + 1) * sizeof *v);
    int rc = copy && keys && units && v ? DC_OK : dc_error_set(err, DC_ENOMEM, "out of memory");
    size_t n = 0;
    char *save = NULL;
    for (char *line = rc == DC_OK ? strtok_r(copy, "\n", &save) : NULL; line && rc == DC_OK;
         line = strtok_r(NULL, "\n", &save)) {
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2 || n > lines) {
            rc = dc_error_set(err, DC_EINTERNAL, "row %zu: malformed packed line '%s'", row, line);
            break;
        }
        *t1 = *t2 = '\0';
        keys[n] = line;
        units[n] = t1 + 1;
        v[n++] = canonical(strtod(t2 + 1, NULL));
    }
    const keyset *ks = rc == DC_OK ? intern(sw, 0, n, keys, units) : NULL;
    if (rc == DC_OK && !ks)
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    if (rc == DC_OK) {
        free(sw->results[row].values);
        sw->results[row] = (result_row){ks, v};
        v = NULL;
    }
    free(copy);
    free((void *)keys);
    free((void *)units);
    free(v);
    return rc;
}

/* ---- the table ------------------------------------------------------------------------ */

void dc_sweep_table_destroy(dc_sweep_table *t)
{
    if (!t)
        return;
    for (size_t j = 0; j < t->n_cols; j++) {
        free(t->names[j]);
        free(t->units[j]);
    }
    free(t->names);
    free(t->units);
    free(t->values);
    free(t);
}

long dc_sweep_table_column(const dc_sweep_table *t, const char *name)
{
    for (size_t j = 0; t && name && j < t->n_cols; j++)
        if (strcmp(t->names[j], name) == 0)
            return (long)j;
    return -1;
}

void dc_sweep_set_cancel(dc_sweep *sw, const volatile sig_atomic_t *flag)
{
    sw->cancel = flag;
}

size_t dc_sweep_rows_done(const dc_sweep *sw)
{
    size_t n = 0;
    for (size_t i = 0; i < sw->rows; i++)
        n += sw->results[i].ks != NULL;
    return n;
}

static int table_build(const dc_sweep *sw, bool partial, dc_sweep_table **out, dc_error *err);

int dc_sweep_table_build(const dc_sweep *sw, dc_sweep_table **out, dc_error *err)
{
    return table_build(sw, false, out, err);
}

int dc_sweep_table_build_partial(const dc_sweep *sw, dc_sweep_table **out, dc_error *err)
{
    return table_build(sw, true, out, err);
}

static int table_build(const dc_sweep *sw, bool partial, dc_sweep_table **out, dc_error *err)
{
    dc_sweep_table *t = calloc(1, sizeof *t);
    size_t **map = calloc(sw->n_keysets ? sw->n_keysets : 1, sizeof *map); /* [keyset][key] -> column */
    if (!t || !map) {
        free(t);
        free(map);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    t->n_rows = sw->rows;
    size_t cap = 0;
    int rc = DC_OK;
    /* columns: in order of first appearance, row by row */
    for (size_t i = 0; i < sw->rows && rc == DC_OK; i++) {
        const keyset *ks = sw->results[i].ks;
        if (!ks && partial)
            continue;
        if (!ks) {
            rc = dc_error_set(err, DC_EINTERNAL, "row %zu has not run", i);
            break;
        }
        size_t id = 0;
        while (sw->keysets[id] != ks)
            id++;
        if (map[id])
            continue;
        if (!(map[id] = malloc((ks->n ? ks->n : 1) * sizeof **map))) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        for (size_t k = 0; k < ks->n && rc == DC_OK; k++) {
            long j = k < t->n_cols && strcmp(t->names[k], ks->keys[k]) == 0 ? (long)k
                                                                               : dc_sweep_table_column(t, ks->keys[k]);
            if (j >= 0) {
                map[id][k] = (size_t)j;
                continue;
            }
            if (t->n_cols == cap) {
                size_t c = cap ? 2 * cap : 64;
                char **nn = realloc(t->names, c * sizeof *nn);
                if (nn)
                    t->names = nn;
                char **nu = realloc(t->units, c * sizeof *nu);
                if (nu)
                    t->units = nu;
                if (!nn || !nu) {
                    rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                    break;
                }
                cap = c;
            }
            t->names[t->n_cols] = strdup(ks->keys[k]);
            t->units[t->n_cols] = strdup(ks->units[k]);
            if (!t->names[t->n_cols] || !t->units[t->n_cols]) {
                free(t->names[t->n_cols]);
                free(t->units[t->n_cols]);
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                break;
            }
            map[id][k] = t->n_cols++;
        }
    }
    size_t cells = t->n_rows * t->n_cols;
    if (rc == DC_OK && !(t->values = malloc((cells ? cells : 1) * sizeof *t->values)))
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < t->n_rows && rc == DC_OK; i++) {
        const keyset *ks = sw->results[i].ks;
        double *row = t->values + i * t->n_cols;
        for (size_t j = 0; j < t->n_cols; j++)
            row[j] = NAN;
        if (!ks)
            continue; /* partial: a row that has not run is all NaN */
        size_t id = 0;
        while (sw->keysets[id] != ks)
            id++;
        for (size_t k = 0; k < ks->n; k++)
            row[map[id][k]] = sw->results[i].values[k];
    }
    for (size_t k = 0; k < sw->n_keysets; k++)
        free(map[k]);
    free(map);
    if (rc != DC_OK) {
        dc_sweep_table_destroy(t);
        return rc;
    }
    *out = t;
    return DC_OK;
}
