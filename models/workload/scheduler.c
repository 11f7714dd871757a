/* The scheduler: pools, queues, quotas, priorities, EASY backfilling, preemption and spot.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "scheduler.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cfgget.h"
#include "placer.h"
#include "rackset.h"
#include "schedtree.h"
#include "sortu32.h"
#include "steptime.h"
#include "vcluster.h"

const dc_param dc_scheduler_params[] = {
    {"scheduler", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "pools, quotas, backfilling, preemption (absent: one pool of every node)"},
    {"scheduler.backfill", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL, "EASY backfilling behind the queue head"},
    {"scheduler.preemption", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL,
     "a blocked head may evict lower-priority or preemptible jobs of its pool"},
    {"scheduler.placement", DC_PARAM_STRING, 0, "", 0, "rack", 0, 0, "rack|fifo|pack|spread|random|topology_aware",
     "rack: the racks that hold the job best (fewest idle nodes that hold what is left); fifo: longest-idle nodes (one "
     "pool only); pack: the smallest rack, leaf or pod that holds the job; spread: round-robin over pods and their "
     "racks; random: uniformly drawn idle nodes; topology_aware: as pack, each model replica in one rack or leaf "
     "(models/workload/placer.h)"},
    {"scheduler.estimate_factor", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "", 1, NULL, 0, 100, NULL,
     "run-time estimate of a job without max_run_h: its ideal run time times this"},
    {"scheduler.pools", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "node pools, cut from the nodes in this order"},
    {"scheduler.pools.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "pool name (jobs and services name it)"},
    {"scheduler.pools.[].nodes", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 1, 1e7, NULL, "pool size"},
    {"scheduler.pools.[].share", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL, 0, 1,
     NULL, "pool size as a share of all nodes (instead of nodes)"},
    {"scheduler.pools.[].spot", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "rented spot capacity: nodes are reclaimed by the provider"},
    {"scheduler.pools.[].reclaim_per_node_day", DC_PARAM_FLOAT, 0, "1/day", 0.05, NULL, 0, 1e4, NULL,
     "spot: reclaims per node in service per day"},
    {"scheduler.pools.[].notice_s", DC_PARAM_FLOAT, 0, "s", 120, NULL, 0, 1e7, NULL,
     "spot: notice before a reclaimed node goes (AWS gives 120 s)"},
    {"scheduler.pools.[].reclaim_h", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "h", 6, NULL, 0, 1e6, NULL,
     "spot: mean time a reclaimed node stays gone (exponential)"},
    {"scheduler.pools.[].lend", DC_PARAM_BOOL, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "virtual cluster: lends its idle nodes to borrowing pools' jobs while nothing of its own waits, and reclaims "
     "them when its own jobs or service need them (absent: false)"},
    {"scheduler.pools.[].borrow", DC_PARAM_BOOL, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "virtual cluster: a queued job that does not fit may start on its pool's idle nodes and those of lending "
     "pools (absent: false)"},
    {"scheduler.pools.[].lend_max_nodes", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "nodes", 0, NULL, 0, 1e7, NULL,
     "lend: at most this many of its nodes lent at once (absent: all it has idle), headroom kept for its own "
     "jobs"},
    {"scheduler.pools.[].lend_notice_s", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "s", 0, NULL, 0, 1e7, NULL,
     "lend: notice a reclaimed job gets (absent: 0; it checkpoints if its write fits, else loses the work since "
     "its last checkpoint)"},
    {"scheduler.quotas", DC_PARAM_LIST, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL, "quotas per user or team"},
    {"scheduler.quotas.[].user", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "user or team (jobs' user)"},
    {"scheduler.quotas.[].max_nodes", DC_PARAM_INT, DC_PARAM_REQUIRED, "nodes", 0, NULL, 0, 1e7, NULL,
     "nodes its running jobs may hold at once, all pools"},
    {0},
};

enum { E_QUEUED, E_RUNNING, E_DONE };

typedef struct entry {
    dc_sched_req req;
    int state;
    bool preempting, waiting;
    double submit_s, start_s, est_end_s;
    uint64_t seq;
    size_t runpos;                /* index in its pool's running list */
    dc_event_handle limit_ev;
} entry;

typedef struct pool {
    char name[32];
    uint32_t first, n;            /* node range */
    bool spot;
    double reclaim_rate_per_s, notice_s, reclaim_mean_s;
    uint32_t idle, held, withdrawn, down;
    uint32_t freeing;             /* nodes of jobs being preempted */
    dc_stree queue;               /* queued entries, in queue order */
    size_t nq;
    int *running;                 /* running entries, in start order (a removal moves the last in) */
    size_t nr, capr;
    dc_stree by_end;              /* the running ones by expected end, then running-list index */
    dc_rackset *racks;            /* idle nodes per rack ("rack" placement) */
    dc_placer *placer;            /* the named policies' domains (from the start; NULL: rack or fifo) */
    dc_rackset *shared;           /* shared nodes (node - first) by free GPUs; NULL until a share */
    uint64_t shared_free;         /* free GPUs of the pool's shared nodes */
    dc_stree small_q;             /* queued share jobs by GPUs, in queue order */
    uint32_t r0;                  /* first rack of the pool */
    uint32_t n_waiting;           /* running jobs short of nodes */
    uint32_t svc_want;            /* nodes the pool's service waits for (dc_sched_service_wants) */
    bool svc_reclaim;             /* a reclaim for it is due at this instant */
    /* priorities of running jobs (all; preemptible ones): value, count */
    struct prio_count { int prio; uint32_t n; } *prio_all, *prio_pre;
    size_t n_prio_all, n_prio_pre, cap_prio_all, cap_prio_pre;
    /* integrals (node-seconds) */
    double last_s, held_ns, idle_ns, strand_ns, queue_s, service_ns, exposure_ns, shared_free_gs;
    uint64_t n_reclaims, n_started, n_preempted;
    double wait_sum_s;
    dc_series *s_queue, *s_busy;
    gsl_rng *rng;
} pool;

struct dc_scheduler {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_eventlog *log;
    bool configured, backfill, preemption, fifo;
    int policy;                   /* dc_placer_policy, -1: rack or fifo */
    gsl_rng *place_rng;           /* random placement's stream */
    uint32_t *pick;               /* the nodes a placer chose */
    double estimate_factor;
    pool *pools;
    int n_pools;
    uint16_t *pool_of;            /* per node */
    uint8_t *down_seen, *reclaim_pending;
    entry *e;
    size_t n_e, cap_e;
    int *free_h;                  /* handles of ended entries, for reuse (none with lending) */
    size_t n_free, cap_free;
    uint64_t seq;
    char **users;                 /* names (any length) */
    long *quota, *used;
    int n_users, cap_users;
    int *user_slot;               /* open addressing: user id + 1, 0 empty */
    size_t n_slots;
    int in_pass, again, quiet;
    bool dirty;
    int reason_spot;
    uint32_t *scratch;            /* releases: a job's nodes */
    size_t cap_scratch;
    int *order;
    size_t cap_order;
    int *handle_of;               /* cluster job -> entry, -1: none */
    size_t cap_handle_of;
    uint64_t steps;               /* work outside the trees (scaling test) */
    dc_vcluster *vc;              /* lending between pools; NULL: none */
    int *vc_ids;                  /* a job's lenders (n_pools each): ids, */
    uint32_t *vc_n, *vc_leave;    /* nodes lent, nodes on their way back */
};

dc_scheduler *dc_scheduler_of(dc_sim *sim) { return dc_sim_model(sim, "scheduler"); }
int dc_sched_pool_count(const dc_scheduler *s) { return s->n_pools; }
const char *dc_sched_pool_name(const dc_scheduler *s, int p) { return s->pools[p].name; }
uint32_t dc_sched_pool_nodes(const dc_scheduler *s, int p) { return s->pools[p].n; }
uint32_t dc_sched_pool_first(const dc_scheduler *s, int p) { return s->pools[p].first; }
bool dc_sched_pool_spot(const dc_scheduler *s, int p) { return s->pools[p].spot; }
int dc_sched_pool_type(const dc_scheduler *s, int p)
{
    const pool *q = &s->pools[p];
    int t = dc_cluster_node_type(s->cluster, q->first);
    return q->n > 0 && dc_cluster_node_type(s->cluster, q->first + q->n - 1) == t ? t : -1;
}

int dc_sched_pool_cpu_type(const dc_scheduler *s, int p)
{
    const pool *q = &s->pools[p];
    for (size_t t = 0; dc_cluster_cpu_node_count(s->cluster) > 0 && t < dc_cluster_type_count(s->cluster); t++) {
        const dc_cluster_type *ty = dc_cluster_type_at(s->cluster, t);
        if (ty->gpus_per_node == 0 && ty->first < q->first + q->n && q->first < ty->first + ty->nodes)
            return (int)t;
    }
    return -1;
}

int dc_sched_pool_of_type(const dc_scheduler *s, int type)
{
    for (int i = 0; i < s->n_pools; i++)
        if (dc_sched_pool_type(s, i) == type)
            return i;
    return -1;
}
uint32_t dc_sched_pool_idle(const dc_scheduler *s, int p) { return s->pools[p].idle; }
double dc_sched_estimate_factor(const dc_scheduler *s) { return s->estimate_factor; }

int dc_sched_pool(const dc_scheduler *s, const char *name)
{
    if (!name || !*name)
        return 0;
    for (int i = 0; i < s->n_pools; i++)
        if (strcmp(s->pools[i].name, name) == 0)
            return i;
    return -1;
}

uint64_t dc_sched_work(const dc_scheduler *s)
{
    uint64_t w = s->steps;
    for (int i = 0; i < s->n_pools; i++) {
        const pool *p = &s->pools[i];
        w += dc_stree_work(&p->queue) + dc_stree_work(&p->by_end) + (p->racks ? dc_rackset_work(p->racks) : 0)
             + (p->placer ? dc_placer_work(p->placer) : 0);
    }
    return w + (s->vc ? dc_vcluster_work(s->vc) : 0);
}

