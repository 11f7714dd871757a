/* XXH3-64 (sim/xxh3.h): the short paths, the stripes in plain C, SSE2 or AVX2, the streaming state.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "xxh3.h"
#include "le_load.h"

#include <stdbool.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define DC_XXH3_X86 1
#include <immintrin.h>
#endif

#define P32_1 0x9E3779B1U
#define P32_2 0x85EBCA77U
#define P32_3 0xC2B2AE3DU
#define P64_1 0x9E3779B185EBCA87ULL
#define P64_2 0xC2B2AE3D27D4EB4FULL
#define P64_3 0x165667B19E3779F9ULL
#define P64_4 0x85EBCA77C2B2AE63ULL
#define P64_5 0x27D4EB2F165667C5ULL
#define MX1 0x165667919E3779F9ULL
#define MX2 0x9FB21C651E98DF25ULL

#define STRIPE 64
#define BLOCK_STRIPES 16                    /* (secret size - 64) / 8 */
#define SCRAMBLE_AT 128                     /* secret size - 64 */
#define LAST_AT (SCRAMBLE_AT - 7)

/* The default secret (xxHash's kSecret). */
static const unsigned char secret[192] = {
    0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
    0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
    0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
    0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
    0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
    0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
    0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
    0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
    0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
    0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
    0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
};

/* The 128-bit product's halves xor'ed. */
static uint64_t fold128(uint64_t a, uint64_t b)
{
#ifdef __SIZEOF_INT128__
    unsigned __int128 p = (unsigned __int128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
#else
    uint64_t lo_lo = (a & 0xFFFFFFFFULL) * (b & 0xFFFFFFFFULL), hi_lo = (a >> 32) * (b & 0xFFFFFFFFULL);
    uint64_t lo_hi = (a & 0xFFFFFFFFULL) * (b >> 32), hi_hi = (a >> 32) * (b >> 32);
    uint64_t cross = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFULL) + lo_hi;
    uint64_t hi = (hi_lo >> 32) + (cross >> 32) + hi_hi, lo = (cross << 32) | (lo_lo & 0xFFFFFFFFULL);
    return lo ^ hi;
#endif
}

static uint64_t avalanche64(uint64_t h) /* XXH64's */
{
    h ^= h >> 33;
    h *= P64_2;
    h ^= h >> 29;
    h *= P64_3;
    return h ^ (h >> 32);
}

static uint64_t avalanche3(uint64_t h)
{
    h ^= h >> 37;
    h *= MX1;
    return h ^ (h >> 32);
}

static uint64_t mix16(const unsigned char *in, const unsigned char *key)
{
    return fold128(dc_le_load64(in) ^ dc_le_load64(key), dc_le_load64(in + 8) ^ dc_le_load64(key + 8));
}

/* ---- up to 240 bytes ---- */

static uint64_t len_0to16(const unsigned char *in, size_t n)
{
    if (n > 8) {
        uint64_t lo = dc_le_load64(in) ^ (dc_le_load64(secret + 24) ^ dc_le_load64(secret + 32));
        uint64_t hi = dc_le_load64(in + n - 8) ^ (dc_le_load64(secret + 40) ^ dc_le_load64(secret + 48));
        return avalanche3(n + __builtin_bswap64(lo) + hi + fold128(lo, hi));
    }
    if (n >= 4) {
        uint64_t in64 = dc_le_load32(in + n - 4) + ((uint64_t)dc_le_load32(in) << 32);
        uint64_t h = in64 ^ (dc_le_load64(secret + 8) ^ dc_le_load64(secret + 16));
        h ^= dc_rotl64(h, 49) ^ dc_rotl64(h, 24);
        h *= MX2;
        h ^= (h >> 35) + n;
        h *= MX2;
        return h ^ (h >> 28);
    }
    if (n > 0) {
        uint32_t c = ((uint32_t)in[0] << 16) | ((uint32_t)in[n >> 1] << 24) | in[n - 1] | ((uint32_t)n << 8);
        return avalanche64((uint64_t)c ^ (dc_le_load32(secret) ^ dc_le_load32(secret + 4)));
    }
    return avalanche64(dc_le_load64(secret + 56) ^ dc_le_load64(secret + 64));
}

