/* Tests: the run's outputs (summary, series, event log) and the HDF5 trace round trip.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Tests of the run's outputs: summary (JSON and text), series, event log,
 * and the HDF5 trace written by sim/trace.c and read by analysis/trace_read.c.
 * Files go to a fresh directory under $TMPDIR (or /tmp), removed at the end. */
#define _GNU_SOURCE /* O_TMPFILE (Linux) */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hdf5.h>

#include "error.h"
#include "eventlog.h"
#include "h5image.h"
#include "series.h"
#include "json.h"
#include "numfmt.h"
#include "outfile.h"
#include "rowtable.h"
#include "summary.h"
#include "table.h"
#include "testutil.h"
#include "trace.h"
#include "trace_format.h"
#include "trace_read.h"
#include "xxh3.h"
#include "xxh64.h"

static char g_dir[256]; /* scratch directory of this run */

static void path_in(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", g_dir, name);
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0;
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* What a dc_summary_write_* call printed, malloc'd. */
static char *capture(int (*writer)(const dc_summary *, FILE *), const dc_summary *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return NULL;
    int rc = writer(s, f);
    fclose(f);
    CU_ASSERT_EQUAL(rc, DC_OK);
    return buf;
}

/* ---- the JSON writer ------------------------------------------------------------ */

/* Shortest round-trip numbers: known texts, and every one of many random
 * doubles read back bit-identical with no shorter %g form doing so. */
static void test_format_shortest(void)
{
    static const struct {
        double v;
        const char *text;
    } known[] = {
        {0.1, "0.1"},       {300.0, "300"},        {-0.0, "0"},          {27300303.0, "27300303"},
        {0.7673, "0.7673"}, {1.0 / 3.0, "0.3333333333333333"}, {1e-5, "1e-05"}, {1.5e20, "1.5e+20"},
        {-2.5, "-2.5"},     {9007199254740993.0, "9007199254740992"}, {1e17, "1e+17"},
        {NAN, "nan"},       {-INFINITY, "-inf"},   {5e-324, "4.94065645841247e-324"} /* subnormal: 15 digits, not the shortest */,
    };
    char buf[DC_NUMFMT_SIZE], shorter[400];
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        dc_format_shortest(known[i].v, buf, sizeof buf);
        CU_ASSERT_STRING_EQUAL(buf, known[i].text);
    }
    uint64_t x = 88172645463325252ull;
    for (int i = 0; i < 20000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        uint64_t bits = x;
        memcpy(&v, &bits, sizeof v);
        if (!isfinite(v) || fabs(v) < 2.2250738585072014e-308)
            continue; /* subnormals have fewer digits than 15 */
        if (i % 2)
            v = (double)(x >> 11) / 9007199254740992.0 * 1e6; /* everyday magnitudes too */
        dc_format_shortest(v, buf, sizeof buf);
        CU_ASSERT_EQUAL(strtod(buf, NULL), v);
        if (fabs(v) < 1e17 && v == trunc(v))
            continue;
        int digits = 0; /* significant: from the first non-zero digit */
        for (const char *p = buf; *p && *p != 'e'; p++)
            digits += (*p >= '1' && *p <= '9') || (digits > 0 && *p == '0');
        snprintf(shorter, sizeof shorter, "%.*g", digits > 1 ? digits - 1 : 1, v);
        CU_ASSERT(digits <= 15 || strtod(shorter, NULL) != v);
    }
}

static void test_json_writer(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    dc_json *j = dc_json_create(f, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    dc_json_begin_object(j);
    dc_json_member_string(j, "name", "a \"b\"\\\n\t\x01 \xc3\xa9");
    dc_json_member_number(j, "x", 0.1);
    dc_json_member_number(j, "nan", NAN);
    dc_json_member_number(j, "inf", -INFINITY);
    dc_json_member_int(j, "big", INT64_MAX);
    dc_json_key(j, "list");
    dc_json_begin_array(j);
    dc_json_int(j, 1);
    dc_json_begin_object(j);
    dc_json_key(j, "t");
    dc_json_bool(j, true);
    dc_json_end_object(j);
    dc_json_begin_array(j);
    dc_json_end_array(j);
    dc_json_null(j);
    dc_json_end_array(j);
    dc_json_end_object(j);
    CU_ASSERT_EQUAL(dc_json_finish(j), DC_OK);
    dc_json_destroy(j);
    fclose(f);
    /* 0.1 in its shortest form, which reads back as the same double */
    CU_ASSERT_STRING_EQUAL(buf, "{\"name\": \"a \\\"b\\\"\\\\\\n\\t\\u0001 \xc3\xa9\", \"x\": 0.1, "
                                "\"nan\": null, \"inf\": null, \"big\": 9223372036854775807, "
                                "\"list\": [1, {\"t\": true}, [], null]}\n");
    free(buf);

    /* one member a line at the outermost level, nested containers compact */
    buf = NULL;
    f = open_memstream(&buf, &len);
    j = dc_json_create(f, DC_JSON_LINES);
    dc_json_begin_object(j);
    dc_json_member_int(j, "a", 1);
    dc_json_key(j, "b");
    dc_json_begin_array(j);
    dc_json_int(j, 2);
    dc_json_int(j, 3);
    dc_json_end_array(j);
    dc_json_end_object(j);
    CU_ASSERT_EQUAL(dc_json_finish(j), DC_OK);
    dc_json_destroy(j);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "{\n  \"a\": 1,\n  \"b\": [2, 3]\n}\n");
    free(buf);

    /* an empty object is {} in either layout */
    buf = NULL;
    f = open_memstream(&buf, &len);
    j = dc_json_create(f, DC_JSON_LINES);
    dc_json_begin_object(j);
    dc_json_end_object(j);
    dc_json_finish(j);
    dc_json_destroy(j);
    fclose(f);
    CU_ASSERT_STRING_EQUAL(buf, "{}\n");
    free(buf);

    /* a failed stream is reported */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        j = dc_json_create(full, 0);
        dc_json_begin_array(j);
        dc_json_end_array(j);
        CU_ASSERT_EQUAL(dc_json_finish(j), DC_EIO);
        dc_json_destroy(j);
        fclose(full);
    }
}

/* ---- summary ---------------------------------------------------------------- */

static void test_summary_set_get_order(void)
{
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(dc_summary_count(s), 0);
    CU_ASSERT_EQUAL(dc_summary_set(s, "ettr", 0.9, "", "effective training time ratio"), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_set(s, "interruptions.faulty_gpu", 12, "count", NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_set(s, "energy_mwh", 1234.5, "MWh", "facility energy"), DC_OK);
    /* Replacing keeps the position; a NULL doc keeps the old one. */
    CU_ASSERT_EQUAL(dc_summary_set(s, "ettr", 0.85, "", NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_count(s), 3);
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 0), "ettr");
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 1), "interruptions.faulty_gpu");
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 2), "energy_mwh");
    CU_ASSERT_EQUAL(dc_summary_value(s, 0), 0.85);
    CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, 0), "effective training time ratio");
    CU_ASSERT_STRING_EQUAL(dc_summary_unit(s, 1), "count");
    CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, 1), "");
    CU_ASSERT_STRING_EQUAL(dc_summary_unit(s, 2), "MWh");
    double v = 0;
    CU_ASSERT_TRUE(dc_summary_get(s, "energy_mwh", &v));
    CU_ASSERT_EQUAL(v, 1234.5);
    CU_ASSERT_FALSE(dc_summary_get(s, "energy", &v));
    CU_ASSERT_PTR_NULL(dc_summary_key(s, 3));
    /* A different unit replaces the old one. */
    CU_ASSERT_EQUAL(dc_summary_set(s, "energy_mwh", 1.2345, "GWh", NULL), DC_OK);
    CU_ASSERT_STRING_EQUAL(dc_summary_unit(s, 2), "GWh");
    CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, 2), "facility energy");

    /* Many keys stay in order. */
    char key[32];
    for (int i = 0; i < 200; i++) {
        snprintf(key, sizeof key, "k.%03d", i);
        CU_ASSERT_EQUAL(dc_summary_set(s, key, i, "", NULL), DC_OK);
    }
    CU_ASSERT_EQUAL(dc_summary_count(s), 203);
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 3 + 150), "k.150");
    CU_ASSERT_TRUE(dc_summary_get(s, "k.199", &v));
    CU_ASSERT_EQUAL(v, 199);
    dc_summary_destroy(s);
}

static void test_summary_add(void)
{
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    CU_ASSERT_EQUAL(dc_summary_add(s, "gpu_hours.repair", 1.5, "GPU-h", "down for repair"), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_add(s, "gpu_hours.repair", 2.25, "GPU-h", NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_set(s, "x", 10, "", NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_add(s, "x", -3, "", NULL), DC_OK);
    double v = 0;
    CU_ASSERT_TRUE(dc_summary_get(s, "gpu_hours.repair", &v));
    CU_ASSERT_EQUAL(v, 3.75);
    CU_ASSERT_TRUE(dc_summary_get(s, "x", &v));
    CU_ASSERT_EQUAL(v, 7);
    CU_ASSERT_EQUAL(dc_summary_count(s), 2);
    CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, 0), "down for repair");
    dc_summary_destroy(s);
}

/* 64-bit FNV-1a, as sim/summary.c hashes keys (written out here so that the
 * test can say whether the pair below still collides). */
static uint64_t fnv1a64(const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 0x100000001b3ULL;
    return h;
}

/* Two keys with the same 64-bit FNV-1a hash (0xd61e42ce0c4a1a20, found by a
 * Brent cycle search over 11-character suffixes: 2.4e9 steps) take the
 * summary's collision path: the second is found by the scan, neither hides
 * the other, and a key absent with that hash is absent. */
static void test_summary_collision(void)
{
    const char *a = "collide.Y~w@Itfa|lI", *b = "collide.NMML|wwd@rI";
    CU_ASSERT_EQUAL_FATAL(fnv1a64(a), fnv1a64(b));
    CU_ASSERT_EQUAL(fnv1a64(a), 0xd61e42ce0c4a1a20ULL);
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    double v = 0;
    CU_ASSERT_EQUAL(dc_summary_set(s, "before", 1, "", NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_set(s, a, 2, "u_a", "doc a"), DC_OK);
    CU_ASSERT_FALSE(dc_summary_get(s, b, &v)); /* its hash is there, not its key */
    CU_ASSERT_EQUAL(dc_summary_set(s, b, 3, "u_b", "doc b"), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_count(s), 3);
    CU_ASSERT_TRUE(dc_summary_get(s, a, &v));
    CU_ASSERT_EQUAL(v, 2);
    CU_ASSERT_TRUE(dc_summary_get(s, b, &v));
    CU_ASSERT_EQUAL(v, 3);
    /* setting and adding either again changes it alone, in place */
    CU_ASSERT_EQUAL(dc_summary_add(s, b, 0.5, NULL, NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_set(s, a, 7, NULL, NULL), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_count(s), 3);
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 1), a);
    CU_ASSERT_STRING_EQUAL(dc_summary_key(s, 2), b);
    CU_ASSERT_EQUAL(dc_summary_value(s, 1), 7);
    CU_ASSERT_EQUAL(dc_summary_value(s, 2), 3.5);
    CU_ASSERT_STRING_EQUAL(dc_summary_unit(s, 2), "u_b");
    CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, 1), "doc a");
    dc_summary_destroy(s);
}

