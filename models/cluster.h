/* The cluster: nodes with GPUs in racks, spares, jobs, and the narrow API every model shares them
 * through.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Cluster: nodes with GPUs in racks, spare nodes, and the state every other
 * model shares through this narrow API.
 *
 * A node is IDLE (healthy, held by no job: a spare), BUSY (held by a job),
 * DOWN (failed: waiting for or in repair) or RETIRED (taken out of service
 * for good by a retirement policy, until a replacement node takes its
 * place).  Node i sits in rack i / nodes_per_rack.  Idle nodes are handed
 * out first-in first-out, so the job takes nodes 0..n-1 at the start and the
 * rest are its spares.
 *
 * Signals published here (payloads below):
 *   "failure"   dc_failure_event: nodes taken down by one failure (or a
 *               job-level fault with no node); published after the nodes are
 *               marked DOWN but while they still name the job they served.
 *               detect_s is the delay before the failure is noticed (a
 *               hardware fault is reported at once, a hang waits for a
 *               watchdog): the job stalls at once but restarts, and the
 *               repair ticket opens, only after it.
 *   "corruption" dc_corruption_event: silent data corruption of a job's
 *               state on one of its nodes; nothing stops, the job finds
 *               out detect_s later (dc_cluster_corrupt).
 *   "nodes_up"  dc_nodes_event: repaired nodes back as spares (IDLE), with
 *               what the repair did (part replaced, still faulty, new node).
 *   "node_idle" NULL: a node became IDLE (repaired or released).
 *   "job_phase" dc_job_event: a job changed phase (dc_cluster_job_phase).
 *   "job_speed" dc_job_event: a speed factor of a job changed.
 *   "failure_acceleration" dc_failure_class_event: a failure class's
 *               acceleration factor changed.
 *
 * Job speed: while it computes, a job progresses at its full rate times the
 * product of speed factors in (0, 1] that models set by source (a power cap,
 * a thermal throttle, exposed communication, a straggler...).  The job banks
 * the GPU-hours each source costs as the breakdown line gpu_hours.SOURCE:
 * with factors f1..fk in source order, source i costs
 * f1 ... f(i-1) (1 - fi) of the computing GPU-time, so the lines sum exactly
 * to what the job would have done at full speed minus what it did.
 *
 * Accounting: the cluster integrates node counts by state over time and
 * writes gpu_hours.capacity (all GPUs x simulated time), gpu_hours.down
 * (failed or in repair), gpu_hours.idle_spare and gpu_hours.retired; BUSY
 * time is the jobs' to break down.  A model may name why a DOWN node is
 * down (dc_cluster_down_reason, e.g. "parts_wait": waiting for a spare
 * part); that node-time then goes to gpu_hours.REASON instead of
 * gpu_hours.down.
 *
 * Capacity over time (cluster.delivery): the nodes arrive in stages, the
 * stages taking the nodes in order (stage 0 nodes 0..n0-1, ...).  A node
 * not yet delivered, or whose stage has retired (a refresh), is absent: it
 * is DOWN (so it is never idle, draws no power and no failure takes it) but
 * in no down line: the GPU-hour ledger leaves it out, so gpu_hours.capacity
 * is the GPU-hours of the nodes present, sum over stages of GPUs x time
 * present.  On its day a stage's nodes come IDLE with "nodes_up"
 * (new_node: their failure clocks start there) and "node_idle"; on its
 * retire_day the stage's up nodes go through "failure" with class
 * DC_CLASS_STAGE_RETIRED and class name "stage_retired" (no repair ticket;
 * not a hardware failure; their jobs take spares as at a failure) and all
 * its nodes become absent.  Models that count nodes at
 * their init ask dc_cluster_node_present.
 *
 * Mixed hardware (cluster.types): node types take the nodes in order (type 0
 * nodes 0..n0-1, ...), each with its GPUs' peak, its power figures and its
 * prices (NAN: the power and cost sections' own); every type has the
 * cluster's gpus_per_node or none (gpus_per_node = 0: a CPU-only type; at
 * least one type has GPUs).  A delivery stage holds nodes of one type.
 *
 * CPU-only nodes: they hold no GPU, so they add nothing to the GPU-hour
 * ledger (gpu_hours.capacity counts the GPU nodes' GPUs; cluster.gpus too).
 * Their node-time goes to a ledger of its own, in node-hours:
 * cpu_node_hours.capacity (DC_CPU_BREAKDOWN_TOTAL: CPU nodes present x
 * time) = down (+ down reasons) + idle_spare + retired, written here, + the
 * busy lines the job model writes (useful, restart, rollback ...), which
 * sum exactly as the GPU lines do.  A CPU job (dc_cluster_set_job_cpu)
 * holds CPU-only nodes: dc_cluster_job_gpus_per_node is 0 for it, so every
 * per-GPU figure (power, per-job-GPU faults, busy GPUs) leaves it out.  The
 * scheduler gives each type a pool of its own when it has no pools (pools
 * lie within one type), so a job of one type never runs on another's nodes.
 *
 * Failure acceleration: the failure model registers its classes
 * (dc_cluster_add_failure_class, ids = positions in the scenario's
 * failures list); another model (cooling: Arrhenius or doubling per 10 C)
 * sets a factor per class with dc_cluster_set_failure_acceleration.  A
 * factor a makes the class's units age a times faster (accelerated life:
 * an exponential rate is multiplied by a).  Failure models register the hazard they put on a job
 * (dc_cluster_add_hazard), so a checkpoint policy can compute the expected
 * time between interruptions without knowing the failure model. */
