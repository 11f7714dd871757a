/* Sizing a cluster for a deadline: the smallest cluster whose job finishes in time with a stated
 * probability, found by a search over Monte Carlo runs with common random numbers.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The planner's inverse question.  Seed 000 (sec. 4) sizes a cluster by
 *     devices = total work / per-device rate / target time / overall utilisation
 * with an assumed utilisation; here the utilisation is what the simulation
 * gives at each size (failures, repairs, checkpoints, the fabric, power caps).
 *
 * Size.  A size is the node count n of the scenario's `job` group (cluster
 * job 0), in steps of q = lcm(G, t p) / G nodes (G GPUs per node, t x p the
 * job's tensor x pipeline group: its parallelism section, its class's or the
 * defaults'; 1 x 1 without one; an "auto" layout as the scenario's own size
 * runs it, step.tensor x step.pipeline), so that every size is a valid layout.  The site scales with the job: with N0
 * nodes in service, S0 spares and J0 job nodes in the scenario,
 *     cluster.nodes        N(n) = n + (N0 - J0)   (other work keeps its nodes;
 *                          round(N0 n / J0) if the job is larger than N0)
 *     scale of the site    s = N(n) / N0
 *     cluster.spare_nodes  ceil(S0 s)
 *     repair.crews         ceil(C0 s) (0, unlimited crews, stays 0)
 *     repair.parts.[]      stock, reorder_point, order_up_to: ceil(x s)
 *                          (whole units rounded up: never fewer per node)
 *     x s                  power.site_cap_mw, power.network.switches (up),
 *                          cooling.capacity_kw, cost.capex.switches (up),
 *                          cost.opex.facility_mw
 *     parallelism.data     n G / (t p), when the scenario gives it.
 * A key given as a distribution scales by its parameters (size_scale.c).
 * Every run stops when the job is done (stop_when_done = true), else at the
 * horizon job.start_s + 1.5 D, with deadline.days = D (the cost model's
 * deadline figures); a replication whose job has not finished by then is
 * censored: its days count as infinite in every quantile.
 *
 * Evaluation of a size.  R replications with the seeds S + r, r < R, as a
 * sweep of one grid point (sweep.h): the same seeds at every size, so every
 * size sees the same uncertain inputs and, where the models share random
 * streams, the same failure arrivals (common random numbers): sizes differ by
 * their size, not by luck.  Replication r meets a target of T days when its
 * job finished within T days of its submission (job.completion_days <= T);
 * the size meets (T, c) when k / R >= c, k the replications that meet.
 *
 * Search.  The first size evaluated is the scenario's own, J0 (a multiple
 * of the step).  From a size u (in steps) that fails, with d the c-quantile of its
 * days, the next is ceil(u d / T) (at least u + 1, at most 4 u; 2 u when d is
 * censored) until one meets; from a size that meets, floor(u d / T) (at most
 * u - 1, at least u / 4) until one fails or one step meets.  Then bisection
 * between the largest failing and the smallest meeting size until they are
 * one step apart; the answer is the smallest meeting size.  Where meeting is
 * monotone in the size (with common random numbers it is unless a larger
 * cluster is unluckier), that is the smallest size, in steps of q, that a scan
 * of every size would find (tests/test_size.c checks it).  A size the
 * scenario refuses (a fabric that cannot connect it, too few micro-batches
 * for its data-parallel degree) or a size above max_nodes stops the search
 * upward: the deadline cannot be met, and the point says why.
 *
 * Closed form.  With the job's work W in GPU-hours at its kernel efficiency
 * (job.ideal_days x job.gpus x 24 of any run: W = F P T / (peak mfu) / 3600),
 * the seed's count for a deadline D with no loss at all is
 *     GPUs = W / (24 D),   nodes = ceil(GPUs / G), rounded up to a step:
 * with no failures, checkpoints, communication or caps the search returns
 * exactly that.
 *
 * Assumptions.  A set of assumptions is a list of --set assignments applied
 * after the user's and before the size's (dc_size_assumptions builds those of
 * factors on the job's MFU, on every failure rate and on the prices of
 * compute; see dc_size_assume).  Each set has its own evaluations, cached:
 * searches that share a set share its runs. */
#ifndef DC_SIZE_H
#define DC_SIZE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "scenario.h"
#include "sweep.h"

/* The horizon of a sizing run, as a multiple of the deadline. */
#define DC_SIZE_HORIZON_FACTOR 1.5
/* The largest job, by default, as a multiple of the scenario's. */
#define DC_SIZE_DEFAULT_GROWTH 64

