/* The step-time model: compute, pipeline bubble, exposed communication and data stall of a step.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "steptime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cluster.h"
#include "fabric/collective.h"
#include "fabric/network.h"
#include "fabric/storage.h"

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

typedef struct steptime_model {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_network *net;
    dc_storage *storage;
    dc_step_config cfg;
    int src[N_SRC];
    double data_bytes_per_step, total_tokens, memory_B, hbm_B;
    bool has_data, prefetch;
    dc_step_time nominal, now;
    dc_series *series_step;
} steptime_model;

static double coll_s(const dc_topology *t, dc_coll_op op, dc_coll_algo algo, double n, double stride, double bytes,
                     dc_coll_cost *out)
{
    dc_coll_cost c = dc_topology_collective(t, op, algo, (uint32_t)n, (uint32_t)stride, bytes);
    if (out)
        *out = c;
    return c.time_s;
}

void dc_step_time_compute(const dc_step_config *c, const dc_topology *topo, dc_step_time *o)
{
    memset(o, 0, sizeof *o);
    o->microbatches = c->tokens_per_step / (c->seq_len * c->micro_batch * c->dp);
    double m = o->microbatches, v = c->virtual_stages;
    o->compute_s = c->flop_per_param_token * c->params * c->tokens_per_step / (c->gpus * c->peak_flops * c->kernel_eff);
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
    o->stall_s = prefetch ? (read_s > o->nostall_s ? read_s - o->nostall_s : 0.0) : read_s;
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

/* Sets the job's speed factors from the current step. */
static void apply(steptime_model *sm)
{
    const dc_step_time *o = &sm->now;
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
            dc_cluster_set_job_speed(sm->cluster, 0, sm->src[i], f[i]);
    dc_series_record(sm->series_step, dc_sim_now(sm->sim), o->step_s);
}

static void rerate(steptime_model *sm)
{
    dc_step_time_compute(&sm->cfg, dc_network_topology(sm->net), &sm->now);
    if (sm->has_data) {
        double read = dc_storage_dataset_read_s(sm->storage, sm->data_bytes_per_step, sm->now.nostall_s);
        dc_step_time_add_stall(&sm->now, read, sm->prefetch);
    }
    apply(sm);
}

static void on_change(dc_sim *sim, void *ctx, const void *payload)
{
    rerate(ctx);
}

static double job_float(const dc_scenario *sc, const char *key, double def)
{
    double v = def;
    config_lookup_float(dc_scenario_config(sc), key, &v);
    return v;
}

