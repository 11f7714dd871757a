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
 * Sharing (sim/flows.h), by every job at once: every transfer is a fluid
 * flow on the resources it crosses.  A shared tier's read or write
 * bandwidth is one resource for all jobs (so simultaneous checkpoints of
 * k equal jobs each take k times the solo write time when the tier is
 * what limits them); each job has its own storage links in each direction
 * (its nodes x node_link) and its own devices of each node tier (its nodes
 * x per-node bandwidth x the fraction of its nodes' devices up), shared
 * only by its own transfers and streams.  A flow of k nodes has weight k
 * (max-min fair per node) and is capped at what its k nodes' hardware
 * moves.  Flows are re-rated only when a flow starts or ends or a capacity
 * changes; "storage_changed" is published (payload NULL) when a transfer
 * starts, ends or is cancelled, or a tier fails or is repaired, and (a
 * dc_job_event) for each job whose dataset streams get new rates.
 *
 * The dataset ("storage.dataset"), read by every job with a step-time
 * model (steptime.h; a job opts out with dataset = false): from a tier,
 * optionally through a cache tier holding a fraction h of it (auto: h =
 * min(1, job nodes x cache capacity per node / dataset size), a
 * distributed cache of the whole dataset), bytes_per_token per training
 * token.  Three streams per job run from its nodes: misses from the source
 * ((1-h) of the bytes), hits from the cache (h) and the misses written
 * into the cache (h < 1).  For D bytes per step at a step time T their
 * demands are (1-h) D / T, h D / T and (1-h) D / T; one step's read takes
 * max of amount / allocated rate.  A job's streams stand while it holds an
 * allocation (from its running until preempted or done) and keep their
 * demand while it restarts or checkpoints (the loaders' prefetch is not
 * modelled); all jobs' streams share the source tier max-min.
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
/* Shared tiers: 1 if up, 0 if failed; node tiers: fraction of the nodes of
 * job whose device works (1 when the job uses no storage now). */
double dc_storage_up_fraction(const dc_storage *st, int tier, int32_t job);
/* Whether node's device of a node tier works (shared tiers: whether the
 * tier is up). */
bool dc_storage_node_up(const dc_storage *st, int tier, uint32_t node);

/* The rate (bytes/s) a transfer between nodes nodes of job (-1: no job:
 * its links are its own cap only) and tier would get now, sharing max-min
 * fairly with the transfers in progress. */
double dc_storage_rate_Bps(const dc_storage *st, int tier, dc_io_dir dir, int32_t job, uint32_t nodes);
/* latency + bytes / that rate: what such a transfer takes if nothing else
 * starts or ends meanwhile (INFINITY when the tier is down). */
double dc_storage_transfer_s(const dc_storage *st, int tier, dc_io_dir dir, double bytes, int32_t job,
                             uint32_t nodes);
/* Starts a transfer of bytes between nodes nodes of job and tier; done
 * runs at its end (re-rated as other transfers come and go).  The latency
 * is not simulated: add it.  DC_FLOW_NONE after failing the run. */
dc_flow_id dc_storage_transfer(dc_storage *st, int tier, dc_io_dir dir, double bytes, int32_t job, uint32_t nodes,
                               dc_flow_done_fn done, void *ctx);
void dc_storage_cancel(dc_storage *st, dc_flow_id id);
double dc_storage_transfer_rate_Bps(const dc_storage *st, dc_flow_id id);

/* The dataset stream. */
bool dc_storage_has_dataset(const dc_storage *st);
double dc_storage_dataset_bytes_per_token(const dc_storage *st);
bool dc_storage_dataset_prefetch(const dc_storage *st);
/* Makes job (of nodes nodes) a reader of the dataset (at init; DC_OK or
 * DC_ENOMEM).  Its streams stand from its running until it gives its nodes
 * back (job_phase PENDING or DONE). */
int dc_storage_dataset_register(dc_storage *st, int32_t job, uint32_t nodes);
/* Sets job's streams' demand for bytes_per_step every step_s and returns
 * the time one step's bytes take at the rates they get (not standing: the
 * rates each would get alone now; INFINITY when a tier they need is down;
 * 0 for a job not registered). */
double dc_storage_dataset_read_s(dc_storage *st, int32_t job, double bytes_per_step, double step_s);
/* The job's cache hit fraction (NAN: not a reader). */
double dc_storage_dataset_cache_hit(const dc_storage *st, int32_t job);

#endif
