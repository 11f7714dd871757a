/* Tests: the foundation models against closed forms (superposition, Young/Daly, crews, breakdown).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The foundation models against closed forms: superposition of exponential
 * failures, the Young/Daly checkpoint trade-off, repair-crew queueing,
 * determinism, and the GPU-hour breakdown. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simrun.h"
#include "workload/checkpoint.h"
#include "cluster.h"
#include "registry.h"
#include "testutil.h"

/* Exponential node failures, plenty of spares, a job that never ends:
 * interruptions are Poisson with mean N x horizon / MTBF. */
static const char superposition_cfg[] =
    "horizon_days = 2000.0; stop_when_done = false;\n"
    "cluster = { nodes = 64; spare_nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 64; work_gpu_h = 1e12; restart_s = 300.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 1000.0; } );\n"
    "repair = { crews = 0; law = \"constant\"; mean_h = 1.0; };\n"
    "trace = { events = false; };\n";

static void test_superposition(void)
{
    dc_sim *sim = dc_simrun_text(superposition_cfg, NULL, 0, 11);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double expected = 64.0 * 2000.0 * 24.0 / 1000.0; /* 3072 */
    double got = dc_simrun_fig(sim, "job.interruptions");
    double half = DC_Z99 * sqrt(expected);
    printf("\n  interruptions %.0f, expected %.0f +- %.0f (99%%)\n", got, expected, half);
    CU_ASSERT(fabs(got - expected) <= half);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "interruptions.node"), got, 0.0);
    /* Every node, busy or spare, fails while up: 128 x availability x T / MTBF. */
    double avail = dc_simrun_fig(sim, "cluster.node_availability");
    double expected_all = 128.0 * avail * 2000.0 * 24.0 / 1000.0;
    CU_ASSERT(fabs(dc_simrun_fig(sim, "failures.total") - expected_all) <= DC_Z99 * sqrt(expected_all));
    dc_sim_destroy(sim);
}

/* The same process with job-level faults per GPU-hour of the running job. */
static void test_job_level_faults(void)
{
    const char *sets[] = {"failures.[0].per=\"job_gpu\"", "failures.[0].mtbf_h=51200.0"};
    dc_sim *sim = dc_simrun_text(superposition_cfg, sets, 2, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 512 GPUs / 51200 h = one per 100 h of computing (not while restarting). */
    double computing_h = dc_simrun_fig(sim, "job.time_running_h") + dc_simrun_fig(sim, "job.time_checkpointing_h");
    double expected = computing_h / 100.0;
    double got = dc_simrun_fig(sim, "job.interruptions");
    CU_ASSERT(fabs(got - expected) <= DC_Z99 * sqrt(expected));
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "repair.tickets"), 0.0, 0.0); /* no node is lost */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), 0.0, 0.0);
    dc_sim_destroy(sim);
}

/* Checkpoint interval trade-off: C = 60 s, R = 300 s, M = 5 h. */
static const char ckpt_cfg[] =
    "horizon_days = 2000.0; stop_when_done = false;\n"
    "cluster = { nodes = 64; spare_nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 64; work_gpu_h = 1e12; restart_s = 300.0; };\n"
    "checkpoint = { interval_s = 1000.0; size_gb = 600.0; write_gb_per_s = 10.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 320.0; } );\n"
    "repair = { crews = 0; law = \"constant\"; mean_h = 1.0; };\n"
    "trace = { events = false; };\n";

