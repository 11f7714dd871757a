/* The kinds of figure dcsim plot draws (the table at the end) and the exporters of the run figures.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The kinds of figure dcsim plot draws (the table at the end) and their
 * exporters.  Each exporter writes the data files its script reads (columns
 * named in the script's header comment) and the gnuplot variables it
 * needs.  Runs of a set (DC_PLOT_RUNS) with the same x are replications:
 * their mean is drawn with a 95% confidence interval, Student's t with
 * n - 1 degrees of freedom (half-width 0 for a single run). */
#include "plot.h"
#include "plot_export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "efficiency.h"
#include "eventlog.h"

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

double dc_plot_get(const dc_summary *s, const char *key)
{
    double v = NAN;
    if (!s || !dc_summary_get(s, key, &v))
        return NAN;
    return v;
}

/* Writes v for gnuplot: non-finite values as NaN (a missing point). */
void dc_plot_put(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.10g", v);
    else
        fputs("NaN", f);
}

/* A label in a comma-separated data file: no commas, no line breaks. */
void dc_plot_put_label(FILE *f, const char *s)
{
    for (; *s; s++)
        fputc(*s == ',' ? ';' : (unsigned char)*s < 0x20 ? ' ' : *s, f);
}

/* ---- generic: series -------------------------------------------------------------- */

static int write_series(dc_trace_file *t, const char *name, double end_s, dc_plot_data *d, dc_error *err)
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
        return err ? err->code : DC_EIO;
    }
    fprintf(f, "# time_s,%s (a step function: each value holds until the next row)\n", name);
    for (size_t i = 0; i < n; i++) {
        dc_plot_put(f, ts[i]);
        fputc(',', f);
        dc_plot_put(f, vs[i]);
        fputc('\n', f);
    }
    if (n > 0 && end_s > ts[n - 1]) {
        dc_plot_put(f, end_s);
        fputc(',', f);
        dc_plot_put(f, vs[n - 1]);
        fputc('\n', f);
    }
    free(ts);
    free(vs);
    return dc_plot_data_close(d, f, err);
}

int dc_plot_each_series(const dc_plot_kind *k, const dc_plot_run *run, dc_plot_series_fn write, dc_plot_data *d,
                        dc_error *err)
{
    for (size_t i = 0; i < DC_PLOT_MAX_NEEDS && k->needs[i]; i++) {
        if (strncmp(k->needs[i], "/series/", 8) != 0)
            continue;
        int rc = write(run->trace, k->needs[i] + 8, run->end_s, d, err);
        if (rc != DC_OK)
            return rc;
    }
    return DC_OK;
}

int dc_plot_export_series(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                          dc_error *err)
{
    (void)n;
    return dc_plot_each_series(k, &runs[0], write_series, d, err);
}

/* ---- generic: bars from summary figures under a prefix ---------------------------- */

typedef struct bar {
    const char *label;
    double value;
    size_t order;
} bar;

static int bar_desc(const void *a, const void *b)
{
    const bar *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? 1 : -1;
    return x->order < y->order ? -1 : x->order > y->order;
}

int dc_plot_export_bars(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    (void)n;
    const dc_summary *s = runs[0].summary;
    const char *prefix = k->arg[0];
    const char *total_key = k->arg[1];
    bool keep_order = k->arg[2] && strcmp(k->arg[2], "keep") == 0;
    size_t plen = strlen(prefix);
    bar *bars = calloc(dc_summary_count(s) + 1, sizeof *bars);
    if (!bars)
        return nomem(err);
    size_t nb = 0;
    double sum = 0.0;
    const char *unit = "";
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *key = dc_summary_key(s, i);
        if (strncmp(key, prefix, plen) != 0 || (total_key && strcmp(key, total_key) == 0))
            continue;
        bars[nb] = (bar){key + plen, dc_summary_value(s, i), nb};
        if (isfinite(bars[nb].value))
            sum += bars[nb].value;
        if (nb == 0)
            unit = dc_summary_unit(s, i);
        nb++;
    }
    if (!keep_order)
        qsort(bars, nb, sizeof *bars, bar_desc);
    double total = total_key ? dc_plot_get(s, total_key) : sum;
    if (!isfinite(total))
        total = sum;
    FILE *f = dc_plot_data_open(d, "bars.csv", err);
    if (!f) {
        free(bars);
        return err ? err->code : DC_EIO;
    }
    fprintf(f, "# label,value,share_pct (figures %s* of the summary)\n", prefix);
    for (size_t i = 0; i < nb; i++) {
        dc_plot_put_label(f, bars[i].label);
        fputc(',', f);
        dc_plot_put(f, bars[i].value);
        fputc(',', f);
        /* no events at all: every bar is 0, and so its share */
        dc_plot_put(f, total > 0 ? 100.0 * bars[i].value / total : 0.0);
        fputc('\n', f);
    }
    free(bars);
    dc_plot_set_height(d, nb > 6 ? 150 + 30 * (int)nb : 330);
    dc_plot_var_number(d, "nbars", (double)nb);
    dc_plot_var_number(d, "total", total);
    dc_plot_var_number(d, "sum", sum);
    dc_plot_var_string(d, "unit", unit);
    dc_plot_var_number(d, "days", runs[0].end_s / 86400.0);
    return dc_plot_data_close(d, f, err);
}

/* ---- efficiency (the seed's effective-compute factors, efficiency.h) -------------- */

