/* The fabric's bill of materials from its topology (fabric_bom.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "fabric_bom.h"

#include <math.h>

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return b ? (a + b - 1) / b : 0;
}

/* ceil(x / o) for a whole number of ports x and an oversubscription o >= 1,
 * to a rounding error: 3072 / 7 is 439, 16 / 1 is 16. */
static uint64_t ports_over(uint64_t x, double o)
{
    if (!(o > 0.0))
        return x;
    return (uint64_t)ceil((double)x / o - 1e-9);
}

dc_fabric_bom dc_fabric_bom_of(const dc_topology_spec *sp, uint64_t nodes)
{
    dc_fabric_bom b = {0};
    if (nodes == 0)
        return b;
    uint64_t nics = sp->nics_per_node ? sp->nics_per_node : 1, radix = sp->switch_radix ? sp->switch_radix : 1;
    if (sp->kind == DC_TOPO_TORUS) {
        b.node_links = 3 * nodes;
        return b;
    }
    uint64_t npl = sp->nodes_per_leaf ? sp->nodes_per_leaf : 1;
    /* a unit: one ToR (fat_tree) or one rail group of nics rail switches */
    bool rail = sp->kind == DC_TOPO_RAIL;
    uint64_t sw_down = rail ? npl : npl * nics, sw_up = ports_over(sw_down, sp->leaf_oversub);
    uint64_t sw_per_unit = (rail ? nics : 1) * ceil_div(sw_down + sw_up, radix);
    uint64_t up_per_unit = (rail ? nics : 1) * sw_up;
    uint64_t units = ceil_div(nodes, npl);
    b.leaf_switches = units * sw_per_unit;
    b.node_links = nodes * nics;
    b.leaf_links = units * up_per_unit;
    if (sp->tiers <= 2) {
        b.spine_switches = ceil_div(b.leaf_links, radix);
    } else {
        uint64_t per_pod = sp->leaves_per_pod ? sp->leaves_per_pod : units;
        uint64_t pods = ceil_div(units, per_pod);
        for (uint64_t k = 0; k < pods; k++) {
            uint64_t in_pod = k + 1 < pods ? per_pod : units - (pods - 1) * per_pod;
            uint64_t u = in_pod * up_per_unit, c = pods > 1 ? ports_over(u, sp->pod_oversub) : 0;
            b.spine_switches += ceil_div(u + c, radix);
            b.pod_links += c;
        }
        b.core_switches = ceil_div(b.pod_links, radix);
    }
    b.switches = b.leaf_switches + b.spine_switches + b.core_switches;
    b.optical_links = b.leaf_links + b.pod_links;
    b.transceivers = 2 * b.optical_links;
    return b;
}
