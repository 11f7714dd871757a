/* Tests of dcsim size: the search against a scan of every size, its monotonicity in the deadline,
 * the seed's closed form in the deterministic limit, the scaling of a scenario, plans, the CLI.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* analysis/size.h:
 *  - the assignments a size makes (cluster, spares, crews, parts, site power
 *    and cooling scaled, steps of whole tensor x pipeline groups) and those
 *    of a plan's assumptions (numbers and distributions), against hand values;
 *  - an evaluation runs the seeds S + r: each replication's days equal a
 *    plain run of the scenario at that size and seed;
 *  - the search finds the smallest size that a scan of every size finds
 *    (a small scenario with failures, repairs and checkpoints), for three
 *    deadlines and two confidences, with fewer evaluations than the scan;
 *  - the answer never grows when the deadline grows;
 *  - with no failures, no checkpoints and no other loss the answer is the
 *    seed's closed form work / (rate x time x utilisation), rounded up to
 *    whole nodes, exactly, for several deadlines;
 *  - a deadline no size can meet is an answer (not found, why);
 *  - the command line: the table, --json, bad input with its message and
 *    status 2, and the figure.  It runs $DCSIM (tests/runner.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry.h"
#include "runner.h"
#include "simrun.h"
#include "size.h"
#include "testutil.h"

/* A small cluster with node failures, a crew, spares and checkpoints:
 * 16 nodes take 2.5 days of pure work. */
static const char small_cfg[] =
    "name = \"size_small\"; seed = 3; horizon_days = 10.0;\n"
    "cluster = { nodes = 16; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 16; work_gpu_h = 7680.0; restart_s = 900.0; };\n"
    "checkpoint = { interval_s = 3600.0; write_gb_per_s = 20.0; size_gb = 600.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 200.0; },\n"
    "             { name = \"software\"; per = \"job\"; mtbf_h = 12.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 6.0; sigma = 0.8; };\n";

/* No loss at all: the job runs at peak x mfu from start to end. */
static const char ideal_cfg[] =
    "name = \"size_ideal\"; seed = 1; horizon_days = 30.0;\n"
    "cluster = { nodes = 10; gpus_per_node = 8; };\n"
    "job = { nodes = 10; params = 7e9; tokens = 1e11; mfu = 0.4; gpu_peak_tflops = 989.0; restart_s = 0.0; };\n";

/* The flagship's shape for the scaling: tensor 8 x pipeline 16 on 8-GPU nodes. */
static const char shape_cfg[] =
    "name = \"size_shape\"; seed = 1; horizon_days = 30.0;\n"
    "cluster = { nodes = 1280; spare_nodes = 64; gpus_per_node = 8; };\n"
    "job = { nodes = 1280; params = 405e9; tokens = 1e12;\n"
    "        mfu = { dist = \"triangular\"; min = 0.4; mode = 0.5; max = 0.55; }; };\n"
    "parallelism = { tensor = 8; pipeline = 16; global_batch_tokens = 16777216.0; seq_len = 8192; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 100000.0; },\n"
    "             { name = \"nic\"; per = \"node\"; afr = 0.02; },\n"
    "             { name = \"old\"; per = \"node\"; law = \"weibull\"; scale_h = 50000.0; shape = 2.0; } );\n"
    "repair = { crews = 4; law = \"lognormal\"; median_h = 1.0; sigma = 1.0;\n"
    "           parts = ( { name = \"gpu\"; stock = 64; reorder_point = 32; order_up_to = 64; lead_time_h = 168.0; } ); };\n"
    "power = { gpu = { idle_w = 75.0; peak_w = 700.0; }; site_cap_mw = 11.3; network = { switches = 864; switch_w = 1300.0; }; };\n"
    "cooling = { type = \"liquid\"; capacity_kw = 15000.0; units = 6; };\n"
    "cost = { capex = { gpu_usd = 27000.0; server_usd = 60000.0; switches = 864; };\n"
    "         rent = { on_demand_usd_per_gpu_h = 3.0; }; };\n";

static dc_size_spec spec_for(const char *text, size_t reps, double deadline)
{
    return (dc_size_spec){
        .text = text,
        .text_name = "t.cfg",
        .schemas = dc_schemas(),
        .build = dc_build,
        .reps = reps,
        .seed = -1,
        .threads = 2,
        .deadline_days = deadline,
        .max_nodes = 256,
    };
}

