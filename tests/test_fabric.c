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

static int register_suites(void)
{
    DC_TEST_SUITE("cluster",
                  {"network domains; every job's node list through a busy run", test_domains_and_lists},
                  {"domains without a network: racks, one pod", test_domains_default});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
