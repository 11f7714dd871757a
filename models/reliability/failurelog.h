/* Failure logs: a cluster's recorded failures read through a column mapping, for exact replay.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Failure logs (failure_log group): the failures a real cluster recorded,
 * injected exactly (failure.h does the injecting).  A CSV read by
 * sim/csv.h with a column mapping, as job traces are (tracemap.h):
 *
 *   failure_log = { file = "failures.csv"; time_unit = "h";
 *                   columns = { time = "prob_started"; node = "nodenum";
 *                               class = "failure_type"; repair = "downtime_h"; };
 *                   class_map = "Hardware: hw, Software: sw, Network: hw"; };
 *   failures = ( { name = "hw"; from_log = true; repair = { ... }; },   # only the log's
 *                { name = "sw"; mtbf_h = 5e4; } );                        # the log's and its own
 *
 * columns (each the header of the file's column):
 *   time     required: when the failure happened (time_unit, or a UTC
 *            date-time with time_format = "datetime"; epoch as in tracemap.h)
 *   node     required: the node, a number (minus node_base, default 0:
 *            LANL numbers nodes from 0, many logs from 1) or a name (names
 *            get the nodes 0, 1, ... in order of first appearance)
 *   class    the failure class (a failures.[] name, or a value class_map
 *            maps to one: "VALUE: class, ..."); absent: the group's class
 *   repair   time to repair (time_unit): the node comes back exactly then,
 *            without a repair ticket; or
 *   return   when it came back (a time, as time)
 *   without repair or return the repair model repairs it (its crews, parts
 *   and the class's repair law).
 * A row strikes as a failure of its class does (the class's takes: node or
 * rack, and its detection delay), on a node that is up; a node already down
 * then is skipped (failure_log.skipped).  Rows after the horizon are not
 * injected.  failures.[].from_log = true turns a class's own random
 * arrivals off (it needs no law then): its failures are exactly the log's;
 * otherwise the log's failures come beside them.
 *
 * LANL's logs (Schroeder & Gibson, DSN 2006) map as time = "Prob Started"
 * (date-times), node = "nodenum", class = "Failure Type", return = "Prob
 * Fixed"; the Failure Trace Archive's event tables (Kondo et al., CCGrid
 * 2010) as time = "event_start_time", node = "node_id", return =
 * "event_end_time" (Unix seconds) for its unavailability events.
 *
 * Bad rows are errors naming the file, line and column: a missing field, a
 * non-number, a time before the previous row's (sort the log) or the epoch,
 * a node outside the cluster, more node names than nodes, an unknown
 * class, a negative repair time or a return before the failure. */
#ifndef DC_FAILURELOG_H
#define DC_FAILURELOG_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

extern const dc_param dc_failurelog_params[];

typedef struct dc_failure_row {
    double time_s;     /* from the start of the run */
    uint32_t node;
    int class_id;      /* index in failures */
    double return_s;   /* time to return after the failure; 0: the repair model's */
} dc_failure_row;

/* The rows of the scenario's failure_log (none: *rows NULL, *n 0), given the
 * failure classes' names and the cluster's node count. */
int dc_failurelog_read(const dc_scenario *sc, const char *const *class_names, size_t n_classes, uint32_t n_nodes,
                       dc_failure_row **rows, size_t *n, dc_error *err);

#endif
