#pragma once
/* Private to nsga2/: what the files of the evolution loop share (evolve.c was split along its
 * seams). Nothing outside nsga2/ includes this header but the loop's unit test
 * (tests/unit/test_evolve_loop.c); the public API is nsga2/evolve.h. nsga2/README.md walks through
 * the loop.
 *
 *   evolve.c       the task loop: gb_evolve_task, a generation, the final pick and naming
 *   population.c   individuals: measuring, objectives, token hashes, similarity to earlier versions
 *   rank.c         parent selection, the children's validation order, the final pick
 *   breed.c        breeding a generation (jobs per parent and operator range)
 *   stack.c        stacked children of a slow task (several operators per child)
 *   gates.c        the gates of nsga2/gate_list.h, one function per row, run in cost order
 *   wave.c         validating a generation's children in waves (cheap gates, then the expensive
 *                  ones in parallel, then the commit in order)
 *   crew.c         the task's helper threads and the shared validation slots
 *   record_fill.c  the output record of a task (nsga2/record.h) from the finished run */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tree_sitter/api.h>

#include "nsga2/evolve.h"
#include "src/python/flow.h"
#include "src/python/tokensim.h"

/* ---- population.c ---- */

typedef GbArray(uint64_t) GbHashList;

/* The deepest stack a slow task's time gives (stack.c), and the most operators one stacked
 * child carries (a stack that goes on from another carries both). */
#define GB_EVOLVE_STACK_MAX 16
#define GB_EVOLVE_STACK_OPS 32

/* One member of a task's population. */
typedef struct {
    GbProgram prog;
    GbMetrics metrics;
    double rc, rr;
    double score; /* what selection maximises: rc, or gb_fitness_rc_balanced (cfg->balanced) */
    double sim;   /* token Jaccard to the nearest earlier version (0 without earlier versions) */
    uint64_t hash;
    bool measured; /* metrics hold the program's (set when ranked with the others) */
    bool linted;   /* lint holds the program's pylint score (from its lint gate) */
    double lint;
    long parent;                  /* index in the population, -1 for the original */
    int op;                       /* operator that made it from its parent, -1 for the original */
    int ops[GB_EVOLVE_STACK_OPS]; /* a stacked child's operators, in order (ops[0] == op) ... */
    int nops;                     /* ... and how many; 0 for any other individual (see gb_individual_ops) */
    GbArray(char *) tried;        /* "op\x1fsite" pairs already used to breed from this individual */
    bool spent;                   /* a breeding found no site left untried: it never breeds again */
    bool verified;                /* agreed with the original on the kept inputs outside the screen too, and
                                   * with the cases run in one probe, passed them run apart (it and its ancestors) */
    bool refuted;                 /* failed either: dominated by every other, never picked or written */
    signed char apart;            /* with the cases run in one probe, run apart too: 1 passed, -1 failed, 0 not run */
} GbIndividual;

typedef GbArray(GbIndividual) GbPopulation;
typedef struct GbEvolveCrew GbEvolveCrew;
typedef struct GbValidatePhase GbValidatePhase;
typedef struct GbBreedPhase GbBreedPhase;

