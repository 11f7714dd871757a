/* The repair pipeline: tickets, crews, parts, repair-time laws, hot spares.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "repair.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>

#include "cfgget.h"
#include "cluster.h"
#include "dist.h"
#include "law_params.h"

#define MAX_PARTS 64
#define MAX_RETIRE_FAILURES 1000

const dc_param dc_repair_params[] = {
    {"repair", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "the repair pipeline: automation, crews, parts, retirement; absent: nothing is repaired"},
    {"repair.crews", DC_PARAM_INT, 0, "crews", 0, NULL, 0, 1e6, NULL,
     "repair crews working in parallel (0: unlimited)"},
    DC_LAW_PARAMS("repair", "lognormal", "manual repair time"),
    {"repair.auto_success", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "probability that automated remediation (reboot, reset, reimage) fixes a failure (0: always manual)"},
    {"repair.auto", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "law of the time automated remediation takes (needed when auto_success > 0)"},
    DC_LAW_PARAMS("repair.auto", "constant", "automated remediation time"),
    {"repair.misdiagnosis", DC_PARAM_FLOAT, 0, "", 0, NULL, 0, 1, NULL,
     "probability that a manual repair misses the fault and returns the node still faulty"},
    {"repair.refail_h", DC_PARAM_FLOAT, DC_PARAM_MIN_EXCLUSIVE, "h", 1, NULL, 0, 1e6, NULL,
     "mean time (exponential) from a misdiagnosed node's return to its repeat failure"},
    {"repair.parts", DC_PARAM_LIST, 0, "", 0, NULL, 0, 0, NULL,
     "spare-part stocks; a class names its part with failures.[].part"},
    {"repair.parts.[].name", DC_PARAM_STRING, DC_PARAM_REQUIRED, "", 0, NULL, 0, 0, NULL, "part name (unique)"},
    {"repair.parts.[].stock", DC_PARAM_INT, DC_PARAM_REQUIRED, "parts", 0, NULL, 0, 1e9, NULL,
     "parts on hand at the start"},
    {"repair.parts.[].reorder_point", DC_PARAM_INT, 0, "parts", 0, NULL, 0, 1e9, NULL,
     "order when the inventory position falls to this or below"},
    {"repair.parts.[].order_up_to", DC_PARAM_INT, DC_PARAM_NO_DEFAULT, "parts", 0, NULL, 1, 1e9, NULL,
     "an order brings the position back to this (default: stock); above reorder_point"},
    {"repair.parts.[].lead_time_h", DC_PARAM_FLOAT, 0, "h", 0, NULL, 0, 1e7, NULL,
     "time from an order to its delivery"},
    {"repair.retire", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "retire nodes that fail too often; absent: never"},
    {"repair.retire.failures", DC_PARAM_INT, DC_PARAM_REQUIRED, "", 0, NULL, 1, MAX_RETIRE_FAILURES, NULL,
     "K: a node's K-th failure within the window retires it"},
    {"repair.retire.window_days", DC_PARAM_FLOAT, DC_PARAM_REQUIRED | DC_PARAM_MIN_EXCLUSIVE, "days", 0, NULL, 0,
     1e6, NULL, "the window"},
    {"repair.retire.replace_days", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "days", 0, NULL, 0, 1e6, NULL,
     "a new node replaces a retired one this long after (absent: never)"},
    {"failures.[].auto_success", DC_PARAM_FLOAT, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 1, NULL,
     "probability automated remediation fixes this class (default: repair.auto_success)"},
    {"failures.[].auto", DC_PARAM_GROUP, 0, "", 0, NULL, 0, 0, NULL,
     "automated remediation time for this class (default: repair.auto)"},
    DC_LAW_PARAMS("failures.[].auto", "constant", "automated remediation time"),
    {"failures.[].part", DC_PARAM_STRING, DC_PARAM_NO_DEFAULT, "", 0, NULL, 0, 0, NULL,
     "spare part a manual repair of this class uses (a repair.parts name; absent: none)"},
    {0},
};

typedef struct ticket {
    struct repair_model *m;
    uint32_t *nodes;     /* &one for a single node, else its own block */
    struct ticket *next; /* while on the free list */
    uint32_t one;
    size_t n_nodes;
    int class_id;
    double failed_s, queued_s, parts_since_s;
    size_t live_index;
    bool has_part;
} ticket;

