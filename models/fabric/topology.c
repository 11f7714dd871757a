/* The fabric as a hierarchy of units: the bandwidth a group of GPUs gets, link and switch health.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "topology.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A torus node has six links; losing all of them isolates it. */
#define TORUS_LINKS 6

struct dc_topology {
    dc_topology_spec s;
    uint32_t nodes, job_nodes;
    uint32_t n_leaves, n_pods, job_leaves, job_pods;
    uint32_t leaf_uplinks; /* per leaf (or rail group) */
    uint32_t rail_uplinks; /* per rail switch */
    uint32_t pod_uplinks, cores;
    uint64_t count[DC_PART_COUNT];
    uint8_t *failed[DC_PART_COUNT];
    /* Health state, allocated when a part is first tracked. */
    bool tracking;
    uint16_t *node_down; /* NICs (torus: links) lost per node */
    uint8_t *leaf_dead;  /* fat_tree: the leaf switch is down */
    uint32_t *leaf_down; /* uplinks lost per leaf */
    uint32_t *pod_down;  /* core uplinks lost per pod */
    uint32_t *spine_down; /* per pod (3 tiers) or [0] (2 tiers) */
    uint32_t core_down;
    double h[3];
    /* Per level (nodes, leaves, pods) over the job's units: a min segment
     * tree of the health of units with a path (INFINITY for the others:
     * leaves at seg[n + u]), each unit's state and the count of cut ones.
     * O(log n) per unit changed, whatever the size of the fabric. */
    double *seg[3];
    uint8_t *state[3];
    uint32_t n_units[3];
    uint64_t iso[3];
};

enum { UNIT_IN, UNIT_CUT, UNIT_OUT };

static uint32_t ceil_div(uint64_t a, uint64_t b)
{
    return (uint32_t)((a + b - 1) / b);
}

double dc_topology_max_nodes(const dc_topology_spec *s)
{
    if (s->kind == DC_TOPO_TORUS)
        return (double)s->torus[0] * s->torus[1] * s->torus[2];
    double per_top = (double)s->nodes_per_leaf * (s->tiers == 3 ? s->leaves_per_pod : 1);
    return per_top * s->switch_radix;
}

const dc_topology_spec *dc_topology_get_spec(const dc_topology *t)
{
    return &t->s;
}

