/* Tests of the facility model: fixed overheads and the PUE at low load, utility outages against
 * the UPS's ride-through and the generators.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* models/facility/facility.h:
 *  - fixed overheads: PUE = 1 / eta + overhead T / E_IT exactly, at full load
 *    and at 20% of the nodes computing; the PUE at 20% load above the PUE at
 *    full load (and equal without overheads);
 *  - outages against ride-through: an outage shorter than the ride-through
 *    interrupts nothing, a longer one interrupts the job every time, with
 *    blackout_h and gpu_hours.power_outage by hand; generators that start
 *    within the ride-through carry the site; generators that start after it
 *    leave a blackout of start_s - ride_through_s; generators that fail to
 *    start with probability p give blackouts within the 99% binomial
 *    interval; outage counts within the 99% Poisson interval; the GPU-hour
 *    breakdown still sums to the capacity;
 *  - bad input: a no-load loss without a rating; no power section. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "simrun.h"
#include "testutil.h"

#define BASE                                                                                                   \
    "seed = 5; horizon_days = 20.0; stop_when_done = false;\n"                                                 \
    "cluster = { nodes = 10; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 5; };\n"                    \
    "power = { gpu = { idle_w = 100.0; peak_w = 700.0; }; node = { host_w = 2000.0; host_idle_w = 800.0; };\n" \
    "          ups_efficiency = 0.95; pdu_efficiency = 1.0; };\n"

static const char load_cfg[] = BASE
    "job = { nodes = 10; work_gpu_h = 1e7; restart_s = 0.0; };\n"
    "facility = { ups_no_load_fraction = 0.03; ups_rating_mw = 0.2; pumps_fans_kw = 4.0; lighting_kw = 2.0; };\n";

static const char outage_cfg[] = BASE
    "job = { nodes = 10; work_gpu_h = 1e7; restart_s = 600.0; };\n"
    "checkpoint = { interval_s = 3600.0; write_gb_per_s = 20.0; size_gb = 100.0; };\n"
    "facility = { outages = { per_year = 365.0; duration = { law = \"constant\"; mean_h = 0.25; };\n"
    "             ride_through_s = 600.0; restart_s = 300.0; }; };\n";

static double fig(dc_sim *sim, const char *key)
{
    return dc_simrun_fig(sim, key);
}

static void test_pue_at_low_load(void)
{
    const char *low[] = {"job.nodes=2"};
    const char *none[] = {"facility.ups_no_load_fraction=0.0", "facility.pumps_fans_kw=0.0",
                          "facility.lighting_kw=0.0"};
    const char *low_none[] = {"job.nodes=2", "facility.ups_no_load_fraction=0.0", "facility.pumps_fans_kw=0.0",
                              "facility.lighting_kw=0.0"};
    dc_sim *full = dc_simrun_text(load_cfg, NULL, 0, 1), *fifth = dc_simrun_text(load_cfg, low, 1, 1);
    dc_sim *full0 = dc_simrun_text(load_cfg, none, 3, 1), *fifth0 = dc_simrun_text(load_cfg, low_none, 4, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(full);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fifth);
    CU_ASSERT_PTR_NOT_NULL_FATAL(full0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fifth0);
    /* 3% of 0.2 MW + 4 kW + 2 kW */
    CU_ASSERT_DOUBLE_EQUAL(fig(full, "facility.overhead_kw"), 12.0, 1e-9);
    dc_sim *runs[] = {full, fifth};
    for (int k = 0; k < 2; k++) {
        double e_it = fig(runs[k], "power.it_energy_kwh"), t_h = 20.0 * 24.0;
        double want = 1.0 / 0.95 + 12.0 * t_h / e_it;
        CU_ASSERT_DOUBLE_EQUAL(fig(runs[k], "power.pue"), want, 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(fig(runs[k], "power.overhead_energy_kwh"), 12.0 * t_h, 1e-6);
    }
    /* a fifth of the nodes computing draws well under half the IT power */
    CU_ASSERT(fig(fifth, "power.it_energy_kwh") < 0.5 * fig(full, "power.it_energy_kwh"));
    double pue_full = fig(full, "power.pue"), pue_low = fig(fifth, "power.pue");
    printf("\n    PUE at full load %.4f, with 2 of 10 nodes computing %.4f; without overheads %.4f and %.4f", pue_full,
           pue_low, fig(full0, "power.pue"), fig(fifth0, "power.pue"));
    CU_ASSERT(pue_low > pue_full + 0.01);
    CU_ASSERT_DOUBLE_EQUAL(fig(full0, "power.pue"), 1.0 / 0.95, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(fig(fifth0, "power.pue"), 1.0 / 0.95, 1e-12);
    dc_sim_destroy(full);
    dc_sim_destroy(fifth);
    dc_sim_destroy(full0);
    dc_sim_destroy(fifth0);
}

/* The 99% Poisson interval of n for a mean mu (normal approximation). */
static bool poisson_ok(double n, double mu)
{
    bool ok = fabs(n - mu) <= DC_Z99 * sqrt(mu) + 1.0;
    if (!ok)
        fprintf(stderr, "\n  %g outside the 99%% interval of a mean %g", n, mu);
    return ok;
}

static double capacity_unexplained(dc_sim *sim)
{
    const dc_summary *s = dc_sim_summary(sim);
    double sum = 0.0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, "gpu_hours.", 10) == 0 && strcmp(k, "gpu_hours.capacity") != 0)
            sum += dc_summary_value(s, i);
    }
    return fabs(sum - fig(sim, "gpu_hours.capacity")) / fig(sim, "gpu_hours.capacity");
}

