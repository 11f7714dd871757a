/* The cooling model: plant capacity, COP, unit failures, the inlet temperature and thermal
 * throttling.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The cooling model (see cooling.h).
 *
 * A small hybrid automaton on the inlet temperature T:
 *   NORMAL    T below throttle_c, no limit; an event is planned where T
 *             reaches throttle_c;
 *   HOLD      T held at throttle_c: IT power limited to Q_out(throttle_c);
 *   HOT       even the lowest clocks give too much heat: GPUs at their
 *             lowest clocks, T moves; events where it reaches shutdown_c
 *             (rising) or throttle_c (falling);
 *   SHUTDOWN  every node down; an event where T falls to resume_c.
 * Every change (heat load, units, outdoor temperature, a crossing) first
 * advances T with the closed forms under the conditions that held since the
 * last change, then settles the mode and plans the next crossing.
 *
 * The thermal shutdown goes through dc_cluster_fail with class_id -1 (no
 * class of the scenario's failures list): the job is interrupted as by a
 * failure and the repair model ignores it (its failure handler skips
 * class_id < 0); this model brings the nodes back itself.
 *
 * Type defaults ("auto"), all assumptions to be replaced by a site's data:
 *             supply rise  tau    throttle shutdown resume  COP  COP_min free COP free below
 *   air        20    7     180 s   32       40       27      3.0  1.5     12       12 C
 *   liquid     30   10     600 s   45       55       40      5.0  2.5     25       25 C
 *   immersion  35   10    3600 s   50       60       45      5.5  2.5     30       30 C
 * Air: ASHRAE TC 9.9 Thermal Guidelines (2021): recommended inlet 18-27 C,
 * class A1 allowable up to 32 C (the throttle); shutdown at 40 C (class A3
 * allowable) is an assumption.  Liquid: ASHRAE facility-water classes W32
 * and W45 (supply 30 C, throttle 45 C).  COPs: chosen so that a temperate
 * site lands near the PUE of about 1.3 (air) and 1.1 (liquid) that the
 * planning notes quote; mechanical COP falls about 0.08 per degree of
 * outdoor temperature (a Carnot-like lift); free cooling (air-side
 * economiser; dry coolers for warm water) needs the outdoor air some
 * degrees below the supply temperature. */
#include "cooling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"
#include "cluster.h"
#include "thermal_aging.h"
#include "dist.h"
#include "environment.h"
#include "law_params.h"
#include "power.h"

