/* The pending-event set: a 4-ary min-heap (twin layout when small) with lazy cancellation, pop-then-push as one sift, and a FIFO for the current instant.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The pending-event set (see eventq.h).
 *
 * Layout.  Two 64-byte aligned arrays:
 *   heap[]  16-byte entries {time, key}: the time as an order-preserving
 *           integer and key = seq << 32 | slot.  A comparison reads only the
 *           heap array and is two integer compares, without branches (seq is
 *           unique, so the slot bits never decide);
 *   slots[] each event's payload (fn, ctx, arg), its generation and the
 *           sequence number of its heap entry; while a slot is free its arg
 *           holds the next free slot (a LIFO list).
 * The heap is 4-ary with its root at index ROOT = 3, so that the children of
 * node j are 4j-8 .. 4j-5: four entries starting at a multiple of 4, i.e. one
 * 64-byte cache line.  Every position past the last entry holds a sentinel
 * later than any time, so a node's four children are always compared as
 * four, without a bounds loop.  Sifts move a hole and write each entry once;
 * sift-down prefetches the grandchildren (four adjacent lines) while it
 * compares the children.
 *
 * Small heaps.  A heap of at most TWIN_N = 9 entries (the hole included)
 * has the twin layout instead: the root, its four children at ROOT + 1 ..
 * ROOT + 4, and below child j at most one entry, at j + 4 (the 4-ary
 * layout hangs all of ROOT + 5 .. ROOT + 8 below the first child, so that
 * a sift from the root leaves after one level or two as a random choice
 * decides, a branch mispredicted about one time in four at 8 pending).  A
 * sift from the root is unrolled: the earliest child by a tournament on
 * values, and in the twin layout that child's one child (or a sentinel)
 * moved up without a branch; at most five entries the second level is
 * left out (there is none).  The layouts agree up to five entries; at
 * TWIN_N + 1 the first child sifts down among its four (twin_to_4ary), and
 * back at TWIN_N each other child swaps with the entry 4 places on when
 * that is earlier (to_twin).  Only the layout changes, not the order.
 *
 * Replace-top.  A pop takes the root and leaves a hole there instead of
 * sifting the last entry down at once.  A push that finds the hole puts its
 * entry at the root and sifts it down: one sift for the pop-then-push that a
 * simulation does at almost every event (an event reschedules its model),
 * where pop and push would cost a sift each.  Any other operation first
 * settles the hole (the last entry sifts down from the root, as a plain pop
 * would have done).  The pop order is the total (time, seq) order either
 * way, so the hole changes no result.
 *
 * The engine's pair.  dc_sim_run pops an event and its handler pushes the
 * next (dc_sim_at): in a heap of at most KEEP_HOLE_MIN entries the pop notes
 * that its hole and the popped event's slot wait for that push (fast): the
 * slot, its generation bumped (the popped event's handles are stale), is
 * kept for the push (fast_slot) instead of going through the free list, and
 * the push takes both at once: the slot, its entry at the root sifted down,
 * nothing else tested (not the instant's FIFO, not a stand-in: the slot's
 * entry was the root, now the hole).  A push for the current instant then
 * fills the hole rather than the FIFO; the pop order is the same total
 * order.  A peek, a second pop or a rebuild in between settles the hole and
 * gives the kept slot to the free list (end_fast); a cancel of another
 * event leaves both waiting.  The pop before it takes the root without the
 * general path's tests when there is no hole and the FIFO is empty, and
 * compares its time with the limit as a double.  Sifts find the earliest child by value as well as by address
 * (selects on the four children loaded), so that the comparison with the
 * entry sifted and the move do not wait for a second load: more
 * instructions, a shorter chain of dependent ones (docs/DEVELOPING.md,
 * Benchmarks: what was tried and what it gave).
 *
 * Leaving the hole.  When a pop is followed by two pushes, a late one and
 * then an early one (a failure: its repair days ahead, then the next
 * failure seconds ahead), replace-top sifts the late one down from the
 * root through the whole depth and the early one then sifts up through
 * it again.  So in heaps of more than KEEP_HOLE_MIN entries a push may
 * leave the hole: one not before the root's earliest child goes up from
 * the bottom (stopping below the root: the hole is earlier than anything),
 * one before it fills the hole at once, and a pop or any other operation
 * settles a hole still open as before.  Whether to leave it is learnt:
 * a score of 0 .. 3 rises when a pop is followed by a second push (leaving
 * the hole then costs at most a sift up from the bottom, usually short,
 * and saves a sift down) and falls when a late push is the only one (the
 * hole left open then costs a sift down anyway), so a hold model, one push
 * per pop, keeps replace-top.  The heap's layout depends on it, not the
 * pop order: no result does.
 *
 * Lazy cancellation.  Cancel frees the slot at once (O(1)) and leaves its
 * heap entry behind, dead: an entry is live when its slot is pending and
 * holds the entry's sequence number (a reused slot has a newer one).  Dead
 * entries are dropped when they reach the root.  So sifts keep no
 * back-pointers (a back-pointer write per level is a cache miss in a large
 * heap), at the price of dead entries: when they outnumber the live ones
 * (plus a margin), the heap is rebuilt without them in O(n) (Floyd), so
 * the heap never holds more than twice the peak number pending, plus a
 * constant, and each cancel costs O(1) amortised.
 *
 * Handles are gen << 32 | (slot + 1).  A slot's generation is bumped whenever
 * its event leaves the queue (popped or cancelled), so older handles no
 * longer match; a slot whose generation would wrap around is retired rather
 * than reused.
 *
 * The current instant.  A push for the time of the last pop (dc_sim_after
 * with delay 0: a model deferring work to the end of the instant) goes to
 * a FIFO ring instead of the heap: it pops after every entry of the heap
 * at that time scheduled before it and before anything later, which a
 * heap push would reach through a sift up to the root and a sift down
 * from it (two full sifts; the FIFO costs a store and a load).  Every
 * FIFO entry has the same time and the FIFO is in sequence order, so its
 * head is its minimum, and a pop takes the earlier of the heap's root and
 * the FIFO's head in (time, seq) order: the order is the same total order
 * as without the FIFO.  A push for that time while the FIFO holds another
 * (an earlier time was pushed and popped since), or when the ring cannot
 * grow, goes to the heap.  Cancelled FIFO entries are dropped at its head.
 *
 * Stand-ins.  A cancelled event's entry stays in the heap, dead, until it
 * reaches the root.  A push that reuses its slot (the free list is LIFO: a
 * push soon after a cancel takes the cancelled slot) for a time not
 * earlier than that entry's leaves the entry in place as the new event's
 * stand-in, with no heap work: the slot keeps its event's time and
 * sequence number beside the sequence number of its entry (eseq).  The
 * stand-in's key (time, seq) is smaller than the event's (no later time,
 * an older sequence number), so it reaches the root first; there (or in a
 * rebuild) it is refiled under the event's key, so the pop order is the
 * same total order.  This is the job that restarts again at every failure
 * of a large cluster: cancel the restart, push it 600 s later, a failure
 * after another, at the cost of one refile per restart time instead of a
 * sift up per push and a sift down per dead entry.
 *
 * Reserved numbers.  dc_eventq_reserve takes a block of n sequence numbers
 * at once (next_seq moves by n); dc_eventq_push_reserved later pushes an
 * event under one of them, so that it pops where it would have had it been
 * pushed at the reservation: a sorted trace's arrivals, one pending at a
 * time instead of all in the heap from the start.  Its number may be older
 * than entries pushed since, so its entry neither joins the instant's FIFO
 * (kept in sequence order) nor takes a stand-in (whose key must be the
 * smaller): it goes to the heap, whose order is the (time, seq) order
 * whatever the numbers.
 *
 * Sequence numbers have 32 bits (the value UINT32_MAX marks a free slot).
 * When they run out (after ~4e9 pushes) the heap is rebuilt without its dead
 * entries (the FIFO's join it) and renumbered in sequence order, each
 * reserved block kept whole at its place (its entries and its numbers not
 * yet pushed), so that any two numbers compare as before; then sorted by
 * (time, seq): a sorted array is a valid heap. */
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

