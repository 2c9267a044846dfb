/* The validation of one generation's children, wave by wave (min(accept, GB_EVOLVE_WAVE) children in rank
 * order with cfg->accept, else one wave of all of them in breeding order), so that the
 * population and every count are those of validating the children one at a time, wave after
 * wave, until cfg->accept of them have joined:
 * - The cheap gates (cost TREE, nsga2/gate_list.h) run on this thread, one wave at a time, against the
 *   individuals of the earlier generations.
 * - The expensive gates (cost RUN and LINT: in the pool) run in parallel, in order, on this thread and the
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
#include "nsga2/evolve_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The gates of one class (GB_GATE_CLASS_*) on the child, timed into the run's costs. */
static GbGate gb_evolve__class(GbGateCtx *ctx, int cls)
{
    double t0 = gb_now();
    GbGate g = cls == GB_GATE_CLASS_LINT ? gb_evolve_gates(ctx, GB_GATE_COST_LINT, GB_GATE_COST_COUNT)
                                         : gb_evolve_gates(ctx, GB_GATE_COST_RUN, GB_GATE_COST_LINT);
    GbRun *run = ctx->run;
    pthread_mutex_lock(&run->cost_mu);
    run->cost_n[cls]++;
    run->cost_rej[cls] += g != GB_GATE_COUNT;
    run->cost_s[cls] += gb_now() - t0;
    pthread_mutex_unlock(&run->cost_mu);
    return g;
}

bool gb_evolve_lint_first(GbRun *run)
{
    if (!(run->cfg->time_budget > 0) || !run->cfg->lint) return false;
    pthread_mutex_lock(&run->cost_mu);
    bool first = false;
    long nr = run->cost_n[GB_GATE_CLASS_RUN], nl = run->cost_n[GB_GATE_CLASS_LINT];
    if (nr >= GB_EVOLVE_COST_SEEN && nl >= GB_EVOLVE_COST_SEEN) {
        /* mean cost over rejection rate: the wall seconds each class spends per child it rejects */
        double per_r = run->cost_s[GB_GATE_CLASS_RUN] / (double)nr * (double)(nr + 2) /
                       (double)(run->cost_rej[GB_GATE_CLASS_RUN] + 1);
        double per_l = run->cost_s[GB_GATE_CLASS_LINT] / (double)nl * (double)(nl + 2) /
                       (double)(run->cost_rej[GB_GATE_CLASS_LINT] + 1);
        first = per_l < per_r;
    }
    pthread_mutex_unlock(&run->cost_mu);
    return first;
}

