/* Tests: GPU-granular allocation (jobs of fewer GPUs than a node share nodes, packed best fit).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Jobs that ask for gpus (fewer than a node has) hold a share of one node
 * (cluster.h, scheduler.h):
 * - eight 1-GPU jobs fit on one 8-GPU node, the other node stays idle;
 * - a failure of that node interrupts all eight (each then restarts on the
 *   spare node and loses its hour: closed-form end time and rollback);
 * - a straggler slows every job on its node (closed-form ends);
 * - silent corruption of a shared node rolls back every job on it (the
 *   GPU-hours lost, by hand);
 * - a whole-node job is never placed on a node holding a share: it waits;
 * - best fit: a share goes to the partly used node with the fewest free
 *   GPUs that holds it;
 * - the ITP-like effect on tests/itp_small.csv (most jobs 1 GPU): shared,
 *   the GPU-hours the jobs hold equal those they use and the mean wait is
 *   its closed form, far below the whole-node mapping's;
 * - the GPU-hour breakdown still sums to the capacity with a stream of
 *   shares and whole jobs, failures, repair, spot reclaims;
 * - bad input (nodes and gpus together; both kinds of stream sizes) through
 *   the dcsim program: file, line, key, exit status 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badinput.h"
#include "cluster.h"
#include "registry.h"
#include "simrun.h"
#include "workload/scheduler.h"
#include "testutil.h"

static char tmpdir[256];

static dc_sim *build_text(const char *text, const char *name, int64_t seed)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    dc_test_write_text(path, text);
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load_file(path, NULL, 0, &err);
    if (!sc) {
        printf("\n  %s\n", err.msg);
        return NULL;
    }
    dc_sim *sim = NULL;
    int rc = dc_build(sc, seed, &sim, &err);
    dc_scenario_destroy(sc);
    if (rc != DC_OK) {
        printf("\n  %s\n", err.msg);
        return NULL;
    }
    return sim;
}

static double breakdown_gap(dc_sim *sim, double *cap_out)
{
    dc_summary *s = dc_sim_summary(sim);
    double cap = 0, sum = 0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strcmp(k, DC_BREAKDOWN_TOTAL) == 0)
            cap = dc_summary_value(s, i);
        else if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0)
            sum += dc_summary_value(s, i);
    }
    *cap_out = cap;
    return sum - cap;
}

/* The node a job holds (-1: none). */
static int64_t node_of(const dc_cluster *c, int32_t job)
{
    uint32_t n = 0;
    const uint32_t *list = dc_cluster_job_node_list(c, job, &n);
    return n == 1 ? (int64_t)list[0] : -1;
}

/* ---------- eight 1-GPU jobs on one node; its failure hits all eight ---------- */

static const char eight_csv[] = "arrival_h,gpus,work_gpu_h,priority,pool,user,kind\n"
                                "0,1,10,0,,,\n0,1,10,0,,,\n0,1,10,0,,,\n0,1,10,0,,,\n"
                                "0,1,10,0,,,\n0,1,10,0,,,\n0,1,10,0,,,\n0,1,10,0,,,\n";
static const char eight_cfg[] = "horizon_days = 3.0; stop_when_done = true;\n"
                                "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2; };\n"
                                "jobs = ( { name = \"s\"; trace = \"eight.csv\"; restart_s = 0.0; } );\n";

typedef struct seen {
    int64_t node[8];
    uint32_t shares, idle, free_gpus;
    bool failed;
} seen;

static void look(dc_sim *sim, void *ctx, uint64_t fail)
{
    seen *sn = ctx;
    dc_cluster *c = dc_cluster_of(sim);
    for (int32_t j = 0; j < 8; j++)
        sn->node[j] = node_of(c, j);
    sn->shares = dc_cluster_share_count(c);
    sn->idle = dc_cluster_idle_count(c);
    sn->free_gpus = sn->node[0] >= 0 ? dc_cluster_node_free_gpus(c, (uint32_t)sn->node[0]) : 99;
    if (fail && sn->node[0] >= 0) {
        uint32_t node = (uint32_t)sn->node[0];
        dc_cluster_fail(c, -1, "test", &node, 1, -1);
        sn->failed = true;
    }
}