static void test_checkpoint_tradeoff(void)
{
    const double C = 60.0, R = 300.0, M = 5.0 * 3600.0;
    const double young = dc_checkpoint_young_s(C, M);
    const double factors[] = {0.25, 0.5, 1.0, 2.0, 4.0};
    enum { REPS = 8 };
    const double t_995_7 = 3.4995; /* Student t, 7 degrees of freedom, two-sided 99% */
    double best_ettr = -1.0;
    size_t best = 99;
    for (size_t i = 0; i < 5; i++) {
        double tau = young * factors[i];
        char set[64];
        snprintf(set, sizeof set, "checkpoint.interval_s=%.6f", tau);
        const char *sets[] = {set, "horizon_days=500.0"};
        double sum = 0, sum2 = 0;
        for (int r = 0; r < REPS; r++) {
            /* Replication r uses seed r at every grid point: common random numbers. */
            dc_sim *sim = dc_simrun_text(ckpt_cfg, sets, 2, r + 1);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
            double e = dc_simrun_fig(sim, "job.ettr");
            sum += e;
            sum2 += e * e;
            dc_sim_destroy(sim);
        }
        double mean = sum / REPS, sd = sqrt((sum2 - REPS * mean * mean) / (REPS - 1));
        double half = t_995_7 * sd / sqrt((double)REPS);
        double daly = tau / (M * exp(R / M) * expm1((tau + C) / M));
        double first = dc_checkpoint_ettr_first_order(tau, C, R, M);
        printf("\n  tau %7.0f s: ETTR %.4f +- %.4f (99%%), Daly exact %.4f, first order %.4f", tau, mean, half,
               daly, first);
        /* Daly's expression is exact for this model (exponential interruptions,
         * failures also during checkpoints and restarts): the 99% confidence
         * interval of the mean ETTR must cover it. */
        CU_ASSERT(fabs(mean - daly) <= half);
        /* First order drops O((tau/M)^2) terms: within 0.015 on this grid. */
        CU_ASSERT(fabs(mean - first) < 0.015);
        if (mean > best_ettr) {
            best_ettr = mean;
            best = i;
        }
    }
    printf("\n");
    CU_ASSERT_EQUAL(best, 2); /* the grid point nearest sqrt(2 C M) */
}

static void test_checkpoint_formulas(void)
{
    /* Young: sqrt(2 x 60 x 18000) = 1469.69 s. */
    CU_ASSERT_DOUBLE_EQUAL(dc_checkpoint_young_s(60.0, 18000.0), 1469.6938, 1e-3);
    /* Daly: sqrt(2CM) [1 + sqrt(C/2M)/3 + C/(18M)] - C with C/2M = 1/600. */
    double x = 60.0 / 36000.0;
    double daly = sqrt(2.0 * 60 * 18000) * (1 + sqrt(x) / 3 + x / 9) - 60.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_checkpoint_daly_s(60.0, 18000.0), daly, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_checkpoint_daly_s(50000.0, 18000.0), 18000.0, 0.0); /* C >= 2M */
    /* Daly's wall time with no failures (M -> large) tends to Ts (1 + C/tau). */
    CU_ASSERT_DOUBLE_EQUAL(dc_checkpoint_daly_wall_s(1e6, 1000.0, 10.0, 0.0, 1e15), 1e6 * 1.01, 1e-3);
}

/* One crew and many failures: the queue shows; many crews: it does not. */
static const char crews_cfg[] =
    "horizon_days = 200.0; stop_when_done = false;\n"
    "cluster = { nodes = 32; spare_nodes = 32; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 32; work_gpu_h = 1e12; restart_s = 300.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 200.0; } );\n"
    "repair = { crews = 1; law = \"exponential\"; mean_h = 2.0; };\n"
    "trace = { events = false; };\n";

