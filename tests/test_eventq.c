/* Tests: the event queue against a reference heap.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Tests of the event queue (sim/eventq.c).
 *
 * Most tests use the library's dc_eventq through eventq.h.  A second copy of
 * eventq.c is compiled into this file under the prefix wb_ ("white box") with
 * a 6-bit sequence space, a 48-slot pool and an allocator that fails on
 * demand, so that sequence renumbering, the pool limit and allocation failure
 * -- which the real queue reaches only after billions of pushes or when the
 * machine runs out of memory -- are exercised too, and its internals
 * (heap order, sentinels, dead entries, free list) can be checked directly. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "eventq.h"
#include "testutil.h"

/* ------------------------------------------------------------------------ */
/* The white-box copy. */

static int wb_alloc_fail; /* the next allocation of the copy fails if set */

static void *wb_alloc(size_t size)
{
    if (wb_alloc_fail) {
        wb_alloc_fail = 0;
        return NULL;
    }
    return aligned_alloc(64, size);
}

#define DC_EVENTQ_SEQ_BITS 6
#define DC_EVENTQ_MAX_SLOTS 48
#define DC_EVENTQ_KEEP_HOLE_MIN 4
#define DC_EVENTQ_ALLOC(size) wb_alloc(size)
#define DC_EVENTQ_FREE(p) free(p)
#define dc_eventq wb_eventq
#define dc_eventq_create wb_eventq_create
#define dc_eventq_destroy wb_eventq_destroy
#define dc_eventq_push wb_eventq_push
#define dc_eventq_pop wb_eventq_pop
#define dc_eventq_pop_until wb_eventq_pop_until
#define dc_eventq_cancel wb_eventq_cancel
#define dc_eventq_is_pending wb_eventq_is_pending
#define dc_eventq_peek_time wb_eventq_peek_time
#define dc_eventq_size wb_eventq_size
#define dc_eventq_may_be_due wb_eventq_may_be_due
#define dc_eventq_reserve wb_eventq_reserve
#define dc_eventq_push_reserved wb_eventq_push_reserved

typedef struct wb_eventq wb_eventq;
wb_eventq *wb_eventq_create(size_t capacity_hint);
void wb_eventq_destroy(wb_eventq *q);
int wb_eventq_push(wb_eventq *q, double time_s, dc_event_fn fn, void *ctx, uint64_t arg,
                   dc_event_handle *handle);
bool wb_eventq_pop(wb_eventq *q, dc_event *out);
bool wb_eventq_pop_until(wb_eventq *q, double limit_s, dc_event *out);
bool wb_eventq_cancel(wb_eventq *q, dc_event_handle handle);
bool wb_eventq_is_pending(const wb_eventq *q, dc_event_handle handle);
double wb_eventq_peek_time(wb_eventq *q);
size_t wb_eventq_size(const wb_eventq *q);
bool wb_eventq_may_be_due(const wb_eventq *q);
int wb_eventq_reserve(wb_eventq *q, uint64_t n, size_t *id);
int wb_eventq_push_reserved(wb_eventq *q, size_t id, uint64_t i, double time_s, dc_event_fn fn, void *ctx,
                            uint64_t arg, dc_event_handle *handle);

#include "eventq.c"

#undef dc_eventq
#undef dc_eventq_create
#undef dc_eventq_destroy
#undef dc_eventq_push
#undef dc_eventq_pop
#undef dc_eventq_pop_until
#undef dc_eventq_cancel
#undef dc_eventq_is_pending
#undef dc_eventq_peek_time
#undef dc_eventq_size
#undef dc_eventq_may_be_due
#undef dc_eventq_reserve
#undef dc_eventq_push_reserved

/* Checks every internal invariant of the copy: heap order, sentinels past
 * the entries, one live entry per pending slot, and that each slot handed
 * out is pending, free (once) or retired. */
static size_t wb_standins_seen; /* stand-in entries met by wb_consistent, to show a run exercised them */
static size_t wb_holes_left;    /* times wb_consistent met a hole left under entries added since the pop */
static size_t wb_fast_seen;     /* times wb_consistent met a pop's hole waiting for the engine's push */

static bool wb_consistent(const wb_eventq *q)
{
    if (q->n + q->fifo_n < q->live + q->hole || q->n > q->heap_cap || q->used > q->cap ||
        q->next_seq > SEQ_END || q->fifo_n > q->fifo_cap)
        return false;
    size_t live_entries = 0, entries_known = 0, slots_with_entry = 0;
    /* the FIFO: one time, in sequence order */
    for (size_t i = 0; i < q->fifo_n; i++) {
        const heap_entry *e = &q->fifo[(q->fifo_head + i) & (q->fifo_cap - 1)];
        const heap_entry *first = &q->fifo[q->fifo_head];
        if (entry_slot(e) >= q->used || entry_seq(e) >= q->next_seq || e->time != first->time ||
            (i > 0 && entry_seq(e) <= entry_seq(e - (e == q->fifo ? 1 - (ptrdiff_t)q->fifo_cap : 1))))
            return false;
        live_entries += is_live(q, e);
    }
    for (size_t j = ROOT + q->hole; j < ROOT + q->n; j++) {
        const heap_entry *e = &q->heap[j];
        uint32_t s = entry_slot(e);
        if (s >= q->used || entry_seq(e) >= q->next_seq)
            return false;
        live_entries += is_live(q, e) || is_standin(q, e);
        wb_standins_seen += is_standin(q, e);
        entries_known += q->slots[s].eseq == entry_seq(e);
        if (is_live(q, e) && q->slots[s].eseq != entry_seq(e))
            return false; /* a pending event's slot knows its entry */
        size_t p = q->n > TWIN_N ? j / 4 + 2 : j > ROOT + 4 ? j - 4 : ROOT; /* the twin layout */
        if (j > ROOT && !(q->hole && p == ROOT) && before(e, &q->heap[p]))
            return false;
    }
    for (size_t j = ROOT + q->n; j <= ROOT + q->heap_cap; j++)
        if (q->heap[j].time != SENTINEL.time || q->heap[j].key != SENTINEL.key)
            return false;
    wb_holes_left += q->kept;
    /* the engine's pair: the hole and the freed slot (no entry in the heap)
     * wait for the next push, in a small heap with sequence numbers left */
    if (q->fast && (!q->hole || q->fast_slot >= q->used || q->slots[q->fast_slot].gen == GEN_RETIRED ||
                    q->slots[q->fast_slot].seq == FREE_SEQ || q->n > KEEP_HOLE_MIN || q->next_seq == SEQ_END))
        return false;
    wb_fast_seen += q->fast;
    if (q->keep_score > 3 || (q->kept && !q->hole) || (q->kept && q->replaced))
        return false;
    size_t pending = 0, nfree = 0, nretired = 0;
    for (size_t s = 0; s < q->used; s++) {
        if (q->fast && s == q->fast_slot)
            continue; /* kept for the engine's push: neither pending nor free, no entry */
        pending += q->slots[s].seq != FREE_SEQ;
        nretired += q->slots[s].gen == GEN_RETIRED;
        slots_with_entry += q->slots[s].eseq != NO_ENTRY;
    }
    /* a slot's eseq names one of the heap's entries, or none */
    if (entries_known != slots_with_entry)
        return false;
    for (uint32_t s = q->free_head; s != NO_SLOT; s = (uint32_t)q->slots[s].arg)
        if (s >= q->used || q->slots[s].seq != FREE_SEQ || ++nfree > q->used)
            return false;
    return live_entries == q->live && pending == q->live && q->live + nfree + nretired + q->fast == q->used;
}

/* ------------------------------------------------------------------------ */
/* Both queues behind one interface, so the randomised test runs on both. */