static dc_sim *eight(bool fail, seen *before, seen *after)
{
    char path[512];
    snprintf(path, sizeof path, "%s/eight.csv", tmpdir);
    dc_test_write_text(path, eight_csv);
    dc_sim *sim = build_text(eight_cfg, "eight.cfg", 1);
    if (!sim)
        return NULL;
    dc_sim_at(sim, 3600.0, look, before, fail);
    dc_sim_at(sim, 1.5 * 3600.0, look, after, 0);
    return dc_simrun_run(sim);
}

static void test_eight_on_one_node(void)
{
    seen a = {0}, b = {0};
    dc_sim *sim = eight(false, &a, &b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  at 1 h: jobs on nodes %lld..%lld, %u shares, %u idle nodes, %u free GPUs on theirs\n",
           (long long)a.node[0], (long long)a.node[7], a.shares, a.idle, a.free_gpus);
    CU_ASSERT(a.node[0] >= 0);
    for (int j = 1; j < 8; j++)
        CU_ASSERT_EQUAL(a.node[j], a.node[0]);
    CU_ASSERT_EQUAL(a.shares, 8);
    CU_ASSERT_EQUAL(a.idle, 1);
    CU_ASSERT_EQUAL(a.free_gpus, 0);
    /* each runs 10 GPU-h on its one GPU from 0: all end at 10 h, having
     * held 8 x 10 GPU-h; the idle node's 10 h x 8 GPUs are idle */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 8, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 10.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed_gpu_h"), 80.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 80.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 80.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.0, 0);
    double cap = 0, gap = breakdown_gap(sim, &cap);
    CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
    dc_sim_destroy(sim);
}

static void test_failure_interrupts_all(void)
{
    seen a = {0}, b = {0};
    dc_sim *sim = eight(true, &a, &b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  node %lld failed at 1 h; at 1.5 h the jobs are on node %lld (%u shares); %.0f interruptions\n",
           (long long)a.node[0], (long long)b.node[0], b.shares, dc_simrun_fig(sim, "jobs.interruptions"));
    CU_ASSERT(a.failed);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "jobs.interruptions"), 8);
    /* all eight moved to the other node */
    CU_ASSERT(b.node[0] >= 0 && b.node[0] != a.node[0]);
    for (int j = 1; j < 8; j++)
        CU_ASSERT_EQUAL(b.node[j], b.node[0]);
    CU_ASSERT_EQUAL(b.shares, 8);
    /* no checkpoint: each loses its first hour and ends at 1 + 10 h */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.rollback"), 8.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 11.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 8, 0);
    /* the failed node is down from 1 h to the end (no repair): 10 h x 8 GPUs */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), 80.0, 1e-9);
    double cap = 0, gap = breakdown_gap(sim, &cap);
    CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
    dc_sim_destroy(sim);
}

/* ---------- silent corruption of a shared node hits every job on it ---------- */

static const char sdc_cfg[] = "horizon_days = 3.0; stop_when_done = true;\n"
                              "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2; };\n"
                              "checkpoint = { policy = \"fixed\"; interval_s = 3600.0; retain = 2;\n"
                              "               size_gb = 36.0; write_gb_per_s = 1.0; };\n"
                              "jobs = ( { name = \"s\"; trace = \"eight.csv\"; restart_s = 0.0; } );\n";

/* One corruption of the node that job 0 runs on, found 1 h later. */
static void corrupt_node(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_cluster *c = dc_cluster_of(sim);
    int64_t node = node_of(c, 0);
    (void)arg;
    *(int64_t *)ctx = node;
    if (node >= 0)
        dc_cluster_corrupt(c, -1, "test", (int32_t)node, dc_cluster_node_job(c, (uint32_t)node), 3600.0);
}

