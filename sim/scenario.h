/* Scenarios: libconfig files checked against a schema before anything runs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Scenarios: libconfig files checked against a schema before anything runs.
 *
 * A schema is a table of dc_param, one row per key, with its path, type, unit,
 * default, range and a one-line description.  Paths are dotted; "[]" stands
 * for any element of a list of groups:  "failures.[].mtbf_h".
 *
 * Validation (dc_scenario_validate), in this order:
 *  1. every setting in the file has a schema row (unknown key -> error);
 *  2. its type matches (an integer is accepted where a float is expected;
 *     a float key with DC_PARAM_AUTO also accepts the string "auto"; a
 *     string key with DC_PARAM_OR_GROUP also a group, checked like one);
 *  3. numbers lie in [min, max] (or the open side where the flags say),
 *     strings among the choices "a|b|c" when choices is set;
 *  4. required keys are present wherever their parent group is;
 *  5. missing optional keys with a default are added with that default, so
 *     models read every key without fallbacks and the effective scenario
 *     (dc_scenario_text) shows every value the run used.
 * The first violation is reported as "FILE:LINE: KEY: what is wrong (got X)"
 * with code DC_EINPUT.  Checks that involve more than one key (a job larger
 * than the cluster) are the models' job, reported with dc_scenario_error_at.
 *
 * Uncertain inputs: a numeric key may hold a distribution group instead of
 * a number (uncertain.h).  Validation checks its keys, types and parameters
 * (steps 1-3), then records it as an uncertain input and puts its median in
 * its place (step 6), so that models always read plain numbers; a sweep
 * writes each replication's draw there (dc_scenario_sample).  A --set of
 * such a key, before or after validation, fixes its value; --set
 * KEY.PARAM=VALUE before validation changes one parameter of its
 * distribution (sd, max, dist, stream...; not the values lists).
 *
 * Overrides (dc_scenario_set, from --set PATH=VALUE) are applied before
 * validation: the value is parsed as an integer, float, boolean (true/false)
 * or string (quoted or bare) by the schema type of PATH; PATH may name a key
 * not in the file (it is created, with its parent groups) but must be in the
 * schema. */
#ifndef DC_SCENARIO_H
#define DC_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <libconfig.h>

#include "error.h"

typedef enum dc_param_type {
    DC_PARAM_END = 0, /* terminates a table */
    DC_PARAM_INT,
    DC_PARAM_FLOAT,
    DC_PARAM_BOOL,
    DC_PARAM_STRING,
    DC_PARAM_GROUP,
    DC_PARAM_LIST,    /* a list of groups: ( {...}, {...} ) */
} dc_param_type;

enum dc_param_flags {
    DC_PARAM_REQUIRED = 1u << 0,      /* must be present when its parent is */
    DC_PARAM_NO_DEFAULT = 1u << 1,    /* optional, absence is meaningful: not filled in */
    DC_PARAM_MIN_EXCLUSIVE = 1u << 2, /* value > min rather than >= min */
    DC_PARAM_MAX_EXCLUSIVE = 1u << 3,
    DC_PARAM_AUTO = 1u << 4,          /* a float key that also takes "auto" */
    DC_PARAM_FILE = 1u << 5,          /* a string naming a file the run reads (relative to the scenario file) */
    DC_PARAM_OR_GROUP = 1u << 6,      /* a string key that also takes a group of its own sub-keys (rows PATH.x) */
};

typedef struct dc_param {
    const char *path;
    dc_param_type type;
    unsigned flags;
    const char *unit;      /* "s", "h", "GB/s", "" ... */
    double def;            /* default for numbers and bools (0/1) */
    const char *def_str;   /* default for strings */
    double min, max;       /* inclusive unless flagged; ignored for non-numbers */
    const char *choices;   /* strings: "a|b|c", NULL = any */
    const char *doc;
} dc_param;

typedef struct dc_scenario dc_scenario;

/* Parses a file.  Syntax errors come back as "FILE:LINE: syntax error ...";
 * a missing or unreadable file as DC_EIO naming the file. */
int dc_scenario_load_file(const char *path, dc_scenario **out, dc_error *err);
/* Parses text; display_name stands for the file name in messages. */
int dc_scenario_load_string(const char *text, const char *display_name,
                            dc_scenario **out, dc_error *err);
void dc_scenario_destroy(dc_scenario *sc);

/* schemas: NULL-terminated array of {0}-terminated tables.  Kept by pointer. */
void dc_scenario_set_schema(dc_scenario *sc, const dc_param *const *schemas);

/* "PATH=VALUE"; errors name the --set option. */
int dc_scenario_set(dc_scenario *sc, const char *assignment, dc_error *err);
int dc_scenario_validate(dc_scenario *sc, dc_error *err);

