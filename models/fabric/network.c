/* The network model: the fabric with its link and switch failures, and collective costs on it.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "network.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cfgget.h"
#include "cluster.h"
#include "dist.h"
#include "fabric.h"
#include "keymap.h"
#include "law_params.h"

#define GBPS 1.25e8 /* bytes per second in one Gbit/s */

const dc_param dc_network_params[] = {
    {"network", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "the fabric: topology, scale-up domains, NICs, link and switch failures; absent: no network model"},
    {"network.topology", DC_PARAM_STRING, 0, "", 0, "fat_tree", 0, 0, "fat_tree|rail_optimized|torus3d",
     "fat_tree (one ToR per leaf), rail_optimized (NIC i of each node on rail switch i) or torus3d"},
    {"network.tiers", DC_PARAM_INT, 0, "", 3, NULL, 2, 3, NULL, "switch tiers of a fat_tree or rail_optimized fabric"},
    {"network.nodes_per_leaf", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e6, NULL,
     "nodes under one leaf (ToR) switch, or in one rail group (default: cluster.nodes_per_rack)"},
    {"network.leaves_per_pod", DC_PARAM_INT, 0, "", 32, NULL, 1, 1e6, NULL,
     "leaves (or rail groups) in a pod at full bisection (3 tiers)"},
    {"network.switch_radix", DC_PARAM_INT, 0, "ports", 64, NULL, 2, 1e6, NULL,
     "ports of a top-tier switch: at most this many leaves (2 tiers) or pods (3 tiers)"},
    {"network.leaf_oversubscription", DC_PARAM_FLOAT, 0, "", 1, NULL, 1, 1e3, NULL,
     "downlink : uplink bandwidth at the leaves (1 = non-blocking)"},
    {"network.pod_oversubscription", DC_PARAM_FLOAT, 0, "", 1, NULL, 1, 1e3, NULL,
     "downlink : uplink bandwidth between pods and the core (3 tiers; 1 = non-blocking)"},
    {"network.nics_per_node", DC_PARAM_INT, 0, "", 8, NULL, 1, 1024, NULL, "scale-out NICs per node"},
    {"network.nic_gbps", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 400, NULL, 0, 1e7, NULL,
     "bandwidth of one NIC in each direction"},
    {"network.scaleup_gpus", DC_PARAM_INT, 0, "GPUs", 8, NULL, 1, 1e6, NULL,
     "GPUs in one scale-up (NVLink) domain: 8 for an HGX node, 72 for an NVL72 rack"},
    {"network.scaleup_gbps", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 3600, NULL, 0, 1e8, NULL,
     "scale-up bandwidth per GPU and direction (NVLink 4: 450 GB/s = 3600 Gbit/s)"},
    {"network.scaleup_latency_us", DC_PARAM_FLOAT, 0, "us", 3, NULL, 0, 1e6, NULL,
     "latency of one collective step inside a scale-up domain"},
    {"network.latency_us", DC_PARAM_FLOAT, 0, "us", 6, NULL, 0, 1e6, NULL,
     "latency of one collective step between nodes, besides switch hops"},
    {"network.hop_latency_us", DC_PARAM_FLOAT, 0, "us", 1, NULL, 0, 1e6, NULL,
     "latency added by each switch (torus: each router) on the way"},
    {"network.torus_x", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e6, NULL, "torus3d: nodes along x"},
    {"network.torus_y", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e6, NULL, "torus3d: nodes along y"},
    {"network.torus_z", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e6, NULL, "torus3d: nodes along z"},
    {"network.torus_link_gbps", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 400, NULL, 0, 1e7, NULL,
     "torus3d: bandwidth of one of a node's six links in each direction"},
    {"network.placement", DC_PARAM_STRING, 0, "", 0, "packed", 0, 0, "packed|scattered",
     "packed: a job's ranks follow its nodes in order (NCCL's rings by location); scattered: in random order"},
    {"network.collective", DC_PARAM_STRING, 0, "", 0, "auto", 0, 0, "auto|ring|tree|hierarchical",
     "collective algorithm (auto: the fastest for each collective)"},
    {"network.failures", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL, "link and switch failures; absent: none"},
    {"network.failures.[].part", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0,
     "nic_link|leaf_link|pod_link|leaf_switch|spine_switch|core_switch",
     "what fails: a node-leaf link (torus: a link), leaf-spine link, pod-core link, or a switch"},
    {"network.failures.[].mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0,
     1e12, NULL, "mean time between failures of one unit (exponential)"},
    {"network.failures.[].afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL, 0, 1e6,
     NULL, "annualised failure rate of one unit (instead of mtbf_h)"},
    {"network.failures.[].repair", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "repair-time law of a failed unit"},
    DC_LAW_PARAMS("network.failures.[].repair", "exponential", "repair time"),
    {0},
};

