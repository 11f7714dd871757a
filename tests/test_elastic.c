/* Tests: elastic jobs shrinking on failures without spares and growing back, against closed forms.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Elastic jobs (job.h: min_nodes, reconfigure_s).
 *
 * Closed form.  A job on all n0 nodes of a cluster with no spares and no
 * repair; every node fails at rate 1/M (exponential).  The nodes alive at
 * t are A(t) ~ Binomial(n0, p(t)), p(t) = e^(-t/M), so E[A(t)] = n0 e^(-t/M).
 * The elastic job runs on s(A) nodes, the largest valid size <= A (any
 * size without a step-time model) if at least min_nodes, else 0; ideally
 * scaled, its useful work over T is
 *     U = g int_0^T E[s(A(t))] dt,   E[s(A)] = sum_k s(k) C(n0,k) p^k (1-p)^(n0-k)
 * (g GPUs a node), less what failures roll back: each failure while it runs
 * on A nodes loses about tau/2 of computing on A nodes (tau the checkpoint
 * interval, tau << the time between failures), at intensity A / M:
 *     L = g (tau / 2) int_0^T E[A^2 1{A >= min}] / M dt.
 * A rigid job stops at its first failure for good: U ~ g n0 M / n0 = g M.
 * Checked: the mean of 64 seeds within the 99% Student t interval of
 * U - L, plus a tenth of L for its first-order form; and far above the
 * rigid job's.
 *
 * With a step-time model (tensor 8 x pipeline 2: a replica is 2 nodes of
 * 8 GPUs) a job of 8 nodes that loses one node at t_f runs on 6 (7 held: the
 * seventh waits), at the throughput its step-time model gives on 6 nodes:
 * (no latencies: where its ranks sit does not matter) without checkpoints everything before t_f is lost, so its useful work is
 * exactly that of a rigid 6-node job over T - t_f - restart_s -
 * reconfigure_s, the waiting line is 1 node x (T - t_f), and (with a repair)
 * it grows back to 8 when the node returns.
 *
 * In GPUs (min_gpus): a job of 20 GPUs on 8-GPU nodes computes on 20 (its
 * third node's other 4 wait), exactly, with and without a step-time model
 * (Tc = 6 P B / (20 peak e) by hand); the closed form above with sizes in
 * GPUs, s(A) = min(8 A, gpus) floored at min_gpus (a size that is not whole
 * nodes); by hand, a 30-GPU job of 6-GPU replicas on four 8-GPU nodes
 * losing three nodes and getting them back: 30 -> 24 -> 12 -> (waits) ->
 * 24 -> 30 GPUs at the failure and repair times; a trace's min_gpus
 * column; the floor from the job's own group before its class's before
 * the defaults', cut to the job's size; bad keys through the program
 * (exit status 2, file, line, key, message). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>

#include "badinput.h"
#include "cluster.h"
#include "registry.h"
#include "simrun.h"
#include "testutil.h"

#define REL(a, b, tol) (fabs((a) - (b)) <= (tol) * fabs(b))

/* No repair group: a failed node never comes back. */
static const char decay_cfg[] =
    "horizon_days = 100.0; stop_when_done = false;\n"
    "cluster = { nodes = 512; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 512; work_gpu_h = 1e12; restart_s = 0.0; min_nodes = 200; };\n"
    "checkpoint = { interval_s = 120.0; size_gb = 1.0; write_gb_per_s = 10000.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 2400.0; } );\n"
    "trace = { events = false; };\n";

/* The mean of gpu_hours.useful over reps runs of cfg (seeds seed0, seed0 + 1,
 * ...) and its 99% t interval's half-width; each run resizes more than
 * min_resizes times (0: not checked). */
static double mean_useful(const char *cfg, int64_t seed0, int reps, double min_resizes, double *half)
{
    double sum = 0.0, sum2 = 0.0;
    for (int r = 0; r < reps; r++) {
        dc_sim *sim = dc_simrun_text(cfg, NULL, 0, seed0 + r);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double u = dc_simrun_fig(sim, "gpu_hours.useful");
        if (min_resizes > 0)
            CU_ASSERT(dc_simrun_fig(sim, "job.resizes") > min_resizes);
        sum += u;
        sum2 += u * u;
        dc_sim_destroy(sim);
    }
    double mean = sum / reps, sd = sqrt((sum2 - reps * mean * mean) / (reps - 1));
    *half = gsl_cdf_tdist_Pinv(0.995, reps - 1) * sd / sqrt(reps);
    return mean;
}