#if defined(__GNUC__)
#define PREFETCH(p) __builtin_prefetch(p)
#define ALWAYS_INLINE inline __attribute__((always_inline))
#define NOINLINE __attribute__((noinline))
#else
#define PREFETCH(p) ((void)(p))
#define ALWAYS_INLINE inline
#define NOINLINE
#endif

#define ROOT ((size_t)3)
#define NO_SLOT UINT32_MAX
/* Sequence numbers in use are below SEQ_END; UINT32_MAX is never one. */
#define SEQ_END (((uint64_t)1 << DC_EVENTQ_SEQ_BITS) - (DC_EVENTQ_SEQ_BITS == 32))
#define FREE_SEQ UINT32_MAX
#define NO_ENTRY UINT32_MAX
#define GEN_RETIRED UINT32_MAX
#define MIN_CAP ((size_t)16)
#define ALIGN ((size_t)64)
/* Dead entries allowed beyond the live count before the heap is rebuilt. */
#define DEAD_MARGIN ((size_t)32)
/* Blocks this large ask the kernel for transparent huge pages: the random
 * accesses of a big heap otherwise miss the TLB at nearly every level. */
#define HUGE_PAGE ((uintptr_t)2 << 20)
#define HUGE_MIN_BYTES ((size_t)4 << 20)
/* Pools of this many slots (128 KB) or more have their payloads prefetched,
 * heaps of this many entries (16 KB) their grandchildren. */
#define PREFETCH_SLOTS ((size_t)4096)
#define PREFETCH_ENTRIES ((size_t)1024)
/* Heaps of more entries than this may leave the hole to a second push (see
 * "Leaving the hole"); overridable for the unit test's small copy. */
#ifndef DC_EVENTQ_KEEP_HOLE_MIN
#define DC_EVENTQ_KEEP_HOLE_MIN ((size_t)256)
#endif
#define KEEP_HOLE_MIN DC_EVENTQ_KEEP_HOLE_MIN
/* Heaps of at most TWIN_N entries have the twin layout (see "Small
 * heaps"): each child of the root has at most one child, 4 places on. */
#define TWIN_N ((size_t)9)

/* Renumbering needs fewer pending events than sequence numbers. */
_Static_assert(DC_EVENTQ_MAX_SLOTS < SEQ_END, "pool limit must stay below the sequence space");

typedef struct heap_entry {
    uint64_t time; /* time_key(time_s) */
    uint64_t key;  /* seq << 32 | slot */
} heap_entry;

/* Sequence numbers set aside by dc_eventq_reserve: [first, first + n). */
typedef struct reservation {
    uint64_t first, n;
    uint64_t renum; /* scratch for renumber: the block's new first */
} reservation;

typedef struct slot_data {
    dc_event_fn fn;
    void *ctx;
    uint64_t arg;  /* while free: the next free slot */
    uint64_t time; /* time key of its event (while free: of its last event) */
    uint32_t gen;
    uint32_t seq;  /* the sequence number of its event; FREE_SEQ while free */
    uint32_t eseq; /* that of its entry in the heap, NO_ENTRY when it has none there */
} slot_data;

struct dc_eventq {
    heap_entry *heap; /* entries at heap[ROOT .. ROOT + n), sentinels after them */
    slot_data *slots;
    size_t n;         /* heap entries: live, dead, and the hole */
    size_t live;      /* pending events */
    size_t heap_cap;  /* entries heap[] can hold (it has heap_cap + ROOT + 1) */
    size_t cap;       /* slots in the pool */
    size_t used;      /* slots [0, used) have been handed out at least once */
    uint32_t free_head;
    bool hole;        /* the root was popped and not yet refilled */
    bool kept;        /* a later push went below and left the hole */
    bool replaced;    /* a later push filled the hole, sifted down from the root */
    bool fast;        /* the hole of a pop and its slot at free_head wait for the next push
                         (see "The engine's pair") */
    uint8_t keep_score; /* 0 .. 3: whether a later push should leave the hole (>= 2) */
    uint32_t fast_slot; /* while fast: the popped event's slot, kept for the push (not free) */
    uint64_t next_seq;
    heap_entry *fifo; /* ring of entries for one time, in seq order */
    size_t fifo_cap;  /* 0 or a power of two */
    size_t fifo_head; /* index of its first entry */
    size_t fifo_n;    /* its entries, live and dead */
    uint64_t now;     /* time key of the last pop; before one, UINT64_MAX (no time's) */
    reservation *res; /* in order of first (disjoint blocks) */
    size_t n_res, res_cap;
    uint64_t res_total; /* sequence numbers in all the blocks */
};

