/* The per-GPU power limit that meets a cap on the summed power of jobs with different ranges.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The power model's cap solver (power.h: site cap, heat limit).  Job j has
 * n_j computing GPUs whose power can be set anywhere in [lo_j, hi_j] (its
 * lowest and highest clock); one per-GPU limit C applies to all, so the
 * GPUs draw
 *   fill(C) = sum_j n_j clamp(C, lo_j, hi_j)
 * (summed in the jobs' order), non-decreasing and piecewise linear in C
 * with breakpoints at every lo_j and hi_j.  The limit meeting a budget T is
 * the largest C with fill(C) <= T: on the segment [a, b] between the
 * breakpoint a with the largest fill(a) <= T and the next breakpoint b,
 *   C = a + (T - fill(a)) (b - a) / (fill(b) - fill(a)),
 * the lowest breakpoint when fill there already reaches T, the highest
 * when even it stays within T. */
#ifndef DC_POWERCAP_H
#define DC_POWERCAP_H

#include <stddef.h>

typedef struct dc_powercap_job {
    double n_gpu, lo_w, hi_w; /* n_gpu > 0, lo_w <= hi_w */
} dc_powercap_job;

/* fill(c_w) over jobs[0 .. n). */
double dc_powercap_fill(const dc_powercap_job *jobs, size_t n, double c_w);

/* The limit C for budget target_w (n >= 1).  The search starts at *guess_w
 * (NaN: none) and leaves the answer there: the next call, with a budget
 * that moved a little, takes one or two passes over the jobs.  The answer
 * does not depend on the guess.  O(n) per step, no sorting; the steps are
 * bounded by the number of breakpoints (each shrinks a bracket of them). */
double dc_powercap_solve(const dc_powercap_job *jobs, size_t n, double target_w, double *guess_w);
/* The same, given the guess's neighbours: below_w the largest breakpoint
 * (lo_w or hi_w of a job) at most *guess_w (-INFINITY if none), above_w the
 * smallest above it (INFINITY if none), found by the caller in a pass it
 * makes anyway (as dc_powercap_solve finds them: lo_w then hi_w of each
 * job, in order; ignored when *guess_w is not finite). */
double dc_powercap_solve_near(const dc_powercap_job *jobs, size_t n, double target_w, double *guess_w,
                              double below_w, double above_w);

/* One breakpoint bp_w taken into the bracket of x_w: below_w, the largest
 * breakpoint at most x_w, and above_w, the smallest above it (for
 * dc_powercap_solve_near's below_w and above_w, from -INFINITY and
 * INFINITY). */
static inline void dc_powercap_bracket(double bp_w, double x_w, double *below_w, double *above_w)
{
    if (bp_w <= x_w)
        *below_w = bp_w > *below_w ? bp_w : *below_w;
    else
        *above_w = bp_w < *above_w ? bp_w : *above_w;
}

#endif
