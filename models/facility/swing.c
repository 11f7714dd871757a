/* A power's peak and sliding-window swings computed as its points come (see swing.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "swing.h"

/* The work of the rebuilds.  A window of 16 points or more computed by its
 * deques that takes up its bound (its range below half its best) drops
 * them, and rebuilds them from its points when it is next computed with 16
 * or more: the rebuild re-scans them (first .. j - 1).  Per window, over n
 * final points, with r rebuilds that follow a scan:
 *   points re-scanned <= 3 n + 16 r  (<= 19 n),
 * so that with the rebuilds a point still costs O(1) amortised, on any
 * stream (tests/test_power's adversarial ones: at most 0.73 a point and
 * window).  Sketch: W(j) is the window of point j (an interval of point
 * numbers, its ends non-decreasing), R(.) the range of its values, B(j) the
 * best after j.  A rebuild at j1 follows a last computation j0 that left
 * the deques dropped: a scan (W(j0) of at most 16 points) or a take-up.  It
 * re-scans at most |W(j0)| + (j1 - j0 - 1) points: the intervals (j0, j1)
 * are disjoint (n in all), a scan's W(j0) at most 16.  A take-up's: let d
 * be a later take-up, at or after j1, with W(d) sharing a point p with
 * W(j0).  Every window between contains p and lies within W(j0) and W(d)
 * (the points after j0 are in W(d)), so its range is at most R(W(j0)) +
 * R(W(d)) < B(j0) / 2 + B(d) / 2, whence B(d) = B(j0) (each term below half
 * the best, the rounded sum is still no more than it), and the bound at j1
 * (the values of W(j0) and of the points since: within W(j0) and W(d)) is
 * at most B(j0): it did not pass it.  So the rebuild at j1 was the first
 * after the swing settled (the bound then [lo_v, peak]: it passes B(j0)
 * only when the rounded peak - lo_v has), and as B(d) stays B(j0) the swing
 * cannot settle again before d's rebuild, which is then by d's own bound:
 * W(d) shares no point with a later take-up.  A point is thus in at most
 * two take-up windows followed by a rebuild (2 n in all).  Before the bound
 * was kept through a settled swing (it was cleared), a new lowest point by
 * less than the rounding of peak - lo_v (so the swing settled again at the
 * next point) rebuilt the deques of a long window every other point:
 * quadratic (tests/test_power's stream 1, 1,107 points re-scanned a point
 * and window at 40,000 points). */

#include <assert.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Final point number i is at ring index i & mask of t and v, and of each
 * window's monotone deques (the numbers of its points that may still be
 * its window's maximum, resp. minimum); the rings hold the points from the
 * widest window's first on.  The last point is pending while a point at
 * its time may still replace it. */
typedef struct swing_win {
    double width_s, best;
    size_t *qmax, *qmin;
    size_t first, hmax, tmax, hmin, tmin;
    bool deques;         /* the deques hold the window (see SWING_SCAN) */
    bool bounded;        /* the window's values within [blo, bhi] (see windows) */
    double bhi, blo;
} swing_win;

/* Windows of fewer points than this are scanned (their maximum and minimum
 * are those the deques would give, exactly), unless their deques are kept
 * already and they have SWING_SCAN / 2 points or more (so that a window
 * near the bound does not rebuild its deques at every point). */
#define SWING_SCAN 16

struct dc_swing {
    bool pending, has_final, failed;
    bool fast;           /* final's fast path taken (dc_swing_set_fast: off in a test) */
    size_t n_pushed;     /* the final points through push (the others took the fast path) */
    size_t n_bounded;    /* windows of a point skipped by their bound (see windows) */
    size_t n_rebuilds, n_rebuilt; /* deques rebuilt, and the points they re-scanned (see windows) */
    bool settled;        /* every window short (scanned) and its best the whole range, peak - lo_v */
    double pend_t, pend_v, final_v, peak, lo_v; /* (lo_v: the lowest final point) */
    double *t, *v;
    size_t mask, n;      /* (n: the final points) */
    swing_win win[DC_SWING_MAX_WIDTHS]; /* by increasing width: the last has the earliest first */
    size_t n_win;
};

