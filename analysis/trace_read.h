/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* Reading a trace written by sim/trace.c back (dcsim report, compare, plot,
 * tests).  Every function checks what it reads and reports a missing
 * dataset or a file that is not a dcsim trace as DC_EINPUT naming the file
 * and the dataset; HDF5's own error printing is switched off. */
#ifndef DC_TRACE_READ_H
#define DC_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "eventlog.h"
#include "summary.h"

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

#endif