/* E[f(A(t))] for A ~ Binomial(n0, e^(-t/M)). */
static double expect_binomial(int n0, double p, int min, int power)
{
    double e = 0.0;
    for (int k = min; k <= n0; k++)
        e += pow(k, power) * gsl_ran_binomial_pdf((unsigned)k, p, (unsigned)n0);
    return e;
}

static void test_decay_closed_form(void)
{
    const int n0 = 512, min = 200, reps = 64;
    const double M = 2400.0 * 3600.0, T = 100.0 * 86400.0, tau = 120.0, g = 8.0;
    /* Simpson over [0, T] */
    const int steps = 2000;
    double U = 0.0, L = 0.0, naive = 0.0;
    for (int i = 0; i <= steps; i++) {
        double t = T * i / steps, p = exp(-t / M), w = i == 0 || i == steps ? 1.0 : i % 2 ? 4.0 : 2.0;
        U += w * expect_binomial(n0, p, min, 1);
        L += w * expect_binomial(n0, p, min, 2) / M;
        naive += w * n0 * p; /* E[A(t)] = n0 e^(-t/M), not floored at min_nodes */
    }
    U *= g * T / steps / 3.0 / 3600.0;              /* GPU-h */
    L *= g * tau / 2.0 * T / steps / 3.0 / 3600.0;
    naive *= g * T / steps / 3.0 / 3600.0;
    double half, mean = mean_useful(decay_cfg, 1000, reps, 20, &half);
    printf("\n  useful %.0f GPU-h (99%%: +- %.0f); closed form %.0f - rollback %.0f = %.0f (not floored: %.0f)", mean,
           half, U, L, U - L, naive);
    CU_ASSERT(fabs(mean - (U - L)) <= half + 0.1 * L);
    CU_ASSERT(L < 0.01 * U);
    /* the floor at min_nodes matters: the unfloored form is far outside */
    CU_ASSERT(fabs(mean - naive) > half + 0.1 * L);
    /* rigid: its first failure ends it (no spare, no repair): ~ g M */
    const char *rigid[] = {"job.min_nodes=512"};
    dc_sim *sim = dc_simrun_text(decay_cfg, rigid, 1, 1000);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double ur = dc_simrun_fig(sim, "gpu_hours.useful");
    printf("; rigid %.0f", ur);
    CU_ASSERT(ur < 0.1 * mean);
    dc_sim_destroy(sim);
}

/* The step-time job: 8 nodes, replicas of 2 nodes, a node failure at t_f. */
static const char step_cfg[] =
    "horizon_days = 2.0; stop_when_done = false;\n"
    "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "network = { tiers = 2; nodes_per_leaf = 8; collective = \"ring\"; latency_us = 0.0; hop_latency_us = 0.0;\n"
    "            scaleup_latency_us = 0.0; };\n"
    "job = { nodes = 8; params = 2e9; tokens = 1e15; mfu = 0.5; restart_s = 100.0; min_nodes = 2;\n"
    "        reconfigure_s = 50.0; };\n"
    "parallelism = { tensor = 8; pipeline = 2; global_batch_tokens = 1048576.0; seq_len = 4096; };\n"
    "failures = ( { name = \"none\"; per = \"node\"; mtbf_h = 1e12; } );\n"
    "trace = { events = false; };\n";

/* The last node: the job keeps nodes 0-6 and lays its 6 nodes' ranks on
 * 0-5, where the rigid reference runs (the same racks, the same hops). */
static void fail_node7(dc_sim *sim, void *ctx, uint64_t arg)
{
    uint32_t node = 7;
    (void)ctx;
    (void)arg;
    dc_cluster_fail(dc_cluster_of(sim), 0, "none", &node, 1, -1); /* class 0: its repair law */
}

static dc_sim *run_failing(const char *text, const char *const *sets, size_t n, double at_s)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(text, sets, n, -1, &err);
    if (!sim) {
        fprintf(stderr, "build: %s\n", err.msg);
        return NULL;
    }
    if (at_s >= 0.0)
        dc_sim_at(sim, at_s, fail_node7, NULL, 0);
    return dc_simrun_run(sim);
}

