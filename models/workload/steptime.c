/* The step-time model: compute, pipeline bubble, exposed communication and data stall of a step.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "steptime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "fabric/collective.h"
#include "fabric/network.h"
#include "fabric/storage.h"
#include "job.h"
#include "jobclass.h"

const dc_param dc_steptime_params[] = {
    {"parallelism", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "the step-time model (needs a network; job.mfu then means kernel efficiency); absent: constant job rate"},
    {"parallelism.tensor", DC_PARAM_INT, 0, "", 1, NULL, 1, 1e6, NULL, "tensor-parallel degree t"},
    {"parallelism.pipeline", DC_PARAM_INT, 0, "", 1, NULL, 1, 1e6, NULL, "pipeline-parallel degree p (stages)"},
    {"parallelism.data", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 1, 1e9, NULL,
     "data-parallel degree d (default: the job's GPUs / (t p)); t p d must equal the job's GPUs"},
    {"parallelism.global_batch_tokens", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "tokens", 0, NULL,
     0, 1e15, NULL, "tokens per optimizer step (global batch)"},
    {"parallelism.seq_len", DC_PARAM_INT, 0, "tokens", 4096, NULL, 1, 1e9, NULL, "sequence length"},
    {"parallelism.micro_batch", DC_PARAM_INT, 0, "sequences", 1, NULL, 1, 1e9, NULL, "sequences per micro-batch"},
    {"parallelism.virtual_stages", DC_PARAM_INT, 0, "", 1, NULL, 1, 1e6, NULL,
     "model chunks per pipeline stage (interleaved 1F1B; 1 = plain 1F1B)"},
    {"parallelism.layers", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "", 0, "auto", 0, 1e7, NULL,
     "transformer layers (auto: hidden / 128)"},
    {"parallelism.hidden", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "", 0, "auto", 0, 1e9, NULL,
     "hidden size (auto: (128 job.params / 12)^(1/3))"},
    {"parallelism.zero_stage", DC_PARAM_INT, 0, "", 1, NULL, 0, 3, NULL,
     "ZeRO stage of the data-parallel sharding: 0 all-reduce; 1, 2 reduce-scatter + all-gather; 3 one more all-gather"},
    {"parallelism.param_bytes", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 2, NULL, 0, 64, NULL,
     "bytes per parameter in compute precision (bf16: 2)"},
    {"parallelism.grad_bytes", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 2, NULL, 0, 64, NULL,
     "bytes per gradient element reduced across data-parallel ranks"},
    {"parallelism.optimizer_bytes", DC_PARAM_FLOAT, 0, "B", 12, NULL, 0, 1e3, NULL,
     "optimizer bytes per parameter (fp32 master weights + Adam moments: 12)"},
    {"parallelism.activation_bytes", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 2, NULL, 0, 64, NULL,
     "bytes per activation element sent between tensor ranks and pipeline stages"},
    {"parallelism.dp_overlap", DC_PARAM_FLOAT, 0, "", 0.8, NULL, 0, 1, NULL,
     "fraction of the data-parallel communication overlapped with compute"},
    {"parallelism.tp_overlap", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "fraction of the tensor-parallel communication overlapped with compute"},
    {"parallelism.pp_overlap", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "fraction of the pipeline sends overlapped with compute"},
    {"parallelism.recompute", DC_PARAM_STRING, 0, "", 0, "selective", 0, 0, "selective|full",
     "activation recomputation: selective (no extra compute) or full (one more forward pass)"},
    {"parallelism.activation_gb", DC_PARAM_FLOAT, DC_PARAM_AUTO, "GB", 0, "auto", 0, 1e6, NULL,
     "activation memory per GPU (auto: Korthikanti et al. 2022); used with an hbm tier"},
    {"parallelism.offload", DC_PARAM_STRING, 0, "", 0, "auto", 0, 0, "auto|none|optimizer",
     "optimizer state in host DDR (ddr tier): auto when it does not fit in HBM, none, or always"},
    {"parallelism.offload_overlap", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "fraction of the offload traffic overlapped with compute"},
    {0},
};

enum { SRC_RECOMPUTE, SRC_BUBBLE, SRC_COMM, SRC_OFFLOAD, SRC_STALL, N_SRC };
static const char *const src_names[N_SRC] = {"recompute", "pipeline_bubble", "communication", "memory_offload",
                                             "data_stall"};

/* A layout as read (read_layout, place_memory): the jobs that read the
 * same (a stream's or a trace's of one size: the layout memo below) share
 * one. */
typedef struct layout {
    dc_step_config cfg;
    double memory_B, hbm_B;
} layout;

#define NO_LAYOUT UINT32_MAX

/* One job's step, kept for every job defined: its layout and what differs
 * from it.  Its step time is not kept: rerate computes it when the job's
 * fabric or storage changed, sets the speed factors from it and forgets it
 * (a 20,000-job stream holds 12 bytes a job here, not a record of 730). */
typedef struct job_step {
    uint32_t layout;            /* in sm->layouts; NO_LAYOUT: no step-time model */
    uint32_t gpus;              /* an elastic job's GPUs now, its cfg's gpus and dp following; 0: its layout's */
    bool has_data;              /* it reads the dataset */
} job_step;

typedef struct steptime_model {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_network *net;
    dc_storage *storage;
    int src[N_SRC];
    job_step *steps;            /* by cluster job id */
    size_t n_ids;
    layout *layouts;
    size_t n_layouts, cap_layouts;
    double bytes_per_token;     /* the dataset's (storage) */
    bool prefetch;
    /* the job group's: its figures are step.* */
    int32_t legacy;             /* its id, -1: none */
    const dc_job_info *legacy_info;
    dc_step_time legacy_nominal; /* its step at the start, at full size */
    dc_series *series_step;
} steptime_model;

typedef struct coll_src {
    dc_step_coll_fn fn;
    void *ctx;
} coll_src;

static double coll_s(const coll_src *t, dc_coll_op op, dc_coll_algo algo, double n, double stride, double bytes,
                     dc_coll_cost *out)
{
    dc_coll_cost c = t->fn(t->ctx, op, algo, (uint32_t)n, (uint32_t)stride, bytes);
    if (out)
        *out = c;
    return c.time_s;
}

static dc_coll_cost topo_coll(void *ctx, dc_coll_op op, dc_coll_algo algo, uint32_t n, uint32_t stride, double bytes)
{
    return dc_topology_collective(ctx, op, algo, n, stride, bytes);
}

