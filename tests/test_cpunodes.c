/* Tests of CPU-only node types: their node-hour ledger, power, cost, failure classes and bad input.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* CPU-only nodes (cluster.types with gpus_per_node = 0, cluster.h):
 *  - the ledgers by hand: 4 GPU nodes of 8 GPUs and 2 CPU nodes for 24 h; a
 *    GPU job of 320 GPU-h on the 4 GPU nodes from t = 0 (10 h) and a CPU job
 *    of 2 nodes x 6 h from 2 h: gpu_hours.capacity = 4 x 8 x 24 = 768,
 *    useful 320, idle_spare 448 (the CPU nodes add none; cluster.gpus 32);
 *    cpu_node_hours.capacity = 2 x 24 = 48, useful 12, idle_spare 36; each
 *    breakdown's lines add to its capacity (1e-12), per pool too, and the
 *    CPU job's /jobs row holds no GPU-hours; the IT energy by type:
 *    CPU 2 x (18 h x 200 W + 6 h x 600 W) = 14.4 kWh, GPU 4 x (10 h x (2,800
 *    + 8 x 700 W) + 14 h x (1,000 + 8 x 70 W)) = 423.36 kWh, the sum the IT
 *    energy (no network or storage, efficiencies 1);
 *  - a site cap (hold policy) that the GPU job fits under only while the
 *    CPU nodes idle: held while the CPU job runs, by hand (test_site_cap);
 *    a user's quota (GPUs) not charged for a CPU job (test_quota);
 *  - the cost: half owned, the CPU nodes' rented half at 3 USD per node-hour
 *    (0.5 x 2 x 24 h x 3 = 72 USD), the chip table's CPU rows (2 x 100,000
 *    USD bought in full at cost.owned 1, 100,000 / 96 USD per core), the
 *    CPU devices in the devices' capital, and the TCO's parts adding to the
 *    TCO (1e-9);
 *  - failure classes: on 40 GPU nodes and 40 CPU nodes for 100 days, a
 *    per-GPU exponential class, a per-GPU Weibull class (per-unit clocks)
 *    and a per-node class: no per-GPU failure ever takes a CPU node
 *    (counted at every "failure"), the per-GPU classes' failures on the GPU
 *    nodes and the per-node class's on each kind within the 99% Poisson
 *    interval of units x up time / MTBF; a job's expected interruption rate
 *    on a CPU type is its nodes' per-node hazard alone, on a GPU type with
 *    the per-GPU part (exact);
 *  - dcsim report (--efficiency) of the shipped cpu_partition.cfg: its CPU
 *    jobs named as CPU jobs, the CPU nodes' breakdown printed;
 *  - bad input through the program: a type's GPU count neither the
 *    cluster's nor 0, GPU keys on a CPU type, no type with GPUs, a GPU job
 *    asking a CPU type, a CPU job without duration_h or on a GPU type, a GPU
 *    job falling into a CPU pool, the job group on a CPU type, a service on
 *    a CPU pool. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "badinput.h"
#include "cluster.h"
#include "runner.h"
#include "simrun.h"
#include "summary.h"
#include "testutil.h"

static bool close_rel(double a, double b, double tol)
{
    bool ok = fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
    if (!ok)
        fprintf(stderr, "\n  %.17g vs %.17g", a, b);
    return ok;
}

/* The lines under prefix, less the total. */
static double lines_sum(dc_sim *sim, const char *prefix, const char *total)
{
    const dc_summary *s = dc_sim_summary(sim);
    double sum = 0.0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, prefix, strlen(prefix)) == 0 && strcmp(k, total) != 0)
            sum += dc_summary_value(s, i);
    }
    return sum;
}

#define SMALL_CLUSTER                                                                                                  \
    "horizon_days = 1.0;\n"                                                                                            \
    "stop_when_done = false;\n"                                                                                        \
    "cluster = { nodes = 6; gpus_per_node = 8; nodes_per_rack = 2;\n"                                                  \
    "  types = ( { name = \"h100\"; nodes = 4; },\n"                                                                   \
    "            { name = \"cpu\"; nodes = 2; gpus_per_node = 0; cores_per_node = 96; host_w = 600.0;\n"              \
    "              host_idle_w = 200.0; } ); };\n"                                                                     \
    "jobs = ( { name = \"train\"; type = \"h100\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; },\n"             \
    "         { name = \"prep\"; type = \"cpu\"; nodes = 2; duration_h = 6.0; restart_s = 0.0; start_h = 2.0; } );\n"  \
    "power = { gpu = { idle_w = 70.0; peak_w = 700.0; }; node = { host_w = 2800.0; host_idle_w = 1000.0; };\n"       \
    "  ups_efficiency = 1.0; pdu_efficiency = 1.0; };\n"

