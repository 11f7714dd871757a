/* The exporters of the figure kinds that live outside plot_kinds.c, and the helpers they share.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The exporters of the kinds of figure that live outside plot_kinds.c
 * (each writes the data files named in its script's header comment):
 *   plot_models.c  the models' figures: step-time breakdown, scaling of
 *                  the useful work, MTTF against job size, inference
 *                  service and latency, cost breakdown, power and cooling,
 *                  queue waits by job size;
 *   plot_size.c    the curve of a sizing search (dcsim size);
 *   plot_sweep.c   the figures of a sweep file: histogram and CDF of a
 *                  figure over the replications, tornado / sensitivity.
 * And what the exporters share: summary look-ups, number formatting, the
 * groups of replications of a scan. */
#ifndef DC_PLOT_EXPORT_H
#define DC_PLOT_EXPORT_H

#include <stdio.h>

#include "plot.h"

int dc_plot_export_step(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err);
int dc_plot_export_scaling(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err);
int dc_plot_export_mttf(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err);
int dc_plot_export_inference(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err);
int dc_plot_export_latency(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err);
int dc_plot_export_waits(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                         dc_error *err);
int dc_plot_export_cost(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err);
int dc_plot_export_power(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                         dc_error *err);
int dc_plot_export_size(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                        dc_error *err);
int dc_plot_export_histogram(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                             dc_error *err);
int dc_plot_export_tornado(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_data *d,
                           dc_error *err);

/* ---- shared -------------------------------------------------------------------- */

/* A summary figure, NaN when absent. */
double dc_plot_get(const dc_summary *s, const char *key);
/* v for a data file: NaN for a non-finite value (a missing point). */
void dc_plot_put(FILE *f, double v);
/* A label for a data file: no commas, no line breaks. */
void dc_plot_put_label(FILE *f, const char *s);

/* The points of a set of runs: runs with equal non-NULL group are one
 * point (replications), in order of first appearance.  first[p] is the
 * first run of point p; member[i] the point of run i.  Malloc'd arrays. */
int dc_plot_points(const dc_plot_run *runs, size_t n, size_t **first, size_t **member, size_t *np,
                   dc_error *err);
/* The mean of key over the runs of point p (NaN values left out). */
double dc_plot_point_mean(const dc_plot_run *runs, size_t n, const size_t *member, size_t p, const char *key);

/* Mean and 95% half-width (Student t, n - 1 degrees of freedom; 0 for one
 * run) of key x scale over the runs idx[0..m), NaN values left out. */
typedef struct stat95 {
    double mean, half, lo, hi;
    size_t n;
} stat95;
stat95 dc_plot_stats(const dc_plot_run *runs, const size_t *idx, size_t m, const char *key, double scale);

/* Calls write(trace, NAME, end_s, d, err) for every /series/NAME the kind
 * needs, on the first run: the figures of one run over time. */
typedef int (*dc_plot_series_fn)(dc_trace_file *t, const char *name, double end_s, dc_plot_data *d, dc_error *err);
int dc_plot_each_series(const dc_plot_kind *k, const dc_plot_run *run, dc_plot_series_fn write, dc_plot_data *d,
                        dc_error *err);

/* One data file of a set of runs grouped by the summary figure xkey: a
 * header line, then row(f, ctx, x, ...) once per distinct x (ascending)
 * with the indices of its runs (runs without the figure are left out).
 * Sets the variables npoints, xmin, xmax, xlog (1 when x spans a factor of
 * 8 or more) and reps (runs per point), which every such figure draws by. */
typedef void (*dc_plot_row_fn)(FILE *f, void *ctx, double x, const dc_plot_run *runs, const size_t *idx, size_t m);
int dc_plot_export_by_x(dc_plot_data *d, const char *file, const char *header, const dc_plot_run *runs, size_t n,
                        const char *xkey, dc_plot_row_fn row, void *ctx, dc_error *err);

#endif