typedef struct queue_ops {
    void *(*create)(size_t hint);
    void (*destroy)(void *q);
    int (*push)(void *q, double t, dc_event_fn fn, void *ctx, uint64_t arg, dc_event_handle *h);
    bool (*pop)(void *q, dc_event *out);
    bool (*cancel)(void *q, dc_event_handle h);
    bool (*is_pending)(const void *q, dc_event_handle h);
    double (*peek)(void *q);
    size_t (*size)(const void *q);
    bool (*may_be_due)(const void *q);
    bool (*consistent)(const void *q); /* NULL when the internals are hidden */
    size_t max_pending;
    bool failing_alloc; /* whether the allocator can be made to fail */
} queue_ops;

#define WRAP(P)                                                                            \
    static void *P##_w_create(size_t hint) { return P##_create(hint); }                  \
    static void P##_w_destroy(void *q) { P##_destroy(q); }                               \
    static int P##_w_push(void *q, double t, dc_event_fn fn, void *ctx, uint64_t arg,    \
                          dc_event_handle *h)                                            \
    {                                                                                    \
        return P##_push(q, t, fn, ctx, arg, h);                                          \
    }                                                                                    \
    static bool P##_w_pop(void *q, dc_event *out) { return P##_pop(q, out); }            \
    static bool P##_w_cancel(void *q, dc_event_handle h) { return P##_cancel(q, h); }    \
    static bool P##_w_is_pending(const void *q, dc_event_handle h)                       \
    {                                                                                    \
        return P##_is_pending(q, h);                                                     \
    }                                                                                    \
    static double P##_w_peek(void *q) { return P##_peek_time(q); }                       \
    static size_t P##_w_size(const void *q) { return P##_size(q); }                     \
    static bool P##_w_may_be_due(const void *q) { return P##_may_be_due(q); }
WRAP(dc_eventq)
WRAP(wb_eventq)

static bool wb_w_consistent(const void *q)
{
    return wb_consistent(q);
}

static const queue_ops real_ops = {
    dc_eventq_w_create, dc_eventq_w_destroy, dc_eventq_w_push, dc_eventq_w_pop,
    dc_eventq_w_cancel, dc_eventq_w_is_pending, dc_eventq_w_peek, dc_eventq_w_size,
    dc_eventq_w_may_be_due, NULL, SIZE_MAX, false,
};

static const queue_ops wb_ops = {
    wb_eventq_w_create, wb_eventq_w_destroy, wb_eventq_w_push, wb_eventq_w_pop,
    wb_eventq_w_cancel, wb_eventq_w_is_pending, wb_eventq_w_peek, wb_eventq_w_size,
    wb_eventq_w_may_be_due, wb_w_consistent, DC_EVENTQ_MAX_SLOTS, true,
};

/* ------------------------------------------------------------------------ */
/* Helpers */

static uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static double uniform01(uint64_t *s)
{
    return (double)(splitmix64(s) >> 11) * 0x1p-53;
}

static uint64_t below(uint64_t *s, uint64_t n)
{
    return splitmix64(s) % n;
}

/* Two distinct handlers and contexts, so that a pop returning another
 * event's payload is caught. */
static void handler_a(struct dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim, (void)ctx, (void)arg;
}

static void handler_b(struct dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim, (void)ctx, (void)arg;
}

static char contexts[7];

static dc_event_fn fn_of(uint64_t id)
{
    return id % 2 ? handler_b : handler_a;
}

static void *ctx_of(uint64_t id)
{
    return &contexts[id % 7];
}

/* A time from a mix that makes ties frequent and covers signs and infinities. */
static double random_time(uint64_t *rng)
{
    uint64_t r = below(rng, 100);
    if (r < 40)
        return (double)below(rng, 16); /* many ties */
    if (r < 80)
        return 100.0 * uniform01(rng);
    if (r < 90)
        return -10.0 * uniform01(rng);
    if (r < 94)
        return r % 2 ? 0.0 : -0.0; /* equal as doubles: FIFO between them */
    if (r < 97)
        return INFINITY;
    if (r < 99)
        return -INFINITY;
    return 1e300;
}

/* ------------------------------------------------------------------------ */
/* (a) Randomised comparison with a reference: an unsorted array scanned for
 * the minimum (time, then push order). */

typedef struct ref_event {
    double t;
    uint64_t order; /* push order */
    uint64_t id;
} ref_event;

typedef struct issued {
    dc_event_handle h;
    uint64_t id;
} issued;

#define ISSUED_KEEP 4096 /* handles remembered for cancels, most of them stale */

typedef struct reference {
    ref_event *ev;
    size_t n, cap;
} reference;

static size_t ref_min(const reference *r)
{
    size_t m = 0;
    for (size_t i = 1; i < r->n; i++)
        if (r->ev[i].t < r->ev[m].t || (r->ev[i].t == r->ev[m].t && r->ev[i].order < r->ev[m].order))
            m = i;
    return m;
}

static size_t ref_find(const reference *r, uint64_t id)
{
    for (size_t i = 0; i < r->n; i++)
        if (r->ev[i].id == id)
            return i;
    return SIZE_MAX;
}

static void ref_remove(reference *r, size_t i)
{
    r->ev[i] = r->ev[--r->n];
}

/* Runs nops random pushes, pops and cancels (of pending, popped, cancelled,
 * never-issued and NONE handles), checking after each one every result, the
 * size and peek_time against the reference.  Mismatches are counted and
 * asserted at the end, so that a failure does not print 200,000 lines. */
