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

typedef struct slot {
    bool live;
    uint32_t gen;
    int res[MAX_FLOW_RES];
    size_t n_res;
    double weight, cap, amount, remaining, rate;
    dc_flow_done_fn done;
    void *ctx;
} slot;

typedef struct listener {
    dc_flow_rerate_fn fn;
    void *ctx;
} listener;

struct dc_flows {
    dc_sim *sim;
    double *capacity;
    size_t n_res, res_cap;
    slot *slots;
    size_t n_slots, n_live;
    double banked_s;
    dc_event_handle next;
    listener listeners[MAX_LISTENERS];
    size_t n_listeners;
    int held;
    bool dirty;
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
    free(fl->capacity);
    free(fl->slots);
    free(fl);
}

int dc_flows_on_rerate(dc_flows *fl, dc_flow_rerate_fn fn, void *ctx)
{
    if (fl->n_listeners == MAX_LISTENERS)
        return DC_ENOMEM;
    fl->listeners[fl->n_listeners++] = (listener){fn, ctx};
    return DC_OK;
}

int dc_flows_add_resource(dc_flows *fl, double capacity)
{
    if (fl->n_res == fl->res_cap) {
        size_t ncap = fl->res_cap ? 2 * fl->res_cap : 8;
        double *g = realloc(fl->capacity, ncap * sizeof *g);
        if (!g)
            return -1;
        fl->capacity = g;
        fl->res_cap = ncap;
    }
    fl->capacity[fl->n_res] = capacity > 0.0 ? capacity : 0.0;
    return (int)fl->n_res++;
}

double dc_flows_capacity(const dc_flows *fl, int res)
{
    return fl->capacity[res];
}

size_t dc_flows_active(const dc_flows *fl)
{
    return fl->n_live;
}

static void bank(dc_flows *fl)
{
    double now = dc_sim_now(fl->sim);
    double dt = now - fl->banked_s;
    if (dt > 0.0)
        for (size_t i = 0; i < fl->n_slots; i++) {
            slot *s = &fl->slots[i];
            if (s->live && isfinite(s->remaining)) {
                s->remaining -= s->rate * dt;
                if (s->remaining < 0.0)
                    s->remaining = 0.0;
            }
        }
    fl->banked_s = now;
}

/* Solves for the live slots plus, if extra is set, one more flow; rates go
 * to out (one per live slot in slot order, then extra's).  DC_OK or an error. */
static int solve(const dc_flows *fl, const dc_maxmin_flow *extra, double *out)
{
    size_t n = fl->n_live + (extra ? 1 : 0);
    dc_maxmin_flow *mf = malloc((n + 1) * sizeof *mf);
    if (!mf)
        return DC_ENOMEM;
    size_t k = 0;
    for (size_t i = 0; i < fl->n_slots; i++) {
        const slot *s = &fl->slots[i];
        if (s->live)
            mf[k++] = (dc_maxmin_flow){s->res, s->n_res, s->weight, s->cap, NULL};
    }
    if (extra)
        mf[k++] = *extra;
    int rc = dc_maxmin_solve(fl->n_res, fl->capacity, k, mf, out);
    free(mf);
    return rc;
}

static void on_complete(dc_sim *sim, void *ctx, uint64_t arg);

/* Banks progress, solves, schedules the next completion, tells listeners. */
static void rerate(dc_flows *fl)
{
    bank(fl);
    if (fl->held > 0) {
        fl->dirty = true;
        return;
    }
    fl->dirty = false;
    dc_sim_cancel(fl->sim, &fl->next);
    double *rates = malloc((fl->n_live + 1) * sizeof *rates);
    int rc = rates ? solve(fl, NULL, rates) : DC_ENOMEM;
    if (rc != DC_OK) {
        free(rates);
        dc_sim_fail(fl->sim, rc, "bandwidth sharing failed (%s)", rc == DC_ENOMEM ? "out of memory" : "bad input");
        return;
    }
    double first = INFINITY;
    size_t k = 0;
    for (size_t i = 0; i < fl->n_slots; i++) {
        slot *s = &fl->slots[i];
        if (!s->live)
            continue;
        s->rate = rates[k++];
        if (isfinite(s->remaining) && s->rate > 0.0) {
            double t = s->remaining / s->rate;
            if (t < first)
                first = t;
        }
    }
    free(rates);
    if (isfinite(first))
        fl->next = dc_sim_after(fl->sim, first, on_complete, fl, 0);
    for (size_t i = 0; i < fl->n_listeners; i++)
        fl->listeners[i].fn(fl->sim, fl->listeners[i].ctx);
}

