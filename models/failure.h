/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* Component failures.
 *
 * The scenario's "failures" list names any number of classes.  Each has
 *   per    the count basis: "gpu", "node", "rack" (one process per unit of
 *          the cluster, spares included), "job" (one per job, running only
 *          while the job computes) or "job_gpu" (one per GPU of a computing job);
 *   takes  what one failure takes down: "node" (the unit's node leaves its
 *          job and goes to repair), "rack" (every healthy node of the rack,
 *          one repair) or "job" (the job restarts, no node is lost);
 *   a law  (dist.h): mtbf_h / afr per unit, exponential, weibull, lognormal
 *          or gamma.
 *
 * Exponential classes: superposition.  The class is one Poisson process of
 * rate U / MTBF for its U units; each arrival picks a unit uniformly and is
 * kept only if that unit can fail now (its node is up; its job is
 * computing).  This is thinning (Lewis & Shedler 1979): the kept arrivals
 * form a Poisson process of rate (units that can fail) / MTBF, exactly what
 * independent exponential units give, at one pending event per class.  The
 * random numbers drawn do not depend on the cluster's state, so two
 * scenarios with the same seed see the same failure arrivals (common random
 * numbers).
 *
 * Other laws: renewal processes with one clock per unit; the unit's next
 * lifetime is drawn at each failure (a failure that comes while its node is
 * already down is dropped and the clock renews).  Job bases must be
 * exponential.
 *
 * Each kept failure calls dc_cluster_fail, which tells the jobs and the
 * repair model; the class's long-run rate (1 / mean per unit) is registered
 * with dc_cluster_add_hazard for checkpoint policies. */
#ifndef DC_FAILURE_H
#define DC_FAILURE_H

#include "sim.h"

extern const dc_model_type dc_model_failure;
extern const dc_param dc_failure_params[];

#endif
