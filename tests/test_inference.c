/* Tests: the inference service against Erlang B and C, M/M/c/K, Poisson counts and Little's law.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The inference service against closed forms: Erlang B and C and M/M/c/K
 * for the queueing solver, Poisson counts by hour for the arrivals, Erlang
 * C and Little's law for the per-request mode, the aggregate mode against
 * the per-request mode, failures that drop replicas and retry requests,
 * the autoscaler, the GPU-hour breakdown, and bad input through the
 * program (message, exit status 2). */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>

#include "badinput.h"
#include "simrun.h"
#include "workload/inference.h"
#include "workload/nhpp.h"
#include "workload/queueing.h"
#include "registry.h"
#include "rng.h"
#include "testutil.h"

/* ---------- helpers ---------- */

static bool close_rel(double got, double want, double tol)
{
    return fabs(got - want) <= tol * fabs(want);
}

/* Every gpu_hours.* line but the capacity sums to the capacity. */
static void check_breakdown(dc_sim *sim)
{
    const dc_summary *s = dc_sim_summary(sim);
    double total = 0.0, capacity = dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL);
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0 && strcmp(k, DC_BREAKDOWN_TOTAL) != 0)
            total += dc_summary_value(s, i);
    }
    CU_ASSERT(fabs(total - capacity) <= 1e-9 * capacity);
}

/* ---------- queueing formulas ---------- */

/* Erlang B and C from their defining sums (log space), independent of the
 * recurrence in queueing.c. */
static double erlang_b_sum(uint32_t c, double a)
{
    double top = c * log(a) - gsl_sf_lnfact(c), sum = 0.0;
    for (uint32_t k = 0; k <= c; k++)
        sum += exp(k * log(a) - gsl_sf_lnfact(k) - top);
    return 1.0 / sum;
}

static double erlang_c_sum(uint32_t c, double a)
{
    double top = exp(c * log(a) - gsl_sf_lnfact(c)) * c / (c - a), below = 0.0;
    for (uint32_t k = 0; k < c; k++)
        below += exp(k * log(a) - gsl_sf_lnfact(k));
    return top / (below + top);
}

static void test_erlang(void)
{
    const uint32_t cs[] = {1, 2, 5, 10, 50};
    const double loads[] = {0.3, 0.7, 0.95};
    for (size_t i = 0; i < 5; i++)
        for (size_t j = 0; j < 3; j++) {
            uint32_t c = cs[i];
            double a = loads[j] * c;
            CU_ASSERT(close_rel(dc_erlang_b(c, a), erlang_b_sum(c, a), 1e-12));
            CU_ASSERT(close_rel(dc_erlang_c(c, a), erlang_c_sum(c, a), 1e-12));
        }
    /* M/M/1: P(wait) = rho, Wq = rho / (mu - lambda) */
    CU_ASSERT_DOUBLE_EQUAL(dc_erlang_c(1, 0.6), 0.6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_mmc_mean_wait_s(1, 3.0, 5.0), 0.6 / 2.0, 1e-15);
    CU_ASSERT(isinf(dc_mmc_mean_wait_s(2, 10.0, 5.0)));
}

/* M/M/c/K as a pool of c servers holding one request each. */
static void test_bd_mmck(void)
{
    const uint32_t cs[] = {1, 3, 8};
    const double rhos[] = {0.5, 0.9, 1.2};
    const uint32_t ks[] = {0, 5, 50};
    dc_bd bd = {0};
    for (size_t i = 0; i < 3; i++)
        for (size_t j = 0; j < 3; j++)
            for (size_t l = 0; l < 3; l++) {
                uint32_t c = cs[i], K = ks[l];
                double mu = 2.0, lambda = rhos[j] * c * mu, a = lambda / mu;
                double x[2] = {0.0, mu};
                dc_bd_pool pool = {c, 1, x};
                CU_ASSERT_EQUAL_FATAL(dc_bd_solve(&bd, lambda, &pool, K), DC_OK);
                /* the product form, state by state */
                double p[64], z = 0.0;
                for (uint32_t n = 0; n <= c + K; n++) {
                    p[n] = n <= c ? exp(n * log(a) - gsl_sf_lnfact(n))
                                  : exp(c * log(a) - gsl_sf_lnfact(c) + (n - c) * log(a / c));
                    z += p[n];
                }
                double busy = 0.0, lq = 0.0;
                for (uint32_t n = 0; n <= c + K; n++) {
                    p[n] /= z;
                    busy += (n < c ? n : c) * p[n];
                    lq += (n > c ? n - c : 0) * p[n];
                }
                CU_ASSERT(close_rel(bd.p_block, p[c + K], 1e-9));
                CU_ASSERT(close_rel(bd.mean_busy, busy, 1e-9));
                CU_ASSERT(fabs(bd.mean_queue - lq) <= 1e-9 * (1.0 + lq));
                if (K == 0)
                    CU_ASSERT(close_rel(bd.p_block, dc_erlang_b(c, a), 1e-9));
            }
    /* A queue far longer than it ever gets: Erlang C. */
    double x[2] = {0.0, 1.0};
    dc_bd_pool pool = {8, 1, x};
    CU_ASSERT_EQUAL_FATAL(dc_bd_solve(&bd, 7.2, &pool, 1000000), DC_OK);
    double C = dc_erlang_c(8, 7.2);
    CU_ASSERT(close_rel(bd.p_wait + bd.p_block, C, 1e-9));
    CU_ASSERT(close_rel(bd.mean_queue, C * 0.9 / (1.0 - 0.9), 1e-9)); /* Lq = C rho / (1 - rho) */
    dc_bd_free(&bd);
}

