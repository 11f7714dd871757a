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

#include "cluster.h"
#include "registry.h"
#include "testutil.h"

#define REL(a, b, tol) (fabs((a) - (b)) <= (tol) * fabs(b))

static dc_sim *build_text(const char *text, const char *const *sets, size_t n_sets, dc_scenario **sc_out)
{
    dc_error err = {0};
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, "test.cfg", &sc, &err) != DC_OK) {
        fprintf(stderr, "load: %s\n", err.msg);
        CU_FAIL("scenario did not load");
        return NULL;
    }
    dc_scenario_set_schema(sc, dc_schemas());
    for (size_t i = 0; i < n_sets; i++)
        if (dc_scenario_set(sc, sets[i], &err) != DC_OK) {
            fprintf(stderr, "set: %s\n", err.msg);
            CU_FAIL("override rejected");
            dc_scenario_destroy(sc);
            return NULL;
        }
    dc_sim *sim = NULL;
    if (dc_scenario_validate(sc, &err) != DC_OK || dc_build(sc, -1, &sim, &err) != DC_OK) {
        fprintf(stderr, "build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
        return NULL;
    }
    *sc_out = sc;
    return sim;
}

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

static void test_domains_and_lists(void)
{
    dc_scenario *sc = NULL;
    dc_sim *sim = build_text(mixed_cfg, NULL, 0, &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_sim_add_model(sim, &lists_model, sc, &err), DC_OK);
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
    dc_scenario_destroy(sc);
}

static void test_domains_default(void)
{
    /* no network: a leaf is a rack, one pod */
    const char cfg[] = "horizon_days = 1.0;\n"
                       "cluster = { nodes = 10; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                       "job = { nodes = 4; work_gpu_h = 10.0; };\n";
    dc_scenario *sc = NULL;
    dc_sim *sim = build_text(cfg, NULL, 0, &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_cluster *c = dc_cluster_of(sim);
    CU_ASSERT_EQUAL(dc_cluster_nodes_per_leaf(c), 4);
    CU_ASSERT_EQUAL(dc_cluster_leaf_count(c), 3);
    CU_ASSERT_EQUAL(dc_cluster_pod_count(c), 1);
    CU_ASSERT_EQUAL(dc_cluster_node_pod(c, 9), 0);
    CU_ASSERT_EQUAL(dc_cluster_node_leaf(c, 9), 2);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
}

static dc_sim *run_text(const char *text, const char *const *sets, size_t n_sets)
{
    dc_scenario *sc = NULL;
    dc_sim *sim = build_text(text, sets, n_sets, &sc);
    if (!sim)
        return NULL;
    dc_error err = {0};
    if (dc_sim_run(sim, &err) != DC_OK) {
        fprintf(stderr, "run: %s\n", err.msg);
        CU_FAIL("scenario did not run");
        dc_sim_destroy(sim);
        sim = NULL;
    }
    dc_scenario_destroy(sc);
    return sim;
}

static double fig(dc_sim *sim, const char *key)
{
    double v = NAN;
    if (!dc_summary_get(dc_sim_summary(sim), key, &v)) {
        fprintf(stderr, "missing summary figure %s\n", key);
        CU_FAIL("summary figure missing");
    }
    return v;
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
                  {"a job's checkpoint tier and size, a class's write time", test_job_checkpoints},
                  {"bad input: file, line, key and what is wrong", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
