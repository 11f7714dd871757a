/* A strict reader for comma-separated tables whose every error names file and line.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A strict reader for comma-separated tables (time series, job traces...).
 * It knows no physics: it returns fields as text, and numbers on request,
 * and every error names the file and the line.
 *
 * Format (RFC 4180 with a few additions and one restriction):
 *  - the first line that is neither blank nor a comment is the header: the
 *    column names, which must be non-empty and distinct;
 *  - fields are separated by commas; blanks (spaces, tabs) around an
 *    unquoted field are dropped;
 *  - a field may be double-quoted, with "" standing for one quote; a quoted
 *    field cannot span lines (the restriction);
 *  - lines whose first non-blank character is '#' are comments; blank lines
 *    are skipped; LF or CRLF line ends; a missing final newline is fine; a
 *    UTF-8 byte-order mark at the start is skipped;
 *  - every row has exactly as many fields as the header.
 * Rejected with DC_EINPUT and "FILE:LINE: what is wrong": a NUL byte, an
 * unterminated quote, text after a closing quote, a wrong field count, an
 * empty or duplicate column name, a file with no header.  A missing or
 * unreadable file is DC_EIO "cannot read FILE: reason".
 *
 * Numbers (dc_csv_number): the whole field must parse with strtod and be
 * finite ("1e3", "-0.5"; not "", "1,5", "nan", "inf", "12abc").  They are
 * read by dc_csv_strtod: strtod's value and end bit for bit, the common
 * forms (at most 19 digits, an exponent of at most 19 either way, such as
 * the 17 digits of Python's repr) without strtod's cost. */
#ifndef DC_CSV_H
#define DC_CSV_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

typedef struct dc_csv dc_csv;

/* Reads and checks a whole file; on error *out is NULL. */
int dc_csv_read_file(const char *path, dc_csv **out, dc_error *err);
/* The same from memory (len bytes; NULs inside are errors); display_name
 * stands for the file name in messages. */
int dc_csv_read_string(const char *text, size_t len, const char *display_name,
                       dc_csv **out, dc_error *err);
void dc_csv_destroy(dc_csv *csv);

const char *dc_csv_name(const dc_csv *csv);
size_t dc_csv_column_count(const dc_csv *csv);
size_t dc_csv_row_count(const dc_csv *csv);
const char *dc_csv_header(const dc_csv *csv, size_t col);
/* The file line number of a data row (1-based), and of the header. */
size_t dc_csv_line(const dc_csv *csv, size_t row);
size_t dc_csv_header_line(const dc_csv *csv);

/* The column named name; DC_EINPUT "FILE:LINE: no column "name" (columns:
 * a, b)" otherwise. */
int dc_csv_find_column(const dc_csv *csv, const char *name, size_t *col, dc_error *err);

/* The unquoted text of a field. */
const char *dc_csv_cell(const dc_csv *csv, size_t row, size_t col);

/* The field as a finite double; DC_EINPUT "FILE:LINE: column NAME: expected
 * a number (got "text")" otherwise. */
int dc_csv_number(const dc_csv *csv, size_t row, size_t col, double *out, dc_error *err);

/* Sets err (DC_EINPUT) to "FILE:LINE: column NAME: message" for a field that
 * parsed but is wrong for the caller (out of range, out of order...). */
int dc_csv_error_at(const dc_csv *csv, size_t row, size_t col, dc_error *err,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Resolves a data file name given in base_file (a scenario): relative
 * names are taken from base_file's directory, absolute ones are kept.
 * false when the result does not fit in size bytes. */
bool dc_csv_resolve_path(const char *base_file, const char *name, char *buf, size_t size);

/* strtod (C locale): the same double, bit for bit, and the same *end. */
double dc_csv_strtod(const char *s, char **end);

#endif
