/* Named placement policies: a pool's idle nodes by rack, leaf and pod, and the nodes a job gets (see placer.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "placer.h"

#include <stdlib.h>

#include "rackset.h"

enum { RACK, LEAF, POD, LEVELS };

/* Domains of one level that meet the pool: unit u holds nodes
 * [u size, (u + 1) size) of the cluster; counts by local index u - u0.
 * The set by count (best fit in a few steps) when units are small enough
 * for it, else the counts are searched in order (pods: a few). */
typedef struct level {
    uint32_t size, u0, nu;
    uint32_t *count;
    dc_rackset *set;
} level;

struct dc_placer {
    dc_placer_policy policy;
    uint32_t first, n, n_idle;
    uint8_t *idle;
    level lv[LEVELS];
    int64_t *fen;      /* random: Fenwick tree of the racks' idle counts (1-based) */
    uint32_t fen_top;  /* highest power of two <= racks */
    uint32_t *cursor;  /* spread: each pod's next rack */
    gsl_rng *rng;
    uint64_t work;
};

#define MAX_SET_COUNT 4096u

static int level_init(level *L, uint32_t size, uint32_t first, uint32_t n)
{
    L->size = size ? size : 1;
    L->u0 = first / L->size;
    L->nu = (first + n - 1) / L->size - L->u0 + 1;
    L->count = calloc(L->nu, sizeof *L->count);
    if (!L->count)
        return -1;
    if (L->size <= MAX_SET_COUNT) {
        L->set = dc_rackset_create(L->nu, L->size);
        if (!L->set)
            return -1;
    }
    return 0;
}

dc_placer *dc_placer_create(dc_placer_policy policy, uint32_t first, uint32_t n, uint32_t nodes_per_rack,
                            uint32_t nodes_per_leaf, uint32_t leaves_per_pod, gsl_rng *rng)
{
    dc_placer *pl = calloc(1, sizeof *pl);
    if (!pl)
        return NULL;
    pl->policy = policy;
    pl->first = first;
    pl->n = n;
    pl->rng = rng;
    uint64_t pod = (uint64_t)nodes_per_leaf * (leaves_per_pod ? leaves_per_pod : 1);
    pl->idle = calloc(n ? n : 1, 1);
    if (!pl->idle || level_init(&pl->lv[RACK], nodes_per_rack, first, n) != 0
        || level_init(&pl->lv[LEAF], nodes_per_leaf, first, n) != 0
        || level_init(&pl->lv[POD], pod > UINT32_MAX ? UINT32_MAX : (uint32_t)pod, first, n) != 0) {
        dc_placer_destroy(pl);
        return NULL;
    }
    if (policy == DC_PLACER_RANDOM) {
        pl->fen = calloc((size_t)pl->lv[RACK].nu + 1, sizeof *pl->fen);
        if (!pl->fen) {
            dc_placer_destroy(pl);
            return NULL;
        }
        for (pl->fen_top = 1; 2 * pl->fen_top <= pl->lv[RACK].nu; pl->fen_top *= 2)
            ;
    }
    if (policy == DC_PLACER_SPREAD) {
        pl->cursor = calloc(pl->lv[POD].nu, sizeof *pl->cursor);
        if (!pl->cursor) {
            dc_placer_destroy(pl);
            return NULL;
        }
    }
    return pl;
}

void dc_placer_destroy(dc_placer *pl)
{
    if (!pl)
        return;
    for (int l = 0; l < LEVELS; l++) {
        free(pl->lv[l].count);
        dc_rackset_destroy(pl->lv[l].set);
    }
    free(pl->idle);
    free(pl->fen);
    free(pl->cursor);
    free(pl);
}

uint32_t dc_placer_idle(const dc_placer *pl) { return pl->n_idle; }
uint64_t dc_placer_work(const dc_placer *pl) { return pl->work; }

bool dc_placer_is_idle(const dc_placer *pl, uint32_t node)
{
    return node >= pl->first && node - pl->first < pl->n && pl->idle[node - pl->first];
}

static void count_add(level *L, uint32_t node, int delta)
{
    uint32_t u = node / L->size - L->u0;
    L->count[u] = delta > 0 ? L->count[u] + 1 : L->count[u] - 1;
    if (L->set)
        dc_rackset_set(L->set, u, L->count[u]);
}

void dc_placer_add(dc_placer *pl, uint32_t node, int delta)
{
    if (!(node >= pl->first && node - pl->first < pl->n) || pl->idle[node - pl->first] == (delta > 0))
        return;
    pl->idle[node - pl->first] = delta > 0;
    pl->n_idle = delta > 0 ? pl->n_idle + 1 : pl->n_idle - 1;
    for (int l = 0; l < LEVELS; l++)
        count_add(&pl->lv[l], node, delta);
    if (pl->fen)
        for (uint32_t i = node / pl->lv[RACK].size - pl->lv[RACK].u0 + 1; i <= pl->lv[RACK].nu; i += i & (~i + 1))
            pl->fen[i] += delta > 0 ? 1 : -1;
}

