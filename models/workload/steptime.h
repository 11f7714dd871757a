/* Step time of a training job under data, tensor and pipeline parallelism, and the speed that
 * follows.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Step time of a training job under data, tensor and pipeline parallelism,
 * and the job's speed that follows from it.
 *
 * Symbols: G GPUs = t p d (tensor, pipeline, data parallel degrees), P
 * parameters, B tokens per step (global batch), s sequence length, b micro
 * batch (sequences), m = B / (s b d) micro-batches per pipeline and step,
 * v virtual stages per GPU (interleaved schedule), L layers, h hidden size
 * (auto: h = (128 P / 12)^(1/3), L = h / 128: P = 12 L h^2 with Kaplan's
 * aspect ratio), F FLOP per parameter and token (6), peak FLOP/s of a GPU,
 * e kernel efficiency (the job's "mfu" key: see below).
 *
 *   compute        Tc = F P B / (G peak e)
 *   recompute      Trc = Tc / 3 with full activation recomputation (one more
 *                  forward pass), else 0
 *   bubble         Tb = (p - 1) / (v m) (Tc + Trc)   (1F1B, interleaved:
 *                  Narayanan et al., "Efficient large-scale language model
 *                  training on GPU clusters using Megatron-LM", SC 2021)
 *   data parallel  per step on the gradient shard P/(t p) of each GPU, over d
 *                  ranks at stride t p: ZeRO stage 0 an all-reduce of the
 *                  gradients (grad_bytes each); 1-2 a reduce-scatter of the
 *                  gradients and an all-gather of the parameters
 *                  (param_bytes); 3 one more all-gather (forward and
 *                  backward) (Rajbhandari et al., "ZeRO", SC 2020)
 *   tensor par.    4 all-reduces per layer and micro-batch (2 forward, 2
 *                  backward; 6 with full recomputation) of b s h
 *                  activation_bytes over t ranks at stride 1, L/p layers
 *                  (Shoeybi et al., "Megatron-LM", 2019)
 *   pipeline       2 m v sends of b s h activation_bytes / t to the next
 *                  stage (t GPUs away), forward and backward
 *   offload        with the optimizer in host DDR (ZeRO-Offload, Ren et al.,
 *                  USENIX ATC 2021), each GPU moves its optimizer shard's
 *                  gradients down and parameters up and the host updates the
 *                  optimizer state (read and write): shard (grad + param + 2
 *                  optimizer bytes) / (DDR bandwidth per GPU)
 * Collective times come from the network model (topology.h: the bandwidth
 * the fabric gives that group at that scale, now) with its algorithm.
 *
 *   exposed        each kind k (data, tensor, pipeline, offload) overlaps a
 *                  fraction o_k of its time T_k with compute; the hidden part
 *                  cannot exceed the compute: H = min(sum o_k T_k, Tc + Trc),
 *                  exposed = sum T_k - H (the excess shared in proportion)
 *   data stall     the dataset read of B bytes_per_token per step at the
 *                  rates the storage streams get (storage.h), R: with
 *                  prefetch max(0, R - T0), else R, T0 the step without it
 *   step           T = Tc + Trc + Tb + exposed + stall
 *
 * The job's speed: its work is F P T_total / (peak e), done at full speed
 * in the compute time alone, so speed = Tc / T.  The model sets one speed
 * factor per source (recompute, pipeline_bubble, communication,
 * memory_offload, data_stall: those that can be non-zero) so that the
 * product is Tc / T and each source's GPU-hours line (gpu_hours.SOURCE) is
 * its share of the step: with T_i in source order, S_0 = T and
 * S_i = S_(i-1) - T_i, factor_i = S_i / S_(i-1).
 * So with this model on, the job's "mfu" key means the kernel efficiency of
 * the compute part alone, and the effective MFU, e Tc / T, is an output
 * (step.mfu), as are the scaling efficiency Tc / T and the breakdown.
 * The factors change only when the network or storage change (signals
 * "network_changed", "storage_changed"): no event per step.
 *
 * Memory (only when storage has an hbm tier): per GPU the model states
 * P/(t p) (param + grad + optimizer bytes, each divided by d from ZeRO
 * stage 3, 2, 1 on) plus activations (auto, Korthikanti et al., "Reducing
 * activation recomputation in large transformer models", 2022, with
 * sequence parallelism: selective 34 s b h / t bytes per layer and
 * micro-batch in flight, min(p, m) of them on the first stage of L/p
 * layers; full 2 s b h / t per layer plus one layer's 34 s b h / t).  If it
 * exceeds the hbm tier's capacity per GPU, the optimizer goes to the ddr
 * tier (offload "auto"); if it still does not fit, or cannot be offloaded,
 * the scenario is rejected. */