/* Every state summed in log space, nothing truncated. */
static void brute_force(double lambda, uint32_t R, uint32_t B, uint32_t K, const double *x, double *busy,
                        double *busy_sq, double *lq, double *block)
{
    uint32_t S = R * B, N = S + K;
    double *lw = malloc(((size_t)N + 1) * sizeof *lw), mx = 0.0;
    lw[0] = 0.0;
    for (uint32_t n = 1; n <= N; n++) {
        uint32_t m = n < S ? n : S, q = m / R, r = m % R;
        double d = (double)(R - r) * x[q] + (r ? (double)r * x[q + 1] : 0.0);
        lw[n] = lw[n - 1] + log(lambda / d);
        if (lw[n] > mx)
            mx = lw[n];
    }
    double z = 0.0, b = 0.0, b2 = 0.0, q = 0.0;
    for (uint32_t n = 0; n <= N; n++) {
        double w = exp(lw[n] - mx), m = n < S ? n : S;
        z += w;
        b += m * w;
        b2 += m * m * w;
        q += (n > S ? n - S : 0) * w;
    }
    *busy = b / z;
    *busy_sq = b2 / z;
    *lq = q / z;
    *block = exp(lw[N] - mx) / z;
    free(lw);
}

static void test_bd_pool(void)
{
    /* Small pool and a large one, whose solution is truncated to the few
     * thousand states that matter. */
    const uint32_t Rs[] = {7, 1000}, Bs[] = {5, 32}, Ks[] = {20, 5000};
    dc_bd bd = {0};
    for (size_t i = 0; i < 2; i++) {
        uint32_t R = Rs[i], B = Bs[i];
        double *x = malloc(((size_t)B + 1) * sizeof *x);
        for (uint32_t b = 0; b <= B; b++)
            x[b] = b / (1.0 + 0.1 * b); /* concave, like a batch's throughput */
        dc_bd_pool pool = {R, B, x};
        const double loads[] = {0.6, 0.97, 1.05};
        for (size_t j = 0; j < 3; j++) {
            double lambda = loads[j] * R * x[B];
            double busy, busy_sq, lq, block;
            brute_force(lambda, R, B, Ks[i], x, &busy, &busy_sq, &lq, &block);
            CU_ASSERT_EQUAL_FATAL(dc_bd_solve(&bd, lambda, &pool, Ks[i]), DC_OK);
            CU_ASSERT(close_rel(bd.mean_busy, busy, 1e-9));
            CU_ASSERT(close_rel(bd.mean_busy_sq, busy_sq, 1e-9));
            CU_ASSERT(fabs(bd.mean_queue - lq) <= 1e-9 * (1.0 + lq));
            CU_ASSERT(fabs(bd.p_block - block) <= 1e-9 * (1e-12 + block) + 1e-15);
        }
        free(x);
    }
    dc_bd_free(&bd);
}

/* States drawn from the solution follow it (PASTA is what the aggregate
 * mode relies on to sample what arrivals find). */
static void test_bd_sample(void)
{
    double x[6];
    for (int b = 0; b <= 5; b++)
        x[b] = b / (1.0 + 0.1 * b);
    dc_bd_pool pool = {7, 5, x};
    dc_bd bd = {0};
    CU_ASSERT_EQUAL_FATAL(dc_bd_solve(&bd, 0.95 * 7 * x[5], &pool, 20), DC_OK);
    gsl_rng *rng = dc_rng_create(5, "test.bd");
    const int n = 200000;
    double in_queue = 0.0, sum = 0.0, sum2 = 0.0;
    for (int i = 0; i < n; i++) {
        double s = (double)dc_bd_sample(&bd, rng);
        in_queue += s >= 35 ? 1.0 : 0.0;
        sum += s;
        sum2 += s * s;
    }
    double p = bd.p_queue_region, f = in_queue / n;
    CU_ASSERT(fabs(f - p) <= 3.29 * sqrt(p * (1.0 - p) / n)); /* 99.9% */
    double mean = sum / n, sd = sqrt(sum2 / n - mean * mean);
    CU_ASSERT(fabs(mean - (bd.mean_busy + bd.mean_queue)) <= 3.29 * sd / sqrt(n));
    gsl_rng_free(rng);
    dc_bd_free(&bd);
}

/* ---------- arrivals ---------- */

static void test_nhpp_integral(void)
{
    dc_nhpp p;
    CU_ASSERT_EQUAL_FATAL(dc_nhpp_init(&p, 10.0), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_nhpp_integral(&p, 100.0, 3700.0), 36000.0, 1e-6);
    const double from[] = {0.0, 8 * 3600.0, 20 * 3600.0}, fac[] = {0.5, 2.0, 1.0};
    CU_ASSERT_EQUAL_FATAL(dc_nhpp_set_daily(&p, from, fac, 3), DC_OK);
    p.weekly[1] = 3.0;
    double day0 = 10.0 * (8 * 0.5 + 12 * 2.0 + 4 * 1.0) * 3600.0;
    CU_ASSERT(close_rel(dc_nhpp_integral(&p, 0.0, 86400.0), day0, 1e-12));
    CU_ASSERT(close_rel(dc_nhpp_integral(&p, 86400.0, 2 * 86400.0), 3.0 * day0, 1e-12));
    CU_ASSERT(close_rel(dc_nhpp_integral(&p, 0.0, 7 * 86400.0), 9.0 * day0, 1e-12));
    CU_ASSERT_DOUBLE_EQUAL(dc_nhpp_rate(&p, 9 * 3600.0), 20.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_nhpp_rate(&p, 86400.0 + 3600.0), 15.0, 1e-12);
    /* growth: a year of 50% growth at a flat rate: base (g / ln(1 + g)) years */
    dc_nhpp q;
    CU_ASSERT_EQUAL_FATAL(dc_nhpp_init(&q, 1.0), DC_OK);
    dc_nhpp_set_growth(&q, 0.5);
    CU_ASSERT(close_rel(dc_nhpp_integral(&q, 0.0, DC_NHPP_YEAR_S), DC_NHPP_YEAR_S * 0.5 / log(1.5), 1e-9));
    CU_ASSERT(close_rel(dc_nhpp_rate(&q, DC_NHPP_YEAR_S), 1.5, 1e-12));
    dc_nhpp_free(&p);
    dc_nhpp_free(&q);
}

