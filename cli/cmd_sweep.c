/* dcsim sweep: a grid of scenario variants times N replications, on every core and over MPI ranks.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim sweep: a grid of scenario variants x N replications with uncertain
 * inputs (analysis/sweep.h), on every core and, built with MPI, over ranks
 * (cli/sweep_par.h); prints per grid point the statistics, the probability
 * of missing the deadline, the value at risk and the sensitivity ranking
 * (analysis/sweep_report.h), and writes the HDF5 file (analysis/sweep_write.h).
 *
 * Decisions where the issue is silent:
 *  - --reps is required; FILE is optional (the embedded 10k_gpu scenario).
 *  - Default figures: cost.total_usd, cost.tco_usd, job.completion_days and
 *    job.ettr when the scenario has a cost section, else job.completion_days,
 *    job.ettr, job.useful_gpu_h and job.interruptions (those the runs have).
 *  - --deadline-days D is --set deadline.days=D.
 *  - Threads: every online core by default (one per rank under MPI); each
 *    thread holds its own copy of every grid point's scenario.
 *  - Row 0 runs first, alone, so that a misspelt --metrics name or a run
 *    that fails stops the sweep within one run's time. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "interrupt.h"
#include "outfile.h"
#include "runlimits.h"
#include "registry.h"
#include "stats.h"
#include "sweep.h"
#include "sweep_par.h"
#include "sweep_report.h"
#include "sweep_write.h"
#include "tornado.h"
#include "trace.h"
#include "uncertain.h"

#define MAX_SETS 256
#define MAX_VARY 32
#define MAX_METRICS 32

enum {
    O_REPS = 256, O_VARY, O_SET, O_SEED, O_METRICS, O_RISK, O_VAR_LEVEL, O_DEADLINE, O_FORCE, O_TORNADO,
    O_TORNADO_REPS
};

static const dc_cli_opt sweep_opts[] = {
    {"reps", O_REPS, "N", 0, "N replications at every grid point (required); replication r has seed S + r"},
    {"vary", O_VARY, "KEY=V1,V2,...", DC_CLI_REPEAT, "an axis of the grid (or KEY=LO:HI:STEP); the grid is the "
                                                      "product of the axes (at most 1000 points without --force)"},
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "override one scenario key in every run, as dcsim run --set"},
    {"seed", O_SEED, "S", 0, "seed of replication 0 (default: the scenario's)"},
    {"output", 'o', "OUT.h5", 0, "write every run and the statistics to OUT.h5 (/runs, /params, /inputs, /stats, "
                                 "/risk, /sensitivity, /tornado)"},
    {"metrics", O_METRICS, "KEY,KEY,...", 0, "the figures to summarise (default: the total cost, the TCO, the "
                                             "completion time and the ETTR, those the runs have)"},
    {"risk", O_RISK, "KEY", 0, "the figure of the value at risk (default: the first cost figure)"},
    {"var-level", O_VAR_LEVEL, "P", 0, "the level of the value at risk (default 0.95)"},
    {"deadline-days", O_DEADLINE, "D", 0, "the deadline: --set deadline.days=D"},
    {"tornado", O_TORNADO, NULL, 0, "add one-at-a-time runs: each uncertain input at P10 and P90, the others at "
                                    "their medians"},
    {"tornado-reps", O_TORNADO_REPS, "N", 0, "seeds per tornado setting (default 20; implies --tornado)"},
    {"threads", 'j', "N", 0, "threads (default: every core; one per rank under MPI)"},
    {"force", O_FORCE, NULL, 0, "run a grid larger than 1000 points"},
    {"quiet", 'q', NULL, 0, "print nothing but errors"},
    {0},
};

static const dc_cli_cmd sweep_cmd = {
    .name = "sweep",
    .operands = "[FILE|NAME]",
    .doc = "Runs the scenario (default: the embedded 10k_gpu one) at every point of the grid the --vary options\n"
           "span, N times each, replication r with seed S + r at every grid point, drawing every uncertain input\n"
           "(a distribution in the scenario) once per replication.  Prints per grid point the mean, sd, 95% CI\n"
           "and P5..P99 of the chosen figures, the probability of missing the deadline, the value at risk and\n"
           "which uncertain input matters most (rank correlations over the replications).  Uses every core;\n"
           "under mpirun (dcsim built --with-mpi) every rank, with the same numbers.\n",
    .opts = sweep_opts,
    .after = "Examples:\n"
             "  dcsim sweep scenarios/10k_gpu.cfg --reps 100 --vary checkpoint.interval_s=500,1000,2000 -o sweep.h5\n"
             "  dcsim sweep invest/programme --reps 1000 --vary cost.owned=1,0.4,0 --tornado -o invest.h5\n",
};

typedef struct sweep_args {
    const char *sets[MAX_SETS + 1], *vary[MAX_VARY], *metrics[MAX_METRICS];
    size_t n_sets, n_vary, n_metrics;
    long long reps, seed, threads, tornado_reps;
    bool tornado, force, quiet;
    const char *output, *risk;
    double var_level;
    char *metrics_text, *deadline_set;
} sweep_args;

typedef struct progress {
    struct timespec started, last;
    bool shown;
    int ranks;
    size_t total_all;
} progress;

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* done / total of this rank's rows; other ranks are assumed to keep pace. */
static void show_progress(void *ctx, size_t done, size_t total)
{
    progress *p = ctx;
    double t = since(&p->started);
    if (done < total && (t < 0.5 || since(&p->last) < 0.25))
        return;
    clock_gettime(CLOCK_MONOTONIC, &p->last);
    if (done >= total) {
        if (p->shown)
            fputs("\r\033[K", stderr);
        return;
    }
    double rate = done / t * p->ranks;
    size_t all_done = (size_t)((double)done / (double)total * (double)p->total_all);
    double left = rate > 0 ? (double)(p->total_all - all_done) / rate : 0.0;
    fprintf(stderr, "\r\033[Kdcsim sweep: %zu / %zu runs, %.1f runs/s, %.0f s left", all_done, p->total_all, rate,
            left);
    p->shown = true;
}