int dc_topology_create(const dc_topology_spec *spec, uint32_t nodes, uint32_t job_nodes,
                       dc_topology **out, const char **bad_key, dc_error *err)
{
    const dc_topology_spec *s = spec;
    *bad_key = NULL;
    uint32_t g = s->gpus_per_node, d = s->scaleup_gpus;
    if (d % g != 0 && g % d != 0) {
        *bad_key = "scaleup_gpus";
        return dc_error_set(err, DC_EINPUT,
                            "a scale-up domain of %u GPUs neither fills whole nodes of %u GPUs nor divides one", d, g);
    }
    if (s->kind == DC_TOPO_TORUS && d > g) {
        *bad_key = "scaleup_gpus";
        return dc_error_set(err, DC_EINPUT, "a torus joins nodes; its scale-up domain (%u GPUs) must fit in a node of %u",
                            d, g);
    }
    double cap = dc_topology_max_nodes(s);
    if ((double)nodes > cap) {
        if (s->kind == DC_TOPO_TORUS) {
            *bad_key = "torus_x";
            return dc_error_set(err, DC_EINPUT, "a %u x %u x %u torus holds %.0f nodes; the cluster has %u",
                                s->torus[0], s->torus[1], s->torus[2], cap, nodes);
        }
        *bad_key = "switch_radix";
        if (s->tiers == 2)
            return dc_error_set(err, DC_EINPUT,
                                "a 2-tier fabric of radix-%u spines joins at most %u leaves of %u nodes = %.0f nodes; "
                                "the cluster has %u (use 3 tiers or a larger radix)",
                                s->switch_radix, s->switch_radix, s->nodes_per_leaf, cap, nodes);
        return dc_error_set(err, DC_EINPUT,
                            "a 3-tier fabric of radix-%u cores joins at most %u pods of %u leaves x %u nodes = %.0f "
                            "nodes; the cluster has %u",
                            s->switch_radix, s->switch_radix, s->leaves_per_pod, s->nodes_per_leaf, cap, nodes);
    }
    dc_topology *t = calloc(1, sizeof *t);
    if (!t)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    t->s = *s;
    t->nodes = nodes;
    t->job_nodes = job_nodes;
    for (int lv = 0; lv < 3; lv++)
        t->h[lv] = 1.0;
    if (s->kind == DC_TOPO_TORUS) {
        t->count[DC_PART_NIC_LINK] = 3ull * nodes;
    } else {
        t->n_leaves = ceil_div(nodes, s->nodes_per_leaf);
        t->job_leaves = ceil_div(job_nodes, s->nodes_per_leaf);
        if (s->kind == DC_TOPO_RAIL) {
            t->rail_uplinks = (uint32_t)ceil(s->nodes_per_leaf / s->leaf_oversub);
            t->leaf_uplinks = t->rail_uplinks * s->nics_per_node;
            t->count[DC_PART_LEAF_SWITCH] = (uint64_t)t->n_leaves * s->nics_per_node;
        } else {
            t->leaf_uplinks = (uint32_t)ceil((double)s->nodes_per_leaf * s->nics_per_node / s->leaf_oversub);
            t->count[DC_PART_LEAF_SWITCH] = t->n_leaves;
        }
        t->count[DC_PART_NIC_LINK] = (uint64_t)nodes * s->nics_per_node;
        t->count[DC_PART_LEAF_LINK] = (uint64_t)t->n_leaves * t->leaf_uplinks;
        if (s->tiers == 3) {
            t->n_pods = ceil_div(t->n_leaves, s->leaves_per_pod);
            t->job_pods = ceil_div(t->job_leaves, s->leaves_per_pod);
            t->pod_uplinks = (uint32_t)ceil((double)s->leaves_per_pod * t->leaf_uplinks / s->pod_oversub);
            t->cores = ceil_div((uint64_t)t->pod_uplinks * t->n_pods, s->switch_radix);
            t->count[DC_PART_POD_LINK] = (uint64_t)t->n_pods * t->pod_uplinks;
            t->count[DC_PART_SPINE_SWITCH] = (uint64_t)t->n_pods * t->leaf_uplinks;
            t->count[DC_PART_CORE_SWITCH] = t->cores;
        } else {
            t->n_pods = t->job_pods = 1;
            t->count[DC_PART_SPINE_SWITCH] = t->leaf_uplinks;
        }
    }
    *out = t;
    return DC_OK;
}

void dc_topology_destroy(dc_topology *t)
{
    if (!t)
        return;
    for (int p = 0; p < DC_PART_COUNT; p++)
        free(t->failed[p]);
    free(t->node_down);
    free(t->leaf_dead);
    free(t->leaf_down);
    free(t->pod_down);
    free(t->spine_down);
    for (int lv = 0; lv < 3; lv++) {
        free(t->seg[lv]);
        free(t->state[lv]);
    }
    free(t);
}

uint64_t dc_topology_part_count(const dc_topology *t, dc_net_part part)
{
    return t->count[part];
}

/* The job's units per level. */
static uint32_t job_units(const dc_topology *t, int lv)
{
    if (lv == 0)
        return t->job_nodes;
    if (t->s.kind == DC_TOPO_TORUS)
        return 0;
    return lv == 1 ? t->job_leaves : t->s.tiers == 3 ? t->job_pods : 0;
}

