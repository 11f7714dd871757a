/* Where jobs come from: the job group, jobs lists, CSV traces and generated streams.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "jobspec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cfgget.h"
#include "csv.h"
#include "dist.h"
#include "law_params.h"
#include "tracemap.h"

const char *const dc_job_kind_names[DC_JOB_KINDS] = {"training", "fine_tuning", "evaluation", "batch_inference"};
const char *const dc_end_state_names[DC_END_STATES] = {"completed", "failed", "cancelled", "time_limit"};

#define KINDS "training|fine_tuning|evaluation|batch_inference"

/* A typo in an interarrival time must not ask for billions of jobs. */
#define MAX_STREAM_JOBS 1000000

const dc_param dc_jobspec_params[] = {
    {"jobs", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "more jobs: each group is one job, a trace file or a generated stream"},
    {"jobs.[].name", DC_PARAM_STRING, 0, "", 0, "jobs", 0, 0, NULL, "name for reports (a stream numbers its jobs)"},
    {"jobs.[].kind", DC_PARAM_STRING, 0, "", 0, "training", 0, 0, KINDS,
     "what the jobs do (evaluation and batch inference do not checkpoint by default)"},
    {"jobs.[].pool", DC_PARAM_STRING, 0, "", 0, "", 0, 0, NULL, "scheduler pool (empty: the first)"},
    {"jobs.[].type", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "node type (cluster.types): the jobs run only on nodes of this type (in the first pool of it unless pool "
     "says); their GPUs' peak is the type's unless they give gpu_peak_tflops"},
    {"jobs.[].user", DC_PARAM_STRING, 0, "", 0, "", 0, 0, NULL, "user or team, for quotas (empty: none)"},
    {"jobs.[].priority", DC_PARAM_INT, 0, "", 0, NULL, -1000, 1000, NULL, "priority class (higher first)"},
    {"jobs.[].preemptible", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "spot-class: any non-preemptible job of equal or higher priority may evict it"},
    {"jobs.[].max_run_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0, 1e7, NULL,
     "maximum run time of one allocation (also the estimate for backfilling)"},
    {"jobs.[].restart_s", DC_PARAM_FLOAT, 0, "s", 600, NULL, 0, 1e7, NULL,
     "time from getting its nodes (or a failure noticed) to computing"},
    {"jobs.[].checkpoint", DC_PARAM_BOOL, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "checkpoint (default: training and fine-tuning, when a checkpoint group exists)"},
    {"jobs.[].checkpoint_interval_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_AUTO,
     "s", 0, NULL, 1, 1e9, NULL, "this job's interval (a number: fixed; auto: the checkpoint group's policy)"},
    {"jobs.[].checkpoint_write_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "s", 0, NULL, 0, 1e7, NULL,
     "this job's checkpoint write time (default: the checkpoint group's)"},
    {"jobs.[].nodes", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e7, NULL, "one job: its size"},
    {"jobs.[].gpus", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 1, 1e9, NULL,
     "one job: its size in GPUs instead of nodes (fewer than a node has: a share of one node, packed with others)"},
    {"jobs.[].work_gpu_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GPU-h", 0, NULL, 0, 1e15,
     NULL, "one job: its work at the full rate of one GPU"},
    {"jobs.[].duration_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0, 1e8, NULL,
     "one CPU job (type a CPU-only type): its run time at full speed with nodes (its work: nodes x duration_h "
     "node-hours)"},
    {"jobs.[].start_h", DC_PARAM_FLOAT, 0, "h", 0, NULL, 0, 1e8, NULL,
     "one job: submission; a stream: first arrival not before"},
    {"jobs.[].trace", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT | DC_PARAM_FILE | DC_PARAM_OR_GROUP, "", 0, NULL, 0, 0,
     NULL,
     "a CSV trace (arrival_h,nodes,work_gpu_h,priority,pool,user,kind; gpus instead of nodes: sizes in GPUs; "
     "optional min_nodes or min_gpus: each row's elastic floor), "
     "relative to the scenario file; or a group "
     "{ file; format; columns; ... }: a trace in its own layout (mapped CSV, SWF: models/workload/tracemap.h)"},
    {"jobs.[].count", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "jobs", 0, NULL, 1, 1e7, NULL,
     "a stream: at most this many jobs"},
    {"jobs.[].stop_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 1e8, NULL,
     "a stream: no arrival after (default: the horizon)"},
    {"jobs.[].nodes_min", DC_PARAM_INT, 0, "nodes", 1, NULL, 1, 1e7, NULL, "a stream: smallest size"},
    {"jobs.[].nodes_max", DC_PARAM_INT, 0, "nodes", 1, NULL, 1, 1e7, NULL,
     "a stream: largest size (sizes log-uniform over the powers of two between)"},
    {"jobs.[].gpus_min", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 1, 1e9, NULL,
     "a stream: smallest size in GPUs (instead of nodes_min and nodes_max)"},
    {"jobs.[].gpus_max", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 1, 1e9, NULL,
     "a stream: largest size in GPUs (powers of two between, log-uniform)"},
    {"jobs.[].interarrival", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "a stream: law of the time between arrivals"},
    DC_LAW_PARAMS("jobs.[].interarrival", "exponential", "time between arrivals"),
    {"jobs.[].duration", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "a stream: law of a job's run time at full speed"},
    DC_LAW_PARAMS("jobs.[].duration", "lognormal", "run time at full speed"),
    {0},
};

