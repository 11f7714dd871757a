/* Monte Carlo sweeps: a grid of scenario variants times N replications with uncertain inputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Monte Carlo sweeps: a grid of scenario variants times N replications.
 *
 * Grid.  Each --vary is an axis, "KEY=v1,v2,..." (any values --set takes) or
 * "KEY=lo:hi:step" (numbers lo, lo + step, ... up to hi, within 1e-9 steps;
 * step may be negative when hi < lo).  The grid is the Cartesian product of
 * the axes, the first axis varying slowest; a sweep without axes has one
 * grid point.  Grid point g's scenario is the file, then the --set
 * overrides, then its axis values (as --set), then validation: every grid
 * point is checked before anything runs.
 *
 * Replications.  Replication r of every grid point runs with the seed
 * s_r = base + r (base: the seed given, else the scenario's seed), and its
 * uncertain inputs are drawn from (s_r, stream) (uncertain.h): grid points
 * see the same failure arrivals wherever the models share a stream and the
 * same input values (common random numbers), so their differences are not
 * noise.  Row i = g x reps + r; rows are independent, so any split of them
 * over threads or MPI ranks gives the same numbers.
 *
 * A row holds, in this order: param.KEY (the grid point's value of each axis;
 * NaN when not a number), input.KEY (the value drawn for each uncertain
 * input), then every figure of the run's summary.  The results table puts
 * the rows side by side (columns in order of first appearance; a figure a
 * row lacks is NaN).
 *
 * Threads.  No global mutable state exists below cli/, and each worker has
 * its own copy of every grid point's scenario (parsed before the threads
 * start), so workers share nothing but the row counter and the results
 * array (each row written by one worker).  HDF5 is never called from them. */
#ifndef DC_SWEEP_H
#define DC_SWEEP_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "scenario.h"
#include "sim.h"
#include "summary.h"

/* The largest grid (points) accepted without force. */
#define DC_SWEEP_MAX_POINTS 1000
/* Limits even with force: they keep a typo from exhausting memory. */
#define DC_SWEEP_HARD_MAX_POINTS 1000000
#define DC_SWEEP_MAX_REPS 10000000
#define DC_SWEEP_MAX_ROWS 100000000

typedef int (*dc_sweep_build_fn)(const dc_scenario *sc, int64_t seed, dc_sim **out, dc_error *err);
/* A build whose models' setup polls a cancel flag (dc_build_cancellable):
 * a signal while a run is set up (seconds for a million jobs) stops it. */
typedef int (*dc_sweep_build_cancellable_fn)(const dc_scenario *sc, int64_t seed, const volatile sig_atomic_t *cancel,
                                             dc_sim **out, dc_error *err);

typedef struct dc_sweep_spec {
    const char *file;         /* scenario file; NULL: text */
    const char *text;         /* the scenario when file is NULL */
    const char *text_name;    /* its name in messages */
    const dc_param *const *schemas;
    dc_sweep_build_fn build;  /* dc_build (models/registry.h) */
    dc_sweep_build_cancellable_fn build_cancellable; /* optional: used for the runs once a cancel flag is set */
    const char *const *sets;
    size_t n_sets;
    const char *const *vary;
    size_t n_vary;
    size_t reps;
    int64_t seed;             /* < 0: the scenario's */
    bool force;               /* lift DC_SWEEP_MAX_POINTS */
    /* Optional, with build_cancellable: polled by dc_sweep_create's
     * validation builds too (a signal while the first grid point is set up
     * stops it: DC_EINTERNAL "interrupted"), and the runs' flag as
     * dc_sweep_set_cancel sets it. */
    const volatile sig_atomic_t *cancel;
} dc_sweep_spec;

typedef struct dc_sweep dc_sweep;

/* Parses the axes, builds and validates every grid point's scenario for
 * each of `workers` workers.  Input errors are DC_EINPUT with a message
 * naming the option or the file, line and key. */
int dc_sweep_create(const dc_sweep_spec *spec, size_t workers, dc_sweep **out, dc_error *err);
void dc_sweep_destroy(dc_sweep *sw);

size_t dc_sweep_points(const dc_sweep *sw);
size_t dc_sweep_reps(const dc_sweep *sw);
size_t dc_sweep_rows(const dc_sweep *sw);
uint64_t dc_sweep_seed(const dc_sweep *sw, size_t rep);

