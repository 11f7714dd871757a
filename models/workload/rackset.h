/* Idle nodes per rack of a pool, kept so that placement finds its rack without scanning the pool.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* The racks of one pool by their count of idle nodes: for each count
 * c = 1..max a set of the racks holding exactly c idle nodes (a bitset with
 * a summary word per 64 words, so its lowest member is found in a few
 * steps whatever the number of racks).  dc_rackset_best_fit answers the
 * "rack" placement's question: the rack with the fewest idle nodes that
 * still holds need (best fit), else the rack with the most idle nodes;
 * among equal counts the lowest rack.  An update is O(levels), a query
 * O(max) word tests plus O(levels).  The scheduler also keeps its shared
 * nodes in one (items: nodes, counts: free GPUs) for best-fit packing of
 * jobs smaller than a node. */
#ifndef DC_RACKSET_H
#define DC_RACKSET_H

#include <stdint.h>

typedef struct dc_rackset dc_rackset;

/* n_racks racks of at most max_count idle nodes each, all at 0; NULL when
 * out of memory. */
dc_rackset *dc_rackset_create(uint32_t n_racks, uint32_t max_count);
void dc_rackset_destroy(dc_rackset *rs);
/* One more (delta +1) or one fewer (-1) idle node in rack. */
void dc_rackset_add(dc_rackset *rs, uint32_t rack, int delta);
uint32_t dc_rackset_count(const dc_rackset *rs, uint32_t rack);
/* The rack placement should fill next for need more nodes; -1 when no rack
 * has an idle node. */
int64_t dc_rackset_best_fit(dc_rackset *rs, uint32_t need);
uint64_t dc_rackset_work(const dc_rackset *rs);
/* Sets rack's count (0..max_count) at once. */
void dc_rackset_set(dc_rackset *rs, uint32_t rack, uint32_t count);
/* The lowest rack with the least count >= need (best fit only); -1 when
 * none has that many. */
int64_t dc_rackset_fit(dc_rackset *rs, uint32_t need);
/* The highest count of any rack (0: all empty). */
uint32_t dc_rackset_highest(dc_rackset *rs);

#endif