/* Later than every time key: time_key never exceeds that of +INFINITY
 * (NaN is not allowed), and before() adds at most 1 to it. */
static const heap_entry SENTINEL = {UINT64_MAX - 1, UINT64_MAX};

/* Maps a double (not NaN) to an integer with the same order: a positive
 * number's bits with the sign bit set (2^63 + m for magnitude bits m), a
 * negative number's negated (2^64 - (2^63 + m) = 2^63 - m), so that -0.0
 * and +0.0 meet at 2^63 as they compare equal as doubles; integer
 * operations only (a floating add of +0.0 would lengthen the chain from
 * an event's time to its place in the heap). */
static inline uint64_t time_key(double t)
{
    uint64_t u;
    memcpy(&u, &t, sizeof u);
    uint64_t neg = (uint64_t)((int64_t)u >> 63); /* all ones for a negative number */
    return ((u ^ neg) - neg) ^ (~neg & (UINT64_C(1) << 63));
}

/* The inverse (-0.0 comes back as +0.0). */
static inline double key_time(uint64_t k)
{
    uint64_t pos = (uint64_t)((int64_t)k >> 63); /* all ones for a positive number's key */
    uint64_t u = ((k ^ ~pos) - ~pos) ^ (pos & (UINT64_C(1) << 63));
    double t;
    memcpy(&t, &u, sizeof t);
    return t;
}

static inline uint32_t entry_slot(const heap_entry *e)
{
    return (uint32_t)e->key;
}

static inline uint32_t entry_seq(const heap_entry *e)
{
    return (uint32_t)(e->key >> 32);
}

/* a before b in (time, seq) order: (time, key) compared as one 128-bit
 * number, a.time < b.time + borrow.  No time key reaches UINT64_MAX, so
 * the sum does not overflow.  No branch: random keys would mispredict it. */
static inline bool before(const heap_entry *a, const heap_entry *b)
{
    return a->time < b->time + (a->key < b->key);
}

/* (*t, *k) becomes the earlier of itself and (t1, k1), which wins only
 * when strictly before; returns all ones when it won, else 0.  The pair
 * compared as one 128-bit number (cmp, sbb), the borrow spread (sbb, which
 * keeps it in the carry) and the winner taken by two conditional moves:
 * six instructions where gcc 12 makes ten of the portable form (cmp, adc,
 * cmp, sbb and a select of three instructions for each half). */
static ALWAYS_INLINE uint64_t take_earlier(uint64_t *t, uint64_t *k, uint64_t t1, uint64_t k1)
{
#if defined(__x86_64__) && defined(__GNUC__)
    uint64_t l, d = t1;
    __asm__("cmp %[k], %[k1]\n\tsbb %[t], %[d]\n\tsbb %[l], %[l]\n\tcmovc %[t1], %[t]\n\tcmovc %[k1], %[k]"
            : [l] "=&r"(l), [d] "+&r"(d), [t] "+&r"(*t), [k] "+&r"(*k)
            : [t1] "r"(t1), [k1] "r"(k1)
            : "cc");
    return l;
#else
    uint64_t l = -(uint64_t)(t1 < *t + (k1 < *k));
    *t ^= (*t ^ t1) & l;
    *k ^= (*k ^ k1) & l;
    return l;
#endif
}

static inline bool is_live(const dc_eventq *q, const heap_entry *e)
{
    return q->slots[entry_slot(e)].seq == entry_seq(e);
}

/* A stand-in: the entry of a cancelled event whose slot now holds a later
 * event (see "Stand-ins" above). */
static inline bool is_standin(const dc_eventq *q, const heap_entry *e)
{
    const slot_data *sd = &q->slots[entry_slot(e)];
    return sd->eseq == entry_seq(e) && sd->seq != FREE_SEQ && sd->seq != entry_seq(e);
}

/* Whether the heap entry e (of a pending or a cancelled event) stays: a
 * live entry does, a stand-in does under its event's own key (rewritten in
 * *e), a cancelled event's does not (its slot then forgets it). */