#ifndef DC_CLUSTER_H
#define DC_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim.h"
#include "vclock.h"

typedef enum dc_node_state { DC_NODE_IDLE, DC_NODE_BUSY, DC_NODE_DOWN, DC_NODE_RETIRED } dc_node_state;

/* What a job is doing (set by the job model, read by power, failure...). */
typedef enum dc_job_phase {
    DC_JOB_PENDING,    /* before its start time */
    DC_JOB_WAITING,    /* fewer healthy nodes than it needs */
    DC_JOB_RESTARTING, /* detect, reschedule, read checkpoint, warm up */
    DC_JOB_RUNNING,    /* computing */
    DC_JOB_CHECKPOINTING,
    DC_JOB_DONE,
    DC_JOB_DETECTING,  /* stalled by a failure not yet noticed (after DONE to keep the values) */
} dc_job_phase;
#define DC_JOB_PHASES (DC_JOB_DETECTING + 1)

/* Payload of the "job_phase" and "job_speed" signals. */
typedef struct dc_job_event {
    int32_t job;
} dc_job_event;

typedef struct dc_failure_event {
    int class_id;           /* index in the scenario's failures list */
    const char *class_name;
    const uint32_t *nodes;  /* nodes this failure took down (they were up) */
    size_t n_nodes;
    int32_t job;            /* a job-level fault: the job hit; else -1 */
    double detect_s;        /* delay before the failure is noticed (0: at once) */
    double return_s;        /* > 0: the nodes come back this long after the failure, returned by
                             * the sender (a failure log's repair time): no repair ticket */
} dc_failure_event;

typedef struct dc_corruption_event {
    int class_id;
    const char *class_name;
    int32_t node;           /* the node whose fault corrupted the state, -1 if none */
    int32_t job;
    double detect_s;        /* when the job will notice, from now */
} dc_corruption_event;

typedef struct dc_nodes_event {
    const uint32_t *nodes;
    size_t n_nodes;
    /* Added for the repair pipeline (zero/false/-1 from dc_cluster_repaired): */
    int class_id;           /* the fault repaired, -1 if not told */
    bool as_new;            /* the failed part was replaced: its hazard restarts */
    bool still_faulty;      /* misdiagnosed: the fault is still there */
    double refail_s;        /* still_faulty: time from now until it shows again */
    bool new_node;          /* a new node replacing a retired one */
} dc_nodes_event;

typedef struct dc_failure_class_event {
    int class_id;
} dc_failure_class_event;

