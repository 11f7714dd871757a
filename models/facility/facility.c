/* The facility model: fixed overheads in the facility power, utility outages, UPS ride-through
 * and generators (facility.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The supply is a small automaton: GRID, UPS (the grid is down, batteries
 * carry the site), GENERATOR, BLACK (nothing carries it).  An outage plans
 * its events when it begins (the generator's start, the end of the
 * ride-through, the grid's return); time in each state is banked at every
 * change and at the end.  A blackout takes every node that is up down, idle
 * ones first (as a thermal shutdown does, cooling.c), in batches of 1024;
 * the nodes come back together restart_s after power returns, unless
 * another blackout began meanwhile (a sequence number). */
#include "facility.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "cfgget.h"
#include "cluster.h"
#include "dist.h"
#include "law_params.h"
#include "power.h"

const dc_param dc_facility_params[] = {
    {"facility", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "fixed overheads and the utility supply (models/facility/facility.h); absent: none"},
    {"facility.ups_rating_mw", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "MW", 0, NULL, 0, 1e5,
     NULL, "UPS capacity (default: power.site_cap_mw)"},
    {"facility.ups_no_load_fraction", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 0.5, NULL,
     "UPS loss at no load, a share of its rating (a few per cent for double conversion)"},
    {"facility.pumps_fans_kw", DC_PARAM_FLOAT, 0, "kW", 0, NULL, 0, 1e7, NULL,
     "pumps and fans of the cooling plant at their minimum speed, always on"},
    {"facility.lighting_kw", DC_PARAM_FLOAT, 0, "kW", 0, NULL, 0, 1e7, NULL, "lighting, offices, security"},
    {"facility.outages", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "utility outages; absent: the grid never fails"},
    {"facility.outages.per_year", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL, 0,
     1e5, NULL, "outages per year while the grid is up (Poisson; 8766 h a year)"},
    {"facility.outages.duration", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "how long an outage lasts"},
    DC_LAW_PARAMS("facility.outages.duration", "lognormal", "outage duration"),
    {"facility.outages.ride_through_s", DC_PARAM_FLOAT, 0, "s", 600, NULL, 0, 1e7, NULL,
     "how long the UPS batteries carry the site"},
    {"facility.outages.restart_s", DC_PARAM_FLOAT, 0, "s", 0, NULL, 0, 1e7, NULL,
     "after a blackout, from power's return to nodes back in service (boot, checks)"},
    {"facility.outages.generator", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, "standby generators; absent: none"},
    {"facility.outages.generator.start_s", DC_PARAM_FLOAT, 0, "s", 15, NULL, 0, 1e6, NULL,
     "from the outage to the generators carrying the site"},
    {"facility.outages.generator.start_failure", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "probability that the generators fail to start (the outage is then the UPS's alone)"},
    {0},
};

enum supply { GRID, UPS, GEN, BLACK };
enum ev { EV_ARRIVAL, EV_GEN_ON, EV_BLACK, EV_GRID_BACK, EV_RESTORE };

typedef struct facility_model {
    dc_sim *sim;
    dc_cluster *c;
    dc_power *power;
    bool on, outages, has_gen;
    double overhead_w;
    double rate_per_s, ride_s, restart_s, gen_start_s, gen_fail_p;
    dc_dist duration;
    gsl_rng *rng_out, *rng_gen;
    int down_reason;

    enum supply state;
    double state_since_s;
    bool gen_ok;              /* the current outage's generator started */
    bool nodes_down;          /* from a blackout until the nodes are back */
    uint64_t blackout_seq;
    double nodes_down_since_s;
    uint32_t *shut;           /* the nodes this model took down */
    size_t n_shut, cap_shut;

    uint64_t n_outages, n_blackouts, n_gen_fail;
    double in_state_s[4], blackout_s;
} facility_model;

static void bank(facility_model *m)
{
    double now = dc_sim_now(m->sim);
    m->in_state_s[m->state] += now - m->state_since_s;
    m->state_since_s = now;
}

static void set_state(facility_model *m, enum supply s)
{
    bank(m);
    m->state = s;
}

static bool add_shut(facility_model *m, uint32_t node)
{
    if (m->n_shut == m->cap_shut) {
        size_t cap = m->cap_shut ? 2 * m->cap_shut : 1024;
        uint32_t *p = realloc(m->shut, cap * sizeof *p);
        if (!p) {
            dc_sim_fail(m->sim, DC_ENOMEM, "out of memory");
            return false;
        }
        m->shut = p;
        m->cap_shut = cap;
    }
    m->shut[m->n_shut++] = node;
    return true;
}

