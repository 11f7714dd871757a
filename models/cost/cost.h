/* Cost: the total cost of ownership of the simulated run, renting, losses and a deadline.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Cost: the total cost of ownership (TCO) of the simulated run, renting,
 * losses and a deadline.  Registered last: at finish it reads the figures
 * the other models wrote to the summary.
 *
 * The window.  Costs are charged for the simulated time T (from 0 to the end
 * of the run: the job's completion when stop_when_done, else the horizon),
 * T_y in years (365.25 days), T_h in hours.  A run that trains a model (or a
 * programme of models) thus costs what that took, and a slower run costs
 * more; owned assets are credited with their book value at T.
 *
 * Deployment.  The nodes of the scheduler's spot pools (scheduler.pools.[]
 * .spot) are the provider's: priced by the hour below, not bought or
 * rented otherwise.  Of the cluster's other G GPUs (N nodes, spares included) a share
 * f_o = cost.owned is bought; the rest is rented, a share
 * f_r = (1 - f_o) rented_reserved on reserved contracts and
 * f_d = (1 - f_o)(1 - rented_reserved) on demand.  Spot capacity serves
 * non-critical work beside the job (spot_gpu_h).  Failures and repairs hit
 * owned and rented GPUs alike (the simulated cluster is one); the owner
 * pays energy, maintenance, staff and repairs for the owned share only
 * (a rental price includes them).
 *
 * Capacity over time (cluster.delivery, stages.h): with delivery stages the
 * devices below are bought (or rented, or rented then bought) stage by stage,
 * each an asset from its own purchase day; the network, storage and plants
 * are bought at 0 for the whole cluster; staff follow the owned node-years,
 * licences the GPU-years present, and energy and repairs are the owner's in
 * the share owned GPU-hours / GPU-hours present (in place of f_o).
 * A spot pool's nodes inside a stage or a type are the provider's there too:
 * the stage's n and the type's n_t below count its other nodes only.
 * Mixed hardware (cluster.types): devices = sum over types of
 * n_t (g gpu_usd_t + server_usd_t), each type's prices or cost.capex's;
 * the chip table, per type (chip.NAME.*): capex_usd (its devices bought),
 * gpus, pflops = n_t g F_t with F_t = gpu_peak_tflops_t / 1000 (989 when not
 * given), usd_per_gpu = gpu_usd_t + server_usd_t / g, usd_per_pflops =
 * usd_per_gpu / F_t, pflops_per_w = F_t / power.type.NAME.gpu_peak_w (peak_w
 * + host_w / g; null without a power section).
 * Capital (owned share), per asset class (hardware; facility):
 *   hardware  C_h = f_o (1 + spares_fraction) (devices + network + storage),
 *             devices = G gpu_usd + N server_usd,
 *             network = G network_ports_per_gpu network_port_usd + switches switch_usd
 *                     + transceivers transceiver_usd + optical links optical_link_usd
 *                     + node links node_link_usd, the counts those of the network
 *                     section's fabric (fabric_bom.h; switches overridable),
 *             storage = sum of the tiers' tb x usd_per_tb, tb by default the
 *                     storage model's capacity of the tier of that name;
 *             residual R_h = residual_fraction C_h, life L_h = life_years
 *   facility  C_f = f_o (facility_usd_per_mw M_it + power_usd_per_mw M_it
 *             + cooling_usd_per_mw M_cool), R_f = 0, life L_f = facility_life_years;
 *             M_it = G it_kw_per_gpu / 1000 if given, else power.site_cap_mw,
 *             else the IT peak the power model simulated; M_cool =
 *             cooling.capacity_kw / 1000, else M_it
 *   straight-line amortisation  D = (C - R) / L per year;
 *   book value                  B(t) = C - D min(t, L);
 *   depreciation over T         D min(T_y, L);
 *   financing (all capital borrowed at interest_rate i, the loan repaid as
 *   the asset depreciates)      i integral_0^T B(t) dt
 *                             = i [C m - D m^2 / 2 + R max(T_y - L, 0)],  m = min(T_y, L);
 *   residual value at T         B(T).
 * Operating:
 *   energy       E kWh: power.facility_energy_kwh from the power model when
 *                it ran, else facility_mw x 1000 x T_h (a stated average);
 *                cost f_o x power.energy_cost_usd when the power model priced
 *                it, else f_o E electricity_usd_per_kwh
 *   maintenance  maintenance_fraction (C_h + C_f) T_y
 *   staff        f_o N / staff_per_nodes x staff_usd_per_year x T_y
 *   licences     licence_usd_per_gpu_year G T_y (every GPU run, owned or rented)
 *   data         data_transfer_tb_per_month x 12 T_y x data_transfer_usd_per_tb
 *   storage      f_o storage.cost_usd (the storage tiers' TB-months at their price)
 *   repairs      f_o [sum over listed classes failures.CLASS (parts_usd + labour_h
 *                labour_usd_per_h) + max(0, repair.tickets - listed failures)
 *                (repair_parts_usd + repair_labour_h labour_usd_per_h)]
 * Renting (price p = on_demand_usd_per_gpu_h):
 *   on demand    f_d G T_h p
 *   reserved     f_r G [T_c p (1 - reserved_discount) + max(0, T_h - T_c) p],
 *                T_c = reserved_terms x reserved_term_years in hours: the
 *                commitment is paid in full even if the run ends sooner; past
 *                it the reserved GPUs are kept on demand
 *   spot         [spot_gpu_h (1 + spot_rework) + H_spot] spot_usd_per_gpu_h,
 *                H_spot the GPU-hours the scheduler's spot pools' nodes were
 *                held by jobs and services (dc_sched_pool_held_node_s): the
 *                provider bills the hours used, reclaimed work and restarts
 *                included (cost.spot_lost_gpu_h: the pools' preempted,
 *                rollback and restart lines)
 * Orbit (orbital.h): orbital.capex_usd (launch, bus, insurance) is a third
 *   asset, life orbital.life_years, no residual; orbital.opex_usd and
 *   orbital.servicing_usd are operating costs.
 * TCO = depreciation + financing + operating + renting.
 * The seed's parts (000 sec. 6), which add to the TCO: each asset's share of
 *   its class's capital charges (depreciation and interest are linear in the
 *   price), devices, network, storage (with its running cost), power (the
 *   electrical plant and the energy bill's IT and loss share by kWh),
 *   cooling (its plant and the cooling kWh's share), facility (the
 *   building), operations (maintenance, staff, licences, transfer,
 *   repairs), orbital, rent.
 * Deadline (deadline.days = D): missed when the job did not finish or
 *   job.completion_days > D; days late = completion_days - D (for an
 *   unfinished job, T in days - D: a lower bound); penalty = penalty_usd +
 *   penalty_usd_per_day x days late when missed.  total = TCO + penalty.
 * Net present value of the costs at discount_rate d (continuous discounting,
 *   delta = ln(1 + d)): every flow above is spread evenly over the time it
 *   covers (operating, on-demand and spot over [0, T]; the reserved
 *   commitment over [0, T_c], the on-demand overrun over [T_c, T]); the
 *   capital flow is D + i B(t); the penalty falls at T:
 *   NPV = sum of integral e^(-delta t) flow(t) dt + penalty e^(-delta T).
 * Unit figures: cost per useful GPU-hour = TCO / gpu_hours.useful; per
 *   trained model = TCO / (job.completed x models_per_job); per million
 *   training tokens = TCO / (job.tokens / 1e6) for a finished job;
 *   an inference service's share of the TCO
 *     share = inference.gpu_h / (capacity x cluster.node_availability
 *             - gpu_hours.idle_spare - gpu_hours.retired)
 *   (its GPU-hours over those of all work: 1 alone, a showback split by
 *   GPU-hours beside training), cost.inference_usd = share x TCO, per
 *   million inference tokens = that / (inference.tokens / 1e6), per request
 *   served = that / inference.served; useful GPU-hours per MWh and
 *   per GPU-day (the seeds' unit-output figures).
 * Losses: lost GPU-hours = gpu_hours.capacity - useful - idle_spare (downtime,
 *   rollbacks, restarts, checkpoints, waiting, slow-downs), valued at
 *   lost_gpu_h_usd, or by default at the run's average cost of a GPU-hour of
 *   capacity, TCO / gpu_hours.capacity.  Shown beside the TCO, not added to it
 *   (those hours are already paid for).
 *
 * The "average investment" method of capital cost (straight-line
 * depreciation plus interest on the average book value) is the textbook
 * form, e.g. Kay, Edwards & Duffy, "Farm Management", ch. 16; its continuous
 * version above is exact for a linear book value.  The seeds' total-cost
 * breakdown (000, sec. 6): devices, power, cooling, network, storage,
 * facility, operations, failure and downtime losses. */
#ifndef DC_COST_H
#define DC_COST_H

#include "sim.h"

extern const dc_model_type dc_model_cost;
extern const dc_param dc_cost_params[];

#define DC_HOURS_PER_COST_YEAR (365.25 * 24.0)

/* The capital charges of one asset over t_y years (exposed for tests). */
typedef struct dc_cost_capital {
    double depreciation_usd, interest_usd, book_value_usd;
} dc_cost_capital;
dc_cost_capital dc_cost_capital_over(double cost_usd, double residual_usd, double life_y, double interest_rate,
                                     double t_y);

/* Present value at continuous rate delta of a flow of 1 per year on [a, b]
 * years, and of a flow of t per year (exposed for tests). */
double dc_cost_pv_const(double delta, double a, double b);
double dc_cost_pv_linear(double delta, double a, double b);

#endif
