/* Tests: the event core without any model (streams, laws, engine), plus the scenario suite.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The event core without any model: random streams, time laws, the engine
 * (ordering, cancellation, horizon, stop, signals, sampling), plus the
 * scenario suite from test_scenario.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sf_gamma.h>

#include "cfgget.h"
#include "dist.h"
#include "keymap.h"
#include "mt_lazy.h"
#include "rng.h"
#include "sim.h"
#include "sortu32.h"
#include "testutil.h"

int test_scenario_register(void);

static void test_rng_streams(void)
{
    gsl_rng *a = dc_rng_create(1, "failure.gpu");
    gsl_rng *b = dc_rng_create(1, "failure.gpu");
    gsl_rng *c = dc_rng_create(1, "failure.node");
    gsl_rng *d = dc_rng_create(2, "failure.gpu");
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    int same_ab = 1, same_ac = 1, same_ad = 1;
    for (int i = 0; i < 100; i++) {
        unsigned long x = gsl_rng_get(a), y = gsl_rng_get(b), z = gsl_rng_get(c), w = gsl_rng_get(d);
        same_ab &= x == y;
        same_ac &= x == z;
        same_ad &= x == w;
    }
    CU_ASSERT(same_ab);
    CU_ASSERT(!same_ac);
    CU_ASSERT(!same_ad);
    CU_ASSERT_EQUAL(dc_rng_seed_for(1, "x"), dc_rng_seed_for(1, "x"));
    CU_ASSERT_NOT_EQUAL(dc_rng_seed_for(1, "x"), dc_rng_seed_for(1, "y"));
    gsl_rng_free(a);
    gsl_rng_free(b);
    gsl_rng_free(c);
    gsl_rng_free(d);
}

/* The lazy generator against GSL's mt19937, bit for bit: seeds 0 (GSL's
 * 4357), 1, 4357 and random ones, each drawn a random number of times up
 * to 2,000 (past the first block and a later one), mixing gsl_rng_get,
 * _uniform, _uniform_pos and _uniform_int so that every entry point is
 * compared; then the same after reseeding a used generator. */
