/* The simulation engine: clock, events, models, signals, sampling and the run's outputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "sim.h"

#include <assert.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rng.h"

typedef struct model_slot {
    const dc_model_type *type;
    void *state;
} model_slot;

typedef struct named_rng {
    char *name;
    uint64_t hash; /* dc_rng_name_hash(name): compared before the name */
    gsl_rng *rng;
} named_rng;

typedef struct subscriber {
    dc_signal_fn fn;
    void *ctx;
    uint64_t kinds; /* the kinds it is called for (dc_sim_publish_kind) */
} subscriber;

/* An event of the current instant kept out of the queue (see dc_sim_at). */
typedef struct now_event {
    dc_event_fn fn; /* NULL: cancelled */
    void *ctx;
    uint64_t arg;
    uint32_t id;
} now_event;

/* Handles of now_events: generation UINT32_MAX, which the queue never
 * issues (it retires a slot instead), and the event's id. */
#define NOW_TAG ((uint64_t)UINT32_MAX << 32)

typedef struct signal_slot {
    char *name;
    subscriber *subs;
    size_t n_subs;
    /* The subscribers of each kind, in subscription order, listed when the
     * run starts (index_kinds): kind k's are by_kind[at[k] .. at[k + 1] - 1],
     * so that a publish of kind k calls them without testing the others'
     * masks (a job's checkpoint edges reach one handler of four).  A later
     * subscribe clears indexed: dc_sim_publish_kind then tests every mask. */
    bool indexed;
    uint32_t at[65];
    subscriber *by_kind;
} signal_slot;

struct dc_sim {
    char **warnings; /* dc_sim_warn, each text once, at most DC_SIM_MAX_WARNINGS */
    size_t n_warnings;
    uint64_t seed;
    double horizon_s;
    double now_s;
    uint64_t events_processed;
    bool stopped;
    bool running;
    dc_error run_error; /* set by dc_sim_fail */

    dc_eventq *queue;
    /* Events for the current instant pushed while an event runs and none
     * is due in the queue: they run next, in order, before the queue is
     * read again (dc_sim_at). */
    now_event *nows;
    size_t nows_cap, nows_head, nows_n;
    uint32_t last_now_id; /* UINT32_MAX: ids ran out, the queue takes them all */
    bool in_event;

    model_slot *models;
    size_t n_models;

    named_rng *rngs;
    size_t n_rngs, cap_rngs;

    signal_slot *signals;
    size_t n_signals;

    double sample_interval_s;
    /* the models with a sample hook, listed once when the run starts */
    model_slot *samplers;
    size_t n_samplers;
    void (*progress_fn)(void *ctx, double fraction);
    void *progress_ctx;
    const volatile sig_atomic_t *cancel; /* nonzero: stop (a signal) */

    dc_summary *summary;
    dc_series_set *series;
    dc_eventlog *eventlog;
    dc_rowtable_set *tables;
};

dc_sim *dc_sim_create(uint64_t seed, double horizon_s, dc_error *err)
{
    if (!(horizon_s > 0.0) || !isfinite(horizon_s)) {
        dc_error_set(err, DC_EINPUT, "the horizon must be a positive finite time (got %g s)", horizon_s);
        return NULL;
    }
    dc_sim *sim = calloc(1, sizeof *sim);
    if (!sim)
        goto oom;
    sim->seed = seed;
    sim->horizon_s = horizon_s;
    sim->queue = dc_eventq_create(1024);
    sim->summary = dc_summary_create();
    sim->series = dc_series_set_create();
    sim->eventlog = dc_eventlog_create();
    sim->tables = dc_rowtable_set_create();
    if (!sim->queue || !sim->summary || !sim->series || !sim->eventlog || !sim->tables)
        goto oom;
    return sim;
oom:
    dc_sim_destroy(sim);
    dc_error_set(err, DC_ENOMEM, "out of memory creating the simulation");
    return NULL;
}

