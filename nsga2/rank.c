/* NSGA-II ranking where the loop uses it: the parents of a generation, the order in which its
 * children are validated, and the final pick. */
#include "nsga2/evolve_private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "nsga2/select.h"

bool gb_evolve_op_demoted(const GbRun *run, int op)
{
    return op >= 0 && run->op_failed[op] >= GB_EVOLVE_DEMOTE_FAILS && run->op_passed[op] == 0;
}

size_t gb_evolve_select_parents(const GbRun *run, size_t *sel)
{
    size_t n = run->pop.len, live = 0;
    for (size_t i = 0; i < n; i++) live += !run->pop.items[i].spent;
    double *obj = gb_malloc((n ? 3 * n : 1) * sizeof *obj);
    size_t k = gb_evolve_pop_objectives(run, obj);
    /* the whole population is ranked; the best of those with sites left breed */
    gb_nsga2_rank(obj, n, k, sel, NULL, NULL);
    size_t nsel = gb_nsga2_select_count(live, run->cfg->breed), m = 0;
    if (run->cfg->max_parents > 0 && nsel > (size_t)run->cfg->max_parents) nsel = (size_t)run->cfg->max_parents;
    for (size_t r = 0; r < n && m < nsel; r++)
        if (!run->pop.items[sel[r]].spent) sel[m++] = sel[r];
    free(obj);
    return m;
}

size_t gb_evolve_pick(const GbRun *run, const double *obj, size_t k)
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
        if (ind->refuted || ind->sim > run->cfg->away_target + 1e-12) continue;
        rcrr[2 * m] = ind->score;
        rcrr[2 * m + 1] = ind->rr;
        ix[m++] = i;
    }
    size_t pick = m ? ix[gb_nsga2_best_rc(rcrr, m, 2)] : least;
    free(rcrr);
    free(ix);
    return pick;
}

void gb_evolve_rank_children(GbRun *run, GbIndividual *children, size_t n, TSParser *parser)
{
    size_t np = run->pop.len, tot = np + n;
    const GbIndividual **all = gb_malloc((tot ? tot : 1) * sizeof *all);
    bool *ok = gb_calloc(n ? n : 1, sizeof *ok);
    size_t m = np;
    for (size_t i = 0; i < np; i++) all[i] = &run->pop.items[i];
    size_t *slot = gb_malloc((n ? n : 1) * sizeof *slot); /* child -> index in all */
    for (size_t c = 0; c < n; c++) {
        GbIndividual *ch = &children[c];
        ok[c] = gb_evolve_measure(run, ch, parser);
        if (!ok[c]) continue;
        slot[c] = m;
        all[m++] = ch;
    }
    double *obj = gb_malloc((m ? m : 1) * 3 * sizeof *obj);
    size_t k = gb_evolve_objectives(run, all, m, obj);
    size_t *order = gb_malloc((m ? m : 1) * sizeof *order);
    gb_nsga2_rank(obj, m, k, order, NULL, NULL);
    size_t *pos = gb_malloc((m ? m : 1) * sizeof *pos);
    for (size_t r = 0; r < m; r++) pos[order[r]] = r;
    /* sort key: rank position; a child equal to its parent in every objective (a renaming) after
     * every child that changes one, since it cannot move the front, and so is a child of a demoted
     * operator (gb_evolve_op_demoted); unmeasurable children last */
    size_t *key = gb_malloc((n ? n : 1) * sizeof *key);
    for (size_t c = 0; c < n; c++) {
        bool same = false;
        if (ok[c]) {
            const GbIndividual *pair[2] = {&run->pop.items[children[c].parent], &children[c]};
            double o2[6];
            size_t k2 = gb_evolve_objectives(run, pair, 2, o2);
            same = true;
            for (size_t i = 0; i < k2; i++) same &= fabs(o2[i] - o2[k2 + i]) <= 1e-12;
            same |= children[c].nops < 2 && gb_evolve_op_demoted(run, children[c].op);
        }
        key[c] = !ok[c] ? 2 * m + c : same ? m + pos[slot[c]] : pos[slot[c]];
    }
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
