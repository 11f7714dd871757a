/* Schema rows for a time law under a path prefix, shared by failure classes and repair laws.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Schema rows for a time law (see dist.h) under a path prefix, shared by the
 * failure classes, their repair laws and the repair default. */
#ifndef DC_LAW_PARAMS_H
#define DC_LAW_PARAMS_H

#include <float.h>

#define DC_LAW_CHOICES "exponential|weibull|lognormal|gamma|constant"

#define DC_LAW_PARAMS(prefix, default_law, what)                                                   \
    {prefix ".law", DC_PARAM_STRING, 0, "", 0, default_law, 0, 0, DC_LAW_CHOICES,                  \
     "probability law of the " what},                                                              \
    {prefix ".mean_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL, \
     0, 1e12, NULL, "mean " what " (any law)"},                                                    \
    {prefix ".median_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0,     \
     NULL, 0, 1e12, NULL, "median " what " (lognormal, instead of mean_h)"},                       \
    {prefix ".scale_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0,      \
     NULL, 0, 1e12, NULL, "Weibull scale (instead of mean_h)"},                                    \
    {prefix ".shape", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL,   \
     0, 100, NULL, "Weibull or gamma shape (Weibull < 1: infant mortality, > 1: wear-out)"},       \
    {prefix ".sigma", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "", 0, NULL,   \
     0, 10, NULL, "lognormal sigma (of the natural log)"}

#endif
