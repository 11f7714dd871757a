/* The HDF5 trace of one run: its layout and writer.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* HDF5 trace of one run.  Layout (readable with h5dump, h5py, pandas):
 *   /                 attributes: dcsim_version, format_version (int),
 *                     scenario (the effective scenario text), scenario_file,
 *                     seed (uint64), horizon_s, end_s, started_at (ISO 8601 UTC)
 *   /summary          compound table, one row per summary figure in summary
 *                     order: name, value (f8), unit, doc (fixed-length
 *                     UTF-8 strings as long as the longest)
 *   /series_index     compound table, one row per time series: name, unit,
 *                     doc, start (i8), count (i8)
 *   /series           float64 array of shape (n, 2), columns time_s, value:
 *                     every series' points one after the other, series i
 *                     in rows start_i .. start_i + count_i - 1;
 *                     attributes "columns", "doc"
 *   /events           compound table: time_s (f8), kind (S16), component (S24),
 *                     id (i4), job (i4), value (f8)
 *   /NAME             each table of meta->tables (rowtable.h, for example
 *                     /jobs: one row per job) as a compound dataset, its
 *                     members the columns (f8, i4, fixed-length strings);
 *                     attributes "doc", "units" (one per column, joined by
 *                     commas) and "column_docs" (one "name: doc" per line)
 * Storage (not part of what readers see): a dataset whose rows are all
 * written at the end, uncompressed and not empty, is contiguous, of fixed
 * size; one streamed during the run, compressed (trace.compress) or empty
 * is chunked (64 KiB), with an unlimited row dimension.
 * The file is written under a temporary name in the same directory
 * (NAME.tmp.PID.N, sim/outfile.h) and renamed over NAME only when complete,
 * so a failure never leaves a half-written file under the final name, and
 * an earlier file of that name survives a failed write. */
#ifndef DC_TRACE_H
#define DC_TRACE_H

#include <stdint.h>

#include "error.h"
#include "eventlog.h"
#include "outfile.h"
#include "rowtable.h"
#include "series.h"
#include "summary.h"

/* 2: /summary, /series and /series_index as above; 1 (dcsim before
 * 2026-12): /summary/KEY scalar datasets with attributes unit and doc,
 * /summary_table, /series/NAME (n, 2) datasets with attributes unit, doc,
 * columns.  analysis/trace_read.c reads both. */
#define DC_TRACE_FORMAT_VERSION 2
#define DC_TRACE_FORMAT_OLDEST 1

typedef struct dc_trace_meta {
    const char *dcsim_version;
    const char *scenario_text;
    const char *scenario_file;
    uint64_t seed;
    double horizon_s;
    double end_s;
    const char *started_at;
    int compression_level; /* 0 = none, 1-9 = deflate */
    const dc_rowtable_set *tables; /* NULL: no tables */
    const char *warnings;          /* the scenario's warnings, one per line (NULL or "": none, no attribute) */
} dc_trace_meta;

/* Checks, before a run, that path can be a trace (sim/outfile.h: not a
 * directory, link, FIFO...; its directory exists and is writable).  Leaves
 * no file behind.  DC_EIO or DC_EINPUT with a message otherwise. */
int dc_trace_check_writable(const char *path, dc_error *err);

/* Opens path as an output, writes the trace and commits it. */
int dc_trace_write(const char *path, const dc_trace_meta *meta,
                   const dc_summary *summary, const dc_series_set *series,
                   const dc_eventlog *events, dc_error *err);
/* Writes the trace into an output the caller opened (and commits or
 * aborts: a command that must clean up on a signal holds its name). */
int dc_trace_write_to(dc_outfile *out, const dc_trace_meta *meta, const dc_summary *summary,
                      const dc_series_set *series, const dc_eventlog *events, dc_error *err);

/* A trace whose big tables stream into it during the run: opened before
 * the run (the file in memory, sim/h5image.h), it takes the rows of every
 * table of tables and of log as they fill 16 chunks of 64 KiB (rowtable.h,
 * eventlog.h sinks; the datasets' chunks stay 64 KiB), so that a row costs
 * its bytes in the file's image only and is not kept in memory as well; dc_trace_stream_write_to then writes the
 * rest and the image (the same datasets and values as dc_trace_write_to).
 * path: for messages; compression_level as meta's.  A failure while
 * streaming is reported by dc_trace_stream_write_to.  destroy detaches
 * the sinks (call it before the tables and the log go). */
typedef struct dc_trace_stream dc_trace_stream;
dc_trace_stream *dc_trace_stream_open(const char *path, int compression_level, dc_rowtable_set *tables,
                                      dc_eventlog *log, dc_error *err);
int dc_trace_stream_write_to(dc_trace_stream *ts, dc_outfile *out, const dc_trace_meta *meta,
                             const dc_summary *summary, const dc_series_set *series, const dc_eventlog *events,
                             dc_error *err);
void dc_trace_stream_destroy(dc_trace_stream *ts);

#endif