static void test_ledgers(void)
{
    dc_sim *sim = dc_simrun_text(SMALL_CLUSTER, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.gpus"), 32.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.cpu_nodes"), 2.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.cpu_cores"), 192.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL), 768.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.useful"), 320.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 448.0, 1e-12));
    CU_ASSERT(close_rel(lines_sum(sim, DC_BREAKDOWN_PREFIX, DC_BREAKDOWN_TOTAL), 768.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, DC_CPU_BREAKDOWN_TOTAL), 48.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cpu_node_hours.useful"), 12.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cpu_node_hours.idle_spare"), 36.0, 1e-12));
    CU_ASSERT(close_rel(lines_sum(sim, DC_CPU_BREAKDOWN_PREFIX, DC_CPU_BREAKDOWN_TOTAL), 48.0, 1e-12));
    /* the CPU job's work is not GPU-hours */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "jobs.useful_gpu_h"), 320.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "pool.cpu.cpu_node_hours.useful"), 12.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "pool.cpu.gpu_hours.useful"), 0.0);
    /* the /jobs rows: the CPU job (id 1) holds no GPU-hours and no GPUs */
    CU_ASSERT(close_rel(dc_simrun_job_cell(sim, 0, "gpu_hours.total"), 320.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_job_cell(sim, 1, "gpu_hours.total"), 0.0);
    CU_ASSERT_EQUAL(dc_simrun_job_cell(sim, 1, "gpus"), 0.0);
    CU_ASSERT_EQUAL(dc_simrun_job_cell(sim, 1, "nodes"), 2.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cluster.idle_gpu_h"), 448.0, 1e-12));
    double cpu_kwh = 2.0 * (18.0 * 200.0 + 6.0 * 600.0) / 1000.0;
    double gpu_kwh = 4.0 * (10.0 * (2800.0 + 8 * 700.0) + 14.0 * (1000.0 + 8 * 70.0)) / 1000.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.cpu.it_energy_kwh"), cpu_kwh, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.h100.it_energy_kwh"), gpu_kwh, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.it_energy_kwh"), cpu_kwh + gpu_kwh, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "power.type.cpu.node_busy_w"), 600.0);
    printf("\n    GPU %.0f of %.0f GPU-h useful, CPU %.0f of %.0f node-h; %.2f + %.2f kWh",
           dc_simrun_fig(sim, "gpu_hours.useful"), dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL),
           dc_simrun_fig(sim, "cpu_node_hours.useful"), dc_simrun_fig(sim, DC_CPU_BREAKDOWN_TOTAL),
           dc_simrun_fig(sim, "power.type.h100.it_energy_kwh"), dc_simrun_fig(sim, "power.type.cpu.it_energy_kwh"));
    dc_sim_destroy(sim);
    printf("\n");
}

/* A site cap counts the CPU nodes' power and never holds a CPU job: under
 * the hold policy at 34.4 kW, the GPU job (4 x 8,400 W) fits beside the idle
 * CPU nodes (400 W) but not beside the busy ones (1,200 W): it computes 0-2 h,
 * is held 2-8 h while the CPU job runs (6 h x 32 GPUs = 192 GPU-h of
 * gpu_hours.power_cap, its GPUs idle), and does its other 256 GPU-h 8-16 h.
 * Its nodes' energy: 2 h x 33.6 + 6 h x 4 x (2,800 + 8 x 70) + 8 h x 33.6 +
 * 8 h x 4 x 1,560 W = 466.56 kWh. */
static void test_site_cap(void)
{
    static const char *const sets[] = {"power.site_cap_mw=0.0344", "power.cap_policy=\"hold\""};
    dc_sim *sim = dc_simrun_text(SMALL_CLUSTER, sets, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.power_cap"), 192.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.useful"), 320.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cpu_node_hours.power_cap"), 0.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cpu_node_hours.useful"), 12.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_job_cell(sim, 0, "end_h"), 16.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_job_cell(sim, 1, "end_h"), 8.0, 1e-12));
    double gpu_kwh = (2.0 * 33600.0 + 6.0 * 4 * (2800.0 + 8 * 70.0) + 8.0 * 33600.0 + 8.0 * 4 * 1560.0) / 1000.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.h100.it_energy_kwh"), gpu_kwh, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.type.cpu.it_energy_kwh"), 14.4, 1e-12));
    dc_sim_destroy(sim);
}