static dc_sizer *sizer_for(const char *text, size_t reps, double deadline)
{
    dc_size_spec sp = spec_for(text, reps, deadline);
    dc_sizer *s = NULL;
    dc_error err = {0};
    if (dc_sizer_create(&sp, &s, &err) != DC_OK)
        fprintf(stderr, "\n  sizer: %s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    return s;
}

static bool has(char **list, size_t n, const char *assignment)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i], assignment) == 0)
            return true;
    fprintf(stderr, "\n  missing assignment %s\n", assignment);
    return false;
}

/* KEY=VALUE with the value printed as the assignments print it */
static bool hasf(char **list, size_t n, const char *key, double v)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s=%.17g", key, v);
    return has(list, n, buf);
}

static void free_list(char **list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(list[i]);
    free(list);
}

/* ---- scaling -------------------------------------------------------------------------- */

static void test_shape_and_assignments(void)
{
    dc_sizer *s = sizer_for(shape_cfg, 1, 100.0);
    const dc_size_shape *sh = dc_sizer_shape(s);
    CU_ASSERT_EQUAL(sh->gpus_per_node, 8);
    CU_ASSERT_EQUAL(sh->job_nodes, 1280);
    CU_ASSERT_EQUAL(sh->step_nodes, 16); /* lcm(8, 128) / 8 */
    CU_ASSERT_EQUAL(sh->crews, 4);
    char **l = NULL;
    size_t n = 0, cap = 0;
    dc_error err = {0};
    /* half the job: half the site */
    CU_ASSERT_EQUAL_FATAL(dc_size_assignments(dc_sizer_scenario(s), sh, 640, 100.0, &l, &n, &cap, &err), DC_OK);
    CU_ASSERT(has(l, n, "job.nodes=640"));
    CU_ASSERT(has(l, n, "cluster.nodes=640"));
    CU_ASSERT(has(l, n, "cluster.spare_nodes=32"));
    CU_ASSERT(has(l, n, "repair.crews=2"));
    CU_ASSERT(has(l, n, "repair.parts.[0].stock=32"));
    CU_ASSERT(has(l, n, "repair.parts.[0].reorder_point=16"));
    CU_ASSERT(has(l, n, "repair.parts.[0].order_up_to=32"));
    CU_ASSERT(has(l, n, "power.site_cap_mw=5.6500000000000004"));
    CU_ASSERT(has(l, n, "power.network.switches=432"));
    CU_ASSERT(has(l, n, "cooling.capacity_kw=7500"));
    CU_ASSERT(has(l, n, "cost.capex.switches=432"));
    CU_ASSERT(has(l, n, "stop_when_done=true"));
    CU_ASSERT(has(l, n, "horizon_days=150"));
    CU_ASSERT(has(l, n, "deadline.days=100"));
    free_list(l, n);
    /* a tiny job keeps a crew and a spare (rounded up) and a part level above its reorder point */
    l = NULL;
    n = cap = 0;
    CU_ASSERT_EQUAL_FATAL(dc_size_assignments(dc_sizer_scenario(s), sh, 16, 100.0, &l, &n, &cap, &err), DC_OK);
    CU_ASSERT(has(l, n, "repair.crews=1"));
    CU_ASSERT(has(l, n, "cluster.spare_nodes=1")); /* 64 x 16/1280 = 0.8 */
    CU_ASSERT(has(l, n, "repair.parts.[0].stock=1"));          /* 64 x 0.0125 = 0.8, up */
    CU_ASSERT(has(l, n, "repair.parts.[0].reorder_point=1"));  /* 0.4, up */
    CU_ASSERT(has(l, n, "repair.parts.[0].order_up_to=2"));    /* 0.8, up, then above the reorder point */
    free_list(l, n);
    dc_sizer_destroy(s);
}

