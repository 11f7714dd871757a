/* Named random streams, each seeded from the scenario seed and its name.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "rng.h"

#include <stdlib.h>

#include "mt_lazy.h"

uint64_t dc_rng_splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

uint64_t dc_rng_name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 0x100000001b3ULL;
    }
    return h;
}

uint64_t dc_rng_seed_for(uint64_t seed, const char *stream_name)
{
    return dc_rng_splitmix64(dc_rng_splitmix64(seed) ^ dc_rng_name_hash(stream_name));
}

gsl_rng *dc_rng_create(uint64_t seed, const char *stream_name)
{
    /* What gsl_rng_alloc does, without its seeding with the default seed
     * and without zeroing the state first (gsl_rng_set writes what is
     * read).  The generator is gsl_rng_mt19937's, seeded and twisted as far
     * as the draws need (sim/mt_lazy.h): many streams draw a few numbers or
     * none.  gsl_rng_free frees both blocks. */
    const gsl_rng_type *type = dc_rng_mt19937_lazy;
    gsl_rng *r = malloc(sizeof *r);
    if (!r)
        return NULL;
    r->type = type;
    r->state = malloc(type->size);
    if (!r->state) {
        free(r);
        return NULL;
    }
    uint64_t h = dc_rng_seed_for(seed, stream_name);
    unsigned long s32 = (unsigned long)((h >> 32) ^ (h & 0xffffffffULL));
    /* mt19937 treats seed 0 as its default 4357; keep distinct seeds distinct. */
    gsl_rng_set(r, s32 ? s32 : 0x9e3779b9UL);
    return r;
}
