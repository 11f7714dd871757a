/* Temperature-accelerated failures: the Arrhenius or doubling factor from the inlet temperature.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "thermal_aging.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cfgget.h"

const dc_param dc_thermal_aging_params[] = {
    {"cooling.acceleration", DC_PARAM_STRING, 0, "", 0, "none", 0, 0, "none|arrhenius|doubling",
     "how the inlet temperature speeds up failure classes marked thermal (failures.[].thermal)"},
    {"cooling.activation_ev", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "eV", 0.7, NULL, 0, 5, NULL,
     "Arrhenius activation energy (JEDEC JEP122 default 0.7 eV)"},
    {"cooling.reference_c", DC_PARAM_FLOAT, 0, "C", 25, NULL, -50, 150, NULL,
     "inlet temperature at which the failure classes' configured rates hold"},
    {"failures.[].thermal", DC_PARAM_BOOL, 0, "", 0, NULL, 0, 0, NULL,
     "the class's rate follows the inlet temperature (cooling.acceleration)"},
    {0},
};

double dc_thermal_af_arrhenius(double activation_ev, double temp_c, double reference_c)
{
    double t = temp_c + 273.15, t_ref = reference_c + 273.15;
    return exp(activation_ev / DC_BOLTZMANN_EV_K * (1.0 / t_ref - 1.0 / t));
}

double dc_thermal_af_doubling(double temp_c, double reference_c)
{
    return exp2((temp_c - reference_c) / 10.0);
}

int dc_thermal_aging_read(dc_thermal_aging *a, const dc_scenario *sc, dc_error *err)
{
    memset(a, 0, sizeof *a);
    a->af = 1.0;
    config_setting_t *g = dc_scenario_lookup(sc, "cooling");
    const char *law = "none";
    if (g)
        dc_cfg_lookup_string(g, "acceleration", &law);
    a->law = strcmp(law, "arrhenius") == 0 ? DC_THERMAL_ARRHENIUS
             : strcmp(law, "doubling") == 0 ? DC_THERMAL_DOUBLING
                                             : DC_THERMAL_NONE;
    if (a->law == DC_THERMAL_NONE)
        return DC_OK;
    dc_cfg_lookup_float(g, "activation_ev", &a->activation_ev);
    dc_cfg_lookup_float(g, "reference_c", &a->reference_c);
    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    int n = list ? config_setting_length(list) : 0;
    a->classes = calloc(n > 0 ? (size_t)n : 1, sizeof *a->classes);
    if (!a->classes)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (int i = 0; i < n; i++) {
        int thermal = 0;
        dc_cfg_lookup_bool(config_setting_get_elem(list, (unsigned)i), "thermal", &thermal);
        if (thermal)
            a->classes[a->n_classes++] = i;
    }
    if (a->n_classes == 0)
        return dc_scenario_error_at(sc, dc_cfg_member(g, "acceleration"), err,
                                    "no failure class is marked thermal (failures.[].thermal = true)");
    return DC_OK;
}

void dc_thermal_aging_free(dc_thermal_aging *a)
{
    free(a->classes);
    a->classes = NULL;
}

void dc_thermal_aging_update(dc_thermal_aging *a, dc_cluster *c, double temp_c, double now_s)
{
    if (a->law == DC_THERMAL_NONE)
        return;
    double af = a->law == DC_THERMAL_ARRHENIUS ? dc_thermal_af_arrhenius(a->activation_ev, temp_c, a->reference_c)
                                               : dc_thermal_af_doubling(temp_c, a->reference_c);
    if (fabs(af - a->af) <= 1e-3 * a->af && a->last_s > 0.0)
        return;
    a->af_integral_s += a->af * (now_s - a->last_s);
    a->last_s = now_s;
    a->af = af;
    for (size_t i = 0; i < a->n_classes; i++)
        dc_cluster_set_failure_acceleration(c, a->classes[i], af);
}

double dc_thermal_aging_mean(const dc_thermal_aging *a, double now_s)
{
    double total = a->af_integral_s + a->af * (now_s - a->last_s);
    return now_s > 0.0 ? total / now_s : a->af;
}
