/* Any dataset of a trace as CSV, for other tools: the interface of dcsim export.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Any dataset of a trace as CSV, for people who use other tools
 * (`dcsim export TRACE.h5 PATH`).  PATH (the leading '/' may be left out):
 *   /summary          key,value,unit: every figure, in summary order
 *   /summary/KEY      the same table with the one figure
 *   /events           time_s,kind,component,id,job,value
 *   /series/NAME      time_s,value (the names in the dataset's "columns")
 *   any other dataset a table read by dc_trace_read_table (compound tables
 *                     such as a sweep's /runs, numeric arrays).
 * Values are written so that they read back to the same doubles (table.h).
 * An unknown PATH is DC_EINPUT with a message listing what the trace has. */
#ifndef DC_EXPORT_H
#define DC_EXPORT_H

#include <stdio.h>

#include "error.h"
#include "summary.h"
#include "table.h"
#include "trace_read.h"

int dc_export_csv(dc_trace_file *t, const char *path, FILE *out, dc_error *err);

/* The table behind dc_export_csv (out: a table without columns). */
int dc_export_table(dc_trace_file *t, const char *path, dc_table *out, dc_error *err);

/* The paths dc_export_csv accepts for this trace, one per line, each
 * /summary/KEY folded into /summary. */
int dc_export_list(dc_trace_file *t, FILE *out, dc_error *err);

/* A summary as the key,value,unit table (only the keys starting with
 * prefix, or all of them when prefix is NULL or ""). */
int dc_export_summary_table(const dc_summary *s, const char *prefix, dc_table *out, dc_error *err);

#endif