/* One task's evolution: its population and everything gb_evolve_finish needs to describe the run. */
typedef struct {
    const GbEvolveConfig *cfg;
    const GbTask *task;
    size_t index;
    GbPopulation pop;
    const char *stop_reason;
    int generations;
    double lint_before, lint_after;
    bool have_lint, lint_failed; /* under lint_mu */
    GbError lint_err;            /* why the original could not be linted (lint_failed) */
    pthread_mutex_t lint_mu;     /* the original's lint: the first thread at a lint gate does it */
    GbLintSession *lint;         /* every lint of the task, in order (reproducible: src/runner/runner.h) */
    GbProgram orig_prog;         /* pop.items[0].prog (a shallow copy: the population grows while helpers
                                    lint, so they never read pop) */
    struct GbEvolveCrew *crew;   /* the task's helper threads (gb_evolve_validate_generation), NULL: none */
    GbEquiv *equiv;              /* the original's results on the derived inputs (NULL: no equivalence gate) */
    size_t refuted;              /* programs that passed the screen and were refuted (gb_evolve_verify) */
    int stack;                   /* operators a stacked child may carry (stack.c); 1: no stacking */
    double case_wall_s;          /* a stdio task's original: wall seconds of its tests per case (0: other) */
    bool tests_together;         /* the tests gate runs a stdio task's cases in one probe (gb_evolve_verify
                                  * runs them apart on what is written) ... */
    size_t apart_refuted;        /* ... and how many programs failed them there */
    /* per operator, children of this task that passed every gate (a stacked child counts for each
     * of its operators), and one-operator children a gate that runs the program rejected */
    size_t op_passed[GB_OP_COUNT], op_failed[GB_OP_COUNT];
    size_t stacked; /* stacked children that joined the population */
    /* what the expensive gates cost this task so far, per gate class (GB_GATE_CLASS_RUN: tests and
     * equivalence, GB_GATE_CLASS_LINT): evaluations, rejections and wall seconds (under cost_mu) */
    pthread_mutex_t cost_mu;
    long cost_n[2], cost_rej[2];
    double cost_s[2];
    char *equiv_error; /* why recording them failed, or NULL */
    char *error;
    GbRenameList renamed;
    const char *naming_mode;
    bool naming_kept;
    GbTokenBag *away; /* the earlier versions' tokens (cfg->away) */
    size_t n_away;
    GbNames away_names; /* identifiers of the earlier versions that the original lacks: the naming
                           step avoids them */
} GbRun;

/* With a screen (nsga2/equiv.h), the pick -- with --keep-front every program of the final front
 * -- is checked on the kept inputs the screen left out before it is written; one that disagrees
 * there (or cannot be checked) is refuted (run->refuted counts them), and the pick or front is
 * taken again without it. Nothing without a screen. */
void gb_evolve_verify(GbRun *run);
void gb_individual_destroy(GbIndividual *ind);
/* The operators that made ind from its parent, in order, into ops (GB_EVOLVE_STACK_OPS
 * entries); returns how many (0 for the original). */
int gb_individual_ops(const GbIndividual *ind, int *ops);
/* Whether ind was already bred from with operator op at the site key. */
bool gb_individual_was_tried(const GbIndividual *ind, int op, const char *key);
bool gb_evolve_hash_seen(const uint64_t *hashes, size_t n, uint64_t h);
/* ind's rc and score from its metrics. */
/* ind->rc, and ind->score: under --objective rc, RC plus GB_EVOLVE_SPREAD for each C_i above
 * the original's (orig; NULL for the original itself). Seven dimensions add 0.007 at most: enough
 * to prefer, of two forms of one operator, the one that raises a dimension the program has not
 * raised yet (a helper method, C7 +1: RC +0.0107, over a helper class, C6 and C1 +1: +0.0113, once
 * C6 has risen), never a program of visibly less RC. */
#define GB_EVOLVE_SPREAD 0.001
void gb_evolve_set_scores(const GbEvolveConfig *cfg, GbIndividual *ind, const GbMetrics *orig);
/* The objectives of selection, per individual: RC (or the balanced score), RR, and with earlier
 * versions the distance from the nearest one, saturated at the target. Returns k; obj gets
 * n x k values (3n storage). */
size_t gb_evolve_objectives(const GbRun *run, const GbIndividual *const *ind, size_t n, double *obj);
/* The population's objectives (n x 3 storage). */
size_t gb_evolve_pop_objectives(const GbRun *run, double *obj);
/* Every identifier of prog (all modules) into out. */
void gb_evolve_identifiers(const GbProgram *prog, TSParser *parser, GbNames *out);
/* Token Jaccard of prog to the nearest earlier version (0 without earlier versions). */
double gb_evolve_similarity(const GbRun *run, const GbProgram *prog, TSParser *parser);
/* A child's metrics and objectives (once: breeding measures, ranking and the gates reuse it).
 * False when it cannot be measured. */