size_t dc_sweep_axes(const dc_sweep *sw);
const char *dc_sweep_axis_key(const dc_sweep *sw, size_t axis);
/* The value (as given to --set) of axis at grid point g, and as a number (NaN if not one). */
const char *dc_sweep_point_value(const dc_sweep *sw, size_t g, size_t axis);
double dc_sweep_point_number(const dc_sweep *sw, size_t g, size_t axis);

/* Grid point g's validated scenario (worker 0's copy): its uncertain
 * inputs, its text. */
const dc_scenario *dc_sweep_scenario(const dc_sweep *sw, size_t g);
/* Worker w's copy of grid point g's scenario (NULL past the ends): the
 * warnings of the runs it made are gathered there (sim/scenario.h). */
size_t dc_sweep_workers(const dc_sweep *sw);
const dc_scenario *dc_sweep_worker_scenario(const dc_sweep *sw, size_t w, size_t g);

/* Runs row i on worker w's scenarios and stores its result.  Safe to call
 * from several threads with distinct w. */
int dc_sweep_run_row(dc_sweep *sw, size_t w, size_t row, dc_error *err);

/* Runs the n rows listed on `threads` threads (the calling thread is one of
 * them, workers 0..threads-1); calls progress(ctx, done, n) from the calling
 * thread after each of its rows.  Stops at the first failed row and returns
 * its error. */
int dc_sweep_run(dc_sweep *sw, const size_t *rows, size_t n, size_t threads,
                 void (*progress)(void *ctx, size_t done, size_t total), void *ctx, dc_error *err);

/* Runs fn(fn_ctx, sw, w, k, err) for every k < n on `threads` threads: the
 * calling thread and threads-1 more, thread w using worker w's scenarios
 * (so fn may run grid points).  Progress as dc_sweep_run.  Stops at the
 * first failure and returns its error. */
typedef int (*dc_sweep_task_fn)(void *fn_ctx, dc_sweep *sw, size_t w, size_t k, dc_error *err);
int dc_sweep_parallel(dc_sweep *sw, size_t n, size_t threads, dc_sweep_task_fn fn, void *fn_ctx,
                      void (*progress)(void *ctx, size_t done, size_t total), void *ctx, dc_error *err);

/* Runs grid point g on worker w with the seed given and uncertain input i at
 * its quantile p[i] (no draw), and reads the figures named into out (NaN when
 * the run has none).  For one-at-a-time sensitivity (tornado.h). */
int dc_sweep_run_at(dc_sweep *sw, size_t w, size_t g, uint64_t seed, const double *p, const char *const *names,
                    size_t n_names, double *out, dc_error *err);

/* Whether row i has run (or been unpacked). */
bool dc_sweep_row_done(const dc_sweep *sw, size_t row);
/* How many figures a done row holds (0: not done). */
size_t dc_sweep_row_width(const dc_sweep *sw, size_t row);
/* The figure named key of row i; false if the row lacks it or has not run. */
bool dc_sweep_row_get(const dc_sweep *sw, size_t row, const char *key, double *value);

/* A row as text (one "KEY\tUNIT\tVALUE" line per figure, values in C99
 * hexadecimal floating point so that they read back exactly), for moving rows
 * between MPI ranks.  Appends to *buf (malloc'd, *len bytes used). */
int dc_sweep_row_pack(const dc_sweep *sw, size_t row, char **buf, size_t *len, size_t *cap);
/* Reads a packed row back as row i. */
int dc_sweep_row_unpack(dc_sweep *sw, size_t row, const char *text, size_t len, dc_error *err);

/* The results table. */
typedef struct dc_sweep_table {
    size_t n_rows, n_cols;
    char **names, **units;
    double *values; /* n_rows x n_cols, row-major */
} dc_sweep_table;

/* Every row must have run.  Columns in order of first appearance. */
int dc_sweep_table_build(const dc_sweep *sw, dc_sweep_table **out, dc_error *err);
/* The same for an interrupted sweep: a row that has not run is all NaN (the
 * statistics leave NaN out, so they are those of the rows done). */
int dc_sweep_table_build_partial(const dc_sweep *sw, dc_sweep_table **out, dc_error *err);

/* Interruption: once *flag is nonzero (a signal handler sets it), the
 * workers take no further row and dc_sweep_run returns DC_OK with the rows
 * done so far; rows already running finish. */
void dc_sweep_set_cancel(dc_sweep *sw, const volatile sig_atomic_t *flag);
size_t dc_sweep_rows_done(const dc_sweep *sw);
void dc_sweep_table_destroy(dc_sweep_table *t);
/* The column named name, or -1. */
long dc_sweep_table_column(const dc_sweep_table *t, const char *name);

#endif
