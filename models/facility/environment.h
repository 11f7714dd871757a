/* The site's environment: outdoor temperature, electricity price and carbon intensity over time.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The site's environment: outdoor (ambient) temperature, electricity price
 * and carbon intensity over time.  Absent `environment` section: 15 C all
 * year, no price, no carbon figure.
 *
 * Calendar: the run starts at day start_day_of_year (1 = 1 January, 00:00
 * local time; a fraction is a time of day).  With d(t) = start_day_of_year
 * - 1 + t / 86400 (days since 1 January 00:00) and h(t) = 24 frac(d(t)):
 *
 * Ambient temperature, source "sinusoid" (a seasonal and a daily cosine):
 *   T(t) = mean_c + seasonal_amplitude_c cos(2 pi (d(t) - (warmest_day - 0.5)) / 365.25)
 *                 + daily_amplitude_c   cos(2 pi (h(t) - warmest_hour) / 24)
 *   (amplitudes are half the peak-to-peak swings), or source "csv": a file
 *   with columns time_h (hours from the start of the run, from 0,
 *   increasing) and temp_c, interpolated linearly.
 *
 * Price (USD per kWh), a step function of time:
 *   "flat": usd_per_kwh;
 *   "tou" (time of use): a list of periods of the day, each { from_hour;
 *     usd_per_kwh; } holding until the next period's from_hour (the last
 *     wraps around midnight to the first), every day;
 *   "csv": columns time_h and usd_per_kwh; each row's price holds until the
 *     next row.
 * A file covers up to its last time plus the spacing before it (the last
 * row holds that long: an hourly file of a year, 0 to 8759 h, covers 8760
 * h), and must cover the horizon; a file of one row holds for ever.
 * Carbon intensity (kg CO2 per kWh, optional): "flat" or "csv" (columns
 * time_h and kg_per_kwh), as for the price.
 *
 * The price and the carbon intensity change only at scheduled events (the
 * period boundaries and file rows), where this model publishes the signal
 * "tariff" (payload NULL) and records the series price_usd_per_kwh and
 * carbon_kg_per_kwh; the power model banks cost and carbon there, so both
 * integrate exactly.  The ambient temperature is continuous: the cooling
 * model samples it (dc_environment_ambient_c).
 *
 * File names are relative to the scenario file's directory. */
#ifndef DC_ENVIRONMENT_H
#define DC_ENVIRONMENT_H

#include <stdbool.h>

#include "sim.h"

typedef struct dc_environment dc_environment;

extern const dc_model_type dc_model_environment;
extern const dc_param dc_environment_params[];

/* The environment model of sim (NULL only if it is not registered).  Without
 * an environment section it answers DC_ENVIRONMENT_DEFAULT_AMBIENT_C and no
 * price or carbon. */
dc_environment *dc_environment_of(dc_sim *sim);
#define DC_ENVIRONMENT_DEFAULT_AMBIENT_C 15.0

/* Ambient temperature (C) at time t_s (not const: it remembers the daily
 * cosine by hour of day). */
double dc_environment_ambient_c(dc_environment *env, double t_s);
/* Whether the ambient temperature changes over time. */
bool dc_environment_ambient_varies(const dc_environment *env);
/* Current price (USD/kWh); NaN when no price is given. */
double dc_environment_price(const dc_environment *env);
/* Current carbon intensity (kg CO2/kWh); NaN when none is given. */
double dc_environment_carbon(const dc_environment *env);

#endif
