/* The cooling plant and the temperature the GPUs breathe: capacity, COP, failures, thermal lag,
 * throttling.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The cooling plant and the temperature the GPUs breathe: capacity, COP
 * against the outdoor temperature with free cooling, unit failures and
 * repairs, a first-order thermal model of the inlet temperature, thermal
 * throttling and shutdown.  Needs the power model (its IT power is the heat
 * load); absent `cooling` section: no cooling power, no thermal limits.
 *
 * Plant: `units` identical units share capacity_kw (the heat they remove
 * with all units in service); a failed unit removes its share.  Above
 * design_ambient_c the capacity falls by derate_per_c per degree (dry
 * coolers and condensers reject less heat into hotter air).  Available:
 *   Q_a = capacity x (units up / units) x max(0, 1 - derate_per_c max(0, T_amb - design_ambient_c)).
 *
 * Inlet temperature T (cold-aisle air for "air", facility water at the cold
 * plates for "liquid", the bath for "immersion") of one well-mixed thermal
 * mass C, heated by the IT power Q and cooled by the plant:
 *   C dT/dt = Q - Q_out(T),   Q_out(T) = min(G_a (T - T_supply), Q_a),   G_a = Q_a / rise
 * so the plant removes heat in proportion to the inlet's excess over the
 * supply temperature (a heat exchanger of conductance G_a) until it runs at
 * its available capacity, which it reaches when the inlet is `rise` above
 * the supply (T_sat = supply_c + rise_c).  C = (capacity / rise) x
 * time_constant_s: with all units up the inlet answers a change of heat
 * load as a first-order system of time constant time_constant_s,
 *   T(t) = T_ss + (T(0) - T_ss) e^(-t / tau),  T_ss = T_supply + Q / G_a,
 *   tau = C / G_a   (longer with units down),
 * and above T_sat (heat beyond the available capacity) it rises linearly,
 * dT/dt = (Q - Q_a) / C.  These closed forms are used between events, so
 * the temperature and the crossing times of the limits are exact.  The run
 * starts in equilibrium with its first heat load (at T_sat if the plant
 * cannot hold it).
 *
 * Limits: at throttle_c the GPUs of computing jobs throttle just enough to
 * hold the inlet there (IT power limited to Q_out(throttle_c), through the
 * power model's heat limit: the cost is gpu_hours.thermal); when even their
 * lowest clocks give more heat than that, the inlet keeps rising with the
 * GPUs at their lowest clocks, and at shutdown_c every node shuts down
 * (running jobs are interrupted as by a failure; the nodes are down for
 * the reason "heat_shutdown", whose node-time is the GPU-hour line
 * gpu_hours.heat_shutdown, and no crew repairs them) until the inlet has
 * fallen to resume_c.
 *
 * Cooling power (electrical): the heat the plant removes in quasi-steady
 * state, min(Q, Q_a), divided by the COP.  (The heat stored in C by a
 * transient, C x dT, is neglected: a few kWh against MWh.)  COP against the
 * outdoor temperature T_amb:
 *   mechanical  COP_m = max(cop_min, cop - cop_per_c (T_amb - cop_ref_c))
 *   free        COP_f = free_cooling_cop for T_amb <= free_cooling_below_c
 *   in between (a band of free_cooling_band_c) 1/COP blends linearly from
 *   1/COP_f to 1/COP_m (a partial economiser).
 * The outdoor temperature, the COP and the derating are held for each step
 * of step_s at their value in the middle of the step (the midpoint rule);
 * the steps also sample the inlet temperature for its series.
 *
 * Defaults by type ("auto"): see dc_cooling_defaults in cooling.c and the
 * key reference; they are assumptions with sources given there.
 *
 * Cooling units fail and are repaired by their own laws (cooling.failure,
 * cooling.repair; random streams "cooling.failure" and "cooling.repair"),
 * each unit independently, no crew limit.
 *
 * Series: temp_inlet_c, temp_ambient_c, cooling_capacity_w (available),
 * cooling_units_up, cop.  Summary: cooling.*. */
#ifndef DC_COOLING_H
#define DC_COOLING_H

#include <stdbool.h>

#include "sim.h"

typedef struct dc_cooling dc_cooling;

extern const dc_model_type dc_model_cooling;
extern const dc_param dc_cooling_params[];

/* The cooling model of sim, or NULL when the scenario has no cooling section. */
dc_cooling *dc_cooling_of(dc_sim *sim);

/* Current inlet temperature (C), advanced to now. */
double dc_cooling_inlet_c(dc_cooling *m);
/* Takes one unit out of service, or returns one (fault injection for tests
 * and scripted scenarios; the model's own failures use the same path).
 * false when none is up (down) or none is down (up). */
bool dc_cooling_unit_down(dc_cooling *m);
bool dc_cooling_unit_up(dc_cooling *m);

/* The thermal closed forms, for tests.  A plant state with heat Q_w: */
typedef struct dc_thermal {
    double supply_c, rise_c;   /* T_sat = supply + rise */
    double capacity_w;         /* Q_a, available */
    double capacitance_j_per_k; /* C */
    double heat_w;             /* Q */
} dc_thermal;
/* Temperature after dt_s from t0_c; *integral (may be NULL) gets the
 * integral of T over the interval (C s). */
double dc_thermal_at(const dc_thermal *th, double t0_c, double dt_s, double *integral);
/* Time until the temperature reaches x_c from t0_c (INFINITY if never). */
double dc_thermal_cross(const dc_thermal *th, double t0_c, double x_c);
/* COP at outdoor temperature t_amb_c (cop parameters as in the scenario). */
typedef struct dc_cop_law {
    double cop, ref_c, per_c, min, free_cop, free_below_c, band_c;
} dc_cop_law;
double dc_cop(const dc_cop_law *law, double t_amb_c);

#endif
