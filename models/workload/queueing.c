/* Queueing formulas: Erlang B and C, and birth-death chains with a bounded queue.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "queueing.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "error.h"

/* Service states below this fraction of the mode's weight are left out. */
#define BD_TINY 1e-13

double dc_erlang_b(uint32_t c, double a)
{
    double b = 1.0;
    for (uint32_t k = 1; k <= c; k++)
        b = a * b / ((double)k + a * b);
    return b;
}

double dc_erlang_c(uint32_t c, double a)
{
    if (c == 0 || a >= (double)c)
        return 1.0;
    double b = dc_erlang_b(c, a);
    return (double)c * b / ((double)c - a * (1.0 - b));
}

double dc_mmc_mean_wait_s(uint32_t c, double lambda_per_s, double mu_per_s)
{
    double a = lambda_per_s / mu_per_s;
    if (a >= (double)c)
        return INFINITY;
    return dc_erlang_c(c, a) / ((double)c * mu_per_s - lambda_per_s);
}

static double log_add(double a, double b)
{
    if (a == -INFINITY)
        return b;
    if (b == -INFINITY)
        return a;
    double m = a > b ? a : b;
    return m + log1p(exp(-fabs(a - b)));
}

/* log of sum_{j=0..K} rho^j and of sum_{j=0..K} j rho^j, without overflow
 * when rho > 1 and K is large. */
static void geo_sums(double rho, uint32_t K, double *lg0, double *lg1)
{
    double lr = log(rho);
    if (K == 0) {
        *lg0 = 0.0;
        *lg1 = -INFINITY;
        return;
    }
    bool up = rho > 1.0;
    double m = up ? (double)K : 0.0; /* sums of rho^(j - m) */
    if (K <= 256 || fabs(lr) * (double)K < 1e-2) {
        double t = exp(-m * lr), s0 = 0.0, s1 = 0.0;
        for (uint32_t j = 0; j <= K; j++) {
            s0 += t;
            s1 += (double)j * t;
            t *= rho;
        }
        *lg0 = m * lr + log(s0);
        *lg1 = m * lr + log(s1);
        return;
    }
    double ls = -fabs(lr), s = exp(ls), one_s = -expm1(ls);
    double a0 = -expm1(((double)K + 1.0) * ls) / one_s;
    double sk = exp((double)K * ls);
    double a1 = s * (1.0 - ((double)K + 1.0) * sk + (double)K * sk * s) / (one_s * one_s);
    if (!up) {
        *lg0 = log(a0);
        *lg1 = log(a1);
    } else {
        *lg0 = m * lr + log(a0);
        *lg1 = m * lr + log((double)K * a0 - a1);
    }
}

static int reserve(dc_bd *bd, size_t n)
{
    if (n <= bd->cap)
        return DC_OK;
    size_t cap = bd->cap ? bd->cap : 64;
    while (cap < n)
        cap *= 2;
    double *p = realloc(bd->p, cap * sizeof *p);
    if (!p)
        return DC_ENOMEM;
    bd->p = p;
    double *c = realloc(bd->cdf, cap * sizeof *c);
    if (!c)
        return DC_ENOMEM;
    bd->cdf = c;
    bd->cap = cap;
    return DC_OK;
}

static double pool_d(const dc_bd_pool *pool, uint32_t n)
{
    uint32_t R = pool->servers, q = n / R, r = n - q * R;
    double d = (double)(R - r) * pool->x[q];
    if (r > 0)
        d += (double)r * pool->x[q + 1];
    return d;
}

