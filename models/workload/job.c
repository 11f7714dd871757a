/* Training jobs as fluids: phases, checkpoints, restarts, rollbacks, progress and the GPU-hour
 * breakdown.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "job.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"
#include "checkpoint.h"
#include "cluster.h"
#include "jobspec.h"
#include "jobstats.h"
#include "jobtable.h"
#include "scheduler.h"
#include "steptime.h"
#include "fabric/storage.h"

const dc_param dc_job_params[] = {
    {"job", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "the training job (optional when a jobs list or an inference service gives the work)"},
    {"job.name", DC_PARAM_STRING, 0, "", 0, "job", 0, 0, NULL, "a name for reports"},
    {"job.nodes", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e7, NULL,
     "nodes the job runs on (at most cluster.nodes + cluster.spare_nodes); or gpus"},
    {"job.gpus", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 1, 1e9, NULL,
     "GPUs the job runs on, instead of nodes (fewer than a node has: a share of one node; more: the nodes that "
     "hold them, rounded up, computing on these GPUs)"},
    {"job.work_gpu_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GPU-h", 0, NULL, 0, 1e15,
     NULL, "work at the full rate of one GPU (instead of params and tokens)"},
    {"job.params", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1e16, NULL,
     "model parameters (or the job's class)"},
    {"job.tokens", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1e18, NULL,
     "training tokens (or the job's class)"},
    {"job.flop_per_param_token", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "FLOP", 0, NULL, 0,
     1e3, NULL, "FLOP per parameter per token (default 6 for dense forward + backward, or the job's class)"},
    {"job.gpu_peak_tflops", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "TFLOP/s", 0, NULL, 0, 1e6,
     NULL, "peak dense throughput of one GPU (default 989, H100 SXM bf16, or the job's class)"},
    {"job.mfu", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1, NULL,
     "model FLOP utilisation while computing (default 0.4, or the job's class)"},
    {"job.restart_s", DC_PARAM_FLOAT, 0, "s", 600, NULL, 0, 1e7, NULL,
     "time from an interruption noticed (with nodes available) to computing again"},
    {"job.start_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e10, NULL, "when the job is submitted"},
    {"job.pool", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "scheduler pool (default: the first)"},
    {"job.type", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "node type (cluster.types): the job runs only on nodes of this type (in the first pool of it unless pool "
     "says); its GPUs' peak is the type's unless it gives gpu_peak_tflops"},
    {"job.user", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "user or team, for quotas"},
    {"job.priority", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "", 0, NULL, -1000, 1000, NULL,
     "priority class (default 0; higher first)"},
    {"job.min_nodes", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e7, NULL,
     "elastic: the fewest nodes it runs on; short of nodes with no spare it shrinks to the largest valid size "
     "(whole model replicas) down to this, and grows back when nodes return (absent: rigid)"},
    {"job.min_gpus", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 1, 1e9, NULL,
     "elastic, in GPUs (instead of min_nodes): the fewest GPUs it runs on (absent: rigid); a job asked in gpus "
     "shrinks to whole model replicas (tensor x pipeline GPUs), one asked in nodes to whole nodes of them"},
    {"job.reconfigure_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "s", 0, NULL, 0, 1e7, NULL,
     "elastic: time to re-shard onto a new size, on top of restart_s after a shrink (default 0)"},
    {"job.max_run_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0, 1e7, NULL,
     "maximum run time of one allocation"},
    {0},
};

static const char *const state_names[DC_JOB_PHASES] = {"pending", "waiting",       "restarting", "running",
                                                       "checkpointing", "done", "detecting"};

typedef struct kept_ckpt {
    double capture_s, work_gpu_s;
} kept_ckpt;

typedef struct corruption {
    uint64_t id;
    double at_s;
    int32_t node;
    int class_id;
    dc_event_handle detect;
} corruption;

typedef struct jobs_model jobs_model;

/* A level's newest copy, and the nodes (or -1: the whole tier) that lost
 * data since it was written. */
typedef struct level_copy {
    bool valid;
    double gpu_s, capture_s;
    int tier;
    int32_t *lost;
    size_t n_lost, cap_lost;
    uint64_t n_written, n_read;
} level_copy;

/* Arguments of on_io_done: what finished. */
enum { IO_WRITE, IO_DRAIN, IO_READ };

typedef struct job_model {
    jobs_model *m;
    size_t slot;                /* its index in jobs_model.slots */
    struct job_model *prev_live, *next_live; /* the records that exist, in arrival order */
    dc_sim *sim;
    dc_cluster *cluster;
    dc_eventlog *log;
    int32_t id;
    char name[64];
    uint32_t nodes_needed, nodes_held, gpus_per_node;
    /* elastic (min_gpus > 0): it computes on gpus_run <= its held nodes' GPUs
     * (gpus_full at its full size) */
    uint32_t min_gpus, gpus_run;
    uint32_t gpus_full;         /* the units it computes on at full size: gpus_asked, a CPU job's nodes */
    int node_type;           /* its pool's node type (cluster.types; -1: several) */
    double reconfigure_s;
    uint64_t n_resizes;
    double run_node_s;          /* node-seconds computing at its size (GPUs run / GPUs a node), for the mean */
    double work_total_gpu_s, restart_s, start_s;
    dc_checkpoint_plan ckpt;
    /* scheduling */
    dc_scheduler *sched;
    dc_sched_req req;
    int handle;
    dc_job_kind kind;
    bool leaving;               /* preempted: give the nodes back after this checkpoint */
    bool ended;                 /* done, or ended by its time limit */
    bool timed_out;
    dc_end_state end_state;     /* the trace's: how it leaves once its recorded run is done */
    uint32_t gpus_asked;        /* the trace's GPUs, else nodes x GPUs per node */
    double queued_since_s, wait_s, first_start_s, preempt_lost_gpu_s, end_s;
    uint64_t n_preempted;
    char user[32], cls[32];     /* the scenario is gone once the run starts: copies */
    uint32_t racks, pods;       /* span of the first allocation */
    dc_mtbi_estimator est;

    dc_job_phase state;
    double state_since_s;
    /* Speed factors in force since state_since_s (the cluster's may have just changed). */
    double speed[DC_MAX_SPEED_SOURCES];
    size_t n_speed;
    /* The sources whose factor is not 1, ascending (take_speeds): the
     * products and the banking skip the others, whose terms are exactly
     * x 1 and + 0 (a job under a site cap has two or three of seven). */
    uint8_t sp_idx[DC_MAX_SPEED_SOURCES];
    size_t n_sp;
    /* Also kept by take_speeds, since the factors change only there (a
     * bank and a reschedule per checkpoint edge read them): the first
     * source at 0 (n_speed when none; stopping_source) and the product of
     * the factors not 1 in sp_idx's order (speed: the same multiplications
     * in the same order, so the same number). */
    size_t stop_src;
    double speed_prod;
    double slow_gpu_s[DC_MAX_SPEED_SOURCES];
    dc_event_handle milestone;
    /* Bound to a speed clock (cluster.h) since state_since_s: its clocked
     * sources follow it, their integrals then were clk_last; target: its
     * completion, set while it may come before the next checkpoint. */
    dc_vclock *clock;
    double clk_last[DC_VCLOCK_LEVELS];
    dc_vclock_target target;
    dc_event_handle detect_ev;
    double detect_at_s;

    double done_gpu_s;          /* work done, including work not yet checkpointed */
    double committed_gpu_s;     /* work saved by the checkpoint a restart reads */
    double committed_capture_s; /* when that state was captured (-inf: the start) */
    double capture_s;           /* capture time of the checkpoint being written */
    double run_since_ckpt_s;    /* compute time since the last checkpoint */
    double stopped_s;           /* time RUNNING at speed 0 (a power cap hold, a boot, a data stall) */
    double lost_gpu_s;
    double completion_s;

    /* Kept checkpoints, a ring of kept_cap (grown to ckpt.retain), oldest first from kept_head. */
    kept_ckpt *kept;
    size_t kept_head, n_kept, kept_cap;

    /* Silent corruptions not yet found. */
    corruption *pend;
    size_t n_pend, cap_pend;
    uint64_t next_corruption_id;
    bool sdc_armed;
    bool retention_warned;      /* the retention-too-short warning checked for this job */
    double sdc_target_gpu_s, sdc_target_capture_s;
    uint64_t n_corruptions, n_sdc_rollbacks, n_sdc_scratch, n_sdc_undetected;
    double sdc_lost_gpu_s;

    /* node-seconds held in each state (x GPUs per node = GPU-seconds) */
    double held_node_s[DC_JOB_PHASES];
    double time_s[DC_JOB_PHASES];
    uint64_t n_interruptions, n_checkpoints, n_ckpt_lost, n_ckpt_started;
    double interval_sum_s;
    uint64_t *by_class;
    size_t n_classes;
    char (*class_names)[32];

    /* checkpoints on storage tiers (ckpt.n_levels > 0) */
    dc_storage *st;
    level_copy lv[DC_CHECKPOINT_MAX_LEVELS];
    dc_flow_id io;              /* blocking write or restart read */
    dc_flow_id drain;           /* async drain */
    bool draining;              /* from the snapshot to the drain's commit */
    dc_event_handle io_ev;      /* an I/O's latency after its transfer */
    size_t io_level, drain_level, read_level; /* read_level: n_levels for none */
    double io_start_s, drain_gpu_s, drain_capture_s, drain_start_s;
    double write_sum_s, drain_sum_s;
    uint64_t n_writes, n_drains, n_drains_lost, n_reads;
    double read_sum_s;

    dc_series *series_state, *series_progress;
} job_model;

/* A job's accounting once it has ended: what the run's figures (job_finish,
 * stream_summary, pool_summary) take of it, so its record can go. */
typedef struct job_tally {
    double start_s, wait_s, run_s, held_gpu_s, turnaround_s;
    double done_gpu_s, lost_gpu_s, sdc_lost_gpu_s, preempt_lost_gpu_s;
    double held_node_s[DC_JOB_PHASES];
    uint64_t n_preempted, n_interruptions;
    const char *user;
    uint32_t gpus_asked, gpus_per_node;
    int pool;
    dc_job_kind kind;
    dc_end_state outcome;
    bool ended, started, completed, timed_out;
    size_t n_slow;
    double *slow_gpu_s; /* n_slow: one per speed source (NULL when none) */
} job_tally;

/* What stays of a job for the whole run: what init made of its keys (the
 * scenario is gone once the run starts), what other models read of it
 * (dc_job_info_of: the step-time model keeps the pointer) and, once it has
 * ended, its tally.  Its full record (job_model, about 1.9 KB) exists only
 * from its first start to its end (and while a corruption of it is
 * pending): a queued job is its slot and the scheduler's entry. */
typedef struct job_slot {
    dc_job_info info;
    job_model *live;
    const char *user, *cls;         /* in the names arena */
    double start_s;
    int32_t id;
    uint32_t gpus_per_node, gpus_asked;
    dc_job_kind kind;
    bool ended;
    union {
        struct { /* what its record is made from (thaw): until it ends */
            const dc_checkpoint_plan *plan; /* shared by the jobs that have the same */
            dc_sched_req req;               /* ctx set when it arrives */
            double restart_s, reconfigure_s, tier_write_s;
            uint32_t min_gpus;
            int node_type;
            int handle;                     /* the scheduler's, from its arrival to its first start */
            dc_end_state end_state;
        } setup;
        job_tally tally; /* once it ended */
    } u;
} job_slot;

/* The keys init_job reads of a job's chain (jobclass.h), for the last
 * chain read: the jobs of a trace or a stream share one, read once rather
 * than with libconfig lookups per job.  rest: the chain without the job's
 * own group. */
typedef struct chain_keys {
    bool valid;
    const config_setting_t *at[3];
    int min_level;                     /* the chain level that gives min_nodes or min_gpus (-1: none) */
    bool min_in_gpus;                  /* min_gpus (else min_nodes) */
    double min_size, reconfigure_s;
    bool has_ckpt, ckpt;               /* rest: checkpoint */
    bool has_interval, interval_auto;  /* rest: checkpoint_interval_s */
    double interval_s;
    bool has_write;                    /* rest: checkpoint_write_s */
    double write_s;
    const char *tier;                  /* checkpoint_tier (NULL: none) */
    bool tier_read;                    /* tier_lv holds the tier's level (checked once for the chain) */
    dc_checkpoint_level tier_lv;
    bool has_size;
    double size_gb;                    /* checkpoint_gb */
    double bytes_per_param;            /* checkpoint.bytes_per_param */
} chain_keys;

/* Strings kept for the whole run, in blocks that never move. */
typedef struct name_block {
    struct name_block *next;
    size_t used;
    char text[65536 - 2 * sizeof(size_t)];
} name_block;

struct jobs_model {
    dc_sim *sim;
    double sdc_delay_s;    /* the longest detection delay of a corrupting class (detect_s + check_interval_s) */
    char sdc_class[64];    /* that class */
    char retain_at[256];   /* "FILE:LINE: checkpoint.retain" (or retain_h): where run-time warnings point */
    dc_cluster *cluster;
    job_slot *slots;
    size_t n, n_ended;
    job_model *live_head, *live_tail;
    dc_checkpoint_plan **plans; /* the distinct plans of the slots */
    size_t n_plans;
    name_block *names;
    job_tally scratch_tally;    /* a live job's tally, computed at the end */
    double scratch_slow[DC_MAX_SPEED_SOURCES];
    dc_series *series_state, *series_progress; /* the job group's */
    bool series_rec;            /* they record (else set_state skips the calls; known at the start) */
    bool legacy;                /* slots[0] is the job group: its figures under job.* */
    bool stop_when_done;
    job_slot **by_id;           /* cluster job id -> job (NULL: a service) */
    chain_keys keys;            /* init: the last chain's keys */
    dc_jobtable *table;         /* the /jobs rows */
    job_model *spare;           /* ended jobs' records (by next_live), reused by the next arrivals */
    dc_steptime *steptime;      /* found at start, for the rows' mean_step_s */
    dc_scheduler *sched;        /* found at init and at start, for the jobs' records */
    int comm_source;            /* the "communication" speed source (-1: none), for the rows' comm_share */
    uint32_t *span_mark;        /* scratch: a rack's or pod's last marker */
    uint32_t span_marker;
    size_t n_by_id;
    size_t n_classes;
    char (*class_names)[32];
    /* The arrivals in places reserved at start (dc_sim_reserve): a run of
     * slots in order of time keeps one arrival pending, each pushing the
     * next at its start; false: every arrival pushed at start. */
    bool chained;
    size_t arrivals;            /* the reservation */
};

static job_slot *slot_by_id(jobs_model *m, int32_t id)
{
    return id >= 0 && (size_t)id < m->n_by_id ? m->by_id[id] : NULL;
}

/* The job's record while it exists (NULL before its arrival and after its end). */
static job_model *job_by_id(jobs_model *m, int32_t id)
{
    job_slot *s = slot_by_id(m, id);
    return s ? s->live : NULL;
}

const dc_job_info *dc_job_info_of(dc_sim *sim, int32_t job)
{
    jobs_model *m = dc_sim_model(sim, "job");
    job_slot *s = m && m->by_id ? slot_by_id(m, job) : NULL;
    return s ? &s->info : NULL;
}

/* Full rate: GPU-seconds of work per second with every GPU it runs on at
 * full speed (an elastic job's current size), in GPUs: a 20-GPU job on
 * 8-GPU nodes computes on 20 of the 24 GPUs of its 3 nodes. */
static double rate(const job_model *j)
{
    return (double)j->gpus_run;
}

/* The rate at its full size (its figures: GPUs, ETTR, ideal time). */
static double full_rate(const job_model *j)
{
    return (double)j->gpus_full;
}

/* Its GPUs asked, or (a CPU job: none, one unit a node) its nodes. */
static uint32_t full_units(uint32_t gpus_asked, uint32_t nodes, uint32_t units_per_node)
{
    return gpus_asked ? gpus_asked : nodes * units_per_node;
}

/* Nodes that hold its GPUs computing now (the last one maybe in part). */
static uint32_t run_nodes(const job_model *j)
{
    return (uint32_t)(((uint64_t)j->gpus_run + j->gpus_per_node - 1) / j->gpus_per_node);
}

/* The cluster's factors for the job, and those not 1. */
static void take_speeds(job_model *j)
{
    j->n_speed = dc_cluster_speed_source_count(j->cluster);
    j->n_sp = 0;
    for (size_t i = 0; i < j->n_speed; i++) {
        j->speed[i] = dc_cluster_job_speed_factor(j->cluster, j->id, (int)i);
        if (!(j->speed[i] == 1.0))
            j->sp_idx[j->n_sp++] = (uint8_t)i;
    }
    double f = 1.0;
    j->stop_src = j->n_speed;
    for (size_t k = 0; k < j->n_sp; k++) {
        f *= j->speed[j->sp_idx[k]];
        if (j->stop_src == j->n_speed && !(j->speed[j->sp_idx[k]] > 0.0))
            j->stop_src = j->sp_idx[k];
    }
    j->speed_prod = f;
}

static double speed(const job_model *j)
{
    return j->speed_prod;
}

/* Whether source i follows the job's clock. */
static bool clocked(const job_model *j, size_t i)
{
    const int *src;
    size_t n = j->clock ? dc_cluster_clock_sources(j->cluster, &src) : 0;
    for (size_t l = 0; l < n; l++)
        if ((size_t)src[l] == i)
            return true;
    return false;
}

/* On a clock: the product of the factors that do not follow it (the work
 * rate per unit of the clock's last integral). */
static double own_speed(const job_model *j)
{
    double f = 1.0;
    for (size_t i = 0; i < j->n_speed; i++)
        if (!clocked(j, i))
            f *= j->speed[i];
    return f;
}

/* Its milestone event and its completion target on a clock. */
static void cancel_milestone(job_model *j)
{
    dc_sim_cancel(j->sim, &j->milestone);
    if (j->clock)
        dc_vclock_cancel(j->clock, &j->target);
}

/* The first speed source at 0 (the job is stopped: held under a power cap,
 * waiting for a boot), n_speed when none is. */
static size_t stopping_source(const job_model *j)
{
    return j->stop_src;
}

static bool computing(const job_model *j)
{
    return j->state == DC_JOB_RESTARTING || j->state == DC_JOB_RUNNING || j->state == DC_JOB_CHECKPOINTING;
}

static bool tiered(const job_model *j)
{
    return j->ckpt.enabled && j->ckpt.n_levels > 0;
}

static double ckpt_bytes(const job_model *j)
{
    return j->ckpt.size_gb * 1e9;
}

