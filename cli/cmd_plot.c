/* dcsim plot: figures of traces, sweeps and scans with gnuplot.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim plot: figures from traces with gnuplot (analysis/plot.h).
 *
 * One trace and a kind draws that figure; one trace and no kind draws every
 * figure of one trace that the trace supports into a folder; several traces
 * (or --scan, which runs the scenario for each value of --vary and each
 * replication, in this process and without traces) draw a figure of runs:
 * checkpoint, scale, compare.  Replication r of a scan runs with seed
 * base + r (base: --seed, else the scenario's seed), so every point of the
 * scan sees the same random streams (common random numbers). */
#include "cli.h"
#include "plotcli.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "interrupt.h"
#include "registry.h"
#include "sim.h"
#include "trace_read.h"

enum { O_FORMAT = 256, O_DATA, O_SCAN, O_VARY, O_REPS, O_SEED, O_SET, O_LIST, O_METRIC };

static const dc_cli_opt plot_opts[] = {
    {"kind", 'k', "KIND", 0, "the figure (--list shows the kinds); without it, every figure the trace supports"},
    {"output", 'o', "FILE|DIR", 0, "the figure's file (.png, .svg or .pdf), or the directory of the figures"},
    {"format", O_FORMAT, "png|svg|pdf", 0, "the format of figures named by dcsim (default png)"},
    {"data", O_DATA, "DIR", 0, "keep the figure's data files, setup.gp and plot.sh (which redraws it) in DIR"},
    {"metric", O_METRIC, "FIGURE", 0, "for a sweep: the figure of the histogram or tornado (default: the first "
                                      "of its /stats)"},
    {"scan", O_SCAN, "FILE|NAME", 0, "run the scenario for each value of --vary (and each --reps) instead of "
                                     "reading traces"},
    {"vary", O_VARY, "KEY=V1,V2,...", DC_CLI_REPEAT, "with --scan: the values of one key (several --vary change "
                                                      "together)"},
    {"reps", O_REPS, "N", 0, "with --scan: replications per value, seeds S, S+1, ... (default 1)"},
    {"seed", O_SEED, "S", 0, "with --scan: the first seed (default: the scenario's)"},
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "with --scan: override one key in every run"},
    {"list", O_LIST, NULL, 0, "list the kinds of figure, what they show and need"},
    {0},
};

static const dc_cli_cmd plot_cmd = {
    .name = "plot",
    .operands = "TRACE.h5 [--kind KIND] [-o FILE|DIR]\n"
                "--kind KIND TRACE.h5 TRACE.h5... [-o FILE]\n"
                "--kind KIND --scan FILE.cfg --vary KEY=V1,V2,... [--reps N]\n"
                "SWEEP.h5 [--kind histogram|tornado] [--metric FIGURE] [-o FILE|DIR]\n"
                "--list",
    .doc = "Draws figures from traces with gnuplot.  With --kind: that figure (default file: the trace's\n"
           "name and the kind, beside the trace, PNG).  Without: every figure the trace supports, into DIR\n"
           "(default: TRACE_figures beside the trace); -o FILE.png|.svg|.pdf without --kind draws the\n"
           "first figure the trace supports (a sweep: the histogram of its first figure) into FILE.\n"
           "The figures of several runs (checkpoint, scale, compare, scaling, mttf) take several traces, or\n"
           "--scan.  Figures of runs side by side (step, cost, latency) take one trace, several, or --scan.\n"
           "A sweep file (dcsim sweep) draws histogram and tornado (the tornado needs uncertain inputs: without\n"
           "them it is skipped with a note); their default figure is the first the sweep printed.\n",
    .opts = plot_opts,
    .after = "Environment:\n"
             "  DCSIM_GNUPLOT  the gnuplot program (default: the one configure found)\n"
             "  DCSIM_PLOTS    the directory of the gnuplot scripts (default: the installed plots/)\n",
};

#define MAX_SETS 256
#define MAX_VARY 8

/* ---- shared with export and compare ------------------------------------------------ */

