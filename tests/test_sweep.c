/* Tests: uncertain inputs, statistics, the cost model and sweeps.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Uncertain inputs, statistics, the cost model and sweeps:
 *  - distributions: quantiles against their closed forms, truncation,
 *    the draws' uniformity, validation errors with file, line and key;
 *  - statistics against GSL and hand-computed values;
 *  - TCO arithmetic against a hand-computed small case;
 *  - a sweep whose output is an analytic function of one sampled input
 *    (mean and CI against the closed form, every row exact);
 *  - common random numbers: grid points that differ in a parameter that
 *    does not touch failures see identical failure histories;
 *  - threads, and (built with MPI) two ranks, give byte-identical /runs;
 *  - the command line: bad input gets a message, status 2 and no file.
 * The command-line tests run $DCSIM; the MPI test runs $DCSIM_MPIRUN. */
#include <dirent.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_statistics_double.h>
#include <hdf5.h>

#include "config.h"
#include "cost/cost.h"
#include "registry.h"
#include "simrun.h"
#include "stats.h"
#include "sweep.h"
#include "sweep_report.h"
#include "testutil.h"
#include "tornado.h"
#include "uncertain.h"

static const char *dcsim_path, *mpirun_path;
static char workdir[256];

/* ---- helpers --------------------------------------------------------------------- */

