/* The hold-model benchmark of the event queue against plain binary heaps (make bench).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The hold model benchmark of the event queue, driven as the engine drives it.
 *
 * Fill the queue with N events at Exp(1) times, then M times: take the
 * earliest event, call its handler through a function pointer, and let the
 * handler schedule a new event at (its time + Exp(1)) through a scheduling
 * function of its own (not inlined, clamping the time to now and asking for
 * a handle), as dc_sim_run, a model's handler and dc_sim_at do (sim/sim.c).
 * dc_eventq: dc_eventq_pop_until, then dc_eventq_push from the handler (the
 * pop leaves a hole at the root that the push fills: one sift).  The plain
 * array binary heaps (bench/bheap.c) holding the same key (time, sequence
 * number) and a 64-bit payload run in the same loop: pop, then push from the
 * handler; replace-top (the engine takes the top lazily: it runs the
 * handler on the top left in place, the handler's push replaces it, sifted
 * down from the root, and the top is popped only if the handler pushed
 * nothing); and pop then push written into the loop and the scheduling
 * function (inlined).  All see the same random sequence and must pop the
 * same times (checked).  The ratios are dc_eventq's rate over each heap's
 * (above 1: dc_eventq is faster).
 *
 * The queues run in turn in chunks of CHUNK pairs, in a rotating order, so
 * that the load of a shared machine, which drifts, weighs on all alike, and
 * each chunk is timed by the thread's CPU time.  The ratio to replace-top
 * is also given chunk by chunk (its quartiles over the chunks): the
 * machine this runs on has two speeds for the same binary and the same
 * addresses, which change within a run (docs/DEVELOPING.md, Benchmarks:
 * "The event queue's two speeds"), and a mean over chunks hides which
 * one a run saw.
 *
 * usage: bench_eventq [M [N...]]
 *   M events per size and queue (default 4e6); sizes N (default 4, 8, 64, 1e3 .. 1e6) */
#include <errno.h>
#include <stdbool.h>
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

#if defined(__GNUC__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* The thread's CPU time: on a loaded machine the time the benchmark waits
 * for a core is not the queues' (wall time was, and gave ratios from 0.75
 * to 1.17 at load 12 for the same binary). */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void die(const char *what)
{
    fprintf(stderr, "bench_eventq: %s\n", what);
    exit(1);
}

/* One queue under test: its random stream, the time of the event running
 * (the engine's now), the sum of the times it popped (a checksum: all
 * queues must pop the same times) and its time spent. */
typedef struct eq_run {
    dc_eventq *q;
    uint64_t rng;
    double now, sum, seconds;
    dc_event_handle last; /* the handle of the last push, as dc_sim_at returns it */
} eq_run;

typedef enum bh_kind { BH_POP_PUSH, BH_REPLACE_TOP, BH_INLINE } bh_kind;

typedef struct bh_run bh_run;
struct bh_run {
    bheap h;
    uint64_t rng;
    double now, sum, seconds;
    bh_kind kind;
    bool top_running; /* replace-top: the running event is still the top */
    void (*fire)(bh_run *r, uint64_t payload);
};

/* dc_sim_at's part (sim/sim.c): not before now, the queue's push, the
 * handle kept. */
static NOINLINE void eq_schedule(eq_run *r, double at_s, uint64_t arg);

/* A model's handler: reschedules itself Exp(1) later. */
static void eq_fire(struct dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim;
    eq_run *r = ctx;
    r->sum += r->now;
    eq_schedule(r, r->now + exp1(&r->rng), arg);
}

static NOINLINE void eq_schedule(eq_run *r, double at_s, uint64_t arg)
{
    if (at_s < r->now)
        at_s = r->now;
    if (dc_eventq_push(r->q, at_s, eq_fire, r, arg, &r->last) != 0)
        die("out of memory");
}

static void eq_fill(eq_run *r, size_t n, uint64_t seed)
{
    *r = (eq_run){.q = dc_eventq_create(n), .rng = seed};
    if (!r->q)
        die("out of memory");
    for (size_t i = 0; i < n; i++)
        if (dc_eventq_push(r->q, exp1(&r->rng), eq_fire, r, i, NULL) != 0)
            die("out of memory");
}

/* dc_sim_run's loop (sim/sim.c) around the queue. */
static NOINLINE void eq_hold(eq_run *r, size_t m)
{
    dc_eventq *q = r->q;
    dc_event ev;
    double t0 = now_s();
    for (size_t i = 0; i < m; i++) {
        if (!dc_eventq_pop_until(q, INFINITY, &ev))
            die("the queue ran empty");
        r->now = ev.time_s;
        ev.fn(NULL, ev.ctx, ev.arg);
    }
    r->seconds += now_s() - t0;
}

/* The heaps' scheduling functions, as eq_schedule. */
static NOINLINE void bh_schedule(bh_run *r, double at_s, uint64_t payload)
{
    if (at_s < r->now)
        at_s = r->now;
    if (r->top_running) { /* the running event's top, replaced in one sift */
        r->top_running = false;
        bh_replace_top(&r->h, at_s, payload);
    } else if (bh_push(&r->h, at_s, payload) != 0) {
        die("out of memory");
    }
}

static NOINLINE void bhi_schedule(bh_run *r, double at_s, uint64_t payload)
{
    if (at_s < r->now)
        at_s = r->now;
    if (bhi_push(&r->h, at_s, payload) != 0)
        die("out of memory");
}

static void bh_fire(bh_run *r, uint64_t payload)
{
    r->sum += r->now;
    bh_schedule(r, r->now + exp1(&r->rng), payload);
}

static void bhi_fire(bh_run *r, uint64_t payload)
{
    r->sum += r->now;
    bhi_schedule(r, r->now + exp1(&r->rng), payload);
}

