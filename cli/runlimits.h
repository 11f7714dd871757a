/* Limits checked before a run allocates: its estimated memory and trace size.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Limits checked before anything is allocated for a run (docs/errors.md).
 *
 * Memory.  A run's memory is estimated from the scenario as
 *   M = 16 MiB + 64 B x nodes + 32 B x GPUs x (1 + classes per GPU with their
 *       own per-unit clocks) + 64 B x expected events (when trace.events)
 *       + 16 B x series samples,
 * the per-unit figures measured (peak RSS of `dcsim run` at 1e4 and 1e5
 * nodes: about 23 B per node and 25 B per GPU clock) with margin.  Expected
 * events: 4 per failure (failure, repair start and end, restart), failures =
 * units x horizon / mean time between failures, summed over the classes;
 * the classes that need repair are bounded by the crews' throughput,
 * crews x horizon / mean repair time + nodes (a failed unit cannot fail
 * again before its repair), which keeps the estimate near the real count
 * when failures outpace repairs.  Series samples: 8 per failure (node
 * counts and repair queue) plus 16 series x horizon / sample interval.
 * A run whose estimate exceeds the limit is refused (DC_EINPUT), the message
 * named after the key of the largest term (FILE:LINE: KEY).  The limit
 * is DCSIM_MAX_MEMORY_GB from the environment, else 80% of the machine's
 * physical memory.
 *
 * Trace size.  The trace holds 64 B per event and 16 B per series sample
 * (uncompressed).  The estimate is made before the run (not by stopping a
 * run whose trace grows too large), so nothing is simulated for nothing.  A run whose trace would exceed DCSIM_MAX_TRACE_GB
 * (default 2) is refused before it starts unless --force is given. */
#ifndef DC_CLI_RUNLIMITS_H
#define DC_CLI_RUNLIMITS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "scenario.h"

typedef struct dc_cli_estimate {
    double nodes, gpus, unit_clocks, events, samples;
    double memory_bytes, trace_bytes;
    /* The setting behind the largest term of memory_bytes (cluster.nodes or
     * cluster.spare_nodes, the larger; the law of the class with the most
     * per-unit clocks; the mean time of the class with the most failures, or
     * the repair law's when the crews bound them; trace.sample_interval_s);
     * NULL when that is a default. */
    const config_setting_t *cause;
} dc_cli_estimate;

void dc_cli_estimate_run(const dc_scenario *sc, dc_cli_estimate *e);

/* Refuses (DC_EINPUT) when `copies` simultaneous runs of sc would need more
 * memory than the limit, or (when trace is true and force false) when its
 * trace would exceed the trace limit.  what names the scenario in messages. */
int dc_cli_check_limits(const dc_scenario *sc, const char *what, size_t copies, bool trace, bool force,
                        dc_error *err);

/* A sweep's results in memory: rows x (64 + 40 x figures) bytes (each
 * row's figures, the table built from them, the statistics' work and the
 * results file's image; measured: 2.5 KB a row of small.cfg's 75 figures),
 * refused (DC_EINPUT) above the
 * memory limit.  Checked before any run with DC_CLI_SWEEP_MIN_FIGURES (a
 * run reports at least that many) and again once the first run has told
 * how many figures a run reports. */
#define DC_CLI_SWEEP_MIN_FIGURES 16
int dc_cli_check_sweep_limits(const char *what, double rows, double figures, dc_error *err);

#endif
