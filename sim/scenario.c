/* Scenarios: loading, --set overrides, validation against the schema, effective text, key
 * reference.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Scenarios: loading, --set overrides, validation against the schema, the
 * effective scenario text and the reference table (see scenario.h).
 *
 * Decisions where scenario.h is silent:
 *  - Ranges.  A bound is used when it is finite; the upper bound is used only
 *    when max > min.  So a row that sets only .min = 1 means ">= 1", a row
 *    that leaves both at 0 means ">= 0", and -INFINITY / INFINITY lift a side.
 *  - Schema paths.  A prefix of a row's path that has no row of its own is an
 *    implicit optional group (or list, when followed by "[]"), so a table may
 *    list "cost.capex_usd" without a "cost" row.  Elements of a list are
 *    groups.  When two tables hold the same path, the first row wins (the
 *    later one is ignored everywhere).
 *  - Integers: libconfig int or int64 ("1280L").  Float keys accept integers;
 *    the config has CONFIG_OPTION_AUTOCONVERT on so that
 *    config_setting_get_float() and friends read such an integer (without it
 *    libconfig returns 0).  Integer keys never hold floats after validation,
 *    so the other direction of auto-conversion (truncation) cannot happen.
 *    NaN and infinities are rejected (1e999 in a file parses as inf).
 *  - A DC_PARAM_AUTO float row whose def_str is set ("auto") defaults to that
 *    string; otherwise to def.
 *  - Validation runs in passes, one per step of scenario.h (all unknown keys,
 *    then all types, then ranges and choices, then required keys, then
 *    defaults), each pass in file order, so the first error reported is the
 *    first of the earliest kind.  Only steps 1-4 can fail with DC_EINPUT, and
 *    they change nothing; step 5 only adds settings.
 *  - Defaults are filled into the root and into groups and list elements
 *    present in the scenario (or created by --set); absent groups stay absent
 *    (absence of a section turns its model off).
 *  - --set removes the setting it overrides and adds a new one (appended to
 *    its group) so that it has no source line; the paths of settings and
 *    groups created by --set are recorded and messages about them read
 *    "(--set) PATH: ...".  --set creates missing groups but never list
 *    elements.  Blanks around PATH and VALUE are ignored (quote a string to
 *    keep them).  Values: integers in decimal or 0x hex with an optional L;
 *    numbers as strtod reads them; booleans true/false (any case); strings
 *    bare or in double quotes (with \" \\ \n \t escapes); "auto" for AUTO
 *    float keys.
 *  - Floats are written by libconfig 1.5 with 15 significant digits, so the
 *    effective scenario text reproduces every value typed with up to 15
 *    digits exactly (more digits are rounded).
 *  - Syntax errors, duplicate settings and missing include files all come
 *    back as "FILE:LINE: syntax error (libconfig: TEXT)", DC_EINPUT. */
#include "scenario.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cfgtext.h"
#include "uncertain.h"

#define PATH_BUF 512
#define MAX_COMPONENTS 32

struct dc_scenario {
    config_t cfg;
    char *name;                     /* file path or display name */
    const dc_param *const *schemas; /* kept by pointer */
    char **set_paths;               /* settings and groups created by --set */
    size_t n_set, cap_set;
    dc_uncertain *unc;              /* distribution-valued keys, in file order */
    size_t n_unc, cap_unc;
    /* Open-addressing hash of schema path -> first row with that path, so
     * validation is linear in the scenario's size, not quadratic (NULL:
     * out of memory at set_schema; lookups then scan the tables). */
    const dc_param **index;
    size_t index_cap;
    bool shadowing; /* two rows share a path (the first wins) */
    /* Every proper prefix of a row's path (and "" for the root), hashed:
     * whether it is an implicit group or list, and its children rows in
     * table order (check_required and fill_defaults visit a group's own
     * rows, not every row; NULL: out of memory, the tables are scanned). */
    struct prefix_slot *prefixes;
    size_t prefix_cap;
    const dc_param **children;
    char **inputs; /* dc_scenario_inputs, built on first call */
    size_t n_inputs, cap_inputs;
    dc_cfgtext *src; /* a file's expanded text and line map (NULL: from a string) */
    char **warnings; /* dc_scenario_warn_at, each text once */
    size_t n_warnings;
};

/* ---------- small helpers ---------- */

/* Appends to a fixed buffer, truncating safely. */
typedef struct sbuf {
    char *buf;
    size_t size, len;
} sbuf;

static void sb_add(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sbuf *b, const char *fmt, ...)
{
    if (b->size == 0 || b->len + 1 >= b->size)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->buf + b->len, b->size - b->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    b->len += (size_t)n;
    if (b->len >= b->size)
        b->len = b->size - 1;
}

/* Appends a plain string (sb_add's "%s" without the formatting machinery:
 * setting paths are built at every key of every validation phase). */
static void sb_put(sbuf *b, const char *str)
{
    if (b->size == 0 || b->len + 1 >= b->size)
        return;
    size_t n = strlen(str), room = b->size - 1 - b->len;
    if (n > room)
        n = room;
    memcpy(b->buf + b->len, str, n);
    b->len += n;
    b->buf[b->len] = '\0';
}

/* A number as a person would type it, exact enough to read back. */
static void fmt_num(double x, char *buf, size_t size)
{
    if (isnan(x)) {
        snprintf(buf, size, "nan");
    } else if (isinf(x)) {
        snprintf(buf, size, x > 0 ? "inf" : "-inf");
    } else if (x == floor(x) && fabs(x) < 1e15) {
        snprintf(buf, size, "%.0f", x);
    } else {
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(buf, size, "%.*g", prec, x);
            if (strtod(buf, NULL) == x)
                break;
        }
    }
}

static const char *setting_kind(const config_setting_t *s)
{
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        return "an integer";
    case CONFIG_TYPE_FLOAT:
        return "a float";
    case CONFIG_TYPE_STRING:
        return "a string";
    case CONFIG_TYPE_BOOL:
        return "a boolean";
    case CONFIG_TYPE_GROUP:
        return "a group";
    case CONFIG_TYPE_LIST:
        return "a list";
    case CONFIG_TYPE_ARRAY:
        return "an array";
    default:
        return "nothing";
    }
}

static bool has_min(const dc_param *p)
{
    return isfinite(p->min);
}

static bool has_max(const dc_param *p)
{
    return isfinite(p->max) && p->max > p->min;
}

/* Optimal string alignment distance (edits and transpositions), capped. */
static int edit_distance(const char *a, const char *b)
{
    enum { N = 64 };
    size_t m = strlen(a), n = strlen(b);
    if (m >= N || n >= N)
        return INT_MAX;
    int d[N][N];
    for (size_t i = 0; i <= m; i++)
        d[i][0] = (int)i;
    for (size_t j = 0; j <= n; j++)
        d[0][j] = (int)j;
    for (size_t i = 1; i <= m; i++) {
        for (size_t j = 1; j <= n; j++) {
            int cost = a[i - 1] == b[j - 1] ? 0 : 1;
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v)
                v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v)
                v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    }
    return d[m][n];
}

/* ---------- the schema ---------- */

static const dc_param group_row = {.path = "", .type = DC_PARAM_GROUP};
static const dc_param list_row = {.path = "", .type = DC_PARAM_LIST};

#define FOR_EACH_ROW(schemas, r)                                       \
    for (const dc_param *const *r##_t = (schemas); r##_t && *r##_t; r##_t++) \
        for (const dc_param *r = *r##_t; r->type != DC_PARAM_END; r++)

/* The row of schema path spath ("" is the root): explicit, or an implicit
 * group/list when spath is a proper prefix of some row's path; NULL if none. */
static uint64_t path_hash(const char *path)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *path; path++)
        h = (h ^ (unsigned char)*path) * 0x100000001b3ULL;
    return h;
}

/* The first row whose path is spath (path_hash h), or NULL. */
static const dc_param *find_row_h(const dc_scenario *sc, const char *spath, uint64_t h)
{
    if (sc->index) {
        for (size_t i = h & (sc->index_cap - 1);; i = (i + 1) & (sc->index_cap - 1)) {
            const dc_param *r = sc->index[i];
            if (!r)
                return NULL;
            if (strcmp(r->path, spath) == 0)
                return r;
        }
    }
    FOR_EACH_ROW(sc->schemas, r) {
        if (r->path && strcmp(r->path, spath) == 0)
            return r;
    }
    return NULL;
}

static const dc_param *find_row(const dc_scenario *sc, const char *spath)
{
    return find_row_h(sc, spath, path_hash(spath));
}

static void build_index(dc_scenario *sc)
{
    free(sc->index);
    sc->index = NULL;
    sc->shadowing = false;
    size_t n = 0;
    FOR_EACH_ROW(sc->schemas, r) {
        (void)r;
        n++;
    }
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    const dc_param **slots = calloc(cap, sizeof *slots);
    if (!slots)
        return;
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path)
            continue;
        size_t i = path_hash(r->path) & (cap - 1);
        while (slots[i] && strcmp(slots[i]->path, r->path) != 0)
            i = (i + 1) & (cap - 1);
        if (!slots[i])
            slots[i] = r; /* the first row with a path wins */
        else
            sc->shadowing = true;
    }
    sc->index = slots;
    sc->index_cap = cap;
}

typedef struct prefix_slot {
    const char *key; /* into a row's path; NULL: empty slot */
    size_t len;
    bool list;       /* the first row under it continues with "[]" */
    size_t first, n; /* its children in sc->children */
} prefix_slot;

static uint64_t span_hash(const char *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
    return h;
}

/* The slot of prefix p[0..n), whose span_hash is h, in slots (cap a power
 * of two): its own, or the empty one where it would go. */
static prefix_slot *prefix_find_h(prefix_slot *slots, size_t cap, const char *p, size_t n, uint64_t h)
{
    for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1)) {
        prefix_slot *e = &slots[i];
        if (!e->key || (e->len == n && memcmp(e->key, p, n) == 0))
            return e;
    }
}

static prefix_slot *prefix_find(prefix_slot *slots, size_t cap, const char *p, size_t n)
{
    return prefix_find_h(slots, cap, p, n, span_hash(p, n));
}

/* The children rows of schema path parent ("" = root; len bytes, span_hash
 * h) through the prefix index; false when there is no index (then callers
 * scan the tables). */
