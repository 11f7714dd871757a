/* The run's summary: named figures with units, in order, as text or JSON.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The run's summary (see summary.h).
 *
 * Figures live in an array in the order they were first set; lookup goes
 * through a map from the key's 64-bit FNV-1a hash to the first figure with
 * that hash (sim/keymap.h), falling back to a scan only on a hash collision
 * (a linear scan cost the flagship 26,000 string compares for its 250
 * figures, in every replication of a sweep).  Strings are copied.  A NULL unit or doc
 * is stored as "" when a figure is created, and keeps the old text when an
 * existing figure is set again, so dc_summary_unit/doc never return NULL for
 * a valid index. */
#include "summary.h"

#include "json.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "keymap.h"

typedef struct dc_figure {
    char *key;
    double value;
    char *unit;
    char *doc;
} dc_figure;

struct dc_summary {
    dc_figure *fig;
    size_t n;
    size_t cap;
    dc_keymap *index; /* key_hash(key) -> the first figure with that hash */
};

/* 64-bit FNV-1a of the key, never 0 (the map's empty key). */
static uint64_t key_hash(const char *key)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *key; key++)
        h = (h ^ (unsigned char)*key) * 0x100000001b3ULL;
    return h ? h : 1;
}

/* strdup that takes NULL as "" (units and docs are optional). */
static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

dc_summary *dc_summary_create(void)
{
    dc_summary *s = calloc(1, sizeof(dc_summary));
    if (s && !(s->index = dc_keymap_create())) {
        free(s);
        return NULL;
    }
    return s;
}

void dc_summary_destroy(dc_summary *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->fig[i].key);
        free(s->fig[i].unit);
        free(s->fig[i].doc);
    }
    free(s->fig);
    dc_keymap_destroy(s->index);
    free(s);
}

static dc_figure *find(const dc_summary *s, const char *key)
{
    uint32_t i;
    if (!dc_keymap_get(s->index, key_hash(key), &i))
        return NULL; /* no figure has its hash */
    if (strcmp(s->fig[i].key, key) == 0)
        return &s->fig[i];
    for (size_t j = 0; j < s->n; j++) /* another key with the same hash */
        if (strcmp(s->fig[j].key, key) == 0)
            return &s->fig[j];
    return NULL;
}

/* Replaces *slot by a copy of text (NULL keeps the old text). */
static int replace_str(char **slot, const char *text)
{
    if (!text || strcmp(*slot, text) == 0)
        return DC_OK;
    char *d = dup_str(text);
    if (!d)
        return DC_ENOMEM;
    free(*slot);
    *slot = d;
    return DC_OK;
}

/* The figure named key, appended with value 0 if absent; NULL when out of memory. */
static dc_figure *find_or_add(dc_summary *s, const char *key, const char *unit,
                              const char *doc, bool *created)
{
    dc_figure *f = find(s, key);
    *created = false;
    if (f)
        return f;
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 32;
        dc_figure *grown = realloc(s->fig, cap * sizeof *grown);
        if (!grown)
            return NULL;
        s->fig = grown;
        s->cap = cap;
    }
    char *k = dup_str(key), *u = dup_str(unit), *d = dup_str(doc);
    uint64_t h = key_hash(key);
    uint32_t first;
    if (!k || !u || !d || s->n >= UINT32_MAX ||
        (!dc_keymap_get(s->index, h, &first) && !dc_keymap_put(s->index, h, (uint32_t)s->n))) {
        free(k);
        free(u);
        free(d);
        return NULL;
    }
    f = &s->fig[s->n++];
    f->key = k;
    f->value = 0.0;
    f->unit = u;
    f->doc = d;
    *created = true;
    return f;
}

int dc_summary_set(dc_summary *s, const char *key, double value,
                   const char *unit, const char *doc)
{
    if (!s || !key)
        return DC_EINTERNAL;
    bool created;
    dc_figure *f = find_or_add(s, key, unit, doc, &created);
    if (!f)
        return DC_ENOMEM;
    f->value = value;
    if (!created) {
        if (replace_str(&f->unit, unit) != DC_OK || replace_str(&f->doc, doc) != DC_OK)
            return DC_ENOMEM;
    }
    return DC_OK;
}

