/* Memory and trace-size estimates of a run, checked before anything is allocated.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Memory and trace-size estimates (equations in runlimits.h). */
#include "runlimits.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GB 1e9

static const config_setting_t *member(const config_setting_t *g, const char *key)
{
    return g ? config_setting_get_member(g, key) : NULL;
}

static double num(const config_setting_t *g, const char *key, double dflt)
{
    const config_setting_t *s = member(g, key);
    if (!s)
        return dflt;
    double v;
    return dc_scenario_number(s, &v) ? v : dflt;
}

static const char *str(const config_setting_t *g, const char *key, const char *dflt)
{
    const char *v = NULL;
    return g && config_setting_lookup_string(g, key, &v) ? v : dflt;
}

/* Mean time between failures of one unit, hours (NaN when not given), and
 * the setting it came from (*key, NULL when none). */
static double mean_h(const config_setting_t *c, const config_setting_t **key)
{
    static const char *const names[] = {"mtbf_h", "mean_h", "afr", "median_h", "scale_h"};
    *key = NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double v = num(c, names[i], NAN);
        if (isnan(v) || (i == 2 && !(v > 0)))
            continue;
        *key = member(c, names[i]);
        return i == 2 ? 8766.0 / v : v;
    }
    return NAN;
}

void dc_cli_estimate_run(const dc_scenario *sc, dc_cli_estimate *e)
{
    const config_t *cfg = dc_scenario_config(sc);
    const config_setting_t *root = config_root_setting(cfg);
    const config_setting_t *cl = config_setting_get_member(root, "cluster");
    const config_setting_t *tr = config_setting_get_member(root, "trace");
    memset(e, 0, sizeof *e);
    e->nodes = num(cl, "nodes", 0) + num(cl, "spare_nodes", 0);
    e->gpus = e->nodes * num(cl, "gpus_per_node", 8);
    double racks = ceil(e->nodes / fmax(1.0, num(cl, "nodes_per_rack", 4)));
    double horizon_h = 24.0 * num(root, "horizon_days", 0);
    const config_setting_t *fl = config_setting_get_member(root, "failures");
    /* A unit that failed cannot fail again before its repair: the repair
     * crews' throughput bounds the failures of the repaired classes. */
    const config_setting_t *rp = config_setting_get_member(root, "repair"), *repair_key, *key;
    double repair_h = mean_h(rp, &repair_key), crews = num(rp, "crews", 0);
    double repair_bound = repair_h > 0 ? (crews > 0 ? crews : e->nodes) * horizon_h / repair_h + e->nodes : INFINITY;
    double failures = 0, repaired = 0, most_clocks = 0, most_failures = 0;
    const config_setting_t *clocks_key = NULL, *failures_key = NULL;
    for (int i = 0; fl && i < config_setting_length(fl); i++) {
        const config_setting_t *c = config_setting_get_elem(fl, (unsigned)i);
        const char *per = str(c, "per", "node");
        double units = strcmp(per, "gpu") == 0 || strcmp(per, "job_gpu") == 0 ? e->gpus
                       : strcmp(per, "rack") == 0                              ? racks
                       : strcmp(per, "job") == 0                               ? 1
                                                                               : e->nodes;
        if (strcmp(str(c, "law", "exponential"), "exponential") != 0) {
            e->unit_clocks += units;
            if (units > most_clocks)
                most_clocks = units, clocks_key = member(c, "law");
        }
        double m = mean_h(c, &key);
        if (m > 0) {
            double n = units * horizon_h / m;
            if (strcmp(per, "job") == 0)
                failures += n;
            else
                repaired += n;
            if (n > most_failures)
                most_failures = n, failures_key = key;
        }
    }
    if (repaired > repair_bound && repair_bound > most_failures)
        failures_key = repair_key; /* the crews' throughput bounds the count */
    failures += fmin(repaired, repair_bound);
    bool events = true;
    int b = 1;
    if (tr && config_setting_lookup_bool(tr, "events", &b))
        events = b != 0;
    e->events = events ? 4.0 * failures : 0.0;
    double interval_s = num(tr, "sample_interval_s", 0);
    /* Series recorded at changes: the node counts and the repair queue change
     * at every failure and repair. */
    e->samples = 8.0 * failures + (interval_s > 0 ? 16.0 * horizon_h * 3600.0 / interval_s : 0.0);
    e->memory_bytes = 16.0 * 1048576.0 + 64.0 * e->nodes + 32.0 * (e->gpus + e->unit_clocks) + 64.0 * e->events +
                      16.0 * e->samples;
    /* The key of the largest term, for the message. */
    double interval_samples = e->samples - 8.0 * failures;
    double terms[] = {64.0 * e->nodes + 32.0 * e->gpus, 32.0 * e->unit_clocks,
                      64.0 * e->events + 16.0 * 8.0 * failures, 16.0 * interval_samples};
    const char *nodes_key = num(cl, "spare_nodes", 0) > num(cl, "nodes", 0) ? "spare_nodes" : "nodes";
    const config_setting_t *causes[] = {member(cl, nodes_key), clocks_key, failures_key,
                                        member(tr, "sample_interval_s")};
    e->cause = causes[0];
    for (size_t i = 1, top = 0; i < sizeof terms / sizeof terms[0]; i++)
        if (terms[i] > terms[top])
            top = i, e->cause = causes[i];
    e->trace_bytes = 64.0 * e->events + 16.0 * e->samples;
}