/* The number after "key": in json, or NAN when it is null or absent. */
static double json_value(const char *json, const char *quoted_key, bool *is_null)
{
    char pat[256];
    snprintf(pat, sizeof pat, "%s: ", quoted_key);
    const char *p = strstr(json, pat);
    *is_null = false;
    if (!p)
        return NAN;
    p += strlen(pat);
    if (strncmp(p, "null", 4) == 0) {
        *is_null = true;
        return NAN;
    }
    return strtod(p, NULL);
}

static void test_summary_json(void)
{
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    const double third = 1.0 / 3.0, tiny = 4.9406564584124654e-324, big = -1.7976931348623157e308;
    dc_summary_set(s, "a.third", third, "", NULL);
    dc_summary_set(s, "tiny", tiny, "", NULL);
    dc_summary_set(s, "big", big, "", NULL);
    dc_summary_set(s, "count", 16384, "", NULL);
    dc_summary_set(s, "nan", NAN, "", NULL);
    dc_summary_set(s, "inf", -INFINITY, "", NULL);
    dc_summary_set(s, "we\"ird\\key\n\t\x01", 2.5, "", NULL);
    char *json = capture(dc_summary_write_json, s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    bool is_null;
    CU_ASSERT_TRUE(same_double(json_value(json, "\"a.third\"", &is_null), third));
    CU_ASSERT_TRUE(same_double(json_value(json, "\"tiny\"", &is_null), tiny));
    CU_ASSERT_TRUE(same_double(json_value(json, "\"big\"", &is_null), big));
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"count\": 16384,"));
    json_value(json, "\"nan\"", &is_null);
    CU_ASSERT_TRUE(is_null);
    json_value(json, "\"inf\"", &is_null);
    CU_ASSERT_TRUE(is_null);
    CU_ASSERT_EQUAL(json_value(json, "\"we\\\"ird\\\\key\\n\\t\\u0001\"", &is_null), 2.5);
    /* One object, keys in order, no trailing comma. */
    CU_ASSERT_EQUAL(json[0], '{');
    const char *a = strstr(json, "\"a.third\""), *b = strstr(json, "\"big\""),
               *w = strstr(json, "\"we");
    CU_ASSERT_TRUE(a && b && w && a < b && b < w);
    CU_ASSERT_PTR_NOT_NULL(strstr(json, "2.5\n}\n"));
    CU_ASSERT_PTR_NULL(strstr(json, ",\n}"));
    free(json);

    dc_summary *empty = dc_summary_create();
    json = capture(dc_summary_write_json, empty);
    CU_ASSERT_PTR_NOT_NULL_FATAL(json);
    CU_ASSERT_STRING_EQUAL(json, "{}\n");
    free(json);
    dc_summary_destroy(empty);
    dc_summary_destroy(s);
}

static void test_summary_text(void)
{
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    dc_summary_set(s, "gpus", 16384, "", "GPUs in the cluster");
    dc_summary_set(s, "ettr", 0.912345, "", NULL);
    dc_summary_set(s, "energy_mwh", 12345.678, "MWh", NULL);
    dc_summary_set(s, DC_BREAKDOWN_TOTAL, 1000, "GPU-h", NULL);
    dc_summary_set(s, "gpu_hours.useful", 850, "GPU-h", NULL);
    dc_summary_set(s, "gpu_hours.repair", 100, "GPU-h", NULL);
    dc_summary_set(s, "gpu_hours.idle_spare", 50, "GPU-h", NULL);
    char *text = capture(dc_summary_write_text, s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "16384"));
    CU_ASSERT_PTR_NULL(strstr(text, "16384."));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "0.9123"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "12346  MWh"));
    const char *where = strstr(text, "Where the GPU-hours went");
    CU_ASSERT_PTR_NOT_NULL_FATAL(where);
    const char *useful = strstr(where, "useful"), *repair = strstr(where, "repair"),
               *idle = strstr(where, "idle_spare"), *total = strstr(where, "total capacity");
    CU_ASSERT_TRUE(useful && repair && idle && total && useful < repair && repair < idle &&
                   idle < total);
    CU_ASSERT_PTR_NOT_NULL(strstr(where, "850   85.0%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(where, "10.0%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(where, "5.0%"));
    CU_ASSERT_PTR_NOT_NULL(strstr(total, "1000  100.0%"));
    CU_ASSERT_PTR_NULL(strstr(where, "unaccounted"));
    /* The breakdown lines are not repeated in the table above it. */
    CU_ASSERT_PTR_NULL(strstr(text, "gpu_hours.useful"));
    free(text);

    /* Lines that do not add up show what is missing. */
    dc_summary_set(s, "gpu_hours.idle_spare", 30, "GPU-h", NULL);
    text = capture(dc_summary_write_text, s);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "(unaccounted)"));
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "2.0%"));
    free(text);
    dc_summary_destroy(s);
}

/* ---- series ------------------------------------------------------------------- */