static uint64_t len_17to128(const unsigned char *in, size_t n)
{
    uint64_t acc = n * P64_1;
    if (n > 32) {
        if (n > 64) {
            if (n > 96) {
                acc += mix16(in + 48, secret + 96);
                acc += mix16(in + n - 64, secret + 112);
            }
            acc += mix16(in + 32, secret + 64);
            acc += mix16(in + n - 48, secret + 80);
        }
        acc += mix16(in + 16, secret + 32);
        acc += mix16(in + n - 32, secret + 48);
    }
    acc += mix16(in, secret);
    acc += mix16(in + n - 16, secret + 16);
    return avalanche3(acc);
}

static uint64_t len_129to240(const unsigned char *in, size_t n)
{
    uint64_t acc = n * P64_1;
    for (size_t i = 0; i < 8; i++)
        acc += mix16(in + 16 * i, secret + 16 * i);
    acc = avalanche3(acc);
    uint64_t end = mix16(in + n - 16, secret + 136 - 17);
    for (size_t i = 8; i < n / 16; i++)
        end += mix16(in + 16 * i, secret + 16 * (i - 8) + 3);
    return avalanche3(acc + end);
}

static uint64_t short_hash(const unsigned char *in, size_t n)
{
    return n <= 16 ? len_0to16(in, n) : n <= 128 ? len_17to128(in, n) : len_129to240(in, n);
}

/* ---- stripes ---- */

/* n stripes of in, the key of the first at k (each next 8 bytes on), then
 * the scramble if the block ends there. */
static void stripes_c(uint64_t *acc, const unsigned char *in, size_t n, const unsigned char *k, bool scramble)
{
    for (size_t s = 0; s < n; s++, in += STRIPE, k += 8)
        for (size_t i = 0; i < 8; i++) {
            uint64_t w = dc_le_load64(in + 8 * i), dk = w ^ dc_le_load64(k + 8 * i);
            acc[i ^ 1] += w;
            acc[i] += (dk & 0xFFFFFFFFULL) * (dk >> 32);
        }
    for (size_t i = 0; scramble && i < 8; i++) {
        uint64_t a = acc[i];
        a ^= a >> 47;
        a ^= dc_le_load64(secret + SCRAMBLE_AT + 8 * i);
        acc[i] = a * P32_1;
    }
}

#ifdef DC_XXH3_X86
static void stripes_sse2(uint64_t *acc, const unsigned char *in, size_t n, const unsigned char *k, bool scramble)
{
    __m128i a[4];
    for (int i = 0; i < 4; i++)
        a[i] = _mm_loadu_si128((const __m128i *)(const void *)(acc + 2 * i));
    for (size_t s = 0; s < n; s++, in += STRIPE, k += 8)
        for (int i = 0; i < 4; i++) {
            __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(in + 16 * i));
            __m128i dk = _mm_xor_si128(w, _mm_loadu_si128((const __m128i *)(const void *)(k + 16 * i)));
            __m128i prod = _mm_mul_epu32(dk, _mm_shuffle_epi32(dk, _MM_SHUFFLE(0, 3, 0, 1)));
            a[i] = _mm_add_epi64(a[i], _mm_add_epi64(prod, _mm_shuffle_epi32(w, _MM_SHUFFLE(1, 0, 3, 2))));
        }
    for (int i = 0; scramble && i < 4; i++) { /* (a * P32_1 as two 32 x 32-bit products) */
        __m128i p = _mm_set1_epi32((int)P32_1);
        __m128i x = _mm_xor_si128(_mm_xor_si128(a[i], _mm_srli_epi64(a[i], 47)),
                                  _mm_loadu_si128((const __m128i *)(const void *)(secret + SCRAMBLE_AT + 16 * i)));
        __m128i hi = _mm_mul_epu32(_mm_shuffle_epi32(x, _MM_SHUFFLE(0, 3, 0, 1)), p);
        a[i] = _mm_add_epi64(_mm_mul_epu32(x, p), _mm_slli_epi64(hi, 32));
    }
    for (int i = 0; i < 4; i++)
        _mm_storeu_si128((__m128i *)(void *)(acc + 2 * i), a[i]);
}

