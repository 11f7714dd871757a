/* The failure model: component failure classes, their laws, detection, corruption and spare parts.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "failure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "cfgget.h"
#include "cluster.h"
#include "dist.h"
#include "failurelog.h"
#include "law_params.h"
#include "straggler.h"

const dc_param dc_failure_params[] = {
    {"failures", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "failure classes; absent: nothing fails"},
    {"failures.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "class name (summary key interruptions.NAME; [a-z0-9_], unique)"},
    {"failures.[].per", DC_PARAM_STRING, 0, "", 0, "node", 0, 0, "gpu|node|rack|job|job_gpu",
     "count basis: one failure process per GPU, node, rack, job, or GPU of a computing job"},
    {"failures.[].takes", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, "node|rack|job",
     "what a failure takes down (default: node for gpu/node, rack for rack, job for job bases)"},
    {"failures.[].mode", DC_PARAM_STRING, 0, "", 0, "stop", 0, 0, "stop|slow|corrupt",
     "stop: fail-stop; slow: the node becomes a straggler; corrupt: silent data corruption of the job"},
    {"failures.[].mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL,
     0, 1e12, NULL, "mean time between failures of one unit"},
    {"failures.[].afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL,
     0, 1e6, NULL, "annualised failure rate of one unit (instead of mtbf_h; 8766 h per year)"},
    DC_LAW_PARAMS("failures.[]", "exponential", "time between failures of one unit"),
    {"failures.[].initial_age_h", DC_PARAM_FLOAT, 0, "h", 0, NULL, 0, 1e7, NULL,
     "age of every unit at the start (non-exponential laws: 0 = all new, infant mortality first)"},
    {"failures.[].from_log", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "only the failure_log's failures of this class, no random arrivals (its law is not used)"},
    {"failures.[].detect_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e8, NULL,
     "delay before a failure is noticed (0: reported at once; a hang: the watchdog timeout)"},
    {"failures.[].check_interval_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e8, NULL,
     "periodic checks: noticed at the first check at or after detect_s (0: no periodic check)"},
    {"failures.[].bad_fraction", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1, NULL,
     "this class's own bad nodes (\"lemons\"): a fraction of the nodes, drawn from stream failure.CLASS.bad_nodes, "
     "failing bad_factor times as often in this class (instead of bad_nodes' set)"},
    {"failures.[].bad_factor", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 1, 1e6, NULL,
     "hazard factor of bad nodes for this class (default: bad_nodes.rate_factor; gpu and node bases)"},
    {"failures.[].slow_factor", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE
     | DC_PARAM_MAX_EXCLUSIVE, "", 0, NULL, 0, 1, NULL,
     "mode slow: speed of a straggler relative to a healthy node (default 0.5)"},
    {"failures.[].policy", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, "evict|tolerate",
     "mode slow: at detection evict the straggler (restart without it) or tolerate it (default evict)"},
    {"failures.[].evict_below", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1, NULL,
     "mode slow, policy evict: evict only stragglers slower than this factor (default 1: all)"},
    {"failures.[].repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "manual repair-time law for this class (default: the repair group's law)"},
    DC_LAW_PARAMS("failures.[].repair", "lognormal", "repair time"),
    {"fleet", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "the nodes' ages at the start: a fleet bought over time"},
    {"fleet.age", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "law of a node's age at the start (its units' clocks start there, beside initial_age_h)"},
    DC_LAW_PARAMS("fleet.age", "constant", "age of a node at the start"),
    {"bad_nodes", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "systematically bad nodes with a higher failure rate; absent: none"},
    {"bad_nodes.fraction", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "", 0, NULL, 0, 1, NULL,
     "fraction of the nodes that are bad (drawn at the start)"},
    {"bad_nodes.rate_factor", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "", 0, NULL, 1, 1e6, NULL,
     "hazard of a bad node's units / a good node's, in per-gpu and per-node classes"},
    {0},
};

enum basis { PER_GPU, PER_NODE, PER_RACK, PER_JOB, PER_JOB_GPU };
enum takes { TAKES_NODE, TAKES_RACK, TAKES_JOB };
enum mode { MODE_STOP, MODE_SLOW, MODE_CORRUPT };

typedef struct uentry {
    double v;
    uint32_t unit, gen;
} uentry;

/* A set of systematically bad nodes: bad_nodes (every per-gpu and per-node
 * class) or a class's own (failures.[].bad_fraction). */
typedef struct badset {
    uint32_t n_bad0;
    uint32_t *order;   /* bad nodes first, then good ones (when any is bad) */
    uint8_t *bad_now;
} badset;

typedef struct fclass {
    char name[DC_EVENTLOG_COMPONENT_LEN];
    enum basis basis;
    enum takes takes;
    enum mode mode;
    dc_dist law;
    gsl_rng *rng, *rng_thin;
    uint64_t units;
    uint64_t upn;      /* units per node for bad-node weights (0: not weighted) */
    double bad_factor; /* k */
    badset own_bad;    /* bad_fraction: the class's own bad nodes */
    const badset *bs;  /* its bad nodes: own_bad, or the model's bad_nodes */
    double weight;     /* W */
    double detect_s, check_s;
    double slow_factor, evict_below;
    bool evict;
    double initial_age_s;
    bool from_log;     /* no arrivals of its own: the failure log's rows only */
    uint64_t n_failures, n_repeats;

    /* The class's clock: V = v_last + accel (t - t_last). */
    double accel, v_last, t_last;
    double next_v;          /* exponential: the next arrival */
    dc_event_handle ev;

    /* Per-unit clocks: a heap of deadlines in V; stale entries (gen) skipped. */
    uentry *heap;
    size_t n_heap, cap_heap;
    uint32_t *gen;
    uint8_t *awaiting;      /* failed (or due while down): renewed by the repair */
    double *born_v;
} fclass;

typedef struct failure_model {
    dc_sim *sim;
    dc_cluster *cluster;
    fclass *classes;
    size_t n_classes;
    dc_eventlog *log;
    uint32_t n_nodes;

    badset bad;        /* bad_nodes */
    uint32_t *down_epoch;
    double *node_age_s;  /* fleet.age: each node's age at the start (NULL: none) */
    dc_straggler *straggler;
    uint64_t node_failures;
    bool started;
    /* mixed hardware (cluster.types): each type's failure_scale, their
     * largest (the Poisson classes' rate, thinned per node), failures by
     * type; the per-GPU classes' scales apart: 0 on a CPU-only type (no GPU
     * to fail) */
    double *type_scale, scale_max, *type_scale_gpu, scale_max_gpu;
    bool type_scaled, type_scaled_gpu;
    uint64_t *type_failures;

    /* Job-level classes.  Exponential ones are a Poisson process over the
     * jobs that hold nodes (phase neither pending nor done): their units in
     * Fenwick trees (jobs: 1 each; GPUs: the job's), the rate following
     * their sum.  Per-unit clocks keep a unit per defined job (GPU), found
     * through the prefix sums of the jobs' GPUs. */
    uint32_t n_jobs;
    uint8_t *holding;
    uint64_t *fw_jobs, *fw_gpus;  /* 1-based Fenwick trees over job ids */
    uint64_t w_jobs, w_gpus;
    uint64_t *gpu_prefix;         /* per-unit job_gpu clocks: GPUs of jobs 0..j-1 */
    bool any_dynamic;
    /* the failure log (failurelog.h): rows in time order, the next one due */
    dc_failure_row *logged;
    size_t n_logged, next_logged;
    uint64_t n_log_injected, n_log_skipped;
    bool has_log;
} failure_model;

#define CLASS_BITS 12
#define EPOCH_BITS 20