int dc_job_kind_parse(const char *name)
{
    for (int k = 0; k < DC_JOB_KINDS; k++)
        if (strcmp(name, dc_job_kind_names[k]) == 0)
            return k;
    return -1;
}

void dc_jobspec_copy_name(char *dst, size_t n, const char *src)
{
    size_t len = strnlen(src, n - 1);
    memcpy(dst, src, len);
    dst[len] = '\0';
}

/* A name per trace row or stream job: "PREFIX-k" with the prefix cut to
 * 24 characters, as "%.24s-%zu".  The spec is a copy of its group's
 * template, whose name is the prefix: its first plen = strnlen(prefix, 24)
 * characters are in place already, so only "-k" is written after them
 * (no snprintf, no copy of the prefix per row). */
enum { NAME_PREFIX_MAX = 24 };
_Static_assert(sizeof ((dc_job_spec *)0)->name >= NAME_PREFIX_MAX + 1 + 20 + 1, "a numbered name fits");

static void number_suffix(char *name, size_t plen, size_t k)
{
    char digits[20];
    size_t nd = 0;
    do {
        digits[nd++] = (char)('0' + k % 10);
        k /= 10;
    } while (k > 0);
    char *p = name + plen;
    *p++ = '-';
    while (nd > 0)
        *p++ = digits[--nd];
    *p = '\0';
}

/* The specs read so far; with each set, given to it SPILL_SPECS at a time
 * (and the rest at the end), the buffer then reused. */
typedef struct specs {
    dc_job_spec *a;
    size_t n, cap;
    dc_jobspec_each each;
    void *ctx;
} specs;

enum { SPILL_SPECS = 4096 };

/* Gives the buffered specs to each once there are at least `least` (>= 1). */
static int spill(specs *v, size_t least, dc_error *err)
{
    if (!v->each || v->n < least)
        return DC_OK;
    int rc = v->each(v->ctx, v->a, v->n, err);
    v->n = 0;
    return rc;
}

/* Room for `more` specs past those buffered (at most SPILL_SPECS when
 * they are given as they come): one allocation instead of a doubling's
 * copies.  false when out of memory. */
static bool reserve(specs *v, size_t more)
{
    size_t need = v->n + (v->each && more > SPILL_SPECS ? SPILL_SPECS : more);
    if (need <= v->cap)
        return true;
    dc_job_spec *g = realloc(v->a, need * sizeof *g);
    if (!g)
        return false;
    v->a = g;
    v->cap = need;
    return true;
}

static dc_job_spec *push(specs *v)
{
    if (v->n == v->cap) {
        size_t nc = v->cap ? 2 * v->cap : 16;
        dc_job_spec *g = realloc(v->a, nc * sizeof *g);
        if (!g)
            return NULL;
        v->a = g;
        v->cap = nc;
    }
    return &v->a[v->n++];
}

/* A size in GPUs: fewer than a node has is a share of one node, else the
 * nodes that hold them (rounded up). */
void dc_jobspec_set_gpus(dc_job_spec *t, uint32_t gpus, uint32_t gpn)
{
    t->gpus = gpus;
    t->nodes = (uint32_t)(((uint64_t)gpus + gpn - 1) / gpn);
}