/* A positive number of GB from the environment, else dflt. */
static double env_gb(const char *name, double dflt, bool *bad)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || *end || !(x > 0) || !isfinite(x)) {
        *bad = true;
        return dflt;
    }
    return x * GB;
}

/* The memory limit in bytes, and what sets it (for messages). */
static int memory_limit(double *limit, const char **source, dc_error *err)
{
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double phys = pages > 0 && page > 0 ? (double)pages * (double)page : 16.0 * GB;
    bool bad = false;
    *limit = env_gb("DCSIM_MAX_MEMORY_GB", 0.8 * phys, &bad);
    if (bad)
        return dc_error_set(err, DC_EINPUT, "DCSIM_MAX_MEMORY_GB: expected a positive number of GB (got '%s')",
                            getenv("DCSIM_MAX_MEMORY_GB"));
    *source = getenv("DCSIM_MAX_MEMORY_GB") && *getenv("DCSIM_MAX_MEMORY_GB")
                  ? "DCSIM_MAX_MEMORY_GB"
                  : "80% of this machine's memory; set DCSIM_MAX_MEMORY_GB to change it";
    return DC_OK;
}

int dc_cli_check_sweep_limits(const char *what, double rows, double figures, dc_error *err)
{
    double limit = 0;
    const char *source = "";
    int rc = memory_limit(&limit, &source, err);
    if (rc != DC_OK)
        return rc;
    double need = rows * (64.0 + 40.0 * figures);
    if (need > limit)
        return dc_error_set(err, DC_EINPUT,
                            "%s: the results of %.0f runs of %s%.0f figures would need about %.3g GB of memory, more "
                            "than the limit of %.3g GB (%s): fewer --reps or grid points, or several sweeps",
                            what, rows, figures <= DC_CLI_SWEEP_MIN_FIGURES ? "at least " : "", figures, need / GB,
                            limit / GB, source);
    return DC_OK;
}

int dc_cli_check_limits(const dc_scenario *sc, const char *what, size_t copies, bool trace, bool force,
                        dc_error *err)
{
    dc_cli_estimate e;
    dc_cli_estimate_run(sc, &e);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    double phys = pages > 0 && page > 0 ? (double)pages * (double)page : 16.0 * GB;
    bool bad = false;
    double mem_limit = env_gb("DCSIM_MAX_MEMORY_GB", 0.8 * phys, &bad);
    if (bad)
        return dc_error_set(err, DC_EINPUT, "DCSIM_MAX_MEMORY_GB: expected a positive number of GB (got '%s')",
                            getenv("DCSIM_MAX_MEMORY_GB"));
    double trace_limit = env_gb("DCSIM_MAX_TRACE_GB", 2.0 * GB, &bad);
    if (bad)
        return dc_error_set(err, DC_EINPUT, "DCSIM_MAX_TRACE_GB: expected a positive number of GB (got '%s')",
                            getenv("DCSIM_MAX_TRACE_GB"));
    double need = e.memory_bytes * (double)(copies ? copies : 1);
    if (need > mem_limit) {
        /* Named after the key of the largest term (FILE:LINE: KEY, or
         * (--set) KEY), with what before the message unless it is that
         * file; else after what alone (the key is a default). */
        char where[DC_ERROR_MSG_MAX / 2] = "";
        const char *file = NULL;
        unsigned line = 0;
        if (e.cause) {
            dc_scenario_where(sc, e.cause, &file, &line);
            dc_scenario_where_text(sc, e.cause, where, sizeof where);
            size_t n = strlen(where);
            if (n + 2 < sizeof where)
                strcpy(where + n, ": ");
            if (!file || strcmp(file, what) != 0) {
                n = strlen(where);
                snprintf(where + n, sizeof where - n, "%s: ", what);
            }
        } else
            snprintf(where, sizeof where, "%s: ", what);
        return dc_error_set(err, DC_EINPUT,
                            "%sthe run would need about %.3g GB of memory (%.3g nodes, %.3g GPUs, %.3g per-unit "
                            "failure clocks, %.3g expected events, %.3g series samples%s), more than the limit of %.3g GB (%s)",
                            where, need / GB, e.nodes, e.gpus, e.unit_clocks, e.events, e.samples,
                            copies > 1 ? ", one copy per thread" : "", mem_limit / GB,
                            getenv("DCSIM_MAX_MEMORY_GB") && *getenv("DCSIM_MAX_MEMORY_GB")
                                ? "DCSIM_MAX_MEMORY_GB"
                                : "80% of this machine's memory; set DCSIM_MAX_MEMORY_GB to change it");
    }
    if (trace && !force && e.trace_bytes > trace_limit)
        return dc_error_set(err, DC_EINPUT,
                            "%s: the trace would be about %.3g GB (%.3g events, %.3g series samples), more than the "
                            "limit of %.3g GB (DCSIM_MAX_TRACE_GB): give --force to write it anyway, or a coarser "
                            "trace.sample_interval_s, trace.events = false, or --no-trace",
                            what, e.trace_bytes / GB, e.events, e.samples, trace_limit / GB);
    return DC_OK;
}
