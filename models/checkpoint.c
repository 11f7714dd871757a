/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */
#include "checkpoint.h"

#include <math.h>
#include <string.h>

const dc_param dc_checkpoint_params[] = {
    {"checkpoint", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "checkpointing of the job; absent: no checkpoints (a failure loses all work)"},
    {"checkpoint.interval_s", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "s", 0, "auto", 0, 1e9,
     NULL, "compute time between checkpoints, or \"auto\" for the policy's optimum"},
    {"checkpoint.policy", DC_PARAM_STRING, 0, "", 0, "young", 0, 0, "young|daly",
     "optimum used by interval_s = \"auto\": Young's sqrt(2CM) or Daly's higher order"},
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

double dc_checkpoint_ettr_first_order(double interval_s, double write_s,
                                      double restart_s, double mtbi_s)
{
    return (1.0 - (restart_s + interval_s / 2.0) / mtbi_s) / (1.0 + write_s / interval_s);
}

int dc_checkpoint_plan_read(const dc_scenario *sc, double model_params,
                            dc_checkpoint_plan *plan, dc_error *err)
{
    memset(plan, 0, sizeof *plan);
    config_setting_t *g = dc_scenario_lookup(sc, "checkpoint");
    if (!g)
        return DC_OK;
    plan->enabled = true;
    const char *policy = "young";
    config_setting_lookup_string(g, "policy", &policy);
    plan->policy = strcmp(policy, "daly") == 0 ? DC_CHECKPOINT_DALY : DC_CHECKPOINT_YOUNG;
    config_setting_t *iv = config_setting_get_member(g, "interval_s");
    if (config_setting_type(iv) != CONFIG_TYPE_STRING) {
        plan->policy = DC_CHECKPOINT_FIXED;
        plan->interval_s = config_setting_get_float(iv);
    }
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

void dc_checkpoint_plan_resolve(dc_checkpoint_plan *plan, double mtbi_s)
{
    if (!plan->enabled || plan->policy == DC_CHECKPOINT_FIXED)
        return;
    if (!isfinite(mtbi_s)) {
        /* Nothing can interrupt the job: checkpoints only cost time. */
        plan->interval_s = INFINITY;
        return;
    }
    plan->interval_s = plan->policy == DC_CHECKPOINT_DALY ? dc_checkpoint_daly_s(plan->write_s, mtbi_s)
                                                          : dc_checkpoint_young_s(plan->write_s, mtbi_s);
}
