/* Compute in orbit: satellites whose arrays, batteries and radiators replace grid, cooling plant
 * and weather.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Compute in orbit: a formation of S identical satellites whose solar
 * arrays, batteries and radiators replace the grid, the cooling plant and
 * the weather.  Absent `orbital` section: nothing happens.  Needs the power
 * model (IT power, and the limit through which compute throttles); refuses
 * a `cooling` or `environment` section (they describe a site on the ground).
 *
 * The formation flies within a few km (Suncatcher: 1 km), so every
 * satellite sees the same sun: the model is one lumped satellite S times
 * larger (areas, capacities, thermal mass are per satellite x S).
 *
 * Orbit (orbit.h): period T from the altitude; sun-synchronous; the beta
 * angle at the start of every orbit k (t_k = k T from the scenario's start
 * day in 2026) gives the shadowed fraction f_k (cylindrical shadow); orbit
 * k is sunlit on [t_k, t_k + (1 - f_k) T) and in eclipse on
 * [t_k + (1 - f_k) T, t_(k+1)).  Events: one per orbit, plus eclipse entry
 * when f_k > 0 (exit is the next orbit's start).  Eclipse days are days
 * with at least one eclipsed orbit.
 *
 * Electrical load: L = IT / (eta_ups eta_pdu) + S bus_w (IT from the power
 * model; the conversion efficiencies stand for the power conditioning; the
 * bus and the coolant pumps are passed to the power model as its cooling
 * power, so power.facility_energy_kwh is the load's energy).
 * Array: P = S A eta_cell G (1 - pointing_loss) (1 - degradation)^years
 * while sunlit, 0 in eclipse (G = orbital.solar_constant_w_m2, 1361 W/m2; REFERENCE "Orbit";
 * triple-junction cells about 30%).
 * Battery (battery.h): the net P - L charges or discharges it, exactly:
 * the load is a step function, so the time at which it reaches its floor
 * at deficit d is (E - E_min) eta_d / d, and that event is scheduled.
 * Power policy at the floor: the IT power is limited to what the array
 * gives, (P - S bus_w) eta (in eclipse: 0, every computing GPU at its
 * lowest clock), through dc_power_set_heat_limit (costs the job's
 * "thermal" speed factor: gpu_hours.thermal holds both limits; the
 * summary splits the time).  If even the lowest clocks draw more than
 * that ("shed"), every node is switched off (dc_cluster_fail class -1,
 * gpu_hours.power_shed) until sunlight returns; what the battery still
 * cannot give is reported as unmet energy.  The limit is lifted when the
 * array carries the full demand again.
 *
 * Thermal (radiator.h): all of L ends as heat in the radiators (area,
 * emissivity, absorptivity, view factors; sunlit or not).  The lumped
 * temperature follows C dT/dt = L + Q_env - e sigma A_e (T^4 - Ts^4),
 * advanced with RK4 (dc_radiator_advance_k) inside the event handlers: at
 * every change of load, eclipse entry and exit, and every step_s.  When the
 * steady state of the current load lies above max_temp_c, the time at which
 * T reaches it is found by marching and bisection and scheduled; from then
 * on the IT power is limited to what the radiator rejects at max_temp_c,
 * (Q_max(T_max) - S bus_w) eta, until the demand fits again.  A radiator
 * that cannot reject the idle cluster's heat in sunlight at max_temp_c is
 * refused at start.  Initial state: orbital.radiator.initial_temp_c, or
 * else the steady state of the load at time 0 once the jobs that start
 * then have started (at most max_temp_c), so that short runs are not
 * biased by a warm-up from the idle cluster's state.
 *
 * Links.  Inter-satellite optical links: the data-parallel gradient
 * exchange between satellites is a ring all-reduce of sync_gb per step over
 * the formation, 2 (S - 1) / S sync_gb / (links x isl_gbps / 8) seconds,
 * of which overlap is hidden behind the step's compute_s; the job's speed
 * factor "isl" is compute_s / (compute_s + exposed) (gpu_hours.isl).  This
 * replaces the network model's fabric for the orbital scenarios (decision:
 * the formation's ring is the bottleneck; intra-satellite links are fast).
 * Ground links: passes_per_day passes of pass_min at downlink_gbps carry
 * C_g = passes pass_min 60 downlink_gbps / 8 GB a day; a checkpoint of
 * size Z GB (checkpoint.size_gb or job.params x bytes_per_param) leaves
 * orbit at most every max(Z / C_g days, 1 / passes days): that is the
 * interval of durable (ground) checkpoints, reported; the job's own
 * checkpoints are written within the formation (checkpoint.write_gb_per_s,
 * set by the scenario from the links) and protect against chip faults; the
 * ground copy only matters for loss of the formation, which is not modelled.
 *
 * Cost (written at finish as orbital.* and priced by the cost model):
 *   mass    m = S [nodes_per_sat compute_kg_per_node + radiator_kg_per_m2 A_r
 *           + array_kg_per_kw P_bol / 1000 + battery_kg_per_kwh E] (1 + structure_fraction)
 *   launch  m p(y), p(y) = p_0 (p_f / p_0)^((y - y_0) / (y_f - y_0)) for
 *           y_0 <= y <= y_f (log-linear: $3,600/kg in 2025 to $200/kg by
 *           2035, REFERENCE "Orbit"), p_f after y_f
 *   bus     S (array_usd_per_w P_bol/S + battery_usd_per_kwh E/S
 *           + radiator_usd_per_m2 A_r/S) + bus_usd_per_kg (structure mass)
 *   insurance  insurance_fraction (launch + bus + compute hardware)
 *   ground  ground_segment_usd_per_year x years
 * orbital.capex_usd (launch, bus, insurance) is amortised by the cost model
 * over orbital.life_years with no residual value; orbital.opex_usd (ground
 * segment, servicing launches) is added to its operating costs.
 *
 * Radiation and servicing: orbital_radiation (below). */
