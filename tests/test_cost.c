/* Tests of the costs that follow the simulated hardware: the fabric's bill of materials, plant and
 * storage capital, the TCO's lines, the flagship's cost against its fabric and storage.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* models/cost:
 *  - the k-ary three-tier fat-tree (Al-Fares et al. 2008): k^3/4 hosts on
 *    5k^2/4 switches (k^2/2 edge, k^2/2 aggregation, k^2/4 core) and k^3/4
 *    links per tier, for k = 4 to 64;
 *  - oversubscribed fat-trees (2 tiers at 1:3, the flagship's 3 tiers at 1:7
 *    with a partial pod), rail-optimised fabrics (2 and 3 tiers), a leaf
 *    wider than the radix and a torus against hand counts;
 *  - a small cluster's capital by hand: switches, optics and cables from its
 *    fabric, storage from the storage model's capacity, the electrical and
 *    cooling plants and the building from their sizes;
 *  - the TCO's lines (the flat ones and the seed's parts) add to the total to
 *    1e-9 on the flagship, the hand case, the invest programme and a
 *    rented mix;
 *  - the flagship's TCO changes when its fabric or its storage changes, and
 *    in the direction it should;
 *  - an inference service beside a training job: its energy (its nodes' IT
 *    energy / (eta_ups eta_pdu), from the power model's per-job integral)
 *    per request and per token, and its share of the TCO (its GPU-hours
 *    over all work's: 4 of 8 busy nodes) per request and per million
 *    tokens, by hand; alone on its cluster, the whole TCO; autoscaled, its
 *    node-hours at the running power (the power model sees every scale-up);
 *  - spot through the scheduler's spot pool: reclaims at 1 per node-day on
 *    one-node jobs of 12 h without checkpoints lose, per reclaim, the age of
 *    the attempt, an exponential truncated at 12 h: the lost GPU-hours
 *    within the 99% interval of the compound Poisson sum (mean mu E[Y],
 *    variance mu E[Y^2], mu = rate x busy exposure), three seeds; the pool
 *    priced at its hours held (1e-9 against its GPU-hour lines), its nodes
 *    neither bought nor rented; owned, reserved, on-demand and spot GPUs in
 *    one TCO whose lines add up;
 *  - capacity over time (cluster.delivery, stages.h): two stages' GPU-hours
 *    present (the capacity, exactly: nodes x GPUs x hours present), their
 *    idle power only while present, failures within the 99% Poisson
 *    interval of the node-hours present (outside that of all nodes); four
 *    jobs finishing at the closed-form instants with the second stage and
 *    later without it; rent then buy (rent hours x price, capital at D,
 *    depreciation and interest from D), a refresh (the old stage's residual
 *    at its retire day, its nodes gone, its job moved onto the new stage),
 *    the lines adding up;
 *  - bad input: a storage tier without tb and without a storage tier of its
 *    name; a price per MW without a way to size the plant; stages that do
 *    not add up to the cluster, a retire day before the arrival, stages
 *    with spot pools. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cost/fabric_bom.h"
#include "fabric/topology.h"
#include "badinput.h"
#include "registry.h"
#include "runner.h"
#include "simrun.h"
#include "testutil.h"

static const char *srcdir;

static bool close_rel(double a, double b, double tol)
{
    bool ok = fabs(a - b) <= tol * fmax(fabs(a), fabs(b));
    if (!ok)
        fprintf(stderr, "\n  %.17g vs %.17g", a, b);
    return ok;
}

/* ---- the bill of materials ------------------------------------------------------------- */

static dc_topology_spec fat_tree(int tiers, uint32_t npl, uint32_t lpp, uint32_t radix, uint32_t nics, double o_leaf,
                                 double o_pod)
{
    return (dc_topology_spec){.kind = DC_TOPO_FAT_TREE, .tiers = tiers, .gpus_per_node = 8, .nodes_per_leaf = npl,
                              .leaves_per_pod = lpp, .switch_radix = radix, .leaf_oversub = o_leaf,
                              .pod_oversub = o_pod, .nics_per_node = nics};
}

static void test_k_ary_fat_tree(void)
{
    for (uint64_t k = 4; k <= 64; k += 4) {
        dc_topology_spec sp = fat_tree(3, (uint32_t)(k / 2), (uint32_t)(k / 2), (uint32_t)k, 1, 1.0, 1.0);
        uint64_t hosts = k * k * k / 4;
        dc_fabric_bom b = dc_fabric_bom_of(&sp, hosts);
        CU_ASSERT_EQUAL(b.switches, 5 * k * k / 4);
        CU_ASSERT_EQUAL(b.leaf_switches, k * k / 2);
        CU_ASSERT_EQUAL(b.spine_switches, k * k / 2);
        CU_ASSERT_EQUAL(b.core_switches, k * k / 4);
        CU_ASSERT_EQUAL(b.node_links, hosts);
        CU_ASSERT_EQUAL(b.leaf_links, hosts);
        CU_ASSERT_EQUAL(b.pod_links, hosts);
        CU_ASSERT_EQUAL(b.transceivers, 4 * hosts);
    }
}

