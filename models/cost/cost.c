/* The cost model: TCO of the run (capital, operations, renting, losses) from the other models'
 * figures.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"
#include "cluster.h"
#include "fabric/network.h"
#include "fabric_bom.h"
#include "stages.h"
#include "workload/scheduler.h"

#define USD_MAX 1e15
#define PRICE(path, unit, doc) {path, DC_PARAM_FLOAT, 0, unit, 0, NULL, 0, USD_MAX, NULL, doc}
#define FRACTION(path, def, doc) {path, DC_PARAM_FLOAT, 0, "", def, NULL, 0, 1, NULL, doc}

const dc_param dc_cost_params[] = {
    {"cost", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "total cost of ownership of the run (models/cost/cost.h); absent: no cost figures"},
    FRACTION("cost.owned", 1, "share of the cluster's GPUs bought (the rest is rented)"),
    FRACTION("cost.rented_reserved", 0, "share of the rented GPUs on reserved contracts (the rest on demand)"),
    {"cost.discount_rate", DC_PARAM_FLOAT, 0, "1/yr", 0, NULL, 0, 10, NULL,
     "annual discount rate of the net present value"},
    {"cost.models_per_job", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 1, NULL, 0, 1e9, NULL,
     "models the job trains (for the cost per trained model)"},
    {"cost.lost_gpu_h_usd", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "USD/GPU-h", 0, NULL, 0, USD_MAX, NULL,
     "value of a lost GPU-hour (default: the run's average cost of a GPU-hour of capacity)"},

    {"cost.capex", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "capital of the owned share"},
    PRICE("cost.capex.gpu_usd", "USD", "price of one GPU (accelerator)"),
    PRICE("cost.capex.server_usd", "USD", "price of one node without its GPUs (host, CPU, memory, chassis, NICs)"),
    PRICE("cost.capex.network_port_usd", "USD", "price of one network port (switch port, optics, cable)"),
    {"cost.capex.network_ports_per_gpu", DC_PARAM_FLOAT, 0, "", 1, NULL, 0, 1000, NULL,
     "network ports bought per GPU (all tiers of the fabric)"},
    PRICE("cost.capex.switch_usd", "USD", "price of one switch (besides ports priced per port)"),
    {"cost.capex.switches", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1e9, NULL,
     "switches of the whole cluster (default: those of the network section's fabric, fabric_bom.h; else 0)"},
    PRICE("cost.capex.transceiver_usd", "USD",
          "price of one optical transceiver (two per link between switches, counted from the network section)"),
    PRICE("cost.capex.optical_link_usd", "USD", "fibre of one link between switches (from the network section)"),
    PRICE("cost.capex.node_link_usd", "USD", "cable from a NIC to its leaf switch, or one torus link"),
    {"cost.capex.storage", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL, "storage tiers of the whole cluster"},
    {"cost.capex.storage.[].tier", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "tier name (a storage.tiers name, whose capacity is then the default of tb)"},
    {"cost.capex.storage.[].tb", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "TB", 0, NULL, 0, 1e12, NULL,
     "capacity (default: the storage model's tier of that name, all its nodes)"},
    PRICE("cost.capex.storage.[].usd_per_tb", "USD/TB", "price per TB"),
    PRICE("cost.capex.facility_usd_per_mw", "USD/MW", "building and shell per MW of IT capacity"),
    PRICE("cost.capex.power_usd_per_mw", "USD/MW",
          "electrical plant (switchgear, UPS, generators, PDUs) per MW of IT capacity"),
    PRICE("cost.capex.cooling_usd_per_mw", "USD/MW", "cooling plant per MW of its capacity (cooling.capacity_kw)"),
    {"cost.capex.it_kw_per_gpu", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "kW", 0, NULL, 0, 1000, NULL,
     "IT capacity per GPU (GPU, host, network and storage share); default: the site's power.site_cap_mw, "
     "else the IT peak the power model simulated"},
    FRACTION("cost.capex.spares_fraction", 0, "spare parts bought, as a share of the hardware"),
    {"cost.capex.life_years", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "yr", 5, NULL, 0, 100, NULL,
     "straight-line amortisation life of the hardware"},
    {"cost.capex.facility_life_years", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "yr", 15, NULL, 0, 200, NULL,
     "straight-line amortisation life of the facility"},
    FRACTION("cost.capex.residual_fraction", 0, "hardware value left at the end of its life (resale)"),
    {"cost.capex.interest_rate", DC_PARAM_FLOAT, 0, "1/yr", 0, NULL, 0, 10, NULL,
     "annual interest on the capital (financed, repaid as it depreciates)"},

    {"cost.opex", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "operating costs"},
    PRICE("cost.opex.electricity_usd_per_kwh", "USD/kWh", "electricity price (when the power model does not price energy)"),
    {"cost.opex.facility_mw", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "MW", 0, NULL, 0, 1e6, NULL,
     "average facility power of the whole cluster, IT and cooling (used when no power model simulates energy)"},
    {"cost.opex.maintenance_fraction", DC_PARAM_FLOAT, 0, "1/yr", 0, NULL, 0, 10, NULL,
     "maintenance per year as a share of the owned capital"},
    {"cost.opex.staff_per_nodes", DC_PARAM_FLOAT, 0, "nodes", 0, NULL, 0, 1e9, NULL,
     "owned nodes per staff member (0: no staff cost)"},
    PRICE("cost.opex.staff_usd_per_year", "USD/yr", "cost of one staff member per year"),
    PRICE("cost.opex.licence_usd_per_gpu_year", "USD/yr", "software licences per GPU and year"),
    {"cost.opex.data_transfer_tb_per_month", DC_PARAM_FLOAT, 0, "TB", 0, NULL, 0, 1e12, NULL,
     "data moved in and out per month"},
    PRICE("cost.opex.data_transfer_usd_per_tb", "USD/TB", "price of data transfer"),
    PRICE("cost.opex.repair_parts_usd", "USD", "parts per repair (classes not listed in repairs)"),
    {"cost.opex.repair_labour_h", DC_PARAM_FLOAT, 0, "h", 0, NULL, 0, 1e6, NULL,
     "labour per repair (classes not listed in repairs)"},
    PRICE("cost.opex.labour_usd_per_h", "USD/h", "cost of an hour of repair labour"),
    {"cost.opex.repairs", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL, "repair cost by failure class"},
    {"cost.opex.repairs.[].class", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "a failure class (failures.[].name)"},
    PRICE("cost.opex.repairs.[].parts_usd", "USD", "parts per failure of this class"),
    {"cost.opex.repairs.[].labour_h", DC_PARAM_FLOAT, 0, "h", 0, NULL, 0, 1e6, NULL,
     "labour per failure of this class"},

    {"cost.rent", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "rented GPUs"},
    PRICE("cost.rent.on_demand_usd_per_gpu_h", "USD/GPU-h", "on-demand price of a GPU-hour"),
    FRACTION("cost.rent.reserved_discount", 0, "discount of reserved GPU-hours on the on-demand price"),
    {"cost.rent.reserved_term_years", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "yr", 1, NULL, 0, 100, NULL,
     "length of one reserved commitment"},
    {"cost.rent.reserved_terms", DC_PARAM_INT, 0, "", 1, NULL, 0, 1000, NULL,
     "reserved commitments bought back to back (paid in full; past them, on demand)"},
    PRICE("cost.rent.spot_usd_per_gpu_h", "USD/GPU-h", "spot price of a GPU-hour"),
    {"cost.rent.on_demand_usd_per_cpu_node_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "USD/node-h", 0, NULL, 0, USD_MAX,
     NULL, "on-demand price of an hour of a CPU-only node (cluster.types with gpus_per_node = 0), for their rented "
           "share 1 - cost.owned (absent: 0)"},
    {"cost.rent.spot_gpu_h", DC_PARAM_FLOAT, 0, "GPU-h", 0, NULL, 0, 1e15, NULL,
     "non-critical work run on spot capacity during the run"},
    {"cost.rent.spot_rework", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 100, NULL,
     "spot work redone after preemptions, as a share of the work"},

    {"deadline", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "when the job must be done (models/cost/cost.h)"},
    {"deadline.days", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "days", 0, NULL, 0, 1e6, NULL,
     "the job must finish within this many days of its submission"},
    PRICE("deadline.penalty_usd", "USD", "paid once if the deadline is missed"),
    PRICE("deadline.penalty_usd_per_day", "USD/day", "paid per day late"),
    {0},
};

typedef struct storage_price {
    char tier[64];
    double usd_per_tb;
} storage_price;

typedef struct repair_price {
    char name[64];
    double usd; /* parts + labour per failure */
} repair_price;

