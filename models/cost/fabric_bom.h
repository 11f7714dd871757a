/* The fabric's bill of materials: switches, links and transceivers derived from the topology
 * (pure computation).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The switches, cables and optics a fabric of N nodes needs, from the
 * topology the network model simulates (fabric/topology.h: kind, tiers,
 * nodes per leaf, leaves per pod, radix, oversubscription, NICs per node).
 * Every switch has R = switch_radix ports; each NIC is one port; G_n NICs
 * per node.
 *
 * fat_tree (a ToR per leaf of n_l nodes)
 *   leaves       L = ceil(N / n_l); a leaf has d = n_l G_n down ports and
 *                u = ceil(d / o_leaf) up ports, so ceil((d + u) / R)
 *                switches (one when d + u <= R);
 * rail_optimized (a rail group of n_l nodes, NIC i of each node on rail i)
 *   leaves       G_n rail switches per group of n_l nodes, L = G_n ceil(N / n_l):
 *                d = n_l down and u = ceil(n_l / o_leaf) up ports each;
 * then, for both:
 *   2 tiers      spines S = ceil(U / R), U = the leaves' up ports (every
 *                spine port faces a leaf);
 *   3 tiers      pods of p_l leaves (groups); pod k with U_k leaf up ports
 *                sends c_k = ceil(U_k / o_pod) links to the core, its spines
 *                S_k = ceil((U_k + c_k) / R); core C = ceil(sum c_k / R);
 *                with one pod, no core (c_k = 0).
 *   links        node links N G_n (NIC to leaf, in the rack: copper);
 *                leaf links U and pod links sum c_k (between racks: optical,
 *                two transceivers each).
 * torus3d: no switch; 3 N node links (six neighbours, each link shared by
 * two nodes), copper.
 *
 * Check (Al-Fares et al., "A scalable, commodity data center network
 * architecture", SIGCOMM 2008): the k-ary fat-tree is fat_tree, 3 tiers,
 * R = k, n_l = k/2, p_l = k/2, one NIC, o = 1: k^3/4 hosts and 5k^2/4
 * switches (k^2/2 edge, k^2/2 aggregation, k^2/4 core); tests/test_cost.c
 * checks it and oversubscribed and rail-optimised fabrics against hand
 * counts. */
#ifndef DC_FABRIC_BOM_H
#define DC_FABRIC_BOM_H

#include <stdint.h>

#include "fabric/topology.h"

typedef struct dc_fabric_bom {
    uint64_t leaf_switches, spine_switches, core_switches, switches;
    uint64_t node_links;    /* NIC to leaf switch (torus: node to node) */
    uint64_t leaf_links;    /* leaf to spine */
    uint64_t pod_links;     /* spine to core */
    uint64_t optical_links; /* leaf_links + pod_links */
    uint64_t transceivers;  /* 2 per optical link */
} dc_fabric_bom;

/* The bill of materials of spec connecting nodes nodes. */
dc_fabric_bom dc_fabric_bom_of(const dc_topology_spec *spec, uint64_t nodes);

#endif
