/* libFuzzer harness: arbitrary bytes as a mapped CSV job trace (jobs.[].trace as a group, format "csv").
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: the input is a job trace in a cluster's own CSV layout,
 * read through a column mapping by models/workload/tracemap.c (format =
 * "csv"); the first byte picks one of four mappings (below: date-times with
 * start and end, states and every optional column; ITP-like hours with an
 * epoch and nodes; numeric seconds with start and end and skip_empty;
 * minutes with epoch auto).  The contract (docs/errors.md): the
 * scenario builds and runs, or it is refused with DC_EINPUT and a message
 * that starts with the scenario's name and names the trace file and a line
 * (FILE:LINE); anything else aborts.  The bytes go to a temporary file
 * because the scenario names the trace. */
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
    "scheduler = { pools = ( { name = \"vcA\"; nodes = 4; }, { name = \"vcB\"; } ); };\n"
    "failures = ( { name = \"gpu\"; per = \"gpu\"; mtbf_h = 2000.0; } );\n"
    "repair = { crews = 1; law = \"lognormal\"; median_h = 3.0; sigma = 0.8; };\n";

/* The trace group of each mapping; %s is the file. */
static const char *const mappings[4] = {
    "jobs = ( { name = \"h\"; max_run_h = 100.0; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; time_format = \"datetime\"; time_unit = \"min\"; epoch = \"auto\";\n"
    "            states = { completed = \"Pass, Success\"; failed = \"OOM\"; };\n"
    "            columns = { submit = \"submit_time\"; start = \"start_time\"; end = \"end_time\";\n"
    "                        gpus = \"gpu_num\"; state = \"state\"; pool = \"vc\"; user = \"user\";\n"
    "                        priority = \"priority\"; preemptible = \"preempt\"; limit = \"limit_min\";\n"
    "                        estimate = \"est_min\"; name = \"job_id\"; kind = \"kind\"; }; }; } );\n",
    "jobs = ( { name = \"itp\"; kind = \"batch_inference\"; priority = 3; preemptible = true; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; time_unit = \"h\"; epoch = 100.0;\n"
    "            columns = { submit = \"submission_time\"; duration = \"duration\";\n"
    "                        nodes = \"num_nodes\"; kind = \"task\"; }; }; } );\n",
    "jobs = ( { name = \"n\"; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; skip_empty = true;\n"
    "            columns = { submit = \"submit\"; start = \"start\"; end = \"end\"; gpus = \"gpus\";\n"
    "                        state = \"state\"; priority = \"prio\"; }; }; } );\n",
    "jobs = ( { name = \"m\"; restart_s = 0.0;\n"
    "  trace = { file = \"%s\"; time_unit = \"min\"; epoch = \"auto\"; skip_empty = true;\n"
    "            columns = { submit = \"t\"; duration = \"d\"; gpus = \"g\"; limit = \"l\"; user = \"u\"; }; }; } );\n",
};

/* A refusal names the scenario first and then the trace file and a line
 * (base.cfg:N: jobs.[0].trace.file: PATH:LINE: ...); a file without any
 * line says so (PATH: no header line ...). */
static void check_refusal(int rc, const char *msg, const char *path)
{
    const char *p = strstr(msg, path);
    if (rc != DC_EINPUT || strncmp(msg, "base.cfg:", 9) != 0 || !p) {
        fprintf(stderr, "fuzz_tracemap: status %d, message \"%s\"\n", rc, msg);
        abort();
    }
    p += strlen(path);
    if (!(p[0] == ':' && isdigit((unsigned char)p[1])) && strncmp(p, ": no header line", 16) != 0) {
        fprintf(stderr, "fuzz_tracemap: no line in \"%s\"\n", msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[] = "/tmp/dcsim-fuzz-tracemap-XXXXXX";
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
    char group[2048], text[sizeof base + sizeof group];
    snprintf(group, sizeof group, mappings[data[0] % 4], path);
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