static void test_repair_crews(void)
{
    dc_sim *one = dc_simrun_text(crews_cfg, NULL, 0, 9);
    const char *sets[] = {"repair.crews=64"};
    dc_sim *many = dc_simrun_text(crews_cfg, sets, 1, 9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    CU_ASSERT_PTR_NOT_NULL_FATAL(many);
    /* About 64 nodes x 1/200 h = 0.32 failures an hour, 2 h repairs: one crew
     * is 64% busy, and M/M/1 waits are Wq = rho/(mu - lambda) = 3.6 h. */
    CU_ASSERT(dc_simrun_fig(one, "repair.mean_wait_h") > 1.0);
    CU_ASSERT(dc_simrun_fig(one, "repair.max_queue") >= 2.0);
    CU_ASSERT(dc_simrun_fig(one, "repair.crew_utilization") > 0.4 && dc_simrun_fig(one, "repair.crew_utilization") < 0.9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(many, "repair.mean_wait_h"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(many, "repair.max_queue"), 0.0, 0.0);
    printf("\n  one crew: wait %.2f h, utilisation %.2f\n", dc_simrun_fig(one, "repair.mean_wait_h"),
           dc_simrun_fig(one, "repair.crew_utilization"));
    dc_sim_destroy(one);
    dc_sim_destroy(many);
}

static const char small_cfg[] =
    "horizon_days = 20.0;\n"
    "cluster = { nodes = 16; spare_nodes = 1; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 16; work_gpu_h = 40000.0; restart_s = 300.0; };\n"
    "checkpoint = { interval_s = \"auto\"; size_gb = 600.0; write_gb_per_s = 20.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; },\n"
    "             { name = \"node\"; per = \"node\"; law = \"weibull\"; shape = 0.7; mtbf_h = 300.0; },\n"
    "             { name = \"pdu\"; per = \"rack\"; mtbf_h = 500.0; },\n"
    "             { name = \"sw\"; per = \"job\"; mtbf_h = 30.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 6.0; sigma = 1.0; };\n";

/* Where the GPU-hours went: the lines sum to the capacity. */
static void test_breakdown_sums(void)
{
    for (int64_t seed = 1; seed <= 4; seed++) {
        dc_sim *sim = dc_simrun_text(small_cfg, NULL, 0, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        const dc_summary *s = dc_sim_summary(sim);
        double total = 0.0, capacity = dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL);
        size_t lines = 0;
        for (size_t i = 0; i < dc_summary_count(s); i++) {
            const char *k = dc_summary_key(s, i);
            if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0 && strcmp(k, DC_BREAKDOWN_TOTAL) != 0) {
                total += dc_summary_value(s, i);
                lines++;
            }
        }
        CU_ASSERT(lines >= 7);
        CU_ASSERT(fabs(total - capacity) <= 1e-9 * capacity);
        /* 17 nodes x 8 GPUs x simulated time */
        CU_ASSERT_DOUBLE_EQUAL(capacity, 17 * 8 * dc_sim_now(sim) / 3600.0, 1e-9 * capacity);
        /* The waiting line appears: one spare and slow repairs. */
        if (seed == 1)
            CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.waiting") > 0.0);
        dc_sim_destroy(sim);
    }
}

static bool same_events(dc_sim *a, dc_sim *b)
{
    const dc_eventlog *la = dc_sim_eventlog(a), *lb = dc_sim_eventlog(b);
    return dc_eventlog_count(la) == dc_eventlog_count(lb)
           && memcmp(dc_eventlog_rows(la), dc_eventlog_rows(lb), dc_eventlog_count(la) * sizeof(dc_eventlog_row)) == 0;
}

static void test_determinism(void)
{
    dc_sim *a = dc_simrun_text(small_cfg, NULL, 0, 42);
    dc_sim *b = dc_simrun_text(small_cfg, NULL, 0, 42);
    dc_sim *c = dc_simrun_text(small_cfg, NULL, 0, 43);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(dc_eventlog_count(dc_sim_eventlog(a)) > 20);
    CU_ASSERT(dc_simrun_same_summary(a, b));
    CU_ASSERT(same_events(a, b));
    CU_ASSERT(!dc_simrun_same_summary(a, c));
    CU_ASSERT(!same_events(a, c));
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    dc_sim_destroy(c);
}

/* Two simulations alive in one process give what each gives alone. */
static void test_two_sims_one_process(void)
{
    dc_error err = {0};
    dc_scenario *sc = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_scenario_load_string(small_cfg, "t.cfg", &sc, &err), DC_OK);
    dc_scenario_set_schema(sc, dc_schemas());
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    dc_sim *x = NULL, *y = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_build(sc, 42, &x, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_build(sc, 43, &y, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_run(y, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_run(x, &err), DC_OK);
    dc_sim *alone42 = dc_simrun_text(small_cfg, NULL, 0, 42);
    dc_sim *alone43 = dc_simrun_text(small_cfg, NULL, 0, 43);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alone42);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alone43);
    CU_ASSERT(dc_simrun_same_summary(x, alone42) && same_events(x, alone42));
    CU_ASSERT(dc_simrun_same_summary(y, alone43) && same_events(y, alone43));
    dc_sim_destroy(x);
    dc_sim_destroy(y);
    dc_sim_destroy(alone42);
    dc_sim_destroy(alone43);
    dc_scenario_destroy(sc);
}