static void test_series_steps(void)
{
    dc_series_set *set = dc_series_set_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    dc_series *p = dc_series_set_get(set, "power", "MW", "facility power");
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    CU_ASSERT_PTR_EQUAL(dc_series_set_get(set, "power", NULL, NULL), p);
    CU_ASSERT_EQUAL(dc_series_set_count(set), 1);
    CU_ASSERT_STRING_EQUAL(dc_series_name(p), "power");
    CU_ASSERT_STRING_EQUAL(dc_series_unit(p), "MW");
    CU_ASSERT_STRING_EQUAL(dc_series_doc(p), "facility power");

    dc_series_record(p, 0, 1);
    dc_series_record(p, 1, 1); /* equal value: skipped */
    dc_series_record(p, 2, 2);
    dc_series_record(p, 2, 3); /* same time: replaces */
    dc_series_record(p, 3, 3); /* equal: skipped */
    dc_series_record(p, 4, 5);
    dc_series_record(p, 4, 3); /* same time, back to the value before: no point */
    dc_series_record(p, 5, NAN);
    dc_series_record(p, 6, NAN); /* NaN equals NaN here */
    CU_ASSERT_EQUAL_FATAL(dc_series_length(p), 3);
    const double *t = dc_series_times(p), *v = dc_series_values(p);
    CU_ASSERT_EQUAL(t[0], 0);
    CU_ASSERT_EQUAL(v[0], 1);
    CU_ASSERT_EQUAL(t[1], 2);
    CU_ASSERT_EQUAL(v[1], 3);
    CU_ASSERT_EQUAL(t[2], 5);
    CU_ASSERT_TRUE(isnan(v[2]));
    /* From NaN back to a number, signed zeros (equal), infinity, and the
     * replacement of a point that was recorded by the common path. */
    dc_series_record(p, 7, 4);
    dc_series_record(p, 8, -0.0);
    dc_series_record(p, 9, 0.0); /* -0 == 0: skipped */
    dc_series_record(p, 10, INFINITY);
    dc_series_record(p, 11, INFINITY); /* equal: skipped */
    dc_series_record(p, 12, NAN);
    dc_series_record(p, 13, 6);
    dc_series_record(p, 13, 7); /* same time: replaces */
    CU_ASSERT_EQUAL_FATAL(dc_series_length(p), 8);
    t = dc_series_times(p);
    v = dc_series_values(p);
    CU_ASSERT_EQUAL(t[3], 7);
    CU_ASSERT_EQUAL(v[3], 4);
    CU_ASSERT_EQUAL(t[4], 8);
    CU_ASSERT_TRUE(v[4] == 0.0 && signbit(v[4]));
    CU_ASSERT_EQUAL(t[5], 10);
    CU_ASSERT_TRUE(isinf(v[5]));
    CU_ASSERT_EQUAL(t[6], 12);
    CU_ASSERT_TRUE(isnan(v[6]));
    CU_ASSERT_EQUAL(t[7], 13);
    CU_ASSERT_EQUAL(v[7], 7);

    /* A single point replaced at the same time. */
    dc_series *q = dc_series_set_get(set, "q", "", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_STRING_EQUAL(dc_series_doc(q), "");
    dc_series_record(q, 0, 1);
    dc_series_record(q, 0, 2);
    CU_ASSERT_EQUAL(dc_series_length(q), 1);
    CU_ASSERT_EQUAL(dc_series_values(q)[0], 2);

    /* Growth past several doublings. */
    dc_series *g = dc_series_set_get(set, "g", "", NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(g);
    for (int i = 0; i < 100000; i++)
        dc_series_record(g, i, i % 2);
    CU_ASSERT_EQUAL(dc_series_length(g), 100000);
    CU_ASSERT_EQUAL(dc_series_times(g)[99999], 99999);
    CU_ASSERT_EQUAL(dc_series_values(g)[99999], 1);
    CU_ASSERT_EQUAL(dc_series_set_count(set), 3);
    CU_ASSERT_PTR_EQUAL(dc_series_set_at(set, 2), g);
    CU_ASSERT_PTR_NULL(dc_series_set_at(set, 3));
    CU_ASSERT_FALSE(dc_series_set_failed(set));
    dc_series_record(NULL, 0, 0); /* ignored */
    dc_series_set_destroy(set);
}

/* ---- event log ----------------------------------------------------------------- */

/* A set switched off records only the series kept; on again, all. */
static void test_series_off_and_kept(void)
{
    dc_series_set *set = dc_series_set_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    dc_series *a = dc_series_set_get(set, "a", "", ""), *k = dc_series_set_get(set, "k", "", "");
    dc_series_keep(k);
    dc_series_set_enable(set, false);
    dc_series *late = dc_series_set_get(set, "late", "", ""); /* created while off */
    for (int i = 0; i < 5; i++) {
        dc_series_record(a, i, i);
        dc_series_record(k, i, i);
        dc_series_record(late, i, i);
    }
    CU_ASSERT_EQUAL(dc_series_length(a), 0);
    CU_ASSERT_EQUAL(dc_series_length(late), 0);
    CU_ASSERT_EQUAL(dc_series_length(k), 5);
    dc_series_set_enable(set, true);
    dc_series_record(a, 9, 1);
    dc_series_record(late, 9, 1);
    dc_series_record(k, 9, 1);
    CU_ASSERT_EQUAL(dc_series_length(a), 1);
    CU_ASSERT_EQUAL(dc_series_length(late), 1);
    CU_ASSERT_EQUAL(dc_series_length(k), 6);
    CU_ASSERT_FALSE(dc_series_set_failed(set));
    dc_series_set_destroy(set);
}

static void test_eventlog_rows(void)
{
    dc_eventlog *log = dc_eventlog_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(log);
    CU_ASSERT_TRUE(dc_eventlog_enabled(log));
    dc_eventlog_add(log, 1.5, "failure", "gpu", 17, 0, 3600);
    dc_eventlog_add(log, 2.5, "a_kind_that_is_far_too_long", "a_component_name_longer_than_24",
                    -1, -1, -2.5);
    dc_eventlog_add(log, 3.0, NULL, NULL, 1, 2, 0);
    dc_eventlog_enable(log, false);
    dc_eventlog_add(log, 4.0, "ignored", "x", 0, 0, 0);
    CU_ASSERT_FALSE(dc_eventlog_enabled(log));
    dc_eventlog_enable(log, true);
    CU_ASSERT_EQUAL_FATAL(dc_eventlog_count(log), 3);
    const dc_eventlog_row *r = dc_eventlog_rows(log);
    CU_ASSERT_EQUAL(r[0].time_s, 1.5);
    CU_ASSERT_STRING_EQUAL(r[0].kind, "failure");
    CU_ASSERT_STRING_EQUAL(r[0].component, "gpu");
    CU_ASSERT_EQUAL(r[0].id, 17);
    CU_ASSERT_EQUAL(r[0].job, 0);
    CU_ASSERT_EQUAL(r[0].value, 3600);
    /* Cut to the field, NUL-terminated. */
    CU_ASSERT_STRING_EQUAL(r[1].kind, "a_kind_that_is_");
    CU_ASSERT_EQUAL(strlen(r[1].kind), DC_EVENTLOG_KIND_LEN - 1);
    CU_ASSERT_STRING_EQUAL(r[1].component, "a_component_name_longer");
    CU_ASSERT_EQUAL(r[1].id, -1);
    CU_ASSERT_STRING_EQUAL(r[2].kind, "");
    CU_ASSERT_STRING_EQUAL(r[2].component, "");
    /* The rest of each field is zero. */
    for (size_t i = strlen(r[0].kind); i < DC_EVENTLOG_KIND_LEN; i++)
        CU_ASSERT_EQUAL(r[0].kind[i], 0);
    for (size_t i = strlen(r[0].component); i < DC_EVENTLOG_COMPONENT_LEN; i++)
        CU_ASSERT_EQUAL(r[0].component[i], 0);

    for (int i = 0; i < 50000; i++)
        dc_eventlog_add(log, i, "checkpoint", "job", i, 0, i);
    CU_ASSERT_EQUAL(dc_eventlog_count(log), 50003);
    CU_ASSERT_EQUAL(dc_eventlog_rows(log)[50002].id, 49999);
    CU_ASSERT_FALSE(dc_eventlog_failed(log));
    dc_eventlog_destroy(log);
}

/* ---- trace -------------------------------------------------------------------- */

typedef struct fixture {
    dc_summary *summary;
    dc_series_set *series;
    dc_eventlog *events;
    dc_trace_meta meta;
    char *scenario;
} fixture;

static void fixture_make(fixture *fx, size_t n_events, size_t scenario_len)
{
    memset(fx, 0, sizeof *fx);
    fx->summary = dc_summary_create();
    fx->series = dc_series_set_create();
    fx->events = dc_eventlog_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx->summary);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx->series);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx->events);
    dc_summary_set(fx->summary, "ettr", 0.1 + 0.2, "", "effective training time ratio");
    dc_summary_set(fx->summary, "interruptions.faulty_gpu", 148, "count",
                   "job interruptions by a faulty GPU");
    dc_summary_set(fx->summary, "cost.usd_per_gpu_hour", 2.0 / 3.0, "USD/GPU-h",
                   "unit with a slash; doc with \"quotes\" and UTF-8 \xc2\xb0" "C");
    dc_summary_set(fx->summary, "pue", NAN, "", NULL);
    dc_summary_set(fx->summary, "a.last", -0.0, "", NULL);
    dc_summary_set(fx->summary, "gpu_hours.capacity", 1e7, "GPU-h", "what could be delivered");

    dc_series *p = dc_series_set_get(fx->series, "power", "MW", "facility power");
    dc_series *h = dc_series_set_get(fx->series, "healthy_nodes", "", "nodes up");
    dc_series_set_get(fx->series, "empty", "", NULL); /* never recorded */
    for (int i = 0; i < 10000; i++) {
        dc_series_record(p, i * 0.37, 20.0 + sin(i * 0.01));
        dc_series_record(h, i * 60.0, 2048 - (i % 7));
    }

    for (size_t i = 0; i < n_events; i++)
        dc_eventlog_add(fx->events, (double)i * 1.25, i % 3 ? "failure" : "repair_done",
                        i % 2 ? "gpu" : "nic", (int32_t)(i % 2048), (int32_t)(i % 3) - 1,
                        (double)i / 7.0);

    fx->scenario = malloc(scenario_len + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(fx->scenario);
    for (size_t i = 0; i < scenario_len; i++)
        fx->scenario[i] = (i % 64 == 63) ? '\n' : (char)('a' + i % 26);
    fx->scenario[scenario_len] = '\0';
    fx->meta.dcsim_version = "0.1.0";
    fx->meta.scenario_text = fx->scenario;
    fx->meta.scenario_file = "scenarios/10k_gpu.cfg";
    fx->meta.seed = UINT64_C(18446744073709551557);
    fx->meta.horizon_s = 54 * 86400.0;
    fx->meta.end_s = 54 * 86400.0 - 0.125;
    fx->meta.started_at = "2026-01-02T03:04:05Z";
    fx->meta.compression_level = 0;
}

static void fixture_free(fixture *fx)
{
    dc_summary_destroy(fx->summary);
    dc_series_set_destroy(fx->series);
    dc_eventlog_destroy(fx->events);
    free(fx->scenario);
}

static void check_attr_string(dc_trace_file *t, const char *name, const char *want)
{
    dc_error err;
    char *got = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_trace_attr_string(t, name, &got, &err), DC_OK);
    CU_ASSERT_STRING_EQUAL(got, want);
    free(got);
}

/* Reads path back and compares everything with fx. */
static void check_trace(const char *path, const fixture *fx)
{
    dc_error err;
    dc_trace_file *t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);

    check_attr_string(t, "dcsim_version", fx->meta.dcsim_version);
    check_attr_string(t, "scenario", fx->meta.scenario_text);
    check_attr_string(t, "scenario_file", fx->meta.scenario_file);
    check_attr_string(t, "started_at", fx->meta.started_at);
    uint64_t seed = 0;
    CU_ASSERT_EQUAL(dc_trace_attr_uint64(t, "seed", &seed, &err), DC_OK);
    CU_ASSERT_EQUAL(seed, fx->meta.seed);
    double d = 0;
    CU_ASSERT_EQUAL(dc_trace_attr_double(t, "horizon_s", &d, &err), DC_OK);
    CU_ASSERT_TRUE(same_double(d, fx->meta.horizon_s));
    CU_ASSERT_EQUAL(dc_trace_attr_double(t, "end_s", &d, &err), DC_OK);
    CU_ASSERT_TRUE(same_double(d, fx->meta.end_s));
    CU_ASSERT_EQUAL(dc_trace_attr_double(t, "format_version", &d, &err), DC_OK);
    CU_ASSERT_EQUAL(d, DC_TRACE_FORMAT_VERSION);

    /* Summary: same keys in the same order, exact values, units, docs. */
    dc_summary *s = dc_summary_create();
    CU_ASSERT_EQUAL(dc_trace_read_summary(t, s, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_summary_count(s), dc_summary_count(fx->summary));
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        CU_ASSERT_STRING_EQUAL(dc_summary_key(s, i), dc_summary_key(fx->summary, i));
        CU_ASSERT_TRUE(same_double(dc_summary_value(s, i), dc_summary_value(fx->summary, i)) ||
                       (isnan(dc_summary_value(s, i)) && isnan(dc_summary_value(fx->summary, i))));
        CU_ASSERT_STRING_EQUAL(dc_summary_unit(s, i), dc_summary_unit(fx->summary, i));
        CU_ASSERT_STRING_EQUAL(dc_summary_doc(s, i), dc_summary_doc(fx->summary, i));
    }
    dc_summary_destroy(s);

    /* Series, exactly. */
    for (size_t k = 0; k < dc_series_set_count(fx->series); k++) {
        const dc_series *want = dc_series_set_at(fx->series, k);
        double *ts = NULL, *vs = NULL;
        size_t n = 99;
        CU_ASSERT_EQUAL_FATAL(dc_trace_read_series(t, dc_series_name(want), &ts, &vs, &n, &err),
                              DC_OK);
        CU_ASSERT_EQUAL(n, dc_series_length(want));
        CU_ASSERT_PTR_NOT_NULL(ts);
        if (n == dc_series_length(want) && n > 0) {
            CU_ASSERT_EQUAL(memcmp(ts, dc_series_times(want), n * sizeof *ts), 0);
            CU_ASSERT_EQUAL(memcmp(vs, dc_series_values(want), n * sizeof *vs), 0);
        }
        free(ts);
        free(vs);
    }

    /* Events, byte for byte (rows are zero-filled, no padding). */
    size_t count = 99;
    CU_ASSERT_EQUAL(dc_trace_event_count(t, &count, &err), DC_OK);
    CU_ASSERT_EQUAL(count, dc_eventlog_count(fx->events));
    dc_eventlog *log = dc_eventlog_create();
    CU_ASSERT_EQUAL(dc_trace_read_events(t, log, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_eventlog_count(log), dc_eventlog_count(fx->events));
    if (count > 0)
        CU_ASSERT_EQUAL(memcmp(dc_eventlog_rows(log), dc_eventlog_rows(fx->events),
                               count * sizeof(dc_eventlog_row)),
                        0);
    dc_eventlog_destroy(log);
    dc_trace_close(t);
}

