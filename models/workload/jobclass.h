/* What a job trains and how: its model, parallel layout and checkpoints, from its own keys, a
 * named class or the defaults.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* What a job trains and how: its model (params, tokens, FLOP per parameter
 * and token, GPU peak, kernel efficiency "mfu"), its parallel layout
 * (parallelism = { tensor; pipeline; data; ... }, each "auto" or a
 * number), its checkpoints (checkpoint, checkpoint_interval_s,
 * checkpoint_write_s, checkpoint_tier, checkpoint_gb).
 *
 * Any job (the job group, a one-job entry of jobs, every job of a trace or
 * of a generated stream) takes each of these keys from the first of:
 *   1. its own group (the job group's layout is the top-level parallelism
 *      group, its checkpoints the checkpoint group's, as before classes
 *      existed; a jobs entry's keys apply to every job it gives);
 *   2. its class: class = "NAME" names an entry of job_classes (a class
 *      given in defaults applies to every job that names none);
 *   3. the defaults group;
 *   4. the built-in default stated in the key's documentation.
 * Sub-groups merge key by key: a class's parallelism.tensor fills in for a
 * job whose own parallelism group gives only data.  A job has a step-time
 * model (steptime.h) when one of the three gives a parallelism group.
 *
 * Keys that a schema fills with its default (the top-level parallelism and
 * checkpoint groups, a jobs entry's restart_s) always count as given. */
#ifndef DC_JOBCLASS_H
#define DC_JOBCLASS_H

#include <stdbool.h>

#include "sim.h"

extern const dc_param dc_jobclass_params[];

/* Where one job's keys come from, in order (NULL: absent). */
typedef struct dc_job_chain {
    const config_setting_t *at[3]; /* own group, class, defaults */
    const char *class_name;        /* "" when none */
} dc_job_chain;

/* The chain of a job whose own group is own (NULL: none).  Unknown class:
 * DC_EINPUT naming the class key. */
int dc_job_chain_of(const dc_scenario *sc, const config_setting_t *own, dc_job_chain *out, dc_error *err);
/* The chain of the sub-group name (for example "parallelism") of each
 * level; own_sub replaces the own group's (the job group's top-level
 * parallelism), NULL to look inside the own group. */
dc_job_chain dc_job_chain_sub(const dc_job_chain *ch, const char *name, const config_setting_t *own_sub);
/* Whether any level has a setting named key. */
bool dc_job_chain_has(const dc_job_chain *ch, const char *key);
/* The first level's setting named key (NULL when none). */
const config_setting_t *dc_job_chain_setting(const dc_job_chain *ch, const char *key);
/* The first value found; false (v untouched) when none gives it.  A number
 * key also reads an integer; _auto says whether it was "auto" (v untouched). */
bool dc_job_chain_number(const dc_job_chain *ch, const char *key, double *v);
bool dc_job_chain_number_auto(const dc_job_chain *ch, const char *key, double *v, bool *is_auto);
bool dc_job_chain_string(const dc_job_chain *ch, const char *key, const char **v);
bool dc_job_chain_bool(const dc_job_chain *ch, const char *key, bool *v);

/* Checks the job_classes list (names unique and not empty). */
int dc_jobclass_check(const dc_scenario *sc, dc_error *err);

#endif
