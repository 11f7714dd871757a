/* Tests: job traces in their own layouts (mapped CSV, SWF) read field by field, and their bad rows.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The trace readers of models/workload/tracemap.h:
 * - a mapped CSV in a Helios-like layout (date-times, start and end, GPUs,
 *   end states and their synonyms, pools, users, preemptible, limits and
 *   estimates in minutes, priorities outside [-1000, 1000] ranked) and in
 *   an ITP-like numeric layout (duration, nodes, hours, an epoch), each job
 *   compared field by field with the values worked by hand;
 * - an SWF file with its header (MaxProcs) field by field;
 * - UTC date-times against values computed independently (Python's
 *   calendar.timegm);
 * - every class of bad row (missing field, negative size, unsorted time,
 *   unknown state, non-number, ...) through the program: the message names
 *   the file, the line and the column (or field), exit status 2. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "badinput.h"
#include "rowtable.h"
#include "summary.h"
#include "simrun.h"
#include "testutil.h"
#include "workload/jobspec.h"
#include "workload/jobstats.h"
#include "timefmt.h"
#include "workload/tracemap.h"

static char tmpdir[256];

static void write_in_tmp(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", tmpdir, name);
    dc_test_write_text(path, text);
}

/* The jobs of scenario text (written as tmpdir/t.cfg), 8 GPUs per node;
 * NULL (and a test failure) on any error. */
static dc_job_spec *read_jobs(const char *cfg, size_t *n)
{
    write_in_tmp("t.cfg", cfg);
    char path[512];
    snprintf(path, sizeof path, "%s/t.cfg", tmpdir);
    dc_error err = {0};
    dc_scenario *sc = dc_simrun_load_file(path, NULL, 0, &err);
    if (!sc) {
        CU_FAIL(err.msg);
        printf("\n  %s\n", err.msg);
        return NULL;
    }
    dc_job_spec *jobs = NULL;
    int rc = dc_jobspec_read(sc, NULL, 8, &jobs, n, &err);
    dc_scenario_destroy(sc);
    if (rc != DC_OK) {
        printf("\n  %s\n", err.msg);
        CU_FAIL("dc_jobspec_read failed");
        return NULL;
    }
    return jobs;
}

/* ---------- a Helios-like layout ---------- */

static const char helios_csv[] =
    "job_id,user,vc,gpu_num,state,submit_time,start_time,end_time,priority,preempt,limit_min,est_min\n"
    "a1,alice,vcA,1,COMPLETED,2020-04-01 00:00:00,2020-04-01 00:00:10,2020-04-01 01:00:10,5,false,120,90\n"
    "a2,bob,vcB,16,FAILED,2020-04-01 00:30:00,2020-04-01T00:31:00,2020-04-01T02:31:00Z,-3000,1,,\n"
    "a3,carol,vcA,9,cancelled,2020-04-01 00:30:00,2020-04-01 00:40:00,2020-04-01 01:10:00,7,no,30,\n"
    "a4,,vcB,8,TIMEOUT,2020-04-01 01:00:00,2020-04-01 01:00:00,2020-04-01 03:00:00.5,2000000,yes,,45\n"
    "a5,dave,vcA,64,Pass,2020-04-01 02:00:00,2020-04-01 02:00:00,2020-04-01 02:00:30,,0,,\n";

