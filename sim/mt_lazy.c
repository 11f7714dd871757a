/* GSL's mt19937 generator, its seed state and first block computed only as far as the draws need.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The same numbers as GSL's gsl_rng_mt19937 (Matsumoto and Nishimura 1998,
 * with GSL's seeding: Knuth's multiplier 1812433253, seed 0 taken as 4357),
 * in the same order, for every seed (tests/test_core checks it bit for bit).
 *
 * Why: a run creates some 80 named streams (sim/rng.h), and GSL's seeding
 * computes all 624 words of the state (about 5,600 instructions) and the
 * first draw twists all 624 (about 8,700), whereas many streams draw a few
 * numbers or none.  The twist is in place and sequential: word k of the
 * new block needs words k and k + 1 of the old state and word k + 397
 * (old for k < 227, new after).  So the first block is generated CHUNK
 * words at a time, the seed state computed ahead only to word
 * min(k + 398, 624); once the first block is complete the seed state is
 * too, and the later blocks are twisted whole, as GSL does. */
#include "mt_lazy.h"

#include <stdint.h>

enum { N = 624, M = 397, CHUNK = 16 };

#define UPPER_MASK 0x80000000UL
#define LOWER_MASK 0x7fffffffUL
#define MAGIC(y) (((y) & 0x1) ? 0x9908b0dfUL : 0)

typedef struct lazy_mt {
    uint32_t mt[N];
    int mti;    /* the next word of the block to return */
    int ready;  /* the words of the block generated */
    int seeded; /* the words of the seed state computed (N once the first block is done) */
} lazy_mt;

static void seed_to(lazy_mt *s, int n)
{
    for (int i = s->seeded; i < n; i++)
        s->mt[i] = 1812433253U * (s->mt[i - 1] ^ (s->mt[i - 1] >> 30)) + (uint32_t)i;
    if (n > s->seeded)
        s->seeded = n;
}

/* New words lo .. hi - 1 in place (the words below lo already new). */
static void twist(lazy_mt *s, int lo, int hi)
{
    uint32_t *mt = s->mt;
    int kk = lo;
    for (; kk < hi && kk < N - M; kk++) {
        uint32_t y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ MAGIC(y);
    }
    for (; kk < hi && kk < N - 1; kk++) {
        uint32_t y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ MAGIC(y);
    }
    if (kk < hi) {
        uint32_t y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ MAGIC(y);
    }
}

static void refill(lazy_mt *s)
{
    if (s->ready == N) { /* a later block: the whole state is there */
        twist(s, 0, N);
        s->mti = 0;
        return;
    }
    int to = s->ready + CHUNK < N ? s->ready + CHUNK : N;
    seed_to(s, to + M < N ? to + M + 1 : N);
    twist(s, s->ready, to);
    s->ready = to;
}

static unsigned long lazy_get(void *vstate)
{
    lazy_mt *s = vstate;
    if (s->mti == s->ready)
        refill(s);
    uint32_t k = s->mt[s->mti++];
    k ^= k >> 11;
    k ^= (k << 7) & 0x9d2c5680U;
    k ^= (k << 15) & 0xefc60000U;
    k ^= k >> 18;
    return k;
}

static double lazy_get_double(void *vstate)
{
    return (double)lazy_get(vstate) / 4294967296.0;
}

static void lazy_set(void *vstate, unsigned long seed)
{
    lazy_mt *s = vstate;
    if (seed == 0)
        seed = 4357;
    s->mt[0] = (uint32_t)(seed & 0xffffffffUL);
    s->seeded = 1;
    s->ready = 0;
    s->mti = 0;
}

static const gsl_rng_type lazy_type = {
    "mt19937", 0xffffffffUL, 0, sizeof(lazy_mt), lazy_set, lazy_get, lazy_get_double,
};

const gsl_rng_type *const dc_rng_mt19937_lazy = &lazy_type;