static bool children_of_h(const dc_scenario *sc, const char *parent, size_t len, uint64_t h,
                          const dc_param *const **rows, size_t *n)
{
    if (!sc->prefixes)
        return false;
    const prefix_slot *e = prefix_find_h(sc->prefixes, sc->prefix_cap, parent, len, h);
    *rows = sc->children + (e->key ? e->first : 0);
    *n = e->key ? e->n : 0;
    return true;
}

/* The table of prefixes twice as large (each slot moved to its place in
 * the new one); false when out of memory. */
static bool prefixes_grow(prefix_slot **slots, size_t *cap)
{
    size_t ncap = 2 * *cap;
    prefix_slot *grown = calloc(ncap, sizeof *grown);
    if (!grown)
        return false;
    for (size_t i = 0; i < *cap; i++)
        if ((*slots)[i].key)
            *prefix_find(grown, ncap, (*slots)[i].key, (*slots)[i].len) = (*slots)[i];
    free(*slots);
    *slots = grown;
    *cap = ncap;
    return true;
}

static void build_prefixes(dc_scenario *sc)
{
    free(sc->prefixes);
    free((void *)sc->children);
    sc->prefixes = NULL;
    sc->children = NULL;
    size_t n_rows = 0;
    FOR_EACH_ROW(sc->schemas, r) {
        if (r->path)
            n_rows++;
    }
    /* The table grows as prefixes come (at most half full): the rows have
     * some 1,500 dots but about 110 distinct prefixes, and a table sized
     * for the dots cost more to clear (calloc) and to walk than the
     * lookups it spared. */
    size_t cap = 64, used = 0;
    prefix_slot *slots = calloc(cap, sizeof *slots);
    const dc_param **kids = malloc((n_rows ? n_rows : 1) * sizeof *kids);
    uint32_t *parent_of = malloc((n_rows ? n_rows : 1) * sizeof *parent_of);
    struct parent_key {
        uint64_t h;
        size_t len;
    } *pk = malloc((n_rows ? n_rows : 1) * sizeof *pk);
    if (!slots || !kids || !parent_of || !pk)
        goto oom;
    /* the prefixes, each kind set by the first row under it.  A path's
     * prefixes are hashed as the path is read (FNV-1a goes byte by byte:
     * the hash of "a.b" continues that of "a"); each row's parent is kept
     * by its hash and length, found again once the table is complete. */
    const uint64_t basis = 0xcbf29ce484222325ULL;
    prefix_slot *root = prefix_find_h(slots, cap, "", 0, basis);
    root->key = "";
    used++;
    size_t row = 0;
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path)
            continue;
        uint64_t h = basis, ph = basis;
        size_t plen = 0;
        for (const char *c = r->path; *c; c++) {
            if (*c == '.') {
                size_t len = (size_t)(c - r->path);
                prefix_slot *e = prefix_find_h(slots, cap, r->path, len, h);
                if (!e->key) {
                    if (2 * (used + 1) > cap) {
                        if (!prefixes_grow(&slots, &cap))
                            goto oom;
                        e = prefix_find_h(slots, cap, r->path, len, h);
                    }
                    e->key = r->path;
                    e->len = len;
                    e->list = strncmp(c + 1, "[]", 2) == 0;
                    used++;
                }
                ph = h;
                plen = len;
            }
            h = (h ^ (unsigned char)*c) * 0x100000001b3ULL;
        }
        pk[row++] = (struct parent_key){ph, plen};
    }
    /* children counted, then placed in row order under each parent */
    row = 0;
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path)
            continue;
        const char *path = r->path;
        prefix_slot *e = prefix_find_h(slots, cap, path, pk[row].len, pk[row].h);
        e->n++;
        parent_of[row++] = (uint32_t)(e - slots);
    }
    size_t at = 0;
    for (size_t i = 0; i < cap; i++)
        if (slots[i].key) {
            slots[i].first = at;
            at += slots[i].n;
            slots[i].n = 0;
        }
    row = 0;
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path)
            continue;
        prefix_slot *e = &slots[parent_of[row++]];
        kids[e->first + e->n++] = r;
    }
    free(parent_of);
    free(pk);
    sc->prefixes = slots;
    sc->prefix_cap = cap;
    sc->children = kids;
    return;
oom:
    free(slots);
    free(kids);
    free(parent_of);
    free(pk);
}

/* resolve of spath, whose length is n and path_hash h. */
static const dc_param *resolve_h(const dc_scenario *sc, const char *spath, size_t n, uint64_t h)
{
    if (spath[0] == '\0')
        return &group_row;
    const dc_param *row = find_row_h(sc, spath, h);
    if (row)
        return row;
    if (sc->prefixes) {
        const prefix_slot *e = prefix_find_h(sc->prefixes, sc->prefix_cap, spath, n, h);
        return !e->key ? NULL : e->list ? &list_row : &group_row;
    }
    FOR_EACH_ROW(sc->schemas, r) {
        if (r->path && strncmp(r->path, spath, n) == 0 && r->path[n] == '.')
            return strncmp(r->path + n + 1, "[]", 2) == 0 ? &list_row : &group_row;
    }
    return NULL;
}

static const dc_param *resolve(const dc_scenario *sc, const char *spath)
{
    if (spath[0] == '\0')
        return &group_row;
    const dc_param *row = find_row(sc, spath);
    if (row)
        return row;
    size_t n = strlen(spath);
    if (sc->prefixes) {
        const prefix_slot *e = prefix_find(sc->prefixes, sc->prefix_cap, spath, n);
        return !e->key ? NULL : e->list ? &list_row : &group_row;
    }
    FOR_EACH_ROW(sc->schemas, r) {
        if (r->path && strncmp(r->path, spath, n) == 0 && r->path[n] == '.')
            return strncmp(r->path + n + 1, "[]", 2) == 0 ? &list_row : &group_row;
    }
    return NULL;
}

/* The last component of a row path. */
static const char *row_leaf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

/* Whether the row path's parent is the schema path parent ("" = root). */
static bool row_parent_is(const char *path, const char *parent)
{
    const char *dot = strrchr(path, '.');
    if (!dot)
        return parent[0] == '\0';
    size_t n = (size_t)(dot - path);
    return strlen(parent) == n && strncmp(path, parent, n) == 0;
}

/* The closest name among the children of schema path parent, or NULL. */
static const char *suggest(const dc_param *const *schemas, const char *parent,
                           const char *name, char *buf, size_t size)
{
    size_t plen = strlen(parent);
    size_t nlen = strlen(name);
    int best = INT_MAX;
    int limit = nlen <= 3 ? 1 : nlen <= 8 ? 2 : 3;
    FOR_EACH_ROW(schemas, r) {
        if (!r->path)
            continue;
        const char *child;
        if (plen == 0) {
            child = r->path;
        } else {
            if (strncmp(r->path, parent, plen) != 0 || r->path[plen] != '.')
                continue;
            child = r->path + plen + 1;
        }
        size_t clen = strcspn(child, ".");
        if (clen == 0 || clen >= 64 || child[0] == '[')
            continue;
        char cand[64];
        memcpy(cand, child, clen);
        cand[clen] = '\0';
        int d = edit_distance(name, cand);
        /* a key written without its unit suffix ("capex" for "capex_usd") */
        if (nlen >= 2 && strncmp(cand, name, nlen) == 0 && cand[nlen] == '_')
            d = 1;
        if (d < best && d <= limit && (size_t)d < nlen) {
            best = d;
            snprintf(buf, size, "%s", cand);
        }
    }
    return best == INT_MAX ? NULL : buf;
}

/* ---------- paths of settings ---------- */

static void build_path(const config_setting_t *s, sbuf *b, bool schema)
{
    if (!s || config_setting_is_root(s))
        return;
    const config_setting_t *parent = config_setting_parent(s);
    build_path(parent, b, schema);
    if (b->len > 0)
        sb_put(b, ".");
    if (config_setting_is_list(parent) || config_setting_is_array(parent)) {
        if (schema)
            sb_put(b, "[]");
        else
            sb_add(b, "[%d]", config_setting_index(s));
    } else {
        sb_put(b, config_setting_name(s) ? config_setting_name(s) : "?");
    }
}

void dc_scenario_setting_path(const config_setting_t *s, char *buf, size_t size)
{
    if (!buf || size == 0)
        return;
    sbuf b = {buf, size, 0};
    buf[0] = '\0';
    build_path(s, &b, false);
}

static void schema_path(const config_setting_t *s, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    buf[0] = '\0';
    build_path(s, &b, true);
}

const dc_param *dc_scenario_schema_row(const dc_scenario *sc, const char *path)
{
    if (!sc || !sc->schemas || !path)
        return NULL;
    char spath[PATH_BUF];
    sbuf b = {spath, sizeof spath, 0};
    spath[0] = '\0';
    for (const char *p = path; *p;) {
        if (*p == '[') {
            const char *close = strchr(p, ']');
            if (!close)
                return NULL;
            sb_add(&b, "[]");
            p = close + 1;
        } else {
            sb_add(&b, "%c", *p++);
        }
    }
    const dc_param *row = resolve(sc, spath);
    return row == &group_row || row == &list_row ? NULL : row;
}

static bool was_set(const dc_scenario *sc, const char *path)
{
    for (size_t i = 0; i < sc->n_set; i++)
        if (strcmp(sc->set_paths[i], path) == 0)
            return true;
    return false;
}

/* Whether a --set value lies in the group at path (so that --set made it). */
static bool set_under(const dc_scenario *sc, const char *path)
{
    size_t n = strlen(path);
    for (size_t i = 0; i < sc->n_set; i++)
        if (strncmp(sc->set_paths[i], path, n) == 0 && sc->set_paths[i][n] == '.')
            return true;
    return false;
}

void dc_scenario_where(const dc_scenario *sc, const config_setting_t *s, const char **file, unsigned *line)
{
    unsigned l = s ? config_setting_source_line(s) : 0;
    const char *f = s ? config_setting_source_file(s) : NULL;
    if (f)
        *file = f;
    else if (sc && sc->src && l > 0)
        dc_cfgtext_where(sc->src, l, file, &l);
    *line = l;
}

/* "FILE:LINE: PATH: msg" (or the forms for --set, no line, no setting).
 * A setting the file does not write (a default the validator filled in)
 * takes the line of the nearest group around it that the file writes
 * (`cooling = {` for cooling.throttle_c), so that the message still names
 * a line; "(--set) PATH: msg" when no group on its path is in the file and
 * --set values made them; "FILE: PATH: msg" only when no group on its path
 * has a line and --set made none of them. */
