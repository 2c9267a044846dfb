#pragma once
/* Plain data and writing helpers shared by the document modules of src/doc (no jansson here, so
 * the documents' headers can use them): lists of strings and distributions, written the way the
 * documents write them. Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"

/* A list of owned strings, as the documents' id lists hold them. */
typedef GbArray(char *) GbDocStrings;
void gb_doc_strings_destroy(GbDocStrings *s);
/* Append a list of strings as compact JSON ("[\"a\",\"b\"]"). */
void gb_doc_write_strings(GbStr *out, char *const *items, size_t n);

/* The distribution of a measure over tasks, written as {"mean", "median", "q1", "q3", "min",
 * "max"} with src/base/json_write.h gb_json_number (not finite: null; NAN when parsed). */
typedef struct {
    double mean, median, q1, q3, min, max;
} GbDocStats;
/* Its keys in order, NULL-terminated. */
extern const char *const gb_doc_stat_keys[];
void gb_doc_write_stats(GbStr *out, const GbDocStats *s);

/* One member of an object being written: "key":value, after a comma unless *first (cleared):
 * a string (NULL: null; not UTF-8: U+FFFD), a number (gb_json_number), a count, a boolean. */
void gb_doc_put_string(GbStr *out, const char *key, const char *v, bool *first);
void gb_doc_put_number(GbStr *out, const char *key, double v, bool *first);
void gb_doc_put_count(GbStr *out, const char *key, size_t v, bool *first);
void gb_doc_put_bool(GbStr *out, const char *key, bool v, bool *first);