/* Arrivals by inversion, counted by hour of the day over 60 days, each hour
 * within its Poisson interval and all together within chi-square's. */
static void test_nhpp_counts(void)
{
    dc_nhpp p;
    CU_ASSERT_EQUAL_FATAL(dc_nhpp_init(&p, 0.5), DC_OK);
    const double from[] = {0.0, 6.5 * 3600.0, 9 * 3600.0, 17 * 3600.0, 22 * 3600.0};
    const double fac[] = {0.2, 1.0, 3.0, 1.5, 0.0};
    CU_ASSERT_EQUAL_FATAL(dc_nhpp_set_daily(&p, from, fac, 5), DC_OK);
    p.weekly[5] = 0.5;
    p.weekly[6] = 0.4;
    dc_nhpp_set_growth(&p, 1.0);
    const int days = 60;
    double count[24] = {0}, expect[24] = {0};
    gsl_rng *rng = dc_rng_create(3, "test.nhpp");
    double t = 0.0, end = days * 86400.0;
    for (;;) {
        t = dc_nhpp_next(&p, t, gsl_ran_exponential(rng, 1.0), end);
        if (!isfinite(t))
            break;
        count[(int)fmod(t / 3600.0, 24.0)] += 1.0;
    }
    for (int d = 0; d < days; d++)
        for (int h = 0; h < 24; h++)
            expect[h] += dc_nhpp_integral(&p, d * 86400.0 + h * 3600.0, d * 86400.0 + (h + 1) * 3600.0);
    double chi2 = 0.0;
    int df = 0;
    for (int h = 0; h < 24; h++) {
        if (expect[h] == 0.0) {
            CU_ASSERT_EQUAL(count[h], 0.0); /* 22:00-24:00 has factor 0 */
            continue;
        }
        CU_ASSERT(fabs(count[h] - expect[h]) <= 4.0 * sqrt(expect[h])); /* each, 6e-5 two-sided */
        chi2 += (count[h] - expect[h]) * (count[h] - expect[h]) / expect[h];
        df++;
    }
    printf("\n  arrivals by hour: chi-square %.1f on %d hours (99.9%% bound %.1f)\n", chi2, df,
           gsl_cdf_chisq_Qinv(0.001, df));
    CU_ASSERT(chi2 <= gsl_cdf_chisq_Qinv(0.001, df));
    gsl_rng_free(rng);
    dc_nhpp_free(&p);
}

/* ---------- the per-request mode against M/M/c ---------- */

/* Four replicas of one request each (batch 1), a one-token prompt and
 * exponential answers: each replica is one server with service time
 * t_d x max(round(X), 1), X ~ Exp(200), t_d = weights / bandwidth. */
static const char mmc_cfg[] =
    "horizon_days = 1.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; };\n"
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
    "inference = { mode = \"request\"; queue_limit = 1000000;\n"
    "  model = { params = 1e9; kv_bytes_per_token = 0.0; };\n"
    "  replica = { gpus = 8; batch_size = 1; };\n"
    "  replicas = { min = 4; max = 4; };\n"
    "  autoscale = { policy = \"none\"; };\n"
    "  arrivals = { qps = 1.0; };\n"
    "  tokens_in = { law = \"constant\"; mean = 1.0; };\n"
    "  tokens_out = { law = \"exponential\"; mean = 200.0; max = 1e7; };\n"
    "};\n"
    "trace = { events = false; };\n";

/* t_d: 2e9 bytes of bf16 weights over 8 x 3350 GB/s x 0.8. */
#define MMC_TD (2e9 / (8 * 3350e9 * 0.8))

/* E[N] for N = max(round(X), 1), X ~ Exp(mean). */
static double mean_tokens_exp(double mean)
{
    double e = 1.0 * (1.0 - exp(-1.5 / mean));
    for (int k = 2; k < 100000; k++)
        e += k * (exp(-(k - 0.5) / mean) - exp(-(k + 0.5) / mean));
    return e;
}