static inline bool keep_entry(dc_eventq *q, heap_entry *e)
{
    uint32_t s = entry_slot(e), es = entry_seq(e);
    slot_data *sd = &q->slots[s];
    if (sd->seq == es)
        return true;
    if (sd->eseq != es)
        return false;
    if (sd->seq == FREE_SEQ) {
        sd->eseq = NO_ENTRY;
        return false;
    }
    *e = (heap_entry){sd->time, (uint64_t)sd->seq << 32 | s};
    sd->eseq = sd->seq;
    return true;
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

/* A block of count elements of size bytes, rounded up to whole lines; NULL
 * on overflow or when out of memory. */
static void *alloc_array(size_t count, size_t size)
{
    if (count > (SIZE_MAX - ALIGN) / size)
        return NULL;
    size_t bytes = (count * size + ALIGN - 1) / ALIGN * ALIGN;
    void *p = DC_EVENTQ_ALLOC(bytes);
    if (p)
        advise_huge_pages(p, bytes);
    return p;
}

/* Moves the heap to an array for new_cap entries (a multiple of 16), with
 * sentinels past the entries; false (queue unchanged) when out of memory.
 * The array has new_cap + ROOT + 1 positions, so that the last sibling group
 * (ending at new_cap + ROOT) exists. */
static bool resize_heap(dc_eventq *q, size_t new_cap)
{
    assert(new_cap % MIN_CAP == 0 && new_cap >= q->n);
    heap_entry *heap = alloc_array(new_cap + ROOT + 1, sizeof *heap);
    if (!heap)
        return false;
    if (q->heap)
        memcpy(heap + ROOT, q->heap + ROOT, q->n * sizeof *heap);
    for (size_t j = ROOT + q->n; j <= new_cap + ROOT; j++)
        heap[j] = SENTINEL;
    DC_EVENTQ_FREE(q->heap);
    q->heap = heap;
    q->heap_cap = new_cap;
    return true;
}

static bool resize_slots(dc_eventq *q, size_t new_cap)
{
    assert(new_cap % MIN_CAP == 0 && new_cap >= q->used);
    if (new_cap > DC_EVENTQ_MAX_SLOTS)
        return false;
    slot_data *slots = alloc_array(new_cap, sizeof *slots);
    if (!slots)
        return false;
    if (q->slots)
        memcpy(slots, q->slots, q->used * sizeof *slots);
    DC_EVENTQ_FREE(q->slots);
    q->slots = slots;
    q->cap = new_cap;
    return true;
}

/* Doubles the pool, or takes what is left below the limit. */
static bool grow_slots(dc_eventq *q)
{
    size_t max = DC_EVENTQ_MAX_SLOTS / MIN_CAP * MIN_CAP;
    size_t new_cap = q->cap <= max / 2 ? 2 * q->cap : max;
    return new_cap > q->cap && resize_slots(q, new_cap);
}

static bool grow_heap(dc_eventq *q)
{
    if (q->heap_cap > SIZE_MAX / 4)
        return false;
    return resize_heap(q, 2 * q->heap_cap);
}

dc_eventq *dc_eventq_create(size_t capacity_hint)
{
    if (capacity_hint > DC_EVENTQ_MAX_SLOTS)
        return NULL;
    dc_eventq *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->free_head = NO_SLOT;
    q->now = UINT64_MAX;
    size_t cap = MIN_CAP;
    if (capacity_hint > cap)
        cap = (capacity_hint + MIN_CAP - 1) / MIN_CAP * MIN_CAP;
    if (!resize_slots(q, cap) || !resize_heap(q, cap)) {
        dc_eventq_destroy(q);
        return NULL;
    }
    return q;
}

void dc_eventq_destroy(dc_eventq *q)
{
    if (!q)
        return;
    DC_EVENTQ_FREE(q->heap);
    DC_EVENTQ_FREE(q->slots);
    free(q->fifo);
    free(q->res);
    free(q);
}

/* Places e at hole j or above it, below stop (ROOT, or past the root's
 * children while the root is a hole); returns where. */
static inline size_t sift_up_to(heap_entry *heap, size_t j, heap_entry e, size_t stop)
{
    while (j > stop) {
        size_t p = j / 4 + 2;
        if (!before(&e, &heap[p]))
            break;
        heap[j] = heap[p];
        j = p;
    }
    heap[j] = e;
    return j;
}

/* Places e at hole j or above it; returns where. */
static inline size_t sift_up(heap_entry *heap, size_t j, heap_entry e) { return sift_up_to(heap, j, e, ROOT); }

/* Index of the earliest of the four children c .. c + 3 (sentinels past the
 * last entry lose every comparison). */
static inline size_t min_child(const heap_entry *heap, size_t c)
{
    size_t a = c + before(&heap[c + 1], &heap[c]);
    size_t b = c + 2 + before(&heap[c + 3], &heap[c + 2]);
    return a ^ ((a ^ b) & -(size_t)before(&heap[b], &heap[a]));
}

/* Places e at hole j or below it; last is the index of the last entry.
 * prefetch: fetch the grandchildren while comparing the children (worth it
 * only once the heap outgrows the first-level cache).  Addresses are
 * computed as integers: node j at heap + j has its children at
 * heap + 4j - 8, i.e. at byte address 4 x (its own) - (3 x heap's + 8
 * entries), an address and a shift instead of an index scaled and added
 * at every step. */
static ALWAYS_INLINE void sift_down_loop(heap_entry *heap, size_t j, heap_entry e, size_t last,
                                         bool prefetch)
{
    const uintptr_t k = 3 * (uintptr_t)heap + 8 * sizeof *heap;
    const uintptr_t end = (uintptr_t)(heap + last);
    uintptr_t p = (uintptr_t)(heap + j);
    for (;;) {
        uintptr_t c = 4 * p - k;
        if (c > end)
            break;
        uintptr_t g = 4 * c - k; /* the 16 grandchildren: 4 lines */
        if (prefetch && g + 15 * sizeof *heap <= end) {
            PREFETCH((const void *)g);
            PREFETCH((const void *)(g + 4 * sizeof *heap));
            PREFETCH((const void *)(g + 8 * sizeof *heap));
            PREFETCH((const void *)(g + 12 * sizeof *heap));
        }
        /* the earliest child by value as well as by address, so that the
         * comparison with e and the move wait for no second load */
        const heap_entry *cp = (const heap_entry *)c;
        uint64_t t0 = cp[0].time, k0 = cp[0].key, t1 = cp[1].time, k1 = cp[1].key;
        uint64_t t2 = cp[2].time, k2 = cp[2].key, t3 = cp[3].time, k3 = cp[3].key;
        uint64_t l1 = -(uint64_t)(t1 < t0 + (k1 < k0));
        uint64_t l3 = -(uint64_t)(t3 < t2 + (k3 < k2));
        uint64_t ta = t0 ^ ((t0 ^ t1) & l1), ka = k0 ^ ((k0 ^ k1) & l1);
        uint64_t tb = t2 ^ ((t2 ^ t3) & l3), kb = k2 ^ ((k2 ^ k3) & l3);
        uintptr_t a = c + (sizeof *heap & l1), b = c + 2 * sizeof *heap + (sizeof *heap & l3);
        uint64_t lb = -(uint64_t)(tb < ta + (kb < ka));
        uint64_t tm = ta ^ ((ta ^ tb) & lb), km = ka ^ ((ka ^ kb) & lb);
        uintptr_t m = a ^ ((a ^ b) & lb);
        if (!(tm < e.time + (km < e.key)))
            break;
        ((heap_entry *)p)->time = tm;
        ((heap_entry *)p)->key = km;
        p = m;
    }
    *(heap_entry *)p = e;
}

/* Out of line: a large heap's sift costs far more than the call, and
 * keeping it out leaves a small heap's push and pop short (fewer
 * registers to save). */
static NOINLINE void sift_down_far(heap_entry *heap, size_t j, heap_entry e, size_t last)
{
    sift_down_loop(heap, j, e, last, true);
}

static ALWAYS_INLINE void sift_down(heap_entry *heap, size_t j, heap_entry e, size_t last)
{
    if (last < PREFETCH_ENTRIES)
        sift_down_loop(heap, j, e, last, false);
    else
        sift_down_far(heap, j, e, last);
}

/* e into the hole at the root of a small heap, unrolled: a heap of at most
 * five entries (twin false: the root and its four children, sentinels past
 * the last) or one of at most TWIN_N in the twin layout (twin: below each
 * child at most one entry, 4 places on).  The earliest child by a
 * tournament on the four values loaded (no second load waits for its
 * address); in the twin layout its one child, or a sentinel, moves up
 * when before e, selected without a branch (the stores are the same
 * either way, to addresses the selections give). */
static ALWAYS_INLINE void sift_down_one(heap_entry *heap, heap_entry e, bool twin)
{
    heap_entry *c = heap + ROOT + 1;
    uint64_t t0 = c[0].time, k0 = c[0].key, t1 = c[1].time, k1 = c[1].key;
    uint64_t t2 = c[2].time, k2 = c[2].key, t3 = c[3].time, k3 = c[3].key;
    uint64_t l1 = take_earlier(&t0, &k0, t1, k1); /* (t0, k0): the earlier of the first two */
    uint64_t l3 = take_earlier(&t2, &k2, t3, k3);
    uint64_t lb = take_earlier(&t0, &k0, t2, k2); /* the earliest */
    uint64_t tm = t0, km = k0;
    if (!(tm < e.time + (km < e.key))) {
        heap[ROOT] = e;
        return;
    }
    heap[ROOT] = (heap_entry){tm, km};
    uintptr_t a = (uintptr_t)c + (sizeof *heap & l1), b = (uintptr_t)(c + 2) + (sizeof *heap & l3);
    heap_entry *m = (heap_entry *)(a ^ ((a ^ b) & lb));
    if (!twin) {
        *m = e;
        return;
    }
    /* the twin layout's second level: the earliest child's one child (or
     * a sentinel), moved up if before e, without a branch */
    heap_entry *g = m + 4;
    uint64_t tg = g->time, kg = g->key;
    uint64_t tu = e.time, ku = e.key;
    uint64_t lg = take_earlier(&tu, &ku, tg, kg);
    *m = (heap_entry){tu, ku};
    *(heap_entry *)((uintptr_t)m ^ (((uintptr_t)m ^ (uintptr_t)g) & lg)) = e;
}

/* e into the hole at the root of a heap of n entries (the hole included),
 * in its layout. */
static ALWAYS_INLINE void root_down(heap_entry *heap, heap_entry e, size_t n)
{
    if (n <= 5)
        sift_down_one(heap, e, false);
    else if (n <= TWIN_N)
        sift_down_one(heap, e, true);
    else
        sift_down(heap, ROOT, e, ROOT + n - 1);
}

/* The twin layout made a 4-ary heap's (of TWIN_N entries, no hole): the
 * root's first child is the one with children there. */
static void twin_to_4ary(heap_entry *heap)
{
    sift_down_loop(heap, ROOT + 1, heap[ROOT + 1], ROOT + TWIN_N - 1, false);
}

/* A 4-ary heap of at most TWIN_N entries given the twin layout: each of
 * the root's children before the entry 4 places on (the first already is). */
static void to_twin(heap_entry *heap)
{
    for (size_t j = ROOT + 2; j <= ROOT + 4; j++)
        if (before(&heap[j + 4], &heap[j])) {
            heap_entry t = heap[j];
            heap[j] = heap[j + 4];
            heap[j + 4] = t;
        }
}

/* e pushed past the last of the n entries (no hole): sifted up in the
 * layout of n + 1 entries. */
static ALWAYS_INLINE void push_up(heap_entry *heap, heap_entry e, size_t n)
{
    if (n > TWIN_N) {
        sift_up(heap, ROOT + n, e);
        return;
    }
    if (n == TWIN_N) {
        twin_to_4ary(heap);
        sift_up(heap, ROOT + n, e);
        return;
    }
    size_t j = ROOT + n;
    if (j > ROOT + 4 && before(&e, &heap[j - 4])) { /* a child's child */
        heap[j] = heap[j - 4];
        j -= 4;
    }
    if (j > ROOT && before(&e, &heap[ROOT])) {
        heap[j] = heap[ROOT];
        j = ROOT;
    }
    heap[j] = e;
}

/* The engine's pair did not come (while fast): the slot kept for its push
 * joins the free list. */
static inline void end_fast(dc_eventq *q)
{
    if (!q->fast)
        return;
    q->fast = false;
    slot_data *sd = &q->slots[q->fast_slot];
    sd->seq = FREE_SEQ;
    sd->eseq = NO_ENTRY;
    sd->arg = q->free_head;
    q->free_head = q->fast_slot;
}

/* Fills the hole a pop left at the root with the last entry, as a plain pop
 * would have. */
static void fill_hole(dc_eventq *q)
{
    q->hole = false;
    end_fast(q);
    if (q->kept) { /* leaving it did not pay: no other push came */
        q->kept = false;
        q->keep_score -= q->keep_score > 0;
    }
    size_t last = ROOT + --q->n;
    heap_entry e = q->heap[last];
    q->heap[last] = SENTINEL;
    if (q->n == TWIN_N)
        to_twin(q->heap); /* (the hole at the root does not matter) */
    if (q->n > 0)
        root_down(q->heap, e, q->n);
}

static inline void settle(dc_eventq *q)
{
    if (q->hole)
        fill_hole(q);
}

/* Rebuilds the heap from its live entries (Floyd's bottom-up heapify). */
static void compact(dc_eventq *q)
{
    heap_entry *heap = q->heap;
    size_t end = ROOT + q->n, k = ROOT;
    for (size_t j = ROOT + q->hole; j < end; j++) {
        heap_entry e = heap[j];
        if (keep_entry(q, &e))
            heap[k++] = e;
    }
    for (size_t j = k; j < end; j++)
        heap[j] = SENTINEL;
    q->hole = false;
    end_fast(q);
    q->kept = false;
    q->n = k - ROOT;
    assert(q->n <= q->live); /* the rest are in the FIFO */
    if (q->n < 2)
        return;
    size_t last = ROOT + q->n - 1;
    for (size_t j = last / 4 + 2 + 1; j-- > ROOT;)
        sift_down(heap, j, heap[j], last);
    if (q->n <= TWIN_N)
        to_twin(heap);
}

static int cmp_entries(const void *pa, const void *pb)
{
    const heap_entry *a = pa, *b = pb;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

static int cmp_keys(const void *pa, const void *pb)
{
    const heap_entry *a = pa, *b = pb;
    return (a->key > b->key) - (a->key < b->key);
}

/* Sequence numbers ran out: renumber the live entries in sequence order,
 * each reservation's block kept whole (its entries and the numbers not yet
 * pushed) at its place, so that every two sequence numbers, pushed or
 * reserved, compare as before.  The caller made sure the new numbers fit
 * (live + res_total < SEQ_END). */
static void renumber(dc_eventq *q)
{
    compact(q);
    /* the FIFO's live entries join the heap (push_slow made room) */
    for (; q->fifo_n > 0; q->fifo_n--, q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1))
        if (is_live(q, &q->fifo[q->fifo_head]))
            q->heap[ROOT + q->n++] = q->fifo[q->fifo_head];
    q->fifo_head = 0;
    heap_entry *h = q->heap + ROOT;
    qsort(h, q->n, sizeof *h, cmp_keys); /* in sequence order */
    uint64_t outside = 0, blocks = 0; /* new numbers given to entries outside the blocks, in the blocks below */
    size_t r = 0;
    for (size_t i = 0; i < q->n; i++) {
        uint64_t s = entry_seq(&h[i]), ns;
        while (r < q->n_res && q->res[r].first + q->res[r].n <= s) { /* block r lies below s */
            q->res[r].renum = outside + blocks;
            blocks += q->res[r].n;
            r++;
        }
        if (r < q->n_res && q->res[r].first <= s) /* s is in block r, which starts at outside + blocks */
            ns = outside + blocks + (s - q->res[r].first);
        else
            ns = outside++ + blocks;
        uint32_t slot = entry_slot(&h[i]);
        h[i].key = ns << 32 | slot;
        q->slots[slot].seq = (uint32_t)ns;
        q->slots[slot].eseq = (uint32_t)ns;
    }
    for (; r < q->n_res; r++) {
        q->res[r].renum = outside + blocks;
        blocks += q->res[r].n;
    }
    for (r = 0; r < q->n_res; r++)
        q->res[r].first = q->res[r].renum;
    qsort(h, q->n, sizeof *h, cmp_entries); /* a sorted array is a valid heap (of either layout) */
    q->next_seq = outside + blocks;
    assert(q->next_seq < SEQ_END);
}

/* The slot's event left the queue. */
static void release_slot(dc_eventq *q, uint32_t s)
{
    slot_data *sd = &q->slots[s];
    sd->seq = FREE_SEQ;
    q->live--;
    if (++sd->gen == GEN_RETIRED)
        return; /* never reused: a handle of generation 0 may still be around */
    sd->arg = q->free_head;
    q->free_head = s;
}

/* Doubles the FIFO's ring (unwrapped); false (unchanged) when out of memory. */
static bool fifo_grow(dc_eventq *q)
{
    size_t cap = q->fifo_cap ? 2 * q->fifo_cap : MIN_CAP;
    heap_entry *f = cap <= SIZE_MAX / sizeof *f ? malloc(cap * sizeof *f) : NULL;
    if (!f)
        return false;
    for (size_t i = 0; i < q->fifo_n; i++)
        f[i] = q->fifo[(q->fifo_head + i) & (q->fifo_cap - 1)];
    free(q->fifo);
    q->fifo = f;
    q->fifo_cap = cap;
    q->fifo_head = 0;
    return true;
}

/* Whether e (of the time of the last pop) went to the FIFO; false: it
 * goes to the heap (the FIFO holds another time, or cannot grow). */
static ALWAYS_INLINE bool fifo_push(dc_eventq *q, heap_entry e)
{
    if (e.time != q->now || (q->fifo_n > 0 && q->fifo[q->fifo_head].time != e.time))
        return false;
    if (q->fifo_n == q->fifo_cap && !fifo_grow(q))
        return false;
    q->fifo[(q->fifo_head + q->fifo_n++) & (q->fifo_cap - 1)] = e;
    return true;
}

/* Files entry e of slot s (its payload set): in the instant's FIFO, as a
 * stand-in's event (no heap work), in the hole at the root, or sifted up
 * from the bottom. */
static ALWAYS_INLINE void place(dc_eventq *q, slot_data *sd, heap_entry e, bool reserved)
{
    /* (a reserved number may be older than the FIFO's or a stand-in's: its
     * entry goes to the heap) */
    if (!reserved && fifo_push(q, e)) {
        sd->eseq = NO_ENTRY;
    } else if (!reserved && sd->eseq != NO_ENTRY && e.time >= sd->time) {
        /* the slot's cancelled entry, still in the heap and not later,
         * stands in for e: it reaches the root first (its key is smaller:
         * no later time, an older sequence number) and is refiled there
         * under e's key */
    } else {
        sd->eseq = entry_seq(&e);
        /* a second push after a pop (kept: the first left the hole, which
         * is still open; replaced: the first filled it): leaving the hole
         * to it pays */
        if (q->hole && q->n > KEEP_HOLE_MIN && q->n > TWIN_N) {
            if (q->kept) {
                q->kept = false;
                q->keep_score += q->keep_score < 3;
            }
            if (q->keep_score < 2) {
                q->hole = false;
                q->replaced = true;
                root_down(q->heap, e, q->n);
            } else if (!before(&q->heap[min_child(q->heap, ROOT + 1)], &e)) {
                q->hole = false;
                q->heap[ROOT] = e;
            } else {
                sift_up_to(q->heap, ROOT + q->n, e, ROOT + 4);
                q->n++;
                q->kept = true;
            }
        } else if (q->hole) {
            q->hole = false;
            root_down(q->heap, e, q->n);
        } else {
            if (q->replaced) {
                q->replaced = false;
                q->keep_score += q->keep_score < 3;
            }
            push_up(q->heap, e, q->n);
            q->n++;
        }
    }
    sd->time = e.time;
}

/* Not a reservation: a plain push, numbered next. */
#define NO_RES SIZE_MAX

/* The sequence number of a push: the next one, or number ri of
 * reservation rid. */
static inline uint64_t push_seq(dc_eventq *q, size_t rid, uint64_t ri)
{
    if (rid == NO_RES)
        return q->next_seq++;
    return q->res[rid].first + ri;
}

/* A push that needs more than a free slot: a new slot (perhaps growing the
 * pool), a larger heap, or renumbering. */
static NOINLINE int push_slow(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx, uint64_t arg,
                              dc_event_handle *handle, size_t rid, uint64_t ri)
{
    /* room first, so that a failure changes nothing: a slot, and the heap
     * for the entry (and, when renumbering, for the FIFO's entries) */
    /* one entry more than the heap holds now, hole or not: place() may keep
     * the hole and add the entry at the heap's end */
    bool renum = rid == NO_RES && q->next_seq == SEQ_END;
    size_t need = q->n + 1 + (renum ? q->fifo_n : 0);
    /* renumbered, the pending events and the reserved blocks fit below SEQ_END */
    bool room = !(renum && q->live + q->res_total >= SEQ_END);
    room = room && !(q->free_head == NO_SLOT && q->used == q->cap && !grow_slots(q));
    while (room && need > q->heap_cap)
        room = grow_heap(q);
    if (!room) {
        if (handle)
            *handle = DC_EVENT_NONE;
        return DC_ENOMEM;
    }
    uint32_t s = q->free_head;
    if (s == NO_SLOT) {
        s = (uint32_t)q->used++;
        q->slots[s].gen = 0;
        q->slots[s].eseq = NO_ENTRY;
    } else {
        q->free_head = (uint32_t)q->slots[s].arg;
    }
    if (renum)
        renumber(q); /* settles the hole */
    slot_data *sd = &q->slots[s];
    sd->fn = fn;
    sd->ctx = ctx;
    sd->arg = arg;
    uint64_t seq = push_seq(q, rid, ri);
    sd->seq = (uint32_t)seq;
    heap_entry e = {time_key(time_s), seq << 32 | s};
    q->live++;
    place(q, sd, e, rid != NO_RES);
    if (handle)
        *handle = (uint64_t)sd->gen << 32 | (uint64_t)(s + 1);
    return DC_OK;
}

/* A push into the hole of a pop that is not the engine's pair (a large
 * heap, or a stand-in's slot): replace-top, or leaving the hole (place). */
static NOINLINE int push_hole(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx, uint64_t arg,
                              dc_event_handle *handle, size_t rid, uint64_t ri)
{
    uint32_t s = q->free_head;
    if (s == NO_SLOT || q->next_seq == SEQ_END || q->n >= q->heap_cap) /* full: place() may add at the end */
        return push_slow(q, time_s, fn, ctx, arg, handle, rid, ri);
    slot_data *sd = &q->slots[s];
    q->free_head = (uint32_t)sd->arg;
    sd->fn = fn;
    sd->ctx = ctx;
    sd->arg = arg;
    uint64_t seq = push_seq(q, rid, ri);
    sd->seq = (uint32_t)seq;
    heap_entry e = {time_key(time_s), seq << 32 | s};
    q->live++;
    place(q, sd, e, rid != NO_RES);
    if (handle)
        *handle = (uint64_t)sd->gen << 32 | (uint64_t)(s + 1);
    return DC_OK;
}

/* gcc's basic-block vectorizer otherwise moves the small heaps' selects
 * to vector registers (and each value there and back), which costs more
 * than it saves: 4 pending 1.08 -> 0.85 of the binary heap's rate. */
#if defined(__GNUC__) && !defined(__clang__)
#define NO_SLP __attribute__((optimize("no-tree-slp-vectorize")))
#else
#define NO_SLP
#endif

/* A push, plain (rid NO_RES) or reserved (number ri of reservation rid). */
static NO_SLP ALWAYS_INLINE int push_core(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx, uint64_t arg,
                                          dc_event_handle *handle, size_t rid, uint64_t ri)
{
    assert(!isnan(time_s));
    if (!q->fast)
        return q->hole ? push_hole(q, time_s, fn, ctx, arg, handle, rid, ri)
                       : push_slow(q, time_s, fn, ctx, arg, handle, rid, ri);
    /* the engine's pair: the slot the pop freed and the hole at the root,
     * the entry sifted down from there at once (the heap is small: no
     * prefetching) */
    q->fast = false;
    q->hole = false;
    uint32_t s = q->fast_slot;
    slot_data *sd = &q->slots[s];
    sd->fn = fn;
    sd->ctx = ctx;
    sd->arg = arg;
    uint32_t seq = (uint32_t)push_seq(q, rid, ri);
    sd->seq = seq;
    sd->eseq = seq;
    heap_entry e = {time_key(time_s), (uint64_t)seq << 32 | s};
    sd->time = e.time;
    q->live++;
    if (handle)
        *handle = (uint64_t)sd->gen << 32 | (uint64_t)(s + 1);
    if (q->n <= 5)
        sift_down_one(q->heap, e, false);
    else if (q->n <= TWIN_N)
        sift_down_one(q->heap, e, true);
    else
        sift_down_loop(q->heap, ROOT, e, ROOT + q->n - 1, false);
    return DC_OK;
}

NO_SLP int dc_eventq_push(dc_eventq *q, double time_s, dc_event_fn fn, void *ctx, uint64_t arg,
                          dc_event_handle *handle)
{
    return push_core(q, time_s, fn, ctx, arg, handle, NO_RES, 0);
}

int dc_eventq_reserve(dc_eventq *q, uint64_t n, size_t *id)
{
    /* the block fits in what is left (a renumbering keeps it: push_slow
     * fails instead when the pending events and the blocks would not fit) */
    if (n == 0 || n > SEQ_END - q->next_seq)
        return DC_ENOMEM;
    if (q->n_res == q->res_cap) {
        size_t cap = q->res_cap ? 2 * q->res_cap : 4;
        reservation *r = realloc(q->res, cap * sizeof *r);
        if (!r)
            return DC_ENOMEM;
        q->res = r;
        q->res_cap = cap;
    }
    q->res[q->n_res] = (reservation){q->next_seq, n, 0};
    *id = q->n_res++;
    q->next_seq += n;
    q->res_total += n;
    return DC_OK;
}

NO_SLP int dc_eventq_push_reserved(dc_eventq *q, size_t id, uint64_t i, double time_s, dc_event_fn fn, void *ctx,
                                   uint64_t arg, dc_event_handle *handle)
{
    assert(id < q->n_res && i < q->res[id].n);
    return push_core(q, time_s, fn, ctx, arg, handle, id, i);
}

/* Settles the hole and drops dead entries from the root; false when no
 * event is pending. */
static inline bool live_root(dc_eventq *q)
{
    for (;;) {
        settle(q);
        if (q->n == 0)
            return false;
        heap_entry e = q->heap[ROOT];
        if (is_live(q, &e))
            return true;
        if (keep_entry(q, &e))
            root_down(q->heap, e, q->n); /* a stand-in, refiled under its event's key */
        else
            q->hole = true; /* a cancelled event's entry: drop it */
    }
}

/* Drops cancelled entries from the FIFO's head; false when it is empty. */
static inline bool live_fifo(dc_eventq *q)
{
    while (q->fifo_n > 0 && !is_live(q, &q->fifo[q->fifo_head])) {
        q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1);
        q->fifo_n--;
    }
    return q->fifo_n > 0;
}

