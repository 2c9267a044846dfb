/* The gates of nsga2/gate_list.h, one function per row (gb_evolve__pass_<ID>), and
 * gb_evolve_gates, which runs them by their cost column: cheapest first, rows of one cost in list
 * order. */
#include "nsga2/evolve_private.h"

#include <pthread.h>
#include <stdlib.h>

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
    return gb_evolve_measure(c->run, c->child, c->parser) && gb_evolve__compiles(c);
}

/* Some R_j above RT_j rejects, except where the original itself is already above RT_j: there
 * the child may not read worse than the original (otherwise a program that starts above a
 * threshold, e.g. a dense one-liner, could never change). */
bool gb_evolve_readable(const GbRun *run, const GbIndividual *ind)
{
    const GbMetrics *orig = &run->pop.items[0].metrics;
    for (int j = 0; j < GB_N_READABILITY; j++) {
        double r = ind->metrics.v[GB_N_COMPLEXITY + j], rt = run->cfg->thresholds->rt[j];
        double limit = orig->v[GB_N_COMPLEXITY + j] > rt ? orig->v[GB_N_COMPLEXITY + j] : rt;
        if (r > limit) return false;
    }
    return true;
}

static bool gb_evolve__pass_READABILITY(GbGateCtx *c)
{
    return gb_evolve_readable(c->run, c->child);
}

static bool gb_evolve__pass_DUPLICATE(GbGateCtx *c)
{
    c->child->hash = gb_program_token_hash(&c->child->prog, c->parser);
    return !gb_evolve_hash_seen(c->hashes, c->nhashes, c->child->hash);
}

/* The parent dominates the child: no better in any objective, worse in one. */
static bool gb_evolve__pass_DOMINATED(GbGateCtx *c)
{
    GbIndividual *ch = c->child; /* measured by the PARSE gate */
    const GbIndividual *pair[2] = {&c->run->pop.items[ch->parent], ch};
    double obj[6];
    size_t k = gb_evolve_objectives(c->run, pair, 2, obj);
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
    if (c->run->tests_together && c->run->equiv && gb_equiv_kept(c->run->equiv) > 0) {
        /* the cases judged from the equivalence probe when it runs them all */
        bool merged = false;
        bool ran = gb_equiv_check_cases(c->run->equiv, &c->cfg->equiv_cfg, c->cfg->pool, c->run->task, &c->child->prog,
                                        &c->verdict, &rr, &merged, &err);
        bool pass = ran && rr.status == GB_RUN_PASS;
        gb_run_result_destroy(&rr);
        if (merged) {
            c->have_verdict = true;
            c->verdict_ran = ran;
            return pass;
        }
    }
    bool ran = c->run->tests_together
                   ? gb_pool_run_cases_together(c->cfg->pool, c->run->task, &c->child->prog, &rr, &err)
                   : gb_pool_run(c->cfg->pool, c->run->task, &c->child->prog, &rr, &err);
    bool pass = ran && rr.status == GB_RUN_PASS;
    gb_run_result_destroy(&rr);
    return pass;
}

/* Read-only on the run's recorded original (thread-safe). */
static bool gb_evolve__pass_EQUIV(GbGateCtx *c)
{
    if (!c->run->equiv || gb_equiv_kept(c->run->equiv) == 0) return true;
    if (c->have_verdict)
        return c->verdict_ran && c->verdict.status == GB_RUN_PASS && c->verdict.agree && c->verdict.cost_ok;
    GbError err;
    GbEquivVerdict v;
    bool ran = gb_equiv_check(c->run->equiv, &c->cfg->equiv_cfg, c->cfg->pool, c->run->task, &c->child->prog, &v, &err);
    bool pass = ran && v.status == GB_RUN_PASS && v.agree && v.cost_ok;
    gb_equiv_verdict_destroy(&v);
    return pass;
}

/* Taken at the task's first lint rather than at its start: the first children are then tested
 * while the lint workers still warm up pylint. The session's lints stay in the same order (the
 * original's first), so the scores do not change. */
bool gb_evolve_lint_original(GbRun *run)
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
    if (!gb_evolve_lint_original(c->run)) return false;
    GbError err;
    double score = 0;
    if (!gb_lint_session_lint(c->lint, &c->child->prog, &score, &err)) return false;
    c->child->lint = score;
    c->child->linted = true;
    return score >= c->run->lint_before - 1e-9;
}

static bool (*const gb_evolve__pass[GB_GATE_COUNT])(GbGateCtx *) = {
#define GB_GATE(id, cost, key, label, rule) gb_evolve__pass_##id,
    GB_GATE_LIST
#undef GB_GATE
};

GbGate gb_evolve_gates(GbGateCtx *c, GbGateCost from, GbGateCost to)
{
    GbGate rejected = GB_GATE_COUNT;
    for (int cost = (int)from; cost < (int)to && rejected == GB_GATE_COUNT; cost++)
        for (int g = 0; g < GB_GATE_COUNT && rejected == GB_GATE_COUNT; g++)
            if (gb_gate_cost((GbGate)g) == (GbGateCost)cost && !gb_evolve__pass[g](c)) rejected = (GbGate)g;
    if (c->have_verdict) gb_equiv_verdict_destroy(&c->verdict);
    c->have_verdict = false;
    return rejected;
}
