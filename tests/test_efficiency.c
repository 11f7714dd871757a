/* Tests of the seed's troubleshooting view (analysis/efficiency.h, dcsim report --efficiency).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* - a hand case: 1000 GPU-h with 100 idle, 50 rolled back, 85 checkpointing,
 *   76.5 communicating, 68.85 in the pipeline bubble and 619.65 useful at a
 *   kernel efficiency of 0.5: scheduling 0.85, data 0.9, network 0.9, device
 *   0.45 (each to 1e-12), their product 0.309825 = 0.5 x 619.65 / 1000, the
 *   device loss first, ties in the formula's order;
 * - every line to one factor, and unknown lines to the device;
 * - shipped scenarios (the flagship, a shared cluster with a service and
 *   many jobs, a pooled one, a pure inference week, a weak grid): the lines
 *   with useful work sum to gpu_hours.capacity (1e-9), the four factors
 *   multiply to kernel x useful / capacity (1e-9);
 * - dcsim report --efficiency on the flagship's trace and on the shared
 *   cluster's: the biggest loss named first, one row per job whose printed
 *   factors multiply to its printed effective share (to the printing's
 *   1e-4); --efficiency with --json is a usage error (status 2). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "efficiency.h"
#include "runner.h"
#include "simrun.h"
#include "summary.h"
#include "testutil.h"

static const char *srcdir;

static void test_hand(void)
{
    const char *lines[] = {"idle_spare", "rollback", "checkpoint", "communication", "pipeline_bubble", "useful",
                           "capacity"};
    const double h[] = {100.0, 50.0, 85.0, 76.5, 68.85, 619.65, 1000.0};
    dc_efficiency e;
    dc_efficiency_compute(lines, h, 7, 1000.0, 0.5, 1, &e);
    CU_ASSERT_DOUBLE_EQUAL(e.factor[DC_EFF_SCHEDULING], 0.85, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e.factor[DC_EFF_DATA], 0.9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e.factor[DC_EFF_NETWORK], 0.9, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e.factor[DC_EFF_DEVICE], 0.45, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(e.effective, 0.309825, 1e-12);
    CU_ASSERT_EQUAL(e.order[0], DC_EFF_DEVICE);
    CU_ASSERT_EQUAL(e.order[1], DC_EFF_SCHEDULING);
    CU_ASSERT_EQUAL(e.order[2], DC_EFF_DATA);
    CU_ASSERT_EQUAL(e.order[3], DC_EFF_NETWORK);
    CU_ASSERT_STRING_EQUAL(e.top_line[DC_EFF_SCHEDULING], "idle_spare");
    CU_ASSERT_DOUBLE_EQUAL(e.loss_gpu_h[DC_EFF_SCHEDULING], 150.0, 1e-12);
    CU_ASSERT_EQUAL(dc_efficiency_factor_of("spot_reclaimed", 1), DC_EFF_SCHEDULING);
    CU_ASSERT_EQUAL(dc_efficiency_factor_of("data_stall", 1), DC_EFF_DATA);
    CU_ASSERT_EQUAL(dc_efficiency_factor_of("inference_serving", 1), DC_EFF_USEFUL);
    CU_ASSERT_EQUAL(dc_efficiency_factor_of("inference_serving", 0), DC_EFF_DEVICE);
    CU_ASSERT_EQUAL(dc_efficiency_factor_of("something_new", 1), DC_EFF_DEVICE);
    CU_ASSERT_STRING_EQUAL(dc_efficiency_factor_name(DC_EFF_NETWORK), "network efficiency");
}

static void test_scenarios(void)
{
    static const char *const files[] = {"10k_gpu.cfg", "mixed/shared.cfg", "mixed/pools.cfg",
                                        "inference/daily_chat.cfg", "power/weak_grid.cfg"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char path[512];
        snprintf(path, sizeof path, "%s/scenarios/%s", srcdir, files[f]);
        dc_sim *sim = dc_simrun_file(path, NULL, 0, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        const dc_summary *s = dc_sim_summary(sim);
        const char *names[64];
        double v[64], sum = 0.0, useful = 0.0, capacity = dc_simrun_fig(sim, "gpu_hours.capacity");
        size_t n = 0;
        for (size_t i = 0; i < dc_summary_count(s) && n < 64; i++) {
            const char *k = dc_summary_key(s, i);
            if (strncmp(k, "gpu_hours.", 10) != 0 || strcmp(k, "gpu_hours.capacity") == 0)
                continue;
            names[n] = k + 10;
            v[n] = dc_summary_value(s, i);
            sum += v[n];
            if (strcmp(names[n], "useful") == 0 || strcmp(names[n], "inference_serving") == 0)
                useful += v[n];
            n++;
        }
        double k = 1.0;
        dc_summary_get(s, "step.kernel_efficiency", &k);
        dc_efficiency e;
        dc_efficiency_compute(names, v, n, capacity, k, 1, &e);
        double prod = 1.0;
        for (int i = 0; i < DC_EFF_FACTORS; i++)
            prod *= e.factor[i];
        printf("\n    %-26s S %.4f D %.4f N %.4f U %.4f = %.4f of peak", files[f], e.factor[DC_EFF_SCHEDULING],
               e.factor[DC_EFF_DATA], e.factor[DC_EFF_NETWORK], e.factor[DC_EFF_DEVICE], e.effective);
        CU_ASSERT(fabs(sum - capacity) <= 1e-9 * capacity);
        CU_ASSERT(fabs(prod - e.effective) <= 1e-9 * e.effective);
        CU_ASSERT(fabs(e.effective - k * useful / capacity) <= 1e-9 * e.effective);
        CU_ASSERT(e.effective > 0.0 && e.effective < 1.0);
        dc_sim_destroy(sim);
    }
    printf("\n");
}

/* Each row of the per-job table: device x network x data x scheduling = effective (printed to 1e-4). */
static size_t job_rows_consistent(const char *out, bool *ok)
{
    const char *at = strstr(out, "per job");
    size_t rows = 0;
    *ok = at != NULL;
    if (!at)
        return 0;
    at = strchr(at, '\n');
    at = at ? strchr(at + 1, '\n') : NULL; /* past the header */
    while (at && at[1]) {
        at++;
        double job, gpu_h, d, nw, da, sc, eff;
        char name[64];
        if (sscanf(at, "%lf %63s %lf %lf %lf %lf %lf %lf", &job, name, &gpu_h, &d, &nw, &da, &sc, &eff) == 8) {
            rows++;
            if (fabs(d * nw * da * sc - eff) > 5e-4) {
                fprintf(stderr, "\n  row %.0f: %g x %g x %g x %g != %g", job, d, nw, da, sc, eff);
                *ok = false;
            }
        }
        at = strchr(at, '\n');
    }
    return rows;
}

