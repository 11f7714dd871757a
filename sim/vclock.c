/* Virtual clocks: factor integrals banked at changes, and a heap of targets on the last with one engine event.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* See vclock.h.  Targets live in a slab (an index and a generation make
 * the handle, so a stale handle is recognised) and a binary heap of slab
 * indices ordered by (value, order set).  The engine event is scheduled
 * for the heap's top; when the factors change, it is moved only if the
 * top is now due earlier: if later (the factors fell), it stays, and when
 * it runs early it moves itself to the time then due (one push instead of
 * a cancel and a push at every fall). */
#include "vclock.h"

#include <assert.h>
#include <math.h>
#include <stdlib.h>

#include "error.h"
#include "sim.h"

typedef struct target {
    double value;
    uint64_t seq;
    dc_event_fn fn;
    void *ctx;
    uint64_t arg;
    uint32_t pos;  /* in the heap; UINT32_MAX: free */
    uint32_t gen;
    uint32_t next_free;
} target;

struct dc_vclock {
    struct dc_sim *sim;
    size_t n;
    double f[DC_VCLOCK_LEVELS];
    double rate[DC_VCLOCK_LEVELS]; /* prefix products of f */
    double at_s, value[DC_VCLOCK_LEVELS]; /* I_l(at_s) */
    target *t;
    uint32_t *heap;
    uint32_t n_t, cap_t, n_heap, free_head;
    uint64_t seq;
    dc_event_handle ev;
    double ev_at;  /* the event's time, at most due_at */
    double due_at; /* the top target's time at the current rates */
};

#define NO_FREE UINT32_MAX

dc_vclock *dc_vclock_create(struct dc_sim *sim, size_t n)
{
    assert(n >= 1 && n <= DC_VCLOCK_LEVELS);
    dc_vclock *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->sim = sim;
    k->n = n;
    for (size_t l = 0; l < n; l++)
        k->f[l] = k->rate[l] = 1.0;
    k->at_s = dc_sim_now(sim);
    k->free_head = NO_FREE;
    k->ev_at = NAN;
    return k;
}

void dc_vclock_destroy(dc_vclock *k)
{
    if (!k)
        return;
    dc_sim_cancel(k->sim, &k->ev);
    free(k->t);
    free(k->heap);
    free(k);
}

size_t dc_vclock_levels(const dc_vclock *k) { return k->n; }
const double *dc_vclock_factors(const dc_vclock *k) { return k->f; }
size_t dc_vclock_pending(const dc_vclock *k) { return k->n_heap; }

double dc_vclock_value(const dc_vclock *k, size_t level)
{
    double dt = dc_sim_now(k->sim) - k->at_s;
    return dt > 0.0 ? k->value[level] + dt * k->rate[level] : k->value[level];
}

static bool before(const dc_vclock *k, uint32_t a, uint32_t b)
{
    const target *x = &k->t[a], *y = &k->t[b];
    return x->value < y->value || (x->value == y->value && x->seq < y->seq);
}

static void place(dc_vclock *k, uint32_t pos, uint32_t idx)
{
    k->heap[pos] = idx;
    k->t[idx].pos = pos;
}

static void sift_up(dc_vclock *k, uint32_t pos)
{
    uint32_t idx = k->heap[pos];
    while (pos > 0) {
        uint32_t up = (pos - 1) / 2;
        if (!before(k, idx, k->heap[up]))
            break;
        place(k, pos, k->heap[up]);
        pos = up;
    }
    place(k, pos, idx);
}

static void sift_down(dc_vclock *k, uint32_t pos)
{
    uint32_t idx = k->heap[pos];
    for (;;) {
        uint32_t c = 2 * pos + 1;
        if (c >= k->n_heap)
            break;
        if (c + 1 < k->n_heap && before(k, k->heap[c + 1], k->heap[c]))
            c++;
        if (!before(k, k->heap[c], idx))
            break;
        place(k, pos, k->heap[c]);
        pos = c;
    }
    place(k, pos, idx);
}

static void remove_at(dc_vclock *k, uint32_t pos)
{
    uint32_t idx = k->heap[pos];
    k->n_heap--;
    if (pos < k->n_heap) {
        uint32_t moved = k->heap[k->n_heap];
        place(k, pos, moved);
        sift_down(k, pos);
        sift_up(k, k->t[moved].pos);
    }
    target *t = &k->t[idx];
    t->pos = UINT32_MAX;
    t->gen++;
    t->next_free = k->free_head;
    k->free_head = idx;
}

static void on_event(struct dc_sim *sim, void *ctx, uint64_t arg);

/* The top target is due ahead more of the last level's integral after now
 * (at once if none): the engine's event earlier to it, or left where it is
 * when at or after it (the event moves when it runs). */
static void move_event(dc_vclock *k, double now, double ahead)
{
    double at = ahead > 0.0 ? now + ahead / k->rate[k->n - 1] : now;
    k->due_at = at;
    if (k->ev != DC_EVENT_NONE && at >= k->ev_at)
        return;
    dc_sim_cancel(k->sim, &k->ev);
    k->ev_at = at;
    k->ev = dc_sim_at(k->sim, at, on_event, k, 0);
}