/* Eight 1-GPU jobs of 10 GPU-h on one node, a checkpoint after every hour
 * of compute written in 36 s (36 GB at 1 GB/s), two kept: checkpoints of
 * 3600 GPU-s captured at 3600 s and of 7200 GPU-s captured at 7236 s (done
 * at 7272 s).  The node's state is corrupted at 1.5 h and that is found at
 * 2.5 h, when each job has done 7200 + (9000 - 7272) = 8928 GPU-s.  Every
 * job on the node computed on the faulty node: each must go back to its
 * checkpoint from before 1.5 h (3600 GPU-s), not only the first.  The first
 * to find it sends the node to repair, which interrupts the other seven at
 * once (a visible failure: back to the newest checkpoint, 8928 - 7200 =
 * 1728 GPU-s each, gpu_hours.rollback), and they then find theirs (7200 -
 * 3600 GPU-s each); the first loses 8928 - 3600 GPU-s to the corruption:
 *   gpu_hours.corruption = (5328 + 7 x 3600) / 3600 = 8.48 GPU-h,
 *   gpu_hours.rollback   = 7 x 1728 / 3600          = 3.36 GPU-h,
 *   jobs.interruptions   = 1 + 7 x 2                = 15.
 * (Only the first job corrupted: 1.48 GPU-h, the seven going on from the
 * corrupted 7236 s checkpoint, 8 interruptions.) */
