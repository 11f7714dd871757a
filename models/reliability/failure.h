/* Component failures: classes, laws, detection delays, silent corruption, correlated failures,
 * parts.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Component failures.
 *
 * The scenario's "failures" list names any number of classes.  Each has
 *   per    the count basis: "gpu", "node", "rack" (one process per unit of
 *          the cluster, spares included), "job" (one per job, running only
 *          while the job computes) or "job_gpu" (one per GPU of a computing job);
 *   takes  what one failure takes down: "node" (the unit's node leaves its
 *          job and goes to repair), "rack" (every healthy node of the rack,
 *          one repair) or "job" (the job restarts, no node is lost);
 *   mode   "stop" (fail-stop, the default), "slow" (fail-slow: the node
 *          becomes a straggler, straggler.h) or "corrupt" (silent data
 *          corruption of the job computing on the node: the job finds it
 *          after the detection delay and rolls back, job.h);
 *   a law  (dist.h): mtbf_h / afr per unit, exponential, weibull, lognormal
 *          or gamma;
 *   detection: detect_s (a constant delay: 0 for a hardware fault reported
 *          at once, the watchdog timeout for a hang) and check_interval_s
 *          (a failure is noticed at the first periodic check, at multiples
 *          of the interval from time 0, at or after t + detect_s).  The
 *          delay travels with the failure (dc_failure_event.detect_s): the
 *          job stalls at once but restarts, and the repair ticket opens,
 *          only once the failure is noticed.
 *
 * Time: each class runs on its own clock V(t) = integral of a(t) dt, with
 * a(t) the class's acceleration factor (1 unless a model sets it with
 * dc_cluster_set_failure_acceleration: temperature by Arrhenius or doubling
 * per 10 C, radiation...).  Units age in V (accelerated life): an
 * exponential rate is multiplied by a; Weibull and other lifetimes are
 * drawn in V and mapped to real time.  A change of a reschedules one event.
 *
 * Exponential classes: superposition.  The class is one Poisson process in
 * V of rate W / MTBF, W the weighted number of units (below); each arrival
 * picks a unit with probability proportional to its weight and is kept
 * only if that unit can fail now (its node is up, healthy for its mode;
 * its job is computing).  This is thinning (Lewis & Shedler 1979): the kept
 * arrivals form a Poisson process of rate (weight of units that can fail) /
 * MTBF, exactly what independent exponential units give, at one pending
 * event per class.  The arrivals (times and units) do not depend on the
 * cluster's state, so two scenarios with the same seed see the same
 * failure arrivals (common random numbers); acceptance draws come from a
 * separate stream.
 *
 * Exponential job-level classes ("job", "job_gpu") run over the jobs that
 * hold nodes only (phase neither pending nor done): W is their count (or
 * their GPUs), kept in Fenwick trees over the job ids, so an arrival picks
 * its job in O(log jobs) and jobs queued, not yet submitted or finished
 * cost nothing.  When W changes (a job starts or leaves) the pending
 * arrival's remaining time in V is scaled by W_old / W_new (an exponential
 * residual stays exponential); after a time with W = 0 it is drawn afresh.
 * With one job holding nodes from time 0 to its end (the flagship) this is
 * the process over all jobs defined, draw for draw.  Per-unit clocks of
 * job-level classes keep a unit per GPU of every job defined (its job found
 * by binary search in the prefix sums of the jobs' GPUs).
 *
 * Systematically bad nodes ("lemons", Kokolis et al., HPCA 2025): a
 * fraction bad_nodes.fraction of the nodes, drawn at the start from stream
 * "failure.bad_nodes", fail bad_nodes.rate_factor = k times as often in
 * every per-gpu and per-node class (proportional hazards: S_bad = S^k;
 * failures.[].bad_factor overrides k per class).  Their units weigh k in
 * the superposition, W = U + (k - 1) U_bad.  A bad node retired and
 * replaced by a new one (repair.h) is good: arrivals that pick it as a bad
 * unit are kept with probability 1/k, so the arrival process stays the same.
 * A class with its own bad_fraction has its own set of bad nodes (stream
 * "failure.CLASS.bad_nodes") in place of bad_nodes' set, with its
 * bad_factor: lemons of one kind of part are not those of another.
 *
 * Other laws: one clock per unit (stop mode only).  A unit's lifetime is
 * drawn when it is installed: at the start (of age initial_age_h, so a
 * cluster in service is not new) and whenever it is replaced, i.e. when a
 * repair that replaced the failed part completes (dc_nodes_event.as_new):
 * the hazard restarts there, so a Weibull shape below 1 gives infant
 * mortality after every replacement and a shape above 1 wear-out late in
 * life. A fleet bought over time (fleet.age, a law): each node's age is
 * drawn at the start (stream "failure.fleet_age") and added to the class's
 * initial_age_h for the node's units (a rack's: its first node's).  A repair that replaced nothing (automated remediation: reboot,
 * reset) is a minimal repair: the unit carries on at its age.  A unit
 * whose clock runs out while its node is down waits and is renewed with the
 * node's repair.  Residual lifetime of a unit of age x with hazard factor
 * k:  S(x + t)^k / S(x)^k = U,  U uniform,  so
 * t = S^-1(S(x) U^(1/k)) - x (Weibull: t = l ((x/l)^b - ln(U)/k)^(1/b) - x).
 * Job bases must be exponential; slow and corrupt modes too.
 *
 * Misdiagnosis (repair.h): a node returned still faulty fails again, in
 * the same class, refail_s after its return (unless it went down since).
 *
 * Each kept failure calls dc_cluster_fail_detected (stop), the straggler
 * module (slow) or dc_cluster_corrupt (corrupt).  The class's long-run
 * rate per unit, 1 / E[lifetime] averaged over good and bad nodes (for a
 * slow class only if its stragglers are evicted), is registered with
 * dc_cluster_add_hazard for checkpoint policies.
 *
 * Failure logs (failurelog.h): each row strikes as a failure of its class
 * (takes, detection), and with a repair or return time brings its nodes back
 * exactly then (dc_cluster_fail_returning: no repair ticket); a class with
 * from_log has no arrivals of its own.
 *
 * Figures: failures.total, failures.CLASS, failures.repeats (of
 * misdiagnosed nodes), failures.bad_nodes, failures.per_1000_node_days
 * (failures that took nodes down, from any model, per 1000 node-days of
 * the whole cluster: Kokolis et al.'s rate, 6.50 on RSC-1), and the
 * stragglers' figures. */
#ifndef DC_FAILURE_H
#define DC_FAILURE_H

#include "sim.h"

/* The progress guarantee: a class whose units fail, all together, more
 * than DC_SIM_MAX_FAILURES_PER_S times per simulated second on average
 * (units / mean life; a class per job: one unit) is refused at its mtbf_h
 * or afr. */
extern const dc_model_type dc_model_failure;
extern const dc_param dc_failure_params[];

#endif
