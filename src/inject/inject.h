#pragma once
/* Bug injection for program-repair benchmarks: the same bugs in an original
 * program and in its hardened version, so a repair model can be compared fairly on both.
 *
 * Shared sites. Mutation sites (src/inject/mutate.h, operators M1-M5) are found in the ORIGINAL
 * program. A site is shared with the hardened program when its byte range survives the
 * hardening: the range is mapped forward through the hardened task's edit history
 * ("genebench"."edits", nsga2/evolve.h) with gb_inject_map_range, the hardened module has
 * the same text at the mapped range, gb_mutate_find_sites lists a site of the same operator
 * on exactly that range in the hardened module (the same operator node, not refused there),
 * and at least one variant is offered in both versions with the same label and the same
 * edits relative to the site. Sites are never matched by line or statement text.
 *
 * Mutants. A mutant of order k applies one variant at each of k distinct shared sites whose
 * edits do not overlap, to both versions. Candidates are drawn with PCG32 streams keyed on
 * (seed, hash of the task id, k, candidate number); when the whole candidate space of an
 * order is small (<= GB_INJECT_ENUMERATE combinations) it is listed, shuffled once with the
 * stream of candidate 0 and walked, so "candidates ran out" is exact; otherwise candidate c is
 * drawn (k distinct sites, one common variant each) from stream c, redrawing within it while
 * the draw repeats an earlier candidate or its edits overlap (256 draws without a new usable
 * one end the order). Unusable candidates (overlapping edits) are counted, never run. The original tests run on both
 * mutated versions (src/runner/runner.h); a mutant is kept only when both fail with the same failing-test set
 * (gb_inject_failure_ids). Up to max_per_task mutants are kept per task and order, after at
 * most max_attempts candidates were run.
 *
 * Output. Each kept mutant becomes a canonical task (src/model/task.h): a copy of the original task
 * (tests, entry point, pinned names, meta, ...) with id "<id>#bug-<order>-<n>" (n = 1, 2, ...),
 * the buggy original as source/extra_files, and the fields
 *   "hardened_buggy": {"source", "extra_files"}  the buggy hardened program
 *   "mutations": [{"op", "module", "line", "column", "before", "after", "variant",
 *                  "description", "hardened_line", "hardened_column"}, ...]  (source order;
 *                  line 1-based, column 0-based in bytes)
 *   "failing_tests": [ids]   the failing-test set, the same in both versions
 *   "order": k
 *   "bug": {"of": "<id>", "seed": S, "candidate": c, "original": {"status", "exc_type",
 *           "exc_message"}, "hardened": {...}}   how each version failed
 * A second view of the same mutant (GbInjectResult.hardened) has the buggy HARDENED program
 * as source and "original_buggy" instead of "hardened_buggy", so `genebench export` can
 * write repair tasks of either version.
 *
 * Thread-safety: gb_inject_task may run concurrently for different tasks (the pool is
 * thread-safe; nothing else is shared). */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "src/doc/mutant_outcome.h"
#include "src/inject/mutate.h"
#include "src/model/program.h"
#include "src/runner/runner.h"
#include "src/model/task.h"
#include "src/base/util.h"

#define GB_INJECT_MAX_ORDER 5
/* Largest candidate space of one order that is listed instead of sampled. */
#define GB_INJECT_ENUMERATE 4096

/* Map the byte range [*start, *end) of module `module`'s original text forward through
 * edits[0..n) (application order; edits of other modules are ignored). Per edit replacing
 * [s, e) with text ending at ne:
 *   - replacement (e > s): a range ending at or before s is unchanged; one starting at or after
 *     e shifts by ne - e; any other range overlaps the edited text and is not shared;
 *   - insertion (e == s): at or before the range's start it shifts the range; at or after its
 *     end it leaves it; strictly inside it the range is not shared.
 * Returns false (range unchanged) when the range is not shared. */
bool gb_inject_map_range(const GbApplied *edits, size_t n, const char *module, size_t *start, size_t *end);

/* One variant offered at a shared site in both versions: its index in each site's list. */
typedef struct {
    size_t orig, hard;
} GbInjectVariantPair;

/* A mutation site present in both versions. */
typedef struct {
    size_t module;  /* index into the programs' modules (the same path in both) */
    GbMutSite orig; /* owned: the site in the original module */
    GbMutSite hard; /* owned: the same site in the hardened module */
    GbArray(GbInjectVariantPair) pairs;
} GbSharedSite;