void dc_flows_hold(dc_flows *fl)
{
    fl->held++;
}

void dc_flows_release(dc_flows *fl)
{
    if (fl->held > 0 && --fl->held == 0 && fl->dirty)
        rerate(fl);
}

void dc_flows_set_capacity(dc_flows *fl, int res, double capacity)
{
    capacity = capacity > 0.0 ? capacity : 0.0;
    if (fl->capacity[res] == capacity)
        return;
    bank(fl);
    fl->capacity[res] = capacity;
    rerate(fl);
}

dc_flow_id dc_flows_start(dc_flows *fl, const int *res, size_t n_res, double weight,
                          double cap, double amount, dc_flow_done_fn done, void *ctx)
{
    if (n_res > MAX_FLOW_RES || !(weight > 0.0) || !(amount > 0.0)) {
        dc_sim_fail(fl->sim, DC_EINTERNAL, "a transfer needs at most %d resources, a positive weight and amount",
                    MAX_FLOW_RES);
        return DC_FLOW_NONE;
    }
    size_t index = fl->n_slots;
    for (size_t i = 0; i < fl->n_slots; i++)
        if (!fl->slots[i].live) {
            index = i;
            break;
        }
    if (index == fl->n_slots) {
        slot *g = realloc(fl->slots, (fl->n_slots + 1) * sizeof *g);
        if (!g) {
            dc_sim_fail(fl->sim, DC_ENOMEM, "out of memory starting a transfer");
            return DC_FLOW_NONE;
        }
        fl->slots = g;
        fl->slots[fl->n_slots++] = (slot){.gen = 0};
    }
    bank(fl);
    slot *s = &fl->slots[index];
    uint32_t gen = s->gen + 1;
    *s = (slot){.live = true, .gen = gen, .n_res = n_res, .weight = weight, .cap = cap >= 0.0 ? cap : 0.0,
                .amount = amount, .remaining = amount, .done = done, .ctx = ctx};
    memcpy(s->res, res, n_res * sizeof *res);
    fl->n_live++;
    rerate(fl);
    return make_id(index, gen);
}

void dc_flows_stop(dc_flows *fl, dc_flow_id id)
{
    slot *s = lookup(fl, id);
    if (!s)
        return;
    bank(fl);
    s->live = false;
    fl->n_live--;
    rerate(fl);
}

void dc_flows_set_cap(dc_flows *fl, dc_flow_id id, double cap)
{
    slot *s = lookup(fl, id);
    cap = cap >= 0.0 ? cap : 0.0;
    if (!s || s->cap == cap)
        return;
    bank(fl);
    s->cap = cap;
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
    double left = s->remaining - s->rate * (dc_sim_now(fl->sim) - fl->banked_s);
    return left > 0.0 ? left : 0.0;
}

double dc_flows_probe(const dc_flows *fl, const int *res, size_t n_res, double weight, double cap)
{
    dc_maxmin_flow extra = {res, n_res, weight, cap, NULL};
    double *rates = malloc((fl->n_live + 2) * sizeof *rates);
    if (!rates)
        return NAN;
    double r = solve(fl, &extra, rates) == DC_OK ? rates[fl->n_live] : NAN;
    free(rates);
    return r;
}

static void on_complete(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_flows *fl = ctx;
    fl->next = DC_EVENT_NONE;
    bank(fl);
    enum { MAX_DONE = 64 };
    struct {
        dc_flow_done_fn fn;
        void *ctx;
        dc_flow_id id;
    } done[MAX_DONE];
    size_t n_done = 0;
    for (size_t i = 0; i < fl->n_slots && n_done < MAX_DONE; i++) {
        slot *s = &fl->slots[i];
        if (!s->live || !isfinite(s->remaining))
            continue;
        /* The tolerance grows with the clock so that a completion never
         * lands closer to now than the clock can resolve. */
        if (s->remaining <= 1e-12 * s->amount || s->remaining <= s->rate * 1e-12 * (1.0 + dc_sim_now(sim))) {
            s->live = false;
            fl->n_live--;
            done[n_done].fn = s->done;
            done[n_done].ctx = s->ctx;
            done[n_done].id = make_id(i, s->gen);
            n_done++;
        }
    }
    rerate(fl);
    for (size_t i = 0; i < n_done; i++)
        if (done[i].fn)
            done[i].fn(sim, done[i].ctx, done[i].id);
}
