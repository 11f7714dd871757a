/* Named random streams: one per purpose, seeded from (seed, name).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Named random streams.
 *
 * Each purpose (failures of one component class, repairs, arrivals...) draws
 * from its own GSL generator, seeded from (scenario seed, stream name), so
 * that adding a model or a class does not shift another's random numbers, and
 * two scenarios run with the same seed see the same history wherever they
 * share a stream name (common random numbers).
 *
 * seed_for = splitmix64(splitmix64(seed) XOR fnv1a64(name)); the generator is GSL's
 * mt19937, which takes 32 bits of seed, so the 64-bit hash is folded to 32
 * bits (high XOR low).  Two streams of one run collide with probability about
 * k^2 / 2^33 for k streams: negligible for the tens of streams a run uses. */
#ifndef DC_RNG_H
#define DC_RNG_H

#include <stdint.h>

#include <gsl/gsl_rng.h>

uint64_t dc_rng_seed_for(uint64_t seed, const char *stream_name);
/* fnv1a64 of the name (the part of seed_for that depends on it alone). */
uint64_t dc_rng_name_hash(const char *stream_name);
/* NULL when out of memory. */
gsl_rng *dc_rng_create(uint64_t seed, const char *stream_name);

/* splitmix64 step (Steele, Lea, Flood 2014), exposed for seeding and tests. */
uint64_t dc_rng_splitmix64(uint64_t x);

#endif
