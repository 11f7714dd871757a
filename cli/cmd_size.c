/* dcsim size: the smallest cluster that trains the job by a deadline with a stated probability,
 * the curve searched and the seed's three plans.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dcsim size (analysis/size.h states the method).
 *
 * Decisions where the issue is silent:
 *  - FILE is optional (the embedded 10k_gpu scenario), as for sweep and mttf;
 *  - 30 replications per size by default: a 90% criterion then moves in
 *    steps of 1/30;
 *  - the figures of a size are type-7 quantiles over its replications
 *    (stats.h); TCO is cost.tco_usd (absent without a cost section);
 *  - --budget USD compares the TCO at the confidence's quantile (P90 at
 *    0.9) with the budget, for the answer and each plan: over budget is
 *    said, not hidden, and does not change the size; when the answer is over
 *    it, the smallest size searched that meets both the deadline and the
 *    budget is named (costs are charged for the run's days, so a larger
 *    cluster that finishes sooner can cost less over the run);
 *  - the plans show the capital bought (cost.capex_usd, P50) beside the TCO
 *    of the run: the conservative plan is the one that buys the least;
 *  - the deadline that cannot be met at any size the scenario allows is an
 *    answer (exit status 0, "answer": null in JSON), not an error;
 *  - --plot FILE draws the curve (plot kind "size") from the replications
 *    of every size searched for the answer. */
#include "cli.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "args.h"
#include "config.h"
#include "interrupt.h"
#include "plot.h"
#include "plotcli.h"
#include "registry.h"
#include "runlimits.h"
#include "size.h"
#include "stats.h"
#include "trace.h"

#define MAX_SETS 256
#define MAX_PLAN_SETS 64

enum { O_DEADLINE = 256, O_CONFIDENCE, O_BUDGET, O_REPS, O_SEED, O_SET, O_PLAN, O_NO_PLANS, O_MAX_NODES, O_PLOT,
       O_JSON };

static const dc_cli_opt size_opts[] = {
    {"deadline-days", O_DEADLINE, "D", 0, "the deadline: the job must finish within D days (required)"},
    {"confidence", O_CONFIDENCE, "C", 0, "in at least a share C of the replications (default 0.9)"},
    {"budget", O_BUDGET, "USD", 0, "check the TCO at the confidence's quantile against USD"},
    {"reps", O_REPS, "N", 0, "replications per size (default 30; the same seeds at every size)"},
    {"seed", O_SEED, "S", 0, "seed of replication 0 (default: the scenario's)"},
    {"set", O_SET, "KEY=VALUE", DC_CLI_REPEAT, "override one scenario key, as dcsim run --set"},
    {"plan", O_PLAN, "PLAN.KEY=VALUE", DC_CLI_REPEAT, "a plan's target or assumption: PLAN.confidence=C, "
                                                       "PLAN.deadline_share=F, PLAN.mfu=X, PLAN.failures=X, "
                                                       "PLAN.price=X"},
    {"no-plans", O_NO_PLANS, NULL, 0, "skip the conservative, balanced and aggressive plans"},
    {"max-nodes", O_MAX_NODES, "N", 0, "search no cluster larger than N job nodes"},
    {"threads", 'j', "N", 0, "threads (default: every core)"},
    {"plot", O_PLOT, "FILE", 0, "draw the curve searched into FILE (.png, .svg or .pdf)"},
    {"json", O_JSON, NULL, 0, "print the answer as JSON"},
    {"quiet", 'q', NULL, 0, "print nothing but errors"},
    {0},
};

static const dc_cli_cmd size_cmd = {
    .name = "size",
    .operands = "[FILE|NAME]",
    .doc = "The smallest cluster whose job (the scenario's job group; default: the embedded 10k_gpu scenario)\n"
           "finishes within D days in at least a share C of N replications: job nodes in steps of whole tensor\n"
           "x pipeline groups, with the cluster, its spares, repair crews, spare parts, site power and cooling\n"
           "scaled with it.  Prints the seed's closed form, every size searched (P50/P90 of days and TCO), the\n"
           "answer, and the seed's three plans (conservative, balanced, aggressive), each sized under its own\n"
           "target and assumptions (factors on the job's MFU, on every failure rate, on the prices of compute).\n",
    .opts = size_opts,
    .after = "Examples:\n"
             "  dcsim size 10k_gpu --deadline-days 150\n"
             "  dcsim size 10k_gpu --deadline-days 120 --confidence 0.95 --plot size.png\n",
};