/* Whether level L's newest copy survived the losses since it was written. */
static bool level_survives(const job_model *j, size_t L)
{
    const level_copy *c = &j->lv[L];
    if (!c->valid)
        return false;
    for (size_t i = 0; i < c->n_lost; i++)
        for (size_t k = 0; k < c->n_lost; k++)
            if (c->lost[k] == (c->lost[i] ^ 1))
                return false;
    return true;
}

/* Level L lost node's data (-1: the whole tier's). */
static void record_loss(job_model *j, size_t L, int32_t node)
{
    level_copy *c = &j->lv[L];
    if (!c->valid)
        return;
    if (node < 0 || !j->ckpt.levels[L].partner) {
        c->valid = false;
        return;
    }
    if (c->n_lost == c->cap_lost) {
        size_t ncap = c->cap_lost ? 2 * c->cap_lost : 8;
        int32_t *g = realloc(c->lost, ncap * sizeof *g);
        if (!g) { /* cannot remember: take the copy as lost */
            c->valid = false;
            return;
        }
        c->lost = g;
        c->cap_lost = ncap;
    }
    c->lost[c->n_lost++] = node;
}

/* The node tiers' copies stay on nodes the job no longer has. */
static void drop_node_levels(job_model *j)
{
    for (size_t L = 0; L < j->ckpt.n_levels; L++)
        if (!j->ckpt.levels[L].durable)
            j->lv[L].valid = false;
}

static size_t durable_level(const job_model *j)
{
    for (size_t L = 0; L < j->ckpt.n_levels; L++)
        if (j->ckpt.levels[L].durable)
            return L;
    return j->ckpt.n_levels - 1; /* a single node tier: the only one */
}

/* The newest surviving copy becomes what a restart reads. */
static void choose_restart(job_model *j)
{
    size_t best = j->ckpt.n_levels;
    for (size_t L = 0; L < j->ckpt.n_levels; L++)
        if (level_survives(j, L) && (best == j->ckpt.n_levels || j->lv[L].gpu_s > j->lv[best].gpu_s))
            best = L;
    j->read_level = best;
    if (best < j->ckpt.n_levels) {
        j->committed_gpu_s = j->lv[best].gpu_s;
        j->committed_capture_s = j->lv[best].capture_s;
    } else {
        j->committed_gpu_s = 0.0;
        j->committed_capture_s = -INFINITY;
    }
}

/* Running on a speed clock: the clocked sources' factors vary, the others
 * are constant, so over the interval each product of factors integrates to
 * the constant part times the clock's integral of its clocked part: with
 * I_0 = dt and I_{l+1} the clock's level-l integral over the interval, a
 * source after l clocked ones loses rate x (its constant prefix) x
 * (1 - f_i) x I_l, the l-th clocked source rate x prefix x (I_l - I_{l+1}),
 * and the work done is rate x (all constant factors) x I_n (n clocked
 * sources): what bank's per-interval sums give when the clock's factors
 * are constant, summed over their changes. */
static void bank_clocked(job_model *j, double dt)
{
    const int *src;
    size_t n = dc_cluster_clock_sources(j->cluster, &src);
    double I[DC_VCLOCK_LEVELS + 1];
    I[0] = dt;
    for (size_t l = 0; l < n; l++)
        I[l + 1] = dc_vclock_value(j->clock, l) - j->clk_last[l];
    double r = rate(j), f = 1.0;
    size_t l = 0;
    for (size_t i = 0; i < j->n_speed; i++) {
        if (l < n && (size_t)src[l] == i) {
            j->slow_gpu_s[i] += r * f * (I[l] - I[l + 1]);
            l++;
        } else {
            j->slow_gpu_s[i] += r * f * (1.0 - j->speed[i]) * I[l];
            f *= j->speed[i];
        }
    }
    j->done_gpu_s += r * f * I[l];
    j->run_since_ckpt_s += dt;
}

/* Accounts the time since the last change to the current state, then
 * takes the job's clock binding as it is now (the power model changes it
 * with "job_speed", or quietly while the job does not run). */
static void bank(job_model *j)
{
    double now = dc_sim_now(j->sim);
    double dt = now - j->state_since_s;
    if (dt > 0.0) {
        /* the GPUs it holds beyond those it computes on wait (an elastic
         * job's beyond its valid size, a job of 20 GPUs' 4 of its third
         * 8-GPU node), in nodes' worth: whole nodes for a job asked in nodes */
        bool busy = j->state == DC_JOB_RUNNING || j->state == DC_JOB_CHECKPOINTING || j->state == DC_JOB_RESTARTING;
        uint64_t held_gpus = (uint64_t)j->nodes_held * j->gpus_per_node;
        if (busy && held_gpus > j->gpus_run) {
            double idle = (double)(held_gpus - j->gpus_run) / j->gpus_per_node;
            j->held_node_s[j->state] += dt * (j->nodes_held - idle);
            j->held_node_s[DC_JOB_WAITING] += dt * idle;
        } else { /* (no idle GPUs: nodes_held - 0.0 is nodes_held, and the waiting line's + 0.0 changes no sum of non-negative terms) */
            j->held_node_s[j->state] += dt * (double)j->nodes_held;
        }
        if (j->state == DC_JOB_RUNNING)
            j->run_node_s += dt * ((double)j->gpus_run / j->gpus_per_node);
        j->time_s[j->state] += dt;
        if (j->state == DC_JOB_RUNNING) {
            double full = dt * rate(j), f = 1.0;
            size_t stop = stopping_source(j);
            if (stop < j->n_speed) {
                /* Stopped: it computes nothing (no communication, no
                 * bubble, no checkpoint due): all its time goes to the
                 * line of the source that stops it. */
                j->slow_gpu_s[stop] += full;
                j->stopped_s += dt;
            } else if (j->clock) {
                bank_clocked(j, dt);
            } else {
                for (size_t k = 0; k < j->n_sp; k++) { /* (the others add + 0 and multiply by 1) */
                    size_t i = j->sp_idx[k];
                    j->slow_gpu_s[i] += full * f * (1.0 - j->speed[i]);
                    f *= j->speed[i];
                }
                j->done_gpu_s += full * f;
                j->run_since_ckpt_s += dt;
            }
        }
    }
    j->state_since_s = now;
    dc_vclock *k = dc_cluster_job_clock(j->cluster, j->id);
    if (k != j->clock) {
        if (j->clock)
            dc_vclock_cancel(j->clock, &j->target);
        j->clock = k;
    }
    for (size_t l = 0; k && l < dc_vclock_levels(k); l++)
        j->clk_last[l] = dc_vclock_value(k, l);
}

static void set_state(job_model *j, dc_job_phase s)
{
    bank(j);
    if (s != DC_JOB_RUNNING && j->clock) /* a completion target counts only while it runs */
        dc_vclock_cancel(j->clock, &j->target);
    j->state = s;
    dc_cluster_set_job_phase(j->cluster, j->id, s);
    double now = dc_sim_now(j->sim);
    if (j->series_state && j->m->series_rec) {
        dc_series_record(j->series_state, now, (double)s);
        dc_series_record(j->series_progress, now, j->done_gpu_s / j->work_total_gpu_s);
    }
}

static void on_milestone(dc_sim *sim, void *ctx, uint64_t arg);
static void on_clock_done(dc_sim *sim, void *ctx, uint64_t arg);
static void on_restarted(dc_sim *sim, void *ctx, uint64_t arg);

static void refresh_interval(job_model *j)
{
    if (!j->ckpt.enabled || j->ckpt.policy == DC_CHECKPOINT_FIXED || !j->ckpt.observed)
        return;
    double m = dc_mtbi_estimator_mtbi_s(&j->est, dc_sim_now(j->sim));
    j->ckpt.interval_s = dc_checkpoint_optimum_s(&j->ckpt, m);
}

/* Whether the job's kept checkpoints reach back past the longest
 * detection delay D of a corrupting class (checkpoint.h): by age when
 * retain_h >= D; by count when (retain - 1) x (interval + write time) >=
 * D (the oldest of retain checkpoints, the newest just taken).  If not, a
 * corruption found late rolls the job back to its start: warned once
 * (checked at the job's first interval). */
static void check_retention(job_model *j)
{
    jobs_model *m = j->m;
    j->retention_warned = true;
    double c_s = isfinite(j->ckpt.write_s) ? j->ckpt.write_s : 0.0;
    double reach_s = (j->ckpt.retain > 0 ? j->ckpt.retain - 1 : 0) * (j->ckpt.interval_s + c_s);
    if (j->ckpt.retain_s >= m->sdc_delay_s || reach_s >= m->sdc_delay_s)
        return;
    char msg[768];
    if (j->ckpt.retain_s > 0)
        snprintf(msg, sizeof msg,
                 "%s: keeps %.6g h of checkpoints, less than the %.6g s after which failure class \"%s\"'s "
                 "corruptions may be found: one found later rolls the job back to its start",
                 m->retain_at, j->ckpt.retain_s / 3600.0, m->sdc_delay_s, m->sdc_class);
    else
        snprintf(msg, sizeof msg,
                 "%s: %d checkpoints at the job's interval reach back less than the %.6g s after which failure "
                 "class \"%s\"'s corruptions may be found: one found later rolls the job back to its start; keep "
                 "by age (retain_h = %.6g) or keep more",
                 m->retain_at, j->ckpt.retain, m->sdc_delay_s, m->sdc_class, m->sdc_delay_s / 3600.0);
    dc_sim_warn(j->sim, msg);
}

static void schedule_next(job_model *j)
{
    /* A speed change published while the job enters RUNNING (a subscriber
     * of "job_phase" may set a factor at once) must not leave two milestones. */
    cancel_milestone(j);
    refresh_interval(j);
    if (!j->retention_warned && j->m->sdc_delay_s > 0 && j->ckpt.enabled)
        check_retention(j);
    /* (on a clock: the work per unit of the clock's last integral, and
     * to_done below in those units) */
    double eff = rate(j) * (j->clock ? own_speed(j) : speed(j));
    double to_done = eff > 0.0 ? (j->work_total_gpu_s - j->done_gpu_s) / eff : INFINITY;
    /* a checkpoint due during a drain waits for the drain's end */
    /* (a stopped job has nothing to save: no checkpoint falls due) */
    double to_ckpt = j->ckpt.enabled && !j->draining && eff > 0.0 ? j->ckpt.interval_s - j->run_since_ckpt_s
                                                                   : INFINITY;
    if (to_ckpt < 0.0)
        to_ckpt = 0.0;
    /* Finishing exactly at a checkpoint boundary finishes (no last write);
     * the tolerance absorbs rounding in the banked work. */
    if (!isfinite(to_done) && !isfinite(to_ckpt))
        return; /* stopped (speed 0, no checkpoints): a speed change reschedules */
    if (j->clock) {
        /* The clock's factors are at most 1: the work is done no earlier
         * than to_done from now, so it has a target only when that may
         * come before the checkpoint (a change of the clock's factors then
         * moves the clock's one event, not the job's); the checkpoint,
         * due after to_ckpt of computing, does not depend on the speed. */
        size_t last = dc_vclock_levels(j->clock) - 1;
        if (isfinite(to_done) && to_done <= to_ckpt + 1e-9 * (1.0 + to_ckpt))
            j->target = dc_vclock_at(j->clock, dc_vclock_value(j->clock, last) + to_done, on_clock_done, j, 0);
        if (isfinite(to_ckpt))
            j->milestone = dc_sim_after(j->sim, to_ckpt, on_milestone, j, 1);
        return;
    }
    j->milestone = to_done <= to_ckpt + 1e-9 * (1.0 + to_ckpt) ? dc_sim_after(j->sim, to_done, on_milestone, j, 0)
                                                                : dc_sim_after(j->sim, to_ckpt, on_milestone, j, 1);
}

static void on_restart_read(dc_sim *sim, void *ctx, uint64_t arg);

static void restart_after(job_model *j, double extra_s)
{
    set_state(j, DC_JOB_RESTARTING);
    bool read = tiered(j) && j->read_level < j->ckpt.n_levels;
    /* the one milestone: an elastic job's resize just before may have set
     * its speed while it ran (on_speed: a checkpoint or completion scheduled) */
    cancel_milestone(j);
    j->milestone = dc_sim_after(j->sim, j->restart_s + extra_s, read ? on_restart_read : on_restarted, j, 0);
}

static void restart(job_model *j)
{
    restart_after(j, 0.0);
}

static void on_io_done(dc_sim *sim, void *ctx, uint64_t what);

/* A transfer ended: what it was follows from the job's state; the tier's
 * latency comes after it. */
static void on_io_flow(dc_sim *sim, void *ctx, dc_flow_id id)
{
    job_model *j = ctx;
    uint64_t what;
    size_t level;
    if (id == j->drain) {
        j->drain = DC_FLOW_NONE;
        what = IO_DRAIN;
        level = j->drain_level;
    } else if (id == j->io) {
        j->io = DC_FLOW_NONE;
        what = j->state == DC_JOB_RESTARTING ? IO_READ : IO_WRITE;
        level = j->io_level;
    } else {
        return;
    }
    double lat = dc_storage_latency_s(j->st, j->lv[level].tier);
    if (lat > 0.0)
        j->io_ev = dc_sim_after(sim, lat, on_io_done, j, what);
    else
        on_io_done(sim, j, what);
}

static dc_flow_id start_transfer(job_model *j, size_t L, dc_io_dir dir)
{
    return dc_storage_transfer(j->st, j->lv[L].tier, dir, ckpt_bytes(j), j->id, run_nodes(j), on_io_flow, j);
}

static void start_io(job_model *j, size_t L, dc_io_dir dir)
{
    j->io_level = L;
    j->io_start_s = dc_sim_now(j->sim);
    j->io = start_transfer(j, L, dir);
}

static void on_restart_read(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    (void)sim;
    (void)arg;
    j->milestone = DC_EVENT_NONE;
    start_io(j, j->read_level, DC_IO_READ);
}

/* Stops the job's transfers; a drain cut short loses its checkpoint. */
static void cancel_io(job_model *j)
{
    if (!tiered(j))
        return;
    if (j->io != DC_FLOW_NONE)
        dc_storage_cancel(j->st, j->io);
    if (j->drain != DC_FLOW_NONE)
        dc_storage_cancel(j->st, j->drain);
    j->io = j->drain = DC_FLOW_NONE;
    dc_sim_cancel(j->sim, &j->io_ev);
    if (j->draining) {
        j->draining = false;
        j->n_ckpt_lost++;
        j->n_drains_lost++;
    }
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* The GPUs an elastic job runs on with held nodes: the most, at most its
 * size and the held nodes' GPUs, that are whole model replicas (tensor x
 * pipeline GPUs; any number without a step-time model) and, for a job
 * asked in nodes, whole nodes; at least min_gpus; 0 when there is none (a
 * rigid job: all its GPUs or 0).  A multiple of the unit lcm(replica,
 * node): O(1). */
static uint32_t run_size(const job_model *j, uint32_t held)
{
    if (held >= j->nodes_needed)
        return j->gpus_full;
    if (j->min_gpus == 0)
        return 0;
    uint64_t replica = dc_steptime_replica_gpus(j->sim, j->id), step = j->m->slots[j->slot].info.gpus ? 1 : j->gpus_per_node;
    uint64_t unit = replica > 1 ? replica / gcd_u64(replica, step) * step : step;
    uint64_t have = (uint64_t)held * j->gpus_per_node;
    if (have > j->gpus_full)
        have = j->gpus_full;
    uint64_t g = have / unit * unit;
    return g >= j->min_gpus ? (uint32_t)g : 0;
}

/* An elastic job's size becomes g GPUs: its rate and its step follow. */
static void resize(job_model *j, uint32_t g)
{
    if (g == j->gpus_run)
        return;
    bank(j);
    j->gpus_run = g;
    j->n_resizes++;
    dc_eventlog_add(j->log, dc_sim_now(j->sim), "job_resize", "", -1, j->id, (double)g);
    dc_steptime_resize(j->sim, j->id, g);
}

/* Takes nodes of its pool until the job has all it needs; then restarts.
 * An elastic job short of nodes restarts on the largest valid size it
 * holds (after restart_s + reconfigure_s) instead of waiting. */
static void acquire(job_model *j)
{
    uint32_t missing = j->nodes_needed - j->nodes_held;
    if (missing > 0) {
        bank(j);
        j->nodes_held += dc_sched_refill(j->sched, j->handle, missing);
    }
    uint32_t n = run_size(j, j->nodes_held);
    if (n == 0) {
        if (j->state != DC_JOB_WAITING)
            set_state(j, DC_JOB_WAITING);
        return;
    }
    bool changed = n != j->gpus_run;
    resize(j, n);
    restart_after(j, changed ? j->reconfigure_s : 0.0);
}

/* A running elastic job below its size: nodes came back; it grows onto
 * the largest valid size it can now hold, re-sharding for reconfigure_s
 * (its state moves with it: no rollback). */
static void grow(job_model *j)
{
    uint32_t missing = j->nodes_needed - j->nodes_held;
    bank(j);
    j->nodes_held += dc_sched_refill(j->sched, j->handle, missing);
    uint32_t n = run_size(j, j->nodes_held);
    if (n <= j->gpus_run)
        return;
    resize(j, n); /* (running: its step's new speed reschedules its milestone, on_speed) */
    cancel_milestone(j);
    set_state(j, DC_JOB_RESTARTING);
    j->milestone = dc_sim_after(j->sim, j->reconfigure_s, on_restarted, j, 0);
}

/* Racks and pods of the nodes it holds (marks in a scratch array the size
 * of the cluster's racks, reset by a rising marker: O(nodes held)). */
static void measure_span(job_model *j)
{
    jobs_model *m = j->m;
    uint32_t n;
    const uint32_t *nodes = dc_cluster_job_node_list(j->cluster, j->id, &n);
    uint32_t npr = dc_cluster_nodes_per_rack(j->cluster);
    j->racks = j->pods = 0;
    for (int level = 0; level < 2 && m->span_mark; level++) {
        uint32_t mark = ++m->span_marker;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t u = level == 0 ? nodes[k] / npr : dc_cluster_node_pod(j->cluster, nodes[k]);
            if (m->span_mark[u] != mark) {
                m->span_mark[u] = mark;
                if (level == 0)
                    j->racks++;
                else
                    j->pods++;
            }
        }
    }
}

/* The scheduler gave it all its nodes. */
static void on_sched_start(void *ctx)
{
    job_model *j = ctx;
    double now = dc_sim_now(j->sim);
    bank(j);
    j->nodes_held = j->nodes_needed;
    j->wait_s += now - j->queued_since_s;
    if (isnan(j->first_start_s)) {
        j->first_start_s = now;
        measure_span(j);
    }
    restart(j);
}

