/* The hold-model benchmark of the event queue against plain binary heaps (make bench).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The hold model benchmark of the event queue.
 *
 * Fill the queue with N events at Exp(1) times, then M times: pop the
 * earliest event and push a new one at (its time + Exp(1)), as the engine
 * does (dc_eventq turns that pair into one replace-top sift by itself).
 * Reports pairs per second for dc_eventq and for plain array binary heaps
 * (bench/bheap.c) holding the same key (time, sequence number) and a 64-bit
 * payload: pop then push, and replace-top (the new entry sifted down from the
 * root), both compiled on their own so that every operation is a call as
 * dc_eventq's are from the engine; and pop then push inlined into the loop
 * (a heap written into its caller).  All see the same random sequence and
 * must pop the same times (checked).  The ratios are dc_eventq's rate over
 * each heap's (above 1: dc_eventq is faster).
 *
 * The queues run in turn in chunks of CHUNK pairs, in a rotating order, so
 * that the load of a shared machine, which drifts, weighs on all alike.
 *
 * usage: bench_eventq [M [N...]]
 *   M pairs per size and queue (default 4e6); sizes N (default 8, 64, 1e3 .. 1e6) */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bheap.h"
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

/* ---- the baselines: plain array binary heaps (bench/bheap.c) ---- */

/* An inlined copy as bhi_push, bhi_pop, bhi_replace_top (bheap.c itself is
 * compiled on its own as bh_push...). */
#define BH(name) bhi_##name
#define BH_API static inline __attribute__((unused))
#include "bheap.c"
#undef BH
#undef BH_API

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

typedef enum bh_kind { BH_POP_PUSH, BH_REPLACE_TOP, BH_INLINE } bh_kind;

typedef struct bh_run {
    bheap h;
    uint64_t rng;
    double sum, seconds;
    bh_kind kind;
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

static void bh_fill(bh_run *r, size_t n, uint64_t seed, bh_kind kind)
{
    *r = (bh_run){.rng = seed, .kind = kind};
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
    if (r->kind == BH_REPLACE_TOP) {
        for (size_t i = 0; i < m; i++) {
            bh_entry e = h->a[0];
            sum += e.time;
            bh_replace_top(h, e.time + exp1(&rng), e.payload);
        }
    } else if (r->kind == BH_INLINE) {
        for (size_t i = 0; i < m; i++) {
            bh_entry e = bhi_pop(h);
            sum += e.time;
            if (bhi_push(h, e.time + exp1(&rng), e.payload) != 0)
                die("out of memory");
        }
    } else {
        for (size_t i = 0; i < m; i++) {
            bh_entry e = bh_pop(h);
            sum += e.time;
            if (bh_push(h, e.time + exp1(&rng), e.payload) != 0)
                die("out of memory");
        }
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
    static const size_t default_sizes[] = {8, 64, 1000, 10000, 100000, 1000000};
    size_t nsizes = argc > 2 ? (size_t)(argc - 2) : sizeof default_sizes / sizeof default_sizes[0];
    size_t sizes[64];
    if (nsizes > sizeof sizes / sizeof sizes[0])
        die("too many sizes");
    for (size_t k = 0; k < nsizes; k++)
        sizes[k] = argc > 2 ? parse_count(argv[2 + k]) : default_sizes[k];
    const uint64_t seed = 20260101;

    printf("hold model: %zu pop+push pairs per size and queue, in turn in chunks of %zu\n", m, (size_t)CHUNK);
    printf("pairs per second (millions) of dc_eventq and of binary heaps: pop then push, replace-top\n"
           "(both called as dc_eventq is, across files) and pop then push inlined into the loop;\n"
           "ratios: dc_eventq over each heap (above 1: dc_eventq is faster)\n");
    printf("%9s %9s %9s %9s %9s   %7s %7s %7s\n", "N", "eventq", "pop+push", "repl-top", "inlined", "p+p", "r-t",
           "inl");
    int slower = 0;
    for (size_t k = 0; k < nsizes; k++) {
        size_t n = sizes[k];
        eq_run a;
        bh_run b[3];
        eq_fill(&a, n, seed);
        for (int v = 0; v < 3; v++)
            bh_fill(&b[v], n, seed, (bh_kind)v);
        /* Rotate the order of the four in every chunk so that a change in
         * the machine's load during the run hits all alike. */
        for (size_t done = 0, i = 0; done < m; i++) {
            size_t chunk = m - done < CHUNK ? m - done : CHUNK;
            for (size_t r = 0; r < 4; r++) {
                size_t w = (i + r) % 4;
                if (w == 0)
                    eq_hold(&a, chunk);
                else
                    bh_hold(&b[w - 1], chunk);
            }
            done += chunk;
        }
        for (int v = 0; v < 3; v++)
            if (a.sum != b[v].sum)
                die("dc_eventq and the binary heaps popped different times");
        dc_eventq_destroy(a.q);
        double rq = (double)m / a.seconds / 1e6, rb[3];
        for (int v = 0; v < 3; v++) {
            free(b[v].h.a);
            rb[v] = (double)m / b[v].seconds / 1e6;
        }
        printf("%9zu %9.2f %9.2f %9.2f %9.2f   %7.2f %7.2f %7.2f\n", n, rq, rb[0], rb[1], rb[2], rq / rb[0],
               rq / rb[1], rq / rb[2]);
        fflush(stdout);
        if (rq < rb[0] || rq < rb[1])
            slower = 1;
    }
    if (slower)
        printf("note: dc_eventq was slower than a binary heap called as it is at some size\n");
    return 0;
}