typedef struct tqueue {
    ticket **q;
    size_t head, len, cap; /* cap 0 or a power of two (64, doubling): indices wrap by a mask, not a division */
} tqueue;

typedef struct class_cfg {
    dc_dist law, auto_law;
    bool has_auto_law;
    double auto_success;
    int part;
    gsl_rng *rng, *rng_auto;
    char name[DC_EVENTLOG_COMPONENT_LEN];
} class_cfg;

typedef struct part_stock {
    char name[32];
    long on_hand, on_order, reorder_point, order_up_to;
    double lead_s;
    tqueue waiting;
    uint64_t used, stockouts, orders;
} part_stock;

typedef struct repair_model {
    bool enabled;
    dc_sim *sim;
    dc_cluster *cluster;
    dc_eventlog *log;
    int crews; /* 0 = unlimited */
    int busy;

    class_cfg *classes;
    size_t n_classes;
    part_stock parts[MAX_PARTS];
    size_t n_parts;
    int reason_parts;

    double misdiagnosis, refail_mean_s;
    gsl_rng *rng_misdiag;

    int retire_k;
    double retire_window_s, replace_s;
    bool retire, replace;
    double *fail_times; /* K per node, a ring */
    uint16_t *fail_head, *fail_n;

    tqueue queue, ready; /* waiting for a crew; ready: parts arrived, served first */
    ticket **live;       /* every ticket not yet closed, to free at the end */
    size_t n_live, live_cap;
    ticket *free_tickets; /* closed tickets kept for reuse: a failure's ticket costs no malloc */

    uint64_t n_tickets, n_started, n_manual_done, n_auto_tries, n_auto_fixed, n_misdiag, n_retired, n_replaced;
    uint64_t n_closed, n_parts_waits;
    double wait_s, duration_s, busy_crew_s, last_change_s, ttr_s, parts_wait_s;
    size_t max_queue;
    dc_series *series_queue;
} repair_model;

static bool tq_push(tqueue *t, ticket *x)
{
    if (t->len == t->cap) {
        size_t ncap = t->cap ? 2 * t->cap : 64;
        ticket **q = malloc(ncap * sizeof *q);
        if (!q)
            return false;
        for (size_t i = 0; i < t->len; i++)
            q[i] = t->q[(t->head + i) & (t->cap - 1)];
        free(t->q);
        t->q = q;
        t->head = 0;
        t->cap = ncap;
    }
    t->q[(t->head + t->len++) & (t->cap - 1)] = x;
    return true;
}

static ticket *tq_pop(tqueue *t)
{
    ticket *x = t->q[t->head];
    t->head = (t->head + 1) & (t->cap - 1);
    t->len--;
    return x;
}

static void bank(repair_model *m, double now)
{
    m->busy_crew_s += (now - m->last_change_s) * m->busy;
    m->last_change_s = now;
}

static void record_queue(repair_model *m)
{
    dc_series_record(m->series_queue, dc_sim_now(m->sim), (double)(m->queue.len + m->ready.len));
}

static void close_ticket(repair_model *m, ticket *t)
{
    m->live[t->live_index] = m->live[--m->n_live];
    m->live[t->live_index]->live_index = t->live_index;
    if (t->nodes != &t->one)
        free(t->nodes);
    t->next = m->free_tickets;
    m->free_tickets = t;
}

