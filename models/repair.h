/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* Repair: failed nodes wait for a crew, are repaired, and come back as spares.
 *
 * Each failure that takes nodes down opens one ticket (a rack failure is one
 * ticket for all its nodes).  Tickets wait first-come first-served for one of
 * "crews" crews (0 = as many as needed); a crew works on one ticket for a
 * time drawn from the class's repair law (failures.[].repair), else the
 * repair group's law.  Lognormal is the usual law (LANL: Schroeder & Gibson,
 * "A large-scale study of failures in high-performance computing systems",
 * DSN 2006).  With c crews and Poisson failures this is an M/G/c queue; with
 * exponential repairs the mean wait follows Erlang C.  Without a repair
 * group nothing is repaired (failed nodes stay down).
 *
 * Figures: repair.tickets, repair.completed, repair.mean_wait_h (time from
 * failure to a crew starting), repair.max_queue, repair.mean_duration_h,
 * repair.crew_utilization. */
#ifndef DC_REPAIR_H
#define DC_REPAIR_H

#include "sim.h"

extern const dc_model_type dc_model_repair;
extern const dc_param dc_repair_params[];

#endif