void dc_sim_warn(dc_sim *sim, const char *text)
{
    if (!sim || !text || sim->n_warnings == DC_SIM_MAX_WARNINGS)
        return;
    for (size_t i = 0; i < sim->n_warnings; i++)
        if (strcmp(sim->warnings[i], text) == 0)
            return;
    if (!sim->warnings && !(sim->warnings = calloc(DC_SIM_MAX_WARNINGS, sizeof *sim->warnings)))
        return;
    if ((sim->warnings[sim->n_warnings] = strdup(text)))
        sim->n_warnings++;
}

size_t dc_sim_warning_count(const dc_sim *sim)
{
    return sim ? sim->n_warnings : 0;
}

const char *dc_sim_warning(const dc_sim *sim, size_t i)
{
    return sim && i < sim->n_warnings ? sim->warnings[i] : NULL;
}

void dc_sim_destroy(dc_sim *sim)
{
    if (!sim)
        return;
    for (size_t i = 0; i < sim->n_warnings; i++)
        free(sim->warnings[i]);
    free(sim->warnings);
    for (size_t i = sim->n_models; i-- > 0;) {
        if (sim->models[i].type->destroy)
            sim->models[i].type->destroy(sim->models[i].state);
        free(sim->models[i].state);
    }
    free(sim->models);
    free(sim->samplers);
    free(sim->nows);
    for (size_t i = 0; i < sim->n_rngs; i++) {
        gsl_rng_free(sim->rngs[i].rng);
        free(sim->rngs[i].name);
    }
    free(sim->rngs);
    for (size_t i = 0; i < sim->n_signals; i++) {
        free(sim->signals[i].name);
        free(sim->signals[i].subs);
        free(sim->signals[i].by_kind);
    }
    free(sim->signals);
    dc_eventq_destroy(sim->queue);
    dc_summary_destroy(sim->summary);
    dc_series_set_destroy(sim->series);
    dc_eventlog_destroy(sim->eventlog);
    dc_rowtable_set_destroy(sim->tables);
    free(sim);
}

int dc_sim_add_model(dc_sim *sim, const dc_model_type *type, const dc_scenario *sc, dc_error *err)
{
    model_slot *grown = realloc(sim->models, (sim->n_models + 1) * sizeof *grown);
    if (!grown)
        return dc_error_set(err, DC_ENOMEM, "out of memory adding model '%s'", type->name);
    sim->models = grown;
    void *state = calloc(1, type->state_size ? type->state_size : 1);
    if (!state)
        return dc_error_set(err, DC_ENOMEM, "out of memory adding model '%s'", type->name);
    /* Registered before init so that init can find earlier models and itself. */
    sim->models[sim->n_models].type = type;
    sim->models[sim->n_models].state = state;
    sim->n_models++;
    int rc = type->init ? type->init(state, sim, sc, err) : DC_OK;
    if (rc != DC_OK) {
        sim->n_models--;
        if (type->destroy)
            type->destroy(state);
        free(state);
    }
    return rc;
}

void *dc_sim_model(dc_sim *sim, const char *name)
{
    for (size_t i = 0; i < sim->n_models; i++)
        if (strcmp(sim->models[i].type->name, name) == 0)
            return sim->models[i].state;
    return NULL;
}

double dc_sim_now(const dc_sim *sim) { return sim->now_s; }
double dc_sim_horizon(const dc_sim *sim) { return sim->horizon_s; }
uint64_t dc_sim_seed(const dc_sim *sim) { return sim->seed; }
uint64_t dc_sim_events_processed(const dc_sim *sim) { return sim->events_processed; }
dc_summary *dc_sim_summary(dc_sim *sim) { return sim->summary; }
dc_series_set *dc_sim_series_set(dc_sim *sim) { return sim->series; }
dc_eventlog *dc_sim_eventlog(dc_sim *sim) { return sim->eventlog; }
dc_rowtable_set *dc_sim_tables(dc_sim *sim) { return sim->tables; }

dc_series *dc_sim_series(dc_sim *sim, const char *name, const char *unit, const char *doc)
{
    return dc_series_set_get(sim->series, name, unit, doc);
}

void dc_sim_fail(dc_sim *sim, int code, const char *fmt, ...)
{
    if (sim->run_error.code != DC_OK)
        return; /* keep the first cause */
    va_list ap;
    va_start(ap, fmt);
    sim->run_error.code = code;
    vsnprintf(sim->run_error.msg, sizeof sim->run_error.msg, fmt, ap);
    va_end(ap);
    sim->stopped = true;
}