static int read_config(steptime_model *sm, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    dc_step_config *c = &sm->cfg;
    double gpus = (double)dc_cluster_job_nodes(sm->cluster, 0) * dc_cluster_gpus_per_node(sm->cluster);
    double params = 0;
    if (!config_lookup_float(dc_scenario_config(sc), "job.params", &params))
        return dc_scenario_error_at(sc, g, err,
                                    "the step-time model needs job.params (and job.tokens) rather than job.work_gpu_h");
    sm->total_tokens = job_float(sc, "job.tokens", 0.0);
    int tp = 1, pp = 1, dp = 0, seq = 4096, mb = 1, v = 1, zero = 1;
    config_setting_lookup_int(g, "tensor", &tp);
    config_setting_lookup_int(g, "pipeline", &pp);
    config_setting_lookup_int(g, "seq_len", &seq);
    config_setting_lookup_int(g, "micro_batch", &mb);
    config_setting_lookup_int(g, "virtual_stages", &v);
    config_setting_lookup_int(g, "zero_stage", &zero);
    double model = (double)tp * pp;
    if (fmod(gpus, model) != 0.0)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "tensor"), err,
                                    "tensor x pipeline = %d x %d = %.0f does not divide the job's %.0f GPUs", tp, pp,
                                    model, gpus);
    if (config_setting_lookup_int(g, "data", &dp) && model * dp != gpus)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "data"), err,
                                    "tensor x pipeline x data = %d x %d x %d = %.0f, but the job has %.0f GPUs", tp, pp,
                                    dp, model * dp, gpus);
    *c = (dc_step_config){
        .gpus = gpus,
        .tp = tp,
        .pp = pp,
        .dp = gpus / model,
        .params = params,
        .seq_len = seq,
        .micro_batch = mb,
        .virtual_stages = v,
        .zero_stage = zero,
        .flop_per_param_token = job_float(sc, "job.flop_per_param_token", 6.0),
        .peak_flops = job_float(sc, "job.gpu_peak_tflops", 989.0) * 1e12,
        .kernel_eff = job_float(sc, "job.mfu", 0.4),
        .algo = dc_network_algorithm(sm->net),
    };
    config_setting_lookup_float(g, "global_batch_tokens", &c->tokens_per_step);
    config_setting_lookup_float(g, "param_bytes", &c->param_bytes);
    config_setting_lookup_float(g, "grad_bytes", &c->grad_bytes);
    config_setting_lookup_float(g, "optimizer_bytes", &c->optimizer_bytes);
    config_setting_lookup_float(g, "activation_bytes", &c->activation_bytes);
    config_setting_lookup_float(g, "dp_overlap", &c->overlap_dp);
    config_setting_lookup_float(g, "tp_overlap", &c->overlap_tp);
    config_setting_lookup_float(g, "pp_overlap", &c->overlap_pp);
    config_setting_lookup_float(g, "offload_overlap", &c->overlap_offload);
    const char *rc = "selective";
    config_setting_lookup_string(g, "recompute", &rc);
    c->full_recompute = strcmp(rc, "full") == 0;
    config_setting_t *hs = config_setting_get_member(g, "hidden"), *ls = config_setting_get_member(g, "layers");
    c->hidden = hs && config_setting_type(hs) != CONFIG_TYPE_STRING ? config_setting_get_float(hs)
                                                                    : cbrt(128.0 * params / 12.0);
    c->layers = ls && config_setting_type(ls) != CONFIG_TYPE_STRING ? config_setting_get_float(ls) : c->hidden / 128.0;
    double m = c->tokens_per_step / (c->seq_len * c->micro_batch * c->dp);
    if (m < 1.0)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "global_batch_tokens"), err,
                                    "%.4g tokens per step give %.3g micro-batch per data-parallel rank (%.0f ranks of "
                                    "%d x %d-token sequences): at least 1 is needed",
                                    c->tokens_per_step, m, c->dp, mb, seq);
    if (c->virtual_stages * c->pp > c->layers)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "virtual_stages"), err,
                                    "%d stages x %d virtual stages = %.0f model chunks for %.0f layers", pp, v,
                                    c->virtual_stages * c->pp, c->layers);
    return DC_OK;
}

/* Where the model states live: HBM, or the optimizer in DDR. */
static int place_memory(steptime_model *sm, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    dc_step_config *c = &sm->cfg;
    const char *offload = "auto";
    config_setting_lookup_string(g, "offload", &offload);
    int hbm = sm->storage ? dc_storage_tier_of_kind(sm->storage, DC_TIER_HBM) : -1;
    int ddr = sm->storage ? dc_storage_tier_of_kind(sm->storage, DC_TIER_DDR) : -1;
    double gpn = dc_cluster_gpus_per_node(sm->cluster);
    config_setting_t *as = config_setting_get_member(g, "activation_gb");
    double act_B = as && config_setting_type(as) != CONFIG_TYPE_STRING ? config_setting_get_float(as) * 1e9 : -1.0;
    bool force = strcmp(offload, "optimizer") == 0, allow = strcmp(offload, "none") != 0;
    if (force && ddr < 0)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "offload"), err,
                                    "offloading the optimizer needs a tier of kind ddr in storage.tiers");
    sm->memory_B = dc_step_memory_bytes(c, act_B, false);
    if (hbm < 0 && !force)
        return DC_OK; /* what the job needs is reported; without an hbm tier nothing limits it */
    sm->hbm_B = hbm >= 0 ? dc_storage_capacity_bytes(sm->storage, hbm) / gpn : INFINITY;
    c->offload = force || (sm->memory_B > sm->hbm_B && allow && ddr >= 0);
    if (c->offload) {
        sm->memory_B = dc_step_memory_bytes(c, act_B, true);
        double opt_shard = c->params / (c->tp * c->pp) / (c->zero_stage >= 1 ? c->dp : 1.0);
        double ddr_need = opt_shard * c->optimizer_bytes, ddr_have = dc_storage_capacity_bytes(sm->storage, ddr) / gpn;
        if (ddr_need > ddr_have)
            return dc_scenario_error_at(sc, g, err,
                                        "the optimizer state needs %.1f GB of host memory per GPU; the ddr tier "
                                        "has %.1f GB (more parallelism or a higher zero_stage shards it)",
                                        ddr_need / 1e9, ddr_have / 1e9);
        c->ddr_Bps_per_gpu = fmin(dc_storage_bandwidth_Bps(sm->storage, ddr, DC_IO_READ),
                                  dc_storage_bandwidth_Bps(sm->storage, ddr, DC_IO_WRITE))
                             / gpn;
    }
    if (sm->memory_B > sm->hbm_B)
        return dc_scenario_error_at(sc, g, err,
                                    "the job needs %.1f GB per GPU (model states%s and activations) but the hbm tier "
                                    "holds %.1f GB per GPU: raise tensor, pipeline or zero_stage%s",
                                    sm->memory_B / 1e9, c->offload ? " without the optimizer" : "", sm->hbm_B / 1e9,
                                    c->offload || !allow ? "" : ", or add a ddr tier to offload the optimizer");
    return DC_OK;
}

