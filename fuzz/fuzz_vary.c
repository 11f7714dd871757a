/* libFuzzer harness: each input line one --vary axis of dcsim sweep on a small scenario.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: each line of the input is one --vary axis of `dcsim
 * sweep` ("KEY=v1,v2,..." or "KEY=lo:hi:step") on a small scenario.
 * dc_sweep_create parses the axes, builds the grid and validates every grid
 * point: bad axes must come back as DC_EINPUT naming --vary, never a crash,
 * a leak or a grid past the limits.  The first line starting with '#' is
 * read as a --set instead, so the two parsers are combined too. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "registry.h"
#include "scenario.h"
#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base[] =
    "horizon_days = 3.0;\n"
    "cluster = { nodes = 16; spare_nodes = 2; };\n"
    "job = { nodes = 16; work_gpu_h = 100.0; };\n"
    "checkpoint = { write_gb_per_s = 10.0; size_gb = 100.0; };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n";

#define MAX_AXES 8

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const char *vary[MAX_AXES], *sets[2] = {NULL, NULL};
    size_t n_vary = 0, n_sets = 0;
    char *save = NULL;
    for (char *line = strtok_r(text, "\n", &save); line && n_vary < MAX_AXES; line = strtok_r(NULL, "\n", &save)) {
        if (line[0] == '#' && n_sets == 0)
            sets[n_sets++] = line + 1;
        else
            vary[n_vary++] = line;
    }
    dc_sweep_spec spec = {
        .text = base,
        .text_name = "base.cfg",
        .schemas = dc_schemas(),
        .build = dc_build,
        .sets = sets,
        .n_sets = n_sets,
        .vary = vary,
        .n_vary = n_vary,
        .reps = 2,
        .seed = 1,
        .force = false,
    };
    dc_error err = {0};
    dc_sweep *sw = NULL;
    int rc = dc_sweep_create(&spec, 1, &sw, &err);
    if (rc == DC_OK) {
        if (!sw || dc_sweep_points(sw) == 0 || dc_sweep_points(sw) > DC_SWEEP_MAX_POINTS)
            abort();
        for (size_t g = 0; g < dc_sweep_points(sw); g++)
            for (size_t a = 0; a < dc_sweep_axes(sw); a++)
                if (!dc_sweep_point_value(sw, g, a))
                    abort();
    } else if (sw || err.msg[0] == '\0') {
        abort(); /* a failure changes nothing and says why */
    }
    dc_sweep_destroy(sw);
    free(text);
    return 0;
}
