/* The shared fabric: jobs' collectives as flows on the links they leave, max-min shares of binding
 * links per component, and each job's ring bandwidth from them.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "fabric.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "maxmin.h"

/* A unit binds when the demand on it exceeds its capacity by more than this. */
#define BIND_SLACK 1e-9

enum { L_NIC, L_LEAF, L_POD, N_LV };

typedef struct user {
    int32_t job;
    uint32_t entry;
} user;

typedef struct unit {
    double cap_nom;     /* healthy egress capacity, bytes/s */
    double health;
    double cap;         /* cap_nom x health */
    double demand;      /* sum of a x cap over the computing users (while tracked) */
    double load;        /* sum of a x rate over them, valid while binding */
    user *users;
    uint32_t n_users, cap_users;
    uint32_t mark;      /* the component search's */
    int32_t res;        /* index in the solve */
    bool binding, partial;
    bool tracked;       /* demand kept (two computing users or more) */
} unit;

/* A job's presence in a leaf or pod. */
typedef struct entry {
    uint32_t unit;
    uint32_t gpus;      /* P: its GPUs there */
    double a;           /* edges of its representative ring leaving the unit */
    uint32_t upos;      /* in the unit's user list, while computing */
    int32_t spos;       /* in the job's special list, -1 when plain */
} entry;

typedef struct pcount {
    uint32_t gpus, count;
} pcount;

/* A ring the job was asked for (dc_fabric_ring) while the fabric stood as
 * at generation gen. */
typedef struct ring_memo {
    uint64_t gen;
    uint32_t n, stride;
    dc_ring_bw r;
} ring_memo;
#define RING_MEMOS 4

/* A job in play: from its first start until it is retired (dc_fabric_retire),
 * taken from and given back to f->free_recs. */
typedef struct fjob {
    bool placed, computing;
    bool keyed;         /* its entries are in f->entries (filled on the first node moved) */
    uint32_t nodes, rep_n, rep_stride;
    double gpus;
    uint64_t gen;
    uint32_t *node_ids;
    uint32_t n_nodes, cap_nodes;
    pcount *nic;        /* GPUs per NIC domain, counted */
    uint32_t n_nic, cap_nic;
    double node_h;      /* worst health of its nodes with a NIC left */
    uint32_t nodes_cut; /* its nodes with none */
    entry *e[N_LV];
    uint32_t n_e[N_LV], cap_e[N_LV];
    pcount *plain;      /* leaves: healthy, not binding, whole; counted by GPUs */
    uint32_t n_plain, cap_plain;
    uint32_t *special[N_LV]; /* entries of the other leaves; pods: every entry */
    uint32_t n_special[N_LV], cap_special[N_LV];
    uint32_t cut_units; /* leaves and pods it spans with health 0 */
    double cap, x;      /* solo and max-min rate of an edge of its representative ring */
    uint32_t mark;
    ring_memo memo[RING_MEMOS];
    uint32_t memo_next; /* the entry replaced next */
} fjob;

/* What is kept of every job registered, in play or not (a few words): its
 * size and representative ring, as its record would hold them, and the
 * record while it is in play.  A job not in play is costed on its ideal
 * placement, which needs no more (fabric.h). */
typedef struct freg {
    fjob *J;                 /* NULL: not in play */
    uint32_t nodes, rep_n, rep_stride; /* rep_stride 0: not registered */
    uint32_t gpu_nodes;      /* fjob.gpus = gpu_nodes x G */
} freg;

/* A ring of a job not in play (its ideal placement, which depends on its
 * size alone), remembered: a step-time computation asks for the same few
 * some 35 times, and a stream's jobs come in a few sizes. */
typedef struct ideal_memo {
    bool valid;
    uint32_t nodes, gpu_nodes, n, stride;
    dc_ring_bw r;
} ideal_memo;

struct dc_fabric {
    const dc_topology *topo;
    /* dc_fabric_start_slots: the slots that may differ from the placement's
     * (n_hint < 0: unknown, all are compared) */
    const uint32_t *hint;
    int n_hint;
    dc_topology_spec s;
    uint32_t nodes, G, X, nodes_per_domain;
    double e0;
    bool rail, torus, scattered;
    int top;            /* highest level with units: L_LEAF or L_POD */
    unit *u[N_LV];
    uint32_t n_u[N_LV];
    int32_t *node_job;  /* the job whose placement holds the node, -1 */
    double *node_health;
    freg *jobs;
    uint32_t n_jobs;
    fjob **free_recs;   /* records of jobs retired, for the next job to start */
    uint32_t n_free_recs, cap_free_recs;
    ideal_memo ideal[RING_MEMOS];
    uint32_t ideal_next;
    dc_fabric_job_fn changed, cut;
    void *ctx;
    uint32_t mark;
    /* Units that have two computing users or more, keep their demand or
     * bind (unit_hot).  With none, a job's caps change nothing on its
     * units (shift_demand), so their loop over all its entries is skipped. */
    uint32_t n_hot;
    bool fast;            /* the n_hot shortcut taken (dc_fabric_set_fast: off in a test) */
    uint64_t fast_skips;  /* shift_demand passes it spared */
    /* Rings asked for are remembered per job (a step-time computation asks
     * for the same few rings some 35 times): a remembered one is valid
     * while ring_gen is unchanged.  ring_gen moves at the entry and exit
     * of every function that changes the fabric and before each callback
     * (which may ask for rings while the fabric is half way through a
     * change), so a ring is reused only where job_ring would compute it
     * again from the same state: the same result, bit for bit. */
    uint64_t ring_gen;
    dc_keymap *entries; /* (job, level, unit) -> the job's entry there: entry_key */
    /* The arrays of jobs retired (dc_fabric_retire), for the jobs placed
     * after them: a start then allocates nothing once they are big enough. */
    fjob *spare;
    uint32_t n_spare, cap_spare;
    /* degraded units and nodes (health < 1) */
    struct {
        int level;
        uint32_t unit;
    } *deg;
    uint32_t n_deg, cap_deg, n_deg_nodes;
    /* scratch */
    uint32_t *count;    /* GPUs per unit, while placing */
    uint32_t *touched;
    int32_t *qjobs;
    uint32_t *qunits;
    uint32_t cap_q, cap_qu;
    double *capacity, *rate, *coefs;
    int *res;
    dc_maxmin_flow *flows;
    size_t cap_solve_res, cap_solve_flows, cap_solve_paths;
    size_t cap_rate, cap_coefs; /* rate[] and coefs[] hold this many */
    void *work;                 /* the solver's (dc_maxmin_solve_in), cap_work bytes */
    size_t cap_work;
};

static double dmin(double a, double b) { return a < b ? a : b; }

/* The fabric changes (or a callback may ask for rings while it does): the
 * remembered rings are stale. */
static void rings_stale(dc_fabric *f) { f->ring_gen++; }

static void notify_changed(dc_fabric *f, int32_t job)
{
    rings_stale(f);
    f->changed(f->ctx, job);
}

static void notify_cut(dc_fabric *f, int32_t job)
{
    rings_stale(f);
    f->cut(f->ctx, job);
}

/* The key of job's entry for unit u of level lv in f->entries (never 0). */
static uint64_t entry_key(int32_t job, int lv, uint32_t u)
{
    return ((uint64_t)(uint32_t)job + 1) << 32 | (uint64_t)lv << 30 | u;
}

static bool binds(const unit *U);
static double fresh_demand(const dc_fabric *f, int lv, const unit *U);

static bool unit_hot(const unit *U) { return U->n_users >= 2 || U->tracked || U->binding; }

/* U changed (its users, tracked or binding); was: unit_hot before. */
static void note_hot(dc_fabric *f, const unit *U, bool was)
{
    bool is = unit_hot(U);
    if (is != was)
        f->n_hot += is ? 1u : (uint32_t)-1;
}

/* ---------- growing arrays ---------- */

static bool grow(void **p, uint32_t *cap, uint32_t need, size_t size)
{
    if (need <= *cap)
        return true;
    uint32_t nc = *cap ? *cap : 4;
    while (nc < need)
        nc *= 2;
    void *g = realloc(*p, (size_t)nc * size);
    if (!g)
        return false;
    *p = g;
    *cap = nc;
    return true;
}

static bool grow_z(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    void *g = realloc(*p, nc * size);
    if (!g)
        return false;
    *p = g;
    *cap = nc;
    return true;
}

