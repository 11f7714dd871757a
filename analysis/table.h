/* A small table of named, typed columns: what dcsim export reads out of a trace and writes as CSV.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A small table of named, typed columns, filled row by row: what
 * `dcsim export` reads out of a trace and writes as CSV.
 *
 * CSV (RFC 4180): a header line of column names, then one line per row;
 * fields holding a comma, a double quote or a line break are quoted, with
 * quotes doubled.  Reals are written in the shortest form that reads back
 * to the same double (strtod(text) == value), so a CSV holds exactly the
 * trace's numbers; NaN is "nan", infinities "inf" and "-inf". */
#ifndef DC_TABLE_H
#define DC_TABLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"

typedef enum dc_col_type { DC_COL_REAL, DC_COL_INT, DC_COL_TEXT } dc_col_type;

typedef struct dc_table dc_table;

dc_table *dc_table_create(void);
void dc_table_destroy(dc_table *t);

/* Columns are added before the first row.  DC_OK or DC_ENOMEM. */
int dc_table_add_column(dc_table *t, const char *name, dc_col_type type);
/* Appends a row of empty cells (0, 0, "") and returns its index in *row. */
int dc_table_add_row(dc_table *t, size_t *row);

/* Cell setters; the column's type decides which one applies (a real set in
 * an integer column is truncated, a number in a text column is ignored). */
void dc_table_set_real(dc_table *t, size_t row, size_t col, double v);
void dc_table_set_int(dc_table *t, size_t row, size_t col, int64_t v);
/* Copies text; DC_OK or DC_ENOMEM. */
int dc_table_set_text(dc_table *t, size_t row, size_t col, const char *text);

size_t dc_table_columns(const dc_table *t);
size_t dc_table_rows(const dc_table *t);
const char *dc_table_column_name(const dc_table *t, size_t col);
dc_col_type dc_table_column_type(const dc_table *t, size_t col);
double dc_table_real(const dc_table *t, size_t row, size_t col);
int64_t dc_table_int(const dc_table *t, size_t row, size_t col);
const char *dc_table_text(const dc_table *t, size_t row, size_t col);
/* The index of the column named name, -1 if none. */
long dc_table_column_index(const dc_table *t, const char *name);
/* A cell as a number whatever the column's type: NaN for a text column or
 * col -1 (a column dc_table_column_index did not find). */
double dc_table_number(const dc_table *t, size_t row, long col);

int dc_table_write_csv(const dc_table *t, FILE *out, dc_error *err);

/* The shortest decimal text of v that reads back to v ("nan", "inf"). */
void dc_table_format_real(char *buf, size_t size, double v);
/* Writes text as one CSV field (quoted when it has to be). */
void dc_table_csv_field(FILE *out, const char *text);

#endif