static void test_outages(void)
{
    /* longer than the ride-through (15 min > 10 min), no generator: every
     * outage a blackout from minute 10 to 15, nodes back 5 min later */
    dc_sim *long_ = dc_simrun_text(outage_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(long_);
    double n = fig(long_, "facility.outages");
    CU_ASSERT(n > 5);
    /* arrivals while the grid is up: 20 days less the outages, 365 a year */
    CU_ASSERT(poisson_ok(n, (20.0 * 24.0 - 0.25 * n) / 8766.0 * 365.0));
    CU_ASSERT_EQUAL(fig(long_, "facility.blackouts"), n);
    CU_ASSERT_EQUAL(fig(long_, "job.interruptions"), n);
    CU_ASSERT_DOUBLE_EQUAL(fig(long_, "facility.outage_h"), 0.25 * n, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(fig(long_, "facility.ups_h"), n * 600.0 / 3600.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(fig(long_, "facility.blackout_h"), n * 600.0 / 3600.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(fig(long_, "gpu_hours.power_outage"), n * 600.0 / 3600.0 * 80.0, 1e-4);
    CU_ASSERT(capacity_unexplained(long_) < 1e-9);

    /* shorter than the ride-through: the same outages, nothing stops */
    const char *short_[] = {"facility.outages.duration.mean_h=0.1"};
    dc_sim *s = dc_simrun_text(outage_cfg, short_, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT(fig(s, "facility.outages") > 5);
    CU_ASSERT_EQUAL(fig(s, "facility.blackouts"), 0.0);
    CU_ASSERT_EQUAL(fig(s, "job.interruptions"), 0.0);
    CU_ASSERT_EQUAL(fig(s, "gpu_hours.power_outage"), 0.0);

    /* generators in 15 s: the long outages are carried */
    const char *gen[] = {"facility.outages.generator.start_s=15.0"};
    dc_sim *g = dc_simrun_text(outage_cfg, gen, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    double ng = fig(g, "facility.outages");
    CU_ASSERT_EQUAL(fig(g, "facility.blackouts"), 0.0);
    CU_ASSERT_EQUAL(fig(g, "job.interruptions"), 0.0);
    CU_ASSERT_DOUBLE_EQUAL(fig(g, "facility.generator_h"), ng * (900.0 - 15.0) / 3600.0, 1e-6);

    /* generators slower than the batteries: a blackout from minute 10 to 12 */
    const char *slow[] = {"facility.outages.generator.start_s=720.0"};
    dc_sim *sl = dc_simrun_text(outage_cfg, slow, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sl);
    double ns = fig(sl, "facility.outages");
    CU_ASSERT_EQUAL(fig(sl, "facility.blackouts"), ns);
    CU_ASSERT_EQUAL(fig(sl, "job.interruptions"), ns);
    CU_ASSERT_DOUBLE_EQUAL(fig(sl, "facility.blackout_h"), ns * (120.0 + 300.0) / 3600.0, 1e-6);

    /* generators that fail to start one time in three: blackouts binomial */
    const char *flaky[] = {"facility.outages.generator.start_s=15.0", "facility.outages.generator.start_failure=0.3",
                           "horizon_days=200.0"};
    dc_sim *f = dc_simrun_text(outage_cfg, flaky, 3, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double nf = fig(f, "facility.outages"), b = fig(f, "facility.blackouts");
    CU_ASSERT(nf > 100);
    CU_ASSERT_EQUAL(b, fig(f, "facility.generator_start_failures"));
    CU_ASSERT(fabs(b - 0.3 * nf) <= DC_Z99 * sqrt(nf * 0.3 * 0.7) + 1.0);
    CU_ASSERT_EQUAL(fig(f, "job.interruptions"), b);
    CU_ASSERT(capacity_unexplained(f) < 1e-9);
    dc_sim_destroy(long_);
    dc_sim_destroy(s);
    dc_sim_destroy(g);
    dc_sim_destroy(sl);
    dc_sim_destroy(f);
}

static void test_bad_input(void)
{
    dc_error err = {0};
    static const char no_rating[] = BASE "job = { nodes = 2; work_gpu_h = 10.0; };\n"
                                         "facility = { ups_no_load_fraction = 0.02; };\n";
    dc_sim *sim = dc_simrun_try(no_rating, "t.cfg", NULL, 0, 1, &err);
    CU_ASSERT_PTR_NULL(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "t.cfg:6: facility.ups_no_load_fraction: a no-load loss needs"));
    dc_sim_destroy(sim);
    static const char no_power[] = "horizon_days = 1.0; cluster = { nodes = 2; };\n"
                                   "job = { nodes = 2; work_gpu_h = 10.0; };\n"
                                   "facility = { lighting_kw = 2.0; };\n";
    sim = dc_simrun_try(no_power, "t.cfg", NULL, 0, 1, &err);
    CU_ASSERT_PTR_NULL(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "facility needs a power section"));
    dc_sim_destroy(sim);
    static const char no_duration[] = BASE "job = { nodes = 2; work_gpu_h = 10.0; };\n"
                                           "facility = { outages = { per_year = 2.0; }; };\n";
    sim = dc_simrun_try(no_duration, "t.cfg", NULL, 0, 1, &err);
    CU_ASSERT_PTR_NULL(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "facility.outages: required key 'duration' missing"));
    dc_sim_destroy(sim);
}

static int register_suites(void)
{
    DC_TEST_SUITE("facility", {"fixed overheads: the PUE at 20% load above the PUE at full load", test_pue_at_low_load},
                  {"outages against ride-through and generators", test_outages}, {"bad input", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
