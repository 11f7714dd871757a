/* Tests: collectives, topology, max-min sharing, storage and step time against hand calculations.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Network, storage and step time against hand calculations: collective costs
 * against their closed forms (counted step by step), the topology's ring
 * bandwidth against max-min fair sharing on explicit small fabrics, max-min
 * allocations computed by hand, fluid transfers, the step time of a small
 * model and how its efficiency scales, link and switch failures, storage
 * tiers, and bad input (message, exit status 2) through the dcsim program
 * named by $DCSIM. */
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "badinput.h"
#include "cluster.h"
#include "fabric/collective.h"
#include "flows.h"
#include "maxmin.h"
#include "fabric/network.h"
#include "registry.h"
#include "simrun.h"
#include "workload/steptime.h"
#include "fabric/storage.h"
#include "testutil.h"
#include "fabric/topology.h"

#define REL(a, b) (fabs((a) - (b)) <= 1e-9 * fabs(b))

/* ---- collectives: closed forms against step-by-step counts ---- */

/* A ring all-reduce is 2 (n-1) steps, each sending S/n to the neighbour. */
static double ring_by_steps(int n, double bytes, double bw, double alpha, int phases)
{
    double t = 0.0;
    for (int step = 0; step < phases * (n - 1); step++)
        t += alpha + bytes / n / bw;
    return t;
}

static void test_collective_closed_forms(void)
{
    const double S = 3e8, B = 25e9, a = 7e-6;
    for (int n = 2; n <= 64; n *= 2) {
        CU_ASSERT(REL(dc_coll_ring_allreduce_s(n, S, B, a), ring_by_steps(n, S, B, a, 2)));
        CU_ASSERT(REL(dc_coll_ring_allgather_s(n, S, B, a), ring_by_steps(n, S, B, a, 1)));
        CU_ASSERT(REL(dc_coll_ring_reducescatter_s(n, S, B, a), ring_by_steps(n, S, B, a, 1)));
    }
    /* The form: 2(n-1)/n S/B + 2(n-1) alpha, n = 8. */
    CU_ASSERT(REL(dc_coll_ring_allreduce_s(8, S, B, a), 2.0 * 7 / 8 * S / B + 14 * a));
    /* Tree: 2 ceil(log2 n) latency steps; n = 5 needs 3 levels. */
    CU_ASSERT(REL(dc_coll_tree_allreduce_s(5, S, B, a), 6 * a + 2.0 * 4 / 5 * S / B));
    CU_ASSERT(REL(dc_coll_tree_allreduce_s(1024, S, B, a), 20 * a + 2.0 * 1023 / 1024 * S / B));
    /* Hierarchical 8 x 4: reduce-scatter inside, all-reduce of S/8 across, all-gather inside. */
    double Bi = 450e9, ai = 3e-6;
    double hier = ring_by_steps(8, S, Bi, ai, 1) + ring_by_steps(4, S / 8, B, a, 2) + ring_by_steps(8, S, Bi, ai, 1);
    CU_ASSERT(REL(dc_coll_hier_allreduce_s(8, 4, S, Bi, ai, B, a), hier));
    double hier_g = ring_by_steps(8, S, Bi, ai, 1) + ring_by_steps(4, S / 8, B, a, 1);
    CU_ASSERT(REL(dc_coll_hier_gather_s(8, 4, S, Bi, ai, B, a), hier_g));
    CU_ASSERT(REL(dc_coll_sendrecv_s(S, B, a), a + S / B));
    CU_ASSERT_DOUBLE_EQUAL(dc_coll_ring_allreduce_s(1, S, B, a), 0.0, 0.0);
    /* Ring latency grows with n, the tree's with log n: the tree wins for
     * small messages on many ranks, and costs the same bandwidth. */
    CU_ASSERT(dc_coll_tree_allreduce_s(4096, 1e3, B, a) < dc_coll_ring_allreduce_s(4096, 1e3, B, a) / 100);
}

/* ---- topology: a fabric's ring bandwidth ---- */

static dc_topology_spec fat_spec(void)
{
    return (dc_topology_spec){
        .kind = DC_TOPO_FAT_TREE, .tiers = 3, .gpus_per_node = 8, .nodes_per_leaf = 4, .leaves_per_pod = 4,
        .switch_radix = 16, .leaf_oversub = 1.0, .pod_oversub = 1.0, .nics_per_node = 8, .nic_Bps = 50e9,
        .scaleup_gpus = 8, .scaleup_Bps = 450e9, .scaleup_latency_s = 3e-6, .latency_s = 6e-6,
        .hop_latency_s = 1e-6, .placement = DC_PLACE_PACKED,
    };
}

static dc_topology *make_topo(const dc_topology_spec *s, uint32_t nodes, uint32_t job_nodes)
{
    dc_topology *t = NULL;
    const char *bad = NULL;
    dc_error err = {0};
    if (dc_topology_create(s, nodes, job_nodes, &t, &bad, &err) != DC_OK) {
        fprintf(stderr, "topology: %s\n", err.msg);
        return NULL;
    }
    return t;
}

static void test_topology_collectives(void)
{
    dc_topology_spec s = fat_spec();
    dc_topology *t = make_topo(&s, 64, 64); /* 4 pods of 4 leaves of 4 nodes */
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const double S = 1e9;
    /* Inside a node: NVLink. */
    dc_ring_bw r = dc_topology_ring(t, 8, 1);
    CU_ASSERT(REL(r.bw_Bps, 450e9) && REL(r.alpha_s, 3e-6));
    dc_coll_cost c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_RING, 8, 1, S);
    CU_ASSERT(REL(c.time_s, 2.0 * 7 / 8 * S / 450e9 + 14 * 3e-6));
    /* One GPU per node, four nodes under one leaf: a NIC each, one switch. */
    r = dc_topology_ring(t, 4, 8);
    CU_ASSERT(REL(r.bw_Bps, 50e9) && REL(r.alpha_s, 7e-6));
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_RING, 4, 8, S);
    CU_ASSERT(REL(c.time_s, 2.0 * 3 / 4 * S / 50e9 + 6 * 7e-6));
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_TREE, 4, 8, S);
    CU_ASSERT(REL(c.time_s, 2.0 * 3 / 4 * S / 50e9 + 4 * 7e-6));
    c = dc_topology_collective(t, DC_COLL_ALLGATHER, DC_ALGO_RING, 4, 8, S);
    CU_ASSERT(REL(c.time_s, 3.0 / 4 * S / 50e9 + 3 * 7e-6));
    c = dc_topology_collective(t, DC_COLL_REDUCESCATTER, DC_ALGO_TREE, 4, 8, S); /* falls back to the ring */
    CU_ASSERT(REL(c.time_s, 3.0 / 4 * S / 50e9 + 3 * 7e-6) && c.algo == DC_ALGO_RING);
    /* Across leaves and pods: 3 and 5 switches. */
    CU_ASSERT(REL(dc_topology_ring(t, 16, 8).alpha_s, 9e-6));
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).alpha_s, 11e-6));
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 50e9));
    /* All 512 GPUs: hierarchical = 8 inside x 64 nodes, outer rings at a NIC each. */
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_HIER, 512, 1, S);
    double hier = dc_coll_hier_allreduce_s(8, 64, S, 450e9, 3e-6, 50e9, 11e-6);
    CU_ASSERT(REL(c.time_s, hier) && REL(c.bw_Bps, 50e9));
    /* The flat ring over 512 ranks uses all 8 NICs of a node: 8 x 50e9 capped by NVLink. */
    CU_ASSERT(REL(dc_topology_ring(t, 512, 1).bw_Bps, 400e9));
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_AUTO, 512, 1, S);
    double ring = dc_coll_ring_allreduce_s(512, S, 400e9, 11e-6), tree = dc_coll_tree_allreduce_s(512, S, 400e9, 11e-6);
    CU_ASSERT(REL(c.time_s, fmin(fmin(ring, tree), hier)));
    /* Pipeline send to the next node. */
    c = dc_topology_collective(t, DC_COLL_SENDRECV, DC_ALGO_AUTO, 2, 8, S);
    CU_ASSERT(REL(c.time_s, 7e-6 + S / 50e9));
    dc_topology_destroy(t);
}