/* Quotas count GPUs: a CPU job uses none of its user's.  The user's 4
 * nodes of quota are the GPU job's from 0 to 10 h; the CPU job still starts
 * at 2 h (charged 2 x 8 GPUs it would have waited for the GPU job's end). */
static void test_quota(void)
{
    static const char *const sets[] = {"jobs.[0].user=\"u\"", "jobs.[1].user=\"u\""};
    dc_sim *sim =
        dc_simrun_text(SMALL_CLUSTER "scheduler = { quotas = ( { user = \"u\"; max_nodes = 4; } ); };\n", sets, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "pool.cpu.wait_mean_h"), 0.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cpu_node_hours.useful"), 12.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.useful"), 320.0, 1e-12));
    dc_sim_destroy(sim);
}

static void test_cost(void)
{
    /* bought in full: the chip table */
    dc_sim *sim = dc_simrun_text(SMALL_CLUSTER "cost = { capex = { gpu_usd = 25000.0; server_usd = 100000.0; }; };\n",
                                 NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.cpu.capex_usd"), 200000.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.cpu.capex_usd"), 200000.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.capex_usd"), 4 * (8 * 25000.0 + 100000.0), 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), 1400000.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.cpu.gpus"), 0.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.cpu.nodes"), 2.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.cpu.cores"), 192.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.cpu.usd_per_core"), 100000.0 / 96.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.h100.gpus"), 32.0);
    dc_sim_destroy(sim);

    /* half owned: the CPU nodes' rented half by the node-hour */
    static const char *const parts[] = {"devices", "network", "storage", "power", "cooling",
                                        "facility", "operations", "orbital", "rent"};
    sim = dc_simrun_text(SMALL_CLUSTER "cost = { owned = 0.5; capex = { gpu_usd = 25000.0; server_usd = 100000.0; };\n"
                                       "  opex = { electricity_usd_per_kwh = 0.1; };\n"
                                       "  rent = { on_demand_usd_per_gpu_h = 2.0; on_demand_usd_per_cpu_node_h = 3.0; }; };\n",
                         NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.cpu.rent_usd"), 0.5 * 2 * 24 * 3.0, 1e-12));
    /* the GPUs' rented half: 0.5 x 32 x 24 h x 2 USD, with the CPU nodes' */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_on_demand_usd"), 0.5 * 32 * 24 * 2.0 + 72.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.cpu.capex_usd"), 100000.0, 1e-12));
    double tco = dc_simrun_fig(sim, "cost.tco_usd"), sum = 0.0;
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++) {
        char key[64];
        snprintf(key, sizeof key, "cost.tco.%s_usd", parts[k]);
        sum += dc_simrun_fig(sim, key);
    }
    CU_ASSERT(close_rel(sum, tco, 1e-9));
    /* the CPU nodes' direct cost: capital share + rent + energy share, per useful node-hour */
    double direct = dc_simrun_fig(sim, "cost.cpu.direct_usd");
    CU_ASSERT(direct > 72.0 && direct < tco);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.cpu.usd_per_useful_node_h"), direct / 12.0, 1e-12));
    printf("\n    TCO %.2f USD, its parts %.2f; CPU nodes' direct cost %.2f USD", tco, sum, direct);
    dc_sim_destroy(sim);
    printf("\n");
}

/* ---- failure classes ------------------------------------------------------------------------ */

static const char failures_cfg[] =
    "horizon_days = 100.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 80; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"gpu\"; nodes = 40; }, { name = \"cpu\"; nodes = 40; gpus_per_node = 0; } ); };\n"
    "jobs = ( { name = \"g\"; type = \"gpu\"; nodes = 8; work_gpu_h = 1e9; restart_s = 0.0; },\n"
    "         { name = \"c\"; type = \"cpu\"; nodes = 8; duration_h = 1e6; restart_s = 0.0; } );\n"
    "failures = ( { name = \"gpu_exp\"; per = \"gpu\"; mtbf_h = 20000.0; },\n"
    "             { name = \"gpu_weib\"; per = \"gpu\"; law = \"weibull\"; shape = 1.0; mtbf_h = 20000.0; },\n"
    "             { name = \"host\"; per = \"node\"; mtbf_h = 1000.0; } );\n"
    "repair = { law = \"exponential\"; mean_h = 0.5; };\n";

