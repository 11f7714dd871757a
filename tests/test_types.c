/* Tests of mixed hardware: node types' placement, power by type, failure rates by type, bad input.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Mixed hardware (cluster.types, cluster.h):
 *  - placement: two streams of 300 jobs each (1 to 4 nodes, failures and
 *    repairs on), one of type "a", one of type "b", on 12 + 8 nodes: at every
 *    phase change of every job that holds nodes, every node it holds is of
 *    its type (thousands of checks); a job without a type runs on the first
 *    type's pool; a "b" job waits for "b" nodes with "a" nodes idle;
 *  - delivery stages with types (a refresh of type a, b arriving later) under
 *    two streams with failures: the scheduler's idle counts per pool equal
 *    a recount and its racks' counts stay consistent at every phase
 *    change; the GPU-hours present by hand;
 *  - power by type: every node idle, each type's IT energy is its nodes x T x
 *    (host_idle_w + 8 gpu idle_w), its own figures or the power section's,
 *    exactly; with a 2-node job of type "b" computing from t = 0, its type's
 *    energy adds 2 x T x (host_w + 8 P(1, 1)) less its idle power, P the
 *    power section's GPU law at the type's watts, and the types add up to the
 *    IT energy (no network or storage);
 *  - failure rates by type: failure_scale 3 on type "b" (a per-node
 *    exponential class, a per-GPU Weibull of shape 1): each type's failures
 *    within the 99% Poisson interval of nodes x T / MTBF x scale, three
 *    seeds; a job's expected interruption rate (checkpoint policies) its
 *    nodes' hazard times its type's scale;
 *  - a site cap against the types' own floors: with GPUs at 100-700 W
 *    (min_cap_w 200 W) a node draws at least host_w + 8 x 200 W (or
 *    host_idle_w + 8 x 100 W idle), 3,600 W on type "a" and 7,600 W on a
 *    type "b" of host_w 6,000 W: 32 + 32 nodes need 0.3584 MW, so 0.3 MW is
 *    refused (the cluster's figures alone gave 0.2304 MW) and 0.36 MW runs
 *    under its cap; a refresh from "a" to a "b" of host_w 1,000 W (2,600 W)
 *    needs only its worst stage, 32 x 3,600 W = 0.1152 MW: 0.2 MW runs
 *    (it was refused against all 64 nodes), 0.1 MW is refused;
 *  - a rack cap against each type's own host: 20 kW per rack of 4 nodes
 *    leaves a type of host_w 3,000 W 250 W per GPU (not the 375 W the power
 *    section's 2,000 W leave): its 4 nodes computing for 48 h draw exactly
 *    4 x 48 h x (3,000 + 8 x 250 W); a power section's host_w of 4,500 W
 *    that no type uses refuses nothing; a type of host_w 4,000 W (125 W
 *    per GPU, below min_cap_w) is refused;
 *  - bad input through the program: types not adding up, a name twice, a
 *    job of an unknown type, a job's pool of another type or across two
 *    types, a type no pool holds alone, a stage across two types, fifo
 *    placement with a pool per type, a type's GPU watts against min_cap_w. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "badinput.h"
#include "cluster.h"
#include "facility/power.h"
#include "simrun.h"
#include "workload/scheduler.h"
#include "testutil.h"

static bool close_rel(double a, double b, double tol)
{
    bool ok = fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
    if (!ok)
        fprintf(stderr, "\n  %.17g vs %.17g", a, b);
    return ok;
}

/* ---- placement ---------------------------------------------------------------------------- */

static const char streams_cfg[] =
    "horizon_days = 60.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 20; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"a\"; nodes = 12; }, { name = \"b\"; nodes = 8; gpu_peak_tflops = 2250.0; } ); };\n"
    "jobs = ( { name = \"sa\"; type = \"a\"; count = 300; nodes_min = 1; nodes_max = 4;\n"
    "           interarrival = { mean_h = 1.0; }; duration = { median_h = 3.0; sigma = 1.0; }; },\n"
    "         { name = \"sb\"; type = \"b\"; count = 300; nodes_min = 1; nodes_max = 4;\n"
    "           interarrival = { mean_h = 1.0; }; duration = { median_h = 3.0; sigma = 1.0; }; } );\n"
    "failures = ( { name = \"node\"; mtbf_h = 200.0; } );\n"
    "repair = { law = \"exponential\"; mean_h = 4.0; };\n";