void dc_step_time_compute(const dc_step_config *c, const dc_topology *topo, dc_step_time *o)
{
    dc_step_time_compute_with(c, topo_coll, (void *)topo, o);
}

/* Tc = F P B / (G peak e) */
static double compute_time_s(const dc_step_config *c)
{
    return c->flop_per_param_token * c->params * c->tokens_per_step / (c->gpus * c->peak_flops * c->kernel_eff);
}

void dc_step_time_compute_with(const dc_step_config *c, dc_step_coll_fn fn, void *ctx, dc_step_time *o)
{
    coll_src src = {fn, ctx}, *topo = &src;
    memset(o, 0, sizeof *o);
    o->microbatches = c->tokens_per_step / (c->seq_len * c->micro_batch * c->dp);
    double m = o->microbatches, v = c->virtual_stages;
    o->compute_s = compute_time_s(c);
    o->recompute_s = c->full_recompute ? o->compute_s / 3.0 : 0.0;
    o->bubble_s = c->pp > 1 ? (c->pp - 1.0) / (v * m) * (o->compute_s + o->recompute_s) : 0.0;

    double shard = c->params / (c->tp * c->pp);
    o->dp_bw_Bps = INFINITY;
    o->dp_algo = c->algo == DC_ALGO_AUTO ? DC_ALGO_RING : c->algo;
    if (c->dp > 1) {
        double dstride = c->tp * c->pp;
        dc_coll_cost first;
        if (c->zero_stage == 0) {
            o->dp_s = coll_s(topo, DC_COLL_ALLREDUCE, c->algo, c->dp, dstride, shard * c->grad_bytes, &first);
        } else {
            o->dp_s = coll_s(topo, DC_COLL_REDUCESCATTER, c->algo, c->dp, dstride, shard * c->grad_bytes, &first);
            double ag = coll_s(topo, DC_COLL_ALLGATHER, c->algo, c->dp, dstride, shard * c->param_bytes, NULL);
            o->dp_s += (c->zero_stage == 3 ? 2.0 : 1.0) * ag;
        }
        o->dp_bw_Bps = first.bw_Bps;
        o->dp_algo = first.algo;
    }
    double act = c->micro_batch * c->seq_len * c->hidden * c->activation_bytes;
    if (c->tp > 1) {
        double count = (c->full_recompute ? 6.0 : 4.0) * c->layers / c->pp * m;
        o->tp_s = count * coll_s(topo, DC_COLL_ALLREDUCE, c->algo, c->tp, 1, act, NULL);
    }
    if (c->pp > 1)
        o->pp_s = 2.0 * m * v * coll_s(topo, DC_COLL_SENDRECV, c->algo, 2, c->tp, act / c->tp, NULL);
    if (c->offload) {
        double opt_shard = shard / (c->zero_stage >= 1 ? c->dp : 1.0);
        o->offload_s = opt_shard * (c->grad_bytes + c->param_bytes + 2.0 * c->optimizer_bytes) / c->ddr_Bps_per_gpu;
    }

    /* Overlap: each kind hides o_k of itself, all together at most the compute. */
    double t[4] = {o->dp_s, o->tp_s, o->pp_s, o->offload_s};
    double ov[4] = {c->overlap_dp, c->overlap_tp, c->overlap_pp, c->overlap_offload};
    double want = 0.0, exposed[4];
    bool finite = true;
    for (int k = 0; k < 4; k++) {
        want += ov[k] * t[k];
        finite = finite && isfinite(t[k]);
    }
    double hidden_max = o->compute_s + o->recompute_s;
    for (int k = 0; k < 4; k++) {
        if (!finite) {
            exposed[k] = isfinite(t[k]) ? (1.0 - ov[k]) * t[k] : INFINITY;
            continue;
        }
        double excess = want > hidden_max ? want - hidden_max : 0.0;
        exposed[k] = (1.0 - ov[k]) * t[k] + (want > 0.0 ? excess * ov[k] * t[k] / want : 0.0);
    }
    o->comm_exposed_s = exposed[0] + exposed[1] + exposed[2];
    o->offload_exposed_s = exposed[3];
    o->nostall_s = o->compute_s + o->recompute_s + o->bubble_s + o->comm_exposed_s + o->offload_exposed_s;
    o->step_s = o->nostall_s;
}

void dc_step_time_add_stall(dc_step_time *o, double read_s, bool prefetch)
{
    o->read_s = read_s;
    /* A stream capped at exactly its demand reads in the step, give or take
     * the last bits: no stall below a part in 1e12. */
    o->stall_s = prefetch ? (read_s > o->nostall_s * (1.0 + 1e-12) ? read_s - o->nostall_s : 0.0) : read_s;
    o->step_s = o->nostall_s + o->stall_s;
}

double dc_step_memory_bytes(const dc_step_config *c, double activation_B, bool offloaded)
{
    double shard = c->params / (c->tp * c->pp);
    double w = c->param_bytes / (c->zero_stage >= 3 ? c->dp : 1.0);
    double g = c->grad_bytes / (c->zero_stage >= 2 ? c->dp : 1.0);
    double opt = offloaded ? 0.0 : c->optimizer_bytes / (c->zero_stage >= 1 ? c->dp : 1.0);
    double states = shard * (w + g + opt);
    if (activation_B >= 0.0)
        return states + activation_B;
    double m = c->tokens_per_step / (c->seq_len * c->micro_batch * c->dp);
    double in_flight = c->pp > 1 ? (m < c->pp ? m : c->pp) : 1.0;
    double sbh_t = c->seq_len * c->micro_batch * c->hidden / c->tp;
    double layers = c->layers / c->pp;
    double act = c->full_recompute ? 2.0 * sbh_t * layers * in_flight + 34.0 * sbh_t : 34.0 * sbh_t * layers * in_flight;
    return states + act;
}