static void test_sdc_on_shared(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/eight.csv", tmpdir);
    dc_test_write_text(path, eight_csv);
    dc_sim *sim = build_text(sdc_cfg, "sdc.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int64_t node = -1;
    dc_sim_at(sim, 1.5 * 3600.0, corrupt_node, &node, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  node %lld corrupted at 1.5 h: corruption %.6f GPU-h, rollback %.6f GPU-h, %.0f interruptions\n",
           (long long)node, dc_simrun_fig(sim, "gpu_hours.corruption"), dc_simrun_fig(sim, "gpu_hours.rollback"),
           dc_simrun_fig(sim, "jobs.interruptions"));
    CU_ASSERT(node >= 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.corruption"), (5328.0 + 7 * 3600.0) / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.rollback"), 7 * 1728.0 / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.interruptions"), 15, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 8, 0);
    double cap = 0, gap = breakdown_gap(sim, &cap);
    CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
    dc_sim_destroy(sim);
}

/* A corruption of job 0's node, found 2 h later. */
static void corrupt_node_2h(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_cluster *c = dc_cluster_of(sim);
    int64_t node = node_of(c, 0);
    (void)arg;
    *(int64_t *)ctx = node;
    if (node >= 0)
        dc_cluster_corrupt(c, -1, "test", (int32_t)node, dc_cluster_node_job(c, (uint32_t)node), 7200.0);
}

/* A job ended by its time limit at 2 h with a corruption of its node from
 * 0.5 h not yet found (its time limit rolls it back to its checkpoint
 * captured at 1 h, after the corruption, which therefore stays pending):
 * its record stays until the corruption is found at 2.5 h, which sends the
 * node (idle since 2 h) to repair; with no repair it is down to the 3 h
 * horizon: gpu_hours.down = 0.5 h x 8 GPUs = 4 GPU-h, gpu_hours.idle_spare
 * the other 0.5 h x 8.  (A record freed at the job's end: a use after free
 * under ASan, or the corruption never found and nothing down.) */
static const char late_csv[] = "arrival_h,gpus,work_gpu_h,priority,pool,user,kind\n0,8,100,0,,,\n";
static const char late_cfg[] = "horizon_days = 0.125; stop_when_done = false;\n"
                               "cluster = { nodes = 1; gpus_per_node = 8; nodes_per_rack = 1; };\n"
                               "checkpoint = { policy = \"fixed\"; interval_s = 3600.0; retain = 2;\n"
                               "               size_gb = 36.0; write_gb_per_s = 1.0; };\n"
                               "jobs = ( { name = \"s\"; trace = \"late.csv\"; restart_s = 0.0; max_run_h = 2.0; } );\n";

static void test_sdc_after_end(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/late.csv", tmpdir);
    dc_test_write_text(path, late_csv);
    dc_sim *sim = build_text(late_cfg, "late.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int64_t node = -1;
    dc_sim_at(sim, 0.5 * 3600.0, corrupt_node_2h, &node, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  node %lld: %.0f timed out, down %.6f GPU-h, idle %.6f GPU-h\n", (long long)node,
           dc_simrun_fig(sim, "jobs.timed_out"), dc_simrun_fig(sim, "gpu_hours.down"),
           dc_simrun_fig(sim, "gpu_hours.idle_spare"));
    CU_ASSERT_EQUAL(node, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.timed_out"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 4.0, 1e-9);
    double cap = 0, gap = breakdown_gap(sim, &cap);
    CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
    dc_sim_destroy(sim);
}

/* ---------- a straggler slows every job on its node ---------- */

/* 16 jobs of 1 GPU fill 2 nodes of 8; stragglers (mode slow, factor 0.5,
 * tolerated) strike nodes.  A node that turns slow at t0 < 10 h (its
 * first onset) slows every job on it: each of its 8 jobs ends at
 * t0 + 2 (10 - t0) h; the jobs of a node never slowed end at 10 h. */
static void test_straggler_on_shared(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sixteen.csv", tmpdir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "arrival_h,gpus,work_gpu_h,priority,pool,user,kind\n");
    for (int i = 0; i < 16; i++)
        fprintf(f, "0,1,10,0,,,\n");
    fclose(f);
    static const char cfg[] = "horizon_days = 3.0; stop_when_done = true; trace = { events = true; };\n"
                              "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2; };\n"
                              "failures = ( { name = \"slow\"; per = \"node\"; mtbf_h = 20.0; mode = \"slow\";\n"
                              "  slow_factor = 0.5; policy = \"tolerate\"; } );\n"
                              "jobs = ( { name = \"s\"; trace = \"sixteen.csv\"; restart_s = 0.0; } );\n";
    int checked = 0;
    for (int64_t seed = 1; seed <= 40 && checked < 3; seed++) {
        seen a = {0};
        dc_sim *sim = build_text(cfg, "slow.cfg", seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        int64_t node_of_job[16];
        dc_sim_at(sim, 0.01 * 3600.0, look, &a, 0); /* (nodes of jobs 0-7) */
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        /* the first onset per node, and the jobs' ends */
        double onset[2] = {INFINITY, INFINITY}, end[16];
        int onsets[2] = {0, 0};
        for (int j = 0; j < 16; j++)
            end[j] = NAN, node_of_job[j] = -1;
        const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
        size_t n = dc_eventlog_count(dc_sim_eventlog(sim));
        for (size_t i = 0; i < n; i++) {
            const dc_eventlog_row *r = &rows[i];
            if (strcmp(r->kind, "straggler") == 0 && r->id >= 0 && r->id < 2 && r->time_s < 10 * 3600.0) {
                onsets[r->id]++;
                if (r->time_s < onset[r->id])
                    onset[r->id] = r->time_s;
            }
            if (strcmp(r->kind, "job_release") == 0 && r->job >= 0 && r->job < 16)
                end[r->job] = r->time_s / 3600.0;
        }
        /* jobs 0-7 fill the first node taken, 8-15 the other (best fit, in order) */
        for (int j = 0; j < 16; j++)
            node_of_job[j] = j < 8 ? a.node[0] : 1 - a.node[0];
        bool usable = a.node[0] >= 0 && (onsets[0] == 1 || onsets[1] == 1) && onsets[0] <= 1 && onsets[1] <= 1;
        if (usable) {
            checked++;
            for (int j = 0; j < 16; j++) {
                double t0 = onset[node_of_job[j]] / 3600.0;
                double want = isfinite(t0) ? t0 + 2.0 * (10.0 - t0) : 10.0;
                if (j == 0 || j == 8)
                    printf("\n  seed %lld: node %lld slow from %.3f h: its jobs end at %.3f h (expected %.3f)",
                           (long long)seed, (long long)node_of_job[j], t0, end[j], want);
                CU_ASSERT_DOUBLE_EQUAL(end[j], want, 1e-6);
            }
        }
        dc_sim_destroy(sim);
    }
    printf("\n");
    CU_ASSERT(checked >= 2);
}

/* ---------- whole-node jobs never on a shared node; best fit ---------- */

typedef struct whole_seen {
    int64_t a, b, c, d;
} whole_seen;

static void look_whole(dc_sim *sim, void *ctx, uint64_t arg)
{
    whole_seen *w = ctx;
    dc_cluster *c = dc_cluster_of(sim);
    (void)arg;
    w->a = node_of(c, 0);
    w->b = node_of(c, 1);
    w->c = node_of(c, 2);
    w->d = node_of(c, 3);
}

static void test_whole_not_on_shared(void)
{
    /* 2 nodes.  A (1 GPU, 10 h) at 0; B (1 node, 1 h) at 0.5 h takes the
     * other node; C (1 node, 1 h) at 0.6 h must wait for B (7 GPUs of A's
     * node are free, but a whole-node job never goes there): it starts at
     * 1.5 h.  D (4 GPUs) at 2 h joins A's node (C holds the other until
     * 2.5 h; a share goes to a partly used node first in any case). */
    static const char cfg[] = "horizon_days = 3.0; stop_when_done = true; trace = { events = true; };\n"
                              "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2; };\n"
                              "jobs = ( { name = \"A\"; gpus = 1; work_gpu_h = 10.0; restart_s = 0.0; },\n"
                              "  { name = \"B\"; nodes = 1; work_gpu_h = 8.0; start_h = 0.5; restart_s = 0.0; },\n"
                              "  { name = \"C\"; nodes = 1; work_gpu_h = 8.0; start_h = 0.6; restart_s = 0.0; },\n"
                              "  { name = \"D\"; gpus = 4; work_gpu_h = 4.0; start_h = 2.0; restart_s = 0.0; } );\n";
    dc_sim *sim = build_text(cfg, "whole.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    whole_seen at1 = {0}, at2 = {0};
    dc_sim_at(sim, 1.0 * 3600.0, look_whole, &at1, 0);
    dc_sim_at(sim, 2.2 * 3600.0, look_whole, &at2, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  at 1 h: A on %lld, B on %lld, C on %lld; at 2.2 h: C on %lld, D on %lld\n", (long long)at1.a,
           (long long)at1.b, (long long)at1.c, (long long)at2.c, (long long)at2.d);
    CU_ASSERT(at1.a >= 0 && at1.b >= 0 && at1.a != at1.b);
    CU_ASSERT_EQUAL(at1.c, -1); /* waiting, not on A's node */
    CU_ASSERT_EQUAL(at2.c, at1.b);
    CU_ASSERT_EQUAL(at2.d, at1.a);
    /* waits: A 0, B 0, C 0.9 h, D 0: mean 0.225 h; A ends last, at 10 h */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.9 / 4.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 10.0, 1e-9);
    dc_sim_destroy(sim);
}

static void test_best_fit(void)
{
    /* 3 nodes.  X (6 GPUs) and Y (3: not in X's 2 free) at 0 open two
     * nodes; Z (2) at 0.1 h goes to X's node (2 free) rather than Y's (5);
     * W (5) at 0.2 h fills Y's node; the third node stays idle. */
    static const char cfg[] = "horizon_days = 1.0; stop_when_done = true;\n"
                              "cluster = { nodes = 3; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "jobs = ( { name = \"X\"; gpus = 6; work_gpu_h = 6.0; restart_s = 0.0; },\n"
                              "  { name = \"Y\"; gpus = 3; work_gpu_h = 3.0; restart_s = 0.0; },\n"
                              "  { name = \"Z\"; gpus = 2; work_gpu_h = 2.0; start_h = 0.1; restart_s = 0.0; },\n"
                              "  { name = \"W\"; gpus = 5; work_gpu_h = 5.0; start_h = 0.2; restart_s = 0.0; } );\n";
    dc_sim *sim = build_text(cfg, "fit.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    whole_seen at = {0};
    dc_sim_at(sim, 0.5 * 3600.0, look_whole, &at, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  X on %lld, Y on %lld, Z on %lld, W on %lld\n", (long long)at.a, (long long)at.b, (long long)at.c,
           (long long)at.d);
    CU_ASSERT(at.a >= 0 && at.b >= 0 && at.a != at.b);
    CU_ASSERT_EQUAL(at.c, at.a);
    CU_ASSERT_EQUAL(at.d, at.b);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.0, 0);
    /* held GPU-h: each job's GPUs x 1 h */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed_gpu_h"), 16.0, 1e-9);
    dc_sim_destroy(sim);
}

/* The job group too: job.gpus = 2 on 2 nodes of 8 runs its 10 GPU-h in
 * 5 h on its share; the rest of the cluster, 2 x 8 x 5 - 10 GPU-h, idles. */
static void test_job_group(void)
{
    dc_sim *sim = build_text("horizon_days = 2.0; stop_when_done = true;\n"
                             "cluster = { nodes = 2; gpus_per_node = 8; };\n"
                             "job = { gpus = 2; work_gpu_h = 10.0; restart_s = 0.0; };\n",
                             "group.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.gpus"), 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 5.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 10.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 70.0, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- the ITP-like effect ---------- */

/* tests/itp_small.csv, in the ITP layout: 64 jobs of 1 GPU at 0 and 4 of
 * 8 GPUs at 10 h, each running 2 h, on 4 nodes of 8 GPUs.  Shared: 32 of
 * the small jobs start at 0, 32 at 2 h, the large ones at 10 h on an empty
 * cluster: mean wait 32 x 2 / 68 h; the jobs hold exactly the GPU-hours
 * they use, 64 x 2 + 4 x 8 x 2 = 192.  Whole nodes (each job takes
 * ceil(g / 8) = 1 node, as traces were mapped before): 4 jobs at a time,
 * the small ones in 16 waves (waits 2 x 0..15 h), the large ones queued
 * behind them until 32 h (wait 22 h): mean (64 x 15 + 4 x 22) / 68 h; they
 * hold 68 x 8 x 2 = 1,088 GPU-hours for the same 192 used. */
static void test_itp_like(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        CU_FAIL("DCSIM_SRCDIR is not set (run through make check)");
        return;
    }
    char cfg[2048];
    snprintf(cfg, sizeof cfg,
             "horizon_days = 5.0; stop_when_done = true;\n"
             "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
             "scheduler = { backfill = true; };\n"
             "jobs = ( { name = \"itp\"; restart_s = 0.0;\n"
             "  trace = { file = \"%s/tests/itp_small.csv\"; format = \"csv\"; time_unit = \"s\";\n"
             "    columns = { submit = \"submission_time\"; duration = \"duration\"; gpus = \"num_gpu\";\n"
             "                name = \"job_id\"; }; }; } );\n",
             src);
    dc_sim *sim = build_text(cfg, "itp.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double held = dc_simrun_fig(sim, "jobs.completed_gpu_h"), used = dc_simrun_fig(sim, "gpu_hours.useful");
    double wait = dc_simrun_fig(sim, "jobs.wait_mean_h");

    /* the same jobs mapped to whole nodes */
    char path[512];
    snprintf(path, sizeof path, "%s/whole.csv", tmpdir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n");
    for (int i = 0; i < 64; i++)
        fprintf(f, "0,1,16,0,,,\n");
    for (int i = 0; i < 4; i++)
        fprintf(f, "10,1,16,0,,,\n");
    fclose(f);
    dc_sim *w = build_text("horizon_days = 5.0; stop_when_done = true;\n"
                           "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                           "scheduler = { backfill = true; };\n"
                           "jobs = ( { name = \"w\"; restart_s = 0.0; trace = \"whole.csv\"; } );\n",
                           "whole_itp.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    w = dc_simrun_run(w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    double w_held = dc_simrun_fig(w, "jobs.completed_gpu_h"), w_wait = dc_simrun_fig(w, "jobs.wait_mean_h");
    printf("\n  shared: held %.1f GPU-h for %.1f used, mean wait %.3f h; whole nodes: held %.1f, wait %.3f h\n", held,
           used, wait, w_held, w_wait);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 68, 0);
    CU_ASSERT_DOUBLE_EQUAL(held, 192.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(used, 192.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(wait, 64.0 / 68.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w_held, 1088.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(w_wait, (64.0 * 15.0 + 4.0 * 22.0) / 68.0, 1e-9);
    double cap = 0, gap = breakdown_gap(sim, &cap);
    CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
    dc_sim_destroy(sim);
    dc_sim_destroy(w);
}

/* ---------- the breakdown with everything on ---------- */

static void test_breakdown_mixed(void)
{
    static const char cfg[] =
        "horizon_days = 10.0; stop_when_done = false;\n"
        "cluster = { nodes = 60; spare_nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "checkpoint = { interval_s = 3600.0; size_gb = 10.0; write_gb_per_s = 2.0; };\n"
        "scheduler = { pools = ( { name = \"main\"; nodes = 44; }, { name = \"spot\"; spot = true;\n"
        "  reclaim_per_node_day = 2.0; } );\n"
        "  quotas = ( { user = \"u\"; max_nodes = 20; } ); };\n"
        "jobs = ( { name = \"small\"; user = \"u\"; pool = \"main\"; count = 1500;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 0.1; }; gpus_min = 1; gpus_max = 16;\n"
        "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; }; },\n"
        "  { name = \"big\"; pool = \"main\"; priority = 5; count = 60; max_run_h = 12.0;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 4.0; }; nodes_min = 2; nodes_max = 16;\n"
        "  duration = { law = \"lognormal\"; median_h = 4.0; sigma = 0.5; }; },\n"
        "  { name = \"s\"; pool = \"spot\"; preemptible = true; kind = \"batch_inference\"; count = 600;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 0.4; }; gpus_min = 1; gpus_max = 8;\n"
        "  duration = { law = \"exponential\"; mean_h = 3.0; }; } );\n"
        "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 500.0; },\n"
        "  { name = \"sw\"; per = \"job_gpu\"; mtbf_h = 5000.0; } );\n"
        "repair = { crews = 2; law = \"lognormal\"; median_h = 4.0; sigma = 1.0; };\n";
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = build_text(cfg, "mixed.cfg", seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double cap = 0, gap = breakdown_gap(sim, &cap);
        printf("\n  seed %lld: breakdown - capacity %.3g of %.1f GPU-h; %.0f interruptions, %.0f preemptions, "
               "%.0f reclaims; idle %.1f GPU-h",
               (long long)seed, gap, cap, dc_simrun_fig(sim, "jobs.interruptions"),
               dc_simrun_fig(sim, "jobs.preemptions"), dc_simrun_fig(sim, "pool.spot.reclaims"),
               dc_simrun_fig(sim, "gpu_hours.idle_spare"));
        CU_ASSERT(cap > 0);
        CU_ASSERT_DOUBLE_EQUAL(gap, 0.0, 1e-9 * cap);
        CU_ASSERT(dc_simrun_fig(sim, "jobs.interruptions") > 0);
        CU_ASSERT(dc_simrun_fig(sim, "pool.spot.reclaims") > 0);
        /* the pools' per-pool lines sum to the cluster's, line by line */
        double useful = dc_simrun_fig(sim, "pool.main.gpu_hours.useful") + dc_simrun_fig(sim, "pool.spot.gpu_hours.useful");
        CU_ASSERT_DOUBLE_EQUAL(useful, dc_simrun_fig(sim, "gpu_hours.useful"), 1e-9 * cap);
        dc_scheduler *sch = dc_scheduler_of(sim);
        for (int p = 0; p < dc_sched_pool_count(sch); p++)
            CU_ASSERT_EQUAL(dc_sched_pool_idle(sch, p), dc_sched_pool_idle_recount(sch, p));
        CU_ASSERT(dc_sched_racks_consistent(sch));
        /* the jobs' held GPUs are the busy GPUs, and each shared node's
         * jobs use what it does not have free */
        dc_cluster *c = dc_cluster_of(sim);
        uint64_t held = 0;
        bool nodes_agree = true;
        for (uint32_t n = 0; n < dc_cluster_node_count(c); n++) {
            if (!dc_cluster_node_shared(c, n))
                continue;
            uint32_t used = 0;
            for (int32_t j = dc_cluster_node_job(c, n); j >= 0; j = dc_cluster_node_next_job(c, n, j))
                used += dc_cluster_node_holds(c, n, j) ? dc_cluster_job_gpus_per_node(c, j) : 1000;
            nodes_agree &= used + dc_cluster_node_free_gpus(c, n) == dc_cluster_gpus_per_node(c);
        }
        CU_ASSERT(nodes_agree);
        for (uint32_t j = 0; j < dc_cluster_job_count(c); j++)
            held += dc_cluster_job_held_gpus(c, (int32_t)j);
        CU_ASSERT_EQUAL(held, dc_cluster_busy_gpus(c));
        dc_sim_destroy(sim);
    }
    printf("\n");
}

/* ---------- bad input ---------- */

static void test_bad_input(void)
{
    const char *dcsim = getenv("DCSIM");
    if (!dcsim) {
        CU_FAIL("DCSIM is not set (run through make check)");
        return;
    }
    const char *f1[] = {"bad.cfg:4", "jobs.[0].gpus", "nodes or gpus, not both"};
    dc_test_bad_run(tmpdir, "nodes and gpus",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { nodes = 1; work_gpu_h = 1.0;\n"
                    " gpus = 2; } );\n",
                    NULL, f1, 3);
    const char *f2[] = {"bad.cfg:4", "gpus_min", "not both"};
    dc_test_bad_run(tmpdir, "stream sizes in nodes and gpus",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { count = 3; nodes_min = 1;\n"
                    " gpus_min = 2; interarrival = { law = \"exponential\"; mean_h = 1.0; };\n"
                    " duration = { law = \"exponential\"; mean_h = 1.0; }; } );\n",
                    NULL, f2, 3);
    const char *f4[] = {"bad.cfg:3", "job.gpus", "nodes or gpus, not both"};
    dc_test_bad_run(tmpdir, "job group: nodes and gpus",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 1; gpus = 2; work_gpu_h = 1.0; };\n",
                    NULL, f4, 3);
    const char *f5[] = {"bad.cfg:3", "job", "needs nodes or gpus"};
    dc_test_bad_run(tmpdir, "job group: no size",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { work_gpu_h = 1.0; };\n", NULL, f5, 3);
    const char *f3[] = {"t.csv:3", "gpus", "GPUs >= 1"};
    char csv[512];
    snprintf(csv, sizeof csv, "%s/t.csv", tmpdir);
    dc_test_write_text(csv, "arrival_h,gpus,work_gpu_h,priority,pool,user,kind\n0,1,2,0,,,\n1,0.5,2,0,,,\n");
    dc_test_bad_run(tmpdir, "a fraction of a GPU",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"t.csv\"; } );\n", NULL, f3,
                    3);
}

static int register_suites(void)
{
    DC_TEST_SUITE("share", {"eight 1-GPU jobs fit on one 8-GPU node", test_eight_on_one_node},
                  {"a node failure interrupts all eight", test_failure_interrupts_all},
                  {"a straggler slows every job on its shared node (closed form)", test_straggler_on_shared},
                  {"silent corruption of a shared node rolls back all eight (by hand)", test_sdc_on_shared},
                  {"a corruption found after its job's end still takes the node down", test_sdc_after_end},
                  {"a whole-node job is not placed on a node with a share", test_whole_not_on_shared},
                  {"best fit: the partly used node with the fewest free GPUs", test_best_fit},
                  {"the job group's gpus: a share, closed form", test_job_group},
                  {"ITP-like trace: held == used, the wait falls (closed forms)", test_itp_like},
                  {"breakdown sums to capacity with shares, failures, spot", test_breakdown_mixed},
                  {"bad input: file, line, key, status 2", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("share", tmpdir, sizeof tmpdir, register_suites);
}