static void on_sched_wake(void *ctx)
{
    job_model *j = ctx;
    if (j->state == DC_JOB_WAITING)
        acquire(j);
    else if (j->state == DC_JOB_RUNNING && j->gpus_run < j->gpus_full && !j->draining)
        grow(j);
}

static job_model *thaw(jobs_model *m, size_t i, bool live);
static int source_index(const dc_cluster *c, const char *name);

/* The scheduler's calls for a job come to its slot (the scheduler's ctx,
 * from its arrival on): a queued job has no record until it first starts
 * (it needs only what the scheduler keeps of it to be ordered and placed),
 * and before that a wake or a preemption finds it pending, which does
 * nothing.  Until then the slot's req.ctx is the jobs' model. */
static void on_slot_start(void *ctx)
{
    job_slot *s = ctx;
    job_model *j = s->live;
    if (!j) {
        jobs_model *m = s->u.setup.req.ctx;
        if (!(j = thaw(m, (size_t)(s - m->slots), true))) {
            dc_sim_fail(m->sim, DC_ENOMEM, "out of memory for a job's record");
            return;
        }
    }
    on_sched_start(j);
}

static void on_slot_wake(void *ctx)
{
    job_slot *s = ctx;
    if (s->live)
        on_sched_wake(s->live);
}

static void on_sched_preempt(void *ctx, double notice_s, dc_sched_why why);

static void on_slot_preempt(void *ctx, double notice_s, dc_sched_why why)
{
    job_slot *s = ctx;
    if (s->live)
        on_sched_preempt(s->live, notice_s, why);
}

static const dc_sched_client slot_client = {on_slot_start, on_slot_wake, on_slot_preempt};

/* When slot i arrives (its event's time): as dc_sim_at would have it. */
static inline double arrival_s(const job_slot *s)
{
    return s->start_s > 0.0 ? s->start_s : 0.0;
}

/* Job i arrives: it queues; its record is made when it first starts
 * (on_slot_start; submit may start it at once, its handle is then -1 until
 * submit returns, as before). */
static void on_start(dc_sim *sim, void *ctx, uint64_t i)
{
    jobs_model *m = ctx;
    job_slot *s = &m->slots[i];
    /* the next arrival of its run, first thing (see job_start) */
    if (m->chained && i + 1 < m->n && arrival_s(&m->slots[i + 1]) >= arrival_s(s))
        dc_sim_at_reserved(sim, m->arrivals, i + 1, arrival_s(&m->slots[i + 1]), on_start, m, i + 1);
    dc_sched_req req = s->u.setup.req;
    req.client = &slot_client;
    req.ctx = s;
    s->u.setup.req.ctx = m;
    s->u.setup.handle = -1;
    int h = dc_sched_submit(m->sched, &req);
    if (s->live)
        s->live->handle = h;
    else
        s->u.setup.handle = h;
}

static void on_restarted(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    set_state(j, DC_JOB_RUNNING);
    dc_eventlog_add(j->log, dc_sim_now(sim), "job_running", "", -1, j->id, 0.0);
    schedule_next(j);
}

/* Gives every node back to the scheduler (requeue: to wait for new ones). */
static void release_all(job_model *j, bool requeue)
{
    bank(j);
    j->nodes_held = 0;
    if (tiered(j) && requeue) {
        drop_node_levels(j);
        choose_restart(j);
    }
    if (requeue) {
        set_state(j, DC_JOB_PENDING);
        j->queued_since_s = dc_sim_now(j->sim);
    }
    dc_sched_done(j->sched, j->handle, requeue);
}

static void write_row(job_model *j);
static void keep_tally(job_model *j);
static void drop_record(job_model *j);

/* How an ended job ended: its time limit, else what its trace says. */
static dc_end_state outcome(const job_model *j)
{
    return j->timed_out ? DC_END_TIME_LIMIT : j->end_state;
}

static void job_ended(job_model *j)
{
    jobs_model *m = j->m;
    j->ended = true;
    j->end_s = dc_sim_now(j->sim);
    write_row(j);
    keep_tally(j);
    if (++m->n_ended == m->n && m->stop_when_done)
        dc_sim_stop(j->sim);
    drop_record(j); /* j may be gone from here */
}

static kept_ckpt *kept_at(job_model *j, size_t k)
{
    return &j->kept[(j->kept_head + k) % j->kept_cap];
}

/* Room for one more kept checkpoint.  The ring grows by doubling up to
 * ckpt.retain, so memory follows the checkpoints taken, not the key's
 * bound (retain = 1e6 on a thousand-job stream asked for gigabytes up
 * front).  Until it is full it never wraps (kept_head stays 0), so a
 * realloc keeps the order. */
static bool kept_room(job_model *j)
{
    if (j->n_kept < j->kept_cap || j->kept_cap == (size_t)j->ckpt.retain)
        return true;
    size_t cap = j->kept_cap ? 2 * j->kept_cap : 4;
    if (cap > (size_t)j->ckpt.retain)
        cap = (size_t)j->ckpt.retain;
    kept_ckpt *k = realloc(j->kept, cap * sizeof *k);
    if (!k)
        return false;
    j->kept = k;
    j->kept_cap = cap;
    return true;
}

/* checkpoint.retain_h (checkpoint.h): the new checkpoint joins the ring
 * (doubled when full, unwrapped into the new array); then the oldest goes
 * while more than retain are kept and the next one is itself captured
 * before the window (so the newest before the window stays). */
static void keep_by_age(job_model *j, double capture_s, double gpu_s)
{
    if (j->n_kept == j->kept_cap) {
        size_t cap = j->kept_cap ? 2 * j->kept_cap : 4;
        kept_ckpt *k = malloc(cap * sizeof *k);
        if (!k) {
            dc_sim_fail(j->sim, DC_ENOMEM, "out of memory keeping %zu checkpoints of job \"%s\" (checkpoint.retain_h)",
                        j->n_kept + 1, j->name);
            return;
        }
        for (size_t i = 0; i < j->n_kept; i++)
            k[i] = *kept_at(j, i);
        free(j->kept);
        j->kept = k;
        j->kept_cap = cap;
        j->kept_head = 0;
    }
    *kept_at(j, j->n_kept++) = (kept_ckpt){capture_s, gpu_s};
    double window_start_s = dc_sim_now(j->sim) - j->ckpt.retain_s;
    while (j->n_kept > (size_t)j->ckpt.retain && j->n_kept >= 2 && kept_at(j, 1)->capture_s < window_start_s) {
        j->kept_head = (j->kept_head + 1) % j->kept_cap;
        j->n_kept--;
    }
}

/* A checkpoint of gpu_s of work captured at capture_s can be restored. */
static void commit(job_model *j, double gpu_s, double capture_s, size_t level, double write_s)
{
    j->committed_gpu_s = gpu_s;
    j->committed_capture_s = capture_s;
    if (tiered(j)) {
        level_copy *c = &j->lv[level];
        c->valid = true;
        c->gpu_s = gpu_s;
        c->capture_s = capture_s;
        c->n_lost = 0;
        c->n_written++;
        j->read_level = level;
    }
    if (j->ckpt.retain_s > 0) {
        keep_by_age(j, capture_s, gpu_s);
    } else if (j->ckpt.retain > 0) {
        if (!kept_room(j)) {
            dc_sim_fail(j->sim, DC_ENOMEM, "out of memory keeping %zu checkpoints of job \"%s\" (checkpoint.retain)",
                        j->n_kept + 1, j->name);
            return;
        }
        if (j->n_kept == (size_t)j->ckpt.retain) {
            j->kept_head = (j->kept_head + 1) % (size_t)j->ckpt.retain;
            j->n_kept--;
        }
        *kept_at(j, j->n_kept++) = (kept_ckpt){capture_s, gpu_s};
    }
    j->n_checkpoints++;
    dc_eventlog_add(j->log, dc_sim_now(j->sim), "checkpoint", tiered(j) ? j->ckpt.levels[level].tier : "", -1,
                    j->id, write_s);
}

static void on_ckpt_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    set_state(j, DC_JOB_RUNNING);
    double write_s = tiered(j) ? dc_sim_now(sim) - j->io_start_s : j->ckpt.write_s;
    commit(j, j->done_gpu_s, j->capture_s, j->io_level, write_s);
    j->run_since_ckpt_s = 0.0;
    if (j->leaving) {
        j->leaving = false;
        release_all(j, !j->timed_out);
        if (j->timed_out) {
            set_state(j, DC_JOB_DONE);
            job_ended(j);
        }
        return;
    }
    schedule_next(j);
}

static void cancel_corruptions(job_model *j, double after_s)
{
    size_t k = 0;
    for (size_t i = 0; i < j->n_pend; i++) {
        if (j->pend[i].at_s > after_s)
            dc_sim_cancel(j->sim, &j->pend[i].detect);
        else
            j->pend[k++] = j->pend[i];
    }
    j->n_pend = k;
}

static void on_snapshot(dc_sim *sim, void *ctx, uint64_t arg);

/* The job has just stopped to checkpoint (state CHECKPOINTING). */
static void begin_checkpoint(job_model *j)
{
    j->capture_s = dc_sim_now(j->sim);
    j->n_ckpt_started++;
    j->interval_sum_s += j->ckpt.interval_s;
    if (!tiered(j)) {
        j->milestone = dc_sim_after(j->sim, j->ckpt.write_s, on_ckpt_done, j, 0);
        return;
    }
    if (j->leaving) { /* on the way out: blocking, to the durable level */
        start_io(j, durable_level(j), DC_IO_WRITE);
        return;
    }
    size_t L = dc_checkpoint_level_of(&j->ckpt, j->n_ckpt_started);
    if (j->ckpt.async) {
        j->io_level = L;
        j->milestone = dc_sim_after(j->sim, j->ckpt.snapshot_s, on_snapshot, j, 0);
        return;
    }
    start_io(j, L, DC_IO_WRITE);
}

/* The snapshot is in host memory: the job computes while it drains. */
static void on_snapshot(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    (void)arg;
    j->milestone = DC_EVENT_NONE;
    if (j->leaving) {
        start_io(j, durable_level(j), DC_IO_WRITE);
        return;
    }
    set_state(j, DC_JOB_RUNNING);
    j->draining = true;
    j->drain_gpu_s = j->done_gpu_s;
    j->drain_capture_s = j->capture_s;
    j->drain_level = j->io_level;
    j->drain_start_s = dc_sim_now(sim);
    j->run_since_ckpt_s = 0.0;
    j->drain = start_transfer(j, j->drain_level, DC_IO_WRITE);
    if (j->state == DC_JOB_RUNNING) /* unless ended by a signal meanwhile */
        schedule_next(j);
}

static void on_io_done(dc_sim *sim, void *ctx, uint64_t what)
{
    job_model *j = ctx;
    j->io_ev = DC_EVENT_NONE;
    double now = dc_sim_now(sim);
    switch (what) {
    case IO_WRITE:
        j->write_sum_s += now - j->io_start_s;
        j->n_writes++;
        if (j->leaving && !j->ckpt.levels[j->io_level].durable) {
            start_io(j, durable_level(j), DC_IO_WRITE); /* the next allocation needs a durable copy */
            return;
        }
        on_ckpt_done(sim, j, 0);
        break;
    case IO_DRAIN:
        j->draining = false;
        j->drain_sum_s += now - j->drain_start_s;
        j->n_drains++;
        commit(j, j->drain_gpu_s, j->drain_capture_s, j->drain_level, now - j->drain_start_s);
        if (j->state == DC_JOB_RUNNING) {
            bank(j); /* the compute time since the snapshot */
            schedule_next(j); /* a checkpoint may have come due */
        }
        break;
    case IO_READ:
        j->read_sum_s += now - j->io_start_s;
        j->n_reads++;
        j->lv[j->io_level].n_read++;
        on_restarted(sim, j, 0);
        break;
    }
}

static void on_milestone(dc_sim *sim, void *ctx, uint64_t is_ckpt)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    if (is_ckpt && j->target != DC_VCLOCK_NONE) {
        /* on a clock, its completion due at the checkpoint (within the
         * tolerance schedule_next allows) finishes instead */
        bank(j);
        const double *f = dc_vclock_factors(j->clock);
        double r = 1.0, eff = rate(j) * own_speed(j);
        for (size_t l = 0; l < dc_vclock_levels(j->clock); l++)
            r *= f[l];
        double to_done = eff > 0.0 ? (j->work_total_gpu_s - j->done_gpu_s) / eff / r : INFINITY;
        if (to_done <= 1e-9 * (1.0 + j->ckpt.interval_s))
            is_ckpt = 0;
    }
    if (is_ckpt) {
        set_state(j, DC_JOB_CHECKPOINTING);
        begin_checkpoint(j);
        return;
    }
    j->draining = false; /* a drain still running no longer matters */
    cancel_io(j);
    cancel_milestone(j);
    set_state(j, DC_JOB_DONE);
    j->done_gpu_s = j->committed_gpu_s = j->work_total_gpu_s;
    j->completion_s = dc_sim_now(sim);
    /* a job the trace records as failed, cancelled or timed out has run its
     * recorded time: it leaves now without a result */
    static const char *const end_kinds[DC_END_STATES] = {"job_done", "job_failed", "job_cancelled",
                                                         "job_time_limit"};
    if (j->end_state == DC_END_TIME_LIMIT)
        j->timed_out = true;
    dc_eventlog_add(j->log, j->completion_s, end_kinds[j->end_state], "", -1, j->id, j->completion_s - j->start_s);
    /* Corruption still hidden went out with the result. */
    j->n_sdc_undetected += j->n_pend;
    cancel_corruptions(j, -INFINITY);
    release_all(j, false);
    job_ended(j);
}

/* Its completion target on the clock is reached. */
static void on_clock_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->target = DC_VCLOCK_NONE;
    dc_sim_cancel(sim, &j->milestone); /* the checkpoint it would have come to */
    on_milestone(sim, j, 0);
}

/* Rolls the work back to the checkpoint a restart reads (or, when a
 * corruption rollback is armed, to its target); returns the work lost. */
static double rollback_to(job_model *j, bool preempted)
{
    bool sdc = j->sdc_armed;
    if (tiered(j)) {
        if (sdc) {
            /* Copies that carry the corruption go; the kept checkpoint
             * rolled back to is the durable level's copy from now on. */
            for (size_t L = 0; L < j->ckpt.n_levels; L++)
                if (j->lv[L].valid && j->lv[L].capture_s > j->sdc_target_capture_s)
                    j->lv[L].valid = false;
            level_copy *d = &j->lv[durable_level(j)];
            if (isfinite(j->sdc_target_capture_s) && !(d->valid && d->capture_s >= j->sdc_target_capture_s)) {
                d->valid = true;
                d->gpu_s = j->sdc_target_gpu_s;
                d->capture_s = j->sdc_target_capture_s;
                d->n_lost = 0;
            }
        }
        choose_restart(j);
    }
    double target = j->committed_gpu_s, capture = j->committed_capture_s;
    if (sdc) {
        target = j->sdc_target_gpu_s;
        capture = j->sdc_target_capture_s;
        j->sdc_armed = false;
    }
    double lost = j->done_gpu_s - target;
    if (sdc)
        j->sdc_lost_gpu_s += lost;
    else if (preempted)
        j->preempt_lost_gpu_s += lost;
    else
        j->lost_gpu_s += lost;
    j->done_gpu_s = j->committed_gpu_s = target;
    j->committed_capture_s = capture;
    j->run_since_ckpt_s = 0.0;
    cancel_corruptions(j, capture);
    return lost;
}

static double rollback(job_model *j)
{
    return rollback_to(j, false);
}

static void on_detected(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->detect_ev = DC_EVENT_NONE;
    acquire(j);
}

/* A failure hit the computing job: it stalls now, loses the work since its
 * checkpoint, and restarts once the failure is noticed. */
static void stall(job_model *j, int class_id, int32_t first_node, double detect_s)
{
    bank(j);
    /* Cancelling a transfer re-rates the storage, which may change the
     * job's speed and reschedule its milestone: cancel that after. */
    cancel_io(j);
    cancel_milestone(j);
    if (j->state == DC_JOB_CHECKPOINTING)
        j->n_ckpt_lost++;
    double lost = rollback(j);
    j->n_interruptions++;
    bool known = class_id >= 0 && (size_t)class_id < j->n_classes;
    if (known)
        j->by_class[class_id]++;
    double now = dc_sim_now(j->sim);
    dc_eventlog_add(j->log, now, "interrupt", known ? j->class_names[class_id] : "", first_node, j->id,
                    lost / 3600.0);
    if (dc_mtbi_estimator_record(&j->est, now) != DC_OK)
        dc_sim_fail(j->sim, DC_ENOMEM, "out of memory recording an interruption");
    if (detect_s > 0.0) {
        set_state(j, DC_JOB_DETECTING);
        j->detect_at_s = now + detect_s;
        j->detect_ev = dc_sim_after(j->sim, detect_s, on_detected, j, 0);
        return;
    }
    acquire(j);
}

static void job_failure(job_model *j, const dc_failure_event *ev)
{
    dc_sim *sim = j->sim;
    bool hit = ev->job == j->id;
    int32_t first = -1;
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (dc_cluster_node_holds(j->cluster, ev->nodes[i], j->id)) {
            if (!hit)
                first = (int32_t)ev->nodes[i];
            hit = true;
            bank(j);
            j->nodes_held--;
            for (size_t L = 0; tiered(j) && L < j->ckpt.n_levels; L++)
                if (!j->ckpt.levels[L].durable)
                    record_loss(j, L, (int32_t)ev->nodes[i]);
        }
    if (!hit)
        return;
    switch (j->state) {
    case DC_JOB_RESTARTING:
    case DC_JOB_RUNNING:
    case DC_JOB_CHECKPOINTING:
        stall(j, ev->class_id, first, ev->detect_s);
        break;
    case DC_JOB_DETECTING:
        if (tiered(j))
            rollback(j); /* the copy it would read may be gone now */
        /* Already stalled; a failure reported sooner ends the stall sooner. */
        if (dc_sim_now(sim) + ev->detect_s < j->detect_at_s) {
            dc_sim_cancel(sim, &j->detect_ev);
            j->detect_at_s = dc_sim_now(sim) + ev->detect_s;
            j->detect_ev = dc_sim_after(sim, ev->detect_s, on_detected, j, 0);
        }
        break;
    case DC_JOB_WAITING:
        if (tiered(j))
            rollback(j);
        acquire(j); /* it was not computing: no interruption, just fewer nodes */
        break;
    case DC_JOB_PENDING:
    case DC_JOB_DONE:
        break;
    }
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    jobs_model *m = ctx;
    const dc_failure_event *ev = payload;
    (void)sim;
    job_model *j = job_by_id(m, ev->job);
    if (j)
        job_failure(j, ev);
    /* each job hit once, in node order (every job on a shared node) */
    for (size_t i = 0; i < ev->n_nodes; i++) {
        int32_t next;
        for (int32_t id = dc_cluster_node_job(m->cluster, ev->nodes[i]); id >= 0; id = next) {
            next = dc_cluster_node_next_job(m->cluster, ev->nodes[i], id);
            job_model *k = job_by_id(m, id);
            if (!k || k == j)
                continue;
            bool first = true;
            for (size_t q = 0; q < i && first; q++)
                first = !dc_cluster_node_holds(m->cluster, ev->nodes[q], k->id);
            if (first)
                job_failure(k, ev);
        }
    }
}

