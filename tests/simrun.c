/* A scenario text or file loaded, built and run in the test's own process, for the model suites.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "simrun.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <CUnit/Basic.h>

#include "registry.h"
#include "summary.h"

/* Schema, overrides, validation: the steps after either way of loading. */
static dc_scenario *prepare(dc_scenario *sc, const char *const *sets, size_t n_sets, dc_error *err)
{
    dc_scenario_set_schema(sc, dc_schemas());
    int rc = DC_OK;
    for (size_t i = 0; i < n_sets && rc == DC_OK; i++)
        rc = dc_scenario_set(sc, sets[i], err);
    if (rc == DC_OK)
        rc = dc_scenario_validate(sc, err);
    if (rc != DC_OK) {
        dc_scenario_destroy(sc);
        return NULL;
    }
    return sc;
}

dc_scenario *dc_simrun_load(const char *text, const char *name, const char *const *sets, size_t n_sets,
                            dc_error *err)
{
    dc_scenario *sc = NULL;
    if (dc_scenario_load_string(text, name ? name : "test.cfg", &sc, err) != DC_OK)
        return NULL;
    return prepare(sc, sets, n_sets, err);
}

dc_scenario *dc_simrun_load_file(const char *path, const char *const *sets, size_t n_sets, dc_error *err)
{
    dc_scenario *sc = NULL;
    if (dc_scenario_load_file(path, &sc, err) != DC_OK)
        return NULL;
    return prepare(sc, sets, n_sets, err);
}

static dc_sim *build(dc_scenario *sc, int64_t seed, dc_error *err)
{
    dc_sim *sim = NULL;
    if (sc && dc_build(sc, seed, &sim, err) != DC_OK) {
        dc_sim_destroy(sim);
        sim = NULL;
    }
    dc_scenario_destroy(sc);
    return sim;
}

dc_sim *dc_simrun_build(const char *text, const char *const *sets, size_t n_sets, int64_t seed, dc_error *err)
{
    return build(dc_simrun_load(text, NULL, sets, n_sets, err), seed, err);
}

dc_sim *dc_simrun_try(const char *text, const char *name, const char *const *sets, size_t n_sets, int64_t seed,
                      dc_error *err)
{
    dc_sim *sim = build(dc_simrun_load(text, name, sets, n_sets, err), seed, err);
    if (sim && dc_sim_run(sim, err) != DC_OK) {
        dc_sim_destroy(sim);
        sim = NULL;
    }
    return sim;
}

static dc_sim *failed(const char *what, const dc_error *err)
{
    fprintf(stderr, "\n  %s: %s\n", what, err->msg);
    CU_FAIL("the scenario did not run");
    return NULL;
}

dc_sim *dc_simrun_run(dc_sim *sim)
{
    if (!sim)
        return NULL;
    dc_error err = {0};
    if (dc_sim_run(sim, &err) != DC_OK) {
        dc_sim_destroy(sim);
        return failed("run", &err);
    }
    return sim;
}

dc_sim *dc_simrun_text(const char *text, const char *const *sets, size_t n_sets, int64_t seed)
{
    dc_error err = {0};
    dc_sim *sim = dc_simrun_build(text, sets, n_sets, seed, &err);
    return sim ? dc_simrun_run(sim) : failed("build", &err);
}

dc_sim *dc_simrun_file(const char *path, const char *const *sets, size_t n_sets, int64_t seed)
{
    dc_error err = {0};
    dc_sim *sim = build(dc_simrun_load_file(path, sets, n_sets, &err), seed, &err);
    return sim ? dc_simrun_run(sim) : failed(path, &err);
}

double dc_simrun_fig(dc_sim *sim, const char *key)
{
    double v = NAN;
    if (!sim || !dc_summary_get(dc_sim_summary(sim), key, &v)) {
        fprintf(stderr, "\n  missing summary figure %s\n", key);
        CU_FAIL("summary figure missing");
    }
    return v;
}