/* The base name of path without the extension ext. */
static char *strip_ext(const char *path, const char *ext)
{
    const char *slash = strrchr(path, '/');
    const char *b = slash ? slash + 1 : path;
    size_t len = strlen(b), elen = strlen(ext);
    if (len > elen && strcmp(b + len - elen, ext) == 0)
        len -= elen;
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, b, len);
        s[len] = '\0';
    }
    return s;
}

int dc_cli_run_open(const char *path, dc_cli_run *r, dc_error *err)
{
    memset(r, 0, sizeof *r);
    r->trace = dc_trace_open(path, err);
    if (!r->trace)
        return err->code;
    char *file = NULL;
    uint64_t seed = 0;
    double end_s = 0;
    int rc = DC_OK;
    if (!(r->summary = dc_summary_create()) || !(r->label = strip_ext(path, ".h5")))
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    if (rc == DC_OK)
        rc = dc_trace_read_summary(r->trace, r->summary, err);
    if (rc == DC_OK)
        rc = dc_trace_attr_uint64(r->trace, "seed", &seed, err);
    if (rc == DC_OK)
        rc = dc_trace_attr_double(r->trace, "end_s", &end_s, err);
    if (rc == DC_OK) {
        /* The scenario is only for titles and model inputs: optional. */
        dc_error ignored = {0};
        dc_trace_attr_string(r->trace, "scenario", &r->text, &ignored);
        dc_trace_attr_string(r->trace, "scenario_file", &file, &ignored);
        r->scenario = dc_plot_scenario_name(r->text, file);
        free(file);
        if (!r->scenario)
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    if (rc != DC_OK) {
        dc_cli_run_close(r);
        return rc;
    }
    r->run = (dc_plot_run){
        .label = r->label,
        .trace = r->trace,
        .summary = r->summary,
        .scenario = r->scenario,
        .scenario_text = r->text,
        .seed = seed,
        .end_s = end_s,
    };
    return DC_OK;
}

bool dc_cli_is_sweep(const char *path)
{
    dc_error ignored = {0};
    dc_trace_file *t = dc_trace_open(path, &ignored);
    char *kind = NULL;
    bool sweep = t && dc_trace_attr_string(t, "kind", &kind, &ignored) == DC_OK && strcmp(kind, "sweep") == 0;
    free(kind);
    dc_trace_close(t);
    return sweep;
}

/* A sweep file as a run: no summary; its tables are read by the kinds. */
static int sweep_open(const char *path, dc_cli_run *r, dc_error *err)
{
    memset(r, 0, sizeof *r);
    r->trace = dc_trace_open(path, err);
    if (!r->trace)
        return err->code;
    char *file = NULL;
    uint64_t seed = 0;
    dc_error ignored = {0};
    dc_trace_attr_uint64(r->trace, "seed", &seed, &ignored);
    dc_trace_attr_string(r->trace, "scenario", &r->text, &ignored);
    dc_trace_attr_string(r->trace, "scenario_file", &file, &ignored);
    r->scenario = dc_plot_scenario_name(r->text, file);
    free(file);
    if (!(r->summary = dc_summary_create()) || !(r->label = strip_ext(path, ".h5")) || !r->scenario) {
        dc_cli_run_close(r);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    r->run = (dc_plot_run){
        .label = r->label, .trace = r->trace, .summary = r->summary, .scenario = r->scenario,
        .scenario_text = r->text, .seed = seed,
    };
    return DC_OK;
}

void dc_cli_run_close(dc_cli_run *r)
{
    dc_trace_close(r->trace);
    dc_summary_destroy(r->summary);
    free(r->label);
    free(r->scenario);
    free(r->text);
    memset(r, 0, sizeof *r);
}

void dc_cli_run_label(dc_cli_run *runs, size_t n, const char *const *paths)
{
    bool clash = false;
    for (size_t i = 0; i < n && !clash; i++)
        for (size_t j = i + 1; j < n && !clash; j++)
            clash = strcmp(runs[i].label, runs[j].label) == 0;
    if (!clash)
        return;
    for (size_t i = 0; i < n; i++) {
        char *l = strdup(paths[i]);
        if (!l)
            continue;
        size_t len = strlen(l);
        if (len > 3 && strcmp(l + len - 3, ".h5") == 0)
            l[len - 3] = '\0';
        free(runs[i].label);
        runs[i].label = l;
        runs[i].run.label = l;
    }
}

const char *dc_cli_gnuplot(void)
{
    const char *g = getenv("DCSIM_GNUPLOT");
    return g && g[0] ? g : DC_GNUPLOT;
}

int dc_cli_draw(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_opts *o, dc_error *err)
{
    bool had = dc_cli_signals_caught();
    if (!had)
        dc_cli_catch_signals();
    o->cancel = dc_cli_interrupt_flag();
    o->guard = dc_cli_plot_guard();
    int rc = dc_plot_render(k, runs, n, o, err);
    if (!had)
        dc_cli_default_signals();
    return rc;
}

/* ---- options ----------------------------------------------------------------------- */

typedef struct vary {
    char *key;
    char **values;
    size_t n;
} vary;

typedef struct plot_args {
    const char *kind, *output, *format, *data, *scan, *metric;
    const char *sets[MAX_SETS];
    size_t n_sets;
    vary vary[MAX_VARY];
    size_t n_vary;
    long reps;
    int64_t seed;
    bool list;
    char **traces;
    size_t n_traces;
} plot_args;

static void vary_free(vary *v)
{
    free(v->key);
    for (size_t i = 0; i < v->n; i++)
        free(v->values[i]);
    free(v->values);
}

static int parse_vary(const char *text, vary *v, dc_error *err)
{
    const char *eq = strchr(text, '=');
    if (!eq || eq == text || !eq[1])
        return dc_error_set(err, DC_EINPUT, "--vary '%s': expected KEY=V1,V2,...", text);
    memset(v, 0, sizeof *v);
    v->key = strndup(text, (size_t)(eq - text));
    size_t commas = 0;
    for (const char *p = eq + 1; *p; p++)
        commas += *p == ',';
    v->values = calloc(commas + 1, sizeof *v->values);
    if (!v->key || !v->values) {
        vary_free(v);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    const char *p = eq + 1;
    for (;;) {
        size_t len = strcspn(p, ",");
        if (len == 0) {
            vary_free(v);
            return dc_error_set(err, DC_EINPUT, "--vary '%s': an empty value", text);
        }
        v->values[v->n++] = strndup(p, len);
        if (!v->values[v->n - 1]) {
            vary_free(v);
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        }
        if (!p[len])
            break;
        p += len + 1;
    }
    return DC_OK;
}

static int parse_long(const char *opt, const char *text, long min, long max, long *out, dc_error *err)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max)
        return dc_error_set(err, DC_EINPUT, "%s: expected an integer from %ld to %ld (got '%s')", opt, min, max,
                            text);
    *out = v;
    return DC_OK;
}

static int plot_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    plot_args *a = ctx;
    long v;
    switch (key) {
    case 'k':
        a->kind = arg;
        return DC_OK;
    case 'o':
        a->output = arg;
        return DC_OK;
    case O_FORMAT:
        if (strcmp(arg, "png") && strcmp(arg, "svg") && strcmp(arg, "pdf"))
            return dc_error_set(err, DC_EINPUT, "--format: png, svg or pdf (got '%s')", arg);
        a->format = arg;
        return DC_OK;
    case O_DATA:
        a->data = arg;
        return DC_OK;
    case O_METRIC:
        a->metric = arg;
        return DC_OK;
    case O_SCAN:
        a->scan = arg;
        return DC_OK;
    case O_VARY:
        if (a->n_vary == MAX_VARY)
            return dc_error_set(err, DC_EINPUT, "--vary: at most %d keys", MAX_VARY);
        if (parse_vary(arg, &a->vary[a->n_vary], err) != DC_OK)
            return err->code;
        a->n_vary++;
        return DC_OK;
    case O_REPS:
        return parse_long("--reps", arg, 1, 100000, &a->reps, err);
    case O_SEED:
        if (parse_long("--seed", arg, 0, LONG_MAX, &v, err) != DC_OK)
            return err->code;
        a->seed = v;
        return DC_OK;
    case O_SET:
        return dc_cli_push(a->sets, &a->n_sets, MAX_SETS, arg, "--set", "overrides", err);
    case O_LIST:
        a->list = true;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINTERNAL, "plot: option %d not handled", key);
}

