/* Figures from traces drawn by gnuplot with the scripts in plots/: kinds, data export, drawing.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Figures from traces, drawn by gnuplot with the scripts in plots/.
 *
 * A kind of figure is one row of dc_plot_kinds[] (plot_kinds.c): its name
 * (`dcsim plot --kind NAME`), its gnuplot script, whether it draws one
 * trace or a set of runs (several traces, or a scan that dcsim plot runs
 * itself), the datasets it needs, and the function that exports its data.
 * Adding a figure is one row there and one script in plots/; the generic
 * exporters cover most:
 *   dc_plot_export_series  each /series/NAME of the row's needs ->
 *                          NAME.csv (time_s,value), with a last row at the
 *                          end of the run so that step plots reach it;
 *   dc_plot_export_bars    the summary figures under the prefix arg[0]
 *                          (without the key arg[1], taken as the total) ->
 *                          bars.csv (label,value,share_pct), sorted from the
 *                          largest unless arg[2] is "keep".
 *
 * Rendering (dc_plot_render): a temporary directory receives the data
 * files and setup.gp (terminal, size, variables); gnuplot runs
 *   gnuplot setup.gp -e "set output 'OUT.tmp'" plots/style.gp plots/KIND.gp
 * and OUT.tmp is renamed to OUT only when gnuplot succeeded and wrote a
 * non-empty file; the directory is removed afterwards (kept with keep_dir).
 * Data files are comma-separated, their first line a '#' comment naming
 * the columns.  Variables every script gets: datadir (ends with '/'),
 * scenario, label, seed, nruns, fmt ("png", "svg", "pdf"), tscale (seconds
 * per time unit), tunit ("hours" or "days"), tend (end of the run in tunit).
 *
 * Terminals from the output's extension: .png pngcairo, .svg svg, .pdf
 * pdfcairo; sizes in pixels (PDF: pixels / 100 inches). */
#ifndef DC_PLOT_H
#define DC_PLOT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "error.h"
#include "summary.h"
#include "trace_read.h"

/* One run to draw: a trace, or only the summary of a run made in-process. */
typedef struct dc_plot_run {
    const char *label;         /* trace name, or "KEY=VALUE" for a scan point */
    dc_trace_file *trace;      /* NULL for a run made in-process */
    const dc_summary *summary;
    const char *scenario;      /* the scenario's name */
    const char *scenario_text; /* the effective scenario (libconfig), or NULL */
    uint64_t seed;
    double end_s;              /* simulated time */
    /* Runs with the same group are replications of one point of a scan
     * (figures that draw one bar per point pool them); NULL: its own. */
    const char *group;
} dc_plot_run;

typedef enum dc_plot_input {
    DC_PLOT_ONE,  /* one trace: series and events over time */
    DC_PLOT_RUNS, /* several runs: their summaries side by side or against a parameter */
    DC_PLOT_SOME, /* one trace, or several runs side by side (summaries only) */
    DC_PLOT_SWEEP, /* one sweep file (dcsim sweep): its /runs, /stats... tables */
} dc_plot_input;

typedef struct dc_plot_data dc_plot_data;
typedef struct dc_plot_kind dc_plot_kind;

typedef int (*dc_plot_export_fn)(const dc_plot_kind *k, const dc_plot_run *runs, size_t n,
                                 dc_plot_data *d, dc_error *err);

#define DC_PLOT_MAX_NEEDS 6

struct dc_plot_kind {
    const char *name;   /* --kind */
    const char *script; /* file in plots/ */
    dc_plot_input input;
    /* Datasets the figure needs: "/series/NAME", "/events", "/summary/KEY";
     * "/summary/PREFIX*" = at least one figure under PREFIX; "/TABLE+" = a
     * table with at least one row.  The runs of a scan have only a summary. */
    const char *needs[DC_PLOT_MAX_NEEDS];
    dc_plot_export_fn export_fn;
    const char *arg[3]; /* for the exporter */
    int width_px, height_px;
    const char *what; /* one line for --list and the README */
};

extern const dc_plot_kind dc_plot_kinds[];
extern const size_t dc_plot_kind_count;

const dc_plot_kind *dc_plot_kind_find(const char *name);

/* Checks that every run has what the kind needs: DC_EINPUT naming the trace
 * and the first missing dataset otherwise. */
