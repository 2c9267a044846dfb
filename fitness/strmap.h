#pragma once
/* A small open-addressing hash map from byte strings to a 64-bit value, used by the metric
 * passes (name sets, import tables, token frequencies). Keys are borrowed unless the map was
 * initialised with copy_keys (then each key is copied and owned by the map). Not thread-safe;
 * one map per computation. Internal to fitness/. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *key; /* NULL: empty slot */
    uint32_t len;
    uint64_t hash;
    uint64_t val;
} GbStrMapSlot;

typedef struct {
    GbStrMapSlot *slots; /* owned */
    size_t cap;          /* power of two */
    size_t count;
    bool copy_keys;
} GbStrMap;

void gb_strmap_init(GbStrMap *m, bool copy_keys);
void gb_strmap_destroy(GbStrMap *m);
/* Pointer to the value of key, or NULL when absent (valid until the next insertion). */
uint64_t *gb_strmap_get(const GbStrMap *m, const char *key, size_t len);
/* Pointer to the value of key, inserting it with value init when absent (*inserted says which). */
uint64_t *gb_strmap_put(GbStrMap *m, const char *key, size_t len, uint64_t init, bool *inserted);