/* Closes the ticket and gives its nodes back with what the repair did. */
static void give_back(repair_model *m, ticket *t, bool as_new, bool still_faulty, double refail_s)
{
    /* The nodes leave the ticket with their block (any size: a failure's
     * nodes, as many as it took), freed once they are back; a single node
     * is copied, the ticket's own field being reused by the next ticket. */
    uint32_t one = t->one, *nodes = t->nodes == &t->one ? &one : t->nodes;
    size_t n = t->n_nodes;
    t->nodes = &t->one;
    int cls = t->class_id;
    m->ttr_s += dc_sim_now(m->sim) - t->failed_s;
    m->n_closed++;
    /* Close before the nodes come back: a job taking them may fail them again
     * at once, opening a new ticket. */
    close_ticket(m, t);
    dc_nodes_event ev = {nodes, n, cls, as_new, still_faulty, refail_s, false};
    dc_cluster_returned(m->cluster, &ev);
    if (nodes != &one)
        free(nodes);
}

static void on_parts(dc_sim *sim, void *ctx, uint64_t arg);

static void reorder_check(repair_model *m, size_t p)
{
    part_stock *ps = &m->parts[p];
    long position = ps->on_hand + ps->on_order - (long)ps->waiting.len;
    if (position > ps->reorder_point)
        return;
    long qty = ps->order_up_to - position;
    if (qty <= 0)
        return;
    ps->on_order += qty;
    ps->orders++;
    dc_sim_after(m->sim, ps->lead_s, on_parts, m, (uint64_t)p | ((uint64_t)qty << 16));
}

static void on_manual_done(dc_sim *sim, void *ctx, uint64_t arg);

/* A free crew takes t; false if t must wait for a part instead. */
static bool start_manual(repair_model *m, ticket *t)
{
    double now = dc_sim_now(m->sim);
    class_cfg *cl = &m->classes[t->class_id];
    m->wait_s += now - t->queued_s;
    if (cl->part >= 0 && !t->has_part) {
        part_stock *ps = &m->parts[cl->part];
        if (ps->on_hand > 0) {
            ps->on_hand--;
            ps->used++;
            t->has_part = true;
            reorder_check(m, (size_t)cl->part);
        } else {
            ps->stockouts++;
            m->n_parts_waits++;
            t->parts_since_s = now;
            for (size_t i = 0; i < t->n_nodes; i++)
                dc_cluster_set_down_reason(m->cluster, t->nodes[i], m->reason_parts);
            if (!tq_push(&ps->waiting, t))
                dc_sim_fail(m->sim, DC_ENOMEM, "out of memory queueing a ticket for parts");
            dc_eventlog_add(m->log, now, "parts_wait", cl->name, (int32_t)t->nodes[0], -1, (double)cl->part);
            reorder_check(m, (size_t)cl->part);
            return false;
        }
    }
    bank(m, now);
    m->busy++;
    m->n_started++;
    double d = dc_dist_sample(&cl->law, cl->rng);
    m->duration_s += d;
    dc_eventlog_add(m->log, now, "repair_start", cl->name, (int32_t)t->nodes[0], -1, now - t->queued_s);
    dc_sim_after(m->sim, d, on_manual_done, t, 0);
    return true;
}

static void dispatch(repair_model *m)
{
    bool changed = false;
    while ((m->crews == 0 || m->busy < m->crews) && (m->ready.len > 0 || m->queue.len > 0)) {
        ticket *t = m->ready.len > 0 ? tq_pop(&m->ready) : tq_pop(&m->queue);
        changed = true;
        start_manual(m, t);
    }
    if (changed)
        record_queue(m);
}

static void to_manual(repair_model *m, ticket *t)
{
    t->queued_s = dc_sim_now(m->sim);
    if (!tq_push(&m->queue, t)) {
        dc_sim_fail(m->sim, DC_ENOMEM, "out of memory queueing a repair ticket");
        return;
    }
    if (m->queue.len + m->ready.len > m->max_queue && !(m->crews == 0 || m->busy < m->crews))
        m->max_queue = m->queue.len + m->ready.len;
    record_queue(m);
    dispatch(m);
}

