/* Stacked children: for a task whose validation is slow against its time budget, a child that
 * carries several operators, so that one validation can deepen a lineage by more than one step.
 * nsga2/README.md ("Stacked children") says when and why. */
#include "nsga2/evolve_private.h"

#include <stdlib.h>
#include <string.h>

/* A candidate step: a child of the parent that raises the score and reads within the gate, and
 * its gain per readability lost (score gain / (RR loss + GB_STACK_RR_EPS)). */
typedef struct {
    size_t child;
    double gain;
} GbStackCand;

#define GB_STACK_RR_EPS 0.005
/* The stack of most gain per readability lost takes only steps that raise the score by at least
 * this many times the RR they lose (nsga2/README.md, "Stacked children"). */
#define GB_STACK_MIN_RATIO 2.0
/* Under a time budget every task breeds that stack, at least this deep, its operators applied up
 * to this many times each (a decorator or a thread runner, once defined, is reused at little
 * readability cost). */
#define GB_STACK_EFF_DEPTH 6
#define GB_STACK_PASSES 3

static int gb_stack__by_gain(const void *a, const void *b)
{
    const GbStackCand *x = a, *y = b;
    if (x->gain != y->gain) return x->gain > y->gain ? -1 : 1;
    return x->child < y->child ? -1 : x->child > y->child;
}

int gb_evolve_stack_depth(double budget_s, double tests_wall_s)
{
    if (budget_s <= 0 || !(tests_wall_s > 0)) return 1;
    double d = 1 + tests_wall_s / (budget_s / GB_EVOLVE_STACK_SHARE);
    return d >= GB_EVOLVE_STACK_MAX ? GB_EVOLVE_STACK_MAX : (int)d;
}

/* The stacked child of parent pi from its children cands (best gain first), or false when
 * fewer than two of their operators apply one after the other with a gain each. With
 * min_ratio > 0 a step that costs readability must raise the score by at least min_ratio
 * times the RR it loses. */
static bool gb_stack__build(GbRun *run, uint64_t task_key, int g, size_t pi, const GbIndividual *children,
                            const GbStackCand *cands, size_t nc, const GbIndividual *from, double min_ratio, int depth,
                            int passes, TSParser *parser, GbIndividual *out)
{
    const GbTask *task = run->task;
    const GbIndividual *base = from ? from : &children[cands[0].child]; /* measured by the caller */
    GbIndividual cur;
    memset(&cur, 0, sizeof cur);
    gb_program_copy(&cur.prog, &base->prog);
    cur.metrics = base->metrics;
    cur.rc = base->rc;
    cur.rr = base->rr;
    cur.score = base->score;
    cur.sim = base->sim;
    cur.measured = true;
    cur.parent = (long)pi;
    cur.op = base->op;
    cur.ops[0] = cur.op;
    cur.nops = 1;
    if (from) {
        memcpy(cur.ops, from->ops, sizeof cur.ops);
        cur.nops = from->nops;
    }
    /* the first pass takes each operator once; later passes apply the operators already in the
     * stack again, at other sites */
    for (int pass = 0; pass < passes; pass++) {
        for (size_t c = pass || from ? 0 : 1; c < nc && cur.nops < depth; c++) {
            int o = children[cands[c].child].op;
            bool used = false;
            for (int k = 0; k < cur.nops; k++) used |= cur.ops[k] == o;
            if (pass ? !used : used) continue;
            GbIndividual next;
            memset(&next, 0, sizeof next);
            gb_program_copy(&next.prog, &cur.prog);
            next.parent = (long)pi;
            GbRng rng;
            gb_rng_init_keyed(&rng, run->cfg->seed, task_key ^ 0x5354414BULL, (uint64_t)g,
                              ((uint64_t)pi << 16) | ((uint64_t)cur.nops << 8) | (uint64_t)o);
            GbOpContext ctx;
            gb_op_ctx_init(&ctx, &next.prog, task, parser);
            GbError err;
            GbApplyStatus st = gb_op_apply_random(&ctx, gb_operator((GbOperatorId)o), &rng, NULL, &err);
            gb_op_ctx_destroy(&ctx);
            if (st != GB_APPLY_OK || !gb_evolve_measure(run, &next, parser) || !gb_evolve_readable(run, &next) ||
                next.score <= cur.score + 1e-12 ||
                (min_ratio > 0 && cur.rr - next.rr > 1e-12 &&
                 next.score - cur.score < min_ratio * (cur.rr - next.rr))) {
                gb_individual_destroy(&next);
                continue;
            }
            memcpy(next.ops, cur.ops, sizeof next.ops);
            next.nops = cur.nops;
            next.ops[next.nops++] = o;
            next.op = cur.ops[0];
            gb_individual_destroy(&cur);
            cur = next;
        }
    }
    if (cur.nops < 2) {
        gb_individual_destroy(&cur);
        return false;
    }
    *out = cur;
    return true;
}