/* ---- output names ---------------------------------------------------------------------- */

static bool is_dir(const char *path)
{
    struct stat st;
    size_t len = strlen(path);
    return (len > 0 && path[len - 1] == '/') || (stat(path, &st) == 0 && S_ISDIR(st.st_mode));
}

/* DIR/BASE_KIND.EXT, DIR the directory of near (or "." for none). */
static char *name_beside(const char *near, const char *base, const char *kind, const char *ext)
{
    const char *slash = near ? strrchr(near, '/') : NULL;
    int dlen = slash ? (int)(slash - near) + 1 : 0;
    size_t len = (size_t)dlen + strlen(base) + strlen(kind) + strlen(ext) + 4;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%.*s%s%s%s.%s", dlen, near ? near : "", base, kind[0] ? "_" : "", kind, ext);
    return s;
}

static char *name_in(const char *dir, const char *file, const char *ext)
{
    size_t len = strlen(dir) + strlen(file) + strlen(ext) + 3;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s%s.%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", file, ext);
    return s;
}

/* DC_EIO unless the directory of path exists and is writable. */
static int check_dir_of(const char *path, dc_error *err)
{
    const char *slash = strrchr(path, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) + 1 : 1, slash ? path : ".");
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return dc_error_set(err, DC_EIO, "cannot write figure '%s': directory '%s' does not exist", path, dir);
    if (access(dir, W_OK) != 0)
        return dc_error_set(err, DC_EIO, "cannot write figure '%s': %s", path, strerror(errno));
    return DC_OK;
}

