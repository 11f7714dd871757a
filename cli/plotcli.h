/* The commands over traces (plot, export, compare) and what they share.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The commands over traces (plot, export, compare) and what they share:
 * opening a trace as a run to plot, finding gnuplot and the scripts. */
#ifndef DC_PLOTCLI_H
#define DC_PLOTCLI_H

#include <stdbool.h>

#include "error.h"
#include "plot.h"
#include "summary.h"

int dc_cmd_plot(int argc, char **argv);
int dc_cmd_export(int argc, char **argv);
int dc_cmd_compare(int argc, char **argv);

/* A trace opened as a run to plot, owning what the run points to. */
typedef struct dc_cli_run {
    dc_plot_run run;
    dc_trace_file *trace;
    dc_summary *summary;
    char *label, *scenario, *text;
} dc_cli_run;

/* Opens path and reads its summary and attributes; label is the file's
 * base name without ".h5". */
int dc_cli_run_open(const char *path, dc_cli_run *r, dc_error *err);
void dc_cli_run_close(dc_cli_run *r);
/* Whether path is a sweep file (dcsim sweep: root attribute kind = "sweep"). */
bool dc_cli_is_sweep(const char *path);
/* Labels runs by base name, or by path where two base names are equal. */
void dc_cli_run_label(dc_cli_run *runs, size_t n, const char *const *paths);

/* dc_plot_render under dcsim's handling of SIGINT and SIGTERM (cli/interrupt.h):
 * the first signal stops the figure (o->cancel: gnuplot killed, nothing
 * written), a second kills dcsim at once with the figure's temporary file,
 * its data directory and gnuplot gone first (o->guard).  When the command
 * had no handlers before, the signals' default action is back afterwards
 * (the rest of the command ends at once, as before the drawing). */
int dc_cli_draw(const dc_plot_kind *k, const dc_plot_run *runs, size_t n, dc_plot_opts *o, dc_error *err);

/* gnuplot: $DCSIM_GNUPLOT, else the program configure found. */
const char *dc_cli_gnuplot(void);
/* The directory of the gnuplot scripts: $DCSIM_PLOTS; else the source
 * tree's plots/ for the dcsim of the build tree; else the installed
 * DATADIR/plots.  Malloc'd. */
char *dc_cli_plot_dir(void);

#endif
