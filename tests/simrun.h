/* A scenario text or file loaded, built and run in the test's own process, for the model suites.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The steps every model test takes to get a finished simulation: load the
 * scenario (text with a file name for messages, or a file), attach dcsim's
 * schema, apply --set overrides, validate, build with a seed, run.  The
 * dc_simrun_load/_build functions return errors to the caller (for tests of
 * bad input); dc_simrun_text/_file/_run fail the current CUnit test with the
 * message and return NULL, so a test only checks for NULL.  Seed -1: the
 * scenario's own. */
#ifndef DC_TEST_SIMRUN_H
#define DC_TEST_SIMRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rowtable.h"
#include "scenario.h"
#include "sim.h"

/* Loaded (text: name is the file name messages give, NULL: "test.cfg"),
 * with the schema, the overrides applied and validated; NULL and err. */
dc_scenario *dc_simrun_load(const char *text, const char *name, const char *const *sets, size_t n_sets,
                            dc_error *err);
dc_scenario *dc_simrun_load_file(const char *path, const char *const *sets, size_t n_sets, dc_error *err);
/* dc_simrun_load then dc_build: a simulation ready to run; NULL and err. */
dc_sim *dc_simrun_build(const char *text, const char *const *sets, size_t n_sets, int64_t seed, dc_error *err);

/* Load (as dc_simrun_load), build and run, with no test failure: the
 * finished simulation, or NULL and err (for the tests of bad input). */
dc_sim *dc_simrun_try(const char *text, const char *name, const char *const *sets, size_t n_sets, int64_t seed,
                      dc_error *err);

/* Runs sim to its end; on an error fails the test (naming it), destroys sim
 * and returns NULL.  NULL in, NULL out. */
dc_sim *dc_simrun_run(dc_sim *sim);
/* Load, build and run in one step, failing the test on any error. */
dc_sim *dc_simrun_text(const char *text, const char *const *sets, size_t n_sets, int64_t seed);
dc_sim *dc_simrun_file(const char *path, const char *const *sets, size_t n_sets, int64_t seed);

/* The two runs' summaries hold the same keys in the same order with
 * bit-identical values (determinism checks). */
bool dc_simrun_same_summary(dc_sim *a, dc_sim *b);

/* A summary figure; NaN and a test failure when the run has none. */
/* An event handler (dc_sim_at) storing glibc's count of the bytes in use
 * (heap and mmap, mallinfo2) in *(double *)ctx; 0 under ASan, whose
 * allocator does not keep it. */
void dc_simrun_take_bytes(dc_sim *sim, void *ctx, uint64_t arg);
double dc_simrun_fig(dc_sim *sim, const char *key);

/* A cell of job's row in the run's /jobs table (jobtable.h; the rows kept
 * in the process, as when the run writes no trace): a number (NaN when the
 * job has no row or the column is none or a string), or whether a string
 * column holds exactly text. */
double dc_simrun_job_cell(dc_sim *sim, int32_t job, const char *column);
/* The run's /jobs table (NULL when it has none), and a number in one of its
 * rows (NaN when the column is none or a string). */
dc_rowtable *dc_simrun_jobs_table(dc_sim *sim);
double dc_simrun_cell(const dc_rowtable *t, size_t row, const char *column);
bool dc_simrun_job_text_is(dc_sim *sim, int32_t job, const char *column, const char *text);

#endif