static void format_at(const dc_scenario *sc, const config_setting_t *s, const char *msg, char *out, size_t size)
{
    const char *file = sc && sc->name ? sc->name : "(scenario)";
    if (!s || config_setting_is_root(s)) {
        snprintf(out, size, "%s: %s", file, msg);
        return;
    }
    char path[PATH_BUF];
    dc_scenario_setting_path(s, path, sizeof path);
    unsigned line = 0;
    dc_scenario_where(sc, s, &file, &line);
    if (line > 0) {
        snprintf(out, size, "%s:%u: %s: %s", file, line, path, msg);
        return;
    }
    if (sc && was_set(sc, path)) {
        snprintf(out, size, "(--set) %s: %s", path, msg);
        return;
    }
    const config_setting_t *top = NULL;
    for (const config_setting_t *g = config_setting_parent(s); g && !config_setting_is_root(g);
         g = config_setting_parent(g)) {
        dc_scenario_where(sc, g, &file, &line);
        if (line > 0) {
            snprintf(out, size, "%s:%u: %s: %s", file, line, path, msg);
            return;
        }
        top = g;
    }
    /* No group around it is in the file: --set made them (a default in a
     * group that only --set values created: power.gpu.idle_w for --set
     * power.gpu.peak_w=... on a scenario without power), else the
     * validator (a default group). */
    if (sc && top) {
        char gpath[PATH_BUF];
        dc_scenario_setting_path(top, gpath, sizeof gpath);
        if (set_under(sc, gpath)) {
            snprintf(out, size, "(--set) %s: %s", path, msg);
            return;
        }
    }
    snprintf(out, size, "%s: %s: %s", file, path, msg);
}