/* ---------- creation ---------- */

static double level_egress(const dc_fabric *f, int lv)
{
    return lv == L_LEAF ? f->e0 / f->s.leaf_oversub : f->e0 / (f->s.leaf_oversub * f->s.pod_oversub);
}

dc_fabric *dc_fabric_create(const dc_topology *topo, uint32_t nodes, dc_fabric_job_fn changed, dc_fabric_job_fn cut,
                            void *ctx)
{
    dc_fabric *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->topo = topo;
    f->n_hint = -1;
    f->fast = true;
    f->s = *dc_topology_get_spec(topo);
    f->nodes = nodes;
    f->G = f->s.gpus_per_node;
    f->X = f->G > f->s.scaleup_gpus ? f->G : f->s.scaleup_gpus;
    f->nodes_per_domain = f->X / f->G;
    f->e0 = f->s.nics_per_node * f->s.nic_Bps / f->G;
    f->rail = f->s.kind == DC_TOPO_RAIL;
    f->torus = f->s.kind == DC_TOPO_TORUS;
    f->scattered = f->s.placement == DC_PLACE_SCATTERED;
    f->changed = changed;
    f->cut = cut;
    f->ring_gen = 1; /* a zeroed memo (generation 0) never matches */
    f->ctx = ctx;
    f->top = f->torus ? L_NIC : f->s.tiers == 3 ? L_POD : L_LEAF;
    f->node_job = malloc(((size_t)nodes + 1) * sizeof *f->node_job);
    f->node_health = malloc(((size_t)nodes + 1) * sizeof *f->node_health);
    bool ok = f->node_job && f->node_health;
    for (uint32_t i = 0; ok && i < nodes; i++) {
        f->node_job[i] = -1;
        f->node_health[i] = 1.0;
    }
    uint32_t most = nodes; /* NIC domains, leaves and pods number at most the nodes */
    for (int lv = L_LEAF; ok && lv <= f->top; lv++) {
        uint32_t n = dc_topology_units(topo, lv);
        f->n_u[lv] = n;
        f->u[lv] = calloc((size_t)n + 1, sizeof(unit));
        ok = f->u[lv] != NULL;
        uint64_t per = lv == L_LEAF ? f->s.nodes_per_leaf : (uint64_t)f->s.nodes_per_leaf * f->s.leaves_per_pod;
        for (uint32_t k = 0; ok && k < n; k++) {
            uint64_t first = k * per, end = first + per > nodes ? nodes : first + per;
            unit *U = &f->u[lv][k];
            U->cap_nom = (double)(end - first) * f->G * level_egress(f, lv);
            U->health = 1.0;
            U->cap = U->cap_nom;
            U->partial = end - first < per;
            U->res = -1;
        }
        if (n > most)
            most = n;
    }
    f->count = calloc((size_t)most + 1, sizeof *f->count);
    f->touched = malloc(((size_t)most + 1) * sizeof *f->touched);
    f->entries = dc_keymap_create();
    if (!ok || !f->count || !f->touched || !f->entries) {
        dc_fabric_destroy(f);
        return NULL;
    }
    return f;
}

/* The arrays a job's placement owns (a registered job's, or a retired
 * one's kept for the next job placed). */
static void fjob_free_arrays(fjob *J)
{
    free(J->node_ids);
    free(J->nic);
    free(J->plain);
    for (int lv = 0; lv < N_LV; lv++) {
        free(J->e[lv]);
        free(J->special[lv]);
    }
}

void dc_fabric_destroy(dc_fabric *f)
{
    if (!f)
        return;
    for (uint32_t j = 0; j < f->n_jobs; j++)
        if (f->jobs[j].J) {
            fjob_free_arrays(f->jobs[j].J);
            free(f->jobs[j].J);
        }
    for (uint32_t j = 0; j < f->n_free_recs; j++)
        free(f->free_recs[j]); /* (their arrays went to spare) */
    free(f->free_recs);
    for (uint32_t j = 0; j < f->n_spare; j++)
        fjob_free_arrays(&f->spare[j]);
    free(f->spare);
    for (int lv = 0; lv < N_LV; lv++) {
        for (uint32_t k = 0; f->u[lv] && k < f->n_u[lv]; k++)
            free(f->u[lv][k].users);
        free(f->u[lv]);
    }
    free(f->jobs);
    free(f->node_job);
    free(f->node_health);
    free(f->deg);
    free(f->count);
    free(f->touched);
    free(f->qjobs);
    free(f->qunits);
    free(f->capacity);
    free(f->rate);
    free(f->coefs);
    free(f->res);
    free(f->flows);
    free(f->work);
    dc_keymap_destroy(f->entries);
    free(f);
}

static int fabric_register_now(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride)
{
    if (job < 0)
        return DC_EINPUT;
    if ((uint32_t)job >= f->n_jobs) {
        uint32_t n = (uint32_t)job + 1, cap = f->n_jobs;
        if (!grow((void **)&f->jobs, &cap, n, sizeof *f->jobs))
            return DC_ENOMEM;
        memset(f->jobs + f->n_jobs, 0, (size_t)(cap - f->n_jobs) * sizeof *f->jobs);
        f->n_jobs = cap;
    }
    freg *R = &f->jobs[job];
    R->nodes = R->gpu_nodes = nodes;
    R->rep_n = rep_n;
    R->rep_stride = rep_stride ? rep_stride : 1;
    fjob *J = R->J;
    if (J) {
        J->nodes = nodes;
        J->gpus = (double)nodes * f->G;
        J->rep_n = rep_n;
        J->rep_stride = R->rep_stride;
        J->node_h = 1.0;
    }
    return DC_OK;
}

int dc_fabric_register(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride)
{
    rings_stale(f);
    int rc = fabric_register_now(f, job, nodes, rep_n, rep_stride);
    rings_stale(f);
    return rc;
}

static freg *reg_at(const dc_fabric *f, int32_t job)
{
    return job >= 0 && (uint32_t)job < f->n_jobs && f->jobs[job].rep_stride ? &f->jobs[job] : NULL;
}

/* The record of a job in play, else NULL. */
static fjob *job_at(const dc_fabric *f, int32_t job)
{
    const freg *R = reg_at(f, job);
    return R ? R->J : NULL;
}

bool dc_fabric_registered(const dc_fabric *f, int32_t job) { return reg_at(f, job) != NULL; }

/* The job comes into play: a record (a retired job's, else new) with its
 * size and ring, as registered.  NULL when out of memory. */
static fjob *rec_take(dc_fabric *f, freg *R)
{
    fjob *J = f->n_free_recs > 0 ? f->free_recs[--f->n_free_recs] : malloc(sizeof *J);
    if (!J)
        return NULL;
    *J = (fjob){.nodes = R->nodes, .gpus = (double)R->gpu_nodes * f->G, .rep_n = R->rep_n,
                .rep_stride = R->rep_stride, .node_h = 1.0};
    R->J = J;
    return J;
}

static void fabric_resize_now(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride)
{
    freg *R = reg_at(f, job);
    if (!R)
        return;
    fjob *J = R->J;
    if (J)
        dc_fabric_stop(f, job);
    R->nodes = R->gpu_nodes = nodes;
    R->rep_n = rep_n;
    R->rep_stride = rep_stride ? rep_stride : 1;
    if (!J)
        return;
    J->nodes = nodes;
    J->gpus = (double)nodes * f->G;
    J->rep_n = rep_n;
    J->rep_stride = rep_stride ? rep_stride : 1;
    J->placed = false;
}

void dc_fabric_resize(dc_fabric *f, int32_t job, uint32_t nodes, uint32_t rep_n, uint32_t rep_stride)
{
    rings_stale(f);
    fabric_resize_now(f, job, nodes, rep_n, rep_stride);
    rings_stale(f);
}

bool dc_fabric_computing(const dc_fabric *f, int32_t job)
{
    const fjob *J = job_at(f, job);
    return J && J->computing;
}

bool dc_fabric_current(const dc_fabric *f, int32_t job, uint32_t n, uint64_t gen)
{
    const fjob *J = job_at(f, job);
    return J && J->computing && J->gen == gen && J->n_nodes == n;
}

/* ---------- rings ---------- */

