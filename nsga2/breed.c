/* Breeding a generation: a job per parent and range of operators (GbBreedJob), done by the
 * task thread and its helpers, the children then taken in job order as if bred one at a time. */
#include "nsga2/evolve_private.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "operators/harness_policy.h"

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
            if (gb_individual_was_tried(parent, o, sites.items[k].key)) {
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
        gb_evolve_measure(run, &child, parser);
        gb_array_push(&job->kids, child);
    }
    gb_op_ctx_destroy(&pctx);
    gb_site_list_destroy(&sites);
}

bool gb_evolve_breed_next(GbEvolveCrew *crew, GbBreedPhase *bp, TSParser *parser)
{
    if (bp->next >= bp->njobs || gb_evolve_stopped(bp->cfg)) return false;
    GbBreedJob *job = &bp->jobs[bp->next++];
    if (crew) pthread_mutex_unlock(&crew->mu);
    gb_evolve__breed(bp, job, parser);
    if (crew) pthread_mutex_lock(&crew->mu);
    bp->done++;
    if (crew) pthread_cond_broadcast(&crew->done);
    return true;
}

void gb_evolve_breed_generation(const GbEvolveConfig *cfg, GbRun *run, uint64_t task_key, int g, const size_t *sel,
                                size_t nsel, TSParser *parser, GbIndividual **children, size_t *nchildren,
                                GbEvolveStats *stats)
{
    /* threads: this one and the helpers; with fewer than eight parents per thread, each
     * parent's operators are split into ranges, so that the threads end the phase together (a
     * range costs a parse of the parent; the children are the same). Measured on one task with
     * -j 2: a thread idle for 0.21 s of a 3.3 s run with two jobs per thread, 0.05 s with eight,
     * for no more breeding work in all. */
    int threads = 1 + gb_evolve_crew_ready(cfg, run, GB_EVOLVE_WAVE);
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
    while (gb_evolve_breed_next(crew, &bp, parser)) {
    }
    if (crew) {
        /* every claimed job finished (on a stop, not all are claimed) */
        while (bp.done < bp.next) pthread_cond_wait(&crew->done, &crew->mu);
        crew->bp = NULL;
        pthread_mutex_unlock(&crew->mu);
    }
    size_t total = 0;
    for (size_t j = 0; j < bp.njobs; j++) total += bp.jobs[j].kids.len;
    /* a parent none of whose jobs tried a site has none left (every job of it ran: no stop) */
    for (size_t s = 0; s < nsel && !gb_evolve_stopped(cfg); s++) {
        bool tried = false;
        for (size_t p = 0; p < parts; p++) tried |= bp.jobs[s * parts + p].tried.len > 0;
        if (!tried) run->pop.items[sel[s]].spent = true;
    }
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
