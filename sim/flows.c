/* Fluid transfers sharing capacities max-min fairly, driven by the engine.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "flows.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "maxmin.h"

#define MAX_FLOW_RES 8
#define MAX_LISTENERS 8
/* A resource whose users' caps sum to less than this share of its capacity
 * cannot fill: it binds nobody and joins nobody's component. */
#define LOOSE (1.0 - 1e-9)

typedef struct slot {
    bool live;
    uint32_t gen;
    int res[MAX_FLOW_RES];
    uint32_t pos[MAX_FLOW_RES]; /* its place in each resource's user list */
    size_t n_res;
    double weight, cap, amount, remaining, rate;
    double banked_s;            /* remaining is as of then */
    dc_event_handle done_ev;    /* its completion at the current rate */
    uint32_t mark;              /* component search */
    bool fresh;                 /* started since the last solve (dc_flows_changed) */
    dc_flow_done_fn done;
    void *ctx;
} slot;

typedef struct resource {
    double capacity;
    uint32_t *users;            /* live slots crossing it */
    uint32_t n_users, cap_users;
    double cap_sum;             /* of its users' finite caps */
    uint32_t n_inf;             /* users with no cap */
    uint32_t mark;
    bool dirty;
} resource;

typedef struct listener {
    dc_flow_rerate_fn fn;
    void *ctx;
} listener;

struct dc_flows {
    dc_sim *sim;
    resource *res;
    size_t n_res, res_cap;
    slot *slots;
    size_t n_slots, n_live;
    uint32_t *free_slots;
    size_t n_free;
    listener listeners[MAX_LISTENERS];
    size_t n_listeners;
    int held;
    /* what changed since the last solve: resources and resource-less slots */
    uint32_t *dirty_res, *dirty_slots;
    size_t n_dirty_res, n_dirty_slots, cap_dirty_res, cap_dirty_slots;
    uint32_t marker;
    /* the last solve's transfers whose rate changed (dc_flows_changed) */
    dc_flow_id *changed;
    size_t n_changed, cap_changed;
    /* scratch for a component */
    uint32_t *c_slots, *c_res;
    int *local;                 /* resource -> index in the component, -1 */
    size_t cap_c_slots, cap_c_res;
    /* scratch for a solve, kept between solves (one is made at every change
     * of a flow set: allocating each time cost more than the solve) */
    double *s_cap, *s_r, *s_rates, *s_probe;
    dc_maxmin_flow *s_mf;
    int *s_paths;
    size_t *s_which;
    void *s_work;
    size_t cap_s_cap, cap_s_r, cap_s_rates, cap_s_probe, cap_s_mf, cap_s_paths, cap_s_which, cap_s_work;
};

static dc_flow_id make_id(size_t index, uint32_t gen)
{
    return ((uint64_t)gen << 32) | (uint64_t)(index + 1);
}

static slot *lookup(const dc_flows *fl, dc_flow_id id)
{
    uint64_t index = (id & 0xffffffffu);
    if (index == 0 || index > fl->n_slots)
        return NULL;
    slot *s = &fl->slots[index - 1];
    return s->live && s->gen == (uint32_t)(id >> 32) ? s : NULL;
}

dc_flows *dc_flows_create(dc_sim *sim)
{
    dc_flows *fl = calloc(1, sizeof *fl);
    if (fl)
        fl->sim = sim;
    return fl;
}

void dc_flows_destroy(dc_flows *fl)
{
    if (!fl)
        return;
    for (size_t r = 0; r < fl->n_res; r++)
        free(fl->res[r].users);
    free(fl->res);
    free(fl->slots);
    free(fl->free_slots);
    free(fl->dirty_res);
    free(fl->dirty_slots);
    free(fl->c_slots);
    free(fl->c_res);
    free(fl->local);
    free(fl->changed);
    free(fl->s_cap);
    free(fl->s_r);
    free(fl->s_rates);
    free(fl->s_probe);
    free(fl->s_mf);
    free(fl->s_paths);
    free(fl->s_which);
    free(fl->s_work);
    free(fl);
}