/* Members of a group of n at stride in a unit of unit_gpus (topology.c's). */
static double members_per(uint32_t n, uint32_t stride, double unit_gpus)
{
    if ((double)stride >= unit_gpus)
        return 1.0;
    double m = floor(unit_gpus / stride);
    return m < n ? m : (double)n;
}

/* Edges of the rings over n ranks at stride that leave a unit holding P of
 * the job's GPUs (fabric.h). */
static double edges_out(const dc_fabric *f, const fjob *J, int lv, uint64_t P, uint32_t n, uint32_t s)
{
    if (n <= 1 || P == 0)
        return 0.0;
    if (f->rail && lv == L_LEAF && s >= f->G && s % f->G != 0)
        return (double)P; /* every edge joins two rails: through the spine */
    if (f->scattered && lv != L_NIC) {
        double frac = (double)P / J->gpus;
        return frac >= 1.0 ? 0.0 : (double)P / members_per(n, s, f->X) * (1.0 - frac);
    }
    uint64_t inner = (uint64_t)(n - 1) * s, R = P % (inner + s);
    if (R == 0)
        return 0.0;
    uint64_t present = R < s ? R : s, contained = R > inner ? (R - inner < s ? R - inner : s) : 0;
    return (double)(present - contained);
}

/* The capacity a job may use at one of its units: all of it, less the
 * others' load where the unit binds (never below the job's own load). */
static double avail(const unit *U, const entry *e, const fjob *J, bool solo)
{
    double c = U->cap;
    if (!U->binding || solo || !J->computing)
        return c;
    double own = e->a * J->x, left = c - (U->load - own);
    return left > own ? left : own;
}

typedef struct ideal_unit {
    uint64_t gpus;
    double cap;
} ideal_unit;

/* The units of the job's ideal placement at a level (its nodes from node 0):
 * at most two distinct ones, whole and the last. */
static int ideal_units(const dc_fabric *f, const fjob *J, int lv, ideal_unit out[2], uint32_t count[2])
{
    uint64_t per = lv == L_NIC ? f->nodes_per_domain
                   : lv == L_LEAF ? f->s.nodes_per_leaf
                                  : (uint64_t)f->s.nodes_per_leaf * f->s.leaves_per_pod;
    uint64_t full = J->nodes / per, rest = J->nodes % per;
    int k = 0;
    double per_gpu = lv == L_NIC ? f->e0 : level_egress(f, lv);
    if (full > 0) {
        out[k] = (ideal_unit){per * f->G, lv == L_NIC ? (double)per * f->G * per_gpu : f->u[lv][0].cap_nom};
        count[k++] = (uint32_t)full;
    }
    if (rest > 0) {
        uint32_t last = (uint32_t)full;
        double cap = lv == L_NIC || last >= f->n_u[lv] ? (double)rest * f->G * per_gpu : f->u[lv][last].cap_nom;
        out[k] = (ideal_unit){rest * f->G, cap};
        count[k++] = 1;
    }
    return k;
}

/* A ring of the job over n ranks at stride: on its placement while it
 * computes (solo: as if alone), else on its ideal placement. */
static dc_ring_bw job_ring(const dc_fabric *f, const fjob *J, uint32_t n, uint32_t s, bool solo)
{
    const dc_topology_spec *sp = &f->s;
    dc_ring_bw r = {INFINITY, 0.0};
    if (n <= 1)
        return r;
    if (s < 1)
        s = 1;
    if (members_per(n, s, sp->scaleup_gpus) >= 2.0) {
        r.bw_Bps = sp->scaleup_Bps;
        r.alpha_s = sp->scaleup_latency_s;
    }
    bool placed = J->placed && J->computing;
    /* NIC domains: the job's own NICs */
    double bw = INFINITY;
    bool crossed = false;
    ideal_unit iu[2];
    uint32_t ic[2];
    if (placed) {
        for (uint32_t k = 0; k < J->n_nic; k++) {
            double g = edges_out(f, J, L_NIC, J->nic[k].gpus, n, s);
            if (g > 0.0) {
                crossed = true;
                bw = dmin(bw, (double)J->nic[k].gpus * f->e0 * J->node_h / g);
            }
        }
    } else {
        int k = ideal_units(f, J, L_NIC, iu, ic);
        for (int i = 0; i < k; i++) {
            double g = edges_out(f, J, L_NIC, iu[i].gpus, n, s);
            if (g > 0.0) {
                crossed = true;
                bw = dmin(bw, iu[i].cap / g);
            }
        }
    }
    if (!crossed)
        return r;
    r.alpha_s = sp->latency_s + 1.0 * sp->hop_latency_s;
    for (int lv = L_LEAF; lv <= f->top; lv++) {
        double b = INFINITY;
        bool cross = false;
        if (placed) {
            if (lv == L_LEAF)
                for (uint32_t k = 0; k < J->n_plain; k++) {
                    double g = edges_out(f, J, lv, J->plain[k].gpus, n, s);
                    if (g > 0.0) {
                        cross = true;
                        b = dmin(b, f->u[lv][0].cap_nom / g);
                    }
                }
            for (uint32_t k = 0; k < J->n_special[lv]; k++) {
                const entry *e = &J->e[lv][J->special[lv][k]];
                const unit *U = &f->u[lv][e->unit];
                if (U->health <= 0.0)
                    continue; /* cut: the job runs around it */
                double g = edges_out(f, J, lv, e->gpus, n, s);
                if (g > 0.0) {
                    cross = true;
                    b = dmin(b, avail(U, e, J, solo) / g);
                }
            }
        } else {
            int k = ideal_units(f, J, lv, iu, ic);
            for (int i = 0; i < k; i++) {
                double g = edges_out(f, J, lv, iu[i].gpus, n, s);
                if (g > 0.0) {
                    cross = true;
                    b = dmin(b, iu[i].cap / g);
                }
            }
        }
        if (cross) {
            bw = dmin(bw, b);
            r.alpha_s = sp->latency_s + (lv == L_LEAF ? 3.0 : 5.0) * sp->hop_latency_s;
        }
    }
    if (bw < r.bw_Bps)
        r.bw_Bps = bw;
    return r;
}

/* Torus: topology.h's rings with the health of the job's worst node. */
static dc_ring_bw torus_ring(const dc_fabric *f, const fjob *J, uint32_t n, uint32_t s)
{
    double h[3] = {J->placed && J->computing ? J->node_h : 1.0, 1.0, 1.0};
    return dc_topology_ring_h(f->topo, n, s, h);
}

/* A ring of a registered job not in play: on its ideal placement. */
static dc_ring_bw ideal_ring(dc_fabric *f, const freg *R, uint32_t n, uint32_t stride)
{
    if (!f->torus)
        for (uint32_t i = 0; i < RING_MEMOS; i++) {
            const ideal_memo *m = &f->ideal[i];
            if (m->valid && m->n == n && m->stride == stride && m->nodes == R->nodes && m->gpu_nodes == R->gpu_nodes)
                return m->r;
        }
    fjob tmp = {.nodes = R->nodes, .gpus = (double)R->gpu_nodes * f->G, .rep_n = R->rep_n,
                .rep_stride = R->rep_stride, .node_h = 1.0};
    if (f->torus)
        return torus_ring(f, &tmp, n, stride);
    ideal_memo *m = &f->ideal[f->ideal_next];
    f->ideal_next = (f->ideal_next + 1) % RING_MEMOS;
    *m = (ideal_memo){true, R->nodes, R->gpu_nodes, n, stride, job_ring(f, &tmp, n, stride, false)};
    return m->r;
}

dc_ring_bw dc_fabric_ring(dc_fabric *f, int32_t job, uint32_t n, uint32_t stride)
{
    const freg *R = reg_at(f, job);
    if (!R) { /* not registered: alone on its ideal placement */
        fjob tmp = {.nodes = 1, .gpus = f->G, .node_h = 1.0};
        return f->torus ? dc_topology_ring(f->topo, n, stride) : job_ring(f, &tmp, n, stride, true);
    }
    if (!R->J)
        return ideal_ring(f, R, n, stride);
    const fjob *J = R->J;
    if (f->torus)
        return torus_ring(f, J, n, stride);
    fjob *M = R->J;
    for (uint32_t i = 0; i < RING_MEMOS; i++)
        if (M->memo[i].gen == f->ring_gen && M->memo[i].n == n && M->memo[i].stride == stride)
            return M->memo[i].r;
    ring_memo *m = &M->memo[M->memo_next];
    M->memo_next = (M->memo_next + 1) % RING_MEMOS;
    *m = (ring_memo){f->ring_gen, n, stride, job_ring(f, J, n, stride, false)};
    return m->r;
}