typedef struct cost_model {
    bool has_cost, has_deadline;
    double owned, reserved_share, discount_rate, models_per_job, lost_gpu_h_usd;
    bool has_lost_value;
    double gpu_usd, server_usd, port_usd, ports_per_gpu, switch_usd, storage_usd;
    long long switches;
    bool has_fabric;
    dc_fabric_bom bom;
    double transceiver_usd, optical_link_usd, node_link_usd;
    storage_price *storage; /* tiers priced per TB whose capacity the storage model gives */
    size_t n_storage;
    double facility_usd_per_mw, power_usd_per_mw, cooling_usd_per_mw, it_kw_per_gpu, spares_fraction, life_y,
        facility_life_y, residual_fraction, interest_rate;
    bool has_it_kw, has_site_cap, has_cooling;
    double site_cap_mw, cooling_mw;
    double electricity_usd_per_kwh, facility_mw;
    bool has_facility_mw;
    double maintenance_fraction, staff_per_nodes, staff_usd_per_year, licence_usd_per_gpu_year;
    double transfer_tb_per_month, transfer_usd_per_tb;
    double repair_default_usd;
    repair_price *repairs;
    size_t n_repairs;
    double on_demand_usd, reserved_discount, reserved_term_y, spot_usd, spot_gpu_h, spot_rework;
    dc_scheduler *sched;     /* its spot pools are rented by the hour, not owned or reserved */
    double spot_pool_nodes, all_gpus, gpus_per_node;
    double *spot_type_nodes;  /* per node type: its nodes in spot pools (NULL: no spot pool or no types) */
    double *spot_stage_nodes; /* per delivery stage: the same */
    long long reserved_terms;
    double deadline_days, penalty_usd, penalty_usd_per_day;
    double job_tokens; /* 0: unknown */
    double gpus, nodes;
    double cpu_nodes;        /* CPU-only nodes outside spot pools (in nodes, not in gpus) */
    double cpu_node_h_usd;   /* their on-demand price per node-hour */
    dc_cluster *cluster;
    bool staged;             /* cluster.delivery: the devices bought (or rented) stage by stage (stages.h) */
    bool typed;              /* cluster.types: prices per node type and the chip table */
} cost_model;

/* A node type's price of a GPU and of a node without its GPUs (the type's,
 * else cost.capex's). */
static double type_gpu_usd(const cost_model *m, int t)
{
    double v = dc_cluster_type_at(m->cluster, (size_t)t)->gpu_usd;
    return isnan(v) ? m->gpu_usd : v;
}

static double type_server_usd(const cost_model *m, int t)
{
    double v = dc_cluster_type_at(m->cluster, (size_t)t)->server_usd;
    return isnan(v) ? m->server_usd : v;
}

/* A node type's nodes in spot pools (the provider's, not bought). */
static double spot_of_type(const cost_model *m, size_t t) { return m->spot_type_nodes ? m->spot_type_nodes[t] : 0.0; }

dc_cost_capital dc_cost_capital_over(double cost_usd, double residual_usd, double life_y, double interest_rate,
                                     double t_y)
{
    dc_cost_capital c = {0};
    if (!(cost_usd > 0.0) || !(life_y > 0.0) || !(t_y > 0.0)) {
        c.book_value_usd = cost_usd;
        return c;
    }
    double d = (cost_usd - residual_usd) / life_y;
    double m = t_y < life_y ? t_y : life_y;
    c.depreciation_usd = d * m;
    c.interest_usd = interest_rate * (cost_usd * m - 0.5 * d * m * m + residual_usd * (t_y > life_y ? t_y - life_y : 0.0));
    c.book_value_usd = cost_usd - d * m;
    return c;
}

double dc_cost_pv_const(double delta, double a, double b)
{
    if (!(b > a))
        return 0.0;
    if (delta == 0.0)
        return b - a;
    return (exp(-delta * a) - exp(-delta * b)) / delta;
}

double dc_cost_pv_linear(double delta, double a, double b)
{
    if (!(b > a))
        return 0.0;
    if (delta == 0.0)
        return 0.5 * (b * b - a * a);
    return ((1.0 + delta * a) * exp(-delta * a) - (1.0 + delta * b) * exp(-delta * b)) / (delta * delta);
}

/* Present value of the capital flow D + i B(t) of one asset over [0, T]. */
static double capital_pv(double delta, double cost_usd, double residual_usd, double life_y, double i, double t_y)
{
    if (!(cost_usd > 0.0))
        return 0.0;
    double d = (cost_usd - residual_usd) / life_y;
    double m = t_y < life_y ? t_y : life_y;
    double pv = (d + i * cost_usd) * dc_cost_pv_const(delta, 0.0, m) - i * d * dc_cost_pv_linear(delta, 0.0, m);
    if (t_y > life_y)
        pv += i * residual_usd * dc_cost_pv_const(delta, life_y, t_y);
    return pv;
}

static double num(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    if (g)
        dc_cfg_lookup_float(g, key, &v);
    return v;
}

static int read_repairs(cost_model *m, const dc_scenario *sc, const config_setting_t *opex, dc_error *err)
{
    double labour = num(opex, "labour_usd_per_h", 0);
    m->repair_default_usd = num(opex, "repair_parts_usd", 0) + num(opex, "repair_labour_h", 0) * labour;
    const config_setting_t *list = opex ? dc_cfg_member(opex, "repairs") : NULL;
    if (!list)
        return DC_OK;
    size_t n = (size_t)config_setting_length(list);
    m->repairs = calloc(n ? n : 1, sizeof *m->repairs);
    if (!m->repairs)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    const config_setting_t *failures = dc_scenario_lookup(sc, "failures");
    for (size_t i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        const char *cls = "";
        dc_cfg_lookup_string(e, "class", &cls);
        bool found = false;
        for (int k = 0; failures && k < config_setting_length(failures) && !found; k++) {
            const char *fn = NULL;
            dc_cfg_lookup_string(config_setting_get_elem(failures, (unsigned)k), "name", &fn);
            found = fn && strcmp(fn, cls) == 0;
        }
        if (!found)
            return dc_scenario_error_at(sc, dc_cfg_member(e, "class"), err,
                                        "no failure class is named \"%s\" (failures.[].name)", cls);
        for (size_t k = 0; k < i; k++)
            if (strcmp(m->repairs[k].name, cls) == 0)
                return dc_scenario_error_at(sc, dc_cfg_member(e, "class"), err,
                                            "class \"%s\" is priced twice", cls);
        snprintf(m->repairs[i].name, sizeof m->repairs[i].name, "%s", cls);
        m->repairs[i].usd = num(e, "parts_usd", 0) + num(e, "labour_h", 0) * labour;
    }
    m->n_repairs = n;
    return DC_OK;
}

