/* Tests: power, cooling and the environment against closed forms.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Power, cooling and the environment against closed forms: energy = power x
 * time, PUE with a constant COP, caps never exceeded and the job slowed by
 * the stated DVFS relation, the first-order thermal response, cooling-unit
 * failures that throttle when they should and not when they should not,
 * thermal shutdown, idle shutdown, tariffs; the CSV reader; bad input with
 * its message (and, through $DCSIM, exit status 2). */
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "badinput.h"
#include "cluster.h"
#include "facility/cooling.h"
#include "csv.h"
#include "facility/environment.h"
#include "facility/power.h"
#include "facility/powercap.h"
#include "facility/swing.h"
#include "facility/thermal_aging.h"
#include "registry.h"
#include "simrun.h"
#include "testutil.h"

static char tmpdir[64];

/* ---------- helpers ---------- */

/* Builds and runs; extra (may be NULL) is added as a model before the run.
 * Returns the sim (caller destroys) or NULL after a CUnit failure. */
static dc_sim *run_with(const char *text, const char *const *sets, size_t n_sets, int64_t seed,
                        const dc_model_type *extra)
{
    dc_error err = {0};
    char name[128];
    snprintf(name, sizeof name, "%s/test.cfg", tmpdir);
    dc_scenario *sc = dc_simrun_load(text, name, sets, n_sets, &err);
    dc_sim *sim = NULL;
    if (!sc || dc_build(sc, seed, &sim, &err) != DC_OK || (extra && dc_sim_add_model(sim, extra, sc, &err) != DC_OK)) {
        fprintf(stderr, "\n  build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        dc_sim_destroy(sim);
        sim = NULL;
    }
    dc_scenario_destroy(sc);
    return dc_simrun_run(sim);
}

static dc_sim *run_text(const char *text, const char *const *sets, size_t n_sets, int64_t seed)
{
    return run_with(text, sets, n_sets, seed, NULL);
}

/* The error a scenario gives at build (or validation); "" if none. */
static int build_error(const char *text, const char *const *sets, size_t n_sets, dc_error *err)
{
    char name[128];
    snprintf(name, sizeof name, "%s/bad.cfg", tmpdir);
    dc_scenario *sc = dc_simrun_load(text, name, sets, n_sets, err);
    if (!sc)
        return err->code;
    dc_sim *sim = NULL;
    int rc = dc_build(sc, -1, &sim, err);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    return rc;
}

static const dc_series *series(dc_sim *sim, const char *name)
{
    dc_series_set *set = dc_sim_series_set(sim);
    for (size_t i = 0; i < dc_series_set_count(set); i++)
        if (strcmp(dc_series_name(dc_series_set_at(set, i)), name) == 0)
            return dc_series_set_at(set, i);
    fprintf(stderr, "\n  missing series %s\n", name);
    CU_FAIL("series missing");
    return NULL;
}

/* Value of a step series at time t (the last point at or before t). */
static double series_at(const dc_series *s, double t)
{
    const double *ts = dc_series_times(s), *vs = dc_series_values(s);
    double v = NAN;
    for (size_t i = 0; i < dc_series_length(s) && ts[i] <= t; i++)
        v = vs[i];
    return v;
}

static bool write_plain(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    return dc_runner_write(path, text, strlen(text)) == 0;
}

static void write_file(const char *name, const char *text)
{
    CU_ASSERT_FATAL(write_plain(name, text));
}

static bool breakdown_sums(dc_sim *sim)
{
    const dc_summary *s = dc_sim_summary(sim);
    double total = 0.0, capacity = dc_simrun_fig(sim, DC_BREAKDOWN_TOTAL);
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0 && strcmp(k, DC_BREAKDOWN_TOTAL) != 0)
            total += dc_summary_value(s, i);
    }
    return fabs(total - capacity) <= 1e-9 * capacity;
}

/* ---------- the CSV reader ---------- */

static void test_csv_good(void)
{
    const char text[] = "# a comment\n\n time_h , \"usd, per kWh\"\r\n0,0.10\n  # indented comment\n1.5,\"0.2\"\r\n"
                        "3, \"a \"\"quoted\"\" word\" \n4,5";
    dc_csv *csv = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_csv_read_string(text, strlen(text), "t.csv", &csv, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_csv_column_count(csv), 2);
    CU_ASSERT_EQUAL(dc_csv_row_count(csv), 4);
    CU_ASSERT_STRING_EQUAL(dc_csv_header(csv, 0), "time_h");
    CU_ASSERT_STRING_EQUAL(dc_csv_header(csv, 1), "usd, per kWh");
    CU_ASSERT_EQUAL(dc_csv_header_line(csv), 3);
    CU_ASSERT_EQUAL(dc_csv_line(csv, 0), 4);
    CU_ASSERT_EQUAL(dc_csv_line(csv, 1), 6);
    CU_ASSERT_EQUAL(dc_csv_line(csv, 3), 8);
    CU_ASSERT_STRING_EQUAL(dc_csv_cell(csv, 2, 1), "a \"quoted\" word");
    size_t col = 9;
    CU_ASSERT_EQUAL(dc_csv_find_column(csv, "usd, per kWh", &col, &err), DC_OK);
    CU_ASSERT_EQUAL(col, 1);
    double v = 0;
    CU_ASSERT_EQUAL(dc_csv_number(csv, 1, 0, &v, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(v, 1.5, 0.0);
    CU_ASSERT_EQUAL(dc_csv_number(csv, 1, 1, &v, &err), DC_OK); /* quoted numbers are numbers */
    CU_ASSERT_DOUBLE_EQUAL(v, 0.2, 0.0);
    CU_ASSERT_EQUAL(dc_csv_number(csv, 2, 1, &v, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "t.csv:7: column usd, per kWh: expected a number"));
    CU_ASSERT_EQUAL(dc_csv_find_column(csv, "price", &col, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "t.csv:3: no column \"price\" (columns: time_h, usd, per kWh)"));
    dc_csv_destroy(csv);
}

static void test_csv_errors(void)
{
    static const struct {
        const char *text;
        const char *fragment;
    } cases[] = {
        {"a,b\n1,2\n3\n", "x.csv:3: expected 2 fields as in the header (line 1), got 1"},
        {"a,b\n1,2,3\n", "x.csv:2: expected 2 fields"},
        {"a,b\n1,\"2\n", "x.csv:2: unterminated quote in field 2"},
        {"a,b\n1,\"2\"x\n", "x.csv:2: text after the closing quote of field 2"},
        {"a,b\n1,2\"\n", "x.csv:2: a quote inside unquoted field 2"},
        {"a,,c\n", "x.csv:1: column 2 of the header has no name"},
        {"a,b,a\n", "x.csv:1: column \"a\" is named twice"},
        {"# only comments\n\n", "x.csv: no header line"},
        {"", "x.csv: no header line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        dc_csv *csv = NULL;
        dc_error err = {0};
        int rc = dc_csv_read_string(cases[i].text, strlen(cases[i].text), "x.csv", &csv, &err);
        bool ok = rc == DC_EINPUT && csv == NULL && strstr(err.msg, cases[i].fragment);
        if (!ok)
            fprintf(stderr, "\n  case %zu: rc %d, message: %s", i, rc, err.msg);
        CU_ASSERT(ok);
    }
    /* A NUL byte names its line. */
    const char nul[] = "a,b\n1,2\n3,\0\n";
    dc_csv *csv = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL(dc_csv_read_string(nul, sizeof nul - 1, "x.csv", &csv, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "x.csv:3: a NUL byte"));
    /* Numbers: the whole field, finite. */
    const char nums[] = "v\n1e3\n-0.5\n\n12abc\nnan\ninf\n 7 \n";
    CU_ASSERT_EQUAL_FATAL(dc_csv_read_string(nums, sizeof nums - 1, "n.csv", &csv, &err), DC_OK);
    double v;
    CU_ASSERT(dc_csv_number(csv, 0, 0, &v, &err) == DC_OK && v == 1e3);
    CU_ASSERT(dc_csv_number(csv, 1, 0, &v, &err) == DC_OK && v == -0.5);
    CU_ASSERT(dc_csv_number(csv, 2, 0, &v, &err) == DC_EINPUT && strstr(err.msg, "n.csv:5:") && strstr(err.msg, "12abc"));
    CU_ASSERT(dc_csv_number(csv, 3, 0, &v, &err) == DC_EINPUT && strstr(err.msg, "n.csv:6:"));
    CU_ASSERT(dc_csv_number(csv, 4, 0, &v, &err) == DC_EINPUT);
    CU_ASSERT(dc_csv_number(csv, 5, 0, &v, &err) == DC_OK && v == 7.0);
    dc_csv_destroy(csv);
    /* Files: missing, a directory. */
    CU_ASSERT_EQUAL(dc_csv_read_file("/nonexistent/p.csv", &csv, &err), DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/nonexistent/p.csv"));
    CU_ASSERT_EQUAL(dc_csv_read_file(tmpdir, &csv, &err), DC_EIO);
    char buf[64];
    CU_ASSERT(dc_csv_resolve_path("dir/sub/s.cfg", "d.csv", buf, sizeof buf) && strcmp(buf, "dir/sub/d.csv") == 0);
    CU_ASSERT(dc_csv_resolve_path("s.cfg", "d.csv", buf, sizeof buf) && strcmp(buf, "d.csv") == 0);
    CU_ASSERT(dc_csv_resolve_path("dir/s.cfg", "/abs/d.csv", buf, sizeof buf) && strcmp(buf, "/abs/d.csv") == 0);
    CU_ASSERT(!dc_csv_resolve_path("dir/s.cfg", "a-very-long-name.csv", buf, 8));
}

/* Random bytes and mutations of a good file: the reader either accepts or
 * returns DC_EINPUT with a "NAME:" message, never anything else (the
 * sanitizer build checks memory). */
static void test_csv_fuzz(void)
{
    const char seed_text[] = "time_h,usd_per_kwh\n0,0.1\n1,\"0.2\"\n2,0.3\n";
    uint64_t x = 0x9E3779B97F4A7C15u;
    char buf[256];
    int accepted = 0;
    for (int round = 0; round < 3000; round++) {
        size_t len = sizeof seed_text - 1;
        memcpy(buf, seed_text, len);
        int muts = 1 + round % 6;
        for (int k = 0; k < muts; k++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            size_t pos = (size_t)(x % len);
            static const char alphabet[] = ",\"\n\r# a1.\0\xff";
            buf[pos] = round % 3 == 0 ? (char)(x >> 24) : alphabet[(x >> 32) % (sizeof alphabet - 1)];
        }
        dc_csv *csv = NULL;
        dc_error err = {0};
        int rc = dc_csv_read_string(buf, len, "f.csv", &csv, &err);
        CU_ASSERT(rc == DC_OK || (rc == DC_EINPUT && strncmp(err.msg, "f.csv", 5) == 0));
        if (rc == DC_OK) {
            accepted++;
            for (size_t r = 0; r < dc_csv_row_count(csv); r++)
                for (size_t c = 0; c < dc_csv_column_count(csv); c++) {
                    double v;
                    int nrc = dc_csv_number(csv, r, c, &v, &err);
                    CU_ASSERT(nrc == DC_OK || nrc == DC_EINPUT);
                }
        }
        dc_csv_destroy(csv);
    }
    CU_ASSERT(accepted > 10);
}

/* ---------- closed forms ---------- */

static const dc_gpu_power h100 = {70.0, 700.0, 200.0, 0.8};

static void test_gpu_forms(void)
{
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_power_w(&h100, 1.0, 1.0), 700.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_power_w(&h100, 0.0, 1.0), 70.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_power_w(&h100, 1.0, 0.5), 70.0 + 630.0 / 8.0, 1e-12);
    double fmin = dc_gpu_min_freq(&h100);
    CU_ASSERT_DOUBLE_EQUAL(fmin, cbrt(130.0 / 630.0), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_power_w(&h100, 1.0, fmin), 200.0, 1e-9);
    /* The cap inverts the power law, clamped to [f_min, 1]. */
    for (double cap = 200.0; cap <= 700.0; cap += 50.0) {
        double f = dc_gpu_freq_for_cap(&h100, 1.0, cap);
        CU_ASSERT_DOUBLE_EQUAL(dc_gpu_power_w(&h100, 1.0, f), cap, 1e-9);
    }
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_freq_for_cap(&h100, 1.0, 900.0), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_freq_for_cap(&h100, 1.0, 100.0), fmin, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_freq_for_cap(&h100, 0.5, 385.0), 1.0, 0.0); /* half load fits under 385 W */
    /* speed(f) = 1 / (b/f + 1 - b): linear for b = 1, flat for b = 0. */
    dc_gpu_power lin = h100, flat = h100;
    lin.compute_bound = 1.0;
    flat.compute_bound = 0.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_speed(&lin, 0.7), 0.7, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_speed(&flat, 0.7), 1.0, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_speed(&h100, 0.8), 1.0 / (0.8 / 0.8 + 0.2), 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_gpu_speed(&h100, 1.0), 1.0, 0.0);
}

/* The swing against a brute-force scan of windows anchored at every change. */
static double swing_brute(const double *t, const double *v, size_t n, double end, double w)
{
    double best = 0.0;
    for (size_t i = 0; i < n; i++)
        for (size_t j = i; j < n; j++) {
            double seg_i_end = i + 1 < n ? t[i + 1] : end;
            if (t[j] - seg_i_end <= w && fabs(v[j] - v[i]) > best)
                best = fabs(v[j] - v[i]);
        }
    return best;
}

static void test_swing(void)
{
    uint64_t x = 12345;
    for (int round = 0; round < 200; round++) {
        size_t n = 1 + (size_t)(round % 40);
        double t[40], v[40], now = 0.0;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            now += 1.0 + (double)((x >> 33) % 100);
            t[i] = now;
            v[i] = (double)((x >> 20) % 1000);
        }
        double w = (double)(round % 7) * 30.0;
        double got = dc_power_swing(t, v, n, now + 10.0, w);
        CU_ASSERT_DOUBLE_EQUAL(got, swing_brute(t, v, n, now + 10.0, w), 0.0);
        /* two widths in one pass (the same width twice included) */
        double wide = round % 3 == 0 ? w : 3.0 * w + 90.0, got_n, got_w;
        dc_power_swing2(t, v, n, now + 10.0, w, wide, &got_n, &got_w);
        CU_ASSERT_EQUAL(got_n, swing_brute(t, v, n, now + 10.0, w));
        CU_ASSERT_EQUAL(got_w, swing_brute(t, v, n, now + 10.0, wide));
    }
}

/* dc_swing against what it replaces: dc_series_record's kept points, their
 * maximum (fmax from 0) and dc_power_swing over them.  Random step
 * functions: repeated times (replacements), values from a few levels
 * (dropped repeats, ties in the deques), gaps from well inside to well
 * beyond the windows, bursts of hundreds of points within one window (the
 * deques, the rings' growth), rising and falling runs (new peaks and lows
 * while settled), a job alternating between two levels (final's fast
 * path), a random walk of steps of a few sizes (the windows' bounds, their
 * deques rebuilt as the walk passes them); each also through a dc_swing
 * with the fast path (and the bounds) off, and the fast path and the
 * bounds required to have taken points. */
