/* Fail-slow nodes (stragglers), for failure classes with mode = "slow".
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Fail-slow nodes (stragglers), for failure classes with mode = "slow".
 *
 * Such a failure does not stop its node: from its onset the node runs at a
 * speed factor s in (0, 1) (failures.[].slow_factor).  A synchronous
 * data-parallel job advances at the pace of its slowest member (every step
 * waits for the last contribution to the all-reduce), so the job's speed
 * factor from source "straggler" is
 *        f_job = min over the job's busy nodes of s(node)    (1 if none is slow)
 * set through dc_cluster_set_job_speed: the job re-banks its work and the
 * GPU-hours lost appear as gpu_hours.straggler (cluster.h), at the rate
 * (1 - f_job) x the job's GPUs while it computes.
 *
 * Detection: the class's detection delay after the onset (a monitor that
 * compares step or collective times; MegaScale, NSDI 2024, finds
 * stragglers within minutes and saw about 0.5% of its machines straggle).
 * Policy at detection: "evict" takes the node out if s < evict_below
 * (dc_cluster_fail with the class: the job restarts from its last
 * checkpoint on a spare, and the node goes to repair like any failed node);
 * otherwise the straggler is tolerated and stays slow until it goes down
 * for another reason (a repaired node comes back at full speed).  A node
 * that is already slow does not become slow again.
 *
 * Figures: stragglers.onsets, stragglers.detected, stragglers.evicted,
 * stragglers.tolerated, stragglers.slow_node_h (node-hours spent slow,
 * busy or spare). */
#ifndef DC_STRAGGLER_H
#define DC_STRAGGLER_H

#include <stdbool.h>

#include "cluster.h"

typedef struct dc_straggler dc_straggler;

/* Registers the "straggler" speed source and subscribes to the signals it
 * needs; NULL with err set when out of memory. */
dc_straggler *dc_straggler_create(dc_sim *sim, dc_cluster *c, dc_error *err);
void dc_straggler_destroy(dc_straggler *s);

bool dc_straggler_is_slow(const dc_straggler *s, uint32_t node);

/* Node becomes slow now.  class_name must outlive the simulation. */
void dc_straggler_onset(dc_straggler *s, uint32_t node, double factor, int class_id,
                        const char *class_name, double detect_s, bool evict);

/* Banks slow time up to now and writes the figures. */
void dc_straggler_finish(dc_straggler *s, dc_summary *summary);

#endif
