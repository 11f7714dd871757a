/* The /jobs table of the trace: one row per job, its columns and how a job's record fills them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The /jobs table (sim/rowtable.h): one row per job, written when the job
 * ends (completed, stopped by its time limit, or failed or cancelled as its
 * trace recorded: tracemap.h) and, at the end of the run,
 * for every other job (state "unfinished", "held" for one stopped at
 * speed 0 at the end (a site power cap's hold policy), or "not_submitted"
 * for a job whose submission lies beyond the end), so a row is never rewritten and
 * rows can stream to the file.  Read it with
 *     pandas.DataFrame(h5py.File("run.h5")["jobs"][:])
 * (strings come back as bytes: .str.decode()).
 *
 * Columns (units in the dataset's "units" attribute):
 *   job, name, class, kind, pool, user   id (cluster job id) and labels
 *   nodes, gpus                          the job's size
 *   racks, pods                          span of its first allocation
 *   submit_h, start_h, end_h             first submission, first start, end
 *                                        (NaN: never started / not ended)
 *   wait_h, run_h                        queued, and holding nodes, in all
 *   state                                completed, failed, cancelled,
 *                                        time_limit, unfinished, held,
 *                                        not_submitted
 *   interruptions, preemptions, checkpoints
 *   checkpoint_write_s                   mean time of its blocking writes to a
 *                                        storage tier (NaN: none)
 *   resizes, mean_nodes                  elastic jobs: size changes, and the
 *                                        nodes it computed on over its
 *                                        running time
 *   mean_step_s                          running time / steps computed, with
 *                                        every slow-down (NaN: no step model)
 *   comm_share                           exposed communication's share of
 *                                        the GPU-time it ran (gpu_hours.
 *                                        communication / running GPU-hours)
 *   gpu_hours.total                      GPU-hours the job held nodes
 *   gpu_hours.LINE                       its breakdown: useful, rollback,
 *                                        corruption, preempted, detection,
 *                                        checkpoint, restart, waiting and a
 *                                        line per speed source; they sum to
 *                                        gpu_hours.total, and each line over
 *                                        all rows to the run's gpu_hours.LINE
 *                                        (the cluster's lines idle_spare,
 *                                        down... are nobody's); a CPU job's
 *                                        (cluster.h) are 0: it holds no GPU.
 * Adding a column: a field in dc_job_record, a row in declare(), a cell in
 * dc_jobtable_write (jobtable.c). */
#ifndef DC_JOBTABLE_H
#define DC_JOBTABLE_H

#include <stdint.h>

#include "cluster.h"
#include "sim.h"

/* The fixed breakdown lines, in column order (then the speed sources). */
enum { DC_JOBLINE_USEFUL, DC_JOBLINE_ROLLBACK, DC_JOBLINE_CORRUPTION, DC_JOBLINE_PREEMPTED, DC_JOBLINE_DETECTION,
       DC_JOBLINE_CHECKPOINT, DC_JOBLINE_RESTART, DC_JOBLINE_WAITING, DC_JOBLINES };
extern const char *const dc_jobline_names[DC_JOBLINES];

/* What the job model knows of a job at its row's writing (GPU-hours in h). */
typedef struct dc_job_record {
    int32_t id;
    const char *name, *class_name, *kind, *pool, *user, *state;
    uint32_t nodes, gpus, racks, pods;
    double submit_s, start_s, end_s, wait_s, run_s;
    uint64_t interruptions, preemptions, checkpoints;
    uint64_t resizes;
    double ckpt_write_s, mean_nodes, mean_step_s, comm_share;
    double total_gpu_h;
    double line_gpu_h[DC_JOBLINES + DC_MAX_SPEED_SOURCES]; /* fixed lines, then speed source i */
} dc_job_record;

typedef struct dc_jobtable dc_jobtable;

/* Declares the columns in the sim's /jobs table (call once every speed
 * source is registered: at start).  NULL when out of memory. */
dc_jobtable *dc_jobtable_create(dc_sim *sim, dc_cluster *c);
void dc_jobtable_destroy(dc_jobtable *jt);
void dc_jobtable_write(dc_jobtable *jt, const dc_job_record *r);

#endif
