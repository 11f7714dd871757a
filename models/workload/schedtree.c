/* The scheduler's ordered sets of jobs: a treap with subtree sums and minima (see schedtree.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "schedtree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The heap priority of handle h: splitmix64 (Steele et al. 2014), fixed so
 * that the tree's shape is the same on every run; computed once at the
 * insert and kept in the node. */
static uint64_t prio(int h)
{
    uint64_t z = (uint64_t)h + 0x9e3779b97f4a7c15u;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

void dc_stree_init(dc_stree *t, dc_stree_before before, const void *ctx)
{
    memset(t, 0, sizeof *t);
    t->root = -1;
    t->before = before;
    t->ctx = ctx;
}

void dc_stree_free(dc_stree *t)
{
    free(t->n);
    t->n = NULL;
    t->cap = 0;
    t->root = -1;
    t->count = 0;
}

bool dc_stree_has(const dc_stree *t, int h) { return h >= 0 && (size_t)h < t->cap && t->n[h].in; }
size_t dc_stree_count(const dc_stree *t) { return t->count; }
uint64_t dc_stree_work(const dc_stree *t) { return t->work; }

static void pull(dc_stree *t, int x)
{
    dc_stree_node *v = &t->n[x];
    v->sum_nodes = v->nodes;
    v->min_nodes = v->nodes;
    v->min_est_s = v->est_s;
    for (int k = 0; k < 2; k++) {
        int c = k ? v->r : v->l;
        if (c < 0)
            continue;
        const dc_stree_node *w = &t->n[c];
        v->sum_nodes += w->sum_nodes;
        if (w->min_nodes < v->min_nodes)
            v->min_nodes = w->min_nodes;
        if (w->min_est_s < v->min_est_s)
            v->min_est_s = w->min_est_s;
    }
}

/* Splits the subtree x into the members ranking before key h (or equal to
 * it, when inclusive) and the rest. */
static void split(dc_stree *t, int x, int h, bool inclusive, int *l, int *r)
{
    if (x < 0) {
        *l = *r = -1;
        return;
    }
    t->work++;
    bool left = x == h ? inclusive : t->before(t->ctx, x, h);
    if (left) {
        split(t, t->n[x].r, h, inclusive, &t->n[x].r, r);
        *l = x;
    } else {
        split(t, t->n[x].l, h, inclusive, l, &t->n[x].l);
        *r = x;
    }
    pull(t, x);
}

static int merge(dc_stree *t, int a, int b)
{
    if (a < 0)
        return b;
    if (b < 0)
        return a;
    t->work++;
    if (t->n[a].prio > t->n[b].prio) {
        t->n[a].r = merge(t, t->n[a].r, b);
        pull(t, a);
        return a;
    }
    t->n[b].l = merge(t, a, t->n[b].l);
    pull(t, b);
    return b;
}

/* Insertion by descent (the treap's classic insert): down the path while
 * the members there outrank h's priority, adding h's size and estimate to
 * their sums and minima on the way (exact: h only joins those subtrees),
 * then h takes the place of the subtree it reaches, split at its key into
 * h's two children.  That subtree is small on average (its root's
 * priority is below h's), so one split of it replaces the whole tree's
 * split and the two merges. */
static int insert_at(dc_stree *t, int x, int h, uint64_t ph)
{
    if (x < 0 || t->n[x].prio < ph) {
        dc_stree_node *v = &t->n[h];
        int l, r;
        split(t, x, h, false, &l, &r);
        v->l = l;
        v->r = r;
        pull(t, h);
        return h;
    }
    t->work++;
    dc_stree_node *v = &t->n[x];
    const dc_stree_node *w = &t->n[h];
    v->sum_nodes += w->nodes;
    if (w->nodes < v->min_nodes)
        v->min_nodes = w->nodes;
    if (w->est_s < v->min_est_s)
        v->min_est_s = w->est_s;
    if (t->before(t->ctx, h, x)) {
        int c = insert_at(t, v->l, h, ph);
        t->n[x].l = c;
    } else {
        int c = insert_at(t, v->r, h, ph);
        t->n[x].r = c;
    }
    return x;
}

int dc_stree_insert(dc_stree *t, int h, uint32_t nodes, double est_s)
{
    if ((size_t)h >= t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        while (nc <= (size_t)h)
            nc *= 2;
        dc_stree_node *g = realloc(t->n, nc * sizeof *g);
        if (!g)
            return -1;
        memset(g + t->cap, 0, (nc - t->cap) * sizeof *g);
        t->n = g;
        t->cap = nc;
    }
    uint64_t ph = prio(h);
    t->n[h] = (dc_stree_node){.l = -1, .r = -1, .prio = ph, .nodes = nodes, .est_s = est_s, .in = true};
    t->root = insert_at(t, t->root, h, ph);
    t->count++;
    return 0;
}

/* Removal by descent: down the path to h by its key, h replaced by the
 * merge of its children, and the sums and minima of the path pulled on
 * the way back up. */
static int remove_at(dc_stree *t, int x, int h)
{
    t->work++;
    dc_stree_node *v = &t->n[x];
    if (x == h)
        return merge(t, v->l, v->r);
    if (t->before(t->ctx, h, x)) {
        int c = remove_at(t, v->l, h);
        t->n[x].l = c;
    } else {
        int c = remove_at(t, v->r, h);
        t->n[x].r = c;
    }
    pull(t, x);
    return x;
}

void dc_stree_remove(dc_stree *t, int h)
{
    if (!dc_stree_has(t, h))
        return;
    t->root = remove_at(t, t->root, h);
    t->n[h].in = false;
    t->count--;
}

int dc_stree_first(dc_stree *t)
{
    int x = t->root;
    if (x < 0)
        return -1;
    while (t->n[x].l >= 0) {
        t->work++;
        x = t->n[x].l;
    }
    return x;
}

int dc_stree_next(dc_stree *t, int h)
{
    int x = t->root, best = -1;
    while (x >= 0) {
        t->work++;
        if (x != h && t->before(t->ctx, h, x)) {
            best = x;
            x = t->n[x].l;
        } else {
            x = t->n[x].r;
        }
    }
    return best;
}

typedef struct query {
    int after;
    uint32_t max_nodes;
    long extra;
    double now_s, shadow_s;
} query;

static bool prune(const dc_stree_node *v, const query *q)
{
    if (v->min_nodes > q->max_nodes)
        return true;
    return (long)v->min_nodes > q->extra && q->now_s + v->min_est_s > q->shadow_s;
}

static bool fits(const dc_stree_node *v, const query *q)
{
    return v->nodes <= q->max_nodes && (q->now_s + v->est_s <= q->shadow_s || (long)v->nodes <= q->extra);
}

/* bounded: whether the subtree may hold members ranking at or before q->after */
static int find(dc_stree *t, int x, const query *q, bool bounded)
{
    if (x < 0)
        return -1;
    t->work++;
    const dc_stree_node *v = &t->n[x];
    if (prune(v, q))
        return -1;
    if (bounded && (x == q->after || !t->before(t->ctx, q->after, x)))
        return find(t, v->r, q, bounded); /* x and its left are not after */
    int got = find(t, v->l, q, bounded);
    if (got >= 0)
        return got;
    if (fits(v, q))
        return x;
    return find(t, v->r, q, false);
}

int dc_stree_find(dc_stree *t, int after, uint32_t max_nodes, long extra, double now_s, double shadow_s)
{
    query q = {after, max_nodes, extra, now_s, shadow_s};
    return find(t, t->root, &q, after >= 0);
}

int dc_stree_prefix(dc_stree *t, uint64_t target, uint64_t *sum)
{
    int x = t->root;
    if (x < 0 || t->n[x].sum_nodes < target)
        return -1;
    uint64_t before = 0;
    while (x >= 0) {
        t->work++;
        const dc_stree_node *v = &t->n[x];
        uint64_t left = v->l >= 0 ? t->n[v->l].sum_nodes : 0;
        if (before + left >= target) {
            x = v->l;
            continue;
        }
        before += left + v->nodes;
        if (before >= target) {
            *sum = before;
            return x;
        }
        x = v->r;
    }
    return -1; /* not reached: the total reaches target */
}

uint64_t dc_stree_sum_while(dc_stree *t, bool (*pred)(const void *ctx, int h, const void *arg), const void *arg)
{
    uint64_t sum = 0;
    int x = t->root;
    while (x >= 0) {
        t->work++;
        const dc_stree_node *v = &t->n[x];
        if (pred(t->ctx, x, arg)) {
            sum += (v->l >= 0 ? t->n[v->l].sum_nodes : 0) + v->nodes;
            x = v->r;
        } else {
            x = v->l;
        }
    }
    return sum;
}