void dc_sim_stop(dc_sim *sim) { sim->stopped = true; }

/* Room for one more event of the current instant in nows; false when
 * out of memory (the queue takes it). */
static __attribute__((noinline)) bool nows_grow(dc_sim *sim)
{
    size_t cap = sim->nows_cap ? 2 * sim->nows_cap : 16;
    now_event *grown = cap <= SIZE_MAX / sizeof *grown ? realloc(sim->nows, cap * sizeof *grown) : NULL;
    if (!grown)
        return false;
    sim->nows = grown;
    sim->nows_cap = cap;
    return true;
}

/* The queue's push, out of line: dc_sim_at's path for now stays short. */
/* A push the queue refused: the run stops. */
static __attribute__((noinline, cold)) dc_event_handle queue_full(dc_sim *sim)
{
    dc_sim_fail(sim, DC_ENOMEM, "out of memory: the event queue cannot grow (%zu events pending)",
                dc_eventq_size(sim->queue));
    return DC_EVENT_NONE;
}

static __attribute__((noinline)) dc_event_handle queue_push(dc_sim *sim, double at_s, dc_event_fn fn, void *ctx,
                                                            uint64_t arg)
{
    dc_event_handle h = DC_EVENT_NONE;
    if (dc_eventq_push(sim->queue, at_s, fn, ctx, arg, &h) != DC_OK)
        return queue_full(sim);
    return h;
}

dc_event_handle dc_sim_at(dc_sim *sim, double at_s, dc_event_fn fn, void *ctx, uint64_t arg)
{
    /* A time before now would break causality: it is a model bug, not input. */
    if (at_s < sim->now_s)
        at_s = sim->now_s;
    /* An event for now, pushed while an event runs with none due in the
     * queue (nothing at this time scheduled before it, which would run
     * first): in the queue it would be the next to run after the events
     * of this instant pushed before it (nows), and before any pushed
     * after it; so it goes after those in nows, with no heap or FIFO work.
     * The order of every event is the queue's.  (Out of memory or of ids:
     * the queue takes it.) */
    if (at_s == sim->now_s && sim->in_event && sim->last_now_id != UINT32_MAX
        && !dc_eventq_may_be_due(sim->queue) && (sim->nows_n < sim->nows_cap || nows_grow(sim))) {
        uint32_t id = ++sim->last_now_id;
        sim->nows[sim->nows_n++] = (now_event){fn, ctx, arg, id};
        return NOW_TAG | id;
    }
    return queue_push(sim, at_s, fn, ctx, arg);
}

int dc_sim_reserve(dc_sim *sim, uint64_t n, size_t *id)
{
    return dc_eventq_reserve(sim->queue, n, id);
}

dc_event_handle dc_sim_at_reserved(dc_sim *sim, size_t id, uint64_t i, double at_s, dc_event_fn fn, void *ctx,
                                   uint64_t arg)
{
    if (at_s < sim->now_s) /* (a model bug, as in dc_sim_at) */
        at_s = sim->now_s;
    dc_event_handle h = DC_EVENT_NONE;
    if (dc_eventq_push_reserved(sim->queue, id, i, at_s, fn, ctx, arg, &h) != DC_OK)
        return queue_full(sim);
    return h;
}

dc_event_handle dc_sim_after(dc_sim *sim, double delay_s, dc_event_fn fn, void *ctx, uint64_t arg)
{
    return dc_sim_at(sim, sim->now_s + delay_s, fn, ctx, arg);
}

/* dc_sim_cancel of a handle that is not DC_EVENT_NONE. */
static __attribute__((noinline)) void cancel_pending(dc_sim *sim, dc_event_handle *handle)
{
    if ((*handle & NOW_TAG) == NOW_TAG) {
        uint32_t id = (uint32_t)*handle;
        for (size_t i = sim->nows_head; i < sim->nows_n; i++)
            if (sim->nows[i].id == id)
                sim->nows[i].fn = NULL;
    } else if (*handle != DC_EVENT_NONE) {
        dc_eventq_cancel(sim->queue, *handle);
    }
    *handle = DC_EVENT_NONE;
}

