/* The per-GPU power limit that meets a cap: a piecewise-linear equation solved by bracketing its segments.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* See powercap.h.  The segment is found without sorting the breakpoints:
 * from a guess x, the breakpoints a <= x < b around it are found in one
 * pass and fill(a), fill(b) in another; if fill(a) <= T < fill(b) they
 * are the segment (a is then the breakpoint with the largest fill(a) <= T,
 * b the next one: exactly what a bisection over the sorted breakpoints
 * finds), else the bracket [L, R] of breakpoints with fill(L) <= T <
 * fill(R) shrinks to [b, R] or [L, a] and x moves to the secant of the
 * bracket (its middle, or L, when the secant falls outside).  Every step
 * removes at least one breakpoint from the bracket, so the search ends. */
#include "powercap.h"

#include <math.h>

static inline double clamp_w(double c, const dc_powercap_job *j)
{
    return c < j->lo_w ? j->lo_w : c > j->hi_w ? j->hi_w : c;
}

double dc_powercap_fill(const dc_powercap_job *jobs, size_t n, double c_w)
{
    double g = 0.0;
    for (size_t k = 0; k < n; k++)
        g += jobs[k].n_gpu * clamp_w(c_w, &jobs[k]);
    return g;
}

/* fill at a and at b in one pass (each sum in the jobs' order, as
 * dc_powercap_fill would give it). */
static void fill2(const dc_powercap_job *jobs, size_t n, double a, double b, double *ga, double *gb)
{
    double sa = 0.0, sb = 0.0;
    for (size_t k = 0; k < n; k++) {
        sa += jobs[k].n_gpu * clamp_w(a, &jobs[k]);
        sb += jobs[k].n_gpu * clamp_w(b, &jobs[k]);
    }
    *ga = sa;
    *gb = sb;
}

/* The largest breakpoint at most x (-INFINITY if none) and the smallest
 * above it (INFINITY if none). */
static void neighbours(const dc_powercap_job *jobs, size_t n, double x, double *below, double *above)
{
    double lo = -INFINITY, hi = INFINITY;
    for (size_t k = 0; k < n; k++) {
        dc_powercap_bracket(jobs[k].lo_w, x, &lo, &hi);
        dc_powercap_bracket(jobs[k].hi_w, x, &lo, &hi);
    }
    *below = lo;
    *above = hi;
}

double dc_powercap_solve(const dc_powercap_job *jobs, size_t n, double target_w, double *guess_w)
{
    double a = -INFINITY, b = INFINITY;
    if (isfinite(*guess_w))
        neighbours(jobs, n, *guess_w, &a, &b);
    return dc_powercap_solve_near(jobs, n, target_w, guess_w, a, b);
}

double dc_powercap_solve_near(const dc_powercap_job *jobs, size_t n, double target_w, double *guess_w,
                              double below_w, double above_w)
{
    /* The guess's segment first (the last answer: a budget that moved a
     * little is often still on it).  When fill(a) < T < fill(b) there, it
     * is the segment the search below would end on, the only one of
     * adjacent breakpoints with fill(a) <= T < fill(b); and with fill of the
     * lowest breakpoint below T and of the highest above, the search does
     * not stop at either.  The same a, b, fill(a), fill(b): the same C. */
    if (isfinite(*guess_w)) {
        double a = below_w, b = above_w, ga, gb;
        if (isfinite(a) && isfinite(b)) {
            fill2(jobs, n, a, b, &ga, &gb);
            if (ga < target_w && gb > target_w) {
                double c = a + (target_w - ga) * (b - a) / (gb - ga); /* (b > a) */
                *guess_w = c;
                return c;
            }
        }
    }
    double first = INFINITY, last = -INFINITY; /* the lowest and highest breakpoints */
    for (size_t k = 0; k < n; k++) {
        first = jobs[k].lo_w < first ? jobs[k].lo_w : first;
        last = jobs[k].hi_w > last ? jobs[k].hi_w : last;
    }
    double g_first, g_last;
    fill2(jobs, n, first, last, &g_first, &g_last);
    if (g_first >= target_w)
        return first;
    if (g_last <= target_w)
        return last;
    double L = first, R = last, gL = g_first, gR = g_last; /* fill(L) <= T < fill(R) */
    double x = *guess_w > L && *guess_w < R ? *guess_w : L + (target_w - gL) * (R - L) / (gR - gL);
    for (;;) {
        if (!(x > L && x < R))
            x = L + 0.5 * (R - L);
        if (!(x < R)) /* L and R adjacent doubles: from L the step cannot stall */
            x = L;
        double a, b, ga, gb;
        neighbours(jobs, n, x, &a, &b); /* L <= a <= x < b <= R */
        fill2(jobs, n, a, b, &ga, &gb);
        if (ga <= target_w && gb > target_w) {
            double c = b > a ? a + (target_w - ga) * (b - a) / (gb - ga) : a;
            *guess_w = c;
            return c;
        }
        if (gb <= target_w) {
            L = b;
            gL = gb;
        } else {
            R = a;
            gR = ga;
        }
        x = L + (target_w - gL) * (R - L) / (gR - gL);
    }
}