static void random_vs_reference(const queue_ops *ops, size_t nops, uint64_t seed)
{
    uint64_t rng = seed;
    void *q = ops->create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    reference ref = {malloc(1024 * sizeof(ref_event)), 0, 1024};
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref.ev);
    issued *iss = calloc(ISSUED_KEEP, sizeof *iss);
    CU_ASSERT_PTR_NOT_NULL_FATAL(iss);
    size_t niss = 0;
    uint64_t next_id = 1, order = 0;
    size_t pops = 0, empty_pops = 0, cancels_ok = 0, cancels_stale = 0, enomem = 0, max_n = 0;
    size_t errors = 0, not_due = 0;
    bool popped = false;
    double last_pop = 0.0;

    for (size_t op = 0; op < nops && errors < 10; op++) {
        /* phases in which the queue grows, shrinks (to empty) or holds */
        static const double push_p[] = {0.55, 0.45, 0.25, 0.5, 0.4};
        double p = push_p[(op / 10000) % (sizeof push_p / sizeof push_p[0])];
        double u = uniform01(&rng);
        if (u < p) {
            double t = random_time(&rng);
            uint64_t id = next_id++;
            bool fail_alloc = ops->failing_alloc && below(&rng, 4) == 0;
            wb_alloc_fail = fail_alloc;
            dc_event_handle h = 12345;
            int rc = ops->push(q, t, fn_of(id), ctx_of(id), id, below(&rng, 8) ? &h : NULL);
            wb_alloc_fail = 0;
            if (rc == DC_OK) {
                if (ref.n == ref.cap) {
                    ref.cap *= 2;
                    ref.ev = realloc(ref.ev, ref.cap * sizeof(ref_event));
                    CU_ASSERT_PTR_NOT_NULL_FATAL(ref.ev);
                }
                ref.ev[ref.n++] = (ref_event){t, order++, id};
                if (h != 12345)
                    iss[niss++ % ISSUED_KEEP] = (issued){h, id};
            } else {
                /* only allowed when the pool is at its limit or the
                 * allocator was told to fail; then nothing changed */
                enomem++;
                if (rc != DC_ENOMEM || (ref.n < ops->max_pending && !fail_alloc) ||
                    (h != 12345 && h != DC_EVENT_NONE))
                    errors++;
            }
        } else if (u < p + (1 - p) * 0.7) {
            dc_event ev;
            bool got = ops->pop(q, &ev);
            empty_pops += ref.n == 0;
            if (got != (ref.n > 0)) {
                errors++;
            } else if (got) {
                size_t m = ref_min(&ref);
                const ref_event *want = &ref.ev[m];
                if (ev.time_s != want->t || ev.arg != want->id || ev.fn != fn_of(want->id) ||
                    ev.ctx != ctx_of(want->id))
                    errors++;
                ref_remove(&ref, m);
                pops++;
                popped = true;
                last_pop = ev.time_s;
            }
        } else {
            dc_event_handle h;
            uint64_t id = 0;
            uint64_t r = below(&rng, 20);
            if (r == 0 || niss == 0) {
                h = DC_EVENT_NONE;
            } else if (r == 1) {
                h = (uint64_t)below(&rng, 4) << 32 | (1000000 + below(&rng, 1000)); /* no such slot */
            } else {
                /* half the time one of the 64 latest, likely still pending */
                size_t kept = niss < ISSUED_KEEP ? niss : ISSUED_KEEP;
                size_t k = r % 2 ? (niss - 1 - below(&rng, kept < 64 ? kept : 64)) % ISSUED_KEEP
                                 : below(&rng, kept);
                h = iss[k].h;
                id = iss[k].id;
            }
            size_t i = id ? ref_find(&ref, id) : SIZE_MAX;
            bool pending = i != SIZE_MAX;
            if (ops->is_pending(q, h) != pending)
                errors++;
            if (ops->cancel(q, h) != pending)
                errors++;
            if (pending) {
                ref_remove(&ref, i);
                cancels_ok++;
            } else {
                cancels_stale++;
            }
            if (ops->is_pending(q, h))
                errors++;
        }
        if (ops->size(q) != ref.n)
            errors++;
        /* may_be_due: false only when no pending event is at or before
         * the last pop's time (before any pop: none pending) */
        if (!ops->may_be_due(q)) {
            not_due++;
            bool due = !popped && ref.n > 0;
            for (size_t i = 0; i < ref.n && !due; i++)
                due = ref.ev[i].t <= last_pop;
            errors += due;
        }
        /* peek settles the hole a pop leaves: half the time, so that
         * pushes also meet it (replace-top, the hole left open) */
        double want_peek = ref.n ? ref.ev[ref_min(&ref)].t : INFINITY;
        if (below(&rng, 2) == 0 && ops->peek(q) != want_peek)
            errors++;
        if (ops->consistent && !ops->consistent(q))
            errors++;
        if (ref.n > max_n)
            max_n = ref.n;
    }
    CU_ASSERT_EQUAL(errors, 0);
    /* the run must have exercised what it claims to */
    CU_ASSERT(pops > nops / 5);
    CU_ASSERT(empty_pops > 0);
    CU_ASSERT(cancels_ok > nops / 500);
    CU_ASSERT(cancels_stale > nops / 100);
    CU_ASSERT(not_due > nops / 100);
    if (ops->max_pending == SIZE_MAX) {
        CU_ASSERT(max_n > 1000);
        CU_ASSERT_EQUAL(enomem, 0);
    } else {
        CU_ASSERT(max_n == ops->max_pending);
        CU_ASSERT(enomem > 0);
    }
    ops->destroy(q);
    free(ref.ev);
    free(iss);
}

static void test_random_reference(void)
{
    random_vs_reference(&real_ops, 200000, 42);
}

static void test_random_reference_whitebox(void)
{
    wb_standins_seen = wb_holes_left = wb_fast_seen = 0;
    random_vs_reference(&wb_ops, 100000, 7);
    CU_ASSERT(wb_standins_seen > 1000);
    CU_ASSERT(wb_holes_left > 100);
    CU_ASSERT(wb_fast_seen > 100);
}

/* Small heaps: the twin layout (at most TWIN_N entries) and the 4-ary one
 * crossed both ways, the engine's pair (a pop, then pushes) with its kept
 * slot, holes, cancels and peeks, against the reference at every step and
 * with every invariant checked.  The size walks between 0 and 16. */
static void test_small_heaps(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    reference ref = {malloc(64 * sizeof(ref_event)), 0, 64};
    CU_ASSERT_PTR_NOT_NULL_FATAL(ref.ev);
    issued iss[64] = {{0}};
    size_t niss = 0, errors = 0, ups = 0, downs = 0, fast_pushes = 0, fast_ended = 0, standins = 0;
    uint64_t rng = 99, next_id = 1, order = 0;
    bool was_twin = true;
    wb_standins_seen = 0;
    for (size_t op = 0; op < 60000 && errors == 0; op++) {
        size_t target = (op / 500) % 2 ? 14 : 3; /* grow past the twin layout, shrink into it */
        double u = uniform01(&rng);
        int pushes = 0;
        bool fast_before = q->fast;
        if (u < 0.5 && ref.n > 0) { /* a pop: the engine's pair when pushes follow */
            dc_event ev;
            if (!wb_eventq_pop_until(q, INFINITY, &ev)) {
                errors++;
                break;
            }
            size_t m = ref_min(&ref);
            if (ev.time_s != ref.ev[m].t || ev.arg != ref.ev[m].id || ev.fn != fn_of(ref.ev[m].id))
                errors++;
            ref_remove(&ref, m);
            pushes = ref.n < target ? 1 + (int)below(&rng, 2) : (int)below(&rng, 2);
            if (below(&rng, 10) == 0 && niss > 0) { /* a cancel between the pop and its push */
                issued *c = &iss[below(&rng, niss < 64 ? niss : 64)];
                size_t i = ref_find(&ref, c->id);
                if (wb_eventq_cancel(q, c->h) != (i != SIZE_MAX))
                    errors++;
                if (i != SIZE_MAX)
                    ref_remove(&ref, i);
            }
        } else if (u < 0.8) {
            pushes = ref.n < target ? 1 : (int)below(&rng, 2);
        } else if (u < 0.9 && niss > 0) {
            issued *c = &iss[below(&rng, niss < 64 ? niss : 64)];
            size_t i = ref_find(&ref, c->id);
            if (wb_eventq_cancel(q, c->h) != (i != SIZE_MAX))
                errors++;
            if (i != SIZE_MAX)
                ref_remove(&ref, i);
            fast_ended += fast_before && !q->fast;
        } else {
            double want = ref.n ? ref.ev[ref_min(&ref)].t : INFINITY;
            if (wb_eventq_peek_time(q) != want)
                errors++;
            fast_ended += fast_before && !q->fast;
        }
        for (int k = 0; k < pushes && ref.n < DC_EVENTQ_MAX_SLOTS; k++) {
            uint64_t id = next_id++;
            double t = random_time(&rng);
            dc_event_handle h;
            fast_pushes += q->fast;
            if (wb_eventq_push(q, t, fn_of(id), ctx_of(id), id, &h) != DC_OK) {
                errors++;
                break;
            }
            ref.ev[ref.n++] = (ref_event){t, order++, id};
            iss[niss++ % 64] = (issued){h, id};
        }
        if (wb_eventq_size(q) != ref.n || !wb_consistent(q))
            errors++;
        bool twin = q->n <= TWIN_N;
        ups += was_twin && !twin;
        downs += !was_twin && twin;
        was_twin = twin;
    }
    standins = wb_standins_seen;
    CU_ASSERT_EQUAL(errors, 0);
    CU_ASSERT(ups > 50);
    CU_ASSERT(downs > 50);
    CU_ASSERT(fast_pushes > 2000);
    CU_ASSERT(fast_ended > 100);
    CU_ASSERT(standins > 100);
    wb_eventq_destroy(q);
    free(ref.ev);
}

/* Many pushes, then pops of everything, against a sorted copy. */
typedef struct keyed {
    double t;
    uint64_t id;
} keyed;