/* Tiers with a tb are priced now; the others take their capacity from the
 * storage model at the end (its tier of that name must exist). */
static int read_storage(cost_model *m, const dc_scenario *sc, const config_setting_t *list, dc_error *err)
{
    if (!list)
        return DC_OK;
    size_t n = (size_t)config_setting_length(list);
    m->storage = calloc(n ? n : 1, sizeof *m->storage);
    if (!m->storage)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    const config_setting_t *tiers = dc_scenario_lookup(sc, "storage.tiers");
    for (size_t i = 0; i < n; i++) {
        const config_setting_t *e = config_setting_get_elem(list, (unsigned)i);
        double tb;
        if (dc_cfg_lookup_float(e, "tb", &tb)) {
            m->storage_usd += tb * num(e, "usd_per_tb", 0);
            continue;
        }
        const char *name = "";
        dc_cfg_lookup_string(e, "tier", &name);
        bool found = false;
        for (int k = 0; tiers && k < config_setting_length(tiers) && !found; k++) {
            const char *tn = NULL;
            dc_cfg_lookup_string(config_setting_get_elem(tiers, (unsigned)k), "name", &tn);
            found = tn && strcmp(tn, name) == 0;
        }
        if (!found || strlen(name) >= sizeof m->storage[0].tier)
            return dc_scenario_error_at(sc, dc_cfg_member(e, "tier"), err,
                                        "no storage tier is named \"%s\" (storage.tiers.[].name): give its tb", name);
        storage_price *sp = &m->storage[m->n_storage++];
        snprintf(sp->tier, sizeof sp->tier, "%s", name);
        sp->usd_per_tb = num(e, "usd_per_tb", 0);
    }
    return DC_OK;
}

/* Nodes of [a, b) among first .. first + n - 1. */
static double overlap(double a, double b, double first, double n)
{
    double lo = fmax(a, first), hi = fmin(b, first + n);
    return hi > lo ? hi - lo : 0.0;
}

static int cost_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    cost_model *m = state;
    const config_setting_t *g = dc_scenario_lookup(sc, "cost");
    const config_setting_t *dl = dc_scenario_lookup(sc, "deadline");
    m->has_cost = g != NULL;
    m->has_deadline = dl != NULL;
    if (!g && !dl)
        return DC_OK;
    dc_cluster *c = dc_cluster_of(sim);
    m->nodes = c ? dc_cluster_node_count(c) : 0;
    m->gpus_per_node = c ? dc_cluster_gpus_per_node(c) : 0;
    /* the scheduler's spot pools are the provider's: priced by the hours
     * used, they are neither bought nor rented on demand or reserved */
    m->sched = dc_scheduler_of(sim);
    for (int p = 0; m->sched && p < dc_sched_pool_count(m->sched); p++)
        if (dc_sched_pool_spot(m->sched, p))
            m->spot_pool_nodes += dc_sched_pool_nodes(m->sched, p);
    m->nodes -= m->spot_pool_nodes;
    m->cluster = c;
    /* CPU-only nodes hold no GPU (a spot pool's among them are the provider's) */
    double cpu_all = c ? dc_cluster_cpu_node_count(c) : 0.0;
    m->all_gpus = (m->nodes + m->spot_pool_nodes - cpu_all) * m->gpus_per_node;
    m->cpu_nodes = cpu_all;
    for (int p = 0; cpu_all > 0.0 && m->sched && p < dc_sched_pool_count(m->sched); p++)
        for (size_t t = 0; dc_sched_pool_spot(m->sched, p) && t < dc_cluster_type_count(c); t++)
            if (dc_cluster_type_at(c, t)->gpus_per_node == 0)
                m->cpu_nodes -= overlap(dc_sched_pool_first(m->sched, p),
                                        dc_sched_pool_first(m->sched, p) + dc_sched_pool_nodes(m->sched, p),
                                        dc_cluster_type_at(c, t)->first, dc_cluster_type_at(c, t)->nodes);
    m->gpus = (m->nodes - m->cpu_nodes) * m->gpus_per_node;
    for (size_t k = 0; c && k < dc_cluster_stage_count(c); k++) {
        const dc_cluster_stage *st = dc_cluster_stage_at(c, k);
        m->staged = m->staged || k > 0 || st->arrive_s > 0.0 || isfinite(st->leave_s) || st->rent_until_s > -INFINITY;
    }
    m->typed = dc_scenario_lookup(sc, "cluster.types") != NULL;
    if (g && m->spot_pool_nodes > 0.0 && (m->staged || m->typed)) { /* the spot nodes of each stage and type */
        size_t nt = dc_cluster_type_count(c), ns = dc_cluster_stage_count(c);
        m->spot_type_nodes = calloc(nt, sizeof *m->spot_type_nodes);
        m->spot_stage_nodes = calloc(ns, sizeof *m->spot_stage_nodes);
        if (!m->spot_type_nodes || !m->spot_stage_nodes)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the spot pools' nodes");
        for (int p = 0; p < dc_sched_pool_count(m->sched); p++) {
            if (!dc_sched_pool_spot(m->sched, p))
                continue;
            double a = dc_sched_pool_first(m->sched, p), b = a + dc_sched_pool_nodes(m->sched, p);
            for (size_t t = 0; t < nt; t++)
                m->spot_type_nodes[t] += overlap(a, b, dc_cluster_type_at(c, t)->first, dc_cluster_type_at(c, t)->nodes);
            for (size_t k = 0; k < ns; k++)
                m->spot_stage_nodes[k] += overlap(a, b, dc_cluster_stage_at(c, k)->first, dc_cluster_stage_at(c, k)->nodes);
        }
    }
    m->deadline_days = num(dl, "days", INFINITY);
    m->penalty_usd = num(dl, "penalty_usd", 0);
    m->penalty_usd_per_day = num(dl, "penalty_usd_per_day", 0);
    if (!g)
        return DC_OK;

    m->owned = num(g, "owned", 1);
    m->reserved_share = num(g, "rented_reserved", 0);
    m->discount_rate = num(g, "discount_rate", 0);
    m->models_per_job = num(g, "models_per_job", 1);
    m->has_lost_value = dc_cfg_lookup_float(g, "lost_gpu_h_usd", &m->lost_gpu_h_usd);

    const config_setting_t *cap = dc_cfg_member(g, "capex");
    m->gpu_usd = num(cap, "gpu_usd", 0);
    m->server_usd = num(cap, "server_usd", 0);
    m->port_usd = num(cap, "network_port_usd", 0);
    m->ports_per_gpu = num(cap, "network_ports_per_gpu", 1);
    m->switch_usd = num(cap, "switch_usd", 0);
    m->transceiver_usd = num(cap, "transceiver_usd", 0);
    m->optical_link_usd = num(cap, "optical_link_usd", 0);
    m->node_link_usd = num(cap, "node_link_usd", 0);
    /* the fabric the network model simulates, counted (fabric_bom.h) */
    dc_network *net = dc_network_of(sim);
    if (net) {
        m->has_fabric = true;
        m->bom = dc_fabric_bom_of(dc_topology_get_spec(dc_network_topology(net)), (uint64_t)m->nodes);
        m->switches = (long long)m->bom.switches;
    }
    if (cap)
        dc_cfg_lookup_int64(cap, "switches", &m->switches);
    int rc = read_storage(m, sc, cap ? dc_cfg_member(cap, "storage") : NULL, err);
    if (rc != DC_OK)
        return rc;
    m->facility_usd_per_mw = num(cap, "facility_usd_per_mw", 0);
    m->power_usd_per_mw = num(cap, "power_usd_per_mw", 0);
    m->cooling_usd_per_mw = num(cap, "cooling_usd_per_mw", 0);
    m->has_it_kw = cap && dc_cfg_lookup_float(cap, "it_kw_per_gpu", &m->it_kw_per_gpu);
    m->has_site_cap = config_lookup_float(dc_scenario_config(sc), "power.site_cap_mw", &m->site_cap_mw);
    double cool_kw = 0;
    m->has_cooling = config_lookup_float(dc_scenario_config(sc), "cooling.capacity_kw", &cool_kw);
    m->cooling_mw = cool_kw / 1000.0;
    m->spares_fraction = num(cap, "spares_fraction", 0);
    m->life_y = num(cap, "life_years", 5);
    m->facility_life_y = num(cap, "facility_life_years", 15);
    m->residual_fraction = num(cap, "residual_fraction", 0);
    m->interest_rate = num(cap, "interest_rate", 0);
    const char *per_mw[] = {"facility_usd_per_mw", "power_usd_per_mw", "cooling_usd_per_mw"};
    double per_mw_v[] = {m->facility_usd_per_mw, m->power_usd_per_mw, m->cooling_usd_per_mw};
    for (size_t k = 0; k < 3; k++)
        if (per_mw_v[k] > 0.0 && !m->has_it_kw && !dc_scenario_lookup(sc, "power"))
            return dc_scenario_error_at(sc, dc_cfg_member(cap, per_mw[k]), err,
                                        "a price per MW needs the IT capacity: give cost.capex.it_kw_per_gpu, or "
                                        "a power section (its site_cap_mw, else the IT peak it simulates)");

    const config_setting_t *op = dc_cfg_member(g, "opex");
    m->electricity_usd_per_kwh = num(op, "electricity_usd_per_kwh", 0);
    m->has_facility_mw = op && dc_cfg_lookup_float(op, "facility_mw", &m->facility_mw);
    if (m->electricity_usd_per_kwh > 0.0 && !m->has_facility_mw && !dc_scenario_lookup(sc, "power"))
        return dc_scenario_error_at(sc, dc_cfg_member(op, "electricity_usd_per_kwh"), err,
                                    "an electricity price needs the energy: give cost.opex.facility_mw (the "
                                    "average facility power) or a power section that simulates it");
    m->maintenance_fraction = num(op, "maintenance_fraction", 0);
    m->staff_per_nodes = num(op, "staff_per_nodes", 0);
    m->staff_usd_per_year = num(op, "staff_usd_per_year", 0);
    if (m->staff_usd_per_year > 0.0 && !(m->staff_per_nodes > 0.0))
        return dc_scenario_error_at(sc, dc_cfg_member(op, "staff_usd_per_year"), err,
                                    "a staff cost needs cost.opex.staff_per_nodes (nodes per staff member)");
    m->licence_usd_per_gpu_year = num(op, "licence_usd_per_gpu_year", 0);
    m->transfer_tb_per_month = num(op, "data_transfer_tb_per_month", 0);
    m->transfer_usd_per_tb = num(op, "data_transfer_usd_per_tb", 0);
    rc = read_repairs(m, sc, op, err);
    if (rc != DC_OK)
        return rc;

    const config_setting_t *rent = dc_cfg_member(g, "rent");
    m->on_demand_usd = num(rent, "on_demand_usd_per_gpu_h", 0);
    m->cpu_node_h_usd = num(rent, "on_demand_usd_per_cpu_node_h", 0);
    m->reserved_discount = num(rent, "reserved_discount", 0);
    m->reserved_term_y = num(rent, "reserved_term_years", 1);
    m->reserved_terms = 1;
    if (rent)
        dc_cfg_lookup_int64(rent, "reserved_terms", &m->reserved_terms);
    m->spot_usd = num(rent, "spot_usd_per_gpu_h", 0);
    m->spot_gpu_h = num(rent, "spot_gpu_h", 0);
    m->spot_rework = num(rent, "spot_rework", 0);

    const config_setting_t *job = dc_scenario_lookup(sc, "job");
    if (job)
        dc_cfg_lookup_float(job, "tokens", &m->job_tokens);
    return DC_OK;
}