static const char *const part_names[DC_PART_COUNT] = {"nic_link",    "leaf_link",    "pod_link",
                                                      "leaf_switch", "spine_switch", "core_switch"};

/* What a job's step-time computations got from the fabric since it was
 * last told "network_changed": each ring asked (n ranks at stride GPUs)
 * and its bandwidth and latency, and the health of the job's nodes
 * (dc_network_job_collective).  A job is told again only if one of these
 * now differs: a failure, repair or job elsewhere that leaves the job's
 * rings as they were (the flagship: a node replaced by a spare under a
 * full-bisection pod, 584 of its 644 changes) would make it compute the
 * same step time from the same figures. */
#define SEEN_RINGS 8
typedef struct ring_seen {
    uint32_t n, stride;
    dc_ring_bw r;
} ring_seen;

typedef struct job_seen {
    ring_seen ring[SEEN_RINGS];
    uint32_t n_ring;
    double node_h;
    bool has_h;
    bool valid; /* every figure the job got since it was told is here */
} job_seen;

typedef struct net_class {
    dc_net_part part;
    double mean_s;  /* per unit */
    dc_dist repair;
    gsl_rng *rng;
    uint64_t units;
    uint64_t n_failures;
} net_class;

struct dc_network {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_topology *topo;
    dc_fabric *fabric;          /* the jobs' flows on it */
    dc_coll_algo algo;
    net_class *classes;
    size_t n_classes;
    int sig_changed;
    dc_eventlog *log;
    dc_series *series_health;
    uint64_t n_interruptions;
    double health, min_health, degraded_s, since_s;
    /* what jobs got (job_seen): job + 1 -> its record in seen */
    dc_keymap *seen_of;
    job_seen *seen;
    uint32_t *free_seen;
    size_t n_seen, cap_seen, n_free;
    int32_t telling; /* the job being told "network_changed", -1 */
};

#define UNIT_BITS 48
#define UNIT_MASK ((UINT64_C(1) << UNIT_BITS) - 1)

dc_network *dc_network_of(dc_sim *sim)
{
    dc_network *n = dc_sim_model(sim, "network");
    return n && n->topo ? n : NULL;
}

struct dc_fabric *dc_network_fabric(dc_network *net) { return net ? net->fabric : NULL; }

const dc_topology *dc_network_topology(const dc_network *net)
{
    return net->topo;
}

dc_coll_algo dc_network_algorithm(const dc_network *net)
{
    return net->algo;
}

dc_coll_cost dc_network_collective(const dc_network *net, dc_coll_op op, uint32_t n, uint32_t stride, double bytes)
{
    return dc_topology_collective(net->topo, op, net->algo, n, stride, bytes);
}

/* The record of job, or NULL. */
static job_seen *seen_find(const dc_network *net, int32_t job)
{
    uint32_t i;
    return job >= 0 && dc_keymap_get(net->seen_of, (uint64_t)job + 1, &i) ? &net->seen[i] : NULL;
}

/* The record of job, created empty (not valid) if it has none; NULL when
 * out of memory. */