static int cmp_keyed(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

static void test_sorted_drain(void)
{
    enum { N = 100000 };
    uint64_t rng = 3;
    keyed *k = malloc(N * sizeof *k);
    CU_ASSERT_PTR_NOT_NULL_FATAL(k);
    dc_eventq *q = dc_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    for (uint64_t i = 0; i < N; i++) {
        k[i] = (keyed){random_time(&rng), i};
        CU_ASSERT_EQUAL_FATAL(dc_eventq_push(q, k[i].t, handler_a, NULL, i, NULL), DC_OK);
    }
    qsort(k, N, sizeof *k, cmp_keyed); /* by time, then push order */
    size_t bad = 0;
    dc_event ev;
    for (size_t i = 0; i < N; i++)
        if (!dc_eventq_pop(q, &ev) || ev.time_s != k[i].t || ev.arg != k[i].id)
            bad++;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT_FALSE(dc_eventq_pop(q, &ev));
    dc_eventq_destroy(q);
    free(k);
}

/* ------------------------------------------------------------------------ */
/* (b) FIFO on equal times */

static void test_fifo_equal_times(void)
{
    dc_eventq *q = dc_eventq_create(4);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    /* interleave three times; 2.0 is pushed first but pops last */
    for (uint64_t i = 0; i < 3000; i++) {
        double t = i % 3 == 0 ? 2.0 : i % 3 == 1 ? 1.0 : 0.5;
        CU_ASSERT_EQUAL(dc_eventq_push(q, t, handler_a, NULL, i, NULL), DC_OK);
    }
    dc_event ev;
    uint64_t prev[3] = {0};
    bool seen[3] = {false};
    static const double order[] = {0.5, 1.0, 2.0};
    for (int k = 0; k < 3; k++) {
        for (int i = 0; i < 1000; i++) {
            CU_ASSERT_FATAL(dc_eventq_pop(q, &ev));
            CU_ASSERT_EQUAL(ev.time_s, order[k]);
            if (seen[k])
                CU_ASSERT(ev.arg > prev[k]);
            seen[k] = true;
            prev[k] = ev.arg;
        }
    }
    CU_ASSERT_EQUAL(dc_eventq_size(q), 0);

    /* events pushed at the current time while others at that time are
     * pending run after them, as an engine needs */
    for (uint64_t i = 0; i < 10; i++)
        dc_eventq_push(q, 7.0, handler_a, NULL, i, NULL);
    uint64_t next_id = 10, expect = 0;
    for (int i = 0; i < 100; i++) {
        CU_ASSERT_FATAL(dc_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.arg, expect);
        expect++;
        CU_ASSERT_EQUAL(dc_eventq_push(q, 7.0, handler_a, NULL, next_id++, NULL), DC_OK);
    }
    CU_ASSERT_EQUAL(dc_eventq_size(q), 10);
    dc_eventq_destroy(q);
}

/* FIFO survives renumbering of the sequence numbers (white-box copy: 64
 * sequence numbers, so renumbering happens every few dozen pushes). */
static void test_fifo_across_renumbering(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    for (uint64_t i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_a, NULL, i, NULL), DC_OK);
    dc_event ev;
    size_t renumberings = 0;
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t before_seq = q->next_seq;
        /* an earlier event, and one at 5.0 that must come after the first 20 */
        CU_ASSERT_EQUAL(wb_eventq_push(q, 1.0, handler_a, NULL, 1000 + i, NULL), DC_OK);
        renumberings += q->next_seq <= before_seq;
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.arg, 1000 + i);
        if (i % 50 == 0)
            CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_a, NULL, 20 + i / 50, NULL), DC_OK);
        CU_ASSERT(wb_consistent(q));
    }
    CU_ASSERT(renumberings > 10);
    for (uint64_t i = 0; i < 40; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.time_s, 5.0);
        CU_ASSERT_EQUAL(ev.arg, i);
    }
    CU_ASSERT_FALSE(wb_eventq_pop(q, &ev));
    wb_eventq_destroy(q);
}

/* ------------------------------------------------------------------------ */
/* (c) cancel and is_pending */

static void test_cancel_and_pending(void)
{
    dc_eventq *q = dc_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_FALSE(dc_eventq_cancel(q, DC_EVENT_NONE));
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, DC_EVENT_NONE));

    dc_event_handle a, b, c;
    CU_ASSERT_EQUAL(dc_eventq_push(q, 1.0, handler_a, NULL, 1, &a), DC_OK);
    CU_ASSERT_EQUAL(dc_eventq_push(q, 2.0, handler_a, NULL, 2, &b), DC_OK);
    CU_ASSERT_EQUAL(dc_eventq_push(q, 3.0, handler_a, NULL, 3, &c), DC_OK);
    CU_ASSERT(a != DC_EVENT_NONE && b != DC_EVENT_NONE && c != DC_EVENT_NONE);
    CU_ASSERT(a != b && b != c && a != c);
    CU_ASSERT(dc_eventq_is_pending(q, a));
    CU_ASSERT(dc_eventq_is_pending(q, b));

    /* cancel the middle one, twice */
    CU_ASSERT(dc_eventq_cancel(q, b));
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, b));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, b));
    CU_ASSERT_EQUAL(dc_eventq_size(q), 2);

    /* a popped event is no longer pending */
    dc_event ev;
    CU_ASSERT_FATAL(dc_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 1);
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, a));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, a));

    /* new events reuse the freed slots, yet the old handles stay stale */
    dc_event_handle d, e;
    CU_ASSERT_EQUAL(dc_eventq_push(q, 0.5, handler_a, NULL, 4, &d), DC_OK);
    CU_ASSERT_EQUAL(dc_eventq_push(q, 0.7, handler_a, NULL, 5, &e), DC_OK);
    CU_ASSERT((d & UINT32_MAX) == (a & UINT32_MAX) || (d & UINT32_MAX) == (b & UINT32_MAX));
    CU_ASSERT(d != a && d != b && e != a && e != b);
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, a));
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, b));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, a));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, b));
    CU_ASSERT(dc_eventq_is_pending(q, d));
    CU_ASSERT(dc_eventq_is_pending(q, e));
    CU_ASSERT_EQUAL(dc_eventq_size(q), 3);

    /* handles naming a slot never used, or a generation never issued */
    CU_ASSERT_FALSE(dc_eventq_is_pending(q, (dc_event_handle)1000));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, (dc_event_handle)1000));
    CU_ASSERT_FALSE(dc_eventq_cancel(q, d + ((dc_event_handle)1 << 32)));
    CU_ASSERT(dc_eventq_is_pending(q, d));

    /* cancel the earliest: the next one becomes the earliest */
    CU_ASSERT(dc_eventq_cancel(q, d));
    CU_ASSERT_EQUAL(dc_eventq_peek_time(q), 0.7);
    /* cancel the last pushed */
    CU_ASSERT(dc_eventq_cancel(q, e));
    CU_ASSERT_EQUAL(dc_eventq_peek_time(q), 3.0);
    CU_ASSERT(dc_eventq_cancel(q, c));
    CU_ASSERT_EQUAL(dc_eventq_size(q), 0);
    CU_ASSERT_FALSE(dc_eventq_pop(q, &ev));
    dc_eventq_destroy(q);
}

/* A push after a cancel reuses the cancelled event's slot, and its entry,
 * still in the heap, stands in for the new event when that is not earlier:
 * no heap work, the same pop order (time, then push order), also through
 * a cancel of the new event, a push earlier than the entry (a plain push)
 * and the hole a pop leaves. */