/* Sets the job's speed factors from its step o. */
static void apply(steptime_model *sm, int32_t job, const dc_step_time *o)
{
    double part[N_SRC] = {o->recompute_s, o->bubble_s, o->comm_exposed_s, o->offload_exposed_s, o->stall_s};
    double f[N_SRC];
    double left = o->step_s;
    bool stopped = false;
    for (int i = 0; i < N_SRC; i++) {
        f[i] = 1.0;
        if (sm->src[i] < 0)
            continue;
        if (stopped) {
            continue;
        } else if (!isfinite(part[i])) {
            f[i] = 0.0; /* no progress: the first infinite part takes the blame */
            stopped = true;
        } else if (isfinite(left) && left > 0.0) {
            f[i] = (left - part[i]) / left;
            left -= part[i];
        } /* else a later part is infinite: the standstill is its cost */
    }
    for (int i = 0; i < N_SRC; i++)
        if (sm->src[i] >= 0)
            dc_cluster_set_job_speed(sm->cluster, job, sm->src[i], f[i]);
    if (job == sm->legacy && sm->series_step)
        dc_series_record(sm->series_step, dc_sim_now(sm->sim), o->step_s);
}

/* The job's configuration now: its layout's, at an elastic job's size
 * (dc_steptime_resize) in *tmp. */
static const dc_step_config *step_cfg(const steptime_model *sm, const job_step *js, dc_step_config *tmp)
{
    const dc_step_config *c = &sm->layouts[js->layout].cfg;
    if (js->gpus == 0)
        return c;
    *tmp = *c;
    tmp->gpus = js->gpus;
    tmp->dp = js->gpus / (tmp->tp * tmp->pp);
    return tmp;
}

typedef struct job_ref {
    const steptime_model *sm;
    int32_t job;
} job_ref;

static dc_coll_cost job_coll(void *ctx, dc_coll_op op, dc_coll_algo algo, uint32_t n, uint32_t stride, double bytes)
{
    const job_ref *r = ctx;
    return dc_network_job_collective(r->sm->net, r->job, op, algo, n, stride, bytes);
}

/* The step of job (with a step-time model) on its fabric now, before its
 * data stall. */
static void step_now(steptime_model *sm, int32_t job, dc_step_time *now)
{
    dc_step_config tmp;
    job_ref ref = {sm, job};
    dc_step_time_compute_with(step_cfg(sm, &sm->steps[job], &tmp), job_coll, &ref, now);
}

/* The job's step now with its data stall added, and its speed factors set
 * from it. */
static void settle(steptime_model *sm, int32_t job, dc_step_time *now)
{
    const job_step *js = &sm->steps[job];
    if (js->has_data) {
        dc_step_config tmp;
        const dc_step_config *c = step_cfg(sm, js, &tmp);
        double read = dc_storage_dataset_read_s(sm->storage, job, c->tokens_per_step * sm->bytes_per_token,
                                                now->nostall_s);
        dc_step_time_add_stall(now, read, sm->prefetch);
    }
    apply(sm, job, now);
}

/* The step of job now, in *now, and its speed factors set from it. */
static void rerate(steptime_model *sm, int32_t job, dc_step_time *now)
{
    step_now(sm, job, now);
    settle(sm, job, now);
}

dc_steptime *dc_steptime_of(dc_sim *sim) { return dc_sim_model(sim, "steptime"); }

/* The job's step record, NULL when it has no step-time model. */
static job_step *step_at(const steptime_model *sm, int32_t job)
{
    if (!sm || !sm->sim || job < 0 || (size_t)job >= sm->n_ids || sm->steps[job].layout == NO_LAYOUT)
        return NULL;
    return &sm->steps[job];
}

/* (the compute part at the start: no job is resized before it) */
double dc_steptime_job_compute_s(const dc_steptime *sm, int32_t job)
{
    const job_step *js = step_at(sm, job);
    return js ? compute_time_s(&sm->layouts[js->layout].cfg) : NAN;
}

double dc_steptime_compute_s(dc_sim *sim, int32_t job) { return dc_steptime_job_compute_s(dc_steptime_of(sim), job); }

uint32_t dc_steptime_replica_gpus(dc_sim *sim, int32_t job)
{
    steptime_model *sm = dc_sim_model(sim, "steptime");
    const job_step *js = step_at(sm, job);
    return js ? (uint32_t)(sm->layouts[js->layout].cfg.tp * sm->layouts[js->layout].cfg.pp) : 0;
}

void dc_steptime_resize(dc_sim *sim, int32_t job, uint32_t gpus)
{
    steptime_model *sm = dc_sim_model(sim, "steptime");
    job_step *js = step_at(sm, job);
    dc_step_config tmp;
    if (!js || !(gpus > 0) || step_cfg(sm, js, &tmp)->gpus == gpus)
        return;
    const dc_step_config *full = &sm->layouts[js->layout].cfg;
    js->gpus = full->gpus == gpus ? 0 : gpus; /* back at full size: the layout's gpus and dp, bit for bit */
    const dc_step_config *c = step_cfg(sm, js, &tmp);
    uint32_t rep_n = c->dp > 1 ? (uint32_t)c->dp : c->pp > 1 ? 2 : (uint32_t)c->tp;
    uint32_t rep_s = c->dp > 1 ? (uint32_t)(c->tp * c->pp) : c->pp > 1 ? (uint32_t)c->tp : 1;
    uint32_t gpn = dc_cluster_gpus_per_node(sm->cluster);
    if (sm->net)
        dc_network_job_resize(sm->net, job, (gpus + gpn - 1) / gpn, rep_n > 1 ? rep_n : 1, rep_s);
    dc_step_time now;
    rerate(sm, job, &now);
}

static void on_network(dc_sim *sim, void *ctx, const void *payload)
{
    steptime_model *sm = ctx;
    const dc_job_event *ev = payload;
    (void)sim;
    dc_step_time now;
    if (ev) {
        if (step_at(sm, ev->job))
            rerate(sm, ev->job, &now);
        return;
    }
    for (size_t id = 0; id < sm->n_ids; id++)
        if (sm->steps[id].layout != NO_LAYOUT)
            rerate(sm, (int32_t)id, &now);
}

/* A job's dataset streams got new rates (payload: the job; NULL, a
 * transfer or tier change, is told job by job as it reaches streams). */
static void on_storage(dc_sim *sim, void *ctx, const void *payload)
{
    steptime_model *sm = ctx;
    const dc_job_event *ev = payload;
    (void)sim;
    const job_step *js = ev ? step_at(sm, ev->job) : NULL;
    dc_step_time now;
    if (js && js->has_data)
        rerate(sm, ev->job, &now);
}

/* ---------- reading a job's layout ---------- */

/* The first group of the layout chain (the job's own, else its class's...). */
static const config_setting_t *group_at(const dc_job_chain *pc)
{
    for (int i = 0; i < 3; i++)
        if (pc->at[i])
            return pc->at[i];
    return NULL;
}

