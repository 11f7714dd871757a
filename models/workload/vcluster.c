/* Virtual clusters: who lends to whom, the guests of each lender, the reclaim order and the lent/borrowed node-time.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "vcluster.h"

#include <stdlib.h>
#include <string.h>

typedef struct vc_pool {
    bool lend, borrow;
    double notice_s;
    int *guests;                 /* handles holding this pool's nodes */
    size_t n_guests, cap_guests;
    uint32_t lent, leaving, borrowed;
    uint32_t lend_max;           /* UINT32_MAX: no limit */
    double lent_ns, borrowed_ns, lent_last_s, borrowed_last_s;
    uint64_t borrow_starts, reclaims, reclaimed;
} vc_pool;

typedef struct vc_job {
    int lender, borrower;        /* -1: borrows nothing */
    uint32_t lent_n, leaving_n;
    uint32_t guestpos;
    int priority;
    bool preemptible, leaving;
    double start_s;
} vc_job;

struct dc_vcluster {
    vc_pool *pools;
    int n_pools;
    vc_job *jobs;
    size_t cap_jobs;
    int *scratch;
    size_t cap_scratch;
    uint64_t work;
};

dc_vcluster *dc_vcluster_create(int n_pools)
{
    dc_vcluster *vc = calloc(1, sizeof *vc);
    if (!vc)
        return NULL;
    vc->pools = calloc((size_t)n_pools, sizeof *vc->pools);
    if (!vc->pools) {
        free(vc);
        return NULL;
    }
    vc->n_pools = n_pools;
    return vc;
}

void dc_vcluster_destroy(dc_vcluster *vc)
{
    if (!vc)
        return;
    for (int i = 0; i < vc->n_pools; i++)
        free(vc->pools[i].guests);
    free(vc->pools);
    free(vc->jobs);
    free(vc->scratch);
    free(vc);
}

void dc_vcluster_set_pool(dc_vcluster *vc, int pool, bool lend, bool borrow, double notice_s)
{
    vc->pools[pool].lend = lend;
    vc->pools[pool].borrow = borrow;
    vc->pools[pool].notice_s = notice_s;
    vc->pools[pool].lend_max = UINT32_MAX;
}

void dc_vcluster_set_lend_max(dc_vcluster *vc, int pool, uint32_t n) { vc->pools[pool].lend_max = n; }

uint32_t dc_vcluster_lend_room(const dc_vcluster *vc, int pool)
{
    const vc_pool *p = &vc->pools[pool];
    return p->lend_max > p->lent ? p->lend_max - p->lent : 0;
}

bool dc_vcluster_lends(const dc_vcluster *vc, int pool) { return vc->pools[pool].lend; }
bool dc_vcluster_borrows(const dc_vcluster *vc, int pool) { return vc->pools[pool].borrow; }
double dc_vcluster_notice_s(const dc_vcluster *vc, int pool) { return vc->pools[pool].notice_s; }
uint32_t dc_vcluster_lent_now(const dc_vcluster *vc, int pool) { return vc->pools[pool].lent; }
uint32_t dc_vcluster_borrowed_now(const dc_vcluster *vc, int pool) { return vc->pools[pool].borrowed; }
uint64_t dc_vcluster_borrow_starts(const dc_vcluster *vc, int pool) { return vc->pools[pool].borrow_starts; }
uint64_t dc_vcluster_reclaims(const dc_vcluster *vc, int pool) { return vc->pools[pool].reclaims; }
uint64_t dc_vcluster_reclaimed(const dc_vcluster *vc, int pool) { return vc->pools[pool].reclaimed; }
uint64_t dc_vcluster_work(const dc_vcluster *vc) { return vc->work; }

uint32_t dc_vcluster_lent_staying(const dc_vcluster *vc, int pool)
{
    const vc_pool *p = &vc->pools[pool];
    return p->lent > p->leaving ? p->lent - p->leaving : 0;
}

bool dc_vcluster_active(const dc_vcluster *vc)
{
    for (int i = 0; i < vc->n_pools; i++)
        for (int k = 0; vc->pools[i].lend && k < vc->n_pools; k++)
            if (k != i && vc->pools[k].borrow)
                return true;
    return false;
}

