/* dcsim report --html: one self-contained page of a run or a sweep, with its figures as inline SVG.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The page an analyst can mail: one HTML file with no network access and no
 * script (inline CSS, figures as inline SVG drawn by the same gnuplot
 * scripts as dcsim plot, into a temporary directory removed afterwards).
 *   a run:   what ran; the headline figures; where the GPU-hours went (with
 *            bars); the interruptions by cause; every figure the trace
 *            supports; the whole summary with units and meanings;
 *   a sweep: what ran (command, grid, replications); per grid point the
 *            statistics of the figures the sweep printed; the risk table
 *            (probability of missing the deadline with its interval, value
 *            at risk and its conditional mean); the histogram and, with
 *            uncertain inputs, the tornado.
 * Written by the rules of sim/outfile.h (a temporary name renamed when
 * complete; never over the trace it reads). */
#include "cli.h"
#include "plotcli.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "interrupt.h"
#include "outfile.h"
#include "plot.h"
#include "summary.h"
#include "table.h"
#include "trace_read.h"

static void esc(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* As the summary's text table: integers and large values whole, else 4 digits. */
static void num(FILE *f, double v)
{
    if (isnan(v))
        fputs("&ndash;", f);
    else if (isinf(v))
        fputs(v > 0 ? "&infin;" : "&minus;&infin;", f);
    else if (v == 0.0)
        fputs("0", f);
    else if (fabs(v) < 1e15 && (v == floor(v) || fabs(v) >= 1000.0))
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.4g", v);
}

static const char style[] =
    "body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;color:#222;max-width:1150px;margin:2em auto;"
    "padding:0 1em;line-height:1.4}\n"
    "h1{font-size:1.5em}h2{font-size:1.2em;margin-top:2em;border-bottom:1px solid #ccc}\n"
    "table{border-collapse:collapse;margin:0.5em 0}td,th{padding:2px 10px;text-align:left;vertical-align:top}\n"
    "td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}tr:nth-child(even){background:#f4f4f4}\n"
    ".bar{display:inline-block;height:0.8em;background:#0072b2}\n"
    "figure{margin:1.5em 0}figure svg{max-width:100%;height:auto}figcaption{color:#555;font-size:0.9em}\n"
    ".meta{color:#555}\n";

static void head(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    esc(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    esc(f, title);
    fputs("</h1>\n", f);
}

/* The SVG of file path without its XML prolog, inline. */
static int inline_svg(FILE *f, const char *path, dc_error *err)
{
    size_t len = 0;
    FILE *in = fopen(path, "rb");
    if (!in)
        return dc_error_set(err, DC_EIO, "cannot read figure '%s': %s", path, strerror(errno));
    char *buf = NULL;
    size_t cap = 0;
    for (;;) {
        if (len + 65536 > cap) {
            char *p = realloc(buf, cap = cap ? 2 * cap : 262144);
            if (!p) {
                free(buf);
                fclose(in);
                return dc_error_set(err, DC_ENOMEM, "out of memory");
            }
            buf = p;
        }
        size_t got = fread(buf + len, 1, cap - len - 1, in);
        len += got;
        if (got == 0)
            break;
    }
    fclose(in);
    buf[len] = '\0';
    const char *svg = strstr(buf, "<svg");
    if (svg)
        fputs(svg, f);
    free(buf);
    return svg ? DC_OK : dc_error_set(err, DC_EINPUT, "figure '%s' is not an SVG", path);
}

/* Draws kind k of the runs into dir/KIND.svg and inlines it with its caption. */
static int figure(FILE *f, const dc_plot_kind *k, const dc_plot_run *run, const char *dir, const char *plots,
                  dc_error *err)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s.svg", dir, k->name);
    dc_plot_opts o = {.output = path, .gnuplot = dc_cli_gnuplot(), .script_dir = plots, .tmp_dir = dir};
    int rc = dc_cli_draw(k, run, 1, &o, err);
    if (rc != DC_OK)
        return rc;
    fputs("<figure>\n", f);
    rc = inline_svg(f, path, err);
    fputs("\n<figcaption>", f);
    esc(f, k->name);
    fputs(": ", f);
    esc(f, k->what);
    fputs("</figcaption>\n</figure>\n", f);
    unlink(path);
    return rc;
}

static int figures(FILE *f, const dc_plot_run *run, bool sweep, const char *dir, dc_error *err)
{
    char *plots = dc_cli_plot_dir();
    if (!plots)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    fputs("<h2>Figures</h2>\n", f);
    int rc = DC_OK;
    for (size_t i = 0; i < dc_plot_kind_count && rc == DC_OK; i++) {
        const dc_plot_kind *k = &dc_plot_kinds[i];
        if (sweep ? k->input != DC_PLOT_SWEEP : k->input != DC_PLOT_ONE && k->input != DC_PLOT_SOME)
            continue;
        dc_error why = {0};
        if (dc_plot_check(k, run, 1, &why) != DC_OK) {
            fputs("<p class=\"meta\">Not drawn: ", f);
            esc(f, why.msg);
            fputs("</p>\n", f);
            continue;
        }
        rc = figure(f, k, run, dir, plots, err);
    }
    free(plots);
    return rc;
}

/* ---- a run ---------------------------------------------------------------------- */

static void table_of_prefix(FILE *f, const dc_summary *s, const char *prefix, const char *total_key,
                            const char *what, bool sort)
{
    size_t plen = strlen(prefix), n = dc_summary_count(s), *idx = malloc((n + 1) * sizeof *idx), m = 0;
    if (!idx)
        return;
    double total = NAN;
    if (total_key)
        dc_summary_get(s, total_key, &total);
    double sum = 0.0;
    for (size_t i = 0; i < n; i++) {
        const char *k = dc_summary_key(s, i);
        if (strncmp(k, prefix, plen) == 0 && (!total_key || strcmp(k, total_key) != 0)) {
            idx[m++] = i;
            if (isfinite(dc_summary_value(s, i)))
                sum += dc_summary_value(s, i);
        }
    }
    if (!total_key)
        total = sum;
    for (size_t a = 1; sort && a < m; a++)
        for (size_t b = a; b > 0 && dc_summary_value(s, idx[b]) > dc_summary_value(s, idx[b - 1]); b--) {
            size_t t = idx[b];
            idx[b] = idx[b - 1];
            idx[b - 1] = t;
        }
    if (m == 0) {
        free(idx);
        return;
    }
    fprintf(f, "<table>\n<tr><th>%s</th><th class=\"n\">value</th><th class=\"n\">share</th><th></th></tr>\n", what);
    for (size_t j = 0; j < m; j++) {
        double v = dc_summary_value(s, idx[j]);
        double share = total > 0 && isfinite(v) ? v / total : 0.0;
        fputs("<tr><td>", f);
        esc(f, dc_summary_key(s, idx[j]) + plen);
        fputs("</td><td class=\"n\">", f);
        num(f, v);
        fprintf(f, "</td><td class=\"n\">%.1f%%</td><td><span class=\"bar\" style=\"width:%.0fpx\"></span></td></tr>\n",
                100.0 * share, 300.0 * share);
    }
    fputs("<tr><th>total</th><th class=\"n\">", f);
    num(f, total);
    fputs("</th><th class=\"n\">100.0%</th><th></th></tr>\n</table>\n", f);
    free(idx);
}

static const char *const headline[] = {
    "job.gpus", "job.ettr", "job.completion_days", "job.ideal_days", "job.interruptions", "step.mfu",
    "step.ettr_time", "power.pue", "power.facility_energy_kwh", "power.energy_cost_usd", "cost.tco_usd",
    "cost.usd_per_useful_gpu_h", "inference.slo_attainment", "inference.qps_served", NULL,
};

static int run_page(FILE *f, const char *path, const char *dir, dc_error *err)
{
    dc_cli_run r;
    int rc = dc_cli_run_open(path, &r, err);
    if (rc != DC_OK)
        return rc;
    char *version = NULL, *file = NULL, *started = NULL;
    double horizon_s = NAN;
    dc_error ignored = {0};
    dc_trace_attr_string(r.trace, "dcsim_version", &version, &ignored);
    dc_trace_attr_string(r.trace, "scenario_file", &file, &ignored);
    dc_trace_attr_string(r.trace, "started_at", &started, &ignored);
    dc_trace_attr_double(r.trace, "horizon_s", &horizon_s, &ignored);
    char title[512];
    snprintf(title, sizeof title, "dcsim report: %s (seed %llu)", r.scenario, (unsigned long long)r.run.seed);
    head(f, title);
    fputs("<p class=\"meta\">Trace <code>", f);
    esc(f, path);
    fputs("</code>: scenario <code>", f);
    esc(f, file ? file : "?");
    fprintf(f, "</code>, seed %llu, %.1f of %.0f days simulated, dcsim ", (unsigned long long)r.run.seed,
            r.run.end_s / 86400.0, horizon_s / 86400.0);
    esc(f, version ? version : "?");
    fputs(", run started ", f);
    esc(f, started ? started : "?");
    fputs(".</p>\n<h2>Headline figures</h2>\n<table>\n", f);
    const dc_summary *s = r.summary;
    for (size_t i = 0; headline[i]; i++)
        for (size_t j = 0; j < dc_summary_count(s); j++)
            if (strcmp(dc_summary_key(s, j), headline[i]) == 0) {
                fputs("<tr><td>", f);
                esc(f, dc_summary_doc(s, j) && dc_summary_doc(s, j)[0] ? dc_summary_doc(s, j) : headline[i]);
                fputs(" (<code>", f);
                esc(f, headline[i]);
                fputs("</code>)</td><td class=\"n\">", f);
                num(f, dc_summary_value(s, j));
                fputs("</td><td>", f);
                esc(f, dc_summary_unit(s, j));
                fputs("</td></tr>\n", f);
            }
    fputs("</table>\n<h2>Where the GPU-hours went</h2>\n", f);
    table_of_prefix(f, s, "gpu_hours.", "gpu_hours.capacity", "line (GPU-h)", false);
    fputs("<h2>Interruptions by cause</h2>\n", f);
    table_of_prefix(f, s, "interruptions.", NULL, "cause", true);
    rc = figures(f, &r.run, false, dir, err);
    if (rc == DC_OK) {
        fputs("<h2>Every figure of the summary</h2>\n<table>\n<tr><th>figure</th><th class=\"n\">value</th>"
              "<th>unit</th><th>meaning</th></tr>\n", f);
        for (size_t j = 0; j < dc_summary_count(s); j++) {
            fputs("<tr><td><code>", f);
            esc(f, dc_summary_key(s, j));
            fputs("</code></td><td class=\"n\">", f);
            num(f, dc_summary_value(s, j));
            fputs("</td><td>", f);
            esc(f, dc_summary_unit(s, j));
            fputs("</td><td>", f);
            esc(f, dc_summary_doc(s, j));
            fputs("</td></tr>\n", f);
        }
        fputs("</table>\n", f);
    }
    free(version);
    free(file);
    free(started);
    dc_cli_run_close(&r);
    return rc;
}

/* ---- a sweep -------------------------------------------------------------------- */

static double cell(const dc_table *t, size_t r, size_t c)
{
    switch (dc_table_column_type(t, c)) {
    case DC_COL_REAL: return dc_table_real(t, r, c);
    case DC_COL_INT: return (double)dc_table_int(t, r, c);
    default: return NAN;
    }
}

static long col(const dc_table *t, const char *name)
{
    for (size_t c = 0; c < dc_table_columns(t); c++)
        if (strcmp(dc_table_column_name(t, c), name) == 0)
            return (long)c;
    return -1;
}

/* A whole table, or its rows whose column "figure" is in the comma list keep. */
static void html_table(FILE *f, const dc_table *t, const char *keep)
{
    long cf = col(t, "figure");
    fputs("<table>\n<tr>", f);
    for (size_t c = 0; c < dc_table_columns(t); c++) {
        fprintf(f, "<th%s>", dc_table_column_type(t, c) == DC_COL_TEXT ? "" : " class=\"n\"");
        esc(f, dc_table_column_name(t, c));
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
    for (size_t r = 0; r < dc_table_rows(t); r++) {
        if (keep && cf >= 0) {
            const char *fig = dc_table_text(t, r, (size_t)cf);
            size_t len = strlen(fig);
            bool in = false;
            for (const char *p = keep; *p && !in; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 1 : 0))
                in = strncmp(p, fig, len) == 0 && (p[len] == ',' || p[len] == '\0');
            if (!in)
                continue;
        }
        fputs("<tr>", f);
        for (size_t c = 0; c < dc_table_columns(t); c++) {
            if (dc_table_column_type(t, c) == DC_COL_TEXT) {
                fputs("<td>", f);
                esc(f, dc_table_text(t, r, c));
            } else {
                fputs("<td class=\"n\">", f);
                num(f, cell(t, r, c));
            }
            fputs("</td>", f);
        }
        fputs("</tr>\n", f);
    }
    fputs("</table>\n", f);
}

static int section_table(FILE *f, dc_trace_file *tf, const char *path, const char *title, const char *intro,
                         const char *keep, dc_error *err)
{
    dc_table *t = dc_table_create();
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    int rc = dc_trace_read_table(tf, path, t, err);
    if (rc == DC_OK) {
        fprintf(f, "<h2>%s</h2>\n<p>%s</p>\n", title, intro);
        html_table(f, t, keep);
    }
    dc_table_destroy(t);
    return rc;
}

static int sweep_page(FILE *f, const char *path, const char *dir, dc_error *err)
{
    dc_trace_file *tf = dc_trace_open(path, err);
    if (!tf)
        return err->code;
    char *command = NULL, *file = NULL, *metrics = NULL, *version = NULL;
    uint64_t reps = 0, points = 0, seed = 0;
    dc_error ignored = {0};
    dc_trace_attr_string(tf, "command", &command, &ignored);
    dc_trace_attr_string(tf, "scenario_file", &file, &ignored);
    dc_trace_attr_string(tf, "metrics", &metrics, &ignored);
    dc_trace_attr_string(tf, "dcsim_version", &version, &ignored);
    dc_trace_attr_uint64(tf, "reps", &reps, &ignored);
    dc_trace_attr_uint64(tf, "grid_points", &points, &ignored);
    dc_trace_attr_uint64(tf, "seed", &seed, &ignored);
    char title[512];
    snprintf(title, sizeof title, "dcsim sweep report: %s", file ? file : path);
    head(f, title);
    fputs("<p class=\"meta\">Sweep file <code>", f);
    esc(f, path);
    fprintf(f, "</code>: %llu grid point%s x %llu replications, seeds from %llu, dcsim ", (unsigned long long)points,
            points == 1 ? "" : "s", (unsigned long long)reps, (unsigned long long)seed);
    esc(f, version ? version : "?");
    fputs(".<br>Command: <code>", f);
    esc(f, command ? command : "?");
    fputs("</code></p>\n", f);
    int rc = section_table(f, tf, "/params", "The grid", "One row per grid point: the values of the keys varied.",
                           NULL, err);
    if (rc == DC_OK)
        rc = section_table(f, tf, "/stats", "Statistics per grid point",
                           "Of the figures the sweep printed: mean, standard deviation, 95% confidence interval of "
                           "the mean (Student t) and percentiles over the replications.",
                           metrics && metrics[0] ? metrics : NULL, err);
    if (rc == DC_OK)
        rc = section_table(f, tf, "/risk", "Risk",
                           "Per grid point: replications that missed the deadline (or did not finish), the "
                           "probability with its Wilson 95% interval, the value at risk of the cost figure at the "
                           "sweep's level and the conditional value at risk (the mean beyond it).",
                           NULL, err);
    if (rc == DC_OK) {
        dc_cli_run r = {0};
        r.run = (dc_plot_run){.label = path, .trace = tf, .seed = seed};
        char *text = NULL;
        dc_trace_attr_string(tf, "scenario", &text, &ignored);
        r.run.scenario_text = text;
        char *name = dc_plot_scenario_name(text, file);
        r.run.scenario = name ? name : "sweep";
        dc_summary *empty = dc_summary_create();
        r.run.summary = empty;
        rc = empty ? figures(f, &r.run, true, dir, err) : dc_error_set(err, DC_ENOMEM, "out of memory");
        dc_summary_destroy(empty);
        free(name);
        free(text);
    }
    free(command);
    free(file);
    free(metrics);
    free(version);
    dc_trace_close(tf);
    return rc;
}

typedef struct page_ctx {
    const char *trace, *output, *dir;
} page_ctx;

static int write_page(dc_outfile *out, void *ctx, dc_error *err)
{
    const page_ctx *c = ctx;
    FILE *f = dc_outfile_stream(out);
    if (!f)
        return dc_error_set(err, DC_EIO, "cannot write '%s'", c->output);
    int rc = dc_cli_is_sweep(c->trace) ? sweep_page(f, c->trace, c->dir, err) : run_page(f, c->trace, c->dir, err);
    fputs("<p class=\"meta\">Made by dcsim " PACKAGE_VERSION " (dcsim report --html).</p>\n</body>\n</html>\n", f);
    return rc;
}

int dc_cli_report_html(const char *trace, const char *output, dc_error *err)
{
    /* the page must not replace the trace it reads (sim/outfile.h) */
    const char *inputs[] = {trace};
    int rc = dc_outfile_check(output, "report", inputs, 1, err);
    if (rc != DC_OK)
        return rc;
    /* A signal stops the page: the figure being drawn (gnuplot killed), the
     * page not written; a second kills dcsim with the directory of figures,
     * the figure's own temporary files, gnuplot and the page's temporary
     * file gone first (cli/interrupt.h).  The directory is made and told
     * with the signals held, so that none falls between. */
    dc_cli_catch_signals();
    const char *tmpdir = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/dcsim_html.XXXXXX", tmpdir && tmpdir[0] ? tmpdir : "/tmp");
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    bool made = mkdtemp(dir) != NULL;
    int e = errno;
    if (made)
        dc_cli_interrupt_temp(dir, true, true);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!made)
        rc = dc_error_set(err, DC_EIO, "cannot create a temporary directory in '%s': %s",
                          tmpdir && tmpdir[0] ? tmpdir : "/tmp", strerror(e));
    else
        rc = dc_cli_write_guarded(output, "report", write_page, &(page_ctx){trace, output, dir}, err);
    if (made) {
        rmdir(dir);
        dc_cli_interrupt_temp(dir, true, false);
    }
    return rc;
}