/* A corruption found after the job had checkpointed rolled it back to its
 * start: retention had dropped every checkpoint from before it (checkpoint.h).
 * The text names the class, not the job or the time, so that it is kept
 * once however many jobs and corruptions. */
static void warn_retention(job_model *j, int class_id)
{
    const char *cname = (size_t)class_id < j->n_classes ? j->class_names[class_id] : "";
    char msg[768];
    if (j->ckpt.retain_s > 0)
        snprintf(msg, sizeof msg,
                 "%s: a corruption of class \"%s\" was found after every checkpoint kept (%.6g h of them): the "
                 "job rolled back to its start; give retain_h at least the class's detection delay",
                 j->m->retain_at, cname, j->ckpt.retain_s / 3600.0);
    else
        snprintf(msg, sizeof msg,
                 "%s: a corruption of class \"%s\" was found after every one of the %d checkpoints kept had been "
                 "taken: the job rolled back to its start (retention by count reaches back retain x the "
                 "interval); keep by age (retain_h at least the class's detection delay) or keep more",
                 j->m->retain_at, cname, j->ckpt.retain);
    dc_sim_warn(j->sim, msg);
}

static void on_corruption_found(dc_sim *sim, void *ctx, uint64_t id)
{
    job_model *j = ctx;
    size_t k = 0;
    while (k < j->n_pend && j->pend[k].id != id)
        k++;
    if (k == j->n_pend)
        return;
    corruption p = j->pend[k];
    j->pend[k] = j->pend[--j->n_pend];

    /* Checkpoints captured after the corruption carry it: drop them. */
    while (j->n_kept > 0 && kept_at(j, j->n_kept - 1)->capture_s >= p.at_s)
        j->n_kept--;
    if (j->n_kept > 0) {
        j->sdc_target_gpu_s = kept_at(j, j->n_kept - 1)->work_gpu_s;
        j->sdc_target_capture_s = kept_at(j, j->n_kept - 1)->capture_s;
    } else {
        j->sdc_target_gpu_s = 0.0;
        j->sdc_target_capture_s = -INFINITY;
        j->n_sdc_scratch++;
        if (j->n_checkpoints > 0 && p.class_id >= 0)
            warn_retention(j, p.class_id);
    }
    j->sdc_armed = true;
    j->n_sdc_rollbacks++;
    const char *cname = p.class_id >= 0 && (size_t)p.class_id < j->n_classes ? j->class_names[p.class_id] : "";
    dc_eventlog_add(j->log, dc_sim_now(sim), "sdc_rollback", cname, p.node, j->id,
                    (j->done_gpu_s - j->sdc_target_gpu_s) / 3600.0);
    /* The node at fault goes to repair; if the job computes on it, that
     * failure interrupts the job with the rollback armed above. */
    if (p.node >= 0) {
        dc_node_state st = dc_cluster_node_state(j->cluster, (uint32_t)p.node);
        if (st == DC_NODE_IDLE || st == DC_NODE_BUSY) {
            uint32_t node = (uint32_t)p.node;
            dc_cluster_fail(j->cluster, p.class_id, cname, &node, 1, -1);
        }
    }
    if (j->sdc_armed) {
        if (computing(j))
            stall(j, p.class_id, p.node, 0.0);
        else if (j->state != DC_JOB_DONE)
            rollback(j); /* stalled or waiting: the restart will read the clean checkpoint */
        else
            j->sdc_armed = false;
    }
    drop_record(j); /* an ended job's last corruption found: its record goes */
}

static void corrupt_job(dc_sim *sim, job_model *j, const dc_corruption_event *ev);

/* The event's job, and a node's fault every other job on the node too
 * (jobs sharing it: each computes on the faulty node); a job-level fault
 * (node -1) only its job. */
static void on_corruption(dc_sim *sim, void *ctx, const void *payload)
{
    jobs_model *m = ctx;
    const dc_corruption_event *ev = payload;
    corrupt_job(sim, job_by_id(m, ev->job), ev);
    if (ev->node < 0 || (uint32_t)ev->node >= dc_cluster_node_count(m->cluster))
        return;
    int32_t next;
    for (int32_t id = dc_cluster_node_job(m->cluster, (uint32_t)ev->node); id >= 0; id = next) {
        next = dc_cluster_node_next_job(m->cluster, (uint32_t)ev->node, id);
        if (id != ev->job)
            corrupt_job(sim, job_by_id(m, id), ev);
    }
}

static void corrupt_job(dc_sim *sim, job_model *j, const dc_corruption_event *ev)
{
    if (!j || !dc_cluster_job_active(j->cluster, j->id))
        return;
    if (j->n_pend == j->cap_pend) {
        size_t ncap = j->cap_pend ? 2 * j->cap_pend : 8;
        corruption *g = realloc(j->pend, ncap * sizeof *g);
        if (!g) {
            dc_sim_fail(sim, DC_ENOMEM, "out of memory recording a corruption");
            return;
        }
        j->pend = g;
        j->cap_pend = ncap;
    }
    uint64_t id = ++j->next_corruption_id;
    j->pend[j->n_pend++] = (corruption){id, dc_sim_now(sim), ev->node, ev->class_id,
                                        dc_sim_after(sim, ev->detect_s, on_corruption_found, j, id)};
    j->n_corruptions++;
    dc_eventlog_add(j->log, dc_sim_now(sim), "corruption", ev->class_name, ev->node, j->id, ev->detect_s);
}

/* A tier lost data: the job's copies on it are gone (node tiers: that
 * node's shard, unless its partner has one). */
static void on_storage_loss(dc_sim *sim, void *ctx, const void *payload)
{
    jobs_model *m = ctx;
    const dc_storage_loss *loss = payload;
    (void)sim;
    for (job_model *j = m->live_head; j; j = j->next_live) {
        if (!tiered(j) || j->ended)
            continue;
        if (loss->node >= 0 && !dc_cluster_node_holds(j->cluster, (uint32_t)loss->node, j->id))
            continue;
        for (size_t L = 0; L < j->ckpt.n_levels; L++)
            if (j->lv[L].tier == loss->tier)
                record_loss(j, L, loss->node);
    }
}

static void on_speed(dc_sim *sim, void *ctx, const void *payload)
{
    const dc_job_event *ev = payload;
    job_model *j = job_by_id(ctx, ev->job);
    if (!j)
        return;
    bank(j); /* at the old speed, up to now */
    take_speeds(j);
    if (j->state == DC_JOB_RUNNING) {
        cancel_milestone(j);
        schedule_next(j);
    }
}

/* The scheduler wants the nodes back (a higher priority, a spot reclaim
 * with notice_s, or its time limit). */
static void on_sched_preempt(void *ctx, double notice_s, dc_sched_why why)
{
    job_model *j = ctx;
    if (j->ended || j->state == DC_JOB_PENDING)
        return;
    double now = dc_sim_now(j->sim);
    bool timeout = why == DC_SCHED_TIMEOUT;
    if (timeout)
        j->timed_out = true;
    else
        j->n_preempted++;
    dc_eventlog_add(j->log, now, timeout ? "job_time_limit" : "job_preempted", j->name, -1, j->id, notice_s);
    /* checkpoint on the way out if it can (a time limit kills at once) */
    double leave_s = tiered(j) ? dc_storage_transfer_s(j->st, j->lv[durable_level(j)].tier, DC_IO_WRITE,
                                                       ckpt_bytes(j), j->id, j->nodes_needed)
                               : j->ckpt.write_s;
    bool can = !timeout && j->ckpt.enabled && (why == DC_SCHED_PREEMPT || leave_s <= notice_s);
    if (can && j->state == DC_JOB_CHECKPOINTING) {
        j->leaving = true;
        return;
    }
    if (can && j->state == DC_JOB_RUNNING) {
        cancel_io(j); /* a drain in progress: the blocking write replaces it */
        cancel_milestone(j);
        j->leaving = true;
        set_state(j, DC_JOB_CHECKPOINTING);
        begin_checkpoint(j);
        return;
    }
    bank(j);
    cancel_io(j);
    cancel_milestone(j);
    dc_sim_cancel(j->sim, &j->detect_ev);
    if (j->state == DC_JOB_CHECKPOINTING)
        j->n_ckpt_lost++;
    if (tiered(j) && !timeout)
        drop_node_levels(j);
    if (j->state != DC_JOB_DETECTING) /* a stalled job has rolled back already */
        rollback_to(j, true);
    release_all(j, !timeout);
    if (timeout) {
        set_state(j, DC_JOB_DONE);
        job_ended(j);
    }
}

static const dc_sched_client job_client = {on_sched_start, on_sched_wake, on_sched_preempt};

/* The first failure class of mode "corrupt": its mode setting (its name in
 * *name), or NULL. */
static config_setting_t *any_corrupting_class(const dc_scenario *sc, const char **name)
{
    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        const char *mode = "stop";
        config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        dc_cfg_lookup_string(g, "mode", &mode);
        if (strcmp(mode, "corrupt") == 0) {
            dc_cfg_lookup_string(g, "name", name);
            return dc_cfg_member(g, "mode");
        }
    }
    return NULL;
}

/* A job of a node type (cluster.types) that gives no peak: the type's. */
static void type_peak(const dc_scenario *sc, const config_setting_t *where, double *peak)
{
    const char *type = NULL;
    const config_setting_t *types = dc_scenario_lookup(sc, "cluster.types");
    if (!where || !types || !dc_cfg_lookup_string(where, "type", &type))
        return;
    for (int t = 0; t < config_setting_length(types); t++) {
        const config_setting_t *e = config_setting_get_elem(types, (unsigned)t);
        const char *name = NULL;
        if (dc_cfg_lookup_string(e, "name", &name) && strcmp(name, type) == 0) {
            dc_cfg_lookup_float(e, "gpu_peak_tflops", peak);
            return;
        }
    }
}

/* The job's model from its chain (jobclass.h). */
static int resolve_model(const dc_scenario *sc, const config_setting_t *where, dc_job_info *info, bool *has_tokens,
                         dc_error *err)
{
    int rc = dc_job_chain_of(sc, where, &info->chain, err);
    if (rc != DC_OK)
        return rc;
    const dc_job_chain *ch = &info->chain;
    double params = 0, tokens = 0, fpt = 6, peak = 989, mfu = 0.4;
    bool has_params = dc_job_chain_number(ch, "params", &params);
    *has_tokens = dc_job_chain_number(ch, "tokens", &tokens);
    dc_job_chain_number(ch, "flop_per_param_token", &fpt);
    if (!dc_job_chain_number(ch, "gpu_peak_tflops", &peak))
        type_peak(sc, where, &peak);
    dc_job_chain_number(ch, "mfu", &mfu);
    info->flop_per_param_token = fpt;
    info->peak_flops = peak * 1e12;
    info->kernel_eff = mfu;
    info->params = has_params ? params : 0.0;
    info->tokens = *has_tokens ? tokens : 0.0;
    return DC_OK;
}

/* An error of a trace's row: the scenario's key of the trace first
 * (FILE:LINE: jobs.[i].trace, or jobs.[i].trace.file for a mapped trace),
 * then the trace file and its line, as the trace reader's own errors. */
static int trace_row_error(const dc_scenario *sc, const dc_job_spec *sp, dc_error *err, const char *fmt, ...)
{
    char msg[DC_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    config_setting_t *at = dc_cfg_member(sp->where, "trace");
    if (at && config_setting_is_group(at) && dc_cfg_member(at, "file"))
        at = dc_cfg_member(at, "file");
    return dc_scenario_error_at(sc, at ? at : (config_setting_t *)sp->where, err, "%s:%d: %s", sp->trace_file,
                                sp->trace_line, msg);
}

/* The job's work when the spec has none (NAN), from the model; else the
 * tokens that work trains at full speed. */
static int resolve_work(const dc_scenario *sc, dc_job_spec *sp, bool has_tokens, dc_job_info *info, dc_error *err)
{
    double k = info->peak_flops * info->kernel_eff, fp = info->flop_per_param_token * info->params;
    if (isnan(sp->work_gpu_s)) {
        if (!(info->params > 0) || !has_tokens) {
            if (sp->trace_file[0])
                return trace_row_error(sc, sp, err, "give the job's work");
            return dc_scenario_error_at(sc, sp->where, err,
                                        "give the job's work: work_gpu_h, or params and tokens (its own, its "
                                        "class's or the defaults')");
        }
        sp->work_gpu_s = fp * info->tokens / k;
    } else {
        info->tokens = info->params > 0 ? sp->work_gpu_s * k / fp : 0.0;
    }
    info->work_gpu_s = sp->work_gpu_s;
    info->nodes = sp->nodes;
    info->gpus = sp->gpus;
    return DC_OK;
}

/* Reads the job group into a spec and the job's work (legacy keys). */
static int read_job_group(const dc_scenario *sc, config_setting_t *g, dc_cluster *c, dc_job_spec *sp,
                          double *params_out, dc_job_info *info, dc_error *err)
{
    memset(sp, 0, sizeof *sp);
    const char *name = "job", *str;
    dc_cfg_lookup_string(g, "name", &name);
    snprintf(sp->name, sizeof sp->name, "%s", name);
    sp->where = g;
    int nodes = 0, gpus = 0;
    bool has_n = dc_cfg_lookup_int(g, "nodes", &nodes), has_g = dc_cfg_lookup_int(g, "gpus", &gpus);
    if (has_n && has_g)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "gpus"), err,
                                    "give the job's size as nodes or gpus, not both");
    if (!has_n && !has_g)
        return dc_scenario_error_at(sc, g, err, "the job needs nodes or gpus");
    if (has_g) {
        dc_jobspec_set_gpus(sp, (uint32_t)gpus, dc_cluster_gpus_per_node(c));
        nodes = (int)sp->nodes;
    }
    if ((uint32_t)nodes > dc_cluster_node_count(c))
        return dc_scenario_error_at(sc, dc_cfg_member(g, has_g ? "gpus" : "nodes"), err,
                                    "the job needs %d nodes but the cluster has %u (nodes + spare_nodes)", nodes,
                                    dc_cluster_node_count(c));
    sp->nodes = (uint32_t)nodes;
    sp->gpus = has_g ? (uint32_t)gpus : 0;
    double work_h, tokens;
    bool has_work = dc_cfg_lookup_float(g, "work_gpu_h", &work_h);
    bool has_tokens = dc_cfg_lookup_float(g, "tokens", &tokens);
    if (has_work && has_tokens)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "work_gpu_h"), err,
                                    "give either work_gpu_h or params and tokens, not both");
    sp->work_gpu_s = has_work ? work_h * 3600.0 : NAN;
    bool chain_tokens;
    int rc = resolve_model(sc, g, info, &chain_tokens, err);
    if (rc == DC_OK)
        rc = resolve_work(sc, sp, chain_tokens, info, err);
    if (rc != DC_OK)
        return rc;
    double params = info->params;
    *params_out = params;
    sp->restart_s = 600;
    dc_cfg_lookup_float(g, "restart_s", &sp->restart_s);
    dc_cfg_lookup_float(g, "start_s", &sp->submit_s);
    if (dc_cfg_lookup_string(g, "pool", &str))
        snprintf(sp->pool, sizeof sp->pool, "%s", str);
    if (dc_cfg_lookup_string(g, "type", &str))
        snprintf(sp->type, sizeof sp->type, "%s", str);
    if (dc_cfg_lookup_string(g, "user", &str))
        snprintf(sp->user, sizeof sp->user, "%s", str);
    dc_cfg_lookup_int(g, "priority", &sp->priority);
    double h;
    sp->max_run_s = dc_cfg_lookup_float(g, "max_run_h", &h) ? h * 3600.0 : INFINITY;
    sp->kind = DC_KIND_TRAINING;
    sp->checkpoint = -1;
    sp->ckpt_interval_s = sp->ckpt_write_s = NAN;
    sp->estimate_s = NAN;
    sp->where = g;
    return DC_OK;
}

/* ---------- a job's record from its first start to its end ---------- */

/* A copy of text that lasts the run (NULL when out of memory). */
static const char *keep_name(jobs_model *m, const char *text)
{
    size_t len = strlen(text) + 1;
    if (!m->names || m->names->used + len > sizeof m->names->text) {
        name_block *b = malloc(sizeof *b);
        if (!b || len > sizeof b->text) {
            free(b);
            return NULL;
        }
        b->next = m->names;
        b->used = 0;
        m->names = b;
    }
    char *p = m->names->text + m->names->used;
    memcpy(p, text, len);
    m->names->used += len;
    return p;
}

/* A distinct plan as the model keeps it: the plan, and for a tiered one
 * with an automatic interval where its size is given ("FILE:LINE: KEY"),
 * for the start's check of its write time through the storage (the
 * scenario is gone by then). */
typedef struct kept_plan {
    dc_checkpoint_plan plan; /* first: a slot's plan pointer is this */
    char size_at[256];
} kept_plan;

/* The key of a job's checkpoint size (its own checkpoint_gb, else
 * checkpoint.size_gb, else its tier's key), else its group. */
static void plan_size_at(const dc_scenario *sc, const dc_job_info *info, const dc_job_spec *sp, char *buf,
                         size_t size)
{
    const config_setting_t *at = info->legacy ? NULL : dc_job_chain_setting(&info->chain, "checkpoint_gb");
    if (!at)
        at = dc_scenario_lookup(sc, "checkpoint.size_gb");
    if (!at && !info->legacy)
        at = dc_job_chain_setting(&info->chain, "checkpoint_tier");
    if (!at)
        at = dc_scenario_lookup(sc, "checkpoint.tier");
    if (!at)
        at = sp ? sp->where : dc_scenario_lookup(sc, "job");
    dc_scenario_where_text(sc, at, buf, size);
}

