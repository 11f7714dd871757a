/* Tests: the scheduler and job streams (EASY reservations, quotas, preemption, streams).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The scheduler (scheduler.h) and job streams (jobspec.h):
 * - EASY: on random streams with exact run-time estimates, every
 *   reservation the scheduler logs equals one recomputed from the log (the
 *   running jobs' ends and sizes), and the queue head never starts after
 *   its shadow time;
 * - a hand-worked schedule with and without backfilling;
 * - priorities and the preemption order (preemptible first, then lowest
 *   priority; a higher priority is never evicted);
 * - quotas never exceeded, at every start, and reached;
 * - spot reclaims within a 99% Poisson interval of rate x exposure;
 * - the GPU-hour breakdown sums to the capacity with many jobs, preemption,
 *   spot and a service;
 * - bad input through the dcsim program: file and line, exit status 2. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "badinput.h"
#include "cluster.h"
#include "registry.h"
#include "simrun.h"
#include "workload/scheduler.h"
#include "testutil.h"

#define Z99 2.5758293035489

static char tmpdir[256];

/* The scenario as a file in tmpdir, so that its traces resolve beside it. */
static dc_sim *run_text(const char *text, const char *name, int64_t seed)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    dc_test_write_text(path, text);
    return dc_simrun_file(path, NULL, 0, seed);
}

/* ---------- EASY against a recomputed reservation ---------- */

typedef struct run_rec {
    int32_t job, nodes;
    double est_end;
} run_rec;

static int cmp_end(const void *a, const void *b)
{
    double x = ((const run_rec *)a)->est_end, y = ((const run_rec *)b)->est_end;
    return x < y ? -1 : x > y;
}

static const char easy_cfg[] =
    "horizon_days = 60.0; stop_when_done = true; trace = { events = true; };\n"
    "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "scheduler = { backfill = true; preemption = false; };\n"
    "jobs = ( { name = \"r\"; count = 400; restart_s = 60.0;\n"
    "  interarrival = { law = \"exponential\"; mean_h = 1.6; };\n"
    "  nodes_min = 1; nodes_max = 64;\n"
    "  duration = { law = \"lognormal\"; median_h = 3.0; sigma = 1.0; }; } );\n";

static void test_easy(void)
{
    size_t n_reserve = 0, n_backfilled = 0, n_checked_heads = 0;
    for (int64_t seed = 1; seed <= 5; seed++) {
        dc_sim *sim = run_text(easy_cfg, "easy.cfg", seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
        size_t n = dc_eventlog_count(dc_sim_eventlog(sim));
        run_rec running[512];
        size_t nr = 0;
        double shadow_of[512];
        double start_of[512];
        for (int k = 0; k < 512; k++)
            shadow_of[k] = INFINITY, start_of[k] = NAN;
        long busy = 0;
        bool ok_avail = true, ok_shadow = true;
        int32_t last_head = -1;
        for (size_t i = 0; i < n; i++) {
            const dc_eventlog_row *r = &rows[i];
            if (strcmp(r->kind, "job_start") == 0) {
                running[nr++] = (run_rec){r->job, r->id, r->value};
                busy += r->id;
                start_of[r->job] = r->time_s;
                if (last_head >= 0 && r->job != last_head && isnan(start_of[last_head]))
                    n_backfilled++;
            } else if (strcmp(r->kind, "job_release") == 0) {
                for (size_t k = 0; k < nr; k++)
                    if (running[k].job == r->job) {
                        busy -= running[k].nodes;
                        running[k] = running[--nr];
                        break;
                    }
            } else if (strcmp(r->kind, "reserve") == 0) {
                n_reserve++;
                last_head = r->job;
                long avail = 64 - busy;
                ok_avail = ok_avail && avail == r->id;
                /* the head's size: from its queued row */
                int32_t need = -1;
                for (size_t q = 0; q < i; q++)
                    if (strcmp(rows[q].kind, "job_queued") == 0 && rows[q].job == r->job)
                        need = rows[q].id;
                run_rec sorted[512];
                memcpy(sorted, running, nr * sizeof *sorted);
                qsort(sorted, nr, sizeof *sorted, cmp_end);
                double shadow = INFINITY;
                long cum = avail;
                for (size_t k = 0; k < nr; k++) {
                    cum += sorted[k].nodes;
                    if (cum >= need) {
                        shadow = sorted[k].est_end > r->time_s ? sorted[k].est_end : r->time_s;
                        break;
                    }
                }
                ok_shadow = ok_shadow && fabs(shadow - r->value) <= 1e-6 * (1.0 + fabs(shadow));
                if (r->value < shadow_of[r->job])
                    shadow_of[r->job] = r->value;
            }
        }
        CU_ASSERT(ok_avail);
        CU_ASSERT(ok_shadow);
        bool ok_start = true;
        for (int k = 0; k < 512; k++)
            if (isfinite(shadow_of[k])) {
                n_checked_heads++;
                if (!(start_of[k] <= shadow_of[k] + 1e-6)) {
                    ok_start = false;
                    fprintf(stderr, "\n  seed %lld: head %d reserved for %.1f s started at %.1f s",
                            (long long)seed, k, shadow_of[k], start_of[k]);
                }
            }
        CU_ASSERT(ok_start);
        dc_sim_destroy(sim);
    }
    printf("\n  %zu reservations recomputed, %zu heads started by their shadow time, %zu jobs started past a "
           "blocked head\n",
           n_reserve, n_checked_heads, n_backfilled);
    /* the test must exercise backfilling, not just FIFO */
    CU_ASSERT(n_reserve > 50);
    CU_ASSERT(n_backfilled > 20);
}

/* ---------- a hand-worked schedule ---------- */

/* 4 nodes of 8 GPUs, restart 0.  J0: 2 nodes 1 h; J1: 4 nodes 1 h; J2: 2
 * nodes 0.5 h; J3: 1 node 3 h; all at 0.  EASY: J0 at 0; J1 blocked,
 * shadow 1 h, extra 0; J2 ends at 0.5 <= 1 h: backfilled at 0; J3 (1 node,
 * 3 h) ends past the shadow and there is no extra: waits; J1 at 1 h; J3 at
 * 2 h.  Without backfilling J2 and J3 start at 2 h. */
static const char hand_csv[] = "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n"
                               "0,2,16,0,,,training\n"
                               "0,4,32,0,,,training\n"
                               "0,2,8,0,,,evaluation\n"
                               "0,1,24,0,,,batch_inference\n";

static void starts(dc_sim *sim, double *t)
{
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++)
        if (strcmp(rows[i].kind, "job_start") == 0 && rows[i].job >= 0 && rows[i].job < 4)
            t[rows[i].job] = rows[i].time_s / 3600.0;
}

