/* Tests: the shared datacenter's fabric side (network domains, job node lists, per-job models).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The shared datacenter, fabric side:
 * - the network's domains through the cluster (leaf and pod of a node);
 * - every job's node list agrees with the nodes the cluster marks BUSY for
 *   it, through starts, releases, failures and repairs, at every phase
 *   change of a busy mixed run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "cluster.h"
#include "fabric/fabric.h"
#include "fabric/network.h"
#include "fabric/topology.h"
#include "flows.h"
#include "maxmin.h"
#include "workload/steptime.h"
#include "workload/scheduler.h"
#include "registry.h"
#include "rowtable.h"
#include "table.h"
#include "trace_read.h"
#include "runner.h"
#include "simrun.h"
#include "testutil.h"

#define REL(a, b, tol) (fabs((a) - (b)) <= (tol) * fabs(b))

/* ---------- domains and node lists ---------- */

typedef struct lists_check {
    dc_cluster *cluster;
    uint64_t checks, bad;
} lists_check;

static void check_lists(dc_sim *sim, void *ctx, const void *payload)
{
    lists_check *lc = ctx;
    dc_cluster *c = lc->cluster;
    (void)sim;
    (void)payload;
    uint32_t busy = 0, held = 0;
    for (uint32_t i = 0; i < dc_cluster_node_count(c); i++)
        busy += dc_cluster_node_state(c, i) == DC_NODE_BUSY;
    for (uint32_t j = 0; j < dc_cluster_job_count(c); j++) {
        uint32_t n;
        const uint32_t *list = dc_cluster_job_node_list(c, (int32_t)j, &n);
        if (n != dc_cluster_job_held_nodes(c, (int32_t)j))
            lc->bad++;
        held += n;
        for (uint32_t k = 0; k < n; k++)
            if (dc_cluster_node_state(c, list[k]) != DC_NODE_BUSY || dc_cluster_node_job(c, list[k]) != (int32_t)j)
                lc->bad++;
    }
    /* every busy node is on its job's list */
    if (held != busy)
        lc->bad++;
    lc->checks++;
}

static int lists_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    lists_check *lc = state;
    (void)sc;
    (void)err;
    lc->cluster = dc_cluster_of(sim);
    /* at every phase change, every node given back and every failure */
    const char *const sigs[] = {"job_phase", "node_idle", "failure"};
    for (size_t i = 0; i < 3; i++) {
        int sig = dc_sim_signal(sim, sigs[i]);
        if (sig < 0 || dc_sim_subscribe(sim, sig, check_lists, lc) != DC_OK)
            return DC_ENOMEM;
    }
    return DC_OK;
}

static const dc_model_type lists_model = {
    .name = "lists_check", .state_size = sizeof(lists_check), .init = lists_init,
};

