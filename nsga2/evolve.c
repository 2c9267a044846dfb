#include "nsga2/evolve.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2/select.h"
#include "operators/harness_policy.h"
#include "src/python/flow.h"
#include "src/python/pyparse.h"
#include "src/python/tokensim.h"

void gb_evolve_config_defaults(GbEvolveConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->generations = 5;
    cfg->breed = 0.2;
    cfg->max_parents = 4;
    cfg->accept = 4;
    cfg->balanced = true;
    cfg->lint = true;
    cfg->equiv = true;
    cfg->away_target = 0.40;
    gb_equiv_config_defaults(&cfg->equiv_cfg);
    for (int i = 0; i < GB_OP_COUNT; i++) cfg->ops[i] = true;
}

void gb_evolve_slots_init(GbEvolveSlots *s, int n)
{
    atomic_init(&s->free, n);
}

/* Take up to want free slots without waiting; returns how many were taken. */
static int gb_evolve__slots_borrow(GbEvolveSlots *s, int want)
{
    if (!s || want <= 0) return 0;
    int cur = atomic_load(&s->free);
    for (;;) {
        int take = cur < want ? cur : want;
        if (take <= 0) return 0;
        if (atomic_compare_exchange_weak(&s->free, &cur, cur - take)) return take;
    }
}

static void gb_evolve__slots_give(GbEvolveSlots *s, int n)
{
    if (s && n > 0) atomic_fetch_add(&s->free, n);
}

void gb_evolve_stats_add(GbEvolveStats *into, const GbEvolveStats *from)
{
    for (int o = 0; o < GB_OP_COUNT; o++) {
        into->offered[o] += from->offered[o];
        into->accepted[o] += from->accepted[o];
        into->in_pick[o] += from->in_pick[o];
        into->rc_delta[o] += from->rc_delta[o];
        for (int g = 0; g < GB_GATE_COUNT; g++) into->rejected[o][g] += from->rejected[o][g];
    }
    into->validated += from->validated;
}

void gb_evolve_result_destroy(GbEvolveResult *r)
{
    gb_task_destroy(&r->out);
    gb_record_destroy(&r->record);
}

static void gb_evolve__hash_leaves(TSNode node, const char *src, uint64_t *h)
{
    uint32_t n = ts_node_child_count(node);
    if (n == 0) {
        if (strcmp(ts_node_type(node), "comment") == 0) return;
        uint32_t a = ts_node_start_byte(node), b = ts_node_end_byte(node);
        *h = gb_hash64(src + a, b - a, *h);
        *h = gb_hash64("\x1f", 1, *h);
        return;
    }
    for (uint32_t i = 0; i < n; i++) gb_evolve__hash_leaves(ts_node_child(node, i), src, h);
}

uint64_t gb_program_token_hash(const GbProgram *prog, TSParser *parser)
{
    uint64_t h = 0;
    for (size_t m = 0; m < prog->modules.len; m++) {
        const GbFile *f = &prog->modules.items[m];
        h = gb_hash64(f->path, strlen(f->path) + 1, h);
        TSTree *t = gb_parse(parser, f->source, strlen(f->source));
        gb_evolve__hash_leaves(ts_tree_root_node(t), f->source, &h);
        ts_tree_delete(t);
    }
    return h;
}

typedef GbArray(uint64_t) GbHashList;

/* One member of a task's population. */
typedef struct {
    GbProgram prog;
    GbMetrics metrics;
    double rc, rr;
    double score; /* what selection maximises: rc, or gb_fitness_rc_balanced (cfg->balanced) */
    double sim;   /* token Jaccard to the nearest earlier version (0 without earlier versions) */
    uint64_t hash;
    bool measured;         /* metrics hold the program's (set when ranked with the others) */
    bool linted;           /* lint holds the program's pylint score (from its lint gate) */
    double lint;
    long parent;           /* index in the population, -1 for the original */
    int op;                /* operator that made it from its parent, -1 for the original */
    GbArray(char *) tried; /* "op\x1fsite" pairs already used to breed from this individual */
} GbIndividual;

static void gb_individual_destroy(GbIndividual *ind)
{
    gb_program_destroy(&ind->prog);
    for (size_t i = 0; i < ind->tried.len; i++) free(ind->tried.items[i]);
    gb_array_free(&ind->tried);
}

/* Tried pairs are stored as one byte op+1 (never NUL) followed by the site key. */
static bool gb_evolve__was_tried(const GbIndividual *ind, int op, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < ind->tried.len; i++) {
        const char *t = ind->tried.items[i];
        if ((unsigned char)t[0] == (unsigned char)(op + 1) && strlen(t + 1) == kl && memcmp(t + 1, key, kl) == 0)
            return true;
    }
    return false;
}

static uint64_t gb_evolve__task_key(const GbTask *task, size_t index)
{
    return gb_hash64(task->id, strlen(task->id), (uint64_t)index * 0x9E3779B97F4A7C15ULL);
}

static bool gb_evolve__hash_seen(const uint64_t *hashes, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        if (hashes[i] == h) return true;
    return false;
}

static void gb_evolve__score(GbRecordScore *out, const GbIndividual *ind)
{
    out->rc = ind->rc;
    out->rr = ind->rr;
    for (int i = 0; i < GB_METRIC_COUNT; i++) out->metrics[i] = ind->metrics.v[i];
}

typedef GbArray(GbIndividual) GbPopulation;
typedef struct GbEvolveCrew GbEvolveCrew;
typedef struct GbValidatePhase GbValidatePhase;
typedef struct GbBreedPhase GbBreedPhase;

/* Everything gb_evolve__finish needs to describe the run. */
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
    struct GbEvolveCrew *crew;   /* the task's helper threads (gb_evolve__validate_generation), NULL: none */
    GbEquiv *equiv;              /* the original's results on the derived inputs (NULL: no equivalence gate) */
    char *equiv_error;           /* why recording them failed, or NULL */
    char *error;
    GbRenameList renamed;
    const char *naming_mode;
    bool naming_kept;
    GbTokenBag *away; /* the earlier versions' tokens (cfg->away) */
    size_t n_away;
    GbNames away_names; /* identifiers of the earlier versions that the original lacks: the naming
                           step avoids them */
} GbRun;

static void gb_evolve__set_scores(const GbEvolveConfig *cfg, GbIndividual *ind)
{
    ind->rc = gb_fitness_rc(&ind->metrics, cfg->thresholds);
    ind->score = cfg->balanced ? gb_fitness_rc_balanced(&ind->metrics, cfg->thresholds) : ind->rc;
}

/* The objectives of selection, per individual: RC, RR, and with earlier versions the distance
 * from the nearest one, saturated at the target. Returns k; obj gets n x k values. */
static size_t gb_evolve__objectives(const GbRun *run, const GbIndividual *const *ind, size_t n, double *obj)
{
    size_t k = run->n_away ? 3 : 2;
    for (size_t i = 0; i < n; i++) {
        obj[k * i] = ind[i]->score;
        obj[k * i + 1] = ind[i]->rr;
        if (k == 3) obj[k * i + 2] = -(ind[i]->sim > run->cfg->away_target ? ind[i]->sim : run->cfg->away_target);
    }
    return k;
}

/* The population's objectives (n x 3 storage). */
static size_t gb_evolve__pop_objectives(const GbRun *run, double *obj)
{
    size_t n = run->pop.len;
    const GbIndividual **ind = gb_malloc((n ? n : 1) * sizeof *ind);
    for (size_t i = 0; i < n; i++) ind[i] = &run->pop.items[i];
    size_t k = gb_evolve__objectives(run, ind, n, obj);
    free(ind);
    return k;
}

/* Every identifier of prog (all modules) into out. */
static void gb_evolve__identifiers(const GbProgram *prog, TSParser *parser, GbNames *out)
{
    for (size_t m = 0; m < prog->modules.len; m++) {
        const char *src = prog->modules.items[m].source;
        TSTree *t = gb_parse(parser, src, strlen(src));
        gb_flow_identifiers(ts_tree_root_node(t), src, out);
        ts_tree_delete(t);
    }
}

