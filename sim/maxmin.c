/* Weighted max-min fair sharing by progressive filling.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "maxmin.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "error.h"

/* Relative slack under which a resource counts as full: the subtraction
 * rem - W (rem / W) leaves a few ulps of rem, far below this. */
#define FULL_EPS 1e-12

size_t dc_maxmin_work_bytes(size_t n_res, size_t n_flows)
{
    /* rem, wsum (double), users (size_t), full (bool) per resource; frozen
     * (bool) per flow; the 8-byte arrays first, so each is aligned */
    return (n_res + 1) * (2 * sizeof(double) + sizeof(size_t) + sizeof(bool)) + (n_flows + 1) * sizeof(bool);
}

int dc_maxmin_solve(size_t n_res, const double *capacity, size_t n_flows,
                    const dc_maxmin_flow *flows, double *rate)
{
    void *work = malloc(dc_maxmin_work_bytes(n_res, n_flows));
    int rc = work ? dc_maxmin_solve_in(work, n_res, capacity, n_flows, flows, rate) : DC_ENOMEM;
    free(work);
    return rc;
}

int dc_maxmin_solve_in(void *work, size_t n_res, const double *capacity, size_t n_flows,
                       const dc_maxmin_flow *flows, double *rate)
{
    for (size_t r = 0; r < n_res; r++)
        if (!(capacity[r] >= 0.0))
            return DC_EINPUT;
    for (size_t f = 0; f < n_flows; f++) {
        if (!(flows[f].weight > 0.0) || !isfinite(flows[f].weight) || !(flows[f].cap >= 0.0))
            return DC_EINPUT;
        for (size_t k = 0; k < flows[f].n_res; k++)
            if (flows[f].res[k] < 0 || (size_t)flows[f].res[k] >= n_res
                || (flows[f].coef && !(flows[f].coef[k] > 0.0 && isfinite(flows[f].coef[k]))))
                return DC_EINPUT;
    }
    double *rem = work;
    double *wsum = rem + (n_res + 1);
    size_t *users = (size_t *)(wsum + (n_res + 1));
    bool *full = (bool *)(users + (n_res + 1));
    bool *frozen = full + (n_res + 1);
    for (size_t r = 0; r < n_res; r++) {
        rem[r] = capacity[r];
        wsum[r] = 0.0;
        users[r] = 0;
    }
    for (size_t f = 0; f < n_flows; f++) {
        rate[f] = 0.0;
        frozen[f] = false;
        for (size_t k = 0; k < flows[f].n_res; k++) {
            wsum[flows[f].res[k]] += flows[f].coef ? flows[f].weight * flows[f].coef[k] : flows[f].weight;
            users[flows[f].res[k]]++;
        }
    }
    size_t active = n_flows;
    while (active > 0) {
        /* The rise of the level until the next resource fills or flow caps. */
        double dl = INFINITY;
        size_t argmin_res = n_res, argmin_flow = n_flows;
        for (size_t r = 0; r < n_res; r++)
            if (users[r] > 0) {
                double d = rem[r] > 0.0 ? rem[r] / wsum[r] : 0.0;
                if (d < dl)
                    dl = d, argmin_res = r;
            }
        for (size_t f = 0; f < n_flows; f++)
            if (!frozen[f] && isfinite(flows[f].cap)) {
                double d = (flows[f].cap - rate[f]) / flows[f].weight;
                if (d < 0.0)
                    d = 0.0;
                if (d < dl)
                    dl = d, argmin_flow = f, argmin_res = n_res;
            }
        if (!isfinite(dl)) {
            /* Neither a resource nor a cap binds what is left. */
            for (size_t f = 0; f < n_flows; f++)
                if (!frozen[f])
                    rate[f] = INFINITY;
            break;
        }
        for (size_t f = 0; f < n_flows; f++)
            if (!frozen[f])
                rate[f] += flows[f].weight * dl;
        for (size_t r = 0; r < n_res; r++) {
            if (users[r] > 0)
                rem[r] -= wsum[r] * dl;
            full[r] = users[r] > 0 && (rem[r] <= FULL_EPS * capacity[r] || r == argmin_res);
        }
        for (size_t f = 0; f < n_flows; f++) {
            if (frozen[f])
                continue;
            bool stop = f == argmin_flow || (isfinite(flows[f].cap) && rate[f] >= flows[f].cap * (1.0 - FULL_EPS));
            for (size_t k = 0; k < flows[f].n_res && !stop; k++)
                stop = full[flows[f].res[k]];
            if (!stop)
                continue;
            if (rate[f] > flows[f].cap)
                rate[f] = flows[f].cap;
            frozen[f] = true;
            active--;
            for (size_t k = 0; k < flows[f].n_res; k++) {
                int r = flows[f].res[k];
                /* Recount rather than subtract to the last user: no residue. */
                if (--users[r] == 0)
                    wsum[r] = 0.0;
                else
                    wsum[r] -= flows[f].coef ? flows[f].weight * flows[f].coef[k] : flows[f].weight;
            }
        }
    }
    return DC_OK;
}
