/* One-at-a-time sensitivity of a sweep's figures to its uncertain inputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* One-at-a-time sensitivity (see tornado.h).  Run j of the (points x
 * settings x reps) runs is grid point j / (S reps), setting (j / reps) mod S,
 * replication j mod reps; setting 0 is the base, 2k + 1 input k low, 2k + 2
 * input k high.  Each run writes its own slot, so threads do not change the
 * numbers. */
#include "tornado.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "uncertain.h"

typedef struct job {
    dc_tornado *t;
    const char *const *metrics;
    double *raw; /* [run][m] */
    size_t settings;
} job;

void dc_tornado_destroy(dc_tornado *t)
{
    if (!t)
        return;
    for (size_t k = 0; k < t->n_inputs; k++)
        free(t->inputs[k]);
    for (size_t m = 0; m < t->n_metrics; m++)
        free(t->metrics[m]);
    free(t->inputs);
    free(t->metrics);
    free(t->base);
    free(t->lo);
    free(t->hi);
    free(t);
}

double dc_tornado_swing(const dc_tornado *t, size_t g, size_t k, size_t m)
{
    size_t i = (g * t->n_inputs + k) * t->n_metrics + m;
    return fabs(t->hi[i] - t->lo[i]);
}

static const char *stream_of(const dc_uncertain *u)
{
    return u->stream + strlen("uncertain.");
}

static int one_run(void *ctx, dc_sweep *sw, size_t w, size_t j, dc_error *err)
{
    job *jb = ctx;
    dc_tornado *t = jb->t;
    size_t r = j % t->reps, s = (j / t->reps) % jb->settings, g = j / (t->reps * jb->settings);
    const dc_scenario *sc = dc_sweep_scenario(sw, g);
    size_t n = dc_scenario_uncertain_count(sc);
    double stack_p[64];
    double *p = n <= 64 ? stack_p : malloc(n * sizeof *p);
    if (!p)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        p[i] = 0.5;
        if (s > 0 && strcmp(stream_of(dc_scenario_uncertain(sc, i)), t->inputs[(s - 1) / 2]) == 0)
            p[i] = (s - 1) % 2 == 0 ? t->p_lo : t->p_hi;
    }
    int rc = dc_sweep_run_at(sw, w, g, dc_sweep_seed(sw, r), p, jb->metrics, t->n_metrics,
                             jb->raw + j * t->n_metrics, err);
    if (p != stack_p)
        free(p);
    return rc;
}

/* The mean of the finite values of raw[(first + r) * nm + m], r < reps. */
static double mean_of(const double *raw, size_t first, size_t reps, size_t nm, size_t m)
{
    double sum = 0.0;
    size_t k = 0;
    for (size_t r = 0; r < reps; r++) {
        double v = raw[(first + r) * nm + m];
        if (isfinite(v)) {
            sum += v;
            k++;
        }
    }
    return k ? sum / (double)k : NAN;
}

int dc_tornado_run(dc_sweep *sw, const char *const *metrics, size_t n_metrics, size_t reps, double p_lo,
                   double p_hi, size_t threads, dc_tornado **out, dc_error *err)
{
    dc_tornado *t = calloc(1, sizeof *t);
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    t->points = dc_sweep_points(sw);
    t->n_metrics = n_metrics;
    t->reps = reps < 1 ? 1 : reps;
    t->p_lo = p_lo;
    t->p_hi = p_hi;
    const dc_scenario *sc0 = dc_sweep_scenario(sw, 0);
    size_t n0 = dc_scenario_uncertain_count(sc0);
    t->inputs = calloc(n0 ? n0 : 1, sizeof *t->inputs);
    t->metrics = calloc(n_metrics ? n_metrics : 1, sizeof *t->metrics);
    int rc = t->inputs && t->metrics ? DC_OK : dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < n0 && rc == DC_OK; i++) {
        const char *name = stream_of(dc_scenario_uncertain(sc0, i));
        bool seen = false;
        for (size_t k = 0; k < t->n_inputs; k++)
            seen = seen || strcmp(t->inputs[k], name) == 0;
        if (!seen && !(t->inputs[t->n_inputs++] = strdup(name)))
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    for (size_t m = 0; m < n_metrics && rc == DC_OK; m++)
        if (!(t->metrics[m] = strdup(metrics[m])))
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    job jb = {.t = t, .metrics = metrics, .settings = 1 + 2 * t->n_inputs};
    size_t runs = t->points * jb.settings * t->reps;
    size_t cells = t->points * t->n_inputs * n_metrics;
    if (rc == DC_OK) {
        size_t raw_cells = runs * n_metrics, base_cells = t->points * n_metrics;
        jb.raw = malloc((raw_cells ? raw_cells : 1) * sizeof *jb.raw);
        t->base = calloc(base_cells ? base_cells : 1, sizeof *t->base);
        t->lo = calloc(cells ? cells : 1, sizeof *t->lo);
        t->hi = calloc(cells ? cells : 1, sizeof *t->hi);
        if (!jb.raw || !t->base || !t->lo || !t->hi)
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    if (rc == DC_OK)
        rc = dc_sweep_parallel(sw, runs, threads, one_run, &jb, NULL, NULL, err);
    for (size_t g = 0; g < t->points && rc == DC_OK; g++)
        for (size_t m = 0; m < n_metrics; m++) {
            size_t first = g * jb.settings * t->reps;
            t->base[g * n_metrics + m] = mean_of(jb.raw, first, t->reps, n_metrics, m);
            for (size_t k = 0; k < t->n_inputs; k++) {
                size_t i = (g * t->n_inputs + k) * n_metrics + m;
                t->lo[i] = mean_of(jb.raw, first + (2 * k + 1) * t->reps, t->reps, n_metrics, m);
                t->hi[i] = mean_of(jb.raw, first + (2 * k + 2) * t->reps, t->reps, n_metrics, m);
            }
        }
    free(jb.raw);
    if (rc != DC_OK) {
        dc_tornado_destroy(t);
        return rc;
    }
    *out = t;
    return DC_OK;
}