static void test_standins(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event_handle a, b, c, d;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 10.0, handler_a, NULL, 1, &a), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 30.0, handler_a, NULL, 2, NULL), DC_OK);
    CU_ASSERT_EQUAL(q->n, 2);
    CU_ASSERT(wb_eventq_cancel(q, a));
    /* 20 >= 10: the entry at 10 stands in for it; nothing added to the heap */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 20.0, handler_a, NULL, 3, &b), DC_OK);
    CU_ASSERT_EQUAL(q->n, 2);
    CU_ASSERT_EQUAL(b & UINT32_MAX, a & UINT32_MAX);
    CU_ASSERT(wb_consistent(q));
    CU_ASSERT_EQUAL(wb_eventq_peek_time(q), 20.0); /* refiled at the root */
    CU_ASSERT(wb_consistent(q));
    /* a tie with the stand-in's event: push order decides */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 20.0, handler_a, NULL, 4, &c), DC_OK);
    CU_ASSERT(wb_eventq_cancel(q, c));
    CU_ASSERT_EQUAL(wb_eventq_push(q, 20.0, handler_a, NULL, 5, &d), DC_OK); /* stands in for 4's entry */
    CU_ASSERT_EQUAL(q->n, 3);
    CU_ASSERT(wb_consistent(q));
    /* cancel a stand-in's event, then push earlier than its entry: a plain push */
    CU_ASSERT(wb_eventq_cancel(q, d));
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_a, NULL, 6, NULL), DC_OK);
    CU_ASSERT_EQUAL(q->n, 4);
    CU_ASSERT(wb_consistent(q));
    dc_event ev;
    const uint64_t want[] = {6, 3, 2};
    const double want_t[] = {5.0, 20.0, 30.0};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.arg, want[i]);
        CU_ASSERT_EQUAL(ev.time_s, want_t[i]);
        CU_ASSERT(wb_consistent(q));
    }
    CU_ASSERT_FALSE(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(q->n, 0);

    /* a chain, as a job's restart pushed again at every failure: 40
     * cancels and pushes, each later, keep one entry in the heap */
    dc_event_handle h;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 1000.0, handler_a, NULL, 0, NULL), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 600.0, handler_a, NULL, 100, &h), DC_OK);
    for (uint64_t i = 1; i <= 40; i++) {
        CU_ASSERT(wb_eventq_cancel(q, h));
        CU_ASSERT_EQUAL(wb_eventq_push(q, 600.0 + 10.0 * (double)i, handler_a, NULL, 100 + i, &h), DC_OK);
        CU_ASSERT_EQUAL(q->n, 2);
    }
    CU_ASSERT(wb_consistent(q));
    /* both at 1000: the earlier push first */
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 0);
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 140);
    CU_ASSERT_EQUAL(ev.time_s, 1000.0);
    CU_ASSERT_FALSE(wb_eventq_pop(q, &ev));
    wb_eventq_destroy(q);
}

/* Leaving the hole (white-box copy, KEEP_HOLE_MIN 4): pops each followed
 * by a late push and an early one raise the score; then the late push goes
 * up from the bottom, leaving the hole, and the early one fills it; one
 * push per pop (a hold model) brings replace-top back.  The order popped
 * is the sorted order throughout. */
static void test_hole_left(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    for (uint64_t i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, 100.0 + (double)i, handler_a, NULL, i, NULL), DC_OK);
    dc_event ev;
    double last = -1.0;
    size_t left = 0, bad_order = 0;
    for (uint64_t k = 0; k < 10; k++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        bad_order += ev.time_s < last;
        last = ev.time_s;
        CU_ASSERT_EQUAL(wb_eventq_push(q, ev.time_s + 1000.0, handler_a, NULL, 100 + k, NULL), DC_OK);
        left += q->hole && q->kept;
        CU_ASSERT(wb_consistent(q));
        CU_ASSERT_EQUAL(wb_eventq_push(q, ev.time_s + 0.001, handler_a, NULL, 200 + k, NULL), DC_OK);
        CU_ASSERT_FALSE(q->hole);
        CU_ASSERT(wb_consistent(q));
    }
    CU_ASSERT_EQUAL(q->keep_score, 3);
    CU_ASSERT(left >= 7); /* all but the first two, while the score rose */
    for (int k = 0; k < 10; k++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        bad_order += ev.time_s < last;
        last = ev.time_s;
        CU_ASSERT_EQUAL(wb_eventq_push(q, ev.time_s + 1000.0, handler_a, NULL, 300, NULL), DC_OK);
        CU_ASSERT(wb_consistent(q));
    }
    CU_ASSERT(q->keep_score < 2);
    CU_ASSERT_FALSE(q->kept);
    while (wb_eventq_pop(q, &ev)) {
        bad_order += ev.time_s < last;
        last = ev.time_s;
    }
    CU_ASSERT_EQUAL(bad_order, 0);
    wb_eventq_destroy(q);
}

/* A hole kept while the heap grows: each pop's hole is left to a second
 * push, so each pair adds one entry at the heap's end; the heap must grow
 * before an entry goes past what it holds (an entry written past the
 * array's end, a crash of bench/streams.cfg at 2,000 jobs, before the
 * push into a hole checked for room). */
static void test_hole_kept_growth(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    for (uint64_t i = 0; i < 20; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, 100.0 + (double)i, handler_a, NULL, i, NULL), DC_OK);
    dc_event ev;
    double last = -1.0;
    size_t over = 0, bad_order = 0, kept = 0, cap0 = q->heap_cap;
    for (uint64_t k = 0; k < 28; k++) { /* 20 + 28 = the white box's 48 slots */
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        bad_order += ev.time_s < last;
        last = ev.time_s;
        CU_ASSERT_EQUAL(wb_eventq_push(q, ev.time_s + 1e6, handler_a, NULL, k, NULL), DC_OK);
        kept += q->hole && q->kept;
        over += q->n > q->heap_cap;
        CU_ASSERT_EQUAL(wb_eventq_push(q, ev.time_s + 0.001, handler_a, NULL, k, NULL), DC_OK);
        over += q->n > q->heap_cap;
    }
    CU_ASSERT_EQUAL(over, 0);
    CU_ASSERT(kept > 20);
    CU_ASSERT(q->heap_cap > cap0); /* it grew, through kept holes */
    CU_ASSERT(wb_consistent(q));
    while (wb_eventq_pop(q, &ev)) {
        bad_order += ev.time_s < last;
        last = ev.time_s;
    }
    CU_ASSERT_EQUAL(bad_order, 0);
    wb_eventq_destroy(q);
}

/* Cancelling from every position of a larger heap leaves the others in order. */
static void test_cancel_positions(void)
{
    enum { N = 500 };
    for (size_t victim = 0; victim < N; victim += 7) {
        dc_eventq *q = dc_eventq_create(0);
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);
        dc_event_handle h[N];
        for (uint64_t i = 0; i < N; i++) {
            double t = (double)((i * 7919) % N); /* a permutation of 0..N-1 */
            CU_ASSERT_EQUAL_FATAL(dc_eventq_push(q, t, handler_a, NULL, i, &h[i]), DC_OK);
        }
        CU_ASSERT(dc_eventq_cancel(q, h[victim]));
        double victim_t = (double)((victim * 7919) % N);
        dc_event ev;
        double expect = 0;
        size_t bad = 0;
        while (dc_eventq_pop(q, &ev)) {
            if (expect == victim_t)
                expect++;
            bad += ev.time_s != expect;
            expect++;
        }
        CU_ASSERT_EQUAL(bad, 0);
        CU_ASSERT_EQUAL(expect + (victim_t == N - 1), N);
        dc_eventq_destroy(q);
    }
}

/* A slot whose generation would wrap is retired, so no stale handle can
 * ever match it again (white-box: the generation is set near the top). */
