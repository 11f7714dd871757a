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
#include "fuzzfile.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return dc_fuzz_file_run("fuzz_failurelog", data, size, base, mappings, sizeof mappings / sizeof mappings[0]);
}
