/* Tests: virtual clusters that lend idle nodes to each other and reclaim them (scheduler.h, vcluster.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Virtual clusters against hand-worked schedules, and a trace replay:
 * - a borrowing pool's queue takes exactly the lender's idle nodes (and no
 *   more): starts, waits and lent/borrowed GPU-hours by hand, with and
 *   without lending;
 * - a lender's job reclaims exactly the nodes it needs: the youngest
 *   borrowed job at equal priority, the lowest priority first otherwise;
 *   the reclaimed job loses the work since its last checkpoint (here its
 *   start) and restarts when nodes free; with a notice it checkpoints on
 *   its way out and loses nothing; every GPU-hour account by hand, and
 *   `dcsim report --jobs` showing them per pool;
 * - a job borrowing from two lenders when neither alone has the nodes,
 *   reclaimed by one of them: every account by hand;
 * - lending off (keys absent, false, or a lender with no borrower): the
 *   summary bit-identical to the scenario without the keys;
 * - a synthetic two-VC trace (mapped CSV, columns.pool = "vc") whose load
 *   alternates between the VCs: lending lowers the mean wait by more than
 *   a third; the lending accounts agree with a recount of the cluster and
 *   the lent GPU-hours summed over the pools equal the borrowed ones; the
 *   GPU-hour breakdown still sums to the capacity, with failures;
 * - four pools with priorities, evictions, time limits, checkpoints, spot
 *   reclaims and failures: the accounts against recounts all along, with
 *   and without lending, every run to its horizon (no loop at an instant);
 * - the scheduler's work per event with lending and reclaims bounded as
 *   the queue grows from 1k to 100k jobs;
 * - a service in a lending pool reclaims its lent nodes when it needs them:
 *   its replica starts at once instead of when a borrower ends, the
 *   youngest borrowed job reclaimed; while the reclaimed job leaves (a
 *   notice) the pool lends nothing more; the four pools again with an
 *   autoscaled service in a lender, the accounts against recounts;
 * - bad input through the program (a spot pool that lends). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "badinput.h"
#include "cluster.h"
#include "registry.h"
#include "runner.h"
#include "simrun.h"
#include "testutil.h"
#include "workload/scheduler.h"

static char tmpdir[256];

static dc_sim *run_text(const char *text, const char *name, int64_t seed)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    dc_test_write_text(path, text);
    return dc_simrun_file(path, NULL, 0, seed);
}

/* First start time (h) of each of n jobs, and the eventlog rows of a kind. */
static void first_starts(dc_sim *sim, double *t, int n)
{
    for (int i = 0; i < n; i++)
        t[i] = NAN;
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++)
        if (strcmp(rows[i].kind, "job_start") == 0 && rows[i].job >= 0 && rows[i].job < n && isnan(t[rows[i].job]))
            t[rows[i].job] = rows[i].time_s / 3600.0;
}

static int kind_rows(dc_sim *sim, const char *kind, int32_t *jobs, double *times, int max)
{
    int k = 0;
    const dc_eventlog_row *rows = dc_eventlog_rows(dc_sim_eventlog(sim));
    for (size_t i = 0; i < dc_eventlog_count(dc_sim_eventlog(sim)); i++)
        if (strcmp(rows[i].kind, kind) == 0) {
            if (k < max) {
                jobs[k] = rows[i].job;
                times[k] = rows[i].time_s / 3600.0;
            }
            k++;
        }
    return k;
}

/* ---------- borrowing exactly the lender's idle nodes ---------- */

/* 8 nodes of 8 GPUs: A (4 nodes, lends, nothing of its own), B (4 nodes,
 * borrows).  Five jobs of B at 0, 2 nodes and 1 h each.  Lending: two run
 * on B, two on A's 4 idle nodes (no more: A has no more), the fifth waits
 * until 1 h: waits 0, 0, 0, 0, 1 h (mean 0.2 h), lent = borrowed = 2 jobs
 * x 2 nodes x 8 GPUs x 1 h = 32 GPU-h, B's own 2 x 2 x 8 + 16 = 48.  Without
 * lending: waits 0, 0, 1, 1, 2 h (mean 0.8 h); with lend_max_nodes = 2,
 * one borrows (mean 0.4 h). */
