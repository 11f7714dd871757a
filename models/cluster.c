/* The cluster's shared state: nodes, racks, spares, jobs, phases, speed factors and the GPU-hour
 * ledger.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "cluster.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"

/* Caps that keep a typo from asking for terabytes before anything runs. */
#define MAX_NODES 10000000.0
#define MAX_GPUS_PER_NODE 1024.0

const dc_param dc_cluster_params[] = {
    {"cluster", DC_PARAM_GROUP, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "the machines: nodes in racks, each with GPUs"},
    {"cluster.nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "nodes", 0, NULL, 1, MAX_NODES, NULL,
     "nodes in service (the job's share and more), not counting spares"},
    {"cluster.spare_nodes", DC_PARAM_INT, 0, "nodes", 0, NULL, 0, MAX_NODES, NULL,
     "extra healthy nodes kept as spares (hot spares swap in at once)"},
    {"cluster.gpus_per_node", DC_PARAM_INT, 0, "GPUs", 8, NULL, 1, MAX_GPUS_PER_NODE, NULL,
     "GPUs in each node"},
    {"cluster.nodes_per_rack", DC_PARAM_INT, 0, "nodes", 4, NULL, 1, 1024, NULL,
     "nodes per rack (a rack-level failure takes them all)"},
    {"cluster.types", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "mixed hardware: node types, taken in order (their nodes add up to nodes + spare_nodes; each has the "
     "cluster's gpus_per_node, or none: a CPU-only type); absent: one type"},
    {"cluster.types.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "type name (a job's type; its own scheduler pool when scheduler.pools is absent)"},
    {"cluster.types.[].nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "nodes", 0, NULL, 1, MAX_NODES, NULL,
     "nodes of this type"},
    {"cluster.types.[].gpus_per_node", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "GPUs", 0, NULL, 0, MAX_GPUS_PER_NODE, NULL,
     "GPUs in each node of this type: the cluster's gpus_per_node (the default) or 0, a CPU-only type (its nodes run "
     "CPU jobs, their time in cpu_node_hours.*, none in gpu_hours.*)"},
    {"cluster.types.[].cores_per_node", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "cores", 0, NULL, 1, 1e5, NULL,
     "CPU cores in each node of this type (the chip table; cluster.cpu_cores)"},
    {"cluster.types.[].gpu_peak_tflops", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "TFLOP/s", 0,
     NULL, 0, 1e6, NULL, "peak dense TFLOP/s of one GPU (the default of its jobs' gpu_peak_tflops; the chip table)"},
    {"cluster.types.[].gpu_idle_w", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "W", 0, NULL, 0, 1e4, NULL,
     "power of an idle GPU (default: power.gpu.idle_w)"},
    {"cluster.types.[].gpu_peak_w", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "W", 0, NULL, 0,
     1e4, NULL, "power of a GPU at full utilisation and clock (default: power.gpu.peak_w)"},
    {"cluster.types.[].host_w", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "W", 0, NULL, 0, 1e6, NULL,
     "power of a busy node without its GPUs (default: power.node.host_w; a CPU-only node's busy power)"},
    {"cluster.types.[].host_idle_w", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "W", 0, NULL, 0, 1e6, NULL,
     "power of an idle node without its GPUs (default: power.node.host_idle_w; a CPU-only node's idle power)"},
    {"cluster.types.[].gpu_usd", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "USD", 0, NULL, 0, 1e15, NULL,
     "price of one GPU (default: cost.capex.gpu_usd)"},
    {"cluster.types.[].server_usd", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "USD", 0, NULL, 0, 1e15, NULL,
     "price of one node without its GPUs (default: cost.capex.server_usd; a CPU-only node's price)"},
    {"cluster.types.[].failure_scale", DC_PARAM_FLOAT, 0, "", 1, NULL, 0, 1e6, NULL,
     "failure rate of this type's nodes against the failure classes' (per-GPU and per-node classes: their "
     "hazard times this)"},
    {"cluster.delivery", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "capacity over time: the nodes arrive in stages, taken in order (their nodes add up to nodes + spare_nodes); "
     "absent: every node from day 0"},
    {"cluster.delivery.[].day", DC_PARAM_FLOAT, 0, "days", 0, NULL, 0, 1e6, NULL,
     "day the stage's nodes arrive and become schedulable"},
    {"cluster.delivery.[].nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "nodes", 0, NULL, 1, MAX_NODES, NULL,
     "nodes of the stage"},
    {"cluster.delivery.[].retire_day", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "days", 0, NULL, 0, 1e6, NULL,
     "a refresh: the stage's nodes leave service on this day (their jobs lose them as at a failure); "
     "a later stage brings their replacements"},
    {"cluster.delivery.[].rent_until_day", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "days", 0, NULL, 0, 1e6, NULL,
     "rent then buy (the cost model): the stage is rented on demand from its arrival until this day, then "
     "bought, its capital spent and its depreciation started that day"},
    {0},
};

typedef struct job_slot {
    uint32_t nodes;
    uint32_t gpus;       /* a share of one node: its GPUs (0: whole nodes) */
    int32_t share_node;  /* the node it shares, -1 when none */
    int32_t occ_next, occ_prev; /* the other jobs on its shared node */
    int32_t lost_node, lost_next; /* its shared node failed: the jobs it held, while the failure is published */
    uint32_t held;
    bool tracked;        /* its held GPUs count in tracked_gpus (dc_cluster_job_track) */
    bool noted;          /* in held_changed (dc_cluster_note_held_changes) */
    bool cpu;            /* a CPU job: it holds CPU-only nodes, no GPUs */
    uint32_t *list, cap; /* the held nodes (node_pos[n] is n's index) */
    uint64_t changes;
    uint64_t slot_floor; /* the highest changes count of its slot_log entries the ring dropped */
    uint64_t slot_last;  /* its newest slot_log entry's number + 1 (0: none) */
    dc_job_phase phase;
    dc_vclock *clock;    /* its clocked sources follow this (NULL: none) */
    /* its factors by source: the cluster's shared row of 1s (ones) until
     * one of them first falls below 1, then its own row (a queued job's
     * are all 1: 8 bytes a job rather than 128) */
    double *speed;
} job_slot;

/* A write to a job's node list (dc_cluster_job_slots_since): its slot
 * (SLOT_ALL: some or all, unknown), and the job's changes count after it. */
#define SLOT_LOG 64
#define SLOT_ALL UINT32_MAX
typedef struct slot_entry {
    int32_t job;
    uint32_t slot;
    uint64_t changes;
    uint64_t prev; /* the job's entry before (its number + 1; 0: none) */
} slot_entry;

struct dc_cluster {
    dc_sim *sim;
    slot_entry slot_log[SLOT_LOG]; /* the last writes to the jobs' node lists, a ring */
    uint64_t n_slot_log;           /* writes logged (the next is at n_slot_log % SLOT_LOG) */
    uint32_t n_nodes, gpus_per_node, nodes_per_rack, n_racks;
    dc_cluster_stage *stages;
    size_t n_stages;
    dc_cluster_type *types;
    size_t n_types;
    uint8_t *type_of;     /* per node with several types */
    bool has_cpu;         /* a CPU-only type (gpus_per_node 0) exists */
    uint32_t n_cpu_nodes; /* nodes of the CPU-only types */
    uint32_t *type_idle;  /* idle nodes per type */
    uint64_t *type_shared_free; /* free GPUs on shared nodes per type (the power model: they idle) */
    uint8_t *absent;      /* per node when stages come or go: not delivered or retired */
    uint32_t n_absent;    /* absent nodes (DOWN, in no down line) */
    double absent_node_s;
    uint8_t *state;       /* dc_node_state per node */
    uint8_t *reason;      /* down reason per DOWN node (0: plain down) */
    int32_t *job_of;      /* job per node (a shared node: the first of its jobs), -1 if none */
    uint32_t *used_gpus;  /* GPUs held by shares on a shared BUSY node (0: not shared) */
    uint64_t shared_free; /* free GPUs on shared nodes, summed */
    uint64_t tracked_gpus; /* GPUs held by the tracked jobs */
    uint32_t tracked_cpu_nodes; /* CPU-only nodes held by the tracked jobs (CPU jobs) */
    int32_t *held_changed; /* jobs whose held nodes changed since the last clear (NULL: not noted) */
    size_t n_held_changed, cap_held_changed; /* (its capacity: the jobs registered then) */
    uint32_t n_shares;    /* jobs holding a share */
    uint32_t *node_pos;   /* a BUSY node's index in its job's list */
    uint32_t nodes_per_leaf, leaves_per_pod; /* network domains */
    /* Idle nodes in a doubly linked FIFO list (O(1) removal when a spare fails). */
    int32_t *idle_next, *idle_prev;
    int32_t idle_head, idle_tail;
    uint32_t idle_count;
    double *idle_since_s;
    uint32_t n_busy, n_down, n_retired;
    uint32_t n_down_reason[DC_MAX_DOWN_REASONS];
    /* The same counts of the CPU-only nodes alone (they are in the above too;
     * the GPU-hour ledger takes the difference). */
    uint32_t cpu_idle_count, cpu_n_busy, cpu_n_down, cpu_n_absent, cpu_n_retired;
    uint32_t cpu_n_down_reason[DC_MAX_DOWN_REASONS];

    job_slot *jobs;
    uint32_t n_jobs, cap_jobs;

    double hazard_node_cpu; /* the per-node part of hazard_node without the per-GPU classes' */
    double hazard_node, hazard_rack, hazard_job, hazard_job_gpu;

    /* Node-seconds by state, banked at every change. */
    double last_change_s;
    double idle_node_s, busy_node_s, down_node_s, retired_node_s;
    double shared_free_gpu_s; /* free GPUs of shared nodes x time */
    double reason_node_s[DC_MAX_DOWN_REASONS];
    /* CPU-only nodes' node-seconds by state (not in the lines above) */
    double cpu_idle_s, cpu_busy_s, cpu_down_s, cpu_absent_s, cpu_retired_s;
    double cpu_reason_s[DC_MAX_DOWN_REASONS];
    char reason_names[DC_MAX_DOWN_REASONS][32];
    size_t n_reasons;

    char speed_names[DC_MAX_SPEED_SOURCES][32];
    size_t n_speed_sources;
    int clock_src[DC_VCLOCK_LEVELS];
    size_t n_clock_src;
    double ones[DC_MAX_SPEED_SOURCES]; /* the speed factors of every job not slowed yet */
    dc_vclock **clocks;  /* every clock made, freed at the end */
    size_t n_clocks, cap_clocks;

    /* failure classes registered by the failure model, with acceleration factors */
    char (*class_names)[32];
    double *class_accel;
    int n_classes;

    int sig_failure, sig_nodes_up, sig_node_idle, sig_job_phase, sig_job_speed, sig_corruption, sig_accel;
    dc_series *series_up, *series_down;
};

dc_cluster *dc_cluster_of(dc_sim *sim) { return dc_sim_model(sim, "cluster"); }
uint32_t dc_cluster_node_count(const dc_cluster *c) { return c->n_nodes; }
uint32_t dc_cluster_gpus_per_node(const dc_cluster *c) { return c->gpus_per_node; }
uint32_t dc_cluster_nodes_per_rack(const dc_cluster *c) { return c->nodes_per_rack; }
uint32_t dc_cluster_rack_count(const dc_cluster *c) { return c->n_racks; }
uint32_t dc_cluster_idle_count(const dc_cluster *c) { return c->idle_count; }
uint32_t dc_cluster_down_count(const dc_cluster *c) { return c->n_down; }
uint32_t dc_cluster_retired_count(const dc_cluster *c) { return c->n_retired; }
int dc_cluster_failure_class_count(const dc_cluster *c) { return c->n_classes; }
const char *dc_cluster_failure_class_name(const dc_cluster *c, int class_id) { return c->class_names[class_id]; }
double dc_cluster_failure_acceleration(const dc_cluster *c, int class_id) { return c->class_accel[class_id]; }
dc_node_state dc_cluster_node_state(const dc_cluster *c, uint32_t node) { return (dc_node_state)c->state[node]; }
size_t dc_cluster_stage_count(const dc_cluster *c) { return c->n_stages; }
const dc_cluster_stage *dc_cluster_stage_at(const dc_cluster *c, size_t k) { return &c->stages[k]; }
bool dc_cluster_node_present(const dc_cluster *c, uint32_t node) { return !c->absent || !c->absent[node]; }
uint32_t dc_cluster_absent_count(const dc_cluster *c) { return c->n_absent; }
static bool absent(const dc_cluster *c, uint32_t node) { return c->absent && c->absent[node]; }
static bool is_cpu(const dc_cluster *c, uint32_t node)
{
    return c->has_cpu && c->types[c->type_of[node]].gpus_per_node == 0;
}
/* A node count changes, and the CPU-only nodes' with it. */
#define NODE_INC(c, node, field) ((c)->field++, (c)->cpu_##field += is_cpu((c), (node)))
#define NODE_DEC(c, node, field) ((c)->field--, (c)->cpu_##field -= is_cpu((c), (node)))
uint32_t dc_cluster_node_gpus(const dc_cluster *c, uint32_t node) { return is_cpu(c, node) ? 0 : c->gpus_per_node; }
uint32_t dc_cluster_cpu_node_count(const dc_cluster *c) { return c->n_cpu_nodes; }
size_t dc_cluster_type_count(const dc_cluster *c) { return c->n_types; }
const dc_cluster_type *dc_cluster_type_at(const dc_cluster *c, size_t t) { return &c->types[t]; }
int dc_cluster_node_type(const dc_cluster *c, uint32_t node) { return c->type_of ? c->type_of[node] : 0; }
uint32_t dc_cluster_type_idle_count(const dc_cluster *c, size_t t) { return c->type_idle[t]; }
uint64_t dc_cluster_type_shared_free_gpus(const dc_cluster *c, size_t t) { return c->type_shared_free[t]; }
uint64_t dc_cluster_shared_free_gpus(const dc_cluster *c) { return c->shared_free; }

/* The free GPUs of shared nodes change by delta on node (its type's too). */
static void shared_free_add(dc_cluster *c, uint32_t node, int64_t delta)
{
    c->shared_free += (uint64_t)delta;
    c->type_shared_free[dc_cluster_node_type(c, node)] += (uint64_t)delta;
}

int dc_cluster_type_find(const dc_cluster *c, const char *name)
{
    for (size_t t = 0; t < c->n_types; t++)
        if (strcmp(c->types[t].name, name) == 0)
            return (int)t;
    return -1;
}
int32_t dc_cluster_node_job(const dc_cluster *c, uint32_t node) { return c->job_of[node]; }
uint32_t dc_cluster_job_count(const dc_cluster *c) { return c->n_jobs; }
uint32_t dc_cluster_job_nodes(const dc_cluster *c, int32_t job) { return c->jobs[job].nodes; }
uint32_t dc_cluster_job_held_nodes(const dc_cluster *c, int32_t job) { return c->jobs[job].held; }
uint32_t dc_cluster_nodes_per_leaf(const dc_cluster *c) { return c->nodes_per_leaf; }
uint32_t dc_cluster_leaves_per_pod(const dc_cluster *c) { return c->leaves_per_pod; }
uint32_t dc_cluster_node_leaf(const dc_cluster *c, uint32_t node) { return node / c->nodes_per_leaf; }
uint32_t dc_cluster_node_pod(const dc_cluster *c, uint32_t node) { return node / c->nodes_per_leaf / c->leaves_per_pod; }
uint32_t dc_cluster_leaf_count(const dc_cluster *c) { return (c->n_nodes + c->nodes_per_leaf - 1) / c->nodes_per_leaf; }

uint32_t dc_cluster_pod_count(const dc_cluster *c)
{
    return (dc_cluster_leaf_count(c) + c->leaves_per_pod - 1) / c->leaves_per_pod;
}

void dc_cluster_set_domains(dc_cluster *c, uint32_t nodes_per_leaf, uint32_t leaves_per_pod)
{
    c->nodes_per_leaf = nodes_per_leaf > 0 ? nodes_per_leaf : 1;
    /* 0: one pod holding every leaf */
    c->leaves_per_pod = leaves_per_pod > 0 ? leaves_per_pod : dc_cluster_leaf_count(c);
}

uint64_t dc_cluster_job_nodes_changes(const dc_cluster *c, int32_t job) { return c->jobs[job].changes; }

const uint32_t *dc_cluster_job_node_list(const dc_cluster *c, int32_t job, uint32_t *n)
{
    *n = c->jobs[job].held;
    return c->jobs[job].list;
}

/* A write to slot of job's list (SLOT_ALL: unknown ones), after its
 * changes count moved; the entry it drops raises its job's floor. */
static void log_slot(dc_cluster *c, int32_t job, uint32_t slot)
{
    slot_entry *e = &c->slot_log[c->n_slot_log++ % SLOT_LOG];
    if (c->n_slot_log > SLOT_LOG && e->job >= 0 && (uint32_t)e->job < c->n_jobs
        && c->jobs[e->job].slot_floor < e->changes)
        c->jobs[e->job].slot_floor = e->changes;
    *e = (slot_entry){job, slot, c->jobs[job].changes, c->jobs[job].slot_last};
    c->jobs[job].slot_last = c->n_slot_log;
}

int dc_cluster_job_slots_since(const dc_cluster *c, int32_t job, uint64_t since, uint32_t *out, int max)
{
    const job_slot *j = &c->jobs[job];
    if (j->slot_floor > since)
        return -1;
    int n = 0;
    uint64_t first = c->n_slot_log > SLOT_LOG ? c->n_slot_log - SLOT_LOG : 0;
    /* the job's entries, newest first, while they are after since (its
     * counts only grow); those the ring dropped are at or before since
     * (slot_floor) */
    for (uint64_t i = j->slot_last; i > first; i = c->slot_log[(i - 1) % SLOT_LOG].prev) {
        const slot_entry *e = &c->slot_log[(i - 1) % SLOT_LOG];
        if (e->changes <= since)
            break;
        if (e->slot == SLOT_ALL)
            return -1;
        int k = n;
        while (k > 0 && out[k - 1] > e->slot) /* (ascending, each once) */
            k--;
        if (k > 0 && out[k - 1] == e->slot)
            continue;
        if (n == max)
            return -1;
        memmove(out + k + 1, out + k, (size_t)(n - k) * sizeof *out);
        out[k] = e->slot;
        n++;
    }
    return n;
}

/* job's held nodes changed (its changes count moved): noted for the model
 * that keeps sums over them (dc_cluster_note_held_changes); slot: the
 * slot of its list written (SLOT_ALL: unknown ones). */
static void held_changed_at(dc_cluster *c, int32_t job, uint32_t slot)
{
    job_slot *j = &c->jobs[job];
    j->changes++;
    log_slot(c, job, slot);
    if (c->held_changed && !j->noted && (size_t)job < c->cap_held_changed) {
        j->noted = true;
        c->held_changed[c->n_held_changed++] = job;
    }
}

static void held_changed(dc_cluster *c, int32_t job)
{
    held_changed_at(c, job, SLOT_ALL);
}

/* Node becomes job's (BUSY): on its list.  false when out of memory. */
static bool list_add(dc_cluster *c, int32_t job, uint32_t node)
{
    job_slot *j = &c->jobs[job];
    if (j->held == j->cap) {
        uint32_t ncap = j->cap ? 2 * j->cap : (j->nodes ? j->nodes : 1);
        uint32_t *g = realloc(j->list, (size_t)ncap * sizeof *g);
        if (!g)
            return false;
        j->list = g;
        j->cap = ncap;
    }
    c->node_pos[node] = j->held;
    j->list[j->held++] = node;
    held_changed_at(c, job, j->held - 1);
    if (j->tracked)
        c->tracked_gpus += dc_cluster_job_gpus_per_node(c, job);
    if (j->tracked && j->cpu)
        c->tracked_cpu_nodes++;
    return true;
}

/* A BUSY node leaves its job's list (swap with the last).  A share's list
 * is its one node. */
static void list_remove(dc_cluster *c, uint32_t node)
{
    job_slot *j = &c->jobs[c->job_of[node]];
    if (c->used_gpus[node] > 0)
        return; /* a shared node: shares_remove */
    uint32_t k = c->node_pos[node], last = j->list[--j->held];
    j->list[k] = last;
    c->node_pos[last] = k;
    held_changed_at(c, c->job_of[node], k);
    if (j->tracked)
        c->tracked_gpus -= dc_cluster_job_gpus_per_node(c, c->job_of[node]);
    if (j->tracked && j->cpu)
        c->tracked_cpu_nodes--;
}

int32_t dc_cluster_idle_first(const dc_cluster *c) { return c->idle_head; }
int32_t dc_cluster_idle_next(const dc_cluster *c, uint32_t node) { return c->idle_next[node]; }
double dc_cluster_node_idle_since_s(const dc_cluster *c, uint32_t node) { return c->idle_since_s[node]; }
dc_job_phase dc_cluster_job_phase(const dc_cluster *c, int32_t job) { return c->jobs[job].phase; }
size_t dc_cluster_speed_source_count(const dc_cluster *c) { return c->n_speed_sources; }
const char *dc_cluster_speed_source_name(const dc_cluster *c, int source) { return c->speed_names[source]; }
double dc_cluster_job_speed_factor(const dc_cluster *c, int32_t job, int source)
{
    const dc_vclock *k = c->jobs[job].clock;
    for (size_t l = 0; k && l < c->n_clock_src; l++)
        if (c->clock_src[l] == source)
            return dc_vclock_factors(k)[l];
    return c->jobs[job].speed[source];
}
const double *dc_cluster_job_speed_factors(const dc_cluster *c, int32_t job) { return c->jobs[job].speed; }

bool dc_cluster_job_active(const dc_cluster *c, int32_t job)
{
    return c->jobs[job].phase == DC_JOB_RUNNING || c->jobs[job].phase == DC_JOB_CHECKPOINTING;
}

void dc_cluster_set_job_phase(dc_cluster *c, int32_t job, dc_job_phase phase)
{
    if (c->jobs[job].phase == phase)
        return;
    dc_job_phase was = c->jobs[job].phase;
    c->jobs[job].phase = phase;
    dc_job_event ev = {job};
    dc_sim_publish_kind(c->sim, c->sig_job_phase, DC_JOB_EDGE(was, phase), &ev);
}

_Static_assert(DC_JOB_PHASES * DC_JOB_PHASES <= 64, "a phase edge is a signal kind (0..63)");

uint64_t dc_job_edges_into(unsigned phases)
{
    uint64_t m = 0;
    for (unsigned from = 0; from < DC_JOB_PHASES; from++)
        for (unsigned to = 0; to < DC_JOB_PHASES; to++)
            if (phases >> to & 1u)
                m |= UINT64_C(1) << DC_JOB_EDGE(from, to);
    return m;
}

uint64_t dc_job_edges_touching(unsigned phases)
{
    uint64_t m = 0;
    for (unsigned from = 0; from < DC_JOB_PHASES; from++)
        for (unsigned to = 0; to < DC_JOB_PHASES; to++)
            if ((phases >> to & 1u) || (phases >> from & 1u))
                m |= UINT64_C(1) << DC_JOB_EDGE(from, to);
    return m;
}

int dc_cluster_speed_source(dc_cluster *c, const char *name)
{
    for (size_t i = 0; i < c->n_speed_sources; i++)
        if (strcmp(c->speed_names[i], name) == 0)
            return (int)i;
    if (c->n_speed_sources == DC_MAX_SPEED_SOURCES || strlen(name) >= sizeof c->speed_names[0])
        return -1;
    snprintf(c->speed_names[c->n_speed_sources], sizeof c->speed_names[0], "%s", name);
    return (int)c->n_speed_sources++;
}

/* A job's first factor below 1: its own row of factors (out of line, so
 * that a set stays small enough to inline; NULL when out of memory). */
static __attribute__((noinline, cold)) double *own_speeds(dc_cluster *c, job_slot *js)
{
    double *row = malloc(sizeof c->ones);
    if (!row) {
        dc_sim_fail(c->sim, DC_ENOMEM, "out of memory for a job's speed factors");
        return NULL;
    }
    memcpy(row, c->ones, sizeof c->ones);
    return js->speed = row;
}

inline void dc_cluster_set_job_speed(dc_cluster *c, int32_t job, int source, double factor)
{
    factor = factor > 1.0 ? 1.0 : factor > 0.0 ? factor : 0.0;
    job_slot *js = &c->jobs[job];
    double *row = js->speed;
    if (row[source] == factor)
        return;
    if (row == c->ones && !(row = own_speeds(c, js)))
        return;
    row[source] = factor;
    dc_job_event ev = {job};
    dc_sim_publish(c->sim, c->sig_job_speed, &ev);
}

double dc_cluster_job_speed(const dc_cluster *c, int32_t job)
{
    double f = 1.0;
    for (size_t i = 0; i < c->n_speed_sources; i++)
        f *= dc_cluster_job_speed_factor(c, job, (int)i);
    return f;
}

int dc_cluster_set_clock_sources(dc_cluster *c, const int *sources, size_t n)
{
    if (n == 0 || n > DC_VCLOCK_LEVELS)
        return DC_EINTERNAL;
    for (size_t l = 0; l < n; l++) {
        if (sources[l] < 0 || (size_t)sources[l] >= c->n_speed_sources || (l > 0 && sources[l] <= sources[l - 1]))
            return DC_EINTERNAL;
        c->clock_src[l] = sources[l];
    }
    c->n_clock_src = n;
    return DC_OK;
}

size_t dc_cluster_clock_sources(const dc_cluster *c, const int **sources)
{
    *sources = c->clock_src;
    return c->n_clock_src;
}

dc_vclock *dc_cluster_new_clock(dc_cluster *c)
{
    if (c->n_clock_src == 0)
        return NULL;
    if (c->n_clocks == c->cap_clocks) {
        size_t ncap = c->cap_clocks ? 2 * c->cap_clocks : 8;
        dc_vclock **g = realloc(c->clocks, ncap * sizeof *g);
        if (!g)
            return NULL;
        c->clocks = g;
        c->cap_clocks = ncap;
    }
    dc_vclock *k = dc_vclock_create(c->sim, c->n_clock_src);
    if (k)
        c->clocks[c->n_clocks++] = k;
    return k;
}

void dc_cluster_set_job_clock(dc_cluster *c, int32_t job, dc_vclock *clock)
{
    if (c->jobs[job].clock == clock)
        return;
    c->jobs[job].clock = clock;
    dc_job_event ev = {job};
    dc_sim_publish(c->sim, c->sig_job_speed, &ev);
}

void dc_cluster_drop_job_clock(dc_cluster *c, int32_t job) { c->jobs[job].clock = NULL; }

dc_vclock *dc_cluster_job_clock(const dc_cluster *c, int32_t job) { return c->jobs[job].clock; }

static void bank(dc_cluster *c)
{
    double now = dc_sim_now(c->sim);
    double dt = now - c->last_change_s;
    if (dt > 0.0) {
        /* GPU nodes: all counts less the CPU-only nodes' */
        c->idle_node_s += dt * (c->idle_count - c->cpu_idle_count);
        c->busy_node_s += dt * (c->n_busy - c->cpu_n_busy);
        c->down_node_s += dt * ((c->n_down - c->n_absent) - (c->cpu_n_down - c->cpu_n_absent));
        c->absent_node_s += dt * (c->n_absent - c->cpu_n_absent);
        c->retired_node_s += dt * (c->n_retired - c->cpu_n_retired);
        c->shared_free_gpu_s += dt * (double)c->shared_free;
        for (size_t r = 1; r < c->n_reasons; r++)
            c->reason_node_s[r] += dt * (c->n_down_reason[r] - c->cpu_n_down_reason[r]);
        if (c->has_cpu) {
            c->cpu_idle_s += dt * c->cpu_idle_count;
            c->cpu_busy_s += dt * c->cpu_n_busy;
            c->cpu_down_s += dt * (c->cpu_n_down - c->cpu_n_absent);
            c->cpu_absent_s += dt * c->cpu_n_absent;
            c->cpu_retired_s += dt * c->cpu_n_retired;
            for (size_t r = 1; r < c->n_reasons; r++)
                c->cpu_reason_s[r] += dt * c->cpu_n_down_reason[r];
        }
    }
    c->last_change_s = now;
}

static void record(dc_cluster *c)
{
    double now = dc_sim_now(c->sim);
    dc_series_record(c->series_up, now, (double)(c->n_nodes - c->n_down));
    dc_series_record(c->series_down, now, (double)(c->n_down - c->n_absent));
}

static void idle_push(dc_cluster *c, uint32_t node)
{
    c->idle_next[node] = -1;
    c->idle_prev[node] = c->idle_tail;
    if (c->idle_tail >= 0)
        c->idle_next[c->idle_tail] = (int32_t)node;
    else
        c->idle_head = (int32_t)node;
    c->idle_tail = (int32_t)node;
    NODE_INC(c, node, idle_count);
    c->type_idle[dc_cluster_node_type(c, node)]++;
    c->idle_since_s[node] = dc_sim_now(c->sim);
    c->state[node] = DC_NODE_IDLE;
    c->job_of[node] = -1;
}

static void idle_remove(dc_cluster *c, uint32_t node)
{
    int32_t p = c->idle_prev[node], n = c->idle_next[node];
    if (p >= 0)
        c->idle_next[p] = n;
    else
        c->idle_head = n;
    if (n >= 0)
        c->idle_prev[n] = p;
    else
        c->idle_tail = p;
    NODE_DEC(c, node, idle_count);
    c->type_idle[dc_cluster_node_type(c, node)]--;
}

/* ---------- shared nodes (GPU-granular allocation) ---------- */

void dc_cluster_set_job_gpus(dc_cluster *c, int32_t job, uint32_t gpus)
{
    c->jobs[job].gpus = gpus < c->gpus_per_node ? gpus : 0;
    if (c->jobs[job].gpus)
        c->jobs[job].nodes = 1;
}

uint32_t dc_cluster_job_gpus_per_node(const dc_cluster *c, int32_t job)
{
    return c->jobs[job].cpu ? 0 : c->jobs[job].gpus ? c->jobs[job].gpus : c->gpus_per_node;
}

void dc_cluster_set_job_cpu(dc_cluster *c, int32_t job) { c->jobs[job].cpu = true; }
bool dc_cluster_job_cpu(const dc_cluster *c, int32_t job) { return c->jobs[job].cpu; }

uint32_t dc_cluster_job_held_gpus(const dc_cluster *c, int32_t job)
{
    return c->jobs[job].held * dc_cluster_job_gpus_per_node(c, job);
}

uint32_t dc_cluster_node_free_gpus(const dc_cluster *c, uint32_t node)
{
    if (c->state[node] == DC_NODE_IDLE)
        return dc_cluster_node_gpus(c, node);
    return c->state[node] == DC_NODE_BUSY && c->used_gpus[node] > 0 ? c->gpus_per_node - c->used_gpus[node] : 0;
}

bool dc_cluster_node_shared(const dc_cluster *c, uint32_t node)
{
    return c->state[node] == DC_NODE_BUSY && c->used_gpus[node] > 0;
}

bool dc_cluster_node_holds(const dc_cluster *c, uint32_t node, int32_t job)
{
    if (job < 0 || (uint32_t)job >= c->n_jobs)
        return false;
    const job_slot *j = &c->jobs[job];
    return c->job_of[node] == job || (j->gpus && (j->share_node == (int32_t)node || j->lost_node == (int32_t)node));
}

int32_t dc_cluster_node_next_job(const dc_cluster *c, uint32_t node, int32_t job)
{
    if (job < 0 || !c->jobs[job].gpus)
        return -1;
    if (c->jobs[job].lost_node == (int32_t)node)
        return c->jobs[job].lost_next;
    return c->jobs[job].share_node == (int32_t)node ? c->jobs[job].occ_next : -1;
}

uint32_t dc_cluster_share_count(const dc_cluster *c) { return c->n_shares; }

void dc_cluster_job_track(dc_cluster *c, int32_t job, bool on)
{
    job_slot *j = &c->jobs[job];
    if (j->tracked == on)
        return;
    j->tracked = on;
    uint64_t g = dc_cluster_job_held_gpus(c, job);
    c->tracked_gpus = on ? c->tracked_gpus + g : c->tracked_gpus - g;
    if (j->cpu)
        c->tracked_cpu_nodes = on ? c->tracked_cpu_nodes + j->held : c->tracked_cpu_nodes - j->held;
}

int dc_cluster_note_held_changes(dc_cluster *c)
{
    if (!c->held_changed) {
        c->held_changed = malloc((c->n_jobs ? c->n_jobs : 1) * sizeof *c->held_changed);
        if (!c->held_changed)
            return DC_ENOMEM;
        c->cap_held_changed = c->n_jobs;
    }
    return DC_OK;
}

size_t dc_cluster_held_changes(const dc_cluster *c, const int32_t **jobs)
{
    *jobs = c->held_changed;
    return c->n_held_changed;
}

void dc_cluster_held_changes_clear(dc_cluster *c)
{
    for (size_t k = 0; k < c->n_held_changed; k++)
        c->jobs[c->held_changed[k]].noted = false;
    c->n_held_changed = 0;
}

uint64_t dc_cluster_tracked_held_gpus(const dc_cluster *c) { return c->tracked_gpus; }
uint32_t dc_cluster_tracked_cpu_nodes(const dc_cluster *c) { return c->tracked_cpu_nodes; }
uint32_t dc_cluster_busy_cpu_nodes(const dc_cluster *c) { return c->cpu_n_busy; }

uint64_t dc_cluster_busy_gpus(const dc_cluster *c)
{
    return (uint64_t)(c->n_busy - c->cpu_n_busy) * c->gpus_per_node - c->shared_free;
}

bool dc_cluster_take_share(dc_cluster *c, int32_t job, uint32_t node)
{
    job_slot *j = &c->jobs[job];
    if (!j->gpus || j->held > 0 || node >= c->n_nodes || dc_cluster_node_free_gpus(c, node) < j->gpus)
        return false;
    bool opens = c->state[node] == DC_NODE_IDLE;
    if (opens)
        c->job_of[node] = -1;
    int32_t head = c->job_of[node];
    c->job_of[node] = job;
    if (!list_add(c, job, node)) {
        c->job_of[node] = head;
        dc_sim_fail(c->sim, DC_ENOMEM, "out of memory giving a node to a job");
        return false;
    }
    bank(c);
    if (opens) {
        idle_remove(c, node);
        c->state[node] = DC_NODE_BUSY;
        NODE_INC(c, node, n_busy);
        shared_free_add(c, node, c->gpus_per_node);
    }
    j->share_node = (int32_t)node;
    j->occ_prev = -1;
    j->occ_next = head;
    if (head >= 0)
        c->jobs[head].occ_prev = job;
    c->used_gpus[node] += j->gpus;
    shared_free_add(c, node, -(int64_t)j->gpus);
    c->n_shares++;
    return true;
}

/* job leaves the chain of its shared node */
static void share_unlink(dc_cluster *c, int32_t job)
{
    job_slot *j = &c->jobs[job];
    uint32_t node = (uint32_t)j->share_node;
    if (j->occ_prev >= 0)
        c->jobs[j->occ_prev].occ_next = j->occ_next;
    else
        c->job_of[node] = j->occ_next;
    if (j->occ_next >= 0)
        c->jobs[j->occ_next].occ_prev = j->occ_prev;
    j->occ_next = j->occ_prev = -1;
    j->share_node = -1;
}

bool dc_cluster_release_share(dc_cluster *c, int32_t job)
{
    job_slot *j = &c->jobs[job];
    if (j->share_node < 0 || j->held == 0)
        return false;
    uint32_t node = (uint32_t)j->share_node;
    bank(c);
    if (j->tracked)
        c->tracked_gpus -= (uint64_t)j->held * j->gpus;
    j->held = 0;
    held_changed(c, job);
    c->n_shares--;
    c->used_gpus[node] -= j->gpus;
    shared_free_add(c, node, j->gpus);
    share_unlink(c, job);
    if (c->used_gpus[node] > 0)
        return false;
    shared_free_add(c, node, -(int64_t)c->gpus_per_node);
    NODE_DEC(c, node, n_busy);
    idle_push(c, node);
    dc_sim_publish(c->sim, c->sig_node_idle, NULL);
    return true;
}

/* A shared node fails: its jobs lose it at once (they may take another
 * share while the failure is published), but the node keeps naming them
 * (its first job, then lost_next) until it has been published. */
static void shares_lose(dc_cluster *c, uint32_t node)
{
    if (c->used_gpus[node] == 0)
        return;
    shared_free_add(c, node, -(int64_t)(c->gpus_per_node - c->used_gpus[node]));
    c->used_gpus[node] = 0;
    for (int32_t k = c->job_of[node]; k >= 0;) {
        job_slot *j = &c->jobs[k];
        int32_t next = j->occ_next;
        if (j->tracked)
            c->tracked_gpus -= (uint64_t)j->held * j->gpus;
        j->held = 0;
        held_changed(c, k);
        j->lost_node = (int32_t)node;
        j->lost_next = next;
        j->share_node = -1;
        j->occ_next = j->occ_prev = -1;
        c->n_shares--;
        k = next;
    }
}

static void shares_forget(dc_cluster *c, uint32_t node)
{
    int32_t k = c->job_of[node];
    while (k >= 0 && c->jobs[k].lost_node == (int32_t)node) {
        int32_t next = c->jobs[k].lost_next;
        c->jobs[k].lost_node = c->jobs[k].lost_next = -1;
        k = next;
    }
}

bool dc_cluster_reserve_jobs(dc_cluster *c, size_t more)
{
    if (more > UINT32_MAX - c->n_jobs)
        return false;
    if (c->n_jobs + more <= c->cap_jobs)
        return true;
    uint32_t ncap = (uint32_t)(c->n_jobs + more);
    job_slot *grown = realloc(c->jobs, (size_t)ncap * sizeof *grown);
    if (!grown)
        return false;
    c->jobs = grown;
    c->cap_jobs = ncap;
    return true;
}

int32_t dc_cluster_add_job(dc_cluster *c, uint32_t nodes)
{
    if (c->n_jobs == c->cap_jobs) { /* geometric growth: a million jobs register in linear time */
        uint32_t ncap = c->cap_jobs ? 2 * c->cap_jobs : 16;
        job_slot *grown = realloc(c->jobs, (size_t)ncap * sizeof *grown);
        if (!grown)
            return -1;
        c->jobs = grown;
        c->cap_jobs = ncap;
    }
    c->jobs[c->n_jobs] = (job_slot){.nodes = nodes, .phase = DC_JOB_PENDING, .share_node = -1, .occ_next = -1,
                                    .occ_prev = -1, .lost_node = -1, .lost_next = -1, .speed = c->ones};
    return (int32_t)c->n_jobs++;
}

bool dc_cluster_take_idle(dc_cluster *c, int32_t job, uint32_t *node)
{
    if (c->idle_head < 0)
        return false;
    uint32_t n = (uint32_t)c->idle_head;
    if (!list_add(c, job, n)) {
        dc_sim_fail(c->sim, DC_ENOMEM, "out of memory giving a node to a job");
        return false;
    }
    bank(c);
    idle_remove(c, n);
    c->state[n] = DC_NODE_BUSY;
    c->job_of[n] = job;
    NODE_INC(c, n, n_busy);
    *node = n;
    return true;
}

uint32_t dc_cluster_take_idle_n(dc_cluster *c, int32_t job, uint32_t n, uint32_t *out)
{
    job_slot *j = &c->jobs[job];
    uint32_t k = n < c->idle_count ? n : c->idle_count; /* the idle list's length */
    if (k == 0)
        return 0;
    /* the capacity list_add's doublings would reach */
    uint32_t cap = j->cap;
    while (cap - j->held < k) {
        uint32_t ncap = cap ? 2 * cap : (j->nodes ? j->nodes : 1);
        if (ncap <= cap) {
            cap = UINT32_MAX;
            break;
        }
        cap = ncap;
    }
    if (cap != j->cap) {
        uint32_t *g = cap - j->held >= k ? realloc(j->list, (size_t)cap * sizeof *g) : NULL;
        if (!g) {
            dc_sim_fail(c->sim, DC_ENOMEM, "out of memory giving a node to a job");
            return 0;
        }
        j->list = g;
        j->cap = cap;
    }
    bank(c); /* once: at one instant a second bank adds nothing */
    int32_t x = c->idle_head;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t node = (uint32_t)x;
        x = c->idle_next[node];
        c->node_pos[node] = j->held;
        j->list[j->held++] = node;
        NODE_DEC(c, node, idle_count);
        c->type_idle[dc_cluster_node_type(c, node)]--;
        c->state[node] = DC_NODE_BUSY;
        c->job_of[node] = job;
        NODE_INC(c, node, n_busy);
        if (out)
            out[i] = node;
    }
    c->idle_head = x;
    if (x >= 0)
        c->idle_prev[x] = -1;
    else
        c->idle_tail = -1;
    j->changes += k - 1;
    held_changed_at(c, job, k == 1 ? j->held - 1 : SLOT_ALL); /* the k-th change, and the job noted once */
    if (j->tracked)
        c->tracked_gpus += (uint64_t)k * dc_cluster_job_gpus_per_node(c, job);
    if (j->tracked && j->cpu)
        c->tracked_cpu_nodes += k;
    return k;
}

bool dc_cluster_take_node(dc_cluster *c, int32_t job, uint32_t node)
{
    if (node >= c->n_nodes || c->state[node] != DC_NODE_IDLE)
        return false;
    if (!list_add(c, job, node)) {
        dc_sim_fail(c->sim, DC_ENOMEM, "out of memory giving a node to a job");
        return false;
    }
    bank(c);
    idle_remove(c, node);
    c->state[node] = DC_NODE_BUSY;
    c->job_of[node] = job;
    NODE_INC(c, node, n_busy);
    return true;
}

bool dc_cluster_withdraw(dc_cluster *c, uint32_t node, int reason)
{
    if (node >= c->n_nodes || c->state[node] != DC_NODE_IDLE)
        return false;
    if (reason < 0 || (size_t)reason >= c->n_reasons)
        reason = 0;
    bank(c);
    idle_remove(c, node);
    c->state[node] = DC_NODE_DOWN;
    c->job_of[node] = -1;
    c->reason[node] = (uint8_t)reason;
    NODE_INC(c, node, n_down);
    NODE_INC(c, node, n_down_reason[reason]);
    record(c);
    return true;
}

bool dc_cluster_restore(dc_cluster *c, uint32_t node)
{
    if (node >= c->n_nodes || c->state[node] != DC_NODE_DOWN || absent(c, node))
        return false;
    bank(c);
    NODE_DEC(c, node, n_down);
    NODE_DEC(c, node, n_down_reason[c->reason[node]]);
    c->reason[node] = 0;
    idle_push(c, node);
    record(c);
    dc_sim_publish(c->sim, c->sig_node_idle, NULL);
    return true;
}

void dc_cluster_release(dc_cluster *c, uint32_t node)
{
    bank(c);
    NODE_DEC(c, node, n_busy);
    list_remove(c, node);
    idle_push(c, node);
    dc_sim_publish(c->sim, c->sig_node_idle, NULL);
}

void dc_cluster_fail(dc_cluster *c, int class_id, const char *class_name,
                     const uint32_t *nodes, size_t n_nodes, int32_t job)
{
    dc_cluster_fail_detected(c, class_id, class_name, nodes, n_nodes, job, 0.0);
}

void dc_cluster_fail_detected(dc_cluster *c, int class_id, const char *class_name,
                              const uint32_t *nodes, size_t n_nodes, int32_t job,
                              double detect_s)
{
    dc_cluster_fail_returning(c, class_id, class_name, nodes, n_nodes, job, detect_s, 0.0);
}

void dc_cluster_fail_returning(dc_cluster *c, int class_id, const char *class_name,
                               const uint32_t *nodes, size_t n_nodes, int32_t job,
                               double detect_s, double return_s)
{
    bank(c);
    /* The nodes taken, all of them in the one event: on the stack for up to
     * 1024 (every failure of the shipped models), else allocated.  (Nodes
     * past 1024 were marked DOWN but left out of the event, so no repair
     * ever brought them back.) */
    uint32_t small[1024], *taken = small;
    if (n_nodes > sizeof small / sizeof small[0] && !(taken = malloc(n_nodes * sizeof *taken))) {
        dc_sim_fail(c->sim, DC_ENOMEM, "out of memory failing %zu nodes", n_nodes);
        return;
    }
    size_t n_taken = 0;
    for (size_t i = 0; i < n_nodes; i++) {
        uint32_t n = nodes[i];
        if (c->state[n] == DC_NODE_DOWN || c->state[n] == DC_NODE_RETIRED)
            continue;
        if (c->state[n] == DC_NODE_BUSY) {
            NODE_DEC(c, n, n_busy);
            list_remove(c, n);
            shares_lose(c, n);
        } else
            idle_remove(c, n);
        c->state[n] = DC_NODE_DOWN;
        c->reason[n] = 0;
        NODE_INC(c, n, n_down);
        NODE_INC(c, n, n_down_reason[0]);
        taken[n_taken++] = n;
    }
    if (n_nodes > 0 && n_taken == 0) {
        if (taken != small)
            free(taken);
        return;
    }
    record(c);
    dc_failure_event ev = {class_id, class_name, taken, n_taken, job, detect_s > 0.0 ? detect_s : 0.0,
                           return_s > 0.0 ? return_s : 0.0};
    dc_sim_publish(c->sim, c->sig_failure, &ev);
    for (size_t i = 0; i < n_taken; i++) {
        shares_forget(c, taken[i]);
        c->job_of[taken[i]] = -1;
    }
    if (taken != small)
        free(taken);
}

void dc_cluster_corrupt(dc_cluster *c, int class_id, const char *class_name,
                        int32_t node, int32_t job, double detect_s)
{
    dc_corruption_event ev = {class_id, class_name, node, job, detect_s > 0.0 ? detect_s : 0.0};
    dc_sim_publish(c->sim, c->sig_corruption, &ev);
}

void dc_cluster_repaired(dc_cluster *c, const uint32_t *nodes, size_t n_nodes)
{
    dc_nodes_event ev = {.nodes = nodes, .n_nodes = n_nodes, .class_id = -1, .as_new = true};
    dc_cluster_returned(c, &ev);
}

void dc_cluster_returned(dc_cluster *c, const dc_nodes_event *ev)
{
    bank(c);
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t n = ev->nodes[i];
        if (c->state[n] != DC_NODE_DOWN || absent(c, n)) /* a retired stage's node stays out */
            continue;
        NODE_DEC(c, n, n_down);
        NODE_DEC(c, n, n_down_reason[c->reason[n]]);
        c->reason[n] = 0;
        idle_push(c, n);
    }
    record(c);
    dc_sim_publish(c->sim, c->sig_nodes_up, ev);
    dc_sim_publish(c->sim, c->sig_node_idle, NULL);
}

