/* Tables of rows built during a run: declared columns, rows filled and committed, kept packed.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "rowtable.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NAME_LEN 48

typedef struct column {
    char name[NAME_LEN];
    dc_rowcol_type type;
    size_t offset, size;
    char *unit, *doc;
} column;

struct dc_rowtable {
    dc_rowtable_set *set;
    char name[NAME_LEN];
    char *doc;
    column *cols;
    size_t n_cols, row_size;
    unsigned char row[DC_ROWTABLE_MAX_ROW]; /* the row being filled */
    unsigned char blank_row[DC_ROWTABLE_MAX_ROW]; /* the blank row (made at each new column) */
    unsigned char *data;                    /* committed rows not yet given to the sink */
    size_t n_rows, cap_rows;                /* of data */
    size_t n_flushed;                       /* rows given to the sink */
};

struct dc_rowtable_set {
    dc_rowtable **tables;
    size_t n;
    bool failed;
    dc_rowtable_sink sink;
    void *sink_ctx;
    size_t flush_bytes; /* a chunk's */
    size_t flush_chunks;
};

dc_rowtable_set *dc_rowtable_set_create(void)
{
    return calloc(1, sizeof(dc_rowtable_set));
}

void dc_rowtable_set_destroy(dc_rowtable_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++) {
        dc_rowtable *t = set->tables[i];
        for (size_t c = 0; c < t->n_cols; c++) {
            free(t->cols[c].unit);
            free(t->cols[c].doc);
        }
        free(t->cols);
        free(t->doc);
        free(t->data);
        free(t);
    }
    free(set->tables);
    free(set);
}

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d;
}

dc_rowtable *dc_rowtable_set_get(dc_rowtable_set *set, const char *name, const char *doc)
{
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->tables[i]->name, name) == 0)
            return set->tables[i];
    if (strlen(name) >= NAME_LEN)
        return NULL;
    dc_rowtable **g = realloc(set->tables, (set->n + 1) * sizeof *g);
    dc_rowtable *t = g ? calloc(1, sizeof *t) : NULL;
    if (g)
        set->tables = g;
    if (!t || !(t->doc = dup_str(doc))) {
        free(t);
        set->failed = true;
        return NULL;
    }
    t->set = set;
    strcpy(t->name, name);
    set->tables[set->n++] = t;
    return t;
}

size_t dc_rowtable_set_count(const dc_rowtable_set *set) { return set->n; }
dc_rowtable *dc_rowtable_set_at(const dc_rowtable_set *set, size_t i) { return set->tables[i]; }
bool dc_rowtable_set_failed(const dc_rowtable_set *set) { return set->failed; }