size_t dc_flows_changed(const dc_flows *fl, const dc_flow_id **ids)
{
    *ids = fl->changed;
    return fl->n_changed;
}

size_t dc_flows_slot(dc_flow_id id) { return (size_t)(id & 0xffffffffu) - 1; }

int dc_flows_on_rerate(dc_flows *fl, dc_flow_rerate_fn fn, void *ctx)
{
    if (fl->n_listeners == MAX_LISTENERS)
        return DC_ENOMEM;
    fl->listeners[fl->n_listeners++] = (listener){fn, ctx};
    return DC_OK;
}

static bool grow(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t ncap = *cap ? 2 * *cap : 16;
    while (ncap < need)
        ncap *= 2;
    void *g = realloc(*p, ncap * size);
    if (!g)
        return false;
    *p = g;
    *cap = ncap;
    return true;
}

int dc_flows_add_resource(dc_flows *fl, double capacity)
{
    if (!grow((void **)&fl->res, &fl->res_cap, fl->n_res + 1, sizeof *fl->res))
        return -1;
    int *l = realloc(fl->local, (fl->n_res + 1) * sizeof *l);
    if (!l)
        return -1;
    fl->local = l;
    fl->local[fl->n_res] = -1;
    fl->res[fl->n_res] = (resource){.capacity = capacity > 0.0 ? capacity : 0.0};
    return (int)fl->n_res++;
}

double dc_flows_capacity(const dc_flows *fl, int res)
{
    return fl->res[res].capacity;
}

size_t dc_flows_active(const dc_flows *fl)
{
    return fl->n_live;
}

static void fail(dc_flows *fl)
{
    dc_sim_fail(fl->sim, DC_ENOMEM, "bandwidth sharing failed (out of memory)");
}

static void mark_res(dc_flows *fl, int r)
{
    resource *R = &fl->res[r];
    if (R->dirty)
        return;
    if (!grow((void **)&fl->dirty_res, &fl->cap_dirty_res, fl->n_dirty_res + 1, sizeof *fl->dirty_res)) {
        fail(fl);
        return;
    }
    R->dirty = true;
    fl->dirty_res[fl->n_dirty_res++] = (uint32_t)r;
}

/* Whether resource R can fill: its users' caps (and extra more) may sum
 * to its capacity. */
static bool tight_with(const resource *R, double extra)
{
    return R->n_inf > 0 || !(R->cap_sum + extra < R->capacity * LOOSE);
}

static bool tight(const resource *R)
{
    return tight_with(R, 0.0);
}

/* Slot s changed: it is solved again, with its component. */
static void mark_slot(dc_flows *fl, size_t s)
{
    if (!grow((void **)&fl->dirty_slots, &fl->cap_dirty_slots, fl->n_dirty_slots + 1, sizeof *fl->dirty_slots)) {
        fail(fl);
        return;
    }
    fl->dirty_slots[fl->n_dirty_slots++] = (uint32_t)s;
}

/* Slot s's resources that can fill now: marked (their users may share
 * differently once s changes). */
static void mark_tight(dc_flows *fl, size_t s)
{
    slot *S = &fl->slots[s];
    for (size_t k = 0; k < S->n_res; k++)
        if (tight(&fl->res[S->res[k]]))
            mark_res(fl, S->res[k]);
}

static void add_cap(resource *R, double cap, int sign)
{
    if (isfinite(cap))
        R->cap_sum += sign * cap;
    else
        R->n_inf += (uint32_t)sign;
    if (R->n_users == 0)
        R->cap_sum = 0.0, R->n_inf = 0; /* no residue */
}

static void bank_slot(dc_flows *fl, slot *s, double now)
{
    double dt = now - s->banked_s;
    if (dt > 0.0 && isfinite(s->remaining)) {
        s->remaining -= s->rate * dt;
        if (s->remaining < 0.0)
            s->remaining = 0.0;
    }
    s->banked_s = now;
}

/* The component of the seeds (resources and slots) through resources that
 * can fill, into c_slots / c_res (marked with the current marker).  A seed
 * resource joins all its users (it was tight before a change) unless
 * probe_cap is finite (a probe: the resources it would make tight join).
 * false when out of memory. */