/* ---- listing ---------------------------------------------------------------------------- */

static void list_kinds(void)
{
    printf("%-14s %-10s %s\n", "kind", "input", "what it shows / datasets it needs");
    for (size_t i = 0; i < dc_plot_kind_count; i++) {
        const dc_plot_kind *k = &dc_plot_kinds[i];
        static const char *const inputs[] = {"one trace", "runs", "either", "sweep"};
        printf("%-14s %-10s %s\n", k->name, inputs[k->input], k->what);
        printf("%-14s %-10s needs", "", "");
        for (size_t j = 0; j < DC_PLOT_MAX_NEEDS && k->needs[j]; j++)
            printf(" %s", k->needs[j]);
        printf("; script plots/%s\n", k->script);
    }
}

/* ---- scans ------------------------------------------------------------------------------- */

typedef struct scan_run {
    dc_summary *summary;
    char *text, *label, *scenario, *group;
} scan_run;

static int copy_summary(const dc_summary *from, dc_summary **to)
{
    dc_summary *s = dc_summary_create();
    if (!s)
        return DC_ENOMEM;
    for (size_t i = 0; i < dc_summary_count(from); i++)
        if (dc_summary_set(s, dc_summary_key(from, i), dc_summary_value(from, i), dc_summary_unit(from, i),
                           dc_summary_doc(from, i)) != DC_OK) {
            dc_summary_destroy(s);
            return DC_ENOMEM;
        }
    *to = s;
    return DC_OK;
}