static void test_oversubscription(void)
{
    dc_topology_spec s = fat_spec();
    s.pod_oversub = 8.0;
    dc_topology *t = make_topo(&s, 64, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* A data-parallel group at stride 8 has 16 members per pod >= 8: the
     * pod uplinks (1/8 of a NIC per GPU) still carry 16 x 50e9 / 8 = 100e9
     * per group, more than a NIC: no loss. */
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 50e9));
    /* At stride 64 (one member per 8 nodes): 2 members per pod, 2 x 50e9 / 8. */
    CU_ASSERT(REL(dc_topology_ring(t, 8, 64).bw_Bps, 12.5e9));
    dc_topology_destroy(t);
    s.pod_oversub = 32.0;
    t = make_topo(&s, 64, 64);
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 16 * 50e9 / 32));
    dc_topology_destroy(t);
    /* Scattered over 4 pods: an edge leaves its pod with probability 3/4. */
    s.pod_oversub = 8.0;
    s.placement = DC_PLACE_SCATTERED;
    t = make_topo(&s, 64, 64);
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 50e9 / 8 / 0.75));
    dc_topology_destroy(t);
    /* Non-blocking and scattered: a NIC each. */
    s.pod_oversub = 1.0;
    t = make_topo(&s, 64, 64);
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 50e9));
    dc_topology_destroy(t);
}

/* Explicit fabric: every concurrent ring's edges as flows on NICs, leaf and
 * pod up/downlinks; the slowest edge's max-min rate is the ring's rate. */
static double rings_by_maxmin(const dc_topology_spec *s, uint32_t nodes, uint32_t stride)
{
    uint32_t G = s->gpus_per_node, gpus = nodes * G, n = gpus / stride;
    uint32_t leaves = nodes / s->nodes_per_leaf, pods = leaves / s->leaves_per_pod;
    double nic = s->nics_per_node * s->nic_Bps / G; /* one NIC per GPU here */
    double leaf_up = s->nodes_per_leaf * G * nic / s->leaf_oversub;
    double pod_up = s->leaves_per_pod * leaf_up / s->pod_oversub;
    /* resources: GPU out, GPU in, leaf out, leaf in, pod out, pod in */
    size_t n_res = 2 * gpus + 2 * leaves + 2 * pods;
    double *cap = malloc(n_res * sizeof *cap);
    for (size_t i = 0; i < n_res; i++)
        cap[i] = i < 2 * gpus ? nic : i < 2 * gpus + 2 * leaves ? leaf_up : pod_up;
    size_t n_flows = (size_t)stride * n;
    dc_maxmin_flow *f = calloc(n_flows, sizeof *f);
    int(*paths)[6] = calloc(n_flows, sizeof *paths);
    double *rate = malloc(n_flows * sizeof *rate);
    size_t k = 0;
    for (uint32_t g = 0; g < stride; g++)
        for (uint32_t i = 0; i < n; i++, k++) {
            uint32_t a = g + i * stride, b = g + ((i + 1) % n) * stride;
            uint32_t na = a / G, nb = b / G, la = na / s->nodes_per_leaf, lb = nb / s->nodes_per_leaf;
            uint32_t pa = la / s->leaves_per_pod, pb = lb / s->leaves_per_pod;
            size_t m = 0;
            paths[k][m++] = (int)a;
            paths[k][m++] = (int)(gpus + b);
            if (la != lb) {
                paths[k][m++] = (int)(2 * gpus + la);
                paths[k][m++] = (int)(2 * gpus + leaves + lb);
            }
            if (pa != pb) {
                paths[k][m++] = (int)(2 * gpus + 2 * leaves + pa);
                paths[k][m++] = (int)(2 * gpus + 2 * leaves + pods + pb);
            }
            f[k] = (dc_maxmin_flow){paths[k], m, 1.0, INFINITY, NULL};
        }
    CU_ASSERT_EQUAL(dc_maxmin_solve(n_res, cap, n_flows, f, rate), DC_OK);
    double worst = INFINITY;
    for (size_t i = 0; i < n_flows; i++)
        worst = fmin(worst, rate[i]);
    free(cap), free(f), free(paths), free(rate);
    return worst;
}

static void test_topology_against_maxmin(void)
{
    /* 2 GPUs and 2 NICs per node, leaves of 2 nodes, pods of 2 leaves, 16 nodes. */
    const double oversub[][2] = {{1, 1}, {2, 1}, {1, 4}, {2, 4}, {4, 8}};
    const uint32_t strides[] = {2, 4, 8, 16};
    for (size_t o = 0; o < sizeof oversub / sizeof oversub[0]; o++)
        for (size_t si = 0; si < sizeof strides / sizeof strides[0]; si++) {
            dc_topology_spec s = {
                .kind = DC_TOPO_FAT_TREE, .tiers = 3, .gpus_per_node = 2, .nodes_per_leaf = 2,
                .leaves_per_pod = 2, .switch_radix = 8, .leaf_oversub = oversub[o][0], .pod_oversub = oversub[o][1],
                .nics_per_node = 2, .nic_Bps = 100.0, .scaleup_gpus = 2, .scaleup_Bps = 1000.0,
                .placement = DC_PLACE_PACKED,
            };
            dc_topology *t = make_topo(&s, 16, 16);
            double model = dc_topology_ring(t, 32 / strides[si], strides[si]).bw_Bps;
            double fair = rings_by_maxmin(&s, 16, strides[si]);
            if (!REL(model, fair))
                fprintf(stderr, "\n  oversub %g/%g stride %u: model %g, max-min %g", oversub[o][0], oversub[o][1],
                        strides[si], model, fair);
            CU_ASSERT(REL(model, fair));
            dc_topology_destroy(t);
        }
}

static void test_torus(void)
{
    dc_topology_spec s = {
        .kind = DC_TOPO_TORUS, .gpus_per_node = 1, .scaleup_gpus = 1, .scaleup_Bps = 1e12,
        .torus = {4, 4, 4}, .torus_link_Bps = 100e9, .latency_s = 2e-6, .hop_latency_s = 0.5e-6,
    };
    dc_topology *t = make_topo(&s, 64, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    const double S = 1e9, a = 2.5e-6;
    /* Dimension-wise: three bidirectional rings of 4 on shards S, S/4, S/16. */
    double expect = 0.0, shard = S;
    for (int d = 0; d < 3; d++, shard /= 4)
        expect += dc_coll_ring_allreduce_s(4, shard, 200e9, a);
    dc_coll_cost c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_HIER, 64, 1, S);
    CU_ASSERT(REL(c.time_s, expect));
    /* The flat ring: one link one way. */
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_RING, 64, 1, S);
    CU_ASSERT(REL(c.time_s, dc_coll_ring_allreduce_s(64, S, 100e9, a)));
    /* A group every 4 nodes (along y): one hop of 1 in y, then z. */
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_HIER, 16, 4, S);
    CU_ASSERT(REL(c.time_s, dc_coll_ring_allreduce_s(4, S, 200e9, a) + dc_coll_ring_allreduce_s(4, S / 4, 200e9, a)));
    /* A failed link halves the rings through its nodes; six isolate a node. */
    CU_ASSERT_EQUAL(dc_topology_track(t, DC_PART_NIC_LINK), DC_OK);
    dc_net_change ch = dc_topology_set_failed(t, DC_PART_NIC_LINK, 0, true);
    CU_ASSERT(ch.changed && !ch.cut);
    c = dc_topology_collective(t, DC_COLL_ALLREDUCE, DC_ALGO_RING, 64, 1, S);
    CU_ASSERT(REL(c.time_s, dc_coll_ring_allreduce_s(64, S, 50e9, a)));
    /* Node 21 = (1,1,1): its links are 63..65 and those of (0,1,1), (1,0,1), (1,1,0). */
    uint64_t links[6] = {63, 64, 65, 3 * 20 + 0, 3 * 17 + 1, 3 * 5 + 2};
    bool cut = false;
    for (int i = 0; i < 6; i++)
        cut = dc_topology_set_failed(t, DC_PART_NIC_LINK, links[i], true).cut || cut;
    CU_ASSERT(cut);
    dc_topology_destroy(t);
    /* 65 nodes do not fit 4 x 4 x 4. */
    const char *bad = NULL;
    dc_error err = {0};
    CU_ASSERT_EQUAL(dc_topology_create(&s, 65, 65, &t, &bad, &err), DC_EINPUT);
    CU_ASSERT(bad && strcmp(bad, "torus_x") == 0);
}