typedef struct dc_cluster dc_cluster;

/* The class id of the "failure" that takes a retiring stage's nodes out (a
 * refresh; negative like every class no failure model owns). */
#define DC_CLASS_STAGE_RETIRED (-2)

/* A node type (cluster.types.[]); without a types list one type "default"
 * holds every node, its figures NAN. */
typedef struct dc_cluster_type {
    char name[32];
    uint32_t first, nodes;               /* nodes first .. first + nodes - 1 */
    double gpu_peak_tflops;              /* NAN: not given */
    double gpu_idle_w, gpu_peak_w, host_w, host_idle_w; /* NAN: the power section's */
    double gpu_usd, server_usd;          /* NAN: cost.capex's */
    double failure_scale;                /* hazard factor of its nodes' per-GPU and per-node classes (1) */
    uint32_t gpus_per_node;              /* the cluster's, or 0: a CPU-only type */
    uint32_t cores_per_node;             /* CPU cores (0: not given) */
} dc_cluster_type;

/* A delivery stage (cluster.delivery.[]); without a delivery list one stage
 * holds every node from day 0. */
typedef struct dc_cluster_stage {
    uint32_t first, nodes;   /* nodes first .. first + nodes - 1 */
    double arrive_s;         /* when they arrive (0: at the start) */
    double leave_s;          /* when they retire (INFINITY: never) */
    double rent_until_s;     /* cost: rented until then, bought then (-INFINITY: not rented) */
} dc_cluster_stage;

extern const dc_model_type dc_model_cluster;
extern const dc_param dc_cluster_params[];

/* The cluster model of sim, or NULL if the scenario has none. */
dc_cluster *dc_cluster_of(dc_sim *sim);

uint32_t dc_cluster_node_count(const dc_cluster *c);
uint32_t dc_cluster_gpus_per_node(const dc_cluster *c);
uint32_t dc_cluster_nodes_per_rack(const dc_cluster *c);
uint32_t dc_cluster_rack_count(const dc_cluster *c);
uint32_t dc_cluster_idle_count(const dc_cluster *c);
uint32_t dc_cluster_down_count(const dc_cluster *c);
uint32_t dc_cluster_retired_count(const dc_cluster *c);

dc_node_state dc_cluster_node_state(const dc_cluster *c, uint32_t node);
/* Delivery stages (at least one) and whether a node is present now
 * (delivered, its stage not retired); absent nodes are DOWN. */
size_t dc_cluster_stage_count(const dc_cluster *c);
const dc_cluster_stage *dc_cluster_stage_at(const dc_cluster *c, size_t k);
bool dc_cluster_node_present(const dc_cluster *c, uint32_t node);
uint32_t dc_cluster_absent_count(const dc_cluster *c);
/* Node types (at least one), a node's type, a type by name (-1: none) and
 * its idle nodes now; a node's GPUs (0 on a CPU-only node) and the CPU-only
 * nodes' count. */
uint32_t dc_cluster_node_gpus(const dc_cluster *c, uint32_t node);
uint32_t dc_cluster_cpu_node_count(const dc_cluster *c);
size_t dc_cluster_type_count(const dc_cluster *c);
const dc_cluster_type *dc_cluster_type_at(const dc_cluster *c, size_t t);
int dc_cluster_node_type(const dc_cluster *c, uint32_t node);
int dc_cluster_type_find(const dc_cluster *c, const char *name);
uint32_t dc_cluster_type_idle_count(const dc_cluster *c, size_t t);
/* Free GPUs of shared nodes (GPU-granular allocation), of all types and of
 * type t: they idle (the power model draws their share of an idle node). */
uint64_t dc_cluster_shared_free_gpus(const dc_cluster *c);
uint64_t dc_cluster_type_shared_free_gpus(const dc_cluster *c, size_t t);
/* The job holding node, -1 if none. */
int32_t dc_cluster_node_job(const dc_cluster *c, uint32_t node);

