/* Job traces in their own layouts: the mapped CSV and the Standard Workload Format readers.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "tracemap.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cfgget.h"
#include "csv.h"
#include "timefmt.h"

#define TIME_UNITS DC_TIMEFMT_UNITS

const dc_param dc_tracemap_params[] = {
    {"jobs.[].trace.file", DC_PARAM_STRING, DC_PARAM_REQUIRED | DC_PARAM_FILE, "", 0, NULL, 0, 0, NULL,
     "the trace file, relative to the scenario file"},
    {"jobs.[].trace.format", DC_PARAM_STRING, 0, "", 0, "csv", 0, 0, "csv|swf",
     "csv: a CSV with a column mapping (columns); swf: the Standard Workload Format"},
    {"jobs.[].trace.time_unit", DC_PARAM_STRING, 0, "", 0, "s", 0, 0, TIME_UNITS,
     "unit of the trace's numeric times, run times, limits and estimates (swf: always s)"},
    {"jobs.[].trace.time_format", DC_PARAM_STRING, 0, "", 0, "number", 0, 0, "number|datetime",
     "csv: submit, start and end as numbers or as UTC date-times YYYY-MM-DD HH:MM:SS"},
    {"jobs.[].trace.epoch", DC_PARAM_FLOAT, DC_PARAM_AUTO, "", 0, NULL, -1e18, 1e18, NULL,
     "the trace time that is the run's zero (time_unit; datetime: Unix seconds); auto: the first submission"},
    {"jobs.[].trace.skip_empty", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "drop rows of zero GPUs or zero run time (else they are errors)"},
    {"jobs.[].trace.processors", DC_PARAM_STRING, 0, "", 0, "gpus", 0, 0, "gpus|nodes",
     "swf: what one processor of the trace is"},
    {"jobs.[].trace.swf_limit", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "swf: the requested time (field 9) is also the run-time limit, not only the estimate"},
    {"jobs.[].trace.swf_pools", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "swf: queue N (field 15) runs in pool \"qN\" (else every job in the group's pool)"},
    {"jobs.[].trace.columns", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "csv: for each field, the header of the file's column that holds it"},
    {"jobs.[].trace.columns.submit", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "submission time"},
    {"jobs.[].trace.columns.duration", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "recorded run time (or start and end)"},
    {"jobs.[].trace.columns.start", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "start time (with end, instead of duration)"},
    {"jobs.[].trace.columns.end", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "end time (with start)"},
    {"jobs.[].trace.columns.gpus", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "GPUs (whole nodes: ceil(gpus / gpus_per_node)); or nodes"},
    {"jobs.[].trace.columns.nodes", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "nodes"},
    {"jobs.[].trace.columns.state", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "end state (completed, failed, cancelled, time_limit and their synonyms; states adds names)"},
    {"jobs.[].trace.columns.priority", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "priority, any integer (ranked into [-1000, 1000] when outside it)"},
    {"jobs.[].trace.columns.pool", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "queue, virtual cluster or pool: a scheduler.pools name"},
    {"jobs.[].trace.columns.user", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "user or team"},
    {"jobs.[].trace.columns.preemptible", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "true/false, 1/0, yes/no"},
    {"jobs.[].trace.columns.limit", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "run-time limit (empty: the group's max_run_h)"},
    {"jobs.[].trace.columns.estimate", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "run-time estimate for backfilling (empty: the limit, else run time x estimate_factor)"},
    {"jobs.[].trace.columns.kind", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "training, fine_tuning, evaluation or batch_inference (empty: the group's)"},
    {"jobs.[].trace.columns.name", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "the job's name (else GROUP-ROW)"},
    {"jobs.[].trace.states", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "more names of end states in the trace: a comma list per state"},
    {"jobs.[].trace.states.completed", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "names meaning completed"},
    {"jobs.[].trace.states.failed", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "names meaning failed"},
    {"jobs.[].trace.states.cancelled", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "names meaning cancelled"},
    {"jobs.[].trace.states.time_limit", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "names meaning ended by its time limit"},
    {0},
};

/* ---------- helpers shared by both formats ---------- */

