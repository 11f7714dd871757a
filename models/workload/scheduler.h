/* The scheduler: pools of nodes, queues, quotas, priorities, backfilling, preemption, spot.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The scheduler: pools of nodes, a queue per pool, quotas, priorities,
 * EASY backfilling, preemption, run-time limits and spot capacity.  Jobs
 * (job.h) and services (inference.h) take and give back nodes through it;
 * failures still reach them through the cluster's "failure" signal.
 *
 * Pools: the nodes (cluster.nodes + spare_nodes) are cut into contiguous
 * ranges, one per pool, in the order of scheduler.pools; a pool gives nodes
 * or share (of all nodes, rounded down); one pool may give neither and takes
 * what is left; otherwise what is left goes to the last pool.  Without a
 * scheduler group there is one pool, "default", holding every node, and
 * placement takes the cluster's longest-idle node first (as the single job
 * always did).
 *
 * Queue order: priority (higher first), then non-preemptible before
 * preemptible, then submission time (a preempted job keeps its original
 * place).  A job whose user would exceed its quota
 * (nodes held by the user's running jobs, all pools) is passed over, not
 * blocking the others.
 *
 * EASY backfilling (Lifka 1995, "The ANL/IBM SP scheduling system"; Mu'alem
 * and Feitelson 2001): the first eligible job that does not fit (the head)
 * gets a reservation: with running jobs ordered by estimated end e_k (their
 * run-time estimate from the start, at least now) and n_k nodes, and A nodes
 * free now, the shadow time is the first e_k at which A + sum n_1..n_k >= N
 * (the head's size), and the extra nodes are those free at the shadow time
 * beyond N: A plus the nodes of every job with e_k <= shadow (jobs ending
 * together at the shadow time all count, in whatever order they started)
 * minus N.  A later job
 * of n nodes with estimate r may start now when n <= A and either
 * now + r <= shadow, or n <= extra (extra then shrinks by n).  With exact
 * estimates the head never starts later than its shadow time.  A job's
 * estimate is its max_run_h when set, else its ideal run time (work / rate)
 * times estimate_factor.
 *
 * Preemption (when enabled): a head that does not fit may evict running
 * jobs of its pool that rank below it: preemptible (spot-class) jobs first
 * (by any non-preemptible job of equal or higher priority), then strictly
 * lower priorities, lowest first, latest started first; only if the
 * evictions would let it start.  An evicted job checkpoints if it has a
 * checkpoint policy (holding its nodes for the write), else loses the work
 * since its last checkpoint, then goes back to the queue.  A running job
 * short of replacement nodes after a failure may evict the same way.
 * While evictions are under way and the nodes on their way back (with the
 * idle ones) reach the head's size, its shadow time is now and its extra
 * nodes those beyond its size: backfilling cannot take the nodes an evicted
 * job gave up.
 *
 * Services (inference replicas) take idle nodes at once, outside the queue,
 * unless a queued job of their priority or higher waits in the pool (by
 * default a service ranks above every job).
 *
 * Shares (GPU-granular allocation, cluster.h): a job of fewer GPUs than a
 * node has (req.gpus, req.nodes 1) goes to the partly used node of its
 * pool with the fewest free GPUs that holds it (best fit: the pool's
 * shared nodes kept by free GPUs in a rackset), else to an idle node
 * chosen as a 1-node job's would be; whole-node jobs take idle nodes only,
 * so never a node holding a share.  After each pass, queued shares that
 * fit in the free GPUs of shared nodes start in queue order (they take no
 * node, so they delay no reservation).  For the queue and reservations a
 * share counts as one node; quotas count GPUs (max_nodes x gpus per node);
 * shares are not evicted by priority; a spot reclaim gives notice to every
 * job on the node.
 *
 * Maximum run time: a job still running max_run_h after it (re)started is
 * ended (not completed; work since its last checkpoint is lost).
 *
 * Spot pools: nodes are reclaimed by their provider as a Poisson process of
 * reclaim_per_node_day per node in service (not down, not reclaimed),
 * simulated by thinning a process of rate x pool nodes; a reclaimed node is
 * gone for an exponential time of mean reclaim_h (gpu_hours.spot_reclaimed).
 * A job on a reclaimed node gets notice_s of notice: it checkpoints if its
 * write fits in the notice, else loses its work since the last checkpoint,
 * and is requeued.
 *
 * Virtual clusters (vcluster.h; Philly, Helios): a pool with lend = true
 * lends the idle nodes it has while nothing of its own wants them (no job
 * queued, no running job short of nodes), at most lend_max_nodes of them
 * at once, to pools with borrow = true.  A
 * borrowing pool's queue head that does not fit its own idle nodes starts
 * on all of them and the missing ones of the lenders (the one with the
 * most lendable idle nodes gives what it can, then the next, so one lender
 * whenever one has them all); it then counts in its
 * own pool's running jobs, with its own pool's nodes as its share of the
 * reservation.  When a lender's head (or a running job short of nodes)
 * does not fit its idle nodes and those on their way back, it reclaims the
 * missing nodes from the jobs borrowing its nodes, before any eviction by
 * priority and whatever their priority, if the borrowed nodes would let it
 * start: preemptible jobs first, then the lowest priority, then the
 * youngest (latest started), until the nodes reach what it needs.  A
 * reclaimed job gets the lender's lend_notice_s (default 0): it checkpoints
 * if its write fits, else loses the work since its last checkpoint, and is
 * requeued in its own pool (a preemption of its pool: /events
 * lend_reclaim); a reclaim by one lender returns the job's nodes to all
 * of them.  A job refills after a failure from its own pool only, and
 * services neither borrow nor reclaim.  Outputs per pool: own_gpu_h, lent_gpu_h, borrowed_gpu_h,
 * borrow_starts, lend_reclaims, reclaimed.
 *
 * Placement (one function, place_nodes()): "rack" takes the racks of the
 * pool that hold the job best (the fewest idle nodes that hold what is
 * left, else the fullest, and again), so a job spans as few racks as it
 * can; "fifo" takes the longest-idle nodes (single pool only); "pack",
 * "spread", "random" and "topology_aware" are placer.h's policies over
 * racks, leaves and pods (from the start, when the network has set the
 * domains; topology_aware reads each job's replica from its step-time
 * model).
 *
 * Incremental state (so that an event's cost does not grow with the queue
 * or the pool beyond log factors): each pool keeps its idle count and its
 * idle nodes per rack (rackset.h: placement finds its rack without a scan),
 * its queue in order and its running jobs by expected end in treaps with
 * subtree sums and minima (schedtree.h): a pass starts jobs from the head,
 * finds the shadow time by a prefix sum over the running jobs, and looks
 * for backfilling candidates only in subtrees where a job small and short
 * enough may be, stopping when no idle node is left; a job's release gives
 * back the nodes of its own list (dc_cluster_job_node_list) in node order;
 * the running list is scanned only for waiting jobs (when one waits) and
 * for victims (when some running job ranks low enough to be one).
 * dc_sched_work counts this work (tests/test_sched: bounded per event as
 * the queue grows from 1k to 100k jobs).
 *
 * Outputs: pool.NAME.utilisation (node-time held / pool node-time),
 * pool.NAME.queue_mean, series pool.NAME.queue and pool.NAME.busy; cluster
 * utilisation, idle GPU-hours and fragmentation (idle GPU-hours of pools
 * with jobs queued: capacity that no queued job could use); per job rows in
 * /events (job_queued, job_start, job_release, reserve, preempt,
 * spot_reclaim). */
