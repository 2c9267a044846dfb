#pragma once
/* DIR/similarity.json of `genebench versions`: for every pair of versions (the original and each
 * seed) the per-task similarity and its distribution, and the NNMR between the original and each
 * version. This module is its only writer and its only parser (`versions` writes it, `report`
 * reads it). Numbers are written by src/base/json_write.h gb_json_number (NaN as null).
 * Thread-safe (no shared state). */
#include "src/doc/sim_measure_list.h"
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/doc_write.h"

/* The measures of a task and of a pair's summary, in the order they are written. */
enum { GB_VSIM_MEASURES = GB_SIM_MEASURE_COUNT };
extern const char *const gb_vsim_measure_keys[GB_VSIM_MEASURES];

/* Strings are borrowed when a command fills the document, owned when gb_vsim_doc_parse did. */
typedef struct {
    const char *id;
    double v[GB_VSIM_MEASURES];
} GbVsimTask;

/* The distribution of one measure over a pair's tasks. */
typedef GbDocStats GbVsimStats;

typedef struct {
    const char *a, *b; /* "original", "seed-<S>" */
    GbArray(GbVsimTask) per_task;
    GbVsimStats summary[GB_VSIM_MEASURES];
} GbVsimPair;

/* NNMR between the original and one version, written as "original_to_<L>", "<L>_to_original"
 * and "graded_<L>": {...}. */
typedef struct {
    const char *label;
    double o2h, h2o; /* percentages */
    double mean_rank_o2h, mean_rank_h2o, displacement_median, displacement_mean;
    size_t displaced; /* "displacement_at_least_1" */
} GbVsimNnmr;

typedef struct {
    const char *tokenizer;
    GbArray(GbVsimPair) pairs;
    bool has_embedding; /* "embedding" and "embedding_source" present (no NNMR without them) */
    const char *embedding;
    /* "embedding_source": the embedding's description as compact JSON text, an object whose
     * values are strings and integers (src/cli/embed_opts.h writes it; the parser checks it and
     * rewrites it in that form) */
    const char *embedding_source;
    GbArray(GbVsimNnmr) nnmr;
} GbVsimDoc;

/* Append the document (one line of compact JSON and its newline) to out. */
void gb_vsim_doc_write(GbStr *out, const GbVsimDoc *doc);
/* Parse the text of a similarity.json into doc (caller storage, initialised here; destroy it in
 * both cases). name names the file in messages. Refuses malformed JSON, a missing, mistyped or
 * unknown key, and NNMR keys that do not come in their three per version. */
bool gb_vsim_doc_parse(const char *text, const char *name, GbVsimDoc *doc, GbError *err);
/* Free what gb_vsim_doc_parse allocated. */
void gb_vsim_doc_destroy(GbVsimDoc *doc);
/* Free only the arrays of a document a command filled with borrowed strings. */
void gb_vsim_doc_release(GbVsimDoc *doc);