static void test_swing_stream(void)
{
    uint64_t x = 987654321;
    static const double widths[] = {0.0, 60.0, 3600.0};
    size_t deep = 0, replaced = 0, points = 0, fast = 0, alt_fast = 0, alt_points = 0;
    size_t bounded = 0, walk_bounded = 0, walk_points = 0;
    for (int round = 0; round < 360; round++) {
        dc_series_set *set = dc_series_set_create();
        dc_series *s = dc_series_set_get(set, "p", "W", "test");
        dc_swing *sw = dc_swing_create(widths, 3), *gen = dc_swing_create(widths, 3);
        CU_ASSERT_PTR_NOT_NULL_FATAL(s);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
        CU_ASSERT_PTR_NOT_NULL_FATAL(gen);
        dc_swing_set_fast(gen, false); /* every point through the general path */
        size_t n = 1 + (size_t)(round * 37 % 3000);
        int kind = round % 7;
        double now = 0.0, level = 1e6;
        for (size_t i = 0; i < n; i++) {
            x = x * 6364136223846793005u + 1442695040888963407u;
            uint64_t r = x >> 11;
            if (r % 4 != 0) { /* a quarter at the same time */
                double gap = kind == 0 ? (double)(r % 5000) : kind == 1 ? 0.5 * (double)(r % 7)
                             : kind == 5 ? (double)(r % 2000) /* (a few points an hour: windows short) */
                                         : (double)(r % 200);
                now += gap;
            }
            double v;
            if (kind == 3)
                v = level += (double)((r >> 8) % 100); /* rising */
            else if (kind == 4)
                v = level -= (double)((r >> 8) % 100); /* falling */
            else if (kind == 6) /* a random walk (a large cluster's failures and repairs: the bounds) */
                v = level += (r >> 8) % 2 ? 2000.0 : (r >> 9) % 4 ? -2000.0 : -10200.0 + 1000.0 * (double)(i % 3);
            else if (kind == 5) /* a job between two states (the fast path), now and then a level between
                                 * them or a new peak (the windows computed again) */
                v = (r >> 8) % 499 == 0  ? (level += 1000.0) + 1e5
                    : (r >> 8) % 50 == 0 ? 1e6 + 2e4 * (double)((r >> 16) % 5)
                    : i % 2              ? 1e6
                                         : 1e6 + level - 9e5;
            else
                v = 1e6 + 1000.0 * (double)((r >> 8) % 6) + ((r >> 20) % 3 == 0 ? 0.25 * (double)((r >> 24) % 4) : 0.0);
            size_t before = dc_series_length(s);
            dc_series_record(s, now, v);
            dc_swing_record(sw, now, v);
            dc_swing_record(gen, now, v);
            replaced += dc_series_length(s) <= before;
        }
        dc_swing_end(sw);
        dc_swing_end(gen);
        CU_ASSERT_EQUAL(dc_swing_fast_points(gen), 0);
        CU_ASSERT_EQUAL(dc_swing_bounded_windows(gen), 0);
        fast += dc_swing_fast_points(sw);
        bounded += dc_swing_bounded_windows(sw);
        if (kind == 6) {
            walk_bounded += dc_swing_bounded_windows(sw);
            walk_points += dc_series_length(s);
        }
        if (kind == 5) {
            alt_fast += dc_swing_fast_points(sw);
            alt_points += dc_series_length(s);
        }
        CU_ASSERT_EQUAL(dc_swing_peak(gen), dc_swing_peak(sw));
        const double *t = dc_series_times(s), *v = dc_series_values(s);
        size_t m = dc_series_length(s);
        points += m;
        double peak = 0.0;
        for (size_t i = 0; i < m; i++)
            peak = fmax(peak, v[i]);
        CU_ASSERT_EQUAL(dc_swing_peak(sw), peak);
        double one_pass[3];
        dc_power_swing2(t, v, m, now, widths[0], widths[1], &one_pass[0], &one_pass[1]);
        dc_power_swing2(t, v, m, now, widths[1], widths[2], &one_pass[1], &one_pass[2]);
        for (size_t k = 0; k < 3; k++) {
            double want = dc_power_swing(t, v, m, now, widths[k]), got = dc_swing_range(sw, k);
            CU_ASSERT_EQUAL(got, want);
            CU_ASSERT_EQUAL(dc_swing_range(gen, k), want);
            CU_ASSERT_EQUAL(one_pass[k], want);
            if (got != want || one_pass[k] != want)
                printf("\nround %d width %g: %.17g, one pass %.17g, dc_power_swing %.17g (%zu points)\n", round,
                       widths[k], got, one_pass[k], want, m);
        }
        /* a window of hundreds of points: kind 1 packs some 600 into an hour */
        if (kind == 1 && m > 1000)
            deep++;
        dc_swing_destroy(sw);
        dc_swing_destroy(gen);
        dc_series_set_destroy(set);
    }
    CU_ASSERT(deep >= 10);
    CU_ASSERT(replaced > 1000);
    CU_ASSERT(points > 100000);
    /* the fast path taken, most of all by the alternating job */
    CU_ASSERT(fast > points / 10);
    CU_ASSERT(alt_fast > alt_points / 2);
    /* the bounds taken, most of all by the random walk (windows of its points: three widths) */
    CU_ASSERT(walk_bounded > walk_points);
    printf("\n  swing stream: %zu windows skipped by their bounds (random walk: %zu of %zu points x 3)", bounded,
           walk_bounded, walk_points);
    printf("\n  swing stream: %zu of %zu final points on the fast path (alternating: %zu of %zu)", fast, points,
           alt_fast, alt_points);
}

/* Point i of n of adversarial stream kind (times 1 s apart but kind 4's) for
 * test_swing_rebuilds: the wide window, L seconds, an eighth of the stream. */
static double rebuild_point(int kind, size_t i, size_t n, double *t, double *state)
{
    size_t L = n / 8;
    double alt = 0.01 * (double)(i % 2); /* (a level held as two values: repeats are dropped) */
    *t = (double)i;
    if (kind != 0 && kind != 4 && i < 2)
        return 1e6 + 100.0 * (double)i; /* a first swing of 100 W: the windows' best */
    switch (kind) {
    case 0: /* a ramp: every window's range its best (the deques kept) */
        return 1e6 + 10.0 * (double)i;
    case 1: /* new lows, each by less than the rounding of peak - lowest point (the swing settled again
             * at the next point: the deques of the wide window rebuilt at every other point before) */
        return i % 2 ? (state[0] -= 1e-15) : 3.0;
    case 2: /* a staircase: steps of 60 W (above half the best), each held 1.5 windows */
        return 1e6 + 60.0 * (double)((i - 2) / (3 * L / 2)) + alt;
    case 3: { /* blocks of a window's points (L + 2), each its first value then 50 W above it, each
               * 100.5 W and a little more above the last: the bound passes the best once a window,
               * the deques rebuilt from a full window (about one point re-scanned a point) */
        size_t b = (i - 2) / (L + 2);
        return 1e6 + 100.5 * (double)b + 0.005 * (double)b * (double)(b - 1) + ((i - 2) % (L + 2) ? 50.0 - alt : 0.0);
    }
    case 4: /* bursts: 33 points 0.64 s apart, 33 points 16 s apart, a square wave of 60 W over the
             * same 33 and a drift (the windows' points from tens to hundreds) */
        *t = state[1] += (i / 33) % 2 ? 0.64 : 16.0;
        return 1e6 + 60.0 * (double)((i / 33) % 2) + 0.02 * (double)i + 0.001 * (double)(i % 2);
    case 5: /* swings growing then shrinking: a sine of a third of a window, its amplitude 0 -> 1 kW -> 0 */
        return 1e6 + 1e3 * (1.0 - fabs(2.0 * (double)i / (double)n - 1.0)) * sin(6.0 * M_PI * (double)i / (double)L);
    default: { /* a random walk of 2-kW steps, now and then a 10.2-kW drop (RBW's facility power) */
        uint64_t r = (uint64_t)state[2] * 6364136223846793005u + 1442695040888963407u;
        state[2] = (double)(r >> 12); /* (exact in a double) */
        return state[3] += (r >> 40) % 2 ? 2000.0 : (r >> 41) % 4 ? -2000.0 : -10200.0;
    }
    }
}

/* The deques' rebuilds (a window's bound passing its best) are linear in the
 * points: swing.c's header shows at most 3 points re-scanned a point and
 * window, and 16 more a rebuild that follows a scan.  Each adversarial
 * stream at N and 10 N points, the 1-min window and a wide one of an eighth
 * of the stream (so that work quadratic in the window grows tenfold from one
 * length to the next), within that bound, with the figures of a dc_swing with
 * the fast path and bounds off and of dc_power_swing over the kept series. */
static void test_swing_rebuilds(void)
{
    enum { N = 4000, KINDS = 7 };
    size_t rebuilt_total = 0, points_total = 0;
    double worst = 0.0;
    for (int kind = 0; kind < KINDS; kind++)
        for (size_t n = N; n <= 10 * N; n *= 10) {
            double widths[] = {60.0, (double)(n / 8)}, state[4] = {1.0, 0.0, 1.0, 1e7};
            dc_series_set *set = dc_series_set_create();
            dc_series *s = dc_series_set_get(set, "p", "W", "test");
            dc_swing *sw = dc_swing_create(widths, 2), *gen = dc_swing_create(widths, 2);
            CU_ASSERT_PTR_NOT_NULL_FATAL(s);
            CU_ASSERT_PTR_NOT_NULL_FATAL(sw);
            CU_ASSERT_PTR_NOT_NULL_FATAL(gen);
            dc_swing_set_fast(gen, false);
            double now = 0.0;
            for (size_t i = 0; i < n; i++) {
                double v = rebuild_point(kind, i, n, &now, state);
                dc_series_record(s, now, v);
                dc_swing_record(sw, now, v);
                dc_swing_record(gen, now, v);
            }
            dc_swing_end(sw);
            dc_swing_end(gen);
            size_t m = dc_series_length(s), rebuilt = dc_swing_rebuilt_points(sw), rebuilds = dc_swing_rebuilds(sw);
            CU_ASSERT_EQUAL(dc_swing_peak(sw), dc_swing_peak(gen));
            for (size_t k = 0; k < 2; k++) {
                double want = dc_power_swing(dc_series_times(s), dc_series_values(s), m, now, widths[k]);
                CU_ASSERT_EQUAL(dc_swing_range(sw, k), want);
                CU_ASSERT_EQUAL(dc_swing_range(gen, k), want);
            }
            /* the bound (points: those kept, at most n) */
            CU_ASSERT(rebuilt <= 3 * 2 * m + 16 * rebuilds);
            if (rebuilt > 3 * 2 * m + 16 * rebuilds)
                printf("\nkind %d, %zu points: %zu points re-scanned by %zu rebuilds\n", kind, m, rebuilt, rebuilds);
            double per = (double)rebuilt / (2.0 * (double)m);
            worst = per > worst ? per : worst;
            rebuilt_total += rebuilt;
            points_total += 2 * m;
            if (kind == 3) /* (the streams do rebuild: the blocks' wide window about a point a point) */
                CU_ASSERT(rebuilt > m / 2);
            dc_swing_destroy(sw);
            dc_swing_destroy(gen);
            dc_series_set_destroy(set);
        }
    printf("\n  swing rebuilds: %zu points re-scanned for %zu points x windows (at most %.2f a point and window)",
           rebuilt_total, points_total, worst);
}

/* Euler-free check of the thermal closed forms: a fine RK4 integration of
 * C dT/dt = Q - min(G (T - Ts), Qa). */
static double rk4_thermal(const dc_thermal *th, double t0, double dt)
{
    int steps = 200000;
    double h = dt / steps, t = t0, g = th->capacity_w / th->rise_c;
#define F(T) ((th->heat_w - fmin(g * ((T) - th->supply_c), th->capacity_w)) / th->capacitance_j_per_k)
    for (int i = 0; i < steps; i++) {
        double k1 = F(t), k2 = F(t + 0.5 * h * k1), k3 = F(t + 0.5 * h * k2), k4 = F(t + h * k3);
        t += h / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4);
    }
#undef F
    return t;
}

static void test_thermal_forms(void)
{
    /* 1 MW plant, rise 10 K, supply 30 C, tau 600 s: C = 1e5 W/K x 600 s. */
    dc_thermal th = {30.0, 10.0, 1e6, 1e5 * 600.0, 0.0};
    const double heats[] = {0.0, 4e5, 1e6, 1.3e6};
    const double starts[] = {30.0, 35.0, 40.0, 48.0};
    for (size_t h = 0; h < 4; h++)
        for (size_t s = 0; s < 4; s++) {
            th.heat_w = heats[h];
            for (double dt = 50.0; dt < 5000.0; dt *= 3.0) {
                double integral = 0.0;
                double got = dc_thermal_at(&th, starts[s], dt, &integral);
                double ref = rk4_thermal(&th, starts[s], dt);
                CU_ASSERT_DOUBLE_EQUAL(got, ref, 1e-6);
                /* the crossing time of where it got is dt (where it moved) */
                if (fabs(got - starts[s]) > 1e-3)
                    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_cross(&th, starts[s], got), dt, 1e-6 * dt);
            }
        }
    /* Below capacity: T(t) = Tss + (T0 - Tss) e^(-t/tau) with tau = C / G. */
    th.heat_w = 5e5;
    double tss = 30.0 + 5e5 / 1e5;
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_at(&th, 30.0, 600.0, NULL), tss + (30.0 - tss) * exp(-1.0), 1e-12);
    double integral = 0.0;
    dc_thermal_at(&th, 30.0, 600.0, &integral);
    CU_ASSERT_DOUBLE_EQUAL(integral, tss * 600.0 + (30.0 - tss) * 600.0 * (1.0 - exp(-1.0)), 1e-8);
    /* Never reaches what lies beyond the steady state or behind it. */
    CU_ASSERT(isinf(dc_thermal_cross(&th, 30.0, 36.0)));
    CU_ASSERT(isinf(dc_thermal_cross(&th, 32.0, 31.0)));
    /* Above capacity: linear rise (Q - Qa) / C past T_sat. */
    th.heat_w = 1.2e6;
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_cross(&th, 40.0, 42.0), 2.0 * 6e7 / 2e5, 1e-9);
    /* No plant at all: Q / C. */
    th.capacity_w = 0.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_at(&th, 30.0, 100.0, NULL), 30.0 + 1.2e6 * 100.0 / 6e7, 1e-12);
}

static void test_cop_law(void)
{
    dc_cop_law law = {4.0, 35.0, 0.1, 1.5, 20.0, 10.0, 5.0};
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 0.0), 20.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 10.0), 20.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 35.0), 4.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 25.0), 5.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 70.0), 1.5, 0.0);
    /* middle of the band: 1/COP halfway between 1/20 and 1/COP_m(12.5) */
    double mech = 4.0 + 0.1 * 22.5;
    CU_ASSERT_DOUBLE_EQUAL(dc_cop(&law, 12.5), 1.0 / (0.5 / 20.0 + 0.5 / mech), 1e-12);
}

/* ---------- energy and PUE ---------- */

/* 8 busy nodes, 2 spares, 3 switches of 500 W, one storage tier; default
 * GPU (70/700 W) and host (2800/1000 W) powers, UPS 0.96 x PDU 0.99. */
static const char base_cfg[] =
    "horizon_days = 2.0; stop_when_done = false;\n"
    "cluster = { nodes = 8; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 8; work_gpu_h = 1e9; restart_s = 0.0; };\n"
    "power = { network = { switches = 3; switch_w = 500.0; };\n"
    "          storage = ( { name = \"s\"; idle_kw = 2.0; active_kw = 5.0; } ); };\n";

#define P_RUN (8 * (2800.0 + 8 * 700.0) + 2 * (1000.0 + 8 * 70.0) + 1500.0 + 2000.0)  /* 73,820 W */
#define P_RESTART (8 * (2800.0 + 8 * (70.0 + 0.1 * 630.0)) + 2 * (1000.0 + 8 * 70.0) + 1500.0 + 5000.0)
#define ETA (0.96 * 0.99)

