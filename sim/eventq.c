/* The pending-event set: an indexed 4-ary min-heap in one aligned block.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The pending-event set (see eventq.h).
 *
 * Layout.  One 64-byte aligned block holds three arrays:
 *   heap[]  16-byte entries {time, key}: the time as an order-preserving
 *           integer and key = seq << 32 | slot.  A comparison reads only the
 *           heap array and is two integer compares, without branches (seq is
 *           unique, so the slot bits never decide);
 *   slots[] each event's payload (fn, ctx, arg), its generation, and the link
 *           of the free list while the slot is free;
 *   pos[]   for a pending slot, its index in heap[]: the back-pointer that
 *           makes cancel O(log n).
 * The heap is 4-ary with its root at index ROOT = 3, so that the children of
 * node j are 4j-8 .. 4j-5: four entries starting at a multiple of 4, i.e. one
 * 64-byte cache line.  Sifts move a hole and write each entry once; sift-down
 * prefetches the grandchildren (four adjacent lines) while it compares the
 * children, and pop prefetches the payload of the next root.
 *
 * Handles are gen << 32 | (slot + 1).  A slot's generation is bumped whenever
 * its event leaves the queue, so older handles no longer match; a slot whose
 * generation would wrap around is retired rather than reused.
 *
 * Sequence numbers have 32 bits.  When they run out (after ~4e9 pushes) the
 * pending entries are sorted by (time, seq) -- a sorted array is a valid heap --
 * and renumbered 0..n-1, which keeps their order. */
#include "eventq.h"

#include <assert.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "error.h"

/* Overridable only so that the unit test can compile a copy with a tiny
 * sequence space, a small pool limit and a failing allocator. */
#ifndef DC_EVENTQ_SEQ_BITS
#define DC_EVENTQ_SEQ_BITS 32
#endif
#ifndef DC_EVENTQ_MAX_SLOTS
#define DC_EVENTQ_MAX_SLOTS ((size_t)UINT32_MAX - 16)
#endif
#ifndef DC_EVENTQ_ALLOC
#define DC_EVENTQ_ALLOC(size) aligned_alloc(64, (size))
#define DC_EVENTQ_FREE(p) free(p)
#endif

_Static_assert(DC_EVENTQ_SEQ_BITS >= 2 && DC_EVENTQ_SEQ_BITS <= 32,
               "the sequence number shares a 64-bit key with a 32-bit slot");
/* Renumbering needs fewer pending events than sequence numbers. */
_Static_assert(DC_EVENTQ_MAX_SLOTS < ((uint64_t)1 << DC_EVENTQ_SEQ_BITS),
               "pool limit must stay below the sequence space");

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)(p))
#endif

#define ROOT ((size_t)3)
#define NO_SLOT UINT32_MAX
#define SEQ_LIMIT ((uint64_t)1 << DC_EVENTQ_SEQ_BITS)
#define GEN_RETIRED UINT32_MAX
#define MIN_CAP ((size_t)16)
#define ALIGN ((size_t)64)
/* Blocks this large ask the kernel for transparent huge pages: the random
 * accesses of a big heap otherwise miss the TLB at nearly every level. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HUGE_MIN_BYTES ((size_t)4 << 20)

typedef struct heap_entry {
    uint64_t time; /* time_key(time_s) */
    uint64_t key;  /* seq << 32 | slot */
} heap_entry;

typedef struct slot_data {
    dc_event_fn fn;
    void *ctx;
    uint64_t arg;
    uint32_t gen;
    uint32_t next_free; /* while free: the next free slot (LIFO list) */
} slot_data;

struct dc_eventq {
    heap_entry *heap; /* pending entries at heap[ROOT .. ROOT + n) */
    slot_data *slots;
    uint32_t *pos;
    void *block; /* owns heap, slots and pos */
    size_t n;
    size_t cap;  /* slots in the pool */
    size_t used; /* slots [0, used) have been handed out at least once */
    uint32_t free_head;
    uint64_t next_seq;
};

/* Maps a double (not NaN) to an integer with the same order: set the sign bit
 * of a positive number, flip every bit of a negative one.  -0.0 becomes +0.0
 * first, so that the two compare equal as doubles do. */
static inline uint64_t time_key(double t)
{
    uint64_t u;
    t += 0.0; /* -0.0 + 0.0 == +0.0 */
    memcpy(&u, &t, sizeof u);
    return u ^ ((uint64_t)(-(int64_t)(u >> 63)) | (UINT64_C(1) << 63));
}

static inline double key_time(uint64_t k)
{
    uint64_t u = k ^ (((k >> 63) - 1) | (UINT64_C(1) << 63));
    double t;
    memcpy(&t, &u, sizeof t);
    return t;
}

static inline uint32_t entry_slot(const heap_entry *e)
{
    return (uint32_t)e->key;
}

/* a before b in (time, seq) order: (time, key) compared as one 128-bit
 * number, a.time < b.time + borrow.  time_key never reaches UINT64_MAX (that
 * would be a NaN), so the sum does not overflow.  No branch: random keys would
 * mispredict it. */