static void test_rng_lazy_mt(void)
{
    gsl_rng *ref = gsl_rng_alloc(gsl_rng_mt19937), *lz = gsl_rng_alloc(dc_rng_mt19937_lazy);
    gsl_rng *pick = gsl_rng_alloc(gsl_rng_mt19937);
    CU_ASSERT_PTR_NOT_NULL_FATAL(lz);
    gsl_rng_set(pick, 99);
    size_t mismatches = 0, draws = 0, past_block = 0;
    for (int t = 0; t < 400; t++) {
        unsigned long seed = t == 0 ? 0 : t == 1 ? 1 : t == 2 ? 4357 : gsl_rng_get(pick);
        gsl_rng_set(ref, seed);
        gsl_rng_set(lz, seed);
        size_t n = t < 8 ? 2000 : gsl_rng_uniform_int(pick, t < 200 ? 40 : 2000);
        past_block += n > 624;
        for (size_t i = 0; i < n; i++, draws++) {
            switch (i % 4) {
            case 0:
                mismatches += gsl_rng_get(ref) != gsl_rng_get(lz);
                break;
            case 1:
                mismatches += gsl_rng_uniform(ref) != gsl_rng_uniform(lz);
                break;
            case 2:
                mismatches += gsl_rng_uniform_pos(ref) != gsl_rng_uniform_pos(lz);
                break;
            default:
                mismatches += gsl_rng_uniform_int(ref, 1000003) != gsl_rng_uniform_int(lz, 1000003);
            }
        }
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    CU_ASSERT(draws > 100000);
    CU_ASSERT(past_block > 50);
    /* dc_rng_create's streams are the lazy generator with the folded seed */
    gsl_rng *a = dc_rng_create(3, "failure.gpu");
    uint64_t h = dc_rng_seed_for(3, "failure.gpu");
    gsl_rng_set(ref, (unsigned long)((h >> 32) ^ (h & 0xffffffffULL)));
    for (int i = 0; i < 1500; i++)
        mismatches += gsl_rng_get(ref) != gsl_rng_get(a);
    CU_ASSERT_EQUAL(mismatches, 0);
    gsl_rng_free(a);
    gsl_rng_free(ref);
    gsl_rng_free(lz);
    gsl_rng_free(pick);
}

/* dc_cfg_member and dc_cfg_lookup_* against libconfig's own functions on
 * every kind of member (int, int64, int64 out of int's range, float,
 * integral and not, bool, string, group, list, array), names sharing a
 * first character, absent names, "", names with path tokens (libconfig's
 * rules), a list and a scalar as the "group"; with AUTOCONVERT off and on.
 * Every answer and value must be libconfig's. */
static void test_cfg_lookups(void)
{
    static const char text[] =
        "g = { a = 1; ab = 2; abc = 3.5; b = 7L; big = 9000000000L; f = 2.0; fneg = -3.75; t = true; "
        "u = false; s = \"str\"; s2 = \"\"; sub = { x = 4; y = { z = 1.5; }; }; lst = ( 1, 2 ); "
        "arr = [ 1.0, 2.0 ]; A = 5; zz = \"last\"; };\n";
    const char *names[] = {"a",   "ab",  "abc", "abcd", "b",      "big",   "f",      "fneg", "t",   "u",
                           "s",   "s2",  "sub", "lst",  "arr",    "A",     "zz",     "",     "x",   "sub.x",
                           "sub.y.z", "sub:x", "sub/x", "sub.", ".a", "a.", "nope", "zz.q", "lst.x"};
    size_t nn = sizeof names / sizeof *names, answers = 0, agree = 0;
    for (int ac = 0; ac < 2; ac++) {
        config_t cfg;
        config_init(&cfg);
        if (ac)
            config_set_options(&cfg, config_get_options(&cfg) | CONFIG_OPTION_AUTOCONVERT);
        CU_ASSERT_FATAL(config_read_string(&cfg, text) == CONFIG_TRUE);
        config_setting_t *root = config_root_setting(&cfg), *g = config_setting_get_member(root, "g");
        config_setting_t *groups[] = {g, root, config_setting_get_member(g, "sub"), config_setting_get_member(g, "lst"),
                                      config_setting_get_member(g, "a")};
        for (size_t gi = 0; gi < sizeof groups / sizeof *groups; gi++)
            for (size_t k = 0; k < nn; k++) {
                const config_setting_t *G = groups[gi];
                const char *n = names[k];
                answers++;
                agree += dc_cfg_member(G, n) == config_setting_get_member(G, n);
                double f1 = -1, f2 = -1;
                int i1 = -1, i2 = -1, b1 = -1, b2 = -1;
                long long l1 = -1, l2 = -1;
                const char *s1 = NULL, *s2 = NULL;
                int r1 = dc_cfg_lookup_float(G, n, &f1), r2 = config_setting_lookup_float(G, n, &f2);
                answers++;
                agree += r1 == r2 && memcmp(&f1, &f2, sizeof f1) == 0;
                r1 = dc_cfg_lookup_int(G, n, &i1);
                r2 = config_setting_lookup_int(G, n, &i2);
                answers++;
                agree += r1 == r2 && i1 == i2;
                r1 = dc_cfg_lookup_int64(G, n, &l1);
                r2 = config_setting_lookup_int64(G, n, &l2);
                answers++;
                agree += r1 == r2 && l1 == l2;
                r1 = dc_cfg_lookup_bool(G, n, &b1);
                r2 = config_setting_lookup_bool(G, n, &b2);
                answers++;
                agree += r1 == r2 && b1 == b2;
                r1 = dc_cfg_lookup_string(G, n, &s1);
                r2 = config_setting_lookup_string(G, n, &s2);
                answers++;
                agree += r1 == r2 && s1 == s2;
            }
        /* found where expected (the test is not vacuous) */
        double v = 0;
        CU_ASSERT(dc_cfg_lookup_float(g, "abc", &v) == CONFIG_TRUE && v == 3.5);
        CU_ASSERT_PTR_NOT_NULL(dc_cfg_member(g, "zz"));
        CU_ASSERT_EQUAL(dc_cfg_lookup_float(g, "a", &v), ac ? CONFIG_TRUE : CONFIG_FALSE);
        config_destroy(&cfg);
    }
    CU_ASSERT_EQUAL(agree, answers);
    CU_ASSERT_EQUAL(answers, 2 * 5 * 29 * 6);
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* dc_sort_u32 against qsort: 600 random arrays of 0 to 3,000 values (every
 * size up to 40, around the switch at 16), values below 4, 256, 65,536,
 * 2^24 and 2^32 (one to four radix passes, duplicates, an odd count of
 * passes ending in the scratch), and distinct node ids shuffled. */
static void test_sort_u32(void)
{
    enum { MAX = 3000 };
    static uint32_t v[MAX], ref[MAX], tmp[MAX];
    gsl_rng *r = dc_rng_create(11, "test.sort");
    const uint32_t ranges[] = {4, 256, 65536, 1u << 24, 0};
    size_t bad = 0, long_ones = 0;
    for (int t = 0; t < 600; t++) {
        uint32_t n = t < 41 ? (uint32_t)t : (uint32_t)gsl_rng_uniform_int(r, MAX + 1);
        uint32_t range = ranges[t % 5];
        if (t % 7 == 6) { /* distinct ids, shuffled */
            for (uint32_t i = 0; i < n; i++)
                v[i] = i * 3 + 1;
            for (uint32_t i = n; i > 1; i--) {
                uint32_t k = (uint32_t)gsl_rng_uniform_int(r, i), x = v[i - 1];
                v[i - 1] = v[k];
                v[k] = x;
            }
        } else {
            for (uint32_t i = 0; i < n; i++)
                v[i] = range ? (uint32_t)gsl_rng_uniform_int(r, range) : (uint32_t)gsl_rng_get(r);
        }
        memcpy(ref, v, n * sizeof *v);
        qsort(ref, n, sizeof *ref, cmp_u32);
        memset(tmp, 0xA5, sizeof tmp);
        dc_sort_u32(v, tmp, n);
        bad += n > 0 && memcmp(v, ref, n * sizeof *v) != 0;
        long_ones += n > 1000;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(long_ones > 300);
    gsl_rng_free(r);
}

/* Sample means against the closed-form mean, within a 99% interval
 * (standard error from the sample's own variance). */
static void check_mean(const dc_dist *d, double expected_mean)
{
    gsl_rng *r = dc_rng_create(7, "dist");
    const int n = 200000;
    double sum = 0, sum2 = 0;
    for (int i = 0; i < n; i++) {
        double x = dc_dist_sample(d, r);
        sum += x;
        sum2 += x * x;
    }
    double mean = sum / n, var = sum2 / n - mean * mean;
    double se = sqrt(var / n);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(d), expected_mean, 1e-9 * expected_mean);
    CU_ASSERT(fabs(mean - expected_mean) <= DC_Z99 * se + 1e-12);
    gsl_rng_free(r);
}

static void test_dist_means(void)
{
    check_mean(&(dc_dist){DC_DIST_EXPONENTIAL, 3600.0, 0}, 3600.0);
    check_mean(&(dc_dist){DC_DIST_WEIBULL, 1000.0, 2.0}, 1000.0 * gsl_sf_gamma(1.5));
    check_mean(&(dc_dist){DC_DIST_WEIBULL, 1000.0, 0.7}, 1000.0 * gsl_sf_gamma(1.0 + 1.0 / 0.7));
    check_mean(&(dc_dist){DC_DIST_LOGNORMAL, log(3600.0), 1.0}, 3600.0 * exp(0.5));
    check_mean(&(dc_dist){DC_DIST_GAMMA, 2.0, 500.0}, 1000.0);
    check_mean(&(dc_dist){DC_DIST_CONSTANT, 42.0, 0}, 42.0);
}

static const dc_param law_schema[] = {
    {"law", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "a law"},
    {"law.law", DC_PARAM_STRING, 0, "", 0, "exponential", 0, 0, NULL, ""},
    {"law.mean_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 1e12, NULL, ""},
    {"law.mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 1e12, NULL, ""},
    {"law.afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1e12, NULL, ""},
    {"law.median_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 1e12, NULL, ""},
    {"law.scale_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 1e12, NULL, ""},
    {"law.shape", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1e12, NULL, ""},
    {"law.sigma", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1e12, NULL, ""},
    {0},
};

/* Parses "law = {...};" and returns the status; *d gets the law. */
static int parse_law(const char *text, dc_dist *d, dc_error *err)
{
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, "law.cfg", &sc, err) != DC_OK)
        return -1;
    const dc_param *const schemas[] = {law_schema, NULL};
    dc_scenario_set_schema(sc, schemas);
    int rc = dc_scenario_validate(sc, err);
    if (rc == DC_OK)
        rc = dc_dist_from_setting(sc, dc_scenario_lookup(sc, "law"), d, err);
    dc_scenario_destroy(sc);
    return rc;
}

static void test_dist_from_setting(void)
{
    dc_dist d;
    dc_error err = {0};
    CU_ASSERT_EQUAL(parse_law("law = { mtbf_h = 2.0; };", &d, &err), DC_OK);
    CU_ASSERT_EQUAL(d.kind, DC_DIST_EXPONENTIAL);
    CU_ASSERT_DOUBLE_EQUAL(d.a, 7200.0, 1e-9);
    CU_ASSERT_EQUAL(parse_law("law = { afr = 0.5; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(&d), 8766.0 / 0.5 * 3600.0, 1e-6);
    CU_ASSERT_EQUAL(parse_law("law = { law = \"lognormal\"; median_h = 1.0; sigma = 1.4; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(&d), 3600.0 * exp(0.98), 1e-6);
    CU_ASSERT_EQUAL(parse_law("law = { law = \"lognormal\"; mean_h = 6.0; sigma = 1.4; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(&d), 6.0 * 3600.0, 1e-6);
    CU_ASSERT_EQUAL(parse_law("law = { law = \"weibull\"; mean_h = 10.0; shape = 0.7; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(&d), 36000.0, 1e-6);
    CU_ASSERT_EQUAL(parse_law("law = { law = \"weibull\"; scale_h = 10.0; shape = 1.0; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(dc_dist_mean(&d), 36000.0, 1e-6);
    CU_ASSERT_EQUAL(parse_law("law = { law = \"gamma\"; mean_h = 4.0; shape = 2.0; };", &d, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(d.b, 7200.0, 1e-9);

    CU_ASSERT_EQUAL(parse_law("law = { law = \"lognormal\"; median_h = 1.0; };", &d, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "law.cfg:1: law: law 'lognormal' needs sigma"));
    CU_ASSERT_EQUAL(parse_law("law = { mtbf_h = 1.0; afr = 0.1; };", &d, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "only one of mean_h, mtbf_h and afr"));
    CU_ASSERT_EQUAL(parse_law("law = { law = \"weibull\"; mean_h = 1.0; };", &d, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "needs shape"));
    CU_ASSERT_EQUAL(parse_law("law = { };", &d, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "needs mean_h"));
}

/* --- engine --- */

typedef struct trace_ctx {
    double times[64];
    uint64_t args[64];
    int n;
} trace_ctx;

static void record_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    trace_ctx *t = ctx;
    if (t->n < 64) {
        t->times[t->n] = dc_sim_now(sim);
        t->args[t->n++] = arg;
    }
}

static void stop_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    record_event(sim, ctx, arg);
    dc_sim_stop(sim);
}

static void test_engine_order_cancel_horizon(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    trace_ctx t = {0};
    dc_sim_at(sim, 5.0, record_event, &t, 1);
    dc_sim_at(sim, 2.0, record_event, &t, 2);
    dc_sim_at(sim, 5.0, record_event, &t, 3); /* same time: after arg 1 */
    dc_event_handle h = dc_sim_at(sim, 3.0, record_event, &t, 4);
    dc_sim_at(sim, 150.0, record_event, &t, 5); /* past the horizon */
    dc_sim_cancel(sim, &h);
    CU_ASSERT_EQUAL(h, DC_EVENT_NONE);
    dc_sim_cancel(sim, &h); /* harmless twice */
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(t.n, 3);
    CU_ASSERT_EQUAL(t.args[0], 2);
    CU_ASSERT_EQUAL(t.args[1], 1);
    CU_ASSERT_EQUAL(t.args[2], 3);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 100.0, 0.0); /* ends at the horizon */
    CU_ASSERT_EQUAL(dc_sim_events_processed(sim), 3);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_EINTERNAL);
    dc_sim_destroy(sim);

    CU_ASSERT_PTR_NULL(dc_sim_create(1, 0.0, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_PTR_NULL(dc_sim_create(1, NAN, &err));
}

static void test_engine_stop(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    trace_ctx t = {0};
    dc_sim_at(sim, 10.0, stop_event, &t, 1);
    dc_sim_at(sim, 20.0, record_event, &t, 2);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(t.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 10.0, 0.0);
    dc_sim_destroy(sim);
}

static void fail_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_sim_fail(sim, DC_EINPUT, "model %d gave up", (int)arg);
}

static void test_engine_fail(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    dc_sim_at(sim, 1.0, fail_event, NULL, 7);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "model 7 gave up");
    dc_sim_destroy(sim);
}

/* An event that reschedules itself a tiny time later: the clock creeps
 * (then, once now + 1e-300 == now, stops) and the run would never end. */
static void creep_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_sim_after(sim, 1e-300, creep_event, ctx, arg);
}

/* Steps of 1 ns: 10^9 events per simulated second, over the guarantee's
 * 10^8; steps of 100 ns (10^7 per second) pass. */
static void step_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    int *n = ctx;
    ++*n;
    dc_sim_after(sim, (double)arg * 1e-9, step_event, ctx, arg);
}

static void test_engine_stall(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    dc_sim_at(sim, 1.0, creep_event, NULL, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "simulated time stopped advancing"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "16777216 events"));
    /* The first window ran from 0 to the clock's 1 s: the second fails. */
    CU_ASSERT_EQUAL(dc_sim_events_processed(sim), 2 * (uint64_t)DC_SIM_STALL_EVENTS);
    dc_sim_destroy(sim);

    /* 1 ns steps: the first window (2^24 events, 0.0168 s) is under its
     * 0.168 s; 100 ns steps cover 1.68 s per window and run to the end. */
    int n = 0;
    sim = dc_sim_create(1, 100.0, &err);
    dc_sim_at(sim, 0.0, step_event, &n, 1);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_EINPUT);
    CU_ASSERT_EQUAL(n, DC_SIM_STALL_EVENTS);
    dc_sim_destroy(sim);
    n = 0;
    sim = dc_sim_create(1, 2.0, &err);
    dc_sim_at(sim, 0.0, step_event, &n, 100);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT(n >= 19999999 && n <= 20000001); /* 2 s / 100 ns */
    dc_sim_destroy(sim);
}

/* A cancel flag stops the run after the event that set it. */
static volatile sig_atomic_t cancel_flag;
static void cancel_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    cancel_flag = 1;
}

static void test_engine_cancel(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    trace_ctx t = {0};
    cancel_flag = 0;
    dc_sim_set_cancel(sim, &cancel_flag);
    dc_sim_at(sim, 5.0, record_event, &t, 1);
    dc_sim_at(sim, 10.0, cancel_event, NULL, 0);
    dc_sim_at(sim, 20.0, record_event, &t, 2);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(t.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 10.0, 0.0);
    dc_sim_destroy(sim);
}

/* A model that counts its finish calls and its samples, setting the
 * cancel flag at its third sample. */
typedef struct cancel_model {
    int finished, samples;
} cancel_model;
static void cm_finish(void *state, dc_sim *sim)
{
    ((cancel_model *)state)->finished++;
}
static void cm_sample(void *state, dc_sim *sim)
{
    if (++((cancel_model *)state)->samples == 3)
        cancel_flag = 1;
}
static const dc_model_type cancel_model_type = {
    .name = "cancel", .state_size = sizeof(cancel_model), .sample = cm_sample, .finish = cm_finish};

/* A run stopped by the flag skips the finish hooks (a pass over every job
 * of a million-job run cost seconds after the signal); the flag is also
 * checked at sampling ticks with no event between them; dc_sim_cancelled
 * tells the models' long loops.  A run that ends normally finishes. */
static void test_engine_cancel_skips_finish(void)
{
    dc_error err = {0};
    for (int with_cancel = 0; with_cancel < 2; with_cancel++) {
        dc_sim *sim = dc_sim_create(1, 100.0, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        cancel_flag = 0;
        CU_ASSERT_FALSE(dc_sim_cancelled(sim));
        if (with_cancel)
            dc_sim_set_cancel(sim, &cancel_flag);
        dc_sim_set_sample_interval(sim, 10.0);
        CU_ASSERT_EQUAL_FATAL(dc_sim_add_model(sim, &cancel_model_type, NULL, &err), DC_OK);
        cancel_model *m = dc_sim_model(sim, "cancel");
        CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
        if (with_cancel) {
            /* ticks at 0, 10, 20: stopped at the third, no finish */
            CU_ASSERT_EQUAL(m->samples, 3);
            CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 20.0, 0.0);
            CU_ASSERT_EQUAL(m->finished, 0);
            CU_ASSERT_TRUE(dc_sim_cancelled(sim));
        } else {
            CU_ASSERT_EQUAL(m->samples, 11); /* 0, 10, ..., 100 */
            CU_ASSERT_EQUAL(m->finished, 1);
            CU_ASSERT_FALSE(dc_sim_cancelled(sim));
        }
        dc_sim_destroy(sim);
    }
    cancel_flag = 0;
}

typedef struct sig_ctx {
    int order[8];
    int n;
    int value;
} sig_ctx;

static void sub_a(dc_sim *sim, void *ctx, const void *payload)
{
    sig_ctx *s = ctx;
    s->order[s->n++] = 1;
    s->value += *(const int *)payload;
}

static void sub_b(dc_sim *sim, void *ctx, const void *payload)
{
    sig_ctx *s = ctx;
    s->order[s->n++] = 2;
}

static void test_engine_signals(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 10.0, &err);
    int sig = dc_sim_signal(sim, "x");
    CU_ASSERT_EQUAL(dc_sim_signal(sim, "x"), sig);
    CU_ASSERT_NOT_EQUAL(dc_sim_signal(sim, "y"), sig);
    sig_ctx s = {{0}, 0, 0};
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, sig, sub_a, &s), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, sig, sub_b, &s), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, 99, sub_b, &s), DC_EINTERNAL);
    int v = 5;
    dc_sim_publish(sim, sig, &v);
    dc_sim_publish(sim, dc_sim_signal(sim, "y"), &v); /* nobody listens */
    CU_ASSERT_EQUAL(s.n, 2);
    CU_ASSERT_EQUAL(s.order[0], 1);
    CU_ASSERT_EQUAL(s.order[1], 2);
    CU_ASSERT_EQUAL(s.value, 5);
    dc_sim_destroy(sim);
}

static void sub_c(dc_sim *sim, void *ctx, const void *payload)
{
    sig_ctx *s = ctx;
    s->order[s->n++] = 3;
}

/* Kinds: a subscriber of kinds gets those only, a plain one every kind, in
 * subscription order; dc_sim_publish reaches them all. */
static void test_engine_signal_kinds(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 10.0, &err);
    int sig = dc_sim_signal(sim, "x");
    sig_ctx s = {{0}, 0, 0};
    CU_ASSERT_EQUAL(dc_sim_subscribe_kinds(sim, sig, UINT64_C(1) << 3 | UINT64_C(1) << 63, sub_a, &s), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, sig, sub_b, &s), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe_kinds(sim, sig, UINT64_C(1) << 0 | UINT64_C(1) << 3, sub_c, &s), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_subscribe_kinds(sim, 99, 1, sub_b, &s), DC_EINTERNAL);
    int v = 5;
    static const struct {
        unsigned kind;
        int n, order[3];
    } want[] = {{0, 2, {2, 3}}, {3, 3, {1, 2, 3}}, {63, 2, {1, 2}}, {7, 1, {2}}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        s.n = 0;
        dc_sim_publish_kind(sim, sig, want[i].kind, &v);
        CU_ASSERT_EQUAL(s.n, want[i].n);
        for (int k = 0; k < want[i].n && k < s.n; k++)
            CU_ASSERT_EQUAL(s.order[k], want[i].order[k]);
    }
    s.n = 0;
    dc_sim_publish(sim, sig, &v);
    CU_ASSERT_EQUAL(s.n, 3);
    CU_ASSERT_EQUAL(s.value, 5 * 3); /* sub_a at kinds 3 and 63 and at the plain publish */
    dc_sim_publish_kind(sim, 99, 3, &v); /* no such signal */
    dc_sim_destroy(sim);
}

typedef struct counter_state {
    int samples;
    double last_s;
    int finished;
    int events_seen;  /* events run so far (set by mark_event) */
    int seen_at[8];   /* events_seen at the first samples */
} counter_state;

static void counter_sample(void *state, dc_sim *sim)
{
    counter_state *c = state;
    if (c->samples < 8)
        c->seen_at[c->samples] = c->events_seen;
    c->samples++;
    c->last_s = dc_sim_now(sim);
}

static void mark_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    counter_state *c = ctx;
    c->events_seen++;
    if (arg) /* scheduled by a sample instant's event: one more at the same time */
        dc_sim_at(sim, dc_sim_now(sim), mark_event, ctx, 0);
}

