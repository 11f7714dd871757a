/* The storage model: tiers, transfers sharing them max-min fairly, the training dataset's stream.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "storage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cfgget.h"
#include "cluster.h"
#include "dist.h"
#include "law_params.h"

#define GB 1e9
#define TB 1e12
#define SECONDS_PER_MONTH (30.44 * 86400.0)
#define MAX_TIERS 16

const dc_param dc_storage_params[] = {
    {"storage", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "storage tiers and the dataset stream; absent: no storage model"},
    {"storage.node_link_gbps", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "Gbit/s", 400, NULL, 0, 1e7, NULL,
     "bandwidth of one node's link to the shared tiers (pfs, object), each direction"},
    {"storage.tiers", DC_PARAM_LIST, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "the storage tiers"},
    {"storage.tiers.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "tier name (summary keys storage.NAME.*; [a-z0-9_], unique)"},
    {"storage.tiers.[].kind", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, "hbm|ddr|nvme|pfs|object",
     "hbm, ddr, nvme: on every node (figures per node); pfs, object: shared (figures in all)"},
    {"storage.tiers.[].capacity_tb", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "TB", 0, NULL, 0,
     1e9, NULL, "capacity (per node for node tiers)"},
    {"storage.tiers.[].read_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "GB/s", 0, NULL,
     0, 1e9, NULL, "read bandwidth (per node for node tiers)"},
    {"storage.tiers.[].write_gb_per_s", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "GB/s", 0, NULL,
     0, 1e9, NULL, "write bandwidth (per node for node tiers)"},
    {"storage.tiers.[].latency_us", DC_PARAM_FLOAT, 0, "us", 0, NULL, 0, 1e9, NULL,
     "latency of one access (added once to a transfer)"},
    {"storage.tiers.[].cost_usd_per_tb_month", DC_PARAM_FLOAT, 0, "USD/TB/month", 0, NULL, 0, 1e9, NULL,
     "cost of a TB of capacity for a month"},
    {"storage.tiers.[].failure", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "time-to-failure law of one unit (a node's device, or the shared tier); absent: never fails"},
    {"storage.tiers.[].failure.mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, 0,
     1e12, NULL, "mean time between failures of one unit"},
    {"storage.tiers.[].failure.afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL, 0,
     1e6, NULL, "annualised failure rate of one unit (instead of mtbf_h)"},
    DC_LAW_PARAMS("storage.tiers.[].failure", "exponential", "time to failure of one unit"),
    {"storage.tiers.[].repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "repair-time law of a failed unit (required with failure)"},
    DC_LAW_PARAMS("storage.tiers.[].repair", "exponential", "repair time"),
    {"storage.dataset", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "the training data streamed to the job; absent: no data stall"},
    {"storage.dataset.tier", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "name of the tier the dataset is read from"},
    {"storage.dataset.cache_tier", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "name of a tier caching it (absent: no cache)"},
    {"storage.dataset.size_tb", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "TB", 0, NULL, 0, 1e9,
     NULL, "size of the dataset"},
    {"storage.dataset.bytes_per_token", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "B", 4, NULL, 0, 1e12, NULL,
     "bytes read per training token (token ids: 2-4; images or video: far more)"},
    {"storage.dataset.cache_hit", DC_PARAM_FLOAT, DC_PARAM_AUTO, "", 0, "auto", 0, 1, NULL,
     "fraction of reads served by the cache, or \"auto\": min(1, cache capacity / dataset size)"},
    {"storage.dataset.prefetch", DC_PARAM_BOOL, 0, "", 1, NULL, 0, 0, NULL,
     "loads overlap the step (stall = read time beyond the step), else they add to it"},
    {0},
};

typedef struct tier {
    char name[32];
    dc_tier_kind kind;
    double capacity_B, bw_Bps[2], latency_s, cost_per_tb_month;
    bool fails, superposed; /* superposed: exponential node devices, one process */
    dc_dist life, repair;
    gsl_rng *rng;
    bool down;             /* shared tier */
    uint8_t *node_down;    /* node tiers, per cluster node */
    uint64_t n_failures;
    double down_units, down_unit_s, down_since_s; /* banked unit-seconds down */
    int res[2];
    double ckpt_write_s;
} tier;

typedef struct xfer {
    dc_flow_id id;
    int32_t job;           /* -1: no job's links */
    dc_flow_done_fn done;
    void *ctx;
} xfer;

/* A job's own I/O resources while it uses the storage: its storage links
 * and its nodes' devices of each node tier, per direction. */
typedef struct jio {
    int32_t job;           /* -1: free */
    uint32_t nodes;
    int refs;              /* transfers in progress, + 1 while its streams stand */
    int link_res[2];
    int node_res[MAX_TIERS][2]; /* node tiers only (-1 otherwise) */
    uint32_t down[MAX_TIERS];   /* devices down among its nodes */
} jio;

/* A job's dataset streams (misses from the source, hits from the cache,
 * the cache fill). */
typedef struct dset {
    int32_t job;
    uint32_t nodes;
    double hit, share[3];
    double demand[3];      /* bytes/s each stream asks for */
    dc_flow_id stream[3];
    double seen[3];        /* the rates the job last read */
    bool standing;
    int32_t at;            /* standing: its place in st->standing */
    uint32_t mark;         /* on_rerate: a candidate this time */
} dset;