typedef struct size_args {
    const char *sets[MAX_SETS], *plan_sets[MAX_PLAN_SETS], *plot;
    size_t n_sets, n_plan_sets;
    double deadline, confidence, budget;
    long long reps, seed, max_nodes, threads;
    bool plans_on, json, quiet;
} size_args;

static int parse_real(const char *opt, const char *text, double lo, double hi, bool lo_open, double *out,
                      dc_error *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v) || !(lo_open ? v > lo : v >= lo) || v > hi)
        return dc_error_set(err, DC_EINPUT, "%s: expected a number %s %g and at most %g (got '%s')", opt,
                            lo_open ? "above" : "from", lo, hi, text);
    *out = v;
    return DC_OK;
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

/* ---- formatting ------------------------------------------------------------------------- */

static const char *days_text(double d, char *buf, size_t size)
{
    if (isnan(d))
        snprintf(buf, size, "-");
    else if (isinf(d))
        snprintf(buf, size, "unfinished");
    else
        snprintf(buf, size, "%.1f", d);
    return buf;
}

static const char *usd_text(double v, char *buf, size_t size)
{
    if (!isfinite(v))
        snprintf(buf, size, "-");
    else if (fabs(v) >= 1e9)
        snprintf(buf, size, "%.3fB", v / 1e9);
    else if (fabs(v) >= 1e6)
        snprintf(buf, size, "%.1fM", v / 1e6);
    else if (fabs(v) >= 1e3)
        snprintf(buf, size, "%.1fk", v / 1e3);
    else
        snprintf(buf, size, "%.3g", v);
    return buf;
}

static void json_num(FILE *f, const char *key, double v, bool comma)
{
    if (isfinite(v))
        fprintf(f, "\"%s\": %.17g%s", key, v, comma ? ", " : "");
    else
        fprintf(f, "\"%s\": null%s", key, comma ? ", " : "");
}

static void json_str(FILE *f, const char *v)
{
    fputc('"', f);
    for (; *v; v++) {
        if (*v == '"' || *v == '\\')
            fputc('\\', f);
        if ((unsigned char)*v >= 0x20)
            fputc(*v, f);
    }
    fputc('"', f);
}

/* ---- figures of an evaluation -------------------------------------------------------------- */

typedef struct figures {
    size_t met, reps;
    double p_meet, days_p50, days_p90, days_c, tco_p50, tco_p90, tco_c, capex_p50, usd_gpu_h_p50, ettr_mean;
    double miss_p, miss_lo, miss_hi;
} figures;

static figures figures_of(const dc_size_eval *e, double target_days, double deadline_days, double confidence)
{
    figures f = {0};
    f.reps = e->reps;
    f.met = dc_size_met(e, target_days);
    f.p_meet = e->reps ? (double)f.met / (double)e->reps : NAN;
    f.days_p50 = dc_size_days_quantile(e, 0.5);
    f.days_p90 = dc_size_days_quantile(e, 0.9);
    f.days_c = dc_size_days_quantile(e, confidence);
    f.tco_p50 = dc_size_quantile(e->tco_usd, e->reps, 0.5);
    f.tco_p90 = dc_size_quantile(e->tco_usd, e->reps, 0.9);
    f.tco_c = dc_size_quantile(e->tco_usd, e->reps, confidence);
    f.capex_p50 = dc_size_quantile(e->capex_usd, e->reps, 0.5);
    f.usd_gpu_h_p50 = dc_size_quantile(e->usd_per_gpu_h, e->reps, 0.5);
    double sum = 0;
    size_t n = 0;
    for (size_t r = 0; r < e->reps; r++)
        if (isfinite(e->ettr[r])) {
            sum += e->ettr[r];
            n++;
        }
    f.ettr_mean = n ? sum / (double)n : NAN;
    size_t missed = e->reps - dc_size_met(e, deadline_days);
    dc_stats_proportion(missed, e->reps, 0.95, &f.miss_p, &f.miss_lo, &f.miss_hi);
    return f;
}

/* ---- progress --------------------------------------------------------------------------- */