static void test_step_model_shrink(void)
{
    const double T = 2.0 * 86400.0, tf = 20000.0, R = 100.0, C = 50.0;
    /* the rigid reference on 6 nodes: its useful rate after its restart */
    const char *six[] = {"job.nodes=6", "cluster.nodes=6"};
    dc_sim *ref = run_failing(step_cfg, six, 2, -1.0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref);
    double rate6 = dc_simrun_fig(ref, "gpu_hours.useful") / (T - R);
    double step6 = dc_simrun_fig(ref, "step.time_s");
    CU_ASSERT_EQUAL(dc_simrun_fig(ref, "step.data"), 3.0); /* 48 GPUs of replicas of 8 x 2 */
    dc_sim_destroy(ref);
    dc_sim *sim = run_failing(step_cfg, NULL, 0, tf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double step8 = dc_simrun_fig(sim, "step.time_s");
    CU_ASSERT(step6 > step8); /* fewer GPUs, the same global batch */
    /* step.* describe the job at full size, though it ended on 6 nodes */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "step.data"), 4.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.scaling_efficiency"),
                  dc_simrun_fig(sim, "step.compute_s") / step8, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.resizes"), 1.0);
    double useful = dc_simrun_fig(sim, "gpu_hours.useful");
    if (!REL(useful, rate6 * (T - tf - R - C), 1e-9))
        fprintf(stderr, "\n  useful %.12g, 6-node rate x time %.12g", useful, rate6 * (T - tf - R - C));
    CU_ASSERT(REL(useful, rate6 * (T - tf - R - C), 1e-9));
    /* the seventh node waits for a replica to complete */
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.waiting"), 8.0 * (T - tf) / 3600.0, 1e-9));
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.mean_nodes"), (8.0 * (tf - R) + 6.0 * (T - tf - R - C)) / (T - 2 * R - C),
                  1e-9));
    double rollback = dc_simrun_fig(sim, "gpu_hours.rollback");
    CU_ASSERT(rollback > 0.0);
    dc_sim_destroy(sim);
    /* a repair of 1 h: the node comes back and the job grows to 8 again
     * (a second resize, reconfigure_s of re-sharding, no rollback): it
     * runs on 6 from t_f + R + C to t_f + 1 h, then on 8 after C more */
    char text[sizeof step_cfg + 128];
    snprintf(text, sizeof text, "%srepair = { crews = 1; law = \"constant\"; mean_h = 1.0; };\n", step_cfg);
    sim = run_failing(text, NULL, 0, tf);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.resizes"), 2.0);
    double t6 = 3600.0 - R - C, t8 = (tf - R) + (T - tf - 3600.0 - C);
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.mean_nodes"), (6.0 * t6 + 8.0 * t8) / (t6 + t8), 1e-9));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.rollback"), rollback, 1e-9));
    dc_sim_destroy(sim);
}

/* Failures every 9 h a node, repairs after 1 h: the step-time job shrinks
 * and grows back while it runs, checkpointing every 1,000 s of computing.
 * Its resize sets its step's speed while it runs, which reschedules its
 * milestone (on_speed); the grow's reconfiguration must replace that
 * milestone, not leave it pending beside its own (each left one doubled the
 * checkpoints from there on: 3,377 in a run whose 151,000 s of computing
 * hold 151, and with tiered checkpoints two writes at once, the second
 * freeing the job's record under the first).  A checkpoint needs interval_s
 * of computing since the last or since a restart, and a restart loses at
 * most one interval: (running - (restarts + 1) interval) / interval <=
 * checkpoints <= running / interval + restarts + 1. */