static double vnow(const fclass *fc, double now)
{
    return fc->v_last + fc->accel * (now - fc->t_last);
}

static void on_poisson(dc_sim *sim, void *ctx, uint64_t ci);
static void on_unit(dc_sim *sim, void *ctx, uint64_t ci);

/* (Re)schedules the class's one pending event at the real time of its next
 * deadline in V. */
static void arm(failure_model *m, size_t ci)
{
    fclass *fc = &m->classes[ci];
    dc_sim_cancel(m->sim, &fc->ev);
    double v;
    if (fc->law.kind == DC_DIST_EXPONENTIAL) {
        v = fc->next_v;
    } else {
        if (fc->n_heap == 0)
            return;
        v = fc->heap[0].v;
    }
    if (!(fc->accel > 0.0) || !isfinite(v))
        return;
    double now = dc_sim_now(m->sim);
    double t = fc->t_last + (v - fc->v_last) / fc->accel;
    if (t < now)
        t = now;
    fc->ev = dc_sim_at(m->sim, t, fc->law.kind == DC_DIST_EXPONENTIAL ? on_poisson : on_unit, m, ci);
}

static bool heap_push(fclass *fc, uentry e)
{
    if (fc->n_heap == fc->cap_heap) {
        size_t ncap = fc->cap_heap ? 2 * fc->cap_heap : 64;
        uentry *g = realloc(fc->heap, ncap * sizeof *g);
        if (!g)
            return false;
        fc->heap = g;
        fc->cap_heap = ncap;
    }
    size_t i = fc->n_heap++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (fc->heap[p].v <= e.v)
            break;
        fc->heap[i] = fc->heap[p];
        i = p;
    }
    fc->heap[i] = e;
    return true;
}

static uentry heap_pop(fclass *fc)
{
    uentry top = fc->heap[0], last = fc->heap[--fc->n_heap];
    size_t i = 0, n = fc->n_heap;
    for (;;) {
        size_t l = 2 * i + 1, r = l + 1, s = i;
        double sv = last.v;
        if (l < n && fc->heap[l].v < sv)
            s = l, sv = fc->heap[l].v;
        if (r < n && fc->heap[r].v < sv)
            s = r;
        if (s == i)
            break;
        fc->heap[i] = fc->heap[s];
        i = s;
    }
    if (n > 0)
        fc->heap[i] = last;
    return top;
}

static double survival_k(const dc_dist *d, double t, double k);

/* Residual lifetime of a unit of age x_s with hazard factor k (failure.h). */
static double residual_s(const dc_dist *d, double x_s, double k, gsl_rng *rng)
{
    double u = gsl_rng_uniform_pos(rng);
    double t;
    switch (d->kind) {
    case DC_DIST_CONSTANT:
        t = d->a / k - x_s;
        break;
    case DC_DIST_EXPONENTIAL:
        t = -log(u) * d->a / k;
        break;
    case DC_DIST_WEIBULL:
        t = d->a * pow(pow(x_s / d->a, d->b) - log(u) / k, 1.0 / d->b) - x_s;
        break;
    case DC_DIST_LOGNORMAL:
    case DC_DIST_GAMMA: {
        double target = survival_k(d, x_s, 1.0) * pow(u, 1.0 / k);
        if (!(target > 0.0))
            return 0.0;
        t = (d->kind == DC_DIST_LOGNORMAL ? gsl_cdf_lognormal_Qinv(target, d->a, d->b)
                                          : gsl_cdf_gamma_Qinv(target, d->a, d->b))
            - x_s;
        break;
    }
    default:
        t = 0.0;
    }
    return t > 0.0 && isfinite(t) ? t : 0.0;
}

static double survival_k(const dc_dist *d, double t, double k)
{
    double s;
    switch (d->kind) {
    case DC_DIST_CONSTANT:
        return t < d->a / k ? 1.0 : 0.0;
    case DC_DIST_EXPONENTIAL:
        return exp(-k * t / d->a);
    case DC_DIST_WEIBULL:
        return exp(-k * pow(t / d->a, d->b));
    case DC_DIST_LOGNORMAL:
        s = gsl_cdf_lognormal_Q(t, d->a, d->b);
        break;
    case DC_DIST_GAMMA:
        s = gsl_cdf_gamma_Q(t, d->a, d->b);
        break;
    default:
        return 0.0;
    }
    return k == 1.0 ? s : pow(s, k);
}

typedef struct surv_args {
    const dc_dist *d;
    double k;
} surv_args;

static double surv_fn(double t, void *p)
{
    const surv_args *a = p;
    return survival_k(a->d, t, a->k);
}

/* E[lifetime] under proportional hazards k: the integral of S(t)^k. */
static double mean_life_s(const dc_dist *d, double k)
{
    if (k == 1.0)
        return dc_dist_mean(d);
    switch (d->kind) {
    case DC_DIST_CONSTANT:
    case DC_DIST_EXPONENTIAL:
        return d->a / k;
    case DC_DIST_WEIBULL:
        return d->a * pow(k, -1.0 / d->b) * gsl_sf_gamma(1.0 + 1.0 / d->b);
    default: {
        gsl_integration_workspace *w = gsl_integration_workspace_alloc(200);
        if (!w)
            return dc_dist_mean(d) / k;
        surv_args a = {d, k};
        gsl_function f = {surv_fn, &a};
        double result = 0, abserr = 0;
        int rc = gsl_integration_qagiu(&f, 0.0, 0.0, 1e-7, 200, w, &result, &abserr);
        gsl_integration_workspace_free(w);
        return rc == 0 && result > 0.0 ? result : dc_dist_mean(d) / k;
    }
    }
}

static uint64_t class_units(const failure_model *m, const fclass *fc)
{
    const dc_cluster *c = m->cluster;
    switch (fc->basis) {
    case PER_GPU:
        return (uint64_t)dc_cluster_node_count(c) * dc_cluster_gpus_per_node(c);
    case PER_NODE:
        return dc_cluster_node_count(c);
    case PER_RACK:
        return dc_cluster_rack_count(c);
    case PER_JOB:
        return dc_cluster_job_count(c);
    case PER_JOB_GPU: {
        uint64_t g = 0;
        for (uint32_t j = 0; j < dc_cluster_job_count(c); j++)
            g += (uint64_t)dc_cluster_job_nodes(c, (int32_t)j) * dc_cluster_job_gpus_per_node(c, (int32_t)j);
        return g;
    }
    }
    return 0;
}

static uint32_t unit_node(const failure_model *m, const fclass *fc, uint64_t u)
{
    if (fc->basis == PER_GPU)
        return (uint32_t)(u / dc_cluster_gpus_per_node(m->cluster));
    if (fc->basis == PER_NODE)
        return (uint32_t)u;
    return (uint32_t)u * dc_cluster_nodes_per_rack(m->cluster);
}

static bool node_up(const failure_model *m, uint32_t node)
{
    dc_node_state st = dc_cluster_node_state(m->cluster, node);
    return st == DC_NODE_IDLE || st == DC_NODE_BUSY;
}

/* A class scaled by the node types' failure_scale: per GPU and per node. */
static bool type_scaled(const failure_model *m, const fclass *fc)
{
    return fc->basis == PER_GPU ? m->type_scaled_gpu : m->type_scaled && fc->basis == PER_NODE;
}

/* The class's scale of a node's type (type_scaled classes). */
static double type_scale_of(const failure_model *m, const fclass *fc, uint32_t node)
{
    const double *scale = fc->basis == PER_GPU ? m->type_scale_gpu : m->type_scale;
    return scale[dc_cluster_node_type(m->cluster, node)];
}