typedef struct progress_ctx {
    bool show;
    size_t done;
} progress_ctx;

static void show_progress(void *ctx, uint64_t nodes, size_t met, size_t reps)
{
    progress_ctx *p = ctx;
    p->done++;
    if (p->show)
        fprintf(stderr, "\r\033[Kdcsim size: %zu sizes run, the last %" PRIu64 " nodes (%zu of %zu in time)", p->done,
                nodes, met, reps);
}

static int check_limits(void *ctx, const dc_scenario *sc, dc_error *err)
{
    size_t threads = *(const size_t *)ctx;
    return dc_cli_check_limits(sc, "a size of the search", threads, false, true, err);
}

/* ---- the figure ------------------------------------------------------------------------- */

/* One dc_plot_run per replication of every size of the curve: job.gpus,
 * job.completion_days, job.completed, cost.tco_usd, deadline.days,
 * size.confidence, size.answer_gpus (the kind "size", analysis/plot_models.c). */
static int draw(const char *output, const char *scenario, uint64_t seed, const dc_size_eval *const *curve, size_t n,
                double deadline_days, double confidence, double answer_gpus, dc_error *err)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += curve[i]->reps;
    dc_plot_run *runs = calloc(total ? total : 1, sizeof *runs);
    dc_summary **sums = calloc(total ? total : 1, sizeof *sums);
    char (*groups)[32] = calloc(n ? n : 1, sizeof *groups);
    int rc = runs && sums && groups ? DC_OK : dc_error_set(err, DC_ENOMEM, "out of memory");
    size_t k = 0;
    for (size_t i = 0; i < n && rc == DC_OK; i++) {
        const dc_size_eval *e = curve[i];
        snprintf(groups[i], sizeof groups[i], "%" PRIu64, e->gpus);
        for (size_t r = 0; r < e->reps && rc == DC_OK; r++, k++) {
            dc_summary *s = sums[k] = dc_summary_create();
            if (!s) {
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                break;
            }
            /* days are sorted and costs are not: each quantile is of its own column */
            bool done = isfinite(e->days[r]);
            dc_summary_set(s, "job.gpus", (double)e->gpus, "GPUs", "");
            dc_summary_set(s, "job.completed", done ? 1.0 : 0.0, "", "");
            dc_summary_set(s, "job.completion_days", done ? e->days[r] : NAN, "days", "");
            dc_summary_set(s, "cost.tco_usd", e->tco_usd[r], "USD", "");
            dc_summary_set(s, "deadline.days", deadline_days, "days", "");
            dc_summary_set(s, "size.confidence", confidence, "", "");
            dc_summary_set(s, "size.answer_gpus", answer_gpus, "GPUs", "");
            runs[k] = (dc_plot_run){.label = groups[i], .summary = s, .scenario = scenario, .seed = seed,
                                    .end_s = NAN, .group = groups[i]};
        }
    }
    char *plot_dir = rc == DC_OK ? dc_cli_plot_dir() : NULL;
    if (rc == DC_OK && !plot_dir)
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
    if (rc == DC_OK) {
        const dc_plot_kind *kind = dc_plot_kind_find("size");
        /* A signal stops gnuplot: no figure, the command exits as interrupted. */
        dc_plot_opts opts = {.output = output, .gnuplot = dc_cli_gnuplot(), .script_dir = plot_dir};
        rc = kind ? dc_cli_draw(kind, runs, k, &opts, err)
                  : dc_error_set(err, DC_EINTERNAL, "no plot kind named size");
    }
    free(plot_dir);
    for (size_t i = 0; i < total && sums; i++)
        dc_summary_destroy(sums[i]);
    free(sums);
    free(runs);
    free(groups);
    return rc;
}

/* ---- printing --------------------------------------------------------------------------- */