static void test_failures_health(void)
{
    dc_topology_spec s = fat_spec();
    dc_topology *t = make_topo(&s, 64, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    for (int p = 0; p < DC_PART_COUNT; p++)
        CU_ASSERT_EQUAL(dc_topology_track(t, (dc_net_part)p), DC_OK);
    /* Leaves of 4 nodes x 8 NICs = 32 uplinks each; 16 spines per pod... */
    CU_ASSERT_EQUAL(dc_topology_part_count(t, DC_PART_LEAF_LINK), 16u * 32u);
    CU_ASSERT_EQUAL(dc_topology_part_count(t, DC_PART_POD_LINK), 4u * 128u);
    double h[3];
    /* One of a leaf's 32 uplinks: a ring across leaves runs at 31/32 of a NIC
     * when it has one member per leaf (stride 32 GPUs). */
    dc_net_change ch = dc_topology_set_failed(t, DC_PART_LEAF_LINK, 5, true);
    dc_topology_health(t, h);
    CU_ASSERT(ch.changed && !ch.cut && REL(h[1], 31.0 / 32.0) && h[0] == 1.0 && h[2] == 1.0);
    CU_ASSERT(REL(dc_topology_ring(t, 16, 32).bw_Bps, 50e9 * 31.0 / 32.0));
    /* A NIC: that node at 7/8. */
    dc_topology_set_failed(t, DC_PART_NIC_LINK, 8 * 3 + 1, true);
    dc_topology_health(t, h);
    CU_ASSERT(REL(h[0], 7.0 / 8.0));
    CU_ASSERT(REL(dc_topology_ring(t, 64, 8).bw_Bps, 50e9 * 7.0 / 8.0));
    /* Repairs restore full health. */
    dc_topology_set_failed(t, DC_PART_NIC_LINK, 8 * 3 + 1, false);
    dc_topology_set_failed(t, DC_PART_LEAF_LINK, 5, false);
    dc_topology_health(t, h);
    CU_ASSERT(h[0] == 1.0 && h[1] == 1.0 && h[2] == 1.0);
    /* A fat-tree leaf switch isolates its nodes: a cut. */
    ch = dc_topology_set_failed(t, DC_PART_LEAF_SWITCH, 2, true);
    CU_ASSERT(ch.cut);
    dc_topology_set_failed(t, DC_PART_LEAF_SWITCH, 2, false);
    /* A core switch: 1/cores of each pod's uplinks (128 x 4 / 16 = 32 cores). */
    dc_topology_set_failed(t, DC_PART_CORE_SWITCH, 0, true);
    dc_topology_health(t, h);
    CU_ASSERT(REL(h[2], 31.0 / 32.0));
    dc_topology_destroy(t);
    /* Rail-optimised: a rail switch takes one NIC of each node of its group. */
    s.kind = DC_TOPO_RAIL;
    t = make_topo(&s, 64, 64);
    dc_topology_track(t, DC_PART_LEAF_SWITCH);
    ch = dc_topology_set_failed(t, DC_PART_LEAF_SWITCH, 3, true);
    dc_topology_health(t, h);
    CU_ASSERT(!ch.cut && REL(h[0], 7.0 / 8.0));
    dc_topology_destroy(t);
    s.nics_per_node = 1;
    s.nic_Bps = 400e9;
    t = make_topo(&s, 64, 64);
    dc_topology_track(t, DC_PART_LEAF_SWITCH);
    CU_ASSERT(dc_topology_set_failed(t, DC_PART_LEAF_SWITCH, 3, true).cut);
    dc_topology_destroy(t);
}

/* Health after a long random history of failures and repairs equals the
 * health of a fresh fabric given only the parts failed at the end. */
static void test_health_history(void)
{
    dc_topology_spec specs[3] = {fat_spec(), fat_spec(), fat_spec()};
    specs[1].kind = DC_TOPO_RAIL;
    specs[2].tiers = 2;
    specs[2].switch_radix = 64;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 7);
    for (int k = 0; k < 3; k++) {
        dc_topology *t = make_topo(&specs[k], 64, 60);
        CU_ASSERT_PTR_NOT_NULL_FATAL(t);
        for (int p = 0; p < DC_PART_COUNT; p++)
            dc_topology_track(t, (dc_net_part)p);
        bool agree = true;
        enum { MAXF = 4096 };
        static dc_net_part fp[MAXF];
        static uint64_t fu[MAXF];
        size_t nf = 0;
        for (int step = 0; step < 3000; step++) {
            /* Fail a random unit, or repair a random failed one; keep a few down. */
            if (nf > 0 && gsl_rng_uniform(rng) < (nf > 12 ? 0.7 : 0.4)) {
                size_t i = gsl_rng_uniform_int(rng, nf);
                dc_topology_set_failed(t, fp[i], fu[i], false);
                fp[i] = fp[nf - 1], fu[i] = fu[nf - 1], nf--;
            } else {
                dc_net_part p = (dc_net_part)gsl_rng_uniform_int(rng, DC_PART_COUNT);
                uint64_t n = dc_topology_part_count(t, p);
                if (n == 0 || nf == MAXF)
                    continue;
                uint64_t u = gsl_rng_uniform_int(rng, n);
                if (dc_topology_part_failed(t, p, u))
                    continue;
                dc_topology_set_failed(t, p, u, true);
                fp[nf] = p, fu[nf] = u, nf++;
            }
            if (step % 10 == 9) {
                dc_topology *f2 = make_topo(&specs[k], 64, 60);
                for (int q = 0; q < DC_PART_COUNT; q++)
                    dc_topology_track(f2, (dc_net_part)q);
                for (size_t i = 0; i < nf; i++)
                    dc_topology_set_failed(f2, fp[i], fu[i], true);
                double a[3], b[3];
                dc_topology_health(t, a);
                dc_topology_health(f2, b);
                agree = agree && a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
                dc_topology_destroy(f2);
            }
        }
        CU_ASSERT(agree);
        dc_topology_destroy(t);
    }
    gsl_rng_free(rng);
}

/* ---- max-min fairness by hand ---- */

/* dc_maxmin_solve_in on one work buffer reused across 2,000 random problems
 * of growing and shrinking sizes (caps finite and not, coefficients or
 * none), filled with 0xA5 bytes before each solve so that a value left
 * uninitialised shows: the rates are bit for bit those of dc_maxmin_solve,
 * which allocates afresh. */
static void test_maxmin_reused_work(void)
{
    gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(g, 14);
    enum { MAX_R = 24, MAX_F = 40, MAX_P = 4 };
    size_t work_bytes = dc_maxmin_work_bytes(MAX_R, MAX_F);
    void *work = malloc(work_bytes);
    double cap[MAX_R], coef[MAX_F][MAX_P], a[MAX_F], b[MAX_F];
    int paths[MAX_F][MAX_P];
    dc_maxmin_flow f[MAX_F];
    size_t differ = 0, capped = 0;
    for (int trial = 0; trial < 2000; trial++) {
        size_t n_res = 1 + gsl_rng_uniform_int(g, MAX_R), n_flows = 1 + gsl_rng_uniform_int(g, MAX_F);
        bool with_coef = gsl_rng_uniform(g) < 0.3;
        for (size_t r = 0; r < n_res; r++)
            cap[r] = gsl_rng_uniform(g) < 0.05 ? 0.0 : 1.0 + 99.0 * gsl_rng_uniform(g);
        for (size_t k = 0; k < n_flows; k++) {
            size_t m = gsl_rng_uniform_int(g, MAX_P + 1);
            if (m > n_res)
                m = n_res;
            for (size_t q = 0; q < m; q++) {
                int r;
                bool dup;
                do { /* each resource at most once per flow */
                    r = (int)gsl_rng_uniform_int(g, n_res);
                    dup = false;
                    for (size_t u = 0; u < q; u++)
                        dup = dup || paths[k][u] == r;
                } while (dup);
                paths[k][q] = r;
                coef[k][q] = 0.5 + 3.0 * gsl_rng_uniform(g);
            }
            double c = gsl_rng_uniform(g) < 0.5 ? 0.5 + 30.0 * gsl_rng_uniform(g) : INFINITY;
            capped += isfinite(c);
            f[k] = (dc_maxmin_flow){paths[k], m, 1.0 + gsl_rng_uniform_int(g, 8), c, with_coef ? coef[k] : NULL};
        }
        memset(work, 0xA5, work_bytes);
        CU_ASSERT_EQUAL_FATAL(dc_maxmin_solve(n_res, cap, n_flows, f, a), DC_OK);
        CU_ASSERT_EQUAL_FATAL(dc_maxmin_solve_in(work, n_res, cap, n_flows, f, b), DC_OK);
        differ += memcmp(a, b, n_flows * sizeof *a) != 0;
    }
    CU_ASSERT_EQUAL(differ, 0);
    CU_ASSERT(capped > 10000); /* both kinds of flow were met */
    /* bad input is refused before the work buffer is touched */
    cap[0] = -1.0;
    CU_ASSERT_EQUAL(dc_maxmin_solve_in(NULL, 1, cap, 1, f, b), DC_EINPUT);
    free(work);
    gsl_rng_free(g);
}

