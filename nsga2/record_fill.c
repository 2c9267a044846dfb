/* The output record of a task (nsga2/record.h) from its finished run. */
#include "nsga2/evolve_private.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void gb_evolve__score(GbRecordScore *out, const GbIndividual *ind)
{
    out->rc = ind->rc;
    out->rr = ind->rr;
    for (int i = 0; i < GB_METRIC_COUNT; i++) out->metrics[i] = ind->metrics.v[i];
}

/* The site of the k-th operator of ind's step from par: the history entries after the parent's
 * come in runs of one operator name, one run per operator (a stacked child's are distinct); the
 * last entry of run k names its site. */
static const char *gb_evolve__step_site(const GbIndividual *ind, const GbIndividual *par, int k)
{
    const GbApplied *h = ind->prog.history.items;
    size_t n = ind->prog.history.len, i = par->prog.history.len;
    const char *site = n ? h[n - 1].site_key : "";
    for (int run = 0; i < n; run++) {
        size_t j = i;
        while (j + 1 < n && strcmp(h[j + 1].op, h[i].op) == 0) j++;
        if (run == k) return h[j].site_key;
        i = j + 1;
    }
    return site;
}

/* The operator codes of ind's step from its parent, joined by '+' (owned). */
static char *gb_evolve__step_codes(const GbIndividual *ind)
{
    int ops[GB_EVOLVE_STACK_OPS];
    int n = gb_individual_ops(ind, ops);
    GbStr s = {0};
    for (int k = 0; k < n; k++) gb_str_appendf(&s, "%s%s", k ? "+" : "", gb_operator((GbOperatorId)ops[k])->code);
    return gb_str_take(&s);
}

/* The pick's lineage, oldest step first, one per operator (a stacked child's share its RC
 * gain equally); each step's operator is credited in stats. */
static void gb_evolve__fill_lineage(const GbRun *run, GbRecord *rec, long pick, GbEvolveStats *stats)
{
    GbArray(long) chain = {0};
    for (long i = pick; i > 0; i = run->pop.items[i].parent) gb_array_push(&chain, i);
    for (size_t c = chain.len; c-- > 0;) {
        const GbIndividual *ind = &run->pop.items[chain.items[c]];
        const GbIndividual *par = &run->pop.items[ind->parent];
        int ops[GB_EVOLVE_STACK_OPS];
        int nops = gb_individual_ops(ind, ops);
        double delta = (ind->rc - par->rc) / nops;
        for (int k = 0; k < nops; k++) {
            const GbOperator *op = gb_operator((GbOperatorId)ops[k]);
            GbRecordStep step = {gb_strdup(op->code), gb_strdup(op->name), gb_strdup(gb_evolve__step_site(ind, par, k)),
                                 delta};
            gb_array_push(&rec->operators, step);
            stats->in_pick[ops[k]]++;
            stats->rc_delta[ops[k]] += delta;
        }
    }
    gb_array_free(&chain);
}

/* The patch turning module text a (NULL: the module did not exist) into b: their common prefix
 * and suffix kept, the middle replaced. */
static GbRecordPatch gb_evolve__patch(const char *path, const char *a, const char *b)
{
    size_t la = a ? strlen(a) : 0, lb = strlen(b), pre = 0, suf = 0;
    while (pre < la && pre < lb && a[pre] == b[pre]) pre++;
    while (suf < la - pre && suf < lb - pre && a[la - 1 - suf] == b[lb - 1 - suf]) suf++;
    GbRecordPatch p = {gb_strdup(path), pre, la - suf, gb_malloc(lb - suf - pre + 1)};
    memcpy(p.text, b + pre, lb - suf - pre);
    p.text[lb - suf - pre] = '\0';
    return p;
}

static long gb_evolve__lines(const GbProgram *prog)
{
    long n = 0;
    for (size_t m = 0; m < prog->modules.len; m++) {
        const char *s = prog->modules.items[m].source;
        size_t len = strlen(s);
        for (size_t i = 0; i < len; i++) n += s[i] == '\n';
        if (len > 0 && s[len - 1] != '\n') n++;
    }
    return n;
}

/* The pick's ancestors as rungs with the patches that rebuild each from the one before. */
static void gb_evolve__fill_rungs(const GbRun *run, GbRecord *rec, long pick)
{
    rec->has_lineage = true;
    GbArray(long) chain = {0};
    for (long i = pick; i > 0; i = run->pop.items[i].parent) gb_array_push(&chain, i);
    for (size_t c = chain.len; c-- > 0;) {
        const GbIndividual *ind = &run->pop.items[chain.items[c]];
        const GbProgram *par = &run->pop.items[ind->parent].prog;
        const GbApplied *last = ind->prog.history.len ? &ind->prog.history.items[ind->prog.history.len - 1] : NULL;
        GbRecordRung g = {gb_evolve__step_codes(ind),
                          last ? gb_strdup(last->site_key) : NULL,
                          ind->rc,
                          ind->rr,
                          ind->metrics.v[GB_METRIC_R1],
                          gb_evolve__lines(&ind->prog),
                          (long)ind->prog.history.len,
                          {0}};
        for (size_t m = 0; m < ind->prog.modules.len; m++) {
            const GbFile *f = &ind->prog.modules.items[m];
            const char *before = NULL;
            for (size_t k = 0; k < par->modules.len && !before; k++)
                if (strcmp(par->modules.items[k].path, f->path) == 0) before = par->modules.items[k].source;
            if (before && strcmp(before, f->source) == 0) continue;
            gb_array_push(&g.patch, gb_evolve__patch(f->path, before, f->source));
        }
        gb_array_push(&rec->lineage, g);
    }
    gb_array_free(&chain);
}