/* A key of the layout chain, for messages: its setting, else the first group. */
static const config_setting_t *key_at(const dc_job_chain *pc, const char *key)
{
    const config_setting_t *s = dc_job_chain_setting(pc, key);
    return s ? s : group_at(pc);
}

static int chain_int(const dc_scenario *sc, const dc_job_chain *pc, const char *key, int def, int *out, dc_error *err)
{
    double v = def;
    dc_job_chain_number(pc, key, &v);
    if (v != floor(v) || v < 1 || v > 1e9)
        return dc_scenario_error_at(sc, key_at(pc, key), err, "expected a whole number >= 1 (got %g)", v);
    *out = (int)v;
    return DC_OK;
}

/* A job's layout being read. */
typedef struct layout_read {
    const dc_job_info *info;
    layout l;
} layout_read;

/* " (job NAME)" for jobs other than the job group, whose messages stay as they were. */
static const char *who(const layout_read *js, char *buf, size_t n)
{
    if (js->info->legacy)
        return "";
    snprintf(buf, n, " (job \"%s\")", js->info->name);
    return buf;
}

/* Model-parallel degrees for "auto": with k = 1, 2, 4, ... GPUs per model
 * replica, tensor parallelism grows first up to the largest power of two
 * that divides the job's GPUs and fits its node (or scale-up domain), then
 * pipeline parallelism (at most the layers over the virtual stages); the
 * first layout whose model states and activations fit the GPU's memory
 * (the hbm tier per GPU, or 80 GB) is taken, else the largest tried. */
static void auto_layout(const dc_step_config *tmpl, bool tp_auto, bool pp_auto, uint32_t domain_gpus, double mem_B,
                        double act_B, int *tp, int *pp)
{
    double gpus = tmpl->gpus;
    int tp_max = 1;
    while (2.0 * tp_max <= domain_gpus && fmod(gpus, 2.0 * tp_max) == 0.0)
        tp_max *= 2;
    int t = tp_auto ? 1 : *tp, p = pp_auto ? 1 : *pp;
    for (;;) {
        dc_step_config c = *tmpl;
        c.tp = t;
        c.pp = p;
        c.dp = gpus / (t * (double)p);
        if (fmod(gpus, t * (double)p) == 0.0 && dc_step_memory_bytes(&c, act_B, false) <= mem_B)
            break;
        bool more_t = tp_auto && 2 * t <= tp_max;
        bool more_p = pp_auto && 2.0 * p * c.virtual_stages <= c.layers && fmod(gpus, 2.0 * t * p) == 0.0;
        if (more_t && (!pp_auto || p == 1))
            t *= 2;
        else if (more_p)
            p *= 2;
        else if (more_t)
            t *= 2;
        else
            break;
    }
    *tp = t;
    *pp = p;
}

