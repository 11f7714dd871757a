/* Failure logs: the reader of a cluster's recorded failures through a column mapping.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "failurelog.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfgget.h"
#include "csv.h"
#include "timefmt.h"

const dc_param dc_failurelog_params[] = {
    {"failure_log", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "a cluster's recorded failures, injected exactly (models/reliability/failurelog.h)"},
    {"failure_log.file", DC_PARAM_STRING, DC_PARAM_REQUIRED | DC_PARAM_FILE, "", 0, NULL, 0, 0, NULL,
     "the log (CSV), relative to the scenario file"},
    {"failure_log.time_unit", DC_PARAM_STRING, 0, "", 0, "s", 0, 0, DC_TIMEFMT_UNITS,
     "unit of the log's numeric times and repair times"},
    {"failure_log.time_format", DC_PARAM_STRING, 0, "", 0, "number", 0, 0, "number|datetime",
     "time and return as numbers or as UTC date-times YYYY-MM-DD HH:MM:SS"},
    {"failure_log.epoch", DC_PARAM_FLOAT, DC_PARAM_AUTO, "", 0, NULL, -1e18, 1e18, NULL,
     "the log time that is the run's zero (time_unit; datetime: Unix seconds); auto: the first row's"},
    {"failure_log.node_base", DC_PARAM_INT, 0, "", 0, NULL, -1e9, 1e9, NULL,
     "the number of the first node in the log (numeric node columns)"},
    {"failure_log.class", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "the failure class of every row (without a class column)"},
    {"failure_log.class_map", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "the log's class values to failure classes: \"VALUE: class, VALUE: class, ...\""},
    {"failure_log.columns", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "for each field, the header of the log's column that holds it"},
    {"failure_log.columns.time", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "failure time"},
    {"failure_log.columns.node", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "the node: a number (minus node_base) or a name"},
    {"failure_log.columns.class", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "failure class (a failures.[] name or a class_map value)"},
    {"failure_log.columns.repair", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "time to repair (time_unit): the node returns exactly then"},
    {"failure_log.columns.return", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "when the node came back (a time, as the time column)"},
    {0},
};

enum { C_TIME, C_NODE, C_CLASS, C_REPAIR, C_RETURN, N_COLS };
static const char *const col_keys[N_COLS] = {"time", "node", "class", "repair", "return"};

/* The class a log value names: a class name, or through class_map; -1. */
static int find_class(const char *v, const char *map, const char *const *names, size_t n)
{
    const char *target = v;
    char buf[64];
    for (const char *p = map; p && *p;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        const char *colon = strchr(p, ':');
        if (!colon)
            break;
        size_t kl = (size_t)(colon - p);
        while (kl > 0 && (p[kl - 1] == ' ' || p[kl - 1] == '\t'))
            kl--;
        const char *q = colon + 1;
        while (*q == ' ' || *q == '\t')
            q++;
        size_t vl = strcspn(q, ",");
        while (vl > 0 && (q[vl - 1] == ' ' || q[vl - 1] == '\t'))
            vl--;
        if (kl == strlen(v) && strncasecmp(p, v, kl) == 0 && vl < sizeof buf) {
            memcpy(buf, q, vl);
            buf[vl] = '\0';
            target = buf;
            break;
        }
        p = q + strcspn(q, ",");
    }
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], target) == 0)
            return (int)i;
    return -1;
}

/* A number of the log's time unit that is no finite number of seconds
 * (1e308 h): refused, as an infinite time has no meaning and one less
 * itself (epoch auto) is NaN. */
static int too_large(const dc_csv *csv, size_t r, size_t c, double v, dc_error *err)
{
    return dc_csv_error_at(csv, r, c, err, "%g is too large a time (its magnitude beyond 1.8e308 s)", v);
}

typedef struct name_node {
    char *name;
    uint32_t node;
} name_node;

/* FNV-1a: node names go in an open-addressing table of at least twice
 * the names it can hold (at most one per node), so a look-up is O(1). */
static uint64_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

/* An error of the log itself (it cannot be read, a row's cell): named after
 * the scenario's key first, FILE:LINE: failure_log.file: LOG:LINE: ..., as
 * the other data files' errors (docs/errors.md). */
static int file_error(const dc_scenario *sc, const config_setting_t *g, dc_error *err, int rc)
{
    dc_scenario_error_under(sc, dc_cfg_member(g, "file"), err);
    err->code = rc;
    return rc;
}