static void fail_nodes(facility_model *m, size_t first)
{
    const uint32_t *nodes = m->shut + first;
    size_t n = m->n_shut - first;
    for (size_t i = 0; i < n; i += 1024)
        dc_cluster_fail(m->c, -1, "power_outage", nodes + i, n - i < 1024 ? n - i : 1024, -1);
    for (size_t i = 0; i < n; i++)
        if (dc_cluster_node_state(m->c, nodes[i]) == DC_NODE_DOWN)
            dc_cluster_set_down_reason(m->c, nodes[i], m->down_reason);
}

static void blackout(facility_model *m)
{
    set_state(m, BLACK);
    m->n_blackouts++;
    m->blackout_seq++;
    if (!m->nodes_down) {
        m->nodes_down = true;
        m->nodes_down_since_s = dc_sim_now(m->sim);
    }
    dc_eventlog_add(dc_sim_eventlog(m->sim), dc_sim_now(m->sim), "blackout", "facility", -1, -1, 0.0);
    size_t first = m->n_shut;
    uint32_t n = dc_cluster_node_count(m->c);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            dc_node_state st = dc_cluster_node_state(m->c, i);
            if ((pass == 0 && st == DC_NODE_IDLE) || (pass == 1 && st == DC_NODE_BUSY))
                if (!add_shut(m, i))
                    return;
        }
    dc_power_set_overhead_w(m->power, 0.0);
    fail_nodes(m, first);
}

static void on_event(dc_sim *sim, void *ctx, uint64_t arg);

/* Power is back (the generator or the grid): the nodes follow restart_s later. */
static void power_back(facility_model *m)
{
    dc_power_set_overhead_w(m->power, m->overhead_w);
    dc_sim_after(m->sim, m->restart_s, on_event, m, (uint64_t)EV_RESTORE | (m->blackout_seq << 3));
}

static void on_event(dc_sim *sim, void *ctx, uint64_t arg)
{
    facility_model *m = ctx;
    double now = dc_sim_now(sim);
    switch ((enum ev)(arg & 7)) {
    case EV_ARRIVAL: {
        m->n_outages++;
        set_state(m, UPS);
        double d = dc_dist_sample(&m->duration, m->rng_out);
        m->gen_ok = m->has_gen && gsl_rng_uniform(m->rng_gen) >= m->gen_fail_p;
        if (m->has_gen && !m->gen_ok)
            m->n_gen_fail++;
        dc_eventlog_add(dc_sim_eventlog(sim), now, "outage", "facility", -1, -1, d);
        if (m->gen_ok && m->gen_start_s < d)
            dc_sim_after(sim, m->gen_start_s, on_event, m, EV_GEN_ON);
        double carried = m->gen_ok ? fmin(m->gen_start_s, d) : d;
        if (carried > m->ride_s)
            dc_sim_after(sim, m->ride_s, on_event, m, EV_BLACK);
        dc_sim_after(sim, d, on_event, m, EV_GRID_BACK);
        break;
    }
    case EV_GEN_ON:
        if (m->state == BLACK)
            power_back(m);
        set_state(m, GEN);
        break;
    case EV_BLACK:
        if (m->state == UPS)
            blackout(m);
        break;
    case EV_GRID_BACK:
        if (m->state == BLACK)
            power_back(m);
        set_state(m, GRID);
        dc_eventlog_add(dc_sim_eventlog(sim), now, "grid_back", "facility", -1, -1, 0.0);
        dc_sim_after(sim, gsl_ran_exponential(m->rng_out, 1.0 / m->rate_per_s), on_event, m, EV_ARRIVAL);
        break;
    case EV_RESTORE:
        if ((arg >> 3) != m->blackout_seq || m->state == BLACK || !m->nodes_down)
            break; /* another blackout began since */
        m->nodes_down = false;
        m->blackout_s += now - m->nodes_down_since_s;
        dc_nodes_event back = {.nodes = m->shut, .n_nodes = m->n_shut, .class_id = -1};
        size_t n = m->n_shut;
        m->n_shut = 0;
        if (n)
            dc_cluster_returned(m->c, &back);
        break;
    }
}

/* Nodes repaired during a blackout stay down until the site is back. */
static void on_nodes_up(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    facility_model *m = ctx;
    if (!m->nodes_down)
        return;
    const dc_nodes_event *ev = payload;
    size_t first = m->n_shut;
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (dc_cluster_node_state(m->c, ev->nodes[i]) != DC_NODE_DOWN && !add_shut(m, ev->nodes[i]))
            return;
    fail_nodes(m, first);
}

static double num(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    if (g)
        dc_cfg_lookup_float(g, key, &v);
    return v;
}

