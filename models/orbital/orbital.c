/* The orbital model: orbit and eclipses, solar array, battery, radiators, links and cost.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The orbital model (see orbital.h): orbit and eclipses, array, battery,
 * radiators, links and cost.
 *
 * update() is the one place where the state moves on: it banks the battery
 * and the radiator under the conditions that held since the last call (load
 * and sunlight are constant in between), then settles the limit and plans
 * the next crossing (battery floor or radiator limit).  The power model
 * answers a new limit by publishing "it_power", which re-enters here and is
 * ignored (busy); the new load is read back after setting the limit. */
#include "orbital.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "battery.h"
#include "cfgget.h"
#include "cluster.h"
#include "orbit.h"
#include "facility/power.h"
#include "radiator.h"

#define G(path, doc) {path, DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL, doc}
/* A group the model cannot run without (its area keys are required). */
#define GR(path, doc) {path, DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, doc}
#define F(path, flags, unit, def, lo, hi, doc) {path, DC_PARAM_FLOAT, flags, unit, def, NULL, lo, hi, NULL, doc}

const dc_param dc_orbital_params[] = {
    G("orbital", "compute in orbit: solar arrays, batteries and radiators instead of grid and cooling plant (models/orbital/orbital.h); needs power; absent: on the ground"),
    {"orbital.satellites", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 1, 1e6, NULL,
     "satellites of the formation; per-satellite figures below are multiplied by it"},
    F("orbital.altitude_km", DC_PARAM_REQUIRED, "km", 0, 150, 5000,
      "altitude of the circular sun-synchronous orbit (at least 150 km: below, drag brings it down within days)"),
    F("orbital.ltan_h", 0, "h", 18, 0, 24, "local time of the ascending node (18: dawn-dusk)"),
    F("orbital.start_day_of_year", 0, "day", 1, 1, 366, "day of 2026 at which the run starts (sets the sun)"),
    F("orbital.step_s", 0, "s", 300, 1, 86400,
      "coarse step at which the radiator is advanced and sampled between eclipse events"),
    F("orbital.solar_constant_w_m2", DC_PARAM_MIN_EXCLUSIVE, "W/m2", DC_SOLAR_CONSTANT_W_M2, 0, 1e4,
      "the sun's flux on the arrays and radiators (1361: Kopp and Lean 2011; older sources 1366-1370)"),
    F("orbital.earth_ir_w_m2", 0, "W/m2", DC_EARTH_IR_W_M2, 0, 1000,
      "the Earth's infrared flux at the top of the atmosphere, on the radiators' Earth view"),
    F("orbital.earth_albedo", 0, "", DC_EARTH_ALBEDO, 0, 1, "fraction of sunlight the Earth reflects onto the radiators' Earth view"),
    F("orbital.bus_w", 0, "W", 500, 0, 1e8,
      "per satellite: avionics, attitude control, coolant pumps (counted as the power model's cooling power)"),
    GR("orbital.solar", "the solar array of one satellite"),
    F("orbital.solar.area_m2", DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "m2", 0, 0, 1e9, "array area per satellite"),
    F("orbital.solar.efficiency", DC_PARAM_MIN_EXCLUSIVE, "", 0.30, 0, 1, "cell efficiency (triple junction: about 0.30)"),
    F("orbital.solar.pointing_loss", 0, "", 0.05, 0, 0.99, "fraction lost to pointing and packing"),
    F("orbital.solar.degradation_per_year", 0, "1/yr", 0.01, 0, 0.5, "fraction of output lost per year (radiation, UV)"),
    G("orbital.battery", "the battery of one satellite (absent: none, the array carries the load or compute stops in eclipse)"),
    F("orbital.battery.capacity_kwh", DC_PARAM_REQUIRED, "kWh", 0, 0, 1e9, "capacity per satellite"),
    F("orbital.battery.depth_of_discharge", 0, "", 0.8, 0, 1, "usable fraction of the capacity"),
    F("orbital.battery.charge_efficiency", DC_PARAM_MIN_EXCLUSIVE, "", 0.95, 0, 1, "energy stored / energy in"),
    F("orbital.battery.discharge_efficiency", DC_PARAM_MIN_EXCLUSIVE, "", 0.95, 0, 1, "energy out / energy drawn"),
    F("orbital.battery.initial_soc", 0, "", 1, 0, 1, "state of charge at the start (clamped to the floor)"),
    GR("orbital.radiator", "the radiators of one satellite"),
    F("orbital.radiator.area_m2", DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "m2", 0, 0, 1e9, "panel area per satellite (one face)"),
    {"orbital.radiator.sides", DC_PARAM_INT, 0, "", 2, NULL, 1, 2, NULL, "faces that emit"},
    F("orbital.radiator.emissivity", DC_PARAM_MIN_EXCLUSIVE, "", 0.92, 0, 1, "infrared emissivity, in (0, 1]"),
    F("orbital.radiator.absorptivity", 0, "", 0.09, 0, 1, "solar absorptivity"),
    F("orbital.radiator.ir_absorptivity", DC_PARAM_NO_DEFAULT, "", 0, 0, 1,
      "absorptivity of the Earth's infrared (default: the emissivity, Kirchhoff's law for a grey surface)"),
    F("orbital.radiator.sun_fraction", 0, "", 0, 0, 1, "projected area facing the sun / area (0: edge-on)"),
    F("orbital.radiator.earth_view_factor", 0, "", 0.2, 0, 1,
      "view factor of one face to the Earth (a face of a panel edge-on to the Earth: 0.2407 at 650 km)"),
    {"orbital.radiator.earth_faces", DC_PARAM_INT, 0, "", 1, NULL, 1, 2, NULL,
     "faces that see the Earth with earth_view_factor each (2: a panel edge-on to the Earth)"},
    F("orbital.radiator.sink_k", 0, "K", 3, 0, 400, "sink temperature (deep space)"),
    F("orbital.radiator.heat_capacity_kj_per_k", DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "kJ/K", 0, 0, 1e12,
      "thermal mass of radiator, coolant loop and electronics per satellite"),
    F("orbital.radiator.max_temp_c", 0, "C", 30, -150, 200, "radiator temperature above which GPUs throttle"),
    F("orbital.radiator.initial_temp_c", DC_PARAM_NO_DEFAULT, "C", 0, -270, 300,
      "temperature at the start (default: the steady state of the load at time 0, once the jobs starting then run; at most max_temp_c)"),
    G("orbital.links", "inter-satellite and ground links"),
    F("orbital.links.isl_gbps", DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 800, 0, 1e9, "one inter-satellite optical link, each way"),
    {"orbital.links.links_per_satellite", DC_PARAM_INT, 0, "", 1, NULL, 1, 1000, NULL,
     "parallel links each satellite uses toward its ring neighbour"},
    F("orbital.links.sync_gb_per_step", 0, "GB", 0, 0, 1e9,
      "data each satellite exchanges per training step across the formation (0: none)"),
    F("orbital.links.compute_s_per_step", DC_PARAM_MIN_EXCLUSIVE, "s", 1, 0, 1e6, "compute time of a training step"),
    F("orbital.links.overlap", 0, "", 0.8, 0, 1, "share of the exchange hidden behind compute"),
    F("orbital.links.ground_passes_per_day", DC_PARAM_MIN_EXCLUSIVE, "1/day", 10, 0, 1e4, "ground-station passes a day"),
    F("orbital.links.ground_pass_min", DC_PARAM_MIN_EXCLUSIVE, "min", 8, 0, 1440, "usable minutes of a pass"),
    F("orbital.links.downlink_gbps", DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 200, 0, 1e9, "ground link rate (laser downlink)"),
    F("orbital.links.latency_ms", 0, "ms", 5, 0, 1e5, "one-way latency to the ground"),
    G("orbital.cost", "mass, launch and the satellites' own cost (the compute is priced by the cost section)"),
    F("orbital.cost.nodes_per_satellite", DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, 0, 1e6,
      "nodes a satellite carries (default: cluster nodes with spares / satellites)"),
    F("orbital.cost.compute_kg_per_node", 0, "kg", 30, 0, 1e6, "mass of one node (boards, chips, memory, cold plates)"),
    F("orbital.cost.radiator_kg_per_m2", 0, "kg/m2", 5, 0, 1e4, "radiator mass per m2 of panel"),
    F("orbital.cost.array_kg_per_kw", 0, "kg/kW", 10, 0, 1e4, "solar array mass per kW at beginning of life"),
    F("orbital.cost.battery_kg_per_kwh", 0, "kg/kWh", 5, 0, 1e4, "battery mass per kWh"),
    F("orbital.cost.structure_fraction", 0, "", 0.3, 0, 10, "structure, harness, propulsion: a share of the rest"),
    F("orbital.cost.launch_year", 0, "yr", 2026, 2000, 2100, "year of launch"),
    F("orbital.cost.launch_usd_per_kg_today", 0, "USD/kg", 3600, 0, 1e7, "launch price per kg in 2025"),
    F("orbital.cost.launch_usd_per_kg_future", 0, "USD/kg", 200, 0, 1e7, "projected launch price per kg in future_year"),
    F("orbital.cost.future_year", 0, "yr", 2035, 2026, 2100, "year of the projected price"),
    F("orbital.cost.array_usd_per_w", 0, "USD/W", 0, 0, 1e6, "solar array price per W"),
    F("orbital.cost.battery_usd_per_kwh", 0, "USD/kWh", 0, 0, 1e9, "battery price per kWh"),
    F("orbital.cost.radiator_usd_per_m2", 0, "USD/m2", 0, 0, 1e9, "radiator price per m2"),
    F("orbital.cost.bus_usd_per_kg", 0, "USD/kg", 0, 0, 1e9, "structure and bus price per kg of structure mass"),
    F("orbital.cost.insurance_fraction", 0, "", 0, 0, 1, "launch insurance as a share of launch and hardware"),
    F("orbital.cost.ground_segment_usd_per_year", 0, "USD/yr", 0, 0, 1e15, "ground stations and operations per year"),
    F("orbital.cost.life_years", DC_PARAM_MIN_EXCLUSIVE, "yr", 5, 0, 100, "mission life over which launch and bus are amortised"),
    {0},
};

