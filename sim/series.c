/* Time series as step functions recorded where they change.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Time series as step functions (see series.h).
 *
 * dc_series_record keeps the recorded points canonical: a point at the same
 * time as the last one replaces it, and a point whose value equals the value
 * before it is dropped, so the stored points are exactly the changes of the
 * step function (two NaNs count as equal).  Times are expected not to
 * decrease; this is not checked.  A NULL series (dc_series_set_get out of
 * memory) is accepted and ignored. */
#define _GNU_SOURCE /* mremap */
#include "series.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

struct dc_series {
    dc_series_set *set; /* for the failure flag */
    char *name;
    char *unit;
    char *doc;
    size_t n;
    size_t cap_t, cap_v; /* points t and v have room for */
    size_t cap;          /* the smaller of the two */
    double *t;
    double *v;
    bool kept; /* recorded even when the set is off (a figure reads it) */
    bool on;   /* recorded: the set is on, or kept */
};

struct dc_series_set {
    dc_series **s;
    size_t n;
    size_t cap;
    bool failed;
    bool off; /* dc_series_set_enable(set, false) */
};

/* strdup that takes NULL as "" (units and docs are optional). */
static char *dup_str(const char *s)
{
    return strdup(s ? s : "");
}

dc_series_set *dc_series_set_create(void)
{
    return calloc(1, sizeof(dc_series_set));
}

/* A series' arrays of MAP_BYTES (a page) or more are mapped pages of
 * their own, grown by mremap: the kernel moves the pages instead of
 * realloc copying every point at each doubling (the flagship's trace
 * records 120,000 points: 2.7 M instructions of copies; the power model's
 * kept series 0.9 M in every run and sweep replication).  Smaller ones,
 * up to 511 points, are malloc's. */
#define MAP_BYTES ((size_t)4 << 10)

static bool mapped(size_t cap)
{
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
    return cap * sizeof(double) >= MAP_BYTES;
#else
    (void)cap;
    return false;
#endif
}

/* p (room for old_cap points) with room for new_cap > old_cap; NULL (p
 * unchanged) when out of memory. */
