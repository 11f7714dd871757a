/* A radiator in space: Stefan-Boltzmann emission, its steady state and transient.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "radiator.h"

#include <math.h>

#include "orbit.h"

static double emit_area(const dc_radiator *r)
{
    return r->area_m2 * r->sides;
}

double dc_radiator_absorbed_w(const dc_radiator *r, bool sunlit)
{
    double earth = r->area_m2 * r->earth_view_factor * r->earth_faces; /* A F_e n_e */
    double ir = r->ir_absorptivity * r->earth_ir_w_m2 * earth;
    if (!sunlit)
        return ir;
    double sun = r->absorptivity * r->solar_w_m2 * r->area_m2 * r->sun_fraction;
    double albedo = r->absorptivity * r->albedo * r->solar_w_m2 * earth;
    return ir + sun + albedo;
}

double dc_radiator_emitted_w(const dc_radiator *r, double temp_k)
{
    double t2 = temp_k * temp_k, s2 = r->sink_k * r->sink_k;
    return r->emissivity * DC_STEFAN_BOLTZMANN * emit_area(r) * (t2 * t2 - s2 * s2);
}

double dc_radiator_steady_temp_k(const dc_radiator *r, double heat_w, bool sunlit)
{
    double s2 = r->sink_k * r->sink_k;
    double q = heat_w + dc_radiator_absorbed_w(r, sunlit);
    return pow(s2 * s2 + q / (r->emissivity * DC_STEFAN_BOLTZMANN * emit_area(r)), 0.25);
}

double dc_radiator_time_constant_s(const dc_radiator *r, double temp_k)
{
    return r->heat_capacity_j_k / (4.0 * r->emissivity * DC_STEFAN_BOLTZMANN * emit_area(r) * pow(temp_k, 3.0));
}

double dc_radiator_capacity_w(const dc_radiator *r, double max_temp_k, bool sunlit)
{
    return dc_radiator_emitted_w(r, max_temp_k) - dc_radiator_absorbed_w(r, sunlit);
}

static double slope_k_s(const dc_radiator *r, double temp_k, double in_w)
{
    return (in_w - dc_radiator_emitted_w(r, temp_k)) / r->heat_capacity_j_k;
}

double dc_radiator_advance_k(const dc_radiator *r, double temp_k, double heat_w, bool sunlit, double dt_s)
{
    if (dt_s <= 0.0)
        return temp_k;
    double in = heat_w + dc_radiator_absorbed_w(r, sunlit);
    /* The time constant is shortest at the hottest point of the step. */
    double t_ss = dc_radiator_steady_temp_k(r, heat_w, sunlit);
    double hot = fmax(temp_k, t_ss);
    /* A step of more than 40 of the longest time constants (at the
     * coldest point) ends at the steady state within e^-40: return it
     * rather than integrate millions of RK4 steps (a huge panel on a light
     * satellite: the progress guarantee, docs/errors.md). */
    if (dt_s >= 40.0 * dc_radiator_time_constant_s(r, fmin(temp_k, t_ss)))
        return t_ss;
    double h_max = 0.1 * dc_radiator_time_constant_s(r, hot);
    int steps = (int)ceil(dt_s / h_max);
    if (steps < 1)
        steps = 1;
    double h = dt_s / steps, t = temp_k;
    for (int i = 0; i < steps; i++) {
        double k1 = slope_k_s(r, t, in);
        double k2 = slope_k_s(r, t + 0.5 * h * k1, in);
        double k3 = slope_k_s(r, t + 0.5 * h * k2, in);
        double k4 = slope_k_s(r, t + h * k3, in);
        t += h * (k1 + 2.0 * k2 + 2.0 * k3 + k4) / 6.0;
    }
    return t;
}