static double node_factor(const failure_model *m, const fclass *fc, uint32_t node)
{
    double f = fc->upn && fc->bs->bad_now && fc->bs->bad_now[node] ? fc->bad_factor : 1.0;
    return type_scaled(m, fc) ? f * type_scale_of(m, fc, node) : f;
}

/* The Poisson rate's factor of a class: the largest type scale (its strikes
 * thinned to each node's). */
static double rate_scale(const failure_model *m, const fclass *fc)
{
    return !type_scaled(m, fc) ? 1.0 : fc->basis == PER_GPU ? m->scale_max_gpu : m->scale_max;
}

/* From t, the delay until the failure is noticed. */
static double detection_delay(const fclass *fc, double t)
{
    double at = t + fc->detect_s;
    if (fc->check_s > 0.0)
        at = ceil(at / fc->check_s) * fc->check_s;
    return at > t ? at - t : 0.0;
}

/* Exponential job-level classes follow the jobs holding nodes. */
static bool dynamic_class(const fclass *fc)
{
    return (fc->basis == PER_JOB || fc->basis == PER_JOB_GPU) && fc->law.kind == DC_DIST_EXPONENTIAL;
}

static uint64_t job_gpus(const failure_model *m, uint32_t j)
{
    return (uint64_t)dc_cluster_job_nodes(m->cluster, (int32_t)j) * dc_cluster_job_gpus_per_node(m->cluster, (int32_t)j);
}

static void fw_add(uint64_t *fw, uint32_t n, uint32_t j, uint64_t d, bool minus)
{
    for (uint32_t i = j + 1; i <= n; i += i & (~i + 1))
        fw[i] = minus ? fw[i] - d : fw[i] + d;
}

/* The job whose units hold unit u (< the total): the first j with
 * prefix(j + 1) > u. */
static uint32_t fw_find(const uint64_t *fw, uint32_t n, uint64_t u)
{
    uint32_t pos = 0, step = 1;
    while (step * 2 <= n)
        step *= 2;
    for (; step; step /= 2)
        if (pos + step <= n && fw[pos + step] <= u) {
            pos += step;
            u -= fw[pos];
        }
    return pos < n ? pos : n - 1;
}

static void log_failure(failure_model *m, fclass *fc, int32_t node, int32_t job, double n)
{
    fc->n_failures++;
    dc_eventlog_add(m->log, dc_sim_now(m->sim), "failure", fc->name, node, job, n);
}

/* A fail-stop failure of class ci on node (its rack for rack-wide classes). */
static bool strike_stop(failure_model *m, size_t ci, uint32_t node)
{
    fclass *fc = &m->classes[ci];
    dc_cluster *c = m->cluster;
    uint32_t nodes[1024];
    size_t n = 0;
    int32_t job = -1;
    if (fc->takes == TAKES_RACK) {
        uint32_t npr = dc_cluster_nodes_per_rack(c);
        uint32_t first = node / npr * npr;
        for (uint32_t k = first; k < first + npr && k < dc_cluster_node_count(c) && n < 1024; k++)
            if (node_up(m, k))
                nodes[n++] = k;
    } else if (node_up(m, node)) {
        nodes[n++] = node;
    }
    if (n == 0)
        return false;
    for (size_t k = 0; k < n && job < 0; k++)
        job = dc_cluster_node_job(c, nodes[k]);
    log_failure(m, fc, (int32_t)nodes[0], job, (double)n);
    if (m->type_failures)
        m->type_failures[dc_cluster_node_type(c, nodes[0])]++;
    dc_cluster_fail_detected(c, (int)ci, fc->name, nodes, n, -1, detection_delay(fc, dc_sim_now(m->sim)));
    return true;
}

/* ---------- the failure log ---------- */

static void on_log_return(dc_sim *sim, void *ctx, uint64_t arg)
{
    failure_model *m = ctx;
    (void)sim;
    uint32_t node = (uint32_t)arg, epoch = (uint32_t)(arg >> 32);
    /* the same down period (no later failure took it down again meanwhile) */
    if (m->down_epoch[node] == epoch && dc_cluster_node_state(m->cluster, node) == DC_NODE_DOWN)
        dc_cluster_repaired(m->cluster, &node, 1);
}

/* Row k of the log strikes now, as a failure of its class (its takes and
 * detection); then the next row is scheduled. */
static void on_logged(dc_sim *sim, void *ctx, uint64_t k)
{
    failure_model *m = ctx;
    const dc_failure_row *row = &m->logged[k];
    fclass *fc = &m->classes[row->class_id];
    dc_cluster *c = m->cluster;
    uint32_t nodes[1024];
    size_t n = 0;
    int32_t job = -1;
    if (fc->takes == TAKES_RACK) {
        uint32_t npr = dc_cluster_nodes_per_rack(c), first = row->node / npr * npr;
        for (uint32_t u = first; u < first + npr && u < m->n_nodes && n < 1024; u++)
            if (node_up(m, u))
                nodes[n++] = u;
    } else if (node_up(m, row->node)) {
        nodes[n++] = row->node;
    }
    if (n == 0) {
        m->n_log_skipped++;
    } else {
        for (size_t i = 0; i < n && job < 0; i++)
            job = dc_cluster_node_job(c, nodes[i]);
        m->n_log_injected++;
        log_failure(m, fc, (int32_t)nodes[0], job, (double)n);
        dc_cluster_fail_returning(c, row->class_id, fc->name, nodes, n, -1, detection_delay(fc, dc_sim_now(sim)),
                                  row->return_s);
        for (size_t i = 0; i < n && row->return_s > 0.0; i++)
            dc_sim_after(sim, row->return_s, on_log_return, m, nodes[i] | ((uint64_t)m->down_epoch[nodes[i]] << 32));
    }
    if (++m->next_logged < m->n_logged)
        dc_sim_at(sim, m->logged[m->next_logged].time_s, on_logged, m, m->next_logged);
}

/* Applies a failure of unit u of class ci if the unit can fail now. */
static bool strike(failure_model *m, size_t ci, uint64_t u)
{
    fclass *fc = &m->classes[ci];
    dc_cluster *c = m->cluster;
    double now = dc_sim_now(m->sim);

    if (fc->basis == PER_JOB || fc->basis == PER_JOB_GPU) {
        int32_t job = -1;
        if (dynamic_class(fc)) {
            job = (int32_t)u; /* on_poisson drew the job */
        } else if (fc->basis == PER_JOB) {
            job = (int32_t)u;
        } else if (m->gpu_prefix && m->n_jobs > 0 && u < m->gpu_prefix[m->n_jobs]) {
            /* the last job whose first unit is <= u */
            uint32_t lo = 0, hi = m->n_jobs;
            while (hi - lo > 1) {
                uint32_t mid = lo + (hi - lo) / 2;
                if (m->gpu_prefix[mid] <= u)
                    lo = mid;
                else
                    hi = mid;
            }
            job = (int32_t)lo;
        }
        if (job < 0 || !dc_cluster_job_active(c, job))
            return false;
        log_failure(m, fc, -1, job, 0.0);
        if (fc->mode == MODE_CORRUPT)
            dc_cluster_corrupt(c, (int)ci, fc->name, -1, job, detection_delay(fc, now));
        else
            dc_cluster_fail_detected(c, (int)ci, fc->name, NULL, 0, job, detection_delay(fc, now));
        return true;
    }

    uint32_t node = unit_node(m, fc, u);
    switch (fc->mode) {
    case MODE_SLOW:
        if (!node_up(m, node) || dc_straggler_is_slow(m->straggler, node))
            return false;
        log_failure(m, fc, (int32_t)node, dc_cluster_node_job(c, node), 1.0);
        dc_straggler_onset(m->straggler, node, fc->slow_factor, (int)ci, fc->name, detection_delay(fc, now),
                           fc->evict && fc->slow_factor < fc->evict_below);
        return true;
    case MODE_CORRUPT: {
        if (dc_cluster_node_state(c, node) != DC_NODE_BUSY)
            return false;
        int32_t job = dc_cluster_node_job(c, node);
        if (job < 0 || !dc_cluster_job_active(c, job))
            return false;
        log_failure(m, fc, (int32_t)node, job, 1.0);
        dc_cluster_corrupt(c, (int)ci, fc->name, (int32_t)node, job, detection_delay(fc, now));
        return true;
    }
    case MODE_STOP:
        break;
    }
    return strike_stop(m, ci, node);
}

