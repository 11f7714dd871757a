/* Fluid transfers sharing capacities max-min fairly (maxmin.h), driven by the engine.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Fluid transfers sharing capacities max-min fairly (maxmin.h), driven by
 * the engine.  No physics: resources are capacities in units per second,
 * transfers are amounts of units.
 *
 * A transfer has an amount left (INFINITY for a stream that runs until
 * stopped), a weight, a cap and the resources it crosses.  Between changes
 * every transfer progresses at its max-min rate.  Whenever something changes
 * (a transfer starts, ends or is stopped, a capacity or a cap is set) the
 * set banks every transfer's progress up to now, solves the allocation
 * again and schedules one engine event: the earliest completion.  So the
 * cost is one solve per change, never per unit of time.
 *
 * A completed transfer is removed before its callback runs; the callback
 * may start or stop transfers.  Listeners (dc_flows_on_rerate) hear of every
 * new allocation, for example to update a job's data stall. */
#ifndef DC_FLOWS_H
#define DC_FLOWS_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

typedef struct dc_flows dc_flows;

/* A transfer's handle: slot and generation; 0 names nothing. */
typedef uint64_t dc_flow_id;
#define DC_FLOW_NONE ((dc_flow_id)0)

typedef void (*dc_flow_done_fn)(dc_sim *sim, void *ctx, dc_flow_id id);
typedef void (*dc_flow_rerate_fn)(dc_sim *sim, void *ctx);

/* NULL when out of memory. */
dc_flows *dc_flows_create(dc_sim *sim);
void dc_flows_destroy(dc_flows *fl);

/* A new resource of capacity >= 0: its index, or -1 when out of memory. */
int dc_flows_add_resource(dc_flows *fl, double capacity);
void dc_flows_set_capacity(dc_flows *fl, int res, double capacity);
double dc_flows_capacity(const dc_flows *fl, int res);

/* Starts a transfer of amount (> 0, INFINITY for a stream) across res[0..n);
 * done (may be NULL) runs when it completes.  DC_FLOW_NONE after failing
 * the run when out of memory. */
dc_flow_id dc_flows_start(dc_flows *fl, const int *res, size_t n_res, double weight,
                          double cap, double amount, dc_flow_done_fn done, void *ctx);
/* Removes a transfer without calling done; a stale id is ignored. */
void dc_flows_stop(dc_flows *fl, dc_flow_id id);
void dc_flows_set_cap(dc_flows *fl, dc_flow_id id, double cap);

/* Current rate; 0 for a stale id. */
double dc_flows_rate(const dc_flows *fl, dc_flow_id id);
/* Amount left now (banked to the engine's clock); 0 for a stale id. */
double dc_flows_remaining(const dc_flows *fl, dc_flow_id id);
/* The rate a new transfer would get now, with the transfers in progress
 * (their rates adjust too); nothing changes. */
double dc_flows_probe(const dc_flows *fl, const int *res, size_t n_res, double weight, double cap);
size_t dc_flows_active(const dc_flows *fl);

/* Between hold and release, changes are banked but solved only once, at
 * the release (for several caps set together).  Holds nest. */
void dc_flows_hold(dc_flows *fl);
void dc_flows_release(dc_flows *fl);

/* Calls fn(sim, ctx) after every new allocation.  DC_OK or DC_ENOMEM. */
int dc_flows_on_rerate(dc_flows *fl, dc_flow_rerate_fn fn, void *ctx);

/* Inside fn: the transfers whose rate that allocation changed (a new
 * transfer's first rate counts as a change), so that a listener need not
 * look at every transfer it follows; valid until the next allocation. */
size_t dc_flows_changed(const dc_flows *fl, const dc_flow_id **ids);
/* The slot a live transfer occupies: 0 .. (most transfers live at once) - 1,
 * for a caller's table indexed by transfer. */
size_t dc_flows_slot(dc_flow_id id);

#endif