/* The earliest pending entry: NULL when none; *from_fifo says where. */
static inline const heap_entry *next_entry(dc_eventq *q, bool *from_fifo)
{
    bool h = live_root(q), f = live_fifo(q);
    *from_fifo = f && (!h || before(&q->fifo[q->fifo_head], &q->heap[ROOT]));
    return *from_fifo ? &q->fifo[q->fifo_head] : h ? &q->heap[ROOT] : NULL;
}

/* Takes the FIFO's (live) head into *out. */
static inline void take_fifo(dc_eventq *q, dc_event *out)
{
    const heap_entry *e = &q->fifo[q->fifo_head];
    uint32_t s = entry_slot(e);
    const slot_data *sd = &q->slots[s];
    out->time_s = key_time(e->time);
    out->fn = sd->fn;
    out->ctx = sd->ctx;
    out->arg = sd->arg;
    q->now = e->time;
    q->fifo_head = (q->fifo_head + 1) & (q->fifo_cap - 1);
    q->fifo_n--;
    release_slot(q, s);
}

/* Takes the (live) root into *out and leaves the hole. */
static inline void take_root(dc_eventq *q, dc_event *out)
{
    const heap_entry *root = &q->heap[ROOT];
    uint32_t s = entry_slot(root);
    const slot_data *sd = &q->slots[s];
    q->now = root->time;
    out->time_s = key_time(root->time);
    out->fn = sd->fn;
    out->ctx = sd->ctx;
    out->arg = sd->arg;
    q->hole = true;
    if (q->replaced) { /* no other push after the one that filled the last hole */
        q->replaced = false;
        q->keep_score -= q->keep_score > 0;
    }
    if (q->n <= KEEP_HOLE_MIN && q->next_seq != SEQ_END && q->slots[s].gen != GEN_RETIRED - 1) {
        /* the engine's pair: the slot kept for the push (its old handles
         * stale, its old entry gone: the hole) */
        q->slots[s].gen++;
        q->live--;
        q->fast = true;
        q->fast_slot = s;
    } else {
        q->slots[s].eseq = NO_ENTRY;
        release_slot(q, s);
    }
    /* The next root is one of the children (or the entry pushed next, which
     * is hot): start fetching their payloads, read by the next pop, when
     * the pool is too large to stay in the cache. */
    if (q->used < PREFETCH_SLOTS)
        return;
    for (size_t j = ROOT + 1; j <= ROOT + 4; j++) {
        uint32_t c = entry_slot(&q->heap[j]);
        if (c < q->used) /* not a sentinel */
            PREFETCH(&q->slots[c]);
    }
}