static void test_generation_retirement(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event_handle h0, h;
    dc_event ev;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 1.0, handler_a, NULL, 0, &h0), DC_OK);
    CU_ASSERT_EQUAL(h0 & UINT32_MAX, 1);
    CU_ASSERT(wb_eventq_pop(q, &ev));
    q->slots[0].gen = GEN_RETIRED - 2; /* as if reused ~4e9 times */
    for (int i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(wb_eventq_push(q, 1.0, handler_a, NULL, 0, &h), DC_OK);
        CU_ASSERT_EQUAL(h & UINT32_MAX, 1);
        CU_ASSERT_EQUAL(h >> 32, GEN_RETIRED - 2 + (unsigned)i);
        CU_ASSERT(wb_eventq_is_pending(q, h));
        CU_ASSERT(wb_eventq_pop(q, &ev));
        CU_ASSERT_FALSE(wb_eventq_is_pending(q, h));
    }
    /* slot 0 is now retired: the next push takes another slot */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 1.0, handler_a, NULL, 0, &h), DC_OK);
    CU_ASSERT_EQUAL(h & UINT32_MAX, 2);
    CU_ASSERT_FALSE(wb_eventq_is_pending(q, h0));
    CU_ASSERT_FALSE(wb_eventq_cancel(q, h0));
    CU_ASSERT_FALSE(wb_eventq_cancel(q, (dc_event_handle)GEN_RETIRED << 32 | 1));
    CU_ASSERT(wb_consistent(q));
    wb_eventq_destroy(q);
}

/* ------------------------------------------------------------------------ */
/* (d) empty queue, peek and size */

static void test_empty_peek_size(void)
{
    dc_eventq *q = dc_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    CU_ASSERT_EQUAL(dc_eventq_size(q), 0);
    CU_ASSERT(isinf(dc_eventq_peek_time(q)) && dc_eventq_peek_time(q) > 0);
    dc_event ev;
    CU_ASSERT_FALSE(dc_eventq_pop(q, &ev));

    static const double times[] = {3.0, -1.5, 1e9, 0.0, -INFINITY, INFINITY, 2.5};
    static const double sorted[] = {-INFINITY, -1.5, 0.0, 2.5, 3.0, 1e9, INFINITY};
    double min = INFINITY;
    for (size_t i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(dc_eventq_push(q, times[i], handler_a, NULL, i, NULL), DC_OK);
        CU_ASSERT_EQUAL(dc_eventq_size(q), i + 1);
        min = fmin(min, times[i]);
        CU_ASSERT_EQUAL(dc_eventq_peek_time(q), min);
    }
    for (size_t i = 0; i < 7; i++) {
        CU_ASSERT_EQUAL(dc_eventq_peek_time(q), sorted[i]);
        CU_ASSERT_FATAL(dc_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.time_s, sorted[i]);
        CU_ASSERT_EQUAL(dc_eventq_size(q), 6 - i);
    }
    CU_ASSERT(isinf(dc_eventq_peek_time(q)) && dc_eventq_peek_time(q) > 0);
    CU_ASSERT_FALSE(dc_eventq_pop(q, &ev));
    dc_eventq_destroy(q);
    dc_eventq_destroy(NULL); /* allowed, like free */
}

static void test_create_too_large(void)
{
    CU_ASSERT_PTR_NULL(dc_eventq_create(SIZE_MAX));
    CU_ASSERT_PTR_NULL(dc_eventq_create(SIZE_MAX / 8));
}

/* ------------------------------------------------------------------------ */
/* (e) pool reuse: with at most K events pending, no slot index beyond K is
 * ever handed out, however many events go through.  The slot is the low half
 * of the handle (slot + 1). */

static void test_pool_reuse(void)
{
    enum { K = 100 };
    uint64_t rng = 11;
    dc_eventq *q = dc_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event_handle pending[K];
    size_t n = 0;
    uint64_t max_slot = 0, pushes = 0;
    dc_event ev;
    for (int i = 0; i < 200000; i++) {
        uint64_t r = below(&rng, 3);
        if (n < K && (r == 0 || n == 0)) {
            dc_event_handle h;
            CU_ASSERT_EQUAL_FATAL(dc_eventq_push(q, uniform01(&rng), handler_a, NULL, 0, &h), DC_OK);
            pending[n++] = h;
            pushes++;
            if ((h & UINT32_MAX) > max_slot)
                max_slot = h & UINT32_MAX;
        } else if (r == 1) {
            size_t k = below(&rng, n);
            CU_ASSERT(dc_eventq_cancel(q, pending[k]));
            pending[k] = pending[--n];
        } else {
            CU_ASSERT(dc_eventq_pop(q, &ev));
            /* forget the popped handle: it is the one no longer pending */
            for (size_t k = 0; k < n; k++)
                if (!dc_eventq_is_pending(q, pending[k])) {
                    pending[k] = pending[--n];
                    break;
                }
        }
        CU_ASSERT_EQUAL(dc_eventq_size(q), n);
    }
    CU_ASSERT(pushes > 50000);
    CU_ASSERT(max_slot <= K);
    dc_eventq_destroy(q);
}

/* ------------------------------------------------------------------------ */
/* Out of memory: push reports DC_ENOMEM and leaves the queue as it was. */

static void test_enomem_leaves_queue_unchanged(void)
{
    /* the pool limit (48 slots in the white-box copy) */
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    for (uint64_t i = 0; i < DC_EVENTQ_MAX_SLOTS; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, (double)(i % 5), handler_a, NULL, i, NULL), DC_OK);
    dc_event_handle h = 99;
    CU_ASSERT_EQUAL(wb_eventq_push(q, -1.0, handler_a, NULL, 999, &h), DC_ENOMEM);
    CU_ASSERT_EQUAL(h, DC_EVENT_NONE);
    CU_ASSERT_EQUAL(wb_eventq_size(q), DC_EVENTQ_MAX_SLOTS);
    CU_ASSERT_EQUAL(wb_eventq_peek_time(q), 0.0);
    CU_ASSERT(wb_consistent(q));
    dc_event ev;
    for (uint64_t k = 0; k < 5; k++)
        for (uint64_t i = k; i < DC_EVENTQ_MAX_SLOTS; i += 5) {
            CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
            CU_ASSERT_EQUAL(ev.time_s, (double)k);
            CU_ASSERT_EQUAL(ev.arg, i);
        }
    CU_ASSERT_FALSE(wb_eventq_pop(q, &ev));
    wb_eventq_destroy(q);

    /* a failing allocator when the pool must grow (16 -> 32 slots) */
    q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event_handle hs[16];
    for (uint64_t i = 0; i < 16; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, (double)(16 - i), handler_a, NULL, i, &hs[i]), DC_OK);
    wb_alloc_fail = 1;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 0.0, handler_a, NULL, 100, &h), DC_ENOMEM);
    CU_ASSERT_EQUAL(wb_alloc_fail, 0); /* the allocation was attempted */
    CU_ASSERT_EQUAL(wb_eventq_size(q), 16);
    CU_ASSERT_EQUAL(wb_eventq_peek_time(q), 1.0);
    CU_ASSERT(wb_consistent(q));
    for (int i = 0; i < 16; i++)
        CU_ASSERT(wb_eventq_is_pending(q, hs[i]));
    CU_ASSERT_EQUAL(wb_eventq_push(q, 0.0, handler_a, NULL, 100, &h), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_peek_time(q), 0.0);
    for (int i = 0; i < 16; i++)
        CU_ASSERT(wb_eventq_is_pending(q, hs[i]));
    CU_ASSERT(wb_consistent(q));
    wb_eventq_destroy(q);

    /* and when creating */
    wb_alloc_fail = 1;
    CU_ASSERT_PTR_NULL(wb_eventq_create(0));
    wb_alloc_fail = 0;
}


/* ------------------------------------------------------------------------ */
/* (f) lazy cancellation: dead entries stay bounded, pop_until, replace-top */

