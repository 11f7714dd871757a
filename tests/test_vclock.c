/* Tests: virtual clocks (sim/vclock.c): integrals on exact timelines, targets, ties, cancels, and a random reference.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The clock under the engine: factor changes are events of the test, the
 * targets' callbacks record the time they fire.  The timelines use dyadic
 * numbers, so integrals and times are exact; the random case compares
 * every target's firing time with the time at which a reference walk over
 * the piecewise-linear integral reaches it (to 1e-9 relative). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "error.h"
#include "sim.h"
#include "testutil.h"
#include "vclock.h"

#define MAX_FIRED 4096

typedef struct fired {
    size_t n;
    uint64_t arg[MAX_FIRED];
    double at_s[MAX_FIRED];
} fired;

static void on_target(dc_sim *sim, void *ctx, uint64_t arg)
{
    fired *f = ctx;
    if (f->n < MAX_FIRED) {
        f->arg[f->n] = arg;
        f->at_s[f->n++] = dc_sim_now(sim);
    }
}

/* A factor change: the test's table of (time, f0, f1). */
typedef struct change {
    double at_s, f[2];
} change;

typedef struct driver {
    dc_vclock *k;
    const change *ch;
    double seen_i0[64], seen_i1[64];
} driver;

static void on_change(dc_sim *sim, void *ctx, uint64_t i)
{
    (void)sim;
    driver *d = ctx;
    d->seen_i0[i] = dc_vclock_value(d->k, 0); /* before the change: the integrals up to now */
    d->seen_i1[i] = dc_vclock_value(d->k, 1);
    dc_vclock_set(d->k, d->ch[i].f);
}

/* Factors (1, 1) on [0, 4), (0.5, 0.5) on [4, 12), (1, 0.5) from 12:
 * I_0 = 4, 8, ...; I_1 = 4, 6, ...; targets on I_1 at 5 (t = 4 + 1 / 0.25 =
 * 8) and 7 (t = 12 + 1 / 0.5 = 14), two at 5 fire in the order set, one
 * cancelled never, one set at t = 8 for a value already reached at once. */
static fired *late_fired;
static dc_vclock *late_clock;

static void set_passed(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim;
    (void)ctx;
    (void)arg;
    dc_vclock_at(late_clock, 3.0, on_target, late_fired, 9); /* I_1 is 5 at t = 8: already past */
}

static void test_timeline(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_vclock *k = dc_vclock_create(sim, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    CU_ASSERT_EQUAL(dc_vclock_levels(k), 2);
    static const change ch[] = {{4.0, {0.5, 0.5}}, {12.0, {1.0, 0.5}}, {20.0, {1.0, 0.5}}};
    driver d = {.k = k, .ch = ch};
    for (uint64_t i = 0; i < 3; i++)
        dc_sim_at(sim, ch[i].at_s, on_change, &d, i);
    fired f = {0};
    late_fired = &f;
    late_clock = k;
    dc_vclock_at(k, 7.0, on_target, &f, 1);
    dc_vclock_at(k, 5.0, on_target, &f, 2);
    dc_vclock_at(k, 5.0, on_target, &f, 3); /* same value: after 2 */
    dc_vclock_target c = dc_vclock_at(k, 6.5, on_target, &f, 4);
    CU_ASSERT_EQUAL(dc_vclock_pending(k), 4);
    dc_vclock_cancel(k, &c);
    CU_ASSERT_EQUAL(c, DC_VCLOCK_NONE);
    dc_vclock_cancel(k, &c); /* harmless twice */
    CU_ASSERT_EQUAL(dc_vclock_pending(k), 3);
    dc_sim_at(sim, 8.0, set_passed, NULL, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i0[0], 4.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i1[0], 4.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i0[1], 8.0, 0.0);  /* 4 + 8 x 0.5 */
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i1[1], 6.0, 0.0);  /* 4 + 8 x 0.25 */
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i0[2], 16.0, 0.0); /* 8 + 8 x 1 */
    CU_ASSERT_DOUBLE_EQUAL(d.seen_i1[2], 10.0, 0.0); /* 6 + 8 x 0.5 */
    CU_ASSERT_EQUAL_FATAL(f.n, 4);
    /* at t = 8 the value 3 set then (passed: at once, and first, being
     * the lowest), then the two at 5 in the order they were set */
    CU_ASSERT_EQUAL(f.arg[0], 9);
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[0], 8.0, 0.0);
    CU_ASSERT_EQUAL(f.arg[1], 2);
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[1], 8.0, 0.0);
    CU_ASSERT_EQUAL(f.arg[2], 3);
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[2], 8.0, 0.0);
    CU_ASSERT_EQUAL(f.arg[3], 1);
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[3], 14.0, 0.0);
    CU_ASSERT_EQUAL(dc_vclock_pending(k), 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_vclock_factors(k)[1], 0.5, 0.0);
    dc_vclock_destroy(k);
    dc_sim_destroy(sim);
}

