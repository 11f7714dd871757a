/* Where jobs come from: the single job group, and the groups of the jobs list.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Where jobs come from: the single job group, and the groups of the jobs
 * list, each one job, a trace file, or a generated stream.
 *
 * Trace (jobs.[].trace, a path relative to the scenario file): a CSV read
 * by the strict reader of sim/csv.h, with the columns (found by name, in
 * any order; others are ignored)
 *     arrival_h,nodes,work_gpu_h,priority,pool,user,kind
 * (gpus instead of nodes: sizes in GPUs, dc_jobspec_set_gpus)
 * and optional elastic floors min_nodes or min_gpus (a row gives at most
 * one; empty: the group's; at most the row's size; job.h),
 * arrival_h >= 0 (from the start of the run) in non-decreasing order,
 * nodes a whole number >= 1, work_gpu_h > 0, priority an integer in
 * [-1000, 1000], pool and user names (empty: the first pool, no user), kind
 * one of training, fine_tuning, evaluation, batch_inference (empty: the
 * group's kind).  Every error names the file and line (and the column).
 * The other keys of the group (restart, checkpoint, preemptible,
 * max_run_h) apply to every job of the trace.
 *
 * Generated stream: arrivals from a renewal process (interarrival: a time
 * law of dist.h, for instance exponential for Poisson arrivals) from start_h
 * until stop_h or count jobs; sizes log-uniform over the powers of two from
 * nodes_min to nodes_max (research traces are dominated by power-of-two
 * sizes, small jobs most common: Jeon et al., "Analysis of large-scale
 * multi-tenant GPU clusters for DNN training workloads", ATC 2019); run time
 * at full speed from the duration law, so work = duration x nodes x GPUs per
 * node (per node for a CPU job).  Random streams: "jobs.NAME.arrivals", "jobs.NAME.sizes",
 * "jobs.NAME.durations". */
#ifndef DC_JOBSPEC_H
#define DC_JOBSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

typedef enum dc_job_kind {
    DC_KIND_TRAINING,
    DC_KIND_FINE_TUNING,
    DC_KIND_EVALUATION,
    DC_KIND_BATCH_INFERENCE,
} dc_job_kind;
#define DC_JOB_KINDS 4
extern const char *const dc_job_kind_names[DC_JOB_KINDS];

/* How a job left, as its trace recorded it: a completed job finishes its
 * work; the others run their recorded time (at full speed) and leave
 * without finishing it (tracemap.h). */
typedef enum dc_end_state {
    DC_END_COMPLETED,
    DC_END_FAILED,
    DC_END_CANCELLED,
    DC_END_TIME_LIMIT,
} dc_end_state;
#define DC_END_STATES 4
extern const char *const dc_end_state_names[DC_END_STATES];

typedef struct dc_job_spec {
    char name[48];
    dc_job_kind kind;
    uint32_t nodes;
    double work_gpu_s;      /* NAN: from params and tokens (the job group) */
    double submit_s;
    int priority;
    char pool[32], user[32];
    char type[32];          /* node type (cluster.types; "": its pool's) */
    bool cpu;               /* a CPU job (type is CPU-only): work_gpu_s is in node-seconds */
    bool preemptible;
    double max_run_s;       /* INFINITY: none */
    double restart_s;
    double estimate_s;      /* run-time estimate for backfilling (NAN: max_run_s, else the ideal run time x factor) */
    uint32_t gpus;          /* GPUs asked for (0: nodes x GPUs per node); < GPUs per node: a share of one node */
    dc_end_state end_state; /* how the trace says it ended */
    uint32_t min_nodes, min_gpus; /* a trace row's elastic floor (min_nodes or min_gpus column; 0: the group's) */
    int checkpoint;         /* -1: by kind (training and fine-tuning when a checkpoint group exists) */
    double ckpt_interval_s; /* NAN: the checkpoint group's; -1: auto */
    double ckpt_write_s;    /* NAN: the checkpoint group's */
    /* where it was given, for messages */
    const config_setting_t *where;
    char trace_file[160];   /* a trace row: its file ("" otherwise) and line */
    int trace_line;
} dc_job_spec;

extern const dc_param dc_jobspec_params[];

/* All jobs of the jobs list, in list order then arrival order; gpus_per_node
 * converts generated durations to work.  *out is malloc'd (NULL when none). */
int dc_jobspec_read(const dc_scenario *sc, dc_sim *sim, uint32_t gpus_per_node, dc_job_spec **out, size_t *n,
                    dc_error *err);

/* The same jobs given to each(ctx, specs, n, err) in order, a few
 * thousand at a time as they are read or generated, so that a
 * million-job stream's specs never exist all at once (a mapped trace's
 * come all at once); each may change the specs it is given, and its error
 * (not DC_OK) stops the reading and is returned.  Before a CSV trace's
 * rows, each is also called once with specs NULL and n the trace's row
 * count plus the specs read but not yet given: the jobs that follow
 * before the next group's, so that the receiver may size its arrays once
 * (a hint; its error stops the reading too). */
typedef int (*dc_jobspec_each)(void *ctx, dc_job_spec *specs, size_t n, dc_error *err);
int dc_jobspec_stream(const dc_scenario *sc, dc_sim *sim, uint32_t gpus_per_node, dc_jobspec_each each, void *ctx,
                      dc_error *err);

/* Sizes in GPUs (jobs.[].gpus, a trace's gpus column, gpus_min/gpus_max of
 * a stream, a mapped trace's GPUs): fewer GPUs than a node has is a share
 * of one node (nodes = 1; packed with other shares by the scheduler), more
 * the nodes that hold them, rounded up.  dc_jobspec_rate_gpus: the GPUs it
 * computes on at full rate: those it asked for (20 of its 3 nodes' 24),
 * else its nodes' GPUs. */
void dc_jobspec_set_gpus(dc_job_spec *t, uint32_t gpus, uint32_t gpus_per_node);
double dc_jobspec_rate_gpus(const dc_job_spec *t, uint32_t gpus_per_node);

/* dst = src cut to n - 1 characters, as snprintf(dst, n, "%s", src) but
 * without its cost (a copy per trace row); n >= 1. */
void dc_jobspec_copy_name(char *dst, size_t n, const char *src);

/* Kind by name; -1 when unknown. */
int dc_job_kind_parse(const char *name);

#endif