struct dc_storage {
    dc_sim *sim;
    dc_cluster *cluster;
    tier tiers[MAX_TIERS];
    size_t n_tiers;
    uint32_t nodes, job_nodes;  /* job_nodes: the first job's, for the figures at the start */
    double link_Bps;
    dc_flows *flows;
    int sig_changed, sig_loss;
    dc_eventlog *log;
    double ckpt_bytes;
    /* dataset */
    bool has_dataset, prefetch;
    int src, cache;
    double size_B, bytes_per_token, hit, hit_given; /* hit: the first job's; hit_given NAN: auto */
    xfer *xfers;          /* transfers in progress */
    size_t n_xfers, xfer_cap;
    /* per job (cluster job id -> index, -1: none) */
    uint32_t n_ids;
    int32_t *jio_of, *dset_of;
    jio *jios;
    size_t n_jios, cap_jios;
    int32_t *free_jios;
    size_t n_free;
    dset *dsets;
    size_t n_dsets, cap_dsets;
    int32_t *scratch;     /* jobs whose stream rates changed */
    int32_t *standing;    /* the dsets whose streams stand */
    size_t n_standing;
    /* on_rerate looks only at the datasets whose streams the solve
     * re-rated (dc_flows_changed) and at those told last time whose job
     * has not read its rates since (stale), not at every standing one */
    int32_t *slot_dset;   /* a flow's slot -> the dset whose stream it is, -1 */
    size_t cap_slot_dset;
    int32_t *stale;
    size_t n_stale;
    uint64_t *cand;       /* (standing place << 32) | dset */
    uint32_t mark;
};

dc_storage *dc_storage_of(dc_sim *sim)
{
    dc_storage *st = dc_sim_model(sim, "storage");
    return st && st->flows ? st : NULL;
}

bool dc_storage_kind_per_node(dc_tier_kind kind)
{
    return kind == DC_TIER_HBM || kind == DC_TIER_DDR || kind == DC_TIER_NVME;
}

bool dc_storage_kind_volatile(dc_tier_kind kind)
{
    return kind == DC_TIER_HBM || kind == DC_TIER_DDR;
}

size_t dc_storage_tier_count(const dc_storage *st) { return st->n_tiers; }
const char *dc_storage_tier_name(const dc_storage *st, int t) { return st->tiers[t].name; }
dc_tier_kind dc_storage_tier_kind(const dc_storage *st, int t) { return st->tiers[t].kind; }
double dc_storage_capacity_bytes(const dc_storage *st, int t) { return st->tiers[t].capacity_B; }
double dc_storage_bandwidth_Bps(const dc_storage *st, int t, dc_io_dir dir) { return st->tiers[t].bw_Bps[dir]; }
double dc_storage_latency_s(const dc_storage *st, int t) { return st->tiers[t].latency_s; }
bool dc_storage_has_dataset(const dc_storage *st) { return st->has_dataset; }
double dc_storage_dataset_bytes_per_token(const dc_storage *st) { return st->bytes_per_token; }
bool dc_storage_dataset_prefetch(const dc_storage *st) { return st->prefetch; }

int dc_storage_tier(const dc_storage *st, const char *name)
{
    for (size_t i = 0; i < st->n_tiers; i++)
        if (strcmp(st->tiers[i].name, name) == 0)
            return (int)i;
    return -1;
}

int dc_storage_tier_of_kind(const dc_storage *st, dc_tier_kind kind)
{
    for (size_t i = 0; i < st->n_tiers; i++)
        if (st->tiers[i].kind == kind)
            return (int)i;
    return -1;
}

static jio *jio_of(const dc_storage *st, int32_t job)
{
    return job >= 0 && (uint32_t)job < st->n_ids && st->jio_of[job] >= 0 ? &st->jios[st->jio_of[job]] : NULL;
}

static dset *dset_of(const dc_storage *st, int32_t job)
{
    return job >= 0 && (uint32_t)job < st->n_ids && st->dset_of[job] >= 0 ? &st->dsets[st->dset_of[job]] : NULL;
}

/* Devices of node tier t down among the nodes job holds. */
static uint32_t count_down(const dc_storage *st, int t, int32_t job)
{
    const tier *tr = &st->tiers[t];
    if (!tr->node_down)
        return 0;
    uint32_t n, down = 0;
    const uint32_t *list = dc_cluster_job_node_list(st->cluster, job, &n);
    for (uint32_t i = 0; list && i < n; i++)
        down += list[i] < st->nodes && tr->node_down[list[i]];
    return down;
}

double dc_storage_up_fraction(const dc_storage *st, int t, int32_t job)
{
    const tier *tr = &st->tiers[t];
    if (!dc_storage_kind_per_node(tr->kind))
        return tr->down ? 0.0 : 1.0;
    const jio *g = jio_of(st, job);
    if (!g || !g->nodes)
        return 1.0;
    return 1.0 - (double)g->down[t] / g->nodes;
}

bool dc_storage_node_up(const dc_storage *st, int t, uint32_t node)
{
    const tier *tr = &st->tiers[t];
    if (!dc_storage_kind_per_node(tr->kind))
        return !tr->down;
    return !tr->node_down || node >= st->nodes || !tr->node_down[node];
}

/* Sets the capacities of a job's own resources from its size and devices. */
static void jio_capacities(dc_storage *st, jio *g)
{
    dc_flows_hold(st->flows);
    for (int d = 0; d < 2; d++)
        dc_flows_set_capacity(st->flows, g->link_res[d], st->link_Bps * g->nodes);
    for (size_t t = 0; t < st->n_tiers; t++) {
        const tier *tr = &st->tiers[t];
        if (!dc_storage_kind_per_node(tr->kind))
            continue;
        double up = g->nodes ? 1.0 - (double)g->down[t] / g->nodes : 1.0;
        for (int d = 0; d < 2; d++)
            dc_flows_set_capacity(st->flows, g->node_res[t][d], tr->bw_Bps[d] * g->nodes * up);
    }
    dc_flows_release(st->flows);
}

/* The job's resources, made (or taken from the free ones) on first use;
 * NULL for no job, or after failing the run when out of memory. */
