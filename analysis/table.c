/* A small table of named, typed columns filled row by row, and its CSV form.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "table.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef union cell {
    double real;
    int64_t i;
    char *text; /* NULL reads as "" */
} cell;

typedef struct column {
    char *name;
    dc_col_type type;
} column;

struct dc_table {
    column *cols;
    size_t n_cols, cap_cols;
    cell *cells; /* row-major, n_rows x n_cols */
    size_t n_rows, cap_rows;
};

dc_table *dc_table_create(void)
{
    return calloc(1, sizeof(dc_table));
}

void dc_table_destroy(dc_table *t)
{
    if (!t)
        return;
    for (size_t c = 0; c < t->n_cols; c++) {
        if (t->cols[c].type == DC_COL_TEXT)
            for (size_t r = 0; r < t->n_rows; r++)
                free(t->cells[r * t->n_cols + c].text);
        free(t->cols[c].name);
    }
    free(t->cols);
    free(t->cells);
    free(t);
}

int dc_table_add_column(dc_table *t, const char *name, dc_col_type type)
{
    if (!t || !name || t->n_rows > 0)
        return DC_EINTERNAL;
    if (t->n_cols == t->cap_cols) {
        size_t cap = t->cap_cols ? 2 * t->cap_cols : 8;
        column *c = realloc(t->cols, cap * sizeof *c);
        if (!c)
            return DC_ENOMEM;
        t->cols = c;
        t->cap_cols = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return DC_ENOMEM;
    t->cols[t->n_cols++] = (column){copy, type};
    return DC_OK;
}

int dc_table_add_row(dc_table *t, size_t *row)
{
    if (!t || t->n_cols == 0)
        return DC_EINTERNAL;
    if (t->n_rows == t->cap_rows) {
        size_t cap = t->cap_rows ? 2 * t->cap_rows : 64;
        cell *c = realloc(t->cells, cap * t->n_cols * sizeof *c);
        if (!c)
            return DC_ENOMEM;
        t->cells = c;
        t->cap_rows = cap;
    }
    cell *r = &t->cells[t->n_rows * t->n_cols];
    for (size_t c = 0; c < t->n_cols; c++) {
        if (t->cols[c].type == DC_COL_TEXT)
            r[c].text = NULL;
        else if (t->cols[c].type == DC_COL_INT)
            r[c].i = 0;
        else
            r[c].real = 0.0;
    }
    if (row)
        *row = t->n_rows;
    t->n_rows++;
    return DC_OK;
}

static cell *at(const dc_table *t, size_t row, size_t col)
{
    return row < t->n_rows && col < t->n_cols ? &t->cells[row * t->n_cols + col] : NULL;
}

void dc_table_set_real(dc_table *t, size_t row, size_t col, double v)
{
    cell *c = at(t, row, col);
    if (!c)
        return;
    if (t->cols[col].type == DC_COL_REAL)
        c->real = v;
    else if (t->cols[col].type == DC_COL_INT)
        c->i = (int64_t)v;
}

void dc_table_set_int(dc_table *t, size_t row, size_t col, int64_t v)
{
    cell *c = at(t, row, col);
    if (!c)
        return;
    if (t->cols[col].type == DC_COL_INT)
        c->i = v;
    else if (t->cols[col].type == DC_COL_REAL)
        c->real = (double)v;
}

int dc_table_set_text(dc_table *t, size_t row, size_t col, const char *text)
{
    cell *c = at(t, row, col);
    if (!c || t->cols[col].type != DC_COL_TEXT)
        return DC_EINTERNAL;
    char *copy = strdup(text ? text : "");
    if (!copy)
        return DC_ENOMEM;
    free(c->text);
    c->text = copy;
    return DC_OK;
}

size_t dc_table_columns(const dc_table *t)
{
    return t ? t->n_cols : 0;
}

size_t dc_table_rows(const dc_table *t)
{
    return t ? t->n_rows : 0;
}

const char *dc_table_column_name(const dc_table *t, size_t col)
{
    return t && col < t->n_cols ? t->cols[col].name : NULL;
}

dc_col_type dc_table_column_type(const dc_table *t, size_t col)
{
    return t && col < t->n_cols ? t->cols[col].type : DC_COL_REAL;
}

double dc_table_real(const dc_table *t, size_t row, size_t col)
{
    const cell *c = at(t, row, col);
    if (!c)
        return NAN;
    return t->cols[col].type == DC_COL_REAL ? c->real
           : t->cols[col].type == DC_COL_INT ? (double)c->i
                                              : NAN;
}

int64_t dc_table_int(const dc_table *t, size_t row, size_t col)
{
    const cell *c = at(t, row, col);
    if (!c)
        return 0;
    return t->cols[col].type == DC_COL_INT ? c->i
           : t->cols[col].type == DC_COL_REAL ? (int64_t)c->real
                                               : 0;
}

const char *dc_table_text(const dc_table *t, size_t row, size_t col)
{
    const cell *c = at(t, row, col);
    return c && t->cols[col].type == DC_COL_TEXT && c->text ? c->text : "";
}

void dc_table_format_real(char *buf, size_t size, double v)
{
    if (isnan(v)) {
        snprintf(buf, size, "nan");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
        return;
    }
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

void dc_table_csv_field(FILE *out, const char *text)
{
    if (!text)
        text = "";
    if (!strpbrk(text, ",\"\r\n")) {
        fputs(text, out);
        return;
    }
    fputc('"', out);
    for (const char *p = text; *p; p++) {
        if (*p == '"')
            fputc('"', out);
        fputc(*p, out);
    }
    fputc('"', out);
}

int dc_table_write_csv(const dc_table *t, FILE *out, dc_error *err)
{
    if (!t || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_table_write_csv: bad arguments");
    for (size_t c = 0; c < t->n_cols; c++) {
        if (c)
            fputc(',', out);
        dc_table_csv_field(out, t->cols[c].name);
    }
    fputc('\n', out);
    char num[40];
    for (size_t r = 0; r < t->n_rows; r++) {
        for (size_t c = 0; c < t->n_cols; c++) {
            const cell *v = &t->cells[r * t->n_cols + c];
            if (c)
                fputc(',', out);
            switch (t->cols[c].type) {
            case DC_COL_REAL:
                dc_table_format_real(num, sizeof num, v->real);
                fputs(num, out);
                break;
            case DC_COL_INT:
                fprintf(out, "%lld", (long long)v->i);
                break;
            case DC_COL_TEXT:
                dc_table_csv_field(out, v->text);
                break;
            }
        }
        fputc('\n', out);
    }
    if (ferror(out))
        return dc_error_set(err, DC_EIO, "cannot write the CSV: %s", "write error");
    return DC_OK;
}

long dc_table_column_index(const dc_table *t, const char *name)
{
    for (size_t c = 0; c < dc_table_columns(t); c++)
        if (strcmp(dc_table_column_name(t, c), name) == 0)
            return (long)c;
    return -1;
}

double dc_table_number(const dc_table *t, size_t row, long col)
{
    if (col < 0)
        return NAN;
    switch (dc_table_column_type(t, (size_t)col)) {
    case DC_COL_REAL:
        return dc_table_real(t, row, (size_t)col);
    case DC_COL_INT:
        return (double)dc_table_int(t, row, (size_t)col);
    default:
        return NAN;
    }
}