static void test_energy_constant_load(void)
{
    const char *sets[] = {"environment.price.usd_per_kwh=0.1", "environment.carbon.kg_per_kwh=0.4"};
    dc_sim *sim = run_text(base_cfg, sets, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double T = 2 * 86400.0;
    double e_it = P_RUN * T / 3.6e6; /* kWh */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_energy_kwh"), e_it, 1e-12 * e_it);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.facility_energy_kwh"), e_it / ETA, 1e-12 * e_it);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.loss_energy_kwh"), e_it * (1 / ETA - 1), 1e-11 * e_it);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.cooling_energy_kwh"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.pue"), 1 / ETA, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), P_RUN / 1e6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_mean_mw"), P_RUN / 1e6, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.energy_cost_usd"), e_it / ETA * 0.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.carbon_kg"), e_it / ETA * 0.4, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.swing_1h_mw"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.kwh_per_useful_gpu_h"), e_it / ETA / (64 * 48.0), 1e-12);
    CU_ASSERT_EQUAL(dc_series_length(series(sim, "power_it_w")), 1);
    dc_sim_destroy(sim);

    /* A restart of 1 h at the restart level first: two constant pieces. */
    const char *sets2[] = {"job.restart_s=3600.0"};
    sim = run_text(base_cfg, sets2, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double e2 = (P_RESTART * 3600.0 + P_RUN * (T - 3600.0)) / 3.6e6;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_energy_kwh"), e2, 1e-12 * e2);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), P_RUN / 1e6, 1e-15);
    /* facility swing: the step at the end of the restart */
    double step = (P_RUN - P_RESTART) / ETA / 1e6;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.swing_1min_mw"), step, 1e-12);
    CU_ASSERT(!isfinite(dc_simrun_fig(sim, "power.energy_cost_usd"))); /* no price given */
    dc_sim_destroy(sim);
}

/* power.response_s on base_cfg's job with a checkpoint of 600 GB at
 * 20 GB/s (30 s) after every 1800 s of computing (94 in the 2 days, the
 * last at 94 x 1830 - 30 s, the horizon 780 s into a computing spell), no
 * failure, so the job's times do not depend on the power:
 *  - response 0: the checkpoint level from 1800 s to 1830 s, and
 *    E = P_RUN (T - 94 x 30 s) + P_RESTART 94 x 30 s (a checkpointing GPU
 *    draws the restart's utilisation, 0.1, and the tier its active power);
 *  - response 1 s: each end seen 1 s late, 1801 s to 1831 s: the same
 *    energy (to rounding) and the same number of points;
 *  - response 40 s, longer than a write: no checkpoint seen, the power
 *    constant, E = P_RUN T, and 94 changes unseen. */
static void test_response(void)
{
    const char *sets[] = {"checkpoint.interval_s=1800.0", "checkpoint.size_gb=600.0",
                          "checkpoint.write_gb_per_s=20.0", "power.response_s=0.0"};
    const double resp_s[] = {0.0, 1.0, 40.0};
    double T = 2 * 86400.0, e0 = (P_RUN * (T - 94 * 30.0) + P_RESTART * 94 * 30.0) / 3.6e6;
    size_t n0 = 0;
    for (size_t r = 0; r < 3; r++) {
        char set[64];
        snprintf(set, sizeof set, "power.response_s=%g", resp_s[r]);
        sets[3] = set;
        dc_sim *sim = run_text(base_cfg, sets, 4, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 94.0, 0.0);
        const dc_series *it = series(sim, "power_it_w");
        double e = dc_simrun_fig(sim, "power.it_energy_kwh");
        if (r < 2) {
            double lag = resp_s[r];
            CU_ASSERT_DOUBLE_EQUAL(e, e0, 1e-12 * e0);
            CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1800.0 + lag - 0.5), P_RUN, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1800.0 + lag + 0.5), P_RESTART, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1830.0 + lag - 0.5), P_RESTART, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1830.0 + lag + 0.5), P_RUN, 1e-9);
            CU_ASSERT_DOUBLE_EQUAL(series_at(it, 94 * 1830.0 - 30.0 + lag + 0.5), P_RESTART, 1e-9);
            if (r == 0)
                n0 = dc_series_length(it);
            CU_ASSERT_EQUAL(dc_series_length(it), n0);
            if (r == 1) /* (the figure only with a response time) */
                CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.unseen_changes"), 0.0, 0.0);
        } else {
            CU_ASSERT_DOUBLE_EQUAL(e, P_RUN * T / 3.6e6, 1e-12 * e);
            CU_ASSERT_EQUAL(dc_series_length(it), 1);
            CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.swing_1min_mw"), 0.0, 0.0);
            CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.unseen_changes"), 94.0, 0.0);
        }
        dc_sim_destroy(sim);
    }
}

/* The four jobs' IT power at a few instants: A alone, B, C, nothing, D. */
static void check_four_jobs_power(const dc_series *it, double busy_w, double idle_w)
{
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1.5 * 3600), 2 * busy_w + 2 * idle_w, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 2.5 * 3600), 4 * busy_w, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 3.5 * 3600), busy_w + 3 * idle_w, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 4.5 * 3600), 4 * idle_w, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 5.5 * 3600), busy_w + 3 * idle_w, 1e-9);
}

/* Many jobs: each node draws its job's power while its job runs and the
 * idle power otherwise, so the IT energy is the busy and idle node-hours at
 * those powers, whatever the order in which jobs come and go (the model
 * looks only at the jobs in play).  On 4 nodes, FIFO: A (2 nodes) runs 0-2 h,
 * B (4 nodes, arrives at 1 h) waits and runs 2-3 h, C (1 node, 1.5 h) waits
 * behind B and runs 3-4 h, D (1 node) runs 5-6 h: 10 busy node-hours of 24. */
static void test_energy_many_jobs(void)
{
    write_file("jobs.csv", "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n"
                           "0,2,32,0,,,training\n"
                           "1,4,32,0,,,training\n"
                           "1.5,1,8,0,,,training\n"
                           "5,1,8,0,,,training\n");
    static const char cfg[] = "horizon_days = 1.0; stop_when_done = true;\n"
                              "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "scheduler = { backfill = false; };\n"
                              "jobs = ( { name = \"h\"; trace = \"jobs.csv\"; restart_s = 0.0; } );\n"
                              "power = { };\n";
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const double busy_w = 2800.0 + 8 * 700.0, idle_w = 1000.0 + 8 * 70.0;
    double e_kwh = (10.0 * busy_w + 14.0 * idle_w) / 1e3; /* 105.84 kWh */
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 6.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 4.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_energy_kwh"), e_kwh, 1e-12 * e_kwh);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), 4 * busy_w / 1e6, 1e-15);
    /* the IT power at a few instants: A alone, B, C, nothing, D */
    const dc_series *it = series(sim, "power_it_w");
    check_four_jobs_power(it, busy_w, idle_w);
    dc_sim_destroy(sim);
}

/* The same four jobs and four more of one node and one hour at 6 h: eight
 * jobs, so the power model keeps its sums incrementally (power.h); the
 * energy and the power at each instant are the same closed forms. */
static void test_energy_eight_jobs(void)
{
    write_file("jobs.csv", "arrival_h,nodes,work_gpu_h,priority,pool,user,kind\n"
                           "0,2,32,0,,,training\n"
                           "1,4,32,0,,,training\n"
                           "1.5,1,8,0,,,training\n"
                           "5,1,8,0,,,training\n"
                           "6,1,8,0,,,training\n"
                           "6,1,8,0,,,training\n"
                           "6,1,8,0,,,training\n"
                           "6,1,8,0,,,training\n");
    static const char cfg[] = "horizon_days = 1.0; stop_when_done = true;\n"
                              "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                              "scheduler = { backfill = false; };\n"
                              "jobs = ( { name = \"h\"; trace = \"jobs.csv\"; restart_s = 0.0; } );\n"
                              "power = { };\n";
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_power_sums_agree(dc_power_of(sim)), 1);
    const double busy_w = 2800.0 + 8 * 700.0, idle_w = 1000.0 + 8 * 70.0;
    double e_kwh = (14.0 * busy_w + 14.0 * idle_w) / 1e3; /* 147.84 kWh */
    CU_ASSERT_DOUBLE_EQUAL(dc_sim_now(sim) / 3600.0, 7.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 8.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_energy_kwh"), e_kwh, 1e-12 * e_kwh);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), 4 * busy_w / 1e6, 1e-15);
    const dc_series *it = series(sim, "power_it_w");
    check_four_jobs_power(it, busy_w, idle_w);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 6.5 * 3600), 4 * busy_w, 1e-9);
    dc_sim_destroy(sim);
}

/* A model that compares the power model's incremental sums with a recount
 * over every job (dc_power_sums_agree) every every_s. */
typedef struct sums_check {
    double every_s;
    unsigned checks, agreed, kept;
} sums_check;

static void on_sums_check(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)arg;
    sums_check *k = ctx;
    int r = dc_power_sums_agree(dc_power_of(sim));
    k->checks++;
    k->agreed += r == 1;
    k->kept += r >= 0;
    dc_sim_after(sim, k->every_s, on_sums_check, k, 0);
}

static int sums_check_start(void *state, dc_sim *sim, dc_error *err)
{
    (void)err;
    sums_check *k = state;
    k->every_s = 13.0; /* (prime: the checks fall between the stream's round instants too) */
    dc_sim_after(sim, 1.0, on_sums_check, k, 0);
    return DC_OK;
}

static const dc_model_type sums_checker = {.name = "sums_check", .state_size = sizeof(sums_check),
                                           .start = sums_check_start};

/* 300 jobs of 1 to 64 GPUs (shares of a node and whole nodes) on 32 nodes
 * under a binding site cap, with GPU failures, stragglers tolerated (other
 * models' speed factors: utilisation classes), checkpoints, idle shutdown
 * with boots longer than the restarts (stalled jobs) and cooling units
 * failing (a heat limit): at every 13 s for four days the incremental sums
 * equal a recount over every job, exactly; and so with power.response_s =
 * 60 s (the 120-s checkpoints seen a minute late, failures ending lags)
 * and 150 s (none seen): the recount reads the phases the power sees. */
static void test_incremental_sums(void)
{
    for (size_t lag = 0; lag < 3; lag++) {
    static const char cfg[] =
        "horizon_days = 4.0; stop_when_done = false;\n"
        "cluster = { nodes = 32; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 300.0;\n"
        "               repair = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; }; },\n"
        "             { name = \"slow\"; per = \"node\"; mtbf_h = 200.0; mode = \"slow\"; slow_factor = 0.6;\n"
        "               policy = \"tolerate\"; repair = { law = \"lognormal\"; median_h = 4.0; sigma = 1.0; }; } );\n"
        "jobs = ( { name = \"s\"; kind = \"training\"; count = 300; interarrival = { law = \"exponential\"; mean_h = 0.1; };\n"
        "           gpus_min = 1; gpus_max = 64; duration = { law = \"lognormal\"; median_h = 2.0; sigma = 1.0; };\n"
        "           max_run_h = 24.0; checkpoint_write_s = 120.0; } );\n"
        "checkpoint = { interval_s = 1800.0; write_gb_per_s = 1.0; };\n"
        "scheduler = { backfill = true; };\n"
        "power = { site_cap_mw = 0.15; idle_shutdown = { after_s = 1800.0; power_up_s = 900.0; }; };\n"
        "cooling = { type = \"liquid\"; capacity_kw = 170.0; units = 4; step_s = 600.0;\n"
        "            failure = { law = \"exponential\"; afr = 200.0; };\n"
        "            repair = { law = \"lognormal\"; median_h = 8.0; sigma = 1.0; }; };\n";
    const char *sets[] = {lag == 1 ? "power.response_s=60.0" : "power.response_s=150.0"};
    dc_sim *sim = run_with(cfg, sets, lag > 0, 1, &sums_checker);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const sums_check *k = dc_sim_model(sim, "sums_check");
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    printf("\n  %u checks, %u agreed; power_cap %.1f, thermal %.1f, power_up %.1f GPU-h, %.0f stragglers",
           k->checks, k->agreed, dc_simrun_fig(sim, "gpu_hours.power_cap"), dc_simrun_fig(sim, "gpu_hours.thermal"),
           dc_simrun_fig(sim, "gpu_hours.power_up"), dc_simrun_fig(sim, "stragglers.onsets"));
    CU_ASSERT(k->checks >= 26000);
    CU_ASSERT_EQUAL(k->kept, k->checks); /* the run keeps them */
    CU_ASSERT_EQUAL(k->agreed, k->checks);
    /* what the run must have gone through for the check to mean something */
    CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.power_cap") > 50.0);
    CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.thermal") > 20.0);
    CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.power_up") > 10.0);
    CU_ASSERT(dc_simrun_fig(sim, "stragglers.onsets") >= 3.0);
    CU_ASSERT(breakdown_sums(sim));
    CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.checkpoint") > 300.0);
    if (lag) {
        double unseen = dc_simrun_fig(sim, "power.unseen_changes");
        printf(", %.0f changes unseen", unseen);
        CU_ASSERT(lag == 1 ? unseen == 0.0 : unseen > 500.0); /* (the writes take 120 s) */
    }
    dc_sim_destroy(sim);
    }
}

/* PUE with a constant COP: 1 / (eta_ups eta_pdu) + 1 / COP, exactly, even
 * with a varying outdoor temperature. */
static void test_pue_constant_cop(void)
{
    const char *sets[] = {"cooling.type=\"liquid\"", "cooling.capacity_kw=200.0", "cooling.cop=5.0",
                          "cooling.cop_per_c=0.0", "cooling.free_cooling_below_c=-100.0",
                          "environment.ambient.mean_c=20.0", "environment.ambient.daily_amplitude_c=8.0"};
    dc_sim *sim = run_text(base_cfg, sets, 7, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double pue = 1.0 / ETA + 1.0 / 5.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.pue"), pue, 1e-12);
    const dc_series *s = series(sim, "pue");
    CU_ASSERT_EQUAL(dc_series_length(s), 1);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_values(s)[0], pue, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.cooling_energy_kwh"), P_RUN / 5.0 * 2 * 86400 / 3.6e6, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.mean_cop"), 5.0, 1e-12);
    dc_sim_destroy(sim);
}

/* A COP that follows the outdoor temperature: cooling energy = sum over the
 * steps of Q x step / COP(T_amb at the step's middle). */
static void test_cooling_energy_varying_cop(void)
{
    const char *sets[] = {"cooling.type=\"air\"", "cooling.capacity_kw=200.0", "cooling.step_s=3600.0",
                          "environment.start_day_of_year=180.25", "environment.ambient.mean_c=18.0",
                          "environment.ambient.seasonal_amplitude_c=9.0", "environment.ambient.daily_amplitude_c=7.0"};
    dc_sim *sim = run_text(base_cfg, sets, 7, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_cop_law air = {3.0, 35.0, 0.08, 1.5, 12.0, 12.0, 5.0}; /* the air defaults */
    double e = 0.0;
    const dc_series *amb = series(sim, "temp_ambient_c");
    for (int k = 0; k < 48; k++) {
        double mid = (k + 0.5) * 3600.0;
        double d = 179.25 + mid / 86400.0, h = 24.0 * (d - floor(d));
        double t = 18.0 + 9.0 * cos(2 * M_PI * (d - 199.5) / 365.25) + 7.0 * cos(2 * M_PI * (h - 15.0) / 24.0);
        CU_ASSERT_DOUBLE_EQUAL(series_at(amb, k * 3600.0), t, 1e-9);
        e += P_RUN * 3600.0 / dc_cop(&air, t);
    }
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.cooling_energy_kwh"), e / 3.6e6, 1e-12 * e / 3.6e6);
    double it = P_RUN * 48 * 3600.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.pue"), (it / ETA + e) / it, 1e-12);
    dc_sim_destroy(sim);
}

/* ---------- caps ---------- */

/* ---------- the cap solver ---------- */

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The reference: the breakpoints sorted, the segment by bisection. */
static double ref_solve(const dc_powercap_job *jobs, size_t n, double target)
{
    double bp[2 * 64];
    for (size_t k = 0; k < n; k++) {
        bp[2 * k] = jobs[k].lo_w;
        bp[2 * k + 1] = jobs[k].hi_w;
    }
    size_t nb = 2 * n;
    qsort(bp, nb, sizeof bp[0], cmp_dbl);
    if (dc_powercap_fill(jobs, n, bp[0]) >= target)
        return bp[0];
    size_t lo = 0, hi = nb;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (dc_powercap_fill(jobs, n, bp[mid]) <= target)
            lo = mid;
        else
            hi = mid;
    }
    if (hi == nb)
        return bp[nb - 1];
    double a = bp[hi - 1], b = bp[hi];
    double ga = dc_powercap_fill(jobs, n, a), gb = dc_powercap_fill(jobs, n, b);
    return a + (target - ga) * (b - a) / (gb - ga);
}