typedef struct fail_count {
    dc_cluster *c;
    uint64_t by[3][2]; /* class x (GPU node, CPU node) */
} fail_count;

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    fail_count *f = ctx;
    const dc_failure_event *ev = payload;
    if (ev->class_id < 0 || ev->class_id > 2)
        return;
    for (size_t i = 0; i < ev->n_nodes; i++)
        f->by[ev->class_id][dc_cluster_node_gpus(f->c, ev->nodes[i]) == 0]++;
}

/* 99% interval of a Poisson count of mean mu (normal approximation, mu large). */
static bool in_poisson99(double n, double mu)
{
    bool ok = fabs(n - mu) <= DC_Z99 * sqrt(mu);
    if (!ok)
        fprintf(stderr, "\n  %.0f failures, expected %.1f", n, mu);
    return ok;
}

static void test_failure_classes(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(failures_cfg, NULL, 0, 1, &err);
    if (!sim)
        fprintf(stderr, "\n  %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    fail_count f = {.c = dc_cluster_of(sim)};
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, dc_sim_signal(sim, "failure"), on_failure, &f), DC_OK);
    /* a job's hazard (checkpoint policies): the per-GPU classes' part only on GPUs */
    double per_node = 1.0 / (1000.0 * 3600.0), per_gpu = 2.0 / (20000.0 * 3600.0); /* two per-GPU classes */
    int cpu = dc_cluster_type_find(f.c, "cpu"), gpu = dc_cluster_type_find(f.c, "gpu");
    CU_ASSERT(close_rel(dc_cluster_job_hazard_on(f.c, 4, cpu), 4 * per_node, 1e-12));
    CU_ASSERT(close_rel(dc_cluster_job_hazard_on(f.c, 4, gpu), 4 * (per_node + 8 * per_gpu), 1e-12));
    CU_ASSERT_PTR_NOT_NULL_FATAL(dc_simrun_run(sim));
    /* up time is nearly all of it (repairs of 0.5 h against MTBFs of thousands of hours) */
    double avail = dc_simrun_fig(sim, "cluster.node_availability"), hours = 100 * 24.0;
    printf("\n    per-GPU classes on GPU nodes %llu + %llu, on CPU nodes %llu + %llu; per-node class %llu on GPU "
           "nodes, %llu on CPU nodes; availability %.5f",
           (unsigned long long)f.by[0][0], (unsigned long long)f.by[1][0], (unsigned long long)f.by[0][1],
           (unsigned long long)f.by[1][1], (unsigned long long)f.by[2][0], (unsigned long long)f.by[2][1], avail);
    CU_ASSERT_EQUAL(f.by[0][1], 0);
    CU_ASSERT_EQUAL(f.by[1][1], 0);
    CU_ASSERT(in_poisson99((double)f.by[0][0], 40 * 8 * hours * avail / 20000.0));
    CU_ASSERT(in_poisson99((double)f.by[1][0], 40 * 8 * hours * avail / 20000.0));
    CU_ASSERT(in_poisson99((double)f.by[2][0], 40 * hours * avail / 1000.0));
    CU_ASSERT(in_poisson99((double)f.by[2][1], 40 * hours * avail / 1000.0));
    /* the CPU nodes' down time is in their own ledger, and it adds up */
    CU_ASSERT(dc_simrun_fig(sim, "cpu_node_hours.down") > 0.0);
    CU_ASSERT(close_rel(lines_sum(sim, DC_CPU_BREAKDOWN_PREFIX, DC_CPU_BREAKDOWN_TOTAL),
                        dc_simrun_fig(sim, DC_CPU_BREAKDOWN_TOTAL), 1e-9));
    CU_ASSERT(close_rel(lines_sum(sim, DC_BREAKDOWN_PREFIX, DC_BREAKDOWN_TOTAL), dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL),
                        1e-9));
    dc_sim_destroy(sim);
    printf("\n");
}

