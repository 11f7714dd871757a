/* Little-endian loads and a 64-bit rotation, for the hashes (xxh64.c, xxh3.c): the same bytes give the same words on any host.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#ifndef DC_LE_LOAD_H
#define DC_LE_LOAD_H

#include <stdint.h>
#include <string.h>

static inline uint64_t dc_le_load64(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap64(v);
#endif
    return v;
}

static inline uint32_t dc_le_load32(const unsigned char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    v = __builtin_bswap32(v);
#endif
    return v;
}

static inline uint64_t dc_rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

#endif