/* Token Jaccard of prog to the nearest earlier version. */
static double gb_evolve__similarity(const GbRun *run, const GbProgram *prog, TSParser *parser)
{
    if (!run->n_away) return 0;
    char *text = gb_program_concat(prog);
    GbTokenBag bag;
    gb_token_bag_init(&bag, parser, text, strlen(text));
    double best = 0;
    for (size_t j = 0; j < run->n_away; j++) {
        double x = gb_token_jaccard(&bag, &run->away[j]);
        if (x > best) best = x;
    }
    gb_token_bag_destroy(&bag);
    free(text);
    return best;
}

static void gb_evolve__finish(GbRun *run, GbEvolveResult *res, long pick, const size_t *front, size_t nfront)
{
    const GbEvolveConfig *cfg = run->cfg;
    GbRecord *rec = &res->record;
    rec->index = (long)run->index;
    rec->seed = cfg->seed;
    rec->has_seed = true;
    rec->status = res->status;
    rec->has_status = true;
    if (run->error) rec->error = gb_strdup(run->error);
    rec->stop_reason = gb_strdup(run->stop_reason);
    rec->generations = run->generations;
    rec->thresholds = gb_strdup(cfg->thresholds_name);
    if (run->pop.len > 0) {
        rec->has_scores = rec->has_operators = rec->has_edits = rec->has_front = true;
        gb_evolve__score(&rec->before, &run->pop.items[0]);
        const GbIndividual *best = &run->pop.items[pick];
        gb_evolve__score(&rec->after, best);
        /* The pick's lineage, oldest step first. */
        GbArray(long) chain = {0};
        for (long i = pick; i > 0; i = run->pop.items[i].parent) gb_array_push(&chain, i);
        for (size_t c = chain.len; c-- > 0;) {
            const GbIndividual *ind = &run->pop.items[chain.items[c]];
            const GbIndividual *par = &run->pop.items[ind->parent];
            const GbOperator *op = gb_operator((GbOperatorId)ind->op);
            const GbApplied *last = &ind->prog.history.items[ind->prog.history.len - 1];
            GbRecordStep step = {gb_strdup(op->code), gb_strdup(op->name), gb_strdup(last->site_key),
                                 ind->rc - par->rc};
            gb_array_push(&rec->operators, step);
            res->stats.in_pick[ind->op]++;
            res->stats.rc_delta[ind->op] += ind->rc - par->rc;
        }
        gb_array_free(&chain);
        /* The pick's edit history, so positions in the original can be mapped forward
         * (inject-bugs). */
        for (size_t e = 0; e < best->prog.history.len; e++) {
            const GbApplied *h = &best->prog.history.items[e];
            GbApplied a = {gb_strdup(h->op), gb_strdup(""), gb_strdup(h->module), h->start, h->old_end, h->new_end};
            gb_array_push(&rec->edits, a);
        }
        for (size_t k = 0; k < nfront; k++) {
            const GbIndividual *ind = &run->pop.items[front[k]];
            GbRecordFrontMember m = {ind->rc, ind->rr, {0}, NULL};
            GbArray(long) ch = {0};
            for (long i = (long)front[k]; i > 0; i = run->pop.items[i].parent) gb_array_push(&ch, i);
            for (size_t c = ch.len; c-- > 0;)
                gb_array_push(&m.operators, gb_strdup(gb_operator((GbOperatorId)run->pop.items[ch.items[c]].op)->code));
            gb_array_free(&ch);
            if (cfg->keep_front) m.source = gb_program_concat(&ind->prog);
            gb_array_push(&rec->front, m);
        }
    }
    rec->has_gates = rec->has_gates_by_operator = true;
    for (int o = 0; o < GB_OP_COUNT; o++) {
        GbGateCounts *per = &rec->gates_by_operator[o];
        per->offered = res->stats.offered[o];
        per->accepted = res->stats.accepted[o];
        rec->gates.offered += per->offered;
        rec->gates.accepted += per->accepted;
        for (int g = 0; g < GB_GATE_COUNT; g++) {
            per->rejected[g] = res->stats.rejected[o][g];
            rec->gates.rejected[g] += per->rejected[g];
        }
    }
    if (run->naming_mode) {
        rec->has_naming = true;
        rec->naming_mode = gb_strdup(run->naming_mode);
        rec->renamed = run->renamed;
        memset(&run->renamed, 0, sizeof run->renamed);
        rec->naming_kept = run->naming_kept;
    }
    if (run->have_lint) {
        rec->has_lint = true;
        rec->lint_before = run->lint_before;
        rec->lint_after = run->lint_after;
    }
    rec->offspring_validated = res->stats.validated;
    if (run->cfg->equiv && run->pop.len > 0 && res->status != GB_EVOLVED_ORIGINAL_FAILS) {
        rec->has_equiv = true;
        rec->equiv_inputs = (long)gb_equiv_kept(run->equiv);
        rec->equiv_derived = (long)gb_equiv_derived(run->equiv);
        rec->equiv_large = (long)gb_equiv_large(run->equiv);
        if (run->equiv_error) rec->equiv_error = gb_strdup(run->equiv_error);
    }
    if (run->n_away && run->pop.len > 0) {
        rec->has_away = true;
        rec->away_versions = (long)run->n_away;
        rec->away_target = cfg->away_target;
        rec->away_original = run->pop.items[0].sim;
        rec->away_pick = run->pop.items[pick].sim;
    }
    gb_record_set_original(rec, run->task);

    if (run->error) snprintf(res->error, sizeof res->error, "%s", run->error);
    gb_task_copy(&res->out, run->task);
    if (run->pop.len > 0) gb_program_to_task(&run->pop.items[pick].prog, &res->out);
}

static bool gb_evolve__stopped(const GbEvolveConfig *cfg)
{
    return cfg->stop && *cfg->stop;
}

/* What a gate looks at: one child of the run, the individuals seen so far. The gates after
 * DUPLICATE run in parallel for the children of one generation (gb_evolve__validate): they
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
} GbGateCtx;

/* A child's metrics and objectives (once: breeding measures, ranking and the gates reuse it).
 * False when it cannot be measured. */
static bool gb_evolve__measure(const GbRun *run, GbIndividual *ch, TSParser *parser)
{
    if (ch->measured) return true;
    GbError err;
    if (!gb_metrics_compute(&ch->prog, parser, &ch->metrics, &err)) return false;
    gb_evolve__set_scores(run->cfg, ch);
    ch->rr = gb_fitness_rr(&ch->metrics, run->cfg->thresholds);
    ch->sim = gb_evolve__similarity(run, &ch->prog, parser);
    ch->measured = true;
    return true;
}

/* CPython compiles every module of the child: tree-sitter accepts some programs the interpreter
 * rejects (an annotated name declared nonlocal, ...), which would otherwise cost a sandbox run
 * in the tests gate. When the check itself cannot run, the tests gate decides. */
static bool gb_evolve__compiles(GbGateCtx *c)
{
    if (!c->cfg->pool) return true;
    bool compiles;
    GbError err;
    gb_pool_compile(c->cfg->pool, &c->child->prog, &compiles, &err);
    return compiles;
}

/* One function per row of nsga2/gate_list.h, named after its id: true when the child passes. */
static bool gb_evolve__pass_PARSE(GbGateCtx *c)
{
    return gb_evolve__measure(c->run, c->child, c->parser) && gb_evolve__compiles(c);
}

/* Some R_j above RT_j rejects, except where the original itself is already above RT_j: there
 * the child may not read worse than the original (otherwise a program that starts above a
 * threshold, e.g. a dense one-liner, could never change). */