int dc_summary_add(dc_summary *s, const char *key, double value,
                   const char *unit, const char *doc)
{
    if (!s || !key)
        return DC_EINTERNAL;
    bool created;
    dc_figure *f = find_or_add(s, key, unit, doc, &created);
    if (!f)
        return DC_ENOMEM;
    f->value += value;
    /* Fill in a unit or doc the first caller did not give. */
    if (!created) {
        if ((f->unit[0] == '\0' && replace_str(&f->unit, unit) != DC_OK) ||
            (f->doc[0] == '\0' && replace_str(&f->doc, doc) != DC_OK))
            return DC_ENOMEM;
    }
    return DC_OK;
}

bool dc_summary_get(const dc_summary *s, const char *key, double *value)
{
    if (!s || !key)
        return false;
    const dc_figure *f = find(s, key);
    if (!f)
        return false;
    if (value)
        *value = f->value;
    return true;
}

size_t dc_summary_count(const dc_summary *s)
{
    return s ? s->n : 0;
}

const char *dc_summary_key(const dc_summary *s, size_t i)
{
    return s && i < s->n ? s->fig[i].key : NULL;
}

double dc_summary_value(const dc_summary *s, size_t i)
{
    return s && i < s->n ? s->fig[i].value : NAN;
}

const char *dc_summary_unit(const dc_summary *s, size_t i)
{
    return s && i < s->n ? s->fig[i].unit : NULL;
}

const char *dc_summary_doc(const dc_summary *s, size_t i)
{
    return s && i < s->n ? s->fig[i].doc : NULL;
}

/* ---- JSON ---------------------------------------------------------------- */

int dc_summary_write_json(const dc_summary *s, FILE *out)
{
    if (!s || !out)
        return DC_EINTERNAL;
    dc_json *j = dc_json_create(out, DC_JSON_LINES);
    if (!j)
        return DC_ENOMEM;
    dc_json_begin_object(j);
    for (size_t i = 0; i < s->n; i++)
        dc_json_member_number(j, s->fig[i].key, s->fig[i].value);
    dc_json_end_object(j);
    int rc = dc_json_finish(j);
    dc_json_destroy(j);
    return rc;
}

/* ---- Text ---------------------------------------------------------------- */

/* A number for people: integers without decimals, large values rounded to
 * units, others with 4 significant digits. */
static void format_number(char *buf, size_t size, double v)
{
    if (isnan(v)) {
        snprintf(buf, size, "nan");
    } else if (isinf(v)) {
        snprintf(buf, size, v > 0 ? "inf" : "-inf");
    } else if (v == 0.0) {
        snprintf(buf, size, "0"); /* also -0 */
    } else if (fabs(v) < 1e15 && (v == floor(v) || fabs(v) >= 1000.0)) {
        snprintf(buf, size, "%.0f", v);
    } else {
        snprintf(buf, size, "%.4g", v);
    }
}

static bool has_prefix(const char *key, const char *prefix) { return strncmp(key, prefix, strlen(prefix)) == 0; }

/* A line of the GPU-hour breakdown, or of the CPU-only nodes' (node-hours). */
static bool in_breakdown(const char *key)
{
    return has_prefix(key, DC_BREAKDOWN_PREFIX) || has_prefix(key, DC_CPU_BREAKDOWN_PREFIX);
}

#define NUM_LEN 64

