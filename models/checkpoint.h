/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* Checkpoint policy: how often a job saves its state, and what that costs.
 *
 * Symbols: C write time of one checkpoint (s), M mean time between job
 * interruptions (s), R restart time (s), tau compute time between
 * checkpoints (s).
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
 *   first-order ETTR (Kokolis et al., HPCA 2025, with dt = tau, w = C,
 *   u0 = R, N r = 1/M):
 *                   ETTR ~= (1 - (R + tau/2)/M) / (1 + C/tau)
 *
 * interval_s = "auto" takes the policy's optimum for the M the failure
 * models register on the cluster for a job of this size. */
#ifndef DC_CHECKPOINT_H
#define DC_CHECKPOINT_H

#include "sim.h"

double dc_checkpoint_young_s(double write_s, double mtbi_s);
double dc_checkpoint_daly_s(double write_s, double mtbi_s);
double dc_checkpoint_daly_wall_s(double work_s, double interval_s, double write_s,
                                 double restart_s, double mtbi_s);
double dc_checkpoint_ettr_first_order(double interval_s, double write_s,
                                      double restart_s, double mtbi_s);

typedef enum dc_checkpoint_policy {
    DC_CHECKPOINT_FIXED,
    DC_CHECKPOINT_YOUNG,
    DC_CHECKPOINT_DALY,
} dc_checkpoint_policy;

typedef struct dc_checkpoint_plan {
    bool enabled;
    dc_checkpoint_policy policy;
    double interval_s; /* fixed interval, or computed at start for auto */
    double write_s;
    double size_gb;
} dc_checkpoint_plan;

/* The schema rows of the checkpoint group ({0}-terminated). */
extern const dc_param dc_checkpoint_params[];

/* Reads the checkpoint group (absent: checkpoints disabled).  model_params
 * is the job's parameter count (0 if unknown) for the size from
 * bytes_per_param. */
int dc_checkpoint_plan_read(const dc_scenario *sc, double model_params,
                            dc_checkpoint_plan *plan, dc_error *err);

/* Sets interval_s for an auto policy from the mean time between
 * interruptions (no-op for a fixed interval). */
void dc_checkpoint_plan_resolve(dc_checkpoint_plan *plan, double mtbi_s);

#endif
