/* Network: the cluster's fabric with its link and switch failures, and the cost of collectives on
 * it.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* Network: the cluster's fabric (topology.h) shared by every job
 * (fabric.h), its link and switch failures, and the cost of collectives on
 * it (collective.h).
 *
 * The "network" group describes the fabric: fat_tree (2 or 3 tiers, leaf
 * and pod oversubscription), rail_optimized (each node's NIC i on rail
 * switch i of its rail group) or torus3d; the scale-up (NVLink) domain;
 * NICs per node and their bandwidth; latencies; how a job's ranks follow its
 * nodes (packed: in node order, rings ordered by location as NCCL builds
 * them; scattered: in random order); the collective algorithm (auto = the
 * fastest).  A fabric that cannot connect the cluster's nodes is an error.
 * The network tells the cluster its domains (leaf and pod of each node) at
 * init, for placement.
 *
 * Jobs: the step-time model registers each job with a layout and its
 * representative ring (dc_network_job_traffic); from then on the job's flows
 * are on the fabric while it holds an allocation (from its first run on it
 * until it gives its nodes back), sharing the links they
 * leave max-min fairly with every other job's (fabric.h), and
 * "network_changed" (payload dc_job_event) tells the step-time model when a
 * job's bandwidth may have changed: when a job sharing one of its binding
 * links starts or stops, or the health of a unit it uses changes, unless
 * every ring the job was given since it was last told (through
 * dc_network_job_collective, at most 8 of them) and its nodes' health are
 * still exactly as they were (then computing anew would give the same).
 *
 * Failures ("network.failures" list): each entry names a part (nic_link,
 * leaf_link, pod_link, leaf_switch, spine_switch, core_switch), its mean
 * time between failures per unit (exponential: mtbf_h or afr) and a
 * repair-time law.  Each part is one superposed Poisson process of rate
 * units / MTBF thinned to the working units (as in failure.h), with its own
 * random stream "network.PART"; a failed unit comes back after its repair
 * time (the network's own crew: no repair ticket).  A failure lowers the
 * capacity of the units it touches, and so the bandwidth of the jobs whose
 * rings leave them (rerouted over what is left).  A failure that leaves a
 * unit a computing job communicates through without any path interrupts
 * that job as a job-level fault ("net_cut" in /events; no node is taken
 * down; the job rolls back and restarts, assumed placed around the dead
 * part, which then no longer limits it).  Don't also list the same failures
 * in the "failures" section: Llama 3's "network switch/cable"
 * interruptions are there already in the flagship, which therefore lists
 * here only parts whose loss costs bandwidth.
 *
 * Figures: network.max_nodes, network.failures.PART, network.interruptions
 * (all jobs), network.degraded_h (time a job on the fabric used a degraded
 * node, leaf or pod), network.min_health; series network_health (the worst
 * health among the units jobs on the fabric use). */
#ifndef DC_NETWORK_H
#define DC_NETWORK_H

#include "collective.h"
#include "sim.h"
#include "topology.h"

typedef struct dc_network dc_network;

extern const dc_model_type dc_model_network;
extern const dc_param dc_network_params[];

/* The network model of sim, or NULL when the scenario has no network. */
dc_network *dc_network_of(dc_sim *sim);
/* The jobs' flows on the fabric (fabric.h), for tests; NULL without a network section. */
struct dc_fabric *dc_network_fabric(dc_network *net);
const dc_topology *dc_network_topology(const dc_network *net);
/* The collective algorithm the scenario asks for. */
dc_coll_algo dc_network_algorithm(const dc_network *net);
/* op over n ranks at stride GPUs on bytes, with the scenario's algorithm and
 * the fabric's current health. */
dc_coll_cost dc_network_collective(const dc_network *net, dc_coll_op op, uint32_t n, uint32_t stride,
                                   double bytes);
/* A job whose collectives load the fabric (fabric.h): its nodes and its
 * representative ring, n ranks at stride GPUs; register at init.  From then
 * on its flows are on the fabric while it holds an allocation, and "network_changed"
 * (dc_job_event) tells when its bandwidth may have changed.  DC_OK or
 * DC_ENOMEM. */
int dc_network_job_traffic(dc_network *net, int32_t job, uint32_t nodes, uint32_t n, uint32_t stride);
/* The job (registered) now computes on nodes nodes with that ring (an
 * elastic job's new size): its flows are placed anew when it next runs. */
void dc_network_job_resize(dc_network *net, int32_t job, uint32_t nodes, uint32_t n, uint32_t stride);
/* op of cluster job id job over n of its ranks at stride GPUs on bytes,
 * with algorithm algo (AUTO: the fastest), on the bandwidth the job gets. */
dc_coll_cost dc_network_job_collective(dc_network *net, int32_t job, dc_coll_op op, dc_coll_algo algo,
                                       uint32_t n, uint32_t stride, double bytes);

#endif