static void test_hand_counts(void)
{
    /* 2 tiers, 1:3 at the leaf: 64 nodes of 8 NICs, 4 per leaf: 32 down,
     * ceil(32/3) = 11 up, one 64-port switch each; 16 leaves, 176 up ports,
     * ceil(176/64) = 3 spines */
    dc_topology_spec a = fat_tree(2, 4, 0, 64, 8, 3.0, 1.0);
    dc_fabric_bom b = dc_fabric_bom_of(&a, 64);
    CU_ASSERT_EQUAL(b.leaf_switches, 16);
    CU_ASSERT_EQUAL(b.leaf_links, 176);
    CU_ASSERT_EQUAL(b.spine_switches, 3);
    CU_ASSERT_EQUAL(b.core_switches, 0);
    CU_ASSERT_EQUAL(b.switches, 19);
    CU_ASSERT_EQUAL(b.node_links, 512);

    /* the flagship's fabric: 1,344 nodes, 2 per ToR, 8 NICs, pods of 192
     * ToRs, 1:7 to the core: 672 ToRs; a full pod 3,072 up ports, 439 to the
     * core, ceil(3,511 / 64) = 55 spines; the half pod 1,536 and 220, 28
     * spines; core ceil(1,537 / 64) = 25 */
    dc_topology_spec f = fat_tree(3, 2, 192, 64, 8, 1.0, 7.0);
    b = dc_fabric_bom_of(&f, 1344);
    CU_ASSERT_EQUAL(b.leaf_switches, 672);
    CU_ASSERT_EQUAL(b.spine_switches, 3 * 55 + 28);
    CU_ASSERT_EQUAL(b.pod_links, 3 * 439 + 220);
    CU_ASSERT_EQUAL(b.core_switches, 25);
    CU_ASSERT_EQUAL(b.switches, 890);
    CU_ASSERT_EQUAL(b.optical_links, 10752 + 1537);
    CU_ASSERT_EQUAL(b.transceivers, 2 * (10752 + 1537));
    /* the same at 1:1 between pods needs more core: 4 pods' 10,752 up ports over 64 */
    dc_topology_spec f1 = fat_tree(3, 2, 192, 64, 8, 1.0, 1.0);
    dc_fabric_bom b1 = dc_fabric_bom_of(&f1, 1344);
    CU_ASSERT_EQUAL(b1.core_switches, 168);
    CU_ASSERT_EQUAL(b1.spine_switches, 3 * 96 + 48);
    CU_ASSERT(b1.transceivers > b.transceivers);

    /* rail-optimised, 2 tiers: 32 nodes of 8 NICs in rail groups of 16: 2 x 8
     * rail switches of 16 down and 16 up; 256 up ports, 4 spines */
    dc_topology_spec r = fat_tree(2, 16, 0, 64, 8, 1.0, 1.0);
    r.kind = DC_TOPO_RAIL;
    b = dc_fabric_bom_of(&r, 32);
    CU_ASSERT_EQUAL(b.leaf_switches, 16);
    CU_ASSERT_EQUAL(b.leaf_links, 256);
    CU_ASSERT_EQUAL(b.spine_switches, 4);
    CU_ASSERT_EQUAL(b.switches, 20);
    /* rail-optimised, 3 tiers: 256 nodes, groups of 32, 2 groups a pod, 1:2
     * to the core: 64 rail switches (32 + 32 ports); a pod 512 up ports and
     * 256 to the core, 12 spines; core 1,024 / 64 = 16 */
    dc_topology_spec r3 = fat_tree(3, 32, 2, 64, 8, 1.0, 2.0);
    r3.kind = DC_TOPO_RAIL;
    b = dc_fabric_bom_of(&r3, 256);
    CU_ASSERT_EQUAL(b.leaf_switches, 64);
    CU_ASSERT_EQUAL(b.spine_switches, 48);
    CU_ASSERT_EQUAL(b.core_switches, 16);
    CU_ASSERT_EQUAL(b.switches, 128);
    CU_ASSERT_EQUAL(b.pod_links, 1024);

    /* a ToR wider than the radix: 8 nodes x 8 NICs = 64 down + 64 up on
     * 64-port switches: two per leaf */
    dc_topology_spec w = fat_tree(2, 8, 0, 64, 8, 1.0, 1.0);
    b = dc_fabric_bom_of(&w, 16);
    CU_ASSERT_EQUAL(b.leaf_switches, 4);
    CU_ASSERT_EQUAL(b.spine_switches, 2);

    /* one pod of three tiers has no core */
    b = dc_fabric_bom_of(&f, 300);
    CU_ASSERT_EQUAL(b.core_switches, 0);
    CU_ASSERT_EQUAL(b.pod_links, 0);
    CU_ASSERT_EQUAL(b.spine_switches, 38); /* 150 ToRs x 16 / 64 = 37.5 */

    /* a torus: three links per node, no switch */
    dc_topology_spec t = {.kind = DC_TOPO_TORUS, .torus = {4, 4, 4}};
    b = dc_fabric_bom_of(&t, 64);
    CU_ASSERT_EQUAL(b.switches, 0);
    CU_ASSERT_EQUAL(b.node_links, 192);
    CU_ASSERT_EQUAL(b.transceivers, 0);
}

/* ---- capital by hand ------------------------------------------------------------------- */

/* A year of 16 nodes on a 4-ary fat-tree (one NIC each), a 100 TB file
 * system, a 0.2 MW site and a 0.3 MW cooling plant. */
static const char hand_cfg[] =
    "horizon_days = 365.25; stop_when_done = false;\n"
    "cluster = { nodes = 16; spare_nodes = 0; gpus_per_node = 1; nodes_per_rack = 4; };\n"
    "job = { nodes = 16; work_gpu_h = 100.0; restart_s = 0.0; };\n"
    "network = { topology = \"fat_tree\"; tiers = 3; nodes_per_leaf = 2; leaves_per_pod = 2; switch_radix = 4;\n"
    "            nics_per_node = 1; nic_gbps = 100.0; scaleup_gpus = 1; };\n"
    "storage = { tiers = ( { name = \"pfs\"; kind = \"pfs\"; capacity_tb = 100.0; read_gb_per_s = 10.0;\n"
    "            write_gb_per_s = 10.0; cost_usd_per_tb_month = 2.0; } ); };\n"
    "power = { gpu = { idle_w = 100.0; peak_w = 1000.0; }; site_cap_mw = 0.2; };\n"
    "cooling = { type = \"liquid\"; capacity_kw = 300.0; };\n"
    "cost = { capex = { gpu_usd = 1000.0; server_usd = 0.0; network_ports_per_gpu = 0.0; switch_usd = 500.0;\n"
    "                   transceiver_usd = 10.0; optical_link_usd = 1.0; node_link_usd = 2.0;\n"
    "                   storage = ( { tier = \"pfs\"; usd_per_tb = 30.0; } );\n"
    "                   power_usd_per_mw = 1e6; cooling_usd_per_mw = 2e6; facility_usd_per_mw = 3e6;\n"
    "                   life_years = 4.0; facility_life_years = 10.0; };\n"
    "        opex = { maintenance_fraction = 0.01; }; };\n";

static const char *const flat_lines[] = {
    "cost.depreciation_usd", "cost.interest_usd",      "cost.energy_usd",       "cost.maintenance_usd",
    "cost.staff_usd",        "cost.licences_usd",      "cost.data_transfer_usd", "cost.repairs_usd",
    "cost.rent_on_demand_usd", "cost.rent_reserved_usd", "cost.spot_usd",        "cost.storage_opex_usd",
    "cost.orbital_depreciation_usd", "cost.orbital_opex_usd",
};
static const char *const parts[] = {
    "cost.tco.devices_usd", "cost.tco.network_usd",    "cost.tco.storage_usd", "cost.tco.power_usd",
    "cost.tco.cooling_usd", "cost.tco.facility_usd",   "cost.tco.operations_usd", "cost.tco.orbital_usd",
    "cost.tco.rent_usd",
};