/* Runs the scan: points x replications, in this order. */
static int run_scan(const plot_args *a, scan_run **out, dc_plot_run **out_runs, size_t *out_n, dc_error *err)
{
    if (a->n_vary == 0)
        return dc_error_set(err, DC_EINPUT, "--scan needs --vary KEY=V1,V2,...");
    size_t points = a->vary[0].n;
    for (size_t v = 1; v < a->n_vary; v++)
        if (a->vary[v].n != points)
            return dc_error_set(err, DC_EINPUT,
                                "--vary %s has %zu values but --vary %s has %zu; keys that vary together need "
                                "as many values",
                                a->vary[0].key, points, a->vary[v].key, a->vary[v].n);
    size_t total = points * (size_t)a->reps;
    scan_run *sr = calloc(total, sizeof *sr);
    dc_plot_run *runs = calloc(total, sizeof *runs);
    if (!sr || !runs) {
        free(sr);
        free(runs);
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    *out = sr;
    *out_runs = runs;
    *out_n = 0;
    const char *sets[MAX_SETS + MAX_VARY + 1];
    char assign[MAX_VARY][512];
    int64_t base = a->seed;
    for (size_t p = 0; p < points; p++) {
        size_t ns = 0;
        sets[ns++] = "trace.events=false"; /* nothing reads them: faster */
        for (size_t i = 0; i < a->n_sets; i++)
            sets[ns++] = a->sets[i];
        char label[MAX_VARY * sizeof assign[0] + 1] = ""; /* room for every assignment and its space */
        for (size_t v = 0; v < a->n_vary; v++) {
            snprintf(assign[v], sizeof assign[v], "%s=%s", a->vary[v].key, a->vary[v].values[p]);
            sets[ns++] = assign[v];
            size_t l = strlen(label);
            snprintf(label + l, sizeof label - l, "%s%s", v ? " " : "", assign[v]);
        }
        for (long r = 0; r < a->reps; r++) {
            dc_scenario *sc = NULL;
            char *name = NULL;
            dc_sim *sim = NULL;
            int rc = dc_cli_load(a->scan, sets, ns, &sc, &name, err);
            if (rc == DC_OK)
                rc = dc_build(sc, base < 0 ? -1 : base + r, &sim, err);
            if (rc == DC_OK && base < 0)
                base = (int64_t)dc_sim_seed(sim); /* the scenario's seed, for the next replications */
            if (rc == DC_OK)
                rc = dc_sim_run(sim, err);
            scan_run *s = &sr[*out_n];
            if (rc == DC_OK) {
                char full[1100];
                if (a->reps > 1)
                    snprintf(full, sizeof full, "%s seed %" PRIu64, label, dc_sim_seed(sim));
                else
                    snprintf(full, sizeof full, "%s", label);
                if (copy_summary(dc_sim_summary(sim), &s->summary) != DC_OK || !(s->text = dc_scenario_text(sc)) ||
                    !(s->label = strdup(full)) || !(s->group = strdup(label)))
                    rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                s->scenario = name;
                name = NULL;
            }
            if (rc == DC_OK)
                runs[*out_n] = (dc_plot_run){
                    .label = s->label,
                    .summary = s->summary,
                    .scenario = s->scenario,
                    .scenario_text = s->text,
                    .seed = dc_sim_seed(sim),
                    .end_s = dc_sim_now(sim),
                    .group = s->group,
                };
            (*out_n)++;
            free(name);
            dc_sim_destroy(sim);
            dc_scenario_destroy(sc);
            if (rc != DC_OK)
                return rc;
        }
    }
    return DC_OK;
}

static void free_scan(scan_run *sr, size_t n)
{
    for (size_t i = 0; sr && i < n; i++) {
        dc_summary_destroy(sr[i].summary);
        free(sr[i].text);
        free(sr[i].label);
        free(sr[i].scenario);
        free(sr[i].group);
    }
    free(sr);
}

/* ---- the command ------------------------------------------------------------------------- */

/* The figure drawn without --kind into one file: a sweep's histogram, else
 * the first kind of one trace that the trace supports. */
static const dc_plot_kind *default_kind(const char *path, dc_error *err)
{
    if (dc_cli_is_sweep(path))
        return dc_plot_kind_find("histogram");
    dc_cli_run r;
    if (dc_cli_run_open(path, &r, err) != DC_OK)
        return NULL;
    const dc_plot_kind *found = NULL;
    for (size_t i = 0; i < dc_plot_kind_count && !found; i++) {
        const dc_plot_kind *k = &dc_plot_kinds[i];
        dc_error why = {0};
        if ((k->input == DC_PLOT_ONE || k->input == DC_PLOT_SOME) && dc_plot_check(k, &r.run, 1, &why) == DC_OK)
            found = k;
    }
    if (!found)
        dc_error_set(err, DC_EINPUT, "trace '%s' has the datasets of no figure (dcsim plot --list: what each needs)",
                     path);
    dc_cli_run_close(&r);
    return found;
}

/* Every figure of one trace that it supports, into a folder. */
/* Every figure the trace (or sweep file) has the datasets of, into a
 * directory.  On an error, *failed gets the figure being drawn (malloc'd;
 * NULL if none). */
static int plot_all(const plot_args *a, dc_cli_run *run, bool sweep, dc_plot_opts *o, char **failed, dc_error *err)
{
    const char *ext = a->format ? a->format : "png";
    char *dir = NULL;
    if (a->output) {
        dir = strdup(a->output);
    } else {
        /* TRACE_figures beside the trace. */
        const char *slash = strrchr(a->traces[0], '/');
        int dlen = slash ? (int)(slash - a->traces[0]) + 1 : 0;
        size_t len = (size_t)dlen + strlen(run->label) + 10;
        if ((dir = malloc(len)))
            snprintf(dir, len, "%.*s%s_figures", dlen, a->traces[0], run->label);
    }
    if (!dir)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    bool made = mkdir(dir, 0755) == 0;
    if (!made && errno != EEXIST) {
        int rc = dc_error_set(err, DC_EIO, "cannot create the folder of figures '%s': %s", dir, strerror(errno));
        free(dir);
        return rc;
    }
    if (!is_dir(dir)) {
        int rc = dc_error_set(err, DC_EIO, "cannot write figures into '%s': it is not a directory", dir);
        free(dir);
        return rc;
    }
    size_t drawn = 0;
    int rc = DC_OK;
    for (size_t i = 0; i < dc_plot_kind_count && rc == DC_OK; i++) {
        const dc_plot_kind *k = &dc_plot_kinds[i];
        if (sweep ? k->input != DC_PLOT_SWEEP : k->input != DC_PLOT_ONE && k->input != DC_PLOT_SOME)
            continue;
        dc_error why = {0};
        if (dc_plot_check(k, &run->run, 1, &why) != DC_OK) {
            fprintf(stderr, "dcsim plot: skipped %s: %s\n", k->name, why.msg);
            continue;
        }
        char *out = name_in(dir, k->name, ext);
        if (!out) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        o->output = out;
        rc = dc_cli_draw(k, &run->run, 1, o, err);
        if (rc == DC_OK) {
            printf("wrote %s\n", out);
            drawn++;
            free(out);
        } else {
            *failed = out;
        }
    }
    if (rc == DC_OK && drawn == 0)
        rc = dc_error_set(err, DC_EINPUT, "%s '%s' has the datasets of no figure (see the messages above)",
                          sweep ? "sweep file" : "trace", a->traces[0]);
    if (drawn == 0 && made)
        rmdir(dir);
    free(dir);
    return rc;
}

int dc_cmd_plot(int argc, char **argv)
{
    plot_args a = {0};
    dc_error err = {0};
    dc_cli_run *traces = NULL;
    dc_plot_run *runs = NULL;
    scan_run *scan = NULL;
    size_t n_runs = 0, n_open = 0;
    char *plot_dir = NULL, *output = NULL, *scan_path = NULL, *failed = NULL;
    bool is_sweep = false, all = false;
    int status = DC_EXIT_OK;

    a.reps = 1;
    a.seed = -1;
    int first = 0;
    int pr = dc_cli_parse(&plot_cmd, argc, argv, plot_opt, &a, false, &first);
    if (pr != DC_CLI_RUN) {
        status = pr;
        goto done;
    }
    a.traces = argv + first;
    a.n_traces = (size_t)(argc - first);
    if (a.scan) {
        if (dc_cli_scenario_path(a.scan, &scan_path, &err) != DC_OK)
            goto fail;
        a.scan = scan_path;
    }
    if (a.list) {
        list_kinds();
        if ((plot_dir = dc_cli_plot_dir()))
            printf("\nscripts: %s (DCSIM_PLOTS overrides); gnuplot: %s (DCSIM_GNUPLOT overrides)\n", plot_dir,
                   dc_cli_gnuplot());
        goto done;
    }
    const dc_plot_kind *k = NULL;
    if (a.kind && !(k = dc_plot_kind_find(a.kind))) {
        char names[512] = "";
        for (size_t i = 0; i < dc_plot_kind_count; i++) {
            size_t l = strlen(names);
            snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", dc_plot_kinds[i].name);
        }
        dc_error_set(&err, DC_EINPUT, "plot: unknown kind '%s' (kinds: %s)", a.kind, names);
        goto fail;
    }
    /* -o FILE.png|.svg|.pdf without --kind: the trace's first figure into
     * that file (a sweep's histogram of its first figure); -o with another
     * extension that is not a directory is an error, not a new directory. */
    if (!k && a.output && !a.scan && a.n_traces == 1 && !is_dir(a.output)) {
        const char *base = strrchr(a.output, '/') ? strrchr(a.output, '/') + 1 : a.output;
        if (dc_plot_terminal(a.output, NULL)) {
            if (!(k = default_kind(a.traces[0], &err)))
                goto fail;
            fprintf(stderr, "dcsim plot: no --kind: drawing %s, the first figure '%s' supports (dcsim plot --list "
                            "shows the others)\n", k->name, a.traces[0]);
        } else if (strchr(base, '.')) {
            char names[512] = "";
            for (size_t i = 0; i < dc_plot_kind_count; i++) {
                size_t l = strlen(names);
                snprintf(names + l, sizeof names - l, "%s%s", i ? ", " : "", dc_plot_kinds[i].name);
            }
            dc_error_set(&err, DC_EINPUT,
                         "plot: -o %s is neither a .png, .svg or .pdf figure nor a directory (give --kind KIND for "
                         "one figure: %s)", a.output, names);
            goto fail;
        }
    }
    if (a.scan && a.n_traces > 0) {
        dc_error_set(&err, DC_EINPUT, "plot: --scan runs the scenario itself; give no trace (got '%s')",
                     a.traces[0]);
        goto fail;
    }
    if (!a.scan && (a.n_vary > 0 || a.n_sets > 0 || a.reps != 1 || a.seed >= 0)) {
        dc_error_set(&err, DC_EINPUT, "plot: --vary, --set, --reps and --seed go with --scan FILE.cfg");
        goto fail;
    }
    if (!a.scan && a.n_traces == 0) {
        dc_error_set(&err, DC_EINPUT, "plot: which trace? usage: dcsim plot TRACE.h5 [--kind KIND] [-o FILE]");
        goto fail;
    }
    char runs_kinds[512] = "";
    for (size_t i = 0; i < dc_plot_kind_count; i++)
        if (dc_plot_kinds[i].input == DC_PLOT_RUNS || dc_plot_kinds[i].input == DC_PLOT_SOME) {
            size_t l = strlen(runs_kinds);
            snprintf(runs_kinds + l, sizeof runs_kinds - l, "%s%s", l ? ", " : "", dc_plot_kinds[i].name);
        }
    if (a.scan && (!k || (k->input != DC_PLOT_RUNS && k->input != DC_PLOT_SOME))) {
        dc_error_set(&err, DC_EINPUT, "plot: --scan draws a figure of several runs: --kind %s", runs_kinds);
        goto fail;
    }
    if (!k && a.n_traces > 1) {
        dc_error_set(&err, DC_EINPUT, "plot: several traces make one figure of runs: choose --kind %s", runs_kinds);
        goto fail;
    }
    if (a.metric && k && k->input != DC_PLOT_SWEEP) {
        dc_error_set(&err, DC_EINPUT, "plot: --metric chooses the figure of a sweep's histogram or tornado");
        goto fail;
    }
    if (a.data && !k) {
        dc_error_set(&err, DC_EINPUT, "plot: --data keeps the data of one figure: give --kind");
        goto fail;
    }

    dc_plot_opts opts = {.gnuplot = dc_cli_gnuplot(), .keep_dir = a.data, .metric = a.metric};
    if (!(plot_dir = dc_cli_plot_dir())) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    opts.script_dir = plot_dir;

    if (k) {
        /* One figure: where it goes. */
        const char *ext = a.format ? a.format : "png";
        char *base = a.scan ? strip_ext(a.scan, ".cfg") : strip_ext(a.traces[0], ".h5");
        if (!base) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        if (a.output && !is_dir(a.output)) {
            const char *fmt = NULL;
            if (a.format && dc_plot_terminal(a.output, &fmt) && strcmp(fmt, a.format) != 0) {
                dc_error_set(&err, DC_EINPUT, "plot: -o %s is not a %s file", a.output, a.format);
                free(base);
                goto fail;
            }
            output = strdup(a.output);
        } else if (a.output) {
            size_t len = strlen(base) + strlen(k->name) + 2;
            char *file = malloc(len);
            if (file) {
                snprintf(file, len, "%s_%s", base, k->name);
                output = name_in(a.output, file, ext);
                free(file);
            }
        } else {
            output = name_beside(a.scan ? NULL : a.traces[0], base, k->name, ext);
        }
        free(base);
        if (!output) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        /* Before any run of a scan: a figure that cannot be written must not
         * cost one. */
        if (!dc_plot_terminal(output, NULL)) {
            dc_error_set(&err, DC_EINPUT, "cannot tell the format of '%s': name the figure .png, .svg or .pdf", output);
            goto fail;
        }
        if (check_dir_of(output, &err) != DC_OK)
            goto fail;
    }

    if (a.scan) {
        if (run_scan(&a, &scan, &runs, &n_runs, &err) != DC_OK)
            goto fail;
    } else {
        traces = calloc(a.n_traces, sizeof *traces);
        runs = calloc(a.n_traces, sizeof *runs);
        if (!traces || !runs) {
            dc_error_set(&err, DC_ENOMEM, "out of memory");
            goto fail;
        }
        for (; n_open < a.n_traces; n_open++) {
            const char *path = a.traces[n_open];
            bool sweep = dc_cli_is_sweep(path);
            if (sweep && k && k->input != DC_PLOT_SWEEP) {
                dc_error_set(&err, DC_EINPUT,
                             "'%s' is a sweep file: its figures are histogram and tornado, not %s", path, k->name);
                goto fail;
            }
            if ((sweep || (k && k->input == DC_PLOT_SWEEP) ? sweep_open(path, &traces[n_open], &err)
                                                           : dc_cli_run_open(path, &traces[n_open], &err)) != DC_OK)
                goto fail;
            is_sweep = is_sweep || sweep;
        }
        dc_cli_run_label(traces, n_open, (const char *const *)a.traces);
        for (size_t i = 0; i < n_open; i++)
            runs[i] = traces[i].run;
        n_runs = n_open;
    }

    /* From here a signal stops gnuplot (dc_plot_opts.cancel): the figure
     * being drawn is not written (the previous file of that name, its
     * temporary file and data directory gone), those written stay, and the
     * command exits 130/143; a second signal kills dcsim with those gone too
     * (dc_cli_draw).  Before, the default action killed dcsim and left
     * NAME.tmp.PID.N and the data directory behind.  (Not during a scan's
     * runs, above: the default action still ends those at once, and once
     * every figure is drawn.)  Caught here, not only by each dc_cli_draw, so
     * that a signal between two figures stops the second. */
    dc_cli_catch_signals();
    all = !k;
    if (all) {
        int prc = plot_all(&a, &traces[0], is_sweep, &opts, &failed, &err);
        dc_cli_default_signals();
        if (prc != DC_OK)
            goto fail;
        goto done;
    }

    opts.output = output;
    int drc = dc_cli_draw(k, runs, n_runs, &opts, &err);
    dc_cli_default_signals();
    if (drc != DC_OK)
        goto fail;
    printf("wrote %s\n", output);
    goto done;
fail:
    if (dc_cli_interrupted()) {
        fprintf(stderr, "dcsim: plot interrupted by %s while drawing '%s': that figure not written%s\n",
                dc_cli_signal_name(dc_cli_interrupted()), all ? (failed ? failed : "?") : output,
                all ? " (those written above are whole)" : "");
        status = dc_cli_signal_status(dc_cli_interrupted());
    } else {
        status = dc_cli_fail(&err);
    }
done:
    free(failed);
    for (size_t i = 0; i < n_open; i++)
        dc_cli_run_close(&traces[i]);
    free(traces);
    if (a.scan)
        free_scan(scan, n_runs);
    free(runs);
    for (size_t v = 0; v < a.n_vary; v++)
        vary_free(&a.vary[v]);
    free(plot_dir);
    free(output);
    free(scan_path);
    return status;
}