static int read_layout(steptime_model *sm, const dc_scenario *sc, const dc_job_chain *pc, layout_read *js,
                       dc_error *err)
{
    dc_step_config *c = &js->l.cfg;
    const dc_job_info *info = js->info;
    char buf[96];
    const char *w = who(js, buf, sizeof buf);
    uint32_t gpn = dc_cluster_gpus_per_node(sm->cluster);
    double gpus = info->gpus > 0 ? (double)info->gpus : (double)info->nodes * gpn; /* asked in GPUs: those (a share, or 20 of 3 nodes' 24) */
    if (!(info->params > 0)) {
        if (info->legacy)
            return dc_scenario_error_at(sc, group_at(pc), err,
                                        "the step-time model needs job.params (and job.tokens) rather than job.work_gpu_h");
        return dc_scenario_error_at(sc, group_at(pc), err,
                                    "the step-time model needs the job's params (its own, its class's or the "
                                    "defaults')%s", w);
    }
    int tp = 1, pp = 1, seq = 4096, mb = 1, v = 1, zero = 1;
    bool tp_auto = false, pp_auto = false, dp_auto = false;
    double x, dp = 0;
    if (dc_job_chain_number_auto(pc, "tensor", &x, &tp_auto) && !tp_auto) {
        if (x != floor(x))
            return dc_scenario_error_at(sc, key_at(pc, "tensor"), err, "expected a whole number (got %g)", x);
        tp = (int)x;
    }
    if (dc_job_chain_number_auto(pc, "pipeline", &x, &pp_auto) && !pp_auto) {
        if (x != floor(x))
            return dc_scenario_error_at(sc, key_at(pc, "pipeline"), err, "expected a whole number (got %g)", x);
        pp = (int)x;
    }
    bool has_dp = dc_job_chain_number_auto(pc, "data", &dp, &dp_auto) && !dp_auto;
    if (has_dp && dp != floor(dp))
        return dc_scenario_error_at(sc, key_at(pc, "data"), err, "expected a whole number (got %g)", dp);
    int rc = DC_OK;
    if ((rc = chain_int(sc, pc, "seq_len", 4096, &seq, err)) != DC_OK
        || (rc = chain_int(sc, pc, "micro_batch", 1, &mb, err)) != DC_OK
        || (rc = chain_int(sc, pc, "virtual_stages", 1, &v, err)) != DC_OK)
        return rc;
    double z = 1;
    dc_job_chain_number(pc, "zero_stage", &z);
    zero = (int)z;
    *c = (dc_step_config){
        .gpus = gpus,
        .tp = tp,
        .pp = pp,
        .params = info->params,
        .seq_len = seq,
        .micro_batch = mb,
        .virtual_stages = v,
        .zero_stage = zero,
        .param_bytes = 2,
        .grad_bytes = 2,
        .optimizer_bytes = 12,
        .activation_bytes = 2,
        .overlap_dp = 0.8,
        .flop_per_param_token = info->flop_per_param_token,
        .peak_flops = info->peak_flops,
        .kernel_eff = info->kernel_eff,
        .algo = dc_network_algorithm(sm->net),
    };
    if (!dc_job_chain_number(pc, "global_batch_tokens", &c->tokens_per_step))
        return dc_scenario_error_at(sc, key_at(pc, "global_batch_tokens"), err,
                                    "the job's parallelism needs global_batch_tokens (here, in its class or the "
                                    "defaults)%s", w);
    dc_job_chain_number(pc, "param_bytes", &c->param_bytes);
    dc_job_chain_number(pc, "grad_bytes", &c->grad_bytes);
    dc_job_chain_number(pc, "optimizer_bytes", &c->optimizer_bytes);
    dc_job_chain_number(pc, "activation_bytes", &c->activation_bytes);
    dc_job_chain_number(pc, "dp_overlap", &c->overlap_dp);
    dc_job_chain_number(pc, "tp_overlap", &c->overlap_tp);
    dc_job_chain_number(pc, "pp_overlap", &c->overlap_pp);
    dc_job_chain_number(pc, "offload_overlap", &c->overlap_offload);
    const char *rcs = "selective";
    dc_job_chain_string(pc, "recompute", &rcs);
    c->full_recompute = strcmp(rcs, "full") == 0;
    double hidden, layers;
    c->hidden = dc_job_chain_number(pc, "hidden", &hidden) ? hidden : cbrt(128.0 * info->params / 12.0);
    c->layers = dc_job_chain_number(pc, "layers", &layers) ? layers : c->hidden / 128.0;
    if (tp_auto || pp_auto) {
        const dc_topology_spec *ts = dc_topology_get_spec(dc_network_topology(sm->net));
        uint32_t domain = ts->gpus_per_node > ts->scaleup_gpus ? ts->gpus_per_node : ts->scaleup_gpus;
        int hbm = sm->storage ? dc_storage_tier_of_kind(sm->storage, DC_TIER_HBM) : -1;
        double mem = hbm >= 0 ? dc_storage_capacity_bytes(sm->storage, hbm) / dc_cluster_gpus_per_node(sm->cluster)
                              : 80e9;
        double act_gb, act_B = dc_job_chain_number(pc, "activation_gb", &act_gb) ? act_gb * 1e9 : -1.0;
        auto_layout(c, tp_auto, pp_auto, domain, mem, act_B, &tp, &pp);
        c->tp = tp;
        c->pp = pp;
    }
    double model = (double)tp * pp;
    if (fmod(gpus, model) != 0.0)
        return dc_scenario_error_at(sc, key_at(pc, "tensor"), err,
                                    "tensor x pipeline = %d x %d = %.0f does not divide the job's %.0f GPUs%s", tp, pp,
                                    model, gpus, w);
    if (has_dp && model * dp != gpus)
        return dc_scenario_error_at(sc, key_at(pc, "data"), err,
                                    "tensor x pipeline x data = %d x %d x %.0f = %.0f, but the job has %.0f GPUs%s", tp,
                                    pp, dp, model * dp, gpus, w);
    /* an elastic floor in GPUs is whole replicas (min_nodes: whole nodes of them, job.c's run_size) */
    const config_setting_t *min_at = dc_job_chain_setting(&info->chain, "min_gpus");
    if (min_at && info->min_gpus > 0 && fmod(info->min_gpus, model) != 0.0)
        return dc_scenario_error_at(sc, min_at, err,
                                    "min_gpus = %u is not a whole number of model replicas (tensor x pipeline = %d x "
                                    "%d = %.0f GPUs)%s",
                                    info->min_gpus, tp, pp, model, w);
    c->dp = gpus / model;
    double m = c->tokens_per_step / (c->seq_len * c->micro_batch * c->dp);
    if (m < 1.0)
        return dc_scenario_error_at(sc, key_at(pc, "global_batch_tokens"), err,
                                    "%.4g tokens per step give %.3g micro-batch per data-parallel rank (%.0f ranks of "
                                    "%d x %d-token sequences): at least 1 is needed%s",
                                    c->tokens_per_step, m, c->dp, mb, seq, w);
    if (c->virtual_stages * c->pp > c->layers)
        return dc_scenario_error_at(sc, key_at(pc, "virtual_stages"), err,
                                    "%d stages x %d virtual stages = %.0f model chunks for %.0f layers%s", pp, v,
                                    c->virtual_stages * c->pp, c->layers, w);
    return DC_OK;
}

/* Where the model states live: HBM, or the optimizer in DDR. */
static int place_memory(steptime_model *sm, const dc_scenario *sc, const dc_job_chain *pc, layout_read *js,
                        dc_error *err)
{
    dc_step_config *c = &js->l.cfg;
    char buf[96];
    const char *w = who(js, buf, sizeof buf);
    const char *offload = "auto";
    dc_job_chain_string(pc, "offload", &offload);
    int hbm = sm->storage ? dc_storage_tier_of_kind(sm->storage, DC_TIER_HBM) : -1;
    int ddr = sm->storage ? dc_storage_tier_of_kind(sm->storage, DC_TIER_DDR) : -1;
    double gpn = dc_cluster_gpus_per_node(sm->cluster);
    double act_gb, act_B = dc_job_chain_number(pc, "activation_gb", &act_gb) ? act_gb * 1e9 : -1.0;
    bool force = strcmp(offload, "optimizer") == 0, allow = strcmp(offload, "none") != 0;
    const config_setting_t *group = group_at(pc);
    if (force && ddr < 0)
        return dc_scenario_error_at(sc, key_at(pc, "offload"), err,
                                    "offloading the optimizer needs a tier of kind ddr in storage.tiers%s", w);
    js->l.memory_B = dc_step_memory_bytes(c, act_B, false);
    if (hbm < 0 && !force)
        return DC_OK; /* what the job needs is reported; without an hbm tier nothing limits it */
    js->l.hbm_B = hbm >= 0 ? dc_storage_capacity_bytes(sm->storage, hbm) / gpn : INFINITY;
    c->offload = force || (js->l.memory_B > js->l.hbm_B && allow && ddr >= 0);
    if (c->offload) {
        js->l.memory_B = dc_step_memory_bytes(c, act_B, true);
        double opt_shard = c->params / (c->tp * c->pp) / (c->zero_stage >= 1 ? c->dp : 1.0);
        double ddr_need = opt_shard * c->optimizer_bytes, ddr_have = dc_storage_capacity_bytes(sm->storage, ddr) / gpn;
        if (ddr_need > ddr_have)
            return dc_scenario_error_at(sc, group, err,
                                        "the optimizer state needs %.1f GB of host memory per GPU; the ddr tier "
                                        "has %.1f GB (more parallelism or a higher zero_stage shards it)%s",
                                        ddr_need / 1e9, ddr_have / 1e9, w);
        c->ddr_Bps_per_gpu = fmin(dc_storage_bandwidth_Bps(sm->storage, ddr, DC_IO_READ),
                                  dc_storage_bandwidth_Bps(sm->storage, ddr, DC_IO_WRITE))
                             / gpn;
    }
    if (js->l.memory_B > js->l.hbm_B)
        return dc_scenario_error_at(sc, group, err,
                                    "the job needs %.1f GB per GPU (model states%s and activations) but the hbm tier "
                                    "holds %.1f GB per GPU: raise tensor, pipeline or zero_stage%s%s",
                                    js->l.memory_B / 1e9, c->offload ? " without the optimizer" : "", js->l.hbm_B / 1e9,
                                    c->offload || !allow ? "" : ", or add a ddr tier to offload the optimizer", w);
    return DC_OK;
}

