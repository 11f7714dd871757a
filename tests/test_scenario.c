/* Tests: sim/scenario.c (loading, validation messages, defaults, --set, reference table).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Tests of sim/scenario.c: loading, validation against a schema (each kind of
 * error with its exact message), defaults, --set overrides, the effective
 * scenario text and the reference table.  The schema is defined here so that
 * the tests do not depend on any model. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenario.h"
#include "testutil.h"

int test_scenario_register(void);

#define INF INFINITY

/* Core keys: top-level values and a required group. */
static const dc_param core_params[] = {
    /* a zero range means >= 0 */
    {"seed", DC_PARAM_INT, 0, "", 42, NULL, 0, 0, NULL, "random seed"},
    {"name", DC_PARAM_STRING, 0, "", 0, "unnamed", 0, 0, NULL, "scenario name"},
    {"horizon_days", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "days", 30, NULL, 0, 36500, NULL,
     "simulated time"},
    {"verbose", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL, "chatty | loud"},
    {"job", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "the training job"},
    {"job.nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 1, 1e6, NULL, "nodes used"},
    {"job.mfu", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.4, NULL, 0, 1, NULL,
     "model FLOP utilisation"},
    {"job.checkpoint_s", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "s", 0, "auto",
     0, INF, NULL, "checkpoint interval"},
    {"job.async", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL, "asynchronous checkpoints"},
    {"job.note", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, "ignored", 0, 0, NULL, "a note"},
    {"job.tag", DC_PARAM_STRING, 0, "", 0, NULL, 0, 0, NULL, "a tag"},
    {"job.priority", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "", 0, NULL, -10, 10, NULL, "priority"},
    {"job.slack", DC_PARAM_FLOAT, DC_PARAM_MAX_EXCLUSIVE, "", 0.5, NULL, 0, 1, NULL, "slack"},
    {0},
};

/* Model keys: optional groups, a list of groups, an implicit group (cost). */
static const dc_param model_params[] = {
    {"cluster", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "the machines"},
    {"cluster.nodes", DC_PARAM_INT, 0, "", 16, NULL, 1, INF, NULL, "nodes"},
    {"cluster.network", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "the fabric"},
    {"cluster.network.bw_gbps", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "Gb/s", 400, NULL, 0, INF,
     NULL, "link bandwidth"},
    {"failures", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL, "failure processes"},
    {"failures.[].component", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "component"},
    {"failures.[].law", DC_PARAM_STRING, 0, "", 0, "exponential", 0, 0,
     "exponential|weibull|lognormal|gamma|constant", "law"},
    {"failures.[].mtbf_h", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "h", 0,
     NULL, 0, INF, NULL, "mean time between failures"},
    {"failures.[].shape", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0,
     NULL, 0, INF, NULL, "Weibull shape"},
    {"power", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "facility power"},
    {"power.cap_mw", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "MW", 0, NULL, 0,
     INF, NULL, "facility cap"},
    {"power.pue", DC_PARAM_FLOAT, 0, "", 1.2, NULL, 1, 3, NULL, "power usage effectiveness"},
    {"cost.capex_usd", DC_PARAM_INT, 0, "USD", 0, NULL, 0, 1e13, NULL, "capital expenditure"},
    {0},
};

static const dc_param *const schemas[] = {core_params, model_params, NULL};

/* Lines numbered for the expected messages. */
static const char base_text[] =
    "name = \"demo\";\n"                                                        /* 1 */
    "job = {\n"                                                                 /* 2 */
    "  nodes = 8;\n"                                                            /* 3 */
    "  mfu = 0.5;\n"                                                            /* 4 */
    "};\n"                                                                      /* 5 */
    "failures = (\n"                                                            /* 6 */
    "  { component = \"gpu\"; mtbf_h = 5; },\n"                                 /* 7 */
    "  { component = \"nic\"; law = \"weibull\"; mtbf_h = 2000.5; shape = 1.2; }\n" /* 8 */
    ");\n"                                                                      /* 9 */
    "cost = { capex_usd = 12800000000L; };\n";                                  /* 10 */

static dc_scenario *load(const char *text, dc_error *err)
{
    dc_scenario *sc = NULL;
    dc_error_clear(err);
    int rc = dc_scenario_load_string(text, "t.cfg", &sc, err);
    CU_ASSERT_EQUAL(rc, DC_OK);
    if (rc != DC_OK) {
        fprintf(stderr, "load: %s\n", err->msg);
        return NULL;
    }
    dc_scenario_set_schema(sc, schemas);
    return sc;
}

/* Whether validating text fails with DC_EINPUT and exactly msg. */
static void expect_invalid(const char *text, const char *msg)
{
    dc_error err;
    dc_scenario *sc = load(text, &err);
    if (!sc)
        return;
    char *before = dc_scenario_text(sc);
    int rc = dc_scenario_validate(sc, &err);
    CU_ASSERT_EQUAL(rc, DC_EINPUT);
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, msg);
    if (rc != DC_EINPUT || strcmp(err.msg, msg) != 0)
        fprintf(stderr, "\n  want: %s\n  got:  %s (%d)\n", msg, err.msg, rc);
    /* a failed validation changes nothing */
    char *after = dc_scenario_text(sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_STRING_EQUAL(before, after);
    free(before);
    free(after);
    dc_scenario_destroy(sc);
}

static long long get_int(const dc_scenario *sc, const char *path)
{
    long long v = -999;
    config_setting_t *s = dc_scenario_lookup(sc, path);
    CU_ASSERT_PTR_NOT_NULL(s);
    if (s)
        CU_ASSERT_TRUE(config_setting_lookup_int64(config_setting_parent(s), config_setting_name(s),
                                                   &v));
    return v;
}

static double get_float(const dc_scenario *sc, const char *path)
{
    double v = NAN;
    CU_ASSERT_TRUE(config_lookup_float(dc_scenario_config(sc), path, &v));
    return v;
}

static int get_bool(const dc_scenario *sc, const char *path)
{
    int v = -1;
    CU_ASSERT_TRUE(config_lookup_bool(dc_scenario_config(sc), path, &v));
    return v;
}

static const char *get_string(const dc_scenario *sc, const char *path)
{
    const char *v = NULL;
    CU_ASSERT_TRUE(config_lookup_string(dc_scenario_config(sc), path, &v));
    return v ? v : "(absent)";
}

/* ---------- valid scenarios and defaults ---------- */

static void test_valid_defaults(void)
{
    dc_error err;
    dc_scenario *sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_STRING_EQUAL(dc_scenario_file(sc), "t.cfg");
    int rc = dc_scenario_validate(sc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, DC_OK);

    /* values from the file */
    CU_ASSERT_STRING_EQUAL(get_string(sc, "name"), "demo");
    CU_ASSERT_EQUAL(get_int(sc, "job.nodes"), 8);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "job.mfu"), 0.5, 0);
    CU_ASSERT_EQUAL(get_int(sc, "cost.capex_usd"), 12800000000LL);
    /* an integer at a float key reads as a float */
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "failures.[0].mtbf_h"), 5.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(config_setting_get_float(dc_scenario_lookup(sc, "failures.[0].mtbf_h")),
                           5.0, 0);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "failures.[1].shape"), 1.2, 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "failures.[1].law"), "weibull");

    /* defaults: top level, in present groups, in each list element */
    CU_ASSERT_EQUAL(get_int(sc, "seed"), 42);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "horizon_days"), 30.0, 0);
    CU_ASSERT_EQUAL(get_bool(sc, "verbose"), 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "job.checkpoint_s"), "auto");
    CU_ASSERT_EQUAL(get_bool(sc, "job.async"), 1);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "job.slack"), 0.5, 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "failures.[0].law"), "exponential");
    /* filled defaults have no source line */
    CU_ASSERT_EQUAL(config_setting_source_line(dc_scenario_lookup(sc, "seed")), 0);
    CU_ASSERT_EQUAL(config_setting_source_line(dc_scenario_lookup(sc, "job.nodes")), 3);

    /* NO_DEFAULT, strings without default, absent groups: not created */
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "job.note"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "job.tag"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "job.priority"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "failures.[0].shape"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "cluster"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "cluster.nodes"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "power"));

    /* validating again changes nothing */
    char *t1 = dc_scenario_text(sc);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    char *t2 = dc_scenario_text(sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t2);
    CU_ASSERT_STRING_EQUAL(t1, t2);
    free(t1);
    free(t2);
    dc_scenario_destroy(sc);
}

