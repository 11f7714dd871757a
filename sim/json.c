/* The one JSON writer of every command that prints JSON: objects, arrays, keys, strings, numbers.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "json.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>

#include "error.h"

typedef struct level {
    bool object;  /* else an array */
    bool any;     /* a member was written */
    bool has_key; /* objects: the key of the next member is written */
} level;

struct dc_json {
    FILE *out;
    unsigned flags;
    int depth;
    level lv[DC_JSON_MAX_DEPTH];
};

dc_json *dc_json_create(FILE *out, unsigned flags)
{
    dc_json *j = calloc(1, sizeof *j);
    if (j) {
        j->out = out;
        j->flags = flags;
    }
    return j;
}

void dc_json_destroy(dc_json *j)
{
    free(j);
}

static bool lines(const dc_json *j)
{
    return (j->flags & DC_JSON_LINES) && j->depth == 1;
}

/* What goes before a member of the open container: the separator and, in
 * the line layout, the line break and indent. */
static void separate(dc_json *j)
{
    level *l = &j->lv[j->depth - 1];
    if (l->any)
        fputs(lines(j) ? ",\n  " : ", ", j->out);
    else if (lines(j))
        fputs("\n  ", j->out);
    l->any = true;
}

/* Before a value: inside an object after its key, inside an array after a
 * separator, or at the top. */
static void before_value(dc_json *j)
{
    if (j->depth == 0)
        return;
    level *l = &j->lv[j->depth - 1];
    if (l->object) {
        assert(l->has_key && "a JSON value in an object needs its key first");
        l->has_key = false;
    } else {
        separate(j);
    }
}

static void write_string(FILE *out, const char *v)
{
    static const char hex[] = "0123456789abcdef";
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        unsigned char c = *p;
        switch (c) {
        case '"': fputs("\\\"", out); break;
        case '\\': fputs("\\\\", out); break;
        case '\b': fputs("\\b", out); break;
        case '\f': fputs("\\f", out); break;
        case '\n': fputs("\\n", out); break;
        case '\r': fputs("\\r", out); break;
        case '\t': fputs("\\t", out); break;
        default:
            if (c < 0x20 || c == 0x7f) {
                fputs("\\u00", out);
                fputc(hex[c >> 4], out);
                fputc(hex[c & 0xf], out);
            } else {
                fputc(c, out); /* UTF-8 bytes pass through */
            }
        }
    }
    fputc('"', out);
}

void dc_json_key(dc_json *j, const char *key)
{
    assert(j->depth > 0 && j->lv[j->depth - 1].object && !j->lv[j->depth - 1].has_key);
    separate(j);
    write_string(j->out, key);
    fputs(": ", j->out);
    j->lv[j->depth - 1].has_key = true;
}

static void open_container(dc_json *j, bool object)
{
    before_value(j);
    assert(j->depth < DC_JSON_MAX_DEPTH);
    fputc(object ? '{' : '[', j->out);
    j->lv[j->depth++] = (level){object, false, false};
}

static void close_container(dc_json *j, bool object)
{
    assert(j->depth > 0 && j->lv[j->depth - 1].object == object && !j->lv[j->depth - 1].has_key);
    bool any = j->lv[j->depth - 1].any, was_lines = lines(j);
    j->depth--;
    if (was_lines && any)
        fputc('\n', j->out);
    fputc(object ? '}' : ']', j->out);
}

void dc_json_begin_object(dc_json *j)
{
    open_container(j, true);
}

void dc_json_end_object(dc_json *j)
{
    close_container(j, true);
}

void dc_json_begin_array(dc_json *j)
{
    open_container(j, false);
}

void dc_json_end_array(dc_json *j)
{
    close_container(j, false);
}

void dc_json_string(dc_json *j, const char *v)
{
    before_value(j);
    write_string(j->out, v);
}

void dc_json_number(dc_json *j, double v)
{
    before_value(j);
    if (isfinite(v))
        fprintf(j->out, "%.17g", v);
    else
        fputs("null", j->out);
}

void dc_json_int(dc_json *j, int64_t v)
{
    before_value(j);
    fprintf(j->out, "%" PRId64, v);
}

void dc_json_bool(dc_json *j, bool v)
{
    before_value(j);
    fputs(v ? "true" : "false", j->out);
}

void dc_json_null(dc_json *j)
{
    before_value(j);
    fputs("null", j->out);
}

void dc_json_member_string(dc_json *j, const char *key, const char *v)
{
    dc_json_key(j, key);
    dc_json_string(j, v);
}

void dc_json_member_number(dc_json *j, const char *key, double v)
{
    dc_json_key(j, key);
    dc_json_number(j, v);
}

void dc_json_member_int(dc_json *j, const char *key, int64_t v)
{
    dc_json_key(j, key);
    dc_json_int(j, v);
}

int dc_json_finish(dc_json *j)
{
    assert(j->depth == 0);
    fputc('\n', j->out);
    return ferror(j->out) ? DC_EIO : DC_OK;
}
