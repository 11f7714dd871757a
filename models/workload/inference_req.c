/* The inference service's per-request mode: arrival, prefill and decode events for every request.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The inference service's per-request mode (see inference.h): every
 * request is an arrival event, then the end of its prefill and the end of
 * its decode on a replica.  Each replica has one pending event (its next
 * prefill end or decode completion); its decoding sequences share a step
 * counter v that advances at 1 / t_d while no prefill runs, and a
 * sequence admitted to decoding at v0 with n_out - 1 steps to go is done
 * at v0 + n_out - 1 (a min-heap orders them).  Replicas taking requests
 * sit in buckets by load, so the least-loaded one is found in O(1). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "inference_int.h"

static inf_replica *rep(dc_inference *m, uint32_t r) { return &m->reps[r]; }

/* ---------- requests and the central queue ---------- */

static int32_t req_alloc(dc_inference *m)
{
    if (m->free_req < 0) {
        uint32_t cap = m->reqs_cap ? m->reqs_cap * 2 : 1024;
        inf_req *grown = realloc(m->reqs, (size_t)cap * sizeof *grown);
        if (!grown) {
            dc_sim_fail(m->sim, DC_ENOMEM, "out of memory for %u requests in flight", cap);
            return -1;
        }
        m->reqs = grown;
        for (uint32_t i = cap; i-- > m->reqs_cap;) {
            m->reqs[i].next = m->free_req;
            m->free_req = (int32_t)i;
        }
        m->reqs_cap = cap;
    }
    int32_t i = m->free_req;
    m->free_req = m->reqs[i].next;
    return i;
}

static void req_free(dc_inference *m, int32_t i)
{
    m->reqs[i].next = m->free_req;
    m->free_req = i;
}

static bool q_grow(dc_inference *m)
{
    uint32_t cap = m->q_cap ? m->q_cap * 2 : 1024;
    int32_t *q = malloc((size_t)cap * sizeof *q);
    if (!q) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory for a queue of %u requests", cap);
        return false;
    }
    for (uint32_t i = 0; i < m->q_len; i++)
        q[i] = m->q[(m->q_head + i) % m->q_cap];
    free(m->q);
    m->q = q;
    m->q_head = 0;
    m->q_cap = cap;
    return true;
}

static void q_push_back(dc_inference *m, int32_t i)
{
    if (m->q_len == m->q_cap && !q_grow(m))
        return;
    m->q[(m->q_head + m->q_len++) % m->q_cap] = i;
}

static void q_push_front(dc_inference *m, int32_t i)
{
    if (m->q_len == m->q_cap && !q_grow(m))
        return;
    m->q_head = (m->q_head + m->q_cap - 1) % m->q_cap;
    m->q[m->q_head] = i;
    m->q_len++;
}

static int32_t q_pop_front(dc_inference *m)
{
    int32_t i = m->q[m->q_head];
    m->q_head = (m->q_head + 1) % m->q_cap;
    m->q_len--;
    return i;
}

/* ---------- load buckets ---------- */

static void lb_insert(dc_inference *m, uint32_t r)
{
    inf_replica *p = rep(m, r);
    p->lb_prev = -1;
    p->lb_next = m->lb_head[p->load];
    if (p->lb_next >= 0)
        rep(m, (uint32_t)p->lb_next)->lb_prev = (int32_t)r;
    m->lb_head[p->load] = (int32_t)r;
    if (p->load < m->lb_min)
        m->lb_min = p->load;
}

static void lb_remove(dc_inference *m, uint32_t r)
{
    inf_replica *p = rep(m, r);
    if (p->lb_prev >= 0)
        rep(m, (uint32_t)p->lb_prev)->lb_next = p->lb_next;
    else
        m->lb_head[p->load] = p->lb_next;
    if (p->lb_next >= 0)
        rep(m, (uint32_t)p->lb_next)->lb_prev = p->lb_prev;
}

static void set_load(dc_inference *m, uint32_t r, uint32_t load)
{
    inf_replica *p = rep(m, r);
    if (p->accepting)
        lb_remove(m, r);
    p->load = load;
    if (p->accepting)
        lb_insert(m, r);
}

/* The least-loaded replica taking requests with a free slot, or -1. */
static int32_t lb_least(dc_inference *m)
{
    while (m->lb_min < m->batch && m->lb_head[m->lb_min] < 0)
        m->lb_min++;
    return m->lb_min < m->batch ? m->lb_head[m->lb_min] : -1;
}