static void test_mapped_csv_helios(void)
{
    write_in_tmp("helios.csv", helios_csv);
    size_t n = 0;
    dc_job_spec *j = read_jobs(
        "horizon_days = 1.0;\ncluster = { nodes = 16; gpus_per_node = 8; };\n"
        "jobs = ( { name = \"h\"; max_run_h = 100.0;\n"
        "  trace = { file = \"helios.csv\"; time_format = \"datetime\"; time_unit = \"min\"; epoch = \"auto\";\n"
        "            states = { completed = \"Pass, Success\"; };\n"
        "            columns = { submit = \"submit_time\"; start = \"start_time\"; end = \"end_time\";\n"
        "                        gpus = \"gpu_num\"; state = \"state\"; pool = \"vc\"; user = \"user\";\n"
        "                        priority = \"priority\"; preemptible = \"preempt\"; limit = \"limit_min\";\n"
        "                        estimate = \"est_min\"; name = \"job_id\"; }; }; } );\n",
        &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL_FATAL(n, 5);
    static const char *const names[5] = {"a1", "a2", "a3", "a4", "a5"};
    static const char *const users[5] = {"alice", "bob", "carol", "", "dave"};
    static const char *const pools[5] = {"vcA", "vcB", "vcA", "vcB", "vcA"};
    static const double submit[5] = {0, 1800, 1800, 3600, 7200};
    static const double run[5] = {3600, 7200, 1800, 7200.5, 30};
    static const uint32_t gpus[5] = {1, 16, 9, 8, 64}, nodes[5] = {1, 2, 2, 1, 8};
    static const dc_end_state state[5] = {DC_END_COMPLETED, DC_END_FAILED, DC_END_CANCELLED, DC_END_TIME_LIMIT,
                                          DC_END_COMPLETED};
    /* raw priorities 5, -3000, 7, 2000000 and the group's 0: distinct values
     * ranked -3000 < 0 < 5 < 7 < 2e6 onto -1000, -500, 0, 500, 1000 */
    static const int prio[5] = {0, -1000, 500, 1000, -500};
    static const bool pre[5] = {false, true, false, true, false};
    /* limits in minutes; an empty one: the group's max_run_h (100 h) */
    static const double limit[5] = {7200, 360000, 1800, 360000, 360000};
    /* estimate: given, else the limit given in the row, else none (NaN) */
    static const double est[5] = {5400, NAN, 1800, 2700, NAN};
    for (int i = 0; i < 5; i++) {
        CU_ASSERT_STRING_EQUAL(j[i].name, names[i]);
        CU_ASSERT_STRING_EQUAL(j[i].user, users[i]);
        CU_ASSERT_STRING_EQUAL(j[i].pool, pools[i]);
        CU_ASSERT_DOUBLE_EQUAL(j[i].submit_s, submit[i], 1e-9);
        CU_ASSERT_EQUAL(j[i].gpus, gpus[i]);
        CU_ASSERT_EQUAL(j[i].nodes, nodes[i]);
        /* the recorded run time at the full rate of the GPUs it asked for
         * (a1's share of 1, a3's 9 on its 2 nodes: not their 16) */
        CU_ASSERT_DOUBLE_EQUAL(j[i].work_gpu_s, run[i] * gpus[i], 1e-6);
        CU_ASSERT_EQUAL(j[i].end_state, state[i]);
        CU_ASSERT_EQUAL(j[i].priority, prio[i]);
        CU_ASSERT_EQUAL(j[i].preemptible, pre[i]);
        CU_ASSERT_DOUBLE_EQUAL(j[i].max_run_s, limit[i], 1e-9);
        if (isnan(est[i])) {
            CU_ASSERT(isnan(j[i].estimate_s));
        } else {
            CU_ASSERT_DOUBLE_EQUAL(j[i].estimate_s, est[i], 1e-9);
        }
        CU_ASSERT_EQUAL(j[i].kind, DC_KIND_TRAINING);
        CU_ASSERT_EQUAL(j[i].trace_line, i + 2);
        CU_ASSERT(strstr(j[i].trace_file, "helios.csv") != NULL);
    }
    free(j);
}

/* ---------- an ITP-like numeric layout: hours, an epoch, nodes ---------- */

static const char itp_csv[] = "# a comment line\n"
                              "job_id,submission_time,duration,num_nodes,task\n"
                              "x,100.5,2,1,evaluation\n"
                              "y,101,0.25,3,\n"
                              "z,101,10,2,fine_tuning\n";

static void test_mapped_csv_numeric(void)
{
    write_in_tmp("itp.csv", itp_csv);
    size_t n = 0;
    dc_job_spec *j = read_jobs("horizon_days = 1.0;\ncluster = { nodes = 4; gpus_per_node = 8; };\n"
                               "jobs = ( { name = \"itp\"; kind = \"batch_inference\"; priority = 3; preemptible = true;\n"
                               "  trace = { file = \"itp.csv\"; time_unit = \"h\"; epoch = 100.0;\n"
                               "            columns = { submit = \"submission_time\"; duration = \"duration\";\n"
                               "                        nodes = \"num_nodes\"; kind = \"task\"; }; }; } );\n",
                               &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL_FATAL(n, 3);
    static const double submit_h[3] = {0.5, 1, 1}, run_h[3] = {2, 0.25, 10};
    static const uint32_t nodes[3] = {1, 3, 2};
    static const dc_job_kind kind[3] = {DC_KIND_EVALUATION, DC_KIND_BATCH_INFERENCE, DC_KIND_FINE_TUNING};
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "itp-%d", i);
        CU_ASSERT_STRING_EQUAL(j[i].name, name);
        CU_ASSERT_DOUBLE_EQUAL(j[i].submit_s, submit_h[i] * 3600, 1e-9);
        CU_ASSERT_EQUAL(j[i].nodes, nodes[i]);
        CU_ASSERT_EQUAL(j[i].gpus, nodes[i] * 8);
        CU_ASSERT_DOUBLE_EQUAL(j[i].work_gpu_s, run_h[i] * 3600 * nodes[i] * 8, 1e-6);
        CU_ASSERT_EQUAL(j[i].kind, kind[i]);
        /* what the trace does not say, the group does */
        CU_ASSERT_EQUAL(j[i].priority, 3);
        CU_ASSERT(j[i].preemptible);
        CU_ASSERT_EQUAL(j[i].end_state, DC_END_COMPLETED);
        CU_ASSERT(isinf(j[i].max_run_s));
        CU_ASSERT(isnan(j[i].estimate_s));
        CU_ASSERT_EQUAL(j[i].trace_line, i + 3);
    }
    free(j);
}

/* ---------- the Standard Workload Format ---------- */