/* dcsim report --efficiency on the shipped CPU partition: its CPU jobs are
 * named as such (no GPU-hours), not as jobs that held no nodes. */
static void test_report(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!dc_runner_dcsim_path() || !src) {
        CU_FAIL("DCSIM or DCSIM_SRCDIR is not set");
        return;
    }
    char dir[] = "/tmp/dcsim-cpunodes-rep-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char trace[300], cfg[600];
    snprintf(trace, sizeof trace, "%s/t.h5", dir);
    snprintf(cfg, sizeof cfg, "%s/scenarios/compare/cpu_partition.cfg", src);
    dc_runner_result r = dc_runner_dcsim((const char *[]){"run", cfg, "-o", trace, "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, "--efficiency", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, " prep-1 "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "(a CPU job: no GPU-hours)"));
    CU_ASSERT_PTR_NULL(strstr(r.out, "(held no nodes)"));
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "Where the CPU-only nodes' node-hours went"));
    dc_runner_free(&r);
    unlink(trace);
    CU_ASSERT_EQUAL(rmdir(dir), 0);
}

/* ---- bad input ------------------------------------------------------------------------------ */

#define MIXED                                                                                                          \
    "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"g\"; nodes = 8; },\n"                       \
    "    { name = \"cpu\"; nodes = 8; gpus_per_node = 0; } ); };\n"
#define CPU_FIRST                                                                                                      \
    "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"cpu\"; nodes = 8; gpus_per_node = 0; },\n"  \
    "    { name = \"g\"; nodes = 8; } ); };\n"