/* Exponential classes: the next arrival of the superposed process. */
static void on_poisson(dc_sim *sim, void *ctx, uint64_t ci)
{
    failure_model *m = ctx;
    fclass *fc = &m->classes[ci];
    fc->ev = DC_EVENT_NONE;
    if (dynamic_class(fc)) {
        /* a unit of the jobs holding nodes, drawn uniformly: its job */
        uint64_t x = fc->weight > 1.0 ? (uint64_t)(gsl_rng_uniform(fc->rng) * fc->weight) : 0;
        bool per_gpu = fc->basis == PER_JOB_GPU;
        uint64_t total = per_gpu ? m->w_gpus : m->w_jobs;
        if (x >= total)
            x = total > 0 ? total - 1 : 0;
        uint32_t job = total > 0 ? fw_find(per_gpu ? m->fw_gpus : m->fw_jobs, m->n_jobs, x) : 0;
        /* the next arrival first: a strike that changes the jobs holding
         * nodes rescales it */
        fc->next_v += gsl_ran_exponential(fc->rng, fc->law.a / fc->weight);
        if (total > 0)
            strike(m, ci, job);
        arm(m, ci);
        return;
    }
    const badset *bs = fc->bs;
    bool weighted = fc->upn && bs->n_bad0 && fc->bad_factor != 1.0;
    uint64_t u = 0;
    bool keep = true;
    if (fc->units > 1 || weighted) {
        double x = gsl_rng_uniform(fc->rng) * fc->weight;
        if (!weighted) {
            u = (uint64_t)x;
        } else {
            double k = fc->bad_factor, bad_units = (double)bs->n_bad0 * (double)fc->upn;
            uint64_t idx;
            if (x < k * bad_units) {
                idx = (uint64_t)(x / k);
                /* A bad node since replaced by a good one weighs 1, not k. */
                uint32_t node = bs->order[idx / fc->upn];
                if (!bs->bad_now[node])
                    keep = gsl_rng_uniform(fc->rng_thin) * k < 1.0;
            } else {
                idx = (uint64_t)(x - k * bad_units) + (uint64_t)bad_units;
            }
            if (idx >= fc->units)
                idx = fc->units - 1;
            u = (uint64_t)bs->order[idx / fc->upn] * fc->upn + idx % fc->upn;
        }
    }
    if (u >= fc->units)
        u = fc->units - 1;
    if (keep && type_scaled(m, fc)) /* thinning to the node's type */
        keep = gsl_rng_uniform(fc->rng_thin) * rate_scale(m, fc) < type_scale_of(m, fc, unit_node(m, fc, u));
    if (keep)
        strike(m, ci, u);
    fc->next_v += gsl_ran_exponential(fc->rng, fc->law.a / (fc->weight * rate_scale(m, fc)));
    arm(m, ci);
}

static void renew(failure_model *m, fclass *fc, uint32_t u, bool as_new)
{
    double v = vnow(fc, dc_sim_now(m->sim));
    fc->awaiting[u] = 0;
    fc->gen[u]++;
    if (as_new)
        fc->born_v[u] = v;
    uint32_t node = fc->basis == PER_RACK ? 0 : unit_node(m, fc, u);
    double k = node_factor(m, fc, node);
    double life = residual_s(&fc->law, v - fc->born_v[u], k, fc->rng);
    if (!(k > 0.0)) /* a scale of 0 (a GPU of a CPU-only node): it never fails */
        return;
    if (!heap_push(fc, (uentry){v + life, u, fc->gen[u]}))
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory renewing a unit of failure class %s", fc->name);
}

/* Per-unit clocks: the unit whose deadline came. */
static void on_unit(dc_sim *sim, void *ctx, uint64_t ci)
{
    failure_model *m = ctx;
    fclass *fc = &m->classes[ci];
    fc->ev = DC_EVENT_NONE;
    uentry e = heap_pop(fc);
    if (e.gen == fc->gen[e.unit]) {
        fc->awaiting[e.unit] = 1;
        strike(m, ci, e.unit);
    }
    arm(m, ci);
}

/* The repeat failure of a node returned still faulty. */
static void on_repeat(dc_sim *sim, void *ctx, uint64_t arg)
{
    failure_model *m = ctx;
    uint32_t node = (uint32_t)arg;
    size_t ci = (size_t)((arg >> 32) & ((1u << CLASS_BITS) - 1));
    uint32_t epoch = (uint32_t)(arg >> (32 + CLASS_BITS));
    if (ci >= m->n_classes || (m->down_epoch[node] & ((1u << EPOCH_BITS) - 1)) != epoch)
        return;
    if (strike_stop(m, ci, node))
        m->classes[ci].n_repeats++;
}

static void on_nodes_up(dc_sim *sim, void *ctx, const void *payload)
{
    failure_model *m = ctx;
    const dc_nodes_event *ev = payload;
    uint32_t gpn = dc_cluster_gpus_per_node(m->cluster), npr = dc_cluster_nodes_per_rack(m->cluster);
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t node = ev->nodes[i];
        if (ev->new_node && m->bad.bad_now)
            m->bad.bad_now[node] = 0;
        for (size_t ci = 0; ev->new_node && ci < m->n_classes; ci++)
            if (m->classes[ci].own_bad.bad_now)
                m->classes[ci].own_bad.bad_now[node] = 0;
        if (ev->still_faulty) {
            if (ev->class_id >= 0 && (size_t)ev->class_id < m->n_classes && i == 0) {
                uint64_t arg = node | ((uint64_t)ev->class_id << 32)
                               | ((uint64_t)(m->down_epoch[node] & ((1u << EPOCH_BITS) - 1)) << (32 + CLASS_BITS));
                dc_sim_after(sim, ev->refail_s, on_repeat, m, arg);
            }
            continue;
        }
        for (size_t ci = 0; ci < m->n_classes; ci++) {
            fclass *fc = &m->classes[ci];
            if (!fc->gen || fc->units == 0)
                continue;
            size_t min0 = fc->n_heap ? 0 : 1;
            double old_min = fc->n_heap ? fc->heap[0].v : INFINITY;
            uint64_t first, count;
            if (fc->basis == PER_GPU)
                first = (uint64_t)node * gpn, count = gpn;
            else if (fc->basis == PER_NODE)
                first = node, count = 1;
            else
                first = node / npr, count = 1;
            for (uint64_t u = first; u < first + count; u++)
                if (fc->awaiting[u] || (ev->new_node && fc->basis != PER_RACK))
                    renew(m, fc, (uint32_t)u, ev->as_new || ev->new_node);
            if (min0 || (fc->n_heap && fc->heap[0].v < old_min))
                arm(m, ci);
        }
    }
}

static void on_any_failure(dc_sim *sim, void *ctx, const void *payload)
{
    failure_model *m = ctx;
    const dc_failure_event *ev = payload;
    if (ev->n_nodes == 0)
        return;
    if (ev->class_id != DC_CLASS_STAGE_RETIRED) /* a refresh is no failure */
        m->node_failures++;
    for (size_t i = 0; i < ev->n_nodes; i++)
        m->down_epoch[ev->nodes[i]]++;
}

