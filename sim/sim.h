/* The simulation engine: clock, pending events, models, signals, random streams and outputs.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The simulation engine: clock, pending events, models, signals, random
 * streams and the run's outputs (summary, series, event log).
 *
 * Everything a run needs hangs off one dc_sim; there is no global mutable
 * state, so a sweep can hold many simulations in one process.
 *
 * Time is a double in seconds from the start of the run.  Events at equal
 * times run in the order they were scheduled.  The run ends at the horizon,
 * when no event is left, or when a model calls dc_sim_stop (all work done).
 *
 * Models are const tables (dc_model_type) registered by name in models/; the
 * engine allocates each model's state, calls init (read the scenario), start
 * (schedule first events), sample (at the sampling interval, if set) and
 * finish (bank integrals up to the end time, write summary figures).
 * Models talk to each other through signals (publish/subscribe by name) and
 * through narrow accessor APIs found with dc_sim_model(). */
#ifndef DC_SIM_H
#define DC_SIM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

#include "error.h"
#include "eventq.h"
#include "eventlog.h"
#include "rowtable.h"
#include "scenario.h"
#include "series.h"
#include "summary.h"

typedef struct dc_sim dc_sim;

typedef struct dc_model_type {
    const char *name;        /* unique; also what dc_sim_model() looks up */
    size_t state_size;       /* bytes the engine allocates (zeroed) for the state */
    const dc_param *params;  /* the scenario keys this model reads; {0}-terminated */
    /* Reads the scenario, allocates what it needs.  On error nothing is left
     * allocated except what destroy frees. */
    int (*init)(void *state, dc_sim *sim, const dc_scenario *sc, dc_error *err);
    /* Schedules the first events; all models are initialised by then. */
    int (*start)(void *state, dc_sim *sim, dc_error *err);
    /* Optional: called at every sampling instant (see dc_sim_set_sample_interval). */
    void (*sample)(void *state, dc_sim *sim);
    /* Banks integrals up to dc_sim_now() and writes summary figures. */
    void (*finish)(void *state, dc_sim *sim);
    /* Optional: frees what init allocated (the state block itself is the engine's). */
    void (*destroy)(void *state);
} dc_model_type;

/* NULL with err set when out of memory or horizon_s is not positive. */
dc_sim *dc_sim_create(uint64_t seed, double horizon_s, dc_error *err);
void dc_sim_destroy(dc_sim *sim);

/* Allocates the model's state and calls its init.  On failure the model is
 * not added (its destroy has been called). */
int dc_sim_add_model(dc_sim *sim, const dc_model_type *type,
                     const dc_scenario *sc, dc_error *err);

/* The state of the model named name, or NULL. */
void *dc_sim_model(dc_sim *sim, const char *name);

/* Runs start for every model, then events until the horizon, an empty queue,
 * dc_sim_stop or dc_sim_fail; then finish for every model.  Call once. */
int dc_sim_run(dc_sim *sim, dc_error *err);

double dc_sim_now(const dc_sim *sim);
double dc_sim_horizon(const dc_sim *sim);
uint64_t dc_sim_seed(const dc_sim *sim);
uint64_t dc_sim_events_processed(const dc_sim *sim);

/* Schedules fn(sim, ctx, arg) at absolute time at_s (>= now) or delay_s from now.
 * Events past the horizon are accepted and simply never run.  Returns the
 * handle, or DC_EVENT_NONE after failing the run (out of memory).
 * An event for now (delay 0: a model deferring work to the end of the
 * instant), scheduled while an event runs and with no event of the queue
 * due now, skips the queue: it runs after the events for now scheduled
 * before it, in the order the queue would give (see sim.c). */
dc_event_handle dc_sim_at(dc_sim *sim, double at_s, dc_event_fn fn, void *ctx, uint64_t arg);
dc_event_handle dc_sim_after(dc_sim *sim, double delay_s, dc_event_fn fn, void *ctx, uint64_t arg);
/* Places in the order of events for a source that knows its events in
 * advance (a sorted trace's arrivals): dc_sim_reserve sets aside n places
 * now (DC_OK and *id; DC_ENOMEM, nothing set aside: push them now instead),
 * and dc_sim_at_reserved schedules the i-th (i < n, each once) at at_s,
 * which then runs exactly where dc_sim_at(sim, at_s, ...) called at the
 * reservation would have run, the i-th of n calls in a row, provided it is
 * in the queue whenever the queue's contents up to at_s matter: scheduled
 * at the start of the handler of an event j < i of the same reservation
 * with a time not later (a sorted source pushing its next event first
 * thing: until then event j stood in the queue at or before at_s, so every
 * pop and every "anything due now?" gives the same answer).  It never
 * takes dc_sim_at's path for now (it goes to the queue). */
int dc_sim_reserve(dc_sim *sim, uint64_t n, size_t *id);
dc_event_handle dc_sim_at_reserved(dc_sim *sim, size_t id, uint64_t i, double at_s, dc_event_fn fn, void *ctx,
                                   uint64_t arg);
/* Cancels a pending event; a stale handle is ignored.  Sets *handle to NONE. */
void dc_sim_cancel(dc_sim *sim, dc_event_handle *handle);