int dc_rowtable_column_index(const dc_rowtable *t, const char *name)
{
    for (size_t c = 0; c < t->n_cols; c++)
        if (strcmp(t->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}

/* The blank row: NaN in float cells, zeros elsewhere; copied from its
 * image (made when a column is added) at each commit. */
static void make_blank(dc_rowtable *t)
{
    memset(t->blank_row, 0, t->row_size);
    for (size_t c = 0; c < t->n_cols; c++)
        if (t->cols[c].type == DC_ROWCOL_F8) {
            double nan = NAN;
            memcpy(t->blank_row + t->cols[c].offset, &nan, sizeof nan);
        }
}

static void blank(dc_rowtable *t) { memcpy(t->row, t->blank_row, t->row_size); }

int dc_rowtable_add_column(dc_rowtable *t, const char *name, dc_rowcol_type type, size_t str_len, const char *unit,
                           const char *doc)
{
    size_t size = type == DC_ROWCOL_F8 ? 8 : type == DC_ROWCOL_I4 ? 4 : str_len;
    size_t align = type == DC_ROWCOL_F8 ? 8 : type == DC_ROWCOL_I4 ? 4 : 1;
    size_t offset = (t->row_size + align - 1) / align * align;
    if (t->n_rows > 0 || size == 0 || offset + size > DC_ROWTABLE_MAX_ROW || strlen(name) >= NAME_LEN
        || dc_rowtable_column_index(t, name) >= 0)
        return -1;
    column *g = realloc(t->cols, (t->n_cols + 1) * sizeof *g);
    if (!g) {
        t->set->failed = true;
        return -1;
    }
    t->cols = g;
    column *c = &t->cols[t->n_cols];
    *c = (column){.type = type, .offset = offset, .size = size, .unit = dup_str(unit), .doc = dup_str(doc)};
    strcpy(c->name, name);
    if (!c->unit || !c->doc) {
        free(c->unit);
        free(c->doc);
        t->set->failed = true;
        return -1;
    }
    t->row_size = offset + size;
    t->n_cols++;
    make_blank(t);
    blank(t);
    return (int)t->n_cols - 1;
}

void dc_rowtable_set_f8(dc_rowtable *t, int col, double v)
{
    if (col < 0 || (size_t)col >= t->n_cols || t->cols[col].type != DC_ROWCOL_F8)
        return;
    memcpy(t->row + t->cols[col].offset, &v, sizeof v);
}

void dc_rowtable_set_i4(dc_rowtable *t, int col, int32_t v)
{
    if (col < 0 || (size_t)col >= t->n_cols || t->cols[col].type != DC_ROWCOL_I4)
        return;
    memcpy(t->row + t->cols[col].offset, &v, sizeof v);
}

void dc_rowtable_set_str(dc_rowtable *t, int col, const char *v)
{
    if (col < 0 || (size_t)col >= t->n_cols || t->cols[col].type != DC_ROWCOL_STR)
        return;
    const column *c = &t->cols[col];
    size_t n = strlen(v ? v : "");
    if (n > c->size)
        n = c->size;
    memset(t->row + c->offset, 0, c->size);
    memcpy(t->row + c->offset, v ? v : "", n);
}

unsigned char *dc_rowtable_row(dc_rowtable *t) { return t->row; }

void dc_rowtable_commit(dc_rowtable *t)
{
    if (t->row_size == 0)
        return;
    if (t->n_rows == t->cap_rows) {
        size_t nc = t->cap_rows ? 2 * t->cap_rows : 64;
        size_t block = t->set->sink ? dc_rowtable_chunk_rows(t, t->set->flush_bytes) * t->set->flush_chunks : 0;
        if (nc < block)
            nc = block; /* streamed: the block at once, not copied as it doubles */
        unsigned char *g = realloc(t->data, nc * t->row_size);
        if (!g) {
            t->set->failed = true;
            blank(t);
            return;
        }
        t->data = g;
        t->cap_rows = nc;
    }
    memcpy(t->data + t->n_rows * t->row_size, t->row, t->row_size);
    t->n_rows++;
    blank(t);
    dc_rowtable_set *set = t->set;
    if (set->sink && t->n_rows >= dc_rowtable_chunk_rows(t, set->flush_bytes) * set->flush_chunks) {
        set->sink(set->sink_ctx, t, t->data, t->n_rows);
        t->n_flushed += t->n_rows;
        t->n_rows = 0;
    }
}

void dc_rowtable_set_sink(dc_rowtable_set *set, dc_rowtable_sink sink, void *ctx, size_t chunk_bytes,
                          size_t chunks)
{
    set->sink = sink;
    set->sink_ctx = ctx;
    set->flush_bytes = chunk_bytes ? chunk_bytes : 1;
    set->flush_chunks = chunks ? chunks : 1;
}

size_t dc_rowtable_chunk_rows(const dc_rowtable *t, size_t chunk_bytes)
{
    size_t row = t->row_size ? t->row_size : 1;
    size_t n = (chunk_bytes + row - 1) / row;
    return n ? n : 1;
}

static void drop_rows(void *ctx, dc_rowtable *t, const void *rows, size_t n)
{
    (void)ctx, (void)t, (void)rows, (void)n;
}

void dc_rowtable_set_drop(dc_rowtable_set *set) { dc_rowtable_set_sink(set, drop_rows, NULL, (size_t)64 << 10, 1); }

size_t dc_rowtable_flushed(const dc_rowtable *t) { return t->n_flushed; }
size_t dc_rowtable_buffered(const dc_rowtable *t) { return t->n_rows; }

const char *dc_rowtable_name(const dc_rowtable *t) { return t->name; }
const char *dc_rowtable_doc(const dc_rowtable *t) { return t->doc; }
size_t dc_rowtable_columns(const dc_rowtable *t) { return t->n_cols; }
size_t dc_rowtable_row_size(const dc_rowtable *t) { return t->row_size; }
size_t dc_rowtable_rows(const dc_rowtable *t) { return t->n_flushed + t->n_rows; }
const void *dc_rowtable_data(const dc_rowtable *t) { return t->data; }
const char *dc_rowtable_column_name(const dc_rowtable *t, size_t c) { return t->cols[c].name; }
dc_rowcol_type dc_rowtable_column_type(const dc_rowtable *t, size_t c) { return t->cols[c].type; }
size_t dc_rowtable_column_offset(const dc_rowtable *t, size_t c) { return t->cols[c].offset; }
size_t dc_rowtable_column_size(const dc_rowtable *t, size_t c) { return t->cols[c].size; }
const char *dc_rowtable_column_unit(const dc_rowtable *t, size_t c) { return t->cols[c].unit; }
const char *dc_rowtable_column_doc(const dc_rowtable *t, size_t c) { return t->cols[c].doc; }
