/* A battery between a solar array and a load (energy bookkeeping).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A battery between a solar array and a load (energy bookkeeping).
 *
 * State of charge E in [E_min, E_cap], E_min = E_cap (1 - depth of discharge).
 * Over dt with array power P_in and load P_out (both constant):
 *   surplus s = P_in - P_out >= 0: E += eta_c s dt, up to E_cap (the rest
 *   is spilled: the array is curtailed);
 *   deficit d = P_out - P_in > 0: E -= d dt / eta_d, down to E_min; what the
 *   battery cannot supply is unmet (the load must throttle or shed).
 *   Time to reach E_min at deficit d: (E - E_min) eta_d / d. */
#ifndef DC_BATTERY_H
#define DC_BATTERY_H

typedef struct dc_battery {
    double capacity_j;
    double charge_j;
    double min_charge_j;
    double charge_eff;
    double discharge_eff;
} dc_battery;

/* Applies net power (array minus load) for dt_s; returns the energy (J) the
 * load asked for and did not get (0 when the battery kept up). */
double dc_battery_apply(dc_battery *b, double net_w, double dt_s);
/* Seconds until the battery reaches its floor at a deficit of deficit_w
 * (> 0); +inf for deficit_w <= 0. */
double dc_battery_time_to_floor_s(const dc_battery *b, double deficit_w);
/* The largest constant load deficit the battery can carry for dt_s. */
double dc_battery_max_deficit_w(const dc_battery *b, double dt_s);

#endif
