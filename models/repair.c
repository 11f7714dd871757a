/* dcsim - discrete-event simulator of AI datacenters.
 * Copyright (C) 2026 the dcsim developers.
 * SPDX-License-Identifier: GPL-3.0-or-later
 * This program is free software: you can redistribute it and/or modify it
 * under the terms of the GNU General Public License, version 3 or later;
 * see the file COPYING. */
#include "repair.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster.h"
#include "dist.h"
#include "law_params.h"

const dc_param dc_repair_params[] = {
    {"repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "repair crews and the default repair-time law; absent: nothing is repaired"},
    {"repair.crews", DC_PARAM_INT, 0, "crews", 0, NULL, 0, 1e6, NULL,
     "repair crews working in parallel (0: unlimited)"},
    DC_LAW_PARAMS("repair", "lognormal", "repair time"),
    {0},
};

typedef struct ticket {
    struct repair_model *m;
    uint32_t *nodes;
    size_t n_nodes;
    int class_id;
    double opened_s;
    size_t live_index;
} ticket;

typedef struct class_law {
    dc_dist law;
    bool has_law;
    gsl_rng *rng;
    char name[DC_EVENTLOG_COMPONENT_LEN];
} class_law;

typedef struct repair_model {
    bool enabled;
    dc_cluster *cluster;
    dc_eventlog *log;
    int crews; /* 0 = unlimited */
    int busy;

    class_law *classes;
    size_t n_classes;

    ticket **queue; /* ring of waiting tickets */
    size_t q_head, q_len, q_cap;
    ticket **live;  /* every ticket not yet closed, to free at the end */
    size_t n_live, live_cap;

    uint64_t n_tickets, n_started, n_done;
    double wait_s, duration_s, busy_crew_s, last_change_s;
    size_t max_queue;
    dc_series *series_queue;
} repair_model;

static void bank(repair_model *m, double now)
{
    m->busy_crew_s += (now - m->last_change_s) * m->busy;
    m->last_change_s = now;
}

static void on_done(dc_sim *sim, void *ctx, uint64_t arg);

static void start_repair(dc_sim *sim, repair_model *m, ticket *t)
{
    double now = dc_sim_now(sim);
    bank(m, now);
    m->busy++;
    m->n_started++;
    m->wait_s += now - t->opened_s;
    class_law *cl = &m->classes[t->class_id];
    double d = dc_dist_sample(&cl->law, cl->rng);
    m->duration_s += d;
    dc_eventlog_add(m->log, now, "repair_start", cl->name, (int32_t)t->nodes[0], -1, now - t->opened_s);
    dc_sim_after(sim, d, on_done, t, 0);
}

static void record_queue(dc_sim *sim, repair_model *m)
{
    dc_series_record(m->series_queue, dc_sim_now(sim), (double)m->q_len);
}

static void on_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    ticket *t = ctx;
    repair_model *m = t->m;
    double now = dc_sim_now(sim);
    bank(m, now);
    m->busy--;
    m->n_done++;
    dc_eventlog_add(m->log, now, "repair_done", m->classes[t->class_id].name, (int32_t)t->nodes[0], -1,
                    (double)t->n_nodes);
    /* Close the ticket before the nodes come back: a job taking them may
     * fail them again at once, opening a new ticket. */
    m->live[t->live_index] = m->live[--m->n_live];
    m->live[t->live_index]->live_index = t->live_index;
    uint32_t nodes[1024];
    size_t n = t->n_nodes;
    memcpy(nodes, t->nodes, n * sizeof nodes[0]);
    free(t->nodes);
    free(t);
    if (m->q_len > 0) {
        ticket *next = m->queue[m->q_head];
        m->q_head = (m->q_head + 1) % m->q_cap;
        m->q_len--;
        record_queue(sim, m);
        start_repair(sim, m, next);
    }
    dc_cluster_repaired(m->cluster, nodes, n);
}