static dc_sim *run_scenario(dc_scenario *sc, int64_t seed)
{
    dc_error err = {0};
    dc_sim *sim = NULL;
    if (dc_build(sc, seed, &sim, &err) != DC_OK) {
        fprintf(stderr, "\n  build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        dc_sim_destroy(sim);
        return NULL;
    }
    return dc_simrun_run(sim);
}

static bool close_rel(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(1.0, fmax(fabs(a), fabs(b)));
}

/* A scenario around one input: 8 nodes x 8 GPUs, no failures. */
#define BASE_CFG                                                                              \
    "horizon_days = 100.0;\n"                                                                 \
    "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"

static const dc_uncertain *one_input(const char *job_line, dc_scenario **sc_out)
{
    char text[1024];
    snprintf(text, sizeof text, BASE_CFG "job = { nodes = 8; %s restart_s = 0.0; };\n", job_line);
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(text, "t.cfg", NULL, 0, &err);
    if (!sc) {
        fprintf(stderr, "\n  %s\n", err.msg);
        CU_FAIL("did not load");
        return NULL;
    }
    *sc_out = sc;
    CU_ASSERT_EQUAL(dc_scenario_uncertain_count(sc), 1);
    return dc_scenario_uncertain(sc, 0);
}

/* ---- distributions --------------------------------------------------------------- */

static void test_quantiles(void)
{
    static const double ps[] = {0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99};
    dc_scenario *sc = NULL;
    const dc_uncertain *u;

    /* normal, far from the key's bounds: truncation has no effect within 1e-12 */
    u = one_input("work_gpu_h = { dist = \"normal\"; mean = 1000.0; sd = 50.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_STRING_EQUAL(u->path, "job.work_gpu_h");
    CU_ASSERT_STRING_EQUAL(u->stream, "uncertain.job.work_gpu_h");
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        CU_ASSERT(close_rel(dc_uncertain_quantile(u, ps[i]), 1000.0 + gsl_cdf_gaussian_Pinv(ps[i], 50.0), 1e-12));
    dc_scenario_destroy(sc);

    u = one_input("work_gpu_h = { dist = \"lognormal\"; median = 1000.0; sigma = 0.5; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        CU_ASSERT(close_rel(dc_uncertain_quantile(u, ps[i]), gsl_cdf_lognormal_Pinv(ps[i], log(1000.0), 0.5), 1e-12));
    dc_scenario_destroy(sc);

    /* lognormal from the mean and sd of X: the same law */
    u = one_input("work_gpu_h = { dist = \"lognormal\"; mean = 1200.0; sd = 300.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    double s2 = log(1.0 + 300.0 * 300.0 / (1200.0 * 1200.0));
    CU_ASSERT(close_rel(dc_uncertain_quantile(u, 0.5), exp(log(1200.0) - 0.5 * s2), 1e-12));
    dc_scenario_destroy(sc);

    u = one_input("work_gpu_h = { dist = \"uniform\"; min = 500.0; max = 1500.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        CU_ASSERT(close_rel(dc_uncertain_quantile(u, ps[i]), 500.0 + 1000.0 * ps[i], 1e-12));
    dc_scenario_destroy(sc);

    /* triangular(0, 1, 4): F(1) = 1/4; below, x = sqrt(4 p); above, 4 - sqrt(12 (1 - p)) */
    u = one_input("work_gpu_h = { dist = \"triangular\"; min = 0.0; mode = 1.0; max = 4.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT(close_rel(dc_uncertain_quantile(u, 0.25), 1.0, 1e-12));
    CU_ASSERT(close_rel(dc_uncertain_quantile(u, 0.1), sqrt(0.4), 1e-12));
    CU_ASSERT(close_rel(dc_uncertain_quantile(u, 0.75), 4.0 - sqrt(3.0), 1e-12));
    dc_scenario_destroy(sc);

    u = one_input("work_gpu_h = { dist = \"weibull\"; scale = 100.0; shape = 1.5; loc = 10.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++)
        CU_ASSERT(close_rel(dc_uncertain_quantile(u, ps[i]), 10.0 + gsl_cdf_weibull_Pinv(ps[i], 100.0, 1.5), 1e-12));
    dc_scenario_destroy(sc);

    /* empirical with weights: P(10) = 0.2, P(20) = 0.5, P(30) = 0.3 (given unsorted) */
    u = one_input("work_gpu_h = { dist = \"empirical\"; values = [30.0, 10.0, 20.0]; weights = [3, 2, 5]; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.1), 10.0);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.2), 10.0);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.21), 20.0);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.7), 20.0);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.71), 30.0);
    dc_scenario_destroy(sc);
}

/* A normal truncated to the key's range (0, 1]: Q(p) solves
 * (Phi(Q) - Phi(lo)) / (Phi(hi) - Phi(lo)) = p. */
static void test_truncation(void)
{
    dc_scenario *sc = NULL;
    const dc_uncertain *u =
        one_input("work_gpu_h = 100.0; mfu = { dist = \"normal\"; mean = 0.9; sd = 0.2; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    double flo = gsl_cdf_gaussian_P(0.0 - 0.9, 0.2), fhi = gsl_cdf_gaussian_P(1.0 - 0.9, 0.2);
    for (double p = 0.05; p < 1.0; p += 0.1) {
        double q = dc_uncertain_quantile(u, p);
        CU_ASSERT(q > 0.0 && q <= 1.0);
        CU_ASSERT_DOUBLE_EQUAL((gsl_cdf_gaussian_P(q - 0.9, 0.2) - flo) / (fhi - flo), p, 1e-9);
    }
    CU_ASSERT(dc_uncertain_quantile(u, 1.0) <= 1.0);
    CU_ASSERT(dc_uncertain_quantile(u, 0.0) > 0.0); /* the key excludes 0 */
    dc_scenario_destroy(sc);

    /* explicit min/max bounds truncate too */
    u = one_input("work_gpu_h = { dist = \"normal\"; mean = 100.0; sd = 50.0; min = 80.0; max = 90.0; };", &sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(u);
    for (double p = 0.0; p <= 1.0; p += 0.125) {
        double q = dc_uncertain_quantile(u, p);
        CU_ASSERT(q >= 80.0 && q <= 90.0);
    }
    dc_scenario_destroy(sc);

    /* integer keys take the nearest integer in range */
    char text[512];
    snprintf(text, sizeof text,
             BASE_CFG "job = { nodes = { dist = \"uniform\"; min = 1.0; max = 8.0; }; work_gpu_h = 10.0; };\n");
    dc_error err = {0};
    sc = dc_simrun_load(text, "t.cfg", NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    u = dc_scenario_uncertain(sc, 0);
    CU_ASSERT(u->integer);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.5), 5.0); /* 4.5 rounds away from zero */
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 0.0), 1.0);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(u, 1.0), 8.0);
    int nodes = 0;
    CU_ASSERT(config_lookup_int(dc_scenario_config(sc), "job.nodes", &nodes));
    CU_ASSERT_EQUAL(nodes, 5); /* the median is in place */
    dc_scenario_destroy(sc);
}

/* The draws: uniform on (0, 1) per stream, the same for a stream name, the
 * mean of a sample within its 99% interval, shared streams comonotonic. */
static void test_draws(void)
{
    const size_t n = 20000;
    double sum = 0.0, sumsq = 0.0, below = 0.0;
    for (size_t s = 1; s <= n; s++) {
        double u = dc_uncertain_draw(s, "uncertain.a");
        CU_ASSERT(u > 0.0 && u < 1.0);
        sum += u;
        sumsq += u * u;
        below += u < 0.1;
        CU_ASSERT_EQUAL(u, dc_uncertain_draw(s, "uncertain.a"));
    }
    double mean = sum / n, var = sumsq / n - mean * mean;
    /* U(0,1): mean 1/2, variance 1/12; P(u < 0.1) = 0.1 */
    CU_ASSERT(fabs(mean - 0.5) <= DC_Z99 * sqrt(1.0 / 12.0 / n));
    CU_ASSERT(fabs(var - 1.0 / 12.0) < 0.005);
    CU_ASSERT(fabs(below / n - 0.1) <= DC_Z99 * sqrt(0.09 / n));
    /* other streams are other numbers */
    CU_ASSERT(dc_uncertain_draw(1, "uncertain.a") != dc_uncertain_draw(1, "uncertain.b"));

    char text[1024];
    snprintf(text, sizeof text,
             BASE_CFG "job = { nodes = 8; work_gpu_h = { dist = \"lognormal\"; median = 100.0; sigma = 0.3; "
                      "stream = \"f\"; };\n"
                      "  restart_s = { dist = \"lognormal\"; median = 600.0; sigma = 0.3; stream = \"f\"; };\n"
                      "  mfu = { dist = \"uniform\"; min = 0.3; max = 0.5; }; };\n");
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(text, "t.cfg", NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_uncertain_count(sc), 3);
    double v[3], w[3];
    for (uint64_t seed = 1; seed < 50; seed++) {
        dc_scenario_sample(sc, seed, v);
        /* one draw moves both: their ratio is their medians' */
        CU_ASSERT(close_rel(v[1] / v[0], 6.0, 1e-12));
        double got;
        config_lookup_float(dc_scenario_config(sc), "job.mfu", &got);
        CU_ASSERT_EQUAL(got, v[2]); /* written into the scenario */
        dc_scenario_sample(sc, seed, w);
        CU_ASSERT(memcmp(v, w, sizeof v) == 0);
    }
    dc_scenario_destroy(sc);
}

/* dcsim run takes the median; --set fixes a value. */
static void test_median_and_set(void)
{
    static const char text[] = BASE_CFG
        "job = { nodes = 8; work_gpu_h = { dist = \"uniform\"; min = 500.0; max = 1500.0; }; restart_s = 0.0; };\n";
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(text, "t.cfg", NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *sim = run_scenario(sc, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "job.ideal_days"), 1000.0 / 64.0 / 24.0, 1e-12));
    dc_sim_destroy(sim);
    /* after validation: the value is fixed and the input gone */
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.work_gpu_h=640", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_uncertain_count(sc), 0);
    dc_scenario_destroy(sc);
    /* before validation */
    const char *sets[] = {"job.work_gpu_h=640"};
    sc = dc_simrun_load(text, "t.cfg", sets, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_uncertain_count(sc), 0);
    dc_scenario_destroy(sc);
    /* a parameter of the distribution (so a sweep can vary an uncertainty) */
    const char *param[] = {"job.work_gpu_h.max=2000"};
    sc = dc_simrun_load(text, "t.cfg", param, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_uncertain_quantile(dc_scenario_uncertain(sc, 0), 0.5), 1250.0);
    dc_scenario_destroy(sc);
    const char *bad[] = {"job.restart_s.sd=1"};
    CU_ASSERT_PTR_NULL(dc_simrun_load(text, "t.cfg", bad, 1, &err));
    CU_ASSERT_STRING_EQUAL(err.msg, "--set job.restart_s.sd=1: job.restart_s is not a distribution in the scenario");
    const char *negative[] = {"job.work_gpu_h.min=-5"};
    CU_ASSERT_PTR_NULL(dc_simrun_load(text, "t.cfg", negative, 1, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "job.work_gpu_h.min: -5 is outside the key's range"));
}

typedef struct bad_dist {
    const char *value;      /* of job.mfu (line 3) or job.work_gpu_h */
    const char *fragments[3];
} bad_dist;

static void test_validation_errors(void)
{
    static const bad_dist cases[] = {
        {"mfu = { dist = \"normal\"; mean = 0.4; sd = -0.1; };", {"t.cfg:4", "job.mfu.sd", "at least 0"}},
        {"mfu = { dist = \"gauss\"; mean = 0.4; sd = 0.1; };", {"t.cfg:4", "job.mfu.dist", "gauss"}},
        {"mfu = { mean = 0.4; sd = 0.1; };", {"t.cfg:4", "job.mfu", "without dist"}},
        {"mfu = { dist = \"normal\"; mean = 0.4; sd = 0.1; mode = 2.0; };", {"job.mfu.mode", "does not take"}},
        {"mfu = { dist = \"normal\"; mean = 0.4; sdd = 0.1; };", {"job.mfu.sdd", "unknown key"}},
        {"mfu = { dist = \"normal\"; mean = 0.4; };", {"t.cfg:4", "job.mfu", "needs mean and sd"}},
        {"mfu = { dist = \"normal\"; mean = \"x\"; sd = 0.1; };", {"job.mfu.mean", "finite number"}},
        {"mfu = { dist = \"uniform\"; min = 0.2; max = 1.5; };", {"job.mfu.max", "outside the key's range"}},
        {"mfu = { dist = \"uniform\"; min = 0.5; max = 0.2; };", {"job.mfu.max", "at least min"}},
        {"mfu = { dist = \"triangular\"; min = 0.2; mode = 0.9; max = 0.5; };", {"job.mfu.mode", "between"}},
        {"mfu = { dist = \"lognormal\"; median = 0.4; sd = 0.1; };", {"job.mfu", "median and sigma"}},
        {"mfu = { dist = \"normal\"; mean = 5.0; sd = 0.01; };", {"job.mfu", "almost no probability"}},
        {"mfu = { dist = \"weibull\"; scale = 0.0; shape = 1.0; };", {"job.mfu.scale", "greater than 0"}},
        {"mfu = { dist = \"empirical\"; values = [0.3, 1.2]; };", {"job.mfu.values", "outside"}},
        {"mfu = { dist = \"empirical\"; values = [0.3, 0.4]; weights = [1.0]; };", {"job.mfu.weights", "as many"}},
        {"mfu = { dist = \"empirical\"; values = [0.3, 0.4]; weights = [-1.0, 2.0]; };", {"job.mfu.weights", "at least 0"}},
        {"mfu = { dist = \"uniform\"; min = 0.2; max = 0.3; stream = \"Bad Name\"; };", {"job.mfu.stream", "stream name"}},
        {"restart_s = { dist = \"normal\"; mean = 1.0; sd = -2.0; };", {"t.cfg:4", "job.restart_s.sd", "-2"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char text[1024];
        snprintf(text, sizeof text, BASE_CFG "job = { nodes = 8; work_gpu_h = 10.0;\n %s };\n", cases[i].value);
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load(text, "t.cfg", NULL, 0, &err);
        bool ok = !sc && err.code == DC_EINPUT;
        for (size_t f = 0; f < 3 && cases[i].fragments[f]; f++)
            ok = ok && strstr(err.msg, cases[i].fragments[f]) != NULL;
        if (!ok)
            fprintf(stderr, "\n  case '%s': code %d, message '%s'", cases[i].value, err.code, err.msg);
        CU_ASSERT(ok);
        dc_scenario_destroy(sc);
    }
}

/* ---- statistics ---------------------------------------------------------------- */

static void test_stats_closed_forms(void)
{
    const double x[] = {5, 1, 4, 2, 3, NAN};
    dc_stats s;
    CU_ASSERT_EQUAL_FATAL(dc_stats_compute(x, 6, 1, &s), DC_OK);
    CU_ASSERT_EQUAL(s.n, 6);
    CU_ASSERT_EQUAL(s.n_nan, 1);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, 3.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(s.sd, sqrt(2.5), 1e-15);
    /* t(0.975, 4) = 2.7764451051977987 */
    double half = 2.7764451051977987 * sqrt(2.5) / sqrt(5.0);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_lo, 3.0 - half, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.ci_hi, 3.0 + half, 1e-12);
    /* type 7: Q(p) = x_(1 + 4p) interpolated */
    CU_ASSERT_DOUBLE_EQUAL(s.p5, 1.2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.p50, 3.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.p90, 4.6, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.p95, 4.8, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.p99, 4.96, 1e-12);
    CU_ASSERT_EQUAL(s.min, 1.0);
    CU_ASSERT_EQUAL(s.max, 5.0);

    /* strided access, against GSL directly */
    double m[40];
    for (int i = 0; i < 20; i++) {
        m[2 * i] = sin(i) * 10.0;
        m[2 * i + 1] = -1.0;
    }
    CU_ASSERT_EQUAL_FATAL(dc_stats_compute(m, 20, 2, &s), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(s.mean, gsl_stats_mean(m, 2, 20), 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s.sd, gsl_stats_sd(m, 2, 20), 1e-12);

    /* VaR and CVaR of 1..100 at 0.95: Q = 1 + 0.95 x 99 = 95.05; mean of 96..100 = 98 */
    double y[100];
    for (int i = 0; i < 100; i++)
        y[i] = 100 - i;
    double var, cvar;
    CU_ASSERT_EQUAL(dc_stats_var(y, 100, 1, 0.95, &var, &cvar), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(var, 95.05, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(cvar, 98.0, 1e-12);

    /* Wilson: k = 0 of n = 100: [0, z^2 / (n + z^2)]; k = 50: centre 0.5 */
    double p, lo, hi, z = 1.959963984540054;
    dc_stats_proportion(0, 100, 0.95, &p, &lo, &hi);
    CU_ASSERT_EQUAL(p, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(lo, 0.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(hi, z * z / (100.0 + z * z), 1e-12);
    dc_stats_proportion(50, 100, 0.95, &p, &lo, &hi);
    CU_ASSERT_DOUBLE_EQUAL(0.5 * (lo + hi), 0.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(hi - 0.5, z * sqrt(0.25 / 100.0 + z * z / 40000.0) / (1.0 + z * z / 100.0), 1e-12);
}

static void test_stats_ranking(void)
{
    enum { N = 200 };
    double x[N * 3], y[N], cube[N];
    for (int i = 0; i < N; i++) {
        double a = dc_uncertain_draw((uint64_t)i, "uncertain.a"), b = dc_uncertain_draw((uint64_t)i, "uncertain.b");
        x[3 * i] = a;
        x[3 * i + 1] = b;
        x[3 * i + 2] = 7.0; /* constant */
        y[i] = 3.0 * a + b;
        cube[i] = pow(a, 3);
    }
    /* monotone transforms: rho = 1 */
    CU_ASSERT_DOUBLE_EQUAL(dc_stats_spearman(x, 3, cube, 1, N), 1.0, 1e-12);
    CU_ASSERT(isnan(dc_stats_spearman(x + 2, 3, y, 1, N)));
    double ra = dc_stats_spearman(x, 3, y, 1, N), rb = dc_stats_spearman(x + 1, 3, y, 1, N);
    CU_ASSERT(ra > rb && rb > 0.0);
    double srrc[3], r2;
    CU_ASSERT_EQUAL(dc_stats_rank_regression(x, 3, 3, y, 1, N, srrc, &r2), DC_OK);
    CU_ASSERT(srrc[0] > 2.0 * srrc[1] && srrc[1] > 0.0);
    CU_ASSERT_EQUAL(srrc[2], 0.0);
    CU_ASSERT(r2 > 0.95 && r2 <= 1.0);
    /* independent noise: |rho| within the 99% band of the null, about z / sqrt(n - 1) */
    double noise[N];
    for (int i = 0; i < N; i++)
        noise[i] = dc_uncertain_draw((uint64_t)i, "uncertain.noise");
    CU_ASSERT(fabs(dc_stats_spearman(x, 3, noise, 1, N)) < DC_Z99 / sqrt(N - 1.0));
}

/* ---- cost --------------------------------------------------------------------------- */

/* One year (365.25 days), 4 nodes x 8 GPUs, half owned, the rented half
 * split reserved / on demand.  Every figure below is worked by hand. */
static const char cost_cfg[] =
    "horizon_days = 365.25; stop_when_done = false;\n"
    "cluster = { nodes = 4; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; work_gpu_h = 100.0; restart_s = 0.0; };\n"
    "cost = { owned = 0.5; rented_reserved = 0.5; discount_rate = 0.0;\n"
    "  capex = { gpu_usd = 1000.0; server_usd = 2000.0; network_ports_per_gpu = 0.0;\n"
    "            life_years = 2.0; residual_fraction = 0.2; interest_rate = 0.1; };\n"
    "  opex = { electricity_usd_per_kwh = 0.1; facility_mw = 0.01; maintenance_fraction = 0.05;\n"
    "           staff_per_nodes = 2.0; staff_usd_per_year = 1000.0; licence_usd_per_gpu_year = 10.0;\n"
    "           data_transfer_tb_per_month = 1.0; data_transfer_usd_per_tb = 5.0; };\n"
    "  rent = { on_demand_usd_per_gpu_h = 2.0; reserved_discount = 0.5; reserved_term_years = 0.5;\n"
    "           spot_usd_per_gpu_h = 1.0; spot_gpu_h = 100.0; spot_rework = 0.1; };\n"
    "};\n"
    "deadline = { days = 1.0; penalty_usd = 100.0; penalty_usd_per_day = 10.0; };\n";

static void test_tco_by_hand(void)
{
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(cost_cfg, "t.cfg", NULL, 0, &err);
    if (!sc)
        fprintf(stderr, "\n  %s\n", err.msg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *sim = run_scenario(sc, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* capital: owned half of 32 x 1000 + 4 x 2000 = 20000; residual 4000; D = 8000 / yr */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_usd"), 20000.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.depreciation_usd"), 8000.0, 1e-12));
    /* interest 0.1 x (20000 x 1 - 8000 x 1 / 2) */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.interest_usd"), 1600.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.residual_value_usd"), 12000.0, 1e-12));
    /* energy: 10 kW x 8766 h; the owned half pays 0.1 $/kWh */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.energy_kwh"), 87660.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.energy_usd"), 4383.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.maintenance_usd"), 0.05 * 20000.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.staff_usd"), 0.5 * 4 / 2.0 * 1000.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.licences_usd"), 320.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.data_transfer_usd"), 60.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.repairs_usd"), 0.0);
    /* on demand: 8 GPUs x 8766 h x 2 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_on_demand_usd"), 140256.0, 1e-12));
    /* reserved: 8 GPUs x (4383 h x 2 x 0.5 + 4383 h past the term x 2) */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_reserved_usd"), 35064.0 + 70128.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_usd"), 110.0, 1e-12));
    double tco = 8000 + 1600 + 4383 + 1000 + 1000 + 320 + 60 + 140256 + 105192 + 110;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco_usd"), tco, 1e-12));
    /* the job took 100 / 32 h: within the deadline */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "deadline.missed"), 0.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.total_usd"), tco, 1e-12));
    /* no discounting: the NPV is the TCO */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.npv_usd"), tco, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.usd_per_useful_gpu_h"), tco / 100.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.usd_per_model"), tco, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "output.useful_gpu_h_per_gpu_day"), 100.0 / (32 * 365.25), 1e-12));
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);

    /* A job of 2 days (64 GPU-h on 32 GPUs... x 48): 0.5 day late on a 1.5-day deadline */
    const char *sets[] = {"job.work_gpu_h=1536", "deadline.days=1.5", "stop_when_done=true"};
    sc = dc_simrun_load(cost_cfg, "t.cfg", sets, 3, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    sim = run_scenario(sc, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "job.completion_days"), 2.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "deadline.missed"), 1.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "deadline.days_late"), 0.5, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "deadline.penalty_usd"), 105.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.total_usd") - dc_simrun_fig(sim, "cost.tco_usd"), 105.0, 1e-9));
    /* the window is the 2 days: on demand 8 GPUs x 48 h x 2 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_on_demand_usd"), 768.0, 1e-12));
    /* reserved: the half-year commitment is paid in full */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_reserved_usd"), 35064.0, 1e-12));
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
}