static void test_request_erlang_c(void)
{
    const double ES = MMC_TD * mean_tokens_exp(200.0), mu = 1.0 / ES;
    const double rhos[] = {0.5, 0.8, 0.9};
    enum { REPS = 8 };
    const double t995 = 3.4995; /* Student t, 7 degrees of freedom, 99% two-sided */
    for (size_t i = 0; i < 3; i++) {
        double lambda = rhos[i] * 4 * mu, wq = dc_mmc_mean_wait_s(4, lambda, mu);
        double horizon_days = 100000.0 / lambda / 86400.0; /* 100,000 requests a run */
        char set_q[64], set_h[64];
        snprintf(set_q, sizeof set_q, "inference.arrivals.qps=%.17g", lambda);
        snprintf(set_h, sizeof set_h, "horizon_days=%.17g", horizon_days);
        const char *sets[] = {set_q, set_h};
        double w[REPS], sum = 0.0, sum2 = 0.0;
        for (int r = 0; r < REPS; r++) {
            dc_sim *sim = dc_simrun_text(mmc_cfg, sets, 2, 100 + r);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
            w[r] = dc_simrun_fig(sim, "inference.wait_mean_s");
            sum += w[r];
            /* Little's law on the run's own sample path: L = lambda W, Lq = lambda Wq */
            double qps = dc_simrun_fig(sim, "inference.qps_served");
            double L = dc_simrun_fig(sim, "inference.in_system_mean"), W = dc_simrun_fig(sim, "inference.e2e_mean_s");
            double Lq = dc_simrun_fig(sim, "inference.queue_mean");
            CU_ASSERT(close_rel(qps * W, L, 0.01));
            CU_ASSERT(fabs(qps * w[r] - Lq) <= 0.02 * Lq + 0.005);
            CU_ASSERT_EQUAL(dc_simrun_fig(sim, "inference.dropped"), 0.0);
            dc_sim_destroy(sim);
        }
        double mean = sum / REPS;
        for (int r = 0; r < REPS; r++)
            sum2 += (w[r] - mean) * (w[r] - mean);
        double half = t995 * sqrt(sum2 / (REPS - 1) / REPS);
        /* Allowance: answers rounded to whole tokens are not quite
         * exponential (squared CV 0.995; Allen-Cunneen: 0.25% less wait). */
        printf("\n  rho %.1f: mean wait %.5f s (+- %.5f), Erlang C %.5f s", rhos[i], mean, half, wq);
        CU_ASSERT(fabs(mean - wq) <= half + 0.01 * wq);
    }
    printf("\n");
}

/* The aggregate mode of the same M/M/c (constant answers, so the service
 * rate is exact): its chain is M/M/4/K and its time-average queue is
 * Erlang C's Lq. */
static void test_aggregate_erlang_c(void)
{
    const double mu = 1.0 / (MMC_TD * 200.0), lambda = 0.9 * 4 * mu;
    char set_q[64];
    snprintf(set_q, sizeof set_q, "inference.arrivals.qps=%.17g", lambda);
    const char *sets[] = {set_q, "inference.mode=\"aggregate\"", "inference.tokens_out.law=\"constant\"",
                          "horizon_days=0.25"};
    dc_sim *sim = dc_simrun_text(mmc_cfg, sets, 4, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double C = dc_erlang_c(4, lambda / mu), lq = C * 0.9 / 0.1;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.queue_mean"), lq, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.in_system_mean"), lq + lambda / mu, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.replica_capacity_qps"), mu, 1e-12));
    /* the sampled waits: 100,000 draws of a law with mean Wq and sd below 3 Wq / sqrt(C) */
    double wq = C / (4 * mu - lambda);
    CU_ASSERT(fabs(dc_simrun_fig(sim, "inference.wait_mean_s") - wq) <= 3.29 * 3.0 * wq / sqrt(C * 1e5));
    dc_sim_destroy(sim);
}

/* Request mode warns of its cost from 2e7 requests on (qps x horizon:
 * closed form with constant arrivals), at the key that chose the mode;
 * below that, or in aggregate mode, it says nothing.  The models are built,
 * not run. */