double dc_fabric_node_health(const dc_fabric *f, int32_t job)
{
    const fjob *J = job_at(f, job);
    return J && J->computing ? J->node_h : 1.0;
}

double dc_fabric_rate(const dc_fabric *f, int32_t job)
{
    const fjob *J = job_at(f, job);
    return J && J->computing ? J->x : NAN;
}

double dc_fabric_solo_rate(const dc_fabric *f, int32_t job)
{
    const fjob *J = job_at(f, job);
    return J && J->computing ? J->cap : NAN;
}

/* ---------- plain and special leaves ---------- */

static bool is_special(const unit *U, int lv)
{
    return lv != L_LEAF || U->binding || U->health < 1.0 || U->partial;
}

static bool plain_add(fjob *J, uint32_t gpus, int delta)
{
    for (uint32_t k = 0; k < J->n_plain; k++)
        if (J->plain[k].gpus == gpus) {
            J->plain[k].count = (uint32_t)((int)J->plain[k].count + delta);
            if (J->plain[k].count == 0)
                J->plain[k] = J->plain[--J->n_plain];
            return true;
        }
    if (delta < 0)
        return true;
    if (!grow((void **)&J->plain, &J->cap_plain, J->n_plain + 1, sizeof *J->plain))
        return false;
    J->plain[J->n_plain++] = (pcount){gpus, 1};
    return true;
}

/* Files entry idx of level lv as plain or special, as its unit is now. */
static bool classify(const dc_fabric *f, fjob *J, int lv, uint32_t idx)
{
    entry *e = &J->e[lv][idx];
    bool want = is_special(&f->u[lv][e->unit], lv), is = e->spos >= 0;
    if (want == is)
        return true;
    if (want) {
        if (!grow((void **)&J->special[lv], &J->cap_special[lv], J->n_special[lv] + 1, sizeof(uint32_t)))
            return false;
        if (lv == L_LEAF)
            plain_add(J, e->gpus, -1);
        e->spos = (int32_t)J->n_special[lv];
        J->special[lv][J->n_special[lv]++] = idx;
    } else {
        uint32_t last = J->special[lv][--J->n_special[lv]];
        J->special[lv][e->spos] = last;
        J->e[lv][last].spos = e->spos;
        e->spos = -1;
        if (!plain_add(J, e->gpus, +1))
            return false;
    }
    return true;
}

/* ---------- placement ---------- */

static uint32_t unit_of(const dc_fabric *f, int lv, uint32_t node)
{
    uint32_t leaf = node / f->s.nodes_per_leaf;
    return lv == L_LEAF ? leaf : leaf / f->s.leaves_per_pod;
}

static double node_health_min(dc_fabric *f, fjob *J)
{
    double h = 1.0;
    J->nodes_cut = 0;
    if (f->n_deg_nodes == 0)
        return h;
    for (uint32_t k = 0; k < J->n_nodes; k++) {
        double x = f->node_health[J->node_ids[k]];
        if (x <= 0.0)
            J->nodes_cut++;
        else if (x < h)
            h = x;
    }
    return h;
}

/* The job's entries leave f->entries. */
static void unkey(dc_fabric *f, int32_t job, fjob *J)
{
    for (int lv = L_LEAF; J->keyed && lv <= f->top; lv++)
        for (uint32_t k = 0; k < J->n_e[lv]; k++)
            dc_keymap_remove(f->entries, entry_key(job, lv, J->e[lv][k].unit));
    J->keyed = false;
}

/* The job's entries in f->entries, for find_entry: done on the first node
 * moved of a placement (most jobs never lose a node: bench-shared put 9
 * keys a start, 16,320 in 3 days, and kept those of every job done).
 * false when out of memory. */
static bool key(dc_fabric *f, int32_t job, fjob *J)
{
    if (J->keyed)
        return true;
    for (int lv = L_LEAF; lv <= f->top; lv++) {
        if (!dc_keymap_reserve(f->entries, J->n_e[lv]))
            return false;
        for (uint32_t k = 0; k < J->n_e[lv]; k++)
            dc_keymap_put(f->entries, entry_key(job, lv, J->e[lv][k].unit), k); /* reserved above */
    }
    J->keyed = true;
    return true;
}

static bool place(dc_fabric *f, fjob *J, int32_t job, const uint32_t *nodes, uint32_t n)
{
    if (!J->node_ids && f->n_spare > 0) { /* a retired job's arrays, empty (their capacities kept) */
        const fjob *S = &f->spare[--f->n_spare];
        J->node_ids = S->node_ids, J->cap_nodes = S->cap_nodes;
        J->nic = S->nic, J->cap_nic = S->cap_nic;
        J->plain = S->plain, J->cap_plain = S->cap_plain;
        for (int lv = 0; lv < N_LV; lv++) {
            J->e[lv] = S->e[lv], J->cap_e[lv] = S->cap_e[lv];
            J->special[lv] = S->special[lv], J->cap_special[lv] = S->cap_special[lv];
        }
    }
    /* the previous placement's nodes are no longer its */
    for (uint32_t k = 0; k < J->n_nodes; k++)
        if (f->node_job[J->node_ids[k]] == job)
            f->node_job[J->node_ids[k]] = -1;
    if (!grow((void **)&J->node_ids, &J->cap_nodes, n, sizeof *J->node_ids))
        return false;
    if (n > 0)
        memcpy(J->node_ids, nodes, (size_t)n * sizeof *nodes);
    J->n_nodes = n;
    for (uint32_t k = 0; k < n; k++)
        f->node_job[nodes[k]] = job;
    J->gpus = (double)n * f->G;
    /* NIC domains: GPUs per domain, counted by size */
    J->n_nic = 0;
    if (f->nodes_per_domain <= 1) {
        if (!grow((void **)&J->nic, &J->cap_nic, 1, sizeof *J->nic))
            return false;
        J->nic[0] = (pcount){f->G, n};
        J->n_nic = n > 0;
    } else {
        uint32_t nt = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t d = nodes[k] / f->nodes_per_domain;
            if (f->count[d]++ == 0)
                f->touched[nt++] = d;
        }
        for (uint32_t k = 0; k < nt; k++) {
            uint32_t gpus = f->count[f->touched[k]] * f->G;
            f->count[f->touched[k]] = 0;
            uint32_t i = 0;
            while (i < J->n_nic && J->nic[i].gpus != gpus)
                i++;
            if (i == J->n_nic) {
                if (!grow((void **)&J->nic, &J->cap_nic, J->n_nic + 1, sizeof *J->nic))
                    return false;
                J->nic[J->n_nic++] = (pcount){gpus, 0};
            }
            J->nic[i].count++;
        }
    }
    J->node_h = node_health_min(f, J);
    /* leaves and pods (their keys follow when a node moves: unkeyed) */
    unkey(f, job, J);
    J->n_plain = 0; /* refiled below */
    for (int lv = L_LEAF; lv <= f->top; lv++) {
        uint32_t nt = 0;
        for (uint32_t k = 0; k < n; k++) {
            uint32_t u = unit_of(f, lv, nodes[k]);
            if (f->count[u]++ == 0)
                f->touched[nt++] = u;
        }
        J->n_e[lv] = 0;
        J->n_special[lv] = 0;
        if (!grow((void **)&J->e[lv], &J->cap_e[lv], nt, sizeof(entry))) {
            for (uint32_t k = 0; k < nt; k++)
                f->count[f->touched[k]] = 0;
            return false;
        }
        for (uint32_t k = 0; k < nt; k++) {
            uint32_t u = f->touched[k];
            uint32_t gpus = f->count[u] * f->G;
            f->count[u] = 0;
            J->e[lv][J->n_e[lv]++] = (entry){.unit = u, .gpus = gpus, .spos = -1,
                                             .a = edges_out(f, J, lv, gpus, J->rep_n, J->rep_stride)};
        }
        /* filed: special ones listed, plain ones counted */
        for (uint32_t k = 0; k < J->n_e[lv]; k++) {
            entry *e = &J->e[lv][k];
            if (is_special(&f->u[lv][e->unit], lv)) {
                if (!grow((void **)&J->special[lv], &J->cap_special[lv], J->n_special[lv] + 1, sizeof(uint32_t)))
                    return false;
                e->spos = (int32_t)J->n_special[lv];
                J->special[lv][J->n_special[lv]++] = k;
            } else if (!plain_add(J, e->gpus, +1)) {
                return false;
            }
        }
    }
    J->placed = true;
    return true;
}

