/* Checkpoint policy: write time, Young and Daly intervals, Daly's expected wall time.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "checkpoint.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"

const dc_param dc_checkpoint_params[] = {
    {"checkpoint", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "checkpointing of the job; absent: no checkpoints (a failure loses all work)"},
    {"checkpoint.interval_s", DC_PARAM_FLOAT, DC_PARAM_AUTO, "s", 0, "auto", 1, 1e9,
     NULL, "compute time between checkpoints (a number: fixed), or \"auto\" for the policy's optimum"},
    {"checkpoint.policy", DC_PARAM_STRING, 0, "", 0, "young", 0, 0, "young|daly|fixed",
     "optimum used by interval_s = \"auto\": Young's sqrt(2CM) or Daly's higher order; fixed needs a number"},
    {"checkpoint.estimate", DC_PARAM_STRING, 0, "", 0, "observed", 0, 0, "observed|configured",
     "M for \"auto\": the interruption rate the job observes (moving estimate) or the configured rates"},
    {"checkpoint.window_h", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "h", 168, NULL, 0, 1e7, NULL,
     "observed estimate: interruptions counted over this much of the job's recent life"},
    {"checkpoint.prior_h", DC_PARAM_FLOAT, 0, "h", 24, NULL, 0, 1e7, NULL,
     "observed estimate: the prior rate counts as this many hours of observation"},
    {"checkpoint.prior_mtbi_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0,
     1e12, NULL, "observed estimate: prior mean time between interruptions (default: from the failure rates)"},
    {"checkpoint.retain", DC_PARAM_INT, 0, "", 1, NULL, 0, 1e6, NULL,
     "completed checkpoints kept for rolling back past silent data corruption (0: none)"},
    {"checkpoint.retain_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "h", 0, NULL, 0, 8760, NULL,
     "also keep every checkpoint captured in the last retain_h hours and the newest before them: a corruption "
     "found up to retain_h after it happened rolls back to the last clean checkpoint, however short the "
     "interval (absent or 0: by count only)"},
    {"checkpoint.size_gb", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GB", 0, NULL, 0, 1e9,
     NULL, "size of one checkpoint (default: job.params x bytes_per_param)"},
    {"checkpoint.bytes_per_param", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 14, NULL, 0, 1e3, NULL,
     "checkpoint bytes per model parameter (bf16 weights + fp32 master + Adam moments = 14)"},
    {"checkpoint.write_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GB/s", 0, NULL, 0,
     1e9, NULL, "aggregate bandwidth the job's checkpoint writes get (required without tier or levels)"},
    {"checkpoint.tier", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "storage tier the checkpoints are written to, as transfers sharing its bandwidth (instead of write_gb_per_s)"},
    {"checkpoint.mode", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, "blocking|async",
     "with a tier: blocking (the job waits for the write) or async (snapshot to host memory, drain in the "
     "background; default blocking)"},
    {"checkpoint.snapshot_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GB/s", 0, NULL,
     0, 1e9, NULL, "async: aggregate bandwidth of the snapshot to host memory (the job stalls size / this)"},
    {"checkpoint.levels", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "multi-level checkpoints (instead of tier): checkpoint k goes to the last level whose every divides k"},
    {"checkpoint.levels.[].tier", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "storage tier of this level"},
    {"checkpoint.levels.[].every", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 1, 1e6, NULL,
     "this level takes every this many checkpoints (the first level: 1)"},
    {"checkpoint.levels.[].partner", DC_PARAM_BOOL, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "node tiers: each node's shard also on its partner node (n xor 1): survives the loss of one of the two"},
    {0},
};

double dc_checkpoint_young_s(double write_s, double mtbi_s)
{
    return sqrt(2.0 * write_s * mtbi_s);
}

double dc_checkpoint_daly_s(double write_s, double mtbi_s)
{
    if (write_s >= 2.0 * mtbi_s)
        return mtbi_s;
    double x = write_s / (2.0 * mtbi_s);
    return sqrt(2.0 * write_s * mtbi_s) * (1.0 + sqrt(x) / 3.0 + x / 9.0) - write_s;
}

double dc_checkpoint_daly_wall_s(double work_s, double interval_s, double write_s,
                                 double restart_s, double mtbi_s)
{
    return mtbi_s * exp(restart_s / mtbi_s) * expm1((interval_s + write_s) / mtbi_s) * work_s / interval_s;
}

double dc_checkpoint_expected_wall_s(double work_s, double interval_s, double write_s,
                                     double restart_s, double detect_s, double mtbi_s)
{
    return (mtbi_s + detect_s) * exp(restart_s / mtbi_s) * expm1((interval_s + write_s) / mtbi_s) * work_s
           / interval_s;
}

double dc_checkpoint_ettr_first_order(double interval_s, double write_s,
                                      double restart_s, double mtbi_s)
{
    return (1.0 - (restart_s + interval_s / 2.0) / mtbi_s) / (1.0 + write_s / interval_s);
}

double dc_checkpoint_ettr_first_order_detect(double interval_s, double write_s, double restart_s,
                                             double detect_s, double mtbi_s)
{
    return dc_checkpoint_ettr_first_order(interval_s, write_s, detect_s + restart_s, mtbi_s);
}

/* The kind of the tier named name in storage.tiers (NULL if none). */
static const char *tier_kind(const dc_scenario *sc, const char *name)
{
    config_setting_t *list = dc_scenario_lookup(sc, "storage.tiers");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        config_setting_t *t = config_setting_get_elem(list, (unsigned)i);
        const char *n = NULL, *kind = "";
        dc_cfg_lookup_string(t, "name", &n);
        dc_cfg_lookup_string(t, "kind", &kind);
        if (n && strcmp(n, name) == 0)
            return kind;
    }
    return NULL;
}