/* (a handle that is already none, as most are when a model cancels before
 * it schedules, returns at once: inline at the callers under LTO) */
void dc_sim_cancel(dc_sim *sim, dc_event_handle *handle)
{
    if (*handle != DC_EVENT_NONE)
        cancel_pending(sim, handle);
}

gsl_rng *dc_sim_rng(dc_sim *sim, const char *name)
{
    /* some 80 streams in a flagship build: names compared on equal hashes
     * only, the table grown by doubling */
    uint64_t h = dc_rng_name_hash(name);
    for (size_t i = 0; i < sim->n_rngs; i++)
        if (sim->rngs[i].hash == h && strcmp(sim->rngs[i].name, name) == 0)
            return sim->rngs[i].rng;
    if (sim->n_rngs == sim->cap_rngs) {
        size_t cap = sim->cap_rngs ? 2 * sim->cap_rngs : 32;
        named_rng *grown = realloc(sim->rngs, cap * sizeof *grown);
        if (!grown)
            goto oom;
        sim->rngs = grown;
        sim->cap_rngs = cap;
    }
    char *copy = strdup(name);
    gsl_rng *r = copy ? dc_rng_create(sim->seed, name) : NULL;
    if (!r) {
        free(copy);
        goto oom;
    }
    sim->rngs[sim->n_rngs].name = copy;
    sim->rngs[sim->n_rngs].hash = h;
    sim->rngs[sim->n_rngs].rng = r;
    sim->n_rngs++;
    return r;
oom:
    dc_sim_fail(sim, DC_ENOMEM, "out of memory creating random stream '%s'", name);
    return NULL;
}

int dc_sim_signal(dc_sim *sim, const char *name)
{
    for (size_t i = 0; i < sim->n_signals; i++)
        if (strcmp(sim->signals[i].name, name) == 0)
            return (int)i;
    signal_slot *grown = realloc(sim->signals, (sim->n_signals + 1) * sizeof *grown);
    if (!grown)
        return -1;
    sim->signals = grown;
    char *copy = strdup(name);
    if (!copy)
        return -1;
    sim->signals[sim->n_signals] = (signal_slot){.name = copy};
    return (int)sim->n_signals++;
}

int dc_sim_subscribe_kinds(dc_sim *sim, int signal, uint64_t kinds, dc_signal_fn fn, void *ctx)
{
    if (signal < 0 || (size_t)signal >= sim->n_signals)
        return DC_EINTERNAL;
    signal_slot *sig = &sim->signals[signal];
    subscriber *grown = realloc(sig->subs, (sig->n_subs + 1) * sizeof *grown);
    if (!grown)
        return DC_ENOMEM;
    sig->subs = grown;
    sig->subs[sig->n_subs++] = (subscriber){fn, ctx, kinds};
    sig->indexed = false;
    return DC_OK;
}

/* Each signal's subscribers by kind (see signal_slot); a signal it cannot
 * index (out of memory) keeps the tests of every mask. */
static void index_kinds(dc_sim *sim)
{
    for (size_t s = 0; s < sim->n_signals; s++) {
        signal_slot *sig = &sim->signals[s];
        size_t total = 0;
        for (unsigned k = 0; k < 64; k++)
            for (size_t i = 0; i < sig->n_subs; i++)
                total += sig->subs[i].kinds >> k & 1u;
        if (total > UINT32_MAX)
            continue;
        subscriber *list = malloc((total ? total : 1) * sizeof *list);
        if (!list)
            continue;
        free(sig->by_kind);
        sig->by_kind = list;
        uint32_t n = 0;
        for (unsigned k = 0; k < 64; k++) {
            sig->at[k] = n;
            for (size_t i = 0; i < sig->n_subs; i++)
                if (sig->subs[i].kinds >> k & 1u)
                    list[n++] = sig->subs[i];
        }
        sig->at[64] = n;
        sig->indexed = true;
    }
}

int dc_sim_subscribe(dc_sim *sim, int signal, dc_signal_fn fn, void *ctx)
{
    return dc_sim_subscribe_kinds(sim, signal, UINT64_MAX, fn, ctx);
}

