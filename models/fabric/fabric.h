/* The fabric shared by every job: each job's collectives as flows on the links they cross, shared
 * max-min fairly, and the ring bandwidth each job gets.  Pure computation; network.h drives it.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The fabric shared by every job (fat_tree, rail_optimized; a torus keeps
 * topology.h's per-job rings, see below).
 *
 * Units (topology.h): NIC domains of X = max(G, D) GPUs (the node, or an
 * NVL72 rack), leaves (a ToR, or a rail group) of nodes_per_leaf nodes,
 * pods of leaves_per_pod leaves (3 tiers).  A leaf's uplinks carry
 *     c_leaf = N_leaf G e0 / o_leaf x h_leaf
 * bytes/s out of it (N_leaf its nodes, e0 = NICs x NIC bandwidth / G per
 * GPU, h_leaf its health: uplinks and spines up), a pod's
 *     c_pod = N_pod G e0 / (o_leaf o_pod) x h_pod;
 * a node's NICs carry G e0 h_node, and belong to the job on it (one NIC per
 * GPU: jobs on one node never share a NIC).  Scale-up links are per GPU and
 * non-blocking (NVSwitch): never shared either.
 *
 * A job's GPUs follow the order of its nodes (node index), so each unit
 * holds a block of P_U consecutive GPUs of it.  A ring of n ranks at stride
 * s (Megatron order: groups of n members b + i s tile blocks of n s GPUs)
 * ordered by location leaves a unit once per group that has members both
 * inside and outside it; with the unit's block taken as aligned on a group
 * block, that is
 *     g_U(n, s) = min(s, R) - max(0, min(s, R - (n - 1) s)),
 * R = P_U mod n s (R = 0: the unit holds whole blocks, g = 0).  On a
 * rail-optimised fabric a ring with one member per node whose stride is not
 * a multiple of G joins GPUs of different ranks, i.e. different rails: every
 * edge crosses the spine, g = P_U.  With placement = "scattered" (ranks in
 * random order over the job's nodes), a chunk of m_X members in a NIC domain
 * is followed by one outside U with probability 1 - f_U (f_U = P_U / the
 * job's GPUs): g = P_U / m_X (1 - f_U).
 *
 * Sharing.  While a job holds an allocation (from its first run on it
 * until it gives its nodes back: the fluid stands for the steady state,
 * pauses for checkpoints and restarts included) its data-parallel ring (its
 * outermost collective; the pipeline's when d = 1; tensor's when both are
 * 1), the representative shape given at registration, is a bundle of
 * a_jU = g_U(rep) edges at each unit U it leaves, each edge at the job's
 * rate x_j, capped at what the job gets alone (cap_j: the smallest
 * c_U / a_jU over its units, its NICs, NVLink).  A unit whose demand
 * D_U = sum_j a_jU cap_j exceeds c_U (by more than 1e-9) binds; the jobs
 * and binding units connected through binding units form a component,
 * solved by weighted max-min (sim/maxmin.h, coefficients a_jU) whenever a
 * job of it starts or stops, its nodes change (a failed node replaced: the
 * units of the nodes lost and gained only), or a capacity changes: nothing
 * else is recomputed.  A job's collective of any shape then gets, ring by ring,
 *     B = min( NVLink Bsu        if two members share a scale-up domain,
 *              P e0 h / g        over its NIC domains,
 *              c'_U / g_U        over the units it leaves ),
 * c'_U = c_U at a unit that does not bind, else c_U less the other jobs'
 * load there (the capacity their max-min rates leave it).  Alone on a
 * healthy fabric with its nodes in order this is topology.h's closed form;
 * two jobs sharing a binding link each get their max-min share of it.
 * Latency: topology.h's, from the widest level the ring crosses.
 *
 * A job that does not compute, or has no placement yet, is costed on its
 * ideal placement: its nodes from node 0 on, the fabric healthy and empty
 * (the step time "with the fabric healthy" of the summary).
 *
 * Failures: dc_fabric_health_changed re-reads the health of the units a
 * change touched; a job on the fabric with a unit it communicates through left
 * at health 0 (a node with no NIC while it spans nodes, a leaf or pod with
 * no uplink while it spans several) is reported cut, and that unit is left
 * out of its bandwidth from then on (it is assumed restarted around it).
 *
 * Torus: no sharing (jobs are taken to own their sub-tori, as TPU slices
 * do); topology.h's rings with the worst health of the job's own nodes.
 *
 * Cost: starting or stopping a job is O(its nodes + the component it joins),
 * a node replaced O(its nodes) compares and O(the component);
 * a ring's bandwidth is O(its distinct unit sizes + units that bind or are
 * degraded), independent of the number of jobs.  A start allocates nothing
 * once the arrays of jobs done (dc_fabric_retire) are big enough, and a
 * placement's entries are keyed for lookup only when one of its nodes moves. */
