/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */

/* The inference service's aggregate mode (see inference.h): one
 * birth-death solve per stationary piece, no event per request.  A piece
 * is solved when it opens, with the mean rate planned up to the next
 * interval boundary; if it is cut short (the ready replicas changed), it
 * is solved again with the rate of the time it really lasted and the
 * banked occupancy is corrected, so that every figure is the piece's
 * exact expectation. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>

#include "inference_int.h"

/* X(b) = b / (m t_d(b) + b t_p): with prefill first, every request a
 * replica holds is decoding whenever it decodes, so the time per request
 * is its m steps plus one prefill pass for each of the b. */
static double throughput(const dc_inference *m, double b)
{
    if (!(b > 0.0))
        return 0.0;
    double td = dc_inf_step_s(m, b, b * m->mean_ctx);
    return b / (m->mean_m * td + b * m->mean_tp);
}

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
    if (m->bd_valid && lambda == m->piece_lambda && reps == m->piece_reps)
        return;
    m->bd_valid = true;
    m->piece_lambda = lambda;
    m->piece_reps = reps;
    dc_bd_pool pool = {reps, m->batch, m->x_tab};
    if (dc_bd_solve(&m->bd, lambda, &pool, m->queue_limit) != DC_OK)
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory solving the inference service's queue");
}

int dc_inf_agg_init(dc_inference *m, dc_error *err)
{
    m->bd = (dc_bd){0};
    m->x_tab = malloc(((size_t)m->batch + 1) * sizeof *m->x_tab);
    if (!m->x_tab)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (uint32_t b = 0; b <= m->batch; b++)
        m->x_tab[b] = throughput(m, b);
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
    m->piece_planned_end_s = end;
    double lambda = end > now ? dc_nhpp_integral(&m->nhpp, now, end) / (end - now) : dc_nhpp_rate(&m->nhpp, now);
    solve(m, lambda, dc_inf_ready_replicas(m));
}

/* One latency sample for an arrival that finds n requests in the system. */
static void sample(dc_inference *m, uint64_t n, double b_sb, double weight)
{
    gsl_rng *rng = m->rng_agg;
    const dc_bd *bd = &m->bd;
    uint32_t R = m->piece_reps, B = m->batch;
    uint64_t S = (uint64_t)R * B;
    bool waited = n >= S;
    double wait = waited ? gsl_ran_gamma(rng, (double)(n - S) + 1.0, 1.0 / bd->d_full) : 0.0;
    /* the replica it joins holds this many with it */
    double b_join = waited ? (double)B : (double)(n / R) + 1.0;
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
        /* Decode at the size-biased occupancy (all slots when it waited),
         * paused by the prefills of the requests that come in meanwhile:
         * a Poisson number k, lasting a gamma-distributed sum with the
         * mean and variance of k prefill passes. */
        double b = waited ? (double)B : b_sb;
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

void dc_inf_agg_close(dc_inference *m)
{
    double now = dc_sim_now(m->sim);
    double dt = now - m->piece_start_s;
    if (!(dt > 0.0))
        return;
    dc_inf_bank(m);
    double arrivals = dc_nhpp_integral(&m->nhpp, m->piece_start_s, now);
    double lambda = arrivals / dt;
    if (fabs(lambda - m->piece_lambda) > 1e-12 * (1.0 + m->piece_lambda)) {
        /* cut short: the piece's own rate, and the occupancy banked so far corrected */
        double busy0 = m->bd.mean_busy, queue0 = m->bd.mean_queue;
        solve(m, lambda, m->piece_reps);
        m->slot_s += (m->bd.mean_busy - busy0) * dt;
        m->queue_s += (m->bd.mean_queue - queue0) * dt;
    }
    const dc_bd *bd = &m->bd;
    double dropped = arrivals * bd->p_block, accepted = arrivals - dropped;
    m->arrived += arrivals;
    m->dropped += dropped;
    m->served += accepted;
    m->tokens_in += accepted * m->mean_in;
    m->tokens_out += accepted * m->mean_out;
    if (accepted > 0.0 && bd->p_block < 1.0 - 1e-12 && m->piece_reps > 0) {
        uint64_t full = (uint64_t)m->piece_reps * m->batch + m->queue_limit;
        double b_sb = bd->mean_busy > 0.0 ? bd->mean_busy_sq / bd->mean_busy / m->piece_reps : 1.0;
        if (b_sb < 1.0)
            b_sb = 1.0;
        if (b_sb > m->batch)
            b_sb = m->batch;
        double span = dc_sim_horizon(m->sim) - m->start_s;
        uint32_t n_samples = (uint32_t)ceil(m->agg_samples * (span > 0.0 ? dt / span : 1.0));
        double w = accepted / n_samples;
        for (uint32_t i = 0; i < n_samples; i++) {
            uint64_t n;
            int tries = 0;
            do /* arrivals that are let in */
                n = dc_bd_sample(bd, m->rng_agg);
            while (n >= full && ++tries < 1000);
            if (n < full)
                sample(m, n, b_sb, w);
        }
    }
    m->piece_start_s = now;
}

double dc_inf_agg_busy(const dc_inference *m)
{
    return m->bd.mean_busy;
}

double dc_inf_agg_queue(const dc_inference *m)
{
    return m->bd.mean_queue;
}

void dc_inf_agg_destroy(dc_inference *m)
{
    dc_bd_free(&m->bd);
    free(m->x_tab);
}
