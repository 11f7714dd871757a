/* Checkpoint policy: how often a job saves its state, what that costs, how many it keeps.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Checkpoint policy: how often a job saves its state, what that costs, how
 * many checkpoints it keeps, and the interruption rate it plans for.
 *
 * Symbols: C write time of one checkpoint (s), M mean time between job
 * interruptions (s), R restart time (s), d detection delay (s: from the
 * failure until it is noticed), tau compute time between checkpoints (s).
 *
 *   write time      C = size / write bandwidth;  size = size_gb, or
 *                   params x bytes_per_param (14 by default: bf16 weights 2 +
 *                   fp32 master weights 4 + Adam moments 8)
 *   Young (1974)    tau = sqrt(2 C M)
 *                   ("A first order approximation to the optimum checkpoint
 *                   interval", CACM 17(9))
 *   Daly (2006)     tau = sqrt(2 C M) [1 + sqrt(C/(2M))/3 + C/(18 M)] - C
 *                   for C < 2M, else tau = M
 *                   ("A higher order estimate of the optimum checkpoint
 *                   interval for restart dumps", FGCS 22(3))
 *   Daly's expected wall time to finish Ts of work (exponential
 *   interruptions, failures also during checkpoints and restarts):
 *                   E[Tw] = M e^(R/M) (e^((tau+C)/M) - 1) Ts / tau
 *   with a detection delay d during which further failures cost nothing
 *   more (the job is already stalled), each segment of tau + C costs
 *   (e^((tau+C)/M) - 1)(M + E[Y]) with E[Y] = d e^(R/M) + M (e^(R/M) - 1)
 *   the expected recovery (detect, then restart, again if a failure cuts the
 *   restart), so
 *                   E[Tw] = (M + d) e^(R/M) (e^((tau+C)/M) - 1) Ts / tau
 *   (d = 0 gives Daly's).  To first order in 1/M the waste per
 *   interruption is d + R + tau/2, and (Kokolis et al., HPCA 2025, with
 *   dt = tau, w = C, u0 = d + R, N r = 1/M)
 *                   ETTR ~= (1 - (d + R + tau/2)/M) / (1 + C/tau)
 *
 * Policies: "young", "daly", or "fixed" (interval_s a number).  A number for
 * interval_s always means a fixed interval.  interval_s = "auto" takes the
 * policy's optimum for an estimate of M:
 *   estimate = "configured": M from the failure rates the failure model
 *       registers on the cluster for a job of this size (fixed for the run);
 *   estimate = "observed" (default): the rate the job actually sees, a
 *       moving estimate over the last window_h hours of the job's life that
 *       starts from the configured rate as a prior worth prior_h hours of
 *       observation (a gamma-Poisson posterior mean):
 *           rate = (n + prior_h / M0) / (T + prior_h),   M = 1 / rate
 *       n interruptions in the window, T = min(window_h, time since the
 *       job's start), M0 the configured M (or prior_mtbi_h when given).
 *       The interval is recomputed whenever the job schedules its next
 *       checkpoint (after each checkpoint and each restart).
 *
 * Retention: the job keeps its last `retain` completed checkpoints.  A
 * restart after a visible failure reads the latest; silent data corruption
 * found d after it happened rolls the job back to the newest kept
 * checkpoint captured before the corruption (a checkpoint's state is
 * captured when its write starts), or to the very start if none is that
 * old.  retain = 0 keeps none for such rollbacks (restarts still read the
 * latest) and is refused when a failure class corrupts silently (unless
 * retain_h keeps some).  retain_h > 0 keeps, beside the last `retain`,
 * every checkpoint captured in the last retain_h hours and the newest one
 * captured before them: a corruption at t found at t + d with d <= retain_h
 * then always has the newest checkpoint captured before t kept (if it was
 * before the window, it is the newest before it), whatever the interval.
 * By count alone, retain checkpoints reach back about retain x interval,
 * which short intervals make shorter than the detection delay (issue 18
 * item 15: the flagship with tier "pfs" rolled back to its start on every
 * corruption); such a rollback to the start with checkpoints dropped by
 * retention is reported as a warning (dc_scenario_warn_at).
 *
 * Storage tiers (storage.h).  Without tier or levels, a checkpoint blocks
 * the job for C = size / write_gb_per_s.  With tier = "NAME" it is a real
 * transfer of size bytes from the job's nodes to that tier, sharing the
 * tier and the storage links max-min fairly with the dataset stream and
 * other transfers: C = latency + size / the rate it gets, re-rated as flows
 * come and go.  The planned C (Young's, Daly's) is that time alone at the
 * start.
 *   mode = "async": the job stalls only for the snapshot to host memory,
 *       S = size / snapshot_gb_per_s, then computes while the snapshot
 *       drains to the tier in the background (competing for bandwidth with
 *       the dataset stream, so it can still slow the steps).  The checkpoint
 *       counts (a restart can read it) when the drain ends; a failure during
 *       the drain loses it and the previous one stands.  A checkpoint that
 *       comes due during a drain waits for the drain to end.  The planned C
 *       is S (what the job pays per checkpoint).
 *   levels = ( { tier = "nvme"; every = 1; }, { tier = "pfs"; every = 10; } ):
 *       checkpoint number k (counting from 1) goes to the last level whose
 *       every divides k (one tier per checkpoint); each level holds its
 *       newest copy.  A restart reads the newest copy that survived, taking
 *       restart_s then size / the tier's read rate from the job's nodes.
 *       Survival: a copy on a shared tier (pfs, object) survives unless the
 *       tier loses its data (storage_loss); a copy on a node tier (hbm, ddr,
 *       nvme) is lost when any of the job's nodes that hold a shard fails or
 *       loses its device (its replacement does not have the shard), unless
 *       partner = true: each node's shard is also on its partner (node n xor
 *       1, a neighbour in the rack), so the copy is lost only when a node and
 *       its partner are both lost (a rack failure).  A list needs a level on
 *       a durable (shared) tier; a checkpoint on the way out of a preemption
 *       is written, blocking, to the first durable level (the next
 *       allocation has other nodes, which lose the node tiers' copies).
 *   tier = "NAME" is levels = ( { tier = "NAME"; every = 1; } ). */
