/* Electrical power of the IT equipment and the facility: DVFS, caps, losses, energy, cost, PUE,
 * swings.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Electrical power of the IT equipment and of the facility: GPUs, hosts,
 * network, storage; DVFS and power caps; the site and rack caps; idle
 * shutdown; conversion losses; energy, cost, carbon, PUE and power swings.
 * Absent `power` section: nothing is computed.
 *
 * GPU (per GPU; f = clock / maximum clock, u = utilisation):
 *   P(u, f) = P_idle + u (P_peak - P_idle) f^3
 *     Dynamic power C V^2 f with the voltage roughly proportional to the
 *     clock in the DVFS range gives the cube near the top; P_idle holds the
 *     static (leakage) part.  The lowest clock f_min is where a fully loaded
 *     GPU draws min_cap_w (the lowest power limit it accepts):
 *     f_min = ((min_cap_w - P_idle) / (P_peak - P_idle))^(1/3).
 *   A power cap C (W) sets the highest clock with P(u, f) <= C:
 *     f = clamp(((C - P_idle) / (u (P_peak - P_idle)))^(1/3), f_min, 1).
 *   Throughput against clock, with the workload's compute-bound fraction b
 *   (the share of a step's time at full clock that scales with the clock;
 *   the rest is bound by memory or I/O and does not):
 *     speed(f) = 1 / (b / f + (1 - b))
 *   which is linear in f for b = 1 (compute-bound) and flat for b = 0.
 *   A capped or throttled GPU therefore slows its job: the job's speed
 *   factor "power_cap" (static, rack and site caps) and "thermal" (the
 *   cooling model's heat limit) are set through the cluster, and the
 *   GPU-hours they cost appear as gpu_hours.power_cap and gpu_hours.thermal.
 *   With several jobs and the throttle policy both follow a speed clock per
 *   utilisation class (node type and utilisation: the jobs that share the
 *   factor; cluster.h), set once per change for all its jobs.
 *   Sources: the cubic law is the usual CMOS approximation (e.g. Rabaey,
 *   Digital Integrated Circuits, ch. 5); the compute/memory split of step
 *   time is the roofline view (Williams, Waterman, Patterson, CACM 2009).
 *
 * Mixed hardware (cluster.types): each node type has its GPU's idle_w and
 *   peak_w and its host_w and host_idle_w (the section's where it gives
 *   none; min_cap_w, the utilisations and the caps are the section's), so
 *   every formula here holds per type with the type of the nodes a job
 *   holds; with several types, power.type.NAME.it_energy_kwh integrates
 *   each type's nodes (hosts and GPUs), and power.type.NAME.gpu_peak_w is
 *   peak_w + host_w / gpus_per_node (the chip table, cost.h).
 *
 * A GPU's state follows its node's:
 *   job RUNNING (computing)   P(u_run s, f)   s = product of the job's speed
 *                             factors from other models (a stalled GPU idles)
 *   job CHECKPOINTING         min(P(u_ckpt, 1), cap)
 *   job RESTARTING            min(P(u_restart, 1), cap)
 *   job DETECTING (hung)      P_idle, its host on
 *   job WAITING, idle spare   P_idle;  powered off, failed, retired: 0
 * Host overhead (CPUs, memory, NICs, fans, PSU losses) per node: host_w
 * while its job restarts, runs or checkpoints, host_idle_w otherwise, 0
 * when failed or powered off.  A node shared by jobs of fewer GPUs (GPU-
 * granular allocation): each job's GPUs with their share of the host as
 * that job's state has them, each free GPU at P_idle + host_idle_w / gpus_per_node
 * (as gpu_hours.idle_spare counts it).  Network: switches x switch_w, always on.
 * Storage tiers: idle_kw, or active_kw while any job checkpoints or restarts.
 *
 * Caps, all on the GPUs of computing jobs (evenly: one per-GPU limit C):
 *   gpu.cap_w        a per-GPU power limit (nvidia-smi -pl);
 *   rack_cap_kw      enforced as the per-GPU limit that keeps a rack full of
 *                    computing nodes under the cap:
 *                    C_rack = (rack_cap / nodes_per_rack - host_w) / gpus_per_node;
 *                    a job runs in lockstep, so its most constrained rack
 *                    sets its clock (exact when a job fills whole racks);
 *   site_cap_mw      a cap on IT power.  Policy "throttle": the largest C
 *                    with IT(C) <= cap (all computing GPUs evenly); "hold":
 *                    jobs start computing in order only while their demand
 *                    fits, the others hold at idle (speed 0).
 * A site or rack cap that even the lowest power limits cannot meet (every
 * node drawing its most, computing GPUs at min_cap_w) is refused at start.
 * The cooling model may add a heat limit on IT power (dc_power_set_heat_limit)
 * that is met the same way and costs the "thermal" speed factor.
 *
 * Idle shutdown (optional): an idle node powers off after after_s; a job
 * that takes a powered-off node (the cluster hands out the longest-idle
 * node first) must wait until it has booted, power_up_s after it was taken;
 * the restart (job.restart_s) overlaps the boot, so the job waits
 * max(0, power_up_s - restart_s) more, costing gpu_hours.power_up.
 *
 * Facility:  losses = IT (1 / (eta_ups eta_pdu) - 1)   (UPS and PDUs)
 *            facility = IT + losses + cooling + overhead (cooling from the
 *                       cooling model, which sees IT power as its heat load;
 *                       the fixed overheads from the facility model,
 *                       facility.h)
 *            PUE = facility / IT, energy-weighted over the run, and a series.
 * All of these are step functions of time: the model recomputes them when
 * the cluster, a job, a cap, the heat limit, the cooling power or the
 * tariff changes (signals "failure", "nodes_up", "node_idle", "job_phase",
 * "job_speed", "job_nodes" (a running service took nodes), "tariff") and
 * integrates exactly.  Energy cost = integral of
 * facility power x price; carbon likewise.  Power swing over a window W:
 * the largest (max - min) of facility power within any interval of length
 * W (computed exactly on the step function).
 *
 * Per job: the IT power of the nodes each job holds (its hosts and GPUs in
 * the states above; a job not in play holds none); the inference service's
 * (models/workload/inference.h) is integrated like the total, and at finish
 * its energy times the run's facility / IT energy goes to dc_inference_report_energy
 * (inference.energy_kwh, per request, per token).
 *
 * Signal published: "it_power" (payload NULL) when IT power or the demand
 * the cooling model sees may have changed. */