dc_rowtable *dc_simrun_jobs_table(dc_sim *sim)
{
    dc_rowtable_set *set = sim ? dc_sim_tables(sim) : NULL;
    for (size_t i = 0; set && i < dc_rowtable_set_count(set); i++)
        if (strcmp(dc_rowtable_name(dc_rowtable_set_at(set, i)), "jobs") == 0)
            return dc_rowtable_set_at(set, i);
    return NULL;
}

/* A number at p of a column of type (int32 or double). */
static double number_at(const unsigned char *p, dc_rowcol_type type)
{
    if (type == DC_ROWCOL_I4) {
        int32_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    double v;
    memcpy(&v, p, sizeof v);
    return v;
}

double dc_simrun_cell(const dc_rowtable *t, size_t row, const char *column)
{
    int c = t ? dc_rowtable_column_index(t, column) : -1;
    if (c < 0 || dc_rowtable_column_type(t, (size_t)c) == DC_ROWCOL_STR)
        return NAN;
    return number_at((const unsigned char *)dc_rowtable_data(t) + row * dc_rowtable_row_size(t)
                         + dc_rowtable_column_offset(t, (size_t)c),
                     dc_rowtable_column_type(t, (size_t)c));
}

/* The start of job's cell in column (its type in *type), NULL when none. */
static const unsigned char *job_cell_at(dc_sim *sim, int32_t job, const char *column, dc_rowcol_type *type,
                                        size_t *size)
{
    dc_rowtable *t = dc_simrun_jobs_table(sim);
    int id = t ? dc_rowtable_column_index(t, "job") : -1, c = t ? dc_rowtable_column_index(t, column) : -1;
    if (id < 0 || c < 0)
        return NULL;
    const unsigned char *rows = dc_rowtable_data(t);
    for (size_t r = 0; r < dc_rowtable_buffered(t); r++) {
        const unsigned char *row = rows + r * dc_rowtable_row_size(t);
        int32_t v;
        memcpy(&v, row + dc_rowtable_column_offset(t, (size_t)id), sizeof v);
        if (v == job) {
            *type = dc_rowtable_column_type(t, (size_t)c);
            *size = dc_rowtable_column_size(t, (size_t)c);
            return row + dc_rowtable_column_offset(t, (size_t)c);
        }
    }
    return NULL;
}

double dc_simrun_job_cell(dc_sim *sim, int32_t job, const char *column)
{
    dc_rowcol_type type;
    size_t size;
    const unsigned char *p = job_cell_at(sim, job, column, &type, &size);
    return p && type != DC_ROWCOL_STR ? number_at(p, type) : NAN;
}

bool dc_simrun_job_text_is(dc_sim *sim, int32_t job, const char *column, const char *text)
{
    dc_rowcol_type type;
    size_t size;
    const unsigned char *p = job_cell_at(sim, job, column, &type, &size);
    size_t n = strlen(text);
    /* NUL-padded to the column's width (rowtable.h), unterminated when full */
    return p && type == DC_ROWCOL_STR && n <= size && memcmp(p, text, n) == 0 && (n == size || p[n] == 0);
}

bool dc_simrun_same_summary(dc_sim *a, dc_sim *b)
{
    const dc_summary *sa = dc_sim_summary(a), *sb = dc_sim_summary(b);
    if (dc_summary_count(sa) != dc_summary_count(sb))
        return false;
    for (size_t i = 0; i < dc_summary_count(sa); i++) {
        double va = dc_summary_value(sa, i), vb = dc_summary_value(sb, i);
        if (strcmp(dc_summary_key(sa, i), dc_summary_key(sb, i)) != 0 || memcmp(&va, &vb, sizeof va) != 0)
            return false;
    }
    return true;
}

void dc_simrun_take_bytes(dc_sim *sim, void *ctx, uint64_t arg)
{
    (void)sim;
    (void)arg;
#if !defined(__SANITIZE_ADDRESS__)
    struct mallinfo2 mi = mallinfo2();
    *(double *)ctx = (double)(mi.uordblks + mi.hblkhd);
#else
    *(double *)ctx = 0.0;
#endif
}