static void test_maxmin_by_hand(void)
{
    double rate[4];
    /* One link of 10, three flows: 10/3 each. */
    {
        int r0[] = {0};
        dc_maxmin_flow f[] = {{r0, 1, 1, INFINITY, NULL}, {r0, 1, 1, INFINITY, NULL}, {r0, 1, 1, INFINITY, NULL}};
        double cap[] = {10};
        CU_ASSERT_EQUAL(dc_maxmin_solve(1, cap, 3, f, rate), DC_OK);
        CU_ASSERT(REL(rate[0], 10.0 / 3) && REL(rate[1], 10.0 / 3) && REL(rate[2], 10.0 / 3));
    }
    /* Link A (10) carries flows 0, 1, 2; flow 0 also crosses link B (2):
     * it is limited there to 2, and flows 1 and 2 share the remaining 8. */
    {
        int a[] = {0}, ab[] = {0, 1};
        dc_maxmin_flow f[] = {{ab, 2, 1, INFINITY, NULL}, {a, 1, 1, INFINITY, NULL}, {a, 1, 1, INFINITY, NULL}};
        double cap[] = {10, 2};
        dc_maxmin_solve(2, cap, 3, f, rate);
        CU_ASSERT(REL(rate[0], 2.0) && REL(rate[1], 4.0) && REL(rate[2], 4.0));
    }
    /* Bertsekas & Gallager's line: links 1 (cap 1) and 2 (cap 2); flow 0 on
     * both, flow 1 on link 1, flow 2 on link 2: 0.5, 0.5, 1.5. */
    {
        int l1[] = {0}, l2[] = {1}, both[] = {0, 1};
        dc_maxmin_flow f[] = {{both, 2, 1, INFINITY, NULL}, {l1, 1, 1, INFINITY, NULL}, {l2, 1, 1, INFINITY, NULL}};
        double cap[] = {1, 2};
        dc_maxmin_solve(2, cap, 3, f, rate);
        CU_ASSERT(REL(rate[0], 0.5) && REL(rate[1], 0.5) && REL(rate[2], 1.5));
    }
    /* Weights and caps: 12 shared by weights 1 and 2 -> 4 and 8; a flow capped
     * at 1 leaves 11 to the other. */
    {
        int r0[] = {0};
        dc_maxmin_flow f[] = {{r0, 1, 1, INFINITY, NULL}, {r0, 1, 2, INFINITY, NULL}};
        double cap[] = {12};
        dc_maxmin_solve(1, cap, 2, f, rate);
        CU_ASSERT(REL(rate[0], 4.0) && REL(rate[1], 8.0));
        f[0].cap = 1.0;
        f[1].weight = 1.0;
        dc_maxmin_solve(1, cap, 2, f, rate);
        CU_ASSERT(REL(rate[0], 1.0) && REL(rate[1], 11.0));
    }
    /* A down resource stops its flows only; no resource and no cap: infinite. */
    {
        int r0[] = {0}, r1[] = {1};
        dc_maxmin_flow f[] = {{r0, 1, 1, INFINITY, NULL}, {r1, 1, 1, INFINITY, NULL}, {NULL, 0, 1, INFINITY, NULL}, {NULL, 0, 1, 5, NULL}};
        double cap[] = {0, 3};
        dc_maxmin_solve(2, cap, 4, f, rate);
        CU_ASSERT(rate[0] == 0.0 && REL(rate[1], 3.0) && isinf(rate[2]) && REL(rate[3], 5.0));
    }
    /* Bad input. */
    {
        int r0[] = {0}, r9[] = {9};
        dc_maxmin_flow f[] = {{r0, 1, 1, INFINITY, NULL}};
        double neg[] = {-1};
        CU_ASSERT_EQUAL(dc_maxmin_solve(1, neg, 1, f, rate), DC_EINPUT);
        double cap[] = {1};
        f[0].res = r9;
        CU_ASSERT_EQUAL(dc_maxmin_solve(1, cap, 1, f, rate), DC_EINPUT);
        f[0].res = r0;
        f[0].weight = 0.0;
        CU_ASSERT_EQUAL(dc_maxmin_solve(1, cap, 1, f, rate), DC_EINPUT);
    }
}

/* ---- fluid transfers ---- */

typedef struct flow_test {
    dc_flows *fl;
    int link;
    double done_at[4];
    int n_done, n_rerates;
    dc_flow_id ids[4];
} flow_test;

static void count_rerate(dc_sim *sim, void *ctx)
{
    ((flow_test *)ctx)->n_rerates++;
}

static void on_done(dc_sim *sim, void *ctx, dc_flow_id id)
{
    flow_test *ft = ctx;
    for (int i = 0; i < 4; i++)
        if (ft->ids[i] == id)
            ft->done_at[i] = dc_sim_now(sim);
    ft->n_done++;
}

static void start_two(dc_sim *sim, void *ctx, uint64_t arg)
{
    flow_test *ft = ctx;
    int r[] = {ft->link};
    ft->ids[0] = dc_flows_start(ft->fl, r, 1, 1.0, INFINITY, 100.0, on_done, ft);
    ft->ids[1] = dc_flows_start(ft->fl, r, 1, 1.0, INFINITY, 300.0, on_done, ft);
    /* A third would get a third of the link. */
    CU_ASSERT(REL(dc_flows_probe(ft->fl, r, 1, 1.0, INFINITY), 10.0 / 3.0));
}

static void halve(dc_sim *sim, void *ctx, uint64_t arg)
{
    flow_test *ft = ctx;
    dc_flows_set_capacity(ft->fl, ft->link, 5.0);
}