/* The chain of a job's parallelism keys; none of its groups: no step model. */
static dc_job_chain layout_chain(const dc_scenario *sc, const dc_job_info *info)
{
    return dc_job_chain_sub(&info->chain, "parallelism",
                            info->legacy ? dc_scenario_lookup(sc, "parallelism") : NULL);
}

/* layout_chain of the previous job asked, kept: a stream's or a trace's
 * jobs share their groups, and the lookups (libconfig list searches) cost
 * more than the rest of a job's set-up at a million jobs. */
typedef struct chain_memo {
    const config_setting_t *at[3];
    bool legacy, valid;
    dc_job_chain pc;
} chain_memo;

static dc_job_chain layout_chain_memo(chain_memo *mc, const dc_scenario *sc, const dc_job_info *info)
{
    if (!mc->valid || info->legacy != mc->legacy || memcmp(info->chain.at, mc->at, sizeof mc->at) != 0) {
        mc->pc = layout_chain(sc, info);
        memcpy(mc->at, info->chain.at, sizeof mc->at);
        mc->legacy = info->legacy;
        mc->valid = true;
    }
    return mc->pc;
}

/* A signal while setting up a million jobs: give up (the caller, seeing
 * the flag, reports the interruption, not this error). */
static int cancelled(dc_sim *sim, uint32_t id, dc_error *err)
{
    if ((id & 4095) == 0 && dc_sim_cancelled(sim))
        return dc_error_set(err, DC_EINPUT, "interrupted while setting up the step-time models");
    return DC_OK;
}

static bool chain_any(const dc_job_chain *c)
{
    return c->at[0] || c->at[1] || c->at[2];
}

/* The layouts read lately (read_layout and place_memory), by what they
 * read: the groups of the job's chain and of its parallelism chain, and the
 * job's size and model.  A stream's or a trace's jobs share their groups
 * and come in a few sizes, so most jobs find theirs here instead of
 * reading some twenty keys through libconfig's list searches again. */
#define LAYOUT_MEMO 16

typedef struct layout_key {
    const config_setting_t *at[3], *pat[3];
    uint32_t nodes, gpus, min_gpus;
    double params, flop_per_param_token, peak_flops, kernel_eff;
} layout_key;

typedef struct layout_entry {
    layout_key key;
    uint32_t layout; /* in sm->layouts */
} layout_entry;

typedef struct layout_memo {
    layout_entry e[LAYOUT_MEMO];
    size_t n, next;
} layout_memo;

static layout_key layout_key_of(const dc_job_info *info, const dc_job_chain *pc)
{
    layout_key k;
    memset(&k, 0, sizeof k); /* (compared whole: no padding left unset) */
    memcpy(k.at, info->chain.at, sizeof k.at);
    memcpy(k.pat, pc->at, sizeof k.pat);
    k.nodes = info->nodes;
    k.gpus = info->gpus;
    k.min_gpus = info->min_gpus;
    k.params = info->params;
    k.flop_per_param_token = info->flop_per_param_token;
    k.peak_flops = info->peak_flops;
    k.kernel_eff = info->kernel_eff;
    return k;
}

static bool same_key(const layout_key *a, const layout_key *b)
{
    return memcmp(a->at, b->at, sizeof a->at) == 0 && memcmp(a->pat, b->pat, sizeof a->pat) == 0
           && a->nodes == b->nodes && a->gpus == b->gpus && a->min_gpus == b->min_gpus && a->params == b->params
           && a->flop_per_param_token == b->flop_per_param_token && a->peak_flops == b->peak_flops
           && a->kernel_eff == b->kernel_eff;
}

/* The job's layout from the memo, or NO_LAYOUT when it must be read. */
static uint32_t layout_find(const layout_memo *lm, const layout_key *k)
{
    for (size_t i = 0; i < lm->n; i++) {
        const layout_entry *e = &lm->e[(lm->next + LAYOUT_MEMO - 1 - i) % LAYOUT_MEMO]; /* the newest first */
        if (same_key(&e->key, k))
            return e->layout;
    }
    return NO_LAYOUT;
}

static void layout_keep(layout_memo *lm, const layout_key *k, uint32_t li)
{
    lm->e[lm->next] = (layout_entry){.key = *k, .layout = li};
    lm->next = (lm->next + 1) % LAYOUT_MEMO;
    if (lm->n < LAYOUT_MEMO)
        lm->n++;
}

/* A layout read, kept in sm->layouts: its index, NO_LAYOUT when out of memory. */
static uint32_t layout_add(steptime_model *sm, const layout *l)
{
    if (sm->n_layouts == sm->cap_layouts) {
        size_t cap = sm->cap_layouts ? 2 * sm->cap_layouts : 8;
        layout *g = cap < NO_LAYOUT ? realloc(sm->layouts, cap * sizeof *g) : NULL;
        if (!g)
            return NO_LAYOUT;
        sm->layouts = g;
        sm->cap_layouts = cap;
    }
    sm->layouts[sm->n_layouts] = *l;
    return (uint32_t)sm->n_layouts++;
}

