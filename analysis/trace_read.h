/* Reading a trace written by sim/trace.c back, for report, compare, plot and tests.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Reading a trace written by sim/trace.c back (dcsim report, compare, plot,
 * tests).  Every function checks what it reads and reports a missing
 * dataset or a file that is not a dcsim trace as DC_EINPUT naming the file
 * and the dataset; HDF5's own error printing is switched off. */
#ifndef DC_TRACE_READ_H
#define DC_TRACE_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "eventlog.h"
#include "summary.h"
#include "table.h"

typedef struct dc_trace_file dc_trace_file;

dc_trace_file *dc_trace_open(const char *path, dc_error *err);
void dc_trace_close(dc_trace_file *t);

/* Root attributes.  *out is malloc'd for strings. */
int dc_trace_attr_string(dc_trace_file *t, const char *name, char **out, dc_error *err);
int dc_trace_attr_double(dc_trace_file *t, const char *name, double *out, dc_error *err);
int dc_trace_attr_uint64(dc_trace_file *t, const char *name, uint64_t *out, dc_error *err);

/* Appends every /summary figure, in the order written, to out. */
int dc_trace_read_summary(dc_trace_file *t, dc_summary *out, dc_error *err);

/* Appends every row of /events to out (which must be enabled). */
int dc_trace_read_events(dc_trace_file *t, dc_eventlog *out, dc_error *err);
int dc_trace_event_count(dc_trace_file *t, size_t *count, dc_error *err);

/* /series/NAME into malloc'd arrays. */
int dc_trace_read_series(dc_trace_file *t, const char *name, double **time_s,
                         double **value, size_t *n, dc_error *err);

/* The file name the trace was opened with. */
const char *dc_trace_filename(const dc_trace_file *t);

/* *has = whether the trace holds a dataset at path ("/events",
 * "/series/nodes_up", "/summary/job.ettr"); a group is not a dataset. */
int dc_trace_has_dataset(dc_trace_file *t, const char *path, bool *has, dc_error *err);

/* Every dataset of the trace as a malloc'd array of malloc'd absolute paths
 * in name order ("/events", "/series/job_state", ..., "/summary/job.ettr");
 * free with dc_trace_free_list. */
int dc_trace_list_datasets(dc_trace_file *t, char ***paths, size_t *n, dc_error *err);
void dc_trace_free_list(char **paths, size_t n);

/* Reads any dataset of numbers or strings into out (a table without
 * columns): a compound table gives one column per member (integers,
 * floats, strings); an (n, k) array gives k columns named by its "columns"
 * attribute when it has one (col1, col2, ... otherwise); a scalar or a
 * one-dimensional array gives one column "value".  Other types (enums,
 * nested arrays, references) are DC_EINPUT naming the dataset. */
int dc_trace_read_table(dc_trace_file *t, const char *path, dc_table *out, dc_error *err);

#endif