/* The unit of level l with the fewest idle nodes >= need (lowest on ties);
 * with fullest, when none holds need, the unit with the most; -1: none. */
static int64_t level_fit(dc_placer *pl, level *L, uint32_t need, bool fullest)
{
    if (L->set) {
        pl->work++;
        int64_t u = dc_rackset_fit(L->set, need);
        if (u < 0 && fullest)
            u = dc_rackset_best_fit(L->set, need);
        return u;
    }
    int64_t best = -1, most = -1;
    for (uint32_t u = 0; u < L->nu; u++) {
        pl->work++;
        uint32_t c = L->count[u];
        if (c >= need && (best < 0 || c < L->count[best]))
            best = u;
        if (c > 0 && (most < 0 || c > L->count[most]))
            most = u;
    }
    return best >= 0 ? best : fullest ? most : -1;
}

/* The pool's nodes of unit u of level l: [*lo, *hi). */
static void unit_range(const dc_placer *pl, const level *L, uint32_t u, uint32_t *lo, uint32_t *hi)
{
    uint64_t a = (uint64_t)(u + L->u0) * L->size, b = a + L->size;
    *lo = a < pl->first ? pl->first : (uint32_t)a;
    *hi = b > (uint64_t)pl->first + pl->n ? pl->first + pl->n : (uint32_t)b;
}

static void take(dc_placer *pl, uint32_t node, uint32_t *out, uint32_t *got)
{
    dc_placer_add(pl, node, -1);
    out[(*got)++] = node;
}

/* Takes up to k idle nodes of [lo, hi) in node order (racks without one
 * skipped); returns how many. */
static uint32_t take_range(dc_placer *pl, uint32_t lo, uint32_t hi, uint32_t k, uint32_t *out, uint32_t *got)
{
    const level *R = &pl->lv[RACK];
    uint32_t taken = 0;
    for (uint32_t r = lo / R->size; taken < k && lo < hi && r <= (hi - 1) / R->size; r++) {
        pl->work++;
        if (R->count[r - R->u0] == 0)
            continue;
        uint32_t a = r * R->size < lo ? lo : r * R->size, b = (r + 1) * R->size > hi ? hi : (r + 1) * R->size;
        for (uint32_t i = a; i < b && taken < k; i++) {
            pl->work++;
            if (pl->idle[i - pl->first]) {
                take(pl, i, out, got);
                taken++;
            }
        }
    }
    return taken;
}

/* The smallest domain that holds n: its level (LEVELS: the pool) and unit. */
static int smallest_domain(dc_placer *pl, uint32_t n, uint32_t *unit)
{
    for (int l = 0; l < LEVELS; l++) {
        int64_t u = level_fit(pl, &pl->lv[l], n, false);
        if (u >= 0) {
            *unit = (uint32_t)u;
            return l;
        }
    }
    return LEVELS;
}

static uint32_t pack(dc_placer *pl, uint32_t n, uint32_t *out)
{
    uint32_t got = 0, u, lo, hi;
    int l = smallest_domain(pl, n, &u);
    if (l < LEVELS) {
        unit_range(pl, &pl->lv[l], u, &lo, &hi);
        take_range(pl, lo, hi, n, out, &got);
        return got;
    }
    /* more than any pod holds: the pod that holds what is left, else the fullest, and again */
    while (got < n && pl->n_idle > 0) {
        int64_t p = level_fit(pl, &pl->lv[POD], n - got, true);
        if (p < 0)
            break;
        unit_range(pl, &pl->lv[POD], (uint32_t)p, &lo, &hi);
        if (take_range(pl, lo, hi, n - got, out, &got) == 0)
            break;
    }
    return got;
}

/* Whole units of level l inside [lo, hi), each holding a block, give one
 * block at a time while blocks are left. */
static void blocks_in(dc_placer *pl, int l, uint32_t lo, uint32_t hi, uint32_t block, uint32_t *nb, uint32_t *out,
                      uint32_t *got)
{
    level *L = &pl->lv[l];
    for (uint32_t u = lo / L->size; *nb > 0 && lo < hi && u <= (hi - 1) / L->size; u++) {
        pl->work++;
        uint32_t ulo, uhi;
        unit_range(pl, L, u - L->u0, &ulo, &uhi);
        if (ulo < lo || uhi > hi)
            continue; /* not wholly inside the domain */
        while (*nb > 0 && L->count[u - L->u0] >= block) {
            take_range(pl, ulo, uhi, block, out, got);
            (*nb)--;
        }
    }
}