static const char mixed_cfg[] =
    "horizon_days = 20.0; stop_when_done = false;\n"
    "cluster = { nodes = 96; spare_nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "network = { topology = \"fat_tree\"; tiers = 3; nodes_per_leaf = 2; leaves_per_pod = 8; };\n"
    "job = { nodes = 32; work_gpu_h = 60000.0; priority = 10; };\n"
    "checkpoint = { interval_s = 3600.0; size_gb = 100.0; write_gb_per_s = 10.0; };\n"
    "jobs = ( { name = \"r\"; count = 300; interarrival = { law = \"exponential\"; mean_h = 0.5; };\n"
    "           nodes_min = 1; nodes_max = 16; duration = { law = \"lognormal\"; median_h = 4.0; sigma = 1.0; };\n"
    "           checkpoint_write_s = 20.0; } );\n"
    "scheduler = { placement = \"rack\"; preemption = true; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 2; law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n";

/* A shipped scenario run with the fabric's shortcut (dc_fabric_set_fast)
 * on or off; the sim, or NULL after a test failure. */
static dc_sim *run_fast(const char *path, bool on)
{
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load_file(path, NULL, 0, &err);
    dc_sim *sim = NULL;
    if (!sc || dc_build(sc, -1, &sim, &err) != DC_OK) {
        fprintf(stderr, "\n  build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        dc_scenario_destroy(sc);
        dc_sim_destroy(sim);
        return NULL;
    }
    dc_scenario_destroy(sc);
    dc_fabric_set_fast(dc_network_fabric(dc_network_of(sim)), on);
    return dc_simrun_run(sim);
}

/* With no unit shared, tracked or binding, a job's cap changes skip the
 * pass over its units (shift_demand): the flagship (one job alone, its
 * link failures and repairs, 584 replaced nodes) and the mixed fabric
 * (a job mix sharing its units) give the same summary and series, bit for
 * bit, with the shortcut on and off, and the flagship took it. */
static void test_fabric_fast_same(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        printf("\n  DCSIM_SRCDIR not set: skipped (make check sets it)");
        return;
    }
    const char *files[] = {"scenarios/10k_gpu.cfg", "scenarios/mixed/fabric.cfg"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", src, files[i]);
        dc_sim *a = run_fast(path, true), *b = run_fast(path, false);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_TRUE(dc_simrun_same_summary(a, b));
        dc_series_set *xa = dc_sim_series_set(a), *xb = dc_sim_series_set(b);
        CU_ASSERT_EQUAL_FATAL(dc_series_set_count(xa), dc_series_set_count(xb));
        for (size_t k = 0; k < dc_series_set_count(xa); k++) {
            const dc_series *p = dc_series_set_at(xa, k), *q = dc_series_set_at(xb, k);
            CU_ASSERT_EQUAL_FATAL(dc_series_length(p), dc_series_length(q));
            CU_ASSERT(memcmp(dc_series_times(p), dc_series_times(q), dc_series_length(p) * sizeof(double)) == 0);
            CU_ASSERT(memcmp(dc_series_values(p), dc_series_values(q), dc_series_length(p) * sizeof(double)) == 0);
        }
        uint64_t skips = dc_fabric_fast_skips(dc_network_fabric(dc_network_of(a)));
        printf("\n  %s: %llu passes skipped", files[i], (unsigned long long)skips);
        if (i == 0)
            CU_ASSERT(skips > 0);
        CU_ASSERT_EQUAL(dc_fabric_fast_skips(dc_network_fabric(dc_network_of(b))), 0);
        dc_sim_destroy(a);
        dc_sim_destroy(b);
    }
}

static void test_domains_and_lists(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(mixed_cfg, NULL, 0, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL_FATAL(dc_sim_add_model(sim, &lists_model, NULL, &err), DC_OK);
    dc_cluster *c = dc_cluster_of(sim);
    /* 100 nodes, 2 per leaf, 8 leaves per pod: 50 leaves, 7 pods */
    CU_ASSERT_EQUAL(dc_cluster_nodes_per_leaf(c), 2);
    CU_ASSERT_EQUAL(dc_cluster_leaves_per_pod(c), 8);
    CU_ASSERT_EQUAL(dc_cluster_leaf_count(c), 50);
    CU_ASSERT_EQUAL(dc_cluster_pod_count(c), 7);
    CU_ASSERT_EQUAL(dc_cluster_node_leaf(c, 0), 0);
    CU_ASSERT_EQUAL(dc_cluster_node_leaf(c, 5), 2);
    CU_ASSERT_EQUAL(dc_cluster_node_pod(c, 15), 0);
    CU_ASSERT_EQUAL(dc_cluster_node_pod(c, 16), 1);
    CU_ASSERT_EQUAL(dc_cluster_node_pod(c, 99), 6);
    CU_ASSERT_EQUAL_FATAL(dc_sim_run(sim, &err), DC_OK);
    const lists_check *lc = dc_sim_model(sim, "lists_check");
    CU_ASSERT_PTR_NOT_NULL_FATAL(lc);
    CU_ASSERT(lc->checks > 1000);
    CU_ASSERT_EQUAL(lc->bad, 0);
    double failures = NAN;
    dc_summary_get(dc_sim_summary(sim), "failures.total", &failures);
    CU_ASSERT(failures > 10); /* the lists went through failures */
    dc_sim_destroy(sim);
}

static void test_domains_default(void)
{
    /* no network: a leaf is a rack, one pod */
    const char cfg[] = "horizon_days = 1.0;\n"
                       "cluster = { nodes = 10; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                       "job = { nodes = 4; work_gpu_h = 10.0; };\n";
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(cfg, NULL, 0, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_cluster *c = dc_cluster_of(sim);
    CU_ASSERT_EQUAL(dc_cluster_nodes_per_leaf(c), 4);
    CU_ASSERT_EQUAL(dc_cluster_leaf_count(c), 3);
    CU_ASSERT_EQUAL(dc_cluster_pod_count(c), 1);
    CU_ASSERT_EQUAL(dc_cluster_node_pod(c, 9), 0);
    CU_ASSERT_EQUAL(dc_cluster_node_leaf(c, 9), 2);
    dc_sim_destroy(sim);
}

static dc_sim *run_text(const char *text, const char *const *sets, size_t n_sets)
{
    return dc_simrun_text(text, sets, n_sets, -1);
}

static double fig(dc_sim *sim, const char *key)
{
    return dc_simrun_fig(sim, key);
}

/* The value of the first event of kind for cluster job id job (NAN: none). */
static double event_value(dc_sim *sim, const char *kind, int32_t job)
{
    const dc_eventlog *log = dc_sim_eventlog(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    for (size_t i = 0; i < dc_eventlog_count(log); i++)
        if (rows[i].job == job && strcmp(rows[i].kind, kind) == 0)
            return rows[i].value;
    return NAN;
}

/* ---------- per-job models: classes, defaults, step time ---------- */

#define CLUSTER16                                                                                                  \
    "horizon_days = 400.0;\n"                                                                                      \
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4; };\n"                                          \
    "network = { tiers = 2; nodes_per_leaf = 4; leaf_oversubscription = 2.0; };\n"

/* The same job four ways: all keys in the job group (the legacy layout),
 * from a class, as a jobs entry naming the class, and spread over the
 * entry, its class and the defaults.  Same work, same step, same end. */
static void test_class_inheritance(void)
{
    const char legacy[] = CLUSTER16
        "job = { nodes = 16; params = 8e9; tokens = 1e11; mfu = 0.45; flop_per_param_token = 6.0; restart_s = 60.0; };\n"
        "parallelism = { tensor = 4; pipeline = 2; global_batch_tokens = 2097152.0; seq_len = 4096; dp_overlap = 0.5; };\n";
    const char classed[] = CLUSTER16
        "job_classes = ( { name = \"llm_8b\"; params = 8e9; tokens = 1e11; mfu = 0.45;\n"
        "  parallelism = { tensor = 4; pipeline = 2; global_batch_tokens = 2097152.0; dp_overlap = 0.5; }; } );\n"
        "job = { class = \"llm_8b\"; nodes = 16; restart_s = 60.0; };\n";
    const char entry[] = CLUSTER16
        "job_classes = ( { name = \"llm_8b\"; params = 8e9; tokens = 1e11; mfu = 0.45;\n"
        "  parallelism = { tensor = 4; pipeline = 2; global_batch_tokens = 2097152.0; dp_overlap = 0.5; }; } );\n"
        "jobs = ( { name = \"one\"; class = \"llm_8b\"; nodes = 16; restart_s = 60.0; } );\n";
    const char spread[] = CLUSTER16
        "defaults = { mfu = 0.45; class = \"llm_8b\"; parallelism = { global_batch_tokens = 2097152.0; }; };\n"
        "job_classes = ( { name = \"llm_8b\"; params = 8e9; mfu = 0.3; parallelism = { pipeline = 2; dp_overlap = 0.5; }; } );\n"
        "jobs = ( { name = \"one\"; nodes = 16; tokens = 1e11; restart_s = 60.0; mfu = 0.45;\n"
        "           parallelism = { tensor = 4; }; } );\n";
    dc_sim *a = run_text(legacy, NULL, 0), *b = run_text(classed, NULL, 0);
    dc_sim *c = run_text(entry, NULL, 0), *d = run_text(spread, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    double days = fig(a, "job.completion_days");
    /* the step model slowed it: more than the ideal, less than twice */
    CU_ASSERT(days > fig(a, "job.ideal_days") * 1.01 && days < 2.0 * fig(a, "job.ideal_days"));
    CU_ASSERT_EQUAL(fig(b, "job.completion_days"), days);
    CU_ASSERT_EQUAL(fig(b, "step.time_s"), fig(a, "step.time_s"));
    CU_ASSERT_EQUAL(fig(b, "step.tensor"), 4.0);
    CU_ASSERT_EQUAL(fig(b, "step.pipeline"), 2.0);
    CU_ASSERT(REL(event_value(c, "job_done", 0), days * 86400.0, 1e-12));
    CU_ASSERT(REL(event_value(d, "job_done", 0), days * 86400.0, 1e-12));
    CU_ASSERT(REL(fig(c, "gpu_hours.communication"), fig(a, "gpu_hours.communication"), 1e-12));
    CU_ASSERT(fig(a, "gpu_hours.communication") > 0.0 && fig(a, "gpu_hours.pipeline_bubble") > 0.0);
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    dc_sim_destroy(c);
    dc_sim_destroy(d);
}

/* "auto": tensor up to the node, then pipeline, until the model fits. A
 * 70B model on 512 GPUs (4M-token batches) needs 47.8 GB at 8 x 1, 30.3 GB
 * at 8 x 2, 21.6 GB at 8 x 4 (hand computed: states P/(t p) (2 + 2 + 12/d),
 * activations 34 s h / t per layer on L/p layers, min(m, p) in flight);
 * a 7B model fits one GPU (47 GB). */
static void test_auto_layout(void)
{
#define AUTO_CFG(hbm)                                                                                              \
    "horizon_days = 1.0; stop_when_done = false;\n"                                                                \
    "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"                                          \
    "network = { tiers = 2; nodes_per_leaf = 4; };\n" hbm                                                          \
    "job = { nodes = 64; params = 70e9; tokens = 1e12; };\n"                                                       \
    "job_classes = ( { name = \"c\"; parallelism = { tensor = \"auto\"; pipeline = \"auto\"; data = \"auto\";\n"   \
    "  global_batch_tokens = 4194304.0; }; } );\n"                                                                 \
    "defaults = { class = \"c\"; };\n"
    const char cfg80[] = AUTO_CFG(""), cfg40[] = AUTO_CFG("storage = { tiers = ( { name = \"hbm\"; kind = \"hbm\"; "
                                                           "capacity_tb = 0.32; read_gb_per_s = 2e4; "
                                                           "write_gb_per_s = 2e4; } ); };\n");
    dc_sim *a = run_text(cfg80, NULL, 0), *b = run_text(cfg40, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_EQUAL(fig(a, "step.tensor"), 8.0);
    CU_ASSERT_EQUAL(fig(a, "step.pipeline"), 1.0);
    CU_ASSERT_EQUAL(fig(a, "step.data"), 64.0);
    CU_ASSERT_EQUAL(fig(b, "step.tensor"), 8.0);
    CU_ASSERT_EQUAL(fig(b, "step.pipeline"), 2.0);
    CU_ASSERT(REL(fig(b, "step.memory_gb_per_gpu"), 30.333889, 1e-6));
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    const char *sets[] = {"job.params=7e9"};
    dc_sim *c = run_text(cfg80, sets, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_EQUAL(fig(c, "step.tensor"), 1.0);
    CU_ASSERT_EQUAL(fig(c, "step.pipeline"), 1.0);
    dc_sim_destroy(c);
#undef AUTO_CFG
}

/* A stream whose class gives a layout: every job has its step time, so a
 * job's run takes longer than its work at full rate (restart_s = 0). */
static void test_stream_step_time(void)
{
    const char cfg[] = "horizon_days = 30.0; stop_when_done = true;\n"
                       "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                       "network = { tiers = 2; nodes_per_leaf = 4; leaf_oversubscription = 4.0; };\n"
                       "job_classes = ( { name = \"c\"; params = 1e9; parallelism = { tensor = \"auto\"; pipeline = 1;\n"
                       "  global_batch_tokens = 1048576.0; seq_len = 2048; dp_overlap = 0.0; }; } );\n"
                       "jobs = ( { name = \"s\"; class = \"c\"; count = 20; restart_s = 0.0;\n"
                       "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
                       "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; }; } );\n";
    dc_sim *sim = run_text(cfg, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(fig(sim, "jobs.completed"), 20.0);
    /* every multi-node job spent GPU-hours communicating */
    CU_ASSERT(fig(sim, "gpu_hours.communication") > 0.0);
    dc_sim_destroy(sim);
}

/* Bytes in use at 1 h with n one-node jobs of class "llm" defined, all
 * arrived by 0.6 h and running 10 h: 8 in play, the rest queued.  With
 * layout, the class has bench/shared.cfg's (the step-time model, the
 * fabric's flows); without, it runs at a constant rate. */
static double llm_bytes_at_1h(long n, bool layout)
{
    char cfg[2048];
    snprintf(cfg, sizeof cfg,
             "horizon_days = 0.1; stop_when_done = false;\n"
             "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
             "network = { tiers = 2; nodes_per_leaf = 2; };\n"
             "scheduler = { backfill = true; };\n"
             "job_classes = ( { name = \"llm\"; params = 7.0e9; mfu = 0.45; checkpoint_write_s = 30.0; %s } );\n"
             "jobs = ( { name = \"q\"; class = \"llm\"; count = %ld;\n"
             "  interarrival = { law = \"constant\"; mean_h = %.17g; }; nodes_min = 1; nodes_max = 1;\n"
             "  duration = { law = \"constant\"; mean_h = 10.0; }; } );\n",
             layout ? "parallelism = { tensor = 8; global_batch_tokens = 4194304.0; seq_len = 4096; zero_stage = 1;\n"
                      "  dp_overlap = 0.8; tp_overlap = 0.5; };"
                    : "",
             n, 0.6 / (double)n);
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(cfg, NULL, 0, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double bytes = 0.0;
    dc_sim_at(sim, 3600.0, dc_simrun_take_bytes, &bytes, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(fig(sim, "jobs.started"), 8);
    CU_ASSERT(isnan(dc_steptime_compute_s(sim, 0)) == !layout);
    dc_sim_destroy(sim);
    return bytes;
}

/* Issues 14 and 19: the step-time model and the fabric hold a few words
 * for a job defined and their records only for the jobs in play (the
 * fabric's from a job's first start until it is retired; the step time
 * is computed when asked and not kept).  Bytes in use per job defined,
 * with the class's layout less without it: at main 84cb262 1,438 (a
 * step record of ~730 bytes and a fabric record of ~590 per job, the
 * fabric's array grown by doubling), now 193: the step's 12 bytes, the
 * fabric's 24 (37 with the doubling: 8,192 entries for 6,001 jobs, 2,048
 * for 2,001) and, outside these models, the cluster's row of speed
 * factors, made for every job at the start since its communication
 * slows it (about 144). */
static void test_llm_stream_bytes(void)
{
    double with[2] = {llm_bytes_at_1h(2000, true), llm_bytes_at_1h(6000, true)};
    double without[2] = {llm_bytes_at_1h(2000, false), llm_bytes_at_1h(6000, false)};
    if (with[0] == 0.0 && with[1] == 0.0)
        return; /* no count (ASan) */
    double per_job = (with[1] - with[0]) / 4000.0 - (without[1] - without[0]) / 4000.0;
    printf("\n  bytes in use per llm job defined for its step time and flows: %.0f\n", per_job);
    CU_ASSERT(per_job > 0.0);
    CU_ASSERT(per_job < 300.0);
}

/* A stream's jobs come in a few sizes, interleaved, and share their groups:
 * the step-time model reads a layout once per (groups, size, model) and
 * reuses it.  Each job's layout and compute part must be those of a job of
 * its size alone: its replica (tensor x pipeline) and Tc bit for bit; and
 * the sizes and models must differ (else the check could not see a layout
 * given to the wrong job): four streams of four models, 1 to 16 nodes. */
static void test_stream_layout_memo(void)
{
#define MEMO_CLASS                                                                                                 \
    "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"                                          \
    "network = { tiers = 2; nodes_per_leaf = 4; };\n"                                                              \
    "job_classes = ( { name = \"c\"; parallelism = { tensor = \"auto\"; pipeline = 1;\n"                           \
    "  global_batch_tokens = 1048576.0; seq_len = 2048; }; } );\n"
    const char cfg[] = "horizon_days = 2.0; stop_when_done = false;\n" MEMO_CLASS
                       "jobs = ( { name = \"s1\"; class = \"c\"; params = 1e9; count = 30; restart_s = 0.0;\n"
                       "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
                       "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; }; },\n"
                       "  { name = \"s2\"; class = \"c\"; params = 2e9; count = 30; restart_s = 0.0;\n"
                       "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
                       "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; }; },\n"
                       "  { name = \"s3\"; class = \"c\"; params = 3e9; count = 30; restart_s = 0.0;\n"
                       "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
                       "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; }; },\n"
                       "  { name = \"s4\"; class = \"c\"; params = 4e9; count = 30; restart_s = 0.0;\n"
                       "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
                       "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; }; } );\n";
    dc_sim *sim = run_text(cfg, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_cluster *c = dc_cluster_of(sim);
    int32_t n = (int32_t)dc_cluster_job_count(c);
    CU_ASSERT_EQUAL(n, 120);
    /* the layout alone, by (params, nodes) */
    double solo_tc[4][17], solo_rep[4][17];
    bool have[4][17];
    memset(have, 0, sizeof have);
    int checked = 0, size_changes = 0, same = 0;
    uint32_t last_nodes = 0;
    for (int32_t j = 0; j < n; j++) {
        uint32_t nodes = dc_cluster_job_nodes(c, j);
        int m = j / 30; /* the stream (its params) */
        CU_ASSERT_FATAL(nodes >= 1 && nodes <= 16);
        size_changes += j % 30 > 0 && nodes != last_nodes;
        last_nodes = nodes;
        if (!have[m][nodes]) {
            char text[2048];
            snprintf(text, sizeof text,
                     "horizon_days = 2.0; stop_when_done = false;\n" MEMO_CLASS
                     "jobs = ( { name = \"alone\"; class = \"c\"; params = %.1e; nodes = %u; work_gpu_h = 100.0; } );\n",
                     (m + 1) * 1e9, nodes);
            dc_sim *solo = run_text(text, NULL, 0);
            CU_ASSERT_PTR_NOT_NULL_FATAL(solo);
            solo_tc[m][nodes] = dc_steptime_compute_s(solo, 0);
            solo_rep[m][nodes] = dc_steptime_replica_gpus(solo, 0);
            have[m][nodes] = true;
            dc_sim_destroy(solo);
        } else {
            same++;
        }
        CU_ASSERT_EQUAL(dc_steptime_compute_s(sim, j), solo_tc[m][nodes]);
        CU_ASSERT_EQUAL(dc_steptime_replica_gpus(sim, j), solo_rep[m][nodes]);
        checked += dc_steptime_compute_s(sim, j) == solo_tc[m][nodes];
    }
    CU_ASSERT_EQUAL(checked, n);
    CU_ASSERT(size_changes > 40); /* interleaved sizes */
    CU_ASSERT(same > 60);         /* most jobs' layouts were seen before */
    /* different sizes and models, different compute parts */
    CU_ASSERT(have[0][1] && have[0][16]);
    CU_ASSERT(solo_tc[0][1] != solo_tc[0][16] && solo_tc[0][1] != solo_tc[1][1]);
    dc_sim_destroy(sim);
#undef MEMO_CLASS
}

/* A job's own checkpoint tier and size, and a class's write time. */
static void test_job_checkpoints(void)
{
    const char cfg[] = "horizon_days = 10.0;\n"
                       "cluster = { nodes = 8; gpus_per_node = 8; };\n"
                       "storage = { node_link_gbps = 400.0; tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1e3;\n"
                       "  read_gb_per_s = 20.0; write_gb_per_s = 10.0; } ); };\n"
                       "job_classes = ( { name = \"c\"; checkpoint = true; checkpoint_interval_s = 3600.0;\n"
                       "  checkpoint_write_s = 30.0; } );\n"
                       "jobs = ( { name = \"tiered\"; nodes = 2; work_gpu_h = 160.0; params = 5e9; checkpoint = true;\n"
                       "           checkpoint_interval_s = 3600.0; checkpoint_tier = \"pfs\"; restart_s = 0.0; },\n"
                       "         { name = \"sized\"; nodes = 2; work_gpu_h = 160.0; checkpoint = true; checkpoint_gb = 50.0;\n"
                       "           checkpoint_interval_s = 3600.0; checkpoint_tier = \"pfs\"; restart_s = 0.0; start_h = 100.0; },\n"
                       "         { name = \"classed\"; class = \"c\"; nodes = 2; work_gpu_h = 160.0; restart_s = 0.0;\n"
                       "           start_h = 200.0; } );\n";
    dc_sim *sim = run_text(cfg, NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 5e9 params x 14 B = 70 GB at the tier's 10 GB/s (the nodes' links give
     * 100): 7 s; 50 GB: 5 s; the class's 30 s.  10 h of work, 9 checkpoints. */
    CU_ASSERT(REL(event_value(sim, "checkpoint", 0), 7.0, 1e-9));
    CU_ASSERT(REL(event_value(sim, "checkpoint", 1), 5.0, 1e-9));
    CU_ASSERT(REL(event_value(sim, "checkpoint", 2), 30.0, 1e-12));
    CU_ASSERT(REL(event_value(sim, "job_done", 2), 10 * 3600.0 + 9 * 30.0, 1e-12));
    dc_sim_destroy(sim);
}

/* ---------- the shared fabric (fabric.h) on explicit placements ---------- */

#define E0 50e9 /* bytes/s per GPU: 8 NICs of 50 GB/s on 8 GPUs */

/* 12 nodes of 8 GPUs, leaves of 2 nodes, pods of 2 leaves (4 nodes), 3 tiers. */
static dc_topology *small_topo(dc_topology_kind kind, double leaf_over, double pod_over, uint32_t npl,
                               uint32_t lpp, uint32_t nodes)
{
    dc_topology_spec s = {
        .kind = kind, .tiers = 3, .gpus_per_node = 8, .nodes_per_leaf = npl, .leaves_per_pod = lpp,
        .switch_radix = 64, .leaf_oversub = leaf_over, .pod_oversub = pod_over, .nics_per_node = 8,
        .nic_Bps = E0, .scaleup_gpus = 8, .scaleup_Bps = 450e9, .scaleup_latency_s = 0.0, .latency_s = 0.0,
        .hop_latency_s = 0.0, .placement = DC_PLACE_PACKED,
    };
    dc_topology *t = NULL;
    const char *bad = NULL;
    dc_error err = {0};
    if (dc_topology_create(&s, nodes, 0, &t, &bad, &err) != DC_OK)
        return NULL;
    for (int p = 0; p < DC_PART_COUNT; p++)
        if (dc_topology_part_count(t, (dc_net_part)p) > 0)
            dc_topology_track(t, (dc_net_part)p);
    return t;
}

typedef struct fab_log {
    int changed[16], cut[16];
} fab_log;

static void log_changed(void *ctx, int32_t job)
{
    ((fab_log *)ctx)->changed[job]++;
}

static void log_cut(void *ctx, int32_t job)
{
    ((fab_log *)ctx)->cut[job]++;
}

/* A job of 4 nodes, data parallel over them: its ring of 4 ranks at stride 8
 * (one member per node), the rep.  Nodes given. */
static void start4(dc_fabric *f, int32_t job, uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    static uint64_t gen; /* a new placement each time */
    uint32_t nodes[4] = {a, b, c, d};
    CU_ASSERT_EQUAL(dc_fabric_start(f, job, nodes, 4, ++gen), DC_OK);
}

static double ring4(dc_fabric *f, int32_t job)
{
    return dc_fabric_ring(f, job, 4, 8).bw_Bps;
}

/* Two identical jobs spread over pods share the middle pod's uplinks: on a
 * 1:k spine each gets half of what it gets alone (closed form: the pod's
 * 4 nodes x 8 GPUs x E0 / k over 2 x 8 ring edges); packed in their own
 * pods, or on a 1:1 spine, exactly what it gets alone. */
static void test_fabric_two_jobs(void)
{
    const double ks[] = {1.0, 2.0, 8.0};
    for (size_t i = 0; i < 3; i++) {
        double k = ks[i];
        dc_topology *t = small_topo(DC_TOPO_FAT_TREE, 1.0, k, 2, 2, 12);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        fab_log lg = {0};
        dc_fabric *f = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        dc_fabric_register(f, 0, 4, 4, 8);
        dc_fabric_register(f, 1, 4, 4, 8);
        /* spread: A on nodes 2-5 (pods 0 and 1), B on 6-9 (pods 1 and 2) */
        start4(f, 0, 2, 3, 4, 5);
        double solo = ring4(f, 0);
        /* alone: a NIC each, or a pod's 32 E0 / k over its 8 crossing edges */
        CU_ASSERT(REL(solo, fmin(E0, 4.0 * E0 / k), 1e-12));
        start4(f, 1, 6, 7, 8, 9);
        double shared = fmin(E0, 2.0 * E0 / k); /* the middle pod's 32 E0 / k over 16 edges */
        CU_ASSERT(REL(ring4(f, 0), shared, 1e-12));
        CU_ASSERT(REL(ring4(f, 1), shared, 1e-12));
        if (k == 1.0) {
            CU_ASSERT_EQUAL(ring4(f, 0), solo); /* non-blocking: exactly alone */
            CU_ASSERT_EQUAL(ring4(f, 1), solo);
        }
        CU_ASSERT(lg.changed[0] >= 1);
        dc_fabric_stop(f, 1);
        CU_ASSERT_EQUAL(ring4(f, 0), solo);
        dc_fabric_stop(f, 0);
        /* packed: A in pod 0, B in pod 1, no ring leaves a pod */
        start4(f, 0, 0, 1, 2, 3);
        double packed = ring4(f, 0);
        int told = lg.changed[0];
        start4(f, 1, 4, 5, 6, 7);
        CU_ASSERT_EQUAL(lg.changed[0], told); /* B's start touched no link of A's */
        CU_ASSERT_EQUAL(ring4(f, 0), packed);
        CU_ASSERT_EQUAL(ring4(f, 1), packed);
        CU_ASSERT(REL(packed, E0, 1e-12));
        dc_fabric_destroy(f);
        dc_topology_destroy(t);
    }
}

/* Unequal shares: a job capped below its share leaves the rest to the other
 * (max-min).  C spans pods 1 and 2 with one node in each pod under a 1:8
 * spine, A spans pods 0 and 1. */
static void test_fabric_unequal(void)
{
    dc_topology *t = small_topo(DC_TOPO_FAT_TREE, 1.0, 8.0, 2, 2, 12);
    fab_log lg = {0};
    dc_fabric *f = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
    dc_fabric_register(f, 0, 4, 4, 8);
    dc_fabric_register(f, 2, 2, 2, 8);
    start4(f, 0, 2, 3, 4, 5);
    uint32_t c_nodes[2] = {7, 8};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 2, c_nodes, 2, 1), DC_OK);
    /* pod 1: capacity 4 x 8 x E0 / 8 = 4 E0; A has 8 edges out (P = 16),
     * C has 8 (P = 8, n = 2 at stride 8: every GPU's group crosses).  Alone
     * C gets min(E0, pod 2's 4 E0 / 8) = 0.5 E0, A 0.5 E0: demand 8 E0 > 4 E0;
     * max-min: both at 4 E0 / 16 = 0.25 E0. */
    CU_ASSERT(REL(dc_fabric_rate(f, 0), 0.25 * E0, 1e-12));
    CU_ASSERT(REL(dc_fabric_rate(f, 2), 0.25 * E0, 1e-12));
    /* C's node 8 loses 6 of its 8 NICs: C alone gets 2/8 E0 x 1 member... its
     * cap falls to 0.25 E0 x ... (NIC: 8 GPUs x E0 x 2/8 / 8 edges = 0.25 E0):
     * still its share.  With 7 of 8 lost, C's cap is E0 / 8 and A takes the
     * rest of pod 1: (4 E0 - 8 x E0 / 8) / 8 = 0.375 E0. */
    for (uint64_t nic = 8 * 8; nic < 8 * 8 + 7; nic++) {
        dc_net_change ch = dc_topology_set_failed(t, DC_PART_NIC_LINK, nic, true);
        dc_fabric_health_changed(f, &ch);
    }
    CU_ASSERT(REL(dc_fabric_solo_rate(f, 2), E0 / 8.0, 1e-12));
    CU_ASSERT(REL(dc_fabric_rate(f, 2), E0 / 8.0, 1e-12));
    CU_ASSERT(REL(dc_fabric_rate(f, 0), 0.375 * E0, 1e-12));
    CU_ASSERT(REL(ring4(f, 0), 0.375 * E0, 1e-12));
    CU_ASSERT(REL(dc_fabric_worst_in_use(f), 1.0 / 8.0, 1e-12));
    CU_ASSERT_EQUAL(lg.cut[2], 0);
    /* the last NIC: C is cut (and left out of it from then on) */
    dc_net_change ch = dc_topology_set_failed(t, DC_PART_NIC_LINK, 8 * 8 + 7, true);
    dc_fabric_health_changed(f, &ch);
    CU_ASSERT_EQUAL(lg.cut[2], 1);
    CU_ASSERT_EQUAL(lg.cut[0], 0);
    dc_fabric_destroy(f);
    dc_topology_destroy(t);
}

/* A pod's uplinks fail one by one: the jobs whose rings leave it slow down
 * in proportion, and are cut when none is left; a job inside another pod
 * never notices. */
static void test_fabric_link_failures(void)
{
    dc_topology *t = small_topo(DC_TOPO_FAT_TREE, 1.0, 8.0, 2, 2, 12);
    fab_log lg = {0};
    dc_fabric *f = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
    dc_fabric_register(f, 0, 4, 4, 8);
    dc_fabric_register(f, 1, 4, 4, 8);
    dc_fabric_register(f, 3, 2, 2, 8);
    start4(f, 0, 2, 3, 4, 5);
    start4(f, 1, 6, 7, 8, 9);
    uint32_t d_nodes[2] = {10, 11};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 3, d_nodes, 2, 1), DC_OK); /* inside pod 2 */
    double d_bw = dc_fabric_ring(f, 3, 2, 8).bw_Bps;
    /* pod uplinks: ceil(2 leaves x 16 / 8) = 4 per pod; pod 1's are 4..7 */
    CU_ASSERT_EQUAL(dc_topology_part_count(t, DC_PART_POD_LINK), 12);
    for (uint64_t l = 4; l < 8; l++) {
        int d_told = lg.changed[3];
        dc_net_change ch = dc_topology_set_failed(t, DC_PART_POD_LINK, l, true);
        dc_fabric_health_changed(f, &ch);
        double h = 1.0 - (double)(l - 3) / 4.0;
        if (h > 0.0) {
            CU_ASSERT(REL(ring4(f, 0), 2.0 * E0 / 8.0 * h, 1e-12));
            CU_ASSERT(REL(ring4(f, 1), 2.0 * E0 / 8.0 * h, 1e-12));
        }
        CU_ASSERT_EQUAL(lg.changed[3], d_told);
        CU_ASSERT_EQUAL(dc_fabric_ring(f, 3, 2, 8).bw_Bps, d_bw);
    }
    CU_ASSERT_EQUAL(lg.cut[0], 1);
    CU_ASSERT_EQUAL(lg.cut[1], 1);
    CU_ASSERT_EQUAL(lg.cut[3], 0);
    /* around the dead pod: pod 0's and 2's own uplinks, alone on each */
    CU_ASSERT(REL(ring4(f, 0), 4.0 * E0 / 8.0 / 2.0 * 2.0, 1e-12));
    dc_fabric_destroy(f);
    dc_topology_destroy(t);
}

/* Rail-optimised: a ring of one GPU per node at a stride that is not a
 * multiple of the node joins GPUs of different ranks, so different rails:
 * every edge crosses the spine, which a ToR-based fat-tree of the same
 * groups does not see (the job fits one leaf).  At a node stride, rail and
 * fat-tree agree. */
static void test_fabric_rail(void)
{
    dc_topology *fat = small_topo(DC_TOPO_FAT_TREE, 4.0, 1.0, 4, 3, 12);
    dc_topology *rail = small_topo(DC_TOPO_RAIL, 4.0, 1.0, 4, 3, 12);
    fab_log lg = {0};
    dc_fabric *ff = dc_fabric_create(fat, 12, log_changed, log_cut, &lg);
    dc_fabric *fr = dc_fabric_create(rail, 12, log_changed, log_cut, &lg);
    uint32_t nodes[3] = {0, 1, 2};
    for (int k = 0; k < 2; k++) {
        dc_fabric *f = k ? fr : ff;
        dc_fabric_register(f, 0, 3, 2, 12); /* tensor 4 x pipeline 3, data 2 */
        CU_ASSERT_EQUAL(dc_fabric_start(f, 0, nodes, 3, 1), DC_OK);
    }
    /* fat-tree: inside one ToR, a NIC per member */
    CU_ASSERT(REL(dc_fabric_ring(ff, 0, 2, 12).bw_Bps, E0, 1e-12));
    /* rail: the group's uplinks, 4 nodes x 8 x E0 / 4 = 8 E0, over its 24 edges */
    CU_ASSERT(REL(dc_fabric_ring(fr, 0, 2, 12).bw_Bps, E0 / 3.0, 1e-12));
    /* same rank (stride 8): the rail switch alone */
    CU_ASSERT_EQUAL(dc_fabric_ring(fr, 0, 3, 8).bw_Bps, dc_fabric_ring(ff, 0, 3, 8).bw_Bps);
    dc_fabric_destroy(ff);
    dc_fabric_destroy(fr);
    dc_topology_destroy(fat);
    dc_topology_destroy(rail);
}

/* Alone on its ideal placement (a job that does not compute) and alone on
 * the same nodes while computing, the fabric gives topology.h's closed form. */
static void test_fabric_matches_topology(void)
{
    const double overs[][2] = {{1, 1}, {2, 1}, {1, 4}, {2, 8}};
    const uint32_t shapes[][2] = {{2, 8}, {4, 8}, {8, 8}, {4, 16}, {2, 32}, {16, 4}, {8, 1}, {2, 16}};
    for (size_t o = 0; o < 4; o++) {
        dc_topology_spec s = {
            .kind = DC_TOPO_FAT_TREE, .tiers = 3, .gpus_per_node = 8, .nodes_per_leaf = 2, .leaves_per_pod = 4,
            .switch_radix = 64, .leaf_oversub = overs[o][0], .pod_oversub = overs[o][1], .nics_per_node = 8,
            .nic_Bps = E0, .scaleup_gpus = 8, .scaleup_Bps = 450e9, .scaleup_latency_s = 3e-6,
            .latency_s = 6e-6, .hop_latency_s = 1e-6, .placement = DC_PLACE_PACKED,
        };
        dc_topology *t = NULL;
        const char *bad = NULL;
        dc_error err = {0};
        CU_ASSERT_EQUAL_FATAL(dc_topology_create(&s, 32, 32, &t, &bad, &err), DC_OK);
        fab_log lg = {0};
        dc_fabric *f = dc_fabric_create(t, 32, log_changed, log_cut, &lg);
        dc_fabric_register(f, 0, 32, 32, 8);
        uint32_t nodes[32];
        for (uint32_t i = 0; i < 32; i++)
            nodes[i] = i;
        for (int computing = 0; computing < 2; computing++) {
            if (computing)
                CU_ASSERT_EQUAL(dc_fabric_start(f, 0, nodes, 32, 1), DC_OK);
            for (size_t k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
                dc_ring_bw a = dc_topology_ring(t, shapes[k][0], shapes[k][1]);
                dc_ring_bw b = dc_fabric_ring(f, 0, shapes[k][0], shapes[k][1]);
                bool same = REL(b.bw_Bps, a.bw_Bps, 1e-12) && REL(b.alpha_s, a.alpha_s, 1e-12);
                if (!same)
                    fprintf(stderr, "\n  over %g/%g ring %u/%u: fabric %g %g, topology %g %g", overs[o][0],
                            overs[o][1], shapes[k][0], shapes[k][1], b.bw_Bps, b.alpha_s, a.bw_Bps, a.alpha_s);
                CU_ASSERT(same);
            }
        }
        dc_fabric_destroy(f);
        dc_topology_destroy(t);
    }
}

/* A long random history of starts, node swaps (a failed node replaced),
 * stops and link failures gives, at every step, the rings a fresh fabric
 * gives for the same placements and failed parts (the incremental updates
 * keep nothing stale). */
static void test_fabric_history(void)
{
    enum { NODES = 24, JOBS = 4, STEPS = 600 };
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 1414);
    const uint32_t sizes[JOBS] = {4, 6, 3, 8};
    const uint32_t shapes[][2] = {{4, 8}, {6, 8}, {3, 8}, {8, 8}, {2, 8}, {2, 16}, {16, 2}};
    dc_topology *t = small_topo(DC_TOPO_FAT_TREE, 2.0, 4.0, 2, 3, NODES);
    fab_log lg = {0};
    dc_fabric *f = dc_fabric_create(t, NODES, log_changed, log_cut, &lg);
    uint32_t nodes[JOBS][8];
    bool on[JOBS] = {false};
    uint64_t gen[JOBS] = {0};
    int owner[NODES];
    for (int i = 0; i < NODES; i++)
        owner[i] = -1;
    for (int j = 0; j < JOBS; j++)
        dc_fabric_register(f, j, sizes[j], sizes[j], 8);
    dc_net_part fp[64];
    uint64_t fu[64];
    size_t nf = 0;
    bool agree = true;
    int shared_steps = 0; /* job-steps at a max-min share below what it gets alone */
    for (int step = 0; step < STEPS && agree; step++) {
        int j = (int)gsl_rng_uniform_int(rng, JOBS);
        double u = gsl_rng_uniform(rng);
        if (u < 0.1 && nf < 64) { /* a link or switch fails, or comes back */
            if (nf > 3 || (nf > 0 && gsl_rng_uniform(rng) < 0.5)) {
                size_t i = gsl_rng_uniform_int(rng, nf);
                dc_net_change ch = dc_topology_set_failed(t, fp[i], fu[i], false);
                dc_fabric_health_changed(f, &ch);
                fp[i] = fp[nf - 1], fu[i] = fu[nf - 1], nf--;
            } else {
                dc_net_part p = gsl_rng_uniform(rng) < 0.5 ? DC_PART_LEAF_LINK : DC_PART_POD_LINK;
                uint64_t unit = gsl_rng_uniform_int(rng, dc_topology_part_count(t, p));
                if (!dc_topology_part_failed(t, p, unit)) {
                    dc_net_change ch = dc_topology_set_failed(t, p, unit, true);
                    dc_fabric_health_changed(f, &ch);
                    fp[nf] = p, fu[nf] = unit, nf++;
                }
            }
        } else if (!on[j]) { /* start on free nodes */
            uint32_t got = 0;
            for (int tries = 0; tries < 200 && got < sizes[j]; tries++) {
                uint32_t n = (uint32_t)gsl_rng_uniform_int(rng, NODES);
                if (owner[n] < 0) {
                    owner[n] = j;
                    nodes[j][got++] = n;
                }
            }
            if (got < sizes[j]) {
                for (uint32_t k = 0; k < got; k++)
                    owner[nodes[j][k]] = -1;
                continue;
            }
            CU_ASSERT_EQUAL(dc_fabric_start(f, j, nodes[j], sizes[j], ++gen[j]), DC_OK);
            on[j] = true;
        } else if (u < 0.6) { /* a node swapped: the lost slot takes the last, the new comes last */
            uint32_t n = (uint32_t)gsl_rng_uniform_int(rng, NODES);
            if (owner[n] >= 0)
                continue;
            uint32_t k = (uint32_t)gsl_rng_uniform_int(rng, sizes[j]);
            owner[nodes[j][k]] = -1;
            nodes[j][k] = nodes[j][sizes[j] - 1];
            nodes[j][sizes[j] - 1] = n;
            owner[n] = j;
            CU_ASSERT_EQUAL(dc_fabric_start(f, j, nodes[j], sizes[j], ++gen[j]), DC_OK);
        } else { /* stop; or done (its placement's arrays go to the next job placed) */
            if (u > 0.9)
                dc_fabric_retire(f, j);
            else
                dc_fabric_stop(f, j);
            for (uint32_t k = 0; k < sizes[j]; k++)
                owner[nodes[j][k]] = -1;
            on[j] = false;
        }
        /* a fresh fabric, the same failed parts and placements */
        dc_topology *t2 = small_topo(DC_TOPO_FAT_TREE, 2.0, 4.0, 2, 3, NODES);
        for (size_t i = 0; i < nf; i++)
            dc_topology_set_failed(t2, fp[i], fu[i], true);
        fab_log lg2 = {0};
        dc_fabric *f2 = dc_fabric_create(t2, NODES, log_changed, log_cut, &lg2);
        dc_net_change all = {.n_ranges = 3,
                             .ranges = {{0, 0, NODES}, {1, 0, dc_topology_units(t2, 1)}, {2, 0, dc_topology_units(t2, 2)}}};
        dc_fabric_health_changed(f2, &all);
        for (int k = 0; k < JOBS; k++) {
            dc_fabric_register(f2, k, sizes[k], sizes[k], 8);
            if (on[k])
                dc_fabric_start(f2, k, nodes[k], sizes[k], 1);
        }
        for (int k = 0; k < JOBS; k++)
            shared_steps += on[k] && dc_fabric_rate(f, k) < dc_fabric_solo_rate(f, k) * (1 - 1e-9);
        for (int k = 0; k < JOBS && agree; k++)
            for (size_t s = 0; s < sizeof shapes / sizeof shapes[0] && on[k]; s++) {
                dc_ring_bw a = dc_fabric_ring(f, k, shapes[s][0], shapes[s][1]);
                dc_ring_bw b = dc_fabric_ring(f2, k, shapes[s][0], shapes[s][1]);
                if (!(fabs(a.bw_Bps - b.bw_Bps) <= 1e-9 * b.bw_Bps) || a.alpha_s != b.alpha_s) {
                    fprintf(stderr, "\n  step %d job %d ring %u/%u: %.9g, fresh %.9g", step, k, shapes[s][0],
                            shapes[s][1], a.bw_Bps, b.bw_Bps);
                    agree = false;
                }
            }
        dc_fabric_destroy(f2);
        dc_topology_destroy(t2);
    }
    CU_ASSERT(agree);
    CU_ASSERT(shared_steps > 100);
    dc_fabric_destroy(f);
    dc_topology_destroy(t);
    gsl_rng_free(rng);
}

/* Whether job of f, alone, has the rings (of several shapes) and solo rate
 * of job 0 alone on nodes[0..n) of a fresh fabric over t, bit for bit. */
static bool as_fresh(dc_fabric *f, int32_t job, dc_topology *t, const uint32_t *nodes, uint32_t n)
{
    static const uint32_t shapes[][2] = {{4, 8}, {2, 8}, {2, 16}, {16, 2}, {8, 4}, {32, 1}};
    fab_log lg = {0};
    dc_fabric *g = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
    dc_fabric_register(g, 0, n, 4, 8);
    bool same = dc_fabric_start(g, 0, nodes, n, 1) == DC_OK && dc_fabric_solo_rate(f, job) == dc_fabric_solo_rate(g, 0);
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        dc_ring_bw a = dc_fabric_ring(f, job, shapes[i][0], shapes[i][1]);
        dc_ring_bw b = dc_fabric_ring(g, 0, shapes[i][0], shapes[i][1]);
        same = same && a.bw_Bps == b.bw_Bps && a.alpha_s == b.alpha_s;
    }
    dc_fabric_destroy(g);
    return same;
}

/* The shortcuts of a (re)placement: a restart on other nodes places anew
 * (packed in pod 0 the ring gets E0; spread over pods 0 and 1 under a 1:8
 * spine, a pod's 4 nodes x 8 GPUs x E0 / 8 over its 8 crossing edges =
 * 0.5 E0); a node swapped while computing moves only it (the entries'
 * keys made then) and agrees with a fresh fabric, twice over and after a
 * placement anew; a job done hands its arrays to the next job placed, which
 * agrees with a fresh fabric, and is then costed on its ideal placement. */
static void test_fabric_replace_shortcuts(void)
{
    dc_topology *t = small_topo(DC_TOPO_FAT_TREE, 1.0, 8.0, 2, 2, 12);
    fab_log lg = {0};
    dc_fabric *f = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
    dc_fabric_register(f, 0, 4, 4, 8);
    dc_fabric_register(f, 1, 4, 4, 8);
    double ideal = ring4(f, 0); /* not started: nodes 0-3, packed */
    CU_ASSERT(REL(ideal, E0, 1e-12));
    uint32_t packed[4] = {0, 1, 2, 3}, spread[4] = {2, 3, 4, 5};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, packed, 4, 1), DC_OK);
    CU_ASSERT(REL(ring4(f, 0), E0, 1e-12));
    dc_fabric_stop(f, 0);
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, packed, 4, 2), DC_OK); /* the same nodes, a new gen */
    CU_ASSERT(REL(ring4(f, 0), E0, 1e-12));
    dc_fabric_stop(f, 0);
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, spread, 4, 3), DC_OK); /* other nodes: placed anew */
    CU_ASSERT(REL(ring4(f, 0), 0.5 * E0, 1e-12));
    CU_ASSERT(as_fresh(f, 0, t, spread, 4));
    /* swaps while computing: slot 3's node 5 -> 9 (pods 0, 1, 2), then slot 0's 2 -> 8 */
    uint32_t sw1[4] = {2, 3, 4, 9}, sw2[4] = {8, 3, 4, 9};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, sw1, 4, 4), DC_OK);
    CU_ASSERT(as_fresh(f, 0, t, sw1, 4));
    CU_ASSERT(REL(ring4(f, 0), 0.5 * E0, 1e-12)); /* pods 0 and 2 hold one node: 1 x 8 x E0 / 8 over 2 edges */
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, sw2, 4, 5), DC_OK);
    CU_ASSERT(as_fresh(f, 0, t, sw2, 4));
    /* a placement anew (a stop, other nodes), then a swap from it */
    dc_fabric_stop(f, 0);
    uint32_t p2[4] = {4, 5, 6, 7}, p2s[4] = {4, 5, 6, 0};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, p2, 4, 6), DC_OK);
    CU_ASSERT(REL(ring4(f, 0), E0, 1e-12));
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, p2s, 4, 7), DC_OK);
    CU_ASSERT(as_fresh(f, 0, t, p2s, 4));
    CU_ASSERT(REL(ring4(f, 0), 0.5 * E0, 1e-12));
    /* done: job 1 placed next takes its arrays */
    dc_fabric_retire(f, 0);
    CU_ASSERT(!dc_fabric_computing(f, 0));
    CU_ASSERT(dc_fabric_registered(f, 0));
    CU_ASSERT_EQUAL(ring4(f, 0), ideal);
    CU_ASSERT_EQUAL(dc_fabric_start(f, 1, spread, 4, 1), DC_OK);
    CU_ASSERT(as_fresh(f, 1, t, spread, 4));
    CU_ASSERT(REL(ring4(f, 1), 0.5 * E0, 1e-12));
    CU_ASSERT_EQUAL(dc_fabric_start(f, 1, sw1, 4, 2), DC_OK);
    CU_ASSERT(as_fresh(f, 1, t, sw1, 4));
    CU_ASSERT_EQUAL(dc_fabric_start(f, 1, sw2, 4, 3), DC_OK);
    CU_ASSERT(as_fresh(f, 1, t, sw2, 4));
    CU_ASSERT_EQUAL(ring4(f, 0), ideal);
    /* the done job starts again (placed anew) beside job 1, sharing pods 0
     * and 1 with it: as on a fresh fabric */
    uint32_t back[4] = {0, 1, 2, 5};
    CU_ASSERT_EQUAL(dc_fabric_start(f, 0, back, 4, 8), DC_OK);
    dc_fabric *g = dc_fabric_create(t, 12, log_changed, log_cut, &lg);
    dc_fabric_register(g, 0, 4, 4, 8);
    dc_fabric_register(g, 1, 4, 4, 8);
    CU_ASSERT_EQUAL(dc_fabric_start(g, 1, sw2, 4, 1), DC_OK);
    CU_ASSERT_EQUAL(dc_fabric_start(g, 0, back, 4, 1), DC_OK);
    for (int32_t j = 0; j < 2; j++) {
        CU_ASSERT_EQUAL(ring4(f, j), ring4(g, j));
        CU_ASSERT_EQUAL(dc_fabric_rate(f, j), dc_fabric_rate(g, j));
    }
    CU_ASSERT(dc_fabric_rate(f, 0) < dc_fabric_solo_rate(f, 0)); /* they do share */
    dc_fabric_destroy(g);
    dc_fabric_destroy(f);
    dc_topology_destroy(t);
}