bool dc_sched_racks_consistent(const dc_scheduler *s)
{
    uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
    for (int i = 0; i < s->n_pools; i++) {
        const pool *p = &s->pools[i];
        if (!p->racks)
            continue;
        uint32_t r1 = (p->first + p->n - 1) / npr;
        for (uint32_t r = p->r0; r <= r1; r++) {
            uint32_t lo = r * npr < p->first ? p->first : r * npr, hi = (r + 1) * npr;
            if (hi > p->first + p->n)
                hi = p->first + p->n;
            uint32_t k = 0;
            for (uint32_t n = lo; n < hi; n++)
                k += dc_cluster_node_state(s->cluster, n) == DC_NODE_IDLE && !s->reclaim_pending[n];
            if (k != dc_rackset_count(p->racks, r - p->r0))
                return false;
        }
        for (uint32_t n = p->first; p->placer && n < p->first + p->n; n++)
            if (dc_placer_is_idle(p->placer, n)
                != (dc_cluster_node_state(s->cluster, n) == DC_NODE_IDLE && !s->reclaim_pending[n]))
                return false;
    }
    return true;
}

uint32_t dc_sched_pool_idle_recount(const dc_scheduler *s, int p)
{
    uint32_t k = 0;
    for (uint32_t i = s->pools[p].first; i < s->pools[p].first + s->pools[p].n; i++)
        k += dc_cluster_node_state(s->cluster, i) == DC_NODE_IDLE;
    return k;
}

static uint64_t name_hash(const char *name)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (const unsigned char *c = (const unsigned char *)name; *c; c++)
        h = (h ^ *c) * 1099511628211u;
    return h;
}

/* Users by name through a hash table, so that a trace of many users
 * registers in linear time.  Names count to their first 31 characters, as
 * the jobs' specifications keep them (jobspec.h), so that a quota's long
 * name and its jobs' agree. */
int dc_sched_user(dc_scheduler *s, const char *full_name)
{
    char name[32];
    snprintf(name, sizeof name, "%s", full_name);
    size_t mask = s->n_slots - 1, k = s->n_slots ? name_hash(name) & mask : 0;
    for (; s->n_slots && s->user_slot[k]; k = (k + 1) & mask)
        if (strcmp(s->users[s->user_slot[k] - 1], name) == 0)
            return s->user_slot[k] - 1;
    if (s->n_users == s->cap_users) {
        int nc = s->cap_users ? 2 * s->cap_users : 16;
        char **u = realloc(s->users, (size_t)nc * sizeof *u);
        if (!u)
            return -1;
        s->users = u;
        long *q = realloc(s->quota, (size_t)nc * sizeof *q);
        if (!q)
            return -1;
        s->quota = q;
        long *used = realloc(s->used, (size_t)nc * sizeof *used);
        if (!used)
            return -1;
        s->used = used;
        s->cap_users = nc;
    }
    if (2 * ((size_t)s->n_users + 1) > s->n_slots) { /* keep the table at most half full */
        size_t ns = s->n_slots ? 2 * s->n_slots : 64;
        int *slots = calloc(ns, sizeof *slots);
        if (!slots)
            return -1;
        for (int i = 0; i < s->n_users; i++) {
            size_t j = name_hash(s->users[i]) & (ns - 1);
            while (slots[j])
                j = (j + 1) & (ns - 1);
            slots[j] = i + 1;
        }
        free(s->user_slot);
        s->user_slot = slots;
        s->n_slots = ns;
    }
    size_t len = strlen(name) + 1;
    char *copy = malloc(len);
    if (!copy)
        return -1;
    memcpy(copy, name, len);
    int id = s->n_users++;
    s->users[id] = copy;
    s->quota[id] = LONG_MAX;
    s->used[id] = 0;
    size_t j = name_hash(name) & (s->n_slots - 1);
    while (s->user_slot[j])
        j = (j + 1) & (s->n_slots - 1);
    s->user_slot[j] = id + 1;
    return id;
}

static void bank_pool(dc_scheduler *s, pool *p)
{
    double now = dc_sim_now(s->sim), dt = now - p->last_s;
    if (dt > 0.0) {
        p->held_ns += dt * p->held;
        p->idle_ns += dt * p->idle;
        p->shared_free_gs += dt * (double)p->shared_free;
        if (p->nq > 0)
            p->strand_ns += dt * p->idle;
        p->queue_s += dt * (double)p->nq;
        uint32_t out = p->withdrawn + p->down;
        p->exposure_ns += dt * (double)(p->n > out ? p->n - out : 0);
    }
    p->last_s = now;
}

double dc_sched_pool_held_node_s(dc_scheduler *s, int p)
{
    bank_pool(s, &s->pools[p]);
    return s->pools[p].held_ns;
}

static void record_pool(dc_scheduler *s, pool *p)
{
    double now = dc_sim_now(s->sim);
    dc_series_record(p->s_queue, now, (double)p->nq);
    dc_series_record(p->s_busy, now, (double)p->held);
}

static pool *pool_of_node(dc_scheduler *s, uint32_t node) { return &s->pools[s->pool_of[node]]; }

/* One more or one fewer idle node in its pool (and rack). */
static void idle_add(dc_scheduler *s, pool *p, uint32_t node, int delta)
{
    p->idle = delta > 0 ? p->idle + 1 : p->idle - 1;
    if (p->racks)
        dc_rackset_add(p->racks, node / dc_cluster_nodes_per_rack(s->cluster) - p->r0, delta);
    if (p->placer)
        dc_placer_add(p->placer, node, delta);
}

/* ---------- placement ---------- */

/* Takes an idle node whole, or as a share (the job's GPUs of it). */
static bool take(dc_scheduler *s, int32_t job, uint32_t node, bool share)
{
    return share ? dc_cluster_take_share(s->cluster, job, node) : dc_cluster_take_node(s->cluster, job, node);
}

/* Takes n idle nodes of pool p for job (up to n when partial); returns how
 * many were taken; writes them to out when not NULL.  The one place where
 * nodes are chosen: a topology model can refine it.  share: the job takes
 * its share of one node (n is 1). */
static uint32_t place_nodes(dc_scheduler *s, pool *p, int32_t job, uint32_t n, bool partial, uint32_t *out,
                            bool share)
{
    if (n == 0)
        return 0;
    if (!partial && p->idle < n)
        return 0;
    bank_pool(s, p);
    uint32_t got = 0;
    if (p->placer) {
        /* a named policy (placer.h) chooses; topology_aware by the job's model replicas */
        uint32_t want = n < p->idle ? n : p->idle, block = 1, gpn = dc_cluster_gpus_per_node(s->cluster);
        if (s->policy == DC_PLACER_TOPOLOGY && !share) {
            uint32_t rep = dc_steptime_replica_gpus(s->sim, job);
            block = rep > gpn ? rep / gpn : 1;
        }
        uint32_t k = dc_placer_choose(p->placer, want, block, s->pick);
        s->steps += k;
        uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
        for (uint32_t i = 0; i < k; i++) {
            uint32_t node = s->pick[i];
            if (!take(s, job, node, share)) {
                dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: placement chose node %u of pool %s, not idle", node,
                            p->name);
                break;
            }
            dc_rackset_add(p->racks, node / npr - p->r0, -1);
            if (out)
                out[got] = node;
            got++;
        }
    } else if (s->fifo && !share) {
        got = dc_cluster_take_idle_n(s->cluster, job, n, out);
    } else if (s->fifo) {
        uint32_t node;
        while (got < n && dc_cluster_idle_first(s->cluster) >= 0
               && take(s, job, node = (uint32_t)dc_cluster_idle_first(s->cluster), true)) {
            if (out)
                out[got] = node;
            got++;
        }
    } else {
        /* Best fit: the rack with the fewest idle nodes that holds what is
         * left; else the fullest rack, and again (lowest rack on ties). */
        uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
        while (got < n) {
            int64_t r = dc_rackset_best_fit(p->racks, n - got);
            if (r < 0)
                break;
            uint32_t lo = (p->r0 + (uint32_t)r) * npr, hi = lo + npr;
            if (lo < p->first)
                lo = p->first;
            if (hi > p->first + p->n)
                hi = p->first + p->n;
            uint32_t before = got;
            for (uint32_t i = lo; i < hi && got < n; i++) {
                s->steps++;
                if (!s->reclaim_pending[i] && take(s, job, i, share)) {
                    dc_rackset_add(p->racks, (uint32_t)r, -1);
                    if (out)
                        out[got] = i;
                    got++;
                }
            }
            if (got == before) {
                dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: rack %u of pool %s has no idle node", p->r0 + (uint32_t)r,
                            p->name);
                break;
            }
        }
    }
    p->idle -= got;
    p->held += got;
    return got;
}

static uint32_t place(dc_scheduler *s, pool *p, int32_t job, uint32_t n, bool partial, uint32_t *out)
{
    return place_nodes(s, p, job, n, partial, out, false);
}

/* ---------- shares of nodes (jobs of fewer GPUs than a node) ---------- */

/* A GPU count in whole nodes for quotas: a share counts its GPUs, a CPU job none. */
static long entry_gpus(const dc_scheduler *s, const entry *e)
{
    if (e->req.job >= 0 && dc_cluster_job_cpu(s->cluster, e->req.job))
        return 0;
    return e->req.gpus ? (long)e->req.gpus : (long)e->req.nodes * dc_cluster_gpus_per_node(s->cluster);
}