static void counter_finish(void *state, dc_sim *sim)
{
    counter_state *c = state;
    c->finished = 1;
    dc_summary_set(dc_sim_summary(sim), "counter.samples", c->samples, "", NULL);
}

static const dc_model_type counter_model = {
    .name = "counter",
    .state_size = sizeof(counter_state),
    .sample = counter_sample,
    .finish = counter_finish,
};

static void test_engine_models_and_sampling(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 3600.0, &err);
    CU_ASSERT_EQUAL(dc_sim_add_model(sim, &counter_model, NULL, &err), DC_OK);
    dc_sim_set_sample_interval(sim, 60.0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    counter_state *c = dc_sim_model(sim, "counter");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NULL(dc_sim_model(sim, "nope"));
    CU_ASSERT_EQUAL(c->samples, 61); /* t = 0, 60, ..., 3600 */
    CU_ASSERT_DOUBLE_EQUAL(c->last_s, 3600.0, 0.0);
    CU_ASSERT_EQUAL(c->finished, 1);
    double v = 0;
    CU_ASSERT(dc_summary_get(dc_sim_summary(sim), "counter.samples", &v));
    CU_ASSERT_DOUBLE_EQUAL(v, 61.0, 0.0);
    /* the tick is no event */
    CU_ASSERT_EQUAL(dc_sim_events_processed(sim), 0);
    /* The same stream name gives the same generator within a run. */
    CU_ASSERT_PTR_EQUAL(dc_sim_rng(sim, "a"), dc_sim_rng(sim, "a"));
    CU_ASSERT_PTR_NOT_EQUAL(dc_sim_rng(sim, "a"), dc_sim_rng(sim, "b"));
    dc_sim_destroy(sim);
}