/* ---------- decode heap ---------- */

static void heap_push(inf_replica *p, double fv, int32_t req)
{
    uint32_t i = p->n_dec++;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (p->dec[parent].finish_v <= fv)
            break;
        p->dec[i] = p->dec[parent];
        i = parent;
    }
    p->dec[i] = (inf_dec){fv, req};
}

static inf_dec heap_pop(inf_replica *p)
{
    inf_dec top = p->dec[0], last = p->dec[--p->n_dec];
    uint32_t i = 0, n = p->n_dec;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && p->dec[c + 1].finish_v < p->dec[c].finish_v)
            c++;
        if (p->dec[c].finish_v >= last.finish_v)
            break;
        p->dec[i] = p->dec[c];
        i = c;
    }
    if (n > 0)
        p->dec[i] = last;
    return top;
}

/* ---------- a replica ---------- */

static double ctx_tokens(const inf_req *q)
{
    return (double)q->n_in + 0.5 * (double)q->n_out;
}

/* Advances the step counter to now (it stands still during a prefill). */
static void rep_advance(dc_inference *m, inf_replica *p)
{
    double now = dc_sim_now(m->sim);
    if (p->prefilling < 0 && p->n_dec > 0 && p->step_s > 0.0)
        p->v += (now - p->v_at_s) / p->step_s;
    p->v_at_s = now;
}

static void on_replica(dc_sim *sim, void *ctx, uint64_t r);

static void rep_schedule(dc_inference *m, uint32_t r)
{
    inf_replica *p = rep(m, r);
    dc_sim_cancel(m->sim, &p->ev);
    double now = dc_sim_now(m->sim);
    if (p->prefilling >= 0) {
        p->ev = dc_sim_at(m->sim, p->pf_end_s, on_replica, m, r);
    } else if (p->n_dec > 0) {
        double dv = p->dec[0].finish_v - p->v;
        double at = now + (dv > 0.0 ? dv : 0.0) * p->step_s;
        p->ev = dc_sim_at(m->sim, at, on_replica, m, r);
    }
}

static void start_prefill(dc_inference *m, inf_replica *p)
{
    int32_t q = p->pf[p->pf_head];
    p->pf_head = (p->pf_head + 1) % m->batch;
    p->pf_len--;
    p->prefilling = q;
    p->pf_end_s = dc_sim_now(m->sim) + dc_inf_prefill_s(m, m->reqs[q].n_in);
}

/* Admits request q to replica r (which has a free slot). */
static void admit(dc_inference *m, uint32_t r, int32_t q)
{
    inf_replica *p = rep(m, r);
    m->reqs[q].admit_s = dc_sim_now(m->sim);
    p->pf[(p->pf_head + p->pf_len) % m->batch] = q;
    p->pf_len++;
    set_load(m, r, p->load + 1);
    m->busy++;
    if (p->prefilling < 0) {
        rep_advance(m, p); /* decoding pauses from now */
        start_prefill(m, p);
        rep_schedule(m, r);
    }
}

static void admit_from_queue(dc_inference *m)
{
    while (m->q_len > 0) {
        int32_t r = lb_least(m);
        if (r < 0)
            break;
        admit(m, (uint32_t)r, q_pop_front(m));
    }
}

static void complete(dc_inference *m, uint32_t r, int32_t qi)
{
    inf_req *q = &m->reqs[qi];
    double now = dc_sim_now(m->sim);
    bool has_tpot = q->n_out > 1;
    double tpot = has_tpot ? (now - q->first_s) / (double)(q->n_out - 1) : 0.0;
    dc_inf_record_latency(m, q->admit_s - q->arrival_s, q->first_s - q->arrival_s, tpot, now - q->arrival_s,
                          has_tpot, 1.0);
    m->served += 1.0;
    m->tokens_in += q->n_in;
    m->tokens_out += q->n_out;
    set_load(m, r, rep(m, r)->load - 1);
    m->busy--;
    req_free(m, qi);
}