typedef struct flow {
    double delta, a, slope;
} flow;

static double flow_fn(double t, void *p)
{
    const flow *f = p;
    return (f->a + f->slope * t) * exp(-f->delta * t);
}

static void test_capital_and_pv(void)
{
    /* past the life: C 1000, R 100, L 2, i 0.1, 3 years; D = 450 */
    dc_cost_capital c = dc_cost_capital_over(1000.0, 100.0, 2.0, 0.1, 3.0);
    CU_ASSERT_DOUBLE_EQUAL(c.depreciation_usd, 900.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(c.interest_usd, 0.1 * (2000.0 - 450.0 * 4.0 / 2.0 + 100.0), 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(c.book_value_usd, 100.0, 1e-9);
    /* present values against numerical integration */
    gsl_integration_workspace *w = gsl_integration_workspace_alloc(1000);
    for (double d = 0.0; d < 0.31; d += 0.15) {
        double delta = log1p(d), result, abserr;
        flow f = {delta, 1.0, 0.0};
        gsl_function F = {flow_fn, &f};
        gsl_integration_qags(&F, 0.5, 3.0, 0, 1e-12, 1000, w, &result, &abserr);
        CU_ASSERT_DOUBLE_EQUAL(dc_cost_pv_const(delta, 0.5, 3.0), result, 1e-9);
        f = (flow){delta, 0.0, 1.0};
        gsl_integration_qags(&F, 0.5, 3.0, 0, 1e-12, 1000, w, &result, &abserr);
        CU_ASSERT_DOUBLE_EQUAL(dc_cost_pv_linear(delta, 0.5, 3.0), result, 1e-9);
    }
    gsl_integration_workspace_free(w);

    /* the NPV of the small case at 10%: capital flow D + i B(t), the rest
     * spread evenly; computed here from the helpers and the figures */
    const char *sets[] = {"cost.discount_rate=0.1"};
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(cost_cfg, "t.cfg", sets, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *sim = run_scenario(sc, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double delta = log1p(0.1);
    double capital = (8000.0 + 0.1 * 20000.0) * dc_cost_pv_const(delta, 0, 1) - 0.1 * 8000.0 * dc_cost_pv_linear(delta, 0, 1);
    double even = (4383.0 + 1000 + 1000 + 320 + 60 + 140256 + 110) * dc_cost_pv_const(delta, 0, 1);
    double reserved = 35064.0 / 0.5 * dc_cost_pv_const(delta, 0, 0.5) + 70128.0 / 0.5 * dc_cost_pv_const(delta, 0.5, 1);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.npv_usd"), capital + even + reserved, 1e-9));
    CU_ASSERT(dc_simrun_fig(sim, "cost.npv_usd") < dc_simrun_fig(sim, "cost.tco_usd"));
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
}

static void test_cost_errors(void)
{
    static const struct {
        const char *set;
        const char *fragment;
    } cases[] = {
        {"cost.capex.facility_usd_per_mw=1e6", "it_kw_per_gpu"},
        {"cost.opex.facility_mw=1e-300", NULL}, /* accepted */
        {"cost.owned=1.5", "at most 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load(cost_cfg, "t.cfg", &cases[i].set, 1, &err);
        dc_sim *sim = NULL;
        int rc = sc ? dc_build(sc, 1, &sim, &err) : err.code;
        if (cases[i].fragment) {
            CU_ASSERT_EQUAL(rc, DC_EINPUT);
            CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, cases[i].fragment));
        } else {
            CU_ASSERT_EQUAL(rc, DC_OK);
        }
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
    /* an electricity price with no energy source; a repair price for no class */
    static const char *texts[] = {
        "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 1.0; };\n"
        "cost = { opex = { electricity_usd_per_kwh = 0.1; }; };\n",
        "horizon_days = 1.0;\ncluster = { nodes = 4; };\njob = { nodes = 4; work_gpu_h = 1.0; };\n"
        "cost = { opex = { repairs = ( { class = \"gpu\"; parts_usd = 1.0; } ); }; };\n",
    };
    static const char *frags[] = {"t.cfg:4: cost.opex.electricity_usd_per_kwh", "no failure class is named \"gpu\""};
    for (size_t i = 0; i < 2; i++) {
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load(texts[i], "t.cfg", NULL, 0, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
        dc_sim *sim = NULL;
        CU_ASSERT_EQUAL(dc_build(sc, 1, &sim, &err), DC_EINPUT);
        CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, frags[i]));
        if (!strstr(err.msg, frags[i]))
            fprintf(stderr, "\n  got '%s'", err.msg);
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
}

/* ---- sweeps ---------------------------------------------------------------------- */

static dc_sweep *make_sweep(const char *text, const char *const *vary, size_t n_vary, size_t reps, size_t workers)
{
    dc_sweep_spec spec = {
        .text = text, .text_name = "t.cfg", .schemas = dc_schemas(), .build = dc_build,
        .vary = vary, .n_vary = n_vary, .reps = reps, .seed = -1,
    };
    dc_error err = {0};
    dc_sweep *sw = NULL;
    if (dc_sweep_create(&spec, workers, &sw, &err) != DC_OK) {
        fprintf(stderr, "\n  sweep: %s\n", err.msg);
        CU_FAIL("sweep not created");
        return NULL;
    }
    size_t n = dc_sweep_rows(sw);
    size_t *rows = malloc(n * sizeof *rows);
    for (size_t i = 0; i < n; i++)
        rows[i] = i;
    if (dc_sweep_run(sw, rows, n, workers, NULL, NULL, &err) != DC_OK) {
        fprintf(stderr, "\n  sweep run: %s\n", err.msg);
        CU_FAIL("sweep did not run");
    }
    free(rows);
    return sw;
}

/* Completion time = restart + W / (64 GPUs x 24) days with W uniform on
 * [a, b]: E = restart + (a + b) / 2 / 1536 days. */
static const char analytic_cfg[] = BASE_CFG
    "job = { nodes = 8; work_gpu_h = { dist = \"uniform\"; min = 768.0; max = 2304.0; }; restart_s = 8640.0; };\n";

static void test_sweep_analytic(void)
{
    const size_t reps = 400;
    dc_sweep *sw = make_sweep(analytic_cfg, NULL, 0, reps, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
    dc_error err = {0};
    dc_sweep_table *t = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_sweep_table_build(sw, &t, &err), DC_OK);
    long cin = dc_sweep_table_column(t, "input.job.work_gpu_h"), cout = dc_sweep_table_column(t, "job.completion_days");
    CU_ASSERT_FATAL(cin == 0 && cout > cin); /* inputs come first */
    /* every row: the output is the analytic function of the input drawn */
    double *y = malloc(reps * sizeof *y);
    for (size_t i = 0; i < reps; i++) {
        double w = t->values[i * t->n_cols + cin];
        y[i] = t->values[i * t->n_cols + cout];
        CU_ASSERT(w >= 768.0 && w <= 2304.0);
        CU_ASSERT(close_rel(y[i], 0.1 + w / 1536.0, 1e-12));
        /* the draw is the replication's: seed 1 + i */
        CU_ASSERT_EQUAL(w, 768.0 + 1536.0 * dc_uncertain_draw(1 + i, "uncertain.job.work_gpu_h"));
    }
    const char *metrics[] = {"job.completion_days"};
    dc_sweep_report *r = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_sweep_report_build(sw, t, metrics, 1, NULL, 0.95, &r, &err), DC_OK);
    const dc_stats *s = &r->pt[0].stats[cout];
    /* the report's numbers are GSL's on the same data */
    double mean = gsl_stats_mean(y, 1, reps), sd = gsl_stats_sd(y, 1, reps);
    double half = gsl_cdf_tdist_Pinv(0.975, reps - 1.0) * sd / sqrt((double)reps);
    CU_ASSERT_DOUBLE_EQUAL(s->mean, mean, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s->ci_lo, mean - half, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(s->ci_hi, mean + half, 1e-12);
    /* and the closed form lies within the 99% interval of the sample mean */
    double expected = 0.1 + 0.5 * (768.0 + 2304.0) / 1536.0; /* 1.1 days */
    double half99 = gsl_cdf_tdist_Pinv(0.995, reps - 1.0) * sd / sqrt((double)reps);
    printf("\n  mean completion %.5f days, closed form %.5f, 99%% half-width %.5f\n", mean, expected, half99);
    CU_ASSERT(fabs(mean - expected) <= half99);
    /* sd of a uniform: (b - a) / sqrt(12), in days: within 10% for n = 400 */
    CU_ASSERT(fabs(sd - 1.0 / sqrt(12.0)) < 0.1 / sqrt(12.0));
    /* percentiles: the closed-form CDF at each empirical quantile lies within
     * the DKW band eps = sqrt(ln(2 / 0.01) / (2 n)) of its level */
    double eps = sqrt(log(2.0 / 0.01) / (2.0 * reps));
    double qs[] = {s->p5, s->p50, s->p90, s->p95, s->p99}, ps[] = {0.05, 0.5, 0.9, 0.95, 0.99};
    for (size_t k = 0; k < 5; k++) {
        double F = (qs[k] - 0.1 - 0.5) / 1.0; /* (d - 0.1) x 1536 uniform on [768, 2304] */
        CU_ASSERT(fabs(F - ps[k]) <= eps);
    }
    /* the only input ranks first with rho = 1 */
    CU_ASSERT_EQUAL(r->n_inputs, 1);
    CU_ASSERT_DOUBLE_EQUAL(r->pt[0].rho[0], 1.0, 1e-12);
    /* no deadline: "missed" is "not finished within the horizon": never */
    CU_ASSERT(r->has_miss && !r->has_deadline);
    CU_ASSERT_EQUAL(r->pt[0].miss_k, 0);
    free(y);
    dc_sweep_report_destroy(r);
    dc_sweep_table_destroy(t);
    dc_sweep_destroy(sw);
}

/* Tornado of completion = restart + W / 1536 days, W ~ U(768, 2304) GPU-h,
 * restart ~ U(0, 17280) s: each input at P10 and P90, the other at its
 * median, gives closed forms (no failures: every seed the same). */
static void test_tornado(void)
{
    static const char text[] = BASE_CFG
        "job = { nodes = 8; work_gpu_h = { dist = \"uniform\"; min = 768.0; max = 2304.0; };\n"
        "  restart_s = { dist = \"uniform\"; min = 0.0; max = 17280.0; }; };\n";
    dc_sweep *sw = make_sweep(text, NULL, 0, 4, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
    const char *metrics[] = {"job.completion_days", "job.ideal_days"};
    dc_tornado *t = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_tornado_run(sw, metrics, 2, 3, 0.1, 0.9, 2, &t, &err), DC_OK);
    CU_ASSERT_EQUAL(t->n_inputs, 2);
    CU_ASSERT_STRING_EQUAL(t->inputs[0], "job.work_gpu_h");
    CU_ASSERT_STRING_EQUAL(t->inputs[1], "job.restart_s");
    CU_ASSERT_DOUBLE_EQUAL(t->base[0], 1.1, 1e-12);
    /* work: P10 921.6, P90 2150.4 GPU-h; restart at its median 0.1 day */
    CU_ASSERT_DOUBLE_EQUAL(t->lo[0 * 2 + 0], 0.7, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t->hi[0 * 2 + 0], 1.5, 1e-12);
    /* restart: P10 0.02 day, P90 0.18 day; work at its median, 1 day */
    CU_ASSERT_DOUBLE_EQUAL(t->lo[1 * 2 + 0], 1.02, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(t->hi[1 * 2 + 0], 1.18, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_tornado_swing(t, 0, 0, 0), 0.8, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_tornado_swing(t, 0, 1, 0), 0.16, 1e-12);
    /* the ideal time does not see the restart */
    CU_ASSERT_DOUBLE_EQUAL(dc_tornado_swing(t, 0, 1, 1), 0.0, 1e-15);
    dc_tornado_destroy(t);
    dc_sweep_destroy(sw);
}

/* Failures on GPUs and nodes only (no job-level class), a fixed horizon: the
 * cluster's up/down history does not depend on the job, so grid points that
 * differ only in the job's MFU or checkpoint bandwidth see the same failures. */
static const char crn_cfg[] =
    "horizon_days = 20.0; stop_when_done = false;\n"
    "cluster = { nodes = 16; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 16; params = 7e9; tokens = 2e12; mfu = 0.4; restart_s = 300.0; };\n"
    "checkpoint = { interval_s = \"auto\"; size_gb = 100.0; write_gb_per_s = 10.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = { dist = \"lognormal\"; median = 2000.0; sigma = 0.3; }; },\n"
    "             { name = \"node\"; per = \"node\"; mtbf_h = 500.0; } );\n"
    "repair = { crews = 2; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n"
    "cost = { capex = { gpu_usd = { dist = \"uniform\"; min = 1.0; max = 2.0; }; }; };\n";

static void failure_rows(dc_sim *sim, double **t, int32_t **id, size_t *n)
{
    const dc_eventlog *log = dc_sim_eventlog(sim);
    *n = 0;
    *t = malloc((dc_eventlog_count(log) + 1) * sizeof **t);
    *id = malloc((dc_eventlog_count(log) + 1) * sizeof **id);
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        const dc_eventlog_row *r = &dc_eventlog_rows(log)[i];
        if (strcmp(r->kind, "failure") == 0) {
            (*t)[*n] = r->time_s;
            (*id)[(*n)++] = r->id;
        }
    }
}

static void test_common_random_numbers(void)
{
    const char *vary[] = {"job.mfu=0.3,0.5", "checkpoint.write_gb_per_s=5,20"};
    const size_t reps = 6;
    dc_sweep *sw = make_sweep(crn_cfg, vary, 2, reps, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
    CU_ASSERT_EQUAL(dc_sweep_points(sw), 4);
    CU_ASSERT_STRING_EQUAL(dc_sweep_point_value(sw, 1, 1), "20"); /* the first axis varies slowest */
    CU_ASSERT_STRING_EQUAL(dc_sweep_point_value(sw, 2, 0), "0.5");
    dc_error err = {0};
    dc_sweep_table *t = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_sweep_table_build(sw, &t, &err), DC_OK);
    long cols[] = {dc_sweep_table_column(t, "failures.total"), dc_sweep_table_column(t, "failures.gpu"),
                   dc_sweep_table_column(t, "failures.node"), dc_sweep_table_column(t, "repair.tickets"),
                   dc_sweep_table_column(t, "input.failures.[0].mtbf_h"),
                   dc_sweep_table_column(t, "input.cost.capex.gpu_usd")};
    long useful = dc_sweep_table_column(t, "job.work_done_fraction");
    for (size_t k = 0; k < 6; k++)
        CU_ASSERT_FATAL(cols[k] >= 0);
    bool rep_differs = false;
    for (size_t r = 0; r < reps; r++) {
        const double *first = t->values + r * t->n_cols;
        for (size_t g = 1; g < 4; g++) {
            const double *row = t->values + (g * reps + r) * t->n_cols;
            for (size_t k = 0; k < 6; k++)
                CU_ASSERT_EQUAL(row[cols[k]], first[cols[k]]);
            CU_ASSERT(row[useful] != first[useful]); /* the parameter did change the run */
        }
        if (r > 0 && first[cols[0]] != t->values[cols[0]])
            rep_differs = true;
    }
    CU_ASSERT(rep_differs); /* replications do differ */

    /* and failure by failure: same times, same nodes */
    for (uint64_t seed = 1; seed <= 3; seed++) {
        double *ta, *tb;
        int32_t *ia, *ib;
        size_t na, nb;
        dc_scenario *a = (dc_scenario *)dc_sweep_scenario(sw, 0), *b = (dc_scenario *)dc_sweep_scenario(sw, 3);
        dc_scenario_sample(a, seed, NULL);
        dc_scenario_sample(b, seed, NULL);
        dc_sim *sa = run_scenario(a, (int64_t)seed), *sb = run_scenario(b, (int64_t)seed);
        CU_ASSERT_FATAL(sa && sb);
        failure_rows(sa, &ta, &ia, &na);
        failure_rows(sb, &tb, &ib, &nb);
        CU_ASSERT(na > 10);
        CU_ASSERT_EQUAL(na, nb);
        for (size_t i = 0; i < na && i < nb; i++) {
            CU_ASSERT_EQUAL(ta[i], tb[i]);
            CU_ASSERT_EQUAL(ia[i], ib[i]);
        }
        CU_ASSERT(dc_simrun_fig(sa, "job.work_done_fraction") != dc_simrun_fig(sb, "job.work_done_fraction"));
        free(ta);
        free(tb);
        free(ia);
        free(ib);
        dc_sim_destroy(sa);
        dc_sim_destroy(sb);
    }
    dc_sweep_table_destroy(t);
    dc_sweep_destroy(sw);
}

/* One thread or two, and rows moved as text: bit-identical tables. */
static void test_threads_and_packing(void)
{
    const char *vary[] = {"job.mfu=0.3:0.5:0.1"};
    dc_sweep *a = make_sweep(crn_cfg, vary, 1, 8, 1), *b = make_sweep(crn_cfg, vary, 1, 8, 2);
    CU_ASSERT_FATAL(a && b);
    CU_ASSERT_EQUAL(dc_sweep_points(a), 3);
    dc_error err = {0};
    /* move every row of b through the text form */
    for (size_t i = 0; i < dc_sweep_rows(b); i++) {
        char *buf = NULL;
        size_t len = 0, cap = 0;
        CU_ASSERT_EQUAL(dc_sweep_row_pack(b, i, &buf, &len, &cap), DC_OK);
        CU_ASSERT_EQUAL(dc_sweep_row_unpack(b, i, buf, len, &err), DC_OK);
        free(buf);
    }
    dc_sweep_table *ta = NULL, *tb = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_sweep_table_build(a, &ta, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_sweep_table_build(b, &tb, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(ta->n_cols, tb->n_cols);
    CU_ASSERT(memcmp(ta->values, tb->values, ta->n_rows * ta->n_cols * sizeof *ta->values) == 0);
    bool has_nan = false; /* the unfinished job's completion time */
    for (size_t j = 0; j < ta->n_cols; j++)
        CU_ASSERT_STRING_EQUAL(ta->names[j], tb->names[j]);
    for (size_t i = 0; i < ta->n_rows * ta->n_cols; i++)
        has_nan = has_nan || isnan(ta->values[i]);
    CU_ASSERT(has_nan);
    dc_sweep_table_destroy(ta);
    dc_sweep_table_destroy(tb);
    dc_sweep_destroy(a);
    dc_sweep_destroy(b);
}

static void test_sweep_spec_errors(void)
{
    static const struct {
        const char *vary;
        size_t reps;
        bool force;
        const char *fragment;
    } cases[] = {
        {"job.mfu=", 2, false, "empty list"},
        {"job.mfu=0.3,,0.4", 2, false, "empty value"},
        {"job.mfu=0.1:0.5:0", 2, false, "step of zero"},
        {"job.mfu=0.5:0.1:0.1", 2, false, "away from hi"},
        {"job.mfu=0.0001:0.9:0.0001", 2, false, "maximum of 1000"},
        {"job.mfu=0.3,1.5", 2, false, "grid point 2 of 2 (job.mfu=1.5)"},
        {"job.nodez=1,2", 2, false, "unknown key"},
        {"seed=1,2", 2, false, "not an axis"},
        {"job.mfu=0.3", 0, false, "--reps"},
        {"job.nodes=8,9", 2, false, "the job needs 9 nodes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dc_sweep_spec spec = {
            .text = analytic_cfg, .text_name = "t.cfg", .schemas = dc_schemas(), .build = dc_build,
            .vary = &cases[i].vary, .n_vary = 1, .reps = cases[i].reps, .seed = -1, .force = cases[i].force,
        };
        dc_error err = {0};
        dc_sweep *sw = NULL;
        int rc = dc_sweep_create(&spec, 1, &sw, &err);
        bool ok = rc == DC_EINPUT && strstr(err.msg, cases[i].fragment);
        if (!ok)
            fprintf(stderr, "\n  --vary %s: rc %d '%s'", cases[i].vary, rc, err.msg);
        CU_ASSERT(ok);
        CU_ASSERT_PTR_NULL(sw);
    }
    /* --force lifts the maximum */
    const char *big = "job.restart_s=1:1001:1";
    dc_sweep_spec spec = {.text = analytic_cfg, .text_name = "t.cfg", .schemas = dc_schemas(), .build = dc_build,
                          .vary = &big, .n_vary = 1, .reps = 1, .seed = -1, .force = true};
    dc_error err = {0};
    dc_sweep *sw = NULL;
    int rc = dc_sweep_create(&spec, 1, &sw, &err);
    if (rc != DC_OK)
        fprintf(stderr, "\n  --force: %s", err.msg);
    CU_ASSERT_EQUAL(rc, DC_OK);
    CU_ASSERT_EQUAL(sw ? dc_sweep_points(sw) : 0, 1001);
    dc_sweep_destroy(sw);
}

/* ---- the command line ------------------------------------------------------------- */

/* The raw bytes of /runs, and its row count. */
static unsigned char *read_runs(const char *path, size_t *bytes, size_t *rows)
{
    *bytes = *rows = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    if (f < 0)
        return NULL;
    hid_t d = H5Dopen2(f, "runs", H5P_DEFAULT);
    hid_t type = d >= 0 ? H5Dget_type(d) : -1, space = d >= 0 ? H5Dget_space(d) : -1;
    unsigned char *buf = NULL;
    if (type >= 0 && space >= 0) {
        *rows = (size_t)H5Sget_simple_extent_npoints(space);
        *bytes = *rows * H5Tget_size(type);
        buf = malloc(*bytes ? *bytes : 1);
        if (H5Dread(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
            free(buf);
            buf = NULL;
        }
    }
    if (space >= 0)
        H5Sclose(space);
    if (type >= 0)
        H5Tclose(type);
    if (d >= 0)
        H5Dclose(d);
    H5Fclose(f);
    return buf;
}

/* Everything printed but the last line (the time taken). */
static void strip_last_line(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '\n')
        s[--n] = '\0';
    char *nl = strrchr(s, '\n');
    if (nl)
        *nl = '\0';
}

static void test_cli_identical_runs(void)
{
    char cfg[400], a[400], b[400], c[400];
    snprintf(cfg, sizeof cfg, "%s/crn.cfg", workdir);
    snprintf(a, sizeof a, "%s/a.h5", workdir);
    snprintf(b, sizeof b, "%s/b.h5", workdir);
    snprintf(c, sizeof c, "%s/c.h5", workdir);
    dc_test_write_text(cfg, crn_cfg);
    const char *common[] = {"sweep", cfg, "--reps", "10", "--vary", "job.mfu=0.3,0.5", "--vary", "repair.crews=1:2:1"};
    const char *args[20];
    size_t n = 0;
    for (; n < 8; n++)
        args[n] = common[n];
    args[n++] = "-o";
    args[n++] = a;
    args[n++] = "--threads";
    args[n++] = "1";
    args[n] = NULL;
    dc_runner_result r1 = dc_runner_dcsim(args, NULL);
    CU_ASSERT_EQUAL_FATAL(r1.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r1.out, "grid point 4 of 4: job.mfu=0.5, repair.crews=2"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r1.out, "sensitivity"));
    args[n - 3] = b;
    args[n - 1] = "2";
    dc_runner_result r2 = dc_runner_dcsim(args, NULL);
    CU_ASSERT_EQUAL_FATAL(r2.status, 0);
    size_t ba, bb, na, nb;
    unsigned char *ra = read_runs(a, &ba, &na), *rb = read_runs(b, &bb, &nb);
    CU_ASSERT_FATAL(ra && rb);
    CU_ASSERT_EQUAL(na, 40);
    CU_ASSERT_EQUAL(ba, bb);
    CU_ASSERT(ba == bb && memcmp(ra, rb, ba) == 0);
    strip_last_line(r1.out);
    strip_last_line(r2.out);
    CU_ASSERT_STRING_EQUAL(r1.out, r2.out);

    if (mpirun_path && mpirun_path[0]) {
        /* two ranks, one thread each */
        const char *margv[32];
        size_t m = 0;
        margv[m++] = mpirun_path;
        margv[m++] = "-np";
        margv[m++] = "2";
        margv[m++] = "--oversubscribe";
        if (geteuid() == 0)
            margv[m++] = "--allow-run-as-root";
        margv[m++] = dcsim_path;
        for (size_t k = 0; k < 8; k++)
            margv[m++] = common[k];
        margv[m++] = "-o";
        margv[m++] = c;
        margv[m] = NULL;
        /* Open MPI's runtime leaks by design (plugins, argv copies); under
         * AddressSanitizer only our own code's leaks matter, and those the
         * serial runs above check on the same code paths. */
        dc_runner_result r3 = dc_runner_run(margv[0], margv + 1, &(dc_runner_opts){.env = (const char *const[]){"ASAN_OPTIONS=detect_leaks=0", NULL}});
        if (r3.status != 0)
            fprintf(stderr, "\n  mpirun: status %d: %s", r3.status, r3.err);
        CU_ASSERT_EQUAL(r3.status, 0);
        CU_ASSERT_PTR_NOT_NULL(strstr(r3.out, "x 2 MPI ranks"));
        size_t bc, nc;
        unsigned char *rc = read_runs(c, &bc, &nc);
        CU_ASSERT_FATAL(rc != NULL);
        CU_ASSERT_EQUAL(nc, 40);
        CU_ASSERT(bc == ba && memcmp(ra, rc, ba) == 0);
        strip_last_line(r3.out);
        CU_ASSERT_STRING_EQUAL(r1.out, r3.out);
        printf("\n  2 MPI ranks: /runs identical to the serial run (%zu bytes)\n", bc);
        free(rc);
        dc_runner_free(&r3);
        unlink(c);
    } else {
        printf("\n  (dcsim built without MPI: the 2-rank run is skipped)\n");
    }
    free(ra);
    free(rb);
    dc_runner_free(&r1);
    dc_runner_free(&r2);
    unlink(a);
    unlink(b);
    unlink(cfg);
}

static void test_cli_output_file(void)
{
    char cfg[400], out[400];
    snprintf(cfg, sizeof cfg, "%s/an.cfg", workdir);
    snprintf(out, sizeof out, "%s/an.h5", workdir);
    dc_test_write_text(cfg, analytic_cfg);
    dc_runner_result r = dc_runner_dcsim((const char *[]){"sweep", cfg, "--reps", "50", "--vary", "job.restart_s=0,8640",
                                          "--deadline-days", "1.0", "--tornado", "--tornado-reps", "2", "-o", out,
                                          "--quiet", NULL}, NULL);
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    CU_ASSERT_STRING_EQUAL(r.out, "");
    hid_t f = H5Fopen(out, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    static const char *const sets[] = {"runs", "params", "inputs", "stats", "risk", "sensitivity", "tornado"};
    /* tornado: 2 grid points x 4 figures (the default ones without a cost) x 1 input */
    static const hsize_t sizes[] = {100, 2, 1, 0, 2, 0, 8};
    for (size_t i = 0; i < 7; i++) {
        hid_t d = H5Dopen2(f, sets[i], H5P_DEFAULT);
        CU_ASSERT(d >= 0);
        if (d < 0)
            continue;
        hid_t sp = H5Dget_space(d);
        hsize_t n = (hsize_t)H5Sget_simple_extent_npoints(sp);
        if (sizes[i])
            CU_ASSERT_EQUAL(n, sizes[i]);
        H5Sclose(sp);
        H5Dclose(d);
    }
    /* p_missed of each grid point: the share of completion times over 1 day */
    hid_t d = H5Dopen2(f, "risk", H5P_DEFAULT);
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(double));
    H5Tinsert(mt, "p_missed", 0, H5T_NATIVE_DOUBLE);
    double p[2] = {NAN, NAN};
    CU_ASSERT(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, p) >= 0);
    H5Tclose(mt);
    H5Dclose(d);
    d = H5Dopen2(f, "runs", H5P_DEFAULT);
    mt = H5Tcreate(H5T_COMPOUND, sizeof(double));
    H5Tinsert(mt, "job.completion_days", 0, H5T_NATIVE_DOUBLE);
    double days[100];
    CU_ASSERT(H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, days) >= 0);
    H5Tclose(mt);
    H5Dclose(d);
    for (int g = 0; g < 2; g++) {
        int late = 0;
        for (int i = 0; i < 50; i++)
            late += days[g * 50 + i] > 1.0;
        CU_ASSERT_DOUBLE_EQUAL(p[g], late / 50.0, 1e-15);
    }
    /* restart 0.1 day more, same draws: never less often late */
    CU_ASSERT(p[1] >= p[0]);
    H5Fclose(f);
    unlink(out);
    unlink(cfg);
    dc_runner_free(&r);
}

typedef struct bad_cli {
    const char *what;
    const char *scenario; /* written to bad.cfg */
    const char *args[10]; /* after "dcsim"; "@CFG" bad.cfg, "@OUT" out/out.h5 */
    const char *fragments[3];
} bad_cli;

static const char tiny_cfg[] = BASE_CFG "job = { nodes = 8; work_gpu_h = 10.0; };\n";

static void test_cli_bad_input(void)
{
    static const bad_cli cases[] = {
        {"sd < 0", BASE_CFG "job = { nodes = 8; work_gpu_h = 10.0;\n mfu = { dist = \"normal\"; mean = 0.4; sd = -0.1; }; };\n",
         {"sweep", "@CFG", "--reps", "5", "-o", "@OUT"}, {"bad.cfg:4", "job.mfu.sd", "at least 0"}},
        {"empty --vary list", tiny_cfg, {"sweep", "@CFG", "--reps", "5", "--vary", "job.mfu=", "-o", "@OUT"},
         {"--vary job.mfu=", "empty list"}},
        {"step of zero", tiny_cfg, {"sweep", "@CFG", "--reps", "5", "--vary", "job.mfu=0.1:0.5:0", "-o", "@OUT"},
         {"step of zero"}},
        {"grid too large", tiny_cfg, {"sweep", "@CFG", "--reps", "1", "--vary", "job.restart_s=0:2000:1", "-o", "@OUT"},
         {"2001 points", "maximum of 1000", "--force"}},
        {"no --reps", tiny_cfg, {"sweep", "@CFG", "-o", "@OUT"}, {"--reps"}},
        {"bad --reps", tiny_cfg, {"sweep", "@CFG", "--reps", "0", "-o", "@OUT"}, {"--reps", "'0'"}},
        {"unknown metric", tiny_cfg, {"sweep", "@CFG", "--reps", "3", "--metrics", "job.etr", "-o", "@OUT"},
         {"--metrics", "job.etr"}},
        {"bad --var-level", tiny_cfg, {"sweep", "@CFG", "--reps", "3", "--var-level", "1.5", "-o", "@OUT"},
         {"--var-level"}},
        {"vary the seed", tiny_cfg, {"sweep", "@CFG", "--reps", "3", "--vary", "seed=1,2", "-o", "@OUT"},
         {"not an axis"}},
        {"unknown option", tiny_cfg, {"sweep", "@CFG", "--reps", "3", "--frobnicate"}, {"unknown option"}},
        {"unwritable output", tiny_cfg, {"sweep", "@CFG", "--reps", "3", "-o", "/nonexistent/dir/x.h5"},
         {"/nonexistent/dir"}},
    };
    char cfg[400], outdir[400], out[450];
    snprintf(cfg, sizeof cfg, "%s/bad.cfg", workdir);
    snprintf(outdir, sizeof outdir, "%s/out", workdir);
    snprintf(out, sizeof out, "%s/out.h5", outdir);
    mkdir(outdir, 0755);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dc_test_write_text(cfg, cases[i].scenario);
        const char *args[12];
        size_t k = 0;
        for (; cases[i].args[k]; k++)
            args[k] = strcmp(cases[i].args[k], "@CFG") == 0 ? cfg : strcmp(cases[i].args[k], "@OUT") == 0 ? out
                                                                                                         : cases[i].args[k];
        args[k] = NULL;
        dc_runner_result r = dc_runner_dcsim(args, NULL);
        bool ok = r.status == 2 && strncmp(r.err, "dcsim", 5) == 0 && r.out[0] == '\0';
        for (size_t f = 0; f < 3 && cases[i].fragments[f]; f++)
            ok = ok && strstr(r.err, cases[i].fragments[f]);
        int left = dc_runner_count_entries(outdir);
        if (!ok || left != 0)
            fprintf(stderr, "\n  bad input '%s': status %d, %d files left, stderr: %s", cases[i].what, r.status, left,
                    r.err);
        CU_ASSERT(ok);
        CU_ASSERT_EQUAL(left, 0);
        dc_runner_free(&r);
    }
    unlink(cfg);
    rmdir(outdir);
}

/* A root attribute of an HDF5 file as an integer (-1: none). */
static long long root_attr(const char *path, const char *name)
{
    long long v = -1;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t a = f >= 0 ? H5Aopen(f, name, H5P_DEFAULT) : -1;
    if (a < 0 || H5Aread(a, H5T_NATIVE_LLONG, &v) < 0)
        v = -1;
    if (a >= 0)
        H5Aclose(a);
    if (f >= 0)
        H5Fclose(f);
    return v;
}

/* The rows of /runs whose cluster.gpus is a number (run), counted by the
 * parity of the row (rank 1 of 2 runs the odd rows). */
static void count_done_rows(const char *path, size_t *even, size_t *odd, size_t *rows)
{
    *even = *odd = *rows = 0;
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    hid_t d = f >= 0 ? H5Dopen2(f, "runs", H5P_DEFAULT) : -1;
    hid_t space = d >= 0 ? H5Dget_space(d) : -1;
    hid_t mt = H5Tcreate(H5T_COMPOUND, sizeof(double));
    H5Tinsert(mt, "cluster.gpus", 0, H5T_NATIVE_DOUBLE);
    size_t n = space >= 0 ? (size_t)H5Sget_simple_extent_npoints(space) : 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (d >= 0 && v && H5Dread(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0) {
        *rows = n;
        for (size_t i = 0; i < n; i++)
            if (isfinite(v[i]))
                ++*(i % 2 ? odd : even);
    }
    free(v);
    H5Tclose(mt);
    if (space >= 0)
        H5Sclose(space);
    if (d >= 0)
        H5Dclose(d);
    if (f >= 0)
        H5Fclose(f);
}

/* mpirun's arguments for two ranks on this machine, then rest (the
 * program and its arguments, NULL-ended) into margv (32 entries). */
static void mpirun_args(const char **margv, const char *const *rest)
{
    size_t m = 0;
    margv[m++] = "-np";
    margv[m++] = "2";
    margv[m++] = "--oversubscribe";
    if (geteuid() == 0)
        margv[m++] = "--allow-run-as-root";
    for (size_t k = 0; rest[k] && m < 31; k++)
        margv[m++] = rest[k];
    margv[m] = NULL;
}

/* A process's parent and CPU time (user + system, in clock ticks) from
 * /proc/PID/stat: fields 4, 14 and 15, counted after the ')' that ends the
 * command's name (which may hold spaces).  false when PID is gone. */
static bool proc_stat(pid_t pid, pid_t *ppid, unsigned long long *cpu_ticks)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    const char *p = strrchr(buf, ')');
    int pp = 0;
    unsigned long long ut = 0, st = 0;
    if (!p || sscanf(p + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &pp, &ut, &st) != 3)
        return false;
    *ppid = (pid_t)pp;
    *cpu_ticks = ut + st;
    return true;
}

/* The children of PARENT (mpirun's ranks: Open MPI 4.1 forks the ranks of
 * the local node itself), at most MAX of them, into PIDS. */
static size_t children_of(pid_t parent, pid_t *pids, size_t max)
{
    size_t n = 0;
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < max;) {
        char *end;
        long pid = strtol(e->d_name, &end, 10);
        pid_t pp;
        unsigned long long ticks;
        if (*end == '\0' && pid > 0 && proc_stat((pid_t)pid, &pp, &ticks) && pp == parent)
            pids[n++] = (pid_t)pid;
    }
    closedir(d);
    return n;
}

/* mpirun -np 2, the ranks interrupted by SIGTERM (issue 18 item 6): each
 * stops its runs, the rows done on both ranks reach rank 0, which writes
 * them (complete = 0, rows_done) and says so.  Before: the ranks died at
 * once (exit 1, no message, no file).
 * The test sends SIGTERM to the ranks itself, as mpirun does on SIGINT,
 * but without mpirun's SIGKILL one second later (odls_base_sigkill_timeout):
 * on a loaded machine a rank could be killed before the rows reached the
 * file (13 failures in 150 runs under busy loops, 15 in 20 under a 5% CPU
 * quota).  And it waits until each rank has had 0.3 s of CPU since ready,
 * not 0.3 s of wall time, so that both have rows done however loaded the
 * machine.  mpirun's own status is then a failure (ranks exited 143). */
static void test_cli_mpi_interrupt(void)
{
    if (!mpirun_path || !mpirun_path[0]) {
        printf("\n  (dcsim built without MPI: the interrupted 2-rank sweep is skipped)\n");
        return;
    }
    char dir[400], out[440], ready[440], ready_env[460], small[400];
    snprintf(dir, sizeof dir, "%s/mpisig", workdir);
    CU_ASSERT_EQUAL_FATAL(mkdir(dir, 0700), 0);
    snprintf(out, sizeof out, "%s/out.h5", dir);
    snprintf(ready, sizeof ready, "%s/ready", workdir);
    snprintf(ready_env, sizeof ready_env, "DCSIM_READY_FILE=%s", ready);
    snprintf(small, sizeof small, "%s/scenarios/small.cfg", getenv("DCSIM_SRCDIR") ? getenv("DCSIM_SRCDIR") : ".");
    unlink(ready);
    const char *rest[] = {dcsim_path, "sweep", small, "--reps", "20000", "--threads", "1", "--quiet", "-o", out,
                          "--set", "horizon_days=300", "--set", "job.work_gpu_h=1e9", NULL};
    const char *margv[32];
    mpirun_args(margv, rest);
    dc_runner_child child;
    const char *env[] = {ready_env, "ASAN_OPTIONS=detect_leaks=0", NULL};
    CU_ASSERT_EQUAL_FATAL(dc_runner_start(&child, mpirun_path, margv, &(dc_runner_opts){.dir = dir, .env = env}), 0);
    CU_ASSERT_TRUE(dc_runner_wait_for_file(ready));
    /* ready: every rank's handlers are in place (dc_par_agree before it) */
    pid_t rank[2];
    size_t ranks = children_of(child.pid, rank, 2);
    CU_ASSERT_EQUAL(ranks, 2);
    unsigned long long t0[2] = {0, 0}, t[2] = {0, 0}, need = (unsigned long long)(0.3 * sysconf(_SC_CLK_TCK));
    pid_t pp;
    for (size_t k = 0; k < ranks; k++)
        proc_stat(rank[k], &pp, &t0[k]);
    /* at most 120 s of wall time (a rank gone or stopped ends the wait) */
    for (int polls = 0; polls < 6000; polls++) {
        bool all = true, gone = false;
        for (size_t k = 0; k < ranks; k++) {
            if (!proc_stat(rank[k], &pp, &t[k]))
                gone = true;
            else if (t[k] - t0[k] < need)
                all = false;
        }
        if (all || gone)
            break;
        usleep(20000);
    }
    for (size_t k = 0; k < ranks; k++)
        kill(rank[k], SIGTERM);
    if (ranks != 2)
        kill(child.pid, SIGINT); /* the ranks not found: not left running 20,000 runs */
    dc_runner_result r = dc_runner_wait(&child);
    unlink(ready);
    CU_ASSERT_FALSE(r.signaled);
    CU_ASSERT_NOT_EQUAL(r.status, 0);
    if (!strstr(r.err, "dcsim: sweep interrupted by SIGTERM after "))
        fprintf(stderr, "\n  mpirun, ranks sent SIGTERM: status %d, stderr: %s\n", r.status, r.err);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "dcsim: sweep interrupted by SIGTERM after "));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "of 20000 runs: the runs done are in '"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "(complete = 0) (under mpirun"));
    long long done = -1;
    const char *said = strstr(r.err, "SIGTERM after ");
    if (said)
        done = atoll(said + 14);
    CU_ASSERT_EQUAL(root_attr(out, "complete"), 0);
    CU_ASSERT_EQUAL(root_attr(out, "rows_done"), done);
    size_t even = 0, odd = 0, rows = 0;
    count_done_rows(out, &even, &odd, &rows);
    CU_ASSERT_EQUAL(rows, 20000);
    /* the rows done are those run, on both ranks */
    CU_ASSERT_EQUAL((long long)(even + odd), done);
    CU_ASSERT_TRUE(even > 0 && odd > 0 && done < 20000);
    printf("\n  mpirun -np 2, ranks sent SIGTERM: %lld of 20000 rows written (%zu by rank 0, %zu by rank 1), mpirun status %d\n",
           done, even, odd, r.status);
    /* nothing else left in the directory (no temporary file) */
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 1);
    dc_runner_free(&r);
    unlink(out);
    rmdir(dir);
}