/* Network domains, for placement and the fabric: node i sits under leaf
 * switch i / nodes_per_leaf (a ToR, or a rail group), leaf l in pod
 * l / leaves_per_pod.  The network model sets them at its init from its
 * topology (dc_cluster_set_domains); without a network a leaf is a rack and
 * the whole cluster one pod.  Models init before the network (the
 * scheduler) read them at start or later, never at init. */
void dc_cluster_set_domains(dc_cluster *c, uint32_t nodes_per_leaf, uint32_t leaves_per_pod);
uint32_t dc_cluster_nodes_per_leaf(const dc_cluster *c);
uint32_t dc_cluster_leaves_per_pod(const dc_cluster *c);
uint32_t dc_cluster_leaf_count(const dc_cluster *c);
uint32_t dc_cluster_pod_count(const dc_cluster *c);
uint32_t dc_cluster_node_leaf(const dc_cluster *c, uint32_t node);
uint32_t dc_cluster_node_pod(const dc_cluster *c, uint32_t node);

/* Jobs register at init so that failure models can size job-level faults. */
int32_t dc_cluster_add_job(dc_cluster *c, uint32_t nodes);
/* Room for more jobs to register without the job array growing again
 * (a trace's rows: one copy of the array instead of a copy per doubling);
 * false when out of memory (nothing changed). */
bool dc_cluster_reserve_jobs(dc_cluster *c, size_t more);
uint32_t dc_cluster_job_count(const dc_cluster *c);
uint32_t dc_cluster_job_nodes(const dc_cluster *c, int32_t job);
/* Nodes the job holds now (BUSY for it): fewer than it needs while it waits. */
uint32_t dc_cluster_job_held_nodes(const dc_cluster *c, int32_t job);
/* Those nodes, in no particular order (*n = their count); the array is the
 * cluster's and changes with the next node the job takes or loses. */
const uint32_t *dc_cluster_job_node_list(const dc_cluster *c, int32_t job, uint32_t *n);
/* The slots of the job's node list written since its changes count was
 * since, ascending and each once, in out (room for max): their count, or
 * -1 when the cluster no longer knows them all (more than max, a bulk
 * take, or too long ago: it keeps the last 64 writes of all jobs).  The
 * other slots hold the nodes they held then (a replacement: a node out,
 * the last swapped into its slot, one in at the end). */
int dc_cluster_job_slots_since(const dc_cluster *c, int32_t job, uint64_t since, uint32_t *out, int max);
/* How many times the job's node set changed (a node taken or lost): equal
 * counts, equal sets. */
uint64_t dc_cluster_job_nodes_changes(const dc_cluster *c, int32_t job);

/* GPU-granular allocation: a job of fewer GPUs than a node has
 * (dc_cluster_set_job_gpus, at registration) holds a share of one node:
 * its GPUs on it.  Shares of several jobs fill one node (the scheduler
 * chooses which: best fit); a shared node is BUSY while any share is on
 * it, is never given whole to another job, and goes back IDLE when its
 * last share leaves.  Its failure takes it from every job on it: the
 * "failure" event names the node and each of those jobs still holds it
 * (dc_cluster_node_holds) until the event is published.  Accounting: a
 * job's GPU-time is its held nodes x dc_cluster_job_gpus_per_node, and
 * the free GPUs of shared nodes go to gpu_hours.idle_spare, so that the
 * breakdown still sums to the cluster's capacity.  dc_cluster_node_job
 * names the first job on a shared node, dc_cluster_node_next_job the
 * next (-1 at the end). */
void dc_cluster_set_job_gpus(dc_cluster *c, int32_t job, uint32_t gpus);
/* GPUs the job uses on each node it holds: its share, else gpus_per_node;
 * 0 for a CPU job (marked at registration). */