#ifndef DC_CHECKPOINT_H
#define DC_CHECKPOINT_H

#include "sim.h"

double dc_checkpoint_young_s(double write_s, double mtbi_s);
double dc_checkpoint_daly_s(double write_s, double mtbi_s);
double dc_checkpoint_daly_wall_s(double work_s, double interval_s, double write_s,
                                 double restart_s, double mtbi_s);
/* E[Tw] with a detection delay (above); detect_s = 0 gives Daly's. */
double dc_checkpoint_expected_wall_s(double work_s, double interval_s, double write_s,
                                     double restart_s, double detect_s, double mtbi_s);
double dc_checkpoint_ettr_first_order(double interval_s, double write_s,
                                      double restart_s, double mtbi_s);
/* First-order ETTR with a detection delay: (1 - (d + R + tau/2)/M) / (1 + C/tau). */
double dc_checkpoint_ettr_first_order_detect(double interval_s, double write_s, double restart_s,
                                             double detect_s, double mtbi_s);

typedef enum dc_checkpoint_policy {
    DC_CHECKPOINT_FIXED,
    DC_CHECKPOINT_YOUNG,
    DC_CHECKPOINT_DALY,
} dc_checkpoint_policy;

#define DC_CHECKPOINT_MAX_LEVELS 4

/* The progress guarantee (docs/errors.md): an automatic interval (Young's
 * sqrt(2 C M), Daly's) shrinks with the write time C, and at C = 0 the job
 * would checkpoint without end at one instant; a job with an automatic
 * interval needs C >= this.  A fixed interval is at least 1 s (schema). */