static jio *jio_use(dc_storage *st, int32_t job, uint32_t nodes)
{
    if (job < 0 || (uint32_t)job >= st->n_ids)
        return NULL;
    jio *g = jio_of(st, job);
    if (g) {
        g->refs++;
        return g;
    }
    int32_t k;
    if (st->n_free > 0) {
        k = st->free_jios[--st->n_free];
    } else {
        if (st->n_jios == st->cap_jios) {
            size_t ncap = st->cap_jios ? 2 * st->cap_jios : 8;
            jio *a = realloc(st->jios, ncap * sizeof *a);
            int32_t *f = a ? realloc(st->free_jios, ncap * sizeof *f) : NULL;
            if (a)
                st->jios = a;
            if (!a || !f) {
                dc_sim_fail(st->sim, DC_ENOMEM, "out of memory for a job's storage links");
                return NULL;
            }
            st->free_jios = f;
            st->cap_jios = ncap;
        }
        k = (int32_t)st->n_jios;
        jio *n = &st->jios[k];
        *n = (jio){.job = -1};
        for (int d = 0; d < 2; d++)
            n->link_res[d] = dc_flows_add_resource(st->flows, 0.0);
        for (size_t t = 0; t < MAX_TIERS; t++)
            for (int d = 0; d < 2; d++)
                n->node_res[t][d] = t < st->n_tiers && dc_storage_kind_per_node(st->tiers[t].kind)
                                        ? dc_flows_add_resource(st->flows, 0.0)
                                        : -1;
        bool ok = n->link_res[0] >= 0 && n->link_res[1] >= 0;
        for (size_t t = 0; t < st->n_tiers; t++)
            ok = ok && (!dc_storage_kind_per_node(st->tiers[t].kind) || (n->node_res[t][0] >= 0 && n->node_res[t][1] >= 0));
        if (!ok) {
            dc_sim_fail(st->sim, DC_ENOMEM, "out of memory for a job's storage links");
            return NULL;
        }
        st->n_jios++;
    }
    g = &st->jios[k];
    g->job = job;
    g->nodes = nodes;
    g->refs = 1;
    for (size_t t = 0; t < st->n_tiers; t++)
        g->down[t] = dc_storage_kind_per_node(st->tiers[t].kind) ? count_down(st, (int)t, job) : 0;
    st->jio_of[job] = k;
    jio_capacities(st, g);
    return g;
}

static void jio_unuse(dc_storage *st, int32_t job)
{
    jio *g = jio_of(st, job);
    if (!g || --g->refs > 0)
        return;
    st->free_jios[st->n_free++] = st->jio_of[job];
    st->jio_of[job] = -1;
    g->job = -1;
}

/* The resources and cap of a transfer of nodes nodes (g: the job's own
 * resources, NULL for none). */
static size_t flow_path(const dc_storage *st, int t, dc_io_dir dir, uint32_t nodes, const jio *g, int res[2],
                        double *cap)
{
    const tier *tr = &st->tiers[t];
    if (dc_storage_kind_per_node(tr->kind)) {
        double up = g && g->nodes ? 1.0 - (double)g->down[t] / g->nodes : 1.0;
        *cap = nodes * tr->bw_Bps[dir] * up;
        if (!g)
            return 0;
        res[0] = g->node_res[t][dir];
        return 1;
    }
    res[0] = tr->res[dir];
    *cap = nodes * st->link_Bps;
    if (!g)
        return 1;
    res[1] = g->link_res[dir];
    return 2;
}

double dc_storage_rate_Bps(const dc_storage *st, int t, dc_io_dir dir, int32_t job, uint32_t nodes)
{
    int res[2];
    double cap;
    size_t n = flow_path(st, t, dir, nodes, jio_of(st, job), res, &cap);
    return dc_flows_probe(st->flows, res, n, nodes > 0 ? nodes : 1, cap);
}

double dc_storage_transfer_s(const dc_storage *st, int t, dc_io_dir dir, double bytes, int32_t job, uint32_t nodes)
{
    double r = dc_storage_rate_Bps(st, t, dir, job, nodes);
    return r > 0.0 ? st->tiers[t].latency_s + bytes / r : INFINITY;
}

/* Removes a transfer from the table; its callback and context into *x. */
static bool take_xfer(dc_storage *st, dc_flow_id id, xfer *x)
{
    for (size_t i = 0; i < st->n_xfers; i++)
        if (st->xfers[i].id == id) {
            *x = st->xfers[i];
            st->xfers[i] = st->xfers[--st->n_xfers];
            return true;
        }
    return false;
}

/* A transfer ended: the others' rates changed, so the storage did. */
static void on_xfer_done(dc_sim *sim, void *ctx, dc_flow_id id)
{
    dc_storage *st = ctx;
    xfer x;
    if (!take_xfer(st, id, &x))
        return;
    jio_unuse(st, x.job);
    dc_sim_publish(sim, st->sig_changed, NULL);
    if (x.done)
        x.done(sim, x.ctx, id);
}

dc_flow_id dc_storage_transfer(dc_storage *st, int t, dc_io_dir dir, double bytes, int32_t job, uint32_t nodes,
                               dc_flow_done_fn done, void *ctx)
{
    if (st->n_xfers == st->xfer_cap) {
        size_t ncap = st->xfer_cap ? 2 * st->xfer_cap : 8;
        xfer *g = realloc(st->xfers, ncap * sizeof *g);
        if (!g) {
            dc_sim_fail(st->sim, DC_ENOMEM, "out of memory starting a storage transfer");
            return DC_FLOW_NONE;
        }
        st->xfers = g;
        st->xfer_cap = ncap;
    }
    jio *g = jio_use(st, job, nodes);
    if (job >= 0 && (uint32_t)job < st->n_ids && !g)
        return DC_FLOW_NONE;
    if (g && st->tiers[t].node_down && dc_storage_kind_per_node(st->tiers[t].kind)) {
        /* its nodes may have changed since: count again */
        uint32_t down = count_down(st, t, job);
        if (down != g->down[t]) {
            g->down[t] = down;
            jio_capacities(st, g);
        }
    }
    int res[2];
    double cap;
    size_t n = flow_path(st, t, dir, nodes, g, res, &cap);
    dc_flow_id id = dc_flows_start(st->flows, res, n, nodes > 0 ? nodes : 1, cap, bytes, on_xfer_done, st);
    if (id == DC_FLOW_NONE) {
        jio_unuse(st, job);
        return id;
    }
    st->xfers[st->n_xfers++] = (xfer){id, g ? job : -1, done, ctx};
    dc_sim_publish(st->sim, st->sig_changed, NULL);
    return id;
}