bool dc_eventq_pop(dc_eventq *q, dc_event *out)
{
    assert(out);
    bool from_fifo;
    if (!next_entry(q, &from_fifo))
        return false;
    if (from_fifo)
        take_fifo(q, out);
    else
        take_root(q, out);
    return true;
}

bool dc_eventq_pop_until(dc_eventq *q, double limit_s, dc_event *out)
{
    assert(out && !isnan(limit_s));
    /* the engine's pair: no hole (the last push filled it), the FIFO
     * empty, the root live */
    if (!q->hole && q->fifo_n == 0 && q->n > 0 && is_live(q, &q->heap[ROOT])) {
        if (key_time(q->heap[ROOT].time) > limit_s) /* (the order of the keys) */
            return false;
        take_root(q, out);
        return true;
    }
    bool from_fifo;
    const heap_entry *e = next_entry(q, &from_fifo);
    if (!e || e->time > time_key(limit_s))
        return false;
    if (from_fifo)
        take_fifo(q, out);
    else
        take_root(q, out);
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
    if (gen == GEN_RETIRED || q->slots[s].gen != gen || q->slots[s].seq == FREE_SEQ)
        return NO_SLOT;
    return s;
}

bool dc_eventq_cancel(dc_eventq *q, dc_event_handle handle)
{
    uint32_t s = pending_slot(q, handle);
    if (s == NO_SLOT)
        return false;
    release_slot(q, s); /* its entry is dead from now on */
    if (q->n - q->hole > 2 * q->live + DEAD_MARGIN)
        compact(q);
    return true;
}

bool dc_eventq_is_pending(const dc_eventq *q, dc_event_handle handle)
{
    return pending_slot(q, handle) != NO_SLOT;
}

double dc_eventq_peek_time(dc_eventq *q)
{
    bool from_fifo;
    const heap_entry *e = next_entry(q, &from_fifo);
    return e ? key_time(e->time) : INFINITY;
}

size_t dc_eventq_size(const dc_eventq *q)
{
    return q->live;
}

bool dc_eventq_may_be_due(const dc_eventq *q)
{
    if (q->fifo_n > 0)
        return true;
    const heap_entry *h = q->heap;
    if (!q->hole)
        return q->n > 0 && h[ROOT].time <= q->now;
    /* the root was popped: the earliest entry is one of its four children
     * (a push that left the hole stops there too); past the last entry
     * they are sentinels, later than any time */
    return h[ROOT + 1].time <= q->now || h[ROOT + 2].time <= q->now || h[ROOT + 3].time <= q->now
           || h[ROOT + 4].time <= q->now;
}