#ifndef DC_SCHEDULER_H
#define DC_SCHEDULER_H

#include <stdbool.h>
#include <stdint.h>

#include "cluster.h"
#include "sim.h"

typedef struct dc_scheduler dc_scheduler;

extern const dc_model_type dc_model_scheduler;
extern const dc_param dc_scheduler_params[];

/* Why a job must give its nodes back (dc_sched_client.preempt). */
typedef enum dc_sched_why { DC_SCHED_PREEMPT, DC_SCHED_SPOT, DC_SCHED_TIMEOUT, DC_SCHED_RECLAIM } dc_sched_why;

typedef struct dc_sched_client {
    /* The job holds all its nodes now: it restarts and computes. */
    void (*start)(void *ctx);
    /* Nodes came back in its pool while it waits for replacements. */
    void (*wake)(void *ctx);
    /* Give the nodes back (dc_sched_done) within notice_s. */
    void (*preempt)(void *ctx, double notice_s, dc_sched_why why);
} dc_sched_client;

typedef struct dc_sched_req {
    int32_t job;          /* cluster job id */
    int pool;
    uint32_t nodes;
    uint32_t gpus;        /* 1..gpus_per_node - 1: a share of one node (nodes is 1); 0: whole nodes */
    int priority;
    int user;             /* dc_sched_user, -1: none */
    bool preemptible;
    double estimate_s;    /* run-time estimate for backfilling */
    double max_run_s;     /* INFINITY: no limit */
    const dc_sched_client *client;
    void *ctx;
} dc_sched_req;

