/* A radiator in space: heat leaves only by radiation (Stefan-Boltzmann).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A radiator in space: heat leaves only by radiation (Stefan-Boltzmann).
 *
 *   emitted      q = e sigma A_e (T^4 - Ts^4),  A_e = area x sides (1 or 2)
 *   absorbed     Q_env = a_s S A f_sun [sunlit] + a_ir E_ir A F_e n_e
 *                        + a_s albedo S A F_e n_e [sunlit]
 *                (a_s solar absorptivity, a_ir infrared absorptivity
 *                (Kirchhoff: the emissivity unless given), S the solar
 *                constant, f_sun the projected fraction of the area facing
 *                the sun, F_e the view factor of ONE face to the Earth and
 *                n_e the faces that see it with that factor (2 for a panel
 *                edge-on to the Earth: dc_orbit_view_factor_edge_on gives
 *                0.2407 per face at 650 km), E_ir the Earth's infrared
 *                flux; Gilmore, "Spacecraft Thermal Control Handbook",
 *                2002, ch. 2 and 4)
 *   steady state T = (Ts^4 + (Q + Q_env) / (e sigma A_e))^(1/4)
 *   transient    C dT/dt = Q + Q_env - e sigma A_e (T^4 - Ts^4), integrated
 *                with classical Runge-Kutta steps; linearised about T its
 *                time constant is tau = C / (4 e sigma A_e T^3)
 *   capacity     the most heat it rejects at T_max:
 *                Q_max = e sigma A_e (T_max^4 - Ts^4) - Q_env
 * Starting values (Starcloud white paper, 2024): radiators near 20 C,
 * emissivity 0.92, absorptivity 0.09, both faces emitting; with a_ir = 0.09
 * too, S = 1366 W/m2, f_sun = 1, F_e = 0.2407 on one face, a two-sided
 * panel at 20 C nets 770 - 137 = 633 W per m2 (the paper's 633.08;
 * tests/test_orbit.c). */
#ifndef DC_RADIATOR_H
#define DC_RADIATOR_H

#include <stdbool.h>

typedef struct dc_radiator {
    double area_m2;            /* one face */
    int sides;                 /* faces that emit: 1 or 2 */
    double emissivity;         /* (0, 1] */
    double absorptivity;       /* solar, [0, 1] */
    double ir_absorptivity;    /* of the Earth's infrared, [0, 1] */
    double sun_fraction;       /* projected area facing the sun / area, [0, 1] */
    double earth_view_factor;  /* of one face, [0, 1] */
    int earth_faces;           /* faces that see the Earth with that factor: 1 or 2 */
    double solar_w_m2;         /* solar constant S */
    double earth_ir_w_m2;      /* the Earth's infrared flux E_ir */
    double albedo;             /* the Earth's albedo */
    double sink_k;             /* deep space, about 3 K */
    double heat_capacity_j_k;  /* thermal mass of radiator and loop */
} dc_radiator;

double dc_radiator_absorbed_w(const dc_radiator *r, bool sunlit);
double dc_radiator_emitted_w(const dc_radiator *r, double temp_k);
double dc_radiator_steady_temp_k(const dc_radiator *r, double heat_w, bool sunlit);
double dc_radiator_time_constant_s(const dc_radiator *r, double temp_k);
/* Heat it can reject while at most max_temp_k (may be negative: it cannot
 * even shed what it absorbs). */
double dc_radiator_capacity_w(const dc_radiator *r, double max_temp_k, bool sunlit);
/* Advances the temperature by dt_s with constant heat_w (RK4 substeps no
 * longer than a tenth of the time constant). */
double dc_radiator_advance_k(const dc_radiator *r, double temp_k, double heat_w, bool sunlit, double dt_s);

#endif
