/* Collective operations by the alpha-beta cost model: ring, tree, hierarchical.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "collective.h"

#include <math.h>

const char *dc_coll_algo_name(dc_coll_algo algo)
{
    static const char *const names[] = {"auto", "ring", "tree", "hierarchical"};
    return names[algo];
}

const char *dc_coll_op_name(dc_coll_op op)
{
    static const char *const names[] = {"all-reduce", "all-gather", "reduce-scatter", "send/receive"};
    return names[op];
}

/* One phase of a ring: n-1 steps, each moving S/n. */
static double ring_phase_s(double n, double bytes, double bw_Bps, double alpha_s)
{
    if (n <= 1.0)
        return 0.0;
    return (n - 1.0) * alpha_s + (n - 1.0) / n * bytes / bw_Bps;
}

double dc_coll_ring_allreduce_s(double n, double bytes, double bw_Bps, double alpha_s)
{
    return 2.0 * ring_phase_s(n, bytes, bw_Bps, alpha_s);
}

double dc_coll_ring_allgather_s(double n, double bytes, double bw_Bps, double alpha_s)
{
    return ring_phase_s(n, bytes, bw_Bps, alpha_s);
}

double dc_coll_ring_reducescatter_s(double n, double bytes, double bw_Bps, double alpha_s)
{
    return ring_phase_s(n, bytes, bw_Bps, alpha_s);
}

double dc_coll_tree_allreduce_s(double n, double bytes, double bw_Bps, double alpha_s)
{
    if (n <= 1.0)
        return 0.0;
    return 2.0 * ceil(log2(n)) * alpha_s + 2.0 * (n - 1.0) / n * bytes / bw_Bps;
}

double dc_coll_hier_allreduce_s(double a, double b, double bytes, double bw_in_Bps, double alpha_in_s,
                                double bw_out_Bps, double alpha_out_s)
{
    return 2.0 * ring_phase_s(a, bytes, bw_in_Bps, alpha_in_s)
           + dc_coll_ring_allreduce_s(b, bytes / a, bw_out_Bps, alpha_out_s);
}

double dc_coll_hier_gather_s(double a, double b, double bytes, double bw_in_Bps, double alpha_in_s,
                             double bw_out_Bps, double alpha_out_s)
{
    return ring_phase_s(a, bytes, bw_in_Bps, alpha_in_s) + ring_phase_s(b, bytes / a, bw_out_Bps, alpha_out_s);
}

double dc_coll_sendrecv_s(double bytes, double bw_Bps, double alpha_s)
{
    return alpha_s + bytes / bw_Bps;
}
