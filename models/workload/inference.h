/* An inference service: replicas, requests over the day, batching, autoscaling and latency.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* An inference service: replicas of a model on whole nodes of the cluster,
 * requests arriving over the day, continuous batching, autoscaling, and the
 * latency users see.  The scenario's `inference` group; absent, nothing.
 *
 * Arrivals: a non-homogeneous Poisson process (nhpp.h): qps x daily factor
 * (piecewise constant over the hours of the day) x weekly factor (per day,
 * day 0 starting at t = 0) x (1 + growth_per_year)^(t / 365.25 days).
 * Tokens in and out per request: independent draws from their laws,
 * rounded to whole tokens, at least 1, at most `max`.
 *
 * Roofline service times of a replica of G GPUs (Williams, Waterman and
 * Patterson, "Roofline", CACM 2009; for LLM serving: Pope et al.,
 * "Efficiently scaling transformer inference", MLSys 2023):
 *   compute   C  = G x peak x compute_efficiency              (FLOP/s)
 *   bandwidth BW = G x bandwidth x bandwidth_efficiency       (B/s), where
 *             bandwidth is the HBM's, or host DDR reached over PCIe when
 *             memory = "ddr" (the seeds' "HBM route" versus "DDR route")
 *   weights   Wb = params x bytes_per_param;  F = flop_per_param_token x
 *             params (2 P: one forward pass per token)
 *   prefill of n_in tokens (one request per pass, bound by compute):
 *             t_p = max(F n_in / C, Wb / BW)
 *   one decode step of b sequences holding K tokens of KV cache in all:
 *             t_d = max((Wb + K x kv_bytes_per_token) / BW, b F / C)
 *   (a sequence's KV cache is counted at its mean size over its decode,
 *   n_in + n_out / 2 tokens; attention FLOPs beyond 2 P per token are left
 *   out).  The weights and a full batch's KV cache (at the mean
 *   n_in + n_out) must fit in the memory read: G x hbm_gb, or G x ddr_gb.
 *
 * Continuous batching (iteration-level scheduling, Yu et al., "Orca", OSDI
 * 2022; vLLM's default prefill-first policy): a replica holds up to
 * batch_size requests; an admitted request waits for its prefill pass
 * (FIFO, one at a time); a prefill pass pauses the batch's decoding; the
 * prefill emits the first token; each decode step then gives every
 * decoding sequence one more token, so a request of n_out tokens leaves
 * after n_out - 1 steps.  One central FIFO queue of at most queue_limit
 * requests feeds the replicas: an arrival goes to the least-loaded ready
 * replica with a free batch slot, else waits in the queue, else (queue
 * full) is dropped.
 *
 * Latency: TTFT = arrival to first token; TPOT = (end - first token) /
 * (n_out - 1); E2E = arrival to last token; percentiles from a log-binned
 * histogram (loghist.h, within 0.4%).  SLO attainment: the fraction of
 * arrived requests (dropped ones count as misses) that met every SLO
 * given (slo.ttft_s, slo.tpot_s, slo.e2e_s).
 *
 * Two modes.
 *  mode = "request": every request is simulated (discrete events: an
 *   arrival, the end of its prefill, the end of its decode).  Within a
 *   replica the decoding sequences share a virtual clock of steps that
 *   advances at 1 / t_d while no prefill runs, so an arrival or a
 *   departure costs O(log batch).  For windows of hours.
 *  mode = "aggregate": piecewise-stationary, no event per request.  Time
 *   is cut into pieces of aggregate.interval_s, also cut where the number
 *   of ready replicas changes; in each, the mean arrival rate lambda (the
 *   exact integral of the NHPP over the piece / its length) and R ready
 *   replicas define a birth-death chain on the number N of requests in the
 *   system (queueing.h) with S = R x batch_size slots and the queue limit
 *   K.  Departures with n <= S in service, spread evenly over the replicas
 *   (n = q R + r: r replicas hold q + 1, the rest q), at rate
 *       d(n) = r X(q + 1) + (R - r) X(q),   X(b) = b / (m t_d(b) + b t_p)
 *   (X: the throughput of a replica holding b requests: with prefill
 *   first, all b decode whenever it decodes, and each needs one prefill
 *   and m = E[n_out - 1] steps; t_p the mean prefill time; the batch's KV
 *   context b x E[(n_in + n_out / 2) m] / E[m]).  With batch_size 1 and
 *   negligible prefill this is M/M/c/K, and Erlang C as K grows.  While
 *   lambda exceeds the capacity c = R X(batch), or a backlog is left from
 *   an earlier piece (or from lost replicas), the queue is a fluid instead:
 *   it fills at lambda - c up to K (then arrivals beyond c are dropped)
 *   and drains at c - lambda, carried from piece to piece, and a request
 *   waits backlog / c (pointwise-stationary fluid flow, Wang, Tipper and
 *   Dhamdhere 1996).  Served, dropped, the mean queue and the slot
 *   occupancy come from the stationary law (or the fluid); latencies from
 *   latency_samples arrivals over the run drawn from it (PASTA): the state
 *   found, the wait in queue (Erlang(n - S + 1, d(S)) when all slots are
 *   busy; backlog / c in the fluid), tokens from their laws, a wait for
 *   another request's prefill on its replica (with probability X t_p
 *   (b - 1) / b, for the residual E[t_p^2] / (2 E[t_p])), and decode at the
 *   size-biased mean occupancy (all slots when it waited) paused by a
 *   Poisson number of other requests' prefills.  Cost: a solve per piece,
 *   about sqrt(S) steps, independent of the request rate (pieces with the
 *   same rate and replicas reuse it).  A piece with no ready replica
 *   queues its arrivals (fluid) up to K; they are served when replicas
 *   return.  In this mode a piece's arrivals count as served when the
 *   stationary law lets them in, so inference.in_flight_end is the fluid
 *   backlog only.
 *
 * Replicas and the cluster.  A replica of G GPUs takes G / gpus_per_node
 * whole nodes (G a multiple of the node's GPUs), or shares one node with
 * gpus_per_node / G - 1 others (G dividing it); the nodes a set of
 * replicas shares are a "unit", taken from the cluster's idle pool
 * (dc_cluster_take_idle) all at once, and registered as one cluster job
 * of max_units x nodes_per_unit nodes so that the cluster counts them
 * busy and job-level fault classes (per job, per job GPU) can reach them.
 * At equal times the training job takes nodes first (it is registered
 * first).  A unit is waiting (wanted, no nodes), starting (holding its
 * nodes, loading weights: replica.startup_s), ready, or draining (no new
 * requests; released when empty).  The replicas of the service's start
 * (replicas.initial) are ready at once.
 *  Failure: a node of a unit fails -> its replicas drop, their requests in
 *   flight go back to the head of the queue (retries, beyond the queue
 *   limit if need be) and start again (prefill and decode redone; the
 *   latency counts from the first arrival), the unit's healthy nodes go
 *   back to the idle pool, and the unit waits for nodes again (a spare at
 *   once if one is idle, else after a repair) and starts (startup_s).  A
 *   job-level fault aimed at the service hits a unit drawn uniformly from
 *   the max_units; a ready unit restarts in place (startup_s), others are
 *   untouched (so the fault rate per GPU is the class's rate per GPU).
 *   In aggregate mode the expected number in flight on the lost replicas,
 *   E[busy slots] / R per replica, counts as retried.
 *  Autoscaling (policy "utilization", in the manner of Kubernetes'
 *   horizontal pod autoscaler): every autoscale.interval_s, with lambda_w
 *   the arrival rate of the past interval and X(batch) a replica's rated
 *   throughput (inference.replica_capacity_qps),
 *       desired = clamp(ceil(lambda_w / (X(batch) x target_utilization)), min, max)
 *   (in replicas, rounded up to whole units), held while within
 *   `tolerance` of the current target; more: scale up at once (new units
 *   wait for nodes, then start); less: scale down to the largest desired
 *   value seen over the last scale_down_after_s once it has stayed below
 *   that long (waiting units go first, then starting ones, then the
 *   least-loaded ready ones drain).  The offered load, unlike batch-slot
 *   occupancy, does not depend on how many replicas serve it, so the
 *   controller does not flap between two counts.  policy "none":
 *   replicas.initial throughout (failed ones come back).
 *
 * GPU-hours: the service's nodes are busy nodes, split into
 * gpu_hours.inference_serving (ready replicas' GPU-time x slot
 * occupancy, b / batch_size), gpu_hours.inference_idle (the rest of the
 * ready and draining time) and gpu_hours.inference_starting (loading).
 * With the cluster's and the job's lines they sum to gpu_hours.capacity.
 *
 * Figures: inference.* (requests, served, dropped, retried, QPS, tokens,
 * TTFT / TPOT / E2E / queue wait mean and P50 / P90 / P99, SLO attainment,
 * replicas, GPU-hours, GPU utilisation); series inference_replicas,
 * inference_qps, inference_utilization, inference_queue (every
 * autoscale.interval_s); events replica_ready, replica_lost,
 * replica_fault, scale_up, scale_down.
 *
 * Energy and cost hooks.  This model does not know power or prices.  It
 * writes inference.tokens (in + out, served) and inference.gpu_h, from
 * which the cost model (cost.h) derives the service's share of the TCO and
 * cost.usd_per_m_tokens and cost.usd_per_request.  The power model
 * (facility/power.h), which integrates the IT power of every job's nodes,
 * calls dc_inference_report_energy from its finish with the energy of the
 * service's nodes (dc_inference_job) times the run's facility / IT energy
 * (the totals are banked up to the current time whatever the order of
 * finishes), which writes inference.energy_kwh,
 * inference.energy_per_request_j, inference.energy_per_token_j and
 * inference.energy_per_mtok_kwh; dc_inference_report_cost remains for a
 * cost model that prices the service itself.
 * dc_inference_totals gives the GPU-seconds by state (serving, idle,
 * starting) and the tokens, for a power model that computes the energy
 * from utilisation itself. */