/* Both sets of lines add to the TCO to 1e-9. */
static void lines_add_up(dc_sim *sim, const char *what)
{
    const dc_summary *s = dc_sim_summary(sim);
    double tco = dc_simrun_fig(sim, "cost.tco_usd"), flat = 0.0, seed = 0.0, v;
    for (size_t i = 0; i < sizeof flat_lines / sizeof flat_lines[0]; i++)
        if (dc_summary_get(s, flat_lines[i], &v))
            flat += v;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        seed += dc_simrun_fig(sim, parts[i]);
    bool ok = tco > 0 && fabs(flat - tco) <= 1e-9 * tco && fabs(seed - tco) <= 1e-9 * tco;
    if (!ok)
        fprintf(stderr, "\n  %s: TCO %.17g, lines %.17g, parts %.17g", what, tco, flat, seed);
    CU_ASSERT(ok);
}

static void test_capital_by_hand(void)
{
    dc_sim *sim = dc_simrun_text(hand_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* the 4-ary fat-tree of 16 hosts: 20 switches, 16 + 16 optical links, 16 NIC cables */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.fabric.switches"), 20.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.fabric.optical_links"), 32.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_network_usd"), 20 * 500.0 + 64 * 10.0 + 32 * 1.0 + 16 * 2.0,
                        1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), 16000.0, 1e-12));
    /* storage: the storage model's 100 TB at $30 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_storage_usd"), 3000.0, 1e-12));
    /* plants: 0.2 MW of IT, 0.3 MW of cooling */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_power_plant_usd"), 0.2e6, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_cooling_plant_usd"), 0.6e6, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_building_usd"), 0.6e6, 1e-12));
    double hw = 16000.0 + 10704.0 + 3000.0, fac = 1.4e6;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_usd"), hw + fac, 1e-12));
    /* one year: a quarter of the hardware, a tenth of the facility */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.depreciation_usd"), hw / 4.0 + fac / 10.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.network_usd"), 10704.0 / 4.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.facility_usd"), 0.6e6 / 10.0, 1e-12));
    /* storage: a quarter of its price and a year of 100 TB at $2 a month of 30.44 days (storage.c) */
    double months = 365.25 / 30.44;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.storage_opex_usd"), 100.0 * 2.0 * months, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.storage_usd"), 750.0 + 100.0 * 2.0 * months, 1e-6));
    /* the cooling part: its plant's tenth and the cooling energy's share of the bill */
    double e_usd = dc_simrun_fig(sim, "cost.energy_usd");
    double share = dc_simrun_fig(sim, "power.cooling_energy_kwh") / dc_simrun_fig(sim, "power.facility_energy_kwh");
    CU_ASSERT(share > 0.0 && share < 0.5);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.cooling_usd"), 0.6e6 / 10.0 + e_usd * share, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.power_usd"), 0.2e6 / 10.0 + e_usd * (1.0 - share), 1e-12));
    lines_add_up(sim, "hand case");
    dc_sim_destroy(sim);

    /* an explicit switch count replaces the fabric's */
    const char *sets[] = {"cost.capex.switches=3"};
    sim = dc_simrun_text(hand_cfg, sets, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_network_usd"), 3 * 500.0 + 704.0, 1e-12));
    dc_sim_destroy(sim);
}

/* ---- the flagship -------------------------------------------------------------------------- */

/* text (freed) with its cost.capex group opening with a storage price of
 * $50/TB for tier (its capacity left to the storage model); NULL on failure. */
static char *with_storage_price(char *text, const char *tier)
{
    const char *at = text ? strstr(text, "capex = {") : NULL;
    if (!at) {
        free(text);
        return NULL;
    }
    char insert[160];
    snprintf(insert, sizeof insert, " storage = ( { tier = \"%s\"; usd_per_tb = 50.0; } );", tier);
    size_t head = (size_t)(at - text) + strlen("capex = {"), n = strlen(text) + strlen(insert) + 1;
    char *out = malloc(n);
    if (out)
        snprintf(out, n, "%.*s%s%s", (int)head, text, insert, text + head);
    free(text);
    return out;
}

static dc_sim *flagship(const char *const *sets, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/scenarios/10k_gpu.cfg", srcdir);
    return dc_simrun_file(path, sets, n, 1);
}

