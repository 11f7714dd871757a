/* The one JSON writer of every command that prints JSON: objects, arrays, keys, strings, numbers.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A streaming writer (RFC 8259): the caller opens and closes objects and
 * arrays and gives keys and values in order; the writer puts the commas,
 * the escapes and the layout.
 *   numbers   %.17g, so that a double reads back bit-identical; integers
 *             (dc_json_int) in full; a non-finite number is written as null
 *             (JSON has no NaN or infinity)
 *   strings   UTF-8 bytes pass through; '"', '\' and control characters
 *             are escaped (\n, \t, ... or \u00XX)
 *   layout    compact ({"a": 1, "b": [2, 3]}), or with DC_JSON_LINES each
 *             member of the outermost container on a line of its own,
 *             indented by two spaces (what `dcsim run --json` prints)
 * Misuse (a value where a key is due, closing what is not open, nesting
 * deeper than DC_JSON_MAX_DEPTH) is a programming error (assert).  Errors
 * of the stream are reported by dc_json_finish. */
#ifndef DC_JSON_H
#define DC_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define DC_JSON_LINES 1u
#define DC_JSON_MAX_DEPTH 32

typedef struct dc_json dc_json;

/* NULL if memory runs out. */
dc_json *dc_json_create(FILE *out, unsigned flags);
void dc_json_destroy(dc_json *j);

void dc_json_begin_object(dc_json *j);
void dc_json_end_object(dc_json *j);
void dc_json_begin_array(dc_json *j);
void dc_json_end_array(dc_json *j);
/* The key of the next member of the open object. */
void dc_json_key(dc_json *j, const char *key);

void dc_json_string(dc_json *j, const char *v);
void dc_json_number(dc_json *j, double v);
void dc_json_int(dc_json *j, int64_t v);
void dc_json_bool(dc_json *j, bool v);
void dc_json_null(dc_json *j);

/* key and value in one call, in an object */
void dc_json_member_string(dc_json *j, const char *key, const char *v);
void dc_json_member_number(dc_json *j, const char *key, double v);
void dc_json_member_int(dc_json *j, const char *key, int64_t v);

/* After the outermost container is closed: a final newline, then DC_OK, or
 * DC_EIO if the stream failed (full disk, closed pipe). */
int dc_json_finish(dc_json *j);

#endif