static void print_curve(const dc_size_eval *const *curve, size_t n, double target, double deadline, double c,
                        uint64_t answer)
{
    printf("%7s %8s %7s %6s %8s %10s %10s %10s %10s\n", "nodes", "GPUs", "spares", "crews", "in time", "days P50",
           "days P90", "TCO P50", "TCO P90");
    for (size_t i = 0; i < n; i++) {
        const dc_size_eval *e = curve[i];
        if (e->refused) {
            printf("%7" PRIu64 " %8" PRIu64 "  refused: %s\n", e->job_nodes, e->gpus, e->why);
            continue;
        }
        figures f = figures_of(e, target, deadline, c);
        char a[32], b[32], u1[32], u2[32], crews[24], met[48];
        if (e->crews < 0)
            snprintf(crews, sizeof crews, "-");
        else if (e->crews == 0)
            snprintf(crews, sizeof crews, "any");
        else
            snprintf(crews, sizeof crews, "%lld", e->crews);
        snprintf(met, sizeof met, "%zu/%zu", f.met, f.reps);
        printf("%7" PRIu64 " %8" PRIu64 " %7" PRIu64 " %6s %8s %10s %10s %10s %10s%s\n", e->job_nodes, e->gpus,
               e->spare_nodes, crews, met, days_text(f.days_p50, a, sizeof a), days_text(f.days_p90, b, sizeof b),
               usd_text(f.tco_p50, u1, sizeof u1), usd_text(f.tco_p90, u2, sizeof u2),
               e->job_nodes == answer ? "  <- answer" : "");
    }
}

typedef struct plan_out {
    dc_size_plan plan;
    dc_size_plan_result res;
    figures f;
    bool has;
} plan_out;

static void print_plans(const plan_out *po, size_t n, const dc_scenario *sc, double deadline, double budget)
{
    double mfu = NAN;
    config_lookup_float(dc_scenario_config(sc), "job.mfu", &mfu);
    printf("\nplans (seed 000, sec. 4): each sized by the same search under its own target and assumptions\n");
    printf("  %-30s", "");
    for (size_t i = 0; i < n; i++)
        printf(" %16s", po[i].plan.name);
    printf("\n");
#define ROW(label, ...)                                                                                             \
    do {                                                                                                            \
        printf("  %-30s", label);                                                                                   \
        for (size_t i = 0; i < n; i++) {                                                                            \
            char cell[64];                                                                                          \
            const plan_out *p = &po[i];                                                                             \
            __VA_ARGS__;                                                                                            \
            printf(" %16s", cell);                                                                                  \
        }                                                                                                           \
        printf("\n");                                                                                               \
    } while (0)
    ROW("aims at", snprintf(cell, sizeof cell, "%.4g d @ P%.0f", p->res.target_days, 100 * p->plan.confidence));
    ROW("assumes job MFU", if (isfinite(mfu)) snprintf(cell, sizeof cell, "%.3g (x%.3g)", mfu * p->plan.mfu, p->plan.mfu);
        else snprintf(cell, sizeof cell, "x%.3g", p->plan.mfu));
    ROW("assumes failure rates", snprintf(cell, sizeof cell, "x%.3g", p->plan.failures));
    ROW("assumes compute prices", snprintf(cell, sizeof cell, "x%.3g", p->plan.price));
    ROW("GPUs (job nodes)", if (p->has) snprintf(cell, sizeof cell, "%" PRIu64 " (%" PRIu64 ")",
                                                 p->res.answer.eval->gpus, p->res.answer.job_nodes);
        else snprintf(cell, sizeof cell, "none"));
    ROW("days P50 / P90", char a[24]; char b[24];
        if (p->has) snprintf(cell, sizeof cell, "%s / %s", days_text(p->f.days_p50, a, sizeof a),
                             days_text(p->f.days_p90, b, sizeof b));
        else snprintf(cell, sizeof cell, "-"));
    ROW("capital bought P50 (USD)", usd_text(p->has ? p->f.capex_p50 : NAN, cell, sizeof cell));
    ROW("TCO of the run P50 (USD)", usd_text(p->has ? p->f.tco_p50 : NAN, cell, sizeof cell));
    ROW("USD per useful GPU-h (P50)", if (p->has && isfinite(p->f.usd_gpu_h_p50))
        snprintf(cell, sizeof cell, "%.3f", p->f.usd_gpu_h_p50); else snprintf(cell, sizeof cell, "-"));
    char label[64];
    snprintf(label, sizeof label, "P(miss %.4g d) [95%%]", deadline);
    ROW(label, if (p->has) snprintf(cell, sizeof cell, "%.2f [%.2f,%.2f]", p->f.miss_p, p->f.miss_lo, p->f.miss_hi);
        else snprintf(cell, sizeof cell, "-"));
    if (isfinite(budget))
        ROW("within the budget", if (p->has && isfinite(p->f.tco_c))
            snprintf(cell, sizeof cell, "%s", p->f.tco_c <= budget ? "yes" : "no");
            else snprintf(cell, sizeof cell, "-"));
#undef ROW
    for (size_t i = 0; i < n; i++)
        if (!po[i].has)
            printf("  %s: %s\n", po[i].plan.name, po[i].res.answer.why);
}