static void test_assumptions(void)
{
    dc_sizer *s = sizer_for(shape_cfg, 1, 100.0);
    char **l = NULL;
    size_t n = 0, cap = 0;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_size_assumptions(dc_sizer_scenario(s), 0.8, 2.0, 1.25, &l, &n, &cap, &err), DC_OK);
    /* the MFU's distribution scaled through its parameters */
    CU_ASSERT(hasf(l, n, "job.mfu.min", 0.4 * 0.8));
    CU_ASSERT(hasf(l, n, "job.mfu.mode", 0.5 * 0.8));
    CU_ASSERT(hasf(l, n, "job.mfu.max", 0.55 * 0.8));
    /* twice the failure rate: half the time scales, twice the afr */
    CU_ASSERT(has(l, n, "failures.[0].mtbf_h=50000"));
    CU_ASSERT(hasf(l, n, "failures.[1].afr", 0.02 * 2.0));
    CU_ASSERT(has(l, n, "failures.[2].scale_h=25000"));
    CU_ASSERT(has(l, n, "cost.capex.gpu_usd=33750"));
    CU_ASSERT(has(l, n, "cost.capex.server_usd=75000"));
    CU_ASSERT(has(l, n, "cost.rent.on_demand_usd_per_gpu_h=3.75"));
    free_list(l, n);
    /* factors of 1 change nothing */
    l = NULL;
    n = cap = 0;
    CU_ASSERT_EQUAL(dc_size_assumptions(dc_sizer_scenario(s), 1.0, 1.0, 1.0, &l, &n, &cap, &err), DC_OK);
    CU_ASSERT_EQUAL(n, 0);
    free_list(l, n);
    dc_sizer_destroy(s);

    /* an empirical law cannot be scaled: the key is named */
    static const char emp[] = "name = \"e\"; horizon_days = 1.0;\n"
                              "cluster = { nodes = 2; };\n"
                              "job = { nodes = 2; work_gpu_h = 10.0;\n"
                              "        mfu = { dist = \"empirical\"; values = [0.3, 0.4]; }; };\n";
    s = sizer_for(emp, 1, 1.0);
    l = NULL;
    n = cap = 0;
    CU_ASSERT_EQUAL(dc_size_assumptions(dc_sizer_scenario(s), 1.0, 1.0, 1.0, &l, &n, &cap, &err), DC_OK);
    free_list(l, n);
    l = NULL;
    n = cap = 0;
    /* work_gpu_h is given, so the MFU factor divides the work (a number) */
    CU_ASSERT_EQUAL(dc_size_assumptions(dc_sizer_scenario(s), 0.5, 1.0, 1.0, &l, &n, &cap, &err), DC_OK);
    CU_ASSERT(has(l, n, "job.work_gpu_h=20"));
    free_list(l, n);
    dc_sizer_destroy(s);
}

/* The layout from a class and from "auto": the step follows the run's. */
static void test_layout_from_class_and_auto(void)
{
    static const char classed[] =
        "name = \"c\"; horizon_days = 60.0;\n"
        "cluster = { nodes = 16; gpus_per_node = 4; };\n"
        "network = { tiers = 2; nodes_per_leaf = 4; };\n"
        "job_classes = ( { name = \"m\"; params = 8e9; tokens = 1e11; mfu = 0.45;\n"
        "  parallelism = { tensor = 4; pipeline = 2; global_batch_tokens = 2097152.0; }; } );\n"
        "job = { class = \"m\"; nodes = 16; restart_s = 60.0; };\n";
    dc_sizer *s = sizer_for(classed, 1, 10.0);
    CU_ASSERT_EQUAL(dc_sizer_shape(s)->step_nodes, 2); /* lcm(4, 8) / 4 */
    dc_size_answer a;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_sizer_search(s, 0, 10.0, 0.9, &a, &err), DC_OK);
    CU_ASSERT(a.found);
    CU_ASSERT_EQUAL(a.job_nodes % 2, 0);
    dc_sizer_destroy(s);
    /* a class's mfu is the one a plan's factor scales */
    s = sizer_for(classed, 1, 10.0);
    char **l = NULL;
    size_t n = 0, cap = 0;
    CU_ASSERT_EQUAL(dc_size_assumptions(dc_sizer_scenario(s), 0.5, 1.0, 1.0, &l, &n, &cap, &err), DC_OK);
    CU_ASSERT(hasf(l, n, "job_classes.[0].mfu", 0.45 * 0.5));
    free_list(l, n);
    dc_sizer_destroy(s);

    static const char automatic[] =
        "name = \"a\"; horizon_days = 60.0;\n"
        "cluster = { nodes = 16; gpus_per_node = 8; };\n"
        "network = { tiers = 2; nodes_per_leaf = 4; };\n"
        "storage = { tiers = ( { name = \"hbm\"; kind = \"hbm\"; capacity_tb = 0.32; read_gb_per_s = 2e4;\n"
        "            write_gb_per_s = 2e4; } ); };\n"
        "job = { nodes = 16; params = 70e9; tokens = 2e11; mfu = 0.5; };\n"
        "job_classes = ( { name = \"c\"; parallelism = { tensor = \"auto\"; pipeline = \"auto\"; data = \"auto\";\n"
        "  global_batch_tokens = 4194304.0; }; } );\n"
        "defaults = { class = \"c\"; };\n";
    s = sizer_for(automatic, 1, 30.0);
    CU_ASSERT_EQUAL(dc_sizer_shape(s)->step_nodes, 1); /* not known before a run */
    CU_ASSERT_EQUAL_FATAL(dc_sizer_search(s, 0, 30.0, 0.9, &a, &err), DC_OK);
    /* 70B in 40 GB per GPU: tensor 8 x pipeline 2 (tests/test_fabric), so steps of 2 nodes */
    CU_ASSERT_EQUAL(dc_sizer_shape(s)->tensor, 8);
    CU_ASSERT_EQUAL(dc_sizer_shape(s)->pipeline, 2);
    CU_ASSERT_EQUAL(dc_sizer_shape(s)->step_nodes, 2);
    CU_ASSERT(a.found);
    CU_ASSERT_EQUAL(a.job_nodes % 2, 0);
    dc_sizer_destroy(s);
}