/* Random job sets (ranges inside 200-700 W, some shared, some a single
 * point), budgets from below the floor to above the top: the answer is
 * bit for bit the reference's, whatever the guess (none, random, the last
 * answer, the answer to a budget 1e-4 away: most often on the same
 * segment, where the solver takes the guess's segment at once), and within
 * the range it meets the budget to 1e-12. */
static void test_powercap_solve(void)
{
    uint64_t x = 12345;
#define RND() ((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 11) * 0x1.0p-53
    dc_powercap_job jobs[64];
    size_t checked = 0;
    for (int trial = 0; trial < 3000; trial++) {
        size_t n = 2 + (size_t)(RND() * 62);
        for (size_t k = 0; k < n; k++) {
            double lo = 200.0 + 300.0 * RND(), hi = lo + 200.0 * RND();
            if (k > 0 && RND() < 0.2) { /* a range shared with another job */
                lo = jobs[k - 1].lo_w;
                hi = jobs[k - 1].hi_w;
            }
            if (RND() < 0.05)
                hi = lo;
            jobs[k] = (dc_powercap_job){8.0 * (1 + (int)(RND() * 64)), lo, hi};
        }
        double f0 = dc_powercap_fill(jobs, n, 0.0), f1 = dc_powercap_fill(jobs, n, 1e4);
        double guess = NAN;
        for (int t = 0; t < 8; t++) {
            double target = f0 - 0.1 * (f1 - f0) + 1.2 * (f1 - f0) * RND();
            double want = ref_solve(jobs, n, target);
            double g_random = 200.0 + 500.0 * RND(), g_none = NAN;
            double got = dc_powercap_solve(jobs, n, target, &guess);
            CU_ASSERT_EQUAL(memcmp(&got, &want, sizeof got), 0);
            CU_ASSERT_EQUAL(dc_powercap_solve(jobs, n, target, &g_random), want);
            CU_ASSERT_EQUAL(dc_powercap_solve(jobs, n, target, &g_none), want);
            double g_near = ref_solve(jobs, n, target * (1.0 + 1e-4 * (RND() - 0.5)));
            double near = dc_powercap_solve(jobs, n, target, &g_near);
            CU_ASSERT_EQUAL(memcmp(&near, &want, sizeof near), 0);
            if (target > f0 && target < f1) {
                CU_ASSERT_DOUBLE_EQUAL(dc_powercap_fill(jobs, n, got), target, 1e-12 * target);
                checked++;
            }
        }
    }
#undef RND
    CU_ASSERT_TRUE(checked > 10000);
}

/* The per-GPU limit that meets a site cap while the job computes (restart 0). */
static double site_speed(double cap_w, double compute_bound)
{
    double base = 8 * 2800.0 + 2 * (1000.0 + 8 * 70.0) + 1500.0 + 2000.0;
    double c = (cap_w - base) / 64.0;
    double f = cbrt((c - 70.0) / 630.0);
    return 1.0 / (compute_bound / f + (1.0 - compute_bound));
}

static void test_site_cap_throttle(void)
{
    const char *sets[] = {"power.site_cap_mw=0.06"};
    dc_sim *sim = run_text(base_cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double speed = site_speed(60000.0, 0.8);
    printf("\n  site cap 60 kW (demand 73.8 kW): speed %.6f", speed);
    const dc_series *it = series(sim, "power_it_w");
    for (size_t i = 0; i < dc_series_length(it); i++)
        CU_ASSERT(dc_series_values(it)[i] <= 60000.0 * (1 + 1e-12));
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 3600.0), 60000.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 64 * 48.0 * speed, 1e-9 * 64 * 48);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.power_cap"), 64 * 48.0 * (1 - speed), 1e-9 * 64 * 48);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.cap_throttled_h"), 48.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "throttle_power"), 3600.0), speed, 1e-12);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);

    /* Memory-bound work hardly slows (b = 0.2). */
    const char *sets_b[] = {"power.site_cap_mw=0.06", "power.gpu.compute_bound_fraction=0.2"};
    sim = run_text(base_cfg, sets_b, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 64 * 48.0 * site_speed(60000.0, 0.2), 1e-9 * 64 * 48);
    dc_sim_destroy(sim);
}

/* Two jobs under one site cap share one speed clock (the power model's
 * utilisation class: same GPUs, same utilisation): A (4 nodes, 640 GPU-h)
 * and B (4 nodes, 160 GPU-h) on 8 nodes under 42 kW.  Both computing:
 * the hosts 8 x 2,800 W, 3 switches and the storage 3,500 W leave
 * C2 = (42,000 - 25,900) / 64 W per GPU, speed s2; B ends at
 * t_B = 160 / (32 s2) h; then A alone (B's nodes idle at 1,560 W):
 * C1 = (42,000 - 20,940) / 32 W, speed s1 > s2, and A ends at
 * t_B + (640 - 160) / (32 s1) h: the clock's change moved A's completion.
 * Each job's power_cap line is its running GPU-time less its work. */
static void test_site_cap_clock_two_jobs(void)
{
    static const char cfg[] =
        "horizon_days = 2.0; stop_when_done = false;\n"
        "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "jobs = ( { name = \"A\"; nodes = 4; work_gpu_h = 640.0; restart_s = 0.0; },\n"
        "         { name = \"B\"; nodes = 4; work_gpu_h = 160.0; restart_s = 0.0; } );\n"
        "power = { network = { switches = 3; switch_w = 500.0; };\n"
        "          storage = ( { name = \"s\"; idle_kw = 2.0; active_kw = 5.0; } );\n"
        "          site_cap_mw = 0.042; };\n";
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double c2 = (42000.0 - 25900.0) / 64.0, c1 = (42000.0 - 20940.0) / 32.0;
    double s2 = 1.0 / (0.8 / cbrt((c2 - 70.0) / 630.0) + 0.2), s1 = 1.0 / (0.8 / cbrt((c1 - 70.0) / 630.0) + 0.2);
    double t_b = 160.0 / (32.0 * s2), t_a = t_b + 480.0 / (32.0 * s1);
    printf("\n  s2 %.6f, s1 %.6f: B ends at %.6f h, A at %.6f h", s2, s1, t_b, t_a);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "end_h"), t_b, 1e-9 * t_b);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "end_h"), t_a, 1e-9 * t_a);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "gpu_hours.useful"), 640.0, 1e-9 * 640);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "gpu_hours.power_cap"), 32.0 * t_a - 640.0, 1e-9 * 640);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "gpu_hours.power_cap"), 32.0 * t_b - 160.0, 1e-9 * 160);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "throttle_power"), 0.5 * t_b * 3600.0), s2, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "throttle_power"), 0.5 * (t_a + t_b) * 3600.0), s1, 1e-12);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);

    /* A unfinished at 48 h: its work is banked from the clock's integral
     * (32 (s2 t_B + s1 (48 - t_B)) GPU-h), not at the clock's changes. */
    const char *sets[] = {"jobs.[0].work_gpu_h=1e9"};
    sim = run_text(cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double useful = 32.0 * (s2 * t_b + s1 * (48.0 - t_b));
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "gpu_hours.useful"), useful, 1e-9 * useful);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "gpu_hours.power_cap"), 32.0 * 48.0 - useful, 1e-9 * useful);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
}

/* With failures, repairs and checkpoints the cap still holds sample-wise. */
static void test_site_cap_with_failures(void)
{
    const char *sets[] = {"power.site_cap_mw=0.062", "horizon_days=20.0"};
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "checkpoint = { interval_s = 1800.0; size_gb = 600.0; write_gb_per_s = 20.0; };\n"
             "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 200.0; },\n"
             "             { name = \"sw\"; per = \"job\"; mtbf_h = 30.0; } );\n"
             "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 1.0; };\n");
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = run_text(cfg, sets, 2, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        const dc_series *it = series(sim, "power_it_w");
        double max = 0;
        for (size_t i = 0; i < dc_series_length(it); i++)
            max = fmax(max, dc_series_values(it)[i]);
        CU_ASSERT(max <= 62000.0 * (1 + 1e-12));
        CU_ASSERT(dc_series_length(it) > 100);
        CU_ASSERT(dc_simrun_fig(sim, "job.interruptions") > 5);
        CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.power_cap") > 0);
        CU_ASSERT(breakdown_sums(sim));
        dc_sim_destroy(sim);
    }
}

static void test_site_cap_hold(void)
{
    const char *sets[] = {"power.site_cap_mw=0.06", "power.cap_policy=\"hold\""};
    dc_sim *sim = run_text(base_cfg, sets, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_series *it = series(sim, "power_it_w");
    for (size_t i = 0; i < dc_series_length(it); i++)
        CU_ASSERT(dc_series_values(it)[i] <= 60000.0);
    double held = 8 * (2800.0 + 8 * 70.0) + 2 * (1000.0 + 8 * 70.0) + 1500.0 + 2000.0;
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 3600.0), held, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.power_cap"), 64 * 48.0, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
    /* A cap above the demand holds nothing. */
    const char *sets2[] = {"power.site_cap_mw=0.08", "power.cap_policy=\"hold\""};
    sim = run_text(base_cfg, sets2, 2, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 64 * 48.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.cap_throttled_h"), 0.0, 0.0);
    dc_sim_destroy(sim);
}

/* Issue 18 item 14: a job held at speed 0 by the hold policy computes
 * nothing, so it takes no checkpoint; its time is held (job.time_held_h,
 * /jobs state "held"), its GPU-hours all power_cap.  Before: "running" for
 * the whole run with a checkpoint every interval.  Two jobs of 4 nodes (8
 * and 2 spares idle) with checkpoints every 1800 s of computing, 60 s each,
 * under 56 kW: A computing and B held draw 4 (2800 + 8 x 700) + 4 (2800 +
 * 8 x 70) + 2 (1000 + 8 x 70) + 1500 + 2000 = 53,660 W; B computing too
 * would add 32 x 630 = 20,160 W, and even while A checkpoints (4 (2800 + 8
 * (70 + 63)), storage active) 58,676 W: B is held until A ends.  A's 320
 * GPU-h take 36,000 s of computing and 19 checkpoints (none at the end):
 * it ends at 37,140 s.  Then B computes, 56,000 >= 46,460 W, for the 135,660
 * s left of 2 days: 72 cycles of 1,860 s and 1,740 s more. */
static void test_hold_no_checkpoint(void)
{
    static const char cfg[] =
        "horizon_days = 2.0; stop_when_done = false;\n"
        "cluster = { nodes = 8; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "checkpoint = { interval_s = 1800.0; size_gb = 600.0; write_gb_per_s = 10.0; };\n"
        "jobs = ( { name = \"A\"; nodes = 4; work_gpu_h = 320.0; restart_s = 0.0; },\n"
        "         { name = \"B\"; nodes = 4; work_gpu_h = 1e9; restart_s = 0.0; } );\n"
        "power = { network = { switches = 3; switch_w = 500.0; };\n"
        "          storage = ( { name = \"s\"; idle_kw = 2.0; active_kw = 5.0; } );\n"
        "          site_cap_mw = 0.056; cap_policy = \"hold\"; };\n";
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_series *it = series(sim, "power_it_w");
    for (size_t i = 0; i < dc_series_length(it); i++)
        CU_ASSERT(dc_series_values(it)[i] <= 56000.0);
    double a_end = 36000.0 + 19 * 60.0, left = 2 * 86400.0 - a_end;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "end_h"), a_end / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 0, "checkpoints"), 19, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "checkpoints"), 72, 0); /* 92 before */
    CU_ASSERT(dc_simrun_job_text_is(sim, 1, "state", "unfinished"));
    double b_run_s = left - 72 * 60.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "gpu_hours.useful"), 32 * b_run_s / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "gpu_hours.checkpoint"), 32 * 72 * 60.0 / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_job_cell(sim, 1, "gpu_hours.power_cap"), 32 * a_end / 3600.0, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);

    /* Held all along (one job of 8 nodes under 60 kW, as test_site_cap_hold):
     * no checkpoint (92 before), held 48 h, running 0 h. */
    static const char one[] =
        "horizon_days = 2.0; stop_when_done = false;\n"
        "cluster = { nodes = 8; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "checkpoint = { interval_s = 1800.0; size_gb = 600.0; write_gb_per_s = 10.0; };\n"
        "job = { nodes = 8; work_gpu_h = 1e9; restart_s = 0.0; };\n"
        "power = { network = { switches = 3; switch_w = 500.0; };\n"
        "          storage = ( { name = \"s\"; idle_kw = 2.0; active_kw = 5.0; } );\n"
        "          site_cap_mw = 0.06; cap_policy = \"hold\"; };\n";
    sim = run_text(one, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.checkpoints"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.time_held_h"), 48.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.time_running_h"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.time_checkpointing_h"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.power_cap"), 64 * 48.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.checkpoint"), 0.0, 0.0);
    CU_ASSERT(dc_simrun_job_text_is(sim, 0, "state", "held"));
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
}

/* GPU-granular allocation: a partly used node draws busy power for its
 * used GPUs (each with a gpus_per_node-th of host_w) and idle power for its
 * free ones (70 W and a share of host_idle_w: 195 W), so the IT energy is
 * the GPU-hour breakdown priced per line.  Two nodes of 8 GPUs; A (3 GPUs,
 * 30 GPU-h: 10 h) and B (2 GPUs, 10 GPU-h: 5 h) share node 0 (best fit):
 * 40 busy GPU-h at 1,050 W, gpu_hours.idle_spare 384 - 40 = 344 GPU-h at
 * 195 W, a 500 W switch for 24 h: 121.08 kWh, 7,895 W at the start.
 * Before: the shared node's 11 free GPUs and their host share drew 0. */
static void test_shared_node_idle(void)
{
    static const char cfg[] =
        "horizon_days = 1.0; stop_when_done = false;\n"
        "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2; };\n"
        "jobs = ( { name = \"A\"; gpus = 3; work_gpu_h = 30.0; restart_s = 0.0; },\n"
        "         { name = \"B\"; gpus = 2; work_gpu_h = 10.0; restart_s = 0.0; } );\n"
        "power = { network = { switches = 1; switch_w = 500.0; }; };\n";
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 40.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 344.0, 1e-9);
    double busy_w = 700.0 + 2800.0 / 8, free_w = 70.0 + 1000.0 / 8;
    double ledger_kwh = (dc_simrun_fig(sim, "gpu_hours.useful") * busy_w
                         + dc_simrun_fig(sim, "gpu_hours.idle_spare") * free_w + 24 * 500.0) / 1e3;
    CU_ASSERT_DOUBLE_EQUAL(ledger_kwh, 121.08, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_energy_kwh"), ledger_kwh, 1e-9);
    const dc_series *it = series(sim, "power_it_w");
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 1.0), 5 * busy_w + 11 * free_w + 500.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 6 * 3600.0), 3 * busy_w + 13 * free_w + 500.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 11 * 3600.0), 16 * free_w + 500.0, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);

    /* With node types, each type's free GPUs at its own idle figures: a
     * 1-GPU job on type b (GPU idle 100 W, host idle 1,600 W): its node
     * draws 1,050 + 7 x (100 + 200) = 3,150 W, type a's idle node 1,560 W. */
    static const char typed[] =
        "horizon_days = 1.0; stop_when_done = false;\n"
        "cluster = { nodes = 2; gpus_per_node = 8; nodes_per_rack = 2;\n"
        "  types = ( { name = \"a\"; nodes = 1; },\n"
        "            { name = \"b\"; nodes = 1; gpu_idle_w = 100.0; host_idle_w = 1600.0; } ); };\n"
        "jobs = ( { name = \"A\"; gpus = 1; type = \"b\"; work_gpu_h = 100.0; restart_s = 0.0; } );\n"
        "power = { network = { switches = 1; switch_w = 500.0; }; };\n";
    sim = run_text(typed, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.type.b.it_energy_kwh"), 24 * 3150.0 / 1e3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.type.a.it_energy_kwh"), 24 * 1560.0 / 1e3, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_mean_mw"), (3150.0 + 1560.0 + 500.0) / 1e6, 1e-15);
    dc_sim_destroy(sim);
}