typedef struct watch {
    dc_cluster *c;
    uint64_t checks, wrong, held_a, held_b;
} watch;

/* Jobs 0..299 are the "a" stream's, 300..599 the "b" stream's (list order). */
static void on_phase(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    watch *w = ctx;
    const dc_job_event *ev = payload;
    uint32_t n;
    const uint32_t *nodes = dc_cluster_job_node_list(w->c, ev->job, &n);
    int want = ev->job < 300 ? 0 : 1;
    for (uint32_t i = 0; i < n; i++) {
        w->checks++;
        w->wrong += dc_cluster_node_type(w->c, nodes[i]) != want;
        *(want ? &w->held_b : &w->held_a) += 1;
    }
}

static void test_placement(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(streams_cfg, NULL, 0, 1, &err);
    if (!sim)
        fprintf(stderr, "\n  %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    watch w = {.c = dc_cluster_of(sim)};
    CU_ASSERT_EQUAL(dc_cluster_job_count(w.c), 600);
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, dc_sim_signal(sim, "job_phase"), on_phase, &w), DC_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc_simrun_run(sim));
    printf("\n    %llu node checks (%llu on a, %llu on b), %llu on the wrong type; %.0f failures", (unsigned long long)w.checks,
           (unsigned long long)w.held_a, (unsigned long long)w.held_b, (unsigned long long)w.wrong,
           dc_simrun_fig(sim, "failures.node"));
    CU_ASSERT(w.held_a > 1000 && w.held_b > 1000);
    CU_ASSERT_EQUAL(w.wrong, 0);
    CU_ASSERT(dc_simrun_fig(sim, "failures.node") > 50.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "pool.a.nodes"), 12.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "pool.b.nodes"), 8.0);
    dc_sim_destroy(sim);

    /* a job without a type runs on the first type; two "b" jobs of 8 nodes
     * take turns on the 8 "b" nodes while the 12 "a" nodes idle, each at the
     * type's peak: 2250 TFLOP/s x 0.4 x 64 GPUs */
    static const char turns_cfg[] =
        "horizon_days = 30.0;\n"
        "cluster = { nodes = 20; gpus_per_node = 8; nodes_per_rack = 4;\n"
        "  types = ( { name = \"a\"; nodes = 12; }, { name = \"b\"; nodes = 8; gpu_peak_tflops = 2250.0; } ); };\n"
        "jobs = ( { name = \"x\"; nodes = 8; type = \"b\"; params = 1e9; tokens = 1e12; restart_s = 0.0; },\n"
        "         { name = \"y\"; nodes = 8; type = \"b\"; params = 1e9; tokens = 1e12; restart_s = 0.0; },\n"
        "         { name = \"z\"; nodes = 4; params = 1e9; tokens = 1e12; restart_s = 0.0; } );\n";
    sim = dc_simrun_text(turns_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double run_b = 6e9 * 1e12 / (64 * 2250e12 * 0.4), run_a = 6e9 * 1e12 / (32 * 989e12 * 0.4);
    CU_ASSERT(close_rel(dc_sim_now(sim), fmax(2.0 * run_b, run_a), 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "pool.b.wait_mean_h"), run_b / 3600.0 / 2.0, 1e-9));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "pool.a.jobs"), 1.0);
    dc_sim_destroy(sim);
    printf("\n");
}

/* ---- delivery stages and types: the scheduler's counts ---------------------------------------- */

/* Two types, three stages (a's first half from day 0 retiring at day 20,
 * b from day 5, a's second half from day 20: a refresh), two streams with
 * failures and repairs: at every phase change and at the end, each pool's
 * idle count equals a recount of its idle nodes and the racks' counts are
 * consistent; the GPU-hours present are the stages' by hand. */
