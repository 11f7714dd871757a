/* The HDF5 file of a sweep: its layout (/runs, /params, /stats, /risk, /sensitivity) and writer.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The HDF5 file of a sweep (readable with h5dump, h5py, pandas:
 * pandas.DataFrame(h5py.File(f)["runs"][:]) is the runs table).
 *
 *   /              attributes: dcsim_version, format_version (int), kind =
 *                  "sweep", scenario (the scenario file's text), scenario_file,
 *                  command (the command line), seed (uint64: replication r
 *                  ran with seed + r), reps, grid_points (uint64), started_at
 *   /runs          one row per grid point and replication, in that order
 *                  (row = grid_point x reps + replication): grid_point (i4),
 *                  replication (i4), seed (u8), then one f8 field per column of
 *                  the results table: param.KEY, input.KEY, every summary
 *                  figure; attribute "units" (one string per field)
 *   /params        one row per grid point: grid_point, one f8 field per --vary
 *                  key (NaN for values that are not numbers), assignment
 *                  (string: "KEY=VALUE, ...")
 *   /inputs        one row per uncertain input: key, stream, distribution,
 *                  unit (strings), p5, p50, p95 (f8: its quantiles)
 *   /stats         one row per grid point and figure: grid_point, figure,
 *                  unit, n (finite values), mean, sd, ci95_lo, ci95_hi, p5,
 *                  p50, p90, p95, p99
 *   /risk          one row per grid point: grid_point, missed, counted (i4),
 *                  p_missed, p_missed_lo, p_missed_hi (Wilson 95%), var, cvar;
 *                  attributes risk_figure, var_level, missed_means
 *   /sensitivity   one row per grid point, figure and input: grid_point,
 *                  figure, input, keys (i4: keys sharing the input's stream),
 *                  spearman, srrc, r2
 *   /tornado       (with --tornado) one row per grid point, figure and input:
 *                  grid_point, figure, input, p_lo, p_hi, base, at_lo, at_hi,
 *                  swing; attribute reps
 * Strings in tables are fixed-length, NUL-padded; numbers little-endian.
 * Nothing in /runs depends on the number of threads or MPI ranks or on the
 * time of the run, so equal sweeps give byte-identical /runs datasets.  The
 * file is written under a temporary name (NAME.tmp.PID) and renamed when
 * complete. */
#ifndef DC_SWEEP_WRITE_H
#define DC_SWEEP_WRITE_H

#include "error.h"
#include "outfile.h"
#include "sweep.h"
#include "sweep_report.h"
#include "tornado.h"

#define DC_SWEEP_FORMAT_VERSION 1

typedef struct dc_sweep_meta {
    const char *dcsim_version;
    const char *scenario_text;
    const char *scenario_file;
    const char *command;
    const char *started_at;
    /* Interrupted (SIGINT/SIGTERM): root attribute complete = 0 and
     * rows_done < rows; rows that have not run are NaN in /results. */
    bool incomplete;
} dc_sweep_meta;

/* Opens path as an output (sim/outfile.h), writes and commits it; tornado
 * may be NULL (no /tornado table). */
int dc_sweep_write(const char *path, const dc_sweep_meta *meta, const dc_sweep *sw, const dc_sweep_table *t,
                   const dc_sweep_report *r, const dc_tornado *tornado, dc_error *err);
/* The same into an output the caller opened (and commits or aborts). */
int dc_sweep_write_to(dc_outfile *out, const dc_sweep_meta *meta, const dc_sweep *sw, const dc_sweep_table *t,
                      const dc_sweep_report *r, const dc_tornado *tornado, dc_error *err);

#endif