enum thermal_mode { TH_NORMAL, TH_HOLD };
enum cross_kind { CROSS_FLOOR, CROSS_HOT };

typedef struct cost_in {
    double nodes_per_sat, compute_kg_per_node, radiator_kg_per_m2, array_kg_per_kw, battery_kg_per_kwh;
    double structure_fraction, launch_year, p0, pf, yf;
    double array_usd_per_w, battery_usd_per_kwh, radiator_usd_per_m2, bus_usd_per_kg, insurance_fraction;
    double ground_usd_per_year, life_years, compute_usd;
} cost_in;

typedef struct orbital {
    dc_sim *sim;
    dc_cluster *c;
    dc_power *power;
    bool enabled, started, busy;

    double sats, alt_km, ltan_h, start_d, period_s, step_s;
    double eta, aux_w;
    double array_bol_w, degr;
    dc_battery bat;
    double bat_kwh;
    dc_radiator rad;
    double solar_w_m2; /* the solar constant: arrays and radiators */
    double max_k, init_k;
    bool has_init_k;
    double isl_speed;
    int src_isl;

    /* state since last_s */
    double last_s;
    bool sunlit, floor_mode, shed;
    enum thermal_mode th;
    double load_w, array_w, temp_k, limit_w;
    dc_event_handle cross_ev[2];
    uint64_t orbit_k;

    /* shed nodes */
    uint32_t *shed_nodes;
    size_t n_shed;
    int shed_reason;

    /* integrals and counts */
    double e_array_j, e_spill_j, e_unmet_j, e_rej_j, e_load_j;
    double sun_s, power_lim_s, heat_lim_s, shed_s, temp_int, max_k_seen, min_soc;
    double eclipse_s, max_eclipse_s;
    uint64_t n_eclipses, n_floor, n_hot, n_shed_events;
    long last_eclipse_day;
    uint64_t eclipse_days;

    cost_in cost;
    double ground_gb_per_day, ckpt_gb, ground_ckpt_h, latency_ms;

    dc_series *s_temp, *s_rej, *s_soc, *s_array, *s_sun, *s_load, *s_limit;
} orbital;