static const char swf[] = "; Version: 2.2\n"
                          "; Computer: a test machine\n"
                          ";  MaxNodes: 4\n"
                          "; MaxProcs: 32\n"
                          "\n"
                          "  1   0  5  3600  8  -1 -1  8  7200 -1  1  3  1 -1  2 -1 -1 -1\n"
                          "  2  60  0  1800 -1  -1 -1 16    -1 -1  0  4  1 -1  1 -1 -1 -1\n"
                          "\t3  60  0   600  4  10 -1  4   900 -1  5  3  1 -1  2 -1 -1 -1\n"
                          "  4  90  0   100 32  -1 -1 32   100 -1 -1 -1  1 -1  2 -1 -1 -1\n";

static void test_swf(void)
{
    write_in_tmp("t.swf", swf);
    size_t n = 0;
    dc_job_spec *j = read_jobs("horizon_days = 1.0;\ncluster = { nodes = 4; gpus_per_node = 8; };\n"
                               "jobs = ( { name = \"s\";\n"
                               "  trace = { file = \"t.swf\"; format = \"swf\"; swf_limit = true; swf_pools = true; }; "
                               "} );\n",
                               &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    static const char *const names[4] = {"s-1", "s-2", "s-3", "s-4"};
    static const char *const users[4] = {"u3", "u4", "u3", ""};
    static const char *const pools[4] = {"q2", "q1", "q2", "q2"};
    static const double submit[4] = {0, 60, 60, 90}, run[4] = {3600, 1800, 600, 100};
    static const uint32_t gpus[4] = {8, 16, 4, 32}, nodes[4] = {1, 2, 1, 4};
    static const dc_end_state st[4] = {DC_END_COMPLETED, DC_END_FAILED, DC_END_CANCELLED, DC_END_COMPLETED};
    static const double est[4] = {7200, NAN, 900, 100};
    for (int i = 0; i < 4; i++) {
        CU_ASSERT_STRING_EQUAL(j[i].name, names[i]);
        CU_ASSERT_STRING_EQUAL(j[i].user, users[i]);
        CU_ASSERT_STRING_EQUAL(j[i].pool, pools[i]);
        CU_ASSERT_DOUBLE_EQUAL(j[i].submit_s, submit[i], 0);
        CU_ASSERT_EQUAL(j[i].gpus, gpus[i]);
        CU_ASSERT_EQUAL(j[i].nodes, nodes[i]);
        CU_ASSERT_DOUBLE_EQUAL(j[i].work_gpu_s, run[i] * (gpus[i] < 8 ? gpus[i] : nodes[i] * 8), 1e-9); /* s-3: a share */
        CU_ASSERT_EQUAL(j[i].end_state, st[i]);
        if (isnan(est[i])) {
            CU_ASSERT(isnan(j[i].estimate_s));
            CU_ASSERT(isinf(j[i].max_run_s));
        } else {
            CU_ASSERT_DOUBLE_EQUAL(j[i].estimate_s, est[i], 0);
            CU_ASSERT_DOUBLE_EQUAL(j[i].max_run_s, est[i], 0); /* swf_limit */
        }
        CU_ASSERT_EQUAL(j[i].trace_line, i + 6);
    }
    free(j);

    /* processors as nodes, no limit, the group's pool, epoch auto */
    j = read_jobs("horizon_days = 1.0;\ncluster = { nodes = 64; gpus_per_node = 8; };\n"
                  "jobs = ( { name = \"s\"; pool = \"\";\n"
                  "  trace = { file = \"t.swf\"; format = \"swf\"; processors = \"nodes\"; epoch = \"auto\"; }; } );\n",
                  &n);
    CU_ASSERT_PTR_NOT_NULL_FATAL(j);
    CU_ASSERT_EQUAL_FATAL(n, 4);
    CU_ASSERT_EQUAL(j[1].nodes, 16);
    CU_ASSERT_EQUAL(j[1].gpus, 128);
    CU_ASSERT_STRING_EQUAL(j[1].pool, "");
    CU_ASSERT(isinf(j[0].max_run_s));
    CU_ASSERT_DOUBLE_EQUAL(j[0].estimate_s, 7200, 0);
    CU_ASSERT_DOUBLE_EQUAL(j[3].submit_s, 90, 0);
    free(j);
}

/* ---------- date-times ---------- */

static void test_datetime(void)
{
    /* against Python's calendar.timegm */
    static const struct { const char *s; double t; } ok[] = {
        {"2020-04-01 00:00:00", 1585699200},      {"2017-10-03 03:03:05", 1506999785},
        {"2017-10-03T03:03:05.5Z", 1506999785.5}, {"1969-12-31 23:00", -3600},
        {"2024-02-29 12:30", 1709209800},         {"1970-01-01T00:00:00Z", 0}};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        double t = NAN;
        CU_ASSERT(dc_timefmt_datetime(ok[i].s, &t));
        CU_ASSERT_DOUBLE_EQUAL(t, ok[i].t, 1e-6);
    }
    static const char *const bad[] = {"2023-02-29 00:00", "2020-13-01 00:00", "2020-01-01", "2020-01-01 24:00",
                                      "2020-01-01 00:00:00 +0100", "1585699200", "", "2020-1-01 00:00",
                                      "2020-01-01 00:00:00."};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        double t;
        CU_ASSERT(!dc_timefmt_datetime(bad[i], &t));
    }
}

