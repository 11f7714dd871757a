/* Tests: dcsim plot, export and compare end to end.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim plot, export and compare end to end (the binary named by $DCSIM, the
 * sources in $DCSIM_SRCDIR):
 *   - every kind of figure, so every script in plots/, draws a non-empty
 *     PNG and SVG (and a PDF) from traces of the small scenario or a scan;
 *   - the data a scan draws are the means and 95% intervals of the runs
 *     dcsim run makes with the same settings and seeds;
 *   - the CSV of a dataset holds the trace's values exactly;
 *   - compare prints the relative differences computed from the traces;
 *   - bad input (a trace without the datasets of a figure, gnuplot missing
 *     or failing, a broken script...) gets a message, exit status 2, no
 *     figure and no temporary file left behind. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_cdf.h>
#include <hdf5.h>

#include "compare.h"
#include "eventlog.h"
#include "plot.h"
#include "series.h"
#include "summary.h"
#include "testutil.h"
#include "trace.h"
#include "table.h"
#include "trace_read.h"

static const char *dcsim_path;
static const char *srcdir;
static char workdir[256]; /* traces and captured output */
static char tmpdir[300];  /* TMPDIR of every dcsim run: must end empty */
static char outdir[300];  /* figures and CSV files */
static char small_cfg[400];
static char trace_small[400], trace_a[400], trace_b[400], trace_lean[400];
/* The models' figures: two step-time traces (the teaching HBM/DDR scenario
 * on 1,024 and 512 GPUs), an inference service, the investment programme
 * (costs), a synthetic power trace, a small sweep and a sweep without /runs. */
static char trace_step[400], trace_step_b[400], trace_inf[400], trace_cost[400], trace_power[400];
static char trace_jobs[400]; /* scenarios/traces/replay.cfg: a job trace's waits by size */
static char sweep_file[400], sweep_norun[400];

/* Runs dcsim with args, with the environment assignments env ("K=V", NULL
 * ends; may be NULL) added and TMPDIR set to tmpdir. */
static dc_runner_result run_env(const char *const *env, const char *const *args)
{
    static const char *const unset[] = {"DCSIM_GNUPLOT", "DCSIM_PLOTS", NULL};
    char tmp[320];
    snprintf(tmp, sizeof tmp, "TMPDIR=%s", tmpdir);
    const char *all[16] = {tmp};
    size_t n = 1;
    for (size_t i = 0; env && env[i] && n < 15; i++)
        all[n++] = env[i];
    all[n] = NULL;
    return dc_runner_dcsim(args, &(dc_runner_opts){.env = all, .unset = unset});
}

static dc_runner_result run(const char *const *args)
{
    return run_env(NULL, args);
}

/* Removes what dir holds (recursively), not dir itself. */
static void empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char p[700];
    while ((e = readdir(d))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
            empty_dir(p);
            rmdir(p);
        } else {
            unlink(p);
        }
    }
    closedir(d);
}

/* Whether a directory holds a leftover temporary (".tmp." in a name). */
static bool has_tmp(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    struct dirent *e;
    while ((e = readdir(d)))
        found = found || strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return found;
}

static void path_in(char *buf, size_t size, const char *dir, const char *name)
{
    snprintf(buf, size, "%s/%s", dir, name);
}

/* ---- figure files ----------------------------------------------------------------- */