/* ---------- two jobs sharing a spine, end to end ---------- */

/* A job's mean step less its compute part: its exposed communication. */
static double exposed_s(dc_sim *sim, int32_t job)
{
    return dc_simrun_job_cell(sim, job, "mean_step_s") - dc_steptime_compute_s(sim, job);
}

#define SPINE_CFG(pools, jobs)                                                                                     \
    "horizon_days = 60.0;\n"                                                                                       \
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 2; };\n"                                          \
    "network = { tiers = 3; nodes_per_leaf = 2; leaves_per_pod = 2; nics_per_node = 8; nic_gbps = 400.0;\n"       \
    "  latency_us = 0.0; hop_latency_us = 0.0; scaleup_latency_us = 0.0; collective = \"ring\"; };\n"             \
    "job_classes = ( { name = \"dp4\"; params = 2e9; tokens = 2e10; mfu = 0.5;\n"                                  \
    "  parallelism = { tensor = 8; global_batch_tokens = 1048576.0; seq_len = 4096; dp_overlap = 0.0;\n"           \
    "                  tp_overlap = 1.0; }; } );\n"                                                              \
    "scheduler = { pools = ( " pools " ); };\n"                                                                    \
    "jobs = ( " jobs " );\n"

#define JOB_A "{ name = \"a\"; class = \"dp4\"; nodes = 4; pool = \"a\"; restart_s = 0.0; }"
#define JOB_B "{ name = \"b\"; class = \"dp4\"; nodes = 4; pool = \"b\"; restart_s = 0.0; }"
#define SPREAD "{ name = \"edge\"; nodes = 2; }, { name = \"a\"; nodes = 4; }, { name = \"b\"; nodes = 4; }, { name = \"rest\"; }"
#define PACKED "{ name = \"a\"; nodes = 4; }, { name = \"b\"; nodes = 4; }, { name = \"rest\"; }"

/* Two identical jobs, each data parallel over 4 nodes (one ring member per
 * node), alone and together: on a 1:1 spine each keeps its solo step time
 * exactly; spread over pods (pools on nodes 2-5 and 6-9, sharing pod 1) on
 * a 1:8 spine their exposed communication doubles, the closed form of two
 * equal max-min shares of pod 1's uplinks (latencies 0: all bandwidth);
 * packed in a pod each, unchanged. */
static void test_two_jobs_end_to_end(void)
{
    const char spread_solo[] = SPINE_CFG(SPREAD, JOB_A), spread_both[] = SPINE_CFG(SPREAD, JOB_A ", " JOB_B);
    const char packed_solo[] = SPINE_CFG(PACKED, JOB_A), packed_both[] = SPINE_CFG(PACKED, JOB_A ", " JOB_B);
    const char *k1[] = {"network.pod_oversubscription=1.0"}, *k8[] = {"network.pod_oversubscription=8.0"};
    for (int over = 0; over < 2; over++) {
        const char *const *set = over ? k8 : k1;
        dc_sim *ss = dc_simrun_text(spread_solo, set, 1, -1), *sb = dc_simrun_text(spread_both, set, 1, -1);
        dc_sim *ps = dc_simrun_text(packed_solo, set, 1, -1), *pb = dc_simrun_text(packed_both, set, 1, -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ss);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pb);
        double solo = exposed_s(ss, 0), a = exposed_s(sb, 0), b = exposed_s(sb, 1);
        CU_ASSERT(solo > 0.0);
        if (over == 0) {
            CU_ASSERT_EQUAL(a, solo);
            CU_ASSERT_EQUAL(b, solo);
        } else {
            CU_ASSERT(REL(a, 2.0 * solo, 1e-9));
            CU_ASSERT(REL(b, 2.0 * solo, 1e-9));
        }
        CU_ASSERT_EQUAL(exposed_s(pb, 0), exposed_s(ps, 0));
        CU_ASSERT_EQUAL(exposed_s(pb, 1), exposed_s(ps, 0));
        /* alone, what placement buys: spread over two pods of a 1:8 spine a
         * ring gets 32 E0 / 8 over 8 edges = E0 / 2, packed a NIC, E0 */
        if (over == 1) {
            CU_ASSERT(REL(solo, 2.0 * exposed_s(ps, 0), 1e-9));
        } else {
            CU_ASSERT_EQUAL(solo, exposed_s(ps, 0));
        }
        dc_sim_destroy(ss);
        dc_sim_destroy(sb);
        dc_sim_destroy(ps);
        dc_sim_destroy(pb);
    }
}