int dc_bd_solve(dc_bd *bd, double lambda, const dc_bd_pool *pool, uint32_t K)
{
    const uint32_t R = pool->servers;
    const double *x = pool->x;
    uint32_t S = R * pool->per;
    bd->lambda = lambda;
    bd->slots = S;
    bd->queue = K;
    bd->d_full = S > 0 ? pool_d(pool, S) : 0.0;
    bd->lo = 1;
    bd->hi = 0;
    bd->p_service = bd->p_queue_region = 0.0;
    bd->p_block = bd->p_wait = bd->mean_busy = bd->mean_busy_sq = bd->mean_queue = 0.0;
    bd->rho = 0.0;
    if (reserve(bd, 1) != DC_OK)
        return DC_ENOMEM;

    if (!(lambda > 0.0)) { /* empty for ever */
        if (S == 0) {
            bd->p_queue_region = 1.0;
            if (K == 0)
                bd->p_block = 1.0;
            else
                bd->p_wait = 1.0;
        } else {
            bd->lo = bd->hi = 0;
            bd->p[0] = bd->cdf[0] = bd->cdf_scale = 1.0;
            bd->p_service = 1.0;
        }
        return DC_OK;
    }
    if (S == 0 || !(bd->d_full > 0.0)) { /* no service: the system fills up */
        bd->rho = INFINITY;
        bd->p_queue_region = bd->p_block = 1.0;
        bd->mean_busy = S;
        bd->mean_busy_sq = (double)S * S;
        bd->mean_queue = K;
        return DC_OK;
    }
    bd->rho = lambda / bd->d_full;

    /* Mode of the service region (d nondecreasing): the largest n < S with
     * d(n) <= lambda, or the queue region when d(S) <= lambda. */
    uint32_t mode;
    if (bd->d_full <= lambda) {
        mode = S;
    } else {
        uint32_t a = 0, b = S; /* d(a) <= lambda (d(0) = 0), d(b) > lambda */
        while (b - a > 1) {
            uint32_t mid = a + (b - a) / 2;
            if (pool_d(pool, mid) <= lambda)
                a = mid;
            else
                b = mid;
        }
        mode = a;
    }
    /* Down from the mode to the lowest state that matters (weights kept in
     * p as scratch, the mode's neighbour first), then up from the mode,
     * keeping cumulative weights in cdf.  Within a block of R states of the
     * same q, d(n) = R x[q] + r (x[q + 1] - x[q]) is stepped in r; the
     * loop-carried chain is one multiply. */
    const uint32_t B = pool->per;
    double inv_lambda = 1.0 / lambda, w = 1.0, w_S = 0.0;
    size_t n_down = 0;
    {
        uint32_t n = mode, q = n / R;
        double rd = (double)(n - q * R);
        double base = (double)R * x[q], delta = q < B ? x[q + 1] - x[q] : 0.0;
        while (n > 0) {
            w *= (base + rd * delta) * inv_lambda;
            if (w < BD_TINY)
                break;
            n--;
            if (rd == 0.0) {
                q--;
                base = (double)R * x[q];
                delta = x[q + 1] - x[q];
                rd = (double)(R - 1);
            } else {
                rd -= 1.0;
            }
            if (n_down >= bd->cap && reserve(bd, n_down + 1) != DC_OK)
                return DC_ENOMEM;
            bd->p[n_down++] = w; /* weight of state mode - n_down */
        }
    }
    uint32_t lo = mode - (uint32_t)n_down;
    double sum = 0.0, sum_n = 0.0, sum_n2 = 0.0;
    size_t len = n_down; /* service states kept: lo .. lo + len - 1 */
    if (n_down > 0 && reserve(bd, n_down) != DC_OK)
        return DC_ENOMEM;
    for (size_t i = 0; i < n_down; i++) {
        double wi = bd->p[n_down - 1 - i], nd = (double)(lo + i);
        sum += wi;
        sum_n += nd * wi;
        sum_n2 += nd * nd * wi;
        bd->cdf[i] = sum;
    }
    if (mode == S) { /* the mode is in the queue region: every service state is below it */
        w_S = 1.0;
    } else {
        uint32_t q = (mode + 1) / R; /* of n + 1 */
        double rd = (double)(mode + 1 - q * R);
        double base = (double)R * x[q], delta = q < B ? x[q + 1] - x[q] : 0.0;
        w = 1.0;
        for (uint32_t n = mode;; n++) {
            if (len >= bd->cap && reserve(bd, len + 1) != DC_OK)
                return DC_ENOMEM;
            double nd = (double)n;
            sum += w;
            sum_n += nd * w;
            sum_n2 += nd * nd * w;
            bd->cdf[len++] = sum;
            double next = w * (lambda / (base + rd * delta)); /* the division is off the chain */
            if (n + 1 == S) {
                w_S = next;
                break;
            }
            if (next < BD_TINY)
                break;
            w = next;
            rd += 1.0;
            if (rd == (double)R) {
                rd = 0.0;
                q++;
                base = (double)R * x[q];
                delta = q < B ? x[q + 1] - x[q] : 0.0;
            }
        }
    }
    if (len > 0) {
        bd->lo = lo;
        bd->hi = lo + (uint32_t)len - 1;
    }

    double lg0, lg1;
    geo_sums(bd->rho, K, &lg0, &lg1);
    double lw_S = w_S > 0.0 ? log(w_S) : -INFINITY;
    double ls = sum > 0.0 ? log(sum) : -INFINITY;
    double lq = lw_S + lg0;
    double lz = log_add(ls, lq);
    bd->p_service = exp(ls - lz);
    bd->p_queue_region = exp(lq - lz);
    double inv = exp(-lz);
    bd->cdf_scale = inv;
    bd->p_block = w_S > 0.0 ? exp(lw_S + (double)K * log(bd->rho) - lz) : 0.0;
    bd->p_wait = bd->p_queue_region - bd->p_block;
    if (bd->p_wait < 0.0)
        bd->p_wait = 0.0;
    bd->mean_busy = sum_n * inv + (double)S * bd->p_queue_region;
    bd->mean_busy_sq = sum_n2 * inv + (double)S * (double)S * bd->p_queue_region;
    bd->mean_queue = K > 0 && w_S > 0.0 ? exp(lw_S + lg1 - lz) : 0.0;
    return DC_OK;
}

