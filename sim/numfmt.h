/* Numbers as text in their shortest round-trip form, for JSON, CSV export and dcsim run --get.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* dc_format_shortest writes v with the fewest significant digits (15, 16
 * or 17) that strtod reads back as the same double: 0.1 is "0.1", not
 * "0.10000000000000001" (subnormal numbers, which carry fewer digits,
 * get at least 15).  Integral values below 1e17 in magnitude are
 * written whole, without exponent ("300", "27300303", "-0" as "0");
 * others as printf's %g gives them (1e-05, 1.5e+20).  NaN is "nan", the
 * infinities "inf" and "-inf" (callers that need another word test
 * isfinite first).  Needs size >= 32; returns the length written. */
#ifndef DC_NUMFMT_H
#define DC_NUMFMT_H

#include <stddef.h>

#define DC_NUMFMT_SIZE 32

int dc_format_shortest(double v, char *buf, size_t size);

#endif