static void progress_first(void *ctx, size_t done, size_t total)
{
    (void)ctx;
    (void)done;
    (void)total;
}

static int parse_count(const char *opt, const char *text, long long lo, long long hi, long long *out, dc_error *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < lo || v > hi)
        return dc_error_set(err, DC_EINPUT, "%s: expected an integer from %lld to %lld (got '%s')", opt, lo, hi,
                            text);
    *out = v;
    return DC_OK;
}

static int parse_real(const char *opt, const char *text, double lo, double hi, double *out, dc_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v > lo) || !(v < hi))
        return dc_error_set(err, DC_EINPUT, "%s: expected a number between %g and %g (got '%s')", opt, lo, hi, text);
    *out = v;
    return DC_OK;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len + 4096 + 1 > cap) {
            size_t c = cap ? 2 * cap : 8192;
            char *p = realloc(buf, c);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap = c;
        }
        size_t got = fread(buf + len, 1, 4096, f);
        len += got;
        if (got < 4096)
            break;
    }
    fclose(f);
    buf[len] = '\0';
    return buf;
}

static char *join_args(int argc, char **argv)
{
    size_t len = 16;
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 1;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "dcsim");
    for (int i = 0; i < argc; i++) {
        strcat(s, " ");
        strcat(s, argv[i]);
    }
    return s;
}

/* ---- printing ---------------------------------------------------------------------- */

static void print_num(double x)
{
    if (isnan(x))
        printf(" %10s", "-");
    else
        printf(" %10.4g", x);
}

static void print_inputs(const dc_sweep *sw)
{
    const dc_scenario *sc = dc_sweep_scenario(sw, 0);
    size_t n = dc_scenario_uncertain_count(sc);
    if (n == 0) {
        printf("uncertain inputs: none (the replications differ by their seeds only)\n");
        return;
    }
    printf("uncertain inputs (one draw per replication):\n");
    for (size_t i = 0; i < n; i++) {
        const dc_uncertain *u = dc_scenario_uncertain(sc, i);
        /* keys sharing a stream: the first one, then a count */
        size_t same = 0;
        bool seen = false;
        for (size_t k = 0; k < n; k++) {
            bool shared = strcmp(dc_scenario_uncertain(sc, k)->stream, u->stream) == 0;
            seen = seen || (shared && k < i);
            same += shared;
        }
        if (seen)
            continue;
        char d[256];
        dc_uncertain_describe(u, d, sizeof d);
        printf("  %-36s %s; P5 %.4g, P50 %.4g, P95 %.4g %s\n", u->path, d, dc_uncertain_quantile(u, 0.05),
               dc_uncertain_quantile(u, 0.5), dc_uncertain_quantile(u, 0.95), u->unit);
        if (same > 1)
            printf("  %-36s and %zu more keys drawn from the same number (stream %s)\n", "", same - 1,
                   u->stream + strlen("uncertain."));
    }
}