/* ---------- end states replayed ---------- */

/* 2 nodes of 8 GPUs, restart 0, FIFO.  A (16 GPUs, failed after 1 h), B (16
 * GPUs, completed, 0.5 h), C (8 GPUs, cancelled after 600 s), D (8 GPUs,
 * timed out after 900 s), all at 0.  A holds both nodes for exactly its
 * 3600 s; B runs 3600-5400 s; C and D start at 5400 s side by side and leave
 * at 6000 and 6300 s. */
static const char ends_csv[] = "id,submit,dur,g,st\n"
                               "A,0,3600,16,FAILED\n"
                               "B,0,1800,16,COMPLETED\n"
                               "C,0,600,8,CANCELLED\n"
                               "D,0,900,8,TIMEOUT\n";

static const char *row_str(const dc_rowtable *t, size_t row, const char *col)
{
    int c = dc_rowtable_column_index(t, col);
    if (c < 0)
        return "";
    return (const char *)dc_rowtable_data(t) + row * dc_rowtable_row_size(t) + dc_rowtable_column_offset(t, (size_t)c);
}

static double row_f8(const dc_rowtable *t, size_t row, const char *col)
{
    int c = dc_rowtable_column_index(t, col);
    double v = NAN;
    if (c >= 0)
        memcpy(&v, (const char *)dc_rowtable_data(t) + row * dc_rowtable_row_size(t)
                       + dc_rowtable_column_offset(t, (size_t)c), sizeof v);
    return v;
}

/* Every row skipped (skip_empty) with a priority column: no jobs, and no
 * ranking of no priorities (fuzz_tracemap: map_priorities was given the
 * empty job array's NULL + 0, undefined; clang's UBSan stops there). */
static void test_all_rows_skipped(void)
{
    write_in_tmp("skipped.csv", "submit,dur,g,p\n0,10,0,5\n1,0,8,2000000\n");
    size_t n = 99;
    dc_job_spec *j = read_jobs("horizon_days = 1.0;\ncluster = { nodes = 4; gpus_per_node = 8; };\n"
                               "jobs = ( { name = \"k\"; trace = { file = \"skipped.csv\"; skip_empty = true;\n"
                               "  columns = { submit = \"submit\"; duration = \"dur\"; gpus = \"g\";\n"
                               "              priority = \"p\"; }; }; } );\n",
                               &n);
    CU_ASSERT_EQUAL(n, 0);
    free(j);
}

static void test_end_states(void)
{
    write_in_tmp("ends.csv", ends_csv);
    write_in_tmp("ends.cfg", "horizon_days = 1.0; trace = { events = true; };\n"
                             "cluster = { nodes = 2; gpus_per_node = 8; };\n"
                             "scheduler = { backfill = false; };\n"
                             "jobs = ( { name = \"e\"; restart_s = 0.0;\n"
                             "  trace = { file = \"ends.csv\"; columns = { submit = \"submit\"; duration = \"dur\";\n"
                             "            gpus = \"g\"; state = \"st\"; name = \"id\"; }; }; } );\n");
    char path[512];
    snprintf(path, sizeof path, "%s/ends.cfg", tmpdir);
    dc_sim *sim = dc_simrun_file(path, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double start[4] = {NAN, NAN, NAN, NAN}, release[4] = {NAN, NAN, NAN, NAN};
    const dc_eventlog *log = dc_sim_eventlog(sim);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    for (size_t i = 0; i < dc_eventlog_count(log); i++) {
        if (rows[i].job < 0 || rows[i].job >= 4)
            continue;
        if (strcmp(rows[i].kind, "job_start") == 0)
            start[rows[i].job] = rows[i].time_s;
        else if (strcmp(rows[i].kind, "job_release") == 0)
            release[rows[i].job] = rows[i].time_s;
    }
    static const double want_start[4] = {0, 3600, 5400, 5400}, want_release[4] = {3600, 5400, 6000, 6300};
    for (int k = 0; k < 4; k++) {
        printf("\n  job %d: start %.1f s, release %.1f s (expected %.0f, %.0f)", k, start[k], release[k],
               want_start[k], want_release[k]);
        CU_ASSERT_DOUBLE_EQUAL(start[k], want_start[k], 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(release[k], want_release[k], 1e-9);
    }
    printf("\n");
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.failed"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.cancelled"), 1, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.timed_out"), 1, 0);
    /* GPU-hours held by end state: 16 x 1 h, 16 x 0.5 h, 8 x 600 s, 8 x 900 s */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.failed_gpu_h"), 16.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed_gpu_h"), 8.0, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.cancelled_gpu_h"), 8.0 * 600 / 3600, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.timed_out_gpu_h"), 2.0, 1e-9);
    /* the /jobs rows: state and run time per job */
    dc_rowtable *t = dc_rowtable_set_get(dc_sim_tables(sim), "jobs", "");
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    CU_ASSERT_EQUAL_FATAL(dc_rowtable_rows(t), 4);
    static const char *const states[4] = {"failed", "completed", "cancelled", "time_limit"};
    static const double run_h[4] = {1.0, 0.5, 600.0 / 3600, 0.25};
    for (size_t r = 0; r < 4; r++) {
        const char *name = row_str(t, r, "name");
        int k = name[0] - 'A';
        CU_ASSERT_FATAL(k >= 0 && k < 4);
        CU_ASSERT_STRING_EQUAL(row_str(t, r, "state"), states[k]);
        CU_ASSERT_DOUBLE_EQUAL(row_f8(t, r, "run_h"), run_h[k], 1e-12);
        CU_ASSERT_DOUBLE_EQUAL(row_f8(t, r, "gpu_hours.total"), run_h[k] * (k < 2 ? 16 : 8), 1e-9);
    }
    /* the breakdown still sums to the capacity; the failed job's hour is in
     * useful (it computed), the idle GPU-hours are the rest */
    dc_summary *s = dc_sim_summary(sim);
    double cap = 0, sum = 0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *k = dc_summary_key(s, i);
        if (strcmp(k, DC_BREAKDOWN_TOTAL) == 0)
            cap = dc_summary_value(s, i);
        else if (strncmp(k, DC_BREAKDOWN_PREFIX, strlen(DC_BREAKDOWN_PREFIX)) == 0)
            sum += dc_summary_value(s, i);
    }
    CU_ASSERT(cap > 0);
    CU_ASSERT_DOUBLE_EQUAL(sum, cap, 1e-9 * cap);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "gpu_hours.useful"), 16 + 8 + 8.0 * 600 / 3600 + 2, 1e-9);
    dc_sim_destroy(sim);
}