static bool gb_evolve__pass_READABILITY(GbGateCtx *c)
{
    const GbMetrics *orig = &c->run->pop.items[0].metrics;
    for (int j = 0; j < GB_N_READABILITY; j++) {
        double r = c->child->metrics.v[GB_N_COMPLEXITY + j], rt = c->cfg->thresholds->rt[j];
        double limit = orig->v[GB_N_COMPLEXITY + j] > rt ? orig->v[GB_N_COMPLEXITY + j] : rt;
        if (r > limit) return false;
    }
    return true;
}

static bool gb_evolve__pass_DUPLICATE(GbGateCtx *c)
{
    c->child->hash = gb_program_token_hash(&c->child->prog, c->parser);
    return !gb_evolve__hash_seen(c->hashes, c->nhashes, c->child->hash);
}

/* The parent dominates the child: no better in any objective, worse in one. */
static bool gb_evolve__pass_DOMINATED(GbGateCtx *c)
{
    GbIndividual *ch = c->child; /* measured by the PARSE gate */
    const GbIndividual *pair[2] = {&c->run->pop.items[ch->parent], ch};
    double obj[6];
    size_t k = gb_evolve__objectives(c->run, pair, 2, obj);
    bool worse = false;
    for (size_t i = 0; i < k; i++) {
        if (obj[k + i] > obj[i] + 1e-12) return true;
        if (obj[k + i] < obj[i] - 1e-12) worse = true;
    }
    return !worse;
}

static bool gb_evolve__pass_TESTS(GbGateCtx *c)
{
    GbError err;
    GbRunResult rr;
    c->stats->validated++;
    bool ran = gb_pool_run(c->cfg->pool, c->run->task, &c->child->prog, &rr, &err);
    bool pass = ran && rr.status == GB_RUN_PASS;
    gb_run_result_destroy(&rr);
    return pass;
}

/* Read-only on the run's recorded original (thread-safe). */
static bool gb_evolve__pass_EQUIV(GbGateCtx *c)
{
    if (!c->run->equiv || gb_equiv_kept(c->run->equiv) == 0) return true;
    GbError err;
    GbEquivVerdict v;
    bool ran = gb_equiv_check(c->run->equiv, &c->cfg->equiv_cfg, c->cfg->pool, c->run->task, &c->child->prog, &v, &err);
    bool pass = ran && v.status == GB_RUN_PASS && v.agree && v.cost_ok;
    gb_equiv_verdict_destroy(&v);
    return pass;
}

/* The original's lint score, taken at the task's first lint rather than at its start: the
 * first children are then tested while the lint workers still warm up pylint. The session's
 * lints stay in the same order (the original's first), so the scores do not change. */
static bool gb_evolve__lint_original(GbRun *run)
{
    pthread_mutex_lock(&run->lint_mu);
    bool ok = run->have_lint;
    if (!ok && !run->lint_failed) {
        /* run->lint is the task thread's session; it lints nothing else until this returns
         * (its own lint gate calls this first), so another thread may use it here. */
        if (gb_lint_session_lint(run->lint, &run->orig_prog, &run->lint_before, &run->lint_err)) {
            run->have_lint = ok = true;
            run->lint_after = run->lint_before;
        } else {
            run->lint_failed = true;
        }
    }
    pthread_mutex_unlock(&run->lint_mu);
    return ok;
}

static bool gb_evolve__pass_LINT(GbGateCtx *c)
{
    if (!c->cfg->lint) return true;
    if (!gb_evolve__lint_original(c->run)) return false;
    GbError err;
    double score = 0;
    if (!gb_lint_session_lint(c->lint, &c->child->prog, &score, &err)) return false;
    c->child->lint = score;
    c->child->linted = true;
    return score >= c->run->lint_before - 1e-9;
}

static bool (*const gb_evolve__pass[GB_GATE_COUNT])(GbGateCtx *) = {
#define GB_GATE(id, key, label, rule) gb_evolve__pass_##id,
    GB_GATE_LIST
#undef GB_GATE
};

/* The gates in list order (cost order) from..to-1. Returns the gate that rejected the child,
 * or GB_GATE_COUNT when it passed them all. */
static GbGate gb_evolve__gates(GbGateCtx *c, int from, int to)
{
    for (int g = from; g < to; g++)
        if (!gb_evolve__pass[g](c)) return (GbGate)g;
    return GB_GATE_COUNT;
}

/* The validation of one generation's children, wave by wave (GB_EVOLVE_WAVE children in rank
 * order with cfg->accept, else one wave of all of them in breeding order), so that the
 * population and every count are those of validating the children one at a time, wave after
 * wave, until cfg->accept of them have joined:
 * - The cheap gates (up to DOMINATED) run on this thread, one wave at a time, against the
 *   individuals of the earlier generations.
 * - The expensive gates (in the pool) run in parallel, in order, on this thread and the
 *   task's helper threads. They only read the run, never the population (it grows at commit).
 * - A wave's children are handed to them when the wave comes, or earlier once it is certain
 *   to come: when the children accepted so far plus those of the waves before it that may
 *   still pass are fewer than cfg->accept. No child is validated that one-at-a-time
 *   validation would not validate.
 * - A wave is committed in its order once its children are evaluated. A child whose tokens
 *   equal those of a child accepted before it is a duplicate (where one-at-a-time validation
 *   finds it: before DOMINATED when that child was accepted in an earlier wave); one whose
 *   tokens equal those of an earlier child of its wave is validated only when that one was
 *   rejected, at commit, here. */
enum { GB_CHILD_UNSEEN, GB_CHILD_SKIPPED, GB_CHILD_REJECTED, GB_CHILD_CANDIDATE, GB_CHILD_DEFERRED, GB_CHILD_EVALUATED };

typedef struct {
    int state;           /* GB_CHILD_*; under the crew's mutex while the phase is open */
    GbGate gate;         /* REJECTED / EVALUATED: the rejecting gate or GB_GATE_COUNT */
    GbEvolveStats stats; /* what the expensive gates counted for this child */
    bool part_done[2];   /* split items (GB_ITEM_RUN, GB_ITEM_LINT) evaluated, and ... */
    GbGate part_gate[2]; /* ... their rejecting gates (GB_GATE_COUNT: passed) */
} GbChildEval;

/* A work item of the expensive gates: child * 3 + kind. With helpers and the lint gate on, a
 * child is two items, its runs in the pool (tests, equivalence) and its lint, which may go to
 * different threads (a lint needs no run: rejected by an earlier gate, the child's lint result
 * is ignored); its gate is then the first of the two that rejects it, as in one pass. */
enum { GB_ITEM_ALL, GB_ITEM_RUN, GB_ITEM_LINT, GB_ITEM_KINDS };

struct GbValidatePhase {
    const GbEvolveConfig *cfg;
    GbRun *run;
    GbIndividual *children; /* the generation's children */
    size_t n;
    GbChildEval *evals;
    size_t *todo; /* the work items of the expensive gates, in order (children in order) */
    bool split;   /* a child is two items (GB_ITEM_RUN, GB_ITEM_LINT), else one (GB_ITEM_ALL) */
    size_t nready; /* entries written (by the task thread) */
    size_t ntodo;  /* entries published (under the crew's mutex when there is a crew) */
    size_t next;  /* the next entry to claim (idem) */
    bool open;    /* helpers may claim (idem) */
};

#define GB_GATE_FIRST_PARALLEL (GB_GATE_DOMINATED + 1)

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

/* A job's children: one per applicable operator of its range, at a random site its parent has
 * not yet been bred at with this operator. */
