/* The sizing search: evaluations of sizes through one-point sweeps, cached per set of assumptions,
 * and the bracketing and bisection of size.h.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Decisions where size.h is silent:
 *  - a size whose scenario a later check refuses (the memory limit of the
 *    caller's check) counts as refused, like a size the models refuse;
 *  - a refused size between a failing and a meeting one counts as failing
 *    (it cannot be the answer); above every size tried, it is a wall that
 *    the search does not pass;
 *  - the search gives up after 200 evaluations (it needs about
 *    log2(max_nodes / step) + 4). */
#include "size.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_EVALUATIONS 200

typedef struct aset {
    char **sets;
    size_t n;
    dc_size_eval **evals; /* by increasing job_nodes */
    size_t n_evals, cap;
} aset;

struct dc_sizer {
    dc_size_spec spec;
    dc_scenario *base;
    dc_size_shape shape;
    uint64_t seed, max_nodes;
    aset *asets;
    size_t n_asets, cap_asets;
    bool evaluated_any;
    /* where an interruption stopped the search (dc_sizer_stopped) */
    bool stopped, stopped_setting_up;
    uint64_t stopped_nodes;
};

static void free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void eval_free(dc_size_eval *e)
{
    if (!e)
        return;
    free(e->days);
    free(e->tco_usd);
    free(e->capex_usd);
    free(e->usd_per_gpu_h);
    free(e->ettr);
    free(e);
}

void dc_sizer_destroy(dc_sizer *s)
{
    if (!s)
        return;
    for (size_t a = 0; a < s->n_asets; a++) {
        free_list(s->asets[a].sets, s->asets[a].n);
        for (size_t i = 0; i < s->asets[a].n_evals; i++)
            eval_free(s->asets[a].evals[i]);
        free(s->asets[a].evals);
    }
    free(s->asets);
    dc_scenario_destroy(s->base);
    free(s);
}

int dc_sizer_create(const dc_size_spec *spec, dc_sizer **out, dc_error *err)
{
    if (!spec || !out || !spec->build || !spec->schemas || (!spec->file && !spec->text))
        return dc_error_set(err, DC_EINTERNAL, "dc_sizer_create: incomplete specification");
    if (spec->reps < 1 || spec->reps > DC_SWEEP_MAX_REPS)
        return dc_error_set(err, DC_EINPUT, "--reps: expected 1 to %d replications (got %zu)", DC_SWEEP_MAX_REPS,
                            spec->reps);
    if (!(spec->deadline_days > 0.0) || !isfinite(spec->deadline_days))
        return dc_error_set(err, DC_EINPUT, "--deadline-days: expected a positive number of days");
    dc_sizer *s = calloc(1, sizeof *s);
    if (!s)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    s->spec = *spec;
    /* Two copies: one validated (its errors are the user's), one as written
     * (distributions still groups, for scaling them by their parameters). */
    dc_scenario *checked = NULL;
    int rc = DC_OK;
    for (int k = 0; k < 2 && rc == DC_OK; k++) {
        dc_scenario **sc = k == 0 ? &checked : &s->base;
        rc = spec->file ? dc_scenario_load_file(spec->file, sc, err)
                        : dc_scenario_load_string(spec->text, spec->text_name, sc, err);
        if (rc == DC_OK) {
            dc_scenario_set_schema(*sc, spec->schemas);
            for (size_t i = 0; i < spec->n_sets && rc == DC_OK; i++)
                rc = dc_scenario_set(*sc, spec->sets[i], err);
        }
        if (rc == DC_OK && k == 0)
            rc = dc_scenario_validate(*sc, err);
    }
    if (rc == DC_OK)
        rc = dc_size_shape_read(s->base, &s->shape, err);
    if (rc == DC_OK) {
        long long seed = 1;
        config_lookup_int64(dc_scenario_config(checked), "seed", &seed);
        s->seed = spec->seed >= 0 ? (uint64_t)spec->seed : (uint64_t)seed;
    }
    dc_scenario_destroy(checked);
    if (rc != DC_OK) {
        dc_sizer_destroy(s);
        return rc;
    }
    uint64_t cap = (uint64_t)DC_SIZE_DEFAULT_GROWTH * s->shape.job_nodes;
    s->max_nodes = spec->max_nodes ? spec->max_nodes : cap;
    size_t id;
    if ((rc = dc_sizer_assume(s, NULL, 0, &id, err)) != DC_OK) {
        dc_sizer_destroy(s);
        return rc;
    }
    *out = s;
    return DC_OK;
}