/* A sampling instant runs after every event at or before it, including
 * zero-delay events those schedule; not at all without a sample hook. */
static void test_engine_sampling_order(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 200.0, &err);
    CU_ASSERT_EQUAL(dc_sim_add_model(sim, &counter_model, NULL, &err), DC_OK);
    dc_sim_set_sample_interval(sim, 60.0);
    counter_state *c = dc_sim_model(sim, "counter");
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    dc_sim_at(sim, 0.0, mark_event, c, 0);   /* before the sample at 0 */
    dc_sim_at(sim, 60.0, mark_event, c, 1);  /* and its follower: before the one at 60 */
    dc_sim_at(sim, 60.5, mark_event, c, 0);  /* after it */
    dc_sim_at(sim, 120.0, mark_event, c, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(c->samples, 4); /* 0, 60, 120, 180 */
    CU_ASSERT_EQUAL(c->seen_at[0], 1);
    CU_ASSERT_EQUAL(c->seen_at[1], 3);
    CU_ASSERT_EQUAL(c->seen_at[2], 5);
    CU_ASSERT_EQUAL(c->seen_at[3], 5);
    CU_ASSERT_EQUAL(dc_sim_events_processed(sim), 5);
    dc_sim_destroy(sim);

    /* no sample hook: an interval set costs no tick at all */
    sim = dc_sim_create(1, 1e6, &err);
    dc_sim_set_sample_interval(sim, 1.0);
    trace_ctx t = {0};
    dc_sim_at(sim, 10.0, record_event, &t, 1);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_sim_events_processed(sim), 1);
    CU_ASSERT_EQUAL(t.n, 1);
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim), 1e6, 0.0);
    dc_sim_destroy(sim);
}