static void test_flagship(void)
{
    dc_sim *base = flagship(NULL, 0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(base);
    lines_add_up(base, "flagship");
    double tco = dc_simrun_fig(base, "cost.tco_usd"), net = dc_simrun_fig(base, "cost.capex_network_usd");
    CU_ASSERT(dc_simrun_fig(base, "cost.usd_per_useful_gpu_h") > 0.0);
    CU_ASSERT(close_rel(dc_simrun_fig(base, "cost.usd_per_model"), tco, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(base, "cost.energy_from_power_model"), 1.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(base, "cost.fabric.switches"), 890.0);

    /* a non-blocking core: more switches and optics, a dearer network */
    const char *full[] = {"network.pod_oversubscription=1.0"};
    dc_sim *a = flagship(full, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(a);
    CU_ASSERT(dc_simrun_fig(a, "cost.capex_network_usd") > net * 1.2);
    CU_ASSERT(dc_simrun_fig(a, "cost.tco_usd") > tco);
    lines_add_up(a, "flagship, 1:1");
    /* 1:14 between pods: fewer */
    const char *thin[] = {"network.pod_oversubscription=14.0"};
    dc_sim *b = flagship(thin, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(b);
    CU_ASSERT(dc_simrun_fig(b, "cost.capex_network_usd") < net);
    CU_ASSERT(dc_simrun_fig(b, "cost.fabric.core_switches") < dc_simrun_fig(base, "cost.fabric.core_switches"));
    /* half the file system: less storage cost */
    const char *half[] = {"storage.tiers.[1].capacity_tb=120000.0"};
    dc_sim *c = flagship(half, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT(dc_simrun_fig(c, "cost.tco.storage_usd") < dc_simrun_fig(base, "cost.tco.storage_usd"));
    CU_ASSERT(dc_simrun_fig(c, "cost.tco_usd") < tco);
    /* and storage bought: its capital appears at the storage model's capacity */
    char path[512];
    snprintf(path, sizeof path, "%s/scenarios/10k_gpu.cfg", srcdir);
    char *text = with_storage_price(dc_runner_slurp(path, NULL), "pfs");
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    dc_sim *d = dc_simrun_text(text, NULL, 0, 1);
    free(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    CU_ASSERT(close_rel(dc_simrun_fig(d, "cost.capex_storage_usd"), 240000.0 * 50.0, 1e-12));
    CU_ASSERT(dc_simrun_fig(d, "cost.tco_usd") > tco);
    lines_add_up(d, "flagship with storage bought");
    dc_sim_destroy(a);
    dc_sim_destroy(b);
    dc_sim_destroy(c);
    dc_sim_destroy(d);
    dc_sim_destroy(base);

    /* the invest programme (no network: hand-given ports) and its rented mix */
    snprintf(path, sizeof path, "%s/scenarios/invest/programme.cfg", srcdir);
    const char *mix[] = {"cost.owned=0.4"};
    for (size_t k = 0; k < 2; k++) {
        dc_sim *p = dc_simrun_file(path, mix, k, 1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(p);
        lines_add_up(p, k ? "programme, 40% owned" : "programme");
        dc_sim_destroy(p);
    }
}

/* ---- inference: energy and cost per request ------------------------------------------------ */

/* 10 nodes: a training job on 4, a service of 4 one-node replicas (ready
 * from the start: no startup for the initial replicas), 2 idle; no
 * failures, no network or storage power, no cooling model. */
static const char inference_cfg[] =
    "horizon_days = 2.0;\n"
    "cluster = { nodes = 10; gpus_per_node = 8; };\n"
    "job = { nodes = 4; work_gpu_h = 1e9; };\n"
    "inference = { mode = \"aggregate\";\n"
    "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
    "  replica = { gpus = 8; batch_size = 32; startup_s = 60.0; };\n"
    "  replicas = { min = 4; max = 4; initial = 4; };\n"
    "  arrivals = { qps = 30.0; };\n"
    "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
    "  tokens_out = { law = \"gamma\"; mean = 250.0; shape = 2.0; }; };\n"
    "power = { gpu = { idle_w = 100.0; peak_w = 700.0; }; node = { host_w = 2000.0; host_idle_w = 1000.0; };\n"
    "          ups_efficiency = 0.96; pdu_efficiency = 0.99; };\n"
    "cost = { capex = { gpu_usd = 25000.0; server_usd = 50000.0; network_ports_per_gpu = 0.0; };\n"
    "         opex = { electricity_usd_per_kwh = 0.1; }; };\n";

static void test_inference_per_request(void)
{
    dc_sim *sim = dc_simrun_text(inference_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double served = dc_simrun_fig(sim, "inference.served"), tokens = dc_simrun_fig(sim, "inference.tokens");
    CU_ASSERT(served > 1e6 && tokens > served);
    /* 4 nodes computing for 2 days: 4 x (host 2000 + 8 x 700 W), through the UPS and PDUs */
    double e_j = 4.0 * (2000.0 + 8.0 * 700.0) * 2.0 * 86400.0 / (0.96 * 0.99);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_kwh"), e_j / 3.6e6, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_per_request_j"), e_j / served, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_per_token_j"), e_j / tokens, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_per_mtok_kwh"), e_j / 3.6e6 / (tokens / 1e6), 1e-9));
    /* the service's share of the TCO: 4 of the 8 nodes at work (the 2 idle ones are nobody's) */
    double tco = dc_simrun_fig(sim, "cost.tco_usd");
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cost.inference_share"), 0.5, 1e-12);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.inference_usd"), 0.5 * tco, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.usd_per_request"), 0.5 * tco / served, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.usd_per_m_tokens"), 0.5 * tco / (tokens / 1e6), 1e-12));
    lines_add_up(sim, "inference beside training");
    dc_sim_destroy(sim);

    /* alone on its cluster (the job never starts): the whole TCO, and the
     * service's 4 nodes' energy without the 6 idle ones' */
    const char *alone[] = {"job.start_s=1e10"};
    sim = dc_simrun_text(inference_cfg, alone, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    served = dc_simrun_fig(sim, "inference.served");
    tco = dc_simrun_fig(sim, "cost.tco_usd");
    CU_ASSERT_DOUBLE_EQUAL(dc_simrun_fig(sim, "cost.inference_share"), 1.0, 1e-12);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.usd_per_request"), tco / served, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_kwh"), e_j / 3.6e6, 1e-9));
    double idle_j = 6.0 * (1000.0 + 8.0 * 100.0) * 2.0 * 86400.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.it_energy_kwh"), (e_j * 0.96 * 0.99 + idle_j) / 3.6e6, 1e-9));
    dc_sim_destroy(sim);

    /* autoscaled between 1 and 6 replicas over a daily pattern: the power
     * model follows every node the service takes while it runs (signal
     * "job_nodes"), so its energy is its node-hours at 7,600 W (a replica is
     * always ready: the job computes throughout) */
    static const char scaled_cfg[] =
        "horizon_days = 2.0;\n"
        "cluster = { nodes = 10; gpus_per_node = 8; };\n"
        "job = { nodes = 4; work_gpu_h = 1e9; start_s = 1e10; };\n"
        "inference = { mode = \"aggregate\";\n"
        "  model = { params = 8e9; kv_bytes_per_token = 131072.0; };\n"
        "  replica = { gpus = 8; batch_size = 32; startup_s = 60.0; };\n"
        "  replicas = { min = 1; max = 6; initial = 1; };\n"
        "  autoscale = { target_utilization = 0.5; };\n"
        "  arrivals = { qps = 60.0; daily = ( { from_h = 0.0; factor = 0.2; }, { from_h = 8.0; factor = 1.5; } ); };\n"
        "  tokens_in = { law = \"lognormal\"; mean = 1000.0; sigma = 1.0; max = 8000.0; };\n"
        "  tokens_out = { law = \"gamma\"; mean = 250.0; shape = 2.0; }; };\n"
        "power = { gpu = { idle_w = 100.0; peak_w = 700.0; }; node = { host_w = 2000.0; host_idle_w = 1000.0; };\n"
        "          ups_efficiency = 0.96; pdu_efficiency = 0.99; };\n";
    sim = dc_simrun_text(scaled_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(dc_simrun_fig(sim, "inference.scale_ups") >= 2.0);
    double node_h = dc_simrun_fig(sim, "inference.gpu_h") / 8.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "inference.energy_kwh"), node_h * 7600.0 / 1000.0 / (0.96 * 0.99), 1e-9));
    dc_sim_destroy(sim);
}

/* ---- spot through the scheduler's pool ---------------------------------------------------- */

/* 40 nodes: 8 owned-or-rented in "main" (idle), 32 in a spot pool reclaimed
 * at 1 per node-day with no notice, its queue never empty: 12-hour one-node
 * jobs without checkpoints, restarting at once. */