int dc_topology_track(dc_topology *t, dc_net_part part)
{
    if (!t->failed[part]) {
        t->failed[part] = calloc(t->count[part] ? t->count[part] : 1, 1);
        if (!t->failed[part])
            return DC_ENOMEM;
    }
    if (t->tracking)
        return DC_OK;
    t->node_down = calloc(t->nodes, sizeof *t->node_down);
    t->leaf_dead = calloc(t->n_leaves + 1, 1);
    t->leaf_down = calloc(t->n_leaves + 1, sizeof *t->leaf_down);
    t->pod_down = calloc(t->n_pods + 1, sizeof *t->pod_down);
    t->spine_down = calloc(t->n_pods + 1, sizeof *t->spine_down);
    if (!t->node_down || !t->leaf_dead || !t->leaf_down || !t->pod_down || !t->spine_down)
        return DC_ENOMEM;
    for (int lv = 0; lv < 3; lv++) {
        uint32_t n = t->n_units[lv] = job_units(t, lv);
        t->seg[lv] = malloc((2 * (size_t)n + 2) * sizeof *t->seg[lv]);
        t->state[lv] = calloc((size_t)n + 1, 1);
        if (!t->seg[lv] || !t->state[lv])
            return DC_ENOMEM;
        for (size_t i = 0; i < 2 * (size_t)n + 2; i++)
            t->seg[lv][i] = 1.0; /* every unit healthy: UNIT_IN at 1 */
    }
    t->tracking = true;
    return DC_OK;
}

bool dc_topology_part_failed(const dc_topology *t, dc_net_part part, uint64_t unit)
{
    return t->failed[part] && t->failed[part][unit];
}

static double node_health(const dc_topology *t, uint32_t i)
{
    if (t->s.kind == DC_TOPO_TORUS)
        return t->node_down[i] >= TORUS_LINKS ? 0.0 : t->node_down[i] > 0 ? 0.5 : 1.0;
    if (t->s.kind == DC_TOPO_FAT_TREE && t->leaf_dead[i / t->s.nodes_per_leaf])
        return 0.0;
    double h = 1.0 - (double)t->node_down[i] / t->s.nics_per_node;
    return h > 0.0 ? h : 0.0;
}

static double leaf_health(const dc_topology *t, uint32_t l)
{
    uint32_t spines = t->s.tiers == 3 ? t->spine_down[l / t->s.leaves_per_pod] : t->spine_down[0];
    double h = 1.0 - (double)(t->leaf_down[l] + spines) / t->leaf_uplinks;
    return h > 0.0 ? h : 0.0;
}

static double pod_health(const dc_topology *t, uint32_t p)
{
    double h = 1.0 - (double)t->pod_down[p] / t->pod_uplinks - (double)t->spine_down[p] / t->leaf_uplinks
               - (double)t->core_down / t->cores;
    return h > 0.0 ? h : 0.0;
}

double dc_topology_unit_health(const dc_topology *t, int level, uint64_t unit)
{
    if (!t->tracking)
        return 1.0;
    if (level == 0)
        return unit < t->nodes ? node_health(t, (uint32_t)unit) : 1.0;
    if (t->s.kind == DC_TOPO_TORUS)
        return 1.0;
    if (level == 1)
        return unit < t->n_leaves ? leaf_health(t, (uint32_t)unit) : 1.0;
    return t->s.tiers == 3 && unit < t->n_pods ? pod_health(t, (uint32_t)unit) : 1.0;
}

uint32_t dc_topology_units(const dc_topology *t, int level)
{
    if (level == 0)
        return t->nodes;
    if (t->s.kind == DC_TOPO_TORUS)
        return 0;
    return level == 1 ? t->n_leaves : t->s.tiers == 3 ? t->n_pods : 0;
}

/* One unit's health (NAN: left out, as a dead fat-tree leaf whose nodes
 * count as cut at the node level). */
static double unit_health(const dc_topology *t, int lv, uint32_t u)
{
    if (lv == 0)
        return node_health(t, u);
    if (lv == 1)
        return t->s.kind == DC_TOPO_FAT_TREE && t->leaf_dead[u] ? NAN : leaf_health(t, u);
    return pod_health(t, u);
}

/* Re-reads unit u of level lv into its segment tree and cut count.  A node
 * without a path is always cut; a leaf or pod only when the job spans more
 * than one. */
