/* A map from nonzero 64-bit keys to 32-bit values: linear probing, removal by backward shift.
 * Copyright (C) 2026 the dcsim developers.  SPDX-License-Identifier: GPL-3.0-or-later (COPYING). */
#include "keymap.h"

#include <assert.h>
#include <stdlib.h>

#define MIN_SLOTS ((size_t)16)

typedef struct kslot {
    uint64_t key; /* 0: empty */
    uint32_t value;
} kslot;

struct dc_keymap {
    kslot *slots;
    size_t mask; /* slots - 1 (a power of two minus one) */
    size_t n;
    int shift;   /* 64 - log2(slots) */
};

static size_t home(const dc_keymap *m, uint64_t key)
{
    return (size_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> m->shift);
}

static bool rehash(dc_keymap *m, size_t slots)
{
    kslot *s = calloc(slots, sizeof *s);
    if (!s)
        return false;
    kslot *old = m->slots;
    size_t old_slots = old ? m->mask + 1 : 0;
    m->slots = s;
    m->mask = slots - 1;
    m->shift = 64;
    for (size_t v = slots; v > 1; v >>= 1)
        m->shift--;
    for (size_t i = 0; i < old_slots; i++)
        if (old[i].key) {
            size_t j = home(m, old[i].key);
            while (s[j].key)
                j = (j + 1) & m->mask;
            s[j] = old[i];
        }
    free(old);
    return true;
}

dc_keymap *dc_keymap_create(void)
{
    dc_keymap *m = calloc(1, sizeof *m);
    if (m && !rehash(m, MIN_SLOTS)) {
        free(m);
        return NULL;
    }
    return m;
}

void dc_keymap_destroy(dc_keymap *m)
{
    if (!m)
        return;
    free(m->slots);
    free(m);
}

bool dc_keymap_reserve(dc_keymap *m, size_t extra)
{
    size_t need = m->n + extra, slots = m->mask + 1;
    if (need < m->n || need > SIZE_MAX / 4 / sizeof(kslot))
        return false;
    if (2 * need <= slots)
        return true;
    while (2 * need > slots)
        slots *= 2;
    return rehash(m, slots);
}

bool dc_keymap_put(dc_keymap *m, uint64_t key, uint32_t value)
{
    assert(key != 0);
    size_t j = home(m, key);
    while (m->slots[j].key && m->slots[j].key != key)
        j = (j + 1) & m->mask;
    if (m->slots[j].key == key) {
        m->slots[j].value = value;
        return true;
    }
    if (2 * (m->n + 1) > m->mask + 1) {
        if (!dc_keymap_reserve(m, 1))
            return false;
        j = home(m, key);
        while (m->slots[j].key)
            j = (j + 1) & m->mask;
    }
    m->slots[j] = (kslot){key, value};
    m->n++;
    return true;
}

bool dc_keymap_get(const dc_keymap *m, uint64_t key, uint32_t *value)
{
    if (key == 0)
        return false;
    for (size_t j = home(m, key); m->slots[j].key; j = (j + 1) & m->mask)
        if (m->slots[j].key == key) {
            *value = m->slots[j].value;
            return true;
        }
    return false;
}

bool dc_keymap_remove(dc_keymap *m, uint64_t key)
{
    if (key == 0)
        return false;
    size_t j = home(m, key);
    while (m->slots[j].key != key) {
        if (!m->slots[j].key)
            return false;
        j = (j + 1) & m->mask;
    }
    /* Algorithm R: move back every later entry of the run whose home does
     * not lie cyclically in (gap, its slot]. */
    size_t gap = j;
    for (size_t i = (j + 1) & m->mask; m->slots[i].key; i = (i + 1) & m->mask) {
        size_t h = home(m, m->slots[i].key);
        bool stays = gap <= i ? gap < h && h <= i : gap < h || h <= i;
        if (!stays) {
            m->slots[gap] = m->slots[i];
            gap = i;
        }
    }
    m->slots[gap] = (kslot){0, 0};
    m->n--;
    return true;
}

size_t dc_keymap_size(const dc_keymap *m)
{
    return m->n;
}