static void test_fluid_transfers(void)
{
    dc_error err = {0};
    /* 100 and 300 units on a link of 10: 5 each until t = 20, then the second
     * alone at 10: its last 200 by t = 40. */
    dc_sim *sim = dc_sim_create(1, 1000.0, &err);
    flow_test ft = {0};
    ft.fl = dc_flows_create(sim);
    ft.link = dc_flows_add_resource(ft.fl, 10.0);
    dc_flows_on_rerate(ft.fl, count_rerate, &ft);
    dc_sim_at(sim, 0.0, start_two, &ft, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    CU_ASSERT_EQUAL(ft.n_done, 2);
    CU_ASSERT_EQUAL(ft.n_rerates, 4); /* two starts, two ends: nothing else */
    CU_ASSERT_EQUAL(dc_flows_active(ft.fl), 0u);
    CU_ASSERT(REL(ft.done_at[0], 20.0) && REL(ft.done_at[1], 40.0));
    dc_flows_destroy(ft.fl);
    dc_sim_destroy(sim);
    /* The same with the link halved at t = 10: 50 left of each, now at 2.5:
     * the first ends at t = 30, the second has 200 left, alone at 5: t = 70. */
    sim = dc_sim_create(1, 1000.0, &err);
    ft = (flow_test){0};
    ft.fl = dc_flows_create(sim);
    ft.link = dc_flows_add_resource(ft.fl, 10.0);
    dc_sim_at(sim, 0.0, start_two, &ft, 0);
    dc_sim_at(sim, 10.0, halve, &ft, 0);
    dc_sim_run(sim, &err);
    CU_ASSERT(REL(ft.done_at[0], 30.0) && REL(ft.done_at[1], 70.0));
    dc_flows_destroy(ft.fl);
    dc_sim_destroy(sim);
}

/* ---- step time ---- */

static dc_step_config small_model(double gpus, double tp, double pp)
{
    return (dc_step_config){
        .gpus = gpus, .tp = tp, .pp = pp, .dp = gpus / (tp * pp), .params = 1e9, .tokens_per_step = 65536,
        .seq_len = 4096, .micro_batch = 1, .virtual_stages = 1, .layers = 16, .hidden = 2048, .zero_stage = 0,
        .param_bytes = 2, .grad_bytes = 2, .optimizer_bytes = 12, .activation_bytes = 2,
        .flop_per_param_token = 6, .peak_flops = 1e15, .kernel_eff = 0.5, .overlap_dp = 0.5, .algo = DC_ALGO_RING,
    };
}

static void test_step_time_by_hand(void)
{
    dc_topology_spec s = fat_spec();
    dc_topology *t = make_topo(&s, 64, 64);
    CU_ASSERT_PTR_NOT_NULL_FATAL(t);
    /* 16 GPUs: tensor 8 inside each node, data parallel 2 across the two. */
    dc_step_config c = small_model(16, 8, 1);
    dc_step_time o;
    dc_step_time_compute(&c, t, &o);
    double Tc = 6.0 * 1e9 * 65536 / (16 * 1e15 * 0.5);   /* 0.049152 s */
    double act = 1.0 * 4096 * 2048 * 2;                   /* bytes per tensor all-reduce */
    double m = 65536.0 / (4096 * 1 * 2);                  /* 8 micro-batches */
    double tp = 4 * 16 * m * (14 * (3e-6 + act / 8 / 450e9)); /* ring of 8 on NVLink */
    double grads = 1e9 / 8 * 2;                           /* bytes on each GPU */
    double dp = 2 * 1 * (7e-6 + grads / 2 / 50e9);        /* ring of 2 across a leaf */
    CU_ASSERT(REL(o.microbatches, 8.0));
    CU_ASSERT(REL(o.compute_s, Tc));
    CU_ASSERT(REL(o.tp_s, tp));
    CU_ASSERT(REL(o.dp_s, dp));
    CU_ASSERT(REL(o.comm_exposed_s, tp + 0.5 * dp));      /* half the gradients hidden */
    CU_ASSERT(REL(o.step_s, Tc + tp + 0.5 * dp));
    printf("\n  16 GPUs: compute %.4f s, tensor %.4f s, data %.4f s, step %.4f s, efficiency %.3f\n", Tc, tp, dp,
           o.step_s, Tc / o.step_s);
    /* Pipeline 2 x tensor 8 x data 1 with 2 virtual stages: bubble (p-1)/(v m) of the compute. */
    c = small_model(16, 8, 2);
    c.virtual_stages = 2;
    dc_step_time_compute(&c, t, &o);
    m = 65536.0 / 4096;
    CU_ASSERT(REL(o.bubble_s, 1.0 / (2 * m) * Tc));
    CU_ASSERT(REL(o.pp_s, 2 * m * 2 * (7e-6 + act / 8 / 50e9)));
    CU_ASSERT(REL(o.tp_s, 4 * 8 * m * (14 * (3e-6 + act / 8 / 450e9))));
    /* Full recomputation: a third more compute, 6 tensor all-reduces per layer. */
    c.full_recompute = true;
    dc_step_time_compute(&c, t, &o);
    CU_ASSERT(REL(o.recompute_s, Tc / 3) && REL(o.bubble_s, 1.0 / (2 * m) * Tc * 4 / 3));
    /* ZeRO 1: reduce-scatter of gradients and all-gather of parameters. */
    c = small_model(16, 8, 1);
    c.zero_stage = 1;
    dc_step_time_compute(&c, t, &o);
    CU_ASSERT(REL(o.dp_s, 2 * (7e-6 + grads / 2 / 50e9)));
    /* Stall: with prefetch a read shorter than the step hides, a longer one
     * shows its excess; without prefetch it adds up. */
    double base = o.nostall_s;
    dc_step_time_add_stall(&o, 0.5 * base, true);
    CU_ASSERT(o.stall_s == 0.0 && o.step_s == base);
    dc_step_time_add_stall(&o, 2.0 * base, true);
    CU_ASSERT(REL(o.stall_s, base) && REL(o.step_s, 2.0 * base));
    dc_step_time_add_stall(&o, 0.5 * base, false);
    CU_ASSERT(REL(o.step_s, 1.5 * base));
    dc_topology_destroy(t);
}

static void test_scaling_efficiency(void)
{
    dc_topology_spec s = fat_spec();
    dc_topology *t = make_topo(&s, 64, 64);
    double last = 2.0;
    printf("\n  GPUs  exposed  overlapped");
    for (double g = 16; g <= 512; g *= 2) {
        /* Pure data parallelism on a big batch (compute > communication). */
        dc_step_config c = small_model(g, 1, 1);
        c.tokens_per_step = 4194304;
        c.overlap_dp = 0.0;
        dc_step_time o;
        dc_step_time_compute(&c, t, &o);
        double exposed = o.compute_s / o.step_s;
        c.overlap_dp = 1.0;
        dc_step_time_compute(&c, t, &o);
        double hidden = o.compute_s / o.step_s;
        printf("\n  %4.0f  %.4f   %.4f", g, exposed, hidden);
        CU_ASSERT(exposed < last);  /* falls with scale */
        CU_ASSERT(o.dp_s < o.compute_s);
        CU_ASSERT_DOUBLE_EQUAL(hidden, 1.0, 1e-12); /* does not */
        last = exposed;
    }
    printf("\n");
    dc_topology_destroy(t);
}

static void test_memory(void)
{
    /* 1e9 parameters over t p = 8, ZeRO 1 over d = 2: 0.125e9 x (2 + 2 + 6) B
     * plus 34 s b h / t x 16 layers of activations. */
    dc_step_config c = small_model(16, 8, 1);
    c.zero_stage = 1;
    double states = 0.125e9 * (2 + 2 + 12.0 / 2), act = 34.0 * 4096 * 2048 / 8 * 16;
    CU_ASSERT(REL(dc_step_memory_bytes(&c, -1.0, false), states + act));
    CU_ASSERT(REL(dc_step_memory_bytes(&c, 5e9, true), 0.125e9 * 4 + 5e9));
    c.full_recompute = true;
    CU_ASSERT(REL(dc_step_memory_bytes(&c, -1.0, false), states + 2.0 * 4096 * 2048 / 8 * 16 + 34.0 * 4096 * 2048 / 8));
}

/* ---- the models in a simulation ---- */

static const char step_cfg[] =
    "horizon_days = 100.0;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; params = 1e9; tokens = 6.5536e10; mfu = 0.5; gpu_peak_tflops = 1000.0; restart_s = 60.0; };\n"
    "network = { tiers = 2; nodes_per_leaf = 4; nic_gbps = 400.0; collective = \"ring\"; };\n"
    "parallelism = { tensor = 8; pipeline = 2; global_batch_tokens = 65536.0; seq_len = 4096;\n"
    "  layers = 16.0; hidden = 2048.0; zero_stage = 0; dp_overlap = 0.5; };\n"
    "trace = { events = false; };\n";

/* No failures: the job takes restart + steps x step time, and each speed
 * source's GPU-hours are its share of the step. */
static void test_job_runs_at_step_time(void)
{
    dc_sim *sim = dc_simrun_text(step_cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double step = dc_simrun_fig(sim, "step.time_s"), steps = dc_simrun_fig(sim, "step.steps");
    CU_ASSERT(REL(steps, 1e6));
    double days = dc_simrun_fig(sim, "job.completion_days");
    CU_ASSERT(REL(days * 86400.0, 60.0 + steps * step));
    double run_gpu_h = 32 * steps * step / 3600.0;
    CU_ASSERT(fabs(dc_simrun_fig(sim, "gpu_hours.communication") - run_gpu_h * dc_simrun_fig(sim, "step.comm_exposed_s") / step)
              < 1e-6 * run_gpu_h);
    CU_ASSERT(fabs(dc_simrun_fig(sim, "gpu_hours.pipeline_bubble") - run_gpu_h * dc_simrun_fig(sim, "step.bubble_s") / step)
              < 1e-6 * run_gpu_h);
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.mfu"), 0.5 * dc_simrun_fig(sim, "step.compute_s") / step));
    CU_ASSERT(fabs(dc_simrun_fig(sim, "step.ettr_time") - dc_simrun_fig(sim, "job.ettr") / dc_simrun_fig(sim, "step.scaling_efficiency")) < 1e-9);
    dc_sim_destroy(sim);
}

/* Pod uplinks failing at a high rate: Poisson counts, degraded bandwidth;
 * leaf switches that cut the job's nodes off. */
static const char netfail_cfg[] =
    "horizon_days = 100.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; params = 1e9; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; };\n"
    "network = { tiers = 3; nodes_per_leaf = 1; leaves_per_pod = 2; pod_oversubscription = 2.0;\n"
    "  failures = ( { part = \"pod_link\"; mtbf_h = 100.0; repair = { law = \"constant\"; mean_h = 1.0; }; },\n"
    "    { part = \"leaf_switch\"; mtbf_h = 5000.0; repair = { law = \"constant\"; mean_h = 2.0; }; } ); };\n"
    "parallelism = { tensor = 8; global_batch_tokens = 65536.0; seq_len = 4096; dp_overlap = 0.0; };\n"
    "trace = { events = false; };\n";

static void test_network_failures_in_run(void)
{
    dc_sim *sim = dc_simrun_text(netfail_cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 2 pods x 8 uplinks (2 leaves x 8 NICs / 2); a failed one is out 1 h of
     * 100: the working units fail at 16 x 100 d x 24 h x (100/101) / 100 h. */
    double expect = 16 * 2400.0 * (100.0 / 101.0) / 100.0, got = dc_simrun_fig(sim, "network.failures.pod_link");
    printf("\n  pod link failures %.0f, expected %.0f +- %.0f (99%%)", got, expect, DC_Z99 * sqrt(expect));
    CU_ASSERT(fabs(got - expect) <= DC_Z99 * sqrt(expect));
    CU_ASSERT(dc_simrun_fig(sim, "network.degraded_h") > 0.0 && dc_simrun_fig(sim, "network.min_health") < 1.0);
    /* Each leaf switch holds a node of the job: every failure while the job
     * computes cuts it, and nothing else interrupts it. */
    double sw = dc_simrun_fig(sim, "network.failures.leaf_switch");
    CU_ASSERT(sw > 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "network.interruptions"), dc_simrun_fig(sim, "job.interruptions"), 0.0);
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "job.interruptions"), sw, 0.0);
    /* Slower collectives while links are down: the mean efficiency is lower. */
    CU_ASSERT(dc_simrun_fig(sim, "step.mean_scaling_efficiency") < dc_simrun_fig(sim, "step.scaling_efficiency"));
    dc_sim_destroy(sim);
}