static void json_eval(FILE *f, const dc_size_eval *e, double target, double deadline, double c)
{
    fprintf(f, "{\"job_nodes\": %" PRIu64 ", \"gpus\": %" PRIu64 ", \"cluster_nodes\": %" PRIu64
               ", \"spare_nodes\": %" PRIu64 ", \"crews\": %lld, ",
            e->job_nodes, e->gpus, e->cluster_nodes, e->spare_nodes, e->crews);
    if (e->refused) {
        fprintf(f, "\"refused\": ");
        json_str(f, e->why);
        fprintf(f, "}");
        return;
    }
    figures g = figures_of(e, target, deadline, c);
    fprintf(f, "\"reps\": %zu, \"in_time\": %zu, ", g.reps, g.met);
    json_num(f, "days_p50", g.days_p50, true);
    json_num(f, "days_p90", g.days_p90, true);
    json_num(f, "tco_p50_usd", g.tco_p50, true);
    json_num(f, "tco_p90_usd", g.tco_p90, true);
    json_num(f, "usd_per_useful_gpu_h_p50", g.usd_gpu_h_p50, true);
    json_num(f, "ettr_mean", g.ettr_mean, true);
    json_num(f, "p_miss", g.miss_p, true);
    json_num(f, "p_miss_lo", g.miss_lo, true);
    json_num(f, "p_miss_hi", g.miss_hi, false);
    fprintf(f, "}");
}

/* ---- the command ------------------------------------------------------------------------- */

static int size_opt(void *ctx, int key, const char *arg, dc_error *err)
{
    size_args *a = ctx;
    switch (key) {
    case O_DEADLINE:
        return parse_real("--deadline-days", arg, 0.0, 36525.0 / DC_SIZE_HORIZON_FACTOR, true, &a->deadline, err);
    case O_CONFIDENCE:
        return parse_real("--confidence", arg, 0.0, 1.0, true, &a->confidence, err);
    case O_BUDGET:
        return parse_real("--budget", arg, 0.0, 1e18, true, &a->budget, err);
    case O_REPS:
        return parse_count("--reps", arg, 1, 100000, &a->reps, err);
    case O_SEED:
        return parse_count("--seed", arg, 0, INT64_MAX, &a->seed, err);
    case O_SET:
        return dc_cli_push(a->sets, &a->n_sets, MAX_SETS, arg, "--set", "overrides", err);
    case O_PLAN:
        return dc_cli_push(a->plan_sets, &a->n_plan_sets, MAX_PLAN_SETS, arg, "--plan", "overrides", err);
    case O_NO_PLANS:
        a->plans_on = false;
        return DC_OK;
    case O_MAX_NODES:
        return parse_count("--max-nodes", arg, 1, 10000000, &a->max_nodes, err);
    case 'j':
        return parse_count("--threads", arg, 1, 1024, &a->threads, err);
    case O_PLOT:
        a->plot = arg;
        if (!dc_plot_terminal(arg, NULL))
            return dc_error_set(err, DC_EINPUT, "--plot %s: expected a .png, .svg or .pdf file", arg);
        return DC_OK;
    case O_JSON:
        a->json = true;
        return DC_OK;
    case 'q':
        a->quiet = true;
        return DC_OK;
    }
    return dc_error_set(err, DC_EINTERNAL, "size: option %d not handled", key);
}

