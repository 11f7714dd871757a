/* A power's peak and sliding-window swings computed as its points come, without keeping its series.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The peak and the swings of a step function (the power model's IT and
 * facility power) over exactly the points dc_series_record would keep of
 * the same calls: a point at the time of the last one replaces it, one
 * equal to the value before it is dropped (series.h).  The figures are
 * those of dc_series over the kept series, bit for bit:
 *   peak  = max(0, max_i v_i)                              (fmax over the points)
 *   swing = dc_power_swing(t, v, n, end, W) for each width W (power.h):
 *           max over points j of max - min of the values of the segments
 *           i <= j that end (at t_{i+1}) no earlier than t_j - W,
 * so that a run whose series nobody reads (run --no-trace, a sweep's
 * replication) keeps none for them.
 *
 * A point is final once a later time comes (times must not decrease), or
 * at dc_swing_end.  Each window's range is computed as its points become
 * final (monotone deques, O(1) amortised per point; a window of fewer than
 * 16 points is scanned instead) and skipped when it cannot exceed the best
 * so far: the range lies within [lowest point, peak], and a rounded
 * difference is monotone in its terms; likewise within the range of the
 * values since the window was last computed, kept as the points come (a
 * random walk, such as a large cluster's failures and repairs, then skips
 * its windows until it wanders past the best; the deques rebuilt then are
 * still O(1) amortised a point, swing.c).  Memory: the points of the widest
 * window.  The values must not be NaN (powers are finite). */
#ifndef DC_SWING_H
#define DC_SWING_H

#include <stdbool.h>
#include <stddef.h>

#define DC_SWING_MAX_WIDTHS 4

typedef struct dc_swing dc_swing;

/* n widths (ascending, at most DC_SWING_MAX_WIDTHS; none: the peak only);
 * NULL when out of memory. */
dc_swing *dc_swing_create(const double *widths_s, size_t n);
void dc_swing_destroy(dc_swing *sw);

/* A point, as given to dc_series_record. */
void dc_swing_record(dc_swing *sw, double time_s, double value);

/* The end of the step function: its last point is final. */
void dc_swing_end(dc_swing *sw);

/* Whether a final point that cannot change a window's range (settled, within
 * the lowest point and the peak) takes the short path that only stores it
 * (on by default; off: every point through the general path, for the test
 * that compares the two). */
void dc_swing_set_fast(dc_swing *sw, bool on);
/* How many final points took that path (for the test). */
size_t dc_swing_fast_points(const dc_swing *sw);
/* How many times a window of a final point was skipped by its bound (the
 * range of its values since it was last computed: with the fast path on;
 * for the test). */
size_t dc_swing_bounded_windows(const dc_swing *sw);
/* How many times a window's deques were rebuilt from its points, and the
 * points those rebuilds re-scanned (over all windows; for the test of the
 * bound on that work, see swing.c). */
size_t dc_swing_rebuilds(const dc_swing *sw);
size_t dc_swing_rebuilt_points(const dc_swing *sw);

/* The figures over the final points (after dc_swing_end: over all). */
double dc_swing_peak(const dc_swing *sw);
/* The swing of width number k; NAN when memory ran out. */
double dc_swing_range(const dc_swing *sw, size_t k);

#endif