static bool component(dc_flows *fl, const uint32_t *seed_res, size_t n_seed_res, const uint32_t *seed_slots,
                      size_t n_seed_slots, double probe_cap, size_t *ns, size_t *nr)
{
    uint32_t m = ++fl->marker;
    size_t n_s = 0, n_r = 0;
#define PUSH_RES(r)                                                                                                   \
    do {                                                                                                             \
        if (fl->res[r].mark != m) {                                                                                  \
            fl->res[r].mark = m;                                                                                     \
            if (!grow((void **)&fl->c_res, &fl->cap_c_res, n_r + 1, sizeof *fl->c_res))                              \
                return false;                                                                                        \
            fl->c_res[n_r++] = (uint32_t)(r);                                                                        \
        }                                                                                                            \
    } while (0)
#define PUSH_SLOT(s)                                                                                                  \
    do {                                                                                                             \
        if (fl->slots[s].mark != m) {                                                                                \
            fl->slots[s].mark = m;                                                                                   \
            if (!grow((void **)&fl->c_slots, &fl->cap_c_slots, n_s + 1, sizeof *fl->c_slots))                        \
                return false;                                                                                        \
            fl->c_slots[n_s++] = (uint32_t)(s);                                                                      \
        }                                                                                                            \
    } while (0)
    for (size_t i = 0; i < n_seed_res; i++)
        PUSH_RES(seed_res[i]);
    size_t n_seeds = n_r;
    for (size_t i = 0; i < n_seed_slots; i++)
        if (fl->slots[seed_slots[i]].live)
            PUSH_SLOT(seed_slots[i]);
    /* Breadth first: a resource that can fill joins its users; a slot
     * joins its resources.  A loose resource's users are reached only
     * through others (it is in c_res, but binds nobody). */
    size_t ir = 0, is = 0;
    while (ir < n_r || is < n_s) {
        while (ir < n_r) {
            bool seed = ir < n_seeds;
            const resource *R = &fl->res[fl->c_res[ir++]];
            if (seed ? !isinf(probe_cap) && !tight_with(R, probe_cap) : !tight(R))
                continue;
            for (uint32_t u = 0; u < R->n_users; u++)
                PUSH_SLOT(R->users[u]);
        }
        while (is < n_s) {
            const slot *S = &fl->slots[fl->c_slots[is++]];
            for (size_t k = 0; k < S->n_res; k++)
                PUSH_RES(S->res[k]);
        }
    }
#undef PUSH_RES
#undef PUSH_SLOT
    *ns = n_s;
    *nr = n_r;
    return true;
}

/* Solves the component's slots (plus, if extra is set, one more flow) over
 * its resources that can fill; rates go to out (component order, then
 * extra's).  DC_OK or an error. */
