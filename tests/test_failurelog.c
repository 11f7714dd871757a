/* Tests: failure logs replayed exactly (models/reliability/failurelog.h), and their bad rows.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Failure logs (failurelog.h, injected by failure.c):
 * - an exact timeline: a logged failure with its repair time takes its node
 *   down at its time and brings it back exactly then (no repair ticket); a
 *   row for a node already down is skipped; a row without a repair time
 *   goes to the repair model (its detection delay, crews and law); the
 *   GPU-hours down by hand;
 * - from_log: a class whose own law would fail many times fails exactly
 *   the log's rows; without from_log the log's failures come beside its own
 *   (every logged failure at its time in /events);
 * - LANL-like date-times with return times, and node names (as the Failure
 *   Trace Archive gives) mapped to nodes in order of first appearance;
 * - a job interrupted by a logged failure at its time;
 * - fleet ages: a constant age equal to initial_age_h failure for failure,
 *   and ages from a law against the expected Weibull count (99% interval);
 * - per-class lemon nodes (bad_fraction): the class's own set, failing at
 *   its factor (99% Poisson intervals), another class another set;
 * - bad rows through the program: file, line and column, exit status 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "badinput.h"
#include "simrun.h"
#include "testutil.h"

static char tmpdir[256];

static void write_in_tmp(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    dc_test_write_text(path, text);
}

static dc_sim *run_in_tmp(const char *cfg, int64_t seed)
{
    write_in_tmp("t.cfg", cfg);
    char path[512];
    snprintf(path, sizeof path, "%s/t.cfg", tmpdir);
    return dc_simrun_file(path, NULL, 0, seed);
}

/* The failure events of the run: times and nodes, of class cls (NULL: any). */
static size_t failures_of(dc_sim *sim, const char *cls, double *t, int32_t *node, size_t max)
{
    const dc_eventlog *log = dc_sim_eventlog(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    size_t k = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++)
        if (strcmp(rows[i].kind, "failure") == 0 && (!cls || strcmp(rows[i].component, cls) == 0)) {
            if (k < max) {
                t[k] = rows[i].time_s;
                node[k] = rows[i].id;
            }
            k++;
        }
    return k;
}

/* ---------- an exact timeline ---------- */

/* 4 nodes of 8 GPUs, nodes numbered from 1 in the log.  hw at 1 h on node
 * 3 (index 2), back at 3 h (repair 2 h); hw at 2 h on node 3 again: down
 * then, skipped; sw at 5 h on node 1 (index 0), no repair time: detected
 * after 60 s, one crew, a constant 3 h: back at 5 h + 60 s + 3 h.  Down:
 * 8 x 2 h + 8 x (60 s + 3 h) GPU-h. */
static const char timeline_csv[] = "when_h,nodenum,type,down_h\n"
                                   "1.0,3,Hardware,2.0\n"
                                   "2.0,3,Hardware,1.0\n"
                                   "5.0,1,Software,\n";
static const char timeline_cfg[] =
    "horizon_days = 1.0; stop_when_done = false; trace = { events = true; };\n"
    "cluster = { nodes = 4; gpus_per_node = 8; };\n"
    "failures = ( { name = \"hw\"; from_log = true; }, { name = \"sw\"; mtbf_h = 1e9; detect_s = 60.0; } );\n"
    "repair = { crews = 1; law = \"constant\"; mean_h = 3.0; };\n"
    "failure_log = { file = \"log.csv\"; time_unit = \"h\"; node_base = 1; class_map = \"Hardware: hw, Software: sw\";\n"
    "  columns = { time = \"when_h\"; node = \"nodenum\"; class = \"type\"; repair = \"down_h\"; }; };\n";