/* The key map against a plain array over 4,096 keys shaped like the
 * fabric's (job << 32 | level << 30 | unit): 200,000 random puts, gets and
 * removals (so the table grows and long probe runs are cut by removals,
 * wrapping around its end), every key checked after each 1,000. */
/* --- the current instant: events for now kept out of the queue --- */

/* A random program of events run twice: by the engine, and by a bare
 * event queue popped in a loop (every push in the queue, its FIFO for the
 * current instant included).  Each event's actions are a function of its
 * id alone: pushes for now (delay 0), for a little later or for a time
 * already past (clamped to now), and cancels of earlier events, pending
 * or not.  The two logs of ids, times and counts must be equal: the
 * engine's events for now (dc_sim_at's list) run in the queue's order. */
#define PROG_MAX 20000

typedef struct prog {
    dc_sim *sim;     /* NULL: the bare queue */
    dc_eventq *q;
    double now_s;
    dc_event_handle h[PROG_MAX + 1];
    uint64_t log[PROG_MAX + 1];
    double log_t[PROG_MAX + 1];
    size_t n_log, next_id, cancels;
} prog;

static uint64_t prog_mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static void prog_event(dc_sim *sim, void *ctx, uint64_t id);

static void prog_push(prog *g, double at_s)
{
    if (g->next_id > PROG_MAX)
        return;
    uint64_t id = g->next_id++;
    if (g->sim)
        g->h[id] = dc_sim_at(g->sim, at_s, prog_event, g, id);
    else
        dc_eventq_push(g->q, at_s < g->now_s ? g->now_s : at_s, prog_event, g, id, &g->h[id]);
}