static void update_unit(dc_topology *t, int lv, uint32_t u)
{
    uint32_t n = t->n_units[lv];
    if (u >= n)
        return;
    double h = unit_health(t, lv, u);
    uint8_t st = h > 0.0 ? UNIT_IN : h <= 0.0 && (lv == 0 || n > 1) ? UNIT_CUT : UNIT_OUT;
    if ((t->state[lv][u] == UNIT_CUT) != (st == UNIT_CUT))
        t->iso[lv] = st == UNIT_CUT ? t->iso[lv] + 1 : t->iso[lv] - 1;
    t->state[lv][u] = st;
    double *seg = t->seg[lv];
    size_t i = (size_t)n + u;
    seg[i] = st == UNIT_IN ? h : INFINITY;
    for (i /= 2; i >= 1; i /= 2)
        seg[i] = fmin(seg[2 * i], seg[2 * i + 1]);
}

static void update_range(dc_topology *t, int lv, uint64_t first, uint64_t end)
{
    for (uint64_t u = first; u < end && u < t->n_units[lv]; u++)
        update_unit(t, lv, (uint32_t)u);
}

static void derive(dc_topology *t)
{
    for (int lv = 0; lv < 3; lv++) {
        uint32_t n = t->n_units[lv];
        double m = n > 0 ? t->seg[lv][1] : INFINITY; /* the root covers every unit */
        /* No unit left with a path: nothing gets through at that level. */
        t->h[lv] = n == 0 ? 1.0 : isfinite(m) ? m : lv == 0 || n > 1 ? 0.0 : 1.0;
    }
}

static void bump(uint32_t *x, int delta)
{
    *x = delta > 0 ? *x + 1 : *x - 1;
}

/* Adds the units [first, end) of a level to what a change touched. */
static void touched(dc_net_change *ch, int level, uint64_t first, uint64_t end, uint64_t limit)
{
    if (end > limit)
        end = limit;
    if (first < end && ch->n_ranges < DC_NET_CHANGE_RANGES)
        ch->ranges[ch->n_ranges++] = (dc_net_range){level, first, end};
}

dc_net_change dc_topology_set_failed(dc_topology *t, dc_net_part part, uint64_t unit, bool failed)
{
    dc_net_change ch = {0};
    if (!t->failed[part] || unit >= t->count[part] || t->failed[part][unit] == failed)
        return ch;
    t->failed[part][unit] = failed;
    int d = failed ? 1 : -1;
    const dc_topology_spec *s = &t->s;
    uint64_t cut_before = t->iso[0] + t->iso[1] + t->iso[2];
    double before[3];
    memcpy(before, t->h, sizeof before);
    switch (part) {
    case DC_PART_NIC_LINK:
        if (s->kind == DC_TOPO_TORUS) {
            uint32_t node = (uint32_t)(unit / 3), dim = (uint32_t)(unit % 3);
            uint32_t c[3] = {node % s->torus[0], node / s->torus[0] % s->torus[1], node / (s->torus[0] * s->torus[1])};
            c[dim] = (c[dim] + 1) % s->torus[dim];
            uint32_t other = c[0] + s->torus[0] * (c[1] + s->torus[1] * c[2]);
            t->node_down[node] = (uint16_t)(t->node_down[node] + d);
            update_unit(t, 0, node);
            touched(&ch, 0, node, node + 1, t->nodes);
            if (other < t->nodes && other != node) {
                t->node_down[other] = (uint16_t)(t->node_down[other] + d);
                update_unit(t, 0, other);
                touched(&ch, 0, other, other + 1, t->nodes);
            }
        } else {
            uint32_t node = (uint32_t)(unit / s->nics_per_node);
            t->node_down[node] = (uint16_t)(t->node_down[node] + d);
            update_unit(t, 0, node);
            touched(&ch, 0, node, node + 1, t->nodes);
        }
        break;
    case DC_PART_LEAF_LINK: {
        uint32_t leaf = (uint32_t)(unit / t->leaf_uplinks);
        bump(&t->leaf_down[leaf], d);
        update_unit(t, 1, leaf);
        touched(&ch, 1, leaf, leaf + 1, t->n_leaves);
        break;
    }
    case DC_PART_POD_LINK: {
        uint32_t pod = (uint32_t)(unit / t->pod_uplinks);
        bump(&t->pod_down[pod], d);
        update_unit(t, 2, pod);
        touched(&ch, 2, pod, pod + 1, t->n_pods);
        break;
    }
    case DC_PART_LEAF_SWITCH: {
        uint32_t leaf = (uint32_t)(s->kind == DC_TOPO_RAIL ? unit / s->nics_per_node : unit);
        if (s->kind == DC_TOPO_RAIL) {
            for (uint32_t i = leaf * s->nodes_per_leaf; i < (leaf + 1) * s->nodes_per_leaf && i < t->nodes; i++)
                t->node_down[i] = (uint16_t)(t->node_down[i] + d);
            t->leaf_down[leaf] = t->leaf_down[leaf] + (uint32_t)(d * (int)t->rail_uplinks);
        } else {
            t->leaf_dead[leaf] = failed;
        }
        update_range(t, 0, (uint64_t)leaf * s->nodes_per_leaf, (uint64_t)(leaf + 1) * s->nodes_per_leaf);
        update_unit(t, 1, leaf);
        touched(&ch, 0, (uint64_t)leaf * s->nodes_per_leaf, (uint64_t)(leaf + 1) * s->nodes_per_leaf, t->nodes);
        touched(&ch, 1, leaf, leaf + 1, t->n_leaves);
        break;
    }
    case DC_PART_SPINE_SWITCH:
        if (s->tiers == 3) {
            uint32_t pod = (uint32_t)(unit / t->leaf_uplinks);
            bump(&t->spine_down[pod], d);
            update_range(t, 1, (uint64_t)pod * s->leaves_per_pod, (uint64_t)(pod + 1) * s->leaves_per_pod);
            update_unit(t, 2, pod);
            touched(&ch, 1, (uint64_t)pod * s->leaves_per_pod, (uint64_t)(pod + 1) * s->leaves_per_pod, t->n_leaves);
            touched(&ch, 2, pod, pod + 1, t->n_pods);
        } else {
            bump(&t->spine_down[0], d);
            update_range(t, 1, 0, t->n_units[1]);
            touched(&ch, 1, 0, t->n_leaves, t->n_leaves);
        }
        break;
    case DC_PART_CORE_SWITCH:
        bump(&t->core_down, d);
        update_range(t, 2, 0, t->n_units[2]);
        touched(&ch, 2, 0, t->n_pods, t->n_pods);
        break;
    }
    derive(t);
    ch.changed = memcmp(before, t->h, sizeof before) != 0;
    ch.cut = failed && t->iso[0] + t->iso[1] + t->iso[2] > cut_before;
    return ch;
}

