/* The /jobs table: its columns, and one row from a job's record.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "jobtable.h"

#include <stdio.h>
#include <stdlib.h>

const char *const dc_jobline_names[DC_JOBLINES] = {"useful",    "rollback",   "corruption", "preempted",
                                                   "detection", "checkpoint", "restart",    "waiting"};

enum {
    C_JOB, C_NAME, C_CLASS, C_KIND, C_POOL, C_USER, C_NODES, C_GPUS, C_RACKS, C_PODS, C_SUBMIT, C_START, C_END,
    C_WAIT, C_RUN, C_STATE, C_INTERRUPTIONS, C_PREEMPTIONS, C_CHECKPOINTS, C_CKPT_WRITE, C_RESIZES, C_MEAN_NODES, C_STEP, C_COMM, C_TOTAL, N_FIXED
};

struct dc_jobtable {
    dc_rowtable *t;
    int col[N_FIXED];
    int line[DC_JOBLINES + DC_MAX_SPEED_SOURCES];
    size_t n_lines;
};

typedef struct coldef {
    const char *name;
    dc_rowcol_type type;
    size_t len;
    const char *unit, *doc;
} coldef;

static const coldef fixed[N_FIXED] = {
    {"job", DC_ROWCOL_I4, 0, "", "cluster job id (the job column of /events)"},
    {"name", DC_ROWCOL_STR, 48, "", "the job's name"},
    {"class", DC_ROWCOL_STR, 32, "", "its class (job_classes), empty if none"},
    {"kind", DC_ROWCOL_STR, 16, "", "training, fine_tuning, evaluation or batch_inference"},
    {"pool", DC_ROWCOL_STR, 32, "", "scheduler pool"},
    {"user", DC_ROWCOL_STR, 32, "", "user or team, empty if none"},
    {"nodes", DC_ROWCOL_I4, 0, "nodes", "nodes it needs"},
    {"gpus", DC_ROWCOL_I4, 0, "GPUs", "GPUs it runs on"},
    {"racks", DC_ROWCOL_I4, 0, "racks", "racks its first allocation spanned (0: never started)"},
    {"pods", DC_ROWCOL_I4, 0, "pods", "network pods its first allocation spanned (0: never started)"},
    {"submit_h", DC_ROWCOL_F8, 0, "h", "submission"},
    {"start_h", DC_ROWCOL_F8, 0, "h", "first start (NaN: never started)"},
    {"end_h", DC_ROWCOL_F8, 0, "h", "end: completion, time limit or the trace's end state (NaN: not ended)"},
    {"wait_h", DC_ROWCOL_F8, 0, "h", "time queued, all its waits"},
    {"run_h", DC_ROWCOL_F8, 0, "h", "time holding nodes"},
    {"state", DC_ROWCOL_STR, 16, "",
     "completed, failed, cancelled, time_limit, unfinished, held (unfinished, stopped at speed 0 at the end) or "
     "not_submitted"},
    {"interruptions", DC_ROWCOL_I4, 0, "", "failures that interrupted it"},
    {"preemptions", DC_ROWCOL_I4, 0, "", "evictions (priority, spot reclaims)"},
    {"checkpoints", DC_ROWCOL_I4, 0, "", "checkpoints completed"},
    {"checkpoint_write_s", DC_ROWCOL_F8, 0, "s",
     "mean time of its blocking checkpoint writes to a storage tier, latency included (NaN: none)"},
    {"resizes", DC_ROWCOL_I4, 0, "", "elastic: times it changed size (0: rigid, or never short)"},
    {"mean_nodes", DC_ROWCOL_F8, 0, "nodes", "nodes it computed on, averaged over its running time (NaN: never ran)"},
    {"mean_step_s", DC_ROWCOL_F8, 0, "s", "running time / steps computed (NaN: no step-time model)"},
    {"comm_share", DC_ROWCOL_F8, 0, "", "exposed communication / running GPU-hours"},
    {"gpu_hours.total", DC_ROWCOL_F8, 0, "GPU-h", "GPU-hours it held nodes (the sum of its gpu_hours lines)"},
};

dc_jobtable *dc_jobtable_create(dc_sim *sim, dc_cluster *c)
{
    dc_rowtable *t = dc_rowtable_set_get(dc_sim_tables(sim), "jobs", "one row per job (models/workload/jobtable.h)");
    dc_jobtable *jt = t ? calloc(1, sizeof *jt) : NULL;
    if (!jt)
        return NULL;
    jt->t = t;
    bool ok = true;
    for (int i = 0; i < N_FIXED && ok; i++)
        ok = (jt->col[i] = dc_rowtable_add_column(t, fixed[i].name, fixed[i].type, fixed[i].len, fixed[i].unit,
                                                  fixed[i].doc)) >= 0;
    jt->n_lines = DC_JOBLINES + dc_cluster_speed_source_count(c);
    for (size_t i = 0; i < jt->n_lines && ok; i++) {
        char name[48];
        snprintf(name, sizeof name, "gpu_hours.%s",
                 i < DC_JOBLINES ? dc_jobline_names[i] : dc_cluster_speed_source_name(c, (int)(i - DC_JOBLINES)));
        ok = (jt->line[i] = dc_rowtable_add_column(t, name, DC_ROWCOL_F8, 0, "GPU-h",
                                                   i < DC_JOBLINES ? "breakdown line" : "lost to this slow-down")) >= 0;
    }
    if (!ok) {
        free(jt);
        return NULL;
    }
    return jt;
}

void dc_jobtable_destroy(dc_jobtable *jt)
{
    free(jt);
}

static double hours(double s)
{
    return s / 3600.0;
}

void dc_jobtable_write(dc_jobtable *jt, const dc_job_record *r)
{
    dc_rowtable *t = jt->t;
    const int *c = jt->col;
    dc_rowtable_set_i4(t, c[C_JOB], r->id);
    dc_rowtable_set_str(t, c[C_NAME], r->name);
    dc_rowtable_set_str(t, c[C_CLASS], r->class_name);
    dc_rowtable_set_str(t, c[C_KIND], r->kind);
    dc_rowtable_set_str(t, c[C_POOL], r->pool);
    dc_rowtable_set_str(t, c[C_USER], r->user);
    dc_rowtable_set_i4(t, c[C_NODES], (int32_t)r->nodes);
    dc_rowtable_set_i4(t, c[C_GPUS], (int32_t)r->gpus);
    dc_rowtable_set_i4(t, c[C_RACKS], (int32_t)r->racks);
    dc_rowtable_set_i4(t, c[C_PODS], (int32_t)r->pods);
    dc_rowtable_set_f8(t, c[C_SUBMIT], hours(r->submit_s));
    dc_rowtable_set_f8(t, c[C_START], hours(r->start_s));
    dc_rowtable_set_f8(t, c[C_END], hours(r->end_s));
    dc_rowtable_set_f8(t, c[C_WAIT], hours(r->wait_s));
    dc_rowtable_set_f8(t, c[C_RUN], hours(r->run_s));
    dc_rowtable_set_str(t, c[C_STATE], r->state);
    dc_rowtable_set_i4(t, c[C_INTERRUPTIONS], (int32_t)r->interruptions);
    dc_rowtable_set_i4(t, c[C_PREEMPTIONS], (int32_t)r->preemptions);
    dc_rowtable_set_i4(t, c[C_CHECKPOINTS], (int32_t)r->checkpoints);
    dc_rowtable_set_f8(t, c[C_CKPT_WRITE], r->ckpt_write_s);
    dc_rowtable_set_i4(t, c[C_RESIZES], (int32_t)r->resizes);
    dc_rowtable_set_f8(t, c[C_MEAN_NODES], r->mean_nodes);
    dc_rowtable_set_f8(t, c[C_STEP], r->mean_step_s);
    dc_rowtable_set_f8(t, c[C_COMM], r->comm_share);
    dc_rowtable_set_f8(t, c[C_TOTAL], r->total_gpu_h);
    for (size_t i = 0; i < jt->n_lines; i++)
        dc_rowtable_set_f8(t, jt->line[i], r->line_gpu_h[i]);
    dc_rowtable_commit(t);
}