/* ---------- the shipped replay ---------- */

/* scenarios/traces/replay.cfg: every job of sample.csv submitted, started,
 * and ended in the state its row records (counted here from the file). */
static void test_shipped_replay(void)
{
    const char *src = getenv("DCSIM_SRCDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/scenarios/traces/sample.csv", src ? src : ".");
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[512];
    double rows = 0, n[4] = {0};
    static const char *const words[4] = {",COMPLETED,", ",FAILED,", ",CANCELLED,", ",TIMEOUT,"};
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || strncmp(line, "job_id,", 7) == 0)
            continue;
        rows++;
        for (int k = 0; k < 4; k++)
            n[k] += strstr(line, words[k]) != NULL;
    }
    fclose(f);
    CU_ASSERT_EQUAL(n[0] + n[1] + n[2] + n[3], rows);
    CU_ASSERT(n[1] > 0 && n[2] > 0 && n[3] > 0);
    snprintf(path, sizeof path, "%s/scenarios/traces/replay.cfg", src ? src : ".");
    dc_sim *sim = dc_simrun_file(path, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    printf("\n  %.0f rows: %.0f completed, %.0f failed, %.0f cancelled, %.0f timed out\n", rows, n[0], n[1], n[2],
           n[3]);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.submitted"), rows, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.started"), rows, 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.completed"), n[0], 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.failed"), n[1], 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.cancelled"), n[2], 0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "jobs.timed_out"), n[3], 0);
    /* with no failure and restart_s = 0 the jobs held exactly their work */
    double held = dc_simrun_fig(sim, "jobs.completed_gpu_h") + dc_simrun_fig(sim, "jobs.failed_gpu_h")
                  + dc_simrun_fig(sim, "jobs.cancelled_gpu_h") + dc_simrun_fig(sim, "jobs.timed_out_gpu_h");
    CU_ASSERT_DOUBLE_EQUAL(held, dc_simrun_fig(sim, "gpu_hours.useful"), 1e-9 * held);
    dc_sim_destroy(sim);
}

/* ---------- accounting: waits by size, pools, users ---------- */

static double fig(const dc_summary *s, const char *key)
{
    double v = NAN;
    if (!dc_summary_get(s, key, &v)) {
        fprintf(stderr, "\n  no %s", key);
        CU_FAIL("a summary key is missing");
    }
    return v;
}

static size_t key_index(const dc_summary *s, const char *key)
{
    for (size_t i = 0; i < dc_summary_count(s); i++)
        if (strcmp(dc_summary_key(s, i), key) == 0)
            return i;
    return (size_t)-1;
}

/* Waits worked by hand, percentiles of type 7 (numpy's default): class 1
 * waits 0..9 h (and one job never started, left out): P50 4.5, P90 8.1,
 * P99 8.91, mean 4.5; class 2-4 one wait of 10 h; class 5-8 waits 1 and 3 h:
 * P50 2, P90 2.8, P99 2.98; class 9-64 (16 and 64 GPUs) waits 0 and 0; class
 * >64 (65 GPUs) 5 h.  All 16 started: 0,0,0,1,1,2,3,3,4,5,5,6,7,8,9,10 h:
 * P90 at 13.5 -> 8.5, P99 at 14.85 -> 9.85. */
