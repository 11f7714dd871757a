/* Tests: checkpoints on storage tiers against hand-computed timelines.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Checkpoints on storage tiers against hand-computed timelines: the write
 * time through a tier alone and sharing it max-min fairly with the dataset
 * stream, asynchronous checkpoints (the stall is the snapshot; a failure
 * during the drain falls back to the previous checkpoint), and multi-level
 * restarts reading from the right level after a node failure versus a rack
 * failure.  Failures are injected at chosen times (no randomness). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "simrun.h"
#include "workload/checkpoint.h"
#include "cluster.h"
#include "registry.h"
#include "fabric/storage.h"
#include "testutil.h"

#define REL(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b))

/* Failures injected at a time: nodes [first, first + n). */
typedef struct injection {
    double at_s;
    uint32_t first, n;
} injection;

static void inject(dc_sim *sim, void *ctx, uint64_t arg)
{
    const injection *in = ctx;
    uint32_t nodes[8];
    for (uint32_t i = 0; i < in->n; i++)
        nodes[i] = in->first + i;
    (void)arg;
    dc_cluster_fail(dc_cluster_of(sim), -1, "test", nodes, in->n, -1);
}

/* Builds text with sets, injects the failure (if any), runs. */
static dc_sim *run_with(const char *text, const char *const *sets, size_t n_sets, const injection *in)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(text, sets, n_sets, -1, &err);
    if (!sim) {
        fprintf(stderr, "build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        return NULL;
    }
    if (in)
        dc_sim_at(sim, in->at_s, inject, (void *)in, 0);
    return dc_simrun_run(sim);
}

/* 4 nodes (80 Gbit/s storage links: 10 GB/s each, 40 GB/s in all) and 4
 * spares, racks of 2; a file system that writes 20 GB/s and reads 50 GB/s;
 * DDR at 100 GB/s write and 200 GB/s read per node.  A checkpoint of
 * 400 GB every 1000 s of computing; 100 s to restart; horizon 4320 s. */
static const char base_cfg[] =
    "horizon_days = 0.05; stop_when_done = false;\n"
    "cluster = { nodes = 4; spare_nodes = 4; gpus_per_node = 8; nodes_per_rack = 2; };\n"
    "job = { nodes = 4; work_gpu_h = 1e6; restart_s = 100.0; };\n"
    "checkpoint = { interval_s = 1000.0; size_gb = 400.0; tier = \"pfs\"; };\n"
    "storage = { node_link_gbps = 80.0;\n"
    "  tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 50.0;\n"
    "              write_gb_per_s = 20.0; latency_us = 1000.0; },\n"
    "            { name = \"ddr\"; kind = \"ddr\"; capacity_tb = 1.0; read_gb_per_s = 200.0;\n"
    "              write_gb_per_s = 100.0; },\n"
    "            { name = \"nvme\"; kind = \"nvme\"; capacity_tb = 4.0; read_gb_per_s = 8.0;\n"
    "              write_gb_per_s = 4.0; } ); };\n"
    "trace = { events = false; };\n";

/* Blocking writes to the file system alone: C = latency + 400 GB / 20 GB/s;
 * the job computes 4320 - 100 - n C with n checkpoints. */
static void test_write_alone(void)
{
    dc_sim *sim = run_with(base_cfg, NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const double c = 1e-3 + 400e9 / 20e9;
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_s"), c));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_mean_s"), c));
    /* checkpoints at 1100, 2100 + C, 3100 + 2C, 4100 + 3C (done by 4320) */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 4.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.useful_gpu_h"), 32.0 * (4320.0 - 100.0 - 4 * c) / 3600.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_checkpointing_h"), 4 * c / 3600.0));
    dc_sim_destroy(sim);
    /* On the DDR of the 4 nodes: 400 GB / (4 x 100 GB/s), no latency. */
    const char *sets[] = {"checkpoint.tier=\"ddr\""};
    sim = run_with(base_cfg, sets, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_mean_s"), 1.0));
    dc_sim_destroy(sim);
}

