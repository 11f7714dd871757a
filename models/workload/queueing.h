/* Queueing formulas: Erlang B and C, and the stationary law of a birth-death chain.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Queueing formulas: Erlang B and C, and the stationary distribution of a
 * birth-death chain with S service slots and a bounded queue, which the
 * inference service's aggregate mode solves for every interval.
 *
 * Erlang B (M/M/c/c, offered load a = lambda / mu), by the stable recurrence
 *     B(0) = 1,   B(k) = a B(k-1) / (k + a B(k-1)).
 * Erlang C (M/M/c, a < c): the probability that an arrival waits,
 *     C = c B / (c - a (1 - B)),
 * mean wait Wq = C / (c mu - lambda), mean queue Lq = lambda Wq (Little).
 * (Kleinrock, "Queueing Systems", vol. 1, 1975, sec. 3.5-3.6; Gross and
 * Harris, "Fundamentals of Queueing Theory", sec. 2.3.)
 *
 * Birth-death chain on n = 0 .. S + K (n requests in the system): arrivals
 * at rate lambda while n < S + K (an arrival finding S + K is blocked);
 * departures at rate d(n) for n <= S (d nondecreasing, d(0) = 0) and d(S)
 * for n > S (all slots busy, n - S waiting in FIFO order).  The stationary
 * law is p(n) = p(0) prod_{k=1..n} lambda / d(k); in the queue region it is
 * geometric, p(S + j) = p(S) rho^j with rho = lambda / d(S), summed in
 * closed form.  With d(n) = min(n, c) mu it is M/M/c/K (K -> inf: Erlang C;
 * K = 0: Erlang B).  The service region is computed outward from its mode
 * and truncated where p < 1e-13 of the mode, so the cost grows with the
 * width of the distribution (about sqrt(S)), not with S.  Arrivals see the
 * stationary law (PASTA). */
#ifndef DC_QUEUEING_H
#define DC_QUEUEING_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

double dc_erlang_b(uint32_t c, double a);
/* 1 when a >= c (the queue grows without bound). */
double dc_erlang_c(uint32_t c, double a);
/* Mean wait in queue of M/M/c; INFINITY when lambda >= c mu. */
double dc_mmc_mean_wait_s(uint32_t c, double lambda_per_s, double mu_per_s);

/* A pool of R servers, each holding up to B requests and completing them
 * at rate x[b] while it holds b (x[0] = 0, x nondecreasing), fed by one
 * queue that sends each request to the least-loaded server, so that n
 * requests in service (n = q R + r) sit r servers with q + 1 and R - r
 * with q:  d(n) = (R - r) x[q] + r x[q + 1],  S = R B.
 * M/M/c is R = c, B = 1, x = {0, mu}. */
typedef struct dc_bd_pool {
    uint32_t servers;  /* R */
    uint32_t per;      /* B */
    const double *x;   /* B + 1 rates */
} dc_bd_pool;

typedef struct dc_bd {
    /* the chain */
    double lambda;
    uint32_t slots, queue; /* S, K */
    double d_full;         /* d(S) */
    /* the law: service states lo..hi (hi < S) with cumulative probability
     * cdf[n - lo] x cdf_scale; the queue region S..S+K holds p_queue_region
     * in all */
    uint32_t lo, hi;
    double *cdf, cdf_scale;
    double *p;             /* scratch */
    size_t cap;
    double p_service;      /* sum of p over lo..hi */
    double p_queue_region; /* P(N >= S) */
    double rho;            /* lambda / d(S) */
    /* figures */
    double p_block;        /* P(N = S + K): an arrival is turned away */
    double p_wait;         /* P(S <= N < S + K): an arrival is queued */
    double mean_busy;      /* E[min(N, S)] */
    double mean_busy_sq;   /* E[min(N, S)^2] */
    double mean_queue;     /* E[max(N - S, 0)] */
} dc_bd;

/* Solves the chain for arrivals at rate lambda, the pool and a queue of K
 * places (reusing bd's buffers).  DC_OK or DC_ENOMEM. */
int dc_bd_solve(dc_bd *bd, double lambda, const dc_bd_pool *pool, uint32_t queue);
/* The state an arrival finds, drawn from the stationary law. */
uint64_t dc_bd_sample(const dc_bd *bd, gsl_rng *rng);
void dc_bd_free(dc_bd *bd);

#endif