static void test_accounting(void)
{
    dc_jobstat_row rows[17];
    size_t n = 0;
    for (int k = 0; k < 10; k++)
        rows[n++] = (dc_jobstat_row){.wait_s = k * 3600.0, .gpu_s = 7200, .gpus = 1, .pool = 0, .user = "zed",
                                     .started = true, .completed = true};
    rows[n++] = (dc_jobstat_row){.wait_s = 100 * 3600.0, .gpu_s = 7200, .gpus = 1, .pool = 0, .user = "zed"};
    static const struct { double wait_h; uint32_t gpus; bool done; } rest[6] = {
        {10, 3, true}, {1, 8, false}, {3, 5, true}, {0, 16, false}, {0, 64, false}, {5, 65, false}};
    for (int k = 0; k < 6; k++)
        rows[n++] = (dc_jobstat_row){.wait_s = rest[k].wait_h * 3600.0, .gpu_s = 7200, .gpus = rest[k].gpus,
                                     .pool = 1, .user = "amy", .started = true, .completed = rest[k].done};
    dc_summary *s = dc_summary_create();
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    static const char *const pools[2] = {"train", "eval"};
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_jobstats_summarise(s, rows, n, pools, 2, &err), DC_OK);
    static const struct { const char *key; double v; } want[] = {
        {"jobs.wait_p90_h", 8.5},           {"jobs.wait_p99_h", 9.85},
        {"jobs.gpus_1.jobs", 10},           {"jobs.gpus_1.wait_mean_h", 4.5},   {"jobs.gpus_1.wait_p50_h", 4.5},
        {"jobs.gpus_1.wait_p90_h", 8.1},    {"jobs.gpus_1.wait_p99_h", 8.91},   {"jobs.gpus_2_4.jobs", 1},
        {"jobs.gpus_2_4.wait_p50_h", 10},   {"jobs.gpus_2_4.wait_p99_h", 10},   {"jobs.gpus_5_8.jobs", 2},
        {"jobs.gpus_5_8.wait_mean_h", 2},   {"jobs.gpus_5_8.wait_p50_h", 2},    {"jobs.gpus_5_8.wait_p90_h", 2.8},
        {"jobs.gpus_5_8.wait_p99_h", 2.98}, {"jobs.gpus_9_64.jobs", 2},         {"jobs.gpus_9_64.wait_p99_h", 0},
        {"jobs.gpus_65_up.jobs", 1},        {"jobs.gpus_65_up.wait_mean_h", 5}, {"pool.train.jobs", 11},
        {"pool.train.wait_mean_h", 4.5},    {"pool.train.wait_p90_h", 8.1},     {"pool.train.job_gpu_h", 22},
        {"pool.eval.jobs", 6},              {"pool.eval.wait_mean_h", 19.0 / 6}, {"pool.eval.wait_p90_h", 7.5},
        {"pool.eval.job_gpu_h", 12},        {"user.zed.jobs", 11},              {"user.zed.completed", 10},
        {"user.zed.gpu_h", 22},             {"user.zed.wait_mean_h", 4.5},      {"user.amy.jobs", 6},
        {"user.amy.completed", 2},          {"user.amy.gpu_h", 12},             {"user.amy.wait_mean_h", 19.0 / 6},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        double v = fig(s, want[i].key);
        if (fabs(v - want[i].v) > 1e-9)
            fprintf(stderr, "\n  %s = %.17g, expected %.17g", want[i].key, v, want[i].v);
        CU_ASSERT_DOUBLE_EQUAL(v, want[i].v, 1e-9);
    }
    /* an empty class has no percentiles; users come in name order */
    double v = 0;
    CU_ASSERT(dc_summary_get(s, "jobs.gpus_65_up.wait_p50_h", &v) && v == 5);
    dc_summary_destroy(s);
    /* again with the one-GPU jobs alone (the call reordered rows by user) and no users */
    s = dc_summary_create();
    dc_jobstat_row ones[17];
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (rows[i].gpus == 1) {
            ones[m] = rows[i];
            ones[m++].user = "";
        }
    CU_ASSERT_EQUAL_FATAL(m, 11);
    CU_ASSERT_EQUAL_FATAL(dc_jobstats_summarise(s, ones, m, pools, 1, &err), DC_OK);
    CU_ASSERT_DOUBLE_EQUAL(fig(s, "jobs.gpus_1.wait_p90_h"), 8.1, 1e-9);
    CU_ASSERT_DOUBLE_EQUAL(fig(s, "jobs.gpus_2_4.jobs"), 0, 0);
    CU_ASSERT(isnan(fig(s, "jobs.gpus_2_4.wait_p50_h")));
    CU_ASSERT(isnan(fig(s, "jobs.gpus_2_4.wait_mean_h")));
    CU_ASSERT_EQUAL(key_index(s, "user.zed.jobs"), (size_t)-1);
    dc_summary_destroy(s);
}