void dc_topology_health(const dc_topology *t, double h[3])
{
    memcpy(h, t->h, sizeof t->h);
}

/* Members of a group (n ranks at stride GPUs) inside one unit of unit_gpus. */
static double members_per(uint32_t n, uint32_t stride, double unit_gpus)
{
    if ((double)stride >= unit_gpus)
        return 1.0;
    double m = floor(unit_gpus / stride);
    return m < n ? m : (double)n;
}

static double units_spanned(uint32_t n, double members)
{
    return ceil((double)n / members);
}

/* Torus: extents and hop distances of a group of k nodes at a node stride,
 * filled x first. */
static int torus_dims(const dc_topology *t, double k, double node_stride, double extent[3], double hop[3])
{
    int used = 0;
    double step = node_stride < 1.0 ? 1.0 : node_stride, left = k;
    for (int dim = 0; dim < 3; dim++) {
        double size = t->s.torus[dim];
        extent[dim] = 1.0;
        hop[dim] = 1.0;
        if (left <= 1.0)
            continue;
        if (step < size) {
            double e = floor(size / step);
            extent[dim] = e < left ? e : left;
            hop[dim] = step;
            left = ceil(left / extent[dim]);
            step = 1.0;
            used++;
        } else {
            step = floor(step / size);
        }
    }
    if (left > 1.0) { /* does not fit the torus's shape: one more ring of the rest */
        extent[2] *= left;
        used++;
    }
    return used;
}

dc_ring_bw dc_topology_ring(const dc_topology *t, uint32_t n, uint32_t stride)
{
    return dc_topology_ring_h(t, n, stride, t->h);
}