static void test_present_groups_get_defaults(void)
{
    dc_error err;
    dc_scenario *sc = load("job = { nodes = 2; checkpoint_s = 600; };\n"
                           "cluster = { network = { }; };\n"
                           "power = { cap_mw = 20; };\n",
                           &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_EQUAL(get_int(sc, "cluster.nodes"), 16);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "cluster.network.bw_gbps"), 400, 0);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "power.pue"), 1.2, 0);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "power.cap_mw"), 20, 0);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "job.checkpoint_s"), 600, 0);
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "failures"));
    CU_ASSERT_PTR_NULL(dc_scenario_lookup(sc, "cost"));
    dc_scenario_destroy(sc);

    /* an empty list of groups is fine */
    sc = load("job = { nodes = 2; };\nfailures = ();\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    dc_scenario_destroy(sc);
}

static void test_duplicate_rows(void)
{
    /* the same path in two tables: the first row wins everywhere */
    static const dc_param again[] = {
        {"cluster.nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 99, NULL, 1000, 2000, NULL, "dup"},
        {0},
    };
    static const dc_param *const dup_schemas[] = {core_params, model_params, again, NULL};
    dc_error err;
    dc_scenario *sc = load("job = { nodes = 2; };\ncluster = { };\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_scenario_set_schema(sc, dup_schemas);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_EQUAL(get_int(sc, "cluster.nodes"), 16);
    dc_scenario_destroy(sc);
}

/* ---------- validation errors ---------- */

#define JOB "job = { nodes = 8; };\n"

static void test_unknown_keys(void)
{
    expect_invalid(JOB "cluster = { nodez = 4; };\n",
                   "t.cfg:2: cluster.nodez: unknown key (did you mean cluster.nodes?)");
    expect_invalid("job = { ndoes = 8; };\n",
                   "t.cfg:1: job.ndoes: unknown key (did you mean job.nodes?)");
    expect_invalid(JOB "zzzz = 1;\n", "t.cfg:2: zzzz: unknown key");
    expect_invalid(JOB "clustr = { nodes = 4; };\n",
                   "t.cfg:2: clustr: unknown key (did you mean cluster?)");
    expect_invalid(JOB "failures = (\n"
                       "  { component = \"gpu\"; mtbf_h = 1.0; },\n"
                       "  { component = \"nic\";\n"
                       "    mtbf = 2.0; }\n"
                       ");\n",
                   "t.cfg:5: failures.[1].mtbf: unknown key (did you mean failures.[1].mtbf_h?)");
    /* an implicit group (no row of its own) is known; its unknown children are not */
    expect_invalid(JOB "cost = { capex = 1; };\n",
                   "t.cfg:2: cost.capex: unknown key (did you mean cost.capex_usd?)");
    /* unknown keys are reported before type errors on earlier lines */
    expect_invalid("job = { nodes = \"x\"; };\nbogus = 1;\n", "t.cfg:2: bogus: unknown key");
}

static void test_type_errors(void)
{
    expect_invalid("job = { nodes = \"8\"; };\n",
                   "t.cfg:1: job.nodes: expected an integer, got a string");
    expect_invalid("job = { nodes = 8.0; };\n",
                   "t.cfg:1: job.nodes: expected an integer, got a float");
    expect_invalid("job = { nodes = 8; mfu = \"high\"; };\n",
                   "t.cfg:1: job.mfu: expected a number, got a string");
    expect_invalid("job = { nodes = 8;\n checkpoint_s = \"never\"; };\n",
                   "t.cfg:2: job.checkpoint_s: expected a number or \"auto\" (got \"never\")");
    expect_invalid("job = { nodes = 8; checkpoint_s = true; };\n",
                   "t.cfg:1: job.checkpoint_s: expected a number or \"auto\", got a boolean");
    expect_invalid(JOB "verbose = 1;\n",
                   "t.cfg:2: verbose: expected a boolean (true or false), got an integer");
    expect_invalid(JOB "name = 5;\n", "t.cfg:2: name: expected a string, got an integer");
    expect_invalid(JOB "name = [1, 2];\n", "t.cfg:2: name: expected a string, got an array");
    expect_invalid(JOB "cluster = 3;\n",
                   "t.cfg:2: cluster: expected a group { ... }, got an integer");
    expect_invalid(JOB "failures = { a = 1; };\n",
                   "t.cfg:2: failures: expected a list of groups ( {...}, ... ), got a group");
    expect_invalid(JOB "failures = ( 1 );\n",
                   "t.cfg:2: failures.[0]: expected a group { ... }, got an integer");
    expect_invalid("job = { nodes = 8; mfu = 1e999; };\n",
                   "t.cfg:1: job.mfu: expected a finite number, got inf");
    /* types are checked before ranges */
    expect_invalid("job = { nodes = 0; mfu = \"x\"; };\n",
                   "t.cfg:1: job.mfu: expected a number, got a string");
}

static void test_range_errors(void)
{
    expect_invalid("job = {\n nodes = 0; };\n", "t.cfg:2: job.nodes: must be at least 1 (got 0)");
    expect_invalid("job = { nodes = 2000000; };\n",
                   "t.cfg:1: job.nodes: must be at most 1000000 (got 2000000)");
    expect_invalid("job = { nodes = 8; mfu = 0; };\n",
                   "t.cfg:1: job.mfu: must be greater than 0 (got 0)");
    expect_invalid("job = { nodes = 8; mfu = 1.5; };\n",
                   "t.cfg:1: job.mfu: must be at most 1 (got 1.5)");
    expect_invalid("job = { nodes = 8; slack = 1.0; };\n",
                   "t.cfg:1: job.slack: must be less than 1 (got 1)");
    expect_invalid("job = { nodes = 8; priority = -11; };\n",
                   "t.cfg:1: job.priority: must be at least -10 (got -11)");
    expect_invalid(JOB "horizon_days = 0.0;\n",
                   "t.cfg:2: horizon_days: must be greater than 0 (got 0)");
    expect_invalid(JOB "seed = -1;\n", "t.cfg:2: seed: must be at least 0 (got -1)");
    expect_invalid(JOB "cost = { capex_usd = 99999999999999L; };\n",
                   "t.cfg:2: cost.capex_usd: must be at most 10000000000000 (got 99999999999999)");
    expect_invalid(JOB "failures = (\n"
                       "  { component = \"gpu\"; mtbf_h = 1.0; law = \"weibul\"; }\n"
                       ");\n",
                   "t.cfg:3: failures.[0].law: must be one of "
                   "exponential|weibull|lognormal|gamma|constant (got \"weibul\")");
    expect_invalid(JOB "failures = ( { component = \"gpu\"; mtbf_h = 1.0; },\n"
                       "  { component = \"nic\"; mtbf_h = -2.5; } );\n",
                   "t.cfg:3: failures.[1].mtbf_h: must be greater than 0 (got -2.5)");
}

static void test_required_errors(void)
{
    expect_invalid("name = \"x\";\njob = {\n  mfu = 0.5;\n};\n",
                   "t.cfg:2: job: required key 'nodes' missing");
    expect_invalid("name = \"x\";\n", "t.cfg: job: required key missing");
    expect_invalid(JOB "failures = (\n"
                       "  { component = \"gpu\"; mtbf_h = 1.0; },\n"
                       "  { component = \"nic\"; }\n"
                       ");\n",
                   "t.cfg:4: failures.[1]: required key 'mtbf_h' missing");
    expect_invalid(JOB "power = { pue = 1.1; };\n", "t.cfg:2: power: required key 'cap_mw' missing");
}

/* ---------- loading ---------- */

static char *write_temp(const char *text)
{
    char tmpl[] = "/tmp/dcsim_test_scenario_XXXXXX";
    int fd = mkstemp(tmpl);
    CU_ASSERT_FATAL(fd >= 0);
    FILE *f = fdopen(fd, "w");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    fputs(text, f);
    fclose(f);
    return strdup(tmpl);
}

static void test_load_errors(void)
{
    dc_error err;
    dc_scenario *sc = NULL;
    int rc = dc_scenario_load_string("a = 1;\nb = ;\n", "x.cfg", &sc, &err);
    CU_ASSERT_EQUAL(rc, DC_EINPUT);
    CU_ASSERT_PTR_NULL(sc);
    CU_ASSERT_STRING_EQUAL(err.msg, "x.cfg:2: syntax error (libconfig: syntax error)");

    rc = dc_scenario_load_file("/nonexistent-dir/x.cfg", &sc, &err);
    CU_ASSERT_EQUAL(rc, DC_EIO);
    CU_ASSERT_PTR_NULL(sc);
    CU_ASSERT_STRING_EQUAL(err.msg,
                           "cannot read scenario '/nonexistent-dir/x.cfg': No such file or directory");

    rc = dc_scenario_load_file("/tmp", &sc, &err);
    CU_ASSERT_EQUAL(rc, DC_EIO);
    CU_ASSERT_STRING_EQUAL(err.msg, "cannot read scenario '/tmp': Is a directory");

    /* a syntax error in a file names the file */
    char *path = write_temp("a = 1;\n\nc = {\n");
    char want[512];
    rc = dc_scenario_load_file(path, &sc, &err);
    CU_ASSERT_EQUAL(rc, DC_EINPUT);
    snprintf(want, sizeof want, "%s:4: syntax error (libconfig: syntax error)", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    unlink(path);
    free(path);

    /* validation errors in a file name the file and the line */
    path = write_temp("job = {\n  nodes = 0;\n};\n");
    rc = dc_scenario_load_file(path, &sc, &err);
    CU_ASSERT_EQUAL_FATAL(rc, DC_OK);
    CU_ASSERT_STRING_EQUAL(dc_scenario_file(sc), path);
    dc_scenario_set_schema(sc, schemas);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_EINPUT);
    snprintf(want, sizeof want, "%s:2: job.nodes: must be at least 1 (got 0)", path);
    CU_ASSERT_STRING_EQUAL(err.msg, want);
    dc_scenario_destroy(sc);
    unlink(path);
    free(path);

    /* validating without a schema is a programming error */
    sc = load(JOB, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    dc_scenario_set_schema(sc, NULL);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_EINTERNAL);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.nodes=1", &err), DC_EINTERNAL);
    dc_scenario_destroy(sc);
}

/* ---------- --set ---------- */

static void test_set_values(void)
{
    dc_error err;
    dc_scenario *sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    static const char *const sets[] = {
        "job.nodes=16",                  /* existing int */
        "job.mfu=1",                     /* existing float, given as an integer */
        "job.checkpoint_s=auto",         /* AUTO */
        "verbose=true",                  /* new top-level key */
        "seed=0x10",                     /* hex */
        "cluster.network.bw_gbps=800",   /* creates cluster and cluster.network */
        "failures.[1].mtbf_h=300.25",    /* list element, existing key */
        "failures[0].law=weibull",       /* bare string, index without a dot */
        "failures.[0].shape=2",          /* list element, new key */
        "name=\"quoted \\\"x\\\"\"",     /* quoted string with escapes */
        "job.tag=two words",             /* bare string */
        "cost.capex_usd=5000000000L",    /* int64 */
        "job.priority=-3",
        " job.async = false ",           /* blanks around PATH and VALUE */
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) {
        int rc = dc_scenario_set(sc, sets[i], &err);
        CU_ASSERT_EQUAL(rc, DC_OK);
        if (rc)
            fprintf(stderr, "\n  %s: %s\n", sets[i], err.msg);
    }
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_EQUAL(get_int(sc, "job.nodes"), 16);
    CU_ASSERT_EQUAL(config_setting_source_line(dc_scenario_lookup(sc, "job.nodes")), 0);
    CU_ASSERT_EQUAL(config_setting_type(dc_scenario_lookup(sc, "job.mfu")), CONFIG_TYPE_FLOAT);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "job.mfu"), 1.0, 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "job.checkpoint_s"), "auto");
    CU_ASSERT_EQUAL(get_bool(sc, "verbose"), 1);
    CU_ASSERT_EQUAL(get_int(sc, "seed"), 16);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "cluster.network.bw_gbps"), 800, 0);
    CU_ASSERT_EQUAL(get_int(sc, "cluster.nodes"), 16); /* default in the created group */
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "failures.[1].mtbf_h"), 300.25, 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "failures.[0].law"), "weibull");
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "failures.[0].shape"), 2, 0);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "failures.[0].component"), "gpu");
    CU_ASSERT_STRING_EQUAL(get_string(sc, "name"), "quoted \"x\"");
    CU_ASSERT_STRING_EQUAL(get_string(sc, "job.tag"), "two words");
    CU_ASSERT_EQUAL(get_int(sc, "cost.capex_usd"), 5000000000LL);
    CU_ASSERT_EQUAL(get_int(sc, "job.priority"), -3);
    CU_ASSERT_EQUAL(get_bool(sc, "job.async"), 0);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.tag=  spaced  ", &err), DC_OK);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "job.tag"), "spaced");
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.tag=\"  spaced  \"", &err), DC_OK);
    CU_ASSERT_STRING_EQUAL(get_string(sc, "job.tag"), "  spaced  ");

    /* setting twice keeps the last value; --set repairs a wrong type */
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.checkpoint_s=600", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.checkpoint_s=900.5", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "job.checkpoint_s"), 900.5, 0);
    dc_scenario_destroy(sc);

    sc = load("job = { nodes = \"many\"; };\n", &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.nodes=4", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_EQUAL(get_int(sc, "job.nodes"), 4);
    dc_scenario_destroy(sc);
}