static void test_request_mode_warning(void)
{
    static const struct {
        const char *qps, *mode, *want;
    } cases[] = {
        {"inference.arrivals.qps=200", NULL,
         "test.cfg:4: inference.mode: mode \"request\" simulates each of about 3.46e+07 requests: roughly 17 s "
         "of CPU (0.5 us a request); mode \"aggregate\" gives the service's figures in seconds (docs/inference.md)"},
        {"inference.arrivals.qps=100", NULL, NULL}, /* 1.73e7 */
        {"inference.arrivals.qps=200", "inference.mode=\"aggregate\"", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* the mode in the text (line 4), or aggregate over it by --set */
        const char *sets[] = {cases[i].qps, "horizon_days=2", cases[i].mode};
        size_t n_sets = cases[i].mode ? 3 : 2;
        dc_error err = {0};
        dc_scenario *sc = dc_simrun_load(mmc_cfg, NULL, sets, n_sets, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
        dc_sim *sim = NULL;
        CU_ASSERT_EQUAL(dc_build(sc, 1, &sim, &err), DC_OK);
        size_t n = dc_scenario_warning_count(sc), found = 0;
        for (size_t k = 0; k < n; k++)
            if (strstr(dc_scenario_warning(sc, k), "simulates each of")) {
                found++;
                if (cases[i].want)
                    CU_ASSERT_STRING_EQUAL(dc_scenario_warning(sc, k), cases[i].want);
            }
        CU_ASSERT_EQUAL(found, cases[i].want ? 1u : 0u);
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
}

/* ---------- the aggregate mode against the per-request mode ---------- */

/* Four replicas of a 70B model on 8 H100s, batches of 32, chat-like
 * tokens: prefill, continuous batching, KV cache all in play. */
static const char chat_cfg[] =
    "horizon_days = 0.041666666666666664; stop_when_done = false;\n"
    "cluster = { nodes = 8; gpus_per_node = 8; };\n"
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
    "inference = { mode = \"request\";\n"
    "  model = { params = 70e9; kv_bytes_per_token = 327680.0; };\n"
    "  replica = { gpus = 8; batch_size = 32; startup_s = 120.0; };\n"
    "  replicas = { min = 4; max = 4; };\n"
    "  autoscale = { policy = \"none\"; };\n"
    "  arrivals = { qps = 20.0; };\n"
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
    "  tokens_out = { law = \"lognormal\"; mean = 250.0; sigma = 1.0; max = 4000.0; };\n"
    "  slo = { ttft_s = 0.5; tpot_s = 0.012; };\n"
    "  aggregate = { latency_samples = 200000; };\n"
    "};\n"
    "trace = { events = false; };\n";

typedef struct agreement {
    const char *key;
    double tol; /* relative */
} agreement;

/* The per-request mode's mean over seeds against one aggregate run. */
static void compare_modes(const char *cfg, const char *const *sets, size_t n_sets, const agreement *keys,
                          size_t n_keys, const char *what)
{
    enum { SEEDS = 2 };
    const char *agg_sets[16];
    for (size_t i = 0; i < n_sets; i++)
        agg_sets[i] = sets[i];
    agg_sets[n_sets] = "inference.mode=\"aggregate\"";
    dc_sim *agg = dc_simrun_text(cfg, agg_sets, n_sets + 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(agg);
    double req[32] = {0};
    for (int s = 0; s < SEEDS; s++) {
        dc_sim *sim = dc_simrun_text(cfg, sets, n_sets, 1 + s);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        for (size_t k = 0; k < n_keys; k++)
            req[k] += dc_simrun_fig(sim, keys[k].key) / SEEDS;
        dc_sim_destroy(sim);
    }
    printf("\n  %s: figure, per-request, aggregate", what);
    for (size_t k = 0; k < n_keys; k++) {
        double a = dc_simrun_fig(agg, keys[k].key);
        bool ok = close_rel(a, req[k], keys[k].tol);
        printf("\n    %-30s %10.5g %10.5g  %+.1f%% (tolerance %.0f%%)%s", keys[k].key, req[k], a,
               100.0 * (a - req[k]) / req[k], 100.0 * keys[k].tol, ok ? "" : "  <-- FAILS");
        CU_ASSERT(ok);
    }
    printf("\n");
    dc_sim_destroy(agg);
}

/* Stated agreement (about twice what was measured over seeds). */
static const agreement steady_keys[] = {
    {"inference.qps_served", 0.015},      {"inference.gpu_utilization", 0.04},
    {"inference.in_system_mean", 0.04},   {"inference.ttft_mean_s", 0.08},
    {"inference.ttft_p90_s", 0.08},       {"inference.ttft_p99_s", 0.15},
    {"inference.tpot_mean_s", 0.04},      {"inference.tpot_p90_s", 0.04},
    {"inference.tpot_p99_s", 0.12},       {"inference.e2e_mean_s", 0.05},
    {"inference.e2e_p50_s", 0.05},        {"inference.e2e_p90_s", 0.05},
    {"inference.e2e_p99_s", 0.10},        {"inference.slo_attainment", 0.03},
};

static void test_modes_agree_steady(void)
{
    const char *light[] = {"inference.arrivals.qps=20.0"};
    compare_modes(chat_cfg, light, 1, steady_keys, sizeof steady_keys / sizeof steady_keys[0], "4 replicas at 20 qps (45%)");
    const char *heavy[] = {"inference.arrivals.qps=36.0"};
    compare_modes(chat_cfg, heavy, 1, steady_keys, sizeof steady_keys / sizeof steady_keys[0], "4 replicas at 36 qps (82%)");
}

/* A step from 20 to 40 requests a second after two hours, replicas scaled
 * from 2 with a 120 s start: the overload while new replicas start builds a
 * backlog that the aggregate mode follows as a fluid. */
static const agreement step_keys[] = {
    {"inference.qps_served", 0.015},      {"inference.replicas_mean", 0.05},
    {"inference.gpu_utilization", 0.05},  {"inference.ttft_mean_s", 0.30},
    {"inference.ttft_p99_s", 0.30},       {"inference.tpot_mean_s", 0.04},
    {"inference.e2e_mean_s", 0.08},       {"inference.e2e_p90_s", 0.05},
    {"inference.slo_attainment", 0.03},
};

static const char step_cfg[] =
    "horizon_days = 0.16666666666666666; stop_when_done = false;\n"
    "cluster = { nodes = 8; gpus_per_node = 8; };\n"
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
    "inference = { mode = \"request\";\n"
    "  model = { params = 70e9; kv_bytes_per_token = 327680.0; };\n"
    "  replica = { gpus = 8; batch_size = 32; startup_s = 120.0; };\n"
    "  replicas = { min = 1; max = 8; initial = 2; };\n"
    "  autoscale = { policy = \"utilization\"; };\n"
    "  arrivals = { qps = 20.0; daily = ( { from_h = 0.0; factor = 1.0; }, { from_h = 2.0; factor = 2.0; } ); };\n"
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
    "  tokens_out = { law = \"lognormal\"; mean = 250.0; sigma = 1.0; max = 4000.0; };\n"
    "  slo = { ttft_s = 0.5; tpot_s = 0.012; };\n"
    "  aggregate = { latency_samples = 200000; };\n"
    "};\n"
    "trace = { events = false; };\n";

static void test_modes_agree_step(void)
{
    compare_modes(step_cfg, NULL, 0, step_keys, sizeof step_keys / sizeof step_keys[0], "20 -> 40 qps, autoscaled");
}

/* ---------- failures, the breakdown, determinism ---------- */

static const char fail_cfg[] =
    "horizon_days = 3.0; stop_when_done = false;\n"
    "cluster = { nodes = 5; spare_nodes = 1; gpus_per_node = 8; nodes_per_rack = 2; };\n"
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 10.0; },\n"
    "             { name = \"software\"; per = \"job\"; mtbf_h = 8.0; } );\n"
    "repair = { crews = 0; law = \"constant\"; mean_h = 1.0; };\n"
    "inference = { mode = \"request\";\n"
    "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
    "  replica = { gpus = 8; batch_size = 16; startup_s = 60.0; };\n"
    "  replicas = { min = 4; max = 4; };\n"
    "  autoscale = { policy = \"none\"; };\n"
    "  arrivals = { qps = 2.0; };\n"
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
    "  tokens_out = { law = \"lognormal\"; mean = 250.0; sigma = 1.0; max = 4000.0; };\n"
    "};\n";

static size_t count_events(dc_sim *sim, const char *kind)
{
    const dc_eventlog *log = dc_sim_eventlog(sim);
    size_t n = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++)
        if (strcmp(dc_eventlog_rows(log)[i].kind, kind) == 0)
            n++;
    return n;
}

static void test_failures_retry(void)
{
    dc_sim *sim = dc_simrun_text(fail_cfg, NULL, 0, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double lost = dc_simrun_fig(sim, "inference.replica_failures"), faults = dc_simrun_fig(sim, "inference.replica_faults");
    /* Node failures strike the service's nodes at 1 / MTBF per node-hour held. */
    double node_h = dc_simrun_fig(sim, "inference.gpu_h") / 8.0, expect = node_h / 10.0;
    printf("\n  replicas lost %.0f (expected %.1f), restarted by faults %.0f, requests retried %.0f\n", lost,
           expect, faults, dc_simrun_fig(sim, "inference.retried"));
    CU_ASSERT(fabs(lost - expect) <= DC_Z99 * sqrt(expect) + 1.0);
    CU_ASSERT(faults >= 1.0);
    CU_ASSERT(dc_simrun_fig(sim, "inference.retried") >= 1.0);
    /* no request is lost: every arrival is served, dropped or still in flight */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "inference.requests"),
                           dc_simrun_fig(sim, "inference.served") + dc_simrun_fig(sim, "inference.dropped")
                               + dc_simrun_fig(sim, "inference.in_flight_end"),
                           0.0);
    /* every replica lost or faulted started again (a spare at once, or after repair) */
    size_t ready = count_events(sim, "replica_ready");
    CU_ASSERT(ready >= 4 + (size_t)(lost + faults) - 1);
    CU_ASSERT_EQUAL(count_events(sim, "replica_lost"), (size_t)lost);
    CU_ASSERT(dc_simrun_fig(sim, "inference.replicas_mean") > 3.5);
    check_breakdown(sim);
    dc_sim_destroy(sim);

    const char *sets[] = {"inference.mode=\"aggregate\""};
    sim = dc_simrun_text(fail_cfg, sets, 1, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(dc_simrun_fig(sim, "inference.replica_failures") >= 1.0);
    CU_ASSERT(dc_simrun_fig(sim, "inference.retried") > 0.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.served") + dc_simrun_fig(sim, "inference.dropped")
                            + dc_simrun_fig(sim, "inference.in_flight_end"),
                        dc_simrun_fig(sim, "inference.requests"), 1e-9));
    check_breakdown(sim);
    dc_sim_destroy(sim);
}

/* A training job and the service share a failing cluster: the GPU-hours
 * still sum to the capacity, in both modes. */
static const char mixed_cfg[] =
    "horizon_days = 2.0; stop_when_done = false;\n"
    "cluster = { nodes = 36; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 24; work_gpu_h = 1e6; restart_s = 300.0; };\n"
    "checkpoint = { interval_s = \"auto\"; size_gb = 100.0; write_gb_per_s = 10.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 50.0; },\n"
    "             { name = \"software\"; per = \"job_gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 2; law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n"
    "inference = { mode = \"aggregate\";\n"
    "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
    "  replica = { gpus = 4; batch_size = 32; startup_s = 60.0; };\n"
    "  replicas = { min = 1; max = 12; initial = 1; };\n"
    "  autoscale = { target_utilization = 0.3; };\n"
    "  arrivals = { qps = 30.0; daily = ( { from_h = 0.0; factor = 0.3; }, { from_h = 8.0; factor = 1.5; } ); };\n"
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
    "  tokens_out = { law = \"gamma\"; mean = 250.0; shape = 2.0; };\n"
    "};\n"
    "trace = { events = false; };\n";

static void test_breakdown_mixed(void)
{
    for (int mode = 0; mode < 2; mode++) {
        const char *sets[] = {mode ? "inference.mode=\"request\"" : "inference.mode=\"aggregate\""};
        dc_sim *sim = dc_simrun_text(mixed_cfg, sets, 1, 2);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        check_breakdown(sim);
        double serving = dc_simrun_fig(sim, "gpu_hours.inference_serving"), idle = dc_simrun_fig(sim, "gpu_hours.inference_idle");
        double starting = dc_simrun_fig(sim, "gpu_hours.inference_starting");
        CU_ASSERT(close_rel(serving + idle + starting, dc_simrun_fig(sim, "inference.gpu_h"), 1e-12));
        CU_ASSERT(serving > 0.0 && idle > 0.0 && starting > 0.0);
        CU_ASSERT(dc_simrun_fig(sim, "inference.scale_ups") >= 1.0);
        /* the hooks for power and cost models */
        dc_inference *inf = dc_inference_of(sim);
        CU_ASSERT_PTR_NOT_NULL_FATAL(inf);
        dc_inference_totals t;
        dc_inference_totals_now(inf, &t);
        CU_ASSERT(close_rel((t.gpu_s_serving + t.gpu_s_idle + t.gpu_s_starting) / 3600.0, dc_simrun_fig(sim, "inference.gpu_h"),
                            1e-12));
        dc_inference_report_energy(inf, 3.6e9);
        dc_inference_report_cost(inf, 500.0);
        double mtok = (dc_simrun_fig(sim, "inference.tokens_in") + dc_simrun_fig(sim, "inference.tokens_out")) / 1e6;
        CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "inference.energy_kwh"), 1000.0, 1e-9);
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_per_request_j"), 3.6e9 / dc_simrun_fig(sim, "inference.served"), 1e-12));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_per_mtok_kwh"), 1000.0 / mtok, 1e-12));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.cost_per_mtok_usd"), 500.0 / mtok, 1e-12));
        dc_sim_destroy(sim);
    }
}