double dc_orbital_launch_usd_per_kg(double p0, double y0, double pf, double yf, double y)
{
    if (y <= y0 || !(yf > y0) || p0 <= 0.0 || pf <= 0.0)
        return y <= y0 || !(yf > y0) ? p0 : pf;
    if (y >= yf)
        return pf;
    return p0 * pow(pf / p0, (y - y0) / (yf - y0));
}

static double fget(const config_setting_t *g, const char *key, double def)
{
    double v = def;
    if (g)
        dc_cfg_lookup_float(g, key, &v);
    return v;
}

static double days_j2000(const orbital *m, double t_s)
{
    return DC_DAYS_J2000_TO_2026 + (m->start_d - 1.0) + t_s / 86400.0;
}

static double years(const orbital *m) { return dc_sim_now(m->sim) / (365.25 * 86400.0); }

static double array_now_w(const orbital *m)
{
    return m->sunlit ? m->array_bol_w * pow(1.0 - m->degr, years(m)) : 0.0;
}

static double soc(const orbital *m)
{
    return m->bat.capacity_j > 0.0 ? m->bat.charge_j / m->bat.capacity_j : 0.0;
}

static double load_of(const orbital *m, double it_w) { return it_w / m->eta + m->aux_w; }

static double it_of(const orbital *m, double load_w)
{
    double it = (load_w - m->aux_w) * m->eta;
    return it > 0.0 ? it : 0.0;
}

/* The continuous states (temperature, heat, charge) are sampled at steps,
 * eclipse entry and exit and crossings (sample); the step functions (load,
 * array, limit) at every change. */
static void record(orbital *m, bool sample)
{
    double now = dc_sim_now(m->sim);
    if (sample) {
        dc_series_record(m->s_temp, now, m->temp_k - 273.15);
        dc_series_record(m->s_rej, now, dc_radiator_emitted_w(&m->rad, m->temp_k));
        dc_series_record(m->s_soc, now, soc(m));
    }
    dc_series_record(m->s_array, now, m->array_w);
    dc_series_record(m->s_sun, now, m->sunlit ? 1.0 : 0.0);
    dc_series_record(m->s_load, now, m->load_w);
    dc_series_record(m->s_limit, now, isfinite(m->limit_w) ? m->limit_w : NAN);
}

/* Banks battery, radiator and integrals from last_s to now. */
static void advance(orbital *m)
{
    double now = dc_sim_now(m->sim), dt = now - m->last_s;
    if (dt <= 0.0)
        return;
    double net = m->array_w - m->load_w;
    double before = m->bat.charge_j;
    double unmet = dc_battery_apply(&m->bat, net, dt);
    m->e_unmet_j += unmet;
    if (net > 0.0) {
        double stored = m->bat.charge_j - before;
        m->e_spill_j += net * dt - stored / m->bat.charge_eff;
    }
    m->e_array_j += m->array_w * dt;
    m->e_load_j += m->load_w * dt;
    double t0 = m->temp_k;
    m->temp_k = dc_radiator_advance_k(&m->rad, m->temp_k, m->load_w, m->sunlit, dt);
    if (m->th == TH_HOLD && m->temp_k > m->max_k && m->load_w <= dc_radiator_capacity_w(&m->rad, m->max_k, m->sunlit) + 1e-6)
        m->temp_k = m->max_k; /* held at the limit (RK4 rounding) */
    /* trapezoid for the mean temperature and rejected heat */
    m->temp_int += 0.5 * (t0 + m->temp_k) * dt;
    m->e_rej_j += 0.5 * (dc_radiator_emitted_w(&m->rad, t0) + dc_radiator_emitted_w(&m->rad, m->temp_k)) * dt;
    m->max_k_seen = fmax(m->max_k_seen, m->temp_k);
    if (m->sunlit)
        m->sun_s += dt;
    if (m->floor_mode)
        m->power_lim_s += dt;
    if (m->th == TH_HOLD)
        m->heat_lim_s += dt;
    if (m->shed)
        m->shed_s += dt;
    m->min_soc = fmin(m->min_soc, soc(m));
    m->last_s = now;
}

static void on_cross(dc_sim *sim, void *ctx, uint64_t kind);

/* Time from now at which the radiator, under constant heat, reaches max_k
 * (INFINITY if not within horizon_s): march in tenths of the time constant,
 * then bisect the step that crosses. */
