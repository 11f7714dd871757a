/* The event queue benchmark's baseline: a plain array binary heap keyed by (time, sequence).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A plain binary heap in an array, the textbook one: entries {time, seq,
 * payload}, ordered by time then by the sequence number taken at push (FIFO
 * on equal times, as dc_eventq), no cancellation, no handles.  bench_eventq
 * races dc_eventq against it: this copy is compiled on its own (bheap.c), so
 * that each of its operations is a call, as dc_eventq's are from the engine;
 * bench_eventq.c also includes bheap.c under other names for a copy inlined
 * into the benchmark loop. */
#ifndef DC_BHEAP_H
#define DC_BHEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct bh_entry {
    double time;
    uint64_t seq;
    uint64_t payload;
} bh_entry;

typedef struct bheap {
    bh_entry *a; /* a[0] is the earliest */
    size_t n, cap;
    uint64_t seq;
} bheap;

/* 0, or -1 when out of memory. */
int bh_push(bheap *h, double time, uint64_t payload);
/* The earliest entry, removed; h->n > 0. */
bh_entry bh_pop(bheap *h);
/* Replaces the earliest entry by a new one (h->n > 0): one sift instead of
 * the two of a pop and a push. */
void bh_replace_top(bheap *h, double time, uint64_t payload);

#endif
