/* The scheduler: pools, queues, quotas, priorities, EASY backfilling, preemption and spot.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "scheduler.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

const dc_param dc_scheduler_params[] = {
    {"scheduler", DC_PARAM_GROUP, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "pools, quotas, backfilling, preemption (absent: one pool of every node)"},
    {"scheduler.backfill", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL, "EASY backfilling behind the queue head"},
    {"scheduler.preemption", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL,
     "a blocked head may evict lower-priority or preemptible jobs of its pool"},
    {"scheduler.placement", DC_PARAM_STRING, 0, "", 0, "rack", 0, 0, "rack|fifo",
     "rack: fill the racks with most idle nodes first; fifo: longest-idle nodes (one pool only)"},
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
    dc_event_handle limit_ev;
} entry;

typedef struct pool {
    char name[32];
    uint32_t first, n;            /* node range */
    bool spot;
    double reclaim_rate_per_s, notice_s, reclaim_mean_s;
    uint32_t idle, held, withdrawn, down;
    uint32_t freeing;             /* nodes of jobs being preempted */
    int *queue;                   /* entries, in queue order */
    size_t nq, capq;
    int *running;
    size_t nr, capr;
    /* integrals (node-seconds) */
    double last_s, held_ns, idle_ns, strand_ns, queue_s, service_ns, exposure_ns;
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
    double estimate_factor;
    pool *pools;
    int n_pools;
    uint16_t *pool_of;            /* per node */
    uint8_t *down_seen, *reclaim_pending;
    entry *e;
    size_t n_e, cap_e;
    uint64_t seq;
    char (*users)[32];
    long *quota, *used;
    int n_users;
    int in_pass, again, quiet;
    bool dirty;
    int reason_spot;
    uint32_t *scratch;            /* placement */
    int *order;
    size_t cap_order;
};

dc_scheduler *dc_scheduler_of(dc_sim *sim) { return dc_sim_model(sim, "scheduler"); }
int dc_sched_pool_count(const dc_scheduler *s) { return s->n_pools; }
const char *dc_sched_pool_name(const dc_scheduler *s, int p) { return s->pools[p].name; }
uint32_t dc_sched_pool_nodes(const dc_scheduler *s, int p) { return s->pools[p].n; }
bool dc_sched_pool_spot(const dc_scheduler *s, int p) { return s->pools[p].spot; }
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

uint32_t dc_sched_pool_idle_recount(const dc_scheduler *s, int p)
{
    uint32_t k = 0;
    for (uint32_t i = s->pools[p].first; i < s->pools[p].first + s->pools[p].n; i++)
        k += dc_cluster_node_state(s->cluster, i) == DC_NODE_IDLE;
    return k;
}

int dc_sched_user(dc_scheduler *s, const char *name)
{
    for (int i = 0; i < s->n_users; i++)
        if (strcmp(s->users[i], name) == 0)
            return i;
    char (*u)[32] = realloc(s->users, (size_t)(s->n_users + 1) * sizeof *u);
    if (!u)
        return -1;
    s->users = u;
    long *q = realloc(s->quota, (size_t)(s->n_users + 1) * sizeof *q);
    if (!q)
        return -1;
    s->quota = q;
    long *used = realloc(s->used, (size_t)(s->n_users + 1) * sizeof *used);
    if (!used)
        return -1;
    s->used = used;
    snprintf(s->users[s->n_users], sizeof s->users[0], "%s", name);
    s->quota[s->n_users] = LONG_MAX;
    s->used[s->n_users] = 0;
    return s->n_users++;
}

static void bank_pool(dc_scheduler *s, pool *p)
{
    double now = dc_sim_now(s->sim), dt = now - p->last_s;
    if (dt > 0.0) {
        p->held_ns += dt * p->held;
        p->idle_ns += dt * p->idle;
        if (p->nq > 0)
            p->strand_ns += dt * p->idle;
        p->queue_s += dt * (double)p->nq;
        uint32_t out = p->withdrawn + p->down;
        p->exposure_ns += dt * (double)(p->n > out ? p->n - out : 0);
    }
    p->last_s = now;
}

static void record_pool(dc_scheduler *s, pool *p)
{
    double now = dc_sim_now(s->sim);
    dc_series_record(p->s_queue, now, (double)p->nq);
    dc_series_record(p->s_busy, now, (double)p->held);
}

static pool *pool_of_node(dc_scheduler *s, uint32_t node) { return &s->pools[s->pool_of[node]]; }

/* ---------- placement ---------- */

