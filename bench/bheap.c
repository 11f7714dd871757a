/* The event queue benchmark's baseline: a plain array binary heap (see bheap.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include <stdlib.h>

#include "bheap.h"

/* BH(name) names the functions and BH_API qualifies them, so that a file can
 * include this one for a copy of its own (static inline, other names). */
#ifndef BH
#define BH(name) bh_##name
#define BH_API
#endif

static inline int BH(before)(const bh_entry *x, const bh_entry *y)
{
    return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* Places e at hole j or below it. */
static inline void BH(sift_down)(bheap *h, size_t j, bh_entry e)
{
    size_t n = h->n;
    for (;;) {
        size_t c = 2 * j + 1;
        if (c >= n)
            break;
        if (c + 1 < n && BH(before)(&h->a[c + 1], &h->a[c]))
            c++;
        if (!BH(before)(&h->a[c], &e))
            break;
        h->a[j] = h->a[c];
        j = c;
    }
    h->a[j] = e;
}

BH_API int BH(push)(bheap *h, double time, uint64_t payload)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 16;
        bh_entry *a = realloc(h->a, cap * sizeof *a);
        if (!a)
            return -1;
        h->a = a;
        h->cap = cap;
    }
    bh_entry e = {time, h->seq++, payload};
    size_t j = h->n++;
    while (j > 0) {
        size_t p = (j - 1) / 2;
        if (!BH(before)(&e, &h->a[p]))
            break;
        h->a[j] = h->a[p];
        j = p;
    }
    h->a[j] = e;
    return 0;
}

BH_API bh_entry BH(pop)(bheap *h)
{
    bh_entry top = h->a[0];
    bh_entry e = h->a[--h->n];
    BH(sift_down)(h, 0, e);
    return top;
}

BH_API void BH(replace_top)(bheap *h, double time, uint64_t payload)
{
    BH(sift_down)(h, 0, (bh_entry){time, h->seq++, payload});
}