typedef GbArray(GbSharedSite) GbSharedSites;

typedef struct {
    size_t found;      /* sites in the original program */
    size_t unmapped;   /* an edit of the hardening touched the site */
    size_t moved;      /* mapped, but other text or no such operator node at the mapped range */
    size_t no_variant; /* the hardened site offers none of the original's variants */
    size_t shared;     /* = found - unmapped - moved - no_variant */
} GbSharedStats;

/* Append every shared site of every operator to out (module order, then operator order, then
 * source order) and count them into *stats (added to). orig and hard are borrowed; edits are
 * the hardening history that turned orig into hard. */
void gb_inject_shared_sites(const GbProgram *orig, const GbProgram *hard, const GbApplied *edits, size_t nedits,
                            GbSharedSites *out, GbSharedStats *stats);
void gb_shared_sites_destroy(GbSharedSites *sites);

/* Apply the chosen variants of shared sites (pairs[i] of sites[i]) to the original
 * (hardened == false) or the hardened program (true): base is that program (borrowed),
 * *out (caller storage, initialised here) gets the mutant. Returns false with err set when
 * two edits overlap or a mutated module does not parse (*out is then empty). */
bool gb_inject_apply(const GbProgram *base, bool hardened, const GbSharedSite *const *sites, const size_t *pairs,
                     size_t n, GbProgram *out, GbError *err);

typedef GbArray(char *) GbInjectIds;
/* The failing-test set of a failed run, as ids that are comparable across versions of a
 * program: the runner's failed_tests (unittest "Class.test_method", stdio case indices)
 * sorted and without duplicates; for an assert task, the failing statement of the TEST code
 * ("tests line 7: assert f(2) == 3", never a line of the program); "(program)" when the
 * run failed before any test could fail (e.g. the program raised while loading). Empty for a
 * passing run. Strings are owned; free with gb_inject_ids_destroy. */
void gb_inject_failure_ids(const GbRunResult *r, GbInjectIds *out);
void gb_inject_ids_destroy(GbInjectIds *ids);

/* The outcome of a mutant from its two runs (both already made); the outcomes and their words are
 * in src/doc/mutant_outcome.h. */
GbMutantOutcome gb_inject_classify(const GbRunResult *orig, const GbRunResult *hard);

typedef struct {
    uint64_t seed;
    int order_min, order_max; /* 1 <= order_min <= order_max <= GB_INJECT_MAX_ORDER */
    size_t max_per_task;      /* mutants kept per task and order (default 5) */
    size_t max_attempts;      /* candidates run per task and order (default 40) */
    GbPool *pool;             /* borrowed, shared */
} GbInjectConfig;

void gb_inject_config_defaults(GbInjectConfig *cfg);

typedef struct {
    size_t outcome[GB_MUTANT_OUTCOME_COUNT]; /* candidates run, by outcome */
    size_t unusable;                         /* candidates drawn but not run (edits overlap) */
    size_t duplicate; /* candidates not run: the buggy original program is a kept bug's (identical) */
    bool exhausted;   /* every candidate of this order was tried */
} GbInjectOrderStats;

typedef enum {
    GB_INJECT_OK,      /* processed (possibly with no valid mutant) */
    GB_INJECT_SKIPPED, /* the original or the hardened program fails the tests, or evolve failed it */
    GB_INJECT_ERROR    /* no usable hardening record, or it was made from another program */
} GbInjectStatus;

typedef struct {
    GbInjectStatus status;
    char message[1200]; /* why the task was skipped or failed, else empty */
    GbSharedStats sites;
    GbInjectOrderStats orders[GB_INJECT_MAX_ORDER + 1]; /* indexed by order */
    GbArray(GbTask) mutants;                            /* owned: kept mutants (order ascending, then n) */
    GbArray(GbTask) hardened; /* owned: the same mutants with the buggy hardened program as source */
} GbInjectResult;

void gb_inject_result_destroy(GbInjectResult *r);

/* Inject bugs into one task: orig is the task of the original benchmark, hard its hardened
 * counterpart (an output of `genebench evolve`: "original" and "genebench"."edits"). Always
 * fills res (caller storage, initialised here). Thread-safe for distinct results. */
void gb_inject_task(const GbInjectConfig *cfg, const GbTask *orig, const GbTask *hard, GbInjectResult *res);