void dc_cluster_retire(dc_cluster *c, uint32_t node)
{
    if (c->state[node] != DC_NODE_DOWN || absent(c, node))
        return;
    bank(c);
    NODE_DEC(c, node, n_down);
    NODE_DEC(c, node, n_down_reason[c->reason[node]]);
    c->reason[node] = 0;
    NODE_INC(c, node, n_retired);
    c->state[node] = DC_NODE_RETIRED;
    record(c);
}

void dc_cluster_replace_retired(dc_cluster *c, uint32_t node)
{
    if (c->state[node] != DC_NODE_RETIRED)
        return;
    bank(c);
    NODE_DEC(c, node, n_retired);
    idle_push(c, node);
    record(c);
    dc_nodes_event ev = {.nodes = &node, .n_nodes = 1, .class_id = -1, .as_new = true, .new_node = true};
    dc_sim_publish(c->sim, c->sig_nodes_up, &ev);
    dc_sim_publish(c->sim, c->sig_node_idle, NULL);
}

int dc_cluster_down_reason(dc_cluster *c, const char *name)
{
    for (size_t i = 1; i < c->n_reasons; i++)
        if (strcmp(c->reason_names[i], name) == 0)
            return (int)i;
    if (c->n_reasons == DC_MAX_DOWN_REASONS || strlen(name) >= sizeof c->reason_names[0])
        return -1;
    snprintf(c->reason_names[c->n_reasons], sizeof c->reason_names[0], "%s", name);
    return (int)c->n_reasons++;
}

