/* The table of what happened in a run (/events in the trace).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The table of what happened in a run (/events in the trace): one row per
 * failure, repair, checkpoint, restart...  Strings are fixed-width so the
 * HDF5 compound type is flat and pandas/h5py read it directly. */
#ifndef DC_EVENTLOG_H
#define DC_EVENTLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DC_EVENTLOG_KIND_LEN 16
#define DC_EVENTLOG_COMPONENT_LEN 24

typedef struct dc_eventlog_row {
    double time_s;
    char kind[DC_EVENTLOG_KIND_LEN];           /* "failure", "repair_done", ... */
    char component[DC_EVENTLOG_COMPONENT_LEN]; /* failure class or component name */
    int32_t id;                                /* node (or other component) id, -1 if none */
    int32_t job;                               /* job index, -1 if none */
    double value;                              /* kind-specific (duration, work lost, ...) */
} dc_eventlog_row;

typedef struct dc_eventlog dc_eventlog;

dc_eventlog *dc_eventlog_create(void);
void dc_eventlog_destroy(dc_eventlog *log);

/* Logging can be switched off (trace.events = false) to save time and memory. */
void dc_eventlog_enable(dc_eventlog *log, bool enabled);
bool dc_eventlog_enabled(const dc_eventlog *log);

/* Strings longer than their field are cut.  Allocation failure marks the log
 * as failed (checked once at the end) rather than returning a code. */
void dc_eventlog_add(dc_eventlog *log, double time_s, const char *kind,
                     const char *component, int32_t id, int32_t job, double value);

/* Rows reach sink(ctx, rows, n) whenever flush_rows of them are unsent;
 * the log keeps none of them (the trace writer's, during a run).  NULL:
 * kept in memory (a new log). */
typedef void (*dc_eventlog_sink)(void *ctx, const dc_eventlog_row *rows, size_t n);
void dc_eventlog_set_sink(dc_eventlog *log, dc_eventlog_sink sink, void *ctx, size_t flush_rows);

/* count: every row added; flushed: those given to the sink; rows: the
 * buffered ones (count - flushed of them), all of them without a sink. */
size_t dc_eventlog_count(const dc_eventlog *log);
size_t dc_eventlog_flushed(const dc_eventlog *log);
size_t dc_eventlog_buffered(const dc_eventlog *log);
const dc_eventlog_row *dc_eventlog_rows(const dc_eventlog *log);
bool dc_eventlog_failed(const dc_eventlog *log);

#endif