int dc_cmd_size(int argc, char **argv)
{
    static size_args a; /* one call per process */
    memset(&a, 0, sizeof a);
    a.deadline = NAN;
    a.confidence = 0.9;
    a.budget = NAN;
    a.reps = 30;
    a.seed = -1;
    a.plans_on = true;
    dc_error err = {0};
    int op = 0;
    int pr = dc_cli_parse(&size_cmd, argc, argv, size_opt, &a, false, &op);
    if (pr != DC_CLI_RUN)
        return pr;
    const char *const *sets = a.sets, *const *plan_sets = a.plan_sets, *plot = a.plot;
    size_t n_sets = a.n_sets, n_plan_sets = a.n_plan_sets;
    double deadline = a.deadline, confidence = a.confidence, budget = a.budget;
    long long reps = a.reps, seed = a.seed, max_nodes = a.max_nodes, threads = a.threads;
    bool plans_on = a.plans_on, json = a.json, quiet = a.quiet;
    dc_sizer *sz = NULL;
    char *name = NULL, *file_path = NULL;
    int status = DC_EXIT_OK;
    bool drawing = false; /* the search done, its figure being drawn */
    if (argc - op > 1)
        return dc_cli_usage_error(&size_cmd, "one scenario at most (got '%s' and '%s')", argv[op], argv[op + 1]);
    if (isnan(deadline)) {
        dc_error_set(&err, DC_EINPUT, "size: by when must the job be trained? give --deadline-days D");
        return dc_cli_fail(&err);
    }
    dc_size_plan plans[DC_SIZE_PLANS];
    dc_size_plan_defaults(plans, confidence);
    for (size_t i = 0; i < n_plan_sets; i++)
        if (dc_size_plan_override(plans, plan_sets[i], &err) != DC_OK)
            return dc_cli_fail(&err);
    if (op < argc && dc_cli_scenario_path(argv[op], &file_path, &err) != DC_OK)
        return dc_cli_fail(&err);
    const char *file = file_path;
    if (threads == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        threads = cores > 0 ? cores : 1;
    }
    if (plot) {
        /* before any run: a figure that cannot be written must not cost the search */
        if (dc_trace_check_writable(plot, &err) != DC_OK) {
            free(file_path);
            return dc_cli_fail(&err);
        }
    }

    size_t nthreads = (size_t)threads;
    progress_ctx prog = {.show = !quiet && !json && isatty(STDERR_FILENO)};
    dc_size_spec spec = {
        .file = file,
        .text = dc_default_scenario,
        .text_name = "(embedded 10k_gpu.cfg)",
        .schemas = dc_schemas(),
        .build = dc_build,
        .build_cancellable = dc_build_cancellable,
        .sets = sets,
        .n_sets = n_sets,
        .reps = (size_t)reps,
        .seed = seed,
        .threads = nthreads,
        .deadline_days = deadline,
        .max_nodes = (uint64_t)max_nodes,
        .check = check_limits,
        .check_ctx = &nthreads,
        .progress = show_progress,
        .progress_ctx = &prog,
        .cancel = dc_cli_interrupt_flag(),
    };
    dc_cli_catch_signals();
    if (dc_sizer_create(&spec, &sz, &err) != DC_OK)
        goto fail;
    const dc_scenario *base = dc_sizer_scenario(sz);
    const char *given = NULL;
    config_lookup_string(dc_scenario_config(base), "name", &given);
    name = strdup(given ? given : file ? file : DC_DEFAULT_SCENARIO_NAME);
    const dc_size_shape *sh = dc_sizer_shape(sz);

    dc_size_answer ans;
    if (dc_sizer_search(sz, 0, deadline, confidence, &ans, &err) != DC_OK)
        goto fail;
    plan_out po[DC_SIZE_PLANS] = {0};
    size_t n_plans = plans_on ? DC_SIZE_PLANS : 0;
    for (size_t i = 0; i < n_plans; i++) {
        po[i].plan = plans[i];
        if (dc_sizer_plan(sz, &plans[i], &po[i].res, &err) != DC_OK)
            goto fail;
        po[i].has = po[i].res.answer.found;
        if (po[i].has)
            po[i].f = figures_of(po[i].res.answer.eval, po[i].res.target_days, deadline, plans[i].confidence);
    }
    if (prog.show && prog.done)
        fputs("\r\033[K", stderr);

    const dc_size_eval *const *curve;
    size_t n_curve = dc_sizer_curve(sz, 0, &curve);
    const dc_size_eval *first = NULL;
    for (size_t i = 0; i < n_curve && !first; i++)
        if (!curve[i]->refused && isfinite(curve[i]->ideal_days))
            first = curve[i];
    double cf_gpus = first ? dc_size_closed_form_gpus(first, deadline) : NAN;
    uint64_t cf_nodes = first ? dc_size_closed_form_nodes(sh, first, deadline) : 0;
    double work_gpu_h = first ? first->ideal_days * (double)first->gpus * 24.0 : NAN;
    figures af = {0};
    if (ans.found)
        af = figures_of(ans.eval, deadline, deadline, confidence);
    uint64_t s0 = dc_sizer_seed(sz);

    if (json) {
        printf("{\"scenario\": ");
        json_str(stdout, name);
        printf(", \"deadline_days\": %.17g, \"confidence\": %.17g, \"reps\": %lld, \"seed\": %" PRIu64
               ", \"step_nodes\": %" PRIu64 ", \"gpus_per_node\": %u, ",
               deadline, confidence, reps, s0, sh->step_nodes, sh->gpus_per_node);
        json_num(stdout, "budget_usd", budget, true);
        json_num(stdout, "work_gpu_h", work_gpu_h, true);
        printf("\"closed_form\": {");
        json_num(stdout, "gpus", cf_gpus, true);
        printf("\"job_nodes\": %" PRIu64 "}, \"answer\": ", cf_nodes);
        if (ans.found)
            json_eval(stdout, ans.eval, deadline, deadline, confidence);
        else
            printf("null");
        printf(", \"why_none\": ");
        json_str(stdout, ans.found ? "" : ans.why);
        printf(", \"curve\": [");
        for (size_t i = 0; i < n_curve; i++) {
            printf("%s", i ? ", " : "");
            json_eval(stdout, curve[i], deadline, deadline, confidence);
        }
        printf("], \"plans\": [");
        for (size_t i = 0; i < n_plans; i++) {
            const plan_out *p = &po[i];
            printf("%s{\"name\": \"%s\", ", i ? ", " : "", p->plan.name);
            json_num(stdout, "confidence", p->plan.confidence, true);
            json_num(stdout, "deadline_share", p->plan.deadline_share, true);
            json_num(stdout, "target_days", p->res.target_days, true);
            json_num(stdout, "mfu_factor", p->plan.mfu, true);
            json_num(stdout, "failure_factor", p->plan.failures, true);
            json_num(stdout, "price_factor", p->plan.price, true);
            printf("\"size\": ");
            if (p->has)
                json_eval(stdout, p->res.answer.eval, p->res.target_days, deadline, p->plan.confidence);
            else
                printf("null");
            printf("}");
        }
        printf("]}\n");
    } else if (!quiet) {
        printf("dcsim %s size: scenario %s (%s), deadline %.4g days at confidence %.3g\n", PACKAGE_VERSION, name,
               file ? file : "embedded", deadline, confidence);
        printf("%lld replications per size (seeds %" PRIu64 " to %" PRIu64 ", the same at every size); job sizes in "
               "steps of %" PRIu64 " node%s",
               reps, s0, s0 + (uint64_t)reps - 1, sh->step_nodes, sh->step_nodes == 1 ? "" : "s");
        if (sh->tensor * sh->pipeline > 1)
            printf(" (tensor %d x pipeline %d on %u-GPU nodes)", sh->tensor, sh->pipeline, sh->gpus_per_node);
        printf("\nscaled with the job:");
        for (size_t i = 0; i < sh->n_scaled; i++)
            printf("%s %s", i ? "," : "", sh->scaled[i]);
        printf("\n");
        if (first)
            printf("closed form (seed 000, sec. 4): %.4g GPU-h of work at the kernel efficiency / (24 h x %.4g days)"
                   " = %.0f GPUs, %" PRIu64 " job nodes: the size with no loss at all\n",
                   work_gpu_h, deadline, ceil(cf_gpus), cf_nodes);
        printf("\nsizes searched (days to train from submission; TCO: cost.tco_usd over the run)\n");
        print_curve(curve, n_curve, deadline, deadline, confidence, ans.found ? ans.job_nodes : 0);
        if (ans.found) {
            const dc_size_eval *e = ans.eval;
            char d[32], u[32];
            printf("\nanswer: %" PRIu64 " job nodes (%" PRIu64 " GPUs) in a cluster of %" PRIu64 " nodes with %" PRIu64
                   " spares",
                   e->job_nodes, e->gpus, e->cluster_nodes, e->spare_nodes);
            if (e->crews > 0)
                printf(" and %lld repair crews", e->crews);
            printf(": %zu of %zu replications finish within %.4g days (P%.0f of the days: %s)\n", af.met, af.reps,
                   deadline, 100 * confidence, days_text(af.days_c, d, sizeof d));
            if (isfinite(af.ettr_mean) && first)
                printf("  the seed's formula with the utilisation simulated at this size (ETTR %.3f of the kernel "
                       "efficiency) gives %.0f GPUs\n",
                       af.ettr_mean, ceil(cf_gpus / af.ettr_mean));
            if (isfinite(af.tco_c))
                printf("  TCO P50 %s USD, P%.0f %s USD", usd_text(af.tco_p50, u, sizeof u), 100 * confidence,
                       usd_text(af.tco_c, d, sizeof d));
            if (isfinite(af.usd_gpu_h_p50))
                printf("; %.3f USD per useful GPU-hour (P50)", af.usd_gpu_h_p50);
            if (isfinite(af.tco_c))
                printf("\n");
            if (isfinite(budget)) {
                if (!isfinite(af.tco_c))
                    printf("  budget: the scenario has no cost section, so no TCO to compare\n");
                else if (af.tco_c <= budget)
                    printf("  budget %s USD: within it (%s USD to spare at P%.0f)\n", usd_text(budget, u, sizeof u),
                           usd_text(budget - af.tco_c, d, sizeof d), 100 * confidence);
                else {
                    printf("  budget %s USD: over it by %s USD at P%.0f; ", usd_text(budget, u, sizeof u),
                           usd_text(af.tco_c - budget, d, sizeof d), 100 * confidence);
                    const dc_size_eval *both = NULL;
                    for (size_t i = 0; i < n_curve && !both; i++) {
                        if (curve[i]->refused || !dc_size_meets(curve[i], deadline, confidence))
                            continue;
                        figures g = figures_of(curve[i], deadline, deadline, confidence);
                        if (isfinite(g.tco_c) && g.tco_c <= budget)
                            both = curve[i];
                    }
                    if (both)
                        printf("the smallest size searched that meets both: %" PRIu64 " GPUs (%" PRIu64
                               " job nodes)\n",
                               both->gpus, both->job_nodes);
                    else
                        printf("no size searched meets both\n");
                }
            }
        } else {
            printf("\nno answer: %s\n", ans.why);
        }
        if (n_plans)
            print_plans(po, n_plans, base, deadline, budget);
    }
    if (plot) {
        drawing = true;
        if (draw(plot, name, s0, curve, n_curve, deadline, confidence, ans.found ? (double)ans.eval->gpus : NAN, &err) !=
            DC_OK)
            goto fail;
        if (!json && !quiet)
            printf("\nwrote %s\n", plot);
    }
    goto finish;
fail:
    if (prog.show && prog.done)
        fputs("\r\033[K", stderr);
    if (dc_cli_interrupted() && drawing) {
        /* The answer stands (printed above unless --quiet); the figure does
         * not: gnuplot was stopped, the previous file of that name is as it was. */
        fprintf(stderr, "dcsim: size interrupted by %s while drawing '%s': no figure written%s\n",
                dc_cli_signal_name(dc_cli_interrupted()), plot, quiet ? "" : " (the answer above stands)");
        status = dc_cli_signal_status(dc_cli_interrupted());
    } else if (dc_cli_interrupted()) {
        /* as run and sweep say it: where it stopped, and that nothing was written */
        uint64_t at = 0;
        bool setting_up = false;
        size_t done = 0;
        char where[160] = "";
        if (sz && dc_sizer_stopped(sz, &at, &setting_up, &done))
            snprintf(where, sizeof where, " while %s %llu job nodes (%zu size%s evaluated)",
                     setting_up ? "setting up the runs of" : "running", (unsigned long long)at, done,
                     done == 1 ? "" : "s");
        fprintf(stderr, "dcsim: size interrupted by %s%s: no answer%s\n", dc_cli_signal_name(dc_cli_interrupted()),
                where, plot ? ", no figure written" : "");
        status = dc_cli_signal_status(dc_cli_interrupted());
    } else {
        status = dc_cli_fail(&err);
    }
finish:
    dc_sizer_destroy(sz);
    free(name);
    free(file_path);
    return status;
}
