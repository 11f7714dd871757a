/* A training job as a fluid: work, rate, phases, checkpoints and restarts, with no per-step events.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A training job as a fluid: it holds N nodes, has W GPU-seconds of work (at
 * the full rate of one GPU-second per GPU per second), and progresses at
 * rate N x gpus_per_node while it computes.  No per-step events: the job
 * banks work at every change of state and schedules only its next milestone
 * (the next checkpoint or completion).
 *
 * Work: work_gpu_h, or from the model: W = 6 P T / (peak x MFU) GPU-seconds
 * (P parameters, T tokens, 6 FLOP per parameter per token for forward and
 * backward: Kaplan et al. 2020, "Scaling laws for neural language models").
 *
 * States: WAITING (fewer than N healthy nodes), RESTARTING (restart_s:
 * reschedule, read the checkpoint, warm up; also the first start),
 * RUNNING, CHECKPOINTING (blocking write of write_s), DETECTING (stalled by
 * a failure not yet noticed), DONE.
 * A failure of one of its nodes (or a job-level fault) in RESTARTING,
 * RUNNING or CHECKPOINTING is an interruption: the work since the last
 * completed checkpoint is lost (a checkpoint being written is lost too).
 * The job stalls at once; when the failure's detection delay d has passed
 * (dc_failure_event.detect_s; a second failure noticed sooner ends the
 * stall sooner) failed nodes are replaced by spares if any are idle, and
 * the job restarts, or waits for repairs.  Failures during the stall cost
 * nothing more.  Job-level faults strike only while it computes (RUNNING
 * or CHECKPOINTING).
 *
 * Silent data corruption ("corruption" signal: of the event's job and,
 * for a node's fault, of every job on that node) does not stop the job: it
 * computes on, and detect_s later it rolls back to the newest kept
 * checkpoint captured before the corruption (checkpoint.h: retention), or
 * to the start if none is; the node at fault (if still up) goes to repair.
 * A rollback for any reason that restores a state captured before a
 * pending corruption wipes it (it is never detected).
 *
 * The checkpoint interval for "auto" follows the moving estimate of
 * checkpoint.h, recomputed whenever the next checkpoint is scheduled; every
 * interruption (visible failure, eviction, corruption found) counts.
 *
 * GPU-hour lines: gpu_hours.useful (work done), gpu_hours.rollback (work
 * computed then lost to a visible failure), gpu_hours.corruption (work
 * rolled back because of silent corruption), gpu_hours.detection (the
 * job's healthy nodes while it is stalled before a failure is noticed),
 * gpu_hours.checkpoint, gpu_hours.restart, gpu_hours.waiting (healthy nodes
 * held while the job waits for others).  Each speed source (cluster.h) that
 * slowed the job adds gpu_hours.SOURCE.  With the cluster's lines they sum
 * to gpu_hours.capacity.
 *
 * Sizes in GPUs: a job asked in gpus computes on those (a 20-GPU job on
 * 8-GPU nodes holds 3 nodes and computes at 20 GPUs' rate; the other 4
 * go to gpu_hours.waiting).  Elastic (min_nodes or min_gpus): short of
 * nodes with no spare it runs on the most GPUs it holds, at most its
 * size, that are whole model replicas (dc_steptime_replica_gpus) and, for
 * a job asked in nodes, whole nodes, at least its floor; it grows back
 * when nodes return (docs/workloads.md).
 *
 * Job MTTF (job.mttf_h, as Kokolis et al. measure it): time the job held
 * its nodes (restarting, running, checkpointing, detecting) divided by its
 * interruptions. */
#ifndef DC_JOB_H
#define DC_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "jobclass.h"
#include "sim.h"

/* Its states are dc_job_phase (cluster.h), published through the cluster. */

extern const dc_model_type dc_model_job;
extern const dc_param dc_job_params[];

/* What other models (step time, network, storage) read of a training job:
 * where its keys come from (jobclass.h) and its model.  Work: work_gpu_h,
 * a trace's or a stream's (their tokens then follow from it), or
 * flop_per_param_token x params x tokens / (peak x mfu). */
typedef struct dc_job_info {
    const char *name;
    bool legacy;                /* the job group: its layout is the top-level parallelism group */
    dc_job_chain chain;         /* its settings: read them at init only (the scenario goes before the run) */
    uint32_t nodes;
    uint32_t gpus;              /* asked in GPUs (0: nodes x GPUs per node); fewer than a node: a share */
    uint32_t min_gpus;          /* elastic: the fewest GPUs it runs on (0: rigid) */
    double work_gpu_s;
    double params, tokens;      /* 0: not known */
    double flop_per_param_token, peak_flops, kernel_eff;
} dc_job_info;

/* The training job of cluster job id job; NULL for none (a service). */
const dc_job_info *dc_job_info_of(dc_sim *sim, int32_t job);

#endif
