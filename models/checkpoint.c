/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */
#include "checkpoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const dc_param dc_checkpoint_params[] = {
    {"checkpoint", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "checkpointing of the job; absent: no checkpoints (a failure loses all work)"},
    {"checkpoint.interval_s", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "s", 0, "auto", 0, 1e9,
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
    {"checkpoint.size_gb", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GB", 0, NULL, 0, 1e9,
     NULL, "size of one checkpoint (default: job.params x bytes_per_param)"},
    {"checkpoint.bytes_per_param", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 14, NULL, 0, 1e3, NULL,
     "checkpoint bytes per model parameter (bf16 weights + fp32 master + Adam moments = 14)"},
    {"checkpoint.write_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "GB/s", 0, NULL, 0,
     1e9, NULL, "aggregate bandwidth the job's checkpoint writes get"},
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
    config_setting_lookup_string(g, "policy", &policy);
    config_setting_lookup_string(g, "estimate", &estimate);
    plan->policy = strcmp(policy, "daly") == 0 ? DC_CHECKPOINT_DALY
                   : strcmp(policy, "fixed") == 0 ? DC_CHECKPOINT_FIXED
                                                  : DC_CHECKPOINT_YOUNG;
    plan->observed = strcmp(estimate, "observed") == 0;
    config_setting_t *iv = config_setting_get_member(g, "interval_s");
    if (config_setting_type(iv) != CONFIG_TYPE_STRING) {
        plan->policy = DC_CHECKPOINT_FIXED;
        plan->interval_s = config_setting_get_float(iv);
    } else if (plan->policy == DC_CHECKPOINT_FIXED) {
        return dc_scenario_error_at(sc, config_setting_get_member(g, "policy"), err,
                                    "policy \"fixed\" needs a number for checkpoint.interval_s (got \"auto\")");
    }
    double window_h = 168, prior_h = 24, prior_mtbi_h;
    config_setting_lookup_float(g, "window_h", &window_h);
    config_setting_lookup_float(g, "prior_h", &prior_h);
    if (config_setting_lookup_float(g, "prior_mtbi_h", &prior_mtbi_h))
        plan->prior_mtbi_s = prior_mtbi_h * 3600.0;
    plan->window_s = window_h * 3600.0;
    plan->prior_s = prior_h * 3600.0;
    plan->retain = 1;
    config_setting_lookup_int(g, "retain", &plan->retain);
    double bw = 0, bpp = 14;
    config_setting_lookup_float(g, "write_gb_per_s", &bw);
    config_setting_lookup_float(g, "bytes_per_param", &bpp);
    if (!config_setting_lookup_float(g, "size_gb", &plan->size_gb)) {
        if (!(model_params > 0))
            return dc_scenario_error_at(sc, g, err,
                                        "give size_gb, or job.params so the size can be computed from bytes_per_param");
        plan->size_gb = model_params * bpp / 1e9;
    }
    plan->write_s = plan->size_gb / bw;
    return DC_OK;
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
    return fmax(exposure / events, 1.0);
}