static int steptime_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    steptime_model *sm = state;
    sm->sim = sim;
    sm->cluster = dc_cluster_of(sim);
    sm->net = dc_network_of(sim);
    sm->storage = dc_storage_of(sim);
    uint32_t n_ids = sm->cluster ? dc_cluster_job_count(sm->cluster) : 0;
    config_setting_t *top = dc_scenario_lookup(sc, "parallelism");
    /* the jobs with a layout */
    size_t n = 0;
    chain_memo memo = {0};
    for (uint32_t id = 0; id < n_ids; id++) {
        int stop = cancelled(sim, id, err);
        if (stop != DC_OK)
            return stop;
        const dc_job_info *info = dc_job_info_of(sim, (int32_t)id);
        if (!info)
            continue;
        dc_job_chain pc = layout_chain_memo(&memo, sc, info);
        n += chain_any(&pc);
    }
    if (top && n == 0)
        return dc_scenario_error_at(sc, top, err,
                                    "the step-time model needs a job: this group is the job group's layout (give "
                                    "other jobs theirs in jobs.[].parallelism, a class or the defaults)");
    if (n == 0) {
        sm->sim = NULL; /* no step-time model */
        return DC_OK;
    }
    if (!sm->net) {
        for (uint32_t id = 0; id < n_ids; id++) {
            const dc_job_info *info = dc_job_info_of(sim, (int32_t)id);
            dc_job_chain pc = info ? layout_chain_memo(&memo, sc, info) : (dc_job_chain){0};
            if (chain_any(&pc))
                return dc_scenario_error_at(sc, group_at(&pc), err,
                                            "the step-time model needs a network section (its communication comes "
                                            "from it)");
        }
    }
    sm->legacy = -1;
    sm->steps = malloc((n_ids + 1) * sizeof *sm->steps);
    if (!sm->steps)
        return dc_error_set(err, DC_ENOMEM, "out of memory for %zu step-time models", n);
    sm->n_ids = n_ids;
    if (sm->storage && dc_storage_has_dataset(sm->storage)) {
        sm->bytes_per_token = dc_storage_dataset_bytes_per_token(sm->storage);
        sm->prefetch = dc_storage_dataset_prefetch(sm->storage);
    }
    bool wanted[N_SRC] = {false};
    bool any_data = false;
    layout_memo memo_l;
    layout_memo *lm = &memo_l;
    lm->n = lm->next = 0;
    /* the dataset key of the last chain asked (a stream's jobs share it) */
    const config_setting_t *ds_at[3] = {NULL, NULL, NULL};
    bool ds_valid = false, ds_reads = true;
    int rc = DC_OK;
    for (uint32_t id = 0; id < n_ids; id++) {
        job_step *js = &sm->steps[id];
        *js = (job_step){.layout = NO_LAYOUT};
        int stop = cancelled(sim, id, err);
        if (stop != DC_OK)
            return stop;
        const dc_job_info *info = dc_job_info_of(sim, (int32_t)id);
        if (!info)
            continue;
        dc_job_chain pc = layout_chain_memo(&memo, sc, info);
        if (!chain_any(&pc))
            continue;
        /* (the job group's layout is its own: never shared) */
        layout_key key = layout_key_of(info, &pc);
        uint32_t li = info->legacy ? NO_LAYOUT : layout_find(lm, &key);
        if (li == NO_LAYOUT) {
            layout_read rd = {.info = info};
            rc = read_layout(sm, sc, &pc, &rd, err);
            if (rc == DC_OK)
                rc = place_memory(sm, sc, &pc, &rd, err);
            if (rc == DC_OK && (li = layout_add(sm, &rd.l)) == NO_LAYOUT)
                rc = dc_error_set(err, DC_ENOMEM, "out of memory for %zu step-time layouts", sm->n_layouts + 1);
            if (rc != DC_OK)
                break;
            if (!info->legacy)
                layout_keep(lm, &key, li);
        }
        const dc_step_config *c = &sm->layouts[li].cfg;
        /* every job with a step model reads the dataset, unless it says not */
        if (!ds_valid || memcmp(ds_at, info->chain.at, sizeof ds_at) != 0) {
            ds_reads = true;
            dc_job_chain_bool(&info->chain, "dataset", &ds_reads);
            memcpy(ds_at, info->chain.at, sizeof ds_at);
            ds_valid = true;
        }
        bool reads = ds_reads;
        js->has_data = reads && sm->storage && dc_storage_has_dataset(sm->storage);
        if (js->has_data) {
            if (dc_storage_dataset_register(sm->storage, (int32_t)id, info->nodes) != DC_OK) {
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                break;
            }
        }
        if (info->legacy) {
            sm->legacy = (int32_t)id;
            sm->legacy_info = info;
            sm->series_step = dc_sim_series(sim, "step_time", "s", "time of one training step");
            if (!sm->series_step) {
                rc = dc_error_set(err, DC_ENOMEM, "out of memory");
                break;
            }
        }
        /* its load on the fabric: its outermost ring (data, else pipeline, else tensor) */
        uint32_t rep_n = c->dp > 1 ? (uint32_t)c->dp : c->pp > 1 ? 2 : (uint32_t)c->tp;
        uint32_t rep_s = c->dp > 1 ? (uint32_t)(c->tp * c->pp) : c->pp > 1 ? (uint32_t)c->tp : 1;
        if (rep_n > 1 && dc_network_job_traffic(sm->net, (int32_t)id, info->nodes, rep_n, rep_s) != DC_OK) {
            rc = dc_error_set(err, DC_ENOMEM, "out of memory");
            break;
        }
        bool want[N_SRC] = {c->full_recompute, c->pp > 1, c->tp > 1 || c->pp > 1 || c->dp > 1, c->offload,
                            js->has_data};
        for (int i = 0; i < N_SRC; i++)
            wanted[i] = wanted[i] || want[i];
        any_data = any_data || js->has_data;
        js->layout = li;
    }
    if (rc != DC_OK)
        return rc;
    /* Sources in a fixed order, only those some job can use. */
    for (int i = 0; i < N_SRC; i++) {
        sm->src[i] = -1;
        if (wanted[i] && (sm->src[i] = dc_cluster_speed_source(sm->cluster, src_names[i])) < 0)
            return dc_error_set(err, DC_ENOMEM, "no room for speed source %s", src_names[i]);
    }
    int s1 = dc_sim_signal(sim, "network_changed"), s2 = dc_sim_signal(sim, "storage_changed");
    if (s1 < 0 || s2 < 0 || dc_sim_subscribe(sim, s1, on_network, sm) != DC_OK
        || (any_data && dc_sim_subscribe(sim, s2, on_storage, sm) != DC_OK))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int steptime_start(void *state, dc_sim *sim, dc_error *err)
{
    steptime_model *sm = state;
    (void)sim;
    (void)err;
    if (!sm->sim)
        return DC_OK;
    /* Every job's step and speed factors before the run.  A job not
     * started is costed on its ideal placement (fabric.h), which its size
     * alone decides, and no job is resized yet: the jobs of one layout
     * (one size, fabric.c registered each with its layout's ring) get the
     * same step before their data stall, computed once (base; out of
     * memory: every job's).  The stall, from the job's own dataset
     * streams, and the speed factors stay each job's.  bench/shared.cfg:
     * 5 computations for 20,001 jobs. */
    dc_step_time *base = malloc((sm->n_layouts + 1) * sizeof *base);
    bool *have = base ? calloc(sm->n_layouts + 1, sizeof *have) : NULL;
    for (size_t id = 0; id < sm->n_ids; id++) {
        const job_step *js = &sm->steps[id];
        if (js->layout == NO_LAYOUT)
            continue;
        dc_step_time now;
        bool shared = have && js->gpus == 0 && dc_cluster_job_phase(sm->cluster, (int32_t)id) == DC_JOB_PENDING;
        if (shared && have[js->layout]) {
            now = base[js->layout];
        } else {
            step_now(sm, (int32_t)id, &now);
            if (shared) {
                base[js->layout] = now;
                have[js->layout] = true;
            }
        }
        settle(sm, (int32_t)id, &now);
        if ((int32_t)id == sm->legacy)
            sm->legacy_nominal = now;
    }
    free(base);
    free(have);
    return DC_OK;
}