/* j in 0..K with weights rho^j, by inversion. */
static uint32_t trunc_geometric(double rho, uint32_t K, double u)
{
    if (K == 0)
        return 0;
    double lr = log(rho);
    if (fabs(lr) < 1e-12) {
        uint32_t j = (uint32_t)(u * ((double)K + 1.0));
        return j > K ? K : j;
    }
    double ls = -fabs(lr);
    double c = -expm1(((double)K + 1.0) * ls);
    double x = log1p(-u * c) / ls;
    uint32_t i = x >= (double)K ? K : (uint32_t)x;
    return rho < 1.0 ? i : K - i;
}

uint64_t dc_bd_sample(const dc_bd *bd, gsl_rng *rng)
{
    double u = gsl_rng_uniform(rng);
    if (u < bd->p_service && bd->lo <= bd->hi) {
        uint32_t a = 0, b = bd->hi - bd->lo; /* first i with cdf[i] > u */
        while (a < b) {
            uint32_t mid = a + (b - a) / 2;
            if (bd->cdf[mid] * bd->cdf_scale > u)
                b = mid;
            else
                a = mid + 1;
        }
        return (uint64_t)bd->lo + a;
    }
    if (!isfinite(bd->rho))
        return (uint64_t)bd->slots + bd->queue;
    double v = bd->p_queue_region > 0.0 ? (u - bd->p_service) / bd->p_queue_region : 0.0;
    if (v < 0.0)
        v = 0.0;
    if (v >= 1.0)
        v = nextafter(1.0, 0.0);
    return (uint64_t)bd->slots + trunc_geometric(bd->rho, bd->queue, v);
}

void dc_bd_free(dc_bd *bd)
{
    free(bd->p);
    free(bd->cdf);
    bd->p = bd->cdf = NULL;
    bd->cap = 0;
}
