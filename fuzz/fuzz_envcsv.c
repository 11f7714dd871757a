/* libFuzzer harness: arbitrary bytes as an environment CSV or a job trace, through the models'
 * checks.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: the input is an ambient temperature, electricity price
 * or carbon intensity CSV as models/facility/environment.c reads it, or a job trace
 * (arrival_h,nodes,work_gpu_h,...) as models/workload/jobspec.c reads it (the first
 * byte picks which).  Beyond the strict CSV reader (fuzz_csv) this covers
 * the models' own checks (start at 0, increasing times, ranges, coverage of
 * the horizon, job sizes and kinds) and a short run that uses the data.  The bytes go to a
 * temporary file because the model reads files named by the scenario. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry.h"
#include "scenario.h"
#include "sim.h"

#include "fuzzfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base[] =
    "horizon_days = 2.0;\n"
    "cluster = { nodes = 4; spare_nodes = 1; };\n"
    "job = { nodes = 4; work_gpu_h = 50.0; };\n"
    "checkpoint = { write_gb_per_s = 10.0; size_gb = 100.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n"
    "power = { gpu = { peak_w = 700.0; }; };\n"
    "cooling = { type = \"air\"; capacity_kw = 100.0; };\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[] = "/tmp/dcsim-fuzz-env-XXXXXX";
    if (!dc_fuzz_write_temp(path, data + 1, size - 1))
        return 0;
    static const char *const groups[] = {"ambient", "price", "carbon", "jobs"};
    const char *group = groups[data[0] % 4];
    char set[4200];
    dc_error err = {0};
    dc_scenario *sc = NULL;
    int rc;
    if (strcmp(group, "jobs") == 0) {
        char text[sizeof base + 4200];
        snprintf(text, sizeof text, "%sjobs = ( { name = \"t\"; trace = \"%s\"; restart_s = 0.0; } );\n", base, path);
        if (dc_scenario_load_string(text, "base.cfg", &sc, &err) != DC_OK)
            abort();
        dc_scenario_set_schema(sc, dc_schemas());
        rc = DC_OK;
    } else {
        if (dc_scenario_load_string(base, "base.cfg", &sc, &err) != DC_OK)
            abort();
        dc_scenario_set_schema(sc, dc_schemas());
        snprintf(set, sizeof set, "environment.%s.source=\"csv\"", group);
        rc = dc_scenario_set(sc, set, &err);
        snprintf(set, sizeof set, "environment.%s.file=\"%s\"", group, path);
        if (rc == DC_OK)
            rc = dc_scenario_set(sc, set, &err);
    }
    if (rc == DC_OK)
        rc = dc_scenario_validate(sc, &err);
    if (rc != DC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        abort(); /* the base scenario and the overrides are valid */
    }
    dc_sim *sim = NULL;
    rc = dc_build(sc, 1, &sim, &err);
    if (rc == DC_OK)
        dc_sim_run(sim, &err);
    else if (sim || err.msg[0] == '\0')
        abort();
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    unlink(path);
    return 0;
}