static job_seen *seen_get(dc_network *net, int32_t job)
{
    job_seen *js = seen_find(net, job);
    if (js || job < 0)
        return js;
    uint32_t i;
    if (net->n_free > 0) {
        i = net->free_seen[--net->n_free];
    } else {
        if (net->n_seen == net->cap_seen) {
            size_t cap = net->cap_seen ? 2 * net->cap_seen : 4;
            job_seen *grown = realloc(net->seen, cap * sizeof *grown);
            uint32_t *fr = grown ? realloc(net->free_seen, cap * sizeof *fr) : NULL;
            if (grown)
                net->seen = grown;
            if (!fr)
                return NULL;
            net->free_seen = fr;
            net->cap_seen = cap;
        }
        i = (uint32_t)net->n_seen++;
    }
    if (!dc_keymap_put(net->seen_of, (uint64_t)job + 1, i)) {
        net->free_seen[net->n_free++] = i;
        return NULL;
    }
    net->seen[i] = (job_seen){.valid = false};
    return &net->seen[i];
}

/* The job left the fabric: its record goes. */
static void seen_drop(dc_network *net, int32_t job)
{
    uint32_t i;
    if (job >= 0 && dc_keymap_get(net->seen_of, (uint64_t)job + 1, &i)) {
        dc_keymap_remove(net->seen_of, (uint64_t)job + 1);
        net->free_seen[net->n_free++] = i;
    }
}

