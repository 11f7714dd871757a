/* Exporters of the figures of a sweep file: histogram and CDF of a figure, tornado.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Exporters of the figures of a sweep file (analysis/sweep_write.h for its
 * tables).  The figure drawn is --metric, by default the first figure of
 * /stats (the sweep's first reported figure).
 *
 * histogram: the values of the figure over the replications of each grid
 *   point, in bins common to every point: k = ceil(sqrt(n)) bins (n the
 *   replications of a point; at least 6, at most 40) of equal width over
 *   [min, max] of all values; each bar the share of its point's
 *   replications.  The empirical CDF, F(x_(i)) = i / n.  P50 and P90 are
 *   /stats' values for the figure (type-7 quantiles, analysis/stats.h);
 *   for a figure /stats does not hold, the same quantiles of /runs.
 * tornado: /tornado's rows for the figure (the value at each input's low
 *   and high quantile, the others at their base, sorted by swing), or
 *   without it /sensitivity's (Spearman rho and SRRC of each input). */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"
#include "plot_export.h"
#include "stats.h"
#include "table.h"

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

static const char *text(const dc_table *t, size_t row, long col)
{
    return col >= 0 && dc_table_column_type(t, (size_t)col) == DC_COL_TEXT ? dc_table_text(t, row, (size_t)col)
                                                                           : "";
}

/* Reads a table of the sweep; a missing one is DC_EINPUT naming it. */
static int read_table(dc_trace_file *f, const char *path, dc_table **out, dc_error *err)
{
    bool has = false;
    int rc = dc_trace_has_dataset(f, path, &has, err);
    if (rc != DC_OK)
        return rc;
    if (!has)
        return dc_error_set(err, DC_EINPUT, "sweep file '%s' has no dataset %s", dc_trace_filename(f), path);
    dc_table *t = dc_table_create();
    if (!t)
        return nomem(err);
    if ((rc = dc_trace_read_table(f, path, t, err)) != DC_OK) {
        dc_table_destroy(t);
        return rc;
    }
    *out = t;
    return DC_OK;
}

/* The labels of the grid points from /params (assignment), "all runs" for
 * a sweep without --vary.  labels[g] malloc'd. */
static int point_labels(dc_trace_file *f, size_t np, char ***out, dc_error *err)
{
    char **l = calloc(np + 1, sizeof *l);
    if (!l)
        return nomem(err);
    dc_table *p = NULL;
    bool has = false;
    if (dc_trace_has_dataset(f, "/params", &has, err) == DC_OK && has)
        read_table(f, "/params", &p, err);
    long cg = p ? dc_table_column_index(p, "grid_point") : -1, ca = p ? dc_table_column_index(p, "assignment") : -1;
    for (size_t g = 0; g < np; g++) {
        const char *a = "";
        for (size_t r = 0; p && r < dc_table_rows(p); r++)
            if (dc_table_number(p, r, cg) == (double)g)
                a = text(p, r, ca);
        l[g] = strdup(a[0] ? a : np == 1 ? "all runs" : "grid point");
        if (!l[g]) {
            for (size_t i = 0; i < g; i++)
                free(l[i]);
            free(l);
            dc_table_destroy(p);
            return nomem(err);
        }
    }
    dc_table_destroy(p);
    *out = l;
    return DC_OK;
}

static void free_labels(char **l, size_t n)
{
    for (size_t i = 0; l && i < n; i++)
        free(l[i]);
    free(l);
}

/* The figure to draw: --metric, else the first figure dcsim sweep printed
 * (the root attribute "metrics"), else the first figure of table t that
 * is neither a grid value (param.*) nor an input drawn (input.*).  *owned
 * is what the caller frees. */
