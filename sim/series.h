/* Time series recorded during a run: (time_s, value) points.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Time series recorded during a run: (time_s, value) points.
 *
 * A series is a step function recorded where it changes: recording a value
 * equal to the last one is skipped, and recording twice at the same time
 * keeps the last value.  Sampled series (fixed interval) use the same call.
 * Memory grows by doubling; an allocation failure marks the set as failed
 * (dc_series_set_failed) instead of returning codes at every call site. */
#ifndef DC_SERIES_H
#define DC_SERIES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct dc_series dc_series;
typedef struct dc_series_set dc_series_set;

dc_series_set *dc_series_set_create(void);
void dc_series_set_destroy(dc_series_set *set);

/* The series named name, created on first use with its unit and description;
 * NULL when out of memory. */
dc_series *dc_series_set_get(dc_series_set *set, const char *name,
                             const char *unit, const char *doc);
size_t dc_series_set_count(const dc_series_set *set);
dc_series *dc_series_set_at(const dc_series_set *set, size_t i);
bool dc_series_set_failed(const dc_series_set *set);
/* Off: the set's series record nothing (they stay empty) but those a model
 * keeps; for runs whose series nobody reads (a sweep's replications, a run
 * without a trace).  A new set is on. */
void dc_series_set_enable(dc_series_set *set, bool enabled);
/* The model computes a figure from this series: it is recorded even when
 * its set is off. */
void dc_series_keep(dc_series *series);
/* Whether series records (its set is on, or it is kept). */
bool dc_series_recording(const dc_series *series);

void dc_series_record(dc_series *series, double time_s, double value);

const char *dc_series_name(const dc_series *series);
const char *dc_series_unit(const dc_series *series);
const char *dc_series_doc(const dc_series *series);
size_t dc_series_length(const dc_series *series);
const double *dc_series_times(const dc_series *series);
const double *dc_series_values(const dc_series *series);

#endif