/* Ends the run at the current time (for example when all jobs are done). */
void dc_sim_stop(dc_sim *sim);
/* Ends the run with an error that dc_sim_run returns. */
void dc_sim_fail(dc_sim *sim, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The random stream named name, created on first use and seeded from
 * (run seed, name) (see rng.h).  Owned by the sim; NULL only when out of
 * memory, after failing the run. */
gsl_rng *dc_sim_rng(dc_sim *sim, const char *name);

/* Signals: named channels; payload types are defined by the publishers. */
typedef void (*dc_signal_fn)(dc_sim *sim, void *ctx, const void *payload);
/* The id of the signal named name (created on first use); -1 when out of memory. */
int dc_sim_signal(dc_sim *sim, const char *name);
int dc_sim_subscribe(dc_sim *sim, int signal, dc_signal_fn fn, void *ctx);
/* Calls the subscribers synchronously, in subscription order. */
void dc_sim_publish(dc_sim *sim, int signal, const void *payload);
/* Kinds: a publisher may say which of up to 64 kinds (0..63, its own
 * numbering, e.g. a job's phase edge) a publication is, and a subscriber
 * which kinds it acts on (bit k of kinds: kind k), so that a publication
 * wakes only those that act on its kind.  dc_sim_subscribe's subscribers
 * get every kind; dc_sim_publish reaches every subscriber.  The order of
 * the calls is the subscription order either way. */
int dc_sim_subscribe_kinds(dc_sim *sim, int signal, uint64_t kinds, dc_signal_fn fn, void *ctx);
void dc_sim_publish_kind(dc_sim *sim, int signal, unsigned kind, const void *payload);

/* Every interval_s of simulated time from 0 (instants k * interval_s up to the
 * horizon), calls each model's sample(), in model order, after every event
 * at or before that instant.  0 = off.  The tick is no event: it costs
 * nothing when no model has a sample hook, and is not counted in
 * dc_sim_events_processed. */
void dc_sim_set_sample_interval(dc_sim *sim, double interval_s);

/* Stops the run (as dc_sim_stop) after the event during which *flag
 * became nonzero: checked after every event, so a signal is noticed
 * within one event's wall time (NULL: none). */
void dc_sim_set_cancel(dc_sim *sim, const volatile sig_atomic_t *flag);
/* Whether the cancel flag is set: for a model's long loops outside
 * events (an init generating a million jobs), which poll it every few
 * thousand steps and give up (any error code: the caller, seeing the flag,
 * reports the interruption, not the error).  A run stopped by the flag
 * skips the models' finish hooks (its summary is not read): a signal
 * after the last event costs no pass over every job. */
bool dc_sim_cancelled(const dc_sim *sim);

/* Warnings found during the run (a corruption that rolled a job back to
 * its start), as "FILE:LINE: PATH: message" (the model formats the place
 * at its init: dc_scenario_where_text, since the scenario need not outlive
 * the build), each text once, at most DC_SIM_MAX_WARNINGS; the CLI shows
 * them after the scenario's own (sim/scenario.h).  Out of memory: dropped. */
#define DC_SIM_MAX_WARNINGS 64
void dc_sim_warn(dc_sim *sim, const char *text);
size_t dc_sim_warning_count(const dc_sim *sim);
const char *dc_sim_warning(const dc_sim *sim, size_t i);

/* The progress guarantee: a run whose clock moves by less than
 * DC_SIM_STALL_EVENTS / DC_SIM_MAX_EVENT_RATE seconds over
 * DC_SIM_STALL_EVENTS events in a row (windows counted from time 0, so
 * it fails within twice that many events) (more than 10^8 events per simulated
 * second: time stuck, or creeping by steps far below the schema's minimums)
 * fails with DC_EINPUT naming the model of the last event, instead of
 * running for ever.  The scenario's own rules (docs/scenario.md) refuse the
 * known degenerate values before the run; this catches the rest.  A run
 * whose series or event log ran out of memory stops at the next check
 * (every 2^16 events) with DC_ENOMEM. */
#define DC_SIM_STALL_EVENTS (1 << 24)
/* The rule the failure processes' validation applies (failures, network
 * parts): the failures of one class, all its units together, at most this
 * many per simulated second on average.  10^10 GPUs (the schema's largest
 * cluster) at an MTBF of 2,800 h stay under it. */
#define DC_SIM_MAX_FAILURES_PER_S 1000.0
#define DC_SIM_MAX_EVENT_RATE 1e8

/* Called with the fraction of the horizon done, at most every 2^16 events. */
void dc_sim_set_progress(dc_sim *sim, void (*fn)(void *ctx, double fraction), void *ctx);

/* The run's outputs, owned by the sim. */
dc_summary *dc_sim_summary(dc_sim *sim);
dc_series_set *dc_sim_series_set(dc_sim *sim);
dc_eventlog *dc_sim_eventlog(dc_sim *sim);
/* Tables of rows for the trace (rowtable.h: /jobs). */
dc_rowtable_set *dc_sim_tables(dc_sim *sim);

/* Shorthand for dc_series_set_get(dc_sim_series_set(sim), ...). */
dc_series *dc_sim_series(dc_sim *sim, const char *name, const char *unit, const char *doc);

#endif