typedef struct out_vec {
    dc_job_spec **a;
    size_t *n, *cap;
} out_vec;

static dc_job_spec *push(out_vec *v)
{
    if (*v->n == *v->cap) {
        size_t nc = *v->cap ? 2 * *v->cap : 64;
        dc_job_spec *g = realloc(*v->a, nc * sizeof *g);
        if (!g)
            return NULL;
        *v->a = g;
        *v->cap = nc;
    }
    return &(*v->a)[(*v->n)++];
}

/* Whether name is in the comma list (blanks around items ignored, case-insensitive). */
static bool in_list(const char *list, const char *name)
{
    size_t n = strlen(name);
    const char *p = list;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, ",");
        size_t l = len;
        while (l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'))
            l--;
        if (l == n && strncasecmp(p, name, n) == 0)
            return true;
        p += len;
        if (*p == ',')
            p++;
    }
    return false;
}

static const char *const builtin_states[DC_END_STATES] = {
    "completed,complete,pass,passed,succeeded,success,finished,terminated,done,1",
    "failed,fail,error,node_fail,0",
    "cancelled,canceled,killed,kill",
    "time_limit,timeout,timed_out,2",
};

/* The end state a trace's name stands for; -1 when unknown. */
static int parse_state(const config_setting_t *tg, const char *name)
{
    config_setting_t *st = dc_cfg_member(tg, "states");
    for (int k = 0; k < DC_END_STATES && st; k++) {
        const char *extra;
        if (dc_cfg_lookup_string(st, dc_end_state_names[k], &extra) && in_list(extra, name))
            return k;
    }
    for (int k = 0; k < DC_END_STATES; k++)
        if (in_list(builtin_states[k], name))
            return k;
    return -1;
}

static int parse_bool(const char *s)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes"))
        return 1;
    if (!strcasecmp(s, "false") || !strcmp(s, "0") || !strcasecmp(s, "no"))
        return 0;
    return -1;
}

/* Priorities outside [-1000, 1000]: ranked in order onto that range. */
static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int map_priorities(double *raw, dc_job_spec *jobs, size_t n, dc_error *err)
{
    bool inside = true;
    for (size_t i = 0; i < n && inside; i++)
        inside = fabs(raw[i]) <= 1000;
    if (inside) {
        for (size_t i = 0; i < n; i++)
            jobs[i].priority = (int)raw[i];
        return DC_OK;
    }
    double *s = malloc(n * sizeof *s);
    if (!s)
        return dc_error_set(err, DC_ENOMEM, "out of memory ranking priorities");
    memcpy(s, raw, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k == 0 || s[i] != s[k - 1])
            s[k++] = s[i];
    for (size_t i = 0; i < n; i++) {
        size_t lo = 0, hi = k - 1; /* raw[i] is among s[0..k) */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (s[mid] < raw[i])
                lo = mid + 1;
            else
                hi = mid;
        }
        jobs[i].priority = k == 1 ? 0 : (int)(-1000 + floor((double)lo * 2000.0 / (double)(k - 1) + 0.5));
    }
    free(s);
    return DC_OK;
}

/* What both readers make of a row once its fields are read. */
typedef struct row_in {
    double submit_s, run_s, size, limit_s, estimate_s;
    bool size_is_gpus;
    int state;
} row_in;

static void fill_job(dc_job_spec *t, const dc_job_spec *tmpl, const row_in *r, uint32_t gpn, const char *file,
                     size_t line)
{
    *t = *tmpl;
    t->submit_s = r->submit_s;
    if (r->size_is_gpus) {
        dc_jobspec_set_gpus(t, (uint32_t)r->size, gpn); /* a share of a node, or whole nodes */
    } else {
        t->nodes = (uint32_t)r->size;
        t->gpus = t->nodes * gpn;
    }
    /* the run time at the full rate of its share or its nodes */
    t->work_gpu_s = r->run_s * dc_jobspec_rate_gpus(t, gpn);
    t->end_state = (dc_end_state)r->state;
    if (!isnan(r->limit_s))
        t->max_run_s = r->limit_s;
    t->estimate_s = !isnan(r->estimate_s) ? r->estimate_s : NAN;
    snprintf(t->trace_file, sizeof t->trace_file, "%.159s", file);
    t->trace_line = (int)line;
}