static double time_to_limit(const orbital *m, double heat_w, double horizon_s)
{
    double t_ss = dc_radiator_steady_temp_k(&m->rad, heat_w, m->sunlit);
    if (!(t_ss > m->max_k) || m->temp_k >= m->max_k)
        return m->temp_k >= m->max_k && t_ss > m->max_k ? 0.0 : INFINITY;
    double tau = dc_radiator_time_constant_s(&m->rad, m->max_k);
    double h = fmin(tau / 10.0, horizon_s);
    double t = 0.0, temp = m->temp_k;
    while (t < horizon_s) {
        double step = fmin(h, horizon_s - t);
        double next = dc_radiator_advance_k(&m->rad, temp, heat_w, m->sunlit, step);
        if (next >= m->max_k) {
            double lo = 0.0, hi = step;
            for (int i = 0; i < 24; i++) { /* a step of at most tau/10 to well under a millisecond */
                double mid = 0.5 * (lo + hi);
                if (dc_radiator_advance_k(&m->rad, temp, heat_w, m->sunlit, mid) >= m->max_k)
                    hi = mid;
                else
                    lo = mid;
            }
            return t + hi;
        }
        temp = next;
        t += step;
    }
    return INFINITY;
}

static void fail_all(orbital *m)
{
    uint32_t n = dc_cluster_node_count(m->c);
    size_t first = m->n_shed;
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            dc_node_state st = dc_cluster_node_state(m->c, i);
            if ((pass == 0 && st == DC_NODE_IDLE) || (pass == 1 && st == DC_NODE_BUSY))
                m->shed_nodes[m->n_shed++] = i;
        }
    for (size_t i = first; i < m->n_shed; i += 1024) {
        size_t k = m->n_shed - i < 1024 ? m->n_shed - i : 1024;
        dc_cluster_fail(m->c, -1, "power_shed", m->shed_nodes + i, k, -1);
    }
    for (size_t i = first; i < m->n_shed; i++)
        if (dc_cluster_node_state(m->c, m->shed_nodes[i]) == DC_NODE_DOWN)
            dc_cluster_set_down_reason(m->c, m->shed_nodes[i], m->shed_reason);
}

static void unshed(orbital *m)
{
    size_t k = 0;
    for (size_t i = 0; i < m->n_shed; i++)
        if (dc_cluster_node_state(m->c, m->shed_nodes[i]) == DC_NODE_DOWN)
            m->shed_nodes[k++] = m->shed_nodes[i];
    dc_nodes_event back = {.nodes = m->shed_nodes, .n_nodes = k, .class_id = -1};
    m->n_shed = 0;
    m->shed = false;
    if (k > 0)
        dc_cluster_returned(m->c, &back);
}

/* The initial state without orbital.radiator.initial_temp_c: the steady
 * state of the load at time 0 (every change of it at time 0: the jobs that
 * start then), at most max_temp_c, so that a short run's mean temperature
 * is not biased by a warm-up from the idle cluster's steady state (issue
 * 18 item 13: -25.7 C rising to 49 C over about 6 h in a 1 MW case). */
static void seed_temp(orbital *m)
{
    m->temp_k = fmin(dc_radiator_steady_temp_k(&m->rad, m->load_w, m->sunlit), m->max_k);
    m->max_k_seen = m->temp_k;
}

/* Decides the limits for the conditions of now and plans the crossings. */
static void settle(orbital *m, bool sample)
{
    double now = dc_sim_now(m->sim);
    m->array_w = array_now_w(m);
    /* the power model's demand is what the cluster draws without our limit */
    double demand = load_of(m, dc_power_demand_w(m->power));
    double cap_w = dc_radiator_capacity_w(&m->rad, m->max_k, m->sunlit);
    if (m->floor_mode && m->array_w >= demand) {
        m->floor_mode = false;
        dc_eventlog_add(dc_sim_eventlog(m->sim), now, "power_restored", "orbital", -1, -1, soc(m));
    }
    if (m->shed && m->sunlit)
        unshed(m), demand = load_of(m, dc_power_demand_w(m->power));
    if (m->th == TH_HOLD && (demand <= cap_w || m->temp_k < m->max_k - 1e-6))
        m->th = TH_NORMAL;
    double limit = INFINITY;
    if (m->floor_mode)
        limit = it_of(m, m->array_w);
    if (m->th == TH_HOLD)
        limit = fmin(limit, it_of(m, cap_w));
    if (m->floor_mode && !m->shed && dc_power_floor_w(m->power) > it_of(m, m->array_w) + 1e-6) {
        /* even the lowest clocks need more than the array gives: shed */
        m->shed = true;
        m->n_shed_events++;
        dc_eventlog_add(dc_sim_eventlog(m->sim), now, "power_shed", "orbital", -1, -1, soc(m));
        fail_all(m);
    }
    m->limit_w = limit;
    dc_power_set_heat_limit(m->power, limit);
    m->load_w = load_of(m, dc_power_it_w(m->power));
    if (!m->has_init_k && now == 0.0) {
        seed_temp(m); /* the jobs that start at 0 set the initial load */
        sample = true;
    }

    /* plan: the battery floor, the radiator limit */
    for (int k = 0; k < 2; k++)
        dc_sim_cancel(m->sim, &m->cross_ev[k]);
    double deficit = m->load_w - m->array_w;
    if (!m->floor_mode && deficit > 1e-9) {
        double t = dc_battery_time_to_floor_s(&m->bat, deficit);
        m->cross_ev[CROSS_FLOOR] = dc_sim_after(m->sim, t > 0.0 ? t : 0.0, on_cross, m, CROSS_FLOOR);
    }
    if (m->th == TH_NORMAL) {
        double t = time_to_limit(m, m->load_w, m->step_s);
        if (isfinite(t))
            m->cross_ev[CROSS_HOT] = dc_sim_after(m->sim, t, on_cross, m, CROSS_HOT);
    }
    record(m, sample);
}

static void update(orbital *m, bool sample)
{
    if (!m->started || m->busy)
        return;
    m->busy = true;
    advance(m);
    settle(m, sample);
    m->busy = false;
}