#ifndef DC_STEPTIME_H
#define DC_STEPTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "sim.h"
#include "fabric/topology.h"

typedef struct dc_step_config {
    double gpus, tp, pp, dp;
    double params, tokens_per_step, seq_len, micro_batch, virtual_stages, layers, hidden;
    int zero_stage;
    double param_bytes, grad_bytes, optimizer_bytes, activation_bytes;
    double flop_per_param_token, peak_flops, kernel_eff;
    double overlap_dp, overlap_tp, overlap_pp, overlap_offload;
    bool full_recompute;
    bool offload;            /* optimizer state in host DDR */
    double ddr_Bps_per_gpu;  /* with offload */
    dc_coll_algo algo;
} dc_step_config;

typedef struct dc_step_time {
    double microbatches;
    double compute_s, recompute_s, bubble_s;
    double dp_s, tp_s, pp_s, offload_s;   /* before overlap */
    double comm_exposed_s, offload_exposed_s;
    double dp_bw_Bps;                     /* of the data-parallel collective */
    dc_coll_algo dp_algo;
    double nostall_s, read_s, stall_s, step_s;
} dc_step_time;

/* The step without data stall (read_s = stall_s = 0, step_s = nostall_s),
 * with collectives costed on the topology alone (dc_topology_collective). */
void dc_step_time_compute(const dc_step_config *c, const dc_topology *topo, dc_step_time *out);
/* The same with collectives costed by fn (a job's share of the fabric:
 * dc_network_job_collective). */
typedef dc_coll_cost (*dc_step_coll_fn)(void *ctx, dc_coll_op op, dc_coll_algo algo, uint32_t n, uint32_t stride,
                                        double bytes);
void dc_step_time_compute_with(const dc_step_config *c, dc_step_coll_fn fn, void *ctx, dc_step_time *out);
/* Adds the stall of a dataset read of read_s seconds. */
void dc_step_time_add_stall(dc_step_time *st, double read_s, bool prefetch);
/* Model states plus activations per GPU, in bytes (activation_B < 0: auto). */
double dc_step_memory_bytes(const dc_step_config *c, double activation_B, bool offloaded);

/* The compute part of a step of cluster job id job on a healthy fabric
 * (Tc), NAN when the job has no step-time model. */
double dc_steptime_compute_s(dc_sim *sim, int32_t job);
/* The step-time model's state (NULL when it is not built), for
 * dc_steptime_job_compute_s, which skips the model's lookup by name (a
 * caller that asks for every job's, such as the /jobs rows). */
typedef struct steptime_model dc_steptime;
dc_steptime *dc_steptime_of(dc_sim *sim);
/* dc_steptime_compute_s of the model st (NULL: NaN). */
double dc_steptime_job_compute_s(const dc_steptime *st, int32_t job);
/* GPUs of one model replica of job (tensor x pipeline), 0 when it has no
 * step-time model: an elastic job runs on multiples of it (job.h). */
uint32_t dc_steptime_replica_gpus(dc_sim *sim, int32_t job);
/* An elastic job now runs on gpus GPUs (a multiple of its replica): its
 * data-parallel degree becomes gpus / (tensor x pipeline), the global
 * batch stays, and its step (compute, communication, data) is computed
 * again for that size (no-op without a step-time model). */
void dc_steptime_resize(dc_sim *sim, int32_t job, uint32_t gpus);

extern const dc_model_type dc_model_steptime;
extern const dc_param dc_steptime_params[];

#endif