/* The job's entry for unit u of level lv, or -1: the index (a linear
 * search cost a scan of the job's leaves, 640 for the flagship's job, at
 * every node it lost or gained). */
static int64_t find_entry(const dc_fabric *f, int32_t job, int lv, uint32_t u)
{
    uint32_t k;
    return dc_keymap_get(f->entries, entry_key(job, lv, u), &k) ? (int64_t)k : -1;
}

/* A unit's demand and binding after its users or their caps changed; a
 * flip refiles its users' entries and is listed in *fl. */
typedef struct flips {
    uint32_t *u, n, cap;
} flips;

static bool rebind(dc_fabric *f, int lv, uint32_t u, flips *fl)
{
    unit *U = &f->u[lv][u];
    bool b = false, was = unit_hot(U);
    if (U->n_users < 2) {
        U->tracked = false;
    } else {
        if (!U->tracked)
            U->demand = fresh_demand(f, lv, U);
        U->tracked = true;
        b = binds(U);
    }
    bool flip = b != U->binding;
    U->binding = b;
    note_hot(f, U, was);
    if (!flip)
        return true;
    if (!grow((void **)&fl->u, &fl->cap, fl->n + 1, sizeof *fl->u))
        return false;
    fl->u[fl->n++] = (uint32_t)lv << 30 | u;
    for (uint32_t i = 0; i < U->n_users; i++)
        if (!classify(f, f->jobs[U->users[i].job].J, lv, U->users[i].entry))
            return false;
    return true;
}

static bool join_unit(dc_fabric *f, int32_t job, fjob *J, int lv, uint32_t k)
{
    entry *e = &J->e[lv][k];
    unit *U = &f->u[lv][e->unit];
    if (!grow((void **)&U->users, &U->cap_users, U->n_users + 1, sizeof *U->users))
        return false;
    bool was = unit_hot(U);
    e->upos = U->n_users;
    U->users[U->n_users++] = (user){job, k};
    note_hot(f, U, was);
    return true;
}

static void leave_unit(dc_fabric *f, fjob *J, int lv, uint32_t k)
{
    const entry *e = &J->e[lv][k];
    unit *U = &f->u[lv][e->unit];
    bool was = unit_hot(U);
    user last = U->users[--U->n_users];
    note_hot(f, U, was);
    if (e->upos < U->n_users) {
        U->users[e->upos] = last;
        f->jobs[last.job].J->e[lv][last.entry].upos = e->upos;
    }
}

/* One node more (+1) or less (-1) of the job in each of its units; live:
 * the job computes, so its user lists and demands follow (flips listed). */
static bool move_node(dc_fabric *f, int32_t job, fjob *J, uint32_t node, int delta, bool live, flips *fl)
{
    for (int lv = L_LEAF; lv <= f->top; lv++) {
        uint32_t u = unit_of(f, lv, node);
        unit *U = &f->u[lv][u];
        int64_t k = find_entry(f, job, lv, u);
        if (k < 0) {
            if (delta < 0)
                continue;
            if (!grow((void **)&J->e[lv], &J->cap_e[lv], J->n_e[lv] + 1, sizeof(entry))
                || !dc_keymap_put(f->entries, entry_key(job, lv, u), J->n_e[lv]))
                return false;
            k = J->n_e[lv]++;
            J->e[lv][k] = (entry){.unit = u, .gpus = 0, .spos = -1};
            if (!classify(f, J, lv, (uint32_t)k)) /* filed (plain: with 0 GPUs, moved below) */
                return false;
            if (live && !join_unit(f, job, J, lv, (uint32_t)k))
                return false;
        }
        entry *e = &J->e[lv][k];
        if (live && U->tracked && e->a > 0.0)
            U->demand -= e->a * J->cap;
        bool plain = e->spos < 0;
        if (plain && lv == L_LEAF && e->gpus > 0)
            plain_add(J, e->gpus, -1);
        e->gpus = (uint32_t)((int64_t)e->gpus + delta * (int64_t)f->G);
        e->a = edges_out(f, J, lv, e->gpus, J->rep_n, J->rep_stride);
        if (e->gpus > 0) {
            if (plain && lv == L_LEAF && !plain_add(J, e->gpus, +1))
                return false;
            if (live && U->tracked && e->a > 0.0)
                U->demand += e->a * J->cap;
            if (live && !rebind(f, lv, u, fl))
                return false;
            continue;
        }
        /* gone from the unit: drop the entry, the last one takes its place */
        if (live)
            leave_unit(f, J, lv, (uint32_t)k);
        if (!plain) {
            uint32_t last = J->special[lv][--J->n_special[lv]];
            J->special[lv][e->spos] = last;
            J->e[lv][last].spos = e->spos;
        }
        uint32_t last = --J->n_e[lv];
        dc_keymap_remove(f->entries, entry_key(job, lv, u));
        if ((uint32_t)k != last) {
            J->e[lv][k] = J->e[lv][last];
            dc_keymap_put(f->entries, entry_key(job, lv, J->e[lv][k].unit), (uint32_t)k); /* present: no growth */
            if (J->e[lv][k].spos >= 0)
                J->special[lv][J->e[lv][k].spos] = (uint32_t)k;
            if (live)
                f->u[lv][J->e[lv][k].unit].users[J->e[lv][k].upos].entry = (uint32_t)k;
        }
        if (live && !rebind(f, lv, u, fl))
            return false;
    }
    return true;
}

/* The slots whose node differs (at most REPLACE_FEW: more, and the job is
 * placed anew), the node each held and the node it holds now. */
enum { REPLACE_FEW = 16 };
typedef struct {
    uint32_t was[REPLACE_FEW], now[REPLACE_FEW], slot[REPLACE_FEW], n;
} slot_changes;

/* Slot k taken into c; false when c is full. */
static bool note_change(slot_changes *c, const fjob *J, const uint32_t *nodes, uint32_t k)
{
    if (c->n == REPLACE_FEW)
        return false;
    c->slot[c->n] = k;
    c->was[c->n] = J->node_ids[k];
    c->now[c->n++] = nodes[k];
    return true;
}

/* The placement after the job's nodes changed: the nodes it lost and gained
 * only, when they are few (a failed node replaced); else anew.  The
 * cluster's list changes by swapping the lost node's slot with the last and
 * appending the new: the two lists differ in a few slots, and only the nodes
 * of those slots can have come or gone. */
static bool replace(dc_fabric *f, fjob *J, int32_t job, const uint32_t *nodes, uint32_t n, bool live, flips *fl,
                    bool *whole)
{
    *whole = false;
    slot_changes ch;
    ch.n = 0;
    if (!J->placed || f->nodes_per_domain > 1 || n != J->n_nodes)
        goto anew;
    enum { BLOCK = 64, SUB = 8 };
    /* the slots that differ, in order: among those the cluster says were
     * written since the placement (ascending: the same slots in the same
     * order as the scan below finds) */
    for (int h = 0; h < f->n_hint; h++) {
        uint32_t k = f->hint[h];
        if (k < n && J->node_ids[k] != nodes[k] && !note_change(&ch, J, nodes, k))
            goto anew;
    }
    /* else: equal blocks of 64 slots, then of 8 inside a block that
     * differs, skipped by memcmp (most slots are unchanged; a slot-by-slot
     * walk through a block that differs cost 450 instructions) */
    for (uint32_t b = 0; b < n && f->n_hint < 0; b += BLOCK) {
        uint32_t be = n - b < BLOCK ? n : b + BLOCK;
        if (memcmp(J->node_ids + b, nodes + b, (size_t)(be - b) * sizeof *nodes) == 0)
            continue;
        for (uint32_t s = b; s < be; s += SUB) {
            uint32_t se = be - s < SUB ? be : s + SUB;
            if (memcmp(J->node_ids + s, nodes + s, (size_t)(se - s) * sizeof *nodes) == 0)
                continue;
            for (uint32_t k = s; k < se; k++) {
                if (J->node_ids[k] != nodes[k] && !note_change(&ch, J, nodes, k))
                    goto anew;
            }
        }
    }
    if (ch.n > 0 && !key(f, job, J))
        return false;
    for (uint32_t i = 0; i < ch.n; i++) {
        bool kept = false; /* lost, unless it moved to another slot */
        for (uint32_t q = 0; q < ch.n && !kept; q++)
            kept = ch.now[q] == ch.was[i];
        if (!kept) {
            if (f->node_job[ch.was[i]] == job)
                f->node_job[ch.was[i]] = -1;
            if (!move_node(f, job, J, ch.was[i], -1, live, fl))
                return false;
        }
    }
    for (uint32_t i = 0; i < ch.n; i++) {
        bool had = false;
        for (uint32_t q = 0; q < ch.n && !had; q++)
            had = ch.was[q] == ch.now[i];
        if (!had && !move_node(f, job, J, ch.now[i], +1, live, fl))
            return false;
        f->node_job[ch.now[i]] = job;
    }
    /* the other slots hold the same nodes (copying all n cost 5,000
     * instructions a replacement in the flagship) */
    for (uint32_t i = 0; i < ch.n; i++)
        J->node_ids[ch.slot[i]] = ch.now[i];
    J->node_h = node_health_min(f, J);
    return true;
anew:
    *whole = true;
    return live || place(f, J, job, nodes, n);
}