int dc_vcluster_pick(const dc_vcluster *vc, int borrower, uint32_t short_n, uint32_t (*lendable)(void *ctx, int pool),
                     void *ctx)
{
    if (!vc->pools[borrower].borrow)
        return -1;
    int best = -1;
    uint32_t most = 0;
    for (int i = 0; i < vc->n_pools; i++) {
        if (i == borrower || !vc->pools[i].lend)
            continue;
        uint32_t k = lendable(ctx, i);
        if (k >= short_n && k > most) {
            best = i;
            most = k;
        }
    }
    return best;
}

static void bank_lent(vc_pool *p, double now_s)
{
    if (now_s > p->lent_last_s)
        p->lent_ns += (now_s - p->lent_last_s) * (double)p->lent;
    p->lent_last_s = now_s;
}

static void bank_borrowed(vc_pool *p, double now_s)
{
    if (now_s > p->borrowed_last_s)
        p->borrowed_ns += (now_s - p->borrowed_last_s) * (double)p->borrowed;
    p->borrowed_last_s = now_s;
}

double dc_vcluster_lent_node_s(dc_vcluster *vc, int pool, double now_s)
{
    bank_lent(&vc->pools[pool], now_s);
    return vc->pools[pool].lent_ns;
}

double dc_vcluster_borrowed_node_s(dc_vcluster *vc, int pool, double now_s)
{
    bank_borrowed(&vc->pools[pool], now_s);
    return vc->pools[pool].borrowed_ns;
}

static vc_job *job_of(const dc_vcluster *vc, int h)
{
    return h >= 0 && (size_t)h < vc->cap_jobs && vc->jobs[h].lender >= 0 ? &vc->jobs[h] : NULL;
}

int dc_vcluster_lender_of(const dc_vcluster *vc, int h)
{
    const vc_job *j = job_of(vc, h);
    return j ? j->lender : -1;
}

uint32_t dc_vcluster_lent_of(const dc_vcluster *vc, int h)
{
    const vc_job *j = job_of(vc, h);
    return j ? j->lent_n : 0;
}

int dc_vcluster_start(dc_vcluster *vc, double now_s, int h, int borrower, int lender, uint32_t n_lent, int priority,
                      bool preemptible, double start_s)
{
    if ((size_t)h >= vc->cap_jobs) {
        size_t nc = vc->cap_jobs ? 2 * vc->cap_jobs : 64;
        while (nc <= (size_t)h)
            nc *= 2;
        vc_job *g = realloc(vc->jobs, nc * sizeof *g);
        if (!g)
            return -1;
        for (size_t i = vc->cap_jobs; i < nc; i++)
            g[i] = (vc_job){.lender = -1, .borrower = -1};
        vc->jobs = g;
        vc->cap_jobs = nc;
    }
    vc_pool *lp = &vc->pools[lender], *bp = &vc->pools[borrower];
    if (lp->n_guests == lp->cap_guests) {
        size_t nc = lp->cap_guests ? 2 * lp->cap_guests : 8;
        int *g = realloc(lp->guests, nc * sizeof *g);
        if (!g)
            return -1;
        lp->guests = g;
        lp->cap_guests = nc;
    }
    bank_lent(lp, now_s);
    bank_borrowed(bp, now_s);
    lp->lent += n_lent;
    bp->borrowed += n_lent;
    bp->borrow_starts++;
    vc->jobs[h] = (vc_job){.lender = lender,
                           .borrower = borrower,
                           .lent_n = n_lent,
                           .guestpos = (uint32_t)lp->n_guests,
                           .priority = priority,
                           .preemptible = preemptible,
                           .start_s = start_s};
    lp->guests[lp->n_guests++] = h;
    return 0;
}

