/* Orbital mechanics and the space environment: period, eclipses, beta angle, sink temperature.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "orbit.h"

#include <math.h>

#define DEG (M_PI / 180.0)

static double semi_major_km(double altitude_km)
{
    return DC_EARTH_RADIUS_KM + altitude_km;
}

double dc_orbit_period_s(double altitude_km)
{
    double a = semi_major_km(altitude_km);
    return 2.0 * M_PI * sqrt(a * a * a / DC_EARTH_MU_KM3_S2);
}

double dc_orbit_sso_inclination_rad(double altitude_km)
{
    double a = semi_major_km(altitude_km);
    double n = sqrt(DC_EARTH_MU_KM3_S2 / (a * a * a));
    double precession = 2.0 * M_PI / (DC_TROPICAL_YEAR_DAYS * 86400.0);
    double r = DC_EARTH_RADIUS_KM / a;
    double c = -(2.0 / 3.0) * precession / (n * DC_EARTH_J2 * r * r);
    return fabs(c) <= 1.0 ? acos(c) : NAN;
}

double dc_orbit_sun_longitude_rad(double d)
{
    double L = 280.460 + 0.9856474 * d;
    double g = (357.528 + 0.9856003 * d) * DEG;
    double lambda = L + 1.915 * sin(g) + 0.020 * sin(2.0 * g);
    return fmod(lambda, 360.0) * DEG;
}

double dc_orbit_obliquity_rad(double d)
{
    return (23.439 - 4e-7 * d) * DEG;
}

double dc_orbit_sun_right_ascension_rad(double d)
{
    double lambda = dc_orbit_sun_longitude_rad(d), eps = dc_orbit_obliquity_rad(d);
    return atan2(cos(eps) * sin(lambda), cos(lambda));
}

double dc_orbit_sun_declination_rad(double d)
{
    return asin(sin(dc_orbit_obliquity_rad(d)) * sin(dc_orbit_sun_longitude_rad(d)));
}

double dc_orbit_beta_rad(double inclination_rad, double raan_rad, double d)
{
    double lambda = dc_orbit_sun_longitude_rad(d), eps = dc_orbit_obliquity_rad(d);
    double nx = sin(inclination_rad) * sin(raan_rad);
    double ny = -sin(inclination_rad) * cos(raan_rad);
    double nz = cos(inclination_rad);
    double dot = nx * cos(lambda) + ny * cos(eps) * sin(lambda) + nz * sin(eps) * sin(lambda);
    return asin(fmax(-1.0, fmin(1.0, dot)));
}

double dc_orbit_sso_raan_rad(double ltan_h, double d)
{
    return dc_orbit_sun_right_ascension_rad(d) + (ltan_h - 12.0) * 15.0 * DEG;
}

double dc_orbit_sso_beta_rad(double altitude_km, double ltan_h, double d)
{
    return dc_orbit_beta_rad(dc_orbit_sso_inclination_rad(altitude_km), dc_orbit_sso_raan_rad(ltan_h, d), d);
}

double dc_orbit_beta_star_rad(double altitude_km)
{
    return asin(DC_EARTH_RADIUS_KM / semi_major_km(altitude_km));
}

double dc_orbit_eclipse_fraction(double altitude_km, double beta_rad)
{
    if (fabs(beta_rad) >= dc_orbit_beta_star_rad(altitude_km))
        return 0.0;
    double h = altitude_km, R = DC_EARTH_RADIUS_KM;
    double x = sqrt(h * h + 2.0 * R * h) / (semi_major_km(h) * cos(beta_rad));
    return x >= 1.0 ? 0.0 : acos(x) / M_PI;
}

double dc_orbit_view_factor_edge_on(double altitude_km)
{
    double H = (DC_EARTH_RADIUS_KM + altitude_km) / DC_EARTH_RADIUS_KM;
    double r = sqrt(H * H - 1.0);
    if (!(r > 0.0))
        return 0.5; /* at the ground: half the hemisphere */
    return (atan(1.0 / r) - r / (H * H)) / M_PI;
}

double dc_orbit_sso_eclipse_days(double altitude_km, double ltan_h, double start, double span_days,
                                 double step_days)
{
    double star = dc_orbit_beta_star_rad(altitude_km), days = 0.0;
    for (double t = 0.0; t < span_days; t += step_days)
        if (fabs(dc_orbit_sso_beta_rad(altitude_km, ltan_h, start + t)) < star)
            days += step_days;
    return days;
}