void dc_storage_cancel(dc_storage *st, dc_flow_id id)
{
    xfer x;
    if (!take_xfer(st, id, &x))
        return;
    dc_flows_stop(st->flows, id);
    jio_unuse(st, x.job);
    dc_sim_publish(st->sim, st->sig_changed, NULL);
}

double dc_storage_transfer_rate_Bps(const dc_storage *st, dc_flow_id id)
{
    return dc_flows_rate(st->flows, id);
}

/* ---------- the dataset streams, one set per job ---------- */

static void stream_target(const dc_storage *st, int k, int *t, dc_io_dir *dir)
{
    *t = k == 0 ? st->src : st->cache;
    *dir = k == 2 ? DC_IO_WRITE : DC_IO_READ;
}

static double cache_hit(const dc_storage *st, uint32_t nodes)
{
    if (st->cache < 0)
        return 0.0;
    if (!isnan(st->hit_given))
        return st->hit_given;
    const tier *c = &st->tiers[st->cache];
    double cache_B = c->capacity_B * (dc_storage_kind_per_node(c->kind) ? nodes : 1.0);
    return cache_B >= st->size_B ? 1.0 : cache_B / st->size_B;
}

int dc_storage_dataset_register(dc_storage *st, int32_t job, uint32_t nodes)
{
    if (!st->has_dataset || job < 0 || (uint32_t)job >= st->n_ids || st->dset_of[job] >= 0)
        return DC_OK;
    if (st->n_dsets == st->cap_dsets) {
        size_t ncap = st->cap_dsets ? 2 * st->cap_dsets : 8;
        dset *a = realloc(st->dsets, ncap * sizeof *a);
        int32_t *s = a ? realloc(st->scratch, ncap * sizeof *s) : NULL;
        if (s)
            st->scratch = s;
        int32_t *w = s ? realloc(st->standing, ncap * sizeof *w) : NULL;
        if (w)
            st->standing = w;
        int32_t *z = w ? realloc(st->stale, ncap * sizeof *z) : NULL;
        if (z)
            st->stale = z;
        uint64_t *q = z ? realloc(st->cand, ncap * sizeof *q) : NULL;
        if (q)
            st->cand = q;
        if (a)
            st->dsets = a;
        if (!a || !s || !w || !z || !q)
            return DC_ENOMEM;
        st->cap_dsets = ncap;
    }
    dset *d = &st->dsets[st->n_dsets];
    *d = (dset){.job = job, .nodes = nodes, .hit = cache_hit(st, nodes)};
    d->share[0] = 1.0 - d->hit;
    d->share[1] = st->cache >= 0 ? d->hit : 0.0;
    d->share[2] = st->cache >= 0 ? 1.0 - d->hit : 0.0;
    st->dset_of[job] = (int32_t)st->n_dsets++;
    return DC_OK;
}

/* The flow id (a stream of dataset di) in slot_dset. */
static void slot_set(dc_storage *st, dc_flow_id id, int32_t di)
{
    size_t sl = dc_flows_slot(id);
    if (sl >= st->cap_slot_dset) {
        size_t ncap = st->cap_slot_dset ? 2 * st->cap_slot_dset : 64;
        while (ncap <= sl)
            ncap *= 2;
        int32_t *g = realloc(st->slot_dset, ncap * sizeof *g);
        if (!g) {
            dc_sim_fail(st->sim, DC_ENOMEM, "out of memory starting a dataset stream");
            return;
        }
        for (size_t i = st->cap_slot_dset; i < ncap; i++)
            g[i] = -1;
        st->slot_dset = g;
        st->cap_slot_dset = ncap;
    }
    st->slot_dset[sl] = di;
}

/* The job's streams start with the demand it last set (it holds nodes). */
static void streams_stand(dc_storage *st, dset *d)
{
    if (d->standing)
        return;
    jio *g = jio_use(st, d->job, d->nodes);
    if (!g)
        return;
    d->standing = true;
    d->at = (int32_t)st->n_standing;
    st->standing[st->n_standing++] = (int32_t)(d - st->dsets);
    dc_flows_hold(st->flows);
    for (int k = 0; k < 3; k++) {
        d->stream[k] = DC_FLOW_NONE;
        if (d->share[k] <= 0.0)
            continue;
        int t, res[2];
        dc_io_dir dir;
        double cap;
        stream_target(st, k, &t, &dir);
        size_t n = flow_path(st, t, dir, d->nodes, g, res, &cap);
        d->stream[k] = dc_flows_start(st->flows, res, n, d->nodes ? d->nodes : 1, d->demand[k], INFINITY, NULL, NULL);
        if (d->stream[k] != DC_FLOW_NONE)
            slot_set(st, d->stream[k], (int32_t)(d - st->dsets));
    }
    dc_flows_release(st->flows);
}

static void streams_fall(dc_storage *st, dset *d)
{
    if (!d->standing)
        return;
    d->standing = false;
    int32_t last = st->standing[--st->n_standing];
    st->standing[d->at] = last;
    st->dsets[last].at = d->at;
    dc_flows_hold(st->flows);
    for (int k = 0; k < 3; k++) {
        if (d->stream[k] != DC_FLOW_NONE)
            st->slot_dset[dc_flows_slot(d->stream[k])] = -1;
        dc_flows_stop(st->flows, d->stream[k]);
        d->stream[k] = DC_FLOW_NONE;
    }
    dc_flows_release(st->flows);
    jio_unuse(st, d->job);
}