/* A warning only rank 1's runs find reaches rank 0, which prints it once.
 * Row i runs on rank i mod 2: with one replication of two grid points,
 * point 2 (a corruption every ~10 GPU-hours, one checkpoint kept) is rank
 * 1's, point 1 (none in a day) rank 0's.  Before: rank 0 printed only its
 * own runs' warnings, so the run-time one was lost. */
static void test_cli_mpi_warnings(void)
{
    if (!mpirun_path || !mpirun_path[0]) {
        printf("\n  (dcsim built without MPI: the 2-rank warnings are skipped)\n");
        return;
    }
    char cfg[400];
    snprintf(cfg, sizeof cfg, "%s/warn.cfg", workdir);
    dc_test_write_text(cfg, "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
                            "job = { nodes = 4; work_gpu_h = 5000.0; };\n"
                            "checkpoint = { interval_s = 60.0; write_gb_per_s = 10.0; size_gb = 10.0; retain = 1; };\n"
                            "failures = ( { name = \"sdc\"; per = \"gpu\"; mode = \"corrupt\"; mtbf_h = 10.0; "
                            "detect_s = 600.0; } );\n");
    const char *run_text = "checkpoint.retain: a corruption of class \"sdc\" was found after every one of the 1 "
                           "checkpoints kept had been taken";
    const char *rest[] = {dcsim_path, "sweep", cfg, "--reps", "1", "--threads", "1", "--vary",
                          "failures.[0].mtbf_h=1e12,10", "--quiet", NULL};
    const char *margv[32];
    mpirun_args(margv, rest);
    /* the serial sweep first: the warning is found by point 2's run */
    dc_runner_result r = dc_runner_dcsim(rest + 1, NULL);
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, run_text));
    dc_runner_free(&r);
    r = dc_runner_run(mpirun_path, margv,
                      &(dc_runner_opts){.env = (const char *const[]){"ASAN_OPTIONS=detect_leaks=0", NULL}});
    CU_ASSERT_EQUAL(r.status, 0);
    int times = 0;
    for (const char *at = strstr(r.err, run_text); at; at = strstr(at + 1, run_text))
        times++;
    if (times != 1)
        fprintf(stderr, "\n  mpirun: '%s' %d times in: %s\n", run_text, times, r.err);
    CU_ASSERT_EQUAL(times, 1);
    dc_runner_free(&r);
    unlink(cfg);
}