const char *dc_scenario_file(const dc_scenario *sc);
/* Where setting s was written: *file (left as it is when the scenario
 * came from a string) and *line (0: not from the text, e.g. --set or a
 * default).  Included files give their own name and line. */
void dc_scenario_where(const dc_scenario *sc, const config_setting_t *s, const char **file, unsigned *line);
config_t *dc_scenario_config(const dc_scenario *sc);
/* config_lookup on the scenario; NULL when absent. */
config_setting_t *dc_scenario_lookup(const dc_scenario *sc, const char *path);

/* The effective scenario (after overrides and defaults) as libconfig text,
 * every number written so that it reads back exactly (shortest round-trip
 * digits; 64-bit integers with L): running the text is the same run.
 * malloc'd, the caller frees; NULL when out of memory. */
char *dc_scenario_text(const dc_scenario *sc);

/* The schema row of a dotted path ("failures.[2].mtbf_h" or
 * "failures.[].mtbf_h"), NULL if the schema has none. */
const dc_param *dc_scenario_schema_row(const dc_scenario *sc, const char *path);

/* A number setting (integer or float) as a double in *v; false, with *v
 * untouched, for a NULL setting or any other type. */
bool dc_scenario_number(const config_setting_t *s, double *v);

/* The dotted path of a setting ("failures.[2].mtbf_h") into buf. */
void dc_scenario_setting_path(const config_setting_t *s, char *buf, size_t size);

/* Sets err (DC_EINPUT) to "FILE:LINE: PATH: message" for setting s (or
 * "FILE: message" when s is NULL) and returns DC_EINPUT. */
int dc_scenario_error_at(const dc_scenario *sc, const config_setting_t *s,
                         dc_error *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Sets err (DC_EINPUT) to its own message named after setting s, as
 * dc_scenario_error_at writes it ("FILE:LINE: PATH: " then the message):
 * a data file's error (a trace's row, a log's cell) under the scenario key
 * that names the file.  Returns DC_EINPUT. */
int dc_scenario_error_under(const dc_scenario *sc, const config_setting_t *s, dc_error *err);

/* Warnings: a value the models can run but that likely defeats its purpose
 * (checkpoints kept too briefly to roll back past a corruption, checkpoints
 * only on node-local storage).  A model's init records one with
 * dc_scenario_warn_at as "FILE:LINE: PATH: message" (the form of
 * dc_scenario_error_at); the scenario keeps each text once (a stream of a
 * million jobs warns once; every build of a sweep's point adds nothing new),
 * at most DC_SCENARIO_MAX_WARNINGS, beside its content (the scenario itself
 * is unchanged, hence the const).  The CLI prints them to standard error
 * as "dcsim: warning: TEXT", lists them in --json ("run.warnings") and in
 * the trace (root attribute "warnings", one per line).  Out of memory: the
 * warning is dropped. */
#define DC_SCENARIO_MAX_WARNINGS 64
void dc_scenario_warn_at(const dc_scenario *sc, const config_setting_t *s, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "FILE:LINE: PATH" for setting s (the place dc_scenario_error_at names),
 * for a warning a model gives later (dc_sim_warn). */
void dc_scenario_where_text(const dc_scenario *sc, const config_setting_t *s, char *buf, size_t size);
/* Keeps a warning already formatted (a run's, dc_sim_warn, gathered by a
 * sweep), once, as dc_scenario_warn_at does. */
void dc_scenario_warn_text(const dc_scenario *sc, const char *text);
size_t dc_scenario_warning_count(const dc_scenario *sc);
const char *dc_scenario_warning(const dc_scenario *sc, size_t i);

/* Uncertain inputs (uncertain.h), in file order, after dc_scenario_validate. */
typedef struct dc_uncertain dc_uncertain;
size_t dc_scenario_uncertain_count(const dc_scenario *sc);
const dc_uncertain *dc_scenario_uncertain(const dc_scenario *sc, size_t i);
/* Writes value x (a quantile of the input) into the scenario. */
void dc_scenario_uncertain_set(dc_scenario *sc, size_t i, double x);
/* Draws every input for a replication's seed (one uniform per stream) and
 * writes the values; values[i] receives input i's value (values may be NULL). */
void dc_scenario_sample(dc_scenario *sc, uint64_t seed, double *values);

/* The files the scenario reads: the scenario file, the files it includes
 * and the files its DC_PARAM_FILE keys name (relative to the scenario
 * file).  For the check that no output overwrites an input (sim/outfile.h).
 * Owned by the scenario; NULL with *n = 0 when out of memory. */
const char *const *dc_scenario_inputs(const dc_scenario *sc, size_t *n);

/* Writes the schema as a Markdown reference table (for docs/scenario.md),
 * followed by the rules of distribution-valued keys. */
void dc_scenario_write_reference(const dc_param *const *schemas, FILE *out);

#endif