/* The same through the scheduler's named placement policies, one pool of
 * the 12 nodes (3 pods of 2 leaves of 2): pack gives each job a pod of its
 * own (the smallest domain that holds 4 nodes); spread deals each job's
 * nodes round-robin over the 3 pods (A on 0, 4, 8, 2; B on 1, 5, 9, 3),
 * so both cross every pod's uplinks alike: on a 1:8 spine together each
 * gets exactly half of what it gets spread alone (two equal max-min
 * shares), packed each keeps its solo time, and on 1:1 (latencies 0)
 * every placement gives the packed solo time. */
#define POLICY_CFG(policy, jobs)                                                                                   \
    "horizon_days = 60.0;\n"                                                                                       \
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 2; };\n"                                          \
    "network = { tiers = 3; nodes_per_leaf = 2; leaves_per_pod = 2; nics_per_node = 8; nic_gbps = 400.0;\n"       \
    "  latency_us = 0.0; hop_latency_us = 0.0; scaleup_latency_us = 0.0; collective = \"ring\"; };\n"             \
    "job_classes = ( { name = \"dp4\"; params = 2e9; tokens = 2e10; mfu = 0.5;\n"                                  \
    "  parallelism = { tensor = 8; global_batch_tokens = 1048576.0; seq_len = 4096; dp_overlap = 0.0;\n"           \
    "                  tp_overlap = 1.0; }; } );\n"                                                              \
    "scheduler = { placement = \"" policy "\"; };\n"                                                               \
    "trace = { events = true; };\n"                                                                               \
    "jobs = ( " jobs " );\n"
#define JOB_A1 "{ name = \"a\"; class = \"dp4\"; nodes = 4; restart_s = 0.0; }"
#define JOB_B1 "{ name = \"b\"; class = \"dp4\"; nodes = 4; restart_s = 0.0; }"

static void test_two_jobs_by_policy(void)
{
    const char spread_solo[] = POLICY_CFG("spread", JOB_A1), spread_both[] = POLICY_CFG("spread", JOB_A1 ", " JOB_B1);
    const char packed_solo[] = POLICY_CFG("pack", JOB_A1), packed_both[] = POLICY_CFG("pack", JOB_A1 ", " JOB_B1);
    const char *k1[] = {"network.pod_oversubscription=1.0"}, *k8[] = {"network.pod_oversubscription=8.0"};
    for (int over = 0; over < 2; over++) {
        const char *const *set = over ? k8 : k1;
        dc_sim *ss = dc_simrun_text(spread_solo, set, 1, -1), *sb = dc_simrun_text(spread_both, set, 1, -1);
        dc_sim *ps = dc_simrun_text(packed_solo, set, 1, -1), *pb = dc_simrun_text(packed_both, set, 1, -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ss);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ps);
        CU_ASSERT_PTR_NOT_NULL_FATAL(pb);
        /* where the policies put them: /jobs pods */
        CU_ASSERT_EQUAL(dc_simrun_job_cell(sb, 0, "pods"), 3);
        CU_ASSERT_EQUAL(dc_simrun_job_cell(sb, 1, "pods"), 3);
        CU_ASSERT_EQUAL(dc_simrun_job_cell(pb, 0, "pods"), 1);
        CU_ASSERT_EQUAL(dc_simrun_job_cell(pb, 1, "pods"), 1);
        double solo = exposed_s(ss, 0), a = exposed_s(sb, 0), b = exposed_s(sb, 1), packed = exposed_s(ps, 0);
        printf("\n  1:%d: spread alone %.6g s, together %.6g and %.6g s; packed alone %.6g, together %.6g and %.6g s",
               over ? 8 : 1, solo, a, b, packed, exposed_s(pb, 0), exposed_s(pb, 1));
        CU_ASSERT(solo > 0.0);
        if (over == 0) {
            CU_ASSERT_EQUAL(a, solo);
            CU_ASSERT_EQUAL(b, solo);
            CU_ASSERT_EQUAL(solo, packed);
        } else {
            CU_ASSERT(REL(a, 2.0 * solo, 1e-9));
            CU_ASSERT(REL(b, 2.0 * solo, 1e-9));
            CU_ASSERT(solo > packed);
        }
        CU_ASSERT_EQUAL(exposed_s(pb, 0), packed);
        CU_ASSERT_EQUAL(exposed_s(pb, 1), packed);
        dc_sim_destroy(ss);
        dc_sim_destroy(sb);
        dc_sim_destroy(ps);
        dc_sim_destroy(pb);
    }
    printf("\n");
}