#define DC_CHECKPOINT_MIN_WRITE_S 1e-3

typedef struct dc_checkpoint_level {
    char tier[32];
    int every;
    bool partner;
    bool durable;  /* on a shared tier */
} dc_checkpoint_level;

typedef struct dc_checkpoint_plan {
    bool enabled;
    dc_checkpoint_policy policy;
    double interval_s; /* fixed interval, or the latest computed for auto */
    double write_s;
    double size_gb;
    double write_gb_per_s; /* without tiers: the bandwidth write_s came from (0: none given) */
    /* auto */
    bool observed;         /* estimate = "observed" */
    double window_s, prior_s;
    double prior_mtbi_s;   /* NAN: the configured rate */
    /* retention */
    int retain;
    double retain_s;       /* retain_h: also every checkpoint of the last retain_s and the newest before (0: off) */
    /* storage tiers (n_levels 0: write_s from write_gb_per_s) */
    size_t n_levels;
    dc_checkpoint_level levels[DC_CHECKPOINT_MAX_LEVELS];
    bool async;
    double snapshot_s;
} dc_checkpoint_plan;

/* The schema rows of the checkpoint group ({0}-terminated). */
extern const dc_param dc_checkpoint_params[];

/* Makes the plan write every checkpoint to tier (one level), as
 * checkpoint.tier = "NAME" does; at names the key for messages. */
int dc_checkpoint_plan_set_tier(const dc_scenario *sc, const config_setting_t *at, dc_checkpoint_plan *plan,
                                const char *tier, dc_error *err);
/* dc_checkpoint_plan_set_tier in two steps, for many jobs naming one tier:
 * the level (checked against storage.tiers, with its warning when the tier
 * is on the job's nodes), once; then each plan set to it. */
int dc_checkpoint_tier_level(const dc_scenario *sc, const config_setting_t *at, const char *tier,
                             dc_checkpoint_level *lv, dc_error *err);
void dc_checkpoint_plan_use_level(dc_checkpoint_plan *plan, const dc_checkpoint_level *lv);

/* The level checkpoint number k (from 1) is written to. */
size_t dc_checkpoint_level_of(const dc_checkpoint_plan *plan, uint64_t k);

/* Reads the checkpoint group (absent: checkpoints disabled).  model_params
 * is the job's parameter count (0 if unknown) for the size from
 * bytes_per_param. */
int dc_checkpoint_plan_read(const dc_scenario *sc, double model_params,
                            dc_checkpoint_plan *plan, dc_error *err);

/* The optimum of the plan's policy for mtbi_s (INFINITY when mtbi_s is). */
double dc_checkpoint_optimum_s(const dc_checkpoint_plan *plan, double mtbi_s);

/* Sets interval_s for an auto policy from the mean time between
 * interruptions (no-op for a fixed interval). */
void dc_checkpoint_plan_resolve(dc_checkpoint_plan *plan, double mtbi_s);

/* The moving estimate of the time between interruptions (see above). */
typedef struct dc_mtbi_estimator {
    double prior_rate_per_s; /* 1 / M0 (0 when nothing is expected to fail) */
    double prior_s, window_s;
    double start_s;          /* when observation began */
    double *times;           /* ring of interruption times within the window */
    size_t head, n, cap;
} dc_mtbi_estimator;

void dc_mtbi_estimator_init(dc_mtbi_estimator *e, double prior_mtbi_s, double prior_s,
                            double window_s, double start_s);
void dc_mtbi_estimator_free(dc_mtbi_estimator *e);
/* DC_OK or DC_ENOMEM. */
int dc_mtbi_estimator_record(dc_mtbi_estimator *e, double t_s);
/* The estimate of M at now_s (INFINITY when no rate at all). */
double dc_mtbi_estimator_mtbi_s(dc_mtbi_estimator *e, double now_s);

#endif