/* A rack failure takes every healthy node of its rack in one repair. */
static void test_rack_failures(void)
{
    const char cfg[] =
        "horizon_days = 100.0; stop_when_done = false;\n"
        "cluster = { nodes = 16; spare_nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { nodes = 16; work_gpu_h = 1e12; restart_s = 60.0; };\n"
        "failures = ( { name = \"pdu\"; per = \"rack\"; mtbf_h = 100.0; } );\n"
        "repair = { crews = 0; law = \"constant\"; mean_h = 0.5; };\n";
    dc_sim *sim = dc_simrun_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 6 racks x 2400 h / 100 h = 144 rack failures (a rack under repair does not fail). */
    double f = dc_simrun_fig(sim, "failures.total");
    CU_ASSERT(fabs(f - 144.0) <= DC_Z99 * 12.0 + 144.0 * 0.006);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "repair.tickets"), f, 0.0);
    /* Down node-hours = 4 nodes x 0.5 h per failure. */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), f * 4 * 0.5 * 8, 1e-6);
    dc_sim_destroy(sim);
}

/* A job that finishes: completion time, and the run stops there. */
static void test_completion(void)
{
    const char cfg[] =
        "horizon_days = 10.0;\n"
        "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { nodes = 4; work_gpu_h = 768.0; restart_s = 360.0; };\n" /* 24 h of 32 GPUs */
        "checkpoint = { interval_s = 3600.0; size_gb = 36.0; write_gb_per_s = 1.0; };\n"; /* 36 s */
    dc_sim *sim = dc_simrun_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 0.1 h start + 24 h work + 23 checkpoints of 36 s (none after the last hour). */
    double expected_h = 0.1 + 24.0 + 23 * 0.01;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.completion_days") * 24.0, expected_h, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 23.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, expected_h, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.ettr"), 24.0 / expected_h, 1e-12);
    dc_sim_destroy(sim);
}

static void test_job_too_large(void)
{
    const char cfg[] = "horizon_days = 1.0;\n"
                       "cluster = { nodes = 4; spare_nodes = 1; };\n"
                       "job = { nodes = 6; work_gpu_h = 10.0; };\n";
    dc_error err = {0};
    dc_scenario *sc = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_scenario_load_string(cfg, "big.cfg", &sc, &err), DC_OK);
    dc_scenario_set_schema(sc, dc_schemas());
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    dc_sim *sim = NULL;
    CU_ASSERT_EQUAL(dc_build(sc, -1, &sim, &err), DC_EINPUT);
    CU_ASSERT_PTR_NULL(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "big.cfg:3: job.nodes: the job needs 6 nodes but the cluster has 5"));
    dc_scenario_destroy(sc);
}

/* A model that halves the job's speed at 12 h, through the cluster's speed API. */
typedef struct throttle_state {
    dc_cluster *cluster;
    int source;
} throttle_state;

static void throttle_now(dc_sim *sim, void *ctx, uint64_t arg)
{
    throttle_state *t = ctx;
    dc_cluster_set_job_speed(t->cluster, 0, t->source, 0.5);
}

static int throttle_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    throttle_state *t = state;
    t->cluster = dc_cluster_of(sim);
    t->source = dc_cluster_speed_source(t->cluster, "throttle");
    return t->source >= 0 ? DC_OK : DC_EINTERNAL;
}

static int throttle_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_sim_at(sim, 12 * 3600.0, throttle_now, state, 0);
    return DC_OK;
}

static const dc_model_type throttle_model = {
    .name = "throttle", .state_size = sizeof(throttle_state), .init = throttle_init, .start = throttle_start,
};

static void test_speed_factor(void)
{
    const char cfg[] = "horizon_days = 10.0;\n"
                       "cluster = { nodes = 4; gpus_per_node = 8; };\n"
                       "job = { nodes = 4; work_gpu_h = 768.0; restart_s = 0.0; };\n";
    dc_error err = {0};
    dc_scenario *sc = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_scenario_load_string(cfg, "t.cfg", &sc, &err), DC_OK);
    dc_scenario_set_schema(sc, dc_schemas());
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    dc_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_build(sc, -1, &sim, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_sim_add_model(sim, &throttle_model, sc, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_sim_run(sim, &err), DC_OK);
    /* 12 h at full speed (half the work), the other half at half speed: 36 h. */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.completion_days") * 24.0, 36.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.throttle"), 24.0 * 32 * 0.5, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 768.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.ettr"), 768.0 / (36.0 * 32), 1e-12);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
}