static void test_borrow_exact(void)
{
    static const char cfg[] =
        "horizon_days = 1.0; stop_when_done = true; trace = { events = true; };\n"
        "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "scheduler = { backfill = true; preemption = false;\n"
        "  pools = ( { name = \"A\"; nodes = 4; lend = %s; }, { name = \"B\"; nodes = 4; borrow = true; } ); };\n"
        "jobs = ( { name = \"b0\"; pool = \"B\"; nodes = 2; work_gpu_h = 16.0; restart_s = 0.0; },\n"
        "  { name = \"b1\"; pool = \"B\"; nodes = 2; work_gpu_h = 16.0; restart_s = 0.0; },\n"
        "  { name = \"b2\"; pool = \"B\"; nodes = 2; work_gpu_h = 16.0; restart_s = 0.0; },\n"
        "  { name = \"b3\"; pool = \"B\"; nodes = 2; work_gpu_h = 16.0; restart_s = 0.0; },\n"
        "  { name = \"b4\"; pool = \"B\"; nodes = 2; work_gpu_h = 16.0; restart_s = 0.0; } );\n";
    char text[2048];
    snprintf(text, sizeof text, cfg, "true");
    dc_sim *sim = run_text(text, "borrow.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double t[5];
    first_starts(sim, t, 5);
    printf("\n  lending: starts %.2f %.2f %.2f %.2f %.2f h, lent %.1f GPU-h", t[0], t[1], t[2], t[3], t[4],
           dc_simrun_fig(sim, "pool.A.lent_gpu_h"));
    for (int i = 0; i < 4; i++)
        CU_ASSERT_DOUBLE_EQUAL(t[i], 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[4], 1.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.2, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 2.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lent_gpu_h"), 32.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrowed_gpu_h"), 32.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.borrowed_gpu_h"), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.lent_gpu_h"), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.own_gpu_h"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.own_gpu_h"), 48.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lend_reclaims"), 0.0, 0);
    int32_t jobs[8];
    double times[8];
    CU_ASSERT_EQUAL(kind_rows(sim, "borrow", jobs, times, 8), 2);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 2.0, 1e-9);
    dc_sim_destroy(sim);

    /* A keeps headroom: at most 2 of its nodes lent, so one job borrows;
     * the other two wait until 1 h: waits 0, 0, 0, 1, 1 h (mean 0.4), lent
     * 1 x 2 x 8 x 1 = 16 GPU-h */
    snprintf(text, sizeof text, cfg, "true; lend_max_nodes = 2");
    sim = run_text(text, "borrow.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    first_starts(sim, t, 5);
    printf("\n  at most 2 lent: starts %.2f %.2f %.2f %.2f %.2f h", t[0], t[1], t[2], t[3], t[4]);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lent_gpu_h"), 16.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 2.0, 1e-9);
    dc_sim_destroy(sim);

    snprintf(text, sizeof text, cfg, "false");
    sim = run_text(text, "borrow.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    first_starts(sim, t, 5);
    printf("\n  no lending: starts %.2f %.2f %.2f %.2f %.2f h\n", t[0], t[1], t[2], t[3], t[4]);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.wait_mean_h"), 0.8, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[4], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 3.0, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- reclaiming exactly the nodes needed ---------- */

/* A (4 nodes, lends), B (4 nodes, borrows), 8 GPUs a node.  B0 (4 nodes,
 * 10 h) fills B at 0; B1 (2 nodes, 10 h, priority p1) borrows 2 of A's
 * nodes at 0.5 h, B2 (2 nodes, 10 h, priority 0) the other 2 at 1 h.  At
 * 2 h A's own job A1 (2 nodes, 1 h) arrives: it reclaims exactly one
 * borrowed job (2 nodes), not both:
 *  - p1 = 0: the youngest, B2; it loses 1 h x 2 nodes x 8 GPUs = 16 GPU-h
 *    (no checkpoint: its start is its last one), A1 starts at 2 h, B2
 *    restarts at 3 h on the nodes A1 frees (A lends again: its queue is
 *    empty) and ends at 13 h.  Lent = borrowed = B1 10 h x 16 + B2 1 h x
 *    16 + B2 10 h x 16 = 336 GPU-h; A's own 16; B's own 320.
 *  - p1 = -1: the lowest priority, B1, though older: it loses 1.5 h x 16 =
 *    24 GPU-h and ends at 13 h.
 *  - p1 = 0 with lend_notice_s = 120 and B2 checkpointing (60 s writes):
 *    B2 writes a checkpoint on its way out and loses nothing; A1 starts at
 *    2 h + 60 s. */
static const char reclaim_cfg[] =
    "horizon_days = 2.0; stop_when_done = true; trace = { events = true; };\n"
    "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "scheduler = { backfill = true; preemption = false;\n"
    "  pools = ( { name = \"A\"; nodes = 4; lend = true; lend_notice_s = %g; },\n"
    "            { name = \"B\"; nodes = 4; borrow = true; } ); };\n"
    "jobs = ( { name = \"B0\"; pool = \"B\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; },\n"
    "  { name = \"B1\"; pool = \"B\"; nodes = 2; work_gpu_h = 160.0; start_h = 0.5; priority = %d; restart_s = 0.0; },\n"
    "  { name = \"B2\"; pool = \"B\"; nodes = 2; work_gpu_h = 160.0; start_h = 1.0; restart_s = 0.0; %s },\n"
    "  { name = \"A1\"; pool = \"A\"; nodes = 2; work_gpu_h = 16.0; start_h = 2.0; restart_s = 0.0; } );\n";

static dc_sim *reclaim_run(double notice_s, int p1, const char *b2_extra)
{
    char text[2048];
    snprintf(text, sizeof text, reclaim_cfg, notice_s, p1, b2_extra);
    return run_text(text, "reclaim.cfg", 1);
}

static void test_reclaim_exact(void)
{
    dc_sim *sim = reclaim_run(0.0, 0, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int32_t jobs[8];
    double times[8], t[4];
    int n = kind_rows(sim, "lend_reclaim", jobs, times, 8);
    first_starts(sim, t, 4);
    printf("\n  equal priorities: %d reclaim(s), job %d at %.3f h; A1 starts %.3f h; end %.3f h", n,
           n ? jobs[0] : -1, n ? times[0] : NAN, t[3], dc_sim_now(sim) / 3600.0);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(jobs[0], 2); /* the youngest */
    CU_ASSERT_DOUBLE_EQUAL(times[0], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[3], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 16.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lend_reclaims"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.reclaimed"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.preemptions"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.preemptions"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 3.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lent_gpu_h"), 336.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrowed_gpu_h"), 336.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.own_gpu_h"), 16.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.own_gpu_h"), 320.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 4.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 13.0, 1e-9);
    CU_ASSERT_EQUAL(dc_sched_pool_lent(dc_scheduler_of(sim), 0), 0);
    dc_sim_destroy(sim);

    sim = reclaim_run(0.0, -1, "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    n = kind_rows(sim, "lend_reclaim", jobs, times, 8);
    printf("\n  B1 at priority -1: %d reclaim(s), job %d; lost %.2f GPU-h", n, n ? jobs[0] : -1,
           dc_simrun_fig(sim, "gpu_hours.preempted"));
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(jobs[0], 1); /* the lowest priority, though older */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 24.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 13.0, 1e-9);
    dc_sim_destroy(sim);

    sim = reclaim_run(120.0, 0, "checkpoint = true; checkpoint_interval_s = 72000.0; checkpoint_write_s = 60.0;");
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    first_starts(sim, t, 4);
    printf("\n  with 120 s of notice: A1 starts %.4f h, lost %.3f GPU-h\n", t[3],
           dc_simrun_fig(sim, "gpu_hours.preempted"));
    CU_ASSERT_DOUBLE_EQUAL(t[3] * 3600.0, 7200.0 + 60.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lend_reclaims"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 4.0, 0);
    dc_sim_destroy(sim);
}

/* ---------- borrowing from two lenders ---------- */

/* A (2 nodes, lends), B (4 nodes, borrows), C (2 nodes, lends).  B0 fills
 * B from 0 to 1 h; B1 (4 nodes, 10 h) finds no lender with 4 idle nodes
 * and borrows 2 of A's and 2 of C's at 0.  A's own A1 (1 node, 1 h)
 * arrives at 0.5 h and reclaims B1 (all of it leaves: 0.5 h x 4 nodes x 8
 * GPUs = 16 GPU-h lost; C's nodes go back to C).  B1 cannot borrow 4 again
 * (A lends 1, C 2) and restarts on B's own nodes at 1 h, ending at 11 h.
 * Lent: A 2 x 8 x 0.5 = 8 GPU-h, C 8; borrowed by B 16; one reclaim, by
 * A. */
static void test_two_lenders(void)
{
    static const char cfg[] =
        "horizon_days = 1.0; stop_when_done = true; trace = { events = true; };\n"
        "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 2; };\n"
        "scheduler = { backfill = true; preemption = false;\n"
        "  pools = ( { name = \"A\"; nodes = 2; lend = true; }, { name = \"B\"; nodes = 4; borrow = true; },\n"
        "            { name = \"C\"; nodes = 2; lend = true; } ); };\n"
        "jobs = ( { name = \"B0\"; pool = \"B\"; nodes = 4; work_gpu_h = 32.0; restart_s = 0.0; },\n"
        "  { name = \"B1\"; pool = \"B\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; },\n"
        "  { name = \"A1\"; pool = \"A\"; nodes = 1; work_gpu_h = 8.0; start_h = 0.5; restart_s = 0.0; } );\n";
    dc_sim *sim = run_text(cfg, "two.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int32_t jobs[8];
    double times[8], t[3];
    first_starts(sim, t, 3);
    int nb = kind_rows(sim, "borrow", jobs, times, 8);
    int nr = kind_rows(sim, "lend_reclaim", jobs + 4, times + 4, 4);
    printf("\n  B1 starts %.2f h on %d lenders; %d reclaim(s) at %.2f h; lent A %.1f, C %.1f GPU-h; end %.2f h\n", t[1],
           nb, nr, nr ? times[4] : NAN, dc_simrun_fig(sim, "pool.A.lent_gpu_h"), dc_simrun_fig(sim, "pool.C.lent_gpu_h"),
           dc_sim_now(sim) / 3600.0);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 0.0, 1e-9);
    CU_ASSERT_EQUAL(nb, 2);
    CU_ASSERT_EQUAL_FATAL(nr, 1);
    CU_ASSERT_EQUAL(jobs[4], 1);
    CU_ASSERT_DOUBLE_EQUAL(times[4], 0.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[2], 0.5, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 16.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lent_gpu_h"), 8.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.C.lent_gpu_h"), 8.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrowed_gpu_h"), 16.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lend_reclaims"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.C.lend_reclaims"), 0.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 3.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 11.0, 1e-9);
    dc_sim_destroy(sim);
}

/* dcsim report --jobs of the first reclaim case: a line per pool with its
 * own, lent and borrowed GPU-hours and reclaims, equal to the hand values
 * above (A: own 16, lent 336, 1 reclaim; B: own 320, borrowed 336, 3
 * borrowing starts, 1 job reclaimed). */
static void test_report_pools(void)
{
    char cfg[512], trace[512], text[2048];
    snprintf(cfg, sizeof cfg, "%s/report.cfg", tmpdir);
    snprintf(trace, sizeof trace, "%s/report.h5", tmpdir);
    snprintf(text, sizeof text, reclaim_cfg, 0.0, 0, "");
    dc_test_write_text(cfg, text);
    const char *run[] = {"run", cfg, "-o", trace, "--quiet", NULL};
    dc_runner_result r = dc_runner_dcsim(run, NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    const char *rep[] = {"report", "--jobs", trace, NULL};
    r = dc_runner_dcsim(rep, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    const char *block = r.out ? strstr(r.out, "\nvirtual clusters") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(block);
    double v[2][9];
    int got = 0;
    for (int i = 0; i < 2; i++) {
        char pat[8];
        snprintf(pat, sizeof pat, "\n%c ", i == 0 ? 'A' : 'B');
        const char *line = strstr(block, pat);
        if (line)
            got += sscanf(line + 3, "%lf %lf %lf %lf %lf %lf %lf %lf %lf", &v[i][0], &v[i][1], &v[i][2], &v[i][3],
                          &v[i][4], &v[i][5], &v[i][6], &v[i][7], &v[i][8]);
    }
    printf("\n%s", block);
    CU_ASSERT_EQUAL_FATAL(got, 18);
    /* nodes jobs wait own lent borrowed borrows reclaims reclaimed */
    const double want[2][9] = {{4, 1, 0, 16, 336, 0, 0, 1, 0}, {4, 3, 0, 320, 0, 336, 3, 0, 1}};
    for (int i = 0; i < 2; i++)
        for (int k = 0; k < 9; k++)
            if (k != 2)
                CU_ASSERT_DOUBLE_EQUAL(v[i][k], want[i][k], 0.05);
    dc_runner_free(&r);
}

/* ---------- a two-VC trace ---------- */

/* A deterministic trace of two virtual clusters whose load alternates: vc1
 * is busy in even 6-hour blocks, vc2 in odd ones: 2.35 jobs an hour of 8,
 * 16 or 32 GPUs (1, 2 or 4 nodes of 8) for 0.5 to 3 h, 9.6 nodes of
 * offered load on 16, 90% of it to the busy VC (8.6 nodes on its 8). */
static void write_two_vc_trace(const char *path)
{
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("job,submit_s,duration_s,num_gpu,vc\n", f);
    uint64_t x = 12345;
    double t = 0;
    for (int i = 0; i < 400; i++) {
        x = x * 6364136223846793005u + 1442695040888963407u;
        double u1 = (double)(x >> 11) / 9007199254740992.0;
        x = x * 6364136223846793005u + 1442695040888963407u;
        double u2 = (double)(x >> 11) / 9007199254740992.0;
        x = x * 6364136223846793005u + 1442695040888963407u;
        double u3 = (double)(x >> 11) / 9007199254740992.0;
        t += -log(1.0 - u1) * 1530.0; /* 2.35 jobs an hour */
        int block = (int)(t / (6 * 3600.0));
        /* the busy VC gets 90% of the jobs */
        int vc = ((block % 2 == 0) == (u2 < 0.9)) ? 1 : 2;
        int gpus = 8 << (int)(u3 * 3.0);   /* 8, 16, 32 */
        double dur = 1800.0 + 9000.0 * u2; /* 0.5 .. 3 h */
        fprintf(f, "j%03d,%.0f,%.0f,%d,vc%d\n", i, t, dur, gpus, vc);
    }
    fclose(f);
}

static const char two_vc_cfg[] =
    "horizon_days = 10.0; stop_when_done = true;\n"
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "scheduler = { backfill = true; preemption = false;\n"
    "  pools = ( { name = \"vc1\"; nodes = 8; %s }, { name = \"vc2\"; nodes = 8; %s } ); };\n"
    "jobs = ( { name = \"t\"; restart_s = 0.0;\n"
    "  trace = { file = \"twovc.csv\"; format = \"csv\"; time_unit = \"s\";\n"
    "            columns = { submit = \"submit_s\"; duration = \"duration_s\"; gpus = \"num_gpu\";\n"
    "                        pool = \"vc\"; name = \"job\"; }; }; } );\n"
    "%s\n";

static dc_sim *two_vc_run(const char *keys1, const char *keys2, const char *more, int64_t seed)
{
    char text[4096];
    snprintf(text, sizeof text, two_vc_cfg, keys1, keys2, more);
    return run_text(text, "twovc.cfg", seed);
}

static void test_two_vc_trace(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/twovc.csv", tmpdir);
    write_two_vc_trace(path);
    dc_sim *off = two_vc_run("", "", "", 1);
    dc_sim *on = two_vc_run("lend = true; borrow = true;", "lend = true; borrow = true;", "", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(off);
    CU_ASSERT_PTR_NOT_NULL_FATAL(on);
    double w_off = dc_simrun_fig(off, "jobs.wait_mean_h"), w_on = dc_simrun_fig(on, "jobs.wait_mean_h");
    double lent = dc_simrun_fig(on, "pool.vc1.lent_gpu_h") + dc_simrun_fig(on, "pool.vc2.lent_gpu_h");
    double borrowed = dc_simrun_fig(on, "pool.vc1.borrowed_gpu_h") + dc_simrun_fig(on, "pool.vc2.borrowed_gpu_h");
    printf("\n  mean wait %.3f h without lending, %.3f h with; lent %.1f, borrowed %.1f GPU-h; reclaims %.0f + %.0f",
           w_off, w_on, lent, borrowed, dc_simrun_fig(on, "pool.vc1.lend_reclaims"),
           dc_simrun_fig(on, "pool.vc2.lend_reclaims"));
    CU_ASSERT(w_on < (2.0 / 3.0) * w_off);
    CU_ASSERT(lent > 0);
    CU_ASSERT_DOUBLE_EQUAL(lent, borrowed, 1e-9 * lent);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(on, "jobs.completed"), 400.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(off, "jobs.completed"), 400.0, 0);
    /* own + lent = every GPU-hour held on the pool's nodes */
    double T = dc_sim_now(on);
    for (int i = 1; i <= 2; i++) {
        char k1[64], k2[64], k3[64];
        snprintf(k1, sizeof k1, "pool.vc%d.own_gpu_h", i);
        snprintf(k2, sizeof k2, "pool.vc%d.lent_gpu_h", i);
        snprintf(k3, sizeof k3, "pool.vc%d.utilisation", i);
        double held = dc_simrun_fig(on, k3) * 8 * 8 * T / 3600.0;
        CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(on, k1) + dc_simrun_fig(on, k2), held, 1e-9 * held);
    }
    dc_sim_destroy(off);
    dc_sim_destroy(on);

    /* with failures and repairs: the accounts agree with the cluster at the
     * end, and the breakdown still sums to the capacity */
    static const char fail[] = "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 100.0; } );\n"
                               "repair = { crews = 2; law = \"exponential\"; mean_h = 2.0; };\n";
    for (int64_t seed = 1; seed <= 4; seed++) {
        dc_sim *sim = two_vc_run("lend = true; borrow = true;", "lend = true; borrow = true;", fail, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        dc_scheduler *s = dc_scheduler_of(sim);
        for (int p = 0; p < 2; p++) {
            CU_ASSERT_EQUAL(dc_sched_pool_lent(s, p), dc_sched_pool_lent_recount(s, p));
            CU_ASSERT_EQUAL(dc_sched_pool_idle(s, p), dc_sched_pool_idle_recount(s, p));
        }
        CU_ASSERT(dc_sched_racks_consistent(s));
        double cap = dc_simrun_fig(sim, "gpu_hours.capacity"), sum = 0;
        const dc_summary *su = dc_sim_summary(sim);
        for (size_t i = 0; i < dc_summary_count(su); i++) {
            const char *k = dc_summary_key(su, i);
            if (strncmp(k, "gpu_hours.", 10) == 0 && strcmp(k, "gpu_hours.capacity") != 0)
                sum += dc_summary_value(su, i);
        }
        printf("\n  seed %d: %.0f failures, reclaims %.0f + %.0f, breakdown %.6f of %.6f GPU-h", (int)seed,
               dc_simrun_fig(sim, "failures.total"), dc_simrun_fig(sim, "pool.vc1.lend_reclaims"),
               dc_simrun_fig(sim, "pool.vc2.lend_reclaims"), sum, cap);
        CU_ASSERT(dc_simrun_fig(sim, "failures.total") > 0);
        CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-6 * cap);
        dc_sim_destroy(sim);
    }
    printf("\n");
}

/* ---------- everything at once ---------- */

/* Four pools (a lends and borrows, b lends, c borrows, s is a spot pool
 * that borrows) with priorities, preemptible jobs, evictions by priority,
 * time limits, checkpoints, spot reclaims and node failures with repairs:
 * every 6 hours and at the end the lending accounts agree with a recount
 * of the cluster (lent nodes per pool, lent = borrowed, the nodes on their
 * way back in every pool), the idle counts and racks with theirs; lent =
 * borrowed GPU-hours; the breakdown sums to the capacity. */
static const char stress_cfg[] =
    "horizon_days = 8.0; stop_when_done = false;\n"
    "cluster = { nodes = 56; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "scheduler = { backfill = true; preemption = true;\n"
    "  pools = ( { name = \"a\"; nodes = 16; lend = true; borrow = true; },\n"
    "            { name = \"b\"; nodes = 16; lend = true; lend_notice_s = 120.0; },\n"
    "            { name = \"c\"; nodes = 16; borrow = true; },\n"
    "            { name = \"s\"; nodes = 8; spot = true; reclaim_per_node_day = 0.5; borrow = true; } ); };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 300.0; } );\n"
    "repair = { crews = 2; law = \"exponential\"; mean_h = 4.0; };\n"
    "jobs = (\n"
    "  { name = \"a0\"; pool = \"a\"; count = 150; interarrival = { law = \"exponential\"; mean_h = 1.0; };\n"
    "    nodes_min = 1; nodes_max = 8; duration = { law = \"lognormal\"; median_h = 3.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; checkpoint = true; checkpoint_interval_s = 3600.0; checkpoint_write_s = 30.0; },\n"
    "  { name = \"a1\"; pool = \"a\"; count = 40; priority = 2; interarrival = { law = \"exponential\"; mean_h = 4.0; };\n"
    "    nodes_min = 2; nodes_max = 16; duration = { law = \"lognormal\"; median_h = 2.0; sigma = 0.5; };\n"
    "    restart_s = 60.0; },\n"
    "  { name = \"a2\"; pool = \"a\"; count = 150; interarrival = { law = \"exponential\"; mean_h = 1.0; };\n"
    "    gpus_min = 1; gpus_max = 4; duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; },\n"
    "  { name = \"b0\"; pool = \"b\"; count = 60; interarrival = { law = \"exponential\"; mean_h = 3.0; };\n"
    "    nodes_min = 2; nodes_max = 16; duration = { law = \"lognormal\"; median_h = 3.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; checkpoint = true; checkpoint_interval_s = 7200.0; checkpoint_write_s = 60.0; },\n"
    "  { name = \"c0\"; pool = \"c\"; count = 300; interarrival = { law = \"exponential\"; mean_h = 0.5; };\n"
    "    nodes_min = 1; nodes_max = 16; duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; max_run_h = 12.0; },\n"
    "  { name = \"c1\"; pool = \"c\"; count = 100; preemptible = true; priority = -1;\n"
    "    interarrival = { law = \"exponential\"; mean_h = 1.5; };\n"
    "    nodes_min = 1; nodes_max = 4; duration = { law = \"lognormal\"; median_h = 1.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; },\n"
    "  { name = \"s0\"; pool = \"s\"; count = 150; interarrival = { law = \"exponential\"; mean_h = 1.0; };\n"
    "    nodes_min = 1; nodes_max = 8; duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n"
    "    restart_s = 60.0; checkpoint = true; checkpoint_interval_s = 3600.0; checkpoint_write_s = 20.0; } );\n";

typedef struct stress_check {
    int checks, bad;
} stress_check;

static void stress_probe(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)arg;
    stress_check *c = ctx;
    dc_scheduler *s = dc_scheduler_of(sim);
    bool ok = dc_sched_lending_consistent(s) && dc_sched_racks_consistent(s);
    for (int p = 0; p < dc_sched_pool_count(s); p++)
        ok = ok && dc_sched_pool_idle(s, p) == dc_sched_pool_idle_recount(s, p);
    c->checks++;
    c->bad += !ok;
    if (dc_sim_now(sim) + 6 * 3600.0 < 8 * 86400.0)
        dc_sim_at(sim, dc_sim_now(sim) + 6 * 3600.0, stress_probe, ctx, 0);
}

/* The same without lending (the keys cut out): seed 3 once looped at one
 * instant for ever, a job evicted for a head whose other victims were still
 * writing their checkpoints backfilling into the nodes it gave up (and so
 * did seeds 1, 2, 4 with lending); the nodes on their way back now count
 * for the head (scheduler.c reserve). */
static void cut(char *text, const char *what)
{
    for (char *p = strstr(text, what); p; p = strstr(p, what))
        memmove(p, p + strlen(what), strlen(p + strlen(what)) + 1);
}

static void test_stress(void)
{
    char cfg[512], text[sizeof stress_cfg];
    snprintf(cfg, sizeof cfg, "%s/stress.cfg", tmpdir);
    double reclaims = 0, borrows = 0, evictions = 0, spot = 0;
    for (int64_t run = 0; run < 12; run++) {
        int64_t seed = run % 6 + 1;
        bool lending = run < 6;
        memcpy(text, stress_cfg, sizeof text);
        if (!lending) {
            cut(text, " lend = true;");
            cut(text, " borrow = true;");
            cut(text, " lend_notice_s = 120.0;");
        }
        dc_test_write_text(cfg, text);
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load_file(cfg, NULL, 0, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
        dc_sim *sim = NULL;
        CU_ASSERT_EQUAL_FATAL(dc_build(sc, seed, &sim, &err), DC_OK);
        stress_check c = {0};
        dc_sim_at(sim, 3600.0, stress_probe, &c, 0);
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        stress_probe(sim, &c, 0);
        double lent = 0, borrowed = 0;
        const char *pools[] = {"a", "b", "c", "s"};
        for (int i = 0; i < 4 && lending; i++) {
            char k[64];
            snprintf(k, sizeof k, "pool.%s.lent_gpu_h", pools[i]);
            lent += dc_simrun_fig(sim, k);
            snprintf(k, sizeof k, "pool.%s.borrowed_gpu_h", pools[i]);
            borrowed += dc_simrun_fig(sim, k);
            snprintf(k, sizeof k, "pool.%s.lend_reclaims", pools[i]);
            reclaims += dc_simrun_fig(sim, k);
            snprintf(k, sizeof k, "pool.%s.borrow_starts", pools[i]);
            borrows += dc_simrun_fig(sim, k);
        }
        if (lending) {
            evictions += dc_simrun_fig(sim, "jobs.preemptions");
            spot += dc_simrun_fig(sim, "pool.s.reclaims");
        }
        double cap = dc_simrun_fig(sim, "gpu_hours.capacity"), sum = 0;
        const dc_summary *su = dc_sim_summary(sim);
        for (size_t i = 0; i < dc_summary_count(su); i++) {
            const char *k = dc_summary_key(su, i);
            if (strncmp(k, "gpu_hours.", 10) == 0 && strcmp(k, "gpu_hours.capacity") != 0)
                sum += dc_summary_value(su, i);
        }
        CU_ASSERT_EQUAL(c.bad, 0);
        CU_ASSERT(c.checks >= 30);
        CU_ASSERT_DOUBLE_EQUAL(lent, borrowed, 1e-9 * lent);
        CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-6 * cap);
        CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 8 * 86400.0, 1e-6);
        if (c.bad)
            printf("\n  seed %d%s: %d of %d checks failed", (int)seed, lending ? "" : " (no lending)", c.bad,
                   c.checks);
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
    printf("\n  6 seeds with lending and 6 without; with: %.0f borrowing starts, %.0f reclaims, %.0f preemptions, %.0f spot reclaims\n", borrows,
           reclaims, evictions, spot);
    CU_ASSERT(borrows > 0 && reclaims > 0 && spot > 0 && evictions > reclaims);
}

/* The same with lending and an autoscaled service in lender b (replicas
 * of 2 nodes, demand rising each morning and falling each evening): the
 * accounts agree with recounts every 6 h, the lent GPU-hours equal the
 * borrowed ones, the breakdown sums to the capacity, and every run reaches
 * its horizon (no reclaim loop at an instant). */
static const char stress_service[] =
    "inference = { mode = \"aggregate\"; pool = \"b\"; priority = 1;\n"
    "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
    "  replica = { gpus = 16; batch_size = 32; startup_s = 120.0; };\n"
    "  replicas = { min = 1; max = 6; initial = 1; };\n"
    "  autoscale = { interval_s = 300.0; scale_down_after_s = 1800.0; };\n"
    "  arrivals = { qps = 500.0; daily = ( { from_h = 0.0; factor = 0.1; }, { from_h = 8.0; factor = 1.0; },\n"
    "                                    { from_h = 20.0; factor = 0.1; } ); };\n"
    "  tokens_in = { law = \"constant\"; mean = 1000.0; };\n"
    "  tokens_out = { law = \"constant\"; mean = 250.0; }; };\n";

static void test_stress_service(void)
{
    char cfg[512], text[sizeof stress_cfg + sizeof stress_service];
    snprintf(cfg, sizeof cfg, "%s/stress_service.cfg", tmpdir);
    snprintf(text, sizeof text, "%s%s", stress_cfg, stress_service);
    dc_test_write_text(cfg, text);
    double reclaims = 0, ups = 0;
    for (int64_t seed = 1; seed <= 4; seed++) {
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load_file(cfg, NULL, 0, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
        dc_sim *sim = NULL;
        CU_ASSERT_EQUAL_FATAL(dc_build(sc, seed, &sim, &err), DC_OK);
        stress_check c = {0};
        dc_sim_at(sim, 3600.0, stress_probe, &c, 0);
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        stress_probe(sim, &c, 0);
        double lent = 0, borrowed = 0;
        const char *pools[] = {"a", "b", "c", "s"};
        for (int i = 0; i < 4; i++) {
            char k[64];
            snprintf(k, sizeof k, "pool.%s.lent_gpu_h", pools[i]);
            lent += dc_simrun_fig(sim, k);
            snprintf(k, sizeof k, "pool.%s.borrowed_gpu_h", pools[i]);
            borrowed += dc_simrun_fig(sim, k);
        }
        reclaims += dc_simrun_fig(sim, "pool.b.lend_reclaims");
        ups += dc_simrun_fig(sim, "inference.scale_ups");
        double cap = dc_simrun_fig(sim, "gpu_hours.capacity"), sum = 0;
        const dc_summary *su = dc_sim_summary(sim);
        for (size_t i = 0; i < dc_summary_count(su); i++) {
            const char *k = dc_summary_key(su, i);
            if (strncmp(k, "gpu_hours.", 10) == 0 && strcmp(k, "gpu_hours.capacity") != 0)
                sum += dc_summary_value(su, i);
        }
        printf("\n  seed %d: %d of %d checks failed, replicas %.0f-%.0f (mean %.2f), b's reclaims %.0f", (int)seed,
               c.bad, c.checks, dc_simrun_fig(sim, "inference.replicas_min"), dc_simrun_fig(sim, "inference.replicas_max"),
               dc_simrun_fig(sim, "inference.replicas_mean"), dc_simrun_fig(sim, "pool.b.lend_reclaims"));
        CU_ASSERT_EQUAL(c.bad, 0);
        CU_ASSERT(c.checks >= 30);
        CU_ASSERT_DOUBLE_EQUAL(lent, borrowed, 1e-9 * lent);
        CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-6 * cap);
        CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 8 * 86400.0, 1e-6);
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
    printf("\n");
    CU_ASSERT(ups > 0 && reclaims > 0);
}

/* ---------- work per event with lending, as the queue grows ---------- */

/* A (32 nodes, lends) and B (32 nodes, borrows); q one-node 1-hour jobs of
 * B arrive in the first hour (B's queue grows to about q - 64 and drains
 * over q / 64 hours, each head borrowing A's idle nodes), and A's own
 * 4-node jobs of 15 minutes every half hour reclaim A's nodes all along.
 * The scheduler's work per event (dc_sched_work, the lending module's
 * steps included) must not grow with the queue beyond a log factor. */
static double vc_work(long q, double *reclaims)
{
    char path[512], cfg[512];
    snprintf(path, sizeof path, "%s/vcscale.csv", tmpdir);
    snprintf(cfg, sizeof cfg, "%s/vcscale.cfg", tmpdir);
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fprintf(f, "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n");
    double end_h = (double)q / 64.0;
    long next_b = 0;
    for (long k = 0; 0.5 + 0.5 * (double)k < end_h || next_b < q; k++) {
        double ta = 0.5 + 0.5 * (double)k;
        for (; next_b < q && 0.001 + (double)next_b / (double)q < ta; next_b++)
            fprintf(f, "%.17g,1,8,0,B,,\n", 0.001 + (double)next_b / (double)q);
        if (ta < end_h)
            fprintf(f, "%.17g,4,8,0,A,,\n", ta);
    }
    fclose(f);
    dc_test_write_text(cfg, "horizon_days = 3650.0; stop_when_done = true;\n"
                            "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                            "scheduler = { backfill = true; preemption = false;\n"
                            "  pools = ( { name = \"A\"; nodes = 32; lend = true; },\n"
                            "            { name = \"B\"; nodes = 32; borrow = true; } ); };\n"
                            "jobs = ( { name = \"q\"; trace = \"vcscale.csv\"; restart_s = 0.0; } );\n");
    dc_sim *sim = dc_simrun_file(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(dc_simrun_fig(sim, "pool.B.borrow_starts") > 0.2 * (double)q);
    *reclaims = dc_simrun_fig(sim, "pool.A.lend_reclaims");
    double w = (double)dc_sched_work(dc_scheduler_of(sim)) / (double)dc_sim_events_processed(sim);
    dc_sim_destroy(sim);
    unlink(path);
    return w;
}

static void test_work_bounded(void)
{
    double r1, r2, r3;
    double w1 = vc_work(1000, &r1), w2 = vc_work(10000, &r2), w3 = vc_work(100000, &r3);
    printf("\n  work per event with lending, queue of 1k / 10k / 100k: %.2f / %.2f / %.2f (reclaims %.0f / %.0f / %.0f)\n",
           w1, w2, w3, r1, r2, r3);
    CU_ASSERT(r1 > 0 && r3 > r1);
    /* log2(1e5) / log2(1e3) = 1.67; a scan of the queue or the pools'
     * nodes per event would grow it 100-fold */
    CU_ASSERT(w2 < 1.6 * w1);
    CU_ASSERT(w3 < 2.0 * w1);
}

/* ---------- lending off changes nothing ---------- */

static void test_lending_off_identical(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/twovc.csv", tmpdir);
    write_two_vc_trace(path);
    dc_sim *base = two_vc_run("", "", "", 7);
    dc_sim *falses = two_vc_run("lend = false; borrow = false;", "lend = false; borrow = false;", "", 7);
    dc_sim *alone = two_vc_run("lend = true;", "lend = true;", "", 7); /* lenders, no borrower */
    CU_ASSERT_PTR_NOT_NULL_FATAL(base);
    CU_ASSERT_PTR_NOT_NULL_FATAL(falses);
    CU_ASSERT_PTR_NOT_NULL_FATAL(alone);
    CU_ASSERT(dc_simrun_same_summary(base, falses));
    CU_ASSERT(dc_simrun_same_summary(base, alone));
    dc_sim_destroy(base);
    dc_sim_destroy(falses);
    dc_sim_destroy(alone);
}

/* ---------- a service reclaiming its pool's lent nodes ---------- */

/* A (4 nodes, lends), B (4 nodes, borrows), 8 GPUs a node.  B0 (4 nodes,
 * 10 h) fills B at 0; B1 (2 nodes, 10 h) borrows 2 of A's nodes at 0.5 h,
 * B2 (1 node, 10 h) one more at 1 h: A has 1 idle node.  At 2 h A's
 * service starts one replica of 16 GPUs (2 nodes, startup 0): it misses 1
 * node and reclaims the youngest borrowed job, B2 (1 node): the replica is
 * ready at 2 h and B2 loses 1 h x 1 node x 8 GPUs = 8 GPU-h.  Without the
 * reclaim it waited until B1 ended at 10.5 h.  With 600 s of notice and a
 * B3 (1 node) arriving at 2.05 h (during B2's exit), B3 borrows nothing while the service
 * waits (it would have taken A's idle node): it starts when B0 ends at
 * 10 h, and the replica is ready when B2 has written its checkpoint (300
 * s) and left, at 2 h + 300 s, losing nothing. */
static const char service_cfg[] =
    "horizon_days = 1.0; stop_when_done = false; trace = { events = true; };\n"
    "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "scheduler = { backfill = true; preemption = false;\n"
    "  pools = ( { name = \"A\"; nodes = 4; lend = true; lend_notice_s = %g; },\n"
    "            { name = \"B\"; nodes = 4; borrow = true; } ); };\n"
    "jobs = ( { name = \"B0\"; pool = \"B\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; },\n"
    "  { name = \"B1\"; pool = \"B\"; nodes = 2; work_gpu_h = 160.0; start_h = 0.5; restart_s = 0.0; },\n"
    "  { name = \"B2\"; pool = \"B\"; nodes = 1; work_gpu_h = 80.0; start_h = 1.0; restart_s = 0.0;%s }%s );\n"
    "inference = { mode = \"aggregate\"; pool = \"A\"; start_s = 7200.0;\n"
    "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
    "  replica = { gpus = 16; batch_size = 32; startup_s = 0.0; };\n"
    "  replicas = { min = 1; max = 1; initial = 1; };\n"
    "  arrivals = { qps = 1.0; };\n"
    "  tokens_in = { law = \"constant\"; mean = 1000.0; };\n"
    "  tokens_out = { law = \"constant\"; mean = 250.0; }; };\n";

static void test_service_reclaim(void)
{
    char text[4096];
    snprintf(text, sizeof text, service_cfg, 0.0, "", "");
    dc_sim *sim = run_text(text, "service.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int32_t jobs[8], rj[8];
    double times[8], ready[8];
    int n = kind_rows(sim, "lend_reclaim", jobs, times, 8);
    int nr = kind_rows(sim, "replica_ready", rj, ready, 8);
    printf("\n  service at 2 h: %d reclaim(s), job %d at %.3f h; replica ready at %.3f h; lost %.2f GPU-h", n,
           n ? jobs[0] : -1, n ? times[0] : NAN, nr ? ready[0] : NAN, dc_simrun_fig(sim, "gpu_hours.preempted"));
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(jobs[0], 2); /* B2, the youngest */
    CU_ASSERT_DOUBLE_EQUAL(times[0], 2.0, 1e-9);
    CU_ASSERT_EQUAL_FATAL(nr, 1);
    CU_ASSERT_DOUBLE_EQUAL(ready[0], 2.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 8.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lend_reclaims"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.reclaimed"), 1.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 2.0, 0);
    /* lent: B1 10 h x 2 nodes x 8, B2 1 h x 8 */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.A.lent_gpu_h"), 168.0, 1e-6);
    dc_scheduler *s = dc_scheduler_of(sim);
    CU_ASSERT_EQUAL(dc_sched_pool_lent(s, 0), dc_sched_pool_lent_recount(s, 0));
    CU_ASSERT_EQUAL(dc_sched_pool_idle(s, 0), dc_sched_pool_idle_recount(s, 0));
    dc_sim_destroy(sim);

    snprintf(text, sizeof text, service_cfg, 600.0,
             " checkpoint = true; checkpoint_interval_s = 72000.0; checkpoint_write_s = 300.0;",
             ",\n  { name = \"B3\"; pool = \"B\"; nodes = 1; work_gpu_h = 8.0; start_h = 2.05; restart_s = 0.0; }");
    sim = run_text(text, "service.cfg", 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double t[4];
    first_starts(sim, t, 4);
    n = kind_rows(sim, "lend_reclaim", jobs, times, 8);
    nr = kind_rows(sim, "replica_ready", rj, ready, 8);
    printf("\n  with 600 s of notice: %d reclaim(s) (job %d), replica ready at %.4f h, B3 starts at %.3f h\n", n,
           n ? jobs[0] : -1, nr ? ready[0] : NAN, t[3]);
    CU_ASSERT_EQUAL_FATAL(n, 1);
    CU_ASSERT_EQUAL(jobs[0], 2);
    CU_ASSERT_EQUAL_FATAL(nr, 1);
    CU_ASSERT_DOUBLE_EQUAL(ready[0] * 3600.0, 7200.0 + 300.0, 1e-6); /* B2 wrote its checkpoint, then left */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.preempted"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[3], 10.0, 1e-9); /* B3 borrowed nothing */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "pool.B.borrow_starts"), 2.0, 0);
    s = dc_scheduler_of(sim);
    CU_ASSERT_EQUAL(dc_sched_pool_lent(s, 0), dc_sched_pool_lent_recount(s, 0));
    dc_sim_destroy(sim);
}

/* ---------- bad input ---------- */

static void test_bad_input(void)
{
    static const char cfg[] = "horizon_days = 1.0;\n"
                              "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "scheduler = { pools = ( { name = \"a\"; nodes = 4; borrow = true; },\n"
                              "  { name = \"s\"; nodes = 4; spot = true;\n"
                              "    lend = true; } ); };\n"
                              "job = { name = \"j\"; nodes = 1; work_gpu_h = 8.0; };\n";
    const char *frags[] = {"bad.cfg:5", "scheduler.pools.[1].lend", "a spot pool cannot lend"};
    dc_test_bad_run(tmpdir, "spot lender", cfg, NULL, frags, 3);
}

static int register_suites(void)
{
    DC_TEST_SUITE("vcluster", {"a borrowing queue takes exactly the lender's idle nodes", test_borrow_exact},
                  {"a lender reclaims exactly the nodes it needs (youngest, lowest priority)", test_reclaim_exact},
                  {"a job borrows from two lenders; one reclaims it all", test_two_lenders},
                  {"dcsim report --jobs: a line per pool with its lending", test_report_pools},
                  {"a two-VC trace: lending lowers the mean wait; accounts agree", test_two_vc_trace},
                  {"everything at once: the accounts agree with recounts", test_stress},
                  {"everything at once with a service in a lender: the accounts agree", test_stress_service},
                  {"lending off: bit-identical summaries", test_lending_off_identical},
                  {"a service reclaims its pool's lent nodes; nothing lent while it waits", test_service_reclaim},
                  {"work per event with lending bounded as the queue grows 1k -> 100k", test_work_bounded},
                  {"bad input: a spot pool that lends", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("vcluster", tmpdir, sizeof tmpdir, register_suites);
}