static const char *metric_of(dc_plot_data *d, dc_trace_file *tf, const dc_table *t, char **owned)
{
    *owned = NULL;
    const char *m = dc_plot_metric(d);
    if (m && m[0])
        return m;
    dc_error ignored = {0};
    char *list = NULL;
    if (dc_trace_attr_string(tf, "metrics", &list, &ignored) == DC_OK && list[0]) {
        list[strcspn(list, ",")] = '\0';
        return *owned = list;
    }
    free(list);
    long c = dc_table_column_index(t, "figure");
    for (size_t r = 0; c >= 0 && r < dc_table_rows(t); r++) {
        const char *f = text(t, r, c);
        if (strncmp(f, "param.", 6) != 0 && strncmp(f, "input.", 6) != 0)
            return f;
    }
    return "";
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* ---- histogram and CDF ------------------------------------------------------------------ */

int dc_plot_export_histogram(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err)
{
    (void)k;
    (void)n;
    dc_trace_file *tf = runs[0].trace;
    dc_table *rt = NULL, *st = NULL;
    char *metric_owned = NULL;
    double **vals = NULL;
    size_t *nv = NULL, np = 0;
    char **labels = NULL;
    FILE *f = NULL;
    int rc = read_table(tf, "/runs", &rt, err);
    if (rc == DC_OK)
        rc = read_table(tf, "/stats", &st, err);
    if (rc != DC_OK)
        goto done;
    const char *metric = metric_of(d, tf, st, &metric_owned);
    long cm = dc_table_column_index(rt, metric), cg = dc_table_column_index(rt, "grid_point");
    if (cm < 0 || cg < 0 || dc_table_column_type(rt, (size_t)cm) == DC_COL_TEXT) {
        /* Name the figures that look like it: those under the same prefix
         * ("cost." for "cost.tcoo_usd"), else the first few. */
        const char *dot = strchr(metric, '.');
        size_t plen = dot ? (size_t)(dot - metric) + 1 : 0;
        char list[600] = "";
        for (int pass = 0; pass < 2 && !list[0]; pass++)
            for (size_t c = 0; c < dc_table_columns(rt); c++) {
                const char *name = dc_table_column_name(rt, c);
                size_t l = strlen(list);
                if (!strchr(name, '.') || !strncmp(name, "param.", 6) || !strncmp(name, "input.", 6) ||
                    (pass == 0 && (plen == 0 || strncmp(name, metric, plen) != 0)))
                    continue;
                if (l < 500)
                    snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", name);
                else if (!strstr(list, "..."))
                    snprintf(list + l, sizeof list - l, ", ...");
            }
        rc = dc_error_set(err, DC_EINPUT, "sweep file '%s' has no figure '%s' in /runs (figures: %s)",
                          dc_trace_filename(tf), metric, list);
        goto done;
    }
    /* The values of each grid point, sorted. */
    size_t rows = dc_table_rows(rt);
    for (size_t r = 0; r < rows; r++) {
        double g = dc_table_number(rt, r, cg);
        if (g >= 0 && (size_t)g + 1 > np)
            np = (size_t)g + 1;
    }
    vals = calloc(np + 1, sizeof *vals);
    nv = calloc(np + 1, sizeof *nv);
    if (!vals || !nv) {
        rc = nomem(err);
        goto done;
    }
    for (size_t g = 0; g < np; g++)
        if (!(vals[g] = malloc((rows + 1) * sizeof **vals))) {
            rc = nomem(err);
            goto done;
        }
    double lo = INFINITY, hi = -INFINITY;
    size_t nmax = 0;
    for (size_t r = 0; r < rows; r++) {
        double g = dc_table_number(rt, r, cg), v = dc_table_number(rt, r, cm);
        if (!(g >= 0) || !isfinite(v))
            continue;
        vals[(size_t)g][nv[(size_t)g]++] = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    for (size_t g = 0; g < np; g++) {
        qsort(vals[g], nv[g], sizeof **vals, cmp_double);
        nmax = nv[g] > nmax ? nv[g] : nmax;
    }
    if (nmax == 0) {
        rc = dc_error_set(err, DC_EINPUT, "sweep file '%s': the figure '%s' has no finite value in /runs",
                          dc_trace_filename(tf), metric);
        goto done;
    }
    if ((rc = point_labels(tf, np, &labels, err)) != DC_OK)
        goto done;

    /* Bins. */
    size_t nb = (size_t)ceil(sqrt((double)nmax));
    nb = nb < 6 ? 6 : nb > 40 ? 40 : nb;
    double w = (hi - lo) / (double)nb;
    if (!(w > 0)) { /* every value equal: one narrow bin around it */
        w = lo != 0 ? fabs(lo) * 0.01 : 1.0;
        lo -= w * (double)nb / 2.0;
    }
    if (!(f = dc_plot_data_open(d, "hist.csv", err))) {
        rc = err->code;
        goto done;
    }
    fprintf(f, "# bin_center,bin_width,share_pct of grid point 1,of 2,... (%s)\n", metric);
    for (size_t b = 0; b < nb; b++) {
        dc_plot_put(f, lo + ((double)b + 0.5) * w);
        fputc(',', f);
        dc_plot_put(f, w);
        for (size_t g = 0; g < np; g++) {
            size_t c = 0;
            for (size_t i = 0; i < nv[g]; i++) {
                size_t bin = (size_t)((vals[g][i] - lo) / w);
                c += (bin >= nb ? nb - 1 : bin) == b;
            }
            fputc(',', f);
            dc_plot_put(f, nv[g] ? 100.0 * (double)c / (double)nv[g] : 0.0);
        }
        fputc('\n', f);
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;
    if (!(f = dc_plot_data_open(d, "cdf.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# value,F (one block per grid point, blocks separated by two blank lines)\n", f);
    for (size_t g = 0; g < np; g++) {
        for (size_t i = 0; i < nv[g]; i++) {
            dc_plot_put(f, vals[g][i]);
            fputc(',', f);
            dc_plot_put(f, (double)(i + 1) / (double)nv[g]);
            fputc('\n', f);
        }
        if (nv[g] == 0)
            fputs("NaN,NaN\n", f);
        fputs("\n\n", f);
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;

    /* P50 and P90: /stats', else of /runs. */
    if (!(f = dc_plot_data_open(d, "quantiles.csv", err))) {
        rc = err->code;
        goto done;
    }
    fputs("# grid_point,p50,p90,n,source (stats: /stats; runs: computed from /runs)\n", f);
    long sg = dc_table_column_index(st, "grid_point"), sf = dc_table_column_index(st, "figure"),
         s50 = dc_table_column_index(st, "p50"), s90 = dc_table_column_index(st, "p90");
    const char *unit = "";
    long su = dc_table_column_index(st, "unit");
    for (size_t g = 0; g < np; g++) {
        double p50 = NAN, p90 = NAN;
        bool found = false;
        for (size_t r = 0; r < dc_table_rows(st) && !found; r++)
            if (dc_table_number(st, r, sg) == (double)g && strcmp(text(st, r, sf), metric) == 0) {
                p50 = dc_table_number(st, r, s50);
                p90 = dc_table_number(st, r, s90);
                unit = text(st, r, su);
                found = true;
            }
        if (!found && nv[g] > 0) {
            p50 = dc_stats_quantile_sorted(vals[g], nv[g], 0.5);
            p90 = dc_stats_quantile_sorted(vals[g], nv[g], 0.9);
        }
        fprintf(f, "%zu,", g);
        dc_plot_put(f, p50);
        fputc(',', f);
        dc_plot_put(f, p90);
        fprintf(f, ",%zu,%s\n", nv[g], found ? "stats" : "runs");
    }
    if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
        goto done;
    f = NULL;
    dc_plot_var_string(d, "metric", metric);
    dc_plot_var_string(d, "unit", unit);
    dc_plot_var_number(d, "npoints", (double)np);
    dc_plot_var_strings(d, "points", (const char *const *)labels, np);
    dc_plot_var_number(d, "nbins", (double)nb);
    dc_plot_var_number(d, "reps", (double)nmax);
    dc_plot_var_number(d, "xlo", lo);
    dc_plot_var_number(d, "xhi", lo + w * (double)nb);
done:
    if (f && rc != DC_OK)
        fclose(f);
    for (size_t g = 0; vals && g < np; g++)
        free(vals[g]);
    free(vals);
    free(nv);
    free_labels(labels, np);
    dc_table_destroy(rt);
    dc_table_destroy(st);
    free(metric_owned);
    return rc;
}

/* ---- tornado / sensitivity ------------------------------------------------------------- */

typedef struct trow {
    const char *input;
    double a, b, base, key; /* tornado: at_lo, at_hi, base, swing; sensitivity: rho, srrc, -, |rho| */
    double p_lo, p_hi;
} trow;

static int trow_cmp(const void *x, const void *y)
{
    const trow *p = x, *q = y;
    return p->key < q->key ? 1 : p->key > q->key ? -1 : strcmp(p->input, q->input);
}

#define TORNADO_PANELS 4

int dc_plot_export_tornado(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err)
{
    (void)k;
    (void)n;
    dc_trace_file *tf = runs[0].trace;
    bool tornado = false;
    int rc = dc_trace_has_dataset(tf, "/tornado", &tornado, err);
    if (rc != DC_OK)
        return rc;
    dc_table *t = NULL;
    trow *rows = NULL;
    char **labels = NULL;
    char *metric_owned = NULL;
    size_t np = 0;
    if ((rc = read_table(tf, tornado ? "/tornado" : "/sensitivity", &t, err)) != DC_OK)
        return rc;
    const char *metric = metric_of(d, tf, t, &metric_owned);
    long cg = dc_table_column_index(t, "grid_point"), cf = dc_table_column_index(t, "figure"),
         ci = dc_table_column_index(t, "input");
    long ca = dc_table_column_index(t, tornado ? "at_lo" : "spearman"),
         cb = dc_table_column_index(t, tornado ? "at_hi" : "srrc");
    long cbase = dc_table_column_index(t, "base"), cs = dc_table_column_index(t, "swing"),
         cpl = dc_table_column_index(t, "p_lo"), cph = dc_table_column_index(t, "p_hi");
    size_t nr = dc_table_rows(t);
    bool any = false;
    for (size_t r = 0; r < nr; r++) {
        double g = dc_table_number(t, r, cg);
        if (strcmp(text(t, r, cf), metric) == 0 && g >= 0) {
            any = true;
            np = (size_t)g + 1 > np ? (size_t)g + 1 : np;
        }
    }
    if (!any) {
        rc = dc_error_set(err, DC_EINPUT, "sweep file '%s' has no rows for the figure '%s' in %s",
                          dc_trace_filename(tf), metric, tornado ? "/tornado" : "/sensitivity");
        goto done;
    }
    size_t panels = np < TORNADO_PANELS ? np : TORNADO_PANELS;
    if (!(rows = calloc(nr + 1, sizeof *rows))) {
        rc = nomem(err);
        goto done;
    }
    if ((rc = point_labels(tf, np, &labels, err)) != DC_OK)
        goto done;
    size_t most = 0;
    double bases[TORNADO_PANELS], plo = NAN, phi = NAN;
    for (size_t g = 0; g < panels; g++) {
        size_t m = 0;
        bases[g] = NAN;
        for (size_t r = 0; r < nr; r++) {
            if (dc_table_number(t, r, cg) != (double)g || strcmp(text(t, r, cf), metric) != 0)
                continue;
            trow *x = &rows[m++];
            x->input = text(t, r, ci);
            x->a = dc_table_number(t, r, ca);
            x->b = dc_table_number(t, r, cb);
            x->base = tornado ? dc_table_number(t, r, cbase) : 0.0;
            x->key = tornado ? dc_table_number(t, r, cs) : fabs(x->a);
            x->p_lo = dc_table_number(t, r, cpl);
            x->p_hi = dc_table_number(t, r, cph);
            if (!isfinite(x->key))
                x->key = -1.0;
            bases[g] = x->base;
            plo = x->p_lo;
            phi = x->p_hi;
        }
        qsort(rows, m, sizeof *rows, trow_cmp);
        most = m > most ? m : most;
        char file[64];
        snprintf(file, sizeof file, "tornado_%zu.csv", g + 1);
        FILE *f = dc_plot_data_open(d, file, err);
        if (!f) {
            rc = err->code;
            goto done;
        }
        fputs(tornado ? "# input,at_lo,at_hi,base,swing,p_lo,p_hi (the largest swing first)\n"
                      : "# input,spearman,srrc (the largest |spearman| first)\n",
              f);
        for (size_t i = 0; i < m; i++) {
            dc_plot_put_label(f, rows[i].input);
            fputc(',', f);
            dc_plot_put(f, rows[i].a);
            fputc(',', f);
            dc_plot_put(f, rows[i].b);
            if (tornado) {
                fputc(',', f);
                dc_plot_put(f, rows[i].base);
                fputc(',', f);
                dc_plot_put(f, rows[i].key);
                fputc(',', f);
                dc_plot_put(f, rows[i].p_lo);
                fputc(',', f);
                dc_plot_put(f, rows[i].p_hi);
            }
            fputc('\n', f);
        }
        if ((rc = dc_plot_data_close(d, f, err)) != DC_OK)
            goto done;
    }
    dc_plot_var_string(d, "mode", tornado ? "tornado" : "sensitivity");
    dc_plot_var_string(d, "metric", metric);
    dc_plot_var_number(d, "npanels", (double)panels);
    dc_plot_var_number(d, "npoints", (double)np);
    dc_plot_var_number(d, "ninputs", (double)most);
    dc_plot_var_strings(d, "points", (const char *const *)labels, panels);
    dc_plot_var_numbers(d, "bases", bases, panels);
    dc_plot_var_number(d, "p_lo", plo);
    dc_plot_var_number(d, "p_hi", phi);
    dc_plot_set_height(d, 130 + (int)panels * (80 + 32 * (int)most));
done:
    free(rows);
    free_labels(labels, np);
    dc_table_destroy(t);
    free(metric_owned);
    return rc;
}