static bool grow(void ***arr, size_t *cap)
{
    size_t ncap = *cap ? *cap * 2 : 64;
    void **g = realloc(*arr, ncap * sizeof *g);
    if (!g)
        return false;
    *arr = g;
    *cap = ncap;
    return true;
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    repair_model *m = ctx;
    const dc_failure_event *ev = payload;
    /* class_id < 0: not a class of the failures list (a thermal shutdown);
     * the model that took the nodes down brings them back. */
    if (ev->n_nodes == 0 || ev->class_id < 0 || (size_t)ev->class_id >= m->n_classes)
        return;
    ticket *t = calloc(1, sizeof *t);
    uint32_t *nodes = malloc(ev->n_nodes * sizeof *nodes);
    if (!t || !nodes || (m->n_live == m->live_cap && !grow((void ***)&m->live, &m->live_cap))) {
        free(t);
        free(nodes);
        dc_sim_fail(sim, DC_ENOMEM, "out of memory opening a repair ticket");
        return;
    }
    memcpy(nodes, ev->nodes, ev->n_nodes * sizeof *nodes);
    *t = (ticket){m, nodes, ev->n_nodes, ev->class_id, dc_sim_now(sim), m->n_live};
    m->live[m->n_live++] = t;
    m->n_tickets++;
    if (m->crews == 0 || m->busy < m->crews) {
        start_repair(sim, m, t);
        return;
    }
    if (m->q_len == m->q_cap) {
        /* Unroll the ring into a larger buffer. */
        size_t old_cap = m->q_cap;
        ticket **old = m->queue;
        ticket **q = malloc((old_cap ? old_cap * 2 : 64) * sizeof *q);
        if (!q) {
            dc_sim_fail(sim, DC_ENOMEM, "out of memory queueing a repair ticket");
            return;
        }
        for (size_t i = 0; i < m->q_len; i++)
            q[i] = old[(m->q_head + i) % old_cap];
        free(old);
        m->queue = q;
        m->q_head = 0;
        m->q_cap = old_cap ? old_cap * 2 : 64;
    }
    m->queue[(m->q_head + m->q_len) % m->q_cap] = t;
    m->q_len++;
    if (m->q_len > m->max_queue)
        m->max_queue = m->q_len;
    record_queue(sim, m);
}

static int repair_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    repair_model *m = state;
    config_setting_t *g = dc_scenario_lookup(sc, "repair");
    if (!g)
        return DC_OK;
    m->enabled = true;
    m->cluster = dc_cluster_of(sim);
    m->log = dc_sim_eventlog(sim);
    config_setting_lookup_int(g, "crews", &m->crews);

    /* The default law is needed only by classes without their own. */
    dc_dist def;
    dc_error def_err = {0};
    bool has_def = dc_dist_from_setting(sc, g, &def, &def_err) == DC_OK;

    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    m->n_classes = list ? (size_t)config_setting_length(list) : 0;
    m->classes = calloc(m->n_classes ? m->n_classes : 1, sizeof *m->classes);
    if (!m->classes)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++) {
        config_setting_t *fc = config_setting_get_elem(list, (unsigned)i);
        class_law *cl = &m->classes[i];
        const char *name = "";
        config_setting_lookup_string(fc, "name", &name);
        snprintf(cl->name, sizeof cl->name, "%s", name);
        config_setting_t *rg = config_setting_get_member(fc, "repair");
        if (rg) {
            int rc = dc_dist_from_setting(sc, rg, &cl->law, err);
            if (rc != DC_OK)
                return rc;
        } else if (has_def) {
            cl->law = def;
        } else {
            if (err)
                *err = def_err;
            dc_error_prefix(err, "repair law for failure class \"%s\" (no failures.[%zu].repair group)",
                            name, i);
            return DC_EINPUT;
        }
        char stream[64];
        snprintf(stream, sizeof stream, "repair.%s", cl->name);
        cl->rng = dc_sim_rng(sim, stream);
        if (!cl->rng)
            return dc_error_set(err, DC_ENOMEM, "out of memory");
    }
    m->series_queue = dc_sim_series(sim, "repair_queue", "tickets", "failures waiting for a repair crew");
    int sig = dc_sim_signal(sim, "failure");
    if (!m->series_queue || sig < 0 || dc_sim_subscribe(sim, sig, on_failure, m) != DC_OK)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static void repair_finish(void *state, dc_sim *sim)
{
    repair_model *m = state;
    if (!m->enabled)
        return;
    double now = dc_sim_now(sim);
    bank(m, now);
    dc_summary *s = dc_sim_summary(sim);
    dc_summary_set(s, "repair.tickets", (double)m->n_tickets, "", "repairs opened (one per failure that took nodes)");
    dc_summary_set(s, "repair.completed", (double)m->n_done, "", "repairs finished");
    dc_summary_set(s, "repair.mean_wait_h", m->n_started ? m->wait_s / m->n_started / 3600.0 : 0.0, "h",
                   "mean time a failure waited for a crew");
    dc_summary_set(s, "repair.max_queue", (double)m->max_queue, "", "most failures waiting for a crew at once");
    dc_summary_set(s, "repair.mean_duration_h", m->n_started ? m->duration_s / m->n_started / 3600.0 : 0.0, "h",
                   "mean time a crew spent on a repair");
    dc_summary_set(s, "repair.crew_utilization",
                   m->crews > 0 && now > 0 ? m->busy_crew_s / (m->crews * now) : 0.0, "",
                   "fraction of crew time spent repairing (0 with unlimited crews)");
}

static void repair_destroy(void *state)
{
    repair_model *m = state;
    for (size_t i = 0; i < m->n_live; i++) {
        free(m->live[i]->nodes);
        free(m->live[i]);
    }
    free(m->live);
    free(m->queue);
    free(m->classes);
}

const dc_model_type dc_model_repair = {
    .name = "repair",
    .state_size = sizeof(repair_model),
    .params = dc_repair_params,
    .init = repair_init,
    .finish = repair_finish,
    .destroy = repair_destroy,
};