/* ---------- the storage shared by every job ---------- */

/* k jobs of 4 nodes writing 400 GB checkpoints every 1000 s of computing
 * to a file system of 20 GB/s (no latency) over 80 Gbit/s = 10 GB/s
 * storage links (40 GB/s a job: the tier limits): alone a write takes
 * 20 s; k at the same instant share the tier max-min, 20/k GB/s each, so
 * every write takes 20 k s (they end together, compute together, and write
 * together again).  Started 360 s apart, they never meet: 20 s each. */
#define CKPT_CFG(jobs)                                                                                              \
    "horizon_days = 0.1; stop_when_done = false;\n"                                                                \
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4; };\n"                                          \
    "defaults = { checkpoint_tier = \"pfs\"; checkpoint_gb = 400.0; };\n"                                         \
    "storage = { node_link_gbps = 80.0;\n"                                                                         \
    "  tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 50.0;\n"                  \
    "              write_gb_per_s = 20.0; },\n"                                                                    \
    "            { name = \"nvme\"; kind = \"nvme\"; capacity_tb = 4.0; read_gb_per_s = 8.0;\n"                    \
    "              write_gb_per_s = 2.5; } ); };\n"                                                                \
    "jobs = ( " jobs " );\n"                                                                                        \
    "trace = { events = false; };\n"

#define CKPT_JOB(name, start)                                                                                       \
    "{ name = \"" name "\"; nodes = 4; work_gpu_h = 1e6; restart_s = 0.0; start_h = " start ";\n"                \
    "  checkpoint = true; checkpoint_interval_s = 1000.0; }"

static void check_writes(const char *text, const char *const *sets, size_t n_sets, int k, double expect_s)
{
    dc_sim *sim = dc_simrun_text(text, sets, n_sets, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    for (int32_t j = 0; j < k; j++) {
        double w = dc_simrun_job_cell(sim, j, "checkpoint_write_s");
        CU_ASSERT(dc_simrun_job_cell(sim, j, "checkpoints") >= 5);
        if (!REL(w, expect_s, 1e-9)) {
            fprintf(stderr, "\n  job %d of %d: writes take %.12g s, expected %.12g", j, k, w, expect_s);
            CU_FAIL("checkpoint write time");
        }
    }
    dc_sim_destroy(sim);
}

static void test_storage_checkpoint_burst(void)
{
    static const char one[] = CKPT_CFG(CKPT_JOB("a", "0.0"));
    static const char two[] = CKPT_CFG(CKPT_JOB("a", "0.0") ", " CKPT_JOB("b", "0.0"));
    static const char three[] = CKPT_CFG(CKPT_JOB("a", "0.0") ", " CKPT_JOB("b", "0.0") ", " CKPT_JOB("c", "0.0"));
    static const char apart[] =
        CKPT_CFG(CKPT_JOB("a", "0.0") ", " CKPT_JOB("b", "0.1") ", " CKPT_JOB("c", "0.2"));
    const double solo = 400e9 / 20e9;
    check_writes(one, NULL, 0, 1, solo);
    check_writes(two, NULL, 0, 2, 2.0 * solo);
    check_writes(three, NULL, 0, 3, 3.0 * solo);
    check_writes(apart, NULL, 0, 3, solo);
    /* Where each job's own links limit it (a tier of 200 GB/s, 40 GB/s of
     * links a job: 10 s), together they do not slow each other. */
    const char *wide[] = {"storage.tiers.[0].write_gb_per_s=200.0"};
    check_writes(three, wide, 1, 3, 400e9 / 40e9);
    /* On node tiers each job writes to its own nodes' devices: 4 x 2.5 GB/s
     * each, 40 s, alone or together. */
    const char *nvme[] = {"defaults.checkpoint_tier=\"nvme\""};
    check_writes(one, nvme, 1, 1, 400e9 / 10e9);
    check_writes(three, nvme, 1, 3, 400e9 / 10e9);
}

/* Jobs of 4 nodes (dp4 below) reading one dataset from a file system of
 * 10 GB/s: with bytes per token for a demand of 0.75 of the tier each
 * (B = 0.75 x 10 GB/s x S0 a step, S0 the step without data), one job reads
 * in its step; two share the tier, 5 GB/s each, and wait for their data:
 * a step takes B / 5 GB/s = 1.5 S0 (prefetch: the read hides the rest);
 * a third job that opts out (dataset = false) changes nothing. */
#define DATA_CFG(jobs)                                                                                              \
    "horizon_days = 2.0; stop_when_done = false;\n"                                                                \
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 4; };\n"                                          \
    "network = { tiers = 2; nodes_per_leaf = 12; nics_per_node = 8; nic_gbps = 400.0; collective = \"ring\"; };\n" \
    "job_classes = ( { name = \"dp4\"; params = 2e9; tokens = 1e13; mfu = 0.5;\n"                                  \
    "  parallelism = { tensor = 8; global_batch_tokens = 1048576.0; seq_len = 4096; }; } );\n"                     \
    "storage = { node_link_gbps = 400.0;\n"                                                                        \
    "  tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 10.0;\n"                  \
    "              write_gb_per_s = 10.0; } );\n"                                                                  \
    "  dataset = { tier = \"pfs\"; size_tb = 100.0; bytes_per_token = 1e-6; }; };\n"                               \
    "jobs = ( " jobs " );\n"                                                                                        \
    "trace = { events = false; };\n"

#define DATA_JOB(name, extra) "{ name = \"" name "\"; class = \"dp4\"; nodes = 4; restart_s = 0.0; " extra " }"

static void test_storage_dataset_shared(void)
{
    static const char one[] = DATA_CFG(DATA_JOB("a", ""));
    static const char two[] = DATA_CFG(DATA_JOB("a", "") ", " DATA_JOB("b", ""));
    static const char three[] = DATA_CFG(DATA_JOB("a", "") ", " DATA_JOB("b", "") ", " DATA_JOB("c", "dataset = false;"));
    dc_sim *sim = dc_simrun_text(one, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double s0 = dc_simrun_job_cell(sim, 0, "mean_step_s");
    CU_ASSERT(s0 > 0.0 && dc_simrun_job_cell(sim, 0, "gpu_hours.data_stall") < 1e-6);
    dc_sim_destroy(sim);
    char set[96];
    snprintf(set, sizeof set, "storage.dataset.bytes_per_token=%.17g", 0.75 * 10e9 * s0 / 1048576.0);
    const char *sets[] = {set};
    sim = dc_simrun_text(one, sets, 1, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(REL(dc_simrun_job_cell(sim, 0, "mean_step_s"), s0, 1e-9));
    dc_sim_destroy(sim);
    for (int n = 2; n <= 3; n++) {
        sim = dc_simrun_text(n == 2 ? two : three, sets, 1, -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        for (int32_t j = 0; j < 2; j++) {
            double got = dc_simrun_job_cell(sim, j, "mean_step_s");
            if (!REL(got, 1.5 * s0, 1e-9)) {
                fprintf(stderr, "\n  %d jobs, job %d: step %.12g s, expected %.12g", n, j, got, 1.5 * s0);
                CU_FAIL("shared dataset step");
            }
        }
        if (n == 3)
            CU_ASSERT(REL(dc_simrun_job_cell(sim, 2, "mean_step_s"), s0, 1e-9));
        dc_sim_destroy(sim);
    }
}

/* ---------- incremental fluid transfers against a fresh solve ---------- */

/* A random history on sim/flows.h (streams and transfers starting,
 * stopping, finishing, caps and capacities changing; some resources far
 * from full, some tight) checked after every step against a max-min solve
 * of every live flow from scratch (1e-9), and every finite transfer ending
 * when its amount is moved (its rate integrated by the test). */
#define PF_RES 6
#define PF_MAX 40

typedef struct pf_flow {
    bool live, stream;
    dc_flow_id id;
    int res[3];
    size_t n_res;
    double weight, cap, amount, moved, since_s, rate;
} pf_flow;

typedef struct pf_state {
    dc_flows *fl;
    gsl_rng *rng;
    pf_flow f[PF_MAX];
    int res[PF_RES];
    double capacity[PF_RES];
    int steps, bad, ended, wrong;
    int listed, unlisted, extra; /* dc_flows_changed against the rates the test saw move */
    double now;
} pf_state;

/* The test's own integration of each flow's progress, at every new
 * allocation (its rate since the last one, then the new rate). */
static void pf_rerate(dc_sim *sim, void *ctx)
{
    pf_state *ps = ctx;
    double now = dc_sim_now(sim);
    const dc_flow_id *ids;
    size_t n_ids = dc_flows_changed(ps->fl, &ids);
    for (int i = 0; i < PF_MAX; i++)
        if (ps->f[i].live) {
            /* listed exactly when its rate moved (a flow being started is not
             * live here yet; one that completed is gone before its pf_done) */
            bool gone = !ps->f[i].stream && !(dc_flows_remaining(ps->fl, ps->f[i].id) > 0.0);
            bool listed = false, moved = !gone && dc_flows_rate(ps->fl, ps->f[i].id) != ps->f[i].rate;
            for (size_t k = 0; k < n_ids; k++)
                listed = listed || ids[k] == ps->f[i].id;
            ps->listed += listed;
            ps->unlisted += moved && !listed;
            ps->extra += listed && !moved;
            ps->f[i].moved += ps->f[i].rate * (now - ps->f[i].since_s);
            ps->f[i].since_s = now;
            ps->f[i].rate = dc_flows_rate(ps->fl, ps->f[i].id);
        }
}

static void pf_done(dc_sim *sim, void *ctx, dc_flow_id id)
{
    pf_state *ps = ctx;
    for (int i = 0; i < PF_MAX; i++)
        if (ps->f[i].live && ps->f[i].id == id) {
            /* (a transfer that shared nothing ends without a new allocation) */
            ps->f[i].moved += ps->f[i].rate * (dc_sim_now(sim) - ps->f[i].since_s);
            ps->f[i].live = false;
            ps->ended++;
            if (!(fabs(ps->f[i].moved - ps->f[i].amount) <= 1e-6 * ps->f[i].amount) && ps->wrong++ < 5)
                fprintf(stderr, "\n  flow %d ended having moved %.9g of %.9g", i, ps->f[i].moved, ps->f[i].amount);
        }
}

static void pf_check(pf_state *ps)
{
    dc_maxmin_flow mf[PF_MAX];
    int idx[PF_MAX], n = 0;
    for (int i = 0; i < PF_MAX; i++)
        if (ps->f[i].live) {
            mf[n] = (dc_maxmin_flow){ps->f[i].res, ps->f[i].n_res, ps->f[i].weight, ps->f[i].cap, NULL};
            idx[n++] = i;
        }
    double rate[PF_MAX];
    if (dc_maxmin_solve(PF_RES, ps->capacity, (size_t)n, mf, rate) != DC_OK) {
        ps->bad++;
        return;
    }
    for (int k = 0; k < n; k++) {
        const pf_flow *f = &ps->f[idx[k]];
        if (!f->stream) {
            double left = dc_flows_remaining(ps->fl, f->id), expect = f->amount - f->moved - f->rate * (ps->now - f->since_s);
            if (!(fabs(left - expect) <= 1e-6 * f->amount) && ps->bad++ < 5)
                fprintf(stderr, "\n  step %d flow %d: %.9g left, the test says %.9g", ps->steps, idx[k], left, expect);
        }
        double got = dc_flows_rate(ps->fl, ps->f[idx[k]].id);
        if (!(fabs(got - rate[k]) <= 1e-9 * fmax(1.0, rate[k]))) {
            if (ps->bad++ < 5)
                fprintf(stderr, "\n  step %d flow %d: rate %.12g, fresh solve %.12g", ps->steps, idx[k], got, rate[k]);
        }
    }
}

static void pf_step(dc_sim *sim, void *ctx, uint64_t arg)
{
    pf_state *ps = ctx;
    (void)arg;
    double now = dc_sim_now(sim);
    ps->now = now;
    pf_check(ps); /* what the completions since the last step left */
    int op = (int)gsl_rng_uniform_int(ps->rng, 10);
    int i = (int)gsl_rng_uniform_int(ps->rng, PF_MAX);
    pf_flow *f = &ps->f[i];
    if (op < 5 && !f->live) {
        *f = (pf_flow){.stream = gsl_rng_uniform(ps->rng) < 0.5};
        f->n_res = gsl_rng_uniform_int(ps->rng, 4);
        for (size_t k = 0; k < f->n_res; k++) {
            int r;
            bool dup;
            do {
                r = (int)gsl_rng_uniform_int(ps->rng, PF_RES);
                dup = false;
                for (size_t q = 0; q < k; q++)
                    dup = dup || f->res[q] == r;
            } while (dup);
            f->res[k] = r;
        }
        f->weight = 1.0 + (double)gsl_rng_uniform_int(ps->rng, 4);
        f->cap = gsl_rng_uniform(ps->rng) < 0.3 || f->n_res == 0 ? 0.5 + 5.0 * gsl_rng_uniform(ps->rng) : INFINITY;
        f->amount = f->stream ? INFINITY : 1.0 + 50.0 * gsl_rng_uniform(ps->rng);
        f->id = dc_flows_start(ps->fl, f->res, f->n_res, f->weight, f->cap, f->amount, f->stream ? NULL : pf_done, ps);
        f->live = true;
        f->since_s = now;
        f->rate = dc_flows_rate(ps->fl, f->id);
    } else if (op < 7 && f->live) {
        f->live = false;
        dc_flows_stop(ps->fl, f->id);
    } else if (op < 9 && f->live) {
        f->cap = gsl_rng_uniform(ps->rng) < 0.2 && f->n_res > 0 ? INFINITY : 0.5 + 5.0 * gsl_rng_uniform(ps->rng);
        dc_flows_set_cap(ps->fl, f->id, f->cap);
    } else {
        int r = (int)gsl_rng_uniform_int(ps->rng, PF_RES);
        /* resources 0-2 roomy (rarely tight), 3-5 tight */
        ps->capacity[r] = (r < 3 ? 60.0 : 3.0) * (0.5 + gsl_rng_uniform(ps->rng));
        dc_flows_set_capacity(ps->fl, ps->res[r], ps->capacity[r]);
    }
    pf_check(ps);
    if (++ps->steps < 3000)
        dc_sim_after(sim, 0.05 + gsl_rng_uniform(ps->rng), pf_step, ps, 0);
}

static void test_flows_incremental(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 1e9, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    pf_state ps = {.fl = dc_flows_create(sim), .rng = gsl_rng_alloc(gsl_rng_mt19937)};
    CU_ASSERT_PTR_NOT_NULL_FATAL(ps.fl);
    CU_ASSERT_EQUAL(dc_flows_on_rerate(ps.fl, pf_rerate, &ps), DC_OK);
    gsl_rng_set(ps.rng, 14);
    for (int r = 0; r < PF_RES; r++) {
        ps.capacity[r] = r < 3 ? 60.0 : 3.0;
        ps.res[r] = dc_flows_add_resource(ps.fl, ps.capacity[r]);
        CU_ASSERT_EQUAL(ps.res[r], r);
    }
    dc_sim_at(sim, 0.0, pf_step, &ps, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(ps.steps, 3000);
    CU_ASSERT_EQUAL(ps.bad, 0);
    CU_ASSERT(ps.ended > 100);
    /* every transfer that ended had moved its amount, by the test's count */
    CU_ASSERT_EQUAL(ps.wrong, 0);
    /* the re-rated flows a listener is given are exactly those whose rate moved */
    CU_ASSERT_EQUAL(ps.unlisted, 0);
    CU_ASSERT_EQUAL(ps.extra, 0);
    CU_ASSERT(ps.listed > 1000);
    printf("\n  %d steps, %d transfers completed, %d re-rated flows listed", ps.steps, ps.ended, ps.listed);
    dc_flows_destroy(ps.fl);
    gsl_rng_free(ps.rng);
    dc_sim_destroy(sim);
}

/* ---------- max-min against a brute-force reference ---------- */

/* Water-filling by small exact steps: raise every unfrozen flow's rate per
 * unit weight to the next level at which a resource fills or a flow caps,
 * recomputing everything from scratch each round (O(F^2 R)). */
static void maxmin_reference(size_t nr, const double *cap, size_t nf, const dc_maxmin_flow *fl, double *rate)
{
    bool frozen[16] = {false};
    for (size_t f = 0; f < nf; f++)
        rate[f] = 0.0;
    for (size_t round = 0; round < nf; round++) {
        double best = INFINITY;
        for (size_t r = 0; r < nr; r++) {
            double used = 0.0, w = 0.0;
            for (size_t f = 0; f < nf; f++)
                for (size_t k = 0; k < fl[f].n_res; k++)
                    if ((size_t)fl[f].res[k] == r) {
                        double a = fl[f].coef ? fl[f].coef[k] : 1.0;
                        used += a * rate[f];
                        if (!frozen[f])
                            w += a * fl[f].weight;
                    }
            if (w > 0.0)
                best = fmin(best, (cap[r] - used) / w);
        }
        for (size_t f = 0; f < nf; f++)
            if (!frozen[f])
                best = fmin(best, (fl[f].cap - rate[f]) / fl[f].weight);
        if (!isfinite(best)) {
            for (size_t f = 0; f < nf; f++)
                if (!frozen[f])
                    rate[f] = INFINITY;
            return;
        }
        if (best < 0.0)
            best = 0.0;
        for (size_t f = 0; f < nf; f++)
            if (!frozen[f])
                rate[f] += best * fl[f].weight;
        /* freeze the flows at their cap or on a full resource */
        for (size_t f = 0; f < nf; f++) {
            if (frozen[f])
                continue;
            bool stop = rate[f] >= fl[f].cap * (1.0 - 1e-12);
            for (size_t k = 0; k < fl[f].n_res && !stop; k++) {
                size_t r = (size_t)fl[f].res[k];
                double used = 0.0;
                for (size_t g = 0; g < nf; g++)
                    for (size_t q = 0; q < fl[g].n_res; q++)
                        if ((size_t)fl[g].res[q] == r)
                            used += (fl[g].coef ? fl[g].coef[q] : 1.0) * rate[g];
                stop = used >= cap[r] * (1.0 - 1e-12);
            }
            frozen[f] = stop;
        }
    }
}

static void test_maxmin_property(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 14);
    int cases = 0, agree = 0, certified = 0;
    for (int trial = 0; trial < 2000; trial++) {
        size_t nr = 1 + gsl_rng_uniform_int(rng, 6), nf = 1 + gsl_rng_uniform_int(rng, 8);
        double cap[8], rate[16], ref[16], coef[16][6];
        int res[16][6];
        dc_maxmin_flow fl[16];
        for (size_t r = 0; r < nr; r++)
            cap[r] = 1.0 + 99.0 * gsl_rng_uniform(rng);
        bool with_coef = trial % 2 == 1;
        for (size_t f = 0; f < nf; f++) {
            size_t m = 0;
            for (size_t r = 0; r < nr; r++)
                if (gsl_rng_uniform(rng) < 0.5) {
                    res[f][m] = (int)r;
                    coef[f][m++] = 1.0 + (double)gsl_rng_uniform_int(rng, 8);
                }
            double c = gsl_rng_uniform(rng) < 0.3 ? 1.0 + 50.0 * gsl_rng_uniform(rng) : INFINITY;
            if (m == 0 && !isfinite(c))
                c = 10.0; /* a flow on nothing needs a cap to be finite */
            fl[f] = (dc_maxmin_flow){res[f], m, 1.0 + (double)gsl_rng_uniform_int(rng, 3), c,
                                     with_coef ? coef[f] : NULL};
        }
        CU_ASSERT_EQUAL_FATAL(dc_maxmin_solve(nr, cap, nf, fl, rate), DC_OK);
        maxmin_reference(nr, cap, nf, fl, ref);
        cases++;
        bool same = true;
        for (size_t f = 0; f < nf; f++)
            same = same && fabs(rate[f] - ref[f]) <= 1e-9 * fmax(1.0, ref[f]);
        agree += same;
        /* the certificate: feasible, and every flow at its cap or with a
         * full resource on which its rate per weight is the largest */
        bool ok = true;
        double load[8] = {0};
        for (size_t f = 0; f < nf; f++)
            for (size_t k = 0; k < fl[f].n_res; k++)
                load[fl[f].res[k]] += (with_coef ? coef[f][k] : 1.0) * rate[f];
        for (size_t r = 0; r < nr; r++)
            ok = ok && load[r] <= cap[r] * (1.0 + 1e-9);
        for (size_t f = 0; f < nf && ok; f++) {
            bool bottleneck = rate[f] >= fl[f].cap * (1.0 - 1e-9);
            for (size_t k = 0; k < fl[f].n_res && !bottleneck; k++) {
                size_t r = (size_t)fl[f].res[k];
                if (load[r] < cap[r] * (1.0 - 1e-9))
                    continue;
                bool largest = true;
                for (size_t g = 0; g < nf && largest; g++)
                    for (size_t q = 0; q < fl[g].n_res; q++)
                        if ((size_t)fl[g].res[q] == r && rate[g] / fl[g].weight > rate[f] / fl[f].weight * (1 + 1e-9))
                            largest = false;
                bottleneck = largest;
            }
            ok = bottleneck;
        }
        certified += ok;
    }
    CU_ASSERT_EQUAL(agree, cases);
    CU_ASSERT_EQUAL(certified, cases);
    gsl_rng_free(rng);
}

/* ---------- the /jobs table ---------- */

static void test_rowtable(void)
{
    dc_rowtable_set *set = dc_rowtable_set_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    dc_rowtable *t = dc_rowtable_set_get(set, "jobs", "doc");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_PTR_EQUAL(dc_rowtable_set_get(set, "jobs", "other"), t);
    int a = dc_rowtable_add_column(t, "a", DC_ROWCOL_I4, 0, "", "an int");
    int b = dc_rowtable_add_column(t, "b", DC_ROWCOL_F8, 0, "h", "a float");
    int c = dc_rowtable_add_column(t, "c", DC_ROWCOL_STR, 4, "", "a string");
    CU_ASSERT(a == 0 && b == 1 && c == 2);
    CU_ASSERT_EQUAL(dc_rowtable_add_column(t, "b", DC_ROWCOL_F8, 0, "", ""), -1); /* taken */
    CU_ASSERT_EQUAL(dc_rowtable_add_column(t, "big", DC_ROWCOL_STR, DC_ROWTABLE_MAX_ROW, "", ""), -1);
    CU_ASSERT_EQUAL(dc_rowtable_column_offset(t, 1) % 8, 0); /* aligned */
    dc_rowtable_set_i4(t, a, 7);
    dc_rowtable_set_str(t, c, "abcdef"); /* truncated to 4 */
    dc_rowtable_commit(t);
    dc_rowtable_set_f8(t, b, 2.5);
    dc_rowtable_set_str(t, c, "xy");
    dc_rowtable_commit(t);
    CU_ASSERT_EQUAL(dc_rowtable_add_column(t, "late", DC_ROWCOL_F8, 0, "", ""), -1); /* rows exist */
    CU_ASSERT_EQUAL(dc_rowtable_rows(t), 2);
    const unsigned char *d = dc_rowtable_data(t);
    size_t rs = dc_rowtable_row_size(t);
    int32_t i0;
    double f0, f1;
    memcpy(&i0, d + dc_rowtable_column_offset(t, 0), 4);
    memcpy(&f0, d + dc_rowtable_column_offset(t, 1), 8);
    memcpy(&f1, d + rs + dc_rowtable_column_offset(t, 1), 8);
    CU_ASSERT(i0 == 7 && isnan(f0) && f1 == 2.5); /* an unset float is NaN */
    CU_ASSERT(memcmp(d + dc_rowtable_column_offset(t, 2), "abcd", 4) == 0);
    CU_ASSERT(memcmp(d + rs + dc_rowtable_column_offset(t, 2), "xy\0\0", 4) == 0);
    CU_ASSERT(!dc_rowtable_set_failed(set));
    dc_rowtable_set_destroy(set);
}

/* The column of name in a rowtable, and a float or integer cell of it. */
/* A string cell ("" when no such column). */
static const char *text_cell(const dc_rowtable *t, size_t row, const char *name)
{
    int c = dc_rowtable_column_index(t, name);
    if (c < 0 || dc_rowtable_column_type(t, (size_t)c) != DC_ROWCOL_STR)
        return "";
    return (const char *)dc_rowtable_data(t) + row * dc_rowtable_row_size(t) + dc_rowtable_column_offset(t, (size_t)c);
}

/* Each row's lines sum to its total, each line over the rows to the run's
 * line (1e-9), and with pools each pool's lines over the pools too. */
static bool check_breakdowns(dc_sim *sim, const char *what)
{
    dc_rowtable *t = dc_simrun_jobs_table(sim);
    dc_summary *s = dc_sim_summary(sim);
    double jobs_gpu_h = 0;
    bool ok = true;
    if (!t) { /* no job, no table, no job's GPU-hours */
        double useful = 0;
        dc_summary_get(s, "gpu_hours.useful", &useful);
        return useful == 0.0;
    }
    size_t n = dc_rowtable_rows(t);
    for (size_t r = 0; r < n; r++) {
        double sum = 0, total = dc_simrun_cell(t, r, "gpu_hours.total");
        for (size_t c = 0; c < dc_rowtable_columns(t); c++) {
            const char *name = dc_rowtable_column_name(t, c);
            if (strncmp(name, "gpu_hours.", 10) == 0 && strcmp(name, "gpu_hours.total") != 0)
                sum += dc_simrun_cell(t, r, name);
        }
        if (!(fabs(sum - total) <= 1e-9 * fmax(1.0, total))) {
            fprintf(stderr, "\n  %s: job row %zu: lines sum to %.12g, total %.12g", what, r, sum, total);
            ok = false;
        }
        jobs_gpu_h += total;
    }
    for (size_t c = 0; c < dc_rowtable_columns(t); c++) {
        const char *name = dc_rowtable_column_name(t, c);
        if (strncmp(name, "gpu_hours.", 10) != 0 || strcmp(name, "gpu_hours.total") == 0)
            continue;
        double sum = 0, run = 0;
        for (size_t r = 0; r < n; r++)
            sum += dc_simrun_cell(t, r, name);
        bool has = dc_summary_get(s, name, &run);
        /* a line the run does not list is nobody's */
        if (!has)
            run = 0.0;
        if (!(fabs(sum - run) <= 1e-9 * fmax(1.0, fabs(run)))) {
            fprintf(stderr, "\n  %s: %s: jobs sum to %.12g, the run says %.12g", what, name, sum, run);
            ok = false;
        }
        /* pools: each pool's jobs to the pool's line, the pools to the run's */
        dc_scheduler *sched = dc_scheduler_of(sim);
        int np = sched ? dc_sched_pool_count(sched) : 0;
        for (int p = 0; p < np && np >= 2; p++) {
            char key[128];
            double v = 0, jsum = 0;
            snprintf(key, sizeof key, "pool.%s.%s", dc_sched_pool_name(sched, p), name);
            dc_summary_get(s, key, &v);
            for (size_t r = 0; r < n; r++)
                if (strcmp(text_cell(t, r, "pool"), dc_sched_pool_name(sched, p)) == 0)
                    jsum += dc_simrun_cell(t, r, name);
            if (!(fabs(jsum - v) <= 1e-9 * fmax(1.0, fabs(v)))) {
                fprintf(stderr, "\n  %s: %s: the pool's jobs sum to %.12g, the pool says %.12g", what, key, jsum, v);
                ok = false;
            }
        }
        if (np >= 2) {
            double psum = 0;
            for (int p = 0; p < np; p++) {
                char key[128];
                double v = 0;
                snprintf(key, sizeof key, "pool.%s.%s", dc_sched_pool_name(sched, p), name);
                if (!dc_summary_get(s, key, &v)) {
                    fprintf(stderr, "\n  %s: no %s", what, key);
                    ok = false;
                }
                psum += v;
            }
            if (!(fabs(psum - run) <= 1e-9 * fmax(1.0, fabs(run)))) {
                fprintf(stderr, "\n  %s: %s: pools sum to %.12g, the run says %.12g", what, name, psum, run);
                ok = false;
            }
        }
    }
    /* The jobs' GPU-hours and the lines that are nobody's job (the
     * cluster's idle, down, retired..., a service's) make the capacity. */
    double capacity = NAN, others = 0.0;
    dc_summary_get(s, "gpu_hours.capacity", &capacity);
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *key = dc_summary_key(s, i);
        if (strncmp(key, "gpu_hours.", 10) == 0 && strcmp(key, "gpu_hours.capacity") != 0
            && dc_rowtable_column_index(t, key) < 0 && !strchr(key + 10, '.'))
            others += dc_summary_value(s, i);
    }
    if (!(fabs(jobs_gpu_h + others - capacity) <= 1e-9 * capacity)) {
        fprintf(stderr, "\n  %s: jobs %.12g + others %.12g GPU-h, capacity %.12g", what, jobs_gpu_h, others, capacity);
        ok = false;
    }
    return ok;
}

/* Every shipped scenario: the jobs' rows against the run's breakdown. */
static void test_breakdowns_shipped(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src)
        src = "..";
    char cmd[600];
    snprintf(cmd, sizeof cmd, "find '%s/scenarios' -name '*.cfg' | sort", src);
    int status = 0;
    char *list = dc_runner_shell(cmd, &status);
    CU_ASSERT_PTR_NOT_NULL_FATAL(list);
    CU_ASSERT_EQUAL(status, 0);
    size_t n = 0;
    for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
        dc_sim *sim = dc_simrun_file(line, NULL, 0, -1);
        CU_ASSERT_PTR_NOT_NULL(sim);
        if (sim) {
            CU_ASSERT(check_breakdowns(sim, line));
            dc_sim_destroy(sim);
        }
        n++;
    }
    CU_ASSERT(n >= 18);
    free(list);
}

/* dcsim report --jobs reads the trace's table: a line per job, the total. */
static void test_report_jobs(void)
{
    char dir[] = "/tmp/dcsim-fabric-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char cfg[600], trace[600];
    snprintf(cfg, sizeof cfg, "%s/jobs.cfg", dir);
    snprintf(trace, sizeof trace, "%s/jobs.h5", dir);
    const char text[] = "horizon_days = 2.0;\n"
                        "cluster = { nodes = 8; gpus_per_node = 8; };\n"
                        "jobs = ( { name = \"a\"; nodes = 2; work_gpu_h = 160.0; },\n"
                        "         { name = \"b\"; nodes = 4; work_gpu_h = 320.0; start_h = 1.0; },\n"
                        "         { name = \"late\"; nodes = 1; work_gpu_h = 8.0; start_h = 100.0; } );\n";
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(cfg, text, strlen(text)), 0);
    const char *run[] = {"run", cfg, "-o", trace, "--quiet", NULL};
    dc_runner_result r = dc_runner_dcsim(run, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    dc_runner_free(&r);
    const char *rep[] = {"report", "--jobs", trace, NULL};
    r = dc_runner_dcsim(rep, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(strstr(r.out, "3 jobs in") != NULL);
    CU_ASSERT(strstr(r.out, " a ") && strstr(r.out, " b ") && strstr(r.out, "late"));
    CU_ASSERT(strstr(r.out, "completed") && strstr(r.out, "not_submitted"));
    /* a: 160 GPU-h of work + 600 s restart on 16 GPUs: 162.7 GPU-h held */
    CU_ASSERT(strstr(r.out, "162.7") != NULL);
    CU_ASSERT(strstr(r.out, "all jobs:") && strstr(r.out, "2 of 3 started"));
    dc_runner_free(&r);
    const char *both[] = {"report", "--jobs", "--json", trace, NULL};
    r = dc_runner_dcsim(both, NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT(strstr(r.err, "do not go together") != NULL);
    dc_runner_free(&r);
    /* the trace's /jobs reads back as a table */
    dc_error err = {0};
    dc_trace_file *tf = dc_trace_open(trace, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tf);
    dc_table *tb = dc_table_create();
    CU_ASSERT_EQUAL(dc_trace_read_table(tf, "/jobs", tb, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_table_rows(tb), 3);
    CU_ASSERT_STRING_EQUAL(dc_table_column_name(tb, 0), "job");
    CU_ASSERT_STRING_EQUAL(dc_table_text(tb, 0, 1), "a");
    dc_table_destroy(tb);
    dc_trace_close(tf);
    remove(trace);
    remove(cfg);
    rmdir(dir);
}

/* Bad input: the message names the file, line and key. */
typedef struct bad_case {
    const char *what, *text, *frag[3];
} bad_case;

#define BAD_BASE "horizon_days = 1.0;\ncluster = { nodes = 16; gpus_per_node = 8; };\nnetwork = { tiers = 2; };\n"

static const bad_case bad_cases[] = {
    {"unknown class", BAD_BASE "job = { nodes = 4; work_gpu_h = 10.0;\n class = \"nope\"; };\n",
     {"test.cfg:5", "job.class", "no job class \"nope\""}},
    {"class named twice",
     BAD_BASE "job_classes = ( { name = \"a\"; },\n { name = \"a\"; } );\njob = { nodes = 4; work_gpu_h = 10.0; };\n",
     {"test.cfg:5", "job_classes.[1].name", "named twice"}},
    {"layout that does not divide a stream's job",
     BAD_BASE "jobs = ( { name = \"s\"; count = 3; nodes_min = 1; nodes_max = 1; params = 1e9;\n"
              " parallelism = { tensor = 16;\n global_batch_tokens = 1e6; };\n"
              " interarrival = { law = \"exponential\"; mean_h = 1.0; };\n duration = { law = \"constant\"; mean_h = 1.0; }; } );\n",
     {"test.cfg:5", "jobs.[0].parallelism.tensor", "does not divide the job's 8 GPUs (job \"s-0\")"}},
    {"layout without a batch",
     BAD_BASE "jobs = ( { name = \"one\"; nodes = 2; params = 1e9; tokens = 1e10;\n parallelism = { tensor = 8; }; } );\n",
     {"test.cfg:5", "jobs.[0].parallelism", "global_batch_tokens"}},
    {"tensor degree not whole",
     BAD_BASE "jobs = ( { name = \"one\"; nodes = 2; params = 1e9; tokens = 1e10;\n parallelism = {\n tensor = 2.5; "
              "global_batch_tokens = 1e6; }; } );\n",
     {"test.cfg:6", "jobs.[0].parallelism.tensor", "whole number"}},
    {"layout without params",
     BAD_BASE "jobs = ( { name = \"one\"; nodes = 2; work_gpu_h = 10.0;\n parallelism = { global_batch_tokens = 1e6; }; } );\n",
     {"test.cfg:5", "jobs.[0].parallelism", "needs the job's params"}},
    {"one job with neither work nor tokens",
     BAD_BASE "jobs = ( {\n name = \"one\"; nodes = 2; params = 1e9; } );\n",
     {"test.cfg:4", "jobs.[0]", "give the job's work"}},
    {"checkpoint tier that does not exist",
     BAD_BASE "jobs = ( { name = \"one\"; nodes = 2; params = 1e9; tokens = 1e10; checkpoint = true;\n"
              " checkpoint_interval_s = 3600.0;\n checkpoint_tier = \"pfs\"; } );\n",
     {"test.cfg:6", "jobs.[0].checkpoint_tier", "no storage tier is named \"pfs\""}},
};

static void test_bad_input(void)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *b = &bad_cases[i];
        dc_error err = {0};
        dc_scenario *sc = NULL;
        CU_ASSERT_EQUAL_FATAL(dc_scenario_load_string(b->text, "test.cfg", &sc, &err), DC_OK);
        dc_scenario_set_schema(sc, dc_schemas());
        dc_sim *sim = NULL;
        int rc = dc_scenario_validate(sc, &err);
        if (rc == DC_OK)
            rc = dc_build(sc, -1, &sim, &err);
        bool ok = rc == DC_EINPUT;
        for (int k = 0; k < 3 && ok; k++)
            ok = strstr(err.msg, b->frag[k]) != NULL;
        if (!ok)
            fprintf(stderr, "\n  %s: rc %d, message \"%s\"", b->what, rc, err.msg);
        CU_ASSERT(ok);
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
}

static int register_suites(void)
{
    DC_TEST_SUITE("cluster",
                  {"network domains; every job's node list through a busy run", test_domains_and_lists},
                  {"domains without a network: racks, one pod", test_domains_default});
    DC_TEST_SUITE("job models",
                  {"the same job from its own keys, a class, a jobs entry, the defaults", test_class_inheritance},
                  {"auto layout: tensor to the node, then pipeline, until it fits", test_auto_layout},
                  {"every job of a stream has its step time", test_stream_step_time},
                  {"a stream's layouts, read once per size, are its jobs' own", test_stream_layout_memo},
                  {"a stream of llm jobs, few in play: a few words a job for step time and flows", test_llm_stream_bytes},
                  {"a job's checkpoint tier and size, a class's write time", test_job_checkpoints},
                  {"bad input: file, line, key and what is wrong", test_bad_input});
    DC_TEST_SUITE("shared fabric",
                  {"two jobs: max-min halves a 1:k spine when spread, nothing packed or 1:1", test_fabric_two_jobs},
                  {"unequal caps: max-min leaves the rest to the other", test_fabric_unequal},
                  {"link failures slow the jobs that cross them, cut them when none is left", test_fabric_link_failures},
                  {"rail-optimised: cross-rail rings cross the spine", test_fabric_rail},
                  {"alone: topology.h's closed form", test_fabric_matches_topology},
                  {"a random history of starts, swaps, stops and failures: as a fresh fabric", test_fabric_history},
                  {"restarts on other nodes place anew, swaps move one node, a job done lends its arrays",
                   test_fabric_replace_shortcuts},
                  {"two jobs end to end: solo on 1:1, shares on a 1:8 spine spread, solo packed",
                   test_two_jobs_end_to_end},
                  {"two jobs by placement policy: spread shares a 1:8 spine max-min, pack keeps solo", test_two_jobs_by_policy},
                  {"max-min with coefficients against a brute-force reference", test_maxmin_property},
                  {"incremental fluid transfers: a random history against fresh solves", test_flows_incremental},
                  {"the fabric's shortcut for units none shares, on and off: the same figures and series",
                   test_fabric_fast_same});
    DC_TEST_SUITE("shared storage",
                  {"k simultaneous checkpoints take k times the solo write, staggered the solo", test_storage_checkpoint_burst},
                  {"several jobs' dataset streams share the tier max-min", test_storage_dataset_shared});
    DC_TEST_SUITE("jobs table",
                  {"rows: columns, blanks, truncation, limits", test_rowtable},
                  {"every shipped scenario: jobs' lines sum to theirs and to the run's", test_breakdowns_shipped},
                  {"dcsim report --jobs", test_report_jobs});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