/* The GPUs a job computes on at full rate: those it asked for, or its nodes' GPUs. */
double dc_jobspec_rate_gpus(const dc_job_spec *t, uint32_t gpn)
{
    return t->gpus > 0 ? (double)t->gpus : (double)t->nodes * gpn;
}

/* Whether type names a CPU-only type of cluster.types (gpus_per_node = 0):
 * its jobs are CPU jobs, their work in node-seconds (cluster.c checks the
 * types themselves). */
static bool cpu_type(const dc_scenario *sc, const char *type)
{
    config_setting_t *list = type[0] ? dc_scenario_lookup(sc, "cluster.types") : NULL;
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        const char *name = "";
        int gpn = 1;
        if (dc_cfg_lookup_string(e, "name", &name) && strcmp(name, type) == 0)
            return dc_cfg_lookup_int(e, "gpus_per_node", &gpn) && gpn == 0;
    }
    return false;
}

/* A CPU job's group gives none of the GPU keys, a GPU job's no duration_h. */
static int check_cpu_keys(const dc_scenario *sc, const config_setting_t *g, const dc_job_spec *t, dc_error *err)
{
    static const char *const gpu_keys[] = {"gpus",     "work_gpu_h", "tokens", "gpus_min",
                                           "gpus_max", "min_gpus",   "trace"};
    if (!t->cpu) {
        config_setting_t *at = dc_cfg_member(g, "duration_h");
        if (at)
            return dc_scenario_error_at(sc, at, err,
                                        "duration_h is a CPU job's run time: it needs type naming a CPU-only type "
                                        "(gpus_per_node = 0; a GPU job gives work_gpu_h)");
        return DC_OK;
    }
    for (size_t k = 0; k < sizeof gpu_keys / sizeof gpu_keys[0]; k++)
        if (dc_cfg_member(g, gpu_keys[k]))
            return dc_scenario_error_at(sc, dc_cfg_member(g, gpu_keys[k]), err,
                                        "type \"%s\" is CPU-only: its jobs give nodes and duration_h (one job) or "
                                        "interarrival and duration (a stream), not %s",
                                        t->type, gpu_keys[k]);
    return DC_OK;
}

/* The keys every job of the group shares. */
static void common(const config_setting_t *g, dc_job_spec *t)
{
    const char *s = "jobs";
    memset(t, 0, sizeof *t);
    dc_cfg_lookup_string(g, "name", &s);
    snprintf(t->name, sizeof t->name, "%s", s);
    s = "training";
    dc_cfg_lookup_string(g, "kind", &s);
    t->kind = (dc_job_kind)dc_job_kind_parse(s);
    s = "";
    dc_cfg_lookup_string(g, "pool", &s);
    snprintf(t->pool, sizeof t->pool, "%s", s);
    s = "";
    dc_cfg_lookup_string(g, "type", &s);
    snprintf(t->type, sizeof t->type, "%s", s);
    s = "";
    dc_cfg_lookup_string(g, "user", &s);
    snprintf(t->user, sizeof t->user, "%s", s);
    dc_cfg_lookup_int(g, "priority", &t->priority);
    int b = 0;
    dc_cfg_lookup_bool(g, "preemptible", &b);
    t->preemptible = b;
    double h;
    t->max_run_s = dc_cfg_lookup_float(g, "max_run_h", &h) ? h * 3600.0 : INFINITY;
    t->restart_s = 600;
    dc_cfg_lookup_float(g, "restart_s", &t->restart_s);
    t->checkpoint = -1;
    if (dc_cfg_lookup_bool(g, "checkpoint", &b))
        t->checkpoint = b;
    t->ckpt_interval_s = NAN;
    config_setting_t *iv = dc_cfg_member(g, "checkpoint_interval_s");
    if (iv)
        t->ckpt_interval_s = config_setting_type(iv) == CONFIG_TYPE_STRING ? -1.0 : config_setting_get_float(iv);
    t->ckpt_write_s = NAN;
    dc_cfg_lookup_float(g, "checkpoint_write_s", &t->ckpt_write_s);
    t->estimate_s = NAN;
    t->end_state = DC_END_COMPLETED;
    t->where = g;
}

/* ---------- traces (sim/csv.h reads them) ---------- */