dc_scheduler *dc_scheduler_of(dc_sim *sim);

/* Pool id by name ("" is the first pool); -1 when there is none. */
int dc_sched_pool(const dc_scheduler *s, const char *name);
const char *dc_sched_pool_name(const dc_scheduler *s, int pool);
uint32_t dc_sched_pool_nodes(const dc_scheduler *s, int pool);
/* Its first node: a pool holds nodes first .. first + nodes - 1. */
uint32_t dc_sched_pool_first(const dc_scheduler *s, int pool);
bool dc_sched_pool_spot(const dc_scheduler *s, int pool);
/* The node type of a pool's nodes (cluster.types; -1: a pool across several
 * types), and the first pool of a type alone (-1: none). */
int dc_sched_pool_type(const dc_scheduler *s, int pool);
/* The first CPU-only type (cluster.types with gpus_per_node 0) among the
 * pool's nodes, -1 when it holds none: no GPU job or service may use it. */
int dc_sched_pool_cpu_type(const dc_scheduler *s, int pool);
int dc_sched_pool_of_type(const dc_scheduler *s, int type);
int dc_sched_pool_count(const dc_scheduler *s);
/* Node-seconds the pool's nodes were held by jobs and services from 0 to
 * now (the cost model prices a spot pool's hours with it). */
double dc_sched_pool_held_node_s(dc_scheduler *s, int pool);
/* User id by name (created on first use); -1 when out of memory. */
int dc_sched_user(dc_scheduler *s, const char *name);
double dc_sched_estimate_factor(const dc_scheduler *s);

/* Queues a job now; returns its handle (>= 0) or -1 when out of memory
 * (after failing the run). */
int dc_sched_submit(dc_scheduler *s, const dc_sched_req *req);
/* A running job short of nodes takes up to missing idle nodes of its pool;
 * returns how many.  While still short it is woken when nodes come back. */
uint32_t dc_sched_refill(dc_scheduler *s, int handle, uint32_t missing);
/* The job gives all its nodes back; requeue puts it back in the queue. */
void dc_sched_done(dc_scheduler *s, int handle, bool requeue);

/* Services: takes n idle nodes of pool for cluster job id at once, or none
 * (false); none either while a job of priority >= priority waits in the
 * pool's queue (within its quota).  nodes receives them. */
bool dc_sched_take_now(dc_scheduler *s, int32_t job, int pool, int priority, uint32_t n, uint32_t *nodes);
/* A service gives one healthy node back. */
void dc_sched_give_back(dc_scheduler *s, uint32_t node);
/* The service of pool now waits for nodes more nodes (0: none; one
 * service per pool).  While it waits the pool lends none of its idle nodes
 * (virtual clusters, vcluster.h), and a lending pool reclaims the nodes it
 * misses beyond its idle ones and those on their way back from the jobs
 * borrowing its nodes, in reclaim order, as for a job of its own; the
 * service takes them when they come back idle ("node_idle").  Services
 * themselves never borrow. */
void dc_sched_service_wants(dc_scheduler *s, int pool, uint32_t nodes);

/* Idle nodes of the pool by the scheduler's count and by a recount of the
 * cluster (tests: they must agree). */
uint32_t dc_sched_pool_idle(const dc_scheduler *s, int pool);
uint32_t dc_sched_pool_idle_recount(const dc_scheduler *s, int pool);
/* The pool's nodes lent to other pools' jobs now, by the lending account
 * and by a recount of the cluster (tests: they must agree). */
uint32_t dc_sched_pool_lent(const dc_scheduler *s, int pool);
uint32_t dc_sched_pool_lent_recount(const dc_scheduler *s, int pool);
/* Every pool's lent count against its recount, the lent nodes against the
 * borrowed ones, and every pool's count of nodes on their way back against
 * its leaving jobs (tests; a scan of every job). */
bool dc_sched_lending_consistent(const dc_scheduler *s);
/* Whether the per-rack idle counts placement keeps agree with a recount of
 * the cluster (tests). */
bool dc_sched_racks_consistent(const dc_scheduler *s);
/* The scheduler's work so far: queue and running-set tree nodes visited,
 * racks probed, nodes looked at, loop steps.  A count, not a time: the
 * scaling test checks that it per event does not grow with the queue. */
uint64_t dc_sched_work(const dc_scheduler *s);

#endif