bool gb_evolve_measure(const GbRun *run, GbIndividual *ch, TSParser *parser);
/* Read the earlier versions of the run's task (cfg->away) into run->away and run->away_names. */
void gb_evolve_away_load(GbRun *run, const GbProgram *orig, TSParser *parser);

/* ---- evolve.c ---- */

/* Whether the run was asked to stop (cfg->stop). */
bool gb_evolve_stopped(const GbEvolveConfig *cfg);

/* ---- rank.c ---- */

/* Whether operator op has failed this task's run gates (tests, equivalence, lint) at least
 * GB_EVOLVE_DEMOTE_FAILS times and never passed them: its children are validated after the
 * others, and stacked children leave it out (a slow task cannot spend its few validations on an
 * operator the linter or the tests keep rejecting there). Demoting an operator that passed a
 * third of the time as well did worse on Avatar (nsga2/README.md). */
#define GB_EVOLVE_DEMOTE_FAILS 2
bool gb_evolve_op_demoted(const GbRun *run, int op);

/* The parents of the next generation: the best cfg->breed of the population in NSGA-II's
 * crowded-comparison order, at most cfg->max_parents. sel gets run->pop.len entries at most;
 * returns how many. */
size_t gb_evolve_select_parents(const GbRun *run, size_t *sel);
/* The children in validation order (GbEvolveConfig.accept): measured, ranked together with the
 * population (crowded comparison on the selection objectives), best first; children that cannot
 * be measured go last, in breeding order. Reorders children in place. */
void gb_evolve_rank_children(GbRun *run, GbIndividual *children, size_t n, TSParser *parser);
/* The final pick, given the population's objectives (obj, k columns): the individual of the
 * first front with the highest score; with earlier versions, among those at most away_target
 * similar to them (the least similar one if there is none). */
size_t gb_evolve_pick(const GbRun *run, const double *obj, size_t k);

/* ---- gates.c ---- */

/* What a gate looks at: one child of the run, the individuals seen so far. The gates that cost
 * more than TREE run in parallel for the children of one generation (nsga2/wave.c): they
 * may read run but not change it, and take what is per thread (parser, lint session) from
 * here; what they count goes to stats, which is the child's own until it is committed. */
typedef struct {
    const GbEvolveConfig *cfg;
    GbRun *run;
    GbIndividual *child;
    TSParser *parser;
    const uint64_t *hashes;
    size_t nhashes;
    GbEvolveStats *stats;
    GbLintSession *lint; /* this thread's lint session */
    /* the equivalence verdict the tests gate took from the probe that judged a stdio task's cases
     * (gb_equiv_check_cases), for the equiv gate; gb_evolve_gates frees it */
    GbEquivVerdict verdict;
    bool have_verdict, verdict_ran;
} GbGateCtx;

/* The gates of cost from..to-1 (GbGateCost), cheapest first and in list order within a cost.
 * Returns the gate that rejected the child, or GB_GATE_COUNT when it passed them all. */
GbGate gb_evolve_gates(GbGateCtx *c, GbGateCost from, GbGateCost to);
/* The original's lint score into run->lint_before (once; thread-safe). False when it cannot be
 * linted (run->lint_failed, run->lint_err). */
bool gb_evolve_lint_original(GbRun *run);

/* The two classes of expensive gates, as wave.c times them. */
enum { GB_GATE_CLASS_RUN, GB_GATE_CLASS_LINT };
/* Whether a child validated on one thread should go through its lint gate before the gates
 * that run it (tests, equivalence): only under a time budget (with --generations the order of
 * nsga2/gate_list.h holds, so which gate rejects a child stays reproducible), once each class
 * was evaluated GB_EVOLVE_COST_SEEN times in this task, and when the lint's wall time per
 * rejection is the smaller: c_L / p_L < c_R / p_R, c the mean wall seconds and p the
 * rejection rate (r + 1) / (n + 2). A child that fails both is then counted at the lint gate. */
#define GB_EVOLVE_COST_SEEN 3
bool gb_evolve_lint_first(GbRun *run);

/* Whether ind reads within the readability gate: no R_j above RT_j, or above the original's
 * value where the original is already above RT_j. */
bool gb_evolve_readable(const GbRun *run, const GbIndividual *ind);