static void on_manual_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    ticket *t = ctx;
    repair_model *m = t->m;
    double now = dc_sim_now(sim);
    bank(m, now);
    m->busy--;
    m->n_manual_done++;
    bool missed = m->misdiagnosis > 0.0 && gsl_rng_uniform(m->rng_misdiag) < m->misdiagnosis;
    double refail_s = 0.0;
    if (missed) {
        m->n_misdiag++;
        refail_s = gsl_ran_exponential(m->rng_misdiag, m->refail_mean_s);
    }
    dc_eventlog_add(m->log, now, missed ? "misdiagnosed" : "repair_done", m->classes[t->class_id].name,
                    (int32_t)t->nodes[0], -1, (double)t->n_nodes);
    ticket *done = t;
    dispatch(m);
    give_back(m, done, !missed, missed, refail_s);
}

static void on_auto_done(dc_sim *sim, void *ctx, uint64_t arg)
{
    ticket *t = ctx;
    repair_model *m = t->m;
    class_cfg *cl = &m->classes[t->class_id];
    if (gsl_rng_uniform(cl->rng_auto) < cl->auto_success) {
        m->n_auto_fixed++;
        dc_eventlog_add(m->log, dc_sim_now(sim), "auto_fixed", cl->name, (int32_t)t->nodes[0], -1,
                        (double)t->n_nodes);
        give_back(m, t, false, false, 0.0);
        return;
    }
    to_manual(m, t);
}

static void on_parts(dc_sim *sim, void *ctx, uint64_t arg)
{
    repair_model *m = ctx;
    size_t p = (size_t)(arg & 0xffff);
    long qty = (long)(arg >> 16);
    part_stock *ps = &m->parts[p];
    ps->on_hand += qty;
    ps->on_order -= qty;
    double now = dc_sim_now(sim);
    while (ps->on_hand > 0 && ps->waiting.len > 0) {
        ticket *t = tq_pop(&ps->waiting);
        ps->on_hand--;
        ps->used++;
        t->has_part = true;
        m->parts_wait_s += now - t->parts_since_s;
        for (size_t i = 0; i < t->n_nodes; i++)
            dc_cluster_set_down_reason(m->cluster, t->nodes[i], 0);
        t->queued_s = now;
        if (!tq_push(&m->ready, t))
            dc_sim_fail(sim, DC_ENOMEM, "out of memory queueing a repair ticket");
    }
    reorder_check(m, p);
    record_queue(m);
    dispatch(m);
}

static void on_replace(dc_sim *sim, void *ctx, uint64_t node)
{
    repair_model *m = ctx;
    m->n_replaced++;
    m->fail_n[node] = 0;
    dc_eventlog_add(m->log, dc_sim_now(sim), "replace", "", (int32_t)node, -1, 0.0);
    dc_cluster_replace_retired(m->cluster, (uint32_t)node);
}

/* Records a failure of node at t; true if it is the K-th within the window. */
static bool retire_due(repair_model *m, uint32_t node, double t)
{
    size_t k = (size_t)m->retire_k;
    double *times = m->fail_times + (size_t)node * k;
    times[(m->fail_head[node] + m->fail_n[node]) % k] = t;
    if (m->fail_n[node] < k)
        m->fail_n[node]++;
    else
        m->fail_head[node] = (uint16_t)((m->fail_head[node] + 1) % k);
    return m->fail_n[node] == k && times[m->fail_head[node]] >= t - m->retire_window_s;
}