static void test_gpu_and_rack_caps(void)
{
    /* nvidia-smi -pl 500 on every GPU */
    const char *sets[] = {"power.gpu.cap_w=500.0"};
    dc_sim *sim = run_text(base_cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double f = cbrt(430.0 / 630.0), speed = 1.0 / (0.8 / f + 0.2);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 64 * 48.0 * speed, 1e-9 * 64 * 48);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), (P_RUN - 64 * 200.0) / 1e6, 1e-12);
    dc_sim_destroy(sim);
    /* 25 kW per rack of 4 nodes: (6250 - 2800) / 8 = 431.25 W per GPU */
    const char *sets2[] = {"power.rack_cap_kw=25.0"};
    sim = run_text(base_cfg, sets2, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    f = cbrt((431.25 - 70.0) / 630.0);
    speed = 1.0 / (0.8 / f + 0.2);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 64 * 48.0 * speed, 1e-9 * 64 * 48);
    /* no rack exceeds its cap: both job racks are full, at 4 x (2800 + 8 x 431.25) = 25 kW */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.it_peak_mw"), (2 * 25000.0 + 3120.0 + 3500.0) / 1e6, 1e-12);
    dc_sim_destroy(sim);
}

/* ---------- thermal ---------- */

/* A test model that acts at set times: cooling units down or up, a node
 * failure outside the failures list. */
enum act { UNIT_DOWN, UNIT_UP, FAIL_NODE0 };
typedef struct action {
    double at_s;
    enum act what;
} action;
typedef struct script_state {
    dc_sim *sim;
    const action *plan;
    size_t n;
} script_state;

static void script_fire(dc_sim *sim, void *ctx, uint64_t i)
{
    script_state *s = ctx;
    switch (s->plan[i].what) {
    case UNIT_DOWN:
        CU_ASSERT(dc_cooling_unit_down(dc_cooling_of(sim)));
        break;
    case UNIT_UP:
        CU_ASSERT(dc_cooling_unit_up(dc_cooling_of(sim)));
        break;
    case FAIL_NODE0: {
        uint32_t node = 0;
        dc_cluster_fail(dc_cluster_of(sim), -1, "test", &node, 1, -1);
        break;
    }
    }
}

static int script_start(void *state, dc_sim *sim, dc_error *err)
{
    script_state *s = state;
    for (size_t i = 0; i < s->n; i++)
        dc_sim_at(sim, s->plan[i].at_s, script_fire, s, i);
    return DC_OK;
}

#define SCRIPT(NAME, ...)                                                                         \
    static const action NAME##_plan[] = {__VA_ARGS__};                                            \
    static int NAME##_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)       \
    {                                                                                             \
        script_state *s = state;                                                                  \
        s->sim = sim;                                                                             \
        s->plan = NAME##_plan;                                                                    \
        s->n = sizeof NAME##_plan / sizeof NAME##_plan[0];                                        \
        return DC_OK;                                                                             \
    }                                                                                             \
    static const dc_model_type NAME = {.name = #NAME, .state_size = sizeof(script_state),        \
                                       .init = NAME##_init, .start = script_start}

/* 8 nodes, no spares, a 100 kW liquid plant of 4 units (supply 30 C, rise
 * 10 C, tau 600 s: C = 1e4 W/K x 600 s); the job computes at 67.2 kW. */
static const char thermal_cfg[] =
    "horizon_days = 1.0; stop_when_done = false;\n"
    "cluster = { nodes = 8; spare_nodes = 0; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 8; work_gpu_h = 1e9; restart_s = 0.0; };\n"
    "power = { };\n"
    "cooling = { type = \"liquid\"; capacity_kw = 100.0; units = 4; supply_c = 30.0; rise_c = 10.0;\n"
    "            time_constant_s = 600.0; step_s = 60.0; };\n";

#define Q_IDLE (8 * (1000.0 + 8 * 70.0))  /* 12,480 W */
#define Q_RUN (8 * (2800.0 + 8 * 700.0))  /* 67,200 W */

static double first_event(dc_sim *sim, const char *kind)
{
    const dc_eventlog *log = dc_sim_eventlog(sim);
    for (size_t i = 0; i < dc_eventlog_count(log); i++)
        if (strcmp(dc_eventlog_rows(log)[i].kind, kind) == 0)
            return dc_eventlog_rows(log)[i].time_s;
    return NAN;
}

/* A step of heat load at 2 h approaches its steady state with the stated
 * time constant: T(t) = Tss1 + (Tss0 - Tss1) e^(-(t - 2 h) / tau). */
static void test_thermal_step_response(void)
{
    const char *sets[] = {"job.start_s=7200.0"};
    dc_sim *sim = run_text(thermal_cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double tss0 = 30.0 + 10.0 * Q_IDLE / 1e5, tss1 = 30.0 + 10.0 * Q_RUN / 1e5;
    const dc_series *s = series(sim, "temp_inlet_c");
    const double *ts = dc_series_times(s), *vs = dc_series_values(s);
    size_t checked = 0;
    double worst = 0.0;
    for (size_t i = 0; i < dc_series_length(s); i++) {
        double expected = ts[i] < 7200.0 ? tss0 : tss1 + (tss0 - tss1) * exp(-(ts[i] - 7200.0) / 600.0);
        worst = fmax(worst, fabs(vs[i] - expected));
        checked++;
    }
    printf("\n  %zu samples, largest deviation from the closed form %.2e C", checked, worst);
    CU_ASSERT(checked > 60);
    CU_ASSERT(worst < 1e-9);
    /* The time constant read back from two samples (log-linear). */
    double t1 = 7200.0 + 300.0, t2 = 7200.0 + 1500.0;
    double d1 = tss1 - series_at(s, t1), d2 = tss1 - series_at(s, t2);
    CU_ASSERT_DOUBLE_EQUAL((t2 - t1) / log(d1 / d2), 600.0, 1e-6);
    /* time-mean inlet: the closed-form integral */
    double T = 86400.0, after = T - 7200.0;
    double mean = (tss0 * 7200.0 + tss1 * after + (tss0 - tss1) * 600.0 * (1 - exp(-after / 600.0))) / T;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.mean_inlet_c"), mean, 1e-9);
    dc_sim_destroy(sim);
}

SCRIPT(one_unit_down_early, {3600.0, UNIT_DOWN});

/* With one unit of four down the conductance is 3/4: the time constant
 * stretches to 800 s and the steady state rises. */
static void test_thermal_unit_down_tau(void)
{
    const char *sets[] = {"job.start_s=7200.0"};
    dc_sim *sim = run_with(thermal_cfg, sets, 1, 1, &one_unit_down_early);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double g = 0.75e5 / 10.0, tau = 6e6 / g;
    CU_ASSERT_DOUBLE_EQUAL(tau, 800.0, 1e-9);
    double tss0 = 30.0 + 10.0 * Q_IDLE / 1e5, tss0b = 30.0 + Q_IDLE / g, tss1 = 30.0 + Q_RUN / g;
    double t_at_start = tss0b + (tss0 - tss0b) * exp(-3600.0 / tau);
    const dc_series *s = series(sim, "temp_inlet_c");
    double worst = 0.0;
    for (size_t i = 0; i < dc_series_length(s); i++) {
        double t = dc_series_times(s)[i];
        double e = t < 3600.0 ? tss0 : t < 7200.0 ? tss0b + (tss0 - tss0b) * exp(-(t - 3600.0) / tau)
                                                  : tss1 + (t_at_start - tss1) * exp(-(t - 7200.0) / tau);
        worst = fmax(worst, fabs(dc_series_values(s)[i] - e));
    }
    CU_ASSERT(worst < 1e-9);
    CU_ASSERT(tss1 < 40.0); /* still within the available capacity */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.heat_lost_gpu_h"), 0.0, 0.0);
    dc_sim_destroy(sim);
}

SCRIPT(one_unit_down, {7200.0, UNIT_DOWN}, {36000.0, UNIT_UP});
SCRIPT(two_units_down, {7200.0, UNIT_DOWN}, {7200.0, UNIT_DOWN}, {36000.0, UNIT_UP}, {36000.0, UNIT_UP});

/* 67.2 kW of heat: one unit down leaves 75 kW, enough (the inlet rises but
 * stays below throttle_c): no throttling.  Two down leave 50 kW: the inlet
 * reaches T_sat, rises linearly to throttle_c (45 C) at the predicted time,
 * and the GPUs hold it there at exactly 50 kW, slowed by the stated law. */
static void test_unit_failure_throttles_when_it_should(void)
{
    dc_sim *sim = run_with(thermal_cfg, NULL, 0, 1, &one_unit_down);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* from equilibrium with the idle nodes at 0, the job's heat from 0 */
    double tss0 = 30.0 + 10.0 * Q_IDLE / 1e5, tss1 = 30.0 + 10.0 * Q_RUN / 1e5, tss_a = 30.0 + Q_RUN / 7500.0;
    double t2h = tss1 + (tss0 - tss1) * exp(-7200.0 / 600.0);
    double peak = tss_a + (t2h - tss_a) * exp(-(36000.0 - 7200.0) / 800.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.max_inlet_c"), peak, 1e-9);
    CU_ASSERT(peak > tss1 + 2.0 && peak < 45.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.throttle_events"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.thermal"), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.unit_down_h"), 8.0, 1e-9);
    dc_sim_destroy(sim);

    sim = run_with(thermal_cfg, NULL, 0, 1, &two_units_down);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* exponential towards 30 + 67.2/5 = 43.44 C with tau 1200 s up to 40 C,
     * then (67.2 - 50) kW / 6 MJ/K up to 45 C */
    double tau = 1200.0, tss = 30.0 + Q_RUN / 5000.0;
    double t_sat = tau * log((tss - t2h) / (tss - 40.0));
    double t_thr = 7200.0 + t_sat + 5.0 * 6e6 / (Q_RUN - 50000.0);
    printf("\n  two units down at 2 h: throttle predicted at %.3f s, simulated %.3f s", t_thr,
           first_event(sim, "heat_throttle"));
    CU_ASSERT_DOUBLE_EQUAL(first_event(sim, "heat_throttle"), t_thr, 1e-6);
    const dc_series *it = series(sim, "power_it_w");
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, t_thr + 60.0), 50000.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "temp_inlet_c"), 30000.0), 45.0, 1e-9);
    /* held at 50 kW: per-GPU (50000 - 8 x 2800) / 64 = 431.25 W */
    double f = cbrt((431.25 - 70.0) / 630.0), speed = 1.0 / (0.8 / f + 0.2);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "throttle_thermal"), 30000.0), speed, 1e-12);
    double hold_h = (36000.0 - t_thr) / 3600.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.thermal"), 64 * hold_h * (1 - speed), 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.heat_throttled_h"), hold_h, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
}

SCRIPT(all_units_down, {7200.0, UNIT_DOWN}, {7200.0, UNIT_DOWN}, {7200.0, UNIT_DOWN}, {7200.0, UNIT_DOWN},
       {36000.0, UNIT_UP}, {36000.0, UNIT_UP}, {36000.0, UNIT_UP}, {36000.0, UNIT_UP});

/* No cooling at all: the inlet ramps to throttle_c, the GPUs fall to their
 * lowest clocks (35.2 kW), it ramps on to shutdown_c, every node shuts down
 * (the job is interrupted), and the nodes come back when the repaired plant
 * has cooled the inlet to resume_c (linearly: above T_sat the plant runs at
 * its capacity). */
static void test_thermal_shutdown(void)
{
    dc_sim *sim = run_with(thermal_cfg, NULL, 0, 1, &all_units_down);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double tss0 = 30.0 + 10.0 * Q_IDLE / 1e5, tss1 = 30.0 + 10.0 * Q_RUN / 1e5;
    double t2h = tss1 + (tss0 - tss1) * exp(-7200.0 / 600.0), floor_w = 8 * (2800.0 + 8 * 200.0);
    double t_thr = 7200.0 + (45.0 - t2h) * 6e6 / Q_RUN;
    double t_down = t_thr + 10.0 * 6e6 / floor_w;
    /* repaired: the plant removes its full 100 kW down to T_sat = 40 C = resume_c */
    double t_up = 36000.0 + (55.0 - 40.0) * 6e6 / 1e5;
    CU_ASSERT_DOUBLE_EQUAL(first_event(sim, "heat_throttle"), t_thr, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(first_event(sim, "heat_shutdown"), t_down, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(first_event(sim, "heat_resume"), t_up, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.shutdowns"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.max_inlet_c"), 55.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.shutdown_gpu_h"), 64 * (t_up - t_down) / 3600.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.heat_shutdown"), 64 * (t_up - t_down) / 3600.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), 0.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cooling.overheat_h"), (t_down - t_thr) / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "power_it_w"), t_down + 1.0), 0.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(series_at(series(sim, "power_it_w"), t_up + 1.0), Q_RUN, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
}

/* Random unit failures: the count is Poisson in the unit up-time, and the
 * down time matches the repair law (99% intervals). */
static void test_unit_failures_statistics(void)
{
    const char *sets[] = {"horizon_days=2000.0", "cooling.failure.mtbf_h=500.0", "cooling.repair.mean_h=20.0",
                          "cooling.step_s=86400.0"};
    dc_sim *sim = run_text(thermal_cfg, sets, 4, 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double up_h = 4 * 2000 * 24.0 - dc_simrun_fig(sim, "cooling.unit_down_h");
    double expected = up_h / 500.0, n = dc_simrun_fig(sim, "cooling.unit_failures");
    printf("\n  cooling unit failures %.0f, expected %.1f +- %.1f", n, expected, DC_Z99 * sqrt(expected));
    CU_ASSERT(fabs(n - expected) <= DC_Z99 * sqrt(expected));
    /* mean repair = down time / repairs: exponential, sd = mean */
    double mean = dc_simrun_fig(sim, "cooling.unit_down_h") / n;
    CU_ASSERT(fabs(mean - 20.0) <= DC_Z99 * 20.0 / sqrt(n));
    dc_sim_destroy(sim);
}

/* ---------- idle shutdown ---------- */

SCRIPT(fail_node0_at_2h, {7200.0, FAIL_NODE0});

static void test_idle_shutdown(void)
{
    const char cfg[] = "horizon_days = 1.0; stop_when_done = false;\n"
                       "cluster = { nodes = 4; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
                       "job = { nodes = 4; work_gpu_h = 1e9; restart_s = 600.0; };\n"
                       "power = { idle_shutdown = { after_s = 3600.0; power_up_s = 1800.0; }; };\n";
    dc_sim *sim = run_with(cfg, NULL, 0, 1, &fail_node0_at_2h);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const dc_series *it = series(sim, "power_it_w");
    double busy = 2800.0 + 8 * 700.0, spare = 1000.0 + 8 * 70.0;
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 3000.0), 4 * busy + 2 * spare, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 5000.0), 4 * busy, 1e-9); /* spares off */
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 7500.0), 4 * (2800.0 + 8 * (70 + 0.1 * 630)), 1e-9); /* restarting */
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 8000.0), 4 * (2800.0 + 8 * 70.0), 1e-9); /* waiting for the boot */
    CU_ASSERT_DOUBLE_EQUAL(series_at(it, 9500.0), 4 * busy, 1e-9);
    /* the boot (1800 s from 7200) outlasts the restart (600 s) by 1200 s */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.power_up"), 32 * 1200.0 / 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.boots"), 1.0, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.off_node_h"), (86400.0 - 3600.0 + 7200.0 - 3600.0) / 3600.0, 1e-9);
    CU_ASSERT(breakdown_sums(sim));
    dc_sim_destroy(sim);
}