static void gb_evolve__breed(GbBreedPhase *bp, GbBreedJob *job, TSParser *parser)
{
    const GbEvolveConfig *cfg = bp->cfg;
    GbRun *run = bp->run;
    const GbTask *task = run->task;
    size_t pi = job->parent;
    GbIndividual *parent = &run->pop.items[pi]; /* read only (the op context only reads before an edit) */
    GbSiteList sites;
    gb_site_list_init(&sites);
    GbOpContext pctx;
    gb_op_ctx_init(&pctx, &parent->prog, task, parser);
    for (int o = job->op_from; o < job->op_to; o++) {
        if (!cfg->ops[o] || !gb_op_allowed_under(task->harness, (GbOperatorId)o)) continue;
        const GbOperator *op = gb_operator((GbOperatorId)o);
        gb_op_find_sites(&pctx, op, &sites);
        size_t w = 0;
        for (size_t k = 0; k < sites.len; k++) {
            if (gb_evolve__was_tried(parent, o, sites.items[k].key)) {
                free(sites.items[k].key);
                free(sites.items[k].name);
                continue;
            }
            sites.items[w++] = sites.items[k];
        }
        sites.len = w;
        if (sites.len == 0) continue;
        GbRng rng;
        gb_rng_init_keyed(&rng, cfg->seed, bp->task_key, (uint64_t)bp->generation, ((uint64_t)pi << 8) | (uint64_t)o);
        const GbSite *site = &sites.items[gb_rng_bounded(&rng, (uint32_t)sites.len)];
        size_t kl = strlen(site->key);
        char *t = gb_malloc(kl + 2);
        t[0] = (char)(o + 1);
        memcpy(t + 1, site->key, kl + 1);
        gb_array_push(&job->tried, t);
        GbIndividual child;
        memset(&child, 0, sizeof child);
        gb_program_copy(&child.prog, &parent->prog);
        child.parent = (long)pi;
        child.op = o;
        GbOpContext cctx;
        gb_op_ctx_init(&cctx, &child.prog, task, parser);
        GbError err;
        GbApplyStatus st = gb_op_apply(&cctx, op, site, &rng, &err);
        gb_op_ctx_destroy(&cctx);
        job->offered[o]++;
        if (st != GB_APPLY_OK) {
            job->unapplied[o]++;
            gb_individual_destroy(&child);
            continue;
        }
        gb_evolve__measure(run, &child, parser);
        gb_array_push(&job->kids, child);
    }
    gb_op_ctx_destroy(&pctx);
    gb_site_list_destroy(&sites);
}

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

typedef struct {
    GbEvolveCrew *crew;
    const GbEvolveConfig *cfg;
} GbHelperArg;

/* The expensive gates of a work item (any thread, its own parser and lint session). */
static GbGate gb_evolve__eval(GbValidatePhase *ph, size_t item, TSParser *parser, GbLintSession *lint)
{
    size_t c = item / GB_ITEM_KINDS, kind = item % GB_ITEM_KINDS;
    GbChildEval *e = &ph->evals[c];
    GbEvolveStats none;
    GbEvolveStats *stats = kind == GB_ITEM_LINT ? &none : &e->stats; /* the lint gate counts nothing */
    memset(stats, 0, sizeof *stats);
    GbGateCtx ctx = {ph->cfg, ph->run, &ph->children[c], parser, NULL, 0, stats, lint};
    return gb_evolve__gates(&ctx, kind == GB_ITEM_LINT ? GB_GATE_LINT : GB_GATE_FIRST_PARALLEL,
                            kind == GB_ITEM_RUN ? GB_GATE_LINT : GB_GATE_COUNT);
}

/* Record an item's result (under the crew's mutex when there is a crew). */
static void gb_evolve__item_done(GbValidatePhase *ph, size_t item, GbGate gate)
{
    size_t kind = item % GB_ITEM_KINDS;
    GbChildEval *e = &ph->evals[item / GB_ITEM_KINDS];
    if (kind == GB_ITEM_ALL) {
        e->gate = gate;
        e->state = GB_CHILD_EVALUATED;
        return;
    }
    e->part_done[kind - GB_ITEM_RUN] = true;
    e->part_gate[kind - GB_ITEM_RUN] = gate;
    if (e->part_done[0] && e->part_done[1]) {
        e->gate = e->part_gate[0] != GB_GATE_COUNT ? e->part_gate[0] : e->part_gate[1];
        e->state = GB_CHILD_EVALUATED;
    }
}

static bool gb_evolve__item_evaluated(const GbValidatePhase *ph, size_t item)
{
    size_t kind = item % GB_ITEM_KINDS;
    const GbChildEval *e = &ph->evals[item / GB_ITEM_KINDS];
    return kind == GB_ITEM_ALL ? e->state == GB_CHILD_EVALUATED : e->part_done[kind - GB_ITEM_RUN];
}

/* Claim the next job of bp and breed it; false when none is left (or on a stop). With a crew,
 * called with its mutex held, which is released while breeding. */
static bool gb_evolve__breed_next(GbEvolveCrew *crew, GbBreedPhase *bp, TSParser *parser)
{
    if (bp->next >= bp->njobs || gb_evolve__stopped(bp->cfg)) return false;
    GbBreedJob *job = &bp->jobs[bp->next++];
    if (crew) pthread_mutex_unlock(&crew->mu);
    gb_evolve__breed(bp, job, parser);
    if (crew) pthread_mutex_lock(&crew->mu);
    bp->done++;
    if (crew) pthread_cond_broadcast(&crew->done);
    return true;
}

/* Claim the next published item of ph and evaluate it; false when none is left to claim (or
 * on a stop). With a crew, called with its mutex held, which is released while evaluating. */
static bool gb_evolve__eval_next(GbEvolveCrew *crew, GbValidatePhase *ph, TSParser *parser, GbLintSession *lint)
{
    if (ph->next >= ph->ntodo || gb_evolve__stopped(ph->cfg)) return false;
    size_t item = ph->todo[ph->next++];
    if (crew) {
        crew->inflight++;
        pthread_mutex_unlock(&crew->mu);
    }
    GbGate gate = gb_evolve__eval(ph, item, parser, lint);
    if (crew) pthread_mutex_lock(&crew->mu);
    gb_evolve__item_done(ph, item, gate);
    if (crew) {
        crew->inflight--;
        pthread_cond_broadcast(&crew->done);
    }
    return true;
}

static void *gb_evolve__helper(void *arg)
{
    GbHelperArg *ha = arg;
    GbEvolveCrew *crew = ha->crew;
    const GbEvolveConfig *cfg = ha->cfg;
    free(ha);
    TSParser *parser = gb_parser_new();
    GbLintSession *lint = cfg->lint ? gb_lint_session_new(cfg->pool) : NULL;
    pthread_mutex_lock(&crew->mu);
    while (!crew->quit) {
        if (crew->bp && gb_evolve__breed_next(crew, crew->bp, parser)) continue;
        if (crew->ph && crew->ph->open && gb_evolve__eval_next(crew, crew->ph, parser, lint)) continue;
        pthread_cond_wait(&crew->wake, &crew->mu); /* nothing to do: until a phase is posted */
    }
    pthread_mutex_unlock(&crew->mu);
    gb_lint_session_delete(lint);
    ts_parser_delete(parser);
    return NULL;
}

/* Stop the run's helpers, give their slots back and end their lint sessions. */
static void gb_evolve__crew_end(GbRun *run)
{
    GbEvolveCrew *crew = run->crew;
    if (!crew) return;
    pthread_mutex_lock(&crew->mu);
    crew->quit = true;
    pthread_cond_broadcast(&crew->wake);
    pthread_mutex_unlock(&crew->mu);
    for (int h = 0; h < crew->n; h++) pthread_join(crew->tids[h], NULL);
    run->crew = NULL;
    gb_evolve__slots_give(run->cfg->slots, crew->n);
    pthread_cond_destroy(&crew->wake);
    pthread_cond_destroy(&crew->done);
    pthread_mutex_destroy(&crew->mu);
    free(crew);
}

/* Have helpers for up to want children besides this thread's: start more on free slots, or,
 * when a task thread waits for a slot (free < 0: another task started while every slot was
 * taken), end them all so that it gets its slot and a lint worker. Returns how many run. */