/* The node's free GPUs as the pool's shared set keeps them (0: not shared). */
static void shared_update(dc_scheduler *s, pool *p, uint32_t node)
{
    if (!p->shared)
        return;
    uint32_t f = dc_cluster_node_shared(s->cluster, node) ? dc_cluster_node_free_gpus(s->cluster, node) : 0;
    uint32_t old = dc_rackset_count(p->shared, node - p->first);
    if (f == old)
        return;
    bank_pool(s, p);
    p->shared_free = p->shared_free + f - old;
    dc_rackset_set(p->shared, node - p->first, f);
}

/* The shared node of the pool a share of g GPUs fits best (the fewest free
 * GPUs that hold it, lowest node on ties), -1 when none. */
static int64_t shared_fit(pool *p, uint32_t g)
{
    if (!p->shared)
        return -1;
    int64_t k = dc_rackset_fit(p->shared, g);
    return k < 0 ? -1 : (int64_t)p->first + k;
}

static bool entry_fits(dc_scheduler *s, pool *p, const entry *e)
{
    (void)s;
    if (e->req.gpus)
        return p->idle > 0 || shared_fit(p, e->req.gpus) >= 0;
    return e->req.nodes <= p->idle;
}

/* Places a share: on the partly used node that fits it best, else on an
 * idle node chosen as a 1-node job's would be.  1 when placed, else 0. */
static uint32_t place_share(dc_scheduler *s, pool *p, int32_t job, uint32_t g)
{
    uint32_t gpn = dc_cluster_gpus_per_node(s->cluster);
    if (!p->shared) {
        p->shared = dc_rackset_create(p->n, gpn - 1);
        if (!p->shared) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory for the shared nodes of pool %s", p->name);
            return 0;
        }
    }
    int64_t node = shared_fit(p, g);
    uint32_t n;
    if (node >= 0) {
        s->steps++;
        if (!dc_cluster_take_share(s->cluster, job, (uint32_t)node)) {
            dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: shared node %u has no room for %u GPUs", (uint32_t)node, g);
            return 0;
        }
        n = (uint32_t)node;
    } else if (place_nodes(s, p, job, 1, false, &n, true) != 1) {
        return 0;
    }
    shared_update(s, p, n);
    return 1;
}

/* ---------- queue ---------- */

static int grow_ints(int **a, size_t *cap, size_t need)
{
    if (need <= *cap)
        return DC_OK;
    size_t nc = *cap ? 2 * *cap : 16;
    while (nc < need)
        nc *= 2;
    int *g = realloc(*a, nc * sizeof *g);
    if (!g)
        return DC_ENOMEM;
    *a = g;
    *cap = nc;
    return DC_OK;
}

/* true when a ranks before b in the queue */
static bool before(const entry *a, const entry *b)
{
    if (a->req.priority != b->req.priority)
        return a->req.priority > b->req.priority;
    /* consistent with eviction: a preemptible job never ranks before a job
     * that may evict it (else the two would take turns for ever) */
    if (a->req.preemptible != b->req.preemptible)
        return b->req.preemptible;
    if (a->submit_s != b->submit_s)
        return a->submit_s < b->submit_s;
    return a->seq < b->seq;
}

static bool queue_before(const void *ctx, int a, int b)
{
    const dc_scheduler *s = ctx;
    return before(&s->e[a], &s->e[b]);
}

/* Running jobs by expected end (equal ends: by handle, which changes
 * neither the shadow time nor the extra nodes). */
static bool end_before(const void *ctx, int a, int b)
{
    const dc_scheduler *s = ctx;
    const entry *x = &s->e[a], *y = &s->e[b];
    if (x->est_end_s != y->est_end_s)
        return x->est_end_s < y->est_end_s;
    return a < b;
}

static bool ends_by(const void *ctx, int h, const void *arg)
{
    const dc_scheduler *s = ctx;
    return s->e[h].est_end_s <= *(const double *)arg;
}

static void enqueue(dc_scheduler *s, int h)
{
    pool *p = &s->pools[s->e[h].req.pool];
    if (dc_stree_insert(&p->queue, h, s->e[h].req.nodes, s->e[h].req.estimate_s) != 0) {
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory queueing a job");
        return;
    }
    if (s->e[h].req.gpus && dc_stree_insert(&p->small_q, h, s->e[h].req.gpus, 0.0) != 0) {
        dc_stree_remove(&p->queue, h);
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory queueing a job");
        return;
    }
    bank_pool(s, p);
    p->nq++;
    s->e[h].state = E_QUEUED;
    record_pool(s, p);
}

static void unqueue(dc_scheduler *s, pool *p, int h)
{
    bank_pool(s, p);
    dc_stree_remove(&p->queue, h);
    if (s->e[h].req.gpus)
        dc_stree_remove(&p->small_q, h);
    p->nq--;
    record_pool(s, p);
}

/* The multiset of running priorities: one more (delta 1) or one fewer. */
static int prio_count_add(struct prio_count **a, size_t *n, size_t *cap, int prio, int delta)
{
    size_t k = 0;
    while (k < *n && (*a)[k].prio < prio)
        k++;
    if (k < *n && (*a)[k].prio == prio) {
        (*a)[k].n = delta > 0 ? (*a)[k].n + 1 : (*a)[k].n - 1;
        if ((*a)[k].n == 0) {
            memmove(*a + k, *a + k + 1, (*n - k - 1) * sizeof **a);
            (*n)--;
        }
        return DC_OK;
    }
    if (delta < 0)
        return DC_OK;
    if (*n == *cap) {
        size_t nc = *cap ? 2 * *cap : 4;
        struct prio_count *g = realloc(*a, nc * sizeof *g);
        if (!g)
            return DC_ENOMEM;
        *a = g;
        *cap = nc;
    }
    memmove(*a + k + 1, *a + k, (*n - k) * sizeof **a);
    (*a)[k] = (struct prio_count){prio, 1};
    (*n)++;
    return DC_OK;
}

static int running_prio(pool *p, const entry *e, int delta)
{
    if (prio_count_add(&p->prio_all, &p->n_prio_all, &p->cap_prio_all, e->req.priority, delta) != DC_OK)
        return DC_ENOMEM;
    if (e->req.preemptible)
        return prio_count_add(&p->prio_pre, &p->n_prio_pre, &p->cap_prio_pre, e->req.priority, delta);
    return DC_OK;
}

/* size: the nodes of the pool it holds (its reservation share) */
static int add_running(dc_scheduler *s, pool *p, int h, uint32_t size)
{
    if (grow_ints(&p->running, &p->capr, p->nr + 1) != DC_OK)
        return DC_ENOMEM;
    s->e[h].runpos = p->nr;
    p->running[p->nr++] = h;
    if (dc_stree_insert(&p->by_end, h, size, 0.0) != 0 || running_prio(p, &s->e[h], +1) != DC_OK)
        return DC_ENOMEM;
    return DC_OK;
}

static void remove_running(dc_scheduler *s, pool *p, int h)
{
    size_t k = s->e[h].runpos;
    if (k >= p->nr || p->running[k] != h)
        return;
    dc_stree_remove(&p->by_end, h);
    running_prio(p, &s->e[h], -1);
    int last = p->running[p->nr - 1];
    p->running[k] = last;
    s->e[last].runpos = k;
    p->nr--;
}

static void set_waiting(pool *p, entry *e, bool waiting)
{
    if (e->waiting != waiting)
        p->n_waiting = waiting ? p->n_waiting + 1 : p->n_waiting - 1;
    e->waiting = waiting;
}

static void on_limit(dc_sim *sim, void *ctx, uint64_t h);
static void pass_all(dc_scheduler *s);

/* Starts entry h on its pool's idle nodes and, with lenders (nl > 0), on
 * s->vc_n[k] idle nodes of lender s->vc_ids[k] for k < nl. */
static void start_entry(dc_scheduler *s, pool *p, int h, size_t nl)
{
    entry *e = &s->e[h];
    uint32_t n_lent = 0;
    for (size_t k = 0; k < nl; k++)
        n_lent += s->vc_n[k];
    uint32_t got = e->req.gpus ? place_share(s, p, e->req.job, e->req.gpus) /* shares never borrow */
                               : place(s, p, e->req.job, e->req.nodes - n_lent, false, NULL);
    for (size_t k = 0; k < nl && !e->req.gpus; k++)
        got += place(s, &s->pools[s->vc_ids[k]], e->req.job, s->vc_n[k], false, NULL);
    if (got != e->req.nodes) {
        dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: placement found %u of %u nodes", got, e->req.nodes);
        return;
    }
    unqueue(s, p, h);
    double now = dc_sim_now(s->sim);
    e = &s->e[h];
    e->state = E_RUNNING;
    set_waiting(p, e, false);
    e->start_s = now;
    e->est_end_s = now + e->req.estimate_s;
    if (nl > 0) {
        if (dc_vcluster_start(s->vc, now, h, (int)(p - s->pools), nl, s->vc_ids, s->vc_n, e->req.priority,
                              e->req.preemptible, now)
            != 0) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory starting a job on borrowed nodes");
            return;
        }
        for (size_t k = 0; k < nl; k++)
            dc_eventlog_add(s->log, now, "borrow", s->pools[s->vc_ids[k]].name, (int32_t)s->vc_n[k], e->req.job,
                            0.0);
    }
    if (add_running(s, p, h, e->req.nodes - n_lent) != DC_OK) {
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory starting a job");
        return;
    }
    if (e->req.user >= 0)
        s->used[e->req.user] += entry_gpus(s, e);
    if (isfinite(e->req.max_run_s))
        e->limit_ev = dc_sim_after(s->sim, e->req.max_run_s, on_limit, s, (uint64_t)h);
    p->n_started++;
    p->wait_sum_s += now - e->submit_s;
    dc_eventlog_add(s->log, now, "job_start", p->name, (int32_t)e->req.nodes, e->req.job, e->est_end_s);
    record_pool(s, p);
    e->req.client->start(e->req.ctx);
}

static bool quota_ok(const dc_scheduler *s, const entry *e)
{
    return e->req.user < 0 || s->used[e->req.user] + entry_gpus(s, e) <= s->quota[e->req.user];
}

