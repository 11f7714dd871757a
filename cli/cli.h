/* The dcsim command line: the subcommands and what they share.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The dcsim command line: subcommands and what they share. */
#ifndef DC_CLI_H
#define DC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "scenario.h"
#include "sim.h"
#include "summary.h"

/* Exit statuses. */
enum { DC_EXIT_OK = 0, DC_EXIT_FAILURE = 1, DC_EXIT_INPUT = 2 };

extern const char dc_default_scenario[];
#define DC_DEFAULT_SCENARIO_NAME "10k_gpu"

/* Maps an error code to an exit status and prints "dcsim: MESSAGE". */
int dc_cli_fail(const dc_error *err);

/* Loads file (or the embedded scenario when file is NULL), applies the
 * --set assignments and validates.  *name gets the scenario's name (its
 * "name" key, else the file's base name without .cfg); the caller frees it. */
int dc_cli_load(const char *file, const char *const *sets, size_t n_sets,
                dc_scenario **out, char **name, dc_error *err);

/* The directory of the shipped scenarios (cli/datadir.c); malloc'd. */
char *dc_cli_scenario_dir(void);
/* A scenario argument as a path: arg itself when it is a file, else the
 * shipped scenario of that name (NAME or NAME.cfg under the scenarios'
 * directory), else arg unchanged.  *path is malloc'd. */
int dc_cli_scenario_path(const char *arg, char **path, dc_error *err);

/* What a run was, for its JSON summary. */
typedef struct dc_cli_run_info {
    const char *version, *scenario, *scenario_file;
    uint64_t seed;
    const dc_scenario *warnings_of; /* its warnings, then sim's, as "run.warnings" (NULL: none) */
    const dc_sim *sim_warnings_of;
    const char *warnings_lines; /* more warnings, one per line (a trace's "warnings" attribute; NULL: none) */
} dc_cli_run_info;
/* The warnings of a run: the scenario's (found while building), then the
 * run's (sim/sim.h: found while running).  Printed from index from on as
 * "dcsim: warning: TEXT" on standard error (--quiet silences the summary,
 * not these); returns how many there are. */
size_t dc_cli_warning_count(const dc_scenario *sc, const dc_sim *sim);
const char *dc_cli_warning(const dc_scenario *sc, const dc_sim *sim, size_t i);
size_t dc_cli_print_warnings(const dc_scenario *sc, const dc_sim *sim, size_t from);
/* The summary as one JSON object (cli/jsonout.c): the run's identity, then
 * every figure, with units as {"value", "unit"} objects. */
int dc_cli_write_json(const dc_summary *s, const dc_cli_run_info *info, bool units, FILE *out, dc_error *err);

/* dcsim report --html: the page of a run's trace or a sweep file (cli/report_html.c). */
int dc_cli_report_html(const char *trace, const char *output, dc_error *err);

/* The closeout rule (cli/closeout.c), registered with atexit by main. */
void dc_cli_close_stdout(void);

/* The heap grown in 32 MiB steps on transparent huge pages (cli/heap.c),
 * called by main before anything is allocated. */
void dc_cli_heap_setup(void);

int dc_cmd_run(int argc, char **argv);
int dc_cmd_scenarios(int argc, char **argv);
int dc_cmd_validate(int argc, char **argv);
int dc_cmd_report(int argc, char **argv);
/* dcsim report --jobs: prints the trace's /jobs table (report_jobs.c). */
struct dc_trace_file;
int dc_report_jobs(struct dc_trace_file *tf, const char *path, dc_error *err);
/* dcsim report --efficiency: the seed's effective-compute factors of the
 * cluster and of every job, biggest loss first (report_efficiency.c). */
struct dc_summary;
int dc_report_efficiency(struct dc_trace_file *tf, const struct dc_summary *s, const char *path, dc_error *err);
int dc_cmd_keys(int argc, char **argv);
int dc_cmd_mttf(int argc, char **argv);
int dc_cmd_sweep(int argc, char **argv);
int dc_cmd_size(int argc, char **argv);

#endif