/* ---------- degraded units ---------- */

static void note_degraded(dc_fabric *f, int lv, uint32_t u, bool degraded)
{
    for (uint32_t k = 0; k < f->n_deg; k++)
        if (f->deg[k].level == lv && f->deg[k].unit == u) {
            if (!degraded) {
                f->deg[k] = f->deg[--f->n_deg];
                f->n_deg_nodes -= lv == L_NIC;
            }
            return;
        }
    if (degraded && grow((void **)&f->deg, &f->cap_deg, f->n_deg + 1, sizeof *f->deg)) {
        f->deg[f->n_deg].level = lv;
        f->deg[f->n_deg++].unit = u;
        f->n_deg_nodes += lv == L_NIC;
    }
}

double dc_fabric_worst_in_use(const dc_fabric *f)
{
    double w = 1.0;
    for (uint32_t k = 0; k < f->n_deg; k++) {
        int lv = f->deg[k].level;
        uint32_t u = f->deg[k].unit;
        if (lv == L_NIC) {
            const fjob *J = job_at(f, f->node_job[u]);
            if (J && J->computing && J->nodes > 1)
                w = dmin(w, f->node_health[u]);
        } else if (f->u[lv][u].n_users > 0) {
            w = dmin(w, f->u[lv][u].health);
        }
    }
    return w;
}

/* ---------- components ---------- */

static bool binds(const unit *U)
{
    return U->cap > 0.0 && U->demand > U->cap * (1.0 + BIND_SLACK);
}

static bool push_job(dc_fabric *f, uint32_t *nq, int32_t job)
{
    fjob *J = f->jobs[job].J;
    if (!J || !J->computing || J->mark == f->mark)
        return true;
    if (!grow((void **)&f->qjobs, &f->cap_q, *nq + 1, sizeof *f->qjobs))
        return false;
    J->mark = f->mark;
    f->qjobs[(*nq)++] = job;
    return true;
}

static bool push_unit(dc_fabric *f, uint32_t *nu, uint32_t *nq, int lv, uint32_t u)
{
    unit *U = &f->u[lv][u];
    if (U->mark == f->mark)
        return true;
    U->mark = f->mark;
    if (U->binding) {
        if (!grow((void **)&f->qunits, &f->cap_qu, *nu + 1, sizeof *f->qunits))
            return false;
        U->res = (int32_t)*nu;
        f->qunits[(*nu)++] = (uint32_t)lv << 30 | u;
    }
    for (uint32_t k = 0; k < U->n_users; k++)
        if (!push_job(f, nq, U->users[k].job))
            return false;
    return true;
}

/* Rates of the jobs connected to the seeds through binding units, by
 * max-min; every job of the component is told. */
static bool resolve(dc_fabric *f, const int32_t *seed_jobs, uint32_t n_sj, const uint32_t *seed_units, uint32_t n_su)
{
    f->mark++;
    uint32_t nq = 0, nu = 0;
    for (uint32_t k = 0; k < n_sj; k++)
        if (!push_job(f, &nq, seed_jobs[k]))
            return false;
    for (uint32_t k = 0; k < n_su; k++)
        if (!push_unit(f, &nu, &nq, (int)(seed_units[k] >> 30), seed_units[k] & 0x3fffffffu))
            return false;
    for (uint32_t head = 0; head < nq; head++) {
        fjob *J = f->jobs[f->qjobs[head]].J;
        for (int lv = L_LEAF; lv <= f->top; lv++)
            for (uint32_t k = 0; k < J->n_special[lv]; k++) {
                const entry *e = &J->e[lv][J->special[lv][k]];
                if (f->u[lv][e->unit].binding && !push_unit(f, &nu, &nq, lv, e->unit))
                    return false;
            }
    }
    /* the max-min problem of the component */
    size_t paths = 0;
    for (uint32_t q = 0; q < nq; q++) {
        const fjob *J = f->jobs[f->qjobs[q]].J;
        for (int lv = L_LEAF; lv <= f->top; lv++)
            paths += J->n_special[lv];
    }
    if (!grow_z((void **)&f->capacity, &f->cap_solve_res, nu + 1, sizeof *f->capacity)
        || !grow_z((void **)&f->flows, &f->cap_solve_flows, nq + 1, sizeof *f->flows)
        || !grow_z((void **)&f->res, &f->cap_solve_paths, paths + 1, sizeof *f->res))
        return false;
    /* rate and coefs follow the sizes of flows and res (a realloc only
     * when those grew, not two at every call) */
    if (f->cap_rate < f->cap_solve_flows + 1) {
        double *rate = realloc(f->rate, (f->cap_solve_flows + 1) * sizeof *rate);
        if (!rate)
            return false;
        f->rate = rate;
        f->cap_rate = f->cap_solve_flows + 1;
    }
    if (f->cap_coefs < f->cap_solve_paths + 1) {
        double *coefs = realloc(f->coefs, (f->cap_solve_paths + 1) * sizeof *coefs);
        if (!coefs)
            return false;
        f->coefs = coefs;
        f->cap_coefs = f->cap_solve_paths + 1;
    }
    for (uint32_t r = 0; r < nu; r++) {
        const unit *U = &f->u[f->qunits[r] >> 30][f->qunits[r] & 0x3fffffffu];
        f->capacity[r] = U->cap;
    }
    size_t p = 0;
    for (uint32_t q = 0; q < nq; q++) {
        const fjob *J = f->jobs[f->qjobs[q]].J;
        size_t first = p;
        for (int lv = L_LEAF; lv <= f->top; lv++)
            for (uint32_t k = 0; k < J->n_special[lv]; k++) {
                const entry *e = &J->e[lv][J->special[lv][k]];
                const unit *U = &f->u[lv][e->unit];
                if (U->binding && U->mark == f->mark && e->a > 0.0) {
                    f->res[p] = U->res;
                    f->coefs[p++] = e->a;
                }
            }
        f->flows[q] = (dc_maxmin_flow){f->res + first, p - first, 1.0, J->cap, f->coefs + first};
    }
    size_t work_bytes = dc_maxmin_work_bytes(nu, nq);
    if (nu > 0 && f->cap_work < work_bytes) {
        free(f->work); /* (its contents need not survive) */
        f->work = malloc(work_bytes);
        f->cap_work = f->work ? work_bytes : 0;
        if (!f->work)
            return false;
    }
    if (nu > 0 && dc_maxmin_solve_in(f->work, nu, f->capacity, nq, f->flows, f->rate) != DC_OK)
        return false;
    for (uint32_t q = 0; q < nq; q++) {
        fjob *J = f->jobs[f->qjobs[q]].J;
        J->x = nu > 0 ? f->rate[q] : J->cap;
    }
    for (uint32_t r = 0; r < nu; r++) {
        unit *U = &f->u[f->qunits[r] >> 30][f->qunits[r] & 0x3fffffffu];
        int lv = (int)(f->qunits[r] >> 30);
        double load = 0.0;
        for (uint32_t k = 0; k < U->n_users; k++) {
            const fjob *J = f->jobs[U->users[k].job].J;
            load += J->e[lv][U->users[k].entry].a * J->x;
        }
        U->load = load;
        U->res = -1;
    }
    /* the queue may be reused by a nested call: copy the component first */
    uint32_t n = nq;
    int32_t stack[64], *told = n <= 64 ? stack : malloc((size_t)n * sizeof *told);
    if (!told)
        return false;
    if (n > 0)
        memcpy(told, f->qjobs, (size_t)n * sizeof *told);
    for (uint32_t q = 0; q < n; q++)
        notify_changed(f, told[q]);
    if (told != stack)
        free(told);
    return true;
}

