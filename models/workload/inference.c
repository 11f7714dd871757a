/* The inference service: scenario, replicas on the cluster, autoscaling and outputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "inference.h"
#include "cfgget.h"
#include "scheduler.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_randist.h>

#include "inference_int.h"

#define TOKEN_LAWS "constant|exponential|lognormal|gamma|weibull"
#define TOKEN_ROWS(prefix, what)                                                                          \
    {prefix, DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "law of the " what " per request"}, \
    {prefix ".law", DC_PARAM_STRING, 0, "", 0, "lognormal", 0, 0, TOKEN_LAWS, "probability law of the " what}, \
    {prefix ".mean", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "tokens", 0, NULL, 0, 1e7,    \
     NULL, "mean (any law)"},                                                                             \
    {prefix ".median", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "tokens", 0, NULL, 0, 1e7,  \
     NULL, "median (lognormal, instead of mean)"},                                                       \
    {prefix ".sigma", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 5, NULL,   \
     "lognormal sigma (of the natural log)"},                                                             \
    {prefix ".shape", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 100, NULL, \
     "gamma or Weibull shape"},                                                                           \
    {prefix ".max", DC_PARAM_FLOAT, 0, "tokens", 131072, NULL, 1, 1e7, NULL,                              \
     "largest count (the context window); draws are rounded and clamped to [1, max]"}

const dc_param dc_inference_params[] = {
    {"inference", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "an inference service on the cluster's nodes; absent: none"},
    {"inference.name", DC_PARAM_STRING, 0, "", 0, "service", 0, 0, NULL, "a name for reports"},
    {"inference.priority", DC_PARAM_INT, 0, "", 1001, NULL, -1000, 1001, NULL,
     "rank against queued jobs of its pool: replicas take idle nodes only while no job of this priority "
     "or higher waits (1001: before every job)"},
    {"inference.pool", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "scheduler pool its replicas take nodes from (default: the first)"},
    {"inference.mode", DC_PARAM_STRING, 0, "", 0, "aggregate", 0, 0, "aggregate|request",
     "request: every request simulated (windows of hours); aggregate: piecewise-stationary queueing (months)"},
    {"inference.start_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e10, NULL,
     "when the service starts (its initial replicas are ready at once)"},
    {"inference.queue_limit", DC_PARAM_INT, 0, "requests", 10000, NULL, 0, 1e9, NULL,
     "requests that may wait for a batch slot; more are dropped (0: drop when every slot is busy)"},

    {"inference.model", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "the model served"},
    {"inference.model.params", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1e16,
     NULL, "model parameters"},
    {"inference.model.bytes_per_param", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 2, NULL, 0, 64, NULL,
     "bytes per weight (2: bf16, 1: fp8)"},
    {"inference.model.kv_bytes_per_token", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "B", 0, NULL, 0, 1e9, NULL,
     "KV cache per token of context: 2 x layers x KV heads x head dim x bytes"},
    {"inference.model.flop_per_param_token", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "FLOP", 2, NULL, 0, 1e3, NULL,
     "FLOP per parameter per token (2: one forward pass)"},

    {"inference.replica", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "one replica of the model and the hardware it runs on"},
    {"inference.replica.gpus", DC_PARAM_INT, 0, "GPUs", 8, NULL, 1, 1e6, NULL,
     "GPUs per replica: a multiple of cluster.gpus_per_node (whole nodes) or a divisor of it (replicas share a node)"},
    {"inference.replica.batch_size", DC_PARAM_INT, 0, "requests", 64, NULL, 1, 1e5, NULL,
     "most requests a replica serves at once (continuous batching)"},
    {"inference.replica.gpu_peak_tflops", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "TFLOP/s", 989, NULL, 0, 1e6,
     NULL, "peak dense throughput of one GPU (H100 SXM bf16: 989)"},
    {"inference.replica.compute_efficiency", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.5, NULL, 0, 1, NULL,
     "fraction of peak reached in prefill and compute-bound decode"},
    {"inference.replica.memory", DC_PARAM_STRING, 0, "", 0, "hbm", 0, 0, "hbm|ddr",
     "where decode reads weights and KV cache: GPU HBM, or host DDR over PCIe (the HBM route vs the DDR route)"},
    {"inference.replica.hbm_gb", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "GB", 80, NULL, 0, 1e6, NULL,
     "HBM per GPU (H100: 80); weights and a full batch's KV cache must fit when memory = hbm"},
    {"inference.replica.hbm_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "GB/s", 3350, NULL, 0, 1e6, NULL,
     "HBM bandwidth per GPU (H100 SXM: 3350)"},
    {"inference.replica.ddr_gb", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "GB", 256, NULL, 0, 1e7, NULL,
     "host memory per GPU (a node's DDR / its GPUs); weights and a full batch's KV cache must fit when memory = ddr"},
    {"inference.replica.ddr_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "GB/s", 64, NULL, 0, 1e6, NULL,
     "host memory bandwidth one GPU gets when memory = ddr (PCIe 5.0 x16: about 64)"},
    {"inference.replica.bandwidth_efficiency", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.8, NULL, 0, 1, NULL,
     "fraction of the memory bandwidth decode reaches"},
    {"inference.replica.startup_s", DC_PARAM_FLOAT, 0, "s", 120, NULL, 0, 1e7, NULL,
     "from nodes taken to serving: provisioning and loading the weights (the scale-up delay)"},

    {"inference.replicas", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "how many replicas"},
    {"inference.replicas.min", DC_PARAM_INT, 0, "replicas", 1, NULL, 0, 1e7, NULL, "fewest replicas"},
    {"inference.replicas.max", DC_PARAM_INT, DC_PARAM_REQUIRED, "replicas", 0, NULL, 1, 1e7, NULL, "most replicas"},
    {"inference.replicas.initial", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "replicas", 0, NULL, 0, 1e7, NULL,
     "replicas at the start (default: min)"},

    {"inference.autoscale", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "autoscaling; absent: policy none, interval_s 60"},
    {"inference.autoscale.policy", DC_PARAM_STRING, 0, "", 0, "utilization", 0, 0, "none|utilization",
     "utilization: replicas for the offered load at target_utilization of their rated throughput; none: fixed"},
    {"inference.autoscale.target_utilization", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.7, NULL, 0, 1, NULL,
     "target offered load / rated throughput of the replicas (inference.replica_capacity_qps each)"},
    {"inference.autoscale.tolerance", DC_PARAM_FLOAT, 0, "", 0.1, NULL, 0, 1, NULL,
     "no change while the replicas wanted are within this fraction of the current target (Kubernetes' default: 0.1)"},
    {"inference.autoscale.interval_s", DC_PARAM_FLOAT, 0, "s", 60, NULL, 1, 1e7, NULL,
     "how often the autoscaler looks (and the inference_* series are recorded)"},
    {"inference.autoscale.scale_down_after_s", DC_PARAM_FLOAT, 0, "s", 600, NULL, 0, 1e8, NULL,
     "scale down only after the desired count stayed below the current one this long"},

    {"inference.arrivals", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "requests: a Poisson process with a daily and weekly pattern and growth (t = 0 is midnight of day 0)"},
    {"inference.arrivals.qps", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "1/s", 0, NULL, 0, 1e9, NULL,
     "base rate, multiplied by the daily and weekly factors"},
    {"inference.arrivals.growth_per_year", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, -1, 1e3, NULL,
     "growth of the rate per year, compounded continuously (0.5: +50% a year)"},
    {"inference.arrivals.daily", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "factor by time of day: each holds from its from_h to the next (wrapping at midnight); absent: 1"},
    {"inference.arrivals.daily.[].from_h", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MAX_EXCLUSIVE, "h", 0,
     NULL, 0, 24, NULL, "hour of the day the factor starts (increasing along the list)"},
    {"inference.arrivals.daily.[].factor", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "", 0, NULL, 0, 1e6, NULL,
     "multiplier of qps"},
    {"inference.arrivals.weekly", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "factor by day of the week (day 0 starts at t = 0); days not listed: 1"},
    {"inference.arrivals.weekly.[].day", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 0, 6, NULL, "day 0 to 6"},
    {"inference.arrivals.weekly.[].factor", DC_PARAM_FLOAT, DC_PARAM_REQUIRED, "", 0, NULL, 0, 1e6, NULL,
     "multiplier of qps on that day"},

    TOKEN_ROWS("inference.tokens_in", "prompt tokens"),
    TOKEN_ROWS("inference.tokens_out", "generated tokens"),

    {"inference.slo", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "latency objectives; a request meets the SLO if it meets every one given"},
    {"inference.slo.ttft_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "s", 0, NULL, 0, 1e7,
     NULL, "time to first token"},
    {"inference.slo.tpot_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "s", 0, NULL, 0, 1e7,
     NULL, "time per output token after the first"},
    {"inference.slo.e2e_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "s", 0, NULL, 0, 1e7,
     NULL, "end-to-end latency"},

    {"inference.aggregate", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "the aggregate mode's settings"},
    {"inference.aggregate.interval_s", DC_PARAM_FLOAT, 0, "s", 300, NULL, 1, 1e7, NULL,
     "length of the stationary pieces (also cut where the ready replicas change)"},
    {"inference.aggregate.latency_samples", DC_PARAM_INT, 0, "", 100000, NULL, 1, 1e7, NULL,
     "arrivals drawn over the run (spread over the pieces by duration, at least one each) for the latency figures"},
    {0},
};

/* Runs slower than this many requests in request mode are refused. */
#define MAX_REQUEST_MODE_ARRIVALS 2e8
/* From this many requests on, request mode warns of its cost (about 10 s
 * of CPU at REQUEST_MODE_S a request) and points to the aggregate mode. */