static const char grow_cfg[] =
    "horizon_days = 2.0; stop_when_done = false;\n"
    "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "network = { tiers = 2; nodes_per_leaf = 8; collective = \"ring\"; latency_us = 0.0; hop_latency_us = 0.0;\n"
    "            scaleup_latency_us = 0.0; };\n"
    "job = { nodes = 8; params = 2e9; tokens = 1e15; mfu = 0.5; restart_s = 100.0; min_nodes = 2;\n"
    "        reconfigure_s = 50.0; };\n"
    "parallelism = { tensor = 8; pipeline = 2; global_batch_tokens = 1048576.0; seq_len = 4096; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 9.0; } );\n"
    "repair = { crews = 1; law = \"constant\"; mean_h = 1.0; };\n"
    "checkpoint = { interval_s = 1000.0; size_gb = 100.0; write_gb_per_s = 10.0; };\n"
    "trace = { events = false; };\n";

static void test_grow_one_milestone(void)
{
    const char *text = grow_cfg;
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = dc_simrun_text(text, NULL, 0, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double n = dc_simrun_fig(sim, "job.checkpoints"), run = dc_simrun_fig(sim, "job.time_running_h") * 3600.0;
        double restarts = dc_simrun_fig(sim, "job.interruptions") + dc_simrun_fig(sim, "job.resizes");
        CU_ASSERT(dc_simrun_fig(sim, "job.resizes") > 10.0); /* it did shrink and grow */
        if (!(n <= run / 1000.0 + restarts + 1.0 && n >= run / 1000.0 - restarts - 1.0))
            fprintf(stderr, "\n  seed %d: %.0f checkpoints in %.0f s of computing, %.0f restarts", (int)seed, n, run,
                    restarts);
        CU_ASSERT(n <= run / 1000.0 + restarts + 1.0);
        CU_ASSERT(n >= run / 1000.0 - restarts - 1.0);
        dc_sim_destroy(sim);
    }
}

static char tmpdir[256];

/* A job of 20 GPUs: 3 nodes held, 20 GPUs computing. */
static const char g20_cfg[] =
    "horizon_days = 2.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "network = { tiers = 2; nodes_per_leaf = 8; collective = \"ring\"; latency_us = 0.0; hop_latency_us = 0.0;\n"
    "            scaleup_latency_us = 0.0; };\n"
    "failures = ( { name = \"none\"; per = \"node\"; mtbf_h = 1e12; } );\n"
    "trace = { events = false; };\n";

static void test_twenty_gpus(void)
{
    const double T = 2.0 * 86400.0, R = 100.0;
    char text[sizeof g20_cfg + 512];
    /* no step-time model: 20 GPU-seconds a second, the 4 others wait */
    snprintf(text, sizeof text, "%sjob = { gpus = 20; work_gpu_h = 1e9; restart_s = 100.0; };\n", g20_cfg);
    dc_sim *sim = dc_simrun_text(text, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.gpus"), 20.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.useful"), 20.0 * (T - R) / 3600.0, 1e-12));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.restart"), 20.0 * R / 3600.0, 1e-12));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.waiting"), 4.0 * T / 3600.0, 1e-12));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 8.0 * T / 3600.0, 1e-12));
    dc_sim_destroy(sim);
    /* a step-time model of 20 GPUs (tensor 4 x data 5): Tc by hand, and
     * the useful rate 20 x Tc / T */
    const double P = 2e9, B = 1048576.0, peak = 989e12, e = 0.5;
    snprintf(text, sizeof text,
             "%sjob = { gpus = 20; params = 2e9; tokens = 1e15; mfu = 0.5; restart_s = 100.0; };\n"
             "parallelism = { tensor = 4; pipeline = 1; global_batch_tokens = 1048576.0; seq_len = 4096; };\n",
             g20_cfg);
    sim = dc_simrun_text(text, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double tc = dc_simrun_fig(sim, "step.compute_s"), ts = dc_simrun_fig(sim, "step.time_s");
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "step.data"), 5.0);
    CU_ASSERT(REL(tc, 6.0 * P * B / (20.0 * peak * e), 1e-12));
    CU_ASSERT(ts >= tc);
    double useful = dc_simrun_fig(sim, "gpu_hours.useful");
    if (!REL(useful, 20.0 * (T - R) * tc / ts / 3600.0, 1e-9))
        printf("\n  useful %.12g, 20 GPUs x Tc/T x time %.12g", useful, 20.0 * (T - R) * tc / ts / 3600.0);
    CU_ASSERT(REL(useful, 20.0 * (T - R) * tc / ts / 3600.0, 1e-9));
    dc_sim_destroy(sim);
}