#define TORNADO_BAR 30

static void print_tornado(const dc_tornado *tn, const dc_sweep_table *t, size_t g)
{
    if (tn->n_inputs == 0)
        return;
    size_t nm = tn->n_metrics < 2 ? tn->n_metrics : 2;
    for (size_t m = 0; m < nm; m++) {
        long col = dc_sweep_table_column(t, tn->metrics[m]);
        const char *unit = col >= 0 ? t->units[col] : "";
        printf("tornado of %s: each input at P%.0f and P%.0f, the others at their medians (mean of %zu seeds; "
               "all at their medians: %.4g %s)\n",
               tn->metrics[m], 100 * tn->p_lo, 100 * tn->p_hi, tn->reps, tn->base[g * tn->n_metrics + m], unit);
        size_t order[256], n = tn->n_inputs < 256 ? tn->n_inputs : 256;
        double widest = 0.0;
        for (size_t k = 0; k < n; k++) {
            order[k] = k;
            double sw = dc_tornado_swing(tn, g, k, m);
            if (sw > widest)
                widest = sw;
        }
        for (size_t a = 1; a < n; a++)
            for (size_t b = a; b > 0 && dc_tornado_swing(tn, g, order[b], m) > dc_tornado_swing(tn, g, order[b - 1], m);
                 b--) {
                size_t tmp = order[b];
                order[b] = order[b - 1];
                order[b - 1] = tmp;
            }
        printf("  %-36s %11s %11s %11s\n", "input", "at low", "at high", "swing");
        for (size_t q = 0; q < n; q++) {
            size_t k = order[q], i = (g * tn->n_inputs + k) * tn->n_metrics + m;
            double sw = dc_tornado_swing(tn, g, k, m);
            int bar = widest > 0.0 && isfinite(sw) ? (int)lround(TORNADO_BAR * sw / widest) : 0;
            printf("  %-36.36s %11.4g %11.4g %11.4g  %.*s\n", tn->inputs[k], tn->lo[i], tn->hi[i], sw, bar,
                   "##############################");
        }
    }
}