static void prog_event(dc_sim *sim, void *ctx, uint64_t id)
{
    prog *g = ctx;
    double now = sim ? dc_sim_now(sim) : g->now_s;
    g->h[id] = DC_EVENT_NONE;
    g->log[g->n_log] = id;
    g->log_t[g->n_log++] = now;
    uint64_t r = prog_mix(id);
    int actions = 1 + (int)(r % 4); /* 1..4: the program grows, then runs dry at PROG_MAX ids */
    for (int a = 0; a < actions; a++) {
        r = prog_mix(r);
        switch (r % 8) {
        case 0: case 1:
            prog_push(g, now); /* for now */
            break;
        case 2: case 3: case 4:
            prog_push(g, now + (double)(1 + (r >> 40 & 3))); /* 1..4 s later: several at each time */
            break;
        case 5:
            prog_push(g, now - 1.0); /* past: clamped to now */
            break;
        default: { /* cancel an earlier event, pending or not */
            uint64_t victim = 1 + (r >> 20) % (g->next_id - 1);
            if (g->h[victim] != DC_EVENT_NONE)
                g->cancels++;
            if (g->sim)
                dc_sim_cancel(g->sim, &g->h[victim]);
            else if (g->h[victim] != DC_EVENT_NONE)
                dc_eventq_cancel(g->q, g->h[victim]);
            g->h[victim] = DC_EVENT_NONE;
        }
        }
    }
}