static const char spot_cfg[] =
    "horizon_days = 100.0; stop_when_done = false; trace = { events = false; };\n"
    "cluster = { nodes = 40; gpus_per_node = 8; nodes_per_rack = 4; };\n"
    "job = { nodes = 1; work_gpu_h = 1.0; start_s = 1e10; };\n"
    "scheduler = { pools = ( { name = \"main\"; nodes = 8; },\n"
    "  { name = \"spot\"; spot = true; reclaim_per_node_day = 1.0; notice_s = 0.0; reclaim_h = 2.0; } ); };\n"
    "jobs = ( { name = \"s\"; pool = \"spot\"; preemptible = true; count = 6000; restart_s = 0.0;\n"
    "  interarrival = { law = \"exponential\"; mean_h = 0.01; }; nodes_min = 1; nodes_max = 1;\n"
    "  duration = { law = \"constant\"; mean_h = 12.0; }; } );\n"
    "cost = { owned = 0.5; rented_reserved = 0.5;\n"
    "  capex = { gpu_usd = 25000.0; server_usd = 50000.0; network_ports_per_gpu = 0.0; };\n"
    "  rent = { on_demand_usd_per_gpu_h = 4.0; reserved_discount = 0.4; spot_usd_per_gpu_h = 1.5; }; };\n";

static void test_spot_pool(void)
{
    /* a reclaim at rate r (per hour) on an attempt of L = 12 h loses its age
     * Y = X | X < L, X ~ Exp(r): with a = r L, P = 1 - e^-a,
     * E[Y] = (1 - (1 + a) e^-a) / (r P), E[Y^2] = (2 - (a^2 + 2a + 2) e^-a) / (r^2 P) */
    const double r = 1.0 / 24.0, L = 12.0, a = r * L, P = 1.0 - exp(-a);
    const double ey = (1.0 - (1.0 + a) * exp(-a)) / (r * P), ey2 = (2.0 - (a * a + 2.0 * a + 2.0) * exp(-a)) / (r * r * P);
    for (int64_t seed = 1; seed <= 3; seed++) {
        dc_sim *sim = dc_simrun_text(spot_cfg, NULL, 0, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double held_gpu_h = dc_simrun_fig(sim, "cost.spot_pool_gpu_h");
        double mu = r * held_gpu_h / 8.0; /* reclaims expected on busy nodes */
        double lost = dc_simrun_fig(sim, "cost.spot_lost_gpu_h") / 8.0, want = mu * ey, tol = DC_Z99 * sqrt(mu * ey2);
        printf("\n    seed %lld: %.0f reclaims (expected %.0f), %.0f node-h lost, expected %.0f +- %.0f (99%%)",
               (long long)seed, dc_simrun_fig(sim, "cost.spot_reclaims"), mu, lost, want, tol);
        CU_ASSERT(fabs(lost - want) <= tol);
        CU_ASSERT(fabs(dc_simrun_fig(sim, "cost.spot_reclaims") - mu) <= DC_Z99 * sqrt(mu));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_lost_gpu_h"), dc_simrun_fig(sim, "pool.spot.gpu_hours.preempted"),
                            1e-12));
        /* the pool's hours held are its jobs' GPU-hours; priced at the spot price */
        CU_ASSERT(close_rel(held_gpu_h, dc_simrun_fig(sim, "pool.spot.gpu_hours.useful") +
                                            dc_simrun_fig(sim, "pool.spot.gpu_hours.preempted"), 1e-9));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_usd"), 1.5 * held_gpu_h, 1e-12));
        /* the 64 GPUs outside the spot pool: half bought, a quarter reserved, a quarter on demand */
        CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_owned"), 32.0);
        CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_reserved"), 16.0);
        CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_on_demand"), 16.0);
        CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_spot"), 256.0);
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), 0.5 * 8 * (8 * 25000.0 + 50000.0), 1e-12));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_on_demand_usd"), 16 * 2400.0 * 4.0, 1e-12));
        lines_add_up(sim, "owned, reserved, on demand and spot");
        dc_sim_destroy(sim);
    }
    printf("\n");
}

/* ---- capacity over time ------------------------------------------------------------------- */

/* 16 nodes of 8 GPUs: 8 from day 0, 8 from day 20; 40 days; every node idle
 * (the job starts after the end). */
#define STAGES_CFG                                                                                              \
    "horizon_days = 40.0;\n"                                                                                    \
    "stop_when_done = false;\n"                                                                                 \
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n"                                          \
    "  delivery = ( { day = 0.0; nodes = 8; }, { day = 20.0; nodes = 8; } ); };\n"                              \
    "job = { nodes = 4; work_gpu_h = 1e9; start_s = 1e10; };\n"                                                 \
    "power = { gpu = { idle_w = 100.0; peak_w = 700.0; }; node = { host_w = 2000.0; host_idle_w = 1000.0; };\n" \
    "          ups_efficiency = 0.96; pdu_efficiency = 0.99; };\n"
static const char stages_cfg[] = STAGES_CFG;
static const char stages_fail_cfg[] = STAGES_CFG "failures = ( { name = \"node\"; mtbf_h = 50.0; } );\n"
                                                 "repair = { law = \"constant\"; mean_h = 0.1; };\n";

static void test_delivery(void)
{
    dc_sim *sim = dc_simrun_text(stages_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    /* GPU-hours present: 8 nodes x 8 GPUs x 960 h + 8 x 8 x 480 h */
    double present = 64.0 * 960.0 + 64.0 * 480.0;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.capacity"), present, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cluster.absent_gpu_h"), 64.0 * 480.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.idle_spare"), present, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.node_availability"), 1.0);
    /* idle power only while present: node-hours x (1000 + 8 x 100 W) */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "power.it_energy_kwh"), present / 8.0 * 1800.0 / 1000.0, 1e-9));
    dc_sim_destroy(sim);

    /* failures: node-hours present / MTBF, not all nodes' (repairs of 6 min) */
    for (int64_t seed = 1; seed <= 3; seed++) {
        sim = dc_simrun_text(stages_fail_cfg, NULL, 0, seed);
        CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
        double n = dc_simrun_fig(sim, "failures.node"), mu = present / 8.0 / 50.0, all = 16.0 * 960.0 / 50.0;
        printf("\n    seed %lld: %.0f failures, %.1f expected on the nodes present (%.1f on all)", (long long)seed, n,
               mu, all);
        CU_ASSERT(fabs(n - mu) <= DC_Z99 * sqrt(mu) + 1.0);
        CU_ASSERT(fabs(n - all) > DC_Z99 * sqrt(all));
        CU_ASSERT(close_rel(dc_simrun_fig(sim, "failures.per_1000_node_days"), 1000.0 * n / (present / 8.0 / 24.0),
                            1e-12)); /* per node-day present */
        dc_sim_destroy(sim);
    }
    printf("\n");
}