uint32_t dc_cluster_job_gpus_per_node(const dc_cluster *c, int32_t job);
void dc_cluster_set_job_cpu(dc_cluster *c, int32_t job);
bool dc_cluster_job_cpu(const dc_cluster *c, int32_t job);
uint32_t dc_cluster_job_held_gpus(const dc_cluster *c, int32_t job);
/* Free GPUs of node: all of an IDLE node, the rest of a shared one, else 0. */
uint32_t dc_cluster_node_free_gpus(const dc_cluster *c, uint32_t node);
bool dc_cluster_node_shared(const dc_cluster *c, uint32_t node);
bool dc_cluster_node_holds(const dc_cluster *c, uint32_t node, int32_t job);
int32_t dc_cluster_node_next_job(const dc_cluster *c, uint32_t node, int32_t job);
/* GPUs of BUSY nodes held by jobs (a shared node's free GPUs not counted). */
uint64_t dc_cluster_busy_gpus(const dc_cluster *c);
/* A model that follows a subset of the jobs (the power model: those in
 * play) marks them, and the cluster keeps the GPUs they hold summed as
 * nodes come and go, so that "do my jobs hold every busy GPU?" costs O(1)
 * (dc_cluster_tracked_held_gpus == dc_cluster_busy_gpus), not a pass over
 * them.  One such model per cluster. */
void dc_cluster_job_track(dc_cluster *c, int32_t job, bool on);
uint64_t dc_cluster_tracked_held_gpus(const dc_cluster *c);
/* The same for CPU jobs, in nodes (they hold no GPU): the tracked CPU
 * jobs' nodes against the busy CPU-only nodes. */
uint32_t dc_cluster_tracked_cpu_nodes(const dc_cluster *c);
uint32_t dc_cluster_busy_cpu_nodes(const dc_cluster *c);
/* A model that keeps sums over the jobs' holdings incrementally (the
 * power model with many jobs) asks the cluster to note every job whose
 * held nodes change (a node taken or given back, a failure, a share, a
 * piecemeal refill that publishes nothing): dc_cluster_held_changes lists
 * each such job once since the last dc_cluster_held_changes_clear.  The
 * list never holds more than the jobs, so noting allocates nothing.
 * DC_ENOMEM when the list cannot be made.  One such model per cluster. */
int dc_cluster_note_held_changes(dc_cluster *c);
size_t dc_cluster_held_changes(const dc_cluster *c, const int32_t **jobs);
void dc_cluster_held_changes_clear(dc_cluster *c);
/* Jobs holding a share now. */
uint32_t dc_cluster_share_count(const dc_cluster *c);
/* Gives a share job (holding nothing) its GPUs on node: an IDLE node
 * (which becomes shared) or a shared one with room; false otherwise. */
bool dc_cluster_take_share(dc_cluster *c, int32_t job, uint32_t node);
/* The share job gives its GPUs back; true when its node became IDLE
 * ("node_idle" published). */
bool dc_cluster_release_share(dc_cluster *c, int32_t job);

/* The idle nodes in the order they will be handed out (longest idle first):
 * dc_cluster_idle_first, then dc_cluster_idle_next until -1. */
int32_t dc_cluster_idle_first(const dc_cluster *c);
int32_t dc_cluster_idle_next(const dc_cluster *c, uint32_t node);
/* When an idle node became idle (s; 0 for nodes idle from the start). */
double dc_cluster_node_idle_since_s(const dc_cluster *c, uint32_t node);
/* The job model sets its phase; publishes "job_phase" when it changes,
 * with the edge's kind DC_JOB_EDGE(old, new) (dc_sim_publish_kind), so that
 * a subscriber may take only the edges it acts on (dc_sim_subscribe_kinds;
 * a job checkpointing every few minutes makes thousands of edges between
 * RUNNING and CHECKPOINTING that most subscribers ignore). */
void dc_cluster_set_job_phase(dc_cluster *c, int32_t job, dc_job_phase phase);
#define DC_JOB_EDGE(from, to) ((unsigned)(from) * DC_JOB_PHASES + (unsigned)(to))
/* Kind masks of phase edges, phases a set of bits (bit p: phase p): the
 * edges into a phase of the set; the edges with an end in the set. */