#ifndef DC_INFERENCE_H
#define DC_INFERENCE_H

#include "sim.h"

extern const dc_model_type dc_model_inference;
extern const dc_param dc_inference_params[];

typedef struct dc_inference dc_inference;

/* The service of sim, or NULL if the scenario has none. */
dc_inference *dc_inference_of(dc_sim *sim);

typedef struct dc_inference_totals {
    double requests_arrived, requests_served, requests_dropped;
    double tokens_in, tokens_out;      /* of served requests */
    double gpu_s_serving, gpu_s_idle, gpu_s_starting;
} dc_inference_totals;

/* The cluster job whose nodes the service holds (its replicas). */
int32_t dc_inference_job(const dc_inference *inf);
/* Totals up to the current simulated time. */
void dc_inference_totals_now(dc_inference *inf, dc_inference_totals *out);
/* Writes inference.energy_kwh, inference.energy_per_request_j (per request
 * served), inference.energy_per_token_j and inference.energy_per_mtok_kwh
 * (per token and per million tokens in and out) for the energy_j the
 * service drew over the run. */
void dc_inference_report_energy(dc_inference *inf, double energy_j);
/* Writes inference.cost_usd and inference.cost_per_mtok_usd. */
void dc_inference_report_cost(dc_inference *inf, double cost_usd);

#endif