/* The closed form in GPUs: 128 nodes, a job of 1020 GPUs down to 404. */
static const char decay_gpus_cfg[] =
    "horizon_days = 100.0; stop_when_done = false;\n"
    "cluster = { nodes = 128; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { gpus = 1020; work_gpu_h = 1e12; restart_s = 0.0; min_gpus = 404; };\n"
    "checkpoint = { interval_s = 120.0; size_gb = 1.0; write_gb_per_s = 10000.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 2400.0; } );\n"
    "trace = { events = false; };\n";

static void test_decay_gpus(void)
{
    const int n0 = 128, gpus = 1020, min = 404, reps = 64;
    const double M = 2400.0 * 3600.0, T = 100.0 * 86400.0, tau = 120.0;
    const int steps = 2000;
    double U = 0.0, L = 0.0, naive = 0.0;
    for (int i = 0; i <= steps; i++) {
        double t = T * i / steps, p = exp(-t / M), w = i == 0 || i == steps ? 1.0 : i % 2 ? 4.0 : 2.0;
        for (int k = 0; k <= n0; k++) {
            double s = 8.0 * k < gpus ? 8.0 * k : gpus, pk = gsl_ran_binomial_pdf((unsigned)k, p, (unsigned)n0);
            if (s < min)
                s = 0.0;
            U += w * s * pk;
            L += w * s * k / M * pk;          /* a failure at intensity A / M loses tau / 2 on s(A) GPUs */
            naive += w * (8.0 * k < gpus ? 8.0 * k : gpus) * pk; /* not floored at min_gpus */
        }
    }
    U *= T / steps / 3.0 / 3600.0;
    L *= tau / 2.0 * T / steps / 3.0 / 3600.0;
    naive *= T / steps / 3.0 / 3600.0;
    double half, mean = mean_useful(decay_gpus_cfg, 2000, reps, 0, &half);
    printf("\n  useful %.0f GPU-h (99%%: +- %.0f); closed form %.0f - rollback %.0f = %.0f (not floored: %.0f)", mean,
           half, U, L, U - L, naive);
    CU_ASSERT(fabs(mean - (U - L)) <= half + 0.1 * L);
    CU_ASSERT(L < 0.01 * U);
    CU_ASSERT(fabs(mean - naive) > half + 0.1 * L);
}

/* By hand: 30 GPUs of 6-GPU replicas (tensor 2 x pipeline 3) on four
 * 8-GPU nodes, at least 12; nodes fail at 10,000, 20,000 and 30,000 s and
 * come back 10 h later each. */
static const char seq_cfg[] =
    "horizon_days = 1.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "network = { tiers = 2; nodes_per_leaf = 8; collective = \"ring\"; latency_us = 0.0; hop_latency_us = 0.0;\n"
    "            scaleup_latency_us = 0.0; };\n"
    "job = { gpus = 30; params = 2e9; tokens = 1e15; mfu = 0.5; restart_s = 100.0; min_gpus = 12;\n"
    "        reconfigure_s = 50.0; };\n"
    "parallelism = { tensor = 2; pipeline = 3; global_batch_tokens = 1048576.0; seq_len = 4096; };\n"
    "failures = ( { name = \"none\"; per = \"node\"; mtbf_h = 1e12; } );\n"
    "repair = { crews = 4; law = \"constant\"; mean_h = 10.0; };\n"
    "trace = { events = true; };\n";

static void fail_one(dc_sim *sim, void *ctx, uint64_t node)
{
    uint32_t n = (uint32_t)node;
    (void)ctx;
    dc_cluster_fail(dc_cluster_of(sim), 0, "none", &n, 1, -1);
}

static void test_sequence(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(seq_cfg, NULL, 0, -1, &err);
    if (!sim)
        printf("\n  build: %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    for (uint64_t k = 0; k < 3; k++)
        dc_sim_at(sim, 10000.0 * (double)(k + 1), fail_one, NULL, 3 - k); /* nodes 3, 2, 1 */
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const double want_t[] = {10000.0, 20000.0, 56000.0, 66000.0}, want_g[] = {24.0, 12.0, 24.0, 30.0};
    const dc_eventlog *log = dc_sim_eventlog(sim);
    size_t n = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        const dc_eventlog_row *r = &dc_eventlog_rows(log)[i];
        if (strcmp(r->kind, "job_resize") != 0)
            continue;
        if (n < 4) {
            CU_ASSERT_EQUAL(r->time_s, want_t[n]);
            CU_ASSERT_EQUAL(r->value, want_g[n]);
        }
        n++;
    }
    CU_ASSERT_EQUAL(n, 4);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.resizes"), 4.0);
    /* computing again restart_s (100 s) after each start and shrink, plus
     * reconfigure_s (50 s) after a change of size; at 30,000 s it holds 8
     * GPUs (under 12): it waits, and at 46,000 s (16 GPUs: 12 again) it
     * restarts on 12 without re-sharding; each growth re-shards for 50 s */
    const double run_t[] = {100.0, 10150.0, 20150.0, 46100.0, 56050.0, 66050.0};
    size_t runs = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        const dc_eventlog_row *r = &dc_eventlog_rows(log)[i];
        if (strcmp(r->kind, "job_running") == 0) {
            if (runs < 6)
                CU_ASSERT_EQUAL(r->time_s, run_t[runs]);
            runs++;
        }
    }
    CU_ASSERT_EQUAL(runs, 6);
    /* the GPUs it computed on over its running time, by hand */
    const double dt[] = {9900.0, 9850.0, 9850.0, 9900.0, 9950.0, 20350.0}, g[] = {30, 24, 12, 12, 24, 30};
    double gs = 0.0, ts = 0.0;
    for (int k = 0; k < 6; k++) {
        gs += g[k] * dt[k];
        ts += dt[k];
    }
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.mean_nodes"), gs / ts / 8.0, 1e-9));
    dc_sim_destroy(sim);
}