static int solve_component(dc_flows *fl, size_t n_s, size_t n_r, const dc_maxmin_flow *extra, double *out)
{
    size_t nl = 0;
    size_t n_all = n_s + (extra ? 1 : 0), nm = 0;
    if (!grow((void **)&fl->s_cap, &fl->cap_s_cap, n_r + 1, sizeof *fl->s_cap)
        || !grow((void **)&fl->s_mf, &fl->cap_s_mf, n_all + 1, sizeof *fl->s_mf)
        || !grow((void **)&fl->s_paths, &fl->cap_s_paths, (n_all + 1) * (MAX_FLOW_RES + 1), sizeof *fl->s_paths)
        || !grow((void **)&fl->s_which, &fl->cap_s_which, n_all + 1, sizeof *fl->s_which)
        || !grow((void **)&fl->s_r, &fl->cap_s_r, n_all + 1, sizeof *fl->s_r)
        || !grow(&fl->s_work, &fl->cap_s_work, dc_maxmin_work_bytes(n_r, n_all), 1))
        return DC_ENOMEM;
    double *cap = fl->s_cap, *r = fl->s_r;
    dc_maxmin_flow *mf = fl->s_mf;
    int *paths = fl->s_paths;
    size_t *which = fl->s_which;
    for (size_t i = 0; i < n_r; i++) {
        resource *R = &fl->res[fl->c_res[i]];
        bool on_extra = false;
        for (size_t k = 0; extra && k < extra->n_res; k++)
            on_extra = on_extra || (uint32_t)extra->res[k] == fl->c_res[i];
        if (on_extra ? tight_with(R, extra->cap) : tight(R)) {
            fl->local[fl->c_res[i]] = (int)nl;
            cap[nl++] = R->capacity;
        }
    }
    /* Flows that cross no resource that can fill get their cap (as a
     * flow alone: w (cap / w)); the others are solved together. */
    for (size_t i = 0; i < n_all; i++) {
        const int *res = i < n_s ? fl->slots[fl->c_slots[i]].res : extra->res;
        size_t nres = i < n_s ? fl->slots[fl->c_slots[i]].n_res : extra->n_res;
        double w = i < n_s ? fl->slots[fl->c_slots[i]].weight : extra->weight;
        double c = i < n_s ? fl->slots[fl->c_slots[i]].cap : extra->cap;
        int *p = paths + i * (MAX_FLOW_RES + 1);
        size_t n = 0;
        for (size_t k = 0; k < nres; k++)
            if (fl->local[res[k]] >= 0)
                p[n++] = fl->local[res[k]];
        if (n == 0) {
            out[i] = isfinite(c) ? w * (c / w) : INFINITY;
            continue;
        }
        which[nm] = i;
        mf[nm++] = (dc_maxmin_flow){p, n, w, c, NULL};
    }
    int rc = dc_maxmin_solve_in(fl->s_work, nl, cap, nm, mf, r);
    for (size_t k = 0; rc == DC_OK && k < nm; k++)
        out[which[k]] = r[k];
    for (size_t i = 0; i < n_r; i++)
        fl->local[fl->c_res[i]] = -1;
    return rc;
}

static void on_complete(dc_sim *sim, void *ctx, uint64_t arg);

/* Solves again what changed since the last solve (the components of the
 * dirty resources and slots), banks their progress, reschedules their
 * completions, tells listeners. */
static void rerate(dc_flows *fl)
{
    if (fl->held > 0)
        return;
    if (fl->n_dirty_res == 0 && fl->n_dirty_slots == 0)
        return;
    size_t n_s, n_r;
    bool ok = component(fl, fl->dirty_res, fl->n_dirty_res, fl->dirty_slots, fl->n_dirty_slots, INFINITY, &n_s,
                        &n_r);
    for (size_t i = 0; i < fl->n_dirty_res; i++)
        fl->res[fl->dirty_res[i]].dirty = false;
    fl->n_dirty_res = fl->n_dirty_slots = 0;
    ok = ok && grow((void **)&fl->changed, &fl->cap_changed, n_s + 1, sizeof *fl->changed);
    ok = ok && grow((void **)&fl->s_rates, &fl->cap_s_rates, n_s + 1, sizeof *fl->s_rates);
    double *rates = fl->s_rates;
    int rc = ok ? solve_component(fl, n_s, n_r, NULL, rates) : DC_ENOMEM;
    if (rc != DC_OK) {
        dc_sim_fail(fl->sim, rc, "bandwidth sharing failed (%s)", rc == DC_ENOMEM ? "out of memory" : "bad input");
        return;
    }
    double now = dc_sim_now(fl->sim);
    fl->n_changed = 0;
    for (size_t i = 0; i < n_s; i++) {
        size_t idx = fl->c_slots[i];
        slot *s = &fl->slots[idx];
        bank_slot(fl, s, now);
        if (s->fresh || rates[i] != s->rate)
            fl->changed[fl->n_changed++] = make_id(idx, s->gen);
        s->fresh = false;
        s->rate = rates[i];
        dc_sim_cancel(fl->sim, &s->done_ev);
        if (isfinite(s->remaining) && s->rate > 0.0)
            s->done_ev = dc_sim_after(fl->sim, s->remaining / s->rate, on_complete, fl, idx);
    }
    for (size_t i = 0; i < fl->n_listeners; i++)
        fl->listeners[i].fn(fl->sim, fl->listeners[i].ctx);
}

void dc_flows_hold(dc_flows *fl)
{
    fl->held++;
}

