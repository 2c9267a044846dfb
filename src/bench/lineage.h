#pragma once
/* Rebuilding the rungs of a pick's lineage ("genebench.lineage", nsga2/record.h) from an evolve
 * output, and choosing rungs for graded levels of complexity (`genebench levels`). Rung 0 is the
 * original program, rung k (1 <= k <= lineage.len) the program after the k-th operator
 * application; the last rung is the task's output program. Stateless and thread-safe. */
#include <stdbool.h>
#include <stddef.h>

#include "nsga2/record.h"
#include "src/model/program.h"
#include "src/base/util.h"

/* Rung k's program into out (caller storage, initialised here; destroy it in every case): the
 * original with the patches of rungs 1..k applied, and the first lineage[k-1].edits entries of
 * r->edits as its history (when both are recorded). False with err when k exceeds the lineage, the
 * record has no "original", or a patch does not fit the text it applies to. */
bool gb_lineage_rung_program(const GbRecord *r, size_t k, GbProgram *out, GbError *err);

/* A rung's scores: rung 0 from "before" (tokens = its num_tokens), others from the lineage. */
typedef struct {
    double rc, rr, tokens;
    long lines;     /* -1 when unknown (rung 0: counted by the caller) */
    const char *op; /* borrowed; NULL for rung 0 */
} GbRungScore;
GbRungScore gb_lineage_rung_score(const GbRecord *r, size_t k);

/* How levels are graded. */
typedef enum {
    GB_LEVELS_BY_RUNGS, /* level i of K: rung round(i * n / K) of a lineage of n rungs */
    GB_LEVELS_BY_RC,    /* level i: the first rung whose RC reaches target lo + i (hi - lo) / K, else the last */
    GB_LEVELS_BY_SIZE   /* level i: the highest-RC rung with tokens <= (1 + i (budget - 1) / K) x the original's */
} GbLevelsBy;
/* "rungs", "rc", "size" (static); false when s names none. */
bool gb_levels_by_parse(const char *s, GbLevelsBy *out);
const char *gb_levels_by_name(GbLevelsBy by);

/* The rung of r chosen for level i of k (0 <= i <= k; level 0 is always rung 0). rc_lo and rc_hi
 * are the RC targets' range (GB_LEVELS_BY_RC), budget the size budget (GB_LEVELS_BY_SIZE). */
size_t gb_levels_pick(const GbRecord *r, GbLevelsBy by, size_t i, size_t k, double rc_lo, double rc_hi, double budget);
/* The highest-RC rung (ties: the earlier) whose tokens are at most budget x the original's: the
 * size-matched level. */
size_t gb_levels_pick_within(const GbRecord *r, double budget);
