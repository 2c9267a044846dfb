/* The task loop (gb_evolve_task): the original, the generations (select, breed, validate),
 * then the final pick, its natural naming and the record. nsga2/README.md describes the loop;
 * nsga2/evolve_private.h lists the files of its steps. */
#include "nsga2/evolve.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2/evolve_private.h"
#include "nsga2/select.h"

void gb_evolve_config_defaults(GbEvolveConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->seed = 1;
    cfg->generations = 5;
    cfg->breed = 0.2;
    cfg->max_parents = 4;
    cfg->accept = 4;
    cfg->balanced = false;
    cfg->lint = true;
    cfg->equiv = true;
    cfg->away_target = 0.40;
    gb_equiv_config_defaults(&cfg->equiv_cfg);
    for (int i = 0; i < GB_OP_COUNT; i++) cfg->ops[i] = true;
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

static uint64_t gb_evolve__task_key(const GbTask *task, size_t index)
{
    return gb_hash64(task->id, strlen(task->id), (uint64_t)index * 0x9E3779B97F4A7C15ULL);
}

bool gb_evolve_stopped(const GbEvolveConfig *cfg)
{
    return cfg->stop && *cfg->stop;
}

/* The original as the population's first member, measured and hashed (with earlier versions:
 * those read and its similarity to them). False when it cannot be measured (run->error). */
static bool gb_evolve__seed_population(GbRun *run, TSParser *parser, GbHashList *hashes, GbEvolveResult *res)
{
    const GbEvolveConfig *cfg = run->cfg;
    GbError err;
    GbIndividual orig;
    memset(&orig, 0, sizeof orig);
    gb_program_from_task(&orig.prog, run->task);
    orig.parent = -1;
    orig.op = -1;
    if (!gb_metrics_compute(&orig.prog, parser, &orig.metrics, &err)) {
        run->error = gb_asprintf("task %s: cannot measure the original: %s", run->task->id, err.msg);
        gb_individual_destroy(&orig);
        return false;
    }
    gb_evolve_set_scores(cfg, &orig, NULL);
    orig.rr = gb_fitness_rr(&orig.metrics, cfg->thresholds);
    orig.hash = gb_program_token_hash(&orig.prog, parser);
    if (cfg->away) gb_evolve_away_load(run, &orig.prog, parser);
    orig.sim = gb_evolve_similarity(run, &orig.prog, parser);
    run->orig_prog = orig.prog;
    gb_array_push(&run->pop, orig);
    gb_array_push(hashes, orig.hash);
    res->rc_before = res->rc_after = orig.rc;
    res->rr_before = res->rr_after = orig.rr;
    return true;
}

/* Whether the original passes its own tests (else run->error says why, and *ran whether they
 * could be run at all). */
static bool gb_evolve__original_passes(GbRun *run, bool *ran)
{
    GbError err;
    GbRunResult rr;
    *ran = gb_pool_run(run->cfg->pool, run->task, NULL, &rr, &err);
    bool pass = *ran && rr.status == GB_RUN_PASS;
    if (pass) run->stack = gb_evolve_stack_depth(run->cfg->time_budget, rr.wall_s);
    if (pass && run->task->kind == GB_TESTS_STDIO && run->task->cases.len > 0)
        run->case_wall_s = rr.wall_s / (double)run->task->cases.len;
    if (pass && gb_pool_cases_together_ok(run->cfg->pool, run->task)) {
        /* the cases in one probe, kept only when the original passes them there too */
        GbRunResult together;
        run->tests_together = gb_pool_run_cases_together(run->cfg->pool, run->task, NULL, &together, &err) &&
                              together.status == GB_RUN_PASS;
        gb_run_result_destroy(&together);
    }
    if (!pass && *ran)
        run->error =
            gb_asprintf("task %s: the original program fails its own tests (%s%s%s%s%s)", run->task->id,
                        gb_run_status_name(rr.status), rr.failed_test ? ": " : "", rr.failed_test ? rr.failed_test : "",
                        rr.exc_type ? ": " : "", rr.exc_type ? rr.exc_type : "");
    else if (!pass)
        run->error = gb_asprintf("task %s: %s", run->task->id, err.msg);
    gb_run_result_destroy(&rr);
    return pass;
}

/* The original's results on the derived inputs, once per task (the equivalence gate). */
static void gb_evolve__record_equiv(GbRun *run, TSParser *parser)
{
    GbError err;
    GbEquivConfig ecfg = run->cfg->equiv_cfg;
    ecfg.seed = run->cfg->seed;
    ecfg.task_budget_s = run->cfg->time_budget;
    ecfg.case_wall_s = run->case_wall_s;
    run->equiv = gb_equiv_record(run->cfg->pool, run->task, NULL, &ecfg, parser, &err);
    /* the tests still gate; the record says why nothing else does */
    if (!run->equiv) run->equiv_error = gb_strdup(err.msg);
}

/* Whether the loop ends before the next generation: the original's lint failed, or (with
 * run->stop_reason) a stop was asked for, the time budget is spent after at least one generation
 * or RC = 1 is reached. */
static bool gb_evolve__ends_before(GbRun *run, GbEvolveResult *res, double t0)
{
    const GbEvolveConfig *cfg = run->cfg;
    if (run->lint_failed) return true;
    if (gb_evolve_stopped(cfg)) {
        run->stop_reason = "interrupted";
        res->interrupted = true;
        return true;
    }
    /* The budget counts from the task's start, set-up included, but a task whose set-up (the
     * original's tests and the equivalence gate's recording) spent it all still gets one
     * generation: slow tests must not leave a task unhardened. */
    if (cfg->time_budget > 0 && run->generations > 0 && gb_now() - t0 >= cfg->time_budget) {
        run->stop_reason = "time_budget";
        return true;
    }
    bool reached = false;
    for (size_t i = 0; i < run->pop.len; i++) reached |= run->pop.items[i].rc >= 1.0 - 1e-12;
    if (reached) run->stop_reason = "rc_reached";
    return reached;
}

/* One generation: select the parents, breed, validate (the gates in cost order; survivors join
 * the population in validation order). Parents that turn out to have no site left are spent,
 * and the next best ones breed instead, until some child is bred or every individual is spent.
 * Returns how many children were bred. */
static size_t gb_evolve__generation(GbRun *run, uint64_t task_key, int g, TSParser *parser, GbHashList *hashes,
                                    GbEvolveStats *stats)
{
    size_t *sel = gb_malloc(run->pop.len * sizeof *sel);
    GbIndividual *children = NULL;
    size_t nchildren = 0;
    for (;;) {
        size_t nsel = gb_evolve_select_parents(run, sel);
        if (nsel == 0) break;
        gb_evolve_breed_generation(run->cfg, run, task_key, g, sel, nsel, parser, &children, &nchildren, stats);
        gb_evolve_stack_children(run, task_key, g, parser, &children, &nchildren, stats);
        if (nchildren > 0 || gb_evolve_stopped(run->cfg)) break;
        free(children);
        children = NULL;
    }
    free(sel);
    gb_evolve_validate_generation(run->cfg, run, children, nchildren, parser, hashes, stats);
    free(children);
    return nchildren;
}

/* The generations, until the limit or a reason to stop (run->stop_reason). Returns the number
 * of the generation the loop ended at (the limit + 1 when it ran them all). */
static int gb_evolve__generations(GbRun *run, GbEvolveResult *res, double t0, TSParser *parser, GbHashList *hashes)
{
    const GbEvolveConfig *cfg = run->cfg;
    uint64_t task_key = gb_evolve__task_key(run->task, run->index);
    int g;
    for (g = 1; cfg->generations == 0 || g <= cfg->generations; g++) {
        if (gb_evolve__ends_before(run, res, t0)) break;
        size_t offered = gb_evolve__generation(run, task_key, g, parser, hashes, &res->stats);
        run->generations = g;
        if (gb_evolve_stopped(cfg)) {
            run->stop_reason = "interrupted";
            res->interrupted = true;
            break;
        }
        if (offered == 0) {
            run->stop_reason = "no_offspring";
            break;
        }
    }
    if (run->generations == 0 && g > 1) run->generations = g - 1;
    return g;
}

/* Natural naming of the pick (cfg->naming), kept only when the renamed program still passes
 * its tests. */
static void gb_evolve__name_pick(GbRun *run, size_t pick, TSParser *parser)
{
    const GbEvolveConfig *cfg = run->cfg;
    GbProgram named;
    gb_program_copy(&named, &run->pop.items[pick].prog);
    const char *mode = NULL;
    if (!cfg->naming(&named, run->task, parser, cfg->naming_arg, run->n_away ? &run->away_names : NULL, &run->renamed,
                     &mode)) {
        gb_rename_list_destroy(&run->renamed);
        gb_program_destroy(&named);
        return;
    }
    run->naming_mode = mode;
    GbError err;
    GbRunResult rr;
    bool ran = gb_pool_run(cfg->pool, run->task, &named, &rr, &err);
    run->naming_kept = ran && rr.status == GB_RUN_PASS;
    gb_run_result_destroy(&rr);
    if (run->naming_kept) {
        gb_program_destroy(&run->pop.items[pick].prog);
        run->pop.items[pick].prog = named;
        run->pop.items[pick].sim = gb_evolve_similarity(run, &named, parser);
    } else {
        gb_program_destroy(&named);
    }
}

/* Whether ind and its ancestors pass the tests run apart, one process per case (the cases ran in
 * one probe in the tests gate: run->tests_together); each program is run once. */
static bool gb_evolve__passes_apart(GbRun *run, size_t i)
{
    for (long j = (long)i; j > 0; j = run->pop.items[j].parent) {
        GbIndividual *ind = &run->pop.items[j];
        if (ind->apart == 0) {
            GbError err;
            GbRunResult rr;
            bool ran = gb_pool_run(run->cfg->pool, run->task, &ind->prog, &rr, &err);
            ind->apart = ran && rr.status == GB_RUN_PASS ? 1 : -1;
            gb_run_result_destroy(&rr);
        }
        if (ind->apart < 0) return false;
    }
    return true;
}

void gb_evolve_verify(GbRun *run)
{
    const GbEvolveConfig *cfg = run->cfg;
    size_t screened;
    bool screen = gb_equiv_screened(run->equiv, &screened);
    if (!screen && !run->tests_together) return;
    size_t n = run->pop.len;
    double *obj = gb_malloc(3 * n * sizeof *obj);
    size_t *cand = gb_malloc((n + 1) * sizeof *cand);
    for (;;) {
        size_t k = gb_evolve_pop_objectives(run, obj);
        size_t m = cfg->keep_front ? gb_nsga2_first_front(obj, n, k, cand) : 0;
        cand[m++] = gb_evolve_pick(run, obj, k);
        GbIndividual *ind = NULL;
        size_t at = 0;
        for (size_t j = m; j-- > 0 && !ind;)
            if (cand[j] != 0 && !run->pop.items[cand[j]].verified) ind = &run->pop.items[at = cand[j]];
        if (!ind) break;
        bool ok = true;
        if (screen) {
            GbError err;
            GbEquivVerdict v;
            bool ran = gb_equiv_check_rest(run->equiv, &cfg->equiv_cfg, cfg->pool, run->task, &ind->prog, &v, &err);
            ok = ran && v.status == GB_RUN_PASS && v.agree && v.cost_ok;
            gb_equiv_verdict_destroy(&v);
            run->refuted += !ok;
        }
        if (ok && run->tests_together) {
            ok = gb_evolve__passes_apart(run, at);
            run->apart_refuted += !ok;
        }
        ind = &run->pop.items[at];
        ind->verified = ok;
        ind->refuted = !ok;
    }
    free(obj);
    free(cand);
}

/* The final pick (gb_evolve_pick), named and linted, and the record of the run. */
static void gb_evolve__conclude(GbRun *run, GbEvolveResult *res, TSParser *parser)
{
    const GbEvolveConfig *cfg = run->cfg;
    size_t n = run->pop.len;
    gb_evolve_verify(run);
    double *obj = gb_malloc(3 * n * sizeof *obj);
    size_t k = gb_evolve_pop_objectives(run, obj);
    size_t *front = gb_malloc(n * sizeof *front);
    size_t nfront = gb_nsga2_first_front(obj, n, k, front);
    size_t pick = gb_evolve_pick(run, obj, k);
    free(obj);
    res->status = pick == 0 ? GB_EVOLVED_UNCHANGED : GB_EVOLVED_HARDENED;
    if (pick != 0 && cfg->naming) gb_evolve__name_pick(run, pick, parser);
    if (cfg->lint && pick != 0) {
        /* its score from its lint gate, unless naming changed it (a score does not depend on
         * the session or on what it linted before: src/runner/README.md, the lint worker) */
        const GbIndividual *p = &run->pop.items[pick];
        double score = run->lint_before;
        GbError err;
        if (p->linted && !run->naming_kept)
            run->lint_after = p->lint;
        else if (gb_lint_session_lint(run->lint, &p->prog, &score, &err))
            run->lint_after = score;
    }
    res->rc_after = run->pop.items[pick].rc;
    res->rr_after = run->pop.items[pick].rr;
    gb_evolve_finish(run, res, (long)pick, front, nfront);
    free(front);
}

/* A task that ends before evolving: status and reason, and its record. */
static void gb_evolve__fail(GbRun *run, GbEvolveResult *res, GbEvolveStatus status, const char *reason)
{
    res->status = status;
    run->stop_reason = reason;
    size_t f0 = 0;
    gb_evolve_finish(run, res, 0, run->pop.len ? &f0 : NULL, run->pop.len ? 1 : 0);
}

static void gb_evolve__run_destroy(GbRun *run)
{
    gb_evolve_crew_end(run);
    gb_lint_session_delete(run->lint);
    gb_equiv_delete(run->equiv);
    free(run->equiv_error);
    pthread_mutex_destroy(&run->lint_mu);
    pthread_mutex_destroy(&run->cost_mu);
    for (size_t i = 0; i < run->pop.len; i++) gb_individual_destroy(&run->pop.items[i]);
    gb_array_free(&run->pop);
    free(run->error);
    gb_rename_list_destroy(&run->renamed);
    for (size_t j = 0; j < run->n_away; j++) gb_token_bag_destroy(&run->away[j]);
    gb_names_destroy(&run->away_names);
    free(run->away);
}

/* The original, then the generations, then the pick; res gets the record on every path. */
static void gb_evolve__run(GbRun *run, GbEvolveResult *res, double t0, TSParser *parser, GbHashList *hashes)
{
    const GbEvolveConfig *cfg = run->cfg;
    bool ran = false;
    if (!gb_evolve__seed_population(run, parser, hashes, res)) {
        gb_evolve__fail(run, res, GB_EVOLVED_ERROR, "error");
        return;
    }
    if (!gb_evolve__original_passes(run, &ran)) {
        gb_evolve__fail(run, res, ran ? GB_EVOLVED_ORIGINAL_FAILS : GB_EVOLVED_ERROR, "original_fails");
        return;
    }
    if (cfg->equiv) gb_evolve__record_equiv(run, parser);
    int g = gb_evolve__generations(run, res, t0, parser, hashes);
    gb_evolve_crew_end(run); /* the helpers' slots back before naming and the final lint */
    if (cfg->lint && !res->interrupted && !gb_evolve_lint_original(run)) {
        run->error = gb_asprintf("task %s: lint failed on the original: %s", run->task->id, run->lint_err.msg);
        gb_evolve__fail(run, res, GB_EVOLVED_ERROR, "error");
        return;
    }
    if (strcmp(run->stop_reason, "generations") != 0 && strcmp(run->stop_reason, "no_offspring") != 0 &&
        strcmp(run->stop_reason, "interrupted") != 0 && run->pop.len > 0) {
        /* rc_reached / time_budget were detected before generation g ran. */
        run->generations = g - 1;
    }
    gb_evolve__conclude(run, res, parser);
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
    pthread_mutex_init(&run.cost_mu, NULL);
    /* the task thread's session (no process until its first lint); gate contexts carry it */
    if (cfg->lint) run.lint = gb_lint_session_new(cfg->pool);
    GbHashList hashes = {0};
    gb_evolve__run(&run, res, t0, parser, &hashes);
    gb_evolve__run_destroy(&run);
    gb_array_free(&hashes);
    gb_evolve_slots_give(cfg->slots, 1);
    res->time_s = gb_now() - t0;
    res->record.time_s = res->time_s;
    res->record.has_time = true;
}