void dc_vcluster_node_lost(dc_vcluster *vc, double now_s, int h)
{
    vc_job *j = job_of(vc, h);
    if (!j || j->lent_n == 0)
        return;
    vc_pool *lp = &vc->pools[j->lender], *bp = &vc->pools[j->borrower];
    bank_lent(lp, now_s);
    bank_borrowed(bp, now_s);
    j->lent_n--;
    lp->lent--;
    bp->borrowed--;
}

uint32_t dc_vcluster_leaving(dc_vcluster *vc, int h)
{
    vc_job *j = job_of(vc, h);
    if (!j || j->leaving)
        return 0;
    j->leaving = true;
    j->leaving_n = j->lent_n;
    vc->pools[j->lender].leaving += j->leaving_n;
    return j->leaving_n;
}

uint32_t dc_vcluster_leaving_of(const dc_vcluster *vc, int h)
{
    const vc_job *j = job_of(vc, h);
    return j && j->leaving ? j->leaving_n : 0;
}

uint32_t dc_vcluster_end(dc_vcluster *vc, double now_s, int h)
{
    vc_job *j = job_of(vc, h);
    if (!j)
        return 0;
    vc_pool *lp = &vc->pools[j->lender], *bp = &vc->pools[j->borrower];
    bank_lent(lp, now_s);
    bank_borrowed(bp, now_s);
    lp->lent -= j->lent_n;
    bp->borrowed -= j->lent_n;
    uint32_t was = j->leaving ? j->leaving_n : 0;
    lp->leaving -= was;
    /* out of the lender's guests: the last one moves into its place */
    int last = lp->guests[--lp->n_guests];
    lp->guests[j->guestpos] = last;
    vc->jobs[last].guestpos = j->guestpos;
    *j = (vc_job){.lender = -1, .borrower = -1};
    return was;
}

void dc_vcluster_count_reclaim(dc_vcluster *vc, int lender, int borrower)
{
    vc->pools[lender].reclaims++;
    vc->pools[borrower].reclaimed++;
}

/* true when guest ha is reclaimed before hb: preemptible first, lowest
 * priority, youngest (latest start), latest handle */
static bool reclaim_before(const dc_vcluster *vc, int ha, int hb)
{
    const vc_job *x = &vc->jobs[ha], *y = &vc->jobs[hb];
    if (x->preemptible != y->preemptible)
        return x->preemptible;
    if (x->priority != y->priority)
        return x->priority < y->priority;
    if (x->start_s != y->start_s)
        return x->start_s > y->start_s;
    return ha > hb;
}

/* Bottom-up merge sort of a[0..n) in reclaim order (tmp: n more ints). */
static void sort_victims(dc_vcluster *vc, int *a, int *tmp, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid || j < hi) {
                vc->work++;
                if (j >= hi || (i < mid && !reclaim_before(vc, a[j], a[i])))
                    tmp[k++] = a[i++];
                else
                    tmp[k++] = a[j++];
            }
        }
        memcpy(a, tmp, n * sizeof *a);
    }
}

size_t dc_vcluster_victims(dc_vcluster *vc, int lender, uint32_t need, int *out, size_t max)
{
    vc_pool *lp = &vc->pools[lender];
    if (2 * lp->n_guests > vc->cap_scratch) {
        size_t nc = vc->cap_scratch ? 2 * vc->cap_scratch : 16;
        while (nc < 2 * lp->n_guests)
            nc *= 2;
        int *g = realloc(vc->scratch, nc * sizeof *g);
        if (!g)
            return 0;
        vc->scratch = g;
        vc->cap_scratch = nc;
    }
    size_t n = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < lp->n_guests; i++) {
        vc->work++;
        const vc_job *j = &vc->jobs[lp->guests[i]];
        if (!j->leaving && j->lent_n > 0) {
            vc->scratch[n++] = lp->guests[i];
            total += j->lent_n;
        }
    }
    if (total < need)
        return 0;
    sort_victims(vc, vc->scratch, vc->scratch + lp->n_guests, n);
    size_t nv = 0;
    uint64_t got = 0;
    for (size_t i = 0; i < n && got < need && nv < max; i++) {
        out[nv++] = vc->scratch[i];
        got += vc->jobs[vc->scratch[i]].lent_n;
    }
    return nv;
}