/* The dataset from an object store through a cache on the file system that
 * holds half of it: the cache fill writes half the step's bytes into the
 * file system at a demand d.  A checkpoint write from the same 4 nodes has
 * the same weight: max-min gives the stream its d (< 10 GB/s, half) and
 * the checkpoint the rest, 20 - d GB/s. */
static const char stream_cfg[] =
    "horizon_days = 0.05; stop_when_done = false;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; params = 1e9; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; restart_s = 100.0; };\n"
    "network = { tiers = 2; nodes_per_leaf = 4; };\n"
    "parallelism = { tensor = 8; global_batch_tokens = 65536.0; seq_len = 4096; };\n"
    "checkpoint = { interval_s = 1000.0; size_gb = 400.0; tier = \"pfs\"; };\n"
    "storage = { node_link_gbps = 80.0;\n"
    "  tiers = ( { name = \"obj\"; kind = \"object\"; capacity_tb = 1e4; read_gb_per_s = 100.0;\n"
    "              write_gb_per_s = 100.0; },\n"
    "            { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 50.0; read_gb_per_s = 50.0;\n"
    "              write_gb_per_s = 20.0; } );\n"
    "  dataset = { tier = \"obj\"; cache_tier = \"pfs\"; size_tb = 100.0; bytes_per_token = 1.0; }; };\n"
    "trace = { events = false; };\n";

static void test_write_shared_with_stream(void)
{
    dc_sim *sim = run_with(stream_cfg, NULL, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double step = dc_simrun_fig(sim, "step.time_s");
    CU_ASSERT(REL(dc_simrun_fig(sim, "storage.dataset.cache_hit"), 0.5));
    /* 1 byte per token is nothing: the write gets the whole 20 GB/s. */
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_mean_s"), 400e9 / (20e9 - 0.5 * 65536.0 / step)));
    dc_sim_destroy(sim);
    /* Bytes per token for a fill demand d = 0.5 x 65536 x bpt / step = 4 GB/s. */
    char set[96];
    snprintf(set, sizeof set, "storage.dataset.bytes_per_token=%.17g", 4e9 * step / (0.5 * 65536.0));
    const char *sets[] = {set};
    sim = run_with(stream_cfg, sets, 1, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.time_s"), step)); /* the streams get their demand: no stall */
    double got = dc_simrun_fig(sim, "job.checkpoint_write_mean_s");
    printf("\n  checkpoint sharing the file system with the cache fill: %.6f s (400 / 16 = 25)", got);
    CU_ASSERT(REL(got, 400e9 / 16e9));
    /* The planned write time is the write alone. */
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_s"), 20.0));
    dc_sim_destroy(sim);
}

/* With the step-time model, cancelling a drain re-rates the dataset stream
 * and so the job's speed while the failure is being handled: the failure
 * must still cost exactly one interruption, one lost drain, and the work
 * since the first checkpoint. */
static void test_async_with_stream(void)
{
    const char *sets[] = {"checkpoint.mode=\"async\"", "checkpoint.snapshot_gb_per_s=200.0",
                          "storage.dataset.bytes_per_token=1e5"};
    dc_sim *sim = run_with(stream_cfg, sets, 3, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double ck = dc_simrun_fig(sim, "job.checkpoints");
    dc_sim_destroy(sim);
    injection cut = {2110.0, 0, 1};
    sim = run_with(stream_cfg, sets, 3, &cut);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_drains_lost"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints_lost"), 1.0, 0.0);
    CU_ASSERT(dc_simrun_fig(sim, "job.checkpoints") < ck);
    /* two snapshots of 2 s, then waiting for the node (no spare) for good */
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_checkpointing_h"), 4.0 / 3600.0));
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.time_running_h") + dc_simrun_fig(sim, "job.time_waiting_h") + 4.0 / 3600.0
                               + dc_simrun_fig(sim, "job.time_restarting_h"), 0.05 * 24.0, 1e-9);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_waiting_h"), (0.05 * 86400.0 - 2110.0) / 3600.0));
    CU_ASSERT(dc_simrun_fig(sim, "job.lost_gpu_h") > 0.0);
    dc_sim_destroy(sim);
}