/* The head's reservation (EASY): the shadow time is the first expected
 * end, over the running jobs in that order, at which the nodes free now
 * and those of the jobs ending until then reach the head's size; the
 * extra nodes are those free at the shadow time (every job expected to
 * end by then, ties included) beyond the head's size. */
static void reserve(dc_scheduler *s, pool *p, const entry *head, uint32_t avail, double *shadow, long *extra)
{
    double now = dc_sim_now(s->sim);
    *shadow = INFINITY;
    *extra = 0;
    uint64_t sum = 0;
    int k = dc_stree_prefix(&p->by_end, (uint64_t)head->req.nodes - avail, &sum);
    if (k >= 0) {
        *shadow = s->e[k].est_end_s > now ? s->e[k].est_end_s : now;
        sum = dc_stree_sum_while(&p->by_end, ends_by, shadow);
        *extra = (long)avail + (long)sum - (long)head->req.nodes;
    }
    /* Evictions under way (jobs writing their way out) will let the head
     * start when they end: backfill only into the nodes beyond its need.
     * Else a job evicted for the head would backfill into the nodes it
     * gave up, be evicted again, and so on at the same instant. */
    if (p->freeing > 0 && (uint64_t)avail + p->freeing >= head->req.nodes) {
        *shadow = now;
        *extra = (long)avail + (long)p->freeing - (long)head->req.nodes;
    }
}

static bool can_evict(const entry *head, const entry *v)
{
    if (v->preempting || v->state != E_RUNNING || v->req.gpus)
        return false; /* evicting a share frees no node while others share it */
    if (v->req.priority < head->req.priority)
        return true;
    return v->req.preemptible && !head->req.preemptible && v->req.priority <= head->req.priority;
}

/* Whether any running job of the pool could be evicted for head (by the
 * priorities alone): without one the running list is not scanned. */
static bool may_evict(const pool *p, const entry *head)
{
    if (p->n_prio_all > 0 && p->prio_all[0].prio < head->req.priority)
        return true;
    return !head->req.preemptible && p->n_prio_pre > 0 && p->prio_pre[0].prio <= head->req.priority;
}

/* victim order: preemptible first, lower priority first, latest start first */
static bool evict_before(const entry *a, const entry *b)
{
    if (a->req.preemptible != b->req.preemptible)
        return a->req.preemptible;
    if (a->req.priority != b->req.priority)
        return a->req.priority < b->req.priority;
    return a->start_s > b->start_s;
}

static void preempt_entry(dc_scheduler *s, int h, double notice_s, dc_sched_why why)
{
    entry *e = &s->e[h];
    pool *p = &s->pools[e->req.pool];
    if (e->preempting)
        return;
    e->preempting = true;
    /* a job on borrowed nodes frees them in their pools */
    uint32_t lent = s->vc ? dc_vcluster_leaving(s->vc, h) : 0;
    p->freeing += e->req.nodes - lent;
    if (lent > 0) {
        size_t nl = dc_vcluster_lenders(s->vc, h, s->vc_ids, NULL, s->vc_leave);
        for (size_t k = 0; k < nl; k++)
            s->pools[s->vc_ids[k]].freeing += s->vc_leave[k];
    }
    if (why != DC_SCHED_TIMEOUT)
        p->n_preempted++;
    static const char *const names[] = {"preempt", "spot_notice", "time_limit", "lend_reclaim"};
    dc_eventlog_add(s->log, dc_sim_now(s->sim), names[why], p->name, (int32_t)e->req.nodes, e->req.job, notice_s);
    s->again = 1;
    e->req.client->preempt(e->req.ctx, notice_s, why);
}

/* The nodes of its own pool job h holds (all, unless it borrows). */
static uint32_t own_share(const dc_scheduler *s, int h)
{
    return s->e[h].req.nodes - (s->vc ? dc_vcluster_lent_of(s->vc, h) : 0);
}

/* ---------- virtual clusters: lending and reclaim (vcluster.h) ---------- */

/* The idle nodes pool i may lend now: all of them while nothing of its own
 * wants them (no job queued, no running job short of nodes), up to its
 * lend_max_nodes. */
static uint32_t lendable(void *ctx, int i)
{
    const dc_scheduler *s = ctx;
    const pool *p = &s->pools[i];
    if (p->nq > 0 || p->n_waiting > 0 || p->svc_want > 0)
        return 0;
    uint32_t room = dc_vcluster_lend_room(s->vc, i);
    return p->idle < room ? p->idle : room;
}

/* Head h of pool p does not fit its pool's idle nodes: it starts on them
 * and on the missing nodes of the lenders (most lendable first), if they
 * have them. */
static bool borrow_start(dc_scheduler *s, pool *p, int h)
{
    uint32_t short_n = s->e[h].req.nodes - p->idle;
    size_t nl = dc_vcluster_pick(s->vc, (int)(p - s->pools), short_n, lendable, s, s->vc_ids, s->vc_n);
    if (nl == 0)
        return false;
    start_entry(s, p, h, nl);
    return true;
}

/* A job of lending pool p needs nodes more nodes than are idle or on their
 * way back: reclaim them from the jobs borrowing its nodes, in reclaim
 * order (vcluster.h), if the borrowed nodes would let it start. */
static void reclaim_for(dc_scheduler *s, pool *p, uint32_t nodes)
{
    int l = (int)(p - s->pools);
    long need = (long)nodes - (long)p->idle - (long)p->freeing;
    if (need <= 0 || !dc_vcluster_lends(s->vc, l) || (long)dc_vcluster_lent_staying(s->vc, l) < need)
        return;
    int victims[64];
    size_t nv = dc_vcluster_victims(s->vc, l, (uint32_t)need, victims, 64);
    for (size_t i = 0; i < nv; i++) {
        dc_vcluster_count_reclaim(s->vc, l, s->e[victims[i]].req.pool);
        preempt_entry(s, victims[i], dc_vcluster_notice_s(s->vc, l), DC_SCHED_RECLAIM);
    }
}

/* The pool's service still waits: reclaim what it misses (its own event,
 * so that the evicted jobs' nodes come back outside the service's call). */
static void on_service_reclaim(dc_sim *sim, void *ctx, uint64_t pi)
{
    dc_scheduler *s = ctx;
    pool *p = &s->pools[pi];
    (void)sim;
    p->svc_reclaim = false;
    if (p->svc_want > 0)
        reclaim_for(s, p, p->svc_want);
}

void dc_sched_service_wants(dc_scheduler *s, int pool_id, uint32_t nodes)
{
    pool *p = &s->pools[pool_id];
    p->svc_want = nodes;
    /* only with lent nodes to take back: without lending nothing changes */
    if (!s->vc || p->svc_reclaim || nodes <= p->idle + p->freeing || !dc_vcluster_lends(s->vc, pool_id)
        || dc_vcluster_lent_staying(s->vc, pool_id) == 0)
        return;
    p->svc_reclaim = true;
    dc_sim_after(s->sim, 0.0, on_service_reclaim, s, (uint64_t)pool_id);
}

/* Evicts jobs ranking below entry head_h until nodes more nodes than the
 * pool's idle and freeing ones are on their way (if they can be). */
static void evict_for(dc_scheduler *s, pool *p, int head_h, uint32_t nodes, uint32_t avail)
{
    const entry *head = &s->e[head_h];
    long need = (long)nodes - (long)avail - (long)p->freeing;
    if (need <= 0 || !may_evict(p, head))
        return;
    if (grow_ints(&s->order, &s->cap_order, p->nr) != DC_OK)
        return;
    size_t n = 0;
    long total = 0;
    for (size_t k = 0; k < p->nr; k++) {
        s->steps++;
        if (p->running[k] != head_h && can_evict(head, &s->e[p->running[k]]) && own_share(s, p->running[k]) > 0) {
            s->order[n++] = p->running[k];
            total += own_share(s, p->running[k]);
        }
    }
    if (total < need)
        return;
    for (size_t i = 1; i < n; i++) {
        int v = s->order[i];
        size_t j = i;
        while (j > 0 && evict_before(&s->e[v], &s->e[s->order[j - 1]])) {
            s->order[j] = s->order[j - 1];
            j--;
        }
        s->order[j] = v;
    }
    /* copy: callbacks may change s->order through nested passes */
    int victims[64];
    size_t nv = 0;
    for (size_t i = 0; i < n && need > 0 && nv < 64; i++) {
        victims[nv++] = s->order[i];
        need -= own_share(s, s->order[i]);
    }
    for (size_t i = 0; i < nv; i++)
        preempt_entry(s, victims[i], 0.0, DC_SCHED_PREEMPT);
}

static void wake_waiters(dc_scheduler *s, pool *p)
{
    for (size_t k = 0; p->n_waiting > 0 && k < p->nr && p->idle > 0; k++) {
        s->steps++;
        entry *e = &s->e[p->running[k]];
        if (e->waiting && !e->preempting)
            e->req.client->wake(e->req.ctx);
    }
}

/* One pass over a pool's queue in order: jobs start while they fit (and
 * their user's quota holds); the first that does not is the head and gets
 * a reservation; then (backfill) each later job that fits now and ends
 * before the shadow time or fits in the extra nodes starts.  The queue is
 * searched through its subtree minima, so jobs that cannot start are
 * skipped in bulk and the pass stops when no idle node is left. */