const dc_param dc_cooling_params[] = {
    {"cooling", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "the cooling plant and the inlet temperature; needs power; absent: no cooling power, no thermal limits"},
    {"cooling.type", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, "air|liquid|immersion",
     "air (CRAH/chillers), liquid (direct-to-chip, warm water) or immersion; sets the \"auto\" values"},
    {"cooling.capacity_kw", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "kW", 0, NULL, 0, 1e8, NULL,
     "heat the plant removes with every unit in service"},
    {"cooling.units", DC_PARAM_INT, 0, "", 1, NULL, 1, 100000, NULL,
     "units sharing the capacity evenly (a failed unit removes its share; N+1: add one)"},
    {"cooling.supply_c", DC_PARAM_FLOAT, DC_PARAM_AUTO, "C", 0, "auto", -20, 80, NULL,
     "supply temperature: the inlet at no heat load (auto: air 20, liquid 30, immersion 35)"},
    {"cooling.rise_c", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "C", 0, "auto", 0, 60, NULL,
     "inlet rise above the supply when the plant runs at its available capacity (auto: air 7, else 10)"},
    {"cooling.time_constant_s", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "s", 0, "auto", 0, 1e7,
     NULL, "first-order time constant of the inlet temperature with every unit up (auto: 180, 600, 3600)"},
    {"cooling.throttle_c", DC_PARAM_FLOAT, DC_PARAM_AUTO, "C", 0, "auto", -20, 150, NULL,
     "inlet temperature at which GPUs throttle to hold it (auto: 32, 45, 50)"},
    {"cooling.shutdown_c", DC_PARAM_FLOAT, DC_PARAM_AUTO, "C", 0, "auto", -20, 150, NULL,
     "inlet temperature at which every node shuts down (auto: 40, 55, 60)"},
    {"cooling.resume_c", DC_PARAM_FLOAT, DC_PARAM_AUTO, "C", 0, "auto", -20, 150, NULL,
     "inlet temperature at which shut-down nodes come back (auto: supply + rise)"},
    {"cooling.cop", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "", 0, "auto", 0, 100, NULL,
     "mechanical COP (heat removed / electricity) at cop_ref_c outdoors (auto: 3.0, 5.0, 5.5)"},
    {"cooling.cop_ref_c", DC_PARAM_FLOAT, 0, "C", 35, NULL, -50, 80, NULL, "outdoor temperature at which cop holds"},
    {"cooling.cop_per_c", DC_PARAM_FLOAT, 0, "1/C", 0.08, NULL, 0, 10, NULL,
     "loss of mechanical COP per degree of outdoor temperature (gain below cop_ref_c)"},
    {"cooling.cop_min", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "", 0, "auto", 0, 100, NULL,
     "lowest mechanical COP, on the hottest days (auto: 1.5, 2.5, 2.5)"},
    {"cooling.free_cooling_cop", DC_PARAM_FLOAT, DC_PARAM_AUTO | DC_PARAM_MIN_EXCLUSIVE, "", 0, "auto", 0, 1000,
     NULL, "COP in free cooling: fans and pumps only (auto: 12, 25, 30)"},
    {"cooling.free_cooling_below_c", DC_PARAM_FLOAT, DC_PARAM_AUTO, "C", 0, "auto", -100, 80, NULL,
     "outdoor temperature below which free cooling carries the whole load (auto: 12, 25, 30)"},
    {"cooling.free_cooling_band_c", DC_PARAM_FLOAT, 0, "C", 5, NULL, 0, 50, NULL,
     "range above free_cooling_below_c over which mechanical cooling takes over"},
    {"cooling.derate_per_c", DC_PARAM_FLOAT, 0, "1/C", 0, NULL, 0, 1, NULL,
     "fraction of capacity lost per degree of outdoor temperature above design_ambient_c"},
    {"cooling.design_ambient_c", DC_PARAM_FLOAT, 0, "C", 35, NULL, -50, 80, NULL,
     "outdoor temperature up to which the plant keeps its full capacity"},
    {"cooling.step_s", DC_PARAM_FLOAT, 0, "s", 900, NULL, 1, 86400, NULL,
     "step at which the outdoor temperature (COP, derating) is updated and the inlet sampled"},
    {"cooling.failure", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "time between failures of one unit; absent: units never fail"},
    {"cooling.failure.mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0, 1e12,
     NULL, "mean time between failures of one unit"},
    {"cooling.failure.afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL, 0, 1e6,
     NULL, "annualised failure rate of one unit (instead of mtbf_h)"},
    DC_LAW_PARAMS("cooling.failure", "exponential", "time between failures of one cooling unit"),
    {"cooling.repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "repair time of a cooling unit (needed with cooling.failure)"},
    DC_LAW_PARAMS("cooling.repair", "exponential", "repair time of a cooling unit"),
    {0},
};

enum ctype { AIR, LIQUID, IMMERSION };
static const struct type_defaults {
    const char *name;
    double supply, rise, tau, throttle, shutdown, cop, cop_min, free_cop, free_below;
} type_defaults[] = {
    {"air", 20, 7, 180, 32, 40, 3.0, 1.5, 12, 12},
    {"liquid", 30, 10, 600, 45, 55, 5.0, 2.5, 25, 25},
    {"immersion", 35, 10, 3600, 50, 60, 5.5, 2.5, 30, 30},
};

enum mode { MODE_NORMAL, MODE_HOLD, MODE_HOT, MODE_SHUTDOWN };
enum cross_kind { CROSS_THROTTLE, CROSS_SHUTDOWN, CROSS_RESUME };

struct dc_cooling {
    dc_sim *sim;
    dc_cluster *c;
    dc_power *power;
    dc_environment *env;
    bool enabled, started, busy;

    double capacity_w, rise_c, supply_c, tau_s, capacitance;
    int units, up;
    double derate_per_c, design_ambient_c;
    dc_cop_law cop;
    double throttle_c, shutdown_c, resume_c, step_s;
    bool fails;
    dc_dist fail_law, repair_law;
    gsl_rng *rng_fail, *rng_repair;

    /* state since last_s */
    enum mode mode;
    double t_c, last_s, heat_w, avail_w, amb_c, cop_now, cooling_w;
    bool heat_quiet; /* quiet(heat_w) known true (update set heat_w so; cleared where heat_w or avail_w change otherwise) */
    uint32_t *shut;
    size_t n_shut, shut_cap;
    int down_reason; /* gpu_hours.heat_shutdown */
    dc_event_handle cross_ev;
    double em_dt[2], em_tau[2], em_val[2]; /* remembered expm1(-dt/tau) */
    /* constants of the run and of avail_w (set_avail), as the closed forms
     * compute them: supply_c + rise_c, throttle_c - 1e-9 (quiet), and the
     * conductance avail_w / rise_c with its time constant capacitance / g */
    double sat_c, quiet_c, g_now, tau_now;

    /* integrals */
    double temp_int, amb_int, heat_removed_j, free_s, hot_s, shutdown_s, unit_down_s, shut_node_s;
    double shut_gpus, shut_gpu_s; /* the shut nodes' GPUs (CPU-only nodes have none), and x time */
    double max_t_c, max_amb_c;
    uint64_t n_throttle, n_shutdowns, n_unit_failures;

    dc_series *s_inlet, *s_amb, *s_cap, *s_units, *s_cop;
    bool rec; /* any of them records (else the hourly steps skip the calls; known at the start) */
    dc_thermal_aging aging;
};

dc_cooling *dc_cooling_of(dc_sim *sim)
{
    dc_cooling *m = dc_sim_model(sim, "cooling");
    return m && m->enabled ? m : NULL;
}

/* ---------- closed forms ---------- */

double dc_cop(const dc_cop_law *law, double t)
{
    double mech = law->cop - law->per_c * (t - law->ref_c);
    if (mech < law->min)
        mech = law->min;
    if (t <= law->free_below_c)
        return law->free_cop;
    if (t >= law->free_below_c + law->band_c)
        return mech;
    double w = (t - law->free_below_c) / law->band_c;
    return 1.0 / ((1.0 - w) / law->free_cop + w / mech);
}

/* T(t) = Tss + (T0 - Tss) e^(-t/tau) over dt, with its integral. */
static double exp_piece(double t0, double tss, double tau, double dt, double *integral)
{
    double em1 = expm1(-dt / tau); /* e^(-dt/tau) - 1 */
    *integral += tss * dt - (t0 - tss) * tau * em1;
    return tss + (t0 - tss) * (1.0 + em1);
}

static double ramp_piece(double t0, double k, double dt, double *integral)
{
    *integral += t0 * dt + 0.5 * k * dt * dt;
    return t0 + k * dt;
}

double dc_thermal_at(const dc_thermal *th, double t0, double dt, double *integral)
{
    double dummy = 0.0, *in = integral ? integral : &dummy;
    *in = 0.0;
    if (!(dt > 0.0))
        return t0;
    double c = th->capacitance_j_per_k, q = th->heat_w, qa = th->capacity_w;
    double sat = th->supply_c + th->rise_c;
    if (qa <= 0.0)
        return ramp_piece(t0, q / c, dt, in);
    double g = qa / th->rise_c, tau = c / g, tss = th->supply_c + q / g;
    if (t0 <= sat) {
        if (tss <= sat)
            return exp_piece(t0, tss, tau, dt, in);
        double t1 = tau * log((tss - t0) / (tss - sat));
        if (dt <= t1)
            return exp_piece(t0, tss, tau, dt, in);
        exp_piece(t0, tss, tau, t1, in);
        return ramp_piece(sat, (q - qa) / c, dt - t1, in);
    }
    double k = (q - qa) / c;
    if (k >= 0.0)
        return ramp_piece(t0, k, dt, in);
    double t1 = (t0 - sat) / -k;
    if (dt <= t1)
        return ramp_piece(t0, k, dt, in);
    ramp_piece(t0, k, t1, in);
    return exp_piece(sat, tss, tau, dt - t1, in);
}

double dc_thermal_cross(const dc_thermal *th, double t0, double x)
{
    if (x == t0)
        return 0.0;
    double c = th->capacitance_j_per_k, q = th->heat_w, qa = th->capacity_w;
    double sat = th->supply_c + th->rise_c;
    if (qa <= 0.0)
        return q > 0.0 && x > t0 ? (x - t0) * c / q : INFINITY;
    double g = qa / th->rise_c, tau = c / g, tss = th->supply_c + q / g;
    if (t0 <= sat) {
        if (tss <= sat) {
            /* monotone towards tss, never reaching it */
            if ((x - t0) * (tss - t0) <= 0.0 || (x - tss) * (t0 - tss) <= 0.0)
                return INFINITY;
            return tau * log((t0 - tss) / (x - tss));
        }
        if (x < t0)
            return INFINITY;
        if (x <= sat)
            return tau * log((tss - t0) / (tss - x));
        return tau * log((tss - t0) / (tss - sat)) + (x - sat) * c / (q - qa);
    }
    double k = (q - qa) / c;
    if (k > 0.0)
        return x > t0 ? (x - t0) / k : INFINITY;
    if (k == 0.0 || x > t0)
        return INFINITY;
    if (x >= sat)
        return (t0 - x) / -k;
    if (x <= tss)
        return INFINITY;
    return (t0 - sat) / -k + tau * log((sat - tss) / (x - tss));
}

/* ---------- the model ---------- */

static double available_w(const dc_cooling *m)
{
    double derate = 1.0 - m->derate_per_c * fmax(0.0, m->amb_c - m->design_ambient_c);
    return m->capacity_w * ((double)m->up / m->units) * fmax(0.0, derate);
}

/* The available capacity now, and what advance derives from it (the
 * values dc_thermal_at computes: g = avail_w / rise_c, tau = C / g). */
static void set_avail(dc_cooling *m)
{
    m->avail_w = available_w(m);
    m->g_now = m->avail_w > 0.0 ? m->avail_w / m->rise_c : 0.0;   /* (used only when above 0) */
    m->tau_now = m->avail_w > 0.0 ? m->capacitance / m->g_now : 0.0;
}

static dc_thermal thermal_now(const dc_cooling *m)
{
    return (dc_thermal){m->supply_c, m->rise_c, m->avail_w, m->capacitance, m->heat_w};
}

/* Heat the plant removes at inlet temperature t. */
static double q_out(const dc_cooling *m, double t)
{
    if (m->avail_w <= 0.0)
        return 0.0;
    double q = m->avail_w * (t - m->supply_c) / m->rise_c;
    return q < m->avail_w ? q : m->avail_w;
}

/* Moves T and the integrals to now under the conditions since last_s
 * (inline in update, the heat load's change at every power refresh;
 * advance out of line for the rest). */
static inline __attribute__((always_inline)) void advance_inline(dc_cooling *m)
{
    double now = dc_sim_now(m->sim), dt = now - m->last_s;
    if (dt > 0.0) {
        double integral = 0.0, t1;
        if (m->mode == MODE_HOLD) {
            t1 = m->throttle_c;
            integral = t1 * dt;
        } else if (m->avail_w > 0.0 && m->heat_w <= m->avail_w && m->t_c <= m->sat_c) {
            /* the common case, inlined: below saturation, exponential; the
             * same intervals recur (checkpoint writes, compute between
             * them), so e^(-dt/tau) - 1 is remembered for the last two */
            double g = m->g_now, tau = m->tau_now, tss = m->supply_c + m->heat_w / g;
            double em1;
            if (dt == m->em_dt[0] && tau == m->em_tau[0]) {
                em1 = m->em_val[0];
            } else if (dt == m->em_dt[1] && tau == m->em_tau[1]) {
                em1 = m->em_val[1];
            } else {
                em1 = expm1(-dt / tau);
                m->em_dt[1] = m->em_dt[0];
                m->em_tau[1] = m->em_tau[0];
                m->em_val[1] = m->em_val[0];
                m->em_dt[0] = dt;
                m->em_tau[0] = tau;
                m->em_val[0] = em1;
            }
            integral = tss * dt - (m->t_c - tss) * tau * em1;
            t1 = tss + (m->t_c - tss) * (1.0 + em1);
        } else {
            dc_thermal th = thermal_now(m);
            t1 = dc_thermal_at(&th, m->t_c, dt, &integral);
        }
        m->temp_int += integral;
        m->amb_int += m->amb_c * dt;
        m->heat_removed_j += (m->heat_w < m->avail_w ? m->heat_w : m->avail_w) * dt;
        if (m->amb_c <= m->cop.free_below_c)
            m->free_s += dt;
        if (m->mode == MODE_HOT)
            m->hot_s += dt;
        else if (m->mode == MODE_SHUTDOWN)
            m->shutdown_s += dt;
        if (m->up != m->units) /* (else each adds +0: the sums are the same) */
            m->unit_down_s += (double)(m->units - m->up) * dt;
        if (m->n_shut > 0) {
            m->shut_node_s += (double)m->n_shut * dt;
            m->shut_gpu_s += m->shut_gpus * dt;
        }
        m->t_c = t1;
        if (t1 > m->max_t_c)
            m->max_t_c = t1;
    }
    m->last_s = now;
}

static __attribute__((noinline)) void advance(dc_cooling *m) { advance_inline(m); }

static void on_cross(dc_sim *sim, void *ctx, uint64_t kind);

static void plan(dc_cooling *m)
{
    dc_sim_cancel(m->sim, &m->cross_ev);
    dc_thermal th = thermal_now(m);
    double t = INFINITY;
    enum cross_kind kind = CROSS_THROTTLE;
    switch (m->mode) {
    case MODE_NORMAL:
        if (m->t_c < m->throttle_c)
            t = dc_thermal_cross(&th, m->t_c, m->throttle_c);
        break;
    case MODE_HOLD:
        break;
    case MODE_HOT: {
        double net = m->heat_w - q_out(m, m->t_c);
        if (net > 0.0) {
            t = dc_thermal_cross(&th, m->t_c, m->shutdown_c);
            kind = CROSS_SHUTDOWN;
        } else if (net < 0.0) {
            t = dc_thermal_cross(&th, m->t_c, m->throttle_c);
        }
        break;
    }
    case MODE_SHUTDOWN:
        t = dc_thermal_cross(&th, m->t_c, m->resume_c);
        kind = CROSS_RESUME;
        break;
    }
    if (isfinite(t))
        m->cross_ev = dc_sim_after(m->sim, t, on_cross, m, kind);
}

/* The plant's capacity and COP changed (units, outdoor temperature). */
static void conditions(dc_cooling *m)
{
    double now = dc_sim_now(m->sim);
    set_avail(m);
    m->heat_quiet = false;
    m->cop_now = dc_cop(&m->cop, m->amb_c);
    if (!m->rec)
        return;
    dc_series_record(m->s_cap, now, m->avail_w);
    dc_series_record(m->s_units, now, (double)m->up);
    dc_series_record(m->s_cop, now, m->cop_now);
}

/* Decides the mode and the heat limit for the conditions of now; sample:
 * record the inlet temperature (it is also recorded when the mode changes;
 * not at every change of heat load, which would cost a point per
 * checkpoint for a curve that the steps already draw). */
static void settle(dc_cooling *m, bool sample)
{
    const double eps = 1e-9;
    double limit = INFINITY;
    enum mode old = m->mode;
    if (m->mode != MODE_SHUTDOWN) {
        double hold_w = q_out(m, m->throttle_c);
        if (m->t_c < m->throttle_c - eps) {
            m->mode = MODE_NORMAL;
        } else if (m->t_c <= m->throttle_c + eps) {
            m->t_c = m->throttle_c;
            if (dc_power_demand_w(m->power) <= hold_w) {
                m->mode = MODE_NORMAL;
            } else if (dc_power_floor_w(m->power) <= hold_w) {
                m->mode = MODE_HOLD;
                limit = hold_w;
            } else {
                m->mode = MODE_HOT;
                limit = 0.0;
            }
        } else {
            m->mode = MODE_HOT;
            limit = 0.0;
        }
    }
    if (m->mode != old)
        sample = true;
    if (old == MODE_NORMAL && (m->mode == MODE_HOLD || m->mode == MODE_HOT)) {
        m->n_throttle++;
        dc_eventlog_add(dc_sim_eventlog(m->sim), dc_sim_now(m->sim), "heat_throttle", "cooling", -1, -1, m->t_c);
    }
    dc_power_set_heat_limit(m->power, limit);
    m->heat_w = dc_power_it_w(m->power);
    m->heat_quiet = false;
    m->cooling_w = fmin(m->heat_w, m->avail_w) / m->cop_now;
    dc_power_set_cooling_w(m->power, m->cooling_w);
    if (sample)
        dc_series_record(m->s_inlet, dc_sim_now(m->sim), m->t_c);
    dc_thermal_aging_update(&m->aging, m->c, m->t_c, dc_sim_now(m->sim));
    plan(m);
}

/* Whether heat q keeps the inlet's steady state below throttle_c, within
 * the available capacity: then no limit can be reached under it. */
static bool quiet(const dc_cooling *m, double q)
{
    return m->avail_w > 0.0 && q <= m->avail_w && m->supply_c + m->rise_c * q / m->avail_w < m->quiet_c;
}

/* A change of heat load.  The common case, far from the limits before and
 * after, needs no new plan: only the temperature moves on and the cooling
 * power follows. */
static void update(dc_cooling *m)
{
    if (!m->started || m->busy)
        return;
    m->busy = true;
    advance_inline(m);
    double q = dc_power_it_w(m->power);
    if (m->mode == MODE_NORMAL && m->cross_ev == DC_EVENT_NONE && (m->heat_quiet || quiet(m, m->heat_w))
        && quiet(m, q)) {
        m->heat_w = q;
        m->heat_quiet = true;
        m->cooling_w = (q < m->avail_w ? q : m->avail_w) / m->cop_now;
        dc_power_set_cooling_w(m->power, m->cooling_w);
    } else {
        settle(m, false);
    }
    m->busy = false;
}

static void on_it_power(dc_sim *sim, void *ctx, const void *payload)
{
    update(ctx);
}

static bool add_shut(dc_cooling *m, uint32_t node)
{
    if (m->n_shut == m->shut_cap) {
        size_t cap = m->shut_cap ? 2 * m->shut_cap : 256;
        uint32_t *g = realloc(m->shut, cap * sizeof *g);
        if (!g) {
            dc_sim_fail(m->sim, DC_ENOMEM, "out of memory shutting nodes down");
            return false;
        }
        m->shut = g;
        m->shut_cap = cap;
    }
    m->shut[m->n_shut++] = node;
    m->shut_gpus += dc_cluster_node_gpus(m->c, node);
    return true;
}

/* Takes the listed nodes down in batches the cluster's failure event holds;
 * their node-time goes to gpu_hours.heat_shutdown. */
static void fail_nodes(dc_cooling *m, const uint32_t *nodes, size_t n)
{
    for (size_t i = 0; i < n; i += 1024)
        dc_cluster_fail(m->c, -1, "heat_shutdown", nodes + i, n - i < 1024 ? n - i : 1024, -1);
    for (size_t i = 0; i < n; i++)
        if (dc_cluster_node_state(m->c, nodes[i]) == DC_NODE_DOWN)
            dc_cluster_set_down_reason(m->c, nodes[i], m->down_reason);
}

/* Every node up goes down: idle ones first, so that a job interrupted by
 * the first batch finds no spare to restart on. */
static void shut_down_all(dc_cooling *m)
{
    size_t first = m->n_shut;
    uint32_t n = dc_cluster_node_count(m->c);
    for (int pass = 0; pass < 2; pass++)
        for (uint32_t i = 0; i < n; i++) {
            dc_node_state st = dc_cluster_node_state(m->c, i);
            if ((pass == 0 && st == DC_NODE_IDLE) || (pass == 1 && st == DC_NODE_BUSY))
                if (!add_shut(m, i))
                    return;
        }
    fail_nodes(m, m->shut + first, m->n_shut - first);
}

static void on_cross(dc_sim *sim, void *ctx, uint64_t kind)
{
    dc_cooling *m = ctx;
    m->cross_ev = DC_EVENT_NONE;
    m->busy = true;
    advance(m);
    dc_eventlog *log = dc_sim_eventlog(sim);
    switch ((enum cross_kind)kind) {
    case CROSS_THROTTLE:
        m->t_c = m->throttle_c;
        break;
    case CROSS_SHUTDOWN:
        m->t_c = m->shutdown_c;
        m->mode = MODE_SHUTDOWN;
        m->n_shutdowns++;
        dc_eventlog_add(log, dc_sim_now(sim), "heat_shutdown", "cooling", -1, -1, m->t_c);
        shut_down_all(m);
        break;
    case CROSS_RESUME:
        m->t_c = m->resume_c;
        m->mode = MODE_NORMAL;
        dc_eventlog_add(log, dc_sim_now(sim), "heat_resume", "cooling", -1, -1, (double)m->n_shut);
        /* back as they were: nothing was replaced (no hazard clock renews) */
        dc_nodes_event back = {.nodes = m->shut, .n_nodes = m->n_shut, .class_id = -1};
        m->n_shut = 0;
        m->shut_gpus = 0.0;
        dc_cluster_returned(m->c, &back);
        break;
    }
    m->max_t_c = fmax(m->max_t_c, m->t_c);
    settle(m, true);
    m->busy = false;
}

/* Nodes repaired while the hall is shut down stay down until it resumes. */
static void on_nodes_up(dc_sim *sim, void *ctx, const void *payload)
{
    dc_cooling *m = ctx;
    if (!m->started || m->mode != MODE_SHUTDOWN)
        return;
    const dc_nodes_event *ev = payload;
    size_t first = m->n_shut;
    for (size_t i = 0; i < ev->n_nodes; i++)
        if (dc_cluster_node_state(m->c, ev->nodes[i]) != DC_NODE_DOWN && !add_shut(m, ev->nodes[i]))
            return;
    bool was = m->busy;
    m->busy = true;
    fail_nodes(m, m->shut + first, m->n_shut - first);
    m->busy = was;
}

static void on_step(dc_sim *sim, void *ctx, uint64_t k)
{
    dc_cooling *m = ctx;
    m->busy = true;
    advance(m);
    double mid = ((double)k + 0.5) * m->step_s;
    m->amb_c = m->env ? dc_environment_ambient_c(m->env, mid) : DC_ENVIRONMENT_DEFAULT_AMBIENT_C;
    m->max_amb_c = fmax(m->max_amb_c, m->amb_c);
    if (m->rec)
        dc_series_record(m->s_amb, dc_sim_now(sim), m->amb_c);
    conditions(m);
    if (m->mode == MODE_NORMAL && m->cross_ev == DC_EVENT_NONE && quiet(m, m->heat_w)) {
        /* far from the limits: only the cooling power and the sample */
        m->cooling_w = (m->heat_w < m->avail_w ? m->heat_w : m->avail_w) / m->cop_now;
        dc_power_set_cooling_w(m->power, m->cooling_w);
        if (m->rec)
            dc_series_record(m->s_inlet, dc_sim_now(sim), m->t_c);
        dc_thermal_aging_update(&m->aging, m->c, m->t_c, dc_sim_now(sim));
    } else {
        settle(m, true);
    }
    m->busy = false;
    dc_sim_at(sim, (double)(k + 1) * m->step_s, on_step, m, k + 1);
}

bool dc_cooling_unit_down(dc_cooling *m)
{
    if (m->up == 0)
        return false;
    bool was = m->busy;
    m->busy = true;
    advance(m);
    m->up--;
    m->n_unit_failures++;
    dc_eventlog_add(dc_sim_eventlog(m->sim), dc_sim_now(m->sim), "cooling_fail", "cooling", m->units - m->up, -1,
                    (double)m->up);
    conditions(m);
    settle(m, true);
    m->busy = was;
    return true;
}

bool dc_cooling_unit_up(dc_cooling *m)
{
    if (m->up == m->units)
        return false;
    bool was = m->busy;
    m->busy = true;
    advance(m);
    m->up++;
    dc_eventlog_add(dc_sim_eventlog(m->sim), dc_sim_now(m->sim), "cooling_repair", "cooling", -1, -1, (double)m->up);
    conditions(m);
    settle(m, true);
    m->busy = was;
    return true;
}

double dc_cooling_inlet_c(dc_cooling *m)
{
    if (!m->busy)
        advance(m);
    return m->t_c;
}

static void on_unit_repaired(dc_sim *sim, void *ctx, uint64_t unit);

static void on_unit_failed(dc_sim *sim, void *ctx, uint64_t unit)
{
    dc_cooling *m = ctx;
    dc_cooling_unit_down(m);
    dc_sim_after(sim, dc_dist_sample(&m->repair_law, m->rng_repair), on_unit_repaired, m, unit);
}

static void on_unit_repaired(dc_sim *sim, void *ctx, uint64_t unit)
{
    dc_cooling *m = ctx;
    dc_cooling_unit_up(m);
    dc_sim_after(sim, dc_dist_sample(&m->fail_law, m->rng_fail), on_unit_failed, m, unit);
}

/* ---------- setup ---------- */

/* A float key that may be "auto" (then def). */
static double auto_float(const config_setting_t *g, const char *key, double def)
{
    config_setting_t *s = dc_cfg_member(g, key);
    if (!s || config_setting_type(s) == CONFIG_TYPE_STRING)
        return def;
    return config_setting_get_float(s);
}

static int cooling_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_cooling *m = state;
    m->sim = sim;
    config_setting_t *g = dc_scenario_lookup(sc, "cooling");
    if (!g)
        return DC_OK;
    m->power = dc_power_of(sim);
    if (!m->power)
        return dc_scenario_error_at(sc, g, err, "cooling needs a power section (its heat load is the IT power)");
    m->enabled = true;
    m->c = dc_cluster_of(sim);
    int aging_rc = dc_thermal_aging_read(&m->aging, sc, err);
    if (aging_rc != DC_OK)
        return aging_rc;
    m->env = dc_environment_of(sim);
    const char *type = "liquid";
    dc_cfg_lookup_string(g, "type", &type);
    const struct type_defaults *d = &type_defaults[LIQUID];
    for (size_t i = 0; i < sizeof type_defaults / sizeof type_defaults[0]; i++)
        if (strcmp(type, type_defaults[i].name) == 0)
            d = &type_defaults[i];
    double cap_kw = 0;
    dc_cfg_lookup_float(g, "capacity_kw", &cap_kw);
    m->capacity_w = cap_kw * 1e3;
    dc_cfg_lookup_int(g, "units", &m->units);
    m->up = m->units;
    m->supply_c = auto_float(g, "supply_c", d->supply);
    m->rise_c = auto_float(g, "rise_c", d->rise);
    m->tau_s = auto_float(g, "time_constant_s", d->tau);
    m->throttle_c = auto_float(g, "throttle_c", d->throttle);
    m->shutdown_c = auto_float(g, "shutdown_c", d->shutdown);
    m->resume_c = auto_float(g, "resume_c", m->supply_c + m->rise_c);
    m->cop.cop = auto_float(g, "cop", d->cop);
    m->cop.ref_c = auto_float(g, "cop_ref_c", 35);
    m->cop.per_c = auto_float(g, "cop_per_c", 0.08);
    m->cop.min = auto_float(g, "cop_min", d->cop_min);
    m->cop.free_cop = auto_float(g, "free_cooling_cop", d->free_cop);
    m->cop.free_below_c = auto_float(g, "free_cooling_below_c", d->free_below);
    m->cop.band_c = auto_float(g, "free_cooling_band_c", 5);
    m->derate_per_c = auto_float(g, "derate_per_c", 0);
    m->design_ambient_c = auto_float(g, "design_ambient_c", 35);
    m->step_s = auto_float(g, "step_s", 900);
    m->capacitance = m->capacity_w / m->rise_c * m->tau_s;
    m->sat_c = m->supply_c + m->rise_c;
    m->quiet_c = m->throttle_c - 1e-9;

    if (!(m->throttle_c > m->supply_c))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "throttle_c"), err,
                                    "the throttle temperature (%g C) must be above the supply temperature (%g C)",
                                    m->throttle_c, m->supply_c);
    if (!(m->shutdown_c > m->throttle_c))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "shutdown_c"), err,
                                    "the shutdown temperature (%g C) must be above the throttle temperature (%g C)",
                                    m->shutdown_c, m->throttle_c);
    if (!(m->resume_c > m->supply_c && m->resume_c < m->throttle_c))
        return dc_scenario_error_at(sc, dc_cfg_member(g, "resume_c"), err,
                                    "the resume temperature (%g C) must lie between supply_c (%g C) and throttle_c (%g C)",
                                    m->resume_c, m->supply_c, m->throttle_c);

    config_setting_t *fg = dc_cfg_member(g, "failure");
    config_setting_t *rg = dc_cfg_member(g, "repair");
    if (fg) {
        if (!rg)
            return dc_scenario_error_at(sc, fg, err, "cooling units that fail need a repair law (cooling.repair)");
        int rc = dc_dist_from_setting(sc, fg, &m->fail_law, err);
        if (rc == DC_OK)
            rc = dc_dist_from_setting(sc, rg, &m->repair_law, err);
        if (rc != DC_OK)
            return rc;
        m->fails = true;
        m->rng_fail = dc_sim_rng(sim, "cooling.failure");
        m->rng_repair = dc_sim_rng(sim, "cooling.repair");
        if (!m->rng_fail || !m->rng_repair)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    } else if (rg) {
        return dc_scenario_error_at(sc, rg, err, "a repair law without cooling.failure is never used");
    }

    m->down_reason = dc_cluster_down_reason(m->c, "heat_shutdown");
    if (m->down_reason < 0)
        return dc_error_set(err, DC_ENOMEM, "no room for the cluster's down reason heat_shutdown");
    m->s_inlet = dc_sim_series(sim, "temp_inlet_c", "C", "inlet temperature (sampled at changes and every step)");
    m->s_amb = dc_sim_series(sim, "temp_ambient_c", "C", "outdoor temperature held over each step");
    m->s_cap = dc_sim_series(sim, "cooling_capacity_w", "W", "heat the plant can remove now");
    m->s_units = dc_sim_series(sim, "cooling_units_up", "", "cooling units in service");
    m->s_cop = dc_sim_series(sim, "cop", "", "coefficient of performance of the plant");
    int sig_it = dc_sim_signal(sim, "it_power"), sig_up = dc_sim_signal(sim, "nodes_up");
    if (!m->s_inlet || !m->s_amb || !m->s_cap || !m->s_units || !m->s_cop || sig_it < 0 || sig_up < 0
        || dc_sim_subscribe(sim, sig_it, on_it_power, m) != DC_OK
        || dc_sim_subscribe(sim, sig_up, on_nodes_up, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int cooling_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_cooling *m = state;
    if (!m->enabled)
        return DC_OK;
    /* (the series are switched on or off before the run starts) */
    m->rec = dc_series_recording(m->s_inlet) || dc_series_recording(m->s_amb) || dc_series_recording(m->s_cap)
             || dc_series_recording(m->s_units) || dc_series_recording(m->s_cop);
    m->amb_c = m->env ? dc_environment_ambient_c(m->env, 0.5 * m->step_s) : DC_ENVIRONMENT_DEFAULT_AMBIENT_C;
    m->max_amb_c = m->amb_c;
    set_avail(m);
    m->heat_quiet = false;
    m->cop_now = dc_cop(&m->cop, m->amb_c);
    m->heat_w = dc_power_it_w(m->power);
    /* equilibrium with the first heat load */
    m->t_c = m->avail_w > 0.0 && m->heat_w < m->avail_w ? m->supply_c + m->rise_c * m->heat_w / m->avail_w
                                                         : m->supply_c + m->rise_c;
    m->max_t_c = m->t_c;
    m->mode = MODE_NORMAL;
    m->started = true;
    dc_thermal_aging_update(&m->aging, m->c, m->t_c, 0.0);
    m->busy = true;
    dc_series_record(m->s_amb, 0.0, m->amb_c);
    conditions(m);
    settle(m, true);
    m->busy = false;
    dc_sim_at(sim, m->step_s, on_step, m, 1);
    if (m->fails)
        for (int u = 0; u < m->units; u++)
            dc_sim_after(sim, dc_dist_sample(&m->fail_law, m->rng_fail), on_unit_failed, m, (uint64_t)u);
    return DC_OK;
}

static void cooling_finish(void *state, dc_sim *sim)
{
    dc_cooling *m = state;
    if (!m->enabled)
        return;
    advance(m);
    dc_summary *s = dc_sim_summary(sim);
    double now = dc_sim_now(sim);
    if (m->aging.law != DC_THERMAL_NONE)
        dc_summary_set(s, "cooling.failure_acceleration_mean", dc_thermal_aging_mean(&m->aging, now), "",
                       "time-averaged factor on the thermal failure classes' rates");
    double cool_j = 0.0;
    dc_summary_get(s, "power.cooling_energy_kwh", &cool_j);
    cool_j *= 3.6e6;
    dc_summary_set(s, "cooling.heat_removed_kwh", m->heat_removed_j / 3.6e6, "kWh", "heat removed by the plant");
    dc_summary_set(s, "cooling.mean_cop", cool_j > 0 ? m->heat_removed_j / cool_j : NAN, "",
                   "heat removed / cooling energy");
    dc_summary_set(s, "cooling.free_cooling_h", m->free_s / 3600.0, "h", "time in full free cooling");
    dc_summary_set(s, "cooling.mean_ambient_c", now > 0 ? m->amb_int / now : m->amb_c, "C", "mean outdoor temperature");
    dc_summary_set(s, "cooling.max_ambient_c", m->max_amb_c, "C", "highest outdoor temperature (held per step)");
    dc_summary_set(s, "cooling.mean_inlet_c", now > 0 ? m->temp_int / now : m->t_c, "C", "time-mean inlet temperature");
    dc_summary_set(s, "cooling.max_inlet_c", m->max_t_c, "C", "highest inlet temperature");
    dc_summary_set(s, "cooling.throttle_events", (double)m->n_throttle, "", "times the inlet reached throttle_c");
    dc_summary_set(s, "cooling.overheat_h", m->hot_s / 3600.0, "h",
                   "time above throttle_c with the GPUs at their lowest clocks");
    dc_summary_set(s, "cooling.shutdowns", (double)m->n_shutdowns, "", "thermal shutdowns of the hall");
    dc_summary_set(s, "cooling.shutdown_h", m->shutdown_s / 3600.0, "h", "time shut down by heat");
    double shut_gpu_s = dc_cluster_cpu_node_count(m->c) > 0 ? m->shut_gpu_s /* CPU-only nodes: no GPUs */
                                                           : m->shut_node_s * dc_cluster_gpus_per_node(m->c);
    dc_summary_set(s, "cooling.shutdown_gpu_h", shut_gpu_s / 3600.0, "GPU-h",
                   "GPU-hours of nodes shut down by heat (= gpu_hours.heat_shutdown)");
    dc_summary_set(s, "cooling.unit_failures", (double)m->n_unit_failures, "", "cooling unit failures");
    dc_summary_set(s, "cooling.unit_down_h", m->unit_down_s / 3600.0, "unit-h", "unit-hours out of service");
}

static void cooling_destroy(void *state)
{
    dc_cooling *m = state;
    free(m->shut);
    dc_thermal_aging_free(&m->aging);
}

const dc_model_type dc_model_cooling = {
    .name = "cooling",
    .state_size = sizeof(dc_cooling),
    .params = dc_cooling_params,
    .init = cooling_init,
    .start = cooling_start,
    .finish = cooling_finish,
    .destroy = cooling_destroy,
};
