#pragma once
/* The evolution of one task (paper Algorithms 1–2 with NSGA-II ranking; DESIGN.md §7).
 *
 * Output format of `genebench evolve` (one canonical task per line, src/model/task.h), with the
 * hardened program in "source"/"extra_files", the same tests and pinned names, and two
 * extra top-level fields:
 *   "original":  {"source": "...", "extra_files": {...}}
 *   "genebench": {
 *     "index": <position of the task in the input>, "seed": S, "status": "hardened" |
 *       "unchanged" (no offspring survived) | "original_fails" | "error", "error": "..." (when any),
 *     "stop_reason": "rc_reached" | "generations" | "time_budget" | "no_offspring" | "interrupted",
 *     "generations": g, "thresholds": "<file>",
 *     "before": {"rc": x, "rr": y, "metrics": {"C1": v, ..., "entropy": v}},
 *     "after":  {"rc": x, "rr": y, "metrics": {...}},
 *     "operators": [{"op": "S1", "name": "AddNestedFor", "site": "<key>", "rc_delta": d}, ...]
 *                  (the pick's applied operators in order; rc_delta = RC gain of that step),
 *     "edits": [{"op": "AddNestedFor", "module": "main.py", "start": s, "old_end": e, "new_end": n}, ...]
 *                  (the pick's edit history in application order: each edit replaced bytes
 *                  [start, old_end) of the module's text at that moment with new text ending at
 *                  new_end; a module an operator created appears as start = old_end = 0),
 *     "front": [{"rc": x, "rr": y, "operators": ["S1", ...], "source"?: "..."}] (final first front;
 *              "source" only with --keep-front),
 *     "gates": {"offered": n, "parse": n, "readability": n, "duplicate": n, "tests": n,
 *               "lint": n, "accepted": n}   (rejections per gate, plus offered/accepted),
 *     "gates_by_operator": {"S1": {same keys}, ...},
 *     "naming": {"mode": "builtin" | "llm", "renamed": {"old": "new", ...}, "kept": true},
 *     "lint": {"before": score, "after": score} (absent with --no-lint),
 *     "time_s": t, "offspring_validated": n }
 * The run summary (OUT.summary.json): {"tool", "version", "seed", "generations", "time_budget",
 *   "breed", "thresholds", "lint", "python": {"interpreter", "version", "numpy", "scipy",
 *   "sklearn", ...}, "tasks", "hardened", "unchanged", "failed", "rc_before_mean",
 *   "rr_before_mean", "rc_after_mean", "rr_after_mean", "time_s", "offspring_validated",
 *   "offspring_per_s", "gates": {...}, "operators": {"S1": {"applied": n, "accepted": n,
 *   "in_picks": n, "mean_rc_delta": d}, ...}}
 */
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "fitness/fitness.h"
#include "operators/operator.h"
#include "src/model/program.h"
#include "src/runner/runner.h"
#include "src/model/task.h"
#include "src/base/util.h"

/* Natural naming of the final pick (issue 6): rename the synthetic identifiers of prog in
 * place. Returns false when nothing was renamed. *renamed_json (owned) gets a JSON object
 * {"old": "new", ...}, *mode a static string ("builtin" or "llm"). */
typedef bool (*GbNamingFn)(GbProgram *prog, const GbTask *task, TSParser *parser, void *arg, char **renamed_json,
                           const char **mode);

typedef struct {
    uint64_t seed;
    int generations;          /* generation limit; 0 = none (then time_budget must be set) */
    double time_budget;       /* seconds per task; 0 = none */
    double breed;             /* fraction of the ranked population that breeds (0.2) */
    int max_parents;          /* cap on parents per generation (keeps a generation's cost bounded) */
    bool lint;                /* pylint gate */
    bool keep_front;          /* write the sources of the whole final front */
    bool ops[GB_OP_COUNT];    /* enabled operators */
    const GbThresholds *thresholds;
    const char *thresholds_name;
    GbPool *pool;             /* shared, thread-safe */
    GbNamingFn naming;        /* may be NULL: no renaming */
    void *naming_arg;
    volatile sig_atomic_t *stop; /* set asynchronously to stop early (may be NULL) */
} GbEvolveConfig;

typedef enum { GB_GATE_PARSE, GB_GATE_READABILITY, GB_GATE_DUPLICATE, GB_GATE_TESTS, GB_GATE_LINT, GB_GATE_COUNT } GbGate;
const char *gb_gate_name(GbGate g);

typedef struct {
    long offered[GB_OP_COUNT];
    long rejected[GB_OP_COUNT][GB_GATE_COUNT];
    long accepted[GB_OP_COUNT];
    long in_pick[GB_OP_COUNT];
    double rc_delta[GB_OP_COUNT]; /* summed RC gain of the operator's steps in picks */
    long validated;               /* offspring whose tests were run */
} GbEvolveStats;
void gb_evolve_stats_add(GbEvolveStats *into, const GbEvolveStats *from);

typedef enum { GB_EVOLVED_HARDENED, GB_EVOLVED_UNCHANGED, GB_EVOLVED_ORIGINAL_FAILS, GB_EVOLVED_ERROR } GbEvolveStatus;

typedef struct {
    GbEvolveStatus status;
    GbTask out; /* the output task: hardened program + "original" and "genebench" fields */
    double rc_before, rr_before, rc_after, rr_after;
    bool interrupted;
    char error[512]; /* why the task failed (status ORIGINAL_FAILS / ERROR), else empty */
    GbEvolveStats stats;
    double time_s;
} GbEvolveResult;

void gb_evolve_config_defaults(GbEvolveConfig *cfg);
void gb_evolve_result_destroy(GbEvolveResult *r);

/* Evolve one task (index = its position in the input, part of the rng key together with
 * its id). Always fills res (caller storage): a task whose original fails its tests, or that
 * cannot be measured, gets status ORIGINAL_FAILS / ERROR, its unchanged program and a
 * message in "genebench".error. Thread-safe for distinct parsers/results. */
void gb_evolve_task(const GbEvolveConfig *cfg, const GbTask *task, size_t index, TSParser *parser, GbEvolveResult *res);

/* A hash of the program's lexical tokens (comments and layout ignored), for the duplicate gate. */
uint64_t gb_program_token_hash(const GbProgram *prog, TSParser *parser);