/* The first front: each member's objectives and lineage (and source with keep_front). */
static void gb_evolve__fill_front(const GbRun *run, GbRecord *rec, const size_t *front, size_t nfront)
{
    for (size_t k = 0; k < nfront; k++) {
        const GbIndividual *ind = &run->pop.items[front[k]];
        GbRecordFrontMember m = {ind->rc, ind->rr, {0}, NULL};
        GbArray(long) ch = {0};
        for (long i = (long)front[k]; i > 0; i = run->pop.items[i].parent) gb_array_push(&ch, i);
        for (size_t c = ch.len; c-- > 0;) {
            int ops[GB_EVOLVE_STACK_OPS];
            for (int j = 0, n = gb_individual_ops(&run->pop.items[ch.items[c]], ops); j < n; j++)
                gb_array_push(&m.operators, gb_strdup(gb_operator((GbOperatorId)ops[j])->code));
        }
        gb_array_free(&ch);
        if (run->cfg->keep_front) m.source = gb_program_concat(&ind->prog);
        gb_array_push(&rec->front, m);
    }
}

/* Scores before and after, the pick's lineage and edits, the first front. */
static void gb_evolve__fill_pick(const GbRun *run, GbEvolveResult *res, long pick, const size_t *front, size_t nfront)
{
    GbRecord *rec = &res->record;
    rec->has_scores = rec->has_operators = rec->has_edits = rec->has_front = true;
    gb_evolve__score(&rec->before, &run->pop.items[0]);
    const GbIndividual *best = &run->pop.items[pick];
    gb_evolve__score(&rec->after, best);
    gb_evolve__fill_lineage(run, rec, pick, &res->stats);
    /* The pick's edit history, so positions in the original can be mapped forward
     * (inject-bugs). */
    for (size_t e = 0; e < best->prog.history.len; e++) {
        const GbApplied *h = &best->prog.history.items[e];
        GbApplied a = {gb_strdup(h->op), gb_strdup(""), gb_strdup(h->module), h->start, h->old_end, h->new_end};
        gb_array_push(&rec->edits, a);
    }
    gb_evolve__fill_front(run, rec, front, nfront);
    gb_evolve__fill_rungs(run, rec, pick);
}

/* "gates" and "gates_by_operator" from the task's counts. */
static void gb_evolve__fill_gates(GbRecord *rec, const GbEvolveStats *stats)
{
    rec->has_gates = rec->has_gates_by_operator = true;
    for (int o = 0; o < GB_OP_COUNT; o++) {
        GbGateCounts *per = &rec->gates_by_operator[o];
        per->offered = stats->offered[o];
        per->accepted = stats->accepted[o];
        rec->gates.offered += per->offered;
        rec->gates.accepted += per->accepted;
        for (int g = 0; g < GB_GATE_COUNT; g++) {
            per->rejected[g] = stats->rejected[o][g];
            rec->gates.rejected[g] += per->rejected[g];
        }
    }
}

/* Naming, lint, equivalence and distance from earlier versions, each when it took part. */
static void gb_evolve__fill_extras(GbRun *run, GbEvolveResult *res, long pick)
{
    GbRecord *rec = &res->record;
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
        rec->equiv_branches = (long)gb_equiv_branches(run->equiv);
        rec->equiv_covered = (long)gb_equiv_covered(run->equiv);
        rec->equiv_untraced = gb_equiv_untraced(run->equiv);
        if (rec->equiv_branches > 0) rec->equiv_uncovered = gb_strdup(gb_equiv_uncovered(run->equiv));
        if (run->equiv_error) rec->equiv_error = gb_strdup(run->equiv_error);
        size_t screened;
        rec->has_equiv_screen = gb_equiv_screened(run->equiv, &screened);
        rec->equiv_screen = (long)screened;
        rec->equiv_refuted = (long)run->refuted;
    }
    if (run->tests_together) {
        rec->has_together = true;
        rec->together_refuted = (long)run->apart_refuted;
    }
    if (run->stack > 1) {
        rec->has_stack = true;
        rec->stack_depth = run->stack;
        rec->stack_stacked = (long)run->stacked;
    }
    if (run->n_away && run->pop.len > 0) {
        rec->has_away = true;
        rec->away_versions = (long)run->n_away;
        rec->away_target = run->cfg->away_target;
        rec->away_original = run->pop.items[0].sim;
        rec->away_pick = run->pop.items[pick].sim;
    }
}

void gb_evolve_finish(GbRun *run, GbEvolveResult *res, long pick, const size_t *front, size_t nfront)
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
    if (run->pop.len > 0) gb_evolve__fill_pick(run, res, pick, front, nfront);
    gb_evolve__fill_gates(rec, &res->stats);
    gb_evolve__fill_extras(run, res, pick);
    gb_record_set_original(rec, run->task);

    if (run->error) snprintf(res->error, sizeof res->error, "%s", run->error);
    gb_task_copy(&res->out, run->task);
    if (run->pop.len > 0) gb_program_to_task(&run->pop.items[pick].prog, &res->out);
}