static void push_now_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    record_event(sim, ctx, arg);
    if (arg < 10)
        dc_sim_at(sim, dc_sim_now(sim), push_now_event, ctx, arg + 10); /* for now */
}

static void test_engine_now_events(void)
{
    /* by hand: 1 and 2 at 5 s, each pushing one for now (11, 12): 1, 2,
     * 11, 12 (2 was scheduled first); at 6 s, 3 alone: 3, 13 */
    dc_error e0 = {0};
    dc_sim *s0 = dc_sim_create(1, 100.0, &e0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s0);
    trace_ctx t = {0};
    dc_sim_at(s0, 5.0, push_now_event, &t, 1);
    dc_sim_at(s0, 5.0, push_now_event, &t, 2);
    dc_sim_at(s0, 6.0, push_now_event, &t, 3);
    CU_ASSERT_EQUAL(dc_sim_run(s0, &e0), DC_OK);
    static const uint64_t want[] = {1, 2, 11, 12, 3, 13};
    CU_ASSERT_EQUAL_FATAL(t.n, 6);
    for (int i = 0; i < 6; i++)
        CU_ASSERT_EQUAL(t.args[i], want[i]);
    CU_ASSERT_EQUAL(dc_sim_events_processed(s0), 6);
    dc_sim_destroy(s0);

    static prog a, b;
    dc_error err = {0};
    a = (prog){.next_id = 1};
    b = (prog){.next_id = 1};
    a.sim = dc_sim_create(1, 1e9, &err);
    b.q = dc_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a.sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b.q);
    for (int k = 0; k < 4; k++) { /* four roots at 0 and 1 s */
        prog_push(&a, (double)(k / 2));
        prog_push(&b, (double)(k / 2));
    }
    CU_ASSERT_EQUAL(dc_sim_run(a.sim, &err), DC_OK);
    dc_event ev;
    while (dc_eventq_pop(b.q, &ev)) {
        b.now_s = ev.time_s;
        ev.fn(NULL, ev.ctx, ev.arg);
    }
    CU_ASSERT(a.n_log > 10000); /* the program ran long, with cancels */
    CU_ASSERT(a.cancels > 500);
    CU_ASSERT_EQUAL(a.n_log, b.n_log);
    CU_ASSERT_EQUAL(a.cancels, b.cancels);
    CU_ASSERT_EQUAL(dc_sim_events_processed(a.sim), b.n_log);
    size_t first_diff = a.n_log;
    for (size_t i = 0; i < a.n_log && i < b.n_log && first_diff == a.n_log; i++)
        if (a.log[i] != b.log[i] || a.log_t[i] != b.log_t[i])
            first_diff = i;
    CU_ASSERT_EQUAL(first_diff, a.n_log);
    dc_sim_destroy(a.sim);
    dc_eventq_destroy(b.q);
}

