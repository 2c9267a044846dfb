/* The members of a task's population (GbIndividual): their measurement, the objectives of
 * selection, token hashes for the duplicate gate, and the similarity to earlier versions. */
#include "nsga2/evolve_private.h"

#include <stdlib.h>
#include <string.h>

#include "src/python/pyparse.h"

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

void gb_individual_destroy(GbIndividual *ind)
{
    gb_program_destroy(&ind->prog);
    for (size_t i = 0; i < ind->tried.len; i++) free(ind->tried.items[i]);
    gb_array_free(&ind->tried);
}

int gb_individual_ops(const GbIndividual *ind, int *ops)
{
    if (ind->nops > 0) {
        memcpy(ops, ind->ops, (size_t)ind->nops * sizeof *ops);
        return ind->nops;
    }
    if (ind->op < 0) return 0;
    ops[0] = ind->op;
    return 1;
}

/* Tried pairs are stored as one byte op+1 (never NUL) followed by the site key. */
bool gb_individual_was_tried(const GbIndividual *ind, int op, const char *key)
{
    size_t kl = strlen(key);
    for (size_t i = 0; i < ind->tried.len; i++) {
        const char *t = ind->tried.items[i];
        if ((unsigned char)t[0] == (unsigned char)(op + 1) && strlen(t + 1) == kl && memcmp(t + 1, key, kl) == 0)
            return true;
    }
    return false;
}

bool gb_evolve_hash_seen(const uint64_t *hashes, size_t n, uint64_t h)
{
    for (size_t i = 0; i < n; i++)
        if (hashes[i] == h) return true;
    return false;
}

void gb_evolve_set_scores(const GbEvolveConfig *cfg, GbIndividual *ind, const GbMetrics *orig)
{
    ind->rc = gb_fitness_rc(&ind->metrics, cfg->thresholds);
    ind->score = cfg->balanced ? gb_fitness_rc_balanced(&ind->metrics, cfg->thresholds) : ind->rc;
    if (cfg->balanced || !orig) return;
    for (int i = 0; i < GB_N_COMPLEXITY; i++)
        if (ind->metrics.v[i] > orig->v[i]) ind->score += GB_EVOLVE_SPREAD;
}

size_t gb_evolve_objectives(const GbRun *run, const GbIndividual *const *ind, size_t n, double *obj)
{
    size_t k = run->n_away ? 3 : 2;
    for (size_t i = 0; i < n; i++) {
        /* a refuted program (gb_evolve_verify) is dominated by every other */
        obj[k * i] = ind[i]->refuted ? -1 : ind[i]->score;
        obj[k * i + 1] = ind[i]->refuted ? -1 : ind[i]->rr;
        if (k == 3) obj[k * i + 2] = -(ind[i]->sim > run->cfg->away_target ? ind[i]->sim : run->cfg->away_target);
    }
    return k;
}

size_t gb_evolve_pop_objectives(const GbRun *run, double *obj)
{
    size_t n = run->pop.len;
    const GbIndividual **ind = gb_malloc((n ? n : 1) * sizeof *ind);
    for (size_t i = 0; i < n; i++) ind[i] = &run->pop.items[i];
    size_t k = gb_evolve_objectives(run, ind, n, obj);
    free(ind);
    return k;
}

void gb_evolve_identifiers(const GbProgram *prog, TSParser *parser, GbNames *out)
{
    for (size_t m = 0; m < prog->modules.len; m++) {
        const char *src = prog->modules.items[m].source;
        TSTree *t = gb_parse(parser, src, strlen(src));
        gb_flow_identifiers(ts_tree_root_node(t), src, out);
        ts_tree_delete(t);
    }
}

double gb_evolve_similarity(const GbRun *run, const GbProgram *prog, TSParser *parser)
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

bool gb_evolve_measure(const GbRun *run, GbIndividual *ch, TSParser *parser)
{
    if (ch->measured) return true;
    GbError err;
    if (!gb_metrics_compute(&ch->prog, parser, &ch->metrics, &err)) return false;
    gb_evolve_set_scores(run->cfg, ch, run->pop.len ? &run->pop.items[0].metrics : NULL);
    ch->rr = gb_fitness_rr(&ch->metrics, run->cfg->thresholds);
    ch->sim = gb_evolve_similarity(run, &ch->prog, parser);
    ch->measured = true;
    return true;
}

void gb_evolve_away_load(GbRun *run, const GbProgram *orig, TSParser *parser)
{
    enum { GB_AWAY_MAX = 64 };
    const GbEvolveConfig *cfg = run->cfg;
    GbProgram *earlier = gb_calloc(GB_AWAY_MAX, sizeof *earlier);
    size_t ne = cfg->away(cfg->away_arg, run->task, earlier, GB_AWAY_MAX);
    run->away = gb_calloc(ne ? ne : 1, sizeof *run->away);
    GbNames orig_names = {0};
    gb_evolve_identifiers(orig, parser, &orig_names);
    for (size_t j = 0; j < ne; j++) {
        char *text = gb_program_concat(&earlier[j]);
        gb_token_bag_init(&run->away[run->n_away++], parser, text, strlen(text));
        free(text);
        GbNames names = {0};
        gb_evolve_identifiers(&earlier[j], parser, &names);
        for (size_t i = 0; i < names.len; i++)
            if (!gb_names_has(&orig_names, names.items[i]) && !gb_names_has(&run->away_names, names.items[i]))
                gb_names_add(&run->away_names, names.items[i]);
        gb_names_destroy(&names);
        gb_program_destroy(&earlier[j]);
    }
    gb_names_destroy(&orig_names);
    free(earlier);
}
