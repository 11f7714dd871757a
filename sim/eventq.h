/* The pending-event set: a 4-ary min-heap keyed by (time, sequence), with handles.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The pending-event set: a 4-ary min-heap keyed by (time, sequence).
 *
 * - The sequence number is a counter taken at push, so events with equal times
 *   pop in the order they were scheduled (FIFO), which makes runs deterministic.
 * - Events live in a pool that grows by doubling; a freed slot is reused, so
 *   there is no malloc per event once the pool has grown to the working size.
 * - A handle names a slot and its generation; cancel frees the slot in O(1)
 *   and leaves a dead heap entry that is dropped when it reaches the top (the
 *   heap is rebuilt without them when they outnumber the pending events), and
 *   a stale handle (the event already ran or was cancelled) is recognised and
 *   ignored.
 * - A pop followed by a push (an event rescheduling its model, the common
 *   case) costs one sift, not two: the pop leaves a hole at the root that the
 *   push fills (replace-top); see eventq.c.
 * A 4-ary heap halves the depth of a binary heap; with 16-byte entries and
 * the root at index 3, a node's four children fill exactly one 64-byte cache
 * line, so sift-down costs fewer cache misses (LaMarca & Ladner, "The
 * influence of caches on the performance of heaps", 1996).  Up to 9
 * entries the heap has a layout of its own (each child of the root with at
 * most one child), so that a sift from the root is two levels without a
 * loop or an exit that a random choice decides (see eventq.c).
 * - A push reusing a cancelled event's slot, for a time not earlier than the
 *   cancelled event's, lets that event's heap entry stand in for it (no heap
 *   work; refiled when it reaches the top): a timer pushed back again and
 *   again (a job restarting at every failure) costs one sift per firing.
 * - Reserved numbers (dc_eventq_reserve): a block of sequence numbers taken
 *   now and pushed later, so that events known in advance need not all be
 *   in the heap to pop in the order they would have if pushed now.
 * Memory: 48 bytes per slot of the pool (its peak number of pending events)
 * and 16 bytes per heap entry (at most twice that peak, plus a constant).
 * Limits: fewer than 2^32 - 16 pending events; a handle belongs to the queue
 * that issued it (a handle from another queue may match an unrelated event). */
#ifndef DC_EVENTQ_H
#define DC_EVENTQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dc_sim;

/* What runs when an event fires: the engine calls fn(sim, ctx, arg). */
typedef void (*dc_event_fn)(struct dc_sim *sim, void *ctx, uint64_t arg);

/* 0 is never a valid handle, so it can mean "nothing scheduled". */
typedef uint64_t dc_event_handle;
#define DC_EVENT_NONE ((dc_event_handle)0)

typedef struct dc_event {
    double time_s;
    dc_event_fn fn;
    void *ctx;
    uint64_t arg;
} dc_event;

typedef struct dc_eventq dc_eventq;

/* NULL when out of memory.  capacity_hint pre-sizes the pool (0 is fine). */
dc_eventq *dc_eventq_create(size_t capacity_hint);
/* NULL is allowed and does nothing. */
void dc_eventq_destroy(dc_eventq *q);

/* DC_OK, or DC_ENOMEM when the pool cannot grow (the queue is unchanged and
 * *handle is DC_EVENT_NONE).  handle may be NULL.  time_s must not be NaN;
 * -0.0 pops as +0.0. */
int dc_eventq_push(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx,
                   uint64_t arg, dc_event_handle *handle);

/* Sets aside n sequence numbers (the places in the order of equal times)
 * for events pushed later by dc_eventq_push_reserved: the i-th of them (i <
 * n) pops exactly where it would had it been pushed now, as the i-th of n
 * plain pushes in a row, so that a source of many events known in advance
 * (a sorted trace's arrivals) can keep one pending at a time and still
 * give the same order.  DC_OK and *id; DC_ENOMEM (nothing set aside) when
 * the numbers left are too few or out of memory.  Each number is pushed at
 * most once.  The blocks count against the sequence space: once it runs
 * out, a push fails (DC_ENOMEM) when the pending events and the blocks do
 * not fit in 2^32 - 1 numbers. */
int dc_eventq_reserve(dc_eventq *q, uint64_t n, size_t *id);
/* dc_eventq_push with number i of reservation id (it never goes to the
 * instant's FIFO nor takes a stand-in: its entry goes to the heap). */
int dc_eventq_push_reserved(dc_eventq *q, size_t id, uint64_t i, double time_s, dc_event_fn fn, void *ctx,
                            uint64_t arg, dc_event_handle *handle);

/* Removes the earliest event into *out (not NULL); false when the queue is empty. */
bool dc_eventq_pop(dc_eventq *q, dc_event *out);
/* The same, but only if the earliest event's time is at most limit_s (not
 * NaN); false (nothing removed) otherwise. */
bool dc_eventq_pop_until(dc_eventq *q, double limit_s, dc_event *out);

/* true if the event was pending and is now removed; false for a stale or
 * DC_EVENT_NONE handle. */
bool dc_eventq_cancel(dc_eventq *q, dc_event_handle handle);

bool dc_eventq_is_pending(const dc_eventq *q, dc_event_handle handle);

/* Time of the earliest event, +INFINITY when empty.  (Not const: it drops
 * the entries of cancelled events from the top.) */
double dc_eventq_peek_time(dc_eventq *q);

size_t dc_eventq_size(const dc_eventq *q);

/* false only when no event is pending at or before the time of the last
 * pop (none in the FIFO, no heap entry, live or cancelled, that early);
 * true when one may be.  Constant time, and it changes nothing (the hole
 * a pop left stays for the next push).  Before any pop: whether any
 * event may be pending. */
bool dc_eventq_may_be_due(const dc_eventq *q);

#endif