const dc_size_shape *dc_sizer_shape(const dc_sizer *s)
{
    return &s->shape;
}

const dc_scenario *dc_sizer_scenario(const dc_sizer *s)
{
    return s->base;
}

double dc_sizer_deadline(const dc_sizer *s)
{
    return s->spec.deadline_days;
}

uint64_t dc_sizer_seed(const dc_sizer *s)
{
    return s->seed;
}

int dc_sizer_assume(dc_sizer *s, const char *const *sets, size_t n, size_t *id, dc_error *err)
{
    for (size_t a = 0; a < s->n_asets; a++) {
        bool same = s->asets[a].n == n;
        for (size_t i = 0; same && i < n; i++)
            same = strcmp(s->asets[a].sets[i], sets[i]) == 0;
        if (same) {
            *id = a;
            return DC_OK;
        }
    }
    if (s->n_asets == s->cap_asets) {
        size_t c = s->cap_asets ? 2 * s->cap_asets : 4;
        aset *p = realloc(s->asets, c * sizeof *p);
        if (!p)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        s->asets = p;
        s->cap_asets = c;
    }
    aset a = {0};
    if (n > 0 && !(a.sets = calloc(n, sizeof *a.sets)))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!(a.sets[i] = strdup(sets[i]))) {
            free_list(a.sets, i);
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        }
    }
    a.n = n;
    s->asets[s->n_asets] = a;
    *id = s->n_asets++;
    return DC_OK;
}

/* ---- statistics of an evaluation ----------------------------------------------------- */

size_t dc_size_met(const dc_size_eval *e, double t_days)
{
    size_t k = 0;
    while (k < e->reps && e->days[k] <= t_days)
        k++;
    return k;
}

bool dc_size_meets(const dc_size_eval *e, double t_days, double confidence)
{
    if (e->refused || e->reps == 0)
        return false;
    /* k / R >= c, with the product rounded so that c = 0.9 and k = 9 of 10 meet */
    return (double)dc_size_met(e, t_days) >= confidence * (double)e->reps - 1e-9;
}

