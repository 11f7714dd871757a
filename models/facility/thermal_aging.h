/* Temperature-accelerated failures: the cooling model's inlet temperature speeds up thermal failure
 * classes.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Temperature-accelerated failures: the cooling model's inlet temperature
 * speeds up the failure classes marked thermal (failures.[].thermal = true).
 *
 *   Arrhenius   AF = exp( (Ea / k) (1/T_ref - 1/T) ),  T in kelvin,
 *               k = 8.617333e-5 eV/K, Ea the activation energy (0.7 eV is
 *               the JEDEC JEP122 default for unspecified silicon mechanisms)
 *   doubling    AF = 2^((T - T_ref) / 10 C)  (the rule of thumb that failure
 *               rates double every 10 C)
 * T is the inlet temperature (components run a fixed rise above it, so the
 * difference T - T_ref is what matters); at T_ref the configured rates hold.
 * The factor goes to the failure model through the cluster
 * (dc_cluster_set_failure_acceleration), which ages the class's units AF
 * times faster.  It is updated whenever the cooling model moves the inlet
 * temperature, and only when it changes by more than 0.1%. */
#ifndef DC_THERMAL_AGING_H
#define DC_THERMAL_AGING_H

#include <stddef.h>

#include "cluster.h"
#include "scenario.h"

#define DC_BOLTZMANN_EV_K 8.617333262e-5

double dc_thermal_af_arrhenius(double activation_ev, double temp_c, double reference_c);
double dc_thermal_af_doubling(double temp_c, double reference_c);

typedef enum dc_thermal_law { DC_THERMAL_NONE, DC_THERMAL_ARRHENIUS, DC_THERMAL_DOUBLING } dc_thermal_law;

typedef struct dc_thermal_aging {
    dc_thermal_law law;
    double activation_ev, reference_c;
    int *classes; /* failure class ids marked thermal */
    size_t n_classes;
    double af;    /* factor in force */
    double last_s, af_integral_s;
} dc_thermal_aging;

/* Schema rows of the cooling group's keys ({0}-terminated). */
extern const dc_param dc_thermal_aging_params[];

/* Reads cooling.acceleration, cooling.activation_ev, cooling.reference_c
 * and the thermal classes.  DC_OK with law NONE when off. */
int dc_thermal_aging_read(dc_thermal_aging *a, const dc_scenario *sc, dc_error *err);
void dc_thermal_aging_free(dc_thermal_aging *a);
/* The inlet is at temp_c from now_s on. */
void dc_thermal_aging_update(dc_thermal_aging *a, dc_cluster *c, double temp_c, double now_s);
/* Time-averaged factor up to now_s. */
double dc_thermal_aging_mean(const dc_thermal_aging *a, double now_s);

#endif