/* ---------- mapped CSV ---------- */

enum { F_SUBMIT, F_DURATION, F_START, F_END, F_GPUS, F_NODES, F_STATE, F_PRIORITY, F_POOL, F_USER, F_PREEMPT,
       F_LIMIT, F_ESTIMATE, F_KIND, F_NAME, N_FIELDS };
static const char *const field_keys[N_FIELDS] = {"submit", "duration", "start", "end", "gpus", "nodes",
                                                 "state", "priority", "pool", "user", "preemptible",
                                                 "limit", "estimate", "kind", "name"};

typedef struct csv_ctx {
    dc_csv *csv;
    size_t col[N_FIELDS];
    bool has[N_FIELDS];
    double unit, epoch;
    bool datetime;
} csv_ctx;

/* A number of the trace's time unit that is no finite number of seconds
 * (1e308 h): refused, as an infinite time or run time has no meaning and
 * one less itself (epoch auto) is NaN. */
static int too_large(const csv_ctx *x, size_t r, int f, double v, dc_error *err)
{
    return dc_csv_error_at(x->csv, r, x->col[f], err, "%g is too large a time (its magnitude beyond 1.8e308 s)", v);
}

/* A time field (submit, start, end): trace time in seconds. */
static int csv_time(const csv_ctx *x, size_t r, int f, double *out, dc_error *err)
{
    const char *s = dc_csv_cell(x->csv, r, x->col[f]);
    if (!*s)
        return dc_csv_error_at(x->csv, r, x->col[f], err, "missing field");
    if (x->datetime) {
        if (!dc_timefmt_datetime(s, out))
            return dc_csv_error_at(x->csv, r, x->col[f], err,
                                   "expected a date-time YYYY-MM-DD HH:MM[:SS] (got \"%.40s\")", s);
        return DC_OK;
    }
    int rc = dc_csv_number(x->csv, r, x->col[f], out, err);
    if (rc == DC_OK && !isfinite(*out * x->unit))
        return too_large(x, r, f, *out, err);
    *out *= x->unit;
    return rc;
}

/* A numeric field; empty: *out = NAN when optional, else an error. */
static int csv_num(const csv_ctx *x, size_t r, int f, bool optional, double *out, dc_error *err)
{
    *out = NAN;
    if (!x->has[f])
        return DC_OK;
    const char *s = dc_csv_cell(x->csv, r, x->col[f]);
    if (!*s)
        return optional ? DC_OK : dc_csv_error_at(x->csv, r, x->col[f], err, "missing field");
    return dc_csv_number(x->csv, r, x->col[f], out, err);
}

/* A trace file's error (file:line: column: what) under the scenario key
 * that named the file (scenario.cfg:3: jobs.[0].trace.file: ...), so both
 * show (issue 18 item 9).  Other statuses pass unchanged. */
static int in_key(const dc_scenario *sc, const config_setting_t *key, int rc, dc_error *err)
{
    return rc != DC_EINPUT ? rc : dc_scenario_error_under(sc, key, err);
}

