/* GSL's mt19937, seeded and twisted only as far as the draws need (sim/mt_lazy.c).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#ifndef DC_MT_LAZY_H
#define DC_MT_LAZY_H

#include <gsl/gsl_rng.h>

/* A gsl_rng_type giving, seed for seed, the numbers of gsl_rng_mt19937. */
extern const gsl_rng_type *const dc_rng_mt19937_lazy;

#endif
