/* The inference service's aggregate mode: queueing solved per interval, no event per request.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The inference service's aggregate mode (see inference.h): no event per
 * request.  Each piece has a constant arrival rate lambda (the NHPP's mean
 * over it) and R ready replicas, so a capacity c = d(S) = R X(batch) and a
 * profile of at most three segments:
 *
 *   backlog Q > 0 or lambda > c (saturated: every slot busy, Q a fluid):
 *     OVER   Q > K (after a replica failure sent requests back): arrivals
 *            dropped, Q falls at c;
 *     FILL   0 <= Q < K, lambda > c: Q grows at lambda - c;
 *     HOLD   Q = K (or lambda = c): arrivals beyond c are dropped;
 *     DRAIN  0 < Q, lambda < c: Q falls at c - lambda;
 *   STAT     no backlog, lambda <= c: the birth-death chain's stationary
 *            law (queueing.h), whose own queue is an expectation.
 *
 * The fluid backlog carries over from piece to piece, so an overload
 * while new replicas start (the scale-up delay) builds a queue that takes
 * time to fill and then drains, instead of the full queue a stationary law
 * would give at once.  (Pointwise-stationary fluid flow: Wang, Tipper and
 * Dhamdhere, "Performance analysis of time-varying queues", 1996; for
 * queues with time-varying rates, Green, Kolesar and Whitt, "Coping with
 * time-varying demand when setting staffing requirements", 2007.)  A
 * request waits Q / c behind the backlog (FIFO).
 *
 * A piece is planned when it opens, with the rate up to the next interval
 * boundary; if it is cut short (the ready replicas changed), its profile is
 * rebuilt with the rate of the time it really lasted and the occupancy
 * banked so far is corrected, so that every figure is the piece's exact
 * expectation.  Pieces with the same rate and replicas reuse the chain's
 * solution. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "inference_int.h"

enum seg_kind { SEG_OVER, SEG_FILL, SEG_HOLD, SEG_DRAIN, SEG_STAT };

double dc_inf_agg_throughput(const dc_inference *m, double b)
{
    if (!(b > 0.0))
        return 0.0;
    if (b >= m->batch)
        return m->x_tab[m->batch];
    uint32_t i = (uint32_t)b;
    double f = b - i;
    return m->x_tab[i] + f * (m->x_tab[i + 1] - m->x_tab[i]);
}

static void solve(dc_inference *m, double lambda, uint32_t reps)
{
    /* Pieces of a flat stretch of the day with the same replicas have the
     * same chain: keep its solution. */
    if (m->bd_valid && lambda == m->bd_lambda && reps == m->bd_reps)
        return;
    dc_bd_pool pool = {reps, m->batch, m->x_tab};
    if (dc_bd_solve(&m->bd, lambda, &pool, m->queue_limit) != DC_OK) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory solving the inference service's queue");
        m->bd_valid = false;
        return;
    }
    m->bd_valid = true;
    m->bd_lambda = lambda;
    m->bd_reps = reps;
}

/* The profile of the piece from its start with rate lambda, R replicas and
 * backlog q0 (see the header comment). */
static void build(dc_inference *m, double lambda, uint32_t reps, double q0)
{
    double K = m->queue_limit, S = (double)reps * m->batch;
    double c = (double)reps * m->x_tab[m->batch], g = lambda - c;
    double t = m->piece_start_s, q = q0;
    m->piece_lambda = lambda;
    m->piece_reps = reps;
    m->piece_c = c;
    m->n_seg = 0;
    agg_seg *s;
#define SEG(kind_, slope_, acc_, drop_, dur_)                                                      \
    do {                                                                                        \
        s = &m->seg[m->n_seg++];                                                                \
        *s = (agg_seg){.kind = (kind_), .t0 = t, .t1 = t + (dur_), .q0 = q, .slope = (slope_),  \
                       .busy = S, .acc = (acc_), .drop = (drop_), .served = c};                  \
        t = s->t1;                                                                              \
        q = q + (slope_) * (dur_);                                                              \
    } while (0)
    if (q > K) { /* retries beyond the queue limit */
        double dur = c > 0.0 ? (q - K) / c : INFINITY;
        SEG(SEG_OVER, -c, 0.0, lambda, dur);
        if (!isfinite(dur))
            return;
        q = K;
    }
    if (q > 0.0 || g > 0.0) {
        if (g > 0.0 && q < K) {
            double dur = (K - q) / g;
            SEG(SEG_FILL, g, lambda, 0.0, dur);
            q = K;
        }
        if (g >= 0.0) {
            SEG(SEG_HOLD, 0.0, c, g, INFINITY);
            return;
        }
        double dur = q / -g;
        SEG(SEG_DRAIN, g, lambda, 0.0, dur);
        q = 0.0;
    }
    solve(m, lambda, reps);
    s = &m->seg[m->n_seg++];
    *s = (agg_seg){.kind = SEG_STAT, .t0 = t, .t1 = INFINITY, .q0 = 0.0, .slope = 0.0,
                   .busy = m->bd.mean_busy, .acc = lambda * (1.0 - m->bd.p_block),
                   .drop = lambda * m->bd.p_block};
    s->served = s->acc;
#undef SEG
}

