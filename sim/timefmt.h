/* Time fields of data files (job traces, failure logs): units and UTC date-times.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Time fields of the data files the models read (job traces, failure
 * logs): a unit's length in seconds, and UTC date-times
 * "YYYY-MM-DD HH:MM[:SS[.fff]]" ('T' between the date and the time, a
 * final 'Z' allowed) as seconds since 1970-01-01 (the proleptic Gregorian
 * calendar, H. Hinnant's days_from_civil; leap seconds ignored, as POSIX
 * time does). */
#ifndef DC_TIMEFMT_H
#define DC_TIMEFMT_H

#include <stdbool.h>

/* The units data files may give: "s|ms|us|min|h" (for schema choices). */
#define DC_TIMEFMT_UNITS "s|ms|us|min|h"

/* Seconds in one unit of DC_TIMEFMT_UNITS; NAN for another name. */
double dc_timefmt_unit_s(const char *unit);

/* Seconds since 1970-01-01 UTC of s; false when s is not such a date-time. */
bool dc_timefmt_datetime(const char *s, double *out_s);

#endif
