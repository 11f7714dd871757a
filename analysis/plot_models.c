/* Exporters of the models' figures: step-time breakdown, scaling, time to failure, inference,
 * latency, cost, power.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Exporters of the models' figures (plot_export.h).  Figures of runs side
 * by side (step, latency, cost) draw one bar or group per point: the runs
 * of one point of a scan (replications) are pooled by their mean.
 * The waits by job size (waits) draw from the summary's jobs.CLASS.*
 * figures, one bar per point and size class.
 * Figures against the job's size (scaling, mttf) pool runs of equal
 * job.gpus with their 95% interval (plot_kinds.c). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_export.h"

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

/* ---- points ------------------------------------------------------------------------ */

int dc_plot_points(const dc_plot_run *runs, size_t n, size_t **first, size_t **member, size_t *np,
                   dc_error *err)
{
    size_t *f = calloc(n + 1, sizeof *f), *m = calloc(n + 1, sizeof *m);
    if (!f || !m) {
        free(f);
        free(m);
        return nomem(err);
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = k;
        for (size_t q = 0; q < k && runs[i].group; q++)
            if (runs[f[q]].group && strcmp(runs[f[q]].group, runs[i].group) == 0) {
                p = q;
                break;
            }
        if (p == k)
            f[k++] = i;
        m[i] = p;
    }
    *first = f;
    *member = m;
    *np = k;
    return DC_OK;
}

double dc_plot_point_mean(const dc_plot_run *runs, size_t n, const size_t *member, size_t p, const char *key)
{
    double sum = 0.0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (member[i] != p)
            continue;
        double v = dc_plot_get(runs[i].summary, key);
        if (isfinite(v)) {
            sum += v;
            k++;
        }
    }
    return k ? sum / (double)k : NAN;
}

/* The label of a point: "N GPUs" when the points differ in job size (a
 * scan of the size), else the group or the run's label. */
static const char *point_label(const dc_plot_run *runs, size_t n, const size_t *first, const size_t *member,
                               size_t np, size_t p, char *buf, size_t size)
{
    bool differ = false;
    double g0 = dc_plot_point_mean(runs, n, member, 0, "job.gpus");
    for (size_t q = 1; q < np && !differ; q++) {
        double g = dc_plot_point_mean(runs, n, member, q, "job.gpus");
        differ = isfinite(g) && isfinite(g0) && g != g0;
    }
    const dc_plot_run *r = &runs[first[p]];
    if (differ) {
        snprintf(buf, size, "%.0f GPUs", dc_plot_point_mean(runs, n, member, p, "job.gpus"));
        return buf;
    }
    snprintf(buf, size, "%s", r->group ? r->group : r->label ? r->label : "");
    return buf;
}

/* ",mean of point 1,mean of point 2,..." of key, then the end of the row. */
static void put_point_means(FILE *f, const dc_plot_run *runs, size_t n, const size_t *member, size_t np,
                            const char *key)
{
    for (size_t p = 0; p < np; p++) {
        fputc(',', f);
        dc_plot_put(f, dc_plot_point_mean(runs, n, member, p, key));
    }
    fputc('\n', f);
}

/* The script's npoints and points[] (the points' labels). */
static int put_point_labels(const dc_plot_run *runs, size_t n, const size_t *first, const size_t *member,
                            size_t np, dc_plot_data *d, dc_error *err)
{
    char **labels = calloc(np + 1, sizeof *labels);
    int rc = labels ? DC_OK : nomem(err);
    for (size_t p = 0; p < np && rc == DC_OK; p++) {
        char buf[256];
        if (!(labels[p] = strdup(point_label(runs, n, first, member, np, p, buf, sizeof buf))))
            rc = nomem(err);
    }
    if (rc == DC_OK) {
        dc_plot_var_number(d, "npoints", (double)np);
        dc_plot_var_strings(d, "points", (const char *const *)labels, np);
    }
    for (size_t p = 0; labels && p < np; p++)
        free(labels[p]);
    free(labels);
    return rc;
}

/* ---- bars of components ---------------------------------------------------------- */

typedef struct component {
    const char *key, *label;
} component;

/* Writes FILE: label, one column per component some point has (non-zero),
 * total, extra...; sets ncomp, comps[], npoints, points[]. */