__attribute__((target("avx2"))) static void stripes_avx2(uint64_t *acc, const unsigned char *in, size_t n,
                                                         const unsigned char *k, bool scramble)
{
    __m256i a0 = _mm256_loadu_si256((const __m256i *)(const void *)acc);
    __m256i a1 = _mm256_loadu_si256((const __m256i *)(const void *)(acc + 4));
    for (size_t s = 0; s < n; s++, in += STRIPE, k += 8) {
        __m256i w0 = _mm256_loadu_si256((const __m256i *)(const void *)in);
        __m256i w1 = _mm256_loadu_si256((const __m256i *)(const void *)(in + 32));
        __m256i d0 = _mm256_xor_si256(w0, _mm256_loadu_si256((const __m256i *)(const void *)k));
        __m256i d1 = _mm256_xor_si256(w1, _mm256_loadu_si256((const __m256i *)(const void *)(k + 32)));
        __m256i p0 = _mm256_mul_epu32(d0, _mm256_shuffle_epi32(d0, _MM_SHUFFLE(0, 3, 0, 1)));
        __m256i p1 = _mm256_mul_epu32(d1, _mm256_shuffle_epi32(d1, _MM_SHUFFLE(0, 3, 0, 1)));
        a0 = _mm256_add_epi64(a0, _mm256_add_epi64(p0, _mm256_shuffle_epi32(w0, _MM_SHUFFLE(1, 0, 3, 2))));
        a1 = _mm256_add_epi64(a1, _mm256_add_epi64(p1, _mm256_shuffle_epi32(w1, _MM_SHUFFLE(1, 0, 3, 2))));
    }
    if (scramble) {
        __m256i p = _mm256_set1_epi32((int)P32_1);
        __m256i x0 = _mm256_xor_si256(_mm256_xor_si256(a0, _mm256_srli_epi64(a0, 47)),
                                      _mm256_loadu_si256((const __m256i *)(const void *)(secret + SCRAMBLE_AT)));
        __m256i x1 = _mm256_xor_si256(_mm256_xor_si256(a1, _mm256_srli_epi64(a1, 47)),
                                      _mm256_loadu_si256((const __m256i *)(const void *)(secret + SCRAMBLE_AT + 32)));
        a0 = _mm256_add_epi64(_mm256_mul_epu32(x0, p),
                              _mm256_slli_epi64(_mm256_mul_epu32(_mm256_shuffle_epi32(x0, _MM_SHUFFLE(0, 3, 0, 1)), p), 32));
        a1 = _mm256_add_epi64(_mm256_mul_epu32(x1, p),
                              _mm256_slli_epi64(_mm256_mul_epu32(_mm256_shuffle_epi32(x1, _MM_SHUFFLE(0, 3, 0, 1)), p), 32));
    }
    _mm256_storeu_si256((__m256i *)(void *)acc, a0);
    _mm256_storeu_si256((__m256i *)(void *)(acc + 4), a1);
}
#endif

static void stripes(int impl, uint64_t *acc, const unsigned char *in, size_t n, const unsigned char *k, bool scramble)
{
#ifdef DC_XXH3_X86
    if (impl == 2) {
        stripes_avx2(acc, in, n, k, scramble);
        return;
    }
    if (impl == 1) {
        stripes_sse2(acc, in, n, k, scramble);
        return;
    }
#endif
    stripes_c(acc, in, n, k, scramble);
}