static void test_determinism(void)
{
    for (int mode = 0; mode < 2; mode++) {
        const char *sets[] = {mode ? "inference.mode=\"request\"" : "inference.mode=\"aggregate\"",
                              "horizon_days=0.1"};
        dc_sim *a = dc_simrun_text(mixed_cfg, sets, 2, 9), *b = dc_simrun_text(mixed_cfg, sets, 2, 9);
        dc_sim *c = dc_simrun_text(mixed_cfg, sets, 2, 10);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        CU_ASSERT(dc_simrun_same_summary(a, b));
        CU_ASSERT(!dc_simrun_same_summary(a, c));
        dc_sim_destroy(a);
        dc_sim_destroy(b);
        dc_sim_destroy(c);
    }
}

/* ---------- autoscaling ---------- */

/* A flat 50 requests a second from one replica: the autoscaler settles
 * where the offered load is within 10% of 70% of the replicas' rated
 * throughput, and each new replica serves startup_s after its scale-up. */
static void test_autoscaler(void)
{
    const char *sets[] = {"inference.mode=\"aggregate\"", "inference.autoscale.policy=\"utilization\"",
                          "inference.replicas.min=1", "inference.replicas.max=8", "inference.replicas.initial=1",
                          "inference.arrivals.qps=50.0", "horizon_days=0.25",
                          "trace.events=true", "cluster.nodes=10"};
    dc_sim *sim = dc_simrun_text(chat_cfg, sets, 9, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double cap = dc_simrun_fig(sim, "inference.replica_capacity_qps");
    const dc_series *s = NULL;
    for (size_t i = 0; i < dc_series_set_count(dc_sim_series_set(sim)); i++)
        if (strcmp(dc_series_name(dc_series_set_at(dc_sim_series_set(sim), i)), "inference_replicas") == 0)
            s = dc_series_set_at(dc_sim_series_set(sim), i);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double r_end = dc_series_values(s)[dc_series_length(s) - 1];
    double load = 50.0 / (r_end * cap);
    printf("\n  settled at %.0f replicas of %.2f qps: load %.3f of rated (target 0.7 +- 10%%)\n", r_end, cap, load);
    CU_ASSERT(load <= 0.7 * 1.1 + 1e-9);
    CU_ASSERT(50.0 / ((r_end - 1.0) * cap) > 0.7 * 0.9);
    /* scale-up delay: the first replica_ready after the first scale_up comes startup_s later */
    const dc_eventlog *log = dc_sim_eventlog(sim);
    double up = NAN, ready = NAN;
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        const dc_eventlog_row *r = &dc_eventlog_rows(log)[i];
        if (isnan(up) && strcmp(r->kind, "scale_up") == 0)
            up = r->time_s;
        else if (!isnan(up) && isnan(ready) && strcmp(r->kind, "replica_ready") == 0)
            ready = r->time_s;
    }
    CU_ASSERT_DOUBLE_EQUAL(ready - up, 120.0, 1e-6);
    dc_sim_destroy(sim);
}