/* The engine event at the top target's time (none without targets). */
static void reschedule(dc_vclock *k)
{
    if (k->n_heap == 0) {
        if (k->ev != DC_EVENT_NONE) /* (most clocks set have no targets then: spare the call) */
            dc_sim_cancel(k->sim, &k->ev);
        return;
    }
    double now = dc_sim_now(k->sim);
    move_event(k, now, k->t[k->heap[0]].value - dc_vclock_value(k, k->n - 1));
}

/* The earliest target is reached: it goes, then its callback runs (which
 * may set or cancel targets); the event follows the next one.  An event
 * early for the top (the factors fell since it was set) moves to when the
 * top is due. */
static void on_event(struct dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_vclock *k = ctx;
    (void)arg;
    k->ev = DC_EVENT_NONE;
    if (k->n_heap == 0)
        return;
    if (k->ev_at < k->due_at) {
        k->ev_at = k->due_at;
        k->ev = dc_sim_at(sim, k->due_at, on_event, k, 0);
        return;
    }
    target t = k->t[k->heap[0]];
    remove_at(k, 0);
    reschedule(k);
    t.fn(sim, t.ctx, t.arg);
}

void dc_vclock_set(dc_vclock *k, const double *factors)
{
    if (k->n == 2) { /* (the power model's clocks: the loops below unrolled, the same arithmetic) */
        double f0 = factors[0], f1 = factors[1];
        if (f0 == k->f[0] && f1 == k->f[1])
            return;
        assert(f0 > 0.0 && f0 <= 1.0 && f1 > 0.0 && f1 <= 1.0);
        double now = dc_sim_now(k->sim), dt = now - k->at_s;
        if (dt > 0.0) {
            k->value[0] = k->value[0] + dt * k->rate[0];
            k->value[1] = k->value[1] + dt * k->rate[1];
        }
        k->at_s = now;
        k->f[0] = f0;
        k->f[1] = f1;
        k->rate[0] = f0; /* (1.0 * f0) */
        k->rate[1] = f0 * f1;
        if (k->n_heap > 0) /* reschedule, with I_1(now) = value[1] (banked just now) */
            move_event(k, now, k->t[k->heap[0]].value - k->value[1]);
        else if (k->ev != DC_EVENT_NONE)
            dc_sim_cancel(k->sim, &k->ev);
        return;
    }
    bool same = true;
    for (size_t l = 0; l < k->n; l++)
        same = same && factors[l] == k->f[l];
    if (same)
        return;
    double now = dc_sim_now(k->sim), dt = now - k->at_s;
    if (dt > 0.0) /* dc_vclock_value of each level */
        for (size_t l = 0; l < k->n; l++)
            k->value[l] = k->value[l] + dt * k->rate[l];
    k->at_s = now;
    double r = 1.0;
    for (size_t l = 0; l < k->n; l++) {
        assert(factors[l] > 0.0 && factors[l] <= 1.0);
        k->f[l] = factors[l];
        r *= factors[l];
        k->rate[l] = r;
    }
    reschedule(k);
}

dc_vclock_target dc_vclock_at(dc_vclock *k, double value, dc_event_fn fn, void *ctx, uint64_t arg)
{
    uint32_t idx;
    if (k->free_head != NO_FREE) {
        idx = k->free_head;
        k->free_head = k->t[idx].next_free;
    } else {
        if (k->n_t == k->cap_t) {
            uint32_t cap = k->cap_t ? 2 * k->cap_t : 16;
            target *t = realloc(k->t, cap * sizeof *t);
            uint32_t *h = t ? realloc(k->heap, cap * sizeof *h) : NULL;
            if (t)
                k->t = t;
            if (!h) {
                dc_sim_fail(k->sim, DC_ENOMEM, "out of memory");
                return DC_VCLOCK_NONE;
            }
            k->heap = h;
            k->cap_t = cap;
        }
        idx = k->n_t++;
        k->t[idx].gen = 1;
    }
    target *t = &k->t[idx];
    t->value = value;
    t->seq = k->seq++;
    t->fn = fn;
    t->ctx = ctx;
    t->arg = arg;
    k->heap[k->n_heap] = idx;
    t->pos = k->n_heap++;
    sift_up(k, t->pos);
    if (t->pos == 0)
        reschedule(k);
    return ((uint64_t)t->gen << 32) | (idx + 1);
}

void dc_vclock_cancel(dc_vclock *k, dc_vclock_target *h)
{
    if (*h == DC_VCLOCK_NONE)
        return;
    uint32_t idx = (uint32_t)(*h & 0xffffffffu) - 1, gen = (uint32_t)(*h >> 32);
    *h = DC_VCLOCK_NONE;
    if (idx >= k->n_t || k->t[idx].gen != gen || k->t[idx].pos == UINT32_MAX)
        return;
    bool top = k->t[idx].pos == 0;
    remove_at(k, k->t[idx].pos);
    if (top)
        reschedule(k);
}