static void print_point(const dc_sweep *sw, const dc_sweep_table *t, const dc_sweep_report *r, const dc_tornado *tn,
                        size_t g)
{
    const dc_sweep_point_report *p = &r->pt[g];
    printf("\ngrid point %zu of %zu", g + 1, r->points);
    for (size_t a = 0; a < dc_sweep_axes(sw); a++)
        printf("%s%s=%s", a ? ", " : ": ", dc_sweep_axis_key(sw, a), dc_sweep_point_value(sw, g, a));
    printf("  (%zu replications)\n", r->reps);
    printf("%-28s %10s %10s %10s %10s %10s %10s %10s %10s %10s  %s\n", "figure", "mean", "sd", "95% CI lo", "95% CI hi",
           "P5", "P50", "P90", "P95", "P99", "unit");
    for (size_t m = 0; m < r->n_metrics; m++) {
        size_t j = (size_t)r->metric_cols[m];
        const dc_stats *s = &p->stats[j];
        printf("%-28s", t->names[j]);
        double v[9] = {s->mean, s->sd, s->ci_lo, s->ci_hi, s->p5, s->p50, s->p90, s->p95, s->p99};
        for (size_t k = 0; k < 9; k++)
            print_num(v[k]);
        printf("  %s", t->units[j]);
        if (s->n_nan)
            printf(" (%zu of %zu runs have no value)", s->n_nan, s->n);
        printf("\n");
    }
    if (r->has_miss) {
        if (r->has_deadline) {
            long dcol = dc_sweep_table_column(t, "deadline.days");
            const dc_stats *ds = dcol >= 0 ? &p->stats[dcol] : NULL;
            if (ds && ds->min == ds->max)
                printf("deadline of %g days missed", ds->mean);
            else
                printf("deadline missed");
        } else {
            printf("job unfinished at the horizon");
        }
        printf(" in %zu of %zu replications: probability %.4g, Wilson 95%% interval [%.4g, %.4g]\n", p->miss_k,
               p->miss_n, p->miss_p, p->miss_lo, p->miss_hi);
    }
    if (r->risk_col >= 0 && !isnan(p->var)) {
        const dc_stats *s = &p->stats[r->risk_col];
        printf("value at risk (%g) of %s: %.4g %s (%.4g above the mean); conditional VaR (mean beyond it): %.4g\n",
               r->var_level, t->names[r->risk_col], p->var, t->units[r->risk_col], p->var - s->mean, p->cvar);
    }
    if (tn)
        print_tornado(tn, t, g);
    if (r->n_inputs == 0 || r->n_metrics == 0)
        return;
    /* inputs ranked by |rho| with the first figure */
    size_t ni = r->n_inputs, order[256];
    size_t shown = ni < 256 ? ni : 256;
    for (size_t k = 0; k < shown; k++)
        order[k] = k;
    for (size_t a = 1; a < shown; a++)
        for (size_t b = a; b > 0; b--) {
            double x = fabs(p->rho[order[b]]), y = fabs(p->rho[order[b - 1]]);
            if ((isnan(y) && !isnan(x)) || x > y) {
                size_t tmp = order[b];
                order[b] = order[b - 1];
                order[b - 1] = tmp;
            } else {
                break;
            }
        }
    printf("sensitivity: Spearman rank correlation of each input with each figure over the replications\n"
           "             [standardised rank regression coefficient]\n");
    printf("  %-36s", "input");
    size_t nm = r->n_metrics < 4 ? r->n_metrics : 4;
    for (size_t m = 0; m < nm; m++)
        printf(" %22.22s", t->names[r->metric_cols[m]]);
    printf("\n");
    for (size_t q = 0; q < shown; q++) {
        size_t k = order[q];
        char name[96];
        if (r->input_keys[k] > 1)
            snprintf(name, sizeof name, "%.44s (%zu keys)", r->input_names[k], r->input_keys[k]);
        else
            snprintf(name, sizeof name, "%s", r->input_names[k]);
        printf("  %-36s", name);
        for (size_t m = 0; m < nm; m++) {
            double rho = p->rho[m * ni + k], srrc = p->srrc[m * ni + k];
            if (isnan(rho))
                printf(" %22s", "-");
            else
                printf("        %+6.3f [%+6.3f]", rho, srrc);
        }
        printf("\n");
    }
    printf("  %-36s", "R^2 of the rank regression");
    for (size_t m = 0; m < nm; m++)
        printf(" %22.3f", p->r2[m]);
    printf("\n");
    for (size_t m = 0; m < nm; m++) {
        size_t best = ni;
        for (size_t k = 0; k < ni; k++)
            if (!isnan(p->rho[m * ni + k]) && (best == ni || fabs(p->rho[m * ni + k]) > fabs(p->rho[m * ni + best])))
                best = k;
        if (best < ni)
            printf("  matters most for %s: %s\n", t->names[r->metric_cols[m]], r->input_names[best]);
    }
}

/* ---- the command -------------------------------------------------------------------- */