static int gb_evolve__crew_ready(const GbEvolveConfig *cfg, GbRun *run, int want)
{
    if (!cfg->slots) return 0;
    if (run->crew && atomic_load(&cfg->slots->free) < 0) gb_evolve__crew_end(run);
    if (want > GB_EVOLVE_WAVE) want = GB_EVOLVE_WAVE;
    int have = run->crew ? run->crew->n : 0;
    if (have >= want) return have;
    int more = gb_evolve__slots_borrow(cfg->slots, want - have);
    if (more == 0) return have;
    if (!run->crew) {
        GbEvolveCrew *crew = gb_calloc(1, sizeof *crew);
        pthread_mutex_init(&crew->mu, NULL);
        pthread_cond_init(&crew->wake, NULL);
        pthread_cond_init(&crew->done, NULL);
        run->crew = crew;
    }
    GbEvolveCrew *crew = run->crew;
    int started = 0;
    for (int h = 0; h < more; h++) {
        GbHelperArg *ha = gb_malloc(sizeof *ha);
        ha->crew = crew;
        ha->cfg = cfg;
        if (pthread_create(&crew->tids[crew->n], NULL, gb_evolve__helper, ha) != 0) {
            free(ha);
            continue;
        }
        crew->n++;
        started++;
    }
    gb_evolve__slots_give(cfg->slots, more - started);
    return crew->n;
}

static void gb_evolve__accept(GbRun *run, GbIndividual *child, GbHashList *hashes, GbEvolveStats *stats)
{
    /* rc, rr and sim were set when it was measured */
    stats->accepted[child->op]++;
    gb_array_push(hashes, child->hash);
    gb_array_push(&run->pop, *child);
}

static size_t gb_evolve__program_size(const GbProgram *prog)
{
    size_t n = 0;
    for (size_t m = 0; m < prog->modules.len; m++) n += strlen(prog->modules.items[m].source);
    return n;
}

/* The cheap gates on children[from..to) (one wave), against the nprev hashes of the earlier
 * generations; those that pass are written to todo (not yet published) for the expensive
 * gates, but for one whose tokens equal those of an earlier one of the wave (deferred).
 * Returns how many were deferred. */
static size_t gb_evolve__cheap_wave(GbValidatePhase *ph, size_t from, size_t to, TSParser *parser,
                                    const GbHashList *hashes, size_t nprev, GbEvolveStats *stats)
{
    size_t deferred = 0;
    size_t first = ph->nready, nt = ph->nready;
    for (size_t c = from; c < to; c++) {
        GbChildEval *e = &ph->evals[c];
        if (gb_evolve__stopped(ph->cfg)) {
            e->state = GB_CHILD_SKIPPED;
            continue;
        }
        GbGateCtx ctx = {ph->cfg, ph->run, &ph->children[c], parser, hashes->items, nprev, stats, ph->run->lint};
        e->gate = gb_evolve__gates(&ctx, 0, GB_GATE_FIRST_PARALLEL);
        if (e->gate != GB_GATE_COUNT) {
            e->state = GB_CHILD_REJECTED;
            continue;
        }
        e->state = GB_CHILD_CANDIDATE;
        for (size_t k = first; k < nt && e->state == GB_CHILD_CANDIDATE; k++)
            if (ph->children[ph->todo[k] / GB_ITEM_KINDS].hash == ph->children[c].hash) e->state = GB_CHILD_DEFERRED;
        if (e->state != GB_CHILD_CANDIDATE)
            deferred++;
        else
            ph->todo[nt++] = c * GB_ITEM_KINDS + (ph->split ? GB_ITEM_RUN : GB_ITEM_ALL);
    }
    /* the wave's children longest first (by their programs' size, which a lint's cost follows),
     * so that the threads end the wave together; split: the wave's runs (tests and equivalence,
     * the longer items and the more variable: 38 against 28 ms on average on one task with -j 2)
     * first, then its lints. Measured on that task: a thread idle at the end of a wave for
     * 0.09-0.14 s of a 3.6-4.2 s run, 0.20-0.29 s with the lints first. The order of the items
     * changes no result. */
    for (size_t k = first + 1; k < nt; k++) {
        size_t item = ph->todo[k], size = gb_evolve__program_size(&ph->children[item / GB_ITEM_KINDS].prog), j = k;
        for (; j > first && gb_evolve__program_size(&ph->children[ph->todo[j - 1] / GB_ITEM_KINDS].prog) < size; j--)
            ph->todo[j] = ph->todo[j - 1];
        ph->todo[j] = item;
    }
    if (ph->split)
        for (size_t k = first, end = nt; k < end; k++) ph->todo[nt++] = ph->todo[k] - GB_ITEM_RUN + GB_ITEM_LINT;
    ph->nready = nt;
    return deferred;
}

/* Let the threads claim todo[0..upto). */
static void gb_evolve__publish(GbValidatePhase *ph, size_t upto)
{
    GbEvolveCrew *crew = ph->run->crew;
    if (crew) pthread_mutex_lock(&crew->mu);
    if (upto > ph->ntodo) {
        ph->ntodo = upto;
        if (crew) pthread_cond_broadcast(&crew->wake);
    }
    if (crew) pthread_mutex_unlock(&crew->mu);
}

/* The waves of a generation: which are cheap-gated, their todo entries, and how many children
 * of each may still join. */
typedef struct {
    GbValidatePhase *ph;
    TSParser *parser;
    const GbHashList *hashes;
    size_t nprev;
    GbEvolveStats *stats;
    size_t wave, nwaves, ready; /* wave size; waves; waves cheap-gated */
    size_t *tstart;             /* wave i's todo entries: [tstart[i], tstart[i + 1]) */
    size_t *deferred;           /* wave i's deferred children */
} GbWaves;

static void gb_evolve__waves_cheap(GbWaves *wv, size_t upto)
{
    while (wv->ready <= upto && wv->ready < wv->nwaves) {
        size_t i = wv->ready, from = i * wv->wave, to = from + wv->wave < wv->ph->n ? from + wv->wave : wv->ph->n;
        wv->deferred[i] = gb_evolve__cheap_wave(wv->ph, from, to, wv->parser, wv->hashes, wv->nprev, wv->stats);
        wv->tstart[i + 1] = wv->ph->nready;
        wv->ready++;
    }
}

/* How many children of wave i may still join (an upper bound): its entries not yet rejected
 * and its deferred children. Under the crew's mutex when there is a crew. */
static size_t gb_evolve__waves_may_pass(const GbWaves *wv, size_t i)
{
    size_t m = wv->deferred[i];
    for (size_t k = wv->tstart[i]; k < wv->tstart[i + 1]; k++) {
        size_t item = wv->ph->todo[k];
        if (item % GB_ITEM_KINDS == GB_ITEM_LINT) continue; /* one item per child */
        const GbChildEval *e = &wv->ph->evals[item / GB_ITEM_KINDS];
        bool rejected = (e->state == GB_CHILD_EVALUATED && e->gate != GB_GATE_COUNT) ||
                        (e->part_done[0] && e->part_gate[0] != GB_GATE_COUNT) ||
                        (e->part_done[1] && e->part_gate[1] != GB_GATE_COUNT);
        if (!rejected) m++;
    }
    return m;
}

/* Publish the waves after w that are certain to be validated: those before them cannot bring
 * the accepted children (accepted so far) to cfg->accept. */
static void gb_evolve__waves_ahead(GbWaves *wv, size_t w, size_t accepted)
{
    const GbValidatePhase *ph = wv->ph;
    if (ph->cfg->accept <= 0) return;
    GbEvolveCrew *crew = ph->run->crew;
    size_t bound = accepted;
    for (size_t i = w; i + 1 < wv->nwaves; i++) {
        if (crew) pthread_mutex_lock(&crew->mu);
        bound += gb_evolve__waves_may_pass(wv, i);
        if (crew) pthread_mutex_unlock(&crew->mu);
        if (bound >= (size_t)ph->cfg->accept) return;
        gb_evolve__waves_cheap(wv, i + 1);
        gb_evolve__publish(wv->ph, wv->tstart[i + 2]);
    }
}