typedef struct dc_size_spec {
    const char *file;          /* scenario file; NULL: text */
    const char *text;          /* the scenario when file is NULL */
    const char *text_name;     /* its name in messages */
    const dc_param *const *schemas;
    dc_sweep_build_fn build;   /* dc_build (models/registry.h) */
    /* dc_build_cancellable: with cancel, a signal stops a size's runs while
     * they are set up too (seconds for a stream of a million jobs); may be NULL. */
    dc_sweep_build_cancellable_fn build_cancellable;
    const char *const *sets;   /* the user's --set assignments */
    size_t n_sets;
    size_t reps;               /* replications per size */
    int64_t seed;              /* < 0: the scenario's */
    size_t threads;
    double deadline_days;      /* D */
    uint64_t max_nodes;        /* largest job in nodes; 0: DC_SIZE_DEFAULT_GROWTH x J0 */
    /* Called with each size's scenario before it runs (memory limits); may be NULL. */
    int (*check)(void *ctx, const dc_scenario *sc, dc_error *err);
    void *check_ctx;
    /* Called after each size is evaluated; may be NULL. */
    void (*progress)(void *ctx, uint64_t nodes, size_t met, size_t reps);
    void *progress_ctx;
    /* Once *cancel is nonzero the search stops with DC_EINTERNAL "interrupted". */
    const volatile sig_atomic_t *cancel;
} dc_size_spec;

/* What the scenario says about its size. */
typedef struct dc_size_shape {
    uint32_t gpus_per_node;
    uint64_t cluster_nodes, spare_nodes, job_nodes; /* N0, S0, J0 */
    long long crews;                                /* C0 (0: unlimited; -1: no repair group) */
    uint64_t step_nodes;                            /* q */
    int tensor, pipeline;
    double start_days;                              /* job.start_s / 86400 */
    const char *scaled[16];                         /* the keys scaled with the site, present in the scenario */
    size_t n_scaled;
} dc_size_shape;

/* One size evaluated under one set of assumptions. */
typedef struct dc_size_eval {
    uint64_t job_nodes, cluster_nodes, spare_nodes, gpus;
    long long crews;
    bool refused;              /* the scenario cannot be built at this size */
    char why[DC_ERROR_MSG_MAX]; /* why (refused) */
    size_t reps;
    double *days;              /* [reps], sorted; INFINITY: unfinished */
    double *tco_usd;           /* [reps] cost.tco_usd (NaN without a cost section) */
    double *capex_usd;         /* [reps] cost.capex_usd: the capital bought at this size */
    double *usd_per_gpu_h;     /* [reps] cost.usd_per_useful_gpu_h */
    double *ettr;              /* [reps] job.ettr */
    double ideal_days;         /* job.ideal_days (the same in every replication) */
} dc_size_eval;

typedef struct dc_sizer dc_sizer;

/* Loads the scenario with the user's sets, validates it and reads its shape.
 * The scenario must have a job group.  DC_EINPUT names the file, line and key. */
int dc_sizer_create(const dc_size_spec *spec, dc_sizer **out, dc_error *err);
void dc_sizer_destroy(dc_sizer *s);
const dc_size_shape *dc_sizer_shape(const dc_sizer *s);
/* The scenario as the user gave it, with their sets: checked, but not
 * validated (a distribution is still its group, not its median). */
const dc_scenario *dc_sizer_scenario(const dc_sizer *s);
uint64_t dc_sizer_seed(const dc_sizer *s);
double dc_sizer_deadline(const dc_sizer *s);

/* Reads the shape of a scenario (with a job group). */
int dc_size_shape_read(const dc_scenario *sc, dc_size_shape *sh, dc_error *err);
/* Sets the layout and the step that follows (lcm(G, t p) / G nodes). */
void dc_size_shape_layout(dc_size_shape *sh, int tensor, int pipeline);

/* The --set assignments that make the scenario a job of n nodes (the list
 * above), appended to *list (malloc'd strings, *n entries, *cap allocated). */
int dc_size_assignments(const dc_scenario *sc, const dc_size_shape *sh, uint64_t n, double deadline_days,
                        char ***list, size_t *n_list, size_t *cap, dc_error *err);

/* The assignments that multiply the job's MFU by mfu, every failure rate by
 * failures (failures.[], network.failures.[], cooling.failure: mtbf_h and
 * the law's mean_h, median_h, scale_h divided by it, afr multiplied) and the
 * prices of compute by price (cost.capex.gpu_usd, cost.capex.server_usd,
 * cost.rent.on_demand_usd_per_gpu_h, cost.rent.spot_usd_per_gpu_h), for
 * the keys the scenario has; a factor of 1 adds nothing. */
int dc_size_assumptions(const dc_scenario *sc, double mfu, double failures, double price, char ***list,
                        size_t *n_list, size_t *cap, dc_error *err);