static void on_cross(dc_sim *sim, void *ctx, uint64_t kind)
{
    orbital *m = ctx;
    m->cross_ev[kind] = DC_EVENT_NONE;
    m->busy = true;
    advance(m);
    if (kind == CROSS_FLOOR) {
        m->bat.charge_j = m->bat.min_charge_j; /* exactly at the floor */
        m->floor_mode = true;
        m->n_floor++;
        dc_eventlog_add(dc_sim_eventlog(sim), dc_sim_now(sim), "battery_floor", "orbital", -1, -1, soc(m));
    } else {
        m->temp_k = m->max_k;
        m->th = TH_HOLD;
        m->n_hot++;
        dc_eventlog_add(dc_sim_eventlog(sim), dc_sim_now(sim), "heat_throttle", "orbital", -1, -1, m->temp_k - 273.15);
    }
    settle(m, true);
    m->busy = false;
}

static void on_eclipse(dc_sim *sim, void *ctx, uint64_t entering)
{
    orbital *m = ctx;
    m->busy = true;
    advance(m);
    m->sunlit = !entering;
    settle(m, true);
    m->busy = false;
}

static void on_orbit(dc_sim *sim, void *ctx, uint64_t k)
{
    orbital *m = ctx;
    double t0 = (double)k * m->period_s;
    double beta = dc_orbit_sso_beta_rad(m->alt_km, m->ltan_h, days_j2000(m, t0));
    double f = dc_orbit_eclipse_fraction(m->alt_km, beta);
    m->orbit_k = k;
    if (!m->sunlit) /* the eclipse of the previous orbit ends */
        on_eclipse(sim, m, 0);
    if (f > 0.0) {
        double ecl = f * m->period_s;
        double entry = t0 + m->period_s - ecl;
        double horizon = dc_sim_horizon(sim);
        if (entry < horizon) {
            m->n_eclipses++;
            double end = fmin(t0 + m->period_s, horizon);
            m->eclipse_s += end - entry;
            m->max_eclipse_s = fmax(m->max_eclipse_s, ecl);
            long day = (long)floor(entry / 86400.0);
            if (day != m->last_eclipse_day) {
                m->eclipse_days++;
                m->last_eclipse_day = day;
            }
            dc_sim_at(sim, entry, on_eclipse, m, 1);
        }
    }
    dc_sim_at(sim, t0 + m->period_s, on_orbit, m, k + 1);
}

static void on_step(dc_sim *sim, void *ctx, uint64_t k)
{
    orbital *m = ctx;
    update(m, true);
    dc_sim_at(sim, (double)(k + 1) * m->step_s, on_step, m, k + 1);
}

static void on_it_power(dc_sim *sim, void *ctx, const void *payload)
{
    update(ctx, false);
}

static void on_isl(dc_sim *sim, void *ctx, uint64_t arg)
{
    orbital *m = ctx;
    for (uint32_t j = 0; j < dc_cluster_job_count(m->c); j++)
        dc_cluster_set_job_speed(m->c, (int32_t)j, m->src_isl, m->isl_speed);
}

/* ---------- setup ---------- */

/* Heat of the idle cluster: every node idle, network and storage idle. */
static double idle_it_w(const dc_scenario *sc, const dc_cluster *c)
{
    config_t *cfg = dc_scenario_config(sc);
    double gpu_idle = 70, host_idle = 1000, sw_w = 750, st = 0;
    int switches = 0;
    config_lookup_float(cfg, "power.gpu.idle_w", &gpu_idle);
    config_lookup_float(cfg, "power.node.host_idle_w", &host_idle);
    config_lookup_int(cfg, "power.network.switches", &switches);
    config_lookup_float(cfg, "power.network.switch_w", &sw_w);
    config_setting_t *tiers = config_lookup(cfg, "power.storage");
    for (int i = 0; tiers && i < config_setting_length(tiers); i++) {
        double kw = 0;
        dc_cfg_lookup_float(config_setting_get_elem(tiers, (unsigned)i), "idle_kw", &kw);
        st += kw * 1e3;
    }
    return dc_cluster_node_count(c) * (host_idle + dc_cluster_gpus_per_node(c) * gpu_idle) + switches * sw_w + st;
}

