/* The cluster's fabric as a hierarchy of units and the bandwidth a group of GPUs gets on it (pure
 * computation).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The cluster's fabric as a hierarchy of units, the bandwidth a group of
 * GPUs gets for a collective on it, and the health of its links and
 * switches.  Pure computation: network.h turns it into a model.
 *
 * Units, innermost first (G GPUs per node):
 *   scale-up domain  D GPUs joined by NVLink (8 in an HGX node, 72 in an
 *                    NVL72 rack): bandwidth Bsu per GPU and direction;
 *   NIC domain       X = max(G, D) GPUs whose traffic leaves through their
 *                    NICs: e0 = (NICs per node x NIC bandwidth) / G per GPU;
 *   leaf             nodes_per_leaf nodes under one ToR (fat_tree) or one
 *                    rail group, each node's NIC i on rail switch i
 *                    (rail_optimized); uplinks = downlinks / o_leaf, so
 *                    e_leaf = e0 / o_leaf per GPU;
 *   pod (3 tiers)    leaves_per_pod leaves at e_leaf inside, joined by a
 *                    core tier with oversubscription o_pod:
 *                    e_pod = e0 / (o_leaf o_pod).
 *   torus3d          nodes on an X x Y x Z torus (x fastest), six links of
 *                    bandwidth Bl per node.
 * GPU g of the job sits on node g / G; nodes fill leaves and pods in order.
 *
 * Groups: a collective runs over n ranks at a stride of s GPUs (Megatron
 * rank order: tensor parallel innermost, then pipeline, then data
 * parallel), and every GPU of the job runs the same collective at the same
 * time in its own group (SPMD).  With m_U members of the group in one
 * unit U, the unit holds |U| / m_U concurrent groups, and a ring ordered
 * by location (NCCL builds topology-aware rings) leaves the unit once per
 * group; so the ring's rate is capped at the unit's egress per group:
 *     B = min( Bsu            if two members share a scale-up domain,
 *              e0 hn m_X       if the group spans NIC domains,
 *              e_leaf hl m_leaf if it spans leaves,
 *              e_pod hp m_pod  if it spans pods )
 * where hn, hl, hp are the health of the worst unit the job uses (the
 * slowest unit holds back a synchronous collective).  This is the max-min
 * fair rate of those ring flows (tests/test_network.c checks it against
 * sim/maxmin.h on explicit small fabrics).  With placement = "scattered"
 * (nodes spread over the job's k units at random) a ring edge crosses a
 * unit boundary with probability 1 - 1/k: m_U becomes m_X / (1 - 1/k).
 * Oversubscription therefore costs nothing while enough members of a group
 * share each pod (m_pod >= o_pod, as in Llama 3's placement) and up to
 * 1/o_pod of the bandwidth when they do not.
 * Latency: the ring's alpha is that of its widest hop: scale-up latency
 * inside a domain, else latency + switches x hop latency with 1 switch
 * inside a leaf, 3 across leaves and 5 across pods (torus: one router per
 * hop).  Hierarchical collectives run the inner phase in the NIC domain
 * and the outer ring among one member per domain (stride s m_X).
 *
 * Torus (pessimistic, simple): groups map onto the torus x-first; with a
 * node stride k, members along a dimension are k hops apart and each link
 * carries k rings.  Flat ring and tree: one direction of one dimension,
 * B = Bl m_node / (G k1).  Hierarchical = dimension-wise bidirectional
 * rings (the TPU-pod all-reduce): per dimension B = 2 Bl m_node / (G k_d),
 * on a shard that shrinks by each dimension's extent.
 *
 * Failures (see dc_net_part): a NIC link takes 1/NICs of its node's
 * bandwidth; a leaf uplink 1/uplinks of its leaf's; a pod uplink
 * 1/uplinks of its pod's; a spine switch one uplink of every leaf of its
 * pod (2 tiers: of every leaf) and its share of the pod's core uplinks; a
 * core switch 1/cores of every pod's uplinks; a leaf switch isolates its
 * nodes (fat_tree) or takes one NIC from each node of its rail group
 * (rail_optimized); a torus link halves the rings through its nodes.
 * A node with no NIC left, or a leaf or pod with no uplink left while the
 * job spans more than one, has no path: the change reports a cut.  Units
 * without a path are left out of hn, hl, hp: the job is assumed restarted
 * around them (network.h).
 *
 * These closed forms describe one job alone on the first job_nodes nodes;
 * fabric.h gives every job its share of the same fabric on its own nodes
 * (and reduces to them for a job alone there). */
#ifndef DC_TOPOLOGY_H
#define DC_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "collective.h"
#include "error.h"

typedef enum dc_topology_kind { DC_TOPO_FAT_TREE, DC_TOPO_RAIL, DC_TOPO_TORUS } dc_topology_kind;
typedef enum dc_placement { DC_PLACE_PACKED, DC_PLACE_SCATTERED } dc_placement;

