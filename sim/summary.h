/* The run's summary: an ordered list of named figures, each with a unit and a description.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The run's summary: an ordered list of named figures, each with a unit and a
 * one-line description.  Keys are stable (they are the JSON keys and the
 * dataset names under /summary in the trace); dots group them
 * ("interruptions.faulty_gpu").
 *
 * The GPU-hour breakdown is a set of summary lines under the prefix
 * "gpu_hours.": "gpu_hours.capacity" is what the cluster could have delivered
 * over the simulated time, every other "gpu_hours.*" line is one destination
 * (useful work, down for repair, idle spare, ...), and the lines sum to the
 * capacity.  Models add their own lines, so the list is not fixed. */
#ifndef DC_SUMMARY_H
#define DC_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define DC_BREAKDOWN_PREFIX "gpu_hours."
#define DC_BREAKDOWN_TOTAL "gpu_hours.capacity"
/* CPU-only nodes (cluster.types with gpus_per_node = 0) have a breakdown of
 * their own in node-hours, the same way: the lines under "cpu_node_hours."
 * sum to "cpu_node_hours.capacity". */
#define DC_CPU_BREAKDOWN_PREFIX "cpu_node_hours."
#define DC_CPU_BREAKDOWN_TOTAL "cpu_node_hours.capacity"

typedef struct dc_summary dc_summary;

dc_summary *dc_summary_create(void);
void dc_summary_destroy(dc_summary *s);

/* Sets (or replaces) a figure.  unit may be "" for a pure number; doc may be
 * NULL.  DC_OK or DC_ENOMEM. */
int dc_summary_set(dc_summary *s, const char *key, double value,
                   const char *unit, const char *doc);
/* Adds value to the figure (creating it at 0 first). */
int dc_summary_add(dc_summary *s, const char *key, double value,
                   const char *unit, const char *doc);

bool dc_summary_get(const dc_summary *s, const char *key, double *value);
size_t dc_summary_count(const dc_summary *s);
const char *dc_summary_key(const dc_summary *s, size_t i);
double dc_summary_value(const dc_summary *s, size_t i);
const char *dc_summary_unit(const dc_summary *s, size_t i);
const char *dc_summary_doc(const dc_summary *s, size_t i);

/* One JSON object {"key": value, ...}; non-finite values are written as null.
 * Values are printed with 17 significant digits so they read back exactly. */
int dc_summary_write_json(const dc_summary *s, FILE *out);

/* The table a person reads: figures with units, then the GPU-hour breakdown
 * with each line's share of the capacity. */
int dc_summary_write_text(const dc_summary *s, FILE *out);

#endif