/* Four jobs of 4 nodes, L = 15 days each after a restart of 600 s: with 8
 * nodes at day 0 and 8 more at day 5, two end at L + 600 s and two at
 * 5 d + L + 600 s; with the second stage after the end, two at 2 (L + 600 s). */
static const char programme_cfg[] =
    "horizon_days = 100.0;\n"
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  delivery = ( { day = 0.0; nodes = 8; }, { day = 5.0; nodes = 8; } ); };\n"
    "jobs = ( { name = \"a\"; nodes = 4; work_gpu_h = 11520.0; },\n"
    "         { name = \"b\"; nodes = 4; work_gpu_h = 11520.0; },\n"
    "         { name = \"c\"; nodes = 4; work_gpu_h = 11520.0; },\n"
    "         { name = \"d\"; nodes = 4; work_gpu_h = 11520.0; } );\n";

static void test_delivery_shortens(void)
{
    const double L = 11520.0 / 32.0 * 3600.0, r = 600.0;
    dc_sim *two = dc_simrun_text(programme_cfg, NULL, 0, 1);
    const char *late[] = {"cluster.delivery.[1].day=200.0"};
    dc_sim *one = dc_simrun_text(programme_cfg, late, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(two);
    CU_ASSERT_PTR_NOT_NULL_FATAL(one);
    printf("\n    two stages: done at %.3f days; the first alone: %.3f days", dc_sim_now(two) / 86400.0,
           dc_sim_now(one) / 86400.0);
    CU_ASSERT(close_rel(dc_sim_now(two), 5.0 * 86400.0 + L + r, 1e-9));
    CU_ASSERT(close_rel(dc_sim_now(one), 2.0 * (L + r), 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(two, "jobs.turnaround_mean_h"), (L + r) / 3600.0 + 2.5 * 24.0, 1e-9));
    CU_ASSERT(dc_sim_now(two) < dc_sim_now(one));
    dc_sim_destroy(two);
    dc_sim_destroy(one);
    printf("\n");
}

/* 16 nodes: stage 1 (8 nodes, bought at day 0, retired at day 30: a
 * refresh), stage 2 (8 nodes from day 10, rented until day 20, then
 * bought); 40 days; one 4-node job that the refresh moves. */
#define RENT_BUY_CFG                                                                                          \
    "horizon_days = 40.0;\n" \
    "stop_when_done = false;\n" \
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n" \
    "  delivery = ( { day = 0.0; nodes = 8; retire_day = 30.0; },\n" \
    "               { day = 10.0; nodes = 8; rent_until_day = 20.0; } ); };\n" \
    "job = { nodes = 4; work_gpu_h = 1e9; restart_s = 0.0; };\n" \
    "cost = { capex = { gpu_usd = 25000.0; server_usd = 50000.0; life_years = 5.0; residual_fraction = 0.1;\n" \
    "                   interest_rate = 0.05; network_ports_per_gpu = 0.0; };\n" \
    "         opex = { staff_per_nodes = 4.0; staff_usd_per_year = 1e5; licence_usd_per_gpu_year = 100.0; };\n" \
    "         rent = { on_demand_usd_per_gpu_h = 3.0; }; };\n"
static const char rent_buy_cfg[] = RENT_BUY_CFG;
/* with a failure class that never strikes: the refresh is no failure */
static const char rent_buy_fail_cfg[] = RENT_BUY_CFG "failures = ( { name = \"node\"; mtbf_h = 1e12; } );\n";

static void test_rent_then_buy(void)
{
    dc_sim *sim = dc_simrun_text(rent_buy_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const double y = 365.25, C = 64 * 25000.0 + 8 * 50000.0, D = 0.9 * C / 5.0, i = 0.05;
    /* rent: 64 GPUs x 240 h x 3 USD; capital at day 20 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.rent_usd"), 64 * 240.0 * 3.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rent_on_demand_usd"), 64 * 240.0 * 3.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.stage2.bought_day"), 20.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.capex_usd"), C, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_usd"), 2.0 * C, 1e-12));
    /* depreciation from each stage's own start: 30 days of stage 1, 20 of stage 2 */
    double m1 = 30.0 / y, m2 = 20.0 / y;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.depreciation_usd"), D * m1, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.depreciation_usd"), D * m2, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.interest_usd"), i * (C * m1 - D * m1 * m1 / 2.0), 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.interest_usd"), i * (C * m2 - D * m2 * m2 / 2.0), 1e-12));
    /* the refresh: stage 1's residual at day 30, gone from the books at the end */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.residual_usd"), C - D * m1, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.residual_value_usd"), C - D * m2, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.depreciation_usd"), D * (m1 + m2), 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.devices_usd"),
                        D * (m1 + m2) + i * (C * m1 - D * m1 * m1 / 2.0 + C * m2 - D * m2 * m2 / 2.0), 1e-12));
    /* staff for the owned node-years, licences for the GPU-years present */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.staff_usd"), (8 * 30.0 + 8 * 20.0) / y / 4.0 * 1e5, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.licences_usd"), 64 * (30.0 + 30.0) / y * 100.0, 1e-12));
    /* GPU-hours present: stage 1 for 30 days, stage 2 for 30 */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.capacity"), 64 * 1440.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.rented_gpu_h"), 64 * 240.0, 1e-12));
    /* the job moved onto stage 2 at the refresh and kept computing; with no
     * checkpoint it lost its 30 days of work there */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cluster.absent_nodes"), 8.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.useful"), 32.0 * 10.0 * 24.0, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.rollback"), 32.0 * 30.0 * 24.0, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.idle_spare"), 64 * 1440.0 - 32.0 * 960.0, 1e-9));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.npv_usd"), dc_simrun_fig(sim, "cost.tco_usd"), 1e-12));
    lines_add_up(sim, "rent then buy and a refresh");
    dc_sim_destroy(sim);

    /* half of stage 1 rented on demand (cost.owned = 0.5) */
    const char *half[] = {"cost.owned=0.5"};
    sim = dc_simrun_text(rent_buy_cfg, half, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.capex_usd"), 0.5 * C, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.rent_usd"), 0.5 * 64 * 720.0 * 3.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.capex_usd"), C, 1e-12));
    lines_add_up(sim, "rent then buy, half of stage 1 rented");
    dc_sim_destroy(sim);

    sim = dc_simrun_text(rent_buy_fail_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "failures.node"), 0.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "failures.per_1000_node_days"), 0.0);
    dc_sim_destroy(sim);
}

/* ---- mixed hardware -------------------------------------------------------------------------- */

