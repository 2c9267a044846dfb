#pragma once
/* The evolution of one task (paper Algorithms 1–2 with NSGA-II ranking).
 *
 * The output record of a task (its "original" and "genebench" fields) is typed in
 * nsga2/record.h, which documents the format; src/bench/record.h writes and reads it.
 *
 * The run summary (OUT.summary.json) is the document src/doc/run_summary.h owns and documents;
 * src/report/summary.h computes it from the output records, so `genebench merge` writes the same
 * summary from shards as one run does.
 */
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "fitness/fitness.h"
#include "nsga2/equiv.h"
#include "nsga2/gate_list.h"
#include "nsga2/record.h"
#include "operators/naming.h"
#include "operators/operator.h"
#include "src/model/program.h"
#include "src/runner/runner.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* Natural naming of the final pick: rename the synthetic identifiers of prog in
 * place. Returns false when nothing was renamed. renamed (caller storage) gets the renames
 * appended in order, *mode a static string ("builtin" or "llm"). */
typedef bool (*GbNamingFn)(GbProgram *prog, const GbTask *task, TSParser *parser, void *arg, const GbNames *avoid,
                           GbRenameList *renamed, const char **mode);

/* The budget of validation threads shared by every task of a run: each task thread holds one
 * slot while it evolves a task, and a task whose generation has several children to validate
 * borrows the free slots for helper threads (parallel validation within a task), so the
 * threads that validate never outnumber the slots (the pool's workers, the lint workers).
 * Thread-safe. */
typedef struct {
    atomic_int free;
} GbEvolveSlots;

/* Children validated together in one wave (fixed, so the output does not depend on -j). */
#define GB_EVOLVE_WAVE 4

/* n slots, all free. */
void gb_evolve_slots_init(GbEvolveSlots *s, int n);

typedef struct {
    uint64_t seed;
    int generations;    /* generation limit; 0 = none (then time_budget must be set) */
    double time_budget; /* seconds per task; 0 = none */
    double breed;       /* fraction of the ranked population that breeds (0.2) */
    int max_parents;    /* cap on parents per generation (keeps a generation's cost bounded) */
    /* Validations per generation (the budget goes where it pays). The children of a
     * generation are measured first (cheap: their objectives are static), ranked with the
     * population by NSGA-II's crowded comparison, and validated in that order in waves of
     * min(accept, GB_EVOLVE_WAVE) until `accept` of them have joined the population; the rest are dropped
     * unvalidated (and not counted as offered). 0: every child is validated (breeding order). */
    int accept;
    /* What selection and the pick maximise besides RR (and the distance from earlier
     * versions): false (default) = RC; true = gb_fitness_rc_balanced, which spreads complexity
     * over the dimensions at a cost in readability (nsga2/README.md). RC is what the record
     * reports either way. */
    bool balanced;
    bool lint;       /* pylint gate */
    bool keep_front; /* write the sources of the whole final front */
    bool equiv;      /* the equivalence gate (nsga2/equiv.h; its seed is `seed`) */
    GbEquivConfig equiv_cfg;
    bool ops[GB_OP_COUNT]; /* enabled operators */
    const GbThresholds *thresholds;
    const char *thresholds_name;
    GbPool *pool;      /* shared, thread-safe */
    GbNamingFn naming; /* may be NULL: no renaming */
    void *naming_arg;
    volatile sig_atomic_t *stop; /* set asynchronously to stop early (may be NULL) */
    /* Shared validation slots (borrowed; NULL: each task validates one child at a time). The
     * output does not depend on it: children are validated in parallel and committed in
     * breeding order, exactly as one at a time. Each helper thread holds its own lint
     * session, so the pool needs as many lint workers as slots. */
    GbEvolveSlots *slots;
    /* Diversity (versions, `evolve --away-from`): the earlier versions of a task to evolve away
     * from. away(away_arg, task, out, cap) fills out with up to cap of them (the caller destroys
     * them) and returns how many; NULL or 0: none. With earlier versions, every individual gets
     * its similarity: the token Jaccard (src/python/tokensim.h) to the nearest earlier version.
     * Selection gets a third objective, -max(similarity, away_target) (nothing is gained below
     * the target), a child must not be dominated by its parent in all three, and the final pick
     * is the highest-scoring individual whose similarity is at most away_target (the original
     * usually is; if none is, the least similar one). */
    size_t (*away)(void *arg, const GbTask *task, GbProgram *out, size_t cap);
    void *away_arg;
    double away_target; /* default 0.40 */
} GbEvolveConfig;

typedef struct {
    long offered[GB_OP_COUNT];
    long rejected[GB_OP_COUNT][GB_GATE_COUNT];
    long accepted[GB_OP_COUNT];
    long in_pick[GB_OP_COUNT];
    double rc_delta[GB_OP_COUNT]; /* summed RC gain of the operator's steps in picks */
    long validated;               /* offspring whose tests were run */
} GbEvolveStats;
void gb_evolve_stats_add(GbEvolveStats *into, const GbEvolveStats *from);

typedef struct {
    GbEvolveStatus status;
    GbTask out;      /* the output task: the input task with the hardened program */
    GbRecord record; /* its output record: attach it to out with gb_record_attach
                      * (src/bench/record.h) before writing out */
    double rc_before, rr_before, rc_after, rr_after;
    bool interrupted;
    char error[512]; /* why the task failed (status ORIGINAL_FAILS / ERROR), else empty */
    GbEvolveStats stats;
    double time_s; /* = record.time_s */
} GbEvolveResult;

void gb_evolve_config_defaults(GbEvolveConfig *cfg);
void gb_evolve_result_destroy(GbEvolveResult *r);

/* Evolve one task (index = its position in the input, part of the rng key together with
 * its id). Always fills res (caller storage): a task whose original fails its tests, or that
 * cannot be measured, gets status ORIGINAL_FAILS / ERROR, its unchanged program and a
 * message in res->error and res->record.error. Thread-safe for distinct parsers/results. */
void gb_evolve_task(const GbEvolveConfig *cfg, const GbTask *task, size_t index, TSParser *parser, GbEvolveResult *res);

/* A hash of the program's lexical tokens (comments and layout ignored), for the duplicate gate. */
uint64_t gb_program_token_hash(const GbProgram *prog, TSParser *parser);
