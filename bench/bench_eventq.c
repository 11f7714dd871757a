/* The hold-model benchmark of the event queue against a plain binary heap (make bench).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The hold model benchmark of the event queue.
 *
 * Fill the queue with N events at Exp(1) times, then M times: pop the
 * earliest event and push a new one at (its time + Exp(1)).  Reports pop+push
 * pairs per second for dc_eventq and, as the baseline, a plain array binary
 * heap holding the same key (time, sequence number) and a 64-bit payload.
 * Both see the same random sequence and must pop the same times (checked).
 *
 * The two queues run alternately in chunks of CHUNK pairs, so that the load
 * of a shared machine, which drifts, weighs on both alike.
 *
 * usage: bench_eventq [M [N...]]
 *   M pairs per size and queue (default 4e6); sizes N (default 1e3 .. 1e6) */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "eventq.h"

/* ---- random numbers: splitmix64, inlined so that it costs little ---- */

static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static inline double exp1(uint64_t *s)
{
    double u = (double)((splitmix64(s) >> 11) + 1) * 0x1p-53; /* (0, 1] */
    return -log(u);
}

/* ---- the baseline: a plain array binary heap ---- */

typedef struct bh_entry {
    double time;
    uint64_t seq;
    uint64_t payload;
} bh_entry;

typedef struct bheap {
    bh_entry *a;
    size_t n, cap;
    uint64_t seq;
} bheap;

static inline int bh_before(const bh_entry *x, const bh_entry *y)
{
    return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

static inline int bh_push(bheap *h, double time, uint64_t payload)
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
        if (!bh_before(&e, &h->a[p]))
            break;
        h->a[j] = h->a[p];
        j = p;
    }
    h->a[j] = e;
    return 0;
}

static inline bh_entry bh_pop(bheap *h)
{
    bh_entry top = h->a[0];
    bh_entry e = h->a[--h->n];
    size_t n = h->n, j = 0;
    for (;;) {
        size_t c = 2 * j + 1;
        if (c >= n)
            break;
        if (c + 1 < n && bh_before(&h->a[c + 1], &h->a[c]))
            c++;
        if (!bh_before(&h->a[c], &e))
            break;
        h->a[j] = h->a[c];
        j = c;
    }
    h->a[j] = e;
    return top;
}

/* ---- the runs ---- */

#define CHUNK ((size_t)1 << 17)

static void noop(struct dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim;
    (void)ctx;
    (void)arg;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_eventq: %s\n", what);
    exit(1);
}

/* One queue under test: its random stream, the sum of the times it popped
 * (a checksum: both queues must pop the same times) and its time spent. */
typedef struct eq_run {
    dc_eventq *q;
    uint64_t rng;
    double sum, seconds;
} eq_run;

typedef struct bh_run {
    bheap h;
    uint64_t rng;
    double sum, seconds;
} bh_run;

static void eq_fill(eq_run *r, size_t n, uint64_t seed)
{
    *r = (eq_run){.q = dc_eventq_create(n), .rng = seed};
    if (!r->q)
        die("out of memory");
    for (size_t i = 0; i < n; i++)
        if (dc_eventq_push(r->q, exp1(&r->rng), noop, NULL, i, NULL) != 0)
            die("out of memory");
}

static void eq_hold(eq_run *r, size_t m)
{
    dc_eventq *q = r->q;
    uint64_t rng = r->rng;
    double sum = 0;
    dc_event ev;
    double t0 = now_s();
    for (size_t i = 0; i < m; i++) {
        dc_eventq_pop(q, &ev);
        sum += ev.time_s;
        if (dc_eventq_push(q, ev.time_s + exp1(&rng), noop, NULL, ev.arg, NULL) != 0)
            die("out of memory");
    }
    r->seconds += now_s() - t0;
    r->sum += sum;
    r->rng = rng;
}

static void bh_fill(bh_run *r, size_t n, uint64_t seed)
{
    *r = (bh_run){.rng = seed};
    r->h.a = malloc(n * sizeof *r->h.a);
    if (!r->h.a)
        die("out of memory");
    r->h.cap = n;
    for (size_t i = 0; i < n; i++)
        if (bh_push(&r->h, exp1(&r->rng), i) != 0)
            die("out of memory");
}

static void bh_hold(bh_run *r, size_t m)
{
    bheap *h = &r->h;
    uint64_t rng = r->rng;
    double sum = 0;
    double t0 = now_s();
    for (size_t i = 0; i < m; i++) {
        bh_entry e = bh_pop(h);
        sum += e.time;
        if (bh_push(h, e.time + exp1(&rng), e.payload) != 0)
            die("out of memory");
    }
    r->seconds += now_s() - t0;
    r->sum += sum;
    r->rng = rng;
}

static size_t parse_count(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end); /* accepts 3e6 */
    if (errno || *end || !(v >= 1) || v > 1e12)
        die("counts must be positive numbers (e.g. 3e6)");
    return (size_t)v;
}

int main(int argc, char **argv)
{
    size_t m = argc > 1 ? parse_count(argv[1]) : 4000000;
    static const size_t default_sizes[] = {1000, 10000, 100000, 1000000};
    size_t nsizes = argc > 2 ? (size_t)(argc - 2) : sizeof default_sizes / sizeof default_sizes[0];
    size_t sizes[64];
    if (nsizes > sizeof sizes / sizeof sizes[0])
        die("too many sizes");
    for (size_t k = 0; k < nsizes; k++)
        sizes[k] = argc > 2 ? parse_count(argv[2 + k]) : default_sizes[k];
    const uint64_t seed = 20260101;

    printf("hold model: %zu pop+push pairs per size and queue, interleaved in chunks of %zu\n",
           m, (size_t)CHUNK);
    printf("%9s  %16s  %18s  %6s\n", "N", "dc_eventq Mev/s", "binary heap Mev/s", "ratio");
    int slower = 0;
    for (size_t k = 0; k < nsizes; k++) {
        size_t n = sizes[k];
        eq_run a;
        bh_run b;
        eq_fill(&a, n, seed);
        bh_fill(&b, n, seed);
        /* Alternate chunks (and which goes first) so that a change in the
         * machine's load during the run hits both queues alike. */
        for (size_t done = 0, c = 0; done < m; c++) {
            size_t chunk = m - done < CHUNK ? m - done : CHUNK;
            if (c % 2 == 0) {
                eq_hold(&a, chunk);
                bh_hold(&b, chunk);
            } else {
                bh_hold(&b, chunk);
                eq_hold(&a, chunk);
            }
            done += chunk;
        }
        if (a.sum != b.sum)
            die("dc_eventq and the binary heap popped different times");
        dc_eventq_destroy(a.q);
        free(b.h.a);
        double rq = (double)m / a.seconds / 1e6, rh = (double)m / b.seconds / 1e6;
        printf("%9zu  %16.2f  %18.2f  %6.2f\n", n, rq, rh, rq / rh);
        fflush(stdout);
        if (rq < rh)
            slower = 1;
    }
    if (slower)
        printf("note: dc_eventq was slower than the binary heap at some size\n");
    return 0;
}