static void fail_first_of_job0(dc_sim *sim, void *ctx, uint64_t arg)
{
    uint32_t n = 0;
    const uint32_t *nodes = dc_cluster_job_node_list(dc_cluster_of(sim), 0, &n);
    (void)ctx;
    (void)arg;
    CU_ASSERT_EQUAL_FATAL(n, 3);
    uint32_t node = nodes[0];
    dc_cluster_fail(dc_cluster_of(sim), 0, "none", &node, 1, -1);
}

/* A trace's floors: row 1 a 20-GPU job down to 8 GPUs, row 2 a rigid one
 * of 8 GPUs (an empty cell: the group's, none); node 0 (row 1's first)
 * fails at 10,000 s and never returns: row 1 goes on on its 2 other nodes'
 * 16 GPUs, from 10,000 + restart_s (0 here). */
static void test_trace_floor(void)
{
    char csv[512], cfg[512];
    snprintf(csv, sizeof csv, "%s/floor.csv", tmpdir);
    snprintf(cfg, sizeof cfg, "%s/floor.cfg", tmpdir);
    dc_test_write_text(csv, "arrival_h,gpus,work_gpu_h,priority,pool,user,kind,min_gpus\n"
                            "0,20,1e6,0,,,,8\n"
                            "0,8,1e6,0,,,,\n");
    dc_test_write_text(cfg, "horizon_days = 1.0; stop_when_done = false;\n"
                            "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                            "jobs = ( { name = \"t\"; trace = \"floor.csv\"; restart_s = 0.0; } );\n"
                            "failures = ( { name = \"none\"; per = \"node\"; mtbf_h = 1e12; } );\n"
                            "trace = { events = true; };\n");
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load_file(cfg, NULL, 0, &err);
    if (!sc)
        printf("\n  %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *sim = NULL;
    int rc = dc_build(sc, 1, &sim, &err);
    dc_scenario_destroy(sc);
    if (rc != DC_OK)
        printf("\n  %s", err.msg);
    CU_ASSERT_EQUAL_FATAL(rc, DC_OK);
    dc_sim_at(sim, 10000.0, fail_first_of_job0, NULL, 0);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_eventlog *log = dc_sim_eventlog(sim);
    size_t n = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        const dc_eventlog_row *r = &dc_eventlog_rows(log)[i];
        if (strcmp(r->kind, "job_resize") == 0) {
            CU_ASSERT_EQUAL(r->job, 0);
            CU_ASSERT_EQUAL(r->time_s, 10000.0);
            CU_ASSERT_EQUAL(r->value, 16.0);
            n++;
        }
    }
    CU_ASSERT_EQUAL(n, 1);
    /* useful: row 1's 20 GPUs x 10,000 s are rolled back (no checkpoint
     * group: no checkpoints), then it computes on 16; row 2 on 8 all day */
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.useful"), (16.0 * (86400.0 - 10000.0) + 8.0 * 86400.0) / 3600.0,
                  1e-12));
    CU_ASSERT(REL(dc_simrun_fig(sim, "gpu_hours.rollback"), 20.0 * 10000.0 / 3600.0, 1e-12));
    dc_sim_destroy(sim);
    /* a floor above the row's size: the file and line, exit status 2 */
    dc_test_write_text(csv, "arrival_h,gpus,work_gpu_h,priority,pool,user,kind,min_gpus\n"
                            "0,20,1e6,0,,,,8\n"
                            "0,8,1e6,0,,,,12\n");
    char text[1024];
    snprintf(text, sizeof text,
             "horizon_days = 1.0;\ncluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; };\n"
             "jobs = ( { name = \"t\"; trace = \"%s\"; } );\n", csv);
    const char *f[] = {"floor.csv:3", "min_gpus", "12 is more than the row's 8 GPUs"};
    dc_test_bad_run(tmpdir, "a trace row's floor above its size", text, NULL, f, 3);
}