int dc_plot_check(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_error *err);

/* The gnuplot terminal line for an output file name (by its extension:
 * .png, .svg, .pdf), or NULL for another extension.  fmt gets "png"... */
const char *dc_plot_terminal(const char *output, const char **fmt);

/* What a render leaves behind if the process dies in it, told as it comes
 * and goes so that a handler that ends the process (dcsim's second SIGINT
 * or SIGTERM, cli/interrupt.h) removes it first: the data directory (a
 * temporary one, not keep_dir), the temporary figure, and gnuplot, which
 * writes that figure by name and would write it again after its removal.
 * The render holds SIGINT and SIGTERM (the signals dcsim catches) from the
 * making of each to its telling, so that no signal falls between. */
typedef struct dc_plot_guard {
    /* path (a directory: dir) exists from now on (made), or is gone (!made) */
    void (*temp)(const char *path, bool dir, bool made);
    /* gnuplot runs as process pid; 0: it has ended */
    void (*child)(pid_t pid);
} dc_plot_guard;

typedef struct dc_plot_opts {
    const char *output;     /* the figure to write */
    const char *gnuplot;    /* the program */
    const char *script_dir; /* holding style.gp and the kinds' scripts */
    const char *keep_dir;   /* write the data and setup.gp here and keep them (NULL: a temporary directory) */
    const char *tmp_dir;    /* where temporary directories go (NULL: $TMPDIR or /tmp) */
    const char *metric;     /* the figure a sweep's kinds draw (--metric; NULL: their default) */
    /* Nonzero (a signal caught): draw nothing more; NULL: none.  Polled
     * before the figure's temporary file is made, every 10 ms while gnuplot
     * runs (gnuplot is then killed) and before the rename. */
    const volatile sig_atomic_t *cancel;
    const dc_plot_guard *guard; /* NULL: none */
} dc_plot_opts;

/* Checks, exports, runs gnuplot, renames the figure into place, cleans up.
 * A missing gnuplot, a gnuplot that fails (its messages are quoted) or
 * writes nothing: DC_EINPUT.  The output is never left half-written.
 * Stopped by the cancel flag: DC_EINTERNAL "interrupted", no figure
 * written (the previous file of that name untouched), nothing left. */
int dc_plot_render(const dc_plot_kind *k, const dc_plot_run *runs, size_t n,
                   const dc_plot_opts *opts, dc_error *err);

/* ---- for exporters ---------------------------------------------------------- */

/* Creates a data file NAME in the data directory (removed with it). */
FILE *dc_plot_data_open(dc_plot_data *d, const char *name, dc_error *err);
/* Closes a data file, DC_EIO if anything failed to be written. */
int dc_plot_data_close(dc_plot_data *d, FILE *f, dc_error *err);
/* gnuplot variables in setup.gp. */
void dc_plot_var_string(dc_plot_data *d, const char *name, const char *value);
void dc_plot_var_number(dc_plot_data *d, const char *name, double value);
/* array NAME[n] of strings or numbers. */
void dc_plot_var_strings(dc_plot_data *d, const char *name, const char *const *values, size_t n);
void dc_plot_var_numbers(dc_plot_data *d, const char *name, const double *values, size_t n);
/* The --metric of the figure (NULL if none was given). */
const char *dc_plot_metric(const dc_plot_data *d);
/* Overrides the kind's size (for figures that grow with their content). */
void dc_plot_set_height(dc_plot_data *d, int height_px);

/* Time unit for a run of end_s seconds: hours up to 4 days, days beyond. */
void dc_plot_time_unit(double end_s, double *scale_s, const char **unit);

/* The scenario's name: its "name" key, else the file's base name. */
char *dc_plot_scenario_name(const char *scenario_text, const char *scenario_file);
/* A number of the effective scenario text ("job.restart_s"); DC_EINPUT if
 * absent or not a number. */
int dc_plot_scenario_number(const char *scenario_text, const char *key, double *value);

/* Generic exporters (see above). */
int dc_plot_export_series(const dc_plot_kind *k, const dc_plot_run *runs, size_t n,
                          dc_plot_data *d, dc_error *err);
int dc_plot_export_bars(const dc_plot_kind *k, const dc_plot_run *runs, size_t n,
                        dc_plot_data *d, dc_error *err);

#endif