int dc_failurelog_read(const dc_scenario *sc, const char *const *class_names, size_t n_classes, uint32_t n_nodes,
                       dc_failure_row **out, size_t *n_out, dc_error *err)
{
    *out = NULL;
    *n_out = 0;
    config_setting_t *g = dc_scenario_lookup(sc, "failure_log");
    if (!g)
        return DC_OK;
    const char *rel = "", *unit = "s", *fmt = "number", *map = NULL, *dflt = NULL;
    dc_cfg_lookup_string(g, "file", &rel);
    dc_cfg_lookup_string(g, "time_unit", &unit);
    dc_cfg_lookup_string(g, "time_format", &fmt);
    dc_cfg_lookup_string(g, "class_map", &map);
    dc_cfg_lookup_string(g, "class", &dflt);
    int base = 0;
    dc_cfg_lookup_int(g, "node_base", &base);
    double u = dc_timefmt_unit_s(unit);
    bool datetime = strcmp(fmt, "datetime") == 0;
    config_setting_t *ep = dc_cfg_member(g, "epoch");
    bool epoch_auto = ep && config_setting_type(ep) == CONFIG_TYPE_STRING;
    double epoch = ep && !epoch_auto ? config_setting_get_float(ep) * (datetime ? 1.0 : u) : 0.0;
    char path[4096];
    if (!dc_csv_resolve_path(dc_scenario_file(sc), rel, path, sizeof path))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "file"), err, "path too long");
    dc_csv *csv = NULL;
    int rc = dc_csv_read_file(path, &csv, err);
    if (rc == DC_EIO || rc == DC_EINPUT)
        return file_error(sc, g, err, rc);
    if (rc != DC_OK)
        return rc;
    config_setting_t *cols = dc_cfg_member(g, "columns");
    size_t col[N_COLS];
    bool has[N_COLS] = {false};
    for (int k = 0; k < N_COLS && rc == DC_OK; k++) {
        const char *h;
        if (!dc_cfg_lookup_string(cols, col_keys[k], &h))
            continue;
        has[k] = true;
        if ((rc = dc_csv_find_column(csv, h, &col[k], err)) != DC_OK)
            dc_scenario_error_under(sc, dc_cfg_member(cols, col_keys[k]), err);
    }
    int dflt_class = -1;
    if (rc == DC_OK && has[C_REPAIR] && has[C_RETURN])
        rc = dc_scenario_error_at(sc, cols, err, "give repair (a duration) or return (a time), not both");
    if (rc == DC_OK && !has[C_CLASS]) {
        if (!dflt)
            rc = dc_scenario_error_at(sc, g, err, "name the failure class: a class column, or class = \"...\"");
        else if ((dflt_class = find_class(dflt, NULL, class_names, n_classes)) < 0)
            rc = dc_scenario_error_at(sc, dc_cfg_member(g, "class"), err,
                                      "no failure class \"%s\" in failures", dflt);
    }
    size_t nr = dc_csv_row_count(csv);
    dc_failure_row *rows = rc == DC_OK ? malloc((nr + 1) * sizeof *rows) : NULL;
    size_t max_names = nr < n_nodes ? nr : n_nodes, slots = 16;
    while (slots < 2 * max_names + 2)
        slots *= 2;
    name_node *names = rc == DC_OK ? calloc(max_names + 1, sizeof *names) : NULL;
    size_t *table = rc == DC_OK ? malloc(slots * sizeof *table) : NULL;
    for (size_t k = 0; table && k < slots; k++)
        table[k] = SIZE_MAX;
    size_t n_names = 0;
    if (rc == DC_OK && (!rows || !names || !table))
        rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
    double last = -INFINITY;
    bool in_rows = rc == DC_OK; /* an error from here on is the log's (its file, line, column) */
    for (size_t r = 0; rc == DC_OK && r < nr; r++) {
        double t, ret = 0.0;
        const char *ts = dc_csv_cell(csv, r, col[C_TIME]);
        if (!*ts) {
            rc = dc_csv_error_at(csv, r, col[C_TIME], err, "missing field");
            break;
        }
        if (datetime) {
            if (!dc_timefmt_datetime(ts, &t)) {
                rc = dc_csv_error_at(csv, r, col[C_TIME], err, "expected a date-time YYYY-MM-DD HH:MM[:SS] (got \"%.40s\")", ts);
                break;
            }
        } else if ((rc = dc_csv_number(csv, r, col[C_TIME], &t, err)) != DC_OK) {
            break;
        } else if (!isfinite(t * u)) {
            rc = too_large(csv, r, col[C_TIME], t, err);
            break;
        } else {
            t *= u;
        }
        if (t < last) {
            rc = dc_csv_error_at(csv, r, col[C_TIME], err, "before the previous row's (sort the log by time)");
            break;
        }
        last = t;
        if (epoch_auto && r == 0)
            epoch = t;
        if (t - epoch < 0) {
            rc = dc_csv_error_at(csv, r, col[C_TIME], err, "before the log's epoch");
            break;
        }
        /* the node: a number, else a name */
        const char *ns = dc_csv_cell(csv, r, col[C_NODE]);
        char *end;
        double nv = *ns ? strtod(ns, &end) : NAN;
        uint32_t node;
        if (!*ns) {
            rc = dc_csv_error_at(csv, r, col[C_NODE], err, "missing field");
            break;
        } else if (*end == '\0' && isfinite(nv)) {
            double idx = nv - base;
            if (idx != floor(idx) || idx < 0 || idx >= n_nodes) {
                rc = dc_csv_error_at(csv, r, col[C_NODE], err,
                                     "node %g is not in the cluster (nodes %d to %lld with node_base %d)", nv, base,
                                     (long long)base + n_nodes - 1, base);
                break;
            }
            node = (uint32_t)idx;
        } else {
            size_t slot = (size_t)(hash_name(ns) & (slots - 1));
            while (table[slot] != SIZE_MAX && strcmp(names[table[slot]].name, ns) != 0)
                slot = (slot + 1) & (slots - 1);
            size_t k = table[slot];
            if (k == SIZE_MAX) {
                if (n_names == max_names) {
                    rc = dc_csv_error_at(csv, r, col[C_NODE], err, "more node names than the cluster's %u nodes",
                                         n_nodes);
                    break;
                }
                if (!(names[n_names].name = strdup(ns))) {
                    rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
                    break;
                }
                names[n_names].node = (uint32_t)n_names;
                k = table[slot] = n_names++;
            }
            node = names[k].node;
        }
        int cls = dflt_class;
        if (has[C_CLASS]) {
            const char *cs = dc_csv_cell(csv, r, col[C_CLASS]);
            if (!*cs) {
                rc = dc_csv_error_at(csv, r, col[C_CLASS], err, "missing field");
                break;
            }
            if ((cls = find_class(cs, map, class_names, n_classes)) < 0) {
                rc = dc_csv_error_at(csv, r, col[C_CLASS], err,
                                     "\"%.40s\" is no failure class (name it in failures, or map it with class_map)",
                                     cs);
                break;
            }
        }
        if (has[C_REPAIR]) {
            const char *rs = dc_csv_cell(csv, r, col[C_REPAIR]);
            if (*rs) {
                if ((rc = dc_csv_number(csv, r, col[C_REPAIR], &ret, err)) != DC_OK)
                    break;
                if (ret < 0) {
                    rc = dc_csv_error_at(csv, r, col[C_REPAIR], err, "a repair time must be >= 0 (got %g)", ret);
                    break;
                }
                if (!isfinite(ret * u)) {
                    rc = too_large(csv, r, col[C_REPAIR], ret, err);
                    break;
                }
                ret *= u;
            }
        } else if (has[C_RETURN]) {
            const char *rs = dc_csv_cell(csv, r, col[C_RETURN]);
            if (*rs) {
                double back;
                if (datetime) {
                    if (!dc_timefmt_datetime(rs, &back)) {
                        rc = dc_csv_error_at(csv, r, col[C_RETURN], err,
                                             "expected a date-time YYYY-MM-DD HH:MM[:SS] (got \"%.40s\")", rs);
                        break;
                    }
                } else if ((rc = dc_csv_number(csv, r, col[C_RETURN], &back, err)) != DC_OK) {
                    break;
                } else if (!isfinite(back * u)) {
                    rc = too_large(csv, r, col[C_RETURN], back, err);
                    break;
                } else {
                    back *= u;
                }
                if (back < t) {
                    rc = dc_csv_error_at(csv, r, col[C_RETURN], err, "the return is before the failure");
                    break;
                }
                ret = back - t;
                if (!isfinite(ret)) { /* (each finite: from -1e308 to 1e308) */
                    rc = dc_csv_error_at(csv, r, col[C_RETURN], err,
                                         "the repair time from the failure to the return is too large "
                                         "(beyond 1.8e308 s)");
                    break;
                }
            }
        }
        rows[r] = (dc_failure_row){.time_s = t - epoch, .node = node, .class_id = cls, .return_s = ret};
        *n_out = r + 1;
    }
    for (size_t k = 0; names && k < n_names; k++)
        free(names[k].name);
    free(names);
    free(table);
    dc_csv_destroy(csv);
    if (rc != DC_OK) {
        free(rows);
        *n_out = 0;
        return rc == DC_EINPUT && in_rows ? file_error(sc, g, err, rc) : rc;
    }
    *out = rows;
    return DC_OK;
}