static size_t split_list(char *text, const char **out, size_t max)
{
    size_t n = 0;
    char *save = NULL;
    for (char *tok = strtok_r(text, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ')
            tok++;
        if (*tok)
            out[n++] = tok;
    }
    return n;
}

static int sweep_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    sweep_args *a = ctx;
    switch (key) {
    case O_REPS:
        return parse_count("--reps", arg, 1, DC_SWEEP_MAX_REPS, &a->reps, err);
    case O_VARY:
        return dc_cli_push(a->vary, &a->n_vary, MAX_VARY, arg, "--vary", "axes", err);
    case O_SET:
        return dc_cli_push(a->sets, &a->n_sets, MAX_SETS, arg, "--set", "overrides", err);
    case O_SEED:
        return parse_count("--seed", arg, 0, INT64_MAX, &a->seed, err);
    case 'o':
        a->output = arg;
        return DC_OK;
    case O_METRICS:
        free(a->metrics_text);
        a->metrics_text = strdup(arg);
        a->n_metrics = a->metrics_text ? split_list(a->metrics_text, a->metrics, MAX_METRICS) : 0;
        if (a->n_metrics == 0)
            return dc_error_set(err, DC_EINPUT, "--metrics: expected KEY,KEY,... (got '%s')", arg);
        return DC_OK;
    case O_RISK:
        a->risk = arg;
        return DC_OK;
    case O_VAR_LEVEL:
        return parse_real("--var-level", arg, 0.0, 1.0, &a->var_level, err);
    case O_DEADLINE: {
        double d;
        int rc = parse_real("--deadline-days", arg, 0.0, 1e6, &d, err);
        if (rc == DC_OK) {
            free(a->deadline_set);
            a->deadline_set = malloc(64);
            if (!a->deadline_set)
                return dc_error_set(err, DC_ENOMEM, "out of memory");
            snprintf(a->deadline_set, 64, "deadline.days=%.17g", d);
        }
        return rc;
    }
    case 'j':
        return parse_count("--threads", arg, 1, 1024, &a->threads, err);
    case O_FORCE:
        a->force = true;
        return DC_OK;
    case O_TORNADO:
        a->tornado = true;
        return DC_OK;
    case O_TORNADO_REPS:
        a->tornado = true;
        return parse_count("--tornado-reps", arg, 1, 100000, &a->tornado_reps, err);
    case 'q':
        a->quiet = true;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINTERNAL, "sweep: option %d not handled", key);
}

/* The results through sim/outfile.h, guarded against a second signal. */
typedef struct {
    const dc_sweep_meta *meta;
    const dc_sweep *sw;
    const dc_sweep_table *t;
    const dc_sweep_report *r;
    const dc_tornado *tn;
} sweep_job;

static int write_sweep_to(dc_outfile *out, void *ctx, dc_error *err)
{
    const sweep_job *j = ctx;
    return dc_sweep_write_to(out, j->meta, j->sw, j->t, j->r, j->tn, err);
}

static int write_sweep(const char *path, const dc_sweep_meta *meta, const dc_sweep *sw, const dc_sweep_table *t,
                       const dc_sweep_report *r, const dc_tornado *tn, dc_error *err)
{
    sweep_job j = {meta, sw, t, r, tn};
    return dc_cli_write_guarded(path, "sweep", write_sweep_to, &j, err);
}

/* The texts already printed (each warning once per sweep). */
typedef struct shown_warnings {
    const char **text;
    size_t n, cap;
} shown_warnings;

/* Prints the warnings of every worker's copy of every grid point not
 * printed yet: those of the validation builds, then (called again after
 * the runs) those the runs found (sweep.c gathers them). */
static void print_sweep_warnings(const dc_sweep *sw, shown_warnings *shown)
{
    for (size_t w = 0; w < dc_sweep_workers(sw); w++)
        for (size_t g = 0; g < dc_sweep_points(sw); g++) {
            const dc_scenario *sc = dc_sweep_worker_scenario(sw, w, g);
            for (size_t i = 0; i < dc_scenario_warning_count(sc); i++) {
                const char *t = dc_scenario_warning(sc, i);
                bool seen = false;
                for (size_t k = 0; k < shown->n && !seen; k++)
                    seen = strcmp(shown->text[k], t) == 0;
                if (seen)
                    continue;
                fprintf(stderr, "dcsim: warning: %s\n", t);
                if (shown->n == shown->cap) {
                    size_t cap = shown->cap ? 2 * shown->cap : 16;
                    const char **nt = realloc(shown->text, cap * sizeof *nt);
                    if (!nt)
                        continue; /* out of memory: it may show twice */
                    shown->text = nt;
                    shown->cap = cap;
                }
                shown->text[shown->n++] = t;
            }
        }
}