static bool same_ring(dc_ring_bw a, dc_ring_bw b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* job got ring (n, stride) = r: while it is told, recorded; else it must
 * be what the record holds, or the record no longer covers what the job
 * computed from. */
static void see_ring(dc_network *net, int32_t job, uint32_t n, uint32_t stride, dc_ring_bw r)
{
    job_seen *js = seen_find(net, job);
    if (!js || !js->valid)
        return;
    for (uint32_t i = 0; i < js->n_ring; i++)
        if (js->ring[i].n == n && js->ring[i].stride == stride) {
            if (net->telling == job)
                js->ring[i].r = r;
            else if (!same_ring(js->ring[i].r, r))
                js->valid = false;
            return;
        }
    if (net->telling == job && js->n_ring < SEEN_RINGS)
        js->ring[js->n_ring++] = (ring_seen){n, stride, r};
    else
        js->valid = false;
}

static void see_health(dc_network *net, int32_t job, double h)
{
    job_seen *js = seen_find(net, job);
    if (!js || !js->valid)
        return;
    if (net->telling == job) {
        js->node_h = h;
        js->has_h = true;
    } else if (!js->has_h || memcmp(&js->node_h, &h, sizeof h) != 0) {
        js->valid = false;
    }
}

/* Whether the fabric now gives job exactly what its record holds. */
static bool seen_unchanged(dc_network *net, int32_t job, const job_seen *js)
{
    if (!js->valid || js->n_ring == 0 || !js->has_h)
        return false;
    double h = dc_fabric_node_health(net->fabric, job);
    if (memcmp(&js->node_h, &h, sizeof h) != 0)
        return false;
    for (uint32_t i = 0; i < js->n_ring; i++)
        if (!same_ring(js->ring[i].r, dc_fabric_ring(net->fabric, job, js->ring[i].n, js->ring[i].stride)))
            return false;
    return true;
}

typedef struct job_ring_ctx {
    dc_network *net;
    int32_t job;
} job_ring_ctx;

static dc_ring_bw job_ring(void *ctx, uint32_t n, uint32_t stride)
{
    const job_ring_ctx *jc = ctx;
    dc_ring_bw r = dc_fabric_ring(jc->net->fabric, jc->job, n, stride);
    see_ring(jc->net, jc->job, n, stride, r);
    return r;
}

dc_coll_cost dc_network_job_collective(dc_network *net, int32_t job, dc_coll_op op, dc_coll_algo algo,
                                       uint32_t n, uint32_t stride, double bytes)
{
    job_ring_ctx jc = {net, job};
    double h = dc_fabric_node_health(net->fabric, job);
    see_health(net, job, h);
    return dc_topology_collective_with(net->topo, op, algo, n, stride, bytes, job_ring, &jc, h);
}

int dc_network_job_traffic(dc_network *net, int32_t job, uint32_t nodes, uint32_t n, uint32_t stride)
{
    return dc_fabric_register(net->fabric, job, nodes, n, stride);
}

static void note_health(dc_network *net);

void dc_network_job_resize(dc_network *net, int32_t job, uint32_t nodes, uint32_t n, uint32_t stride)
{
    dc_fabric_resize(net->fabric, job, nodes, n, stride);
    note_health(net);
}

/* Banks degraded time and records the health after a change: the worst
 * unit a job on the fabric uses. */
static void note_health(dc_network *net)
{
    double now = dc_sim_now(net->sim);
    if (net->health < 1.0)
        net->degraded_s += now - net->since_s;
    net->since_s = now;
    net->health = dc_fabric_worst_in_use(net->fabric);
    if (net->health < net->min_health)
        net->min_health = net->health;
    dc_series_record(net->series_health, now, net->health);
}

/* The fabric's callbacks: a job's bandwidth may have changed; a job lost its
 * last path (a job-level fault, as if the collective timed out). */
static void on_job_changed(void *ctx, int32_t job)
{
    dc_network *net = ctx;
    job_seen *js = seen_find(net, job);
    if (js && seen_unchanged(net, job, js))
        return; /* it would compute what it has from the same figures */
    js = seen_get(net, job);
    if (js)
        *js = (job_seen){.valid = true};
    int32_t was = net->telling;
    net->telling = job;
    dc_job_event ev = {job};
    dc_sim_publish(net->sim, net->sig_changed, &ev);
    net->telling = was;
}

static void on_job_cut(void *ctx, int32_t job)
{
    dc_network *net = ctx;
    dc_job_phase ph = dc_cluster_job_phase(net->cluster, job);
    if (ph == DC_JOB_RUNNING || ph == DC_JOB_CHECKPOINTING || ph == DC_JOB_RESTARTING)
        net->n_interruptions++;
    dc_eventlog_add(net->log, dc_sim_now(net->sim), "net_cut", "", -1, job, 0.0);
    dc_cluster_fail(net->cluster, -1, "network", NULL, 0, job);
}

/* A job's flows stand on the fabric while it holds an allocation: from
 * its first run on it until it gives its nodes back (fabric.h).  Only the
 * edges into these phases act (PHASE_EDGES: not those into checkpointing). */
#define PHASE_EDGES dc_job_edges_into(1u << DC_JOB_RUNNING | 1u << DC_JOB_PENDING | 1u << DC_JOB_DONE)
static void on_phase(dc_sim *sim, void *ctx, const void *payload)
{
    dc_network *net = ctx;
    const dc_job_event *ev = payload;
    (void)sim;
    if (!dc_fabric_registered(net->fabric, ev->job))
        return;
    dc_job_phase ph = dc_cluster_job_phase(net->cluster, ev->job);
    if (ph == DC_JOB_RUNNING) {
        uint32_t n;
        const uint32_t *nodes = dc_cluster_job_node_list(net->cluster, ev->job, &n);
        uint64_t gen = dc_cluster_job_nodes_changes(net->cluster, ev->job);
        /* back from a checkpoint on the same nodes (12,000 times in the
         * flagship): the fabric stays as it is, and at full health
         * note_health would bank nothing and record the value it holds */
        if (net->health >= 1.0 && dc_fabric_current(net->fabric, ev->job, n, gen))
            return;
        /* the slots written since its placement, when the cluster knows
         * them (a replacement: two of 1,280 compared, not all) */
        uint32_t slots[16];
        uint64_t placed;
        int n_slots = dc_fabric_placed_gen(net->fabric, ev->job, &placed) && placed < gen
                          ? dc_cluster_job_slots_since(net->cluster, ev->job, placed, slots, 16)
                          : -1;
        if (dc_fabric_start_slots(net->fabric, ev->job, nodes, n, gen, slots, n_slots) != DC_OK) {
            dc_sim_fail(net->sim, DC_ENOMEM, "out of memory placing a job's flows on the fabric");
            return;
        }
        note_health(net);
    } else if ((ph == DC_JOB_PENDING || ph == DC_JOB_DONE) && dc_fabric_computing(net->fabric, ev->job)) {
        dc_fabric_stop(net->fabric, ev->job);
        seen_drop(net, ev->job);
        note_health(net);
    }
    if (ph == DC_JOB_DONE)
        dc_fabric_retire(net->fabric, ev->job); /* its arrays serve the next job registered */
}

static void on_repaired(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_network *net = ctx;
    net_class *nc = &net->classes[arg >> UNIT_BITS];
    uint64_t unit = arg & UNIT_MASK;
    dc_net_change ch = dc_topology_set_failed(net->topo, nc->part, unit, false);
    dc_eventlog_add(net->log, dc_sim_now(sim), "net_repair", part_names[nc->part],
                    unit > INT32_MAX ? -1 : (int32_t)unit, -1, 0.0);
    dc_fabric_health_changed(net->fabric, &ch);
    note_health(net);
}

static void on_net_failure(dc_sim *sim, void *ctx, uint64_t ci)
{
    dc_network *net = ctx;
    net_class *nc = &net->classes[ci];
    uint64_t unit = (uint64_t)(gsl_rng_uniform(nc->rng) * (double)nc->units);
    if (unit >= nc->units)
        unit = nc->units - 1;
    dc_sim_after(sim, gsl_ran_exponential(nc->rng, nc->mean_s / (double)nc->units), on_net_failure, net, ci);
    if (dc_topology_part_failed(net->topo, nc->part, unit))
        return; /* thinning: a failed unit cannot fail again */
    nc->n_failures++;
    dc_net_change ch = dc_topology_set_failed(net->topo, nc->part, unit, true);
    dc_eventlog_add(net->log, dc_sim_now(sim), "net_failure", part_names[nc->part],
                    unit > INT32_MAX ? -1 : (int32_t)unit, -1, 0.0);
    dc_sim_after(sim, dc_dist_sample(&nc->repair, nc->rng), on_repaired, net, (ci << UNIT_BITS) | unit);
    dc_fabric_health_changed(net->fabric, &ch); /* may interrupt jobs cut off */
    note_health(net);
}

static int read_int(const config_setting_t *g, const char *key, int def)
{
    int v = def;
    dc_cfg_lookup_int(g, key, &v);
    return v;
}

static double read_float(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    dc_cfg_lookup_float(g, key, &v);
    return v;
}

static int parse_failures(dc_network *net, dc_sim *sim, const dc_scenario *sc, config_setting_t *list,
                          dc_error *err)
{
    net->n_classes = list ? (size_t)config_setting_length(list) : 0;
    net->classes = calloc(net->n_classes + 1, sizeof *net->classes);
    if (!net->classes)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < net->n_classes; i++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        net_class *nc = &net->classes[i];
        const char *part = "";
        dc_cfg_lookup_string(g, "part", &part);
        for (int p = 0; p < DC_PART_COUNT; p++)
            if (strcmp(part, part_names[p]) == 0)
                nc->part = (dc_net_part)p;
        for (size_t k = 0; k < i; k++)
            if (net->classes[k].part == nc->part)
                return dc_scenario_error_at(sc, dc_cfg_member(g, "part"), err,
                                            "part \"%s\" is listed twice", part);
        double mtbf_h = 0, afr = 0;
        bool has_mtbf = dc_cfg_lookup_float(g, "mtbf_h", &mtbf_h);
        bool has_afr = dc_cfg_lookup_float(g, "afr", &afr);
        if (has_mtbf == has_afr)
            return dc_scenario_error_at(sc, g, err, "give exactly one of mtbf_h and afr");
        nc->mean_s = (has_mtbf ? mtbf_h : DC_HOURS_PER_YEAR / afr) * 3600.0;
        nc->units = dc_topology_part_count(net->topo, nc->part);
        if (nc->units == 0)
            return dc_scenario_error_at(sc, dc_cfg_member(g, "part"), err,
                                        "this fabric has no %s (a torus has only links; 2 tiers have no pods or cores)",
                                        part);
        if (nc->units > UNIT_MASK)
            return dc_scenario_error_at(sc, g, err, "too many units of %s", part);
        /* The progress guarantee (sim.h): bounded failures per simulated second. */
        double per_s = (double)nc->units / nc->mean_s;
        if (!(per_s <= DC_SIM_MAX_FAILURES_PER_S))
            return dc_scenario_error_at(sc, dc_cfg_member(g, has_mtbf ? "mtbf_h" : "afr"), err,
                                        "%s: %.3g failures per simulated second over its %llu units, more than the "
                                        "limit of %g (a run would do nothing but fail): a longer mtbf_h or a lower afr",
                                        part, per_s, (unsigned long long)nc->units, DC_SIM_MAX_FAILURES_PER_S);
        int rc = dc_dist_from_setting(sc, dc_cfg_member(g, "repair"), &nc->repair, err);
        if (rc != DC_OK)
            return rc;
        char stream[64];
        snprintf(stream, sizeof stream, "network.%s", part_names[nc->part]);
        nc->rng = dc_sim_rng(sim, stream);
        if (!nc->rng || dc_topology_track(net->topo, nc->part) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    return DC_OK;
}

static int network_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_network *net = state;
    config_setting_t *g = dc_scenario_lookup(sc, "network");
    if (!g)
        return DC_OK;
    net->sim = sim;
    net->cluster = dc_cluster_of(sim);
    net->log = dc_sim_eventlog(sim);
    dc_cluster *c = net->cluster;
    const char *topo = "fat_tree", *placement = "packed", *algo = "auto";
    dc_cfg_lookup_string(g, "topology", &topo);
    dc_cfg_lookup_string(g, "placement", &placement);
    dc_cfg_lookup_string(g, "collective", &algo);
    dc_topology_spec s = {
        .kind = strcmp(topo, "torus3d") == 0          ? DC_TOPO_TORUS
                : strcmp(topo, "rail_optimized") == 0 ? DC_TOPO_RAIL
                                                      : DC_TOPO_FAT_TREE,
        .tiers = read_int(g, "tiers", 3),
        .gpus_per_node = dc_cluster_gpus_per_node(c),
        .nodes_per_leaf = (uint32_t)read_int(g, "nodes_per_leaf", (int)dc_cluster_nodes_per_rack(c)),
        .leaves_per_pod = (uint32_t)read_int(g, "leaves_per_pod", 32),
        .switch_radix = (uint32_t)read_int(g, "switch_radix", 64),
        .leaf_oversub = read_float(g, "leaf_oversubscription", 1.0),
        .pod_oversub = read_float(g, "pod_oversubscription", 1.0),
        .nics_per_node = (uint32_t)read_int(g, "nics_per_node", 8),
        .nic_Bps = read_float(g, "nic_gbps", 400.0) * GBPS,
        .scaleup_gpus = (uint32_t)read_int(g, "scaleup_gpus", 8),
        .scaleup_Bps = read_float(g, "scaleup_gbps", 3600.0) * GBPS,
        .scaleup_latency_s = read_float(g, "scaleup_latency_us", 3.0) * 1e-6,
        .latency_s = read_float(g, "latency_us", 6.0) * 1e-6,
        .hop_latency_s = read_float(g, "hop_latency_us", 1.0) * 1e-6,
        .torus_link_Bps = read_float(g, "torus_link_gbps", 400.0) * GBPS,
        .placement = strcmp(placement, "scattered") == 0 ? DC_PLACE_SCATTERED : DC_PLACE_PACKED,
    };
    net->algo = strcmp(algo, "ring") == 0           ? DC_ALGO_RING
                : strcmp(algo, "tree") == 0         ? DC_ALGO_TREE
                : strcmp(algo, "hierarchical") == 0 ? DC_ALGO_HIER
                                                    : DC_ALGO_AUTO;
    if (s.kind == DC_TOPO_TORUS) {
        static const char *const dims[3] = {"torus_x", "torus_y", "torus_z"};
        for (int d = 0; d < 3; d++) {
            int v = 0;
            if (!dc_cfg_lookup_int(g, dims[d], &v))
                return dc_scenario_error_at(sc, g, err, "a torus3d needs torus_x, torus_y and torus_z");
            s.torus[d] = (uint32_t)v;
        }
    }
    uint32_t job_nodes = dc_cluster_job_count(c) > 0 ? dc_cluster_job_nodes(c, 0) : 0;
    const char *bad_key = NULL;
    int rc = dc_topology_create(&s, dc_cluster_node_count(c), job_nodes, &net->topo, &bad_key, err);
    if (rc != DC_OK) {
        if (rc == DC_EINPUT) {
            config_setting_t *at = dc_cfg_member(g, bad_key);
            return dc_scenario_error_under(sc, at ? at : g, err);
        }
        return rc;
    }
    /* Placement reads the domains through the cluster (a torus: an x ring
     * is a "leaf", an x-y plane a "pod"). */
    if (s.kind == DC_TOPO_TORUS)
        dc_cluster_set_domains(c, s.torus[0], s.torus[1]);
    else
        dc_cluster_set_domains(c, s.nodes_per_leaf, s.tiers == 3 ? s.leaves_per_pod : 0);
    rc = parse_failures(net, sim, sc, dc_scenario_lookup(sc, "network.failures"), err);
    if (rc != DC_OK)
        return rc;
    net->sig_changed = dc_sim_signal(sim, "network_changed");
    int sig_phase = dc_sim_signal(sim, "job_phase");
    net->series_health = dc_sim_series(sim, "network_health", "",
                                       "worst health of the nodes, leaves and pods jobs on the fabric use (1 = all links up)");
    net->fabric = dc_fabric_create(net->topo, dc_cluster_node_count(c), on_job_changed, on_job_cut, net);
    if (net->sig_changed < 0 || sig_phase < 0 || !net->series_health || !net->fabric
        || dc_sim_subscribe_kinds(sim, sig_phase, PHASE_EDGES, on_phase, net) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    net->health = net->min_health = 1.0;
    net->telling = -1;
    if (!(net->seen_of = dc_keymap_create()))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int network_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_network *net = state;
    if (!net->topo)
        return DC_OK;
    dc_series_record(net->series_health, 0.0, 1.0);
    for (size_t i = 0; i < net->n_classes; i++) {
        net_class *nc = &net->classes[i];
        dc_sim_after(sim, gsl_ran_exponential(nc->rng, nc->mean_s / (double)nc->units), on_net_failure, net, i);
    }
    return DC_OK;
}

static void network_finish(void *state, dc_sim *sim)
{
    dc_network *net = state;
    if (!net->topo)
        return;
    note_health(net);
    dc_summary *s = dc_sim_summary(sim);
    dc_summary_set(s, "network.max_nodes", dc_topology_max_nodes(dc_topology_get_spec(net->topo)), "nodes",
                   "the most nodes the fabric can connect");
    for (size_t i = 0; i < net->n_classes; i++) {
        char key[64];
        snprintf(key, sizeof key, "network.failures.%s", part_names[net->classes[i].part]);
        dc_summary_set(s, key, (double)net->classes[i].n_failures, "", "failures of this part");
    }
    dc_summary_set(s, "network.interruptions", (double)net->n_interruptions, "",
                   "job interruptions from a unit a job used left without a path");
    dc_summary_set(s, "network.degraded_h", net->degraded_s / 3600.0, "h",
                   "time a job on the fabric used a node, leaf or pod with less than full bandwidth");
    dc_summary_set(s, "network.min_health", net->min_health, "",
                   "lowest health of a node, leaf or pod a job on the fabric used (1 = all links up)");
}

static void network_destroy(void *state)
{
    dc_network *net = state;
    dc_fabric_destroy(net->fabric);
    dc_topology_destroy(net->topo);
    free(net->classes);
    dc_keymap_destroy(net->seen_of);
    free(net->seen);
    free(net->free_seen);
}

const dc_model_type dc_model_network = {
    .name = "network",
    .state_size = sizeof(dc_network),
    .params = dc_network_params,
    .init = network_init,
    .start = network_start,
    .finish = network_finish,
    .destroy = network_destroy,
};