/* ---------- demand ---------- */

/* A unit's demand is kept only while two jobs or more compute on it (one
 * alone never binds: its cap is at most c_U / a_jU), so a job alone on its
 * units starts and stops without arithmetic on them. */
static double fresh_demand(const dc_fabric *f, int lv, const unit *U)
{
    double d = 0.0;
    for (uint32_t k = 0; k < U->n_users; k++) {
        const fjob *K = f->jobs[U->users[k].job].J;
        double a = K->e[lv][U->users[k].entry].a;
        if (a > 0.0)
            d += a * K->cap;
    }
    return d;
}

/* The job's cap went from old_cap to new_cap on each of its units (0: it
 * joined or left their user lists just now): their demands, and the units
 * whose binding flips refiled (their users' entries) and listed. */
static bool shift_demand(dc_fabric *f, fjob *J, double old_cap, double new_cap, uint32_t **flipped, uint32_t *n_fl,
                         uint32_t *cap_fl)
{
    /* no unit shared, tracked or binding: each of the job's units has at
     * most one user, is not tracked and does not bind, as the loop would
     * leave it (a job alone on the fabric: 644 entries in the flagship) */
    if (f->fast && f->n_hot == 0) {
        f->fast_skips++;
        return true;
    }
    for (int lv = L_LEAF; lv <= f->top; lv++)
        for (uint32_t k = 0; k < J->n_e[lv]; k++) {
            const entry *e = &J->e[lv][k];
            unit *U = &f->u[lv][e->unit];
            bool b = false, was = unit_hot(U);
            if (U->n_users < 2) {
                U->tracked = false;
            } else {
                if (!U->tracked)
                    U->demand = fresh_demand(f, lv, U);
                else if (e->a > 0.0)
                    U->demand += e->a * (new_cap - old_cap);
                U->tracked = true;
                b = binds(U);
            }
            bool flip = b != U->binding;
            U->binding = b;
            note_hot(f, U, was);
            if (!flip)
                continue;
            if (!grow((void **)flipped, cap_fl, *n_fl + 1, sizeof **flipped))
                return false;
            (*flipped)[(*n_fl)++] = (uint32_t)lv << 30 | e->unit;
            for (uint32_t i = 0; i < U->n_users; i++)
                if (!classify(f, f->jobs[U->users[i].job].J, lv, U->users[i].entry))
                    return false;
            /* the one that just left is refiled too */
            if (!J->computing && !classify(f, J, lv, k))
                return false;
        }
    return true;
}

/* The leaves and pods of a computing job left at health 0, where it spans
 * more than one: among the degraded units (health < 1, f->deg), those the
 * job is a user of; not a pass over its entries (the flagship's 644). */
static uint32_t count_cut(const dc_fabric *f, int32_t job, const fjob *J)
{
    uint32_t cut = 0;
    for (uint32_t d = 0; d < f->n_deg; d++) {
        int lv = f->deg[d].level;
        if (lv == L_NIC || lv > f->top || J->n_e[lv] <= 1)
            continue;
        const unit *U = &f->u[lv][f->deg[d].unit];
        if (U->health > 0.0)
            continue;
        for (uint32_t k = 0; k < U->n_users; k++)
            if (U->users[k].job == job) {
                cut++;
                break;
            }
    }
    return cut;
}

/* A computing job's nodes changed: its lost and gained nodes' units only. */
static int update(dc_fabric *f, int32_t job, fjob *J, const uint32_t *nodes, uint32_t n, uint64_t gen, bool *whole)
{
    flips fl = {0};
    bool ok = replace(f, J, job, nodes, n, true, &fl, whole);
    if (ok && !*whole) {
        J->gen = gen;
        J->cut_units = count_cut(f, job, J);
        double old = J->cap;
        J->cap = job_ring(f, J, J->rep_n, J->rep_stride, true).bw_Bps;
        if (J->cap != old)
            ok = shift_demand(f, J, old, J->cap, &fl.u, &fl.n, &fl.cap);
        ok = ok && resolve(f, &job, 1, fl.u, fl.n);
    }
    free(fl.u);
    return ok ? DC_OK : DC_ENOMEM;
}

static int fabric_start_now(dc_fabric *f, int32_t job, const uint32_t *nodes, uint32_t n, uint64_t gen)
{
    freg *R = reg_at(f, job);
    if (!R)
        return DC_OK;
    fjob *J = R->J ? R->J : rec_take(f, R);
    if (!J)
        return DC_ENOMEM;
    if (dc_fabric_current(f, job, n, gen))
        return DC_OK; /* the same allocation, as it was */
    if (f->torus) {
        if (!J->placed || J->gen != gen || J->n_nodes != n)
            if (!place(f, J, job, nodes, n))
                return DC_ENOMEM;
        J->gen = gen;
        J->computing = true;
        J->node_h = node_health_min(f, J);
        notify_changed(f, job);
        return DC_OK;
    }
    if (J->computing) {
        bool whole = false;
        int rc = update(f, job, J, nodes, n, gen, &whole);
        if (rc != DC_OK || !whole)
            return rc;
        dc_fabric_stop(f, job); /* too many changes: anew */
    }
    if (!J->placed || J->gen != gen || J->n_nodes != n) {
        bool whole;
        if (!replace(f, J, job, nodes, n, false, NULL, &whole))
            return DC_ENOMEM;
        J->gen = gen;
    }
    J->computing = true;
    /* join the units' user lists; refile what changed while it was away */
    for (int lv = L_LEAF; lv <= f->top; lv++)
        for (uint32_t k = 0; k < J->n_e[lv]; k++) {
            entry *e = &J->e[lv][k];
            if (!join_unit(f, job, J, lv, k))
                return DC_ENOMEM;
            if ((e->spos >= 0) != is_special(&f->u[lv][e->unit], lv) && !classify(f, J, lv, k))
                return DC_ENOMEM;
        }
    J->cut_units = count_cut(f, job, J);
    J->node_h = node_health_min(f, J);
    J->cap = job_ring(f, J, J->rep_n, J->rep_stride, true).bw_Bps;
    J->x = J->cap;
    uint32_t *flipped = NULL, n_fl = 0, cap_fl = 0;
    bool ok = shift_demand(f, J, 0.0, J->cap, &flipped, &n_fl, &cap_fl);
    ok = ok && resolve(f, &job, 1, flipped, n_fl);
    free(flipped);
    return ok ? DC_OK : DC_ENOMEM;
}

int dc_fabric_start(dc_fabric *f, int32_t job, const uint32_t *nodes, uint32_t n, uint64_t gen)
{
    rings_stale(f);
    int rc = fabric_start_now(f, job, nodes, n, gen);
    rings_stale(f);
    return rc;
}

bool dc_fabric_placed_gen(const dc_fabric *f, int32_t job, uint64_t *gen)
{
    const fjob *J = job_at(f, job);
    if (!J || !J->placed)
        return false;
    *gen = J->gen;
    return true;
}

int dc_fabric_start_slots(dc_fabric *f, int32_t job, const uint32_t *nodes, uint32_t n, uint64_t gen,
                          const uint32_t *slots, int n_slots)
{
    f->hint = slots;
    f->n_hint = n_slots;
    int rc = dc_fabric_start(f, job, nodes, n, gen);
    f->hint = NULL;
    f->n_hint = -1;
    return rc;
}