/* format_at with the message formatted from fmt first. */
static void vformat_at(const dc_scenario *sc, const config_setting_t *s, char *out, size_t size,
                       const char *fmt, va_list ap)
{
    char msg[DC_ERROR_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    format_at(sc, s, msg, out, size);
}

int dc_scenario_error_at(const dc_scenario *sc, const config_setting_t *s,
                         dc_error *err, const char *fmt, ...)
{
    char text[DC_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vformat_at(sc, s, text, sizeof text, fmt, ap);
    va_end(ap);
    return dc_error_set(err, DC_EINPUT, "%s", text);
}

int dc_scenario_error_under(const dc_scenario *sc, const config_setting_t *s, dc_error *err)
{
    char msg[DC_ERROR_MSG_MAX]; /* (a copy: the message is written over) */
    snprintf(msg, sizeof msg, "%s", err->msg);
    return dc_scenario_error_at(sc, s, err, "%s", msg);
}

void dc_scenario_warn_at(const dc_scenario *sc, const config_setting_t *s, const char *fmt, ...)
{
    if (!sc)
        return;
    /* The warnings are a log kept beside the scenario, not its content. */
    char text[DC_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vformat_at(sc, s, text, sizeof text, fmt, ap);
    va_end(ap);
    dc_scenario_warn_text(sc, text);
}

void dc_scenario_warn_text(const dc_scenario *sc, const char *text)
{
    if (!sc || !text)
        return;
    dc_scenario *w = (dc_scenario *)sc; /* a log beside the content, as above */
    for (size_t i = 0; i < w->n_warnings; i++)
        if (strcmp(w->warnings[i], text) == 0)
            return;
    if (w->n_warnings == DC_SCENARIO_MAX_WARNINGS)
        return;
    if (!w->warnings && !(w->warnings = calloc(DC_SCENARIO_MAX_WARNINGS, sizeof *w->warnings)))
        return;
    if ((w->warnings[w->n_warnings] = strdup(text)))
        w->n_warnings++;
}

void dc_scenario_where_text(const dc_scenario *sc, const config_setting_t *s, char *buf, size_t size)
{
    format_at(sc, s, "", buf, size);
    size_t n = strlen(buf);
    if (n >= 2 && strcmp(buf + n - 2, ": ") == 0)
        buf[n - 2] = '\0';
}

size_t dc_scenario_warning_count(const dc_scenario *sc)
{
    return sc ? sc->n_warnings : 0;
}

const char *dc_scenario_warning(const dc_scenario *sc, size_t i)
{
    return sc && i < sc->n_warnings ? sc->warnings[i] : NULL;
}

/* ---------- loading ---------- */

static dc_scenario *scenario_new(const char *name, dc_error *err)
{
    dc_scenario *sc = calloc(1, sizeof *sc);
    char *copy = strdup(name);
    if (!sc || !copy) {
        free(sc);
        free(copy);
        dc_error_set(err, DC_ENOMEM, "out of memory loading scenario '%s'", name);
        return NULL;
    }
    sc->name = copy;
    config_init(&sc->cfg);
    config_set_options(&sc->cfg, config_get_options(&sc->cfg) | CONFIG_OPTION_AUTOCONVERT);
    return sc;
}

static int parse_failed(dc_scenario *sc, dc_error *err)
{
    int rc;
    const char *file = config_error_file(&sc->cfg) ? config_error_file(&sc->cfg) : sc->name;
    const char *text = config_error_text(&sc->cfg) ? config_error_text(&sc->cfg) : "error";
    unsigned line = (unsigned)config_error_line(&sc->cfg);
    if (sc->src)
        dc_cfgtext_where(sc->src, line, &file, &line);
    if (config_error_type(&sc->cfg) == CONFIG_ERR_FILE_IO)
        rc = dc_error_set(err, DC_EIO, "cannot read scenario '%s': %s", file, text);
    else
        rc = dc_error_set(err, DC_EINPUT, "%s:%u: syntax error (libconfig: %s)", file, line, text);
    dc_scenario_destroy(sc);
    return rc;
}

int dc_scenario_load_file(const char *path, dc_scenario **out, dc_error *err)
{
    if (!path || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_scenario_load_file: no path");
    /* The file and its includes expanded here (sim/cfgtext.h: 64-bit
     * integers, includes against the including file, clear messages),
     * then parsed from memory; the line map names files and lines. */
    dc_cfgtext *src = NULL;
    int rc = dc_cfgtext_load(path, &src, err);
    if (rc != DC_OK)
        return rc;
    dc_scenario *sc = scenario_new(path, err);
    if (!sc) {
        dc_cfgtext_destroy(src);
        return DC_ENOMEM;
    }
    sc->src = src;
    if (!config_read_string(&sc->cfg, dc_cfgtext_text(src)))
        return parse_failed(sc, err);
    *out = sc;
    return DC_OK;
}

int dc_scenario_load_string(const char *text, const char *display_name,
                            dc_scenario **out, dc_error *err)
{
    if (!text || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_scenario_load_string: no text");
    dc_scenario *sc = scenario_new(display_name ? display_name : "(string)", err);
    if (!sc)
        return DC_ENOMEM;
    if (!config_read_string(&sc->cfg, text))
        return parse_failed(sc, err);
    *out = sc;
    return DC_OK;
}

void dc_scenario_destroy(dc_scenario *sc)
{
    if (!sc)
        return;
    config_destroy(&sc->cfg);
    dc_cfgtext_destroy(sc->src);
    for (size_t i = 0; i < sc->n_set; i++)
        free(sc->set_paths[i]);
    free(sc->set_paths);
    for (size_t i = 0; i < sc->n_unc; i++)
        dc_uncertain_free(&sc->unc[i]);
    free(sc->unc);
    free(sc->index);
    free(sc->prefixes);
    free((void *)sc->children);
    for (size_t i = 0; i < sc->n_inputs; i++)
        free(sc->inputs[i]);
    free(sc->inputs);
    for (size_t i = 0; i < sc->n_warnings; i++)
        free(sc->warnings[i]);
    free(sc->warnings);
    free(sc->name);
    free(sc);
}

void dc_scenario_set_schema(dc_scenario *sc, const dc_param *const *schemas)
{
    if (sc) {
        sc->schemas = schemas;
        build_index(sc);
        build_prefixes(sc);
    }
}

const char *dc_scenario_file(const dc_scenario *sc)
{
    return sc ? sc->name : NULL;
}

config_t *dc_scenario_config(const dc_scenario *sc)
{
    return sc ? (config_t *)&sc->cfg : NULL;
}

config_setting_t *dc_scenario_lookup(const dc_scenario *sc, const char *path)
{
    if (!sc || !path)
        return NULL;
    return config_lookup(&sc->cfg, path);
}

/* ---------- the files a scenario reads ---------- */

static bool add_input(dc_scenario *sc, const char *path)
{
    for (size_t i = 0; i < sc->n_inputs; i++)
        if (strcmp(sc->inputs[i], path) == 0)
            return true;
    if (sc->n_inputs == sc->cap_inputs) {
        size_t cap = sc->cap_inputs ? 2 * sc->cap_inputs : 8;
        char **g = realloc(sc->inputs, cap * sizeof *g);
        if (!g)
            return false;
        sc->inputs = g;
        sc->cap_inputs = cap;
    }
    char *copy = strdup(path);
    if (!copy)
        return false;
    sc->inputs[sc->n_inputs++] = copy;
    return true;
}

/* Included files (libconfig records each setting's file) and the data files
 * of DC_PARAM_FILE keys, relative to the scenario file as the models read
 * them (sim/csv.h dc_csv_resolve_path). */
static bool collect_inputs(dc_scenario *sc, const config_setting_t *s)
{
    const char *f = config_setting_source_file(s);
    if (f && !add_input(sc, f))
        return false;
    for (size_t i = 0; config_setting_is_root(s) && i < dc_cfgtext_file_count(sc->src); i++)
        if (!add_input(sc, dc_cfgtext_file(sc->src, i)))
            return false;
    if (config_setting_type(s) == CONFIG_TYPE_STRING && !config_setting_is_root(s)) {
        char spath[PATH_BUF];
        schema_path(s, spath, sizeof spath);
        const dc_param *row = resolve(sc, spath);
        if (row && (row->flags & DC_PARAM_FILE)) {
            const char *name = config_setting_get_string(s);
            const char *slash = strrchr(sc->name, '/');
            char path[4096];
            int w = name[0] == '/' || !slash ? snprintf(path, sizeof path, "%s", name)
                                             : snprintf(path, sizeof path, "%.*s/%s", (int)(slash - sc->name),
                                                        sc->name, name);
            if (w > 0 && (size_t)w < sizeof path && !add_input(sc, path))
                return false;
        }
    }
    int n = config_setting_length(s);
    for (int i = 0; i < n; i++)
        if (!collect_inputs(sc, config_setting_get_elem(s, (unsigned)i)))
            return false;
    return true;
}

const char *const *dc_scenario_inputs(const dc_scenario *csc, size_t *n)
{
    *n = 0;
    if (!csc)
        return NULL;
    /* Built once and kept: logically const, a cache. */
    dc_scenario *sc = (dc_scenario *)csc;
    if (!sc->n_inputs && (!add_input(sc, sc->name) || !collect_inputs(sc, config_root_setting(&sc->cfg))))
        return NULL;
    *n = sc->n_inputs;
    return (const char *const *)sc->inputs;
}

/* ---------- validation ---------- */

enum phase { PH_KNOWN, PH_TYPE, PH_RANGE, PH_REQUIRED, PH_DEFAULTS };

static int unknown_key(const dc_scenario *sc, const config_setting_t *s, dc_error *err)
{
    char spath[PATH_BUF], parent[PATH_BUF], sugg[64];
    const config_setting_t *p = config_setting_parent(s);
    schema_path(p, spath, sizeof spath);
    const char *name = config_setting_name(s);
    if (name && suggest(sc->schemas, spath, name, sugg, sizeof sugg)) {
        dc_scenario_setting_path(p, parent, sizeof parent);
        return dc_scenario_error_at(sc, s, err, "unknown key (did you mean %s%s%s?)", parent,
                                    parent[0] ? "." : "", sugg);
    }
    return dc_scenario_error_at(sc, s, err, "unknown key");
}

static int check_type(const dc_scenario *sc, const config_setting_t *s, const dc_param *row,
                      dc_error *err)
{
    int t = config_setting_type(s);
    bool is_int = t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
    switch (row->type) {
    case DC_PARAM_INT:
        if (is_int)
            return DC_OK;
        return dc_scenario_error_at(sc, s, err, "expected an integer, got %s", setting_kind(s));
    case DC_PARAM_FLOAT:
        if (is_int)
            return DC_OK;
        if (t == CONFIG_TYPE_FLOAT) {
            double x = config_setting_get_float(s);
            if (isfinite(x))
                return DC_OK;
            char num[32];
            fmt_num(x, num, sizeof num);
            return dc_scenario_error_at(sc, s, err, "expected a finite number, got %s", num);
        }
        if ((row->flags & DC_PARAM_AUTO) && t == CONFIG_TYPE_STRING) {
            const char *v = config_setting_get_string(s);
            if (strcmp(v, "auto") == 0)
                return DC_OK;
            return dc_scenario_error_at(sc, s, err, "expected a number or \"auto\" (got \"%s\")", v);
        }
        return dc_scenario_error_at(sc, s, err, "expected a number%s, got %s",
                                    (row->flags & DC_PARAM_AUTO) ? " or \"auto\"" : "",
                                    setting_kind(s));
    case DC_PARAM_BOOL:
        if (t == CONFIG_TYPE_BOOL)
            return DC_OK;
        return dc_scenario_error_at(sc, s, err, "expected a boolean (true or false), got %s",
                                    setting_kind(s));
    case DC_PARAM_STRING:
        if (t == CONFIG_TYPE_STRING || ((row->flags & DC_PARAM_OR_GROUP) && t == CONFIG_TYPE_GROUP))
            return DC_OK;
        return dc_scenario_error_at(sc, s, err, "expected a string%s, got %s",
                                    (row->flags & DC_PARAM_OR_GROUP) ? " or a group { ... }" : "", setting_kind(s));
    case DC_PARAM_GROUP:
        if (t == CONFIG_TYPE_GROUP)
            return DC_OK;
        return dc_scenario_error_at(sc, s, err, "expected a group { ... }, got %s",
                                    setting_kind(s));
    case DC_PARAM_LIST:
        if (t == CONFIG_TYPE_LIST)
            return DC_OK;
        return dc_scenario_error_at(sc, s, err, "expected a list of groups ( {...}, ... ), got %s",
                                    setting_kind(s));
    default:
        return dc_error_set(err, DC_EINTERNAL, "schema row '%s' has no valid type", row->path);
    }
}

static bool among_choices(const char *choices, const char *v)
{
    size_t n = strlen(v);
    const char *p = choices;
    for (;;) {
        size_t len = strcspn(p, "|");
        if (len == n && strncmp(p, v, n) == 0)
            return true;
        if (p[len] == '\0')
            return false;
        p += len + 1;
    }
}

static int check_range(const dc_scenario *sc, const config_setting_t *s, const dc_param *row,
                       dc_error *err)
{
    int t = config_setting_type(s);
    if (row->type == DC_PARAM_STRING && t == CONFIG_TYPE_STRING) {
        const char *v = config_setting_get_string(s);
        if (row->choices && !among_choices(row->choices, v))
            return dc_scenario_error_at(sc, s, err, "must be one of %s (got \"%s\")", row->choices, v);
        return DC_OK;
    }
    if (row->type != DC_PARAM_INT && row->type != DC_PARAM_FLOAT)
        return DC_OK;
    double x;
    bool integer = t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
    if (integer)
        x = (double)config_setting_get_int64(s);
    else if (t == CONFIG_TYPE_FLOAT)
        x = config_setting_get_float(s);
    else
        return DC_OK; /* "auto" */
    bool low = false, high = false;
    if (has_min(row))
        low = row->flags & DC_PARAM_MIN_EXCLUSIVE ? !(x > row->min) : !(x >= row->min);
    if (!low && has_max(row))
        high = row->flags & DC_PARAM_MAX_EXCLUSIVE ? !(x < row->max) : !(x <= row->max);
    if (!low && !high)
        return DC_OK;
    /* the numbers formatted only for the message (snprintf and strtod at
     * every key of every scenario cost 0.3 M instructions a load) */
    char got[40], bound[40];
    if (integer)
        snprintf(got, sizeof got, "%lld", config_setting_get_int64(s));
    else
        fmt_num(x, got, sizeof got);
    bool excl = row->flags & (low ? DC_PARAM_MIN_EXCLUSIVE : DC_PARAM_MAX_EXCLUSIVE);
    fmt_num(low ? row->min : row->max, bound, sizeof bound);
    return dc_scenario_error_at(sc, s, err, "must be %s %s (got %s)",
                                low ? (excl ? "greater than" : "at least") : (excl ? "less than" : "at most"), bound,
                                got);
}

/* Whether r is the row of its path (resolve(sc, r->path) == r): always,
 * unless two rows share a path (hashing the path of each row of each
 * group cost 0.1 M instructions a load). */
static bool row_first(const dc_scenario *sc, const dc_param *r)
{
    return (sc->index && !sc->shadowing) || resolve(sc, r->path) == r;
}

/* Row r (a child of g's schema path) when it is required and missing. */
static int check_required_row(const dc_scenario *sc, const config_setting_t *g, const dc_param *r, dc_error *err)
{
    if (!(r->flags & DC_PARAM_REQUIRED) || !row_first(sc, r))
        return DC_OK;
    const char *leaf = row_leaf(r->path);
    if (config_setting_get_member(g, leaf))
        return DC_OK;
    if (config_setting_is_root(g))
        return dc_scenario_error_at(sc, NULL, err, "%s: required key missing", r->path);
    return dc_scenario_error_at(sc, g, err, "required key '%s' missing", leaf);
}

static int check_required(const dc_scenario *sc, const config_setting_t *g, const char *spath, size_t len,
                          uint64_t h, dc_error *err)
{
    const dc_param *const *kids;
    size_t nk;
    if (children_of_h(sc, spath, len, h, &kids, &nk)) {
        for (size_t i = 0; i < nk; i++) {
            int rc = check_required_row(sc, g, kids[i], err);
            if (rc)
                return rc;
        }
        return DC_OK;
    }
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path || !row_parent_is(r->path, spath))
            continue;
        int rc = check_required_row(sc, g, r, err);
        if (rc)
            return rc;
    }
    return DC_OK;
}

static bool fits_int(double x)
{
    return x >= INT_MIN && x <= INT_MAX;
}

/* The names of a group's members, hashed: whether a default is missing
 * is asked for every row of the group's schema, and libconfig's
 * config_setting_get_member scans the members with strcmp (735,000
 * instructions of the flagship's validation). */
#define MEMBER_SET_CAP 256
typedef struct member_set {
    const char *name[MEMBER_SET_CAP];
    bool on; /* false: the group has too many members, ask libconfig */
} member_set;

static void member_set_fill(member_set *m, const config_setting_t *g)
{
    int n = config_setting_length(g);
    memset(m->name, 0, sizeof m->name);
    m->on = n < MEMBER_SET_CAP / 2;
    for (int i = 0; m->on && i < n; i++) {
        const char *name = config_setting_name(config_setting_get_elem(g, (unsigned)i));
        if (!name) {
            m->on = false;
            break;
        }
        size_t k = path_hash(name) & (MEMBER_SET_CAP - 1);
        while (m->name[k])
            k = (k + 1) & (MEMBER_SET_CAP - 1);
        m->name[k] = name;
    }
}

static bool member_set_has(const member_set *m, const config_setting_t *g, const char *name)
{
    if (!m || !m->on)
        return config_setting_get_member(g, name) != NULL;
    for (size_t k = path_hash(name) & (MEMBER_SET_CAP - 1); m->name[k]; k = (k + 1) & (MEMBER_SET_CAP - 1))
        if (strcmp(m->name[k], name) == 0)
            return true;
    return false;
}

/* Row r (a child of g's schema path): its default added when missing
 * (members: g's names before any default was added, or NULL). */
static int fill_default_row(const dc_scenario *sc, config_setting_t *g, const dc_param *r, const member_set *members,
                            dc_error *err)
{
    if ((r->flags & (DC_PARAM_REQUIRED | DC_PARAM_NO_DEFAULT)) || !row_first(sc, r))
        return DC_OK;
    const char *leaf = row_leaf(r->path);
    if (member_set_has(members, g, leaf))
        return DC_OK;
    config_setting_t *n = NULL;
    int ok = CONFIG_FALSE;
    switch (r->type) {
    case DC_PARAM_INT:
        if (fits_int(r->def)) {
            if ((n = config_setting_add(g, leaf, CONFIG_TYPE_INT)))
                ok = config_setting_set_int(n, (int)r->def);
        } else if ((n = config_setting_add(g, leaf, CONFIG_TYPE_INT64))) {
            ok = config_setting_set_int64(n, (long long)r->def);
        }
        break;
    case DC_PARAM_FLOAT:
        if ((r->flags & DC_PARAM_AUTO) && r->def_str) {
            if ((n = config_setting_add(g, leaf, CONFIG_TYPE_STRING)))
                ok = config_setting_set_string(n, r->def_str);
        } else if ((n = config_setting_add(g, leaf, CONFIG_TYPE_FLOAT))) {
            ok = config_setting_set_float(n, r->def);
        }
        break;
    case DC_PARAM_BOOL:
        if ((n = config_setting_add(g, leaf, CONFIG_TYPE_BOOL)))
            ok = config_setting_set_bool(n, r->def != 0);
        break;
    case DC_PARAM_STRING:
        if (!r->def_str)
            return DC_OK;
        if ((n = config_setting_add(g, leaf, CONFIG_TYPE_STRING)))
            ok = config_setting_set_string(n, r->def_str);
        break;
    default: /* groups and lists are never created */
        return DC_OK;
    }
    if (!n || !ok)
        return dc_error_set(err, n ? DC_ENOMEM : DC_EINTERNAL, "cannot add the default of %s (%s)", r->path,
                            n ? "out of memory" : "bad name in the schema");
    return DC_OK;
}

static int fill_defaults(const dc_scenario *sc, config_setting_t *g, const char *spath, size_t len, uint64_t h,
                         dc_error *err)
{
    const dc_param *const *kids;
    size_t nk;
    if (children_of_h(sc, spath, len, h, &kids, &nk)) {
        /* the rows' leaves are distinct (resolve: the first row of a path
         * wins), so a default added is never asked for again */
        member_set members;
        member_set_fill(&members, g);
        for (size_t i = 0; i < nk; i++) {
            int rc = fill_default_row(sc, g, kids[i], &members, err);
            if (rc)
                return rc;
        }
        return DC_OK;
    }
    FOR_EACH_ROW(sc->schemas, r) {
        if (!r->path || !row_parent_is(r->path, spath))
            continue;
        int rc = fill_default_row(sc, g, r, NULL, err);
        if (rc)
            return rc;
    }
    return DC_OK;
}

/* A numeric key given as a group: a distribution (uncertain.h). */
static bool is_distribution(const config_setting_t *s, const dc_param *row)
{
    return (row->type == DC_PARAM_INT || row->type == DC_PARAM_FLOAT) && config_setting_is_group(s);
}

static int visit_distribution(dc_scenario *sc, config_setting_t *s, const dc_param *row, enum phase phase,
                              dc_error *err)
{
    dc_uncertain u;
    int rc;
    switch (phase) {
    case PH_KNOWN:
        return dc_uncertain_check_names(sc, s, err);
    case PH_TYPE:
        return dc_uncertain_check_types(sc, s, err);
    case PH_RANGE:
        rc = dc_uncertain_parse(sc, s, row, &u, err);
        if (rc == DC_OK)
            dc_uncertain_free(&u);
        return rc;
    default:
        return DC_OK;
    }
}

/* The schema path of s, a child of the setting whose schema path is
 * parent (plen bytes, path_hash ph): the characters build_path would
 * write, without walking up to the root again for every setting (1,800
 * walks in the flagship's validation, 0.7 M instructions), and its
 * length and path_hash continued from the parent's (each setting's path
 * was hashed whole, and copied piece by piece, at each of the five
 * phases).  Cut at size - 1 bytes as sb_put cuts. */
static size_t child_schema_path(const config_setting_t *s, const char *parent, size_t plen, uint64_t ph, char *buf,
                                size_t size, uint64_t *h)
{
    const config_setting_t *up = config_setting_parent(s);
    const char *comp = config_setting_is_list(up) || config_setting_is_array(up) ? "[]"
                       : config_setting_name(s)                                 ? config_setting_name(s)
                                                                                : "?";
    size_t len = plen < size - 1 ? plen : size - 1;
    memcpy(buf, parent, len);
    uint64_t x = ph;
    if (len > 0 && len < size - 1) {
        buf[len++] = '.';
        x = (x ^ (unsigned char)'.') * 0x100000001b3ULL;
    }
    for (const char *c = comp; *c && len < size - 1; c++) {
        buf[len++] = *c;
        x = (x ^ (unsigned char)*c) * 0x100000001b3ULL;
    }
    buf[len] = '\0';
    *h = x;
    return len;
}

/* parent_spath: the schema path of s's parent (plen bytes, path_hash ph),
 * NULL for the root. */
static int visit(dc_scenario *sc, config_setting_t *s, const char *parent_spath, size_t plen, uint64_t ph,
                 enum phase phase, dc_error *err)
{
    char spath[PATH_BUF];
    size_t len;
    uint64_t h;
    if (parent_spath && !config_setting_is_root(s)) {
        len = child_schema_path(s, parent_spath, plen, ph, spath, sizeof spath, &h);
    } else {
        schema_path(s, spath, sizeof spath);
        len = strlen(spath);
        h = path_hash(spath);
    }
    const dc_param *row;
    bool root = config_setting_is_root(s);
    if (root) {
        row = &group_row;
    } else {
        const config_setting_t *p = config_setting_parent(s);
        if (config_setting_is_list(p) || config_setting_is_array(p))
            row = &group_row; /* an element of a list of groups */
        else
            row = resolve_h(sc, spath, len, h);
    }
    if (!row)
        return phase == PH_KNOWN ? unknown_key(sc, s, err) : DC_OK;
    if (!root && is_distribution(s, row))
        return visit_distribution(sc, s, row, phase, err);
    int rc = DC_OK;
    if (!root && phase == PH_TYPE)
        rc = check_type(sc, s, row, err);
    else if (!root && phase == PH_RANGE)
        rc = check_range(sc, s, row, err);
    if (rc)
        return rc;
    bool group = config_setting_is_group(s);
    if (!(((row->type == DC_PARAM_GROUP || (row->flags & DC_PARAM_OR_GROUP)) && group) ||
          (row->type == DC_PARAM_LIST && config_setting_is_list(s))))
        return DC_OK;
    if (group && phase == PH_REQUIRED)
        rc = check_required(sc, s, spath, len, h, err);
    else if (group && phase == PH_DEFAULTS)
        rc = fill_defaults(sc, s, spath, len, h, err);
    if (rc)
        return rc;
    int n = config_setting_length(s);
    for (int i = 0; i < n; i++) {
        rc = visit(sc, config_setting_get_elem(s, (unsigned)i), spath, len, h, phase, err);
        if (rc)
            return rc;
    }
    return DC_OK;
}

static int resolve_distributions(dc_scenario *sc, dc_error *err);

int dc_scenario_validate(dc_scenario *sc, dc_error *err)
{
    if (!sc)
        return dc_error_set(err, DC_EINTERNAL, "dc_scenario_validate: no scenario");
    if (!sc->schemas)
        return dc_error_set(err, DC_EINTERNAL, "%s: no schema to validate against", sc->name);
    static const enum phase phases[] = {PH_KNOWN, PH_TYPE, PH_RANGE, PH_REQUIRED, PH_DEFAULTS};
    for (size_t i = 0; i < sizeof phases / sizeof phases[0]; i++) {
        int rc = visit(sc, config_root_setting(&sc->cfg), NULL, 0, 0, phases[i], err);
        if (rc)
            return rc;
    }
    return resolve_distributions(sc, err);
}

/* ---------- uncertain inputs ---------- */

typedef struct setting_list {
    config_setting_t **s;
    const dc_param **row;
    size_t n, cap;
} setting_list;

/* The distribution groups under s (schema path spath: len bytes, path_hash
 * h), in file order.  Each member's path is continued from s's, as visit
 * does (built from the root for each, the flagship's 340 settings cost
 * 0.2 M instructions). */
static bool collect_distributions(const dc_scenario *sc, config_setting_t *s, const char *spath, size_t len,
                                  uint64_t h, setting_list *out)
{
    int n = config_setting_length(s);
    for (int i = 0; i < n; i++) {
        config_setting_t *m = config_setting_get_elem(s, (unsigned)i);
        char mpath[PATH_BUF];
        uint64_t mh;
        size_t mlen = child_schema_path(m, spath, len, h, mpath, sizeof mpath, &mh);
        if (config_setting_is_list(s)) {
            if (config_setting_is_group(m) && !collect_distributions(sc, m, mpath, mlen, mh, out))
                return false;
            continue;
        }
        const dc_param *row = resolve_h(sc, mpath, mlen, mh);
        if (!row)
            continue;
        if (is_distribution(m, row)) {
            if (out->n == out->cap) {
                size_t cap = out->cap ? 2 * out->cap : 8;
                config_setting_t **ns = realloc(out->s, cap * sizeof *ns);
                if (ns)
                    out->s = ns;
                const dc_param **nr = realloc(out->row, cap * sizeof *nr);
                if (nr)
                    out->row = nr;
                if (!ns || !nr)
                    return false;
                out->cap = cap;
            }
            out->s[out->n] = m;
            out->row[out->n++] = row;
        } else if ((config_setting_is_group(m) || config_setting_is_list(m)) &&
                   !collect_distributions(sc, m, mpath, mlen, mh, out)) {
            return false;
        }
    }
    return true;
}

static void write_value(const dc_uncertain *u, double x)
{
    if (config_setting_type(u->setting) == CONFIG_TYPE_FLOAT)
        config_setting_set_float(u->setting, x);
    else
        config_setting_set_int64(u->setting, (long long)x);
}

/* Records every distribution group as an uncertain input and puts its median
 * in its place, so that every model reads a plain number (the sweep writes
 * each replication's draw there). */
static int resolve_distributions(dc_scenario *sc, dc_error *err)
{
    setting_list found = {0};
    int rc = DC_OK;
    if (!collect_distributions(sc, config_root_setting(&sc->cfg), "", 0, path_hash(""), &found)) {
        rc = dc_error_set(err, DC_ENOMEM, "out of memory");
        goto done;
    }
    if (found.n > 0 && sc->n_unc + found.n > sc->cap_unc) {
        dc_uncertain *p = realloc(sc->unc, (sc->n_unc + found.n) * sizeof *p);
        if (!p) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            goto done;
        }
        sc->unc = p;
        sc->cap_unc = sc->n_unc + found.n;
    }
    for (size_t i = 0; i < found.n && rc == DC_OK; i++) {
        config_setting_t *g = found.s[i];
        dc_uncertain u;
        rc = dc_uncertain_parse(sc, g, found.row[i], &u, err);
        if (rc != DC_OK)
            break;
        config_setting_t *parent = config_setting_parent(g);
        char *name = strdup(config_setting_name(g));
        unsigned line = config_setting_source_line(g);
        const char *file = config_setting_source_file(g);
        int type = CONFIG_TYPE_FLOAT;
        if (u.integer)
            type = u.lo >= INT_MIN && u.hi <= INT_MAX ? CONFIG_TYPE_INT : CONFIG_TYPE_INT64;
        config_setting_t *n = NULL;
        if (name && config_setting_remove(parent, name) == CONFIG_TRUE)
            n = config_setting_add(parent, name, type);
        free(name);
        if (!n) {
            dc_uncertain_free(&u);
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        /* Keep the group's place in the file for later messages (libconfig
         * 1.5 exposes these fields; the file name is owned by the config). */
        n->line = line;
        n->file = file;
        u.setting = n;
        write_value(&u, dc_uncertain_quantile(&u, 0.5));
        sc->unc[sc->n_unc++] = u;
    }
done:
    free(found.s);
    free(found.row);
    return rc;
}

size_t dc_scenario_uncertain_count(const dc_scenario *sc)
{
    return sc ? sc->n_unc : 0;
}

const dc_uncertain *dc_scenario_uncertain(const dc_scenario *sc, size_t i)
{
    return sc && i < sc->n_unc ? &sc->unc[i] : NULL;
}

void dc_scenario_uncertain_set(dc_scenario *sc, size_t i, double x)
{
    if (sc && i < sc->n_unc)
        write_value(&sc->unc[i], x);
}

void dc_scenario_sample(dc_scenario *sc, uint64_t seed, double *values)
{
    for (size_t i = 0; sc && i < sc->n_unc; i++) {
        const dc_uncertain *u = &sc->unc[i];
        double x = dc_uncertain_quantile(u, dc_uncertain_draw(seed, u->stream));
        write_value(u, x);
        if (values)
            values[i] = x;
    }
}

/* --set of an uncertain key after validation fixes its value. */
static void forget_uncertain(dc_scenario *sc, const char *path)
{
    for (size_t i = 0; i < sc->n_unc; i++) {
        if (strcmp(sc->unc[i].path, path) != 0)
            continue;
        dc_uncertain_free(&sc->unc[i]);
        memmove(&sc->unc[i], &sc->unc[i + 1], (sc->n_unc - i - 1) * sizeof *sc->unc);
        sc->n_unc--;
        return;
    }
}

/* ---------- --set ---------- */

typedef struct path_comp {
    char name[128]; /* "" for an index */
    long index;          /* -1 for a name */
} path_comp;

static bool name_char(char c, bool first)
{
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '*')
        return true;
    return !first && ((c >= '0' && c <= '9') || c == '_' || c == '-');
}

/* "a.b.[2].c" (or "a.b[2].c") into components; false when malformed. */
static bool parse_path(const char *p, path_comp *comps, int *ncomp)
{
    int n = 0;
    if (*p == '\0')
        return false;
    while (*p) {
        if (n == MAX_COMPONENTS)
            return false;
        path_comp *c = &comps[n];
        if (*p == '[') {
            p++;
            if (*p < '0' || *p > '9')
                return false;
            char *end;
            errno = 0;
            long v = strtol(p, &end, 10);
            if (errno || *end != ']' || v > INT_MAX)
                return false;
            c->name[0] = '\0';
            c->index = v;
            p = end + 1;
        } else {
            size_t len = 0;
            while (p[len] && p[len] != '.' && p[len] != '[') {
                if (!name_char(p[len], len == 0))
                    return false;
                len++;
            }
            if (len == 0 || len >= sizeof c->name)
                return false;
            memcpy(c->name, p, len);
            c->name[len] = '\0';
            c->index = -1;
            p += len;
        }
        n++;
        if (*p == '.') {
            p++;
            if (*p == '\0')
                return false;
        } else if (*p != '\0' && *p != '[') {
            return false;
        }
    }
    *ncomp = n;
    return true;
}

/* The first n components as a path; schema form uses "[]" for indices. */
static void comps_path(const path_comp *comps, int n, bool schema, char *buf, size_t size)
{
    sbuf b = {buf, size, 0};
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (i > 0)
            sb_add(&b, ".");
        if (comps[i].index < 0)
            sb_add(&b, "%s", comps[i].name);
        else if (schema)
            sb_add(&b, "[]");
        else
            sb_add(&b, "[%ld]", comps[i].index);
    }
}

typedef struct set_value {
    int type; /* CONFIG_TYPE_* */
    long long i;
    double f;
    int b;
    char *s; /* malloc'd */
} set_value;

/* Parses text for row; returns NULL on success or what was expected. */
static const char *parse_value(const dc_param *row, const char *text, set_value *v)
{
    char *end;
    memset(v, 0, sizeof *v);
    switch (row->type) {
    case DC_PARAM_INT: {
        const char *p = text;
        bool neg = false;
        if (*p == '+' || *p == '-')
            neg = *p++ == '-';
        int base = 10;
        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
            base = 16;
            p += 2;
        }
        if (!(base == 16 ? isxdigit((unsigned char)*p) : isdigit((unsigned char)*p)))
            return "expected an integer";
        errno = 0;
        unsigned long long u = strtoull(p, &end, base);
        if (*end == 'L')
            end += end[1] == 'L' ? 2 : 1;
        if (*end != '\0')
            return "expected an integer";
        if (errno == ERANGE || u > (unsigned long long)LLONG_MAX + (neg ? 1u : 0u))
            return "expected an integer (out of range)";
        v->i = neg ? (long long)(0 - u) : (long long)u;
        v->type = v->i >= INT_MIN && v->i <= INT_MAX ? CONFIG_TYPE_INT : CONFIG_TYPE_INT64;
        return NULL;
    }
    case DC_PARAM_FLOAT:
        if ((row->flags & DC_PARAM_AUTO) &&
            (strcmp(text, "auto") == 0 || strcmp(text, "\"auto\"") == 0)) {
            v->type = CONFIG_TYPE_STRING;
            v->s = strdup("auto");
            return v->s ? NULL : "";
        }
        if (text[0] == '\0')
            return (row->flags & DC_PARAM_AUTO) ? "expected a number or \"auto\""
                                                 : "expected a number";
        v->f = strtod(text, &end);
        if (end == text || *end != '\0')
            return (row->flags & DC_PARAM_AUTO) ? "expected a number or \"auto\""
                                                 : "expected a number";
        if (!isfinite(v->f))
            return "expected a finite number";
        v->type = CONFIG_TYPE_FLOAT;
        return NULL;
    case DC_PARAM_BOOL:
        if (strcasecmp(text, "true") == 0)
            v->b = 1;
        else if (strcasecmp(text, "false") == 0)
            v->b = 0;
        else
            return "expected true or false";
        v->type = CONFIG_TYPE_BOOL;
        return NULL;
    case DC_PARAM_STRING: {
        size_t len = strlen(text);
        v->type = CONFIG_TYPE_STRING;
        if (text[0] != '"') {
            v->s = strdup(text);
            return v->s ? NULL : "";
        }
        v->s = malloc(len + 1);
        if (!v->s)
            return "";
        size_t o = 0;
        const char *p = text + 1;
        for (; *p && *p != '"'; p++) {
            if (*p == '\\' && p[1]) {
                p++;
                v->s[o++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            } else {
                v->s[o++] = *p;
            }
        }
        v->s[o] = '\0';
        if (*p != '"' || p[1] != '\0') {
            free(v->s);
            v->s = NULL;
            return "expected a string (unbalanced double quotes)";
        }
        return NULL;
    }
    default:
        return "expected a single value";
    }
}

static int record_reserve(dc_scenario *sc, size_t extra)
{
    if (sc->n_set + extra <= sc->cap_set)
        return DC_OK;
    size_t cap = sc->cap_set ? sc->cap_set : 8;
    while (cap < sc->n_set + extra)
        cap *= 2;
    char **p = realloc(sc->set_paths, cap * sizeof *p);
    if (!p)
        return DC_ENOMEM;
    sc->set_paths = p;
    sc->cap_set = cap;
    return DC_OK;
}

/* Records path (storage reserved beforehand); false when out of memory. */
static bool record_set(dc_scenario *sc, const char *path)
{
    if (was_set(sc, path))
        return true;
    char *copy = strdup(path);
    if (!copy)
        return false;
    sc->set_paths[sc->n_set++] = copy;
    return true;
}

static int set_unknown(const dc_scenario *sc, const char *a, const path_comp *comps, int n,
                       dc_error *err)
{
    /* The first component the schema does not know; suggest a neighbour. */
    char prefix[PATH_BUF], sugg[64];
    for (int k = 0; k < n; k++) {
        comps_path(comps, k + 1, true, prefix, sizeof prefix);
        if (resolve(sc, prefix))
            continue;
        if (comps[k].index >= 0)
            break;
        comps_path(comps, k, true, prefix, sizeof prefix);
        if (!suggest(sc->schemas, prefix, comps[k].name, sugg, sizeof sugg))
            break;
        path_comp fixed[MAX_COMPONENTS];
        memcpy(fixed, comps, (size_t)n * sizeof *comps);
        snprintf(fixed[k].name, sizeof fixed[k].name, "%s", sugg);
        comps_path(fixed, n, true, prefix, sizeof prefix);
        const dc_param *row = resolve(sc, prefix);
        if (!row || row->type == DC_PARAM_GROUP || row->type == DC_PARAM_LIST)
            break;
        comps_path(fixed, n, false, prefix, sizeof prefix);
        return dc_error_set(err, DC_EINPUT, "--set %s: unknown key (did you mean %s?)", a, prefix);
    }
    return dc_error_set(err, DC_EINPUT, "--set %s: unknown key", a);
}

/* --set KEY.PARAM=VALUE of a parameter of a distribution-valued key (before
 * validation, which checks it like the rest of the group). */
static int set_distribution_key(dc_scenario *sc, const char *a, const path_comp *comps, int n, const char *value,
                                dc_error *err)
{
    char parent[PATH_BUF], pspath[PATH_BUF];
    comps_path(comps, n - 1, false, parent, sizeof parent);
    comps_path(comps, n - 1, true, pspath, sizeof pspath);
    const dc_param *prow = resolve(sc, pspath);
    const char *leaf = comps[n - 1].name;
    if (!prow || (prow->type != DC_PARAM_INT && prow->type != DC_PARAM_FLOAT))
        return dc_error_set(err, DC_EINPUT, "--set %s: unknown key", a);
    config_setting_t *g = config_lookup(&sc->cfg, parent);
    if (!g || !config_setting_is_group(g))
        return dc_error_set(err, DC_EINPUT, "--set %s: %s is not a distribution in the scenario", a, parent);
    bool text = strcmp(leaf, "dist") == 0 || strcmp(leaf, "stream") == 0;
    if (strcmp(leaf, "values") == 0 || strcmp(leaf, "weights") == 0)
        return dc_error_set(err, DC_EINPUT, "--set %s: --set cannot give a list; edit the scenario", a);
    char *end;
    double x = text ? 0.0 : strtod(value, &end);
    if (!text && (end == value || *end != '\0' || !isfinite(x)))
        return dc_error_set(err, DC_EINPUT, "--set %s: expected a number", a);
    char path[PATH_BUF + 160];
    snprintf(path, sizeof path, "%s.%s", parent, leaf);
    if (record_reserve(sc, 1) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
    if (config_setting_get_member(g, leaf))
        config_setting_remove(g, leaf);
    config_setting_t *s = config_setting_add(g, leaf, text ? CONFIG_TYPE_STRING : CONFIG_TYPE_FLOAT);
    const char *v = value;
    size_t len = strlen(v);
    char *unquoted = NULL;
    if (text && len >= 2 && v[0] == '"' && v[len - 1] == '"')
        v = unquoted = strndup(v + 1, len - 2);
    int ok = s && v && (text ? config_setting_set_string(s, v) : config_setting_set_float(s, x));
    free(unquoted);
    if (!ok || !record_set(sc, path))
        return dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
    return DC_OK;
}

int dc_scenario_set(dc_scenario *sc, const char *assignment, dc_error *err)
{
    if (!sc || !assignment)
        return dc_error_set(err, DC_EINTERNAL, "dc_scenario_set: no scenario or assignment");
    const char *a = assignment;
    const char *eq = strchr(a, '=');
    if (!eq || eq == a)
        return dc_error_set(err, DC_EINPUT, "--set %s: expected PATH=VALUE", a);
    if (!sc->schemas)
        return dc_error_set(err, DC_EINTERNAL, "--set %s: no schema to check it against", a);

    /* Blanks around the path and the value are ignored (quote a string to
     * keep them). */
    const char *pb = a, *pe = eq;
    while (pb < pe && isblank((unsigned char)*pb))
        pb++;
    while (pe > pb && isblank((unsigned char)pe[-1]))
        pe--;
    if (pe == pb)
        return dc_error_set(err, DC_EINPUT, "--set %s: expected PATH=VALUE", a);
    char text[PATH_BUF];
    size_t plen = (size_t)(pe - pb);
    if (plen >= sizeof text)
        return dc_error_set(err, DC_EINPUT, "--set %s: path too long", a);
    memcpy(text, pb, plen);
    text[plen] = '\0';
    const char *vb = eq + 1, *ve = eq + strlen(eq);
    while (vb < ve && isblank((unsigned char)*vb))
        vb++;
    while (ve > vb && isblank((unsigned char)ve[-1]))
        ve--;
    char *value = strndup(vb, (size_t)(ve - vb));
    path_comp *comps = calloc(MAX_COMPONENTS, sizeof *comps);
    if (!comps || !value) {
        free(comps);
        free(value);
        return dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
    }
    int n = 0;
    int rc = DC_OK;
    set_value v = {0};
    char spath[PATH_BUF], cpath[PATH_BUF], prefix[PATH_BUF];

    if (!parse_path(text, comps, &n)) {
        rc = dc_error_set(err, DC_EINPUT, "--set %s: invalid path '%s'", a, text);
        goto done;
    }
    comps_path(comps, n, true, spath, sizeof spath);
    comps_path(comps, n, false, cpath, sizeof cpath);
    const dc_param *row = resolve(sc, spath);
    if (!row && n >= 2 && comps[n - 1].index < 0 && dc_uncertain_is_key(comps[n - 1].name)) {
        rc = set_distribution_key(sc, a, comps, n, value, err);
        goto done;
    }
    if (!row || comps[0].index >= 0) {
        rc = set_unknown(sc, a, comps, n, err);
        goto done;
    }
    if (row->type == DC_PARAM_GROUP || row->type == DC_PARAM_LIST) {
        rc = dc_error_set(err, DC_EINPUT, "--set %s: %s is a %s, not a single value", a, cpath,
                          row->type == DC_PARAM_GROUP ? "group" : "list");
        goto done;
    }
    const char *expected = parse_value(row, value, &v);
    if (expected) {
        rc = expected[0] ? dc_error_set(err, DC_EINPUT, "--set %s: %s", a, expected)
                         : dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
        goto done;
    }

    /* Walk what exists; everything below must be creatable groups. */
    config_setting_t *cur = config_root_setting(&sc->cfg);
    int k;
    for (k = 0; k < n - 1; k++) {
        config_setting_t *next;
        comps_path(comps, k + 1, false, prefix, sizeof prefix);
        if (comps[k].index >= 0) {
            next = config_setting_get_elem(cur, (unsigned)comps[k].index);
            if (!next) {
                char list[PATH_BUF];
                comps_path(comps, k, false, list, sizeof list);
                rc = dc_error_set(err, DC_EINPUT, "--set %s: %s has no element [%ld] (it has %d)",
                                  a, list, comps[k].index, config_setting_length(cur));
                goto done;
            }
        } else {
            next = config_setting_get_member(cur, comps[k].name);
            if (!next)
                break;
        }
        comps_path(comps, k + 1, true, spath, sizeof spath);
        const dc_param *prow = comps[k].index >= 0 ? &group_row : resolve(sc, spath);
        bool want_list = prow && prow->type == DC_PARAM_LIST;
        if (want_list ? !config_setting_is_list(next) : !config_setting_is_group(next)) {
            rc = dc_error_set(err, DC_EINPUT, "--set %s: %s in the scenario is %s, not a %s", a,
                              prefix, setting_kind(next), want_list ? "list" : "group");
            goto done;
        }
        cur = next;
    }
    for (int j = k; j < n - 1; j++) {
        if (comps[j].index >= 0 || (j + 1 < n && comps[j + 1].index >= 0)) {
            comps_path(comps, j + 1, false, prefix, sizeof prefix);
            rc = dc_error_set(err, DC_EINPUT,
                              "--set %s: %s is not in the scenario (--set does not create list "
                              "elements)", a, prefix);
            goto done;
        }
    }
    if (record_reserve(sc, (size_t)n) != DC_OK) {
        rc = dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
        goto done;
    }

    /* From here on the scenario changes. */
    for (; k < n - 1; k++) {
        cur = config_setting_add(cur, comps[k].name, CONFIG_TYPE_GROUP);
        comps_path(comps, k + 1, false, prefix, sizeof prefix);
        if (!cur || !record_set(sc, prefix)) {
            rc = dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
            goto done;
        }
    }
    const char *leaf = comps[n - 1].name;
    if (config_setting_get_member(cur, leaf)) {
        forget_uncertain(sc, cpath);
        config_setting_remove(cur, leaf);
    }
    config_setting_t *s = config_setting_add(cur, leaf, v.type);
    int ok = CONFIG_FALSE;
    if (s) {
        switch (v.type) {
        case CONFIG_TYPE_INT:
            ok = config_setting_set_int(s, (int)v.i);
            break;
        case CONFIG_TYPE_INT64:
            ok = config_setting_set_int64(s, v.i);
            break;
        case CONFIG_TYPE_FLOAT:
            ok = config_setting_set_float(s, v.f);
            break;
        case CONFIG_TYPE_BOOL:
            ok = config_setting_set_bool(s, v.b);
            break;
        default:
            ok = config_setting_set_string(s, v.s);
            break;
        }
    }
    if (!ok || !record_set(sc, cpath))
        rc = dc_error_set(err, DC_ENOMEM, "--set %s: out of memory", a);
done:
    free(v.s);
    free(value);
    free(comps);
    return rc;
}

/* ---------- output ---------- */

/* The effective scenario's text, built in a growing buffer: stdio's
 * formatting cost the flagship's trace 1.3 M instructions for 12 KB. */
typedef struct tbuf {
    char *p;
    size_t len, cap;
    bool failed;
} tbuf;

static void tb_put(tbuf *b, const char *s, size_t n)
{
    if (b->failed)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *grown = realloc(b->p, cap);
        if (!grown) {
            b->failed = true;
            return;
        }
        b->p = grown;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

static void tb_str(tbuf *b, const char *s)
{
    tb_put(b, s, strlen(s));
}

static void tb_pad(tbuf *b, int n)
{
    static const char spaces[] = "                                ";
    for (; n > 0; n -= 32)
        tb_put(b, spaces, n < 32 ? (size_t)n : 32);
}

/* The decimal digits of v, as printf's %llu writes them. */
static void tb_uint(tbuf *b, unsigned long long v)
{
    char d[24];
    size_t i = sizeof d;
    do
        d[--i] = (char)('0' + v % 10);
    while ((v /= 10) > 0);
    tb_put(b, d + i, sizeof d - i);
}

static void tb_int(tbuf *b, long long v)
{
    if (v < 0) {
        tb_put(b, "-", 1);
        tb_uint(b, 0ULL - (unsigned long long)v);
    } else {
        tb_uint(b, (unsigned long long)v);
    }
}

/* A number as the shortest text that reads back as the same double (%.15g,
 * %.16g or %.17g), always with a '.' or an exponent so that libconfig reads
 * a float.  libconfig's own writer keeps fewer digits, so a scenario
 * written by it was not the scenario that ran (issue 18 item 10).  An
 * integer below 1e15 in magnitude is what %.15g writes of it (its digits,
 * no exponent) and reads back exactly: written directly. */
static void write_float(tbuf *b, double x)
{
    if (x == floor(x) && fabs(x) < 1e15) {
        if (signbit(x))
            tb_put(b, "-", 1);
        tb_uint(b, (unsigned long long)fabs(x));
        tb_put(b, ".0", 2);
        return;
    }
    char buf[40];
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    tb_str(b, buf);
    if (!strpbrk(buf, ".eEn")) /* n: inf, nan (never in a validated scenario) */
        tb_put(b, ".0", 2);
}

static void write_string(tbuf *b, const char *s)
{
    tb_put(b, "\"", 1);
    const unsigned char *p = (const unsigned char *)s, *run = p;
    for (; *p; p++) {
        if (*p >= 0x20 && *p != '"' && *p != '\\')
            continue;
        tb_put(b, (const char *)run, (size_t)(p - run));
        run = p + 1;
        char esc[8];
        if (*p == '"' || *p == '\\')
            snprintf(esc, sizeof esc, "\\%c", *p);
        else if (*p == '\n')
            snprintf(esc, sizeof esc, "\\n");
        else if (*p == '\t')
            snprintf(esc, sizeof esc, "\\t");
        else if (*p == '\r')
            snprintf(esc, sizeof esc, "\\r");
        else if (*p == '\f')
            snprintf(esc, sizeof esc, "\\f");
        else
            snprintf(esc, sizeof esc, "\\x%02X", *p);
        tb_str(b, esc);
    }
    tb_put(b, (const char *)run, (size_t)(p - run));
    tb_put(b, "\"", 1);
}

static void text_setting(tbuf *b, const config_setting_t *s, int depth);

static void text_value(tbuf *b, const config_setting_t *s, int depth)
{
    int n = config_setting_length(s);
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
        tb_int(b, config_setting_get_int(s));
        break;
    case CONFIG_TYPE_INT64:
        tb_int(b, config_setting_get_int64(s));
        tb_put(b, "L", 1);
        break;
    case CONFIG_TYPE_FLOAT:
        write_float(b, config_setting_get_float(s));
        break;
    case CONFIG_TYPE_BOOL:
        tb_str(b, config_setting_get_bool(s) ? "true" : "false");
        break;
    case CONFIG_TYPE_STRING:
        write_string(b, config_setting_get_string(s));
        break;
    case CONFIG_TYPE_GROUP:
        tb_put(b, "{\n", 2);
        for (int i = 0; i < n; i++)
            text_setting(b, config_setting_get_elem(s, (unsigned)i), depth + 1);
        tb_pad(b, 2 * depth);
        tb_put(b, "}", 1);
        break;
    case CONFIG_TYPE_LIST:
    case CONFIG_TYPE_ARRAY: {
        bool list = config_setting_type(s) == CONFIG_TYPE_LIST;
        tb_put(b, list ? "( " : "[ ", 2);
        for (int i = 0; i < n; i++) {
            if (i)
                tb_put(b, ", ", 2);
            text_value(b, config_setting_get_elem(s, (unsigned)i), depth);
        }
        tb_put(b, list ? " )" : " ]", 2);
        break;
    }
    default:
        break;
    }
}

static void text_setting(tbuf *b, const config_setting_t *s, int depth)
{
    tb_pad(b, 2 * depth);
    tb_str(b, config_setting_name(s));
    tb_put(b, " = ", 3);
    text_value(b, s, depth);
    tb_put(b, ";\n", 2);
}

char *dc_scenario_text(const dc_scenario *sc)
{
    if (!sc)
        return NULL;
    tbuf b = {0};
    tb_put(&b, "", 0); /* "" for an empty scenario, as before */
    const config_setting_t *root = config_root_setting(&sc->cfg);
    for (int i = 0; i < config_setting_length(root); i++)
        text_setting(&b, config_setting_get_elem(root, (unsigned)i), 0);
    if (b.failed) {
        free(b.p);
        return NULL;
    }
    return b.p;
}

/* Writes text into a Markdown table cell: '|' escaped, newlines as spaces. */
static void md_cell(FILE *out, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p == '|')
            fputs("\\|", out);
        else if (*p == '\n' || *p == '\r')
            fputc(' ', out);
        else
            fputc(*p, out);
    }
}