static int write_components(const char *file, const char *what, const component *c, size_t nc,
                            const char *total_key, const char *const *extra, size_t nextra,
                            const dc_plot_run *runs, size_t n, dc_plot_data *d, dc_error *err)
{
    size_t *first = NULL, *member = NULL, np = 0;
    int rc = dc_plot_points(runs, n, &first, &member, &np, err);
    if (rc != DC_OK)
        return rc;
    bool *used = calloc(nc + 1, sizeof *used);
    const char **names = calloc(nc + 1, sizeof *names);
    char **labels = calloc(np + 1, sizeof *labels);
    FILE *f = NULL;
    if (!used || !names || !labels) {
        rc = nomem(err);
        goto done;
    }
    size_t nu = 0;
    for (size_t j = 0; j < nc; j++) {
        for (size_t p = 0; p < np && !used[j]; p++) {
            double v = dc_plot_point_mean(runs, n, member, p, c[j].key);
            used[j] = isfinite(v) && v != 0.0;
        }
        if (used[j])
            names[nu++] = c[j].label;
    }
    if (!(f = dc_plot_data_open(d, file, err))) {
        rc = err->code;
        goto done;
    }
    fputs("# point", f);
    for (size_t j = 0; j < nc; j++)
        if (used[j])
            fprintf(f, ",%s", c[j].key);
    fprintf(f, ",%s", total_key);
    for (size_t e = 0; e < nextra; e++)
        fprintf(f, ",%s", extra[e]);
    fprintf(f, " (%s; means over the replications of each point)\n", what);
    for (size_t p = 0; p < np; p++) {
        char buf[256];
        const char *l = point_label(runs, n, first, member, np, p, buf, sizeof buf);
        if (!(labels[p] = strdup(l))) {
            rc = nomem(err);
            goto done;
        }
        dc_plot_put_label(f, l);
        for (size_t j = 0; j < nc; j++)
            if (used[j]) {
                double v = dc_plot_point_mean(runs, n, member, p, c[j].key);
                fputc(',', f);
                dc_plot_put(f, isfinite(v) ? v : 0.0);
            }
        fputc(',', f);
        dc_plot_put(f, dc_plot_point_mean(runs, n, member, p, total_key));
        for (size_t e = 0; e < nextra; e++) {
            fputc(',', f);
            dc_plot_put(f, dc_plot_point_mean(runs, n, member, p, extra[e]));
        }
        fputc('\n', f);
    }
    rc = dc_plot_data_close(d, f, err);
    f = NULL;
    if (rc != DC_OK)
        goto done;
    dc_plot_var_number(d, "ncomp", (double)nu);
    dc_plot_var_strings(d, "comps", names, nu);
    dc_plot_var_number(d, "npoints", (double)np);
    dc_plot_var_strings(d, "points", (const char *const *)labels, np);
    dc_plot_var_number(d, "reps", np ? (double)n / (double)np : 0.0);
    size_t longest = 0;
    for (size_t p = 0; p < np; p++)
        longest = strlen(labels[p]) > longest ? strlen(labels[p]) : longest;
    dc_plot_var_number(d, "labellen", (double)longest);
done:
    if (f)
        fclose(f);
    for (size_t p = 0; labels && p < np; p++)
        free(labels[p]);
    free(labels);
    free(names);
    free(used);
    free(first);
    free(member);
    return rc;
}

/* ---- step-time breakdown ------------------------------------------------------------ */

/* The parts of one optimizer step (models/workload/steptime.h): they sum to step.time_s. */
static const component step_parts[] = {
    {"step.compute_s", "compute"},
    {"step.recompute_s", "recompute"},
    {"step.bubble_s", "pipeline bubble"},
    {"step.comm_exposed_s", "exposed communication"},
    {"step.offload_s", "memory offload"},
    {"step.data_stall_s", "data stall"},
};

int dc_plot_export_step(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    (void)k;
    static const char *const extra[] = {"step.mfu", "step.scaling_efficiency", "job.gpus"};
    return write_components("step.csv", "seconds per step of each part", step_parts,
                            sizeof step_parts / sizeof step_parts[0], "step.time_s", extra, 3, runs, n, d, err);
}

/* ---- cost breakdown ------------------------------------------------------------------- */

/* The lines of the total cost of ownership (models/cost/cost.h): capital as
 * depreciation and interest, then the running costs and the rents. */
