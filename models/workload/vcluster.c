/* Virtual clusters: who lends to whom, the guests of each lender, the reclaim order and the lent/borrowed node-time.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "vcluster.h"

#include <stdlib.h>
#include <string.h>

typedef struct vc_pool {
    bool lend, borrow;
    double notice_s;
    int *guests;                 /* records of the jobs holding this pool's nodes */
    size_t n_guests, cap_guests;
    uint32_t lent, leaving, borrowed;
    uint32_t lend_max;           /* UINT32_MAX: no limit */
    double lent_ns, borrowed_ns, lent_last_s, borrowed_last_s;
    uint64_t borrow_starts, reclaims, reclaimed;
} vc_pool;

/* One lender's nodes held by one job. */
typedef struct vc_rec {
    int h, lender, next;         /* next: the job's next record (or the free list's), -1: none */
    uint32_t lent_n, leaving_n, guestpos;
} vc_rec;

typedef struct vc_job {
    int borrower, first;         /* first record, -1: borrows nothing */
    uint32_t lent_n;             /* over its records */
    int priority;
    bool preemptible, leaving;
    double start_s;
} vc_job;

struct dc_vcluster {
    vc_pool *pools;
    int n_pools;
    vc_job *jobs;
    size_t cap_jobs;
    vc_rec *recs;
    size_t cap_recs, n_free;
    int free_rec;
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
    vc->free_rec = -1;
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
    free(vc->recs);
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

size_t dc_vcluster_pick(const dc_vcluster *vc, int borrower, uint32_t short_n,
                        uint32_t (*lendable)(void *ctx, int pool), void *ctx, int *lenders, uint32_t *counts)
{
    if (!vc->pools[borrower].borrow)
        return 0;
    size_t n = 0;
    uint32_t left = short_n;
    while (left > 0) {
        int best = -1;
        uint32_t most = 0;
        for (int i = 0; i < vc->n_pools; i++) {
            bool taken = false;
            for (size_t k = 0; k < n && !taken; k++)
                taken = lenders[k] == i;
            if (i == borrower || !vc->pools[i].lend || taken)
                continue;
            uint32_t k = lendable(ctx, i);
            if (k > most) {
                best = i;
                most = k;
            }
        }
        if (best < 0)
            return 0;
        lenders[n] = best;
        counts[n] = most < left ? most : left;
        left -= counts[n++];
    }
    return n;
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
    return h >= 0 && (size_t)h < vc->cap_jobs && vc->jobs[h].first >= 0 ? &vc->jobs[h] : NULL;
}

bool dc_vcluster_borrowing(const dc_vcluster *vc, int h) { return job_of(vc, h) != NULL; }

uint32_t dc_vcluster_lent_of(const dc_vcluster *vc, int h)
{
    const vc_job *j = job_of(vc, h);
    return j ? j->lent_n : 0;
}

size_t dc_vcluster_lenders(const dc_vcluster *vc, int h, int *lenders, uint32_t *lent, uint32_t *leaving)
{
    const vc_job *j = job_of(vc, h);
    size_t n = 0;
    for (int r = j ? j->first : -1; r >= 0; r = vc->recs[r].next, n++) {
        lenders[n] = vc->recs[r].lender;
        if (lent)
            lent[n] = vc->recs[r].lent_n;
        if (leaving)
            leaving[n] = j->leaving ? vc->recs[r].leaving_n : 0;
    }
    return n;
}

/* a with room for need elements of size bytes (*cap updated); NULL when
 * out of memory (a unchanged). */
static void *grow(void *a, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return a;
    size_t nc = *cap ? 2 * *cap : 16;
    while (nc < need)
        nc *= 2;
    void *g = realloc(a, nc * size);
    if (g)
        *cap = nc;
    return g;
}

int dc_vcluster_start(dc_vcluster *vc, double now_s, int h, int borrower, size_t n, const int *lenders,
                      const uint32_t *counts, int priority, bool preemptible, double start_s)
{
    size_t old_cap = vc->cap_jobs;
    vc_job *jobs = grow(vc->jobs, &vc->cap_jobs, (size_t)h + 1, sizeof *vc->jobs);
    if (!jobs)
        return -1;
    vc->jobs = jobs;
    for (size_t i = old_cap; i < vc->cap_jobs; i++)
        vc->jobs[i] = (vc_job){.borrower = -1, .first = -1};
    if (vc->n_free < n) {
        size_t top = vc->cap_recs;
        vc_rec *recs = grow(vc->recs, &vc->cap_recs, top + n, sizeof *vc->recs);
        if (!recs)
            return -1;
        vc->recs = recs;
        for (size_t i = vc->cap_recs; i-- > top;) {
            vc->recs[i].next = vc->free_rec;
            vc->free_rec = (int)i;
            vc->n_free++;
        }
    }
    for (size_t k = 0; k < n; k++) {
        vc_pool *lp = &vc->pools[lenders[k]];
        int *g = grow(lp->guests, &lp->cap_guests, lp->n_guests + 1, sizeof *lp->guests);
        if (!g)
            return -1;
        lp->guests = g;
    }
    vc_pool *bp = &vc->pools[borrower];
    vc_job *j = &vc->jobs[h];
    *j = (vc_job){.borrower = borrower,
                  .first = -1,
                  .priority = priority,
                  .preemptible = preemptible,
                  .start_s = start_s};
    bank_borrowed(bp, now_s);
    for (size_t k = 0; k < n; k++) {
        vc_pool *lp = &vc->pools[lenders[k]];
        int r = vc->free_rec;
        vc->free_rec = vc->recs[r].next;
        vc->n_free--;
        vc->recs[r] = (vc_rec){.h = h,
                               .lender = lenders[k],
                               .next = j->first,
                               .lent_n = counts[k],
                               .guestpos = (uint32_t)lp->n_guests};
        j->first = r;
        lp->guests[lp->n_guests++] = r;
        bank_lent(lp, now_s);
        lp->lent += counts[k];
        bp->borrowed += counts[k];
        j->lent_n += counts[k];
    }
    bp->borrow_starts++;
    return 0;
}

void dc_vcluster_node_lost(dc_vcluster *vc, double now_s, int h, int lender)
{
    vc_job *j = job_of(vc, h);
    for (int r = j ? j->first : -1; r >= 0; r = vc->recs[r].next) {
        vc_rec *x = &vc->recs[r];
        if (x->lender != lender || x->lent_n == 0)
            continue;
        vc_pool *lp = &vc->pools[lender], *bp = &vc->pools[j->borrower];
        bank_lent(lp, now_s);
        bank_borrowed(bp, now_s);
        x->lent_n--;
        j->lent_n--;
        lp->lent--;
        bp->borrowed--;
        return;
    }
}

uint32_t dc_vcluster_leaving(dc_vcluster *vc, int h)
{
    vc_job *j = job_of(vc, h);
    if (!j || j->leaving)
        return 0;
    j->leaving = true;
    uint32_t total = 0;
    for (int r = j->first; r >= 0; r = vc->recs[r].next) {
        vc_rec *x = &vc->recs[r];
        x->leaving_n = x->lent_n;
        vc->pools[x->lender].leaving += x->leaving_n;
        total += x->leaving_n;
    }
    return total;
}

uint32_t dc_vcluster_leaving_of(const dc_vcluster *vc, int h)
{
    const vc_job *j = job_of(vc, h);
    uint32_t total = 0;
    for (int r = j && j->leaving ? j->first : -1; r >= 0; r = vc->recs[r].next)
        total += vc->recs[r].leaving_n;
    return total;
}

uint32_t dc_vcluster_end(dc_vcluster *vc, double now_s, int h)
{
    vc_job *j = job_of(vc, h);
    if (!j)
        return 0;
    vc_pool *bp = &vc->pools[j->borrower];
    bank_borrowed(bp, now_s);
    uint32_t was = 0;
    for (int r = j->first, next; r >= 0; r = next) {
        vc_rec *x = &vc->recs[r];
        next = x->next;
        vc_pool *lp = &vc->pools[x->lender];
        bank_lent(lp, now_s);
        lp->lent -= x->lent_n;
        bp->borrowed -= x->lent_n;
        if (j->leaving) {
            lp->leaving -= x->leaving_n;
            was += x->leaving_n;
        }
        /* out of the lender's guests: the last one moves into its place */
        int last = lp->guests[--lp->n_guests];
        lp->guests[x->guestpos] = last;
        vc->recs[last].guestpos = x->guestpos;
        x->next = vc->free_rec;
        vc->free_rec = r;
        vc->n_free++;
    }
    *j = (vc_job){.borrower = -1, .first = -1};
    return was;
}

void dc_vcluster_count_reclaim(dc_vcluster *vc, int lender, int borrower)
{
    vc->pools[lender].reclaims++;
    vc->pools[borrower].reclaimed++;
}

/* true when record ra's job is reclaimed before rb's: preemptible first,
 * lowest priority, youngest (latest start), latest handle */
static bool reclaim_before(const dc_vcluster *vc, int ra, int rb)
{
    int ha = vc->recs[ra].h, hb = vc->recs[rb].h;
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
    int *sc = grow(vc->scratch, &vc->cap_scratch, 2 * lp->n_guests, sizeof *vc->scratch);
    if (!sc)
        return 0;
    vc->scratch = sc;
    size_t n = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < lp->n_guests; i++) {
        vc->work++;
        const vc_rec *x = &vc->recs[lp->guests[i]];
        if (!vc->jobs[x->h].leaving && x->lent_n > 0) {
            vc->scratch[n++] = lp->guests[i];
            total += x->lent_n;
        }
    }
    if (total < need)
        return 0;
    sort_victims(vc, vc->scratch, vc->scratch + lp->n_guests, n);
    size_t nv = 0;
    uint64_t got = 0;
    for (size_t i = 0; i < n && got < need && nv < max; i++) {
        out[nv++] = vc->recs[vc->scratch[i]].h;
        got += vc->recs[vc->scratch[i]].lent_n;
    }
    return nv;
}