#ifndef DC_ORBITAL_H
#define DC_ORBITAL_H

#include "sim.h"

extern const dc_model_type dc_model_orbital;
extern const dc_param dc_orbital_params[];

/* Radiation and servicing (orbital_radiation.c), keys orbital.radiation and
 * orbital.servicing.
 *
 * Dose rate D' rad/yr behind the stated shielding (Trillium proton tests:
 * about 150 rad/yr, REFERENCE "Orbit").  Per chip (GPU) three Poisson
 * processes of rates D' / r_k per year, r_k rad per event:
 *   sdc    silent data corruption, about one per 15-20 rad: the job computes
 *          on and rolls back detect_s later to the last kept checkpoint
 *          before it (dc_cluster_corrupt, job-level: no node is sent away);
 *          a spare hit does nothing;
 *   uce    HBM uncorrectable error, about one per 44-50 rad: the node is
 *          interrupted and reboots (reboot_s), class -1, gpu_hours.radiation_reboot;
 *   crash  about one per 5 krad: the same with crash_reboot_s.
 * The processes run on every chip that is up (BUSY or IDLE): drawn at the
 * rate of all chips and thinned (exact for a Poisson process).
 * Cumulative dose D(t) = D' t: past threshold_rad (HBM irregularities after
 * about 2 krad) every failure class of the scenario ages faster,
 * a = 1 + accel_per_krad (D - threshold) / 1000 (an assumption: no
 * published slope), updated daily through dc_cluster_set_failure_acceleration.
 * No repair: a node failed by a class of the failures list stays DOWN
 * (scenario without a `repair` group) unless servicing launches are
 * scheduled: every interval_days, up to nodes_per_launch failed nodes come
 * back as new (dc_cluster_returned, as_new); each launch costs
 * nodes x launch mass per node x the launch price of that year plus
 * usd_per_launch (written as orbital.servicing_usd).  Hot spares are the
 * cluster's spare_nodes. */
extern const dc_model_type dc_model_orbital_radiation;
extern const dc_param dc_orbital_radiation_params[];

/* Launch price per kg in year y on the log-linear curve above. */
double dc_orbital_launch_usd_per_kg(double p0, double y0, double pf, double yf, double y);

#endif