void dc_sim_publish_kind(dc_sim *sim, int signal, unsigned kind, const void *payload)
{
    if (signal < 0 || (size_t)signal >= sim->n_signals)
        return;
    assert(kind < 64);
    const signal_slot *sig = &sim->signals[signal];
    if (sig->indexed) {
        const subscriber *list = sig->by_kind;
        uint32_t i = sig->at[kind], end = sig->at[kind + 1];
        if (end - i == 1) { /* (a tail call: no loop, no registers saved) */
            list[i].fn(sim, list[i].ctx, payload);
            return;
        }
        for (; i < end; i++)
            list[i].fn(sim, list[i].ctx, payload);
        return;
    }
    uint64_t bit = UINT64_C(1) << kind;
    for (size_t i = 0; i < sig->n_subs; i++)
        if (sig->subs[i].kinds & bit)
            sig->subs[i].fn(sim, sig->subs[i].ctx, payload);
}

void dc_sim_publish(dc_sim *sim, int signal, const void *payload)
{
    if (signal < 0 || (size_t)signal >= sim->n_signals)
        return;
    const signal_slot *sig = &sim->signals[signal];
    if (sig->n_subs == 1) { /* ("it_power" at every refresh: a tail call, no loop) */
        sig->subs[0].fn(sim, sig->subs[0].ctx, payload);
        return;
    }
    for (size_t i = 0; i < sig->n_subs; i++)
        sig->subs[i].fn(sim, sig->subs[i].ctx, payload);
}

void dc_sim_set_sample_interval(dc_sim *sim, double interval_s)
{
    sim->sample_interval_s = interval_s > 0.0 && isfinite(interval_s) ? interval_s : 0.0;
}

void dc_sim_set_cancel(dc_sim *sim, const volatile sig_atomic_t *flag)
{
    sim->cancel = flag;
}

bool dc_sim_cancelled(const dc_sim *sim)
{
    return sim->cancel && *sim->cancel;
}

void dc_sim_set_progress(dc_sim *sim, void (*fn)(void *ctx, double fraction), void *ctx)
{
    sim->progress_fn = fn;
    sim->progress_ctx = ctx;
}

/* Calls every sample hook at the current time. */
static void sample_all(dc_sim *sim)
{
    for (size_t i = 0; i < sim->n_samplers; i++)
        sim->samplers[i].type->sample(sim->samplers[i].state, sim);
}

/* The models with a sample hook, in model order. */
static int list_samplers(dc_sim *sim, dc_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < sim->n_models; i++)
        n += sim->models[i].type->sample != NULL;
    if (n == 0)
        return DC_OK;
    sim->samplers = malloc(n * sizeof *sim->samplers);
    if (!sim->samplers)
        return dc_error_set(err, DC_ENOMEM, "out of memory starting the run");
    for (size_t i = 0; i < sim->n_models; i++)
        if (sim->models[i].type->sample)
            sim->samplers[sim->n_samplers++] = sim->models[i];
    return DC_OK;
}

/* The progress guarantee's backstop: DC_SIM_STALL_EVENTS events in a row
 * moved the clock by less than they would at DC_SIM_MAX_EVENT_RATE, so the
 * run would not reach its horizon (time stuck, or creeping by steps far
 * below a second).  The model whose state the last event belonged to is
 * named: the likely key is one of its rates or steps. */
static void stalled(dc_sim *sim, double since_s, const void *ctx)
{
    const char *who = NULL;
    for (size_t i = 0; i < sim->n_models && !who; i++)
        if (sim->models[i].state == ctx)
            who = sim->models[i].type->name;
    dc_sim_fail(sim, DC_EINPUT,
                "simulated time stopped advancing: %d events took it only from %.9g s to %.9g s "
                "(more than %.0e events per simulated second)%s%s%s; a rate is too high or a time too "
                "small in the scenario (a failure rate, a checkpoint's write time or interval, a step)",
                DC_SIM_STALL_EVENTS, since_s, sim->now_s, DC_SIM_MAX_EVENT_RATE, who ? ", the last in the '" : "",
                who ? who : "", who ? "' model" : "");
}

