/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */
#include "job.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkpoint.h"
#include "cluster.h"

const dc_param dc_job_params[] = {
    {"job", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "the training job"},
    {"job.name", DC_PARAM_STRING, 0, "", 0, "job", 0, 0, NULL, "a name for reports"},
    {"job.nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "nodes", 0, NULL, 1, 1e7, NULL,
     "nodes the job runs on (at most cluster.nodes + cluster.spare_nodes)"},
    {"job.work_gpu_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "GPU-h", 0, NULL, 0, 1e15,
     NULL, "work at the full rate of one GPU (instead of params and tokens)"},
    {"job.params", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1e16, NULL,
     "model parameters"},
    {"job.tokens", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1e18, NULL,
     "training tokens"},
    {"job.flop_per_param_token", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "FLOP", 6, NULL, 0, 1e3, NULL,
     "FLOP per parameter per token (6 for dense forward + backward)"},
    {"job.gpu_peak_tflops", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "TFLOP/s", 989, NULL, 0, 1e6, NULL,
     "peak dense throughput of one GPU (H100 SXM bf16: 989)"},
    {"job.mfu", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 0.4, NULL, 0, 1, NULL,
     "model FLOP utilisation while computing"},
    {"job.restart_s", DC_PARAM_FLOAT, 0, "s", 600, NULL, 0, 1e7, NULL,
     "time from an interruption noticed (with nodes available) to computing again"},
    {"job.start_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e10, NULL, "when the job is submitted"},
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

typedef struct job_model {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_eventlog *log;
    int32_t id;
    char name[64];
    uint32_t nodes_needed, nodes_held, gpus_per_node;
    double work_total_gpu_s, restart_s, start_s;
    bool stop_when_done;
    dc_checkpoint_plan ckpt;
    dc_mtbi_estimator est;

    dc_job_phase state;
    double state_since_s;
    /* Speed factors in force since state_since_s (the cluster's may have just changed). */
    double speed[DC_MAX_SPEED_SOURCES];
    size_t n_speed;
    double slow_gpu_s[DC_MAX_SPEED_SOURCES];
    dc_event_handle milestone;
    dc_event_handle detect_ev;
    double detect_at_s;

    double done_gpu_s;          /* work done, including work not yet checkpointed */
    double committed_gpu_s;     /* work saved by the checkpoint a restart reads */
    double committed_capture_s; /* when that state was captured (-inf: the start) */
    double capture_s;           /* capture time of the checkpoint being written */
    double run_since_ckpt_s;    /* compute time since the last checkpoint */
    double lost_gpu_s;
    double completion_s;

    /* Kept checkpoints, a ring of ckpt.retain, oldest first from kept_head. */
    kept_ckpt *kept;
    size_t kept_head, n_kept;

    /* Silent corruptions not yet found. */
    corruption *pend;
    size_t n_pend, cap_pend;
    uint64_t next_corruption_id;
    bool sdc_armed;
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

    dc_series *series_state, *series_progress;
} job_model;

/* Full rate: GPU-seconds of work per second with every GPU at full speed. */
static double rate(const job_model *j)
{
    return (double)j->nodes_needed * j->gpus_per_node;
}

static double speed(const job_model *j)
{
    double f = 1.0;
    for (size_t i = 0; i < j->n_speed; i++)
        f *= j->speed[i];
    return f;
}

static bool computing(const job_model *j)
{
    return j->state == DC_JOB_RESTARTING || j->state == DC_JOB_RUNNING || j->state == DC_JOB_CHECKPOINTING;
}

/* Accounts the time since the last change to the current state. */
static void bank(job_model *j)
{
    double now = dc_sim_now(j->sim);
    double dt = now - j->state_since_s;
    if (dt > 0.0) {
        j->held_node_s[j->state] += dt * j->nodes_held;
        j->time_s[j->state] += dt;
        if (j->state == DC_JOB_RUNNING) {
            double full = dt * rate(j), f = 1.0;
            for (size_t i = 0; i < j->n_speed; i++) {
                j->slow_gpu_s[i] += full * f * (1.0 - j->speed[i]);
                f *= j->speed[i];
            }
            j->done_gpu_s += full * f;
            j->run_since_ckpt_s += dt;
        }
    }
    j->state_since_s = now;
}

static void set_state(job_model *j, dc_job_phase s)
{
    bank(j);
    j->state = s;
    dc_cluster_set_job_phase(j->cluster, j->id, s);
    double now = dc_sim_now(j->sim);
    dc_series_record(j->series_state, now, (double)s);
    dc_series_record(j->series_progress, now, j->done_gpu_s / j->work_total_gpu_s);
}

static void on_milestone(dc_sim *sim, void *ctx, uint64_t arg);
static void on_restarted(dc_sim *sim, void *ctx, uint64_t arg);

static void refresh_interval(job_model *j)
{
    if (!j->ckpt.enabled || j->ckpt.policy == DC_CHECKPOINT_FIXED || !j->ckpt.observed)
        return;
    double m = dc_mtbi_estimator_mtbi_s(&j->est, dc_sim_now(j->sim));
    j->ckpt.interval_s = dc_checkpoint_optimum_s(&j->ckpt, m);
}

static void schedule_next(job_model *j)
{
    /* A speed change published while the job enters RUNNING (a subscriber
     * of "job_phase" may set a factor at once) must not leave two milestones. */
    dc_sim_cancel(j->sim, &j->milestone);
    refresh_interval(j);
    double eff = rate(j) * speed(j);
    double to_done = eff > 0.0 ? (j->work_total_gpu_s - j->done_gpu_s) / eff : INFINITY;
    double to_ckpt = j->ckpt.enabled ? j->ckpt.interval_s - j->run_since_ckpt_s : INFINITY;
    if (to_ckpt < 0.0)
        to_ckpt = 0.0;
    /* Finishing exactly at a checkpoint boundary finishes (no last write);
     * the tolerance absorbs rounding in the banked work. */
    if (!isfinite(to_done) && !isfinite(to_ckpt))
        return; /* stopped (speed 0, no checkpoints): a speed change reschedules */
    j->milestone = to_done <= to_ckpt + 1e-9 * (1.0 + to_ckpt) ? dc_sim_after(j->sim, to_done, on_milestone, j, 0)
                                                                : dc_sim_after(j->sim, to_ckpt, on_milestone, j, 1);
}

/* Takes idle nodes until the job has all it needs; then restarts. */
static void acquire(job_model *j)
{
    uint32_t node;
    while (j->nodes_held < j->nodes_needed && dc_cluster_take_idle(j->cluster, j->id, &node)) {
        bank(j);
        j->nodes_held++;
    }
    if (j->nodes_held < j->nodes_needed) {
        if (j->state != DC_JOB_WAITING)
            set_state(j, DC_JOB_WAITING);
        return;
    }
    set_state(j, DC_JOB_RESTARTING);
    j->milestone = dc_sim_after(j->sim, j->restart_s, on_restarted, j, 0);
}

static void on_start(dc_sim *sim, void *ctx, uint64_t arg)
{
    acquire(ctx);
}

static void on_restarted(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    set_state(j, DC_JOB_RUNNING);
    dc_eventlog_add(j->log, dc_sim_now(sim), "job_running", "", -1, j->id, 0.0);
    schedule_next(j);
}

static void release_all(job_model *j)
{
    /* The cluster knows which nodes are the job's. */
    uint32_t n = dc_cluster_node_count(j->cluster);
    for (uint32_t i = 0; i < n && j->nodes_held > 0; i++)
        if (dc_cluster_node_job(j->cluster, i) == j->id && dc_cluster_node_state(j->cluster, i) == DC_NODE_BUSY) {
            bank(j);
            j->nodes_held--;
            dc_cluster_release(j->cluster, i);
        }
}

static kept_ckpt *kept_at(job_model *j, size_t k)
{
    return &j->kept[(j->kept_head + k) % (size_t)j->ckpt.retain];
}

static void on_ckpt_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    set_state(j, DC_JOB_RUNNING);
    j->committed_gpu_s = j->done_gpu_s;
    j->committed_capture_s = j->capture_s;
    if (j->ckpt.retain > 0) {
        if (j->n_kept == (size_t)j->ckpt.retain) {
            j->kept_head = (j->kept_head + 1) % (size_t)j->ckpt.retain;
            j->n_kept--;
        }
        *kept_at(j, j->n_kept++) = (kept_ckpt){j->capture_s, j->done_gpu_s};
    }
    j->run_since_ckpt_s = 0.0;
    j->n_checkpoints++;
    dc_eventlog_add(j->log, dc_sim_now(sim), "checkpoint", "", -1, j->id, j->ckpt.write_s);
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

static void on_milestone(dc_sim *sim, void *ctx, uint64_t is_ckpt)
{
    job_model *j = ctx;
    j->milestone = DC_EVENT_NONE;
    if (is_ckpt) {
        set_state(j, DC_JOB_CHECKPOINTING);
        j->capture_s = dc_sim_now(sim);
        j->n_ckpt_started++;
        j->interval_sum_s += j->ckpt.interval_s;
        j->milestone = dc_sim_after(sim, j->ckpt.write_s, on_ckpt_done, j, 0);
        return;
    }
    set_state(j, DC_JOB_DONE);
    j->done_gpu_s = j->committed_gpu_s = j->work_total_gpu_s;
    j->completion_s = dc_sim_now(sim);
    dc_eventlog_add(j->log, j->completion_s, "job_done", "", -1, j->id, j->completion_s - j->start_s);
    /* Corruption still hidden went out with the result. */
    j->n_sdc_undetected += j->n_pend;
    cancel_corruptions(j, -INFINITY);
    release_all(j);
    if (j->stop_when_done)
        dc_sim_stop(sim);
}

/* Rolls the work back to the checkpoint a restart reads (or, when a
 * corruption rollback is armed, to its target); returns the work lost. */
static double rollback(job_model *j)
{
    double target = j->committed_gpu_s, capture = j->committed_capture_s;
    bool sdc = j->sdc_armed;
    if (sdc) {
        target = j->sdc_target_gpu_s;
        capture = j->sdc_target_capture_s;
        j->sdc_armed = false;
    }
    double lost = j->done_gpu_s - target;
    if (sdc)
        j->sdc_lost_gpu_s += lost;
    else
        j->lost_gpu_s += lost;
    j->done_gpu_s = j->committed_gpu_s = target;
    j->committed_capture_s = capture;
    j->run_since_ckpt_s = 0.0;
    cancel_corruptions(j, capture);
    return lost;
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
    dc_sim_cancel(j->sim, &j->milestone);
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

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    job_model *j = ctx;
    const dc_failure_event *ev = payload;
    bool hit = ev->job == j->id;
    int32_t first = -1;
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (dc_cluster_node_job(j->cluster, ev->nodes[i]) == j->id) {
            if (!hit)
                first = (int32_t)ev->nodes[i];
            hit = true;
            bank(j);
            j->nodes_held--;
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
        /* Already stalled; a failure reported sooner ends the stall sooner. */
        if (dc_sim_now(sim) + ev->detect_s < j->detect_at_s) {
            dc_sim_cancel(sim, &j->detect_ev);
            j->detect_at_s = dc_sim_now(sim) + ev->detect_s;
            j->detect_ev = dc_sim_after(sim, ev->detect_s, on_detected, j, 0);
        }
        break;
    case DC_JOB_WAITING:
        acquire(j); /* it was not computing: no interruption, just fewer nodes */
        break;
    case DC_JOB_PENDING:
    case DC_JOB_DONE:
        break;
    }
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
    if (!j->sdc_armed)
        return;
    if (computing(j))
        stall(j, p.class_id, p.node, 0.0);
    else if (j->state != DC_JOB_DONE)
        rollback(j); /* stalled or waiting: the restart will read the clean checkpoint */
    else
        j->sdc_armed = false;
}

static void on_corruption(dc_sim *sim, void *ctx, const void *payload)
{
    job_model *j = ctx;
    const dc_corruption_event *ev = payload;
    if (ev->job != j->id || !dc_cluster_job_active(j->cluster, j->id))
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

static void on_speed(dc_sim *sim, void *ctx, const void *payload)
{
    job_model *j = ctx;
    const dc_job_event *ev = payload;
    if (ev->job != j->id)
        return;
    bank(j); /* at the old speed, up to now */
    j->n_speed = dc_cluster_speed_source_count(j->cluster);
    for (size_t i = 0; i < j->n_speed; i++)
        j->speed[i] = dc_cluster_job_speed_factor(j->cluster, j->id, (int)i);
    if (j->state == DC_JOB_RUNNING) {
        dc_sim_cancel(sim, &j->milestone);
        schedule_next(j);
    }
}

static void on_node_idle(dc_sim *sim, void *ctx, const void *payload)
{
    job_model *j = ctx;
    if (j->state == DC_JOB_WAITING)
        acquire(j);
}

static bool any_corrupting_class(const dc_scenario *sc, const char **name)
{
    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    for (int i = 0; list && i < config_setting_length(list); i++) {
        const char *mode = "stop";
        config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        config_setting_lookup_string(g, "mode", &mode);
        if (strcmp(mode, "corrupt") == 0) {
            config_setting_lookup_string(g, "name", name);
            return true;
        }
    }
    return false;
}

static int job_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    job_model *j = state;
    j->sim = sim;
    j->cluster = dc_cluster_of(sim);
    j->log = dc_sim_eventlog(sim);
    config_setting_t *g = dc_scenario_lookup(sc, "job");
    const char *name = "job";
    config_setting_lookup_string(g, "name", &name);
    snprintf(j->name, sizeof j->name, "%s", name);
    int nodes = 0;
    config_setting_lookup_int(g, "nodes", &nodes);
    j->gpus_per_node = dc_cluster_gpus_per_node(j->cluster);
    if ((uint32_t)nodes > dc_cluster_node_count(j->cluster))
        return dc_scenario_error_at(sc, config_setting_get_member(g, "nodes"), err,
                                    "the job needs %d nodes but the cluster has %u (nodes + spare_nodes)", nodes,
                                    dc_cluster_node_count(j->cluster));
    j->nodes_needed = (uint32_t)nodes;

    double work_h, params = 0, tokens, fpt = 6, peak = 989, mfu = 0.4;
    bool has_work = config_setting_lookup_float(g, "work_gpu_h", &work_h);
    bool has_params = config_setting_lookup_float(g, "params", &params);
    bool has_tokens = config_setting_lookup_float(g, "tokens", &tokens);
    config_setting_lookup_float(g, "flop_per_param_token", &fpt);
    config_setting_lookup_float(g, "gpu_peak_tflops", &peak);
    config_setting_lookup_float(g, "mfu", &mfu);
    if (has_work && has_tokens)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "work_gpu_h"), err,
                                    "give either work_gpu_h or params and tokens, not both");
    if (has_work) {
        j->work_total_gpu_s = work_h * 3600.0;
    } else if (has_params && has_tokens) {
        j->work_total_gpu_s = fpt * params * tokens / (peak * 1e12 * mfu);
    } else {
        return dc_scenario_error_at(sc, g, err, "give the job's work: work_gpu_h, or params and tokens");
    }
    config_setting_lookup_float(g, "restart_s", &j->restart_s);
    config_setting_lookup_float(g, "start_s", &j->start_s);
    int stop = 1;
    config_lookup_bool(dc_scenario_config(sc), "stop_when_done", &stop);
    j->stop_when_done = stop;

    int rc = dc_checkpoint_plan_read(sc, params, &j->ckpt, err);
    if (rc != DC_OK)
        return rc;
    const char *sdc_class = NULL;
    if (any_corrupting_class(sc, &sdc_class)) {
        config_setting_t *ck = dc_scenario_lookup(sc, "checkpoint");
        if (!ck)
            return dc_scenario_error_at(sc, NULL, err,
                                        "failure class \"%s\" corrupts silently, which needs checkpoints to roll "
                                        "back to: add a checkpoint group with retain >= 1",
                                        sdc_class);
        if (j->ckpt.retain == 0)
            return dc_scenario_error_at(sc, config_setting_get_member(ck, "retain"), err,
                                        "0 checkpoints kept, but failure class \"%s\" corrupts silently: rolling "
                                        "back past a corruption needs a checkpoint taken before it (keep 1 or more; "
                                        "2 or more survive a corruption found after the next checkpoint)",
                                        sdc_class);
    }
    if (j->ckpt.retain > 0) {
        j->kept = malloc((size_t)j->ckpt.retain * sizeof *j->kept);
        if (!j->kept)
            return dc_error_set(err, DC_ENOMEM, "out of memory for %d kept checkpoints", j->ckpt.retain);
    }

    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    j->n_classes = list ? (size_t)config_setting_length(list) : 0;
    j->by_class = calloc(j->n_classes + 1, sizeof *j->by_class);
    j->class_names = calloc(j->n_classes + 1, sizeof *j->class_names);
    if (!j->by_class || !j->class_names)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < j->n_classes; i++) {
        const char *cn = "";
        config_setting_lookup_string(config_setting_get_elem(list, (unsigned)i), "name", &cn);
        snprintf(j->class_names[i], sizeof j->class_names[i], "%s", cn);
    }

    j->id = dc_cluster_add_job(j->cluster, j->nodes_needed);
    int sig_fail = dc_sim_signal(sim, "failure");
    int sig_idle = dc_sim_signal(sim, "node_idle");
    int sig_speed = dc_sim_signal(sim, "job_speed");
    int sig_corrupt = dc_sim_signal(sim, "corruption");
    j->series_state = dc_sim_series(sim, "job_state", "",
                                    "0 pending, 1 waiting, 2 restarting, 3 running, 4 checkpointing, 5 done, "
                                    "6 detecting");
    j->series_progress = dc_sim_series(sim, "job_progress", "", "fraction of the job's work done");
    if (j->id < 0 || sig_fail < 0 || sig_idle < 0 || sig_corrupt < 0 || !j->series_state || !j->series_progress
        || dc_sim_subscribe(sim, sig_fail, on_failure, j) != DC_OK
        || dc_sim_subscribe(sim, sig_idle, on_node_idle, j) != DC_OK || sig_speed < 0
        || dc_sim_subscribe(sim, sig_speed, on_speed, j) != DC_OK
        || dc_sim_subscribe(sim, sig_corrupt, on_corruption, j) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int job_start(void *state, dc_sim *sim, dc_error *err)
{
    job_model *j = state;
    /* Every speed source registered at init; all start at full speed. */
    j->n_speed = dc_cluster_speed_source_count(j->cluster);
    for (size_t i = 0; i < j->n_speed; i++)
        j->speed[i] = dc_cluster_job_speed_factor(j->cluster, j->id, (int)i);
    double hazard = dc_cluster_job_hazard(j->cluster, j->nodes_needed);
    double configured_mtbi_s = hazard > 0 ? 1.0 / hazard : INFINITY;
    dc_checkpoint_plan_resolve(&j->ckpt, configured_mtbi_s);
    double prior_mtbi_s = isnan(j->ckpt.prior_mtbi_s) ? configured_mtbi_s : j->ckpt.prior_mtbi_s;
    dc_mtbi_estimator_init(&j->est, prior_mtbi_s, j->ckpt.prior_s, j->ckpt.window_s, j->start_s);
    j->committed_capture_s = -INFINITY;
    j->state = DC_JOB_PENDING;
    dc_series_record(j->series_state, 0.0, (double)DC_JOB_PENDING);
    dc_series_record(j->series_progress, 0.0, 0.0);
    dc_sim_at(sim, j->start_s, on_start, j, 0);
    return DC_OK;
}

static void job_finish(void *state, dc_sim *sim)
{
    job_model *j = state;
    bank(j);
    dc_summary *s = dc_sim_summary(sim);
    double gpn = j->gpus_per_node;
    double now = dc_sim_now(sim);
    bool done = j->state == DC_JOB_DONE;
    double end = done ? j->completion_s : now;
    double span = end > j->start_s ? end - j->start_s : 0.0;
    double job_gpu_s = span * rate(j);
    double useful_gpu_s = j->done_gpu_s;

    dc_summary_set(s, "job.gpus", rate(j), "GPUs", "GPUs the job runs on");
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
    dc_summary_set(s, "job.ideal_days", j->work_total_gpu_s / rate(j) / 86400.0, "days",
                   "time to finish with no failure and no checkpoint");
    dc_summary_set(s, "job.interruptions", (double)j->n_interruptions, "", "interruptions of the job");
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
                   "time to write one checkpoint");
    double hazard = dc_cluster_job_hazard(j->cluster, j->nodes_needed);
    dc_summary_set(s, "job.expected_mtbi_h", hazard > 0 ? 1.0 / hazard / 3600.0 : NAN, "h",
                   "mean time between interruptions expected from the failure rates");
    double est_s = dc_mtbi_estimator_mtbi_s(&j->est, end);
    dc_summary_set(s, "job.observed_mtbi_h", isfinite(est_s) ? est_s / 3600.0 : NAN, "h",
                   "moving estimate of the time between interruptions at the end (checkpoint.window_h, prior_h)");
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
            dc_summary_set(s, time_keys[st], j->time_s[st] / 3600.0, "h", state_names[st]);

    dc_summary_set(s, "gpu_hours.useful", useful_gpu_s / 3600.0, "GPU-h", "work done and kept");
    dc_summary_set(s, "gpu_hours.rollback", j->lost_gpu_s / 3600.0, "GPU-h",
                   "work computed, then lost to rollbacks after visible failures");
    dc_summary_set(s, "gpu_hours.corruption", j->sdc_lost_gpu_s / 3600.0, "GPU-h",
                   "work rolled back because of silent data corruption");
    dc_summary_set(s, "gpu_hours.detection", j->held_node_s[DC_JOB_DETECTING] * gpn / 3600.0, "GPU-h",
                   "the job's healthy nodes, stalled until a failure is noticed");
    dc_summary_set(s, "gpu_hours.checkpoint", j->held_node_s[DC_JOB_CHECKPOINTING] * gpn / 3600.0, "GPU-h",
                   "writing checkpoints");
    dc_summary_set(s, "gpu_hours.restart", j->held_node_s[DC_JOB_RESTARTING] * gpn / 3600.0, "GPU-h",
                   "restarting after interruptions (and the first start)");
    dc_summary_set(s, "gpu_hours.waiting", j->held_node_s[DC_JOB_WAITING] * gpn / 3600.0, "GPU-h",
                   "healthy nodes held while the job waits for repairs");
    for (size_t i = 0; i < dc_cluster_speed_source_count(j->cluster); i++) {
        char key[64];
        snprintf(key, sizeof key, "gpu_hours.%s", dc_cluster_speed_source_name(j->cluster, (int)i));
        dc_summary_add(s, key, j->slow_gpu_s[i] / 3600.0, "GPU-h", "computing time lost to this slow-down");
    }
}

static void job_destroy(void *state)
{
    job_model *j = state;
    free(j->by_class);
    free(j->class_names);
    free(j->kept);
    free(j->pend);
    dc_mtbi_estimator_free(&j->est);
}

const dc_model_type dc_model_job = {
    .name = "job",
    .state_size = sizeof(job_model),
    .params = dc_job_params,
    .init = job_init,
    .start = job_start,
    .finish = job_finish,
    .destroy = job_destroy,
};