static char *tmp_name_of(const char *path)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s.tmp.%ld.0", path, (long)getpid()); /* sim/outfile.c's first choice */
    return buf;
}

static void test_trace_roundtrip(void)
{
    fixture fx;
    fixture_make(&fx, 3000, 2000);
    char path[600];
    path_in(path, sizeof path, "round.h5");
    dc_error err;
    dc_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    CU_ASSERT_TRUE(file_exists(path));
    CU_ASSERT_FALSE(file_exists(tmp_name_of(path)));
    check_trace(path, &fx);
    unlink(path);
    fixture_free(&fx);
}

/* XXH64 against the reference values of the xxHash specification (seed 0),
 * and fed in pieces of every size equal to one call. */
static void test_xxh64(void)
{
    static const struct {
        const char *s;
        uint64_t h;
    } ref[] = {{"", 0xEF46DB3751D8E999ULL},
               {"a", 0xD24EC4F1A98C6E5BULL},
               {"abc", 0x44BC2CF5AD770999ULL},
               {"asdf", 0x415872F599CEA71EULL},
               {"Nobody inspects the spammish repetition", 0xFBCEA83C8A378BF1ULL}};
    for (size_t i = 0; i < sizeof ref / sizeof ref[0]; i++)
        CU_ASSERT_EQUAL(dc_xxh64(ref[i].s, strlen(ref[i].s), 0), ref[i].h);
    static unsigned char big[100003];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (unsigned char)(i * 2654435761u >> 13);
    uint64_t one = dc_xxh64(big, sizeof big, 0);
    for (size_t step = 1; step <= 97; step += 6) {
        dc_xxh64_state h;
        dc_xxh64_init(&h, 0);
        for (size_t at = 0; at < sizeof big; at += step)
            dc_xxh64_update(&h, big + at, sizeof big - at < step ? sizeof big - at : step);
        CU_ASSERT_EQUAL(dc_xxh64_digest(&h), one);
    }
    big[50000] ^= 1;
    CU_ASSERT_NOT_EQUAL(dc_xxh64(big, sizeof big, 0), one);
}

/* The layout of dataset path in file f (H5D_CONTIGUOUS, H5D_CHUNKED), -1 if none. */
static int layout_of(hid_t f, const char *path)
{
    hid_t d = H5Dopen2(f, path, H5P_DEFAULT);
    hid_t pl = d >= 0 ? H5Dget_create_plist(d) : -1;
    int l = pl >= 0 ? (int)H5Pget_layout(pl) : -1;
    if (pl >= 0)
        H5Pclose(pl);
    if (d >= 0)
        H5Dclose(d);
    return l;
}

/* A trace whose event log and series are empty (a run with trace.events
 * off, RBW's): those datasets are chunked, as a contiguous dataset cannot
 * be empty and extendible, the others contiguous; it reads back. */
static void test_trace_empty_parts(void)
{
    char path[600];
    path_in(path, sizeof path, "empty.h5");
    dc_summary *s = dc_summary_create();
    dc_summary_set(s, "a.b", 1.5, "h", "a figure");
    dc_series_set *set = dc_series_set_create();
    dc_series *one = dc_series_set_get(set, "one", "W", "a point");
    dc_series_set_get(set, "none", "W", "no point");
    dc_series_record(one, 0.0, 2.0);
    dc_eventlog *log = dc_eventlog_create();
    dc_trace_meta meta = {.dcsim_version = "test", .scenario_text = "", .scenario_file = "", .started_at = "now"};
    dc_error err;
    dc_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &meta, s, set, log, &err), DC_OK);
    hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    CU_ASSERT_EQUAL(layout_of(f, "/events"), H5D_CHUNKED);
    CU_ASSERT_EQUAL(layout_of(f, "/summary"), H5D_CONTIGUOUS);
    CU_ASSERT_EQUAL(layout_of(f, "/series"), H5D_CONTIGUOUS);
    H5Fclose(f);
    dc_trace_file *t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    dc_eventlog *back = dc_eventlog_create();
    CU_ASSERT_EQUAL(dc_trace_read_events(t, back, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_eventlog_count(back), 0);
    dc_eventlog_destroy(back);
    dc_trace_close(t);
    /* no series point at all: /series empty, chunked */
    dc_series_set *empty = dc_series_set_create();
    dc_series_set_get(empty, "none", "W", "no point");
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &meta, s, empty, NULL, &err), DC_OK);
    f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    CU_ASSERT_EQUAL(layout_of(f, "/series"), H5D_CHUNKED);
    CU_ASSERT_EQUAL(layout_of(f, "/events"), H5D_CHUNKED);
    H5Fclose(f);
    CU_ASSERT_PTR_NOT_NULL(t = dc_trace_open(path, &err));
    if (t)
        dc_trace_close(t);
    unlink(path);
    dc_series_set_destroy(empty);
    dc_eventlog_destroy(log);
    dc_series_set_destroy(set);
    dc_summary_destroy(s);
}

/* XXH3-64 against libxxhash 0.8.1's XXH3_64bits (seed 0) over the bytes
 * (i * 2654435761 >> 13) & 0xff at the lengths where its paths change (0,
 * 1-3, 4-8, 9-16, 17-128, 129-240, stripes, blocks of 1,024 bytes), and
 * fed in pieces of many sizes through each of the stripes' codes (plain C,
 * SSE2, AVX2, as far as the machine has them) equal to one call. */
static void test_xxh3(void)
{
    static const struct {
        size_t n;
        uint64_t h;
    } ref[] = {{0, 0x2d06800538d394c2ULL},    {1, 0xc44bdff4074eecdbULL},    {3, 0xa1c4a8259b827291ULL},
               {4, 0xbb4e3d89ee0b271dULL},    {8, 0x79d02238b80e37b1ULL},    {9, 0xf64cecc4271ff461ULL},
               {16, 0x222e9aead6bddd51ULL},   {17, 0x47aad6b375eb4bbaULL},   {128, 0x421a9c905c6e66baULL},
               {129, 0x9e2414800f83768aULL},  {240, 0xb714c5fd22744964ULL},  {241, 0xbc424a2c480dd281ULL},
               {256, 0x2d040b1ab40f0d78ULL},  {257, 0xd0515fbec69efb50ULL},  {1024, 0x1fd15e7d36f5e1bcULL},
               {1025, 0xfe08e5a874d23fd2ULL}, {1088, 0x0ac7cf3a6009bab5ULL}, {4096, 0x84d9e7ce664c8217ULL},
               {20000, 0x029d5eb7e8999845ULL}};
    static unsigned char big[20000];
    for (size_t i = 0; i < sizeof big; i++)
        big[i] = (unsigned char)(i * 2654435761u >> 13);
    CU_ASSERT_EQUAL(dc_xxh3("abc", 3), 0x78af5f94892f3950ULL);
    dc_xxh3_state best;
    dc_xxh3_init(&best);
    size_t pieces = 0;
    for (size_t r = 0; r < sizeof ref / sizeof ref[0]; r++) {
        size_t n = ref[r].n;
        CU_ASSERT_EQUAL(dc_xxh3(big, n), ref[r].h);
        for (int impl = 0; impl <= best.impl; impl++)
            for (size_t step = 1; step <= 1500; step = step * 3 + 2) {
                dc_xxh3_state h;
                dc_xxh3_init(&h);
                h.impl = impl;
                for (size_t at = 0; at < n; at += step, pieces++)
                    dc_xxh3_update(&h, big + at, n - at < step ? n - at : step);
                CU_ASSERT_EQUAL(dc_xxh3_digest(&h), ref[r].h);
                CU_ASSERT_EQUAL(dc_xxh3_digest(&h), ref[r].h); /* digest leaves the state as it was */
            }
    }
    CU_ASSERT_TRUE(pieces > 100000);
    big[12345] ^= 1;
    CU_ASSERT_NOT_EQUAL(dc_xxh3(big, sizeof big), 0x029d5eb7e8999845ULL);
}

/* The bytes of a file after its 512-byte checksum block, and their count. */
static unsigned char *after_block(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    CU_ASSERT_TRUE_FATAL(size > 512);
    *n = (size_t)size - 512;
    unsigned char *b = malloc(*n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    fseek(f, 512, SEEK_SET);
    CU_ASSERT_EQUAL(fread(b, 1, *n, f), *n);
    fclose(f);
    return b;
}

static void put_block(const char *path, const char *block_text)
{
    char block[512] = {0};
    snprintf(block, sizeof block, "%s", block_text);
    FILE *f = fopen(path, "r+b");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fwrite(block, 1, sizeof block, f), sizeof block);
    fclose(f);
}

/* A trace's checksum block is version 3 (XXH3-64 of the bytes after it); a
 * trace whose block is version 2 (XXH64: dcsim before XXH3) or 1 (FNV-1a:
 * before XXH64) still reads; blocks of those versions that do not match,
 * and an unknown version, are refused. */
static void test_trace_checksum_versions(void)
{
    fixture fx;
    fixture_make(&fx, 300, 200);
    char path[600];
    path_in(path, sizeof path, "sum.h5");
    dc_error err;
    dc_error_clear(&err);
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err), DC_OK);
    size_t n;
    unsigned char *b = after_block(path, &n);
    char head[513] = {0}, want[512];
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    CU_ASSERT_EQUAL(fread(head, 1, 512, f), 512);
    fclose(f);
    snprintf(want, sizeof want, "dcsim-checksum 3\nsize %zu\nxxh3 %016llx\n", n, (unsigned long long)dc_xxh3(b, n));
    CU_ASSERT_STRING_EQUAL(head, want);
    check_trace(path, &fx);

    snprintf(want, sizeof want, "dcsim-checksum 2\nsize %zu\nxxh64 %016llx\n", n,
             (unsigned long long)dc_xxh64(b, n, 0));
    put_block(path, want);
    check_trace(path, &fx);
    snprintf(want, sizeof want, "dcsim-checksum 2\nsize %zu\nxxh64 %016llx\n", n,
             (unsigned long long)dc_xxh64(b, n, 0) ^ 1);
    put_block(path, want);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "its checksum does not match"));
    snprintf(want, sizeof want, "dcsim-checksum 3\nsize %zu\nxxh3 %016llx\n", n, (unsigned long long)dc_xxh3(b, n) ^ 1);
    put_block(path, want);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "its checksum does not match"));

    unsigned long long h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ULL;
    snprintf(want, sizeof want, "dcsim-checksum 1\nsize %zu\nfnv1a64 %016llx\n", n, h);
    put_block(path, want);
    check_trace(path, &fx);

    snprintf(want, sizeof want, "dcsim-checksum 1\nsize %zu\nfnv1a64 %016llx\n", n, h ^ 1);
    put_block(path, want);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "its checksum does not match"));

    snprintf(want, sizeof want, "dcsim-checksum 4\nsize %zu\nxxh4 %016llx\n", n, h);
    put_block(path, want);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "its checksum block is damaged or from a newer dcsim"));
    free(b);
    unlink(path);
    fixture_free(&fx);
}