int dc_sim_run(dc_sim *sim, dc_error *err)
{
    if (sim->running)
        return dc_error_set(err, DC_EINTERNAL, "dc_sim_run called twice");
    sim->running = true;
    int rc = list_samplers(sim, err);
    if (rc != DC_OK)
        return rc;
    for (size_t i = 0; i < sim->n_models; i++) {
        const dc_model_type *t = sim->models[i].type;
        if (t->start) {
            rc = t->start(sim->models[i].state, sim, err);
            if (rc != DC_OK)
                return rc;
        }
    }
    if (dc_sim_cancelled(sim))
        sim->stopped = true; /* a signal while starting: no event runs */
    index_kinds(sim); /* (the models have subscribed) */

    /* The sampling tick lives outside the queue: the k-th instant is
     * k * interval (not a running sum, which drifts), and it runs once every
     * event at or before it has run.  With no sample hook there is no tick. */
    double interval_s = sim->n_samplers > 0 ? sim->sample_interval_s : 0.0;
    uint64_t tick = 0;
    double tick_s = interval_s > 0.0 ? 0.0 : INFINITY;
    double horizon_s = sim->horizon_s;
    dc_eventq *q = sim->queue;
    dc_event ev;
    const volatile sig_atomic_t *cancel = sim->cancel;
    double window_start_s = 0.0;
    while (!sim->stopped) {
        bool now_ev = sim->nows_head < sim->nows_n;
        if (now_ev) {
            const now_event *ne = &sim->nows[sim->nows_head++];
            ev = (dc_event){sim->now_s, ne->fn, ne->ctx, ne->arg};
            if (sim->nows_head == sim->nows_n)
                sim->nows_head = sim->nows_n = 0;
            if (!ev.fn)
                continue; /* cancelled */
        }
        if (now_ev || dc_eventq_pop_until(q, tick_s < horizon_s ? tick_s : horizon_s, &ev)) {
            sim->now_s = ev.time_s;
            sim->in_event = true;
            ev.fn(sim, ev.ctx, ev.arg);
            sim->in_event = false;
            if (cancel && *cancel)
                sim->stopped = true; /* a signal: the caller reports it */
            if ((++sim->events_processed & 0xffff) == 0) {
                if (sim->progress_fn)
                    sim->progress_fn(sim->progress_ctx, sim->now_s / horizon_s);
                if ((sim->events_processed & (DC_SIM_STALL_EVENTS - 1)) == 0) {
                    if (sim->now_s - window_start_s < DC_SIM_STALL_EVENTS / DC_SIM_MAX_EVENT_RATE)
                        stalled(sim, window_start_s, ev.ctx);
                    window_start_s = sim->now_s;
                }
                if (dc_series_set_failed(sim->series) || dc_eventlog_failed(sim->eventlog) ||
                    dc_rowtable_set_failed(sim->tables))
                    dc_sim_fail(sim, DC_ENOMEM, "out of memory recording the run's series or events");
            }
        } else if (tick_s <= horizon_s) {
            sim->now_s = tick_s;
            sample_all(sim);
            tick_s = (double)++tick * interval_s;
            if (cancel && *cancel)
                sim->stopped = true; /* samples without events between them: checked as often */
        } else {
            break;
        }
    }
    if (!sim->stopped)
        sim->now_s = horizon_s;
    if (sim->run_error.code != DC_OK) {
        if (err)
            *err = sim->run_error;
        return sim->run_error.code;
    }
    if (dc_sim_cancelled(sim))
        return DC_OK; /* interrupted: no summary (nobody reads it), no pass over every job */
    for (size_t i = 0; i < sim->n_models; i++)
        if (sim->models[i].type->finish)
            sim->models[i].type->finish(sim->models[i].state, sim);
    if (dc_series_set_failed(sim->series) || dc_eventlog_failed(sim->eventlog) || dc_rowtable_set_failed(sim->tables))
        return dc_error_set(err, DC_ENOMEM, "out of memory recording the run's series or events");
    if (sim->progress_fn)
        sim->progress_fn(sim->progress_ctx, 1.0);
    return DC_OK;
}