static GbGate gb_evolve__eval(GbValidatePhase *ph, size_t item, TSParser *parser, GbLintSession *lint)
{
    size_t c = item / GB_ITEM_KINDS, kind = item % GB_ITEM_KINDS;
    GbChildEval *e = &ph->evals[c];
    GbEvolveStats none;
    GbEvolveStats *stats = kind == GB_ITEM_LINT ? &none : &e->stats; /* the lint gate counts nothing */
    memset(stats, 0, sizeof *stats);
    GbGateCtx ctx = {
        .cfg = ph->cfg, .run = ph->run, .child = &ph->children[c], .parser = parser, .stats = stats, .lint = lint};
    if (kind != GB_ITEM_ALL)
        return gb_evolve__class(&ctx, kind == GB_ITEM_LINT ? GB_GATE_CLASS_LINT : GB_GATE_CLASS_RUN);
    /* one thread runs both classes: the one that costs less per rejection first */
    int first = gb_evolve_lint_first(ph->run) ? GB_GATE_CLASS_LINT : GB_GATE_CLASS_RUN;
    GbGate g = gb_evolve__class(&ctx, first);
    return g != GB_GATE_COUNT ? g : gb_evolve__class(&ctx, GB_GATE_CLASS_LINT + GB_GATE_CLASS_RUN - first);
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

bool gb_evolve_eval_next(GbEvolveCrew *crew, GbValidatePhase *ph, TSParser *parser, GbLintSession *lint)
{
    if (ph->next >= ph->ntodo || gb_evolve_stopped(ph->cfg)) return false;
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

/* A rejection of child at gate g, counted for each of its operators (a stacked child has
 * several). */
static void gb_evolve__reject(GbEvolveStats *stats, const GbIndividual *child, GbGate g)
{
    int ops[GB_EVOLVE_STACK_OPS];
    for (int k = gb_individual_ops(child, ops); k-- > 0;) stats->rejected[ops[k]][g]++;
}

static void gb_evolve__accept(GbRun *run, GbIndividual *child, GbHashList *hashes, GbEvolveStats *stats)
{
    /* rc, rr and sim were set when it was measured */
    int ops[GB_EVOLVE_STACK_OPS];
    for (int k = gb_individual_ops(child, ops); k-- > 0;) {
        stats->accepted[ops[k]]++;
        run->op_passed[ops[k]]++;
    }
    run->stacked += child->nops > 1;
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
        if (gb_evolve_stopped(ph->cfg)) {
            e->state = GB_CHILD_SKIPPED;
            continue;
        }
        GbGateCtx ctx = {.cfg = ph->cfg,
                         .run = ph->run,
                         .child = &ph->children[c],
                         .parser = parser,
                         .hashes = hashes->items,
                         .nhashes = nprev,
                         .stats = stats,
                         .lint = ph->run->lint};
        e->gate = gb_evolve_gates(&ctx, GB_GATE_COST_TREE, GB_GATE_COST_RUN);
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
        bool done = gb_evolve__item_evaluated(ph, ph->todo[k]), stopped = gb_evolve_stopped(ph->cfg), worked = false;
        if (!done && !stopped) {
            worked = gb_evolve_eval_next(crew, ph, wv->parser, ph->run->lint);
            if (!worked && crew) pthread_cond_wait(&crew->done, &crew->mu);
        }
        /* on a stop the commit drops what is not evaluated: first the helpers put down what
         * they hold (they claim nothing after a stop) */
        while (stopped && crew && crew->inflight > 0) pthread_cond_wait(&crew->done, &crew->mu);
        if (crew) pthread_mutex_unlock(&crew->mu);
        if (stopped) return;
        if (done)
            k++;
        else if (!worked && !crew)
            return; /* cannot happen: alone, this thread claimed every entry before it */
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
            if (gb_gate_runs_before(GB_GATE_DUPLICATE, g) &&
                gb_evolve_hash_seen(hashes->items + nprev, wave - nprev, child->hash))
                g = GB_GATE_DUPLICATE;
            gb_evolve__reject(stats, child, g);
            gb_individual_destroy(child);
            continue;
        }
        if (gb_evolve_hash_seen(hashes->items + nprev, hashes->len - nprev, child->hash)) {
            gb_evolve__reject(stats, child, GB_GATE_DUPLICATE);
            gb_individual_destroy(child);
            continue;
        }
        if (e->state != GB_CHILD_EVALUATED) {
            /* deferred (an earlier child of the wave with its tokens was rejected), or not
             * reached before a stop */
            if (gb_evolve_stopped(ph->cfg)) {
                gb_individual_destroy(child);
                continue;
            }
            e->gate = gb_evolve__eval(ph, c * GB_ITEM_KINDS + GB_ITEM_ALL, parser, run->lint);
            e->state = GB_CHILD_EVALUATED;
        }
        gb_evolve_stats_add(stats, &e->stats);
        if (e->gate != GB_GATE_COUNT) {
            if (child->nops < 2 && gb_gate_cost(e->gate) != GB_GATE_COST_TREE) run->op_failed[child->op]++;
            gb_evolve__reject(stats, child, e->gate);
            gb_individual_destroy(child);
            continue;
        }
        gb_evolve__accept(run, child, hashes, stats);
    }
}

void gb_evolve_validate_generation(const GbEvolveConfig *cfg, GbRun *run, GbIndividual *children, size_t n,
                                   TSParser *parser, GbHashList *hashes, GbEvolveStats *stats)
{
    size_t wave = n ? n : 1;
    if (cfg->accept > 0) {
        gb_evolve_rank_children(run, children, n, parser);
        wave = (size_t)cfg->accept < GB_EVOLVE_WAVE ? (size_t)cfg->accept : GB_EVOLVE_WAVE;
    }
    size_t first = n < wave ? n : wave;
    if (first > 1) gb_evolve_crew_ready(cfg, run, (int)first - 1);
    GbEvolveCrew *crew = run->crew;
    GbValidatePhase ph = {cfg,
                          run,
                          children,
                          n,
                          gb_calloc(n ? n : 1, sizeof(GbChildEval)),
                          gb_malloc((n ? 2 * n : 1) * sizeof(size_t)),
                          crew && cfg->lint,
                          0,
                          0,
                          0,
                          false};
    size_t nwaves = (n + wave - 1) / wave;
    GbWaves wv = {&ph,
                  parser,
                  hashes,
                  hashes->len,
                  stats,
                  wave,
                  nwaves,
                  0,
                  gb_calloc(nwaves + 1, sizeof(size_t)),
                  gb_calloc(nwaves ? nwaves : 1, sizeof(size_t))};
    if (crew) {
        pthread_mutex_lock(&crew->mu);
        ph.open = true;
        crew->ph = &ph;
        pthread_mutex_unlock(&crew->mu);
    }
    size_t before = run->pop.len, w = 0;
    for (; w < nwaves && (cfg->accept <= 0 || run->pop.len - before < (size_t)cfg->accept) && !gb_evolve_stopped(cfg);
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
        int ops[GB_EVOLVE_STACK_OPS];
        if (cfg->accept > 0) /* never offered to the gates */
            for (int k = gb_individual_ops(&children[c], ops); k-- > 0;) stats->offered[ops[k]]--;
        gb_individual_destroy(&children[c]);
    }
    free(wv.tstart);
    free(wv.deferred);
    free(ph.todo);
    free(ph.evals);
}