static void test_timeline(void)
{
    write_in_tmp("log.csv", timeline_csv);
    dc_sim *sim = run_in_tmp(timeline_cfg, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double t[8];
    int32_t node[8];
    CU_ASSERT_EQUAL_FATAL(failures_of(sim, NULL, t, node, 8), 2);
    CU_ASSERT_DOUBLE_EQUAL(t[0], 3600.0, 1e-9);
    CU_ASSERT_EQUAL(node[0], 2);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 5 * 3600.0, 1e-9);
    CU_ASSERT_EQUAL(node[1], 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.hw"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.sw"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failure_log.rows"), 3, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failure_log.injected"), 2, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failure_log.skipped"), 1, 0);
    /* one ticket: the sw failure; the hw node came back by the log */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "repair.tickets"), 1, 0);
    double down = 8 * 2.0 + 8 * (60.0 + 3 * 3600.0) / 3600.0;
    printf("\n  down %.6f GPU-h (expected %.6f)\n", dc_simrun_fig(sim, "gpu_hours.down"), down);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), down, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- instead of, or beside, the random arrivals ---------- */

static const char many_csv[] = "t_h,node\n"
                               "2,0\n"
                               "4,1\n"
                               "6.5,2\n"
                               "9,3\n"
                               "30,1\n";

static void test_from_log_and_beside(void)
{
    write_in_tmp("many.csv", many_csv);
    /* mtbf 20 h on 4 nodes over 2 days: about 9.6 random failures */
    static const char cfg[] =
        "horizon_days = 2.0; stop_when_done = false; trace = { events = true; };\n"
        "cluster = { nodes = 4; gpus_per_node = 8; };\n"
        "failures = ( { name = \"hw\"; mtbf_h = 20.0; from_log = %s; repair = { law = \"constant\"; mean_h = 0.5; }; } );\n"
        "repair = { crews = 0; };\n"
        "failure_log = { file = \"many.csv\"; time_unit = \"h\"; class = \"hw\"; columns = { time = \"t_h\"; node = \"node\"; }; };\n";
    char text[2048];
    snprintf(text, sizeof text, cfg, "true");
    dc_sim *sim = run_in_tmp(text, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double t[64];
    int32_t node[64];
    static const double want_h[5] = {2, 4, 6.5, 9, 30};
    size_t n = failures_of(sim, "hw", t, node, 64);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    for (size_t k = 0; k < 5; k++) {
        CU_ASSERT_DOUBLE_EQUAL(t[k], want_h[k] * 3600, 1e-9);
        CU_ASSERT_EQUAL(node[k], (int32_t)(k == 4 ? 1 : k));
    }
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.hw"), 5, 0);
    /* repaired by the repair model (the class's law: 30 min each) */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "repair.completed"), 5, 0);
    dc_sim_destroy(sim);

    snprintf(text, sizeof text, cfg, "false");
    sim = run_in_tmp(text, 3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    n = failures_of(sim, "hw", t, node, 64);
    printf("\n  beside the log: %zu failures of hw (5 logged)\n", n);
    CU_ASSERT(n > 5);
    size_t found = 0;
    for (size_t k = 0; k < 5; k++)
        for (size_t i = 0; i < n && i < 64; i++)
            if (fabs(t[i] - want_h[k] * 3600) < 1e-9) {
                found++;
                break;
            }
    /* each logged row struck unless its node was down then */
    CU_ASSERT_EQUAL(found + (size_t)dc_simrun_fig(sim, "failure_log.skipped"), 5);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failure_log.injected"), (double)found, 0);
    dc_sim_destroy(sim);
}

/* ---------- date-times, returns, node names ---------- */

static const char lanl_csv[] = "System,Node Name,Prob Started,Prob Fixed,Failure Type\n"
                               "20,cn-b,2005-06-01 00:30:00,2005-06-01 02:00:00,Hardware\n"
                               "20,cn-a,2005-06-01 01:00:00,2005-06-01 01:10:00,Hardware\n"
                               "20,cn-b,2005-06-01 03:00:00,2005-06-01 03:30:30,Hardware\n";