/* What init made of a job (j: its scratch record, info: its model, sp its
 * spec in scenario sc) goes into slot s; prev is the slot before (its
 * strings and plan are shared when equal). */
static int freeze(jobs_model *m, job_slot *s, const job_model *j, const dc_job_info *info, const dc_scenario *sc,
                  const dc_job_spec *sp, const job_slot *prev, dc_error *err)
{
    const char *name = keep_name(m, j->name);
    s->user = prev && strcmp(prev->user, j->user) == 0 ? prev->user : keep_name(m, j->user);
    s->cls = prev && strcmp(prev->cls, j->cls) == 0 ? prev->cls : keep_name(m, j->cls);
    if (!name || !s->user || !s->cls)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the jobs' names");
    s->info = *info;
    s->info.name = name;
    s->info.chain.class_name = s->cls;
    s->info.min_gpus = j->min_gpus;
    /* jobs of one group or class share a plan: look among the last few */
    size_t back = m->n_plans < 4 ? m->n_plans : 4;
    s->u.setup.plan = NULL;
    for (size_t k = 0; k < back && !s->u.setup.plan; k++)
        if (memcmp(m->plans[m->n_plans - 1 - k], &j->ckpt, sizeof j->ckpt) == 0)
            s->u.setup.plan = m->plans[m->n_plans - 1 - k];
    if (!s->u.setup.plan) {
        if ((m->n_plans & (m->n_plans - 1)) == 0) { /* 0, 1, 2, 4...: full */
            dc_checkpoint_plan **g = realloc(m->plans, (m->n_plans ? 2 * m->n_plans : 1) * sizeof *g);
            if (!g)
                return dc_error_set(err, DC_ENOMEM, "out of memory for the jobs' checkpoint plans");
            m->plans = g;
        }
        kept_plan *p = malloc(sizeof *p);
        if (!p)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the jobs' checkpoint plans");
        memcpy(&p->plan, &j->ckpt, sizeof p->plan);
        p->size_at[0] = '\0';
        if (p->plan.enabled && p->plan.policy != DC_CHECKPOINT_FIXED)
            plan_size_at(sc, info, sp, p->size_at, sizeof p->size_at);
        m->plans[m->n_plans++] = &p->plan;
        s->u.setup.plan = &p->plan;
    }
    s->u.setup.req = j->req;
    s->u.setup.req.ctx = NULL;
    s->u.setup.handle = -1;
    s->start_s = j->start_s;
    s->u.setup.restart_s = j->restart_s;
    s->u.setup.reconfigure_s = j->reconfigure_s;
    s->u.setup.tier_write_s = NAN;
    s->id = j->id;
    s->u.setup.min_gpus = j->min_gpus;
    s->gpus_per_node = j->gpus_per_node;
    s->gpus_asked = j->gpus_asked;
    s->u.setup.node_type = j->node_type;
    s->kind = j->kind;
    s->u.setup.end_state = j->end_state;
    return DC_OK;
}

static void job_free(job_model *j)
{
    if (!j)
        return;
    jobs_model *m = j->m;
    job_slot *s = &m->slots[j->slot];
    if (j->clock)
        dc_vclock_cancel(j->clock, &j->target);
    if (s->live == j) {
        s->live = NULL;
        if (j->prev_live)
            j->prev_live->next_live = j->next_live;
        else
            m->live_head = j->next_live;
        if (j->next_live)
            j->next_live->prev_live = j->prev_live;
        else
            m->live_tail = j->prev_live;
    }
    free(j->kept);
    free(j->pend);
    for (size_t L = 0; L < DC_CHECKPOINT_MAX_LEVELS; L++)
        free(j->lv[L].lost);
    dc_mtbi_estimator_free(&j->est);
    /* kept for the next arrival, its by_class with it (a malloc and a
     * free of 1.9 KB per job otherwise) */
    j->next_live = m->spare;
    m->spare = j;
}

/* Job i's record as init and start left it (NULL when out of memory).
 * live: it arrives now and takes part in the run; else a temporary one,
 * for the row or the figures of a job that never arrived. */
static job_model *thaw(jobs_model *m, size_t i, bool live)
{
    const job_slot *s = &m->slots[i];
    job_model *j = m->spare;
    uint64_t *by_class = NULL;
    if (j) {
        m->spare = j->next_live;
        by_class = j->by_class;
        memset(j, 0, sizeof *j);
    } else if (!(j = calloc(1, sizeof *j))) {
        return NULL;
    }
    dc_sim *sim = m->sim;
    j->m = m;
    j->slot = i;
    j->sim = sim;
    j->cluster = m->cluster;
    j->log = dc_sim_eventlog(sim);
    j->sched = m->sched; /* (thaw runs from the start on) */
    j->id = s->id;
    dc_jobspec_copy_name(j->name, sizeof j->name, s->info.name);
    dc_jobspec_copy_name(j->user, sizeof j->user, s->user);
    dc_jobspec_copy_name(j->cls, sizeof j->cls, s->cls);
    j->gpus_per_node = s->gpus_per_node;
    j->nodes_needed = s->info.nodes;
    j->min_gpus = s->u.setup.min_gpus;
    j->reconfigure_s = s->u.setup.reconfigure_s;
    j->work_total_gpu_s = s->info.work_gpu_s;
    j->restart_s = s->u.setup.restart_s;
    j->start_s = s->start_s;
    j->kind = s->kind;
    j->end_state = s->u.setup.end_state;
    j->gpus_asked = s->gpus_asked;
    j->gpus_full = j->gpus_run = full_units(s->gpus_asked, s->info.nodes, s->gpus_per_node);
    j->first_start_s = NAN;
    j->queued_since_s = s->start_s; /* (it arrived then: its arrival event's time) */
    j->handle = s->u.setup.handle;
    j->node_type = s->u.setup.node_type;
    j->ckpt = *s->u.setup.plan;
    j->req = s->u.setup.req;
    j->req.ctx = j;
    j->n_classes = m->n_classes;
    j->class_names = m->class_names;
    if (by_class)
        memset(by_class, 0, (j->n_classes + 1) * sizeof *by_class);
    j->by_class = by_class ? by_class : calloc(j->n_classes + 1, sizeof *j->by_class);
    if (!j->by_class) { /* (the kept checkpoints' ring grows as they come: kept_room) */
        job_free(j);
        return NULL;
    }
    /* what job_start did: every speed source is registered */
    take_speeds(j);
    if (tiered(j)) {
        j->st = dc_storage_of(sim);
        for (size_t L = 0; L < j->ckpt.n_levels; L++)
            j->lv[L].tier = dc_storage_tier(j->st, j->ckpt.levels[L].tier);
        j->read_level = j->ckpt.n_levels;
        if (!j->ckpt.async)
            j->ckpt.write_s = s->u.setup.tier_write_s; /* planned at the start */
    }
    double hazard = dc_cluster_job_hazard_on(j->cluster, j->nodes_needed, j->node_type);
    double configured_mtbi_s = hazard > 0 ? 1.0 / hazard : INFINITY;
    dc_checkpoint_plan_resolve(&j->ckpt, configured_mtbi_s);
    double prior_mtbi_s = isnan(j->ckpt.prior_mtbi_s) ? configured_mtbi_s : j->ckpt.prior_mtbi_s;
    dc_mtbi_estimator_init(&j->est, prior_mtbi_s, j->ckpt.prior_s, j->ckpt.window_s, j->start_s);
    j->committed_capture_s = -INFINITY;
    j->state = DC_JOB_PENDING;
    if (i == 0 && m->legacy) {
        j->series_state = m->series_state;
        j->series_progress = m->series_progress;
    }
    if (live) {
        m->slots[i].live = j;
        j->prev_live = m->live_tail;
        if (m->live_tail)
            m->live_tail->next_live = j;
        else
            m->live_head = j;
        m->live_tail = j;
    }
    return j;
}

/* The job's tally now into t (its slow_gpu_s with room for every speed
 * source's line); the
 * sums in the order job_finish and stream_summary always took them. */
static job_tally *tally_of(const job_model *j, double now, job_tally *t)
{
    t->start_s = j->start_s;
    t->wait_s = j->wait_s + (j->state == DC_JOB_PENDING && !j->ended ? now - j->queued_since_s : 0.0);
    double run = 0, held_gpu_s = 0;
    for (int st = 0; st < DC_JOB_PHASES; st++)
        if (st != DC_JOB_PENDING && st != DC_JOB_DONE)
            run += j->time_s[st];
    for (int st = 0; st < DC_JOB_PHASES; st++)
        held_gpu_s += j->held_node_s[st] * j->gpus_per_node;
    t->run_s = run;
    t->held_gpu_s = held_gpu_s;
    t->turnaround_s = j->completion_s - j->start_s;
    t->done_gpu_s = j->done_gpu_s;
    t->lost_gpu_s = j->lost_gpu_s;
    t->sdc_lost_gpu_s = j->sdc_lost_gpu_s;
    t->preempt_lost_gpu_s = j->preempt_lost_gpu_s;
    memcpy(t->held_node_s, j->held_node_s, sizeof t->held_node_s);
    t->n_preempted = j->n_preempted;
    t->n_interruptions = j->n_interruptions;
    t->user = j->m->slots[j->slot].user;
    t->gpus_asked = j->gpus_asked;
    t->gpus_per_node = j->gpus_per_node;
    t->pool = j->req.pool;
    t->kind = j->kind;
    t->outcome = outcome(j);
    t->ended = j->ended;
    t->started = !isnan(j->first_start_s);
    t->completed = j->ended && t->outcome == DC_END_COMPLETED;
    t->timed_out = j->timed_out;
    /* past the registered sources the lines are 0 */
    t->n_slow = dc_cluster_speed_source_count(j->cluster);
    if (t->n_slow > 0)
        memcpy(t->slow_gpu_s, j->slow_gpu_s, t->n_slow * sizeof *t->slow_gpu_s);
    return t;
}

/* The ended job's tally stays; its record goes (unless it is the job
 * group's, whose figures come at the end, or a corruption of it is still
 * to be found: that event holds it). */
static void keep_tally(job_model *j)
{
    jobs_model *m = j->m;
    job_slot *s = &m->slots[j->slot];
    size_t ns = dc_cluster_speed_source_count(j->cluster);
    double *slow = ns ? malloc(ns * sizeof *slow) : NULL;
    if (ns && !slow) {
        dc_sim_fail(j->sim, DC_ENOMEM, "out of memory for a job's tally");
        return;
    }
    s->ended = true;
    s->u.tally.slow_gpu_s = slow; /* its record was made: the setup is done with */
    tally_of(j, dc_sim_now(j->sim), &s->u.tally);
}

static void drop_record(job_model *j)
{
    if (j->ended && j->n_pend == 0 && !(j->m->legacy && j->slot == 0))
        job_free(j);
}

/* An ended job's /jobs breakdown lines (as fill_record makes them). */
static void lines_of(const job_tally *t, double *l)
{
    double gpn = t->gpus_per_node;
    l[DC_JOBLINE_USEFUL] = t->done_gpu_s / 3600.0;
    l[DC_JOBLINE_ROLLBACK] = t->lost_gpu_s / 3600.0;
    l[DC_JOBLINE_CORRUPTION] = t->sdc_lost_gpu_s / 3600.0;
    l[DC_JOBLINE_PREEMPTED] = t->preempt_lost_gpu_s / 3600.0;
    l[DC_JOBLINE_DETECTION] = t->held_node_s[DC_JOB_DETECTING] * gpn / 3600.0;
    l[DC_JOBLINE_CHECKPOINT] = t->held_node_s[DC_JOB_CHECKPOINTING] * gpn / 3600.0;
    l[DC_JOBLINE_RESTART] = t->held_node_s[DC_JOB_RESTARTING] * gpn / 3600.0;
    l[DC_JOBLINE_WAITING] = t->held_node_s[DC_JOB_WAITING] * gpn / 3600.0;
    for (size_t k = 0; k < t->n_slow; k++)
        l[DC_JOBLINES + k] = t->slow_gpu_s[k] / 3600.0;
}

/* The keys of chain ch (read when it differs from the last one's). */
static const chain_keys *chain_keys_of(jobs_model *m, const dc_scenario *sc, const dc_job_chain *ch)
{
    chain_keys *k = &m->keys;
    if (k->valid && k->at[0] == ch->at[0] && k->at[1] == ch->at[1] && k->at[2] == ch->at[2])
        return k;
    *k = (chain_keys){.valid = true, .at = {ch->at[0], ch->at[1], ch->at[2]}, .bytes_per_param = 14};
    /* the elastic floor: the first level that gives min_nodes or min_gpus */
    k->min_level = -1;
    for (int i = 0; i < 3 && k->min_level < 0; i++) {
        const config_setting_t *mn = ch->at[i] ? dc_cfg_member(ch->at[i], "min_nodes") : NULL;
        const config_setting_t *mg = ch->at[i] ? dc_cfg_member(ch->at[i], "min_gpus") : NULL;
        if ((mg || mn) && dc_scenario_number(mg ? mg : mn, &k->min_size)) {
            k->min_level = i;
            k->min_in_gpus = mg != NULL;
        }
    }
    dc_job_chain_number(ch, "reconfigure_s", &k->reconfigure_s);
    dc_job_chain rest = *ch;
    rest.at[0] = NULL;
    k->has_ckpt = dc_job_chain_bool(&rest, "checkpoint", &k->ckpt);
    k->has_interval = dc_job_chain_number_auto(&rest, "checkpoint_interval_s", &k->interval_s, &k->interval_auto);
    k->has_write = dc_job_chain_number(&rest, "checkpoint_write_s", &k->write_s);
    dc_job_chain_string(ch, "checkpoint_tier", &k->tier);
    k->has_size = dc_job_chain_number(ch, "checkpoint_gb", &k->size_gb);
    config_lookup_float(dc_scenario_config(sc), "checkpoint.bytes_per_param", &k->bytes_per_param);
    return k;
}

/* An elastic job's floor in GPUs (min_nodes x GPUs a node, or min_gpus;
 * 0: rigid), at most its size.  Refused: min_nodes and min_gpus in one
 * group, and a floor above the size given in the same group (the job
 * group, a one-job entry); a class's or the defaults' floor, or a trace's
 * or stream's, is cut to each job's size.  A trace row's floor (its
 * min_nodes or min_gpus column) comes first. */
static int elastic_floor(const dc_scenario *sc, const dc_job_spec *sp, job_model *j, const chain_keys *ck,
                         const dc_job_chain *ch, dc_error *err)
{
    j->min_gpus = 0;
    if (sp->min_gpus || sp->min_nodes) { /* a trace row's (checked against its size there) */
        j->min_gpus = sp->min_gpus ? sp->min_gpus : sp->min_nodes * j->gpus_per_node;
        if (j->min_gpus > j->gpus_full)
            j->min_gpus = j->gpus_full;
        return DC_OK;
    }
    if (ck->min_level < 0)
        return DC_OK;
    const config_setting_t *g = ch->at[ck->min_level];
    const config_setting_t *mn = dc_cfg_member(g, "min_nodes"), *mg = dc_cfg_member(g, "min_gpus");
    if (mn && mg)
        return dc_scenario_error_at(sc, mg, err, "give the job's elastic floor as min_nodes or min_gpus, not both");
    if (sp->cpu && mg) /* a CPU job holds no GPUs: its floor is in nodes (one unit per node) */
        return dc_scenario_error_at(sc, mg, err,
                                    "type \"%s\" is CPU-only: a CPU job's elastic floor is min_nodes, not "
                                    "min_gpus (job \"%s\")",
                                    sp->type, sp->name);
    double min_gpus = ck->min_in_gpus ? ck->min_size : ck->min_size * j->gpus_per_node;
    if (ck->min_level == 0 && (mg ? ck->min_size > j->gpus_full : ck->min_size > j->nodes_needed)
        && (dc_cfg_member(g, "gpus") || dc_cfg_member(g, "nodes")))
        return dc_scenario_error_at(sc, mg ? mg : mn, err, "%s = %.0f is more than the job's %u %s",
                                    mg ? "min_gpus" : "min_nodes", ck->min_size, mg ? j->gpus_full : j->nodes_needed,
                                    mg ? "GPUs" : "nodes");
    j->min_gpus = min_gpus < j->gpus_full ? (uint32_t)min_gpus : j->gpus_full;
    return DC_OK;
}