double dc_size_days_quantile(const dc_size_eval *e, double p)
{
    if (e->refused || e->reps == 0)
        return NAN;
    double h = (double)(e->reps - 1) * p;
    size_t i = (size_t)floor(h);
    if (i + 1 >= e->reps)
        return e->days[e->reps - 1];
    double a = e->days[i], b = e->days[i + 1], f = h - (double)i;
    if (isinf(a) || (isinf(b) && f > 0.0))
        return INFINITY;
    return f > 0.0 ? a + f * (b - a) : a;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double dc_size_quantile(const double *x, size_t n, double p)
{
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t m = 0;
    for (size_t i = 0; v && i < n; i++)
        if (isfinite(x[i]))
            v[m++] = x[i];
    double q = NAN;
    if (v && m > 0) {
        qsort(v, m, sizeof *v, cmp_double);
        double h = (double)(m - 1) * p;
        size_t i = (size_t)floor(h);
        q = i + 1 < m ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[m - 1];
    }
    free(v);
    return q;
}

double dc_size_closed_form_gpus(const dc_size_eval *e, double deadline_days)
{
    return e->ideal_days * (double)e->gpus / deadline_days;
}

uint64_t dc_size_closed_form_nodes(const dc_size_shape *sh, const dc_size_eval *e, double deadline_days)
{
    double gpus = dc_size_closed_form_gpus(e, deadline_days);
    if (!isfinite(gpus))
        return 0;
    /* a product that lands a rounding error above a whole node is that node */
    double nodes = ceil(gpus / sh->gpus_per_node * (1.0 - 1e-12));
    double steps = ceil(nodes / (double)sh->step_nodes);
    return (uint64_t)(steps < 1.0 ? 1.0 : steps) * sh->step_nodes;
}

/* ---- evaluations --------------------------------------------------------------------- */

static double row_figure(const dc_sweep *sw, size_t row, const char *key)
{
    double v = NAN;
    return dc_sweep_row_get(sw, row, key, &v) ? v : NAN;
}

static int insert_eval(aset *a, dc_size_eval *e, dc_error *err)
{
    if (a->n_evals == a->cap) {
        size_t c = a->cap ? 2 * a->cap : 16;
        dc_size_eval **p = realloc(a->evals, c * sizeof *p);
        if (!p)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        a->evals = p;
        a->cap = c;
    }
    size_t k = a->n_evals;
    while (k > 0 && a->evals[k - 1]->job_nodes > e->job_nodes) {
        a->evals[k] = a->evals[k - 1];
        k--;
    }
    a->evals[k] = e;
    a->n_evals++;
    return DC_OK;
}

static int refuse(aset *a, dc_size_eval *e, const dc_error *why, const dc_size_eval **out,
                  dc_error *err)
{
    e->refused = true;
    e->reps = 0;
    snprintf(e->why, sizeof e->why, "%s", why->msg);
    int rc = insert_eval(a, e, err);
    if (rc != DC_OK) {
        eval_free(e);
        return rc;
    }
    *out = e;
    return DC_OK;
}

static int interrupted(dc_sizer *s, uint64_t n, bool setting_up, dc_error *err)
{
    s->stopped = true;
    s->stopped_nodes = n;
    s->stopped_setting_up = setting_up;
    return dc_error_set(err, DC_EINTERNAL, "interrupted");
}

bool dc_sizer_stopped(const dc_sizer *s, uint64_t *job_nodes, bool *setting_up, size_t *evaluated)
{
    size_t n = 0;
    for (size_t a = 0; a < s->n_asets; a++)
        n += s->asets[a].n_evals;
    *job_nodes = s->stopped_nodes;
    *setting_up = s->stopped_setting_up;
    *evaluated = n;
    return s->stopped;
}

int dc_sizer_evaluate(dc_sizer *s, size_t id, uint64_t n, const dc_size_eval **out, dc_error *err)
{
    if (id >= s->n_asets || n == 0 || (n % s->shape.step_nodes != 0 && n != s->shape.job_nodes))
        return dc_error_set(err, DC_EINTERNAL, "dc_sizer_evaluate: assumption set %zu or size %llu out of range", id,
                            (unsigned long long)n);
    aset *a = &s->asets[id];
    for (size_t i = 0; i < a->n_evals; i++)
        if (a->evals[i]->job_nodes == n) {
            *out = a->evals[i];
            return DC_OK;
        }
    if (s->spec.cancel && *s->spec.cancel)
        return interrupted(s, n, true, err);

    dc_size_eval *e = calloc(1, sizeof *e);
    char **sets = NULL;
    size_t n_sets = 0, cap = 0;
    size_t *rows = NULL;
    dc_sweep *sw = NULL;
    int rc = e ? DC_OK : dc_error_set(err, DC_ENOMEM, "out of memory");
    bool first = !s->evaluated_any;
    /* the user's sets, the assumptions, then the size */
    for (size_t i = 0; rc == DC_OK && i < s->spec.n_sets + a->n; i++) {
        const char *v = i < s->spec.n_sets ? s->spec.sets[i] : a->sets[i - s->spec.n_sets];
        char *copy = strdup(v);
        if (!copy) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        if (n_sets == cap) {
            size_t c = cap ? 2 * cap : 32;
            char **p = realloc(sets, c * sizeof *p);
            if (!p) {
                free(copy);
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                break;
            }
            sets = p;
            cap = c;
        }
        sets[n_sets++] = copy;
    }
    if (rc == DC_OK)
        rc = dc_size_assignments(s->base, &s->shape, n, s->spec.deadline_days, &sets, &n_sets, &cap, err);
    if (rc != DC_OK)
        goto done;
    e->job_nodes = n;
    e->gpus = n * s->shape.gpus_per_node;
    e->reps = s->spec.reps;

    dc_sweep_spec sp = {
        .file = s->spec.file,
        .text = s->spec.text,
        .text_name = s->spec.text_name,
        .schemas = s->spec.schemas,
        .build = s->spec.build,
        .build_cancellable = s->spec.build_cancellable,
        .cancel = s->spec.cancel,
        .sets = (const char *const *)sets,
        .n_sets = n_sets,
        .reps = s->spec.reps,
        .seed = (int64_t)s->seed,
    };
    size_t threads = s->spec.threads ? s->spec.threads : 1;
    dc_error why = {0};
    rc = dc_sweep_create(&sp, threads, &sw, &why);
    if (rc != DC_OK && s->spec.cancel && *s->spec.cancel) {
        rc = interrupted(s, n, true, err); /* in the validation build */
        goto done;
    }
    if (rc == DC_OK && s->spec.check)
        rc = s->spec.check(s->spec.check_ctx, dc_sweep_scenario(sw, 0), &why);
    if (rc != DC_OK) {
        if (rc == DC_EINPUT && !first) {
            rc = refuse(a, e, &why, out, err);
            e = NULL;
        } else {
            if (err)
                *err = why;
        }
        goto done;
    }
    /* what the site became */
    const dc_scenario *psc = dc_sweep_scenario(sw, 0);
    config_t *cfg = dc_scenario_config(psc);
    long long ll = 0;
    e->cluster_nodes = config_lookup_int64(cfg, "cluster.nodes", &ll) ? (uint64_t)ll : 0;
    ll = 0;
    config_lookup_int64(cfg, "cluster.spare_nodes", &ll);
    e->spare_nodes = (uint64_t)ll;
    ll = s->shape.crews;
    config_lookup_int64(cfg, "repair.crews", &ll);
    e->crews = ll;

    if (!(rows = malloc(e->reps * sizeof *rows)) || !(e->days = malloc(e->reps * sizeof *e->days)) ||
        !(e->tco_usd = malloc(e->reps * sizeof *e->tco_usd)) ||
        !(e->capex_usd = malloc(e->reps * sizeof *e->capex_usd)) ||
        !(e->usd_per_gpu_h = malloc(e->reps * sizeof *e->usd_per_gpu_h)) ||
        !(e->ettr = malloc(e->reps * sizeof *e->ettr))) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    for (size_t r = 0; r < e->reps; r++)
        rows[r] = r;
    dc_sweep_set_cancel(sw, s->spec.cancel);
    rc = dc_sweep_run(sw, rows, e->reps, threads, NULL, NULL, err);
    if (rc != DC_OK)
        goto done;
    if (dc_sweep_rows_done(sw) < e->reps) {
        rc = interrupted(s, n, false, err);
        goto done;
    }
    e->ideal_days = NAN;
    for (size_t r = 0; r < e->reps; r++) {
        double done_days = row_figure(sw, r, "job.completion_days");
        bool finished = row_figure(sw, r, "job.completed") > 0.0 && isfinite(done_days);
        e->days[r] = finished ? done_days : INFINITY;
        e->tco_usd[r] = row_figure(sw, r, "cost.tco_usd");
        e->capex_usd[r] = row_figure(sw, r, "cost.capex_usd");
        e->usd_per_gpu_h[r] = row_figure(sw, r, "cost.usd_per_useful_gpu_h");
        e->ettr[r] = row_figure(sw, r, "job.ettr");
        if (r == 0)
            e->ideal_days = row_figure(sw, r, "job.ideal_days");
    }
    /* the layout the step-time model chose (auto, a class's) */
    double tp = row_figure(sw, 0, "step.tensor"), pp = row_figure(sw, 0, "step.pipeline");
    if (first && isfinite(tp) && isfinite(pp))
        dc_size_shape_layout(&s->shape, (int)tp, (int)pp);
    qsort(e->days, e->reps, sizeof *e->days, cmp_double);
    if ((rc = insert_eval(a, e, err)) != DC_OK)
        goto done;
    *out = e;
    e = NULL;
    s->evaluated_any = true;
    if (s->spec.progress)
        s->spec.progress(s->spec.progress_ctx, n, dc_size_met(*out, s->spec.deadline_days), (*out)->reps);
done:
    if (rc == DC_OK && first)
        s->evaluated_any = true;
    eval_free(e);
    dc_sweep_destroy(sw);
    free(rows);
    free_list(sets, n_sets);
    return rc;
}

size_t dc_sizer_curve(const dc_sizer *s, size_t id, const dc_size_eval *const **out)
{
    if (id >= s->n_asets) {
        *out = NULL;
        return 0;
    }
    *out = (const dc_size_eval *const *)s->asets[id].evals;
    return s->asets[id].n_evals;
}

/* ---- the search ---------------------------------------------------------------------- */

int dc_sizer_search(dc_sizer *s, size_t id, double target_days, double confidence, dc_size_answer *ans,
                    dc_error *err)
{
    memset(ans, 0, sizeof *ans);
    if (!(target_days > 0.0) || !(confidence > 0.0 && confidence <= 1.0))
        return dc_error_set(err, DC_EINTERNAL, "dc_sizer_search: target %g days, confidence %g", target_days,
                            confidence);
    /* the scenario's own size first: it settles the layout, hence the step */
    const dc_size_eval *own;
    int rc0 = dc_sizer_evaluate(s, id, s->shape.job_nodes, &own, err);
    if (rc0 != DC_OK)
        return rc0;
    uint64_t q = s->shape.step_nodes;
    uint64_t u_max = s->max_nodes / q;
    if (u_max < 1)
        u_max = 1;
    uint64_t lo = 0, hi = 0, wall = u_max + 1, u = (s->shape.job_nodes + q - 1) / q;
    if (u > u_max)
        u = u_max;
    const dc_size_eval *last_fail = NULL, *last_meet = NULL, *wall_eval = NULL;
    bool converged = false;
    for (size_t it = 0; it < MAX_EVALUATIONS && !converged; it++) {
        const dc_size_eval *e;
        int rc = dc_sizer_evaluate(s, id, u * q, &e, err);
        if (rc != DC_OK)
            return rc;
        ans->evaluations++;
        if (e->refused) {
            if (hi == 0 || u > hi) {
                if (u < wall) {
                    wall = u;
                    wall_eval = e;
                }
            } else if (u > lo) {
                lo = u;
            }
        } else if (dc_size_meets(e, target_days, confidence)) {
            if (hi == 0 || u < hi) {
                hi = u;
                last_meet = e;
            }
        } else if (u > lo) {
            lo = u;
            last_fail = e;
        }
        /* the next size */
        uint64_t next;
        if (hi == 0) {
            double d = last_fail ? dc_size_days_quantile(last_fail, confidence) : INFINITY;
            double est = isfinite(d) ? ceil((double)lo * d / target_days) : 2.0 * (double)lo;
            if (lo == 0)
                est = 1.0;
            if (est < (double)lo + 1.0)
                est = (double)lo + 1.0;
            if (est > 4.0 * (double)lo)
                est = 4.0 * (double)lo;
            next = (uint64_t)est;
            if (next >= wall)
                next = lo + (wall - lo) / 2;
            if (next <= lo) {
                ans->found = false;
                ans->limit_nodes = (wall - 1) * q;
                if (wall_eval)
                    snprintf(ans->why, sizeof ans->why, "%llu nodes are refused: %s",
                             (unsigned long long)(wall_eval->job_nodes), wall_eval->why);
                else
                    snprintf(ans->why, sizeof ans->why, "no size up to %llu nodes (the largest searched) meets it",
                             (unsigned long long)((wall - 1) * q));
                return DC_OK;
            }
        } else if (lo == 0) {
            if (hi == 1) {
                converged = true;
                break;
            }
            double d = dc_size_days_quantile(last_meet, confidence);
            double est = floor((double)hi * d / target_days);
            if (est > (double)hi - 1.0)
                est = (double)hi - 1.0;
            if (est < floor((double)hi / 4.0))
                est = floor((double)hi / 4.0);
            if (est < 1.0)
                est = 1.0;
            next = (uint64_t)est;
        } else {
            if (hi <= lo + 1) {
                converged = true;
                break;
            }
            next = lo + (hi - lo) / 2;
        }
        u = next;
    }
    if (!converged)
        return dc_error_set(err, DC_EINTERNAL, "the size search did not converge in %d evaluations", MAX_EVALUATIONS);
    ans->found = true;
    ans->job_nodes = hi * q;
    for (size_t i = 0; i < s->asets[id].n_evals; i++)
        if (s->asets[id].evals[i]->job_nodes == hi * q)
            ans->eval = s->asets[id].evals[i];
    return DC_OK;
}