#ifndef DC_FABRIC_H
#define DC_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "topology.h"

typedef struct dc_fabric dc_fabric;

/* Told of a job whose bandwidth may have changed, and of a job cut off. */
typedef void (*dc_fabric_job_fn)(void *ctx, int32_t job);

/* The fabric over topo (kept by pointer) for nodes nodes.  NULL when out of
 * memory. */
dc_fabric *dc_fabric_create(const dc_topology *topo, uint32_t nodes, dc_fabric_job_fn changed, dc_fabric_job_fn cut,
                            void *ctx);
void dc_fabric_destroy(dc_fabric *f);

/* A job with collectives: its size and representative ring (n ranks at
 * stride GPUs).  DC_OK or DC_ENOMEM. */
int dc_fabric_register(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride);
bool dc_fabric_registered(const dc_fabric *f, int32_t job);
/* A registered job changes size (an elastic job): its flows leave the
 * fabric and are placed anew, for nodes nodes and the new ring, at its
 * next dc_fabric_start. */
void dc_fabric_resize(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride);

/* The job runs on nodes[0..n) (gen: the cluster's count of its node
 * changes; the same gen reuses the last placement): its flows join the
 * fabric, or follow its new nodes; or it gives them back. */
int dc_fabric_start(dc_fabric *f, int32_t job, const uint32_t *nodes, uint32_t n, uint64_t gen);
void dc_fabric_stop(dc_fabric *f, int32_t job);
/* The gen of the job's placement (its nodes are the allocation's at that
 * count); false when it has none. */
bool dc_fabric_placed_gen(const dc_fabric *f, int32_t job, uint64_t *gen);
/* dc_fabric_start told which slots of nodes may differ from its
 * placement's (ascending, each once; n_slots < 0: unknown): every other
 * slot must hold the node it held at the placement's gen
 * (dc_cluster_job_slots_since).  A replacement then compares those only,
 * not every slot; the same placement and figures. */
int dc_fabric_start_slots(dc_fabric *f, int32_t job, const uint32_t *nodes, uint32_t n, uint64_t gen,
                          const uint32_t *slots, int n_slots);
/* The job is done: it stops, and the memory of its placement serves the
 * next job placed (whose start then allocates nothing).  It stays
 * registered, costed on its ideal placement (as before its first start). */
void dc_fabric_retire(dc_fabric *f, int32_t job);
bool dc_fabric_computing(const dc_fabric *f, int32_t job);
/* The job computes on n nodes of allocation gen already: dc_fabric_start
 * with them would change nothing. */
bool dc_fabric_current(const dc_fabric *f, int32_t job, uint32_t n, uint64_t gen);

/* The units of ch changed health (topology.h): capacities, caps and the
 * components they touch are recomputed; cut jobs reported. */
void dc_fabric_health_changed(dc_fabric *f, const dc_net_change *ch);

/* A ring of job over n ranks at stride GPUs. */
dc_ring_bw dc_fabric_ring(dc_fabric *f, int32_t job, uint32_t n, uint32_t stride);
/* The worst health of the job's nodes while it computes (1 otherwise). */
double dc_fabric_node_health(const dc_fabric *f, int32_t job);
/* The job's max-min rate per edge of its representative ring, and alone. */
double dc_fabric_rate(const dc_fabric *f, int32_t job);
double dc_fabric_solo_rate(const dc_fabric *f, int32_t job);

/* The lowest health of a unit a job on the fabric uses (1 when none is
 * degraded), and of a node's NICs among them. */
double dc_fabric_worst_in_use(const dc_fabric *f);

/* Tests: with no unit shared, tracked or binding anywhere, a change of a
 * job's cap leaves its units as they are and their pass is skipped (on by
 * default); off, every pass is made, with the same figures.  And how many
 * passes were skipped. */
void dc_fabric_set_fast(dc_fabric *f, bool on);
uint64_t dc_fabric_fast_skips(const dc_fabric *f);

#endif