static const component cost_parts[] = {
    {"cost.depreciation_usd", "depreciation"},
    {"cost.interest_usd", "interest"},
    {"cost.energy_usd", "energy"},
    {"cost.maintenance_usd", "maintenance"},
    {"cost.staff_usd", "staff"},
    {"cost.licences_usd", "licences"},
    {"cost.data_transfer_usd", "data transfer"},
    {"cost.repairs_usd", "repairs"},
    {"cost.rent_reserved_usd", "rent (reserved)"},
    {"cost.rent_on_demand_usd", "rent (on demand)"},
    {"cost.spot_usd", "spot"},
    {"cost.storage_opex_usd", "storage (running)"},
    {"cost.orbital_depreciation_usd", "orbital capital"},
    {"cost.orbital_opex_usd", "orbital operations"},
};

int dc_plot_export_cost(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    (void)k;
    static const char *const extra[] = {"cost.usd_per_useful_gpu_h", "cost.window_days", "cost.total_usd"};
    int rc = write_components("cost.csv", "USD of each line", cost_parts, sizeof cost_parts / sizeof cost_parts[0],
                              "cost.tco_usd", extra, 3, runs, n, d, err);
    if (rc != DC_OK)
        return rc;
    /* Lines a newer cost model may add are not drawn: say so rather than
     * draw a stack that does not reach its total. */
    double worst = 0.0;
    for (size_t i = 0; i < n; i++) {
        double sum = 0.0, tco = dc_plot_get(runs[i].summary, "cost.tco_usd");
        for (size_t j = 0; j < sizeof cost_parts / sizeof cost_parts[0]; j++) {
            double v = dc_plot_get(runs[i].summary, cost_parts[j].key);
            sum += isfinite(v) ? v : 0.0;
        }
        if (tco > 0 && fabs(tco - sum) / tco > worst)
            worst = fabs(tco - sum) / tco;
    }
    dc_plot_var_number(d, "unexplained_pct", 100.0 * worst);
    return DC_OK;
}

/* ---- scaling: useful work per GPU against GPUs ----------------------------------------- */

static void scaling_group(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m)
{
    (void)ctx;
    stat95 st[] = {
        dc_plot_stats(runs, idx, m, "step.scaling_efficiency", 100.0),
        dc_plot_stats(runs, idx, m, "job.ettr", 100.0),
        dc_plot_stats(runs, idx, m, "step.ettr_time", 100.0),
        dc_plot_stats(runs, idx, m, "job.completion_days", 1.0),
        dc_plot_stats(runs, idx, m, "step.tokens_per_s", 1.0),
    };
    dc_plot_put(f, x);
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        fputc(',', f);
        dc_plot_put(f, st[i].mean);
        fputc(',', f);
        dc_plot_put(f, st[i].n ? st[i].half : NAN);
    }
    fputc('\n', f);
}

int dc_plot_export_scaling(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err)
{
    (void)k;
    return dc_plot_export_by_x(d, "scaling.csv",
                               "# gpus,scaling_eff_pct,ci95,goodput_pct,ci95,ettr_time_pct,ci95,days,ci95,tokens_per_s,"
                               "ci95 (means of the runs with this many GPUs; days: runs that finished)\n",
                               runs, n, "job.gpus", scaling_group, NULL, err);
}

/* ---- MTTF against job size ---------------------------------------------------------------- */

static void mttf_group(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m)
{
    (void)ctx;
    stat95 s = dc_plot_stats(runs, idx, m, "job.mttf_h", 1.0);
    stat95 e = dc_plot_stats(runs, idx, m, "job.expected_mtbi_h", 1.0);
    stat95 k = dc_plot_stats(runs, idx, m, "job.interruptions", 1.0);
    dc_plot_put(f, x);
    fputc(',', f);
    dc_plot_put(f, s.mean);
    fputc(',', f);
    dc_plot_put(f, s.n ? s.half : NAN);
    fputc(',', f);
    dc_plot_put(f, e.mean);
    fputc(',', f);
    dc_plot_put(f, k.mean * (double)k.n);
    fprintf(f, ",%zu\n", s.n);
}

int dc_plot_export_mttf(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    (void)k;
    return dc_plot_export_by_x(d, "mttf.csv", "# gpus,mttf_h_mean,mttf_h_ci95,expected_h,interruptions (all runs),runs\n",
                               runs, n, "job.gpus", mttf_group, NULL, err);
}

/* ---- inference ------------------------------------------------------------------------------ */