static const char *const columns[] = {"arrival_h", "nodes", "work_gpu_h", "priority", "pool", "user", "kind"};
#define N_COLS 7

/* A trace file's error (file:line: column: what) under the scenario key
 * that named the file (scenario.cfg:3: jobs.[0].trace: ...), so both show
 * (issue 18 item 9).  Other statuses pass unchanged. */
static int in_key(const dc_scenario *sc, const config_setting_t *key, int rc, dc_error *err)
{
    return rc != DC_EINPUT ? rc : dc_scenario_error_under(sc, key, err);
}

static int read_trace(const dc_scenario *sc, const config_setting_t *g, uint32_t gpn, specs *v, dc_error *err)
{
    const char *rel = "";
    dc_cfg_lookup_string(g, "trace", &rel);
    char path[4096];
    if (!dc_csv_resolve_path(dc_scenario_file(sc), rel, path, sizeof path))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "trace"), err, "path too long");
    dc_csv *csv = NULL;
    int rc = dc_csv_read_file(path, &csv, err);
    if (rc == DC_EIO)
        return dc_scenario_error_under(sc, dc_cfg_member(g, "trace"), err);
    if (rc != DC_OK)
        return in_key(sc, dc_cfg_member(g, "trace"), rc, err);
    size_t col[N_COLS];
    /* sizes in nodes, or in GPUs (a gpus column instead of nodes) */
    dc_error ignored;
    bool in_gpus = dc_csv_find_column(csv, "nodes", &col[1], &ignored) != DC_OK
                   && dc_csv_find_column(csv, "gpus", &col[1], &ignored) == DC_OK;
    for (int c = 0; c < N_COLS && rc == DC_OK; c++)
        if (c != 1 || !in_gpus)
            rc = dc_csv_find_column(csv, columns[c], &col[c], err);
    /* optional elastic floors (each row: at most one of them) */
    size_t col_min[2];
    bool has_min[2] = {dc_csv_find_column(csv, "min_nodes", &col_min[0], &ignored) == DC_OK,
                       dc_csv_find_column(csv, "min_gpus", &col_min[1], &ignored) == DC_OK};
    size_t rows = dc_csv_row_count(csv);
    if (rc == DC_OK && !reserve(v, rows))
        rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
    if (rc == DC_OK && v->each && (rc = v->each(v->ctx, NULL, v->n + rows, err)) != DC_OK) {
        dc_csv_destroy(csv);
        return rc; /* the receiver's error, with its own place */
    }
    dc_job_spec tmpl;
    common(g, &tmpl);
    dc_jobspec_copy_name(tmpl.trace_file, sizeof tmpl.trace_file, dc_csv_name(csv));
    size_t plen = strnlen(tmpl.name, NAME_PREFIX_MAX);
    double last = 0;
    for (size_t r = 0; rc == DC_OK && r < rows; r++) {
        double arr, nodes, work, prio;
        if ((rc = dc_csv_number(csv, r, col[0], &arr, err)) != DC_OK
            || (rc = dc_csv_number(csv, r, col[1], &nodes, err)) != DC_OK
            || (rc = dc_csv_number(csv, r, col[2], &work, err)) != DC_OK
            || (rc = dc_csv_number(csv, r, col[3], &prio, err)) != DC_OK)
            break;
        const char *pool = dc_csv_cell(csv, r, col[4]), *user = dc_csv_cell(csv, r, col[5]);
        const char *kind = dc_csv_cell(csv, r, col[6]);
        if (arr < 0)
            rc = dc_csv_error_at(csv, r, col[0], err, "must be >= 0 (got %g)", arr);
        else if (arr < last)
            rc = dc_csv_error_at(csv, r, col[0], err, "%g is before the previous row's %g (sort the trace)", arr,
                                 last);
        else if (nodes < 1 || nodes > (in_gpus ? 1e9 : 1e7) || nodes != floor(nodes))
            rc = dc_csv_error_at(csv, r, col[1], err, "expected a whole number of %s >= 1 (got %g)",
                                 in_gpus ? "GPUs" : "nodes", nodes);
        else if (!(work > 0))
            rc = dc_csv_error_at(csv, r, col[2], err, "must be > 0 (got %g)", work);
        else if (prio != floor(prio) || fabs(prio) > 1000)
            rc = dc_csv_error_at(csv, r, col[3], err, "expected an integer in [-1000, 1000] (got %g)", prio);
        else if (strlen(pool) >= sizeof tmpl.pool)
            rc = dc_csv_error_at(csv, r, col[4], err, "a name of at most %zu characters", sizeof tmpl.pool - 1);
        else if (strlen(user) >= sizeof tmpl.user)
            rc = dc_csv_error_at(csv, r, col[5], err, "a name of at most %zu characters", sizeof tmpl.user - 1);
        else if (*kind && dc_job_kind_parse(kind) < 0)
            rc = dc_csv_error_at(csv, r, col[6], err,
                                 "expected training, fine_tuning, evaluation or batch_inference (got \"%s\")", kind);
        double floor_of[2] = {0, 0};
        for (int k = 0; k < 2 && rc == DC_OK; k++) {
            if (!has_min[k] || !*dc_csv_cell(csv, r, col_min[k]))
                continue;
            double size = k == 0 ? (in_gpus ? ceil(nodes / gpn) : nodes) : (in_gpus ? nodes : nodes * gpn);
            if ((rc = dc_csv_number(csv, r, col_min[k], &floor_of[k], err)) != DC_OK)
                break;
            if (floor_of[k] < 1 || floor_of[k] != floor(floor_of[k]))
                rc = dc_csv_error_at(csv, r, col_min[k], err, "expected a whole number of %s >= 1 (got %g)",
                                     k ? "GPUs" : "nodes", floor_of[k]);
            else if (floor_of[k] > size)
                rc = dc_csv_error_at(csv, r, col_min[k], err, "%g is more than the row's %g %s", floor_of[k], size,
                                     k ? "GPUs" : "nodes");
            else if (k == 1 && floor_of[0] > 0)
                rc = dc_csv_error_at(csv, r, col_min[k], err,
                                     "give the row's elastic floor as min_nodes or min_gpus, not both");
        }
        if (rc != DC_OK)
            break;
        last = arr;
        dc_job_spec *t = push(v);
        if (!t) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory reading %s", path);
            break;
        }
        *t = tmpl;
        number_suffix(t->name, plen, r);
        t->submit_s = arr * 3600.0;
        if (in_gpus)
            dc_jobspec_set_gpus(t, (uint32_t)nodes, gpn);
        else
            t->nodes = (uint32_t)nodes;
        t->work_gpu_s = work * 3600.0;
        t->priority = (int)prio;
        t->min_nodes = (uint32_t)floor_of[0];
        t->min_gpus = (uint32_t)floor_of[1];
        if (*pool) /* (checked above: it fits) */
            dc_jobspec_copy_name(t->pool, sizeof t->pool, pool);
        else
            t->pool[0] = '\0';
        if (*user)
            dc_jobspec_copy_name(t->user, sizeof t->user, user);
        else
            t->user[0] = '\0';
        if (*kind)
            t->kind = (dc_job_kind)dc_job_kind_parse(kind);
        t->trace_line = (int)dc_csv_line(csv, r);
        if ((rc = spill(v, SPILL_SPECS, err)) != DC_OK) {
            dc_csv_destroy(csv);
            return rc; /* the receiver's error, with its own place */
        }
    }
    dc_csv_destroy(csv);
    return in_key(sc, dc_cfg_member(g, "trace"), rc, err);
}