static void open_ticket(repair_model *m, ticket *t)
{
    double now = dc_sim_now(m->sim);
    class_cfg *cl = &m->classes[t->class_id];
    m->n_tickets++;
    dc_eventlog_add(m->log, now, "ticket", cl->name, (int32_t)t->nodes[0], -1, t->failed_s);
    if (m->retire && t->n_nodes == 1 && retire_due(m, t->nodes[0], t->failed_s)) {
        uint32_t node = t->nodes[0];
        m->n_retired++;
        dc_eventlog_add(m->log, now, "retire", cl->name, (int32_t)node, -1, (double)m->retire_k);
        close_ticket(m, t);
        dc_cluster_retire(m->cluster, node);
        if (m->replace)
            dc_sim_after(m->sim, m->replace_s, on_replace, m, node);
        return;
    }
    if (cl->auto_success > 0.0) {
        m->n_auto_tries++;
        dc_sim_after(m->sim, dc_dist_sample(&cl->auto_law, cl->rng_auto), on_auto_done, t, 0);
        return;
    }
    to_manual(m, t);
}

static void on_open(dc_sim *sim, void *ctx, uint64_t arg)
{
    ticket *t = ctx;
    open_ticket(t->m, t);
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
    if (ev->n_nodes == 0 || ev->class_id < 0 || (size_t)ev->class_id >= m->n_classes)
        return;
    if (ev->return_s > 0.0) /* a logged failure with its repair time: its sender returns the nodes */
        return;
    ticket *t = m->free_tickets;
    if (!t)
        t = malloc(sizeof *t);
    uint32_t *nodes = t && ev->n_nodes > 1 ? malloc(ev->n_nodes * sizeof *nodes) : t ? &t->one : NULL;
    if (!t || !nodes || (m->n_live == m->live_cap && !grow((void ***)&m->live, &m->live_cap))) {
        if (t && nodes != &t->one)
            free(nodes);
        if (t && t != m->free_tickets)
            free(t);
        dc_sim_fail(sim, DC_ENOMEM, "out of memory opening a repair ticket");
        return;
    }
    if (t == m->free_tickets)
        m->free_tickets = t->next;
    memcpy(nodes, ev->nodes, ev->n_nodes * sizeof *nodes);
    *t = (ticket){.m = m, .nodes = nodes, .one = nodes[0], .n_nodes = ev->n_nodes, .class_id = ev->class_id,
                  .failed_s = dc_sim_now(sim), .live_index = m->n_live};
    m->live[m->n_live++] = t;
    if (ev->detect_s > 0.0)
        dc_sim_after(sim, ev->detect_s, on_open, t, 0);
    else
        open_ticket(m, t);
}

static int read_parts(repair_model *m, const dc_scenario *sc, config_setting_t *list, dc_error *err)
{
    m->n_parts = list ? (size_t)config_setting_length(list) : 0;
    if (m->n_parts > MAX_PARTS)
        return dc_scenario_error_at(sc, list, err, "at most %d part stocks (got %zu)", MAX_PARTS, m->n_parts);
    for (size_t i = 0; i < m->n_parts; i++) {
        config_setting_t *g = config_setting_get_elem(list, (unsigned)i);
        part_stock *ps = &m->parts[i];
        const char *name = "";
        int stock = 0, rp = 0, upto;
        double lead_h = 0;
        dc_cfg_lookup_string(g, "name", &name);
        dc_cfg_lookup_int(g, "stock", &stock);
        dc_cfg_lookup_int(g, "reorder_point", &rp);
        if (!dc_cfg_lookup_int(g, "order_up_to", &upto))
            upto = stock;
        dc_cfg_lookup_float(g, "lead_time_h", &lead_h);
        if (strlen(name) == 0 || strlen(name) >= sizeof ps->name)
            return dc_scenario_error_at(sc, dc_cfg_member(g, "name"), err,
                                        "part names are 1 to %zu characters (got \"%s\")", sizeof ps->name - 1, name);
        for (size_t k = 0; k < i; k++)
            if (strcmp(m->parts[k].name, name) == 0)
                return dc_scenario_error_at(sc, dc_cfg_member(g, "name"), err,
                                            "part \"%s\" is named twice", name);
        if (upto <= rp)
            return dc_scenario_error_at(sc, dc_cfg_member(g, dc_cfg_member(g, "order_up_to") ? "order_up_to" : "stock"), err,
                                        "an order must bring the stock of \"%s\" above its reorder point %d "
                                        "(order_up_to, by default the initial stock, is %d)",
                                        name, rp, upto);
        snprintf(ps->name, sizeof ps->name, "%s", name);
        ps->on_hand = stock;
        ps->reorder_point = rp;
        ps->order_up_to = upto;
        ps->lead_s = lead_h * 3600.0;
    }
    return DC_OK;
}