static int set_level(const dc_scenario *sc, config_setting_t *at, dc_checkpoint_level *lv, const char *name,
                     dc_error *err)
{
    const char *kind = tier_kind(sc, name);
    if (!kind)
        return dc_scenario_error_at(sc, at, err, "no storage tier is named \"%s\" (storage.tiers)", name);
    snprintf(lv->tier, sizeof lv->tier, "%s", name);
    lv->durable = strcmp(kind, "pfs") == 0 || strcmp(kind, "object") == 0;
    return DC_OK;
}

/* A job whose only checkpoint tier is not durable (kind nvme, ddr, hbm:
 * on the job's nodes) loses its checkpoints with any of its nodes, so a
 * restart after a node failure goes back to the start: accepted (a study
 * of node-local checkpoints may want it), with a warning. */
static void warn_lone_local(const dc_scenario *sc, const config_setting_t *at, const char *tier)
{
    dc_scenario_warn_at(sc, at,
                        "tier \"%s\" is on the job's nodes and is its only checkpoint tier: a failure of any of "
                        "its nodes loses the checkpoints and restarts the job from its start; add a durable level "
                        "(levels, with a tier of kind pfs or object) or write to a durable tier",
                        tier);
}

static int read_levels(const dc_scenario *sc, config_setting_t *g, dc_checkpoint_plan *plan, dc_error *err)
{
    const char *tier = NULL, *mode = NULL;
    config_setting_t *levels = dc_cfg_member(g, "levels");
    bool has_tier = dc_cfg_lookup_string(g, "tier", &tier);
    if (has_tier && levels)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "tier"), err,
                                    "give either tier or levels, not both");
    if (has_tier) {
        plan->n_levels = 1;
        plan->levels[0].every = 1;
        int rc = set_level(sc, dc_cfg_member(g, "tier"), &plan->levels[0], tier, err);
        if (rc != DC_OK)
            return rc;
        if (!plan->levels[0].durable)
            warn_lone_local(sc, dc_cfg_member(g, "tier"), tier);
    } else if (levels) {
        int n = config_setting_length(levels);
        if (n < 1 || n > DC_CHECKPOINT_MAX_LEVELS)
            return dc_scenario_error_at(sc, levels, err, "give 1 to %d levels (got %d)", DC_CHECKPOINT_MAX_LEVELS, n);
        bool durable = false;
        for (int i = 0; i < n; i++) {
            config_setting_t *l = config_setting_get_elem(levels, (unsigned)i);
            dc_checkpoint_level *lv = &plan->levels[i];
            const char *name = "";
            int partner = 0;
            dc_cfg_lookup_string(l, "tier", &name);
            dc_cfg_lookup_int(l, "every", &lv->every);
            dc_cfg_lookup_bool(l, "partner", &partner);
            lv->partner = partner;
            int rc = set_level(sc, dc_cfg_member(l, "tier"), lv, name, err);
            if (rc != DC_OK)
                return rc;
            if (i == 0 && lv->every != 1)
                return dc_scenario_error_at(sc, dc_cfg_member(l, "every"), err,
                                            "the first level takes every checkpoint not taken by another: every = 1 "
                                            "(got %d)", lv->every);
            if (lv->partner && lv->durable)
                return dc_scenario_error_at(sc, dc_cfg_member(l, "partner"), err,
                                            "partner copies are for node tiers; \"%s\" is shared", name);
            durable = durable || lv->durable;
        }
        plan->n_levels = (size_t)n;
        if (!durable)
            return dc_scenario_error_at(sc, levels, err,
                                        "no level is on a durable tier (kind pfs or object): a node or rack "
                                        "failure would leave nothing to restart from");
    }
    bool has_mode = dc_cfg_lookup_string(g, "mode", &mode);
    plan->async = has_mode && strcmp(mode, "async") == 0;
    double snap = 0;
    bool has_snap = dc_cfg_lookup_float(g, "snapshot_gb_per_s", &snap);
    if (has_mode && plan->n_levels == 0)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "mode"), err,
                                    "mode needs a storage tier to write to (tier or levels)");
    if (plan->async && !has_snap)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "mode"), err,
                                    "mode \"async\" needs snapshot_gb_per_s (the copy to host memory)");
    plan->snapshot_s = snap; /* a bandwidth until the size is known */
    return DC_OK;
}