static int generate(const dc_scenario *sc, dc_sim *sim, const config_setting_t *g, uint32_t gpn, specs *v,
                    dc_error *err)
{
    dc_job_spec tmpl;
    common(g, &tmpl);
    tmpl.cpu = cpu_type(sc, tmpl.type);
    dc_dist ia, dur;
    config_setting_t *gi = dc_cfg_member(g, "interarrival");
    config_setting_t *gd = dc_cfg_member(g, "duration");
    if (!gd)
        return dc_scenario_error_at(sc, g, err, "a generated stream needs a duration law");
    int rc = dc_dist_from_setting(sc, gi, &ia, err);
    if (rc == DC_OK)
        rc = dc_dist_from_setting(sc, gd, &dur, err);
    if (rc != DC_OK)
        return rc;
    int nmin = 1, nmax = 1, count = -1;
    bool in_gpus = dc_cfg_member(g, "gpus_min") || dc_cfg_member(g, "gpus_max");
    /* (nodes_min and nodes_max have defaults: only those written in the file count) */
    config_setting_t *n_min = dc_cfg_member(g, "nodes_min"), *n_max = dc_cfg_member(g, "nodes_max");
    if (in_gpus && ((n_min && config_setting_source_line(n_min) > 0) || (n_max && config_setting_source_line(n_max) > 0)))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "gpus_min") ? dc_cfg_member(g, "gpus_min")
                                                                                 : dc_cfg_member(g, "gpus_max"),
                                    err, "give the stream's sizes as nodes_min/nodes_max or gpus_min/gpus_max, not both");
    const char *kmin = in_gpus ? "gpus_min" : "nodes_min", *kmax = in_gpus ? "gpus_max" : "nodes_max";
    dc_cfg_lookup_int(g, kmin, &nmin);
    dc_cfg_lookup_int(g, kmax, &nmax);
    if (in_gpus && !dc_cfg_member(g, "gpus_max"))
        nmax = nmin;
    if (in_gpus && !dc_cfg_member(g, "gpus_min"))
        nmin = 1;
    dc_cfg_lookup_int(g, "count", &count);
    if (nmax < nmin)
        return dc_scenario_error_at(sc, dc_cfg_member(g, kmax), err, "%s %d is below %s %d", kmax, nmax,
                                    kmin, nmin);
    double start_h = 0, stop_h = dc_sim_horizon(sim) / 3600.0;
    dc_cfg_lookup_float(g, "start_h", &start_h);
    dc_cfg_lookup_float(g, "stop_h", &stop_h);
    /* the powers of two in [nmin, nmax] (or nmin alone) */
    uint32_t sizes[32];
    int ns = 0;
    for (uint64_t p = 1; p <= (uint64_t)nmax && ns < 32; p <<= 1)
        if (p >= (uint64_t)nmin)
            sizes[ns++] = (uint32_t)p;
    if (ns == 0)
        sizes[ns++] = (uint32_t)nmin;
    size_t plen = strnlen(tmpl.name, NAME_PREFIX_MAX);
    char name[96];
    snprintf(name, sizeof name, "jobs.%s.arrivals", tmpl.name);
    gsl_rng *ra = dc_sim_rng(sim, name);
    snprintf(name, sizeof name, "jobs.%s.sizes", tmpl.name);
    gsl_rng *rs = dc_sim_rng(sim, name);
    snprintf(name, sizeof name, "jobs.%s.durations", tmpl.name);
    gsl_rng *rd = dc_sim_rng(sim, name);
    if (!ra || !rs || !rd)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    double t = start_h * 3600.0;
    for (long k = 0; count < 0 || k < count; k++) {
        if ((k & 4095) == 0 && dc_sim_cancelled(sim)) /* a signal: a million jobs take seconds */
            return dc_error_set(err, DC_EINPUT, "interrupted while generating the jobs of a stream");
        t += dc_dist_sample(&ia, ra);
        if (t > stop_h * 3600.0)
            break;
        if (k == MAX_STREAM_JOBS)
            return dc_scenario_error_at(sc, gi, err,
                                        "the stream would submit more than %d jobs before its end (stop_h or the "
                                        "horizon); give a longer interarrival or a count",
                                        MAX_STREAM_JOBS);
        dc_job_spec *j = push(v);
        if (!j)
            return dc_error_set(err, DC_ENOMEM, "out of memory generating jobs");
        *j = tmpl;
        number_suffix(j->name, plen, (size_t)k);
        j->submit_s = t;
        uint32_t size = sizes[gsl_rng_uniform_int(rs, (unsigned long)ns)];
        if (in_gpus) {
            dc_jobspec_set_gpus(j, size, gpn);
            j->work_gpu_s = dc_dist_sample(&dur, rd) * dc_jobspec_rate_gpus(j, gpn);
        } else {
            j->nodes = size;
            j->work_gpu_s = dc_dist_sample(&dur, rd) * j->nodes * gpn;
        }
        if (!(j->work_gpu_s > 0))
            j->work_gpu_s = 1.0;
        if ((rc = spill(v, SPILL_SPECS, err)) != DC_OK)
            return rc;
    }
    return DC_OK;
}