/* The first arg nodes of job 0 fail together. */
static void fail_n_of_job0(dc_sim *sim, void *ctx, uint64_t arg)
{
    uint32_t n = 0, take[8];
    const uint32_t *nodes = dc_cluster_job_node_list(dc_cluster_of(sim), 0, &n);
    (void)ctx;
    CU_ASSERT_FATAL(n >= arg && arg <= 8);
    memcpy(take, nodes, arg * sizeof *take);
    dc_cluster_fail(dc_cluster_of(sim), 0, "none", take, (uint32_t)arg, -1);
}

/* Where the floor comes from: a jobs entry's own key before its class's,
 * its class's before the defaults', a class's or the defaults' floor cut
 * to the job's size.  A 24-GPU job on all three 8-GPU nodes, no spare, no
 * repair, no checkpoint: k of its nodes fail at 10,000 s; it then runs on
 * its floor or more from there (useful: those GPUs x the rest of the day),
 * or waits for good (useful 0). */
static void test_chain_floor(void)
{
    static const struct {
        const char *what, *classes, *defaults, *own;
        int fail;
        double gpus_after; /* 0: waits */
    } c[] = {
        {"own min_gpus 8 over the class's min_nodes 2", "min_nodes = 2;", "", "min_gpus = 8;", 2, 8.0},
        {"the class's min_nodes 2: 8 GPUs are too few", "min_nodes = 2;", "", "", 2, 0.0},
        {"the class's min_nodes 2: 16 GPUs will do", "min_nodes = 2;", "", "", 1, 16.0},
        {"the class's min_gpus over the defaults' min_nodes", "min_gpus = 8;", "min_nodes = 3;", "", 2, 8.0},
        {"the defaults' min_gpus 100 cut to the job's 24: rigid", "", "min_gpus = 100;", "", 1, 0.0},
    };
    for (size_t k = 0; k < sizeof c / sizeof c[0]; k++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "horizon_days = 1.0; stop_when_done = false;\n"
                 "cluster = { nodes = 3; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                 "job_classes = ( { name = \"c\"; %s } );\n"
                 "defaults = { %s };\n"
                 "jobs = ( { name = \"a\"; class = \"c\"; gpus = 24; work_gpu_h = 1e6; restart_s = 0.0; %s } );\n"
                 "failures = ( { name = \"none\"; per = \"node\"; mtbf_h = 1e12; } );\n"
                 "trace = { events = true; };\n",
                 c[k].classes, c[k].defaults, c[k].own);
        dc_error err = {0};
        dc_sim *sim = dc_simrun_build(text, NULL, 0, 1, &err);
        if (!sim)
            printf("\n  %s: %s", c[k].what, err.msg);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        dc_sim_at(sim, 10000.0, fail_n_of_job0, NULL, (uint64_t)c[k].fail);
        sim = dc_simrun_run(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        size_t resizes = 0;
        const dc_eventlog *log = dc_sim_eventlog(sim);
        for (size_t i = 0; i < dc_eventlog_count(log); i++)
            if (strcmp(dc_eventlog_rows(log)[i].kind, "job_resize") == 0) {
                CU_ASSERT_EQUAL(dc_eventlog_rows(log)[i].value, c[k].gpus_after);
                resizes++;
            }
        double useful = dc_simrun_fig(sim, "gpu_hours.useful");
        if (resizes != (c[k].gpus_after > 0) || !REL(useful, c[k].gpus_after * 76400.0 / 3600.0, 1e-12))
            printf("\n  %s: %zu resizes, useful %g GPU-h", c[k].what, resizes, useful);
        CU_ASSERT_EQUAL(resizes, c[k].gpus_after > 0 ? 1u : 0u);
        CU_ASSERT(c[k].gpus_after > 0 ? REL(useful, c[k].gpus_after * 76400.0 / 3600.0, 1e-12) : useful == 0.0);
        dc_sim_destroy(sim);
    }
}

static void test_bad_keys(void)
{
    static const char base[] = "horizon_days = 1.0;\n"
                               "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; };\n";
    char cfg[1024];
    snprintf(cfg, sizeof cfg, "%sjob = { gpus = 20; work_gpu_h = 100.0;\n  min_gpus = 24; };\n", base);
    const char *f1[] = {"bad.cfg:4", "job.min_gpus", "min_gpus = 24 is more than the job's 20 GPUs"};
    dc_test_bad_run(tmpdir, "min_gpus above gpus", cfg, NULL, f1, 3);
    snprintf(cfg, sizeof cfg, "%sjobs = ( { name = \"a\"; gpus = 20; work_gpu_h = 100.0;\n  min_nodes = 1; min_gpus = 8; } );\n",
             base);
    const char *f2[] = {"bad.cfg:4", "jobs.[0].min_gpus", "give the job's elastic floor as min_nodes or min_gpus, not both"};
    dc_test_bad_run(tmpdir, "min_nodes and min_gpus", cfg, NULL, f2, 3);
    snprintf(cfg, sizeof cfg,
             "%sjob = { gpus = 24; params = 2e9; tokens = 1e15;\n  min_gpus = 10; };\n"
             "parallelism = { tensor = 4; pipeline = 1; global_batch_tokens = 1048576.0; };\n"
             "network = { tiers = 2; nodes_per_leaf = 8; };\n",
             base);
    const char *f3[] = {"bad.cfg:4", "job.min_gpus",
                        "min_gpus = 10 is not a whole number of model replicas (tensor x pipeline = 4 x 1 = 4 GPUs)"};
    dc_test_bad_run(tmpdir, "min_gpus not whole replicas", cfg, NULL, f3, 3);
    snprintf(cfg, sizeof cfg, "%sjob = { nodes = 2; work_gpu_h = 100.0;\n  min_nodes = 3; };\n", base);
    const char *f4[] = {"bad.cfg:4", "job.min_nodes", "min_nodes = 3 is more than the job's 2 nodes"};
    dc_test_bad_run(tmpdir, "min_nodes above nodes", cfg, NULL, f4, 3);
}

static int register_suites(void)
{
    DC_TEST_SUITE("elastic jobs",
                  {"no spares, no repair: useful work as the expected size (binomial) times the rate",
                   test_decay_closed_form},
                  {"a step-time job shrinks to whole replicas at its step's throughput, grows back",
                   test_step_model_shrink},
                  {"20 GPUs compute at 20 GPUs' rate, not their 3 nodes' 24 (with and without a step-time model)",
                   test_twenty_gpus},
                  {"min_gpus, no spares, no repair: useful work as the expected size in GPUs times the rate",
                   test_decay_gpus},
                  {"a GPU job of 6-GPU replicas shrinks and grows at the failures and repairs, by hand", test_sequence},
                  {"a growing job keeps one milestone: its checkpoints follow its computing", test_grow_one_milestone},
                  {"a trace's min_gpus column: each row's floor", test_trace_floor},
                  {"the floor from the job's own group, its class, the defaults; cut to its size", test_chain_floor},
                  {"bad elastic keys: exit status 2, file, line, key and message", test_bad_keys});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("elastic", tmpdir, sizeof tmpdir, register_suites);
}
