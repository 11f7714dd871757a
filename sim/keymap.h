/* A map from nonzero 64-bit keys to 32-bit values: open addressing, for lookups in O(1).
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */

/* A map from nonzero 64-bit keys to 32-bit values.
 *
 * Open addressing with linear probing in a power-of-two table kept at most
 * half full; the home slot of a key is the top bits of key x 2^64 / phi
 * (Fibonacci hashing, Knuth TAOCP 3, 6.4), so keys that differ in their low
 * bits only (unit numbers) spread over the table.  Removal shifts the later
 * entries of the probe run back into the gap (Knuth's Algorithm R), so
 * there are no tombstones and a lookup costs O(1) expected at any history.
 * Memory: 16 bytes per slot, between 2 and 4 slots per key (plus 16 slots).
 * Key 0 is reserved (it marks an empty slot). */
#ifndef DC_KEYMAP_H
#define DC_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct dc_keymap dc_keymap;

/* NULL when out of memory. */
dc_keymap *dc_keymap_create(void);
/* NULL is allowed and does nothing. */
void dc_keymap_destroy(dc_keymap *m);

/* Room for extra more keys without growing: false (map unchanged) when out of memory. */
bool dc_keymap_reserve(dc_keymap *m, size_t extra);
/* Sets key's value (key != 0); false (map unchanged) when out of memory. */
bool dc_keymap_put(dc_keymap *m, uint64_t key, uint32_t value);
/* key's value into *value; false when key is absent. */
bool dc_keymap_get(const dc_keymap *m, uint64_t key, uint32_t *value);
/* Removes key; false when it was absent. */
bool dc_keymap_remove(dc_keymap *m, uint64_t key);
size_t dc_keymap_size(const dc_keymap *m);

#endif