static void bh_fill(bh_run *r, size_t n, uint64_t seed, bh_kind kind)
{
    *r = (bh_run){.rng = seed, .kind = kind, .fire = kind == BH_INLINE ? bhi_fire : bh_fire};
    r->h.a = malloc(n * sizeof *r->h.a);
    if (!r->h.a)
        die("out of memory");
    r->h.cap = n;
    for (size_t i = 0; i < n; i++)
        if (bh_push(&r->h, exp1(&r->rng), i) != 0)
            die("out of memory");
}

/* An engine's loop around each heap: the handler through a pointer (read
 * from memory every time, as dc_eventq's per-event fn), the earliest event
 * taken first (pop then push) or left in place for the handler's push to
 * replace (replace-top).  One function each, so that callgrind counts
 * each apart. */
static NOINLINE void bh_hold_replace_top(bh_run *r, size_t m)
{
    bheap *h = &r->h;
    for (size_t i = 0; i < m; i++) {
        if (h->n == 0)
            die("the heap ran empty");
        bh_entry e = h->a[0];
        r->now = e.time;
        r->top_running = true;
        r->fire(r, e.payload);
        if (r->top_running) { /* the handler pushed nothing */
            r->top_running = false;
            bh_pop(h);
        }
    }
}

static NOINLINE void bh_hold_inline(bh_run *r, size_t m)
{
    bheap *h = &r->h;
    for (size_t i = 0; i < m; i++) {
        if (h->n == 0)
            die("the heap ran empty");
        bh_entry e = bhi_pop(h);
        r->now = e.time;
        r->fire(r, e.payload);
    }
}

static NOINLINE void bh_hold_pop_push(bh_run *r, size_t m)
{
    bheap *h = &r->h;
    for (size_t i = 0; i < m; i++) {
        if (h->n == 0)
            die("the heap ran empty");
        bh_entry e = bh_pop(h);
        r->now = e.time;
        r->fire(r, e.payload);
    }
}

static void bh_hold(bh_run *r, size_t m)
{
    double t0 = now_s();
    if (r->kind == BH_REPLACE_TOP)
        bh_hold_replace_top(r, m);
    else if (r->kind == BH_INLINE)
        bh_hold_inline(r, m);
    else
        bh_hold_pop_push(r, m);
    r->seconds += now_s() - t0;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return (a > b) - (a < b);
}

/* The q-quantile (0 <= q <= 1) of the n values v[] (sorted in place), by
 * linear interpolation between the closest ranks. */
static double quantile(double *v, size_t n, double q)
{
    qsort(v, n, sizeof *v, cmp_double);
    double x = q * (double)(n - 1);
    size_t i = (size_t)x;
    return i + 1 < n ? v[i] + (x - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
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
    static const size_t default_sizes[] = {4, 8, 64, 1000, 10000, 100000, 1000000};
    size_t nsizes = argc > 2 ? (size_t)(argc - 2) : sizeof default_sizes / sizeof default_sizes[0];
    size_t sizes[64];
    if (nsizes > sizeof sizes / sizeof sizes[0])
        die("too many sizes");
    for (size_t k = 0; k < nsizes; k++)
        sizes[k] = argc > 2 ? parse_count(argv[2 + k]) : default_sizes[k];
    const uint64_t seed = 20260101;

    printf("hold model: %zu events per size and queue, in turn in chunks of %zu\n", m, (size_t)CHUNK);
    printf("events per second of CPU time (millions), each run as the engine runs one (a handler called through a\n"
           "pointer schedules the next event through a function of its own), of dc_eventq and of binary\n"
           "heaps: pop then push, replace-top (the top left in place while its handler runs; both heaps\n"
           "called across files, as dc_eventq is) and pop then push inlined into the loop;\n"
           "ratios: dc_eventq over each heap (above 1: dc_eventq is faster), and over replace-top chunk\n"
           "by chunk: the quartiles over the chunks (r-t q1, median, q3)\n");
    printf("%9s %9s %9s %9s %9s   %7s %7s %7s   %7s %7s %7s\n", "N", "eventq", "pop+push", "repl-top", "inlined",
           "p+p", "r-t", "inl", "r-t q1", "median", "q3");
    double *chunk_ratio = malloc((m + CHUNK - 1) / CHUNK * sizeof *chunk_ratio);
    if (!chunk_ratio)
        die("out of memory");
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
        size_t chunks = 0;
        for (size_t done = 0, i = 0; done < m; i++) {
            size_t chunk = m - done < CHUNK ? m - done : CHUNK;
            double eq_s = a.seconds, rt_s = b[BH_REPLACE_TOP].seconds;
            for (size_t r = 0; r < 4; r++) {
                size_t w = (i + r) % 4;
                if (w == 0)
                    eq_hold(&a, chunk);
                else
                    bh_hold(&b[w - 1], chunk);
            }
            done += chunk;
            chunk_ratio[chunks++] = (b[BH_REPLACE_TOP].seconds - rt_s) / (a.seconds - eq_s);
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
        double q1 = quantile(chunk_ratio, chunks, 0.25), med = quantile(chunk_ratio, chunks, 0.5),
               q3 = quantile(chunk_ratio, chunks, 0.75);
        printf("%9zu %9.2f %9.2f %9.2f %9.2f   %7.2f %7.2f %7.2f   %7.2f %7.2f %7.2f\n", n, rq, rb[0], rb[1], rb[2],
               rq / rb[0], rq / rb[1], rq / rb[2], q1, med, q3);
        fflush(stdout);
        if (rq < rb[0] || rq < rb[1])
            slower = 1;
    }
    free(chunk_ratio);
    if (slower)
        printf("note: dc_eventq was slower than a binary heap called as it is at some size\n");
    return 0;
}