/* An event cancelled and rescheduled over and over (a job's completion
 * moving with its speed) leaves dead entries behind; the heap is rebuilt
 * before they outnumber the pending events by more than the margin. */
static void test_dead_entries_bounded(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    enum { K = 40 };
    dc_event_handle h[K];
    for (uint64_t i = 0; i < K; i++)
        CU_ASSERT_EQUAL_FATAL(wb_eventq_push(q, 1000.0 + (double)i, handler_a, NULL, i, &h[i]), DC_OK);
    size_t max_n = 0, bad = 0;
    uint64_t rng = 5;
    for (int r = 0; r < 20000; r++) {
        size_t k = below(&rng, K);
        CU_ASSERT(wb_eventq_cancel(q, h[k]));
        if (wb_eventq_push(q, 1000.0 + 1000.0 * uniform01(&rng), handler_a, NULL, k, &h[k]) != DC_OK)
            bad++;
        if (q->n > max_n)
            max_n = q->n;
        if (r % 97 == 0 && !wb_consistent(q))
            bad++;
    }
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(max_n <= 2 * K + DEAD_MARGIN + 1);
    CU_ASSERT(max_n > K); /* dead entries did accumulate before a rebuild */
    CU_ASSERT_EQUAL(wb_eventq_size(q), K);
    /* every live event pops once, in order, with its own payload */
    dc_event ev;
    double last = -INFINITY;
    bool seen[K] = {false};
    for (int i = 0; i < K; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        CU_ASSERT(ev.time_s >= last);
        CU_ASSERT(ev.arg < K && !seen[ev.arg]);
        if (ev.arg < K)
            seen[ev.arg] = true;
        last = ev.time_s;
    }
    CU_ASSERT_FALSE(wb_eventq_pop(q, &ev));
    CU_ASSERT(wb_consistent(q));
    wb_eventq_destroy(q);
}

/* pop_until takes only events at or before the limit; a pop then a push
 * (replace-top), a pop then a cancel and a peek after a pop read around the
 * hole the pop left. */
static void test_pop_until_and_hole(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event_handle h[10];
    for (uint64_t i = 0; i < 10; i++)
        CU_ASSERT_EQUAL(wb_eventq_push(q, (double)i, handler_a, NULL, i, &h[i]), DC_OK);
    dc_event ev;
    CU_ASSERT_FALSE(wb_eventq_pop_until(q, -0.5, &ev));
    CU_ASSERT_EQUAL(wb_eventq_size(q), 10);
    CU_ASSERT_FATAL(wb_eventq_pop_until(q, 0.0, &ev)); /* inclusive */
    CU_ASSERT_EQUAL(ev.arg, 0);
    CU_ASSERT(q->hole);
    CU_ASSERT(wb_consistent(q));
    CU_ASSERT_EQUAL(wb_eventq_peek_time(q), 1.0);
    CU_ASSERT_EQUAL(wb_eventq_size(q), 9);
    /* replace-top: the push fills the hole */
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 1);
    CU_ASSERT(q->hole);
    size_t n_before = q->n;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 4.5, handler_b, NULL, 45, NULL), DC_OK);
    CU_ASSERT_FALSE(q->hole);
    CU_ASSERT_EQUAL(q->n, n_before);
    CU_ASSERT(wb_consistent(q));
    /* a cancel after a pop settles the hole first */
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 2);
    CU_ASSERT(wb_eventq_cancel(q, h[3]));
    CU_ASSERT_FALSE(wb_eventq_is_pending(q, h[3]));
    CU_ASSERT(wb_consistent(q));
    /* the cancelled event's dead entry is skipped, also by pop_until */
    CU_ASSERT_FALSE(wb_eventq_pop_until(q, 3.9, &ev));
    CU_ASSERT_FATAL(wb_eventq_pop_until(q, 4.0, &ev));
    CU_ASSERT_EQUAL(ev.arg, 4);
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 45);
    CU_ASSERT(ev.fn == handler_b);
    for (uint64_t i = 5; i < 10; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop_until(q, INFINITY, &ev));
        CU_ASSERT_EQUAL(ev.arg, i);
    }
    CU_ASSERT_FALSE(wb_eventq_pop_until(q, INFINITY, &ev));
    CU_ASSERT_EQUAL(wb_eventq_size(q), 0);
    CU_ASSERT(wb_consistent(q));
    wb_eventq_destroy(q);
}

/* Pushes for the time of the last pop go to the instant's FIFO: they pop
 * after the heap's entries of that time pushed before them and before
 * anything later, cancelled ones are skipped, and a push for an earlier
 * time (popped first) does not disturb the FIFO's order. */
static void test_instant_fifo(void)
{
    wb_eventq *q = wb_eventq_create(0);
    CU_ASSERT_PTR_NOT_NULL_FATAL(q);
    dc_event ev;
    dc_event_handle hd = DC_EVENT_NONE;
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_a, NULL, 1, NULL), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_a, NULL, 2, NULL), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 7.0, handler_a, NULL, 3, NULL), DC_OK);
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 1);
    /* the first fills the pop's hole at the root (the engine's pair), the
     * others go to the FIFO */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_b, NULL, 4, &hd), DC_OK);
    CU_ASSERT_EQUAL(q->fifo_n, 0);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_b, NULL, 5, NULL), DC_OK);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 5.0, handler_b, NULL, 6, NULL), DC_OK);
    CU_ASSERT_EQUAL(q->fifo_n, 2);
    CU_ASSERT(wb_consistent(q));
    CU_ASSERT(wb_eventq_cancel(q, hd));
    CU_ASSERT_EQUAL(wb_eventq_size(q), 4);
    CU_ASSERT_DOUBLE_EQUAL(wb_eventq_peek_time(q), 5.0, 0.0);
    uint64_t want[] = {2, 5}; /* the heap's 5 first, then the FIFO's (4 cancelled) */
    for (size_t i = 0; i < 2; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
        CU_ASSERT_EQUAL(ev.arg, want[i]);
        CU_ASSERT_DOUBLE_EQUAL(ev.time_s, 5.0, 0.0);
    }
    /* an earlier time while the FIFO holds 5: it pops first, and a push
     * for it goes to the heap */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 3.0, handler_a, NULL, 7, NULL), DC_OK);
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    CU_ASSERT_EQUAL(ev.arg, 7);
    CU_ASSERT_EQUAL(wb_eventq_push(q, 3.0, handler_a, NULL, 8, NULL), DC_OK);
    CU_ASSERT_EQUAL(q->fifo_n, 1);
    CU_ASSERT(wb_consistent(q));
    CU_ASSERT_FALSE(wb_eventq_pop_until(q, 2.0, &ev));
    uint64_t rest[] = {8, 6, 3};
    for (size_t i = 0; i < 3; i++) {
        CU_ASSERT_FATAL(wb_eventq_pop_until(q, 7.0, &ev));
        CU_ASSERT_EQUAL(ev.arg, rest[i]);
    }
    CU_ASSERT_EQUAL(wb_eventq_size(q), 0);
    /* 100 deferred pushes in one instant, the ring grown and wrapped */
    CU_ASSERT_EQUAL(wb_eventq_push(q, 9.0, handler_a, NULL, 0, NULL), DC_OK);
    CU_ASSERT_FATAL(wb_eventq_pop(q, &ev));
    size_t bad = 0;
    for (uint64_t i = 1; i <= 40; i++) {
        CU_ASSERT_EQUAL(wb_eventq_push(q, 9.0, handler_a, NULL, i, NULL), DC_OK);
        if (i % 3 == 0) {
            bad += !wb_eventq_pop(q, &ev) || ev.arg != i / 3;
        }
    }
    bad += !wb_consistent(q);
    for (uint64_t i = 14; i <= 40; i++)
        bad += !wb_eventq_pop(q, &ev) || ev.arg != i;
    CU_ASSERT_EQUAL(bad, 0);
    CU_ASSERT(wb_consistent(q));
    wb_eventq_destroy(q);
}

