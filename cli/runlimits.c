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

static double num(const config_setting_t *g, const char *key, double dflt)
{
    const config_setting_t *s = g ? config_setting_get_member(g, key) : NULL;
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

/* Mean time between failures of one unit, hours (NaN when not given). */
static double mean_h(const config_setting_t *c)
{
    double v = num(c, "mtbf_h", NAN);
    if (isnan(v))
        v = num(c, "mean_h", NAN);
    if (isnan(v) && num(c, "afr", NAN) > 0)
        v = 8766.0 / num(c, "afr", NAN);
    if (isnan(v))
        v = num(c, "median_h", NAN);
    if (isnan(v))
        v = num(c, "scale_h", NAN);
    return v;
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
    const config_setting_t *rp = config_setting_get_member(root, "repair");
    double repair_h = mean_h(rp), crews = num(rp, "crews", 0);
    double repair_bound = repair_h > 0 ? (crews > 0 ? crews : e->nodes) * horizon_h / repair_h + e->nodes : INFINITY;
    double failures = 0, repaired = 0;
    for (int i = 0; fl && i < config_setting_length(fl); i++) {
        const config_setting_t *c = config_setting_get_elem(fl, (unsigned)i);
        const char *per = str(c, "per", "node");
        double units = strcmp(per, "gpu") == 0 || strcmp(per, "job_gpu") == 0 ? e->gpus
                       : strcmp(per, "rack") == 0                              ? racks
                       : strcmp(per, "job") == 0                               ? 1
                                                                               : e->nodes;
        if (strcmp(str(c, "law", "exponential"), "exponential") != 0)
            e->unit_clocks += units;
        double m = mean_h(c);
        if (m > 0) {
            if (strcmp(per, "job") == 0)
                failures += units * horizon_h / m;
            else
                repaired += units * horizon_h / m;
        }
    }
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
    if (need > mem_limit)
        return dc_error_set(err, DC_EINPUT,
                            "%s: the run would need about %.3g GB of memory (%.3g nodes, %.3g GPUs, %.3g per-unit "
                            "failure clocks, %.3g expected events, %.3g series samples%s), more than the limit of %.3g GB (%s)",
                            what, need / GB, e.nodes, e.gpus, e.unit_clocks, e.events, e.samples,
                            copies > 1 ? ", one copy per thread" : "", mem_limit / GB,
                            getenv("DCSIM_MAX_MEMORY_GB") && *getenv("DCSIM_MAX_MEMORY_GB")
                                ? "DCSIM_MAX_MEMORY_GB"
                                : "80% of this machine's memory; set DCSIM_MAX_MEMORY_GB to change it");
    if (trace && !force && e.trace_bytes > trace_limit)
        return dc_error_set(err, DC_EINPUT,
                            "%s: the trace would be about %.3g GB (%.3g events, %.3g series samples), more than the "
                            "limit of %.3g GB (DCSIM_MAX_TRACE_GB): give --force to write it anyway, or a coarser "
                            "trace.sample_interval_s, trace.events = false, or --no-trace",
                            what, e.trace_bytes / GB, e.events, e.samples, trace_limit / GB);
    return DC_OK;
}