/* The scenarios shipped in scenarios/inference/ run (shortened), with the
 * breakdown summing to the capacity. */
static void test_shipped_scenarios(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        CU_FAIL("DCSIM_SRCDIR is not set (make check sets it)");
        return;
    }
    const char *names[] = {"daily_chat.cfg", "ddr_route.cfg"};
    for (size_t i = 0; i < 2; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s/scenarios/inference/%s", src, names[i]);
        dc_error err = {0};
        dc_scenario *sc = NULL;
        CU_ASSERT_EQUAL_FATAL(dc_scenario_load_file(path, &sc, &err), DC_OK);
        dc_scenario_set_schema(sc, dc_schemas());
        dc_sim *sim = NULL;
        int rc = dc_scenario_set(sc, "horizon_days=0.5", &err);
        if (rc == DC_OK)
            rc = dc_scenario_validate(sc, &err);
        if (rc == DC_OK)
            rc = dc_build(sc, -1, &sim, &err);
        if (rc == DC_OK)
            rc = dc_sim_run(sim, &err);
        if (rc != DC_OK)
            fprintf(stderr, "%s: %s\n", path, err.msg);
        CU_ASSERT_EQUAL(rc, DC_OK);
        if (sim) {
            check_breakdown(sim);
            CU_ASSERT(dc_simrun_fig(sim, "inference.served") > 0.0);
        }
        dc_sim_destroy(sim);
        dc_scenario_destroy(sc);
    }
}

/* ---------- bad input through the program ---------- */

static char workdir[256];