/* The section of a row: its first component, "" for top-level values. */
static size_t section_of(const dc_param *r, const char **name)
{
    size_t len = strcspn(r->path, ".");
    *name = r->path;
    if (r->path[len] == '\0' && r->type != DC_PARAM_GROUP && r->type != DC_PARAM_LIST)
        return 0;
    return len;
}

static bool same_section(const dc_param *a, const dc_param *b)
{
    const char *na, *nb;
    size_t la = section_of(a, &na), lb = section_of(b, &nb);
    return la == lb && strncmp(na, nb, la) == 0;
}

/* Whether a row with the same path (or, for sections, the same section)
 * comes before row r in the schemas. */
static bool seen_before(const dc_param *const *schemas, const dc_param *r, bool section)
{
    FOR_EACH_ROW(schemas, q) {
        if (q == r)
            return false;
        if (!q->path)
            continue;
        if (section ? same_section(q, r) : strcmp(q->path, r->path) == 0)
            return true;
    }
    return false;
}

static void write_row(const dc_param *r, FILE *out)
{
    static const char *const types[] = {"", "integer", "number", "boolean", "string",
                                        "group", "list of groups"};
    char num[40], num2[40];
    fputs("| `", out);
    md_cell(out, r->path);
    fputs("` | ", out);
    fputs(r->type >= DC_PARAM_INT && r->type <= DC_PARAM_LIST ? types[r->type] : "?", out);
    if (r->type == DC_PARAM_FLOAT && (r->flags & DC_PARAM_AUTO))
        fputs(" or `auto`", out);
    if (r->flags & DC_PARAM_OR_GROUP)
        fputs(" or group", out);
    fputs(" | ", out);
    md_cell(out, r->unit);
    fputs(" | ", out);
    /* default */
    if (r->flags & DC_PARAM_REQUIRED) {
        fputs("required", out);
    } else if ((r->flags & DC_PARAM_NO_DEFAULT) || r->type == DC_PARAM_GROUP ||
               r->type == DC_PARAM_LIST) {
        fputs("—", out);
    } else if (r->type == DC_PARAM_FLOAT && (r->flags & DC_PARAM_AUTO) && r->def_str) {
        fputs("`", out);
        md_cell(out, r->def_str);
        fputs("`", out);
    } else if (r->type == DC_PARAM_INT || r->type == DC_PARAM_FLOAT) {
        fmt_num(r->def, num, sizeof num);
        fprintf(out, "%s", num);
    } else if (r->type == DC_PARAM_BOOL) {
        fputs(r->def != 0 ? "`true`" : "`false`", out);
    } else if (r->type == DC_PARAM_STRING && r->def_str) {
        fputs("`\"", out);
        md_cell(out, r->def_str);
        fputs("\"`", out);
    } else {
        fputs("—", out);
    }
    fputs(" | ", out);
    /* range */
    if (r->type == DC_PARAM_INT || r->type == DC_PARAM_FLOAT) {
        bool lo = has_min(r), hi = has_max(r);
        fmt_num(r->min, num, sizeof num);
        fmt_num(r->max, num2, sizeof num2);
        bool lx = r->flags & DC_PARAM_MIN_EXCLUSIVE, hx = r->flags & DC_PARAM_MAX_EXCLUSIVE;
        if (lo && hi)
            fprintf(out, "%c%s, %s%c", lx ? '(' : '[', num, num2, hx ? ')' : ']');
        else if (lo)
            fprintf(out, "%s %s", lx ? ">" : "≥", num);
        else if (hi)
            fprintf(out, "%s %s", hx ? "<" : "≤", num2);
    } else if (r->type == DC_PARAM_STRING && r->choices) {
        const char *p = r->choices;
        for (bool first = true;; first = false) {
            size_t len = strcspn(p, "|");
            fprintf(out, "%s`%.*s`", first ? "" : ", ", (int)len, p);
            if (p[len] == '\0')
                break;
            p += len + 1;
        }
    }
    fputs(" | ", out);
    md_cell(out, r->doc);
    fputs(" |\n", out);
}