void dc_flows_release(dc_flows *fl)
{
    if (fl->held > 0 && --fl->held == 0)
        rerate(fl);
}

void dc_flows_set_capacity(dc_flows *fl, int res, double capacity)
{
    capacity = capacity > 0.0 ? capacity : 0.0;
    if (fl->res[res].capacity == capacity)
        return;
    bool was = tight(&fl->res[res]);
    fl->res[res].capacity = capacity;
    if (was || tight(&fl->res[res]))
        mark_res(fl, res);
    rerate(fl);
}

/* Adds or removes slot s from its resources' user lists. */
static bool attach(dc_flows *fl, size_t s)
{
    slot *S = &fl->slots[s];
    for (size_t k = 0; k < S->n_res; k++) {
        resource *R = &fl->res[S->res[k]];
        size_t cap = R->cap_users;
        if (!grow((void **)&R->users, &cap, (size_t)R->n_users + 1, sizeof *R->users))
            return false;
        R->cap_users = (uint32_t)cap;
        S->pos[k] = R->n_users;
        R->users[R->n_users++] = (uint32_t)s;
        add_cap(R, S->cap, 1);
    }
    return true;
}

static void detach(dc_flows *fl, size_t s)
{
    slot *S = &fl->slots[s];
    for (size_t k = 0; k < S->n_res; k++) {
        resource *R = &fl->res[S->res[k]];
        uint32_t at = S->pos[k], last = R->users[--R->n_users];
        add_cap(R, S->cap, -1);
        R->users[at] = last;
        if (last != s) {
            slot *L = &fl->slots[last];
            for (size_t q = 0; q < L->n_res; q++)
                if (L->res[q] == S->res[k]) {
                    L->pos[q] = at;
                    break;
                }
        }
    }
}

dc_flow_id dc_flows_start(dc_flows *fl, const int *res, size_t n_res, double weight,
                          double cap, double amount, dc_flow_done_fn done, void *ctx)
{
    if (n_res > MAX_FLOW_RES || !(weight > 0.0) || !(amount > 0.0)) {
        dc_sim_fail(fl->sim, DC_EINTERNAL, "a transfer needs at most %d resources, a positive weight and amount",
                    MAX_FLOW_RES);
        return DC_FLOW_NONE;
    }
    size_t index;
    if (fl->n_free > 0) {
        index = fl->free_slots[--fl->n_free];
    } else {
        slot *g = realloc(fl->slots, (fl->n_slots + 1) * sizeof *g);
        if (!g) {
            dc_sim_fail(fl->sim, DC_ENOMEM, "out of memory starting a transfer");
            return DC_FLOW_NONE;
        }
        fl->slots = g;
        fl->slots[fl->n_slots] = (slot){.gen = 0};
        index = fl->n_slots++;
        uint32_t *f = realloc(fl->free_slots, fl->n_slots * sizeof *f);
        if (!f) {
            dc_sim_fail(fl->sim, DC_ENOMEM, "out of memory starting a transfer");
            return DC_FLOW_NONE;
        }
        fl->free_slots = f;
    }
    slot *s = &fl->slots[index];
    uint32_t gen = s->gen + 1;
    *s = (slot){.live = true, .gen = gen, .n_res = n_res, .weight = weight, .cap = cap >= 0.0 ? cap : 0.0,
                .amount = amount, .remaining = amount, .banked_s = dc_sim_now(fl->sim), .mark = 0, .fresh = true, .done = done,
                .ctx = ctx};
    memcpy(s->res, res, n_res * sizeof *res);
    if (!attach(fl, index)) {
        dc_sim_fail(fl->sim, DC_ENOMEM, "out of memory starting a transfer");
        return DC_FLOW_NONE;
    }
    fl->n_live++;
    mark_slot(fl, index);
    mark_tight(fl, index);
    rerate(fl);
    return make_id(index, gen);
}

/* Removes a live slot (its resources are marked for the next solve). */
static void remove_slot(dc_flows *fl, size_t index)
{
    slot *s = &fl->slots[index];
    dc_sim_cancel(fl->sim, &s->done_ev);
    mark_tight(fl, index);
    detach(fl, index);
    s->live = false;
    fl->n_live--;
    fl->free_slots[fl->n_free++] = (uint32_t)index;
}