static void expect_set_error(const char *text, const char *assignment, const char *msg)
{
    dc_error err;
    dc_scenario *sc = load(text, &err);
    if (!sc)
        return;
    char *before = dc_scenario_text(sc);
    int rc = dc_scenario_set(sc, assignment, &err);
    CU_ASSERT_EQUAL(rc, DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, msg);
    if (rc != DC_EINPUT || strcmp(err.msg, msg) != 0)
        fprintf(stderr, "\n  want: %s\n  got:  %s (%d)\n", msg, err.msg, rc);
    char *after = dc_scenario_text(sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(before);
    CU_ASSERT_PTR_NOT_NULL_FATAL(after);
    CU_ASSERT_STRING_EQUAL(before, after); /* a failed --set changes nothing */
    free(before);
    free(after);
    dc_scenario_destroy(sc);
}

static void test_set_errors(void)
{
    expect_set_error(base_text, "job.nodes=abc", "--set job.nodes=abc: expected an integer");
    expect_set_error(base_text, "job.nodes=", "--set job.nodes=: expected an integer");
    expect_set_error(base_text, "job.nodes=1.5", "--set job.nodes=1.5: expected an integer");
    expect_set_error(base_text, "job.nodes=99999999999999999999",
                     "--set job.nodes=99999999999999999999: expected an integer (out of range)");
    expect_set_error(base_text, "jb.nodes=1", "--set jb.nodes=1: unknown key (did you mean job.nodes?)");
    expect_set_error(base_text, "qqq.zzz=1", "--set qqq.zzz=1: unknown key");
    expect_set_error(base_text, "job.nodes", "--set job.nodes: expected PATH=VALUE");
    expect_set_error(base_text, "=5", "--set =5: expected PATH=VALUE");
    expect_set_error(base_text, "a..b=1", "--set a..b=1: invalid path 'a..b'");
    expect_set_error(base_text, "job.mfu=nan", "--set job.mfu=nan: expected a finite number");
    expect_set_error(base_text, "job.mfu=1e999", "--set job.mfu=1e999: expected a finite number");
    expect_set_error(base_text, "job.mfu=fast", "--set job.mfu=fast: expected a number");
    expect_set_error(base_text, "job.checkpoint_s=soon",
                     "--set job.checkpoint_s=soon: expected a number or \"auto\"");
    expect_set_error(base_text, "verbose=yes", "--set verbose=yes: expected true or false");
    expect_set_error(base_text, "name=\"abc",
                     "--set name=\"abc: expected a string (unbalanced double quotes)");
    expect_set_error(base_text, "job=1", "--set job=1: job is a group, not a single value");
    expect_set_error(base_text, "failures=1", "--set failures=1: failures is a list, not a single value");
    expect_set_error(base_text, "failures.[0]=1",
                     "--set failures.[0]=1: failures.[0] is a group, not a single value");
    expect_set_error(base_text, "failures.[5].mtbf_h=1",
                     "--set failures.[5].mtbf_h=1: failures has no element [5] (it has 2)");
    expect_set_error(JOB, "failures.[0].mtbf_h=1",
                     "--set failures.[0].mtbf_h=1: failures is not in the scenario "
                     "(--set does not create list elements)");
    expect_set_error("cluster = 3;\n", "cluster.nodes=4",
                     "--set cluster.nodes=4: cluster in the scenario is an integer, not a group");
}

static void test_set_then_validate_errors(void)
{
    dc_error err;
    dc_scenario *sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.nodes=0", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "(--set) job.nodes: must be at least 1 (got 0)");
    dc_scenario_destroy(sc);

    sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "failures.[1].law=weibul", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "(--set) failures.[1].law: must be one of "
                                    "exponential|weibull|lognormal|gamma|constant (got \"weibul\")");
    dc_scenario_destroy(sc);

    /* a group created by --set lacks its required keys */
    sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "power.pue=1.1", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "(--set) power: required key 'cap_mw' missing");
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "power.cap_mw=30", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_validate(sc, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(get_float(sc, "power.pue"), 1.1, 0);
    dc_scenario_destroy(sc);
}

