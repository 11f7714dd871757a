/* Virtual clusters: pools that lend idle nodes to other pools' queued jobs and reclaim them (the scheduler's bookkeeping).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Virtual clusters as Philly (Jeon et al., "Analysis of large-scale
 * multi-tenant GPU clusters for DNN training workloads", USENIX ATC 2019)
 * and Helios (Hu et al., SC 2021) ran them: each team's pool (virtual
 * cluster) owns its nodes; a pool with `lend = true` lends the nodes it
 * leaves idle to queued jobs of pools with `borrow = true`, and takes them
 * back (reclaims them) when its own jobs need them.
 *
 * The scheduler decides (scheduler.c); this module keeps what it must know
 * without a scan:
 *   - per job handle: its lender (one pool: a job borrows from one pool
 *     only), the lender's nodes it holds (lent_n), and while it leaves the
 *     lent nodes counted as on their way back;
 *   - per lender: its guests (the jobs holding its nodes), the nodes lent
 *     now and those on their way back;
 *   - per pool the integrals (node-seconds) of the nodes lent and borrowed,
 *     each pool banked with its own clock when its count changes, so that
 *     a change costs O(1) and the lending-off path is untouched.
 * The lender chosen for a job short of k nodes is the lending pool with the
 * most lendable idle nodes, at least k (lowest pool on ties).  Reclaim
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

/* The lender for a job of pool borrower short of short_n (>= 1) nodes:
 * among the other lending pools, the one whose lendable(ctx, pool) idle
 * nodes are the most and at least short_n; -1 when none. */
int dc_vcluster_pick(const dc_vcluster *vc, int borrower, uint32_t short_n, uint32_t (*lendable)(void *ctx, int pool),
                     void *ctx);

/* Job handle h of pool borrower started at start_s holding n_lent nodes of
 * lender (with its priority and preemptible flag, for the reclaim order);
 * DC-style code: 0, or -1 when out of memory (nothing changed). */
int dc_vcluster_start(dc_vcluster *vc, double now_s, int h, int borrower, int lender, uint32_t n_lent, int priority,
                      bool preemptible, double start_s);
/* The lender of h (-1: it borrows nothing) and the lender's nodes it holds. */
int dc_vcluster_lender_of(const dc_vcluster *vc, int h);
uint32_t dc_vcluster_lent_of(const dc_vcluster *vc, int h);
/* A lent node held by h failed (h holds one fewer). */
void dc_vcluster_node_lost(dc_vcluster *vc, double now_s, int h);
/* h starts leaving (preempted, reclaimed, timed out): its lent nodes count
 * as on their way back until dc_vcluster_end; returns them (0 for a job
 * that borrows nothing or is already leaving). */
uint32_t dc_vcluster_leaving(dc_vcluster *vc, int h);
/* The lent nodes dc_vcluster_leaving counted for h (0 when not leaving). */
uint32_t dc_vcluster_leaving_of(const dc_vcluster *vc, int h);
/* h gave its nodes back; returns the lent nodes dc_vcluster_leaving
 * counted for it (0 if it was not leaving).  h borrows nothing after. */
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