static void test_trace_compressed_and_large_scenario(void)
{
    fixture fx;
    fixture_make(&fx, 10000, 300000); /* scenario text over 64 KiB */
    fx.meta.compression_level = 6;
    char path[600];
    path_in(path, sizeof path, "deflate.h5");
    dc_error err;
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    check_trace(path, &fx);
    unlink(path);
    fixture_free(&fx);
}

static void test_trace_empty(void)
{
    /* Nothing recorded, events switched off: still a valid trace. */
    dc_summary *s = dc_summary_create();
    dc_series_set *set = dc_series_set_create();
    dc_eventlog *log = dc_eventlog_create();
    dc_eventlog_enable(log, false);
    dc_series_set_get(set, "power", "MW", NULL);
    dc_trace_meta meta = {0};
    char path[600];
    path_in(path, sizeof path, "empty.h5");
    dc_error err;
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &meta, s, set, log, &err), DC_OK);
    dc_trace_file *t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    size_t n = 99;
    CU_ASSERT_EQUAL(dc_trace_event_count(t, &n, &err), DC_OK);
    CU_ASSERT_EQUAL(n, 0);
    double *ts = NULL, *vs = NULL;
    CU_ASSERT_EQUAL(dc_trace_read_series(t, "power", &ts, &vs, &n, &err), DC_OK);
    CU_ASSERT_EQUAL(n, 0);
    free(ts);
    free(vs);
    dc_summary *back = dc_summary_create();
    CU_ASSERT_EQUAL(dc_trace_read_summary(t, back, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_summary_count(back), 0);
    char *str = NULL;
    CU_ASSERT_EQUAL(dc_trace_attr_string(t, "scenario", &str, &err), DC_OK);
    CU_ASSERT_STRING_EQUAL(str, "");
    free(str);
    dc_eventlog_enable(log, true);
    CU_ASSERT_EQUAL(dc_trace_read_events(t, log, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_eventlog_count(log), 0);
    dc_trace_close(t);
    dc_summary_destroy(back);
    unlink(path);
    dc_summary_destroy(s);
    dc_series_set_destroy(set);
    dc_eventlog_destroy(log);
}

static void test_trace_deterministic(void)
{
    fixture fx;
    fixture_make(&fx, 5000, 1000);
    char a[600], b[600];
    path_in(a, sizeof a, "det_a.h5");
    path_in(b, sizeof b, "det_b.h5");
    dc_error err;
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(a, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(b, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    size_t la = 0, lb = 0;
    char *da = dc_runner_slurp(a, &la), *db = dc_runner_slurp(b, &lb);
    CU_ASSERT_PTR_NOT_NULL(da);
    CU_ASSERT_PTR_NOT_NULL(db);
    CU_ASSERT(la > 0);
    CU_ASSERT_EQUAL(la, lb);
    if (da && db && la == lb)
        CU_ASSERT_EQUAL(memcmp(da, db, la), 0);
    free(da);
    free(db);
    unlink(a);
    unlink(b);
    fixture_free(&fx);
}

static void test_trace_write_failures(void)
{
    fixture fx;
    fixture_make(&fx, 100, 100);
    dc_error err;
    char path[600], dir[600], file[600];

    /* Missing directory. */
    path_in(path, sizeof path, "no_such_dir/x.h5");
    path_in(dir, sizeof dir, "no_such_dir");
    CU_ASSERT_EQUAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                    DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cannot write trace '"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "does not exist"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, dir));
    CU_ASSERT_FALSE(file_exists(dir));

    /* A parent that is a regular file. */
    path_in(file, sizeof file, "plain_file");
    FILE *f = fopen(file, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("not a directory\n", f);
    fclose(f);
    path_in(path, sizeof path, "plain_file/x.h5");
    CU_ASSERT_EQUAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                    DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is not a directory"));

    /* The name of a directory. */
    CU_ASSERT_EQUAL(dc_trace_write(g_dir, &fx.meta, fx.summary, fx.series, fx.events, &err),
                    DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is a directory"));
    unlink(file);

    /* An existing trace survives failed writes of the same name. */
    path_in(path, sizeof path, "keep.h5");
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    size_t len0 = 0, len1 = 0;
    char *before = dc_runner_slurp(path, &len0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT(len0 > 0);
    int entries = dc_runner_count_entries(g_dir);

    /* (a) the temporary file cannot be created: a directory holds the first
     * name tried (the next is taken), and a name so long that NAME.tmp.PID.N
     * exceeds the file system's limit (the file itself, kept). */
    const char *tmp = tmp_name_of(path);
    CU_ASSERT_EQUAL_FATAL(mkdir(tmp, 0700), 0);
    CU_ASSERT_EQUAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err), DC_OK);
    rmdir(tmp);
    CU_ASSERT_EQUAL(dc_runner_count_entries(g_dir), entries);
    char longname[300], longpath[900];
    memset(longname, 'k', 250);
    longname[250] = '\0';
    path_in(longpath, sizeof longpath, longname);
    CU_ASSERT_EQUAL_FATAL(dc_runner_write(longpath, "kept\n", 5), 0);
    dc_summary_set(fx.summary, "ettr", 0.5, "", NULL); /* a different trace */
    CU_ASSERT_EQUAL(dc_trace_write(longpath, &fx.meta, fx.summary, fx.series, fx.events, &err), DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, longpath));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "temporary file"));
    char *kept = dc_runner_slurp(longpath, NULL);
    CU_ASSERT_STRING_EQUAL(kept, "kept\n");
    free(kept);
    unlink(longpath);
    /* The same trace written again: the same bytes (no object times). */
    char *after = dc_runner_slurp(path, &len1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_TRUE(len0 == len1 && memcmp(before, after, len0) == 0);
    free(after);

    /* (b) failure half-way, after the temporary file was created: a summary
     * key that is not a valid HDF5 name. */
    dc_summary_set(fx.summary, "bad/key", 1, "", NULL);
    CU_ASSERT_NOT_EQUAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                        DC_OK);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "bad/key"));
    CU_ASSERT_FALSE(file_exists(tmp));
    CU_ASSERT_EQUAL(dc_runner_count_entries(g_dir), entries);
    after = dc_runner_slurp(path, &len1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_TRUE(len0 == len1 && memcmp(before, after, len0) == 0);
    free(after);
    free(before);

    /* The old trace still reads. */
    dc_trace_file *t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL(t);
    dc_trace_close(t);
    unlink(path);
    fixture_free(&fx);
}

/* The names created in dir while dc_trace_check_writable(path) runs
 * (inotify's IN_CREATE events), or -1 if they cannot be watched; *rc gets
 * the check's result. */
static int names_created_by_check(const char *dir, const char *path, int *rc)
{
    dc_error err;
    int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd < 0 || inotify_add_watch(fd, dir, IN_CREATE) < 0) {
        if (fd >= 0)
            close(fd);
        *rc = dc_trace_check_writable(path, &err);
        return -1;
    }
    *rc = dc_trace_check_writable(path, &err);
    int created = 0;
    char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    for (ssize_t len; (len = read(fd, buf, sizeof buf)) > 0;)
        for (char *p = buf; p < buf + len; p += sizeof(struct inotify_event) + ((struct inotify_event *)p)->len)
            created += (((struct inotify_event *)p)->mask & IN_CREATE) != 0;
    close(fd);
    return created;
}

static void test_trace_check_writable(void)
{
    dc_error err;
    char path[600];
    int entries = dc_runner_count_entries(g_dir);
    path_in(path, sizeof path, "w.h5");
    CU_ASSERT_EQUAL(dc_trace_check_writable(path, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_runner_count_entries(g_dir), entries); /* nothing left behind */
    CU_ASSERT_FALSE(file_exists(path));
    /* The probe has no name where the directory takes an O_TMPFILE (as the
     * outputs, sim/outfile.h), so that a SIGKILL during the check leaves
     * nothing; before, it was w.h5.tmp.PID.0, created then removed. */
    int anon = open(g_dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    if (anon >= 0)
        close(anon);
    int rc = -1, created = names_created_by_check(g_dir, path, &rc);
    CU_ASSERT_EQUAL(rc, DC_OK);
    if (created >= 0) {
        if (created != (anon >= 0 ? 0 : 1))
            fprintf(stderr, "\n  the check of '%s' created %d name(s) (O_TMPFILE %s)\n", path, created,
                    anon >= 0 ? "works" : "does not work");
        CU_ASSERT_EQUAL(created, anon >= 0 ? 0 : 1);
    }
    CU_ASSERT_EQUAL(dc_runner_count_entries(g_dir), entries);

    path_in(path, sizeof path, "missing/w.h5");
    CU_ASSERT_EQUAL(dc_trace_check_writable(path, &err), DC_EIO);
    char want[1200];
    snprintf(want, sizeof want, "cannot write trace '%s': directory '%s/missing' does not exist",
             path, g_dir);
    CU_ASSERT_STRING_EQUAL(err.msg, want);

    char file[600];
    path_in(file, sizeof file, "regular");
    FILE *f = fopen(file, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fclose(f);
    path_in(path, sizeof path, "regular/w.h5");
    CU_ASSERT_EQUAL(dc_trace_check_writable(path, &err), DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "is not a directory"));
    unlink(file);

    CU_ASSERT_EQUAL(dc_trace_check_writable(g_dir, &err), DC_EINPUT);
    CU_ASSERT_EQUAL(dc_trace_check_writable("", &err), DC_EINPUT);
}

/* An HDF5 file that is not a dcsim trace; format_version < 0 means none. */
static void write_foreign_h5(const char *path, int format_version)
{
    H5E_auto2_t func;
    void *data;
    H5Eget_auto2(H5E_DEFAULT, &func, &data);
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    if (format_version >= 0) {
        hid_t sp = H5Screate(H5S_SCALAR);
        hid_t a = H5Acreate2(f, "format_version", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
        CU_ASSERT_TRUE(a >= 0);
        CU_ASSERT_TRUE(H5Awrite(a, H5T_NATIVE_INT, &format_version) >= 0);
        H5Aclose(a);
        H5Sclose(sp);
    }
    H5Fclose(f);
    H5Eset_auto2(H5E_DEFAULT, func, data);
}

static void test_trace_open_errors(void)
{
    dc_error err;
    char path[600], want[800];

    path_in(path, sizeof path, "absent.h5");
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EIO);
    snprintf(want, sizeof want, "cannot open trace '%s': No such file or directory", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);

    CU_ASSERT_PTR_NULL(dc_trace_open(g_dir, &err));
    CU_ASSERT_EQUAL(err.code, DC_EIO);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "Is a directory"));

    path_in(path, sizeof path, "text.h5");
    FILE *f = fopen(path, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs("this is not HDF5\n", f);
    fclose(f);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    snprintf(want, sizeof want, "'%s' is not a dcsim trace", path);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));
    unlink(path);

    path_in(path, sizeof path, "foreign.h5");
    write_foreign_h5(path, -1);
    snprintf(want, sizeof want, "'%s' is not a dcsim trace", path);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, want));

    write_foreign_h5(path, 99);
    CU_ASSERT_PTR_NULL(dc_trace_open(path, &err));
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "format version 99"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "format versions 1 to 2"));
    unlink(path);
}