static int read_class(repair_model *m, dc_sim *sim, const dc_scenario *sc, config_setting_t *fc, size_t i,
                      const dc_dist *def, bool has_def, const dc_error *def_err, const dc_dist *auto_def,
                      bool has_auto_def, double auto_success, dc_error *err)
{
    class_cfg *cl = &m->classes[i];
    const char *name = "", *part = NULL;
    dc_cfg_lookup_string(fc, "name", &name);
    snprintf(cl->name, sizeof cl->name, "%s", name);
    config_setting_t *rg = dc_cfg_member(fc, "repair");
    if (rg) {
        int rc = dc_dist_from_setting(sc, rg, &cl->law, err);
        if (rc != DC_OK)
            return rc;
    } else if (has_def) {
        cl->law = *def;
    } else {
        /* The default law's own message (FILE:LINE: repair: ...), then
         * which class took it: the message keeps the shape of every other. */
        if (err) {
            *err = *def_err;
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     " (the repair law of failure class \"%s\", which has no failures.[%zu].repair group)", name, i);
        }
        return DC_EINPUT;
    }
    cl->auto_success = auto_success;
    dc_cfg_lookup_float(fc, "auto_success", &cl->auto_success);
    config_setting_t *ag = dc_cfg_member(fc, "auto");
    if (ag) {
        int rc = dc_dist_from_setting(sc, ag, &cl->auto_law, err);
        if (rc != DC_OK)
            return rc;
        cl->has_auto_law = true;
    } else if (has_auto_def) {
        cl->auto_law = *auto_def;
        cl->has_auto_law = true;
    }
    if (cl->auto_success > 0.0 && !cl->has_auto_law)
        return dc_scenario_error_at(sc, dc_cfg_member(fc, "auto_success") ? dc_cfg_member(fc, "auto_success") : fc, err,
                                    "automated remediation of \"%s\" (auto_success %g) needs its duration: a "
                                    "repair.auto group or failures.[%zu].auto",
                                    name, cl->auto_success, i);
    cl->part = -1;
    if (dc_cfg_lookup_string(fc, "part", &part)) {
        for (size_t k = 0; k < m->n_parts; k++)
            if (strcmp(m->parts[k].name, part) == 0)
                cl->part = (int)k;
        if (cl->part < 0)
            return dc_scenario_error_at(sc, dc_cfg_member(fc, "part"), err,
                                        "no part \"%s\" in repair.parts", part);
    }
    char stream[64];
    snprintf(stream, sizeof stream, "repair.%s", cl->name);
    cl->rng = dc_sim_rng(sim, stream);
    snprintf(stream, sizeof stream, "repair.%s.auto", cl->name);
    cl->rng_auto = dc_sim_rng(sim, stream);
    if (!cl->rng || !cl->rng_auto)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    return DC_OK;
}

