/* libFuzzer harness: arbitrary bytes as a scenario file, loaded, validated, built and run briefly.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: arbitrary bytes as a scenario file.  Loads, validates,
 * builds, and runs small scenarios for a short horizon, so the validator,
 * the models' own checks and the engine all see the input.  Any crash,
 * sanitizer report, leak or hang is a bug: bad input must come back as an
 * error code with a message. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "scenario.h"
#include "sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    dc_error err = {0};
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, "fuzz.cfg", &sc, &err) == DC_OK) {
        dc_scenario_set_schema(sc, dc_schemas());
        if (dc_scenario_validate(sc, &err) == DC_OK) {
            /* Keep each input fast: small clusters, short horizons. */
            int nodes = 0, spares = 0;
            double horizon = 0;
            config_lookup_int(dc_scenario_config(sc), "cluster.nodes", &nodes);
            config_lookup_int(dc_scenario_config(sc), "cluster.spare_nodes", &spares);
            config_lookup_float(dc_scenario_config(sc), "horizon_days", &horizon);
            if (nodes + spares <= 256) {
                if (horizon > 30.0)
                    dc_scenario_set(sc, "horizon_days=30.0", &err);
                /* Valid but slow: per-request inference at high rates. */
                if (dc_scenario_lookup(sc, "inference")) {
                    dc_scenario_set(sc, "inference.mode=\"aggregate\"", &err);
                    dc_scenario_set(sc, "horizon_days=2.0", &err);
                }
                dc_sim *sim = NULL;
                if (dc_build(sc, -1, &sim, &err) == DC_OK)
                    dc_sim_run(sim, &err);
                dc_sim_destroy(sim);
            }
        }
        char *effective = dc_scenario_text(sc);
        free(effective);
        dc_scenario_destroy(sc);
    }
    free(text);
    return 0;
}
