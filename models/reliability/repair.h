/* Repair: failed nodes go through a pipeline of crews and parts and come back as spares.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Repair: failed nodes go through a pipeline and come back as spares.
 *
 * Each failure that takes nodes down opens one ticket (a rack failure is one
 * ticket for all its nodes) once it is noticed (dc_failure_event.detect_s
 * after the failure).  Then:
 *
 * 1. Retirement: a node that has now failed K times within a window of W
 *    (repair.retire: failures, window_days; counting single-node failures,
 *    misdiagnosed repeats included) is retired instead of repaired
 *    (dc_cluster_retire); a new node takes its place replace_days later
 *    if that key is given (dc_cluster_replace_retired), else capacity
 *    shrinks.  This is how operators remove "lemon" nodes (Kokolis et al.,
 *    HPCA 2025).
 * 2. Automated remediation (reboot, reset, reimage): with auto_success p > 0
 *    it is tried first, for a time from the auto law; with probability p it
 *    fixes the node (a minimal repair: nothing is replaced, the failed unit
 *    carries on at its age), else the ticket goes on to step 3.
 * 3. Manual repair: tickets wait first-come first-served for one of "crews"
 *    crews (0 = as many as needed).  A class that needs a spare part
 *    (failures.[].part) takes one from that part's stock when a crew starts
 *    on it; if none is on hand (a stock-out) the ticket waits for parts off
 *    the crew queue, its nodes' time going to gpu_hours.parts_wait, and it
 *    goes ahead of the queue when parts come.  A crew works on one ticket for
 *    a time from the class's repair law (failures.[].repair), else the
 *    repair group's law.  With probability `misdiagnosis` the repair misses
 *    the fault: the node comes back still faulty and fails again in the
 *    same class an exponential time of mean refail_h after its return
 *    (failure.h); otherwise the failed part is replaced (the unit's hazard
 *    restarts).
 *
 * Stocks (repair.parts) follow an (s, S) policy with continuous review:
 * when the inventory position (on hand + on order - tickets waiting for the
 * part) falls to the reorder point s or below, S minus the position is
 * ordered and arrives lead_time_h later.  S = order_up_to, by default the
 * initial stock.
 *
 * Lognormal is the usual repair law (LANL: Schroeder & Gibson, "A
 * large-scale study of failures in high-performance computing systems",
 * DSN 2006).  With c crews, Poisson failures and no automation or parts
 * this is an M/G/c queue; with exponential repairs the mean wait follows
 * Erlang C.  Without a repair group nothing is repaired (failed nodes stay
 * down).
 *
 * Figures: repair.tickets, repair.completed, repair.auto_attempts,
 * repair.auto_fixed, repair.auto_share (automated fixes / completed),
 * repair.manual, repair.misdiagnosed, repair.mean_wait_h (waiting for a
 * crew), repair.max_queue, repair.mean_duration_h (manual),
 * repair.crew_utilization, repair.mean_time_to_repair_h (failure to
 * return), repair.retired, repair.replaced, parts.stockouts,
 * parts.orders, repair.parts_wait_h (ticket-hours waiting for parts),
 * repair.mean_parts_wait_h, and per part parts.NAME.used and
 * parts.NAME.on_hand. */
#ifndef DC_REPAIR_H
#define DC_REPAIR_H

#include "sim.h"

extern const dc_model_type dc_model_repair;
extern const dc_param dc_repair_params[];

#endif