void dc_cluster_set_down_reason(dc_cluster *c, uint32_t node, int reason)
{
    if (c->state[node] != DC_NODE_DOWN || absent(c, node) || reason < 0 || (size_t)reason >= c->n_reasons
        || c->reason[node] == reason)
        return;
    bank(c);
    NODE_DEC(c, node, n_down_reason[c->reason[node]]);
    c->reason[node] = (uint8_t)reason;
    NODE_INC(c, node, n_down_reason[reason]);
}

int dc_cluster_add_failure_class(dc_cluster *c, const char *name)
{
    char (*names)[32] = realloc(c->class_names, (size_t)(c->n_classes + 1) * sizeof *names);
    if (!names)
        return -1;
    c->class_names = names;
    double *accel = realloc(c->class_accel, (size_t)(c->n_classes + 1) * sizeof *accel);
    if (!accel)
        return -1;
    c->class_accel = accel;
    snprintf(c->class_names[c->n_classes], sizeof c->class_names[0], "%s", name);
    c->class_accel[c->n_classes] = 1.0;
    return c->n_classes++;
}

void dc_cluster_set_failure_acceleration(dc_cluster *c, int class_id, double factor)
{
    if (class_id < 0 || class_id >= c->n_classes)
        return;
    factor = factor > 0.0 && isfinite(factor) ? factor : factor > 0.0 ? 1e300 : 0.0;
    if (c->class_accel[class_id] == factor)
        return;
    c->class_accel[class_id] = factor;
    dc_failure_class_event ev = {class_id};
    dc_sim_publish(c->sim, c->sig_accel, &ev);
}