static void write_distributions(FILE *out)
{
    fputs("\n## Distributions (uncertain inputs)\n\n"
          "Any key of type integer or number above may hold, instead of a number, a distribution for a\n"
          "Monte Carlo sweep (`dcsim sweep`) to sample once per replication, for example\n"
          "`mfu = { dist = \"normal\"; mean = 0.41; sd = 0.03; };`.  `dcsim run` and `dcsim validate`\n"
          "take its median.  Samples stay within the key's range (the law is truncated to it).\n\n"
          "| `dist` | Parameters | Law |\n"
          "|--------|------------|-----|\n"
          "| `normal` | `mean`, `sd` (≥ 0) [, `min`, `max`] | normal, truncated to the key's range and [min, max] |\n"
          "| `lognormal` | `median`, `sigma` — or `mean`, `sd` of the value [, `min`, `max`] | ln X normal |\n"
          "| `uniform` | `min`, `max` | uniform on [min, max] |\n"
          "| `triangular` | `min`, `mode`, `max` | triangular |\n"
          "| `weibull` | `scale`, `shape` [, `loc`, `min`, `max`] | F(x) = 1 - exp(-((x - loc)/scale)^shape) |\n"
          "| `empirical` | `values = [...]` [, `weights = [...]`] | one of the values, equally likely or weighted |\n\n"
          "Any of them may name a `stream`: inputs that name the same stream are drawn from the same\n"
          "uniform number and move together (one failure-rate factor shared by several failure classes).\n"
          "Replication r of every grid point of a sweep draws the same numbers (common random numbers).\n",
          out);
}