static void test_user_order(void)
{
    dc_jobstat_row rows[3] = {{.user = "zed", .started = true}, {.user = "amy", .started = true},
                              {.user = "kim", .started = true}};
    dc_summary *s = dc_summary_create();
    dc_error err = {0};
    CU_ASSERT_EQUAL_FATAL(dc_jobstats_summarise(s, rows, 3, NULL, 0, &err), DC_OK);
    size_t a = key_index(s, "user.amy.jobs"), k = key_index(s, "user.kim.jobs"), z = key_index(s, "user.zed.jobs");
    CU_ASSERT(a < k && k < z && z != (size_t)-1);
    dc_summary_destroy(s);
}

/* ---------- bad rows through the program ---------- */

#define CSV_CFG(cols)                                                                                              \
    "horizon_days = 1.0;\ncluster = { nodes = 4; gpus_per_node = 8; };\n"                                         \
    "jobs = ( { trace = { file = \"t.csv\";\n columns = { submit = \"submit\"; duration = \"dur\"; gpus = \"g\"; " \
    cols " }; }; } );\n"
#define SWF_CFG "horizon_days = 1.0;\ncluster = { nodes = 4; gpus_per_node = 8; };\n" \
                "jobs = ( { trace = { file = \"t.swf\"; format = \"swf\"; }; } );\n"
#define SWF_OK "1 0 0 60 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n"

typedef struct bad {
    const char *what, *cfg, *file, *data, *fragments[3];
} bad;