/* ---------- tariffs ---------- */

static void test_time_of_use(void)
{
    /* starts at 06:00; 00-08 at 0.05, 08-20 at 0.20, 20-24 at 0.10 USD/kWh */
    const char *sets[] = {"environment.start_day_of_year=1.25"};
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "environment = { price = { source = \"tou\"; periods = ( { from_hour = 0.0; usd_per_kwh = 0.05; },\n"
             "  { from_hour = 8.0; usd_per_kwh = 0.20; }, { from_hour = 20.0; usd_per_kwh = 0.10; } ); }; };\n");
    dc_sim *sim = run_text(cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double kw = P_RUN / ETA / 1000.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.energy_cost_usd"), kw * 2 * (8 * 0.05 + 12 * 0.20 + 4 * 0.10), 1e-8);
    const dc_series *p = series(sim, "price_usd_per_kwh");
    CU_ASSERT_EQUAL(dc_series_length(p), 7); /* 06:00, then 08, 20, 00, 08, 20, 00 */
    CU_ASSERT_DOUBLE_EQUAL(dc_series_values(p)[0], 0.05, 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_times(p)[1], 2 * 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_times(p)[2], 14 * 3600.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_times(p)[3], 18 * 3600.0, 1e-9);
    dc_sim_destroy(sim);
    /* a period list that starts after midnight wraps the last one around */
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "environment = { price = { source = \"tou\"; periods = ( { from_hour = 8.0; usd_per_kwh = 0.20; },\n"
             "  { from_hour = 20.0; usd_per_kwh = 0.10; } ); }; };\n");
    sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.energy_cost_usd"), kw * 2 * (12 * 0.20 + 12 * 0.10), 1e-8);
    CU_ASSERT_DOUBLE_EQUAL(dc_series_values(series(sim, "price_usd_per_kwh"))[0], 0.10, 0.0);
    dc_sim_destroy(sim);
}

static void test_price_and_carbon_files(void)
{
    write_file("price.csv", "# hourly prices\ntime_h,usd_per_kwh\n0,0.1\n10,0.3\n30,0.2\n40,0.2\n");
    write_file("carbon.csv", "time_h,kg_per_kwh\n0,0.5\n24,0.25\n");
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "environment = { price = { source = \"csv\"; file = \"price.csv\"; };\n"
             "                carbon = { source = \"csv\"; file = \"carbon.csv\"; }; };\n");
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double kw = P_RUN / ETA / 1000.0;
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.energy_cost_usd"), kw * (10 * 0.1 + 20 * 0.3 + 18 * 0.2), 1e-8);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "power.carbon_kg"), kw * (24 * 0.5 + 24 * 0.25), 1e-8);
    CU_ASSERT_EQUAL(dc_series_length(series(sim, "price_usd_per_kwh")), 3);
    dc_sim_destroy(sim);
}

static void test_ambient_sinusoid(void)
{
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "environment = { start_day_of_year = 1.0; ambient = { mean_c = 10.0; seasonal_amplitude_c = 12.0;\n"
             "  daily_amplitude_c = 5.0; warmest_day = 200.0; warmest_hour = 15.0; }; };\n");
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_environment *env = dc_environment_of(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(env);
    /* 19 July (day 200), 15:00 is 199 days and 15 h after 1 January 00:00 */
    double t = (199 * 24 + 15) * 3600.0;
    double season = cos(2 * M_PI * (199 + 15 / 24.0 - 199.5) / 365.25);
    CU_ASSERT_DOUBLE_EQUAL(dc_environment_ambient_c(env, t), 10.0 + 12.0 * season + 5.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_environment_ambient_c(env, t + 12 * 3600.0),
                           10.0 + 12.0 * cos(2 * M_PI * (200.125 - 199.5) / 365.25) - 5.0, 1e-12);
    CU_ASSERT(dc_environment_ambient_varies(env));
    dc_sim_destroy(sim);
}

static void test_ambient_file(void)
{
    write_file("ambient.csv", "time_h,temp_c\n0,10\n24,20\n48,0\n");
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", base_cfg,
             "environment = { ambient = { source = \"csv\"; file = \"ambient.csv\"; }; };\n");
    dc_sim *sim = run_text(cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_environment *env = dc_environment_of(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_environment_ambient_c(env, 6 * 3600.0), 12.5, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_environment_ambient_c(env, 36 * 3600.0), 10.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_environment_ambient_c(env, 48 * 3600.0), 0.0, 1e-12);
    dc_sim_destroy(sim);
}

/* ---------- bad input ---------- */

typedef struct bad_case {
    const char *what;
    const char *set;          /* one override on top of base_cfg + extra */
    const char *extra;        /* appended to base_cfg (may be NULL) */
    const char *fragments[3];
    const char *full;         /* instead of base_cfg + extra */
} bad_case;

/* base_cfg without its power section, to append one. */
#define NO_POWER_CFG                                                                     \
    "horizon_days = 2.0; stop_when_done = false;\n"                                      \
    "cluster = { nodes = 8; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n" \
    "job = { nodes = 8; work_gpu_h = 1e9; restart_s = 0.0; };\n"

static const char cooled[] = "cooling = { type = \"air\"; capacity_kw = 200.0; };\n";

static const bad_case bad_cases[] = {
    {"UPS efficiency above 1", "power.ups_efficiency=1.2", NULL, {"power.ups_efficiency", "1.2"}, NULL},
    {"PDU efficiency 0", "power.pdu_efficiency=0.0", NULL, {"power.pdu_efficiency", "0"}, NULL},
    {"negative response time", "power.response_s=-1.0", NULL, {"power.response_s", "-1"}, NULL},
    {"response time over an hour", "power.response_s=4000.0", NULL, {"power.response_s", "4000"}, NULL},
    {"COP 0", "cooling.cop=0.0", cooled, {"cooling.cop", "0"}, NULL},
    {"negative COP", "cooling.cop=-2.0", cooled, {"cooling.cop", "-2"}, NULL},
    {"free-cooling COP 0", "cooling.free_cooling_cop=0.0", cooled, {"cooling.free_cooling_cop"}, NULL},
    {"site cap 0", "power.site_cap_mw=0.0", NULL, {"power.site_cap_mw", "0"}, NULL},
    {"negative site cap", "power.site_cap_mw=-3.0", NULL, {"power.site_cap_mw", "-3"}, NULL},
    {"rack cap 0", "power.rack_cap_kw=0.0", NULL, {"power.rack_cap_kw"}, NULL},
    {"GPU cap 0", "power.gpu.cap_w=0.0", NULL, {"power.gpu.cap_w"}, NULL},
    {"GPU cap below its lowest limit", "horizon_days=1.0", NULL,
     {"bad.cfg:5: power.gpu.cap_w", "[min_cap_w, peak_w] = [200, 700] W (got 150 W)"},
     NO_POWER_CFG "power = {\n gpu = { cap_w = 150.0; }; };\n"},
    {"site cap no throttle can meet", "horizon_days=1.0", NULL,
     {"bad.cfg:5: power.site_cap_mw", "0.03 MW is below the 0.050 MW", "no throttle can meet it"},
     NO_POWER_CFG "power = { storage = ( { name = \"s\"; idle_kw = 6.0; } );\n site_cap_mw = 0.03; };\n"},
    {"set site cap no throttle can meet", "power.site_cap_mw=0.03", NULL,
     {"(--set) power.site_cap_mw", "no throttle can meet it"}, NULL},
    {"rack cap no limit can meet", "power.rack_cap_kw=12.0", NULL, {"power.rack_cap_kw", "below min_cap_w"}, NULL},
    {"idle above peak", "power.gpu.idle_w=800.0", NULL, {"power.gpu.idle_w", "below peak_w"}, NULL},
    {"cooling without power", "horizon_days=1.0", NULL, {"bad.cfg:4: cooling", "cooling needs a power section"},
     NO_POWER_CFG "cooling = { type = \"air\"; capacity_kw = 1.0; };\n"},
    {"unknown cooling type", "cooling.type=\"ice\"", cooled, {"cooling.type", "ice"}, NULL},
    {"throttle above shutdown", "cooling.throttle_c=50.0", cooled, {"cooling.shutdown_c", "must be above"}, NULL},
    {"resume above throttle", "cooling.resume_c=33.0", cooled, {"cooling.resume_c", "between"}, NULL},
    {"failing units without repair", "cooling.failure.mtbf_h=100.0", cooled, {"cooling.failure", "repair"}, NULL},
    {"negative price", "environment.price.usd_per_kwh=-0.1", NULL, {"environment.price.usd_per_kwh", "-0.1"}, NULL},
    {"csv price without a file", "environment.price.source=\"csv\"", NULL, {"environment.price", "needs file"}, NULL},
    {"file with a flat price", "environment.price.file=\"price.csv\"",
     "environment = { price = { usd_per_kwh = 0.1; }; };\n", {"environment.price.file", "only read when"}, NULL},
    {"TOU periods out of order", "horizon_days=2.0",
     "environment = { price = { source = \"tou\"; periods = ( { from_hour = 8.0; usd_per_kwh = 0.1; },\n"
     "  { from_hour = 6.0; usd_per_kwh = 0.2; } ); }; };\n",
     {"bad.cfg:7", "environment.price.periods.[1].from_hour", "increasing"}, NULL},
    {"TOU hour 24", "horizon_days=2.0",
     "environment = { price = { source = \"tou\"; periods = ( { from_hour = 24.0; usd_per_kwh = 0.1; } ); }; };\n",
     {"environment.price.periods.[0].from_hour", "24"}, NULL},
    {"missing price file", "horizon_days=2.0",
     "environment = { price = { source = \"csv\"; file = \"nonexistent.csv\"; }; };\n",
     {"bad.cfg:6: environment.price.file", "cannot read", "nonexistent.csv"}, NULL},
    {"price file with a malformed line", "horizon_days=2.0",
     "environment = { price = { source = \"csv\"; file = \"bad_price.csv\"; }; };\n",
     {"environment.price.file", "bad_price.csv:4: column usd_per_kwh: expected a number (got \"0,2\")"}, NULL},
    {"price file with a short line", "horizon_days=2.0",
     "environment = { price = { source = \"csv\"; file = \"short_price.csv\"; }; };\n",
     {"short_price.csv:3: expected 2 fields"}, NULL},
    {"price file not covering the run", "horizon_days=3.0",
     "environment = { price = { source = \"csv\"; file = \"cover_price.csv\"; }; };\n",
     {"cover_price.csv:5: column time_h", "covers 50 h but the run lasts 72 h"}, NULL},
    {"price file with times out of order", "horizon_days=1.0",
     "environment = { price = { source = \"csv\"; file = \"order_price.csv\"; }; };\n",
     {"order_price.csv:4: column time_h: times must increase"}, NULL},
    {"price file not from 0", "horizon_days=1.0",
     "environment = { price = { source = \"csv\"; file = \"late_price.csv\"; }; };\n",
     {"late_price.csv:2: column time_h: the series must start at time 0"}, NULL},
    {"price file with the wrong column", "horizon_days=1.0",
     "environment = { price = { source = \"csv\"; file = \"ambient.csv\"; }; };\n",
     {"ambient.csv:1: no column \"usd_per_kwh\""}, NULL},
    {"ambient file out of range", "horizon_days=1.0",
     "environment = { ambient = { source = \"csv\"; file = \"hot.csv\"; }; };\n",
     {"hot.csv:3: column temp_c: out of range"}, NULL},
};

static void write_bad_files(void)
{
    write_file("bad_price.csv", "time_h,usd_per_kwh\n0,0.1\n# a comment line\n10,\"0,2\"\n");
    write_file("short_price.csv", "time_h,usd_per_kwh\n0,0.1\n10\n");
    write_file("order_price.csv", "time_h,usd_per_kwh\n0,0.1\n10,0.2\n5,0.3\n");
    write_file("late_price.csv", "time_h,usd_per_kwh\n1,0.1\n30,0.2\n");
    write_file("hot.csv", "time_h,temp_c\n0,20\n24,95\n");
    write_file("cover_price.csv", "time_h,usd_per_kwh\n0,0.1\n10,0.3\n30,0.2\n40,0.2\n");
}

static void test_bad_inputs(void)
{
    write_bad_files();
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *bc = &bad_cases[i];
        char cfg[4096];
        if (bc->full)
            snprintf(cfg, sizeof cfg, "%s", bc->full);
        else
            snprintf(cfg, sizeof cfg, "%s%s", base_cfg, bc->extra ? bc->extra : "");
        dc_error err = {0};
        const char *sets[] = {bc->set};
        int rc = build_error(cfg, sets, 1, &err);
        bool ok = rc == DC_EINPUT || rc == DC_EIO;
        for (size_t f = 0; f < 3 && bc->fragments[f]; f++)
            ok = ok && strstr(err.msg, bc->fragments[f]) != NULL;
        if (!ok)
            fprintf(stderr, "\n  bad input '%s': rc %d, message: %s", bc->what, rc, err.msg);
        CU_ASSERT(ok);
    }
}

