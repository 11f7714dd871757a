/* Storage tiers, the transfers between them and the jobs' nodes, and the training dataset's stream.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Storage tiers, the transfers between them and the job's nodes, and the
 * training dataset's stream.
 *
 * Tiers ("storage.tiers" list), each of a kind:
 *   hbm, ddr, nvme   on every node: capacity and bandwidth per node; a
 *                    transfer from k nodes can use k times a node's
 *                    bandwidth; hbm and ddr lose their contents when their
 *                    node fails (volatile);
 *   pfs, object      shared: capacity and bandwidth in all, reached through
 *                    each node's storage link (node_link_gbps).
 * Each tier has read and write bandwidth, latency, a cost per TB-month and
 * optionally a time-to-failure law per unit (dist.h: per node for node
 * tiers, for the whole tier otherwise) with a repair law: each unit
 * alternates lives and repairs, with its own random stream "storage.NAME"
 * (exponential node devices: one superposed process thinned to the working
 * devices, as in failure.h).  A failed shared tier has no bandwidth until
 * repaired; a failed node device takes its node's share of the tier's
 * bandwidth (and its contents: "storage_loss" signal) until repaired.
 *
 * Sharing (sim/flows.h): every transfer is a fluid flow on the resources
 * it crosses: the tier's read or write bandwidth over the job's nodes
 * (node tiers: nodes x per-node bandwidth x the fraction of devices up;
 * shared tiers: the tier's bandwidth) and, for shared tiers, the job's
 * storage links in that direction (nodes x node_link).  A flow of k nodes
 * has weight k (max-min fair per node) and is capped at what its k nodes'
 * hardware moves.  Flows are re-rated only when a flow starts or ends or a
 * capacity changes; "storage_changed" is published when a transfer starts,
 * ends or is cancelled, or a tier fails or is repaired.
 *
 * The dataset ("storage.dataset"): read from a tier, optionally through a
 * cache tier holding a fraction h of it (auto: h = min(1, job nodes x
 * cache capacity per node / dataset size), a distributed cache of the
 * whole dataset), bytes_per_token per training token.  Three streams run
 * from the job's nodes: misses from the source ((1-h) of the bytes), hits
 * from the cache (h) and the misses written into the cache (h < 1).  For
 * D bytes per step at a step time T their demands are (1-h) D / T, h D / T
 * and (1-h) D / T; one step's read takes max of amount / allocated rate.
 * The streams keep their demand while the job restarts or checkpoints (the
 * loaders' prefetch is not modelled).
 * The step-time model turns a read slower than the step into data stall.
 *
 * Figures: storage.TIER.capacity_tb (in all), storage.TIER.cost_usd (over
 * the simulated time; months of 30.44 days), storage.TIER.failures,
 * storage.TIER.down_h (shared: tier-hours down; node tiers: device-hours
 * down), storage.TIER.checkpoint_write_s (a checkpoint of the job's size
 * written from all its nodes at the start, alone: the blocking write time
 * that tier would give; storage.checkpoint_gb its size), storage.cost_usd, storage.cost_usd_per_month,
 * storage.dataset.cache_hit. */
#ifndef DC_STORAGE_H
#define DC_STORAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "flows.h"
#include "sim.h"

typedef enum dc_tier_kind { DC_TIER_HBM, DC_TIER_DDR, DC_TIER_NVME, DC_TIER_PFS, DC_TIER_OBJECT } dc_tier_kind;
typedef enum dc_io_dir { DC_IO_READ, DC_IO_WRITE } dc_io_dir;

/* Payload of the "storage_loss" signal: a tier lost data (node -1: a shared
 * tier failed as a whole). */
typedef struct dc_storage_loss {
    int tier;
    int32_t node;
} dc_storage_loss;

typedef struct dc_storage dc_storage;

extern const dc_model_type dc_model_storage;
extern const dc_param dc_storage_params[];

/* The storage model of sim, or NULL when the scenario has no storage. */
dc_storage *dc_storage_of(dc_sim *sim);

size_t dc_storage_tier_count(const dc_storage *st);
/* The tier named name (or, with dc_storage_tier_of_kind, the first of that
 * kind); -1 if none. */
int dc_storage_tier(const dc_storage *st, const char *name);
int dc_storage_tier_of_kind(const dc_storage *st, dc_tier_kind kind);
const char *dc_storage_tier_name(const dc_storage *st, int tier);
dc_tier_kind dc_storage_tier_kind(const dc_storage *st, int tier);
bool dc_storage_kind_per_node(dc_tier_kind kind);
bool dc_storage_kind_volatile(dc_tier_kind kind);
/* Per node for node tiers, in all for shared ones. */
double dc_storage_capacity_bytes(const dc_storage *st, int tier);
double dc_storage_bandwidth_Bps(const dc_storage *st, int tier, dc_io_dir dir);
double dc_storage_latency_s(const dc_storage *st, int tier);
/* Shared tiers: 1 if up, 0 if failed; node tiers: fraction of the job's
 * nodes whose device works. */
double dc_storage_up_fraction(const dc_storage *st, int tier);
/* Whether node's device of a node tier works (shared tiers: whether the
 * tier is up). */
bool dc_storage_node_up(const dc_storage *st, int tier, uint32_t node);

/* The rate (bytes/s) a transfer between nodes of the job's nodes and tier
 * would get now, sharing max-min fairly with the transfers in progress. */
double dc_storage_rate_Bps(const dc_storage *st, int tier, dc_io_dir dir, uint32_t nodes);
/* latency + bytes / that rate: what such a transfer takes if nothing else
 * starts or ends meanwhile (INFINITY when the tier is down). */
double dc_storage_transfer_s(const dc_storage *st, int tier, dc_io_dir dir, double bytes, uint32_t nodes);
/* Starts a transfer of bytes between nodes of the job's nodes and tier;
 * done runs at its end (re-rated as other transfers come and go).  The
 * latency is not simulated: add it.  DC_FLOW_NONE after failing the run. */
dc_flow_id dc_storage_transfer(dc_storage *st, int tier, dc_io_dir dir, double bytes, uint32_t nodes,
                               dc_flow_done_fn done, void *ctx);
void dc_storage_cancel(dc_storage *st, dc_flow_id id);
double dc_storage_transfer_rate_Bps(const dc_storage *st, dc_flow_id id);

/* The dataset stream. */
bool dc_storage_has_dataset(const dc_storage *st);
double dc_storage_dataset_bytes_per_token(const dc_storage *st);
bool dc_storage_dataset_prefetch(const dc_storage *st);
/* Sets the streams' demand for bytes_per_step every step_s and returns the
 * time one step's bytes take at the rates they get (INFINITY when a tier
 * they need is down). */
double dc_storage_dataset_read_s(dc_storage *st, double bytes_per_step, double step_s);

#endif