static void on_accel(dc_sim *sim, void *ctx, const void *payload)
{
    failure_model *m = ctx;
    const dc_failure_class_event *ev = payload;
    if (ev->class_id < 0 || (size_t)ev->class_id >= m->n_classes)
        return;
    fclass *fc = &m->classes[ev->class_id];
    double now = dc_sim_now(sim);
    fc->v_last = vnow(fc, now);
    fc->t_last = now;
    fc->accel = dc_cluster_failure_acceleration(m->cluster, ev->class_id);
    if (m->started) /* before the start, the first events are not drawn yet */
        arm(m, (size_t)ev->class_id);
}

static bool has_key(config_setting_t *g, const char *key)
{
    return dc_cfg_member(g, key) != NULL;
}

static int choose_bad_nodes(failure_model *m, dc_sim *sim, double fraction, const char *stream, badset *b,
                            dc_error *err);

static int parse_class(failure_model *m, dc_sim *sim, const dc_scenario *sc,
                       config_setting_t *g, size_t ci, double bad_default, dc_error *err)
{
    fclass *fc = &m->classes[ci];
    const char *name = NULL, *per = "node", *takes = NULL, *mode = "stop", *policy = "evict";
    dc_cfg_lookup_string(g, "name", &name);
    dc_cfg_lookup_string(g, "per", &per);
    dc_cfg_lookup_string(g, "takes", &takes);
    dc_cfg_lookup_string(g, "mode", &mode);
    dc_cfg_lookup_string(g, "policy", &policy);
    config_setting_t *name_s = dc_cfg_member(g, "name");
    if (strlen(name) == 0 || strlen(name) >= sizeof fc->name || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
        return dc_scenario_error_at(sc, name_s, err,
                                    "class names are 1 to %zu characters of a-z, 0-9 and _ (got \"%s\")",
                                    sizeof fc->name - 1, name);
    for (size_t k = 0; k < ci; k++)
        if (strcmp(m->classes[k].name, name) == 0)
            return dc_scenario_error_at(sc, name_s, err, "class \"%s\" is named twice", name);
    strcpy(fc->name, name);

    static const char *const bases[] = {"gpu", "node", "rack", "job", "job_gpu"};
    for (size_t k = 0; k < 5; k++)
        if (strcmp(per, bases[k]) == 0)
            fc->basis = (enum basis)k;
    fc->mode = strcmp(mode, "slow") == 0 ? MODE_SLOW : strcmp(mode, "corrupt") == 0 ? MODE_CORRUPT : MODE_STOP;
    bool job_basis = fc->basis == PER_JOB || fc->basis == PER_JOB_GPU;
    fc->takes = job_basis ? TAKES_JOB : fc->basis == PER_RACK ? TAKES_RACK : TAKES_NODE;
    if (takes) {
        enum takes t = strcmp(takes, "node") == 0 ? TAKES_NODE : strcmp(takes, "rack") == 0 ? TAKES_RACK : TAKES_JOB;
        bool ok = job_basis ? t == TAKES_JOB : fc->basis == PER_RACK ? t == TAKES_RACK : t != TAKES_JOB;
        if (!ok)
            return dc_scenario_error_at(sc, dc_cfg_member(g, "takes"), err,
                                        "a class per %s cannot take \"%s\" (per gpu/node: node or rack; per rack: rack; per job/job_gpu: job)",
                                        per, takes);
        fc->takes = t;
    }
    config_setting_t *mode_s = dc_cfg_member(g, "mode");
    if (fc->mode == MODE_SLOW && (job_basis || fc->basis == PER_RACK || fc->takes != TAKES_NODE))
        return dc_scenario_error_at(sc, mode_s, err,
                                    "mode \"slow\" makes one node a straggler: it needs per gpu or node and takes node");
    if (fc->mode == MODE_CORRUPT && (fc->basis == PER_RACK || fc->takes == TAKES_RACK))
        return dc_scenario_error_at(sc, mode_s, err,
                                    "mode \"corrupt\" corrupts the job on one node (per gpu or node) or the job (per job or job_gpu), not a rack");
    static const char *const slow_keys[] = {"slow_factor", "policy", "evict_below"};
    for (size_t k = 0; k < 3; k++)
        if (fc->mode != MODE_SLOW && has_key(g, slow_keys[k]))
            return dc_scenario_error_at(sc, dc_cfg_member(g, slow_keys[k]), err,
                                        "%s applies to mode \"slow\" only (this class has mode \"%s\")", slow_keys[k],
                                        mode);
    fc->slow_factor = 0.5;
    fc->evict_below = 1.0;
    dc_cfg_lookup_float(g, "slow_factor", &fc->slow_factor);
    dc_cfg_lookup_float(g, "evict_below", &fc->evict_below);
    fc->evict = strcmp(policy, "evict") == 0;
    if (!fc->evict && has_key(g, "evict_below"))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "evict_below"), err,
                                    "evict_below applies to policy \"evict\" only");

    int from_log = 0;
    dc_cfg_lookup_bool(g, "from_log", &from_log);
    fc->from_log = from_log;
    int rc = DC_OK;
    if (from_log)
        fc->law = (dc_dist){.kind = DC_DIST_EXPONENTIAL, .a = INFINITY}; /* never drawn: the log's rows only */
    else
        rc = dc_dist_from_setting(sc, g, &fc->law, err);
    if (rc != DC_OK)
        return rc;
    if (job_basis && fc->law.kind != DC_DIST_EXPONENTIAL)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "law"), err,
                                    "a class per %s must have law \"exponential\"", per);
    if (fc->mode != MODE_STOP && fc->law.kind != DC_DIST_EXPONENTIAL)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "law"), err,
                                    "a class of mode \"%s\" must have law \"exponential\"", mode);
    dc_cfg_lookup_float(g, "detect_s", &fc->detect_s);
    dc_cfg_lookup_float(g, "check_interval_s", &fc->check_s);
    double age_h = 0;
    dc_cfg_lookup_float(g, "initial_age_h", &age_h);
    fc->initial_age_s = age_h * 3600.0;
    fc->bad_factor = bad_default;
    dc_cfg_lookup_float(g, "bad_factor", &fc->bad_factor);
    fc->upn = fc->basis == PER_GPU ? dc_cluster_gpus_per_node(m->cluster) : fc->basis == PER_NODE ? 1 : 0;
    if (!fc->upn)
        fc->bad_factor = 1.0;
    fc->bs = &m->bad;
    double own_fraction;
    if (dc_cfg_lookup_float(g, "bad_fraction", &own_fraction)) {
        config_setting_t *at = dc_cfg_member(g, "bad_fraction");
        if (!fc->upn)
            return dc_scenario_error_at(sc, at, err, "bad_fraction applies to classes per gpu or per node");
        if (fc->bad_factor == 1.0 && !has_key(g, "bad_factor"))
            return dc_scenario_error_at(sc, at, err,
                                        "bad_fraction needs the bad nodes' rate factor: bad_factor (or "
                                        "bad_nodes.rate_factor)");
        char stream[64];
        snprintf(stream, sizeof stream, "failure.%s.bad_nodes", fc->name);
        int brc = choose_bad_nodes(m, sim, own_fraction, stream, &fc->own_bad, err);
        if (brc != DC_OK)
            return brc;
        fc->bs = &fc->own_bad;
    }
    fc->accel = 1.0;

    /* The progress guarantee (docs/errors.md): a class's failures per
     * simulated second, over all its units, are bounded. */
    uint64_t n_units = fc->basis == PER_JOB || fc->basis == PER_JOB_GPU ? 1 : class_units(m, fc);
    double per_s = (double)n_units / mean_life_s(&fc->law, 1.0);
    if (!(per_s <= DC_SIM_MAX_FAILURES_PER_S)) {
        const config_setting_t *at = dc_cfg_member(g, "mtbf_h");
        if (!at)
            at = dc_cfg_member(g, "afr");
        return dc_scenario_error_at(sc, at ? at : g, err,
                                    "class \"%s\": %.3g failures per simulated second over its %llu unit%s, more "
                                    "than the limit of %g (a run would do nothing but fail): a longer mtbf_h or a "
                                    "lower afr",
                                    fc->name, per_s, (unsigned long long)n_units, n_units == 1 ? "" : "s",
                                    DC_SIM_MAX_FAILURES_PER_S);
    }

    char stream[64];
    snprintf(stream, sizeof stream, "failure.%s", fc->name);
    fc->rng = dc_sim_rng(sim, stream);
    snprintf(stream, sizeof stream, "failure.%s.thin", fc->name);
    fc->rng_thin = dc_sim_rng(sim, stream);
    if (!fc->rng || !fc->rng_thin)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    if (dc_cluster_add_failure_class(m->cluster, fc->name) != (int)ci)
        return dc_error_set(err, DC_ENOMEM, "out of memory registering failure class %s", fc->name);
    return DC_OK;
}

