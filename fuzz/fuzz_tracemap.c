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
#include "fuzzfile.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return dc_fuzz_file_run("fuzz_tracemap", data, size, base, mappings, sizeof mappings / sizeof mappings[0]);
}