typedef struct agg_sums {
    double busy, queue, accepted, dropped, served;
} agg_sums;

/* Integrals of the profile over [a, b] (within the piece). */
static agg_sums integrate(const dc_inference *m, double a, double b)
{
    agg_sums r = {0};
    for (int i = 0; i < m->n_seg; i++) {
        const agg_seg *s = &m->seg[i];
        double lo = a > s->t0 ? a : s->t0, hi = b < s->t1 ? b : s->t1;
        if (!(hi > lo))
            continue;
        double dt = hi - lo;
        double qa = s->q0 + s->slope * (lo - s->t0), qb = s->q0 + s->slope * (hi - s->t0);
        r.busy += s->busy * dt;
        r.queue += (s->kind == SEG_STAT ? m->bd.mean_queue : 0.5 * (qa + qb)) * dt;
        r.accepted += s->acc * dt;
        r.dropped += s->drop * dt;
        r.served += s->served * dt;
    }
    return r;
}

static const agg_seg *seg_at(const dc_inference *m, double t)
{
    for (int i = 0; i < m->n_seg; i++)
        if (t < m->seg[i].t1)
            return &m->seg[i];
    return &m->seg[m->n_seg - 1];
}

double dc_inf_agg_busy(const dc_inference *m)
{
    return m->n_seg ? seg_at(m, dc_sim_now(m->sim))->busy : 0.0;
}

/* The fluid backlog now (0 in the stationary segment). */
static double backlog_at(const dc_inference *m, double t)
{
    const agg_seg *s = seg_at(m, t);
    return s->kind == SEG_STAT ? 0.0 : s->q0 + s->slope * (t - s->t0);
}

double dc_inf_agg_queue(const dc_inference *m)
{
    if (!m->n_seg)
        return 0.0;
    double now = dc_sim_now(m->sim);
    const agg_seg *s = seg_at(m, now);
    return s->kind == SEG_STAT ? m->bd.mean_queue : backlog_at(m, now);
}

void dc_inf_agg_bank(dc_inference *m, double from_s, double to_s)
{
    if (!m->n_seg)
        return;
    agg_sums r = integrate(m, from_s, to_s);
    m->slot_s += r.busy;
    m->queue_s += r.queue;
}

/* A piece counts its requests as served when the stationary law lets them
 * in (and as they complete while a backlog lasts), so those on a lost
 * replica are taken back from served and join the backlog. */
void dc_inf_agg_requeue(dc_inference *m, double requests)
{
    m->retried += requests;
    m->pending_backlog += requests;
    m->served -= requests;
    m->tokens_in -= requests * m->mean_in;
    m->tokens_out -= requests * m->mean_out;
}

int dc_inf_agg_init(dc_inference *m, dc_error *err)
{
    m->bd = (dc_bd){0};
    m->x_tab = malloc(((size_t)m->batch + 1) * sizeof *m->x_tab);
    if (!m->x_tab)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (uint32_t b = 0; b <= m->batch; b++)
        m->x_tab[b] = dc_inf_throughput(m, b);
    double var = m->mean_tp_sq - m->mean_tp * m->mean_tp;
    m->tp_cv2 = m->mean_tp > 0.0 && var > 0.0 ? var / (m->mean_tp * m->mean_tp) : 0.0;
    return DC_OK;
}