static void test_datetimes_and_names(void)
{
    write_in_tmp("lanl.csv", lanl_csv);
    dc_sim *sim = run_in_tmp(
        "horizon_days = 1.0; stop_when_done = false; trace = { events = true; };\n"
        "cluster = { nodes = 3; gpus_per_node = 4; };\n"
        "failures = ( { name = \"hardware\"; from_log = true; } );\n"
        "failure_log = { file = \"lanl.csv\"; time_format = \"datetime\"; epoch = \"auto\";\n"
        "  class_map = \"Hardware: hardware\";\n"
        "  columns = { time = \"Prob Started\"; return = \"Prob Fixed\"; node = \"Node Name\"; class = \"Failure Type\"; }; };\n",
        1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double t[8];
    int32_t node[8];
    CU_ASSERT_EQUAL_FATAL(failures_of(sim, NULL, t, node, 8), 3);
    /* epoch: the first row; cn-b is node 0, cn-a node 1 */
    CU_ASSERT_DOUBLE_EQUAL(t[0], 0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[1], 1800, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(t[2], 9000, 1e-9);
    CU_ASSERT_EQUAL(node[0], 0);
    CU_ASSERT_EQUAL(node[1], 1);
    CU_ASSERT_EQUAL(node[2], 0);
    /* down 1.5 h + 10 min + 30.5 min, on nodes of 4 GPUs; no repair model */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.down"), 4 * (1.5 + 10.0 / 60 + 30.5 / 60), 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- a job interrupted at the logged time ---------- */

static void test_job_interrupted(void)
{
    write_in_tmp("one.csv", "t_h,node,rep_h\n10,3,1\n");
    dc_sim *sim = run_in_tmp("horizon_days = 5.0; trace = { events = true; };\n"
                             "cluster = { nodes = 4; spare_nodes = 1; gpus_per_node = 8; };\n"
                             "job = { nodes = 4; work_gpu_h = 1536.0; restart_s = 0.0; };\n"
                             "failures = ( { name = \"hw\"; from_log = true; } );\n"
                             "failure_log = { file = \"one.csv\"; time_unit = \"h\"; class = \"hw\";\n"
                             "  columns = { time = \"t_h\"; node = \"node\"; repair = \"rep_h\"; }; };\n",
                             1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "interruptions.hw"), 1, 0);
    const dc_eventlog *log = dc_sim_eventlog(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    double at = NAN;
    for (size_t i = 0; i < dc_eventlog_count(log); i++)
        if (strcmp(rows[i].kind, "interrupt") == 0)
            at = rows[i].time_s;
    CU_ASSERT_DOUBLE_EQUAL(at, 36000, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- a fleet of mixed ages ---------- */

/* A constant fleet age is the class's initial_age_h: the same failures at
 * the same times (the ages come from their own stream). */
static void test_fleet_constant(void)
{
    static const char cfg[] = "horizon_days = 60.0; stop_when_done = false; trace = { events = true; };\n"
                              "cluster = { nodes = 200; gpus_per_node = 8; };\n"
                              "failures = ( { name = \"node\"; law = \"weibull\"; shape = 0.6; scale_h = 5000.0; %s } );\n"
                              "repair = { crews = 0; law = \"constant\"; mean_h = 4.0; };\n%s";
    char a[1024], b[1024];
    snprintf(a, sizeof a, cfg, "initial_age_h = 3000.0;", "");
    snprintf(b, sizeof b, cfg, "", "fleet = { age = { law = \"constant\"; mean_h = 3000.0; }; };\n");
    dc_sim *sa = run_in_tmp(a, 5), *sb = run_in_tmp(b, 5);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sa);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sb);
    double ta[512], tb[512];
    int32_t na[512], nb[512];
    size_t ka = failures_of(sa, NULL, ta, na, 512), kb = failures_of(sb, NULL, tb, nb, 512);
    printf("\n  %zu and %zu failures\n", ka, kb);
    CU_ASSERT(ka > 20 && ka <= 512);
    CU_ASSERT_EQUAL_FATAL(ka, kb);
    size_t same = 0;
    for (size_t i = 0; i < ka && i < 512; i++)
        same += ta[i] == tb[i] && na[i] == nb[i];
    CU_ASSERT_EQUAL(same, ka);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sb, "failures.fleet_age_mean_h"), 3000.0, 1e-9);
    dc_sim_destroy(sa);
    dc_sim_destroy(sb);
}

/* Weibull (shape 0.5, scale 20,000 h: infant mortality) on 2,000 nodes for
 * 30 days, nothing repaired, so each node fails at most once: node i fails
 * with p(x_i) = 1 - exp(-((x_i + T)/l)^k + (x_i/l)^k).  New nodes: p(0) =
 * 0.173 (about 346 failures); ages drawn from an exponential law of mean
 * 5,000 h: E[p] = integral p(x) exp(-x/m)/m dx (trapezoid, 1 h steps to
 * 40 m), the count Binomial(2000, E[p]) within its 99% interval.  A
 * Weibull fitted to a fleet in service thus does not invent early-life
 * failures for it. */
static double p_fail(double x_h, double t_h, double l_h, double k)
{
    return 1.0 - exp(-pow((x_h + t_h) / l_h, k) + pow(x_h / l_h, k));
}

static void test_fleet_distribution(void)
{
    const double N = 2000, T = 720, L = 20000, K = 0.5, M = 5000;
    static const char cfg[] = "horizon_days = 30.0; stop_when_done = false;\n"
                              "cluster = { nodes = 2000; gpus_per_node = 8; };\n"
                              "failures = ( { name = \"node\"; law = \"weibull\"; shape = 0.5; scale_h = 20000.0; } );\n%s";
    char text[1024];
    double ep = 0, dx = 1.0;
    for (double x = 0; x < 40 * M; x += dx)
        ep += 0.5 * dx * (p_fail(x, T, L, K) * exp(-x / M) + p_fail(x + dx, T, L, K) * exp(-(x + dx) / M)) / M;
    static const char *const fleets[2] = {"", "fleet = { age = { law = \"exponential\"; mean_h = 5000.0; }; };\n"};
    double p[2] = {p_fail(0, T, L, K), ep};
    for (int f = 0; f < 2; f++) {
        snprintf(text, sizeof text, cfg, fleets[f]);
        dc_sim *sim = run_in_tmp(text, 11);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double n = dc_simrun_fig(sim, "failures.node"), mean = N * p[f], half = 2.5758 * sqrt(N * p[f] * (1 - p[f]));
        printf("\n  %s: %.0f failures, expected %.1f +- %.1f (99%%)", f ? "aged fleet" : "new fleet", n, mean, half);
        CU_ASSERT(fabs(n - mean) <= half);
        if (f)
            CU_ASSERT(fabs(dc_simrun_fig(sim, "failures.fleet_age_mean_h") - M) < 2.5758 * M / sqrt(N));
        dc_sim_destroy(sim);
    }
    printf("\n");
    CU_ASSERT(p[1] < 0.6 * p[0]); /* the test separates the two */
}

/* ---------- per-class lemon nodes ---------- */

/* 1,000 nodes for 60 days, repairs of 36 s (nodes nearly always up).
 * Class gpu: exponential, MTBF 2,000 h per node, its own 2% of bad nodes
 * failing 20 times as often: expected 1000 x 1440/2000 x (0.98 + 0.02 x 20)
 * = 993.6 failures, 288 of them on its 20 bad nodes.  Class net: its own 1%
 * (factor 10), drawn from its own stream: another set. */
static void test_class_lemons(void)
{
    dc_sim *sim = run_in_tmp("horizon_days = 60.0; stop_when_done = false; trace = { events = true; };\n"
                             "cluster = { nodes = 1000; gpus_per_node = 8; };\n"
                             "failures = ( { name = \"gpu\"; mtbf_h = 2000.0; bad_fraction = 0.02; bad_factor = 20.0; },\n"
                             "             { name = \"net\"; mtbf_h = 1e5; bad_fraction = 0.01; bad_factor = 10.0; } );\n"
                             "repair = { crews = 0; law = \"constant\"; mean_h = 0.01; };\n",
                             9);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.gpu.bad_nodes"), 20, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.net.bad_nodes"), 10, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.bad_nodes"), 0, 0);
    const dc_eventlog *log = dc_sim_eventlog(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    static uint8_t bad_gpu[1000], bad_net[1000];
    memset(bad_gpu, 0, sizeof bad_gpu);
    memset(bad_net, 0, sizeof bad_net);
    size_t on_bad = 0, total = 0, shared = 0;
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        if (strcmp(rows[i].kind, "bad_node") == 0 && rows[i].id >= 0 && rows[i].id < 1000) {
            if (strcmp(rows[i].component, "gpu") == 0)
                bad_gpu[rows[i].id] = 1;
            else if (strcmp(rows[i].component, "net") == 0)
                bad_net[rows[i].id] = 1;
        } else if (strcmp(rows[i].kind, "failure") == 0 && strcmp(rows[i].component, "gpu") == 0) {
            total++;
            on_bad += rows[i].id >= 0 && rows[i].id < 1000 && bad_gpu[rows[i].id];
        }
    }
    for (int k = 0; k < 1000; k++)
        shared += bad_gpu[k] && bad_net[k];
    double want = 993.6, want_bad = 288.0;
    printf("\n  gpu: %zu failures (expected %.1f +- %.1f), %zu on its bad nodes (%.1f +- %.1f); %zu bad nodes shared\n",
           total, want, 2.5758 * sqrt(want), on_bad, want_bad, 2.5758 * sqrt(want_bad), shared);
    CU_ASSERT(fabs((double)total - want) <= 2.5758 * sqrt(want));
    CU_ASSERT(fabs((double)on_bad - want_bad) <= 2.5758 * sqrt(want_bad));
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "failures.gpu"), (double)total, 0);
    CU_ASSERT(shared < 10); /* not the same set */
    dc_sim_destroy(sim);
}