static int export_efficiency(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err)
{
    (void)k;
    (void)n;
    dc_efficiency e;
    int kernel_known = 0;
    if (dc_efficiency_of_summary(runs[0].summary, &e, &kernel_known) != 0)
        return dc_error_set(err, DC_EINPUT, "the trace has no GPU-hour breakdown (gpu_hours.capacity)");
    FILE *f = dc_plot_data_open(d, "bars.csv", err);
    if (!f)
        return err ? err->code : DC_EIO;
    fprintf(f, "# label,value,share_pct (the factors by loss, largest first, then their product)\n");
    for (int i = 0; i < DC_EFF_FACTORS; i++) {
        int fi = e.order[i];
        dc_plot_put_label(f, dc_efficiency_factor_name(fi));
        fputc(',', f);
        dc_plot_put(f, e.factor[fi]);
        fputc(',', f);
        dc_plot_put(f, 100.0 * e.factor[fi]);
        fputc('\n', f);
    }
    dc_plot_put_label(f, "effective / peak");
    fputc(',', f);
    dc_plot_put(f, e.effective);
    fputc(',', f);
    dc_plot_put(f, 100.0 * e.effective);
    fputc('\n', f);
    dc_plot_var_number(d, "nbars", DC_EFF_FACTORS + 1);
    dc_plot_var_number(d, "kernel", e.kernel);
    dc_plot_var_number(d, "kernel_known", kernel_known);
    dc_plot_var_number(d, "days", runs[0].end_s / 86400.0);
    return dc_plot_data_close(d, f, err);
}

/* ---- timeline --------------------------------------------------------------------- */

typedef struct fclass {
    char name[DC_EVENTLOG_COMPONENT_LEN];
    size_t failures, interrupts, first;
} fclass;

static int class_cmp(const void *a, const void *b)
{
    const fclass *x = a, *y = b;
    if (x->failures != y->failures)
        return x->failures < y->failures ? 1 : -1;
    return x->first < y->first ? -1 : x->first > y->first;
}