/* The rate stream k of d gets: standing, its own; else what it would get
 * alone among the transfers in progress. */
static double stream_rate(const dc_storage *st, const dset *d, int k)
{
    if (d->standing)
        return dc_flows_rate(st->flows, d->stream[k]);
    int t, res[2];
    dc_io_dir dir;
    double cap;
    stream_target(st, k, &t, &dir);
    size_t n = flow_path(st, t, dir, d->nodes, jio_of(st, d->job), res, &cap);
    return dc_flows_probe(st->flows, res, n, d->nodes ? d->nodes : 1, fmin(cap, d->demand[k]));
}

double dc_storage_dataset_read_s(dc_storage *st, int32_t job, double bytes_per_step, double step_s)
{
    dset *d = dset_of(st, job);
    if (!d || !(bytes_per_step > 0.0))
        return 0.0;
    dc_flows_hold(st->flows);
    for (int k = 0; k < 3; k++) {
        d->demand[k] = d->share[k] * bytes_per_step / step_s;
        if (d->standing && d->stream[k] != DC_FLOW_NONE)
            dc_flows_set_cap(st->flows, d->stream[k], d->demand[k]);
    }
    dc_flows_release(st->flows);
    double read_s = 0.0;
    for (int k = 0; k < 3; k++) {
        if (d->share[k] <= 0.0)
            continue;
        double r = stream_rate(st, d, k);
        d->seen[k] = r;
        double t = r > 0.0 ? d->share[k] * bytes_per_step / r : INFINITY;
        if (t > read_s)
            read_s = t;
    }
    return read_s;
}

double dc_storage_dataset_cache_hit(const dc_storage *st, int32_t job)
{
    const dset *d = dset_of(st, job);
    return d ? d->hit : NAN;
}

/* After every new allocation: the jobs whose streams now get other rates
 * hear of it ("storage_changed" with the job). */
