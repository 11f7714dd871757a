/* Idle nodes per rack of a pool: racks grouped by their idle count, lowest rack first (see rackset.h).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "rackset.h"

#include <stdbool.h>
#include <stdlib.h>

/* A set of racks with its lowest member found through summary levels:
 * level 0 has one bit per rack, level k+1 one bit per word of level k. */
typedef struct bitset {
    uint64_t *w;
    uint32_t off[8], len[8];
    int levels;
} bitset;

struct dc_rackset {
    uint32_t n_racks, max;
    uint32_t *cnt;
    bitset *by_count;   /* [c - 1] for c = 1..max */
    uint64_t *nonempty; /* bit c: by_count[c - 1] has a member */
    uint64_t work;
};

static int bitset_init(bitset *b, uint32_t n)
{
    uint32_t total = 0, len = n;
    b->levels = 0;
    do {
        len = (len + 63) / 64;
        b->off[b->levels] = total;
        b->len[b->levels] = len;
        total += len;
        b->levels++;
    } while (len > 1 && b->levels < 8);
    b->w = calloc(total, sizeof *b->w);
    return b->w ? 0 : -1;
}

static void bitset_set(bitset *b, uint32_t i)
{
    for (int l = 0; l < b->levels; l++) {
        uint64_t *w = &b->w[b->off[l] + i / 64];
        bool was = *w != 0;
        *w |= UINT64_C(1) << (i % 64);
        if (was)
            return;
        i /= 64;
    }
}

static void bitset_clear(bitset *b, uint32_t i)
{
    for (int l = 0; l < b->levels; l++) {
        uint64_t *w = &b->w[b->off[l] + i / 64];
        *w &= ~(UINT64_C(1) << (i % 64));
        if (*w)
            return;
        i /= 64;
    }
}

static bool bitset_empty(const bitset *b) { return b->w[b->off[b->levels - 1]] == 0; }

static uint32_t bitset_first(const bitset *b)
{
    uint32_t i = 0;
    for (int l = b->levels - 1; l >= 0; l--)
        i = i * 64 + (uint32_t)__builtin_ctzll(b->w[b->off[l] + i]);
    return i;
}

dc_rackset *dc_rackset_create(uint32_t n_racks, uint32_t max_count)
{
    dc_rackset *rs = calloc(1, sizeof *rs);
    if (!rs)
        return NULL;
    rs->n_racks = n_racks;
    rs->max = max_count;
    rs->cnt = calloc(n_racks ? n_racks : 1, sizeof *rs->cnt);
    rs->by_count = calloc(max_count ? max_count : 1, sizeof *rs->by_count);
    rs->nonempty = calloc(max_count / 64 + 1, sizeof *rs->nonempty);
    if (!rs->cnt || !rs->by_count || !rs->nonempty) {
        dc_rackset_destroy(rs);
        return NULL;
    }
    for (uint32_t c = 0; c < max_count; c++)
        if (bitset_init(&rs->by_count[c], n_racks) != 0) {
            dc_rackset_destroy(rs);
            return NULL;
        }
    return rs;
}

void dc_rackset_destroy(dc_rackset *rs)
{
    if (!rs)
        return;
    for (uint32_t c = 0; rs->by_count && c < rs->max; c++)
        free(rs->by_count[c].w);
    free(rs->by_count);
    free(rs->nonempty);
    free(rs->cnt);
    free(rs);
}

uint32_t dc_rackset_count(const dc_rackset *rs, uint32_t rack) { return rs->cnt[rack]; }
uint64_t dc_rackset_work(const dc_rackset *rs) { return rs->work; }

static void leave(dc_rackset *rs, uint32_t rack, uint32_t c)
{
    if (c == 0)
        return;
    bitset *b = &rs->by_count[c - 1];
    bitset_clear(b, rack);
    if (bitset_empty(b))
        rs->nonempty[c / 64] &= ~(UINT64_C(1) << (c % 64));
}

static void join(dc_rackset *rs, uint32_t rack, uint32_t c)
{
    if (c == 0)
        return;
    bitset_set(&rs->by_count[c - 1], rack);
    rs->nonempty[c / 64] |= UINT64_C(1) << (c % 64);
}

void dc_rackset_add(dc_rackset *rs, uint32_t rack, int delta)
{
    uint32_t c = rs->cnt[rack], nc = delta > 0 ? c + 1 : c - 1;
    rs->work++;
    leave(rs, rack, c);
    join(rs, rack, nc);
    rs->cnt[rack] = nc;
}

void dc_rackset_set(dc_rackset *rs, uint32_t rack, uint32_t count)
{
    uint32_t c = rs->cnt[rack];
    if (c == count)
        return;
    rs->work++;
    leave(rs, rack, c);
    join(rs, rack, count);
    rs->cnt[rack] = count;
}

/* The least count >= from with a rack, 0 when none. */
static uint32_t count_at_least(dc_rackset *rs, uint32_t from)
{
    for (uint32_t w = from / 64; w <= rs->max / 64; w++) {
        rs->work++;
        uint64_t bits = rs->nonempty[w];
        if (w == from / 64)
            bits &= ~UINT64_C(0) << (from % 64);
        if (bits)
            return w * 64 + (uint32_t)__builtin_ctzll(bits);
    }
    return 0;
}

static uint32_t count_highest(dc_rackset *rs)
{
    for (uint32_t w = rs->max / 64 + 1; w-- > 0;) {
        rs->work++;
        if (rs->nonempty[w])
            return w * 64 + 63 - (uint32_t)__builtin_clzll(rs->nonempty[w]);
    }
    return 0;
}

int64_t dc_rackset_best_fit(dc_rackset *rs, uint32_t need)
{
    uint32_t c = need <= rs->max ? count_at_least(rs, need ? need : 1) : 0;
    if (c == 0)
        c = count_highest(rs);
    if (c == 0)
        return -1;
    rs->work += (uint64_t)rs->by_count[c - 1].levels;
    return bitset_first(&rs->by_count[c - 1]);
}

int64_t dc_rackset_fit(dc_rackset *rs, uint32_t need)
{
    uint32_t c = need <= rs->max ? count_at_least(rs, need ? need : 1) : 0;
    if (c == 0)
        return -1;
    rs->work += (uint64_t)rs->by_count[c - 1].levels;
    return bitset_first(&rs->by_count[c - 1]);
}

uint32_t dc_rackset_highest(dc_rackset *rs) { return count_highest(rs); }