static int read_groups(const dc_scenario *sc, dc_sim *sim, uint32_t gpus_per_node, specs *vp, dc_error *err)
{
    specs v = *vp;
    config_setting_t *list = dc_scenario_lookup(sc, "jobs");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        bool one = dc_cfg_member(g, "nodes") || dc_cfg_member(g, "gpus")
                   || dc_cfg_member(g, "work_gpu_h") || dc_cfg_member(g, "duration_h")
                   || dc_cfg_member(g, "tokens");
        bool tr = dc_cfg_member(g, "trace") != NULL;
        bool gen = dc_cfg_member(g, "interarrival") != NULL;
        dc_job_spec probe;
        common(g, &probe);
        probe.cpu = cpu_type(sc, probe.type);
        /* a CPU job's work is in node-seconds: one unit per node */
        uint32_t gpn = probe.cpu ? 1 : gpus_per_node;
        int rc = check_cpu_keys(sc, g, &probe, err);
        if (rc != DC_OK) {
            /* reported */
        } else if (one + tr + gen != 1) {
            rc = dc_scenario_error_at(sc, g, err,
                                      "give exactly one of: nodes and work_gpu_h or tokens (one job), trace (a file), "
                                      "interarrival and duration (a generated stream)");
        } else if (one) {
            dc_job_spec *t = push(&v);
            if (!t) {
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            } else {
                common(g, t);
                t->cpu = probe.cpu;
                int nodes = 0, gpus = 0;
                double work_h = NAN, start_h = 0;
                /* no work_gpu_h: the job's model gives it (params and tokens, job.c) */
                bool has_n = dc_cfg_lookup_int(g, "nodes", &nodes);
                bool has_g = dc_cfg_lookup_int(g, "gpus", &gpus);
                if (has_n && has_g)
                    rc = dc_scenario_error_at(sc, dc_cfg_member(g, "gpus"), err,
                                              "give the job's size as nodes or gpus, not both");
                else if (!has_n && !has_g)
                    rc = dc_scenario_error_at(sc, g, err,
                                              "one job needs nodes or gpus (and work_gpu_h, or params and tokens)");
                dc_cfg_lookup_float(g, "work_gpu_h", &work_h);
                dc_cfg_lookup_float(g, "start_h", &start_h);
                double dur_h;
                if (t->cpu && !dc_cfg_lookup_float(g, "duration_h", &dur_h))
                    rc = dc_scenario_error_at(sc, g, err, "a CPU job needs nodes and duration_h");
                else if (t->cpu)
                    work_h = dur_h * nodes;
                t->nodes = (uint32_t)nodes;
                if (has_g && !has_n)
                    dc_jobspec_set_gpus(t, (uint32_t)gpus, gpus_per_node);
                t->work_gpu_s = work_h * 3600.0;
                t->submit_s = start_h * 3600.0;
            }
        } else if (tr && config_setting_is_group(dc_cfg_member(g, "trace"))) {
            dc_job_spec tmpl;
            common(g, &tmpl);
            rc = dc_tracemap_read(sc, dc_cfg_member(g, "trace"), &tmpl, gpus_per_node, &v.a, &v.n, &v.cap,
                                  err);
        } else if (tr) {
            rc = read_trace(sc, g, gpus_per_node, &v, err);
        } else {
            rc = generate(sc, sim, g, gpn, &v, err);
        }
        if (rc == DC_OK)
            rc = spill(&v, tr ? 1 : SPILL_SPECS, err); /* (a mapped trace's: all at once) */
        if (rc != DC_OK) {
            *vp = v;
            return rc;
        }
    }
    *vp = v;
    return spill(vp, 1, err);
}

int dc_jobspec_read(const dc_scenario *sc, dc_sim *sim, uint32_t gpus_per_node, dc_job_spec **out, size_t *n,
                    dc_error *err)
{
    specs v = {0};
    *out = NULL;
    *n = 0;
    int rc = read_groups(sc, sim, gpus_per_node, &v, err);
    if (rc != DC_OK) {
        free(v.a);
        return rc;
    }
    *out = v.a;
    *n = v.n;
    return DC_OK;
}

int dc_jobspec_stream(const dc_scenario *sc, dc_sim *sim, uint32_t gpus_per_node, dc_jobspec_each each, void *ctx,
                      dc_error *err)
{
    specs v = {.each = each, .ctx = ctx};
    int rc = read_groups(sc, sim, gpus_per_node, &v, err);
    free(v.a);
    return rc;
}
