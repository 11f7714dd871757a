/* A scenario file as libconfig should read it: @include expanded here, 64-bit integers marked, a line map.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libconfig 1.5 (Debian 12) reads a scenario with three defects this
 * module works around before it parses anything (issue 18 items 3, 9):
 *  - an integer literal past 32 bits without the L suffix wraps silently
 *    (`cluster.nodes = 4294967312;` read as 16, `seed = 10000000000;` as
 *    1410065408): here every such literal gets the L, so libconfig reads
 *    it as a 64-bit integer and the schema's range check sees the real
 *    value; a literal past 64 bits is an error naming file, line and key;
 *  - `@include` resolves a relative name against the current directory
 *    (not the including file), names no file when it cannot open one,
 *    calls exit(2) from its scanner on a directory ("input in flex scanner
 *    failed") and reports a self-include as "duplicate setting name":
 *    here includes are expanded in place, a relative name resolved
 *    against the directory of the file that includes it, with a message
 *    naming the file and line for a missing or unreadable file, a
 *    directory, and an include cycle (a file including itself);
 *  - a UTF-8 byte-order mark at the start of a file is a syntax error: it
 *    is skipped (editors on some systems write one).
 * libconfig then reads the expanded text from memory; the line map turns
 * its line numbers back into (file, line) for every message. */
#ifndef DC_CFGTEXT_H
#define DC_CFGTEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

typedef struct dc_cfgtext dc_cfgtext;

/* Reads path and everything it includes (at most DC_CFGTEXT_MAX_DEPTH
 * deep).  DC_EIO when path itself cannot be read (the message names it
 * and the reason), DC_EINPUT for an include or a literal (FILE:LINE:
 * ...), DC_ENOMEM. */
#define DC_CFGTEXT_MAX_DEPTH 10
int dc_cfgtext_load(const char *path, dc_cfgtext **out, dc_error *err);
void dc_cfgtext_destroy(dc_cfgtext *t);

/* The expanded text (NUL-terminated). */
const char *dc_cfgtext_text(const dc_cfgtext *t);
/* The file and line of line `line` (from 1) of the expanded text; false
 * (outputs untouched) for a line outside it. */
bool dc_cfgtext_where(const dc_cfgtext *t, unsigned line, const char **file, unsigned *file_line);
/* Every file read: the scenario first, then its includes (paths as
 * resolved). */
size_t dc_cfgtext_file_count(const dc_cfgtext *t);
const char *dc_cfgtext_file(const dc_cfgtext *t, size_t i);

#endif
