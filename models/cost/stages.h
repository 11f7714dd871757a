/* Cost of capacity over time: one delivery stage's rent, purchase, depreciation and residual value.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A delivery stage (cluster.h: dc_cluster_stage) of n nodes and G GPUs is
 * present on [a, r], a its arrival, r = min(its retire day, T), T the end of
 * the window (cost.h).  Its devices (GPUs and servers) are an asset of their
 * own, C = f (1 + spares_fraction) (G gpu_usd + n server_usd), bought at o:
 *   rent then buy (rent_until_day D): rented on demand at price p on
 *     [a, min(D, r)] (rent G (min(D, r) - a) p), bought in full (f = 1) at
 *     o = max(a, D) when o < r;
 *   otherwise bought at o = a in the share f = cost.owned, the rest rented
 *     as the cluster's (cost.h): on demand f_d G (r - a) p, reserved
 *     f_r G [T_c p (1 - discount) + max(0, r - a - T_c) p], the commitment
 *     starting at a.
 * Depreciation from the stage's own start: straight line over life L from
 * o, charged over u = r - o years, D_s = (C - R) / L min(u, L), R =
 * residual_fraction C; interest i integral_o^r B dt as cost.h's; book value
 * at r, B = C - D_s: at a refresh (r = retire day < T) what the old stage
 * is worth when it leaves (sold: it leaves the books), else its value at T.
 * Net present value: the capital flow e^(-delta o) x cost.h's capital flow
 * over [0, u]; the rent spread evenly over its own interval.
 * A stage arriving at 0 that never retires and is not rented is exactly
 * the cluster's devices of cost.h. */
#ifndef DC_COST_STAGES_H
#define DC_COST_STAGES_H

#include <stdbool.h>

#include "cluster.h"

typedef struct dc_cost_stage_prices {
    double gpus_per_node, gpu_usd, server_usd;   /* the stage's hardware and its prices */
    double spares_fraction, life_y, residual_fraction, interest_rate;
    double owned, reserved_share;                /* cost.owned, cost.rented_reserved */
    double on_demand_usd, reserved_discount, commit_h;
    double delta;                                /* ln(1 + discount rate) */
} dc_cost_stage_prices;

typedef struct dc_cost_stage_figures {
    double present_gpu_h;            /* G (r - a) */
    double owned_gpu_h;              /* G f (r - o) */
    double owned_node_y;             /* n f (r - o), years */
    double rented_gpu_h;             /* GPU-hours rented */
    double capex_usd;                /* C, spent at bought_s (0: not bought in the window) */
    double bought_s;                 /* o (NAN: not bought in the window) */
    double depreciation_usd, interest_usd, book_usd;
    bool sold;                       /* retired within the window: book_usd is its residual then */
    double on_demand_usd, reserved_usd;
    double npv_usd;                  /* of the capital charges and rent */
} dc_cost_stage_figures;

dc_cost_stage_figures dc_cost_stage(const dc_cluster_stage *st, const dc_cost_stage_prices *p, double t_s);

#endif