void gb_evolve_stack_children(GbRun *run, uint64_t task_key, int g, TSParser *parser, GbIndividual **children,
                              size_t *n, GbEvolveStats *stats)
{
    bool budget = run->cfg->time_budget > 0;
    if ((run->stack < 2 && !budget) || *n < 2) return;
    GbIndividual *kids = *children;
    size_t nk = *n;
    GbArray(GbIndividual) extra = {0};
    GbStackCand *cands = gb_malloc(nk * sizeof *cands);
    for (size_t first = 0; first < nk; first++) {
        size_t pi = (size_t)kids[first].parent;
        bool seen = false;
        for (size_t j = 0; j < first && !seen; j++) seen = (size_t)kids[j].parent == pi;
        if (seen) continue;
        const GbIndividual *par = &run->pop.items[pi];
        size_t from = extra.len;
        /* two stacks: the steps of most gain per readability lost first, and of most gain first */
        for (int by_gain = 0; by_gain < 2 && (by_gain == 0 || run->stack >= 2); by_gain++) {
            size_t nc = 0;
            for (size_t c = first; c < nk; c++) {
                GbIndividual *ch = &kids[c];
                if ((size_t)ch->parent != pi || gb_evolve_op_demoted(run, ch->op) ||
                    !gb_evolve_measure(run, ch, parser) || !gb_evolve_readable(run, ch))
                    continue;
                double gain = ch->score - par->score, loss = par->rr - ch->rr;
                if (gain <= 1e-12) continue;
                cands[nc++] = (GbStackCand){c, by_gain ? gain : gain / ((loss > 0 ? loss : 0) + GB_STACK_RR_EPS)};
            }
            if (nc < 2) break;
            qsort(cands, nc, sizeof *cands, gb_stack__by_gain);
            GbIndividual st;
            int depth = run->stack >= GB_STACK_EFF_DEPTH ? run->stack : GB_STACK_EFF_DEPTH;
            /* for a slow task (a deeper stack than the careful one's least), the stack of most gain
             * goes on from the careful one when there is one */
            const GbIndividual *careful =
                by_gain && run->stack > GB_STACK_EFF_DEPTH && extra.len > from ? &extra.items[extra.len - 1] : NULL;
            if (by_gain) depth = careful ? careful->nops + run->stack : run->stack;
            if (depth > GB_EVOLVE_STACK_OPS) depth = GB_EVOLVE_STACK_OPS;
            if (!gb_stack__build(run, task_key, g, pi, kids, cands, nc, careful, by_gain ? 0 : GB_STACK_MIN_RATIO,
                                 depth, by_gain ? 1 : GB_STACK_PASSES, parser, &st))
                continue;
            bool same = false;
            for (size_t j = from; j < extra.len && !same; j++)
                same = extra.items[j].nops == st.nops && memcmp(extra.items[j].ops, st.ops, sizeof st.ops) == 0;
            if (same) {
                gb_individual_destroy(&st);
                continue;
            }
            for (int k = 0; k < st.nops; k++) stats->offered[st.ops[k]]++;
            gb_array_push(&extra, st);
        }
    }
    free(cands);
    if (extra.len) {
        kids = gb_realloc(kids, (nk + extra.len) * sizeof *kids);
        memcpy(kids + nk, extra.items, extra.len * sizeof *kids);
        *children = kids;
        *n = nk + extra.len;
    }
    gb_array_free(&extra);
}