/* The long-run rate a class puts on a job, for checkpoint policies. */
static void register_hazard(failure_model *m, const fclass *fc)
{
    dc_cluster *c = m->cluster;
    if (fc->mode == MODE_SLOW && !(fc->evict && fc->slow_factor < fc->evict_below))
        return; /* tolerated stragglers slow the job but never interrupt it */
    double f_bad = m->n_nodes ? (double)fc->bs->n_bad0 / m->n_nodes : 0.0;
    double rate = (1.0 - f_bad) / mean_life_s(&fc->law, 1.0);
    if (f_bad > 0.0)
        rate += f_bad / mean_life_s(&fc->law, fc->bad_factor);
    switch (fc->basis) {
    case PER_GPU:
        dc_cluster_add_gpu_hazard(c, rate * dc_cluster_gpus_per_node(c));
        break;
    case PER_NODE:
        dc_cluster_add_hazard(c, rate, 0, 0, 0);
        break;
    case PER_RACK:
        dc_cluster_add_hazard(c, 0, rate, 0, 0);
        break;
    case PER_JOB:
        dc_cluster_add_hazard(c, 0, 0, rate, 0);
        break;
    case PER_JOB_GPU:
        dc_cluster_add_hazard(c, 0, 0, 0, rate);
        break;
    }
}

static int choose_bad_nodes(failure_model *m, dc_sim *sim, double fraction, const char *stream, badset *b,
                            dc_error *err)
{
    b->bad_now = calloc(m->n_nodes, 1);
    b->order = malloc(m->n_nodes * sizeof *b->order);
    uint32_t *all = malloc(m->n_nodes * sizeof *all);
    gsl_rng *rng = dc_sim_rng(sim, stream);
    if (!b->bad_now || !b->order || !all || !rng) {
        free(all);
        return dc_error_set(err, DC_ENOMEM, "out of memory choosing bad nodes");
    }
    for (uint32_t i = 0; i < m->n_nodes; i++)
        all[i] = i;
    b->n_bad0 = (uint32_t)floor(fraction * m->n_nodes + 0.5);
    if (b->n_bad0 > 0)
        gsl_ran_choose(rng, b->order, b->n_bad0, all, m->n_nodes, sizeof *all);
    for (uint32_t i = 0; i < b->n_bad0; i++)
        b->bad_now[b->order[i]] = 1;
    uint32_t k = b->n_bad0;
    for (uint32_t i = 0; i < m->n_nodes; i++)
        if (!b->bad_now[i])
            b->order[k++] = i;
    free(all);
    return DC_OK;
}

/* A dynamic class's units changed to w: the pending arrival's remaining
 * virtual time scales by old / new (an exponential residual stays
 * exponential), or is drawn afresh after a time with no unit. */
static void reweight(failure_model *m, size_t ci, double w)
{
    fclass *fc = &m->classes[ci];
    double v = vnow(fc, dc_sim_now(m->sim)), old = fc->weight;
    fc->weight = w;
    if (!(w > 0.0)) {
        fc->next_v = INFINITY;
        dc_sim_cancel(m->sim, &fc->ev);
        return;
    }
    if (!(old > 0.0) || !isfinite(fc->next_v))
        fc->next_v = v + gsl_ran_exponential(fc->rng, fc->law.a / w);
    else
        fc->next_v = v + (fc->next_v - v) * (old / w);
    arm(m, ci);
}

static int grow_jobs(failure_model *m, uint32_t n)
{
    if (n <= m->n_jobs)
        return DC_OK;
    uint8_t *h = realloc(m->holding, n);
    uint64_t *a = realloc(m->fw_jobs, ((size_t)n + 1) * sizeof *a);
    if (h)
        m->holding = h;
    if (a)
        m->fw_jobs = a;
    uint64_t *b = realloc(m->fw_gpus, ((size_t)n + 1) * sizeof *b);
    if (b)
        m->fw_gpus = b;
    if (!h || !a || !b)
        return DC_ENOMEM;
    memset(m->holding + m->n_jobs, 0, n - m->n_jobs);
    /* rebuild both trees for n jobs from the holding flags */
    memset(m->fw_jobs, 0, ((size_t)n + 1) * sizeof *m->fw_jobs);
    memset(m->fw_gpus, 0, ((size_t)n + 1) * sizeof *m->fw_gpus);
    uint32_t old = m->n_jobs;
    m->n_jobs = n;
    for (uint32_t j = 0; j < old; j++)
        if (m->holding[j]) {
            fw_add(m->fw_jobs, n, j, 1, false);
            fw_add(m->fw_gpus, n, j, job_gpus(m, j), false);
        }
    return DC_OK;
}

/* Whether a job holds its GPUs changes only on an edge with an end in
 * PENDING or DONE: the others (between running, checkpointing, restarting,
 * waiting, detecting) find holding[j] as it is (set by the edge into them
 * or at the start) and are not taken (PHASE_EDGES). */
#define PHASE_EDGES dc_job_edges_touching(1u << DC_JOB_PENDING | 1u << DC_JOB_DONE)
static void on_job_phase(dc_sim *sim, void *ctx, const void *payload)
{
    failure_model *m = ctx;
    const dc_job_event *ev = payload;
    (void)sim;
    if (!m->started || ev->job < 0)
        return;
    dc_job_phase ph = dc_cluster_job_phase(m->cluster, ev->job);
    bool hold = ph != DC_JOB_PENDING && ph != DC_JOB_DONE;
    if ((uint32_t)ev->job >= m->n_jobs && grow_jobs(m, dc_cluster_job_count(m->cluster)) != DC_OK) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory following the jobs");
        return;
    }
    uint32_t j = (uint32_t)ev->job;
    if (j >= m->n_jobs || (bool)m->holding[j] == hold)
        return;
    m->holding[j] = hold;
    uint64_t g = job_gpus(m, j);
    fw_add(m->fw_jobs, m->n_jobs, j, 1, !hold);
    fw_add(m->fw_gpus, m->n_jobs, j, g, !hold);
    m->w_jobs = hold ? m->w_jobs + 1 : m->w_jobs - 1;
    m->w_gpus = hold ? m->w_gpus + g : m->w_gpus - g;
    for (size_t i = 0; i < m->n_classes; i++)
        if (dynamic_class(&m->classes[i]) && m->classes[i].units > 0)
            reweight(m, i, (double)(m->classes[i].basis == PER_JOB ? m->w_jobs : m->w_gpus));
}