#define SLOW_REQUEST_MODE_ARRIVALS 2e7
/* CPU per request in request mode, measured: scenarios/inference/
 * daily_chat.cfg, 6.27e6 requests in 2.67 s of user time (0.43 us) on the
 * project's 2-core x86-64 machine, 2026-12-08; a rough guide for the warning. */
#define REQUEST_MODE_S 0.5e-6
/* Per-request mode: the replicas' prefill queues and decode heaps. */
#define MAX_REQUEST_MODE_BYTES 4e9

static double row_default(const char *path)
{
    for (const dc_param *r = dc_inference_params; r->path; r++)
        if (strcmp(r->path, path) == 0)
            return r->def;
    return NAN;
}

/* A number from an optional group, else the schema's default. */
static double opt_number(const config_setting_t *g, const char *key, const char *path)
{
    const config_setting_t *s = g ? dc_cfg_member(g, key) : NULL;
    double v;
    return dc_scenario_number(s, &v) ? v : row_default(path);
}

static double num(const config_setting_t *g, const char *key)
{
    const config_setting_t *s = dc_cfg_member(g, key);
    double v;
    return dc_scenario_number(s, &v) ? v : NAN;
}

/* ---------- tokens ---------- */

static int read_tokens(const dc_scenario *sc, const config_setting_t *g, inf_tokens *t, dc_error *err)
{
    const char *law = "lognormal";
    dc_cfg_lookup_string(g, "law", &law);
    double mean = num(g, "mean"), median = num(g, "median"), sigma = num(g, "sigma"), shape = num(g, "shape");
    bool has_mean = !isnan(mean), has_median = !isnan(median), has_sigma = !isnan(sigma), has_shape = !isnan(shape);
    t->max = num(g, "max");
    dc_dist d = {0};
    config_setting_t *gs = (config_setting_t *)g;
    if (strcmp(law, "constant") == 0 || strcmp(law, "exponential") == 0) {
        if (!has_mean || has_median || has_sigma || has_shape)
            return dc_scenario_error_at(sc, gs, err, "law '%s' takes a mean only", law);
        d.kind = law[0] == 'c' ? DC_DIST_CONSTANT : DC_DIST_EXPONENTIAL;
        d.a = mean;
    } else if (strcmp(law, "lognormal") == 0) {
        if (!has_sigma)
            return dc_scenario_error_at(sc, gs, err, "law 'lognormal' needs sigma");
        if (has_mean == has_median)
            return dc_scenario_error_at(sc, gs, err, "law 'lognormal' needs exactly one of mean and median");
        if (has_shape)
            return dc_scenario_error_at(sc, gs, err, "law 'lognormal' takes sigma and mean or median only");
        d.kind = DC_DIST_LOGNORMAL;
        d.b = sigma;
        d.a = has_median ? log(median) : log(mean) - 0.5 * sigma * sigma;
    } else { /* gamma, weibull */
        bool gamma = strcmp(law, "gamma") == 0;
        if (!has_shape || !has_mean || has_median || has_sigma)
            return dc_scenario_error_at(sc, gs, err, "law '%s' takes shape and mean only", law);
        d.kind = gamma ? DC_DIST_GAMMA : DC_DIST_WEIBULL;
        if (gamma) {
            d.a = shape;
            d.b = mean / shape;
        } else {
            d.b = shape;
            d.a = mean / gsl_sf_gamma(1.0 + 1.0 / shape);
        }
    }
    if (!(isfinite(d.a) && isfinite(d.b)) || !(dc_dist_mean(&d) > 0.0) || !isfinite(dc_dist_mean(&d)))
        return dc_scenario_error_at(sc, gs, err, "law '%s' has no finite positive mean with these parameters", law);
    t->law = d;
    return DC_OK;
}

static double round_tokens(const inf_tokens *t, double x)
{
    double n = floor(x + 0.5);
    if (!(n >= 1.0))
        n = 1.0;
    if (n > t->max)
        n = floor(t->max);
    return n;
}

uint32_t dc_inf_sample_tokens(const inf_tokens *t, gsl_rng *rng)
{
    return (uint32_t)round_tokens(t, dc_dist_sample(&t->law, rng));
}

/* The law's quantile; upper tail through Q^-1 for accuracy. */
static double quantile(const dc_dist *d, double u)
{
    double q = 1.0 - u;
    switch (d->kind) {
    case DC_DIST_CONSTANT:
        return d->a;
    case DC_DIST_EXPONENTIAL:
        return u < 0.5 ? gsl_cdf_exponential_Pinv(u, d->a) : gsl_cdf_exponential_Qinv(q, d->a);
    case DC_DIST_LOGNORMAL:
        return u < 0.5 ? gsl_cdf_lognormal_Pinv(u, d->a, d->b) : gsl_cdf_lognormal_Qinv(q, d->a, d->b);
    case DC_DIST_GAMMA:
        return u < 0.5 ? gsl_cdf_gamma_Pinv(u, d->a, d->b) : gsl_cdf_gamma_Qinv(q, d->a, d->b);
    case DC_DIST_WEIBULL:
        return u < 0.5 ? gsl_cdf_weibull_Pinv(u, d->a, d->b) : gsl_cdf_weibull_Qinv(q, d->a, d->b);
    }
    return NAN;
}

/* E[g(n)] for the rounded, clamped token count, by the midpoint rule in v
 * with u = 1 - (1 - v)^4, dense where heavy upper tails need it. */
#define MOMENT_NODES 2048
typedef double (*tok_fn)(const dc_inference *m, double n);

