/* The models dcsim knows, by name, in the order they are initialised, and dc_build.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The models dcsim knows, by name, in the order they are initialised, and
 * the wiring from a validated scenario to a ready simulation.
 *
 * Order matters: the cluster first (everyone finds it), then the job (it
 * registers with the cluster), then failures (they size job-level classes
 * from the registered jobs and register hazards the job's checkpoint policy
 * reads at start), then repair, then the network and storage (the
 * step-time model reads both at init), then the step-time model, whose speed
 * sources are registered with the cluster at init, before the job starts,
 * then the site: environment (outdoor temperature, price), power (it reads
 * the cluster's and the jobs' state, the environment's price and other
 * models' speed factors), cooling (it reads the power model's IT power and
 * the environment's temperature), then cost (last: at finish it reads the
 * figures every other model has written, power.* included). */
#ifndef DC_REGISTRY_H
#define DC_REGISTRY_H

#include <stdint.h>

#include "sim.h"

/* NULL-terminated. */
extern const dc_model_type *const dc_model_types[];

/* Every scenario key: the run-level keys, each model's and the checkpoint
 * group's.  NULL-terminated array of {0}-terminated tables. */
const dc_param *const *dc_schemas(void);

/* Builds a simulation from a validated scenario.  seed_override < 0 keeps
 * the scenario's seed. */
int dc_build(const dc_scenario *sc, int64_t seed_override, dc_sim **out, dc_error *err);
/* dc_build with the run's cancel flag set from the start
 * (dc_sim_set_cancel), so that the models' inits, which may take seconds
 * (a stream of a million jobs), poll it: a signal while building fails the
 * build (the caller, seeing its flag set, reports the interruption). */
int dc_build_cancellable(const dc_scenario *sc, int64_t seed_override, const volatile sig_atomic_t *cancel,
                         dc_sim **out, dc_error *err);

#endif