/* 12 nodes of 8 GPUs: 8 of "h100" at the cost section's prices, 4 of
 * "b200" at their own; a refresh variant replaces the h100s by b200s. */
static const char types_cfg[] =
    "horizon_days = 30.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"h100\"; nodes = 8; gpu_peak_tflops = 989.0; },\n"
    "            { name = \"b200\"; nodes = 4; gpu_peak_tflops = 2250.0; gpu_peak_w = 1000.0; host_w = 3000.0;\n"
    "              gpu_usd = 40000.0; server_usd = 100000.0; } ); };\n"
    "job = { nodes = 4; work_gpu_h = 1e9; type = \"b200\"; };\n"
    "power = { gpu = { peak_w = 700.0; }; node = { host_w = 2000.0; }; };\n"
    "cost = { capex = { gpu_usd = 25000.0; server_usd = 80000.0; network_ports_per_gpu = 0.0; life_years = 4.0; };\n"
    "         opex = { electricity_usd_per_kwh = 0.1; }; };\n";

static void test_types_cost(void)
{
    dc_sim *sim = dc_simrun_text(types_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double h = 8 * (8 * 25000.0 + 80000.0), b = 4 * (8 * 40000.0 + 100000.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.capex_usd"), h, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.b200.capex_usd"), b, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), h + b, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.devices_usd"), (h + b) / 4.0 * 30.0 / 365.25, 1e-12));
    /* the chip table: price per PFLOP/s of peak, PFLOP/s per watt at peak */
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.usd_per_gpu"), 25000.0 + 80000.0 / 8, 1e-15));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.usd_per_pflops"), (25000.0 + 10000.0) / 0.989, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.b200.usd_per_pflops"), (40000.0 + 12500.0) / 2.25, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.pflops_per_w"), 0.989 / (700.0 + 250.0), 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.b200.pflops_per_w"), 2.25 / (1000.0 + 375.0), 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.b200.pflops"), 32 * 2.25, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.pflops"), 64 * 0.989, 1e-12));
    /* energy: the types' IT energy priced (no losses: the power model's eta) */
    double e = dc_simrun_fig(sim, "power.type.h100.it_energy_kwh") + dc_simrun_fig(sim, "power.type.b200.it_energy_kwh");
    CU_ASSERT(close_rel(e, dc_simrun_fig(sim, "power.it_energy_kwh"), 1e-12));
    lines_add_up(sim, "two node types");
    dc_sim_destroy(sim);

    /* a refresh: the h100 stage retires at day 20 and a b200 stage of 8
     * nodes arrives that day, bought at the b200's prices */
    static const char refresh_cfg[] =
        "horizon_days = 30.0;\n"
        "stop_when_done = false;\n"
        "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n"
        "  types = ( { name = \"h100\"; nodes = 8; }, { name = \"b200\"; nodes = 8; gpu_usd = 40000.0;\n"
        "              server_usd = 100000.0; } );\n"
        "  delivery = ( { nodes = 8; retire_day = 20.0; }, { day = 20.0; nodes = 8; } ); };\n"
        "job = { nodes = 4; work_gpu_h = 1e9; };\n"
        "scheduler = { pools = ( { name = \"all\"; } ); };\n"
        "cost = { capex = { gpu_usd = 25000.0; server_usd = 80000.0; network_ports_per_gpu = 0.0; life_years = 4.0;\n"
        "                   residual_fraction = 0.2; }; };\n";
    sim = dc_simrun_text(refresh_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double bb = 8 * (8 * 40000.0 + 100000.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.capex_usd"), h, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.capex_usd"), bb, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.b200.capex_usd"), bb, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.residual_usd"), h - 0.8 * h / 4.0 * 20.0 / 365.25, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.depreciation_usd"), 0.8 * bb / 4.0 * 10.0 / 365.25, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.capacity"), 64 * 24.0 * 30.0, 1e-12));
    /* the job (no type asked, one pool across both types) moved to the b200s
     * and computed on them for the last 10 days */
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "job.interruptions"), 1.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.useful"), 32 * 24.0 * 10.0 - 32 * 600.0 / 3600.0, 1e-9));
    lines_add_up(sim, "a refresh from one type to another");
    dc_sim_destroy(sim);
}

/* ---- spot pools with delivery stages and node types ------------------------------------------- */

/* 16 nodes of 8 GPUs for 30 days: stage 1 (nodes 0-7) at day 0, stage 2
 * (nodes 8-15) at day 10; the spot pool is nodes 12-15, half of stage 2, and
 * reclaims nothing, so its 4-node job holds it from day 10 to the end. */
static const char spot_stages_cfg[] =
    "horizon_days = 30.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 16; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  delivery = ( { nodes = 8; }, { day = 10.0; nodes = 8; } ); };\n"
    "scheduler = { pools = ( { name = \"main\"; nodes = 12; },\n"
    "  { name = \"spot\"; spot = true; reclaim_per_node_day = 0.0; } ); };\n"
    "jobs = ( { name = \"a\"; nodes = 8; work_gpu_h = 1e9; pool = \"main\"; },\n"
    "         { name = \"s\"; nodes = 4; work_gpu_h = 1e9; pool = \"spot\"; } );\n"
    "cost = { capex = { gpu_usd = 25000.0; server_usd = 50000.0; network_ports_per_gpu = 0.0; life_years = 5.0; };\n"
    "         rent = { spot_usd_per_gpu_h = 1.5; }; };\n";

/* 12 nodes: 8 "h100" (pool h), 4 "b200" (a spot pool that reclaims nothing)
 * for 30 days, a 4-node b200 job holding the spot pool throughout. */
static const char spot_types_cfg[] =
    "horizon_days = 30.0;\n"
    "stop_when_done = false;\n"
    "cluster = { nodes = 12; gpus_per_node = 8; nodes_per_rack = 4;\n"
    "  types = ( { name = \"h100\"; nodes = 8; },\n"
    "            { name = \"b200\"; nodes = 4; gpu_usd = 40000.0; server_usd = 100000.0; } ); };\n"
    "scheduler = { pools = ( { name = \"h\"; nodes = 8; },\n"
    "  { name = \"b\"; spot = true; reclaim_per_node_day = 0.0; } ); };\n"
    "jobs = ( { name = \"s\"; nodes = 4; work_gpu_h = 1e9; type = \"b200\"; } );\n"
    "cost = { capex = { gpu_usd = 25000.0; server_usd = 80000.0; network_ports_per_gpu = 0.0; life_years = 4.0; };\n"
    "         rent = { spot_usd_per_gpu_h = 2.0; }; };\n";