int dc_plot_export_inference(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err)
{
    int rc = dc_plot_export_series(k, runs, n, d, err);
    if (rc != DC_OK)
        return rc;
    const dc_summary *s = runs[0].summary;
    dc_plot_var_number(d, "slo", dc_plot_get(s, "inference.slo_attainment"));
    dc_plot_var_number(d, "drop", dc_plot_get(s, "inference.drop_fraction"));
    dc_plot_var_number(d, "util", dc_plot_get(s, "inference.gpu_utilization"));
    dc_plot_var_number(d, "capacity_qps", dc_plot_get(s, "inference.replica_capacity_qps"));
    double target = NAN;
    if (dc_plot_scenario_number(runs[0].scenario_text, "inference.autoscale.target_utilization", &target) != DC_OK)
        target = NAN;
    dc_plot_var_number(d, "target", target);
    return DC_OK;
}

/* Latency percentiles: for each measure, P50, P90, P99 and the mean. */
static const struct {
    const char *prefix, *label, *slo_key;
} measures[] = {
    {"inference.ttft", "time to first token", "inference.slo.ttft_s"},
    {"inference.tpot", "time per output token", "inference.slo.tpot_s"},
    {"inference.e2e", "end-to-end", "inference.slo.e2e_s"},
};
static const char *const stats_of[] = {"p50", "p90", "p99", "mean"};

int dc_plot_export_latency(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err)
{
    (void)k;
    size_t *first = NULL, *member = NULL, np = 0;
    int rc = dc_plot_points(runs, n, &first, &member, &np, err);
    if (rc != DC_OK)
        return rc;
    FILE *f = dc_plot_data_open(d, "latency.csv", err);
    if (!f) {
        rc = err->code;
        goto done;
    }
    fputs("# measure (1 ttft, 2 tpot, 3 e2e),statistic (1 P50, 2 P90, 3 P99, 4 mean),"
          "seconds of point 1,of point 2,... \n",
          f);
    for (size_t m = 0; m < 3; m++)
        for (size_t s = 0; s < 4; s++) {
            char key[96];
            snprintf(key, sizeof key, "%s_%s_s", measures[m].prefix, stats_of[s]);
            fprintf(f, "%zu,%zu", m + 1, s + 1);
            put_point_means(f, runs, n, member, np, key);
        }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK ||
        (rc = put_point_labels(runs, n, first, member, np, d, err)) != DC_OK)
        goto done;
    double slo[3];
    for (size_t m = 0; m < 3; m++)
        if (dc_plot_scenario_number(runs[0].scenario_text, measures[m].slo_key, &slo[m]) != DC_OK)
            slo[m] = NAN;
    dc_plot_var_numbers(d, "slo", slo, 3);
    double att[64];
    size_t na = np < 64 ? np : 64;
    for (size_t p = 0; p < na; p++)
        att[p] = dc_plot_point_mean(runs, n, member, p, "inference.slo_attainment");
    dc_plot_var_numbers(d, "attain", att, na);
done:
    free(first);
    free(member);
    return rc;
}

/* ---- waits by job size --------------------------------------------------------------- */

/* The classes of models/workload/jobstats.h (analysis/ reads their summary
 * keys, it does not include the model). */
static const char *const wait_classes[5] = {"gpus_1", "gpus_2_4", "gpus_5_8", "gpus_9_64", "gpus_65_up"};
static const char *const wait_stats[4] = {"p50", "p90", "p99", "mean"};

int dc_plot_export_waits(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d, dc_error *err)
{
    (void)k;
    size_t *first = NULL, *member = NULL, np = 0;
    int rc = dc_plot_points(runs, n, &first, &member, &np, err);
    if (rc != DC_OK)
        return rc;
    FILE *f = dc_plot_data_open(d, "waits.csv", err);
    if (!f) {
        rc = err->code;
        goto done;
    }
    fputs("# size class (1 gpus_1, 2 gpus_2_4, 3 gpus_5_8, 4 gpus_9_64, 5 gpus_65_up),statistic (1 P50, 2 P90, "
          "3 P99, 4 mean),hours of point 1,of point 2,...\n",
          f);
    for (size_t c = 0; c < 5; c++)
        for (size_t st = 0; st < 4; st++) {
            char key[96];
            snprintf(key, sizeof key, "jobs.%s.wait_%s_h", wait_classes[c], wait_stats[st]);
            fprintf(f, "%zu,%zu", c + 1, st + 1);
            put_point_means(f, runs, n, member, np, key);
        }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK ||
        (rc = put_point_labels(runs, n, first, member, np, d, err)) != DC_OK)
        goto done;
    /* jobs per class of the first point, for the axis labels */
    double jobs[5];
    for (size_t c = 0; c < 5; c++) {
        char key[96];
        snprintf(key, sizeof key, "jobs.%s.jobs", wait_classes[c]);
        jobs[c] = dc_plot_point_mean(runs, n, member, 0, key);
    }
    dc_plot_var_numbers(d, "njobs", jobs, 5);
