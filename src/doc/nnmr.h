#pragma once
/* The JSON output of `genebench nnmr --json`: one compact JSON object and a newline. This module
 * is its only writer and its only parser. Keys, in this order:
 *   original, hardened (the two files), n (paired programs), metric ("cosine similarity"),
 *   gallery, ties (GB_NNMR_DOC_GALLERY, GB_NNMR_DOC_TIES), embedding (a one-line description),
 *   embedding_source (an object of strings and integers: src/cli/embed_opts.h),
 *   nnmr_orig_to_hard, misses_orig_to_hard, nnmr_hard_to_orig, misses_hard_to_orig,
 *   mean_rank_orig_to_hard, mean_rank_hard_to_orig,
 *   displacement: {median, mean, at_least_1}, counterpart_cosine: {mean, median},
 *   tasks: [{id, counterpart_cosine, nearest_hard_of_orig, nearest_orig_of_hard,
 *            rank_orig_to_hard, rank_hard_to_orig, displacement}] (in ORIG's order),
 *   only_in_original: [id...], only_in_hardened: [id...].
 * What the numbers mean is in src/measure/nnmr.h. Reals are written by
 * src/base/json_write.h gb_json_number (6 decimals at most; not finite: null, NAN here).
 * Every string is owned. Thread-safe (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/doc_write.h"

/* The constant descriptions the document carries (and `nnmr`'s text output prints). */
#define GB_NNMR_DOC_METRIC "cosine similarity"
#define GB_NNMR_DOC_GALLERY "the whole other set (its own counterpart included, nothing from the query's own set)"
#define GB_NNMR_DOC_TIES                                                                                               \
    "lowest index wins (ORIG.jsonl order): a tie counts as a miss unless the counterpart is the "                      \
    "lowest-index tied program"

/* One paired task. */
typedef struct {
    char *id;
    double counterpart_cosine;
    char *nearest_hard_of_orig, *nearest_orig_of_hard; /* task ids */
    size_t rank_orig_to_hard, rank_hard_to_orig;
    double displacement;
} GbNnmrDocTask;

typedef struct {
    char *original, *hardened;
    size_t n;
    char *embedding;
    char *embedding_source;                      /* compact JSON text of an object of strings and integers */
    double nnmr_orig_to_hard, nnmr_hard_to_orig; /* percentages */
    size_t misses_orig_to_hard, misses_hard_to_orig;
    double mean_rank_orig_to_hard, mean_rank_hard_to_orig;
    double displacement_median, displacement_mean;
    size_t displaced; /* "at_least_1" */
    double counterpart_cosine_mean, counterpart_cosine_median;
    GbArray(GbNnmrDocTask) tasks;
    GbDocStrings only_in_original, only_in_hardened;
} GbNnmrDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_nnmr_doc_destroy(GbNnmrDoc *doc);
/* Append the document (one line and its newline) to out. */
void gb_nnmr_doc_write(GbStr *out, const GbNnmrDoc *doc);
/* Parse text (name: the file, for messages) into doc (caller storage, initialised here). False
 * with err naming the file and the key that is missing, mistyped, unknown or of another value
 * than the document's constants, or when "n" is not the number of tasks; doc is then empty. */
bool gb_nnmr_doc_parse(const char *text, size_t len, const char *name, GbNnmrDoc *doc, GbError *err);