/* ------------------------------------------------------------------------ */
/* Reserved sequence numbers: random plain and reserved pushes (in any order
 * within a block), pops and cancels against a reference ordered by (time,
 * the number each push takes in a count where a reservation of n takes n
 * at once).  The white-box copy renumbers every few dozen pushes. */

typedef struct res_ref {
    double t;
    uint64_t vseq, arg;
    dc_event_handle h;
    bool reserved;
} res_ref;

#define RES_BLOCKS 64

#define RESERVED_TEST(NAME, Q, P, MAX_BLOCKS, MAX_BLOCK, MAX_PENDING, NOPS)                                   \
    static void NAME(void)                                                                                    \
    {                                                                                                         \
        Q *q = P##_create(0);                                                                                 \
        CU_ASSERT_PTR_NOT_NULL_FATAL(q);                                                                      \
        static res_ref ref[MAX_PENDING];                                                                      \
        size_t n_ref = 0, n_blocks = 0, n_reserved_pops = 0;                                                  \
        uint64_t base[RES_BLOCKS], size[RES_BLOCKS], next_i[RES_BLOCKS];                                      \
        size_t id[RES_BLOCKS];                                                                                \
        uint64_t v = 0, arg = 0, rng = 19;                                                                    \
        double now = 0.0;                                                                                     \
        for (size_t op = 0; op < (NOPS); op++) {                                                              \
            uint64_t r = below(&rng, 100);                                                            \
            double t = now + (double)below(&rng, 4);                                                  \
            if (r < 3 && n_blocks < (MAX_BLOCKS)) {                                                           \
                uint64_t n = 1 + below(&rng, (MAX_BLOCK));                                            \
                if (P##_reserve(q, n, &id[n_blocks]) == DC_OK) {                                              \
                    base[n_blocks] = v;                                                                       \
                    size[n_blocks] = n;                                                                       \
                    next_i[n_blocks++] = 0;                                                                   \
                    v += n;                                                                                   \
                }                                                                                             \
            } else if (r < 55 && n_ref < (MAX_PENDING)) {                                                     \
                res_ref e = {t, 0, arg++, DC_EVENT_NONE, false};                                                     \
                size_t b = n_blocks ? below(&rng, n_blocks) : 0;                                      \
                if (r < 30 && n_blocks && next_i[b] < size[b]) {                                              \
                    /* a number of the block, not always the next: skip some */                               \
                    uint64_t i = next_i[b] + below(&rng, 2);                                          \
                    if (i >= size[b])                                                                         \
                        i = next_i[b];                                                                        \
                    next_i[b] = i + 1;                                                                        \
                    e.vseq = base[b] + i;                                                                     \
                    e.reserved = true;                                                                        \
                    CU_ASSERT_EQUAL_FATAL(P##_push_reserved(q, id[b], i, t, handler_a, NULL, e.arg, &e.h),    \
                                          DC_OK);                                                             \
                } else {                                                                                      \
                    e.vseq = v++;                                                                             \
                    CU_ASSERT_EQUAL_FATAL(P##_push(q, t, handler_a, NULL, e.arg, &e.h), DC_OK);               \
                }                                                                                             \
                ref[n_ref++] = e;                                                                             \
            } else if (r < 62 && n_ref > 0) {                                                                 \
                size_t k = below(&rng, n_ref);                                                        \
                CU_ASSERT_FATAL(P##_cancel(q, ref[k].h));                                                     \
                ref[k] = ref[--n_ref];                                                                        \
            } else {                                                                                          \
                dc_event ev;                                                                                  \
                if (n_ref == 0) {                                                                             \
                    CU_ASSERT_FALSE_FATAL(P##_pop(q, &ev));                                                   \
                    continue;                                                                                 \
                }                                                                                             \
                size_t m = 0;                                                                                 \
                for (size_t k = 1; k < n_ref; k++)                                                            \
                    if (ref[k].t < ref[m].t || (ref[k].t == ref[m].t && ref[k].vseq < ref[m].vseq))           \
                        m = k;                                                                                \
                CU_ASSERT_FATAL(P##_pop(q, &ev));                                                             \
                CU_ASSERT_EQUAL_FATAL(ev.arg, ref[m].arg);                                                    \
                CU_ASSERT_EQUAL_FATAL(ev.time_s, ref[m].t);                                                   \
                n_reserved_pops += ref[m].reserved;                              \
                now = ev.time_s;                                                                              \
                ref[m] = ref[--n_ref];                                                                        \
            }                                                                                                 \
            CU_ASSERT_EQUAL_FATAL(P##_size(q), n_ref);                                                        \
            RES_CHECK(q);                                                                                     \
        }                                                                                                     \
        CU_ASSERT(n_blocks > 0);                                                                              \
        CU_ASSERT(n_reserved_pops > 0);                                                                       \
        P##_destroy(q);                                                                                       \
    }

#define RES_CHECK(q) ((void)0)
RESERVED_TEST(test_reserved_real, dc_eventq, dc_eventq, 40, 200, 3000, 200000)
#undef RES_CHECK

static size_t wb_renumberings_seen;
static uint64_t wb_last_next_seq;
#define RES_CHECK(q)                                                                                          \
    do {                                                                                                      \
        CU_ASSERT_FATAL(wb_consistent(q));                                                                    \
        wb_renumberings_seen += (q)->next_seq < wb_last_next_seq;                                             \
        wb_last_next_seq = (q)->next_seq;                                                                     \
    } while (0)
/* 64 numbers: the blocks (at most 3 x 5) and the pending (at most 30) fit */
RESERVED_TEST(test_reserved_wb_inner, wb_eventq, wb_eventq, 3, 5, 30, 100000)
#undef RES_CHECK

static void test_reserved_wb(void)
{
    test_reserved_wb_inner();
    CU_ASSERT(wb_renumberings_seen > 100);
}

/* ------------------------------------------------------------------------ */

static int register_suites(void)
{
    DC_TEST_SUITE("eventq",
                  {"random operations vs reference (200k ops)", test_random_reference},
                  {"random operations vs reference, white-box copy", test_random_reference_whitebox},
                  {"small heaps: the twin layout crossed both ways, the engine's pair", test_small_heaps},
                  {"100k pushes drain in sorted order", test_sorted_drain},
                  {"FIFO on equal times", test_fifo_equal_times},
                  {"FIFO across sequence renumbering", test_fifo_across_renumbering},
                  {"cancel and is_pending", test_cancel_and_pending},
                  {"cancel from every position", test_cancel_positions},
                  {"a cancelled event's entry stands in for a later push", test_standins},
                  {"a pop's hole left to a second push", test_hole_left},
                  {"a kept hole never puts an entry past the heap", test_hole_kept_growth},
                  {"generation wrap retires the slot", test_generation_retirement},
                  {"empty queue, peek_time and size", test_empty_peek_size},
                  {"create with an impossible hint", test_create_too_large},
                  {"pool slots are reused", test_pool_reuse},
                  {"ENOMEM leaves the queue unchanged", test_enomem_leaves_queue_unchanged},
                  {"dead entries of cancelled events stay bounded", test_dead_entries_bounded},
                  {"pop_until, replace-top and the hole", test_pop_until_and_hole},
                  {"pushes for the current instant: the FIFO", test_instant_fifo},
                  {"reserved numbers vs reference", test_reserved_real},
                  {"reserved numbers across renumbering, white-box copy", test_reserved_wb});
    return 0;
}

int main(void)
{
    return dc_test_main(register_suites);
}