/* Room in the rings for point st->n: doubled, the points and deques in
 * play moved to their new places; false (the swings unknown) when out of
 * memory. */
static __attribute__((noinline)) bool grow(dc_swing *st)
{
    size_t cap = st->t ? 2 * (st->mask + 1) : 64, nm = cap - 1, lo = st->win[st->n_win - 1].first;
    double *nt = malloc(cap * sizeof *nt), *nv = malloc(cap * sizeof *nv);
    size_t *nq[2 * DC_SWING_MAX_WIDTHS] = {NULL};
    bool ok = nt && nv;
    for (size_t k = 0; k < 2 * st->n_win; k++)
        ok = ok && (nq[k] = malloc(cap * sizeof *nq[k]));
    if (!ok) {
        free(nt);
        free(nv);
        for (size_t k = 0; k < 2 * DC_SWING_MAX_WIDTHS; k++)
            free(nq[k]);
        st->failed = true;
        st->settled = false; /* (final's fast path: no ring to store into) */
        return false;
    }
    for (size_t i = lo; i < st->n; i++) {
        nt[i & nm] = st->t[i & st->mask];
        nv[i & nm] = st->v[i & st->mask];
    }
    for (size_t k = 0; k < st->n_win; k++) {
        swing_win *w = &st->win[k];
        for (size_t i = w->hmax; w->deques && i < w->tmax; i++)
            nq[2 * k][i & nm] = w->qmax[i & st->mask];
        for (size_t i = w->hmin; w->deques && i < w->tmin; i++)
            nq[2 * k + 1][i & nm] = w->qmin[i & st->mask];
        free(w->qmax);
        free(w->qmin);
        w->qmax = nq[2 * k];
        w->qmin = nq[2 * k + 1];
    }
    free(st->t);
    free(st->v);
    st->t = nt;
    st->v = nv;
    st->mask = nm;
    return true;
}

/* The windows' ranges at final point j, (t, v), of first wfirst in the
 * widest window: dc_power_swing's step for it (the same comparisons in the
 * same order, on rings instead of arrays: the same figures bit for bit;
 * every point is at or before the end, so that loop's end test never stops
 * it).  A window of a point is skipped when its range cannot exceed its
 * best (it is within [lo_v, peak], and a rounded difference is monotone in
 * its terms). */
