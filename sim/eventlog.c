/* The event table of a run (/events): rows of what happened.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The event table (see eventlog.h).
 *
 * A new log is enabled.  Strings are cut to their field length minus one, so
 * every field is NUL-terminated, and the rest of the field is zero-filled so
 * the rows (and the trace bytes) are deterministic.  NULL strings are "". */
#include "eventlog.h"

#include <stdlib.h>
#include <string.h>

struct dc_eventlog {
    dc_eventlog_row *rows; /* rows not yet given to the sink */
    size_t n;
    size_t cap;
    size_t n_flushed;      /* rows given to the sink */
    bool enabled;
    bool failed;
    dc_eventlog_sink sink;
    void *sink_ctx;
    size_t flush_rows;
};

dc_eventlog *dc_eventlog_create(void)
{
    dc_eventlog *log = calloc(1, sizeof *log);
    if (log)
        log->enabled = true;
    return log;
}

void dc_eventlog_destroy(dc_eventlog *log)
{
    if (!log)
        return;
    free(log->rows);
    free(log);
}

void dc_eventlog_enable(dc_eventlog *log, bool enabled)
{
    if (log)
        log->enabled = enabled;
}

bool dc_eventlog_enabled(const dc_eventlog *log)
{
    return log && log->enabled;
}

/* Copies at most size-1 bytes of src and zero-fills the rest of dst (a
 * word at a time: the log takes a row per job start and end). */
static inline void copy_field(char *dst, size_t size, const char *src)
{
    size_t n = src ? strnlen(src, size - 1) : 0;
    memset(dst, 0, size);
    if (n)
        memcpy(dst, src, n);
}

/* The row itself, out of line: dc_eventlog_add is left small enough to be
 * inlined at its callers, where a disabled log (a run without a trace, a
 * sweep's replication) costs a test instead of a call (15,000 calls and
 * 0.3 M instructions in the flagship). */
static __attribute__((noinline)) void add_row(dc_eventlog *log, double time_s, const char *kind,
                                              const char *component, int32_t id, int32_t job, double value)
{
    if (log->n == log->cap) {
        size_t cap = log->cap ? 2 * log->cap : 256;
        if (log->sink && cap < log->flush_rows)
            cap = log->flush_rows; /* streamed: the block at once, not copied as it doubles */
        dc_eventlog_row *grown = realloc(log->rows, cap * sizeof *grown);
        if (!grown) {
            log->failed = true;
            return;
        }
        log->rows = grown;
        log->cap = cap;
    }
    dc_eventlog_row *r = &log->rows[log->n++];
    r->time_s = time_s;
    copy_field(r->kind, sizeof r->kind, kind);
    copy_field(r->component, sizeof r->component, component);
    r->id = id;
    r->job = job;
    r->value = value;
    if (log->sink && log->n >= log->flush_rows) {
        log->sink(log->sink_ctx, log->rows, log->n);
        log->n_flushed += log->n;
        log->n = 0;
    }
}

void dc_eventlog_add(dc_eventlog *log, double time_s, const char *kind,
                     const char *component, int32_t id, int32_t job, double value)
{
    if (log && log->enabled && !log->failed)
        add_row(log, time_s, kind, component, id, job, value);
}

void dc_eventlog_set_sink(dc_eventlog *log, dc_eventlog_sink sink, void *ctx, size_t flush_rows)
{
    log->sink = sink;
    log->sink_ctx = ctx;
    log->flush_rows = flush_rows ? flush_rows : 1;
}

size_t dc_eventlog_flushed(const dc_eventlog *log)
{
    return log ? log->n_flushed : 0;
}

size_t dc_eventlog_buffered(const dc_eventlog *log)
{
    return log ? log->n : 0;
}

size_t dc_eventlog_count(const dc_eventlog *log)
{
    return log ? log->n_flushed + log->n : 0;
}

const dc_eventlog_row *dc_eventlog_rows(const dc_eventlog *log)
{
    return log ? log->rows : NULL;
}

bool dc_eventlog_failed(const dc_eventlog *log)
{
    return log ? log->failed : true;
}