/* "network_changed" is told only when a ring the job was given (or its
 * nodes' health) changed.  12 nodes of 8 GPUs on leaves of 4 with 8
 * spares; nodes fail every ~50 h each and the job restarts on a spare.
 * Its rings, ordered by location, leave each leaf they span once, so a
 * ring's bandwidth and latency do not depend on which leaves the nodes
 * are on: the job is told once (when it first computes) however often its
 * nodes are replaced.  A job of 4 nodes starts inside one leaf: the first
 * replacement makes its rings cross leaves (switch hops, uplinks at 1:4)
 * and it is told again, but not at every replacement after that. */
static const char replace_cfg[] =
    "horizon_days = 20.0; stop_when_done = false;\n"
    "cluster = { nodes = 12; spare_nodes = 8; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 12; params = 1e9; tokens = 1e16; mfu = 0.5; gpu_peak_tflops = 1000.0; };\n"
    "network = { tiers = 2; nodes_per_leaf = 4; leaf_oversubscription = 1.0; };\n"
    "parallelism = { tensor = 8; global_batch_tokens = 65536.0; seq_len = 4096; dp_overlap = 0.0; };\n"
    "failures = ( { name = \"node\"; per = \"node\"; mtbf_h = 50.0; } );\n"
    "repair = { crews = 0; law = \"constant\"; mean_h = 24.0; };\n"
    "trace = { events = false; };\n";

static void count_told(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    (void)payload;
    (*(int *)ctx)++;
}

static int told_in_run(const char *const *sets, size_t n_sets, double *interruptions)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(replace_cfg, sets, n_sets, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    int told = 0;
    CU_ASSERT_EQUAL(dc_sim_subscribe(sim, dc_sim_signal(sim, "network_changed"), count_told, &told), DC_OK);
    sim = dc_simrun_run(sim);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    *interruptions = dc_simrun_fig(sim, "job.interruptions");
    dc_sim_destroy(sim);
    return told;
}

static void test_told_when_rings_change(void)
{
    double flat_int = 0, over_int = 0;
    int flat = told_in_run(NULL, 0, &flat_int);
    const char *leaf_sets[] = {"network.leaf_oversubscription=4.0", "cluster.nodes=4", "job.nodes=4"};
    int over = told_in_run(leaf_sets, 3, &over_int);
    printf("\n  12 nodes: told %d times in %.0f interruptions; 4 nodes in a leaf: told %d times in %.0f", flat,
           flat_int, over, over_int);
    CU_ASSERT(flat_int >= 10 && over_int >= 10);
    CU_ASSERT_EQUAL(flat, 1);
    CU_ASSERT(over > 1 && over < over_int + 1);
}

static const char storage_cfg[] =
    "horizon_days = 10.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; params = 1e9; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; };\n"
    "checkpoint = { interval_s = 3600.0; size_gb = 400.0; write_gb_per_s = 10.0; };\n"
    "storage = { node_link_gbps = 80.0;\n"
    "  tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 50.0;\n"
    "              write_gb_per_s = 20.0; latency_us = 1000.0; cost_usd_per_tb_month = 10.0; },\n"
    "            { name = \"nvme\"; kind = \"nvme\"; capacity_tb = 4.0; read_gb_per_s = 8.0; write_gb_per_s = 4.0;\n"
    "              cost_usd_per_tb_month = 2.0; } ); };\n"
    "trace = { events = false; };\n";

typedef struct xfer {
    dc_storage *st;
    double done_s[2];
    dc_flow_id id[2];
} xfer;

static void xfer_done(dc_sim *sim, void *ctx, dc_flow_id id)
{
    xfer *x = ctx;
    for (int i = 0; i < 2; i++)
        if (x->id[i] == id)
            x->done_s[i] = dc_sim_now(sim);
}

static void xfer_start(dc_sim *sim, void *ctx, uint64_t arg)
{
    xfer *x = ctx;
    int pfs = dc_storage_tier(x->st, "pfs");
    /* Two writes of 100 GB from 2 nodes each: the file system's 20 GB/s
     * shared, 10 each; alone, one gets min(20, 2 x 10 GB/s of link). */
    CU_ASSERT(REL(dc_storage_rate_Bps(x->st, pfs, DC_IO_WRITE, -1, 2), 20e9));
    x->id[0] = dc_storage_transfer(x->st, pfs, DC_IO_WRITE, 100e9, -1, 2, xfer_done, x);
    x->id[1] = dc_storage_transfer(x->st, pfs, DC_IO_WRITE, 300e9, -1, 2, xfer_done, x);
    CU_ASSERT(REL(dc_storage_transfer_rate_Bps(x->st, x->id[0]), 10e9));
    /* A third writer from 1 node would get its fair share per node: 4 GB/s. */
    CU_ASSERT(REL(dc_storage_rate_Bps(x->st, pfs, DC_IO_WRITE, -1, 1), 4e9));
}

static void test_storage(void)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(storage_cfg, NULL, 0, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    xfer x = {dc_storage_of(sim), {0, 0}, {0, 0}};
    CU_ASSERT_PTR_NOT_NULL_FATAL(x.st);
    int pfs = dc_storage_tier(x.st, "pfs"), nvme = dc_storage_tier(x.st, "nvme");
    CU_ASSERT(pfs == 0 && nvme == 1 && dc_storage_tier_of_kind(x.st, DC_TIER_NVME) == 1);
    /* Link-limited: one node's 80 Gbit/s = 10 GB/s < 20 GB/s. */
    CU_ASSERT(REL(dc_storage_transfer_s(x.st, pfs, DC_IO_WRITE, 100e9, -1, 1), 1e-3 + 10.0));
    /* Node tier: 4 nodes x 4 GB/s. */
    CU_ASSERT(REL(dc_storage_transfer_s(x.st, nvme, DC_IO_WRITE, 400e9, -1, 4), 25.0));
    dc_sim_at(sim, 0.0, xfer_start, &x, 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    /* 100 GB at 10 GB/s: t = 10; the other then alone at 20: 200 GB more by t = 20. */
    CU_ASSERT(REL(x.done_s[0], 10.0) && REL(x.done_s[1], 20.0));
    /* The checkpoint of 400 GB from 4 nodes on each tier, alone. */
    CU_ASSERT(REL(dc_simrun_fig(sim, "storage.pfs.checkpoint_write_s"), 1e-3 + 400e9 / 20e9));
    CU_ASSERT(REL(dc_simrun_fig(sim, "storage.nvme.checkpoint_write_s"), 400e9 / 16e9));
    /* Cost: 1000 TB x $10 + 4 nodes x 4 TB x $2 per month, for 10 days. */
    CU_ASSERT(REL(dc_simrun_fig(sim, "storage.cost_usd_per_month"), 10000.0 + 32.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "storage.cost_usd"), 10032.0 * 10 * 86400 / (30.44 * 86400)));
    dc_sim_destroy(sim);
}