int dc_checkpoint_plan_read(const dc_scenario *sc, double model_params,
                            dc_checkpoint_plan *plan, dc_error *err)
{
    memset(plan, 0, sizeof *plan);
    plan->prior_mtbi_s = NAN;
    config_setting_t *g = dc_scenario_lookup(sc, "checkpoint");
    if (!g)
        return DC_OK;
    plan->enabled = true;
    const char *policy = "young", *estimate = "observed";
    dc_cfg_lookup_string(g, "policy", &policy);
    dc_cfg_lookup_string(g, "estimate", &estimate);
    plan->policy = strcmp(policy, "daly") == 0 ? DC_CHECKPOINT_DALY
                   : strcmp(policy, "fixed") == 0 ? DC_CHECKPOINT_FIXED
                                                  : DC_CHECKPOINT_YOUNG;
    plan->observed = strcmp(estimate, "observed") == 0;
    config_setting_t *iv = dc_cfg_member(g, "interval_s");
    if (config_setting_type(iv) != CONFIG_TYPE_STRING) {
        plan->policy = DC_CHECKPOINT_FIXED;
        plan->interval_s = config_setting_get_float(iv);
    } else if (plan->policy == DC_CHECKPOINT_FIXED) {
        return dc_scenario_error_at(sc, dc_cfg_member(g, "policy"), err,
                                    "policy \"fixed\" needs a number for checkpoint.interval_s (got \"auto\")");
    }
    double window_h = 168, prior_h = 24, prior_mtbi_h;
    dc_cfg_lookup_float(g, "window_h", &window_h);
    dc_cfg_lookup_float(g, "prior_h", &prior_h);
    if (dc_cfg_lookup_float(g, "prior_mtbi_h", &prior_mtbi_h))
        plan->prior_mtbi_s = prior_mtbi_h * 3600.0;
    plan->window_s = window_h * 3600.0;
    plan->prior_s = prior_h * 3600.0;
    plan->retain = 1;
    dc_cfg_lookup_int(g, "retain", &plan->retain);
    double retain_h = 0;
    dc_cfg_lookup_float(g, "retain_h", &retain_h);
    plan->retain_s = retain_h * 3600.0;
    double bw = 0, bpp = 14;
    bool has_bw = dc_cfg_lookup_float(g, "write_gb_per_s", &bw);
    dc_cfg_lookup_float(g, "bytes_per_param", &bpp);
    if (!dc_cfg_lookup_float(g, "size_gb", &plan->size_gb)) {
        if (!(model_params > 0))
            return dc_scenario_error_at(sc, g, err,
                                        "give size_gb, or job.params so the size can be computed from bytes_per_param");
        plan->size_gb = model_params * bpp / 1e9;
    }
    int rc = read_levels(sc, g, plan, err);
    if (rc != DC_OK)
        return rc;
    if (plan->n_levels == 0 && !has_bw)
        return dc_scenario_error_at(sc, g, err, "give write_gb_per_s, or a storage tier (tier or levels)");
    /* With tiers, the job sets write_s from the tier at its start. */
    plan->write_gb_per_s = has_bw ? bw : 0.0;
    plan->write_s = plan->n_levels ? NAN : plan->size_gb / bw;
    if (plan->async)
        plan->write_s = plan->snapshot_s = plan->size_gb / plan->snapshot_s;
    return DC_OK;
}