static void test_no_job(void)
{
    static const char nojob[] = "name = \"n\"; horizon_days = 1.0; cluster = { nodes = 2; };\n";
    dc_size_spec sp = spec_for(nojob, 1, 1.0);
    dc_sizer *s = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL(dc_sizer_create(&sp, &s, &err), DC_EINPUT);
    CU_ASSERT_PTR_NULL(s);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "has none"));
    /* delivery stages and node types fix the node counts a size changes */
    static const char *const fixed[] = {
        "name = \"n\"; horizon_days = 1.0; job = { nodes = 2; work_gpu_h = 1.0; };\n"
        "cluster = { nodes = 2;\n delivery = ( { nodes = 1; }, { day = 1.0; nodes = 1; } ); };\n",
        "name = \"n\"; horizon_days = 1.0; job = { nodes = 2; work_gpu_h = 1.0; };\n"
        "cluster = { nodes = 2;\n types = ( { name = \"a\"; nodes = 1; }, { name = \"b\"; nodes = 1; } ); };\n"};
    const char *key[] = {":3: cluster.delivery: dcsim size scales cluster.nodes, not the nodes of delivery stages",
                         ":3: cluster.types: dcsim size scales cluster.nodes, not the nodes of delivery stages"};
    for (size_t k = 0; k < 2; k++) {
        sp = spec_for(fixed[k], 1, 1.0);
        CU_ASSERT_EQUAL(dc_sizer_create(&sp, &s, &err), DC_EINPUT);
        CU_ASSERT_PTR_NULL(s);
        if (!strstr(err.msg, key[k]))
            fprintf(stderr, "\n  %s", err.msg);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, key[k]));
    }
}

/* ---- evaluations are plain runs with the seeds S + r --------------------------------- */

static void test_evaluation_is_runs(void)
{
    dc_sizer *s = sizer_for(small_cfg, 5, 3.0);
    const dc_size_eval *e;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_sizer_evaluate(s, 0, 12, &e, &err), DC_OK);
    CU_ASSERT_EQUAL(e->reps, 5);
    CU_ASSERT_EQUAL(e->gpus, 96);
    CU_ASSERT_EQUAL(e->cluster_nodes, 12);
    char **l = NULL;
    size_t n = 0, cap = 0;
    CU_ASSERT_EQUAL_FATAL(dc_size_assignments(dc_sizer_scenario(s), dc_sizer_shape(s), 12, 3.0, &l, &n, &cap, &err),
                          DC_OK);
    double days[5];
    for (size_t r = 0; r < 5; r++) {
        dc_sim *sim = dc_simrun_text(small_cfg, (const char *const *)l, n, (int64_t)(3 + r));
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double d = NAN, done = 0;
        dc_summary_get(dc_sim_summary(sim), "job.completion_days", &d);
        dc_summary_get(dc_sim_summary(sim), "job.completed", &done);
        days[r] = done > 0 ? d : INFINITY;
        dc_sim_destroy(sim);
    }
    /* the evaluation's days are sorted */
    for (size_t a = 1; a < 5; a++)
        for (size_t b = a; b > 0 && days[b] < days[b - 1]; b--) {
            double t = days[b];
            days[b] = days[b - 1];
            days[b - 1] = t;
        }
    for (size_t r = 0; r < 5; r++)
        CU_ASSERT_EQUAL(e->days[r], days[r]);
    free_list(l, n);
    /* cached: the same pointer */
    const dc_size_eval *again;
    CU_ASSERT_EQUAL(dc_sizer_evaluate(s, 0, 12, &again, &err), DC_OK);
    CU_ASSERT_PTR_EQUAL(again, e);
    dc_sizer_destroy(s);
}