static double summary_or(dc_summary *s, const char *key, double def)
{
    double v = def;
    dc_summary_get(s, key, &v);
    return v;
}

static void legacy_summary(steptime_model *sm, dc_sim *sim)
{
    const layout *l = &sm->layouts[sm->steps[sm->legacy].layout];
    dc_summary *s = dc_sim_summary(sim);
    const dc_step_time *o = &sm->legacy_nominal; /* both at full size, whatever size an elastic job ended at */
    const dc_step_config *c = &l->cfg;
    dc_summary_set(s, "step.tensor", c->tp, "", "tensor-parallel degree");
    dc_summary_set(s, "step.pipeline", c->pp, "", "pipeline-parallel degree");
    dc_summary_set(s, "step.data", c->dp, "", "data-parallel degree");
    dc_summary_set(s, "step.microbatches", o->microbatches, "", "micro-batches per pipeline and step");
    dc_summary_set(s, "step.time_s", o->step_s, "s", "time of one step with the fabric and storage healthy");
    dc_summary_set(s, "step.compute_s", o->compute_s, "s", "of which computing the model's FLOP");
    dc_summary_set(s, "step.recompute_s", o->recompute_s, "s", "of which recomputing activations");
    dc_summary_set(s, "step.bubble_s", o->bubble_s, "s", "of which the pipeline bubble");
    dc_summary_set(s, "step.comm_exposed_s", o->comm_exposed_s, "s", "of which communication not overlapped");
    dc_summary_set(s, "step.offload_s", o->offload_exposed_s, "s", "of which optimizer offload not overlapped");
    dc_summary_set(s, "step.data_stall_s", o->stall_s, "s", "of which waiting for data");
    dc_summary_set(s, "step.dp_comm_s", o->dp_s, "s", "data-parallel communication per step, before overlap");
    dc_summary_set(s, "step.tp_comm_s", o->tp_s, "s", "tensor-parallel communication per step, before overlap");
    dc_summary_set(s, "step.pp_comm_s", o->pp_s, "s", "pipeline sends per step, before overlap");
    dc_summary_set(s, "step.dp_gb_per_s", o->dp_bw_Bps / 1e9, "GB/s",
                   "bandwidth per GPU of the data-parallel collective on this fabric (null: none)");
    dc_summary_set(s, "step.dp_algorithm", (double)o->dp_algo, "",
                   "data-parallel collective algorithm: 1 ring, 2 tree, 3 hierarchical");
    dc_summary_set(s, "step.scaling_efficiency", o->compute_s / o->step_s, "",
                   "compute time / step time with the fabric healthy");
    dc_summary_set(s, "step.kernel_efficiency", c->kernel_eff, "", "job.mfu: kernel efficiency of the compute part");
    dc_summary_set(s, "step.mfu", c->kernel_eff * o->compute_s / o->step_s, "",
                   "effective model FLOP utilisation: kernel efficiency x scaling efficiency");
    dc_summary_set(s, "step.tokens_per_s", c->tokens_per_step / o->step_s, "tokens/s", "training throughput");
    double tokens = sm->legacy_info->tokens;
    dc_summary_set(s, "step.steps", tokens > 0 ? tokens / c->tokens_per_step : NAN, "",
                   "optimizer steps in the job (job.tokens / global batch)");
    dc_summary_set(s, "step.memory_gb_per_gpu", l->memory_B / 1e9, "GB",
                   "model states and activations per GPU (what the job needs; checked against the hbm tier when "
                   "there is one)");
    dc_summary_set(s, "step.offload", c->offload ? 1.0 : 0.0, "", "1 if the optimizer state lives in host DDR");
    /* The job's time spent computing at any speed versus its goodput. */
    double useful = summary_or(s, "gpu_hours.useful", 0.0), rollback = summary_or(s, "gpu_hours.rollback", 0.0);
    double slow = 0.0;
    for (int i = 0; i < N_SRC; i++)
        if (sm->src[i] >= 0) {
            char key[64];
            snprintf(key, sizeof key, "gpu_hours.%s", src_names[i]);
            slow += summary_or(s, key, 0.0);
        }
    double computing = useful + rollback + slow;
    double eta = computing > 0 ? (useful + rollback) / computing : NAN;
    dc_summary_set(s, "step.mean_scaling_efficiency", eta, "",
                   "compute time / step time averaged over the job's computing time (failures included)");
    dc_summary_set(s, "step.ettr_time", summary_or(s, "job.ettr", NAN) / eta, "",
                   "fraction of the job's time spent making kept progress at whatever step time (Meta's ETTR); "
                   "job.ettr = this x the scaling efficiency");
}

static void steptime_finish(void *state, dc_sim *sim)
{
    steptime_model *sm = state;
    if (!sm->sim)
        return;
    if (sm->legacy >= 0)
        legacy_summary(sm, sim);
}

static void steptime_destroy(void *state)
{
    steptime_model *sm = state;
    free(sm->steps);
    free(sm->layouts);
}

const dc_model_type dc_model_steptime = {
    .name = "steptime",
    .state_size = sizeof(steptime_model),
    .params = dc_steptime_params,
    .init = steptime_init,
    .start = steptime_start,
    .finish = steptime_finish,
    .destroy = steptime_destroy,
};
