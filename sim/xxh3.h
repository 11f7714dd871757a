/* XXH3-64, the 64-bit XXH3 hash of xxHash (seed 0, its default secret), in one call or in pieces.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* XXH3_64bits as specified by xxHash 0.8 (doc/xxhash_spec.md, "XXH3"), seed
 * 0 and the default 192-byte secret:
 * - up to 240 bytes: the spec's short and mid-size paths (mixes of 16-byte
 *   pieces with the secret, an avalanche);
 * - longer: eight 64-bit accumulators take 64-byte stripes, lane i of a
 *   stripe as
 *     acc[i ^ 1] += word_i,  acc[i] += lo32(word_i ^ key_i) * hi32(word_i ^ key_i),
 *   the key moving 8 bytes along the secret per stripe; after 16 stripes
 *   (a 1,024-byte block) the accumulators are scrambled
 *   (acc = (acc ^ acc >> 47 ^ secret[128..]) * PRIME32_1); the stripes are
 *   all those ending before the last byte, then the last 64 bytes as a
 *   stripe with the key at secret[121..]; the accumulators merge into
 *   total_length * PRIME64_1 through mul128-folds and an avalanche.
 * The stripes are computed with SSE2 (every x86-64), AVX2 where the CPU has
 * it (chosen at dc_xxh3_init), or plain C elsewhere: the same digests.
 * About 0.25 instructions per byte with AVX2 and 0.6 with SSE2, against
 * XXH64's 0.9 (sim/xxh64.h), and faster per byte too: it checks the
 * traces and sweep files dcsim writes (sim/h5image.h).  Any XXH3
 * implementation gives the same digests (python3: xxhash.xxh3_64(data));
 * reference values: "" -> 2d06800538d394c2, "abc" -> 78af5f94892f3950. */
#ifndef DC_XXH3_H
#define DC_XXH3_H

#include <stddef.h>
#include <stdint.h>

/* The state of a digest fed in pieces (any sizes).  impl: the stripes'
 * code (0 plain C, 1 SSE2, 2 AVX2), set by dc_xxh3_init to the best the
 * machine has; a test may lower it after init. */
typedef struct dc_xxh3 {
    uint64_t acc[8];
    uint64_t total;
    size_t stripe;            /* stripes consumed in the current block, 0..15 */
    unsigned char buf[256];   /* bytes not consumed yet (all of them while total <= 256) */
    size_t n_buf;
    unsigned char last[64];   /* the last 64 bytes consumed (for the final stripe) */
    int impl;
} dc_xxh3_state;

void dc_xxh3_init(dc_xxh3_state *h);
void dc_xxh3_update(dc_xxh3_state *h, const void *data, size_t n);
uint64_t dc_xxh3_digest(const dc_xxh3_state *h);
/* The digest of n bytes in one call. */
uint64_t dc_xxh3(const void *data, size_t n);

#endif