static int steptime_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    steptime_model *sm = state;
    config_setting_t *g = dc_scenario_lookup(sc, "parallelism");
    if (!g)
        return DC_OK;
    sm->sim = sim;
    sm->cluster = dc_cluster_of(sim);
    sm->net = dc_network_of(sim);
    sm->storage = dc_storage_of(sim);
    if (!sm->net)
        return dc_scenario_error_at(sc, g, err,
                                    "the step-time model needs a network section (its communication comes from it)");
    if (dc_cluster_job_count(sm->cluster) == 0)
        return dc_scenario_error_at(sc, g, err, "the step-time model needs a job");
    int rc = read_config(sm, sc, g, err);
    if (rc == DC_OK)
        rc = place_memory(sm, sc, g, err);
    if (rc != DC_OK)
        return rc;
    sm->has_data = sm->storage && dc_storage_has_dataset(sm->storage);
    if (sm->has_data) {
        sm->data_bytes_per_step = sm->cfg.tokens_per_step * dc_storage_dataset_bytes_per_token(sm->storage);
        sm->prefetch = dc_storage_dataset_prefetch(sm->storage);
    }
    const dc_step_config *c = &sm->cfg;
    bool wanted[N_SRC] = {c->full_recompute, c->pp > 1, c->tp > 1 || c->pp > 1 || c->dp > 1, c->offload,
                          sm->has_data};
    for (int i = 0; i < N_SRC; i++) {
        sm->src[i] = -1;
        if (wanted[i] && (sm->src[i] = dc_cluster_speed_source(sm->cluster, src_names[i])) < 0)
            return dc_error_set(err, DC_ENOMEM, "no room for speed source %s", src_names[i]);
    }
    int s1 = dc_sim_signal(sim, "network_changed"), s2 = dc_sim_signal(sim, "storage_changed");
    sm->series_step = dc_sim_series(sim, "step_time", "s", "time of one training step");
    if (s1 < 0 || s2 < 0 || !sm->series_step || dc_sim_subscribe(sim, s1, on_change, sm) != DC_OK
        || dc_sim_subscribe(sim, s2, on_change, sm) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int steptime_start(void *state, dc_sim *sim, dc_error *err)
{
    steptime_model *sm = state;
    if (!sm->sim)
        return DC_OK;
    rerate(sm);
    sm->nominal = sm->now;
    return DC_OK;
}

static double summary_or(dc_summary *s, const char *key, double def)
{
    double v = def;
    dc_summary_get(s, key, &v);
    return v;
}

static void steptime_finish(void *state, dc_sim *sim)
{
    steptime_model *sm = state;
    if (!sm->sim)
        return;
    dc_summary *s = dc_sim_summary(sim);
    const dc_step_time *o = &sm->nominal;
    const dc_step_config *c = &sm->cfg;
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
    dc_summary_set(s, "step.steps", sm->total_tokens > 0 ? sm->total_tokens / c->tokens_per_step : NAN, "",
                   "optimizer steps in the job (job.tokens / global batch)");
    dc_summary_set(s, "step.memory_gb_per_gpu", sm->memory_B / 1e9, "GB",
                   "model states and activations per GPU (what the job needs; checked against the hbm tier when there is one)");
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

const dc_model_type dc_model_steptime = {
    .name = "steptime",
    .state_size = sizeof(steptime_model),
    .params = dc_steptime_params,
    .init = steptime_init,
    .start = steptime_start,
    .finish = steptime_finish,
};