/* ---- the search against a scan ---------------------------------------------------------- */

#define SCAN_MAX 48

/* The smallest size a scan of 1..SCAN_MAX nodes finds meeting (t, c); 0: none.
 * Every size runs in a fresh sizer, smallest first. */
static uint64_t scan(double deadline, double c, size_t reps, bool *monotone)
{
    dc_sizer *s = sizer_for(small_cfg, reps, deadline);
    uint64_t first = 0;
    *monotone = true;
    dc_error err = {0};
    for (uint64_t n = 1; n <= SCAN_MAX; n++) {
        const dc_size_eval *e;
        if (dc_sizer_evaluate(s, 0, n, &e, &err) != DC_OK) {
            fprintf(stderr, "\n  scan at %llu: %s\n", (unsigned long long)n, err.msg);
            CU_FAIL("scan");
            break;
        }
        bool meets = dc_size_meets(e, deadline, c);
        if (meets && !first)
            first = n;
        if (!meets && first)
            *monotone = false;
    }
    dc_sizer_destroy(s);
    return first;
}

static uint64_t search(double deadline, double c, size_t reps, size_t *evaluations)
{
    dc_sizer *s = sizer_for(small_cfg, reps, deadline);
    dc_size_answer a;
    dc_error err = {0};
    CU_ASSERT_EQUAL(dc_sizer_search(s, 0, deadline, c, &a, &err), DC_OK);
    CU_ASSERT(a.found);
    *evaluations = a.evaluations;
    uint64_t n = a.found ? a.job_nodes : 0;
    if (a.found) {
        CU_ASSERT(dc_size_meets(a.eval, deadline, c));
        CU_ASSERT_EQUAL(a.eval->job_nodes, n);
    }
    dc_sizer_destroy(s);
    return n;
}

static void test_search_equals_scan(void)
{
    const double deadlines[] = {2.9, 3.5, 5.0};
    const double conf[] = {0.5, 0.9};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 2; j++) {
            bool monotone;
            uint64_t want = scan(deadlines[i], conf[j], 10, &monotone);
            size_t evals;
            uint64_t got = search(deadlines[i], conf[j], 10, &evals);
            printf("\n    deadline %.1f d, confidence %.1f: scan %llu nodes, search %llu nodes in %zu evaluations%s",
                   deadlines[i], conf[j], (unsigned long long)want, (unsigned long long)got, evals,
                   monotone ? "" : " (meeting not monotone in the size)");
            CU_ASSERT(monotone);
            CU_ASSERT(want > 1 && want < SCAN_MAX); /* an interior answer: the test can fail */
            CU_ASSERT_EQUAL(got, want);
            CU_ASSERT(evals < SCAN_MAX / 3);
        }
}

static void test_monotone_in_deadline(void)
{
    uint64_t last = UINT64_MAX;
    for (double d = 2.7; d <= 8.0; d *= 1.15) {
        size_t evals;
        uint64_t n = search(d, 0.9, 10, &evals);
        CU_ASSERT(n <= last);
        last = n;
    }
    CU_ASSERT(last >= 1);
}

/* ---- the deterministic limit ------------------------------------------------------------- */