void dc_cluster_add_hazard(dc_cluster *c, double per_node, double per_rack,
                           double per_job, double per_job_gpu)
{
    c->hazard_node += per_node;
    c->hazard_node_cpu += per_node;
    c->hazard_rack += per_rack;
    c->hazard_job += per_job;
    c->hazard_job_gpu += per_job_gpu;
}

void dc_cluster_add_gpu_hazard(dc_cluster *c, double per_node) { c->hazard_node += per_node; }

double dc_cluster_job_hazard_on(const dc_cluster *c, uint32_t nodes, int type)
{
    double scale = type >= 0 && (size_t)type < c->n_types ? c->types[type].failure_scale : 1.0;
    double racks = ceil((double)nodes / c->nodes_per_rack);
    if (type >= 0 && (size_t)type < c->n_types && c->types[type].gpus_per_node == 0) /* CPU-only: no GPUs */
        return nodes * c->hazard_node_cpu * scale + racks * c->hazard_rack + c->hazard_job;
    return nodes * c->hazard_node * scale + racks * c->hazard_rack + c->hazard_job
           + (double)nodes * c->gpus_per_node * c->hazard_job_gpu;
}

double dc_cluster_job_hazard(const dc_cluster *c, uint32_t nodes)
{
    double racks = ceil((double)nodes / c->nodes_per_rack);
    return nodes * c->hazard_node + racks * c->hazard_rack + c->hazard_job
           + (double)nodes * c->gpus_per_node * c->hazard_job_gpu;
}