static void test_spot_stages_types(void)
{
    /* stages: stage 2's four spot nodes are the provider's, neither bought
     * nor present in its figures; the pool's hours are spot hours */
    dc_sim *sim = dc_simrun_text(spot_stages_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    const double node_usd = 8 * 25000.0 + 50000.0, y = 365.25;
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage1.capex_usd"), 8 * node_usd, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.capex_usd"), 4 * node_usd, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), 12 * node_usd, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.depreciation_usd"), 4 * node_usd / 5.0 * 20.0 / y, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.gpu_h"), 32 * 480.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.present_gpu_h"), 64 * 720.0 + 32 * 480.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "gpu_hours.capacity"), 64 * 720.0 + 64 * 480.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_pool_gpu_h"), 32 * 480.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_usd"), 1.5 * 32 * 480.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_spot"), 32.0);
    lines_add_up(sim, "stages with a spot pool");
    dc_sim_destroy(sim);
    /* with reclaims: the pool's hours held, whatever they are, at the spot price */
    const char *reclaim[] = {"scheduler.pools.[1].reclaim_per_node_day=2.0"};
    sim = dc_simrun_text(spot_stages_cfg, reclaim, 1, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double held = dc_simrun_fig(sim, "cost.spot_pool_gpu_h");
    CU_ASSERT(dc_simrun_fig(sim, "cost.spot_reclaims") > 0.0);
    CU_ASSERT(held > 0.0 && held < 32 * 480.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_usd"), 1.5 * held, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.stage2.capex_usd"), 4 * node_usd, 1e-12));
    lines_add_up(sim, "stages with a reclaiming spot pool");
    dc_sim_destroy(sim);

    /* types: the b200 spot pool bought by no one, its hours at the spot price */
    sim = dc_simrun_text(spot_types_cfg, NULL, 0, 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(sim);
    double h = 8 * (8 * 25000.0 + 80000.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.capex_devices_usd"), h, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "chip.h100.capex_usd"), h, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.b200.capex_usd"), 0.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "chip.b200.gpus"), 32.0);
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.tco.devices_usd"), h / 4.0 * 30.0 / y, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_pool_gpu_h"), 32 * 720.0, 1e-12));
    CU_ASSERT(close_rel(dc_simrun_fig(sim, "cost.spot_usd"), 2.0 * 32 * 720.0, 1e-12));
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_owned"), 64.0);
    CU_ASSERT_EQUAL(dc_simrun_fig(sim, "cost.gpus_spot"), 32.0);
    lines_add_up(sim, "node types with a spot pool");
    dc_sim_destroy(sim);
}

/* ---- bad input ---------------------------------------------------------------------------- */

static void test_bad_input(void)
{
    dc_error err = {0};
    /* the hand case's tier renamed */
    char *text = strdup(hand_cfg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    char *at = strstr(text, "tier = \"pfs\"");
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    memcpy(at + strlen("tier = \""), "xyz", 3);
    dc_sim *sim = dc_simrun_try(text, "t.cfg", NULL, 0, 1, &err);
    free(text);
    CU_ASSERT_PTR_NULL(sim);
    if (!strstr(err.msg, "no storage tier is named \"xyz\""))
        fprintf(stderr, "\n  %s", err.msg);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "no storage tier is named \"xyz\""));
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "cost.capex.storage.[0].tier"));
    dc_sim_destroy(sim);
    static const char no_power[] = "horizon_days = 1.0;\n"
                                   "cluster = { nodes = 2; };\n"
                                   "job = { nodes = 2; work_gpu_h = 10.0; };\n"
                                   "cost = { capex = { cooling_usd_per_mw = 1e6; }; };\n";
    sim = dc_simrun_try(no_power, "t.cfg", NULL, 0, 1, &err);
    CU_ASSERT_PTR_NULL(sim);
    CU_ASSERT_PTR_NOT_NULL(strstr(err.msg, "t.cfg:4: cost.capex.cooling_usd_per_mw: a price per MW needs"));
    dc_sim_destroy(sim);

    /* delivery stages through the program: file, line, key, status 2, no trace */
    static const struct {
        const char *what, *cfg, *frags[3];
    } bad[] = {
        {"stages short of the cluster",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n"
         "  delivery = ( { nodes = 8; }, { day = 5.0; nodes = 4; } ); };\njob = { nodes = 4; work_gpu_h = 10.0; };\n",
         {"bad.cfg:3", "cluster.delivery", "the stages hold 12 nodes but the cluster has 16 (nodes + spare_nodes)"}},
        {"a retire day before the arrival",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n"
         "  delivery = ( { nodes = 8; }, { day = 5.0; nodes = 8;\n retire_day = 4.0; } ); };\n"
         "job = { nodes = 4; work_gpu_h = 10.0; };\n",
         {"bad.cfg:4", "cluster.delivery.[1].retire_day", "the stage retires on day 4, not after it arrives (day 5)"}},
        {"an empty delivery list",
         "horizon_days = 1.0;\ncluster = { nodes = 16;\n  delivery = ( ); };\njob = { nodes = 4; work_gpu_h = 10.0; };\n",
         {"bad.cfg:3", "cluster.delivery", "give at least one stage, or leave delivery out"}},
    };
    char dir[] = "/tmp/dcsim-cost-XXXXXX";
    CU_ASSERT_PTR_NOT_NULL_FATAL(mkdtemp(dir));
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        dc_test_bad_run(dir, bad[k].what, bad[k].cfg, NULL, bad[k].frags, 3);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CU_ASSERT_EQUAL(system(cmd), 0);
}

static int register_suites(void)
{
    srcdir = getenv("DCSIM_SRCDIR");
    if (!srcdir)
        srcdir = ".";
    DC_TEST_SUITE("cost", {"the k-ary fat-tree: k^3/4 hosts, 5k^2/4 switches", test_k_ary_fat_tree},
                  {"oversubscribed, rail-optimised, wide and torus fabrics by hand", test_hand_counts},
                  {"capital from the hardware by hand", test_capital_by_hand},
                  {"the flagship: lines, fabric and storage", test_flagship},
                  {"inference: energy and cost per request and per token by hand", test_inference_per_request},
                  {"spot through the scheduler's pool: lost work within a Poisson interval", test_spot_pool},
                  {"capacity over time: two stages' GPU-hours, power and failures", test_delivery},
                  {"capacity over time: a second stage shortens four jobs' time, by hand", test_delivery_shortens},
                  {"rent then buy and a refresh by hand", test_rent_then_buy},
                  {"mixed hardware: capital by type and the chip table by hand", test_types_cost},
                  {"spot pools with delivery stages and node types by hand", test_spot_stages_types},
                  {"bad input", test_bad_input});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