static void pass_queue(dc_scheduler *s, pool *p)
{
    wake_waiters(s, p);
    double shadow = INFINITY, now = dc_sim_now(s->sim);
    long extra = 0;
    int after = -1; /* the last job looked at (or started): the search goes on after it */
    for (;;) {
        if (s->again)
            return;
        s->steps++;
        int h = after < 0 ? dc_stree_first(&p->queue) : dc_stree_next(&p->queue, after);
        if (h < 0)
            return;
        entry *e = &s->e[h];
        after = h;
        if (!quota_ok(s, e))
            continue;
        if (entry_fits(s, p, e)) {
            start_entry(s, p, h, 0);
            continue;
        }
        if (s->vc && !e->req.gpus && borrow_start(s, p, h))
            continue;
        reserve(s, p, e, p->idle, &shadow, &extra);
        dc_eventlog_add(s->log, now, "reserve", p->name, (int32_t)p->idle, e->req.job, shadow);
        if (s->vc)
            reclaim_for(s, p, e->req.nodes);
        if (s->preemption)
            evict_for(s, p, h, e->req.nodes, p->idle);
        if (!s->backfill || s->again)
            return;
        break;
    }
    while (!s->again && p->idle > 0) {
        s->steps++;
        int h = dc_stree_find(&p->queue, after, p->idle, extra, now, shadow);
        if (h < 0)
            return;
        entry *e = &s->e[h];
        after = h;
        if (!quota_ok(s, e))
            continue;
        if (!(now + e->req.estimate_s <= shadow))
            extra -= e->req.nodes; /* it fits in the extra nodes */
        start_entry(s, p, h, 0);
    }
}

/* Queued shares that fit in the free GPUs of shared nodes start in queue
 * order: they take no node, so they never delay a reservation. */
static void fill_shared(dc_scheduler *s, pool *p)
{
    int after = -1;
    while (!s->again && p->shared && dc_stree_count(&p->small_q) > 0) {
        s->steps++;
        uint32_t most = dc_rackset_highest(p->shared);
        if (most == 0)
            return;
        int h = dc_stree_find(&p->small_q, after, most, 0, 0.0, INFINITY);
        if (h < 0)
            return;
        after = h;
        if (quota_ok(s, &s->e[h]))
            start_entry(s, p, h, 0);
    }
}

static void pass_pool(dc_scheduler *s, pool *p)
{
    pass_queue(s, p);
    fill_shared(s, p);
}

static void pass_all(dc_scheduler *s)
{
    if (s->in_pass || s->quiet) {
        s->dirty = true;
        return;
    }
    s->in_pass = 1;
    int rounds = 0;
    do {
        s->again = 0;
        s->dirty = false;
        for (int i = 0; i < s->n_pools && !s->again; i++)
            pass_pool(s, &s->pools[i]);
        if (++rounds > 100000) {
            dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: passes do not settle");
            break;
        }
    } while (s->again || s->dirty);
    s->in_pass = 0;
}

/* ---------- jobs' calls ---------- */

static void on_submit_pass(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim;
    (void)arg;
    pass_all(ctx);
}

int dc_sched_submit(dc_scheduler *s, const dc_sched_req *req)
{
    if (s->n_free == 0 && s->n_e == s->cap_e) {
        size_t nc = s->cap_e ? 2 * s->cap_e : 64;
        entry *g = realloc(s->e, nc * sizeof *g);
        if (!g) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory submitting a job");
            return -1;
        }
        s->e = g;
        s->cap_e = nc;
    }
    if (req->job >= 0 && (size_t)req->job >= s->cap_handle_of) {
        size_t nc = s->cap_handle_of ? 2 * s->cap_handle_of : 64;
        while (nc <= (size_t)req->job)
            nc *= 2;
        int *g = realloc(s->handle_of, nc * sizeof *g);
        if (!g) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory submitting a job");
            return -1;
        }
        for (size_t i = s->cap_handle_of; i < nc; i++)
            g[i] = -1;
        s->handle_of = g;
        s->cap_handle_of = nc;
    }
    /* an ended job's handle first: the entries and the trees' nodes then
     * number the jobs in play, not every job submitted */
    int h = s->n_free > 0 ? s->free_h[--s->n_free] : (int)s->n_e++;
    s->e[h] = (entry){.req = *req, .submit_s = dc_sim_now(s->sim), .seq = s->seq++};
    if (req->job >= 0)
        s->handle_of[req->job] = h;
    dc_eventlog_add(s->log, dc_sim_now(s->sim), "job_queued", s->pools[req->pool].name, (int32_t)req->nodes,
                    req->job, req->estimate_s);
    enqueue(s, h);
    pass_all(s);
    return h;
}

uint32_t dc_sched_refill(dc_scheduler *s, int h, uint32_t missing)
{
    entry *e = &s->e[h];
    pool *p = &s->pools[e->req.pool];
    uint32_t got = e->req.gpus ? (missing > 0 ? place_share(s, p, e->req.job, e->req.gpus) : 0)
                               : place(s, p, e->req.job, missing, true, NULL);
    set_waiting(p, e, got < missing);
    if (e->waiting && s->vc && !e->preempting)
        reclaim_for(s, p, missing - got);
    /* a job short of replacements may evict lower ranks too */
    if (e->waiting && s->preemption && !e->preempting)
        evict_for(s, p, h, missing - got, p->idle);
    return got;
}

/* Gives back node (BUSY, held by a job of the pool) or withdraws it if the
 * provider reclaimed it. */
static void on_restore(dc_sim *sim, void *ctx, uint64_t node);

static void give_back(dc_scheduler *s, uint32_t node)
{
    pool *p = pool_of_node(s, node);
    bank_pool(s, p);
    p->held--;
    if (s->reclaim_pending[node]) {
        s->reclaim_pending[node] = 0;
        dc_cluster_release(s->cluster, node);
        dc_cluster_withdraw(s->cluster, node, s->reason_spot);
        p->withdrawn++;
        dc_sim_after(s->sim, gsl_ran_exponential(p->rng, p->reclaim_mean_s), on_restore, s, node);
        return;
    }
    idle_add(s, p, node, +1);
    dc_cluster_release(s->cluster, node);
}

/* A borrowing job h gave back its released nodes (s->scratch): the lent
 * ones leave their lenders' accounts, and those counted on their way back
 * leave the lenders' freeing counts; lent_leaving receives their sum. */
static bool vc_release(dc_scheduler *s, int h, uint32_t released, uint32_t *lent_leaving)
{
    uint32_t foreign = 0;
    for (uint32_t i = 0; i < released; i++)
        foreign += s->pool_of[s->scratch[i]] != (uint16_t)s->e[h].req.pool;
    if (foreign != dc_vcluster_lent_of(s->vc, h)) {
        dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: job %d gives back %u borrowed nodes but holds %u", (int)h,
                    foreign, dc_vcluster_lent_of(s->vc, h));
        return false;
    }
    size_t nl = dc_vcluster_lenders(s->vc, h, s->vc_ids, NULL, s->vc_leave);
    for (size_t k = 0; k < nl; k++)
        s->pools[s->vc_ids[k]].freeing -= s->vc_leave[k];
    *lent_leaving = dc_vcluster_end(s->vc, dc_sim_now(s->sim), h);
    return true;
}

/* A share job gives its GPUs back; its node goes back when it was the last. */
static void give_back_share(dc_scheduler *s, pool *p, int32_t job)
{
    uint32_t n = 0;
    const uint32_t *list = dc_cluster_job_node_list(s->cluster, job, &n);
    if (n == 0)
        return;
    uint32_t node = list[0];
    if (!dc_cluster_release_share(s->cluster, job)) {
        shared_update(s, p, node);
        return;
    }
    shared_update(s, p, node);
    bank_pool(s, p);
    p->held--;
    if (s->reclaim_pending[node]) {
        s->reclaim_pending[node] = 0;
        dc_cluster_withdraw(s->cluster, node, s->reason_spot);
        p->withdrawn++;
        dc_sim_after(s->sim, gsl_ran_exponential(p->rng, p->reclaim_mean_s), on_restore, s, node);
        return;
    }
    idle_add(s, p, node, +1);
}

/* Entry h ended: its handle is free for the next submission (the job model
 * drops its record at its end and never passes the handle again).  Not
 * with lending, whose accounts (vcluster.c) keep a job's handle. */
static void end_entry(dc_scheduler *s, int h)
{
    entry *e = &s->e[h];
    e->state = E_DONE;
    if (s->vc)
        return;
    if (s->n_free == s->cap_free) {
        size_t nc = s->cap_free ? 2 * s->cap_free : 64;
        int *g = realloc(s->free_h, nc * sizeof *g);
        if (!g)
            return; /* not reused: costs memory only */
        s->free_h = g;
        s->cap_free = nc;
    }
    if (e->req.job >= 0 && (size_t)e->req.job < s->cap_handle_of && s->handle_of[e->req.job] == h)
        s->handle_of[e->req.job] = -1;
    s->free_h[s->n_free++] = h;
}

void dc_sched_done(dc_scheduler *s, int h, bool requeue)
{
    entry *e = &s->e[h];
    pool *p = &s->pools[e->req.pool];
    if (e->state != E_RUNNING)
        return;
    /* the job's own list of nodes, given back in node order (the order the
     * cluster's idle list then hands them out in) */
    uint32_t released = 0;
    const uint32_t *list = dc_cluster_job_node_list(s->cluster, e->req.job, &released);
    if (2 * (size_t)released > s->cap_scratch) { /* the list and the sort's room */
        size_t nc = s->cap_scratch ? 2 * s->cap_scratch : 64;
        while (nc < 2 * (size_t)released)
            nc *= 2;
        uint32_t *g = realloc(s->scratch, nc * sizeof *g);
        if (!g) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory releasing a job's nodes");
            return;
        }
        s->scratch = g;
        s->cap_scratch = nc;
    }
    if (released > 0) {
        memcpy(s->scratch, list, released * sizeof *list);
        dc_sort_u32(s->scratch, s->scratch + released, released); /* the order the idle list hands them out in */
    }
    s->quiet++;
    if (e->req.gpus)
        give_back_share(s, p, e->req.job);
    else
        for (uint32_t i = 0; i < released; i++)
            give_back(s, s->scratch[i]);
    s->quiet--;
    e = &s->e[h];
    dc_sim_cancel(s->sim, &e->limit_ev);
    uint32_t lent_leaving = 0;
    if (s->vc) {
        if (dc_vcluster_borrowing(s->vc, h) && !vc_release(s, h, released, &lent_leaving))
            return;
    }
    if (e->preempting)
        p->freeing -= e->req.nodes - lent_leaving;
    e->preempting = false;
    set_waiting(p, e, false);
    if (e->req.user >= 0)
        s->used[e->req.user] -= entry_gpus(s, e);
    remove_running(s, p, h);
    dc_eventlog_add(s->log, dc_sim_now(s->sim), "job_release", p->name, (int32_t)released, e->req.job,
                    (double)e->req.nodes);
    if (requeue)
        enqueue(s, h);
    else
        end_entry(s, h);
    record_pool(s, p);
    /* Defer the pass: the job finishing its own bookkeeping comes first. */
    dc_sim_after(s->sim, 0.0, on_submit_pass, s, 0);
}