static double tok_expect(const dc_inference *m, const inf_tokens *t, tok_fn g)
{
    if (t->law.kind == DC_DIST_CONSTANT)
        return g(m, round_tokens(t, t->law.a));
    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < MOMENT_NODES; i++) {
        double v = (i + 0.5) / MOMENT_NODES, r = 1.0 - v;
        double w = 4.0 * r * r * r;
        double u = 1.0 - r * r * r * r;
        sum += w * g(m, round_tokens(t, quantile(&t->law, u)));
        wsum += w;
    }
    return sum / wsum;
}

static double g_id(const dc_inference *m, double n) { (void)m; return n; }
static double g_steps(const dc_inference *m, double n) { (void)m; return n > 1.0 ? n - 1.0 : 0.0; }
static double g_steps_n(const dc_inference *m, double n) { (void)m; return n > 1.0 ? n * (n - 1.0) : 0.0; }
static double g_tp(const dc_inference *m, double n) { return dc_inf_prefill_s(m, n); }
static double g_tp2(const dc_inference *m, double n)
{
    double t = dc_inf_prefill_s(m, n);
    return t * t;
}

/* ---------- roofline ---------- */

double dc_inf_prefill_s(const dc_inference *m, double n_in)
{
    double compute = m->flop_per_token * n_in / m->compute_flops;
    double memory = m->weight_bytes / m->bw_bytes_per_s;
    return compute > memory ? compute : memory;
}

double dc_inf_step_s(const dc_inference *m, double b, double kv_tokens)
{
    double memory = (m->weight_bytes + kv_tokens * m->kv_bytes_per_token) / m->bw_bytes_per_s;
    double compute = b * m->flop_per_token / m->compute_flops;
    return compute > memory ? compute : memory;
}

/* X(b) = b / (m t_d(b) + b t_p): with prefill first, every request a
 * replica holds is decoding whenever it decodes, so the time per request
 * is its m steps plus one prefill pass for each of the b. */
double dc_inf_throughput(const dc_inference *m, double b)
{
    if (!(b > 0.0))
        return 0.0;
    double td = dc_inf_step_s(m, b, b * m->mean_ctx);
    return b / (m->mean_m * td + b * m->mean_tp);
}

uint32_t dc_inf_ready_replicas(const dc_inference *m)
{
    return m->count[U_READY] * m->replicas_per_unit;
}

/* ---------- accounting ---------- */

void dc_inf_bank(dc_inference *m)
{
    if (!m->started)
        return;
    double now = dc_sim_now(m->sim);
    double dt = now - m->bank_s;
    if (dt <= 0.0)
        return;
    for (int s = 0; s < U_STATES; s++)
        m->node_s[s] += dt * m->count[s] * m->nodes_per_unit;
    uint32_t k = m->replicas_per_unit;
    m->rep_s += dt * (double)(m->count[U_READY] + m->count[U_DRAINING]) * k;
    m->ready_rep_s += dt * (double)m->count[U_READY] * k;
    if (m->aggregate) {
        dc_inf_agg_bank(m, m->bank_s, now);
    } else {
        dc_inf_req_bank(m, dt);
    }
    m->bank_s = now;
}

void dc_inf_record_latency(dc_inference *m, double wait_s, double ttft_s, double tpot_s, double e2e_s,
                           bool has_tpot, double weight)
{
    dc_loghist_add(&m->h_wait, wait_s, weight);
    dc_loghist_add(&m->h_ttft, ttft_s, weight);
    dc_loghist_add(&m->h_e2e, e2e_s, weight);
    if (has_tpot)
        dc_loghist_add(&m->h_tpot, tpot_s, weight);
    bool t = !(m->slo_ttft_s > 0.0) || ttft_s <= m->slo_ttft_s;
    bool p = !(m->slo_tpot_s > 0.0) || !has_tpot || tpot_s <= m->slo_tpot_s;
    bool e = !(m->slo_e2e_s > 0.0) || e2e_s <= m->slo_e2e_s;
    m->slo_ttft_met += t ? weight : 0.0;
    m->slo_tpot_met += p ? weight : 0.0;
    m->slo_e2e_met += e ? weight : 0.0;
    m->slo_met += t && p && e ? weight : 0.0;
}

/* ---------- the replicas on the cluster ---------- */

/* Called at the end of every handler that may have changed the units. */
static void fleet_changed(dc_inference *m)
{
    uint32_t ready = dc_inf_ready_replicas(m);
    if (m->aggregate && m->started && ready != m->piece_reps) {
        dc_inf_agg_close(m); /* the piece as it was, up to now */
        dc_inf_agg_open(m);
    }
    dc_series_record(m->s_replicas, dc_sim_now(m->sim), (double)ready);
    if (ready < m->min_ready)
        m->min_ready = ready;
    if (ready > m->max_ready)
        m->max_ready = ready;
    dc_cluster_set_job_phase(m->cluster, m->job_id, m->count[U_READY] > 0 ? DC_JOB_RUNNING : DC_JOB_WAITING);
}

/* Every change of a unit's state goes through here, after dc_inf_bank
 * (the node-time is banked by state).  The aggregate mode's piece is cut
 * once per handler, in fleet_changed. */
static void unit_set(dc_inference *m, uint32_t u, uint8_t st)
{
    uint8_t old = m->units[u].state;
    m->count[old]--;
    m->count[st]++;
    m->units[u].state = st;
    if ((old == U_WAITING) != (st == U_WAITING)) /* the nodes it waits for: a lending pool reclaims them */
        dc_sched_service_wants(m->sched, m->pool, m->count[U_WAITING] * m->nodes_per_unit);
}

static bool unit_take(dc_inference *m, uint32_t u)
{
    uint32_t *nodes = &m->unit_nodes[(size_t)u * m->nodes_per_unit];
    if (!dc_sched_take_now(m->sched, m->job_id, m->pool, m->priority, m->nodes_per_unit, nodes)) {
        /* still short (a reclaimed node failed meanwhile...): say so again */
        dc_sched_service_wants(m->sched, m->pool, m->count[U_WAITING] * m->nodes_per_unit);
        return false;
    }
    for (uint32_t i = 0; i < m->nodes_per_unit; i++)
        m->unit_of_node[nodes[i]] = (int32_t)u;
    /* the job's phase may not change (it runs already): say its nodes did */
    dc_sim_publish(m->sim, m->sig_nodes, &(dc_job_event){m->job_id});
    return true;
}

/* Gives the unit's healthy nodes back; forgets the failed ones. */
static void unit_release_nodes(dc_inference *m, uint32_t u)
{
    bool was = m->in_op;
    m->in_op = true;
    for (uint32_t i = 0; i < m->nodes_per_unit; i++) {
        uint32_t node = m->unit_nodes[(size_t)u * m->nodes_per_unit + i];
        if (m->unit_of_node[node] != (int32_t)u)
            continue;
        m->unit_of_node[node] = -1;
        if (dc_cluster_node_state(m->cluster, node) == DC_NODE_BUSY
            && dc_cluster_node_job(m->cluster, node) == m->job_id)
            dc_sched_give_back(m->sched, node);
    }
    m->in_op = was;
}

static void unit_ready(dc_inference *m, uint32_t u)
{
    unit_set(m, u, U_READY);
    dc_eventlog_add(m->log, dc_sim_now(m->sim), "replica_ready", m->name,
                    (int32_t)m->unit_nodes[(size_t)u * m->nodes_per_unit], m->job_id, (double)m->replicas_per_unit);
    if (!m->aggregate)
        dc_inf_req_unit_ready(m, u);
}