static const bad bad_rows[] = {
    {"csv: missing field", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,1\n5,60,\n", {"t.csv:3", "column g", "missing field"}},
    {"csv: negative size", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,-2\n", {"t.csv:2", "column g", "-2"}},
    {"csv: fractional size", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,1.5\n", {"t.csv:2", "column g", "whole"}},
    {"csv: zero GPUs", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,0\n", {"t.csv:2", "column g", "skip_empty"}},
    {"csv: negative run time", CSV_CFG(""), "t.csv", "submit,dur,g\n0,-60,1\n", {"t.csv:2", "column dur", ">= 0"}},
    {"csv: unsorted time", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,1\n10,60,1\n9,60,1\n",
     {"t.csv:4", "column submit", "sort the trace"}},
    {"csv: before the epoch",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\"; epoch = 5.0;\n"
     " columns = { submit = \"s\"; duration = \"d\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,d,g\n6,60,1\n4,60,1\n", {"t.csv:3", "column s", NULL}},
    {"csv: non-numeric", CSV_CFG(""), "t.csv", "submit,dur,g\n0,1h,1\n", {"t.csv:2", "column dur", "\"1h\""}},
    {"csv: unknown state", CSV_CFG("state = \"st\";"), "t.csv", "submit,dur,g,st\n0,60,1,COMPLETED\n0,60,1,LOST\n",
     {"t.csv:3", "column st", "\"LOST\""}},
    {"csv: empty state", CSV_CFG("state = \"st\";"), "t.csv", "submit,dur,g,st\n0,60,1,\n",
     {"t.csv:2", "column st", "missing field"}},
    {"csv: no such column", CSV_CFG("user = \"owner\";"), "t.csv", "submit,dur,g\n0,60,1\n",
     {"bad.cfg:4", "columns.user", "no column \"owner\""}},
    {"csv: priority not an integer", CSV_CFG("priority = \"p\";"), "t.csv", "submit,dur,g,p\n0,60,1,0.5\n",
     {"t.csv:2", "column p", "integer"}},
    {"csv: preemptible not a boolean", CSV_CFG("preemptible = \"p\";"), "t.csv", "submit,dur,g,p\n0,60,1,maybe\n",
     {"t.csv:2", "column p", "maybe"}},
    {"csv: zero limit", CSV_CFG("limit = \"l\";"), "t.csv", "submit,dur,g,l\n0,60,1,0\n",
     {"t.csv:2", "column l", "> 0"}},
    {"csv: end before start",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\";\n"
     " columns = { submit = \"s\"; start = \"a\"; end = \"b\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,a,b,g\n0,10,5,1\n", {"t.csv:2", "column b", "before the start"}},
    {"csv: bad date-time",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\"; time_format = "
     "\"datetime\";\n columns = { submit = \"s\"; duration = \"d\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,d,g\n2020-04-01 00:00:00,60,1\n2020-04-31 00:00:00,60,1\n", {"t.csv:3", "column s", "2020-04-31"}},
    {"csv: both size columns", CSV_CFG("nodes = \"g\";"), "t.csv", "submit,dur,g\n0,60,1\n",
     {"bad.cfg:4", "columns", "gpus or as nodes"}},
    {"csv: no columns", "horizon_days = 1.0; cluster = { nodes = 4; };\njobs = ( { trace = {\n file = \"t.csv\"; }; } );\n", "t.csv",
     "submit,dur,g\n0,60,1\n", {"bad.cfg:2", "jobs.[0].trace", "columns"}},
    {"csv: job larger than the pool", CSV_CFG(""), "t.csv", "submit,dur,g\n0,60,40\n",
     {"t.csv:2", "5 nodes", "has 4"}},
    {"csv: missing file", CSV_CFG(""), "none", NULL, {"bad.cfg:3", "t.csv", NULL}},
    /* times that overflow as seconds (fuzz_tracemap): 1e308 h is a finite
     * number but not a finite time; with epoch auto the first submission
     * less itself was NaN, which reached the event queue's assertion */
    {"csv: submission too large in seconds",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\"; time_unit = \"h\";\n"
     " epoch = \"auto\"; columns = { submit = \"s\"; duration = \"d\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,d,g\n1e308,1,8\n", {"t.csv:2", "column s", "too large"}},
    {"csv: run time too large in seconds",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\"; time_unit = \"h\";\n"
     " columns = { submit = \"s\"; duration = \"d\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,d,g\n0,1,8\n1,1e308,8\n", {"t.csv:3", "column d", "too large"}},
    {"csv: run time from start and end too large",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\";\n"
     " columns = { submit = \"s\"; start = \"a\"; end = \"b\"; gpus = \"g\"; }; }; } );\n",
     "t.csv", "s,a,b,g\n0,-1e308,1e308,1\n", {"t.csv:2", "column b", "too large"}},
    {"csv: limit too large in seconds",
     "horizon_days = 1.0;\ncluster = { nodes = 4; };\njobs = ( { trace = { file = \"t.csv\"; time_unit = \"min\";\n"
     " columns = { submit = \"s\"; duration = \"d\"; gpus = \"g\"; limit = \"l\"; }; }; } );\n",
     "t.csv", "s,d,g,l\n0,1,8,1e308\n", {"t.csv:2", "column l", "too large"}},
    {"swf: missing field", SWF_CFG, "t.swf", SWF_OK "2 5 0 60 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1\n",
     {"t.swf:2", "field 18 (think time)", "missing field"}},
    {"swf: negative size", SWF_CFG, "t.swf", "1 0 0 60 -3 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:1", "field 5 (allocated processors)", "-3"}},
    {"swf: unsorted time", SWF_CFG, "t.swf", "; MaxProcs: 32\n" SWF_OK SWF_OK "3 -2 0 60 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:4", "field 2 (submit time)", NULL}},
    {"swf: submit before the previous", SWF_CFG, "t.swf", "1 9 0 60 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n" SWF_OK,
     {"t.swf:2", "field 2 (submit time)", "sort the trace"}},
    {"swf: unknown state", SWF_CFG, "t.swf", SWF_OK "2 5 0 60 8 -1 -1 8 -1 -1 3 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:2", "field 11 (status)", "unknown status 3"}},
    /* (fuzz_swf: the status was cast to int before it was checked, undefined
     * for 1e10; clang's UBSan stops there, gcc's does not check the cast) */
    {"swf: status outside int", SWF_CFG, "t.swf", "1 0 0 60 8 -1 -1 8 -1 -1 1e10 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:1", "field 11 (status)", "unknown status 1e+10"}},
    {"swf: non-numeric", SWF_CFG, "t.swf", "1 0 0 6O 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:1", "field 4 (run time)", "\"6O\""}},
    {"swf: missing run time", SWF_CFG, "t.swf", "1 0 0 -1 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1\n",
     {"t.swf:1", "field 4 (run time)", "missing field"}},
    {"swf: too many fields", SWF_CFG, "t.swf", "1 0 0 60 8 -1 -1 8 -1 -1 1 1 1 -1 1 -1 -1 -1 7\n",
     {"t.swf:1", "more than 18 fields", NULL}},
    {"swf: larger than the machine", SWF_CFG, "t.swf", "; MaxProcs: 16\n; MaxNodes: 2\n"
     "1 0 0 60 24 -1 -1 24 -1 -1 1 1 1 -1 1 -1 -1 -1\n", {"t.swf:3", "machine's 16", "MaxProcs"}},
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
        char path[512];
        snprintf(path, sizeof path, "%s/%s", tmpdir, b->file);
        if (b->data)
            dc_test_write_text(path, b->data);
        dc_test_bad_run(tmpdir, b->what, b->cfg, NULL, b->fragments, 3);
        unlink(path);
    }
}

static int register_suites(void)
{
    DC_TEST_SUITE("tracemap", {"mapped CSV, a Helios-like layout, field by field", test_mapped_csv_helios},
                  {"mapped CSV, numeric hours with an epoch, field by field", test_mapped_csv_numeric},
                  {"SWF with its header, field by field", test_swf},
                  {"UTC date-times against timegm", test_datetime},
                  {"every row skipped: no jobs, no priorities ranked", test_all_rows_skipped},
                  {"end states: a failed job holds its GPUs for exactly its recorded time", test_end_states},
                  {"the shipped replay: every job ends as its row says", test_shipped_replay},
                  {"bad rows: file, line and column, status 2", test_bad_rows});
    DC_TEST_SUITE("accounting", {"waits by size, pools and users against hand-worked values", test_accounting},
                  {"users in name order", test_user_order});
    return 0;
}

int main(void)
{
    return dc_test_main_in_tmpdir("tracemap", tmpdir, sizeof tmpdir, register_suites);
}