static void on_limit(dc_sim *sim, void *ctx, uint64_t h)
{
    dc_scheduler *s = ctx;
    (void)sim;
    s->e[h].limit_ev = DC_EVENT_NONE;
    if (s->e[h].state == E_RUNNING)
        preempt_entry(s, (int)h, 0.0, DC_SCHED_TIMEOUT);
}

bool dc_sched_take_now(dc_scheduler *s, int32_t job, int pool_id, int priority, uint32_t n, uint32_t *nodes)
{
    pool *p = &s->pools[pool_id];
    /* the queue ranks by priority first: the jobs of priority >= priority lead it */
    for (int h = dc_stree_first(&p->queue); h >= 0 && s->e[h].req.priority >= priority;
         h = dc_stree_next(&p->queue, h))
        if (quota_ok(s, &s->e[h]))
            return false; /* the queue ranks first */
    return place(s, p, job, n, false, nodes) == n;
}

void dc_sched_give_back(dc_scheduler *s, uint32_t node)
{
    s->quiet++;
    give_back(s, node);
    s->quiet--;
    if (s->dirty)
        pass_all(s);
}

/* ---------- the cluster's signals ---------- */

/* A held node failed: if a job of another pool borrowed it, it is no
 * longer lent. */
static void vc_node_failed(dc_scheduler *s, uint32_t node)
{
    int32_t job = dc_cluster_node_job(s->cluster, node);
    int h = (size_t)job < s->cap_handle_of ? s->handle_of[job] : -1;
    if (h >= 0 && s->e[h].state == E_RUNNING && s->e[h].req.pool != s->pool_of[node])
        dc_vcluster_node_lost(s->vc, dc_sim_now(s->sim), h, s->pool_of[node]);
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    dc_scheduler *s = ctx;
    const dc_failure_event *ev = payload;
    (void)sim;
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t node = ev->nodes[i];
        pool *p = pool_of_node(s, node);
        bank_pool(s, p);
        if (dc_cluster_node_job(s->cluster, node) >= 0) {
            p->held--;
            shared_update(s, p, node); /* DOWN now: out of the shared set */
            record_pool(s, p); /* the busy series follows the held count (issue 18 item 12) */
            if (s->vc)
                vc_node_failed(s, node);
        } else {
            idle_add(s, p, node, -1);
        }
        p->down++;
        s->down_seen[node] = 1;
        s->reclaim_pending[node] = 0;
    }
}

static void on_nodes_up(dc_sim *sim, void *ctx, const void *payload)
{
    dc_scheduler *s = ctx;
    const dc_nodes_event *ev = payload;
    (void)sim;
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t node = ev->nodes[i];
        if (!s->down_seen[node] || dc_cluster_node_state(s->cluster, node) != DC_NODE_IDLE)
            continue;
        pool *p = pool_of_node(s, node);
        bank_pool(s, p);
        s->down_seen[node] = 0;
        p->down--;
        idle_add(s, p, node, +1);
    }
}

static void on_node_idle(dc_sim *sim, void *ctx, const void *payload)
{
    (void)sim;
    (void)payload;
    pass_all(ctx);
}

/* ---------- spot capacity ---------- */

static void on_reclaim(dc_sim *sim, void *ctx, uint64_t pi);

static void schedule_reclaim(dc_scheduler *s, int pi)
{
    pool *p = &s->pools[pi];
    double rate = p->reclaim_rate_per_s * p->n;
    if (rate > 0.0)
        dc_sim_after(s->sim, gsl_ran_exponential(p->rng, 1.0 / rate), on_reclaim, s, (uint64_t)pi);
}

static void on_restore(dc_sim *sim, void *ctx, uint64_t node)
{
    dc_scheduler *s = ctx;
    (void)sim;
    pool *p = pool_of_node(s, (uint32_t)node);
    bank_pool(s, p);
    p->withdrawn--;
    if (!dc_cluster_node_present(s->cluster, (uint32_t)node)) { /* its stage retired meanwhile */
        p->down++;
        s->down_seen[node] = 1;
        return;
    }
    idle_add(s, p, (uint32_t)node, +1);
    dc_eventlog_add(s->log, dc_sim_now(s->sim), "spot_return", p->name, (int32_t)node, -1, 0.0);
    dc_cluster_restore(s->cluster, (uint32_t)node); /* publishes node_idle: a pass */
}

static void on_reclaim(dc_sim *sim, void *ctx, uint64_t pi)
{
    dc_scheduler *s = ctx;
    pool *p = &s->pools[pi];
    schedule_reclaim(s, (int)pi);
    /* thinning: a uniformly drawn node of the pool, kept if in service */
    uint32_t node = p->first + (uint32_t)gsl_rng_uniform_int(p->rng, p->n);
    dc_node_state st = dc_cluster_node_state(s->cluster, node);
    if (s->reclaim_pending[node] || (st != DC_NODE_IDLE && st != DC_NODE_BUSY))
        return;
    bank_pool(s, p);
    p->n_reclaims++;
    int32_t job = dc_cluster_node_job(s->cluster, node);
    dc_eventlog_add(s->log, dc_sim_now(sim), "spot_reclaim", p->name, (int32_t)node, job, p->notice_s);
    if (st == DC_NODE_IDLE) {
        dc_cluster_withdraw(s->cluster, node, s->reason_spot);
        idle_add(s, p, node, -1);
        p->withdrawn++;
        dc_sim_after(sim, gsl_ran_exponential(p->rng, p->reclaim_mean_s), on_restore, s, node);
        return;
    }
    s->reclaim_pending[node] = 1;
    /* every job on the node (a shared node has several): collected first,
     * as a preempted job may leave at once */
    int hs[64];
    size_t nh = 0;
    for (; job >= 0 && nh < sizeof hs / sizeof hs[0]; job = dc_cluster_node_next_job(s->cluster, node, job)) {
        int h = (size_t)job < s->cap_handle_of ? s->handle_of[job] : -1;
        if (h < 0 || s->e[h].state != E_RUNNING || &s->pools[s->e[h].req.pool] != p)
            continue; /* a service's node */
        if (s->e[h].preempting) /* already leaving: the node goes when it does */
            continue;
        hs[nh++] = h;
    }
    for (size_t i = 0; i < nh; i++)
        if (s->e[hs[i]].state == E_RUNNING && !s->e[hs[i]].preempting)
            preempt_entry(s, hs[i], p->notice_s, DC_SCHED_SPOT);
}

/* ---------- model ---------- */

/* Virtual clusters: the pools' lend, borrow and lend_notice_s; s->vc only
 * when some pool lends and another borrows (else lending is off and no
 * code of it runs). */
static int vc_init(dc_scheduler *s, const dc_scenario *sc, config_setting_t *list, dc_error *err)
{
    bool any = false;
    for (int i = 0; i < s->n_pools; i++) {
        config_setting_t *pg = config_setting_get_elem(list, (unsigned)i);
        int lend = 0, borrow = 0;
        dc_cfg_lookup_bool(pg, "lend", &lend);
        dc_cfg_lookup_bool(pg, "borrow", &borrow);
        if (lend && s->pools[i].spot)
            return dc_scenario_error_at(sc, dc_cfg_member(pg, "lend"), err,
                                        "a spot pool cannot lend (its provider reclaims its nodes)");
        any = any || lend || borrow;
    }
    if (!any)
        return DC_OK;
    s->vc = dc_vcluster_create(s->n_pools);
    s->vc_ids = calloc((size_t)s->n_pools, sizeof *s->vc_ids);
    s->vc_n = calloc((size_t)s->n_pools, sizeof *s->vc_n);
    s->vc_leave = calloc((size_t)s->n_pools, sizeof *s->vc_leave);
    if (!s->vc || !s->vc_ids || !s->vc_n || !s->vc_leave)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler");
    for (int i = 0; i < s->n_pools; i++) {
        config_setting_t *pg = config_setting_get_elem(list, (unsigned)i);
        int lend = 0, borrow = 0;
        double notice = 0;
        dc_cfg_lookup_bool(pg, "lend", &lend);
        dc_cfg_lookup_bool(pg, "borrow", &borrow);
        dc_cfg_lookup_float(pg, "lend_notice_s", &notice);
        dc_vcluster_set_pool(s->vc, i, lend, borrow, notice);
        int lend_max = 0;
        if (dc_cfg_lookup_int(pg, "lend_max_nodes", &lend_max))
            dc_vcluster_set_lend_max(s->vc, i, (uint32_t)lend_max);
    }
    if (!dc_vcluster_active(s->vc)) {
        dc_vcluster_destroy(s->vc);
        s->vc = NULL;
    }
    return DC_OK;
}

