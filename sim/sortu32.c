/* 32-bit unsigned integers in increasing order: insertion sort when few, a radix sort beyond.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "sortu32.h"

#include <string.h>

void dc_sort_u32(uint32_t *v, uint32_t *tmp, uint32_t n)
{
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++) {
            uint32_t x = v[i], j = i;
            for (; j > 0 && v[j - 1] > x; j--)
                v[j] = v[j - 1];
            v[j] = x;
        }
        return;
    }
    uint32_t any = 0;
    for (uint32_t i = 0; i < n; i++)
        any |= v[i];
    uint32_t *in = v, *out = tmp;
    for (int sh = 0; sh < 32 && (any >> sh) != 0; sh += 8) {
        uint32_t at[256] = {0};
        for (uint32_t i = 0; i < n; i++)
            at[(in[i] >> sh) & 0xffu]++;
        for (uint32_t d = 0, sum = 0; d < 256; d++) {
            uint32_t c = at[d];
            at[d] = sum;
            sum += c;
        }
        for (uint32_t i = 0; i < n; i++)
            out[at[(in[i] >> sh) & 0xffu]++] = in[i];
        uint32_t *t = in;
        in = out;
        out = t;
    }
    if (in != v)
        memcpy(v, in, (size_t)n * sizeof *v);
}