/* The program: exit status 2, the message, nothing on stdout, no trace. */
static void test_cli_bad_inputs(void)
{
    const char *dcsim = getenv("DCSIM");
    if (!dcsim) {
        printf("\n  DCSIM not set: skipped (make check sets it)");
        return;
    }
    write_bad_files();
    static const struct {
        const char *extra;
        const char *set;
        const char *fragment;
    } cases[] = {
        {"environment = { price = { source = \"csv\"; file = \"bad_price.csv\"; }; };\n", "horizon_days=2.0",
         "bad_price.csv:4: column usd_per_kwh: expected a number"},
        {cooled, "cooling.cop=0.0", "cooling.cop"},
        {NULL, "power.ups_efficiency=1.5", "power.ups_efficiency"},
        {NULL, "power.site_cap_mw=0.0", "power.site_cap_mw"},
        {NULL, "power.site_cap_mw=0.01", "no throttle can meet it"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char cfg[4096];
        snprintf(cfg, sizeof cfg, "%s%s", base_cfg, cases[i].extra ? cases[i].extra : "");
        const char *extra[] = {"--set", cases[i].set, NULL};
        dc_test_bad_run(tmpdir, cases[i].set, cfg, extra, &cases[i].fragment, 1);
    }
}

/* ---------- the whole ---------- */

static const char full_cfg[] =
    "horizon_days = 30.0; stop_when_done = false;\n"
    "cluster = { nodes = 16; spare_nodes = 2; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 16; work_gpu_h = 1e9; restart_s = 300.0; };\n"
    "checkpoint = { interval_s = \"auto\"; size_gb = 600.0; write_gb_per_s = 20.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; },\n"
    "             { name = \"sw\"; per = \"job\"; mtbf_h = 24.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n"
    "power = { site_cap_mw = 0.14; network = { switches = 4; }; idle_shutdown = { after_s = 7200.0; };\n"
    "          storage = ( { name = \"s\"; idle_kw = 2.0; active_kw = 4.0; } ); };\n"
    "cooling = { type = \"air\"; capacity_kw = 150.0; units = 3; derate_per_c = 0.03; design_ambient_c = 30.0;\n"
    "            failure = { mtbf_h = 300.0; }; repair = { law = \"lognormal\"; median_h = 12.0; sigma = 1.0; }; };\n"
    "environment = { start_day_of_year = 180.0;\n"
    "  ambient = { mean_c = 28.0; seasonal_amplitude_c = 8.0; daily_amplitude_c = 7.0; };\n"
    "  price = { source = \"tou\"; periods = ( { from_hour = 7.0; usd_per_kwh = 0.15; },\n"
    "                                        { from_hour = 22.0; usd_per_kwh = 0.07; } ); };\n"
    "  carbon = { kg_per_kwh = 0.4; }; };\n";

/* Series off (a sweep's replications, a run without a trace): the summary is
 * bit for bit the same and every series stays empty, the IT and facility
 * power too (their peaks and swings come from dc_swing as the run goes). */
static void test_series_off_same_summary(void)
{
    dc_sim *a = run_text(full_cfg, NULL, 0, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    dc_error err = {0};
    char name[128];
    snprintf(name, sizeof name, "%s/test.cfg", tmpdir);
    dc_scenario *sc = dc_simrun_load(full_cfg, name, NULL, 0, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *b = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_build(sc, 3, &b, &err), DC_OK);
    dc_scenario_destroy(sc);
    dc_series_set_enable(dc_sim_series_set(b), false);
    b = dc_simrun_run(b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT_TRUE(dc_simrun_same_summary(a, b));
    CU_ASSERT_TRUE(dc_simrun_fig(a, "power.swing_1h_mw") > 0.0);
    const char *powers[] = {"power_it_w", "power_facility_w"};
    for (size_t i = 0; i < 2; i++) {
        CU_ASSERT_TRUE(dc_series_length(series(a, powers[i])) > 10);
        CU_ASSERT_EQUAL(dc_series_length(series(b, powers[i])), 0);
    }
    CU_ASSERT_TRUE(dc_series_length(series(a, "pue")) > 10);
    CU_ASSERT_EQUAL(dc_series_length(series(b, "pue")), 0);
    CU_ASSERT_EQUAL(dc_series_length(series(b, "nodes_up")), 0);
    dc_sim_destroy(a);
    dc_sim_destroy(b);
}

/* The same summary and the same series, bit for bit. */
static void same_runs(dc_sim *a, dc_sim *b)
{
    CU_ASSERT_TRUE(dc_simrun_same_summary(a, b));
    dc_series_set *xa = dc_sim_series_set(a), *xb = dc_sim_series_set(b);
    CU_ASSERT_EQUAL_FATAL(dc_series_set_count(xa), dc_series_set_count(xb));
    for (size_t i = 0; i < dc_series_set_count(xa); i++) {
        const dc_series *p = dc_series_set_at(xa, i), *q = dc_series_set_at(xb, i);
        CU_ASSERT_EQUAL_FATAL(dc_series_length(p), dc_series_length(q));
        CU_ASSERT(memcmp(dc_series_times(p), dc_series_times(q), dc_series_length(p) * sizeof(double)) == 0);
        CU_ASSERT(memcmp(dc_series_values(p), dc_series_values(q), dc_series_length(p) * sizeof(double)) == 0);
    }
}

static void test_full_determinism_and_breakdown(void)
{
    dc_sim *a = run_text(full_cfg, NULL, 0, 3), *b = run_text(full_cfg, NULL, 0, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    same_runs(a, b);
    /* everything moved: throttling by heat and by the cap, unit failures */
    printf("\n  30 days: PUE %.3f, heat-throttled %.1f h, cap-throttled %.1f h, unit failures %.0f, "
           "shutdowns %.0f, swing 1 min %.3f MW",
           dc_simrun_fig(a, "power.pue"), dc_simrun_fig(a, "power.heat_throttled_h"), dc_simrun_fig(a, "power.cap_throttled_h"),
           dc_simrun_fig(a, "cooling.unit_failures"), dc_simrun_fig(a, "cooling.shutdowns"), dc_simrun_fig(a, "power.swing_1min_mw"));
    CU_ASSERT(dc_simrun_fig(a, "power.heat_throttled_h") > 0);
    CU_ASSERT(dc_simrun_fig(a, "power.cap_throttled_h") > 0);
    CU_ASSERT(dc_simrun_fig(a, "cooling.unit_failures") > 0);
    CU_ASSERT(breakdown_sums(a));
    /* the cap holds sample-wise through all of it */
    const dc_series *it = series(a, "power_it_w");
    for (size_t i = 0; i < dc_series_length(it); i++)
        CU_ASSERT(dc_series_values(it)[i] <= 140000.0 * (1 + 1e-12));
    /* energies add up; the swing matches a brute-force scan */
    double parts = dc_simrun_fig(a, "power.it_energy_kwh") + dc_simrun_fig(a, "power.loss_energy_kwh") + dc_simrun_fig(a, "power.cooling_energy_kwh");
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(a, "power.facility_energy_kwh"), parts, 1e-9 * parts);
    const dc_series *fac = series(a, "power_facility_w");
    double sw = swing_brute(dc_series_times(fac), dc_series_values(fac), dc_series_length(fac), dc_sim_now(a), 3600.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(a, "power.swing_1h_mw"), sw / 1e6, 1e-12);
    dc_sim *c = run_text(full_cfg, NULL, 0, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(dc_simrun_fig(c, "power.facility_energy_kwh") != dc_simrun_fig(a, "power.facility_energy_kwh"));
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    dc_sim_destroy(c);
}

/* Runs a scenario file of the source tree; NULL (after a CUnit failure) if
 * it does not run. */
static dc_sim *run_file(const char *src, const char *rel)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", src, rel);
    return dc_simrun_file(path, NULL, 0, -1);
}

/* The repository's scenarios with power and cooling run and tell their story. */
static void test_scenarios(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        printf("\n  DCSIM_SRCDIR not set: skipped (make check sets it)");
        return;
    }
    dc_sim *flag = run_file(src, "scenarios/10k_gpu.cfg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(flag);
    double pue = dc_simrun_fig(flag, "power.pue"), it = dc_simrun_fig(flag, "power.it_peak_mw");
    printf("\n  10k_gpu: PUE %.3f, IT peak %.2f MW, swing 1 min %.2f MW, cost %.2f MUSD", pue, it,
           dc_simrun_fig(flag, "power.swing_1min_mw"), dc_simrun_fig(flag, "power.energy_cost_usd") / 1e6);
    /* liquid cooled: about 1.1 (planning notes); 10,240 H100 at 700 W plus hosts, capped at 12 MW */
    CU_ASSERT(pue > 1.05 && pue < 1.15);
    CU_ASSERT(it > 10.0 && it <= 12.0 * (1 + 1e-12));
    CU_ASSERT(dc_simrun_fig(flag, "power.swing_1min_mw") > 5.0);
    CU_ASSERT(breakdown_sums(flag));

    /* The pair: same IT work, air costs more cooling energy than liquid. */
    dc_sim *air = run_file(src, "scenarios/power/air_hot.cfg");
    dc_sim *liq = run_file(src, "scenarios/power/liquid_hot.cfg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(air);
    CU_ASSERT_PTR_NOT_NULL_FATAL(liq);
    double pa = dc_simrun_fig(air, "power.pue"), pl = dc_simrun_fig(liq, "power.pue");
    printf("\n  hot site, a year: PUE air %.3f, liquid %.3f; cost air %.2f, liquid %.2f MUSD", pa, pl,
           dc_simrun_fig(air, "power.energy_cost_usd") / 1e6, dc_simrun_fig(liq, "power.energy_cost_usd") / 1e6);
    CU_ASSERT(pa > 1.2 && pa < 1.5);
    CU_ASSERT(pl > 1.05 && pl < 1.25);
    CU_ASSERT(dc_simrun_fig(air, "power.cooling_energy_kwh") > 1.5 * dc_simrun_fig(liq, "power.cooling_energy_kwh"));
    double ia = dc_simrun_fig(air, "power.it_energy_kwh"), il = dc_simrun_fig(liq, "power.it_energy_kwh");
    CU_ASSERT(fabs(ia - il) < 1e-3 * ia);
    CU_ASSERT(dc_simrun_fig(air, "cooling.max_ambient_c") > 40.0);
    CU_ASSERT(breakdown_sums(air) && breakdown_sums(liq));

    /* A 10 MW cap under a 12.2 MW demand: never exceeded, the job slower. */
    dc_sim *cap = run_file(src, "scenarios/power/capped_site.cfg");
    CU_ASSERT_PTR_NOT_NULL_FATAL(cap);
    const dc_series *s = series(cap, "power_it_w");
    for (size_t i = 0; i < dc_series_length(s); i++)
        CU_ASSERT(dc_series_values(s)[i] <= 10e6 * (1 + 1e-12));
    printf("\n  capped site: %.1f days against %.1f, %.0f GPU-h lost to the cap",
           dc_simrun_fig(cap, "job.completion_days"), dc_simrun_fig(flag, "job.completion_days"), dc_simrun_fig(cap, "gpu_hours.power_cap"));
    CU_ASSERT(dc_simrun_fig(cap, "job.completion_days") > 1.05 * dc_simrun_fig(flag, "job.completion_days"));
    CU_ASSERT(dc_simrun_fig(cap, "gpu_hours.power_cap") > 5 * dc_simrun_fig(flag, "gpu_hours.power_cap"));
    CU_ASSERT(dc_simrun_fig(cap, "power.off_node_h") > 0);
    CU_ASSERT(breakdown_sums(cap));
    dc_sim_destroy(flag);
    dc_sim_destroy(air);
    dc_sim_destroy(liq);
    dc_sim_destroy(cap);
}

/* A run built from a file (text NULL) or a text, with a memo on or off
 * (set: dc_power_set_pair_memo or dc_power_set_cap_memo); the sim, or NULL
 * after a test failure. */
static dc_sim *run_memo(const char *path, const char *text, const char *const *sets, size_t n_sets, int64_t seed,
                        void (*set)(dc_power *, bool), bool on)
{
    dc_error err = {0};
    char name[128];
    snprintf(name, sizeof name, "%s/test.cfg", tmpdir);
    dc_scenario *sc = path ? dc_simrun_load_file(path, sets, n_sets, &err) : dc_simrun_load(text, name, sets, n_sets, &err);
    dc_sim *sim = NULL;
    if (!sc || dc_build(sc, seed, &sim, &err) != DC_OK) {
        fprintf(stderr, "\n  build: %s\n", err.msg);
        CU_FAIL("scenario did not build");
        dc_scenario_destroy(sc);
        dc_sim_destroy(sim);
        return NULL;
    }
    dc_scenario_destroy(sc);
    set(dc_power_of(sim), on);
    return dc_simrun_run(sim);
}

/* One job's paired memo (the entry of the computation before last, its
 * key compared with the inputs as read) against the general memo's path:
 * the same summary and the same series, bit for bit, on the flagship
 * (failures, restarts on a spare), the capped site (the cap, idle
 * shutdown and power-up), the hot air-cooled site and the 30-day run with
 * heat limits and unit failures; and the fast path took most of the
 * flagship's computations (off, none). */
static void test_pair_memo(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        printf("\n  DCSIM_SRCDIR not set: skipped (make check sets it)");
        return;
    }
    const char *files[] = {"scenarios/10k_gpu.cfg", "scenarios/power/capped_site.cfg", "scenarios/power/air_hot.cfg",
                           NULL};
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        char path[4096];
        if (files[f])
            snprintf(path, sizeof path, "%s/%s", src, files[f]);
        dc_sim *a = run_memo(files[f] ? path : NULL, full_cfg, NULL, 0, files[f] ? -1 : 3, dc_power_set_pair_memo, true);
        dc_sim *b = run_memo(files[f] ? path : NULL, full_cfg, NULL, 0, files[f] ? -1 : 3, dc_power_set_pair_memo, false);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        same_runs(a, b);
        uint64_t hits = dc_power_pair_hits(dc_power_of(a));
        printf("\n  %s: %" PRIu64 " computations by the paired memo", files[f] ? files[f] : "30 days (text)", hits);
        CU_ASSERT(hits > 0);
        CU_ASSERT_EQUAL(dc_power_pair_hits(dc_power_of(b)), 0);
        if (f == 0) /* the flagship: some 24,800 computations, 1,506 of them new */
            CU_ASSERT(hits > 20000);
        dc_sim_destroy(a);
        dc_sim_destroy(b);
    }
}

/* The site cap's remembered solutions (incremental sums) against a solve
 * at every computation: the same summary and series, bit for bit, on
 * bench/shared.cfg (20,000 stream jobs in 13 utilisation classes under an
 * 11.3 MW cap, each checkpoint taking a job's GPUs out of its class and
 * back) for 2 days, as it is (the cap binds) and with 11 MW of cooling (the
 * heat limit binds too: its pass rebuilds the ranges the solve would have
 * left); and the memo answered many computations (19,020 and 19,051 in 2
 * days: the state before a checkpoint comes back when it ends), with every
 * change seen (power.response_s = 0: the benchmark's 1 s hides them). */
static void test_cap_memo(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    if (!src) {
        printf("\n  DCSIM_SRCDIR not set: skipped (make check sets it)");
        return;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/bench/shared.cfg", src);
    const char *sets[] = {"power.response_s=0.0", "horizon_days=2.0", "cooling.capacity_kw=11000.0"};
    for (size_t n_sets = 2; n_sets <= 3; n_sets++) {
        dc_sim *a = run_memo(path, NULL, sets, n_sets, -1, dc_power_set_cap_memo, true);
        dc_sim *b = run_memo(path, NULL, sets, n_sets, -1, dc_power_set_cap_memo, false);
        CU_ASSERT_PTR_NOT_NULL_FATAL(a);
        CU_ASSERT_PTR_NOT_NULL_FATAL(b);
        same_runs(a, b);
        uint64_t hits = dc_power_cap_memo_hits(dc_power_of(a));
        printf("\n  %s: %" PRIu64 " computations by a remembered solution, heat throttled %.1f h", sets[n_sets - 1],
               hits, dc_simrun_fig(a, "power.heat_throttled_h"));
        CU_ASSERT(hits > 8000);
        CU_ASSERT_EQUAL(dc_power_cap_memo_hits(dc_power_of(b)), 0);
        if (n_sets == 3)
            CU_ASSERT(dc_simrun_fig(a, "power.heat_throttled_h") > 10.0);
        dc_sim_destroy(a);
        dc_sim_destroy(b);
    }
}

/* Temperature-accelerated failures: Arrhenius against the JEDEC example and
 * the doubling rule; in a run, the failure count of a thermal class follows
 * its time-averaged factor (99% Poisson interval). */
static void test_thermal_aging(void)
{
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_af_arrhenius(0.7, 25.0, 25.0), 1.0, 1e-15);
    /* Ea 0.7 eV between 55 C and 125 C: about 78 (JEDEC JEP122 examples). */
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_af_arrhenius(0.7, 125.0, 55.0), 77.7, 0.8);
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_af_doubling(45.0, 25.0), 4.0, 1e-12);
    CU_ASSERT_DOUBLE_EQUAL(dc_thermal_af_doubling(15.0, 25.0), 0.5, 1e-12);

    /* thermal_cfg: the computing job holds the inlet near 36.7 C; the rates
     * hold at 26.72 C, so the factor is about 2. */
    const char *sets[] = {"horizon_days=20.0", "cooling.acceleration=\"doubling\"", "cooling.reference_c=26.72"};
    char cfg[2048];
    snprintf(cfg, sizeof cfg, "%s%s", thermal_cfg,
             "failures = ( { name = \"hot\"; per = \"node\"; mtbf_h = 10.0; thermal = true; } );\n"
             "repair = { crews = 0; law = \"constant\"; mean_h = 0.01; };\n");
    dc_sim *sim = run_text(cfg, sets, 3, 4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double af = dc_simrun_fig(sim, "cooling.failure_acceleration_mean");
    double avail = dc_simrun_fig(sim, "cluster.node_availability");
    double base = 8.0 * 20 * 24 / 10.0;
    double expected = base * avail * af;
    double got = dc_simrun_fig(sim, "failures.hot");
    printf("\n  mean factor %.3f: %.0f failures, expected %.0f +- %.0f (99%%)", af, got, expected,
           DC_Z99 * sqrt(expected));
    CU_ASSERT(af > 1.8 && af < 2.05);
    CU_ASSERT(fabs(got - expected) <= DC_Z99 * sqrt(expected));
    dc_sim_destroy(sim);

    /* Without the marker the law has nothing to act on: an input error. */
    const char *bad[] = {"cooling.acceleration=\"arrhenius\""};
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load(thermal_cfg, "t.cfg", bad, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_sim *none = NULL;
    CU_ASSERT_EQUAL(dc_build(sc, 1, &none, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no failure class is marked thermal"));
    dc_sim_destroy(none);
    dc_scenario_destroy(sc);
}

/* dc_csv_strtod against strtod: known cases, then 400,000 random strings
 * of the forms traces hold and around them (signs, leading zeros, up to
 * 24 digits on either side of the point, exponents of 0-4 digits, junk
 * after) and 200,000 random doubles printed with 15 to 19 digits, each
 * giving the same double bit for bit and the same end. */
static bool same_strtod(const char *t)
{
    char *e1 = NULL, *e2 = NULL;
    double a = strtod(t, &e1), b = dc_csv_strtod(t, &e2);
    return memcmp(&a, &b, sizeof a) == 0 && e1 == e2;
}

/* The same strings as fields of one CSV (dc_csv_number reads a field's
 * digits eight at a time, from the reader's padded buffer): each accepted
 * exactly when strtod takes the whole string to a finite value, with its
 * value bit for bit. */
typedef struct numbers_text {
    char *text;
    size_t len, cap, n;
} numbers_text;

static void numbers_add(numbers_text *b, const char *t)
{
    size_t n = strlen(t);
    if (!n || n >= 96 || strchr(t, ' ') || b->len + n + 2 > b->cap)
        return; /* (a blank line is no row, a blank the reader's to cut) */
    memcpy(b->text + b->len, t, n);
    b->len += n;
    b->text[b->len++] = '\n';
    b->n++;
}

static int numbers_check(const numbers_text *b)
{
    dc_csv *csv = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_csv_read_string(b->text, b->len, "n.csv", &csv, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_csv_row_count(csv), b->n - 1);
    int bad = 0;
    const char *line = (const char *)memchr(b->text, '\n', b->len) + 1; /* (past the header) */
    char t[96];
    for (size_t r = 0; r < dc_csv_row_count(csv); r++) {
        /* the row's own text, not the field as the reader cut it */
        const char *nl = memchr(line, '\n', (size_t)(b->text + b->len - line));
        size_t n = (size_t)(nl - line);
        memcpy(t, line, n);
        t[n] = '\0';
        line = nl + 1;
        if (strcmp(dc_csv_cell(csv, r, 0), t) != 0 && bad++ < 5)
            fprintf(stderr, "field %zu is \"%s\", not \"%s\"\n", r, dc_csv_cell(csv, r, 0), t);
        char *e = NULL;
        double want = strtod(t, &e), got = NAN;
        bool ok = t[0] && *e == '\0' && isfinite(want);
        int rc = dc_csv_number(csv, r, 0, &got, &err);
        if ((rc == DC_OK) != ok || (ok && memcmp(&want, &got, sizeof got) != 0)) {
            if (bad++ < 5)
                fprintf(stderr, "dc_csv_number differs on \"%s\"\n", t);
        }
    }
    dc_csv_destroy(csv);
    return bad;
}

static void test_csv_strtod(void)
{
    numbers_text nb = {.cap = (size_t)64 << 20};
    nb.text = malloc(nb.cap);
    CU_ASSERT_PTR_NOT_NULL_FATAL(nb.text);
    numbers_add(&nb, "v");
    const char *known[] = {"0", "-0", "+0", "0.1", "1e22", "1e23", "9007199254740992", "9007199254740993",
                           "123456789012345678", "1.7976931348623157e308", "4.9e-324", "1e-22", "1e-23",
                           "3.14159", ".5", "5.", ".", "-", "1e", "1e+", "1e-5x", "0x1p3", "inf", "nan", " 1",
                           "00000000000000000000001", "1.000000000000000000000", "2.5E+3", "1e0010", "1e00100",
                           "9999999999999999999", "0.30000000000000004", "9007199254740995", "9007199254740997",
                           "18014398509481985", "1844674407370955161.5", "0.0002777777777777778", "2.628888888888889",
                           "1234567890123456789e19", "1234567890123456789e-19", "1e-19", "123456789012345678e-20", ""};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (!same_strtod(known[i]))
            fprintf(stderr, "dc_csv_strtod differs on \"%s\"\n", known[i]);
        CU_ASSERT_TRUE(same_strtod(known[i]));
    }
    char *end;
    double z = dc_csv_strtod("-0", &end);
    CU_ASSERT_TRUE(z == 0 && signbit(z) && *end == '\0');
    CU_ASSERT_EQUAL(dc_csv_strtod("0.1", NULL), 0.1);
    uint64_t x = 0x2545F4914F6CDD1Du;
    int bad = 0;
    char t[80];
    for (int round = 0; round < 400000; round++) {
        size_t n = 0;
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t r = x;
        if (r % 4 == 0)
            t[n++] = (r >> 2) % 2 ? '-' : '+';
        int lead = (int)((r >> 3) % 4 == 0 ? (r >> 5) % 4 : 0), id = (int)((r >> 8) % 25),
            fd = (int)((r >> 13) % 25);
        for (int i = 0; i < lead; i++)
            t[n++] = '0';
        for (int i = 0; i < id || i < fd + id; i++) { /* digits, a point somewhere */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            if (i == id)
                t[n++] = '.';
            t[n++] = (char)('0' + x % 10);
        }
        if ((r >> 18) % 8 == 0)
            t[n++] = '.';
        if ((r >> 21) % 3 == 0) {
            t[n++] = (r >> 23) % 2 ? 'e' : 'E';
            if ((r >> 24) % 3)
                t[n++] = (r >> 25) % 2 ? '-' : '+';
            int xd = (int)((r >> 26) % 5);
            for (int i = 0; i < xd; i++)
                t[n++] = (char)('0' + (r >> (28 + 3 * i)) % (i == 0 ? 4 : 10));
        }
        if ((r >> 45) % 16 == 0)
            t[n++] = "x .e-"[(r >> 49) % 5];
        t[n] = '\0';
        if (!same_strtod(t)) {
            if (bad++ < 5)
                fprintf(stderr, "dc_csv_strtod differs on \"%s\"\n", t);
        }
        numbers_add(&nb, t);
    }
    CU_ASSERT_EQUAL(bad, 0);
    /* doubles printed as programs print them (%.15g to %.19g, %.17e: the
     * 16 to 19 digits past 2^53 that the integer path rounds) */
    bad = 0;
    for (int round = 0; round < 200000; round++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v = (double)(x >> 11) * 0x1p-53 * pow(10.0, (double)((int)(x % 40) - 20));
        if (round % 6 == 5)
            snprintf(t, sizeof t, "%.17e", v);
        else
            snprintf(t, sizeof t, "%.*g", 15 + round % 6, v);
        if (!same_strtod(t) && bad++ < 5)
            fprintf(stderr, "dc_csv_strtod differs on \"%s\"\n", t);
        numbers_add(&nb, t);
    }
    CU_ASSERT_EQUAL(bad, 0);
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        numbers_add(&nb, known[i]);
    CU_ASSERT(nb.n > 550000);
    CU_ASSERT_EQUAL(numbers_check(&nb), 0);
    free(nb.text);
}

/* dc_csv_strtod's integer path where its remainder decides (sim/csv.c
 * exact_decimal: m 2^s / 10^k, 64 to 128 bits of quotient, the remainder
 * its sticky bit): decimals of 18 or 19 digits (a leading 0 counts:
 * more go to strtod) within one quotient unit (about 2^-65 relative)
 * above a point halfway between two doubles, whose truncated
 * quotient's bits below the double's 53 are exactly 1000...0.  The
 * remainder is not 0, so each rounds up; the first six have an even top,
 * which a tie (remainder ignored) would round down to.  Then six and six
 * halfway points exactly (remainder 0: ties to even, the even below and
 * the odd rounded up).  Found by simulating exact_decimal over random
 * halfway points (Python, exact integers; the bits are Python's float(),
 * correctly rounded), and checked against strtod bit for bit.  With the
 * remainder ignored (sticky false) the first six fail and test_csv_strtod's
 * 600,000 random strings all still pass. */
static void test_csv_strtod_halfway(void)
{
    static const struct {
        const char *s;
        uint64_t bits;
    } cases[] = {
        {"7.510639590856723391", 0x401e0ae51adb16fdULL},
        {"4.024608016555872414", 0x40101932d8094ebfULL},
        {"6.504679727282040691", 0x401a04cac32e85b3ULL},
        {"0.038884149830997531", 0x3fa3e89f8fb6bb61ULL},
        {"8.192795521537250103", 0x402062b61837a2b1ULL},
        {"1.188227704451055744", 0x3ff302fb0dad1853ULL},
        {"9.242153815294293473", 0x40227bfb95ba94ccULL},
        {"1.54672169873324028", 0x3ff8bf5f40812a52ULL},
        {"2.868458176275625382", 0x4006f29a33486184ULL},
        {"79.78103237438195805", 0x4053f1fc6f36459eULL},
        {"9.266321096857821793", 0x4022885b3d227a78ULL},
        {"3.744370729500965167", 0x400df478a41a7352ULL},
        {"852805835424681.5625", 0x43083cfaa7101d4cULL},
        {"6029805081496390.50", 0x43356c1365f28b46ULL},
        {"6378264697074700.500", 0x4336a8ff798d740cULL},
        {"2124425904779336.625", 0x431e309dcd9fc122ULL},
        {"456040086311146784.0", 0x439950b82b4fa854ULL},
        {"3797350102961273.250", 0x432afb56eff318f2ULL},
        {"180035394845304368.0", 0x4383fce9e6e60332ULL},
        {"159268060484566448.0", 0x4381aeaba849fbeeULL},
        {"772441337827415.9375", 0x4305f4401c6882c0ULL},
        {"889465622395786176.0", 0x43a8b0088abda528ULL},
        {"102620550706728088.0", 0x4376c94d8df878caULL},
        {"371112390716883680.0", 0x439499d30331b40cULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *end = NULL;
        double v = dc_csv_strtod(cases[i].s, &end);
        uint64_t b;
        memcpy(&b, &v, sizeof b);
        if (b != cases[i].bits || !same_strtod(cases[i].s))
            fprintf(stderr, "dc_csv_strtod(\"%s\") = %a (bits %016llx, want %016llx)\n", cases[i].s, v,
                    (unsigned long long)b, (unsigned long long)cases[i].bits);
        CU_ASSERT_EQUAL(b, cases[i].bits);
        CU_ASSERT_TRUE(end && *end == '\0');
        CU_ASSERT_TRUE(same_strtod(cases[i].s));
    }
}

static int register_suites(void)
{
    DC_TEST_SUITE("csv",
                  {"a good file: quotes, comments, CRLF, lines", test_csv_good},
                  {"every error names the file and the line", test_csv_errors},
                  {"mutated input never crashes", test_csv_fuzz},
                  {"numbers: strtod's, bit for bit", test_csv_strtod},
                  {"numbers within 2^-64 of halfway: the remainder decides", test_csv_strtod_halfway});
    DC_TEST_SUITE("thermal aging", {"temperature-accelerated failures", test_thermal_aging});
    DC_TEST_SUITE("closed forms",
                  {"GPU power, clock under a cap, speed against clock", test_gpu_forms},
                  {"power swing against brute force", test_swing},
                  {"power swing and peak as the points come, as dc_series keeps them", test_swing_stream},
                  {"power swing: the deques' rebuilds linear on adversarial streams", test_swing_rebuilds},
                  {"cap solver against sorting and bisection", test_powercap_solve},
                  {"thermal closed forms against RK4", test_thermal_forms},
                  {"COP against outdoor temperature", test_cop_law});
    DC_TEST_SUITE("energy",
                  {"constant load: energy = power x time", test_energy_constant_load},
                  {"power.response_s: checkpoints seen late or not at all (closed forms)", test_response},
                  {"many jobs: energy = busy and idle node-hours x power", test_energy_many_jobs},
                  {"eight jobs (incremental sums): the same closed forms", test_energy_eight_jobs},
                  {"PUE with a constant COP", test_pue_constant_cop},
                  {"cooling energy with a COP that follows the weather", test_cooling_energy_varying_cop});
    DC_TEST_SUITE("caps",
                  {"site cap: never exceeded, rate falls by the DVFS law", test_site_cap_throttle},
                  {"site cap: two jobs on one speed clock, one's end speeds the other (exact)", test_site_cap_clock_two_jobs},
                  {"site cap holds with failures and checkpoints", test_site_cap_with_failures},
                  {"incremental sums equal a recount over every job (exact, 26,000 instants)", test_incremental_sums},
                  {"hold policy", test_site_cap_hold},
                  {"hold: a held job takes no checkpoint", test_hold_no_checkpoint},
                  {"shared node: free GPUs at idle power, energy = breakdown", test_shared_node_idle},
                  {"GPU and rack caps", test_gpu_and_rack_caps});
    DC_TEST_SUITE("thermal",
                  {"step response with the stated time constant", test_thermal_step_response},
                  {"a unit down stretches the time constant", test_thermal_unit_down_tau},
                  {"unit failures throttle when they should, not when not", test_unit_failure_throttles_when_it_should},
                  {"no cooling: throttle, shutdown, resume", test_thermal_shutdown},
                  {"unit failure and repair statistics", test_unit_failures_statistics});
    DC_TEST_SUITE("site",
                  {"idle shutdown and power-up delay", test_idle_shutdown},
                  {"time-of-use price", test_time_of_use},
                  {"price and carbon files", test_price_and_carbon_files},
                  {"ambient sinusoid", test_ambient_sinusoid},
                  {"ambient file", test_ambient_file});
    DC_TEST_SUITE("input",
                  {"bad input: message naming file, line and key", test_bad_inputs},
                  {"bad input through the program: exit status 2", test_cli_bad_inputs});
    DC_TEST_SUITE("run",
                  {"determinism, breakdown, cap, energies, swing", test_full_determinism_and_breakdown},
                  {"series off: the same summary, the power series kept", test_series_off_same_summary},
                  {"the flagship, the air/liquid pair and the capped site", test_scenarios},
                  {"one job's paired memo against the general memo: the same figures and series", test_pair_memo},
                  {"the site cap's remembered solutions against a solve each time: the same figures and series", test_cap_memo});
    return 0;
}

static void cleanup(void)
{
    static const char *const names[] = {"price.csv", "carbon.csv", "ambient.csv", "bad_price.csv", "short_price.csv",
                                        "order_price.csv", "late_price.csv", "hot.csv", "cover_price.csv", "cli.cfg", "cli.out",
                                        "cli.err", "cli.h5", "jobs.csv"};
    char p[256];
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmpdir, names[i]);
        unlink(p);
    }
    rmdir(tmpdir);
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s", "/tmp/dcsim-test-power-XXXXXX");
    if (!mkdtemp(tmpdir))
        return 1;
    /* the data files some tests read */
    int rc = 1;
    if (write_plain("price.csv", "time_h,usd_per_kwh\n0,0.1\n10,0.3\n30,0.2\n40,0.2\n")
        && write_plain("ambient.csv", "time_h,temp_c\n0,10\n24,20\n48,0\n"))
        rc = dc_test_main(register_suites);
    cleanup();
    return rc;
}
