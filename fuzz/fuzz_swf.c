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
#include "fuzzfile.h"

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

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return dc_fuzz_file_run("fuzz_swf", data, size, base, readings, sizeof readings / sizeof readings[0]);
}