/* ---- stack.c ---- */

/* Under a time budget B, a task whose original takes t wall seconds on its tests breeds stacked
 * children of up to 1 + floor(t / (B / GB_EVOLVE_STACK_SHARE)) operators (at most
 * GB_EVOLVE_STACK_MAX): at B = 15, 2 from 0.05 s, 5 from 0.2 s, 8 from 0.35 s, 16 from 0.75 s. */
#define GB_EVOLVE_STACK_SHARE 300
/* The stack depth for a budget of budget_s seconds (0: none) and the original's tests taking
 * tests_wall_s: 1 (no stacking) to GB_EVOLVE_STACK_MAX. */
int gb_evolve_stack_depth(double budget_s, double tests_wall_s);
/* Under a time budget, up to two more children per parent of the generation's children
 * (appended; *children is reallocated), each built from the parent's children that raise the
 * score and read within the gate, best first: the first such child, then the operators of the
 * next ones applied on top of it one at a time (each at a site chosen by a keyed rng), each kept
 * only when it reads within the readability gate and raises the score. The careful stack takes
 * them by score gain per RR lost, keeps only steps that raise the score by GB_STACK_MIN_RATIO
 * times the RR they lose, and applies its operators again in later passes (up to max(run->stack,
 * GB_STACK_EFF_DEPTH) steps); with run->stack > 1 the bold stack takes them by score gain, each
 * operator once, up to run->stack of them, and for a slow task (run->stack above
 * GB_STACK_EFF_DEPTH) goes on from the careful stack. Operators gb_evolve_op_demoted leaves out.
 * Added only when it carries two or more operators and differs in them from the other; counted as
 * offered to each of its operators (so are its rejection or acceptance, in nsga2/wave.c). */
void gb_evolve_stack_children(GbRun *run, uint64_t task_key, int g, TSParser *parser, GbIndividual **children,
                              size_t *n, GbEvolveStats *stats);

/* ---- wave.c ---- */

/* The validation of one generation's children (nsga2/wave.c explains the waves). */
enum {
    GB_CHILD_UNSEEN,
    GB_CHILD_SKIPPED,
    GB_CHILD_REJECTED,
    GB_CHILD_CANDIDATE,
    GB_CHILD_DEFERRED,
    GB_CHILD_EVALUATED
};

typedef struct {
    int state;           /* GB_CHILD_*; under the crew's mutex while the phase is open */
    GbGate gate;         /* REJECTED / EVALUATED: the rejecting gate or GB_GATE_COUNT */
    GbEvolveStats stats; /* what the expensive gates counted for this child */
    bool part_done[2];   /* split items (GB_ITEM_RUN, GB_ITEM_LINT) evaluated, and ... */
    GbGate part_gate[2]; /* ... their rejecting gates (GB_GATE_COUNT: passed) */
} GbChildEval;

/* A work item of the expensive gates: child * 3 + kind. With helpers and the lint gate on, a
 * child is two items, its gates of cost RUN (tests, equivalence) and those of cost LINT, which may go to
 * different threads (a lint needs no run: rejected by an earlier gate, the child's lint result
 * is ignored); its gate is then the first of the two that rejects it, as in one pass. */
enum { GB_ITEM_ALL, GB_ITEM_RUN, GB_ITEM_LINT, GB_ITEM_KINDS };

struct GbValidatePhase {
    const GbEvolveConfig *cfg;
    GbRun *run;
    GbIndividual *children; /* the generation's children */
    size_t n;
    GbChildEval *evals;
    size_t *todo;  /* the work items of the expensive gates, in order (children in order) */
    bool split;    /* a child is two items (GB_ITEM_RUN, GB_ITEM_LINT), else one (GB_ITEM_ALL) */
    size_t nready; /* entries written (by the task thread) */
    size_t ntodo;  /* entries published (under the crew's mutex when there is a crew) */
    size_t next;   /* the next entry to claim (idem) */
    bool open;     /* helpers may claim (idem) */
};

/* Claim the next published item of ph and evaluate it; false when none is left to claim (or
 * on a stop). With a crew, called with its mutex held, which is released while evaluating. */
