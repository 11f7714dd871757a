/* Tables of rows built during a run (one row per job...), written to the trace as compound datasets.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Tables of rows built during a run, one compound dataset each in the trace
 * (/NAME, for example /jobs: one row per job), readable in one call:
 *     pandas.DataFrame(h5py.File(path)["jobs"][:])
 *
 * A table's columns are declared first (name, type, unit, doc), then rows
 * are filled one at a time and committed; a committed row is never read
 * back by the model that wrote it, so the storage behind the table can be
 * memory or a file the rows stream to (for runs of millions of jobs: the
 * append-only interface is all a model sees): with a sink
 * (dc_rowtable_set_sink, the trace writer's), a table hands its rows over
 * whenever they fill a block of whole chunks and forgets them.  A row is at most
 * DC_ROWTABLE_MAX_ROW bytes.  Columns: 64-bit floats, 32-bit integers,
 * fixed-length strings (truncated to fit, NUL-padded).  Out of memory marks
 * the set as failed (dc_rowtable_set_failed), as series do. */
#ifndef DC_ROWTABLE_H
#define DC_ROWTABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define DC_ROWTABLE_MAX_ROW 1024

typedef enum dc_rowcol_type { DC_ROWCOL_F8, DC_ROWCOL_I4, DC_ROWCOL_STR } dc_rowcol_type;

typedef struct dc_rowtable dc_rowtable;
typedef struct dc_rowtable_set dc_rowtable_set;

dc_rowtable_set *dc_rowtable_set_create(void);
void dc_rowtable_set_destroy(dc_rowtable_set *set);
/* The table named name (a valid dataset name), created on first use;
 * NULL when out of memory. */
dc_rowtable *dc_rowtable_set_get(dc_rowtable_set *set, const char *name, const char *doc);
size_t dc_rowtable_set_count(const dc_rowtable_set *set);
dc_rowtable *dc_rowtable_set_at(const dc_rowtable_set *set, size_t i);
bool dc_rowtable_set_failed(const dc_rowtable_set *set);

/* Adds a column before the first row (str_len: the string's bytes, for
 * DC_ROWCOL_STR); returns its index, or -1 when the row would exceed
 * DC_ROWTABLE_MAX_ROW, a row exists already, the name is taken, or out of
 * memory. */
int dc_rowtable_add_column(dc_rowtable *t, const char *name, dc_rowcol_type type, size_t str_len, const char *unit,
                           const char *doc);
/* Index of the column named name, -1 if none. */
int dc_rowtable_column_index(const dc_rowtable *t, const char *name);

/* The row being filled: starts zeroed (NaN for floats); set its cells, then
 * commit it.  Cells of an unknown column (-1) are ignored. */
void dc_rowtable_set_f8(dc_rowtable *t, int col, double v);
void dc_rowtable_set_i4(dc_rowtable *t, int col, int32_t v);
void dc_rowtable_set_str(dc_rowtable *t, int col, const char *v);
void dc_rowtable_commit(dc_rowtable *t);
/* The row being filled itself, for a writer that sets every cell once
 * per row at its column's offset (dc_rowtable_column_offset) without the
 * setters' checks: it is blank at each row's start (NaN in float cells,
 * zero bytes elsewhere, so a string cell needs only its characters, at
 * most the column's size, as dc_rowtable_set_str leaves it). */
unsigned char *dc_rowtable_row(dc_rowtable *t);

/* Rows reach sink(ctx, table, rows, n) whenever a table's unsent rows fill
 * chunks chunks of chunk_bytes each (a chunk: the fewest rows that fill
 * chunk_bytes, dc_rowtable_chunk_rows; from the next commit on, every
 * table of the set), so n is a whole number of chunks; the table keeps
 * none of them.  NULL: kept in memory (a new set). */
typedef void (*dc_rowtable_sink)(void *ctx, dc_rowtable *t, const void *rows, size_t n);
void dc_rowtable_set_sink(dc_rowtable_set *set, dc_rowtable_sink sink, void *ctx, size_t chunk_bytes,
                          size_t chunks);
/* The rows of t's chunk of chunk_bytes: ceil(chunk_bytes / row size), at least 1. */
size_t dc_rowtable_chunk_rows(const dc_rowtable *t, size_t chunk_bytes);
/* Rows counted and dropped, at most 64 KiB of them held per table: for a
 * run that writes no trace and a sweep's replications, which read no row
 * (a million jobs' /jobs rows are ~400 MB). */
void dc_rowtable_set_drop(dc_rowtable_set *set);

/* Reading, for the trace writer.  rows counts every committed row;
 * flushed those given to the sink, buffered those data holds (rows
 * flushed .. rows - 1). */
const char *dc_rowtable_name(const dc_rowtable *t);
const char *dc_rowtable_doc(const dc_rowtable *t);
size_t dc_rowtable_columns(const dc_rowtable *t);
size_t dc_rowtable_row_size(const dc_rowtable *t);
size_t dc_rowtable_rows(const dc_rowtable *t);
size_t dc_rowtable_flushed(const dc_rowtable *t);
size_t dc_rowtable_buffered(const dc_rowtable *t);
/* The buffered rows as packed bytes, column c at offset dc_rowtable_column_offset. */
const void *dc_rowtable_data(const dc_rowtable *t);
const char *dc_rowtable_column_name(const dc_rowtable *t, size_t c);
dc_rowcol_type dc_rowtable_column_type(const dc_rowtable *t, size_t c);
size_t dc_rowtable_column_offset(const dc_rowtable *t, size_t c);
size_t dc_rowtable_column_size(const dc_rowtable *t, size_t c);
const char *dc_rowtable_column_unit(const dc_rowtable *t, size_t c);
const char *dc_rowtable_column_doc(const dc_rowtable *t, size_t c);

#endif