static int facility_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    facility_model *m = state;
    m->sim = sim;
    const config_setting_t *g = dc_scenario_lookup(sc, "facility");
    if (!g)
        return DC_OK;
    m->power = dc_power_of(sim);
    if (!m->power)
        return dc_scenario_error_at(sc, g, err, "the facility needs a power section (it adds to the facility power)");
    m->c = dc_cluster_of(sim);
    m->on = true;
    double rating_mw = 0, no_load = num(g, "ups_no_load_fraction", 0);
    if (!dc_cfg_lookup_float(g, "ups_rating_mw", &rating_mw) &&
        !config_lookup_float(dc_scenario_config(sc), "power.site_cap_mw", &rating_mw) && no_load > 0.0)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "ups_no_load_fraction"), err,
                                    "a no-load loss needs the UPS's rating: give facility.ups_rating_mw (or "
                                    "power.site_cap_mw)");
    m->overhead_w = no_load * rating_mw * 1e6 + num(g, "pumps_fans_kw", 0) * 1e3 + num(g, "lighting_kw", 0) * 1e3;

    const config_setting_t *o = dc_cfg_member(g, "outages");
    if (o) {
        m->outages = true;
        m->rate_per_s = num(o, "per_year", 1) / (DC_HOURS_PER_YEAR * 3600.0);
        m->ride_s = num(o, "ride_through_s", 600);
        m->restart_s = num(o, "restart_s", 0);
        int rc = dc_dist_from_setting(sc, dc_cfg_member(o, "duration"), &m->duration, err);
        if (rc != DC_OK)
            return rc;
        const config_setting_t *gen = dc_cfg_member(o, "generator");
        m->has_gen = gen != NULL;
        m->gen_start_s = num(gen, "start_s", 15);
        m->gen_fail_p = num(gen, "start_failure", 0);
        m->rng_out = dc_sim_rng(sim, "facility.outages");
        m->rng_gen = dc_sim_rng(sim, "facility.generator");
        m->down_reason = dc_cluster_down_reason(m->c, "power_outage");
        int sig_up = dc_sim_signal(sim, "nodes_up");
        if (!m->rng_out || !m->rng_gen || m->down_reason < 0 || sig_up < 0 ||
            dc_sim_subscribe(sim, sig_up, on_nodes_up, m) != DC_OK)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    return DC_OK;
}

static int facility_start(void *state, dc_sim *sim, dc_error *err)
{
    (void)err;
    facility_model *m = state;
    if (!m->on)
        return DC_OK;
    dc_power_set_overhead_w(m->power, m->overhead_w);
    m->state = GRID;
    m->state_since_s = dc_sim_now(sim);
    if (m->outages)
        dc_sim_after(sim, gsl_ran_exponential(m->rng_out, 1.0 / m->rate_per_s), on_event, m, EV_ARRIVAL);
    return DC_OK;
}

static void facility_finish(void *state, dc_sim *sim)
{
    facility_model *m = state;
    if (!m->on)
        return;
    dc_summary *s = dc_sim_summary(sim);
    dc_summary_set(s, "facility.overhead_kw", m->overhead_w / 1e3, "kW",
                   "fixed overheads: UPS no-load loss, pumps and fans at minimum, lighting");
    if (!m->outages)
        return;
    bank(m);
    double h = 1.0 / 3600.0;
    if (m->nodes_down)
        m->blackout_s += dc_sim_now(sim) - m->nodes_down_since_s;
    dc_summary_set(s, "facility.outages", (double)m->n_outages, "", "utility outages");
    dc_summary_set(s, "facility.outage_h", (m->in_state_s[UPS] + m->in_state_s[GEN] + m->in_state_s[BLACK]) * h, "h",
                   "time the grid was down");
    dc_summary_set(s, "facility.ups_h", m->in_state_s[UPS] * h, "h", "time the site ran on its UPS batteries");
    dc_summary_set(s, "facility.generator_h", m->in_state_s[GEN] * h, "h", "time the site ran on its generators");
    dc_summary_set(s, "facility.generator_start_failures", (double)m->n_gen_fail, "",
                   "outages whose generators did not start");
    dc_summary_set(s, "facility.blackouts", (double)m->n_blackouts, "",
                   "outages that outlasted the ride-through: every node went down");
    dc_summary_set(s, "facility.blackout_h", m->blackout_s * h, "h",
                   "time the nodes were down for power (to their return, restart_s after power)");
}

static void facility_destroy(void *state)
{
    facility_model *m = state;
    free(m->shut);
}

const dc_model_type dc_model_facility = {
    .name = "facility",
    .state_size = sizeof(facility_model),
    .params = dc_facility_params,
    .init = facility_init,
    .start = facility_start,
    .finish = facility_finish,
    .destroy = facility_destroy,
};
