/* The scheduler's ordered sets of jobs: a treap keyed by the caller's order, with subtree sums and minima.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* An ordered set of small integers (the scheduler's entry handles), kept
 * in the order a caller's comparison gives (a treap: Aragon and Seidel
 * 1989, "Randomized search trees"; its priorities are a fixed hash of the
 * handle, so the shape and every result are deterministic).  Each member
 * carries a size (nodes) and a run-time estimate; every subtree keeps the
 * sum of the sizes, the least size and the least estimate, so that
 *   - dc_stree_prefix finds the first member in order at which the running
 *     sum of sizes reaches a target (EASY's shadow time over the running
 *     jobs ordered by expected end), and
 *   - dc_stree_find finds the first member after a given one whose size
 *     and estimate may let it start now (EASY's backfilling candidates),
 *     skipping every subtree whose minima rule all its members out,
 * each in O(log n) expected steps (find: plus the members it must look at
 * and reject).  Insert and remove are O(log n) expected.  The comparison
 * must be a strict total order on the members and must not change while a
 * member is in the set.  dc_stree_work counts the tree nodes visited (the
 * scheduler's work counter, for the scaling test). */
#ifndef DC_SCHEDTREE_H
#define DC_SCHEDTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* true when member a ranks before member b */
typedef bool (*dc_stree_before)(const void *ctx, int a, int b);

typedef struct dc_stree_node {
    int l, r;
    uint64_t prio; /* its heap priority (schedtree.c's prio of its handle), kept */
    uint32_t nodes, min_nodes;
    uint64_t sum_nodes;
    double est_s, min_est_s;
    bool in;
} dc_stree_node;

typedef struct dc_stree {
    dc_stree_node *n;
    size_t cap;
    int root;
    size_t count;
    dc_stree_before before;
    const void *ctx;
    uint64_t work;
} dc_stree;

void dc_stree_init(dc_stree *t, dc_stree_before before, const void *ctx);
void dc_stree_free(dc_stree *t);
/* Adds handle h (>= 0, not a member) with its size and estimate; -1 when
 * out of memory (nothing changed), else 0. */
int dc_stree_insert(dc_stree *t, int h, uint32_t nodes, double est_s);
/* Removes member h. */
void dc_stree_remove(dc_stree *t, int h);
bool dc_stree_has(const dc_stree *t, int h);
size_t dc_stree_count(const dc_stree *t);
/* The first member in order, -1 when empty. */
int dc_stree_first(dc_stree *t);
/* The first member ranking after h (h need not be a member, but its key
 * must still compare), -1 when none. */
int dc_stree_next(dc_stree *t, int h);
/* The first member m in order, after member-or-key `after` (-1: from the
 * start), with nodes(m) <= max_nodes and (now_s + est(m) <= shadow_s or
 * nodes(m) <= extra); -1 when none. */
int dc_stree_find(dc_stree *t, int after, uint32_t max_nodes, long extra, double now_s, double shadow_s);
/* The first member m in order at which the sum of sizes up to and
 * including m reaches target (>= 1); *sum receives that sum.  -1 when all
 * members together hold less. */
int dc_stree_prefix(dc_stree *t, uint64_t target, uint64_t *sum);
/* The sum of sizes over the longest prefix (in order) whose members all
 * satisfy pred, which must hold for a prefix of the order and fail after
 * it (e.g. "expected end <= t" in order of expected end). */
uint64_t dc_stree_sum_while(dc_stree *t, bool (*pred)(const void *ctx, int h, const void *arg), const void *arg);
uint64_t dc_stree_work(const dc_stree *t);

#endif
