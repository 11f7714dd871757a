/* Virtual clocks: the integrals of a piecewise-constant vector of factors, and callbacks when the last reaches a value.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A virtual clock holds n (1 .. DC_VCLOCK_LEVELS) factors f_0 .. f_{n-1}
 * in (0, 1], piecewise constant in time, and the integrals of their prefix
 * products since its creation:
 *   I_l(t) = integral from 0 to t of prod_{i <= l} f_i(u) du,  l < n
 * (I_l(t) = I_l(t0) + (t - t0) prod_{i <= l} f_i between two changes, banked
 * at every change).  Many things that progress at one shared factor (the
 * jobs under one power limit) keep their progress as a function of I
 * instead of re-banking it at every change of the factor: a change costs
 * one bank here, not one per member.  A target asks for a callback when
 * I_{n-1} reaches a value; the clock keeps its targets in a binary heap
 * (ties in the order they were set) and one engine event for the earliest,
 * due at t = t0 + (value - I(t0)) / rate after each change of the factors:
 * moved at once when t comes earlier, and when t comes later left to run
 * early and move itself to the t then due (its callbacks run at the same
 * instants either way).
 * Since every factor is at most 1, I_l grows no faster than time: a value
 * d ahead of I_{n-1}(now) is reached no earlier than now + d. */
#ifndef DC_VCLOCK_H
#define DC_VCLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "eventq.h"

#define DC_VCLOCK_LEVELS 2

struct dc_sim;
typedef struct dc_vclock dc_vclock;

/* 0 is never a valid target. */
typedef uint64_t dc_vclock_target;
#define DC_VCLOCK_NONE ((dc_vclock_target)0)

/* A clock of n levels with every factor 1 from now; NULL when out of memory. */
dc_vclock *dc_vclock_create(struct dc_sim *sim, size_t n);
void dc_vclock_destroy(dc_vclock *k);

size_t dc_vclock_levels(const dc_vclock *k);
/* The factors in force (n of them). */
const double *dc_vclock_factors(const dc_vclock *k);
/* New factors from now (each in (0, 1]); reschedules the earliest target. */
void dc_vclock_set(dc_vclock *k, const double *factors);
/* I_l at the engine's current time. */
double dc_vclock_value(const dc_vclock *k, size_t level);

/* fn(sim, ctx, arg) when I_{n-1} reaches value (at once, in a zero-delay
 * event, when it has already); DC_VCLOCK_NONE after failing the run (out
 * of memory). */
dc_vclock_target dc_vclock_at(dc_vclock *k, double value, dc_event_fn fn, void *ctx, uint64_t arg);
/* Removes a pending target (a stale or NONE one is ignored); sets *t to NONE. */
void dc_vclock_cancel(dc_vclock *k, dc_vclock_target *t);
size_t dc_vclock_pending(const dc_vclock *k);

#endif
