/* Virtual clusters: pools that lend idle nodes to other pools' queued jobs and reclaim them (the scheduler's bookkeeping).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Virtual clusters as Philly (Jeon et al., "Analysis of large-scale
 * multi-tenant GPU clusters for DNN training workloads", USENIX ATC 2019)
 * and Helios (Hu et al., SC 2021) ran them: each team's pool (virtual
 * cluster) owns its nodes; a pool with `lend = true` lends the nodes it
 * leaves idle to queued jobs of pools with `borrow = true`, and takes them
 * back (reclaims them) when its own jobs need them, or its own service's
 * replicas (scheduler.h: dc_sched_service_wants).
 *
 * The scheduler decides (scheduler.c); this module keeps what it must know
 * without a scan:
 *   - per job handle: its lenders, as one record per lender with the
 *     lender's nodes it holds (lent_n) and, while the job leaves, those
 *     counted as on their way back;
 *   - per lender: its guests (the records of the jobs holding its nodes),
 *     the nodes lent now and those on their way back;
 *   - per pool the integrals (node-seconds) of the nodes lent and borrowed,
 *     each pool banked with its own clock when its count changes, so that
 *     a change costs O(1) and the lending-off path is untouched.
 * The lenders of a job short of k nodes: the lending pool with the most
 * lendable idle nodes (lowest pool on ties) gives what it can, then the
 * next, until the k nodes are found (one lender whenever one has them).  Reclaim
 * order (dc_vcluster_victims): preemptible jobs first, then the lowest
 * priority, then the youngest (latest started), then the latest handle,
 * until the victims' lent nodes reach what is needed.  Lent GPU-hours of a
 * pool summed over the pools equal the borrowed ones (both integrate the
 * same node counts). */
#ifndef DC_VCLUSTER_H
#define DC_VCLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dc_vcluster dc_vcluster;

/* n_pools pools, none lending or borrowing; NULL when out of memory. */
dc_vcluster *dc_vcluster_create(int n_pools);
void dc_vcluster_destroy(dc_vcluster *vc);
void dc_vcluster_set_pool(dc_vcluster *vc, int pool, bool lend, bool borrow, double notice_s);
bool dc_vcluster_lends(const dc_vcluster *vc, int pool);
bool dc_vcluster_borrows(const dc_vcluster *vc, int pool);
/* At most n of the pool's nodes lent at once (default: no limit). */
void dc_vcluster_set_lend_max(dc_vcluster *vc, int pool, uint32_t n);
/* How many more of its nodes the pool may lend now under that limit. */
uint32_t dc_vcluster_lend_room(const dc_vcluster *vc, int pool);
/* Notice a lender gives a borrowed job it reclaims (s). */
double dc_vcluster_notice_s(const dc_vcluster *vc, int pool);
/* Whether lending can happen: a pool lends and another borrows. */
bool dc_vcluster_active(const dc_vcluster *vc);

/* The lenders for a job of pool borrower short of short_n (>= 1) nodes,
 * among the other lending pools by their lendable(ctx, pool) idle nodes
 * (most first): lenders[] and counts[] (room for every pool) receive them
 * and the nodes each gives; returns how many, 0 when all together have
 * fewer than short_n. */
size_t dc_vcluster_pick(const dc_vcluster *vc, int borrower, uint32_t short_n,
                        uint32_t (*lendable)(void *ctx, int pool), void *ctx, int *lenders, uint32_t *counts);

/* Job handle h of pool borrower started at start_s holding counts[k] nodes
 * of lenders[k] for k < n (with its priority and preemptible flag, for the
 * reclaim order); 0, or -1 when out of memory (nothing changed). */
int dc_vcluster_start(dc_vcluster *vc, double now_s, int h, int borrower, size_t n, const int *lenders,
                      const uint32_t *counts, int priority, bool preemptible, double start_s);
/* Whether h holds borrowed nodes' records, and the borrowed nodes it holds. */
bool dc_vcluster_borrowing(const dc_vcluster *vc, int h);
uint32_t dc_vcluster_lent_of(const dc_vcluster *vc, int h);
/* h's lenders with the nodes of each it holds (lent) and, while it leaves,
 * those counted on their way back (leaving); either may be NULL; arrays
 * with room for every pool; returns how many. */
size_t dc_vcluster_lenders(const dc_vcluster *vc, int h, int *lenders, uint32_t *lent, uint32_t *leaving);
/* A node of lender held by h failed (h holds one fewer of lender's). */
void dc_vcluster_node_lost(dc_vcluster *vc, double now_s, int h, int lender);
/* h starts leaving (preempted, reclaimed, timed out): its lent nodes count
 * as on their way back to their lenders until dc_vcluster_end; returns
 * them (0 for a job that borrows nothing or is already leaving). */
uint32_t dc_vcluster_leaving(dc_vcluster *vc, int h);
/* The lent nodes dc_vcluster_leaving counted for h (0 when not leaving). */
uint32_t dc_vcluster_leaving_of(const dc_vcluster *vc, int h);
/* h gave its nodes back; returns the lent nodes dc_vcluster_leaving
 * counted for it (0 if it was not leaving; read dc_vcluster_lenders first
 * for each lender's).  h borrows nothing after. */
uint32_t dc_vcluster_end(dc_vcluster *vc, double now_s, int h);
/* Counts a reclaim: lender evicted borrower's job. */
void dc_vcluster_count_reclaim(dc_vcluster *vc, int lender, int borrower);

/* The lender's nodes held by guests now, and those of them not yet on
 * their way back. */
uint32_t dc_vcluster_lent_now(const dc_vcluster *vc, int pool);
uint32_t dc_vcluster_lent_staying(const dc_vcluster *vc, int pool);
uint32_t dc_vcluster_borrowed_now(const dc_vcluster *vc, int pool);
/* The guests to reclaim from lender, in reclaim order, until their lent
 * nodes reach need (>= 1), skipping those already leaving; writes up to
 * max handles to out and returns how many (0 when all together hold less
 * than need). */
size_t dc_vcluster_victims(dc_vcluster *vc, int lender, uint32_t need, int *out, size_t max);

/* Node-seconds to now_s: the pool's nodes held by other pools' jobs (lent)
 * and other pools' nodes held by its jobs (borrowed). */
double dc_vcluster_lent_node_s(dc_vcluster *vc, int pool, double now_s);
double dc_vcluster_borrowed_node_s(dc_vcluster *vc, int pool, double now_s);
/* Job starts on borrowed nodes; the lender's reclaims; the borrower's jobs
 * reclaimed. */
uint64_t dc_vcluster_borrow_starts(const dc_vcluster *vc, int pool);
uint64_t dc_vcluster_reclaims(const dc_vcluster *vc, int pool);
uint64_t dc_vcluster_reclaimed(const dc_vcluster *vc, int pool);
/* Guest-list steps so far (the scheduler's work counter). */
uint64_t dc_vcluster_work(const dc_vcluster *vc);

#endif