/* The node types of cluster.types (one type "default" without it): their
 * nodes add up to the cluster's, names unique. */
static int read_types(dc_cluster *c, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    config_setting_t *list = dc_cfg_member(g, "types");
    size_t n = list ? (size_t)config_setting_length(list) : 0;
    if (list && n == 0)
        return dc_scenario_error_at(sc, list, err, "give at least one type, or leave types out");
    if (n > 255)
        return dc_scenario_error_at(sc, list, err, "at most 255 node types (there are %zu)", n);
    c->types = calloc(n ? n : 1, sizeof *c->types);
    c->type_idle = calloc(n ? n : 1, sizeof *c->type_idle);
    c->type_shared_free = calloc(n ? n : 1, sizeof *c->type_shared_free);
    if (!c->types || !c->type_idle || !c->type_shared_free)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the node types");
    c->n_types = n ? n : 1;
    if (!n) {
        c->types[0] = (dc_cluster_type){"default", 0, c->n_nodes, NAN, NAN, NAN, NAN, NAN, NAN, NAN, 1.0,
                                        c->gpus_per_node, 0};
        return DC_OK;
    }
    double sum = 0;
    for (size_t t = 0; t < n; t++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)t);
        dc_cluster_type *ty = &c->types[t];
        const char *name = "";
        int nodes = 0;
        dc_cfg_lookup_string(e, "name", &name);
        dc_cfg_lookup_int(e, "nodes", &nodes);
        if (!*name || strlen(name) >= sizeof ty->name)
            return dc_scenario_error_at(sc, dc_cfg_member(e, "name"), err,
                                        "a type name has 1 to %zu characters", sizeof ty->name - 1);
        for (size_t k = 0; k < t; k++)
            if (strcmp(c->types[k].name, name) == 0)
                return dc_scenario_error_at(sc, dc_cfg_member(e, "name"), err, "type \"%s\" named twice",
                                            name);
        snprintf(ty->name, sizeof ty->name, "%s", name);
        ty->first = (uint32_t)sum;
        ty->nodes = (uint32_t)nodes;
        sum += nodes;
        static const char *const keys[] = {"gpu_peak_tflops", "gpu_idle_w", "gpu_peak_w", "host_w",
                                           "host_idle_w",     "gpu_usd",    "server_usd"};
        double *v[] = {&ty->gpu_peak_tflops, &ty->gpu_idle_w, &ty->gpu_peak_w, &ty->host_w,
                       &ty->host_idle_w,     &ty->gpu_usd,    &ty->server_usd};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (!dc_cfg_lookup_float(e, keys[k], v[k]))
                *v[k] = NAN;
        ty->failure_scale = 1.0;
        dc_cfg_lookup_float(e, "failure_scale", &ty->failure_scale);
        int gpn = (int)c->gpus_per_node, cores = 0;
        config_setting_t *at = dc_cfg_member(e, "gpus_per_node");
        if (at && (gpn = config_setting_get_int(at)) != 0 && gpn != (int)c->gpus_per_node)
            return dc_scenario_error_at(sc, at, err,
                                        "a type has the cluster's gpus_per_node (%u) or 0 (a CPU-only type), not %d",
                                        c->gpus_per_node, gpn);
        ty->gpus_per_node = (uint32_t)gpn;
        dc_cfg_lookup_int(e, "cores_per_node", &cores);
        ty->cores_per_node = (uint32_t)cores;
        if (gpn == 0) {
            static const char *const gpu_keys[] = {"gpu_peak_tflops", "gpu_idle_w", "gpu_peak_w", "gpu_usd"};
            for (size_t k = 0; k < sizeof gpu_keys / sizeof gpu_keys[0]; k++)
                if (dc_cfg_member(e, gpu_keys[k]))
                    return dc_scenario_error_at(sc, dc_cfg_member(e, gpu_keys[k]), err,
                                                "type \"%s\" is CPU-only (gpus_per_node = 0): it has no GPU for %s",
                                                ty->name, gpu_keys[k]);
            c->has_cpu = true;
            c->n_cpu_nodes += ty->nodes;
        }
    }
    if (c->n_cpu_nodes > 0 && c->n_cpu_nodes == (uint32_t)sum)
        return dc_scenario_error_at(sc, list, err, "every type is CPU-only (gpus_per_node = 0): give at least one "
                                                   "type with GPUs");
    if (sum != (double)c->n_nodes)
        return dc_scenario_error_at(sc, list, err,
                                    "the types hold %.0f nodes but the cluster has %u (nodes + spare_nodes)", sum,
                                    c->n_nodes);
    if (n > 1) {
        if (!(c->type_of = malloc(c->n_nodes)))
            return dc_error_set(err, DC_ENOMEM, "out of memory for the node types");
        for (size_t t = 0; t < n; t++)
            memset(c->type_of + c->types[t].first, (int)t, c->types[t].nodes);
    }
    return DC_OK;
}