int dc_checkpoint_tier_level(const dc_scenario *sc, const config_setting_t *at, const char *tier,
                             dc_checkpoint_level *lv, dc_error *err)
{
    *lv = (dc_checkpoint_level){.every = 1};
    int rc = set_level(sc, (config_setting_t *)at, lv, tier, err);
    if (rc == DC_OK && !lv->durable)
        warn_lone_local(sc, at, tier);
    return rc;
}

void dc_checkpoint_plan_use_level(dc_checkpoint_plan *plan, const dc_checkpoint_level *lv)
{
    plan->levels[0] = *lv;
    plan->n_levels = 1;
    plan->write_s = NAN; /* from the tier at the job's start */
}

int dc_checkpoint_plan_set_tier(const dc_scenario *sc, const config_setting_t *at, dc_checkpoint_plan *plan,
                                const char *tier, dc_error *err)
{
    dc_checkpoint_level lv;
    int rc = dc_checkpoint_tier_level(sc, at, tier, &lv, err);
    if (rc != DC_OK)
        return rc;
    dc_checkpoint_plan_use_level(plan, &lv);
    return DC_OK;
}

size_t dc_checkpoint_level_of(const dc_checkpoint_plan *plan, uint64_t k)
{
    size_t level = 0;
    for (size_t i = 1; i < plan->n_levels; i++)
        if (k % (uint64_t)plan->levels[i].every == 0)
            level = i;
    return level;
}

double dc_checkpoint_optimum_s(const dc_checkpoint_plan *plan, double mtbi_s)
{
    if (!isfinite(mtbi_s))
        return INFINITY; /* nothing interrupts the job: checkpoints only cost time */
    return plan->policy == DC_CHECKPOINT_DALY ? dc_checkpoint_daly_s(plan->write_s, mtbi_s)
                                              : dc_checkpoint_young_s(plan->write_s, mtbi_s);
}

void dc_checkpoint_plan_resolve(dc_checkpoint_plan *plan, double mtbi_s)
{
    if (!plan->enabled || plan->policy == DC_CHECKPOINT_FIXED)
        return;
    plan->interval_s = dc_checkpoint_optimum_s(plan, mtbi_s);
}

void dc_mtbi_estimator_init(dc_mtbi_estimator *e, double prior_mtbi_s, double prior_s,
                            double window_s, double start_s)
{
    memset(e, 0, sizeof *e);
    e->prior_rate_per_s = prior_mtbi_s > 0.0 && isfinite(prior_mtbi_s) ? 1.0 / prior_mtbi_s : 0.0;
    e->prior_s = prior_s;
    e->window_s = window_s;
    e->start_s = start_s;
}

void dc_mtbi_estimator_free(dc_mtbi_estimator *e)
{
    free(e->times);
    e->times = NULL;
    e->n = e->cap = e->head = 0;
}

static void expire(dc_mtbi_estimator *e, double now_s)
{
    while (e->n > 0 && e->times[e->head] <= now_s - e->window_s) {
        e->head = (e->head + 1) % e->cap;
        e->n--;
    }
}

int dc_mtbi_estimator_record(dc_mtbi_estimator *e, double t_s)
{
    expire(e, t_s);
    if (e->n == e->cap) {
        size_t ncap = e->cap ? 2 * e->cap : 16;
        double *g = malloc(ncap * sizeof *g);
        if (!g)
            return DC_ENOMEM;
        for (size_t i = 0; i < e->n; i++)
            g[i] = e->times[(e->head + i) % e->cap];
        free(e->times);
        e->times = g;
        e->cap = ncap;
        e->head = 0;
    }
    e->times[(e->head + e->n) % e->cap] = t_s;
    e->n++;
    return DC_OK;
}

double dc_mtbi_estimator_mtbi_s(dc_mtbi_estimator *e, double now_s)
{
    expire(e, now_s);
    double observed_s = now_s - e->start_s;
    if (observed_s > e->window_s)
        observed_s = e->window_s;
    if (observed_s < 0.0)
        observed_s = 0.0;
    double events = (double)e->n + e->prior_s * e->prior_rate_per_s;
    double exposure = observed_s + e->prior_s;
    if (!(events > 0.0))
        return INFINITY;
    /* A failure at the very start with no prior would give M = 0 and a
     * checkpoint at every instant: one second is the floor. */
    double m = exposure / events;
    return m > 1.0 ? m : 1.0; /* fmax(m, 1.0) without the libm call: the same for every m (a NaN gives 1.0 in both) */
}