static void on_replica(dc_sim *sim, void *ctx, uint64_t ri)
{
    dc_inference *m = ctx;
    uint32_t r = (uint32_t)ri;
    inf_replica *p = rep(m, r);
    p->ev = DC_EVENT_NONE;
    dc_inf_bank(m);
    rep_advance(m, p);
    if (p->prefilling >= 0) {
        int32_t qi = p->prefilling;
        inf_req *q = &m->reqs[qi];
        p->prefilling = -1;
        q->first_s = dc_sim_now(sim);
        if (q->n_out <= 1) {
            complete(m, r, qi);
        } else {
            heap_push(p, p->v + (double)(q->n_out - 1), qi);
            p->kv_tokens += ctx_tokens(q);
        }
        if (p->pf_len > 0)
            start_prefill(m, p);
    } else if (p->n_dec > 0) {
        /* This event is the heap's minimum; rounding must not miss it. */
        if (p->v < p->dec[0].finish_v)
            p->v = p->dec[0].finish_v;
        double tol = 1e-9 * (1.0 + p->v);
        while (p->n_dec > 0 && p->dec[0].finish_v <= p->v + tol) {
            inf_dec d = heap_pop(p);
            p->kv_tokens -= ctx_tokens(&m->reqs[d.req]);
            complete(m, r, d.req);
        }
        if (p->n_dec == 0)
            p->kv_tokens = 0.0; /* no drift from the sums */
    }
    p->step_s = p->n_dec > 0 ? dc_inf_step_s(m, p->n_dec, p->kv_tokens) : 0.0;
    admit_from_queue(m);
    if (p->ev == DC_EVENT_NONE)
        rep_schedule(m, r);
    uint32_t u = r / m->replicas_per_unit;
    if (m->units[u].state == U_DRAINING && dc_inf_req_unit_load(m, u) == 0)
        dc_inf_unit_released(m, u);
}

/* ---------- arrivals ---------- */

static void on_arrival(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_inference *m = ctx;
    (void)arg;
    dc_inf_bank(m);
    double now = dc_sim_now(sim);
    double next = dc_nhpp_next(&m->nhpp, now, gsl_ran_exponential(m->rng_arrival, 1.0), dc_sim_horizon(sim));
    if (isfinite(next))
        dc_sim_at(sim, next, on_arrival, m, 0);
    m->arrived += 1.0;
    uint32_t n_in = dc_inf_sample_tokens(&m->tok_in, m->rng_tokens);
    uint32_t n_out = dc_inf_sample_tokens(&m->tok_out, m->rng_tokens);
    int32_t r = lb_least(m);
    if (r < 0 && m->q_len >= m->queue_limit) {
        m->dropped += 1.0;
        return;
    }
    int32_t qi = req_alloc(m);
    if (qi < 0)
        return;
    m->reqs[qi] = (inf_req){.arrival_s = now, .admit_s = now, .first_s = now, .n_in = n_in, .n_out = n_out};
    if (r >= 0)
        admit(m, (uint32_t)r, qi);
    else
        q_push_back(m, qi);
}

/* ---------- the fleet's calls ---------- */

int dc_inf_req_init(dc_inference *m, dc_error *err)
{
    size_t n = (size_t)m->max_units * m->replicas_per_unit;
    m->reps = calloc(n, sizeof *m->reps);
    m->lb_head = malloc(((size_t)m->batch + 1) * sizeof *m->lb_head);
    if (!m->reps || !m->lb_head)
        return dc_error_set(err, DC_ENOMEM, "out of memory for %zu replicas", n);
    for (uint32_t b = 0; b <= m->batch; b++)
        m->lb_head[b] = -1;
    m->lb_min = m->batch;
    m->free_req = -1;
    for (size_t i = 0; i < n; i++)
        m->reps[i].prefilling = -1;
    return DC_OK;
}

void dc_inf_req_start(dc_inference *m)
{
    double now = dc_sim_now(m->sim);
    double first = dc_nhpp_next(&m->nhpp, now, gsl_ran_exponential(m->rng_arrival, 1.0), dc_sim_horizon(m->sim));
    if (isfinite(first))
        dc_sim_at(m->sim, first, on_arrival, m, 0);
}

