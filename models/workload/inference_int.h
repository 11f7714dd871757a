/* The inference service's state, shared by its three files.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The inference service's state, shared by its files (inference.c: the
 * scenario, the replicas on the cluster, autoscaling and outputs;
 * inference_req.c: the per-request mode; inference_agg.c: the aggregate
 * mode).  Not for other models: they use inference.h. */
#ifndef DC_INFERENCE_INT_H
#define DC_INFERENCE_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"
#include "dist.h"
#include "inference.h"
#include "loghist.h"
#include "nhpp.h"
#include "queueing.h"

/* A token-count law: drawn, rounded, clamped to [1, max]. */
typedef struct inf_tokens {
    dc_dist law;
    double max;
} inf_tokens;

enum inf_unit_state { U_FREE, U_WAITING, U_STARTING, U_READY, U_DRAINING, U_STATES };

typedef struct inf_unit {
    uint8_t state;
    dc_event_handle timer; /* end of startup */
} inf_unit;

typedef struct inf_dec {
    double finish_v; /* the replica's step count at which it is done */
    int32_t req;
} inf_dec;

/* Per-request mode: one replica. */
typedef struct inf_replica {
    uint32_t load;          /* requests admitted: waiting for prefill, prefilling, decoding */
    bool accepting;         /* ready, not draining: in the load buckets */
    int32_t lb_prev, lb_next;
    int32_t *pf;            /* prefill FIFO (ring of batch_size) */
    uint32_t pf_head, pf_len;
    int32_t prefilling;     /* request in its prefill pass, -1 if none */
    double pf_end_s;
    inf_dec *dec;           /* min-heap on finish_v */
    uint32_t n_dec;
    double v, v_at_s;       /* steps done, banked at v_at_s */
    double step_s;          /* current decode step time */
    double kv_tokens;       /* KV cache tokens of the decoding sequences */
    dc_event_handle ev;
} inf_replica;

/* Aggregate mode: one segment of a piece's profile (inference_agg.c). */
typedef struct agg_seg {
    int kind;
    double t0, t1;          /* absolute times; t1 = INFINITY for the last */
    double q0, slope;       /* fluid backlog at t0 and its rate of change */
    double busy;            /* requests in service (slots) */
    double acc, drop, served; /* rates of accepted, dropped, completed requests */
} agg_seg;

typedef struct inf_req {
    double arrival_s, admit_s, first_s;
    uint32_t n_in, n_out;
    int32_t next; /* free list */
} inf_req;

struct dc_inference {
    bool enabled;
    dc_sim *sim;
    dc_cluster *cluster;
    struct dc_scheduler *sched; /* nodes come through its pool (scheduler.h) */
    int pool, priority;
    dc_eventlog *log;
    int32_t job_id;
    int sig_nodes; /* "job_nodes": published when the service takes nodes */
    char name[64];
    bool aggregate;
    double start_s;

    /* roofline (per replica) */
    double flop_per_token, compute_flops, weight_bytes, bw_bytes_per_s, kv_bytes_per_token;
    uint32_t gpus_per_replica, batch, queue_limit;
    double startup_s;

    /* fleet */
    uint32_t replicas_per_unit, nodes_per_unit, gpus_per_node;
    uint32_t min_units, max_units, initial_units, target_units;
    inf_unit *units;
    uint32_t *unit_nodes;   /* max_units x nodes_per_unit */
    int32_t *unit_of_node;  /* per cluster node, -1 if not the service's */
    uint32_t count[U_STATES];
    bool in_op;             /* inside a fleet operation: ignore our own node_idle */
    bool started;

    /* autoscaling */
    bool autoscale;
    double target_util, scale_tolerance, scale_interval_s, scale_down_after_s;
    double below_since_s;   /* < 0: desired not below the target */
    uint32_t below_max_units;
    double win_slot_s, win_rep_s, win_arrived;

    /* demand */
    dc_nhpp nhpp;
    inf_tokens tok_in, tok_out;
    double mean_in, mean_out, mean_m, mean_ctx, mean_tp, mean_tp_sq;
    double rated_qps;       /* X(batch): a replica's throughput at a full batch */
    double slo_ttft_s, slo_tpot_s, slo_e2e_s; /* 0: none */

    /* accounting, banked at every change */
    double bank_s;
    double node_s[U_STATES];
    double slot_s;      /* sum over time of requests in service (batch slots occupied) */
    double rep_s;       /* sum over time of ready + draining replicas */
    double queue_s;     /* sum over time of the queue length */
    double ready_rep_s; /* sum over time of ready replicas */
    uint32_t min_ready, max_ready;