static void test_closed_form(void)
{
    /* work / (rate x time x utilisation) rounded up to whole 8-GPU nodes */
    const double flop = 6.0 * 7e9 * 1e11, rate = 989e12, util = 0.4;
    const double deadlines[] = {0.5, 1.0, 2.0, 3.3, 7.9};
    for (size_t i = 0; i < sizeof deadlines / sizeof deadlines[0]; i++) {
        double d = deadlines[i];
        uint64_t want = (uint64_t)ceil(flop / (rate * d * 86400.0 * util) / 8.0);
        dc_sizer *s = sizer_for(ideal_cfg, 2, d);
        dc_size_answer a;
        dc_error err = {0};
        CU_ASSERT_EQUAL_FATAL(dc_sizer_search(s, 0, d, 0.9, &a, &err), DC_OK);
        CU_ASSERT(a.found);
        CU_ASSERT_EQUAL(a.job_nodes, want);
        CU_ASSERT_EQUAL(dc_size_closed_form_nodes(dc_sizer_shape(s), a.eval, d), want);
        /* and one node less is too slow */
        const dc_size_eval *e;
        if (want > 1) {
            CU_ASSERT_EQUAL(dc_sizer_evaluate(s, 0, want - 1, &e, &err), DC_OK);
            CU_ASSERT(!dc_size_meets(e, d, 0.9));
        }
        dc_sizer_destroy(s);
    }
}

static void test_unreachable(void)
{
    /* 16 GPU-h of pure work cannot be done in a minute by at most 8 nodes */
    static const char tiny[] = "name = \"t\"; horizon_days = 1.0; cluster = { nodes = 1; };\n"
                               "job = { nodes = 1; work_gpu_h = 16.0; restart_s = 0.0; };\n";
    dc_size_spec sp = spec_for(tiny, 1, 1.0 / 1440.0);
    sp.max_nodes = 8;
    dc_sizer *s = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_sizer_create(&sp, &s, &err), DC_OK);
    dc_size_answer a;
    CU_ASSERT_EQUAL(dc_sizer_search(s, 0, 1.0 / 1440.0, 0.9, &a, &err), DC_OK);
    CU_ASSERT(!a.found);
    CU_ASSERT_EQUAL(a.limit_nodes, 8);
    CU_ASSERT_PTR_NOT_NULL(strstr(a.why, "up to 8 nodes"));
    dc_sizer_destroy(s);
}

/* ---- plans ------------------------------------------------------------------------------- */

