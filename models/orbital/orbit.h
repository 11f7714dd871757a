/* Orbital mechanics and the space environment for compute in orbit: pure functions, no state.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Orbital mechanics and the space environment for compute in orbit: pure
 * functions, no state.
 *
 * Constants (REFERENCE.md "Orbit"): mu = 398600.4418 km^3/s^2, Earth radius
 * R = 6378.137 km, J2 = 1.08263e-3, solar constant 1361 W/m^2,
 * Stefan-Boltzmann sigma = 5.670374419e-8 W/m^2/K^4, Earth infrared about
 * 237 W/m^2, albedo about 0.3.
 *
 * Circular orbit of altitude h, a = R + h, mean motion n = sqrt(mu/a^3):
 *   period            T = 2 pi sqrt(a^3 / mu)
 *   nodal precession  dRAAN/dt = -(3/2) n J2 (R/a)^2 cos i   (Vallado,
 *                     "Fundamentals of Astrodynamics", sec. 9.6)
 *   sun-synchronous   dRAAN/dt = 360 deg per tropical year (365.2422 d), so
 *                     cos i = -(2/3) (dRAAN/dt) / (n J2 (R/a)^2)
 * Sun (Astronomical Almanac low-precision formulae, good to 0.01 deg):
 *   days from J2000.0: d;  L = 280.460 + 0.9856474 d;  g = 357.528 + 0.9856003 d
 *   ecliptic longitude lambda = L + 1.915 sin g + 0.020 sin 2g;
 *   obliquity eps = 23.439 - 4e-7 d;  right ascension
 *   alpha = atan2(cos eps sin lambda, cos lambda);  declination
 *   sin delta = sin eps sin lambda
 * Beta angle (sun above the orbit plane): with orbit normal
 *   N = (sin i sin RAAN, -sin i cos RAAN, cos i) and sun direction
 *   S = (cos lambda, cos eps sin lambda, sin eps sin lambda),
 *   beta = asin(N . S).  A sun-synchronous orbit with local time of the
 *   ascending node LTAN keeps RAAN = alpha + 15 deg/h (LTAN - 12 h).
 *   (For LTAN 18:00 this reduces to beta = 180 deg - (i + delta).)
 * Eclipse (cylindrical shadow): no eclipse when |beta| >= beta* = asin(R/a);
 *   else the shadowed fraction of the orbit is
 *   f = (1/pi) acos( sqrt(h^2 + 2 R h) / (a cos beta) )
 *   (Gilmore, "Spacecraft Thermal Control Handbook", 2002, ch. 2).
 * Even a dawn-dusk orbit at 650 km (beta* = 65.2 deg, i = 98.0 deg) has an
 * eclipse season: beta falls to 58.6 deg at one solstice. */
#ifndef DC_ORBIT_H
#define DC_ORBIT_H

#define DC_EARTH_MU_KM3_S2 398600.4418
#define DC_EARTH_RADIUS_KM 6378.137
#define DC_EARTH_J2 1.08263e-3
#define DC_SOLAR_CONSTANT_W_M2 1361.0
#define DC_STEFAN_BOLTZMANN 5.670374419e-8
#define DC_EARTH_IR_W_M2 237.0
#define DC_EARTH_ALBEDO 0.3
#define DC_TROPICAL_YEAR_DAYS 365.2422
/* 2026-01-01 00:00 UTC in days from J2000.0 (2000-01-01 12:00). */
#define DC_DAYS_J2000_TO_2026 9496.5

double dc_orbit_period_s(double altitude_km);
/* Inclination of the sun-synchronous orbit at this altitude (radians, > 90
 * deg); NaN where none exists (|cos i| would exceed 1). */
double dc_orbit_sso_inclination_rad(double altitude_km);

/* The sun at d days from J2000.0. */
double dc_orbit_sun_longitude_rad(double days_j2000);
double dc_orbit_obliquity_rad(double days_j2000);
double dc_orbit_sun_right_ascension_rad(double days_j2000);
double dc_orbit_sun_declination_rad(double days_j2000);

double dc_orbit_beta_rad(double inclination_rad, double raan_rad, double days_j2000);
/* RAAN of a sun-synchronous orbit with the given local time of the ascending node. */
double dc_orbit_sso_raan_rad(double ltan_h, double days_j2000);
/* Beta of a sun-synchronous orbit of this altitude and LTAN at day d. */
double dc_orbit_sso_beta_rad(double altitude_km, double ltan_h, double days_j2000);

double dc_orbit_beta_star_rad(double altitude_km);
/* Fraction of each orbit in the Earth's shadow, in [0, 0.5]. */
double dc_orbit_eclipse_fraction(double altitude_km, double beta_rad);

/* View factor from one face of a flat plate edge-on to the Earth (its
 * normal horizontal, the plate in the plane of the nadir) at this altitude
 * to the Earth as a sphere of radius R = DC_EARTH_RADIUS_KM, H = (R + h) / R:
 *   F = (1/pi) (atan(1 / sqrt(H^2 - 1)) - sqrt(H^2 - 1) / H^2)
 * (differential planar element to a sphere, the element's normal
 * perpendicular to the radius through it: Howell, "A Catalog of Radiation
 * Heat Transfer Configuration Factors"; Gilmore 2002, ch. 2).  0.2407 at 650 km, 1/2 at the
 * ground; both faces of such a panel see the Earth with F each. */
double dc_orbit_view_factor_edge_on(double altitude_km);

/* Days within [start, start + span) (days from J2000, sampled every step_days)
 * on which a sun-synchronous orbit sees eclipses. */
double dc_orbit_sso_eclipse_days(double altitude_km, double ltan_h, double start_days_j2000,
                                 double span_days, double step_days);

#endif