static void on_piece(dc_sim *sim, void *ctx, uint64_t k)
{
    dc_inference *m = ctx;
    dc_inf_bank(m);
    dc_inf_agg_close(m);
    dc_inf_agg_open(m);
    dc_sim_at(sim, m->start_s + (double)(k + 1) * m->agg_interval_s, on_piece, m, k + 1);
}

void dc_inf_agg_start(dc_inference *m)
{
    m->piece_start_s = dc_sim_now(m->sim);
    m->backlog = 0.0;
    dc_inf_agg_open(m);
    dc_sim_at(m->sim, m->start_s + m->agg_interval_s, on_piece, m, 1);
}

void dc_inf_agg_open(dc_inference *m)
{
    double now = dc_sim_now(m->sim), horizon = dc_sim_horizon(m->sim);
    double k = floor((now - m->start_s) / m->agg_interval_s + 1e-9) + 1.0;
    double end = m->start_s + k * m->agg_interval_s;
    if (end > horizon)
        end = horizon;
    m->piece_start_s = now;
    m->backlog += m->pending_backlog;
    m->pending_backlog = 0.0;
    double lambda = end > now ? dc_nhpp_integral(&m->nhpp, now, end) / (end - now) : dc_nhpp_rate(&m->nhpp, now);
    build(m, lambda, dc_inf_ready_replicas(m), m->backlog);
}

/* Latency of an arrival in the stationary segment that finds n requests. */
static void sample_stat(dc_inference *m, uint64_t n, double b_sb, double weight)
{
    gsl_rng *rng = m->rng_agg;
    const dc_bd *bd = &m->bd;
    uint32_t R = m->piece_reps, B = m->batch;
    uint64_t S = (uint64_t)R * B;
    bool waited = n >= S;
    double wait = waited ? gsl_ran_gamma(rng, (double)(n - S) + 1.0, 1.0 / bd->d_full) : 0.0;
    /* the replica it joins holds this many with it */
    double b_join = waited ? (double)B : (double)(n / R) + 1.0;
    dc_inf_agg_latency(m, wait, b_join, waited ? (double)B : b_sb, weight);
}

void dc_inf_agg_latency(dc_inference *m, double wait, double b_join, double b_decode, double weight)
{
    gsl_rng *rng = m->rng_agg;
    double n_in = dc_inf_sample_tokens(&m->tok_in, rng);
    double n_out = dc_inf_sample_tokens(&m->tok_out, rng);
    double tp = dc_inf_prefill_s(m, n_in);
    /* The replica's prefill server: busy with another request's prefill
     * with probability rho (b - 1) / b (rho = X t_p, the fraction of time
     * it prefills), then for the residual E[t_p^2] / (2 E[t_p]).  No queue
     * of prefills behind: least-loaded dispatch seldom sends a request to
     * a replica that has just taken one (the M/G/1 wait, which has it,
     * overstates the per-request mode's wait by half). */
    double rho = dc_inf_agg_throughput(m, b_join) * m->mean_tp;
    double share = (b_join - 1.0) / b_join, wait_p = 0.0;
    if (m->mean_tp > 0.0 && gsl_rng_uniform(rng) < rho * share)
        wait_p = gsl_ran_exponential(rng, m->mean_tp * (1.0 + m->tp_cv2) / 2.0);
    double ttft = wait + wait_p + tp;
    double steps = n_out - 1.0, decode = 0.0;
    if (steps > 0.0) {
        /* Decode at the given occupancy, paused by the prefills of the
         * requests that come in meanwhile: a Poisson number k, lasting a
         * gamma-distributed sum with the mean and variance of k passes. */
        double b = b_decode;
        double d0 = steps * dc_inf_step_s(m, b, b * m->mean_ctx);
        double x = dc_inf_agg_throughput(m, b), rho_b = x * m->mean_tp;
        double k = rho_b < 1.0 ? (double)gsl_ran_poisson(rng, x * d0 / (1.0 - rho_b)) : 0.0;
        double pauses = 0.0;
        if (k > 0.0)
            pauses = m->tp_cv2 > 0.0 ? gsl_ran_gamma(rng, k / m->tp_cv2, m->mean_tp * m->tp_cv2) : k * m->mean_tp;
        decode = d0 + pauses;
    }
    dc_inf_record_latency(m, wait, ttft, steps > 0.0 ? decode / steps : 0.0, ttft + decode, steps > 0.0, weight);
}