static void test_trace_missing_parts(void)
{
    fixture fx;
    fixture_make(&fx, 10, 10);
    char path[600], want[800];
    path_in(path, sizeof path, "parts.h5");
    dc_error err;
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(path, &fx.meta, fx.summary, fx.series, fx.events, &err),
                          DC_OK);
    dc_trace_file *t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    double *ts = NULL, *vs = NULL;
    size_t n = 0;
    CU_ASSERT_EQUAL(dc_trace_read_series(t, "temperature", &ts, &vs, &n, &err), DC_EINPUT);
    snprintf(want, sizeof want, "trace '%s' has no dataset /series/temperature", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    CU_ASSERT_EQUAL(dc_trace_read_series(t, "a/b", &ts, &vs, &n, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "has no dataset /series/a/b"));
    char *s = NULL;
    CU_ASSERT_EQUAL(dc_trace_attr_string(t, "nope", &s, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "nope"));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, path));
    double d;
    CU_ASSERT_EQUAL(dc_trace_attr_double(t, "scenario", &d, &err), DC_EINPUT); /* a string */
    uint64_t u;
    CU_ASSERT_EQUAL(dc_trace_attr_uint64(t, "horizon_s", &u, &err), DC_EINPUT); /* a double */
    dc_trace_close(t);
    unlink(path);

    /* A trace without /series or /events (written by hand). */
    write_foreign_h5(path, DC_TRACE_FORMAT_VERSION);
    t = dc_trace_open(path, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL(dc_trace_read_series(t, "power", &ts, &vs, &n, &err), DC_EINPUT);
    snprintf(want, sizeof want, "trace '%s' has no dataset /series/power", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    CU_ASSERT_EQUAL(dc_trace_event_count(t, &n, &err), DC_EINPUT);
    snprintf(want, sizeof want, "trace '%s' has no dataset /events", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    dc_summary *sum = dc_summary_create();
    CU_ASSERT_EQUAL(dc_trace_read_summary(t, sum, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "/summary"));
    dc_summary_destroy(sum);
    dc_trace_close(t);
    unlink(path);
    fixture_free(&fx);
}

/* A trace in format 1 (sim/trace.h: dcsim before format 2), written by hand
 * from fx: /summary/KEY scalars with unit and doc, /series/NAME (n, 2)
 * arrays with unit, doc and columns, /events. */
static void v1_attr(hid_t obj, const char *name, const char *value)
{
    hid_t st = H5Tcopy(H5T_C_S1), sp = H5Screate(H5S_SCALAR);
    H5Tset_size(st, H5T_VARIABLE);
    H5Tset_cset(st, H5T_CSET_UTF8);
    const char *v = value ? value : "";
    hid_t a = H5Acreate2(obj, name, st, sp, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_TRUE(a >= 0 && H5Awrite(a, st, &v) >= 0);
    H5Aclose(a);
    H5Sclose(sp);
    H5Tclose(st);
}

static void write_format1(const char *path, const fixture *fx)
{
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);
    CU_ASSERT_TRUE_FATAL(f >= 0);
    hid_t sp = H5Screate(H5S_SCALAR);
    int one = 1;
    hid_t a = H5Acreate2(f, "format_version", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, H5T_NATIVE_INT, &one);
    H5Aclose(a);
    v1_attr(f, "dcsim_version", fx->meta.dcsim_version);
    hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
    H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
    hid_t g = H5Gcreate2(f, "summary", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    for (size_t i = 0; i < dc_summary_count(fx->summary); i++) {
        double v = dc_summary_value(fx->summary, i);
        hid_t d = H5Dcreate2(g, dc_summary_key(fx->summary, i), H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT,
                             H5P_DEFAULT);
        CU_ASSERT_TRUE(d >= 0 && H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) >= 0);
        v1_attr(d, "unit", dc_summary_unit(fx->summary, i));
        v1_attr(d, "doc", dc_summary_doc(fx->summary, i));
        H5Dclose(d);
    }
    H5Gclose(g);
    g = H5Gcreate2(f, "series", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    for (size_t k = 0; k < dc_series_set_count(fx->series); k++) {
        const dc_series *s = dc_series_set_at(fx->series, k);
        size_t n = dc_series_length(s);
        double *buf = malloc((n ? n : 1) * 2 * sizeof *buf);
        CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
        for (size_t i = 0; i < n; i++) {
            buf[2 * i] = dc_series_times(s)[i];
            buf[2 * i + 1] = dc_series_values(s)[i];
        }
        hsize_t dims[2] = {n, 2};
        hid_t space = H5Screate_simple(2, dims, NULL);
        hid_t d = H5Dcreate2(g, dc_series_name(s), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
        CU_ASSERT_TRUE(d >= 0);
        if (n > 0)
            CU_ASSERT_TRUE(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) >= 0);
        v1_attr(d, "unit", dc_series_unit(s));
        v1_attr(d, "doc", dc_series_doc(s));
        hid_t st = H5Tcopy(H5T_C_S1);
        H5Tset_size(st, H5T_VARIABLE);
        hsize_t two = 2;
        hid_t cs = H5Screate_simple(1, &two, NULL);
        const char *cols[2] = {"time_s", "value"};
        hid_t ca = H5Acreate2(d, "columns", st, cs, H5P_DEFAULT, H5P_DEFAULT);
        CU_ASSERT_TRUE(ca >= 0 && H5Awrite(ca, st, cols) >= 0);
        H5Aclose(ca);
        H5Sclose(cs);
        H5Tclose(st);
        H5Dclose(d);
        H5Sclose(space);
        free(buf);
    }
    H5Gclose(g);
    hid_t ft = dc_trace_event_type(false), mt = dc_trace_event_type(true);
    hsize_t n_ev[1] = {dc_eventlog_count(fx->events)};
    hid_t space = H5Screate_simple(1, n_ev, NULL);
    hid_t d = H5Dcreate2(f, "events", ft, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    CU_ASSERT_TRUE(d >= 0 && H5Dwrite(d, mt, H5S_ALL, H5S_ALL, H5P_DEFAULT, dc_eventlog_rows(fx->events)) >= 0);
    H5Dclose(d);
    H5Sclose(space);
    H5Tclose(ft);
    H5Tclose(mt);
    H5Pclose(gcpl);
    H5Pclose(fcpl);
    H5Sclose(sp);
    CU_ASSERT_TRUE(H5Fclose(f) >= 0);
}

/* Two tables cell for cell (NaN equal to NaN). */
static void check_same_table(const dc_table *a, const dc_table *b)
{
    CU_ASSERT_EQUAL_FATAL(dc_table_columns(a), dc_table_columns(b));
    CU_ASSERT_EQUAL_FATAL(dc_table_rows(a), dc_table_rows(b));
    for (size_t c = 0; c < dc_table_columns(a); c++) {
        CU_ASSERT_STRING_EQUAL(dc_table_column_name(a, c), dc_table_column_name(b, c));
        for (size_t r = 0; r < dc_table_rows(a); r++) {
            double x = dc_table_number(a, r, (long)c), y = dc_table_number(b, r, (long)c);
            CU_ASSERT_TRUE(same_double(x, y) || (isnan(x) && isnan(y)));
        }
    }
}

/* Format 1 still reads: the same summary (order, values, units, docs),
 * series and events as the format 2 trace of the same run, the same list
 * of datasets (/summary/KEY and /series/NAME in both), and the same tables
 * for /summary/KEY and /series/NAME. */
static void test_trace_format1(void)
{
    fixture fx;
    fixture_make(&fx, 500, 100);
    char p1[600], p2[600];
    path_in(p1, sizeof p1, "v1.h5");
    path_in(p2, sizeof p2, "v2.h5");
    dc_error err;
    write_format1(p1, &fx);
    CU_ASSERT_EQUAL_FATAL(dc_trace_write(p2, &fx.meta, fx.summary, fx.series, fx.events, &err), DC_OK);
    dc_trace_file *t1 = dc_trace_open(p1, &err), *t2 = dc_trace_open(p2, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
    dc_summary *s1 = dc_summary_create(), *s2 = dc_summary_create();
    CU_ASSERT_EQUAL(dc_trace_read_summary(t1, s1, &err), DC_OK);
    CU_ASSERT_EQUAL(dc_trace_read_summary(t2, s2, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_summary_count(s1), dc_summary_count(fx.summary));
    CU_ASSERT_EQUAL_FATAL(dc_summary_count(s2), dc_summary_count(fx.summary));
    for (size_t i = 0; i < dc_summary_count(s1); i++) {
        CU_ASSERT_STRING_EQUAL(dc_summary_key(s1, i), dc_summary_key(fx.summary, i));
        CU_ASSERT_STRING_EQUAL(dc_summary_key(s2, i), dc_summary_key(fx.summary, i));
        CU_ASSERT_STRING_EQUAL(dc_summary_unit(s1, i), dc_summary_unit(s2, i));
        CU_ASSERT_STRING_EQUAL(dc_summary_doc(s1, i), dc_summary_doc(s2, i));
        double x = dc_summary_value(s1, i), y = dc_summary_value(s2, i);
        CU_ASSERT_TRUE(same_double(x, y) || (isnan(x) && isnan(y)));
    }
    dc_summary_destroy(s1);
    dc_summary_destroy(s2);
    size_t n1 = 0, n2 = 0;
    CU_ASSERT_EQUAL(dc_trace_event_count(t1, &n1, &err), DC_OK);
    CU_ASSERT_EQUAL(n1, 500);
    char **l1 = NULL, **l2 = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_trace_list_datasets(t1, &l1, &n1, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_trace_list_datasets(t2, &l2, &n2, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(n1, n2);
    CU_ASSERT_EQUAL(n1, 1 + 3 + dc_summary_count(fx.summary)); /* /events, three series, the figures */
    for (size_t i = 0; i < n1; i++) {
        CU_ASSERT_STRING_EQUAL(l1[i], l2[i]);
        bool has = false;
        CU_ASSERT_EQUAL(dc_trace_has_dataset(t2, l2[i], &has, &err), DC_OK);
        CU_ASSERT_TRUE(has);
        if (strcmp(l1[i], "/events") == 0)
            continue;
        dc_table *a = dc_table_create(), *b = dc_table_create();
        CU_ASSERT_EQUAL(dc_trace_read_table(t1, l1[i], a, &err), DC_OK);
        CU_ASSERT_EQUAL(dc_trace_read_table(t2, l2[i], b, &err), DC_OK);
        check_same_table(a, b);
        dc_table_destroy(a);
        dc_table_destroy(b);
    }
    dc_trace_free_list(l1, n1);
    dc_trace_free_list(l2, n2);
    bool has = true;
    CU_ASSERT_EQUAL(dc_trace_has_dataset(t2, "/summary/nope", &has, &err), DC_OK);
    CU_ASSERT_FALSE(has);
    CU_ASSERT_EQUAL(dc_trace_has_dataset(t2, "/series/nope", &has, &err), DC_OK);
    CU_ASSERT_FALSE(has);
    dc_table *none = dc_table_create();
    CU_ASSERT_EQUAL(dc_trace_read_table(t2, "/series/nope", none, &err), DC_EINPUT);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "has no dataset /series/nope"));
    dc_table_destroy(none);
    dc_trace_close(t1);
    dc_trace_close(t2);
    check_trace(p2, &fx);
    unlink(p1);
    unlink(p2);
    fixture_free(&fx);
}

/* The rows of a table and of the event log streamed into the trace during
 * the run (dc_trace_stream: dozens of 64 KiB flushes, and a last partial
 * one) read back as those of the same trace written at the end: every
 * dataset's table equal, the events byte for byte; with and without
 * compression.  The log and the table keep only the rows not yet flushed. */
/* Rows dropped (runs without a trace, sweeps): every commit counted, at
 * most 64 KiB held, the columns still there. */
static void test_rowtable_drop(void)
{
    dc_rowtable_set *set = dc_rowtable_set_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(set);
    dc_rowtable_set_drop(set);
    dc_rowtable *t = dc_rowtable_set_get(set, "jobs", "one row per job");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    int id = dc_rowtable_add_column(t, "job", DC_ROWCOL_I4, 0, "", "its id");
    int h = dc_rowtable_add_column(t, "run_h", DC_ROWCOL_F8, 0, "h", "its run time");
    size_t most_held = 0;
    for (int i = 0; i < 100003; i++) {
        dc_rowtable_set_i4(t, id, i);
        dc_rowtable_set_f8(t, h, i * 0.5);
        dc_rowtable_commit(t);
        if (dc_rowtable_buffered(t) > most_held)
            most_held = dc_rowtable_buffered(t);
    }
    CU_ASSERT_TRUE(most_held * dc_rowtable_row_size(t) <= 65536);
    CU_ASSERT_TRUE(most_held * dc_rowtable_row_size(t) > 60000);
    CU_ASSERT_EQUAL(dc_rowtable_rows(t), 100003);
    CU_ASSERT_EQUAL(dc_rowtable_flushed(t) + dc_rowtable_buffered(t), 100003);
    CU_ASSERT_TRUE(dc_rowtable_flushed(t) > 0);
    CU_ASSERT_EQUAL(dc_rowtable_columns(t), 2);
    CU_ASSERT_FALSE(dc_rowtable_set_failed(set));
    dc_rowtable_set_destroy(set);
}

/* Rows streamed: enough for 2 blocks of /jobs rows (32 bytes) and 4 of events (64). */
#define STREAM_ROWS 80011

static void test_trace_stream(void)
{
    for (int level = 0; level <= 6; level += 6) {
        fixture fx;
        fixture_make(&fx, 0, 100);
        fx.meta.compression_level = level;
        dc_rowtable_set *tabs[2] = {dc_rowtable_set_create(), dc_rowtable_set_create()};
        dc_eventlog *logs[2] = {dc_eventlog_create(), dc_eventlog_create()};
        char paths[2][600];
        path_in(paths[0], sizeof paths[0], "streamed.h5");
        path_in(paths[1], sizeof paths[1], "whole.h5");
        dc_error err;
        dc_trace_stream *ts = dc_trace_stream_open(paths[0], level, tabs[0], logs[0], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ts);
        for (int k = 0; k < 2; k++) {
            dc_rowtable *t = dc_rowtable_set_get(tabs[k], "jobs", "one row per job");
            int id = dc_rowtable_add_column(t, "job", DC_ROWCOL_I4, 0, "", "its id");
            int name = dc_rowtable_add_column(t, "name", DC_ROWCOL_STR, 20, "", "its name");
            int h = dc_rowtable_add_column(t, "run_h", DC_ROWCOL_F8, 0, "h", "its run time");
            dc_rowtable *small = dc_rowtable_set_get(tabs[k], "pools", "a short table, never flushed");
            int p = dc_rowtable_add_column(small, "nodes", DC_ROWCOL_I4, 0, "", "its nodes");
            for (int i = 0; i < 3; i++) {
                dc_rowtable_set_i4(small, p, i);
                dc_rowtable_commit(small);
            }
            for (int i = 0; i < STREAM_ROWS; i++) {
                char nm[32];
                snprintf(nm, sizeof nm, "job-%d", i);
                dc_rowtable_set_i4(t, id, i);
                dc_rowtable_set_str(t, name, nm);
                if (i % 7)
                    dc_rowtable_set_f8(t, h, i * 0.25);
                dc_rowtable_commit(t);
                dc_eventlog_add(logs[k], i * 1.5, i % 3 ? "job_start" : "job_done", "pool", i % 97, i, i / 3.0);
            }
            fx.meta.tables = tabs[k];
            if (k == 0) {
                /* given over in blocks of 16 chunks of 64 KiB (rows of 32
                 * bytes: 2,048 a chunk; events of 64: 1,024), whole chunks */
                CU_ASSERT_EQUAL(dc_rowtable_row_size(t), 32);
                CU_ASSERT_EQUAL(dc_rowtable_flushed(t), 2 * 16 * 2048);
                CU_ASSERT_TRUE(dc_rowtable_buffered(t) < 16 * 2048);
                CU_ASSERT_EQUAL(dc_rowtable_rows(t), STREAM_ROWS);
                CU_ASSERT_EQUAL(dc_eventlog_flushed(logs[k]), 4 * 16 * 1024);
                CU_ASSERT_TRUE(dc_eventlog_buffered(logs[k]) < 16 * 1024);
                CU_ASSERT_EQUAL(dc_eventlog_count(logs[k]), STREAM_ROWS);
                dc_outfile *out = dc_outfile_open(paths[0], "trace", &err);
                CU_ASSERT_PTR_NOT_NULL_FATAL(out);
                CU_ASSERT_EQUAL(dc_trace_stream_write_to(ts, out, &fx.meta, fx.summary, fx.series, logs[0], &err),
                                DC_OK);
                CU_ASSERT_EQUAL(dc_outfile_commit(out, &err), DC_OK);
                dc_trace_stream_destroy(ts);
            } else {
                CU_ASSERT_EQUAL(dc_rowtable_flushed(t), 0);
                CU_ASSERT_EQUAL(dc_trace_write(paths[1], &fx.meta, fx.summary, fx.series, logs[1], &err), DC_OK);
            }
        }
        dc_trace_file *t0 = dc_trace_open(paths[0], &err), *t1 = dc_trace_open(paths[1], &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
        char **l0 = NULL, **l1 = NULL;
        size_t n0 = 0, n1 = 0;
        CU_ASSERT_EQUAL_FATAL(dc_trace_list_datasets(t0, &l0, &n0, &err), DC_OK);
        CU_ASSERT_EQUAL_FATAL(dc_trace_list_datasets(t1, &l1, &n1, &err), DC_OK);
        CU_ASSERT_EQUAL_FATAL(n0, n1);
        for (size_t i = 0; i < n0; i++) {
            CU_ASSERT_STRING_EQUAL(l0[i], l1[i]);
            dc_table *a = dc_table_create(), *b = dc_table_create();
            CU_ASSERT_EQUAL(dc_trace_read_table(t0, l0[i], a, &err), DC_OK);
            CU_ASSERT_EQUAL(dc_trace_read_table(t1, l1[i], b, &err), DC_OK);
            check_same_table(a, b);
            for (size_t c = 0; c < dc_table_columns(a); c++)
                if (dc_table_column_type(a, c) == DC_COL_TEXT)
                    for (size_t r = 0; r < dc_table_rows(a); r++)
                        CU_ASSERT_STRING_EQUAL(dc_table_text(a, r, c), dc_table_text(b, r, c));
            if (strcmp(l0[i], "/jobs") == 0)
                CU_ASSERT_EQUAL(dc_table_rows(a), STREAM_ROWS);
            dc_table_destroy(a);
            dc_table_destroy(b);
        }
        dc_trace_free_list(l0, n0);
        dc_trace_free_list(l1, n1);
        dc_eventlog *back = dc_eventlog_create();
        CU_ASSERT_EQUAL(dc_trace_read_events(t0, back, &err), DC_OK);
        CU_ASSERT_EQUAL_FATAL(dc_eventlog_count(back), STREAM_ROWS);
        CU_ASSERT_EQUAL(
            memcmp(dc_eventlog_rows(back), dc_eventlog_rows(logs[1]), STREAM_ROWS * sizeof(dc_eventlog_row)), 0);
        dc_eventlog_destroy(back);
        dc_trace_close(t0);
        dc_trace_close(t1);
        /* the streamed datasets' chunks stay 64 KiB, as the whole file's */
        hid_t f = H5Fopen(paths[0], H5F_ACC_RDONLY, H5P_DEFAULT);
        CU_ASSERT_TRUE_FATAL(f >= 0);
        const char *ds[2] = {"/jobs", "/events"};
        const hsize_t want[2] = {2048, 1024};
        for (int i = 0; i < 2; i++) {
            hid_t d = H5Dopen2(f, ds[i], H5P_DEFAULT);
            hid_t pl = d >= 0 ? H5Dget_create_plist(d) : -1;
            hsize_t dims[1] = {0};
            CU_ASSERT_EQUAL(pl >= 0 ? H5Pget_chunk(pl, 1, dims) : -1, 1);
            CU_ASSERT_EQUAL(dims[0], want[i]);
            if (pl >= 0)
                H5Pclose(pl);
            if (d >= 0)
                H5Dclose(d);
        }
        H5Fclose(f);
        unlink(paths[0]);
        unlink(paths[1]);
        for (int k = 0; k < 2; k++) {
            dc_rowtable_set_destroy(tabs[k]);
            dc_eventlog_destroy(logs[k]);
        }
        fixture_free(&fx);
    }
}

/* ---- the file driver of sim/h5image.h ------------------------------------------ */

/* One file through dc_h5image_fapl_keep with spill_after bytes in memory
 * and the spool in dir: a chunked table of n doubles v[i] = 0.5 i + 1
 * appended in pieces of 10,007 (no chunk cache, so a piece ending inside a
 * chunk makes libhdf5 read that chunk back and write it again in place), a
 * contiguous 1 MiB dataset and an attribute; written to path.  Returns
 * the bytes spilled. */
static unsigned long long keep_file_write(const char *path, size_t spill_after, const char *dir, size_t n)
{
    dc_h5image *img = dc_h5image_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(img);
    CU_ASSERT_EQUAL_FATAL(dc_h5image_set_spill(img, spill_after, dir), 0);
    hid_t fapl = dc_h5image_fapl_keep(img);
    CU_ASSERT_FATAL(fapl >= 0);
    /* No objects' times (as sim/trace.c and analysis/sweep_write.c): libhdf5
     * stamps every object header with the second it was made by default,
     * and the four files, made one after the other, then differed whenever
     * a second ended between two of them (1 run in 20 on a loaded machine). */
    hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    CU_ASSERT_FATAL(fcpl >= 0 && H5Pset_obj_track_times(fcpl, 0) >= 0);
    hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, fcpl, fapl);
    CU_ASSERT_FATAL(f >= 0);
    H5Pclose(fapl);
    H5Pclose(fcpl);
    hsize_t zero = 0, unlim = H5S_UNLIMITED, chunk = 8192;
    hid_t space = H5Screate_simple(1, &zero, &unlim), dcpl = H5Pcreate(H5P_DATASET_CREATE),
          dapl = H5Pcreate(H5P_DATASET_ACCESS);
    H5Pset_obj_track_times(dcpl, 0);
    H5Pset_chunk(dcpl, 1, &chunk);
    H5Pset_chunk_cache(dapl, 0, 0, 1.0);
    hid_t d = H5Dcreate2(f, "/v", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, dapl);
    CU_ASSERT_FATAL(d >= 0);
    H5Sclose(space);
    double *piece = malloc(10007 * sizeof *piece);
    CU_ASSERT_PTR_NOT_NULL_FATAL(piece);
    for (size_t at = 0; at < n; at += 10007) {
        hsize_t k = n - at < 10007 ? n - at : 10007, start = at, end = at + k;
        for (hsize_t i = 0; i < k; i++)
            piece[i] = 0.5 * (double)(at + i) + 1;
        CU_ASSERT(H5Dset_extent(d, &end) >= 0);
        hid_t fs = H5Dget_space(d), ms = H5Screate_simple(1, &k, NULL);
        H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, NULL, &k, NULL);
        CU_ASSERT(H5Dwrite(d, H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT, piece) >= 0);
        H5Sclose(fs);
        H5Sclose(ms);
    }
    free(piece);
    H5Dclose(d);
    H5Pclose(dcpl);
    H5Pclose(dapl);
    hsize_t big = 1 << 17;
    double *w = malloc(big * sizeof *w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    for (hsize_t i = 0; i < big; i++)
        w[i] = -(double)i;
    space = H5Screate_simple(1, &big, NULL);
    dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_obj_track_times(dcpl, 0);
    d = H5Dcreate2(f, "/w", H5T_IEEE_F64LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
    H5Pclose(dcpl);
    CU_ASSERT(H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, w) >= 0);
    free(w);
    hid_t scalar = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(d, "n", H5T_STD_I64LE, scalar, H5P_DEFAULT, H5P_DEFAULT);
    long long nn = (long long)n;
    CU_ASSERT(H5Awrite(a, H5T_NATIVE_LLONG, &nn) >= 0);
    H5Aclose(a);
    H5Sclose(scalar);
    H5Sclose(space);
    H5Dclose(d);
    CU_ASSERT_FATAL(H5Fclose(f) >= 0);
    dc_error err;
    dc_outfile *out = dc_outfile_open(path, "trace", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(out);
    char why[512];
    CU_ASSERT_EQUAL(dc_h5image_write(img, out, why, sizeof why), 0);
    CU_ASSERT_EQUAL(dc_outfile_commit(out, &err), DC_OK);
    unsigned long long spilled = dc_h5image_spilled(img);
    dc_h5image_destroy(img);
    return spilled;
}

/* The whole of a file, malloc'd, its size in *n. */
static unsigned char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    unsigned char *buf = malloc(len > 0 ? (size_t)len : 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    CU_ASSERT_EQUAL(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    *n = (size_t)len;
    return buf;
}

/* The same file kept all in memory, spilled from the first raw byte on,
 * spilled after 1 MB, and with a spool that cannot be created (memory
 * then): byte for byte the same files (with the checksum), read back
 * exactly by libhdf5, the spool's bytes counted, no spool file left in
 * its directory (main checks g_dir is empty). */
static void test_h5image_spill(void)
{
    const size_t n = 300000; /* 2.4 MB of doubles in 37 chunks */
    char paths[4][600];
    const char *names[4] = {"mem.h5", "spill0.h5", "spill1m.h5", "nodir.h5"};
    for (int k = 0; k < 4; k++)
        path_in(paths[k], sizeof paths[k], names[k]);
    CU_ASSERT_EQUAL(keep_file_write(paths[0], SIZE_MAX, g_dir, n), 0);
    unsigned long long s0 = keep_file_write(paths[1], 0, g_dir, n);
    unsigned long long s1 = keep_file_write(paths[2], 1000000, g_dir, n);
    CU_ASSERT_EQUAL(keep_file_write(paths[3], 0, "/nonexistent/dcsim-test", n), 0);
    /* every raw byte (the table's 2,457,600-byte chunks, the 1 MiB array)
     * at least once; after 1 MB, less, but still most */
    CU_ASSERT_TRUE(s0 >= 37 * 65536 + (1 << 20));
    CU_ASSERT_TRUE(s1 < s0 && s1 >= 37 * 65536 + (1 << 20) - 1000000 - 2 * 65536);
    size_t len0;
    unsigned char *b0 = slurp(paths[0], &len0);
    for (int k = 1; k < 4; k++) {
        size_t len;
        unsigned char *b = slurp(paths[k], &len);
        CU_ASSERT_EQUAL(len, len0);
        CU_ASSERT_TRUE(len == len0 && memcmp(b, b0, len) == 0);
        free(b);
    }
    free(b0);
    char why[256];
    CU_ASSERT_EQUAL(dc_h5image_verify(paths[1], why, sizeof why), 0);
    hid_t f = H5Fopen(paths[1], H5F_ACC_RDONLY, H5P_DEFAULT);
    CU_ASSERT_FATAL(f >= 0);
    double *v = malloc(n * sizeof *v), *w = malloc((1 << 17) * sizeof *w);
    CU_ASSERT_PTR_NOT_NULL_FATAL(v);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    hid_t d = H5Dopen2(f, "/v", H5P_DEFAULT);
    CU_ASSERT(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v) >= 0);
    H5Dclose(d);
    d = H5Dopen2(f, "/w", H5P_DEFAULT);
    CU_ASSERT(H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, w) >= 0);
    H5Dclose(d);
    H5Fclose(f);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += v[i] != 0.5 * (double)i + 1;
    for (size_t i = 0; i < (1 << 17); i++)
        bad += w[i] != -(double)i;
    CU_ASSERT_EQUAL(bad, 0);
    free(v);
    free(w);
    for (int k = 0; k < 4; k++)
        unlink(paths[k]);
}

static int register_tests(void)
{
    DC_TEST_SUITE("json", {"the writer: layout, escapes, numbers, errors", test_json_writer},
                  {"shortest round-trip numbers", test_format_shortest});
    DC_TEST_SUITE("summary", {"set, get, order", test_summary_set_get_order},
                  {"add accumulates", test_summary_add}, {"JSON", test_summary_json},
                  {"keys with the same hash", test_summary_collision},
                  {"text with breakdown", test_summary_text});
    DC_TEST_SUITE("series", {"step semantics", test_series_steps}, {"off, kept", test_series_off_and_kept});
    DC_TEST_SUITE("eventlog", {"rows, truncation, growth", test_eventlog_rows});
    DC_TEST_SUITE("trace", {"round trip", test_trace_roundtrip},
                  {"deflate and a large scenario", test_trace_compressed_and_large_scenario},
                  {"empty outputs", test_trace_empty},
                  {"identical bytes for identical runs", test_trace_deterministic},
                  {"failed writes leave old file", test_trace_write_failures},
                  {"check writable", test_trace_check_writable},
                  {"open errors", test_trace_open_errors},
                  {"missing datasets", test_trace_missing_parts},
                  {"format 1 read as format 2", test_trace_format1},
                  {"rows streamed during the run", test_trace_stream},
                  {"file driver: spilled and in-memory images the same bytes", test_h5image_spill},
                  {"rows dropped: counted, at most 64 KiB held", test_rowtable_drop},
                  {"checksum: XXH3 block, XXH64 and FNV-1a blocks of older traces, other versions",
                   test_trace_checksum_versions},
                  {"empty event log and series: chunked, the rest contiguous, read back", test_trace_empty_parts});
    DC_TEST_SUITE("xxh64", {"reference values, pieces", test_xxh64});
    DC_TEST_SUITE("xxh3", {"libxxhash's values at every path, pieces, each stripes' code", test_xxh3});
    return 0;
}

int main(void)
{
    const char *tmpdir = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/dcsim_test_trace.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(g_dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (CU_initialize_registry() != CUE_SUCCESS)
        return 1;
    if (register_tests() != 0) {
        CU_cleanup_registry();
        return 1;
    }
    int status = dc_test_run_all();
    if (dc_runner_count_entries(g_dir) != 0) {
        fprintf(stderr, "test_trace: files left in %s\n", g_dir);
        status = 1;
    } else {
        rmdir(g_dir);
    }
    return status;
}
