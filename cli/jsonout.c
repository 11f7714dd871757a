/* The summary of a run as JSON, for dcsim run --json and dcsim report --json, through sim/json.h.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* One object, one member a line: first what the run was (dcsim.version,
 * run.seed, run.scenario, run.scenario_file, and run.warnings, an array of
 * the run's warnings, when it has some: the scenario's and the run's, or
 * for dcsim report those its trace recorded), then every summary figure in
 * the summary's order, as a number (null when not a number) or, with
 * units, as {"value": V, "unit": "U"} ("" for a figure without unit). */
#include "cli.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"

int dc_cli_write_json(const dc_summary *s, const dc_cli_run_info *info, bool units, FILE *out, dc_error *err)
{
    dc_json *j = dc_json_create(out, DC_JSON_LINES);
    if (!j)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    dc_json_begin_object(j);
    dc_json_member_string(j, "dcsim.version", info->version);
    dc_json_member_int(j, "run.seed", (int64_t)info->seed);
    dc_json_member_string(j, "run.scenario", info->scenario);
    dc_json_member_string(j, "run.scenario_file", info->scenario_file);
    size_t n_warnings = dc_cli_warning_count(info->warnings_of, info->sim_warnings_of);
    const char *lines = info->warnings_lines && *info->warnings_lines ? info->warnings_lines : NULL;
    if (n_warnings > 0 || lines) {
        dc_json_key(j, "run.warnings");
        dc_json_begin_array(j);
        for (size_t i = 0; i < n_warnings; i++)
            dc_json_string(j, dc_cli_warning(info->warnings_of, info->sim_warnings_of, i));
        for (const char *p = lines; p && *p;) {
            const char *nl = strchr(p, '\n');
            size_t len = nl ? (size_t)(nl - p) : strlen(p);
            char *line = len > 0 ? strndup(p, len) : NULL;
            if (line)
                dc_json_string(j, line);
            free(line);
            p += len + (nl != NULL);
        }
        dc_json_end_array(j);
    }
    for (size_t i = 0; i < dc_summary_count(s); i++) {
        if (!units) {
            dc_json_member_number(j, dc_summary_key(s, i), dc_summary_value(s, i));
            continue;
        }
        dc_json_key(j, dc_summary_key(s, i));
        dc_json_begin_object(j);
        dc_json_member_number(j, "value", dc_summary_value(s, i));
        const char *unit = dc_summary_unit(s, i);
        dc_json_member_string(j, "unit", unit ? unit : "");
        dc_json_end_object(j);
    }
    dc_json_end_object(j);
    int rc = dc_json_finish(j);
    dc_json_destroy(j);
    if (rc != DC_OK)
        return dc_error_set(err, DC_EIO, "cannot write the summary to standard output");
    return DC_OK;
}

size_t dc_cli_warning_count(const dc_scenario *sc, const dc_sim *sim)
{
    return dc_scenario_warning_count(sc) + dc_sim_warning_count(sim);
}

const char *dc_cli_warning(const dc_scenario *sc, const dc_sim *sim, size_t i)
{
    size_t n = dc_scenario_warning_count(sc);
    return i < n ? dc_scenario_warning(sc, i) : dc_sim_warning(sim, i - n);
}

size_t dc_cli_print_warnings(const dc_scenario *sc, const dc_sim *sim, size_t from)
{
    size_t n = dc_cli_warning_count(sc, sim);
    for (size_t i = from; i < n; i++)
        fprintf(stderr, "dcsim: warning: %s\n", dc_cli_warning(sc, sim, i));
    return n;
}