/* Latency samples for the accepted arrivals of [a, b]: each stands for
 * accepted / n of them; the segment is drawn by its share of them. */
static void samples(dc_inference *m, double a, double b, double accepted, uint32_t n)
{
    if (!(accepted > 0.0) || n == 0 || m->piece_reps == 0)
        return;
    double w = accepted / n;
    uint64_t full = (uint64_t)m->piece_reps * m->batch + m->queue_limit;
    const dc_bd *bd = &m->bd;
    double b_sb = 1.0;
    if (m->bd_valid && bd->mean_busy > 0.0)
        b_sb = bd->mean_busy_sq / bd->mean_busy / m->piece_reps;
    if (b_sb < 1.0)
        b_sb = 1.0;
    if (b_sb > m->batch)
        b_sb = m->batch;
    int last = -1; /* the last segment with arrivals let in, where rounding leftovers go */
    for (int j = 0; j < m->n_seg; j++) {
        const agg_seg *s = &m->seg[j];
        if ((b < s->t1 ? b : s->t1) > (a > s->t0 ? a : s->t0) && s->acc > 0.0)
            last = j;
    }
    if (last < 0)
        return;
    for (uint32_t i = 0; i < n; i++) {
        double u = gsl_rng_uniform(m->rng_agg) * accepted;
        for (int j = 0; j <= last; j++) {
            const agg_seg *s = &m->seg[j];
            double lo = a > s->t0 ? a : s->t0, hi = b < s->t1 ? b : s->t1;
            if (!(hi > lo) || !(s->acc > 0.0))
                continue;
            double part = s->acc * (hi - lo);
            if (u >= part && j < last) {
                u -= part;
                continue;
            }
            if (s->kind == SEG_STAT) {
                uint64_t st;
                int tries = 0;
                do /* an arrival that is let in */
                    st = dc_bd_sample(bd, m->rng_agg);
                while (st >= full && ++tries < 1000);
                if (st < full)
                    sample_stat(m, st, b_sb, w);
            } else if (m->piece_c > 0.0) {
                double t = lo + (u < part ? u / s->acc : gsl_rng_uniform(m->rng_agg) * (hi - lo));
                double q = s->q0 + s->slope * (t - s->t0);
                dc_inf_agg_latency(m, q / m->piece_c, m->batch, m->batch, w);
            }
            break;
        }
    }
}

void dc_inf_agg_close(dc_inference *m)
{
    double now = dc_sim_now(m->sim);
    double t0 = m->piece_start_s, dt = now - t0;
    if (!(dt > 0.0) || !m->n_seg)
        return;
    dc_inf_bank(m);
    double arrivals = dc_nhpp_integral(&m->nhpp, t0, now);
    double lambda = arrivals / dt;
    if (fabs(lambda - m->piece_lambda) > 1e-12 * (1.0 + m->piece_lambda)) {
        /* cut short: the piece's own rate, and the occupancy banked so far corrected */
        agg_sums before = integrate(m, t0, now);
        build(m, lambda, m->piece_reps, m->seg[0].q0);
        agg_sums after = integrate(m, t0, now);
        m->slot_s += after.busy - before.busy;
        m->queue_s += after.queue - before.queue;
    }
    agg_sums r = integrate(m, t0, now);
    /* r.accepted + r.dropped = arrivals up to rounding; keep the exact count */
    double dropped = r.dropped < arrivals ? r.dropped : arrivals;
    m->arrived += arrivals;
    m->dropped += dropped;
    m->served += r.served;
    m->tokens_in += r.served * m->mean_in;
    m->tokens_out += r.served * m->mean_out;
    double span = dc_sim_horizon(m->sim) - m->start_s;
    uint32_t n = (uint32_t)ceil(m->agg_samples * (span > 0.0 ? dt / span : 1.0));
    samples(m, t0, now, arrivals - dropped, n);
    m->backlog = backlog_at(m, now);
    m->piece_start_s = now;
}

double dc_inf_agg_in_flight(const dc_inference *m)
{
    return m->backlog + m->pending_backlog; /* valid after dc_inf_agg_close */
}

void dc_inf_agg_destroy(dc_inference *m)
{
    dc_bd_free(&m->bd);
    free(m->x_tab);
}