static int repair_init(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err)
{
    repair_model *m = state;
    config_setting_t *g = dc_scenario_lookup(sc, "repair");
    if (!g)
        return DC_OK;
    m->enabled = true;
    m->sim = sim;
    m->cluster = dc_cluster_of(sim);
    m->log = dc_sim_eventlog(sim);
    dc_cfg_lookup_int(g, "crews", &m->crews);
    double refail_h = 1.0, auto_success = 0.0;
    dc_cfg_lookup_float(g, "misdiagnosis", &m->misdiagnosis);
    dc_cfg_lookup_float(g, "refail_h", &refail_h);
    dc_cfg_lookup_float(g, "auto_success", &auto_success);
    m->refail_mean_s = refail_h * 3600.0;

    int rc = read_parts(m, sc, dc_cfg_member(g, "parts"), err);
    if (rc != DC_OK)
        return rc;
    config_setting_t *rt = dc_cfg_member(g, "retire");
    if (rt) {
        double window_d = 0, replace_d;
        dc_cfg_lookup_int(rt, "failures", &m->retire_k);
        dc_cfg_lookup_float(rt, "window_days", &window_d);
        m->retire_window_s = window_d * 86400.0;
        m->replace = dc_cfg_lookup_float(rt, "replace_days", &replace_d);
        m->replace_s = m->replace ? replace_d * 86400.0 : 0.0;
        m->retire = true;
        uint32_t n = dc_cluster_node_count(m->cluster);
        m->fail_times = malloc((size_t)n * (size_t)m->retire_k * sizeof *m->fail_times);
        m->fail_head = calloc(n, sizeof *m->fail_head);
        m->fail_n = calloc(n, sizeof *m->fail_n);
        if (!m->fail_times || !m->fail_head || !m->fail_n)
            return dc_error_set(err, DC_ENOMEM, "out of memory for the retirement policy");
    }

    /* The default laws are needed only by classes without their own. */
    dc_dist def, auto_def;
    dc_error def_err = {0}, auto_err = {0};
    bool has_def = dc_dist_from_setting(sc, g, &def, &def_err) == DC_OK;
    config_setting_t *ag = dc_cfg_member(g, "auto");
    bool has_auto_def = false;
    if (ag) {
        rc = dc_dist_from_setting(sc, ag, &auto_def, &auto_err);
        if (rc != DC_OK) {
            if (err)
                *err = auto_err;
            return rc;
        }
        has_auto_def = true;
    }

    config_setting_t *list = dc_scenario_lookup(sc, "failures");
    m->n_classes = list ? (size_t)config_setting_length(list) : 0;
    m->classes = calloc(m->n_classes ? m->n_classes : 1, sizeof *m->classes);
    if (!m->classes)
        return dc_error_set(err, DC_ENOMEM, "out of memory");
    for (size_t i = 0; i < m->n_classes; i++) {
        rc = read_class(m, sim, sc, config_setting_get_elem(list, (unsigned)i), i, &def, has_def, &def_err,
                        &auto_def, has_auto_def, auto_success, err);
        if (rc != DC_OK)
            return rc;
    }
    m->rng_misdiag = dc_sim_rng(sim, "repair.misdiagnosis");
    m->reason_parts = m->n_parts > 0 ? dc_cluster_down_reason(m->cluster, "parts_wait") : 0;
    m->series_queue = dc_sim_series(sim, "repair_queue", "tickets", "failures waiting for a repair crew");
    int sig = dc_sim_signal(sim, "failure");
    if (!m->rng_misdiag || m->reason_parts < 0 || !m->series_queue || sig < 0
        || dc_sim_subscribe(sim, sig, on_failure, m) != DC_OK)
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
    dc_summary_set(s, "repair.tickets", (double)m->n_tickets, "",
                   "repairs opened (one per failure that took nodes, once noticed)");
    dc_summary_set(s, "repair.completed", (double)m->n_closed, "", "nodes given back (automated or manual)");
    dc_summary_set(s, "repair.auto_attempts", (double)m->n_auto_tries, "", "automated remediations tried");
    dc_summary_set(s, "repair.auto_fixed", (double)m->n_auto_fixed, "", "failures fixed by automated remediation");
    dc_summary_set(s, "repair.auto_share", m->n_closed ? (double)m->n_auto_fixed / (double)m->n_closed : NAN, "",
                   "share of completed repairs done by automation");
    dc_summary_set(s, "repair.manual", (double)m->n_manual_done, "", "manual repairs finished");
    dc_summary_set(s, "repair.misdiagnosed", (double)m->n_misdiag, "",
                   "manual repairs that returned the node still faulty");
    dc_summary_set(s, "repair.mean_wait_h", m->n_started ? m->wait_s / (double)m->n_started / 3600.0 : 0.0, "h",
                   "mean time a manual repair waited for a crew (not counting parts)");
    dc_summary_set(s, "repair.max_queue", (double)m->max_queue, "", "most failures waiting for a crew at once");
    dc_summary_set(s, "repair.mean_duration_h", m->n_started ? m->duration_s / (double)m->n_started / 3600.0 : 0.0,
                   "h", "mean time a crew spent on a repair");
    dc_summary_set(s, "repair.crew_utilization",
                   m->crews > 0 && now > 0 ? m->busy_crew_s / (m->crews * now) : 0.0, "",
                   "fraction of crew time spent repairing (0 with unlimited crews)");
    dc_summary_set(s, "repair.mean_time_to_repair_h", m->n_closed ? m->ttr_s / (double)m->n_closed / 3600.0 : NAN,
                   "h", "mean time from a failure to the node's return");
    dc_summary_set(s, "repair.retired", (double)m->n_retired, "nodes", "nodes retired by the retirement policy");
    dc_summary_set(s, "repair.replaced", (double)m->n_replaced, "nodes", "retired nodes replaced by new ones");
    uint64_t stockouts = 0, orders = 0;
    for (size_t p = 0; p < m->n_parts; p++) {
        stockouts += m->parts[p].stockouts;
        orders += m->parts[p].orders;
    }
    double waiting_now_s = 0.0;
    for (size_t p = 0; p < m->n_parts; p++)
        for (size_t i = 0; i < m->parts[p].waiting.len; i++)
            waiting_now_s += now - m->parts[p].waiting.q[(m->parts[p].waiting.head + i) % m->parts[p].waiting.cap]->parts_since_s;
    dc_summary_set(s, "parts.stockouts", (double)stockouts, "", "repairs that found their part out of stock");
    dc_summary_set(s, "parts.orders", (double)orders, "", "part orders placed");
    dc_summary_set(s, "repair.parts_wait_h", (m->parts_wait_s + waiting_now_s) / 3600.0, "h",
                   "ticket-hours spent waiting for parts");
    dc_summary_set(s, "repair.mean_parts_wait_h",
                   m->n_parts_waits ? (m->parts_wait_s + waiting_now_s) / (double)m->n_parts_waits / 3600.0 : 0.0, "h",
                   "mean wait of the repairs that waited for a part");
    for (size_t p = 0; p < m->n_parts; p++) {
        char key[80];
        snprintf(key, sizeof key, "parts.%s.used", m->parts[p].name);
        dc_summary_set(s, key, (double)m->parts[p].used, "parts", "parts of this kind used by repairs");
        snprintf(key, sizeof key, "parts.%s.on_hand", m->parts[p].name);
        dc_summary_set(s, key, (double)m->parts[p].on_hand, "parts", "parts of this kind on hand at the end");
    }
}

static void repair_destroy(void *state)
{
    repair_model *m = state;
    for (size_t i = 0; i < m->n_live; i++) {
        if (m->live[i]->nodes != &m->live[i]->one)
            free(m->live[i]->nodes);
        free(m->live[i]);
    }
    while (m->free_tickets) {
        ticket *t = m->free_tickets;
        m->free_tickets = t->next;
        free(t);
    }
    free(m->live);
    free(m->queue.q);
    free(m->ready.q);
    for (size_t p = 0; p < m->n_parts; p++)
        free(m->parts[p].waiting.q);
    free(m->classes);
    free(m->fail_times);
    free(m->fail_head);
    free(m->fail_n);
}

const dc_model_type dc_model_repair = {
    .name = "repair",
    .state_size = sizeof(repair_model),
    .params = dc_repair_params,
    .init = repair_init,
    .finish = repair_finish,
    .destroy = repair_destroy,
};