/* ---------- effective text, paths, error_at, reference ---------- */

static void test_text_round_trip(void)
{
    dc_error err;
    dc_scenario *sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.mfu=0.123456789012345", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "horizon_days=1e-5", &err), DC_OK);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "name=a \"b\" \\c", &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    char *text = dc_scenario_text(sc);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);

    dc_scenario *again = NULL;
    CU_ASSERT_EQUAL_FATAL(dc_scenario_load_string(text, "effective", &again, &err), DC_OK);
    dc_scenario_set_schema(again, schemas);
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(again, &err), DC_OK);
    static const char *const ints[] = {"seed", "job.nodes", "cost.capex_usd"};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        CU_ASSERT_EQUAL(get_int(again, ints[i]), get_int(sc, ints[i]));
    static const char *const floats[] = {"horizon_days", "job.mfu", "job.slack",
                                         "failures.[0].mtbf_h", "failures.[1].mtbf_h",
                                         "failures.[1].shape"};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        CU_ASSERT_EQUAL(get_float(again, floats[i]), get_float(sc, floats[i]));
    CU_ASSERT_DOUBLE_EQUAL(get_float(again, "job.mfu"), 0.123456789012345, 0);
    CU_ASSERT_DOUBLE_EQUAL(get_float(again, "horizon_days"), 1e-5, 0);
    static const char *const strings[] = {"name", "job.checkpoint_s", "failures.[0].law",
                                          "failures.[1].component"};
    for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++)
        CU_ASSERT_STRING_EQUAL(get_string(again, strings[i]), get_string(sc, strings[i]));
    CU_ASSERT_STRING_EQUAL(get_string(again, "name"), "a \"b\" \\c");
    CU_ASSERT_EQUAL(get_bool(again, "job.async"), get_bool(sc, "job.async"));
    char *text2 = dc_scenario_text(again);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text2);
    CU_ASSERT_STRING_EQUAL(text, text2);
    free(text);
    free(text2);
    dc_scenario_destroy(again);
    dc_scenario_destroy(sc);
}