static void test_keymap_reference(void)
{
    enum { NK = 4096, OPS = 200000 };
    static uint64_t keys[NK];
    static int64_t ref[NK]; /* -1: absent */
    for (uint32_t i = 0; i < NK; i++) {
        keys[i] = (uint64_t)(i % 8 + 1) << 32 | (uint64_t)(i / 8 % 2) << 30 | (i / 16);
        ref[i] = -1;
    }
    dc_keymap *m = dc_keymap_create();
    CU_ASSERT_FATAL(m != NULL);
    gsl_rng *r = dc_rng_create(7, "test.keymap");
    size_t n = 0;
    bool ok = true;
    for (uint32_t op = 0; op < OPS && ok; op++) {
        uint32_t i = (uint32_t)gsl_rng_uniform_int(r, op < OPS / 2 ? NK : NK / 4);
        uint32_t kind = (uint32_t)gsl_rng_uniform_int(r, 3), v;
        if (kind == 0) {
            ok = dc_keymap_put(m, keys[i], op);
            n += ref[i] < 0;
            ref[i] = op;
        } else if (kind == 1) {
            ok = dc_keymap_remove(m, keys[i]) == (ref[i] >= 0);
            n -= ref[i] >= 0;
            ref[i] = -1;
        } else {
            bool found = dc_keymap_get(m, keys[i], &v);
            ok = found == (ref[i] >= 0) && (!found || v == ref[i]);
        }
        ok = ok && dc_keymap_size(m) == n;
        for (uint32_t j = 0; op % 1000 == 999 && j < NK && ok; j++) {
            bool found = dc_keymap_get(m, keys[j], &v);
            ok = found == (ref[j] >= 0) && (!found || v == ref[j]);
        }
    }
    CU_ASSERT(ok);
    uint32_t v;
    CU_ASSERT_FALSE(dc_keymap_get(m, 0, &v));
    CU_ASSERT_FALSE(dc_keymap_remove(m, 0));
    CU_ASSERT(dc_keymap_reserve(m, 100000));
    CU_ASSERT_EQUAL(dc_keymap_size(m), n);
    gsl_rng_free(r);
    dc_keymap_destroy(m);
    dc_keymap_destroy(NULL);
}

static int register_suites(void)
{
    DC_TEST_SUITE("keymap", {"random operations vs reference (200k ops)", test_keymap_reference});
    DC_TEST_SUITE("rng", {"named streams", test_rng_streams},
                  {"the lazy mt19937 against GSL's, bit for bit", test_rng_lazy_mt});
    DC_TEST_SUITE("cfgget", {"member lookups as libconfig's", test_cfg_lookups});
    DC_TEST_SUITE("sortu32", {"against qsort", test_sort_u32});
    DC_TEST_SUITE("dist", {"sample means within 99% of closed forms", test_dist_means},
                  {"laws from scenario keys", test_dist_from_setting});
    DC_TEST_SUITE("engine", {"order, ties, cancel, horizon", test_engine_order_cancel_horizon},
                  {"stop early", test_engine_stop}, {"fail from a model", test_engine_fail},
                  {"progress guarantee: a stalled clock fails the run", test_engine_stall},
                  {"a cancel flag stops the run after its event", test_engine_cancel},
                  {"a cancelled run skips finish; ticks check the flag", test_engine_cancel_skips_finish},
                  {"signals", test_engine_signals},
                  {"signal kinds reach the subscribers of their kinds only", test_engine_signal_kinds},
                  {"models and sampling", test_engine_models_and_sampling},
                  {"sampling instants after the events at or before them", test_engine_sampling_order},
                  {"events for now run in the queue's order (20,000 random events)", test_engine_now_events});
    return test_scenario_register();
}

int main(void)
{
    return dc_test_main(register_suites);
}