/* n stripes of in consumed: the blocks' keys and scrambles. */
static void consume(dc_xxh3_state *h, const unsigned char *in, size_t n)
{
    while (n > 0) {
        size_t take = BLOCK_STRIPES - h->stripe < n ? BLOCK_STRIPES - h->stripe : n;
        bool ends = h->stripe + take == BLOCK_STRIPES;
        stripes(h->impl, h->acc, in, take, secret + 8 * h->stripe, ends);
        h->stripe = ends ? 0 : h->stripe + take;
        in += take * STRIPE;
        n -= take;
    }
}

void dc_xxh3_init(dc_xxh3_state *h)
{
    static const uint64_t init[8] = {P32_3, P64_1, P64_2, P64_3, P64_4, P32_2, P64_5, P32_1};
    memset(h, 0, sizeof *h);
    memcpy(h->acc, init, sizeof init);
#ifdef DC_XXH3_X86
    h->impl = __builtin_cpu_supports("avx2") ? 2 : 1;
#endif
}

/* Bytes are consumed as stripes only when more follow (the last stripe
 * is the input's last 64 bytes, keyed apart), and none while the input
 * fits the buffer (an input of up to 240 bytes is hashed whole). */
void dc_xxh3_update(dc_xxh3_state *h, const void *data, size_t n)
{
    const unsigned char *p = data;
    h->total += n;
    if (n <= sizeof h->buf - h->n_buf) {
        memcpy(h->buf + h->n_buf, p, n);
        h->n_buf += n;
        return;
    }
    if (h->n_buf > 0) { /* the buffer filled and consumed: bytes follow it */
        size_t take = sizeof h->buf - h->n_buf;
        memcpy(h->buf + h->n_buf, p, take);
        p += take;
        n -= take;
        consume(h, h->buf, sizeof h->buf / STRIPE);
        memcpy(h->last, h->buf + sizeof h->buf - STRIPE, STRIPE);
        h->n_buf = 0;
    }
    if (n > sizeof h->buf) { /* the stripes of the input itself, but for its last 1..256 bytes */
        size_t k = (n - 1) / STRIPE - (sizeof h->buf / STRIPE - 1);
        consume(h, p, k);
        memcpy(h->last, p + k * STRIPE - STRIPE, STRIPE);
        p += k * STRIPE;
        n -= k * STRIPE;
    }
    memcpy(h->buf, p, n);
    h->n_buf = n;
}

uint64_t dc_xxh3_digest(const dc_xxh3_state *h)
{
    if (h->total <= 240)
        return short_hash(h->buf, (size_t)h->total);
    dc_xxh3_state t = *h; /* the state stays as it was */
    unsigned char last[STRIPE];
    if (t.n_buf > STRIPE) {
        size_t k = (t.n_buf - 1) / STRIPE;
        consume(&t, t.buf, k);
    }
    if (t.n_buf >= STRIPE) {
        memcpy(last, t.buf + t.n_buf - STRIPE, STRIPE);
    } else { /* the end of the bytes consumed, then those buffered */
        memcpy(last, t.last + t.n_buf, STRIPE - t.n_buf);
        memcpy(last + STRIPE - t.n_buf, t.buf, t.n_buf);
    }
    stripes(0, t.acc, last, 1, secret + LAST_AT, false);
    uint64_t r = t.total * P64_1;
    for (size_t i = 0; i < 4; i++)
        r += fold128(t.acc[2 * i] ^ dc_le_load64(secret + 11 + 16 * i), t.acc[2 * i + 1] ^ dc_le_load64(secret + 11 + 16 * i + 8));
    return avalanche3(r);
}

uint64_t dc_xxh3(const void *data, size_t n)
{
    dc_xxh3_state h;
    dc_xxh3_init(&h);
    dc_xxh3_update(&h, data, n);
    return dc_xxh3_digest(&h);
}
