/* Any dataset of a trace as CSV (dcsim export).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "export.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static int nomem(dc_error *err)
{
    return dc_error_set(err, DC_ENOMEM, "out of memory");
}

int dc_export_summary_table(const dc_summary *s, const char *prefix, dc_table *out, dc_error *err)
{
    if (dc_table_add_column(out, "key", DC_COL_TEXT) != DC_OK ||
        dc_table_add_column(out, "value", DC_COL_REAL) != DC_OK ||
        dc_table_add_column(out, "unit", DC_COL_TEXT) != DC_OK)
        return nomem(err);
    size_t plen = prefix ? strlen(prefix) : 0;
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        const char *key = dc_summary_key(s, i);
        if (plen && strncmp(key, prefix, plen) != 0)
            continue;
        size_t r;
        if (dc_table_add_row(out, &r) != DC_OK || dc_table_set_text(out, r, 0, key) != DC_OK ||
            dc_table_set_text(out, r, 2, dc_summary_unit(s, i)) != DC_OK)
            return nomem(err);
        dc_table_set_real(out, r, 1, dc_summary_value(s, i));
    }
    return DC_OK;
}

/* The exportable paths, /summary/KEY folded into /summary, as one
 * comma-separated line (for messages) or one per line. */
static int write_paths(dc_trace_file *t, FILE *out, const char *sep, dc_error *err)
{
    char **paths = NULL;
    size_t n = 0;
    int rc = dc_trace_list_datasets(t, &paths, &n, err);
    if (rc != DC_OK)
        return rc;
    bool summary_shown = false, first = true;
    for (size_t i = 0; i < n; i++) {
        const char *p = paths[i];
        if (strncmp(p, "/summary/", 9) == 0) {
            if (summary_shown)
                continue;
            summary_shown = true;
            p = "/summary";
        }
        fprintf(out, "%s%s", first ? "" : sep, p);
        first = false;
    }
    dc_trace_free_list(paths, n);
    return DC_OK;
}

int dc_export_list(dc_trace_file *t, FILE *out, dc_error *err)
{
    int rc = write_paths(t, out, "\n", err);
    if (rc == DC_OK)
        fputc('\n', out);
    return rc;
}

/* "trace 'x' has no dataset P; it has A, B, C". */
static int no_such(dc_trace_file *t, const char *path, dc_error *err)
{
    char *list = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&list, &len);
    if (!m)
        return nomem(err);
    dc_error ignored = {0};
    int rc = write_paths(t, m, ", ", &ignored);
    fclose(m);
    if (rc == DC_OK && list && list[0])
        dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s; it has %s", dc_trace_filename(t),
                     path, list);
    else
        dc_error_set(err, DC_EINPUT, "trace '%s' has no dataset %s", dc_trace_filename(t), path);
    free(list);
    return DC_EINPUT;
}

int dc_export_table(dc_trace_file *t, const char *path, dc_table *out, dc_error *err)
{
    if (!t || !path || !out)
        return dc_error_set(err, DC_EINTERNAL, "dc_export_table: bad arguments");
    /* "series/x", "/series/x/" and "/series/x" name the same dataset. */
    size_t len = strlen(path);
    char *p = malloc(len + 2);
    if (!p)
        return nomem(err);
    snprintf(p, len + 2, "%s%s", path[0] == '/' ? "" : "/", path);
    len = strlen(p);
    while (len > 1 && p[len - 1] == '/')
        p[--len] = '\0';

    int rc = DC_OK;
    if (strcmp(p, "/summary") == 0 || strncmp(p, "/summary/", 9) == 0) {
        dc_summary *s = dc_summary_create();
        if (!s) {
            rc = nomem(err);
        } else if ((rc = dc_trace_read_summary(t, s, err)) == DC_OK) {
            const char *key = p[8] ? p + 9 : NULL;
            double v;
            if (key && !dc_summary_get(s, key, &v))
                rc = dc_error_set(err, DC_EINPUT,
                                  "trace '%s' has no figure '%s' in /summary (dcsim report lists them)",
                                  dc_trace_filename(t), key);
            else if (key) {
                /* The one row, with its unit. */
                for (size_t i = 0; i < dc_summary_count(s); i++)
                    if (strcmp(dc_summary_key(s, i), key) == 0) {
                        dc_summary *one = dc_summary_create();
                        if (!one || dc_summary_set(one, key, v, dc_summary_unit(s, i), NULL) != DC_OK)
                            rc = nomem(err);
                        else
                            rc = dc_export_summary_table(one, NULL, out, err);
                        dc_summary_destroy(one);
                        break;
                    }
            } else {
                rc = dc_export_summary_table(s, NULL, out, err);
            }
        }
        dc_summary_destroy(s);
    } else {
        bool has = false;
        rc = dc_trace_has_dataset(t, p, &has, err);
        if (rc == DC_OK)
            rc = has ? dc_trace_read_table(t, p, out, err) : no_such(t, p, err);
    }
    free(p);
    return rc;
}

int dc_export_csv(dc_trace_file *t, const char *path, FILE *out, dc_error *err)
{
    dc_table *tab = dc_table_create();
    if (!tab)
        return nomem(err);
    int rc = dc_export_table(t, path, tab, err);
    if (rc == DC_OK)
        rc = dc_table_write_csv(tab, out, err);
    dc_table_destroy(tab);
    return rc;
}