static const char staged_cfg[] =
    "horizon_days = 40.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 24; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"a\"; nodes = 16; }, { name = \"b\"; nodes = 8; } );\n"
    "  delivery = ( { nodes = 8; retire_day = 20.0; }, { day = 20.0; nodes = 8; }, { day = 5.0; nodes = 8; } ); };\n"
    "jobs = ( { name = \"sa\"; type = \"a\"; count = 300; nodes_min = 1; nodes_max = 4;\n"
    "           interarrival = { mean_h = 1.0; }; duration = { median_h = 3.0; sigma = 1.0; }; },\n"
    "         { name = \"sb\"; type = \"b\"; count = 300; nodes_min = 1; nodes_max = 4;\n"
    "           interarrival = { mean_h = 1.0; }; duration = { median_h = 3.0; sigma = 1.0; }; } );\n"
    "failures = ( { name = \"node\"; mtbf_h = 100.0; } );\n"
    "repair = { law = \"exponential\"; mean_h = 4.0; };\n";

typedef struct counts {
    dc_scheduler *s;
    uint64_t checks, bad;
} counts;

static bool sched_consistent(dc_scheduler *s)
{
    bool ok = dc_sched_racks_consistent(s);
    for (int p = 0; p < dc_sched_pool_count(s); p++)
        ok = ok && dc_sched_pool_idle(s, p) == dc_sched_pool_idle_recount(s, p);
    return ok;
}

static void on_phase_counts(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    (void)payload;
    counts *k = ctx;
    k->checks++;
    k->bad += !sched_consistent(k->s);
}

static void test_staged_counts(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(staged_cfg, NULL, 0, 1, &err);
    if (!sim)
        fprintf(stderr, "\n  %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    counts k = {.s = dc_scheduler_of(sim)};
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, dc_sim_signal(sim, "job_phase"), on_phase_counts, &k), DC_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc_simrun_run(sim));
    printf("\n    %llu checks, %llu inconsistent; %.0f failures, %.0f jobs completed", (unsigned long long)k.checks,
           (unsigned long long)k.bad, dc_simrun_fig(sim, "failures.node"), dc_simrun_fig(sim, "jobs.completed"));
    CU_ASSERT(k.checks > 1000);
    CU_ASSERT_EQUAL(k.bad, 0);
    CU_ASSERT(sched_consistent(k.s));
    /* present: 8 a-nodes for 20 days, 8 b-nodes for 35, 8 a-nodes for 20 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.capacity"), 8 * 8 * 24.0 * (20 + 35 + 20), 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.absent_nodes"), 8.0);
    dc_sim_destroy(sim);
    printf("\n");
}

/* ---- power by type -------------------------------------------------------------------------- */

static const char power_cfg[] =
    "horizon_days = 2.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"a\"; nodes = 8; },\n"
    "            { name = \"b\"; nodes = 4; gpu_idle_w = 140.0; gpu_peak_w = 1000.0; host_w = 3000.0;\n"
    "              host_idle_w = 1200.0; } ); };\n"
    "jobs = ( { name = \"j\"; nodes = 2; type = \"b\"; work_gpu_h = 1e9; restart_s = 0.0; } );\n"
    "power = { gpu = { idle_w = 100.0; peak_w = 700.0; }; node = { host_w = 2000.0; host_idle_w = 1000.0; }; };\n";

static void test_power_by_type(void)
{
    const double T_h = 48.0;
    const char *idle[] = {"jobs.[0].start_h=1000.0"};
    dc_sim *sim = dc_simrun_text(power_cfg, idle, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double a = 8 * T_h * (1000.0 + 8 * 100.0) / 1000.0, b = 4 * T_h * (1200.0 + 8 * 140.0) / 1000.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.a.it_energy_kwh"), a, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), b, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.it_energy_kwh"), a + b, 1e-12));
    dc_sim_destroy(sim);

    sim = dc_simrun_text(power_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_gpu_power gb = {.idle_w = 140.0, .peak_w = 1000.0, .min_cap_w = 200.0, .compute_bound = 0.8};
    double busy = 2 * T_h * (3000.0 + 8 * dc_gpu_power_w(&gb, 1.0, 1.0)) / 1000.0;
    double b_busy = 2 * T_h * (1200.0 + 8 * 140.0) / 1000.0 + busy;
    printf("\n    type b: %.1f kWh with the job (hand %.1f), %.1f idle", dc_simrun_fig(sim, "power.type.b.it_energy_kwh"),
           b_busy, b);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), b_busy, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.a.it_energy_kwh"), a, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.it_energy_kwh"), a + b_busy, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.b.gpu_peak_w"), 1000.0 + 3000.0 / 8.0, 1e-15));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.a.gpu_peak_w"), 700.0 + 2000.0 / 8.0, 1e-15));
    dc_sim_destroy(sim);
    printf("\n");
}

