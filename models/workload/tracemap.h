/* Job traces in their own layouts: a CSV with a column mapping, and the Standard Workload Format.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Job traces in the layouts clusters publish them in, read without a
 * converter: jobs.[].trace given as a group (the string form is dcsim's own
 * CSV, jobspec.h).
 *
 *   jobs = ( { name = "itp"; restart_s = 0.0;
 *              trace = { file = "cluster.csv"; format = "csv"; time_unit = "s";
 *                        columns = { submit = "submission_time"; duration = "duration";
 *                                    gpus = "num_gpu"; name = "job_id"; }; }; } );
 *
 * Mapped CSV (format = "csv", read by sim/csv.h): columns names, for each
 * field dcsim knows, the header of the file's column that holds it; columns
 * not named are ignored.
 *   submit      required: submission time
 *   duration    the recorded run time; or start and end (run time = end -
 *               start), one of the two forms
 *   gpus        GPUs (a job takes ceil(gpus / cluster.gpus_per_node) whole
 *               nodes until the scheduler allocates GPUs); or nodes
 *   state       end state (below); absent: every job completed
 *   priority    any integer: when every value lies in [-1000, 1000] it is
 *               the priority; otherwise the distinct values are ranked and
 *               spread over [-1000, 1000] in order (the scheduler's order
 *               is kept; more than 2,001 distinct values share levels)
 *   pool        queue, virtual cluster or pool (a scheduler.pools name;
 *               empty: the first pool)
 *   user        user or team (quotas, per-user figures)
 *   preemptible true/false, 1/0, yes/no
 *   limit       run-time limit (max_run_h of the job)
 *   estimate    run-time estimate for backfilling (else the limit, else the
 *               recorded run time x scheduler.estimate_factor)
 *   kind        training, fine_tuning, evaluation, batch_inference
 *   name        the job's name (else GROUP-ROW)
 * Times: numbers in time_unit (s, ms, us, min, h), or with time_format =
 * "datetime" the submit, start and end columns as UTC date-times
 * "YYYY-MM-DD HH:MM[:SS[.fff]]" ('T' between, a final 'Z' allowed;
 * durations, limits and estimates stay numbers in time_unit).  The run's
 * time zero is the trace's time epoch (in time_unit; datetime: Unix
 * seconds), or with epoch = "auto" the first row's submission.
 * End states, case-insensitive: completed (also complete, pass, passed,
 * succeeded, success, finished, terminated, done, 1), failed (fail, error,
 * node_fail, 0), cancelled (canceled, killed, kill), time_limit (timeout,
 * timed_out, 2); states = { failed = "Failed,OOM"; ... } adds names (a comma
 * list per end state).  A completed job's work is its run time x the GPUs
 * of its nodes (so it runs its recorded time at full speed, plus
 * restart_s: give restart_s = 0 for an exact replay); the others run the
 * same and then leave without finishing (job.h).
 *
 * Standard Workload Format (format = "swf"; Feitelson et al., "Experience
 * with using the Parallel Workloads Archive", JPDC 2014; the 18 fields of
 * www.cs.huji.ac.il/labs/parallel/workload/swf.html): one job per line,
 * whitespace-separated, -1 for unknown; ';' lines are header comments, of
 * which MaxProcs (else MaxNodes) gives the machine size (no job may ask
 * more).  Read: 1 job number (name), 2 submit time (s), 4 run time, 5
 * allocated processors (else 8, requested), 9 requested time (the
 * estimate; with swf_limit = true also the limit), 11 status (1 completed,
 * 0 failed, 5 cancelled, -1 completed; 2-4, partial executions, are
 * rejected), 12 user (user "uN"), 15 queue (pool "qN" with swf_pools =
 * true).  processors says what one processor is: "gpus" or "nodes".
 *
 * Bad rows are errors naming the file, the line and the column (or field):
 * a missing (empty) field, a non-number, a negative or zero size or run
 * time (skip_empty = true drops rows of zero GPUs or zero run time), a
 * submission before the previous row's (sort the trace) or before the
 * epoch, an end before its start, an unknown state, a job larger than the
 * machine. */
#ifndef DC_TRACEMAP_H
#define DC_TRACEMAP_H

#include <stddef.h>
#include <stdint.h>

#include "jobspec.h"
#include "sim.h"

extern const dc_param dc_tracemap_params[];

/* Appends the jobs of trace group tg (jobs.[].trace as a group) to *a (n
 * used, cap allocated; realloc'd), each a copy of tmpl with the row's
 * fields; gpus_per_node converts GPUs to nodes. */
int dc_tracemap_read(const dc_scenario *sc, const config_setting_t *tg, const dc_job_spec *tmpl,
                     uint32_t gpus_per_node, dc_job_spec **a, size_t *n, size_t *cap, dc_error *err);

#endif