static inline bool before(const heap_entry *a, const heap_entry *b)
{
    return a->time < b->time + (a->key < b->key);
}

/* Bytes of the block for cap slots; 0 on overflow.  cap is a multiple of 16,
 * so every array starts on a 64-byte boundary. */
static size_t block_size(size_t cap)
{
    if (cap > (SIZE_MAX - 4 * ALIGN) / (sizeof(heap_entry) + sizeof(slot_data) + sizeof(uint32_t)))
        return 0;
    size_t bytes = (cap + ROOT + 1) * sizeof(heap_entry) + cap * sizeof(slot_data) +
                   cap * sizeof(uint32_t);
    return (bytes + ALIGN - 1) / ALIGN * ALIGN;
}

/* Advice only: the huge pages that fit inside a fresh, untouched block. */
static void advise_huge_pages(void *block, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    if (bytes < HUGE_MIN_BYTES)
        return;
    uintptr_t start = ((uintptr_t)block + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
    uintptr_t end = ((uintptr_t)block + bytes) & ~(HUGE_PAGE - 1);
    if (end > start)
        (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)block;
    (void)bytes;
#endif
}

/* Moves the queue to a new block of new_cap slots; false (queue unchanged)
 * when out of memory. */
static bool resize(dc_eventq *q, size_t new_cap)
{
    assert(new_cap % MIN_CAP == 0 && new_cap >= q->used);
    if (new_cap > DC_EVENTQ_MAX_SLOTS)
        return false;
    size_t bytes = block_size(new_cap);
    if (bytes == 0)
        return false;
    char *block = DC_EVENTQ_ALLOC(bytes);
    if (!block)
        return false;
    advise_huge_pages(block, bytes);
    heap_entry *heap = (heap_entry *)(void *)block;
    slot_data *slots = (slot_data *)(void *)(block + (new_cap + ROOT + 1) * sizeof(heap_entry));
    uint32_t *pos = (uint32_t *)(void *)((char *)slots + new_cap * sizeof(slot_data));
    if (q->block) {
        memcpy(heap + ROOT, q->heap + ROOT, q->n * sizeof(heap_entry));
        memcpy(slots, q->slots, q->used * sizeof(slot_data));
        memcpy(pos, q->pos, q->used * sizeof(uint32_t));
        DC_EVENTQ_FREE(q->block);
    }
    q->block = block;
    q->heap = heap;
    q->slots = slots;
    q->pos = pos;
    q->cap = new_cap;
    return true;
}

/* Doubles the pool, or takes what is left below the limit. */
static bool grow(dc_eventq *q)
{
    size_t max = DC_EVENTQ_MAX_SLOTS / MIN_CAP * MIN_CAP;
    size_t new_cap = q->cap <= max / 2 ? 2 * q->cap : max;
    return new_cap > q->cap && resize(q, new_cap);
}

dc_eventq *dc_eventq_create(size_t capacity_hint)
{
    if (capacity_hint > DC_EVENTQ_MAX_SLOTS)
        return NULL;
    dc_eventq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->free_head = NO_SLOT;
    size_t cap = MIN_CAP;
    if (capacity_hint > cap)
        cap = (capacity_hint + MIN_CAP - 1) / MIN_CAP * MIN_CAP;
    if (!resize(q, cap)) {
        free(q);
        return NULL;
    }
    return q;
}

void dc_eventq_destroy(dc_eventq *q)
{
    if (!q)
        return;
    DC_EVENTQ_FREE(q->block);
    free(q);
}

/* Places e at hole j or above it. */
static inline void sift_up(heap_entry *heap, uint32_t *pos, size_t j, heap_entry e)
{
    while (j > ROOT) {
        size_t p = j / 4 + 2;
        if (!before(&e, &heap[p]))
            break;
        heap[j] = heap[p];
        pos[entry_slot(&heap[j])] = (uint32_t)j;
        j = p;
    }
    heap[j] = e;
    pos[entry_slot(&e)] = (uint32_t)j;
}

/* Index of the earliest of the children c .. min(c + 3, last); c <= last. */
static inline size_t min_child(const heap_entry *heap, size_t c, size_t last)
{
    if (c + 3 <= last) {
        size_t a = c + before(&heap[c + 1], &heap[c]);
        size_t b = c + 2 + before(&heap[c + 3], &heap[c + 2]);
        return a ^ ((a ^ b) & -(size_t)before(&heap[b], &heap[a]));
    }
    size_t m = c;
    for (size_t k = c + 1; k <= last; k++)
        if (before(&heap[k], &heap[m]))
            m = k;
    return m;
}

/* Places e at hole j or below it; last is the index of the last entry. */
static inline void sift_down(heap_entry *heap, uint32_t *pos, size_t j, heap_entry e,
                             size_t last)
{
    for (;;) {
        size_t c = 4 * j - 8;
        if (c > last)
            break;
        size_t g = 4 * c - 8; /* the 16 grandchildren: 4 lines */
        if (g + 15 <= last) {
            PREFETCH(&heap[g]);
            PREFETCH(&heap[g + 4]);
            PREFETCH(&heap[g + 8]);
            PREFETCH(&heap[g + 12]);
        }
        size_t m = min_child(heap, c, last);
        if (!before(&heap[m], &e))
            break;
        heap[j] = heap[m];
        pos[entry_slot(&heap[j])] = (uint32_t)j;
        j = m;
    }
    heap[j] = e;
    pos[entry_slot(&e)] = (uint32_t)j;
}

static int cmp_entries(const void *pa, const void *pb)
{
    const heap_entry *a = pa, *b = pb;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

/* Sequence numbers ran out: renumber the pending entries 0..n-1 in order. */
static void renumber(dc_eventq *q)
{
    heap_entry *h = q->heap + ROOT;
    qsort(h, q->n, sizeof *h, cmp_entries);
    for (size_t i = 0; i < q->n; i++) {
        uint32_t s = entry_slot(&h[i]);
        h[i].key = (uint64_t)i << 32 | s;
        q->pos[s] = (uint32_t)(i + ROOT);
    }
    q->next_seq = q->n;
}

static void release_slot(dc_eventq *q, uint32_t s)
{
    slot_data *sd = &q->slots[s];
    if (++sd->gen == GEN_RETIRED)
        return; /* never reused: a handle of generation 0 may still be around */
    sd->next_free = q->free_head;
    q->free_head = s;
}

int dc_eventq_push(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx,
                   uint64_t arg, dc_event_handle *handle)
{
    assert(!isnan(time_s));
    uint32_t s = q->free_head;
    if (s == NO_SLOT) {
        if (q->used == q->cap && !grow(q)) {
            if (handle)
                *handle = DC_EVENT_NONE;
            return DC_ENOMEM;
        }
        s = (uint32_t)q->used++;
        q->slots[s].gen = 0;
    } else {
        q->free_head = q->slots[s].next_free;
    }
    if (q->next_seq == SEQ_LIMIT)
        renumber(q);
    slot_data *sd = &q->slots[s];
    sd->fn = fn;
    sd->ctx = ctx;
    sd->arg = arg;
    heap_entry e = {time_key(time_s), q->next_seq++ << 32 | s};
    sift_up(q->heap, q->pos, ROOT + q->n, e);
    q->n++;
    if (handle)
        *handle = (uint64_t)sd->gen << 32 | (uint64_t)(s + 1);
    return DC_OK;
}

bool dc_eventq_pop(dc_eventq *q, dc_event *out)
{
    assert(out);
    if (q->n == 0)
        return false;
    heap_entry *heap = q->heap;
    uint32_t s = entry_slot(&heap[ROOT]);
    const slot_data *sd = &q->slots[s];
    out->time_s = key_time(heap[ROOT].time);
    out->fn = sd->fn;
    out->ctx = sd->ctx;
    out->arg = sd->arg;
    size_t last = ROOT + --q->n;
    if (q->n > 0) {
        sift_down(heap, q->pos, ROOT, heap[last], last - 1);
        /* the next pop reads this payload: start fetching it now */
        PREFETCH(&q->slots[entry_slot(&heap[ROOT])]);
    }
    release_slot(q, s);
    return true;
}

/* Slot of a pending event's handle, or NO_SLOT. */
static uint32_t pending_slot(const dc_eventq *q, dc_event_handle handle)
{
    uint64_t low = handle & UINT32_MAX;
    if (low == 0 || low > q->used)
        return NO_SLOT;
    uint32_t s = (uint32_t)(low - 1);
    uint32_t gen = (uint32_t)(handle >> 32);
    if (gen == GEN_RETIRED || q->slots[s].gen != gen)
        return NO_SLOT;
    assert(q->pos[s] >= ROOT && q->pos[s] < ROOT + q->n &&
           entry_slot(&q->heap[q->pos[s]]) == s);
    return s;
}

bool dc_eventq_cancel(dc_eventq *q, dc_event_handle handle)
{
    uint32_t s = pending_slot(q, handle);
    if (s == NO_SLOT)
        return false;
    heap_entry *heap = q->heap;
    size_t j = q->pos[s];
    size_t last = ROOT + --q->n;
    if (j != last) {
        heap_entry e = heap[last];
        if (j > ROOT && before(&e, &heap[j / 4 + 2]))
            sift_up(heap, q->pos, j, e);
        else
            sift_down(heap, q->pos, j, e, last - 1);
    }
    release_slot(q, s);
    return true;
}

bool dc_eventq_is_pending(const dc_eventq *q, dc_event_handle handle)
{
    return pending_slot(q, handle) != NO_SLOT;
}

double dc_eventq_peek_time(const dc_eventq *q)
{
    return q->n ? key_time(q->heap[ROOT].time) : INFINITY;
}

size_t dc_eventq_size(const dc_eventq *q)
{
    return q->n;
}