/* ---------- bad rows through the program ---------- */

#define LOG_CFG(extra)                                                                            \
    "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"                                            \
    "failures = ( { name = \"hw\"; mtbf_h = 1e6; }, { name = \"slow\"; mode = \"slow\"; mtbf_h = 1e6; } );\n" \
    "failure_log = { file = \"f.csv\"; class = \"hw\"; " extra "\n"                               \
    " columns = { time = \"t\"; node = \"n\"; repair = \"r\"; }; };\n"

typedef struct bad {
    const char *what, *cfg, *data, *fragments[3];
} bad;

static const bad bad_rows[] = {
    {"missing field", LOG_CFG(""), "t,n,r\n0,1,1\n5,,1\n", {"f.csv:3", "column n", "missing field"}},
    {"non-numeric time", LOG_CFG(""), "t,n,r\nsoon,1,1\n", {"f.csv:2", "column t", "\"soon\""}},
    {"unsorted time", LOG_CFG(""), "t,n,r\n10,1,1\n5,1,1\n", {"f.csv:3", "column t", "sort the log"}},
    {"node outside the cluster", LOG_CFG(""), "t,n,r\n0,4,1\n", {"f.csv:2", "column n", "node 4 is not in the cluster"}},
    {"node below the base", LOG_CFG("node_base = 1;"), "t,n,r\n0,0,1\n", {"f.csv:2", "column n", "node_base 1"}},
    {"too many node names", LOG_CFG(""), "t,n,r\n0,a,1\n1,b,1\n2,c,1\n3,d,1\n4,e,1\n",
     {"f.csv:6", "column n", "more node names"}},
    {"negative repair", LOG_CFG(""), "t,n,r\n0,1,-2\n", {"f.csv:2", "column r", ">= 0"}},
    {"unknown class",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6; } );\n"
     "failure_log = { file = \"f.csv\"; columns = { time = \"t\"; node = \"n\"; class = \"c\"; }; };\n",
     "t,n,c\n0,1,hw\n1,1,Memory\n", {"f.csv:3", "column c", "\"Memory\""}},
    {"return before the failure",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6; } );\n"
     "failure_log = { file = \"f.csv\"; class = \"hw\"; columns = { time = \"t\"; node = \"n\"; return = \"b\"; }; };\n",
     "t,n,b\n10,1,9\n", {"f.csv:2", "column b", "before the failure"}},
    {"no class",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6; } );\n"
     "failure_log = {\n file = \"f.csv\"; columns = { time = \"t\"; node = \"n\"; }; };\n",
     "t,n\n0,1\n", {"bad.cfg:4", "failure_log", "class"}},
    {"a slow class in the log", LOG_CFG(""), "t,n,r\n0,1,1\n", {NULL, NULL, NULL}},
    {"bad_fraction without a factor",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6;\n bad_fraction = 0.1; } );\n",
     "t\n", {"bad.cfg:4", "failures.[0].bad_fraction", "bad_factor"}},
    {"no such column", LOG_CFG(""), "t,node,r\n0,1,1\n", {"bad.cfg:5", "failure_log.columns.n", "no column \"n\""}},
    /* times that overflow as seconds (fuzz_failurelog): 1e308 h is a finite
     * number but no finite time; with epoch auto the first failure less
     * itself was NaN, and the run went on as if it were not there */
    {"time too large in seconds", LOG_CFG("time_unit = \"h\"; epoch = \"auto\";"), "t,n,r\n1e308,1,1\n",
     {"f.csv:2", "column t", "too large"}},
    {"repair too large in seconds", LOG_CFG("time_unit = \"h\";"), "t,n,r\n0,1,1\n1,1,1e308\n",
     {"f.csv:3", "column r", "too large"}},
    {"return too large in seconds",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6; } );\n"
     "failure_log = { file = \"f.csv\"; class = \"hw\"; time_unit = \"h\";\n"
     " columns = { time = \"t\"; node = \"n\"; return = \"b\"; }; };\n",
     "t,n,b\n0,1,1e308\n", {"f.csv:2", "column b", "too large"}},
    {"repair from the return too large",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\nfailures = ( { name = \"hw\"; mtbf_h = 1e6; } );\n"
     "failure_log = { file = \"f.csv\"; class = \"hw\"; epoch = \"auto\";\n"
     " columns = { time = \"t\"; node = \"n\"; return = \"b\"; }; };\n",
     "t,n,b\n-1e308,1,1e308\n", {"f.csv:2", "column b", "too large"}},
};

static void test_bad_rows(void)
{
    if (!getenv("DCSIM")) {
        CU_FAIL("DCSIM is not set (run through make check)");
        return;
    }
    for (size_t i = 0; i < sizeof bad_rows / sizeof bad_rows[0]; i++) {
        const bad *b = &bad_rows[i];
        if (!b->fragments[0])
            continue;
        write_in_tmp("f.csv", b->data);
        dc_test_bad_run(tmpdir, b->what, b->cfg, NULL, b->fragments, 3);
    }
    /* a class of mode slow named by the log */
    write_in_tmp("f.csv", "t,n,c\n0,1,slow\n");
    static const char *const frags[3] = {"bad.cfg:3", "mode \"stop\"", "slow"};
    dc_test_bad_run(tmpdir, "a slow class in the log",
                    "horizon_days = 1.0;\ncluster = { nodes = 4; };\n"
                    "failures = ( { name = \"hw\"; mtbf_h = 1e6; }, { name = \"slow\"; mode = \"slow\"; mtbf_h = 1e6; } );\n"
                    "failure_log = { file = \"f.csv\"; columns = { time = \"t\"; node = \"n\"; class = \"c\"; }; };\n",
                    NULL, frags, 3);
    char path[512];
    snprintf(path, sizeof path, "%s/f.csv", tmpdir);
    unlink(path);
}

static int register_suites(void)
{
    DC_TEST_SUITE("failure log", {"an exact timeline: logged repairs, skips, the repair model", test_timeline},
                  {"from_log: exactly the log's; otherwise beside the class's own", test_from_log_and_beside},
                  {"date-times, return times and node names", test_datetimes_and_names},
                  {"a job interrupted at the logged time", test_job_interrupted},
                  {"bad rows: file, line and column, status 2", test_bad_rows});
    DC_TEST_SUITE("fleet ages", {"a constant fleet age is initial_age_h, failure for failure", test_fleet_constant},
                  {"ages from a law: Weibull failures within the 99% binomial interval", test_fleet_distribution},
                  {"per-class lemon nodes: their own set, at their rate (99% Poisson)", test_class_lemons});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("failurelog", tmpdir, sizeof tmpdir, register_suites);
}