dc_ring_bw dc_topology_ring_h(const dc_topology *t, uint32_t n, uint32_t stride, const double h3[3])
{
    const dc_topology_spec *s = &t->s;
    dc_ring_bw r = {INFINITY, 0.0};
    if (n <= 1)
        return r;
    if (stride < 1)
        stride = 1;
    double g = s->gpus_per_node;
    if (members_per(n, stride, s->scaleup_gpus) >= 2.0) {
        r.bw_Bps = s->scaleup_Bps;
        r.alpha_s = s->scaleup_latency_s;
    }
    if (s->kind == DC_TOPO_TORUS) {
        double m = members_per(n, stride, g);
        double k = units_spanned(n, m);
        if (k < 2.0)
            return r;
        double extent[3], hop[3];
        torus_dims(t, k, stride / g, extent, hop);
        double h1 = extent[0] > 1.0 ? hop[0] : extent[1] > 1.0 ? hop[1] : hop[2];
        double bw = s->torus_link_Bps * m / (g * h1) * h3[0];
        if (bw < r.bw_Bps)
            r.bw_Bps = bw;
        r.alpha_s = s->latency_s + h1 * s->hop_latency_s;
        return r;
    }
    double x = g > s->scaleup_gpus ? g : s->scaleup_gpus;
    double mx = members_per(n, stride, x);
    if (units_spanned(n, mx) < 2.0)
        return r;
    double e0 = s->nics_per_node * s->nic_Bps / g;
    double bw = e0 * h3[0] * mx;
    r.alpha_s = s->latency_s + 1.0 * s->hop_latency_s;
    double leaf_gpus = (double)s->nodes_per_leaf * g;
    double levels[2][4] = {
        /* unit GPUs, per-GPU egress, health, job units */
        {leaf_gpus, e0 / s->leaf_oversub, h3[1], (double)t->job_leaves},
        {leaf_gpus * s->leaves_per_pod, e0 / (s->leaf_oversub * s->pod_oversub), h3[2], (double)t->job_pods},
    };
    for (int lv = 0; lv < (s->tiers == 3 ? 2 : 1); lv++) {
        double unit = levels[lv][0], e = levels[lv][1], h = levels[lv][2], job_units = levels[lv][3];
        double m;
        if (s->placement == DC_PLACE_SCATTERED) {
            if (job_units < 2.0)
                continue;
            m = mx / (1.0 - 1.0 / job_units);
        } else {
            m = members_per(n, stride, unit);
            if (units_spanned(n, m) < 2.0)
                continue;
        }
        double b = e * h * m;
        if (b < bw)
            bw = b;
        r.alpha_s = s->latency_s + (lv == 0 ? 3.0 : 5.0) * s->hop_latency_s;
    }
    if (bw < r.bw_Bps)
        r.bw_Bps = bw;
    return r;
}

static double ring_time(dc_coll_op op, double n, double bytes, dc_ring_bw r)
{
    return op == DC_COLL_ALLREDUCE ? dc_coll_ring_allreduce_s(n, bytes, r.bw_Bps, r.alpha_s)
                                   : dc_coll_ring_allgather_s(n, bytes, r.bw_Bps, r.alpha_s);
}

/* Dimension-wise rings on the torus (after an intra-node phase). */
static double torus_hier_s(const dc_topology *t, dc_coll_op op, uint32_t n, uint32_t stride, double bytes, double *bw,
                           double node_health)
{
    const dc_topology_spec *s = &t->s;
    double g = s->gpus_per_node, phases = op == DC_COLL_ALLREDUCE ? 2.0 : 1.0;
    double m = members_per(n, stride, g), k = units_spanned(n, m), time = 0.0, shard = bytes;
    *bw = INFINITY;
    if (m >= 2.0) {
        time += phases * dc_coll_ring_allgather_s(m, shard, s->scaleup_Bps, s->scaleup_latency_s);
        shard /= m;
    }
    if (k < 2.0)
        return time;
    double extent[3], hop[3];
    torus_dims(t, k, stride / g, extent, hop);
    for (int dim = 0; dim < 3; dim++) {
        if (extent[dim] < 2.0)
            continue;
        double b = 2.0 * s->torus_link_Bps * m / (g * hop[dim]) * node_health;
        if (b < *bw)
            *bw = b;
        time += phases * dc_coll_ring_allgather_s(extent[dim], shard, b, s->latency_s + hop[dim] * s->hop_latency_s);
        shard /= extent[dim];
    }
    return time;
}