#ifndef DC_POWER_H
#define DC_POWER_H

#include "sim.h"

typedef struct dc_power dc_power;

extern const dc_model_type dc_model_power;
extern const dc_param dc_power_params[];

/* The power model of sim, or NULL when the scenario has no power section. */
dc_power *dc_power_of(dc_sim *sim);

/* Current IT power (W).  The model recomputes its state once at the end
 * of an instant that changed it; these three compute it first when asked
 * before then. */
double dc_power_it_w(dc_power *p);
/* IT power without the heat limit (W): what the cluster would draw. */
double dc_power_demand_w(dc_power *p);
/* IT power with every computing GPU at its lowest clock (W). */
double dc_power_floor_w(dc_power *p);
/* Limits IT power to limit_w by throttling computing GPUs (INFINITY: no
 * limit; below the floor: every computing GPU at its lowest clock). */
void dc_power_set_heat_limit(dc_power *p, double limit_w);
/* The cooling plant's electrical power (W), counted in facility power. */
void dc_power_set_cooling_w(dc_power *p, double cooling_w);
/* Fixed facility overheads (W), counted in facility power (facility.h). */
void dc_power_set_overhead_w(dc_power *p, double overhead_w);

/* Closed forms, exposed for tests and for the cooling model. */
typedef struct dc_gpu_power {
    double idle_w, peak_w, min_cap_w;
    double compute_bound;  /* b */
} dc_gpu_power;
double dc_gpu_power_w(const dc_gpu_power *g, double util, double freq);
/* Highest clock in [f_min, 1] with P(util, f) <= cap_w. */
double dc_gpu_freq_for_cap(const dc_gpu_power *g, double util, double cap_w);
double dc_gpu_min_freq(const dc_gpu_power *g);
double dc_gpu_speed(const dc_gpu_power *g, double freq);

/* Tests: with many jobs (8 or more, one node type, the throttle policy)
 * the model keeps its sums (GPUs per state line and per utilisation class,
 * jobs using the storage, the jobs in play) incrementally; 1 when they
 * equal a recount over every job, exactly, 0 when they differ, -1 when the
 * run keeps no such sums. */
int dc_power_sums_agree(dc_power *p);

/* Tests: a single job's computations first try the entry of the
 * computation before last (the paired memo: a job alternating between
 * two states); off, every computation takes the general memo's path, with
 * the same answers.  And how many computations the paired memo answered. */
void dc_power_set_pair_memo(dc_power *p, bool on);
uint64_t dc_power_pair_hits(const dc_power *p);
/* Tests: with incremental sums (many jobs), the site cap's solution is
 * remembered for the last few inputs (the base power, the cap, the
 * classes' GPUs and ranges); off, every computation solves, with the same
 * answers.  And how many computations a remembered solution answered. */
void dc_power_set_cap_memo(dc_power *p, bool on);
uint64_t dc_power_cap_memo_hits(const dc_power *p);

/* The largest max - min of the step function (t[i], v[i]) (v[i] holds from
 * t[i] to t[i+1], the last to end_s) within any window of width_s. */
double dc_power_swing(const double *t, const double *v, size_t n, double end_s, double width_s);
/* The same for two widths in one pass (narrow_s <= wide_s), bit for bit
 * dc_power_swing's; NAN when out of memory. */
void dc_power_swing2(const double *t, const double *v, size_t n, double end_s, double narrow_s, double wide_s,
                     double *narrow, double *wide);

#endif