static double *grow_array(double *p, size_t old_cap, size_t new_cap)
{
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
    size_t old_b = old_cap * sizeof *p, new_b = new_cap * sizeof *p;
    if (mapped(new_cap)) {
        void *q = mapped(old_cap) ? mremap(p, old_b, new_b, MREMAP_MAYMOVE)
                                  : mmap(NULL, new_b, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (q == MAP_FAILED)
            return NULL;
        if (!mapped(old_cap)) {
            if (old_b)
                memcpy(q, p, old_b);
            free(p);
        }
        return q;
    }
#endif
    return realloc(p, new_cap * sizeof *p);
}

static void free_array(double *p, size_t cap)
{
#if defined(__linux__) && defined(MREMAP_MAYMOVE)
    if (p && mapped(cap)) {
        munmap(p, cap * sizeof *p);
        return;
    }
#endif
    free(p);
}

static void series_free(dc_series *s)
{
    if (!s)
        return;
    free(s->name);
    free(s->unit);
    free(s->doc);
    free_array(s->t, s->cap_t);
    free_array(s->v, s->cap_v);
    free(s);
}

void dc_series_set_destroy(dc_series_set *set)
{
    if (!set)
        return;
    for (size_t i = 0; i < set->n; i++)
        series_free(set->s[i]);
    free(set->s);
    free(set);
}

dc_series *dc_series_set_get(dc_series_set *set, const char *name,
                             const char *unit, const char *doc)
{
    if (!set || !name)
        return NULL;
    for (size_t i = 0; i < set->n; i++)
        if (strcmp(set->s[i]->name, name) == 0)
            return set->s[i];
    if (set->n == set->cap) {
        size_t cap = set->cap ? 2 * set->cap : 8;
        dc_series **grown = realloc(set->s, cap * sizeof *grown);
        if (!grown) {
            set->failed = true;
            return NULL;
        }
        set->s = grown;
        set->cap = cap;
    }
    dc_series *s = calloc(1, sizeof *s);
    if (s) {
        s->set = set;
        s->on = !set->off;
        s->name = dup_str(name);
        s->unit = dup_str(unit);
        s->doc = dup_str(doc);
    }
    if (!s || !s->name || !s->unit || !s->doc) {
        series_free(s);
        set->failed = true;
        return NULL;
    }
    set->s[set->n++] = s;
    return s;
}

size_t dc_series_set_count(const dc_series_set *set)
{
    return set ? set->n : 0;
}

dc_series *dc_series_set_at(const dc_series_set *set, size_t i)
{
    return set && i < set->n ? set->s[i] : NULL;
}

bool dc_series_set_failed(const dc_series_set *set)
{
    return set ? set->failed : true;
}

void dc_series_set_enable(dc_series_set *set, bool enabled)
{
    if (!set)
        return;
    set->off = !enabled;
    for (size_t i = 0; i < set->n; i++)
        set->s[i]->on = enabled || set->s[i]->kept;
}

void dc_series_keep(dc_series *s)
{
    if (s)
        s->kept = s->on = true;
}

bool dc_series_recording(const dc_series *s)
{
    return s && s->on;
}

static bool same_value(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

/* Point n at (time_s, value) when the arrays are full: they grow first
 * (once in a doubling; kept out of line and reached by a tail call, so that
 * dc_series_record's common path needs no stack frame); nothing, the set
 * marked failed, when out of memory. */
static __attribute__((noinline)) void grow_and_put(dc_series *s, size_t n, double time_s, double value)
{
    size_t cap = n ? 2 * n : 64;
    if (s->cap_t < cap) {
        double *t = grow_array(s->t, s->cap_t, cap);
        if (!t) {
            s->set->failed = true;
            return;
        }
        s->t = t;
        s->cap_t = cap;
    }
    if (s->cap_v < cap) {
        double *v = grow_array(s->v, s->cap_v, cap);
        if (!v) {
            s->set->failed = true; /* (cap, the smaller, unchanged) */
            return;
        }
        s->v = v;
        s->cap_v = cap;
    }
    s->cap = cap;
    s->t[n] = time_s;
    s->v[n] = value;
    s->n = n + 1;
}

/* dc_series_record's rules in full, out of line: a point at the time of
 * the last one, or a value equal to the last (two NaNs count as equal), or
 * the first point, or full arrays. */
static __attribute__((noinline)) void record_slow(dc_series *s, double time_s, double value)
{
    size_t n = s->n;
    if (n > 0) {
        if (s->t[n - 1] == time_s) {
            n--; /* same time: the new value replaces the last point */
            if (n > 0 && same_value(s->v[n - 1], value)) {
                s->n = n; /* no change of the step function */
                return;
            }
        } else if (same_value(s->v[n - 1], value)) {
            return; /* no change */
        }
    }
    if (n == s->cap) {
        grow_and_put(s, n, time_s, value);
        return;
    }
    s->t[n] = time_s;
    s->v[n] = value;
    s->n = n + 1;
}

/* The common case inline: a later time and a value that differs from the
 * last one, both ordered (islessgreater is false for equal or unordered
 * operands, one comparison and one branch each, where == with the NaN
 * rule took two and three), with room: 17 instructions a point against 24
 * (the flagship's trace records 146,891 points).  Everything else goes to
 * record_slow, which applies the rules in full. */
void dc_series_record(dc_series *s, double time_s, double value)
{
    if (!s || !s->on)
        return;
    size_t n = s->n;
    double *t = s->t, *v = s->v;
    if (n == 0 || n == s->cap || !islessgreater(t[n - 1], time_s) || !islessgreater(v[n - 1], value)) {
        record_slow(s, time_s, value);
        return;
    }
    t[n] = time_s;
    v[n] = value;
    s->n = n + 1;
}

const char *dc_series_name(const dc_series *s)
{
    return s ? s->name : NULL;
}

const char *dc_series_unit(const dc_series *s)
{
    return s ? s->unit : NULL;
}

const char *dc_series_doc(const dc_series *s)
{
    return s ? s->doc : NULL;
}

size_t dc_series_length(const dc_series *s)
{
    return s ? s->n : 0;
}

const double *dc_series_times(const dc_series *s)
{
    return s ? s->t : NULL;
}

const double *dc_series_values(const dc_series *s)
{
    return s ? s->v : NULL;
}