/* Takes n idle nodes of pool p for job (up to n when partial); returns how
 * many were taken; writes them to out when not NULL.  The one place where
 * nodes are chosen: a topology model can refine it. */
static uint32_t place(dc_scheduler *s, pool *p, int32_t job, uint32_t n, bool partial, uint32_t *out)
{
    if (n == 0)
        return 0;
    if (!partial && p->idle < n)
        return 0;
    bank_pool(s, p);
    uint32_t got = 0;
    if (s->fifo) {
        uint32_t node;
        while (got < n && dc_cluster_take_idle(s->cluster, job, &node)) {
            if (out)
                out[got] = node;
            got++;
        }
    } else {
        uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
        uint32_t r0 = p->first / npr, r1 = (p->first + p->n - 1) / npr;
        size_t nr = r1 - r0 + 1;
        /* idle count per rack (within the pool), then racks by count desc */
        uint32_t *cnt = s->scratch;
        for (size_t r = 0; r < nr; r++)
            cnt[r] = 0;
        for (uint32_t i = p->first; i < p->first + p->n; i++)
            if (dc_cluster_node_state(s->cluster, i) == DC_NODE_IDLE && !s->reclaim_pending[i])
                cnt[i / npr - r0]++;
        /* Best fit: the smallest rack that holds what is left; else the
         * fullest rack, and again. */
        while (got < n) {
            size_t best = nr, fit = nr;
            for (size_t r = 0; r < nr; r++) {
                if (cnt[r] == 0)
                    continue;
                if (cnt[r] >= n - got && (fit == nr || cnt[r] < cnt[fit]))
                    fit = r;
                if (best == nr || cnt[r] > cnt[best])
                    best = r;
            }
            if (fit != nr)
                best = fit;
            if (best == nr)
                break;
            uint32_t lo = (uint32_t)(r0 + best) * npr, hi = lo + npr;
            if (lo < p->first)
                lo = p->first;
            if (hi > p->first + p->n)
                hi = p->first + p->n;
            for (uint32_t i = lo; i < hi && got < n; i++)
                if (!s->reclaim_pending[i] && dc_cluster_take_node(s->cluster, job, i)) {
                    if (out)
                        out[got] = i;
                    got++;
                }
            cnt[best] = 0;
        }
    }
    p->idle -= got;
    p->held += got;
    return got;
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

static void enqueue(dc_scheduler *s, int h)
{
    pool *p = &s->pools[s->e[h].req.pool];
    if (grow_ints(&p->queue, &p->capq, p->nq + 1) != DC_OK) {
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory queueing a job");
        return;
    }
    bank_pool(s, p);
    size_t k = p->nq;
    while (k > 0 && before(&s->e[h], &s->e[p->queue[k - 1]]))
        k--;
    memmove(p->queue + k + 1, p->queue + k, (p->nq - k) * sizeof *p->queue);
    p->queue[k] = h;
    p->nq++;
    s->e[h].state = E_QUEUED;
    record_pool(s, p);
}

static void unqueue(dc_scheduler *s, pool *p, size_t k)
{
    bank_pool(s, p);
    memmove(p->queue + k, p->queue + k + 1, (p->nq - k - 1) * sizeof *p->queue);
    p->nq--;
    record_pool(s, p);
}

static void remove_running(pool *p, int h)
{
    for (size_t k = 0; k < p->nr; k++)
        if (p->running[k] == h) {
            p->running[k] = p->running[--p->nr];
            return;
        }
}

static void on_limit(dc_sim *sim, void *ctx, uint64_t h);
static void pass_all(dc_scheduler *s);

static void start_entry(dc_scheduler *s, pool *p, size_t k)
{
    int h = p->queue[k];
    entry *e = &s->e[h];
    uint32_t got = place(s, p, e->req.job, e->req.nodes, false, NULL);
    if (got != e->req.nodes) {
        dc_sim_fail(s->sim, DC_EINTERNAL, "scheduler: placement found %u of %u nodes", got, e->req.nodes);
        return;
    }
    unqueue(s, p, k);
    if (grow_ints(&p->running, &p->capr, p->nr + 1) != DC_OK) {
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory starting a job");
        return;
    }
    p->running[p->nr++] = h;
    double now = dc_sim_now(s->sim);
    e = &s->e[h];
    e->state = E_RUNNING;
    e->waiting = false;
    e->start_s = now;
    e->est_end_s = now + e->req.estimate_s;
    if (e->req.user >= 0)
        s->used[e->req.user] += e->req.nodes;
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
    return e->req.user < 0 || s->used[e->req.user] + (long)e->req.nodes <= s->quota[e->req.user];
}

static int cmp_end(const void *a, const void *b, const dc_scheduler *s)
{
    double x = s->e[*(const int *)a].est_end_s, y = s->e[*(const int *)b].est_end_s;
    return x < y ? -1 : x > y;
}

/* qsort has no context: sort the (small) running list by insertion instead. */
static void sort_by_end(const dc_scheduler *s, int *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        int v = a[i];
        size_t j = i;
        while (j > 0 && cmp_end(&a[j - 1], &v, s) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

/* The head's reservation (EASY): shadow time and extra nodes. */
static void reserve(dc_scheduler *s, pool *p, const entry *head, uint32_t avail, double *shadow, long *extra)
{
    double now = dc_sim_now(s->sim);
    if (grow_ints(&s->order, &s->cap_order, p->nr) != DC_OK) {
        dc_sim_fail(s->sim, DC_ENOMEM, "out of memory");
        *shadow = INFINITY;
        *extra = 0;
        return;
    }
    memcpy(s->order, p->running, p->nr * sizeof *s->order);
    sort_by_end(s, s->order, p->nr);
    long cum = avail;
    *shadow = INFINITY;
    *extra = 0;
    for (size_t k = 0; k < p->nr; k++) {
        const entry *r = &s->e[s->order[k]];
        cum += r->req.nodes;
        if (cum >= (long)head->req.nodes) {
            *shadow = r->est_end_s > now ? r->est_end_s : now;
            *extra = cum - (long)head->req.nodes;
            return;
        }
    }
}

static bool can_evict(const entry *head, const entry *v)
{
    if (v->preempting || v->state != E_RUNNING)
        return false;
    if (v->req.priority < head->req.priority)
        return true;
    return v->req.preemptible && !head->req.preemptible && v->req.priority <= head->req.priority;
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
    p->freeing += e->req.nodes;
    if (why != DC_SCHED_TIMEOUT)
        p->n_preempted++;
    static const char *const names[] = {"preempt", "spot_notice", "time_limit"};
    dc_eventlog_add(s->log, dc_sim_now(s->sim), names[why], p->name, (int32_t)e->req.nodes, e->req.job, notice_s);
    s->again = 1;
    e->req.client->preempt(e->req.ctx, notice_s, why);
}

/* Evicts jobs ranking below entry head_h until nodes more nodes than the
 * pool's idle and freeing ones are on their way (if they can be). */
static void evict_for(dc_scheduler *s, pool *p, int head_h, uint32_t nodes, uint32_t avail)
{
    const entry *head = &s->e[head_h];
    long need = (long)nodes - (long)avail - (long)p->freeing;
    if (need <= 0)
        return;
    if (grow_ints(&s->order, &s->cap_order, p->nr) != DC_OK)
        return;
    size_t n = 0;
    long total = 0;
    for (size_t k = 0; k < p->nr; k++)
        if (p->running[k] != head_h && can_evict(head, &s->e[p->running[k]])) {
            s->order[n++] = p->running[k];
            total += s->e[p->running[k]].req.nodes;
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
        need -= s->e[s->order[i]].req.nodes;
    }
    for (size_t i = 0; i < nv; i++)
        preempt_entry(s, victims[i], 0.0, DC_SCHED_PREEMPT);
}

static void wake_waiters(dc_scheduler *s, pool *p)
{
    for (size_t k = 0; k < p->nr && p->idle > 0; k++) {
        entry *e = &s->e[p->running[k]];
        if (e->waiting && !e->preempting)
            e->req.client->wake(e->req.ctx);
    }
}

static void pass_pool(dc_scheduler *s, pool *p)
{
    wake_waiters(s, p);
    bool have_res = false;
    double shadow = INFINITY, now = dc_sim_now(s->sim);
    long extra = 0;
    size_t k = 0;
    while (k < p->nq) {
        if (s->again)
            return;
        entry *e = &s->e[p->queue[k]];
        if (!quota_ok(s, e)) {
            k++;
            continue;
        }
        if (!have_res) {
            if (e->req.nodes <= p->idle) {
                start_entry(s, p, k);
                continue;
            }
            reserve(s, p, e, p->idle, &shadow, &extra);
            have_res = true;
            dc_eventlog_add(s->log, now, "reserve", p->name, (int32_t)p->idle, e->req.job, shadow);
            if (s->preemption)
                evict_for(s, p, p->queue[k], e->req.nodes, p->idle);
            if (!s->backfill || s->again)
                return;
            k++;
            continue;
        }
        if (e->req.nodes <= p->idle) {
            if (now + e->req.estimate_s <= shadow) {
                start_entry(s, p, k);
                continue;
            }
            if ((long)e->req.nodes <= extra) {
                extra -= e->req.nodes;
                start_entry(s, p, k);
                continue;
            }
        }
        k++;
    }
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
    if (s->n_e == s->cap_e) {
        size_t nc = s->cap_e ? 2 * s->cap_e : 64;
        entry *g = realloc(s->e, nc * sizeof *g);
        if (!g) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory submitting a job");
            return -1;
        }
        s->e = g;
        s->cap_e = nc;
    }
    int h = (int)s->n_e++;
    s->e[h] = (entry){.req = *req, .submit_s = dc_sim_now(s->sim), .seq = s->seq++};
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
    uint32_t got = place(s, p, e->req.job, missing, true, NULL);
    e->waiting = got < missing;
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
    p->idle++;
    dc_cluster_release(s->cluster, node);
}

void dc_sched_done(dc_scheduler *s, int h, bool requeue)
{
    entry *e = &s->e[h];
    pool *p = &s->pools[e->req.pool];
    if (e->state != E_RUNNING)
        return;
    s->quiet++;
    uint32_t released = 0;
    for (uint32_t i = p->first; i < p->first + p->n; i++)
        if (dc_cluster_node_job(s->cluster, i) == e->req.job && dc_cluster_node_state(s->cluster, i) == DC_NODE_BUSY) {
            give_back(s, i);
            released++;
        }
    s->quiet--;
    e = &s->e[h];
    dc_sim_cancel(s->sim, &e->limit_ev);
    if (e->preempting)
        p->freeing -= e->req.nodes;
    e->preempting = e->waiting = false;
    if (e->req.user >= 0)
        s->used[e->req.user] -= e->req.nodes;
    remove_running(p, h);
    dc_eventlog_add(s->log, dc_sim_now(s->sim), "job_release", p->name, (int32_t)released, e->req.job,
                    (double)e->req.nodes);
    if (requeue)
        enqueue(s, h);
    else
        e->state = E_DONE;
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
    for (size_t k = 0; k < p->nq; k++)
        if (s->e[p->queue[k]].req.priority >= priority && quota_ok(s, &s->e[p->queue[k]]))
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

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    dc_scheduler *s = ctx;
    const dc_failure_event *ev = payload;
    (void)sim;
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t node = ev->nodes[i];
        pool *p = pool_of_node(s, node);
        bank_pool(s, p);
        if (dc_cluster_node_job(s->cluster, node) >= 0)
            p->held--;
        else
            p->idle--;
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
        p->idle++;
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
    p->idle++;
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
        p->idle--;
        p->withdrawn++;
        dc_sim_after(sim, gsl_ran_exponential(p->rng, p->reclaim_mean_s), on_restore, s, node);
        return;
    }
    s->reclaim_pending[node] = 1;
    for (size_t k = 0; k < p->nr; k++)
        if (s->e[p->running[k]].req.job == job) {
            int h = p->running[k];
            if (s->e[h].preempting) /* already leaving: the node goes when it does */
                return;
            preempt_entry(s, h, p->notice_s, DC_SCHED_SPOT);
            return;
        }
}

/* ---------- model ---------- */

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
        config_setting_lookup_bool(g, "backfill", &backfill);
        config_setting_lookup_bool(g, "preemption", &preempt);
        config_setting_lookup_string(g, "placement", &placement);
        config_setting_lookup_float(g, "estimate_factor", &s->estimate_factor);
    }
    s->backfill = backfill;
    s->preemption = preempt;
    s->fifo = strcmp(placement, "fifo") == 0;
    config_setting_t *list = g ? config_setting_get_member(g, "pools") : NULL;
    int np = list ? config_setting_length(list) : 0;
    if (list && np == 0)
        return dc_scenario_error_at(sc, list, err, "give at least one pool, or leave pools out");
    if (np > 1 && s->fifo)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "placement"), err,
                                    "fifo placement needs a single pool (there are %d)", np);
    s->n_pools = np ? np : 1;
    s->pools = calloc((size_t)s->n_pools, sizeof *s->pools);
    s->pool_of = calloc(total, sizeof *s->pool_of);
    s->down_seen = calloc(total, 1);
    s->reclaim_pending = calloc(total, 1);
    uint32_t npr = dc_cluster_nodes_per_rack(s->cluster);
    s->scratch = calloc(total / npr + 2, sizeof *s->scratch);
    if (!s->pools || !s->pool_of || !s->down_seen || !s->reclaim_pending || !s->scratch)
        return dc_error_set(err, DC_ENOMEM, "out of memory for the scheduler");
    if (!np) {
        snprintf(s->pools[0].name, sizeof s->pools[0].name, "default");
        s->pools[0].n = total;
    } else {
        double assigned = 0;
        int rest = -1;
        for (int i = 0; i < np; i++) {
            config_setting_t *pg = config_setting_get_elem(list, (unsigned)i);
            pool *p = &s->pools[i];
            const char *name = "";
            config_setting_lookup_string(pg, "name", &name);
            if (strlen(name) >= sizeof p->name || !*name)
                return dc_scenario_error_at(sc, config_setting_get_member(pg, "name"), err,
                                            "a pool name has 1 to %zu characters", sizeof p->name - 1);
            for (int k = 0; k < i; k++)
                if (strcmp(s->pools[k].name, name) == 0)
                    return dc_scenario_error_at(sc, config_setting_get_member(pg, "name"), err,
                                                "pool \"%s\" named twice", name);
            snprintf(p->name, sizeof p->name, "%s", name);
            int nodes = 0;
            double share = 0;
            bool has_n = config_setting_lookup_int(pg, "nodes", &nodes);
            bool has_s = config_setting_lookup_float(pg, "share", &share);
            if (has_n && has_s)
                return dc_scenario_error_at(sc, config_setting_get_member(pg, "share"), err,
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
                return dc_scenario_error_at(sc, config_setting_get_member(pg, "share"), err,
                                            "a share of %g of %u nodes is no node", share, total);
            assigned += p->n;
            if (assigned > total)
                return dc_scenario_error_at(sc, config_setting_get_member(pg, has_n ? "nodes" : "share"), err,
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
            config_setting_lookup_bool(pg, "spot", &spot);
            config_setting_lookup_float(pg, "reclaim_per_node_day", &per_day);
            config_setting_lookup_float(pg, "notice_s", &notice);
            config_setting_lookup_float(pg, "reclaim_h", &back_h);
            p->spot = spot;
            p->reclaim_rate_per_s = spot ? per_day / 86400.0 : 0.0;
            p->notice_s = notice;
            p->reclaim_mean_s = back_h * 3600.0;
        }
    }
    uint32_t first = 0;
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        p->first = first;
        for (uint32_t k = first; k < first + p->n; k++)
            s->pool_of[k] = (uint16_t)i;
        first += p->n;
        p->idle = p->n;
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
    config_setting_t *quotas = g ? config_setting_get_member(g, "quotas") : NULL;
    for (int i = 0; quotas && i < config_setting_length(quotas); i++) {
        config_setting_t *qg = config_setting_get_elem(quotas, (unsigned)i);
        const char *user = "";
        int max_nodes = 0;
        config_setting_lookup_string(qg, "user", &user);
        config_setting_lookup_int(qg, "max_nodes", &max_nodes);
        int u = dc_sched_user(s, user);
        if (u < 0)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        s->quota[u] = max_nodes;
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
    (void)err;
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
    double held = 0, idle = 0, strand = 0, cap = 0;
    bool many = s->configured || s->n_pools > 1;
    for (int i = 0; i < s->n_pools; i++) {
        pool *p = &s->pools[i];
        bank_pool(s, p);
        held += p->held_ns;
        idle += p->idle_ns;
        strand += p->strand_ns;
        cap += (double)p->n * now;
    }
    /* With the implicit single pool and one job, the job's own figures say it all. */
    size_t n_sched = s->n_e;
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
    dc_summary_set(sum, "cluster.utilisation", cap > 0 ? held / cap : 0.0, "",
                   "node-time held by jobs and services / all node-time");
    dc_summary_set(sum, "cluster.idle_gpu_h", idle * gpn / 3600.0, "GPU-h", "healthy GPUs held by no one");
    dc_summary_set(sum, "cluster.fragmentation", cap > 0 ? strand / cap : 0.0, "",
                   "idle node-time while jobs queued in the same pool / all node-time");
}

static void sched_destroy(void *state)
{
    dc_scheduler *s = state;
    for (int i = 0; s->pools && i < s->n_pools; i++) {
        free(s->pools[i].queue);
        free(s->pools[i].running);
    }
    free(s->pools);
    free(s->pool_of);
    free(s->down_seen);
    free(s->reclaim_pending);
    free(s->scratch);
    free(s->e);
    free(s->users);
    free(s->quota);
    free(s->used);
    free(s->order);
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