/* Async: the job stalls 400 GB / 200 GB/s = 2 s per snapshot; the drain
 * takes D = 1 ms + 20 s in the background.  Snapshots at 1100 and 2102
 * (drains end 1122 + 1 ms and 2124 + 1 ms).  A failure at 2110 cuts the
 * second drain: the restart reads the first checkpoint (1000 s of work),
 * losing the 1006 s computed since; a failure at 2130 finds the second
 * drained (2000 s), losing 26 s. */
static void test_async(void)
{
    const char *sets[] = {"checkpoint.mode=\"async\"", "checkpoint.snapshot_gb_per_s=200.0"};
    const double d = 1e-3 + 20.0;
    dc_sim *sim = run_with(base_cfg, sets, 2, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_write_s"), 2.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_drain_mean_s"), d));
    /* snapshots at 1100, 2102, 3104, 4106: only 8 s of stall */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 4.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_checkpointing_h"), 8.0 / 3600.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.useful_gpu_h"), 32.0 * (4320.0 - 100.0 - 8.0) / 3600.0));
    dc_sim_destroy(sim);

    injection cut = {2110.0, 0, 1};
    sim = run_with(base_cfg, sets, 2, &cut);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_drains_lost"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints_lost"), 1.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.lost_gpu_h"), 32.0 * 1006.0 / 3600.0));
    /* The restart: 100 s, then 400 GB read at min(50, 4 links x 10) GB/s + 1 ms. */
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.restart_read_mean_s"), 10.0 + 1e-3));
    dc_sim_destroy(sim);

    injection after = {2130.0, 0, 1};
    sim = run_with(base_cfg, sets, 2, &after);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_drains_lost"), 0.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.lost_gpu_h"), 32.0 * 26.0 / 3600.0));
    dc_sim_destroy(sim);
}

/* A checkpoint that comes due during a drain waits for it: the file
 * system at 0.25 GB/s drains 400 GB in 1600 s + 1 ms (1102 to 2702 + 1 ms),
 * past the checkpoint due at 2102; the second snapshot comes at the drain's
 * end (the interval counts from the snapshot, so it is overdue) and its
 * drain ends at 4304 + 2 ms, within the 4320 s, when the third (overdue
 * again) snapshot starts: 3 snapshots of 2 s, 2 checkpoints. */
