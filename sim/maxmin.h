/* Weighted max-min fair sharing of capacities among flows, by progressive filling.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Weighted max-min fair sharing of capacities among flows, by progressive
 * filling (Bertsekas & Gallager, "Data Networks", 2nd ed. 1992, sec. 6.5.2).
 * Pure arithmetic: resources are numbers, flows are lists of resources.
 *
 * Resource r has capacity c_r >= 0.  Flow f crosses the resources in its
 * list (each at most once), has a weight w_f > 0 (a flow standing for w
 * identical member flows has weight w) and an optional cap (the most it can
 * use: its demand or its own hardware; INFINITY = none).  With coefficients
 * a_fr (> 0) a flow at rate x loads resource r with a_fr x (a job's bundle
 * of a_fr identical ring edges crossing r, each at rate x); without, 1.
 *
 * Progressive filling: a level L rises from 0; every unfrozen flow gets
 * w_f L.  A resource saturates when the loads on it reach c_r; every
 * unfrozen flow through it freezes at its current rate.  A flow also
 * freezes when it reaches its cap.  The result is the unique weighted
 * max-min fair allocation: no flow's rate per unit weight can grow without
 * lowering that of a flow with no larger rate per unit weight.  Each round
 * freezes at least one flow, so there are at most F rounds of
 * O(R + sum of path lengths) work.
 *
 * A flow with no resource and no cap gets INFINITY. */
#ifndef DC_MAXMIN_H
#define DC_MAXMIN_H

#include <stddef.h>

typedef struct dc_maxmin_flow {
    const int *res;  /* indices of the resources it crosses */
    size_t n_res;
    double weight;   /* > 0 */
    double cap;      /* >= 0; INFINITY for none */
    const double *coef; /* load per unit of rate on each resource (> 0); NULL: 1 each */
} dc_maxmin_flow;

/* Writes the rate of each flow into rate[n_flows].  DC_OK, DC_ENOMEM, or
 * DC_EINPUT for a negative capacity, a weight <= 0, a coefficient <= 0, a
 * NaN, or a resource index out of range. */
int dc_maxmin_solve(size_t n_res, const double *capacity, size_t n_flows,
                    const dc_maxmin_flow *flows, double *rate);

/* The same with the caller's scratch (a solver called at every change of a
 * flow set keeps one, instead of allocating each time): work holds at
 * least dc_maxmin_work_bytes(n_res, n_flows) bytes, aligned as malloc's;
 * DC_OK or DC_EINPUT as above. */
size_t dc_maxmin_work_bytes(size_t n_res, size_t n_flows);
int dc_maxmin_solve_in(void *work, size_t n_res, const double *capacity, size_t n_flows,
                       const dc_maxmin_flow *flows, double *rate);

#endif