int dc_cmd_sweep(int argc, char **argv)
{
    static sweep_args a; /* one call per process */
    memset(&a, 0, sizeof a);
    a.seed = -1;
    a.tornado_reps = 20;
    a.var_level = 0.95;
    dc_error err = {0};
    dc_par par = {0};
    int status = DC_EXIT_OK;
    const char **sets = a.sets, **metrics = a.metrics;
    size_t n_metrics = 0;
    char *scenario_text = NULL, *command = NULL, *file_path = NULL;
    dc_sweep *sw = NULL;
    dc_sweep_table *table = NULL;
    dc_sweep_report *report = NULL;
    dc_tornado *tn = NULL;
    size_t *mine = NULL;
    shown_warnings shown = {0};

    int prc = dc_par_init(&argc, &argv, &par, &err);
    bool root = par.rank == 0;
    if (prc != DC_OK) {
        status = root ? dc_cli_fail(&err) : (prc == DC_EINPUT ? DC_EXIT_INPUT : DC_EXIT_FAILURE);
        goto finish;
    }
    command = join_args(argc, argv);

    int first = 0;
    int pr = dc_cli_parse(&sweep_cmd, argc, argv, sweep_opt, &a, !root, &first);
    if (pr != DC_CLI_RUN) {
        status = pr;
        goto finish;
    }
    size_t n_sets = a.n_sets, n_vary = a.n_vary;
    const char *const *vary = a.vary;
    long long reps = a.reps, seed = a.seed, threads = a.threads, tornado_reps = a.tornado_reps;
    bool tornado = a.tornado, force = a.force, quiet = a.quiet;
    const char *output = a.output, *risk = a.risk;
    double var_level = a.var_level;
    char *deadline_set = a.deadline_set;
    n_metrics = a.n_metrics;
    if (argc - first > 1) {
        dc_error_set(&err, DC_EINPUT, "sweep: one scenario at most (got '%s' and '%s')", argv[first],
                     argv[first + 1]);
        goto fail;
    }
    if (reps == 0) {
        dc_error_set(&err, DC_EINPUT, "sweep: how many replications? give --reps N");
        goto fail;
    }
    if (deadline_set)
        sets[n_sets++] = deadline_set;
    if (first < argc && dc_cli_scenario_path(argv[first], &file_path, &err) != DC_OK)
        goto fail;
    const char *file = file_path;
    if (threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = par.size > 1 ? 1 : cores > 0 ? cores : 1;
    }

    dc_sweep_spec spec = {
        .file = file,
        .text = dc_default_scenario,
        .text_name = "(embedded 10k_gpu.cfg)",
        .schemas = dc_schemas(),
        .build = dc_build,
        .build_cancellable = dc_build_cancellable,
        .sets = sets,
        .n_sets = n_sets,
        .vary = vary,
        .n_vary = n_vary,
        .reps = (size_t)reps,
        .seed = seed,
        .force = force,
    };
    if (dc_sweep_create(&spec, (size_t)threads, &sw, &err) != DC_OK)
        goto fail;
    /* Before running: every grid point within the memory limit, one copy
     * running per thread (sweeps write no trace per run). */
    for (size_t g = 0; g < dc_sweep_points(sw); g++) {
        char what[256];
        snprintf(what, sizeof what, "%s (grid point %zu)", file ? file : "(embedded 10k_gpu.cfg)", g + 1);
        if (dc_cli_check_limits(dc_sweep_scenario(sw, g), what, (size_t)threads, false, true, &err) != DC_OK)
            goto fail;
    }
    /* The warnings the grid points' scenarios got when they were built for
     * validation, each text once (every point of a --vary often has the same). */
    if (root)
        print_sweep_warnings(sw, &shown);
    /* SIGINT/SIGTERM: the rows done are kept, written (complete = 0) and the
     * exit status is 128 + the signal.  Under MPI every rank catches them
     * (mpirun, on SIGINT or SIGTERM, sends the ranks SIGTERM and SIGKILL a
     * second later: odls_base_sigkill_timeout), stops its runs, and the
     * rows done on every rank reach rank 0, which writes them. */
    dc_cli_install_signals();
    dc_sweep_set_cancel(sw, dc_cli_interrupt_flag());
    dc_par_agree(&par, DC_OK); /* every rank's handlers are in place */
    /* Before running: a bad output path must not cost a long sweep, nor may
     * the results replace the scenario or a file it reads. */
    size_t n_in = 0;
    const char *const *inputs = dc_scenario_inputs(dc_sweep_scenario(sw, 0), &n_in);
    int orc = root && output ? dc_outfile_check(output, "sweep", inputs, n_in, &err) : DC_OK;
    if (dc_par_agree(&par, orc) != DC_OK) {
        if (!root)
            goto quiet_fail;
        goto fail;
    }
    /* After the check, whose probe file (created and removed; named where
     * O_TMPFILE is missing) two signals could otherwise leave behind in a
     * test that signals once ready. */
    if (root)
        dc_cli_announce_ready();

    size_t rows = dc_sweep_rows(sw), n_mine = 0;
    /* Before allocating for the rows: the results table's memory. */
    if (dc_cli_check_sweep_limits(file ? file : "(embedded 10k_gpu.cfg)", (double)rows, DC_CLI_SWEEP_MIN_FIGURES,
                                  &err) != DC_OK)
        goto fail;
    mine = malloc(rows * sizeof *mine);
    if (!mine) {
        dc_error_set(&err, DC_ENOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = (size_t)par.rank; i < rows; i += (size_t)par.size)
        mine[n_mine++] = i;

    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* Row 0 first (rank 0): it checks the figures asked for. */
    int rc = DC_OK;
    if (root) {
        rc = dc_sweep_run(sw, mine, 1, 1, progress_first, NULL, &err);
        bool s0 = rc == DC_OK && dc_sweep_row_done(sw, 0);
        double v;
        for (size_t m = 0; s0 && m < n_metrics && rc == DC_OK; m++)
            if (!dc_sweep_row_get(sw, 0, metrics[m], &v))
                rc = dc_error_set(&err, DC_EINPUT, "--metrics: the runs have no figure named '%s' (dcsim run --json "
                                  "lists them)", metrics[m]);
        if (s0 && risk && rc == DC_OK && !dc_sweep_row_get(sw, 0, risk, &v))
            rc = dc_error_set(&err, DC_EINPUT, "--risk: the runs have no figure named '%s'", risk);
        if (s0 && rc == DC_OK)
            rc = dc_cli_check_sweep_limits(file ? file : "(embedded 10k_gpu.cfg)", (double)rows,
                                           (double)dc_sweep_row_width(sw, 0), &err);
    }
    if (dc_par_agree(&par, rc) != DC_OK) {
        if (!root)
            goto quiet_fail;
        goto fail;
    }
    progress prog = {.ranks = par.size, .total_all = rows};
    clock_gettime(CLOCK_MONOTONIC, &prog.started);
    prog.last = prog.started;
    bool tty = root && !quiet && isatty(STDERR_FILENO);
    size_t skip = root ? 1 : 0;
    dc_error run_err = {0};
    rc = dc_sweep_run(sw, mine + skip, n_mine - skip, (size_t)threads, tty ? show_progress : NULL, &prog, &run_err);
    if (prog.shown)
        fputs("\r\033[K", stderr);
    /* A signal on any rank interrupts the sweep on all (the rows each
     * finished are gathered all the same). */
    int sig = dc_par_agree(&par, dc_cli_interrupted());
    rc = dc_par_gather(&par, sw, mine, n_mine, rc, &run_err, &err);
    if (root)
        print_sweep_warnings(sw, &shown); /* found by the runs (every rank's, gathered) */
    double wall_s = since(&t0);
    if (rc != DC_OK) {
        if (!root)
            goto quiet_fail;
        goto fail;
    }
    if (!root) {
        status = sig ? dc_cli_signal_status(sig) : DC_EXIT_OK;
        goto finish;
    }

    /* rank 0: the answers */
    if ((sig ? dc_sweep_table_build_partial(sw, &table, &err) : dc_sweep_table_build(sw, &table, &err)) != DC_OK)
        goto fail;
    const char *defaults[] = {"cost.total_usd", "cost.tco_usd", "job.completion_days", "job.ettr",
                              "job.useful_gpu_h", "job.interruptions"};
    if (n_metrics == 0) {
        bool cost = dc_sweep_table_column(table, "cost.total_usd") >= 0;
        for (size_t k = cost ? 0 : 2; k < (cost ? 4 : 6); k++)
            if (dc_sweep_table_column(table, defaults[k]) >= 0)
                metrics[n_metrics++] = defaults[k];
    }
    if (risk)
        for (size_t m = 0; m < n_metrics; m++)
            if (strcmp(metrics[m], risk) == 0 && m > 0) {
                const char *tmp = metrics[0];
                metrics[0] = metrics[m];
                metrics[m] = tmp;
            }
    if (dc_sweep_report_build(sw, table, metrics, n_metrics, risk, var_level, &report, &err) != DC_OK)
        goto fail;

    if (tornado && report->n_inputs > 0 && !sig) {
        /* rank 0 alone, on its threads, after the sweep */
        size_t tr = (size_t)tornado_reps;
        if (dc_tornado_run(sw, metrics, n_metrics, tr, 0.1, 0.9, (size_t)threads, &tn, &err) != DC_OK)
            goto fail;
    }

    const char *shown_file = file ? file : "(embedded 10k_gpu.cfg)";
    if (output) {
        scenario_text = file ? slurp(file) : strdup(dc_default_scenario);
        char started_at[32];
        time_t now = time(NULL);
        struct tm tm;
        strftime(started_at, sizeof started_at, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now, &tm));
        dc_sweep_meta meta = {
            .dcsim_version = PACKAGE_VERSION,
            .scenario_text = scenario_text ? scenario_text : "",
            .scenario_file = shown_file,
            .command = command ? command : "",
            .started_at = started_at,
            .incomplete = sig != 0,
        };
        if (write_sweep(output, &meta, sw, table, report, tn, &err) != DC_OK)
            goto fail;
    }
    if (!quiet) {
        printf("dcsim %s sweep: %s, %zu grid point%s x %zu replications (seeds %" PRIu64 " to %" PRIu64 ")\n",
               PACKAGE_VERSION, shown_file, dc_sweep_points(sw), dc_sweep_points(sw) == 1 ? "" : "s",
               dc_sweep_reps(sw), dc_sweep_seed(sw, 0), dc_sweep_seed(sw, dc_sweep_reps(sw) - 1));
        print_inputs(sw);
        for (size_t g = 0; g < dc_sweep_points(sw); g++)
            print_point(sw, table, report, tn, g);
        printf("\n%zu runs in %.2f s (%.1f runs/s) on %lld thread%s", rows, wall_s, rows / wall_s, threads,
               threads == 1 ? "" : "s");
        if (tn)
            printf(", then %zu tornado runs", tn->points * (1 + 2 * tn->n_inputs) * tn->reps);
        if (par.size > 1)
            printf(" x %d MPI ranks", par.size);
        if (output)
            printf("; results: %s", output);
        printf("\n");
    }
    if (sig) {
        fprintf(stderr, "dcsim: sweep interrupted by %s after %zu of %zu runs%s%s%s%s\n", dc_cli_signal_name(sig),
                dc_sweep_rows_done(sw), rows, output ? ": the runs done are in '" : " (no -o: nothing written)",
                output ? output : "", output ? "' (complete = 0)" : "",
                par.size > 1 ? " (under mpirun, a SIGINT or SIGTERM reaches the ranks as SIGTERM)" : "");
        status = dc_cli_signal_status(sig);
    }
    goto finish;
fail:
    status = root ? dc_cli_fail(&err) : (err.code == DC_EINPUT || err.code == DC_EIO ? DC_EXIT_INPUT : DC_EXIT_FAILURE);
    goto finish;
quiet_fail:
    status = DC_EXIT_INPUT;
finish:
    free(shown.text);
    dc_tornado_destroy(tn);
    dc_sweep_report_destroy(report);
    dc_sweep_table_destroy(table);
    dc_sweep_destroy(sw);
    free(mine);
    free(a.metrics_text);
    free(a.deadline_set);
    free(scenario_text);
    free(command);
    free(file_path);
    dc_par_finish(&par);
    return status;
}