void dc_inf_req_unit_ready(dc_inference *m, uint32_t u)
{
    for (uint32_t i = 0; i < m->replicas_per_unit; i++) {
        uint32_t r = u * m->replicas_per_unit + i;
        inf_replica *p = rep(m, r);
        if (!p->pf) {
            p->pf = malloc((size_t)m->batch * sizeof *p->pf);
            p->dec = malloc((size_t)m->batch * sizeof *p->dec);
            if (!p->pf || !p->dec) {
                dc_sim_fail(m->sim, DC_ENOMEM, "out of memory for a replica");
                return;
            }
        }
        p->load = 0;
        p->pf_head = p->pf_len = 0;
        p->prefilling = -1;
        p->n_dec = 0;
        p->v = 0.0;
        p->v_at_s = dc_sim_now(m->sim);
        p->step_s = 0.0;
        p->kv_tokens = 0.0;
        p->accepting = true;
        lb_insert(m, r);
    }
    admit_from_queue(m);
}

static int by_arrival_desc(const void *a, const void *b, void *ctx)
{
    const inf_req *reqs = ctx;
    double x = reqs[*(const int32_t *)a].arrival_s, y = reqs[*(const int32_t *)b].arrival_s;
    return x < y ? 1 : x > y ? -1 : (*(const int32_t *)a < *(const int32_t *)b ? 1 : -1);
}

/* Insertion sort (a unit holds at most batch x replicas_per_unit requests). */
static void sort_desc(int32_t *a, size_t n, const inf_req *reqs)
{
    for (size_t i = 1; i < n; i++) {
        int32_t x = a[i];
        size_t j = i;
        while (j > 0 && by_arrival_desc(&a[j - 1], &x, (void *)reqs) > 0) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
    }
}

void dc_inf_req_unit_lost(dc_inference *m, uint32_t u)
{
    size_t cap = (size_t)m->batch * m->replicas_per_unit, n = 0;
    int32_t *held = malloc(cap * sizeof *held);
    if (!held) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory");
        return;
    }
    for (uint32_t i = 0; i < m->replicas_per_unit; i++) {
        uint32_t r = u * m->replicas_per_unit + i;
        inf_replica *p = rep(m, r);
        if (!p->pf)
            continue;
        dc_sim_cancel(m->sim, &p->ev);
        if (p->prefilling >= 0)
            held[n++] = p->prefilling;
        for (uint32_t k = 0; k < p->pf_len; k++)
            held[n++] = p->pf[(p->pf_head + k) % m->batch];
        for (uint32_t k = 0; k < p->n_dec; k++)
            held[n++] = p->dec[k].req;
        m->busy -= p->load;
        if (p->accepting)
            lb_remove(m, r);
        p->accepting = false;
        p->load = 0;
        p->prefilling = -1;
        p->pf_len = p->n_dec = 0;
        p->kv_tokens = 0.0;
    }
    /* Back to the head of the queue, the earliest arrival first. */
    sort_desc(held, n, m->reqs);
    for (size_t i = 0; i < n; i++)
        q_push_front(m, held[i]);
    m->retried += (double)n;
    free(held);
    admit_from_queue(m);
}

void dc_inf_req_unit_drain(dc_inference *m, uint32_t u)
{
    for (uint32_t i = 0; i < m->replicas_per_unit; i++) {
        uint32_t r = u * m->replicas_per_unit + i;
        if (rep(m, r)->accepting)
            lb_remove(m, r);
        rep(m, r)->accepting = false;
    }
}

void dc_inf_req_unit_undrain(dc_inference *m, uint32_t u)
{
    if (m->aggregate)
        return;
    for (uint32_t i = 0; i < m->replicas_per_unit; i++) {
        uint32_t r = u * m->replicas_per_unit + i;
        if (!rep(m, r)->accepting) {
            rep(m, r)->accepting = true;
            lb_insert(m, r);
        }
    }
    admit_from_queue(m);
}

uint32_t dc_inf_req_unit_load(const dc_inference *m, uint32_t u)
{
    uint32_t load = 0;
    for (uint32_t i = 0; i < m->replicas_per_unit; i++)
        load += m->reps[u * m->replicas_per_unit + i].load;
    return load;
}

void dc_inf_req_bank(dc_inference *m, double dt)
{
    m->slot_s += dt * m->busy;
    m->queue_s += dt * m->q_len;
}

double dc_inf_req_queue_now(const dc_inference *m)
{
    return m->q_len;
}

void dc_inf_req_destroy(dc_inference *m)
{
    if (m->reps) {
        size_t n = (size_t)m->max_units * m->replicas_per_unit;
        for (size_t i = 0; i < n; i++) {
            free(m->reps[i].pf);
            free(m->reps[i].dec);
        }
    }
    free(m->reps);
    free(m->reqs);
    free(m->q);
    free(m->lb_head);
}
