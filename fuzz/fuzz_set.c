/* libFuzzer harness: each input line one --set PATH=VALUE on the small scenario.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: each line of the input is one --set PATH=VALUE applied
 * to the small scenario, then the result is validated.  Covers the override
 * parser, path lookup, group creation and type conversion. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base[] =
    "horizon_days = 3.0;\n"
    "cluster = { nodes = 16; spare_nodes = 2; };\n"
    "job = { nodes = 16; work_gpu_h = 100.0; };\n"
    "checkpoint = { write_gb_per_s = 10.0; size_gb = 100.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    dc_error err = {0};
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(base, "base.cfg", &sc, &err) != DC_OK)
        abort(); /* the base scenario is valid */
    dc_scenario_set_schema(sc, dc_schemas());
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
        if (dc_scenario_set(sc, line, &err) != DC_OK)
            break;
    dc_scenario_validate(sc, &err);
    dc_scenario_destroy(sc);
    free(text);
    return 0;
}
