#pragma once
/* The summary of `genebench inject-bugs` (OUT.jsonl.summary.json; the command prints the same
 * numbers as a table): one compact JSON object and a newline. This module is its only writer and
 * its only parser. Keys, in this order:
 *   tool ("genebench inject-bugs"), version, original, hardened (the two input files), seed,
 *   orders: [min, max], max_per_task, max_attempts, timeout_s, python,
 *   tasks, processed, skipped, errors, unmatched, bad_lines, mutants,
 *   sites: {found, shared, unmapped, moved, no_common_variant},
 *   by_order: {"<order>": {tasks_with_mutant, share, <outcome of src/doc/mutant_outcome.h>: n...,
 *                          unusable, duplicate (since bugs are deduplicated; absent in older summaries),
 *                          tasks_exhausted}} for every order from min to max,
 *   time_s.
 * What the counts mean is in src/inject/inject.h and the command's help. Numbers are written by
 * src/base/json_write.h gb_json_number (6 decimals at most). Every string is owned. Thread-safe
 * (no shared state). */
#include <stdbool.h>
#include <stddef.h>

#include "src/base/util.h"
#include "src/doc/mutant_outcome.h"

#define GB_INJECT_BUGS_DOC_TOOL "genebench inject-bugs"

/* The totals of one order. */
typedef struct {
    size_t tasks_with_mutant; /* processed tasks with at least one kept mutant */
    double share;             /* tasks_with_mutant / processed (0 when none was) */
    size_t outcome[GB_MUTANT_OUTCOME_COUNT];
    size_t unusable, tasks_exhausted;
    bool has_duplicate; /* "duplicate" is written (older summaries have none) */
    size_t duplicate;   /* mutants dropped as the same buggy program as one kept before */
} GbInjectBugsOrder;

typedef struct {
    char *version, *original, *hardened, *python;
    unsigned long long seed;
    int order_min, order_max;
    size_t max_per_task, max_attempts;
    double timeout_s;
    size_t tasks, processed, skipped, errors, unmatched, bad_lines, mutants;
    size_t sites_found, sites_shared, sites_unmapped, sites_moved, sites_no_common_variant;
    GbArray(GbInjectBugsOrder) orders; /* order_min .. order_max, in that order */
    double time_s;
} GbInjectBugsDoc;

/* Free what doc owns (caller storage; a zeroed document is fine). */
void gb_inject_bugs_doc_destroy(GbInjectBugsDoc *doc);
/* Append the document (one line and its newline) to out. */
void gb_inject_bugs_doc_write(GbStr *out, const GbInjectBugsDoc *doc);
/* Parse text (name: the file, for messages) into doc (caller storage, initialised here). False
 * with err naming the file and the key that is missing, mistyped or unknown, or when "by_order"
 * does not hold exactly the orders of "orders"; doc is then empty. */
bool gb_inject_bugs_doc_parse(const char *text, size_t len, const char *name, GbInjectBugsDoc *doc, GbError *err);