/* Registers a set of assumptions (copied); *id gets its number (an equal
 * set registered before gets the same number).  Set 0, no assumption,
 * always exists. */
int dc_sizer_assume(dc_sizer *s, const char *const *sets, size_t n, size_t *id, dc_error *err);

/* Evaluates a job of n nodes (a multiple of the step) under assumption set
 * id, or returns the cached evaluation.  A size the scenario refuses is
 * DC_OK with refused set, except the first size ever evaluated (the
 * scenario's own), whose error is returned. */
int dc_sizer_evaluate(dc_sizer *s, size_t id, uint64_t n, const dc_size_eval **out, dc_error *err);
/* After an evaluation stopped by *cancel ("interrupted"): the size it was
 * evaluating, whether its runs were still being set up (the validation
 * build, or none begun) rather than running, and how many sizes had been
 * evaluated (all assumption sets).  False when none was interrupted. */
bool dc_sizer_stopped(const dc_sizer *s, uint64_t *job_nodes, bool *setting_up, size_t *evaluated);

/* Replications of e whose job finished within t days. */
size_t dc_size_met(const dc_size_eval *e, double t_days);
/* Whether e meets (t_days, confidence). */
bool dc_size_meets(const dc_size_eval *e, double t_days, double confidence);
/* The type-7 quantile at p of e's days (stats.h), INFINITY when it reaches
 * an unfinished replication. */
double dc_size_days_quantile(const dc_size_eval *e, double p);
/* The quantile at p of the finite values x[0..n), NaN when none. */
double dc_size_quantile(const double *x, size_t n, double p);

typedef struct dc_size_answer {
    bool found;
    uint64_t job_nodes;        /* the smallest size that meets (found) */
    const dc_size_eval *eval;  /* its evaluation (found) */
    uint64_t limit_nodes;      /* not found: the largest size tried */
    char why[DC_ERROR_MSG_MAX + 64]; /* not found: why the search stopped */
    size_t evaluations;        /* sizes this search evaluated or found cached */
} dc_size_answer;

/* The smallest job size that finishes within target_days with probability
 * confidence under assumption set id (the search above). */
int dc_sizer_search(dc_sizer *s, size_t id, double target_days, double confidence, dc_size_answer *out,
                    dc_error *err);

/* The sizes evaluated under assumption set id, by increasing size. */
size_t dc_sizer_curve(const dc_sizer *s, size_t id, const dc_size_eval *const **out);

/* The seed's closed form: nodes (in steps) for the deadline from the work
 * of evaluation e (W = e->ideal_days x e->gpus x 24). */
double dc_size_closed_form_gpus(const dc_size_eval *e, double deadline_days);
uint64_t dc_size_closed_form_nodes(const dc_size_shape *sh, const dc_size_eval *e, double deadline_days);

/* ---- plans (size_plans.c) ----------------------------------------------------------
 *
 * Seed 000 (sec. 4) asks for three capacity plans: conservative (保守, for
 * a project whose budget is limited and whose scale is not settled),
 * balanced (平衡: efficiency, cost and room to grow) and aggressive (激进,
 * for a project that must train fast to catch a window).  A plan here is a
 * target and a set of assumptions, each stated and overridable:
 *   confidence      the probability of meeting its target it buys;
 *   deadline_share  the share of the deadline D it aims at (target f D);
 *   mfu, failures, price   factors on the job's MFU, on every failure rate
 *                   and on the prices of compute (dc_size_assumptions).
 * Defaults: conservative c = 0.5, f = 1: the least capital that meets the
 * deadline in half the futures; balanced c = the command's confidence, f =
 * 1: the answer; aggressive c = the command's confidence, f = 0.8: done a
 * fifth ahead of the deadline.  Factors 1: the scenario's own assumptions.
 * Each plan is sized by the search under its assumptions and reported at its
 * size under them, including the probability of missing D itself. */
typedef struct dc_size_plan {
    const char *name;
    double confidence, deadline_share, mfu, failures, price;
} dc_size_plan;

#define DC_SIZE_PLANS 3
void dc_size_plan_defaults(dc_size_plan plans[DC_SIZE_PLANS], double confidence);
/* "NAME.KEY=VALUE" (KEY: confidence, deadline_share, mfu, failures, price). */
int dc_size_plan_override(dc_size_plan plans[DC_SIZE_PLANS], const char *assignment, dc_error *err);

typedef struct dc_size_plan_result {
    size_t assumptions;        /* the plan's assumption set */
    double target_days;
    dc_size_answer answer;
} dc_size_plan_result;
int dc_sizer_plan(dc_sizer *s, const dc_size_plan *p, dc_size_plan_result *out, dc_error *err);

#endif