/* Node devices failing by a Weibull law (one clock each) or exponentially
 * (one superposed process): alternating renewals of life and a 1 h repair,
 * N T / (mean life + 1 h) failures. */
static void test_tier_failures(void)
{
    static const char cfg[] =
        "horizon_days = 400.0; stop_when_done = false;\n"
        "cluster = { nodes = 64; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { nodes = 64; work_gpu_h = 1e12; };\n"
        "storage = { tiers = ( { name = \"nvme\"; kind = \"nvme\"; capacity_tb = 4.0; read_gb_per_s = 8.0;\n"
        "  write_gb_per_s = 4.0; failure = { law = \"weibull\"; shape = 2.0; mean_h = 100.0; };\n"
        "  repair = { law = \"constant\"; mean_h = 1.0; }; } ); };\n"
        "trace = { events = false; };\n";
    const double T = 400 * 24.0, expect = 64 * T / 101.0;
    /* Renewal counts: variance N T sigma^2 / mu^3; Weibull shape 2 has
     * sigma^2 / mu^2 = 4 / pi - 1. */
    double sd_weibull = sqrt(expect * (4.0 / M_PI - 1.0)), sd_exp = sqrt(expect);
    dc_sim *sim = dc_simrun_text(cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double got = dc_simrun_fig(sim, "storage.nvme.failures");
    printf("\n  weibull: %.0f failures, expected %.0f +- %.0f (99%%)", got, expect, DC_Z99 * sd_weibull);
    CU_ASSERT(fabs(got - expect) <= DC_Z99 * sd_weibull);
    /* Each failure costs its 1 h of repair, bar those cut off at the end. */
    double down = dc_simrun_fig(sim, "storage.nvme.down_h");
    CU_ASSERT(down <= got && down >= got - 64);
    dc_sim_destroy(sim);
    /* The same mean, exponential. */
    char text[1024];
    snprintf(text, sizeof text, "%s", cfg);
    const char *weibull = "law = \"weibull\"; shape = 2.0; ";
    char *w = strstr(text, weibull);
    CU_ASSERT_PTR_NOT_NULL_FATAL(w);
    memmove(w, w + strlen(weibull), strlen(w + strlen(weibull)) + 1);
    sim = dc_simrun_text(text, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    got = dc_simrun_fig(sim, "storage.nvme.failures");
    printf("\n  exponential: %.0f failures, expected %.0f +- %.0f (99%%)\n", got, expect, DC_Z99 * sd_exp);
    CU_ASSERT(fabs(got - expect) <= DC_Z99 * sd_exp);
    dc_sim_destroy(sim);
}

/* A dataset on a file system that fails: the job stalls while it is down. */
static void test_data_stall(void)
{
    static const char cfg[] =
        "horizon_days = 200.0; stop_when_done = false;\n"
        "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { nodes = 4; params = 1e9; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; };\n"
        "network = { tiers = 2; nodes_per_leaf = 4; };\n"
        "storage = { tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 1.0;\n"
        "  write_gb_per_s = 1.0; failure = { mtbf_h = 200.0; }; repair = { law = \"constant\"; mean_h = 10.0; }; } );\n"
        "  dataset = { tier = \"pfs\"; size_tb = 100.0; bytes_per_token = 1e4; }; };\n"
        "parallelism = { tensor = 8; global_batch_tokens = 65536.0; seq_len = 4096; };\n"
        "trace = { events = false; };\n";
    dc_sim *sim = dc_simrun_text(cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 65536 x 1e4 B = 655 MB per step at 1 GB/s: 0.655 s of reading. */
    double step = dc_simrun_fig(sim, "step.time_s"), nostall = step - dc_simrun_fig(sim, "step.data_stall_s");
    CU_ASSERT(REL(step, 0.65536));
    CU_ASSERT(nostall < step);
    /* While the tier is down the job stands still: data_stall GPU-hours are
     * 32 GPUs x the down time, on top of the stall of the healthy steps. */
    double down_h = dc_simrun_fig(sim, "storage.pfs.down_h");
    CU_ASSERT(down_h > 0.0);
    /* (stopped while the tier is down: held, not running) */
    double run_h = dc_simrun_fig(sim, "job.time_running_h") + dc_simrun_fig(sim, "job.time_held_h");
    CU_ASSERT(REL(dc_simrun_fig(sim, "job.time_held_h"), down_h));
    double expect = 32.0 * ((run_h - down_h) * dc_simrun_fig(sim, "step.data_stall_s") / step + down_h);
    CU_ASSERT(fabs(dc_simrun_fig(sim, "gpu_hours.data_stall") - expect) < 1e-6 * expect);
    dc_sim_destroy(sim);
}

/* A transfer from the dataset's tier takes its fair share while it lasts:
 * the stream, demanding 0.8 of the tier, gets half, and the step waits. */
static const char stream_cfg[] =
    "horizon_days = 1.0; stop_when_done = false;\n"
    "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 4; params = 1e9; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; restart_s = 0.0; };\n"
    "network = { tiers = 2; nodes_per_leaf = 4; };\n"
    "storage = { tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 1000.0; read_gb_per_s = 1.0;\n"
    "  write_gb_per_s = 1.0; } ); dataset = { tier = \"pfs\"; size_tb = 100.0; bytes_per_token = 1.0; }; };\n"
    "parallelism = { tensor = 8; global_batch_tokens = 65536.0; seq_len = 4096; };\n"
    "trace = { events = false; };\n";

static void big_read(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_storage *st = ctx;
    dc_storage_transfer(st, dc_storage_tier(st, "pfs"), DC_IO_READ, 200e9, -1, 4, NULL, NULL);
}

static void test_transfer_slows_stream(void)
{
    dc_sim *sim = dc_simrun_text(stream_cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double step = dc_simrun_fig(sim, "step.time_s");
    dc_sim_destroy(sim);
    /* Bytes per token for a demand of 0.8 GB/s at this step time. */
    char set[96];
    snprintf(set, sizeof set, "storage.dataset.bytes_per_token=%.17g", 0.8e9 * step / 65536.0);
    const char *sets[] = {set};
    dc_error err = {0};
    sim = dc_simrun_build(stream_cfg, sets, 1, -1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    dc_sim_at(sim, 100.0, big_read, dc_storage_of(sim), 0);
    CU_ASSERT_EQUAL(dc_sim_run(sim, &err), DC_OK);
    dc_series *ser = dc_sim_series(sim, "step_time", "s", NULL);
    size_t n = dc_series_length(ser);
    const double *t = dc_series_times(ser), *v = dc_series_values(ser);
    /* 0: the step; 100 s: 1.6 x (the read at 0.5 GB/s); 500 s (200 GB at
     * 0.5 GB/s later): the step again. */
    CU_ASSERT_EQUAL_FATAL(n, 3u);
    CU_ASSERT(t[0] == 0.0 && REL(v[0], step));
    CU_ASSERT(REL(t[1], 100.0) && REL(v[1], 1.6 * step));
    CU_ASSERT(REL(t[2], 500.0) && REL(v[2], step));
    dc_sim_destroy(sim);
}

/* Not enough HBM: the optimizer goes to DDR, and the offload costs time. */
static void test_offload(void)
{
    static const char cfg[] =
        "horizon_days = 1.0; stop_when_done = false;\n"
        "cluster = { nodes = 4; gpus_per_node = 8; nodes_per_rack = 4; };\n"
        "job = { nodes = 4; params = 1e10; tokens = 1e15; mfu = 0.5; gpu_peak_tflops = 1000.0; };\n"
        "network = { tiers = 2; nodes_per_leaf = 4; };\n"
        "storage = { tiers = ( { name = \"hbm\"; kind = \"hbm\"; capacity_tb = 0.32; read_gb_per_s = 2e4;\n"
        "  write_gb_per_s = 2e4; }, { name = \"ddr\"; kind = \"ddr\"; capacity_tb = 2.0; read_gb_per_s = 200.0;\n"
        "  write_gb_per_s = 200.0; } ); };\n"
        "parallelism = { tensor = 8; global_batch_tokens = 262144.0; seq_len = 4096; zero_stage = 0;\n"
        "  activation_gb = 10.0; };\n"
        "trace = { events = false; };\n";
    dc_sim *sim = dc_simrun_text(cfg, NULL, 0, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 1.25e9 parameters per GPU at 16 B (ZeRO 0) = 20 GB, plus 10 GB of
     * activations, fit the 40 GB of HBM per GPU: no offload. */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "step.offload"), 0.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.memory_gb_per_gpu"), 1.25e9 * 16 / 1e9 + 10.0));
    dc_sim_destroy(sim);
    const char *sets[] = {"parallelism.activation_gb=25.0"};
    sim = dc_simrun_text(cfg, sets, 1, -1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* 20 + 25 > 40 GB: the 15 GB of optimizer go to DDR (2 TB / 8 = 250 GB
     * per GPU); each step moves 1.25e9 x (2 + 2 + 24) B at 25 GB/s. */
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "step.offload"), 1.0, 0.0);
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.memory_gb_per_gpu"), 1.25e9 * 4 / 1e9 + 25.0));
    CU_ASSERT(REL(dc_simrun_fig(sim, "step.offload_s"), 1.25e9 * 28 / 25e9));
    CU_ASSERT(dc_simrun_fig(sim, "gpu_hours.memory_offload") > 0.0);
    dc_sim_destroy(sim);
}

/* ---- bad input through the program ---- */

typedef struct bad_case {
    const char *what;
    const char *scenario;
    const char *fragments[3];
} bad_case;

#define BASE                                                                               \
    "horizon_days = 1.0;\ncluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4; };\n" \
    "job = { nodes = 16; params = 1e9; tokens = 1e12; };\n"

static const bad_case bad_cases[] = {
    {"fabric too small for the cluster",
     BASE "network = { tiers = 2; nodes_per_leaf = 2;\n switch_radix = 4; };\n",
     {"bad.cfg:5", "network.switch_radix", "at most 4 leaves"}},
    {"negative NIC bandwidth", BASE "network = {\n nic_gbps = -400.0; };\n", {"bad.cfg:5", "network.nic_gbps", "-400"}},
    {"negative storage bandwidth",
     BASE "storage = { tiers = ( { name = \"p\"; kind = \"pfs\"; capacity_tb = 1.0;\n read_gb_per_s = -5.0; "
          "write_gb_per_s = 1.0; } ); };\n",
     {"bad.cfg:5", "storage.tiers.[0].read_gb_per_s", "-5"}},
    {"degrees that do not divide the GPUs",
     BASE "network = { tiers = 2; };\nparallelism = {\n tensor = 3; global_batch_tokens = 1e6; };\n",
     {"bad.cfg:6", "parallelism.tensor", "does not divide the job's 128 GPUs"}},
    {"data degree that does not multiply out",
     BASE "network = { tiers = 2; };\nparallelism = { tensor = 8;\n data = 4; global_batch_tokens = 1e6; };\n",
     {"bad.cfg:6", "parallelism.data", "the job has 128 GPUs"}},
    {"step time without a network", BASE "parallelism = { global_batch_tokens = 1e6; };\n",
     {"bad.cfg:4", "parallelism", "needs a network"}},
    {"batch too small", BASE "network = { tiers = 2; };\nparallelism = {\n global_batch_tokens = 4096.0; };\n",
     {"bad.cfg:6", "global_batch_tokens", "at least 1"}},
    {"torus too small", BASE "network = { topology = \"torus3d\"; torus_x = 2;\n torus_y = 2; torus_z = 2; };\n",
     {"network.torus_x", "holds 8 nodes", "16"}},
    {"model does not fit in HBM",
     BASE "network = { tiers = 2; };\nstorage = { tiers = ( { name = \"hbm\"; kind = \"hbm\"; capacity_tb = 0.08; "
          "read_gb_per_s = 1e4; write_gb_per_s = 1e4; } ); };\nparallelism = { offload = \"none\";\n "
          "global_batch_tokens = 1e6; activation_gb = 9.0; };\n",
     {"bad.cfg:6", "parallelism", "holds 10.0 GB per GPU"}},
    {"dataset on an unknown tier",
     BASE "storage = { tiers = ( { name = \"p\"; kind = \"pfs\"; capacity_tb = 1.0; read_gb_per_s = 1.0; "
          "write_gb_per_s = 1.0; } );\n dataset = { tier = \"s3\"; size_tb = 0.5; }; };\n",
     {"bad.cfg:5", "storage.dataset.tier", "no tier is named \"s3\""}},
    {"pod links in a 2-tier fabric",
     BASE "network = { tiers = 2; failures = (\n { part = \"pod_link\"; afr = 0.01; repair = { mean_h = 1.0; }; } ); };\n",
     {"bad.cfg:5", "failures.[0].part", "no pod_link"}},
    {"unknown topology", BASE "network = {\n topology = \"hypercube\"; };\n", {"bad.cfg:5", "network.topology", "hypercube"}},
#define NVME "storage = { tiers = ( { name = \"nvme\"; kind = \"nvme\"; capacity_tb = 1.0; read_gb_per_s = 1.0; " \
             "write_gb_per_s = 1.0; } ); };\n"
    {"checkpoint tier that does not exist", BASE NVME "checkpoint = { size_gb = 10.0;\n tier = \"pfs\"; };\n",
     {"bad.cfg:6", "checkpoint.tier", "no storage tier is named \"pfs\""}},
    {"checkpoint level on a tier that does not exist",
     BASE NVME "checkpoint = { size_gb = 10.0;\n levels = ( { tier = \"nvme\"; every = 1; }, { tier = \"s3\"; "
               "every = 4; } ); };\n",
     {"bad.cfg:6", "checkpoint.levels.[1].tier", "\"s3\""}},
    {"checkpoint levels without a durable tier",
     BASE NVME "checkpoint = { size_gb = 10.0;\n levels = ( { tier = \"nvme\"; every = 1; } ); };\n",
     {"bad.cfg:6", "checkpoint.levels", "no level is on a durable tier"}},
    {"async checkpoints without a snapshot bandwidth",
     BASE NVME "checkpoint = { size_gb = 10.0; tier = \"nvme\";\n mode = \"async\"; };\n",
     {"bad.cfg:6", "checkpoint.mode", "snapshot_gb_per_s"}},
    {"checkpoints with neither bandwidth nor tier", BASE "checkpoint = {\n size_gb = 10.0; };\n",
     {"bad.cfg:4", "checkpoint", "give write_gb_per_s, or a storage tier"}},
#undef NVME
};

static const char *dcsim_path;

static void test_bad_input(void)
{
    if (!dcsim_path) {
        fprintf(stderr, "\n  DCSIM is not set: skipping the program's bad-input cases\n");
        return;
    }
    char dir[] = "/tmp/dcsim_test_network_XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++)
        dc_test_bad_run(dir, bad_cases[i].what, bad_cases[i].scenario, NULL, bad_cases[i].fragments, 3);
    rmdir(dir);
}

static int register_suites(void)
{
    DC_TEST_SUITE("collectives", {"closed forms", test_collective_closed_forms},
                  {"on a fat-tree", test_topology_collectives}, {"oversubscription", test_oversubscription},
                  {"ring rates are max-min fair", test_topology_against_maxmin}, {"3D torus", test_torus},
                  {"failures and health", test_failures_health}, {"health after a history", test_health_history});
    DC_TEST_SUITE("sharing", {"max-min by hand", test_maxmin_by_hand},
                  {"max-min on reused work", test_maxmin_reused_work}, {"fluid transfers", test_fluid_transfers});
    DC_TEST_SUITE("step time", {"by hand", test_step_time_by_hand}, {"scaling efficiency", test_scaling_efficiency},
                  {"memory", test_memory});
    DC_TEST_SUITE("in a run", {"job at the step time", test_job_runs_at_step_time},
                  {"network failures", test_network_failures_in_run},
                  {"network_changed only when a ring changes", test_told_when_rings_change},
                  {"storage tiers", test_storage}, {"tier failures", test_tier_failures},
                  {"data stall", test_data_stall}, {"a transfer slows the data stream", test_transfer_slows_stream},
                  {"optimizer offload", test_offload});
    /* The lessons of scenarios/teach/ are run by tests/lessons.sh. */
    DC_TEST_SUITE("program", {"bad input: message and exit status 2", test_bad_input});
    return 0;
}

int main(void)
{
    dcsim_path = getenv("DCSIM");
    return dc_test_main(register_suites);
}