/* Until wave w's entries are evaluated: this thread claims what is left to claim (possibly of
 * later waves published ahead) and waits for the helpers' ones, publishing the waves that
 * become certain as results come in. Returns early on a stop. */
static void gb_evolve__await(GbWaves *wv, size_t w, size_t accepted)
{
    GbValidatePhase *ph = wv->ph;
    GbEvolveCrew *crew = ph->run->crew;
    for (size_t k = wv->tstart[w]; k < wv->tstart[w + 1];) {
        if (crew) gb_evolve__waves_ahead(wv, w, accepted);
        if (crew) pthread_mutex_lock(&crew->mu);
        bool done = gb_evolve__item_evaluated(ph, ph->todo[k]), stopped = gb_evolve__stopped(ph->cfg), worked = false;
        if (!done && !stopped) {
            worked = gb_evolve__eval_next(crew, ph, wv->parser, ph->run->lint);
            if (!worked && crew) pthread_cond_wait(&crew->done, &crew->mu);
        }
        /* on a stop the commit drops what is not evaluated: first the helpers put down what
         * they hold (they claim nothing after a stop) */
        while (stopped && crew && crew->inflight > 0) pthread_cond_wait(&crew->done, &crew->mu);
        if (crew) pthread_mutex_unlock(&crew->mu);
        if (stopped) return;
        if (done) k++;
        else if (!worked && !crew) return; /* cannot happen: alone, this thread claimed every entry before it */
    }
}

/* Commit children[from..to) (one wave) in their order; nprev: hashes of the earlier
 * generations. */
static void gb_evolve__commit_wave(GbValidatePhase *ph, size_t from, size_t to, size_t nprev, TSParser *parser,
                                   GbHashList *hashes, GbEvolveStats *stats)
{
    GbRun *run = ph->run;
    size_t wave = hashes->len; /* the generation's acceptances before this wave end here */
    for (size_t c = from; c < to; c++) {
        GbChildEval *e = &ph->evals[c];
        GbIndividual *child = &ph->children[c];
        if (e->state == GB_CHILD_SKIPPED) {
            gb_individual_destroy(child);
            continue;
        }
        if (e->state == GB_CHILD_REJECTED) {
            GbGate g = e->gate;
            if (g > GB_GATE_DUPLICATE && gb_evolve__hash_seen(hashes->items + nprev, wave - nprev, child->hash))
                g = GB_GATE_DUPLICATE;
            stats->rejected[child->op][g]++;
            gb_individual_destroy(child);
            continue;
        }
        if (gb_evolve__hash_seen(hashes->items + nprev, hashes->len - nprev, child->hash)) {
            stats->rejected[child->op][GB_GATE_DUPLICATE]++;
            gb_individual_destroy(child);
            continue;
        }
        if (e->state != GB_CHILD_EVALUATED) {
            /* deferred (an earlier child of the wave with its tokens was rejected), or not
             * reached before a stop */
            if (gb_evolve__stopped(ph->cfg)) {
                gb_individual_destroy(child);
                continue;
            }
            e->gate = gb_evolve__eval(ph, c * GB_ITEM_KINDS + GB_ITEM_ALL, parser, run->lint);
            e->state = GB_CHILD_EVALUATED;
        }
        gb_evolve_stats_add(stats, &e->stats);
        if (e->gate != GB_GATE_COUNT) {
            stats->rejected[child->op][e->gate]++;
            gb_individual_destroy(child);
            continue;
        }
        gb_evolve__accept(run, child, hashes, stats);
    }
}

static size_t gb_evolve__pick(const GbRun *run, const double *obj, size_t k)
{
    size_t n = run->pop.len;
    if (!run->n_away) return gb_nsga2_best_rc(obj, n, k);
    double *rcrr = gb_malloc(2 * n * sizeof *rcrr);
    size_t *ix = gb_malloc(n * sizeof *ix), m = 0, least = 0;
    for (size_t i = 0; i < n; i++) {
        const GbIndividual *ind = &run->pop.items[i];
        if (ind->sim < run->pop.items[least].sim - 1e-12 ||
            (fabs(ind->sim - run->pop.items[least].sim) <= 1e-12 && ind->score > run->pop.items[least].score + 1e-12))
            least = i;
        if (ind->sim > run->cfg->away_target + 1e-12) continue;
        rcrr[2 * m] = ind->score;
        rcrr[2 * m + 1] = ind->rr;
        ix[m++] = i;
    }
    size_t pick = m ? ix[gb_nsga2_best_rc(rcrr, m, 2)] : least;
    free(rcrr);
    free(ix);
    return pick;
}

/* The children in validation order (GbEvolveConfig.accept): measured, ranked together with
 * the population (crowded comparison on the selection objectives), best first; children that
 * cannot be measured go last, in breeding order. Reorders children in place. */
static void gb_evolve__rank_children(GbRun *run, GbIndividual *children, size_t n, TSParser *parser)
{
    size_t np = run->pop.len, tot = np + n;
    const GbIndividual **all = gb_malloc((tot ? tot : 1) * sizeof *all);
    bool *ok = gb_calloc(n ? n : 1, sizeof *ok);
    size_t m = np;
    for (size_t i = 0; i < np; i++) all[i] = &run->pop.items[i];
    size_t *slot = gb_malloc((n ? n : 1) * sizeof *slot); /* child -> index in all */
    for (size_t c = 0; c < n; c++) {
        GbIndividual *ch = &children[c];
        ok[c] = gb_evolve__measure(run, ch, parser);
        if (!ok[c]) continue;
        slot[c] = m;
        all[m++] = ch;
    }
    double *obj = gb_malloc((m ? m : 1) * 3 * sizeof *obj);
    size_t k = gb_evolve__objectives(run, all, m, obj);
    size_t *order = gb_malloc((m ? m : 1) * sizeof *order);
    gb_nsga2_rank(obj, m, k, order, NULL, NULL);
    size_t *pos = gb_malloc((m ? m : 1) * sizeof *pos);
    for (size_t r = 0; r < m; r++) pos[order[r]] = r;
    /* sort key: rank position, unmeasurable children after every measured one */
    size_t *key = gb_malloc((n ? n : 1) * sizeof *key);
    for (size_t c = 0; c < n; c++) key[c] = ok[c] ? pos[slot[c]] : m + c;
    GbIndividual *sorted = gb_malloc((n ? n : 1) * sizeof *sorted);
    bool *used = gb_calloc(n ? n : 1, sizeof *used);
    for (size_t r = 0; r < n; r++) {
        size_t best = n;
        for (size_t c = 0; c < n; c++)
            if (!used[c] && (best == n || key[c] < key[best])) best = c;
        used[best] = true;
        sorted[r] = children[best];
    }
    memcpy(children, sorted, n * sizeof *children);
    free(used);
    free(sorted);
    free(key);
    free(pos);
    free(order);
    free(obj);
    free(slot);
    free(ok);
    free(all);
}

/* Validate a generation's children: all of them in breeding order, or (cfg->accept) in rank
 * order, wave by wave, until cfg->accept joined the population. Takes the children (the array
 * stays the caller's). */
