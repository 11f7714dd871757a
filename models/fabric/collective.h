/* Collective operations by the alpha-beta (Hockney) cost model: the closed forms and their
 * interface.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Collective operations by the alpha-beta (Hockney) cost model: a message
 * of m bytes between two ranks takes alpha + m / B.  Symbols: n ranks, S
 * bytes (the whole buffer: the all-reduce's vector, the all-gather's
 * output, the reduce-scatter's input), B the bandwidth each rank gets in
 * each direction (bytes/s), alpha the latency of one step (s).
 *
 *   ring all-reduce      2 (n-1) alpha + 2 (n-1)/n S/B
 *                        (Patarasuk & Yuan, "Bandwidth optimal all-reduce
 *                        algorithms for clusters of workstations", JPDC 2009)
 *   ring all-gather      (n-1) alpha + (n-1)/n S/B
 *   ring reduce-scatter  (n-1) alpha + (n-1)/n S/B
 *                        (Thakur, Rabenseifner & Gropp, "Optimization of
 *                        collective communication operations in MPICH",
 *                        IJHPCA 19(1), 2005)
 *   tree all-reduce      2 ceil(log2 n) alpha + 2 (n-1)/n S/B
 *                        pipelined double binary tree: logarithmic latency,
 *                        the ring's bandwidth term (Sanders, Speck & Traff,
 *                        "Two-tree algorithms for full bandwidth broadcast,
 *                        reduction and scan", Parallel Computing 2009; used
 *                        by NCCL since 2.4)
 *   hierarchical all-reduce over n = a b ranks, a per inner domain
 *                        (NVLink) of bandwidth Bi and latency ai, b domains:
 *                        reduce-scatter inside (a, S), ring all-reduce
 *                        across domains of the shard (b, S/a, Bo, ao),
 *                        all-gather inside (a, S):
 *                        2 [(a-1) ai + (a-1)/a S/Bi]
 *                          + 2 (b-1) ao + 2 (b-1)/b (S/a)/Bo
 *                        (Jia et al., "Highly scalable deep learning
 *                        training system with mixed-precision", 2018)
 *   hierarchical reduce-scatter / all-gather: the inner and the outer
 *                        ring one after the other:
 *                        (a-1) ai + (a-1)/a S/Bi + (b-1) ao + (b-1)/b (S/a)/Bo
 *   send/receive         alpha + S/B
 * One rank (n = 1) costs nothing.  These are the closed forms; the
 * bandwidth a rank really gets on a topology is topology.h's business. */
#ifndef DC_COLLECTIVE_H
#define DC_COLLECTIVE_H

typedef enum dc_coll_algo {
    DC_ALGO_AUTO, /* the fastest of those that apply */
    DC_ALGO_RING,
    DC_ALGO_TREE, /* all-reduce only; other operations fall back to the ring */
    DC_ALGO_HIER,
} dc_coll_algo;
#define DC_ALGO_COUNT 4

typedef enum dc_coll_op {
    DC_COLL_ALLREDUCE,
    DC_COLL_ALLGATHER,
    DC_COLL_REDUCESCATTER,
    DC_COLL_SENDRECV,
} dc_coll_op;

const char *dc_coll_algo_name(dc_coll_algo algo);
const char *dc_coll_op_name(dc_coll_op op);

double dc_coll_ring_allreduce_s(double n, double bytes, double bw_Bps, double alpha_s);
double dc_coll_ring_allgather_s(double n, double bytes, double bw_Bps, double alpha_s);
double dc_coll_ring_reducescatter_s(double n, double bytes, double bw_Bps, double alpha_s);
double dc_coll_tree_allreduce_s(double n, double bytes, double bw_Bps, double alpha_s);
double dc_coll_hier_allreduce_s(double a, double b, double bytes, double bw_in_Bps, double alpha_in_s,
                                double bw_out_Bps, double alpha_out_s);
/* Reduce-scatter and all-gather cost the same hierarchically. */
double dc_coll_hier_gather_s(double a, double b, double bytes, double bw_in_Bps, double alpha_in_s,
                             double bw_out_Bps, double alpha_out_s);
double dc_coll_sendrecv_s(double bytes, double bw_Bps, double alpha_s);

#endif