static const unsigned char png_magic[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

/* A PNG of at least min_bytes with the PNG signature and an IHDR chunk whose
 * width and height are the figure's (both > 100 pixels). */
static bool is_png(const char *path, size_t min_bytes)
{
    size_t len = 0;
    char *b = dc_runner_slurp(path, &len);
    bool ok = len >= min_bytes && len > 24 && memcmp(b, png_magic, 8) == 0 && memcmp(b + 12, "IHDR", 4) == 0;
    if (ok) {
        const unsigned char *u = (const unsigned char *)b;
        unsigned w = (unsigned)u[16] << 24 | (unsigned)u[17] << 16 | (unsigned)u[18] << 8 | u[19];
        unsigned h = (unsigned)u[20] << 24 | (unsigned)u[21] << 16 | (unsigned)u[22] << 8 | u[23];
        ok = w > 100 && h > 100;
    }
    free(b);
    return ok;
}

static bool is_svg(const char *path, size_t min_bytes)
{
    size_t len = 0;
    char *b = dc_runner_slurp(path, &len);
    bool ok = len >= min_bytes && strstr(b, "<svg") != NULL && strstr(b, "</svg>") != NULL;
    free(b);
    return ok;
}

static bool is_pdf(const char *path, size_t min_bytes)
{
    size_t len = 0;
    char *b = dc_runner_slurp(path, &len);
    bool eof = false; /* "%%EOF" near the end (the file holds NULs) */
    for (size_t i = len > 64 ? len - 64 : 0; i + 5 <= len && !eof; i++)
        eof = memcmp(b + i, "%%EOF", 5) == 0;
    bool ok = len >= min_bytes && strncmp(b, "%PDF-", 5) == 0 && eof;
    free(b);
    return ok;
}

/* ---- fixtures ------------------------------------------------------------------------ */

/* A trace with the power model's series (sim/trace.c writes any series):
 * two days of a site whose IT power steps between 10 and 12 MW. */
static int make_power_trace(void)
{
    dc_summary *s = dc_summary_create();
    dc_series_set *set = dc_series_set_create();
    dc_eventlog *log = dc_eventlog_create();
    dc_eventlog_enable(log, false);
    dc_summary_set(s, "power.pue", 1.2, "", NULL);
    static const char *const names[] = {"power_it_w", "power_cooling_w", "power_facility_w",
                                        "temp_inlet_c", "temp_ambient_c", "throttle"};
    for (int h = 0; h < 48; h++) {
        double t = h * 3600.0, it = h % 12 < 6 ? 10e6 : 12e6, amb = 20.0 + 8.0 * sin(h * M_PI / 12.0);
        double v[] = {it, 0.1 * it + 1e5 * amb, 1.05 * it + 0.1 * it + 1e5 * amb, 24.0 + 0.1 * amb, amb,
                      amb > 27.0 ? 0.9 : 1.0};
        for (size_t i = 0; i < 6; i++)
            dc_series_record(dc_series_set_get(set, names[i], "", NULL), t, v[i]);
    }
    dc_trace_meta meta = {.dcsim_version = "test", .scenario_text = "name = \"site\";\ncooling = { throttle_c = 27.0; };\n",
                          .scenario_file = "site.cfg", .seed = 1, .horizon_s = 172800, .end_s = 172800,
                          .started_at = "2026-01-01T00:00:00Z"};
    dc_error err = {0};
    int rc = dc_trace_write(trace_power, &meta, s, set, log, &err);
    if (rc != DC_OK)
        fprintf(stderr, "cannot write the power trace: %s\n", err.msg);
    dc_summary_destroy(s);
    dc_series_set_destroy(set);
    dc_eventlog_destroy(log);
    return rc == DC_OK ? 0 : -1;
}

/* A file that says it is a sweep but has only /params (a sweep cut short). */
static int make_sweep_without_runs(void)
{
    hid_t f = H5Fcreate(sweep_norun, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    if (f < 0)
        return -1;
    hid_t sp = H5Screate(H5S_SCALAR);
    hid_t a = H5Acreate2(f, "format_version", H5T_STD_I32LE, sp, H5P_DEFAULT, H5P_DEFAULT);
    int one = 1;
    H5Awrite(a, H5T_NATIVE_INT, &one);
    H5Aclose(a);
    hid_t st = H5Tcopy(H5T_C_S1);
    H5Tset_size(st, 5);
    a = H5Acreate2(f, "kind", st, sp, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, st, "sweep");
    H5Aclose(a);
    hid_t d = H5Dcreate2(f, "params", H5T_IEEE_F64LE, sp, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    double x = 1.0;
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &x);
    H5Dclose(d);
    H5Tclose(st);
    H5Sclose(sp);
    return H5Fclose(f) < 0 ? -1 : 0;
}

static int make_model_traces(void)
{
    char hbm[400], inf[400], prog[400], replay[400];
    snprintf(replay, sizeof replay, "%s/scenarios/traces/replay.cfg", srcdir);
    path_in(trace_jobs, sizeof trace_jobs, workdir, "replay.h5");
    snprintf(hbm, sizeof hbm, "%s/scenarios/teach/hbm_ddr.cfg", srcdir);
    snprintf(inf, sizeof inf, "%s/scenarios/inference/daily_chat.cfg", srcdir);
    snprintf(prog, sizeof prog, "%s/scenarios/invest/programme.cfg", srcdir);
    path_in(trace_step, sizeof trace_step, workdir, "step.h5");
    path_in(trace_step_b, sizeof trace_step_b, workdir, "step_512.h5");
    path_in(trace_inf, sizeof trace_inf, workdir, "chat.h5");
    path_in(trace_cost, sizeof trace_cost, workdir, "programme.h5");
    path_in(trace_power, sizeof trace_power, workdir, "site.h5");
    path_in(sweep_file, sizeof sweep_file, workdir, "sweep.h5");
    path_in(sweep_norun, sizeof sweep_norun, workdir, "cut.h5");
    const char *const *cmds[] = {
        (const char *[]){"run", hbm, "-o", trace_step, "--quiet", NULL},
        (const char *[]){"run", hbm, "-o", trace_step_b, "--set", "job.nodes=64", "--set", "cluster.nodes=64",
                         "--set", "cluster.spare_nodes=4", "--quiet", NULL},
        (const char *[]){"run", inf, "-o", trace_inf, "--set", "horizon_days=2.0", "--quiet", NULL},
        (const char *[]){"run", prog, "-o", trace_cost, "--quiet", NULL},
        (const char *[]){"run", replay, "-o", trace_jobs, "--quiet", NULL},
        (const char *[]){"sweep", prog, "--reps", "12", "--vary", "cost.owned=1.0,0.0", "-o", sweep_file, "--quiet",
                         NULL},
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        dc_runner_result r = run(cmds[i]);
        int bad = r.status != 0;
        if (bad)
            fprintf(stderr, "cannot make the fixtures (%s %s): %s", cmds[i][0], cmds[i][1], r.err);
        dc_runner_free(&r);
        if (bad)
            return -1;
    }
    return make_power_trace() == 0 && make_sweep_without_runs() == 0 ? 0 : -1;
}

/* The traces every test uses: the small scenario (seed 7), two more with
 * other seeds and checkpoint intervals, and a lean trace holding only two
 * summary figures (no series, no interruptions, no GPU-hour breakdown). */
static int make_traces(void)
{
    snprintf(small_cfg, sizeof small_cfg, "%s/scenarios/small.cfg", srcdir);
    path_in(trace_small, sizeof trace_small, workdir, "small.h5");
    path_in(trace_a, sizeof trace_a, workdir, "small_a.h5");
    path_in(trace_b, sizeof trace_b, workdir, "small_b.h5");
    path_in(trace_lean, sizeof trace_lean, workdir, "lean.h5");
    dc_runner_result r1 = run((const char *[]){"run", small_cfg, "-o", trace_small, "--quiet", NULL});
    dc_runner_result r2 = run((const char *[]){"run", small_cfg, "-o", trace_a, "--seed", "3", "--set",
                                     "checkpoint.interval_s=900.0", "--quiet", NULL});
    dc_runner_result r3 = run((const char *[]){"run", small_cfg, "-o", trace_b, "--seed", "4", "--set",
                                     "checkpoint.interval_s=2400.0", "--set", "job.nodes=12", "--quiet", NULL});
    int bad = r1.status || r2.status || r3.status;
    if (bad)
        fprintf(stderr, "cannot make the traces: %s%s%s", r1.err, r2.err, r3.err);
    dc_runner_free(&r1);
    dc_runner_free(&r2);
    dc_runner_free(&r3);
    if (bad)
        return -1;

    if (make_model_traces() != 0)
        return -1;

    dc_summary *s = dc_summary_create();
    dc_series_set *set = dc_series_set_create();
    dc_eventlog *log = dc_eventlog_create();
    dc_eventlog_enable(log, false);
    dc_summary_set(s, "job.ettr", 0.5, "", NULL);
    dc_summary_set(s, "cluster.nodes", 4, "nodes", NULL);
    dc_trace_meta meta = {.dcsim_version = "test", .scenario_text = "name = \"lean\";\n",
                          .scenario_file = "lean.cfg", .seed = 1, .horizon_s = 86400, .end_s = 86400,
                          .started_at = "2026-01-01T00:00:00Z"};
    dc_error err = {0};
    int rc = dc_trace_write(trace_lean, &meta, s, set, log, &err);
    if (rc != DC_OK)
        fprintf(stderr, "cannot write the lean trace: %s\n", err.msg);
    dc_summary_destroy(s);
    dc_series_set_destroy(set);
    dc_eventlog_destroy(log);
    return rc == DC_OK ? 0 : -1;
}

/* ---- every kind, every script ------------------------------------------------------ */

static void test_every_script_draws(void)
{
    /* Every script in plots/ but the shared style is the script of a kind. */
    char plots[400];
    snprintf(plots, sizeof plots, "%s/plots", srcdir);
    DIR *d = opendir(plots);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    size_t scripts = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || strcmp(e->d_name + len - 3, ".gp") != 0 || strcmp(e->d_name, "style.gp") == 0)
            continue;
        scripts++;
        bool used = false;
        for (size_t k = 0; k < dc_plot_kind_count; k++)
            used = used || strcmp(dc_plot_kinds[k].script, e->d_name) == 0;
        if (!used)
            fprintf(stderr, "\n  plots/%s is the script of no kind", e->d_name);
        CU_ASSERT(used);
    }
    closedir(d);
    CU_ASSERT_EQUAL(scripts, dc_plot_kind_count);
    CU_ASSERT(dc_plot_kind_count >= 8);

    /* Every kind draws a PNG and an SVG. */
    for (size_t k = 0; k < dc_plot_kind_count; k++) {
        const dc_plot_kind *kind = &dc_plot_kinds[k];
        for (int fmt = 0; fmt < 2; fmt++) {
            char out[600];
            snprintf(out, sizeof out, "%s/%s.%s", outdir, kind->name, fmt ? "svg" : "png");
            const char *one = !strcmp(kind->name, "inference") || !strcmp(kind->name, "latency") ? trace_inf
                              : !strcmp(kind->name, "power")                                   ? trace_power
                              : !strcmp(kind->name, "cost")                                    ? trace_cost
                              : !strcmp(kind->name, "waits")                                   ? trace_jobs
                              : kind->input == DC_PLOT_SWEEP                                   ? sweep_file
                                                                                               : trace_small;
            bool steps = !strcmp(kind->name, "step") || !strcmp(kind->name, "scaling");
            dc_runner_result r = kind->input == DC_PLOT_RUNS && steps
                           ? run((const char *[]){"plot", "--kind", kind->name, trace_step_b, trace_step, "-o", out,
                                                  NULL})
                       : kind->input == DC_PLOT_RUNS
                           ? run((const char *[]){"plot", "--kind", kind->name, trace_small, trace_a, trace_b, "-o",
                                                  out, NULL})
                       : steps ? run((const char *[]){"plot", "--kind", kind->name, trace_step, trace_step_b, "-o", out,
                                                      NULL})
                               : run((const char *[]){"plot", one, "--kind", kind->name, "-o", out, NULL});
            bool ok = r.status == 0 && (fmt ? is_svg(out, 2000) : is_png(out, 5000));
            if (!ok)
                fprintf(stderr, "\n  kind %s (%s): status %d, stderr: %s", kind->name, fmt ? "svg" : "png",
                        r.status, r.err);
            CU_ASSERT(ok);
            CU_ASSERT_PTR_NOT_NULL(strstr(r.out, out));
            dc_runner_free(&r);
        }
    }
    /* A PDF, by the extension. */
    char pdf[600];
    path_in(pdf, sizeof pdf, outdir, "timeline.pdf");
    dc_runner_result r = run((const char *[]){"plot", trace_small, "--kind", "timeline", "-o", pdf, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(is_pdf(pdf, 2000));
    dc_runner_free(&r);

    /* The figures of runs from a scan, run by dcsim itself. */
    char out[600];
    path_in(out, sizeof out, outdir, "scan_checkpoint.png");
    r = run((const char *[]){"plot", "--kind", "checkpoint", "--scan", small_cfg, "--vary",
                             "checkpoint.interval_s=600.0,1200.0,2400.0", "--reps", "2", "-o", out, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(is_png(out, 5000));
    dc_runner_free(&r);
    path_in(out, sizeof out, outdir, "scan_scale.svg");
    r = run((const char *[]){"plot", "--kind", "scale", "--scan", small_cfg, "--vary", "job.nodes=4,8,16", "--vary",
                             "cluster.nodes=4,8,16", "-o", out, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(is_svg(out, 2000));
    dc_runner_free(&r);

    CU_ASSERT_EQUAL(dc_runner_count_entries(tmpdir), 0); /* temporaries removed */
    CU_ASSERT(!has_tmp(outdir));
    empty_dir(outdir);
}

/* Without a kind: every figure of one trace, into a folder. */
/* Issue 18 item 8: the figures of traces where nothing went wrong.  A run
 * without failures has an empty /series/repair_queue (gnuplot's stats then
 * defines no STATS_max: nodes.gp stopped with "undefined variable"), and a
 * trace without interruptions (the shipped inference/daily_chat) made
 * interruptions.gp divide by zero ("undefined value").  Both draw now, and
 * the interruption bars carry no NaN share. */
static void test_quiet_runs(void)
{
    char quiet[600];
    path_in(quiet, sizeof quiet, workdir, "quiet.h5");
    dc_runner_result r = run((const char *[]){"run", small_cfg, "-o", quiet, "--quiet", "--set", "horizon_days=1.0",
                                             "--set", "failures.[0].mtbf_h=1e12", "--set", "failures.[1].mtbf_h=1e12",
                                             "--set", "failures.[2].mtbf_h=1e12", "--set", "failures.[3].mtbf_h=1e12",
                                             NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    static const char *const kinds[] = {"nodes", "interruptions", "timeline", "gpu_hours", "progress"};
    const char *traces[] = {quiet, trace_inf};
    for (size_t t = 0; t < 2; t++)
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            char out[700];
            snprintf(out, sizeof out, "%s/quiet_%zu_%s.png", outdir, t, kinds[k]);
            r = run((const char *[]){"plot", traces[t], "--kind", kinds[k], "-o", out, "--data", tmpdir, NULL});
            bool ok = r.status == 0 && is_png(out, 3000);
            if (!ok)
                fprintf(stderr, "\n  %s of %s: status %d: %s", kinds[k], traces[t], r.status, r.err);
            CU_ASSERT(ok);
            dc_runner_free(&r);
            if (strcmp(kinds[k], "interruptions") == 0) {
                char bars[500];
                snprintf(bars, sizeof bars, "%s/bars.csv", tmpdir);
                char *text = dc_runner_slurp(bars, NULL);
                CU_ASSERT_PTR_NOT_NULL(strstr(text, ",0,0\n"));
                CU_ASSERT_PTR_NULL(strstr(text, "NaN"));
                free(text);
            }
            empty_dir(tmpdir);
        }
}

static void test_folder_of_figures(void)
{
    char dir[600];
    path_in(dir, sizeof dir, outdir, "figures");
    dc_runner_result r = run((const char *[]){"plot", trace_small, "-o", dir, "--format", "svg", NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    /* The figures of one trace of a training scenario without the
     * step-time, inference, cost and power models. */
    static const char *const models[] = {"step", "latency", "cost", "inference", "power", "waits"};
    size_t one = 0;
    for (size_t k = 0; k < dc_plot_kind_count; k++) {
        if (dc_plot_kinds[k].input != DC_PLOT_ONE && dc_plot_kinds[k].input != DC_PLOT_SOME)
            continue;
        bool model = false;
        for (size_t m = 0; m < sizeof models / sizeof models[0]; m++)
            model = model || strcmp(dc_plot_kinds[k].name, models[m]) == 0;
        if (model)
            continue;
        one++;
        char f[700];
        snprintf(f, sizeof f, "%s/%s.svg", dir, dc_plot_kinds[k].name);
        CU_ASSERT(is_svg(f, 2000));
    }
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), (int)one);
    dc_runner_free(&r);

    /* The default folder is TRACE_figures beside the trace, PNG. */
    r = run((const char *[]){"plot", trace_small, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    char def[600];
    path_in(def, sizeof def, workdir, "small_figures/timeline.png");
    CU_ASSERT(is_png(def, 5000));
    path_in(def, sizeof def, workdir, "small_figures");
    CU_ASSERT_EQUAL(dc_runner_count_entries(def), (int)one);
    empty_dir(def);
    rmdir(def);
    dc_runner_free(&r);

    /* A trace that supports only some: those, and a note for the rest. */
    r = run((const char *[]){"plot", trace_lean, NULL});
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "/series/job_state"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no figure"));
    path_in(def, sizeof def, workdir, "lean_figures");
    CU_ASSERT_EQUAL(dc_runner_count_entries(def), -1); /* not left behind */
    dc_runner_free(&r);
    CU_ASSERT_EQUAL(dc_runner_count_entries(tmpdir), 0);
    empty_dir(outdir);
}

/* ---- scan data against dcsim run ------------------------------------------------------ */

/* The points of a checkpoint scan are the mean and 95% interval (Student
 * t) of dcsim run with the same interval and seeds base, base + 1, ... */
static void test_scan_data(void)
{
    char data[600];
    path_in(data, sizeof data, outdir, "scan_data");
    char out[600];
    path_in(out, sizeof out, outdir, "scan.png");
    const char *intervals[] = {"700.0", "2000.0"};
    const int reps = 3, seed0 = 11;
    dc_runner_result r = run((const char *[]){"plot", "--kind", "checkpoint", "--scan", small_cfg, "--vary",
                                    "checkpoint.interval_s=700.0,2000.0", "--reps", "3", "--seed", "11", "-o", out,
                                    "--data", data, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    char csv[700];
    path_in(csv, sizeof csv, data, "checkpoint.csv");
    FILE *f = fopen(csv, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    char line[512];
    size_t row = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        double x, mean, half, n;
        CU_ASSERT_EQUAL_FATAL(sscanf(line, "%lf,%lf,%lf,%lf", &x, &mean, &half, &n), 4);
        CU_ASSERT_FATAL(row < 2);
        CU_ASSERT_DOUBLE_EQUAL(x, atof(intervals[row]), 0.0);
        CU_ASSERT_EQUAL(n, reps);
        double v[3], sum = 0.0;
        for (int k = 0; k < reps; k++) {
            char set[64], seed[16];
            snprintf(set, sizeof set, "checkpoint.interval_s=%s", intervals[row]);
            snprintf(seed, sizeof seed, "%d", seed0 + k);
            dc_runner_result j = run((const char *[]){"run", small_cfg, "--no-trace", "--json", "--seed", seed, "--set", set,
                                            NULL});
            CU_ASSERT_EQUAL(j.status, 0);
            CU_ASSERT((dc_test_json_number(j.out, "job.ettr", &v[k]) != NULL));
            sum += v[k];
            dc_runner_free(&j);
        }
        double m = sum / reps, ss = 0.0;
        for (int k = 0; k < reps; k++)
            ss += (v[k] - m) * (v[k] - m);
        double expect_half = gsl_cdf_tdist_Pinv(0.975, reps - 1) * sqrt(ss / (reps - 1)) / sqrt((double)reps);
        /* The data file carries 10 significant digits. */
        CU_ASSERT_DOUBLE_EQUAL(mean, m, 1e-9 * fabs(m));
        CU_ASSERT_DOUBLE_EQUAL(half, expect_half, 1e-9 * fabs(m) + 1e-12);
        CU_ASSERT(v[0] != v[1] || v[1] != v[2]); /* the seeds differ */
        row++;
    }
    fclose(f);
    CU_ASSERT_EQUAL(row, 2);
    /* What --data keeps: the data, setup.gp and plot.sh, which redraws. */
    char p[700];
    path_in(p, sizeof p, data, "setup.gp");
    char *setup = dc_runner_slurp(p, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(setup, "set terminal pngcairo"));
    CU_ASSERT_PTR_NOT_NULL(strstr(setup, "scenario = 'small'"));
    free(setup);
    path_in(p, sizeof p, data, "plot.sh");
    CU_ASSERT_EQUAL(access(p, X_OK), 0);
    unlink(out);
    int st = system(p);
    CU_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    CU_ASSERT(is_png(out, 5000));
    empty_dir(data);
    rmdir(data);
    empty_dir(outdir);
}

/* ---- export ------------------------------------------------------------------------ */

/* Splits a CSV line (no quoted fields expected here) into at most max fields. */
static size_t split(char *line, char **fields, size_t max)
{
    size_t n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *c = strchr(p, ',');
        if (!c)
            break;
        *c = '\0';
        p = c + 1;
    }
    return n;
}

/* The waits figure's data: every bar the trace's summary figure. */
static void test_waits_data(void)
{
    char out[700];
    snprintf(out, sizeof out, "%s/waits.png", outdir);
    dc_runner_result r = run((const char *[]){"plot", trace_jobs, "--kind", "waits", "-o", out, "--data", tmpdir, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(trace_jobs, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    dc_summary *sum = dc_summary_create();
    CU_ASSERT_EQUAL_FATAL(dc_trace_read_summary(t, sum, &err), DC_OK);
    dc_trace_close(t);
    char csv[500];
    snprintf(csv, sizeof csv, "%s/waits.csv", tmpdir);
    FILE *f = fopen(csv, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    static const char *const classes[5] = {"gpus_1", "gpus_2_4", "gpus_5_8", "gpus_9_64", "gpus_65_up"};
    static const char *const stats[4] = {"p50", "p90", "p99", "mean"};
    char line[256];
    size_t rows = 0, same = 0, finite = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#')
            continue;
        char *fld[4];
        CU_ASSERT_EQUAL_FATAL(split(line, fld, 4), 3);
        int c = atoi(fld[0]) - 1, st = atoi(fld[1]) - 1;
        CU_ASSERT_FATAL(c >= 0 && c < 5 && st >= 0 && st < 4);
        char key[96];
        snprintf(key, sizeof key, "jobs.%s.wait_%s_h", classes[c], stats[st]);
        double want = NAN, got = strtod(fld[2], NULL);
        CU_ASSERT(dc_summary_get(sum, key, &want));
        if (isfinite(want))
            finite++;
        if ((isnan(want) && isnan(got)) || fabs(got - want) <= 1e-9 * fabs(want))
            same++;
        else
            fprintf(stderr, "\n  %s: %s in waits.csv, %.17g in the trace", key, fld[2], want);
        rows++;
    }
    fclose(f);
    CU_ASSERT_EQUAL(rows, 20);
    CU_ASSERT_EQUAL(same, 20);
    CU_ASSERT(finite >= 12); /* the sample fills four classes */
    dc_summary_destroy(sum);
    empty_dir(tmpdir);
}

static void test_export_series(void)
{
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(trace_small, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const char *names[] = {"nodes_up", "nodes_down", "repair_queue", "job_state", "job_progress"};
    for (size_t s = 0; s < 5; s++) {
        double *ts = NULL, *vs = NULL;
        size_t n = 0;
        CU_ASSERT_EQUAL_FATAL(dc_trace_read_series(t, names[s], &ts, &vs, &n, &err), DC_OK);
        CU_ASSERT(n > 3);
        char path[64], csv[600];
        snprintf(path, sizeof path, "/series/%s", names[s]);
        path_in(csv, sizeof csv, outdir, "series.csv");
        dc_runner_result r = run((const char *[]){"export", trace_small, path, "-o", csv, NULL});
        CU_ASSERT_EQUAL(r.status, 0);
        CU_ASSERT_STRING_EQUAL(r.out, "");
        dc_runner_free(&r);
        FILE *f = fopen(csv, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[256];
        CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
        CU_ASSERT_STRING_EQUAL(line, "time_s,value\n");
        size_t rows = 0, same = 0;
        while (fgets(line, sizeof line, f)) {
            char *fld[3];
            CU_ASSERT_EQUAL(split(line, fld, 3), 2);
            if (rows < n && strtod(fld[0], NULL) == ts[rows] && strtod(fld[1], NULL) == vs[rows])
                same++;
            rows++;
        }
        fclose(f);
        CU_ASSERT_EQUAL(rows, n);
        CU_ASSERT_EQUAL(same, n); /* every value, to the last bit */
        free(ts);
        free(vs);
    }
    dc_trace_close(t);
    empty_dir(outdir);
}

static void test_export_events_and_summary(void)
{
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(trace_small, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    dc_eventlog *log = dc_eventlog_create();
    CU_ASSERT_EQUAL_FATAL(dc_trace_read_events(t, log, &err), DC_OK);
    dc_summary *s = dc_summary_create();
    CU_ASSERT_EQUAL_FATAL(dc_trace_read_summary(t, s, &err), DC_OK);
    dc_trace_close(t);

    /* /events on standard output (the path may leave out its '/'). */
    dc_runner_result r = run((const char *[]){"export", trace_small, "events", NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    char *save = NULL;
    char *line = strtok_r(r.out, "\n", &save);
    CU_ASSERT_STRING_EQUAL(line, "time_s,kind,component,id,job,value");
    size_t rows = 0, same = 0, n = dc_eventlog_count(log);
    const dc_eventlog_row *ev = dc_eventlog_rows(log);
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *fld[7];
        CU_ASSERT_EQUAL(split(line, fld, 7), 6);
        if (rows < n && strtod(fld[0], NULL) == ev[rows].time_s && strcmp(fld[1], ev[rows].kind) == 0 &&
            strcmp(fld[2], ev[rows].component) == 0 && atoi(fld[3]) == ev[rows].id && atoi(fld[4]) == ev[rows].job &&
            strtod(fld[5], NULL) == ev[rows].value)
            same++;
        rows++;
    }
    CU_ASSERT(n > 50);
    CU_ASSERT_EQUAL(rows, n);
    CU_ASSERT_EQUAL(same, n);
    dc_runner_free(&r);

    /* /summary: key,value,unit in summary order. */
    r = run((const char *[]){"export", trace_small, "/summary", NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    save = NULL;
    line = strtok_r(r.out, "\n", &save);
    CU_ASSERT_STRING_EQUAL(line, "key,value,unit");
    rows = same = 0;
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *fld[4];
        size_t nf = split(line, fld, 4);
        CU_ASSERT(nf == 3);
        size_t i = rows++;
        if (nf == 3 && i < dc_summary_count(s) && strcmp(fld[0], dc_summary_key(s, i)) == 0 &&
            strcmp(fld[2], dc_summary_unit(s, i)) == 0) {
            double v = strtod(fld[1], NULL), want = dc_summary_value(s, i);
            same += v == want || (isnan(v) && isnan(want));
        }
    }
    CU_ASSERT(rows > 30);
    CU_ASSERT_EQUAL(rows, dc_summary_count(s));
    CU_ASSERT_EQUAL(same, rows);
    dc_runner_free(&r);

    /* One figure. */
    double ettr = 0;
    CU_ASSERT(dc_summary_get(s, "job.ettr", &ettr));
    r = run((const char *[]){"export", trace_small, "/summary/job.ettr", NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    char *comma = strchr(r.out, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(comma);
    CU_ASSERT_EQUAL(strncmp(comma + 1, "job.ettr,", 9), 0);
    CU_ASSERT_EQUAL(strtod(comma + 10, NULL), ettr);
    dc_runner_free(&r);

    /* --list names what there is. */
    r = run((const char *[]){"export", trace_small, "--list", NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "/events\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "/series/nodes_up\n"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "/summary\n"));
    dc_runner_free(&r);
    dc_eventlog_destroy(log);
    dc_summary_destroy(s);
}

/* ---- compare ------------------------------------------------------------------------ */

static dc_summary *summary_of(const char *path)
{
    dc_error err = {0};
    dc_trace_file *t = dc_trace_open(path, &err);
    dc_summary *s = dc_summary_create();
    if (!t || dc_trace_read_summary(t, s, &err) != DC_OK) {
        dc_summary_destroy(s);
        s = NULL;
    }
    dc_trace_close(t);
    return s;
}

/* The relative difference computed here from the two traces. */
static double rel(double a, double b, bool *defined)
{
    *defined = isfinite(a) && isfinite(b) && (a != 0.0 || b == 0.0);
    return !*defined ? NAN : a == 0.0 ? 0.0 : (b - a) / fabs(a);
}

static void test_compare(void)
{
    dc_summary *a = summary_of(trace_a), *b = summary_of(trace_b);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);

    /* --csv: every digit. */
    dc_runner_result r = run((const char *[]){"compare", trace_a, trace_b, "--csv", NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    char *save = NULL;
    char *line = strtok_r(r.out, "\n", &save);
    CU_ASSERT_STRING_EQUAL(line, "key,unit,small_a,small_b,rel_small_b");
    size_t rows = 0, checked = 0, differ = 0;
    while ((line = strtok_r(NULL, "\n", &save))) {
        char *fld[6];
        CU_ASSERT_EQUAL_FATAL(split(line, fld, 6), 5);
        double va = NAN, vb = NAN;
        bool in_a = dc_summary_get(a, fld[0], &va), in_b = dc_summary_get(b, fld[0], &vb);
        CU_ASSERT(in_a || in_b);
        bool defined;
        double want = rel(va, vb, &defined);
        double got = strtod(fld[4], NULL);
        bool ok = defined ? got == want : isnan(got);
        if (!ok)
            fprintf(stderr, "\n  %s: printed %s, computed %.17g", fld[0], fld[4], want);
        CU_ASSERT(ok);
        if (in_a && isfinite(va))
            CU_ASSERT_EQUAL(strtod(fld[2], NULL), va);
        checked += defined;
        differ += defined && want != 0.0;
        rows++;
    }
    CU_ASSERT_EQUAL(rows, dc_summary_count(a)); /* same models, same keys */
    CU_ASSERT(checked > 20);
    CU_ASSERT(differ > 5);
    dc_runner_free(&r);

    /* The table a person reads: the same differences in percent, 2 decimals. */
    r = run((const char *[]){"compare", trace_a, trace_b, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "differences relative to small_a"));
    save = NULL;
    checked = 0;
    for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char key[128], last[64] = "";
        if (sscanf(line, "%127s", key) != 1)
            continue;
        double va, vb;
        if (!dc_summary_get(a, key, &va) || !dc_summary_get(b, key, &vb))
            continue;
        const char *sp = strrchr(line, ' ');
        snprintf(last, sizeof last, "%s", sp ? sp + 1 : line);
        bool defined;
        double want = rel(va, vb, &defined);
        if (!defined) {
            CU_ASSERT_STRING_EQUAL(last, "-");
        } else {
            CU_ASSERT(last[strlen(last) - 1] == '%');
            double got = strtod(last, NULL);
            CU_ASSERT_DOUBLE_EQUAL(got, 100.0 * want, 0.005 + 1e-9);
        }
        checked++;
    }
    CU_ASSERT_EQUAL(checked, dc_summary_count(a));
    dc_runner_free(&r);

    /* --plot: grouped bars. */
    char fig[600];
    path_in(fig, sizeof fig, outdir, "cmp.svg");
    r = run((const char *[]){"compare", trace_a, trace_b, trace_small, "--plot", "-o", fig, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(is_svg(fig, 2000));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.out, "wrote"));
    dc_runner_free(&r);

    /* The library's rule, on the cases the traces may not show. */
    CU_ASSERT_DOUBLE_EQUAL(dc_compare_reldiff(2.0, 3.0), 0.5, 1e-15);
    CU_ASSERT_DOUBLE_EQUAL(dc_compare_reldiff(-2.0, -3.0), -0.5, 1e-15);
    CU_ASSERT_EQUAL(dc_compare_reldiff(0.0, 0.0), 0.0);
    CU_ASSERT(isnan(dc_compare_reldiff(0.0, 1.0)));
    CU_ASSERT(isnan(dc_compare_reldiff(NAN, 1.0)));
    dc_summary_destroy(a);
    dc_summary_destroy(b);
    empty_dir(outdir);
}

/* ---- bad input -------------------------------------------------------------------------- */

typedef struct bad_case {
    const char *what;
    const char *env[3];
    const char *args[14]; /* "@SMALL", "@LEAN", "@CFG", "@OUT" (outdir/fig.png), "@BAD" (a bad script dir),
                           * "@SWEEP" (a sweep file), "@CUT" (a sweep file without /runs) */
    const char *fragments[3];
} bad_case;

static const bad_case bad_cases[] = {
    {"figure needs a series", {NULL}, {"plot", "@LEAN", "--kind", "nodes", "-o", "@OUT"},
     {"/series/nodes_up", "lean.h5", "nodes"}},
    {"figure needs the job's series", {NULL}, {"plot", "@LEAN", "--kind", "timeline", "-o", "@OUT"},
     {"/series/job_state", "timeline"}},
    {"figure needs summary figures", {NULL}, {"plot", "@LEAN", "--kind", "interruptions", "-o", "@OUT"},
     {"/summary/interruptions.*"}},
    {"runs figure needs summary figures", {NULL}, {"plot", "--kind", "checkpoint", "@LEAN", "@SMALL", "-o", "@OUT"},
     {"/summary/job.checkpoint_interval_s", "lean.h5"}},
    {"gnuplot missing", {"DCSIM_GNUPLOT=/nonexistent/gnuplot"}, {"plot", "@SMALL", "--kind", "nodes", "-o", "@OUT"},
     {"gnuplot", "/nonexistent/gnuplot", "gnuplot-nox"}},
    {"gnuplot missing, all figures", {"DCSIM_GNUPLOT=/nonexistent/gnuplot"}, {"plot", "@SMALL", "-o", "@OUTDIR"},
     {"/nonexistent/gnuplot"}},
    {"gnuplot missing, compare --plot", {"DCSIM_GNUPLOT=/nonexistent/gnuplot"},
     {"compare", "@SMALL", "@SMALL", "--plot", "-o", "@OUT"}, {"/nonexistent/gnuplot"}},
    {"gnuplot fails", {"DCSIM_GNUPLOT=/bin/false"}, {"plot", "@SMALL", "--kind", "nodes", "-o", "@OUT"},
     {"gnuplot", "/bin/false", "failed"}},
    {"broken script", {"DCSIM_PLOTS=@BAD"}, {"plot", "@SMALL", "--kind", "nodes", "-o", "@OUT"},
     {"nodes.gp", "line 2"}},
    {"script missing", {"DCSIM_PLOTS=/nonexistent/plots"}, {"plot", "@SMALL", "--kind", "nodes", "-o", "@OUT"},
     {"/nonexistent/plots/style.gp", "DCSIM_PLOTS"}},
    {"unknown kind", {NULL}, {"plot", "@SMALL", "--kind", "pie", "-o", "@OUT"}, {"pie", "timeline", "compare"}},
    {"unknown format", {NULL}, {"plot", "@SMALL", "--kind", "nodes", "-o", "fig.jpg"}, {"fig.jpg", ".png"}},
    {"unwritable figure", {NULL}, {"plot", "@SMALL", "--kind", "nodes", "-o", "/nonexistent/dir/f.png"},
     {"/nonexistent/dir/f.png"}},
    {"one-trace figure of two traces", {NULL}, {"plot", "--kind", "nodes", "@SMALL", "@SMALL", "-o", "@OUT"},
     {"one trace"}},
    {"not a trace", {NULL}, {"plot", "@CFG", "--kind", "nodes", "-o", "@OUT"}, {"small.cfg", "not a dcsim trace"}},
    {"missing trace", {NULL}, {"plot", "/nonexistent/t.h5", "--kind", "nodes", "-o", "@OUT"}, {"/nonexistent/t.h5"}},
    {"scan without --vary", {NULL}, {"plot", "--kind", "checkpoint", "--scan", "@CFG", "-o", "@OUT"}, {"--vary"}},
    {"scan with a bad key", {NULL},
     {"plot", "--kind", "checkpoint", "--scan", "@CFG", "--vary", "checkpoint.intervall_s=60.0,120.0", "-o", "@OUT"},
     {"checkpoint.intervall_s", "unknown key"}},
    {"scan with uneven --vary", {NULL},
     {"plot", "--kind", "scale", "--scan", "@CFG", "--vary", "job.nodes=4,8", "--vary", "cluster.nodes=4", "-o", "@OUT"},
     {"job.nodes", "cluster.nodes"}},
    {"scan of a one-trace figure", {NULL},
     {"plot", "--kind", "nodes", "--scan", "@CFG", "--vary", "job.nodes=4,8", "-o", "@OUT"}, {"--scan", "checkpoint"}},
    {"bad --reps", {NULL}, {"plot", "--kind", "checkpoint", "--scan", "@CFG", "--vary", "job.nodes=4", "--reps", "0"},
     {"--reps", "0"}},
    {"export of a missing dataset", {NULL}, {"export", "@SMALL", "/series/power"},
     {"/series/power", "/series/nodes_up", "/events"}},
    {"export of a missing figure", {NULL}, {"export", "@SMALL", "/summary/power.pue"}, {"power.pue"}},
    {"export without a dataset", {NULL}, {"export", "@SMALL"}, {"which dataset", "/summary"}},
    {"export into a missing directory", {NULL}, {"export", "@SMALL", "/events", "-o", "/nonexistent/e.csv"},
     {"/nonexistent/e.csv"}},
    {"histogram of a sweep without /runs", {NULL}, {"plot", "@CUT", "--kind", "histogram", "-o", "@OUT"},
     {"/runs", "cut.h5", "histogram"}},
    {"tornado of a sweep without /sensitivity", {NULL}, {"plot", "@CUT", "--kind", "tornado", "-o", "@OUT"},
     {"/sensitivity", "cut.h5"}},
    {"histogram of a trace", {NULL}, {"plot", "@SMALL", "--kind", "histogram", "-o", "@OUT"}, {"/runs", "small.h5"}},
    {"histogram of an unknown figure", {NULL},
     {"plot", "@SWEEP", "--kind", "histogram", "--metric", "cost.tcoo_usd", "-o", "@OUT"},
     {"cost.tcoo_usd", "/runs", "cost.tco_usd"}},
    {"tornado of an unknown figure", {NULL}, {"plot", "@SWEEP", "--kind", "tornado", "--metric", "job.etr", "-o", "@OUT"},
     {"job.etr", "/sensitivity"}},
    {"step figure without the step-time model", {NULL}, {"plot", "@SMALL", "--kind", "step", "-o", "@OUT"},
     {"/summary/step.time_s", "small.h5", "step"}},
    {"scaling without the step-time model", {NULL}, {"plot", "--kind", "scaling", "@SMALL", "@SMALL", "-o", "@OUT"},
     {"/summary/step.scaling_efficiency"}},
    {"inference figure of a training trace", {NULL}, {"plot", "@SMALL", "--kind", "inference", "-o", "@OUT"},
     {"/series/inference_qps"}},
    {"latency of a training trace", {NULL}, {"plot", "@SMALL", "--kind", "latency", "-o", "@OUT"},
     {"/summary/inference.ttft_p50_s"}},
    {"cost figure without the cost model", {NULL}, {"plot", "@SMALL", "--kind", "cost", "-o", "@OUT"},
     {"/summary/cost.tco_usd"}},
    {"power figure without the power model", {NULL}, {"plot", "@SMALL", "--kind", "power", "-o", "@OUT"},
     {"/series/power_it_w"}},
    {"a sweep file for a trace's figure", {NULL}, {"plot", "@SWEEP", "--kind", "nodes", "-o", "@OUT"},
     {"sweep file", "histogram"}},
    {"--metric for a trace's figure", {NULL}, {"plot", "@SMALL", "--kind", "nodes", "--metric", "job.ettr"},
     {"--metric"}},
    {"compare of one trace", {NULL}, {"compare", "@SMALL"}, {"two traces"}},
    {"compare of a missing trace", {NULL}, {"compare", "@SMALL", "/nonexistent/t.h5"}, {"/nonexistent/t.h5"}},
};

static void test_bad_inputs(void)
{
    char out[600], cfg[600], bad[600], badfile[700], fig_dir[600];
    path_in(out, sizeof out, outdir, "fig.png");
    path_in(fig_dir, sizeof fig_dir, outdir, "figs");
    snprintf(cfg, sizeof cfg, "%s", small_cfg);
    /* A script directory whose nodes.gp has an error on line 2. */
    path_in(bad, sizeof bad, workdir, "badplots");
    mkdir(bad, 0755);
    path_in(badfile, sizeof badfile, bad, "style.gp");
    dc_test_write_text(badfile, "set datafile separator comma\n");
    path_in(badfile, sizeof badfile, bad, "nodes.gp");
    dc_test_write_text(badfile, "# broken\nplot datadir.'nodes_up.csv' using 1:2 with frobnicate\n");
    char bad_env[700];
    snprintf(bad_env, sizeof bad_env, "DCSIM_PLOTS=%s", bad);
    /* A figure from before: a failed drawing must leave it alone. */
    char keep[600];
    path_in(keep, sizeof keep, outdir, "keep.png");

    size_t n = sizeof bad_cases / sizeof bad_cases[0];
    for (size_t i = 0; i < n; i++) {
        const bad_case *bc = &bad_cases[i];
        const char *args[16], *env[4];
        size_t k = 0;
        for (; bc->args[k]; k++) {
            const char *a = bc->args[k];
            args[k] = !strcmp(a, "@SMALL")    ? trace_small
                      : !strcmp(a, "@LEAN")   ? trace_lean
                      : !strcmp(a, "@CFG")    ? cfg
                      : !strcmp(a, "@OUT")    ? out
                      : !strcmp(a, "@OUTDIR") ? fig_dir
                      : !strcmp(a, "@SWEEP")  ? sweep_file
                      : !strcmp(a, "@CUT")    ? sweep_norun
                                              : a;
        }
        args[k] = NULL;
        for (k = 0; bc->env[k]; k++)
            env[k] = strcmp(bc->env[k], "DCSIM_PLOTS=@BAD") == 0 ? bad_env : bc->env[k];
        env[k] = NULL;
        dc_test_write_text(keep, "an older figure");
        dc_runner_result r = run_env(env, args);
        bool ok = r.status == 2 && strncmp(r.err, "dcsim", 5) == 0;
        for (size_t f = 0; f < 3 && bc->fragments[f]; f++)
            ok = ok && strstr(r.err, bc->fragments[f]) != NULL;
        char *old = dc_runner_slurp(keep, NULL);
        bool kept = strcmp(old, "an older figure") == 0;
        free(old);
        unlink(keep);
        int left = dc_runner_count_entries(outdir), temps = dc_runner_count_entries(tmpdir);
        if (!ok || left != 0 || temps != 0 || !kept)
            fprintf(stderr, "\n  bad input '%s': status %d, %d files left, %d temporaries, stderr: %s", bc->what,
                    r.status, left, temps, r.err);
        CU_ASSERT(ok);
        CU_ASSERT(kept);
        CU_ASSERT_EQUAL(left, 0);
        CU_ASSERT_EQUAL(temps, 0);
        dc_runner_free(&r);
        empty_dir(outdir);
        empty_dir(tmpdir);
    }
    empty_dir(bad);
    rmdir(bad);
}

/* ---- figures of a sweep ------------------------------------------------------------------ */

static long table_column(const dc_table *t, const char *name)
{
    for (size_t c = 0; c < dc_table_columns(t); c++)
        if (strcmp(dc_table_column_name(t, c), name) == 0)
            return (long)c;
    return -1;
}

static double cell(const dc_table *t, size_t row, long col)
{
    return dc_table_column_type(t, (size_t)col) == DC_COL_INT ? (double)dc_table_int(t, row, (size_t)col)
                                                              : dc_table_real(t, row, (size_t)col);
}

/* quantiles.csv of a histogram's data: p50[g], p90[g], source "stats"/"runs". */
static size_t read_quantiles(const char *dir, double *p50, double *p90, bool *from_stats, size_t max)
{
    char path[700];
    path_in(path, sizeof path, dir, "quantiles.csv");
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[256];
    size_t n = 0;
    while (fgets(line, sizeof line, f) && n < max) {
        if (line[0] == '#')
            continue;
        int g;
        char src[16] = "";
        unsigned long cnt;
        if (sscanf(line, "%d,%lf,%lf,%lu,%15s", &g, &p50[n], &p90[n], &cnt, src) == 5 && g == (int)n) {
            from_stats[n] = strcmp(src, "stats") == 0;
            n++;
        }
    }
    fclose(f);
    return n;
}

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The histogram marks the P50 and P90 that dcsim sweep computed (/stats),
 * and for a figure /stats lacks, the type-7 quantiles of /runs (computed
 * here from the definition: h = (n - 1) p, interpolating between order
 * statistics); every grid point's bars add to 100%. */
static void test_sweep_figures(void)
{
    char data[600], out[600];
    path_in(data, sizeof data, outdir, "hist_data");
    path_in(out, sizeof out, outdir, "hist.png");
    dc_runner_result r = run((const char *[]){"plot", sweep_file, "--kind", "histogram", "--metric", "cost.tco_usd", "--data",
                                    data, "-o", out, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    CU_ASSERT(is_png(out, 5000));

    dc_error err = {0};
    dc_trace_file *tf = dc_trace_open(sweep_file, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(tf);
    dc_table *st = dc_table_create(), *rt = dc_table_create();
    CU_ASSERT_EQUAL_FATAL(dc_trace_read_table(tf, "/stats", st, &err), DC_OK);
    CU_ASSERT_EQUAL_FATAL(dc_trace_read_table(tf, "/runs", rt, &err), DC_OK);
    long sg = table_column(st, "grid_point"), sf = table_column(st, "figure"), s50 = table_column(st, "p50"),
         s90 = table_column(st, "p90");
    CU_ASSERT_FATAL(sg >= 0 && sf >= 0 && s50 >= 0 && s90 >= 0);
    double p50[4], p90[4];
    bool from_stats[4];
    size_t n = read_quantiles(data, p50, p90, from_stats, 4);
    CU_ASSERT_EQUAL(n, 2); /* cost.owned = 1 and 0 */
    size_t matched = 0;
    for (size_t row = 0; row < dc_table_rows(st); row++) {
        if (strcmp(dc_table_text(st, row, (size_t)sf), "cost.tco_usd") != 0)
            continue;
        size_t g = (size_t)cell(st, row, sg);
        CU_ASSERT_FATAL(g < n);
        CU_ASSERT(from_stats[g]);
        CU_ASSERT_DOUBLE_EQUAL(p50[g], cell(st, row, s50), 1e-9 * fabs(cell(st, row, s50)));
        CU_ASSERT_DOUBLE_EQUAL(p90[g], cell(st, row, s90), 1e-9 * fabs(cell(st, row, s90)));
        matched++;
    }
    CU_ASSERT_EQUAL(matched, 2);

    /* Shares: each grid point's bars add to 100%. */
    char path[700];
    path_in(path, sizeof path, data, "hist.csv");
    FILE *f = fopen(path, "r");
    CU_ASSERT_PTR_NOT_NULL_FATAL(f);
    double sum[2] = {0, 0};
    char line[512];
    while (fgets(line, sizeof line, f)) {
        double c, w, a, b;
        if (line[0] != '#' && sscanf(line, "%lf,%lf,%lf,%lf", &c, &w, &a, &b) == 4) {
            sum[0] += a;
            sum[1] += b;
        }
    }
    fclose(f);
    CU_ASSERT_DOUBLE_EQUAL(sum[0], 100.0, 1e-6);
    CU_ASSERT_DOUBLE_EQUAL(sum[1], 100.0, 1e-6);
    empty_dir(data);
    rmdir(data);

    /* Another figure: the quantiles of its /runs column (type 7). */
    r = run((const char *[]){"plot", sweep_file, "--kind", "histogram", "--metric", "cost.energy_usd", "--data", data,
                             "-o", out, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    n = read_quantiles(data, p50, p90, from_stats, 4);
    CU_ASSERT_EQUAL(n, 2);
    long rg = table_column(rt, "grid_point"), re = table_column(rt, "cost.energy_usd");
    CU_ASSERT_FATAL(rg >= 0 && re >= 0);
    for (size_t g = 0; g < n; g++) {
        double v[64];
        size_t m = 0;
        for (size_t row = 0; row < dc_table_rows(rt) && m < 64; row++)
            if (cell(rt, row, rg) == (double)g)
                v[m++] = cell(rt, row, re);
        CU_ASSERT_EQUAL(m, 12);
        qsort(v, m, sizeof v[0], cmp_dbl);
        double q[2], ps[2] = {0.5, 0.9};
        for (int k = 0; k < 2; k++) {
            double h = (double)(m - 1) * ps[k];
            size_t i = (size_t)floor(h);
            q[k] = i + 1 < m ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[i];
        }
        CU_ASSERT_DOUBLE_EQUAL(p50[g], q[0], 1e-9 * fabs(q[0]) + 1e-9);
        CU_ASSERT_DOUBLE_EQUAL(p90[g], q[1], 1e-9 * fabs(q[1]) + 1e-9);
    }
    dc_table_destroy(st);
    dc_table_destroy(rt);
    dc_trace_close(tf);

    /* Without a kind: both figures of the sweep, into a folder. */
    char dir[600];
    path_in(dir, sizeof dir, outdir, "sweep_figs");
    r = run((const char *[]){"plot", sweep_file, "-o", dir, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    char fig[700];
    path_in(fig, sizeof fig, dir, "histogram.png");
    CU_ASSERT(is_png(fig, 5000));
    path_in(fig, sizeof fig, dir, "tornado.png");
    CU_ASSERT(is_png(fig, 5000));
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 2);
    dc_runner_free(&r);
    CU_ASSERT_EQUAL(dc_runner_count_entries(tmpdir), 0);
    empty_dir(outdir);
}

/* A scan of the step figure pools the replications of each point: its bar
 * is the mean of dcsim run's step.time_s at that point. */
static void test_step_scan(void)
{
    char hbm[400], data[600], out[600];
    snprintf(hbm, sizeof hbm, "%s/scenarios/teach/hbm_ddr.cfg", srcdir);
    path_in(data, sizeof data, outdir, "step_data");
    path_in(out, sizeof out, outdir, "step.svg");
    dc_runner_result r = run((const char *[]){"plot", "--kind", "step", "--scan", hbm, "--vary", "job.nodes=64,128", "--vary",
                                    "cluster.nodes=64,128", "--reps", "2", "--data", data, "-o", out, NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    CU_ASSERT(is_svg(out, 2000));
    char path[700];
    path_in(path, sizeof path, data, "step.csv");
    char *csv = dc_runner_slurp(path, NULL);
    /* Two bars (one per point, not per run), labelled by their GPUs. */
    size_t rows = 0;
    for (char *l = csv; (l = strchr(l, '\n')); l++)
        rows++;
    CU_ASSERT_EQUAL(rows, 3); /* the header and two points */
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "512 GPUs,"));
    CU_ASSERT_PTR_NOT_NULL(strstr(csv, "1024 GPUs,"));
    /* The step time of the 512-GPU bar is dcsim run's (the step model does
     * not depend on the seed; the bar is the mean over the two runs). */
    r = run((const char *[]){"run", hbm, "--set", "job.nodes=64", "--set", "cluster.nodes=64", "--no-trace", "--json",
                             NULL});
    double expect = NAN;
    CU_ASSERT((dc_test_json_number(r.out, "step.time_s", &expect) != NULL));
    dc_runner_free(&r);
    char *p = strstr(csv, "512 GPUs,");
    if (p) {
        /* The step time is the column after the parts: count them from the header. */
        const char *hdr_end = strchr(csv, '\n');
        size_t commas = 0;
        const char *tcol = strstr(csv, "step.time_s");
        for (const char *c = csv; tcol && c < tcol && c < hdr_end; c++)
            commas += *c == ',';
        const char *q = p;
        for (size_t i = 0; i < commas && q; i++)
            q = strchr(q, ',') ? strchr(q, ',') + 1 : NULL;
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        CU_ASSERT_DOUBLE_EQUAL(strtod(q, NULL), expect, 1e-8 * expect);
    }
    free(csv);
    empty_dir(outdir);
}

/* ---- setup ----------------------------------------------------------------------------- */

static int setup(void)
{
    dcsim_path = getenv("DCSIM");
    srcdir = getenv("DCSIM_SRCDIR");
    if (!dcsim_path || !srcdir) {
        fprintf(stderr, "set DCSIM (the dcsim binary) and DCSIM_SRCDIR (the source tree); make check does\n");
        return -1;
    }
    snprintf(workdir, sizeof workdir, "%s", "/tmp/dcsim-test-plot-XXXXXX");
    if (!mkdtemp(workdir))
        return -1;
    path_in(tmpdir, sizeof tmpdir, workdir, "tmp");
    path_in(outdir, sizeof outdir, workdir, "out");
    if (mkdir(tmpdir, 0755) != 0 || mkdir(outdir, 0755) != 0)
        return -1;
    return make_traces();
}

static void teardown(void)
{
    empty_dir(outdir);
    empty_dir(tmpdir);
    rmdir(outdir);
    rmdir(tmpdir);
    empty_dir(workdir);
    rmdir(workdir);
}

/* Without --kind: -o FILE.png draws the first figure the trace supports,
 * -o FILE.jpg is an error (no directory made); a sweep's figures default to
 * the first figure it printed and skip the tornado without uncertain
 * inputs; compare shows the headline figures that differ. */
static void test_plot_defaults(void)
{
    char first[600], jpg[600], data[600], setup[700], dir[600], nounc[600], cdata[600], main_csv[700], cfig[600];
    path_in(first, sizeof first, outdir, "first.png");
    dc_runner_result r = run((const char *[]){"plot", trace_small, "-o", first, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT(is_png(first, 5000));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no --kind: drawing timeline"));
    dc_runner_free(&r);
    path_in(jpg, sizeof jpg, outdir, "x.jpg");
    r = run((const char *[]){"plot", trace_small, "-o", jpg, NULL});
    CU_ASSERT_EQUAL(r.status, 2);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "neither a .png, .svg or .pdf figure nor a directory"));
    CU_ASSERT_NOT_EQUAL(access(jpg, F_OK), 0);
    dc_runner_free(&r);

    path_in(data, sizeof data, outdir, "default_metric");
    path_in(first, sizeof first, outdir, "sweep_default.png");
    r = run((const char *[]){"plot", sweep_file, "--kind", "histogram", "--data", data, "-o", first, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    dc_runner_free(&r);
    path_in(setup, sizeof setup, data, "setup.gp");
    char *text = dc_runner_slurp(setup, NULL);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, "metric = 'cost.total_usd'")); /* the sweep's first printed figure */
    free(text);

    path_in(nounc, sizeof nounc, workdir, "nounc.h5");
    r = run((const char *[]){"sweep", small_cfg, "--reps", "3", "-o", nounc, "--quiet", NULL});
    CU_ASSERT_EQUAL_FATAL(r.status, 0);
    dc_runner_free(&r);
    path_in(dir, sizeof dir, outdir, "nounc_figs");
    r = run((const char *[]){"plot", nounc, "-o", dir, NULL});
    CU_ASSERT_EQUAL(r.status, 0);
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "skipped tornado: file"));
    CU_ASSERT_PTR_NOT_NULL(strstr(r.err, "no uncertain input"));
    CU_ASSERT_EQUAL(dc_runner_count_entries(dir), 1);
    dc_runner_free(&r);
    r = run((const char *[]){"plot", nounc, "--kind", "tornado", "-o", first, NULL});
    CU_ASSERT_EQUAL(r.status, 2);
    dc_runner_free(&r);

    /* compare: identical runs show the first four figures; different runs
     * only figures whose values differ */
    const char *pairs[2][2] = {{trace_small, trace_small}, {trace_a, trace_b}};
    for (int p = 0; p < 2; p++) {
        snprintf(cdata, sizeof cdata, "%s/compare_data%d", outdir, p);
        snprintf(cfig, sizeof cfig, "%s/compare%d.png", outdir, p);
        r = run((const char *[]){"plot", "--kind", "compare", pairs[p][0], pairs[p][1], "--data", cdata, "-o", cfig,
                                 NULL});
        CU_ASSERT_EQUAL(r.status, 0);
        dc_runner_free(&r);
        path_in(main_csv, sizeof main_csv, cdata, "compare_main.csv");
        FILE *f = fopen(main_csv, "r");
        CU_ASSERT_PTR_NOT_NULL_FATAL(f);
        char line[512];
        int rows = 0, differ = 0;
        while (fgets(line, sizeof line, f)) {
            if (line[0] == '#')
                continue;
            char *c1 = strrchr(line, ','), *c0 = c1;
            while (c0 && c0 > line && *--c0 != ',')
                ;
            c0 = c0 && *c0 == ',' && c0 != c1 ? c0 : NULL;
            CU_ASSERT_PTR_NOT_NULL_FATAL(c0);
            double a = strtod(c0 + 1, NULL), b = strtod(c1 + 1, NULL);
            rows++;
            /* a figure one run lacks (a job that did not finish) differs too */
            differ += isnan(a) != isnan(b) || fabs(a - b) > 1e-3 * fmax(fabs(a), fabs(b));
            if (p == 0 && rows == 1)
                CU_ASSERT_EQUAL(strncmp(line, "ETTR,", 5), 0);
        }
        fclose(f);
        if (p == 0) {
            CU_ASSERT_EQUAL(rows, 4);
            CU_ASSERT_EQUAL(differ, 0);
        } else {
            CU_ASSERT(rows >= 1 && differ == rows);
        }
    }
}

static int suites(void)
{
    DC_TEST_SUITE("plot", {"every kind (every script) draws PNG, SVG and PDF", test_every_script_draws},
                  {"figures of runs without failures or interruptions", test_quiet_runs},
                  {"the waits figure's bars are the trace's waits by size", test_waits_data},
                  {"all the figures of a trace into a folder", test_folder_of_figures},
                  {"a scan draws the mean and 95% interval of dcsim run", test_scan_data},
                  {"a sweep's histogram marks its /stats P50 and P90; both sweep figures", test_sweep_figures},
                  {"a scan of the step figure: one bar per point, dcsim run's step time", test_step_scan},
                  {"defaults: -o FILE without --kind, a sweep's figure, tornado, compare", test_plot_defaults});
    DC_TEST_SUITE("export", {"CSV of each series equals the trace", test_export_series},
                  {"CSV of the events and the summary equal the trace", test_export_events_and_summary});
    DC_TEST_SUITE("compare", {"relative differences equal those of the traces", test_compare});
    DC_TEST_SUITE("bad input", {"message, status 2, no figure, no temporary", test_bad_inputs});
    return 0;
}

int main(void)
{
    if (setup() != 0) {
        teardown();
        return 1;
    }
    if (CU_initialize_registry() != CUE_SUCCESS || suites() != 0) {
        CU_cleanup_registry();
        teardown();
        return 1;
    }
    int rc = dc_test_run_all();
    teardown();
    return rc;
}