static void on_unit_ready(dc_sim *sim, void *ctx, uint64_t u)
{
    dc_inference *m = ctx;
    m->units[u].timer = DC_EVENT_NONE;
    dc_inf_bank(m);
    unit_ready(m, (uint32_t)u);
    fleet_changed(m);
}

static void unit_start(dc_inference *m, uint32_t u, bool at_once)
{
    m->replica_starts += m->replicas_per_unit;
    if (at_once) {
        unit_ready(m, u);
        return;
    }
    unit_set(m, u, U_STARTING);
    m->units[u].timer = dc_sim_after(m->sim, m->startup_s, on_unit_ready, m, u);
}

static void try_acquire(dc_inference *m)
{
    if (!m->started || m->count[U_WAITING] == 0)
        return;
    for (uint32_t u = 0; u < m->max_units && m->count[U_WAITING] > 0; u++) {
        if (m->units[u].state != U_WAITING)
            continue;
        if (!unit_take(m, u))
            break;
        unit_start(m, u, false);
    }
}

/* Requests in flight on a unit that stops serving. */
static void unit_drop_requests(dc_inference *m, uint32_t u)
{
    if (!m->aggregate) {
        dc_inf_req_unit_lost(m, u);
    } else {
        uint32_t R = m->piece_reps; /* the piece still running */
        if (R > 0)
            dc_inf_agg_requeue(m, dc_inf_agg_busy(m) * m->replicas_per_unit / R);
    }
}

void dc_inf_unit_released(dc_inference *m, uint32_t u)
{
    unit_release_nodes(m, u);
    unit_set(m, u, U_FREE);
    try_acquire(m);
    fleet_changed(m);
}

/* A node of unit u failed. */
static void unit_lost(dc_inference *m, uint32_t u, const char *cause)
{
    uint8_t st = m->units[u].state;
    double before = m->retried;
    if (st == U_STARTING)
        dc_sim_cancel(m->sim, &m->units[u].timer);
    if (st == U_READY || st == U_DRAINING)
        unit_drop_requests(m, u);
    int32_t first = (int32_t)m->unit_nodes[(size_t)u * m->nodes_per_unit];
    unit_release_nodes(m, u);
    unit_set(m, u, st == U_DRAINING ? U_FREE : U_WAITING);
    m->replica_failures += m->replicas_per_unit;
    dc_eventlog_add(m->log, dc_sim_now(m->sim), "replica_lost", cause, first, m->job_id, m->retried - before);
}

/* A job-level fault (software) on a ready unit: restart in place. */
static void unit_fault(dc_inference *m, uint32_t u, const char *cause)
{
    double before = m->retried;
    unit_drop_requests(m, u);
    unit_set(m, u, U_STARTING);
    m->units[u].timer = dc_sim_after(m->sim, m->startup_s, on_unit_ready, m, u);
    m->replica_faults += m->replicas_per_unit;
    m->replica_starts += m->replicas_per_unit;
    dc_eventlog_add(m->log, dc_sim_now(m->sim), "replica_fault", cause,
                    (int32_t)m->unit_nodes[(size_t)u * m->nodes_per_unit], m->job_id, m->retried - before);
}

/* The ready unit to drain first: the least loaded (per-request mode), the
 * last one in aggregate mode. */
static int32_t unit_to_remove(const dc_inference *m)
{
    int32_t best = -1;
    uint32_t best_load = UINT32_MAX;
    for (uint32_t u = m->max_units; u-- > 0;) {
        if (m->units[u].state != U_READY)
            continue;
        if (m->aggregate)
            return (int32_t)u;
        uint32_t load = dc_inf_req_unit_load(m, u);
        if (load < best_load) {
            best_load = load;
            best = (int32_t)u;
        }
    }
    return best;
}

static void unit_remove_ready(dc_inference *m, uint32_t u)
{
    if (m->aggregate) {
        unit_release_nodes(m, u);
        unit_set(m, u, U_FREE);
        return;
    }
    unit_set(m, u, U_DRAINING);
    dc_inf_req_unit_drain(m, u);
    if (dc_inf_req_unit_load(m, u) == 0) {
        unit_release_nodes(m, u);
        unit_set(m, u, U_FREE);
    }
}

/* Brings the waiting + starting + ready units to target_units: to grow,
 * draining units first take requests again, then free ones wait for nodes;
 * to shrink, waiting units go first, then starting ones (the latest), then
 * ready ones drain. */
static void reconcile(dc_inference *m)
{
    uint32_t active = m->count[U_WAITING] + m->count[U_STARTING] + m->count[U_READY];
    for (uint32_t u = 0; u < m->max_units && active < m->target_units && m->count[U_DRAINING] > 0; u++)
        if (m->units[u].state == U_DRAINING) {
            unit_set(m, u, U_READY);
            dc_inf_req_unit_undrain(m, u);
            active++;
        }
    for (uint32_t u = 0; u < m->max_units && active < m->target_units; u++)
        if (m->units[u].state == U_FREE) {
            unit_set(m, u, U_WAITING);
            active++;
        }
    for (uint32_t u = m->max_units; u-- > 0 && active > m->target_units && m->count[U_WAITING] > 0;)
        if (m->units[u].state == U_WAITING) {
            unit_set(m, u, U_FREE);
            active--;
        }
    for (uint32_t u = m->max_units; u-- > 0 && active > m->target_units && m->count[U_STARTING] > 0;)
        if (m->units[u].state == U_STARTING) {
            dc_sim_cancel(m->sim, &m->units[u].timer);
            unit_release_nodes(m, u);
            unit_set(m, u, U_FREE);
            active--;
        }
    if (m->aggregate) {
        for (uint32_t u = m->max_units; u-- > 0 && active > m->target_units;)
            if (m->units[u].state == U_READY) {
                unit_remove_ready(m, u);
                active--;
            }
    } else {
        for (; active > m->target_units; active--) {
            int32_t u = unit_to_remove(m);
            if (u < 0)
                break;
            unit_remove_ready(m, (uint32_t)u);
        }
    }
    try_acquire(m);
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    dc_inference *m = ctx;
    const dc_failure_event *ev = payload;
    if (!m->started)
        return;
    bool changed = false;
    dc_inf_bank(m);
    if (ev->job == m->job_id && ev->n_nodes == 0) {
        uint32_t u = (uint32_t)gsl_rng_uniform_int(m->rng_fault, m->max_units);
        if (m->units[u].state == U_READY) {
            unit_fault(m, u, ev->class_name);
            changed = true;
        }
    }
    for (size_t i = 0; i < ev->n_nodes; i++) {
        int32_t u = m->unit_of_node[ev->nodes[i]];
        if (u < 0)
            continue;
        unit_lost(m, (uint32_t)u, ev->class_name);
        changed = true;
    }
    if (changed) {
        try_acquire(m);
        fleet_changed(m);
    }
    (void)sim;
}

static void on_node_idle(dc_sim *sim, void *ctx, const void *payload)
{
    dc_inference *m = ctx;
    (void)sim;
    (void)payload;
    if (m->in_op || !m->started || m->count[U_WAITING] == 0)
        return;
    dc_inf_bank(m);
    try_acquire(m);
    fleet_changed(m);
}

/* ---------- autoscaling and series ---------- */