/* Per pool: GPU-hours on its own nodes, lent and borrowed; reclaims. */
static void vc_summary(dc_scheduler *s, dc_summary *sum, double gpn, double now)
{
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        char key[96];
        double lent = dc_vcluster_lent_node_s(s->vc, i, now) * gpn / 3600.0,
               borrowed = dc_vcluster_borrowed_node_s(s->vc, i, now) * gpn / 3600.0;
        snprintf(key, sizeof key, "pool.%s.own_gpu_h", p->name);
        dc_summary_set(sum, key, p->held_ns * gpn / 3600.0 - lent, "GPU-h",
                       "GPU-hours of the pool's nodes held by its own jobs and services");
        snprintf(key, sizeof key, "pool.%s.lent_gpu_h", p->name);
        dc_summary_set(sum, key, lent, "GPU-h", "GPU-hours of the pool's nodes held by other pools' jobs");
        snprintf(key, sizeof key, "pool.%s.borrowed_gpu_h", p->name);
        dc_summary_set(sum, key, borrowed, "GPU-h", "GPU-hours the pool's jobs held on other pools' nodes");
        snprintf(key, sizeof key, "pool.%s.borrow_starts", p->name);
        dc_summary_set(sum, key, (double)dc_vcluster_borrow_starts(s->vc, i), "",
                       "job starts on borrowed nodes (restarts count again)");
        snprintf(key, sizeof key, "pool.%s.lend_reclaims", p->name);
        dc_summary_set(sum, key, (double)dc_vcluster_reclaims(s->vc, i), "",
                       "borrowing jobs this pool evicted to take its nodes back");
        snprintf(key, sizeof key, "pool.%s.reclaimed", p->name);
        dc_summary_set(sum, key, (double)dc_vcluster_reclaimed(s->vc, i), "",
                       "jobs of this pool evicted from borrowed nodes (counted in its preemptions too)");
    }
}

uint32_t dc_sched_pool_lent(const dc_scheduler *s, int pi)
{
    return s->vc ? dc_vcluster_lent_now(s->vc, pi) : 0;
}

bool dc_sched_lending_consistent(const dc_scheduler *s)
{
    uint64_t lent = 0, borrowed = 0;
    for (int i = 0; i < s->n_pools; i++) {
        if (dc_sched_pool_lent(s, i) != dc_sched_pool_lent_recount(s, i))
            return false;
        lent += dc_sched_pool_lent(s, i);
        borrowed += s->vc ? dc_vcluster_borrowed_now(s->vc, i) : 0;
    }
    if (lent != borrowed)
        return false;
    /* every pool's freeing count is the nodes, in it, of its leaving jobs */
    for (int i = 0; i < s->n_pools; i++) {
        uint64_t f = 0;
        for (size_t h = 0; h < s->n_e; h++) {
            const entry *e = &s->e[h];
            if (e->state != E_RUNNING || !e->preempting)
                continue;
            size_t nl = s->vc ? dc_vcluster_lenders(s->vc, (int)h, s->vc_ids, NULL, s->vc_leave) : 0;
            uint32_t away = 0;
            for (size_t k = 0; k < nl; k++) {
                away += s->vc_leave[k];
                if (s->vc_ids[k] == i)
                    f += s->vc_leave[k];
            }
            if (e->req.pool == i)
                f += e->req.nodes - away;
        }
        if (f != s->pools[i].freeing)
            return false;
    }
    return true;
}

uint32_t dc_sched_pool_lent_recount(const dc_scheduler *s, int pi)
{
    uint32_t k = 0;
    for (uint32_t i = s->pools[pi].first; i < s->pools[pi].first + s->pools[pi].n; i++) {
        int32_t job = dc_cluster_node_job(s->cluster, i);
        int h = job >= 0 && (size_t)job < s->cap_handle_of ? s->handle_of[job] : -1;
        k += h >= 0 && s->e[h].req.pool != pi;
    }
    return k;
}

static int sched_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_scheduler *s = state;
    s->sim = sim;
    s->cluster = dc_cluster_of(sim);
    s->log = dc_sim_eventlog(sim);
    uint32_t total = dc_cluster_node_count(s->cluster);
    config_setting_t *g = dc_scenario_lookup(sc, "scheduler");
    int backfill = 1, preempt = 1;
    const char *placement = "fifo";
    s->estimate_factor = 1.0;
    s->configured = g != NULL;
    if (g) {
        placement = "rack";
        dc_cfg_lookup_bool(g, "backfill", &backfill);
        dc_cfg_lookup_bool(g, "preemption", &preempt);
        dc_cfg_lookup_string(g, "placement", &placement);
        dc_cfg_lookup_float(g, "estimate_factor", &s->estimate_factor);
    }
    s->backfill = backfill;
    s->preemption = preempt;
    s->fifo = strcmp(placement, "fifo") == 0;
    static const char *const named[] = {"pack", "spread", "random", "topology_aware"};
    s->policy = -1;
    for (int k = 0; k < 4; k++)
        if (strcmp(placement, named[k]) == 0)
            s->policy = k;
    config_setting_t *list = g ? dc_cfg_member(g, "pools") : NULL;
    int np = list ? config_setting_length(list) : 0;
    if (list && np == 0)
        return dc_scenario_error_at(sc, list, err, "give at least one pool, or leave pools out");
    if (np > 1 && s->fifo)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "placement"), err,
                                    "fifo placement needs a single pool (there are %d)", np);
    /* mixed hardware: without pools, a pool per node type (cluster.h) */
    int nt = (int)dc_cluster_type_count(s->cluster);
    if (nt > 1 && s->fifo && !np) {
        if (g)
            return dc_scenario_error_at(sc, dc_cfg_member(g, "placement"), err,
                                        "fifo placement takes idle nodes of any type: with %d node types use rack",
                                        nt);
        s->fifo = false;
    }
    s->n_pools = np ? np : nt;
    s->pools = calloc((size_t)s->n_pools, sizeof *s->pools);
    s->pool_of = calloc(total, sizeof *s->pool_of);
    s->down_seen = calloc(total, 1);
    s->reclaim_pending = calloc(total, 1);
    if (s->policy >= 0) {
        s->pick = malloc((size_t)total * sizeof *s->pick);
        s->place_rng = s->policy == DC_PLACER_RANDOM ? dc_sim_rng(sim, "scheduler.placement") : NULL;
        if (!s->pick || (s->policy == DC_PLACER_RANDOM && !s->place_rng))
            return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler");
    }
    if (!s->pools || !s->pool_of || !s->down_seen || !s->reclaim_pending)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler");
    if (!np && nt > 1) {
        for (int i = 0; i < nt; i++) {
            snprintf(s->pools[i].name, sizeof s->pools[i].name, "%s", dc_cluster_type_at(s->cluster, (size_t)i)->name);
            s->pools[i].n = dc_cluster_type_at(s->cluster, (size_t)i)->nodes;
        }
    } else if (!np) {
        snprintf(s->pools[0].name, sizeof s->pools[0].name, "default");
        s->pools[0].n = total;
    } else {
        double assigned = 0;
        int rest = -1;
        for (int i = 0; i < np; i++) {
            config_setting_t *pg = config_setting_get_elem(list, (unsigned)i);
            pool *p = &s->pools[i];
            const char *name = "";
            dc_cfg_lookup_string(pg, "name", &name);
            if (strlen(name) >= sizeof p->name || !*name)
                return dc_scenario_error_at(sc, dc_cfg_member(pg, "name"), err,
                                            "a pool name has 1 to %zu characters", sizeof p->name - 1);
            for (int k = 0; k < i; k++)
                if (strcmp(s->pools[k].name, name) == 0)
                    return dc_scenario_error_at(sc, dc_cfg_member(pg, "name"), err,
                                                "pool \"%s\" named twice", name);
            snprintf(p->name, sizeof p->name, "%s", name);
            int nodes = 0;
            double share = 0;
            bool has_n = dc_cfg_lookup_int(pg, "nodes", &nodes);
            bool has_s = dc_cfg_lookup_float(pg, "share", &share);
            if (has_n && has_s)
                return dc_scenario_error_at(sc, dc_cfg_member(pg, "share"), err,
                                            "give nodes or share, not both");
            if (!has_n && !has_s) {
                if (rest >= 0)
                    return dc_scenario_error_at(sc, pg, err,
                                                "only one pool may leave out nodes and share (it takes the rest)");
                rest = i;
                continue;
            }
            p->n = has_n ? (uint32_t)nodes : (uint32_t)floor(share * total);
            if (p->n == 0)
                return dc_scenario_error_at(sc, dc_cfg_member(pg, "share"), err,
                                            "a share of %g of %u nodes is no node", share, total);
            assigned += p->n;
            if (assigned > total)
                return dc_scenario_error_at(sc, dc_cfg_member(pg, has_n ? "nodes" : "share"), err,
                                            "the pools hold %.0f nodes but the cluster has %u (nodes + spare_nodes)",
                                            assigned, total);
        }
        uint32_t left = total - (uint32_t)assigned;
        if (rest >= 0) {
            if (left == 0)
                return dc_scenario_error_at(sc, config_setting_get_elem(list, (unsigned)rest), err,
                                            "pool \"%s\" takes the rest, but no node is left", s->pools[rest].name);
            s->pools[rest].n = left;
        } else {
            s->pools[np - 1].n += left;
        }
        for (int i = 0; i < np; i++) {
            config_setting_t *pg = config_setting_get_elem(list, (unsigned)i);
            pool *p = &s->pools[i];
            int spot = 0;
            double per_day = 0.05, notice = 120, back_h = 6;
            dc_cfg_lookup_bool(pg, "spot", &spot);
            dc_cfg_lookup_float(pg, "reclaim_per_node_day", &per_day);
            dc_cfg_lookup_float(pg, "notice_s", &notice);
            dc_cfg_lookup_float(pg, "reclaim_h", &back_h);
            p->spot = spot;
            p->reclaim_rate_per_s = spot ? per_day / 86400.0 : 0.0;
            p->notice_s = notice;
            p->reclaim_mean_s = back_h * 3600.0;
        }
        int rc = vc_init(s, sc, list, err);
        if (rc != DC_OK)
            return rc;
    }
    uint32_t first = 0;
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        p->first = first;
        for (uint32_t k = first; k < first + p->n; k++)
            s->pool_of[k] = (uint16_t)i;
        first += p->n;
        int cpu_t = dc_sched_pool_cpu_type(s, i);
        if (np && cpu_t >= 0 && dc_sched_pool_type(s, i) < 0) /* neither its GPU jobs nor its CPU jobs could run */
            return dc_scenario_error_at(sc, config_setting_get_elem(list, (unsigned)i), err,
                                        "pool \"%s\" holds CPU-only nodes (type \"%s\") and nodes of other types: "
                                        "give a CPU-only type a pool of its own (nodes %u..%u)",
                                        p->name, dc_cluster_type_at(s->cluster, (size_t)cpu_t)->name,
                                        dc_cluster_type_at(s->cluster, (size_t)cpu_t)->first,
                                        dc_cluster_type_at(s->cluster, (size_t)cpu_t)->first
                                            + dc_cluster_type_at(s->cluster, (size_t)cpu_t)->nodes - 1);
        /* nodes not delivered yet count as down: "nodes_up" brings them */
        for (uint32_t k = p->first; k < p->first + p->n; k++)
            if (!dc_cluster_node_present(s->cluster, k)) {
                s->down_seen[k] = 1;
                p->down++;
            }
        p->idle = p->n - p->down;
        dc_stree_init(&p->queue, queue_before, s);
        dc_stree_init(&p->by_end, end_before, s);
        dc_stree_init(&p->small_q, queue_before, s);
        if (!s->fifo) {
            uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
            p->r0 = p->first / npr;
            uint32_t r1 = (p->first + p->n - 1) / npr;
            p->racks = dc_rackset_create(r1 - p->r0 + 1, npr);
            if (!p->racks)
                return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler");
            for (uint32_t k = p->first; k < p->first + p->n; k++)
                if (dc_cluster_node_present(s->cluster, k))
                    dc_rackset_add(p->racks, k / npr - p->r0, +1);
        }
        char name[96], doc[160];
        snprintf(name, sizeof name, "pool.%s.queue", p->name);
        snprintf(doc, sizeof doc, "jobs queued in pool %s", p->name);
        p->s_queue = dc_sim_series(sim, name, "jobs", doc);
        snprintf(name, sizeof name, "pool.%s.busy", p->name);
        snprintf(doc, sizeof doc, "nodes of pool %s held by jobs and services", p->name);
        p->s_busy = dc_sim_series(sim, name, "nodes", doc);
        snprintf(name, sizeof name, "scheduler.spot.%s", p->name);
        p->rng = p->spot ? dc_sim_rng(sim, name) : NULL;
        if (!p->s_queue || !p->s_busy || (p->spot && !p->rng))
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    s->reason_spot = -1;
    for (int i = 0; i < s->n_pools; i++)
        if (s->pools[i].spot)
            s->reason_spot = dc_cluster_down_reason(s->cluster, "spot_reclaimed");
    config_setting_t *quotas = g ? dc_cfg_member(g, "quotas") : NULL;
    for (int i = 0; quotas && i < config_setting_length(quotas); i++) {
        config_setting_t *qg = config_setting_get_elem(quotas, (unsigned)i);
        const char *user = "";
        int max_nodes = 0;
        dc_cfg_lookup_string(qg, "user", &user);
        dc_cfg_lookup_int(qg, "max_nodes", &max_nodes);
        int u = dc_sched_user(s, user);
        if (u < 0)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        s->quota[u] = (long)max_nodes * dc_cluster_gpus_per_node(s->cluster); /* counted in GPUs */
    }
    int sf = dc_sim_signal(sim, "failure"), su = dc_sim_signal(sim, "nodes_up"), si = dc_sim_signal(sim, "node_idle");
    if (sf < 0 || su < 0 || si < 0 || dc_sim_subscribe(sim, sf, on_failure, s) != DC_OK
        || dc_sim_subscribe(sim, su, on_nodes_up, s) != DC_OK || dc_sim_subscribe(sim, si, on_node_idle, s) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int sched_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_scheduler *s = state;
    (void)sim;
    /* the named policies need the network's domains: known from the start */
    for (int i = 0; s->policy >= 0 && i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        p->placer = dc_placer_create((dc_placer_policy)s->policy, p->first, p->n, dc_cluster_nodes_per_rack(s->cluster),
                                     dc_cluster_nodes_per_leaf(s->cluster), dc_cluster_leaves_per_pod(s->cluster),
                                     s->place_rng);
        if (!p->placer)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler's placement");
        for (uint32_t k = p->first; k < p->first + p->n; k++)
            if (dc_cluster_node_state(s->cluster, k) == DC_NODE_IDLE && !s->reclaim_pending[k] && !s->down_seen[k])
                dc_placer_add(p->placer, k, +1);
        if (dc_placer_idle(p->placer) != p->idle)
            return dc_error_set(err, DC_EINTERNAL, "scheduler: pool %s has %u idle nodes, placement found %u", p->name,
                                p->idle, dc_placer_idle(p->placer));
    }
    for (int i = 0; i < s->n_pools; i++) {
        record_pool(s, &s->pools[i]);
        if (s->pools[i].spot)
            schedule_reclaim(s, i);
    }
    return DC_OK;
}