static void test_plans(void)
{
    dc_size_plan p[DC_SIZE_PLANS];
    dc_size_plan_defaults(p, 0.9);
    CU_ASSERT_STRING_EQUAL(p[0].name, "conservative");
    CU_ASSERT_EQUAL(p[0].confidence, 0.5);
    CU_ASSERT_EQUAL(p[2].deadline_share, 0.8);
    dc_error err = {0};
    CU_ASSERT_EQUAL(dc_size_plan_override(p, "aggressive.failures=1.5", &err), DC_OK);
    CU_ASSERT_EQUAL(p[2].failures, 1.5);
    CU_ASSERT_EQUAL(dc_size_plan_override(p, "bold.mfu=1.1", &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no plan named 'bold'"));
    CU_ASSERT_EQUAL(dc_size_plan_override(p, "balanced.speed=2", &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no plan key 'speed'"));
    CU_ASSERT_EQUAL(dc_size_plan_override(p, "balanced.confidence=1.5", &err), DC_EINPUT);
    CU_ASSERT_EQUAL(dc_size_plan_override(p, "balanced.confidence=x", &err), DC_EINPUT);

    /* more failures need at least as many nodes; an earlier target, more */
    dc_sizer *s = sizer_for(small_cfg, 10, 3.5);
    dc_size_plan_result base, worse, early;
    dc_size_plan_defaults(p, 0.9);
    CU_ASSERT_EQUAL_FATAL(dc_sizer_plan(s, &p[1], &base, &err), DC_OK);
    dc_size_plan w = p[1];
    w.failures = 1.5;
    CU_ASSERT_EQUAL_FATAL(dc_sizer_plan(s, &w, &worse, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_sizer_plan(s, &p[2], &early, &err), DC_OK);
    if (!base.answer.found || !worse.answer.found || !early.answer.found)
        fprintf(stderr, "\n  plans: %s | %s | %s\n", base.answer.why, worse.answer.why, early.answer.why);
    CU_ASSERT(base.answer.found && worse.answer.found && early.answer.found);
    CU_ASSERT_EQUAL(base.assumptions, 0);
    CU_ASSERT_NOT_EQUAL(worse.assumptions, 0);
    CU_ASSERT(worse.answer.job_nodes > base.answer.job_nodes);
    CU_ASSERT(early.answer.job_nodes >= base.answer.job_nodes);
    CU_ASSERT_DOUBLE_EQUAL(early.target_days, 0.8 * 3.5, 1e-12);
    dc_sizer_destroy(s);
}

/* ---- the command line -------------------------------------------------------------------- */

static void test_cli(void)
{
    if (!dc_runner_dcsim_path()) {
        CU_FAIL("DCSIM is not set");
        return;
    }
    char dir[] = "/tmp/dcsim_test_size.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char cfg[256], png[256];
    snprintf(cfg, sizeof cfg, "%s/ideal.cfg", dir);
    snprintf(png, sizeof png, "%s/size.png", dir);
    dc_test_write_text(cfg, ideal_cfg);
    dc_runner_result r = dc_runner_dcsim(
        (const char *[]){"size", cfg, "--deadline-days", "2", "--reps", "2", "--threads", "1", "--plot", png, NULL},
        NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "answer: 8 job nodes (64 GPUs)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "= 62 GPUs, 8 job nodes"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "conservative"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "aggressive"));
    size_t len = 0;
    char *img = dc_runner_slurp(png, &len);
    CU_ASSERT(len > 5000 && memcmp(img, "\x89PNG", 4) == 0);
    free(img);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"size", cfg, "--deadline-days", "2", "--reps", "2", "--threads", "1",
                                         "--json", "--no-plans", NULL},
                        NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"answer\": {\"job_nodes\": 8, \"gpus\": 64"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "\"plans\": []"));
    double v;
    CU_ASSERT_PTR_NOT_NULL(dc_test_json_number(r.out, "step_nodes", &v));
    CU_ASSERT_EQUAL(v, 1.0);
    dc_runner_free(&r);
    struct {
        const char *args[8], *msg;
    } bad[] = {
        {{"size", "@CFG"}, "give --deadline-days D"},
        {{"size", "@CFG", "--deadline-days", "0"}, "--deadline-days: expected a number above 0"},
        {{"size", "@CFG", "--deadline-days", "2", "--confidence", "1.5"}, "--confidence: expected a number above 0"},
        {{"size", "@CFG", "--deadline-days", "2", "--plan", "bold.mfu=2"}, "no plan named 'bold'"},
        {{"size", "@CFG", "--deadline-days", "2", "--reps", "0"}, "--reps: expected an integer from 1"},
        {{"size", "@CFG", "--deadline-days", "2", "--set", "job.nodes=x"}, "job.nodes"},
        {{"size", "@CFG", "--deadline-days", "2", "--bogus"}, "unknown option '--bogus'"},
        {{"size", "@CFG", "--deadline-days", "2", "--plot", "fig.txt"}, "expected a .png, .svg or .pdf file"},
        {{"size", "no_such.cfg", "--deadline-days", "2"}, "no_such.cfg"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *args[9];
        size_t k = 0;
        for (; bad[i].args[k]; k++)
            args[k] = strcmp(bad[i].args[k], "@CFG") == 0 ? cfg : bad[i].args[k];
        args[k] = NULL;
        r = dc_runner_dcsim(args, &(dc_runner_opts){.dir = dir});
        bool ok = r.status == 2 && strstr(r.err, bad[i].msg) && r.out[0] == '\0';
        if (!ok)
            fprintf(stderr, "\n  bad input %zu: status %d, stderr: %s", i, r.status, r.err);
        CU_ASSERT(ok);
        dc_runner_free(&r);
    }
    unlink(png);
    unlink(cfg);
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 0);
    rmdir(dir);
}

static int register_suites(void)
{
    DC_TEST_SUITE("size", {"shape and assignments", test_shape_and_assignments},
                  {"assumptions of a plan", test_assumptions},
                  {"the layout from a class and from auto", test_layout_from_class_and_auto},
                  {"no job group", test_no_job},
                  {"an evaluation is plain runs with the seeds S + r", test_evaluation_is_runs},
                  {"the search finds what a scan of every size finds", test_search_equals_scan},
                  {"the answer never grows with the deadline", test_monotone_in_deadline},
                  {"no loss: the seed's closed form", test_closed_form},
                  {"an unreachable deadline", test_unreachable}, {"plans", test_plans},
                  {"the command line", test_cli});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