static int read_csv(const dc_scenario *sc, const config_setting_t *tg, const char *path, const dc_job_spec *tmpl,
                    uint32_t gpn, out_vec *v, dc_error *err)
{
    csv_ctx x = {0};
    int rc = dc_csv_read_file(path, &x.csv, err);
    if (rc == DC_EIO)
        return dc_scenario_error_under(sc, dc_cfg_member(tg, "file"), err);
    if (rc != DC_OK)
        return in_key(sc, dc_cfg_member(tg, "file"), rc, err);
    config_setting_t *cols = dc_cfg_member(tg, "columns");
    if (!cols) {
        dc_csv_destroy(x.csv);
        return dc_scenario_error_at(sc, tg, err,
                                    "a CSV trace needs columns = { submit = \"...\"; duration = \"...\"; gpus = "
                                    "\"...\"; ... } (the headers of its columns)");
    }
    for (int f = 0; f < N_FIELDS && rc == DC_OK; f++) {
        const char *h;
        if (!dc_cfg_lookup_string(cols, field_keys[f], &h))
            continue;
        x.has[f] = true;
        rc = dc_csv_find_column(x.csv, h, &x.col[f], err);
        if (rc != DC_OK) /* name the mapping too */
            dc_scenario_error_under(sc, dc_cfg_member(cols, field_keys[f]), err);
    }
    const char *mis = NULL;
    if (rc == DC_OK) {
        if (x.has[F_DURATION] == (x.has[F_START] || x.has[F_END]) || x.has[F_START] != x.has[F_END])
            mis = "give the run time as duration, or as start and end (not both)";
        else if (x.has[F_GPUS] == x.has[F_NODES])
            mis = "give the size as gpus or as nodes (one of them)";
        if (mis)
            rc = dc_scenario_error_at(sc, cols, err, "%s", mis);
    }
    const char *s = "s"; /* the schema's default, filled in by validation */
    dc_cfg_lookup_string(tg, "time_unit", &s);
    x.unit = dc_timefmt_unit_s(s);
    s = "number";
    dc_cfg_lookup_string(tg, "time_format", &s);
    x.datetime = strcmp(s, "datetime") == 0;
    config_setting_t *ep = dc_cfg_member(tg, "epoch");
    bool epoch_auto = ep && config_setting_type(ep) == CONFIG_TYPE_STRING;
    x.epoch = ep && !epoch_auto ? config_setting_get_float(ep) * (x.datetime ? 1.0 : x.unit) : 0.0;
    int skip = 0;
    dc_cfg_lookup_bool(tg, "skip_empty", &skip);

    size_t first = *v->n, nrows = dc_csv_row_count(x.csv);
    double *prio = x.has[F_PRIORITY] ? malloc((nrows + 1) * sizeof *prio) : NULL;
    if (x.has[F_PRIORITY] && !prio && rc == DC_OK)
        rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
    size_t np = 0;
    double last = -INFINITY;
    bool rows_read = rc == DC_OK; /* the errors from here on are the file's alone */
    for (size_t r = 0; rc == DC_OK && r < nrows; r++) {
        row_in in = {.limit_s = NAN, .estimate_s = NAN, .size_is_gpus = x.has[F_GPUS], .state = DC_END_COMPLETED};
        double sub, a, b, p, pre = NAN;
        int fs = x.has[F_GPUS] ? F_GPUS : F_NODES;
        if ((rc = csv_time(&x, r, F_SUBMIT, &sub, err)) != DC_OK)
            break;
        if (sub < last) {
            rc = dc_csv_error_at(x.csv, r, x.col[F_SUBMIT], err,
                                 "%.17g is before the previous row's %.17g (sort the trace by submission)",
                                 sub / (x.datetime ? 1.0 : x.unit), last / (x.datetime ? 1.0 : x.unit));
            break;
        }
        last = sub;
        if (epoch_auto && r == 0)
            x.epoch = sub;
        in.submit_s = sub - x.epoch;
        if (in.submit_s < 0) {
            rc = dc_csv_error_at(x.csv, r, x.col[F_SUBMIT], err, "before the trace's epoch (%.17g)",
                                 x.epoch / (x.datetime ? 1.0 : x.unit));
            break;
        }
        if (x.has[F_DURATION]) {
            if ((rc = csv_num(&x, r, F_DURATION, false, &a, err)) != DC_OK)
                break;
            in.run_s = a * x.unit;
            if (!isfinite(in.run_s)) {
                rc = too_large(&x, r, F_DURATION, a, err);
                break;
            }
            if (in.run_s < 0) {
                rc = dc_csv_error_at(x.csv, r, x.col[F_DURATION], err, "a run time must be >= 0 (got %g)", a);
                break;
            }
        } else {
            if ((rc = csv_time(&x, r, F_START, &a, err)) != DC_OK || (rc = csv_time(&x, r, F_END, &b, err)) != DC_OK)
                break;
            if (b < a) {
                rc = dc_csv_error_at(x.csv, r, x.col[F_END], err, "the end is before the start");
                break;
            }
            in.run_s = b - a;
            if (!isfinite(in.run_s)) { /* (each finite: from -1e308 to 1e308) */
                rc = dc_csv_error_at(x.csv, r, x.col[F_END], err, "the run time from start to end is too large "
                                     "(beyond 1.8e308 s)");
                break;
            }
        }
        if ((rc = csv_num(&x, r, fs, false, &in.size, err)) != DC_OK)
            break;
        if (in.size < 0 || in.size > 1e8 || in.size != floor(in.size)) {
            rc = dc_csv_error_at(x.csv, r, x.col[fs], err, "expected a whole number of %s >= 1 (got %g)",
                                 fs == F_GPUS ? "GPUs" : "nodes", in.size);
            break;
        }
        if (in.size == 0 || in.run_s == 0) {
            if (skip)
                continue;
            rc = dc_csv_error_at(x.csv, r, x.col[in.size == 0 ? fs : x.has[F_DURATION] ? F_DURATION : F_END], err,
                                 "a job of zero %s (skip_empty = true drops such rows)",
                                 in.size == 0 ? (fs == F_GPUS ? "GPUs" : "nodes") : "run time");
            break;
        }
        if (x.has[F_STATE]) {
            const char *st = dc_csv_cell(x.csv, r, x.col[F_STATE]);
            in.state = *st ? parse_state(tg, st) : -1;
            if (in.state < 0) {
                rc = dc_csv_error_at(x.csv, r, x.col[F_STATE], err,
                                     *st ? "unknown end state \"%.40s\" (name it in the trace's states group)"
                                         : "missing field%.0s",
                                     st);
                break;
            }
        }
        if ((rc = csv_num(&x, r, F_LIMIT, true, &a, err)) != DC_OK
            || (rc = csv_num(&x, r, F_ESTIMATE, true, &b, err)) != DC_OK)
            break;
        if (!isnan(a) && !(a > 0)) {
            rc = dc_csv_error_at(x.csv, r, x.col[F_LIMIT], err, "a limit must be > 0 (got %g)", a);
            break;
        }
        if (!isnan(b) && !(b > 0)) {
            rc = dc_csv_error_at(x.csv, r, x.col[F_ESTIMATE], err, "an estimate must be > 0 (got %g)", b);
            break;
        }
        if (!isfinite(a * x.unit) && !isnan(a)) {
            rc = too_large(&x, r, F_LIMIT, a, err);
            break;
        }
        if (!isfinite(b * x.unit) && !isnan(b)) {
            rc = too_large(&x, r, F_ESTIMATE, b, err);
            break;
        }
        in.limit_s = a * x.unit;
        in.estimate_s = !isnan(b) ? b * x.unit : in.limit_s;
        if ((rc = csv_num(&x, r, F_PRIORITY, true, &p, err)) != DC_OK)
            break;
        if (!isnan(p) && (p != floor(p) || fabs(p) > 9e15)) {
            rc = dc_csv_error_at(x.csv, r, x.col[F_PRIORITY], err, "expected an integer (got %g)", p);
            break;
        }
        if (x.has[F_PREEMPT]) {
            const char *ps = dc_csv_cell(x.csv, r, x.col[F_PREEMPT]);
            int bv = *ps ? parse_bool(ps) : -1;
            if (bv < 0) {
                rc = dc_csv_error_at(x.csv, r, x.col[F_PREEMPT], err,
                                     "expected true/false, 1/0 or yes/no (got \"%.40s\")", ps);
                break;
            }
            pre = bv;
        }
        const char *strs[3] = {NULL, NULL, NULL};
        static const int sf[3] = {F_POOL, F_USER, F_NAME};
        static const size_t cap[3] = {32, 32, 48};
        for (int k = 0; k < 3 && rc == DC_OK; k++)
            if (x.has[sf[k]] && strlen(strs[k] = dc_csv_cell(x.csv, r, x.col[sf[k]])) >= cap[k])
                rc = dc_csv_error_at(x.csv, r, x.col[sf[k]], err, "a name of at most %zu characters", cap[k] - 1);
        int kind = -1;
        if (rc == DC_OK && x.has[F_KIND]) {
            const char *ks = dc_csv_cell(x.csv, r, x.col[F_KIND]);
            if (*ks && (kind = dc_job_kind_parse(ks)) < 0)
                rc = dc_csv_error_at(x.csv, r, x.col[F_KIND], err,
                                     "expected training, fine_tuning, evaluation or batch_inference (got \"%.40s\")",
                                     ks);
        }
        if (rc != DC_OK)
            break;
        dc_job_spec *t = push(v);
        if (!t) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
            break;
        }
        fill_job(t, tmpl, &in, gpn, dc_csv_name(x.csv), dc_csv_line(x.csv, r));
        snprintf(t->name, sizeof t->name, "%.24s-%zu", tmpl->name, r);
        if (strs[0])
            snprintf(t->pool, sizeof t->pool, "%s", strs[0]);
        if (strs[1])
            snprintf(t->user, sizeof t->user, "%s", strs[1]);
        if (strs[2] && *strs[2])
            snprintf(t->name, sizeof t->name, "%s", strs[2]);
        if (!isnan(pre))
            t->preemptible = pre != 0;
        if (kind >= 0)
            t->kind = (dc_job_kind)kind;
        if (prio)
            prio[np++] = isnan(p) ? tmpl->priority : p;
    }
    if (rows_read)
        rc = in_key(sc, dc_cfg_member(tg, "file"), rc, err); /* a row's error */
    if (rc == DC_OK && np > 0) /* (none when every row was skipped: *v->a may be NULL) */
        rc = map_priorities(prio, *v->a + first, np, err);
    free(prio);
    dc_csv_destroy(x.csv);
    return rc;
}