static int orbital_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    orbital *m = state;
    m->sim = sim;
    m->src_isl = -1;
    config_setting_t *g = dc_scenario_lookup(sc, "orbital");
    if (!g)
        return DC_OK;
    m->power = dc_power_of(sim);
    if (!m->power)
        return dc_scenario_error_at(sc, g, err, "orbital needs a power section (the IT power of the satellites' compute)");
    const char *ground[] = {"cooling", "environment"};
    for (int i = 0; i < 2; i++) {
        config_setting_t *s = dc_scenario_lookup(sc, ground[i]);
        if (s)
            return dc_scenario_error_at(sc, s, err,
                                        "a %s section describes a site on the ground; in orbit the radiators (orbital.radiator) and the sun replace it",
                                        ground[i]);
    }
    m->enabled = true;
    m->c = dc_cluster_of(sim);
    int sats = 1;
    dc_cfg_lookup_int(g, "satellites", &sats);
    m->sats = sats;
    m->alt_km = fget(g, "altitude_km", 650);
    m->ltan_h = fget(g, "ltan_h", 18);
    m->start_d = fget(g, "start_day_of_year", 1);
    m->step_s = fget(g, "step_s", 300);
    m->period_s = dc_orbit_period_s(m->alt_km);
    if (isnan(dc_orbit_sso_inclination_rad(m->alt_km)))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "altitude_km"), err,
                                    "no sun-synchronous orbit exists at %g km", m->alt_km);
    m->aux_w = m->sats * fget(g, "bus_w", 500);
    config_t *cfg = dc_scenario_config(sc);
    double ups = 0.96, pdu = 0.99;
    config_lookup_float(cfg, "power.ups_efficiency", &ups);
    config_lookup_float(cfg, "power.pdu_efficiency", &pdu);
    m->eta = ups * pdu;

    config_setting_t *sg = dc_cfg_member(g, "solar");
    m->solar_w_m2 = fget(g, "solar_constant_w_m2", DC_SOLAR_CONSTANT_W_M2);
    m->array_bol_w = m->sats * fget(sg, "area_m2", 0) * fget(sg, "efficiency", 0.3) * m->solar_w_m2 *
                     (1.0 - fget(sg, "pointing_loss", 0.05));
    m->degr = fget(sg, "degradation_per_year", 0.01);

    config_setting_t *bg = dc_cfg_member(g, "battery");
    m->bat_kwh = m->sats * fget(bg, "capacity_kwh", 0);
    m->bat.capacity_j = m->bat_kwh * 3.6e6;
    m->bat.min_charge_j = m->bat.capacity_j * (1.0 - fget(bg, "depth_of_discharge", 0.8));
    m->bat.charge_eff = fget(bg, "charge_efficiency", 0.95);
    m->bat.discharge_eff = fget(bg, "discharge_efficiency", 0.95);
    m->bat.charge_j = fmax(m->bat.min_charge_j, m->bat.capacity_j * fget(bg, "initial_soc", 1));

    config_setting_t *rg = dc_cfg_member(g, "radiator");
    int sides = 2, earth_faces = 1;
    if (rg) {
        dc_cfg_lookup_int(rg, "sides", &sides);
        dc_cfg_lookup_int(rg, "earth_faces", &earth_faces);
    }
    double emissivity = fget(rg, "emissivity", 0.92);
    m->rad = (dc_radiator){
        .area_m2 = m->sats * fget(rg, "area_m2", 0),
        .sides = sides,
        .emissivity = emissivity,
        .absorptivity = fget(rg, "absorptivity", 0.09),
        .ir_absorptivity = fget(rg, "ir_absorptivity", emissivity),
        .sun_fraction = fget(rg, "sun_fraction", 0),
        .earth_view_factor = fget(rg, "earth_view_factor", 0.2),
        .earth_faces = earth_faces,
        .solar_w_m2 = m->solar_w_m2,
        .earth_ir_w_m2 = fget(g, "earth_ir_w_m2", DC_EARTH_IR_W_M2),
        .albedo = fget(g, "earth_albedo", DC_EARTH_ALBEDO),
        .sink_k = fget(rg, "sink_k", 3),
        .heat_capacity_j_k = m->sats * fget(rg, "heat_capacity_kj_per_k", 0) * 1e3,
    };
    m->max_k = fget(rg, "max_temp_c", 30) + 273.15;
    config_setting_t *it = dc_cfg_member(rg, "initial_temp_c");
    if (it) {
        m->has_init_k = true;
        m->init_k = config_setting_get_float(it) + 273.15;
    }
    /* A radiator that cannot carry the idle cluster would throttle to zero. */
    double idle_load = load_of(m, idle_it_w(sc, m->c));
    double cap = dc_radiator_capacity_w(&m->rad, m->max_k, true);
    if (cap < idle_load)
        return dc_scenario_error_at(sc, dc_cfg_member(rg, "area_m2"), err,
                                    "the radiators (%g m2 per satellite) reject at most %.4g kW at max_temp_c = %g C in sunlight, "
                                    "less than the %.4g kW the idle cluster and buses dissipate: compute could never run",
                                    m->rad.area_m2 / m->sats, cap / 1e3, m->max_k - 273.15, idle_load / 1e3);
    if (m->array_bol_w < idle_load)
        return dc_scenario_error_at(sc, dc_cfg_member(sg, "area_m2"), err,
                                    "the solar arrays (%g m2 per satellite) give %.4g kW, less than the %.4g kW the idle cluster and buses draw",
                                    m->array_bol_w / m->sats / (fget(sg, "efficiency", 0.3) * m->solar_w_m2 * (1.0 - fget(sg, "pointing_loss", 0.05))),
                                    m->array_bol_w / 1e3, idle_load / 1e3);

    /* inter-satellite links: the ring all-reduce between satellites */
    config_setting_t *lg = dc_cfg_member(g, "links");
    int lps = 1;
    if (lg)
        dc_cfg_lookup_int(lg, "links_per_satellite", &lps);
    double sync_gb = fget(lg, "sync_gb_per_step", 0), comp = fget(lg, "compute_s_per_step", 1);
    double xfer = m->sats > 1 ? 2.0 * (m->sats - 1.0) / m->sats * sync_gb / (lps * fget(lg, "isl_gbps", 800) / 8.0) : 0.0;
    double exposed = fmax(0.0, xfer - fmin(fget(lg, "overlap", 0.8) * xfer, comp));
    m->isl_speed = comp / (comp + exposed);
    m->src_isl = dc_cluster_speed_source(m->c, "isl");

    /* ground links: how often a checkpoint can leave orbit */
    m->ground_gb_per_day = fget(lg, "ground_passes_per_day", 10) * fget(lg, "ground_pass_min", 8) * 60.0 *
                           fget(lg, "downlink_gbps", 200) / 8.0;
    m->latency_ms = fget(lg, "latency_ms", 5);
    double ckpt_gb = NAN, params = NAN, bpp = 14;
    if (!config_lookup_float(cfg, "checkpoint.size_gb", &ckpt_gb) && config_lookup_float(cfg, "job.params", &params)) {
        config_lookup_float(cfg, "checkpoint.bytes_per_param", &bpp);
        ckpt_gb = params * bpp / 1e9;
    }
    m->ckpt_gb = ckpt_gb;
    m->ground_ckpt_h = fmax(ckpt_gb / m->ground_gb_per_day, 1.0 / fget(lg, "ground_passes_per_day", 10)) * 24.0;

    config_setting_t *cg = dc_cfg_member(g, "cost");
    cost_in *k = &m->cost;
    k->nodes_per_sat = fget(cg, "nodes_per_satellite", dc_cluster_node_count(m->c) / m->sats);
    k->compute_kg_per_node = fget(cg, "compute_kg_per_node", 30);
    k->radiator_kg_per_m2 = fget(cg, "radiator_kg_per_m2", 5);
    k->array_kg_per_kw = fget(cg, "array_kg_per_kw", 10);
    k->battery_kg_per_kwh = fget(cg, "battery_kg_per_kwh", 5);
    k->structure_fraction = fget(cg, "structure_fraction", 0.3);
    k->launch_year = fget(cg, "launch_year", 2026);
    k->p0 = fget(cg, "launch_usd_per_kg_today", 3600);
    k->pf = fget(cg, "launch_usd_per_kg_future", 200);
    k->yf = fget(cg, "future_year", 2035);
    k->array_usd_per_w = fget(cg, "array_usd_per_w", 0);
    k->battery_usd_per_kwh = fget(cg, "battery_usd_per_kwh", 0);
    k->radiator_usd_per_m2 = fget(cg, "radiator_usd_per_m2", 0);
    k->bus_usd_per_kg = fget(cg, "bus_usd_per_kg", 0);
    k->insurance_fraction = fget(cg, "insurance_fraction", 0);
    k->ground_usd_per_year = fget(cg, "ground_segment_usd_per_year", 0);
    k->life_years = fget(cg, "life_years", 5);
    double gpu_usd = 0, server_usd = 0;
    config_lookup_float(cfg, "cost.capex.gpu_usd", &gpu_usd);
    config_lookup_float(cfg, "cost.capex.server_usd", &server_usd);
    k->compute_usd = dc_cluster_node_count(m->c) * (server_usd + dc_cluster_gpus_per_node(m->c) * gpu_usd);

    m->shed_reason = dc_cluster_down_reason(m->c, "power_shed");
    m->shed_nodes = malloc((dc_cluster_node_count(m->c) + 1) * sizeof *m->shed_nodes);
    m->s_temp = dc_sim_series(sim, "radiator_temp_c", "C", "radiator temperature (steps and changes)");
    m->s_rej = dc_sim_series(sim, "radiator_rejected_w", "W", "heat the radiators emit");
    m->s_soc = dc_sim_series(sim, "battery_soc", "", "battery state of charge");
    m->s_array = dc_sim_series(sim, "solar_array_w", "W", "solar array output (0 in eclipse)");
    m->s_sun = dc_sim_series(sim, "sunlit", "", "1 in sunlight, 0 in eclipse");
    m->s_load = dc_sim_series(sim, "orbital_load_w", "W", "electrical load of the formation: IT / conversion + buses");
    m->s_limit = dc_sim_series(sim, "orbital_it_limit_w", "W", "IT power limit from battery or radiators (null: none)");
    int sig = dc_sim_signal(sim, "it_power");
    if (m->src_isl < 0 || m->shed_reason < 0 || !m->shed_nodes || !m->s_temp || !m->s_rej || !m->s_soc || !m->s_array
        || !m->s_sun || !m->s_load || !m->s_limit || sig < 0 || dc_sim_subscribe(sim, sig, on_it_power, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int orbital_start(void *state, dc_sim *sim, dc_error *err)
{
    orbital *m = state;
    if (!m->enabled)
        return DC_OK;
    m->sunlit = true;
    m->limit_w = INFINITY;
    m->last_eclipse_day = -1;
    m->load_w = load_of(m, dc_power_it_w(m->power));
    m->array_w = array_now_w(m);
    if (m->has_init_k) {
        m->temp_k = m->init_k;
        m->max_k_seen = m->temp_k;
    } else {
        seed_temp(m);
    }
    m->min_soc = soc(m);
    m->started = true;
    m->busy = true;
    settle(m, true);
    m->busy = false;
    on_orbit(sim, m, 0);
    dc_sim_at(sim, m->step_s, on_step, m, 1);
    if (m->isl_speed < 1.0)
        dc_sim_at(sim, 0.0, on_isl, m, 0);
    return DC_OK;
}

static void put(dc_summary *s, const char *key, double v, const char *unit, const char *doc)
{
    dc_summary_set(s, key, v, unit, doc);
}

/* Mass and the satellites' own cost (orbital.h). */
static void write_cost(orbital *m, dc_summary *s, double now)
{
    const cost_in *k = &m->cost;
    double bol_kw = m->array_bol_w / 1e3;
    double compute_kg = m->sats * k->nodes_per_sat * k->compute_kg_per_node;
    double rad_kg = m->rad.area_m2 * k->radiator_kg_per_m2;
    double arr_kg = bol_kw * k->array_kg_per_kw, bat_kg = m->bat_kwh * k->battery_kg_per_kwh;
    double struct_kg = (compute_kg + rad_kg + arr_kg + bat_kg) * k->structure_fraction;
    double mass = compute_kg + rad_kg + arr_kg + bat_kg + struct_kg;
    double price = dc_orbital_launch_usd_per_kg(k->p0, 2025.0, k->pf, k->yf, k->launch_year);
    double launch = mass * price;
    double bus = m->array_bol_w * k->array_usd_per_w + m->bat_kwh * k->battery_usd_per_kwh +
                 m->rad.area_m2 * k->radiator_usd_per_m2 + struct_kg * k->bus_usd_per_kg;
    double insurance = k->insurance_fraction * (launch + bus + k->compute_usd);
    double t_y = now / (365.25 * 86400.0);
    double ground = k->ground_usd_per_year * t_y;
    put(s, "orbital.mass_kg", mass, "kg", "mass in orbit: compute, radiators, arrays, batteries, structure");
    put(s, "orbital.mass_compute_kg", compute_kg, "kg", "mass of the compute nodes");
    put(s, "orbital.mass_radiator_kg", rad_kg, "kg", "mass of the radiators");
    put(s, "orbital.mass_array_kg", arr_kg, "kg", "mass of the solar arrays");
    put(s, "orbital.mass_battery_kg", bat_kg, "kg", "mass of the batteries");
    put(s, "orbital.mass_structure_kg", struct_kg, "kg", "structure, harness, propulsion");
    put(s, "orbital.launch_usd_per_kg", price, "USD/kg", "launch price in the launch year");
    put(s, "orbital.launch_usd", launch, "USD", "launch of the formation");
    put(s, "orbital.bus_usd", bus, "USD", "arrays, batteries, radiators and structure");
    put(s, "orbital.insurance_usd", insurance, "USD", "launch insurance");
    put(s, "orbital.capex_usd", launch + bus + insurance, "USD",
        "capital in orbit besides the compute: launch, bus, insurance (amortised by the cost model)");
    put(s, "orbital.opex_usd", ground, "USD", "ground segment over the window");
    put(s, "orbital.life_years", k->life_years, "yr", "mission life over which the orbital capital is amortised");
    put(s, "orbital.ground_gb_per_day", m->ground_gb_per_day, "GB/day", "data the ground links carry a day");
    put(s, "orbital.ground_checkpoint_gb", m->ckpt_gb, "GB", "size of a checkpoint");
    put(s, "orbital.ground_checkpoint_interval_h", m->ground_ckpt_h, "h",
        "shortest interval between checkpoints exported to the ground (durable copies)");
    put(s, "orbital.ground_latency_ms", m->latency_ms, "ms", "one-way latency to the ground");
}

static void orbital_destroy(void *state)
{
    orbital *m = state;
    free(m->shed_nodes);
}

static void orbital_finish(void *state, dc_sim *sim)
{
    orbital *m = state;
    if (!m->enabled)
        return;
    m->busy = true;
    advance(m);
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    const double kwh = 3.6e6;
    put(s, "orbital.period_min", m->period_s / 60.0, "min", "orbital period");
    put(s, "orbital.inclination_deg", dc_orbit_sso_inclination_rad(m->alt_km) * 180.0 / M_PI, "deg",
        "sun-synchronous inclination");
    put(s, "orbital.eclipses", (double)m->n_eclipses, "", "orbits with an eclipse");
    put(s, "orbital.eclipse_days", (double)m->eclipse_days, "days", "days with at least one eclipse (the eclipse season)");
    put(s, "orbital.eclipse_h", m->eclipse_s / 3600.0, "h", "time in the Earth's shadow");
    put(s, "orbital.max_eclipse_min", m->max_eclipse_s / 60.0, "min", "longest eclipse");
    put(s, "orbital.sunlit_fraction", now > 0 ? m->sun_s / now : NAN, "", "share of the time in sunlight");
    put(s, "orbital.array_bol_kw", m->array_bol_w / 1e3, "kW", "solar array output at beginning of life (whole formation)");
    put(s, "orbital.array_energy_kwh", m->e_array_j / kwh, "kWh", "energy the arrays could deliver");
    put(s, "orbital.spilled_kwh", m->e_spill_j / kwh, "kWh", "array energy neither used nor stored (battery full)");
    put(s, "orbital.load_energy_kwh", m->e_load_j / kwh, "kWh", "energy of the load: IT, conversion, buses");
    put(s, "orbital.unmet_kwh", m->e_unmet_j / kwh, "kWh", "energy the load needed that neither array nor battery gave");
    put(s, "orbital.battery_kwh", m->bat_kwh, "kWh", "battery capacity (whole formation)");
    put(s, "orbital.battery_min_soc", m->min_soc, "", "lowest state of charge");
    put(s, "orbital.battery_floor_events", (double)m->n_floor, "", "times the battery reached its depth-of-discharge floor");
    put(s, "orbital.power_limited_h", m->power_lim_s / 3600.0, "h", "time compute was limited by the power available");
    put(s, "orbital.shed_events", (double)m->n_shed_events, "", "times every node was switched off for lack of power");
    put(s, "orbital.shed_h", m->shed_s / 3600.0, "h", "time switched off for lack of power");
    put(s, "orbital.heat_limited_h", m->heat_lim_s / 3600.0, "h", "time compute was limited by the radiators");
    put(s, "orbital.heat_throttle_events", (double)m->n_hot, "", "times the radiator reached max_temp_c");
    put(s, "orbital.radiator_mean_c", now > 0 ? m->temp_int / now - 273.15 : m->temp_k - 273.15, "C",
        "time-mean radiator temperature");
    put(s, "orbital.radiator_max_c", m->max_k_seen - 273.15, "C", "highest radiator temperature");
    put(s, "orbital.radiator_m2", m->rad.area_m2, "m2", "radiator area (whole formation, one face)");
    put(s, "orbital.rejected_kwh", m->e_rej_j / kwh, "kWh", "heat emitted by the radiators");
    put(s, "orbital.radiator_tau_h", dc_radiator_time_constant_s(&m->rad, m->max_k) / 3600.0, "h",
        "radiator time constant at max_temp_c");
    put(s, "orbital.isl_speed", m->isl_speed, "", "job speed factor from the inter-satellite gradient exchange");
    write_cost(m, s, now);
    m->busy = false;
}

const dc_model_type dc_model_orbital = {
    .name = "orbital",
    .state_size = sizeof(orbital),
    .params = dc_orbital_params,
    .init = orbital_init,
    .start = orbital_start,
    .finish = orbital_finish,
    .destroy = orbital_destroy,
};