static void gb_evolve__validate_generation(const GbEvolveConfig *cfg, GbRun *run, GbIndividual *children, size_t n,
                                           TSParser *parser, GbHashList *hashes, GbEvolveStats *stats)
{
    size_t wave = n ? n : 1;
    if (cfg->accept > 0) {
        gb_evolve__rank_children(run, children, n, parser);
        wave = GB_EVOLVE_WAVE;
    }
    size_t first = n < wave ? n : wave;
    if (first > 1) gb_evolve__crew_ready(cfg, run, (int)first - 1);
    GbEvolveCrew *crew = run->crew;
    GbValidatePhase ph = {cfg, run, children, n, gb_calloc(n ? n : 1, sizeof(GbChildEval)),
                          gb_malloc((n ? 2 * n : 1) * sizeof(size_t)), crew && cfg->lint, 0, 0, 0, false};
    size_t nwaves = (n + wave - 1) / wave;
    GbWaves wv = {&ph, parser, hashes, hashes->len, stats, wave, nwaves, 0,
                  gb_calloc(nwaves + 1, sizeof(size_t)), gb_calloc(nwaves ? nwaves : 1, sizeof(size_t))};
    if (crew) {
        pthread_mutex_lock(&crew->mu);
        ph.open = true;
        crew->ph = &ph;
        pthread_mutex_unlock(&crew->mu);
    }
    size_t before = run->pop.len, w = 0;
    for (; w < nwaves && (cfg->accept <= 0 || run->pop.len - before < (size_t)cfg->accept) && !gb_evolve__stopped(cfg);
         w++) {
        gb_evolve__waves_cheap(&wv, w);
        gb_evolve__publish(&ph, wv.tstart[w + 1]);
        gb_evolve__await(&wv, w, run->pop.len - before);
        size_t end = (w + 1) * wave < n ? (w + 1) * wave : n;
        gb_evolve__commit_wave(&ph, w * wave, end, wv.nprev, parser, hashes, stats);
    }
    if (crew) {
        /* what was published was awaited, but on a stop: wait for what the helpers hold */
        pthread_mutex_lock(&crew->mu);
        ph.open = false;
        crew->ph = NULL;
        while (crew->inflight > 0) pthread_cond_wait(&crew->done, &crew->mu);
        pthread_mutex_unlock(&crew->mu);
    }
    for (size_t c = w * wave < n ? w * wave : n; c < n; c++) {
        if (cfg->accept > 0) stats->offered[children[c].op]--; /* never offered to the gates */
        gb_individual_destroy(&children[c]);
    }
    free(wv.tstart);
    free(wv.deferred);
    free(ph.todo);
    free(ph.evals);
}

/* Breed generation g from the selected parents sel[0..nsel) into children (in parent order,
 * then operator order), counting what is offered and what could not be applied. */
static void gb_evolve__breed_generation(const GbEvolveConfig *cfg, GbRun *run, uint64_t task_key, int g,
                                        const size_t *sel, size_t nsel, TSParser *parser, GbIndividual **children,
                                        size_t *nchildren, GbEvolveStats *stats)
{
    /* threads: this one and the helpers; with fewer than eight parents per thread, each
     * parent's operators are split into ranges, so that the threads end the phase together (a
     * range costs a parse of the parent; the children are the same). Measured on one task with
     * -j 2: a thread idle for 0.21 s of a 3.3 s run with two jobs per thread, 0.05 s with eight,
     * for no more breeding work in all. */
    int threads = 1 + gb_evolve__crew_ready(cfg, run, GB_EVOLVE_WAVE);
    enum { GB_JOBS_PER_THREAD = 8 };
    size_t want = GB_JOBS_PER_THREAD * (size_t)threads;
    size_t parts = threads > 1 && nsel && want > nsel ? (want + nsel - 1) / nsel : 1;
    if (parts > GB_OP_COUNT) parts = GB_OP_COUNT;
    size_t njobs = nsel * parts;
    GbBreedPhase bp = {cfg, run, task_key, g, gb_calloc(njobs ? njobs : 1, sizeof(GbBreedJob)), njobs, 0, 0};
    for (size_t s = 0; s < nsel; s++)
        for (size_t p = 0; p < parts; p++) {
            GbBreedJob *job = &bp.jobs[s * parts + p];
            job->parent = sel[s];
            job->op_from = (int)(p * GB_OP_COUNT / parts);
            job->op_to = (int)((p + 1) * GB_OP_COUNT / parts);
        }
    GbEvolveCrew *crew = run->crew;
    if (crew) {
        pthread_mutex_lock(&crew->mu);
        crew->bp = &bp;
        pthread_cond_broadcast(&crew->wake);
    }
    while (gb_evolve__breed_next(crew, &bp, parser)) {
    }
    if (crew) {
        /* every claimed job finished (on a stop, not all are claimed) */
        while (bp.done < bp.next) pthread_cond_wait(&crew->done, &crew->mu);
        crew->bp = NULL;
        pthread_mutex_unlock(&crew->mu);
    }
    size_t total = 0;
    for (size_t j = 0; j < bp.njobs; j++) total += bp.jobs[j].kids.len;
    GbIndividual *out = gb_malloc((total ? total : 1) * sizeof *out);
    size_t m = 0;
    for (size_t j = 0; j < bp.njobs; j++) {
        GbBreedJob *job = &bp.jobs[j];
        GbIndividual *parent = &run->pop.items[job->parent];
        for (size_t i = 0; i < job->tried.len; i++) gb_array_push(&parent->tried, job->tried.items[i]);
        gb_array_free(&job->tried);
        for (int o = 0; o < GB_OP_COUNT; o++) {
            stats->offered[o] += job->offered[o];
            stats->rejected[o][GB_GATE_PARSE] += job->unapplied[o];
        }
        if (job->kids.len) memcpy(out + m, job->kids.items, job->kids.len * sizeof *out);
        m += job->kids.len;
        gb_array_free(&job->kids);
    }
    free(bp.jobs);
    *children = out;
    *nchildren = m;
}