/* "job_phase" with its edges as kinds: a plain subscriber follows every
 * edge (it keeps each job's last phase); subscribers of edge masks get
 * exactly the edges of their masks. */
typedef struct edge_watch {
    dc_cluster *c;
    int last[4];
    unsigned long edges[DC_JOB_PHASES * DC_JOB_PHASES];
    unsigned long into_running, touching_ends, bad;
} edge_watch;

static void watch_all(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    edge_watch *w = ctx;
    int32_t j = ((const dc_job_event *)payload)->job;
    if (j < 0 || j >= 4) {
        w->bad++;
        return;
    }
    int now = (int)dc_cluster_job_phase(w->c, j);
    w->edges[DC_JOB_EDGE(w->last[j], now)]++;
    w->last[j] = now;
}

static void watch_into_running(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    edge_watch *w = ctx;
    w->into_running++;
    w->bad += dc_cluster_job_phase(w->c, ((const dc_job_event *)payload)->job) != DC_JOB_RUNNING;
}

static void watch_touching(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    (void)payload;
    ((edge_watch *)ctx)->touching_ends++;
}

static int popcount64(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static void test_phase_edge_kinds(void)
{
    unsigned ends = 1u << DC_JOB_PENDING | 1u << DC_JOB_DONE;
    uint64_t into = dc_job_edges_into(1u << DC_JOB_RUNNING), touching = dc_job_edges_touching(ends);
    CU_ASSERT_EQUAL(popcount64(into), DC_JOB_PHASES);
    CU_ASSERT_EQUAL(popcount64(touching), DC_JOB_PHASES * DC_JOB_PHASES - (DC_JOB_PHASES - 2) * (DC_JOB_PHASES - 2));
    CU_ASSERT(into >> DC_JOB_EDGE(DC_JOB_CHECKPOINTING, DC_JOB_RUNNING) & 1);
    CU_ASSERT(!(into >> DC_JOB_EDGE(DC_JOB_RUNNING, DC_JOB_CHECKPOINTING) & 1));
    CU_ASSERT(touching >> DC_JOB_EDGE(DC_JOB_RUNNING, DC_JOB_DONE) & 1);
    CU_ASSERT(!(touching >> DC_JOB_EDGE(DC_JOB_RUNNING, DC_JOB_CHECKPOINTING) & 1));
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(small_cfg, NULL, 0, 3, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    edge_watch w = {.c = dc_cluster_of(sim)};
    int sig = dc_sim_signal(sim, "job_phase");
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, sig, watch_all, &w), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe_kinds(sim, sig, into, watch_into_running, &w), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe_kinds(sim, sig, touching, watch_touching, &w), DC_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc_simrun_run(sim));
    unsigned long want_into = 0, want_touching = 0, total = 0;
    for (unsigned from = 0; from < DC_JOB_PHASES; from++)
        for (unsigned to = 0; to < DC_JOB_PHASES; to++) {
            unsigned long n = w.edges[DC_JOB_EDGE(from, to)];
            total += n;
            want_into += to == DC_JOB_RUNNING ? n : 0;
            want_touching += (ends >> from & 1u) || (ends >> to & 1u) ? n : 0;
        }
    printf("\n    %lu edges, %lu into running, %lu running to checkpointing, %lu with an end in pending or done", total,
           want_into, w.edges[DC_JOB_EDGE(DC_JOB_RUNNING, DC_JOB_CHECKPOINTING)], want_touching);
    CU_ASSERT(w.edges[DC_JOB_EDGE(DC_JOB_RUNNING, DC_JOB_CHECKPOINTING)] > 50);
    CU_ASSERT_EQUAL(w.into_running, want_into);
    CU_ASSERT_EQUAL(w.touching_ends, want_touching);
    CU_ASSERT(want_touching >= 1 && want_touching < total / 10); /* (the start; the job ends after the horizon) */
    CU_ASSERT_EQUAL(w.bad, 0);
    dc_sim_destroy(sim);
    printf("\n");
}