static void on_tick(dc_sim *sim, void *ctx, uint64_t k)
{
    dc_inference *m = ctx;
    dc_inf_bank(m);
    double now = dc_sim_now(sim);
    double win_rep = m->rep_s - m->win_rep_s, win_slot = m->slot_s - m->win_slot_s;
    double util = win_rep > 0.0 ? win_slot / (win_rep * m->batch) : 0.0;
    double arrived_now = m->aggregate ? 0.0 : m->arrived;
    double window_s = m->scale_interval_s;
    double qps = m->aggregate ? dc_nhpp_integral(&m->nhpp, now - window_s, now) / window_s
                              : (arrived_now - m->win_arrived) / window_s;
    dc_series_record(m->s_qps, now, qps);
    dc_series_record(m->s_util, now, util);
    dc_series_record(m->s_queue, now, m->aggregate ? dc_inf_agg_queue(m) : dc_inf_req_queue_now(m));
    m->win_rep_s = m->rep_s;
    m->win_slot_s = m->slot_s;
    m->win_arrived = arrived_now;

    if (m->autoscale) {
        /* The offered load of the window in replicas at the target share of
         * their rated throughput X(batch): requests that queued or were
         * dropped count, and the count does not depend on how many replicas
         * served them (occupancy would: fewer replicas, longer stays). */
        uint32_t k_rep = m->replicas_per_unit;
        double want_exact = qps / (m->rated_qps * m->target_util);
        double want = ceil(ceil(want_exact - 1e-9) / k_rep);
        double current = (double)m->target_units * k_rep;
        if (current > 0.0 && fabs(want_exact / current - 1.0) <= m->scale_tolerance)
            want = m->target_units; /* close enough: hold */
        if (want < m->min_units)
            want = m->min_units;
        if (want > m->max_units)
            want = m->max_units;
        uint32_t desired = (uint32_t)want;
        if (desired > m->target_units) {
            m->target_units = desired;
            m->below_since_s = -1.0;
            m->scale_ups++;
            dc_eventlog_add(m->log, now, "scale_up", m->name, -1, m->job_id, (double)desired * k_rep);
            reconcile(m);
        } else if (desired < m->target_units) {
            if (m->below_since_s < 0.0) {
                m->below_since_s = now;
                m->below_max_units = desired;
            } else if (desired > m->below_max_units) {
                m->below_max_units = desired;
            }
            if (now - m->below_since_s >= m->scale_down_after_s - 1e-9) {
                m->target_units = m->below_max_units;
                m->below_since_s = -1.0;
                m->scale_downs++;
                dc_eventlog_add(m->log, now, "scale_down", m->name, -1, m->job_id,
                                (double)m->target_units * k_rep);
                reconcile(m);
            }
        } else {
            m->below_since_s = -1.0;
        }
        fleet_changed(m);
    }
    dc_sim_at(sim, m->start_s + (double)(k + 1) * m->scale_interval_s, on_tick, m, k + 1);
}

/* ---------- the model ---------- */