typedef struct dc_topology_spec {
    dc_topology_kind kind;
    int tiers;                /* fat_tree, rail: 2 or 3 */
    uint32_t gpus_per_node;
    uint32_t nodes_per_leaf;  /* under one ToR, or one rail group */
    uint32_t leaves_per_pod;  /* 3 tiers */
    uint32_t switch_radix;    /* ports of a top switch: at most this many leaves (2 tiers) or pods (3) */
    double leaf_oversub, pod_oversub;
    uint32_t nics_per_node;
    double nic_Bps;           /* per NIC and direction */
    uint32_t scaleup_gpus;
    double scaleup_Bps;       /* per GPU and direction */
    double scaleup_latency_s, latency_s, hop_latency_s;
    uint32_t torus[3];
    double torus_link_Bps;
    dc_placement placement;
} dc_topology_spec;

typedef enum dc_net_part {
    DC_PART_NIC_LINK,     /* node to leaf (torus: a link between neighbours) */
    DC_PART_LEAF_LINK,    /* leaf to spine */
    DC_PART_POD_LINK,     /* pod to core (3 tiers) */
    DC_PART_LEAF_SWITCH,
    DC_PART_SPINE_SWITCH,
    DC_PART_CORE_SWITCH,  /* 3 tiers */
} dc_net_part;
#define DC_PART_COUNT 6

typedef struct dc_topology dc_topology;

/* The most nodes the fabric can connect. */
double dc_topology_max_nodes(const dc_topology_spec *spec);

/* Checks the spec for a cluster of nodes (the job on the first job_nodes).
 * On DC_EINPUT, *bad_key names the offending key under "network." (for
 * example "switch_radix"). */
int dc_topology_create(const dc_topology_spec *spec, uint32_t nodes, uint32_t job_nodes,
                       dc_topology **out, const char **bad_key, dc_error *err);
void dc_topology_destroy(dc_topology *t);
const dc_topology_spec *dc_topology_get_spec(const dc_topology *t);

/* How many of a part the fabric has (0 if it has none). */
uint64_t dc_topology_part_count(const dc_topology *t, dc_net_part part);
/* Allocates the failure state of a part.  DC_OK or DC_ENOMEM. */
int dc_topology_track(dc_topology *t, dc_net_part part);
bool dc_topology_part_failed(const dc_topology *t, dc_net_part part, uint64_t unit);

/* Units [first, end) of a level (0 nodes, 1 leaves, 2 pods) whose health a
 * change touched. */
typedef struct dc_net_range {
    int level;
    uint64_t first, end;
} dc_net_range;
#define DC_NET_CHANGE_RANGES 3

typedef struct dc_net_change {
    bool changed; /* a health factor of the first job_nodes' units changed */
    bool cut;     /* one of those units lost its last path */
    dc_net_range ranges[DC_NET_CHANGE_RANGES]; /* every unit touched, whoever uses it */
    int n_ranges;
} dc_net_change;
/* Fails or repairs one unit of a tracked part. */
dc_net_change dc_topology_set_failed(dc_topology *t, dc_net_part part, uint64_t unit, bool failed);

/* Health factors of the job's worst unit: [0] nodes, [1] leaves, [2] pods. */
void dc_topology_health(const dc_topology *t, double h[3]);
/* Units of a level (0 nodes, 1 leaves or rail groups, 2 pods; a torus has
 * only nodes, 2 tiers no pods) and the health of one, in [0, 1]: a node's
 * NICs (torus: links; 0 under a dead fat-tree leaf switch), a leaf's uplinks
 * (with its spines), a pod's core uplinks (with spines and cores); 1 when
 * no part is tracked. */
uint32_t dc_topology_units(const dc_topology *t, int level);
double dc_topology_unit_health(const dc_topology *t, int level, uint64_t unit);

typedef struct dc_ring_bw {
    double bw_Bps;  /* per rank and direction; INFINITY for n <= 1 */
    double alpha_s;
} dc_ring_bw;
/* The bandwidth and step latency of a ring over n ranks at stride GPUs. */
dc_ring_bw dc_topology_ring(const dc_topology *t, uint32_t n, uint32_t stride);
/* The same with the health factors h (nodes, leaves, pods) instead of the
 * first job_nodes' ones. */
dc_ring_bw dc_topology_ring_h(const dc_topology *t, uint32_t n, uint32_t stride, const double h[3]);
/* A ring's bandwidth and latency from someone else (a job's share of the
 * shared fabric, fabric.h). */
typedef dc_ring_bw (*dc_topology_ring_fn)(void *ctx, uint32_t n, uint32_t stride);

typedef struct dc_coll_cost {
    double time_s;
    dc_coll_algo algo; /* the one used (the fastest for AUTO) */
    double bw_Bps;     /* the flat ring's (outer ring's for hierarchical) bandwidth */
} dc_coll_cost;
/* Time of op over n ranks at stride on S bytes (sendrecv: to the rank
 * stride GPUs away).  TREE for anything but all-reduce runs the ring. */
dc_coll_cost dc_topology_collective(const dc_topology *t, dc_coll_op op, dc_coll_algo algo, uint32_t n,
                                    uint32_t stride, double bytes);
/* The same with every ring (flat, pair, hierarchical outer) from ring_fn,
 * and node_health for the torus's dimension-wise rings. */
dc_coll_cost dc_topology_collective_with(const dc_topology *t, dc_coll_op op, dc_coll_algo algo, uint32_t n,
                                         uint32_t stride, double bytes, dc_topology_ring_fn ring_fn, void *ctx,
                                         double node_health);

#endif