done:
    free(first);
    free(member);
    return rc;
}

/* ---- power and cooling -------------------------------------------------------------------- */

#define POWER_BINS 800

/* A step function (value i holds from ts[i] to ts[i + 1], the last to
 * end_s) in POWER_BINS bins of [0, end_s]: time-weighted mean, min and max
 * per bin, so that a year of minute-by-minute changes draws as a band. */
static int write_binned(dc_trace_file *t, const char *name, double end_s, dc_plot_data *d, dc_error *err)
{
    double *ts = NULL, *vs = NULL;
    size_t n = 0;
    int rc = dc_trace_read_series(t, name, &ts, &vs, &n, err);
    if (rc != DC_OK)
        return rc;
    char file[128];
    snprintf(file, sizeof file, "%s.csv", name);
    FILE *f = dc_plot_data_open(d, file, err);
    if (!f) {
        free(ts);
        free(vs);
        return err->code;
    }
    if (!(end_s > 0))
        end_s = n ? ts[n - 1] : 1.0;
    fprintf(f, "# t_mid_s,mean,min,max (%s in %d bins: time-weighted mean, extremes)\n", name, POWER_BINS);
    double w = end_s / POWER_BINS;
    size_t i = 0;
    for (int b = 0; b < POWER_BINS; b++) {
        double a = b * w, e = (b + 1) * w, sum = 0.0, cov = 0.0, lo = INFINITY, hi = -INFINITY;
        /* The value in force at a: the last change at or before it. */
        while (i + 1 < n && ts[i + 1] <= a)
            i++;
        for (size_t j = i; j < n && ts[j] < e; j++) {
            double from = ts[j] > a ? ts[j] : a;
            double to = j + 1 < n && ts[j + 1] < e ? ts[j + 1] : e;
            if (j + 1 == n && to > end_s)
                to = end_s;
            if (to > from && isfinite(vs[j])) {
                sum += vs[j] * (to - from);
                cov += to - from;
                lo = vs[j] < lo ? vs[j] : lo;
                hi = vs[j] > hi ? vs[j] : hi;
            }
        }
        dc_plot_put(f, (a + e) / 2);
        fputc(',', f);
        dc_plot_put(f, cov > 0 ? sum / cov : NAN);
        fputc(',', f);
        dc_plot_put(f, cov > 0 ? lo : NAN);
        fputc(',', f);
        dc_plot_put(f, cov > 0 ? hi : NAN);
        fputc('\n', f);
    }
    free(ts);
    free(vs);
    return dc_plot_data_close(d, f, err);
}

int dc_plot_export_power(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                         dc_error *err)
{
    (void)n;
    int rc = dc_plot_each_series(k, &runs[0], write_binned, d, err);
    if (rc != DC_OK)
        return rc;
    const char *text = runs[0].scenario_text;
    double v;
    dc_plot_var_number(d, "throttle_c",
                       dc_plot_scenario_number(text, "cooling.throttle_c", &v) == DC_OK ? v : NAN);
    dc_plot_var_number(d, "shutdown_c",
                       dc_plot_scenario_number(text, "cooling.shutdown_c", &v) == DC_OK ? v : NAN);
    dc_plot_var_number(d, "cap_mw", dc_plot_scenario_number(text, "power.site_cap_mw", &v) == DC_OK ? v : NAN);
    const dc_summary *s = runs[0].summary;
    dc_plot_var_number(d, "pue", dc_plot_get(s, "power.pue"));
    double ch = dc_plot_get(s, "power.cap_throttled_h"), hh = dc_plot_get(s, "power.heat_throttled_h");
    dc_plot_var_number(d, "cap_throttled_h", ch);
    dc_plot_var_number(d, "heat_throttled_h", hh);
    return DC_OK;
}