/* The slots of a job's node list written since a count of its changes
 * (dc_cluster_job_slots_since): at every edge into running, against the
 * list copied at the edge before: every slot that differs is among them,
 * ascending and each once. */
typedef struct slot_watch {
    dc_cluster *c;
    uint32_t *prev;
    uint32_t n_prev;
    uint64_t prev_changes;
    bool have;
    unsigned long edges, known, unknown, differing, missed, unordered;
} slot_watch;

static void watch_slots(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    slot_watch *w = ctx;
    int32_t j = ((const dc_job_event *)payload)->job;
    if (j != 0 || dc_cluster_job_phase(w->c, j) != DC_JOB_RUNNING)
        return;
    uint32_t n;
    const uint32_t *list = dc_cluster_job_node_list(w->c, j, &n);
    uint64_t changes = dc_cluster_job_nodes_changes(w->c, j);
    if (w->have && changes != w->prev_changes) {
        w->edges++;
        uint32_t out[16];
        int got = dc_cluster_job_slots_since(w->c, j, w->prev_changes, out, 16);
        if (got < 0) {
            w->unknown++;
        } else {
            w->known++;
            for (int k = 1; k < got; k++)
                w->unordered += !(out[k - 1] < out[k]);
            for (uint32_t s = 0; s < n; s++) {
                if (s < w->n_prev && list[s] == w->prev[s])
                    continue;
                w->differing++;
                bool in = false;
                for (int k = 0; k < got && !in; k++)
                    in = out[k] == s;
                w->missed += !in;
            }
        }
    }
    memcpy(w->prev, list, (size_t)n * sizeof *list);
    w->n_prev = n;
    w->prev_changes = changes;
    w->have = true;
}

static void test_job_slots_since(void)
{
    dc_error err = {0};
    static const char *const sets[] = {"cluster.spare_nodes=4", "horizon_days=60", "job.work_gpu_h=1e9"};
    dc_sim *sim = dc_simrun_build(small_cfg, sets, 3, 5, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    slot_watch w = {.c = dc_cluster_of(sim), .prev = calloc(64, sizeof(uint32_t))};
    CU_ASSERT_PTR_NOT_NULL_FATAL(w.prev);
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, dc_sim_signal(sim, "job_phase"), watch_slots, &w), DC_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc_simrun_run(sim));
    printf("\n    %lu restarts on changed nodes: %lu with the slots known (%lu slots differed), %lu not", w.edges, w.known,
           w.differing, w.unknown);
    CU_ASSERT(w.known > 10);
    CU_ASSERT(w.differing >= w.known);
    CU_ASSERT_EQUAL(w.missed, 0);
    CU_ASSERT_EQUAL(w.unordered, 0);
    free(w.prev);
    dc_sim_destroy(sim);
    printf("\n");
}

static int register_suites(void)
{
    DC_TEST_SUITE("failures",
                  {"superposition: interruptions = N T / MTBF within 99%", test_superposition},
                  {"job-level faults strike only while computing", test_job_level_faults},
                  {"rack failures take the rack, one repair", test_rack_failures});
    DC_TEST_SUITE("checkpoint",
                  {"Young and Daly formulas", test_checkpoint_formulas},
                  {"ETTR over a grid of intervals vs Daly and first order", test_checkpoint_tradeoff},
                  {"completion time and stop", test_completion});
    DC_TEST_SUITE("repair", {"one crew queues, many do not", test_repair_crews});
    DC_TEST_SUITE("run",
                  {"GPU-hour breakdown sums to capacity", test_breakdown_sums},
                  {"same seed identical, other seed different", test_determinism},
                  {"two simulations in one process", test_two_sims_one_process},
                  {"job larger than the cluster", test_job_too_large},
                  {"a speed factor slows the job and has its breakdown line", test_speed_factor},
                  {"job_phase's edges as kinds reach the subscribers of their masks only", test_phase_edge_kinds},
                  {"the slots of a job's nodes written since a count of its changes", test_job_slots_since});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
