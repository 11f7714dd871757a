/* Numbers as text in their shortest round-trip form, for JSON, CSV export and dcsim run --get.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "numfmt.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Integers by hand: the common case of counts and whole seconds, and much
 * faster than snprintf. */
static int format_integer(int64_t n, char *buf)
{
    char tmp[24];
    int len = 0;
    uint64_t u = n < 0 ? (uint64_t)0 - (uint64_t)n : (uint64_t)n;
    do {
        tmp[len++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    int out = 0;
    if (n < 0)
        buf[out++] = '-';
    while (len)
        buf[out++] = tmp[--len];
    buf[out] = '\0';
    return out;
}

int dc_format_shortest(double v, char *buf, size_t size)
{
    if (size < DC_NUMFMT_SIZE) {
        if (size)
            buf[0] = '\0';
        return 0;
    }
    if (isnan(v))
        return snprintf(buf, size, "nan");
    if (isinf(v))
        return snprintf(buf, size, v > 0 ? "inf" : "-inf");
    if (v == 0.0)
        return snprintf(buf, size, "0");
    if (fabs(v) < 1e17 && v == trunc(v))
        return format_integer((int64_t)v, buf);
    /* If k <= 15 digits read back as v, %.15g (which drops trailing zeros)
     * gives those digits; else 16, else 17, which always round-trips. */
    for (int digits = 15; digits < 17; digits++) {
        int len = snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            return len;
    }
    return snprintf(buf, size, "%.17g", v);
}