static __attribute__((noinline)) void windows(dc_swing *st, size_t j, size_t wfirst, double t, double v)
{
    size_t m = st->mask;
    double *wt = st->t, *wv = st->v;
    st->settled = true;
    for (size_t k = 0; k < st->n_win; k++) {
        swing_win *w = &st->win[k];
        if (w->bounded) {
            /* The bound: [blo, bhi] holds the values of points f .. j - 1
             * for some f no later than the window's first (the window
             * computed last, and every point since), so hi <= max(bhi, v)
             * and lo >= min(blo, v), and the rounded hi - lo is at most
             * that of the bound: when that is no more than the best, the
             * window cannot raise it (nor its first be needed: it is moved
             * on when next computed).  The window's state waits: its
             * deques are rebuilt, its first moved on when it is computed. */
            double bhi = v > w->bhi ? v : w->bhi, blo = v < w->blo ? v : w->blo;
            w->bhi = bhi;
            w->blo = blo;
            if (bhi - blo <= w->best) {
                st->n_bounded++;
                if (w->best < st->peak - st->lo_v)
                    st->settled = false;
                continue;
            }
            w->bounded = false;
        }
        size_t first = w->first > wfirst ? w->first : wfirst;
        while (first < j && wt[(first + 1) & m] < t - w->width_s)
            first++;
        w->first = first;
        double r;
        if (j - first < (w->deques ? SWING_SCAN / 2 : SWING_SCAN)) {
            /* a short window (the common case: changes minutes apart): its
             * range by a scan, the deques left aside; none when it cannot
             * exceed the best (its range is within [lo_v, peak], and a
             * rounded difference is monotone in its terms) */
            w->deques = false;
            if (w->best >= st->peak - st->lo_v)
                continue;
            st->settled = false;
            double hi = v, lo = v;
            for (size_t i = first; i < j; i++) {
                double x = wv[i & m];
                hi = x > hi ? x : hi;
                lo = x < lo ? x : lo;
            }
            r = hi - lo;
            /* the next points against the bound of this window's values
             * (a scan costs little to come back to) */
            if (st->fast) {
                w->bounded = true;
                w->bhi = hi;
                w->blo = lo;
            }
        } else {
            /* (in locals: the stores into the rings could alias the fields) */
            size_t hmax = w->hmax, tmax = w->tmax, hmin = w->hmin, tmin = w->tmin;
            size_t *qmax = w->qmax, *qmin = w->qmin;
            if (!w->deques) { /* a window grown past the scan's: its deques from its points */
                hmax = tmax = hmin = tmin = 0;
                st->n_rebuilds++;
                st->n_rebuilt += j - first;
                for (size_t i = first; i < j; i++) {
                    double x = wv[i & m];
                    while (tmax > hmax && wv[qmax[(tmax - 1) & m] & m] <= x)
                        tmax--;
                    qmax[tmax++ & m] = i;
                    while (tmin > hmin && wv[qmin[(tmin - 1) & m] & m] >= x)
                        tmin--;
                    qmin[tmin++ & m] = i;
                }
                w->deques = true;
            }
            while (tmax > hmax && wv[qmax[(tmax - 1) & m] & m] <= v)
                tmax--;
            qmax[tmax++ & m] = j;
            while (tmin > hmin && wv[qmin[(tmin - 1) & m] & m] >= v)
                tmin--;
            qmin[tmin++ & m] = j;
            while (qmax[hmax & m] < first)
                hmax++;
            while (qmin[hmin & m] < first)
                hmin++;
            double hi = wv[qmax[hmax & m] & m], lo = wv[qmin[hmin & m] & m];
            r = hi - lo;
            st->settled = false;
            /* the next points against the bound of this window's values,
             * its deques left (rebuilt when the bound passes the best),
             * when the window spans less than half of the best (the bound
             * then has room to grow before a rebuild, and the rebuilds stay
             * linear in the points: the header comment; strictly less, so
             * that this holds after rounding) */
            if (st->fast && r < 0.5 * w->best) {
                w->bounded = true;
                w->bhi = hi;
                w->blo = lo;
                w->deques = false;
            }
            w->hmax = hmax;
            w->tmax = tmax;
            w->hmin = hmin;
            w->tmin = tmin;
        }
        if (r > w->best)
            w->best = r;
        if (w->best < st->peak - st->lo_v)
            st->settled = false;
    }
    /* settled, push and final skip the windows and their bounds; every
     * point so far is within [lo_v, peak], and so is every point they
     * skip, so that is each window's bound from here (without it a new
     * extreme that leaves the rounded peak - lo_v as it was, and so the
     * swing settled again at the next point, rebuilt the deques of a long
     * window each time: see the header comment) */
    for (size_t k = 0; st->settled && k < st->n_win; k++) {
        swing_win *w = &st->win[k];
        w->bounded = st->fast;
        w->bhi = st->peak;
        w->blo = st->lo_v;
    }
}

/* Point (t, v) is final: the peak, and the swings' windows (number st->n;
 * the widest window's first is kept, the rings start there; a narrower
 * one's only when it is computed: its own is no earlier than that nor
 * than it was). */