void gb_evolve_task(const GbEvolveConfig *cfg, const GbTask *task, size_t index, TSParser *parser, GbEvolveResult *res)
{
    memset(res, 0, sizeof *res);
    gb_record_init(&res->record);
    double t0 = gb_now();
    /* this thread's own slot (it validates too); helpers borrow the others */
    if (cfg->slots) atomic_fetch_sub(&cfg->slots->free, 1);
    GbRun run;
    memset(&run, 0, sizeof run);
    run.cfg = cfg;
    run.task = task;
    run.index = index;
    run.stop_reason = "generations";
    pthread_mutex_init(&run.lint_mu, NULL);
    /* the task thread's session (no process until its first lint); gate contexts carry it */
    if (cfg->lint) run.lint = gb_lint_session_new(cfg->pool);
    GbError err;
    uint64_t task_key = gb_evolve__task_key(task, index);
    GbHashList hashes = {0};

    GbIndividual orig;
    memset(&orig, 0, sizeof orig);
    gb_program_from_task(&orig.prog, task);
    orig.parent = -1;
    orig.op = -1;
    if (!gb_metrics_compute(&orig.prog, parser, &orig.metrics, &err)) {
        res->status = GB_EVOLVED_ERROR;
        run.error = gb_asprintf("task %s: cannot measure the original: %s", task->id, err.msg);
        run.stop_reason = "error";
        gb_individual_destroy(&orig);
        gb_evolve__finish(&run, res, 0, NULL, 0);
        goto done;
    }
    gb_evolve__set_scores(cfg, &orig);
    orig.rr = gb_fitness_rr(&orig.metrics, cfg->thresholds);
    orig.hash = gb_program_token_hash(&orig.prog, parser);
    if (cfg->away) {
        enum { GB_AWAY_MAX = 64 };
        GbProgram *earlier = gb_calloc(GB_AWAY_MAX, sizeof *earlier);
        size_t ne = cfg->away(cfg->away_arg, task, earlier, GB_AWAY_MAX);
        run.away = gb_calloc(ne ? ne : 1, sizeof *run.away);
        GbNames orig_names = {0};
        gb_evolve__identifiers(&orig.prog, parser, &orig_names);
        for (size_t j = 0; j < ne; j++) {
            char *text = gb_program_concat(&earlier[j]);
            gb_token_bag_init(&run.away[run.n_away++], parser, text, strlen(text));
            free(text);
            GbNames names = {0};
            gb_evolve__identifiers(&earlier[j], parser, &names);
            for (size_t i = 0; i < names.len; i++)
                if (!gb_names_has(&orig_names, names.items[i]) && !gb_names_has(&run.away_names, names.items[i]))
                    gb_names_add(&run.away_names, names.items[i]);
            gb_names_destroy(&names);
            gb_program_destroy(&earlier[j]);
        }
        gb_names_destroy(&orig_names);
        free(earlier);
    }
    orig.sim = gb_evolve__similarity(&run, &orig.prog, parser);
    run.orig_prog = orig.prog;
    gb_array_push(&run.pop, orig);
    gb_array_push(&hashes, orig.hash);
    res->rc_before = res->rc_after = orig.rc;
    res->rr_before = res->rr_after = orig.rr;

    {
        GbRunResult rr;
        bool ran = gb_pool_run(cfg->pool, task, NULL, &rr, &err);
        if (!ran || rr.status != GB_RUN_PASS) {
            res->status = ran ? GB_EVOLVED_ORIGINAL_FAILS : GB_EVOLVED_ERROR;
            if (ran)
                run.error = gb_asprintf("task %s: the original program fails its own tests (%s%s%s%s%s)", task->id,
                                        gb_run_status_name(rr.status), rr.failed_test ? ": " : "",
                                        rr.failed_test ? rr.failed_test : "", rr.exc_type ? ": " : "",
                                        rr.exc_type ? rr.exc_type : "");
            else
                run.error = gb_asprintf("task %s: %s", task->id, err.msg);
            run.stop_reason = "original_fails";
            gb_run_result_destroy(&rr);
            size_t f0 = 0;
            gb_evolve__finish(&run, res, 0, &f0, 1);
            goto done;
        }
        gb_run_result_destroy(&rr);
    }
    if (cfg->equiv) {
        /* the original's results on the derived inputs, once per task */
        GbEquivConfig ecfg = cfg->equiv_cfg;
        ecfg.seed = cfg->seed;
        run.equiv = gb_equiv_record(cfg->pool, task, NULL, &ecfg, parser, &err);
        /* the tests still gate; the record says why nothing else does */
        if (!run.equiv) run.equiv_error = gb_strdup(err.msg);
    }

    int g;
    for (g = 1; cfg->generations == 0 || g <= cfg->generations; g++) {
        if (run.lint_failed) break;
        if (gb_evolve__stopped(cfg)) {
            run.stop_reason = "interrupted";
            res->interrupted = true;
            break;
        }
        if (cfg->time_budget > 0 && gb_now() - t0 >= cfg->time_budget) {
            run.stop_reason = "time_budget";
            break;
        }
        bool reached = false;
        for (size_t i = 0; i < run.pop.len; i++) reached |= run.pop.items[i].rc >= 1.0 - 1e-12;
        if (reached) {
            run.stop_reason = "rc_reached";
            break;
        }
        size_t n = run.pop.len;
        double *obj = gb_malloc(3 * n * sizeof *obj);
        size_t k = gb_evolve__pop_objectives(&run, obj);
        size_t *sel = gb_malloc(n * sizeof *sel);
        size_t nsel = gb_nsga2_select(obj, n, k, cfg->breed, sel);
        if (cfg->max_parents > 0 && nsel > (size_t)cfg->max_parents) nsel = (size_t)cfg->max_parents;
        free(obj);

        GbIndividual *children = NULL;
        size_t nchildren = 0;
        gb_evolve__breed_generation(cfg, &run, task_key, g, sel, nsel, parser, &children, &nchildren, &res->stats);
        free(sel);

        /* Gates, in cost order; survivors join the population in breeding order. */
        size_t offered = nchildren;
        gb_evolve__validate_generation(cfg, &run, children, nchildren, parser, &hashes, &res->stats);
        free(children);
        if (gb_evolve__stopped(cfg)) {
            run.stop_reason = "interrupted";
            res->interrupted = true;
            run.generations = g;
            break;
        }
        run.generations = g;
        if (offered == 0) {
            run.stop_reason = "no_offspring";
            break;
        }
    }
    if (run.generations == 0 && g > 1) run.generations = g - 1;
    gb_evolve__crew_end(&run); /* the helpers' slots back before naming and the final lint */
    if (cfg->lint && !res->interrupted && !gb_evolve__lint_original(&run)) {
        res->status = GB_EVOLVED_ERROR;
        run.error = gb_asprintf("task %s: lint failed on the original: %s", task->id, run.lint_err.msg);
        run.stop_reason = "error";
        size_t f0 = 0;
        gb_evolve__finish(&run, res, 0, &f0, 1);
        goto done;
    }
    if (strcmp(run.stop_reason, "generations") != 0 && strcmp(run.stop_reason, "no_offspring") != 0 &&
        strcmp(run.stop_reason, "interrupted") != 0 && run.pop.len > 0) {
        /* rc_reached / time_budget were detected before generation g ran. */
        run.generations = g - 1;
    }

    /* Final pick: the individual of the first front with the highest score (RC, or the
     * balanced score); with earlier versions, among those at most away_target similar to them
     * (the least similar one if there is none). */
    size_t n = run.pop.len;
    double *obj = gb_malloc(3 * n * sizeof *obj);
    size_t k = gb_evolve__pop_objectives(&run, obj);
    size_t *front = gb_malloc(n * sizeof *front);
    size_t nfront = gb_nsga2_first_front(obj, n, k, front);
    size_t pick = gb_evolve__pick(&run, obj, k);
    free(obj);
    res->status = pick == 0 ? GB_EVOLVED_UNCHANGED : GB_EVOLVED_HARDENED;

    if (pick != 0 && cfg->naming) {
        GbProgram named;
        gb_program_copy(&named, &run.pop.items[pick].prog);
        const char *mode = NULL;
        if (cfg->naming(&named, task, parser, cfg->naming_arg, run.n_away ? &run.away_names : NULL, &run.renamed,
                        &mode)) {
            run.naming_mode = mode;
            GbRunResult rr;
            bool ran = gb_pool_run(cfg->pool, task, &named, &rr, &err);
            run.naming_kept = ran && rr.status == GB_RUN_PASS;
            gb_run_result_destroy(&rr);
            if (run.naming_kept) {
                gb_program_destroy(&run.pop.items[pick].prog);
                run.pop.items[pick].prog = named;
                run.pop.items[pick].sim = gb_evolve__similarity(&run, &named, parser);
            } else {
                gb_program_destroy(&named);
            }
        } else {
            gb_rename_list_destroy(&run.renamed);
            gb_program_destroy(&named);
        }
    }
    if (cfg->lint && pick != 0) {
        /* its score from its lint gate, unless naming changed it (a score does not depend on
         * the session or on what it linted before: README, the lint gate) */
        const GbIndividual *p = &run.pop.items[pick];
        double score = run.lint_before;
        if (p->linted && !run.naming_kept)
            run.lint_after = p->lint;
        else if (gb_lint_session_lint(run.lint, &p->prog, &score, &err))
            run.lint_after = score;
    }
    res->rc_after = run.pop.items[pick].rc;
    res->rr_after = run.pop.items[pick].rr;
    gb_evolve__finish(&run, res, (long)pick, front, nfront);
    free(front);

done:
    gb_evolve__crew_end(&run);
    gb_lint_session_delete(run.lint);
    gb_equiv_delete(run.equiv);
    free(run.equiv_error);
    pthread_mutex_destroy(&run.lint_mu);
    for (size_t i = 0; i < run.pop.len; i++) gb_individual_destroy(&run.pop.items[i]);
    gb_array_free(&run.pop);
    gb_array_free(&hashes);
    free(run.error);
    gb_rename_list_destroy(&run.renamed);
    for (size_t j = 0; j < run.n_away; j++) gb_token_bag_destroy(&run.away[j]);
    gb_names_destroy(&run.away_names);
    free(run.away);
    gb_evolve__slots_give(cfg->slots, 1);
    res->time_s = gb_now() - t0;
    res->record.time_s = res->time_s;
    res->record.has_time = true;
}