/* A job of a spec: its checkpoint plan, pool, request; registers it. */
static int init_job(jobs_model *m, job_model *j, const dc_scenario *sc, const dc_job_spec *sp, const dc_job_info *info,
                    const dc_checkpoint_plan *global, int global_rc, const dc_error *global_err, dc_error *err)
{
    dc_sim *sim = m->sim;
    j->m = m;
    j->sim = sim;
    j->cluster = m->cluster;
    j->log = dc_sim_eventlog(sim);
    j->sched = m->sched;
    dc_jobspec_copy_name(j->name, sizeof j->name, sp->name);
    dc_jobspec_copy_name(j->user, sizeof j->user, sp->user);
    dc_jobspec_copy_name(j->cls, sizeof j->cls, info->chain.class_name ? info->chain.class_name : "");
    /* fewer GPUs than a node has: a share of one node (cluster.h), whose GPUs
     * are its rate and its GPU-hours */
    bool share = !sp->cpu && sp->gpus > 0 && sp->gpus < dc_cluster_gpus_per_node(j->cluster);
    /* a CPU job (a CPU-only type): its work and lines in node-seconds, one unit per node */
    j->gpus_per_node = sp->cpu ? 1 : share ? sp->gpus : dc_cluster_gpus_per_node(j->cluster);
    j->nodes_needed = sp->nodes;
    j->gpus_asked = sp->cpu ? 0 : sp->gpus ? sp->gpus : sp->nodes * j->gpus_per_node;
    j->gpus_full = j->gpus_run = full_units(j->gpus_asked, sp->nodes, j->gpus_per_node);
    const chain_keys *ck = chain_keys_of(m, sc, &info->chain);
    if (elastic_floor(sc, sp, j, ck, &info->chain, err) != DC_OK)
        return DC_EINPUT;
    j->reconfigure_s = ck->reconfigure_s;
    j->work_total_gpu_s = sp->work_gpu_s;
    j->restart_s = sp->restart_s;
    j->start_s = sp->submit_s;
    j->kind = sp->kind;
    j->end_state = sp->end_state;
    j->first_start_s = NAN;
    j->handle = -1;

    int pool = dc_sched_pool(j->sched, sp->pool);
    const config_setting_t *where = sp->where;
    if (sp->cpu && info->params > 0) { /* a model's step time and tokens are GPU work */
        config_setting_t *at = dc_cfg_member(where, "class");
        return dc_scenario_error_at(sc, at ? at : (config_setting_t *)where, err,
                                    "type \"%s\" is CPU-only: its job trains no model, but its class or the job "
                                    "defaults give it params",
                                    sp->type);
    }
    if (pool < 0) {
        if (sp->trace_file[0])
            return trace_row_error(sc, sp, err, "no pool \"%s\" in scheduler.pools", sp->pool);
        return dc_scenario_error_at(sc, dc_cfg_member(where, "pool"), err,
                                    "no pool \"%s\" in scheduler.pools", sp->pool);
    }
    if (sp->type[0]) { /* mixed hardware: a pool of its type only */
        int t = dc_cluster_type_find(j->cluster, sp->type);
        if (t < 0)
            return dc_scenario_error_at(sc, dc_cfg_member(where, "type"), err,
                                        "no node type \"%s\" in cluster.types", sp->type);
        if (!sp->pool[0])
            pool = dc_sched_pool_of_type(j->sched, t);
        int have = pool < 0 ? -1 : dc_sched_pool_type(j->sched, pool);
        if (pool < 0)
            return dc_scenario_error_at(sc, dc_cfg_member(where, "type"), err,
                                        "no scheduler pool holds nodes of type \"%s\" alone", sp->type);
        if (have < 0)
            return dc_scenario_error_at(sc, dc_cfg_member(where, "pool"), err,
                                        "pool \"%s\" holds nodes of several types, not only nodes of type \"%s\"",
                                        dc_sched_pool_name(j->sched, pool), sp->type);
        if (have != t)
            return dc_scenario_error_at(sc, dc_cfg_member(where, "pool"), err,
                                        "pool \"%s\" holds nodes of type \"%s\", not \"%s\"",
                                        dc_sched_pool_name(j->sched, pool),
                                        dc_cluster_type_at(j->cluster, (size_t)have)->name, sp->type);
    }
    j->node_type = dc_sched_pool_type(j->sched, pool);
    int cpu_type = dc_sched_pool_cpu_type(j->sched, pool);
    if (cpu_type >= 0 && !sp->cpu) { /* a GPU job on CPU-only nodes */
        const char *tn = dc_cluster_type_at(j->cluster, (size_t)cpu_type)->name;
        if (sp->trace_file[0])
            return trace_row_error(sc, sp, err,
                                   "pool \"%s\" holds CPU-only nodes (type \"%s\"): a GPU job needs a pool or type "
                                   "with GPUs",
                                   dc_sched_pool_name(j->sched, pool), tn);
        config_setting_t *at = dc_cfg_member(where, "type");
        if (!at || config_setting_source_line(at) <= 0) /* (the schema's default pool has no line) */
            at = dc_cfg_member(where, "pool");
        if (at && config_setting_source_line(at) <= 0)
            at = NULL;
        return dc_scenario_error_at(sc, at ? at : (config_setting_t *)where, err,
                                    "pool \"%s\" holds CPU-only nodes (type \"%s\"): a GPU job needs a pool or "
                                    "type with GPUs",
                                    dc_sched_pool_name(j->sched, pool), tn);
    }
    uint32_t pool_nodes = dc_sched_pool_nodes(j->sched, pool);
    if (sp->nodes > pool_nodes) {
        if (sp->trace_file[0])
            return trace_row_error(sc, sp, err, "the job needs %u nodes but pool \"%s\" has %u", sp->nodes,
                                   dc_sched_pool_name(j->sched, pool), pool_nodes);
        config_setting_t *at = dc_cfg_member(where, "nodes");
        return dc_scenario_error_at(sc, at ? at : (config_setting_t *)where, err,
                                    "the job needs %u nodes but pool \"%s\" has %u", sp->nodes,
                                    dc_sched_pool_name(j->sched, pool), pool_nodes);
    }

    /* checkpoint plan: the group's, by kind, with the job's overrides */
    dc_job_spec own = *sp;
    const char *tier = NULL;
    double size_gb = NAN;
    if (!info->legacy) {
        /* what the job's group does not say, its class or the defaults may */
        if (own.checkpoint < 0 && ck->has_ckpt)
            own.checkpoint = ck->ckpt;
        if (isnan(own.ckpt_interval_s) && ck->has_interval)
            own.ckpt_interval_s = ck->interval_auto ? -1.0 : ck->interval_s;
        if (isnan(own.ckpt_write_s) && ck->has_write)
            own.ckpt_write_s = ck->write_s;
        tier = ck->tier;
        if (ck->has_size)
            size_gb = ck->size_gb;
    }
    sp = &own;
    bool want = sp->checkpoint >= 0 ? sp->checkpoint
                                    : (global->enabled && (sp->kind == DC_KIND_TRAINING || sp->kind == DC_KIND_FINE_TUNING));
    if (want && global_rc != DC_OK && isnan(sp->ckpt_write_s) && !tier) {
        *err = *global_err;
        return global_rc;
    }
    j->ckpt = *global;
    if (want && !global->enabled) {
        /* no checkpoint group: a fixed policy from the job's own keys */
        j->ckpt = (dc_checkpoint_plan){.enabled = true, .policy = DC_CHECKPOINT_FIXED, .interval_s = 3600.0,
                                       .window_s = 168 * 3600.0, .prior_s = 24 * 3600.0, .prior_mtbi_s = NAN,
                                       .retain = 1, .observed = true};
        if ((isnan(sp->ckpt_write_s) && !tier) || isnan(sp->ckpt_interval_s) || (sp->ckpt_interval_s < 0 && !tier))
            return dc_scenario_error_at(sc, (config_setting_t *)where, err,
                                        "checkpoint = true without a checkpoint group needs checkpoint_interval_s "
                                        "(a number, or auto with checkpoint_tier) and checkpoint_write_s or "
                                        "checkpoint_tier");
    }
    j->ckpt.enabled = want;
    if (want && !info->legacy) {
        /* the job's own size: given, else from its parameters */
        double bpp = ck->bytes_per_param;
        if (isnan(size_gb) && info->params > 0)
            size_gb = info->params * bpp / 1e9;
        if (!isnan(size_gb) && size_gb != j->ckpt.size_gb) {
            if (j->ckpt.n_levels == 0 && j->ckpt.write_gb_per_s > 0 && !j->ckpt.async)
                j->ckpt.write_s = size_gb / j->ckpt.write_gb_per_s;
            j->ckpt.size_gb = size_gb;
        }
        if (tier) {
            /* (the tier's level once per chain: ck's tier is the chain's) */
            if (!ck->tier_read) {
                int rc = dc_checkpoint_tier_level(sc, dc_job_chain_setting(&info->chain, "checkpoint_tier"), tier,
                                                  &m->keys.tier_lv, err);
                if (rc != DC_OK)
                    return rc;
                m->keys.tier_read = true;
            }
            dc_checkpoint_plan_use_level(&j->ckpt, &ck->tier_lv);
            j->ckpt.async = false;
            if (!(j->ckpt.size_gb > 0))
                return dc_scenario_error_at(sc, dc_job_chain_setting(&info->chain, "checkpoint_tier"), err,
                                            "a checkpoint written to a tier needs its size: checkpoint_gb, or params");
        }
    }
    if (want) {
        if (!isnan(sp->ckpt_write_s) && !tier) {
            j->ckpt.write_s = sp->ckpt_write_s;
            j->ckpt.n_levels = 0; /* the job's own write time */
            j->ckpt.async = false;
        }
        if (!isnan(sp->ckpt_interval_s) && sp->ckpt_interval_s > 0) {
            j->ckpt.policy = DC_CHECKPOINT_FIXED;
            j->ckpt.interval_s = sp->ckpt_interval_s;
        } else if (!isnan(sp->ckpt_interval_s) && j->ckpt.policy == DC_CHECKPOINT_FIXED) {
            j->ckpt.policy = DC_CHECKPOINT_YOUNG; /* auto asked for: the usual optimum */
        }
    }
    if (want && j->ckpt.policy != DC_CHECKPOINT_FIXED && j->ckpt.n_levels == 0 && !tier && !j->ckpt.async &&
        !(j->ckpt.write_s >= DC_CHECKPOINT_MIN_WRITE_S)) {
        const config_setting_t *at = !isnan(sp->ckpt_write_s) && !info->legacy
                                         ? dc_job_chain_setting(&info->chain, "checkpoint_write_s")
                                         : NULL;
        if (!at)
            at = dc_scenario_lookup(sc, isnan(size_gb) ? "checkpoint.size_gb" : "checkpoint.write_gb_per_s");
        if (!at && !info->legacy)
            at = dc_job_chain_setting(&info->chain, "checkpoint_gb");
        return dc_scenario_error_at(sc, at ? at : (config_setting_t *)where, err,
                                    "job \"%s\": a checkpoint written in %g s is below the minimum of %g s for an "
                                    "automatic interval (Young's sqrt(2 C M) shrinks with the write time C, and the "
                                    "job would checkpoint without end): give a longer write time or a fixed interval",
                                    j->name, j->ckpt.write_s, DC_CHECKPOINT_MIN_WRITE_S);
    }
    j->id = dc_cluster_add_job(j->cluster, j->nodes_needed);
    if (j->id < 0)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    if (share)
        dc_cluster_set_job_gpus(j->cluster, j->id, sp->gpus);
    if (sp->cpu)
        dc_cluster_set_job_cpu(j->cluster, j->id);
    int user = sp->user[0] ? dc_sched_user(j->sched, sp->user) : -1;
    if (sp->user[0] && user < 0)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    double ideal_s = j->restart_s + j->work_total_gpu_s / full_rate(j);
    j->req = (dc_sched_req){.job = j->id,
                            .pool = pool,
                            .nodes = j->nodes_needed,
                            .gpus = share ? sp->gpus : 0,
                            .priority = sp->priority,
                            .user = user,
                            .preemptible = sp->preemptible,
                            .estimate_s = !isnan(sp->estimate_s)  ? sp->estimate_s
                                          : isfinite(sp->max_run_s) ? sp->max_run_s
                                                                    : ideal_s * dc_sched_estimate_factor(j->sched),
                            .max_run_s = sp->max_run_s,
                            .client = &job_client,
                            .ctx = j};
    return DC_OK;
}

/* job_init's state while the jobs' specs come (dc_jobspec_stream). */
typedef struct init_run {
    jobs_model *m;
    const dc_scenario *sc;
    job_model *scratch;
    dc_job_info info;
    const config_setting_t *info_of; /* the group info was resolved for (a stream's jobs share it) */
    bool chain_tokens;
    const dc_checkpoint_plan *global;
    int global_rc;
    const dc_error *global_err;
    int defer_rc; /* an error to give once the specs are read: they are only checked */
    size_t cap;   /* of m->slots */
} init_run;

/* The next job (slot m->n) from its spec; legacy_info: the job group's
 * (slot 0), else resolved from the spec's group. */
static int init_one(init_run *ir, dc_job_spec *sp, const dc_job_info *legacy_info, dc_error *err)
{
    jobs_model *m = ir->m;
    if ((m->n & 4095) == 0 && dc_sim_cancelled(m->sim)) /* a signal: a million jobs take seconds */
        return dc_error_set(err, DC_EINPUT, "interrupted while setting up the jobs");
    if (m->n == ir->cap) {
        job_slot *g = realloc(m->slots, 2 * ir->cap * sizeof *g);
        if (!g)
            return dc_error_set(err, DC_ENOMEM, "out of memory for %zu jobs", m->n + 1);
        m->slots = g;
        ir->cap *= 2;
    }
    int rc = DC_OK;
    if (legacy_info) {
        ir->info = *legacy_info;
    } else {
        if (sp->where != ir->info_of) {
            ir->info = (dc_job_info){0};
            rc = resolve_model(ir->sc, sp->where, &ir->info, &ir->chain_tokens, err);
            ir->info_of = sp->where;
        }
        if (rc == DC_OK)
            rc = resolve_work(ir->sc, sp, ir->chain_tokens, &ir->info, err);
        if (rc != DC_OK)
            return rc;
    }
    size_t i = m->n++;
    memset(&m->slots[i], 0, sizeof m->slots[i]);
    memset(ir->scratch, 0, sizeof *ir->scratch);
    rc = init_job(m, ir->scratch, ir->sc, sp, &ir->info, ir->global, ir->global_rc, ir->global_err, err);
    if (legacy_info && rc == DC_OK)
        ir->scratch->ckpt.enabled = ir->global->enabled; /* the job group keeps the group's plan as is */
    if (rc == DC_OK)
        rc = freeze(m, &m->slots[i], ir->scratch, &ir->info, ir->sc, legacy_info ? NULL : sp,
                    i > 0 ? &m->slots[i - 1] : NULL, err);
    return rc;
}

/* Room for n more jobs: the slots and the cluster's job records sized
 * once for a trace (one copy each instead of one per doubling). */
static int reserve_jobs(init_run *ir, size_t n, dc_error *err)
{
    jobs_model *m = ir->m;
    if (n > SIZE_MAX / 2 / sizeof *m->slots - m->n)
        return DC_OK; /* (absurd: left to the doublings, which fail on their own) */
    if (m->n + n > ir->cap) {
        job_slot *g = realloc(m->slots, (m->n + n) * sizeof *g);
        if (!g)
            return dc_error_set(err, DC_ENOMEM, "out of memory for %zu jobs", m->n + n);
        m->slots = g;
        ir->cap = m->n + n;
    }
    if (!dc_cluster_reserve_jobs(m->cluster, n))
        return dc_error_set(err, DC_ENOMEM, "out of memory for %zu jobs", m->n + n);
    return DC_OK;
}

static int init_specs(void *ctx, dc_job_spec *specs, size_t n, dc_error *err)
{
    init_run *ir = ctx;
    if (!specs)
        return reserve_jobs(ir, n, err);
    for (size_t k = 0; k < n && ir->defer_rc == DC_OK; k++) {
        int rc = init_one(ir, &specs[k], NULL, err);
        if (rc != DC_OK)
            return rc;
    }
    return DC_OK;
}