/* One breakdown table: the lines under prefix, their shares of total_key. */
static void write_breakdown(const dc_summary *s, FILE *out, const char *prefix, const char *total_key,
                            const char *title, const char *unit, bool after)
{
    const size_t plen = strlen(prefix);
    char num[NUM_LEN];
    double cap = NAN;
    const dc_figure *total = find(s, total_key);
    if (total)
        cap = total->value;
    bool have_pct = isfinite(cap) && cap > 0.0;
    const char *total_label = "total capacity";
    int bw = (int)strlen(total_label), bvw = (int)strlen(unit);
    double sum = 0.0;
    for (size_t i = 0; i < s->n; i++) {
        const dc_figure *f = &s->fig[i];
        if (!has_prefix(f->key, prefix))
            continue;
        int len = (int)strlen(f->key + plen);
        if (f != total && len > bw)
            bw = len;
        if (f != total)
            sum += f->value;
        format_number(num, sizeof num, f->value);
        len = (int)strlen(num);
        if (len > bvw)
            bvw = len;
    }
    if (after)
        fputc('\n', out);
    fprintf(out, "%s\n", title);
    fprintf(out, "  %-*s  %*s  %6s\n", bw, "", bvw, unit, "share");
    for (size_t i = 0; i < s->n; i++) {
        const dc_figure *f = &s->fig[i];
        if (!has_prefix(f->key, prefix) || f == total)
            continue;
        format_number(num, sizeof num, f->value);
        if (have_pct)
            fprintf(out, "  %-*s  %*s  %5.1f%%\n", bw, f->key + plen, bvw, num,
                    100.0 * f->value / cap);
        else
            fprintf(out, "  %-*s  %*s  %6s\n", bw, f->key + plen, bvw, num, "-");
    }
    /* The lines should sum to the capacity; show what they do not explain. */
    if (total && isfinite(cap) && fabs(cap - sum) > 1e-6 * fmax(fabs(cap), 1.0)) {
        format_number(num, sizeof num, cap - sum);
        if (have_pct)
            fprintf(out, "  %-*s  %*s  %5.1f%%\n", bw, "(unaccounted)", bvw, num,
                    100.0 * (cap - sum) / cap);
        else
            fprintf(out, "  %-*s  %*s  %6s\n", bw, "(unaccounted)", bvw, num, "-");
    }
    if (total) {
        format_number(num, sizeof num, cap);
        fprintf(out, "  %-*s  %*s  %6s\n", bw, total_label, bvw, num,
                have_pct ? "100.0%" : "-");
    }
}

int dc_summary_write_text(const dc_summary *s, FILE *out)
{
    if (!s || !out)
        return DC_EINTERNAL;
    char num[NUM_LEN];

    /* Widths of the main table (figures outside the breakdown). */
    int kw = 6, vw = 5;
    size_t n_main = 0, n_bd = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (in_breakdown(s->fig[i].key)) {
            n_bd++;
            continue;
        }
        n_main++;
        int len = (int)strlen(s->fig[i].key);
        if (len > kw)
            kw = len;
        format_number(num, sizeof num, s->fig[i].value);
        len = (int)strlen(num);
        if (len > vw)
            vw = len;
    }
    if (n_main > 0) {
        fprintf(out, "%-*s  %*s  %s\n", kw, "figure", vw, "value", "unit");
        for (size_t i = 0; i < s->n; i++) {
            const dc_figure *f = &s->fig[i];
            if (in_breakdown(f->key))
                continue;
            format_number(num, sizeof num, f->value);
            if (f->unit[0])
                fprintf(out, "%-*s  %*s  %s\n", kw, f->key, vw, num, f->unit);
            else
                fprintf(out, "%-*s  %*s\n", kw, f->key, vw, num);
        }
    }

    size_t n_cpu = 0;
    for (size_t i = 0; i < s->n; i++)
        n_cpu += has_prefix(s->fig[i].key, DC_CPU_BREAKDOWN_PREFIX);
    if (n_bd > n_cpu)
        write_breakdown(s, out, DC_BREAKDOWN_PREFIX, DC_BREAKDOWN_TOTAL, "Where the GPU-hours went", "GPU-hours",
                        n_main > 0);
    if (n_cpu > 0)
        write_breakdown(s, out, DC_CPU_BREAKDOWN_PREFIX, DC_CPU_BREAKDOWN_TOTAL,
                        "Where the CPU-only nodes' node-hours went", "node-hours", true);
    return ferror(out) ? DC_EIO : DC_OK;
}