static int failure_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    failure_model *m = state;
    m->sim = sim;
    m->cluster = dc_cluster_of(sim);
    m->log = dc_sim_eventlog(sim);
    m->n_nodes = dc_cluster_node_count(m->cluster);
    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    m->n_classes = list ? (size_t)config_setting_length(list) : 0;
    if (m->n_classes >= (1u << CLASS_BITS))
        return dc_scenario_error_at(sc, list, err, "at most %u failure classes (got %zu)", (1u << CLASS_BITS) - 1,
                                    m->n_classes);
    m->classes = calloc(m->n_classes ? m->n_classes : 1, sizeof *m->classes);
    m->down_epoch = calloc(m->n_nodes, sizeof *m->down_epoch);
    if (!m->classes || !m->down_epoch)
        return dc_error_set(err, DC_ENOMEM, "out of memory");

    size_t n_types = dc_cluster_type_count(m->cluster);
    m->type_scale = calloc(n_types, sizeof *m->type_scale);
    m->type_scale_gpu = calloc(n_types, sizeof *m->type_scale_gpu);
    if (!m->type_scale || !m->type_scale_gpu
        || (n_types > 1 && !(m->type_failures = calloc(n_types, sizeof *m->type_failures))))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t t = 0; t < n_types; t++) {
        const dc_cluster_type *ty = dc_cluster_type_at(m->cluster, t);
        m->type_scale[t] = ty->failure_scale;
        m->scale_max = fmax(m->scale_max, m->type_scale[t]);
        m->type_scaled = m->type_scaled || m->type_scale[t] != 1.0;
        m->type_scale_gpu[t] = ty->gpus_per_node == 0 ? 0.0 : ty->failure_scale;
        m->scale_max_gpu = fmax(m->scale_max_gpu, m->type_scale_gpu[t]);
        m->type_scaled_gpu = m->type_scaled_gpu || m->type_scale_gpu[t] != 1.0;
    }
    double bad_factor = 1.0, bad_fraction = 0.0;
    config_setting_t *bad = dc_scenario_lookup(sc, "bad_nodes");
    if (bad) {
        dc_cfg_lookup_float(bad, "fraction", &bad_fraction);
        dc_cfg_lookup_float(bad, "rate_factor", &bad_factor);
        int rc = choose_bad_nodes(m, sim, bad_fraction, "failure.bad_nodes", &m->bad, err);
        if (rc != DC_OK)
            return rc;
    }
    config_setting_t *fleet_age = dc_scenario_lookup(sc, "fleet.age");
    if (fleet_age) {
        dc_dist law;
        int rc = dc_dist_from_setting(sc, fleet_age, &law, err);
        if (rc != DC_OK)
            return rc;
        gsl_rng *rng = dc_sim_rng(sim, "failure.fleet_age");
        m->node_age_s = malloc((m->n_nodes + 1) * sizeof *m->node_age_s);
        if (!rng || !m->node_age_s)
            return dc_error_set(err, DC_ENOMEM, "out of memory drawing the fleet's ages");
        for (uint32_t i = 0; i < m->n_nodes; i++) {
            double a = dc_dist_sample(&law, rng);
            m->node_age_s[i] = a > 0.0 ? a : 0.0;
        }
    }
    bool any_slow = false;
    for (size_t i = 0; i < m->n_classes; i++) {
        int rc = parse_class(m, sim, sc, config_setting_get_elem(list, (unsigned)i), i, bad_factor, err);
        if (rc != DC_OK)
            return rc;
        any_slow = any_slow || m->classes[i].mode == MODE_SLOW;
        register_hazard(m, &m->classes[i]);
    }
    if (any_slow && !(m->straggler = dc_straggler_create(sim, m->cluster, err)))
        return err ? err->code : DC_ENOMEM;
    const char **names = calloc(m->n_classes + 1, sizeof *names);
    if (!names)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++)
        names[i] = m->classes[i].name;
    m->has_log = dc_scenario_lookup(sc, "failure_log") != NULL;
    int lrc = dc_failurelog_read(sc, names, m->n_classes, m->n_nodes, &m->logged, &m->n_logged, err);
    free(names);
    if (lrc != DC_OK)
        return lrc;
    for (size_t k = 0; k < m->n_logged; k++) {
        const fclass *fc = &m->classes[m->logged[k].class_id];
        if (fc->mode != MODE_STOP || fc->takes == TAKES_JOB)
            return dc_scenario_error_at(sc, config_setting_get_elem(list, (unsigned)m->logged[k].class_id), err,
                                        "class \"%s\" is in the failure log, whose rows take nodes down: it needs "
                                        "mode \"stop\" and per gpu, node or rack",
                                        fc->name);
    }
    int sig_up = dc_sim_signal(sim, "nodes_up"), sig_fail = dc_sim_signal(sim, "failure");
    int sig_accel = dc_sim_signal(sim, "failure_acceleration");
    if (sig_up < 0 || sig_fail < 0 || sig_accel < 0 || dc_sim_subscribe(sim, sig_up, on_nodes_up, m) != DC_OK
        || dc_sim_subscribe(sim, sig_fail, on_any_failure, m) != DC_OK
        || dc_sim_subscribe(sim, sig_accel, on_accel, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++)
        m->any_dynamic = m->any_dynamic || dynamic_class(&m->classes[i]);
    int sig_phase = dc_sim_signal(sim, "job_phase");
    if (m->any_dynamic && (sig_phase < 0 || dc_sim_subscribe_kinds(sim, sig_phase, PHASE_EDGES, on_job_phase, m) != DC_OK))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int start_unit_clocks(failure_model *m, fclass *fc, dc_error *err)
{
    if (fc->units > UINT32_MAX)
        return dc_error_set(err, DC_EINPUT, "failure class %s has %llu units, more than per-unit clocks can hold",
                            fc->name, (unsigned long long)fc->units);
    /* Every unit once; stale entries (units of replaced nodes) grow it. */
    fc->cap_heap = fc->units + fc->units / 8 + 1;
    fc->heap = malloc(fc->cap_heap * sizeof *fc->heap);
    fc->gen = calloc(fc->units, sizeof *fc->gen);
    fc->awaiting = calloc(fc->units, 1);
    fc->born_v = malloc(fc->units * sizeof *fc->born_v);
    if (!fc->heap || !fc->gen || !fc->awaiting || !fc->born_v)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the clocks of failure class %s", fc->name);
    for (uint64_t u = 0; u < fc->units; u++) {
        uint32_t node = fc->basis == PER_RACK ? 0 : unit_node(m, fc, u);
        uint32_t aged = fc->basis == PER_RACK ? (uint32_t)(u * dc_cluster_nodes_per_rack(m->cluster)) : node;
        double age_s = fc->initial_age_s + (m->node_age_s && aged < m->n_nodes ? m->node_age_s[aged] : 0.0);
        fc->born_v[u] = -age_s;
        double k = node_factor(m, fc, node);
        double life = residual_s(&fc->law, age_s, k, fc->rng);
        if (k > 0.0) /* (0: never fails) */
            heap_push(fc, (uentry){life, (uint32_t)u, 0}); /* within cap_heap */
    }
    return DC_OK;
}

static int failure_start(void *state, dc_sim *sim, dc_error *err)
{
    failure_model *m = state;
    m->started = true;
    for (uint32_t i = 0; i < m->bad.n_bad0; i++)
        dc_eventlog_add(m->log, 0.0, "bad_node", "", (int32_t)m->bad.order[i], -1, 0.0);
    for (size_t ci = 0; ci < m->n_classes; ci++)
        for (uint32_t i = 0; i < m->classes[ci].own_bad.n_bad0; i++)
            dc_eventlog_add(m->log, 0.0, "bad_node", m->classes[ci].name, (int32_t)m->classes[ci].own_bad.order[i], -1,
                            0.0);
    uint32_t n_jobs = dc_cluster_job_count(m->cluster);
    if (m->any_dynamic && n_jobs > 0) {
        if (grow_jobs(m, n_jobs) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the job-level failure classes");
        for (uint32_t j = 0; j < n_jobs; j++) {
            dc_job_phase ph = dc_cluster_job_phase(m->cluster, (int32_t)j);
            if (ph != DC_JOB_PENDING && ph != DC_JOB_DONE) {
                m->holding[j] = 1;
                fw_add(m->fw_jobs, n_jobs, j, 1, false);
                fw_add(m->fw_gpus, n_jobs, j, job_gpus(m, j), false);
                m->w_jobs++;
                m->w_gpus += job_gpus(m, j);
            }
        }
    }
    for (size_t i = 0; i < m->n_classes; i++) {
        fclass *fc = &m->classes[i];
        if (fc->basis == PER_JOB_GPU && !dynamic_class(fc) && !m->gpu_prefix) {
            m->gpu_prefix = malloc(((size_t)n_jobs + 1) * sizeof *m->gpu_prefix);
            if (!m->gpu_prefix)
                return dc_error_set(err, DC_ENOMEM, "out of memory for the job-level failure classes");
            m->gpu_prefix[0] = 0;
            for (uint32_t j = 0; j < n_jobs; j++)
                m->gpu_prefix[j + 1] = m->gpu_prefix[j] + job_gpus(m, j);
            if (m->n_jobs < n_jobs)
                m->n_jobs = n_jobs;
        }
    }
    for (size_t i = 0; i < m->n_classes; i++) {
        fclass *fc = &m->classes[i];
        fc->units = class_units(m, fc);
        fc->weight = (double)fc->units;
        if (dynamic_class(fc)) {
            /* the jobs holding nodes now (none before the first start) */
            fc->weight = (double)(fc->basis == PER_JOB ? m->w_jobs : m->w_gpus);
            fc->next_v = INFINITY;
            if (fc->units > 0 && fc->weight > 0.0) {
                fc->next_v = gsl_ran_exponential(fc->rng, fc->law.a / fc->weight);
                arm(m, i);
            }
            continue;
        }
        if (fc->upn && fc->bs->n_bad0)
            fc->weight += (fc->bad_factor - 1.0) * (double)fc->bs->n_bad0 * (double)fc->upn;
        if (fc->units == 0 || fc->from_log)
            continue;
        if (fc->law.kind == DC_DIST_EXPONENTIAL) {
            fc->next_v = gsl_ran_exponential(fc->rng, fc->law.a / (fc->weight * rate_scale(m, fc)));
        } else {
            int rc = start_unit_clocks(m, fc, err);
            if (rc != DC_OK)
                return rc;
        }
        arm(m, i);
    }
    if (m->n_logged && m->logged[0].time_s <= dc_sim_horizon(sim))
        dc_sim_at(sim, m->logged[0].time_s, on_logged, m, 0);
    return DC_OK;
}

static void failure_finish(void *state, dc_sim *sim)
{
    failure_model *m = state;
    dc_summary *s = dc_sim_summary(sim);
    uint64_t total = 0, repeats = 0;
    for (size_t i = 0; i < m->n_classes; i++) {
        total += m->classes[i].n_failures;
        repeats += m->classes[i].n_repeats;
    }
    dc_summary_set(s, "failures.total", (double)total, "", "failures of any class, on busy or spare nodes");
    for (size_t i = 0; i < m->n_classes; i++) {
        char key[80];
        snprintf(key, sizeof key, "failures.%s", m->classes[i].name);
        dc_summary_set(s, key, (double)m->classes[i].n_failures, "", "failures of this class");
    }
    dc_summary_set(s, "failures.repeats", (double)repeats, "",
                   "failures of nodes returned still faulty (misdiagnosed), included above");
    dc_summary_set(s, "failures.bad_nodes", (double)m->bad.n_bad0, "nodes", "systematically bad nodes at the start");
    for (size_t i = 0; i < m->n_classes; i++) {
        if (!m->classes[i].own_bad.bad_now)
            continue;
        char key[80];
        snprintf(key, sizeof key, "failures.%s.bad_nodes", m->classes[i].name);
        dc_summary_set(s, key, (double)m->classes[i].own_bad.n_bad0, "nodes",
                       "this class's own bad nodes at the start (bad_fraction)");
    }
    double node_days = (double)m->n_nodes * dc_sim_now(sim) / 86400.0, absent_gpu_h;
    if (dc_summary_get(s, "cluster.absent_gpu_h", &absent_gpu_h)) /* delivery stages: the nodes present */
        node_days -= absent_gpu_h / dc_cluster_gpus_per_node(m->cluster) / 24.0;
    double absent_cpu_node_h;
    if (dc_summary_get(s, "cluster.absent_cpu_node_h", &absent_cpu_node_h))
        node_days -= absent_cpu_node_h / 24.0;
    for (size_t t = 0; m->type_failures && t < dc_cluster_type_count(m->cluster); t++) {
        char key[80];
        snprintf(key, sizeof key, "failures.type.%s", dc_cluster_type_at(m->cluster, t)->name);
        dc_summary_set(s, key, (double)m->type_failures[t], "",
                       "failures of the classes that took nodes of this type down (by the first node taken)");
    }
    dc_summary_set(s, "failures.per_1000_node_days", node_days > 0 ? 1000.0 * (double)m->node_failures / node_days : NAN,
                   "", "failures that took nodes down, per 1000 node-days of the whole cluster");
    if (m->straggler)
        dc_straggler_finish(m->straggler, s);
    if (m->node_age_s) {
        double sum = 0.0;
        for (uint32_t i = 0; i < m->n_nodes; i++)
            sum += m->node_age_s[i];
        dc_summary_set(s, "failures.fleet_age_mean_h", m->n_nodes ? sum / m->n_nodes / 3600.0 : NAN, "h",
                       "mean age of the nodes at the start (fleet.age)");
    }
    if (m->has_log) {
        dc_summary_set(s, "failure_log.rows", (double)m->n_logged, "", "failures in the failure log");
        dc_summary_set(s, "failure_log.injected", (double)m->n_log_injected, "",
                       "logged failures that took nodes down (within the run)");
        dc_summary_set(s, "failure_log.skipped", (double)m->n_log_skipped, "",
                       "logged failures of nodes already down at their time");
    }
}

static void failure_destroy(void *state)
{
    failure_model *m = state;
    for (size_t i = 0; m->classes && i < m->n_classes; i++) {
        free(m->classes[i].heap);
        free(m->classes[i].gen);
        free(m->classes[i].awaiting);
        free(m->classes[i].born_v);
        free(m->classes[i].own_bad.order);
        free(m->classes[i].own_bad.bad_now);
    }
    free(m->classes);
    free(m->bad.order);
    free(m->bad.bad_now);
    free(m->down_epoch);
    free(m->type_scale);
    free(m->type_scale_gpu);
    free(m->type_failures);
    free(m->holding);
    free(m->fw_jobs);
    free(m->fw_gpus);
    free(m->gpu_prefix);
    free(m->logged);
    free(m->node_age_s);
    dc_straggler_destroy(m->straggler);
}

const dc_model_type dc_model_failure = {
    .name = "failure",
    .state_size = sizeof(failure_model),
    .params = dc_failure_params,
    .init = failure_init,
    .start = failure_start,
    .finish = failure_finish,
    .destroy = failure_destroy,
};