static void test_async_waits_for_drain(void)
{
    const char *sets[] = {"checkpoint.mode=\"async\"", "checkpoint.snapshot_gb_per_s=200.0",
                          "storage.tiers.[0].write_gb_per_s=0.25"};
    dc_sim *sim = run_with(base_cfg, sets, 3, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_checkpointing_h"), 6.0 / 3600.0));
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 2.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.checkpoint_drain_mean_s"), 1600.0 + 1e-3));
    dc_sim_destroy(sim);
}

/* base_cfg with its tier = "pfs" replaced by levels (into buf). */
static const char *with_levels(char *buf, size_t size, const char *levels)
{
    const char *key = "tier = \"pfs\"; };";
    const char *at = strstr(base_cfg, key);
    snprintf(buf, size, "%.*s%s };%s", (int)(at - base_cfg), base_cfg, levels, at + strlen(key));
    return buf;
}

/* Two levels: DDR with partner copies every checkpoint, the file system
 * every second.  Blocking writes: DDR 400 GB / (4 x 100 GB/s) = 1 s, the
 * file system W = 20 s + 1 ms.  Checkpoints at 1100 (DDR), 2101 (file
 * system), 3101 + W (DDR; 3000 s of work).  A failure at 3500: */
static void test_multilevel_restart(void)
{
    char text[2048];
    with_levels(text, sizeof text, "levels = ( { tier = \"ddr\"; every = 1; partner = true; }, "
                                   "{ tier = \"pfs\"; every = 2; } );");
    const double w = 20.0 + 1e-3, fail_s = 3500.0;
    const double run_before = fail_s - 100.0 - 1.0 - w - 1.0; /* computing time until the failure */

    /* Node 0 alone: its partner (node 1, same rack) holds its shard, so the
     * restart reads the DDR copy: 400 GB / (4 x 200 GB/s). */
    injection node = {fail_s, 0, 1};
    dc_sim *sim = run_with(text, NULL, 0, &node);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level0.restores"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level1.restores"), 0.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.restart_read_mean_s"), 0.5));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.lost_gpu_h"), 32.0 * (run_before - 3000.0) / 3600.0));
    dc_sim_destroy(sim);

    /* The rack of nodes 0 and 1: both copies of node 0's shard gone; the
     * restart falls back to the file system's (2000 s of work), read at
     * 40 GB/s (the links) + 1 ms. */
    injection rack = {fail_s, 0, 2};
    sim = run_with(text, NULL, 0, &rack);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level0.restores"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level1.restores"), 1.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.restart_read_mean_s"), 10.0 + 1e-3));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.lost_gpu_h"), 32.0 * (run_before - 2000.0) / 3600.0));
    dc_sim_destroy(sim);

    /* Local NVMe without partners: one node's failure already loses the
     * level (its replacement has no shard): back to the file system. */
    with_levels(text, sizeof text, "levels = ( { tier = \"nvme\"; every = 1; }, { tier = \"pfs\"; every = 2; } );");
    sim = run_with(text, NULL, 0, &node);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level0.restores"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoint_level1.restores"), 1.0, 0.0);
    /* NVMe writes 400 GB / (4 x 4 GB/s) = 25 s */
    double run_local = fail_s - 100.0 - 25.0 - w - 25.0;
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.lost_gpu_h"), 32.0 * (run_local - 2000.0) / 3600.0));
    dc_sim_destroy(sim);
}

static void corrupt(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)ctx;
    (void)arg;
    dc_cluster_corrupt(dc_cluster_of(sim), -1, "test", 0, 0, 1000.0);
}

/* Silent corruption at 1500 found at 2500 rolls back past the checkpoint of
 * 2120 + 1 ms (it carries it) to that of 1100 (1000 s of work): restart
 * 100 s + the read of 10 s + 1 ms.  That checkpoint is then what a restart
 * reads: a failure at 3000 loses the 3000 - 2610.001 s computed since. */
static void test_corruption_then_failure(void)
{
    const char *sets[] = {"checkpoint.retain=2"};
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(base_cfg, sets, 1, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    injection fail = {3000.0, 1, 1};
    dc_sim_at(sim, 1500.0, corrupt, NULL, 0);
    dc_sim_at(sim, fail.at_s, inject, &fail, 0);
    CU_ASSERT_EQUAL_FATAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.corruption_rollbacks"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.corruption_from_scratch"), 0.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.corruption_lost_gpu_h"), 32.0 * (2500.0 - 100.0 - 2 * (20.0 + 1e-3) - 1000.0) / 3600.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.rollback"), 32.0 * (3000.0 - 2610.001) / 3600.0));
    dc_sim_destroy(sim);
}

/* Checkpoint k goes to the last level whose every divides k. */
static void test_level_rule(void)
{
    dc_checkpoint_plan p = {.n_levels = 3};
    p.levels[0].every = 1;
    p.levels[1].every = 4;
    p.levels[2].every = 10;
    static const size_t want[21] = {2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2};
    for (uint64_t k = 1; k <= 20; k++)
        CU_ASSERT_EQUAL(dc_checkpoint_level_of(&p, k), want[k]);
}

static int register_suites(void)
{
    DC_TEST_SUITE("checkpoints on tiers", {"write alone", test_write_alone},
                  {"write sharing with the dataset stream", test_write_shared_with_stream},
                  {"async: snapshot, drain, failure in the drain", test_async},
                  {"async: a checkpoint waits for the drain", test_async_waits_for_drain},
                  {"async with the step-time model", test_async_with_stream},
                  {"multi-level restart: node versus rack", test_multilevel_restart},
                  {"corruption, then a failure: the kept checkpoint", test_corruption_then_failure},
                  {"which level a checkpoint goes to", test_level_rule});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