uint64_t dc_job_edges_into(unsigned phases);
uint64_t dc_job_edges_touching(unsigned phases);
dc_job_phase dc_cluster_job_phase(const dc_cluster *c, int32_t job);
/* Whether job-level faults can hit the job now (running or checkpointing). */
bool dc_cluster_job_active(const dc_cluster *c, int32_t job);

/* Registers a speed source by name (its breakdown line is gpu_hours.NAME);
 * the same name gives the same id; -1 when out of memory or more than
 * DC_MAX_SPEED_SOURCES.  Register at init. */
#define DC_MAX_SPEED_SOURCES 16
int dc_cluster_speed_source(dc_cluster *c, const char *name);
size_t dc_cluster_speed_source_count(const dc_cluster *c);
const char *dc_cluster_speed_source_name(const dc_cluster *c, int source);
/* Sets one factor (clamped to [0, 1]; 1 = no slow-down) and publishes
 * "job_speed" when it changes.  A factor of 0 stops progress. */
void dc_cluster_set_job_speed(dc_cluster *c, int32_t job, int source, double factor);
/* (of a clocked source of a job bound to a clock: the clock's factor) */
double dc_cluster_job_speed_factor(const dc_cluster *c, int32_t job, int source);
/* All the job's factors, by source (dc_cluster_speed_source_count of them;
 * read-only, valid until the next factor set): for a model that reads them
 * all at every change.  The clocked sources of a job bound to a clock hold
 * their last own factors here, not the clock's. */
const double *dc_cluster_job_speed_factors(const dc_cluster *c, int32_t job);
/* The product of all factors of the job. */
double dc_cluster_job_speed(const dc_cluster *c, int32_t job);

/* Speed clocks (sim/vclock.h): the factors of up to DC_VCLOCK_LEVELS
 * sources (ascending; the power model's power_cap and thermal) may follow
 * a virtual clock shared by many jobs instead of a value per job: a job
 * bound to clock k has factor k.f_l for source sources[l], and the job
 * model banks its progress from k's integrals, so a change of the clock's
 * factors costs one bank, no signal and no work per job.  The cluster owns
 * the clocks (they outlive every model's records). */
int dc_cluster_set_clock_sources(dc_cluster *c, const int *sources, size_t n); /* at init */
size_t dc_cluster_clock_sources(const dc_cluster *c, const int **sources);
/* A new clock over the clock sources (NULL when out of memory or none set). */
dc_vclock *dc_cluster_new_clock(dc_cluster *c);
/* Binds the job's clocked sources to clock (NULL: their own factors);
 * publishes "job_speed" when the binding changes. */
void dc_cluster_set_job_clock(dc_cluster *c, int32_t job, dc_vclock *clock);
/* Unbinds without a signal: only for a job that is not running (its
 * factors count for nothing until it runs again, and it reads its binding
 * at every bank). */
void dc_cluster_drop_job_clock(dc_cluster *c, int32_t job);
dc_vclock *dc_cluster_job_clock(const dc_cluster *c, int32_t job);

/* Takes the longest-idle node for job; false when none is idle. */
bool dc_cluster_take_idle(dc_cluster *c, int32_t job, uint32_t *node);
/* Takes the n longest-idle nodes (fewer when fewer are idle) for job, as n
 * calls of dc_cluster_take_idle would, in one pass (a job of a million
 * nodes starting); their numbers into out (NULL: not wanted) in that order.
 * Returns how many. */
uint32_t dc_cluster_take_idle_n(dc_cluster *c, int32_t job, uint32_t n, uint32_t *out);
/* A job gives a healthy node back. */
void dc_cluster_release(dc_cluster *c, uint32_t node);
/* Takes a given IDLE node for job (placement chooses which: scheduler.h);
 * false when that node is not idle. */
bool dc_cluster_take_node(dc_cluster *c, int32_t job, uint32_t node);
/* Takes an IDLE node out of service for a while without a failure (a spot
 * node reclaimed by its provider): it becomes DOWN with reason (its time goes
 * to gpu_hours.REASON), no "failure" is published and no repair opens.
 * dc_cluster_restore brings it back IDLE and publishes "node_idle" only
 * (its failure clocks kept running).  false when the node is not IDLE / not
 * DOWN. */