static void test_paths_and_error_at(void)
{
    dc_error err;
    dc_scenario *sc = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sc);
    CU_ASSERT_EQUAL(dc_scenario_set(sc, "job.mfu=0.25", &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(sc, &err), DC_OK);
    char buf[64];
    config_setting_t *s = dc_scenario_lookup(sc, "failures.[1].mtbf_h");
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    dc_scenario_setting_path(s, buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "failures.[1].mtbf_h");
    dc_scenario_setting_path(config_setting_parent(s), buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "failures.[1]");
    dc_scenario_setting_path(s, buf, 5);
    CU_ASSERT_STRING_EQUAL(buf, "fail");
    dc_scenario_setting_path(config_root_setting(dc_scenario_config(sc)), buf, sizeof buf);
    CU_ASSERT_STRING_EQUAL(buf, "");

    /* from the file: FILE:LINE */
    CU_ASSERT_EQUAL(dc_scenario_error_at(sc, s, &err, "larger than %d", 1000), DC_EINPUT);
    CU_ASSERT_EQUAL(err.code, DC_EINPUT);
    CU_ASSERT_STRING_EQUAL(err.msg, "t.cfg:8: failures.[1].mtbf_h: larger than 1000");
    /* a filled default: the line of its group (`job = {`) */
    dc_scenario_error_at(sc, dc_scenario_lookup(sc, "job.async"), &err, "not with %s", "x");
    CU_ASSERT_STRING_EQUAL(err.msg, "t.cfg:2: job.async: not with x");
    /* from --set */
    dc_scenario_error_at(sc, dc_scenario_lookup(sc, "job.mfu"), &err, "too low");
    CU_ASSERT_STRING_EQUAL(err.msg, "(--set) job.mfu: too low");
    /* a filled default in groups that only --set made: (--set) (was "t.cfg: cluster.nodes: ...") */
    dc_scenario *made = load(base_text, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(made);
    CU_ASSERT_EQUAL(dc_scenario_set(made, "cluster.network.bw_gbps=100", &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_scenario_validate(made, &err), DC_OK);
    dc_scenario_error_at(made, dc_scenario_lookup(made, "cluster.nodes"), &err, "too few");
    CU_ASSERT_STRING_EQUAL(err.msg, "(--set) cluster.nodes: too few");
    dc_scenario_destroy(made);
    /* no setting */
    dc_scenario_error_at(sc, NULL, &err, "job larger than the cluster (%d > %d)", 8, 4);
    CU_ASSERT_STRING_EQUAL(err.msg, "t.cfg: job larger than the cluster (8 > 4)");
    dc_scenario_destroy(sc);
}

static void test_reference(void)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    dc_scenario_write_reference(schemas, f);
    fclose(f);
    CU_ASSERT_PTR_NOT_NULL_FATAL(buf);
    for (const dc_param *const *t = schemas; *t; t++) {
        for (const dc_param *p = *t; p->type != DC_PARAM_END; p++) {
            char key[128];
            snprintf(key, sizeof key, "| `%s` |", p->path);
            CU_ASSERT_PTR_NOT_NULL(strstr(buf, key));
            if (!strstr(buf, key))
                fprintf(stderr, "\n  reference lacks %s\n", key);
            if (!strchr(p->doc, '|'))
                CU_ASSERT_PTR_NOT_NULL(strstr(buf, p->doc));
        }
    }
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "## Top-level keys"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "## `job`"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "## `failures`"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "## `cost`"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `job.nodes` | integer |  | required | [1, 1000000] | nodes used |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `job.mfu` | number |  | 0.4 | (0, 1] |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `job.checkpoint_s` | number or `auto` | s | `auto` | > 0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `seed` | integer |  | 42 | ≥ 0 |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "| `job.note` | string |  | — |"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "chatty \\| loud"));
    CU_ASSERT_PTR_NOT_NULL(strstr(buf, "`exponential`, `weibull`"));
    /* each section once */
    const char *first = strstr(buf, "## `job`");
    CU_ASSERT_PTR_NULL(first ? strstr(first + 1, "## `job`") : NULL);
    free(buf);
}

int test_scenario_register(void)
{
    DC_TEST_SUITE("scenario",
                  {"valid scenario and defaults", test_valid_defaults},
                  {"defaults in present groups only", test_present_groups_get_defaults},
                  {"duplicate schema rows", test_duplicate_rows},
                  {"unknown keys", test_unknown_keys},
                  {"type errors", test_type_errors},
                  {"range and choice errors", test_range_errors},
                  {"required keys", test_required_errors},
                  {"load errors", test_load_errors},
                  {"--set values", test_set_values},
                  {"--set errors", test_set_errors},
                  {"--set then validate", test_set_then_validate_errors},
                  {"effective text round trip", test_text_round_trip},
                  {"setting paths and error_at", test_paths_and_error_at},
                  {"reference table", test_reference});
    return 0;
}
