/* The facility's fixed overheads and its utility supply: outages, UPS ride-through, generators.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The facility around the IT load and its cooling (the `facility` group;
 * absent: nothing).  It needs the power model (power.h).
 *
 * Fixed overheads.  What the site draws whatever the load:
 *   overhead = n_ups P_ups + P_pumps + P_light
 * with the UPS's no-load loss n_ups (facility.ups_no_load_fraction) of its
 * rating P_ups (facility.ups_rating_mw; default the site's
 * power.site_cap_mw), the pumps and fans of the cooling plant at their
 * minimum speed (facility.pumps_fans_kw, always on: the cooling model's
 * power is the part that follows the heat load) and lighting, offices and
 * security (facility.lighting_kw).  It is added to the facility power
 * (dc_power_set_overhead_w), so the PUE, (IT + losses + cooling +
 * overhead) / IT, rises as the IT load falls: with losses a share l of IT
 * and cooling a share k,  PUE(L) = 1 + l + k + overhead / IT(L).  A UPS
 * loss curve is thus P_nl + (1/eta - 1) P (Ton & Fortenbery, "High
 * Performance Buildings: Data Centers -- Uninterruptible Power Supplies",
 * LBNL/EPRI 2005: double-conversion UPSs lose a few per cent of their
 * rating at no load and are least efficient at low load); the power model's
 * ups_efficiency is then the proportional part.  During a blackout nothing
 * is drawn.
 *
 * Utility outages (facility.outages).  The grid fails as a Poisson process
 * of rate per_year while it is up; each outage lasts a time drawn from its
 * law (duration, in hours: the time laws of dist.h).  The UPS carries the
 * site for ride_through_s; a generator (facility.outages.generator, absent:
 * none) starts start_s after the outage begins, and fails to start with
 * probability start_failure.  For an outage of duration d:
 *   generator up, start_s <= ride_through_s:  UPS, then the generator to
 *                                             the end: nothing stops;
 *   no generator (or it failed), d <= ride_through_s:  the UPS carries it;
 *   otherwise: a blackout from ride_through_s into the outage until power
 *              returns (the generator at start_s if it runs, else the grid
 *              at d): every node goes down (dc_cluster_fail, class -1,
 *              reason power_outage: jobs are interrupted as by a failure,
 *              the repair model ignores it) and comes back restart_s after
 *              power returns (boot and checks); nodes repaired meanwhile
 *              stay down until then.
 * Random streams: facility.outages (arrivals and durations),
 * facility.generator (starts).
 *
 * Figures: facility.overhead_kw, facility.outages, facility.outage_h (grid
 * down), facility.ups_h (site on batteries), facility.generator_h,
 * facility.generator_start_failures, facility.blackouts, facility.blackout_h
 * (nodes down for power, until they are back); the node-time goes to
 * gpu_hours.power_outage, and each blackout is one of job.interruptions of
 * every job it stopped. */
#ifndef DC_FACILITY_H
#define DC_FACILITY_H

#include "sim.h"

extern const dc_model_type dc_model_facility;
extern const dc_param dc_facility_params[];

#endif
