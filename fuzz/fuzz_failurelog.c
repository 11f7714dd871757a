/* libFuzzer harness: arbitrary bytes as a failure log (failure_log) read through its column mapping.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* libFuzzer harness: the input is a failure log, a CSV read through a
 * column mapping by models/reliability/failurelog.c and injected by
 * failure.c; the first byte picks one of four mappings (below: LANL-like
 * date-times with return times, node names and class_map; hours with
 * repair times, numbered nodes from 1 and epoch auto; seconds with one
 * class for every row; an epoch of 5 and repair times).  The contract
 * (docs/errors.md): the scenario builds and runs, or it is refused with
 * DC_EINPUT and a message that starts with the scenario's name and names
 * the log and a line (FILE:LINE; a file without any line says so); anything
 * else aborts.  The bytes go to a temporary file because the scenario names
 * the log. */
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
    "horizon_days = 1.0; stop_when_done = false;\n"
    "cluster = { nodes = 8; gpus_per_node = 8; };\n"
    "job = { nodes = 4; work_gpu_h = 50.0; };\n"
    "failures = ( { name = \"hw\"; from_log = true; }, { name = \"sw\"; mtbf_h = 1e9; detect_s = 60.0; } );\n"
    "repair = { crews = 1; law = \"constant\"; mean_h = 3.0; };\n";

/* The failure_log group of each mapping; %s is the file. */
static const char *const mappings[4] = {
    "failure_log = { file = \"%s\"; time_format = \"datetime\"; epoch = \"auto\";\n"
    "  class_map = \"Hardware: hw, Software: sw, Network: hw\";\n"
    "  columns = { time = \"Prob Started\"; return = \"Prob Fixed\"; node = \"Node Name\";\n"
    "              class = \"Failure Type\"; }; };\n",
    "failure_log = { file = \"%s\"; time_unit = \"h\"; node_base = 1; epoch = \"auto\";\n"
    "  class_map = \"Hardware: hw, Software: sw\";\n"
    "  columns = { time = \"when_h\"; node = \"nodenum\"; class = \"type\"; repair = \"down_h\"; }; };\n",
    "failure_log = { file = \"%s\"; class = \"hw\"; columns = { time = \"t\"; node = \"n\"; }; };\n",
    "failure_log = { file = \"%s\"; time_unit = \"min\"; epoch = 5.0; class = \"sw\";\n"
    "  columns = { time = \"t\"; node = \"n\"; repair = \"r\"; }; };\n",
};

/* A refusal names the scenario first and then the log and a line
 * (base.cfg:N: failure_log.file: PATH:LINE: ...); a file without any line
 * says so (PATH: no header line ...). */
static void check_refusal(int rc, const char *msg, const char *path)
{
    const char *p = strstr(msg, path);
    if (rc != DC_EINPUT || strncmp(msg, "base.cfg:", 9) != 0 || !p) {
        fprintf(stderr, "fuzz_failurelog: status %d, message \"%s\"\n", rc, msg);
        abort();
    }
    p += strlen(path);
    if (!(p[0] == ':' && isdigit((unsigned char)p[1])) && strncmp(p, ": no header line", 16) != 0) {
        fprintf(stderr, "fuzz_failurelog: no line in \"%s\"\n", msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    char path[] = "/tmp/dcsim-fuzz-failurelog-XXXXXX";
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