static void fabric_stop_now(dc_fabric *f, int32_t job)
{
    fjob *J = job_at(f, job);
    if (!J || !J->computing)
        return;
    if (f->torus) {
        J->computing = false;
        return;
    }
    /* the units it shared a binding link with: their users' rates change */
    uint32_t *seeds = NULL, n_seeds = 0, cap_seeds = 0;
    bool ok = true;
    for (int lv = L_LEAF; lv <= f->top && ok; lv++)
        for (uint32_t k = 0; k < J->n_special[lv] && ok; k++) {
            uint32_t u = J->e[lv][J->special[lv][k]].unit;
            if (f->u[lv][u].binding) {
                ok = grow((void **)&seeds, &cap_seeds, n_seeds + 1, sizeof *seeds);
                if (ok)
                    seeds[n_seeds++] = (uint32_t)lv << 30 | u;
            }
        }
    /* leave the user lists, then the demand */
    for (int lv = L_LEAF; lv <= f->top; lv++)
        for (uint32_t k = 0; k < J->n_e[lv]; k++)
            leave_unit(f, J, lv, k);
    J->computing = false;
    ok = ok && shift_demand(f, J, J->cap, 0.0, &seeds, &n_seeds, &cap_seeds);
    ok = ok && resolve(f, NULL, 0, seeds, n_seeds);
    free(seeds);
    (void)ok; /* out of memory: the rates stay as they were (the next change recomputes) */
}

void dc_fabric_stop(dc_fabric *f, int32_t job)
{
    rings_stale(f);
    fabric_stop_now(f, job);
    rings_stale(f);
}

static void fabric_retire_now(dc_fabric *f, int32_t job)
{
    freg *R = reg_at(f, job);
    fjob *J = R ? R->J : NULL;
    if (!J)
        return;
    fabric_stop_now(f, job);
    if (!J->node_ids || !grow((void **)&f->spare, &f->cap_spare, f->n_spare + 1, sizeof *f->spare))
        return; /* nothing to hand over, or no room: the arrays stay the job's */
    unkey(f, job, J);
    for (uint32_t k = 0; k < J->n_nodes; k++)
        if (f->node_job[J->node_ids[k]] == job)
            f->node_job[J->node_ids[k]] = -1;
    fjob *S = &f->spare[f->n_spare++];
    *S = (fjob){.node_ids = J->node_ids, .cap_nodes = J->cap_nodes, .nic = J->nic, .cap_nic = J->cap_nic,
                .plain = J->plain, .cap_plain = J->cap_plain};
    for (int lv = 0; lv < N_LV; lv++) {
        S->e[lv] = J->e[lv];
        S->cap_e[lv] = J->cap_e[lv];
        S->special[lv] = J->special[lv];
        S->cap_special[lv] = J->cap_special[lv];
        J->e[lv] = NULL;
        J->special[lv] = NULL;
        J->n_e[lv] = J->cap_e[lv] = J->n_special[lv] = J->cap_special[lv] = 0;
    }
    J->node_ids = NULL;
    J->nic = NULL;
    J->plain = NULL;
    J->n_nodes = J->cap_nodes = J->n_nic = J->cap_nic = J->n_plain = J->cap_plain = 0;
    J->placed = false; /* costed on its ideal placement from now on, as before its first start */
    /* out of play: its size and ring stay, its record serves the next job to start */
    if (!grow((void **)&f->free_recs, &f->cap_free_recs, f->n_free_recs + 1, sizeof *f->free_recs))
        return; /* no room: the record stays the job's */
    R->nodes = J->nodes;
    R->gpu_nodes = (uint32_t)(J->gpus / f->G); /* (exact: gpus is a whole number of nodes' GPUs) */
    R->rep_n = J->rep_n;
    R->rep_stride = J->rep_stride;
    f->free_recs[f->n_free_recs++] = J;
    R->J = NULL;
}

void dc_fabric_retire(dc_fabric *f, int32_t job)
{
    rings_stale(f);
    fabric_retire_now(f, job);
    rings_stale(f);
}

/* ---------- health ---------- */

static void fabric_health_changed_now(dc_fabric *f, const dc_net_change *ch)
{
    f->mark++;
    uint32_t jobs_mark = f->mark;
    int32_t *jobs = NULL;
    uint32_t nj = 0, cap_j = 0;
    uint32_t *units = NULL, nu = 0, cap_u = 0;
    bool ok = true;
    /* the jobs whose units changed, once each */
#define TOUCH_JOB(id)                                                                                              \
    do {                                                                                                           \
        fjob *K_ = job_at(f, (id));                                                                                \
        if (K_ && K_->computing && K_->mark != jobs_mark && ok) {                                                  \
            K_->mark = jobs_mark;                                                                                  \
            ok = grow((void **)&jobs, &cap_j, nj + 1, sizeof *jobs);                                               \
            if (ok)                                                                                                \
                jobs[nj++] = (id);                                                                                 \
        }                                                                                                          \
    } while (0)
    for (int r = 0; r < ch->n_ranges; r++) {
        const dc_net_range *rg = &ch->ranges[r];
        for (uint64_t u = rg->first; u < rg->end; u++) {
            double h = dc_topology_unit_health(f->topo, rg->level, u);
            if (rg->level == L_NIC) {
                if (u >= f->nodes || f->node_health[u] == h)
                    continue;
                f->node_health[u] = h;
                note_degraded(f, L_NIC, (uint32_t)u, h < 1.0);
                TOUCH_JOB(f->node_job[u]);
                continue;
            }
            if (rg->level > f->top || u >= f->n_u[rg->level])
                continue;
            unit *U = &f->u[rg->level][u];
            if (U->health == h)
                continue;
            U->health = h;
            U->cap = U->cap_nom * h;
            note_degraded(f, rg->level, (uint32_t)u, h < 1.0);
            if (ok && grow((void **)&units, &cap_u, nu + 1, sizeof *units))
                units[nu++] = (uint32_t)rg->level << 30 | (uint32_t)u;
            for (uint32_t k = 0; k < U->n_users; k++) {
                TOUCH_JOB(U->users[k].job);
                if (ok)
                    ok = classify(f, f->jobs[U->users[k].job].J, rg->level, U->users[k].entry);
            }
            bool b = binds(U);
            if (b != U->binding) {
                bool was = unit_hot(U);
                U->binding = b;
                note_hot(f, U, was);
                for (uint32_t k = 0; k < U->n_users && ok; k++)
                    ok = classify(f, f->jobs[U->users[k].job].J, rg->level, U->users[k].entry);
            }
        }
    }
#undef TOUCH_JOB
    /* their caps, demands and cuts */
    int32_t *cut = NULL;
    uint32_t n_cut = 0, cap_cut = 0;
    for (uint32_t q = 0; q < nj && ok; q++) {
        fjob *J = f->jobs[jobs[q]].J;
        uint32_t cut_before = J->nodes_cut + J->cut_units;
        J->node_h = node_health_min(f, J);
        J->cut_units = count_cut(f, jobs[q], J);
        if (J->n_nodes <= 1)
            J->nodes_cut = 0; /* one node: its NICs carry nothing of its own */
        if (f->torus) {
            if (J->nodes_cut + J->cut_units > cut_before) {
                ok = grow((void **)&cut, &cap_cut, n_cut + 1, sizeof *cut);
                if (ok)
                    cut[n_cut++] = jobs[q];
            }
            continue;
        }
        double old = J->cap;
        J->cap = job_ring(f, J, J->rep_n, J->rep_stride, true).bw_Bps;
        if (J->cap != old)
            ok = shift_demand(f, J, old, J->cap, &units, &nu, &cap_u);
        if (ok && J->nodes_cut + J->cut_units > cut_before) {
            ok = grow((void **)&cut, &cap_cut, n_cut + 1, sizeof *cut);
            if (ok)
                cut[n_cut++] = jobs[q];
        }
    }
    if (ok && f->torus)
        for (uint32_t q = 0; q < nj; q++)
            notify_changed(f, jobs[q]);
    else if (ok)
        resolve(f, jobs, nj, units, nu);
    for (uint32_t q = 0; q < n_cut; q++)
        notify_cut(f, cut[q]);
    free(jobs);
    free(units);
    free(cut);
}

void dc_fabric_health_changed(dc_fabric *f, const dc_net_change *ch)
{
    rings_stale(f);
    fabric_health_changed_now(f, ch);
    rings_stale(f);
}

void dc_fabric_set_fast(dc_fabric *f, bool on) { f->fast = on; }

uint64_t dc_fabric_fast_skips(const dc_fabric *f) { return f->fast_skips; }
