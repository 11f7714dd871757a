/* The models dcsim knows, in init order, and the wiring from a validated scenario to a ready
 * simulation.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "registry.h"

#include <stddef.h>

#include "workload/checkpoint.h"
#include "cluster.h"
#include "facility/cooling.h"
#include "facility/thermal_aging.h"
#include "cost/cost.h"
#include "facility/environment.h"
#include "facility/facility.h"
#include "reliability/failure.h"
#include "workload/inference.h"
#include "workload/job.h"
#include "workload/jobclass.h"
#include "workload/jobspec.h"
#include "workload/tracemap.h"
#include "reliability/failurelog.h"
#include "orbital/orbital.h"
#include "fabric/network.h"
#include "facility/power.h"
#include "reliability/repair.h"
#include "workload/scheduler.h"
#include "workload/steptime.h"
#include "fabric/storage.h"

static const dc_param run_params[] = {
    {"name", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "scenario name for reports and figure titles (default: the file name)"},
    {"description", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "what the scenario shows"},
    {"seed", DC_PARAM_INT, 0, "", 1, NULL, 0, 9.2e18, NULL,
     "random seed (dcsim run --seed overrides); same scenario and seed give identical results"},
    {"horizon_days", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "days", 0, NULL, 0, 36525, NULL,
     "simulated time"},
    {"stop_when_done", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL, "end the run when every job has finished (the job group and the jobs list)"},
    {"trace", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "what the HDF5 trace records"},
    {"trace.events", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL, "record the /events table"},
    {"trace.sample_interval_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e9, NULL,
     "interval of sampled series (0: only series recorded at changes)"},
    {"trace.compress", DC_PARAM_INT, 0, "", 0, NULL, 0, 9, NULL, "deflate level of series and events (0: none)"},
    {0},
};

const dc_model_type *const dc_model_types[] = {
    &dc_model_cluster,
    &dc_model_scheduler, /* before the jobs and services that take nodes through it */
    &dc_model_job,
    &dc_model_inference,
    &dc_model_failure,
    &dc_model_repair,
    &dc_model_network,
    &dc_model_storage,
    &dc_model_steptime,
    &dc_model_environment,
    &dc_model_power,
    &dc_model_cooling,
    &dc_model_facility, /* after power: it adds the fixed overheads to the facility power */
    &dc_model_orbital,
    &dc_model_orbital_radiation,
    &dc_model_cost, /* last: it prices what the others wrote to the summary */
    NULL,
};

static const dc_param *const schemas[] = {
    run_params,
    dc_cluster_params,
    dc_scheduler_params,
    dc_job_params,
    dc_jobspec_params,
    dc_tracemap_params,
    dc_failurelog_params,
    dc_jobclass_params,
    dc_checkpoint_params,
    dc_inference_params,
    dc_failure_params,
    dc_repair_params,
    dc_network_params,
    dc_storage_params,
    dc_steptime_params,
    dc_environment_params,
    dc_power_params,
    dc_cooling_params,
    dc_facility_params,
    dc_thermal_aging_params,
    dc_orbital_params,
    dc_orbital_radiation_params,
    dc_cost_params,
    NULL,
};

const dc_param *const *dc_schemas(void)
{
    return schemas;
}

int dc_build(const dc_scenario *sc, int64_t seed_override, dc_sim **out, dc_error *err)
{
    return dc_build_cancellable(sc, seed_override, NULL, out, err);
}

int dc_build_cancellable(const dc_scenario *sc, int64_t seed_override, const volatile sig_atomic_t *cancel,
                         dc_sim **out, dc_error *err)
{
    config_t *cfg = dc_scenario_config(sc);
    long long seed = 1;
    double horizon_days = 0, sample_s = 0;
    int events = 1;
    config_lookup_int64(cfg, "seed", &seed);
    config_lookup_float(cfg, "horizon_days", &horizon_days);
    config_lookup_bool(cfg, "trace.events", &events);
    config_lookup_float(cfg, "trace.sample_interval_s", &sample_s);
    uint64_t used_seed = seed_override >= 0 ? (uint64_t)seed_override : (uint64_t)seed;

    dc_sim *sim = dc_sim_create(used_seed, horizon_days * 86400.0, err);
    if (!sim)
        return err ? err->code : DC_ENOMEM;
    dc_eventlog_enable(dc_sim_eventlog(sim), events);
    dc_sim_set_sample_interval(sim, sample_s);
    dc_sim_set_cancel(sim, cancel);
    for (size_t i = 0; dc_model_types[i]; i++) {
        int rc = dc_sim_add_model(sim, dc_model_types[i], sc, err);
        if (rc != DC_OK) {
            dc_sim_destroy(sim);
            return rc;
        }
    }
    *out = sim;
    return DC_OK;
}
