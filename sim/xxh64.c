/* XXH64 (sim/xxh64.h): stripes of four 64-bit lanes, then the tail and the avalanche.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "xxh64.h"
#include "le_load.h"

#include <string.h>

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t round64(uint64_t acc, uint64_t word) { return dc_rotl64(acc + word * P2, 31) * P1; }

static uint64_t merge(uint64_t acc, uint64_t lane) { return (acc ^ round64(0, lane)) * P1 + P4; }

/* Whole stripes of p[0..n): returns the bytes consumed (a multiple of 32). */
static size_t stripes(uint64_t v[4], const unsigned char *p, size_t n)
{
    uint64_t a = v[0], b = v[1], c = v[2], d = v[3];
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        a = round64(a, dc_le_load64(p + i));
        b = round64(b, dc_le_load64(p + i + 8));
        c = round64(c, dc_le_load64(p + i + 16));
        d = round64(d, dc_le_load64(p + i + 24));
    }
    v[0] = a;
    v[1] = b;
    v[2] = c;
    v[3] = d;
    return i;
}

void dc_xxh64_init(dc_xxh64_state *h, uint64_t seed)
{
    memset(h, 0, sizeof *h);
    h->seed = seed;
    h->v[0] = seed + P1 + P2;
    h->v[1] = seed + P2;
    h->v[2] = seed;
    h->v[3] = seed - P1;
}

void dc_xxh64_update(dc_xxh64_state *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->total += n;
    if (h->n_buf > 0) {
        size_t take = 32 - h->n_buf < n ? 32 - h->n_buf : n;
        memcpy(h->buf + h->n_buf, p, take);
        h->n_buf += take;
        p += take;
        n -= take;
        if (h->n_buf < 32)
            return;
        stripes(h->v, h->buf, 32);
        h->n_buf = 0;
    }
    size_t done = stripes(h->v, p, n);
    memcpy(h->buf, p + done, n - done);
    h->n_buf = n - done;
}

uint64_t dc_xxh64_digest(const dc_xxh64_state *h)
{
    uint64_t acc;
    if (h->total >= 32) {
        acc = dc_rotl64(h->v[0], 1) + dc_rotl64(h->v[1], 7) + dc_rotl64(h->v[2], 12) + dc_rotl64(h->v[3], 18);
        for (int k = 0; k < 4; k++)
            acc = merge(acc, h->v[k]);
    } else {
        acc = h->seed + P5;
    }
    acc += h->total;
    const unsigned char *p = h->buf;
    size_t n = h->n_buf;
    for (; n >= 8; p += 8, n -= 8)
        acc = dc_rotl64(acc ^ round64(0, dc_le_load64(p)), 27) * P1 + P4;
    if (n >= 4) {
        acc = dc_rotl64(acc ^ (uint64_t)dc_le_load32(p) * P1, 23) * P2 + P3;
        p += 4;
        n -= 4;
    }
    for (; n > 0; p++, n--)
        acc = dc_rotl64(acc ^ *p * P5, 11) * P1;
    acc ^= acc >> 33;
    acc *= P2;
    acc ^= acc >> 29;
    acc *= P3;
    acc ^= acc >> 32;
    return acc;
}

uint64_t dc_xxh64(const void *data, size_t n, uint64_t seed)
{
    dc_xxh64_state h;
    dc_xxh64_init(&h, seed);
    dc_xxh64_update(&h, data, n);
    return dc_xxh64_digest(&h);
}