bool gb_evolve_eval_next(GbEvolveCrew *crew, GbValidatePhase *ph, TSParser *parser, GbLintSession *lint);
/* Validate a generation's children: all of them in breeding order, or (cfg->accept) in rank
 * order, wave by wave, until cfg->accept joined the population. Takes the children (the array
 * stays the caller's). */
void gb_evolve_validate_generation(const GbEvolveConfig *cfg, GbRun *run, GbIndividual *children, size_t n,
                                   TSParser *parser, GbHashList *hashes, GbEvolveStats *stats);

/* ---- breed.c ---- */

/* Breeding one generation: a job per parent and range of operators (its children in operator
 * order, measured), done by this thread and the helpers; the children are then taken in job
 * order (parent, then operator), as if bred one at a time. Jobs only read the population: the
 * sites they used are marked as tried on their parents afterwards, in the same order. */
typedef struct {
    size_t parent;               /* index in the population */
    int op_from, op_to;          /* operators [op_from, op_to) */
    GbArray(GbIndividual) kids;  /* in operator order */
    GbArray(char *) tried;       /* (operator, site key) used, in operator order: op+1 byte, key */
    long offered[GB_OP_COUNT];   /* children made, and of those ... */
    long unapplied[GB_OP_COUNT]; /* ... the ones the operator could not apply (PARSE gate) */
} GbBreedJob;

struct GbBreedPhase {
    const GbEvolveConfig *cfg;
    GbRun *run;
    uint64_t task_key;
    int generation;
    GbBreedJob *jobs;
    size_t njobs;
    size_t next, done; /* claimed, finished (under the crew's mutex when there is a crew) */
};

/* Claim the next job of bp and breed it; false when none is left (or on a stop). With a crew,
 * called with its mutex held, which is released while breeding. */
bool gb_evolve_breed_next(GbEvolveCrew *crew, GbBreedPhase *bp, TSParser *parser);
/* Breed generation g from the selected parents sel[0..nsel) into children (owned; in parent
 * order, then operator order), counting what is offered and what could not be applied. */
void gb_evolve_breed_generation(const GbEvolveConfig *cfg, GbRun *run, uint64_t task_key, int g, const size_t *sel,
                                size_t nsel, TSParser *parser, GbIndividual **children, size_t *nchildren,
                                GbEvolveStats *stats);

/* ---- crew.c ---- */

/* The helper threads of a task. They live from the first generation that can borrow a slot
 * to the end of the task (or until another task needs the slot back), each with its parser
 * and its lint session kept across generations: a new session costs a fork of the lint
 * worker and a slower first lint. A helper holds one slot, and its session one lint worker,
 * for as long as it lives. */
struct GbEvolveCrew {
    pthread_mutex_t mu;
    pthread_cond_t wake; /* work to claim, or quit */
    pthread_cond_t done; /* a helper evaluated a child */
    GbValidatePhase *ph; /* the open phase, NULL between phases */
    GbBreedPhase *bp;    /* the generation being bred, NULL when none */
    int inflight;        /* helpers evaluating a child */
    bool quit;
    int n; /* helpers running */
    pthread_t tids[GB_EVOLVE_WAVE];
};

/* Take back n validation slots. */
void gb_evolve_slots_give(GbEvolveSlots *s, int n);
/* Have helpers for up to want children besides this thread's: start more on free slots, or,
 * when a task thread waits for a slot (free < 0: another task started while every slot was
 * taken), end them all so that it gets its slot and a lint worker. Returns how many run. */
int gb_evolve_crew_ready(const GbEvolveConfig *cfg, GbRun *run, int want);
/* Stop the run's helpers, give their slots back and end their lint sessions (none: no-op). */
void gb_evolve_crew_end(GbRun *run);

/* ---- record_fill.c ---- */

/* Fill res (its record, error, output task) from the finished run; pick is the final pick's
 * index in the population, front[0..nfront) the first front. Takes run->renamed. */
void gb_evolve_finish(GbRun *run, GbEvolveResult *res, long pick, const size_t *front, size_t nfront);