/* The delivery stages of cluster.delivery (one stage of every node without
 * it): their nodes add up to the cluster's, retire_day after day. */
static int read_stages(dc_cluster *c, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    config_setting_t *list = dc_cfg_member(g, "delivery");
    size_t n = list ? (size_t)config_setting_length(list) : 0;
    if (list && n == 0)
        return dc_scenario_error_at(sc, list, err, "give at least one stage, or leave delivery out");
    c->stages = calloc(n ? n : 1, sizeof *c->stages);
    if (!c->stages)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the delivery stages");
    c->n_stages = n ? n : 1;
    if (!n) {
        c->stages[0] = (dc_cluster_stage){0, c->n_nodes, 0.0, INFINITY, -INFINITY};
        return DC_OK;
    }
    double sum = 0;
    bool comes_or_goes = false;
    for (size_t k = 0; k < n; k++) {
        config_setting_t *e = config_setting_get_elem(list, (unsigned)k);
        int nodes = 0;
        double day = 0, retire = INFINITY, rent = -INFINITY;
        dc_cfg_lookup_int(e, "nodes", &nodes);
        dc_cfg_lookup_float(e, "day", &day);
        bool has_retire = dc_cfg_lookup_float(e, "retire_day", &retire);
        dc_cfg_lookup_float(e, "rent_until_day", &rent);
        if (has_retire && !(retire > day))
            return dc_scenario_error_at(sc, dc_cfg_member(e, "retire_day"), err,
                                        "the stage retires on day %g, not after it arrives (day %g)", retire, day);
        c->stages[k] = (dc_cluster_stage){(uint32_t)sum, (uint32_t)nodes, day * 86400.0, retire * 86400.0,
                                          rent * 86400.0};
        if (sum + nodes <= c->n_nodes
            && dc_cluster_node_type(c, (uint32_t)sum) != dc_cluster_node_type(c, (uint32_t)(sum + nodes - 1)))
            return dc_scenario_error_at(sc, dc_cfg_member(e, "nodes"), err,
                                        "the stage's nodes %.0f to %.0f are of types \"%s\" and \"%s\": a stage "
                                        "holds nodes of one type",
                                        sum, sum + nodes - 1, c->types[dc_cluster_node_type(c, (uint32_t)sum)].name,
                                        c->types[dc_cluster_node_type(c, (uint32_t)(sum + nodes - 1))].name);
        sum += nodes;
        comes_or_goes = comes_or_goes || day > 0.0 || has_retire;
    }
    if (sum != (double)c->n_nodes)
        return dc_scenario_error_at(sc, list, err,
                                    "the stages hold %.0f nodes but the cluster has %u (nodes + spare_nodes)", sum,
                                    c->n_nodes);
    if (comes_or_goes && !(c->absent = calloc(c->n_nodes, 1)))
        return dc_error_set(err, DC_ENOMEM, "out of memory for the delivery stages");
    for (size_t k = 0; c->absent && k < n; k++)
        if (c->stages[k].arrive_s > 0.0)
            memset(c->absent + c->stages[k].first, 1, c->stages[k].nodes);
    return DC_OK;
}