static int find_class(const fclass *c, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(c[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* The share of each state in each of TIMELINE_BINS bins of [0, end_s]: a
 * band that stays true when months hold thousands of minute-long phases. */
#define TIMELINE_BINS 600
#define N_STATES 7 /* job_state 0..6: pending ... done, detecting */

static int write_state_shares(const double *ts, const double *vs, size_t ns, double end_s, dc_plot_data *d,
                              dc_error *err)
{
    if (!(end_s > 0))
        end_s = ns ? ts[ns - 1] : 1.0;
    double w = end_s / TIMELINE_BINS;
    double(*share)[N_STATES] = calloc(TIMELINE_BINS, sizeof *share);
    if (!share)
        return nomem(err);
    for (size_t i = 0; i < ns; i++) {
        int s = (int)vs[i];
        if (s < 0 || s >= N_STATES)
            continue;
        double a = ts[i], b = i + 1 < ns ? ts[i + 1] : end_s;
        if (b > end_s)
            b = end_s;
        /* Bin by bin; the bin index only grows, so this ends even when
         * a / w rounds onto an edge. */
        size_t bin = (size_t)(a / w);
        while (a < b && bin < TIMELINE_BINS) {
            double edge = bin + 1 == TIMELINE_BINS ? end_s : (double)(bin + 1) * w;
            double e = b < edge ? b : edge;
            if (e > a)
                share[bin][s] += (e - a) / w;
            a = e > a ? e : a;
            bin++;
        }
    }
    FILE *f = dc_plot_data_open(d, "state_share.csv", err);
    if (!f) {
        free(share);
        return err->code;
    }
    fputs("# t_mid_s,width_s,pending,waiting,restarting,running,checkpointing,done,detecting (share of the bin)\n", f);
    for (size_t b = 0; b < TIMELINE_BINS; b++) {
        dc_plot_put(f, ((double)b + 0.5) * w);
        fputc(',', f);
        dc_plot_put(f, w);
        for (int s = 0; s < N_STATES; s++) {
            fputc(',', f);
            dc_plot_put(f, share[b][s]);
        }
        fputc('\n', f);
    }
    free(share);
    return dc_plot_data_close(d, f, err);
}

static int export_timeline(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err)
{
    (void)k;
    (void)n;
    const dc_plot_run *r = &runs[0];
    double *ts = NULL, *vs = NULL;
    size_t ns = 0;
    dc_eventlog *log = dc_eventlog_create();
    fclass *cls = NULL;
    FILE *f = NULL;
    int rc = DC_OK;
    if (!log) {
        rc = nomem(err);
        goto done;
    }
    if ((rc = dc_trace_read_series(r->trace, "job_state", &ts, &vs, &ns, err)) != DC_OK ||
        (rc = dc_trace_read_events(r->trace, log, err)) != DC_OK)
        goto done;

    /* The job's states as intervals [t0, t1), equal neighbours merged. */
    if (!(f = dc_plot_data_open(d, "states.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# t0_s,t1_s,state (0 pending, 1 waiting, 2 restarting, 3 running, 4 checkpointing, 5 done)\n", f);
    for (size_t i = 0; i < ns;) {
        size_t j = i + 1;
        while (j < ns && vs[j] == vs[i])
            j++;
        double t1 = j < ns ? ts[j] : r->end_s;
        if (t1 > ts[i]) {
            dc_plot_put(f, ts[i]);
            fputc(',', f);
            dc_plot_put(f, t1);
            fprintf(f, ",%d\n", (int)vs[i]);
        }
        i = j;
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;
    if ((rc = write_state_shares(ts, vs, ns, r->end_s, d, err)) != DC_OK)
        goto done;

    /* Failure classes, most frequent first. */
    size_t nrows = dc_eventlog_count(log);
    const dc_eventlog_row *rows = dc_eventlog_rows(log);
    cls = calloc(nrows + 1, sizeof *cls);
    if (!cls) {
        rc = nomem(err);
        goto done;
    }
    size_t nc = 0, n_interrupts = 0, n_checkpoints = 0;
    for (size_t i = 0; i < nrows; i++) {
        bool fail = strcmp(rows[i].kind, "failure") == 0;
        bool intr = strcmp(rows[i].kind, "interrupt") == 0;
        if (!fail && !intr)
            continue;
        const char *name = rows[i].component[0] ? rows[i].component : "other";
        int c = find_class(cls, nc, name);
        if (c < 0) {
            c = (int)nc++;
            snprintf(cls[c].name, sizeof cls[c].name, "%s", name);
            cls[c].first = i;
        }
        cls[c].failures += fail;
        cls[c].interrupts += intr;
    }
    qsort(cls, nc, sizeof *cls, class_cmp);

    FILE *ff = dc_plot_data_open(d, "failures.csv", err);
    FILE *fi = ff ? dc_plot_data_open(d, "interrupts.csv", err) : NULL;
    FILE *fc = fi ? dc_plot_data_open(d, "checkpoints.csv", err) : NULL;
    if (!fc) {
        if (ff)
            fclose(ff);
        if (fi)
            fclose(fi);
        rc = err->code;
        goto done;
    }
    fputs("# time_s,class (index in the array classes, from 1),node\n", ff);
    fputs("# time_s,class (index in the array classes, from 1),lost_gpu_h\n", fi);
    fputs("# time_s,write_s\n", fc);
    for (size_t i = 0; i < nrows; i++) {
        const dc_eventlog_row *e = &rows[i];
        bool fail = strcmp(e->kind, "failure") == 0;
        bool intr = strcmp(e->kind, "interrupt") == 0;
        if (fail || intr) {
            int c = find_class(cls, nc, e->component[0] ? e->component : "other");
            FILE *o = fail ? ff : fi;
            dc_plot_put(o, e->time_s);
            fprintf(o, ",%d,", c + 1);
            if (fail)
                fprintf(o, "%d\n", (int)e->id);
            else {
                dc_plot_put(o, e->value);
                fputc('\n', o);
                n_interrupts++;
            }
        } else if (strcmp(e->kind, "checkpoint") == 0) {
            dc_plot_put(fc, e->time_s);
            fputc(',', fc);
            dc_plot_put(fc, e->value);
            fputc('\n', fc);
            n_checkpoints++;
        }
    }
    int r1 = dc_plot_data_close(d, ff, err);
    int r2 = dc_plot_data_close(d, fi, err);
    int r3 = dc_plot_data_close(d, fc, err);
    if ((rc = r1 != DC_OK ? r1 : r2 != DC_OK ? r2 : r3) != DC_OK)
        goto done;

    const char **names = calloc(nc + 1, sizeof *names);
    double *counts = calloc(nc + 1, sizeof *counts);
    if (!names || !counts) {
        free(names);
        free(counts);
        rc = nomem(err);
        goto done;
    }
    for (size_t i = 0; i < nc; i++) {
        names[i] = cls[i].name;
        counts[i] = (double)cls[i].failures;
    }
    dc_plot_var_number(d, "nclasses", (double)nc);
    dc_plot_var_strings(d, "classes", names, nc);
    dc_plot_var_numbers(d, "class_failures", counts, nc);
    for (size_t i = 0; i < nc; i++)
        counts[i] = (double)cls[i].interrupts;
    dc_plot_var_numbers(d, "class_interrupts", counts, nc);
    dc_plot_var_number(d, "ninterrupts", (double)n_interrupts);
    dc_plot_var_number(d, "ncheckpoints", (double)n_checkpoints);
    dc_plot_var_number(d, "ettr", dc_plot_get(r->summary, "job.ettr"));
    free(names);
    free(counts);
    /* Two rows (job, checkpoints) and one per failure class. */
    dc_plot_set_height(d, 170 + 34 * (int)(nc + 2));
done:
    free(cls);
    free(ts);
    free(vs);
    dc_eventlog_destroy(log);
    return rc;
}

/* ---- nodes ------------------------------------------------------------------------ */

static int export_nodes(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    int rc = dc_plot_export_series(k, runs, n, d, err);
    if (rc != DC_OK)
        return rc;
    const dc_summary *s = runs[0].summary;
    double nodes = dc_plot_get(s, "cluster.nodes"), gpus = dc_plot_get(s, "cluster.gpus"), job_gpus = dc_plot_get(s, "job.gpus");
    double job_nodes = nodes > 0 && gpus > 0 ? job_gpus / (gpus / nodes) : NAN;
    dc_plot_var_number(d, "cluster_nodes", nodes);
    dc_plot_var_number(d, "job_nodes", job_nodes);
    dc_plot_var_number(d, "availability", dc_plot_get(s, "cluster.node_availability"));
    dc_plot_var_number(d, "repairs", dc_plot_get(s, "repair.completed"));
    dc_plot_var_number(d, "crew_utilization", dc_plot_get(s, "repair.crew_utilization"));
    return DC_OK;
}

/* ---- progress --------------------------------------------------------------------- */

/* job_progress is recorded where the work done changes at a change of the
 * job's state (so not while it restarts or waits), after any rollback.  The
 * line is rebuilt from three facts: the recorded values; at each interrupt,
 * the peak reached just before it (the value after the rollback plus the
 * work lost, the event's value in GPU-h, over the job's total work); and
 * the job's states: between two known values the work grows in proportion
 * to the time spent running (state 3) and not otherwise. */
typedef struct anchor {
    double t, before, after;
} anchor;

typedef struct runclock {
    const double *st, *sv;
    size_t ns, j;
    double acc; /* running time up to st[j] */
} runclock;

/* Running time from 0 to t; t never decreases between calls. */
static double running_until(runclock *c, double t)
{
    while (c->j + 1 < c->ns && c->st[c->j + 1] <= t) {
        if (c->sv[c->j] == 3.0)
            c->acc += c->st[c->j + 1] - c->st[c->j];
        c->j++;
    }
    if (c->ns == 0 || t < c->st[0])
        return 0.0;
    return c->acc + (c->sv[c->j] == 3.0 ? t - c->st[c->j] : 0.0);
}

static int export_progress(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err)
{
    (void)k;
    (void)n;
    const dc_plot_run *r = &runs[0];
    const dc_summary *s = r->summary;
    double *pt = NULL, *pv = NULL, *st = NULL, *sv = NULL;
    size_t np = 0, nst = 0;
    dc_eventlog *log = dc_eventlog_create();
    anchor *an = NULL;
    int rc = DC_OK;
    FILE *fp = NULL, *fr = NULL;
    if (!log) {
        rc = nomem(err);
        goto done;
    }
    if ((rc = dc_trace_read_series(r->trace, "job_progress", &pt, &pv, &np, err)) != DC_OK)
        goto done;
    bool has_events = false, has_state = false;
    dc_trace_has_dataset(r->trace, "/events", &has_events, err);
    dc_trace_has_dataset(r->trace, "/series/job_state", &has_state, err);
    if (has_events && (rc = dc_trace_read_events(r->trace, log, err)) != DC_OK)
        goto done;
    if (has_state && (rc = dc_trace_read_series(r->trace, "job_state", &st, &sv, &nst, err)) != DC_OK)
        goto done;

    double frac = dc_plot_get(s, "job.work_done_fraction");
    double work_gpu_h = frac > 0 ? dc_plot_get(s, "job.useful_gpu_h") / frac : NAN;
    const dc_eventlog_row *ev = dc_eventlog_rows(log);
    size_t ne = dc_eventlog_count(log);
    an = calloc(np + ne + 2, sizeof *an);
    if (!an) {
        rc = nomem(err);
        goto done;
    }
    /* Anchors: the recorded values and the interrupts, in time order. */
    size_t na = 0, i = 0, e = 0, n_roll = 0;
    double lost_total = 0.0, last = 0.0;
    while (i < np || e < ne) {
        bool take_event = e < ne && (i >= np || ev[e].time_s < pt[i]);
        if (!take_event) {
            if (na > 0 && an[na - 1].t == pt[i]) {
                an[na - 1].after = pv[i];
            } else {
                an[na++] = (anchor){pt[i], pv[i], pv[i]};
            }
            last = pv[i++];
            continue;
        }
        const dc_eventlog_row *x = &ev[e++];
        if (strcmp(x->kind, "interrupt") != 0 || !isfinite(work_gpu_h))
            continue;
        /* A value recorded at this instant is the one after the rollback. */
        double after = i < np && pt[i] == x->time_s ? pv[i] : last;
        double peak = after + (x->value > 0 ? x->value / work_gpu_h : 0.0);
        an[na++] = (anchor){x->time_s, peak, after};
        lost_total += x->value;
        n_roll += x->value > 0;
    }
    if (isfinite(frac) && r->end_s > (na ? an[na - 1].t : 0.0))
        an[na++] = (anchor){r->end_s, frac, frac};

    if (!(fp = dc_plot_data_open(d, "progress.csv", err)) || !(fr = dc_plot_data_open(d, "rollbacks.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# time_s,done_pct (work done, including work not yet saved by a checkpoint)\n", fp);
    fputs("# time_s,peak_pct,after_pct,lost_gpu_h\n", fr);
    runclock clk = {st, sv, nst, 0, 0.0};
    size_t j = 0; /* next state change to emit */
    for (size_t a = 0; a < na; a++) {
        const anchor *A = &an[a];
        if (a > 0) {
            /* The changes of state strictly between the previous anchor and this one. */
            const anchor *P = &an[a - 1];
            double r0 = running_until(&clk, P->t);
            runclock probe = clk;
            double r1 = running_until(&probe, A->t);
            while (j < nst && st[j] <= P->t)
                j++;
            for (; j < nst && st[j] < A->t; j++) {
                double rt = running_until(&clk, st[j]);
                double v = r1 > r0 ? P->after + (A->before - P->after) * (rt - r0) / (r1 - r0) : P->after;
                dc_plot_put(fp, st[j]);
                fputc(',', fp);
                dc_plot_put(fp, 100.0 * v);
                fputc('\n', fp);
            }
        }
        dc_plot_put(fp, A->t);
        fputc(',', fp);
        dc_plot_put(fp, 100.0 * A->before);
        fputc('\n', fp);
        if (A->after != A->before) {
            dc_plot_put(fp, A->t);
            fputc(',', fp);
            dc_plot_put(fp, 100.0 * A->after);
            fputc('\n', fp);
            dc_plot_put(fr, A->t);
            fprintf(fr, ",");
            dc_plot_put(fr, 100.0 * A->before);
            fputc(',', fr);
            dc_plot_put(fr, 100.0 * A->after);
            fprintf(fr, ",");
            dc_plot_put(fr, work_gpu_h * (A->before - A->after));
            fputc('\n', fr);
        }
    }
    int r1 = dc_plot_data_close(d, fp, err);
    int r2 = dc_plot_data_close(d, fr, err);
    fp = fr = NULL;
    if ((rc = r1 != DC_OK ? r1 : r2) != DC_OK)
        goto done;

    /* The job starts when it leaves "pending" (state 0). */
    double t0 = 0.0;
    for (size_t q = 0; q < nst; q++)
        if (sv[q] != 0.0) {
            t0 = st[q];
            break;
        }
    double done_days = dc_plot_get(s, "job.completion_days");
    dc_plot_var_number(d, "t0_s", t0);
    dc_plot_var_number(d, "ideal_s", dc_plot_get(s, "job.ideal_days") * 86400.0);
    dc_plot_var_number(d, "done_s", isfinite(done_days) ? t0 + done_days * 86400.0 : NAN);
    dc_plot_var_number(d, "nrollbacks", (double)n_roll);
    dc_plot_var_number(d, "lost_gpu_h", lost_total);
    dc_plot_var_number(d, "ettr", dc_plot_get(s, "job.ettr"));
    dc_plot_var_number(d, "done_pct", 100.0 * frac);
done:
    if (fp)
        fclose(fp);
    if (fr)
        fclose(fr);
    free(an);
    free(pt);
    free(pv);
    free(st);
    free(sv);
    dc_eventlog_destroy(log);
    return rc;
}

/* ---- sets of runs: against a parameter ------------------------------------------- */

/* Mean and 95% half-width of key over the runs idx[0..m) (NaN values skipped). */
stat95 dc_plot_stats(const dc_plot_run *runs, const size_t *idx, size_t m, const char *key, double scale)
{
    stat95 st = {NAN, 0.0, NAN, NAN, 0};
    double sum = 0.0;
    for (size_t i = 0; i < m; i++) {
        double v = dc_plot_get(runs[idx[i]].summary, key) * scale;
        if (!isfinite(v))
            continue;
        sum += v;
        st.lo = st.n == 0 || v < st.lo ? v : st.lo;
        st.hi = st.n == 0 || v > st.hi ? v : st.hi;
        st.n++;
    }
    if (st.n == 0)
        return st;
    st.mean = sum / (double)st.n;
    if (st.n > 1) {
        double ss = 0.0;
        for (size_t i = 0; i < m; i++) {
            double v = dc_plot_get(runs[idx[i]].summary, key) * scale;
            if (isfinite(v))
                ss += (v - st.mean) * (v - st.mean);
        }
        double sd = sqrt(ss / (double)(st.n - 1));
        st.half = gsl_cdf_tdist_Pinv(0.975, (double)(st.n - 1)) * sd / sqrt((double)st.n);
    }
    return st;
}

typedef struct xrun {
    double x;
    size_t i;
} xrun;

static int xrun_cmp(const void *a, const void *b)
{
    const xrun *p = a, *q = b;
    if (p->x != q->x)
        return p->x < q->x ? -1 : 1;
    return p->i < q->i ? -1 : p->i > q->i;
}

/* Calls row once per distinct x (ascending) with the indices of its runs. */
static int by_x(FILE *f, const dc_plot_run *runs, size_t n, const char *xkey, dc_plot_row_fn row, void *ctx,
                size_t *groups, double *xmin, double *xmax, dc_error *err)
{
    xrun *xs = malloc(n * sizeof *xs + 1);
    size_t *idx = malloc(n * sizeof *idx + 1);
    if (!xs || !idx) {
        free(xs);
        free(idx);
        return nomem(err);
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double x = dc_plot_get(runs[i].summary, xkey);
        if (isfinite(x))
            xs[m++] = (xrun){x, i};
    }
    qsort(xs, m, sizeof *xs, xrun_cmp);
    *groups = 0;
    *xmin = m ? xs[0].x : NAN;
    *xmax = m ? xs[m - 1].x : NAN;
    for (size_t a = 0; a < m;) {
        size_t b = a, k = 0;
        while (b < m && xs[b].x == xs[a].x)
            idx[k++] = xs[b++].i;
        row(f, ctx, xs[a].x, runs, idx, k);
        (*groups)++;
        a = b;
    }
    free(xs);
    free(idx);
    return DC_OK;
}

int dc_plot_export_by_x(dc_plot_data *d, const char *file, const char *header, const dc_plot_run *runs, size_t n,
                        const char *xkey, dc_plot_row_fn row, void *ctx, dc_error *err)
{
    FILE *f = dc_plot_data_open(d, file, err);
    if (!f)
        return err->code;
    fputs(header, f);
    size_t groups = 0;
    double xmin = NAN, xmax = NAN;
    int rc = by_x(f, runs, n, xkey, row, ctx, &groups, &xmin, &xmax, err);
    int rc2 = dc_plot_data_close(d, f, err);
    if (rc != DC_OK || rc2 != DC_OK)
        return rc != DC_OK ? rc : rc2;
    dc_plot_var_number(d, "npoints", (double)groups);
    dc_plot_var_number(d, "xmin", xmin);
    dc_plot_var_number(d, "xmax", xmax);
    dc_plot_var_number(d, "xlog", xmin > 0 && xmax / xmin >= 8.0 ? 1.0 : 0.0);
    dc_plot_var_number(d, "reps", groups ? (double)n / (double)groups : 0.0);
    return DC_OK;
}

static void put_stat(FILE *f, stat95 st)
{
    fputc(',', f);
    dc_plot_put(f, st.mean);
    fputc(',', f);
    dc_plot_put(f, st.n ? st.half : NAN);
    fprintf(f, ",%zu", st.n);
}

typedef struct ckpt_ctx {
    double best_x, best_ettr;
} ckpt_ctx;

static void ckpt_group(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m)
{
    ckpt_ctx *c = ctx;
    /* Daly's model is of time: with the step-time model, job.ettr also
     * carries the scaling efficiency, step.ettr_time is the time ratio. */
    bool timed = isfinite(dc_plot_get(runs[idx[0]].summary, "step.ettr_time"));
    stat95 e = dc_plot_stats(runs, idx, m, timed ? "step.ettr_time" : "job.ettr", 1.0);
    dc_plot_put(f, x);
    put_stat(f, e);
    fputc('\n', f);
    if (isfinite(e.mean) && (!isfinite(c->best_ettr) || e.mean > c->best_ettr)) {
        c->best_ettr = e.mean;
        c->best_x = x;
    }
}

/* The restart time R of the first-order and Daly curves: job.restart_s of
 * the scenario, else the mean time per (re)start measured in the run. */
static double restart_s(const dc_plot_run *r)
{
    double v;
    if (dc_plot_scenario_number(r->scenario_text, "job.restart_s", &v) == DC_OK)
        return v;
    double h = dc_plot_get(r->summary, "job.time_restarting_h"), k = dc_plot_get(r->summary, "job.interruptions");
    return isfinite(h) && isfinite(k) ? h * 3600.0 / (k + 1.0) : NAN;
}

static int export_checkpoint(const dc_plot_kind *kind, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err)
{
    (void)kind;
    ckpt_ctx c = {NAN, NAN};
    int rc = dc_plot_export_by_x(d, "checkpoint.csv", "# interval_s,ettr_mean,ettr_ci95,n (runs with the same interval pooled)\n",
                                 runs, n, "job.checkpoint_interval_s", ckpt_group, &c, err);
    if (rc != DC_OK)
        return rc;
    /* C, M and R: the model's inputs, the same in every run of a scan of the
     * interval (their mean otherwise). */
    size_t *all = calloc(n + 1, sizeof *all);
    if (!all)
        return nomem(err);
    for (size_t i = 0; i < n; i++)
        all[i] = i;
    stat95 C = dc_plot_stats(runs, all, n, "job.checkpoint_write_s", 1.0);
    stat95 M = dc_plot_stats(runs, all, n, "job.expected_mtbi_h", 3600.0);
    free(all);
    double R = 0.0;
    size_t nr = 0;
    for (size_t i = 0; i < n; i++) {
        double v = restart_s(&runs[i]);
        if (isfinite(v)) {
            R += v;
            nr++;
        }
    }
    dc_plot_var_number(d, "C", C.mean);
    dc_plot_var_number(d, "M", M.mean);
    dc_plot_var_number(d, "R", nr ? R / (double)nr : NAN);
    dc_plot_var_number(d, "best_s", c.best_x);
    dc_plot_var_number(d, "best_ettr", c.best_ettr);
    return DC_OK;
}

static void scale_group(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m)
{
    (void)ctx;
    dc_plot_put(f, x);
    put_stat(f, dc_plot_stats(runs, idx, m, "job.ettr", 1.0));
    put_stat(f, dc_plot_stats(runs, idx, m, "job.completion_days", 1.0));
    put_stat(f, dc_plot_stats(runs, idx, m, "job.ideal_days", 1.0));
    put_stat(f, dc_plot_stats(runs, idx, m, "job.interruptions", 1.0));
    fputc('\n', f);
}

static int export_scale(const dc_plot_kind *kind, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err)
{
    (void)kind;
    int rc = dc_plot_export_by_x(d, "scale.csv",
                                 "# gpus,ettr_mean,ettr_ci95,ettr_n,days_mean,days_ci95,days_n,ideal_days_mean,"
                                 "ideal_ci95,ideal_n,interruptions_mean,interruptions_ci95,interruptions_n "
                                 "(days: runs that finished)\n",
                                 runs, n, "job.gpus", scale_group, NULL, err);
    if (rc != DC_OK)
        return rc;
    size_t unfinished = 0;
    for (size_t i = 0; i < n; i++)
        unfinished += !(dc_plot_get(runs[i].summary, "job.completed") > 0);
    dc_plot_var_number(d, "unfinished", (double)unfinished);
    return DC_OK;
}

/* ---- sets of runs: side by side --------------------------------------------------- */

/* The headline figures a comparison may show (grouped bars, one panel
 * each): summary key, label, factor, unit.  The panels are those whose
 * values differ between the runs by more than 0.1% of the largest (air
 * against liquid cooling: PUE, energy, its cost; two fabrics: time to
 * train, ETTR, MFU), in this order, at most MAX_PANELS; when none differs,
 * the first four that the runs have. */
static const struct {
    const char *key, *label;
    double factor;
    const char *unit;
} main_figures[] = {
    {"job.ettr", "ETTR", 100.0, "%"},
    {"job.completion_days", "time to train", 1.0, "days"},
    {"job.interruptions", "job interruptions", 1.0, ""},
    {"cluster.node_availability", "node availability", 100.0, "%"},
    {"step.mfu", "effective MFU", 100.0, "%"},
    {"power.pue", "PUE", 1.0, ""},
    {"power.facility_energy_kwh", "facility energy", 1e-3, "MWh"},
    {"power.energy_cost_usd", "energy cost", 1e-6, "M USD"},
    {"power.carbon_kg", "carbon", 1e-3, "t CO2"},
    {"cooling.max_inlet_c", "hottest inlet", 1.0, "C"},
    {"cost.tco_usd", "total cost of ownership", 1e-6, "M USD"},
    {"cost.usd_per_useful_gpu_h", "cost per useful GPU-hour", 1.0, "USD"},
    {"inference.slo_attainment", "SLO attainment", 100.0, "%"},
    {"inference.e2e_p99_s", "end-to-end latency P99", 1.0, "s"},
};
#define N_MAIN (sizeof main_figures / sizeof main_figures[0])
#define MAX_PANELS 8

/* The indices into main_figures of the panels to draw; returns how many. */
static size_t pick_panels(const dc_plot_run *runs, size_t n, size_t *sel)
{
    size_t ns = 0;
    for (size_t j = 0; j < N_MAIN && ns < MAX_PANELS; j++) {
        double lo = INFINITY, hi = -INFINITY, big = 0.0;
        size_t have = 0;
        for (size_t r = 0; r < n; r++) {
            double v = dc_plot_get(runs[r].summary, main_figures[j].key);
            if (!isfinite(v))
                continue;
            have++;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
            big = fmax(big, fabs(v));
        }
        if (have > 0 && (have < n || hi - lo > 1e-3 * big))
            sel[ns++] = j;
    }
    if (ns > 0)
        return ns;
    for (size_t j = 0; j < N_MAIN && ns < 4; j++) {
        bool any = false;
        for (size_t r = 0; r < n && !any; r++)
            any = isfinite(dc_plot_get(runs[r].summary, main_figures[j].key));
        if (any)
            sel[ns++] = j;
    }
    return ns;
}

static int export_compare(const dc_plot_kind *kind, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                          dc_error *err)
{
    (void)kind;
    const size_t plen = strlen(DC_BREAKDOWN_PREFIX);
    /* The GPU-hour lines of every run, in order of first appearance;
     * "useful" is ETTR's business, the capacity the denominator. */
    size_t cap = 0;
    for (size_t r = 0; r < n; r++)
        cap += dc_summary_count(runs[r].summary);
    const char **lines = calloc(cap + 1, sizeof *lines);
    const char **labels = calloc(n + 1, sizeof *labels);
    if (!lines || !labels) {
        free(lines);
        free(labels);
        return nomem(err);
    }
    size_t nl = 0;
    for (size_t r = 0; r < n; r++) {
        const dc_summary *s = runs[r].summary;
        labels[r] = runs[r].label;
        for (size_t i = 0; i < dc_summary_count(s); i++) {
            const char *key = dc_summary_key(s, i);
            if (strncmp(key, DC_BREAKDOWN_PREFIX, plen) != 0 || strcmp(key, DC_BREAKDOWN_TOTAL) == 0 ||
                strcmp(key + plen, "useful") == 0)
                continue;
            bool seen = false;
            for (size_t j = 0; j < nl && !seen; j++)
                seen = strcmp(lines[j], key) == 0;
            if (!seen)
                lines[nl++] = key;
        }
    }
    int rc = DC_OK;
    FILE *f = dc_plot_data_open(d, "compare_lines.csv", err);
    if (!f) {
        rc = err->code;
        goto done;
    }
    fputs("# line,share_pct of run 1,share_pct of run 2,... (GPU-hours lost, % of the capacity)\n", f);
    for (size_t j = 0; j < nl; j++) {
        dc_plot_put_label(f, lines[j] + plen);
        for (size_t r = 0; r < n; r++) {
            double cap_h = dc_plot_get(runs[r].summary, DC_BREAKDOWN_TOTAL);
            double v = dc_plot_get(runs[r].summary, lines[j]);
            fputc(',', f);
            dc_plot_put(f, cap_h > 0 && isfinite(v) ? 100.0 * v / cap_h : 0.0);
        }
        fputc('\n', f);
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;

    if (!(f = dc_plot_data_open(d, "compare_main.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# figure,value of run 1,value of run 2,... (in the unit of the array main_units)\n", f);
    const char *mlabels[MAX_PANELS];
    const char *munits[MAX_PANELS];
    size_t sel[MAX_PANELS], ns = pick_panels(runs, n, sel), nm = 0;
    for (size_t q = 0; q < ns; q++) {
        size_t j = sel[q];
        mlabels[nm] = main_figures[j].label;
        munits[nm++] = main_figures[j].unit;
        dc_plot_put_label(f, main_figures[j].label);
        for (size_t r = 0; r < n; r++) {
            fputc(',', f);
            dc_plot_put(f, dc_plot_get(runs[r].summary, main_figures[j].key) * main_figures[j].factor);
        }
        fputc('\n', f);
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;
    /* The same, one row per bar (gnuplot 5.4 fails on a plot of labels
     * whose points are all missing, so a missing value is a 0 labelled n/a). */
    if (!(f = dc_plot_data_open(d, "compare_bars.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# figure (index in main_labels, from 1),run (from 1),value (0 when missing),text\n", f);
    for (size_t q = 0, m = 0; q < ns; q++) {
        size_t j = sel[q];
        m++;
        for (size_t r = 0; r < n; r++) {
            double v = dc_plot_get(runs[r].summary, main_figures[j].key) * main_figures[j].factor;
            fprintf(f, "%zu,%zu,", m, r + 1);
            dc_plot_put(f, isfinite(v) ? v : 0.0);
            if (isfinite(v))
                fprintf(f, fabs(v) >= 1000 ? ",%.0f\n" : ",%.3g\n", v);
            else
                fputs(",n/a\n", f);
        }
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;
    dc_plot_var_strings(d, "runs", labels, n);
    dc_plot_var_number(d, "nlines", (double)nl);
    dc_plot_var_number(d, "nmain", (double)nm);
    dc_plot_var_strings(d, "main_labels", mlabels, nm);
    dc_plot_var_strings(d, "main_units", munits, nm);
    if (nm > 4)
        dc_plot_set_height(d, 800);
done:
    free(lines);
    free(labels);
    return rc;
}

/* ---- the table -------------------------------------------------------------------- */

const dc_plot_kind dc_plot_kinds[] = {
    {"timeline", "timeline.gp", DC_PLOT_ONE, {"/series/job_state", "/events"}, export_timeline, {NULL},
     1000, 0, "the job's state over time, checkpoints, and failures by class (filled: the job was interrupted)"},
    {"nodes", "nodes.gp", DC_PLOT_ONE, {"/series/nodes_up", "/series/nodes_down", "/series/repair_queue"},
     export_nodes, {NULL}, 1000, 560, "healthy nodes, nodes down and the repair queue over time"},
    {"interruptions", "interruptions.gp", DC_PLOT_ONE, {"/summary/interruptions.*"}, dc_plot_export_bars,
     {"interruptions.", "job.interruptions", NULL}, 900, 0, "the job's interruptions by cause (bars)"},
    {"gpu_hours", "gpu_hours.gp", DC_PLOT_ONE, {"/summary/gpu_hours.*", "/summary/gpu_hours.capacity"},
     dc_plot_export_bars, {"gpu_hours.", "gpu_hours.capacity", NULL}, 900, 0,
     "where the GPU-hours went: useful work and each loss, share of the capacity (bars)"},
    {"efficiency", "efficiency.gp", DC_PLOT_ONE, {"/summary/gpu_hours.capacity"}, export_efficiency, {NULL}, 900,
     330, "effective compute as peak x device utilisation x network, data and scheduling efficiency, the biggest "
     "loss first (bars)"},
    {"progress", "progress.gp", DC_PLOT_ONE,
     {"/series/job_progress", "/summary/job.ideal_days", "/summary/job.work_done_fraction",
      "/summary/job.useful_gpu_h"},
     export_progress, {NULL}, 1000, 520, "the job's progress over time with its rollbacks, against no failures"},
    {"checkpoint", "checkpoint.gp", DC_PLOT_RUNS,
     {"/summary/job.checkpoint_interval_s", "/summary/job.ettr", "/summary/job.checkpoint_write_s",
      "/summary/job.expected_mtbi_h"},
     export_checkpoint, {NULL}, 1000, 560,
     "ETTR against the checkpoint interval, Young/Daly optimum and Daly's expected ETTR (several runs)"},
    {"scale", "scale.gp", DC_PLOT_RUNS, {"/summary/job.gpus", "/summary/job.ettr", "/summary/job.ideal_days"},
     export_scale, {NULL}, 1100, 500, "ETTR and time-to-train against the job's size in GPUs (several runs)"},
    {"compare", "compare.gp", DC_PLOT_RUNS, {"/summary/gpu_hours.capacity"}, export_compare, {NULL}, 1100, 600,
     "runs side by side: GPU-hours lost by cause and the headline figures (grouped bars)"},
    {"step", "step.gp", DC_PLOT_SOME, {"/summary/step.time_s", "/summary/step.compute_s"}, dc_plot_export_step,
     {NULL}, 1150, 520, "the training step's time by part: compute, pipeline bubble, exposed communication, data "
     "stall... (stacked bars; one per trace or scan point)"},
    {"scaling", "scaling.gp", DC_PLOT_RUNS,
     {"/summary/job.gpus", "/summary/job.ettr", "/summary/step.scaling_efficiency", "/summary/job.completion_days"},
     dc_plot_export_scaling, {NULL}, 1150, 520,
     "useful work per GPU and time-to-train against GPUs with the step-time model (several runs)"},
    {"mttf", "mttf.gp", DC_PLOT_RUNS, {"/summary/job.gpus", "/summary/job.mttf_h", "/summary/job.expected_mtbi_h"},
     dc_plot_export_mttf, {NULL}, 900, 560, "the job's mean time to failure against its size in GPUs (several runs)"},
    {"inference", "inference.gp", DC_PLOT_ONE,
     {"/series/inference_qps", "/series/inference_replicas", "/series/inference_utilization",
      "/series/inference_queue"},
     dc_plot_export_inference, {NULL}, 1000, 760, "an inference service over time: load, replicas, utilisation, queue"},
    {"latency", "latency.gp", DC_PLOT_SOME, {"/summary/inference.ttft_p50_s", "/summary/inference.e2e_p99_s"},
     dc_plot_export_latency, {NULL}, 1100, 450,
     "inference latency percentiles (P50, P90, P99, mean) of TTFT, TPOT and end-to-end, side by side"},
    {"waits", "waits.gp", DC_PLOT_SOME, {"/summary/jobs.gpus_1.wait_p50_h", "/summary/jobs.gpus_9_64.wait_p99_h"},
     dc_plot_export_waits, {NULL}, 1100, 450,
     "queue waits by job size (1, 2-4, 5-8, 9-64, >64 GPUs): P50, P90, P99 and mean, side by side"},
    {"cost", "cost.gp", DC_PLOT_SOME, {"/summary/cost.tco_usd", "/summary/cost.depreciation_usd"},
     dc_plot_export_cost, {NULL}, 1000, 560,
     "the total cost of ownership by line (stacked bars; one per trace or scan point)"},
    {"power", "power.gp", DC_PLOT_ONE,
     {"/series/power_it_w", "/series/power_cooling_w", "/series/power_facility_w", "/series/temp_inlet_c",
      "/series/temp_ambient_c", "/series/throttle"},
     dc_plot_export_power, {NULL}, 1000, 800,
     "IT, cooling and facility power, inlet and outdoor temperature, and throttling over time"},
    {"size", "size.gp", DC_PLOT_RUNS, {"/summary/job.gpus", "/summary/job.completion_days"}, dc_plot_export_size,
     {NULL}, 1150, 500,
     "P50/P90 of days to train and of TCO against the job's GPUs, the deadline and the answer (dcsim size --plot)"},
    {"histogram", "histogram.gp", DC_PLOT_SWEEP, {"/runs", "/stats"}, dc_plot_export_histogram, {NULL}, 1150, 500,
     "a sweep's Monte Carlo histogram and CDF of one figure (--metric) with P50 and P90 marked"},
    {"tornado", "tornado.gp", DC_PLOT_SWEEP, {"/sensitivity", "/inputs+"}, dc_plot_export_tornado, {NULL}, 1000, 0,
     "a sweep's tornado chart of one figure (--metric), or its rank correlations without /tornado"},
};

const size_t dc_plot_kind_count = sizeof dc_plot_kinds / sizeof dc_plot_kinds[0];
