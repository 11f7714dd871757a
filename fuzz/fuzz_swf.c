/* libFuzzer harness: arbitrary bytes as a job trace in the Standard Workload Format (format "swf").
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: the input is a job trace in the Standard Workload
 * Format (18 whitespace-separated fields a line, ';' header comments with
 * MaxProcs or MaxNodes) as models/workload/tracemap.c reads it (format =
 * "swf"); the first byte picks one of four readings (below: processors as
 * GPUs with swf_limit and swf_pools; as nodes with epoch auto; skip_empty;
 * an epoch of 10 s).  The contract (docs/errors.md): the scenario builds
 * and runs, or it is refused with DC_EINPUT and a message that starts with
 * the scenario's name and names the trace file and a line (FILE:LINE);
 * anything else aborts.  The bytes go to a temporary file because the
 * scenario names the trace. */
#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "registry.h"
#include "scenario.h"
#include "sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char base[] =
    "horizon_days = 1.0;\n"
    "cluster = { nodes = 8; gpus_per_node = 8; };\n"
    "scheduler = { pools = ( { name = \"q1\"; nodes = 4; }, { name = \"q2\"; } ); };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n";

/* The trace group of each reading; %s is the file. */
static const char *const readings[4] = {
    "jobs = ( { name = \"s\"; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; format = \"swf\"; swf_limit = true; swf_pools = true; }; } );\n",
    "jobs = ( { name = \"s\"; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; format = \"swf\"; processors = \"nodes\"; epoch = \"auto\"; }; } );\n",
    "jobs = ( { name = \"s\"; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; format = \"swf\"; skip_empty = true; }; } );\n",
    "jobs = ( { name = \"s\"; restart_s = 0.0; max_run_h = 10.0;\n"
    "  trace = { file = \"%s\"; format = \"swf\"; epoch = 10.0; }; } );\n",
};

/* A refusal names the scenario first and then the trace file and a line
 * (base.cfg:N: jobs.[0].trace.file: PATH:LINE: ...). */
static void check_refusal(int rc, const char *msg, const char *path)
{
    const char *p = strstr(msg, path);
    if (rc != DC_EINPUT || strncmp(msg, "base.cfg:", 9) != 0 || !p) {
        fprintf(stderr, "fuzz_swf: status %d, message \"%s\"\n", rc, msg);
        abort();
    }
    p += strlen(path);
    if (!(p[0] == ':' && isdigit((unsigned char)p[1]))) {
        fprintf(stderr, "fuzz_swf: no line in \"%s\"\n", msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[] = "/tmp/dcsim-fuzz-swf-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return 0;
    FILE *f = fdopen(fd, "wb");
    if (!f) {
        close(fd);
        unlink(path);
        return 0;
    }
    fwrite(data + 1, 1, size - 1, f);
    fclose(f);
    char group[1024], text[sizeof base + sizeof group];
    snprintf(group, sizeof group, readings[data[0] % 4], path);
    snprintf(text, sizeof text, "%s%s", base, group);
    dc_error err = {0};
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, "base.cfg", &sc, &err) != DC_OK)
        abort();
    dc_scenario_set_schema(sc, dc_schemas());
    if (dc_scenario_validate(sc, &err) != DC_OK) {
        fprintf(stderr, "%s\n", err.msg);
        abort(); /* the scenario is valid whatever the file holds */
    }
    dc_sim *sim = NULL;
    int rc = dc_build(sc, 1, &sim, &err);
    if (rc == DC_OK)
        dc_sim_run(sim, &err);
    else if (sim)
        abort();
    else
        check_refusal(rc, err.msg, path);
    if (getenv("DCSIM_FUZZ_VERBOSE")) /* for replaying an input by hand */
        fprintf(stderr, "%s\n", rc == DC_OK ? "accepted" : err.msg);
    dc_sim_destroy(sim);
    dc_scenario_destroy(sc);
    unlink(path);
    return 0;
}