static void test_hand_schedule(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/hand.csv", tmpdir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(hand_csv, f);
    fclose(f);
    static const char cfg[] = "horizon_days = 1.0; trace = { events = true; };\n"
                              "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "scheduler = { backfill = %s; };\n"
                              "jobs = ( { name = \"h\"; trace = \"hand.csv\"; restart_s = 0.0; } );\n";
    char text[1024];
    double t[4] = {NAN, NAN, NAN, NAN};
    snprintf(text, sizeof text, cfg, "true");
    dc_sim *sim = run_text(text, "hand.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    starts(sim, t);
    printf("\n  EASY: starts %.2f %.2f %.2f %.2f h (expected 0 1 0 2)", t[0], t[1], t[2], t[3]);
    CU_ASSERT_DOUBLE_EQUAL(t[0], 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[2], 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[3], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 4.0, 0);
    /* waits 0, 1, 0, 2 h: mean 0.75 h; the last job ends at 5 h */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.75, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 5.0, 1e-9);
    /* busy node-hours 2 + 4 + 1 + 3 = 10 of 4 x 5 */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cluster.utilisation"), 10.0 / 20.0, 1e-9);
    dc_sim_destroy(sim);

    snprintf(text, sizeof text, cfg, "false");
    sim = run_text(text, "hand.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    starts(sim, t);
    printf("\n  FIFO: starts %.2f %.2f %.2f %.2f h (expected 0 1 2 2)\n", t[0], t[1], t[2], t[3]);
    CU_ASSERT_DOUBLE_EQUAL(t[0], 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[2], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[3], 2.0, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- the pool's busy series after failures ---------- */

/* A job on every node with no spare and no repair: each failed node leaves
 * the pool's held count, and /series/pool.default.busy must follow it (it
 * stayed at the job's full size while the job waited: issue 18 item 12).
 * At the end its last value is the number of nodes jobs hold. */
static void test_busy_after_failures(void)
{
    static const char cfg[] = "horizon_days = 2.0;\n"
                              "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "job = { name = \"j\"; nodes = 4; work_gpu_h = 1e6; restart_s = 60.0; };\n"
                              "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 40.0; } );\n";
    dc_sim *sim = run_text(cfg, "busy.cfg", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_series *busy = dc_sim_series(sim, "pool.default.busy", "nodes", "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(busy);
    size_t n = dc_series_length(busy);
    CU_ASSERT_FATAL(n > 0);
    dc_cluster *c = dc_cluster_of(sim);
    double held = 0;
    for (uint32_t i = 0; i < dc_cluster_node_count(c); i++)
        held += dc_cluster_node_job(c, i) >= 0;
    double failures = dc_simrun_fig(sim, "failures.total");
    printf("\n  %.0f failures; busy at the end %.0f, nodes held %.0f\n", failures, dc_series_values(busy)[n - 1], held);
    CU_ASSERT(failures >= 1); /* 4 nodes x 48 h / 40 h: P(none) = e^-4.8 */
    CU_ASSERT(held < 4);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_values(busy)[n - 1], held, 0);
    dc_sim_destroy(sim);
}

/* ---------- priorities and preemption ---------- */

/* 8 nodes.  At 0: A (prio 0, 4 nodes), B (prio 0, preemptible, 2), C (prio 1,
 * 2) fill the cluster.  At 1 h: D (prio 5, 6 nodes) must evict B (preemptible
 * first) then A (lowest priority), not C.  At 1.5 h: E (prio 0, 2 nodes)
 * and F (prio 3, 2 nodes) queue; F ranks first and evicts C (prio 1 < 3),
 * never D (prio 5); E waits.  No checkpoints: each evicted job loses all it
 * computed (A 4 x 1 h, B 2 x 1 h, C 2 x 1.5 h, x 8 GPUs = 72 GPU-h). */
static void test_preemption_order(void)
{
    static const char cfg[] =
        "horizon_days = 3.0; trace = { events = true; };\n"
        "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { backfill = true; preemption = true; };\n"
        "jobs = (\n"
        "  { name = \"A\"; nodes = 4; work_gpu_h = 320.0; priority = 0; restart_s = 0.0; },\n"
        "  { name = \"B\"; nodes = 2; work_gpu_h = 160.0; priority = 0; preemptible = true; restart_s = 0.0; },\n"
        "  { name = \"C\"; nodes = 2; work_gpu_h = 160.0; priority = 1; restart_s = 0.0; },\n"
        "  { name = \"D\"; nodes = 6; work_gpu_h = 48.0; priority = 5; start_h = 1.0; restart_s = 0.0; },\n"
        "  { name = \"E\"; nodes = 2; work_gpu_h = 16.0; priority = 0; start_h = 1.5; restart_s = 0.0; },\n"
        "  { name = \"F\"; nodes = 2; work_gpu_h = 16.0; priority = 3; start_h = 1.5; restart_s = 0.0; }\n"
        ");\n";
    dc_sim *sim = run_text(cfg, "prio.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    int32_t order[8];
    int n_pre = 0;
    double start_d = NAN, start_e = NAN, start_f = NAN;
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++) {
        if (strcmp(rows[i].kind, "preempt") == 0 && n_pre < 8)
            order[n_pre++] = rows[i].job;
        if (strcmp(rows[i].kind, "job_start") == 0) {
            double th = rows[i].time_s / 3600.0;
            if (rows[i].job == 3 && isnan(start_d))
                start_d = th;
            if (rows[i].job == 4 && isnan(start_e))
                start_e = th;
            if (rows[i].job == 5 && isnan(start_f))
                start_f = th;
        }
    }
    printf("\n  evicted %d: %d %d; D started at %.3f h, F at %.3f h, E at %.3f h\n", n_pre, n_pre > 0 ? order[0] : -1,
           n_pre > 1 ? order[1] : -1, start_d, start_f, start_e);
    CU_ASSERT_EQUAL_FATAL(n_pre, 3);
    CU_ASSERT_EQUAL(order[0], 1); /* B: preemptible first */
    CU_ASSERT_EQUAL(order[1], 0); /* A: lowest priority next, C (prio 1) kept */
    CU_ASSERT_EQUAL(order[2], 2); /* C, for F (prio 3); D (prio 5) never */
    CU_ASSERT_DOUBLE_EQUAL(start_d, 1.0, 1e-9); /* no checkpoint: the nodes come back at once */
    CU_ASSERT_DOUBLE_EQUAL(start_f, 1.5, 1e-9);
    CU_ASSERT(start_f < start_e);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.preemptions"), 3.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), (4 * 1.0 + 2 * 1.0 + 2 * 1.5) * 8, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 6.0, 0);
    dc_sim_destroy(sim);
}

/* 4 nodes.  A (prio 0, 4 nodes, 10 h of work, checkpoints every 20 h of
 * 60 s writes) runs from 0; B (prio 5, 4 nodes, 1 h) arrives at 2 h: A
 * writes a checkpoint (60 s) and leaves with nothing lost; B starts at
 * 2 h + 60 s; A resumes when B is done (restart 0) and finishes its work.
 * C (1 node, 2 h of work, max_run_h = 1, no checkpoint) in a second run is
 * ended at 1 h with its hour lost. */
static void test_checkpoint_and_limit(void)
{
    static const char cfg[] =
        "horizon_days = 2.0; trace = { events = true; };\n"
        "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "jobs = (\n"
        "  { name = \"A\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; checkpoint = true;\n"
        "    checkpoint_interval_s = 72000.0; checkpoint_write_s = 60.0; },\n"
        "  { name = \"B\"; nodes = 4; work_gpu_h = 32.0; priority = 5; start_h = 2.0; restart_s = 0.0; }\n"
        ");\n";
    dc_sim *sim = run_text(cfg, "ckpt.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    double start_b = NAN;
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++)
        if (strcmp(rows[i].kind, "job_start") == 0 && rows[i].job == 1)
            start_b = rows[i].time_s;
    CU_ASSERT_DOUBLE_EQUAL(start_b, 7200.0 + 60.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.preemptions"), 1.0, 0);
    /* A: 10 h of work + one 60 s write; B: 1 h in between */
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 11 * 3600.0 + 60.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.checkpoint"), 4 * 8 * 60.0 / 3600.0, 1e-9);
    dc_sim_destroy(sim);

    static const char cfg2[] = "horizon_days = 1.0; trace = { events = true; };\n"
                               "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                               "jobs = ( { name = \"C\"; nodes = 1; work_gpu_h = 16.0; max_run_h = 1.0; restart_s = 0.0; } );\n";
    sim = run_text(cfg2, "limit.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.timed_out"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 8.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 3600.0, 1e-6); /* all jobs ended: the run stops */
    dc_sim_destroy(sim);

    /* D does not checkpoint, in a scenario whose checkpoint group gives no
     * size (an automatic interval, a write time of 0): D's write time is not
     * checked.  Before, the start refused the run ("job "D": a checkpoint
     * written in 0 s ... is below the minimum"): bench/combos.sh, on
     * compare/lending.cfg --set 'jobs.[0].checkpoint=false' --set
     * checkpoint.snapshot_gb_per_s=8833.28. */
    static const char cfg3[] = "horizon_days = 1.0;\n"
                               "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                               "checkpoint = { snapshot_gb_per_s = 100.0; };\n"
                               "jobs = ( { name = \"D\"; nodes = 1; work_gpu_h = 8.0; checkpoint = false; restart_s = 0.0; } );\n";
    sim = run_text(cfg3, "nockpt.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.checkpoint"), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 3600.0, 1e-6);
    dc_sim_destroy(sim);
}

/* ---------- quotas ---------- */

static void test_quotas(void)
{
    static const char cfg[] =
        "horizon_days = 30.0; trace = { events = true; };\n"
        "cluster = { nodes = 32; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { quotas = ( { user = \"a\"; max_nodes = 10; }, { user = \"b\"; max_nodes = 6; } ); };\n"
        "jobs = (\n"
        "  { name = \"a\"; user = \"a\"; count = 150; interarrival = { law = \"exponential\"; mean_h = 0.2; };\n"
        "    nodes_min = 1; nodes_max = 8; duration = { law = \"exponential\"; mean_h = 2.0; }; },\n"
        "  { name = \"b\"; user = \"b\"; count = 150; interarrival = { law = \"exponential\"; mean_h = 0.2; };\n"
        "    nodes_min = 1; nodes_max = 4; duration = { law = \"exponential\"; mean_h = 2.0; }; }\n"
        ");\n";
    dc_sim *sim = run_text(cfg, "quota.cfg", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.submitted"), 300.0, 0);
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    int32_t size[300] = {0};
    long used[2] = {0, 0}, peak[2] = {0, 0};
    bool ok = true;
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++) {
        const dc_eventlog_row *r = &rows[i];
        if (r->job < 0 || r->job >= 300)
            continue;
        int u = r->job < 150 ? 0 : 1;
        if (strcmp(r->kind, "job_start") == 0) {
            size[r->job] = r->id;
            used[u] += r->id;
            if (used[u] > peak[u])
                peak[u] = used[u];
            ok = ok && used[0] <= 10 && used[1] <= 6;
        } else if (strcmp(r->kind, "job_release") == 0) {
            used[u] -= size[r->job];
        }
    }
    printf("\n  peak nodes held: a %ld (quota 10), b %ld (quota 6)\n", peak[0], peak[1]);
    CU_ASSERT(ok);
    /* the quotas bind: the offered loads (a: 5 x 3.75 x 2 = 37 nodes) exceed them */
    CU_ASSERT(peak[0] >= 9 && peak[1] >= 5);
    dc_sim_destroy(sim);
}

/* ---------- spot reclaims ---------- */

static void test_spot_rate(void)
{
    static const char cfg[] =
        "horizon_days = 200.0; stop_when_done = false; trace = { events = false; };\n"
        "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { pools = ( { name = \"main\"; nodes = 32; },\n"
        "  { name = \"spot\"; spot = true; reclaim_per_node_day = 0.2; notice_s = 120.0; reclaim_h = 12.0; } ); };\n"
        "checkpoint = { interval_s = 3600.0; size_gb = 100.0; write_gb_per_s = 2.0; };\n"
        "jobs = ( { name = \"s\"; pool = \"spot\"; preemptible = true; count = 3000;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 1.0; }; nodes_min = 1; nodes_max = 8;\n"
        "  duration = { law = \"exponential\"; mean_h = 4.0; }; } );\n";
    double total = 0, mu_total = 0;
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = run_text(cfg, "spot.cfg", seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double n = dc_simrun_fig(sim, "pool.spot.reclaims");
        double exposure_days = dc_simrun_fig(sim, "pool.spot.exposure_node_h") / 24.0;
        double mu = 0.2 * exposure_days;
        printf("\n  seed %lld: %.0f reclaims, expected %.1f +- %.1f (99%%); %.0f evictions", (long long)seed, n, mu,
               Z99 * sqrt(mu), dc_simrun_fig(sim, "pool.spot.preemptions"));
        CU_ASSERT(fabs(n - mu) <= Z99 * sqrt(mu));
        CU_ASSERT(dc_simrun_fig(sim, "pool.spot.preemptions") > 0);
        /* the reclaimed node-time is in the breakdown */
        CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.spot_reclaimed") > 0);
        total += n;
        mu_total += mu;
        dc_sim_destroy(sim);
    }
    printf("\n");
    /* reclaimed nodes are away ~12 h: exposure well below all node-time */
    CU_ASSERT(mu_total < 0.2 * 32 * 200 * 3);
    CU_ASSERT(total > 0);
}

/* ---------- the breakdown with everything at once ---------- */

static void test_breakdown(void)
{
    static const char cfg[] =
        "horizon_days = 10.0; stop_when_done = false; trace = { events = true; };\n"
        "cluster = { nodes = 96; spare_nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { name = \"big\"; nodes = 32; work_gpu_h = 1e6; restart_s = 600.0; priority = 10; pool = \"train\"; };\n"
        "checkpoint = { interval_s = \"auto\"; size_gb = 100.0; write_gb_per_s = 2.0; };\n"
        "scheduler = { pools = ( { name = \"train\"; nodes = 60; }, { name = \"spot\"; nodes = 20; spot = true;\n"
        "  reclaim_per_node_day = 1.0; }, { name = \"other\"; } );\n"
        "  quotas = ( { user = \"r\"; max_nodes = 40; } ); };\n"
        "jobs = ( { name = \"r\"; user = \"r\"; pool = \"train\"; count = 300; max_run_h = 10.0;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 0.5; }; nodes_min = 1; nodes_max = 16;\n"
        "  duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; }; },\n"
        "  { name = \"s\"; pool = \"spot\"; preemptible = true; kind = \"batch_inference\"; count = 200;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 1.0; }; nodes_min = 1; nodes_max = 4;\n"
        "  duration = { law = \"exponential\"; mean_h = 3.0; }; } );\n"
        "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 2000.0; } );\n"
        "repair = { crews = 2; law = \"lognormal\"; median_h = 4.0; sigma = 1.0; };\n";
    dc_sim *sim = run_text(cfg, "mix.cfg", 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_summary *s = dc_sim_summary(sim);
    double cap = 0, sum = 0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strcmp(k, DC_BREAKDOWN_TOTAL) == 0)
            cap = dc_summary_value(s, i);
        else if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0)
            sum += dc_summary_value(s, i);
    }
    printf("\n  breakdown %.6f of capacity %.6f GPU-h; preemptions %.0f, interruptions %.0f\n", sum, cap,
           dc_simrun_fig(sim, "jobs.preemptions"), dc_simrun_fig(sim, "jobs.interruptions"));
    CU_ASSERT(cap > 0);
    CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-9 * cap);
    CU_ASSERT(dc_simrun_fig(sim, "jobs.preemptions") > 0);
    CU_ASSERT(dc_simrun_fig(sim, "jobs.interruptions") > 0);
    /* the scheduler's idle count agrees with the cluster at the end */
    dc_scheduler *sch = dc_scheduler_of(sim);
    for (int p = 0; p < dc_sched_pool_count(sch); p++)
        CU_ASSERT_EQUAL(dc_sched_pool_idle(sch, p), dc_sched_pool_idle_recount(sch, p));
    CU_ASSERT(dc_sched_racks_consistent(sch));
    dc_sim_destroy(sim);
}

/* ---------- the scheduler's work per event ---------- */

/* A queue of q jobs that cannot start (each wants the whole pool while one
 * long job holds a node), then 2,000 one-node jobs that backfill one after
 * the other: the scheduler's work (tree nodes, racks, loop steps:
 * dc_sched_work) per event while the queue builds (to 1.5 h) and over the
 * small jobs' events (after 1.5 h). */
typedef struct snap {
    dc_sim *sim;
    double work, events;
} snap;

static void take_snap(dc_sim *sim, void *ctx, uint64_t arg)
{
    snap *sn = ctx;
    (void)arg;
    sn->work = (double)dc_sched_work(dc_scheduler_of(sim));
    sn->events = (double)dc_sim_events_processed(sim);
}

static void sched_work(long q, double *building, double *backfilling)
{
    char path[512], cfgpath[512];
    snprintf(path, sizeof path, "%s/scale.csv", tmpdir);
    snprintf(cfgpath, sizeof cfgpath, "%s/scale.cfg", tmpdir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n");
    fprintf(f, "0,1,%.17g,0,,,\n", 8.0 * 5000.0); /* holds a node for 5,000 h */
    for (long i = 0; i < q; i++)
        fprintf(f, "%.17g,64,%.17g,0,,,\n", 0.001 + 1.0 * (double)i / (double)q, 64 * 8 * 1.0);
    for (int i = 0; i < 2000; i++)
        fprintf(f, "%.17g,1,%.17g,0,,,\n", 2.0 + 0.01 * i, 8 * 0.1);
    fclose(f);
    dc_test_write_text(cfgpath, "horizon_days = 30.0; stop_when_done = false;\n"
                                "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                                "scheduler = { backfill = true; preemption = true; };\n"
                                "jobs = ( { name = \"q\"; trace = \"scale.csv\"; restart_s = 0.0; } );\n");
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load_file(cfgpath, NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *sim = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_build(sc, 1, &sim, &err), DC_OK);
    snap at = {0};
    dc_sim_at(sim, 1.5 * 3600.0, take_snap, &at, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* the small jobs all ran (backfilled), none of the blocked ones */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 2000);
    double work = (double)dc_sched_work(dc_scheduler_of(sim)), events = (double)dc_sim_events_processed(sim);
    *building = at.work / at.events;
    *backfilling = (work - at.work) / (events - at.events);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    unlink(path);
}

static void test_work_bounded(void)
{
    double b1, b2, b3, w1, w2, w3;
    sched_work(1000, &b1, &w1);
    sched_work(10000, &b2, &w2);
    sched_work(100000, &b3, &w3);
    printf("\n  work per event of the backfilled jobs, queue of 1k / 10k / 100k: %.1f / %.1f / %.1f;"
           " per event while the queue builds: %.1f / %.1f / %.1f\n",
           w1, w2, w3, b1, b2, b3);
    /* O(log q) per event at most: log2(1e5) / log2(1e3) = 1.67; a rescan
     * of the queue at each event would grow it 100-fold */
    CU_ASSERT(w3 < 2.0 * w1);
    CU_ASSERT(w2 < 1.6 * w1);
    CU_ASSERT(b3 < 2.0 * b1);
}

/* ---------- what a queued job costs in memory ---------- */

/* Bytes in use at 1 h with n jobs of the whole cluster arrived by 0.6 h
 * (one runs, the others queue), power on (its per-job state). */
static double bytes_at_1h(long n)
{
    char cfg[2048];
    snprintf(cfg, sizeof cfg,
             "horizon_days = 0.1; stop_when_done = false;\n"
             "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
             "scheduler = { backfill = true; };\n"
             "jobs = ( { name = \"q\"; count = %ld; interarrival = { law = \"constant\"; mean_h = %.17g; };\n"
             "  nodes_min = 8; nodes_max = 8; duration = { law = \"constant\"; mean_h = 10.0; };\n"
             "  checkpoint_write_s = 30.0; } );\n"
             "power = { gpu = { idle_w = 75.0; peak_w = 700.0; }; node = { host_w = 2800.0; }; };\n",
             n, 0.6 / (double)n);
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(cfg, NULL, 0, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double bytes = 0.0;
    dc_sim_at(sim, 3600.0, dc_simrun_take_bytes, &bytes, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "jobs.started"), 1);
    dc_sim_destroy(sim);
    return bytes;
}

/* Issue 19 (real traces at real scale): a burst of queued jobs costs what
 * the scheduler needs to order and place them, not a job's full record
 * (about 1.9 KB, made at its first start) nor a row of speed factors per
 * job.  Before: 3,694 bytes a queued job here; with the record made at its
 * first start 1,710; with the shared row of speed factors 1,526. */
static void test_queued_bytes(void)
{
    double a = bytes_at_1h(2000), b = bytes_at_1h(6000);
    if (a == 0.0 && b == 0.0)
        return; /* no count (ASan) */
    double per_job = (b - a) / 4000.0;
    printf("\n  bytes in use per queued job: %.0f\n", per_job);
    CU_ASSERT(per_job > 0.0);
    CU_ASSERT(per_job < 1600.0);
}

/* A quota on a user whose name is longer than 31 characters holds (names
 * were once cut to 31 characters, and then never matched again), and the
 * many users of a trace register through the scheduler's hash table. */
static void test_long_user_quota(void)
{
    static const char cfg[] =
        "horizon_days = 20.0; stop_when_done = true;\n"
        "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { quotas = ( { user = \"a-research-team-with-a-rather-long-name-indeed\"; max_nodes = 4; } ); };\n"
        "jobs = ( { name = \"l\"; user = \"a-research-team-with-a-rather-long-name-indeed\"; count = 40; nodes_min = 2; nodes_max = 2;\n"
        "  kind = \"evaluation\"; interarrival = { law = \"constant\"; mean_h = 0.01; };\n"
        "  duration = { law = \"constant\"; mean_h = 1.0; }; restart_s = 0.0; } );\n";
    dc_sim *sim = run_text(cfg, "longuser.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* two jobs of 2 nodes at a time: 40 jobs of 1 h take 20 h, the pool 4/64 used */
    double util = dc_simrun_fig(sim, "cluster.utilisation"), end_h = dc_sim_now(sim) / 3600.0;
    printf("\n  utilisation %.5f (quota: at most %.5f), last job done at %.2f h\n", util, 4.0 / 64.0, end_h);
    CU_ASSERT(util <= 4.0 / 64.0 + 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(end_h, 20.0, 0.02);
    dc_scheduler *sch = dc_scheduler_of(sim);
    char name[40];
    int first = -1;
    for (int i = 0; i < 5000; i++) {
        snprintf(name, sizeof name, "user%d", i);
        int u = dc_sched_user(sch, name);
        if (i == 0)
            first = u;
        CU_ASSERT_FATAL(u >= 0);
    }
    CU_ASSERT_EQUAL(dc_sched_user(sch, "user0"), first);
    CU_ASSERT_EQUAL(dc_sched_user(sch, "a-research-team-with-a-rather-long-name-indeed"), 0);
    dc_sim_destroy(sim);
}

/* ---------- job-level failures over the jobs holding nodes ---------- */

/* 1,500 jobs of 1-8 nodes arrive over 60 days on 64 nodes (a few dozen
 * hold nodes at a time); a job_gpu class of mean 2,000 h per GPU.  Kept
 * failures must follow the GPU-time the jobs compute (a 99% Poisson
 * interval), and the class's arrivals must come from the jobs holding
 * nodes only: the events the class adds stay within a few per kept failure
 * (over every job defined, ~25 arrivals would be thinned away per kept one). */
static void test_job_failures_holding_only(void)
{
    static const char base[] =
        "horizon_days = 60.0; stop_when_done = true;\n"
        "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { backfill = true; preemption = false; };\n"
        "jobs = ( { name = \"e\"; kind = \"evaluation\"; count = 1500; restart_s = 120.0;\n"
        "  interarrival = { law = \"exponential\"; mean_h = 0.96; }; nodes_min = 1; nodes_max = 8;\n"
        "  duration = { law = \"lognormal\"; median_h = 4.0; sigma = 0.8; }; } );\n";
    char with[2048];
    snprintf(with, sizeof with, "%sfailures = ( { name = \"sw\"; per = \"job_gpu\"; mtbf_h = 2000.0; } );\n", base);
    dc_sim *a = run_text(with, "jf.cfg", 3);
    dc_sim *b = run_text(base, "jf0.cfg", 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    double kept = dc_simrun_fig(a, "failures.sw");
    /* computing GPU-time: useful work and the work lost to rollbacks */
    double computing = dc_simrun_fig(a, "gpu_hours.useful") + dc_simrun_fig(a, "gpu_hours.rollback");
    double expect = computing / 2000.0, half = Z99 * sqrt(expect);
    double extra_events = (double)dc_sim_events_processed(a) - (double)dc_sim_events_processed(b);
    printf("\n  %.0f job failures kept, expected %.1f +- %.1f (99%%); the class added %.0f events (%.1f per failure)\n",
           kept, expect, half, extra_events, extra_events / kept);
    CU_ASSERT(kept > 100);
    CU_ASSERT(fabs(kept - expect) <= half);
    CU_ASSERT(extra_events < 8.0 * kept);
    dc_sim_destroy(a);
    dc_sim_destroy(b);
}

/* ---------- bad input through the program ---------- */

typedef struct bad {
    const char *what, *cfg, *csv, *fragments[3];
} bad;

static const bad bad_inputs[] = {
    {"malformed trace row",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"t.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,1,2,0,,,training\n1.5,two,2,0,,,training\n",
     {"t.csv:3", "nodes", "two"}},
    {"missing field",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"t.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n\n0,1,2,0,,\n", {"t.csv:3", "6"}},
    {"unknown kind",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"t.csv\"; } );\n",
     "# a comment\narrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,1,2,0,,,inference\n", {"t.csv:3", "kind", "inference"}},
    {"rows out of order",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"t.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n2,1,2,0,,,\n1,1,2,0,,,\n", {"t.csv:3", "arrival_h", "sort"}},
    {"trace job larger than its pool",
     "horizon_days = 1.0;\ncluster = { nodes = 8; };\n"
     "scheduler = { pools = ( { name = \"a\"; nodes = 2; }, { name = \"b\"; } ); };\n"
     "jobs = ( { trace = \"t.csv\"; } );\n",
     "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n0,1,2,0,a,,\n0,3,2,0,a,,\n",
     {"t.csv:3", "3 nodes", "pool \"a\" has 2"}},
    {"missing trace", "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = \"none.csv\"; } );\n", NULL,
     {"bad.cfg:3", "none.csv"}},
    {"unknown pool", "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
                     "jobs = ( { nodes = 1; work_gpu_h = 1.0;\n pool = \"gpu\"; } );\n",
     NULL, {"bad.cfg:4", "jobs.[0].pool", "no pool \"gpu\""}},
    {"pools larger than the cluster", "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
                                      "scheduler = { pools = ( { name = \"a\"; nodes = 3; },\n { name = \"b\"; nodes = 3; } ); };\n",
     NULL, {"bad.cfg:4", "scheduler.pools.[1].nodes", "6 nodes"}},
};

static void test_bad_input(void)
{
    const char *dcsim = getenv("DCSIM");
    if (!dcsim) {
        CU_FAIL("DCSIM is not set (run through make check)");
        return;
    }
    for (size_t i = 0; i < sizeof bad_inputs / sizeof bad_inputs[0]; i++) {
        const bad *b = &bad_inputs[i];
        char csv[512];
        snprintf(csv, sizeof csv, "%s/t.csv", tmpdir);
        if (b->csv)
            dc_test_write_text(csv, b->csv);
        dc_test_bad_run(tmpdir, b->what, b->cfg, NULL, b->fragments, 3);
        unlink(csv);
    }
}

static int register_suites(void)
{
    DC_TEST_SUITE("scheduler", {"EASY: reservations recomputed, heads never late", test_easy},
                  {"a hand-worked schedule, with and without backfilling", test_hand_schedule},
                  {"priorities and the preemption order", test_preemption_order},
                  {"a preempted job checkpoints; time limits end jobs", test_checkpoint_and_limit},
                  {"quotas never exceeded (at every start)", test_quotas},
                  {"spot reclaims follow their rate (99% interval)", test_spot_rate},
                  {"GPU-hour breakdown sums to the capacity with everything on", test_breakdown},
                  {"scheduler work per event bounded as the queue grows 1k -> 100k", test_work_bounded},
                  {"job-level failures come from the jobs holding nodes", test_job_failures_holding_only},
                  {"a queued job's bytes (no record before its first start)", test_queued_bytes},
                  {"a quota on a long user name holds; many users", test_long_user_quota},
                  {"the busy series follows failures of held nodes", test_busy_after_failures},
                  {"bad input: file and line, status 2", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("sched", tmpdir, sizeof tmpdir, register_suites);
}