static void test_cli(void)
{
    if (!dc_runner_dcsim_path()) {
        CU_FAIL("DCSIM is not set");
        return;
    }
    char dir[] = "/tmp/dcsim_test_eff.XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    char trace[300], cfg[512];
    snprintf(trace, sizeof trace, "%s/t.h5", dir);
    snprintf(cfg, sizeof cfg, "%s/scenarios/10k_gpu.cfg", srcdir);
    dc_runner_result r = dc_runner_dcsim((const char *[]){"run", cfg, "-o", trace, "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, "--efficiency", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "the biggest loss is device utilisation"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "kernel efficiency 0.500"));
    bool ok;
    CU_ASSERT_EQUAL(job_rows_consistent(r.out, &ok), 1);
    CU_ASSERT(ok);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, "--efficiency", "--json", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "do not go together"));
    dc_runner_free(&r);
    unlink(trace);

    /* many jobs and a service: one row per job */
    snprintf(cfg, sizeof cfg, "%s/scenarios/mixed/shared.cfg", srcdir);
    r = dc_runner_dcsim((const char *[]){"run", cfg, "-o", trace, "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    r = dc_runner_dcsim((const char *[]){"report", trace, "--efficiency", NULL}, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "cluster: "));
    size_t rows = job_rows_consistent(r.out, &ok);
    printf("\n    shared.cfg: %zu job rows", rows);
    CU_ASSERT(rows > 100);
    CU_ASSERT(ok);
    dc_runner_free(&r);
    unlink(trace);
    rmdir(dir);
}

static int register_suites(void)
{
    srcdir = getenv("DCSIM_SRCDIR");
    if (!srcdir)
        srcdir = ".";
    DC_TEST_SUITE("efficiency", {"a hand case: the four factors and their order", test_hand},
                  {"shipped scenarios: the lines sum, the factors multiply (1e-9)", test_scenarios},
                  {"dcsim report --efficiency", test_cli});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
