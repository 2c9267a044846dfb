/* CodeBLEU: documents, the statistics of a corpus and its scores. The four measures are in
 * codebleu_ngram.c, codebleu_weighted.c, codebleu_syntax.c and codebleu_dataflow.c (see
 * codebleu_private.h). */
#include "src/measure/codebleu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "src/measure/codebleu_private.h"
#include "src/python/pyparse.h"

/* ------------------------------------------------------------------------------------------
 * Documents.
 * ------------------------------------------------------------------------------------------ */

static void cb__doc_structure(GbCodeBleuDoc *d, TSParser *parser)
{
    CbU64Vec keys = {0};
    TSTree *tree = gb_parse(parser, d->clean, strlen(d->clean));
    cb__subtrees(tree, &keys);
    d->sub_total = keys.len;
    d->nsubs = cb__count_keys(keys.items, keys.len, &d->subs);
    d->df_truncated = !cb__dataflow_items(tree, d->clean, &keys);
    ts_tree_delete(tree);
    d->dfg_total = keys.len;
    d->ndfg = cb__count_keys(keys.items, keys.len, &d->dfg);
    gb_array_free(&keys);
}

/* remove_comments_and_docstrings with the package's fallback (keep the input on error). */
static char *cb__clean(const char *s)
{
    char *c = gb_codebleu_strip_comments(s, strlen(s));
    return c ? c : gb_strdup(s);
}

GbCodeBleuDoc *gb_codebleu_doc_new(TSParser *parser, const char *source)
{
    GbCodeBleuDoc *d = gb_calloc(1, sizeof *d);
    size_t len = strlen(source), a, b;
    cb__py_strip(source, len, &a, &b);
    char *stripped = gb_strndup(source + a, b - a);
    cb__doc_ngrams(d, stripped, b - a);
    d->clean = cb__clean(stripped);
    free(stripped);
    cb__doc_structure(d, parser);
    return d;
}

void gb_codebleu_doc_delete(GbCodeBleuDoc *d)
{
    if (!d) return;
    free(d->clean);
    for (int k = 0; k < 4; k++) free(d->ng[k]);
    free(d->subs);
    free(d->dfg);
    free(d);
}

bool gb_codebleu_doc_dataflow_truncated(const GbCodeBleuDoc *d)
{
    return d->df_truncated;
}

/* ------------------------------------------------------------------------------------------
 * Statistics and scores.
 * ------------------------------------------------------------------------------------------ */

void gb_codebleu_stats_add(GbCodeBleuStats *acc, TSParser *parser, const GbCodeBleuDoc *hyp,
                           const GbCodeBleuDoc *const *refs, size_t nrefs)
{
    cb__ngram_add(acc, hyp, refs, nrefs);
    cb__weighted_add(acc, hyp, refs, nrefs);
    /* Syntax and dataflow: for the k-th reference the package has stripped the hypothesis
     * k+1 times. */
    const GbCodeBleuDoc *h = hyp;
    GbCodeBleuDoc *tmp = NULL;
    for (size_t r = 0; r < nrefs; r++) {
        if (r > 0) {
            GbCodeBleuDoc *next = gb_calloc(1, sizeof *next);
            next->clean = cb__clean(h->clean);
            cb__doc_structure(next, parser);
            gb_codebleu_doc_delete(tmp);
            tmp = next;
            h = tmp;
        }
        cb__syntax_add(acc, h, refs[r]);
        cb__dataflow_add(acc, h, refs[r]);
    }
    gb_codebleu_doc_delete(tmp);
}

void gb_codebleu_stats_merge(GbCodeBleuStats *acc, const GbCodeBleuStats *o)
{
    for (int k = 0; k < 4; k++) {
        acc->bleu_num[k] += o->bleu_num[k];
        acc->bleu_den[k] += o->bleu_den[k];
        acc->w_num[k] += o->w_num[k];
        acc->w_den[k] += o->w_den[k];
    }
    acc->bleu_hyp_len += o->bleu_hyp_len;
    acc->bleu_ref_len += o->bleu_ref_len;
    acc->w_hyp_len += o->w_hyp_len;
    acc->w_ref_len += o->w_ref_len;
    acc->syntax_match += o->syntax_match;
    acc->syntax_total += o->syntax_total;
    acc->df_match += o->df_match;
    acc->df_total += o->df_total;
}

void gb_codebleu_score(const GbCodeBleuStats *s, const GbCodeBleuOptions *o, GbCodeBleuScore *out)
{
    out->ngram = cb__bleu(s->bleu_num, s->bleu_den, s->bleu_ref_len, s->bleu_hyp_len);
    out->weighted_ngram = cb__bleu(s->w_num, s->w_den, s->w_ref_len, s->w_hyp_len);
    /* The package divides by zero here for an empty corpus; we give 0. */
    out->syntax = s->syntax_total > 0 ? s->syntax_match / s->syntax_total : 0;
    out->dataflow_defined = s->df_total > 0;
    out->dataflow = out->dataflow_defined ? s->df_match / s->df_total : 0;
    double df = out->dataflow;
    if (!o->strict_dataflow && df == 0) df = 1; /* `dataflow_match_score or 1` */
    out->codebleu = o->alpha * out->ngram + o->beta * out->weighted_ngram + o->gamma * out->syntax + o->delta * df;
}

void gb_codebleu_pair(TSParser *parser, const char *prediction, const char *const *references, size_t nrefs,
                      const GbCodeBleuOptions *o, GbCodeBleuScore *out)
{
    GbCodeBleuDoc *hyp = gb_codebleu_doc_new(parser, prediction);
    GbCodeBleuDoc **refs = gb_malloc((nrefs ? nrefs : 1) * sizeof *refs);
    for (size_t i = 0; i < nrefs; i++) refs[i] = gb_codebleu_doc_new(parser, references[i]);
    GbCodeBleuStats st;
    memset(&st, 0, sizeof st);
    gb_codebleu_stats_add(&st, parser, hyp, (const GbCodeBleuDoc *const *)refs, nrefs);
    gb_codebleu_score(&st, o, out);
    for (size_t i = 0; i < nrefs; i++) gb_codebleu_doc_delete(refs[i]);
    free(refs);
    gb_codebleu_doc_delete(hyp);
}

void gb_codebleu_options_default(GbCodeBleuOptions *o)
{
    o->alpha = o->beta = o->gamma = o->delta = 0.25;
    o->strict_dataflow = false;
}

bool gb_codebleu_parse_weights(const char *text, GbCodeBleuOptions *o)
{
    double w[4];
    const char *p = text;
    for (int i = 0; i < 4; i++) {
        char *end;
        w[i] = strtod(p, &end);
        if (end == p || !(w[i] >= 0) || !isfinite(w[i])) return false;
        p = end;
        if (i < 3) {
            if (*p != ',') return false;
            p++;
        }
    }
    if (*p) return false;
    o->alpha = w[0];
    o->beta = w[1];
    o->gamma = w[2];
    o->delta = w[3];
    return true;
}
