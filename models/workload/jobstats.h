/* Job accounting at the end of a run: waits by job size, per user and per pool.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Job accounting at the end of a run, from one row per submitted job (the
 * job model fills them):
 *
 * Waits by size: the jobs that started, by the GPUs they asked for (a
 * trace's GPUs, else nodes x GPUs per node), in the classes
 *     gpus_1, gpus_2_4, gpus_5_8, gpus_9_64, gpus_65_up
 * (the classes 1, 2-4, 8, 16-64, >64 of GPU-cluster studies, e.g. Hu et
 * al., "Characterization and prediction of deep learning workloads in
 * large-scale GPU datacenters", SC 2021, with the sizes between joined to
 * the class above): jobs.CLASS.jobs, jobs.CLASS.wait_mean_h and the
 * percentiles jobs.CLASS.wait_p50_h, _p90_h, _p99_h (type 7: linear
 * between order statistics, as numpy's default; NaN for an empty class);
 * and the same percentiles over all started jobs, jobs.wait_p90_h and
 * jobs.wait_p99_h.  A job's wait is all its time queued (its waits after
 * preemptions too).
 *
 * Per pool: pool.NAME.jobs (submitted), pool.NAME.wait_mean_h,
 * pool.NAME.wait_p90_h (started jobs) and pool.NAME.job_gpu_h (GPU-hours
 * its jobs held).  Per user, when any job names one: user.NAME.jobs,
 * user.NAME.completed, user.NAME.gpu_h (held), user.NAME.wait_mean_h;
 * users in name order.  Cost: one sort of the started jobs' waits (none
 * when they come in order), each class's and pool's taken from it in
 * order, and one of the rows by user when a job names one: O(n log n). */
#ifndef DC_JOBSTATS_H
#define DC_JOBSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"

typedef struct dc_jobstat_row {
    double wait_s;       /* all its time queued */
    double gpu_s;        /* GPU-seconds it held nodes */
    uint32_t gpus;       /* GPUs it asked for */
    int pool;            /* index into the pool names */
    const char *user;    /* "" for none */
    bool started, completed;
} dc_jobstat_row;

#define DC_JOBSTAT_SIZES 5
extern const char *const dc_jobstat_size_names[DC_JOBSTAT_SIZES];
/* The size class of a job of gpus GPUs (-1 for 0: a CPU job, in no class). */
int dc_jobstat_size_class(uint32_t gpus);

/* Writes the figures above into the summary (rows is reordered).
 * pool_names[p] names pool p (n_pools of them). */
int dc_jobstats_summarise(dc_summary *s, dc_jobstat_row *rows, size_t n, const char *const *pool_names,
                          int n_pools, dc_error *err);

/* A started row's wait, and the row. */
typedef struct dc_jobstat_wait {
    double wait_s;
    size_t row;
} dc_jobstat_wait;
/* The started rows among rows[0..n) by wait into by (room for n; stable:
 * equal waits in row order; no sort when they come in order); returns
 * their count.  A caller that needs the sorted waits itself (the job
 * model's overall median) takes them from by and gives by to
 * dc_jobstats_summarise_by, which is dc_jobstats_summarise without its
 * sort. */
size_t dc_jobstats_by_wait(const dc_jobstat_row *rows, size_t n, dc_jobstat_wait *by);
int dc_jobstats_summarise_by(dc_summary *s, dc_jobstat_row *rows, size_t n, const dc_jobstat_wait *by, size_t k,
                             const char *const *pool_names, int n_pools, dc_error *err);

/* Sorts v ascending (the order of qsort with a < comparison). */
void dc_jobstats_sort(double *v, size_t n);
/* Type-7 quantile q of the n sorted values v (NaN when n = 0). */
double dc_jobstats_quantile(const double *v, size_t n, double q);

#endif