static __attribute__((noinline)) void push(dc_swing *st, double t, double v, bool inside)
{
    size_t j = st->n;
    swing_win *wide = &st->win[st->n_win - 1];
    st->n_pushed++;
    if (j + 1 > (st->t ? st->mask + 1 : 0) + wide->first) {
        /* final's fast path leaves the widest window's first behind: move
         * it over the points stored (the loop below moves it on to where it
         * would have been), so that the rings grow only for the window */
        size_t wf = wide->first;
        while (wf + 1 < j && st->t[(wf + 1) & st->mask] < t - wide->width_s)
            wf++;
        wide->first = wf;
        if (j + 1 > (st->t ? st->mask + 1 : 0) + wf && !grow(st))
            return;
    }
    size_t m = st->mask;
    st->t[j & m] = t;
    st->v[j & m] = v;
    st->n = j + 1;
    /* segment i ends at t[i + 1] */
    size_t wfirst = wide->first;
    while (wfirst < j && st->t[(wfirst + 1) & m] < t - wide->width_s)
        wfirst++;
    wide->first = wfirst;
    if (!(st->settled && inside)) /* (else no window's range can exceed its best, nor had to be kept) */
        windows(st, j, wfirst, t, v);
}

static inline void final(dc_swing *st, double t, double v)
{
    /* The fast path (settled, the point within [lo_v, peak], room in the
     * rings): push would store the point, move the widest window's first
     * on and compute no window; the peak, lo_v and has_final stay.  The
     * first is left behind: the windows (and the rings' room) start from
     * an earlier first and move it to the same place, since the times do
     * not decrease (t_i < t_j - W is monotone in i).  (settled implies
     * n_win > 0, not failed and a ring.) */
    if (st->settled && v <= st->peak && v >= st->lo_v && st->fast) {
        size_t j = st->n;
        if (j - st->win[st->n_win - 1].first <= st->mask) {
            st->t[j & st->mask] = t;
            st->v[j & st->mask] = v;
            st->n = j + 1;
            st->final_v = v;
            return;
        }
    }
    bool inside = v <= st->peak && v >= st->lo_v; /* (lo_v is 0 before the first point, which settled ignores) */
    if (v > st->peak) /* (fmax for the finite, non-negative powers) */
        st->peak = v;
    if (!st->has_final || v < st->lo_v)
        st->lo_v = v;
    st->final_v = v;
    st->has_final = true;
    if (st->n_win > 0 && !st->failed)
        push(st, t, v, inside);
}

/* A point given to dc_series_record: what the series keeps of it. */
void dc_swing_record(dc_swing *st, double t, double v)
{
    if (st->pending) {
        st->pending = false;
        if (st->pend_t != t) /* a later time: the pending point stays */
            final(st, st->pend_t, st->pend_v);
    }
    if (st->has_final && (st->final_v == v || (isnan(st->final_v) && isnan(v))))
        return; /* no change of the step function */
    st->pending = true;
    st->pend_t = t;
    st->pend_v = v;
}

/* The end of the run: the pending point is final. */
void dc_swing_end(dc_swing *st)
{
    if (st->pending)
        final(st, st->pend_t, st->pend_v);
    st->pending = false;
}

double dc_swing_range(const dc_swing *st, size_t k)
{
    return st->failed ? NAN : st->win[k].best;
}

void dc_swing_set_fast(dc_swing *st, bool on)
{
    st->fast = on;
}

size_t dc_swing_fast_points(const dc_swing *st)
{
    return st->n - st->n_pushed;
}

size_t dc_swing_bounded_windows(const dc_swing *st)
{
    return st->n_bounded;
}

size_t dc_swing_rebuilds(const dc_swing *st)
{
    return st->n_rebuilds;
}

size_t dc_swing_rebuilt_points(const dc_swing *st)
{
    return st->n_rebuilt;
}

double dc_swing_peak(const dc_swing *st)
{
    return st->peak;
}

dc_swing *dc_swing_create(const double *widths_s, size_t n)
{
    assert(n <= DC_SWING_MAX_WIDTHS);
    dc_swing *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    for (size_t k = 0; k < n; k++) {
        assert(k == 0 || widths_s[k] >= widths_s[k - 1]);
        st->win[k].width_s = widths_s[k];
    }
    st->n_win = n;
    st->fast = true;
    return st;
}

void dc_swing_destroy(dc_swing *st)
{
    if (!st)
        return;
    free(st->t);
    free(st->v);
    for (size_t k = 0; k < st->n_win; k++) {
        free(st->win[k].qmax);
        free(st->win[k].qmin);
    }
    free(st);
}
