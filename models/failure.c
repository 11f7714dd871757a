/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */
#include "failure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cluster.h"
#include "dist.h"
#include "law_params.h"

const dc_param dc_failure_params[] = {
    {"failures", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "failure classes; absent: nothing fails"},
    {"failures.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL,
     "class name (summary key interruptions.NAME; [a-z0-9_], unique)"},
    {"failures.[].per", DC_PARAM_STRING, 0, "", 0, "node", 0, 0, "gpu|node|rack|job|job_gpu",
     "count basis: one failure process per GPU, node, rack, job, or GPU of a computing job"},
    {"failures.[].takes", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, "node|rack|job",
     "what a failure takes down (default: node for gpu/node, rack for rack, job for job bases)"},
    {"failures.[].mtbf_h", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "h", 0, NULL,
     0, 1e12, NULL, "mean time between failures of one unit"},
    {"failures.[].afr", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT | DC_PARAM_MIN_EXCLUSIVE, "1/yr", 0, NULL,
     0, 1e6, NULL, "annualised failure rate of one unit (instead of mtbf_h; 8766 h per year)"},
    DC_LAW_PARAMS("failures.[]", "exponential", "time between failures of one unit"),
    {"failures.[].repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "repair-time law for this class (default: the repair group's law)"},
    DC_LAW_PARAMS("failures.[].repair", "lognormal", "repair time"),
    {0},
};

enum basis { PER_GPU, PER_NODE, PER_RACK, PER_JOB, PER_JOB_GPU };
enum takes { TAKES_NODE, TAKES_RACK, TAKES_JOB };

typedef struct fclass {
    char name[DC_EVENTLOG_COMPONENT_LEN];
    enum basis basis;
    enum takes takes;
    dc_dist law;
    gsl_rng *rng;
    uint64_t units;
    uint64_t n_failures;
} fclass;

typedef struct failure_model {
    dc_cluster *cluster;
    fclass *classes;
    size_t n_classes;
    dc_eventlog *log;
} failure_model;

#define UNIT_BITS 40
#define UNIT_MASK ((UINT64_C(1) << UNIT_BITS) - 1)

static uint64_t class_units(const failure_model *m, const fclass *fc)
{
    const dc_cluster *c = m->cluster;
    switch (fc->basis) {
    case PER_GPU:
        return (uint64_t)dc_cluster_node_count(c) * dc_cluster_gpus_per_node(c);
    case PER_NODE:
        return dc_cluster_node_count(c);
    case PER_RACK:
        return dc_cluster_rack_count(c);
    case PER_JOB:
        return dc_cluster_job_count(c);
    case PER_JOB_GPU: {
        uint64_t g = 0;
        for (uint32_t j = 0; j < dc_cluster_job_count(c); j++)
            g += (uint64_t)dc_cluster_job_nodes(c, (int32_t)j) * dc_cluster_gpus_per_node(c);
        return g;
    }
    }
    return 0;
}

/* Applies a failure of unit u of class fc if the unit can fail now; returns
 * whether it did. */
static bool strike(dc_sim *sim, failure_model *m, size_t ci, uint64_t u)
{
    fclass *fc = &m->classes[ci];
    dc_cluster *c = m->cluster;
    uint32_t nodes[1024];
    size_t n = 0;
    int32_t job = -1;

    if (fc->basis == PER_JOB || fc->basis == PER_JOB_GPU) {
        if (fc->basis == PER_JOB) {
            job = (int32_t)u;
        } else {
            uint64_t per_node = dc_cluster_gpus_per_node(c);
            for (uint32_t j = 0; j < dc_cluster_job_count(c); j++) {
                uint64_t g = dc_cluster_job_nodes(c, (int32_t)j) * per_node;
                if (u < g) {
                    job = (int32_t)j;
                    break;
                }
                u -= g;
            }
        }
        if (job < 0 || !dc_cluster_job_active(c, job))
            return false;
    } else {
        uint32_t node;
        if (fc->basis == PER_GPU)
            node = (uint32_t)(u / dc_cluster_gpus_per_node(c));
        else if (fc->basis == PER_NODE)
            node = (uint32_t)u;
        else
            node = (uint32_t)u * dc_cluster_nodes_per_rack(c);
        if (fc->takes == TAKES_RACK) {
            uint32_t npr = dc_cluster_nodes_per_rack(c);
            uint32_t first = node / npr * npr;
            for (uint32_t k = first; k < first + npr && k < dc_cluster_node_count(c); k++)
                if (dc_cluster_node_state(c, k) != DC_NODE_DOWN)
                    nodes[n++] = k;
        } else if (dc_cluster_node_state(c, node) != DC_NODE_DOWN) {
            nodes[n++] = node;
        }
        if (n == 0)
            return false;
        for (size_t k = 0; k < n && job < 0; k++)
            job = dc_cluster_node_job(c, nodes[k]);
    }
    fc->n_failures++;
    dc_eventlog_add(m->log, dc_sim_now(sim), "failure", fc->name, n ? (int32_t)nodes[0] : -1, job,
                    (double)n);
    dc_cluster_fail(c, (int)ci, fc->name, nodes, n, n ? -1 : job);
    return true;
}

/* Exponential classes: the next arrival of the superposed process. */
static void on_poisson(dc_sim *sim, void *ctx, uint64_t ci)
{
    failure_model *m = ctx;
    fclass *fc = &m->classes[ci];
    uint64_t u = fc->units > 1 ? (uint64_t)(gsl_rng_uniform(fc->rng) * (double)fc->units) : 0;
    if (u >= fc->units)
        u = fc->units - 1;
    strike(sim, m, ci, u);
    dc_sim_after(sim, gsl_ran_exponential(fc->rng, fc->law.a / (double)fc->units), on_poisson, m, ci);
}

/* Other laws: the clock of one unit. */
static void on_renewal(dc_sim *sim, void *ctx, uint64_t arg)
{
    failure_model *m = ctx;
    size_t ci = (size_t)(arg >> UNIT_BITS);
    uint64_t u = arg & UNIT_MASK;
    fclass *fc = &m->classes[ci];
    strike(sim, m, ci, u);
    dc_sim_after(sim, dc_dist_sample(&fc->law, fc->rng), on_renewal, m, arg);
}

static int parse_class(failure_model *m, dc_sim *sim, const dc_scenario *sc,
                       config_setting_t *g, size_t ci, dc_error *err)
{
    fclass *fc = &m->classes[ci];
    const char *name = NULL, *per = "node", *takes = NULL;
    config_setting_lookup_string(g, "name", &name);
    config_setting_lookup_string(g, "per", &per);
    config_setting_lookup_string(g, "takes", &takes);
    config_setting_t *name_s = config_setting_get_member(g, "name");
    if (strlen(name) == 0 || strlen(name) >= sizeof fc->name || strspn(name, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(name))
        return dc_scenario_error_at(sc, name_s, err,
                                    "class names are 1 to %zu characters of a-z, 0-9 and _ (got \"%s\")",
                                    sizeof fc->name - 1, name);
    for (size_t k = 0; k < ci; k++)
        if (strcmp(m->classes[k].name, name) == 0)
            return dc_scenario_error_at(sc, name_s, err, "class \"%s\" is named twice", name);
    strcpy(fc->name, name);

    static const char *const bases[] = {"gpu", "node", "rack", "job", "job_gpu"};
    for (size_t k = 0; k < 5; k++)
        if (strcmp(per, bases[k]) == 0)
            fc->basis = (enum basis)k;
    bool job_basis = fc->basis == PER_JOB || fc->basis == PER_JOB_GPU;
    fc->takes = job_basis ? TAKES_JOB : fc->basis == PER_RACK ? TAKES_RACK : TAKES_NODE;
    if (takes) {
        enum takes t = strcmp(takes, "node") == 0 ? TAKES_NODE : strcmp(takes, "rack") == 0 ? TAKES_RACK : TAKES_JOB;
        bool ok = job_basis ? t == TAKES_JOB : fc->basis == PER_RACK ? t == TAKES_RACK : t != TAKES_JOB;
        if (!ok)
            return dc_scenario_error_at(sc, config_setting_get_member(g, "takes"), err,
                                        "a class per %s cannot take \"%s\" (per gpu/node: node or rack; per rack: rack; per job/job_gpu: job)",
                                        per, takes);
        fc->takes = t;
    }
    int rc = dc_dist_from_setting(sc, g, &fc->law, err);
    if (rc != DC_OK)
        return rc;
    if (job_basis && fc->law.kind != DC_DIST_EXPONENTIAL)
        return dc_scenario_error_at(sc, config_setting_get_member(g, "law"), err,
                                    "a class per %s must have law \"exponential\"", per);
    char stream[64];
    snprintf(stream, sizeof stream, "failure.%s", fc->name);
    fc->rng = dc_sim_rng(sim, stream);
    if (!fc->rng)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

/* The long-run rate a class puts on a job, for checkpoint policies. */
static void register_hazard(dc_cluster *c, const fclass *fc)
{
    double rate = 1.0 / dc_dist_mean(&fc->law);
    switch (fc->basis) {
    case PER_GPU:
        dc_cluster_add_hazard(c, rate * dc_cluster_gpus_per_node(c), 0, 0, 0);
        break;
    case PER_NODE:
        dc_cluster_add_hazard(c, rate, 0, 0, 0);
        break;
    case PER_RACK:
        dc_cluster_add_hazard(c, 0, rate, 0, 0);
        break;
    case PER_JOB:
        dc_cluster_add_hazard(c, 0, 0, rate, 0);
        break;
    case PER_JOB_GPU:
        dc_cluster_add_hazard(c, 0, 0, 0, rate);
        break;
    }
}

static int failure_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    failure_model *m = state;
    m->cluster = dc_cluster_of(sim);
    m->log = dc_sim_eventlog(sim);
    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    m->n_classes = list ? (size_t)config_setting_length(list) : 0;
    if (m->n_classes > 4096)
        return dc_scenario_error_at(sc, list, err, "at most 4096 failure classes (got %zu)", m->n_classes);
    m->classes = calloc(m->n_classes ? m->n_classes : 1, sizeof *m->classes);
    if (!m->classes)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++) {
        int rc = parse_class(m, sim, sc, config_setting_get_elem(list, (unsigned)i), i, err);
        if (rc != DC_OK)
            return rc;
        register_hazard(m->cluster, &m->classes[i]);
    }
    return DC_OK;
}

static int failure_start(void *state, dc_sim *sim, dc_error *err)
{
    failure_model *m = state;
    for (size_t i = 0; i < m->n_classes; i++) {
        fclass *fc = &m->classes[i];
        fc->units = class_units(m, fc);
        if (fc->units == 0)
            continue;
        if (fc->law.kind == DC_DIST_EXPONENTIAL) {
            dc_sim_after(sim, gsl_ran_exponential(fc->rng, fc->law.a / (double)fc->units), on_poisson, m, i);
        } else {
            if (fc->units > UNIT_MASK)
                return dc_error_set(err, DC_EINPUT, "failure class %s has too many units", fc->name);
            for (uint64_t u = 0; u < fc->units; u++)
                dc_sim_after(sim, dc_dist_sample(&fc->law, fc->rng), on_renewal, m,
                             ((uint64_t)i << UNIT_BITS) | u);
        }
    }
    return DC_OK;
}

static void failure_finish(void *state, dc_sim *sim)
{
    failure_model *m = state;
    dc_summary *s = dc_sim_summary(sim);
    uint64_t total = 0;
    for (size_t i = 0; i < m->n_classes; i++)
        total += m->classes[i].n_failures;
    dc_summary_set(s, "failures.total", (double)total, "", "failures of any class, on busy or spare nodes");
    for (size_t i = 0; i < m->n_classes; i++) {
        char key[80];
        snprintf(key, sizeof key, "failures.%s", m->classes[i].name);
        dc_summary_set(s, key, (double)m->classes[i].n_failures, "", "failures of this class");
    }
}

static void failure_destroy(void *state)
{
    failure_model *m = state;
    free(m->classes);
}

const dc_model_type dc_model_failure = {
    .name = "failure",
    .state_size = sizeof(failure_model),
    .params = dc_failure_params,
    .init = failure_init,
    .start = failure_start,
    .finish = failure_finish,
    .destroy = failure_destroy,
};