static int job_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    jobs_model *m = state;
    m->sim = sim;
    m->cluster = dc_cluster_of(sim);
    m->sched = dc_scheduler_of(sim); /* (found again at start) */
    int stop = 1;
    config_lookup_bool(dc_scenario_config(sc), "stop_when_done", &stop);
    m->stop_when_done = stop;

    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    m->n_classes = list ? (size_t)config_setting_length(list) : 0;
    m->class_names = calloc(m->n_classes + 1, sizeof *m->class_names);
    if (!m->class_names)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++) {
        const char *cn = "";
        dc_cfg_lookup_string(config_setting_get_elem(list, (unsigned)i), "name", &cn);
        snprintf(m->class_names[i], sizeof m->class_names[i], "%s", cn);
    }

    int rc = dc_jobclass_check(sc, err);
    if (rc != DC_OK)
        return rc;
    config_setting_t *g = dc_scenario_lookup(sc, "job");
    dc_job_spec legacy;
    dc_job_info legacy_info = {.legacy = true};
    double params = 0;
    if (g) {
        rc = read_job_group(sc, g, m->cluster, &legacy, &params, &legacy_info, err);
        if (rc != DC_OK)
            return rc;
    }
    /* The checkpoint group; its error matters only to jobs that use it. */
    dc_checkpoint_plan global;
    dc_error global_err = {0};
    int global_rc = dc_checkpoint_plan_read(sc, params, &global, &global_err);
    /* Errors of the checkpoint group are given once the jobs have been
     * read without one (the jobs' come first, as when they were read
     * before these checks). */
    int defer_rc = DC_OK;
    dc_error defer_err = {0};
    if (global_rc != DC_OK && g) {
        defer_rc = global_rc;
        defer_err = global_err;
    }
    if (global_rc != DC_OK)
        global.enabled = dc_scenario_lookup(sc, "checkpoint") != NULL;

    const char *sdc_class = NULL;
    {
        config_setting_t *ck = dc_scenario_lookup(sc, "checkpoint");
        config_setting_t *r = ck ? dc_cfg_member(ck, global.retain_s > 0 ? "retain_h" : "retain") : NULL;
        dc_scenario_where_text(sc, r ? r : ck, m->retain_at, sizeof m->retain_at);
    }
    config_setting_t *flist = dc_scenario_lookup(sc, "failures");
    for (int i = 0; flist && i < config_setting_length(flist); i++) {
        config_setting_t *fg = config_setting_get_elem(flist, (unsigned)i);
        const char *mode = "stop", *fname = "";
        double detect_s = 0, check_s = 0;
        dc_cfg_lookup_string(fg, "mode", &mode);
        dc_cfg_lookup_string(fg, "name", &fname);
        dc_cfg_lookup_float(fg, "detect_s", &detect_s);
        dc_cfg_lookup_float(fg, "check_interval_s", &check_s);
        if (strcmp(mode, "corrupt") == 0 && detect_s + check_s > m->sdc_delay_s) {
            m->sdc_delay_s = detect_s + check_s;
            snprintf(m->sdc_class, sizeof m->sdc_class, "%s", fname);
        }
    }
    config_setting_t *sdc_mode = defer_rc == DC_OK && g ? any_corrupting_class(sc, &sdc_class) : NULL;
    if (sdc_mode) {
        config_setting_t *ck = dc_scenario_lookup(sc, "checkpoint");
        if (!ck)
            defer_rc = dc_scenario_error_at(sc, sdc_mode, &defer_err,
                                            "failure class \"%s\" corrupts silently, which needs checkpoints to roll "
                                            "back to: add a checkpoint group with retain >= 1",
                                            sdc_class);
        else if (global.retain == 0 && !(global.retain_s > 0))
            defer_rc = dc_scenario_error_at(sc, dc_cfg_member(ck, "retain"), &defer_err,
                                            "0 checkpoints kept, but failure class \"%s\" corrupts silently: rolling "
                                            "back past a corruption needs a checkpoint taken before it (keep 1 or "
                                            "more; 2 or more survive a corruption found after the next checkpoint)",
                                            sdc_class);
    }

    m->legacy = g != NULL;
    m->series_rec = true; /* (until the start knows) */
    m->n = 0;
    init_run ir = {.m = m,
                   .sc = sc,
                   .global = &global,
                   .global_rc = global_rc,
                   .global_err = &global_err,
                   .defer_rc = defer_rc,
                   .cap = 64};
    m->slots = malloc(ir.cap * sizeof *m->slots);
    ir.scratch = malloc(sizeof *ir.scratch); /* each job's record while init reads it */
    if (!m->slots || !ir.scratch) {
        free(ir.scratch);
        return dc_error_set(err, DC_ENOMEM, "out of memory for the jobs");
    }
    if (g && defer_rc == DC_OK)
        rc = init_one(&ir, &legacy, &legacy_info, err);
    /* the jobs as they are read or generated: a million-job stream's
     * specs never all exist at once */
    if (rc == DC_OK)
        rc = dc_jobspec_stream(sc, sim, dc_cluster_gpus_per_node(m->cluster), init_specs, &ir, err);
    free(ir.scratch);
    if (rc == DC_OK && defer_rc != DC_OK) {
        *err = defer_err;
        rc = defer_rc;
    }
    if (rc != DC_OK)
        return rc; /* job_destroy looks at the m->n records init_one began */

    m->n_by_id = dc_cluster_job_count(m->cluster);
    m->by_id = calloc(m->n_by_id + 1, sizeof *m->by_id);
    if (!m->by_id)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n; i++)
        m->by_id[m->slots[i].id] = &m->slots[i];
    if (g) {
        m->series_state = dc_sim_series(sim, "job_state", "",
                                        "0 pending, 1 waiting, 2 restarting, 3 running, 4 checkpointing, 5 done, "
                                        "6 detecting");
        m->series_progress = dc_sim_series(sim, "job_progress", "", "fraction of the job's work done");
        if (!m->series_state || !m->series_progress)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    int sig_fail = dc_sim_signal(sim, "failure");
    int sig_speed = dc_sim_signal(sim, "job_speed");
    int sig_corrupt = dc_sim_signal(sim, "corruption");
    if (sig_fail < 0 || sig_corrupt < 0 || sig_speed < 0 || dc_sim_subscribe(sim, sig_fail, on_failure, m) != DC_OK
        || dc_sim_subscribe(sim, sig_speed, on_speed, m) != DC_OK
        || dc_sim_subscribe(sim, sig_corrupt, on_corruption, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    bool any_tiered = false;
    for (size_t i = 0; i < m->n_plans; i++)
        any_tiered = any_tiered || (m->plans[i]->enabled && m->plans[i]->n_levels > 0);
    if (any_tiered) {
        int sig_loss = dc_sim_signal(sim, "storage_loss");
        if (sig_loss < 0 || dc_sim_subscribe(sim, sig_loss, on_storage_loss, m) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    return DC_OK;
}

static int job_start(void *state, dc_sim *sim, dc_error *err)
{
    jobs_model *m = state;
    /* (the series are switched on or off before the run starts) */
    m->series_rec = m->series_state && (dc_series_recording(m->series_state) || dc_series_recording(m->series_progress));
    if (m->n > 0) {
        /* every speed source is registered by now: the /jobs columns */
        m->table = dc_jobtable_create(sim, m->cluster);
        uint32_t units = dc_cluster_rack_count(m->cluster);
        if (dc_cluster_pod_count(m->cluster) > units)
            units = dc_cluster_pod_count(m->cluster);
        m->span_mark = calloc(units + 1, sizeof *m->span_mark);
        if (!m->table || !m->span_mark)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the /jobs table");
    }
    m->scratch_tally.slow_gpu_s = m->scratch_slow;
    m->steptime = dc_steptime_of(sim);
    m->sched = dc_scheduler_of(sim);
    m->comm_source = source_index(m->cluster, "communication");
    /* The arrivals, slot i the i-th pushed: in places reserved now (the
     * places m->n pushes in a row would take), each run of slots in
     * non-decreasing time with one arrival pending at a time, each pushing
     * the next of its run when it starts (on_start).  The same order of
     * events, ties included, and a sorted trace's 10,000 arrivals are
     * not all in the event queue's heap from the start (ITP cluster08:
     * each pop and push then sifts through a heap of 10,000). */
    m->chained = m->n > 1 && dc_sim_reserve(sim, m->n, &m->arrivals) == DC_OK;
    /* A job's record is made when it first starts (thaw); what depends on the
     * start (the storage a tiered checkpoint's planned write time comes
     * from) is taken now, and so are the errors. */
    for (size_t i = 0; i < m->n; i++) {
        /* a signal: queueing a million arrivals takes ~0.3 s; the engine,
         * seeing the flag, runs no event */
        if ((i & 4095) == 0 && dc_sim_cancelled(sim))
            break;
        job_slot *js = &m->slots[i];
        const dc_checkpoint_plan *p = js->u.setup.plan;
        double write_s = p->write_s;
        if (p->enabled && p->n_levels > 0) {
            dc_storage *st = dc_storage_of(sim);
            if (!st)
                return dc_error_set(err, DC_EINPUT, "job \"%s\": checkpoints on a storage tier need a storage group",
                                    js->info.name);
            /* The planned write time: the most frequent level's, alone
             * (async: the snapshot, what the job pays). */
            if (!p->async)
                write_s = js->u.setup.tier_write_s = dc_storage_transfer_s(st, dc_storage_tier(st, p->levels[0].tier),
                                                                   DC_IO_WRITE, p->size_gb * 1e9, js->id,
                                                                   js->info.nodes);
        }
        if (p->enabled && p->policy != DC_CHECKPOINT_FIXED && !(write_s >= DC_CHECKPOINT_MIN_WRITE_S)) {
            const char *at = ((const kept_plan *)p)->size_at; /* (every slot's plan is a kept_plan's) */
            return dc_error_set(err, DC_EINPUT,
                                "%s%sjob \"%s\": a checkpoint written in %g s (its size through the bandwidth it "
                                "gets) is below the minimum of %g s for an automatic interval: give a larger "
                                "checkpoint size (checkpoint.size_gb, checkpoint_gb) or a fixed interval",
                                at, *at ? ": " : "", js->info.name, write_s, DC_CHECKPOINT_MIN_WRITE_S);
        }
        if (!m->chained)
            dc_sim_at(sim, js->start_s, on_start, m, i);
        else if (i == 0 || arrival_s(js) < arrival_s(js - 1)) /* a run's first */
            dc_sim_at_reserved(sim, m->arrivals, i, arrival_s(js), on_start, m, i);
    }
    if (m->series_state) {
        dc_series_record(m->series_state, 0.0, (double)DC_JOB_PENDING);
        dc_series_record(m->series_progress, 0.0, 0.0);
    }
    return DC_OK;
}

static void legacy_summary(job_model *j, dc_sim *sim)
{
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    bool done = j->state == DC_JOB_DONE;
    double end = done ? j->completion_s : now;
    double span = end > j->start_s ? end - j->start_s : 0.0;
    double job_gpu_s = span * full_rate(j);
    double useful_gpu_s = j->done_gpu_s;

    dc_summary_set(s, "job.gpus", full_rate(j), "GPUs", "GPUs the job runs on");
    dc_summary_set(s, "job.ettr", job_gpu_s > 0 ? useful_gpu_s / job_gpu_s : 0.0, "",
                   "effective training time ratio: useful work / (job GPUs x time since submission)");
    dc_summary_set(s, "job.useful_gpu_h", useful_gpu_s / 3600.0, "GPU-h", "work done and kept");
    dc_summary_set(s, "job.lost_gpu_h", (j->lost_gpu_s + j->sdc_lost_gpu_s) / 3600.0, "GPU-h",
                   "work computed, then lost to rollbacks (visible failures and corruption)");
    dc_summary_set(s, "job.work_done_fraction", j->done_gpu_s / j->work_total_gpu_s, "",
                   "fraction of the job's work done");
    dc_summary_set(s, "job.completed", done ? 1.0 : 0.0, "", "1 if the job finished within the horizon");
    dc_summary_set(s, "job.completion_days", done ? (j->completion_s - j->start_s) / 86400.0 : NAN, "days",
                   "time from submission to the end of the work (null if not finished)");
    dc_summary_set(s, "job.ideal_days", j->work_total_gpu_s / full_rate(j) / 86400.0, "days",
                   "time to finish with no failure and no checkpoint");
    dc_summary_set(s, "job.interruptions", (double)j->n_interruptions, "", "interruptions of the job");
    if (j->min_gpus > 0) {
        dc_summary_set(s, "job.resizes", (double)j->n_resizes, "", "elastic: times it changed size (shrinks and grows)");
        dc_summary_set(s, "job.mean_nodes", j->time_s[DC_JOB_RUNNING] > 0 ? j->run_node_s / j->time_s[DC_JOB_RUNNING]
                                                                          : NAN,
                       "nodes", "elastic: nodes it computed on, averaged over its running time");
    }
    for (size_t i = 0; i < j->n_classes; i++) {
        char key[96];
        snprintf(key, sizeof key, "interruptions.%s", j->class_names[i]);
        dc_summary_set(s, key, (double)j->by_class[i], "", "interruptions of the job by this class");
    }
    dc_summary_set(s, "job.mtbi_h", j->n_interruptions ? span / j->n_interruptions / 3600.0 : NAN, "h",
                   "mean time between interruptions");
    double held_s = j->time_s[DC_JOB_RESTARTING] + j->time_s[DC_JOB_RUNNING] + j->time_s[DC_JOB_CHECKPOINTING]
                    + j->time_s[DC_JOB_DETECTING];
    dc_summary_set(s, "job.mttf_h", j->n_interruptions ? held_s / j->n_interruptions / 3600.0 : NAN, "h",
                   "mean time to failure: time holding all its nodes / interruptions");
    dc_summary_set(s, "job.checkpoints", (double)j->n_checkpoints, "", "checkpoints completed");
    dc_summary_set(s, "job.checkpoints_lost", (double)j->n_ckpt_lost, "", "checkpoints cut short by a failure");
    dc_summary_set(s, "job.checkpoint_interval_s", j->ckpt.enabled ? j->ckpt.interval_s : NAN, "s",
                   "compute time between checkpoints (for auto: the one in force at the end)");
    dc_summary_set(s, "job.checkpoint_interval_mean_s",
                   j->n_ckpt_started ? j->interval_sum_s / (double)j->n_ckpt_started : NAN, "s",
                   "mean interval of the checkpoints taken");
    dc_summary_set(s, "job.checkpoint_write_s", j->ckpt.enabled ? j->ckpt.write_s : NAN, "s",
                   tiered(j) ? "planned checkpoint cost: the first level's write alone at the start (async: the "
                               "snapshot)"
                             : "time to write one checkpoint");
    if (tiered(j)) {
        dc_summary_set(s, "job.checkpoint_write_mean_s", j->n_writes ? j->write_sum_s / (double)j->n_writes : NAN,
                       "s", "mean time of the blocking checkpoint writes to the tiers (sharing bandwidth)");
        dc_summary_set(s, "job.checkpoint_drain_mean_s", j->n_drains ? j->drain_sum_s / (double)j->n_drains : NAN,
                       "s", "async: mean time of the completed drains to the tier, in the background");
        dc_summary_set(s, "job.checkpoint_drains_lost", (double)j->n_drains_lost, "",
                       "async: drains cut short (by a failure or a preemption): the previous checkpoint stood");
        dc_summary_set(s, "job.restart_read_mean_s", j->n_reads ? j->read_sum_s / (double)j->n_reads : NAN, "s",
                       "mean time of the restarts' checkpoint reads (after restart_s)");
        for (size_t L = 0; L < j->ckpt.n_levels; L++) {
            char key[96];
            snprintf(key, sizeof key, "job.checkpoint_level%zu.written", L);
            dc_summary_set(s, key, (double)j->lv[L].n_written, "", "checkpoints completed on this level");
            snprintf(key, sizeof key, "job.checkpoint_level%zu.restores", L);
            dc_summary_set(s, key, (double)j->lv[L].n_read, "", "restarts that read this level's copy");
        }
    }
    double hazard = dc_cluster_job_hazard_on(j->cluster, j->nodes_needed, j->node_type);
    dc_summary_set(s, "job.expected_mtbi_h", hazard > 0 ? 1.0 / hazard / 3600.0 : NAN, "h",
                   "mean time between interruptions expected from the failure rates");
    /* Observed: the time the job held nodes over its interruptions, as
     * job.mttf_h (issue 18 item 14: the moving estimate, taken at the end
     * during a stall, said 2708 h against 1,118 interruptions in a year).
     * The estimate the automatic interval uses stays beside it. */
    dc_summary_set(s, "job.observed_mtbi_h", j->n_interruptions ? held_s / (double)j->n_interruptions / 3600.0 : NAN,
                   "h", "time the job held its nodes / its interruptions (null without one)");
    double est_s = dc_mtbi_estimator_mtbi_s(&j->est, end);
    dc_summary_set(s, "job.mtbi_estimate_h", isfinite(est_s) ? est_s / 3600.0 : NAN, "h",
                   "moving estimate of the time between interruptions at the end (checkpoint.window_h, prior_h), "
                   "the automatic interval's");
    dc_summary_set(s, "job.corruptions", (double)j->n_corruptions, "", "silent corruptions of the job's state");
    dc_summary_set(s, "job.corruption_rollbacks", (double)j->n_sdc_rollbacks, "",
                   "corruptions found, each rolled back to a checkpoint from before it");
    dc_summary_set(s, "job.corruption_from_scratch", (double)j->n_sdc_scratch, "",
                   "corruption rollbacks with no kept checkpoint old enough: back to the start");
    dc_summary_set(s, "job.corruption_lost_gpu_h", j->sdc_lost_gpu_s / 3600.0, "GPU-h",
                   "work rolled back because of corruption");
    dc_summary_set(s, "job.corruptions_undetected", (double)(j->n_sdc_undetected + (done ? 0 : j->n_pend)), "",
                   "corruptions not found by the end (in the result, or pending)");
    static const char *const time_keys[DC_JOB_PHASES] = {NULL, "job.time_waiting_h", "job.time_restarting_h",
                                                         "job.time_running_h", "job.time_checkpointing_h", NULL,
                                                         "job.time_detecting_h"};
    for (int st = 0; st < DC_JOB_PHASES; st++)
        if (time_keys[st])
            dc_summary_set(s, time_keys[st], (j->time_s[st] - (st == DC_JOB_RUNNING ? j->stopped_s : 0.0)) / 3600.0,
                           "h", st == DC_JOB_RUNNING ? "running: computing (at a speed above 0)" : state_names[st]);
    dc_summary_set(s, "job.time_held_h", j->stopped_s / 3600.0, "h",
                   "running but stopped at speed 0 (held by the site power cap's hold policy, waiting for its "
                   "nodes to boot, its dataset's tier down): no work, no checkpoint, its GPU-hours all in the "
                   "stopping source's line (gpu_hours.power_cap, power_up, data_stall)");

}

/* The index of speed source name, -1 when none registered it. */
static int source_index(const dc_cluster *c, const char *name)
{
    for (size_t i = 0; i < dc_cluster_speed_source_count(c); i++)
        if (strcmp(dc_cluster_speed_source_name(c, (int)i), name) == 0)
            return (int)i;
    return -1;
}

/* The job's /jobs row as it stands now (jobtable.h). */
static void fill_record(job_model *j, dc_job_record *r)
{
    double now = dc_sim_now(j->sim), gpn = j->gpus_per_node;
    bool submitted = j->start_s <= now;
    *r = (dc_job_record){
        .id = j->id,
        .name = j->name,
        .class_name = j->cls,
        .kind = dc_job_kind_names[j->kind],
        .pool = j->sched ? dc_sched_pool_name(j->sched, j->req.pool) : "",
        .user = j->user,
        .state = j->ended                                                       ? dc_end_state_names[outcome(j)]
                 : j->state == DC_JOB_RUNNING && stopping_source(j) < j->n_speed ? "held"
                 : submitted                                                     ? "unfinished"
                                                                                 : "not_submitted",
        .nodes = j->nodes_needed,
        .gpus = dc_cluster_job_cpu(j->cluster, j->id) ? 0 : (uint32_t)full_rate(j), /* a CPU job: none */
        .racks = j->racks,
        .pods = j->pods,
        .submit_s = j->start_s,
        .start_s = j->first_start_s,
        .end_s = j->ended ? j->end_s : NAN,
        .wait_s = j->wait_s + (j->state == DC_JOB_PENDING && !j->ended && submitted ? now - j->queued_since_s : 0.0),
        .interruptions = j->n_interruptions,
        .preemptions = j->n_preempted,
        .checkpoints = j->n_checkpoints,
        .ckpt_write_s = j->n_writes ? j->write_sum_s / (double)j->n_writes : NAN,
        .resizes = j->n_resizes,
        .mean_nodes = j->time_s[DC_JOB_RUNNING] > 0 ? j->run_node_s / j->time_s[DC_JOB_RUNNING] : NAN,
    };
    for (int st = 0; st < DC_JOB_PHASES; st++) {
        if (st != DC_JOB_PENDING && st != DC_JOB_DONE)
            r->run_s += j->time_s[st];
        r->total_gpu_h += j->held_node_s[st] * gpn / 3600.0;
    }
    double *l = r->line_gpu_h;
    l[DC_JOBLINE_USEFUL] = j->done_gpu_s / 3600.0;
    l[DC_JOBLINE_ROLLBACK] = j->lost_gpu_s / 3600.0;
    l[DC_JOBLINE_CORRUPTION] = j->sdc_lost_gpu_s / 3600.0;
    l[DC_JOBLINE_PREEMPTED] = j->preempt_lost_gpu_s / 3600.0;
    l[DC_JOBLINE_DETECTION] = j->held_node_s[DC_JOB_DETECTING] * gpn / 3600.0;
    l[DC_JOBLINE_CHECKPOINT] = j->held_node_s[DC_JOB_CHECKPOINTING] * gpn / 3600.0;
    l[DC_JOBLINE_RESTART] = j->held_node_s[DC_JOB_RESTARTING] * gpn / 3600.0;
    l[DC_JOBLINE_WAITING] = j->held_node_s[DC_JOB_WAITING] * gpn / 3600.0;
    size_t ns = dc_cluster_speed_source_count(j->cluster);
    double slow = 0.0;
    for (size_t k = 0; k < ns; k++) {
        l[DC_JOBLINES + k] = j->slow_gpu_s[k] / 3600.0;
        slow += j->slow_gpu_s[k];
    }
    /* The step: the compute part over the running GPU-time's mean speed. */
    double running = j->held_node_s[DC_JOB_RUNNING] * gpn, tc = dc_steptime_job_compute_s(j->m->steptime, j->id);
    r->mean_step_s = running > slow ? tc * running / (running - slow) : NAN;
    int comm = j->m->comm_source;
    r->comm_share = running > 0.0 ? (comm >= 0 ? j->slow_gpu_s[comm] / running : 0.0) : NAN;
}

static void write_row(job_model *j)
{
    if (!j->m->table)
        return;
    dc_job_record r;
    fill_record(j, &r);
    if (dc_cluster_job_cpu(j->cluster, j->id)) { /* a CPU job holds no GPU-hours (its node-hours: cpu_node_hours.*) */
        r.total_gpu_h = 0.0;
        for (size_t k = 0; k < sizeof r.line_gpu_h / sizeof r.line_gpu_h[0]; k++)
            r.line_gpu_h[k] = 0.0;
    }
    dc_jobtable_write(j->m->table, &r);
}

static double quantile_sorted(const double *v, size_t n, double q)
{
    if (n == 0)
        return NAN;
    double pos = q * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (pos - (double)lo) * (v[hi] - v[lo]);
}

/* Job i's tally now: its own once it ended, else from its record; a job
 * that never arrived gets a temporary record (*tmp, for the caller to
 * free).  NULL when out of memory (the run fails). */
static const job_tally *job_tally_at(jobs_model *m, size_t i, double now, job_model **tmp)
{
    const job_slot *js = &m->slots[i];
    *tmp = NULL;
    if (js->ended)
        return &js->u.tally;
    if (js->live)
        return tally_of(js->live, now, &m->scratch_tally);
    *tmp = thaw(m, i, false);
    if (!*tmp) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory summing the jobs");
        return NULL;
    }
    return tally_of(*tmp, now, &m->scratch_tally);
}

/* Aggregates of all jobs (each job's own figures are its /jobs row). */
static void stream_summary(jobs_model *m, dc_sim *sim)
{
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    double *waits = malloc((m->n + 1) * sizeof *waits);
    dc_jobstat_row *acct = malloc((m->n + 1) * sizeof *acct);
    size_t n_acct = 0;
    size_t n_started = 0, n_completed = 0, n_timeout = 0, n_submitted = 0;
    size_t n_end[DC_END_STATES] = {0};
    double end_gpu_s[DC_END_STATES] = {0};
    double wait_sum = 0, turn_sum = 0, run_sum = 0, useful = 0, lost = 0;
    uint64_t preempts = 0, interrupts = 0;
    size_t by_kind[DC_JOB_KINDS] = {0}, by_kind_done[DC_JOB_KINDS] = {0};
    for (size_t i = 0; i < m->n; i++) {
        const job_slot *js = &m->slots[i];
        if (!js->ended && !js->live && js->start_s > now)
            continue; /* never submitted within the run */
        job_model *tmp = NULL;
        const job_tally *t = job_tally_at(m, i, now, &tmp);
        if (!t)
            continue;
        if (t->start_s > now) {
            job_free(tmp);
            continue; /* never submitted within the run */
        }
        n_submitted++;
        by_kind[t->kind]++;
        bool cpu = dc_cluster_job_cpu(m->cluster, js->id); /* a CPU job holds no GPU-hours */
        double wait = t->wait_s, run = t->run_s, held_gpu_s = cpu ? 0.0 : t->held_gpu_s;
        bool done = t->completed;
        if (t->ended) {
            n_end[t->outcome]++;
            end_gpu_s[t->outcome] += held_gpu_s;
        }
        if (acct)
            acct[n_acct++] = (dc_jobstat_row){.wait_s = wait, .gpu_s = held_gpu_s, .gpus = t->gpus_asked,
                                              .pool = t->pool, .user = t->user,
                                              .started = t->started, .completed = done};
        if (waits)
            waits[n_started] = wait;
        if (t->started)
            n_started++;
        else if (waits)
            waits[n_started] = NAN;
        wait_sum += !t->started ? 0.0 : wait;
        run_sum += run;
        n_completed += done;
        by_kind_done[t->kind] += done;
        n_timeout += t->timed_out;
        if (done)
            turn_sum += t->turnaround_s;
        double l = t->lost_gpu_s + t->sdc_lost_gpu_s + t->preempt_lost_gpu_s;
        useful += cpu ? 0.0 : t->done_gpu_s;
        lost += cpu ? 0.0 : l;
        preempts += t->n_preempted;
        interrupts += t->n_interruptions;
        job_free(tmp);
    }
    /* the started jobs' waits sorted once, for the median here and the
     * size classes', pools' and percentiles' of dc_jobstats_summarise_by
     * (the same started jobs: n_started of them) */
    dc_jobstat_wait *by = acct ? malloc((n_acct + 1) * sizeof *by) : NULL;
    size_t n_by = by ? dc_jobstats_by_wait(acct, n_acct, by) : 0;
    if (by && waits) {
        for (size_t i = 0; i < n_by; i++)
            waits[i] = by[i].wait_s;
    } else {
        bool in_order = true; /* a replay without queueing: no sort */
        for (size_t i = 1; waits && i < n_started && in_order; i++)
            in_order = !(waits[i] < waits[i - 1]);
        if (waits && !in_order)
            dc_jobstats_sort(waits, n_started);
    }
    dc_summary_set(s, "jobs.submitted", (double)n_submitted, "", "jobs submitted within the run");
    dc_summary_set(s, "jobs.started", (double)n_started, "", "jobs that got their nodes at least once");
    dc_summary_set(s, "jobs.completed", (double)n_completed, "", "jobs that finished their work");
    dc_summary_set(s, "jobs.timed_out", (double)n_timeout, "", "jobs ended by their maximum run time");
    dc_summary_set(s, "jobs.failed", (double)n_end[DC_END_FAILED], "", "jobs the trace records as failed");
    dc_summary_set(s, "jobs.cancelled", (double)n_end[DC_END_CANCELLED], "", "jobs the trace records as cancelled");
    for (int e = 0; e < DC_END_STATES; e++) {
        static const char *const keys[DC_END_STATES] = {"jobs.completed_gpu_h", "jobs.failed_gpu_h",
                                                        "jobs.cancelled_gpu_h", "jobs.timed_out_gpu_h"};
        static const char *const docs[DC_END_STATES] = {
            "GPU-hours held by the jobs that completed", "GPU-hours held by the jobs that failed",
            "GPU-hours held by the cancelled jobs", "GPU-hours held by the jobs ended by a time limit"};
        dc_summary_set(s, keys[e], end_gpu_s[e] / 3600.0, "GPU-h", docs[e]);
    }
    dc_summary_set(s, "jobs.wait_mean_h", n_started ? wait_sum / n_started / 3600.0 : NAN, "h",
                   "mean time queued of the jobs that started (all their waits)");
    dc_summary_set(s, "jobs.wait_p50_h", waits ? quantile_sorted(waits, n_started, 0.5) / 3600.0 : NAN, "h",
                   "median wait of the jobs that started");
    dc_summary_set(s, "jobs.wait_p95_h", waits ? quantile_sorted(waits, n_started, 0.95) / 3600.0 : NAN, "h",
                   "95th percentile wait of the jobs that started");
    dc_summary_set(s, "jobs.turnaround_mean_h", n_completed ? turn_sum / n_completed / 3600.0 : NAN, "h",
                   "mean time from submission to completion of the completed jobs");
    dc_summary_set(s, "jobs.run_h", run_sum / 3600.0, "h", "time the jobs held nodes, summed");
    dc_summary_set(s, "jobs.preemptions", (double)preempts, "", "evictions (priority and spot reclaims)");
    dc_summary_set(s, "jobs.interruptions", (double)interrupts, "", "failures that interrupted jobs");
    dc_summary_set(s, "jobs.useful_gpu_h", useful / 3600.0, "GPU-h", "work done and kept, all jobs");
    dc_summary_set(s, "jobs.lost_gpu_h", lost / 3600.0, "GPU-h", "work computed then lost, all jobs");
    dc_scheduler *sched = dc_scheduler_of(sim);
    int n_pools = sched ? dc_sched_pool_count(sched) : 0;
    const char **pool_names = calloc((size_t)n_pools + 1, sizeof *pool_names);
    for (int p = 0; pool_names && p < n_pools; p++)
        pool_names[p] = dc_sched_pool_name(sched, p);
    dc_error aerr = {0};
    if (!acct || !by || !pool_names
        || dc_jobstats_summarise_by(s, acct, n_acct, by, n_by, pool_names, n_pools, &aerr) != DC_OK)
        dc_sim_fail(sim, DC_ENOMEM, "out of memory summing the jobs");
    free(pool_names);
    free(by);
    free(acct);
    for (int k = 0; k < DC_JOB_KINDS; k++) {
        if (!by_kind[k])
            continue;
        char key[64];
        snprintf(key, sizeof key, "jobs.%s.submitted", dc_job_kind_names[k]);
        dc_summary_set(s, key, (double)by_kind[k], "", "jobs of this kind submitted");
        snprintf(key, sizeof key, "jobs.%s.completed", dc_job_kind_names[k]);
        dc_summary_set(s, key, (double)by_kind_done[k], "", "jobs of this kind completed");
    }
    free(waits);
}

/* With pools, each pool's jobs' breakdown lines (they sum to the run's). */
static void pool_summary(jobs_model *m, dc_sim *sim)
{
    dc_scheduler *sched = dc_scheduler_of(sim);
    int n_pools = sched ? dc_sched_pool_count(sched) : 0;
    if (n_pools < 2)
        return;
    size_t n_lines = DC_JOBLINES + dc_cluster_speed_source_count(m->cluster);
    double *sum = calloc((size_t)n_pools * n_lines, sizeof *sum);
    if (!sum) {
        dc_sim_fail(sim, DC_ENOMEM, "out of memory summing the pools");
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        const job_slot *js = &m->slots[i];
        dc_job_record r;
        int pool;
        if (js->ended) {
            lines_of(&js->u.tally, r.line_gpu_h);
            pool = js->u.tally.pool;
        } else if (js->live) {
            fill_record(js->live, &r);
            pool = js->live->req.pool;
        } else {
            continue; /* never arrived: every line 0 */
        }
        for (size_t k = 0; k < n_lines; k++)
            sum[(size_t)pool * n_lines + k] += r.line_gpu_h[k];
    }
    dc_summary *s = dc_sim_summary(sim);
    for (int p = 0; p < n_pools; p++)
        for (size_t k = 0; k < n_lines; k++) {
            char key[128];
            const char *line = k < DC_JOBLINES ? dc_jobline_names[k]
                                               : dc_cluster_speed_source_name(m->cluster, (int)(k - DC_JOBLINES));
            /* a pool of CPU-only nodes: its lines in node-hours, none in GPU-hours */
            bool cpu = dc_sched_pool_cpu_type(sched, p) >= 0;
            snprintf(key, sizeof key, "pool.%s.gpu_hours.%s", dc_sched_pool_name(sched, p), line);
            dc_summary_set(s, key, cpu ? 0.0 : sum[(size_t)p * n_lines + k], "GPU-h", "this pool's jobs' line");
            if (!cpu)
                continue;
            snprintf(key, sizeof key, "pool.%s.cpu_node_hours.%s", dc_sched_pool_name(sched, p), line);
            dc_summary_set(s, key, sum[(size_t)p * n_lines + k], "node-h", "this pool's CPU jobs' line");
        }
    free(sum);
}

static void job_finish(void *state, dc_sim *sim)
{
    jobs_model *m = state;
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    double gpn = dc_cluster_gpus_per_node(m->cluster);
    double useful = 0, rb = 0, sdc = 0, pre = 0;
    double held[DC_JOB_PHASES] = {0};
    double slow[DC_MAX_SPEED_SOURCES] = {0};
    /* CPU jobs: the same lines in node-seconds (their unit per node is 1) */
    double c_useful = 0, c_rb = 0, c_sdc = 0, c_pre = 0, c_held[DC_JOB_PHASES] = {0}, c_slow[DC_MAX_SPEED_SOURCES] = {0};
    for (job_model *j = m->live_head; j; j = j->next_live)
        bank(j);
    /* in job order (a job that never arrived adds nothing) */
    for (size_t i = 0; i < m->n; i++) {
        const job_slot *js = &m->slots[i];
        const job_tally *t = js->ended ? &js->u.tally : js->live ? tally_of(js->live, now, &m->scratch_tally) : NULL;
        if (!t)
            continue;
        if (dc_cluster_job_cpu(m->cluster, js->id)) {
            c_useful += t->done_gpu_s;
            c_rb += t->lost_gpu_s;
            c_sdc += t->sdc_lost_gpu_s;
            c_pre += t->preempt_lost_gpu_s;
            for (int st = 0; st < DC_JOB_PHASES; st++)
                c_held[st] += t->held_node_s[st];
            for (size_t k = 0; k < t->n_slow; k++)
                c_slow[k] += t->slow_gpu_s[k];
            continue;
        }
        useful += t->done_gpu_s;
        rb += t->lost_gpu_s;
        sdc += t->sdc_lost_gpu_s;
        pre += t->preempt_lost_gpu_s;
        /* in whole nodes' worth (a share: its GPUs / gpus per node) */
        for (int st = 0; st < DC_JOB_PHASES; st++)
            held[st] += t->gpus_per_node == gpn ? t->held_node_s[st] : t->held_node_s[st] * t->gpus_per_node / gpn;
        for (size_t k = 0; k < t->n_slow; k++)
            slow[k] += t->slow_gpu_s[k];
    }
    /* the rows of the jobs that did not end, in job order */
    for (size_t i = 0; i < m->n; i++) {
        const job_slot *js = &m->slots[i];
        if (js->ended)
            continue;
        if (js->live) {
            write_row(js->live);
            continue;
        }
        job_model *tmp = thaw(m, i, false);
        if (!tmp) {
            dc_sim_fail(sim, DC_ENOMEM, "out of memory for a job's row");
            break;
        }
        write_row(tmp);
        job_free(tmp);
    }
    pool_summary(m, sim);
    if (m->legacy) {
        job_model *j0 = m->slots[0].live ? m->slots[0].live : thaw(m, 0, false);
        if (j0)
            legacy_summary(j0, sim);
        else
            dc_sim_fail(sim, DC_ENOMEM, "out of memory for the job's figures");
        if (j0 != m->slots[0].live)
            job_free(j0);
    }
    bool streams = m->n > (m->legacy ? 1u : 0u); /* jobs beyond the job group */
    if (streams)
        stream_summary(m, sim);

    dc_summary_set(s, "gpu_hours.useful", useful / 3600.0, "GPU-h", "work done and kept");
    dc_summary_set(s, "gpu_hours.rollback", rb / 3600.0, "GPU-h",
                   "work computed, then lost to rollbacks after visible failures");
    dc_summary_set(s, "gpu_hours.corruption", sdc / 3600.0, "GPU-h",
                   "work rolled back because of silent data corruption");
    if (streams)
        dc_summary_set(s, "gpu_hours.preempted", pre / 3600.0, "GPU-h",
                       "work lost to evictions and time limits (since the last checkpoint)");
    dc_summary_set(s, "gpu_hours.detection", held[DC_JOB_DETECTING] * gpn / 3600.0, "GPU-h",
                   "the job's healthy nodes, stalled until a failure is noticed");
    dc_summary_set(s, "gpu_hours.checkpoint", held[DC_JOB_CHECKPOINTING] * gpn / 3600.0, "GPU-h",
                   "writing checkpoints");
    dc_summary_set(s, "gpu_hours.restart", held[DC_JOB_RESTARTING] * gpn / 3600.0, "GPU-h",
                   "restarting after interruptions (and the first start)");
    dc_summary_set(s, "gpu_hours.waiting", held[DC_JOB_WAITING] * gpn / 3600.0, "GPU-h",
                   "healthy nodes held while the job waits for repairs");
    for (size_t i = 0; i < dc_cluster_speed_source_count(m->cluster); i++) {
        char key[64];
        snprintf(key, sizeof key, "gpu_hours.%s", dc_cluster_speed_source_name(m->cluster, (int)i));
        dc_summary_add(s, key, slow[i] / 3600.0, "GPU-h", "computing time lost to this slow-down");
    }
    if (dc_cluster_cpu_node_count(m->cluster) == 0)
        return;
    /* the CPU-only nodes' busy lines (cluster.h: with the cluster's they sum to cpu_node_hours.capacity) */
    dc_summary_set(s, "cpu_node_hours.useful", c_useful / 3600.0, "node-h", "CPU jobs' work done and kept");
    dc_summary_set(s, "cpu_node_hours.rollback", c_rb / 3600.0, "node-h",
                   "CPU jobs' work computed, then lost to rollbacks after failures");
    dc_summary_set(s, "cpu_node_hours.corruption", c_sdc / 3600.0, "node-h",
                   "CPU jobs' work rolled back because of silent data corruption");
    dc_summary_set(s, "cpu_node_hours.preempted", c_pre / 3600.0, "node-h",
                   "CPU jobs' work lost to evictions and time limits");
    dc_summary_set(s, "cpu_node_hours.detection", c_held[DC_JOB_DETECTING] / 3600.0, "node-h",
                   "CPU jobs' healthy nodes, stalled until a failure is noticed");
    dc_summary_set(s, "cpu_node_hours.checkpoint", c_held[DC_JOB_CHECKPOINTING] / 3600.0, "node-h",
                   "CPU jobs writing checkpoints");
    dc_summary_set(s, "cpu_node_hours.restart", c_held[DC_JOB_RESTARTING] / 3600.0, "node-h",
                   "CPU jobs restarting after interruptions (and the first start)");
    dc_summary_set(s, "cpu_node_hours.waiting", c_held[DC_JOB_WAITING] / 3600.0, "node-h",
                   "healthy nodes held while a CPU job waits for repairs");
    for (size_t i = 0; i < dc_cluster_speed_source_count(m->cluster); i++) {
        char key[64];
        snprintf(key, sizeof key, "cpu_node_hours.%s", dc_cluster_speed_source_name(m->cluster, (int)i));
        dc_summary_add(s, key, c_slow[i] / 3600.0, "node-h", "CPU jobs' computing time lost to this slow-down");
    }
}

static void job_destroy(void *state)
{
    jobs_model *m = state;
    while (m->live_head)
        job_free(m->live_head);
    while (m->spare) {
        job_model *j = m->spare;
        m->spare = j->next_live;
        free(j->by_class);
        free(j);
    }
    for (size_t i = 0; m->slots && i < m->n; i++)
        if (m->slots[i].ended)
            free(m->slots[i].u.tally.slow_gpu_s);
    free(m->slots);
    for (size_t i = 0; i < m->n_plans; i++)
        free(m->plans[i]);
    free(m->plans);
    while (m->names) {
        name_block *b = m->names;
        m->names = b->next;
        free(b);
    }
    free(m->by_id);
    free(m->class_names);
    free(m->span_mark);
    dc_jobtable_destroy(m->table);
}

const dc_model_type dc_model_job = {
    .name = "job",
    .state_size = sizeof(jobs_model),
    .params = dc_job_params,
    .init = job_init,
    .start = job_start,
    .finish = job_finish,
    .destroy = job_destroy,
};