static void test_bad_input(void)
{
    static const struct {
        const char *what, *cfg, *frags[3];
    } bad[] = {
        {"a type of 4 GPUs per node in a cluster of 8",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; },\n"
         "    { name = \"b\"; nodes = 8; gpus_per_node = 4; } ); };\njobs = ( { nodes = 4; work_gpu_h = 10.0; } );\n",
         {"bad.cfg:4", "cluster.types.[1].gpus_per_node",
          "a type has the cluster's gpus_per_node (8) or 0 (a CPU-only type), not 4"}},
        {"a GPU price on a CPU-only type",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"a\"; nodes = 8; },\n"
         "    { name = \"cpu\"; nodes = 8; gpus_per_node = 0;\n gpu_usd = 1.0; } ); };\n"
         "jobs = ( { nodes = 4; work_gpu_h = 10.0; } );\n",
         {"bad.cfg:5", "cluster.types.[1].gpu_usd",
          "type \"cpu\" is CPU-only (gpus_per_node = 0): it has no GPU for gpu_usd"}},
        {"every type CPU-only",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  types = ( { name = \"cpu\"; nodes = 16; gpus_per_node = 0; } ); };\n"
         "jobs = ( { nodes = 4; type = \"cpu\"; duration_h = 1.0; } );\n",
         {"bad.cfg:3", "cluster.types", "every type is CPU-only (gpus_per_node = 0): give at least one type with GPUs"}},
        {"a GPU job asking a CPU type",
         MIXED "jobs = ( { nodes = 4; type = \"cpu\";\n work_gpu_h = 10.0; } );\n",
         {"bad.cfg:6", "jobs.[0].work_gpu_h",
          "type \"cpu\" is CPU-only: its jobs give nodes and duration_h (one job) or interarrival and duration (a "
          "stream), not work_gpu_h"}},
        {"a GPU stream in GPUs asking a CPU type",
         MIXED "jobs = ( { type = \"cpu\"; count = 3; interarrival = { mean_h = 1.0; };\n"
               " duration = { median_h = 1.0; }; gpus_min = 1; gpus_max = 4; } );\n",
         {"bad.cfg:6", "jobs.[0].gpus_min", "type \"cpu\" is CPU-only"}},
        {"an elastic floor in GPUs on a CPU job",
         MIXED "jobs = ( { nodes = 4; type = \"cpu\"; duration_h = 2.0;\n min_gpus = 8; } );\n",
         {"bad.cfg:6", "jobs.[0].min_gpus", "type \"cpu\" is CPU-only"}},
        {"a CPU job of a class with a model",
         MIXED "job_classes = ( { name = \"llm\"; params = 8e9; } );\n"
               "jobs = ( { nodes = 4; type = \"cpu\"; duration_h = 2.0;\n class = \"llm\"; } );\n",
         {"bad.cfg:7", "jobs.[0].class",
          "type \"cpu\" is CPU-only: its job trains no model, but its class or the job defaults give it params"}},
        {"a CPU job whose class gives an elastic floor in GPUs",
         MIXED "job_classes = ( { name = \"prep\";\n min_gpus = 2; } );\n"
               "jobs = ( { nodes = 4; type = \"cpu\"; duration_h = 2.0; class = \"prep\"; } );\n",
         {"bad.cfg:6", "job_classes.[0].min_gpus",
          "type \"cpu\" is CPU-only: a CPU job's elastic floor is min_nodes, not min_gpus (job \"jobs\")"}},
        {"a pool of CPU-only and GPU nodes",
         MIXED "scheduler = { pools = ( { name = \"a\"; nodes = 12; },\n { name = \"b\"; } ); };\n"
               "jobs = ( { nodes = 4; work_gpu_h = 10.0; } );\n",
         {"bad.cfg:5", "scheduler.pools.[0]",
          "pool \"a\" holds CPU-only nodes (type \"cpu\") and nodes of other types: give a CPU-only type a pool of "
          "its own (nodes 8..15)"}},
        {"a CPU job without duration_h",
         MIXED "jobs = ( { nodes = 4;\n type = \"cpu\"; } );\n",
         {"bad.cfg:5", "jobs.[0]", "a CPU job needs nodes and duration_h"}},
        {"a CPU job (duration_h) on a GPU type",
         MIXED "jobs = ( { nodes = 4; type = \"g\";\n duration_h = 2.0; } );\n",
         {"bad.cfg:6", "jobs.[0].duration_h",
          "duration_h is a CPU job's run time: it needs type naming a CPU-only type (gpus_per_node = 0; a GPU job "
          "gives work_gpu_h)"}},
        {"a GPU job in the first pool, of CPU nodes",
         CPU_FIRST "jobs = ( { nodes = 4;\n work_gpu_h = 10.0; } );\n",
         {"bad.cfg:5", "jobs.[0]", "pool \"cpu\" holds CPU-only nodes (type \"cpu\"): a GPU job needs a pool or type "
                                   "with GPUs"}},
        {"a GPU job naming the CPU pool",
         MIXED "jobs = ( { nodes = 4; work_gpu_h = 10.0;\n pool = \"cpu\"; } );\n",
         {"bad.cfg:6", "jobs.[0].pool", "pool \"cpu\" holds CPU-only nodes (type \"cpu\")"}},
        {"the job group on a CPU type",
         MIXED "job = { nodes = 4; work_gpu_h = 10.0;\n type = \"cpu\"; };\n",
         {"bad.cfg:6", "job.type", "pool \"cpu\" holds CPU-only nodes (type \"cpu\"): a GPU job needs a pool or type "
                                   "with GPUs"}},
        {"a service on the CPU pool",
         MIXED "inference = { mode = \"aggregate\"; model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
               "  replica = { gpus = 8; batch_size = 32; };\n"
               "  replicas = { min = 1; max = 1; initial = 1; }; tokens_in = { law = \"exponential\"; mean = 100.0; };\n"
               "  tokens_out = { law = \"exponential\"; mean = 100.0; }; arrivals = { qps = 1.0; };\n  pool = \"cpu\"; };\n",
         {"bad.cfg:9", "inference.pool", "pool \"cpu\" holds CPU-only nodes (type \"cpu\"): a service needs a pool "
                                         "with GPUs"}},
    };
    char dir[] = "/tmp/dcsim-cpunodes-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        dc_test_bad_run(dir, bad[k].what, bad[k].cfg, NULL, bad[k].frags, 3);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static int register_suites(void)
{
    DC_TEST_SUITE("cpunodes", {"the GPU-hour and CPU node-hour ledgers and energy by hand", test_ledgers},
                  {"a site cap counts the CPU nodes and never holds a CPU job", test_site_cap},
                  {"quotas: a CPU job uses no GPU quota", test_quota},
                  {"cost: the CPU nodes' capital, rent, chip table; the TCO's parts add up", test_cost},
                  {"per-GPU classes never take a CPU node; rates within Poisson intervals", test_failure_classes},
                  {"dcsim report: the CPU jobs and their node-hours", test_report},
                  {"bad input", test_bad_input});
    return 0;
}

int main(void) { return dc_test_main(register_suites); }
