/* Named placement policies: which idle nodes of a pool a job gets (pack, spread, random, topology_aware).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A pool's idle nodes by rack, leaf and pod (the network's domains,
 * cluster.h: node i in rack i / nodes_per_rack, leaf i / nodes_per_leaf,
 * pod leaf / leaves_per_pod), kept as the scheduler reports each change
 * (dc_placer_add), and the choice of n of them for a job
 * (dc_placer_choose) by a named policy:
 *   pack: the smallest domain that holds the job (the rack, else the leaf,
 *     else the pod with the fewest idle nodes that holds it: best fit; the
 *     lowest on ties), its nodes in node order; a job larger than every
 *     pod's idle count takes the pod that holds what is left, else the
 *     fullest, and again;
 *   spread: round-robin over the pods (lowest first), one node at a time,
 *     each pod's nodes round-robin over its racks: on an idle cluster of P
 *     pods of K racks a job of n <= P K nodes spans min(n, P) pods and n
 *     racks;
 *   random: n idle nodes drawn uniformly without replacement (a Fenwick tree
 *     of the racks' idle counts finds the k-th idle node), from the
 *     scheduler's random stream "scheduler.placement": deterministic for a
 *     seed; on an idle cluster of N nodes in R racks of m the racks a job of
 *     n spans have mean R (1 - C(N - m, n) / C(N, n));
 *   topology_aware: the smallest domain that holds the job, as pack, and in
 *     it the job's model replicas (block nodes each: tensor x pipeline
 *     GPUs / GPUs per node, from its step-time layout; 1 without one) each
 *     in one rack where a rack holds one (racks in order), else in one leaf,
 *     else anywhere in the domain: each tensor group and pipeline stays in
 *     the smallest domain that holds it, and the data-parallel ring (one
 *     rank per replica, across the whole job) in the domain that holds the
 *     job.  With blocks of 1 node it is pack with first fit inside the
 *     domain.
 * The cost of a choice is O(racks of the domain searched + n) (random:
 * O(n (log racks + nodes per rack))), never a scan of the pool. */
#ifndef DC_PLACER_H
#define DC_PLACER_H

#include <stdbool.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

typedef enum dc_placer_policy {
    DC_PLACER_PACK,
    DC_PLACER_SPREAD,
    DC_PLACER_RANDOM,
    DC_PLACER_TOPOLOGY,
} dc_placer_policy;

typedef struct dc_placer dc_placer;

/* The pool's nodes first..first+n-1, none idle yet; rng: random's stream
 * (not owned).  NULL when out of memory. */
dc_placer *dc_placer_create(dc_placer_policy policy, uint32_t first, uint32_t n, uint32_t nodes_per_rack,
                            uint32_t nodes_per_leaf, uint32_t leaves_per_pod, gsl_rng *rng);
void dc_placer_destroy(dc_placer *pl);
/* node became idle (+1) or stopped being idle (-1) (no-op if already so). */
void dc_placer_add(dc_placer *pl, uint32_t node, int delta);
uint32_t dc_placer_idle(const dc_placer *pl);
bool dc_placer_is_idle(const dc_placer *pl, uint32_t node);
/* Chooses up to n idle nodes (block: nodes per model replica, for
 * topology_aware), writes them to out and takes them out of the idle set;
 * returns how many (n unless fewer are idle). */
uint32_t dc_placer_choose(dc_placer *pl, uint32_t n, uint32_t block, uint32_t *out);
/* Work done (racks and nodes looked at), for the scheduler's counter. */
uint64_t dc_placer_work(const dc_placer *pl);

#endif