/* ---------- Standard Workload Format ---------- */

#define SWF_FIELDS 18
static const char *const swf_names[SWF_FIELDS] = {
    "job number", "submit time", "wait time", "run time", "allocated processors", "average CPU time",
    "used memory", "requested processors", "requested time", "requested memory", "status", "user id",
    "group id", "executable", "queue", "partition", "preceding job", "think time"};

static int swf_error(dc_error *err, const char *file, size_t line, int field, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static int swf_error(dc_error *err, const char *file, size_t line, int field, const char *fmt, ...)
{
    char msg[DC_ERROR_MSG_MAX / 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (field < 0)
        return dc_error_set(err, DC_EINPUT, "%s:%zu: %s", file, line, msg);
    return dc_error_set(err, DC_EINPUT, "%s:%zu: field %d (%s): %s", file, line, field + 1, swf_names[field], msg);
}

/* "; MaxProcs: 1024" and the like: the number after key, or NAN. */
static double header_number(const char *line, const char *key)
{
    const char *p = line + 1;
    while (*p == ' ' || *p == '\t')
        p++;
    size_t n = strlen(key);
    if (strncasecmp(p, key, n) != 0)
        return NAN;
    p += n;
    while (*p == ' ' || *p == '\t')
        p++;
    if (*p++ != ':')
        return NAN;
    char *end;
    double v = strtod(p, &end);
    return end == p ? NAN : v;
}

static int read_swf(const dc_scenario *sc, const config_setting_t *tg, const char *path, const char *shown,
                    const dc_job_spec *tmpl, uint32_t gpn, out_vec *v, dc_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return dc_scenario_error_at(sc, dc_cfg_member(tg, "file"), err, "cannot read %s: %s", path,
                                    strerror(errno));
    const char *s = "gpus";
    dc_cfg_lookup_string(tg, "processors", &s);
    bool gpus = strcmp(s, "gpus") == 0;
    int as_limit = 0, pools = 0, skip = 0;
    dc_cfg_lookup_bool(tg, "swf_limit", &as_limit);
    dc_cfg_lookup_bool(tg, "swf_pools", &pools);
    dc_cfg_lookup_bool(tg, "skip_empty", &skip);
    config_setting_t *ep = dc_cfg_member(tg, "epoch");
    bool epoch_auto = ep && config_setting_type(ep) == CONFIG_TYPE_STRING;
    double epoch = ep && !epoch_auto ? config_setting_get_float(ep) : 0.0;
    double max_procs = NAN, max_nodes = NAN, last = -INFINITY;
    char *line = NULL;
    size_t lcap = 0, lineno = 0;
    ssize_t len;
    int rc = DC_OK;
    bool any = false;
    while (rc == DC_OK && (len = getline(&line, &lcap, f)) >= 0) {
        lineno++;
        if (memchr(line, '\0', (size_t)len)) {
            rc = swf_error(err, shown, lineno, -1, "a NUL byte");
            break;
        }
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            continue;
        if (*p == ';') {
            if (!any) {
                double x = header_number(p, "MaxProcs");
                if (!isnan(x))
                    max_procs = x;
                x = header_number(p, "MaxNodes");
                if (!isnan(x))
                    max_nodes = x;
            }
            continue;
        }
        any = true;
        double fld[SWF_FIELDS];
        int nf = 0;
        while (*p && rc == DC_OK) {
            char *end;
            errno = 0;
            double x = strtod(p, &end);
            if (end == p || (*end && !isspace((unsigned char)*end)) || !isfinite(x)) {
                char tok[41];
                size_t tl = strcspn(p, " \t\r\n");
                snprintf(tok, sizeof tok, "%.*s", (int)(tl < 40 ? tl : 40), p);
                rc = nf < SWF_FIELDS ? swf_error(err, shown, lineno, nf, "expected a number (got \"%s\")", tok)
                                     : swf_error(err, shown, lineno, -1, "more than %d fields", SWF_FIELDS);
                break;
            }
            if (nf == SWF_FIELDS) {
                rc = swf_error(err, shown, lineno, -1, "more than %d fields", SWF_FIELDS);
                break;
            }
            fld[nf++] = x;
            p = end;
            while (isspace((unsigned char)*p))
                p++;
        }
        if (rc != DC_OK)
            break;
        if (nf < SWF_FIELDS) {
            rc = swf_error(err, shown, lineno, nf, "missing field (a row has %d fields, this one %d)", SWF_FIELDS,
                           nf);
            break;
        }
        row_in in = {.limit_s = NAN, .estimate_s = NAN, .size_is_gpus = gpus};
        double sub = fld[1];
        if (sub < 0) {
            rc = swf_error(err, shown, lineno, 1, sub == -1 ? "missing field" : "must be >= 0 (got %g)", sub);
            break;
        }
        if (sub < last) {
            rc = swf_error(err, shown, lineno, 1, "%.17g is before the previous row's %.17g (sort the trace)", sub,
                           last);
            break;
        }
        last = sub;
        if (epoch_auto) { /* the first row's submission */
            epoch = sub;
            epoch_auto = false;
        }
        in.submit_s = sub - epoch;
        if (in.submit_s < 0) {
            rc = swf_error(err, shown, lineno, 1, "before the trace's epoch (%.17g)", epoch);
            break;
        }
        in.run_s = fld[3];
        if (in.run_s < 0) {
            rc = swf_error(err, shown, lineno, 3, in.run_s == -1 ? "missing field" : "must be >= 0 (got %g)",
                           in.run_s);
            break;
        }
        int fs = fld[4] == -1 ? 7 : 4;
        in.size = fld[fs];
        if (in.size < 0 || in.size != floor(in.size) || in.size > 1e8) {
            rc = swf_error(err, shown, lineno, fs,
                           in.size == -1 ? "missing field (and allocated processors too)"
                                         : "expected a whole number of processors >= 1 (got %g)",
                           in.size);
            break;
        }
        if (in.size == 0 || in.run_s == 0) {
            if (skip)
                continue;
            rc = swf_error(err, shown, lineno, in.size == 0 ? fs : 3,
                           "a job of zero %s (skip_empty = true drops such rows)",
                           in.size == 0 ? "processors" : "run time");
            break;
        }
        double machine = !isnan(max_procs) ? max_procs : max_nodes;
        if (!isnan(machine) && in.size > machine) {
            rc = swf_error(err, shown, lineno, fs, "%g processors, more than the machine's %g (header Max%s)",
                           in.size, machine, !isnan(max_procs) ? "Procs" : "Nodes");
            break;
        }
        double status = fld[10]; /* (compared as read: a cast of 1e10 to int is undefined) */
        if (status != 1 && status != 0 && status != 5 && status != -1) {
            rc = swf_error(err, shown, lineno, 10,
                           "unknown status %g (1 completed, 0 failed, 5 cancelled, -1 unknown; the partial "
                           "executions 2-4 are not read)",
                           fld[10]);
            break;
        }
        in.state = status == 0 ? DC_END_FAILED : status == 5 ? DC_END_CANCELLED : DC_END_COMPLETED;
        if (fld[8] > 0) {
            in.estimate_s = fld[8];
            if (as_limit)
                in.limit_s = fld[8];
        } else if (fld[8] != -1 && fld[8] != 0) {
            rc = swf_error(err, shown, lineno, 8, "must be > 0 or -1 (got %g)", fld[8]);
            break;
        }
        dc_job_spec *t = push(v);
        if (!t) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
            break;
        }
        fill_job(t, tmpl, &in, gpn, shown, lineno);
        if (fld[0] >= 0)
            snprintf(t->name, sizeof t->name, "%.24s-%.0f", tmpl->name, fld[0]);
        else
            snprintf(t->name, sizeof t->name, "%.24s-%zu", tmpl->name, lineno);
        if (fld[11] >= 0)
            snprintf(t->user, sizeof t->user, "u%.0f", fld[11]);
        if (pools && fld[14] >= 0)
            snprintf(t->pool, sizeof t->pool, "q%.0f", fld[14]);
    }
    rc = in_key(sc, dc_cfg_member(tg, "file"), rc, err); /* a line's error (swf_error) */
    if (rc == DC_OK && ferror(f))
        rc = dc_scenario_error_at(sc, dc_cfg_member(tg, "file"), err, "cannot read %s: %s", path,
                                  strerror(errno));
    free(line);
    fclose(f);
    return rc;
}

int dc_tracemap_read(const dc_scenario *sc, const config_setting_t *tg, const dc_job_spec *tmpl,
                     uint32_t gpus_per_node, dc_job_spec **a, size_t *n, size_t *cap, dc_error *err)
{
    const char *rel = "", *fmt = "csv";
    dc_cfg_lookup_string(tg, "file", &rel);
    dc_cfg_lookup_string(tg, "format", &fmt);
    char path[4096];
    if (!dc_csv_resolve_path(dc_scenario_file(sc), rel, path, sizeof path))
        return dc_scenario_error_at(sc, dc_cfg_member(tg, "file"), err, "path too long");
    out_vec v = {a, n, cap};
    if (gpus_per_node == 0)
        gpus_per_node = 1;
    if (strcmp(fmt, "swf") == 0)
        return read_swf(sc, tg, path, path, tmpl, gpus_per_node, &v, err);
    return read_csv(sc, tg, path, tmpl, gpus_per_node, &v, err);
}