/* Dataset di is looked at by this on_rerate (once, if its streams stand). */
static void cand_add(dc_storage *st, int32_t di, size_t *nc)
{
    dset *d = &st->dsets[di];
    if (d->standing && d->mark != st->mark) {
        d->mark = st->mark;
        st->cand[(*nc)++] = (uint64_t)(uint32_t)d->at << 32 | (uint32_t)di;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Tells the jobs whose streams' rates differ from what they last read, in
 * the order of st->standing (as a scan of every standing dataset would):
 * the candidates are the datasets of the flows this solve re-rated and
 * those told before whose job has not read since, which hold every such
 * job (a rate changes only in a solve; reading makes seen the rate). */
static void on_rerate(dc_sim *sim, void *ctx)
{
    dc_storage *st = ctx;
    size_t n = 0, nc = 0;
    st->mark++;
    const dc_flow_id *ids;
    size_t n_ids = dc_flows_changed(st->flows, &ids);
    for (size_t i = 0; i < n_ids; i++) {
        size_t sl = dc_flows_slot(ids[i]);
        if (sl < st->cap_slot_dset && st->slot_dset[sl] >= 0)
            cand_add(st, st->slot_dset[sl], &nc);
    }
    for (size_t i = 0; i < st->n_stale; i++)
        cand_add(st, st->stale[i], &nc);
    if (nc <= 16) { /* (qsort costs about a thousand instructions even for one) */
        for (size_t i = 1; i < nc; i++)
            for (size_t j = i; j > 0 && st->cand[j - 1] > st->cand[j]; j--) {
                uint64_t t = st->cand[j];
                st->cand[j] = st->cand[j - 1];
                st->cand[j - 1] = t;
            }
    } else {
        qsort(st->cand, nc, sizeof *st->cand, cmp_u64);
    }
    st->n_stale = 0;
    for (size_t i = 0; i < nc; i++) {
        int32_t di = (int32_t)(uint32_t)st->cand[i];
        const dset *d = &st->dsets[di];
        for (int k = 0; k < 3; k++)
            if (d->stream[k] != DC_FLOW_NONE && dc_flows_rate(st->flows, d->stream[k]) != d->seen[k]) {
                st->scratch[n++] = d->job;
                st->stale[st->n_stale++] = di;
                break;
            }
    }
    for (size_t i = 0; i < n; i++) {
        dc_job_event ev = {st->scratch[i]};
        dc_sim_publish(sim, st->sig_changed, &ev);
    }
}

/* A job's streams stand while it holds an allocation: from its running
 * until it gives its nodes back (preempted, done), as its flows on the fabric. */
/* Only the edges into these phases act (PHASE_EDGES), and not the one from
 * checkpointing back to running: a job checkpoints only from running,
 * whose edge stood its streams (they fall only when it is pending or
 * done; a stand that failed for memory failed the run). */
#define PHASE_EDGES                                                                                                   \
    (dc_job_edges_into(1u << DC_JOB_RUNNING | 1u << DC_JOB_PENDING | 1u << DC_JOB_DONE)                              \
     & ~(UINT64_C(1) << DC_JOB_EDGE(DC_JOB_CHECKPOINTING, DC_JOB_RUNNING)))
static void on_phase(dc_sim *sim, void *ctx, const void *payload)
{
    dc_storage *st = ctx;
    const dc_job_event *ev = payload;
    (void)sim;
    dset *d = dset_of(st, ev->job);
    if (!d)
        return;
    dc_job_phase ph = dc_cluster_job_phase(st->cluster, ev->job);
    if (ph == DC_JOB_RUNNING)
        streams_stand(st, d);
    else if (ph == DC_JOB_PENDING || ph == DC_JOB_DONE)
        streams_fall(st, d);
}

/* Capacity of a tier's resources from its devices' state: a shared tier's
 * own; a node device's, the job holding the node. */
static void set_capacity(dc_storage *st, int t, int32_t node)
{
    tier *tr = &st->tiers[t];
    if (!dc_storage_kind_per_node(tr->kind)) {
        double up = tr->down ? 0.0 : 1.0;
        dc_flows_hold(st->flows);
        for (int d = 0; d < 2; d++)
            dc_flows_set_capacity(st->flows, tr->res[d], tr->bw_Bps[d] * up);
        dc_flows_release(st->flows);
        return;
    }
    if (node < 0 || (uint32_t)node >= st->nodes)
        return;
    int32_t job = dc_cluster_node_job(st->cluster, (uint32_t)node);
    jio *g = jio_of(st, job);
    if (!g)
        return;
    uint32_t down = count_down(st, t, job);
    if (down != g->down[t]) {
        g->down[t] = down;
        jio_capacities(st, g);
    }
}

static void bank_down(dc_storage *st, tier *tr)
{
    double now = dc_sim_now(st->sim);
    tr->down_unit_s += tr->down_units * (now - tr->down_since_s);
    tr->down_since_s = now;
}

static void changed(dc_storage *st, int t, int32_t node, bool lost)
{
    set_capacity(st, t, node);
    if (lost) {
        dc_storage_loss loss = {t, node};
        dc_sim_publish(st->sim, st->sig_loss, &loss);
    }
    dc_sim_publish(st->sim, st->sig_changed, NULL);
}

#define NODE_BITS 40
#define NODE_MASK ((UINT64_C(1) << NODE_BITS) - 1)

static void on_unit_clock(dc_sim *sim, void *ctx, uint64_t arg);

static void on_tier_repaired(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_storage *st = ctx;
    int t = (int)(arg >> NODE_BITS);
    uint64_t node = arg & NODE_MASK;
    tier *tr = &st->tiers[t];
    bank_down(st, tr);
    tr->down_units -= 1.0;
    if (dc_storage_kind_per_node(tr->kind)) {
        tr->node_down[node] = 0;
    } else {
        tr->down = false;
    }
    /* Alternating renewal: the unit's next life starts now. */
    if (!tr->superposed)
        dc_sim_after(sim, dc_dist_sample(&tr->life, tr->rng), on_unit_clock, st, arg);
    dc_eventlog_add(st->log, dc_sim_now(sim), "storage_repair", tr->name,
                    dc_storage_kind_per_node(tr->kind) ? (int32_t)node : -1, -1, 0.0);
    changed(st, t, dc_storage_kind_per_node(tr->kind) ? (int32_t)node : -1, false);
}

/* Unit node of tier t fails now (it is up). */
static void fail_unit(dc_sim *sim, dc_storage *st, int t, uint64_t node)
{
    tier *tr = &st->tiers[t];
    bool per_node = dc_storage_kind_per_node(tr->kind);
    if (per_node) {
        tr->node_down[node] = 1;
    } else {
        tr->down = true;
    }
    bank_down(st, tr);
    tr->down_units += 1.0;
    tr->n_failures++;
    dc_eventlog_add(st->log, dc_sim_now(sim), "storage_failure", tr->name, per_node ? (int32_t)node : -1, -1, 0.0);
    dc_sim_after(sim, dc_dist_sample(&tr->repair, tr->rng), on_tier_repaired, st,
                 ((uint64_t)t << NODE_BITS) | node);
    changed(st, t, per_node ? (int32_t)node : -1, true);
}

/* Exponential node devices: one Poisson process over every node, thinned
 * to the working devices (as failure.h). */
static void on_superposed(dc_sim *sim, void *ctx, uint64_t t)
{
    dc_storage *st = ctx;
    tier *tr = &st->tiers[t];
    dc_sim_after(sim, gsl_ran_exponential(tr->rng, tr->life.a / st->nodes), on_superposed, st, t);
    uint64_t node = (uint64_t)(gsl_rng_uniform(tr->rng) * st->nodes);
    if (node >= st->nodes)
        node = st->nodes - 1;
    if (!tr->node_down[node])
        fail_unit(sim, st, (int)t, node);
}

/* Any other law, and shared tiers: each unit's own clock. */
static void on_unit_clock(dc_sim *sim, void *ctx, uint64_t arg)
{
    fail_unit(sim, ctx, (int)(arg >> NODE_BITS), arg & NODE_MASK);
}

static int parse_tier(dc_storage *st, dc_sim *sim, const dc_scenario *sc, config_setting_t *g, size_t i,
                      dc_error *err)
{
    tier *tr = &st->tiers[i];
    const char *name = "", *kind = "hbm";
    dc_cfg_lookup_string(g, "name", &name);
    dc_cfg_lookup_string(g, "kind", &kind);
    config_setting_t *name_s = dc_cfg_member(g, "name");
    if (strlen(name) == 0 || strlen(name) >= sizeof tr->name
        || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
        return dc_scenario_error_at(sc, name_s, err, "tier names are 1 to %zu characters of a-z, 0-9 and _ (got \"%s\")",
                                    sizeof tr->name - 1, name);
    for (size_t k = 0; k < i; k++)
        if (strcmp(st->tiers[k].name, name) == 0)
            return dc_scenario_error_at(sc, name_s, err, "tier \"%s\" is named twice", name);
    snprintf(tr->name, sizeof tr->name, "%s", name);
    static const char *const kinds[] = {"hbm", "ddr", "nvme", "pfs", "object"};
    for (int k = 0; k < 5; k++)
        if (strcmp(kind, kinds[k]) == 0)
            tr->kind = (dc_tier_kind)k;
    double cap = 0, rd = 0, wr = 0, lat = 0, cost = 0;
    dc_cfg_lookup_float(g, "capacity_tb", &cap);
    dc_cfg_lookup_float(g, "read_gb_per_s", &rd);
    dc_cfg_lookup_float(g, "write_gb_per_s", &wr);
    dc_cfg_lookup_float(g, "latency_us", &lat);
    dc_cfg_lookup_float(g, "cost_usd_per_tb_month", &cost);
    tr->capacity_B = cap * TB;
    tr->bw_Bps[DC_IO_READ] = rd * GB;
    tr->bw_Bps[DC_IO_WRITE] = wr * GB;
    tr->latency_s = lat * 1e-6;
    tr->cost_per_tb_month = cost;
    config_setting_t *failure = dc_cfg_member(g, "failure");
    config_setting_t *repair = dc_cfg_member(g, "repair");
    if (failure) {
        if (!repair)
            return dc_scenario_error_at(sc, failure, err,
                                        "a tier that fails needs a repair law (repair = { mean_h = ...; })");
        tr->fails = true;
        int rc = dc_dist_from_setting(sc, failure, &tr->life, err);
        if (rc == DC_OK)
            rc = dc_dist_from_setting(sc, repair, &tr->repair, err);
        if (rc != DC_OK)
            return rc;
        tr->superposed = dc_storage_kind_per_node(tr->kind) && tr->life.kind == DC_DIST_EXPONENTIAL;
        char stream[64];
        snprintf(stream, sizeof stream, "storage.%s", tr->name);
        tr->rng = dc_sim_rng(sim, stream);
        if (!tr->rng)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
        if (dc_storage_kind_per_node(tr->kind) && !(tr->node_down = calloc(st->nodes, 1)))
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    /* A shared tier's bandwidth is one resource for every job; a node
     * tier's is each job's own (its nodes' devices, jio). */
    for (int d = 0; d < 2; d++) {
        tr->res[d] = -1;
        if (!dc_storage_kind_per_node(tr->kind) && (tr->res[d] = dc_flows_add_resource(st->flows, tr->bw_Bps[d])) < 0)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    return DC_OK;
}

static int find_tier(const dc_storage *st, const dc_scenario *sc, config_setting_t *g, const char *key, int *out,
                     dc_error *err)
{
    const char *name = NULL;
    *out = -1;
    if (!dc_cfg_lookup_string(g, key, &name))
        return DC_OK;
    *out = dc_storage_tier(st, name);
    if (*out < 0)
        return dc_scenario_error_at(sc, dc_cfg_member(g, key), err, "no tier is named \"%s\"", name);
    return DC_OK;
}

static int parse_dataset(dc_storage *st, const dc_scenario *sc, config_setting_t *g, dc_error *err)
{
    int rc = find_tier(st, sc, g, "tier", &st->src, err);
    if (rc == DC_OK)
        rc = find_tier(st, sc, g, "cache_tier", &st->cache, err);
    if (rc != DC_OK)
        return rc;
    if (st->cache == st->src)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "cache_tier"), err,
                                    "the cache tier is the dataset's own tier");
    double size_tb = 0;
    dc_cfg_lookup_float(g, "size_tb", &size_tb);
    dc_cfg_lookup_float(g, "bytes_per_token", &st->bytes_per_token);
    int prefetch = 1;
    dc_cfg_lookup_bool(g, "prefetch", &prefetch);
    st->prefetch = prefetch;
    st->size_B = size_tb * TB;
    const tier *src = &st->tiers[st->src];
    double src_cap = src->capacity_B * (dc_storage_kind_per_node(src->kind) ? st->job_nodes : 1.0);
    if (st->size_B > src_cap)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "size_tb"), err,
                                    "a dataset of %.4g TB does not fit tier \"%s\" (%.4g TB for the job)", size_tb,
                                    src->name, src_cap / TB);
    config_setting_t *hit = dc_cfg_member(g, "cache_hit");
    st->hit_given = hit && config_setting_type(hit) != CONFIG_TYPE_STRING ? config_setting_get_float(hit) : NAN;
    st->hit = cache_hit(st, st->job_nodes);
    st->has_dataset = true;
    return DC_OK;
}

/* The job's checkpoint size, if the scenario gives one (see checkpoint.h). */
static double checkpoint_bytes(const dc_scenario *sc)
{
    config_setting_t *g = dc_scenario_lookup(sc, "checkpoint");
    if (!g)
        return 0.0;
    double size_gb = 0, bpp = 14, params = 0;
    if (dc_cfg_lookup_float(g, "size_gb", &size_gb))
        return size_gb * GB;
    dc_cfg_lookup_float(g, "bytes_per_param", &bpp);
    config_lookup_float(dc_scenario_config(sc), "job.params", &params);
    return params * bpp;
}

static int storage_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    dc_storage *st = state;
    config_setting_t *g = dc_scenario_lookup(sc, "storage");
    if (!g)
        return DC_OK;
    st->sim = sim;
    st->cluster = dc_cluster_of(sim);
    st->log = dc_sim_eventlog(sim);
    st->nodes = dc_cluster_node_count(st->cluster);
    st->job_nodes = dc_cluster_job_count(st->cluster) > 0 ? dc_cluster_job_nodes(st->cluster, 0) : 0;
    st->flows = dc_flows_create(sim);
    st->n_ids = dc_cluster_job_count(st->cluster);
    st->jio_of = malloc((st->n_ids + 1) * sizeof *st->jio_of);
    st->dset_of = malloc((st->n_ids + 1) * sizeof *st->dset_of);
    if (!st->flows || !st->jio_of || !st->dset_of || dc_flows_on_rerate(st->flows, on_rerate, st) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (uint32_t i = 0; i < st->n_ids; i++)
        st->jio_of[i] = st->dset_of[i] = -1;
    double link_gbps = 400;
    dc_cfg_lookup_float(g, "node_link_gbps", &link_gbps);
    st->link_Bps = link_gbps * 1.25e8;
    config_setting_t *list = dc_cfg_member(g, "tiers");
    st->n_tiers = (size_t)config_setting_length(list);
    if (st->n_tiers == 0 || st->n_tiers > MAX_TIERS)
        return dc_scenario_error_at(sc, list, err, "give 1 to %d tiers (got %zu)", MAX_TIERS, st->n_tiers);
    for (size_t i = 0; i < st->n_tiers; i++) {
        int rc = parse_tier(st, sim, sc, config_setting_get_elem(list, (unsigned)i), i, err);
        if (rc != DC_OK)
            return rc;
    }
    st->src = st->cache = -1;
    config_setting_t *ds = dc_cfg_member(g, "dataset");
    if (ds) {
        int rc = parse_dataset(st, sc, ds, err);
        if (rc != DC_OK)
            return rc;
    }
    st->ckpt_bytes = checkpoint_bytes(sc);
    st->sig_changed = dc_sim_signal(sim, "storage_changed");
    st->sig_loss = dc_sim_signal(sim, "storage_loss");
    int sig_phase = dc_sim_signal(sim, "job_phase");
    if (st->sig_changed < 0 || st->sig_loss < 0 || sig_phase < 0
        || (st->has_dataset && dc_sim_subscribe_kinds(sim, sig_phase, PHASE_EDGES, on_phase, st) != DC_OK))
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int storage_start(void *state, dc_sim *sim, dc_error *err)
{
    dc_storage *st = state;
    if (!st->flows)
        return DC_OK;
    /* What a blocking checkpoint from all the job's nodes would take on each
     * tier that can hold it, before any other transfer. */
    for (size_t i = 0; i < st->n_tiers; i++) {
        tier *tr = &st->tiers[i];
        double per_node = st->job_nodes ? st->ckpt_bytes / st->job_nodes : 0.0;
        bool fits = dc_storage_kind_per_node(tr->kind) ? per_node <= tr->capacity_B : st->ckpt_bytes <= tr->capacity_B;
        tr->ckpt_write_s = st->ckpt_bytes > 0.0 && fits && st->job_nodes > 0
                               ? dc_storage_transfer_s(st, (int)i, DC_IO_WRITE, st->ckpt_bytes, -1, st->job_nodes)
                               : NAN;
        if (!tr->fails)
            continue;
        if (tr->superposed) {
            dc_sim_after(sim, gsl_ran_exponential(tr->rng, tr->life.a / st->nodes), on_superposed, st, (uint64_t)i);
        } else {
            uint64_t units = dc_storage_kind_per_node(tr->kind) ? st->nodes : 1;
            for (uint64_t u = 0; u < units; u++)
                dc_sim_after(sim, dc_dist_sample(&tr->life, tr->rng), on_unit_clock, st, ((uint64_t)i << NODE_BITS) | u);
        }
    }
    return DC_OK;
}

static void storage_finish(void *state, dc_sim *sim)
{
    dc_storage *st = state;
    if (!st->flows)
        return;
    dc_summary *s = dc_sim_summary(sim);
    double months = dc_sim_now(sim) / SECONDS_PER_MONTH, total = 0.0, per_month = 0.0;
    char key[96];
    for (size_t i = 0; i < st->n_tiers; i++) {
        tier *tr = &st->tiers[i];
        bank_down(st, tr);
        double tb = tr->capacity_B / TB * (dc_storage_kind_per_node(tr->kind) ? st->nodes : 1.0);
        snprintf(key, sizeof key, "storage.%s.capacity_tb", tr->name);
        dc_summary_set(s, key, tb, "TB", "capacity in all (node tiers: every node's)");
        snprintf(key, sizeof key, "storage.%s.cost_usd", tr->name);
        dc_summary_set(s, key, tb * tr->cost_per_tb_month * months, "USD", "cost of the capacity over the simulated time");
        total += tb * tr->cost_per_tb_month * months;
        per_month += tb * tr->cost_per_tb_month;
        snprintf(key, sizeof key, "storage.%s.failures", tr->name);
        dc_summary_set(s, key, (double)tr->n_failures, "", "failures (of a node's device, or of the shared tier)");
        snprintf(key, sizeof key, "storage.%s.down_h", tr->name);
        dc_summary_set(s, key, tr->down_unit_s / 3600.0, "h", "unit-hours down (node devices, or the shared tier)");
        snprintf(key, sizeof key, "storage.%s.checkpoint_write_s", tr->name);
        dc_summary_set(s, key, tr->ckpt_write_s, "s",
                       "a blocking checkpoint of the job's size from all its nodes, alone (null: none, or does not fit)");
    }
    dc_summary_set(s, "storage.checkpoint_gb", st->ckpt_bytes > 0 ? st->ckpt_bytes / GB : NAN, "GB",
                   "size of the job's checkpoint used by storage.TIER.checkpoint_write_s");
    dc_summary_set(s, "storage.cost_usd", total, "USD", "cost of all tiers' capacity over the simulated time");
    dc_summary_set(s, "storage.cost_usd_per_month", per_month, "USD", "cost of all tiers' capacity per month");
    if (st->has_dataset)
        dc_summary_set(s, "storage.dataset.cache_hit", st->hit, "", "fraction of dataset reads served by the cache");
}

static void storage_destroy(void *state)
{
    dc_storage *st = state;
    for (size_t i = 0; i < st->n_tiers; i++)
        free(st->tiers[i].node_down);
    free(st->xfers);
    free(st->jio_of);
    free(st->dset_of);
    free(st->jios);
    free(st->free_jios);
    free(st->dsets);
    free(st->scratch);
    free(st->slot_dset);
    free(st->stale);
    free(st->cand);
    free(st->standing);
    dc_flows_destroy(st->flows);
}

const dc_model_type dc_model_storage = {
    .name = "storage",
    .state_size = sizeof(dc_storage),
    .params = dc_storage_params,
    .init = storage_init,
    .start = storage_start,
    .finish = storage_finish,
    .destroy = storage_destroy,
};