/* k nodes of [lo, hi) (a domain of level l) by blocks: each in one rack
 * where a rack holds one, else in one leaf (l above a leaf), else in order. */
static void blocks_into(dc_placer *pl, int l, uint32_t lo, uint32_t hi, uint32_t k, uint32_t block, uint32_t *out,
                        uint32_t *got)
{
    uint32_t nb = k / block, rest = k % block;
    if (block <= pl->lv[RACK].size)
        blocks_in(pl, RACK, lo, hi, block, &nb, out, got);
    if (l >= POD && block <= pl->lv[LEAF].size)
        blocks_in(pl, LEAF, lo, hi, block, &nb, out, got);
    take_range(pl, lo, hi, nb * block + rest, out, got);
}

static uint32_t topology(dc_placer *pl, uint32_t n, uint32_t block, uint32_t *out)
{
    if (block <= 1 || block >= n)
        return pack(pl, n, out);
    uint32_t got = 0, u, lo, hi;
    int l = smallest_domain(pl, n, &u);
    if (l < LEVELS) {
        unit_range(pl, &pl->lv[l], u, &lo, &hi);
        blocks_into(pl, l, lo, hi, n, block, out, &got);
        return got;
    }
    /* more than any pod holds: pod by pod as pack takes them, blocks in each */
    while (got < n && pl->n_idle > 0) {
        int64_t p = level_fit(pl, &pl->lv[POD], n - got, true);
        if (p < 0)
            break;
        uint32_t k = pl->lv[POD].count[p] < n - got ? pl->lv[POD].count[p] : n - got, before = got;
        unit_range(pl, &pl->lv[POD], (uint32_t)p, &lo, &hi);
        blocks_into(pl, POD, lo, hi, k, block, out, &got);
        if (got == before)
            break;
    }
    return got;
}

static uint32_t spread(dc_placer *pl, uint32_t n, uint32_t *out)
{
    level *P = &pl->lv[POD], *R = &pl->lv[RACK];
    uint32_t got = 0;
    for (uint32_t p = 0; p < P->nu; p++) {
        uint32_t lo, hi;
        unit_range(pl, P, p, &lo, &hi);
        pl->cursor[p] = lo / R->size;
    }
    while (got < n && pl->n_idle > 0) {
        for (uint32_t p = 0; p < P->nu && got < n; p++) {
            pl->work++;
            if (P->count[p] == 0)
                continue;
            uint32_t lo, hi;
            unit_range(pl, P, p, &lo, &hi);
            uint32_t r0 = lo / R->size, r1 = (hi - 1) / R->size, r = pl->cursor[p];
            /* the pod's next rack with an idle node (round-robin) */
            for (uint32_t tries = 0; tries <= r1 - r0; tries++) {
                uint32_t a = r * R->size < lo ? lo : r * R->size, b = (r + 1) * R->size > hi ? hi : (r + 1) * R->size;
                uint32_t next = r == r1 ? r0 : r + 1;
                if (R->count[r - R->u0] > 0 && take_range(pl, a, b, 1, out, &got) == 1) {
                    pl->cursor[p] = next;
                    break;
                }
                r = next;
            }
        }
    }
    return got;
}

static uint32_t random_pick(dc_placer *pl, uint32_t n, uint32_t *out)
{
    level *R = &pl->lv[RACK];
    uint32_t got = 0;
    while (got < n && pl->n_idle > 0) {
        int64_t k = (int64_t)gsl_rng_uniform_int(pl->rng, pl->n_idle);
        uint32_t pos = 0;
        for (uint32_t step = pl->fen_top; step; step >>= 1) {
            pl->work++;
            if (pos + step <= R->nu && pl->fen[pos + step] <= k) {
                pos += step;
                k -= pl->fen[pos];
            }
        }
        uint32_t lo, hi;
        unit_range(pl, R, pos, &lo, &hi);
        for (uint32_t i = lo; i < hi; i++) {
            pl->work++;
            if (pl->idle[i - pl->first] && k-- == 0) {
                take(pl, i, out, &got);
                break;
            }
        }
    }
    return got;
}

uint32_t dc_placer_choose(dc_placer *pl, uint32_t n, uint32_t block, uint32_t *out)
{
    if (n > pl->n_idle)
        n = pl->n_idle;
    if (n == 0)
        return 0;
    switch (pl->policy) {
    case DC_PLACER_PACK:
        return pack(pl, n, out);
    case DC_PLACER_SPREAD:
        return spread(pl, n, out);
    case DC_PLACER_RANDOM:
        return random_pick(pl, n, out);
    case DC_PLACER_TOPOLOGY:
        return topology(pl, n, block, out);
    }
    return 0;
}
