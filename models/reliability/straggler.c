/* Fail-slow nodes: the job runs at its slowest node's pace until the straggler is evicted.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "straggler.h"

#include <stdlib.h>

typedef struct slow_node {
    uint32_t node;
    double factor;
    int class_id;
    const char *class_name;
    double since_s;
    bool evict;
    dc_event_handle detect;
} slow_node;

struct dc_straggler {
    dc_sim *sim;
    dc_cluster *cluster;
    dc_eventlog *log;
    int source;
    /* Slow nodes are few: a list, and each node's place in it (-1: not slow). */
    slow_node *list;
    size_t n, cap;
    int32_t *index;
    uint64_t onsets, detected, evicted, tolerated;
    double slow_node_s;
};

bool dc_straggler_is_slow(const dc_straggler *s, uint32_t node)
{
    return s->index[node] >= 0;
}

static void update_job(dc_straggler *s, int32_t job)
{
    if (job < 0)
        return;
    double f = 1.0;
    for (size_t i = 0; i < s->n; i++) {
        uint32_t node = s->list[i].node;
        if (dc_cluster_node_state(s->cluster, node) == DC_NODE_BUSY && dc_cluster_node_holds(s->cluster, node, job)
            && s->list[i].factor < f)
            f = s->list[i].factor;
    }
    dc_cluster_set_job_speed(s->cluster, job, s->source, f);
}

/* Every job on node (a shared node holds several: cluster.h). */
static void update_jobs_on(dc_straggler *s, uint32_t node)
{
    for (int32_t j = dc_cluster_node_job(s->cluster, node); j >= 0; j = dc_cluster_node_next_job(s->cluster, node, j))
        update_job(s, j);
}

static void clear(dc_straggler *s, uint32_t node)
{
    int32_t k = s->index[node];
    if (k < 0)
        return;
    slow_node *e = &s->list[k];
    s->slow_node_s += dc_sim_now(s->sim) - e->since_s;
    dc_sim_cancel(s->sim, &e->detect);
    s->index[node] = -1;
    s->list[k] = s->list[--s->n];
    if ((size_t)k < s->n)
        s->index[s->list[k].node] = k;
}

static void on_detect(dc_sim *sim, void *ctx, uint64_t arg)
{
    dc_straggler *s = ctx;
    uint32_t node = (uint32_t)arg;
    int32_t k = s->index[node];
    if (k < 0)
        return;
    slow_node *e = &s->list[k];
    e->detect = DC_EVENT_NONE;
    s->detected++;
    if (!e->evict) {
        s->tolerated++;
        dc_eventlog_add(s->log, dc_sim_now(sim), "tolerate", e->class_name, (int32_t)node,
                        dc_cluster_node_job(s->cluster, node), e->factor);
        return;
    }
    s->evicted++;
    dc_eventlog_add(s->log, dc_sim_now(sim), "evict", e->class_name, (int32_t)node,
                    dc_cluster_node_job(s->cluster, node), e->factor);
    /* The node leaves like a failed one; on_failure below clears it. */
    dc_cluster_fail(s->cluster, e->class_id, e->class_name, &node, 1, -1);
}

void dc_straggler_onset(dc_straggler *s, uint32_t node, double factor, int class_id,
                        const char *class_name, double detect_s, bool evict)
{
    if (s->index[node] >= 0)
        return;
    if (s->n == s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 16;
        slow_node *g = realloc(s->list, ncap * sizeof *g);
        if (!g) {
            dc_sim_fail(s->sim, DC_ENOMEM, "out of memory recording a straggler");
            return;
        }
        s->list = g;
        s->cap = ncap;
    }
    s->index[node] = (int32_t)s->n;
    s->list[s->n++] = (slow_node){node, factor, class_id, class_name, dc_sim_now(s->sim), evict,
                                  dc_sim_after(s->sim, detect_s, on_detect, s, node)};
    s->onsets++;
    dc_eventlog_add(s->log, dc_sim_now(s->sim), "straggler", class_name, (int32_t)node,
                    dc_cluster_node_job(s->cluster, node), factor);
    if (dc_cluster_node_state(s->cluster, node) == DC_NODE_BUSY)
        update_jobs_on(s, node);
}

static void on_failure(dc_sim *sim, void *ctx, const void *payload)
{
    dc_straggler *s = ctx;
    const dc_failure_event *ev = payload;
    for (size_t i = 0; i < ev->n_nodes; i++) {
        uint32_t node = ev->nodes[i];
        if (s->index[node] < 0)
            continue;
        clear(s, node);
        /* Still names the jobs it served (cluster.h): lift the slow-down. */
        update_jobs_on(s, node);
    }
}

static void on_phase(dc_sim *sim, void *ctx, const void *payload)
{
    dc_straggler *s = ctx;
    const dc_job_event *ev = payload;
    update_job(s, ev->job);
}

dc_straggler *dc_straggler_create(dc_sim *sim, dc_cluster *c, dc_error *err)
{
    dc_straggler *s = calloc(1, sizeof *s);
    uint32_t n = dc_cluster_node_count(c);
    if (!s || !(s->index = malloc(n * sizeof *s->index))) {
        free(s);
        dc_error_set(err, DC_ENOMEM, "out of memory for stragglers");
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++)
        s->index[i] = -1;
    s->sim = sim;
    s->cluster = c;
    s->log = dc_sim_eventlog(sim);
    s->source = dc_cluster_speed_source(c, "straggler");
    int sig_fail = dc_sim_signal(sim, "failure"), sig_phase = dc_sim_signal(sim, "job_phase");
    if (s->source < 0 || sig_fail < 0 || sig_phase < 0 || dc_sim_subscribe(sim, sig_fail, on_failure, s) != DC_OK
        || dc_sim_subscribe(sim, sig_phase, on_phase, s) != DC_OK) {
        dc_straggler_destroy(s);
        dc_error_set(err, DC_ENOMEM, "out of memory (or speed sources) for stragglers");
        return NULL;
    }
    return s;
}

void dc_straggler_destroy(dc_straggler *s)
{
    if (!s)
        return;
    free(s->list);
    free(s->index);
    free(s);
}

void dc_straggler_finish(dc_straggler *s, dc_summary *summary)
{
    double now = dc_sim_now(s->sim);
    double slow_s = s->slow_node_s;
    for (size_t i = 0; i < s->n; i++)
        slow_s += now - s->list[i].since_s;
    dc_summary_set(summary, "stragglers.onsets", (double)s->onsets, "", "nodes that became slow (fail-slow)");
    dc_summary_set(summary, "stragglers.detected", (double)s->detected, "", "stragglers detected");
    dc_summary_set(summary, "stragglers.evicted", (double)s->evicted, "", "stragglers taken out at detection");
    dc_summary_set(summary, "stragglers.tolerated", (double)s->tolerated, "", "stragglers detected and left in");
    dc_summary_set(summary, "stragglers.slow_node_h", slow_s / 3600.0, "h", "node-hours spent slow (busy or spare)");
}