/* ---- main ----------------------------------------------------------------------------- */

static int register_suites(void)
{
    DC_TEST_SUITE("uncertain inputs",
                  {"quantiles of every law against closed forms", test_quantiles},
                  {"truncation to the key's range, integer keys", test_truncation},
                  {"draws: uniform, per stream, shared streams move together", test_draws},
                  {"run takes the median, --set fixes the value", test_median_and_set},
                  {"validation errors name file, line and key", test_validation_errors});
    DC_TEST_SUITE("statistics",
                  {"mean, sd, t interval, percentiles, VaR, Wilson", test_stats_closed_forms},
                  {"Spearman and rank regression", test_stats_ranking});
    DC_TEST_SUITE("cost",
                  {"TCO of a small case by hand", test_tco_by_hand},
                  {"capital past its life, present values, NPV", test_capital_and_pv},
                  {"cost cross-checks", test_cost_errors});
    DC_TEST_SUITE("sweep",
                  {"analytic output of one input: rows, mean, CI, percentiles", test_sweep_analytic},
                  {"common random numbers: identical failure histories", test_common_random_numbers},
                  {"threads and packed rows: bit-identical", test_threads_and_packing},
                  {"tornado: one at a time against closed forms", test_tornado},
                  {"grid and replication errors", test_sweep_spec_errors});
    DC_TEST_SUITE("sweep command",
                  {"serial, threads and MPI: byte-identical /runs", test_cli_identical_runs},
                  {"the HDF5 file: tables and the deadline probability", test_cli_output_file},
                  {"bad input: message, status 2, no file", test_cli_bad_input},
                  {"mpirun -np 2, ranks sent SIGTERM: the rows done of both ranks written", test_cli_mpi_interrupt},
                  {"mpirun -np 2: rank 1's runs' warnings printed by rank 0", test_cli_mpi_warnings});
    return 0;
}

int main(void)
{
    dcsim_path = getenv("DCSIM");
    mpirun_path = getenv("DCSIM_MPIRUN");
    if (!dcsim_path) {
        fprintf(stderr, "set DCSIM (the dcsim binary); make check does\n");
        return 1;
    }
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    snprintf(workdir, sizeof workdir, "%s", "/tmp/dcsim-test-sweep-XXXXXX");
    if (!mkdtemp(workdir))
        return 1;
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    if (register_suites() != 0) {
        CU_cleanup_registry();
        return 1;
    }
    int rc = dc_test_run_all();
    char p[512];
    snprintf(p, sizeof p, "%s/stdout", workdir);
    unlink(p);
    snprintf(p, sizeof p, "%s/stderr", workdir);
    unlink(p);
    rmdir(workdir);
    return rc;
}