#define BAD_HEAD                                                                                   \
    "horizon_days = 1.0; stop_when_done = false;\n"                                                \
    "cluster = { nodes = 4; gpus_per_node = 8; };\n"                                               \
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
#define BAD_TOKENS                                                                                 \
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; };\n"                        \
    "  tokens_out = { law = \"lognormal\"; mean = 250.0; sigma = 1.0; };\n"

static void test_bad_input(void)
{
    if (!getenv("DCSIM")) {
        CU_FAIL("DCSIM is not set (make check sets it)");
        return;
    }
    static const struct {
        const char *what, *cfg, *frag[3];
    } cases[] = {
        {"negative SLO",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; }; arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "  slo = { ttft_s = -1.0; };\n};\n",
         {"bad.cfg:8", "inference.slo.ttft_s", "greater than 0"}},
        {"min replicas above max",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; };\n  replicas = { min = 3; max = 2; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:6", "inference.replicas.min", "min (3) is more than max (2)"}},
        {"replica larger than the cluster",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = {\n gpus = 64; };\n  replicas = { max = 2; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:6", "inference.replica.gpus", "a replica needs 8 nodes (64 GPUs) but the cluster has 4"}},
        {"GPUs per replica that split a node unevenly",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 3; };\n  replicas = { max = 2; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:5", "inference.replica.gpus", "do not divide"}},
        {"weights larger than the HBM",
         BAD_HEAD "inference = { model = {\n params = 405e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; };\n  replicas = { max = 2; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:5", "inference.model.params", "do not fit"}},
        {"KV cache of a full batch larger than the HBM",
         BAD_HEAD "inference = { model = { params = 70e9; kv_bytes_per_token = 327680.0; };\n"
                  "  replica = { gpus = 8;\n batch_size = 2000; };\n  replicas = { max = 2; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:6", "inference.replica.batch_size", "KV cache"}},
        {"daily pattern out of order",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; };\n"
                  "  arrivals = { qps = 1.0; daily = ( { from_h = 8.0; factor = 1.0; },\n { from_h = 6.0; factor = 2.0; } ); };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:7", "inference.arrivals.daily.[1].from_h", "must increase"}},
        {"a day listed twice",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; };\n"
                  "  arrivals = { qps = 1.0; weekly = ( { day = 5; factor = 1.0; },\n { day = 5; factor = 2.0; } ); };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:7", "inference.arrivals.weekly.[1].day", "listed twice"}},
        {"hour of the day out of range",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; };\n"
                  "  arrivals = { qps = 1.0; daily = ( { from_h = 24.0; factor = 1.0; } ); };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:6", "inference.arrivals.daily.[0].from_h", "less than 24"}},
        {"lognormal tokens without sigma",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; }; arrivals = { qps = 1.0; };\n"
                  "  tokens_in = { law = \"lognormal\"; mean = 1000.0; };\n"
                  "  tokens_out = { law = \"lognormal\"; mean = 250.0; sigma = 1.0; };\n};\n",
         {"bad.cfg:6", "inference.tokens_in", "needs sigma"}},
        {"unknown key",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; batch = 4; }; replicas = { max = 2; }; arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:5", "inference.replica.batch", "unknown key"}},
        {"initial replicas outside the range",
         BAD_HEAD "inference = { model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; };\n  replicas = { min = 1; max = 2; initial = 3; };\n  arrivals = { qps = 1.0; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:6", "inference.replicas.initial", "outside"}},
        {"per-request mode for billions of requests",
         BAD_HEAD "inference = {\n mode = \"request\"; model = { params = 8e9; kv_bytes_per_token = 1e5; };\n"
                  "  replica = { gpus = 8; }; replicas = { max = 2; }; arrivals = { qps = 1e5; };\n" BAD_TOKENS
                  "};\n",
         {"bad.cfg:5", "inference.mode", "aggregate"}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        dc_test_bad_run(workdir, cases[i].what, cases[i].cfg, NULL, cases[i].frag, 3);
}

static int setup(void)
{
    snprintf(workdir, sizeof workdir, "%s", "/tmp/dcsim-test-inference-XXXXXX");
    return mkdtemp(workdir) ? 0 : -1;
}

static void teardown(void)
{
    rmdir(workdir);
}

static int register_suites(void)
{
    DC_TEST_SUITE("queueing",
                  {"Erlang B and C against their sums", test_erlang},
                  {"birth-death chain is M/M/c/K, Erlang B and C", test_bd_mmck},
                  {"birth-death pools against every state summed", test_bd_pool},
                  {"states drawn follow the stationary law", test_bd_sample});
    DC_TEST_SUITE("arrivals",
                  {"integral of the daily, weekly and growing rate", test_nhpp_integral},
                  {"arrival counts by hour within Poisson intervals", test_nhpp_counts});
    DC_TEST_SUITE("inference",
                  {"per-request mode: Erlang C waits and Little's law", test_request_erlang_c},
                  {"aggregate mode: Erlang C exactly", test_aggregate_erlang_c},
                  {"request mode: its cost warned from 2e7 requests", test_request_mode_warning},
                  {"aggregate agrees with per-request, steady loads", test_modes_agree_steady},
                  {"aggregate agrees with per-request, a step and autoscaling", test_modes_agree_step},
                  {"failed replicas drop, retry and come back", test_failures_retry},
                  {"GPU-hour breakdown with a training job; energy and cost hooks", test_breakdown_mixed},
                  {"same seed identical, other seed different", test_determinism},
                  {"autoscaler settles at its target after the scale-up delay", test_autoscaler},
                  {"shipped inference scenarios run", test_shipped_scenarios},
                  {"bad input: message naming file, line and key; status 2", test_bad_input});
    return 0;
}

int main(void)
{
    if (setup() != 0)
        return 1;
    int rc = dc_test_main(register_suites);
    teardown();
    return rc;
}