/* ---- failure rates by type ---------------------------------------------------------------- */

static const char failures_cfg[] =
    "horizon_days = 100.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"a\"; nodes = 8; }, { name = \"b\"; nodes = 8; failure_scale = 3.0; } ); };\n"
    "job = { nodes = 4; work_gpu_h = 1e9; start_s = 1e10; };\n"
    "failures = ( { name = \"node\"; mtbf_h = 100.0; },\n"
    "             { name = \"gpu\"; per = \"gpu\"; law = \"weibull\"; shape = 1.0; scale_h = 800.0; } );\n"
    "repair = { law = \"constant\"; mean_h = 0.01; };\n";

static void test_failures_by_type(void)
{
    /* per type: 8 nodes x 2400 h / 100 h + 64 GPUs x 2400 h / 800 h, times its scale
     * (repairs of 36 s take 0.01% of the time) */
    double mu_a = 8 * 2400.0 / 100.0 + 64 * 2400.0 / 800.0, mu_b = 3.0 * mu_a;
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = dc_simrun_text(failures_cfg, NULL, 0, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double na = dc_simrun_fig(sim, "failures.type.a"), nb = dc_simrun_fig(sim, "failures.type.b");
        printf("\n    seed %lld: a %.0f (expected %.0f), b %.0f (expected %.0f)", (long long)seed, na, mu_a, nb, mu_b);
        CU_ASSERT(fabs(na - mu_a) <= DC_Z99 * sqrt(mu_a) + 1.0);
        CU_ASSERT(fabs(nb - mu_b) <= DC_Z99 * sqrt(mu_b) + 1.0);
        CU_ASSERT_EQUAL(na + nb, dc_simrun_fig(sim, "failures.node") + dc_simrun_fig(sim, "failures.gpu"));
        dc_sim_destroy(sim);
    }
    printf("\n");
    /* the interruption rate a job expects (checkpoint policies): its nodes'
     * hazard times its type's scale, 4 x (1/100 + 8/800) per hour */
    dc_sim *sim = dc_simrun_text(failures_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "job.expected_mtbi_h"), 1.0 / (4 * 0.02), 1e-12));
    dc_sim_destroy(sim);
    const char *on_b[] = {"job.type=\"b\""};
    sim = dc_simrun_text(failures_cfg, on_b, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "job.expected_mtbi_h"), 1.0 / (4 * 0.02 * 3.0), 1e-12));
    dc_sim_destroy(sim);
}

/* ---- bad input ---------------------------------------------------------------------------- */

#define TYPES2 "  types = ( { name = \"a\"; nodes = 8; }, { name = \"b\"; nodes = 8; } ); };\n"

/* ---- the site cap against the types' floors ------------------------------------------------ */

#define CAP_POWER                                                                                      \
    "power = { gpu = { idle_w = 100.0; peak_w = 700.0; min_cap_w = 200.0; };\n"                         \
    "  node = { host_w = 2000.0; host_idle_w = 1000.0; };\n"
static const char cap_types_cfg[] =
    "horizon_days = 2.0;\nstop_when_done = false;\n"
    "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 8;\n"
    "  types = ( { name = \"a\"; nodes = 32; }, { name = \"b\"; nodes = 32; host_w = 6000.0; } ); };\n"
    "jobs = ( { nodes = 32; work_gpu_h = 1e9; type = \"a\"; }, { nodes = 32; work_gpu_h = 1e9; type = \"b\"; } );\n"
    CAP_POWER "  site_cap_mw = 0.36; };\n";