bool dc_cluster_withdraw(dc_cluster *c, uint32_t node, int reason);
bool dc_cluster_restore(dc_cluster *c, uint32_t node);

/* Marks nodes DOWN and publishes "failure".  Nodes already DOWN (or
 * RETIRED) are skipped; job-level faults pass n_nodes = 0 and the job. */
void dc_cluster_fail(dc_cluster *c, int class_id, const char *class_name,
                     const uint32_t *nodes, size_t n_nodes, int32_t job);
/* The same, for a failure noticed detect_s after now. */
void dc_cluster_fail_detected(dc_cluster *c, int class_id, const char *class_name,
                              const uint32_t *nodes, size_t n_nodes, int32_t job,
                              double detect_s);
/* The same, for a failure whose nodes the caller returns return_s after
 * now (dc_failure_event.return_s; the repair model leaves them alone). */
void dc_cluster_fail_returning(dc_cluster *c, int class_id, const char *class_name,
                               const uint32_t *nodes, size_t n_nodes, int32_t job,
                               double detect_s, double return_s);
/* Publishes "corruption": node's fault silently corrupted job's state. */
void dc_cluster_corrupt(dc_cluster *c, int class_id, const char *class_name,
                        int32_t node, int32_t job, double detect_s);
/* Repaired nodes come back IDLE; publishes "nodes_up" (as_new, class -1). */
void dc_cluster_repaired(dc_cluster *c, const uint32_t *nodes, size_t n_nodes);
/* The same with what the repair did (ev names the nodes and the outcome). */
void dc_cluster_returned(dc_cluster *c, const dc_nodes_event *ev);
/* A DOWN node leaves service for good (RETIRED). */
void dc_cluster_retire(dc_cluster *c, uint32_t node);
/* A new node takes a RETIRED node's place: it comes back IDLE, and
 * "nodes_up" says new_node. */
void dc_cluster_replace_retired(dc_cluster *c, uint32_t node);

/* Why a DOWN node is down: reasons are registered by name at init (the same
 * name gives the same id, -1 when out of room); reason 0 is plain "down".
 * The node-time goes to gpu_hours.NAME.  Reset to 0 when the node comes back. */
#define DC_MAX_DOWN_REASONS 8
int dc_cluster_down_reason(dc_cluster *c, const char *name);
void dc_cluster_set_down_reason(dc_cluster *c, uint32_t node, int reason);

/* Failure classes and their acceleration factors (1 unless a model sets
 * one; >= 0).  Setting publishes "failure_acceleration" when it changes. */
int dc_cluster_add_failure_class(dc_cluster *c, const char *name);
int dc_cluster_failure_class_count(const dc_cluster *c);
const char *dc_cluster_failure_class_name(const dc_cluster *c, int class_id);
void dc_cluster_set_failure_acceleration(dc_cluster *c, int class_id, double factor);
double dc_cluster_failure_acceleration(const dc_cluster *c, int class_id);

/* Hazard a failure model adds, in failures per second: per node, per rack,
 * per job, per job GPU.  dc_cluster_job_hazard sums it for a job of n nodes
 * spanning ceil(n / nodes_per_rack) racks. */
void dc_cluster_add_hazard(dc_cluster *c, double per_node, double per_rack,
                           double per_job, double per_job_gpu);
double dc_cluster_job_hazard(const dc_cluster *c, uint32_t nodes);
/* A per-GPU class's part of the per-node hazard (its rate x GPUs per node):
 * in dc_cluster_job_hazard, but not for a job on a CPU-only type. */
void dc_cluster_add_gpu_hazard(dc_cluster *c, double per_node);
/* The same for a job on nodes of one type (cluster.types; -1: any): the
 * per-node part times the type's failure_scale (the failure model scales
 * its per-GPU and per-node classes so); on a CPU-only type without the
 * per-GPU classes' part and the per-job-GPU term. */
double dc_cluster_job_hazard_on(const dc_cluster *c, uint32_t nodes, int type);

#endif