static dc_ring_bw own_ring(void *ctx, uint32_t n, uint32_t stride)
{
    const dc_topology *t = ctx;
    return dc_topology_ring(t, n, stride);
}

dc_coll_cost dc_topology_collective(const dc_topology *t, dc_coll_op op, dc_coll_algo algo, uint32_t n,
                                    uint32_t stride, double bytes)
{
    return dc_topology_collective_with(t, op, algo, n, stride, bytes, own_ring, (void *)t, t->h[0]);
}

dc_coll_cost dc_topology_collective_with(const dc_topology *t, dc_coll_op op, dc_coll_algo algo, uint32_t n,
                                         uint32_t stride, double bytes, dc_topology_ring_fn ring_fn, void *ctx,
                                         double node_health)
{
    dc_coll_cost c = {0.0, algo == DC_ALGO_AUTO ? DC_ALGO_RING : algo, INFINITY};
    if (n <= 1 || !(bytes > 0.0))
        return c;
    if (op == DC_COLL_SENDRECV) {
        dc_ring_bw pair = ring_fn(ctx, 2, stride);
        c.algo = DC_ALGO_RING;
        c.bw_Bps = pair.bw_Bps;
        c.time_s = dc_coll_sendrecv_s(bytes, pair.bw_Bps, pair.alpha_s);
        return c;
    }
    const dc_topology_spec *s = &t->s;
    dc_ring_bw ring = ring_fn(ctx, n, stride);
    double times[DC_ALGO_COUNT] = {INFINITY, INFINITY, INFINITY, INFINITY};
    double bws[DC_ALGO_COUNT] = {ring.bw_Bps, ring.bw_Bps, ring.bw_Bps, ring.bw_Bps};
    times[DC_ALGO_RING] = ring_time(op, n, bytes, ring);
    times[DC_ALGO_TREE] = op == DC_COLL_ALLREDUCE ? dc_coll_tree_allreduce_s(n, bytes, ring.bw_Bps, ring.alpha_s)
                                                  : times[DC_ALGO_RING];
    if (s->kind == DC_TOPO_TORUS) {
        times[DC_ALGO_HIER] = torus_hier_s(t, op, n, stride, bytes, &bws[DC_ALGO_HIER], node_health);
    } else {
        double g = s->gpus_per_node, x = g > s->scaleup_gpus ? g : s->scaleup_gpus;
        double a = members_per(n, stride, x), b = units_spanned(n, a);
        if (a < 2.0 || b < 2.0) {
            times[DC_ALGO_HIER] = times[DC_ALGO_RING]; /* one level: the plain ring */
        } else {
            dc_ring_bw outer = ring_fn(ctx, (uint32_t)b, (uint32_t)(stride * a));
            bws[DC_ALGO_HIER] = outer.bw_Bps;
            times[DC_ALGO_HIER] = op == DC_COLL_ALLREDUCE
                                      ? dc_coll_hier_allreduce_s(a, b, bytes, s->scaleup_Bps, s->scaleup_latency_s,
                                                                 outer.bw_Bps, outer.alpha_s)
                                      : dc_coll_hier_gather_s(a, b, bytes, s->scaleup_Bps, s->scaleup_latency_s,
                                                              outer.bw_Bps, outer.alpha_s);
        }
    }
    dc_coll_algo pick = algo;
    if (algo == DC_ALGO_AUTO) {
        pick = DC_ALGO_RING;
        for (int a = DC_ALGO_TREE; a < DC_ALGO_COUNT; a++)
            if (times[a] < times[pick] && !(op != DC_COLL_ALLREDUCE && a == DC_ALGO_TREE))
                pick = (dc_coll_algo)a;
    } else if (algo == DC_ALGO_TREE && op != DC_COLL_ALLREDUCE) {
        pick = DC_ALGO_RING;
    }
    c.algo = pick;
    c.time_s = times[pick];
    c.bw_Bps = bws[pick];
    return c;
}