static const char cap_refresh_cfg[] =
    "horizon_days = 2.0;\nstop_when_done = false;\n"
    "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 8;\n"
    "  types = ( { name = \"a\"; nodes = 32; }, { name = \"b\"; nodes = 32; host_w = 1000.0; } );\n"
    "  delivery = ( { nodes = 32; retire_day = 1.0; }, { day = 1.0; nodes = 32; } ); };\n"
    "jobs = ( { nodes = 32; work_gpu_h = 1e9; } );\n"
    "scheduler = { pools = ( { name = \"all\"; } ); };\n"
    CAP_POWER "  site_cap_mw = 0.2; };\n";

static void test_site_cap_by_type(void)
{
    dc_sim *sim = dc_simrun_text(cap_types_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double peak = dc_simrun_fig(sim, "power.it_peak_mw");
    printf("\n    two types under 0.36 MW: IT peak %.4f MW", peak);
    CU_ASSERT(peak <= 0.36 * (1.0 + 1e-9) && peak >= 0.3584);
    dc_sim_destroy(sim);
    sim = dc_simrun_text(cap_refresh_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.absent_nodes"), 32.0);
    CU_ASSERT(dc_simrun_fig(sim, "power.it_peak_mw") <= 0.2 * (1.0 + 1e-9));
    dc_sim_destroy(sim);
    printf("\n");

    char dir[] = "/tmp/dcsim-types-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char *text = strdup(cap_types_cfg), *at = text ? strstr(text, "0.36") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memcpy(at, "0.30", 4);
    const char *f1[] = {"bad.cfg:8", "power.site_cap_mw",
                        "0.3 MW is below the 0.358 MW the cluster draws with every GPU at its lowest power limit"};
    dc_test_bad_run(dir, "a site cap below the types' floors", text, NULL, f1, 3);
    free(text);
    text = strdup(cap_refresh_cfg);
    at = text ? strstr(text, "0.2;") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memcpy(at, "0.1", 3);
    const char *f2[] = {"bad.cfg:10", "power.site_cap_mw", "0.1 MW is below the 0.115 MW"};
    dc_test_bad_run(dir, "a site cap below a refresh's worst stage", text, NULL, f2, 3);
    free(text);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static const char rack_types_cfg[] =
    "horizon_days = 2.0;\nstop_when_done = false;\n"
    "cluster = { nodes = 8; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"a\"; nodes = 4; host_w = 2000.0; }, { name = \"b\"; nodes = 4; host_w = 3000.0; } ); };\n"
    "jobs = ( { nodes = 4; work_gpu_h = 1e9; type = \"b\"; restart_s = 0.0; } );\n"
    CAP_POWER "  rack_cap_kw = 20.0; };\n";

static void test_rack_cap_by_type(void)
{
    const double T_h = 48.0;
    dc_sim *sim = dc_simrun_text(rack_types_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double b = 4 * T_h * (3000.0 + 8 * 250.0) / 1000.0, a = 4 * T_h * (1000.0 + 8 * 100.0) / 1000.0;
    printf("\n    type b under 20 kW racks: %.1f kWh (hand %.1f; 375 W per GPU gave %.1f)",
           dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), b, 4 * T_h * (3000.0 + 8 * 375.0) / 1000.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), b, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.a.it_energy_kwh"), a, 1e-12));
    dc_sim_destroy(sim);
    const char *host[] = {"power.node.host_w=4500.0"}; /* no type draws it */
    sim = dc_simrun_text(rack_types_cfg, host, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), b, 1e-12));
    dc_sim_destroy(sim);
    printf("\n");

    char dir[] = "/tmp/dcsim-types-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char *text = strdup(rack_types_cfg), *at = text ? strstr(text, "host_w = 3000.0") : NULL;
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memcpy(at, "host_w = 4000.0", 15);
    const char *f[] = {"bad.cfg:8", "power.rack_cap_kw",
                       "20 kW per rack of 4 nodes leaves 125 W per GPU of type \"b\" after its host_w (4000 W), below "
                       "min_cap_w (200 W)"};
    dc_test_bad_run(dir, "a rack cap below a type's lowest limit", text, NULL, f, 3);
    free(text);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static void test_bad_input(void)
{
    static const struct {
        const char *what, *cfg, *frags[3];
    } bad[] = {
        {"types short of the cluster",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; } ); };\n"
         "job = { nodes = 4; work_gpu_h = 10.0; };\n",
         {"bad.cfg:3", "cluster.types", "the types hold 8 nodes but the cluster has 16 (nodes + spare_nodes)"}},
        {"a type named twice",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; },\n"
         "    { name = \"a\"; nodes = 8; } ); };\njob = { nodes = 4; work_gpu_h = 10.0; };\n",
         {"bad.cfg:4", "cluster.types.[1].name", "type \"a\" named twice"}},
        {"a job of an unknown type",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n" TYPES2 "job = { nodes = 4; work_gpu_h = 10.0;\n type = \"c\"; };\n",
         {"bad.cfg:5", "job.type", "no node type \"c\" in cluster.types"}},
        {"a job's pool of another type",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n" TYPES2
         "jobs = ( { nodes = 4; work_gpu_h = 10.0; type = \"b\";\n pool = \"a\"; } );\n",
         {"bad.cfg:5", "jobs.[0].pool", "pool \"a\" holds nodes of type \"a\", not \"b\""}},
        {"a job of a type in a pool across two types",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n" TYPES2 "job = { nodes = 4; work_gpu_h = 10.0; pool = \"q\";\n"
         "  type = \"b\"; };\nscheduler = { pools = ( { name = \"p\"; nodes = 4; }, { name = \"q\"; } ); };\n",
         {"bad.cfg:4", "job.pool", "pool \"q\" holds nodes of several types, not only nodes of type \"b\""}},
        {"a job of a type no pool holds alone",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n" TYPES2 "job = { nodes = 4; work_gpu_h = 10.0;\n"
         "  type = \"b\"; };\nscheduler = { pools = ( { name = \"p\"; nodes = 4; }, { name = \"q\"; } ); };\n",
         {"bad.cfg:5", "job.type", "no scheduler pool holds nodes of type \"b\" alone"}},
        {"fifo placement with two types",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n" TYPES2 "job = { nodes = 4; work_gpu_h = 10.0; };\n"
         "scheduler = { placement = \"fifo\"; };\n",
         {"bad.cfg:5", "scheduler.placement", "fifo placement takes idle nodes of any type: with 2 node types use rack"}},
        {"a type's GPU watts below min_cap_w",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; },\n"
         "    { name = \"b\"; nodes = 8; gpu_idle_w = 250.0; } ); };\njob = { nodes = 4; work_gpu_h = 10.0; };\n"
         "power = { gpu = { min_cap_w = 200.0; }; };\n",
         {"bad.cfg:4", "cluster.types.[1]", "type \"b\": its GPU's idle_w (250 W) < power.gpu.min_cap_w (200 W)"}},
    };
    char dir[] = "/tmp/dcsim-types-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        dc_test_bad_run(dir, bad[k].what, bad[k].cfg, NULL, bad[k].frags, 3);
    /* the stage across two types, written as a group */
    static const char stage_cfg[] =
        "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; }, { name = \"b\"; nodes = 8; } );\n"
        "  delivery = ( { nodes = 4; }, { day = 1.0;\n nodes = 12; } ); };\njob = { nodes = 4; work_gpu_h = 10.0; };\n";
    const char *frags[] = {"bad.cfg:5", "cluster.delivery.[1].nodes",
                           "the stage's nodes 4 to 15 are of types \"a\" and \"b\": a stage holds nodes of one type"};
    dc_test_bad_run(dir, "a stage across two types", stage_cfg, NULL, frags, 3);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static int register_suites(void)
{
    DC_TEST_SUITE("types", {"placement: a job of a type only on nodes of that type", test_placement},
                  {"delivery stages and types: the scheduler's idle counts stay exact", test_staged_counts},
                  {"power by type against hand sums", test_power_by_type},
                  {"failure rates by type within Poisson intervals", test_failures_by_type},
                  {"a site cap against the types' floors and a refresh's worst stage", test_site_cap_by_type},
                  {"a rack cap against each type's own host", test_rack_cap_by_type},
                  {"bad input", test_bad_input});
    return 0;
}

int main(void) { return dc_test_main(register_suites); }