static int inf_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_inference *m = state;
    config_setting_t *g = dc_scenario_lookup(sc, "inference");
    if (!g)
        return DC_OK;
    m->enabled = true;
    m->sim = sim;
    m->cluster = dc_cluster_of(sim);
    m->log = dc_sim_eventlog(sim);
    const char *name = "service", *mode = "aggregate", *memory = "hbm", *policy = "none";
    dc_cfg_lookup_string(g, "name", &name);
    snprintf(m->name, sizeof m->name, "%s", name);
    dc_cfg_lookup_string(g, "mode", &mode);
    m->aggregate = strcmp(mode, "aggregate") == 0;
    m->start_s = num(g, "start_s");
    m->queue_limit = (uint32_t)num(g, "queue_limit");

    /* roofline */
    config_setting_t *mg = dc_cfg_member(g, "model");
    config_setting_t *rg = dc_cfg_member(g, "replica");
    double params = num(mg, "params"), bpp = num(mg, "bytes_per_param");
    m->kv_bytes_per_token = num(mg, "kv_bytes_per_token");
    m->flop_per_token = num(mg, "flop_per_param_token") * params;
    m->weight_bytes = params * bpp;
    m->gpus_per_replica = (uint32_t)num(rg, "gpus");
    m->batch = (uint32_t)num(rg, "batch_size");
    double G = m->gpus_per_replica;
    m->compute_flops = G * num(rg, "gpu_peak_tflops") * 1e12 * num(rg, "compute_efficiency");
    dc_cfg_lookup_string(rg, "memory", &memory);
    bool hbm = strcmp(memory, "hbm") == 0;
    m->bw_bytes_per_s = G * num(rg, hbm ? "hbm_gb_per_s" : "ddr_gb_per_s") * 1e9 * num(rg, "bandwidth_efficiency");
    m->startup_s = num(rg, "startup_s");

    /* tokens */
    int rc = read_tokens(sc, dc_cfg_member(g, "tokens_in"), &m->tok_in, err);
    if (rc == DC_OK)
        rc = read_tokens(sc, dc_cfg_member(g, "tokens_out"), &m->tok_out, err);
    if (rc != DC_OK)
        return rc;
    m->mean_in = tok_expect(m, &m->tok_in, g_id);
    m->mean_out = tok_expect(m, &m->tok_out, g_id);
    m->mean_m = tok_expect(m, &m->tok_out, g_steps);
    m->mean_tp = tok_expect(m, &m->tok_in, g_tp);
    m->mean_tp_sq = tok_expect(m, &m->tok_in, g_tp2);
    /* The KV context of the decoding batch: each sequence counts at
     * n_in + n_out / 2 for the n_out - 1 steps it decodes, so long answers
     * weigh more than in the plain mean. */
    m->mean_ctx = m->mean_in + (m->mean_m > 0.0 ? 0.5 * tok_expect(m, &m->tok_out, g_steps_n) / m->mean_m : 0.0);
    m->rated_qps = dc_inf_throughput(m, m->batch);

    {
        const char *tier = hbm ? "HBM" : "host DDR";
        double per_gpu_gb = num(rg, hbm ? "hbm_gb" : "ddr_gb"), cap = G * per_gpu_gb * 1e9;
        if (m->weight_bytes > cap)
            return dc_scenario_error_at(sc, dc_cfg_member(mg, "params"), err,
                                        "the weights (%.0f GB) do not fit in the replica's %s (%u GPUs x %g GB)",
                                        m->weight_bytes / 1e9, tier, m->gpus_per_replica, per_gpu_gb);
        double kv = m->batch * (m->mean_in + m->mean_out) * m->kv_bytes_per_token;
        if (m->weight_bytes + kv > cap)
            return dc_scenario_error_at(
                sc, dc_cfg_member(rg, "batch_size"), err,
                "weights (%.0f GB) and the KV cache of a full batch (%u x %.0f tokens: %.0f GB) do not fit in "
                "the replica's %s (%.0f GB); use a smaller batch or more GPUs per replica",
                m->weight_bytes / 1e9, m->batch, m->mean_in + m->mean_out, kv / 1e9, tier, cap / 1e9);
    }

    /* replicas on nodes */
    m->gpus_per_node = dc_cluster_gpus_per_node(m->cluster);
    m->sched = dc_scheduler_of(sim);
    const char *pool_name = "";
    dc_cfg_lookup_string(g, "pool", &pool_name);
    m->pool = dc_sched_pool(m->sched, pool_name);
    m->priority = 1001;
    dc_cfg_lookup_int(g, "priority", &m->priority);
    if (m->pool < 0)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "pool"), err, "no pool \"%s\" in scheduler.pools",
                                    pool_name);
    if (dc_sched_pool_spot(m->sched, m->pool))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "pool"), err,
                                    "pool \"%s\" is spot capacity, which is for non-critical batch jobs", pool_name);
    int cpu_type = dc_sched_pool_cpu_type(m->sched, m->pool);
    if (cpu_type >= 0) {
        config_setting_t *at = dc_cfg_member(g, "pool");
        return dc_scenario_error_at(sc, at ? at : g, err,
                                    "pool \"%s\" holds CPU-only nodes (type \"%s\"): a service needs a pool with GPUs",
                                    dc_sched_pool_name(m->sched, m->pool),
                                    dc_cluster_type_at(m->cluster, (size_t)cpu_type)->name);
    }
    uint32_t gpn = m->gpus_per_node, nodes = dc_sched_pool_nodes(m->sched, m->pool);
    config_setting_t *gpus_s = dc_cfg_member(rg, "gpus");
    if (m->gpus_per_replica >= gpn) {
        if (m->gpus_per_replica % gpn != 0)
            return dc_scenario_error_at(sc, gpus_s, err,
                                        "%u GPUs per replica is not a whole number of %u-GPU nodes",
                                        m->gpus_per_replica, gpn);
        m->nodes_per_unit = m->gpus_per_replica / gpn;
        m->replicas_per_unit = 1;
    } else {
        if (gpn % m->gpus_per_replica != 0)
            return dc_scenario_error_at(sc, gpus_s, err, "%u GPUs per replica do not divide a %u-GPU node",
                                        m->gpus_per_replica, gpn);
        m->nodes_per_unit = 1;
        m->replicas_per_unit = gpn / m->gpus_per_replica;
    }
    char where[64] = "the cluster has";
    if (nodes != dc_cluster_node_count(m->cluster))
        snprintf(where, sizeof where, "pool \"%s\" has", dc_sched_pool_name(m->sched, m->pool));
    const char *spares = nodes != dc_cluster_node_count(m->cluster) ? "" : " (nodes + spare_nodes)";
    if (m->nodes_per_unit > nodes)
        return dc_scenario_error_at(sc, gpus_s, err, "a replica needs %u nodes (%u GPUs) but %s %u%s",
                                    m->nodes_per_unit, m->gpus_per_replica, where, nodes, spares);
    config_setting_t *pg = dc_cfg_member(g, "replicas");
    double rmin = num(pg, "min"), rmax = num(pg, "max");
    double rinit = num(pg, "initial");
    if (isnan(rinit))
        rinit = rmin;
    if (rmin > rmax)
        return dc_scenario_error_at(sc, dc_cfg_member(pg, "min"), err,
                                    "min (%.0f) is more than max (%.0f)", rmin, rmax);
    if (rinit < rmin || rinit > rmax)
        return dc_scenario_error_at(sc, dc_cfg_member(pg, "initial"), err,
                                    "initial (%.0f) is outside [min, max] = [%.0f, %.0f]", rinit, rmin, rmax);
    uint32_t k = m->replicas_per_unit;
    m->min_units = (uint32_t)ceil(rmin / k);
    m->max_units = (uint32_t)ceil(rmax / k);
    m->initial_units = (uint32_t)ceil(rinit / k);
    if ((double)m->min_units * m->nodes_per_unit > nodes)
        return dc_scenario_error_at(sc, dc_cfg_member(pg, "min"), err,
                                    "%.0f replicas need %.0f nodes but %s %u%s", rmin,
                                    (double)m->min_units * m->nodes_per_unit, where, nodes, spares);
    if (!m->aggregate && (double)m->max_units * k * m->batch * (sizeof(int32_t) + sizeof(inf_dec)) > MAX_REQUEST_MODE_BYTES)
        return dc_scenario_error_at(sc, dc_cfg_member(pg, "max"), err,
                                    "mode \"request\" would need %.3g GB for %.0f replicas of %u requests: use mode "
                                    "\"aggregate\", fewer replicas or a smaller batch",
                                    (double)m->max_units * k * m->batch * (sizeof(int32_t) + sizeof(inf_dec)) / 1e9,
                                    (double)m->max_units * k, m->batch);
    if ((double)m->max_units * k * m->batch + m->queue_limit > 2e9)
        return dc_scenario_error_at(sc, dc_cfg_member(pg, "max"), err,
                                    "max x batch_size + queue_limit is more than the 2e9 requests a run can hold");

    /* autoscaling */
    config_setting_t *ag = dc_cfg_member(g, "autoscale");
    if (ag)
        dc_cfg_lookup_string(ag, "policy", &policy);
    m->autoscale = strcmp(policy, "utilization") == 0;
    m->target_util = opt_number(ag, "target_utilization", "inference.autoscale.target_utilization");
    m->scale_tolerance = opt_number(ag, "tolerance", "inference.autoscale.tolerance");
    m->scale_interval_s = opt_number(ag, "interval_s", "inference.autoscale.interval_s");
    m->scale_down_after_s = opt_number(ag, "scale_down_after_s", "inference.autoscale.scale_down_after_s");
    m->below_since_s = -1.0;

    /* arrivals */
    config_setting_t *arr = dc_cfg_member(g, "arrivals");
    if (dc_nhpp_init(&m->nhpp, num(arr, "qps")) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    dc_nhpp_set_growth(&m->nhpp, num(arr, "growth_per_year"));
    config_setting_t *daily = dc_cfg_member(arr, "daily");
    if (daily && config_setting_length(daily) > 0) {
        size_t n = (size_t)config_setting_length(daily);
        double *from = malloc(n * sizeof *from), *fac = malloc(n * sizeof *fac);
        if (!from || !fac) {
            free(from);
            free(fac);
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        }
        for (size_t i = 0; i < n; i++) {
            config_setting_t *e = config_setting_get_elem(daily, (unsigned)i);
            from[i] = num(e, "from_h") * 3600.0;
            fac[i] = num(e, "factor");
            if (i > 0 && !(from[i] > from[i - 1])) {
                double prev_h = from[i - 1] / 3600.0;
                free(from);
                free(fac);
                return dc_scenario_error_at(sc, dc_cfg_member(e, "from_h"), err,
                                            "from_h must increase along the list (got %g after %g)",
                                            num(e, "from_h"), prev_h);
            }
        }
        rc = dc_nhpp_set_daily(&m->nhpp, from, fac, n);
        free(from);
        free(fac);
        if (rc != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    config_setting_t *weekly = dc_cfg_member(arr, "weekly");
    bool seen[7] = {false};
    for (int i = 0; weekly && i < config_setting_length(weekly); i++) {
        config_setting_t *e = config_setting_get_elem(weekly, (unsigned)i);
        int day = (int)num(e, "day");
        if (seen[day])
            return dc_scenario_error_at(sc, dc_cfg_member(e, "day"), err, "day %d is listed twice", day);
        seen[day] = true;
        m->nhpp.weekly[day] = num(e, "factor");
    }
    double horizon = dc_sim_horizon(sim);
    if (!m->aggregate && m->start_s < horizon
        && dc_nhpp_integral(&m->nhpp, m->start_s, horizon) > MAX_REQUEST_MODE_ARRIVALS)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "mode"), err,
                                    "mode \"request\" would simulate %.3g requests (more than %.0g): use mode "
                                    "\"aggregate\" or a shorter horizon",
                                    dc_nhpp_integral(&m->nhpp, m->start_s, horizon), MAX_REQUEST_MODE_ARRIVALS);
    if (!m->aggregate && m->start_s < horizon) {
        double n_req = dc_nhpp_integral(&m->nhpp, m->start_s, horizon);
        if (n_req > SLOW_REQUEST_MODE_ARRIVALS)
            dc_scenario_warn_at(sc, dc_cfg_member(g, "mode"),
                                "mode \"request\" simulates each of about %.3g requests: roughly %.0f s of CPU "
                                "(%.1f us a request); mode \"aggregate\" gives the service's figures in seconds "
                                "(docs/inference.md)",
                                n_req, n_req * REQUEST_MODE_S, REQUEST_MODE_S * 1e6);
    }

    /* SLO */
    config_setting_t *slo = dc_cfg_member(g, "slo");
    m->slo_ttft_s = slo ? num(slo, "ttft_s") : NAN;
    m->slo_tpot_s = slo ? num(slo, "tpot_s") : NAN;
    m->slo_e2e_s = slo ? num(slo, "e2e_s") : NAN;

    config_setting_t *agg = dc_cfg_member(g, "aggregate");
    m->agg_interval_s = opt_number(agg, "interval_s", "inference.aggregate.interval_s");
    m->agg_samples = (uint32_t)opt_number(agg, "latency_samples", "inference.aggregate.latency_samples");

    /* state */
    m->units = calloc(m->max_units, sizeof *m->units);
    m->unit_nodes = calloc((size_t)m->max_units * m->nodes_per_unit, sizeof *m->unit_nodes);
    uint32_t all_nodes = dc_cluster_node_count(m->cluster); /* indexed by node id, any pool */
    m->unit_of_node = malloc((size_t)all_nodes * sizeof *m->unit_of_node);
    if (!m->units || !m->unit_nodes || !m->unit_of_node)
        return dc_error_set(err, DC_ENOMEM, "out of memory for %u replica units", m->max_units);
    for (uint32_t i = 0; i < all_nodes; i++)
        m->unit_of_node[i] = -1;
    m->count[U_FREE] = m->max_units;
    m->min_ready = UINT32_MAX;
    if (dc_loghist_init(&m->h_ttft) || dc_loghist_init(&m->h_tpot) || dc_loghist_init(&m->h_e2e)
        || dc_loghist_init(&m->h_wait))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    m->rng_arrival = dc_sim_rng(sim, "inference.arrivals");
    m->rng_tokens = dc_sim_rng(sim, "inference.tokens");
    m->rng_fault = dc_sim_rng(sim, "inference.faults");
    m->rng_agg = dc_sim_rng(sim, "inference.aggregate");
    m->s_replicas = dc_sim_series(sim, "inference_replicas", "replicas", "ready replicas of the inference service");
    m->s_qps = dc_sim_series(sim, "inference_qps", "1/s", "requests per second over the last autoscale interval");
    m->s_util = dc_sim_series(sim, "inference_utilization", "",
                              "batch-slot occupancy of the ready replicas over the last autoscale interval");
    m->s_queue = dc_sim_series(sim, "inference_queue", "requests", "requests waiting for a batch slot");
    if (!m->rng_arrival || !m->rng_tokens || !m->rng_fault || !m->rng_agg || !m->s_replicas || !m->s_qps
        || !m->s_util || !m->s_queue)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    rc = m->aggregate ? dc_inf_agg_init(m, err) : dc_inf_req_init(m, err);
    if (rc != DC_OK)
        return rc;

    m->job_id = dc_cluster_add_job(m->cluster, m->max_units * m->nodes_per_unit);
    m->sig_nodes = dc_sim_signal(sim, "job_nodes");
    int sig_fail = dc_sim_signal(sim, "failure"), sig_idle = dc_sim_signal(sim, "node_idle");
    if (m->job_id < 0 || m->sig_nodes < 0 || sig_fail < 0 || sig_idle < 0
        || dc_sim_subscribe(sim, sig_fail, on_failure, m) != DC_OK
        || dc_sim_subscribe(sim, sig_idle, on_node_idle, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static void on_service_start(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_inference *m = ctx;
    (void)arg;
    m->bank_s = dc_sim_now(sim);
    m->target_units = m->initial_units;
    for (uint32_t u = 0; u < m->initial_units; u++)
        unit_set(m, u, U_WAITING);
    for (uint32_t u = 0; u < m->initial_units; u++) {
        if (!unit_take(m, u))
            break;
        unit_start(m, u, true);
    }
    m->started = true;
    try_acquire(m); /* those that found no node wait (and start with startup_s) */
    if (m->aggregate)
        dc_inf_agg_start(m);
    else
        dc_inf_req_start(m);
    m->min_ready = m->max_ready = dc_inf_ready_replicas(m);
    fleet_changed(m);
    dc_sim_at(sim, m->start_s + m->scale_interval_s, on_tick, m, 1);
}

static int inf_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_inference *m = state;
    (void)err;
    if (!m->enabled)
        return DC_OK;
    dc_cluster_set_job_phase(m->cluster, m->job_id, DC_JOB_PENDING);
    dc_sim_at(sim, m->start_s, on_service_start, m, 0);
    return DC_OK;
}

static void fig(dc_summary *s, const char *key, double v, const char *unit, const char *doc)
{
    dc_summary_set(s, key, v, unit, doc);
}

static void percentiles(dc_summary *s, const char *what, const dc_loghist *h, const char *doc)
{
    static const double qs[] = {0.5, 0.9, 0.99};
    static const char *const qn[] = {"p50", "p90", "p99"};
    char key[64], d[160];
    snprintf(key, sizeof key, "inference.%s_mean_s", what);
    snprintf(d, sizeof d, "mean %s", doc);
    fig(s, key, dc_loghist_mean(h), "s", d);
    for (int i = 0; i < 3; i++) {
        snprintf(key, sizeof key, "inference.%s_%s_s", what, qn[i]);
        snprintf(d, sizeof d, "%s of the %s", qn[i], doc);
        fig(s, key, dc_loghist_quantile(h, qs[i]), "s", d);
    }
}

static void inf_finish(void *state, dc_sim *sim)
{
    dc_inference *m = state;
    if (!m->enabled)
        return;
    dc_inf_bank(m);
    if (m->aggregate && m->started)
        dc_inf_agg_close(m);
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    double span = m->started && now > m->start_s ? now - m->start_s : 0.0;
    double gpn = m->gpus_per_node;
    double ready_gpu_s = (m->node_s[U_READY] + m->node_s[U_DRAINING]) * gpn;
    double serving_gpu_s = m->slot_s / m->batch * m->gpus_per_replica;
    if (serving_gpu_s > ready_gpu_s) /* rounding */
        serving_gpu_s = ready_gpu_s;
    double starting_gpu_s = m->node_s[U_STARTING] * gpn;
    double held_gpu_s = ready_gpu_s + starting_gpu_s;
    double tokens = m->tokens_in + m->tokens_out;

    fig(s, "inference.aggregate", m->aggregate ? 1.0 : 0.0, "", "1: aggregate mode, 0: per-request mode");
    fig(s, "inference.requests", m->arrived, "", "requests that arrived (expected number in aggregate mode)");
    fig(s, "inference.served", m->served, "", "requests served");
    fig(s, "inference.dropped", m->dropped, "", "requests turned away (queue full)");
    fig(s, "inference.drop_fraction", m->arrived > 0 ? m->dropped / m->arrived : 0.0, "", "dropped / arrived");
    fig(s, "inference.retried", m->retried, "", "requests restarted after their replica failed");
    double in_flight = m->aggregate ? dc_inf_agg_in_flight(m) : dc_inf_req_queue_now(m) + m->busy;
    fig(s, "inference.in_flight_end", in_flight, "",
        "requests queued or in service at the end (aggregate mode: the backlog; a piece's stationary content counts as served)");
    fig(s, "inference.qps_offered", span > 0 ? m->arrived / span : 0.0, "1/s", "mean arrival rate");
    fig(s, "inference.qps_served", span > 0 ? m->served / span : 0.0, "1/s", "mean rate of requests served");
    fig(s, "inference.tokens_in", m->tokens_in, "tokens", "prompt tokens of the requests served");
    fig(s, "inference.tokens_out", m->tokens_out, "tokens", "tokens generated for the requests served");
    fig(s, "inference.tokens", tokens, "tokens",
        "tokens in and out of the requests served (the cost model's cost.usd_per_m_tokens divides by it)");
    fig(s, "inference.tokens_out_per_s", span > 0 ? m->tokens_out / span : 0.0, "1/s", "generated tokens per second");
    percentiles(s, "ttft", &m->h_ttft, "time to first token");
    percentiles(s, "tpot", &m->h_tpot, "time per output token after the first");
    percentiles(s, "e2e", &m->h_e2e, "end-to-end latency");
    percentiles(s, "wait", &m->h_wait, "wait in the queue for a batch slot");
    fig(s, "inference.queue_mean", span > 0 ? m->queue_s / span : 0.0, "requests", "mean queue length");
    fig(s, "inference.in_system_mean", span > 0 ? (m->queue_s + m->slot_s) / span : 0.0, "requests",
        "mean requests queued or in service");
    bool has_slo = m->slo_ttft_s > 0 || m->slo_tpot_s > 0 || m->slo_e2e_s > 0;
    double a = m->arrived > 0 ? 1.0 / m->arrived : 0.0;
    fig(s, "inference.slo_attainment", has_slo ? m->slo_met * a : NAN, "",
        "fraction of arrived requests served within every SLO (dropped ones miss)");
    if (m->slo_ttft_s > 0)
        fig(s, "inference.slo_ttft_attainment", m->slo_ttft_met * a, "", "fraction within the TTFT SLO");
    if (m->slo_tpot_s > 0)
        fig(s, "inference.slo_tpot_attainment", m->slo_tpot_met * a, "", "fraction within the TPOT SLO");
    if (m->slo_e2e_s > 0)
        fig(s, "inference.slo_e2e_attainment", m->slo_e2e_met * a, "", "fraction within the E2E SLO");
    fig(s, "inference.replicas_mean", span > 0 ? m->ready_rep_s / span : 0.0, "replicas", "mean ready replicas");
    fig(s, "inference.replicas_min", m->started ? m->min_ready : 0.0, "replicas", "fewest ready replicas");
    fig(s, "inference.replicas_max", m->started ? m->max_ready : 0.0, "replicas", "most ready replicas");
    fig(s, "inference.replica_starts", (double)m->replica_starts, "", "replicas started (scale-ups, replacements)");
    fig(s, "inference.replica_failures", (double)m->replica_failures, "", "replicas lost with a failed node");
    fig(s, "inference.replica_faults", (double)m->replica_faults, "", "replicas restarted by a job-level fault");
    fig(s, "inference.scale_ups", (double)m->scale_ups, "", "autoscaler decisions to add replicas");
    fig(s, "inference.scale_downs", (double)m->scale_downs, "", "autoscaler decisions to remove replicas");
    fig(s, "inference.replica_capacity_qps", m->rated_qps, "1/s",
        "requests per second one replica serves with a full batch (roofline, mean tokens)");
    fig(s, "inference.gpu_h", held_gpu_s / 3600.0, "GPU-h", "GPU-hours held by the service's nodes");
    fig(s, "inference.gpu_utilization", ready_gpu_s > 0 ? serving_gpu_s / ready_gpu_s : 0.0, "",
        "batch-slot occupancy of the ready replicas' GPUs");
    fig(s, "inference.idle_gpu_h", (ready_gpu_s - serving_gpu_s) / 3600.0, "GPU-h",
        "ready replica GPU-hours with empty batch slots");
    fig(s, "inference.gpu_h_per_mtok", tokens > 0 ? held_gpu_s / 3600.0 / (tokens / 1e6) : NAN, "GPU-h",
        "GPU-hours per million tokens (in + out) served");

    dc_summary_set(s, "gpu_hours.inference_serving", serving_gpu_s / 3600.0, "GPU-h",
                   "inference replicas' GPU-time x batch-slot occupancy");
    dc_summary_set(s, "gpu_hours.inference_idle", (ready_gpu_s - serving_gpu_s) / 3600.0, "GPU-h",
                   "inference replicas ready (or draining) with empty batch slots");
    dc_summary_set(s, "gpu_hours.inference_starting", starting_gpu_s / 3600.0, "GPU-h",
                   "inference replicas starting: provisioning, loading weights");
}

static void inf_destroy(void *state)
{
    dc_inference *m = state;
    if (!m->enabled)
        return;
    dc_inf_req_destroy(m);
    dc_inf_agg_destroy(m);
    dc_nhpp_free(&m->nhpp);
    dc_loghist_free(&m->h_ttft);
    dc_loghist_free(&m->h_tpot);
    dc_loghist_free(&m->h_e2e);
    dc_loghist_free(&m->h_wait);
    free(m->units);
    free(m->unit_nodes);
    free(m->unit_of_node);
}

const dc_model_type dc_model_inference = {
    .name = "inference",
    .state_size = sizeof(dc_inference),
    .params = dc_inference_params,
    .init = inf_init,
    .start = inf_start,
    .finish = inf_finish,
    .destroy = inf_destroy,
};

/* ---------- accessors and hooks ---------- */

dc_inference *dc_inference_of(dc_sim *sim)
{
    dc_inference *m = dc_sim_model(sim, "inference");
    return m && m->enabled ? m : NULL;
}

int32_t dc_inference_job(const dc_inference *m) { return m->job_id; }

void dc_inference_totals_now(dc_inference *m, dc_inference_totals *out)
{
    dc_inf_bank(m);
    double gpn = m->gpus_per_node;
    double ready = (m->node_s[U_READY] + m->node_s[U_DRAINING]) * gpn;
    double serving = m->slot_s / m->batch * m->gpus_per_replica;
    if (serving > ready)
        serving = ready;
    *out = (dc_inference_totals){
        .requests_arrived = m->arrived,
        .requests_served = m->served,
        .requests_dropped = m->dropped,
        .tokens_in = m->tokens_in,
        .tokens_out = m->tokens_out,
        .gpu_s_serving = serving,
        .gpu_s_idle = ready - serving,
        .gpu_s_starting = m->node_s[U_STARTING] * gpn,
    };
}

void dc_inference_report_energy(dc_inference *m, double energy_j)
{
    dc_summary *s = dc_sim_summary(m->sim);
    double tokens = m->tokens_in + m->tokens_out;
    dc_summary_set(s, "inference.energy_kwh", energy_j / 3.6e6, "kWh",
                   "energy of the service: its nodes' IT energy with their share of losses, cooling and overheads");
    dc_summary_set(s, "inference.energy_per_request_j", m->served > 0 ? energy_j / m->served : NAN, "J",
                   "energy per request served");
    dc_summary_set(s, "inference.energy_per_token_j", tokens > 0 ? energy_j / tokens : NAN, "J",
                   "energy per token (in + out) served");
    dc_summary_set(s, "inference.energy_per_mtok_kwh", tokens > 0 ? energy_j / 3.6e6 / (tokens / 1e6) : NAN,
                   "kWh", "energy per million tokens (in + out)");
}

void dc_inference_report_cost(dc_inference *m, double cost_usd)
{
    dc_summary *s = dc_sim_summary(m->sim);
    double tokens = m->tokens_in + m->tokens_out;
    dc_summary_set(s, "inference.cost_usd", cost_usd, "USD", "cost of the service");
    dc_summary_set(s, "inference.cost_per_mtok_usd", tokens > 0 ? cost_usd / (tokens / 1e6) : NAN, "USD",
                   "cost per million tokens (in + out)");
}
