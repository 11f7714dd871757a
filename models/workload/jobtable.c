/* The /jobs table: its columns, and one row from a job's record.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "jobtable.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    size_t off[N_FIXED], line_off[DC_JOBLINES + DC_MAX_SPEED_SOURCES]; /* the cells' offsets in a row */
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
    for (int i = 0; i < N_FIXED; i++)
        jt->off[i] = dc_rowtable_column_offset(t, (size_t)jt->col[i]);
    for (size_t i = 0; i < jt->n_lines; i++)
        jt->line_off[i] = dc_rowtable_column_offset(t, (size_t)jt->line[i]);
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

/* The cells written in place (dc_rowtable_row: the row starts blank,
 * every cell here set once), the bytes dc_rowtable_set_* would leave. */
static void put_f8(unsigned char *row, size_t off, double v) { memcpy(row + off, &v, sizeof v); }
static void put_i4(unsigned char *row, size_t off, int32_t v) { memcpy(row + off, &v, sizeof v); }
static void put_str(unsigned char *row, size_t off, int col, const char *v)
{
    if (v)
        memcpy(row + off, v, strnlen(v, fixed[col].len));
}

void dc_jobtable_write(dc_jobtable *jt, const dc_job_record *r)
{
    unsigned char *row = dc_rowtable_row(jt->t);
    const size_t *o = jt->off;
    put_i4(row, o[C_JOB], r->id);
    put_str(row, o[C_NAME], C_NAME, r->name);
    put_str(row, o[C_CLASS], C_CLASS, r->class_name);
    put_str(row, o[C_KIND], C_KIND, r->kind);
    put_str(row, o[C_POOL], C_POOL, r->pool);
    put_str(row, o[C_USER], C_USER, r->user);
    put_i4(row, o[C_NODES], (int32_t)r->nodes);
    put_i4(row, o[C_GPUS], (int32_t)r->gpus);
    put_i4(row, o[C_RACKS], (int32_t)r->racks);
    put_i4(row, o[C_PODS], (int32_t)r->pods);
    put_f8(row, o[C_SUBMIT], hours(r->submit_s));
    put_f8(row, o[C_START], hours(r->start_s));
    put_f8(row, o[C_END], hours(r->end_s));
    put_f8(row, o[C_WAIT], hours(r->wait_s));
    put_f8(row, o[C_RUN], hours(r->run_s));
    put_str(row, o[C_STATE], C_STATE, r->state);
    put_i4(row, o[C_INTERRUPTIONS], (int32_t)r->interruptions);
    put_i4(row, o[C_PREEMPTIONS], (int32_t)r->preemptions);
    put_i4(row, o[C_CHECKPOINTS], (int32_t)r->checkpoints);
    put_f8(row, o[C_CKPT_WRITE], r->ckpt_write_s);
    put_i4(row, o[C_RESIZES], (int32_t)r->resizes);
    put_f8(row, o[C_MEAN_NODES], r->mean_nodes);
    put_f8(row, o[C_STEP], r->mean_step_s);
    put_f8(row, o[C_COMM], r->comm_share);
    put_f8(row, o[C_TOTAL], r->total_gpu_h);
    for (size_t i = 0; i < jt->n_lines; i++)
        put_f8(row, jt->line_off[i], r->line_gpu_h[i]);
    dc_rowtable_commit(jt->t);
}