void dc_flows_stop(dc_flows *fl, dc_flow_id id)
{
    slot *s = lookup(fl, id);
    if (!s)
        return;
    remove_slot(fl, (size_t)(s - fl->slots));
    rerate(fl);
}

void dc_flows_set_cap(dc_flows *fl, dc_flow_id id, double cap)
{
    slot *s = lookup(fl, id);
    cap = cap >= 0.0 ? cap : 0.0;
    if (!s || s->cap == cap)
        return;
    size_t idx = (size_t)(s - fl->slots);
    mark_tight(fl, idx); /* before: tight then */
    for (size_t k = 0; k < s->n_res; k++)
        add_cap(&fl->res[s->res[k]], s->cap, -1), add_cap(&fl->res[s->res[k]], cap, 1);
    s->cap = cap;
    mark_slot(fl, idx);
    mark_tight(fl, idx); /* and after */
    rerate(fl);
}

double dc_flows_rate(const dc_flows *fl, dc_flow_id id)
{
    const slot *s = lookup(fl, id);
    return s ? s->rate : 0.0;
}

double dc_flows_remaining(const dc_flows *fl, dc_flow_id id)
{
    const slot *s = lookup(fl, id);
    if (!s)
        return 0.0;
    double left = s->remaining - s->rate * (dc_sim_now(fl->sim) - s->banked_s);
    return left > 0.0 ? left : 0.0;
}

double dc_flows_probe(const dc_flows *fl, const int *res, size_t n_res, double weight, double cap)
{
    dc_flows *m = (dc_flows *)fl; /* scratch only: the allocation is untouched */
    uint32_t seeds[MAX_FLOW_RES];
    if (n_res > MAX_FLOW_RES)
        return NAN;
    for (size_t k = 0; k < n_res; k++)
        seeds[k] = (uint32_t)res[k];
    size_t n_s, n_r;
    if (!component(m, seeds, n_res, NULL, 0, cap, &n_s, &n_r))
        return NAN;
    /* The new flow's resources count whether or not they can fill now. */
    dc_maxmin_flow extra = {res, n_res, weight, cap, NULL};
    if (!grow((void **)&m->s_probe, &m->cap_s_probe, n_s + 2, sizeof *m->s_probe))
        return NAN;
    return solve_component(m, n_s, n_r, &extra, m->s_probe) == DC_OK ? m->s_probe[n_s] : NAN;
}

/* Slot arg's transfer is due: it and the others of its component that are
 * done now complete together. */
static void on_complete(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_flows *fl = ctx;
    fl->slots[arg].done_ev = DC_EVENT_NONE;
    double now = dc_sim_now(sim);
    uint32_t seed = (uint32_t)arg;
    size_t n_s, n_r;
    if (!component(fl, NULL, 0, &seed, 1, INFINITY, &n_s, &n_r)) {
        fail(fl);
        return;
    }
    enum { MAX_DONE = 64 };
    struct {
        dc_flow_done_fn fn;
        void *ctx;
        dc_flow_id id;
    } done[MAX_DONE];
    size_t n_done = 0;
    for (size_t i = 0; i < n_s && n_done < MAX_DONE; i++) {
        size_t idx = fl->c_slots[i];
        slot *s = &fl->slots[idx];
        bank_slot(fl, s, now);
        if (!isfinite(s->remaining))
            continue;
        /* The tolerance grows with the clock so that a completion never
         * lands closer to now than the clock can resolve. */
        if (idx == arg || s->remaining <= 1e-12 * s->amount || s->remaining <= s->rate * 1e-12 * (1.0 + now)) {
            done[n_done].fn = s->done;
            done[n_done].ctx = s->ctx;
            done[n_done].id = make_id(idx, s->gen);
            n_done++;
            remove_slot(fl, idx);
        }
    }
    rerate(fl);
    for (size_t i = 0; i < n_done; i++)
        if (done[i].fn)
            done[i].fn(sim, done[i].ctx, done[i].id);
}