void dc_scenario_write_reference(const dc_param *const *schemas, FILE *out)
{
    if (!schemas || !out)
        return;
    bool first = true;
    FOR_EACH_ROW(schemas, r) {
        if (!r->path || seen_before(schemas, r, true))
            continue;
        const char *name;
        size_t len = section_of(r, &name);
        if (!first)
            fputc('\n', out);
        first = false;
        if (len == 0)
            fputs("## Top-level keys\n\n", out);
        else
            fprintf(out, "## `%.*s`\n\n", (int)len, name);
        fputs("| Key | Type | Unit | Default | Range | Description |\n"
              "|-----|------|------|---------|-------|-------------|\n", out);
        FOR_EACH_ROW(schemas, q) {
            if (q->path && same_section(q, r) && !seen_before(schemas, q, false))
                write_row(q, out);
        }
    }
    write_distributions(out);
}

bool dc_scenario_number(const config_setting_t *s, double *v)
{
    if (!s)
        return false;
    switch (config_setting_type(s)) {
    case CONFIG_TYPE_INT:
    case CONFIG_TYPE_INT64:
        *v = (double)config_setting_get_int64(s);
        return true;
    case CONFIG_TYPE_FLOAT:
        *v = config_setting_get_float(s);
        return true;
    default:
        return false;
    }
}