/* A callback that cancels a later target and sets another. */
typedef struct chain {
    dc_vclock *k;
    dc_vclock_target later;
    fired *f;
} chain;

static void on_chain(dc_sim *sim, void *ctx, uint64_t arg)
{
    chain *ch = ctx;
    on_target(sim, ch->f, arg);
    dc_vclock_cancel(ch->k, &ch->later);
    dc_vclock_at(ch->k, dc_vclock_value(ch->k, 0) + 2.0, on_target, ch->f, 7);
}

static void test_callback_changes_targets(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 100.0, &err);
    dc_vclock *k = dc_vclock_create(sim, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    fired f = {0};
    chain ch = {.k = k, .f = &f};
    dc_vclock_at(k, 3.0, on_chain, &ch, 5);
    ch.later = dc_vclock_at(k, 4.0, on_target, &f, 6);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(f.n, 2);
    CU_ASSERT_EQUAL(f.arg[0], 5);
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[0], 3.0, 0.0);
    CU_ASSERT_EQUAL(f.arg[1], 7); /* 6 was cancelled by 5's callback */
    CU_ASSERT_DOUBLE_EQUAL(f.at_s[1], 5.0, 0.0);
    dc_vclock_destroy(k);
    dc_sim_destroy(sim);
}

/* Random factors at random times and random targets against a reference:
 * the time at which the piecewise-linear I_1 reaches each value. */
#define N_CH 64
#define N_T 2000

static void test_random_reference(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_sim_create(1, 1e6, &err);
    dc_vclock *k = dc_vclock_create(sim, 2);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    srand(12345);
    change ch[N_CH];
    double t = 0.0;
    for (size_t i = 0; i < N_CH; i++) {
        t += 1.0 + 50.0 * rand() / (double)RAND_MAX;
        ch[i].at_s = t;
        ch[i].f[0] = 0.05 + 0.95 * rand() / (double)RAND_MAX;
        ch[i].f[1] = rand() % 4 == 0 ? 1.0 : 0.05 + 0.95 * rand() / (double)RAND_MAX;
    }
    driver d = {.k = k, .ch = ch};
    for (uint64_t i = 0; i < N_CH; i++)
        dc_sim_at(sim, ch[i].at_s, on_change, &d, i);
    static fired f;
    f.n = 0;
    static double value[N_T];
    static dc_vclock_target h[N_T];
    for (size_t i = 0; i < N_T; i++) {
        value[i] = 1500.0 * rand() / (double)RAND_MAX;
        h[i] = dc_vclock_at(k, value[i], on_target, &f, i);
    }
    size_t n_cancel = 0;
    for (size_t i = 0; i < N_T; i += 7) {
        dc_vclock_cancel(k, &h[i]);
        n_cancel++;
    }
    CU_ASSERT_EQUAL(dc_vclock_pending(k), N_T - n_cancel);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(f.n, N_T - n_cancel);
    int bad_time = 0, bad_order = 0, cancelled_fired = 0;
    for (size_t n = 0; n < f.n; n++) {
        size_t i = (size_t)f.arg[n];
        if (i % 7 == 0)
            cancelled_fired++;
        /* the reference: walk the segments of I_1 = integral of f0 f1 */
        double at = 0.0, iv = 0.0, rate = 1.0, want = NAN;
        for (size_t s = 0; s <= N_CH && isnan(want); s++) {
            double end = s < N_CH ? ch[s].at_s : INFINITY;
            if (iv + rate * (end - at) >= value[i])
                want = at + (value[i] - iv) / rate;
            else if (s < N_CH) {
                iv += rate * (end - at);
                at = end;
                rate = ch[s].f[0] * ch[s].f[1];
            }
        }
        if (!(fabs(f.at_s[n] - want) <= 1e-9 * (1.0 + want)))
            bad_time++;
        if (n > 0 && (f.at_s[n] < f.at_s[n - 1]
                      || (value[i] < value[(size_t)f.arg[n - 1]])))
            bad_order++;
    }
    CU_ASSERT_EQUAL(bad_time, 0);
    CU_ASSERT_EQUAL(bad_order, 0);
    CU_ASSERT_EQUAL(cancelled_fired, 0);
    dc_vclock_destroy(k);
    dc_sim_destroy(sim);
}

static int register_suites(void)
{
    DC_TEST_SUITE("vclock",
                  {"integrals and targets on an exact timeline", test_timeline},
                  {"a target's callback cancels and sets targets", test_callback_changes_targets},
                  {"random factors and 2,000 targets vs a reference walk", test_random_reference});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