/* Stage k's nodes arrive: IDLE, with new failure clocks. */
static void on_arrive(dc_sim *sim, void *ctx, uint64_t k)
{
    dc_cluster *c = ctx;
    const dc_cluster_stage *st = &c->stages[k];
    uint32_t *nodes = malloc((size_t)st->nodes * sizeof *nodes);
    if (!nodes) {
        dc_sim_fail(sim, DC_ENOMEM, "out of memory delivering %u nodes", st->nodes);
        return;
    }
    bank(c);
    uint32_t n = 0;
    for (uint32_t i = st->first; i < st->first + st->nodes; i++) {
        if (!c->absent[i])
            continue;
        c->absent[i] = 0;
        NODE_DEC(c, i, n_absent);
        NODE_DEC(c, i, n_down);
        idle_push(c, i);
        nodes[n++] = i;
    }
    record(c);
    dc_eventlog_add(dc_sim_eventlog(sim), dc_sim_now(sim), "delivery", "cluster", (int32_t)st->first, -1, n);
    dc_nodes_event ev = {.nodes = nodes, .n_nodes = n, .class_id = -1, .as_new = true, .new_node = true};
    dc_sim_publish(sim, c->sig_nodes_up, &ev);
    dc_sim_publish(sim, c->sig_node_idle, NULL);
    free(nodes);
}

/* Stage k retires: its up nodes fail (DC_CLASS_STAGE_RETIRED: no repair),
 * then every node of the stage is absent. */
static void on_leave(dc_sim *sim, void *ctx, uint64_t k)
{
    dc_cluster *c = ctx;
    const dc_cluster_stage *st = &c->stages[k];
    uint32_t batch[1024];
    size_t nb = 0;
    for (uint32_t i = st->first; i < st->first + st->nodes; i++) {
        if (c->state[i] == DC_NODE_IDLE || c->state[i] == DC_NODE_BUSY)
            batch[nb++] = i;
        if (nb == sizeof batch / sizeof batch[0] || (nb > 0 && i + 1 == st->first + st->nodes)) {
            dc_cluster_fail(c, DC_CLASS_STAGE_RETIRED, "stage_retired", batch, nb, -1);
            nb = 0;
        }
    }
    bank(c);
    uint32_t n = 0;
    for (uint32_t i = st->first; i < st->first + st->nodes; i++) {
        if (c->absent[i])
            continue;
        if (c->state[i] == DC_NODE_IDLE || c->state[i] == DC_NODE_BUSY) { /* taken back by a job meanwhile */
            uint32_t one = i;
            dc_cluster_fail(c, DC_CLASS_STAGE_RETIRED, "stage_retired", &one, 1, -1);
            bank(c);
        }
        if (c->state[i] == DC_NODE_RETIRED) {
            NODE_DEC(c, i, n_retired);
            NODE_INC(c, i, n_down);
            c->state[i] = DC_NODE_DOWN;
        } else {
            NODE_DEC(c, i, n_down_reason[c->reason[i]]);
        }
        c->reason[i] = 0;
        c->absent[i] = 1;
        NODE_INC(c, i, n_absent);
        n++;
    }
    record(c);
    dc_eventlog_add(dc_sim_eventlog(sim), dc_sim_now(sim), "stage_retired", "cluster", (int32_t)st->first, -1, n);
}