static void sched_finish(void *state, dc_sim *sim)
{
    dc_scheduler *s = state;
    dc_summary *sum = dc_sim_summary(sim);
    double gpn = dc_cluster_gpus_per_node(s->cluster), now = dc_sim_now(sim);
    double held = 0, idle = 0, strand = 0, cap = 0, shared_free = 0;
    bool many = s->configured || s->n_pools > 1;
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        bank_pool(s, p);
        held += p->held_ns;
        int pt = dc_sched_pool_type(s, i); /* a CPU-only pool's idle nodes hold no GPU */
        idle += pt >= 0 && dc_cluster_type_at(s->cluster, (size_t)pt)->gpus_per_node == 0 ? 0.0 : p->idle_ns;
        shared_free += p->shared_free_gs;
        strand += p->strand_ns;
        cap += (double)p->n * now;
    }
    /* With the implicit single pool and one job, the job's own figures say it all. */
    size_t n_sched = (size_t)s->seq; /* submissions */
    if (!many && n_sched <= 1)
        return;
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        char key[96];
        snprintf(key, sizeof key, "pool.%s.nodes", p->name);
        dc_summary_set(sum, key, p->n, "nodes", "nodes in the pool");
        snprintf(key, sizeof key, "pool.%s.utilisation", p->name);
        dc_summary_set(sum, key, now > 0 ? p->held_ns / ((double)p->n * now) : 0.0, "",
                       "node-time held by jobs and services / pool node-time");
        snprintf(key, sizeof key, "pool.%s.queue_mean", p->name);
        dc_summary_set(sum, key, now > 0 ? p->queue_s / now : 0.0, "jobs", "time-average of jobs queued");
        snprintf(key, sizeof key, "pool.%s.jobs_started", p->name);
        dc_summary_set(sum, key, (double)p->n_started, "", "job starts (restarts after preemption count again)");
        snprintf(key, sizeof key, "pool.%s.preemptions", p->name);
        dc_summary_set(sum, key, (double)p->n_preempted, "", "jobs evicted (by priority or spot reclaims)");
        if (p->spot) {
            snprintf(key, sizeof key, "pool.%s.reclaims", p->name);
            dc_summary_set(sum, key, (double)p->n_reclaims, "", "spot nodes reclaimed by the provider");
            snprintf(key, sizeof key, "pool.%s.exposure_node_h", p->name);
            dc_summary_set(sum, key, p->exposure_ns / 3600.0, "node-h",
                           "node-time in service (the reclaim process's exposure)");
        }
    }
    if (s->vc)
        vc_summary(s, sum, gpn, now);
    dc_summary_set(sum, "cluster.utilisation", cap > 0 ? held / cap : 0.0, "",
                   "node-time held by jobs and services / all node-time");
    dc_summary_set(sum, "cluster.idle_gpu_h", (idle * gpn + shared_free) / 3600.0, "GPU-h", "healthy GPUs held by no one");
    dc_summary_set(sum, "cluster.fragmentation", cap > 0 ? strand / cap : 0.0, "",
                   "idle node-time while jobs queued in the same pool / all node-time");
}

static void sched_destroy(void *state)
{
    dc_scheduler *s = state;
    for (int i = 0; s->pools && i < s->n_pools; i++) {
        dc_stree_free(&s->pools[i].queue);
        dc_stree_free(&s->pools[i].by_end);
        dc_stree_free(&s->pools[i].small_q);
        dc_rackset_destroy(s->pools[i].shared);
        dc_placer_destroy(s->pools[i].placer);
        dc_rackset_destroy(s->pools[i].racks);
        free(s->pools[i].running);
        free(s->pools[i].prio_all);
        free(s->pools[i].prio_pre);
    }
    free(s->pools);
    free(s->pool_of);
    free(s->down_seen);
    free(s->reclaim_pending);
    free(s->pick);
    free(s->scratch);
    free(s->e);
    free(s->free_h);
    for (int i = 0; i < s->n_users; i++)
        free(s->users[i]);
    free(s->users);
    free(s->user_slot);
    free(s->quota);
    free(s->used);
    free(s->order);
    free(s->handle_of);
    dc_vcluster_destroy(s->vc);
    free(s->vc_ids);
    free(s->vc_n);
    free(s->vc_leave);
}

const dc_model_type dc_model_scheduler = {
    .name = "scheduler",
    .state_size = sizeof(dc_scheduler),
    .params = dc_scheduler_params,
    .init = sched_init,
    .start = sched_start,
    .finish = sched_finish,
    .destroy = sched_destroy,
};
