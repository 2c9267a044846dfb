#include "fitness/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "src/base/util.h"

void gb_strmap_init(GbStrMap *m, bool copy_keys)
{
    m->slots = NULL;
    m->cap = 0;
    m->count = 0;
    m->copy_keys = copy_keys;
}

void gb_strmap_destroy(GbStrMap *m)
{
    if (m->copy_keys) {
        for (size_t i = 0; i < m->cap; i++) free((char *)m->slots[i].key);
    }
    free(m->slots);
    m->slots = NULL;
    m->cap = m->count = 0;
}

static GbStrMapSlot *gb_strmap__find(const GbStrMap *m, const char *key, size_t len, uint64_t h)
{
    size_t mask = m->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        GbStrMapSlot *s = &m->slots[i];
        if (!s->key) return s;
        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0) return s;
    }
}

uint64_t *gb_strmap_get(const GbStrMap *m, const char *key, size_t len)
{
    if (!m->cap) return NULL;
    GbStrMapSlot *s = gb_strmap__find(m, key, len, gb_hash64(key, len, 0));
    return s->key ? &s->val : NULL;
}

static void gb_strmap__grow(GbStrMap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 64;
    GbStrMapSlot *old = m->slots;
    size_t ocap = m->cap;
    m->slots = gb_calloc(ncap, sizeof *m->slots);
    m->cap = ncap;
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key) continue;
        *gb_strmap__find(m, old[i].key, old[i].len, old[i].hash) = old[i];
    }
    free(old);
}

uint64_t *gb_strmap_put(GbStrMap *m, const char *key, size_t len, uint64_t init, bool *inserted)
{
    if ((m->count + 1) * 4 > m->cap * 3) gb_strmap__grow(m);
    uint64_t h = gb_hash64(key, len, 0);
    GbStrMapSlot *s = gb_strmap__find(m, key, len, h);
    if (inserted) *inserted = s->key == NULL;
    if (!s->key) {
        s->key = m->copy_keys ? gb_strndup(key, len) : key;
        s->len = (uint32_t)len;
        s->hash = h;
        s->val = init;
        m->count++;
    }
    return &s->val;
}