static int cluster_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_cluster *c = state;
    c->sim = sim;
    for (size_t i = 0; i < DC_MAX_SPEED_SOURCES; i++)
        c->ones[i] = 1.0;
    int nodes = 0, spares = 0, gpn = 0, npr = 0;
    config_setting_t *g = dc_scenario_lookup(sc, "cluster");
    dc_cfg_lookup_int(g, "nodes", &nodes);
    dc_cfg_lookup_int(g, "spare_nodes", &spares);
    dc_cfg_lookup_int(g, "gpus_per_node", &gpn);
    dc_cfg_lookup_int(g, "nodes_per_rack", &npr);
    double total = (double)nodes + spares;
    if (total > MAX_NODES)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "spare_nodes"), err,
                                    "nodes plus spare_nodes is %.0f, more than the %.0f a run can hold",
                                    total, MAX_NODES);
    if (total * gpn > 1e9)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "gpus_per_node"), err,
                                    "%.0f GPUs in all is more than the 1e9 a run can hold", total * gpn);
    c->n_nodes = (uint32_t)total;
    c->gpus_per_node = (uint32_t)gpn;
    c->nodes_per_rack = (uint32_t)npr;
    c->n_racks = (c->n_nodes + c->nodes_per_rack - 1) / c->nodes_per_rack;
    c->nodes_per_leaf = c->nodes_per_rack;
    c->leaves_per_pod = c->n_racks;
    c->state = malloc(c->n_nodes);
    c->reason = calloc(c->n_nodes, 1);
    c->job_of = malloc(c->n_nodes * sizeof *c->job_of);
    c->used_gpus = calloc(c->n_nodes, sizeof *c->used_gpus);
    c->node_pos = malloc(c->n_nodes * sizeof *c->node_pos);
    c->idle_next = malloc(c->n_nodes * sizeof *c->idle_next);
    c->idle_prev = malloc(c->n_nodes * sizeof *c->idle_prev);
    c->idle_since_s = malloc(c->n_nodes * sizeof *c->idle_since_s);
    if (!c->state || !c->reason || !c->job_of || !c->used_gpus || !c->node_pos || !c->idle_next || !c->idle_prev || !c->idle_since_s)
        return dc_error_set(err, DC_ENOMEM, "out of memory for %u nodes", c->n_nodes);
    c->idle_head = c->idle_tail = -1;
    c->n_reasons = 1; /* reason 0: plain down */
    int rc = read_types(c, sc, g, err);
    if (rc == DC_OK)
        rc = read_stages(c, sc, g, err);
    if (rc != DC_OK)
        return rc;
    for (uint32_t i = 0; i < c->n_nodes; i++) {
        if (!absent(c, i)) {
            idle_push(c, i);
            continue;
        }
        c->state[i] = DC_NODE_DOWN; /* not delivered yet */
        c->job_of[i] = -1;
        NODE_INC(c, i, n_down);
        NODE_INC(c, i, n_absent);
    }
    c->sig_failure = dc_sim_signal(sim, "failure");
    c->sig_nodes_up = dc_sim_signal(sim, "nodes_up");
    c->sig_node_idle = dc_sim_signal(sim, "node_idle");
    c->sig_job_phase = dc_sim_signal(sim, "job_phase");
    c->sig_job_speed = dc_sim_signal(sim, "job_speed");
    c->sig_corruption = dc_sim_signal(sim, "corruption");
    c->sig_accel = dc_sim_signal(sim, "failure_acceleration");
    c->series_up = dc_sim_series(sim, "nodes_up", "nodes", "healthy nodes (busy or spare)");
    c->series_down = dc_sim_series(sim, "nodes_down", "nodes", "nodes failed or in repair");
    if (c->sig_failure < 0 || c->sig_nodes_up < 0 || c->sig_node_idle < 0 || c->sig_job_phase < 0
        || c->sig_job_speed < 0 || c->sig_corruption < 0 || c->sig_accel < 0 || !c->series_up || !c->series_down)
        return dc_error_set(err, DC_ENOMEM, "out of memory setting up the cluster");
    return DC_OK;
}

static int cluster_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_cluster *c = state;
    (void)err;
    record(c);
    for (size_t k = 0; c->absent && k < c->n_stages; k++) {
        if (c->stages[k].arrive_s > 0.0)
            dc_sim_at(sim, c->stages[k].arrive_s, on_arrive, c, k);
        if (isfinite(c->stages[k].leave_s))
            dc_sim_at(sim, c->stages[k].leave_s, on_leave, c, k);
    }
    return DC_OK;
}

static void cluster_finish(void *state, dc_sim *sim)
{
    dc_cluster *c = state;
    bank(c);
    dc_summary *s = dc_sim_summary(sim);
    double gpn = c->gpus_per_node;
    uint32_t gpu_nodes = c->n_nodes - c->n_cpu_nodes;
    double capacity_node_s = (double)gpu_nodes * dc_sim_now(sim) - c->absent_node_s;
    double cpu_capacity_s = (double)c->n_cpu_nodes * dc_sim_now(sim) - c->cpu_absent_s;
    dc_summary_set(s, "cluster.nodes", c->n_nodes, "nodes", "nodes including spares");
    dc_summary_set(s, "cluster.gpus", (double)gpu_nodes * gpn, "GPUs", "GPUs including spares");
    double all_s = capacity_node_s + cpu_capacity_s;
    dc_summary_set(s, "cluster.node_availability", all_s > 0 ? 1.0 - (c->down_node_s + c->cpu_down_s) / all_s : 1.0,
                   "", "fraction of node-time not failed or in repair");
    dc_summary_set(s, DC_BREAKDOWN_TOTAL, capacity_node_s * gpn / 3600.0, "GPU-h",
                   "GPU-hours the whole cluster could have delivered over the simulated time");
    double reasons_node_s = 0.0;
    for (size_t r = 1; r < c->n_reasons; r++)
        reasons_node_s += c->reason_node_s[r];
    dc_summary_set(s, "gpu_hours.down", (c->down_node_s - reasons_node_s) * gpn / 3600.0, "GPU-h",
                   "on failed nodes, being noticed, waiting for or in repair (except the lines below)");
    for (size_t r = 1; r < c->n_reasons; r++) {
        char key[64];
        snprintf(key, sizeof key, "gpu_hours.%s", c->reason_names[r]);
        dc_summary_set(s, key, c->reason_node_s[r] * gpn / 3600.0, "GPU-h", "on failed nodes, down for this reason");
    }
    dc_summary_set(s, "gpu_hours.idle_spare", (c->idle_node_s * gpn + c->shared_free_gpu_s) / 3600.0, "GPU-h",
                   "on healthy nodes held by no job (spares)");
    dc_summary_set(s, "gpu_hours.retired", c->retired_node_s * gpn / 3600.0, "GPU-h",
                   "on nodes retired from service (until a replacement arrives)");
    dc_summary_set(s, "cluster.retired_nodes", c->n_retired, "nodes", "nodes retired and not replaced at the end");
    if (c->absent) {
        dc_summary_set(s, "cluster.absent_gpu_h", c->absent_node_s * gpn / 3600.0, "GPU-h",
                       "GPU-hours of nodes not yet delivered or retired with their stage (not in the capacity)");
        dc_summary_set(s, "cluster.absent_nodes", c->n_absent, "nodes", "nodes absent at the end");
    }
    if (!c->has_cpu)
        return;
    /* CPU-only nodes: node-hours, the GPU lines' counterpart (the job model
     * writes the busy nodes' lines: cpu_node_hours.useful ...) */
    double cores = 0;
    for (size_t t = 0; t < c->n_types; t++)
        if (c->types[t].gpus_per_node == 0)
            cores += (double)c->types[t].nodes * c->types[t].cores_per_node;
    dc_summary_set(s, "cluster.cpu_nodes", c->n_cpu_nodes, "nodes", "CPU-only nodes (types with gpus_per_node 0)");
    dc_summary_set(s, "cluster.cpu_cores", cores, "cores", "their cores (cores_per_node; 0 where not given)");
    dc_summary_set(s, DC_CPU_BREAKDOWN_TOTAL, cpu_capacity_s / 3600.0, "node-h",
                   "node-hours the CPU-only nodes could have delivered over the simulated time");
    double cpu_reasons_s = 0.0;
    for (size_t r = 1; r < c->n_reasons; r++)
        cpu_reasons_s += c->cpu_reason_s[r];
    dc_summary_set(s, "cpu_node_hours.down", (c->cpu_down_s - cpu_reasons_s) / 3600.0, "node-h",
                   "CPU-only nodes failed, being noticed, waiting for or in repair (except the lines below)");
    for (size_t r = 1; r < c->n_reasons; r++) {
        char key[64];
        snprintf(key, sizeof key, "cpu_node_hours.%s", c->reason_names[r]);
        dc_summary_set(s, key, c->cpu_reason_s[r] / 3600.0, "node-h", "CPU-only nodes down for this reason");
    }
    dc_summary_set(s, "cpu_node_hours.idle_spare", c->cpu_idle_s / 3600.0, "node-h",
                   "CPU-only nodes healthy and held by no job");
    dc_summary_set(s, "cpu_node_hours.retired", c->cpu_retired_s / 3600.0, "node-h",
                   "CPU-only nodes retired from service");
    if (c->absent)
        dc_summary_set(s, "cluster.absent_cpu_node_h", c->cpu_absent_s / 3600.0, "node-h",
                       "node-hours of CPU-only nodes absent (not delivered or retired with their stage)");
}

static void cluster_destroy(void *state)
{
    dc_cluster *c = state;
    free(c->state);
    free(c->reason);
    free(c->stages);
    free(c->absent);
    free(c->types);
    free(c->type_of);
    free(c->type_idle);
    free(c->type_shared_free);
    free(c->class_names);
    free(c->class_accel);
    free(c->job_of);
    free(c->used_gpus);
    free(c->node_pos);
    for (uint32_t j = 0; c->jobs && j < c->n_jobs; j++) {
        free(c->jobs[j].list);
        if (c->jobs[j].speed != c->ones)
            free(c->jobs[j].speed);
    }
    free(c->idle_next);
    free(c->idle_prev);
    free(c->idle_since_s);
    free(c->jobs);
    free(c->held_changed);
    for (size_t i = 0; i < c->n_clocks; i++)
        dc_vclock_destroy(c->clocks[i]);
    free(c->clocks);
}

const dc_model_type dc_model_cluster = {
    .name = "cluster",
    .state_size = sizeof(dc_cluster),
    .params = dc_cluster_params,
    .init = cluster_init,
    .start = cluster_start,
    .finish = cluster_finish,
    .destroy = cluster_destroy,
};