    /* outcomes */
    double arrived, served, dropped, retried, tokens_in, tokens_out;
    double slo_met, slo_ttft_met, slo_tpot_met, slo_e2e_met;
    dc_loghist h_ttft, h_tpot, h_e2e, h_wait;
    uint64_t replica_failures, replica_faults, replica_starts, scale_ups, scale_downs;

    gsl_rng *rng_arrival, *rng_tokens, *rng_fault, *rng_agg;
    dc_series *s_replicas, *s_qps, *s_util, *s_queue;

    /* per-request mode */
    inf_replica *reps;      /* max_units x replicas_per_unit, buffers allocated on first use */
    inf_req *reqs;
    uint32_t reqs_cap;
    int32_t free_req;
    int32_t *q;             /* central FIFO (ring) */
    uint32_t q_head, q_len, q_cap;
    int32_t *lb_head;       /* batch + 1 load buckets of accepting replicas */
    uint32_t lb_min;
    uint32_t busy;          /* requests in service on all replicas */

    /* aggregate mode */
    dc_bd bd;
    bool bd_valid;          /* bd solved for bd_lambda and bd_reps */
    double bd_lambda;
    uint32_t bd_reps;
    uint32_t piece_reps;    /* R of the current piece */
    double piece_start_s, piece_lambda, piece_c;
    agg_seg seg[4];
    int n_seg;
    double backlog;         /* fluid backlog at the start of the piece */
    double pending_backlog; /* requests sent back by lost replicas, for the next piece */
    double agg_interval_s;
    uint32_t agg_samples;   /* latency samples over the whole run */
    double *x_tab;          /* X(b), b = 0..batch */
    double tp_cv2;          /* squared coefficient of variation of the prefill time */
};

/* inference.c */
void dc_inf_bank(dc_inference *m);
void dc_inf_record_latency(dc_inference *m, double wait_s, double ttft_s, double tpot_s,
                           double e2e_s, bool has_tpot, double weight);
uint32_t dc_inf_sample_tokens(const inf_tokens *t, gsl_rng *rng);
double dc_inf_prefill_s(const dc_inference *m, double n_in);
double dc_inf_step_s(const dc_inference *m, double b, double kv_tokens);
/* X(b): requests per second of one replica holding b. */
double dc_inf_throughput(const dc_inference *m, double b);
uint32_t dc_inf_ready_replicas(const dc_inference *m);

/* inference_req.c: the per-request mode */
int dc_inf_req_init(dc_inference *m, dc_error *err);
void dc_inf_req_start(dc_inference *m);
void dc_inf_req_unit_ready(dc_inference *m, uint32_t unit);
/* Drops the unit's replicas; requests in flight go back to the queue. */
void dc_inf_req_unit_lost(dc_inference *m, uint32_t unit);
void dc_inf_req_unit_drain(dc_inference *m, uint32_t unit);
/* Undoes a drain: the unit's replicas take requests again. */
void dc_inf_req_unit_undrain(dc_inference *m, uint32_t unit);
uint32_t dc_inf_req_unit_load(const dc_inference *m, uint32_t unit);
void dc_inf_req_bank(dc_inference *m, double dt);
double dc_inf_req_queue_now(const dc_inference *m);
void dc_inf_req_destroy(dc_inference *m);

/* inference_agg.c: the aggregate mode */
int dc_inf_agg_init(dc_inference *m, dc_error *err);
void dc_inf_agg_start(dc_inference *m);
/* Closes the current piece at now (before the ready replicas change) and
 * opens the next (after). */
void dc_inf_agg_close(dc_inference *m);
void dc_inf_agg_open(dc_inference *m);
/* Requests in service and queued now (expectations). */
double dc_inf_agg_busy(const dc_inference *m);
double dc_inf_agg_queue(const dc_inference *m);
/* Requests arrived and neither served nor dropped: the fluid backlog
 * (the stationary law's content counts as served). */
double dc_inf_agg_in_flight(const dc_inference *m);
/* Adds the integrals of busy slots and queue over [from_s, to_s]. */
void dc_inf_agg_bank(dc_inference *m, double from_s, double to_s);
/* Requests of lost replicas: retried, back in the queue from the next piece. */
void dc_inf_agg_requeue(dc_inference *m, double requests);
/* Records one latency sample: the wait in queue, the load of the replica
 * it joins and the occupancy it decodes at. */
void dc_inf_agg_latency(dc_inference *m, double wait_s, double b_join, double b_decode, double weight);
void dc_inf_agg_destroy(dc_inference *m);
/* X(b): the throughput of one replica holding b requests (aggregate model). */
double dc_inf_agg_throughput(const dc_inference *m, double b);

/* the fleet, for both modes */
void dc_inf_unit_released(dc_inference *m, uint32_t unit);

#endif