static double get(const dc_summary *s, const char *key, double def)
{
    double v;
    return dc_summary_get(s, key, &v) ? v : def;
}

/* Stage k's capital, as written above (cost.stageK.capex_usd). */
static double stage_capex(const dc_summary *s, size_t k)
{
    char key[64];
    snprintf(key, sizeof key, "cost.stage%zu.capex_usd", k + 1);
    return get(s, key, 0.0);
}

static void put(dc_summary *s, const char *key, double v, const char *unit, const char *doc)
{
    dc_summary_set(s, key, v, unit, doc);
}

static double ratio(double a, double b)
{
    return b > 0.0 && isfinite(a) ? a / b : NAN;
}

static void cost_finish(void *state, dc_sim *sim)
{
    cost_model *m = state;
    if (!m->has_cost && !m->has_deadline)
        return;
    dc_summary *s = dc_sim_summary(sim);
    double t_s = dc_sim_now(sim), t_days = t_s / 86400.0, t_h = t_s / 3600.0;
    double t_y = t_h / DC_HOURS_PER_COST_YEAR;

    double completed = get(s, "job.completed", 0.0);
    double completion_days = get(s, "job.completion_days", NAN);
    double penalty = 0.0;
    if (m->has_deadline) {
        bool done = completed > 0.0 && isfinite(completion_days);
        double late = done ? completion_days - m->deadline_days : t_days - m->deadline_days;
        bool missed = !done || completion_days > m->deadline_days;
        if (late < 0.0)
            late = 0.0;
        if (missed)
            penalty = m->penalty_usd + m->penalty_usd_per_day * late;
        put(s, "deadline.days", m->deadline_days, "days", "the deadline, days after the job's submission");
        put(s, "deadline.missed", missed ? 1.0 : 0.0, "",
            "1 if the job did not finish within the deadline (or not at all)");
        put(s, "deadline.days_late", missed ? late : 0.0, "days",
            "days past the deadline (unfinished job: simulated time minus deadline, a lower bound)");
        put(s, "deadline.penalty_usd", penalty, "USD", "penalty for missing the deadline");
    }
    if (!m->has_cost)
        return;

    double f_o = m->owned, f_r = (1.0 - f_o) * m->reserved_share, f_d = (1.0 - f_o) * (1.0 - m->reserved_share);
    /* Capital by part (the seed's breakdown, 000 sec. 6).  The storage tiers
     * priced without a tb take the storage model's capacity. */
    double storage_usd = m->storage_usd;
    for (size_t k = 0; k < m->n_storage; k++) {
        char key[96];
        snprintf(key, sizeof key, "storage.%s.capacity_tb", m->storage[k].tier);
        storage_usd += get(s, key, 0.0) * m->storage[k].usd_per_tb;
    }
    double optics = (double)m->bom.transceivers * m->transceiver_usd +
                    (double)m->bom.optical_links * m->optical_link_usd + (double)m->bom.node_links * m->node_link_usd;
    double p_dev = m->gpus * m->gpu_usd + m->nodes * m->server_usd;
    double p_cpu = 0.0; /* the CPU-only types' servers (in p_dev) */
    if (m->typed) { /* each type at its prices */
        p_dev = 0.0;
        for (size_t t = 0; t < dc_cluster_type_count(m->cluster); t++) {
            double n = dc_cluster_type_at(m->cluster, t)->nodes - spot_of_type(m, t);
            double g = dc_cluster_type_at(m->cluster, t)->gpus_per_node; /* 0: CPU-only, its servers alone */
            p_dev += n * g * type_gpu_usd(m, (int)t) + n * type_server_usd(m, (int)t);
            if (g == 0.0)
                p_cpu += n * type_server_usd(m, (int)t);
        }
    }
    double p_net = m->gpus * m->ports_per_gpu * m->port_usd + (double)m->switches * m->switch_usd + optics;
    double p_sto = storage_usd;
    /* (summed in the order of the lines before the parts existed: the same bits) */
    double hw = f_o * (1.0 + m->spares_fraction) *
                (p_dev + m->gpus * m->ports_per_gpu * m->port_usd +
                 (double)m->switches * m->switch_usd + storage_usd + optics);
    /* Capacity over time (stages.h): the devices are bought, rented or
     * both stage by stage; the fabric, storage and plant at the start. */
    double commit_h = (double)m->reserved_terms * m->reserved_term_y * DC_HOURS_PER_COST_YEAR;
    double delta = log1p(m->discount_rate);
    dc_cost_stage_figures sum = {0};
    double stage_capital_y = 0.0; /* sum of C u (maintenance) */
    if (m->staged) {
        hw = f_o * (1.0 + m->spares_fraction) * (p_net + p_sto);
        dc_cost_stage_prices pr = {m->gpus_per_node, m->gpu_usd, m->server_usd, m->spares_fraction, m->life_y,
                                   m->residual_fraction, m->interest_rate, f_o, m->reserved_share, m->on_demand_usd,
                                   m->reserved_discount, commit_h, delta};
        for (size_t k = 0; k < dc_cluster_stage_count(m->cluster); k++) {
            dc_cluster_stage own = *dc_cluster_stage_at(m->cluster, k), *st = &own;
            int ty = dc_cluster_node_type(m->cluster, st->first);
            pr.gpu_usd = type_gpu_usd(m, ty);
            pr.server_usd = type_server_usd(m, ty);
            pr.gpus_per_node = dc_cluster_type_at(m->cluster, (size_t)ty)->gpus_per_node; /* 0: a CPU-only stage */
            own.nodes -= (uint32_t)(m->spot_stage_nodes ? m->spot_stage_nodes[k] : 0.0); /* the provider's */
            dc_cost_stage_figures f = dc_cost_stage(st, &pr, t_s);
            sum.present_gpu_h += f.present_gpu_h;
            sum.owned_gpu_h += f.owned_gpu_h;
            sum.owned_node_y += f.owned_node_y;
            sum.rented_gpu_h += f.rented_gpu_h;
            sum.capex_usd += f.capex_usd;
            sum.depreciation_usd += f.depreciation_usd;
            sum.interest_usd += f.interest_usd;
            sum.on_demand_usd += f.on_demand_usd;
            sum.reserved_usd += f.reserved_usd;
            sum.npv_usd += f.npv_usd;
            if (!f.sold)
                sum.book_usd += f.book_usd;
            if (isfinite(f.bought_s))
                stage_capital_y += f.capex_usd * (fmin(st->leave_s, t_s) - f.bought_s) / 3600.0 / DC_HOURS_PER_COST_YEAR;
            char key[96];
            static const char *const names[] = {"gpu_h", "rented_gpu_h", "rent_usd", "capex_usd", "bought_day",
                                                "depreciation_usd", "interest_usd", "residual_usd"};
            static const char *const units[] = {"GPU-h", "GPU-h", "USD", "USD", "days", "USD", "USD", "USD"};
            static const char *const docs[] = {
                "GPU-hours of the stage's nodes outside spot pools, from its day to its retire day or the end",
                "GPU-hours of the stage rented (rent then buy: until its rent_until_day)",
                "the stage's rent: on demand (and reserved) GPU-hours",
                "the stage's devices (GPUs, servers, spares) bought in the window",
                "day the stage was bought (null: not bought in the window)",
                "straight-line amortisation of the stage's devices from the day they were bought",
                "financing of the stage's devices",
                "book value of the stage's devices when it retires (a refresh) or at the end"};
            double v[] = {f.present_gpu_h, f.rented_gpu_h, f.on_demand_usd + f.reserved_usd, f.capex_usd,
                          f.bought_s / 86400.0, f.depreciation_usd, f.interest_usd, f.book_usd};
            for (size_t q = 0; q < sizeof v / sizeof v[0]; q++) {
                snprintf(key, sizeof key, "cost.stage%zu.%s", k + 1, names[q]);
                put(s, key, v[q], units[q], docs[q]);
            }
        }
    }
    /* the owner's share of what the nodes present consume (energy, repairs) */
    double f_use = !m->staged ? f_o : sum.present_gpu_h > 0.0 ? sum.owned_gpu_h / sum.present_gpu_h : 0.0;
    /* The plant's size: the IT capacity per GPU given, else the site's
     * connection, else the IT peak simulated; the cooling plant's own. */
    double it_mw = m->has_it_kw ? m->gpus * m->it_kw_per_gpu / 1000.0
                   : m->has_site_cap ? m->site_cap_mw
                                     : get(s, "power.it_peak_mw", 0.0);
    double cool_mw = m->has_cooling ? m->cooling_mw : it_mw;
    double building = m->has_it_kw ? f_o * m->facility_usd_per_mw * m->gpus * m->it_kw_per_gpu / 1000.0
                                   : f_o * m->facility_usd_per_mw * it_mw;
    double power_plant = f_o * m->power_usd_per_mw * it_mw, cooling_plant = f_o * m->cooling_usd_per_mw * cool_mw;
    double fac = building + power_plant + cooling_plant;
    double i = m->interest_rate;
    dc_cost_capital ch = dc_cost_capital_over(hw, m->residual_fraction * hw, m->life_y, i, t_y);
    dc_cost_capital cf = dc_cost_capital_over(fac, 0.0, m->facility_life_y, i, t_y);
    /* Compute in orbit (orbital.h): launch, bus and insurance amortised over
     * the mission life with nothing left at its end; ground segment and
     * servicing launches are operating costs. */
    double orb = get(s, "orbital.capex_usd", 0.0), orb_life = get(s, "orbital.life_years", 1.0);
    dc_cost_capital co = dc_cost_capital_over(orb, 0.0, orb_life, i, t_y);
    double orb_opex = get(s, "orbital.opex_usd", 0.0) + get(s, "orbital.servicing_usd", 0.0);

    /* energy: the power model's when it ran, else the stated average */
    double sim_kwh, sim_usd;
    bool from_power = dc_summary_get(s, "power.facility_energy_kwh", &sim_kwh);
    double kwh = from_power ? sim_kwh : m->has_facility_mw ? m->facility_mw * 1000.0 * t_h : 0.0;
    /* the power model leaves energy unpriced (null) without an environment:
     * in orbit, or on a site priced by electricity_usd_per_kwh */
    double energy = dc_summary_get(s, "power.energy_cost_usd", &sim_usd) && isfinite(sim_usd) ? f_use * sim_usd
                                                                         : f_use * kwh * m->electricity_usd_per_kwh;
    double maintenance = m->maintenance_fraction * (hw + fac) * t_y;
    double staff = m->staff_per_nodes > 0.0 ? f_o * m->nodes / m->staff_per_nodes * m->staff_usd_per_year * t_y : 0.0;
    double licences = m->licence_usd_per_gpu_year * m->gpus * t_y;
    if (m->staged) { /* the stages' owned node-years and present GPU-years */
        maintenance += m->maintenance_fraction * stage_capital_y;
        staff = m->staff_per_nodes > 0.0 ? sum.owned_node_y / m->staff_per_nodes * m->staff_usd_per_year : 0.0;
        licences = m->licence_usd_per_gpu_year * sum.present_gpu_h / DC_HOURS_PER_COST_YEAR;
    }
    double transfer = m->transfer_tb_per_month * 12.0 * t_y * m->transfer_usd_per_tb;
    double listed = 0.0, listed_usd = 0.0;
    for (size_t k = 0; k < m->n_repairs; k++) {
        char key[96];
        snprintf(key, sizeof key, "failures.%s", m->repairs[k].name);
        double n = get(s, key, 0.0);
        listed += n;
        listed_usd += n * m->repairs[k].usd;
    }
    double other = get(s, "repair.tickets", 0.0) - listed;
    double repairs = f_use * (listed_usd + (other > 0.0 ? other : 0.0) * m->repair_default_usd);
    /* the storage tiers' running cost (storage.h: TB-months x price) */
    double storage_opex = f_o * get(s, "storage.cost_usd", 0.0);
    double opex = energy + maintenance + staff + licences + transfer + repairs + orb_opex + storage_opex;

    double p = m->on_demand_usd;
    double on_demand = m->staged ? sum.on_demand_usd : f_d * m->gpus * t_h * p;
    /* CPU-only nodes: their rented share on demand by the node-hour */
    double cpu_rent = m->staged ? 0.0 : (1.0 - f_o) * m->cpu_nodes * t_h * m->cpu_node_h_usd;
    on_demand += cpu_rent;
    double over_h = t_h > commit_h ? t_h - commit_h : 0.0;
    double reserved_commit = m->staged ? sum.reserved_usd : f_r * m->gpus * commit_h * p * (1.0 - m->reserved_discount);
    double reserved_over = m->staged ? 0.0 : f_r * m->gpus * over_h * p;
    /* spot: the stated non-critical work, and the spot pools' hours held by
     * jobs and services (their reclaims' lost work and restarts inside) */
    double spot_pool_gpu_h = 0.0, spot_lost_gpu_h = 0.0, spot_reclaims = 0.0;
    for (int q = 0; m->sched && q < dc_sched_pool_count(m->sched); q++) {
        if (!dc_sched_pool_spot(m->sched, q))
            continue;
        const char *name = dc_sched_pool_name(m->sched, q);
        spot_pool_gpu_h += dc_sched_pool_held_node_s(m->sched, q) / 3600.0 * m->gpus_per_node;
        char key[128];
        static const char *const lost_lines[] = {"preempted", "rollback", "restart"};
        for (size_t k = 0; k < sizeof lost_lines / sizeof lost_lines[0]; k++) {
            snprintf(key, sizeof key, "pool.%s.gpu_hours.%s", name, lost_lines[k]);
            spot_lost_gpu_h += get(s, key, 0.0);
        }
        snprintf(key, sizeof key, "pool.%s.reclaims", name);
        spot_reclaims += get(s, key, 0.0);
    }
    double spot_stated = m->spot_gpu_h * (1.0 + m->spot_rework) * m->spot_usd;
    double spot = spot_stated + spot_pool_gpu_h * m->spot_usd;
    double rent = on_demand + reserved_commit + reserved_over + spot;

    double capital = ch.depreciation_usd + ch.interest_usd + cf.depreciation_usd + cf.interest_usd +
                     co.depreciation_usd + co.interest_usd + sum.depreciation_usd + sum.interest_usd;
    double tco = capital + opex + rent;

    double commit_y = commit_h / DC_HOURS_PER_COST_YEAR;
    double pv = capital_pv(delta, hw, m->residual_fraction * hw, m->life_y, i, t_y) +
                capital_pv(delta, fac, 0.0, m->facility_life_y, i, t_y) +
                capital_pv(delta, orb, 0.0, orb_life, i, t_y);
    if (m->staged) {
        pv += sum.npv_usd;
        if (t_y > 0.0)
            pv += (opex + spot) / t_y * dc_cost_pv_const(delta, 0.0, t_y);
    } else {
        if (t_y > 0.0)
            pv += (opex + on_demand + spot) / t_y * dc_cost_pv_const(delta, 0.0, t_y);
        if (commit_y > 0.0)
            pv += reserved_commit / commit_y * dc_cost_pv_const(delta, 0.0, commit_y);
        if (t_y > commit_y)
            pv += reserved_over / (t_y - commit_y) * dc_cost_pv_const(delta, commit_y, t_y);
    }
    pv += penalty * exp(-delta * t_y);

    double capacity = get(s, DC_BREAKDOWN_TOTAL, 0.0), useful = get(s, "gpu_hours.useful", 0.0);
    double lost = capacity - useful - get(s, "gpu_hours.idle_spare", 0.0);
    if (lost < 0.0)
        lost = 0.0;
    double lost_value = m->has_lost_value ? m->lost_gpu_h_usd : ratio(tco, capacity);
    double models = completed > 0.0 ? m->models_per_job : 0.0;
    double inference_tokens = get(s, "inference.tokens", 0.0);

    put(s, "cost.window_days", t_days, "days", "time charged: the simulated time");
    put(s, "cost.capex_usd", hw + fac + orb + sum.capex_usd, "USD", "purchase price of the owned hardware (with spares) and facility");
    put(s, "cost.depreciation_usd", ch.depreciation_usd + cf.depreciation_usd + sum.depreciation_usd, "USD",
        "straight-line amortisation of the owned capital over the window");
    put(s, "cost.interest_usd", ch.interest_usd + cf.interest_usd + sum.interest_usd, "USD", "financing of the owned capital");
    put(s, "cost.residual_value_usd", ch.book_value_usd + cf.book_value_usd + sum.book_usd, "USD",
        "book value of the owned capital at the end of the window");
    if (orb > 0.0 || orb_opex > 0.0) {
        put(s, "cost.orbital_capex_usd", orb, "USD", "launch, satellite bus and insurance (orbital.capex_usd)");
        put(s, "cost.orbital_depreciation_usd", co.depreciation_usd + co.interest_usd, "USD",
            "their amortisation and financing over the window (mission life orbital.life_years)");
        put(s, "cost.orbital_opex_usd", orb_opex, "USD", "ground segment and servicing launches");
    }
    put(s, "cost.energy_kwh", kwh, "kWh", "facility energy of the whole cluster over the window");
    put(s, "cost.energy_from_power_model", from_power ? 1.0 : 0.0, "",
        "1: energy simulated by the power model; 0: cost.opex.facility_mw x time");
    put(s, "cost.energy_usd", energy, "USD", "electricity of the owned share");
    put(s, "cost.maintenance_usd", maintenance, "USD", "maintenance of the owned capital");
    put(s, "cost.staff_usd", staff, "USD", "staff for the owned nodes");
    put(s, "cost.licences_usd", licences, "USD", "software licences");
    put(s, "cost.data_transfer_usd", transfer, "USD", "data transfer");
    put(s, "cost.repairs_usd", repairs, "USD", "repairs (parts and labour) of the owned share");
    put(s, "cost.rent_on_demand_usd", on_demand, "USD", "on-demand GPU-hours");
    put(s, "cost.rent_reserved_usd", reserved_commit + reserved_over, "USD",
        "reserved commitments (and on-demand hours past them)");
    put(s, "cost.spot_usd", spot, "USD", "spot GPU-hours: stated non-critical work and the spot pools' hours held");
    if (m->spot_pool_nodes > 0.0) {
        put(s, "cost.spot_pool_gpu_h", spot_pool_gpu_h, "GPU-h", "GPU-hours the spot pools' nodes were held");
        put(s, "cost.spot_pool_usd", spot_pool_gpu_h * m->spot_usd, "USD", "the spot pools' hours at the spot price");
        put(s, "cost.spot_reclaims", spot_reclaims, "", "spot nodes the provider reclaimed");
        put(s, "cost.spot_lost_gpu_h", spot_lost_gpu_h, "GPU-h",
            "GPU-hours of the spot pools' jobs lost (preempted, rolled back) or restarting");
        put(s, "cost.spot_lost_usd", spot_lost_gpu_h * m->spot_usd, "USD",
            "what those GPU-hours cost at the spot price (inside cost.spot_usd)");
    }
    if (m->staged) {
        put(s, "cost.present_gpu_h", sum.present_gpu_h, "GPU-h",
            "GPU-hours of the delivery stages present (their nodes outside spot pools)");
        put(s, "cost.owned_gpu_h", sum.owned_gpu_h, "GPU-h", "of them owned (bought)");
        put(s, "cost.rented_gpu_h", sum.rented_gpu_h, "GPU-h", "of them rented");
        if (m->spot_pool_nodes > 0.0)
            put(s, "cost.gpus_spot", m->spot_pool_nodes * m->gpus_per_node, "GPUs", "GPUs of the scheduler's spot pools");
    } else if (f_o < 1.0 || m->spot_pool_nodes > 0.0) { /* a mix: say it */
        put(s, "cost.gpus_owned", f_o * m->gpus, "GPUs", "GPUs bought (cost.owned of those outside spot pools)");
        put(s, "cost.gpus_reserved", f_r * m->gpus, "GPUs", "GPUs rented on reserved contracts");
        put(s, "cost.gpus_on_demand", f_d * m->gpus, "GPUs", "GPUs rented on demand");
        put(s, "cost.gpus_spot", m->spot_pool_nodes * m->gpus_per_node, "GPUs", "GPUs of the scheduler's spot pools");
    }
    put(s, "cost.storage_opex_usd", storage_opex, "USD",
        "running cost of the owned share of the storage tiers (storage.cost_usd)");
    put(s, "cost.tco_usd", tco, "USD", "total cost of ownership: capital charges, operating costs and renting");
    put(s, "cost.total_usd", tco + penalty, "USD", "TCO plus the deadline penalty");
    put(s, "cost.npv_usd", pv, "USD", "present value of the costs at cost.discount_rate (with the penalty)");
    put(s, "cost.usd_per_useful_gpu_h", ratio(tco, useful), "USD/GPU-h", "TCO per useful GPU-hour");
    put(s, "cost.usd_per_model", ratio(tco, models), "USD", "TCO per trained model (null if none finished)");
    if (m->job_tokens > 0.0)
        put(s, "cost.usd_per_m_train_tokens", ratio(tco, completed > 0.0 ? m->job_tokens / 1e6 : 0.0), "USD",
            "TCO per million training tokens (null if the job did not finish)");
    /* The inference service's share of the TCO: its GPU-hours over those of
     * all work (the capacity less down, idle and retired nodes' hours). */
    double inf_gpu_h = get(s, "inference.gpu_h", 0.0);
    if (inf_gpu_h > 0.0) {
        double in_use = capacity * get(s, "cluster.node_availability", 1.0) - get(s, "gpu_hours.idle_spare", 0.0)
                        - get(s, "gpu_hours.retired", 0.0);
        double share = in_use > 0.0 ? inf_gpu_h / in_use : 1.0;
        share = share > 1.0 ? 1.0 : share; /* rounding */
        double inf_usd = share * tco;
        put(s, "cost.inference_share", share, "",
            "the inference service's GPU-hours over those of all work (capacity less down, idle, retired)");
        put(s, "cost.inference_usd", inf_usd, "USD", "the inference service's share of the TCO");
        if (inference_tokens > 0.0)
            put(s, "cost.usd_per_m_tokens", inf_usd / (inference_tokens / 1e6), "USD",
                "the service's share of the TCO per million inference tokens served (in + out)");
        double served = get(s, "inference.served", 0.0);
        if (served > 0.0)
            put(s, "cost.usd_per_request", inf_usd / served, "USD",
                "the service's share of the TCO per inference request served");
    }
    put(s, "cost.lost_gpu_h", lost, "GPU-h",
        "GPU-hours neither useful nor idle spares: downtime, rollbacks, restarts, checkpoints, waiting");
    put(s, "cost.lost_value_usd", lost * lost_value, "USD", "value of the lost GPU-hours (not added to the TCO)");
    put(s, "output.useful_gpu_h_per_mwh", ratio(useful, kwh / 1000.0), "GPU-h/MWh",
        "useful work per unit of facility energy");
    put(s, "output.useful_gpu_h_per_gpu_day", ratio(useful, m->all_gpus * t_days), "GPU-h/day",
        "useful work per GPU and day");
    /* The seed's parts: each asset's share of its class's capital charge
     * (depreciation and interest are linear in the price), the energy split
     * by kWh between the IT side (with conversion losses) and cooling. */
    double charge_hw = ch.depreciation_usd + ch.interest_usd, charge_fac = cf.depreciation_usd + cf.interest_usd;
    double p_hw = m->staged ? p_net + p_sto : p_dev + p_net + p_sto;
    double cool_kwh = get(s, "power.cooling_energy_kwh", 0.0);
    double cool_share = from_power && kwh > 0.0 ? cool_kwh / kwh : 0.0;
    double part[] = {
        m->staged ? sum.depreciation_usd + sum.interest_usd : p_hw > 0.0 ? charge_hw * p_dev / p_hw : 0.0,
        p_hw > 0.0 ? charge_hw * p_net / p_hw : 0.0,
        (p_hw > 0.0 ? charge_hw * p_sto / p_hw : 0.0) + storage_opex,
        (fac > 0.0 ? charge_fac * power_plant / fac : 0.0) + energy * (1.0 - cool_share),
        (fac > 0.0 ? charge_fac * cooling_plant / fac : 0.0) + energy * cool_share,
        fac > 0.0 ? charge_fac * building / fac : 0.0,
        maintenance + staff + licences + transfer + repairs,
        co.depreciation_usd + co.interest_usd + orb_opex,
        rent,
    };
    static const struct {
        const char *key, *doc;
    } parts[] = {
        {"cost.tco.devices_usd", "GPUs and servers: their share of the hardware's depreciation and interest"},
        {"cost.tco.network_usd", "switches, optics, cables and ports: their share of the hardware's capital charges"},
        {"cost.tco.storage_usd", "storage tiers: their share of the hardware's capital charges and their running cost"},
        {"cost.tco.power_usd", "electrical plant's capital charges and the energy of the IT load and its losses"},
        {"cost.tco.cooling_usd", "cooling plant's capital charges and the energy of cooling"},
        {"cost.tco.facility_usd", "the building's capital charges"},
        {"cost.tco.operations_usd", "maintenance, staff, licences, data transfer and repairs"},
        {"cost.tco.orbital_usd", "launch, bus and insurance amortised, ground segment and servicing"},
        {"cost.tco.rent_usd", "rented GPU-hours: on demand, reserved and spot"},
    };
    for (size_t k = 0; k < sizeof parts / sizeof parts[0]; k++)
        put(s, parts[k].key, part[k], "USD", parts[k].doc);
    put(s, "cost.capex_devices_usd", m->staged ? sum.capex_usd : f_o * (1.0 + m->spares_fraction) * p_dev, "USD",
        "GPUs and servers bought");
    /* Mixed hardware: the devices bought by type, and the chip table (each
     * type's price and power per PFLOP/s of peak, cost.h). */
    for (size_t t = 0; m->typed && t < dc_cluster_type_count(m->cluster); t++) {
        const dc_cluster_type *ty = dc_cluster_type_at(m->cluster, t);
        double bought = 0.0;
        for (size_t k = 0; m->staged && k < dc_cluster_stage_count(m->cluster); k++) {
            const dc_cluster_stage *st = dc_cluster_stage_at(m->cluster, k);
            if (dc_cluster_node_type(m->cluster, st->first) == (int)t)
                bought += stage_capex(s, k);
        }
        double gpu = type_gpu_usd(m, (int)t), server = type_server_usd(m, (int)t), g = ty->gpus_per_node;
        if (!m->staged)
            bought = f_o * (1.0 + m->spares_fraction) * (ty->nodes - spot_of_type(m, t)) * (g * gpu + server);
        if (g == 0) { /* CPU-only: nodes and cores, no PFLOP/s */
            char key[128], wkey[128];
            snprintf(wkey, sizeof wkey, "power.type.%s.node_busy_w", ty->name);
            double cores = ty->cores_per_node > 0 ? (double)ty->cores_per_node : NAN;
            struct {
                const char *name, *unit, *doc;
                double v;
            } row[] = {
                {"capex_usd", "USD", "servers of this CPU-only type bought", bought},
                {"gpus", "GPUs", "GPUs of this type (none)", 0.0},
                {"nodes", "nodes", "nodes of this CPU-only type", ty->nodes},
                {"cores", "cores", "their cores (cores_per_node; null when not given)", ty->nodes * cores},
                {"usd_per_node", "USD", "a node (server_usd)", server},
                {"usd_per_core", "USD", "a core: server_usd / cores_per_node (null without cores_per_node)",
                 server / cores},
                {"node_busy_w", "W", "a busy node (host_w; null without power)", get(s, wkey, NAN)},
            };
            for (size_t q = 0; q < sizeof row / sizeof row[0]; q++) {
                snprintf(key, sizeof key, "chip.%s.%s", ty->name, row[q].name);
                put(s, key, row[q].v, row[q].unit, row[q].doc);
            }
            continue;
        }
        double pflops = (isnan(ty->gpu_peak_tflops) ? 989.0 : ty->gpu_peak_tflops) / 1000.0;
        char key[128], wkey[128];
        snprintf(wkey, sizeof wkey, "power.type.%s.gpu_peak_w", ty->name);
        double w = get(s, wkey, NAN);
        struct {
            const char *name, *unit, *doc;
            double v;
        } row[] = {
            {"capex_usd", "USD", "GPUs and servers of this type bought", bought},
            {"gpus", "GPUs", "GPUs of this type", ty->nodes * g},
            {"pflops", "PFLOP/s", "peak of this type's GPUs (gpu_peak_tflops, default 989)", ty->nodes * g * pflops},
            {"usd_per_gpu", "USD", "a GPU and its share of its node (gpu_usd + server_usd / gpus_per_node)",
             gpu + server / g},
            {"usd_per_pflops", "USD/(PFLOP/s)", "price per PFLOP/s of peak: usd_per_gpu / (gpu_peak_tflops / 1000)",
             (gpu + server / g) / pflops},
            {"pflops_per_w", "PFLOP/s/W",
             "peak per watt: (gpu_peak_tflops / 1000) / (a GPU's peak_w + host_w / gpus_per_node); null without power",
             pflops / w},
        };
        for (size_t q = 0; q < sizeof row / sizeof row[0]; q++) {
            snprintf(key, sizeof key, "chip.%s.%s", ty->name, row[q].name);
            put(s, key, row[q].v, row[q].unit, row[q].doc);
        }
    }
    if (m->cpu_nodes > 0.0) {
        /* The CPU-only nodes' direct cost: their servers' share of the
         * devices' capital charges, their rent and their IT energy's share of
         * the energy bill (power.type.NAME.it_energy_kwh / power.it_energy_kwh). */
        double cpu_kwh = 0.0, it_kwh = get(s, "power.it_energy_kwh", 0.0);
        for (size_t t = 0; t < dc_cluster_type_count(m->cluster); t++) {
            const dc_cluster_type *ty = dc_cluster_type_at(m->cluster, t);
            char key[128];
            snprintf(key, sizeof key, "power.type.%s.it_energy_kwh", ty->name);
            if (ty->gpus_per_node == 0)
                cpu_kwh += get(s, key, 0.0);
        }
        double cpu_charge = !m->staged && p_hw > 0.0 ? charge_hw * p_cpu / p_hw : 0.0;
        double cpu_energy = it_kwh > 0.0 ? energy * cpu_kwh / it_kwh : 0.0;
        double cpu_usd = cpu_charge + cpu_rent + cpu_energy;
        put(s, "cost.cpu.capex_usd", f_o * (1.0 + m->spares_fraction) * p_cpu, "USD", "CPU-only nodes bought");
        put(s, "cost.cpu.rent_usd", cpu_rent, "USD",
            "CPU-only nodes rented on demand (inside cost.rent_on_demand_usd; not priced with delivery stages)");
        put(s, "cost.cpu.direct_usd", cpu_usd, "USD",
            "CPU-only nodes' direct cost: their capital charges, rent and IT energy's share of the energy cost");
        put(s, "cost.cpu.usd_per_useful_node_h", ratio(cpu_usd, get(s, "cpu_node_hours.useful", 0.0)), "USD/node-h",
            "that direct cost per useful CPU node-hour (cpu_node_hours.useful)");
    }
    put(s, "cost.capex_network_usd", f_o * (1.0 + m->spares_fraction) * p_net, "USD",
        "switches, optics, cables and ports bought");
    put(s, "cost.capex_storage_usd", f_o * (1.0 + m->spares_fraction) * p_sto, "USD", "storage bought");
    put(s, "cost.capex_power_plant_usd", power_plant, "USD", "electrical plant bought");
    put(s, "cost.capex_cooling_plant_usd", cooling_plant, "USD", "cooling plant bought");
    put(s, "cost.capex_building_usd", building, "USD", "building and shell");
    put(s, "cost.it_capacity_mw", it_mw, "MW", "IT capacity the plant and building are sized for");
    put(s, "cost.cooling_capacity_mw", cool_mw, "MW", "cooling capacity the cooling plant is sized for");
    if (m->has_fabric) {
        put(s, "cost.fabric.switches", (double)m->bom.switches, "", "switches of the simulated fabric (fabric_bom.h)");
        put(s, "cost.fabric.leaf_switches", (double)m->bom.leaf_switches, "", "leaf (ToR or rail) switches");
        put(s, "cost.fabric.spine_switches", (double)m->bom.spine_switches, "", "spine switches");
        put(s, "cost.fabric.core_switches", (double)m->bom.core_switches, "", "core switches (3 tiers)");
        put(s, "cost.fabric.node_links", (double)m->bom.node_links, "", "NIC-to-leaf cables (torus: links)");
        put(s, "cost.fabric.optical_links", (double)m->bom.optical_links, "", "links between switches");
        put(s, "cost.fabric.transceivers", (double)m->bom.transceivers, "", "optical transceivers");
    }
}

static void cost_destroy(void *state)
{
    cost_model *m = state;
    free(m->repairs);
    free(m->storage);
    free(m->spot_type_nodes);
    free(m->spot_stage_nodes);
}

const dc_model_type dc_model_cost = {
    .name = "cost",
    .state_size = sizeof(cost_model),
    .params = dc_cost_params,
    .init = cost_init,
    .finish = cost_finish,
    .destroy = cost_destroy,
};
